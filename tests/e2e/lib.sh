# lib.sh - helpers shared by the end-to-end scripts: run the CLI, check its
# exit code, stdout and stderr, count checks, and print one summary line.
# Sourced (not run) by tests/e2e/*.sh; not itself a test (CTest runs it too,
# which only checks that it parses). Needs bash, coreutils, grep, sed, awk.
#
# Environment (set by tests/CMakeLists.txt):
#   FRESHET  path of the freshet binary (required)
#   SRC      source tree (default: two levels above this file)
#   SHARED   ../shared; shared-data checks are skipped when it is absent
#   TMPROOT  scratch root; each script works in its own mktemp -d under it,
#            removed on exit (kept when E2E_KEEP=1, for debugging)
#   E2E_NO_PYTHON=1  behave as if python3 were not installed
#
# Usage in a script:
#   . "$(dirname "$0")/lib.sh"
#   expect_exit 2 "$FRESHET" bogus      # runs it; OUT, ERR hold its output files
#   expect_stderr_contains "unknown command"
#   expect_stdout_empty
#   finish                              # prints "e2e/NAME: 12 checks passed"
#
# A failed check prints "e2e/NAME: FAIL: <check>: <why>" with the command and
# the head of its output, and the script goes on; finish exits 1 if any check
# failed. fatal stops at once (for set-up a later check cannot do without).

set -u

E2E_NAME=${E2E_NAME:-$(basename "$0" .sh)}
E2E_PASSED=0
E2E_FAILED=0
E2E_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

e2e_say() { printf 'e2e/%s: %s\n' "$E2E_NAME" "$*" >&2; }

fatal() {
	e2e_say "FATAL: $*"
	exit 1
}

# When sourced from lib.sh itself (CTest registers every *.sh), do nothing.
if [ "$(basename "$0")" = lib.sh ]; then
	echo "e2e/lib: helpers only, 0 checks"
	exit 0
fi

: "${FRESHET:?e2e/$E2E_NAME: FRESHET must name the freshet binary}"
[ -x "$FRESHET" ] || fatal "FRESHET=$FRESHET is not an executable"
SRC=${SRC:-$(cd "$E2E_DIR/../.." && pwd)}
SHARED=${SHARED:-}
TMPROOT=${TMPROOT:-${TMPDIR:-/tmp}}
mkdir -p "$TMPROOT" || fatal "cannot create TMPROOT=$TMPROOT"
WORK=$(mktemp -d "$TMPROOT/$E2E_NAME.XXXXXX") || fatal "mktemp -d under $TMPROOT failed"
if [ "${E2E_KEEP:-0}" = 1 ]; then
	trap 'e2e_say "kept $WORK"' EXIT
else
	trap 'rm -rf "$WORK"' EXIT
fi

# Output of the last command run by run/expect_exit.
OUT=$WORK/.stdout
ERR=$WORK/.stderr
RC=0
LAST_CMD=

# Commands that hang are failures, not CI timeouts. E2E_TIMEOUT (seconds, a
# script may set its own) is a hang detector, not a speed check: run() waits
# E2E_TIMEOUT x E2E_SLOW, where E2E_SLOW is 4 for the sanitized build (set by
# tests/CMakeLists.txt; a sanitized run --once over 4,000 forum pages took
# over 300 s at load 11 where the release build takes under 60 s).
E2E_TIMEOUT=${E2E_TIMEOUT:-300}
E2E_SLOW=${E2E_SLOW:-1}

# quote CMD...: the command as one shell-quoted line, for messages.
quote() {
	local a s=
	for a in "$@"; do
		s+=$(printf '%q ' "$a")
	done
	printf '%s' "${s% }"
}

pass() { E2E_PASSED=$((E2E_PASSED + 1)); }

# fail CHECK WHY: records a failed check and shows the last command's output.
fail() {
	local i loc=
	# The script line that made the failing check (the outermost frame
	# outside this file), so a failure can be found without counting.
	for ((i = 1; i < ${#BASH_SOURCE[@]}; i++)); do
		[ "${BASH_SOURCE[$i]}" != "${BASH_SOURCE[0]}" ] &&
			loc="${BASH_SOURCE[$i]##*/}:${BASH_LINENO[$((i - 1))]}: "
	done
	E2E_FAILED=$((E2E_FAILED + 1))
	e2e_say "FAIL: $loc$1: $2"
	if [ -n "$LAST_CMD" ]; then
		printf '  command: %s (exit %s)\n' "$LAST_CMD" "$RC" >&2
		[ -s "$OUT" ] && { echo "  stdout:"; head -n 15 "$OUT" | sed 's/^/    /'; } >&2
		[ -s "$ERR" ] && { echo "  stderr:"; head -n 15 "$ERR" | sed 's/^/    /'; } >&2
	fi
	return 0
}

# check CHECK COND...: passes when the command COND succeeds.
check() {
	local name=$1
	shift
	if "$@"; then pass; else fail "$name" "not true: $(quote "$@")"; fi
}

# run CMD...: runs CMD with stdout in $OUT and stderr in $ERR, its exit code
# in $RC; stdin is the caller's (a here-document may feed it). A sanitizer report or a death by signal fails a check whatever the
# caller expects, so an ASan build cannot pass a test by crashing.
run() {
	LAST_CMD=$(quote "$@")
	RC=0
	if command -v timeout >/dev/null; then
		timeout "$((E2E_TIMEOUT * E2E_SLOW))" "$@" >"$OUT" 2>"$ERR" || RC=$?
	else
		"$@" >"$OUT" 2>"$ERR" || RC=$?
	fi
	if [ "$RC" = 124 ] && command -v timeout >/dev/null; then
		fail "no hang" "timed out after $((E2E_TIMEOUT * E2E_SLOW))s"
	elif [ "$RC" -ge 128 ]; then
		fail "no crash" "killed by signal $((RC - 128))"
	elif grep -q -e 'Sanitizer' -e 'runtime error:' "$ERR"; then
		fail "sanitizer clean" "a sanitizer reported an error"
	fi
	return 0
}

# expect_exit CODE CMD...: runs CMD and checks its exit code.
expect_exit() {
	local want=$1
	shift
	run "$@"
	if [ "$RC" = "$want" ]; then pass; else fail "exit $want" "exited $RC"; fi
}

# expect_stdout_contains / expect_stderr_contains TEXT: fixed-string match in
# the last command's output.
expect_stdout_contains() {
	if grep -qF -e "$1" "$OUT"; then pass; else fail "stdout has '$1'" "not found"; fi
}
expect_stderr_contains() {
	if grep -qF -e "$1" "$ERR"; then pass; else fail "stderr has '$1'" "not found"; fi
}
# expect_stderr_matches ERE: extended regular expression on stderr.
expect_stderr_matches() {
	if grep -qE -e "$1" "$ERR"; then pass; else fail "stderr matches /$1/" "no match"; fi
}
expect_stdout_matches() {
	if grep -qE -e "$1" "$OUT"; then pass; else fail "stdout matches /$1/" "no match"; fi
}
expect_stdout_empty() {
	if [ ! -s "$OUT" ]; then pass; else fail "stdout empty" "stdout has $(wc -c <"$OUT") bytes"; fi
}
expect_stderr_empty() {
	if [ ! -s "$ERR" ]; then pass; else fail "stderr empty" "stderr has $(wc -c <"$ERR") bytes"; fi
}

# expect_eq CHECK GOT WANT: string equality.
expect_eq() {
	if [ "$2" = "$3" ]; then pass; else fail "$1" "got '$2', want '$3'"; fi
}

# expect_same_file CHECK A B: byte-identical files.
expect_same_file() {
	if cmp -s "$2" "$3"; then
		pass
	else
		fail "$1" "$2 and $3 differ"
		diff "$2" "$3" 2>&1 | head -n 10 | sed 's/^/    /' >&2
	fi
}

# csv_select FILE COL...: the named columns of a CSV file (header first), in
# the order given, so checks survive columns being added or moved. Fields are
# split at every comma: fine for freshet's output, whose only quoted field
# (the policy) holds none. Fails, printing nothing, when a column is missing.
csv_select() {
	local file=$1
	shift
	awk -F, -v OFS=, -v want="$*" '
		NR == 1 {
			n = split(want, w, " ")
			for (i = 1; i <= NF; i++) col[$i] = i
			for (j = 1; j <= n; j++) if (!(w[j] in col)) { bad = 1; exit 1 }
		}
		{
			line = ""
			for (j = 1; j <= n; j++) line = line (j > 1 ? OFS : "") $(col[w[j]])
			out[NR] = line
		}
		END { if (!bad) for (i = 1; i <= NR; i++) print out[i] }' "$file"
}

# csv_without FILE COL...: the CSV file without the named columns (e.g.
# wall_s, which is timing).
csv_without() {
	local file=$1
	shift
	awk -F, -v OFS=, -v drop="$*" '
		NR == 1 {
			n = split(drop, d, " ")
			for (j = 1; j <= n; j++) skip[d[j]] = 1
			for (i = 1; i <= NF; i++) if ($i in skip) gone[i] = 1
		}
		{
			line = ""; k = 0
			for (i = 1; i <= NF; i++) if (!(i in gone)) line = line (k++ ? OFS : "") $i
			print line
		}' "$file"
}

# have_python: python3 usable (and not disabled with E2E_NO_PYTHON=1).
have_python() {
	[ "${E2E_NO_PYTHON:-0}" != 1 ] && command -v python3 >/dev/null 2>&1 &&
		python3 -c 'import json' >/dev/null 2>&1
}

# hostile_start: starts tests/e2e/hostile_server.py on loopback, its request
# log in $LOG, or skips the test (exit 0) without python3; needs sqlite3 to
# read stores. Sets PORT FPORT SPORT CPORT (the server's ports file) and
# SERVER_PID, and clears the proxy variables.
hostile_start() {
	if ! have_python; then
		e2e_say "skip: python3 is needed for the hostile server"
		echo "e2e/$E2E_NAME: skipped (no python3), 0 checks"
		exit 0
	fi
	command -v sqlite3 >/dev/null || fatal "sqlite3 is needed to read the store"
	unset http_proxy HTTP_PROXY https_proxy HTTPS_PROXY all_proxy ALL_PROXY
	LOG=$WORK/req.log
	: >"$LOG"
	python3 "$E2E_DIR/hostile_server.py" "$WORK/ports" "$LOG" 2>"$WORK/server.err" &
	SERVER_PID=$!
	PIDS="$PIDS $SERVER_PID"
	local i
	for ((i = 0; i < 600; i++)); do
		[ -s "$WORK/ports" ] && break
		sleep 0.05
	done
	[ -s "$WORK/ports" ] || { cat "$WORK/server.err" >&2; fatal "hostile server did not start"; }
	read -r PORT FPORT SPORT CPORT <"$WORK/ports"
}

# shared_file REL: prints $SHARED/REL and succeeds when it exists, else says
# why the checks that need it are skipped and fails.
shared_file() {
	if [ -z "$SHARED" ] || [ ! -d "$SHARED" ]; then
		e2e_say "skip: no shared data dir (SHARED='$SHARED'), not checking $1"
		return 1
	fi
	if [ ! -f "$SHARED/$1" ]; then
		e2e_say "skip: $SHARED/$1 is absent"
		return 1
	fi
	printf '%s\n' "$SHARED/$1"
}

# finish: the summary line; exit status 1 when any check failed.
finish() {
	local total=$((E2E_PASSED + E2E_FAILED))
	if [ "$E2E_FAILED" -gt 0 ]; then
		echo "e2e/$E2E_NAME: $E2E_FAILED of $total checks FAILED"
		exit 1
	fi
	if [ "$total" -eq 0 ]; then
		echo "e2e/$E2E_NAME: no checks ran"
		exit 1
	fi
	echo "e2e/$E2E_NAME: $E2E_PASSED checks passed"
	exit 0
}

# ---- a loopback world: freshet serve in the background -----------------------
# Scripts that start servers get them stopped on exit.
PIDS=
cleanup() {
	local p
	for p in $PIDS; do kill "$p" 2>/dev/null; done
	if [ "${E2E_KEEP:-0}" = 1 ]; then e2e_say "kept $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT

# start_server NAME ARGS...: starts freshet serve in the background with
# --port-file, waits for the port; sets PORT and SPID.
start_server() {
	local name=$1 i
	shift
	rm -f "$WORK/$name.port"
	"$F" serve --port-file "$WORK/$name.port" "$@" 2>"$WORK/$name.err" &
	SPID=$!
	PIDS="$PIDS $SPID"
	for ((i = 0; i < 200; i++)); do
		[ -s "$WORK/$name.port" ] && break
		kill -0 "$SPID" 2>/dev/null || break
		sleep 0.05
	done
	[ -s "$WORK/$name.port" ] || { cat "$WORK/$name.err" >&2; fatal "server $name did not start"; }
	PORT=$(cat "$WORK/$name.port")
}

# stop_server NAME: SIGTERM, wait, check exit 0 and a clean stderr.
stop_server() {
	local rc=0
	kill -TERM "$SPID"
	wait "$SPID" || rc=$?
	LAST_CMD="freshet serve ($1)"
	OUT=/dev/null
	ERR=$WORK/$1.err
	RC=$rc
	expect_eq "$1 exits 0 on SIGTERM" "$rc" 0
	check "$1 sanitizer clean" not grep -q -e Sanitizer -e 'runtime error:' "$WORK/$1.err"
	OUT=$WORK/.stdout
}

# not CMD...: succeeds when CMD fails (for check).
not() { ! "$@"; }
