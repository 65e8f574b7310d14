# forum_run.sh - forums as sources, end to end on loopback: `freshet serve
# --forums 4` (phpBB, vBulletin, SMF, XenForo) on a clock the test steps
# (FRESHET_CLOCK_FILE: the forums stand still while a cycle reads them and
# move two hours between the cycles, so what they show does not depend on
# how fast the crawler is; on the wall clock at ten forum minutes a second,
# a sanitized crawler at load 11 never caught up with the posts), `freshet
# add --kind forum` with each forum's entry URL, `freshet run --once` twice:
#  1. the first cycle (phase 1) stores every post the forums show, one item
#     each; robots.txt is read first;
#  2. the second cycle (phase 2) asks a small fraction of the pages of the
#     first, stores the new posts and no post twice;
#  3. against the server's truth when it stops: the store holds nearly all
#     posts, per forum, with the truth's authors and times; no Disallowed
#     path (/login, /search) was ever asked;
#  4. a forum whose pages are all 404 is an error named with its URL, and
#     the other forums are stored all the same.
. "$(dirname "$0")/lib.sh"

F=$FRESHET
DB=$WORK/f.db

T0=$(($(date +%s) / 60 * 60))
echo "$T0" >"$WORK/clock"
FRESHET_CLOCK_FILE=$WORK/clock start_server forums --forums 4 --seed 5 \
	--start "$(date -u -d "@$T0" +%Y-%m-%dT%H:%M:%SZ)" --list "$WORK/list.txt" \
	--truth "$WORK/truth.tsv" --log "$WORK/forums.log"
expect_eq "4 forums listed" "$(wc -l <"$WORK/list.txt")" 4

# A fifth "forum" the server does not know: every page a 404.
expect_exit 0 "$F" add --db "$DB" --kind forum $(cat "$WORK/list.txt")
expect_exit 0 "$F" add --db "$DB" --kind forum "http://nosuch.test/forum/"

CT="--connect-to nosuch.test:80:127.0.0.1:$PORT"
for k in 0 1 2 3; do CT="$CT --connect-to forum$k.test:80:127.0.0.1:$PORT"; done

# ---- cycle 1: phase 1 ----
run "$F" run --db "$DB" --once --gap 0 $CT
expect_eq "run 1 exits 0" "$RC" 0
expect_stdout_contains "of 5 sources"
expect_stdout_contains "4 ok"
expect_stdout_contains "1 error;"
expect_stderr_contains "http://nosuch.test/forum/: no page of the forum could be read (last status 404)"

expect_exit 0 "$F" sources --db "$DB" --format jsonl
check "sources are forums" test "$(grep -c '"kind":"forum"' "$OUT")" -eq 5

expect_exit 0 "$F" items --db "$DB" --format jsonl
cp "$OUT" "$WORK/items1.jsonl"
n1=$(wc -l <"$WORK/items1.jsonl")
check "run 1 stored thousands of posts ($n1)" test "$n1" -gt 2000
ids() { sed 's/^{"id":"\([^"]*\)".*/\1/' "$1"; }
check "no id stored twice" test "$(ids "$WORK/items1.jsonl" | sort | uniq -d | wc -l)" -eq 0
check "robots.txt asked" grep -q "/robots.txt" "$WORK/forums.log"
p1=$(grep -vc "robots.txt" "$WORK/forums.log")

# ---- cycle 2: phase 2, two hours later in forum time ----
# (The failing forum waits out its error backoff: out of this run.)
expect_exit 0 "$F" remove --db "$DB" http://nosuch.test/forum/
echo $((T0 + 7200)) >"$WORK/clock"
run "$F" run --db "$DB" --once --gap 0 $CT
expect_eq "run 2 exits 0" "$RC" 0
expect_stdout_contains "4 ok"
p2=$(($(grep -vc "robots.txt" "$WORK/forums.log") - p1))
check "cycle 2 asked few pages ($p2 against $p1)" test "$p2" -lt $((p1 / 10))
expect_exit 0 "$F" items --db "$DB" --format jsonl
cp "$OUT" "$WORK/items2.jsonl"
n2=$(wc -l <"$WORK/items2.jsonl")
check "cycle 2 stored new posts ($n1 then $n2)" test "$n2" -gt "$n1"
check "still no id twice" test "$(ids "$WORK/items2.jsonl" | sort | uniq -d | wc -l)" -eq 0

# The truth when the server stops (the clock of run 2): the
# store has nearly all of it, and nothing that is not in it.
stop_server forums
check "no request to a Disallowed path" not grep -qE "[[:space:]]/(login|search)" "$WORK/forums.log"
nt=$(($(wc -l <"$WORK/truth.tsv") - 1))
check "the store holds the forums' posts ($n2 of $nt)" \
	awk -v a="$n2" -v b="$nt" 'BEGIN { exit !(a >= b * 0.99 && a <= b) }'
for k in 0 1 2 3; do
	t=$(awk -F'\t' -v h="forum$k.test" '$1 == h' "$WORK/truth.tsv" | wc -l)
	s=$(grep -c "\"source\":\"http://forum$k.test/\"" "$WORK/items2.jsonl" || true)
	check "forum$k: $s posts stored of $t" awk -v a="$s" -v b="$t" 'BEGIN { exit !(a >= b * 0.98 && a <= b) }'
done
# Authors and times: every stored (author, time) is one of the truth's.
awk -F'\t' 'NR > 1 { print $6 "\t" $7 }' "$WORK/truth.tsv" | sort -u >"$WORK/t.pairs"
if have_python; then
	cat >"$WORK/pairs.py" <<'PY'
import json, sys, datetime
for line in open(sys.argv[1]):
    row = json.loads(line)
    t = datetime.datetime.strptime(row['published'], '%Y-%m-%dT%H:%M:%SZ')
    t = int(t.replace(tzinfo=datetime.timezone.utc).timestamp())
    print(f"{row['author']}\t{t}")
PY
	python3 "$WORK/pairs.py" "$WORK/items2.jsonl" | sort -u >"$WORK/s.pairs"
	bad=$(comm -23 "$WORK/s.pairs" "$WORK/t.pairs" | wc -l)
	check "authors and times of the posts match the truth ($bad off)" test "$bad" -le $((n2 / 200))
fi

finish
