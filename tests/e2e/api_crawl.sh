#!/usr/bin/env bash
# api_crawl.sh - JSON API sources (`add --kind api`, issue 30) crawled from a
# small loopback API (api_stub.py, Mastodon-shaped, behind a bearer token):
# every page followed and every item stored; the token sent to the source's
# own host only, never on a redirect to another; a Link next carrying
# access_token= stripped; none left (Remaining 0) waited out to the reset;
# a 429 paused and reported, not stored; `sources` shows the API's figures;
# and the token nowhere in the store, `sources`, `items`, logs or errors
# (a 401 whose body echoes the token, an unreachable host).
. "$(dirname "$0")/lib.sh"

F=$FRESHET
if ! have_python; then
	echo "e2e/$E2E_NAME: skipped (no python3), 0 checks"
	exit 0
fi
TOKEN='tok-Zq8xV3kLm29Pw7'
DB=$WORK/api.db
LOG=$WORK/server.log
python3 "$E2E_DIR/api_stub.py" "$WORK/port" "$TOKEN" "$LOG" 2>"$WORK/server.err" &
PIDS="$PIDS $!"
for ((i = 0; i < 200; i++)); do [ -s "$WORK/port" ] && break; sleep 0.05; done
[ -s "$WORK/port" ] || fatal "api_stub.py did not start: $(cat "$WORK/server.err")"
P=$(cat "$WORK/port")
CT=(--connect-to "api.test:$P:127.0.0.1:$P" --connect-to "other.test:$P:127.0.0.1:$P")

# ---- add: usage and refusals -------------------------------------------------
expect_exit 2 "$F" add --db "$DB" --kind api "http://api.test:$P/m/a/statuses"
expect_stderr_contains "--kind api wants one of --preset, --spec or --spec-file"
expect_exit 2 "$F" add --db "$DB" --kind api --spec 'preset=mastodon; tiem=x' "http://api.test:$P/m/a/statuses"
expect_stderr_contains "api spec: key 'tiem' unknown"
expect_exit 2 "$F" add --db "$DB" --preset mastodon "http://api.test:$P/m/a/statuses"
expect_stderr_contains "are for --kind api"
expect_exit 1 "$F" add --db "$DB" --kind api --preset graph "http://api.test:$P/p/posts?access_token=$TOKEN"
expect_stderr_contains "refused: an API address must not carry a secret"
check "the refused address's token is not echoed" not grep -q "$TOKEN" "$ERR"

# ---- a crawl: pages followed, items stored, token sent to its host only ------
for a in a b; do
	expect_exit 0 "$F" add --db "$DB" --kind api --preset mastodon --token-env API_TOKEN \
		--group masto "http://api.test:$P/m/$a/statuses"
done
expect_exit 0 "$F" add --db "$DB" --kind api --preset mastodon --token-env API_TOKEN \
	--group masto "http://api.test:$P/redir/c"
API_TOKEN=$TOKEN expect_exit 0 "$F" run --db "$DB" --once --gap 0.2 "${CT[@]}" \
	--request-log "$WORK/requests.tsv"
cp "$ERR" "$WORK/run1.err"
expect_stdout_contains "50 new items"
expect_exit 0 "$F" items --db "$DB" --format jsonl
expect_eq "items of a and b (25 each, pages of 10)" "$(grep -c '"id":"[ab]-' "$OUT")" 50
expect_eq "pages of a (10, 10, 5, then an empty page)" "$(grep -c $'\tapi.test:'"$P"$'\t/m/a/statuses' "$LOG")" 4
expect_eq "every call to the API's host carried the token" \
	"$(awk -F'\t' -v h="api.test:$P" '$2 == h && $4 != "yes"' "$LOG" | wc -l)" 0
expect_eq "the redirect's other host never got the token" \
	"$(awk -F'\t' -v h="other.test:$P" '$2 == h && $4 != "none"' "$LOG" | wc -l)" 0
check "the redirect's target was asked" grep -q $'\tother.test:'"$P"$'\t/m/c/statuses' "$LOG"
check "a next link's access_token= was dropped" not grep -q "access_token" "$LOG"
expect_exit 0 "$F" sources --db "$DB"
expect_stdout_contains "spec mastodon  group masto  token env:API_TOKEN  pages 10  API said at"
expect_stdout_contains "250 of 300 calls left"
expect_exit 0 "$F" sources --db "$DB" --format jsonl
expect_stdout_contains '"api":{"spec":"mastodon","token":"env:API_TOKEN","pages":10,"limit":300.0,"remaining":250.0'

# ---- none left: the next call waits for the reset ---------------------------
DB2=$WORK/zero.db
for a in z1 z2; do
	expect_exit 0 "$F" add --db "$DB2" --kind api --preset mastodon --token-file "$WORK/token" \
		--pages 1 "http://api.test:$P/zero/$a"
done
printf '%s\n' "$TOKEN" >"$WORK/token"
expect_exit 0 "$F" run --db "$DB2" --once --gap 0 "${CT[@]}"
cp "$ERR" "$WORK/run2.err"
expect_stderr_contains "the API says no call is left: its sources wait until"
# z1's answer said 0 left until a reset 3 s on (whole seconds: 2-3 s)
t1=$(awk -F'\t' '$3 ~ /^\/zero\/z1/ {print $1; exit}' "$LOG")
t2=$(awk -F'\t' '$3 ~ /^\/zero\/z2/ {print $1; exit}' "$LOG")
check "the second call waited for the reset ($t1 -> $t2)" awk -v a="$t1" -v b="$t2" 'BEGIN { exit !(b - a >= 1.9) }'

# ---- a 429: paused until its Retry-After, reported, nothing stored ----------
DB3=$WORK/slow.db
expect_exit 0 "$F" add --db "$DB3" --kind api --preset mastodon --token-file "$WORK/token" \
	"http://api.test:$P/slow/s"
expect_exit 0 "$F" run --db "$DB3" --once --gap 0 "${CT[@]}"
cp "$ERR" "$WORK/run3.err"
expect_stderr_contains "answered slow down: group default paused until"
s1=$(awk -F'\t' '$3 ~ /^\/slow\/s/ {print $1}' "$LOG" | sed -n 1p)
s2=$(awk -F'\t' '$3 ~ /^\/slow\/s/ {print $1}' "$LOG" | sed -n 2p)
check "asked again only after the Retry-After ($s1 -> $s2)" awk -v a="$s1" -v b="$s2" 'BEGIN { exit !(b - a >= 1.95) }'
expect_exit 0 "$F" items --db "$DB3" --format jsonl
expect_eq "the 429 stored no item, the retry all 25" "$(grep -c '"id":"s-' "$OUT")" 25

# ---- errors: a wrong token (echoed by the API), an unreachable host ---------
DB4=$WORK/bad.db
expect_exit 0 "$F" add --db "$DB4" --kind api --preset mastodon --token-env API_TOKEN \
	"http://api.test:$P/m/x/statuses"
expect_exit 0 "$F" add --db "$DB4" --kind api --preset mastodon --token-env API_TOKEN \
	"http://down.test:9/m/y/statuses"
expect_exit 0 "$F" add --db "$DB4" --kind api --preset mastodon --token-env NO_SUCH_VAR_XYZ \
	"http://api.test:$P/m/w/statuses"
BAD="${TOKEN}-wrong"
API_TOKEN=$BAD expect_exit 1 "$F" run --db "$DB4" --once --gap 0 "${CT[@]}" \
	--connect-to "down.test:9:127.0.0.1:9" --backoff 600/600 --request-log "$WORK/requests4.tsv"
cp "$ERR" "$WORK/run4.err"
check "the 401 was asked with the wrong token" grep -q $'/m/x/statuses\tbad' "$LOG"
expect_exit 0 "$F" sources --db "$DB4" --format jsonl
cp "$OUT" "$WORK/sources4.jsonl"
expect_stdout_contains "HTTP 401"
expect_stdout_contains "api response: error: The access token *** is invalid"
expect_stdout_contains "token: environment variable NO_SUCH_VAR_XYZ is not set"
expect_stdout_contains "down.test"
for f in "$WORK/run4.err" "$WORK/sources4.jsonl" "$WORK/requests4.tsv"; do
	check "the wrong token is nowhere in $(basename "$f")" not grep -q -e "$BAD" -e "$TOKEN" "$f"
done

# ---- the token nowhere ------------------------------------------------------
for d in "$DB" "$DB2" "$DB3" "$DB4"; do
	expect_exit 0 "$F" sources --db "$d" --format jsonl
	check "no token in sources ($(basename "$d"))" not grep -q "$TOKEN" "$OUT"
	expect_exit 0 "$F" items --db "$d" --format jsonl
	check "no token in items ($(basename "$d"))" not grep -q "$TOKEN" "$OUT"
	expect_exit 0 "$F" export --opml --db "$d"
	check "no token in export ($(basename "$d"))" not grep -q "$TOKEN" "$OUT"
done
for f in "$WORK"/*.db* "$WORK"/run*.err "$WORK"/requests*.tsv; do
	check "no token in $(basename "$f")" not grep -q -a -e "$TOKEN" -e "${TOKEN//-/%2D}" "$f"
done
finish
