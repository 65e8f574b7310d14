# parity.sh - the same small world through `freshet simulate` and through
# `freshet run` against `freshet serve` makes the same fetch decisions: the
# same sources, in the same order, at the same world times (../shared/
# STYLE.md: "a parity test"). run and serve share the world's clock through
# FRESHET_CLOCK_FILE: run moves it to its next fetch instead of waiting (one
# fetch at a time, taking no world time, as the simulator makes them), serve
# reads each request's time from it. So nothing here depends on the
# machine's speed: a loaded machine makes the run slower, not different.
# Checks the ordered (source, time) decisions of the run's fetch log against
# the simulator's --fetch-log, one by one, for each policy, and that the
# items found and their delays agree.
. "$(dirname "$0")/lib.sh"

F=$FRESHET
E2E_TIMEOUT=${E2E_TIMEOUT:-300}
have_python || fatal "python3 is needed to read the store's fetch log"

# 30 sources over 3 days; no items before the start (the world's own), so
# both sides start knowing nothing.
expect_exit 0 "$F" world --out "$WORK/w" --sources 30 --days 3 --seed 11
S=2012-10-01T00:00:00Z
S_UNIX=1349049600
E=2012-10-04T00:00:00Z
# The simulator's sources: each its own host, weight 1 (the crawler weighs
# every source 1).
awk -F, 'NR == 1 { print; next } { print $1 "," $1 ",default,1" }' "$WORK/w/sources.csv" \
	>"$WORK/src.csv"
n_items=$(($(wc -l <"$WORK/w/trace.csv") - 1))
e2e_say "world: 30 sources, $n_items items, $S .. $E"

# compare POLICY BUDGET: one run against one simulation.
compare() {
	local policy=$1 budget=$2 tag=$3
	local db=$WORK/$tag.db clock=$WORK/$tag.clock
	echo "$S_UNIX" >"$clock"
	export FRESHET_CLOCK_FILE=$clock
	# 30 hosts h0..h29, each source its own; well-behaved (no misbehaving
	# hosts, no API limits); a window wide enough that no item slides out
	# between two fetches.
	start_server "$tag" --world "$WORK/w" --hosts 30 --misbehave off --api-limit off \
		--start "$S" --window 500 --opml "$WORK/$tag.opml" --log "$WORK/$tag.req"
	expect_exit 0 "$F" add --db "$db" --opml "$WORK/$tag.opml"
	expect_exit 0 "$F" run --db "$db" --connect-to "::127.0.0.1:$PORT" --no-robots --gap 1 \
		--budget "$budget" --mode paced --duration 3d --policy "$policy" --seed 1 --quiet
	cp "$OUT" "$WORK/$tag.run.out"
	stop_server "$tag"
	unset FRESHET_CLOCK_FILE
	expect_eq "$tag: the world's clock ran to the end" "$(cut -d. -f1 "$clock")" $((S_UNIX + 3 * 86400))
	expect_exit 0 "$F" simulate --trace "$WORK/w/trace.csv" --sources "$WORK/src.csv" \
		--policy "$policy" --budget "$budget" --mode paced --host-gap 1s --start "$S" \
		--end "$E" --seed 1 --format csv --fetch-log "$WORK/$tag.sim.csv"
	cp "$OUT" "$WORK/$tag.sim.out"
	# Decisions: (source, time), in order. The run's from its fetch log
	# (source from the feed's address, /feeds/<source>.<ext>), the
	# simulator's from --fetch-log. Times agree within the clock's
	# resolution (the file holds microseconds).
	python3 - "$db" "$WORK/$tag.sim.csv" >"$WORK/$tag.cmp" 2>&1 <<'EOF'
import csv, re, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
run = [(re.search(r"/feeds/([^./]+)\.", u).group(1), t, o) for u, t, o in db.execute(
    "select s.url, f.time_s, f.outcome from fetch_log f join sources s on s.id = f.source_id "
    "order by f.time_s, f.id")]
sim = [(r["source"], float(r["time"])) for r in csv.DictReader(open(sys.argv[2]))]
same = 0
for a, b in zip(run, sim):
    if a[0] != b[0] or abs(a[1] - b[1]) > 1e-3:
        break
    same += 1
errors = sum(1 for r in run if r[2] not in ("ok", "not-modified"))
print(f"run {len(run)} sim {len(sim)} same {same} errors {errors}")
if same < min(len(run), len(sim)):
    lo = max(0, same - 3)
    for k in range(lo, min(same + 3, len(run), len(sim))):
        print(f"  #{k}: run {run[k][0]} {run[k][1]:.6f}  sim {sim[k][0]} {sim[k][1]:.6f}")
EOF
	local line n_run n_sim n_same n_err
	line=$(head -1 "$WORK/$tag.cmp")
	read -r _ n_run _ n_sim _ n_same _ n_err <<<"$line"
	e2e_say "$tag ($policy, $budget): $line"
	[ "$n_same" = "$n_run" ] || sed -n '2,$p' "$WORK/$tag.cmp" >&2
	check "$tag: decisions were made" test "${n_run:-0}" -gt 100
	expect_eq "$tag: no fetch failed" "$n_err" 0
	expect_eq "$tag: as many fetches as the simulator" "$n_run" "$n_sim"
	expect_eq "$tag: the same (source, time) decisions in order" "$n_same" "$n_run"
	# What they found: the run's summary against the simulator's row.
	local found delay sim_found sim_delay
	found=$(sed -n 's/.*; \([0-9,]*\) new items, found \([0-9.]*\) s after.*/\1/p' "$WORK/$tag.run.out" | tr -d ,)
	delay=$(sed -n 's/.*new items, found \([0-9.]*\) s after.*/\1/p' "$WORK/$tag.run.out")
	sim_found=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ print $c["fetched"] }' "$WORK/$tag.sim.out")
	sim_delay=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ print $c["delay_mean_s"] }' "$WORK/$tag.sim.out")
	e2e_say "$tag: found $found items, mean delay $delay s; simulator $sim_found, $sim_delay s"
	expect_eq "$tag: the same items found" "$found" "$sim_found"
	check "$tag: the same mean delay (to 0.1 s)" \
		awk -v a="$delay" -v b="$sim_delay" 'BEGIN { d = a - b; exit !(a != "" && d < 0.1 && d > -0.1) }'
}

compare freshet 60/1h fs
compare round-robin 45/1h rr
finish
