# hostile_forum_gap.sh - a forum's page on another host than its board (a
# link, not a redirect) keeps that host's gap and asks its robots.txt
# (issue 23): tests/e2e/hostile_server.py serves a board at
# fq1.test/forum/ whose pager's next page is fq2.test/forum/ (the pages
# differ in the host's number), and twelve feeds on fq2.test, sources of the
# same crawl, asked one gap after another while the forum's cycle reaches
# fq2.test. Checked on the server's side: the times requests arrived at each
# host, sorted, are never closer than the gap, and fq2.test's robots.txt is
# asked once, before anything else there.
. "$(dirname "$0")/lib.sh"

F=$FRESHET
hostile_start
CT=(--connect-to "fq1.test:80:127.0.0.1:$PORT" --connect-to "fq2.test:80:127.0.0.1:$PORT")
q() { sqlite3 -batch -noheader "$1" "$2"; }
requests() { awk -F'\t' -v h="$1" -v p="${2:-}" '$2 == h && (p == "" || $3 == p)' "$LOG" | wc -l; }
min_gap() {
	awk -F'\t' -v h="$1" '$2 == h { print $1 }' "$LOG" | sort -n |
		awk 'NR > 1 { d = $1 - p; if (m == "" || d < m) m = d } { p = $1 }
			END { printf "%.3f", m == "" ? 999 : m }'
}

GAP=1
DB=$WORK/fg.db
expect_exit 0 "$F" add --db "$DB" --kind forum http://fq1.test/forum/
feeds=()
for k in $(seq 1 12); do feeds+=("http://fq2.test/feed$k"); done
expect_exit 0 "$F" add --db "$DB" "${feeds[@]}"
E2E_TIMEOUT=180 run "$F" run --db "$DB" --once --gap "${GAP}s" --timeout 10 "${CT[@]}"
cp "$ERR" "$WORK/run.err"
expect_eq "--once exits 0" "$RC" 0
expect_eq "every source fetched without error" \
	"$(q "$DB" "SELECT count(*) FROM sources WHERE err_count = 0 AND last_fetch_s > 0")" 13
expect_eq "the board's second page, on fq2.test, asked" "$(requests fq2.test /forum/)" 1
expect_eq "fq2.test: robots.txt asked once" "$(requests fq2.test /robots.txt)" 1
first=$(sort -n "$LOG" | awk -F'\t' '$2 == "fq2.test" { print $3; exit }')
expect_eq "fq2.test: robots.txt before anything else there" "$first" /robots.txt
for h in fq1 fq2; do
	m=$(min_gap "$h.test")
	e2e_say "$h.test: $(requests "$h.test") requests, closest two ${m} s apart (arrivals)"
	check "$h.test: no two requests closer than the ${GAP} s gap (${m} s)" \
		awk -v m="$m" -v g="$GAP" 'BEGIN { exit !(m >= g) }'
done

finish
