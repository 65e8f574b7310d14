/* sqlite.c - the SQLite backend of the store: one file in WAL mode,
 * synchronous=NORMAL, statements prepared once per handle, every fetch in
 * one BEGIN IMMEDIATE transaction (savepoints when nested), or many fetches
 * in one group transaction without savepoints (the crawl loop's). */
#include "store/schema.h"
#include "store/backend.h"

#include "core/err.h"

#include <sqlite3.h>

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

/* 'frsh': marks a file as a freshet store (PRAGMA application_id). */
#define APP_ID 0x66727368

#define SRC_COLS                                                                                   \
	"id, url, kind, grp, host, title, site_url, category, etag, last_modified, added_s, "      \
	"last_fetch_s, last_ok_s, next_due_s, last_status, last_error, last_error_s, err_count, "  \
	"backoff_until_s, hint_ttl_s, hint_period_s, hint_max_age_s, redirect_url, "               \
	"redirect_hits, policy, policy_state, rate_per_day, n_items, active, kind_state"

/* ?1..?24 and ?27 as bound by bind_state; ?25 is the id. */
#define SRC_SET                                                                                    \
	"UPDATE sources SET kind = ?1, grp = ?2, host = ?3, title = ?4, site_url = ?5, "           \
	"category = ?6, etag = ?7, last_modified = ?8, last_fetch_s = ?9, last_ok_s = ?10, "       \
	"next_due_s = ?11, last_status = ?12, last_error = ?13, last_error_s = ?14, "              \
	"err_count = ?15, backoff_until_s = ?16, hint_ttl_s = ?17, hint_period_s = ?18, "          \
	"hint_max_age_s = ?19, redirect_url = ?20, redirect_hits = ?21, policy = ?22, "            \
	"policy_state = ?23, rate_per_day = ?24, kind_state = ?27"

#define ITEM_COLS                                                                                  \
	"url, title, author, summary, content, enclosure_url, enclosure_type, enclosure_length, "  \
	"published_s, updated_s, lang, lang_detected"

enum stmt {
	S_BEGIN,
	S_COMMIT,
	S_ROLLBACK,
	S_SAVEPOINT,
	S_RELEASE,
	S_ROLLBACK_TO,
	S_ADD,
	S_FIND_KEY,
	S_FIND_ID,
	S_REACTIVATE,
	S_GET,
	S_LOAD_ACTIVE,
	S_LOAD_ALL,
	S_PUT,
	S_WRITEBACK,
	S_MOVE,
	S_DEACTIVATE,
	S_DEL_ITEMS,
	S_DEL_LOG,
	S_DEL_SOURCE,
	S_ITEM_FIND,
	S_ITEM_INSERT,
	S_ITEM_ADD,
	S_ITEM_UPDATE,
	S_FETCH_SRC,
	S_LOG_INSERT,
	S_META_GET,
	S_META_PUT,
	S_STATS,
	N_STMT
};

/* NOTE: keep in the order of enum stmt. */
static const char *const SQL[N_STMT] = {
    [S_BEGIN] = "BEGIN IMMEDIATE",
    [S_COMMIT] = "COMMIT",
    [S_ROLLBACK] = "ROLLBACK",
    [S_SAVEPOINT] = "SAVEPOINT fr",
    [S_RELEASE] = "RELEASE fr",
    [S_ROLLBACK_TO] = "ROLLBACK TO fr",
    [S_ADD] = "INSERT INTO sources (url, url_key, host, kind, grp, title, site_url, added_s) "
              "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) ON CONFLICT (url_key) DO NOTHING",
    [S_FIND_KEY] = "SELECT id, active, url FROM sources WHERE url_key = ?1",
    [S_FIND_ID] = "SELECT id, active, url FROM sources WHERE id = ?1",
    [S_REACTIVATE] = "UPDATE sources SET active = 1 WHERE id = ?1",
    [S_GET] = "SELECT " SRC_COLS " FROM sources WHERE id = ?1",
    [S_LOAD_ACTIVE] = "SELECT " SRC_COLS " FROM sources WHERE active = 1 ORDER BY id",
    [S_LOAD_ALL] = "SELECT " SRC_COLS " FROM sources ORDER BY id",
    [S_PUT] = SRC_SET " WHERE id = ?25",
    [S_WRITEBACK] = SRC_SET ", n_items = ?26 WHERE id = ?25",
    [S_MOVE] = "UPDATE sources SET url = ?2, url_key = ?3, host = ?4 WHERE id = ?1",
    [S_DEACTIVATE] = "UPDATE sources SET active = 0 WHERE id = ?1",
    [S_DEL_ITEMS] = "DELETE FROM items WHERE source_id = ?1",
    [S_DEL_LOG] = "DELETE FROM fetch_log WHERE source_id = ?1",
    [S_DEL_SOURCE] = "DELETE FROM sources WHERE id = ?1",
    [S_ITEM_FIND] = "SELECT id, hash, first_seen_s, changed_s FROM items "
                    "WHERE source_id = ?1 AND ident = ?2",
    [S_ITEM_INSERT] = "INSERT INTO items (source_id, ident, " ITEM_COLS ", first_seen_s, hash) "
                      "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?15, ?16, ?13, ?14)",
    [S_ITEM_ADD] = "INSERT INTO items (source_id, ident, " ITEM_COLS ", first_seen_s, hash) "
                   "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?15, ?16, ?13, ?14) "
                   "ON CONFLICT (source_id, ident) DO NOTHING",
    [S_ITEM_UPDATE] = "UPDATE items SET url = ?3, title = ?4, author = ?5, summary = ?6, "
                      "content = ?7, enclosure_url = ?8, enclosure_type = ?9, "
                      "enclosure_length = ?10, published_s = ?11, updated_s = ?12, "
                      "changed_s = ?13, hash = ?14, lang = ?15, lang_detected = ?16 WHERE id = ?1",
    [S_FETCH_SRC] = "SELECT url, n_items FROM sources WHERE id = ?1",
    [S_LOG_INSERT] = "INSERT INTO fetch_log (source_id, time_s, duration_s, status, outcome, "
                     "bytes, n_items, n_new, n_updated, error) "
                     "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
    [S_META_GET] = "SELECT value FROM meta WHERE key = ?1",
    [S_META_PUT] = "INSERT INTO meta (key, value) VALUES (?1, ?2) "
                   "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
    [S_STATS] = "SELECT (SELECT count(*) FROM sources), "
                "(SELECT count(*) FROM sources WHERE active = 1), "
                "(SELECT count(*) FROM items), (SELECT count(*) FROM fetch_log)",
};

struct sq {
	sqlite3 *db;
	char *path;
	sqlite3_stmt *stmt[N_STMT];
	struct fr_store_tx *tx; /* store.c's: tx->group, tx->aborted */
	int lock_fd; /* the crawl lock (FR_STORE_CRAWLER) held on PATH.lock, else -1 */
};

/* ---- helpers ---- */

static int
dberr(struct sq *q, char *err, size_t errlen, const char *what)
{
	return fr_errf(err, errlen, "%s: %s: %s", q->path, what, sqlite3_errmsg(q->db));
}

/* The cached statement k, reset and unbound; NULL with err set. */
static sqlite3_stmt *
stmt(struct sq *q, enum stmt k, char *err, size_t errlen)
{
	sqlite3_stmt *s = q->stmt[k];

	if (!s) {
		if (sqlite3_prepare_v3(q->db, SQL[k], -1, SQLITE_PREPARE_PERSISTENT, &s, NULL) !=
		    SQLITE_OK) {
			dberr(q, err, errlen, "prepare");
			return NULL;
		}
		q->stmt[k] = s;
		return s;
	}
	sqlite3_reset(s);
	sqlite3_clear_bindings(s);
	return s;
}

/* Runs statement k (no result rows wanted) to completion. */
static int
run(struct sq *q, enum stmt k, char *err, size_t errlen, const char *what)
{
	sqlite3_stmt *s = stmt(q, k, err, errlen);
	int rc;

	if (!s)
		return -1;
	rc = sqlite3_step(s);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW) {
		dberr(q, err, errlen, what);
		sqlite3_reset(s);
		return -1;
	}
	sqlite3_reset(s);
	return 0;
}

/* A transaction, or a savepoint inside one already open. *outer says which,
 * for tx_end. */
static int
tx_begin(struct sq *q, int *outer, char *err, size_t errlen)
{
	*outer = sqlite3_get_autocommit(q->db) != 0;
	return run(q, *outer ? S_BEGIN : S_SAVEPOINT, err, errlen, "begin");
}

static int
tx_end(struct sq *q, int outer, int commit, char *err, size_t errlen)
{
	char e2[8];

	if (commit) {
		if (run(q, outer ? S_COMMIT : S_RELEASE, err, errlen, "commit") == 0)
			return 0;
		/* A failed COMMIT leaves the transaction open: undo it. */
	}
	if (outer) {
		if (!sqlite3_get_autocommit(q->db))
			run(q, S_ROLLBACK, e2, sizeof(e2), "rollback");
	} else {
		run(q, S_ROLLBACK_TO, e2, sizeof(e2), "rollback");
		run(q, S_RELEASE, e2, sizeof(e2), "rollback");
	}
	return commit ? -1 : 0;
}

static int
bind_text(sqlite3_stmt *s, int i, const char *v)
{
	return v ? sqlite3_bind_text(s, i, v, -1, SQLITE_STATIC) : sqlite3_bind_null(s, i);
}

/* NaN has no place in a REAL column (SQLite would store NULL). */
static int
bind_time(sqlite3_stmt *s, int i, double v)
{
	return sqlite3_bind_double(s, i, isnan(v) ? 0 : v);
}

static int
bind_opt_i64(sqlite3_stmt *s, int i, int64_t v, int64_t absent)
{
	return v == absent ? sqlite3_bind_null(s, i) : sqlite3_bind_int64(s, i, v);
}

/* Copies text column i into *dst (NULL stays NULL). Sets *oom on failure. */
static void
col_text(sqlite3_stmt *s, int i, char **dst, int *oom)
{
	const unsigned char *t = sqlite3_column_text(s, i);

	*dst = NULL;
	if (!t)
		return;
	*dst = strdup((const char *)t);
	if (!*dst)
		*oom = 1;
}

/* Fills *r from a row of SRC_COLS. Returns 0, -1 out of memory. */
static int
read_source(sqlite3_stmt *s, struct fr_store_source *r)
{
	int oom = 0;
	int n;

	memset(r, 0, sizeof(*r));
	r->id = sqlite3_column_int64(s, 0);
	col_text(s, 1, &r->url, &oom);
	col_text(s, 2, &r->kind, &oom);
	col_text(s, 3, &r->grp, &oom);
	col_text(s, 4, &r->host, &oom);
	col_text(s, 5, &r->title, &oom);
	col_text(s, 6, &r->site_url, &oom);
	col_text(s, 7, &r->category, &oom);
	col_text(s, 8, &r->etag, &oom);
	col_text(s, 9, &r->last_modified, &oom);
	r->added_s = sqlite3_column_double(s, 10);
	r->last_fetch_s = sqlite3_column_double(s, 11);
	r->last_ok_s = sqlite3_column_double(s, 12);
	r->next_due_s = sqlite3_column_double(s, 13);
	r->last_status = (long)sqlite3_column_int64(s, 14);
	col_text(s, 15, &r->last_error, &oom);
	r->last_error_s = sqlite3_column_double(s, 16);
	r->err_count = sqlite3_column_int(s, 17);
	r->backoff_until_s = sqlite3_column_double(s, 18);
	r->hint_ttl_s = sqlite3_column_double(s, 19);
	r->hint_period_s = sqlite3_column_double(s, 20);
	r->hint_max_age_s = sqlite3_column_double(s, 21);
	col_text(s, 22, &r->redirect_url, &oom);
	r->redirect_hits = sqlite3_column_int(s, 23);
	col_text(s, 24, &r->policy, &oom);
	n = sqlite3_column_bytes(s, 25);
	if (n > 0) {
		const void *b = sqlite3_column_blob(s, 25);

		r->policy_state = malloc((size_t)n);
		if (r->policy_state && b) {
			memcpy(r->policy_state, b, (size_t)n);
			r->policy_state_len = (size_t)n;
		} else {
			oom = 1;
		}
	}
	r->rate_per_day = sqlite3_column_double(s, 26);
	r->n_items = sqlite3_column_int64(s, 27);
	r->active = sqlite3_column_int(s, 28);
	n = sqlite3_column_bytes(s, 29);
	if (n > 0) {
		const void *b = sqlite3_column_blob(s, 29);

		r->kind_state = malloc((size_t)n);
		if (r->kind_state && b) {
			memcpy(r->kind_state, b, (size_t)n);
			r->kind_state_len = (size_t)n;
		} else {
			oom = 1;
		}
	}
	return oom ? -1 : 0;
}

/* Binds ?1..?24 and ?27 of SRC_SET and ?25 = id. */
static void
bind_state(sqlite3_stmt *s, const struct fr_store_source *r)
{
	bind_text(s, 1, r->kind);
	bind_text(s, 2, r->grp);
	bind_text(s, 3, r->host ? r->host : "");
	bind_text(s, 4, r->title);
	bind_text(s, 5, r->site_url);
	bind_text(s, 6, r->category);
	bind_text(s, 7, r->etag);
	bind_text(s, 8, r->last_modified);
	bind_time(s, 9, r->last_fetch_s);
	bind_time(s, 10, r->last_ok_s);
	bind_time(s, 11, r->next_due_s);
	sqlite3_bind_int64(s, 12, r->last_status);
	bind_text(s, 13, r->last_error);
	bind_time(s, 14, r->last_error_s);
	sqlite3_bind_int(s, 15, r->err_count);
	bind_time(s, 16, r->backoff_until_s);
	sqlite3_bind_double(s, 17, isnan(r->hint_ttl_s) ? -1 : r->hint_ttl_s);
	sqlite3_bind_double(s, 18, isnan(r->hint_period_s) ? -1 : r->hint_period_s);
	sqlite3_bind_double(s, 19, isnan(r->hint_max_age_s) ? -1 : r->hint_max_age_s);
	bind_text(s, 20, r->redirect_url);
	sqlite3_bind_int(s, 21, r->redirect_hits);
	bind_text(s, 22, r->policy);
	if (r->policy_state && r->policy_state_len)
		sqlite3_bind_blob64(s, 23, r->policy_state, r->policy_state_len, SQLITE_STATIC);
	else
		sqlite3_bind_null(s, 23);
	bind_time(s, 24, r->rate_per_day);
	sqlite3_bind_int64(s, 25, r->id);
	if (r->kind_state && r->kind_state_len)
		sqlite3_bind_blob64(s, 27, r->kind_state, r->kind_state_len, SQLITE_STATIC);
	else
		sqlite3_bind_null(s, 27);
}

/* Looks a source up: 0 found (*id, *active, and *url malloc'd when url is
 * not NULL), 1 not found, -1 error. */
static int
lookup(struct sq *q, enum stmt k, int64_t id, const char *key, int64_t *out_id, int *active,
       char **url, char *err, size_t errlen)
{
	sqlite3_stmt *s = stmt(q, k, err, errlen);
	int rc;

	if (!s)
		return -1;
	if (key)
		bind_text(s, 1, key);
	else
		sqlite3_bind_int64(s, 1, id);
	rc = sqlite3_step(s);
	if (rc == SQLITE_DONE) {
		sqlite3_reset(s);
		return 1;
	}
	if (rc != SQLITE_ROW) {
		dberr(q, err, errlen, "find source");
		sqlite3_reset(s);
		return -1;
	}
	*out_id = sqlite3_column_int64(s, 0);
	if (active)
		*active = sqlite3_column_int(s, 1);
	if (url) {
		int oom = 0;

		col_text(s, 2, url, &oom);
		if (oom) {
			sqlite3_reset(s);
			return fr_errf(err, errlen, "%s: out of memory", q->path);
		}
	}
	sqlite3_reset(s);
	return 0;
}

/* ---- open, migrate, close ---- */

static int
pragma_int(struct sq *q, const char *sql, int *out, char *err, size_t errlen)
{
	sqlite3_stmt *s;
	int rc;

	if (sqlite3_prepare_v2(q->db, sql, -1, &s, NULL) != SQLITE_OK)
		return dberr(q, err, errlen, "read the schema");
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		*out = sqlite3_column_int(s, 0);
	sqlite3_finalize(s);
	if (rc != SQLITE_ROW)
		return dberr(q, err, errlen, "read the schema");
	return 0;
}

static int
exec(struct sq *q, const char *sql, char *err, size_t errlen, const char *what)
{
	char *msg = NULL;

	if (sqlite3_exec(q->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		fr_errf(err, errlen, "%s: %s: %s", q->path, what, msg ? msg : "failed");
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

/* Brings the file to FR_STORE_SCHEMA_VERSION, all steps in one transaction
 * (a crash mid-way leaves the old version). */
static int
migrate(struct sq *q, char *err, size_t errlen)
{
	int version = 0, app = 0, outer;
	char sql[96], what[160];

	if (tx_begin(q, &outer, err, errlen) < 0)
		return -1;
	if (pragma_int(q, "PRAGMA application_id", &app, err, errlen) < 0 ||
	    pragma_int(q, "PRAGMA user_version", &version, err, errlen) < 0)
		goto fail;
	if (app != 0 && app != APP_ID) {
		fr_errf(err, errlen, "%s: not a freshet store (application_id 0x%08x)", q->path,
		        (unsigned)app);
		goto fail;
	}
	if (app == 0 && version != 0) {
		fr_errf(err, errlen, "%s: not a freshet store (user_version %d, no freshet mark)",
		        q->path, version);
		goto fail;
	}
	if (version > FR_STORE_SCHEMA_VERSION) {
		fr_errf(err, errlen,
		        "%s: the store has schema version %d, newer than this freshet's %d: "
		        "use a newer freshet",
		        q->path, version, FR_STORE_SCHEMA_VERSION);
		goto fail;
	}
	for (size_t i = 0; i < fr_store_sqlite_n_migrations; i++) {
		const struct fr_store_migration *m = &fr_store_sqlite_migrations[i];

		if (m->version <= version)
			continue;
		snprintf(what, sizeof(what), "migration to schema version %d (%s)", m->version,
		         m->what);
		if (exec(q, m->sql, err, errlen, what) < 0)
			goto fail;
		snprintf(sql, sizeof(sql), "PRAGMA user_version = %d; PRAGMA application_id = %d",
		         m->version, APP_ID);
		if (exec(q, sql, err, errlen, what) < 0)
			goto fail;
	}
	return tx_end(q, outer, 1, err, errlen);
fail:
	tx_end(q, outer, 0, NULL, 0);
	return -1;
}

static void
sq_close(void *impl)
{
	struct sq *q = impl;

	if (!q)
		return;
	for (int k = 0; k < N_STMT; k++)
		sqlite3_finalize(q->stmt[k]);
	if (q->db)
		sqlite3_close_v2(q->db);
	if (q->lock_fd >= 0) {
		/* Emptied, not removed: unlinking a file another process may be
		 * about to lock would let two runs lock two different files. */
		if (ftruncate(q->lock_fd, 0) != 0) {
			/* the lock goes with the descriptor anyway */
		}
		close(q->lock_fd);
	}
	free(q->path);
	free(q);
}

/* The crawl lock: an flock(2) on PATH.lock held for the handle's life, the
 * holder's pid written in the file. The kernel drops it when its process
 * ends however it ends, so a file left by a killed run blocks nothing. */
static int
crawl_lock(struct sq *q, char *err, size_t errlen)
{
	size_t n = strlen(q->path) + sizeof(".lock");
	char *lp = malloc(n), pid[32];
	int fd, len;

	if (!lp)
		return fr_errf(err, errlen, "%s: out of memory", q->path);
	snprintf(lp, n, "%s.lock", q->path);
	fd = open(lp, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0) {
		fr_errf(err, errlen, "%s: cannot open the crawl lock %s: %s", q->path, lp,
		        strerror(errno));
		free(lp);
		return -1;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
		int e = errno;
		long holder = 0;

		if (e == EWOULDBLOCK) {
			/* The holder writes its pid right after locking: wait a
			 * little for it when the file is still empty. */
			for (int tries = 0; tries < 20 && holder <= 0; tries++) {
				ssize_t got = pread(fd, pid, sizeof(pid) - 1, 0);

				pid[got > 0 ? got : 0] = '\0';
				holder = strtol(pid, NULL, 10);
				if (holder <= 0)
					usleep(10000);
			}
			if (holder > 0)
				fr_errf(err, errlen,
				        "%s: another freshet run (pid %ld) is crawling this store "
				        "(lock %s): one run per SQLite store",
				        q->path, holder, lp);
			else
				fr_errf(err, errlen,
				        "%s: another freshet run is crawling this store (lock %s): "
				        "one run per SQLite store",
				        q->path, lp);
		} else {
			fr_errf(err, errlen, "%s: cannot lock %s: %s", q->path, lp, strerror(e));
		}
		close(fd);
		free(lp);
		return -1;
	}
	free(lp);
	len = snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
	if (ftruncate(fd, 0) != 0 || pwrite(fd, pid, (size_t)len, 0) != len) {
		/* the lock holds without the pid; others then say "another run" */
	}
	q->lock_fd = fd;
	return 0;
}

/* path as an SQLite URI file name ("file:" and the path, percent-encoded
 * but for unreserved characters and '/'), followed by query. Malloc'd. */
static char *
uri_of(const char *path, const char *query)
{
	size_t n = strlen(path), at = 0;
	char *u = malloc(5 + 3 * n + strlen(query) + 1);

	if (!u)
		return NULL;
	memcpy(u, "file:", 5);
	at = 5;
	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		    strchr("/-._~", *p)) {
			u[at++] = (char)*p;
		} else {
			at += (size_t)snprintf(u + at, 4, "%%%02X", *p);
		}
	}
	memcpy(u + at, query, strlen(query) + 1);
	return u;
}

/* Read-only (FR_STORE_READ_ONLY): opens an existing file without writing
 * it or creating anything. Returns 1 opened and up to date, 0 when the
 * schema is older (the caller opens it for writing to migrate), -1 err. */
static int
open_ro(struct sq *q, char *err, size_t errlen)
{
	struct stat sb;
	int version = 0, app = 0, rc;
	char *wal, *uri;

	if (stat(q->path, &sb) != 0)
		return fr_errf(err, errlen, "%s: no such store (%s)", q->path, strerror(errno));
	if (S_ISDIR(sb.st_mode))
		return fr_errf(err, errlen, "%s: no such store (a directory)", q->path);
	if (sqlite3_open_v2(q->path, &q->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL) !=
	    SQLITE_OK)
		goto cannot;
	sqlite3_extended_result_codes(q->db, 1);
	sqlite3_busy_timeout(q->db, 5000);
	rc = pragma_int(q, "PRAGMA application_id", &app, err, errlen);
	if (rc < 0 && ((sqlite3_extended_errcode(q->db) & 0xff) == SQLITE_CANTOPEN ||
	               (sqlite3_extended_errcode(q->db) & 0xff) == SQLITE_READONLY)) {
		/* A WAL store in a directory we cannot write: SQLite cannot make
		 * its -shm. With no -wal beside the file (nobody is writing it:
		 * a writer would have made one), the file alone holds every
		 * commit and may be read as immutable, without locks. */
		wal = malloc(strlen(q->path) + 5);
		if (!wal)
			return fr_errf(err, errlen, "%s: out of memory", q->path);
		snprintf(wal, strlen(q->path) + 5, "%s-wal", q->path);
		rc = access(wal, F_OK);
		free(wal);
		if (rc == 0)
			return fr_errf(err, errlen,
			               "%s: cannot read: its -wal file is there but its directory "
			               "cannot be written (SQLite needs a -shm file beside it)",
			               q->path);
		sqlite3_close_v2(q->db);
		q->db = NULL;
		uri = uri_of(q->path, "?immutable=1");
		if (!uri)
			return fr_errf(err, errlen, "%s: out of memory", q->path);
		rc = sqlite3_open_v2(uri, &q->db,
		                     SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI,
		                     NULL);
		free(uri);
		if (rc != SQLITE_OK)
			goto cannot;
		sqlite3_extended_result_codes(q->db, 1);
		rc = pragma_int(q, "PRAGMA application_id", &app, err, errlen);
	}
	if (rc < 0 || pragma_int(q, "PRAGMA user_version", &version, err, errlen) < 0)
		return -1;
	if (app != 0 && app != APP_ID)
		return fr_errf(err, errlen, "%s: not a freshet store (application_id 0x%08x)",
		               q->path, (unsigned)app);
	if (app == 0)
		return version ? fr_errf(err, errlen,
		                         "%s: not a freshet store (user_version %d, no freshet mark)",
		                         q->path, version)
		               : fr_errf(err, errlen, "%s: not a freshet store (no freshet schema)",
		                         q->path);
	if (version > FR_STORE_SCHEMA_VERSION)
		return fr_errf(err, errlen,
		               "%s: the store has schema version %d, newer than this freshet's %d: "
		               "use a newer freshet",
		               q->path, version, FR_STORE_SCHEMA_VERSION);
	if (exec(q, "PRAGMA query_only = 1", err, errlen, "settings") < 0)
		return -1;
	return version == FR_STORE_SCHEMA_VERSION ? 1 : 0;
cannot:
	if (q->db)
		return dberr(q, err, errlen, "cannot open");
	return fr_errf(err, errlen, "%s: cannot open: out of memory", q->path);
}

static void *
sq_open(const char *path, unsigned flags, struct fr_store_tx *tx, char *err, size_t errlen)
{
	struct sq *q = calloc(1, sizeof(*q));
	sqlite3_stmt *s = NULL;
	const char *mode;
	int memory = strcmp(path, ":memory:") == 0;

	if (q) {
		q->lock_fd = -1;
		q->path = strdup(path);
		q->tx = tx;
	}
	if (!q || !q->path) {
		free(q);
		fr_errf(err, errlen, "%s: out of memory", path);
		return NULL;
	}
	tx->name = q->path;
	if ((flags & FR_STORE_READ_ONLY) && !memory) {
		int rc = open_ro(q, err, errlen);

		if (rc > 0)
			return q;
		if (rc < 0)
			goto fail;
		/* An older schema: migrated by a normal open below. */
		sqlite3_close_v2(q->db);
		q->db = NULL;
	}
	if ((flags & FR_STORE_CRAWLER) && !memory && crawl_lock(q, err, errlen) < 0)
		goto fail;
	/* NOMUTEX: a handle is used by one thread at a time. */
	if (sqlite3_open_v2(path, &q->db,
	                    SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
	                    NULL) != SQLITE_OK) {
		if (q->db)
			dberr(q, err, errlen, "cannot open");
		else
			fr_errf(err, errlen, "%s: cannot open: out of memory", path);
		goto fail;
	}
	sqlite3_extended_result_codes(q->db, 1);
	sqlite3_busy_timeout(q->db, 5000);
	/* The first read of the file: "file is not a database" shows here. */
	if (sqlite3_prepare_v2(q->db, "PRAGMA journal_mode = WAL", -1, &s, NULL) != SQLITE_OK ||
	    sqlite3_step(s) != SQLITE_ROW) {
		dberr(q, err, errlen, "cannot use");
		goto fail;
	}
	mode = (const char *)sqlite3_column_text(s, 0);
	if (!mode || (strcmp(mode, "wal") != 0 && !(memory && strcmp(mode, "memory") == 0))) {
		fr_errf(err, errlen, "%s: cannot switch to WAL mode (journal mode is %s)", path,
		        mode ? mode : "unknown");
		goto fail;
	}
	sqlite3_finalize(s);
	s = NULL;
	/* In WAL, NORMAL syncs at checkpoints, not at each commit: a process
	 * crash loses nothing committed; a power loss may lose the last
	 * commits, never the file's consistency. */
	/* temp_store: statement journals (each INSERT or UPDATE in a
	 * transaction of many keeps its pages' old images, to undo it alone)
	 * stay in memory; in a file, a group commit wrote 7 pages per fetch
	 * to /var/tmp. */
	if (exec(q,
	         "PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; "
	         "PRAGMA temp_store = MEMORY",
	         err, errlen, "settings") < 0)
		goto fail;
	if (migrate(q, err, errlen) < 0)
		goto fail;
	return q;
fail:
	sqlite3_finalize(s);
	sq_close(q);
	return NULL;
}

/* ---- sources ---- */

static int
sq_add_source(void *impl, const char *url, const char *url_key, const char *host, const char *kind,
              const char *grp, const char *title, const char *site_url, double now_s, int64_t *id,
              int *existed, char *err, size_t errlen)
{
	struct sq *q = impl;
	sqlite3_stmt *s;
	int outer, active = 1, rc;

	if (tx_begin(q, &outer, err, errlen) < 0)
		return -1;
	s = stmt(q, S_ADD, err, errlen);
	if (!s)
		goto fail;
	bind_text(s, 1, url);
	bind_text(s, 2, url_key);
	bind_text(s, 3, host);
	bind_text(s, 4, kind);
	bind_text(s, 5, grp);
	bind_text(s, 6, title);
	bind_text(s, 7, site_url);
	bind_time(s, 8, now_s);
	rc = sqlite3_step(s);
	sqlite3_reset(s);
	if (rc != SQLITE_DONE) {
		fr_errf(err, errlen, "%s: add '%s': %s", q->path, url, sqlite3_errmsg(q->db));
		goto fail;
	}
	*existed = sqlite3_changes(q->db) == 0;
	if (lookup(q, S_FIND_KEY, 0, url_key, id, &active, NULL, err, errlen) != 0) {
		fr_errf(err, errlen, "%s: add '%s': the row vanished", q->path, url);
		goto fail;
	}
	if (*existed && !active) {
		s = stmt(q, S_REACTIVATE, err, errlen);
		if (!s)
			goto fail;
		sqlite3_bind_int64(s, 1, *id);
		if (sqlite3_step(s) != SQLITE_DONE) {
			dberr(q, err, errlen, "re-activate");
			sqlite3_reset(s);
			goto fail;
		}
		sqlite3_reset(s);
	}
	return tx_end(q, outer, 1, err, errlen);
fail:
	tx_end(q, outer, 0, NULL, 0);
	*id = 0;
	*existed = 0;
	return -1;
}

static int
sq_find_source(void *impl, int64_t id, const char *url_key, int64_t *out)
{
	struct sq *q = impl;
	char e[8];

	return lookup(q, url_key ? S_FIND_KEY : S_FIND_ID, id, url_key, out, NULL, NULL, e,
	              sizeof(e));
}

static int
sq_remove_source(void *impl, int64_t id, int purge, char *err, size_t errlen)
{
	static const enum stmt purge_steps[] = {S_DEL_ITEMS, S_DEL_LOG, S_DEL_SOURCE};
	struct sq *q = impl;
	int64_t found;
	int outer, rc;

	if (tx_begin(q, &outer, err, errlen) < 0)
		return -1;
	rc = lookup(q, S_FIND_ID, id, NULL, &found, NULL, NULL, err, errlen);
	if (rc != 0) {
		if (rc > 0)
			fr_errf(err, errlen, "no source %lld", (long long)id);
		goto fail;
	}
	for (size_t k = 0; k < (purge ? 3u : 1u); k++) {
		sqlite3_stmt *s = stmt(q, purge ? purge_steps[k] : S_DEACTIVATE, err, errlen);

		if (!s)
			goto fail;
		sqlite3_bind_int64(s, 1, id);
		if (sqlite3_step(s) != SQLITE_DONE) {
			dberr(q, err, errlen, "remove");
			sqlite3_reset(s);
			goto fail;
		}
		sqlite3_reset(s);
	}
	return tx_end(q, outer, 1, err, errlen);
fail:
	tx_end(q, outer, 0, NULL, 0);
	return -1;
}

static int
sq_get_source(void *impl, int64_t id, struct fr_store_source *out, char *err, size_t errlen)
{
	struct sq *q = impl;
	sqlite3_stmt *s = stmt(q, S_GET, err, errlen);
	int rc;

	if (!s)
		return -1;
	sqlite3_bind_int64(s, 1, id);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		rc = read_source(s, out);
		sqlite3_reset(s);
		if (rc < 0) {
			fr_store_source_clear(out);
			return fr_errf(err, errlen, "%s: out of memory", q->path);
		}
		return 0;
	}
	if (rc == SQLITE_DONE)
		fr_errf(err, errlen, "no source %lld", (long long)id);
	else
		dberr(q, err, errlen, "read source");
	sqlite3_reset(s);
	return -1;
}

static int
write_state(struct sq *q, enum stmt k, const struct fr_store_source *r, char *err, size_t errlen)
{
	sqlite3_stmt *s = stmt(q, k, err, errlen);

	if (!s)
		return -1;
	bind_state(s, r);
	if (k == S_WRITEBACK)
		sqlite3_bind_int64(s, 26, r->n_items);
	if (sqlite3_step(s) != SQLITE_DONE) {
		fr_errf(err, errlen, "source %lld: %s", (long long)r->id, sqlite3_errmsg(q->db));
		sqlite3_reset(s);
		return -1;
	}
	sqlite3_reset(s);
	if (sqlite3_changes(q->db) != 1)
		return fr_errf(err, errlen, "no source %lld", (long long)r->id);
	return 0;
}

static int
sq_put_source(void *impl, const struct fr_store_source *r, char *err, size_t errlen)
{
	return write_state(impl, S_PUT, r, err, errlen);
}

static int
sq_load_sources(void *impl, int all, struct fr_store_source **out, size_t *n, char *err,
                size_t errlen)
{
	struct sq *q = impl;
	sqlite3_stmt *s = stmt(q, all ? S_LOAD_ALL : S_LOAD_ACTIVE, err, errlen);
	struct fr_store_source *v = NULL;
	size_t len = 0, cap = 0;
	int rc;

	if (!s)
		return -1;
	for (;;) {
		rc = sqlite3_step(s);
		if (rc != SQLITE_ROW)
			break;
		if (len == cap) {
			size_t ncap = cap ? cap * 2 : 64;
			struct fr_store_source *nv = realloc(v, ncap * sizeof(*v));

			if (!nv)
				goto oom;
			v = nv;
			cap = ncap;
		}
		if (read_source(s, &v[len]) < 0) {
			fr_store_source_clear(&v[len]);
			goto oom;
		}
		len++;
	}
	sqlite3_reset(s);
	if (rc != SQLITE_DONE) {
		fr_store_sources_free(v, len);
		return dberr(q, err, errlen, "load sources");
	}
	*out = v;
	*n = len;
	return 0;
oom:
	sqlite3_reset(s);
	fr_store_sources_free(v, len);
	return fr_errf(err, errlen, "%s: out of memory", q->path);
}

/* ---- one fetch ---- */

/* Binds ?3..?12 (the content columns), ?14 (hash) and ?15, ?16 (the
 * languages, fr_store_item_langs: detected here, for an item written) of
 * item it of f. */
static void
bind_item(sqlite3_stmt *s, const struct fr_store_fetch *f, const struct fr_store_item *it,
          uint64_t hash)
{
	char code[16];
	const char *declared, *detected;

	fr_store_item_langs(f, it, code, sizeof(code), &declared, &detected);
	/* copies: code lives for this call only */
	sqlite3_bind_text(s, 15, declared, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(s, 16, detected, -1, SQLITE_TRANSIENT);
	bind_text(s, 3, it->url);
	bind_text(s, 4, it->title);
	bind_text(s, 5, it->author);
	bind_text(s, 6, it->summary);
	bind_text(s, 7, it->content);
	bind_text(s, 8, it->enclosure_url);
	bind_text(s, 9, it->enclosure_type);
	if (it->enclosure_length >= 0)
		sqlite3_bind_int64(s, 10, it->enclosure_length);
	else
		sqlite3_bind_null(s, 10);
	bind_opt_i64(s, 11, it->published_s, INT64_MIN);
	bind_opt_i64(s, 12, it->updated_s, INT64_MIN);
	sqlite3_bind_int64(s, 14, (int64_t)hash);
}

/* Inserts or updates item i. *what: 0 unchanged, 1 new, 2 updated. fresh:
 * the source had no item before this fetch, so every identity is new but
 * for one repeated within the feed (the insert then does nothing: the first
 * occurrence wins), and the lookup is skipped. */
static int
put_item(struct sq *q, const struct fr_store_fetch *f, size_t i, const struct fr_store_item_key *k,
         int fresh, int *what, char *err, size_t errlen)
{
	const struct fr_store_item *it = &f->items[i];
	sqlite3_stmt *s;
	int64_t rowid;
	uint64_t hash;
	double seen, changed;
	int rc;

	*what = 0;
	if (fresh) {
		if (!(s = stmt(q, S_ITEM_ADD, err, errlen)))
			return -1;
		sqlite3_bind_int64(s, 1, f->source_id);
		bind_text(s, 2, k->key);
		bind_item(s, f, it, k->hash);
		sqlite3_bind_double(s, 13, f->time_s);
		rc = sqlite3_step(s);
		sqlite3_reset(s);
		if (rc != SQLITE_DONE)
			return fr_errf(err, errlen, "source %lld: item '%s': %s",
			               (long long)f->source_id, k->key, sqlite3_errmsg(q->db));
		*what = sqlite3_changes(q->db) > 0;
		return 0;
	}
	if (!(s = stmt(q, S_ITEM_FIND, err, errlen)))
		return -1;
	sqlite3_bind_int64(s, 1, f->source_id);
	bind_text(s, 2, k->key);
	rc = sqlite3_step(s);
	if (rc == SQLITE_DONE) {
		sqlite3_reset(s);
		s = stmt(q, S_ITEM_INSERT, err, errlen);
		if (!s)
			return -1;
		sqlite3_bind_int64(s, 1, f->source_id);
		bind_text(s, 2, k->key);
		bind_item(s, f, it, k->hash);
		sqlite3_bind_double(s, 13, f->time_s);
		*what = 1;
	} else if (rc == SQLITE_ROW) {
		rowid = sqlite3_column_int64(s, 0);
		hash = (uint64_t)sqlite3_column_int64(s, 1);
		seen = sqlite3_column_double(s, 2);
		changed =
		    sqlite3_column_type(s, 3) == SQLITE_NULL ? NAN : sqlite3_column_double(s, 3);
		sqlite3_reset(s);
		/* Unchanged, or already written by this very fetch (an identity
		 * repeated within one feed: the first occurrence wins). */
		if (hash == k->hash || seen == f->time_s || changed == f->time_s)
			return 0;
		s = stmt(q, S_ITEM_UPDATE, err, errlen);
		if (!s)
			return -1;
		sqlite3_bind_int64(s, 1, rowid);
		bind_item(s, f, it, k->hash);
		if (it->updated_s == INT64_MIN)
			sqlite3_bind_int64(s, 12, (int64_t)floor(f->time_s));
		sqlite3_bind_double(s, 13, f->time_s);
		*what = 2;
	} else {
		sqlite3_reset(s);
		return fr_errf(err, errlen, "source %lld: item '%s': %s", (long long)f->source_id,
		               k->key, sqlite3_errmsg(q->db));
	}
	rc = sqlite3_step(s);
	sqlite3_reset(s);
	if (rc != SQLITE_DONE)
		return fr_errf(err, errlen, "source %lld: item '%s': %s", (long long)f->source_id,
		               k->key, sqlite3_errmsg(q->db));
	return 0;
}

static int
set_str(char **dst, const char *v)
{
	char *c = NULL;

	if (v) {
		c = strdup(v);
		if (!c)
			return -1;
	}
	free(*dst);
	*dst = c;
	return 0;
}

/* A url changed by learn: moves the source, unless another source has the
 * address already (then the url is set back to stored). */
static int
move_if_changed(struct sq *q, struct fr_store_source *r, const char *stored, char *err,
                size_t errlen)
{
	char *key = NULL, *host = NULL;
	sqlite3_stmt *s;
	int64_t other;
	int rc = -1, found;

	if (!r->url || !*r->url)
		return set_str(&r->url, stored) < 0 ? fr_errf(err, errlen, "out of memory") : 0;
	if (strcmp(r->url, stored) == 0)
		return 0;
	key = fr_store_url_key(r->url);
	host = fr_store_url_host(r->url);
	if (!key || !host) {
		fr_errf(err, errlen, "out of memory");
		goto out;
	}
	found = lookup(q, S_FIND_KEY, 0, key, &other, NULL, NULL, err, errlen);
	if (found < 0)
		goto out;
	if (found == 0 && other != r->id) {
		if (set_str(&r->url, stored) < 0) {
			fr_errf(err, errlen, "out of memory");
			goto out;
		}
		rc = 0;
		goto out;
	}
	s = stmt(q, S_MOVE, err, errlen);
	if (!s)
		goto out;
	sqlite3_bind_int64(s, 1, r->id);
	bind_text(s, 2, r->url);
	bind_text(s, 3, key);
	bind_text(s, 4, host);
	if (sqlite3_step(s) != SQLITE_DONE) {
		fr_errf(err, errlen, "source %lld: move to '%s': %s", (long long)r->id, r->url,
		        sqlite3_errmsg(q->db));
		sqlite3_reset(s);
		goto out;
	}
	sqlite3_reset(s);
	if (set_str(&r->host, host) < 0) {
		fr_errf(err, errlen, "out of memory");
		goto out;
	}
	rc = 0;
out:
	free(key);
	free(host);
	return rc;
}

static int
append_log(struct sq *q, const struct fr_store_fetch *f, size_t nn, size_t nu, char *err,
           size_t errlen)
{
	sqlite3_stmt *s = stmt(q, S_LOG_INSERT, err, errlen);
	int rc;

	if (!s)
		return -1;
	sqlite3_bind_int64(s, 1, f->source_id);
	bind_time(s, 2, f->time_s);
	bind_time(s, 3, f->duration_s);
	sqlite3_bind_int64(s, 4, f->status);
	bind_text(s, 5, f->outcome);
	sqlite3_bind_int64(s, 6, f->bytes);
	sqlite3_bind_int64(s, 7, (int64_t)f->n_items);
	sqlite3_bind_int64(s, 8, (int64_t)nn);
	sqlite3_bind_int64(s, 9, (int64_t)nu);
	bind_text(s, 10, f->error);
	rc = sqlite3_step(s);
	sqlite3_reset(s);
	if (rc != SQLITE_DONE)
		return fr_errf(err, errlen, "source %lld: fetch log: %s", (long long)f->source_id,
		               sqlite3_errmsg(q->db));
	return 0;
}

/* The stored address and item count of source id: 0, 1 when there is no
 * such source, -1 on error. */
static int
fetch_source(struct sq *q, int64_t id, char **url, int64_t *n_items, char *err, size_t errlen)
{
	sqlite3_stmt *s = stmt(q, S_FETCH_SRC, err, errlen);
	int rc, oom = 0;

	if (!s)
		return -1;
	sqlite3_bind_int64(s, 1, id);
	rc = sqlite3_step(s);
	if (rc == SQLITE_DONE) {
		sqlite3_reset(s);
		return 1;
	}
	if (rc != SQLITE_ROW) {
		dberr(q, err, errlen, "find source");
		sqlite3_reset(s);
		return -1;
	}
	col_text(s, 0, url, &oom);
	*n_items = sqlite3_column_int64(s, 1);
	sqlite3_reset(s);
	return oom ? fr_errf(err, errlen, "%s: out of memory", q->path) : 0;
}

static int
sq_commit_fetch(void *impl, const struct fr_store_fetch *f, const struct fr_store_item_key *keys,
                uint8_t *is_new,
                void (*learn)(void *, const uint8_t *, size_t, struct fr_store_source *), void *arg,
                struct fr_store_source *src, size_t *n_new, size_t *n_updated, char *err,
                size_t errlen)
{
	struct sq *q = impl;
	struct fr_store_source own;
	char *stored = NULL;
	size_t nn = 0, nu = 0;
	int64_t had_items;
	int outer, rc;

	memset(&own, 0, sizeof(own));
	if (q->tx->aborted)
		return fr_errf(err, errlen, "%s: the group transaction was rolled back", q->path);
	/* In a group: no savepoint of its own (its sub-journal would copy every
	 * page the fetch touches); a failure rolls the whole group back. */
	if (q->tx->group)
		outer = -1;
	else if (tx_begin(q, &outer, err, errlen) < 0)
		return -1;
	rc = fetch_source(q, f->source_id, &stored, &had_items, err, errlen);
	if (rc != 0) {
		if (rc > 0)
			fr_errf(err, errlen, "source %lld is not in the store",
			        (long long)f->source_id);
		goto fail;
	}
	if (!src) {
		if (sq_get_source(q, f->source_id, &own, err, errlen) < 0)
			goto fail;
		src = &own;
	}
	for (size_t i = 0; i < f->n_items; i++) {
		int what;

		if (put_item(q, f, i, &keys[i], had_items == 0, &what, err, errlen) < 0)
			goto fail;
		is_new[i] = what == 1;
		nn += what == 1;
		nu += what == 2;
	}
	src->n_items += (int64_t)nn;
	src->last_fetch_s = f->time_s;
	src->last_status = f->status;
	if (!f->error) {
		src->last_ok_s = f->time_s;
	} else {
		if (set_str(&src->last_error, f->error) < 0) {
			fr_errf(err, errlen, "out of memory");
			goto fail;
		}
		src->last_error_s = f->time_s;
	}
	if (learn)
		learn(arg, is_new, nn, src);
	else
		src->err_count = f->error ? src->err_count + 1 : 0;
	if (move_if_changed(q, src, stored, err, errlen) < 0 ||
	    write_state(q, S_WRITEBACK, src, err, errlen) < 0 ||
	    append_log(q, f, nn, nu, err, errlen) < 0)
		goto fail;
	if (outer >= 0 && tx_end(q, outer, 1, err, errlen) < 0)
		goto fail_done;
	*n_new = nn;
	*n_updated = nu;
	free(stored);
	fr_store_source_clear(&own);
	return 0;
fail:
	if (outer >= 0) {
		tx_end(q, outer, 0, NULL, 0);
	} else {
		char e2[8];

		if (!sqlite3_get_autocommit(q->db))
			run(q, S_ROLLBACK, e2, sizeof(e2), "rollback");
		q->tx->aborted = 1;
	}
fail_done:
	free(stored);
	fr_store_source_clear(&own);
	return -1;
}

/* ---- reading items ---- */

static int
sq_each_item(void *impl, const struct fr_store_item_query *qy,
             int (*each)(void *, const struct fr_store_item_row *), void *arg, char *err,
             size_t errlen)
{
	struct sq *q = impl;
	double since_s = qy->since_s;
	int64_t source_id = qy->source_id;
	size_t limit = qy->limit;
	char sql[768];
	sqlite3_stmt *s;
	int rc;

	/* Prepared per call: a callback may itself read the store. */
	snprintf(sql, sizeof(sql),
	         "SELECT i.id, i.source_id, s.url, i.ident, i.url, i.title, i.author, i.summary, "
	         "i.content, i.enclosure_url, i.enclosure_type, i.enclosure_length, "
	         "i.published_s, i.updated_s, i.first_seen_s, i.seq, i.lang, i.lang_detected "
	         "FROM items i JOIN sources s ON s.id = i.source_id "
	         "WHERE i.seq > ?4 AND %s AND %s AND %s ORDER BY i.seq LIMIT ?3",
	         since_s != 0 ? "i.first_seen_s >= ?1" : "?1 IS NULL",
	         source_id != 0 ? "i.source_id = ?2" : "?2 IS NULL",
	         /* LIKE ignores ASCII case; the tag holds no '%' or '_'
	          * (fr_store_items) */
	         qy->lang ? "(coalesce(i.lang_detected, i.lang) LIKE ?5 OR "
	                    "coalesce(i.lang_detected, i.lang) LIKE ?5 || '-%')"
	                  : "?5 IS NULL");
	if (sqlite3_prepare_v2(q->db, sql, -1, &s, NULL) != SQLITE_OK)
		return dberr(q, err, errlen, "read items");
	if (since_s != 0)
		sqlite3_bind_double(s, 1, since_s);
	if (source_id != 0)
		sqlite3_bind_int64(s, 2, source_id);
	sqlite3_bind_int64(s, 3, limit ? (int64_t)limit : -1);
	sqlite3_bind_int64(s, 4, qy->after_seq);
	bind_text(s, 5, qy->lang);
	for (;;) {
		rc = sqlite3_step(s);
		if (rc != SQLITE_ROW)
			break;
		struct fr_store_item_row r;

		r.rowid = sqlite3_column_int64(s, 0);
		r.source_id = sqlite3_column_int64(s, 1);
		r.source_url = (const char *)sqlite3_column_text(s, 2);
		r.it.id = (const char *)sqlite3_column_text(s, 3);
		r.it.url = (const char *)sqlite3_column_text(s, 4);
		r.it.title = (const char *)sqlite3_column_text(s, 5);
		r.it.author = (const char *)sqlite3_column_text(s, 6);
		r.it.summary = (const char *)sqlite3_column_text(s, 7);
		r.it.content = (const char *)sqlite3_column_text(s, 8);
		r.it.enclosure_url = (const char *)sqlite3_column_text(s, 9);
		r.it.enclosure_type = (const char *)sqlite3_column_text(s, 10);
		r.it.enclosure_length =
		    sqlite3_column_type(s, 11) == SQLITE_NULL ? -1 : sqlite3_column_int64(s, 11);
		r.it.published_s = sqlite3_column_type(s, 12) == SQLITE_NULL
		                       ? INT64_MIN
		                       : sqlite3_column_int64(s, 12);
		r.it.updated_s = sqlite3_column_type(s, 13) == SQLITE_NULL
		                     ? INT64_MIN
		                     : sqlite3_column_int64(s, 13);
		r.first_seen_s = sqlite3_column_double(s, 14);
		r.seq = sqlite3_column_int64(s, 15);
		r.it.lang = (const char *)sqlite3_column_text(s, 16);
		r.it.lang_detected = (const char *)sqlite3_column_text(s, 17);
		if (each(arg, &r) != 0) {
			rc = SQLITE_DONE;
			break;
		}
	}
	if (rc != SQLITE_DONE) {
		dberr(q, err, errlen, "read items");
		sqlite3_finalize(s);
		return -1;
	}
	sqlite3_finalize(s);
	return 0;
}

static int
sq_last_seq(void *impl, int64_t *seq, char *err, size_t errlen)
{
	struct sq *q = impl;
	sqlite3_stmt *s;
	int rc;

	if (sqlite3_prepare_v2(q->db, "SELECT last FROM item_seq", -1, &s, NULL) != SQLITE_OK)
		return dberr(q, err, errlen, "read items");
	rc = sqlite3_step(s);
	*seq = rc == SQLITE_ROW ? sqlite3_column_int64(s, 0) : 0;
	sqlite3_finalize(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return dberr(q, err, errlen, "read items");
	return 0;
}

/* ---- meta, transactions, stats, check ---- */

static int
sq_meta_get(void *impl, const char *key, void **buf, size_t *len)
{
	struct sq *q = impl;
	char e[8];
	sqlite3_stmt *s = stmt(q, S_META_GET, e, sizeof(e));
	int rc;

	if (!s)
		return -1;
	bind_text(s, 1, key);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		int n = sqlite3_column_bytes(s, 0);
		const void *b = sqlite3_column_blob(s, 0);

		*buf = malloc(n > 0 ? (size_t)n : 1);
		if (!*buf) {
			sqlite3_reset(s);
			return -1;
		}
		if (n > 0)
			memcpy(*buf, b, (size_t)n);
		*len = (size_t)n;
		rc = SQLITE_DONE;
	}
	sqlite3_reset(s);
	return rc == SQLITE_DONE ? 0 : -1;
}

static int
sq_meta_put(void *impl, const char *key, const void *buf, size_t len, char *err, size_t errlen)
{
	struct sq *q = impl;
	sqlite3_stmt *s = stmt(q, S_META_PUT, err, errlen);
	int rc;

	if (!s)
		return -1;
	bind_text(s, 1, key);
	if (len)
		sqlite3_bind_blob64(s, 2, buf, len, SQLITE_STATIC);
	else
		sqlite3_bind_zeroblob(s, 2, 0);
	rc = sqlite3_step(s);
	sqlite3_reset(s);
	if (rc != SQLITE_DONE)
		return fr_errf(err, errlen, "%s: meta '%s': %s", q->path, key,
		               sqlite3_errmsg(q->db));
	return 0;
}

static int
sq_tx_begin(void *impl, int *outer, char *err, size_t errlen)
{
	return tx_begin(impl, outer, err, errlen);
}

static int
sq_tx_end(void *impl, int outer, int commit, char *err, size_t errlen)
{
	return tx_end(impl, outer, commit, err, errlen);
}

static int
sq_in_tx(void *impl)
{
	struct sq *q = impl;

	return !sqlite3_get_autocommit(q->db);
}

static int
sq_stats(void *impl, struct fr_store_stats *out, char *err, size_t errlen)
{
	struct sq *q = impl;
	sqlite3_stmt *s = stmt(q, S_STATS, err, errlen);
	int rc;

	if (!s)
		return -1;
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		out->n_sources = sqlite3_column_int64(s, 0);
		out->n_active = sqlite3_column_int64(s, 1);
		out->n_items = sqlite3_column_int64(s, 2);
		out->n_fetches = sqlite3_column_int64(s, 3);
	}
	sqlite3_reset(s);
	if (rc != SQLITE_ROW)
		return dberr(q, err, errlen, "stats");
	return pragma_int(q, "PRAGMA user_version", &out->schema_version, err, errlen);
}

static int
sq_checkpoint(void *impl, char *err, size_t errlen)
{
	struct sq *q = impl;
	int rc;

	if (!sqlite3_get_autocommit(q->db))
		return fr_errf(err, errlen, "%s: a checkpoint cannot run inside a transaction",
		               q->path);
	rc = sqlite3_wal_checkpoint_v2(q->db, NULL, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
	if (rc != SQLITE_OK)
		return dberr(q, err, errlen, "checkpoint");
	return 0;
}

static int
sq_check(void *impl, char *err, size_t errlen)
{
	struct sq *q = impl;
	sqlite3_stmt *s;
	int rc, bad = 0;

	if (sqlite3_prepare_v2(q->db, "PRAGMA integrity_check", -1, &s, NULL) != SQLITE_OK)
		return dberr(q, err, errlen, "integrity check");
	rc = sqlite3_step(s);
	if (rc != SQLITE_ROW) {
		dberr(q, err, errlen, "integrity check");
		bad = 1;
	} else {
		const char *t = (const char *)sqlite3_column_text(s, 0);

		if (!t || strcmp(t, "ok") != 0) {
			fr_errf(err, errlen, "%s: integrity check: %s", q->path, t ? t : "?");
			bad = 1;
		}
	}
	sqlite3_finalize(s);
	if (bad)
		return -1;
	if (sqlite3_prepare_v2(q->db, "PRAGMA foreign_key_check", -1, &s, NULL) != SQLITE_OK)
		return dberr(q, err, errlen, "foreign key check");
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		fr_errf(
		    err, errlen, "%s: foreign key check: a row of %s (rowid %lld) points to no %s",
		    q->path, (const char *)sqlite3_column_text(s, 0),
		    (long long)sqlite3_column_int64(s, 1), (const char *)sqlite3_column_text(s, 2));
		bad = 1;
	} else if (rc != SQLITE_DONE) {
		dberr(q, err, errlen, "foreign key check");
		bad = 1;
	}
	sqlite3_finalize(s);
	return bad ? -1 : 0;
}

const struct fr_store_ops fr_store_sqlite = {
    .name = "sqlite",
    .open = sq_open,
    .close = sq_close,
    .add_source = sq_add_source,
    .remove_source = sq_remove_source,
    .find_source = sq_find_source,
    .get_source = sq_get_source,
    .put_source = sq_put_source,
    .load_sources = sq_load_sources,
    .commit_fetch = sq_commit_fetch,
    .each_item = sq_each_item,
    .last_seq = sq_last_seq,
    .meta_get = sq_meta_get,
    .meta_put = sq_meta_put,
    .tx_begin = sq_tx_begin,
    .tx_end = sq_tx_end,
    .in_tx = sq_in_tx,
    .stats = sq_stats,
    .check = sq_check,
    .checkpoint = sq_checkpoint,
    /* No leases: one file on one machine, so store.c grants every claim
     * without reading anything (fr_store_claim). */
    .claim = NULL,
    .release = NULL,
    .workers = NULL,
};
