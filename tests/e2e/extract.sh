# extract.sh - `freshet extract`: the quality line of issue 29 on
# ../shared/data/articles/readability (token F1 of the main text against
# Readability's expected.html, mean at least 0.90; title exact at least 95%;
# byline and lang rates printed), scored by extract_score.py; then the CLI
# itself: help, usage errors, a missing file, stdin, --text, --base, and a
# page fetched from a loopback server (refused without --allow-private; the
# Content-Type charset used).
. "$(dirname "$0")/lib.sh"

F=$FRESHET
D=$SRC/tests/data/extract

# ---- quality on the readability pages ----
if have_python && CORPUS=$(shared_file data/articles/readability/001/source.html); then
	CORPUS=$(dirname "$(dirname "$CORPUS")")
	RC=0
	python3 "$SRC/tests/e2e/extract_score.py" "$F" "$CORPUS" --min-f1 0.90 --min-title 0.95 || RC=$?
	LAST_CMD="extract_score.py $F $CORPUS"
	OUT=/dev/null ERR=/dev/null
	expect_eq "readability pages: mean F1 >= 0.90 and title exact >= 95%" "$RC" 0
	OUT=$WORK/.stdout ERR=$WORK/.stderr
elif ! have_python; then
	e2e_say "skip: no python3, the quality line is not checked"
fi

# ---- the command ----
expect_exit 0 "$F" extract --help
expect_stdout_contains "usage: freshet extract FILE|URL|-"
expect_exit 0 "$F" help extract
expect_stdout_contains "textContent"
expect_exit 0 "$F" --help
expect_stdout_contains "extract"
expect_exit 2 "$F" extract
expect_stderr_contains "no page given"
expect_exit 2 "$F" extract "$D/article.html" --bogus
expect_stderr_contains "unknown option '--bogus'"
expect_exit 2 "$F" extract "$D/article.html" "$D/article.html"
expect_stderr_contains "one page at a time"
expect_exit 2 "$F" extract "$D/article.html" --base
expect_stderr_contains "--base needs a value"
expect_exit 1 "$F" extract "$WORK/nothing.html"
expect_stderr_contains "$WORK/nothing.html: cannot open"

expect_exit 0 "$F" extract "$D/article.html" --base http://example.com/a/b.html
expect_stderr_empty
for key in '"title": "Café crème au lait | Le Journal"' '"byline": "Jeanne Martin"' '"lang": "fr"' \
	'"siteName": "Le Journal"' '"publishedTime": "2024-03-01T08:00:00Z"' \
	'"excerpt": "Le café crème est une boisson naïve' \
	'href=\"http://example.com/recettes/cafe\"' '"length": '; do
	expect_stdout_contains "$key"
done
check "no navigation in the text" not grep -q "Accueil" "$OUT"
check "no comment in the text" not grep -q "Premier commentaire" "$OUT"
check "no footer in the text" not grep -q "droits" "$OUT"
check "no javascript: link" not grep -q "javascript:" "$OUT"
if have_python; then
	check "json parses, length counts textContent" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert set(d) == {"title", "byline", "lang", "langDetected", "excerpt", "siteName", "publishedTime", "content", "textContent", "length"}, d.keys()
assert d["length"] == len(d["textContent"]), (d["length"], len(d["textContent"]))
assert d["textContent"].startswith("Le café crème"), d["textContent"][:40]
' "$OUT"
fi

run "$F" extract - --text <"$D/article.html"
expect_eq "stdin --text exit" "$RC" 0
expect_eq "stdin --text first line" "$(head -n 1 "$OUT" | grep -c '^Le café crème est une boisson naïve')" 1
expect_eq "stdin --text paragraphs" "$(grep -c . "$OUT")" 4

# Not HTML at all, and empty: no article, not a failure.
printf '' >"$WORK/empty.html"
expect_exit 0 "$F" extract "$WORK/empty.html"
expect_stdout_contains '"textContent": ""'
head -c 3000 /dev/urandom >"$WORK/noise.bin"
expect_exit 0 "$F" extract "$WORK/noise.bin"

# ---- by URL, from a loopback server ----
if have_python; then
	PORTFILE=$WORK/port
	python3 "$SRC/tests/e2e/file_server.py" "$D/article.html" "$PORTFILE" /news/cafe.html "text/html; charset=iso-8859-1" \
		10 --latin1 &
	SERVER=$!
	for _ in $(seq 1 600); do [ -s "$PORTFILE" ] && break; sleep 0.05; done
	if [ -s "$PORTFILE" ]; then
		PORT=$(cat "$PORTFILE")
		NOPROXY=(env -u http_proxy -u HTTP_PROXY -u https_proxy -u HTTPS_PROXY -u all_proxy -u ALL_PROXY)
		run "${NOPROXY[@]}" "$F" extract "http://127.0.0.1:$PORT/moved"
		expect_eq "loopback refused exit" "$RC" 1
		expect_stderr_contains "blocked"
		run "${NOPROXY[@]}" "$F" extract --allow-private "http://127.0.0.1:$PORT/moved"
		expect_eq "url exit" "$RC" 0
		expect_stdout_contains '"excerpt": "Le café crème est une boisson naïve'
		expect_stdout_contains "href=\\\"http://127.0.0.1:$PORT/recettes/cafe\\\""
		run "${NOPROXY[@]}" "$F" extract --allow-private "http://127.0.0.1:$PORT/nothing-here"
		expect_eq "url 404 exit" "$RC" 1
		expect_stderr_contains "http-error"
	else
		fail "loopback server" "did not start"
	fi
	kill "$SERVER" 2>/dev/null
	wait "$SERVER" 2>/dev/null
else
	e2e_say "skip: no python3, the URL case is not checked"
fi

finish
