# symbols.sh - every symbol the libraries export carries the fr_ prefix
# (issue 25), and the test kit's never share a prefix family with the
# crawler's: nm on each part's static library (libfr_*.a beside the CLI),
# external definitions only (functions, data, bss, read-only, common, weak),
# but for names the C implementation reserves (leading "__"), which the
# compiler makes itself (AddressSanitizer's __odr_asan.NAME indicators; the
# C++ exception personality's DW.ref.__gxx_personality_v0 in lib/lang's
# cld2.cc, no C identifier).
# A helper shared between files of one part is fr_ too; one file's own is
# static.
. "$(dirname "$0")/lib.sh"

command -v nm >/dev/null || { e2e_say "skipped: no nm (binutils)"; finish; exit 0; }
LIBDIR=$(dirname "$FRESHET")
n_libs=0
: >"$WORK/bad"
for a in "$LIBDIR"/libfr_*.a; do
	[ -f "$a" ] || continue
	n_libs=$((n_libs + 1))
	nm -g --defined-only "$a" 2>/dev/null |
		awk -v lib="$(basename "$a")" 'NF == 3 && $2 ~ /^[TDBRCVW]$/ && $3 !~ /^fr_/ && $3 !~ /^__/ && $3 !~ /^DW\.ref\.__/ { print lib ": " $3 }' \
			>>"$WORK/bad"
done
check "the parts' libraries are there ($n_libs)" test "$n_libs" -ge 12
n_bad=$(wc -l <"$WORK/bad")
[ "$n_bad" = 0 ] || head -20 "$WORK/bad" >&2
expect_eq "exported symbols without the fr_ prefix" "$n_bad" 0

# The test kit (libfr_testkit.a) and the crawler's libraries never share a
# prefix family (fr_WORD_...: WORD), no crawler library exports the test
# kit's fr_tk_, and each forum file of the test kit (testkit/forum_*.c,
# forums.c) exports only fr_tk_FILE_ names, or fr_tk_FILE itself (an ops
# instance, forum_html_phpbb.c's fr_tk_forum_html_phpbb; docs/architecture.md).
TK=$LIBDIR/libfr_testkit.a
check "the test kit's library is there" test -f "$TK"
families() { awk 'NF == 3 && $2 ~ /^[TDBRCVW]$/ && $3 ~ /^fr_/ { w = substr($3, 4); sub(/_.*/, "", w); print w }' | sort -u; }
nm -g --defined-only "$TK" 2>/dev/null | families >"$WORK/fam_tk"
: >"$WORK/fam_crawl"
for a in "$LIBDIR"/libfr_*.a; do
	[ "$a" = "$TK" ] && continue
	nm -g --defined-only "$a" 2>/dev/null | families >>"$WORK/fam_crawl"
done
sort -u -o "$WORK/fam_crawl" "$WORK/fam_crawl"
check "the crawler's libraries export families" test -s "$WORK/fam_crawl"
check "the test kit exports fr_tk_" grep -qx tk "$WORK/fam_tk"
shared=$(comm -12 "$WORK/fam_tk" "$WORK/fam_crawl" | tr '\n' ' ')
expect_eq "prefix families shared by the test kit and the crawler" "$shared" ""
nm -A -g --defined-only "$TK" 2>/dev/null |
	awk 'NF == 3 && $2 ~ /^[TDBRCVW]$/ {
		n = split($1, p, ":"); f = p[n - 1]; sub(/\.c\.o$|\.o$/, "", f)
		if (f ~ /^forum/ && $3 !~ /^__/ && $3 != "fr_tk_" f && index($3, "fr_tk_" f "_") != 1) print f ": " $3
	}' >"$WORK/bad_tk"
n_forum=$(nm -A -g --defined-only "$TK" 2>/dev/null | awk 'NF == 3 && $2 ~ /^[TDBRCVW]$/ && $3 ~ /^fr_tk_forum/' | wc -l)
check "the test kit's forum files export names ($n_forum)" test "$n_forum" -ge 40
[ -s "$WORK/bad_tk" ] && head -20 "$WORK/bad_tk" >&2
expect_eq "test-kit forum symbols outside fr_tk_FILE_" "$(wc -l <"$WORK/bad_tk")" 0
finish
