# symbols.sh - every symbol the libraries export carries the fr_ prefix
# (issue 25): nm on each part's static library (libfr_*.a beside the CLI),
# external definitions only (functions, data, bss, read-only, common, weak),
# but for names the C implementation reserves (leading "__"), which the
# compiler makes itself (AddressSanitizer's __odr_asan.NAME indicators).
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
		awk -v lib="$(basename "$a")" 'NF == 3 && $2 ~ /^[TDBRCVW]$/ && $3 !~ /^fr_/ && $3 !~ /^__/ { print lib ": " $3 }' \
			>>"$WORK/bad"
done
check "the parts' libraries are there ($n_libs)" test "$n_libs" -ge 12
n_bad=$(wc -l <"$WORK/bad")
[ "$n_bad" = 0 ] || head -20 "$WORK/bad" >&2
expect_eq "exported symbols without the fr_ prefix" "$n_bad" 0
finish
