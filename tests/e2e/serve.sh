# serve.sh - `freshet serve` end to end on 127.0.0.1 (ephemeral ports), driven
# with curl --connect-to: feeds in all three formats (well-formed), robots.txt,
# 404s, ETag and If-Modified-Since 304s, 429 + Retry-After on API hosts and
# under --host-limit, the misbehaving hosts (500 then recovery, 503 +
# Retry-After, ill-formed but recoverable XML, redirect, slow without holding
# up others, a huge body), items appearing as the clock runs, 256 concurrent
# connections, the request log, the OPML, and the truth file written on
# SIGTERM, checked exactly against the trace.
. "$(dirname "$0")/lib.sh"

F=$FRESHET
command -v curl >/dev/null || fatal "curl is needed"



# get URL [CURL ARGS...]: fetches through the server; body in $B, headers in
# $H, status in $S.
B=$WORK/body
H=$WORK/headers
get() {
	local url=$1
	shift
	rm -f "$B" "$H"
	S=$(curl -s --connect-to "::127.0.0.1:$PORT" -A "serve-test/1" -D "$H" -o "$B" \
		-w '%{http_code}' "$@" "$url")
}
# hdr NAME: a header of the last get (case-insensitive), without CR.
hdr() { grep -i "^$1:" "$H" | head -n 1 | cut -d: -f2- | sed 's/^ //; s/\r$//'; }
# n_ids FILE: items in a feed body (RSS guid, Atom entry id, JSON id).
n_ids() { grep -oE '<guid[^>]*>|<entry>|"id":"' "$1" | wc -l; }

# ---- usage ----
expect_exit 0 "$F" serve --help
for opt in --world --speed --port --port-file --hosts --opml --log --truth --start \
	--duration --window --misbehave --host-limit --formats; do
	expect_stdout_contains "$opt"
done
expect_exit 2 "$F" serve
expect_stderr_contains "--world DIR is required"
expect_exit 2 "$F" serve --world "$WORK" --speed 0
expect_stderr_contains "--speed"
expect_exit 2 "$F" serve --world "$WORK" --host-limit 5
expect_stderr_contains "--host-limit"
expect_exit 2 "$F" serve --world "$WORK" --formats rss,xml
expect_stderr_contains "--formats"
expect_exit 2 "$F" serve --world "$WORK" --bogus
expect_stderr_contains "'--bogus'"
expect_exit 1 "$F" serve --world "$WORK/nowhere"
expect_stderr_contains "$WORK/nowhere/trace.csv"

# ---- a world of 200 sources over 2 days; the clock runs its last day ----
W=$WORK/w
expect_exit 0 "$F" world --out "$W" --sources 200 --days 2 --seed 3
# Per source: items at the clock's start, at its end, and in its second half.
start=$(awk -F, 'NR > 1 && (m == "" || $2 < m) { m = $2 } END { print m + 86400 }' "$W/trace.csv")
end=$((start + 86400))
awk -F, -v s="$start" -v e="$end" '
	NR > 1 { i = substr($1, 2) + 0
	         if ($2 <= s) a[i]++; if ($2 <= e) b[i]++; if ($2 > s + 43200 && $2 <= e) c[i]++ }
	END { for (i = 0; i < 200; i++) print i, a[i] + 0, b[i] + 0, c[i] + 0 }' \
	"$W/trace.csv" >"$WORK/counts"
# pick FMT HOSTS COND: the first source s with s % 3 == FMT (0 rss, 1 atom,
# 2 json), host s % 20 in HOSTS (space-separated) and COND on n0 (items at
# start), n1 (at end), late (in the second half).
pick() {
	awk -v f="$1" -v hs=" $2 " "\$1 % 3 == f && index(hs, \" \" \$1 % 20 \" \") { n0 = \$2; n1 = \$3; late = \$4; if ($3) { printf \"s%04d %d\\n\", \$1, \$1 % 20; exit } }" "$WORK/counts"
}
PLAIN="0 1 2 4 6 8 9 10 12 14 16 19"
# RSS publishes nothing while the clock runs: its validators (304 checks
# below) hold however slowly a loaded machine reaches them. Its host's
# successor is plain too (a request there for RSS must not spend an API
# host's limit or a failing host's count).
read -r RSS RSS_H < <(pick 0 "0 1 8 9 19" "n0 >= 2 && n1 == n0")
read -r ATOM ATOM_H < <(pick 1 "$PLAIN" "n0 >= 2")
read -r JSON JSON_H < <(pick 2 "$PLAIN" "n0 >= 2")
read -r GROW GROW_H < <(pick 1 "$PLAIN" "late >= 2 && n0 < 25")
read -r ILL ILL_H < <(pick 0 "13" "n1 >= 2")
read -r ILLA ILLA_H < <(pick 1 "13" "n1 >= 2")
read -r RED RED_H < <(pick 0 "15" "n1 >= 1")
read -r F500 F500_H < <(pick 2 "5" "1")
read -r F503 F503_H < <(pick 2 "11" "1")
read -r API API_H < <(pick 1 "7" "1")
read -r API2 API2_H < <(pick 0 "18" "1")
read -r SLOW SLOW_H < <(pick 0 "3" "1")
for v in RSS ATOM JSON GROW ILL ILLA RED F500 F503 API API2 SLOW; do
	[ -n "${!v}" ] || fatal "world has no source for $v (seed changed?)"
done
url() { echo "http://h$2.freshet.test/feeds/$1.$3"; }

# A day in 6 s.
start_server main --world "$W" --speed 14400 --duration 1d --log "$WORK/log.tsv" \
	--truth "$WORK/truth.csv" --opml "$WORK/feeds.opml"
t_started=$(date +%s.%N)

# The growing feed first, before the clock reaches its second half (where
# its late items are): the first request after the server listens.
get "$(url "$GROW" "$GROW_H" atom)"
grow_etag=$(hdr ETag)
grow_n0=$(n_ids "$B")

# The failing host: each path's first two requests get 500, whenever they
# come (counted, not timed).
get "$(url "$F500" "$F500_H" json)"
expect_eq "h5 fails with 500 at first" "$S" 500
get "$(url "$F500" "$F500_H" json)"
expect_eq "h5 fails with 500 a second time" "$S" 500

LAST_CMD="freshet serve (main)"
ERR=$WORK/main.err
expect_stderr_contains "listening on 127.0.0.1:$PORT"
expect_stderr_contains "200 feeds (+1 huge) on 20 hosts"

# robots.txt: allows the feeds; Crawl-delay on h9 only.
get http://h0.freshet.test/robots.txt
expect_eq "robots.txt 200" "$S" 200
check "robots.txt disallows only /private/" grep -qx 'Disallow: /private/' "$B"
check "no Crawl-delay on h0" not grep -q Crawl-delay "$B"
get http://h9.freshet.test/robots.txt
check "Crawl-delay on h9" grep -qx 'Crawl-delay: 2' "$B"

# One feed per format, well-formed, with its items.
get "$(url "$RSS" "$RSS_H" rss)"
expect_eq "RSS 200" "$S" 200
check "RSS content type" grep -qi '^content-type: application/rss+xml' "$H"
check "RSS is RSS 2.0" grep -q '<rss version="2.0">' "$B"
check "RSS guid is <source>-<k>" grep -q "<guid isPermaLink=\"false\">$RSS-0</guid>" "$B"
check "RSS item link" grep -q "<link>http://h$RSS_H.freshet.test/items/$RSS/0</link>" "$B"
check "RSS pubDate is an HTTP date" grep -qE '<pubDate>[A-Z][a-z]{2}, [0-9]{2} [A-Z][a-z]{2} [0-9]{4} [0-9:]{8} GMT</pubDate>' "$B"
if command -v xmllint >/dev/null; then
	check "RSS well-formed" xmllint --noout "$B"
fi
n0=$(awk -v s="${RSS#s}" '$1 == s + 0 { print ($2 > 25 ? 25 : $2) }' "$WORK/counts")
check "RSS shows at least the $n0 items of the start" test "$(n_ids "$B")" -ge "$n0"
check "RSS shows at most 25 items" test "$(n_ids "$B")" -le 25

get "$(url "$ATOM" "$ATOM_H" atom)"
expect_eq "Atom 200" "$S" 200
check "Atom content type" grep -qi '^content-type: application/atom+xml' "$H"
check "Atom namespace" grep -q '<feed xmlns="http://www.w3.org/2005/Atom">' "$B"
check "Atom id is <source>-<k>" grep -q "<id>$ATOM-0</id>" "$B"
check "Atom dates in RFC 3339 with ms" grep -qE '<published>[0-9-]{10}T[0-9:]{8}\.[0-9]{3}Z</published>' "$B"
if command -v xmllint >/dev/null; then
	check "Atom well-formed" xmllint --noout "$B"
fi

get "$(url "$JSON" "$JSON_H" json)"
expect_eq "JSON Feed 200" "$S" 200
check "JSON Feed content type" grep -qi '^content-type: application/feed+json' "$H"
if command -v jq >/dev/null; then
	expect_eq "JSON Feed 1.1" "$(jq -r .version "$B")" "https://jsonfeed.org/version/1.1"
	expect_eq "JSON Feed first id" "$(jq -r '.items[-1].id' "$B")" "$JSON-0"
elif have_python; then
	check "JSON Feed parses" python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$B"
fi
check "JSON Feed id is <source>-<k>" grep -q "\"id\":\"$JSON-0\"" "$B"

# Not found: unknown or out-of-range host, wrong host, wrong format, other paths.
get "$(url "$RSS" "$RSS_H" rss)" -H 'Host: example.com'
expect_eq "unknown host 404" "$S" 404
get http://h20.freshet.test/robots.txt
expect_eq "host beyond --hosts 404" "$S" 404
get "$(url "$RSS" $(((RSS_H + 1) % 20)) rss)"
expect_eq "source on another host 404" "$S" 404
get "$(url "$RSS" "$RSS_H" atom)"
expect_eq "wrong format 404" "$S" 404
get "http://h$RSS_H.freshet.test/private/x"
expect_eq "other path 404" "$S" 404
get "http://h$RSS_H.freshet.test/items/$RSS/0"
expect_eq "visible item page 200" "$S" 200
get "http://h$RSS_H.freshet.test/items/$RSS/999999"
expect_eq "unpublished item 404" "$S" 404
get "http://h$RSS_H.freshet.test/"
check "host page links its feeds" grep -q "href=\"$(url "$RSS" "$RSS_H" rss)\"" "$B"

# Validators: 304 on the ETag, and on If-Modified-Since = Last-Modified.
get "$(url "$RSS" "$RSS_H" rss)"
etag=$(hdr ETag)
lm=$(hdr Last-Modified)
check "strong ETag" test -n "$etag" -a "${etag#W/}" = "$etag"
check "Last-Modified is an HTTP date" test -n "$lm"
get "$(url "$RSS" "$RSS_H" rss)" -H "If-None-Match: $etag"
expect_eq "304 on If-None-Match" "$S" 304
check "304 has no body" test ! -s "$B"
expect_eq "304 repeats the ETag" "$(hdr ETag)" "$etag"
get "$(url "$RSS" "$RSS_H" rss)" -H "If-None-Match: \"other\", $etag"
expect_eq "304 on an ETag in a list" "$S" 304
get "$(url "$RSS" "$RSS_H" rss)" -H "If-Modified-Since: $lm"
expect_eq "304 on If-Modified-Since" "$S" 304
get "$(url "$RSS" "$RSS_H" rss)" -H 'If-None-Match: "other"' -H "If-Modified-Since: $lm"
expect_eq "If-None-Match wins over If-Modified-Since" "$S" 200
get "$(url "$RSS" "$RSS_H" rss)" -H 'If-Modified-Since: Sat, 01 Jan 2000 00:00:00 GMT'
expect_eq "200 when modified since" "$S" 200

# API hosts: 2 requests per 5 s, then 429 with Retry-After (an HTTP date on
# h7, since 7 % 4 == 3; seconds on h18).
for i in 1 2; do get "$(url "$API" "$API_H" atom)"; done
expect_eq "API host answers within its limit" "$S" 200
get "$(url "$API" "$API_H" atom)"
expect_eq "API host: 429 over the limit" "$S" 429
check "429 Retry-After is an HTTP date on h7" grep -qiE '^retry-after: [A-Z][a-z]{2}, .* GMT' "$H"
for i in 1 2; do get "$(url "$API2" "$API2_H" rss)"; done
get "$(url "$API2" "$API2_H" rss)"
expect_eq "h18: 429 over the limit" "$S" 429
ra=$(hdr Retry-After)
check "429 Retry-After is 1..5 seconds on h18 ($ra)" test "$ra" -ge 1 -a "$ra" -le 5

# Redirect: 301 to /moved/... on the same host, every time; it leads to the feed.
get "$(url "$RED" "$RED_H" rss)"
expect_eq "redirect host 301" "$S" 301
expect_eq "Location /moved/" "$(hdr Location)" "http://h$RED_H.freshet.test/moved/feeds/$RED.rss"
get "$(url "$RED" "$RED_H" rss)" -L
expect_eq "redirect followed 200" "$S" 200
check "redirect leads to the feed" grep -q "<guid isPermaLink=\"false\">$RED-" "$B"

# Slow host: 2 s, while another request goes through at once.
curl -s -o /dev/null -w '%{http_code} %{time_total}\n' --connect-to "::127.0.0.1:$PORT" \
	"$(url "$SLOW" "$SLOW_H" rss)" >"$WORK/slow.out" &
slow_pid=$!
sleep 0.2
fast=$(curl -s -o /dev/null -w '%{time_total}' --connect-to "::127.0.0.1:$PORT" \
	"$(url "$ATOM" "$ATOM_H" atom)")
check "a fast host is not held up by a slow one (${fast}s)" awk -v t="$fast" 'BEGIN { exit !(t < 1) }'

# Huge body: more than 16 MiB (64 MiB by default), listed in the OPML.
get http://h17.freshet.test/huge/17.rss -o /dev/null -w '%{size_download}'
check "huge feed streams > 16 MiB ($S)" test "${S:-0}" -gt 16777216

# 256 connections at once: every feed of the plain hosts, three times.
for s in $(awk -v hs=" $PLAIN " 'index(hs, " " $1 % 20 " ") { print $1 }' "$WORK/counts"); do
	fmt=(rss atom json)
	u=$(url "$(printf 's%04d' "$s")" $((s % 20)) "${fmt[s % 3]}")
	for k in 1 2 3; do printf 'url = "%s"\noutput = "/dev/null"\n' "$u"; done
done >"$WORK/many.cfg"
n_many=$(grep -c '^url' "$WORK/many.cfg")
curl -s --parallel --parallel-immediate --parallel-max 256 --connect-to "::127.0.0.1:$PORT" \
	-K "$WORK/many.cfg" -w '%{http_code}\n' >"$WORK/many.out" 2>/dev/null
expect_eq "$n_many parallel requests all 200" "$(grep -c '^200$' "$WORK/many.out")" "$n_many"

wait "$slow_pid"
read -r slow_code slow_time <"$WORK/slow.out"
expect_eq "slow host 200" "$slow_code" 200
check "slow host answers after 2 s (${slow_time}s)" awk -v t="$slow_time" 'BEGIN { exit !(t >= 2) }'

# 503 + Retry-After on h11: its 4th to 6th requests (counted, not timed).
for ((i = 0; i < 8; i++)); do
	get "$(url "$F503" "$F503_H" json)"
	echo "$S $(hdr Retry-After)"
done >"$WORK/poll503"
expect_eq "h11: 200 three times, 503 three times, then 200" \
	"$(cut -d' ' -f1 "$WORK/poll503" | tr '\n' ' ')" "200 200 200 503 503 503 200 200 "
ra503=$(awk '$1 == 503 && NF > 1 { $1 = ""; sub(/^ /, ""); print; exit }' "$WORK/poll503")
check "503 has a Retry-After ($ra503)" test -n "$ra503"
get "$(url "$F500" "$F500_H" json)"
expect_eq "h5 recovered after two 500s" "$S" 200

# Wait for the clock to stop (6 s wall), then every item is there.
while awk -v a="$t_started" -v b="$(date +%s.%N)" 'BEGIN { exit !(b - a < 6.3) }'; do sleep 0.1; done
get "$(url "$GROW" "$GROW_H" atom)"
n1=$(awk -v s="${GROW#s}" '$1 == s + 0 { print ($3 > 25 ? 25 : $3) }' "$WORK/counts")
expect_eq "items appeared: $GROW shows its last $n1 items" "$(n_ids "$B")" "$n1"
check "$GROW grew ($grow_n0 -> $n1)" test "$grow_n0" -lt "$n1"
check "$GROW has a new ETag" test "$(hdr ETag)" != "$grow_etag"
get "$(url "$GROW" "$GROW_H" atom)" -H "If-None-Match: $grow_etag"
expect_eq "old ETag gets 200" "$S" 200
cp "$B" "$WORK/grow.atom"

# Ill-formed XML on h13: not well-formed, yet libxml2's recovery finds every item.
for v in ILL:rss ILLA:atom; do
	s=${v%%:*}
	get "$(url "${!s}" 13 "${v#*:}")"
	expect_eq "ill-formed ${v#*:} 200" "$S" 200
	check "ill-formed ${v#*:} has a bare &" grep -qF 'Q&A &nbsp;a < b &copy;' "$B"
	if command -v xmllint >/dev/null; then
		check "ill-formed ${v#*:} is not well-formed" not xmllint --noout "$B" 2>/dev/null
		want=$(grep -cE '<guid|<entry>' "$B")
		got=$(xmllint --recover "$B" 2>/dev/null | grep -cE '<guid|<entry>')
		expect_eq "recovery keeps all $want ${v#*:} items" "$got" "$want"
	fi
done

# ---- stop: truth, log ----
stop_server main
check "stop is reported" grep -q 'terminated at clock' "$WORK/main.err"

# Truth: the window of the start plus every later item up to the end.
T=$WORK/truth.csv
check "truth written on SIGTERM" test -s "$T"
expect_eq "truth header" "$(head -n 1 "$T")" "source,feed_url,id,published_s"
want=$(awk '{ w = $2 > 25 ? 25 : $2; n += w + $3 - $2 } END { print n }' "$WORK/counts")
expect_eq "truth rows" "$(($(wc -l <"$T") - 1))" "$want"
expect_eq "truth ids unique" "$(tail -n +2 "$T" | cut -d, -f3 | sort -u | wc -l)" "$want"
check "truth has the feed URL" grep -q "^$RED,$(url "$RED" "$RED_H" rss),$RED-" "$T"
check "truth published_s in ms" grep -qE "^$GROW,[^,]*,$GROW-[0-9]+,[0-9]+\.[0-9]{3}$" "$T"
# The growing feed's final ids are in the truth, and its last 25 truth rows
# are exactly them.
expect_same_file "truth matches the final feed of $GROW" \
	<(grep -o "<id>$GROW-[0-9]*</id>" "$WORK/grow.atom" | sed 's/<[^>]*>//g' | sort) \
	<(grep "^$GROW," "$T" | cut -d, -f3 | tail -n 25 | sort)
check "huge feeds are not in the truth" not grep -q huge "$T"

# OPML: every feed and the huge one.
O=$WORK/feeds.opml
check "OPML written" test -s "$O"
expect_eq "OPML lists 201 feeds" "$(grep -c 'xmlUrl=' "$O")" 201
check "OPML has the huge feed" grep -q 'xmlUrl="http://h17.freshet.test/huge/17.rss"' "$O"
check "OPML has the redirect host's feed URL" grep -q "xmlUrl=\"$(url "$RED" "$RED_H" rss)\"" "$O"
if command -v xmllint >/dev/null; then check "OPML well-formed" xmllint --noout "$O"; fi
check "world dir left alone with --opml" test ! -e "$W/feeds.opml"

# Log: a header, then one TSV line per request.
L=$WORK/log.tsv
expect_eq "log header" "$(head -n 1 "$L")" "$(printf 'wall_s\thost\tmethod\tpath\tstatus\tbytes\tinm\tims\tuser_agent')"
check "log times have microseconds" awk -F'\t' 'NR > 1 && $1 !~ /^[0-9]+\.[0-9][0-9][0-9][0-9][0-9][0-9]$/ { exit 1 }' "$L"
check "log lines have 9 fields" awk -F'\t' 'NF != 9 { exit 1 }' "$L"
check "log: the 304 with If-None-Match" grep -qP "\th$RSS_H.freshet.test\tGET\t/feeds/$RSS.rss\t304\t0\t1\t0\tserve-test/1$" "$L"
check "log: the 304 with If-Modified-Since" grep -qP "\t/feeds/$RSS.rss\t304\t0\t0\t1\t" "$L"
check "log: the unknown host" grep -qP "\texample.com\tGET\t/feeds/$RSS.rss\t404\t" "$L"
check "log: 429s on h7" grep -qP "\th7.freshet.test\tGET\t[^\t]*\t429\t" "$L"
check "log: the huge body's size" grep -qP "\t/huge/17.rss\t200\t67108864\t" "$L"
check "log: the parallel requests" test "$(grep -c 'curl/' "$L")" -ge "$n_many"
# h5: 500s, then 200s; h11: 200s, 503s, then 200s.
expect_eq "h5 log: 500 then 200" \
	"$(awk -F'\t' '$2 == "h5.freshet.test" && $4 ~ /^\/feeds/ { print $5 }' "$L" | uniq | tr '\n' ' ')" "500 200 "
expect_eq "h11 log: 503 within 200s" \
	"$(awk -F'\t' '$2 == "h11.freshet.test" { print $5 }' "$L" | uniq | tr '\n' ' ' | sed 's/^200 //')" "503 200 "

# ---- --misbehave off, --host-limit, --formats, --hosts ----
start_server quiet --world "$W" --speed 1 --misbehave off --host-limit 3/10s \
	--formats atom --hosts 20 --api-limit off
expect_eq "quiet: default OPML in the world dir" "$(grep -c 'xmlUrl=' "$W/feeds.opml")" 200
check "quiet: no huge feed" not grep -q huge "$W/feeds.opml"
for i in 1 2 3; do get "$(url "$RSS" "$RSS_H" atom)"; done
expect_eq "--formats atom: RSS source served as Atom" "$S" 200
get "$(url "$RSS" "$RSS_H" atom)"
expect_eq "--host-limit 3/10s: 4th request 429" "$S" 429
ra=$(hdr Retry-After)
check "Retry-After 1..10 s ($ra)" test "$ra" -ge 1 -a "$ra" -le 10
get "$(url "$ATOM" "$ATOM_H" atom)"
check "other hosts keep their own budget" test "$S" != 429
get "$(url "$RED" "$RED_H" atom)"
expect_eq "misbehave off: no redirect" "$S" 200
get "$(url "$F500" "$F500_H" atom)"
expect_eq "misbehave off: no 500" "$S" 200
get "$(url "$ILL" 13 atom)"
if command -v xmllint >/dev/null; then check "misbehave off: well-formed on h13" xmllint --noout "$B"; fi
get "$(url "$API" "$API_H" atom)"
get "$(url "$API" "$API_H" atom)"
get "$(url "$API" "$API_H" atom)"
expect_eq "--api-limit off: h7 limited by --host-limit only" "$S" 200
stop_server quiet

# ---- a world whose sources share hosts (pages): its hosts become h<k> ----
P=$WORK/p
expect_exit 0 "$F" world --kind pages --out "$P" --pages 300 --servers 12 --days 3 --seed 2
start_server pages --world "$P" --speed 1 --misbehave off --opml "$WORK/pages.opml"
check "pages: 12 hosts from sources.csv" grep -q '300 feeds (+0 huge) on 12 hosts' "$WORK/pages.err"
# The host of a source is the index of its server in first-seen order.
read -r ps pk < <(awk -F, 'NR > 1 { if (!($2 in id)) id[$2] = n++; if ($1 == "s0123") print $1, id[$2] }' "$P/sources.csv")
get "http://h$pk.freshet.test/feeds/$ps.$(fmt=(rss atom json); echo "${fmt[123 % 3]}")"
expect_eq "pages: $ps on h$pk" "$S" 200
stop_server pages

finish
