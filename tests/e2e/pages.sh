# pages.sh - repositories of changing pages end to end: `freshet world --kind
# pages` is deterministic and writes the four files; simulate on it shows
# freshness, age and politeness violations (and the UNPOLITE and POLITE
# bounds) while other inputs keep their output; the time policies run, the
# equally spaced one breaks the gap and the delayed ones never do; both bounds
# lie at or above the simulated freshness of the policies they bound.
. "$(dirname "$0")/lib.sh"

F=$FRESHET
D=$WORK


# ---- world --kind pages ----
W=$D/pages
expect_exit 0 "$F" world --kind pages --out "$W" --pages 2000 --servers 100 --days 30 --seed 4
expect_stderr_contains "2000 pages on 100 servers"
for f in pages.csv trace.csv sources.csv world.csv; do
	check "world wrote $f" test -s "$W/$f"
done
expect_eq "pages.csv header" "$(head -n 1 "$W/pages.csv")" "page,server,lambda_per_day,weight"
expect_eq "pages.csv rows" "$(wc -l <"$W/pages.csv")" 2001
expect_eq "sources.csv header" "$(head -n 1 "$W/sources.csv")" "source,host,group,weight"
expect_eq "trace.csv header" "$(head -n 1 "$W/trace.csv")" "source,time"
# Every page's host is its server, with its importance as weight.
check "sources match pages" cmp -s <(tail -n +2 "$W/pages.csv" | cut -d, -f1,2,4) \
	<(tail -n +2 "$W/sources.csv" | cut -d, -f1,2,4)
# Heavy tail: the biggest server holds many times the mean of 20 pages.
biggest=$(tail -n +2 "$W/pages.csv" | cut -d, -f2 | sort | uniq -c | sort -rn | head -n 1 |
	awk '{print $1}')
check "a heavy-tailed server ($biggest pages)" test "$biggest" -gt 200
expect_eq "every server has pages" \
	"$(tail -n +2 "$W/pages.csv" | cut -d, -f2 | sort -u | wc -l)" 100
# About one change per page per day.
changes=$(($(wc -l <"$W/trace.csv") - 1))
check "about 60,000 changes ($changes)" test "$changes" -gt 50000 -a "$changes" -lt 70000

expect_exit 0 "$F" world --kind pages --out "$D/again" --pages 2000 --servers 100 --days 30 \
	--seed 4
for f in pages.csv trace.csv sources.csv world.csv; do
	expect_same_file "same seed, same $f" "$W/$f" "$D/again/$f"
done
expect_exit 0 "$F" world --kind pages --out "$D/other" --pages 2000 --servers 100 --days 30 \
	--seed 5
check "another seed, other rates" not cmp -s "$W/pages.csv" "$D/other/pages.csv"

expect_exit 0 "$F" world --help
expect_stdout_contains "--kind pages"
expect_exit 2 "$F" world --kind pages --out "$D/x" --sources 10
expect_stderr_contains "--sources is for --kind feeds"
expect_exit 2 "$F" world --out "$D/x" --pages 10
expect_stderr_contains "--pages is for --kind pages"
expect_exit 2 "$F" world --kind bogus --out "$D/x"
expect_stderr_contains "unknown kind"
expect_exit 2 "$F" world --kind pages --out "$D/x" --pages 10 --servers 20
expect_stderr_contains "invalid repository"

# ---- simulate on it ----
POL=cho+delayed,opt-polite+delayed,cho+equal,round-robin
RUNARGS=(simulate --world "$W" --budget 30/60s --mode paced --host-gap 15s --policy "$POL")
expect_exit 0 "$F" "${RUNARGS[@]}" --format csv
cp "$OUT" "$D/run.csv"
sel=$(csv_select "$D/run.csv" policy freshness age_mean_s polite_violations)
check "csv has the freshness columns" test -n "$sel"
row() { printf '%s\n' "$sel" | grep "^\"$1\"," | head -n 1; }
for p in cho+delayed opt-polite+delayed round-robin; do
	expect_eq "$p keeps the gap" "$(row "$p" | cut -d, -f4)" 0
done
check "cho+equal breaks the gap" test "$(row cho+equal | cut -d, -f4)" -gt 0

expect_exit 0 "$F" "${RUNARGS[@]}" --format json
cp "$OUT" "$D/run.json"
num() { grep -oE "\"$1\": [-0-9.eE+]+" "$D/run.json" | head -n 1 | sed -E 's/.*: //'; }
UNPOLITE=$(num unpolite)
POLITE=$(num polite)
check "json has the bounds ($UNPOLITE, $POLITE)" test -n "$UNPOLITE" -a -n "$POLITE"
check "json has freshness per run" grep -q '"freshness": 0\.' "$D/run.json"
check "json has polite_violations" grep -q '"polite_violations": ' "$D/run.json"
check "cho+equal runs without the gap (polite=0)" grep -q '"polite": 0' "$D/run.json"
# le A B: A <= B + 0.003 (sampling noise, and pages start fresh).
le() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a <= b + 0.003) }'; }
check "POLITE <= UNPOLITE" le "$POLITE" "$UNPOLITE"
fresh() { row "$1" | cut -d, -f2; }
for p in cho+delayed opt-polite+delayed round-robin; do
	check "$p ($(fresh "$p")) <= POLITE ($POLITE)" le "$(fresh "$p")" "$POLITE"
done
for p in cho+delayed opt-polite+delayed cho+equal round-robin; do
	check "$p ($(fresh "$p")) <= UNPOLITE ($UNPOLITE)" le "$(fresh "$p")" "$UNPOLITE"
done
# The equally spaced CHO schedule attains the UNPOLITE bound.
check "cho+equal near UNPOLITE" awk -v a="$(fresh cho+equal)" -v b="$UNPOLITE" \
	'BEGIN { exit !(a >= b - 0.003) }'

# 'all' includes the page policies on a repository of pages; the table has
# the bounds and the freshness columns.
expect_exit 0 "$F" simulate --world "$W" --budget 30/60s --mode paced --host-gap 15s \
	--end 2012-10-02T00:00:00Z --policy all
expect_stdout_contains "freshness bounds: unpolite (CHO)"
expect_stdout_contains "polite (OPT_POLITE, gap 15 s)"
expect_stdout_matches '^policy .* fresh +age s +violations$'
expect_stdout_matches '^cho\+equal +[0-9,]+ '
expect_stdout_matches '^oracle +[0-9,]+ '

# Without the true rates the page policies refuse to run.
expect_exit 2 "$F" simulate --trace "$W/trace.csv" --sources "$W/sources.csv" \
	--policy cho+delayed
expect_stderr_contains "needs the true change rates"

# ---- other inputs keep their output; --freshness asks for the columns ----
T=$D/hand.csv
printf 'source,time\na,10\na,50\n' >"$T"
HAND=(simulate --trace "$T" --policy round-robin --budget 1/30s --start 0 --end 100)
expect_exit 0 "$F" "${HAND[@]}" --format csv
expect_eq "no freshness columns on a trace" "$(head -n 1 "$OUT")" \
	"policy,items,fetched,coverage,delay_mean_s,delay_median_s,delay_p90_s,requests,empty_requests,wall_s,budget_needed_calls"
expect_exit 0 "$F" "${HAND[@]}" --format json
check "no freshness in json on a trace" not grep -q freshness "$OUT"
# The hand-worked figure: stale [10, 30] and [50, 60] -> 0.7, age 2.5.
expect_exit 0 "$F" "${HAND[@]}" --format csv --freshness
expect_eq "hand freshness" "$(csv_select "$OUT" freshness age_mean_s polite_violations |
	sed -n 2p)" "0.700000,2.5,0"
expect_exit 0 "$F" "${HAND[@]}" --freshness
expect_stdout_matches '^round-robin .* 70\.00% +2 +0$'

finish
