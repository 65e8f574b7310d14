/* store.h - the crawl's store: sources (address, state, learned policy
 * state), the items found and a fetch log, in one SQLite file (WAL) or a
 * PostgreSQL database that several crawlers share (pg.c). The backends'
 * vtable is private to lib/store (store/backend.h). */
#ifndef FR_STORE_STORE_H
#define FR_STORE_STORE_H

#include <stddef.h>
#include <stdint.h>

struct fr_store;

/* Opens (creating when absent) the store at path and brings its schema up
 * to date (store/schema.h). An SQLite file is opened in WAL mode with a busy
 * timeout of 5 s, so a second process (`freshet items` beside `freshet run`)
 * waits instead of failing; a path starting "postgresql://" or
 * "postgres://" is a libpq URI naming a PostgreSQL database (pg.c), which
 * must exist. Returns 0 and *out (close with fr_store_close), or -1 with err
 * naming the path (a password in it never shown): not a database, a schema
 * newer than this freshet, a server that cannot be reached, a directory
 * that cannot be written... */
int fr_store_open(struct fr_store **out, const char *path, char *err, size_t errlen);

/* Flags for fr_store_open_flags. */
enum {
	/* Reading only (`items`, `sources`, `export`): nothing is created or
	 * written. A path naming no store is an error ("PATH: no such store
	 * (No such file or directory)"), as is an SQLite file or PostgreSQL
	 * database without freshet's schema. An SQLite file that cannot be
	 * written is read; in a directory that cannot be written (no -shm
	 * can be made) it is read as immutable when no -wal file is beside
	 * it (nobody is writing it). A store at an older schema version is
	 * opened for writing once to migrate it. On PostgreSQL every
	 * transaction is READ ONLY. */
	FR_STORE_READ_ONLY = 1,
	/* The crawler (`run`): on SQLite, an exclusive lock on PATH.lock held
	 * until fr_store_close, so a second crawler on the same file is
	 * refused at once, naming the holder's pid ("PATH: another freshet
	 * run (pid N) is crawling this store ..."). The kernel drops the lock
	 * when its process ends, however it ends: a lock file left behind
	 * blocks nothing. PostgreSQL workers share a store (leases): no lock. */
	FR_STORE_CRAWLER = 2,
};
/* fr_store_open with flags (0: as fr_store_open). */
int fr_store_open_flags(struct fr_store **out, const char *path, unsigned flags, char *err,
			size_t errlen);
/* Closes and frees st (NULL is fine). Statements are finalised and the WAL
 * checkpointed by SQLite when the last connection closes; on PostgreSQL the
 * handle's leases are dropped. */
void fr_store_close(struct fr_store *st);

/* path as it may be shown to a user: a postgresql:// or postgres:// URI
 * without its password (the ":secret" of "user:secret@", a "password=..."
 * parameter), anything else as it is. Writes it to buf (cut to len - 1
 * bytes) and returns buf. */
char *fr_store_display_name(const char *path, char *buf, size_t len);

/* One source as stored. Strings and policy_state are malloc'd and owned by
 * the struct (fr_store_source_clear frees them); whoever changes one frees
 * the old value and stores a malloc'd new one (or NULL). */
struct fr_store_source {
	int64_t id;
	char *url, *kind /* "feed" (default) or "forum" */, *grp /* rate-limit group, "default" */, *host, *title, *site_url;
	char *category;                      /* the user's folder (OPML), NULL none */
	char *etag, *last_modified;          /* validators */
	double added_s, last_fetch_s, last_ok_s, next_due_s;   /* Unix seconds, 0 = never */
	long last_status;                    /* HTTP status of the last fetch, 0 none */
	char *last_error; double last_error_s; int err_count;  /* consecutive errors; 0 after a success */
	double backoff_until_s;              /* error backoff: not before this */
	double hint_ttl_s, hint_period_s, hint_max_age_s;      /* publisher hints, -1 absent */
	char *redirect_url; int redirect_hits;                  /* pending permanent redirect, how many fetches it held */
	char *policy; void *policy_state; size_t policy_state_len;   /* learned state: policy name + opaque blob */
	void *kind_state; size_t kind_state_len; /* forums: the SInFo state (forum/sinfo.h), else NULL */
	double rate_per_day;                 /* learned rate, for `sources` */
	int64_t n_items;                     /* items stored (maintained by commit_fetch) */
	int active;                          /* 0 after `remove` (kept for history) */
};
/* Frees what s owns and zeroes it (a zeroed struct may be cleared again). */
void fr_store_source_clear(struct fr_store_source *s);

/* Adds a source. url is normalised by the caller (lib/url/url.h); the store
 * also treats http:// and https:// and one trailing '/' as the same address
 * (its dedupe key), and derives host from url. kind NULL means "feed", grp
 * NULL "default"; title and site_url may be NULL. *id is set; *existed = 1
 * when the address was already there (then nothing changes, except that a
 * removed source is made active again), else 0. Returns 0, or -1 with err
 * set (e.g. url not absolute: "url 'x': not an absolute http(s) URL"). */
int fr_store_add_source(struct fr_store *st, const char *url, const char *kind, const char *grp,
			const char *title, const char *site_url, int64_t *id, int *existed,
			char *err, size_t errlen);
/* Makes a source inactive (kept with its items and fetch log for history;
 * `add` brings it back), or with purge deletes it with its items and fetch
 * log. Returns 0, or -1 with err set ("no source 7"). */
int fr_store_remove_source(struct fr_store *st, int64_t id, int purge, char *err, size_t errlen);
/* Finds a source, active or not, by decimal id ("42") or by address (by
 * its dedupe key, so http/https and a trailing '/' do not matter). Returns
 * 0 and *id, or -1 when there is none (or on a store error). */
int fr_store_find_source(struct fr_store *st, const char *url_or_id, int64_t *id);
/* Loads source id, active or not, into *out (zeroed first; clear it with
 * fr_store_source_clear). On PostgreSQL, inside fr_store_begin the row is
 * locked until that transaction ends (a get, change, put loses no fetch
 * committed meanwhile); inside a group it is read without a lock (a group
 * never waits for a row while holding others). Returns 0, or -1 with err
 * set ("no source 7"). */
int fr_store_get_source(struct fr_store *st, int64_t id, struct fr_store_source *out, char *err,
			size_t errlen);
/* Writes every field of s except id, url, added_s, active and n_items to
 * the row s->id (e.g. a category from OPML, state saved outside a fetch).
 * Returns 0, or -1 with err set (no such source, a constraint broken: an
 * empty kind or group, a negative err_count). */
int fr_store_put_source(struct fr_store *st, const struct fr_store_source *s, char *err,
			size_t errlen);
/* Loads every active source, ordered by id, into a malloc'd array (*out may
 * be NULL when *n is 0). Caller frees with fr_store_sources_free. With
 * fr_store_load_all_sources removed sources are included too. */
int fr_store_load_sources(struct fr_store *st, struct fr_store_source **out, size_t *n,
			  char *err, size_t errlen);
int fr_store_load_all_sources(struct fr_store *st, struct fr_store_source **out, size_t *n,
			      char *err, size_t errlen);
void fr_store_sources_free(struct fr_store_source *s, size_t n);

/* One item of a fetched feed. Borrowed strings; NULL when absent. */
struct fr_store_item {
	const char *id, *url, *title, *author, *summary, *content, *enclosure_url, *enclosure_type;
	int64_t enclosure_length;     /* -1 unknown */
	int64_t published_s, updated_s;   /* INT64_MIN when unknown */
	/* The language the item declares, as a primary subtag ("en"; the
	 * caller normalises: fr_lang_primary), else NULL (then the fetch's
	 * lang is stored). lang_detected: the language read from its text
	 * (BCP 47, "en", "zh-Hant"), else NULL (then the fetch's detect, when
	 * set, is asked). "" is NULL. Read back as stored (NULL: none). */
	const char *lang, *lang_detected;
};
/* One fetch of one source, as the crawl loop saw it. Borrowed. */
struct fr_store_fetch {
	int64_t source_id;
	double time_s, duration_s;
	long status; const char *outcome;  /* "ok", "not-modified", "timeout", "http-error", ... */
	int64_t bytes;
	const char *error;                 /* NULL on success */
	const struct fr_store_item *items; size_t n_items;   /* every item of the fetched feed */
	/* The language the whole feed declares (primary subtag), stored for
	 * items that declare none; NULL: none. */
	const char *lang;
	/* Called for each item the commit inserts or changes (never for an
	 * unchanged one) whose lang_detected is NULL: writes the language
	 * detected from it (BCP 47) to code (len bytes) and returns 1, or
	 * returns 0 (none; NULL stored). NULL: nothing detected. It runs
	 * inside the transaction: CPU only, no store call. */
	int (*detect)(void *arg, const struct fr_store_item *it, char *code, size_t len);
	void *detect_arg;
};

/* Stores one fetch in ONE transaction, so a crash loses either all of it or
 * nothing, and nothing the call acknowledged:
 *  1. src is the source's row as the caller holds it (loaded by
 *     fr_store_load_sources, kept current by earlier calls); NULL: the row
 *     is read from the store inside the transaction.
 *  2. Items are matched by identity within the source: the item's id, else
 *     its url, else a hash of title, summary and content ("hash:<16 hex>"). An
 *     unknown identity is inserted (first_seen = time_s); a known one whose
 *     content (url, title, author, summary, content, enclosure, published,
 *     updated) changed is updated in place: first_seen kept, updated set to
 *     the item's updated time, else to time_s. Unchanged ones are left
 *     alone. A repeated identity within one fetch counts once.
 *  3. The store sets src->n_items (+= new), last_fetch_s = time_s,
 *     last_status = status, and last_ok_s = time_s (no error) or
 *     last_error = error and last_error_s = time_s (error). Then, still
 *     inside the transaction, learn(arg, is_new, n_new, src) runs, where
 *     is_new[i] says whether f->items[i] was new; learn updates the rest of
 *     src in place (validators, err_count, backoff, policy blob, next due,
 *     hints, redirect, rate; see fr_store_source for ownership). With learn
 *     NULL the store itself keeps err_count (0 after a success, +1 after an
 *     error).
 *  4. src is written back (every field fr_store_put_source writes, plus url:
 *     a url changed by learn moves the source, its host and dedupe key
 *     following; when the new address already belongs to another source the
 *     source keeps its address and src->url is set back to it), the fetch
 *     log row is appended, and the transaction commits.
 * If anything fails the transaction is rolled back, *src is restored to what
 * it was on entry, and -1 is returned with err set (e.g. "source 7: CHECK
 * constraint failed: err_count >= 0"). On success returns 0 and sets *n_new
 * and *n_updated (either may be NULL). */
int fr_store_commit_fetch(struct fr_store *st, const struct fr_store_fetch *f,
			  void (*learn)(void *arg, const uint8_t *is_new, size_t n_new,
					struct fr_store_source *src),
			  void *arg, struct fr_store_source *src, size_t *n_new, size_t *n_updated,
			  char *err, size_t errlen);

/* One stored item, lent to fr_store_each_item's callback for the call. */
struct fr_store_item_row {
	int64_t rowid, source_id;
	int64_t seq; /* the item's number: see fr_store_items */
	const char *source_url;
	struct fr_store_item it;   /* it.id is the identity (never NULL) */
	double first_seen_s;
};
/* Calls each for stored items in seq order (fr_store_items):
 * first seen at or after since_s (0: all), of source source_id (0: all), at
 * most limit (0: no limit). each returns 0 to go on, anything else to stop
 * (then fr_store_each_item returns 0). Returns 0, or -1 with err set. */
int fr_store_each_item(struct fr_store *st, double since_s, int64_t source_id, size_t limit,
		       int (*each)(void *arg, const struct fr_store_item_row *r), void *arg,
		       char *err, size_t errlen);

/* Which items fr_store_items reads. Zeroed: all of them. */
struct fr_store_item_query {
	int64_t after_seq; /* items numbered above this (0: from the first) */
	double since_s;    /* first seen at or after this (0: any time) */
	int64_t source_id; /* of this source (0: all) */
	size_t limit;      /* at most this many (0: no limit) */
	/* Items in this language (NULL: any): the detected language, or the
	 * declared one when none was detected, equal to lang or, for a
	 * primary subtag alone ("zh"), having it first ("zh-Hant"); ASCII
	 * case ignored. Letters, digits and '-' only (else an error). */
	const char *lang;
};
/* Every stored item has a number, seq, given when it is stored, that only
 * grows: 1, 2, 3... in the order the items' transactions committed (on
 * PostgreSQL too, with several workers: a reader never sees N+1 while N is
 * uncommitted, so a poller that asks for seq > the last it saw misses
 * nothing and repeats nothing). The new items of one fetch are numbered
 * oldest first: by published time (else updated; unknown first), then in
 * the reverse of the feed's order. An item that changes keeps its number.
 * A purge never lowers the next number. Calls each for the items q asks
 * for, in seq order, as fr_store_each_item. Returns 0, or -1 with err. */
int fr_store_items(struct fr_store *st, const struct fr_store_item_query *q,
		   int (*each)(void *arg, const struct fr_store_item_row *r), void *arg,
		   char *err, size_t errlen);
/* The highest seq committed so far (0: none): a reader that starts from it
 * gets only what is stored after. Returns 0, or -1 with err. */
int fr_store_last_seq(struct fr_store *st, int64_t *seq, char *err, size_t errlen);

/* Small named blobs beside the sources (e.g. a policy's shared learned
 * context). meta_get sets *buf to a malloc'd copy (caller frees) and *len,
 * or *buf = NULL and *len = 0 when key is absent; returns 0, -1 on a store
 * error. meta_put replaces the value (len 0 stores an empty value);
 * returns 0 or -1 with err set. */
int fr_store_meta_get(struct fr_store *st, const char *key, void **buf, size_t *len);
int fr_store_meta_put(struct fr_store *st, const char *key, const void *buf, size_t len,
		      char *err, size_t errlen);

/* Groups the calls between begin and end(commit = 1) in one transaction
 * (bulk `add`: one commit instead of one per source); end(commit = 0)
 * rolls them back. Calls inside nest as savepoints. Return 0 or -1. */
int fr_store_begin(struct fr_store *st, char *err, size_t errlen);
int fr_store_end(struct fr_store *st, int commit, char *err, size_t errlen);

/* Group commit (the crawl loop's): the fr_store_commit_fetch calls between
 * group_begin and group_end(commit = 1) share one transaction, and none of
 * them is stored until group_end commits it: a crash before loses them
 * all, never a part of one. Unlike calls inside fr_store_begin, a fetch in
 * a group gets no savepoint of its own (it would copy every page the fetch
 * touches), so when one fails the whole group is rolled back at once:
 * that call restores its own *src as usual, but the rows of the group's
 * earlier fetches as the caller holds them are then ahead of the store
 * (the caller must not write them back as they are; the crawl loop stops).
 * Further commit_fetch calls fail until group_end, which then returns -1
 * ("rolled back") for commit = 1, 0 for commit = 0. group_begin fails
 * inside another transaction or group. Return 0 or -1 with err set. */
int fr_store_group_begin(struct fr_store *st, char *err, size_t errlen);
int fr_store_group_end(struct fr_store *st, int commit, char *err, size_t errlen);

/* Leases: several workers (crawl processes, on one machine or several)
 * sharing one store split the sources between them. A worker claims a
 * source just before fetching it; while its lease runs, other workers'
 * claims fail and they leave the source alone.
 *
 * fr_store_claim claims source_id for worker (a name unique among the
 * workers; NULL: the handle's own, host/pid/connection) until until_s, now
 * being now_s (the caller's clock: a lease that ran out by now_s, its holder
 * killed, may be taken); claiming a lease one holds renews it. Returns:
 *  0  granted; *last_fetch_s is the stored row's last fetch: later than the
 *     caller's copy of the row, another worker fetched the source since
 *     (reload the row). -1 when the backend has no leases (SQLite: one
 *     file on one machine, every claim granted, nothing read);
 *  1  another worker's lease runs: *held_until_s is its end (about: the
 *     holder may drop it sooner);
 * -1  err set (no such source, the server gone).
 * Either out pointer may be NULL. A lease ends with the commit of the
 * source's fetch by the same handle (once the fetch's own transaction or
 * group has committed, so the next claimer sees the fetch), with fr_store_release (the
 * source is not fetched after all), when the handle closes, or at until_s.
 * A handle claims for one worker at a time: a claim naming another worker
 * drops the leases held under the previous name. Two workers claiming under
 * one name both get every claim. Claims are seen by other workers at once,
 * even while a group is open. */
int fr_store_claim(struct fr_store *st, int64_t source_id, const char *worker, double until_s,
		   double now_s, double *last_fetch_s, double *held_until_s, char *err,
		   size_t errlen);
/* Drops this handle's lease on source_id (none is fine). Returns 0 or -1. */
int fr_store_release(struct fr_store *st, int64_t source_id, char *err, size_t errlen);
/* Workers alive, for sharing out a budget: records that worker (named as
 * for fr_store_claim) is alive at now_s and sets *n to the number of
 * workers, this one included, that recorded so after now_s - live_s (each
 * on its own clock). The record goes when the handle closes (a killed
 * worker's counts until live_s has passed). SQLite: *n = 1, nothing
 * stored. Returns 0, or -1 with err set (then *n = 1). */
int fr_store_workers(struct fr_store *st, const char *worker, double now_s, double live_s, int *n,
		     char *err, size_t errlen);

/* Politeness shared by the workers of one store: one request at a time to
 * a host, and the host's gap between requests, whichever worker sends them
 * (a row per host in `hosts`, on the server's clock: workers' clocks need
 * not agree, so the times here are durations from now).
 *
 * fr_store_host_claim: worker (named as for fr_store_claim; NULL: the
 * handle's own) is about to send a request to host. Returns 0 granted when
 * no other request to the host is in flight (or its claim is older than
 * the busy_s that claimer gave: lost) and the host's next allowed time has
 * come; the host is then busy until fr_store_host_done, or busy_s from now.
 * Returns 1 when not now, *wait_s (>= FR_STORE_HOST_RECHECK_S) saying how
 * long until the host's next time, or a moment when only a request in
 * flight holds it; -1 with err set. SQLite (one crawler per file): always
 * granted, *wait_s = 0, nothing stored.
 *
 * fr_store_host_done: the request this handle claimed for host ended: the
 * host is no longer busy, and its next allowed time becomes at least
 * next_in_s from now (the gap counted from when the request was sent, a
 * Retry-After pause...; it is raised, never lowered). Returns 0 or -1. */
#define FR_STORE_HOST_RECHECK_S 0.05
int fr_store_host_claim(struct fr_store *st, const char *host, const char *worker, double busy_s,
			double *wait_s, char *err, size_t errlen);
int fr_store_host_done(struct fr_store *st, const char *host, double next_in_s, char *err,
		       size_t errlen);

/* Copies what was committed into the database file now, so that closing
 * has little left to do (SQLite checkpoints at close, and every 1,000 pages
 * of log; on PostgreSQL the server checkpoints: nothing is done). Fails
 * inside a transaction or group. Returns 0 or -1 with err. */
int fr_store_checkpoint(struct fr_store *st, char *err, size_t errlen);

struct fr_store_stats {
	int64_t n_sources, n_active, n_items, n_fetches;
	int schema_version;
};
int fr_store_stats(struct fr_store *st, struct fr_store_stats *out, char *err, size_t errlen);
/* Checks the store: SQLite's integrity and foreign-key checks; on
 * PostgreSQL the schema version and that every source's n_items counts its
 * items (the server checks its own files). Returns 0, or -1 with err
 * holding the first problem. */
int fr_store_check(struct fr_store *st, char *err, size_t errlen);

#endif
