# serve_web.sh - `freshet serve --web` and `--sites` end to end on 127.0.0.1,
# driven with curl --connect-to: the truth and site list; every expected feed
# of a 20-site web fetched and parsed by `freshet parse`; each shape's home
# page (head, body, <a>-only, well-known path, another domain, JSON Feed,
# <base>, no feed, traps); the endless calendar, changing session ids, the
# path trap, bare-domain 301s, robots.txt, 404s, 304s and the request log;
# then a manifest web with every SOURCE kind, and bad manifests failing with
# MANIFEST:LINE.
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
	S=$(curl -s --connect-to "::127.0.0.1:$PORT" -A "serve-web-test/1" -D "$H" -o "$B" \
		-w '%{http_code}' "$@" "$url")
}
hdr() { grep -i "^$1:" "$H" | head -n 1 | cut -d: -f2- | sed 's/^ //; s/\r$//'; }
has() { grep -qF -e "$1" "$B"; }

# ---- usage ----
expect_exit 0 "$F" serve --help
for opt in --sites --web --seed --sites-list --truth; do
	expect_stdout_contains "$opt"
done
expect_exit 2 "$F" serve --web 0
expect_stderr_contains "--web wants a number of sites"
expect_exit 2 "$F" serve --web 5 --speed 2
expect_stderr_contains "--speed goes with --world"
expect_exit 2 "$F" serve --web 5 --world "$WORK"
expect_stderr_contains "give one of --world, --sites and --web"
expect_exit 2 "$F" serve --sites "$WORK/m.tsv" --seed 3
expect_stderr_contains "--seed goes with --web"
expect_exit 2 "$F" serve --world "$WORK" --sites-list x
expect_stderr_contains "--sites-list goes with --web"

# ---- a web of 20 sites ----
start_server web --web 20 --seed 5 --truth "$WORK/truth.tsv" --sites-list "$WORK/sites.txt" \
	--log "$WORK/web.log"
check "listening line" grep -q "listening on 127.0.0.1:$PORT: a web of 20 sites" "$WORK/web.err"

# The truth: a header, one line per feed (sites 1 and 11 have two), site 8
# and 18 with an empty feed; bare domains for k % 7 == 3.
expect_eq "truth header" "$(head -n 1 "$WORK/truth.tsv")" "$(printf 'site_url\tfeed_url')"
expect_eq "truth lines" "$(tail -n +2 "$WORK/truth.tsv" | wc -l)" 22
expect_eq "truth: no-feed sites" "$(awk -F'\t' 'NR > 1 && $2 == "" { print $1 }' "$WORK/truth.tsv" | tr '\n' ' ')" \
	"http://www.site8.test/ http://www.site18.test/ "
expect_eq "truth: site 3 bare" "$(grep -c '^http://site3.test/	http://www.site3.test/blog/rss.xml$' "$WORK/truth.tsv")" 1
expect_eq "truth: site 5 on its CDN" "$(grep -c '	http://feeds.cdn5.test/site5/main.xml$' "$WORK/truth.tsv")" 1
expect_eq "sites list" "$(wc -l <"$WORK/sites.txt")" 20
expect_eq "sites list = truth's sites" "$(cut -f1 "$WORK/truth.tsv" | tail -n +2 | uniq)" "$(cat "$WORK/sites.txt")"
expect_eq "bare sites" "$(grep -c '^http://site' "$WORK/sites.txt")" 3 # 3, 10, 17

# Every expected feed: 200, a feed content type (text/xml for shape 3),
# parsed by freshet parse with 5 entries, titled "site<k> feed ...".
nfeeds=0
while IFS=$'\t' read -r site feed; do
	[ "$site" = site_url ] && continue
	[ -n "$feed" ] || continue
	k=$(printf '%s\n' "$site" | sed 's/.*site\([0-9]*\)\.test.*/\1/')
	get "$feed"
	expect_eq "$feed status" "$S" 200
	ct=$(hdr Content-Type)
	case $((k % 10)) in
	3) expect_eq "$feed type" "$ct" "text/xml; charset=utf-8" ;;
	6) expect_eq "$feed type" "$ct" "application/feed+json; charset=utf-8" ;;
	1 | 4 | 7) check "$feed type" grep -qE 'application/(atom|rss)\+xml' <<<"$ct" ;;
	2) if [ $((k / 10 % 2)) = 1 ]; then want=application/rdf+xml; else want=application/rss+xml; fi
	   expect_eq "$feed type" "$ct" "$want; charset=utf-8" ;;
	*) expect_eq "$feed type" "$ct" "application/rss+xml; charset=utf-8" ;;
	esac
	cp "$B" "$WORK/feed.body"
	expect_exit 0 "$F" parse "$WORK/feed.body" --format tsv
	expect_eq "$feed entries" "$(wc -l <"$OUT")" 5
	expect_exit 0 "$F" parse "$WORK/feed.body"
	expect_stdout_matches "\"title\": \"site$k feed [a-z]+\""
	expect_stdout_contains '"bozo": false'
	sed -n 's/^  "version": "\([a-z0-9]*\)",*$/\1/p' "$OUT" >>"$WORK/versions"
	nfeeds=$((nfeeds + 1))
done <"$WORK/truth.tsv"
expect_eq "feeds checked" "$nfeeds" 20
# Formats: the mix has all four (the versions parsed above).
for v in rss20 atom10 json11 rss10; do
	check "some feed is $v" grep -qx "$v" "$WORK/versions"
done

# ---- each shape's pages ----
get http://www.site0.test/
expect_eq "site0 home" "$S" 200
expect_eq "site0 home type" "$(hdr Content-Type)" "text/html; charset=utf-8"
check "site0: doctype" has "<!DOCTYPE html>"
check "site0: head autodiscovery" has 'type="application/rss+xml" title="site0 feed" href="/feed/">'
check "site0: five posts" test "$(grep -c 'href="/post/[1-5].html"' "$B")" -ge 5
check "site0: private feed linked" has 'href="/private/feed.xml"'
get http://www.site0.test/post/2.html
expect_eq "post page" "$S" 200
check "post: external link to site1" has 'href="http://www.site1.test/"'
check "post: links home" has '<a href="/">home</a>'
get http://www.site19.test/post/1.html
check "post of the last site links site0" has 'href="http://www.site0.test/"'
get http://www.site1.test/
check "site1: relative atom" has 'href="atom.xml"'
check "site1: upper-case comments link" has 'REL="ALTERNATE" TYPE="APPLICATION/RSS+XML"'
get http://www.site2.test/
check "site2: link in body" awk '/<body>/ { b = 1 } b && /href="\/\/www.site2.test\/rss"/ { f = 1 } END { exit !f }' "$B"
get http://www.site13.test/
check "site13: footer RSS link" has '<a href="/blog/rss.xml">RSS</a>'
check "site13: decoy" has '<a href="/rss-help.html">About RSS</a>'
get http://www.site13.test/rss-help.html
expect_eq "decoy is HTML" "$(hdr Content-Type)" "text/html; charset=utf-8"
get http://www.site4.test/
# (but the private feed every site links)
no_feed_link() { sed 's#"/private/feed.xml"##' "$B" | grep -qiE 'rel="alternate"|\.xml|/feed|rss|atom'; }
check "site4: no feed link" not no_feed_link
get http://www.site4.test/feed
expect_eq "site4: /feed" "$S" 200
get http://www.site4.test/rss.xml
expect_eq "site4: other well-known paths 404" "$S" 404
get http://www.site5.test/
check "site5: CDN autodiscovery" has 'href="http://feeds.cdn5.test/site5/main.xml"'
get http://feeds.cdn5.test/
expect_eq "cdn home" "$S" 200
check "cdn home links elsewhere" has '/other/feed.xml'
get http://feeds.cdn5.test/robots.txt
expect_eq "cdn robots 404" "$S" 404
get http://www.site6.test/
check "site6: JSON Feed link" has 'type="application/feed+json"'
check "site6: wp-json link" has '<link rel="alternate" type="application/json" href="/wp-json/wp/v2/posts/1">'
check "site6: oEmbed link" has 'type="application/json+oembed"'
get http://www.site6.test/wp-json/wp/v2/posts/1
expect_eq "wp-json 200" "$S" 200
cp "$B" "$WORK/wp.json"
expect_exit 1 "$F" parse "$WORK/wp.json"
get "http://www.site6.test/wp-json/oembed/1.0/embed?url=http%3A%2F%2Fwww.site6.test%2F"
expect_eq "oembed 200" "$S" 200
get http://www.site7.test/
check "site7: links /blog/" has 'href="/blog/"'
check "site7: no feed link on home" not has 'rel="alternate"'
get http://www.site7.test/blog/
check "site7 blog: base" has '<base href="/blog/">'
check "site7 blog: relative feed.xml" has 'href="feed.xml"'
get http://www.site7.test/feed.xml
expect_eq "site7: /feed.xml is 404" "$S" 404
get http://www.site8.test/
check "site8: /feeds/ link" has 'href="/feeds/"'
for p in /feed /feed/ /rss /rss.xml /atom.xml /index.xml /feed.xml /atom "/?feed=rss2"; do
	get "http://www.site8.test$p"
	expect_eq "site8: $p 404" "$S" 404
done
get http://www.site8.test/feeds/
expect_eq "site8: /feeds/ 200" "$S" 200
expect_eq "site8: /feeds/ is HTML" "$(hdr Content-Type)" "text/html; charset=utf-8"

# ---- traps (site 9) ----
get http://www.site9.test/
check "site9: index.xml autodiscovery" has 'href="/index.xml"'
s1=$(grep -o 'PHPSESSID=[0-9a-f]*' "$B" | head -n 1)
j1=$(grep -o 'jsessionid=[0-9A-F]*' "$B" | head -n 1)
get http://www.site9.test/
s2=$(grep -o 'PHPSESSID=[0-9a-f]*' "$B" | head -n 1)
j2=$(grep -o 'jsessionid=[0-9A-F]*' "$B" | head -n 1)
check "session id present" test -n "$s1" -a -n "$j1"
check "PHPSESSID changes" test "$s1" != "$s2"
check "jsessionid changes" test "$j1" != "$j2"
link=$(grep -o 'href="/post/[0-9].html;jsessionid=[0-9A-F]*"' "$B" | head -n 1 | cut -d'"' -f2)
get "http://www.site9.test$link"
expect_eq "jsessionid page" "$S" 200
link=$(grep -o 'href="/post/[0-9].html?PHPSESSID=[0-9a-f]*"' "$B" | head -n 1 | cut -d'"' -f2)
get "http://www.site9.test$link"
expect_eq "PHPSESSID page" "$S" 200
# The calendar: follow "next month" 30 times; it keeps going.
url="http://www.site9.test/calendar?y=2024&m=01"
ok=0
for i in $(seq 30); do
	get "$url"
	[ "$S" = 200 ] || break
	next=$(grep -o 'href="/calendar?y=[0-9]*&amp;m=[0-9]*">[A-Za-z]* [0-9]* &raquo;' "$B" | cut -d'"' -f2 | sed 's/&amp;/\&/')
	[ -n "$next" ] || break
	url="http://www.site9.test$next"
	ok=$((ok + 1))
done
expect_eq "calendar: 30 months followed" "$ok" 30
expect_eq "calendar: 2026-07 next" "$url" "http://www.site9.test/calendar?y=2026&m=07"
get "http://www.site9.test/calendar?y=2024&m=01"
check "calendar links back" has '/calendar?y=2023&amp;m=12'
get "http://www.site9.test/calendar?y=123456789&m=12"
expect_eq "calendar far ahead" "$S" 200
get "http://www.site9.test/calendar?y=2024&m=13"
expect_eq "calendar bad month 404" "$S" 404
get http://www.site9.test/a/a/a/a/a/a/a/a/
expect_eq "path trap deep" "$S" 200
check "path trap goes deeper" has 'href="/a/a/a/a/a/a/a/a/a/"'

# ---- robots, redirects, 404s, 304 ----
get http://www.site3.test/robots.txt
expect_eq "robots 200" "$S" 200
check "robots disallows /private/" has "Disallow: /private/"
get http://site3.test/
expect_eq "bare domain 301" "$S" 301
expect_eq "bare domain Location" "$(hdr Location)" "http://www.site3.test/"
get http://site10.test/post/1.html
expect_eq "bare domain keeps the path" "$(hdr Location)" "http://www.site10.test/post/1.html"
get http://site10.test/ -L
expect_eq "bare domain followed" "$S" 200
check "followed to the home" has "<!DOCTYPE html>"
get http://site17.test/robots.txt
expect_eq "bare robots.txt served" "$S" 200
get http://site4.test/
expect_eq "bare domain of another site 404" "$S" 404
get http://www.site20.test/
expect_eq "site beyond N 404" "$S" 404
get http://unknown.test/
expect_eq "unknown host 404" "$S" 404
get http://www.site0.test/nope.html
expect_eq "unknown path 404" "$S" 404
get http://www.site0.test/feed/
etag=$(hdr ETag)
lm=$(hdr Last-Modified)
check "feed has ETag and Last-Modified" test -n "$etag" -a -n "$lm"
get http://www.site0.test/feed/ -H "If-None-Match: $etag"
expect_eq "304 on ETag" "$S" 304
get http://www.site0.test/feed/ -H "If-Modified-Since: $lm"
expect_eq "304 on If-Modified-Since" "$S" 304
get http://www.site0.test/feed/ -I
expect_eq "HEAD" "$S" 200

# A second server with the same seed serves the same bytes; another seed other words.
get http://www.site11.test/post/3.html
cp "$B" "$WORK/p1"
stop_server web
check "stop line" grep -q "terminated: [0-9]* requests" "$WORK/web.err"
# The log: the header, host names, queries, and the private feed never asked.
expect_eq "log header" "$(head -n 1 "$WORK/web.log")" "$(printf 'wall_s\thost\tmethod\tpath\tstatus\tbytes\tinm\tims\tuser_agent')"
check "log: host names" grep -q "	feeds.cdn5.test	GET	/site5/main.xml	200	" "$WORK/web.log"
check "log: queries" grep -q "	www.site9.test	GET	/calendar?y=2024&m=13	404	" "$WORK/web.log"
check "log: 301" grep -q "	site3.test	GET	/	301	" "$WORK/web.log"
check "log: the private feed was not asked" not grep -q "/private/" "$WORK/web.log"

start_server web2 --web 20 --seed 5
get http://www.site11.test/post/3.html
expect_same_file "same seed, same page" "$WORK/p1" "$B"
stop_server web2
start_server web3 --web 20 --seed 6
get http://www.site11.test/post/3.html
check "another seed, other words" not cmp -s "$WORK/p1" "$B"
stop_server web3

# ---- a manifest ----
M=$WORK/m
mkdir -p "$M/pages"
cat >"$M/pages/home.html" <<'HTML'
<!DOCTYPE html><html><head><link rel="alternate" type="application/rss+xml" href="/feed.rss"></head><body>saved page</body></html>
HTML
{
	printf '# a small web\n\n'
	printf 'http://Example.test/\ttext/html; charset=utf-8\tfile:pages/home.html\n'
	printf 'http://example.test/abs\ttext/html\tfile:%s/pages/home.html\n' "$M"
	printf 'https://example.test/feed.rss\tapplication/rss+xml\tfeed:rss\n'
	printf 'http://example.test/feed.atom\tapplication/atom+xml\tfeed:atom\n'
	printf 'http://example.test/feed.json\tapplication/feed+json\tfeed:json\n'
	printf 'http://example.test/feed.rdf\tapplication/rdf+xml\tfeed:rdf\n'
	printf 'http://example.test/?feed=rss2\ttext/xml\tfeed:rss\n'
	printf 'http://example.test/gone\ttext/plain\tstatus:410\n'
	printf 'http://example.test/broken\ttext/html\tstatus:500\n'
	printf 'http://example.test/old\ttext/html\tredirect:301:http://example.test/feed.atom\n'
	printf 'http://other.test/robots.txt\ttext/plain\ttext:User-agent: *\\nDisallow: /\\n\n'
	printf 'http://other.test/a%%20b\ttext/plain\ttext:spaced\n'
} >"$M/manifest.tsv"
start_server sites --sites "$M/manifest.tsv" --log "$WORK/sites.log"
check "sites listening line" grep -q "12 URLs from $M/manifest.tsv" "$WORK/sites.err"
get http://example.test/
expect_eq "file: status" "$S" 200
expect_eq "file: type" "$(hdr Content-Type)" "text/html; charset=utf-8"
expect_same_file "file: body" "$M/pages/home.html" "$B"
get http://example.test/abs
expect_same_file "file: absolute path" "$M/pages/home.html" "$B"
for f in rss:application/rss+xml:rss20 atom:application/atom+xml:atom10 json:application/feed+json:json11 rdf:application/rdf+xml:rss10; do
	IFS=: read -r ext ct ver <<<"$f"
	get "http://example.test/feed.$ext"
	expect_eq "feed:$ext status" "$S" 200
	expect_eq "feed:$ext type" "$(hdr Content-Type)" "$ct" # feed.rss: an https:// entry
	cp "$B" "$WORK/feed.body"
	expect_exit 0 "$F" parse "$WORK/feed.body"
	expect_stdout_contains "\"version\": \"$ver\""
	expect_stdout_contains "Feed at http"
	expect_exit 0 "$F" parse "$WORK/feed.body" --format tsv
	expect_eq "feed:$ext items" "$(wc -l <"$OUT")" 3
done
get "http://example.test/?feed=rss2"
expect_eq "query entry" "$S" 200
expect_eq "query entry type" "$(hdr Content-Type)" "text/xml"
get "http://example.test/?feed=atom"
expect_eq "other query 404" "$S" 404
get http://example.test/gone
expect_eq "status:410" "$S" 410
get http://example.test/broken
expect_eq "status:500" "$S" 500
get http://example.test/old
expect_eq "redirect:301" "$S" 301
expect_eq "redirect Location" "$(hdr Location)" "http://example.test/feed.atom"
get http://other.test/robots.txt
expect_eq "text: robots" "$(cat "$B")" "$(printf 'User-agent: *\nDisallow: /')"
get http://example.test/robots.txt
expect_eq "unlisted robots.txt 404" "$S" 404
get "http://other.test/a%20b"
expect_eq "percent-encoded path" "$(cat "$B")" spaced
get http://example.test/nothing
expect_eq "unlisted 404" "$S" 404
get http://nowhere.test/
expect_eq "unknown host 404" "$S" 404
stop_server sites
check "sites log: host names" grep -q "	example.test	GET	/?feed=rss2	200	" "$WORK/sites.log"

# ---- bad manifests: MANIFEST:LINE ----
bad() { # bad LINE-TEXT WANT
	printf '# header\n%b' "$1" >"$WORK/bad.tsv"
	expect_exit 1 "$F" serve --sites "$WORK/bad.tsv" --port-file "$WORK/bad.port"
	expect_stderr_contains "$WORK/bad.tsv:$2"
	check "no port file for a bad manifest" test ! -e "$WORK/bad.port"
}
bad 'http://a.test/\ttext/plain\n' "2: wants URL<TAB>TYPE<TAB>SOURCE"
bad 'http://a.test/\ttext/plain\ttext:x\nftp://a.test/\ttext/plain\ttext:x\n' "3: URL 'ftp://a.test/' is not an http"
bad 'http://a.test/\ttextplain\ttext:x\n' "2: TYPE 'textplain'"
bad 'http://a.test/\ttext/plain\tfeed:xml\n' "2: feed:xml"
bad 'http://a.test/\ttext/plain\tstatus:200\n' "2: status:200"
bad 'http://a.test/\ttext/plain\tredirect:301\n' "2: redirect:301"
bad 'http://a.test/\ttext/plain\tfile:none.html\n' "2: file:none.html: cannot read"
bad '\nhttp://a.test/\ttext/plain\ttext:1\nhttps://a.test/\ttext/plain\ttext:2\n' "4: URL 'https://a.test/' is already listed on line 3"
bad 'http://a.test/\ttext/plain\tsomething\n' "2: SOURCE 'something'"
expect_exit 1 "$F" serve --sites "$WORK/none.tsv"
expect_stderr_contains "$WORK/none.tsv: cannot open"

finish
