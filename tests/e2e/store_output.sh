# store_output.sh - what `items`, `sources` and `export` print is safe for a
# terminal and a page: stored text holding ESC sequences, BEL, DEL, CR, C1
# controls (U+009B is a terminal's CSI) and invalid UTF-8 comes out with no
# control character but tab and newline where the format allows them:
# escaped in JSON Lines (\u001b, \u009b), replaced in CSV and tables. The
# text is planted with SQL (as an older freshet or another program could
# have stored it), so no crawl is needed.
. "$(dirname "$0")/lib.sh"

F=$FRESHET
unset FRESHET_DB
DB=$WORK/o.db
command -v sqlite3 >/dev/null || { e2e_say "note: no sqlite3, skipped"; finish; }

expect_exit 0 "$F" add --db "$DB" http://a.example/rss http://b.example/atom
# ESC [31m, BEL, DEL, CR, C1 CSI (C2 9B) and NEL (C2 85), a lone 0x9B byte
# (invalid UTF-8: a C1 CSI to an 8-bit terminal), tab and LF, and text
# that must survive: e, U+0100 (C4 80: a continuation byte 0x80 that is
# not a control), U+00A0.
bad="CAST(X'411B5B33316D524544077F0D42C29B33316DC2859B09430A44C3A9C480C2A045' AS TEXT)"
sqlite3 "$DB" "
INSERT INTO items (source_id, ident, url, title, author, summary, content, enclosure_url,
  enclosure_type, enclosure_length, published_s, updated_s, first_seen_s, hash, lang,
  lang_detected) VALUES
 (1, $bad, 'http://a.example/1' || $bad, $bad, $bad, $bad, $bad, 'http://a.example/1.mp3' || $bad,
  $bad, 3, 1700000000, NULL, 1700000100, 1, $bad, $bad);
UPDATE sources SET n_items = 1, title = $bad, category = $bad, site_url = 'http://a.example/' || $bad,
  last_fetch_s = 1700000100, err_count = 1, last_error = $bad, last_error_s = 1700000100 WHERE id = 1;" ||
	fatal "planting rows failed"

# no_controls FILE WHAT [ALLOWED]: no C0 control but those in ALLOWED (a
# grep class like '\x09\x0a'), no DEL, no C1 control (C2 80..C2 9F), and
# valid UTF-8 throughout.
no_controls() {
	local file=$1 what=$2 allowed=${3:-}
	local c0='\x00-\x08\x0a-\x1f'
	[ "$allowed" = tab-lf ] && c0='\x00-\x08\x0b-\x1f'
	[ "$allowed" = lf ] && c0='\x00-\x09\x0b-\x1f'
	check "$what: no C0 control or DEL" not env LC_ALL=C grep -qaP "[$c0\\x7f]" "$file"
	check "$what: no C1 control" not env LC_ALL=C grep -qaP '\xc2[\x80-\x9f]' "$file"
	check "$what: valid UTF-8" iconv -f UTF-8 -t UTF-8 "$file" -o /dev/null
	check "$what: the text around is kept" grep -qa "é" "$file"
}

# ---- items ----
expect_exit 0 "$F" items --db "$DB" --format jsonl
cp "$OUT" "$WORK/items.jsonl"
no_controls "$WORK/items.jsonl" "items jsonl" lf
expect_eq "items jsonl: one line" "$(wc -l <"$WORK/items.jsonl")" 1
expect_stdout_contains '\u001b[31mRED\u0007\u007f\rB\u009b31m\u0085'
expect_stdout_contains '\tC\nDé'
if have_python; then
	check "items jsonl parses and keeps each control as an escape" python3 -c '
import json, sys
o = json.loads(open(sys.argv[1], encoding="utf-8").read())
want = "A\x1b[31mRED\x07\x7f\rB\x9b31m\x85\ufffd\tC\nD\xe9\u0100\xa0E"
assert o["title"] == want, repr(o["title"])
assert o["link"] == "http://a.example/1" + want, repr(o["link"])
assert o["language"] == want and o["language_detected"] == want, repr(o)
' "$WORK/items.jsonl"
fi
expect_exit 0 "$F" items --db "$DB" --format csv
cp "$OUT" "$WORK/items.csv"
no_controls "$WORK/items.csv" "items csv" tab-lf
# The title field: ESC BEL DEL and the C1s replaced, CR as a line end.
expect_stdout_contains "$(printf '"A\xef\xbf\xbd[31mRED\xef\xbf\xbd\xef\xbf\xbd\nB\xef\xbf\xbd31m\xef\xbf\xbd\xef\xbf\xbd\tC\nD')"
if have_python; then
	check "items csv: one record of 16 fields (seq, the languages last)" python3 -c '
import csv, sys
rows = list(csv.reader(open(sys.argv[1], encoding="utf-8", newline="")))
assert len(rows) == 2 and len(rows[1]) == 16, rows
' "$WORK/items.csv"
fi
expect_exit 0 "$F" items --db "$DB" --format table
cp "$OUT" "$WORK/items.table"
no_controls "$WORK/items.table" "items table"
expect_eq "items table: a header and one row" "$(wc -l <"$WORK/items.table")" 2

# ---- sources ----
expect_exit 0 "$F" sources --db "$DB" --format jsonl
cp "$OUT" "$WORK/sources.jsonl"
no_controls "$WORK/sources.jsonl" "sources jsonl" lf
expect_stdout_contains '\u009b31m'
expect_exit 0 "$F" sources --db "$DB" --format csv
cp "$OUT" "$WORK/sources.csv"
no_controls "$WORK/sources.csv" "sources csv" tab-lf
expect_exit 0 "$F" sources --db "$DB"
cp "$OUT" "$WORK/sources.table"
no_controls "$WORK/sources.table" "sources table"
expect_eq "sources table: a header and two rows" "$(wc -l <"$WORK/sources.table")" 3

# ---- export ----
expect_exit 0 "$F" export --db "$DB" --opml
cp "$OUT" "$WORK/export.opml"
no_controls "$WORK/export.opml" "export opml" lf
expect_exit 0 "$F" add --db "$WORK/back.db" --opml "$WORK/export.opml"
expect_stderr_contains "added 2, already present 0"

finish
