# fp_conformance.sh - feedparser's own test suite (the visible half, in
# ../shared/data/feedparser-tests, BSD) scored by ../shared/tools/fp-conformance.py
# on `freshet parse --format json`; fails below the floor this code reaches
# (docs/parse.md, "feedparser's tests"). Needs Debian's python3 (no module
# beyond the standard library); skipped without it or the shared data.
. "$(dirname "$0")/lib.sh"

# The floor, in tenths of a percent: raise it as the score rises (the
# issue's target is 970).
FLOOR=${FP_FLOOR:-975}
# 956 documents, one process each, in SHARDS scorers; slower under ASan
E2E_TIMEOUT=${E2E_TIMEOUT_FP:-1500}

PY=/usr/bin/python3
[ -x "$PY" ] || PY=$(command -v python3 || true)
if [ -z "$PY" ]; then
	e2e_say "skip: no python3"
	expect_eq "skipped" 1 1
	finish
fi
# The sanitized build (E2E_SLOW > 1, tests/CMakeLists.txt) is here for
# memory errors, not for the score, which is the release build's: one
# process parses every document (the same parser paths, without 956
# sanitized process start-ups), and must neither crash nor report.
if [ "${E2E_SLOW:-1}" -gt 1 ] && [ -d "$SHARED/data/feedparser-tests" ]; then
	(cd "$SHARED/data/feedparser-tests" && find "$PWD" -type f | LC_ALL=C sort) >"$WORK/docs"
	n_docs=$(wc -l <"$WORK/docs")
	check "feedparser's documents found ($n_docs)" test "$n_docs" -gt 900
	mapfile -t docs <"$WORK/docs"
	# In runs of 100, so that a failure names a short list.
	lines=0
	for ((i = 0; i < n_docs; i += 100)); do
		run "$FRESHET" parse --format json "${docs[@]:i:100}"
		# 0: all parsed; 1: some not a feed (the ill-formed ones); never more.
		check "parse of documents $i.. exits 0 or 1 ($RC)" test "$RC" -le 1
		lines=$((lines + $(wc -l <"$OUT")))
	done
	check "a line for nearly every document ($lines of $n_docs)" test "$lines" -ge $((n_docs * 9 / 10))
	finish
fi
# The scorer runs one process per document, one after the other: the
# documents are dealt round-robin into SHARDS trees of links (the same
# relative paths, so the same categories and skips) scored side by side,
# and the counts summed.
SHARDS=${FP_SHARDS:-3}
if tool=$(shared_file tools/fp-conformance.py) && [ -d "$SHARED/data/feedparser-tests" ]; then
	tests=$SHARED/data/feedparser-tests
	(cd "$tests" && find . -type f | LC_ALL=C sort) | while read -r f; do
		k=$(( ${k:--1} + 1 )); k=$((k % SHARDS))
		mkdir -p "$WORK/s$k/$(dirname "$f")" && ln -s "$tests/$f" "$WORK/s$k/$f" ||
			fatal "cannot lay out the shards"
	done
	pids=
	for k in $(seq 0 $((SHARDS - 1))); do
		timeout "$E2E_TIMEOUT" "$PY" "$tool" "$WORK/s$k" --freshet "$FRESHET" \
			>"$WORK/score$k" 2>"$WORK/score$k.err" &
		pids="$pids $!"
	done
	k=0
	for p in $pids; do
		rc=0
		wait "$p" || rc=$?
		expect_eq "scorer $k exit" "$rc" 0
		[ "$rc" = 0 ] || head -n 20 "$WORK/score$k.err" >&2
		k=$((k + 1))
	done
	# Per category and in all: "NAME ok/total pct%".
	cat "$WORK"/score[0-9]* | awk '$2 ~ /^[0-9]+\/[0-9]+$/ {
			split($2, a, "/"); ok[$1] += a[1]; n[$1] += a[2]
			if (!($1 in seen)) { seen[$1] = 1; order[++m] = $1 } }
		END { for (i = 1; i <= m; i++) { c = order[i]
			printf "%-12s %5d/%-5d %5.1f%%\n", c, ok[c], n[c], n[c] ? 100 * ok[c] / n[c] : 0 } }' \
		>"$WORK/score"
	cat "$WORK/score" >&2
	pct=$(awk '$1 == "total" { split($2, a, "/"); if (a[2] > 0) printf "%d", 1000 * a[1] / a[2] }' "$WORK/score")
	expect_eq "scorer printed a total" "$([ -n "$pct" ] && echo yes)" yes
	if [ -n "$pct" ]; then
		expect_eq "score $pct/1000 >= floor $FLOOR/1000" "$([ "$pct" -ge "$FLOOR" ] && echo yes)" yes
	fi
else
	expect_eq "skipped" 1 1
fi
finish
