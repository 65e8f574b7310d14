# hostile_gap.sh - a redirect to another host keeps that host's gap (issue
# 23): tests/e2e/hostile_server.py serves gapa.test/feed and gapc.test/feed,
# which answer 302 to gapb.test and gapd.test, hosts whose own feeds are
# sources of the same crawl, and gapf.test/feed and gapg.test/feed, which
# both answer 302 to gape.test, a host no source names. Each redirect
# arrives while its target is being asked for by another source. The check
# is on the server's side: the times requests arrived at each host (robots.txt
# included), sorted, are never closer than the gap; the crawler's own
# clocks and speed do not enter it.
. "$(dirname "$0")/lib.sh"

F=$FRESHET
hostile_start

CT=()
for h in gapa gapb gapc gapd gape gapf gapg gaph gapi; do
	CT+=(--connect-to "$h.test:80:127.0.0.1:$PORT")
done
q() { sqlite3 -batch -noheader "$1" "$2"; }
requests() { awk -F'\t' -v h="$1" -v p="$2" '$2 == h && (p == "" || $3 == p)' "$LOG" | wc -l; }
# min_gap HOST: the smallest time between two requests' arrivals at HOST.
min_gap() {
	awk -F'\t' -v h="$1" '$2 == h { print $1 }' "$LOG" | sort -n |
		awk 'NR > 1 { d = $1 - p; if (m == "" || d < m) m = d } { p = $1 }
			END { printf "%.3f", m == "" ? 999 : m }'
}

GAP=1
DB=$WORK/gap.db
# In id order: the target's own feed first (gapb), then the redirect to it
# (gapa); then the redirect first (gapc), the target's feed after (gapd).
# gaph.test/feed redirects to gapi.test, whose first answer to it is a 429
# with Retry-After: 3: the pause is gapi.test's (its own feeds, asked one
# after another, wait it out), not gaph.test's.
expect_exit 0 "$F" add --db "$DB" http://gapb.test/feed http://gapa.test/feed \
	http://gapc.test/feed http://gapd.test/feed http://gapf.test/feed http://gapg.test/feed \
	http://gaph.test/feed http://gapi.test/feed http://gapi.test/feed2 http://gapi.test/feed3
E2E_TIMEOUT=120 run "$F" run --db "$DB" --once --gap "${GAP}s" --timeout 10 "${CT[@]}"
cp "$ERR" "$WORK/run.err"
expect_eq "--once exits 0" "$RC" 0
expect_eq "every source fetched without error" \
	"$(q "$DB" "SELECT count(*) FROM sources WHERE last_status = 200 AND err_count = 0")" 10
for h in gapb gapd gape; do
	expect_eq "$h.test: robots.txt asked once" "$(requests "$h.test" /robots.txt)" 1
done
expect_eq "gapb.test: the redirect's target asked" "$(requests gapb.test /moved)" 1
expect_eq "gapd.test: the redirect's target asked" "$(requests gapd.test /moved)" 1
expect_eq "gape.test: both redirects' targets asked" "$(requests gape.test /moved)" 2
t429=$(awk -F'\t' '$2 == "gapi.test" && $4 == 429 { print $1; exit }' "$LOG")
expect_eq "gapi.test answered one 429" "$(awk -F'\t' '$2 == "gapi.test" && $4 == 429' "$LOG" | wc -l)" 1
first_after=$(awk -F'\t' -v t="$t429" '$2 == "gapi.test" && $1 > t { print $1 }' "$LOG" | sort -n | head -1)
e2e_say "gapi.test: 429 (Retry-After: 3) at $t429, next request at $first_after"
check "gapi.test: nothing asked within the Retry-After of its 429 ($t429 -> $first_after)" \
	awk -v a="$t429" -v b="$first_after" 'BEGIN { exit !(b != "" && b - a >= 3) }'
for p in /feed /feed2 /feed3; do
	expect_eq "gapi.test: its own $p asked once" "$(requests gapi.test $p)" 1
done
expect_eq "gapi.test: the redirect's target asked again after the 429" "$(requests gapi.test /moved)" 2
for h in gapa gapb gapc gapd gape gapf gapg gaph gapi; do
	m=$(min_gap "$h.test")
	e2e_say "$h.test: $(requests "$h.test" "") requests, closest two ${m} s apart (arrivals)"
	check "$h.test: no two requests closer than the ${GAP} s gap (${m} s)" \
		awk -v m="$m" -v g="$GAP" 'BEGIN { exit !(m >= g) }'
done

finish
