/* test_store.c - the SQLite store: migrations from an empty file and
 * re-open, bad files refused by name, sources (dedupe, remove, re-add,
 * purge), commit_fetch (new, repeated, updated items; rollback restoring
 * everything; learn's defaults; moves), the policy blob across a re-open,
 * meta blobs, item queries, batches, group commits (invisible until they
 * commit, rolled back whole on a failure), crash safety under SIGKILL (one
 * fetch per transaction and in groups), and speed.
 * With FRESHET_TEST_DB=postgresql://... (tests/e2e/store_pg.sh starts a
 * server) the same tests run on PostgreSQL instead, each in a schema of its
 * own, with PostgreSQL's own: migrations, refusals, writers at once, stale
 * rows, leases, text that is not UTF-8, long identities. */
#include "core/err.h"
#include "lang/lang.h"
#include "store/schema.h"
#include "store/store.h"

#include "test.h"

#include <dirent.h>
#include <errno.h>
#include <libpq-fe.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char tmpdir[256];
/* FRESHET_TEST_DB: a PostgreSQL database to run the tests in, else NULL. */
static const char *pg_base;

#define SCHEMA_OPT "search_path%3D"

/* A store's path: a file in tmpdir, or with PostgreSQL the database with
 * its search_path set to a schema named after name ("t_commit_db"). */
static const char *
tmp(const char *name)
{
	static char path[4][1024];
	static unsigned next;
	char *p = path[next++ % 4];

	if (pg_base) {
		char schema[64];
		size_t k = 0;

		for (const char *c = name; *c && k + 1 < sizeof(schema); c++)
			schema[k++] = (*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') ? *c : '_';
		schema[k] = '\0';
		snprintf(p, sizeof(path[0]), "%s%soptions=-c%st_%s", pg_base,
		         strchr(pg_base, '?') ? "&" : "?", SCHEMA_OPT, schema);
		return p;
	}
	snprintf(p, sizeof(path[0]), "%s/%s", tmpdir, name);
	return p;
}

/* ---- PostgreSQL behind the store's back ---- */

static void
raw_pg_quiet(void *arg, const char *msg)
{
	(void)arg;
	(void)msg;
}

static PGconn *
raw_pg(const char *uri)
{
	PGconn *c = PQconnectdb(uri);

	if (PQstatus(c) != CONNECTION_OK) {
		fprintf(stderr, "raw_pg: %s", PQerrorMessage(c));
		exit(1);
	}
	PQsetNoticeProcessor(c, raw_pg_quiet, NULL);
	return c;
}

static void
raw_pg_exec(const char *uri, const char *sql)
{
	PGconn *c = raw_pg(uri);
	PGresult *r = PQexec(c, sql);

	if (PQresultStatus(r) != PGRES_COMMAND_OK && PQresultStatus(r) != PGRES_TUPLES_OK) {
		fprintf(stderr, "raw_pg_exec %s: %s", sql, PQerrorMessage(c));
		exit(1);
	}
	PQclear(r);
	PQfinish(c);
}

/* The first column of the first row of sql as an integer, -1 when none. */
static int64_t
raw_pg_int(const char *uri, const char *sql)
{
	PGconn *c = raw_pg(uri);
	PGresult *r = PQexec(c, sql);
	int64_t v = -1;

	if (PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) > 0 && !PQgetisnull(r, 0, 0))
		v = strtoll(PQgetvalue(r, 0, 0), NULL, 10);
	else if (PQresultStatus(r) != PGRES_TUPLES_OK)
		fprintf(stderr, "raw_pg_int %s: %s", sql, PQerrorMessage(c));
	PQclear(r);
	PQfinish(c);
	return v;
}

/* The schema a tmp() path names. */
static const char *
pg_schema(const char *path)
{
	const char *s = strstr(path, SCHEMA_OPT);

	return s ? s + strlen(SCHEMA_OPT) : "public";
}

static void
rm_db(const char *path)
{
	char p[600];

	if (pg_base) {
		snprintf(p, sizeof(p), "DROP SCHEMA IF EXISTS %s CASCADE; CREATE SCHEMA %s",
		         pg_schema(path), pg_schema(path));
		raw_pg_exec(pg_base, p);
		return;
	}
	unlink(path);
	snprintf(p, sizeof(p), "%s-wal", path);
	unlink(p);
	snprintf(p, sizeof(p), "%s-shm", path);
	unlink(p);
}

static struct fr_store *
open_ok(const char *path)
{
	struct fr_store *st = NULL;
	char err[FR_ERRLEN];

	if (fr_store_open(&st, path, err, sizeof(err)) < 0) {
		fprintf(stderr, "open %s: %s\n", path, err);
		exit(1);
	}
	return st;
}

static int64_t
add(struct fr_store *st, const char *url, int *existed)
{
	char err[FR_ERRLEN];
	int64_t id = 0;
	int ex = -1;

	if (fr_store_add_source(st, url, NULL, NULL, NULL, NULL, &id, &ex, err, sizeof(err)) < 0) {
		fprintf(stderr, "add %s: %s\n", url, err);
		return -1;
	}
	if (existed)
		*existed = ex;
	return id;
}

/* A sqlite3 pragma's integer value, read behind the store's back. */
static int
raw_pragma(const char *path, const char *pragma)
{
	sqlite3 *db;
	sqlite3_stmt *s;
	char sql[128];
	int v = -1;

	snprintf(sql, sizeof(sql), "PRAGMA %s", pragma);
	if (sqlite3_open(path, &db) != SQLITE_OK)
		return -1;
	if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) == SQLITE_OK) {
		if (sqlite3_step(s) == SQLITE_ROW)
			v = sqlite3_column_int(s, 0);
		sqlite3_finalize(s);
	}
	sqlite3_close(db);
	return v;
}

static void
raw_exec(const char *path, const char *sql)
{
	sqlite3 *db;

	if (sqlite3_open(path, &db) != SQLITE_OK || sqlite3_exec(db, sql, NULL, NULL, NULL)) {
		fprintf(stderr, "raw_exec %s: %s\n", sql, sqlite3_errmsg(db));
		exit(1);
	}
	sqlite3_close(db);
}

static void
test_migration_list(void)
{
	CHECK(fr_store_sqlite_n_migrations >= 1);
	for (size_t i = 0; i < fr_store_sqlite_n_migrations; i++) {
		CHECK(fr_store_sqlite_migrations[i].version == (int)i + 1);
		CHECK(fr_store_sqlite_migrations[i].sql && fr_store_sqlite_migrations[i].what);
	}
	CHECK(fr_store_sqlite_migrations[fr_store_sqlite_n_migrations - 1].version ==
	      FR_STORE_SCHEMA_VERSION);
}

static void
test_open_empty_file_and_reopen(void)
{
	const char *path = tmp("empty.db");
	struct fr_store *st;
	struct fr_store_stats ss;
	struct fr_store_source *v = NULL;
	char err[FR_ERRLEN];
	size_t n = 0;
	FILE *f;

	rm_db(path);
	f = fopen(path, "wb"); /* an empty file is a new database */
	fclose(f);
	st = open_ok(path);
	CHECK(fr_store_stats(st, &ss, err, sizeof(err)) == 0);
	CHECK(ss.schema_version == FR_STORE_SCHEMA_VERSION);
	CHECK(ss.n_sources == 0 && ss.n_items == 0 && ss.n_fetches == 0);
	CHECK(add(st, "http://a.example/feed", NULL) == 1);
	fr_store_close(st);

	CHECK(raw_pragma(path, "user_version") == FR_STORE_SCHEMA_VERSION);
	CHECK(raw_pragma(path, "application_id") == 0x66727368);

	/* Re-open: nothing migrates again, the data is there, still WAL. */
	st = open_ok(path);
	CHECK(fr_store_stats(st, &ss, err, sizeof(err)) == 0);
	CHECK(ss.schema_version == FR_STORE_SCHEMA_VERSION);
	CHECK(ss.n_sources == 1);
	CHECK(fr_store_load_sources(st, &v, &n, err, sizeof(err)) == 0);
	CHECK(n == 1 && v && !strcmp(v[0].url, "http://a.example/feed"));
	fr_store_sources_free(v, n);
	CHECK(fr_store_check(st, err, sizeof(err)) == 0);
	fr_store_close(st);
	fr_store_close(open_ok(path)); /* and again */
	CHECK(raw_pragma(path, "user_version") == FR_STORE_SCHEMA_VERSION);
	{
		sqlite3 *db;
		sqlite3_stmt *s;

		sqlite3_open(path, &db);
		sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &s, NULL);
		CHECK(sqlite3_step(s) == SQLITE_ROW);
		CHECK_STR((const char *)sqlite3_column_text(s, 0), "wal");
		sqlite3_finalize(s);
		sqlite3_close(db);
	}
	/* A path that does not exist yet is created. */
	rm_db(tmp("fresh.db"));
	fr_store_close(open_ok(tmp("fresh.db")));
	CHECK(access(tmp("fresh.db"), F_OK) == 0);
}

static void
test_open_refuses_other_files(void)
{
	struct fr_store *st = (struct fr_store *)1;
	char err[FR_ERRLEN];
	const char *path;
	FILE *f;

	path = tmp("text.db");
	f = fopen(path, "wb");
	fputs("this is not a database, just some text that is long enough to look at.\n"
	      "this is not a database, just some text that is long enough to look at.\n",
	      f);
	fclose(f);
	CHECK(fr_store_open(&st, path, err, sizeof(err)) == -1);
	CHECK(st == NULL);
	CHECK(strstr(err, path) == err);
	CHECK(strstr(err, "not a database") != NULL);

	/* A newer freshet's store. */
	path = tmp("newer.db");
	rm_db(path);
	raw_exec(path, "PRAGMA application_id = 1718776680; PRAGMA user_version = 99;"
	               "CREATE TABLE x (a)");
	CHECK(fr_store_open(&st, path, err, sizeof(err)) == -1);
	CHECK(strstr(err, "schema version 99, newer than this freshet") != NULL);
	CHECK(strstr(err, path) == err);

	/* Someone else's SQLite file. */
	path = tmp("other.db");
	rm_db(path);
	raw_exec(path, "PRAGMA user_version = 3; CREATE TABLE notes (t)");
	CHECK(fr_store_open(&st, path, err, sizeof(err)) == -1);
	CHECK(strstr(err, "not a freshet store") != NULL);
	path = tmp("other2.db");
	rm_db(path);
	raw_exec(path, "PRAGMA application_id = 42; CREATE TABLE notes (t)");
	CHECK(fr_store_open(&st, path, err, sizeof(err)) == -1);
	CHECK(strstr(err, "not a freshet store (application_id 0x0000002a)") != NULL);
	/* Unmarked, version 0, with a clashing table: the migration fails,
	 * named, and leaves the file as it was. */
	path = tmp("clash.db");
	rm_db(path);
	raw_exec(path, "CREATE TABLE sources (x)");
	CHECK(fr_store_open(&st, path, err, sizeof(err)) == -1);
	CHECK(strstr(err, "migration to schema version 1") != NULL);
	CHECK(strstr(err, "already exists") != NULL);
	CHECK(raw_pragma(path, "user_version") == 0);

	CHECK(fr_store_open(&st, tmp("no/such/dir/x.db"), err, sizeof(err)) == -1);
	CHECK(strstr(err, "no/such/dir/x.db") != NULL);
	/* A PostgreSQL address goes to the server: named, without its password. */
	CHECK(fr_store_open(&st, "postgres://fr:s3cr3tpw@127.0.0.1:1/freshet", err, sizeof(err)) ==
	      -1);
	CHECK(strstr(err, "postgresql://fr@127.0.0.1:1/freshet: cannot connect") == err);
	CHECK(strstr(err, "s3cr3tpw") == NULL);
	CHECK(fr_store_open(&st, "postgresql://fr@127.0.0.1:1/x?password=s3cr3tpw", err,
	                    sizeof(err)) == -1);
	CHECK(strstr(err, "cannot connect") && strstr(err, "s3cr3tpw") == NULL);
	CHECK(fr_store_open(&st, "", err, sizeof(err)) == -1);
}

static void
test_sources_dedupe_remove_readd(void)
{
	const char *path = tmp("sources.db");
	struct fr_store *st;
	struct fr_store_source s, *v = NULL;
	char err[FR_ERRLEN];
	int64_t id, a, b, found;
	size_t n;
	int ex;

	rm_db(path);
	st = open_ok(path);
	a = add(st, "http://a.example/feed", &ex);
	CHECK(a > 0 && ex == 0);
	/* http/https and a trailing slash are the same address. */
	CHECK(add(st, "https://a.example/feed", &ex) == a && ex == 1);
	CHECK(add(st, "https://a.example/feed/", &ex) == a && ex == 1);
	CHECK(add(st, "http://a.example/feed/", &ex) == a && ex == 1);
	b = add(st, "https://user@B.example:8443/x?q=1", &ex);
	CHECK(b > a && ex == 0);
	CHECK(add(st, "http://a.example/feed2", &ex) > b && ex == 0);

	CHECK(fr_store_get_source(st, a, &s, err, sizeof(err)) == 0);
	CHECK_STR(s.url, "http://a.example/feed"); /* the first spelling stays */
	CHECK_STR(s.kind, "feed");
	CHECK_STR(s.grp, "default");
	CHECK_STR(s.host, "a.example");
	CHECK(s.active == 1 && s.n_items == 0 && s.last_fetch_s == 0);
	CHECK(s.hint_ttl_s == -1 && s.hint_period_s == -1 && s.hint_max_age_s == -1);
	CHECK(s.added_s > 1.6e9);
	fr_store_source_clear(&s);
	CHECK(fr_store_get_source(st, b, &s, err, sizeof(err)) == 0);
	CHECK_STR(s.host, "b.example");
	fr_store_source_clear(&s);
	fr_store_source_clear(&s); /* twice is fine */

	/* kind and group given. */
	CHECK(fr_store_add_source(st, "https://forum.example/t/1", "forum", "api", "T",
	                          "https://forum.example/", &id, &ex, err, sizeof(err)) == 0);
	CHECK(fr_store_get_source(st, id, &s, err, sizeof(err)) == 0);
	CHECK_STR(s.kind, "forum");
	CHECK_STR(s.grp, "api");
	CHECK_STR(s.title, "T");
	CHECK_STR(s.site_url, "https://forum.example/");
	fr_store_source_clear(&s);

	/* Bad addresses. */
	CHECK(fr_store_add_source(st, "ftp://x.example/", NULL, NULL, NULL, NULL, &id, &ex, err,
	                          sizeof(err)) == -1);
	CHECK_STR(err, "url 'ftp://x.example/': not an absolute http(s) URL");
	CHECK(fr_store_add_source(st, "http:///nohost", NULL, NULL, NULL, NULL, &id, &ex, err,
	                          sizeof(err)) == -1);
	CHECK(fr_store_add_source(st, "http://a b/", NULL, NULL, NULL, NULL, &id, &ex, err,
	                          sizeof(err)) == -1);
	CHECK(fr_store_add_source(st, "http://ok.example/", "", NULL, NULL, NULL, &id, &ex, err,
	                          sizeof(err)) == -1);

	/* find by id or any spelling of the address. */
	CHECK(fr_store_find_source(st, "2", &found) == 0 && found == b);
	CHECK(fr_store_find_source(st, "https://a.example/feed/", &found) == 0 && found == a);
	CHECK(fr_store_find_source(st, "999", &found) == -1);
	CHECK(fr_store_find_source(st, "http://nobody.example/", &found) == -1);
	CHECK(fr_store_find_source(st, "", &found) == -1);

	/* remove keeps the row (inactive); add brings it back. */
	CHECK(fr_store_remove_source(st, a, 0, err, sizeof(err)) == 0);
	CHECK(fr_store_load_sources(st, &v, &n, err, sizeof(err)) == 0);
	CHECK(n == 3);
	for (size_t i = 0; i < n; i++)
		CHECK(v[i].id != a);
	fr_store_sources_free(v, n);
	CHECK(fr_store_load_all_sources(st, &v, &n, err, sizeof(err)) == 0);
	CHECK(n == 4 && v[0].id == a && v[0].active == 0);
	fr_store_sources_free(v, n);
	CHECK(fr_store_find_source(st, "http://a.example/feed", &found) == 0 && found == a);
	CHECK(add(st, "https://a.example/feed", &ex) == a && ex == 1);
	CHECK(fr_store_get_source(st, a, &s, err, sizeof(err)) == 0 && s.active == 1);
	fr_store_source_clear(&s);

	CHECK(fr_store_remove_source(st, 12345, 0, err, sizeof(err)) == -1);
	CHECK_STR(err, "no source 12345");
	CHECK(fr_store_get_source(st, 12345, &s, err, sizeof(err)) == -1);
	CHECK_STR(err, "no source 12345");
	fr_store_close(st);
}

/* ---- commit_fetch ---- */

struct learned {
	int calls;
	size_t n_new, n_items;
	uint8_t is_new[64];
	int sabotage;        /* 1: err_count = -1, 2: kind = NULL */
	const char *move_to; /* set url */
	const void *blob;
	size_t blob_len;
};

static void
learn_cb(void *arg, const uint8_t *is_new, size_t n_new, struct fr_store_source *src)
{
	struct learned *l = arg;

	l->calls++;
	l->n_new = n_new;
	memcpy(l->is_new, is_new, l->n_items < 64 ? l->n_items : 64);
	free(src->etag);
	src->etag = strdup("\"v2\"");
	src->next_due_s = 5000;
	src->rate_per_day = 12.5;
	if (l->blob) {
		free(src->policy);
		src->policy = strdup("freshet");
		free(src->policy_state);
		src->policy_state = malloc(l->blob_len);
		memcpy(src->policy_state, l->blob, l->blob_len);
		src->policy_state_len = l->blob_len;
	}
	if (l->move_to) {
		free(src->url);
		src->url = strdup(l->move_to);
	}
	if (l->sabotage == 1)
		src->err_count = -1;
	if (l->sabotage == 2) {
		free(src->kind);
		src->kind = NULL;
	}
}

static struct fr_store_item
item(const char *id, const char *url, const char *title)
{
	struct fr_store_item it = {id,   url,  title, NULL,      NULL,     NULL,
	                           NULL, NULL, -1,    INT64_MIN, INT64_MIN, NULL, NULL};
	return it;
}

struct seen {
	size_t n;
	char ids[64][64];
	char titles[64][64];
	double first_seen[64];
	int64_t updated[64];
	int64_t source[64];
	size_t stop_after;
};

static int
seen_cb(void *arg, const struct fr_store_item_row *r)
{
	struct seen *s = arg;

	if (s->n < 64) {
		snprintf(s->ids[s->n], 64, "%s", r->it.id);
		snprintf(s->titles[s->n], 64, "%s", r->it.title ? r->it.title : "(null)");
		s->first_seen[s->n] = r->first_seen_s;
		s->updated[s->n] = r->it.updated_s;
		s->source[s->n] = r->source_id;
	}
	s->n++;
	return s->stop_after && s->n >= s->stop_after;
}

static void
test_commit_new_repeat_update(void)
{
	const char *path = tmp("commit.db");
	struct fr_store *st;
	struct fr_store_source *v = NULL, row;
	struct fr_store_stats ss;
	struct learned l = {0};
	struct seen sn = {0};
	char err[FR_ERRLEN];
	size_t n = 0, nn = 99, nu = 99;
	int64_t a;

	rm_db(path);
	st = open_ok(path);
	a = add(st, "http://a.example/feed", NULL);
	CHECK(fr_store_load_sources(st, &v, &n, err, sizeof(err)) == 0 && n == 1);
	row = v[0];
	free(v);

	/* The first fetch (no item stored yet: inserted without a lookup),
	 * an identity repeated in it counting once, the first one kept. */
	struct fr_store_item f1[4] = {item("id-1", "http://a.example/1", "one"),
	                              item(NULL, "http://a.example/2", "two"),
	                              item("id-1", "http://a.example/1", "one, repeated"),
	                              item(NULL, NULL, "three")};
	f1[0].published_s = 1000;
	struct fr_store_fetch f = {a, 1000.5, 0.25, 200, "ok", 1234, NULL, f1, 4, NULL, NULL, NULL};
	l.n_items = 4;
	CHECK(fr_store_commit_fetch(st, &f, learn_cb, &l, &row, &nn, &nu, err, sizeof(err)) == 0);
	CHECK(nn == 3 && nu == 0);
	CHECK(l.calls == 1 && l.n_new == 3);
	CHECK(l.is_new[0] && l.is_new[1] && !l.is_new[2] && l.is_new[3]);
	/* The store's own fields, and learn's, in the caller's row. */
	CHECK(row.n_items == 3 && row.last_fetch_s == 1000.5 && row.last_ok_s == 1000.5);
	CHECK(row.last_status == 200);
	CHECK_STR(row.etag, "\"v2\"");

	/* Again, with one item changed, one new and one repeated in the feed. */
	struct fr_store_item f2[5] = {item("id-1", "http://a.example/1", "one, edited"),
	                              item(NULL, "http://a.example/2", "two"),
	                              item(NULL, NULL, "three"),
	                              item("id-4", "http://a.example/4", "four"),
	                              item("id-4", "http://a.example/4", "four, again")};
	f2[0].published_s = 1000;
	f.time_s = 2000;
	f.items = f2;
	f.n_items = 5;
	l.n_items = 5;
	CHECK(fr_store_commit_fetch(st, &f, learn_cb, &l, &row, &nn, &nu, err, sizeof(err)) == 0);
	CHECK(nn == 1 && nu == 1);
	CHECK(l.n_new == 1);
	CHECK(!l.is_new[0] && !l.is_new[1] && !l.is_new[2] && l.is_new[3] && !l.is_new[4]);
	CHECK(row.n_items == 4);

	/* Nothing new, nothing changed: a fetch log row all the same. */
	f.time_s = 3000;
	f.n_items = 4;
	l.n_items = 4;
	CHECK(fr_store_commit_fetch(st, &f, learn_cb, &l, &row, &nn, &nu, err, sizeof(err)) == 0);
	CHECK(nn == 0 && nu == 0 && l.n_new == 0);

	CHECK(fr_store_each_item(st, 0, 0, 0, seen_cb, &sn, err, sizeof(err)) == 0);
	CHECK(sn.n == 4);
	/* Oldest first within a fetch: the undated ones first, in the reverse
	 * of the feed's order, then by published time. */
	if (sn.n == 4) {
		CHECK_STR(sn.ids[2], "id-1");
		CHECK_STR(sn.titles[2], "one, edited");
		CHECK(sn.first_seen[2] == 1000.5);          /* kept */
		CHECK(sn.updated[2] == 2000);               /* no updated time: the fetch's */
		CHECK_STR(sn.ids[1], "http://a.example/2"); /* no id: the link */
		CHECK(strncmp(sn.ids[0], "hash:", 5) == 0 && strlen(sn.ids[0]) == 21);
		CHECK(sn.updated[0] == INT64_MIN);
		CHECK_STR(sn.ids[3], "id-4");
		CHECK_STR(sn.titles[3], "four"); /* the first occurrence won */
		CHECK(sn.first_seen[3] == 2000);
	}
	CHECK(fr_store_stats(st, &ss, err, sizeof(err)) == 0);
	CHECK(ss.n_items == 4 && ss.n_fetches == 3);

	/* What was written back survives a re-open. */
	fr_store_source_clear(&row);
	fr_store_close(st);
	st = open_ok(path);
	CHECK(fr_store_get_source(st, a, &row, err, sizeof(err)) == 0);
	CHECK(row.n_items == 4 && row.last_fetch_s == 3000 && row.next_due_s == 5000);
	CHECK(row.rate_per_day == 12.5);
	CHECK_STR(row.etag, "\"v2\"");
	fr_store_source_clear(&row);

	/* An unknown source. */
	f.source_id = 777;
	CHECK(fr_store_commit_fetch(st, &f, NULL, NULL, NULL, &nn, &nu, err, sizeof(err)) == -1);
	CHECK_STR(err, "source 777 is not in the store");
	fr_store_close(st);
}

static void
test_rollback_restores_everything(void)
{
	const char *path = tmp("rollback.db");
	struct fr_store *st;
	struct fr_store_source row, again;
	struct fr_store_stats ss;
	struct learned l = {0};
	char err[FR_ERRLEN];
	size_t nn = 7, nu = 7;
	int64_t a;

	rm_db(path);
	st = open_ok(path);
	a = add(st, "http://a.example/feed", NULL);
	CHECK(fr_store_get_source(st, a, &row, err, sizeof(err)) == 0);
	row.etag = strdup("\"v1\"");

	struct fr_store_item it[2] = {item("x", NULL, "x"), item("y", NULL, "y")};
	struct fr_store_fetch f = {a, 100, 0.1, 200, "ok", 10, NULL, it, 2, NULL, NULL, NULL};
	for (int sab = 1; sab <= 2; sab++) {
		l.sabotage = sab;
		l.n_items = 2;
		err[0] = '\0';
		CHECK(fr_store_commit_fetch(st, &f, learn_cb, &l, &row, &nn, &nu, err,
		                            sizeof(err)) == -1);
		CHECK(strstr(err, "source 1: ") == err);
		CHECK(strstr(err,
		             sab == 1 ? "CHECK constraint failed" : "NOT NULL constraint failed"));
		CHECK(nn == 0 && nu == 0);
		/* Nothing stored: no items, no log row, the row as it was... */
		CHECK(fr_store_stats(st, &ss, err, sizeof(err)) == 0);
		CHECK(ss.n_items == 0 && ss.n_fetches == 0);
		CHECK(fr_store_get_source(st, a, &again, err, sizeof(err)) == 0);
		CHECK(again.last_fetch_s == 0 && again.etag == NULL && again.n_items == 0);
		fr_store_source_clear(&again);
		/* ...and so is the caller's copy, learn's changes undone. */
		CHECK_STR(row.etag, "\"v1\"");
		CHECK_STR(row.kind, "feed");
		CHECK(row.err_count == 0 && row.n_items == 0 && row.last_fetch_s == 0);
	}
	/* The same fetch, unsabotaged, then goes in whole. */
	l.sabotage = 0;
	CHECK(fr_store_commit_fetch(st, &f, learn_cb, &l, &row, &nn, &nu, err, sizeof(err)) == 0);
	CHECK(nn == 2);
	CHECK(fr_store_stats(st, &ss, err, sizeof(err)) == 0);
	CHECK(ss.n_items == 2 && ss.n_fetches == 1);
	CHECK(fr_store_check(st, err, sizeof(err)) == 0);
	fr_store_source_clear(&row);
	fr_store_close(st);
}

static void
test_policy_blob_round_trip(void)
{
	const char *path = tmp("blob.db");
	struct fr_store *st;
	struct fr_store_source row, *v = NULL;
	struct learned l = {0};
	unsigned char blob[3000];
	char err[FR_ERRLEN];
	size_t n, nn, nu;
	int64_t a;

	for (size_t i = 0; i < sizeof(blob); i++)
		blob[i] = (unsigned char)(i * 7 + (i >> 8)); /* zeros included */
	rm_db(path);
	st = open_ok(path);
	a = add(st, "http://a.example/feed", NULL);
	CHECK(fr_store_get_source(st, a, &row, err, sizeof(err)) == 0);
	l.blob = blob;
	l.blob_len = sizeof(blob);
	struct fr_store_fetch f = {a, 100, 0.1, 304, "not-modified", 0, NULL, NULL, 0, NULL, NULL, NULL};
	CHECK(fr_store_commit_fetch(st, &f, learn_cb, &l, &row, &nn, &nu, err, sizeof(err)) == 0);
	fr_store_source_clear(&row);
	fr_store_close(st);

	st = open_ok(path);
	CHECK(fr_store_load_sources(st, &v, &n, err, sizeof(err)) == 0 && n == 1);
	if (n == 1) {
		CHECK_STR(v[0].policy, "freshet");
		CHECK(v[0].policy_state_len == sizeof(blob));
		CHECK(v[0].policy_state && memcmp(v[0].policy_state, blob, sizeof(blob)) == 0);
		CHECK(v[0].last_status == 304);
	}
	/* put_source writes it too, and clearing it stores NULL. */
	if (n == 1) {
		free(v[0].policy_state);
		v[0].policy_state = NULL;
		v[0].policy_state_len = 0;
		v[0].category = strdup("News");
		CHECK(fr_store_put_source(st, &v[0], err, sizeof(err)) == 0);
		CHECK(fr_store_get_source(st, a, &row, err, sizeof(err)) == 0);
		CHECK(row.policy_state == NULL && row.policy_state_len == 0);
		CHECK_STR(row.category, "News");
		CHECK_STR(row.policy, "freshet");
		fr_store_source_clear(&row);
		v[0].id = 99;
		CHECK(fr_store_put_source(st, &v[0], err, sizeof(err)) == -1);
		CHECK_STR(err, "no source 99");
	}
	fr_store_sources_free(v, n);
	fr_store_close(st);
}

static void
test_learn_null_and_errors(void)
{
	const char *path = tmp("errors.db");
	struct fr_store *st;
	struct fr_store_source row;
	char err[FR_ERRLEN];
	size_t nn, nu;
	int64_t a;

	rm_db(path);
	st = open_ok(path);
	a = add(st, "http://a.example/feed", NULL);
	struct fr_store_fetch f = {a, 100, 2.0, 0, "timeout", 0, "timed out after 2 s", NULL, 0, NULL, NULL, NULL};
	/* Without learn and without a row: the store reads the row and keeps
	 * the error count itself. */
	CHECK(fr_store_commit_fetch(st, &f, NULL, NULL, NULL, &nn, &nu, err, sizeof(err)) == 0);
	f.time_s = 200;
	CHECK(fr_store_commit_fetch(st, &f, NULL, NULL, NULL, &nn, &nu, err, sizeof(err)) == 0);
	CHECK(fr_store_get_source(st, a, &row, err, sizeof(err)) == 0);
	CHECK(row.err_count == 2 && row.last_error_s == 200 && row.last_ok_s == 0);
	CHECK_STR(row.last_error, "timed out after 2 s");
	fr_store_source_clear(&row);
	f.time_s = 300;
	f.error = NULL;
	f.status = 200;
	f.outcome = "ok";
	CHECK(fr_store_commit_fetch(st, &f, NULL, NULL, NULL, &nn, &nu, err, sizeof(err)) == 0);
	CHECK(fr_store_get_source(st, a, &row, err, sizeof(err)) == 0);
	CHECK(row.err_count == 0 && row.last_ok_s == 300 && row.last_fetch_s == 300);
	CHECK_STR(row.last_error, "timed out after 2 s"); /* the last error stays on show */
	fr_store_source_clear(&row);
	fr_store_close(st);
}

static void
test_move_by_learn(void)
{
	const char *path = tmp("move.db");
	struct fr_store *st;
	struct fr_store_source row;
	struct learned l = {0};
	char err[FR_ERRLEN];
	size_t nn, nu;
	int64_t a, b, found;

	rm_db(path);
	st = open_ok(path);
	a = add(st, "http://a.example/feed", NULL);
	b = add(st, "http://b.example/feed", NULL);
	CHECK(fr_store_get_source(st, a, &row, err, sizeof(err)) == 0);
	struct fr_store_fetch f = {a, 100, 0.1, 200, "ok", 0, NULL, NULL, 0, NULL, NULL, NULL};
	l.move_to = "https://new.example/feed";
	CHECK(fr_store_commit_fetch(st, &f, learn_cb, &l, &row, &nn, &nu, err, sizeof(err)) == 0);
	CHECK_STR(row.host, "new.example");
	CHECK(fr_store_find_source(st, "http://new.example/feed", &found) == 0 && found == a);
	CHECK(fr_store_find_source(st, "http://a.example/feed", &found) == -1);
	/* Onto an address another source has: the fetch commits, the url stays. */
	l.move_to = "https://b.example/feed/";
	f.time_s = 200;
	CHECK(fr_store_commit_fetch(st, &f, learn_cb, &l, &row, &nn, &nu, err, sizeof(err)) == 0);
	CHECK_STR(row.url, "https://new.example/feed");
	CHECK(fr_store_find_source(st, "https://b.example/feed", &found) == 0 && found == b);
	fr_store_source_clear(&row);
	CHECK(fr_store_get_source(st, a, &row, err, sizeof(err)) == 0);
	CHECK_STR(row.url, "https://new.example/feed");
	CHECK(row.last_fetch_s == 200);
	fr_store_source_clear(&row);
	fr_store_close(st);
}

static void
test_meta(void)
{
	const char *path = tmp("meta.db");
	struct fr_store *st;
	char err[FR_ERRLEN];
	void *buf = (void *)1;
	size_t len = 9;

	rm_db(path);
	st = open_ok(path);
	CHECK(fr_store_meta_get(st, "k", &buf, &len) == 0 && buf == NULL && len == 0);
	CHECK(fr_store_meta_put(st, "k", "a\0b", 3, err, sizeof(err)) == 0);
	CHECK(fr_store_meta_put(st, "k", "x\0yz", 4, err, sizeof(err)) == 0);
	CHECK(fr_store_meta_get(st, "k", &buf, &len) == 0 && len == 4);
	CHECK(buf && memcmp(buf, "x\0yz", 4) == 0);
	free(buf);
	CHECK(fr_store_meta_put(st, "empty", NULL, 0, err, sizeof(err)) == 0);
	CHECK(fr_store_meta_get(st, "empty", &buf, &len) == 0 && buf != NULL && len == 0);
	free(buf);
	fr_store_close(st);
}

struct seqs {
	size_t n;
	int64_t seq[64];
	char ids[64][16];
};

static int
seqs_cb(void *arg, const struct fr_store_item_row *r)
{
	struct seqs *s = arg;

	if (s->n < 64) {
		s->seq[s->n] = r->seq;
		snprintf(s->ids[s->n], 16, "%s", r->it.id);
	}
	s->n++;
	return 0;
}

/* items.seq: 1, 2, 3... in commit order, oldest first within a fetch,
 * kept by an update, never lowered by a purge; fr_store_items after a seq;
 * a group rolled back numbers nothing. */
static void
test_seq_numbers(void)
{
	const char *path = tmp("seq.db");
	struct fr_store *st;
	char err[FR_ERRLEN];
	size_t nn, nu;
	int64_t a, b, last = -1;

	rm_db(path);
	st = open_ok(path);
	a = add(st, "http://seq-a.example/", NULL);
	b = add(st, "http://seq-b.example/", NULL);
	CHECK(fr_store_last_seq(st, &last, err, sizeof(err)) == 0 && last == 0);
	/* Newest first in the feed, as feeds are: stored oldest first. */
	struct fr_store_item i1[3] = {item("a3", NULL, "a3"), item("a2", NULL, "a2"),
	                              item("a1", NULL, "a1")};
	i1[0].published_s = 300;
	i1[1].published_s = 200;
	i1[2].published_s = 100;
	struct fr_store_fetch f = {a, 10, 0, 200, "ok", 0, NULL, i1, 3, NULL, NULL, NULL};
	CHECK(fr_store_commit_fetch(st, &f, NULL, NULL, NULL, &nn, &nu, err, sizeof(err)) == 0);
	struct fr_store_item i2[2] = {item("b2", NULL, "b2"), item("b1", NULL, "b1")};
	struct fr_store_fetch g = {b, 11, 0, 200, "ok", 0, NULL, i2, 2, NULL, NULL, NULL};
	CHECK(fr_store_commit_fetch(st, &g, NULL, NULL, NULL, &nn, &nu, err, sizeof(err)) == 0);
	/* An edit keeps the number; a new item takes the next. */
	i1[0].title = "a3, edited";
	struct fr_store_item i3[2] = {i1[0], item("a4", NULL, "a4")};
	f.items = i3;
	f.n_items = 2;
	f.time_s = 12;
	CHECK(fr_store_commit_fetch(st, &f, NULL, NULL, NULL, &nn, &nu, err, sizeof(err)) == 0);
	CHECK(nn == 1 && nu == 1);
	struct seqs s1 = {0};
	struct fr_store_item_query q = {0};
	CHECK(fr_store_items(st, &q, seqs_cb, &s1, err, sizeof(err)) == 0);
	CHECK(s1.n == 6);
	const char *want[] = {"a1", "a2", "a3", "b1", "b2", "a4"};
	for (size_t k = 0; k < 6 && k < s1.n; k++) {
		CHECK(s1.seq[k] == (int64_t)k + 1);
		CHECK_STR(s1.ids[k], want[k]);
	}
	CHECK(fr_store_last_seq(st, &last, err, sizeof(err)) == 0 && last == 6);
	struct seqs s2 = {0};
	q.after_seq = 4;
	CHECK(fr_store_items(st, &q, seqs_cb, &s2, err, sizeof(err)) == 0);
	CHECK(s2.n == 2 && s2.seq[0] == 5 && s2.seq[1] == 6);
	struct seqs s3 = {0};
	q.after_seq = 1;
	q.source_id = b;
	q.limit = 1;
	CHECK(fr_store_items(st, &q, seqs_cb, &s3, err, sizeof(err)) == 0);
	CHECK(s3.n == 1 && s3.seq[0] == 4);
	q.after_seq = -1;
	CHECK(fr_store_items(st, &q, seqs_cb, &s3, err, sizeof(err)) == -1);
	/* A group rolled back takes no number. */
	struct fr_store_item i4[1] = {item("a5", NULL, "a5")};
	f.items = i4;
	f.n_items = 1;
	f.time_s = 13;
	CHECK(fr_store_group_begin(st, err, sizeof(err)) == 0);
	CHECK(fr_store_commit_fetch(st, &f, NULL, NULL, NULL, &nn, &nu, err, sizeof(err)) == 0);
	CHECK(fr_store_group_end(st, 0, err, sizeof(err)) == 0);
	CHECK(fr_store_last_seq(st, &last, err, sizeof(err)) == 0 && last == 6);
	/* A purge of the source holding the highest number: the next is 7. */
	CHECK(fr_store_remove_source(st, a, 1, err, sizeof(err)) == 0);
	a = add(st, "http://seq-c.example/", NULL);
	f.source_id = a;
	CHECK(fr_store_commit_fetch(st, &f, NULL, NULL, NULL, &nn, &nu, err, sizeof(err)) == 0);
	struct seqs s4 = {0};
	struct fr_store_item_query q4 = {.after_seq = 5};
	CHECK(fr_store_items(st, &q4, seqs_cb, &s4, err, sizeof(err)) == 0);
	CHECK(s4.n == 1 && s4.seq[0] == 7);
	fr_store_close(st);
}

/* A version-3 store with items: the migration numbers them in first-seen
 * order, oldest first within a fetch, and new ones follow. */
static void
test_seq_migration(void)
{
	const char *path = tmp("seqmig.db");
	struct fr_store *st;
	char err[FR_ERRLEN];
	size_t nn, nu;
	int64_t last = -1;

	rm_db(path);
	for (int k = 0; k < 3; k++)
		raw_exec(path, fr_store_sqlite_migrations[k].sql);
	raw_exec(path,
	         "PRAGMA user_version = 3; PRAGMA application_id = 1718776680;"
	         "INSERT INTO sources (id, url, url_key, host, added_s) VALUES "
	         "(1, 'http://m.example/', 'm.example', 'm.example', 1), "
	         "(2, 'http://n.example/', 'n.example', 'n.example', 1);"
	         /* Fetch of 1 at 20 (feed newest first), of 2 at 10, of 1 at 30. */
	         "INSERT INTO items (id, source_id, ident, published_s, first_seen_s, hash) VALUES "
	         "(1, 1, 'm2', 200, 20, 0), (2, 1, 'm1', 100, 20, 0), "
	         "(3, 2, 'n1', NULL, 10, 0), (4, 1, 'm3', NULL, 30, 0);"
	         "UPDATE sources SET n_items = 3 WHERE id = 1;"
	         "UPDATE sources SET n_items = 1 WHERE id = 2;");
	st = open_ok(path);
	struct seqs s1 = {0};
	CHECK(fr_store_items(st, NULL, seqs_cb, &s1, err, sizeof(err)) == 0);
	CHECK(s1.n == 4);
	const char *want[] = {"n1", "m1", "m2", "m3"};
	for (size_t k = 0; k < 4 && k < s1.n; k++) {
		CHECK(s1.seq[k] == (int64_t)k + 1);
		CHECK_STR(s1.ids[k], want[k]);
	}
	CHECK(fr_store_last_seq(st, &last, err, sizeof(err)) == 0 && last == 4);
	struct fr_store_item i1[1] = {item("n2", NULL, "n2")};
	struct fr_store_fetch f = {2, 40, 0, 200, "ok", 0, NULL, i1, 1, NULL, NULL, NULL};
	CHECK(fr_store_commit_fetch(st, &f, NULL, NULL, NULL, &nn, &nu, err, sizeof(err)) == 0);
	CHECK(fr_store_last_seq(st, &last, err, sizeof(err)) == 0 && last == 5);
	CHECK(fr_store_check(st, err, sizeof(err)) == 0);
	fr_store_close(st);
	CHECK(raw_pragma(path, "user_version") == FR_STORE_SCHEMA_VERSION);
}

/* ---- languages (schema 5) ---- */

struct langs {
	size_t n;
	char ids[16][16], lang[16][16], det[16][16]; /* "-": NULL */
};

static int
langs_cb(void *arg, const struct fr_store_item_row *r)
{
	struct langs *l = arg;

	if (l->n < 16) {
		snprintf(l->ids[l->n], 16, "%s", r->it.id);
		snprintf(l->lang[l->n], 16, "%s", r->it.lang ? r->it.lang : "-");
		snprintf(l->det[l->n], 16, "%s", r->it.lang_detected ? r->it.lang_detected : "-");
	}
	l->n++;
	return 0;
}

/* The ids of the items in language code (NULL: all), joined by ' '. */
static const char *
ids_in(struct fr_store *st, const char *code, char *buf, size_t len)
{
	struct fr_store_item_query q = {0};
	struct langs l = {0};
	char err[FR_ERRLEN];
	size_t o = 0;

	q.lang = code;
	buf[0] = '\0';
	if (fr_store_items(st, &q, langs_cb, &l, err, sizeof(err)) < 0) {
		snprintf(buf, len, "error: %.200s", err);
		return buf;
	}
	for (size_t k = 0; k < l.n && k < 16 && o < len; k++)
		o += (size_t)snprintf(buf + o, len - o, "%s%s", k ? " " : "", l.ids[k]);
	return buf;
}

/* The crawler's detection (lib/crawl/commit.c), counting its calls. */
static int detect_calls;

static int
detect_cb(void *arg, const struct fr_store_item *it, char *code, size_t len)
{
	struct fr_lang_guess g;

	(void)arg;
	detect_calls++;
	if (!fr_lang_detect_item(it->title, it->content ? it->content : it->summary, &g))
		return 0;
	snprintf(code, len, "%s", g.code);
	return 1;
}

static const char DE[] = "<p>Der Stadtrat hat am Dienstag beschlossen, die &Ouml;ffnungszeiten "
                         "der <b>&ouml;ffentlichen</b> Bibliothek zu verl&auml;ngern, nachdem "
                         "sich viele B&uuml;rger mehr Abendstunden gew&uuml;nscht hatten.</p>";
static const char FR[] = "<p>Le conseil municipal a vot&eacute; mardi la prolongation des "
                         "horaires d'ouverture de la biblioth&egrave;que publique, apr&egrave;s "
                         "que les habitants ont demand&eacute; plus d'acc&egrave;s le soir.</p>";
static const char ZH[] = "市议会周二投票决定延长公共图书馆的开放时间，此前居民要求在冬季月份增加晚间开放。";

/* Declared (the item's, else the feed's) and detected languages stored
 * and read back; detection asked for written items only; --lang's rule:
 * detected, else declared, a primary subtag matching its longer tags. */
static void
test_item_languages(void)
{
	const char *path = tmp("lang.db");
	struct fr_store *st;
	char err[FR_ERRLEN], buf[256];
	size_t nn, nu;
	int64_t a;
	struct langs l = {0};

	rm_db(path);
	st = open_ok(path);
	a = add(st, "http://lang.example/feed", NULL);
	struct fr_store_item it[5] = {item("de", NULL, "Bibliothek"), item("fr", NULL, "Biblioth\xc3\xa8que"),
	                              item("zh", NULL, ZH), item("short", NULL, "ok"),
	                              item("given", NULL, "x")};
	it[0].summary = DE; /* the feed says en: declared en, detected de */
	it[1].content = FR;
	it[1].lang = "fr"; /* the item's own beats the feed's */
	it[3].lang = "";   /* "" is none: the feed's */
	it[4].lang_detected = "nl"; /* given: no detection */
	struct fr_store_fetch f = {a, 100, 0, 200, "ok", 0, NULL, it, 5, "en", detect_cb, NULL};
	detect_calls = 0;
	CHECK(fr_store_commit_fetch(st, &f, NULL, NULL, NULL, &nn, &nu, err, sizeof(err)) == 0);
	CHECK(nn == 5);
	CHECK(detect_calls == 4);
	CHECK(fr_store_items(st, NULL, langs_cb, &l, err, sizeof(err)) == 0);
	CHECK(l.n == 5);
	for (size_t k = 0; k < l.n && k < 16; k++) {
		const char *id = l.ids[k];

		if (!strcmp(id, "de")) {
			CHECK_STR(l.lang[k], "en");
			CHECK_STR(l.det[k], "de");
		} else if (!strcmp(id, "fr")) {
			CHECK_STR(l.lang[k], "fr");
			CHECK_STR(l.det[k], "fr");
		} else if (!strcmp(id, "zh")) {
			CHECK_STR(l.lang[k], "en");
			CHECK_STR(l.det[k], "zh");
		} else if (!strcmp(id, "short")) {
			CHECK_STR(l.lang[k], "en");
			CHECK_STR(l.det[k], "-");
		} else {
			CHECK_STR(id, "given");
			CHECK_STR(l.det[k], "nl");
		}
	}
	/* The same fetch again: nothing written, nothing detected; one item
	 * changed: detected again (now French). */
	detect_calls = 0;
	f.time_s = 200;
	CHECK(fr_store_commit_fetch(st, &f, NULL, NULL, NULL, &nn, &nu, err, sizeof(err)) == 0);
	CHECK(nn == 0 && nu == 0 && detect_calls == 0);
	it[0].summary = FR;
	f.time_s = 300;
	CHECK(fr_store_commit_fetch(st, &f, NULL, NULL, NULL, &nn, &nu, err, sizeof(err)) == 0);
	CHECK(nu == 1 && detect_calls == 1);
	CHECK_STR(ids_in(st, "fr", buf, sizeof(buf)), "fr de");
	CHECK_STR(ids_in(st, "FR", buf, sizeof(buf)), "fr de");
	CHECK_STR(ids_in(st, "de", buf, sizeof(buf)), "");
	/* nothing detected: the declared one */
	CHECK_STR(ids_in(st, "en", buf, sizeof(buf)), "short");
	CHECK_STR(ids_in(st, "nl", buf, sizeof(buf)), "given");
	CHECK_STR(ids_in(st, "zh", buf, sizeof(buf)), "zh");
	CHECK_STR(ids_in(st, "f", buf, sizeof(buf)), "");
	CHECK(strstr(ids_in(st, "f%", buf, sizeof(buf)), "is not a language tag") != NULL);
	CHECK(strstr(ids_in(st, "", buf, sizeof(buf)), "is not a language tag") != NULL);
	/* a script subtag: zh matches zh-Hant, zh-Hans does not */
	struct fr_store_item tw[1] = {item("tw", NULL, "t")};
	tw[0].lang_detected = "zh-Hant";
	struct fr_store_fetch g = {a, 400, 0, 200, "ok", 0, NULL, tw, 1, NULL, NULL, NULL};
	CHECK(fr_store_commit_fetch(st, &g, NULL, NULL, NULL, &nn, &nu, err, sizeof(err)) == 0);
	CHECK_STR(ids_in(st, "zh", buf, sizeof(buf)), "zh tw");
	CHECK_STR(ids_in(st, "zh-hant", buf, sizeof(buf)), "tw");
	CHECK_STR(ids_in(st, "zh-Hans", buf, sizeof(buf)), "");
	CHECK(fr_store_check(st, err, sizeof(err)) == 0);
	fr_store_close(st);
}

/* A version-4 store (the schema before languages) built from its own DDL,
 * with items: opened, it migrates in place to version 5, every row kept,
 * the new columns NULL; new items get their languages. */
static void
test_lang_migration(void)
{
	const char *path = tmp("langmig.db");
	struct fr_store *st;
	char err[FR_ERRLEN], buf[256];
	size_t nn, nu;
	int64_t last = -1;
	struct langs l = {0};

	rm_db(path);
	if (pg_base) {
		/* PostgreSQL's steps are pg.c's own: a version-5 store taken
		 * back to 4 (5 only adds the two columns). */
		st = open_ok(path);
		fr_store_close(st);
		raw_pg_exec(path, "ALTER TABLE items DROP COLUMN lang, DROP COLUMN lang_detected;"
		                  "DELETE FROM freshet_migrations WHERE version = 5");
		raw_pg_exec(path, "INSERT INTO sources (id, url, url_key, host, added_s, n_items) "
		                  "VALUES (1, 'http://m.example/', 'm.example', 'm.example', 1, 2);"
		                  "INSERT INTO items (source_id, ident, title, published_s, "
		                  "first_seen_s, hash, seq) VALUES "
		                  "(1, 'm1', 'Eins', 100, 20, 7, 1), (1, 'm2', 'Zwei', 200, 20, 8, 2);"
		                  "UPDATE item_seq SET last = 2");
		CHECK(raw_pg_int(path, "SELECT count(*) FROM information_schema.columns WHERE "
		                       "table_name = 'items' AND column_name LIKE 'lang%' AND "
		                       "table_schema = current_schema()") == 0);
	} else {
		for (int k = 0; k < 4; k++)
			raw_exec(path, fr_store_sqlite_migrations[k].sql);
		raw_exec(path,
		         "PRAGMA user_version = 4; PRAGMA application_id = 1718776680;"
		         "INSERT INTO sources (id, url, url_key, host, added_s, n_items) VALUES "
		         "(1, 'http://m.example/', 'm.example', 'm.example', 1, 2);"
		         "INSERT INTO items (id, source_id, ident, title, published_s, first_seen_s, "
		         "hash) VALUES (1, 1, 'm1', 'Eins', 100, 20, 7), (2, 1, 'm2', 'Zwei', 200, 20, 8);");
		CHECK(raw_pragma(path, "user_version") == 4);
	}
	st = open_ok(path);
	CHECK(fr_store_items(st, NULL, langs_cb, &l, err, sizeof(err)) == 0);
	CHECK(l.n == 2);
	CHECK_STR(l.ids[0], "m1");
	CHECK_STR(l.ids[1], "m2");
	for (size_t k = 0; k < 2; k++) {
		CHECK_STR(l.lang[k], "-");
		CHECK_STR(l.det[k], "-");
	}
	CHECK(fr_store_last_seq(st, &last, err, sizeof(err)) == 0 && last == 2);
	struct fr_store_item i1[1] = {item("m3", NULL, "Drei")};
	i1[0].summary = DE;
	struct fr_store_fetch f = {1, 40, 0, 200, "ok", 0, NULL, i1, 1, "de", detect_cb, NULL};
	CHECK(fr_store_commit_fetch(st, &f, NULL, NULL, NULL, &nn, &nu, err, sizeof(err)) == 0);
	CHECK(nn == 1);
	CHECK_STR(ids_in(st, "de", buf, sizeof(buf)), "m3");
	CHECK_STR(ids_in(st, NULL, buf, sizeof(buf)), "m1 m2 m3");
	CHECK(fr_store_check(st, err, sizeof(err)) == 0);
	fr_store_close(st);
	if (pg_base)
		CHECK(raw_pg_int(path, "SELECT max(version) FROM freshet_migrations") ==
		      FR_STORE_SCHEMA_VERSION);
	else
		CHECK(raw_pragma(path, "user_version") == FR_STORE_SCHEMA_VERSION);
}

static void
test_each_item_filters_and_batches(void)
{
	const char *path = tmp("each.db");
	struct fr_store *st;
	struct fr_store_stats ss;
	char err[FR_ERRLEN], id[32];
	struct fr_store_item its[6];
	char ids[6][8];
	size_t nn, nu;
	int64_t src[2];

	rm_db(path);
	st = open_ok(path);
	src[0] = add(st, "http://a.example/", NULL);
	src[1] = add(st, "http://b.example/", NULL);
	/* Source a at t = 10, 20, 30 (two items each), b at 15, 25. */
	for (int k = 0; k < 5; k++) {
		struct fr_store_fetch f = {src[k % 2], 10 + 5.0 * k, 0, 200, "ok", 0, NULL, its, 2, NULL, NULL, NULL};

		for (int j = 0; j < 2; j++) {
			snprintf(ids[j], sizeof(ids[j]), "%d-%d", k, j);
			its[j] = item(ids[j], NULL, ids[j]);
		}
		CHECK(fr_store_commit_fetch(st, &f, NULL, NULL, NULL, &nn, &nu, err, sizeof(err)) ==
		      0);
	}
	struct seen s1 = {0}, s2 = {0}, s3 = {0}, s4 = {0};
	CHECK(fr_store_each_item(st, 0, 0, 0, seen_cb, &s1, err, sizeof(err)) == 0);
	CHECK(s1.n == 10);
	for (size_t i = 1; i < s1.n && i < 64; i++)
		CHECK(s1.first_seen[i - 1] <= s1.first_seen[i]);
	CHECK(fr_store_each_item(st, 20, 0, 0, seen_cb, &s2, err, sizeof(err)) == 0);
	CHECK(s2.n == 6 && s2.first_seen[0] == 20);
	CHECK(fr_store_each_item(st, 0, src[1], 0, seen_cb, &s3, err, sizeof(err)) == 0);
	CHECK(s3.n == 4 && s3.source[0] == src[1] && s3.source[3] == src[1]);
	CHECK(fr_store_each_item(st, 16, src[0], 3, seen_cb, &s4, err, sizeof(err)) == 0);
	CHECK(s4.n == 3 && s4.first_seen[0] == 20 && s4.source[2] == src[0]);
	struct seen s5 = {.stop_after = 2};
	CHECK(fr_store_each_item(st, 0, 0, 0, seen_cb, &s5, err, sizeof(err)) == 0);
	CHECK(s5.n == 2);

	/* A batch rolled back adds nothing; committed, everything. */
	CHECK(fr_store_begin(st, err, sizeof(err)) == 0);
	for (int k = 0; k < 50; k++) {
		snprintf(id, sizeof(id), "http://batch.example/%d", k);
		add(st, id, NULL);
	}
	CHECK(fr_store_end(st, 0, err, sizeof(err)) == 0);
	CHECK(fr_store_stats(st, &ss, err, sizeof(err)) == 0 && ss.n_sources == 2);
	CHECK(fr_store_begin(st, err, sizeof(err)) == 0);
	for (int k = 0; k < 50; k++) {
		snprintf(id, sizeof(id), "http://batch.example/%d", k);
		add(st, id, NULL);
	}
	CHECK(fr_store_end(st, 1, err, sizeof(err)) == 0);
	CHECK(fr_store_stats(st, &ss, err, sizeof(err)) == 0 && ss.n_sources == 52);
	CHECK(fr_store_end(st, 1, err, sizeof(err)) == -1);

	/* Purge takes the items and the fetch log with the source. */
	CHECK(fr_store_remove_source(st, src[0], 1, err, sizeof(err)) == 0);
	CHECK(fr_store_stats(st, &ss, err, sizeof(err)) == 0);
	CHECK(ss.n_sources == 51 && ss.n_items == 4 && ss.n_fetches == 2);
	CHECK(fr_store_check(st, err, sizeof(err)) == 0);
	fr_store_close(st);
}

/* ---- crash safety ---- */

#define CRASH_RUNS 6
#define CRASH_KNOWN 20

/* The child: commits fetches of one new item ("rR-K") and CRASH_KNOWN known
 * ones in a loop, acknowledging K on fd after each commit returns. */
/* group > 0: fetches are committed in groups of that many
 * (fr_store_group_begin/end) and acknowledged only when their group has
 * committed. */
static void
crash_child(const char *path, int run, int fd, int group)
{
	struct fr_store *st = NULL;
	struct fr_store_item its[CRASH_KNOWN + 1];
	char known[CRASH_KNOWN][16], fresh[32], err[FR_ERRLEN];
	size_t nn, nu;

	if (fr_store_open(&st, path, err, sizeof(err)) < 0) {
		fprintf(stderr, "crash child: %s\n", err);
		_exit(3);
	}
	for (int j = 0; j < CRASH_KNOWN; j++) {
		snprintf(known[j], sizeof(known[j]), "known-%d", j);
		its[j + 1] = item(known[j], NULL, known[j]);
	}
	for (int k = 0; k < 1000000; k++) {
		struct fr_store_fetch f = {1,   1e6 * (run + 1) + k, 0, 200, "ok", 0, NULL,
		                           its, CRASH_KNOWN + 1, NULL, NULL, NULL};

		snprintf(fresh, sizeof(fresh), "r%d-%d", run, k);
		its[0] = item(fresh, NULL, "fresh");
		if (group && k % group == 0 && fr_store_group_begin(st, err, sizeof(err)) < 0) {
			fprintf(stderr, "crash child: %s\n", err);
			_exit(6);
		}
		/* The very first fetch also brings the known items. */
		if (fr_store_commit_fetch(st, &f, NULL, NULL, NULL, &nn, &nu, err, sizeof(err)) <
		        0 ||
		    nn != (run == 0 && k == 0 ? CRASH_KNOWN + 1u : 1u)) {
			fprintf(stderr, "crash child: %s (%zu new)\n", err, nn);
			_exit(4);
		}
		if (group && k % group != group - 1)
			continue;
		if (group && fr_store_group_end(st, 1, err, sizeof(err)) < 0) {
			fprintf(stderr, "crash child: %s\n", err);
			_exit(6);
		}
		/* A group's acknowledgements in one write (atomic on a pipe up
		 * to PIPE_BUF): a kill between them left the parent with part
		 * of a committed group acknowledged. */
		int acks[256], n_acks = 0;
		for (int a = group ? k - group + 1 : k; a <= k && n_acks < 256; a++)
			acks[n_acks++] = a;
		if (write(fd, acks, (size_t)n_acks * sizeof(int)) != (ssize_t)(n_acks * sizeof(int)))
			_exit(5);
	}
	_exit(0);
}

struct crash_count {
	int run;
	int n, max_k, dup;
	unsigned char *hit; /* [limit] */
	int limit;
};

static int
crash_cb(void *arg, const struct fr_store_item_row *r)
{
	struct crash_count *c = arg;
	int run, k;

	if (sscanf(r->it.id, "r%d-%d", &run, &k) != 2 || run != c->run)
		return 0;
	c->n++;
	if (k > c->max_k)
		c->max_k = k;
	if (k >= 0 && k < c->limit) {
		if (c->hit[k])
			c->dup++;
		c->hit[k] = 1;
	}
	return 0;
}

/* SIGKILLs a child committing fetches CRASH_RUNS times at pseudo-random
 * points (one fetch per transaction, or groups of group), then checks the
 * file and that every acknowledged fetch is there exactly once, and at most
 * one transaction's more. */
static void
crash_runs(const char *name, int group)
{
	const char *path = tmp(name);
	struct fr_store *st;
	int per_tx = group ? group : 1;
	struct fr_store_stats ss;
	char err[FR_ERRLEN];
	int acked[CRASH_RUNS];
	unsigned rng = 12345;
	int64_t total = 0;

	rm_db(path);
	st = open_ok(path);
	CHECK(add(st, "http://crash.example/feed", NULL) == 1);
	fr_store_close(st);

	for (int run = 0; run < CRASH_RUNS; run++) {
		int fds[2], k, status, want;
		pid_t pid;

		acked[run] = 0;
		if (pipe(fds) < 0) {
			CHECK(0);
			return;
		}
		pid = fork();
		if (pid == 0) {
			close(fds[0]);
			crash_child(path, run, fds[1], group);
		}
		close(fds[1]);
		/* Kill at a pseudo-random point: after some acknowledgements and
		 * a pseudo-random sub-millisecond pause (mid-commit, often). */
		rng = rng * 1103515245u + 12345u;
		want = 3 + (int)((rng >> 8) % 120);
		while (acked[run] < want && read(fds[0], &k, sizeof(k)) == (ssize_t)sizeof(k))
			acked[run] = k + 1;
		rng = rng * 1103515245u + 12345u;
		usleep((rng >> 8) % 900);
		kill(pid, SIGKILL);
		/* Acknowledgements written before the kill are still in the pipe. */
		while (read(fds[0], &k, sizeof(k)) == (ssize_t)sizeof(k))
			acked[run] = k + 1;
		close(fds[0]);
		waitpid(pid, &status, 0);
		CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
		if (WIFEXITED(status))
			fprintf(stderr, "  crash run %d: the child exited with %d\n", run,
			        WEXITSTATUS(status));
		CHECK(acked[run] >= want);
	}

	st = open_ok(path);
	CHECK(fr_store_check(st, err, sizeof(err)) == 0);
	for (int run = 0; run < CRASH_RUNS; run++) {
		struct crash_count c = {run, 0, -1, 0, NULL, acked[run] + per_tx + 1};

		c.hit = calloc((size_t)c.limit, 1);
		CHECK(fr_store_each_item(st, 0, 1, 0, crash_cb, &c, err, sizeof(err)) == 0);
		/* Every acknowledged commit is there exactly once; at most one
		 * transaction more (committed, killed before its
		 * acknowledgement); a group all or nothing. */
		for (int k = 0; k < acked[run]; k++)
			CHECK(c.hit[k]);
		CHECK(c.dup == 0);
		CHECK(c.n == acked[run] || c.n == acked[run] + per_tx);
		CHECK(c.n % per_tx == 0);
		CHECK(c.max_k == c.n - 1);
		total += c.n;
		free(c.hit);
	}
	/* The known items once each; one fetch log row per committed fetch. */
	CHECK(fr_store_stats(st, &ss, err, sizeof(err)) == 0);
	CHECK(ss.n_items == total + CRASH_KNOWN);
	CHECK(ss.n_fetches == total);
	fr_store_close(st);
	fprintf(stderr, "  crash%s: %d SIGKILLs, %lld commits survived\n",
	        group ? " (groups)" : "", CRASH_RUNS, (long long)total);
}

static void
test_crash_safety_sigkill(void)
{
	crash_runs("crash.db", 0);
}

static void
test_crash_safety_sigkill_group_commit(void)
{
	crash_runs("crash-group.db", 7);
}

/* ---- group commits ---- */

static int64_t
raw_count(const char *path, const char *table)
{
	sqlite3 *db;
	sqlite3_stmt *s;
	char sql[128];
	int64_t v = -1;

	snprintf(sql, sizeof(sql), "SELECT count(*) FROM %s", table);
	if (pg_base)
		return raw_pg_int(path, sql);
	if (sqlite3_open(path, &db) != SQLITE_OK)
		return -1;
	if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) == SQLITE_OK) {
		if (sqlite3_step(s) == SQLITE_ROW)
			v = sqlite3_column_int64(s, 0);
		sqlite3_finalize(s);
	}
	sqlite3_close(db);
	return v;
}

static void
test_group_commit(void)
{
	const char *path = tmp("group.db");
	struct fr_store *st;
	struct fr_store_source ra, rb, again;
	struct learned l = {0};
	char err[FR_ERRLEN];
	size_t nn = 0, nu = 0;
	int64_t a, b;

	rm_db(path);
	st = open_ok(path);
	a = add(st, "http://a.example/feed", NULL);
	b = add(st, "http://b.example/feed", NULL);
	CHECK(fr_store_get_source(st, a, &ra, err, sizeof(err)) == 0);
	CHECK(fr_store_get_source(st, b, &rb, err, sizeof(err)) == 0);

	struct fr_store_item ia[2] = {item("a1", NULL, "a1"), item("a2", NULL, "a2")};
	struct fr_store_item ib[1] = {item("b1", NULL, "b1")};
	struct fr_store_fetch fa = {a, 100, 0.1, 200, "ok", 10, NULL, ia, 2, NULL, NULL, NULL};
	struct fr_store_fetch fb = {b, 101, 0.1, 200, "ok", 10, NULL, ib, 1, NULL, NULL, NULL};

	/* Two fetches in one group: another connection sees neither until the
	 * group commits, then both. */
	CHECK(fr_store_group_begin(st, err, sizeof(err)) == 0);
	l.n_items = 2;
	CHECK(fr_store_commit_fetch(st, &fa, learn_cb, &l, &ra, &nn, &nu, err, sizeof(err)) == 0);
	CHECK(nn == 2 && l.calls == 1);
	l.n_items = 1;
	CHECK(fr_store_commit_fetch(st, &fb, learn_cb, &l, &rb, &nn, &nu, err, sizeof(err)) == 0);
	CHECK(nn == 1 && l.calls == 2);
	CHECK(raw_count(path, "items") == 0 && raw_count(path, "fetch_log") == 0);
	CHECK(fr_store_group_end(st, 1, err, sizeof(err)) == 0);
	CHECK(raw_count(path, "items") == 3 && raw_count(path, "fetch_log") == 2);
	CHECK(fr_store_get_source(st, a, &again, err, sizeof(err)) == 0);
	CHECK(again.n_items == 2 && again.last_fetch_s == 100);
	CHECK_STR(again.etag, "\"v2\"");
	fr_store_source_clear(&again);

	/* A failure in a group rolls the whole group back: a's second fetch,
	 * which succeeded, is gone with b's, which failed (b's row restored);
	 * later calls fail until the group ends, and ending it reports it. */
	struct fr_store_item ia2[1] = {item("a3", NULL, "a3")};
	struct fr_store_fetch fa2 = {a, 200, 0.1, 200, "ok", 10, NULL, ia2, 1, NULL, NULL, NULL};
	struct fr_store_fetch fb2 = {b, 201, 0.1, 200, "ok", 10, NULL, ib, 1, NULL, NULL, NULL};
	CHECK(fr_store_group_begin(st, err, sizeof(err)) == 0);
	l.n_items = 1;
	CHECK(fr_store_commit_fetch(st, &fa2, learn_cb, &l, &ra, &nn, &nu, err, sizeof(err)) == 0);
	CHECK(nn == 1 && ra.n_items == 3);
	l.sabotage = 1;
	CHECK(fr_store_commit_fetch(st, &fb2, learn_cb, &l, &rb, &nn, &nu, err, sizeof(err)) ==
	      -1);
	CHECK(strstr(err, "CHECK constraint failed") != NULL);
	CHECK(rb.last_fetch_s == 101 && rb.n_items == 1 && rb.err_count == 0);
	l.sabotage = 0;
	err[0] = '\0';
	CHECK(fr_store_commit_fetch(st, &fa2, learn_cb, &l, &ra, &nn, &nu, err, sizeof(err)) ==
	      -1);
	CHECK(strstr(err, "rolled back") != NULL);
	CHECK(fr_store_group_end(st, 1, err, sizeof(err)) == -1);
	CHECK(strstr(err, "rolled back") != NULL);
	CHECK(raw_count(path, "items") == 3 && raw_count(path, "fetch_log") == 2);
	CHECK(fr_store_get_source(st, a, &again, err, sizeof(err)) == 0);
	CHECK(again.n_items == 2 && again.last_fetch_s == 100);
	fr_store_source_clear(&again);
	CHECK(fr_store_check(st, err, sizeof(err)) == 0);

	/* group_end(0) rolls back; groups do not nest, nor open inside a batch. */
	CHECK(fr_store_group_begin(st, err, sizeof(err)) == 0);
	CHECK(fr_store_commit_fetch(st, &fa2, NULL, NULL, NULL, &nn, &nu, err, sizeof(err)) == 0);
	CHECK(fr_store_group_begin(st, err, sizeof(err)) == -1);
	CHECK(strstr(err, "open already") != NULL);
	CHECK(fr_store_group_end(st, 0, err, sizeof(err)) == 0);
	CHECK(raw_count(path, "items") == 3);
	CHECK(fr_store_group_end(st, 1, err, sizeof(err)) == -1);
	CHECK(fr_store_begin(st, err, sizeof(err)) == 0);
	CHECK(fr_store_group_begin(st, err, sizeof(err)) == -1);
	CHECK(fr_store_end(st, 1, err, sizeof(err)) == 0);
	/* Outside groups, commit_fetch commits by itself again. */
	CHECK(fr_store_commit_fetch(st, &fa2, NULL, NULL, NULL, &nn, &nu, err, sizeof(err)) == 0);
	CHECK(nn == 1 && raw_count(path, "items") == 4);
	fr_store_source_clear(&ra);
	fr_store_source_clear(&rb);
	fr_store_close(st);
}

/* ---- speed ---- */

static double
mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Sleeps until mono_s() >= t. */
static void
sleep_until(double t)
{
	double left;

	while ((left = t - mono_s()) > 0) {
		struct timespec ts = {(time_t)left, (long)((left - (double)(time_t)left) * 1e9)};

		nanosleep(&ts, NULL);
	}
}

/* group > 0: the calls go in group transactions of that many. */
static void
speed_50_items(const char *name, int group)
{
	enum { N = 50, NEW = 3, ROUNDS = 400 };
	const char *path = tmp(name);
	struct fr_store *st;
	struct fr_store_source *v = NULL;
	struct fr_store_item its[N];
	static char ids[N][32], titles[N][64];
	static char body[600];
	char err[FR_ERRLEN];
	size_t n, nn, nu;
	double t0, dt;
	int64_t src[16];

	rm_db(path);
	st = open_ok(path);
	for (int s = 0; s < 16; s++) {
		char u[64];

		snprintf(u, sizeof(u), "http://s%d.example/feed", s);
		src[s] = add(st, u, NULL);
	}
	CHECK(fr_store_load_sources(st, &v, &n, err, sizeof(err)) == 0 && n == 16);
	memset(body, 'x', sizeof(body) - 1);
	t0 = mono_s();
	for (int r = 0; r < ROUNDS; r++) {
		int s = r % 16, base = (r / 16) * NEW;

		if (group && r % group == 0)
			CHECK(fr_store_group_begin(st, err, sizeof(err)) == 0);
		struct fr_store_fetch f = {src[s], 1e9 + r, 0.1, 200, "ok", 30000, NULL, its, N, NULL, NULL, NULL};

		/* A sliding window: the newest NEW items are new, the rest known. */
		for (int j = 0; j < N; j++) {
			snprintf(ids[j], sizeof(ids[j]), "tag:s%d,%d", s, base + N - 1 - j);
			snprintf(titles[j], sizeof(titles[j]), "item %d of source %d",
			         base + N - 1 - j, s);
			its[j] = item(ids[j], ids[j], titles[j]);
			its[j].summary = body;
			its[j].published_s = 1000000 + base + N - j;
		}
		if (fr_store_commit_fetch(st, &f, NULL, NULL, &v[s], &nn, &nu, err, sizeof(err)) <
		    0) {
			CHECK(0);
			fprintf(stderr, "%s\n", err);
			break;
		}
		CHECK(r < 16 ? nn == N : nn == NEW);
		if (group && (r % group == group - 1 || r == ROUNDS - 1))
			CHECK(fr_store_group_end(st, 1, err, sizeof(err)) == 0);
	}
	dt = (mono_s() - t0) / ROUNDS;
	fprintf(stderr, "  speed: commit_fetch of %d items (%d new)%s: %.0f us per call\n", N, NEW,
	        group ? ", in groups of 100" : "", dt * 1e6);
	/* Printed, not checked: a unit test does not time (bench/ does). */
	fr_store_sources_free(v, n);
	fr_store_close(st);
}

static void
test_speed_50_items_mostly_known(void)
{
	speed_50_items("speed.db", 0);
	speed_50_items("speed-group.db", 100);
}

/* One process on one file: every claim is granted, nothing is read. */
static void
test_claims_on_sqlite(void)
{
	const char *path = tmp("claims.db");
	struct fr_store *st;
	char err[FR_ERRLEN];
	double lf = 5, held = 5;
	int64_t a;

	rm_db(path);
	st = open_ok(path);
	a = add(st, "http://c.example/feed", NULL);
	CHECK(fr_store_claim(st, a, "w1", 60, 0, &lf, &held, err, sizeof(err)) == 0);
	CHECK(lf == -1 && held == 0);
	CHECK(fr_store_claim(st, a, "w2", 60, 0, NULL, NULL, err, sizeof(err)) == 0);
	CHECK(fr_store_release(st, a, err, sizeof(err)) == 0);
	int n = 0;
	CHECK(fr_store_workers(st, "w1", 0, 20, &n, err, sizeof(err)) == 0 && n == 1);
	fr_store_close(st);
}

/* FR_STORE_CRAWLER: one crawler per file, even two handles of one process
 * (flock is per open file); the lock goes with the handle. */
static void
test_crawler_lock(void)
{
	const char *path = tmp("lock.db");
	char lockpath[600], pid[32], err[FR_ERRLEN];
	struct fr_store *a = NULL, *b = NULL;
	FILE *f;

	rm_db(path);
	snprintf(lockpath, sizeof(lockpath), "%s.lock", path);
	unlink(lockpath);
	CHECK(fr_store_open_flags(&a, path, FR_STORE_CRAWLER, err, sizeof(err)) == 0);
	f = fopen(lockpath, "r");
	CHECK(f && fgets(pid, sizeof(pid), f) && strtol(pid, NULL, 10) == (long)getpid());
	if (f)
		fclose(f);
	CHECK(fr_store_open_flags(&b, path, FR_STORE_CRAWLER, err, sizeof(err)) < 0 && !b);
	snprintf(pid, sizeof(pid), "(pid %ld)", (long)getpid());
	CHECK(strstr(err, pid) && strstr(err, path));
	/* Not a crawler: opens beside it. */
	CHECK(fr_store_open(&b, path, err, sizeof(err)) == 0);
	fr_store_close(b);
	b = NULL;
	fr_store_close(a);
	CHECK(fr_store_open_flags(&b, path, FR_STORE_CRAWLER, err, sizeof(err)) == 0);
	fr_store_close(b);
}

/* FR_STORE_READ_ONLY: nothing created, nothing written, an old schema
 * migrated. */
static void
test_read_only_open(void)
{
	const char *path = tmp("ro.db"), *none = tmp("ro-none.db");
	struct fr_store *st = NULL;
	struct fr_store_source *v = NULL;
	char err[FR_ERRLEN];
	size_t n = 0;

	rm_db(none);
	CHECK(fr_store_open_flags(&st, none, FR_STORE_READ_ONLY, err, sizeof(err)) < 0 && !st);
	CHECK(strstr(err, none) && strstr(err, "no such store"));
	CHECK(access(none, F_OK) != 0);
	rm_db(path);
	st = open_ok(path);
	add(st, "http://ro.example/feed", NULL);
	fr_store_close(st);
	st = NULL;
	CHECK(fr_store_open_flags(&st, path, FR_STORE_READ_ONLY, err, sizeof(err)) == 0);
	CHECK(fr_store_load_sources(st, &v, &n, err, sizeof(err)) == 0 && n == 1);
	fr_store_sources_free(v, n);
	CHECK(fr_store_add_source(st, "http://ro.example/2", NULL, NULL, NULL, NULL, &(int64_t){0},
	                          &(int){0}, err, sizeof(err)) < 0);
	fr_store_close(st);
	st = NULL;
	/* A schema-1 store: read-only open migrates it first. */
	rm_db(path);
	raw_exec(path, fr_store_sqlite_migrations[0].sql);
	raw_exec(path, "PRAGMA user_version = 1; PRAGMA application_id = 1718776680");
	CHECK(fr_store_open_flags(&st, path, FR_STORE_READ_ONLY, err, sizeof(err)) == 0);
	fr_store_close(st);
	CHECK(raw_pragma(path, "user_version") == FR_STORE_SCHEMA_VERSION);
}

/* Hosts' shared slots (fr_store_host_claim): one request in flight per
 * host whichever handle sends it, and the gap set by its end; a claim that
 * ran out is taken over; closing frees the handle's. SQLite: granted. */
static void
test_host_slots(void)
{
	const char *path = tmp("hosts.db");
	struct fr_store *sa, *sb;
	char err[FR_ERRLEN];
	double w = -1, t0;
	enum { GAP = 2 };

	rm_db(path);
	sa = open_ok(path);
	sb = open_ok(path);
	CHECK(fr_store_host_claim(sa, "h.example", "wa", 60, &w, err, sizeof(err)) == 0 && w == 0);
	if (!pg_base) {
		CHECK(fr_store_host_claim(sb, "h.example", "wb", 60, &w, err, sizeof(err)) == 0);
		CHECK(fr_store_host_done(sa, "h.example", 5, err, sizeof(err)) == 0);
		fr_store_close(sa);
		fr_store_close(sb);
		return;
	}
	/* In flight: another handle waits a moment, any other host is free. */
	CHECK(fr_store_host_claim(sb, "h.example", "wb", 60, &w, err, sizeof(err)) == 1);
	CHECK(w >= FR_STORE_HOST_RECHECK_S && w < 1);
	CHECK(fr_store_host_claim(sb, "other.example", "wb", 60, &w, err, sizeof(err)) == 0);
	/* Its end sets the gap: refused until it has run. The waits are
	 * checked against the time that really passed between the calls, so
	 * that a loaded machine cannot fail them. */
	t0 = mono_s();
	CHECK(fr_store_host_done(sa, "h.example", GAP, err, sizeof(err)) == 0);
	CHECK(fr_store_host_claim(sb, "h.example", "wb", 60, &w, err, sizeof(err)) == 1);
	CHECK(w > GAP - (mono_s() - t0) - 0.05 && w <= GAP + 0.05);
	/* A gap is raised, never lowered. */
	CHECK(fr_store_host_done(sb, "h.example", 0.01, err, sizeof(err)) == 0);
	CHECK(fr_store_host_claim(sb, "h.example", "wb", 60, &w, err, sizeof(err)) == 1);
	CHECK(w > GAP - (mono_s() - t0) - 0.05);
	sleep_until(t0 + GAP + 0.1);
	t0 = mono_s();
	CHECK(fr_store_host_claim(sb, "h.example", "wb", GAP, &w, err, sizeof(err)) == 0);
	/* A claim that ran out (its holder killed): taken over. */
	CHECK(fr_store_host_claim(sa, "h.example", "wa", 60, &w, err, sizeof(err)) == 1 ||
	      mono_s() - t0 >= GAP);
	sleep_until(t0 + GAP + 0.1);
	CHECK(fr_store_host_claim(sa, "h.example", "wa", 60, &w, err, sizeof(err)) == 0);
	/* Closing frees the handle's slots at once. */
	fr_store_close(sa);
	CHECK(fr_store_host_claim(sb, "h.example", "wb", 60, &w, err, sizeof(err)) == 0);
	fr_store_close(sb);
}

static void
test_display_name_hides_passwords(void)
{
	static const char *const cases[][2] = {
	    {"freshet.db", "freshet.db"},
	    {"/tmp/a:b@c.db", "/tmp/a:b@c.db"},
	    {"postgresql://u:hunter2@db.example:5432/crawl", "postgresql://u@db.example:5432/crawl"},
	    {"postgres://u:p%40ss@w@h/d?sslmode=require", "postgres://u@h/d?sslmode=require"},
	    {"postgresql://u@h/d", "postgresql://u@h/d"},
	    {"postgresql://h:5432/d", "postgresql://h:5432/d"},
	    {"postgresql://u:@h/d", "postgresql://u@h/d"},
	    {"postgresql://h/d?password=x&sslmode=require", "postgresql://h/d?sslmode=require"},
	    {"postgresql://h/d?sslmode=require&PASSWORD=x", "postgresql://h/d?sslmode=require"},
	    {"postgresql://h/d?a=1&password=x&b=2", "postgresql://h/d?a=1&b=2"},
	    {"postgresql://h/d?password=x", "postgresql://h/d"},
	    {"POSTGRESQL://u:s@h/d?options=-csearch_path%3Dc",
	     "POSTGRESQL://u@h/d?options=-csearch_path%3Dc"},
	};
	char buf[128], small[12];

	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++)
		CHECK_STR(fr_store_display_name(cases[k][0], buf, sizeof(buf)), cases[k][1]);
	CHECK_STR(fr_store_display_name("postgresql://u:secret@h/d", small, sizeof(small)),
	          "postgresql:");
	CHECK_STR(fr_store_display_name(NULL, buf, sizeof(buf)), "");
}

/* ---- PostgreSQL only ---- */

static void
test_pg_open_and_reopen(void)
{
	const char *path = tmp("open.db");
	struct fr_store *st;
	struct fr_store_stats ss;
	char err[FR_ERRLEN];

	rm_db(path);
	st = open_ok(path);
	CHECK(fr_store_stats(st, &ss, err, sizeof(err)) == 0);
	CHECK(ss.schema_version == FR_STORE_SCHEMA_VERSION);
	CHECK(ss.n_sources == 0 && ss.n_items == 0 && ss.n_fetches == 0);
	CHECK(add(st, "http://a.example/feed", NULL) == 1);
	fr_store_close(st);
	CHECK(raw_pg_int(path, "SELECT max(version) FROM freshet_migrations") ==
	      FR_STORE_SCHEMA_VERSION);
	CHECK(raw_pg_int(path, "SELECT count(*) FROM freshet_migrations") ==
	      FR_STORE_SCHEMA_VERSION);
	/* Re-open: nothing migrates again, the data is there. */
	st = open_ok(path);
	CHECK(fr_store_stats(st, &ss, err, sizeof(err)) == 0);
	CHECK(ss.schema_version == FR_STORE_SCHEMA_VERSION && ss.n_sources == 1);
	CHECK(fr_store_check(st, err, sizeof(err)) == 0);
	CHECK(fr_store_checkpoint(st, err, sizeof(err)) == 0);
	CHECK(fr_store_begin(st, err, sizeof(err)) == 0);
	CHECK(fr_store_checkpoint(st, err, sizeof(err)) == -1);
	CHECK(fr_store_end(st, 1, err, sizeof(err)) == 0);
	fr_store_close(st);
	CHECK(raw_pg_int(path, "SELECT count(*) FROM freshet_migrations") ==
	      FR_STORE_SCHEMA_VERSION);
	/* A bad count is what check finds. */
	raw_pg_exec(path, "UPDATE sources SET n_items = 5");
	st = open_ok(path);
	CHECK(fr_store_check(st, err, sizeof(err)) == -1);
	CHECK(strstr(err, "source 1 counts 5 items, the store holds 0") != NULL);
	fr_store_close(st);
}

static void
test_pg_refuses(void)
{
	struct fr_store *st = (struct fr_store *)1;
	char err[FR_ERRLEN];
	const char *path;

	/* A newer freshet's store. */
	path = tmp("newer.db");
	rm_db(path);
	raw_pg_exec(path, "CREATE TABLE freshet_migrations (version integer PRIMARY KEY, "
	                  "what text NOT NULL); INSERT INTO freshet_migrations VALUES (99, 'x')");
	CHECK(fr_store_open(&st, path, err, sizeof(err)) == -1);
	CHECK(st == NULL);
	CHECK(strstr(err, "schema version 99, newer than this freshet") != NULL);
	CHECK(strstr(err, "postgresql://") == err);
	/* Someone else's tables: the migration fails, named, and leaves the
	 * schema as it was. */
	path = tmp("clash.db");
	rm_db(path);
	raw_pg_exec(path, "CREATE TABLE sources (x integer)");
	CHECK(fr_store_open(&st, path, err, sizeof(err)) == -1);
	CHECK(strstr(err, "migration to schema version 1") != NULL);
	CHECK(strstr(err, "already exists") != NULL);
	CHECK(raw_pg_int(path, "SELECT count(*) FROM pg_tables WHERE tablename = "
	                       "'freshet_migrations' AND schemaname = current_schema()") == 0);
	/* An unknown database is named, its password not. */
	{
		char uri[512];
		const char *at = strstr(pg_base, "@");

		snprintf(uri, sizeof(uri), "postgresql://postgres:pw-9z8y@%s", at ? at + 1 : "");
		char *slash = strrchr(uri, '/');
		if (slash)
			snprintf(slash, sizeof(uri) - (size_t)(slash - uri), "/no_such_db");
		CHECK(fr_store_open(&st, uri, err, sizeof(err)) == -1);
		CHECK(strstr(err, "no_such_db") != NULL);
		CHECK(strstr(err, "pw-9z8y") == NULL);
	}
}

/* Several processes commit fetches of the same sources at once, in groups,
 * each holding rows loaded at its start (soon stale), their items
 * overlapping: every commit succeeds (no deadlock), no item is stored
 * twice, n_items stays exact, every fetch is logged. */
#define CW_WORKERS 3
#define CW_FETCHES 60
#define CW_SOURCES 4
#define CW_ITEMS 12

static void
cw_child(const char *path, int w)
{
	struct fr_store *st = NULL;
	struct fr_store_source *rows = NULL;
	struct fr_store_item its[CW_ITEMS];
	char ids[CW_ITEMS][32], err[FR_ERRLEN];
	size_t n = 0, nn, nu;

	if (fr_store_open(&st, path, err, sizeof(err)) < 0 ||
	    fr_store_load_sources(st, &rows, &n, err, sizeof(err)) < 0 || n != CW_SOURCES) {
		fprintf(stderr, "worker %d: %s\n", w, err);
		_exit(3);
	}
	for (int k = 0; k < CW_FETCHES; k++) {
		int s = (k + w) % CW_SOURCES;
		struct fr_store_fetch f = {rows[s].id, 1000 + k + w * 0.001, 0, 200, "ok", 0, NULL,
		                           its, CW_ITEMS, NULL, NULL, NULL};

		for (int j = 0; j < CW_ITEMS; j++) {
			snprintf(ids[j], sizeof(ids[j]), "i%d", k / 2 + j);
			its[j] = item(ids[j], NULL, ids[j]);
		}
		if (k % 5 == 0 && fr_store_group_begin(st, err, sizeof(err)) < 0) {
			fprintf(stderr, "worker %d: %s\n", w, err);
			_exit(4);
		}
		if (fr_store_commit_fetch(st, &f, NULL, NULL, &rows[s], &nn, &nu, err, sizeof(err)) <
		    0) {
			fprintf(stderr, "worker %d, fetch %d: %s\n", w, k, err);
			_exit(5);
		}
		if (k % 5 == 4 && fr_store_group_end(st, 1, err, sizeof(err)) < 0) {
			fprintf(stderr, "worker %d: %s\n", w, err);
			_exit(6);
		}
	}
	fr_store_sources_free(rows, n);
	fr_store_close(st);
	_exit(0);
}

static void
test_pg_concurrent_writers(void)
{
	const char *path = tmp("concurrent.db");
	struct fr_store *st;
	struct fr_store_stats ss;
	char err[FR_ERRLEN], u[64];
	pid_t pid[CW_WORKERS];
	int64_t want = 0;

	rm_db(path);
	st = open_ok(path);
	for (int s = 0; s < CW_SOURCES; s++) {
		snprintf(u, sizeof(u), "http://cw%d.example/feed", s);
		add(st, u, NULL);
	}
	fr_store_close(st);
	for (int w = 0; w < CW_WORKERS; w++) {
		pid[w] = fork();
		if (pid[w] == 0)
			cw_child(path, w);
	}
	for (int w = 0; w < CW_WORKERS; w++) {
		int status = 0;

		waitpid(pid[w], &status, 0);
		CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
	/* The distinct identities each source was given. */
	for (int s = 0; s < CW_SOURCES; s++) {
		uint8_t seen[CW_FETCHES / 2 + CW_ITEMS] = {0};

		for (int w = 0; w < CW_WORKERS; w++)
			for (int k = 0; k < CW_FETCHES; k++)
				if ((k + w) % CW_SOURCES == s)
					for (int j = 0; j < CW_ITEMS; j++)
						seen[k / 2 + j] = 1;
		for (size_t j = 0; j < sizeof(seen); j++)
			want += seen[j];
	}
	st = open_ok(path);
	CHECK(fr_store_check(st, err, sizeof(err)) == 0);
	CHECK(fr_store_stats(st, &ss, err, sizeof(err)) == 0);
	CHECK(ss.n_items == want);
	CHECK(ss.n_fetches == CW_WORKERS * CW_FETCHES);
	CHECK(raw_pg_int(path, "SELECT count(*) FROM (SELECT source_id, ident FROM items "
	                       "GROUP BY 1, 2 HAVING count(*) > 1) d") == 0);
	/* Every item numbered, 1..n without a gap, the counter at n. */
	CHECK(raw_pg_int(path, "SELECT count(*) FROM items WHERE seq IS NULL") == 0);
	CHECK(raw_pg_int(path, "SELECT count(DISTINCT seq) FROM items") == want);
	CHECK(raw_pg_int(path, "SELECT max(seq) FROM items") == want);
	CHECK(raw_pg_int(path, "SELECT last FROM item_seq") == want);
	fprintf(stderr, "  concurrent: %d workers, %d fetches, %lld items, none twice\n",
	        CW_WORKERS, CW_WORKERS * CW_FETCHES, (long long)ss.n_items);
	fr_store_close(st);
}

/* Numbers in commit order: A's group inserts items first but commits
 * after B's fetch; a reader between the two sees B's items numbered from
 * 1, and after A's commit gets A's above them, none skipped (numbers taken
 * at insert would have put A's below B's, behind the reader's cursor). */
static void
test_pg_seq_commit_order(void)
{
	const char *path = tmp("seqorder.db");
	struct fr_store *a, *b, *r;
	char err[FR_ERRLEN];
	size_t nn, nu;
	int64_t sa, sb, last = -1;

	rm_db(path);
	a = open_ok(path);
	b = open_ok(path);
	r = open_ok(path);
	sa = add(a, "http://order-a.example/", NULL);
	sb = add(a, "http://order-b.example/", NULL);
	struct fr_store_item ia[2] = {item("a2", NULL, "a2"), item("a1", NULL, "a1")};
	struct fr_store_item ib[1] = {item("b1", NULL, "b1")};
	struct fr_store_fetch fa = {sa, 10, 0, 200, "ok", 0, NULL, ia, 2, NULL, NULL, NULL};
	struct fr_store_fetch fb = {sb, 11, 0, 200, "ok", 0, NULL, ib, 1, NULL, NULL, NULL};
	CHECK(fr_store_group_begin(a, err, sizeof(err)) == 0);
	CHECK(fr_store_commit_fetch(a, &fa, NULL, NULL, NULL, &nn, &nu, err, sizeof(err)) == 0);
	CHECK(fr_store_commit_fetch(b, &fb, NULL, NULL, NULL, &nn, &nu, err, sizeof(err)) == 0);
	struct seqs s1 = {0};
	struct fr_store_item_query q = {0};
	CHECK(fr_store_items(r, &q, seqs_cb, &s1, err, sizeof(err)) == 0);
	CHECK(s1.n == 1 && s1.seq[0] == 1);
	CHECK(fr_store_last_seq(r, &last, err, sizeof(err)) == 0 && last == 1);
	CHECK(fr_store_group_end(a, 1, err, sizeof(err)) == 0);
	struct seqs s2 = {0};
	q.after_seq = s1.n ? s1.seq[s1.n - 1] : 0;
	CHECK(fr_store_items(r, &q, seqs_cb, &s2, err, sizeof(err)) == 0);
	CHECK(s2.n == 2 && s2.seq[0] == 2 && s2.seq[1] == 3);
	if (s2.n == 2) {
		CHECK_STR(s2.ids[0], "a1");
		CHECK_STR(s2.ids[1], "a2");
	}
	fr_store_close(a);
	fr_store_close(b);
	fr_store_close(r);
}

/* A row loaded before another worker committed a fetch of its source: what
 * that worker stored is the base of the next commit (error count, url,
 * item count), not undone. */
static void
test_pg_stale_rows(void)
{
	const char *path = tmp("stale.db");
	struct fr_store *a, *b;
	struct fr_store_source ra, rb, again;
	struct learned l = {0};
	char err[FR_ERRLEN];
	size_t nn, nu;
	int64_t id;

	rm_db(path);
	a = open_ok(path);
	b = open_ok(path);
	id = add(a, "http://stale.example/feed", NULL);
	CHECK(fr_store_get_source(a, id, &ra, err, sizeof(err)) == 0);
	CHECK(fr_store_get_source(b, id, &rb, err, sizeof(err)) == 0);

	struct fr_store_item i1[2] = {item("x", NULL, "x"), item("y", NULL, "y")};
	struct fr_store_item i2[2] = {item("y", NULL, "y"), item("z", NULL, "z")};
	struct fr_store_fetch fa = {id, 100, 0, 500, "http-error", 0, "HTTP 500", i1, 2, NULL, NULL, NULL};
	struct fr_store_fetch fb = {id, 101, 0, 500, "http-error", 0, "HTTP 500", i2, 2, NULL, NULL, NULL};
	CHECK(fr_store_commit_fetch(a, &fa, NULL, NULL, &ra, &nn, &nu, err, sizeof(err)) == 0);
	CHECK(nn == 2 && ra.n_items == 2 && ra.err_count == 1);
	/* b's row still says never fetched. */
	CHECK(fr_store_commit_fetch(b, &fb, NULL, NULL, &rb, &nn, &nu, err, sizeof(err)) == 0);
	CHECK(nn == 1);
	CHECK(rb.n_items == 3 && rb.err_count == 2 && rb.last_fetch_s == 101);
	/* a moves the source; b, stale again, does not move it back. */
	l.move_to = "https://moved.example/feed";
	fa.time_s = 102;
	fa.n_items = 0;
	CHECK(fr_store_commit_fetch(a, &fa, learn_cb, &l, &ra, &nn, &nu, err, sizeof(err)) == 0);
	fb.time_s = 103;
	fb.error = NULL;
	fb.status = 200;
	CHECK(fr_store_commit_fetch(b, &fb, NULL, NULL, &rb, &nn, &nu, err, sizeof(err)) == 0);
	CHECK(nn == 0);
	CHECK_STR(rb.url, "https://moved.example/feed");
	CHECK(rb.err_count == 0);
	CHECK(fr_store_get_source(a, id, &again, err, sizeof(err)) == 0);
	CHECK_STR(again.url, "https://moved.example/feed");
	CHECK_STR(again.host, "moved.example");
	CHECK_STR(again.etag, "\"v2\""); /* a's learn, kept */
	CHECK(again.n_items == 3 && again.last_fetch_s == 103 && again.err_count == 0);
	fr_store_source_clear(&again);
	CHECK(fr_store_check(a, err, sizeof(err)) == 0);
	fr_store_source_clear(&ra);
	fr_store_source_clear(&rb);
	fr_store_close(a);
	fr_store_close(b);
}

static void
test_pg_leases(void)
{
	const char *path = tmp("leases.db");
	struct fr_store *st, *sa, *sb;
	char err[FR_ERRLEN];
	double lf = -1, held = 0;
	int64_t a, b;
	size_t nn, nu;

	rm_db(path);
	st = open_ok(path);
	a = add(st, "http://la.example/feed", NULL);
	b = add(st, "http://lb.example/feed", NULL);
	sa = open_ok(path);
	sb = open_ok(path);
	CHECK(fr_store_claim(sa, a, "wa", 1060, 1000, &lf, &held, err, sizeof(err)) == 0 && lf == 0);
	CHECK(fr_store_claim(sb, a, "wb", 1061, 1001, &lf, &held, err, sizeof(err)) == 1);
	CHECK(held == 1060);
	CHECK(fr_store_claim(sb, b, "wb", 1061, 1001, &lf, &held, err, sizeof(err)) == 0);
	CHECK(fr_store_claim(sa, b, "wa", 1062, 1002, &lf, &held, err, sizeof(err)) == 1);
	CHECK(held == 1061);
	CHECK(fr_store_claim(sa, a, "wa", 1062, 1002, &lf, NULL, err, sizeof(err)) == 0); /* renewed */
	CHECK(fr_store_claim(sb, a, "wb", 1121, 1061, NULL, &held, err, sizeof(err)) == 1);
	CHECK(held == 1062);
	/* Run out (its holder was killed, say): anyone may claim it. */
	CHECK(fr_store_claim(sb, a, "wb", 1123, 1063, &lf, &held, err, sizeof(err)) == 0);
	CHECK(fr_store_claim(sa, a, "wa", 1124, 1064, &lf, &held, err, sizeof(err)) == 1);
	/* The holder's commit of a fetch drops its lease once it has
	 * committed; the next claim sees the fetch's time. */
	struct fr_store_fetch f = {a, 1065, 0, 304, "not-modified", 0, NULL, NULL, 0, NULL, NULL, NULL};
	CHECK(fr_store_commit_fetch(sb, &f, NULL, NULL, NULL, &nn, &nu, err, sizeof(err)) == 0);
	CHECK(fr_store_claim(sa, a, "wa", 1126, 1066, &lf, &held, err, sizeof(err)) == 0 &&
	      lf == 1065);
	CHECK(fr_store_release(sa, a, err, sizeof(err)) == 0);
	CHECK(fr_store_claim(sb, a, "wb", 1127, 1067, &lf, &held, err, sizeof(err)) == 0);
	CHECK(fr_store_claim(sa, 999, "wa", 1127, 1067, &lf, &held, err, sizeof(err)) == -1);
	CHECK_STR(err, "no source 999");
	/* In a group the lease is dropped when the group commits, with the
	 * fetch: claims in between see it held. */
	CHECK(fr_store_group_begin(sb, err, sizeof(err)) == 0);
	f.time_s = 1068;
	CHECK(fr_store_commit_fetch(sb, &f, NULL, NULL, NULL, &nn, &nu, err, sizeof(err)) == 0);
	CHECK(fr_store_claim(sa, a, "wa", 1129, 1069, &lf, &held, err, sizeof(err)) == 1);
	CHECK(fr_store_group_end(sb, 1, err, sizeof(err)) == 0);
	CHECK(fr_store_claim(sa, a, "wa", 1130, 1070, &lf, &held, err, sizeof(err)) == 0 &&
	      lf == 1068);
	/* A get in a group reads without locking the row: another handle's
	 * fetch of the source commits meanwhile. */
	struct fr_store_source row;
	CHECK(fr_store_group_begin(sb, err, sizeof(err)) == 0);
	CHECK(fr_store_get_source(sb, a, &row, err, sizeof(err)) == 0 && row.last_fetch_s == 1068);
	f.time_s = 1071;
	CHECK(fr_store_commit_fetch(sa, &f, NULL, NULL, NULL, &nn, &nu, err, sizeof(err)) == 0);
	CHECK(fr_store_group_end(sb, 1, err, sizeof(err)) == 0);
	fr_store_source_clear(&row);
	/* Another name for the same handle: the old name's leases go. */
	CHECK(fr_store_claim(sa, b, "wa", 1132, 1072, &lf, &held, err, sizeof(err)) == 0);
	CHECK(fr_store_claim(sa, a, "wa", 1132, 1072, &lf, &held, err, sizeof(err)) == 0);
	CHECK(lf == 1071);
	CHECK(raw_pg_int(path, "SELECT count(*) FROM leases WHERE owner = 'wa'") == 2);
	CHECK(fr_store_claim(sa, a, "wa2", 1132, 1072, &lf, &held, err, sizeof(err)) == 0);
	CHECK(raw_pg_int(path, "SELECT count(*) FROM leases WHERE owner = 'wa'") == 0);
	/* Two handles claiming under one name share the lease. */
	CHECK(fr_store_claim(sb, a, "wa2", 1133, 1073, &lf, &held, err, sizeof(err)) == 0);
	/* Closing a handle drops its leases. */
	fr_store_close(sb);
	CHECK(fr_store_claim(sa, b, "wa2", 1134, 1074, &lf, &held, err, sizeof(err)) == 0);
	CHECK(fr_store_claim(sa, a, NULL, 1134, 1074, &lf, &held, err, sizeof(err)) == 0);
	/* A purged source takes its lease with it. */
	CHECK(fr_store_remove_source(st, b, 1, err, sizeof(err)) == 0);
	CHECK(raw_pg_int(path, "SELECT count(*) FROM leases") == 1);
	fr_store_close(sa);
	CHECK(raw_pg_int(path, "SELECT count(*) FROM leases") == 0);
	fr_store_close(st);
}

/* Workers alive: heartbeats counted within their window, gone with their
 * handle. */
static void
test_pg_workers(void)
{
	const char *path = tmp("workers.db");
	struct fr_store *sa, *sb, *sc;
	char err[FR_ERRLEN];
	int n = 0;

	rm_db(path);
	sa = open_ok(path);
	sb = open_ok(path);
	sc = open_ok(path);
	CHECK(fr_store_workers(sa, "wa", 1000, 20, &n, err, sizeof(err)) == 0 && n == 1);
	CHECK(fr_store_workers(sb, "wb", 1001, 20, &n, err, sizeof(err)) == 0 && n == 2);
	CHECK(fr_store_workers(sa, "wa", 1002, 20, &n, err, sizeof(err)) == 0 && n == 2);
	CHECK(fr_store_workers(sc, NULL, 1003, 20, &n, err, sizeof(err)) == 0 && n == 3);
	/* wb said nothing for more than 20 s: not counted (killed, say). */
	CHECK(fr_store_workers(sa, "wa", 1022, 20, &n, err, sizeof(err)) == 0 && n == 2);
	/* A renamed worker is one worker. */
	CHECK(fr_store_workers(sc, "wc", 1023, 20, &n, err, sizeof(err)) == 0 && n == 2);
	CHECK(raw_pg_int(path, "SELECT count(*) FROM meta WHERE key LIKE 'worker:%'") == 3);
	fr_store_close(sc);
	fr_store_close(sb);
	CHECK(fr_store_workers(sa, "wa", 1024, 20, &n, err, sizeof(err)) == 0 && n == 1);
	CHECK(raw_pg_int(path, "SELECT count(*) FROM meta WHERE key LIKE 'worker:%'") == 1);
	fr_store_close(sa);
	CHECK(raw_pg_int(path, "SELECT count(*) FROM meta") == 0);
}

/* Text PostgreSQL would refuse (not UTF-8) is stored with U+FFFD for each
 * bad byte, and found again as the same item; an identity longer than a
 * btree entry is stored and found again too. */
static void
test_pg_odd_text(void)
{
	const char *path = tmp("odd.db");
	struct fr_store *st;
	struct seen sn = {0};
	char err[FR_ERRLEN], *longid;
	size_t nn = 9, nu = 9;
	int64_t a;

	rm_db(path);
	st = open_ok(path);
	a = add(st, "http://odd.example/feed", NULL);
	longid = malloc(6001);
	memset(longid, 'q', 6000);
	longid[6000] = '\0';
	struct fr_store_item its[3] = {item("bad-\xff-id", NULL, "caf\xe9"),
	                               item(longid, NULL, "long"), item("ok", NULL, "\"q\\\" {,}")};
	struct fr_store_fetch f = {a, 10, 0, 200, "ok", 0, NULL, its, 3, NULL, NULL, NULL};
	CHECK(fr_store_commit_fetch(st, &f, NULL, NULL, NULL, &nn, &nu, err, sizeof(err)) == 0);
	CHECK(nn == 3 && nu == 0);
	f.time_s = 20;
	CHECK(fr_store_commit_fetch(st, &f, NULL, NULL, NULL, &nn, &nu, err, sizeof(err)) == 0);
	CHECK(nn == 0 && nu == 0);
	CHECK(fr_store_each_item(st, 0, 0, 0, seen_cb, &sn, err, sizeof(err)) == 0);
	CHECK(sn.n == 3);
	/* Undated: stored in the reverse of the feed's order. */
	CHECK_STR(sn.ids[2], "bad-\xEF\xBF\xBD-id");
	CHECK_STR(sn.titles[2], "caf\xEF\xBF\xBD");
	CHECK(strncmp(sn.ids[1], "qqqq", 4) == 0);
	CHECK_STR(sn.titles[0], "\"q\\\" {,}");
	CHECK(fr_store_check(st, err, sizeof(err)) == 0);
	free(longid);
	fr_store_close(st);
}

static void
cleanup(void)
{
	DIR *d = opendir(tmpdir);
	struct dirent *e;

	if (!d)
		return;
	for (e = readdir(d); e; e = readdir(d))
		if (e->d_name[0] != '.')
			unlink(tmp(e->d_name));
	closedir(d);
	rmdir(tmpdir);
}

int
main(void)
{
	const char *t = getenv("TMPDIR");

	snprintf(tmpdir, sizeof(tmpdir), "%s/test_store.XXXXXX", t && *t ? t : "/tmp");
	if (!mkdtemp(tmpdir)) {
		perror(tmpdir);
		return 1;
	}
	pg_base = getenv("FRESHET_TEST_DB");
	if (pg_base && *pg_base) {
		RUN(test_pg_open_and_reopen);
		RUN(test_pg_refuses);
		RUN(test_sources_dedupe_remove_readd);
		RUN(test_commit_new_repeat_update);
		RUN(test_rollback_restores_everything);
		RUN(test_policy_blob_round_trip);
		RUN(test_learn_null_and_errors);
		RUN(test_move_by_learn);
		RUN(test_meta);
		RUN(test_each_item_filters_and_batches);
		RUN(test_seq_numbers);
		RUN(test_item_languages);
		RUN(test_lang_migration);
		RUN(test_group_commit);
		RUN(test_pg_concurrent_writers);
		RUN(test_pg_seq_commit_order);
		RUN(test_pg_stale_rows);
		RUN(test_pg_leases);
		RUN(test_host_slots);
		RUN(test_pg_workers);
		RUN(test_pg_odd_text);
		RUN(test_crash_safety_sigkill);
		RUN(test_crash_safety_sigkill_group_commit);
		RUN(test_speed_50_items_mostly_known);
		cleanup();
		return TEST_DONE();
	}
	pg_base = NULL;
	RUN(test_migration_list);
	RUN(test_display_name_hides_passwords);
	RUN(test_claims_on_sqlite);
	RUN(test_crawler_lock);
	RUN(test_host_slots);
	RUN(test_read_only_open);
	RUN(test_open_empty_file_and_reopen);
	RUN(test_open_refuses_other_files);
	RUN(test_sources_dedupe_remove_readd);
	RUN(test_commit_new_repeat_update);
	RUN(test_rollback_restores_everything);
	RUN(test_policy_blob_round_trip);
	RUN(test_learn_null_and_errors);
	RUN(test_move_by_learn);
	RUN(test_meta);
	RUN(test_each_item_filters_and_batches);
	RUN(test_seq_numbers);
	RUN(test_seq_migration);
	RUN(test_item_languages);
	RUN(test_lang_migration);
	RUN(test_group_commit);
	RUN(test_crash_safety_sigkill);
	RUN(test_crash_safety_sigkill_group_commit);
	RUN(test_speed_50_items_mostly_known);
	cleanup();
	return TEST_DONE();
}
