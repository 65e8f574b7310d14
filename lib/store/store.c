/* store.c - the store's public API: checks arguments, applies defaults,
 * computes what every backend needs alike (dedupe keys, hosts, item
 * identities and content hashes) and dispatches to the backend's ops. */
#include "store/backend.h"
#include "store/uri.h"

#include "core/err.h"
#include "core/timefmt.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

/* fr_store_begin may nest this deep. */
#define MAX_USER_TX 16

struct fr_store {
	const struct fr_store_ops *ops;
	void *impl;
	struct fr_store_tx tx;       /* the group, shared with the backend */
	int user_outer[MAX_USER_TX]; /* fr_store_begin nesting: 1 transaction, 0 savepoint */
	int user_depth;
};

static int
has_prefix_ci(const char *s, const char *prefix)
{
	return strncasecmp(s, prefix, strlen(prefix)) == 0;
}

/* Length of "http://" or "https://" at the start of url, else 0. */
static size_t
http_scheme_len(const char *url)
{
	if (has_prefix_ci(url, "http://"))
		return 7;
	if (has_prefix_ci(url, "https://"))
		return 8;
	return 0;
}

char *
fr_store_url_key(const char *url)
{
	size_t skip = http_scheme_len(url), n;
	char *k;

	url += skip;
	n = strlen(url);
	if (n > 1 && url[n - 1] == '/')
		n--;
	k = malloc(n + 1);
	if (!k)
		return NULL;
	memcpy(k, url, n);
	k[n] = '\0';
	return k;
}

char *
fr_store_url_host(const char *url)
{
	const char *p = strstr(url, "://"), *end, *at, *h;
	size_t n;
	char *out;

	if (!p)
		return strdup("");
	p += 3;
	end = p + strcspn(p, "/?#");
	/* userinfo: up to the last '@' of the authority */
	h = p;
	for (at = p; at < end; at++)
		if (*at == '@')
			h = at + 1;
	if (*h == '[') {
		const char *rb = memchr(h, ']', (size_t)(end - h));

		n = rb ? (size_t)(rb - h) + 1 : (size_t)(end - h);
	} else {
		const char *colon = memchr(h, ':', (size_t)(end - h));

		n = colon ? (size_t)(colon - h) : (size_t)(end - h);
	}
	out = malloc(n + 1);
	if (!out)
		return NULL;
	for (size_t i = 0; i < n; i++)
		out[i] = (char)tolower((unsigned char)h[i]);
	out[n] = '\0';
	return out;
}

static int
dup_field(char **dst, const char *src)
{
	*dst = NULL;
	if (!src)
		return 0;
	*dst = strdup(src);
	return *dst ? 0 : -1;
}

int
fr_store_source_copy(struct fr_store_source *dst, const struct fr_store_source *src)
{
	int rc = 0;

	*dst = *src;
	rc |= dup_field(&dst->url, src->url);
	rc |= dup_field(&dst->kind, src->kind);
	rc |= dup_field(&dst->grp, src->grp);
	rc |= dup_field(&dst->host, src->host);
	rc |= dup_field(&dst->title, src->title);
	rc |= dup_field(&dst->site_url, src->site_url);
	rc |= dup_field(&dst->category, src->category);
	rc |= dup_field(&dst->etag, src->etag);
	rc |= dup_field(&dst->last_modified, src->last_modified);
	rc |= dup_field(&dst->last_error, src->last_error);
	rc |= dup_field(&dst->redirect_url, src->redirect_url);
	rc |= dup_field(&dst->policy, src->policy);
	dst->policy_state = NULL;
	if (src->policy_state && src->policy_state_len) {
		dst->policy_state = malloc(src->policy_state_len);
		if (dst->policy_state)
			memcpy(dst->policy_state, src->policy_state, src->policy_state_len);
		else
			rc = -1;
	} else {
		dst->policy_state_len = 0;
	}
	dst->kind_state = NULL;
	if (src->kind_state && src->kind_state_len) {
		dst->kind_state = malloc(src->kind_state_len);
		if (dst->kind_state)
			memcpy(dst->kind_state, src->kind_state, src->kind_state_len);
		else
			rc = -1;
	} else {
		dst->kind_state_len = 0;
	}
	return rc ? -1 : 0;
}

void
fr_store_source_clear(struct fr_store_source *s)
{
	if (!s)
		return;
	free(s->url);
	free(s->kind);
	free(s->grp);
	free(s->host);
	free(s->title);
	free(s->site_url);
	free(s->category);
	free(s->etag);
	free(s->last_modified);
	free(s->last_error);
	free(s->redirect_url);
	free(s->policy);
	free(s->policy_state);
	free(s->kind_state);
	memset(s, 0, sizeof(*s));
}

void
fr_store_sources_free(struct fr_store_source *s, size_t n)
{
	if (!s)
		return;
	for (size_t i = 0; i < n; i++)
		fr_store_source_clear(&s[i]);
	free(s);
}

int
fr_store_open(struct fr_store **out, const char *path, char *err, size_t errlen)
{
	return fr_store_open_flags(out, path, 0, err, errlen);
}

int
fr_store_open_flags(struct fr_store **out, const char *path, unsigned flags, char *err,
		    size_t errlen)
{
	struct fr_store *st;

	*out = NULL;
	if (!path || !*path)
		return fr_errf(err, errlen, "store: empty path");
	st = calloc(1, sizeof(*st));
	if (!st)
		return fr_errf(err, errlen, "store: out of memory");
	/* A libpq URI names a PostgreSQL database (lib/store/pg.c); anything
	 * else is an SQLite file. */
	if (has_prefix_ci(path, "postgres://") || has_prefix_ci(path, "postgresql://"))
		st->ops = &fr_store_pg;
	else
		st->ops = &fr_store_sqlite;
	st->impl = st->ops->open(path, flags, &st->tx, err, errlen);
	if (!st->impl) {
		free(st);
		return -1;
	}
	*out = st;
	return 0;
}

void
fr_store_close(struct fr_store *st)
{
	if (!st)
		return;
	st->ops->close(st->impl);
	free(st);
}

/* Copies n bytes of s to the display buffer (cut at its end). */
static void
put_bytes(char *buf, size_t len, size_t *at, const char *s, size_t n)
{
	if (*at + 1 >= len)
		return;
	if (n > len - 1 - *at)
		n = len - 1 - *at;
	memcpy(buf + *at, s, n);
	*at += n;
	buf[*at] = '\0';
}

char *
fr_store_display_name(const char *path, char *buf, size_t len)
{
	const char *p = path ? path : "", *pw, *pw_end, *end, *q;
	size_t o = 0;

	if (!buf || !len)
		return buf;
	buf[0] = '\0';
	if (!has_prefix_ci(p, "postgres://") && !has_prefix_ci(p, "postgresql://")) {
		put_bytes(buf, len, &o, p, strlen(p));
		return buf;
	}
	/* "user:password@" loses ":password", an empty one too ("user:@"). The
	 * prefix has a "://", so end is always set. */
	if (fr_store_uri_password(p, &pw, &pw_end, &end) == 1) {
		put_bytes(buf, len, &o, p, (size_t)(pw - 1 - p));
		p = pw_end;
	}
	/* The query: every "password=..." parameter goes, with its separator. */
	q = strchr(end, '?');
	if (!q) {
		put_bytes(buf, len, &o, p, strlen(p));
		return buf;
	}
	put_bytes(buf, len, &o, p, (size_t)(q - p));
	q++;
	char sep = '?';
	while (*q && *q != '#') {
		size_t n = strcspn(q, "&#");

		if (!fr_store_uri_password_param(q, n)) {
			put_bytes(buf, len, &o, &sep, 1);
			put_bytes(buf, len, &o, q, n);
			sep = '&';
		}
		q += n;
		if (*q == '&')
			q++;
	}
	put_bytes(buf, len, &o, q, strlen(q));
	return buf;
}

/* An absolute http(s) URL with a host and no blanks or control bytes. */
static int
url_ok(const char *url)
{
	size_t skip = http_scheme_len(url);
	const char *h = url + skip;

	if (!skip || !*h || *h == '/' || *h == '?' || *h == '#')
		return 0;
	for (const unsigned char *p = (const unsigned char *)url; *p; p++)
		if (*p <= 0x20 || *p == 0x7F)
			return 0;
	return 1;
}

int
fr_store_add_source(struct fr_store *st, const char *url, const char *kind, const char *grp,
                    const char *title, const char *site_url, int64_t *id, int *existed, char *err,
                    size_t errlen)
{
	char *key, *host;
	int rc;

	*id = 0;
	*existed = 0;
	if (!url || !url_ok(url))
		return fr_errf(err, errlen, "url '%s': not an absolute http(s) URL",
		               url ? url : "(null)");
	if (kind && !*kind)
		return fr_errf(err, errlen, "url '%s': empty kind", url);
	if (grp && !*grp)
		return fr_errf(err, errlen, "url '%s': empty group", url);
	key = fr_store_url_key(url);
	host = fr_store_url_host(url);
	if (!key || !host) {
		free(key);
		free(host);
		return fr_errf(err, errlen, "url '%s': out of memory", url);
	}
	rc = st->ops->add_source(st->impl, url, key, host, kind ? kind : "feed",
	                         grp ? grp : "default", title, site_url, fr_time_now(), id, existed,
	                         err, errlen);
	free(key);
	free(host);
	return rc;
}

int
fr_store_remove_source(struct fr_store *st, int64_t id, int purge, char *err, size_t errlen)
{
	return st->ops->remove_source(st->impl, id, purge, err, errlen);
}

int
fr_store_find_source(struct fr_store *st, const char *url_or_id, int64_t *id)
{
	const char *p = url_or_id;
	char *key;
	int rc;

	if (!p || !*p)
		return -1;
	while (*p >= '0' && *p <= '9')
		p++;
	if (!*p && p - url_or_id <= 18) {
		int64_t v = strtoll(url_or_id, NULL, 10);

		return v > 0 && st->ops->find_source(st->impl, v, NULL, id) == 0 ? 0 : -1;
	}
	key = fr_store_url_key(url_or_id);
	if (!key)
		return -1;
	rc = st->ops->find_source(st->impl, 0, key, id);
	free(key);
	return rc == 0 ? 0 : -1;
}

int
fr_store_get_source(struct fr_store *st, int64_t id, struct fr_store_source *out, char *err,
                    size_t errlen)
{
	memset(out, 0, sizeof(*out));
	return st->ops->get_source(st->impl, id, out, err, errlen);
}

int
fr_store_put_source(struct fr_store *st, const struct fr_store_source *s, char *err, size_t errlen)
{
	return st->ops->put_source(st->impl, s, err, errlen);
}

int
fr_store_load_sources(struct fr_store *st, struct fr_store_source **out, size_t *n, char *err,
                      size_t errlen)
{
	*out = NULL;
	*n = 0;
	return st->ops->load_sources(st->impl, 0, out, n, err, errlen);
}

int
fr_store_load_all_sources(struct fr_store *st, struct fr_store_source **out, size_t *n, char *err,
                          size_t errlen)
{
	*out = NULL;
	*n = 0;
	return st->ops->load_sources(st->impl, 1, out, n, err, errlen);
}

/* ---- item identity and content hash ----
 * Hashed 8 bytes at a time (a byte-wise FNV was a third of commit_fetch's
 * time on feeds with long summaries). Not cryptographic: a 64-bit value to
 * tell "changed" from "same". NOTE: changing it makes every stored item
 * look changed once. */

#define K1 0x9E3779B97F4A7C15ull
#define K2 0xBF58476D1CE4E5B9ull

static uint64_t
mix(uint64_t h, uint64_t v)
{
	h ^= v * K1;
	h = (h << 31 | h >> 33) * K2;
	return h;
}

static uint64_t
hash_bytes(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;
	uint64_t w;

	h = mix(h, n);
	for (; n >= 8; n -= 8, b += 8) {
		memcpy(&w, b, 8);
		h = mix(h, w);
	}
	if (n) {
		w = 0;
		memcpy(&w, b, n);
		h = mix(h, w);
	}
	return h;
}

/* NULL and "" differ (the length is mixed in, NULL as an impossible one). */
static uint64_t
hash_str(uint64_t h, const char *s)
{
	return s ? hash_bytes(h, s, strlen(s)) : mix(h, UINT64_MAX);
}

static uint64_t
hash_i64(uint64_t h, int64_t v)
{
	return mix(h, (uint64_t)v);
}

/* splitmix64's finaliser: every input bit reaches every output bit. */
static uint64_t
hash_end(uint64_t h)
{
	h ^= h >> 30;
	h *= K2;
	h ^= h >> 27;
	h *= 0x94D049BB133111EBull;
	return h ^ (h >> 31);
}

static void
item_key(const struct fr_store_item *it, struct fr_store_item_key *k)
{
	uint64_t h = 0;

	h = hash_str(h, it->url);
	h = hash_str(h, it->title);
	h = hash_str(h, it->author);
	h = hash_str(h, it->summary);
	h = hash_str(h, it->content);
	h = hash_str(h, it->enclosure_url);
	h = hash_str(h, it->enclosure_type);
	h = hash_i64(h, it->enclosure_length);
	h = hash_i64(h, it->published_s);
	h = hash_i64(h, it->updated_s);
	k->hash = hash_end(h);
	if (it->id && *it->id) {
		k->key = it->id;
	} else if (it->url && *it->url) {
		k->key = it->url;
	} else {
		uint64_t t = 1;

		t = hash_str(t, it->title);
		t = hash_str(t, it->summary);
		t = hash_str(t, it->content);
		snprintf(k->buf, sizeof(k->buf), "hash:%016llx", (unsigned long long)hash_end(t));
		k->key = k->buf;
	}
}

/* The order new items are stored in, so numbered (seq): oldest first. A
 * feed lists its newest first, mostly, and not always with dates: items
 * are sorted by published time (else updated; unknown first), ties and
 * undated ones in the reverse of the feed's order. A repeated identity's
 * later occurrences go last, so that the backends still keep the first
 * occurrence (they keep whichever comes first). */
struct ord {
	const char *key;
	int64_t t;
	size_t pos;
	int dup;
};

static int
by_key(const void *a, const void *b)
{
	const struct ord *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	return c ? c : (x->pos > y->pos) - (x->pos < y->pos);
}

static int
by_age(const void *a, const void *b)
{
	const struct ord *x = a, *y = b;

	if (x->dup != y->dup)
		return x->dup - y->dup;
	if (x->dup)
		return (x->pos > y->pos) - (x->pos < y->pos); /* duplicates: feed order */
	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return (x->pos < y->pos) - (x->pos > y->pos); /* later in the feed: older */
}

/* Sets order[k] to the position in f->items of the k-th item to store.
 * Returns 0, -1 out of memory. */
static int
store_order(const struct fr_store_fetch *f, const struct fr_store_item_key *keys, size_t *order)
{
	size_t n = f->n_items;
	struct ord *o = malloc((n ? n : 1) * sizeof(*o));

	if (!o)
		return -1;
	for (size_t i = 0; i < n; i++) {
		const struct fr_store_item *it = &f->items[i];

		o[i].key = keys[i].key;
		o[i].t = it->published_s != INT64_MIN ? it->published_s : it->updated_s;
		o[i].pos = i;
		o[i].dup = 0;
	}
	qsort(o, n, sizeof(*o), by_key);
	for (size_t k = 1; k < n; k++)
		o[k].dup = !strcmp(o[k].key, o[k - 1].key);
	qsort(o, n, sizeof(*o), by_age);
	for (size_t k = 0; k < n; k++)
		order[k] = o[k].pos;
	free(o);
	return 0;
}

/* learn sees is_new in the caller's order of items. */
struct relearn {
	void (*learn)(void *, const uint8_t *, size_t, struct fr_store_source *);
	void *arg;
	const size_t *order;
	uint8_t *is_new; /* the caller's order */
	size_t n;
};

static void
relearn(void *arg, const uint8_t *is_new, size_t n_new, struct fr_store_source *src)
{
	struct relearn *r = arg;

	for (size_t k = 0; k < r->n; k++)
		r->is_new[r->order[k]] = is_new[k];
	if (r->learn)
		r->learn(r->arg, r->is_new, n_new, src);
}

int
fr_store_commit_fetch(struct fr_store *st, const struct fr_store_fetch *f,
                      void (*learn)(void *arg, const uint8_t *is_new, size_t n_new,
                                    struct fr_store_source *src),
                      void *arg, struct fr_store_source *src, size_t *n_new, size_t *n_updated,
                      char *err, size_t errlen)
{
	struct fr_store_item_key *keys = NULL, *okeys = NULL;
	struct fr_store_item *oitems = NULL;
	struct fr_store_fetch of;
	struct fr_store_source saved;
	struct relearn rl;
	size_t nn = 0, nu = 0, n = f->n_items, *order = NULL;
	uint8_t *is_new = NULL, *ois_new = NULL;
	int rc = -1;

	if (n_new)
		*n_new = 0;
	if (n_updated)
		*n_updated = 0;
	if (f->n_items && !f->items)
		return fr_errf(err, errlen, "source %lld: %zu items but no array",
		               (long long)f->source_id, f->n_items);
	if (src && src->id != f->source_id)
		return fr_errf(err, errlen, "source %lld: the row given is source %lld",
		               (long long)f->source_id, (long long)src->id);
	memset(&saved, 0, sizeof(saved));
	keys = malloc((n ? n : 1) * sizeof(*keys));
	okeys = malloc((n ? n : 1) * sizeof(*okeys));
	oitems = malloc((n ? n : 1) * sizeof(*oitems));
	order = malloc((n ? n : 1) * sizeof(*order));
	is_new = calloc(n ? n : 1, 1);
	ois_new = calloc(n ? n : 1, 1);
	if (!keys || !okeys || !oitems || !order || !is_new || !ois_new)
		goto oom;
	for (size_t i = 0; i < n; i++)
		item_key(&f->items[i], &keys[i]);
	/* The backends store the items in the order they are given. */
	if (store_order(f, keys, order) < 0)
		goto oom;
	for (size_t k = 0; k < n; k++) {
		const struct fr_store_item_key *from = &keys[order[k]];

		okeys[k] = *from;
		if (from->key == from->buf)
			okeys[k].key = okeys[k].buf;
		oitems[k] = f->items[order[k]];
	}
	of = *f;
	of.items = oitems;
	rl.learn = learn;
	rl.arg = arg;
	rl.order = order;
	rl.is_new = is_new;
	rl.n = n;
	if (src && fr_store_source_copy(&saved, src) < 0)
		goto oom;
	rc = st->ops->commit_fetch(st->impl, &of, okeys, ois_new, learn ? relearn : NULL, &rl, src,
	                           &nn, &nu, err, errlen);
	if (rc == 0) {
		if (n_new)
			*n_new = nn;
		if (n_updated)
			*n_updated = nu;
		fr_store_source_clear(&saved);
	} else if (src) {
		/* The row is as it was: so must the caller's copy be. */
		fr_store_source_clear(src);
		*src = saved;
	}
	goto out;
oom:
	fr_store_source_clear(&saved);
	fr_errf(err, errlen, "source %lld: out of memory", (long long)f->source_id);
	rc = -1;
out:
	free(keys);
	free(okeys);
	free(oitems);
	free(order);
	free(is_new);
	free(ois_new);
	return rc;
}

void
fr_store_item_langs(const struct fr_store_fetch *f, const struct fr_store_item *it, char *buf,
                    size_t len, const char **declared, const char **detected)
{
	*declared = it->lang && it->lang[0] ? it->lang : f->lang && f->lang[0] ? f->lang : NULL;
	*detected = NULL;
	if (it->lang_detected && it->lang_detected[0])
		*detected = it->lang_detected;
	else if (f->detect && len) {
		buf[0] = '\0';
		if (f->detect(f->detect_arg, it, buf, len) == 1 && buf[0]) {
			buf[len - 1] = '\0';
			*detected = buf;
		}
	}
}

int
fr_store_each_item(struct fr_store *st, double since_s, int64_t source_id, size_t limit,
                   int (*each)(void *arg, const struct fr_store_item_row *r), void *arg, char *err,
                   size_t errlen)
{
	struct fr_store_item_query q = {0, since_s, source_id, limit, NULL};

	return st->ops->each_item(st->impl, &q, each, arg, err, errlen);
}

int
fr_store_items(struct fr_store *st, const struct fr_store_item_query *q,
               int (*each)(void *arg, const struct fr_store_item_row *r), void *arg, char *err,
               size_t errlen)
{
	struct fr_store_item_query z = {0};

	if (!q)
		q = &z;
	if (q->after_seq < 0)
		return fr_errf(err, errlen, "items: seq %lld is negative", (long long)q->after_seq);
	if (q->lang) {
		size_t n = strspn(q->lang, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		                           "0123456789-");

		if (!q->lang[0] || q->lang[n] || n > 35)
			return fr_errf(err, errlen,
			               "items: language '%.40s' is not a language tag (letters, "
			               "digits and '-', like en or zh-Hant)",
			               q->lang);
	}
	return st->ops->each_item(st->impl, q, each, arg, err, errlen);
}

int
fr_store_last_seq(struct fr_store *st, int64_t *seq, char *err, size_t errlen)
{
	*seq = 0;
	return st->ops->last_seq(st->impl, seq, err, errlen);
}

int
fr_store_meta_get(struct fr_store *st, const char *key, void **buf, size_t *len)
{
	*buf = NULL;
	*len = 0;
	if (!key)
		return -1;
	return st->ops->meta_get(st->impl, key, buf, len);
}

int
fr_store_meta_put(struct fr_store *st, const char *key, const void *buf, size_t len, char *err,
                  size_t errlen)
{
	if (!key || (len && !buf))
		return fr_errf(err, errlen, "meta: no key or no value");
	return st->ops->meta_put(st->impl, key, buf, len, err, errlen);
}

int
fr_store_begin(struct fr_store *st, char *err, size_t errlen)
{
	int outer;

	if (st->user_depth >= MAX_USER_TX)
		return fr_errf(err, errlen, "%s: transactions nested too deep", st->tx.name);
	if (st->ops->tx_begin(st->impl, &outer, err, errlen) < 0)
		return -1;
	st->user_outer[st->user_depth++] = outer;
	return 0;
}

int
fr_store_end(struct fr_store *st, int commit, char *err, size_t errlen)
{
	if (st->user_depth <= 0)
		return fr_errf(err, errlen, "%s: no transaction to end", st->tx.name);
	return st->ops->tx_end(st->impl, st->user_outer[--st->user_depth], commit, err, errlen);
}

int
fr_store_group_begin(struct fr_store *st, char *err, size_t errlen)
{
	int outer;

	if (st->tx.group)
		return fr_errf(err, errlen, "%s: a group transaction is open already", st->tx.name);
	if (st->user_depth > 0 || st->ops->in_tx(st->impl))
		return fr_errf(err, errlen, "%s: a group cannot open inside a transaction",
		               st->tx.name);
	if (st->ops->tx_begin(st->impl, &outer, err, errlen) < 0)
		return -1;
	st->tx.group = 1;
	st->tx.aborted = 0;
	return 0;
}

int
fr_store_group_end(struct fr_store *st, int commit, char *err, size_t errlen)
{
	int aborted = st->tx.aborted;

	if (!st->tx.group)
		return fr_errf(err, errlen, "%s: no group transaction to end", st->tx.name);
	st->tx.group = 0;
	st->tx.aborted = 0;
	/* The backend rolled the group back when a commit in it failed. */
	if (aborted)
		return commit ? fr_errf(err, errlen,
		                        "%s: the group transaction was rolled back after an error",
		                        st->tx.name)
		              : 0;
	return st->ops->tx_end(st->impl, 1, commit, err, errlen);
}

int
fr_store_claim(struct fr_store *st, int64_t source_id, const char *worker, double until_s,
               double now_s, double *last_fetch_s, double *held_until_s, char *err,
               size_t errlen)
{
	double lf = -1, held = 0;
	int rc = 0;

	/* A backend without leases (one process) grants every claim. */
	if (st->ops->claim)
		rc = st->ops->claim(st->impl, source_id, worker ? worker : "", until_s, now_s, &lf,
		                    &held, err, errlen);
	if (last_fetch_s)
		*last_fetch_s = lf;
	if (held_until_s)
		*held_until_s = held;
	return rc;
}

int
fr_store_release(struct fr_store *st, int64_t source_id, char *err, size_t errlen)
{
	return st->ops->release ? st->ops->release(st->impl, source_id, err, errlen) : 0;
}

int
fr_store_host_claim(struct fr_store *st, const char *host, const char *worker, double busy_s,
                    double *wait_s, char *err, size_t errlen)
{
	double w = 0;
	int rc;

	if (!host || !*host || !st->ops->host_claim) {
		if (wait_s)
			*wait_s = 0;
		return 0;
	}
	rc = st->ops->host_claim(st->impl, host, worker ? worker : "", busy_s, &w, err, errlen);
	if (wait_s)
		*wait_s = rc == 1 ? w : 0;
	return rc;
}

int
fr_store_host_done(struct fr_store *st, const char *host, double next_in_s, char *err,
                   size_t errlen)
{
	if (!host || !*host || !st->ops->host_done)
		return 0;
	return st->ops->host_done(st->impl, host, next_in_s, err, errlen);
}

int
fr_store_workers(struct fr_store *st, const char *worker, double now_s, double live_s, int *n,
                 char *err, size_t errlen)
{
	int rc;

	*n = 1;
	if (!st->ops->workers)
		return 0;
	rc = st->ops->workers(st->impl, worker ? worker : "", now_s, live_s, n, err, errlen);
	if (rc < 0 || *n < 1)
		*n = 1;
	return rc;
}

int
fr_store_checkpoint(struct fr_store *st, char *err, size_t errlen)
{
	return st->ops->checkpoint(st->impl, err, errlen);
}

int
fr_store_stats(struct fr_store *st, struct fr_store_stats *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof(*out));
	return st->ops->stats(st->impl, out, err, errlen);
}

int
fr_store_check(struct fr_store *st, char *err, size_t errlen)
{
	return st->ops->check(st->impl, err, errlen);
}
