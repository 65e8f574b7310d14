# serve_api.sh - `freshet serve --world DIR --api graph|mastodon|reddit` end
# to end on 127.0.0.1, on a stepped clock (FRESHET_CLOCK_FILE, so nothing
# waits on wall time): the URL list and the listing at /; every page of several sources read with
# python3's json in each API's shape and paged to the end, the items equal to
# the truth file's; items appearing when the clock moves; the per-token limit
# (usage headers, the refusal bodies, another token's own count, the window's
# reset); missing and unknown tokens; the request log's token and limited
# columns, and no token in the log or on stderr; bad options.
. "$(dirname "$0")/lib.sh"

F=$FRESHET
command -v curl >/dev/null || fatal "curl is needed"

B=$WORK/body
H=$WORK/headers
# get URL [CURL ARGS...]: body in $B, headers in $H, status in $S.
get() {
	local url=$1
	shift
	rm -f "$B" "$H"
	S=$(curl -s --connect-to "::127.0.0.1:$PORT" -A "serve-api-test/1" -D "$H" -o "$B" \
		-w '%{http_code}' "$@" "$url")
}
# many N URL AUTH: N calls of URL in one curl (one connection); prints the
# statuses, one a line.
many() {
	local i
	for ((i = 0; i < $1; i++)); do printf 'url = "%s"\noutput = "/dev/null"\n' "$2"; done >"$WORK/many.cfg"
	curl -s --connect-to "::127.0.0.1:$PORT" -H "Authorization: $3" -w '%{http_code}\n' -K "$WORK/many.cfg"
}
hdr() { grep -i "^$1:" "$H" | head -n 1 | cut -d: -f2- | sed 's/^ //; s/\r$//'; }

# ---- usage ----
expect_exit 0 "$F" serve --help
for opt in --api --api-token --api-token-file --api-error --list; do
	expect_stdout_contains "$opt"
done
expect_exit 2 "$F" serve --world "$WORK" --api twitter
expect_stderr_contains "--api wants graph, mastodon or reddit"
expect_exit 2 "$F" serve --api graph
expect_stderr_contains "--api needs --world"
expect_exit 2 "$F" serve --world "$WORK" --api graph --hosts 3
expect_stderr_contains "--hosts does not go with --api"
expect_exit 2 "$F" serve --world "$WORK" --api-token x
expect_stderr_contains "--api-token goes with --api"
expect_exit 2 "$F" serve --world "$WORK" --api mastodon --api-error 4
expect_stderr_contains "--api-error goes with --api graph"
expect_exit 2 "$F" serve --world "$WORK" --api graph --api-limit 600
expect_stderr_contains "--api-limit"
expect_exit 2 "$F" serve --forums 2 --api graph
expect_stderr_contains "--api does not go with --forums"

W=$WORK/w
expect_exit 0 "$F" world --out "$W" --sources 30 --days 2 --seed 3
expect_exit 2 "$F" serve --world "$W" --api graph --api-error 5
expect_stderr_contains "--api-error wants 4, 17, 32 or 613"
expect_exit 1 "$F" serve --world "$W" --api graph --api-token-file "$WORK/none"
expect_stderr_contains "$WORK/none"

start=$(awk -F, 'NR > 1 && (m == "" || $2 < m) { m = $2 } END { print m + 86400 }' "$W/trace.csv")
CLOCK=$WORK/clock
echo "$start" >"$CLOCK"
export FRESHET_CLOCK_FILE=$CLOCK

# crawl KIND TOKEN MODE URL...: pages each URL to the end with python3 (the
# token as Authorization: Bearer, or Graph's access_token= with MODE
# "param"); checks each page's shape; writes the ids of the Nth URL, one a
# line, to $WORK/ids.N (N from 1). One python3 for all: it starts slowly.
crawl() {
	python3 - "$PORT" "$WORK/ids" "$@" <<'EOF'
import http.client, json, re, sys, urllib.parse
port, idbase, kind, token, mode = sys.argv[1:6]
def fail(msg):
    print("crawl: %s: %s" % (url, msg), file=sys.stderr); sys.exit(1)
for n, url in enumerate(sys.argv[6:], 1):
  ids, pages = [], 0
  while url and pages < 200:
      u = urllib.parse.urlsplit(url)
      path = u.path + ("?" + u.query if u.query else "")
      headers = {"Host": u.hostname, "User-Agent": "serve-api-test/1"}
      if mode == "param":
          if "access_token=" not in path:
              path += ("&" if "?" in path else "?") + "access_token=" + urllib.parse.quote(token, safe="")
      else:
          headers["Authorization"] = "Bearer " + token
      c = http.client.HTTPConnection("127.0.0.1", int(port), timeout=30)
      c.request("GET", path, headers=headers)
      r = c.getresponse()
      body = r.read()
      pages += 1
      if r.status != 200: fail("status %d: %s" % (r.status, body[:200]))
      if r.getheader("Content-Type", "").split(";")[0] != "application/json": fail("content type")
      doc = json.loads(body)
      nxt = None
      if kind == "graph":
          items = doc["data"]
          for it in items:
              for k in ("id", "created_time", "message", "permalink_url"):
                  if not isinstance(it.get(k), str): fail("graph item without " + k)
              if not isinstance(it["from"]["name"], str): fail("graph from.name")
              if not re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+0000", it["created_time"]): fail("created_time")
          if not r.getheader("X-App-Usage"): fail("no X-App-Usage")
          json.loads(r.getheader("X-App-Usage"))["call_count"]
          nxt = doc.get("paging", {}).get("next")
          if nxt and mode == "param" and "access_token=" not in nxt: fail("next without the token")
      elif kind == "mastodon":
          items = doc
          if not isinstance(items, list): fail("not a root array")
          for it in items:
              for k in ("id", "created_at", "url", "content"):
                  if not isinstance(it.get(k), str): fail("status without " + k)
              if not isinstance(it["account"]["acct"], str): fail("account.acct")
          for h in ("X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"):
              if r.getheader(h) is None: fail("no " + h)
          m = re.search(r'<([^>]*)>;\s*rel="next"', r.getheader("Link") or "")
          nxt = m.group(1) if m else None
      else:
          if doc.get("kind") != "Listing": fail("not a Listing")
          items = [ch["data"] for ch in doc["data"]["children"]]
          for it in items:
              for k in ("name", "id", "title", "permalink", "url", "author", "selftext"):
                  if not isinstance(it.get(k), str): fail("link without " + k)
              if not isinstance(it["created_utc"], float): fail("created_utc not a float")
          for h in ("X-Ratelimit-Used", "X-Ratelimit-Remaining", "X-Ratelimit-Reset"):
              if r.getheader(h) is None: fail("no " + h)
          after = doc["data"]["after"]
          nxt = None
          if after:
              q = urllib.parse.parse_qs(u.query)
              q["after"] = [after]
              nxt = urllib.parse.urlunsplit((u.scheme, u.netloc, u.path, urllib.parse.urlencode(q, doseq=True), ""))
      for it in items:
          ids.append(it["name"] if kind == "reddit" else it["id"])
      url = nxt
  with open("%s.%d" % (idbase, n), "w") as f:
    f.write("".join(i + "\n" for i in ids))
  if len(set(ids)) != len(ids): fail("an id twice")
EOF
}

# check_crawl KIND TOKEN [param]: crawls the first 6 sources of urls.txt;
# the ids, in the order seen, are the truth's newest first.
check_crawl() {
	local kind=$1 tok=$2 mode=${3:-} i src
	LAST_CMD="crawl $kind"
	OUT=$WORK/.stdout
	ERR=$WORK/.stderr
	RC=0
	rm -f "$WORK"/ids.*
	crawl "$kind" "$tok" "$mode" $(head -n 6 "$WORK/$kind.urls") >"$OUT" 2>"$ERR" || RC=$?
	expect_eq "$kind: crawled to the end" "$RC" 0
	for i in 1 2 3 4 5 6; do
		src=$(printf 's%04d' $((i - 1)))
		awk -F, -v s="$src" 'NR > 1 && $1 == s { print $3 }' "$WORK/$kind.truth0" | tac >"$WORK/want"
		expect_same_file "$kind $src: every item, newest first" "$WORK/ids.$i" "$WORK/want"
	done
}

PY=0
if have_python; then PY=1; else e2e_say "skip: no python3, shapes and pagination unchecked"; fi
py() { [ "$PY" = 1 ]; }

# truth0 KIND: the truth at the start, from a server on the same clock that
# answers nothing (the truth file is written on stop).
truth0() {
	start_server "$1.0" --world "$W" --api "$1" --start "$start" --truth "$WORK/$1.truth0"
	kill -TERM "$SPID"
	wait "$SPID"
}

# ---- Graph: shapes, pagination, the limit, tokens, the log ----
py && truth0 graph
start_server graph --world "$W" --api graph --start "$start" --api-limit 40/10m \
	--list "$WORK/graph.urls" --log "$WORK/graph.log" --truth "$WORK/graph.truth"
expect_eq "graph: one URL a source" "$(wc -l <"$WORK/graph.urls")" 30
expect_eq "graph: first URL" "$(head -n 1 "$WORK/graph.urls")" "http://graph.freshet.test/s0000/posts"
check "graph: listening line" grep -q "30 sources as a graph API" "$WORK/graph.err"
get "http://graph.freshet.test/"
expect_eq "graph: the listing: 200 without a token" "$S" 200
expect_eq "graph: the listing's URLs are the list's" \
	"$(grep -o '"url":"[^"]*"' "$B" | cut -d'"' -f4)" "$(cat "$WORK/graph.urls")"
check "graph: the listing's limit" grep -q '"limit":{"calls":40,"window_s":600}' "$B"
get "http://graph.freshet.test/s0000/posts"
expect_eq "graph: no token: 400" "$S" 400
check "graph: no token: code 104" grep -q '"code":104' "$B"
if py; then
	check_crawl graph "tok-A-s3cr3t"
	check_crawl graph "tok-P-s3cr3t|app" param
fi
# the limit: 40 calls per 10 min per token; tok-B has its own count
used=$(awk -F'\t' 'NR > 1 && $10 == "t0"' "$WORK/graph.log" | wc -l)
expect_eq "graph: calls under the limit let through" \
	"$(many $((39 - used)) "http://graph.freshet.test/s0001/posts?limit=1" "Bearer tok-A-s3cr3t" | sort -u)" 200
get "http://graph.freshet.test/s0001/posts?limit=1" -H "Authorization: Bearer tok-A-s3cr3t"
expect_eq "graph: 40th call let through" "$S" 200
check "graph: usage 100%" grep -q '"call_count":100' <(hdr X-App-Usage)
get "http://graph.freshet.test/s0001/posts" -H "Authorization: Bearer tok-A-s3cr3t"
expect_eq "graph: 41st call refused: 403" "$S" 403
check "graph: code 4 body" grep -qF '{"error":{"message":"(#4) Application request limit reached","type":"OAuthException","is_transient":true,"code":4,' "$B"
get "http://graph.freshet.test/s0001/posts" -H "Authorization: Bearer tok-B-s3cr3t"
expect_eq "graph: another token: 200" "$S" 200
echo $((start + 600 - start % 600)) >"$CLOCK"
get "http://graph.freshet.test/s0001/posts" -H "Authorization: Bearer tok-A-s3cr3t"
expect_eq "graph: next window: 200" "$S" 200
check "graph: usage back to 2%" grep -q '"call_count":2,' <(hdr X-App-Usage)
# the log: one refusal, no token, the parameter written as ***
expect_eq "graph: log columns" "$(head -n 1 "$WORK/graph.log" | cut -f 10-)" "$(printf 'token\tlimited')"
expect_eq "graph: one call refused in the log" \
	"$(awk -F'\t' 'NR > 1 && $11 == 1' "$WORK/graph.log" | wc -l)" 1
check "graph: no token in the log" not grep -q s3cr3t "$WORK/graph.log"
if py; then
	check "graph: access_token logged as ***" grep -q 'access_token=\*\*\*' "$WORK/graph.log"
fi
stop_server graph
check "graph: stop line counts the refusal" grep -q ", 1 refused for the limit," "$WORK/graph.err"
check "graph: no token on stderr" not grep -q s3cr3t "$WORK/graph.err"
check "graph: truth written" test -s "$WORK/graph.truth"

# ---- Mastodon: a fixed token list ----
printf 'tok-M1-s3cr3t\n\ntok-M2-s3cr3t\r\n' >"$WORK/tokens"
echo "$start" >"$CLOCK"
py && truth0 mastodon
start_server mastodon --world "$W" --api mastodon --start "$start" --api-limit 300/5m \
	--api-token-file "$WORK/tokens" --list "$WORK/mastodon.urls" --log "$WORK/mastodon.log"
expect_eq "mastodon: first URL" "$(head -n 1 "$WORK/mastodon.urls")" \
	"http://mastodon.freshet.test/api/v1/accounts/s0000/statuses"
get "$(head -n 1 "$WORK/mastodon.urls")" -H "Authorization: Bearer tok-other"
expect_eq "mastodon: unknown token: 401" "$S" 401
check "mastodon: 401 body" grep -qF '{"error":"The access token is invalid"}' "$B"
get "$(head -n 1 "$WORK/mastodon.urls")?limit=2" -H "Authorization: Bearer tok-M2-s3cr3t"
expect_eq "mastodon: 200" "$S" 200
expect_eq "mastodon: X-RateLimit-Limit" "$(hdr X-RateLimit-Limit)" 300
expect_eq "mastodon: X-RateLimit-Remaining" "$(hdr X-RateLimit-Remaining)" 299
check "mastodon: reset ISO 8601 with microseconds" grep -qE \
	'^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:00\.000000Z$' <(hdr X-RateLimit-Reset)
check "mastodon: Link rel=next with max_id" grep -qE 'max_id=[0-9]+>; rel="next"' <(hdr Link)
etag=$(hdr ETag)
check "mastodon: a weak ETag" grep -qE '^W/"[0-9a-f]{16}"$' <<<"$etag"
get "$(head -n 1 "$WORK/mastodon.urls")?limit=2" -H "Authorization: Bearer tok-M2-s3cr3t" \
	-H "If-None-Match: $etag"
expect_eq "mastodon: If-None-Match: 304" "$S" 304
expect_eq "mastodon: a 304 is a call too" "$(hdr X-RateLimit-Remaining)" 298
if py; then
	check_crawl mastodon "tok-M1-s3cr3t"
fi
expect_eq "mastodon: the 2nd token of the file is t1" \
	"$(awk -F'\t' '$4 ~ /limit=2$/ { print $10 }' "$WORK/mastodon.log" | sort -u)" t1
expect_eq "mastodon: the unknown token logged as ?" \
	"$(awk -F'\t' '$5 == 401 { print $10 }' "$WORK/mastodon.log")" "?"
stop_server mastodon
check "mastodon: no token in the log" not grep -q s3cr3t "$WORK/mastodon.log"

# ---- Reddit: the limit at 429, items appearing as the clock moves ----
echo "$start" >"$CLOCK"
py && truth0 reddit
start_server reddit --world "$W" --api reddit --start "$start" --api-limit 100/10m \
	--list "$WORK/reddit.urls" --log "$WORK/reddit.log" --truth "$WORK/reddit.truth"
if py; then
	check_crawl reddit "tok-R-s3cr3t"
fi
get "http://reddit.freshet.test/r/s0002/new.json?limit=1" -H "Authorization: bearer tok-R2"
expect_eq "reddit: 200" "$S" 200
expect_eq "reddit: used" "$(hdr X-Ratelimit-Used)" 1
expect_eq "reddit: remaining" "$(hdr X-Ratelimit-Remaining)" 99.0
expect_eq "reddit: reset" "$(hdr X-Ratelimit-Reset)" $((600 - start % 600))
# the newest item of a source that publishes later: not yet, then there
read -r src t < <(awk -F, -v s="$start" 'NR > 1 && $2 > s + 60 && $2 < s + 3600 { print $1, $2; exit }' "$W/trace.csv")
get "http://reddit.freshet.test/r/$src/new.json?limit=100&raw_json=1" -H "Authorization: bearer tok-R2"
before=$(grep -o '"name":"t3_' "$B" | wc -l)
echo "$t" >"$CLOCK"
get "http://reddit.freshet.test/r/$src/new.json?limit=100&raw_json=1" -H "Authorization: bearer tok-R2"
expect_eq "reddit: one more item once the clock reaches it" \
	"$(grep -o '"name":"t3_' "$B" | wc -l)" $((before + 1))
check "reddit: raw_json leaves & as it is" grep -q '(Q&A)' "$B"
# a new token in this window: 100 calls, then refused
expect_eq "reddit: 99 calls let through" \
	"$(many 99 "http://reddit.freshet.test/r/s0002/new.json?limit=1" "bearer tok-R3" | sort -u)" 200
get "http://reddit.freshet.test/r/s0002/new.json?limit=1" -H "Authorization: bearer tok-R3"
expect_eq "reddit: 100th call let through" "$S" 200
get "http://reddit.freshet.test/r/s0002/new.json?limit=1" -H "Authorization: bearer tok-R3"
expect_eq "reddit: 101st call: 429" "$S" 429
check "reddit: 429 body" grep -qF '{"message": "Too Many Requests", "error": 429}' "$B"
expect_eq "reddit: remaining 0" "$(hdr X-Ratelimit-Remaining)" 0.0
expect_eq "reddit: refused in the log" "$(awk -F'\t' 'NR > 1 && $11 == 1' "$WORK/reddit.log" | wc -l)" 1
stop_server reddit
check "reddit: stop line counts the refusal" grep -q ", 1 refused for the limit," "$WORK/reddit.err"
check "reddit: truth has the late item" grep -q "^$src," "$WORK/reddit.truth"

finish
