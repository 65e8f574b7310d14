# sink.sh - run --webhook and run --exec against a loopback world: every
# stored item is delivered at least once to a webhook receiver on loopback
# (tests/e2e/sink_receiver.py, which checks the HMAC signature) and to a
# command, none lost across 10 kill -9 of `run` and 3 of the receiver, and
# a batch is delivered twice only after a kill. A command that fails is
# retried with backoff; a dead receiver does not stop the crawl. Waits on
# states (items stored, batches received), not on the machine's speed.
. "$(dirname "$0")/lib.sh"

F=$FRESHET
E2E_TIMEOUT=${E2E_TIMEOUT:-120}
unset FRESHET_DB FRESHET_WEBHOOK_SECRET
have_python || fatal "python3 is needed for the receiver"
DB=$WORK/sink.db
SECRET=s3cret-for-tests
BATCHES=$WORK/exec
mkdir -p "$BATCHES"

# wait_for SECONDS CMD...: until CMD succeeds (every 0.2 s); 1 on timeout.
# Not faster: most CMDs start a process (freshet items, python3), 50 ms of
# CPU each here and 190 ms under ASan, taken from the crawl waited on.
wait_for() {
	local t=$1 i
	shift
	for ((i = 0; i < t * 5; i++)); do
		"$@" && return 0
		sleep 0.2
	done
	return 1
}

# ---- usage ----
expect_exit 0 "$F" add --db "$DB" http://x.example/feed
expect_exit 2 "$F" run --db "$DB" --sink-backoff 5s/1s
expect_stderr_contains "--sink-backoff wants BASE/CAP with 0 < BASE <= CAP"
expect_exit 2 "$F" run --db "$DB" --sink-batch 0
expect_stderr_contains "--sink-batch wants a whole number"
expect_exit 1 "$F" run --db "$DB" --once --webhook ftp://127.0.0.1/x
expect_stderr_contains "not an absolute http(s) URL"
expect_exit 0 "$F" help run
for o in --exec --webhook --webhook-secret --sink-backoff --sink-batch; do
	expect_stdout_contains "$o"
done
rm -f "$DB"

# ---- the world, the receiver ----
expect_exit 0 "$F" world --out "$WORK/w" --sources 48 --days 3 --seed 4
start_server srv --world "$WORK/w" --hosts 6 --speed 20000 --start 2012-10-03T00:00:00Z \
	--duration 2d --misbehave off --api-limit off --opml "$WORK/feeds.opml"
expect_exit 0 "$F" add --db "$DB" --opml "$WORK/feeds.opml"

RPORT=
start_receiver() {
	rm -f "$WORK/recv.port"
	python3 "$E2E_DIR/sink_receiver.py" "$WORK/recv.port" "$WORK/recv.log" "$SECRET" ${RPORT:+"$RPORT"} \
		2>>"$WORK/recv.err" &
	RECV=$!
	PIDS="$PIDS $RECV"
	wait_for 10 test -s "$WORK/recv.port" || fatal "the receiver did not start"
	RPORT=$(cat "$WORK/recv.port")
}
start_receiver
: >"$WORK/recv.log"

# The command: each batch into a file of its own, renamed when whole; it
# fails while $WORK/fail exists. It takes 0.1 s a batch, and batches are of
# 2 items: a backlog builds up, so that the kills fall while batches are in
# flight (the crawl stores most items in its first seconds).
CMD="[ -e '$WORK/fail' ] && exit 3; sleep 0.1; f='$BATCHES/b.'\$FRESHET_FIRST_SEQ.\$\$; cat >\"\$f.tmp\" && mv \"\$f.tmp\" \"\$f\""
RUN=(run --db "$DB" --gap 0.05 --budget 400/2s --backoff 1s/2s --quiet
	--connect-to "::127.0.0.1:$PORT" --webhook "http://127.0.0.1:$RPORT/hook"
	--webhook-secret "$SECRET" --exec "$CMD" --sink-batch 2 --sink-backoff 0.1s/0.5s)

n_recv() { wc -l <"$WORK/recv.log"; }
n_exec() { ls "$BATCHES" | grep -vc '\.tmp$'; }
last_seq() { "$F" items --db "$DB" --last-seq 2>/dev/null || echo 0; }
more_than() { [ "$("$1")" -gt "$2" ]; }
grep_err() { grep -q "$1" "$WORK/run$2.err"; }

# ---- 10 runs killed with SIGKILL, the receiver killed in 3 of them ----
kills=0
recv_kills=0
for k in 1 2 3 4 5 6 7 8 9 10; do
	r0=$(n_recv)
	e0=$(n_exec)
	"$F" "${RUN[@]}" >"$WORK/run$k.out" 2>"$WORK/run$k.err" &
	RUNPID=$!
	if [ "$k" = 1 ]; then
		# The first run's sinks start from the empty store; wait for items.
		check "run 1 stored items" wait_for 20 more_than last_seq 20
	fi
	case $k in
	3 | 6 | 9)
		# The receiver dies: the crawl goes on, the webhook retries.
		check "run $k: the receiver took a batch" wait_for 15 more_than n_recv "$r0"
		kill -9 "$RECV"
		wait "$RECV" 2>/dev/null
		recv_kills=$((recv_kills + 1))
		check "run $k: a failed POST is retried" wait_for 15 grep_err "not delivered" "$k"
		s0=$(last_seq)
		start_receiver
		r0=$(n_recv)
		check "run $k: the receiver takes batches again" wait_for 15 more_than n_recv "$r0"
		;;
	5)
		# The command fails: retried with backoff, then taken.
		touch "$WORK/fail"
		check "run 5: the failing command is retried" wait_for 15 grep_err "exited 3; again in" 5
		rm -f "$WORK/fail"
		check "run 5: the command takes batches again" wait_for 15 more_than n_exec "$e0"
		;;
	*)
		# Kill once each sink has taken a batch more (a state, not a time).
		check "run $k: the receiver took a batch" wait_for 15 more_than n_recv "$r0"
		check "run $k: the command took a batch" wait_for 15 more_than n_exec "$e0"
		;;
	esac
	kill -9 "$RUNPID"
	wait "$RUNPID" 2>/dev/null
	kills=$((kills + 1))
	echo "kill $k" >>"$WORK/recv.log.marks"
done
check "the crawl went on while the receiver was dead (run 3: $(grep -c 'not delivered' "$WORK/run3.err") failed POSTs)" \
	test "$(last_seq)" -gt 20

# ---- the last run: no new items (the world stopped), deliver the rest ----
stop_server srv
N=$(last_seq)
"$F" "${RUN[@]}" >"$WORK/last.out" 2>"$WORK/last.err" &
RUNPID=$!
got_all() {
	python3 - "$WORK/recv.log" "$BATCHES" "$1" <<'PY'
import json, os, sys
n = int(sys.argv[3])
seen = set()
for l in open(sys.argv[1], encoding="utf-8"):
    try:
        seen.update(i["seq"] for i in json.loads(l)["body"]["items"])
    except (ValueError, KeyError, TypeError):
        pass
ex = set()
for name in os.listdir(sys.argv[2]):
    if name.endswith(".tmp"):
        continue
    for l in open(os.path.join(sys.argv[2], name), encoding="utf-8"):
        try:
            ex.add(json.loads(l)["seq"])
        except ValueError:
            pass
sys.exit(0 if set(range(1, n + 1)) <= seen and set(range(1, n + 1)) <= ex else 1)
PY
}
check "the last run delivers every item ($N) to both sinks" wait_for 40 got_all "$N"
kill -TERM "$RUNPID"
wait "$RUNPID" 2>/dev/null
e2e_say "$N items; $kills kill -9 of run, $recv_kills of the receiver; $(n_recv) POSTs, $(n_exec) command runs"

# ---- every item at least once, the right ones, duplicates only after kills ----
expect_exit 0 "$F" items --db "$DB"
cp "$OUT" "$WORK/items.jsonl"
check "every item delivered, the stored ones, signed, duplicates only after a kill" python3 - \
	"$WORK/recv.log" "$BATCHES" "$WORK/items.jsonl" "$kills" "$recv_kills" <<'PY'
import json, os, sys
recv, bdir, items = sys.argv[1], sys.argv[2], sys.argv[3]
kills, recv_kills = int(sys.argv[4]), int(sys.argv[5])
store = {}
for l in open(items, encoding="utf-8"):
    r = json.loads(l)
    store[r["seq"]] = (r["source_id"], r["id"])
n = len(store)
assert sorted(store) == list(range(1, n + 1)), "store seqs not 1..n"

def check(name, batches, allowed_dups):
    seen, dup_batches = set(), 0
    for b in batches:
        for it in b:
            assert store[it["seq"]] == (it["source_id"], it["id"]), (name, it["seq"])
        s = [it["seq"] for it in b]
        assert s == sorted(s), (name, "batch not in seq order", s)
        if seen & set(s):
            dup_batches += 1
        seen.update(s)
    missing = set(store) - seen
    assert not missing, (name, "lost", sorted(missing)[:10])
    assert dup_batches <= allowed_dups, (name, dup_batches, "batches repeated", allowed_dups)
    print(f"{name}: {len(batches)} batches, {n} items, {dup_batches} repeated", file=sys.stderr)

posts = [json.loads(l) for l in open(recv, encoding="utf-8")]
assert all(p["sig_ok"] for p in posts), "a POST with a bad signature"
hook = []
for p in posts:
    b = p["body"]
    assert b["sink"].startswith("webhook:http://127.0.0.1:"), b["sink"]
    s = [i["seq"] for i in b["items"]]
    assert b["first_seq"] == s[0] and b["last_seq"] == s[-1]
    hook.append(b["items"])
# A batch comes again only when a kill cut it: one per kill of run (the
# batch in flight) and of the receiver (one taken but not answered).
check("webhook", hook, kills + recv_kills)
ex = []
for name in sorted(os.listdir(bdir), key=lambda x: (int(x.split(".")[1]), x)):
    if name.endswith(".tmp"):
        continue
    rows = []
    for l in open(os.path.join(bdir, name), encoding="utf-8"):
        try:
            rows.append(json.loads(l))
        except ValueError:
            pass  # the last line of a batch cut by a kill
    if rows:
        ex.append(rows)
check("exec", ex, 2 * kills)
PY
check "the run's stderr has no sanitizer report" not grep -q -e Sanitizer -e 'runtime error:' "$WORK"/run*.err "$WORK/last.err"
finish
