/* schema.c - the SQLite schema text, one migration per version. docs/store.md
 * explains every column. */
#include "store/schema.h"

const struct fr_store_migration fr_store_sqlite_migrations[] = {
    {1, "sources, items, fetch log, meta",
     /* Times are Unix seconds: REAL for the crawl's own clock readings,
      * INTEGER for the feed's published/updated (NULL when unknown). */
     "CREATE TABLE sources (\n"
     "  id INTEGER PRIMARY KEY,\n"
     "  url TEXT NOT NULL,\n"
     "  url_key TEXT NOT NULL UNIQUE,\n" /* url without http(s):// and one trailing '/' */
     "  kind TEXT NOT NULL DEFAULT 'feed' CHECK (kind <> ''),\n"
     "  grp TEXT NOT NULL DEFAULT 'default' CHECK (grp <> ''),\n"
     "  host TEXT NOT NULL DEFAULT '',\n"
     "  title TEXT,\n"
     "  site_url TEXT,\n"
     "  category TEXT,\n"
     "  etag TEXT,\n"
     "  last_modified TEXT,\n"
     "  added_s REAL NOT NULL,\n"
     "  last_fetch_s REAL NOT NULL DEFAULT 0,\n"
     "  last_ok_s REAL NOT NULL DEFAULT 0,\n"
     "  next_due_s REAL NOT NULL DEFAULT 0,\n"
     "  last_status INTEGER NOT NULL DEFAULT 0,\n"
     "  last_error TEXT,\n"
     "  last_error_s REAL NOT NULL DEFAULT 0,\n"
     "  err_count INTEGER NOT NULL DEFAULT 0 CHECK (err_count >= 0),\n"
     "  backoff_until_s REAL NOT NULL DEFAULT 0,\n"
     "  hint_ttl_s REAL NOT NULL DEFAULT -1,\n"
     "  hint_period_s REAL NOT NULL DEFAULT -1,\n"
     "  hint_max_age_s REAL NOT NULL DEFAULT -1,\n"
     "  redirect_url TEXT,\n"
     "  redirect_hits INTEGER NOT NULL DEFAULT 0 CHECK (redirect_hits >= 0),\n"
     "  policy TEXT,\n"
     "  policy_state BLOB,\n"
     "  rate_per_day REAL NOT NULL DEFAULT 0,\n"
     "  n_items INTEGER NOT NULL DEFAULT 0 CHECK (n_items >= 0),\n"
     "  active INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1))\n"
     ");\n"
     "CREATE TABLE items (\n"
     "  id INTEGER PRIMARY KEY,\n"
     "  source_id INTEGER NOT NULL REFERENCES sources(id),\n"
     "  ident TEXT NOT NULL,\n" /* the item's id, else url, else hash:<hex> */
     "  url TEXT,\n"
     "  title TEXT,\n"
     "  author TEXT,\n"
     "  summary TEXT,\n"
     "  content TEXT,\n"
     "  enclosure_url TEXT,\n"
     "  enclosure_type TEXT,\n"
     "  enclosure_length INTEGER,\n"
     "  published_s INTEGER,\n"
     "  updated_s INTEGER,\n"
     "  first_seen_s REAL NOT NULL,\n"
     "  changed_s REAL,\n"        /* fetch time of the last content change; NULL never */
     "  hash INTEGER NOT NULL,\n" /* of the content, to tell an update */
     "  UNIQUE (source_id, ident)\n"
     ");\n"
     "CREATE INDEX items_first_seen ON items (first_seen_s, id);\n"
     "CREATE INDEX items_source_seen ON items (source_id, first_seen_s, id);\n"
     "CREATE TABLE fetch_log (\n"
     "  id INTEGER PRIMARY KEY,\n"
     "  source_id INTEGER NOT NULL REFERENCES sources(id),\n"
     "  time_s REAL NOT NULL,\n"
     "  duration_s REAL NOT NULL DEFAULT 0,\n"
     "  status INTEGER NOT NULL DEFAULT 0,\n"
     "  outcome TEXT,\n"
     "  bytes INTEGER NOT NULL DEFAULT 0,\n"
     "  n_items INTEGER NOT NULL DEFAULT 0,\n"
     "  n_new INTEGER NOT NULL DEFAULT 0,\n"
     "  n_updated INTEGER NOT NULL DEFAULT 0,\n"
     "  error TEXT\n"
     ");\n"
     "CREATE INDEX fetch_log_source ON fetch_log (source_id, time_s);\n"
     "CREATE TABLE meta (\n"
     "  key TEXT PRIMARY KEY,\n"
     "  value BLOB NOT NULL\n"
     ") WITHOUT ROWID;\n"},
    {2, "sources.kind_state: a forum's learned structure and crawl state",
     "ALTER TABLE sources ADD COLUMN kind_state BLOB;\n"},
    /* Politeness shared by the crawlers of one store (fr_store_host_claim;
     * used by PostgreSQL's workers, kept in step here). */
    {3, "hosts: each host's next allowed request and the request in flight",
     "CREATE TABLE hosts (\n"
     "  host TEXT PRIMARY KEY,\n"
     "  next_s REAL NOT NULL DEFAULT 0,\n"
     "  busy_owner TEXT,\n"
     "  busy_until_s REAL NOT NULL DEFAULT 0\n"
     ");\n"},
    /* items.seq: a number that only grows, in commit order, for readers
     * that poll (`items --after`) and the sinks' cursors. SQLite has one
     * writer at a time, so the number is taken at insert (the trigger)
     * from a counter that never goes back (a purge does not lower it).
     * Existing items are numbered in first-seen order; within one fetch
     * oldest first (published, else updated; unknown first), then the
     * reverse of the feed's order, as store.c orders new items. */
    {4, "items.seq: a growing number per stored item, in commit order",
     "ALTER TABLE items ADD COLUMN seq INTEGER;\n"
     "UPDATE items SET seq = r.n FROM (SELECT id, row_number() OVER (ORDER BY first_seen_s, "
     "source_id, coalesce(published_s, updated_s) NULLS FIRST, id DESC) AS n FROM items) AS r "
     "WHERE r.id = items.id;\n"
     "CREATE UNIQUE INDEX items_seq ON items (seq);\n"
     "CREATE TABLE item_seq (last INTEGER NOT NULL);\n"
     "INSERT INTO item_seq SELECT coalesce(max(seq), 0) FROM items;\n"
     "CREATE TRIGGER items_seq AFTER INSERT ON items BEGIN\n"
     "  UPDATE item_seq SET last = last + 1;\n"
     "  UPDATE items SET seq = (SELECT last FROM item_seq) WHERE id = new.id;\n"
     "END;\n"},
    /* The item's languages (docs/store.md, "Languages"): declared by the
     * item or its feed (primary subtag), detected from its text by
     * lib/lang; NULL unknown. Existing items keep NULL in both: nothing
     * is read again from their text. */
    {5, "items.lang, items.lang_detected: declared and detected language",
     "ALTER TABLE items ADD COLUMN lang TEXT;\n"
     "ALTER TABLE items ADD COLUMN lang_detected TEXT;\n"},
};

const size_t fr_store_sqlite_n_migrations =
    sizeof(fr_store_sqlite_migrations) / sizeof(fr_store_sqlite_migrations[0]);
