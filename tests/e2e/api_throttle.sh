#!/usr/bin/env bash
# api_throttle.sh - a crawl goes on after the Graph API refuses a call for its
# limit (lib/api/limit.c): `freshet serve --api graph` allows 30 calls per 10
# minutes, the crawler is told 60 (a budget above the API's, as a user may
# set), so the API refuses. Its X-App-Usage carries percentages, not a
# count: the refusal's "none left" must be released by the next answer under
# 100%, not kept for ever. On a stepped clock (FRESHET_CLOCK_FILE), 2 hours:
# refusals happen, calls are answered after the first and in every window,
# refusals stay few (the wait after a refusal doubles), every item is found,
# and `sources` no longer says 0 calls are left.
. "$(dirname "$0")/lib.sh"

F=$FRESHET
S_UNIX=1349049600
SPAN=7200
W=$WORK/w
expect_exit 0 "$F" world --out "$W" --sources 40 --days 1 --seed 5
echo "$S_UNIX" >"$WORK/clock"
export FRESHET_CLOCK_FILE=$WORK/clock
start_server api --world "$W" --api graph --api-token tok --api-limit 30/10m --start "$S_UNIX" \
	--duration "$SPAN" --list "$WORK/urls" --log "$WORK/server.log" --truth "$WORK/truth.csv"
expect_exit 0 "$F" add --db "$WORK/a.db" --kind api --preset graph --token-env FB_TOKEN --group fb \
	--file "$WORK/urls"
FB_TOKEN=tok expect_exit 0 "$F" run --db "$WORK/a.db" --connect-to "::127.0.0.1:$PORT" \
	--group fb=60/10m --gap 0.5 --duration "$((SPAN + 1800))" --quiet
cp "$ERR" "$WORK/run.err"
expect_exit 0 "$F" sources --db "$WORK/a.db"
cp "$OUT" "$WORK/sources.txt"
stop_server api
expect_eq "the world's clock ran to the end" "$(cut -d. -f1 "$WORK/clock")" $((S_UNIX + SPAN + 1800))

# The log: wall_s ... token limited; windows of 600 s.
read -r refused first_refused answered_after windows_answered < <(awk -F'\t' -v s="$S_UNIX" '
	NR == 1 { next }
	$11 == 1 { n++; if (first == "") first = $1; next }
	$5 == 200 { if (first != "") after++; w[int(($1 - s) / 600)] = 1 }
	END { for (k in w) nw++; print n + 0, (first == "" ? 0 : first), after + 0, nw + 0 }' \
	"$WORK/server.log")
e2e_say "$refused calls refused for the limit; $answered_after answered after the first" \
	"refusal; answers in $windows_answered windows of 10 minutes"
check "the API refused calls (the crawler's budget is above its limit)" test "$refused" -ge 1
check "calls were answered after the first refusal" test "$answered_after" -ge 100
expect_eq "calls were answered in every window of 10 minutes" "$windows_answered" $(((SPAN + 1800) / 600))
# Each window: 30 answered, then at most a few probes refused (60 s, 120 s,
# 240 s... apart), not a refusal for every call the budget would allow.
check "refusals stay few ($refused in $(((SPAN + 1800) / 600)) windows)" \
	test "$refused" -le $((4 * (SPAN + 1800) / 600))
check "the refusal was reported on its source" grep -q "asks to slow down" "$WORK/sources.txt"
# What the API said, as each source's last answer left it: a refusal's 0 is
# released by the next answer, so only sources whose last call came just
# after a refusal may still say 0.
zero=$(grep -c -E 'API said at [0-9:TZ-]+: 0 calls left' "$WORK/sources.txt")
check "sources: 0 calls left for few sources, not for ever ($zero of 40)" test "$zero" -le 10
tail -n +2 "$WORK/truth.csv" | cut -d, -f3 | sort >"$WORK/want"
expect_exit 0 "$F" items --db "$WORK/a.db" --format csv
tail -n +2 "$OUT" | cut -d, -f1 | sort >"$WORK/got"
check "the truth has items" test -s "$WORK/want"
expect_eq "every item found" "$(comm -23 "$WORK/want" "$WORK/got" | wc -l)" 0
finish
