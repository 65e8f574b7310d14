/* backend.h - what store.c asks of a store backend (sqlite.c, pg.c): one
 * vtable, private to lib/store. store.c checks arguments, applies
 * defaults, and keeps the transaction nesting of fr_store_begin/_end and
 * the group of fr_store_group_begin/_end (struct fr_store_tx) for every
 * backend; a backend gives the primitive steps. */
#ifndef FR_STORE_BACKEND_H
#define FR_STORE_BACKEND_H

#include "store/store.h"

#include <stddef.h>
#include <stdint.h>

/* The identity and content hash of an item (store.c computes them once for
 * every backend). key is the item's id, url or "hash:<16 hex>". */
struct fr_store_item_key {
	const char *key;
	char buf[24];
	uint64_t hash;
};

/* The transaction state store.c keeps for one open store and shares with
 * its backend. The backend sets name at open (its store's name for
 * messages, living as long as the handle); it reads group, and sets
 * aborted when a commit_fetch inside the group failed and it rolled the
 * group's transaction back (later commits in the group are refused, and
 * fr_store_group_end reports it). */
struct fr_store_tx {
	const char *name;
	int group;
	int aborted;
};

/* A backend: one handle (impl) per open store. Arguments are checked and
 * defaults applied by store.c; err may be NULL (fr_errf copes). */
struct fr_store_ops {
	const char *name;
	void *(*open)(const char *path, unsigned flags, struct fr_store_tx *tx, char *err,
		      size_t errlen);
	void (*close)(void *impl);
	int (*add_source)(void *impl, const char *url, const char *url_key, const char *host,
			  const char *kind, const char *grp, const char *title,
			  const char *site_url, double now_s, int64_t *id, int *existed, char *err,
			  size_t errlen);
	int (*remove_source)(void *impl, int64_t id, int purge, char *err, size_t errlen);
	/* By id when url_key is NULL, else by key. 0 found, 1 not found, -1 error. */
	int (*find_source)(void *impl, int64_t id, const char *url_key, int64_t *out);
	int (*get_source)(void *impl, int64_t id, struct fr_store_source *out, char *err,
			  size_t errlen);
	int (*put_source)(void *impl, const struct fr_store_source *s, char *err, size_t errlen);
	int (*load_sources)(void *impl, int all, struct fr_store_source **out, size_t *n,
			    char *err, size_t errlen);
	/* keys[i] belongs to f->items[i]; is_new has f->n_items bytes. */
	int (*commit_fetch)(void *impl, const struct fr_store_fetch *f,
			    const struct fr_store_item_key *keys, uint8_t *is_new,
			    void (*learn)(void *, const uint8_t *, size_t, struct fr_store_source *),
			    void *arg, struct fr_store_source *src, size_t *n_new, size_t *n_updated,
			    char *err, size_t errlen);
	int (*each_item)(void *impl, const struct fr_store_item_query *q,
			 int (*each)(void *, const struct fr_store_item_row *), void *arg, char *err,
			 size_t errlen);
	int (*last_seq)(void *impl, int64_t *seq, char *err, size_t errlen);
	int (*meta_get)(void *impl, const char *key, void **buf, size_t *len);
	int (*meta_put)(void *impl, const char *key, const void *buf, size_t len, char *err,
			size_t errlen);
	/* A transaction (*outer = 1), or a savepoint inside one already open
	 * (*outer = 0); tx_end commits or rolls back what tx_begin opened (a
	 * failed commit is rolled back and returns -1). in_tx: 1 while a
	 * transaction is open on the handle. */
	int (*tx_begin)(void *impl, int *outer, char *err, size_t errlen);
	int (*tx_end)(void *impl, int outer, int commit, char *err, size_t errlen);
	int (*in_tx)(void *impl);
	int (*stats)(void *impl, struct fr_store_stats *out, char *err, size_t errlen);
	int (*check)(void *impl, char *err, size_t errlen);
	int (*checkpoint)(void *impl, char *err, size_t errlen);
	/* Leases (fr_store_claim); out pointers never NULL, worker never NULL
	 * for claim (store.c passes "" for the handle's own name). */
	int (*claim)(void *impl, int64_t id, const char *worker, double until_s, double now_s,
		     double *last_fetch_s, double *held_until_s, char *err, size_t errlen);
	int (*release)(void *impl, int64_t id, char *err, size_t errlen);
	int (*workers)(void *impl, const char *worker, double now_s, double live_s, int *n,
		       char *err, size_t errlen);
	/* fr_store_host_claim / _done; NULL: granted, nothing stored. worker
	 * never NULL ("": the handle's own). */
	int (*host_claim)(void *impl, const char *host, const char *worker, double busy_s,
			  double *wait_s, char *err, size_t errlen);
	int (*host_done)(void *impl, const char *host, double next_in_s, char *err,
			 size_t errlen);
};

extern const struct fr_store_ops fr_store_sqlite, fr_store_pg;

/* For backends: the dedupe key of a url (malloc'd: without "http://" or
 * "https://", without one trailing '/'), and its host (malloc'd, lower
 * case, no port or user; "" when it has none). NULL when out of memory. */
char *fr_store_url_key(const char *url);
char *fr_store_url_host(const char *url);
/* The languages to store for item it of fetch f: *declared (it->lang,
 * else f->lang) and *detected (it->lang_detected, else what f->detect
 * writes to buf, len bytes); NULL when none ("" is none). Borrowed from
 * it, f or buf. */
void fr_store_item_langs(const struct fr_store_fetch *f, const struct fr_store_item *it, char *buf,
			 size_t len, const char **declared, const char **detected);
/* Deep copy of src into dst (dst is overwritten, not cleared). Returns 0 or
 * -1 (out of memory; dst then holds what was copied, clear it). */
int fr_store_source_copy(struct fr_store_source *dst, const struct fr_store_source *src);

#endif
