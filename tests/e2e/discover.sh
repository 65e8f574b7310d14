# discover.sh - `freshet discover` end to end on loopback servers:
#  1. the 38 real pages of ../shared/data/discovery/readability served under
#     their stated URLs (http and https, a test CA) with a feed at every
#     hand-labelled feed URL and an HTML page at every feed-looking link that is
#     not a feed: every feed found, no false one (precision and recall printed);
#  2. a generated web of 30 sites (freshet serve --web: autodiscovery in head
#     and body, <a>-only, well-known path only, a feed on another domain, JSON
#     Feed, <base>, no feed, traps, bare-domain redirects): exactly the truth,
#     traps within their limits, robots.txt and the per-host gap kept, links
#     outside the domain not followed;
#  3. --add (deduplicated, also across http/https), bad list lines, an
#     unreachable site, usage errors.
. "$(dirname "$0")/lib.sh"

F=$FRESHET

# found_vs_truth TRUTH FOUND: TSV site<TAB>feed on both sides (scheme-less,
# trailing '/' dropped); prints "TP FP FN" and the differences on stderr.
norm_pairs() { sed -E 's,(^|\t)https?://,\1,g; s,/(\t|$),\1,g' "$1" | sort -u; }
found_vs_truth() {
	norm_pairs "$1" >"$WORK/t.norm"
	norm_pairs "$2" >"$WORK/f.norm"
	comm -23 "$WORK/t.norm" "$WORK/f.norm" | sed 's/^/  missed: /' >&2
	comm -13 "$WORK/t.norm" "$WORK/f.norm" | sed 's/^/  false:  /' >&2
	echo "$(comm -12 "$WORK/t.norm" "$WORK/f.norm" | wc -l) $(comm -13 "$WORK/t.norm" "$WORK/f.norm" | wc -l) $(comm -23 "$WORK/t.norm" "$WORK/f.norm" | wc -l)"
}
# jsonl_pairs FILE: site<TAB>feed of discover's JSON Lines.
jsonl_pairs() {
	sed -n 's/^{"feed":"\([^"]*\)".*"site":"\([^"]*\)".*/\2\t\1/p' "$1"
}

# ---- usage and bad input ------------------------------------------------------
expect_exit 0 "$F" discover --help
expect_stdout_contains "--max-pages"
expect_stdout_contains "--connect-to"
expect_exit 2 "$F" discover
expect_stderr_contains "no site given"
expect_exit 2 "$F" discover http://x.test/ --format xml
expect_stderr_contains "--format wants table or jsonl"
expect_exit 2 "$F" discover http://x.test/ --max-pages 0
expect_stderr_contains "--max-pages wants a whole number >= 1"
expect_exit 2 "$F" discover http://x.test/ --max-time soon
expect_stderr_contains "--max-time wants a duration"
expect_exit 1 "$F" discover --file "$WORK/absent.txt"
expect_stderr_contains "absent.txt"
# An unreachable site (nothing listens on port 9) and a non-http one: named,
# exit 1, nothing on stdout.
expect_exit 1 "$F" discover --no-robots http://127.0.0.1:9/ ftp://example.test/
expect_stderr_matches "http://127.0.0.1:9/: unreachable: .*127.0.0.1"
expect_stderr_contains "ftp://example.test/: unreachable: url 'ftp://example.test/': not an http(s) address"
expect_stdout_empty

# ---- 1. the readability pages -------------------------------------------------
if TRUTH=$SRC/tests/data/discovery/readability.tsv && [ -f "$TRUTH" ] &&
	RDIR=$(dirname "$(shared_file data/discovery/readability/001.html)"); then
	command -v openssl >/dev/null || fatal "openssl is needed (dev.sh installs it)"
	# Page URLs, made unique (two saved pages share one canonical URL).
	awk -F'\t' '$1=="page" { u=$3; k=u; sub(/^https?:\/\//, "", k);
		if (seen[k]++) u = u (index(u, "?") ? "&" : "?") "copy=" seen[k];
		print $2 "\t" u }' "$TRUTH" >"$WORK/pages.tsv"
	cut -f2 "$WORK/pages.tsv" >"$WORK/pages.txt"
	# The truth as site<TAB>feed, by page URL.
	awk -F'\t' 'NR==FNR { url[$1]=$2; next } $1=="feed" { print url[$2] "\t" $3 }' \
		"$WORK/pages.tsv" "$TRUTH" >"$WORK/r-truth.tsv"
	# The manifest: pages, a feed at each feed URL, an HTML page at each
	# feed-looking URL that is not a feed; one entry per scheme-less URL.
	{
		awk -F'\t' -v dir="$RDIR" '{ print $2 "\ttext/html\tfile:" dir "/" $1 }' "$WORK/pages.tsv"
		awk -F'\t' '$1=="feed" { print $3 "\tapplication/rss+xml\tfeed:rss" }' "$TRUTH"
		awk -F'\t' '$1=="notfeed" { print $3 "\ttext/html; charset=utf-8\ttext:<!DOCTYPE html><html><head><title>About our feeds</title></head><body><p>Not a feed.</p></body></html>" }' "$TRUTH"
	} | awk -F'\t' '{ k=$1; sub(/^https?:\/\//, "", k); if (!seen[k]++) print }' >"$WORK/manifest.tsv"
	# A certificate for every host named, signed by itself (the test's CA).
	sans=$(cut -f1 "$WORK/manifest.tsv" | sed -E 's,^https?://([^/:?]*).*,DNS:\1,' | sort -u | paste -sd,)
	openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=freshet test" \
		-addext "subjectAltName=$sans" -keyout "$WORK/key.pem" -out "$WORK/cert.pem" \
		>/dev/null 2>&1 || fatal "openssl could not make a test certificate"
	start_server readability --sites "$WORK/manifest.tsv" --log "$WORK/r.log" \
		--tls-cert "$WORK/cert.pem" --tls-key "$WORK/key.pem" --tls-port-file "$WORK/tls.port"
	# The HTTPS port is written after the plain one (GnuTLS starts slower,
	# under ASan by a lot): wait for it too.
	for ((i = 0; i < 200; i++)); do
		[ -s "$WORK/tls.port" ] && break
		sleep 0.05
	done
	[ -s "$WORK/tls.port" ] || fatal "the HTTPS side of server readability did not start"
	TPORT=$(cat "$WORK/tls.port")
	expect_exit 0 "$F" discover --file "$WORK/pages.txt" --format jsonl \
		--connect-to ":80:127.0.0.1:$PORT" --connect-to ":443:127.0.0.1:$TPORT" \
		--cacert "$WORK/cert.pem" --gap 0.05 --max-pages 3 --max-time 60s
	cp "$OUT" "$WORK/r-found.jsonl"
	jsonl_pairs "$WORK/r-found.jsonl" >"$WORK/r-found.tsv"
	read -r tp fp fn <<<"$(found_vs_truth "$WORK/r-truth.tsv" "$WORK/r-found.tsv")"
	e2e_say "readability: $(wc -l <"$WORK/pages.txt") pages, $((tp + fn)) feed links: found $tp, false $fp, missed $fn; precision $(awk -v a="$tp" -v b="$fp" 'BEGIN{printf "%.3f", (a+b)?a/(a+b):0}'), recall $(awk -v a="$tp" -v b="$fn" 'BEGIN{printf "%.3f", (a+b)?a/(a+b):0}')"
	expect_eq "readability: no feed link missed" "$fn" 0
	expect_eq "readability: no false feed" "$fp" 0
	check "readability: https feeds validated over TLS" grep -q '"feed":"https://' "$WORK/r-found.jsonl"
	check "readability: the not-feeds were fetched and rejected" \
		grep -qF "$(awk -F'\t' '$1=="notfeed"{sub(/^https?:\/\/[^\/]*/, "", $3); print $3; exit}' "$TRUTH")" "$WORK/r.log"
	stop_server readability
fi

# ---- 2. a generated web -------------------------------------------------------
start_server web --web 30 --truth "$WORK/w-truth.tsv" --sites-list "$WORK/w-sites.txt" \
	--log "$WORK/w.log"
tail -n +2 "$WORK/w-truth.tsv" | awk -F'\t' '$2!=""' >"$WORK/w-truth.pairs"
# Site 3's list entry becomes a bare host name (http://site3.test/ -> site3.test).
sed 's,^http://site3\.test/$,site3.test,' "$WORK/w-sites.txt" >"$WORK/w-list.txt"
printf '# a comment, a blank line, then a bad line\n\nnot one address\n' >>"$WORK/w-list.txt"
GAP=0.4
expect_exit 1 "$F" discover --file "$WORK/w-list.txt" --format jsonl \
	--connect-to "::127.0.0.1:$PORT" --gap $GAP --max-time 60s
expect_stderr_contains "w-list.txt:33: not one address: 'not one address'"
expect_stderr_contains "no feed found"
cp "$OUT" "$WORK/w-found.jsonl"
jsonl_pairs "$WORK/w-found.jsonl" | sed 's,^site3\.test\t,http://site3.test/\t,' >"$WORK/w-found.tsv"
read -r tp fp fn <<<"$(found_vs_truth "$WORK/w-truth.pairs" "$WORK/w-found.tsv")"
e2e_say "web of 30 sites: $((tp + fn)) feeds: found $tp, false $fp, missed $fn"
expect_eq "web: every feed found" "$fn" 0
expect_eq "web: no false feed" "$fp" 0
for via in link anchor probe; do
	check "web: found by $via" grep -q "\"via\":\"$via\"" "$WORK/w-found.jsonl"
done
check "web: a feed on another domain" grep -q '"feed":"http://feeds.cdn5.test/site5/main.xml"' "$WORK/w-found.jsonl"
check "web: a JSON Feed" grep -q '"format":"json11"' "$WORK/w-found.jsonl"
check "web: the bare-domain site followed its redirect" grep -q '"site":"site3.test"' "$WORK/w-found.jsonl"
# Politeness and limits, from the server's log (wall, host, method, path?query, status).
tail -n +2 "$WORK/w.log" >"$WORK/w.req"
check "web: robots.txt Disallow kept (/private/ never asked)" not grep -q $'\t/private/' "$WORK/w.req"
check "web: robots.txt asked first on a host" awk -F'\t' '!($2 in s) { s[$2]=1; if ($4 != "/robots.txt") bad=1 } END { exit bad }' "$WORK/w.req"
check "web: another domain's pages not crawled" not grep -qE $'^[^\t]*\tfeeds\\.cdn[0-9]+\\.test\tGET\t/\t' "$WORK/w.req"
check "web: session ids stripped" not grep -qiE 'phpsessid|jsessionid' "$WORK/w.req"
cal=$(grep -c $'\twww.site9.test\tGET\t/calendar' "$WORK/w.req")
check "web: endless calendar stopped at 5 query strings (got $cal)" test "$cal" -le 5 -a "$cal" -ge 1
check "web: path trap stopped (no /a/a/a/)" not grep -q $'\t/a/a/a/' "$WORK/w.req"
mingap=$(sort -t $'\t' -k2,2 -k1,1n "$WORK/w.req" | awk -F'\t' '$2==h { g=$1-t; if (m=="" || g<m) m=g } { h=$2; t=$1 } END { printf "%.3f", m }')
e2e_say "web: smallest gap between two requests to one host: $mingap s (--gap $GAP)"
check "web: per-host gap kept ($mingap >= $GAP)" awk -v m="$mingap" -v g="$GAP" 'BEGIN { exit !(m >= g - 0.02) }'
per_site=$(awk -F'\t' '$2 ~ /site9\.test/' "$WORK/w.req" | wc -l)
check "web: the trap site stayed within its limits ($per_site requests)" test "$per_site" -le 60

# ---- 3. --add -----------------------------------------------------------------
DB=$WORK/d.db
expect_exit 0 "$F" add --db "$DB" https://www.site0.test/feed/
expect_exit 0 "$F" discover --db "$DB" --add --quiet --connect-to "::127.0.0.1:$PORT" \
	--gap 0.2 http://www.site0.test/ http://www.site1.test/ http://www.site5.test/
expect_stderr_contains "added 3, already present 1"
expect_exit 0 "$F" discover --db "$DB" --add --quiet --connect-to "::127.0.0.1:$PORT" \
	--gap 0.2 http://www.site1.test/
expect_stderr_contains "added 0, already present 2"
expect_exit 0 "$F" sources --db "$DB" --format csv
n=$(tail -n +2 "$OUT" | wc -l)
expect_eq "--add: four sources" "$n" 4
expect_stdout_contains "feeds.cdn5.test"
stop_server web

finish
