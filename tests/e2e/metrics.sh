# metrics.sh - `freshet run --listen`: /metrics in the Prometheus text format,
# read by Debian's python3-prometheus-client parser while a crawl of a
# loopback world runs (every family freshet documents present, with its type;
# counters that only grow between two scrapes; the fetch counters agreeing
# with the run's own summary at the end), /health, 404 and 405, a token when
# one is set, and a public address refused without one.
. "$(dirname "$0")/lib.sh"

F=$FRESHET
PY=/usr/bin/python3
[ -x "$PY" ] || PY=$(command -v python3 || true)
command -v curl >/dev/null || fatal "curl is needed"
if [ -z "$PY" ] || ! "$PY" -c 'import prometheus_client' 2>/dev/null; then
	fatal "python3 with prometheus_client is needed (apt-get install python3-prometheus-client)"
fi
DB=$WORK/m.db

expect_exit 0 "$F" world --out "$WORK/w" --sources 40 --days 2 --seed 5
start_server srv --world "$WORK/w" --hosts 10 --speed 3000 --duration 2d --opml "$WORK/feeds.opml"
expect_exit 0 "$F" add --db "$DB" --opml "$WORK/feeds.opml"

# A public address without a token: refused before anything listens.
expect_exit 1 "$F" run --db "$DB" --once --listen 0.0.0.0:0
expect_stderr_contains "not a loopback address, so a token is needed"
expect_exit 2 "$F" run --db "$DB" --once --listen
expect_exit 1 "$F" run --db "$DB" --once --listen 127.0.0.1:99999
expect_stderr_contains "the port must be 0 to 65535"

# The crawl, with a token: runs until told to stop.
echo "s3cret-token" >"$WORK/token"
"$F" run --db "$DB" --connect-to "::127.0.0.1:$PORT" --budget 100/1s --listen 127.0.0.1:0 \
	--listen-token-file "$WORK/token" >"$WORK/run.out" 2>"$WORK/run.err" &
RPID=$!
PIDS="$PIDS $RPID"
MPORT=
for ((i = 0; i < 400; i++)); do
	MPORT=$(sed -n 's/^freshet run: metrics on port \([0-9]*\):.*/\1/p' "$WORK/run.err")
	[ -n "$MPORT" ] && break
	kill -0 "$RPID" 2>/dev/null || break
	sleep 0.05
done
check "run names the port it listens on" test -n "$MPORT"
M=http://127.0.0.1:$MPORT
AUTH="Authorization: Bearer s3cret-token"
code=$(curl -s -o /dev/null -w '%{http_code}' "$M/metrics")
expect_eq "no token: 401" "$code" 401
code=$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer wrong" "$M/metrics")
expect_eq "a wrong token: 401" "$code" 401
code=$(curl -s -o /dev/null -w '%{http_code}' -H "$AUTH" "$M/nothing")
expect_eq "another path: 404" "$code" 404
code=$(curl -s -o /dev/null -w '%{http_code}' -H "$AUTH" -X POST "$M/metrics")
expect_eq "POST: 405" "$code" 405

# Scrapes until some fetches are counted (the state the test waits on).
for ((i = 0; i < 600; i++)); do
	curl -s -H "$AUTH" "$M/metrics" >"$WORK/m1.txt" || true
	grep -q '^freshet_fetches_total{outcome="not_modified"} [1-9]' "$WORK/m1.txt" && break
	kill -0 "$RPID" 2>/dev/null || break
	sleep 0.1
done
check "fetches counted while the crawl runs" grep -q '^freshet_fetches_total{outcome="ok"} [1-9]' "$WORK/m1.txt"
code=$(curl -s -o "$WORK/health" -w '%{http_code}' -H "$AUTH" "$M/health")
expect_eq "/health: 200 while it runs" "$code" 200
check "/health says ok" grep -q '"status":"ok"' "$WORK/health"
# A later scrape, once more fetches were counted.
n1=$(sed -n 's/^freshet_fetches_total{outcome="ok"} //p' "$WORK/m1.txt")
for ((i = 0; i < 600; i++)); do
	curl -s -H "$AUTH" "$M/metrics" >"$WORK/m2.txt" || true
	n2=$(sed -n 's/^freshet_fetches_total{outcome="ok"} //p' "$WORK/m2.txt")
	[ -n "$n2" ] && [ "$n2" -gt "$n1" ] && break
	sleep 0.1
done
cat >"$WORK/parse.py" <<'PYEOF'
import sys
from prometheus_client.parser import text_string_to_metric_families

def load(path):
    fams = {f.name: f for f in text_string_to_metric_families(open(path).read())}
    vals = {}
    for f in fams.values():
        for s in f.samples:
            vals[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return fams, vals

want = {"freshet_up": "gauge", "freshet_fetches": "counter", "freshet_new_items": "counter",
        "freshet_updated_items": "counter", "freshet_item_delay_seconds": "summary",
        "freshet_robots_fetches": "counter", "freshet_throttled": "counter",
        "freshet_wire_bytes": "counter", "freshet_transfers_in_flight": "gauge",
        "freshet_sources": "gauge", "freshet_hosts": "gauge", "freshet_hosts_paused": "gauge",
        "freshet_scheduler_lag_seconds": "gauge", "freshet_worker_waits": "counter",
        "freshet_last_progress_time_seconds": "gauge"}
f1, v1 = load(sys.argv[1])
f2, v2 = load(sys.argv[2])
bad = 0
for name, typ in want.items():
    if name not in f2 or f2[name].type != typ:
        print("missing or mistyped:", name, f2[name].type if name in f2 else None)
        bad = 1
for key, v in v1.items():
    fam = key[0]
    if fam.endswith("_total") and v2.get(key, -1) < v:
        print("counter went down:", key, v, v2.get(key))
        bad = 1
if v2[("freshet_sources", ())] != 40 or v2[("freshet_hosts", ())] != 10:
    print("sources/hosts:", v2[("freshet_sources", ())], v2[("freshet_hosts", ())])
    bad = 1
print("families", len(f2), "fetches ok", v1[("freshet_fetches_total", (("outcome", "ok"),))],
      "->", v2[("freshet_fetches_total", (("outcome", "ok"),))])
sys.exit(bad)
PYEOF
expect_exit 0 "$PY" "$WORK/parse.py" "$WORK/m1.txt" "$WORK/m2.txt"
e2e_say "$(cat "$OUT")"

kill -TERM "$RPID"
rc=0
wait "$RPID" || rc=$?
expect_eq "run exits 0 on SIGTERM" "$rc" 0
check "run's stderr sanitizer clean" not grep -q -e Sanitizer -e 'runtime error:' "$WORK/run.err"
code=$(curl -s -o /dev/null -w '%{http_code}' -H "$AUTH" "$M/health" || true)
check "the port is closed once run has ended" test "$code" = 000
stop_server srv
finish
