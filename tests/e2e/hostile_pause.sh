# hostile_pause.sh - a redirect's target's 429 pause survives a restart as
# that host's pause (issue 23): tests/e2e/hostile_server.py's pza.test/feed
# answers 302 to pzb.test, which answers the hop 429 with Retry-After: 3600;
# pza.test/feed2 and pzb.test/feed answer. The pause belongs to pzb.test
# (f9fecd8 paused it in the live loop). A second `run --once` started right
# after must still hold pzb.test and not pza.test: checked on the server's
# log of what each run asked.
. "$(dirname "$0")/lib.sh"

F=$FRESHET
hostile_start
CT=(--connect-to "pza.test:80:127.0.0.1:$PORT" --connect-to "pzb.test:80:127.0.0.1:$PORT")
q() { sqlite3 -batch -noheader "$1" "$2"; }
# asked FROM HOST [PATH]: requests to HOST (and PATH) from log line FROM on.
asked() { tail -n +"$1" "$LOG" | awk -F'\t' -v h="$2" -v p="${3:-}" '$2 == h && (p == "" || $3 == p)' | wc -l; }

DB=$WORK/p.db
expect_exit 0 "$F" add --db "$DB" http://pza.test/feed http://pza.test/feed2 http://pzb.test/feed
E2E_TIMEOUT=120 run "$F" run --db "$DB" --once --gap 0.2s "${CT[@]}"
cp "$ERR" "$WORK/run1.err"
expect_eq "run 1: pzb.test answered the hop 429" "$(asked 1 pzb.test /moved)" 1
check "run 1: the pause named pzb.test" grep -q "host pzb.test answered 429" "$WORK/run1.err"
expect_eq "run 1: pza.test/feed2 fetched" "$(asked 1 pza.test /feed2)" 1

from=$(($(wc -l <"$LOG") + 1))
E2E_TIMEOUT=120 run "$F" run --db "$DB" --once --gap 0.2s "${CT[@]}"
cp "$ERR" "$WORK/run2.err"
e2e_say "run 2 asked: $(tail -n +"$from" "$LOG" | cut -f2,3 | tr '\t\n' ' ,')"
expect_eq "run 2: pzb.test asked nothing (paused an hour)" "$(asked "$from" pzb.test)" 0
expect_eq "run 2: pza.test/feed2 fetched (its host not paused)" "$(asked "$from" pza.test /feed2)" 1
check "run 2: pzb.test's pause told" grep -q "host pzb.test paused until" "$WORK/run2.err"
check "run 2: pza.test not paused" not grep -q "host pza.test paused" "$WORK/run2.err"
expect_eq "the store holds the hop's pause under pzb.test" \
	"$(q "$DB" "SELECT count(*) FROM meta WHERE key = 'hop-pauses' AND CAST(value AS TEXT) LIKE '%pzb.test%'")" 1

finish
