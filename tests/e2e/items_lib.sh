# items_lib.sh - readers of `freshet items` for the items_after*.sh tests:
# one that follows (--follow), one that polls with --cursor FILE, one that
# polls with --after SEQ taken from the last line it got. Each appends what
# it reads to a file; items_check says whether a file holds every stored
# item exactly once, in seq order 1..N. Sourced after lib.sh; not a test
# itself (CTest runs it too, which only checks it parses).

if [ "$(basename "$0")" = items_lib.sh ]; then
	echo "e2e/items_lib: helpers only, 0 checks"
	exit 0
fi

# reader_follow OUT: `items --follow` in the background; sets RPID.
reader_follow() {
	"$F" items --db "$DB" --follow >"$1" 2>"$1.err" &
	RPID=$!
	PIDS="$PIDS $RPID"
}

# reader_poll MODE OUT STOPFILE: polls (MODE cursor or after) 0.05 s after
# each poll ends, 0.2 s in the sanitized build (a sanitized process takes
# 190 ms of CPU to start and exit here: at 0.05 s two readers kept both
# cores busy), until STOPFILE exists and a poll after it brought nothing;
# in the background, sets RPID. A failed poll is written to OUT.err.
reader_poll() {
	local mode=$1 out=$2 stop=$3 poll=0.05
	[ "${E2E_SLOW:-1}" -gt 1 ] && poll=0.2
	(
		last=0
		while :; do
			done_now=0
			[ -e "$stop" ] && done_now=1
			if [ "$mode" = cursor ]; then
				"$F" items --db "$DB" --cursor "$out.cur" >"$out.chunk" 2>>"$out.err" ||
					echo "poll failed" >>"$out.err"
			else
				"$F" items --db "$DB" --after "$last" >"$out.chunk" 2>>"$out.err" ||
					echo "poll failed" >>"$out.err"
				[ -s "$out.chunk" ] && last=$(tail -n 1 "$out.chunk" | sed 's/.*"seq":\([0-9]*\)}$/\1/')
			fi
			cat "$out.chunk" >>"$out"
			[ "$done_now" = 1 ] && [ ! -s "$out.chunk" ] && break
			sleep "$poll"
		done
	) &
	RPID=$!
	PIDS="$PIDS $RPID"
}

# items_check NAME FILE N KEYS: FILE (JSON Lines) holds N items with seq
# 1..N in order, each (source_id, id) once, and the same set as KEYS (one
# "source_id id" line per stored item).
items_check() {
	check "$1 saw every item once, in seq order" python3 -c '
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8")]
n = int(sys.argv[2])
seqs = [r["seq"] for r in rows]
keys = [(r["source_id"], r["id"]) for r in rows]
want = set(tuple(l.rstrip("\n").split(" ", 1)) for l in open(sys.argv[3], encoding="utf-8"))
want = set((int(a), b) for a, b in want)
bad = [i for i in range(1, len(seqs)) if seqs[i] != seqs[i - 1] + 1]
assert len(rows) == n, "%d rows, %d stored" % (len(rows), n)
assert seqs == list(range(1, n + 1)), "seq gaps or repeats at %s" % bad[:5]
assert len(set(keys)) == n, "an item twice"
assert set(keys) == want, "not the stored items"
' "$2" "$3" "$4"
}
