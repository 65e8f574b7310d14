# items_sfeed.sh - `freshet items --format sfeed` writes sfeed(5) lines that
# Debian's sfeed tools read: nine TAB-separated fields a line, whitespace in
# title/id/author/link turned to spaces, content escaped (\t \n \\), no
# control character anywhere; sfeed_plain lists the items. The rows are
# planted with SQL, as in store_output.sh, so no crawl is needed.
. "$(dirname "$0")/lib.sh"

F=$FRESHET
unset FRESHET_DB
DB=$WORK/s.db
command -v sqlite3 >/dev/null || { e2e_say "note: no sqlite3, skipped"; finish; }

expect_exit 0 "$F" add --db "$DB" http://a.example/rss
# Item 1: a title with TAB, LF, ESC and a C1 CSI; content with TAB, LF, a
# backslash and CR. Item 2: nothing but an id (no dates, no content).
# Item 3: plain, dated by updated only.
t1="CAST(X'5469746C6509310A4F6E651B5B336DC29B5A' AS TEXT)"
c1="CAST(X'3C703E610962630A645C650D663C2F703E' AS TEXT)"
sqlite3 "$DB" "
INSERT INTO items (source_id, ident, url, title, author, summary, content, enclosure_url,
  enclosure_type, enclosure_length, published_s, updated_s, first_seen_s, hash) VALUES
 (1, 'id-1', 'http://a.example/1', $t1, 'Ann' || char(9) || 'Author', NULL, $c1,
  'http://a.example/1.mp3', 'audio/mpeg', 3, 1700000000, NULL, 1700000100, 1),
 (1, 'id-2', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 1700000200, 2),
 (1, 'id-3', 'http://a.example/3', 'Third', NULL, 'just a summary', NULL, NULL, NULL, NULL,
  NULL, 1700000300, 1700000300, 3);
UPDATE sources SET n_items = 3 WHERE id = 1;" || fatal "planting rows failed"

expect_exit 0 "$F" items --db "$DB" --format sfeed
cp "$OUT" "$WORK/items.tsv"
expect_eq "three lines" "$(wc -l <"$WORK/items.tsv")" 3
expect_eq "nine fields on every line" "$(awk -F'\t' 'NF != 9' "$WORK/items.tsv" | wc -l)" 0
check "no control but TAB and LF" not env LC_ALL=C grep -qaP '[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]' \
	"$WORK/items.tsv"
l1=$(sed -n 1p "$WORK/items.tsv")
expect_eq "item 1: timestamp" "$(cut -f1 <<<"$l1")" 1700000000
expect_eq "item 1: title whitespace as spaces, controls gone" "$(cut -f2 <<<"$l1")" "Title 1 One[3mZ"
expect_eq "item 1: link" "$(cut -f3 <<<"$l1")" "http://a.example/1"
expect_eq "item 1: content escaped" "$(cut -f4 <<<"$l1")" '<p>a\tbc\nd\\ef</p>'
expect_eq "item 1: content-type" "$(cut -f5 <<<"$l1")" html
expect_eq "item 1: id" "$(cut -f6 <<<"$l1")" id-1
expect_eq "item 1: author" "$(cut -f7 <<<"$l1")" "Ann Author"
expect_eq "item 1: enclosure" "$(cut -f8 <<<"$l1")" "http://a.example/1.mp3"
expect_eq "item 2: only the id" "$(sed -n 2p "$WORK/items.tsv")" "$(printf '\t\t\t\t\tid-2\t\t\t')"
l3=$(sed -n 3p "$WORK/items.tsv")
expect_eq "item 3: dated by updated" "$(cut -f1 <<<"$l3")" 1700000300
expect_eq "item 3: the summary stands for content" "$(cut -f4 <<<"$l3")" "just a summary"

if command -v sfeed_plain >/dev/null; then
	run sfeed_plain <"$WORK/items.tsv"
	cp "$OUT" "$WORK/plain"
	expect_eq "sfeed_plain: a line per item" "$(wc -l <"$WORK/plain")" 3
	check "sfeed_plain shows the first title" grep -q "Title 1 One" "$WORK/plain"
	check "sfeed_plain shows the third title and link" grep -q "Third.*http://a.example/3" "$WORK/plain"
	if command -v sfeed_html >/dev/null; then
		run sfeed_html <"$WORK/items.tsv"
		check "sfeed_html links the first item" grep -q 'href="http://a.example/1"' "$OUT"
	fi
else
	e2e_say "note: no sfeed_plain (Debian package sfeed), its checks skipped"
fi

expect_exit 2 "$F" items --db "$DB" --format sfeeds
expect_stderr_contains "jsonl, csv, table or sfeed"
finish
