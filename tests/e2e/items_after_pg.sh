# items_after_pg.sh - `items --after` while three `freshet run` workers write
# to one PostgreSQL store (a real server started here, pg_lib.sh) from a
# loopback world: two readers polling as the crawl goes (one with --cursor,
# one with --after SEQ from the last line it got) and one with --follow each
# see every stored item exactly once, in seq order 1..N: a seq is never
# visible before a lower one is committed (docs/store.md, "seq"). Fails
# (does not skip) without PostgreSQL binaries.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/pg_lib.sh"
. "$(dirname "$0")/items_lib.sh"

trap 'pg_stop; cleanup' EXIT
F=$FRESHET
E2E_TIMEOUT=${E2E_TIMEOUT:-120}
unset FRESHET_DB
have_python || fatal "python3 is needed to check the readers' output"

pg_start
expect_exit 0 "$F" world --out "$WORK/w" --sources 60 --days 2 --seed 11
start_server srv --world "$WORK/w" --hosts 12 --speed 3600 --start 2012-10-03T00:00:00Z \
	--duration 1d --misbehave off --api-limit off --opml "$WORK/feeds.opml"
DB=$(pg_createdb freshet_items)
expect_exit 0 "$F" add --db "$DB" --opml "$WORK/feeds.opml"
expect_exit 0 "$F" items --db "$DB" --last-seq
expect_eq "an empty store's last seq" "$(cat "$OUT")" 0

reader_follow "$WORK/follow.jsonl"
FPID=$RPID
reader_poll cursor "$WORK/cursor.jsonl" "$WORK/stop"
CPID=$RPID
reader_poll after "$WORK/after.jsonl" "$WORK/stop"
APID=$RPID

# Short group commits (--commit-every 1) so that the workers' commits
# where numbers taken in insert order (a plain sequence) would show readers gaps.
RUN=(run --duration 10s --gap 0.2 --budget 600/10s --backoff 1s/5s --commit-every 1
	--quiet --connect-to "::127.0.0.1:$PORT" --db "$DB")
pg_workers 3 "${RUN[@]}"
stop_server srv
touch "$WORK/stop"
wait "$CPID"
wait "$APID"

N=$(pg_psql "$DB" 'SELECT count(*) FROM items')
pg_psql "$DB" "SELECT source_id || ' ' || ident FROM items" >"$WORK/keys"
e2e_say "3 workers, 10 s: $N items; readers got $(wc -l <"$WORK/cursor.jsonl") (cursor), $(wc -l <"$WORK/after.jsonl") (after)"
check "the workers stored items ($N)" test "$N" -ge 100
expect_eq "seq 1..N: max" "$(pg_psql "$DB" 'SELECT max(seq) FROM items')" "$N"
expect_eq "the counter at N" "$(pg_psql "$DB" 'SELECT last FROM item_seq')" "$N"
expect_exit 0 "$F" items --db "$DB" --last-seq
expect_eq "items --last-seq" "$(cat "$OUT")" "$N"
# How many polls saw part of the crawl: the readers read while it wrote.
check "the --after reader polled during the crawl" test -s "$WORK/after.jsonl"
items_check "the --cursor reader" "$WORK/cursor.jsonl" "$N" "$WORK/keys"
items_check "the --after reader" "$WORK/after.jsonl" "$N" "$WORK/keys"
expect_eq "the cursor file holds the last seq" "$(cat "$WORK/cursor.jsonl.cur")" "$N"
check "no poll failed" not test -s "$WORK/cursor.jsonl.err"
check "no poll failed (after)" not test -s "$WORK/after.jsonl.err"

# --follow: has everything once it has caught up (state, not speed), and
# ends with 0 on SIGTERM.
for ((i = 0; i < 300; i++)); do
	[ "$(wc -l <"$WORK/follow.jsonl")" -ge "$N" ] && break
	kill -0 "$FPID" 2>/dev/null || break
	sleep 0.1
done
kill -TERM "$FPID"
rc=0
wait "$FPID" || rc=$?
expect_eq "items --follow exits 0 on SIGTERM ($(head -c 200 "$WORK/follow.jsonl.err"))" "$rc" 0
items_check "the --follow reader" "$WORK/follow.jsonl" "$N" "$WORK/keys"

# A later poll from the last seq gets nothing; --after N-5 the last five.
expect_exit 0 "$F" items --db "$DB" --cursor "$WORK/cursor.jsonl.cur"
expect_stdout_empty
expect_exit 0 "$F" items --db "$DB" --after "$((N - 5))" --format csv
expect_eq "--after N-5: five items" "$(($(wc -l <"$OUT") - 1))" 5
finish
