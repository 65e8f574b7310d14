# trace_errors.sh - bad trace input stops the run before it simulates: exit 1,
# nothing on stdout, and stderr says "FILE:LINE: reason". And row order does
# not matter: an unsorted trace (plain, gzip, CRLF, RFC 3339) gives the same
# figures as the sorted one.
. "$(dirname "$0")/lib.sh"

F=$FRESHET
D=$WORK

# bad_trace NAME LINE REASON CONTENT: writes CONTENT (printf format) to
# $D/NAME, simulates it, and wants exit 1, no stdout, "$D/NAME:LINE:" and
# REASON on stderr.
bad_trace() {
	local name=$1 line=$2 reason=$3
	printf "$4" >"$D/$name"
	bad_file "$name" "$line" "$reason"
}

# bad_file NAME LINE REASON [ARGS...]: as bad_trace for an existing file; ARGS
# are extra simulate options (e.g. --sources).
bad_file() {
	local name=$1 line=$2 reason=$3
	shift 3
	expect_exit 1 "$F" simulate --trace "$D/$name" "$@" --policy round-robin --budget 1/10s
	expect_stdout_empty
	expect_stderr_contains "$D/$name:$line: "
	expect_stderr_contains "$reason"
}

# ---- rows ----
bad_trace bad_time.csv 3 "time 'abc' is neither Unix seconds nor RFC 3339" \
	'source,time\na,1325376011\nb,abc\nc,1325376012\n'
bad_trace bad_month.csv 3 "has a month outside 1-12" \
	'source,time\na,2012-01-01T00:00:00Z\na,2012-13-01T00:00:00Z\n'
bad_trace bad_day.csv 2 "has a day outside its month" \
	'source,time\na,2011-02-29T00:00:00Z\n'
bad_trace no_zone.csv 2 "lacks a UTC offset" \
	'source,time\na,2012-01-01T00:00:00\n'
bad_trace blank_time.csv 2 "time ' 1' is neither" \
	'source,time\na, 1\n'
bad_trace long_time.csv 2 "has too many digits" \
	'source,time\na,1234567890123456\n'
bad_trace empty_time.csv 2 "time '' is empty" \
	'source,time\na,\n'
bad_trace too_many.csv 4 "expected 2 fields, found 3" \
	'source,time\na,1325376011\nb,1325376012\nc,1325376013,5\n'
bad_trace too_few.csv 3 "expected 3 fields, found 2" \
	'source,time,weight\na,1325376011,1\nb,1325376012\n'
bad_trace neg_weight.csv 2 "weight '-1' is negative" \
	'source,time,weight\na,1325376011,-1\n'
bad_trace nan_weight.csv 3 "weight 'nan' is NaN" \
	'source,time,weight\na,1,1\na,2,nan\n'
bad_trace word_weight.csv 4 "weight 'x' is not a number" \
	'source,time,weight\na,1,1\na,2,2.5\na,3,x\n'
bad_trace big_weight.csv 2 "weight '1e39' is too large" \
	'source,time,weight\na,1,1e39\n'
bad_trace no_source.csv 3 "missing source" \
	'source,time\na,1325376011\n,1325376012\n'
bad_trace blank_line.csv 3 "blank line" \
	'source,time\na,1\n\nb,2\n'
bad_trace open_quote.csv 2 "no closing quote" \
	'source,time\n"a,1\n'
bad_trace after_quote.csv 2 "text after the closing quote" \
	'source,time\n"a"x,1\n'

# ---- header ----
bad_trace no_time_col.csv 1 "header lacks a 'time' column" \
	'source,weight\na,1\n'
bad_trace no_source_col.csv 1 "header lacks a 'source' column" \
	'time\n1\n'
bad_trace unknown_col.csv 1 "unknown column 'score'" \
	'source,time,score\na,1325376011,1\n'
bad_trace dup_col.csv 1 "duplicate column 'time'" \
	'source,time,time\na,1,2\n'
bad_trace wide_header.csv 1 "header has 5 columns" \
	'source,time,weight,url,extra\n'
bad_trace empty.csv 1 "file is empty" ''

# A line longer than the 64 KiB cap.
{
	echo source,time
	head -c 70000 /dev/zero | tr '\0' a
	echo ,1
} >"$D/long_line.csv"
bad_file long_line.csv 2 "line is longer than 65536 bytes"

# ---- gzip ----
# A trace large enough that cutting its gzip leaves whole lines before the cut.
awk 'BEGIN { print "source,time"; for (i = 0; i < 5000; i++) printf "s%03d,%d\n", i % 97, 1325376000 + i * 37 }' \
	>"$D/big.csv"
gzip -9 -n -c "$D/big.csv" >"$D/big.csv.gz"
size=$(wc -c <"$D/big.csv.gz")
head -c $((size / 2)) "$D/big.csv.gz" >"$D/cut.csv.gz"
# The line number depends on where the cut falls: match it as a pattern.
expect_exit 1 "$F" simulate --trace "$D/cut.csv.gz" --policy round-robin --budget 1/10s
expect_stdout_empty
expect_stderr_matches "$D/cut\\.csv\\.gz:[0-9]+: read error: gzip data ends early"
head -c $((size - 4)) "$D/big.csv.gz" >"$D/cut_tail.csv.gz"
expect_exit 1 "$F" simulate --trace "$D/cut_tail.csv.gz" --policy round-robin --budget 1/10s
expect_stdout_empty
expect_stderr_matches "$D/cut_tail\\.csv\\.gz:[0-9]+: read error: .*(truncated|ends early)"
# A bad row inside a gzip file is found at its line like in a plain one.
{
	head -n 1000 "$D/big.csv"
	echo 's001,yesterday'
} | gzip -c >"$D/bad_row.csv.gz"
bad_file bad_row.csv.gz 1001 "time 'yesterday' is neither"

# ---- sources file ----
printf 'source,host\na,example.com\n' >"$D/src_a.csv"
printf 'source,time\na,1\nb,2\n' >"$D/ab.csv"
bad_file ab.csv 3 "source 'b' is not in $D/src_a.csv" --sources "$D/src_a.csv"
printf 'source,host\na,example.com\na,example.org\n' >"$D/src_dup.csv"
expect_exit 1 "$F" simulate --trace "$D/ab.csv" --sources "$D/src_dup.csv" --policy round-robin
expect_stdout_empty
expect_stderr_contains "$D/src_dup.csv:3: duplicate source 'a'"
printf 'host,group\nexample.com,api\n' >"$D/src_nosrc.csv"
expect_exit 1 "$F" simulate --trace "$D/ab.csv" --sources "$D/src_nosrc.csv" --policy round-robin
expect_stdout_empty
expect_stderr_contains "$D/src_nosrc.csv:1: header lacks a 'source' column"
printf 'source,weight\na,-2\n' >"$D/src_negw.csv"
expect_exit 1 "$F" simulate --trace "$D/ab.csv" --sources "$D/src_negw.csv" --policy round-robin
expect_stdout_empty
expect_stderr_contains "$D/src_negw.csv:2: weight '-2' is negative"

# ---- accepted variations ----
# ok_trace NAME CONTENT: loads and simulates (exit 0).
ok_trace() {
	printf "$2" >"$D/$1"
	expect_exit 0 "$F" simulate --trace "$D/$1" --policy round-robin --budget 1/10s --format csv
	expect_stdout_contains '"round-robin"'
}
ok_trace crlf.csv 'source,time\r\na,1\r\nb,2\r\n'
ok_trace bom.csv '\xef\xbb\xbfsource,time\na,1\n'
ok_trace no_final_newline.csv 'source,time\na,1\nb,2'
ok_trace quoted.csv 'time,url,source\n1,"http://x/?a=1,2","a,b"\n2,u,"say ""hi"""\n'
ok_trace header_only.csv 'source,time\n'

# ---- row order does not matter ----
# 40 sources with skewed rates, 4,000 rows in one week, in three orders:
# by time, by source then time descending, and scrambled. The sources file
# fixes the ids, so every order must give the same figures.
awk 'BEGIN {
	srand(11); print "source,time"
	for (i = 0; i < 4000; i++)
		printf "src%02d,%d\n", int(rand() * rand() * 40), 1325376000 + int(rand() * 7 * 86400)
}' >"$D/raw.csv"
{
	echo source,time
	tail -n +2 "$D/raw.csv" | sort -t, -k2,2n -k1,1
} >"$D/sorted.csv"
{
	echo source,time
	tail -n +2 "$D/raw.csv" | sort -t, -k1,1r -k2,2nr
} >"$D/reversed.csv"
{
	echo source
	tail -n +2 "$D/raw.csv" | cut -d, -f1 | LC_ALL=C sort -u
} >"$D/sources.csv"
# The same rows with RFC 3339 times (half with a +02:00 offset), CRLF line
# ends, and gzip-compressed.
awk -F, 'NR == 1 { print; next }
	{
		t = $2; off = (NR % 2) ? 0 : 7200; t += off
		s = t % 60; m = int(t / 60) % 60; h = int(t / 3600) % 24
		d = int(t / 86400) - 15340   # days since 2012-01-01
		printf "%s,2012-01-%02dT%02d:%02d:%02d%s\n", $1, d + 1, h, m, s, off ? "+02:00" : "Z"
	}' "$D/raw.csv" >"$D/rfc3339.csv"
sed 's/$/\r/' "$D/raw.csv" >"$D/crlf_order.csv"
gzip -c "$D/raw.csv" >"$D/raw.csv.gz"

POLICIES=round-robin,buzzwise:k=5,air-balloon:inertia=24
# figures NAME TRACE: the csv output without wall_s (timing) into $D/NAME.out.
figures() {
	expect_exit 0 "$F" simulate --trace "$2" --sources "$D/sources.csv" --policy "$POLICIES" \
		--budget 20/10m --format csv
	csv_without "$OUT" wall_s >"$D/$1.out"
}
figures sorted "$D/sorted.csv"
check "csv has a wall_s column" grep -q wall_s <(head -n 1 "$OUT")
check "csv without wall_s" test -z "$(head -n 1 "$D/sorted.out" | grep wall_s)"
check "csv has a row per policy" test "$(wc -l <"$D/sorted.out")" -eq 4
figures raw "$D/raw.csv"
expect_same_file "scrambled rows give the sorted figures" "$D/sorted.out" "$D/raw.out"
figures reversed "$D/reversed.csv"
expect_same_file "reversed rows give the sorted figures" "$D/sorted.out" "$D/reversed.out"
figures rfc3339 "$D/rfc3339.csv"
expect_same_file "RFC 3339 times give the Unix-seconds figures" "$D/sorted.out" "$D/rfc3339.out"
figures crlf "$D/crlf_order.csv"
expect_same_file "CRLF line ends give the same figures" "$D/sorted.out" "$D/crlf.out"
figures gzip "$D/raw.csv.gz"
expect_same_file "gzip gives the same figures" "$D/sorted.out" "$D/gzip.out"

# Without a sources file ids follow the source names (byte order), so any
# order of the rows gives the figures of the sorted trace: scrambled,
# reversed, and with each source's first row moved.
awk -F, 'NR == 1 { print; next } !seen[$1]++ { print; next } { rest[n++] = $0 }
	END { for (i = n - 1; i >= 0; i--) print rest[i] }' "$D/sorted.csv" >"$D/firsts.csv"
# nosrc NAME TRACE: as figures, without --sources.
nosrc() {
	expect_exit 0 "$F" simulate --trace "$2" --policy "$POLICIES" --budget 20/10m --format csv
	csv_without "$OUT" wall_s >"$D/$1.out"
}
nosrc nosrc_sorted "$D/sorted.csv"
nosrc nosrc_firsts "$D/firsts.csv"
expect_same_file "rows reordered within each source give the same figures" \
	"$D/nosrc_sorted.out" "$D/nosrc_firsts.out"
nosrc nosrc_raw "$D/raw.csv"
expect_same_file "scrambled rows without --sources give the sorted figures" \
	"$D/nosrc_sorted.out" "$D/nosrc_raw.out"
nosrc nosrc_reversed "$D/reversed.csv"
expect_same_file "reversed rows without --sources give the sorted figures" \
	"$D/nosrc_sorted.out" "$D/nosrc_reversed.out"
# A sources file in name order numbers the sources as no sources file does.
check "sources.csv is in name order" env LC_ALL=C sort -c <(tail -n +2 "$D/sources.csv")
expect_same_file "name order is the order of a sorted sources file" \
	"$D/sorted.out" "$D/nosrc_sorted.out"

finish
