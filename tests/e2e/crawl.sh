# crawl.sh - `freshet run` end to end against `freshet serve`: 1,000 feeds on
# 100 virtual hosts (misbehaving ones included), a compressed day crawled
# live, then one --once pass after the world's clock stopped. Checks, from
# the store and from the server's own request log: every item the server
# showed was found and none twice; no host was ever asked faster than its
# gap (robots.txt Crawl-delay included); 304s were used; after a 429 the
# host was left alone until its Retry-After; the hosts that failed for a
# while were backed off and recovered; permanent redirects were adopted.
. "$(dirname "$0")/lib.sh"

F=$FRESHET
E2E_TIMEOUT=${E2E_TIMEOUT:-300}
DB=$WORK/crawl.db
SPEED=${CRAWL_SPEED:-2160} # one day in 40 s
LIVE=${CRAWL_LIVE:-42s}

expect_exit 0 "$F" world --out "$WORK/w" --sources 1000 --days 3 --seed 7
SRV=(--world "$WORK/w" --hosts 100 --speed "$SPEED" --duration 1d
	--window 100 --log "$WORK/req.log" --truth "$WORK/truth.csv" --opml "$WORK/feeds.opml")
# The server writes the feed list; the sources are added from it, then the
# server starts again so that its clock starts with the crawl however long
# the adding took on a loaded machine.
start_server srv "${SRV[@]}"
expect_exit 0 "$F" add --db "$DB" --opml "$WORK/feeds.opml"
expect_stderr_matches "added 100[0-9], already present 0"
stop_server srv
start_server srv "${SRV[@]}"

# The live crawl while the world's clock runs, then one pass after it stopped.
expect_exit 0 "$F" run --db "$DB" --connect-to "::127.0.0.1:$PORT" --duration "$LIVE" \
	--budget 80/1s --backoff 2s/20s --timeout 10 --request-log "$WORK/sent.log"
expect_stdout_matches '^[0-9,]+ fetches of 100[0-9] sources'
cp "$ERR" "$WORK/run1.err"
sleep 1
expect_exit 0 "$F" run --db "$DB" --connect-to "::127.0.0.1:$PORT" --once --timeout 10 \
	--backoff 2s/20s --request-log "$WORK/sent.log"
expect_stderr_contains "restored the learned state of"
cp "$ERR" "$WORK/run2.err"
stop_server srv

# Every item the server showed was found, none twice.
tail -n +2 "$WORK/truth.csv" | cut -d, -f3 | sort >"$WORK/truth.ids"
expect_exit 0 "$F" items --db "$DB" --format csv
tail -n +2 "$OUT" | cut -d, -f1 | sort >"$WORK/stored.ids"
n_truth=$(wc -l <"$WORK/truth.ids")
missing=$(comm -23 "$WORK/truth.ids" "$WORK/stored.ids" | wc -l)
dups=$(uniq -d "$WORK/stored.ids" | wc -l)
extra=$(comm -13 "$WORK/truth.ids" "$WORK/stored.ids" | wc -l)
e2e_say "truth $n_truth items; missing $missing, duplicated $dups, not in the truth $extra"
check "the world has items" test "$n_truth" -gt 1000
expect_eq "every item found" "$missing" 0
[ "$missing" = 0 ] || comm -23 "$WORK/truth.ids" "$WORK/stored.ids" | head -5 >&2
expect_eq "no item stored twice" "$dups" 0
expect_eq "nothing stored that the server never showed" "$extra" 0

# Politeness, where it is decided: the crawler's request log (the time each
# request went out, host, ...) gives the smallest gap between two requests
# to one host, per host, against that host's gap: 1 s, or its robots.txt
# Crawl-delay. No margin: the crawler counts its gaps from these times.
LOG=$WORK/req.log
n_req=$(tail -n +2 "$LOG" | wc -l)
check "the log has the crawl" test "$n_req" -gt 2000
awk -F'\t' '{ split($6, u, "/"); printf "%s\t%s\n", $1, u[3] }' "$WORK/sent.log" |
	sort -t"$(printf '\t')" -k2,2 -k1,1n |
	awk -F'\t' '$2 == h { d = $1 - t; if (!(h in m) || d < m[h]) m[h] = d }
		{ h = $2; t = $1 }
		END { for (k in m) printf "%s %.6f\n", k, m[k] }' | sort >"$WORK/sentgap"
worst=$(sort -k2,2n "$WORK/sentgap" | head -1)
e2e_say "smallest gap between two requests to one host, as sent: $worst"
check "no host asked faster than 1 s (as sent)" awk '$2 < 1 { exit 1 } END { exit NR < 90 }' "$WORK/sentgap"
# h9, h49 and h89 ask for a 2 s Crawl-delay in robots.txt: honoured between
# every two requests, robots.txt's own and the restart between the two runs
# included (tests/e2e/restart_gap.sh tests the restart alone).
grep -E '^h(9|49|89)\.freshet\.test ' "$WORK/sentgap" >"$WORK/cdgap"
e2e_say "Crawl-delay hosts, smallest gap as sent: $(tr '\n' ' ' <"$WORK/cdgap")"
check "Crawl-delay honoured on h9, h49, h89 (as sent)" \
	awk '$2 < 2 { exit 1 } END { exit NR != 3 }' "$WORK/cdgap"
# Every request the server logged is one the crawler sent and logged, host
# by host (a transfer that followed redirects made 1 + redirects requests).
awk -F'\t' '{ split($6, u, "/"); n[u[3]] += 1 + $5 } END { for (h in n) print h, n[h] }' \
	"$WORK/sent.log" | sort >"$WORK/sent.count"
tail -n +2 "$LOG" | awk -F'\t' '{ n[$2]++ } END { for (h in n) print h, n[h] }' |
	sort >"$WORK/seen.count"
expect_same_file "the server saw the requests the crawler logged, host by host" \
	"$WORK/sent.count" "$WORK/seen.count"
# Where they arrived: the server's log (wall time, host, method, path,
# status). On an idle machine the same gaps; on a busy one the server's own
# scheduling moves arrivals by tens of ms, so this is reported, not checked.
tail -n +2 "$LOG" | sort -t"$(printf '\t')" -k2,2 -k1,1n |
	awk -F'\t' '$2 == h { d = $1 - t; if (!(h in m) || d < m[h]) m[h] = d }
		{ h = $2; t = $1 }
		END { for (k in m) printf "%s %.3f\n", k, m[k] }' | sort >"$WORK/mingap"
e2e_say "smallest gap between two requests to one host, as received: $(sort -k2,2n "$WORK/mingap" | head -1)"

# 304s were used.
n304=$(awk -F'\t' '$5 == 304' "$LOG" | wc -l)
n_cond=$(awk -F'\t' '$7 == 1 || $8 == 1' "$LOG" | wc -l)
e2e_say "$n304 answers 304 of $n_req requests; $n_cond conditional"
check "conditional requests sent" test "$n_cond" -gt $((n_req / 3))
check "304s used" test "$n304" -gt $((n_req / 5))

# 429s obeyed: the request after a 429 to a host is never answered 429 again
# (Retry-After says when the window has room).
n429=$(awk -F'\t' '$5 == 429' "$LOG" | wc -l)
again=$(tail -n +2 "$LOG" | sort -t"$(printf '\t')" -k2,2 -k1,1n |
	awk -F'\t' '$2 == h && p == 429 && $5 == 429 && $4 !~ /robots/ { n++ }
		{ h = $2; p = $5 } END { print n + 0 }')
e2e_say "$n429 answers 429; $again of them right after another 429 on the host"
check "some 429s met" test "$n429" -gt 0
expect_eq "no 429 straight after a 429 (Retry-After obeyed)" "$again" 0

# Hosts whose paths answer 500 to their first two requests (h5, h45, h85) and 503
# with Retry-After for a while (h11, ...): backed off, then recovered.
awk -F'\t' '$2 == "h5.freshet.test" && $4 ~ /^\/feeds\//' "$LOG" | sort -t"$(printf '\t')" -k4,4 -k1,1n |
	awk -F'\t' '$4 != f { if (f != "") printf "%s %d %s\n", f, n, last; f = $4; n = 0 }
		$5 == 500 { n++ } { last = $5 }
		END { printf "%s %d %s\n", f, n, last }' >"$WORK/h5"
check "h5's feeds met 500s" awk '$2 >= 1 { n++ } END { exit !(n == 10) }' "$WORK/h5"
check "h5's feeds recovered (last answer 200 or 304)" \
	awk '$3 != 200 && $3 != 304 { exit 1 }' "$WORK/h5"
# The backoff doubles per error in a row (with jitter of +-25%): the next
# try after a second error in a row is later than after a first.
# A first error's wait is read from the plain 500s only: a 503's Retry-After
# may set a longer pause (kept as the source's next try); a later error's
# wait is the longer of its backoff and any Retry-After, so every line counts.
grep -v '(error 1 in a row' "$WORK/run1.err" |
	grep -e 'in a row' |
	cat - <(grep 'HTTP 500 (error 1 in a row' "$WORK/run1.err") |
	sed -n 's/.*(error \([0-9]*\) in a row, next try in \([0-9]*\) s)$/\1 \2/p' \
	>"$WORK/backoff"
check "errors were backed off" test -s "$WORK/backoff"
check "the backoff grows with errors in a row" awk '
	{ if (!($1 in lo) || $2 < lo[$1]) lo[$1] = $2; if ($2 > hi[$1]) hi[$1] = $2 }
	END { exit !((1 in hi) && (2 in lo) && lo[2] >= hi[1] - 1) }' "$WORK/backoff"
expect_exit 0 "$F" sources --db "$DB" --format csv
check "h5's sources are ok now, their last error kept" \
	awk -F, '$0 ~ /h5\.freshet\.test\/feeds/ { n++; if ($8 == "ok" && $11 ~ /HTTP 500/) k++ }
		END { exit !(n == 10 && k == 10) }' "$OUT"

# Permanent redirects (h15, h55, h95) adopted after a few fetches.
check "a permanent redirect adopted" grep -qE "moved permanently to http://h[0-9]*5.freshet.test/moved/" \
	"$WORK/run1.err"
check "the moved address is stored" grep -qE "h[0-9]*5.freshet.test/moved/feeds/" "$OUT"
# The huge feed is refused, as an error visible on the source.
check "the huge feed is an error on its source" grep -q "huge" "$OUT"

finish
