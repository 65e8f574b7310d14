# items_lang.sh - every stored item carries its languages (docs/store.md,
# "Languages"): real feeds from ../shared (German, Italian, Polish,
# Portuguese, English) served on loopback and crawled with run --once; then
# `items --format jsonl` holds for each item the language its feed declares
# (normalised: IT-it -> it, pt-br -> pt) and the one detected from its text,
# which agree; csv and table show them; `items --lang` picks the detected
# language, else the declared one when none was detected (a feed whose item
# is too short to tell). items_lang_pg.sh runs the same on PostgreSQL.
. "$(dirname "$0")/lib.sh"

F=$FRESHET
unset FRESHET_DB
FIX=$(shared_file data/feeds/feed-rs/fixture/rss2/rss_2.0_spiegel.xml) || fatal "no shared feeds"
FIX=$(dirname "$(dirname "$FIX")")

if [ "${LANG_PG:-0}" = 1 ]; then
	. "$(dirname "$0")/pg_lib.sh"
	trap 'pg_stop; cleanup' EXIT
	pg_start
	DB=$(pg_createdb freshet_lang)
else
	DB=$WORK/lang.db
fi

# host<TAB>file: one feed a host; and a Finnish feed whose one item says
# too little to be detected.
{
	printf 'http://de.lang.test/feed\tapplication/rss+xml\tfile:%s\n' "$FIX/rss2/rss_2.0_spiegel.xml"
	printf 'http://it1.lang.test/feed\tapplication/rss+xml\tfile:%s\n' "$FIX/rss2/rss_2.0_ilgiornale.xml"
	printf 'http://it2.lang.test/feed\tapplication/rss+xml\tfile:%s\n' "$FIX/rss2/rss_2.0_ilmessaggero.xml"
	printf 'http://pl.lang.test/feed\tapplication/rss+xml\tfile:%s\n' "$FIX/rss2/rss_2.0_spreaker.xml"
	printf 'http://pt.lang.test/feed\tapplication/rss+xml\tfile:%s\n' "$FIX/rss0/rss_0.91_encoding_1.xml"
	printf 'http://en.lang.test/feed\tapplication/rss+xml\tfile:%s\n' "$FIX/rss2/rss_2.0_bbc.xml"
	printf 'http://fi.lang.test/feed\tapplication/rss+xml\ttext:%s\n' \
		'<?xml version="1.0"?><rss version="2.0"><channel><title>F</title><link>http://fi.lang.test/</link><language>fi-FI</language><item><title>OK</title><guid>fi-1</guid></item></channel></rss>'
} >"$WORK/manifest.tsv"
start_server sites --sites "$WORK/manifest.tsv"
expect_exit 0 "$F" add --db "$DB" $(cut -f1 "$WORK/manifest.tsv")
expect_exit 0 "$F" run --db "$DB" --once --gap 0.1 --max-crawl-delay 0.2 --budget 200/1s --quiet \
	--connect-to "::127.0.0.1:$PORT"
expect_stdout_matches "^7 fetches of 7 sources.*7 ok"

expect_exit 0 "$F" items --db "$DB" --format jsonl
cp "$OUT" "$WORK/items.jsonl"
expect_eq "one item a feed" "$(wc -l <"$WORK/items.jsonl")" 7
if have_python; then
	check "each item: declared and detected language, the same" python3 -c '
import json, sys
want = {"de.lang.test": "de", "it1.lang.test": "it", "it2.lang.test": "it",
        "pl.lang.test": "pl", "pt.lang.test": "pt", "en.lang.test": "en"}
seen = set()
for l in open(sys.argv[1], encoding="utf-8"):
    o = json.loads(l)
    host = o["source"].split("/")[2]
    seen.add(host)
    if host == "fi.lang.test":
        assert o["language"] == "fi" and "language_detected" not in o, o
        continue
    assert o["language"] == want[host], (host, o.get("language"))
    assert o["language_detected"] == want[host], (host, o.get("language_detected"), o["title"])
assert seen == set(want) | {"fi.lang.test"}, seen
' "$WORK/items.jsonl"
else
	expect_stdout_contains '"language_detected":"de"'
fi

# --lang: detected, else declared; case ignored; a bad tag is bad usage.
lang_ids() { "$F" items --db "$DB" --lang "$1" | sed 's/.*"source":"\([^"]*\)".*/\1/' | sort | tr '\n' ' '; }
expect_eq "--lang it" "$(lang_ids it)" "http://it1.lang.test/feed http://it2.lang.test/feed "
expect_eq "--lang IT" "$(lang_ids IT)" "http://it1.lang.test/feed http://it2.lang.test/feed "
expect_eq "--lang de" "$(lang_ids de)" "http://de.lang.test/feed "
expect_eq "--lang fi: declared, nothing detected" "$(lang_ids fi)" "http://fi.lang.test/feed "
expect_eq "--lang nl: none" "$(lang_ids nl)" ""
expect_exit 2 "$F" items --db "$DB" --lang "d%"
expect_stderr_contains "--lang"

# csv columns and the table's LANG.
expect_exit 0 "$F" items --db "$DB" --format csv --lang pl
expect_stdout_matches '^id,source,.*,seq,language,language_detected$'
expect_stdout_matches ',pl,pl$'
expect_exit 0 "$F" items --db "$DB" --format table --lang pt
expect_stdout_matches '^ +SEQ  FIRST SEEN +SOURCE  LANG +TITLE +LINK$'
expect_stdout_matches '^ +[0-9]+  [0-9T:Z-]+ +[0-9]+  pt +'
expect_eq "table: a header and one row" "$(wc -l <"$OUT")" 2

stop_server sites
finish
