# fp_conformance.sh - feedparser's own test suite (the visible half, in
# ../shared/data/feedparser-tests, BSD) scored by ../shared/tools/fp-conformance.py
# on `freshet parse --format json`; fails below the floor this code reaches
# (docs/parse.md, "feedparser's tests"). Needs Debian's python3 (no module
# beyond the standard library); skipped without it or the shared data.
. "$(dirname "$0")/lib.sh"

# The floor, in tenths of a percent: raise it as the score rises (the
# issue's target is 970).
FLOOR=${FP_FLOOR:-975}
# 956 documents, one process each; slower under ASan
E2E_TIMEOUT=${E2E_TIMEOUT_FP:-1500}

PY=/usr/bin/python3
[ -x "$PY" ] || PY=$(command -v python3 || true)
if [ -z "$PY" ]; then
	e2e_say "skip: no python3"
	expect_eq "skipped" 1 1
	finish
fi
if tool=$(shared_file tools/fp-conformance.py) && [ -d "$SHARED/data/feedparser-tests" ]; then
	run "$PY" "$tool" "$SHARED/data/feedparser-tests" --freshet "$FRESHET"
	expect_eq "scorer exit" "$RC" 0
	cat "$OUT" >&2
	pct=$(awk '$1 == "total" { split($2, a, "/"); if (a[2] > 0) printf "%d", 1000 * a[1] / a[2] }' "$OUT")
	expect_eq "scorer printed a total" "$([ -n "$pct" ] && echo yes)" yes
	if [ -n "$pct" ]; then
		expect_eq "score $pct/1000 >= floor $FLOOR/1000" "$([ "$pct" -ge "$FLOOR" ] && echo yes)" yes
	fi
else
	expect_eq "skipped" 1 1
fi
finish
