# report.sh - the HTML report in a real browser: the page is self-contained,
# and headless Chromium lays it out with the five figures and sized plots, and
# takes a screenshot kept in the build dir (tests/report-screenshot.png) for
# people to look at. The page comes from `freshet simulate --report` when the
# CLI has it, else from the unit test's sample (tests/test_report PAGE).
# Needs Debian's chromium (scripts install it); FRESHET_NO_BROWSER=1 skips the
# browser checks, and CHROMIUM=PATH names another Chromium or Chrome binary.
. "$(dirname "$0")/lib.sh"

F=$FRESHET
D=$WORK
PAGE=$D/report.html
SHOT=$(cd "$TMPROOT/.." && pwd)/report-screenshot.png
IDS="fig-table fig-weekly-delay fig-weekly-fetched fig-cdf fig-rhythm"

# ---- the page ----
run "$F" simulate --help
if grep -q -e '--report' "$OUT"; then
	e2e_say "page from: freshet simulate --report"
	expect_exit 0 "$F" world --sources 200 --days 21 --seed 3 --out "$D/w"
	expect_exit 0 "$F" simulate --world "$D/w" --budget 50/10m \
		--policy round-robin,buzzwise:k=100,air-balloon --report "$PAGE"
else
	SAMPLE=$(dirname "$F")/tests/test_report
	[ -x "$SAMPLE" ] || fatal "no --report in 'freshet simulate --help' and no $SAMPLE"
	e2e_say "page from: $SAMPLE (simulate has no --report yet)"
	expect_exit 0 "$SAMPLE" "$PAGE"
fi
check "page written" test -s "$PAGE"
expect_eq "page starts with the doctype" "$(head -c 15 "$PAGE" 2>/dev/null)" "<!DOCTYPE html>"
for id in $IDS; do
	check "page has figure $id" grep -q "<figure id=\"$id\">" "$PAGE"
done
# Self-contained: no scripts, stylesheets, images or fonts fetched; the only
# URL is the SVG namespace.
check "no script" sh -c "! grep -qi '<script' '$PAGE'"
check "no link element" sh -c "! grep -qi '<link' '$PAGE'"
check "no url()" sh -c "! grep -q 'url(' '$PAGE'"
expect_eq "no URL but the SVG namespace" \
	"$(grep -o 'https\?://[^"]*' "$PAGE" | sort -u | tr '\n' ' ')" "http://www.w3.org/2000/svg "
check "no nan or inf written" sh -c "! grep -qiwE 'nan|inf|infinity' '$PAGE'"

# ---- the browser ----
if [ "${FRESHET_NO_BROWSER:-0}" = 1 ]; then
	e2e_say "skip: FRESHET_NO_BROWSER=1, page not rendered"
	finish
fi
BROWSER=${CHROMIUM:-$(command -v chromium || true)}
if [ -z "$BROWSER" ] || [ ! -x "$BROWSER" ]; then
	LAST_CMD= # the failure is not the last command's
	fail "chromium installed" "no chromium (${CHROMIUM:-not on PATH}): apt-get install chromium (the project's \
script does), or set CHROMIUM=PATH, or FRESHET_NO_BROWSER=1 to skip the browser checks"
	finish
fi

# browser ARGS...: headless Chromium on the page with a fresh profile, no
# network chatter, at most 60 s.
browser() {
	local profile
	profile=$(mktemp -d "$D/chromium.XXXXXX")
	run timeout 60 "$BROWSER" --headless --no-sandbox --disable-gpu --disable-quic \
		--no-first-run --disable-background-networking --disable-component-update \
		--disable-sync --user-data-dir="$profile" --window-size=1200,3000 "$@" "file://$PAGE"
}

rm -f "$SHOT"
browser --screenshot="$SHOT"
expect_eq "screenshot: browser exit" "$RC" 0
check "screenshot written" test -s "$SHOT"
expect_eq "screenshot is a PNG" "$(head -c 8 "$SHOT" 2>/dev/null | od -An -tx1 | tr -d ' \n')" \
	89504e470d0a1a0a
size=$(wc -c <"$SHOT" 2>/dev/null || echo 0)
check "screenshot is not blank (> 20 kB, got $size bytes)" test "$size" -gt 20000
# The PNG header's size: the window's 1200 x 3000.
expect_eq "screenshot size" "$(od -An -tu1 -j16 -N8 "$SHOT" 2>/dev/null | awk \
	'{ printf "%dx%d", (($1*256+$2)*256+$3)*256+$4, (($5*256+$6)*256+$7)*256+$8 }')" 1200x3000

browser --dump-dom
expect_eq "dump-dom: browser exit" "$RC" 0
cp "$OUT" "$D/dom.html"
for id in $IDS; do
	check "DOM has figure $id" grep -q "<figure id=\"$id\">" "$D/dom.html"
done
# The plots are present and sized: every <svg> has width and height.
grep -o '<svg[^>]*>' "$D/dom.html" >"$D/svgs"
n_svg=$(wc -l <"$D/svgs")
check "DOM has at least 3 svg plots (got $n_svg)" test "$n_svg" -ge 3
expect_eq "every svg has width and height" \
	"$(grep -c -E 'width="[0-9.]+".*height="[0-9.]+"|height="[0-9.]+".*width="[0-9.]+"' "$D/svgs")" \
	"$n_svg"
check "svgs inside the chart figures" sh -c "sed -n '/<figure id=\"fig-cdf\">/,/<\/figure>/p' \
	'$D/dom.html' | grep -q '<svg'"

if [ -s "$SHOT" ]; then
	echo "report screenshot: $SHOT"
fi
finish
