#!/usr/bin/env bash
# api_token.sh - an API source's token appears nowhere but in the requests to
# its own API (issue 30's acceptance): a Graph-shaped world from `freshet
# serve --api graph` (whose paging.next links carry access_token=) on a
# stepped clock, crawled with the token from the environment and from a
# file; then a wrong token (400, code 190), a token the variable does not
# hold, and an unreachable host. The token is grepped for, as given and
# percent-encoded, in the store files, `sources` (table and jsonl), `items`,
# `export`, run's stderr, the request log and the server's log.
. "$(dirname "$0")/lib.sh"

F=$FRESHET
TOKEN='1234567890|Ab-Secret_Tok3n'
ENC='1234567890%7CAb-Secret_Tok3n'
W=$WORK/w
expect_exit 0 "$F" world --out "$W" --sources 20 --days 2 --seed 4
start=$(awk -F, 'NR > 1 && (m == "" || $2 < m) { m = $2 } END { print m + 172800 }' "$W/trace.csv")
echo "$start" >"$WORK/clock"
export FRESHET_CLOCK_FILE=$WORK/clock
start_server api --world "$W" --api graph --api-token "$TOKEN" --list "$WORK/urls" \
	--log "$WORK/server.log"
CT=(--connect-to "::127.0.0.1:$PORT")
DB=$WORK/a.db

printf '%s\n' "$TOKEN" >"$WORK/token"
head -n 10 "$WORK/urls" >"$WORK/urls.env"
tail -n +11 "$WORK/urls" >"$WORK/urls.file"
expect_exit 0 "$F" add --db "$DB" --kind api --preset graph --token-env FB_TOKEN --group fb \
	--file "$WORK/urls.env"
expect_exit 0 "$F" add --db "$DB" --kind api --preset graph --token-file "$WORK/token" \
	--group fb --pages 3 --file "$WORK/urls.file"
FB_TOKEN=$TOKEN expect_exit 0 "$F" run --db "$DB" --once "${CT[@]}" --request-log "$WORK/req.tsv"
cp "$ERR" "$WORK/run1.err"
expect_exit 0 "$F" items --db "$DB" --format jsonl
n=$(wc -l <"$OUT")
check "items were stored ($n)" test "$n" -gt 20
expect_eq "every call had the token (t0), none refused" \
	"$(awk -F'\t' 'NR > 1 && ($10 != "t0" || $11 != 0)' "$WORK/server.log" | wc -l)" 0
check "next pages were asked (after= cursors)" grep -q 'after=' "$WORK/server.log"
check "no access_token= parameter was sent" not grep -q 'access_token' "$WORK/server.log"

# A wrong token, a variable not set, an unreachable host.
DB2=$WORK/b.db
expect_exit 0 "$F" add --db "$DB2" --kind api --preset graph --token-env FB_TOKEN \
	"$(head -n 1 "$WORK/urls")"
expect_exit 0 "$F" add --db "$DB2" --kind api --preset graph --token-env FB_UNSET_VAR \
	"$(sed -n 2p "$WORK/urls")"
expect_exit 0 "$F" add --db "$DB2" --kind api --preset graph --token-file "$WORK/token" \
	"http://down.freshet.test:9/s0001/posts"
FB_TOKEN="${TOKEN}x" expect_exit 1 "$F" run --db "$DB2" --once --connect-to "down.freshet.test:9:127.0.0.1:9" \
	"${CT[@]}" --backoff 600/600 --request-log "$WORK/req2.tsv"
cp "$ERR" "$WORK/run2.err"
check "the wrong token was refused (token ?)" grep -q $'\t?\t0$' "$WORK/server.log"
expect_exit 0 "$F" sources --db "$DB2" --format jsonl
expect_stdout_contains "HTTP 400"
expect_stdout_contains "token: environment variable FB_UNSET_VAR is not set"
expect_stdout_contains "down.freshet.test"
# csv: the api columns (spec, where the token is read, pages, what the API
# said), never the token
expect_exit 0 "$F" sources --db "$DB" --format csv
check "csv header ends with the api columns" grep -q \
	',active,api_spec,api_token,api_pages,api_limit,api_remaining,api_reset,api_window,api_usage_pct,api_hold_until,api_said_at,api_error$' "$OUT"
expect_eq "csv: every source a graph spec with its token's place" \
	"$(csv_select "$OUT" api_spec api_token api_pages | tail -n +2 | sort | uniq -c | sed 's/^ *//')" \
	"$(printf '10 graph,env:FB_TOKEN,10\n10 graph,file:%s,3' "$WORK/token")"
check "csv: what the API said (usage, when)" \
	test "$(csv_select "$OUT" api_usage_pct api_said_at | grep -c '^[0-9.]*,2012-')" -eq 20

for d in "$DB" "$DB2"; do
	for fmt in table jsonl csv; do
		expect_exit 0 "$F" sources --db "$d" --format "$fmt"
		check "no token in sources --format $fmt ($(basename "$d"))" \
			not grep -q -F -e "$TOKEN" -e "$ENC" "$OUT"
	done
	expect_exit 0 "$F" items --db "$d" --format jsonl
	check "no token in items ($(basename "$d"))" not grep -q -F -e "$TOKEN" -e "$ENC" "$OUT"
	expect_exit 0 "$F" export --opml --db "$d"
	check "no token in export ($(basename "$d"))" not grep -q -F -e "$TOKEN" -e "$ENC" "$OUT"
done
stop_server api
for f in "$WORK"/*.db* "$WORK"/run*.err "$WORK"/req*.tsv "$WORK/server.log" "$WORK/api.err"; do
	check "no token in $(basename "$f")" not grep -q -a -F -e "$TOKEN" -e "$ENC" "$f"
	check "no wrong token in $(basename "$f")" not grep -q -a -F -e "${TOKEN}x" "$f"
done
finish
