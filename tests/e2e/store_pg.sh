# store_pg.sh - the store on PostgreSQL, against a real server started here
# on loopback (pg_lib.sh) and stopped at the end: test_store's checks run on
# it (FRESHET_TEST_DB); then add, run --once, items and sources through
# `--db postgresql://...` and FRESHET_DB against a served world, finding the
# same items as the same run on SQLite; two `run --once` at once on one
# database store no item twice; `run` killed with SIGKILL mid-crawl, twice,
# loses no stored item. Fails (does not skip) without PostgreSQL binaries.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/pg_lib.sh"

trap 'pg_stop; cleanup' EXIT
F=$FRESHET
E2E_TIMEOUT=${E2E_TIMEOUT:-120}
unset FRESHET_DB

pg_start
e2e_say "$("$PG_BIN/postgres" --version | sed 's/^postgres (PostgreSQL)/PostgreSQL/') on 127.0.0.1:$PG_PORT"

# ---- the unit checks of the store, on PostgreSQL ----
UNIT=$(dirname "$F")/tests/test_store
[ -x "$UNIT" ] || fatal "no $UNIT (build the unit tests)"
expect_exit 0 env FRESHET_TEST_DB="$(pg_createdb freshet_unit)" "$UNIT"
expect_stderr_contains "ok   test_pg_concurrent_writers"
expect_stderr_contains "ok   test_crash_safety_sigkill_group_commit"
expect_stderr_matches "^[0-9]+ checks, 0 failed$"
grep -E '^  (speed|concurrent|crash)' "$ERR" | sed 's/^ */  unit: /' >&2

# ---- errors name the server and database, never the password ----
expect_exit 1 "$F" sources --db "postgresql://postgres:hunter2@127.0.0.1:1/nodb"
expect_stderr_contains "postgresql://postgres@127.0.0.1:1/nodb: cannot connect"
check "no password in the error" not grep -q hunter2 "$ERR"
expect_exit 1 "$F" sources --db "postgresql://postgres@127.0.0.1:$PG_PORT/no_such_db"
expect_stderr_contains "no_such_db"

# ---- a served world, crawled on SQLite and on PostgreSQL ----
# The clock stops one second after it starts, at the trace's end: every run
# sees the same feeds. No misbehaving hosts, no API limit; short gaps.
expect_exit 0 "$F" world --out "$WORK/w" --sources 120 --days 2 --seed 5
start_server srv --world "$WORK/w" --hosts 12 --speed 1 --start 2012-10-03T00:00:00Z \
	--duration 1 --misbehave off --api-limit off --opml "$WORK/feeds.opml" \
	--truth "$WORK/truth.csv"
sleep 1.2
RUN=(run --once --gap 0.2 --max-crawl-delay 0.2 --budget 200/1s --backoff 1s/5s --quiet
	--connect-to "::127.0.0.1:$PORT")

ids() { "$F" items --db "$1" --format csv | tail -n +2 | cut -d, -f1 | sort; }

LITE=$WORK/lite.db
PG=$(pg_createdb freshet_cli)
for db in "$LITE" "$PG"; do
	expect_exit 0 "$F" add --db "$db" --opml "$WORK/feeds.opml"
	expect_stderr_contains "added 120, already present 0"
	expect_exit 0 "$F" "${RUN[@]}" --db "$db"
	expect_stdout_matches "^fetched 120 times from 120 sources"
done
ids "$LITE" >"$WORK/lite.ids"
ids "$PG" >"$WORK/pg.ids"
n_lite=$(wc -l <"$WORK/lite.ids")
e2e_say "items: SQLite $n_lite, PostgreSQL $(wc -l <"$WORK/pg.ids")"
check "items were found" test "$n_lite" -gt 200
expect_same_file "the same items on PostgreSQL as on SQLite" "$WORK/lite.ids" "$WORK/pg.ids"
expect_eq "no item twice" "$(uniq -d "$WORK/pg.ids" | wc -l)" 0
# sources: the same rows, item counts included (times and rates differ).
for db in "$LITE" "$PG"; do
	expect_exit 0 "$F" sources --db "$db" --format csv
	csv_select "$OUT" id url kind group host title state last_status items active \
		>"$WORK/src.$([ "$db" = "$LITE" ] && echo lite || echo pg)"
done
expect_same_file "the same sources on PostgreSQL as on SQLite" "$WORK/src.lite" "$WORK/src.pg"
# FRESHET_DB names it too; items --source by address.
FRESHET_DB=$PG expect_exit 0 "$F" items --format csv --source "http://h3.freshet.test/feeds/s0003.rss"
FRESHET_DB=$LITE run "$F" items --format csv --source "http://h3.freshet.test/feeds/s0003.rss"
cp "$OUT" "$WORK/one.lite"
FRESHET_DB=$PG run "$F" items --format csv --source "http://h3.freshet.test/feeds/s0003.rss"
expect_eq "FRESHET_DB: one source's items alike" "$(cut -d, -f1,3,4 "$OUT")" \
	"$(cut -d, -f1,3,4 "$WORK/one.lite")"
expect_exit 0 "$F" remove --db "$PG" 5
expect_exit 0 "$F" sources --db "$PG" --format csv
expect_eq "remove" "$(tail -n +2 "$OUT" | wc -l)" 119

# ---- two workers at once on one database ----
PG2=$(pg_createdb freshet_two)
expect_exit 0 "$F" add --db "$PG2" --opml "$WORK/feeds.opml"
"$F" "${RUN[@]}" --db "$PG2" >"$WORK/w1.out" 2>"$WORK/w1.err" &
w1=$!
"$F" "${RUN[@]}" --db "$PG2" >"$WORK/w2.out" 2>"$WORK/w2.err" &
w2=$!
rc1=0 rc2=0
wait "$w1" || rc1=$?
wait "$w2" || rc2=$?
expect_eq "worker 1 exits 0 ($(head -c 300 "$WORK/w1.err"))" "$rc1" 0
expect_eq "worker 2 exits 0 ($(head -c 300 "$WORK/w2.err"))" "$rc2" 0
ids "$PG2" >"$WORK/two.ids"
expect_eq "two workers: no item twice" "$(uniq -d "$WORK/two.ids" | wc -l)" 0
expect_same_file "two workers: the same items as one" "$WORK/lite.ids" "$WORK/two.ids"
expect_eq "two workers: every fetch logged" \
	"$(pg_psql "$PG2" 'SELECT count(*) FROM fetch_log')" 240
expect_eq "two workers: each source's item count exact" \
	"$(pg_psql "$PG2" 'SELECT count(*) FROM sources s WHERE n_items <> (SELECT count(*) FROM items i WHERE i.source_id = s.id)')" 0

# ---- SIGKILL mid-crawl, twice, then a full pass: nothing stored is lost ----
PG3=$(pg_createdb freshet_kill)
expect_exit 0 "$F" add --db "$PG3" --opml "$WORK/feeds.opml"
: >"$WORK/seen.ids"
for round in 1 2; do
	# Slow (a 1 s gap per host: ten sources a host), killed after 2-3 s.
	"$F" run --once --gap 1 --budget 200/1s --quiet --db "$PG3" \
		--connect-to "::127.0.0.1:$PORT" >/dev/null 2>"$WORK/kill$round.err" &
	rpid=$!
	sleep "$((1 + round)).$((round * 3))"
	kill -9 "$rpid"
	wait "$rpid" 2>/dev/null
	ids "$PG3" >"$WORK/now.ids"
	e2e_say "kill $round: $(wc -l <"$WORK/now.ids") items stored"
	expect_eq "kill $round: no stored item lost" "$(comm -23 "$WORK/seen.ids" "$WORK/now.ids" | wc -l)" 0
	expect_eq "kill $round: no item twice" "$(uniq -d "$WORK/now.ids" | wc -l)" 0
	cp "$WORK/now.ids" "$WORK/seen.ids"
done
check "items were stored before the kills" test "$(wc -l <"$WORK/seen.ids")" -gt 0
check "the kills came mid-crawl" test "$(wc -l <"$WORK/seen.ids")" -lt "$n_lite"
expect_exit 0 "$F" "${RUN[@]}" --db "$PG3"
ids "$PG3" >"$WORK/final.ids"
expect_eq "after the kills: nothing stored is gone" "$(comm -23 "$WORK/seen.ids" "$WORK/final.ids" | wc -l)" 0
expect_same_file "after the kills: every item found once" "$WORK/lite.ids" "$WORK/final.ids"
expect_eq "after the kills: item counts exact" \
	"$(pg_psql "$PG3" 'SELECT count(*) FROM sources s WHERE n_items <> (SELECT count(*) FROM items i WHERE i.source_id = s.id)')" 0

stop_server srv
finish
