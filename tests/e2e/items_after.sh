# items_after.sh - `items --after`, `--cursor` and `--follow` on an SQLite
# store while `freshet run` crawls a loopback world into it: each reader
# sees every stored item exactly once, in seq order 1..N. Also the option
# errors, --last-seq, the order within a fetch (oldest first), and --follow
# ending when its reader goes. (test_store checks the migration of a
# version-3 store: its items numbered in first-seen order.)
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/items_lib.sh"

F=$FRESHET
E2E_TIMEOUT=${E2E_TIMEOUT:-90}
unset FRESHET_DB
have_python || fatal "python3 is needed to check the readers' output"
DB=$WORK/items.db

# ---- option errors ----
expect_exit 0 "$F" add --db "$DB" http://x.example/feed
expect_exit 2 "$F" items --db "$DB" --after -1
expect_stderr_contains "--after wants a seq (a whole number >= 0), not '-1'"
expect_exit 2 "$F" items --db "$DB" --after 3 --cursor "$WORK/c"
expect_stderr_contains "give one"
expect_exit 2 "$F" items --db "$DB" --last-seq --follow
expect_stderr_contains "--last-seq takes no other option"
echo "12x" >"$WORK/bad.cur"
expect_exit 1 "$F" items --db "$DB" --cursor "$WORK/bad.cur"
expect_stderr_contains "bad.cur:1: '12x' is not a seq"
expect_exit 2 "$F" items --db "$DB" --folow
expect_stderr_contains "did you mean --follow"
expect_exit 0 "$F" help items
expect_stdout_contains "--after SEQ"
expect_stdout_contains "--follow"
expect_stdout_contains "--cursor FILE"
expect_stdout_contains "--last-seq"
rm -f "$DB"

# ---- readers while a crawl writes ----
expect_exit 0 "$F" world --out "$WORK/w" --sources 40 --days 2 --seed 5
start_server srv --world "$WORK/w" --hosts 8 --speed 3600 --start 2012-10-03T00:00:00Z \
	--duration 1d --misbehave off --api-limit off --opml "$WORK/feeds.opml"
expect_exit 0 "$F" add --db "$DB" --opml "$WORK/feeds.opml"
reader_follow "$WORK/follow.jsonl"
FPID=$RPID
reader_poll cursor "$WORK/cursor.jsonl" "$WORK/stop"
CPID=$RPID
reader_poll after "$WORK/after.jsonl" "$WORK/stop"
APID=$RPID
expect_exit 0 "$F" run --db "$DB" --duration 6s --gap 0.2 --budget 400/6s --backoff 1s/5s \
	--commit-every 1 --quiet --connect-to "::127.0.0.1:$PORT"
stop_server srv
touch "$WORK/stop"
wait "$CPID"
wait "$APID"
N=$(python3 -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute("select count(*) from items").fetchone()[0])' "$DB")
python3 -c '
import sqlite3, sys
for s, i in sqlite3.connect(sys.argv[1]).execute("select source_id, ident from items"):
    print(s, i)' "$DB" >"$WORK/keys"
e2e_say "6 s crawl: $N items"
check "the crawl stored items ($N)" test "$N" -ge 40
expect_exit 0 "$F" items --db "$DB" --last-seq
expect_eq "items --last-seq" "$(cat "$OUT")" "$N"
items_check "the --cursor reader" "$WORK/cursor.jsonl" "$N" "$WORK/keys"
items_check "the --after reader" "$WORK/after.jsonl" "$N" "$WORK/keys"
for ((i = 0; i < 300; i++)); do
	[ "$(wc -l <"$WORK/follow.jsonl")" -ge "$N" ] && break
	kill -0 "$FPID" 2>/dev/null || break
	sleep 0.1
done
kill -INT "$FPID"
rc=0
wait "$FPID" || rc=$?
expect_eq "items --follow exits 0 on SIGINT" "$rc" 0
items_check "the --follow reader" "$WORK/follow.jsonl" "$N" "$WORK/keys"

# Oldest first within each fetch: items of one source first seen at one
# time come in published order, in every format (jsonl checked here; the
# others print the same rows: sfeed's first field is the time).
check "oldest first within a fetch (jsonl)" python3 -c '
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
last = {}
for r in rows:
    k = (r["source_id"], r["first_seen"])
    t = r.get("published", r.get("updated"))
    if k in last and t is not None and last[k] is not None:
        assert last[k] <= t, (k, last[k], t)
    last[k] = t
' "$WORK/follow.jsonl"
expect_exit 0 "$F" items --db "$DB" --format sfeed
check "sfeed: every item, in the same order" python3 -c '
import json, sys
rows = [l.split("\t") for l in open(sys.argv[1], encoding="utf-8")]
js = [json.loads(l) for l in open(sys.argv[2], encoding="utf-8")]
assert len(rows) == len(js), (len(rows), len(js))
assert [r[5] for r in rows] == [j["id"] for j in js]
' "$OUT" "$WORK/follow.jsonl"

# --follow ends at once, exit 0, when its reader closes the pipe.
"$F" items --db "$DB" --follow | head -n 1 >"$WORK/one"
expect_eq "items --follow | head -n 1" "$(wc -l <"$WORK/one")" 1

finish
