# parse.sh - `freshet parse`: golden JSON and TSV outputs for the feeds in
# tests/data/parse, stdin, --base, the exit codes and messages for bad
# usage, missing files, non-feeds and ill-formed feeds (bozo), and a feed
# fetched by URL from a loopback HTTP server this script starts (python3;
# skipped without it).
. "$(dirname "$0")/lib.sh"

F=$FRESHET
D=$SRC/tests/data/parse
G=$D/golden
BASE=http://example.com/feed.xml

# ---- golden outputs ----
for name in rss_full xml_base feed atom03 rdf illformed win1252 escapes; do
	in=$(ls "$D/$name".xml "$D/$name".json 2>/dev/null | head -n 1)
	[ -n "$in" ] || fatal "no input for $name"
	for fmt in json tsv; do
		[ -f "$G/$name.$fmt" ] || continue
		args=("$F" parse "$in" --format "$fmt")
		[ "$name" = escapes ] || args+=(--base "$BASE")
		run "${args[@]}"
		expect_eq "$name.$fmt exit" "$RC" 0
		expect_same_file "$name.$fmt golden" "$OUT" "$G/$name.$fmt"
	done
done

# The default format is JSON, and the JSON parses and carries the
# feedparser names.
expect_exit 0 "$F" parse "$D/rss_full.xml" --base "$BASE"
expect_stderr_empty
for key in '"bozo": false' '"encoding": "utf-8"' '"version": "rss20"' '"feed": {' '"entries": [' \
	'"published": "Sun, 06 Jul 2014 12:56:00 GMT"' '"published_parsed": 1404651360' \
	'"rel": "enclosure"' '"tags": [' '"title_detail": {' '"links": ['; do
	expect_stdout_contains "$key"
done
if have_python; then
	check "json output parses" python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert len(d["entries"]) == 3' "$OUT"
fi

# stdin, and --base changes where relative links point.
run "$F" parse - --base http://other.example/x/feed <"$D/rss_full.xml"
expect_eq "stdin exit" "$RC" 0
expect_stdout_contains '"link": "http://other.example/posts/1"'

# Ill-formed but recovered: exit 0, bozo in the output, the reason on stderr.
expect_exit 0 "$F" parse "$D/illformed.xml"
expect_stdout_contains '"bozo": true'
expect_stderr_contains "illformed.xml: ill-formed, recovered: line 6:"

# ---- failures ----
expect_exit 1 "$F" parse "$D/not_feed.html"
expect_stdout_empty
expect_stderr_contains "not_feed.html: not a feed: root <html>"

expect_exit 1 "$F" parse "$WORK/absent.xml"
expect_stderr_contains "absent.xml: cannot open"

printf '{"version": "https://jsonfeed.org/version/1", "items": [' >"$WORK/cut.json"
expect_exit 1 "$F" parse "$WORK/cut.json"
expect_stderr_contains "cut.json: not a feed: JSON at byte"

# ---- usage ----
expect_exit 0 "$F" parse --help
for opt in --base --format json tsv bozo entries; do
	expect_stdout_contains "$opt"
done
expect_exit 2 "$F" parse
expect_stderr_contains "FILE, URL or - is required"
expect_exit 2 "$F" parse "$D/rss_full.xml" --format xml
expect_stderr_contains "--format wants json or tsv"
expect_exit 2 "$F" parse "$D/rss_full.xml" --bogus
expect_stderr_contains "unknown option '--bogus'"
# Several inputs in one process: one JSON object per line, each naming
# its file; a missing one fails (exit 1) without stopping the others.
expect_exit 0 "$F" parse "$D/rss_full.xml" "$D/rdf.xml"
expect_eq "two JSON lines" "$(wc -l <"$OUT")" 2
expect_stdout_contains '"file":"'"$D"'/rdf.xml"'
expect_exit 1 "$F" parse "$D/rss_full.xml" "$D/no-such-file.xml" "$D/rdf.xml" --format tsv
expect_stderr_contains "no-such-file.xml: cannot open"
expect_eq "tsv lines of both feeds" "$(wc -l <"$OUT")" \
	"$(( $("$F" parse "$D/rss_full.xml" --format tsv | wc -l) + $("$F" parse "$D/rdf.xml" --format tsv | wc -l) ))"
expect_exit 2 "$F" parse "$D/rss_full.xml" --max-items x
expect_stderr_contains "--max-items wants a count"
expect_exit 2 "$F" parse "$D/rss_full.xml" --base
expect_stderr_contains "--base needs a value"

# ---- by URL, from a loopback server ----
if have_python; then
	PORTFILE=$WORK/port
	python3 "$SRC/tests/e2e/file_server.py" "$D/latin1.xml" "$PORTFILE" /feeds/latin1.xml \
		application/rss+xml 20 &
	SERVER=$!
	for _ in $(seq 1 600); do [ -s "$PORTFILE" ] && break; sleep 0.05; done
	if [ -s "$PORTFILE" ]; then
		PORT=$(cat "$PORTFILE")
		NOPROXY=(env -u http_proxy -u HTTP_PROXY -u https_proxy -u HTTPS_PROXY -u all_proxy -u ALL_PROXY)
		# Loopback is refused by default (issue 23 item 4): nothing is sent.
		run "${NOPROXY[@]}" "$F" parse "http://127.0.0.1:$PORT/moved"
		expect_eq "loopback refused exit" "$RC" 1
		expect_stderr_contains "blocked"
		expect_stderr_contains "refused to connect to 127.0.0.1 port $PORT: a loopback address"
		run "${NOPROXY[@]}" "$F" parse --allow-private "http://127.0.0.1:$PORT/moved"
		expect_eq "url exit" "$RC" 0
		expect_stdout_contains '"encoding": "iso-8859-1"'
		expect_stdout_contains '"title": "Café crème"'
		run "${NOPROXY[@]}" "$F" parse --allow-private "http://127.0.0.1:$PORT/nothing-here"
		expect_eq "url 404 exit" "$RC" 1
		expect_stderr_contains "http://127.0.0.1:$PORT/nothing-here"
		expect_stderr_contains "http-error"
		run "${NOPROXY[@]}" "$F" parse "http://127.0.0.1:$PORT/feeds/latin1.xml" --format tsv --allow-private
		expect_eq "url tsv exit" "$RC" 0
		expect_stdout_contains "Naïve résumé"
	else
		fail "loopback server" "did not start"
	fi
	kill "$SERVER" 2>/dev/null
	wait "$SERVER" 2>/dev/null
else
	e2e_say "skip: no python3, the URL case is not checked"
fi

finish
