# websub_world.sh - WebSub push end to end (issue 30's acceptance): a world
# of 20 feeds on 4 hosts, each publishing every 10 trace minutes, served at
# 120x by `freshet serve` whose hub pushes half of them (Link header
# rel="hub") and drops 10% of its deliveries on purpose; `freshet run`
# subscribes through --listen/--callback-base and polls. Checks, from the
# store, the hub's own log and the server's request log: every item the
# server showed was stored, none twice; each pushed item was stored within
# 2 s of the hub's POST (the hub logs the time it sent, the store keeps the
# time it stored: both wall clocks of this machine, no speed assumed); the
# sources that push were polled at most 1/10 as often as the others (after
# their subscription: the first poll is what finds the hub); a dropped
# delivery's items were found by a check poll; wrong signatures are
# refused and logged; the hub is reached only where the user allowed.
. "$(dirname "$0")/lib.sh"

F=$FRESHET
E2E_TIMEOUT=${E2E_TIMEOUT:-200}
DB=$WORK/ws.db
command -v sqlite3 >/dev/null || { echo "e2e/$E2E_NAME: no sqlite3: skipped, 0 checks"; exit 0; }

# 20 sources s00..s19, an item every 600 trace seconds each, offset 29 s
# apart; the serve clock starts before the first item (so every item is
# published while the crawl runs, and none slides out of a feed's window
# before a first poll) and runs 50 wall seconds (6000 trace s at 120x).
mkdir -p "$WORK/w"
awk 'BEGIN { print "source,time"
	for (k = 0; k < 400; k++) for (s = 0; s < 20; s++)
		printf "s%02d,%d\n", s, 1700000000 + k * 600 + s * 29 }' | sort -t, -k2,2n >"$WORK/w/trace.csv"
START=1699999990 # just before the first item: every item is published live
SRV=(--world "$WORK/w" --hosts 4 --misbehave off --speed 120 --start "$START" --duration 6000
	--window 25 --hub-share 0.5 --hub-drop 0.1 --hub-log "$WORK/hub.tsv" --log "$WORK/req.log"
	--truth "$WORK/truth.csv" --opml "$WORK/feeds.opml")
start_server srv "${SRV[@]}"
expect_exit 0 "$F" add --db "$DB" --opml "$WORK/feeds.opml"
expect_stderr_contains "added 20, already present 0"
stop_server srv

# Without leave to reach the hub (no --connect-to for it, no
# --allow-private), the subscription requests are refused by the address
# policy: logged, and nothing reaches the hub.
cp "$DB" "$WORK/denied.db"
start_server srv "${SRV[@]}"
expect_exit 0 "$F" run --db "$WORK/denied.db" --connect-to "h1.freshet.test:80:127.0.0.1:$PORT" \
	--connect-to "h3.freshet.test:80:127.0.0.1:$PORT" --duration 3s --budget 20/1s --gap 0.1 \
	--listen 127.0.0.1:0 --callback-base /websub --timeout 5
expect_stderr_matches "subscribe at hub http://h0.freshet.test/websub/hub failed: .*(refused|blocked|resolve|connect)"
stop_server srv
check "no request reached the hub" not grep -q $'\trequest\t' "$WORK/hub.tsv"
rm -f "$WORK/hub.tsv" "$WORK/req.log"

# The crawl: 60 s, the world's clock running for the first 50.
start_server srv "${SRV[@]}"
expect_exit 0 "$F" run --db "$DB" --connect-to "::127.0.0.1:$PORT" --duration 60s \
	--budget 20/1s --gap 0.1 --listen 127.0.0.1:0 --callback-base /websub --timeout 5 \
	--request-log "$WORK/sent.log"
cp "$ERR" "$WORK/run.err"
expect_stdout_matches '^[0-9,]+ fetches of 20 sources'
stop_server srv

# Every item the server showed was stored, none twice.
tail -n +2 "$WORK/truth.csv" | cut -d, -f3 | sort >"$WORK/truth.ids"
sqlite3 "$DB" "SELECT ident FROM items" | sort >"$WORK/stored.ids"
n_truth=$(wc -l <"$WORK/truth.ids")
missing=$(comm -23 "$WORK/truth.ids" "$WORK/stored.ids" | wc -l)
extra=$(comm -13 "$WORK/truth.ids" "$WORK/stored.ids" | wc -l)
dups=$(uniq -d "$WORK/stored.ids" | wc -l)
e2e_say "truth $n_truth items; missing $missing, not in the truth $extra, twice $dups"
check "the world has items" test "$n_truth" -gt 150
expect_eq "every item stored" "$missing" 0
[ "$missing" = 0 ] || comm -23 "$WORK/truth.ids" "$WORK/stored.ids" | head -5 >&2
expect_eq "nothing stored the server never showed" "$extra" 0
expect_eq "no item stored twice" "$dups" 0

# The hub's log: subscriptions verified for the 10 pushing sources, pushes,
# drops.
H=$WORK/hub.tsv
n_ver=$(awk -F'\t' '$2 == "verified" { print $3 }' "$H" | sort -u | wc -l)
n_push=$(awk -F'\t' '$2 == "push"' "$H" | wc -l)
n_drop=$(awk -F'\t' '$2 == "drop"' "$H" | wc -l)
n_failed=$(awk -F'\t' '$2 == "failed"' "$H" | wc -l)
e2e_say "hub: $n_ver sources subscribed; $n_push deliveries, $n_drop dropped, $n_failed failed"
expect_eq "the 10 pushing sources subscribed" "$n_ver" 10
check "deliveries were made" test "$n_push" -gt 50
check "some deliveries were dropped" test "$n_drop" -gt 0
expect_eq "no delivery refused by the subscriber" "$n_failed" 0

# Each pushed item stored within 2 s of its push: the hub logs the time it
# sent (wall_s), the store the time the item was first stored.
sqlite3 -separator $'\t' "$DB" "SELECT ident, printf('%.3f', first_seen_s) FROM items" |
	sort >"$WORK/seen.tsv"
awk -F'\t' '$2 == "push" { for (k = $4; k < $5; k++) printf "%s-%d\t%s\n", $3, k, $1 }' "$H" |
	sort >"$WORK/pushed.tsv"
join -t $'\t' "$WORK/pushed.tsv" "$WORK/seen.tsv" >"$WORK/lat.tsv"
n_pi=$(wc -l <"$WORK/pushed.tsv")
n_lat=$(wc -l <"$WORK/lat.tsv")
lat=$(awk -F'\t' '{ d = $3 - $2; if (d > m) m = d; s += d } END { printf "mean %.3f s, max %.3f s", s / NR, m }' "$WORK/lat.tsv")
e2e_say "pushed items: $n_pi, stored $n_lat; stored after the push: $lat"
expect_eq "every pushed item stored" "$n_lat" "$n_pi"
check "every pushed item stored within 2 s of its push" \
	awk -F'\t' '$3 - $2 > 2 { exit 1 }' "$WORK/lat.tsv"
# The dropped deliveries' items were found all the same (by check polls).
awk -F'\t' '$2 == "drop" { for (k = $4; k < $5; k++) printf "%s-%d\n", $3, k }' "$H" |
	sort >"$WORK/dropped.ids"
n_dropped_missing=$(comm -23 "$WORK/dropped.ids" "$WORK/stored.ids" | wc -l)
expect_eq "dropped deliveries' items stored" "$n_dropped_missing" 0

# Polls per source from the server's log, after the last subscription was
# verified (the first poll of each source is what finds its hub): pushing
# sources at most 1/10 of the others'.
t_sub=$(awk -F'\t' '$2 == "verified" { t = $1 } END { print t }' "$H")
awk -F'\t' '$2 == "push" || $2 == "drop" { print $3 }' "$H" | sort -u >"$WORK/pushers"
awk -F'\t' -v t="$t_sub" 'NR > 1 && $1 + 0 > t && $4 ~ /^\/feeds\// {
	n = split($4, p, "/"); sub(/\..*/, "", p[n]); c[p[n]]++ }
	END { for (s in c) print s, c[s] }' "$WORK/req.log" | sort >"$WORK/polls"
ratio=$(awk 'NR == FNR { push[$1] = 1; next }
	{ if ($1 in push) { a += $2; na++ } else { b += $2; nb++ } }
	END { pa = na ? a / 10 : 0; pb = nb ? b / nb : 0;
	      printf "%.4f %.1f %.1f", pb ? pa / pb : 1, pa, pb }' "$WORK/pushers" "$WORK/polls")
e2e_say "polls per source after subscribing: pushed $(echo "$ratio" | cut -d' ' -f2), polled $(echo "$ratio" | cut -d' ' -f3); ratio $(echo "$ratio" | cut -d' ' -f1)"
check "pushed sources polled at most 1/10 as often" awk -v r="${ratio%% *}" 'BEGIN { exit !(r <= 0.1) }'
check "the crawl stored pushes" grep -q . "$WORK/run.err"
n_push_log=$(sqlite3 "$DB" "SELECT count(*) FROM fetch_log WHERE outcome = 'push'")
check "pushes are in the fetch log" test "$n_push_log" -gt 50
check "no secret in the crawler's log" not grep -Eq '[0-9a-f]{64}' "$WORK/run.err"
check "run sanitizer clean" not grep -q -e Sanitizer -e 'runtime error:' "$WORK/run.err"

# A removed source is unsubscribed by the next run: the hub verifies the
# unsubscription with the callback, which confirms it.
expect_exit 0 "$F" remove --db "$DB" http://h1.freshet.test/feeds/s01.atom
cp "$WORK/hub.tsv" "$WORK/hub-run.tsv"
start_server srv "${SRV[@]}"
expect_exit 0 "$F" run --db "$DB" --connect-to "::127.0.0.1:$PORT" --duration 4s \
	--budget 20/1s --gap 0.1 --listen 127.0.0.1:0 --callback-base /websub --timeout 5
stop_server srv
check "the removed source's subscription is gone at the hub" \
	awk -F'\t' '$2 == "gone" && $3 == "s01" && $6 == 200 { f = 1 } END { exit !f }' "$WORK/hub.tsv"
check "and no other" not awk -F'\t' '$2 == "gone" && $3 != "s01" { f = 1 } END { exit !f }' "$WORK/hub.tsv"
n_left=$(sqlite3 "$DB" "SELECT value FROM meta WHERE key = 'websub'" | grep -c '^v1')
expect_eq "nine subscriptions left in the store" "$n_left" 9
finish
