#!/usr/bin/env bash
# api_world.sh - issue 30's acceptance for API sources: a world served as the
# Graph API (`freshet serve --api graph`) at the seed's limit, 600 calls per
# 10 minutes for the one token, crawled for its whole day by `freshet run`
# with the freshet policy; round robin at the same budget comes from
# `freshet simulate` on the same world (0.2 s, where a second live crawl took
# as long as the first: on this world the simulator gave 382 s for freshet
# and 503 s for round robin, the live crawls 382.7 s and 508.5 s).
# Hard lines: no call refused for the limit (the request log's `limited`
# column and serve's stop line), every item of the truth found, the budget
# spent (the limit is what binds, not an idle crawler). Printed: calls,
# refusals, items, the mean delays and freshet's over round robin's.
#
# The day runs on a stepped clock (FRESHET_CLOCK_FILE: run moves the world's
# time to its next call, serve answers at that time), so what is decided
# does not depend on the machine's speed. The clock file goes
# to /dev/shm when it is there: renaming a file over another on ext4 waits
# for the new file's data (auto_da_alloc), about 2.5 ms a step, more than
# the rest of a call. A sanitized build (E2E_SLOW > 1) crawls the first 3
# hours instead of the day: the same checks, a tenth of the calls.
. "$(dirname "$0")/lib.sh"

F=$FRESHET
N_SOURCES=${API_WORLD_SOURCES:-1000}
if [ "${E2E_SLOW:-1}" -gt 1 ]; then
	SPAN=${API_WORLD_SPAN:-10800}
else
	SPAN=${API_WORLD_SPAN:-86400}
fi
TAIL=1800 # after the world's clock stops: time to find the last items
S_UNIX=1349049600
TOKEN='app-1|Wq9-secret'
E2E_TIMEOUT=$((SPAN / 60 + 300))

CLKD=
if [ -d /dev/shm ] && [ -w /dev/shm ]; then
	CLKD=$(mktemp -d /dev/shm/freshet-api-world.XXXXXX 2>/dev/null) || CLKD=
fi
[ -n "$CLKD" ] || CLKD=$WORK
trap 'cleanup; [ "$CLKD" = "$WORK" ] || rm -rf "$CLKD"' EXIT

expect_exit 0 "$F" world --out "$WORK/w" --sources "$N_SOURCES" --days 1 --seed 7
e2e_say "world: $N_SOURCES sources, $(($(wc -l <"$WORK/w/trace.csv") - 1)) items in a day;" \
	"crawled $SPAN s + $TAIL s at 600 calls / 600 s"

# Each policy: its own clock, server (one token, the seed's limit), store.
declare -A SP PT
LIVE=(freshet)
for p in "${LIVE[@]}"; do
	echo "$S_UNIX" >"$CLKD/$p.clock"
	FRESHET_CLOCK_FILE=$CLKD/$p.clock start_server "$p" --world "$WORK/w" --api graph \
		--api-token "$TOKEN" --api-limit 600/10m --start "$S_UNIX" --duration "$SPAN" \
		--list "$WORK/$p.urls" --log "$WORK/$p.log" --truth "$WORK/$p.truth"
	SP[$p]=$SPID
	PT[$p]=$PORT
	expect_exit 0 "$F" add --db "$WORK/$p.db" --kind api --preset graph --token-env FB_TOKEN \
		--group fb --file "$WORK/$p.urls"
done

# The crawl (a hang is a failure: timeout, as run() does).
t0=$(date +%s)
declare -A RPID
for p in "${LIVE[@]}"; do
	FRESHET_CLOCK_FILE=$CLKD/$p.clock FB_TOKEN=$TOKEN timeout "$((E2E_TIMEOUT * E2E_SLOW))" \
		"$F" run --db "$WORK/$p.db" --connect-to "::127.0.0.1:${PT[$p]}" --policy "$p" \
		--group fb=600/10m --gap 0.5 --duration "$((SPAN + TAIL))" --commit-every 60 --quiet \
		>"$WORK/$p.out" 2>"$WORK/$p.run.err" &
	RPID[$p]=$!
done
for p in "${LIVE[@]}"; do
	rc=0
	wait "${RPID[$p]}" || rc=$?
	LAST_CMD="freshet run --policy $p"
	OUT=$WORK/$p.out
	ERR=$WORK/$p.run.err
	RC=$rc
	expect_eq "$p: run exits 0" "$rc" 0
	check "$p: run sanitizer clean" not grep -q -e Sanitizer -e 'runtime error:' "$ERR"
done
OUT=$WORK/.stdout
ERR=$WORK/.stderr
wall=$(($(date +%s) - t0))

declare -A DELAY
for p in "${LIVE[@]}"; do
	SPID=${SP[$p]}
	stop_server "$p"
	stop=$(grep 'terminated at clock' "$WORK/$p.err")
	calls=$(sed -n 's/.*requests; \([0-9]*\) calls answered.*/\1/p' <<<"$stop")
	refused=$(sed -n 's/.* \([0-9]*\) refused for the limit.*/\1/p' <<<"$stop")
	expect_eq "$p: the world's clock ran to the end" "$(cut -d. -f1 "$CLKD/$p.clock")" \
		$((S_UNIX + SPAN + TAIL))
	expect_eq "$p: no call refused for the limit (stop line)" "$refused" 0
	expect_eq "$p: no call refused for the limit (request log)" \
		"$(awk -F'\t' 'NR > 1 && $11 != 0' "$WORK/$p.log" | wc -l)" 0
	expect_eq "$p: every call carried the token" \
		"$(awk -F'\t' 'NR > 1 && $10 != "t0"' "$WORK/$p.log" | wc -l)" 0
	# The limit binds: the crawler spent its budget, one call a second
	# (the API's usage at 100% each window waited out to the group's own
	# next slot, not idled through).
	check "$p: the budget was spent ($calls calls in $((SPAN + TAIL)) s)" \
		test "${calls:-0}" -ge $(((SPAN + TAIL) * 99 / 100))
	check "$p: never more than the budget" test "${calls:-0}" -le $((SPAN + TAIL + 1))
	# Every item of the truth found: (source, id) pairs.
	tail -n +2 "$WORK/$p.truth" | cut -d, -f2,3 | sort >"$WORK/$p.want"
	expect_exit 0 "$F" items --db "$WORK/$p.db" --format csv
	tail -n +2 "$OUT" | awk -F, '{ print $2 "," $1 }' | sort >"$WORK/$p.got"
	n_want=$(wc -l <"$WORK/$p.want")
	n_found=$(comm -12 "$WORK/$p.want" "$WORK/$p.got" | wc -l)
	check "$p: the truth has items ($n_want)" test "$n_want" -gt 100
	expect_eq "$p: every item found" "$n_found" "$n_want"
	expect_eq "$p: nothing stored that is not in the truth" "$(wc -l <"$WORK/$p.got")" "$n_want"
	line=$(grep 'new items, found' "$WORK/$p.out")
	DELAY[$p]=$(sed -n 's/.*new items, found \([0-9.]*\) s after.*/\1/p' <<<"$line")
	check "$p: a mean delay was reported" test -n "${DELAY[$p]}"
	e2e_say "$p: $calls calls, $refused refused for the limit, $n_found of $n_want items" \
		"found, mean delay ${DELAY[$p]} s"
done
# Round robin at the same budget (600 calls / 600 s, paced, as run's group)
# on the same world, from the simulator, with freshet's simulated delay
# beside the live one. Only for the whole day: a sanitized build's 3 hours
# are not the simulated day.
if [ "$SPAN" = 86400 ]; then
	run "$F" simulate --world "$WORK/w" --policy freshet,round-robin --budget 600/600s --mode paced
	expect_eq "simulate exits 0" "$RC" 0
	sim_delay() { awk -v p="$1" '$1 == p { gsub(",", "", $4); print $4 }' "$OUT"; }
	rr=$(sim_delay round-robin)
	fs=$(sim_delay freshet)
	check "round robin's simulated mean delay ($rr s)" test -n "$rr"
	e2e_say "mean delay: freshet ${DELAY[freshet]} s live ($fs s simulated), round robin $rr s" \
		"simulated at the same budget, ratio" \
		"$(awk -v a="${DELAY[freshet]}" -v b="$rr" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "?" }')" \
		"(crawl: ${wall} s wall)"
fi
finish
