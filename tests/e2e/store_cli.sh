# store_cli.sh - the store commands end to end: add (URLs, --file, --opml,
# dedupe, bad lines named by file:line), remove (id, address, --purge),
# export --opml (round trip through add), sources and items in every format,
# --db / FRESHET_DB / ./freshet.db, and bad input. Items and crawl states
# are planted with SQL (sqlite3 or python3), so no crawl is needed.
. "$(dirname "$0")/lib.sh"

F=$FRESHET
OPML=$SRC/tests/data/opml
unset FRESHET_DB
DB=$WORK/a.db

# sql DB STATEMENTS: runs SQL on a store behind freshet's back.
sql() {
	if command -v sqlite3 >/dev/null 2>&1; then
		sqlite3 "$1" "$2"
	elif have_python; then
		python3 -c 'import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.executescript(sys.argv[2]); c.commit()' "$1" "$2"
	else
		return 1
	fi
}
have_sql() { command -v sqlite3 >/dev/null 2>&1 || have_python; }

# usage_error WHAT ARGS...: exit 2, nothing on stdout, WHAT on stderr.
usage_error() {
	local what=$1
	shift
	expect_exit 2 "$F" "$@"
	expect_stdout_empty
	expect_stderr_contains "$what"
}

# ---- --help ----
for sub in add remove sources items export; do
	expect_exit 0 "$F" "$sub" --help
	expect_stdout_contains "usage: freshet $sub"
	expect_stdout_contains "--db PATH"
	expect_stderr_empty
done
expect_exit 0 "$F" add --help
for opt in --file --opml --kind --group; do expect_stdout_contains "$opt"; done
expect_exit 0 "$F" items --help
for opt in --since --source --format --limit jsonl csv table first_seen enclosure; do
	expect_stdout_contains "$opt"
done
expect_exit 0 "$F" sources --help
for w in "never fetched" "backing off until" "error N" redirected --all; do expect_stdout_contains "$w"; done

# ---- bad usage (found before the store is touched) ----
usage_error "nothing to add" add --db "$DB"
usage_error "--kind wants feed, forum or api, not 'rss'" add --db "$DB" --kind rss http://a.example/
usage_error "unknown option '--frob'" add --db "$DB" --frob
usage_error "--file needs a value" add --db "$DB" --file
usage_error "--group needs a name" add --db "$DB" --group= http://a.example/
usage_error "name the sources" remove --db "$DB"
usage_error "unknown option '--hard'" remove --db "$DB" --hard 1
usage_error "say the format: --opml" export --db "$DB"
usage_error "--format wants table, jsonl or csv, not 'xml'" sources --db "$DB" --format xml
usage_error "--format wants jsonl, csv, table or sfeed, not 'yaml'" items --db "$DB" --format yaml
usage_error "time 'yesterday' is neither RFC 3339, Unix seconds nor an age" items --db "$DB" --since yesterday
usage_error "has a month outside 1-12" items --db "$DB" --since 2024-13-01T00:00:00Z
usage_error "--limit wants a whole number >= 1, not '0'" items --db "$DB" --limit 0
usage_error "--limit wants a whole number >= 1, not '-3'" items --db "$DB" --limit -3
usage_error "--db needs a value" sources --db
check "bad usage made no store" test ! -e "$DB"

# ---- add: URLs, dedupe across http/https and a trailing slash ----
expect_exit 0 "$F" add --db "$DB" http://Example.COM:80/feed https://example.com/feed/ \
	http://example.com/feed https://b.example/rss
expect_stderr_contains "added 2, already present 2"
expect_stdout_empty
expect_exit 0 "$F" add --db="$DB" HTTPS://B.EXAMPLE/rss/
expect_stderr_contains "added 0, already present 1"

# A bad argument is named; the others go in (exit 1).
expect_exit 1 "$F" add --db "$DB" http://c.example/ 'ftp://x.example/f' 'no url' http://d.example/
expect_stderr_contains "argument 2: url 'ftp://x.example/f': not an absolute http(s) URL"
expect_stderr_contains "argument 3: url 'no url'"
expect_stderr_contains "added 2, already present 0, 2 bad"

# ---- add --file: comments, blanks, a bad line by file:line, gzip ----
printf '# my feeds\nhttp://e.example/atom\n\n   https://f.example/feed.xml   \nnot-a-url\nhttps://example.com/feed\n\thttp://g.example/x\n' >"$WORK/list.txt"
expect_exit 1 "$F" add --db "$DB" --file "$WORK/list.txt" --group slow
expect_stderr_contains "$WORK/list.txt:5: url 'not-a-url'"
expect_stderr_contains "added 3, already present 1, 1 bad"
printf 'http://h.example/1\nhttp://h.example/2\n' | gzip >"$WORK/list.gz"
expect_exit 0 "$F" add --db "$DB" --file "$WORK/list.gz"
expect_stderr_contains "added 2, already present 0"
expect_exit 1 "$F" add --db "$DB" --file "$WORK/missing.txt" http://i.example/
expect_stderr_contains "$WORK/missing.txt: cannot open"
expect_stderr_contains "added 1"

# ---- add --opml: folders become categories; bad files by file:line ----
expect_exit 1 "$F" add --db "$DB" --opml "$OPML/nested.opml"
expect_stderr_contains "$OPML/nested.opml:18: empty address"
expect_stderr_contains "added 5, already present 0, 1 bad"
expect_exit 1 "$F" add --db "$DB" --opml "$OPML/bad.opml" --opml "$OPML/v1.opml"
expect_stderr_matches "$OPML/bad.opml:[0-9]+: "
expect_stderr_contains "added 1, already present 0"
expect_exit 1 "$F" add --db "$DB" --opml "$OPML/entity.opml"
expect_stderr_contains "entity.opml:8: attribute xmlUrl uses the entity '&host;'"
expect_exit 1 "$F" add --db "$DB" --opml "$OPML/notopml.xml"
expect_stderr_contains "notopml.xml:2: not an OPML document (the root element is <rss>)"

# ---- sources: table, jsonl, csv ----
expect_exit 0 "$F" sources --db "$DB"
expect_stdout_matches '^ID +STATE +LAST FETCH +RATE/DAY +NEXT DUE +ITEMS +ADDRESS +LAST ERROR'
expect_stdout_contains "never fetched"
expect_stdout_contains "https://www.lemonde.fr/rss/une.xml"
n_sources=$(($(wc -l <"$OUT") - 1))
expect_eq "sources listed" "$n_sources" 17
expect_exit 0 "$F" sources --db "$DB" --format csv
expect_eq "csv header" "$(head -n 1 "$OUT")" \
	"id,url,kind,group,host,title,category,state,last_fetch,last_status,last_error,last_error_time,errors,backoff_until,redirect_url,rate_per_day,next_due,items,added,active,api_spec,api_token,api_pages,api_limit,api_remaining,api_reset,api_window,api_usage_pct,api_hold_until,api_said_at,api_error"
expect_eq "csv: the first spelling is kept" "$(csv_select "$OUT" url | sed -n 2p)" "http://example.com/feed"
expect_eq "csv: group" "$(csv_select "$OUT" url group | grep '^https://f.example')" "https://f.example/feed.xml,slow"
expect_eq "csv: category from the folder" "$(csv_select "$OUT" url category | grep lwn)" "https://lwn.net/headlines/rss,Tech"
expect_eq "csv: host" "$(csv_select "$OUT" url host | grep 'lemonde')" "https://www.lemonde.fr/rss/une.xml,www.lemonde.fr"
expect_exit 0 "$F" sources --db "$DB" --format jsonl
expect_eq "jsonl lines" "$(wc -l <"$OUT")" 17
if have_python; then
	check "jsonl parses, with the documented keys" python3 -c '
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
keys = "id url kind group host title category state last_fetch last_status last_error last_error_time errors backoff_until redirect_url rate_per_day next_due items added active".split()
assert all(list(r) == keys for r in rows), list(rows[0])
r = [r for r in rows if r["url"] == "https://www.lemonde.fr/rss/une.xml"][0]
assert r["title"] == "Le Monde \u00e0 la une" and r["category"] == "News", r
assert r["state"] == "never fetched" and r["last_fetch"] is None and r["active"] is True
' "$OUT"
fi

# ---- the default store: $FRESHET_DB, else ./freshet.db ----
mkdir -p "$WORK/cwd"
(cd "$WORK/cwd" && "$F" add http://cwd.example/ 2>/dev/null)
check "./freshet.db by default" test -s "$WORK/cwd/freshet.db"
FRESHET_DB=$WORK/env.db expect_exit 0 "$F" add http://env.example/
check "FRESHET_DB names the store" test -s "$WORK/env.db"
FRESHET_DB=$WORK/env.db expect_exit 0 "$F" sources --format csv
expect_stdout_contains "http://env.example/"
FRESHET_DB=$WORK/env.db expect_exit 0 "$F" sources --db "$DB" --format csv
expect_stdout_contains "https://lwn.net/headlines/rss"

# Not a store: named, exit 1.
printf 'just text, not a database, long enough for sqlite to look at it properly\n%.0s' 1 2 3 >"$WORK/text.db"
expect_exit 1 "$F" sources --db "$WORK/text.db"
expect_stderr_contains "$WORK/text.db: "
expect_stderr_contains "not a database"

# ---- export --opml, and back through add --opml ----
expect_exit 0 "$F" export --db "$DB" --opml "$WORK/out.opml"
expect_stdout_empty
check "export wrote the file" test -s "$WORK/out.opml"
check "no temporary file left" test -z "$(ls "$WORK" | grep '\.tmp')"
expect_exit 0 "$F" export --db "$DB" --opml
expect_same_file "export to stdout = to a file" "$OUT" "$WORK/out.opml"
expect_stdout_contains '<outline text="News" title="News">'
expect_stdout_contains 'xmlUrl="http://example.com/feed?a=1&amp;b=2"'
expect_exit 0 "$F" export --db "$DB" --opml - 
expect_same_file "export to -" "$OUT" "$WORK/out.opml"
expect_exit 0 "$F" add --db "$WORK/b.db" --opml "$WORK/out.opml"
expect_stderr_contains "added 17, already present 0"
"$F" sources --db "$DB" --format csv | csv_select /dev/stdin url title category >"$WORK/a.csv"
"$F" sources --db "$WORK/b.db" --format csv | csv_select /dev/stdin url title category >"$WORK/b.csv"
sort "$WORK/a.csv" >"$WORK/a.sorted"
sort "$WORK/b.csv" >"$WORK/b.sorted"
expect_same_file "OPML round trip keeps address, title, category" "$WORK/a.sorted" "$WORK/b.sorted"
expect_exit 1 "$F" export --db "$DB" --opml "$WORK/no/such/dir/x.opml"
expect_stderr_contains "$WORK/no/such/dir/x.opml"

# ---- remove: by id, by another spelling of the address, --purge ----
expect_exit 0 "$F" remove --db "$DB" 2 https://example.com/feed/
expect_stderr_contains "removed 2"
expect_exit 0 "$F" sources --db "$DB" --format csv
check "removed sources are not listed" test -z "$(csv_select "$OUT" url | grep -x -e https://b.example/rss -e http://example.com/feed)"
expect_exit 0 "$F" sources --db "$DB" --format csv --all
expect_eq "--all shows them, removed" "$(csv_select "$OUT" id state active | sed -n 2,3p | tr '\n' ' ')" "1,removed,0 2,removed,0 "
expect_exit 1 "$F" remove --db "$DB" 999 http://nobody.example/ 3
expect_stderr_contains "no source '999'"
expect_stderr_contains "no source 'http://nobody.example/'"
expect_stderr_contains "removed 1, 2 not removed"
expect_exit 0 "$F" export --db "$DB" --opml
check "removed sources are not exported" test -z "$(grep -e 'b.example/rss' "$OUT")"
# add brings a removed source back, under its old id.
expect_exit 0 "$F" add --db "$DB" http://b.example/rss
expect_stderr_contains "added 0, already present 1"
expect_exit 0 "$F" sources --db "$DB" --format csv
expect_eq "re-added source is back" "$(csv_select "$OUT" id url state | grep b.example)" "2,https://b.example/rss,never fetched"

# ---- items and crawl states, planted with SQL ----
if have_sql; then
	now=$(date +%s)
	sql "$DB" "
INSERT INTO items (source_id, ident, url, title, author, summary, content, enclosure_url,
  enclosure_type, enclosure_length, published_s, updated_s, first_seen_s, hash) VALUES
 (2, 'tag:one', 'http://b.example/1', 'Hello, \"world\"', 'Ann', 'line 1
line 2', '<p>body</p>', 'http://b.example/1.mp3', 'audio/mpeg', 1234, 1700000000, NULL, 1700000100.5, 1),
 (2, 'tag:two', 'http://b.example/2', 'Two', NULL, NULL, NULL, NULL, NULL, NULL, NULL, 1700000300, 1700000200, 2),
 (4, 'tag:three', NULL, 'Tr' || CAST(X'FF' AS TEXT) || 's', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, $now - 3600, 3);
UPDATE sources SET n_items = 2, last_fetch_s = $now - 60, last_ok_s = $now - 60, last_status = 200,
  rate_per_day = 3.5, next_due_s = $now + 600 WHERE id = 2;
UPDATE sources SET last_fetch_s = $now - 60, err_count = 3, last_error = 'timeout after 30 s',
  last_error_s = $now - 60, backoff_until_s = $now + 3600 WHERE id = 4;
UPDATE sources SET last_fetch_s = $now - 60, err_count = 1, last_error = 'HTTP 500',
  last_error_s = $now - 60, backoff_until_s = $now - 10 WHERE id = 5;
UPDATE sources SET last_fetch_s = $now - 60, redirect_url = 'https://moved.example/', redirect_hits = 1 WHERE id = 6;"

	expect_exit 0 "$F" sources --db "$DB" --format csv
	expect_eq "state ok" "$(csv_select "$OUT" id state last_status rate_per_day items | grep '^2,')" "2,ok,200,3.5,2"
	expect_eq "state backing off" "$(csv_select "$OUT" id state errors last_error | grep '^4,' | sed 's/until [^,]*/until T/')" \
		"4,backing off until T,3,timeout after 30 s"
	expect_eq "state error N" "$(csv_select "$OUT" id state | grep '^5,')" "5,error 1"
	expect_eq "state redirected" "$(csv_select "$OUT" id state redirect_url | grep '^6,')" "6,redirected,https://moved.example/"
	expect_exit 0 "$F" sources --db "$DB"
	expect_stdout_matches '^ +4  backing off until [0-9-]+T[0-9:]+Z .* timeout after 30 s$'
	expect_stdout_matches '^ +2  ok .* 3\.50 .* 2  https://b\.example/rss'

	# jsonl: feedparser's names, absent fields left out, RFC 3339 times.
	expect_exit 0 "$F" items --db "$DB"
	expect_eq "items jsonl lines" "$(wc -l <"$OUT")" 3
	expect_eq "first item" "$(head -n 1 "$OUT")" \
		'{"id":"tag:one","source":"https://b.example/rss","source_id":2,"link":"http://b.example/1","title":"Hello, \"world\"","author":"Ann","published":"2023-11-14T22:13:20Z","first_seen":"2023-11-14T22:15:00Z","summary":"line 1\nline 2","content":"<p>body</p>","enclosure":{"href":"http://b.example/1.mp3","type":"audio/mpeg","length":1234},"seq":1}'
	expect_eq "second item" "$(sed -n 2p "$OUT")" \
		'{"id":"tag:two","source":"https://b.example/rss","source_id":2,"link":"http://b.example/2","title":"Two","updated":"2023-11-14T22:18:20Z","first_seen":"2023-11-14T22:16:40Z","seq":2}'
	if have_python; then
		check "items jsonl is valid JSON, invalid UTF-8 replaced" python3 -c '
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8")]
assert rows[2]["title"] == "Tr\ufffds" and rows[2]["id"] == "tag:three", rows[2]
' "$OUT"
	fi
	# CSV: RFC 4180 quoting of commas, quotes and newlines.
	expect_exit 0 "$F" items --db "$DB" --format csv --limit 1
	expect_eq "items csv" "$(cat "$OUT")" \
		'id,source,link,title,author,published,updated,first_seen,summary,content,enclosure_url,enclosure_type,enclosure_length,seq,language,language_detected
tag:one,https://b.example/rss,http://b.example/1,"Hello, ""world""",Ann,2023-11-14T22:13:20Z,,2023-11-14T22:15:00Z,"line 1
line 2",<p>body</p>,http://b.example/1.mp3,audio/mpeg,1234,1,,'
	if have_python; then
		check "items csv reads back with python's csv" python3 -c '
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
assert len(rows) == 1 and rows[0]["title"] == "Hello, \"world\"" and rows[0]["summary"] == "line 1\nline 2", rows
' "$OUT"
	fi
	expect_exit 0 "$F" items --db "$DB" --format table
	expect_stdout_matches '^ +SEQ  FIRST SEEN +SOURCE  LANG +TITLE +LINK$'
	expect_stdout_matches '^ +1  2023-11-14T22:15:00Z +2  - +Hello, "world" +http://b\.example/1$'
	expect_stdout_matches '^ +[0-9]+  [0-9T:Z-]+ +4  - +Tr.s +tag:three$'
	# Filters. ids: the ids of the last jsonl output, on one line.
	ids() { sed 's/^{"id":"\([^"]*\)".*/\1/' "$OUT" | tr '\n' ' '; }
	expect_exit 0 "$F" items --db "$DB" --since 1700000150
	expect_eq "--since Unix seconds" "$(ids)" "tag:two tag:three "
	expect_exit 0 "$F" items --db "$DB" --since 2023-11-14T22:16:40Z
	expect_eq "--since RFC 3339 (inclusive)" "$(ids)" "tag:two tag:three "
	expect_exit 0 "$F" items --db "$DB" --since 2h
	expect_eq "--since 2h" "$(ids)" "tag:three "
	expect_exit 0 "$F" items --db "$DB" --since 30m
	expect_stdout_empty
	expect_exit 0 "$F" items --db "$DB" --source http://b.example/rss/
	expect_eq "--source by address" "$(ids)" "tag:one tag:two "
	expect_exit 0 "$F" items --db "$DB" --source 4
	expect_eq "--source by id" "$(ids)" "tag:three "
	expect_exit 1 "$F" items --db "$DB" --source http://nobody.example/
	expect_stderr_contains "--source: no source 'http://nobody.example/'"
	expect_exit 0 "$F" items --db "$DB" --limit 2
	expect_eq "--limit" "$(wc -l <"$OUT")" 2

	# --purge takes the items with the source.
	expect_exit 0 "$F" remove --db "$DB" --purge https://b.example/rss
	expect_stderr_contains "purged 1"
	expect_exit 0 "$F" items --db "$DB"
	expect_eq "purged items are gone" "$(ids)" "tag:three "
	expect_exit 0 "$F" sources --db "$DB" --all --format csv
	check "a purged source is gone" test -z "$(csv_select "$OUT" url | grep -x https://b.example/rss)"
else
	e2e_say "skip: neither sqlite3 nor python3: items and states not checked"
fi

finish
