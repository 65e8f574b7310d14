/* robots.c - RFC 9309 parsing and matching, and the per-origin cache. The
 * parser keeps only the group that applies to one crawler; patterns and paths
 * are both normalised to one percent-encoding so that bytes compare. */
#include "net/robots.h"

#include "core/err.h"
#include "core/hex.h"
#include "net/fetch.h"

#include <curl/curl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SITEMAPS 64
#define MAX_DELAY_S 1e6 /* larger Crawl-delay values are read as this */

struct rule {
	char *pat; /* normalised; a final '$' anchors */
	size_t len;
	int allow;
};

struct rules {
	struct rule *v;
	size_t n, cap;
	double delay_s;
};

struct fr_robots {
	struct rules r;
	char **sitemaps;
	size_t n_sitemaps;
};

static int
lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

static int
unreserved(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '-' || c == '.' || c == '_' || c == '~';
}

/* Normalises n bytes of s into out (room for 3n + 1 bytes; NUL-terminated):
 * %XX of an unreserved character is decoded, other escapes upper-cased, a
 * '%' that starts no escape and every byte outside printable ASCII are
 * percent-encoded. Returns the length written. */
static size_t
norm(const char *s, size_t n, char *out)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t o = 0;

	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		int hi = i + 2 < n ? fr_hex_digit((unsigned char)s[i + 1]) : -1;
		int lo = i + 2 < n ? fr_hex_digit((unsigned char)s[i + 2]) : -1;

		if (c == '%' && hi >= 0 && lo >= 0) {
			int v = hi * 16 + lo;

			if (unreserved(v)) {
				out[o++] = (char)v;
			} else {
				out[o++] = '%';
				out[o++] = hex[hi];
				out[o++] = hex[lo];
			}
			i += 2;
		} else if (c == '%' || c <= 0x20 || c >= 0x7f) {
			out[o++] = '%';
			out[o++] = hex[c >> 4];
			out[o++] = hex[c & 15];
		} else {
			out[o++] = (char)c;
		}
	}
	out[o] = '\0';
	return o;
}

/* Whether pattern p (m bytes; '*' any run; a final '$' anchors at the end)
 * matches a prefix of s (n bytes), or all of it when anchored. Greedy with
 * backtracking to the last '*': O(n m) at worst, linear in practice. */
static int
match(const char *p, size_t m, const char *s, size_t n)
{
	int anchored = m > 0 && p[m - 1] == '$';
	size_t i = 0, j = 0, star = SIZE_MAX, sj = 0;

	if (anchored)
		m--;
	for (;;) {
		if (!anchored && i == m)
			return 1; /* the rest of s is matched by the implied trailing '*' */
		if (j == n)
			break;
		if (i < m && p[i] == '*') {
			star = i++;
			sj = j;
		} else if (i < m && p[i] == s[j]) {
			i++;
			j++;
		} else if (star != SIZE_MAX) {
			i = star + 1;
			j = ++sj;
		} else {
			return 0;
		}
	}
	while (i < m && p[i] == '*')
		i++;
	return i == m;
}

static void
rules_free(struct rules *r)
{
	for (size_t i = 0; i < r->n; i++)
		free(r->v[i].pat);
	free(r->v);
	memset(r, 0, sizeof(*r));
	r->delay_s = -1;
}

static int
rules_add(struct rules *r, const char *val, size_t n, int allow)
{
	struct rule *x;
	char *pat;
	size_t len, k;

	if (n == 0)
		return 0; /* "Disallow:" with no path: no rule */
	pat = malloc(3 * n + 1);
	if (!pat)
		return -1;
	len = norm(val, n, pat);
	/* Runs of '*' are one '*'. */
	k = 0;
	for (size_t i = 0; i < len; i++)
		if (!(pat[i] == '*' && k > 0 && pat[k - 1] == '*'))
			pat[k++] = pat[i];
	pat[k] = '\0';
	if (r->n == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 8;

		x = realloc(r->v, cap * sizeof(*x));
		if (!x) {
			free(pat);
			return -1;
		}
		r->v = x;
		r->cap = cap;
	}
	r->v[r->n].pat = pat;
	r->v[r->n].len = k;
	r->v[r->n].allow = allow;
	r->n++;
	return 0;
}

/* A Crawl-delay value: digits with an optional fraction; -1 when malformed. */
static double
parse_delay(const char *v, size_t n)
{
	double x = 0, scale = 1;
	size_t i = 0;
	int digits = 0;

	while (i < n && v[i] >= '0' && v[i] <= '9') {
		if (x < MAX_DELAY_S)
			x = x * 10 + (v[i] - '0');
		i++;
		digits++;
	}
	if (i < n && v[i] == '.') {
		for (i++; i < n && v[i] >= '0' && v[i] <= '9'; i++) {
			scale /= 10;
			x += (v[i] - '0') * scale;
			digits++;
		}
	}
	if (!digits || (i < n && v[i] != ' ' && v[i] != '\t'))
		return -1;
	return x > MAX_DELAY_S ? MAX_DELAY_S : x;
}

enum key { K_NONE, K_AGENT, K_ALLOW, K_DISALLOW, K_DELAY, K_SITEMAP };

/* NOTE: keys compared lower-cased; the misspellings are those crawlers
 * commonly accept. */
static enum key
key_of(const char *k, size_t n)
{
	static const struct {
		const char *name;
		enum key key;
	} keys[] = {
	    {"user-agent", K_AGENT},  {"useragent", K_AGENT},   {"user agent", K_AGENT},
	    {"allow", K_ALLOW},       {"disallow", K_DISALLOW}, {"dissallow", K_DISALLOW},
	    {"dissalow", K_DISALLOW}, {"disalow", K_DISALLOW},  {"diasllow", K_DISALLOW},
	    {"disallaw", K_DISALLOW}, {"crawl-delay", K_DELAY}, {"crawldelay", K_DELAY},
	    {"crawl delay", K_DELAY}, {"sitemap", K_SITEMAP},   {"site-map", K_SITEMAP},
	};
	char buf[16];

	if (n == 0 || n >= sizeof(buf))
		return K_NONE;
	for (size_t i = 0; i < n; i++)
		buf[i] = (char)lower((unsigned char)k[i]);
	buf[n] = '\0';
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (strcmp(buf, keys[i].name) == 0)
			return keys[i].key;
	return K_NONE;
}

static int
is_blank(int c)
{
	return c == ' ' || c == '\t';
}

static int
token_char(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-' || c == '_';
}

/* Length of the product token leading s (n bytes). */
static size_t
token_len(const char *s, size_t n)
{
	size_t k = 0;

	while (k < n && token_char((unsigned char)s[k]))
		k++;
	return k;
}

static int
add_sitemap(struct fr_robots *r, const char *v, size_t n)
{
	const char *nul = memchr(v, '\0', n);
	char **s;

	if (nul)
		n = (size_t)(nul - v); /* kept as a C string: up to a NUL */
	if (n == 0 || r->n_sitemaps >= MAX_SITEMAPS)
		return 0;
	s = realloc(r->sitemaps, (r->n_sitemaps + 1) * sizeof(*s));
	if (!s)
		return -1;
	r->sitemaps = s;
	s[r->n_sitemaps] = malloc(n + 1);
	if (!s[r->n_sitemaps])
		return -1;
	memcpy(s[r->n_sitemaps], v, n);
	s[r->n_sitemaps][n] = '\0';
	r->n_sitemaps++;
	return 0;
}

static struct fr_robots *
robots_new(void)
{
	struct fr_robots *r = calloc(1, sizeof(*r));

	if (r)
		r->r.delay_s = -1;
	return r;
}

void
fr_robots_free(struct fr_robots *r)
{
	if (!r)
		return;
	rules_free(&r->r);
	for (size_t i = 0; i < r->n_sitemaps; i++)
		free(r->sitemaps[i]);
	free(r->sitemaps);
	free(r);
}

/* One line: splits it into key and value (at the first ':', or, for a known
 * key, at the first blank), without the comment and surrounding blanks. */
static enum key
split_line(const char *s, size_t n, const char **v, size_t *vn)
{
	const char *hash = memchr(s, '#', n);
	const char *colon;
	size_t kb = 0, ke, vb, ve;
	enum key k;

	if (hash)
		n = (size_t)(hash - s);
	while (kb < n && is_blank((unsigned char)s[kb]))
		kb++;
	colon = memchr(s + kb, ':', n - kb);
	if (colon) {
		ke = (size_t)(colon - s);
		vb = ke + 1;
	} else {
		/* "disallow /x": a missing colon after a known key. */
		ke = kb;
		while (ke < n && !is_blank((unsigned char)s[ke]))
			ke++;
		vb = ke;
	}
	ve = n;
	while (ke > kb && is_blank((unsigned char)s[ke - 1]))
		ke--;
	k = key_of(s + kb, ke - kb);
	if (k == K_NONE || (!colon && vb == n))
		return K_NONE;
	while (vb < ve && is_blank((unsigned char)s[vb]))
		vb++;
	while (ve > vb && is_blank((unsigned char)s[ve - 1]))
		ve--;
	*v = s + vb;
	*vn = ve - vb;
	return k;
}

struct fr_robots *
fr_robots_parse(const char *body, size_t len, const char *ua)
{
	struct fr_robots *r = robots_new();
	struct rules spec = {NULL, 0, 0, -1}, glob = {NULL, 0, 0, -1};
	const char *me = ua ? ua : "";
	size_t me_len = token_len(me, strlen(me));
	int in_agents = 0, cur_spec = 0, cur_glob = 0, seen_spec = 0;
	size_t i = 0;

	if (!r)
		return NULL;
	if (!body)
		len = 0;
	if (len > FR_ROBOTS_MAX_BYTES)
		len = FR_ROBOTS_MAX_BYTES;
	if (len >= 3 && memcmp(body, "\xEF\xBB\xBF", 3) == 0)
		i = 3;
	while (i < len) {
		const char *line = body + i, *v = NULL;
		size_t n = 0, vn = 0;
		enum key k;

		while (i + n < len && body[i + n] != '\n' && body[i + n] != '\r')
			n++;
		i += n;
		if (i < len && body[i] == '\r' && i + 1 < len && body[i + 1] == '\n')
			i++;
		i++;
		k = split_line(line, n, &v, &vn);
		switch (k) {
		case K_AGENT:
			if (!in_agents)
				cur_spec = cur_glob = 0;
			in_agents = 1;
			if (vn >= 1 && v[0] == '*' && (vn == 1 || is_blank((unsigned char)v[1]))) {
				cur_glob = 1;
			} else {
				size_t tl = token_len(v, vn);

				if (me_len > 0 && tl == me_len) {
					size_t j = 0;

					while (j < tl && lower((unsigned char)v[j]) ==
					                     lower((unsigned char)me[j]))
						j++;
					if (j == tl)
						cur_spec = seen_spec = 1;
				}
			}
			break;
		case K_ALLOW:
		case K_DISALLOW:
			in_agents = 0;
			if ((cur_spec && rules_add(&spec, v, vn, k == K_ALLOW) < 0) ||
			    (cur_glob && rules_add(&glob, v, vn, k == K_ALLOW) < 0))
				goto oom;
			break;
		case K_DELAY: {
			double d = parse_delay(v, vn);

			in_agents = 0;
			if (d >= 0 && cur_spec && d > spec.delay_s)
				spec.delay_s = d;
			if (d >= 0 && cur_glob && d > glob.delay_s)
				glob.delay_s = d;
			break;
		}
		case K_SITEMAP:
			if (add_sitemap(r, v, vn) < 0)
				goto oom;
			break;
		case K_NONE:
			break;
		}
	}
	if (seen_spec) {
		r->r = spec;
		rules_free(&glob);
	} else {
		r->r = glob;
		rules_free(&spec);
	}
	return r;
oom:
	rules_free(&spec);
	rules_free(&glob);
	fr_robots_free(r);
	return NULL;
}

struct fr_robots *
fr_robots_allow_all(void)
{
	return robots_new();
}

struct fr_robots *
fr_robots_disallow_all(void)
{
	struct fr_robots *r = robots_new();

	if (r && rules_add(&r->r, "/", 1, 0) < 0) {
		fr_robots_free(r);
		return NULL;
	}
	return r;
}

struct fr_robots *
fr_robots_for_status(long status, const char *body, size_t len, const char *ua, int *unreachable)
{
	int down = status <= 0 || status == 429 || status >= 500 || status < 200;

	if (unreachable)
		*unreachable = down;
	if (down)
		return fr_robots_disallow_all();
	if (status < 300)
		return fr_robots_parse(body, len, ua);
	return fr_robots_allow_all();
}

int
fr_robots_allowed(const struct fr_robots *r, const char *path_query)
{
	char stack[1024], *buf = stack, *p;
	const char *pq = path_query ? path_query : "";
	const char *hash = strchr(pq, '#');
	size_t n = hash ? (size_t)(hash - pq) : strlen(pq), plen, need;
	size_t best = 0;
	int found = 0, allow = 1;

	if (!r || r->r.n == 0)
		return 1;
	need = 3 * n + 2;
	if (need > sizeof(stack)) {
		buf = malloc(need);
		if (!buf)
			return 0; /* cannot tell: do not fetch */
	}
	p = buf;
	if (n == 0 || pq[0] != '/')
		*p++ = '/';
	plen = (size_t)(p - buf) + norm(pq, n, p);
	/* RFC 9309 2.2.2: /robots.txt is implicitly allowed. */
	if ((plen == 11 || (plen > 11 && buf[11] == '?')) && memcmp(buf, "/robots.txt", 11) == 0) {
		if (buf != stack)
			free(buf);
		return 1;
	}
	for (size_t i = 0; i < r->r.n; i++) {
		const struct rule *x = &r->r.v[i];

		/* Longest pattern wins; allow wins a tie. */
		if (found && (x->len < best || (x->len == best && (allow || !x->allow))))
			continue;
		if (match(x->pat, x->len, buf, plen)) {
			found = 1;
			best = x->len;
			allow = x->allow;
		}
	}
	if (buf != stack)
		free(buf);
	return found ? allow : 1;
}

double
fr_robots_crawl_delay_s(const struct fr_robots *r)
{
	return r ? r->r.delay_s : -1;
}

size_t
fr_robots_n_sitemaps(const struct fr_robots *r)
{
	return r ? r->n_sitemaps : 0;
}

const char *
fr_robots_sitemap(const struct fr_robots *r, size_t i)
{
	return r && i < r->n_sitemaps ? r->sitemaps[i] : NULL;
}

size_t
fr_robots_n_rules(const struct fr_robots *r)
{
	return r ? r->r.n : 0;
}

/* ---- origins ------------------------------------------------------------- */

/* scheme://host:port of an http(s) URL, lower-cased, the port always given
 * (origin key), or without a default port (robots URL with the path). */
static char *
origin_of(const char *url, int for_key)
{
	CURLU *u = curl_url();
	char *scheme = NULL, *host = NULL, *port = NULL, *out = NULL;
	size_t n;

	if (!u || !url)
		goto done;
	if (curl_url_set(u, CURLUPART_URL, url, 0) != CURLUE_OK)
		goto done;
	if (curl_url_get(u, CURLUPART_SCHEME, &scheme, 0) != CURLUE_OK ||
	    curl_url_get(u, CURLUPART_HOST, &host, 0) != CURLUE_OK || !host[0])
		goto done;
	for (char *c = scheme; *c; c++)
		*c = (char)lower((unsigned char)*c);
	if (strcmp(scheme, "http") != 0 && strcmp(scheme, "https") != 0)
		goto done;
	for (char *c = host; *c; c++)
		*c = (char)lower((unsigned char)*c);
	if (curl_url_get(u, CURLUPART_PORT, &port,
	                 for_key ? CURLU_DEFAULT_PORT : CURLU_NO_DEFAULT_PORT) != CURLUE_OK)
		port = NULL;
	n = strlen(scheme) + strlen(host) + (port ? strlen(port) : 0) + 32;
	out = malloc(n);
	if (out)
		snprintf(out, n, "%s://%s%s%s%s", scheme, host, port ? ":" : "", port ? port : "",
		         for_key ? "" : "/robots.txt");
done:
	curl_free(scheme);
	curl_free(host);
	curl_free(port);
	if (u)
		curl_url_cleanup(u);
	return out;
}

char *
fr_robots_url(const char *url)
{
	return origin_of(url, 0);
}

/* ---- the cache ------------------------------------------------------------ */

struct entry {
	struct entry *next; /* hash chain */
	char *key;
	uint64_t hash;
	struct fr_robots *rules;    /* NULL until the first answer */
	double expires_s;           /* rules hold until then */
	double pending_until_s;     /* a FETCH handed out and not answered; -1 none */
	int good;                   /* rules came from a reachable answer (not a stand-in) */
	double unreachable_since_s; /* first failure of the current run of them; -1 none */
	char *why;                  /* the last failure's reason, or NULL */
	int why_outcome;            /* its enum fr_net_outcome */
	long why_status;            /* its HTTP status, 0 none */
};

struct fr_robots_cache {
	char *ua;
	struct fr_robots_cache_opts o;
	struct entry **b;
	size_t nb, n;
};

static uint64_t
fnv1a(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 1099511628211ULL;
	}
	return h;
}

int
fr_robots_cache_new(struct fr_robots_cache **out, const char *ua,
                    const struct fr_robots_cache_opts *o, char *err, size_t errlen)
{
	struct fr_robots_cache *c = calloc(1, sizeof(*c));

	*out = NULL;
	if (!c)
		return fr_errf(err, errlen, "robots cache: out of memory");
	if (o)
		c->o = *o;
	if (c->o.ttl_s <= 0)
		c->o.ttl_s = 86400;
	if (c->o.retry_s <= 0)
		c->o.retry_s = 600;
	if (c->o.pending_s <= 0)
		c->o.pending_s = 120;
	if (c->o.max_stale_s <= 0)
		c->o.max_stale_s = 30 * 86400.0;
	if (c->o.max_crawl_delay_s == 0)
		c->o.max_crawl_delay_s = 30;
	if (c->o.max_entries == 0)
		c->o.max_entries = 100000;
	c->ua = strdup(ua ? ua : "");
	c->nb = 64;
	c->b = calloc(c->nb, sizeof(*c->b));
	if (!c->ua || !c->b) {
		fr_robots_cache_free(c);
		return fr_errf(err, errlen, "robots cache: out of memory");
	}
	*out = c;
	return 0;
}

static void
entry_free(struct entry *e)
{
	fr_robots_free(e->rules);
	free(e->why);
	free(e->key);
	free(e);
}

void
fr_robots_cache_free(struct fr_robots_cache *c)
{
	if (!c)
		return;
	for (size_t i = 0; c->b && i < c->nb; i++) {
		struct entry *e = c->b[i], *next;

		for (; e; e = next) {
			next = e->next;
			entry_free(e);
		}
	}
	free(c->b);
	free(c->ua);
	free(c);
}

size_t
fr_robots_cache_len(const struct fr_robots_cache *c)
{
	return c->n;
}

static struct entry *
find(const struct fr_robots_cache *c, const char *key, uint64_t h)
{
	for (struct entry *e = c->b[h & (c->nb - 1)]; e; e = e->next)
		if (e->hash == h && strcmp(e->key, key) == 0)
			return e;
	return NULL;
}

static void
unlink_entry(struct fr_robots_cache *c, struct entry *x)
{
	struct entry **pp = &c->b[x->hash & (c->nb - 1)];

	while (*pp && *pp != x)
		pp = &(*pp)->next;
	if (*pp)
		*pp = x->next;
	c->n--;
	entry_free(x);
}

/* Makes room for one entry: drops every expired entry not pending; if none
 * was, the one expiring first. */
static void
evict(struct fr_robots_cache *c, double now_s)
{
	struct entry *first = NULL;
	size_t before = c->n;

	for (size_t i = 0; i < c->nb; i++) {
		struct entry *e = c->b[i], *next;

		for (; e; e = next) {
			next = e->next;
			if (e->expires_s <= now_s && e->pending_until_s <= now_s)
				unlink_entry(c, e);
			else if (!first || e->expires_s < first->expires_s)
				first = e;
		}
	}
	if (c->n == before && first)
		unlink_entry(c, first);
}

static void
grow(struct fr_robots_cache *c)
{
	size_t nb = c->nb * 2;
	struct entry **b = calloc(nb, sizeof(*b));

	if (!b)
		return; /* longer chains, still correct */
	for (size_t i = 0; i < c->nb; i++) {
		struct entry *e = c->b[i], *next;

		for (; e; e = next) {
			next = e->next;
			e->next = b[e->hash & (nb - 1)];
			b[e->hash & (nb - 1)] = e;
		}
	}
	free(c->b);
	c->b = b;
	c->nb = nb;
}

/* The entry of key, added (without rules) when missing. Takes ownership of key. */
static struct entry *
get(struct fr_robots_cache *c, char *key, double now_s)
{
	uint64_t h = fnv1a(key);
	struct entry *e = find(c, key, h);

	if (e) {
		free(key);
		return e;
	}
	if (c->n >= c->o.max_entries)
		evict(c, now_s);
	if (c->n >= c->nb)
		grow(c);
	e = calloc(1, sizeof(*e));
	if (!e) {
		free(key);
		return NULL;
	}
	e->key = key;
	e->hash = h;
	e->pending_until_s = e->unreachable_since_s = -1;
	e->next = c->b[h & (c->nb - 1)];
	c->b[h & (c->nb - 1)] = e;
	c->n++;
	return e;
}

enum fr_robots_verdict
fr_robots_cache_check(struct fr_robots_cache *c, const char *url, double now_s,
                      double *crawl_delay_s)
{
	char *key = origin_of(url, 1);
	struct entry *e;
	char *pq = NULL;
	CURLU *u;
	int ok;
	double d;

	if (crawl_delay_s)
		*crawl_delay_s = -1;
	if (!key)
		return FR_ROBOTS_ALLOWED;
	e = get(c, key, now_s);
	if (!e)
		return FR_ROBOTS_PENDING;
	if (!e->rules || now_s >= e->expires_s) {
		if (e->pending_until_s > now_s)
			return FR_ROBOTS_PENDING;
		e->pending_until_s = now_s + c->o.pending_s;
		return FR_ROBOTS_FETCH;
	}
	/* The path and query as sent, still percent-encoded. */
	u = curl_url();
	if (!u || curl_url_set(u, CURLUPART_URL, url, 0) != CURLUE_OK) {
		if (u)
			curl_url_cleanup(u);
		return FR_ROBOTS_PENDING;
	}
	{
		char *path = NULL, *query = NULL;

		curl_url_get(u, CURLUPART_PATH, &path, 0);
		curl_url_get(u, CURLUPART_QUERY, &query, 0);
		if (path) {
			size_t n = strlen(path) + (query ? strlen(query) + 1 : 0) + 1;

			pq = malloc(n);
			if (pq)
				snprintf(pq, n, "%s%s%s", path, query ? "?" : "",
				         query ? query : "");
		}
		curl_free(path);
		curl_free(query);
		curl_url_cleanup(u);
	}
	if (!pq)
		return FR_ROBOTS_PENDING;
	ok = fr_robots_allowed(e->rules, pq);
	free(pq);
	d = fr_robots_crawl_delay_s(e->rules);
	if (d >= 0 && c->o.max_crawl_delay_s >= 0 && d > c->o.max_crawl_delay_s)
		d = c->o.max_crawl_delay_s;
	if (crawl_delay_s)
		*crawl_delay_s = d;
	return ok ? FR_ROBOTS_ALLOWED : FR_ROBOTS_DENIED;
}

int
fr_robots_cache_put(struct fr_robots_cache *c, const char *url, long status, const char *body,
                    size_t len, double now_s)
{
	char *key = origin_of(url, 1);
	struct entry *e;
	struct fr_robots *r;
	int down;

	if (!key)
		return -1;
	e = get(c, key, now_s);
	if (!e)
		return -1;
	e->pending_until_s = -1;
	r = fr_robots_for_status(status, body, len, c->ua, &down);
	if (!r)
		return -1;
	if (!down) {
		fr_robots_free(e->rules);
		e->rules = r;
		e->good = 1;
		e->expires_s = now_s + c->o.ttl_s;
		e->unreachable_since_s = -1;
		return 0;
	}
	if (e->unreachable_since_s < 0)
		e->unreachable_since_s = now_s;
	e->expires_s = now_s + c->o.retry_s;
	if (e->rules && e->good) {
		fr_robots_free(r); /* RFC 9309 2.4: the cached copy serves while unreachable */
		return 0;
	}
	if (now_s - e->unreachable_since_s >= c->o.max_stale_s) {
		/* RFC 9309 2.3.1.4: unreachable for long, no copy: treat as unavailable. */
		fr_robots_free(r);
		r = fr_robots_allow_all();
		if (!r)
			return -1;
	}
	fr_robots_free(e->rules);
	e->rules = r;
	return 0;
}

int
fr_robots_cache_unreachable(struct fr_robots_cache *c, const char *url, char *why,
                            size_t whylen, int *outcome, long *status)
{
	char *key = origin_of(url, 1);
	struct entry *e;

	if (!key)
		return 0;
	e = find(c, key, fnv1a(key));
	free(key);
	if (!e || !e->rules || e->good || e->unreachable_since_s < 0)
		return 0;
	if (why && whylen)
		snprintf(why, whylen, "%s", e->why ? e->why : "no answer");
	if (outcome)
		*outcome = e->why_outcome;
	if (status)
		*status = e->why_status;
	return 1;
}

static int put_response(struct fr_robots_cache *c, const char *url,
                        const struct fr_response *res, double now_s);

/* Keeps why a fetch of url's robots.txt failed (for
 * fr_robots_cache_unreachable). */
static void
note_failure(struct fr_robots_cache *c, const char *url, const struct fr_response *res)
{
	char *key = origin_of(url, 1);
	struct entry *e = key ? find(c, key, fnv1a(key)) : NULL;
	char buf[320];

	free(key);
	if (!e)
		return;
	if (res->outcome == FR_NET_HTTP_ERROR || (res->outcome == FR_NET_OK && res->status > 0))
		snprintf(buf, sizeof(buf), "robots.txt answered HTTP %ld", res->status);
	else if (res->outcome == FR_NET_OK)
		snprintf(buf, sizeof(buf), "robots.txt did not come whole");
	else
		snprintf(buf, sizeof(buf), "%s", res->err[0] ? res->err
		                                             : fr_net_outcome_name(res->outcome));
	free(e->why);
	e->why = strdup(buf);
	e->why_outcome = (int)res->outcome;
	e->why_status = res->status;
}

int
fr_robots_cache_put_response(struct fr_robots_cache *c, const char *url,
                             const struct fr_response *res, double now_s)
{
	int rc = put_response(c, url, res, now_s);

	if (rc == 0)
		note_failure(c, url, res);
	return rc;
}

static int
put_response(struct fr_robots_cache *c, const char *url, const struct fr_response *res,
             double now_s)
{
	if (res->outcome == FR_NET_NOT_MODIFIED) {
		char *key = origin_of(url, 1);
		struct entry *e = key ? get(c, key, now_s) : NULL;

		if (!e)
			return -1;
		if (e->rules && e->good) {
			e->pending_until_s = -1;
			e->expires_s = now_s + c->o.ttl_s;
			e->unreachable_since_s = -1;
			return 0;
		}
		return fr_robots_cache_put(c, url, 304, NULL, 0, now_s);
	}
	if (res->outcome == FR_NET_OK || res->outcome == FR_NET_HTTP_ERROR)
		return fr_robots_cache_put(c, url, res->status, res->body, res->len, now_s);
	return fr_robots_cache_put(c, url, 0, NULL, 0, now_s);
}
