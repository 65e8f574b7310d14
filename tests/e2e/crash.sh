# crash.sh - kill -9 `freshet run` in the middle of a crawl, several times,
# and restart it: no stored item is lost, none is stored twice, the store
# passes SQLite's integrity check, the learned policy state is restored, and
# a final pass still finds every item the server showed.
. "$(dirname "$0")/lib.sh"

F=$FRESHET
E2E_TIMEOUT=${E2E_TIMEOUT:-300}
DB=$WORK/crash.db

expect_exit 0 "$F" world --out "$WORK/w" --sources 300 --days 3 --seed 11
start_server srv --world "$WORK/w" --hosts 60 --speed 4320 --duration 1d --window 200 \
	--misbehave off --log "$WORK/req.log" --truth "$WORK/truth.csv" --opml "$WORK/feeds.opml"
clock_end=$(($(date +%s) + 21)) # one day at speed 4320: 20 s
expect_exit 0 "$F" add --db "$DB" --opml "$WORK/feeds.opml"

ids() { "$F" items --db "$DB" --format csv | tail -n +2 | cut -d, -f1 | sort; }
# Fetches stored so far (0 before the first commit).
fetches() { sqlite3 "$DB" 'SELECT count(*) FROM fetch_log' 2>/dev/null || echo 0; }
: >"$WORK/seen.ids"
for round in 1 2 3 4; do
	"$F" run --db "$DB" --connect-to "::127.0.0.1:$PORT" --budget 60/1s --backoff 1s/10s --quiet \
		2>"$WORK/run$round.err" >/dev/null &
	rpid=$!
	# Killed once it has stored some fetches (a state, not a duration: a
	# loaded machine fetches slower), at a point that differs by round.
	want=$((round * 50 + round * round * 7))
	for _ in $(seq 600); do
		[ "$(fetches)" -ge "$want" ] && break
		kill -0 "$rpid" 2>/dev/null || break
		sleep 0.05
	done
	kill -9 "$rpid"
	wait "$rpid" 2>/dev/null
	ids >"$WORK/now.ids"
	lost=$(comm -23 "$WORK/seen.ids" "$WORK/now.ids" | wc -l)
	expect_eq "round $round: no stored item lost" "$lost" 0
	expect_eq "round $round: no item stored twice" "$(uniq -d "$WORK/now.ids" | wc -l)" 0
	cp "$WORK/now.ids" "$WORK/seen.ids"
	if command -v sqlite3 >/dev/null; then
		expect_eq "round $round: integrity" "$(sqlite3 "$DB" 'PRAGMA integrity_check')" ok
	fi
	[ "$round" -gt 1 ] && check "round $round: learned state restored" \
		grep -q "restored the learned state of [1-9]" "$WORK/run$round.err"
done
check "items were stored before the kills" test "$(wc -l <"$WORK/seen.ids")" -gt 100

# The policy state saved before the last kill is what the next run starts from.
if command -v sqlite3 >/dev/null; then
	n_state=$(sqlite3 "$DB" "SELECT count(*) FROM sources WHERE policy = 'freshet' AND length(policy_state) > 0")
	n_fetched=$(sqlite3 "$DB" "SELECT count(*) FROM sources WHERE last_fetch_s > 0")
	check "sources fetched before the kills ($n_fetched)" test "$n_fetched" -gt 100
	expect_eq "every fetched source carries learned state" "$n_state" "$n_fetched"
fi

# After the world's clock stopped: one pass finds the rest.
while [ "$(date +%s)" -le "$clock_end" ]; do sleep 0.2; done
expect_exit 0 "$F" run --db "$DB" --connect-to "::127.0.0.1:$PORT" --once --backoff 1s/10s
expect_stderr_contains "restored the learned state of"
stop_server srv
tail -n +2 "$WORK/truth.csv" | cut -d, -f3 | sort >"$WORK/truth.ids"
ids >"$WORK/final.ids"
expect_eq "every item found" "$(comm -23 "$WORK/truth.ids" "$WORK/final.ids" | wc -l)" 0
expect_eq "no item stored twice" "$(uniq -d "$WORK/final.ids" | wc -l)" 0
expect_eq "nothing that was stored is gone" "$(comm -23 "$WORK/seen.ids" "$WORK/final.ids" | wc -l)" 0

finish
