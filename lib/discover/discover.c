/* discover.c - the feed finder (discover.h). Sites are crawled at once,
 * each breadth first; requests wait in per-host queues (feed candidates and
 * robots.txt before pages), a host sends one request at a time and then
 * waits its gap; a min-heap of hosts by the time they may send next drives
 * one libcurl multi fetcher. A site ends when it has nothing queued or in
 * flight (after the well-known paths were probed if it had no feed), when
 * its time runs out, or when it has max_feeds feeds. */
#include "discover/discover.h"

#include "core/err.h"
#include "core/timefmt.h"
#include "core/heap.h"
#include "core/strmap.h"
#include "discover/html.h"
#include "net/robots.h"
#include "url/url.h"
#include "parse/feed.h"

#include <libpsl.h>

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#define MAX_URL_LEN 2048
#define MAX_HOPS 5 /* redirects followed from one URL */
#define MAX_SEGMENT_REPEAT 3 /* a path segment seen this often in a row is a trap */

/* Well-known feed paths, probed in this order. */
static const char *const PROBES[] = {
    "/feed",          "/rss",           "/atom.xml",   "/index.xml", "/feed.xml",
    "/rss.xml",       "/?feed=rss2",    "/feed/",      "/rss/",      "/atom",
    "/index.rss",     "/feed.json",     "/feeds/posts/default",      "/blog/feed",
    "/blog/rss.xml",  "/news/rss.xml"};

enum kind { K_ROBOTS, K_PAGE, K_CAND, K_PROBE };

struct site;
struct host;

struct req {
	struct req *next, *prev; /* a host queue (next only), or the in-flight list */
	struct site *site; /* NULL for robots.txt */
	struct host *host;
	char *url;
	char *found_on;   /* the page that linked it, or NULL */
	char *link_title; /* the link's title or text, or NULL */
	char *chain_start; /* after a redirect: the URL the chain started from, else NULL */
	double queued_s;   /* when it was queued (a slot wait counts from then at the earliest) */
	int hops;          /* redirects followed to get here */
	int permanent;     /* every hop so far was 301 or 308 */
	int is_start;      /* the site URL, or where its redirects lead */
	int depth;
	enum kind kind;
	enum fr_discover_via via;
};

struct host {
	char *name;
	uint32_t id;
	struct req *hi, *hi_tail, *lo, *lo_tail; /* candidates/probes/robots; pages */
	int busy;
	double next_ok; /* may send from then */
	double gap_s;   /* the gap, raised by Crawl-delay */
	long robots_status;   /* the last robots.txt answer: HTTP status, 0 none, -1 not asked */
	char *robots_err;     /* its error when it gave no usable answer, else NULL */
};

struct feed_rec {
	char *url, *title, *format, *found_on;
	size_t n_items;
	enum fr_discover_via via;
};

struct site {
	size_t index;
	char *input, *start, *domain, *origin; /* origin: scheme://host[:port] of the start page */
	double started_s;  /* when its first request was sent; 0 before */
	/* Time its ready requests waited for a free transfer slot: the
	 * crawler's own queue, not the site's slowness, so not counted against
	 * --max-time. pause_mark: the end of the last wait counted (waits
	 * overlap when several hosts of a site wait at once). */
	double paused_s, pause_mark;
	double pending_from; /* check_time: the start of a wait still going on, or 0 */
	int refs;          /* requests queued or in flight */
	int finished;      /* reported; freed when refs drops to 0 */
	int probed, start_done;
	char *start_error;
	char *note;         /* the last problem that did not stop the site */
	char *last_fail;    /* the last request's failure, for FAILED */
	size_t ok;          /* requests with a usable answer (a body, a redirect) */
	struct fr_strmap *seen;    /* normalised URLs queued or fetched */
	struct fr_strmap *paths;   /* host+path -> distinct query strings seen */
	size_t *path_queries;
	size_t path_cap;
	struct fr_strmap *feed_keys;
	struct feed_rec *feeds;
	size_t n_feeds, feed_cap;
	size_t pages_q, cands_q; /* queued so far, against the limits */
	struct fr_discover_site res;
	struct site *prev, *next; /* the active list */
};

struct ctx {
	const struct fr_discover_opts *o;
	struct fr_fetcher *f;
	struct fr_robots_cache *robots;
	const psl_ctx_t *psl;
	struct fr_strmap *host_ids;
	struct host **hosts;
	size_t n_hosts, host_cap;
	struct fr_heap *ready; /* hosts with a queue, not busy, keyed by next_ok */
	uint32_t heap_cap;
	struct site *active;
	size_t n_active;
	struct req *inflight; /* submitted, not yet done */
	double limit;         /* transfers at once now: grows by one per limit answers,
	                       * halves on a timeout (at most every 2 s), 4..MAX_INFLIGHT */
	double last_cut_s;
	double xfer_s;   /* mean transfer time of pages, candidates and probes (moving
	                  * average; robots.txt is left out: often far cheaper), 0 unknown */
	double site_cap; /* sites at once now: grows by one per answer up to
	                  * site_target(), falls to it at once */
	void (*on_site)(void *, const struct fr_discover_site *);
	void *arg;
	int oom;
};

void
fr_discover_opts_init(struct fr_discover_opts *o)
{
	memset(o, 0, sizeof(*o));
	fr_fetch_opts_init(&o->fetch);
	o->max_depth = -1;
	o->max_probes = -1;
	o->gap_s = -1;
	o->robots = 1;
}

const char *
fr_discover_via_name(enum fr_discover_via v)
{
	switch (v) {
	case FR_VIA_LINK:
		return "link";
	case FR_VIA_ANCHOR:
		return "anchor";
	case FR_VIA_SELF:
		return "self";
	case FR_VIA_PROBE:
		return "probe";
	}
	return "?";
}

const char *
fr_discover_end_name(enum fr_discover_end e)
{
	switch (e) {
	case FR_END_DONE:
		return "done";
	case FR_END_TIME:
		return "time";
	case FR_END_FEEDS:
		return "feeds";
	case FR_END_UNREACHABLE:
		return "unreachable";
	case FR_END_FAILED:
		return "failed";
	}
	return "?";
}

static int
is_ip_literal(const char *h)
{
	if (*h == '[')
		return 1;
	for (; *h; h++)
		if (!isdigit((unsigned char)*h) && *h != '.')
			return 0;
	return 1;
}

static char *
registrable(const psl_ctx_t *psl, const char *host)
{
	const char *r = NULL;
	char *out;

	if (psl && !is_ip_literal(host))
		r = psl_registrable_domain(psl, host);
	out = strdup(r ? r : host);
	if (out)
		for (char *p = out; *p; p++)
			*p = (char)tolower((unsigned char)*p);
	return out;
}

static const psl_ctx_t *
psl_ctx(void)
{
	static const psl_ctx_t *p;

	if (!p) {
		p = psl_latest(NULL); /* the system's list when installed, else the built-in one */
		if (!p)
			p = psl_builtin();
	}
	return p;
}

char *
fr_registrable_domain(const char *host)
{
	return registrable(psl_ctx(), host);
}

/* ---- options ------------------------------------------------------------- */

static size_t
or_default(size_t v, size_t d)
{
	return v ? v : d;
}

#define MAX_PAGES(o) or_default((o)->max_pages, 50)
#define MAX_CANDS(o) or_default((o)->max_candidates, 50)
#define MAX_PROBES(o) ((o)->max_probes < 0 ? (size_t)10 : (size_t)(o)->max_probes)
#define MAX_FEEDS(o) or_default((o)->max_feeds, 200)
#define MAX_QUERIES(o) or_default((o)->max_queries, 5)
#define MAX_ACTIVE(o) or_default((o)->max_active, 1024)
#define MAX_INFLIGHT(o) ((o)->fetch.max_total > 0 ? (size_t)(o)->fetch.max_total : 64)
#define MAX_DEPTH(o) ((o)->max_depth < 0 ? 3 : (o)->max_depth)
#define MAX_TIME(o) ((o)->max_time_s > 0 ? (o)->max_time_s : 60.0)
#define GAP(o) ((o)->gap_s < 0 ? 1.0 : (o)->gap_s)

/* ---- hosts --------------------------------------------------------------- */

static struct host *
host_get(struct ctx *c, const char *url)
{
	char *name = fr_url_host(url);
	uint32_t id;
	int added;
	struct host *h;

	if (!name)
		return NULL;
	if (fr_strmap_intern(c->host_ids, name, strlen(name), &id, &added) < 0) {
		free(name);
		c->oom = 1;
		return NULL;
	}
	if (!added) {
		free(name);
		return c->hosts[id];
	}
	if (c->n_hosts == c->host_cap) {
		size_t nc = c->host_cap ? c->host_cap * 2 : 256;
		struct host **nh = realloc(c->hosts, nc * sizeof(*nh));
		if (!nh)
			goto oom;
		c->hosts = nh;
		c->host_cap = nc;
	}
	if (id >= c->heap_cap) { /* grow the heap: a new one with the same entries */
		uint32_t nc = c->heap_cap * 2;
		struct fr_heap *nh = fr_heap_new(nc);
		uint32_t hid;
		double key;

		if (!nh)
			goto oom;
		while (fr_heap_pop(c->ready, &hid, &key))
			fr_heap_set(nh, hid, key, 0);
		fr_heap_free(c->ready);
		c->ready = nh;
		c->heap_cap = nc;
	}
	h = calloc(1, sizeof(*h));
	if (!h)
		goto oom;
	h->name = name;
	h->id = id;
	h->gap_s = GAP(c->o);
	h->robots_status = -1;
	c->hosts[c->n_hosts++] = h;
	return h;
oom:
	/* the name stays interned without a host: later lookups would read
	 * past n_hosts, so the run stops (oom is fatal) */
	free(name);
	c->oom = 1;
	return NULL;
}

static void
host_ready(struct ctx *c, struct host *h)
{
	if (!h->busy && (h->hi || h->lo))
		fr_heap_set(c->ready, h->id, h->next_ok, 0);
}

/* Puts r at the head of h's first queue (robots.txt, or a request that
 * must wait for it). */
static void
push_front(struct host *h, struct req *r)
{
	r->next = h->hi;
	h->hi = r;
	if (!h->hi_tail)
		h->hi_tail = r;
}

static void
push(struct ctx *c, struct req *r)
{
	struct host *h = r->host;

	r->next = NULL;
	r->queued_s = fr_time_now();
	if (r->kind == K_PAGE) {
		if (h->lo_tail)
			h->lo_tail->next = r;
		else
			h->lo = r;
		h->lo_tail = r;
	} else if (r->kind == K_ROBOTS) { /* robots.txt goes first */
		push_front(h, r);
	} else {
		if (h->hi_tail)
			h->hi_tail->next = r;
		else
			h->hi = r;
		h->hi_tail = r;
	}
	if (r->site)
		r->site->refs++;
	host_ready(c, h);
}

static struct req *
pop(struct host *h)
{
	struct req *r;

	if (h->hi) {
		r = h->hi;
		h->hi = r->next;
		if (!h->hi)
			h->hi_tail = NULL;
	} else {
		r = h->lo;
		if (!r)
			return NULL;
		h->lo = r->next;
		if (!h->lo)
			h->lo_tail = NULL;
	}
	r->next = NULL;
	return r;
}

static void
req_free(struct req *r)
{
	if (!r)
		return;
	free(r->url);
	free(r->found_on);
	free(r->link_title);
	free(r->chain_start);
	free(r);
}

/* ---- sites --------------------------------------------------------------- */

static void
site_free(struct site *s)
{
	for (size_t i = 0; i < s->n_feeds; i++) {
		free(s->feeds[i].url);
		free(s->feeds[i].title);
		free(s->feeds[i].format);
		free(s->feeds[i].found_on);
	}
	free(s->feeds);
	fr_strmap_free(s->seen);
	fr_strmap_free(s->paths);
	fr_strmap_free(s->feed_keys);
	free(s->path_queries);
	free(s->input);
	free(s->start);
	free(s->domain);
	free(s->origin);
	free(s->start_error);
	free(s->note);
	free(s->last_fail);
	free(s);
}

/* Reports s (once) and takes it off the active list. */
static void
site_finish(struct ctx *c, struct site *s, enum fr_discover_end end)
{
	struct fr_discovered_feed *fv = NULL;

	if (s->finished)
		return;
	s->finished = 1;
	if (s->n_feeds)
		fv = calloc(s->n_feeds, sizeof(*fv));
	for (size_t i = 0; fv && i < s->n_feeds; i++) {
		fv[i].url = s->feeds[i].url;
		fv[i].title = s->feeds[i].title;
		fv[i].format = s->feeds[i].format;
		fv[i].n_items = s->feeds[i].n_items;
		fv[i].via = s->feeds[i].via;
		fv[i].found_on = s->feeds[i].found_on;
	}
	if (s->n_feeds && !fv)
		c->oom = 1;
	s->res.index = s->index;
	s->res.url = s->input;
	s->res.domain = s->domain;
	s->res.feeds = fv;
	s->res.n_feeds = fv ? s->n_feeds : 0;
	if (end == FR_END_DONE && s->n_feeds == 0 && s->ok == 0 && s->res.failed > 0) {
		/* it answered, but nothing it answered could be read */
		char msg[600];

		snprintf(msg, sizeof(msg), "every request failed (%zu); the last: %s", s->res.failed,
		         s->last_fail ? s->last_fail : "?");
		free(s->start_error);
		s->start_error = strdup(msg);
		end = FR_END_FAILED;
	}
	s->res.end = end;
	s->res.error = end == FR_END_UNREACHABLE || end == FR_END_FAILED ? s->start_error : NULL;
	if (s->res.error == NULL && (end == FR_END_UNREACHABLE || end == FR_END_FAILED))
		s->res.error = "no answer";
	s->res.note = s->note;
	s->res.elapsed_s = s->started_s > 0 ? fr_time_now() - s->started_s : 0;
	c->on_site(c->arg, &s->res);
	free(fv);
	if (s->prev)
		s->prev->next = s->next;
	else
		c->active = s->next;
	if (s->next)
		s->next->prev = s->prev;
	c->n_active--;
	if (s->refs == 0)
		site_free(s);
}

/* A request of s is gone (fetched or dropped). */
static void
site_unref(struct site *s)
{
	s->refs--;
	if (s->finished && s->refs == 0)
		site_free(s);
}

static void site_check(struct ctx *c, struct site *s);

/* The same, and when s has nothing left, what comes next for it (probes or
 * its report). s may be freed. */
static void
site_release(struct ctx *c, struct site *s)
{
	if (--s->refs > 0)
		return;
	if (s->finished)
		site_free(s);
	else
		site_check(c, s);
}

static int
in_domain(const struct ctx *c, const struct site *s, const char *url)
{
	char *h = fr_url_host(url), *d;
	int in;

	if (!h)
		return 0;
	d = registrable(c->psl, h);
	in = d && !strcmp(d, s->domain);
	free(h);
	free(d);
	return in;
}

/* Whether the path of a normalised URL repeats one segment too often in a row. */
static int
path_loops(const char *url)
{
	const char *p = strstr(url, "://"), *seg, *prev = NULL;
	size_t prev_n = 0, n;
	int run = 1;

	if (!p || !(p = strchr(p + 3, '/')))
		return 0;
	while (*p == '/') {
		seg = ++p;
		n = strcspn(seg, "/?");
		if (prev && n == prev_n && n > 0 && !memcmp(seg, prev, n)) {
			if (++run >= MAX_SEGMENT_REPEAT)
				return 1;
		} else {
			run = 1;
		}
		prev = seg;
		prev_n = n;
		p = seg + n;
	}
	return 0;
}

/* Counts a new query string on url's host+path; 0 when over the limit. */
static int
query_ok(struct ctx *c, struct site *s, const char *url)
{
	const char *q = strchr(url, '?');
	uint32_t id;
	int added;

	if (!q)
		return 1;
	if (fr_strmap_intern(s->paths, url, (size_t)(q - url), &id, &added) < 0) {
		c->oom = 1;
		return 0;
	}
	if (id >= s->path_cap) {
		size_t nc = s->path_cap ? s->path_cap * 2 : 64;
		size_t *np = realloc(s->path_queries, nc * sizeof(*np));
		if (!np) {
			c->oom = 1;
			return 0;
		}
		memset(np + s->path_cap, 0, (nc - s->path_cap) * sizeof(*np));
		s->path_queries = np;
		s->path_cap = nc;
	}
	if (s->path_queries[id] >= MAX_QUERIES(c->o))
		return 0;
	s->path_queries[id]++;
	return 1;
}

/* Queues url for s (unless seen, or over a limit). Takes nothing: copies. */
static void
enqueue(struct ctx *c, struct site *s, const char *url, enum kind kind, enum fr_discover_via via,
        int depth, const char *found_on, const char *title)
{
	char err[FR_ERRLEN], *key, *fetch_url = NULL;
	uint32_t id;
	int added;
	struct req *r;
	struct host *h;

	if (s->finished || c->oom)
		return;
	if (strlen(url) > MAX_URL_LEN) {
		s->res.skipped_limits++;
		s->res.limit_queries++;
		return;
	}
	/* The key has the query sorted (order does not make another page);
	 * the URL fetched keeps the order the site wrote (some servers care). */
	key = fr_url_normalize(url, FR_URL_STRIP_SESSION | FR_URL_SORT_QUERY, err, sizeof(err));
	if (!key)
		return;
	if (strncmp(key, "http://", 7) && strncmp(key, "https://", 8)) {
		free(key);
		return;
	}
	if (fr_strmap_find(s->seen, key, strlen(key), &id)) {
		free(key);
		return;
	}
	if (!(fetch_url = fr_url_normalize(url, FR_URL_STRIP_SESSION, err, sizeof(err)))) {
		free(key);
		return;
	}
	if ((kind == K_PAGE && (s->pages_q >= MAX_PAGES(c->o) || path_loops(key) ||
	                        !query_ok(c, s, key))) ||
	    (kind == K_CAND && s->cands_q >= MAX_CANDS(c->o))) {
		s->res.skipped_limits++;
		if (kind == K_CAND)
			s->res.limit_candidates++;
		else if (s->pages_q >= MAX_PAGES(c->o))
			s->res.limit_pages++;
		else
			s->res.limit_queries++;
		free(key);
		free(fetch_url);
		return;
	}
	if (fr_strmap_intern(s->seen, key, strlen(key), &id, &added) < 0 ||
	    !(h = host_get(c, key)) || !(r = calloc(1, sizeof(*r)))) {
		c->oom = 1;
		free(key);
		free(fetch_url);
		return;
	}
	free(key);
	r->site = s;
	r->host = h;
	r->url = fetch_url;
	r->kind = kind;
	r->via = via;
	r->depth = depth;
	r->is_start = kind == K_PAGE && depth == 0; /* only the site URL has depth 0 */
	r->found_on = found_on ? strdup(found_on) : NULL;
	r->link_title = title ? strdup(title) : NULL;
	if (kind == K_PAGE)
		s->pages_q++;
	else if (kind == K_CAND)
		s->cands_q++;
	push(c, r);
}

/* A dedupe key for feed addresses: no scheme, no trailing '/'. */
static char *
feed_key(const char *url)
{
	const char *p = strstr(url, "://");
	char *k = strdup(p ? p + 3 : url);
	size_t n;

	if (!k)
		return NULL;
	n = strlen(k);
	while (n > 1 && k[n - 1] == '/')
		k[--n] = '\0';
	return k;
}

static void
add_feed(struct ctx *c, struct site *s, const char *url, const struct fr_feed *f,
         const struct req *r)
{
	char *key = feed_key(url);
	uint32_t id;
	int added;
	struct feed_rec *fr;
	enum fr_discover_via via = r->via;

	if (!key || fr_strmap_intern(s->feed_keys, key, strlen(key), &id, &added) < 0) {
		free(key);
		c->oom = 1;
		return;
	}
	free(key);
	if (!added)
		return;
	if (s->n_feeds == s->feed_cap) {
		size_t nc = s->feed_cap ? s->feed_cap * 2 : 4;
		struct feed_rec *nf = realloc(s->feeds, nc * sizeof(*nf));
		if (!nf) {
			c->oom = 1;
			return;
		}
		s->feeds = nf;
		s->feed_cap = nc;
	}
	fr = &s->feeds[s->n_feeds++];
	memset(fr, 0, sizeof(*fr));
	fr->url = strdup(url);
	fr->title = f->title && *f->title ? strdup(f->title)
	            : r->link_title     ? strdup(r->link_title)
	                                : NULL;
	fr->format = strdup(f->version ? f->version : "unknown");
	fr->found_on = strdup(r->found_on ? r->found_on : r->url);
	fr->n_items = f->n_items;
	fr->via = via;
	if (!fr->url || !fr->format || !fr->found_on)
		c->oom = 1;
	if (s->n_feeds >= MAX_FEEDS(c->o))
		site_finish(c, s, FR_END_FEEDS);
}

static void
set_str(char **slot, const char *v)
{
	char *d = strdup(v);

	if (d) {
		free(*slot);
		*slot = d;
	}
}

/* A request of s gave nothing usable. */
static void
fail(struct site *s, const char *why)
{
	s->res.failed++;
	set_str(&s->last_fail, why);
}

static int
looks_html(const struct fr_response *res)
{
	if (res->content_type && (strstr(res->content_type, "html") != NULL))
		return 1;
	return fr_html_sniff(res->body, res->len);
}

/* What a fetched document gives: a feed, or links. */
static void
process(struct ctx *c, struct site *s, const struct req *r, const struct fr_response *res)
{
	const char *eff = res->effective_url ? res->effective_url : r->url;
	char err[FR_ERRLEN];
	struct fr_feed *feed = NULL;
	struct fr_html_page page;
	size_t max_depth = (size_t)MAX_DEPTH(c->o);

	if (r->is_start && !s->start_done) {
		/* The start page: where it lands sets the domain and the origin
		 * to probe (example.com -> www.example.com, or another domain). */
		char *h = fr_url_host(eff), *o = NULL;
		const char *sl;

		s->start_done = 1;
		if (h) {
			char *d = registrable(c->psl, h);
			if (d) {
				free(s->domain);
				s->domain = d;
			}
			free(h);
		}
		sl = strstr(eff, "://");
		sl = sl ? strchr(sl + 3, '/') : NULL;
		o = sl ? strndup(eff, (size_t)(sl - eff)) : strdup(eff);
		if (o) {
			free(s->origin);
			s->origin = o;
		}
	}
	if (res->truncated) {
		/* Over the size cap: a page's head still names its feeds; a feed
		 * cut short is not read. */
		char msg[FR_ERRLEN + 64];

		snprintf(msg, sizeof(msg), "%s is over the size cap (%zu bytes): %s", r->url, res->len,
		         r->kind == K_PAGE ? "read its first bytes only" : "not read");
		set_str(&s->note, msg);
		if (r->kind != K_PAGE || fr_feed_sniff(res->body, res->len)) {
			fail(s, msg);
			return;
		}
	} else if (fr_feed_sniff(res->body, res->len)) {
		struct fr_feed_opts fo = {.base_url = eff, .content_type = res->content_type};

		if (fr_feed_parse(res->body, res->len, &fo, &feed, err, sizeof(err)) == 0) {
			struct req rr = *r;
			if (r->kind == K_PAGE)
				rr.via = FR_VIA_SELF;
			/* the address to subscribe to: where a permanent redirect
			 * leads, else the address linked */
			add_feed(c, s, r->chain_start && !r->permanent ? r->chain_start : r->url, feed,
			         &rr);
			fr_feed_free(feed);
			return;
		}
	}
	if (r->kind == K_PROBE || !looks_html(res))
		return;
	/* The domain check comes after the feed checks (seed 001). */
	if (!in_domain(c, s, eff))
		return;
	if (fr_html_scan(res->body, res->len, eff, res->content_type, 0, &page, err,
	                 sizeof(err)) < 0)
		return;
	for (size_t i = 0; i < page.n_links && !s->finished; i++) {
		const struct fr_html_link *l = &page.links[i];

		if (l->flags & FR_HTML_FEED_LINK)
			enqueue(c, s, l->url, K_CAND, FR_VIA_LINK, r->depth + 1, eff, l->title);
		else if (l->flags & FR_HTML_FEEDLIKE)
			enqueue(c, s, l->url, K_CAND, FR_VIA_ANCHOR, r->depth + 1, eff, l->title);
		else if ((l->flags & FR_HTML_FOLLOW) && in_domain(c, s, l->url)) {
			if ((size_t)r->depth + 1 <= max_depth) {
				enqueue(c, s, l->url, K_PAGE, FR_VIA_SELF, r->depth + 1, eff, NULL);
			} else {
				s->res.skipped_limits++;
				s->res.limit_depth++;
			}
		}
	}
	fr_html_page_clear(&page);
}

/* When s has nothing left: probe the well-known paths once if it has no
 * feed yet, else report it. */
static void
site_check(struct ctx *c, struct site *s)
{
	if (s->finished || s->refs > 0)
		return;
	if (!s->start_done) {
		site_finish(c, s, FR_END_UNREACHABLE);
		return;
	}
	if (s->n_feeds == 0 && !s->probed && s->origin) {
		size_t n = MAX_PROBES(c->o);
		char url[MAX_URL_LEN + 64];

		s->probed = 1;
		for (size_t i = 0; i < n && i < sizeof(PROBES) / sizeof(PROBES[0]); i++) {
			snprintf(url, sizeof(url), "%s%s", s->origin, PROBES[i]);
			enqueue(c, s, url, K_PROBE, FR_VIA_PROBE, 1, NULL, NULL);
		}
		if (s->refs > 0)
			return;
	}
	site_finish(c, s, FR_END_DONE);
}

/* Queues the target of r's redirect on its own host (robots.txt and the
 * gap apply to it as to any request), as the same kind of request. */
static void
follow(struct ctx *c, struct site *s, const struct req *r, const struct fr_response *res)
{
	char err[FR_ERRLEN], *key, *url;
	uint32_t id;
	int added;
	struct req *n;
	struct host *h;

	if (r->hops >= MAX_HOPS) {
		char msg[MAX_URL_LEN + 64];

		snprintf(msg, sizeof(msg), "too many redirects (%d) from %.2048s", MAX_HOPS + 1,
		         r->chain_start ? r->chain_start : r->url);
		if (r->is_start && !s->start_error)
			s->start_error = strdup(msg);
		fail(s, msg);
		return;
	}
	key = fr_url_normalize(res->location, FR_URL_STRIP_SESSION | FR_URL_SORT_QUERY, err,
	                       sizeof(err));
	url = key ? fr_url_normalize(res->location, FR_URL_STRIP_SESSION, err, sizeof(err)) : NULL;
	if (!url || (strncmp(url, "http://", 7) && strncmp(url, "https://", 8))) {
		free(key);
		free(url);
		return;
	}
	if (fr_strmap_find(s->seen, key, strlen(key), &id)) { /* read already, or queued */
		char msg[2 * MAX_URL_LEN + 64];

		/* before the start page is read, only its own chain was seen */
		snprintf(msg, sizeof(msg), "redirect loop: %.2048s -> %.2048s (seen before)", r->url,
		         url);
		if (r->is_start && !s->start_done)
			set_str(&s->start_error, msg);
		else
			set_str(&s->note, msg);
		fail(s, msg);
		free(key);
		free(url);
		return;
	}
	if (fr_strmap_intern(s->seen, key, strlen(key), &id, &added) < 0 ||
	    !(h = host_get(c, url)) || !(n = calloc(1, sizeof(*n)))) {
		c->oom = 1;
		free(key);
		free(url);
		return;
	}
	free(key);
	n->site = s;
	n->host = h;
	n->url = url;
	n->kind = r->kind;
	n->via = r->via;
	n->depth = r->depth;
	n->is_start = r->is_start;
	n->hops = r->hops + 1;
	n->permanent = (r->hops == 0 || r->permanent) && (res->status == 301 || res->status == 308);
	n->chain_start = strdup(r->chain_start ? r->chain_start : r->url);
	n->found_on = r->found_on ? strdup(r->found_on) : NULL;
	n->link_title = r->link_title ? strdup(r->link_title) : NULL;
	if (!n->chain_start) {
		c->oom = 1;
		req_free(n);
		return;
	}
	push(c, n);
}

/* ---- the loop ------------------------------------------------------------ */

/* How many sites at once keep the transfers busy without a queue: a site
 * sends one request, then waits its host's gap, so over a gap plus a
 * transfer (H) each site asks about one transfer, and the slots serve
 * limit * H / xfer of them; twice the transfers more cover the parsing
 * between two requests. Until a page's time is known: twice the transfers. */
static double
site_target(const struct ctx *c)
{
	double t = 2 * c->limit, max = (double)MAX_ACTIVE(c->o);

	if (c->xfer_s > 0)
		t = 4 * c->limit * (1 + GAP(c->o) / c->xfer_s);
	return t > max ? max : t;
}

/* What a finished transfer says about the capacity: its time (a moving
 * average over pages, candidates and probes), and one more site allowed
 * per answer (as TCP's slow start: doubling per round), never above the
 * target. */
static void
learn_capacity(struct ctx *c, const struct req *r, const struct fr_response *res)
{
	double t;

	if (r->kind != K_ROBOTS && res->elapsed_s > 0)
		c->xfer_s = c->xfer_s > 0 ? 0.9 * c->xfer_s + 0.1 * res->elapsed_s : res->elapsed_s;
	if (res->status > 0)
		c->site_cap += 1;
	t = site_target(c);
	if (c->site_cap > t)
		c->site_cap = t;
}

static void
on_done(void *arg, const struct fr_response *res)
{
	struct ctx *c = arg;
	struct req *r = (struct req *)(uintptr_t)res->tag;
	struct host *h = r->host;
	struct site *s = r->site;
	double now = fr_time_now();

	if (r->prev)
		r->prev->next = r->next;
	else
		c->inflight = r->next;
	if (r->next)
		r->next->prev = r->prev;
	h->busy = 0;
	h->next_ok = now + h->gap_s;
	if (res->retry_after_at_s > 0 && (res->status == 429 || res->status == 503)) {
		double until = res->retry_after_at_s;
		if (until > now + MAX_TIME(c->o))
			until = now + MAX_TIME(c->o);
		if (until > h->next_ok)
			h->next_ok = until;
	}
	if (res->outcome == FR_NET_TIMEOUT ||
	    (res->outcome == FR_NET_CONNECT && strstr(res->err, "imed out"))) {
		if (now - c->last_cut_s >= 2.0) { /* the network is full: back off */
			c->limit = c->limit / 2 < 4 ? 4 : c->limit / 2;
			c->last_cut_s = now;
		}
	} else if (res->status > 0) {
		c->limit += 1.0 / c->limit;
		if (c->limit > (double)MAX_INFLIGHT(c->o))
			c->limit = (double)MAX_INFLIGHT(c->o);
	}
	learn_capacity(c, r, res);
	if (r->kind == K_ROBOTS) {
		fr_robots_cache_put_response(c->robots, r->url, res, now);
		h->robots_status = res->status;
		free(h->robots_err);
		h->robots_err = res->outcome == FR_NET_OK || res->outcome == FR_NET_NOT_MODIFIED ||
		                        res->outcome == FR_NET_HTTP_ERROR
		                    ? NULL
		                    : strdup(res->err[0] ? res->err : fr_net_outcome_name(res->outcome));
		req_free(r);
		host_ready(c, h);
		return;
	}
	s->res.requests++;
	if (!s->finished) {
		if (res->outcome == FR_NET_OK) {
			s->ok += !res->truncated;
			process(c, s, r, res);
		} else if (res->location && res->status >= 300 && res->status < 400) {
			s->ok++;
			follow(c, s, r, res);
		} else {
			fail(s, res->err[0] ? res->err : fr_net_outcome_name(res->outcome));
			if (res->outcome == FR_NET_TOO_LARGE) /* a Content-Length over the cap */
				set_str(&s->note, s->last_fail);
		}
		if (res->outcome != FR_NET_OK && !(res->location && res->status >= 300 &&
		                                   res->status < 400) && r->is_start && !s->start_done) {
			free(s->start_error);
			s->start_error = strdup(res->err[0] ? res->err : fr_net_outcome_name(res->outcome));
			if (res->status > 0) { /* the host answered: probing may still find a feed */
				char *sl = strstr(r->url, "://");
				sl = sl ? strchr(sl + 3, '/') : NULL;
				s->start_done = 1;
				free(s->origin);
				s->origin = sl ? strndup(r->url, (size_t)(sl - r->url)) : strdup(r->url);
			}
		}
	}
	req_free(r);
	host_ready(c, h);
	site_release(c, s);
}

/* Counts [from, now) as time s waited for a transfer slot (the part not
 * counted yet, and none before its first request). */
static void
site_pause(struct site *s, double from, double now)
{
	if (from < s->pause_mark)
		from = s->pause_mark;
	if (from < s->started_s)
		from = s->started_s;
	if (now > from) {
		s->paused_s += now - from;
		s->pause_mark = now;
	}
}

/* Sends the next request of h, or drops what may not be sent. ready_s: when
 * h could send (its key in the heap); the time from then, or from when the
 * request was queued if later, to now was spent waiting for a slot. */
static void
dispatch(struct ctx *c, struct host *h, double ready_s, double now)
{
	char err[FR_ERRLEN];
	struct req *r;

	while ((r = pop(h)) != NULL) {
		struct site *s = r->site;
		double cd = -1, waited_from = r->queued_s > ready_s ? r->queued_s : ready_s;

		if (s && s->finished) {
			req_free(r);
			site_unref(s);
			continue;
		}
		if (r->kind != K_ROBOTS && c->robots) {
			enum fr_robots_verdict v = fr_robots_cache_check(c->robots, r->url, now, &cd);

			if (v == FR_ROBOTS_FETCH) {
				struct req *rb = calloc(1, sizeof(*rb));
				char *u = fr_robots_url(r->url);

				/* r goes back to the front; robots.txt is sent first */
				push_front(h, r);
				if (!rb || !u) {
					free(rb);
					free(u);
					c->oom = 1;
					return;
				}
				rb->host = h;
				rb->url = u;
				rb->kind = K_ROBOTS;
				r = rb;
			} else if (v == FR_ROBOTS_PENDING) {
				push_front(h, r);
				h->next_ok = now + 0.25;
				host_ready(c, h);
				return;
			} else if (v == FR_ROBOTS_DENIED) {
				char msg[FR_ERRLEN + MAX_URL_LEN + 128], *ru = fr_robots_url(r->url);

				if (h->robots_err)
					snprintf(msg, sizeof(msg),
					         "robots.txt %s could not be read (%s): a temporary failure, "
					         "nothing of the host may be fetched (RFC 9309)",
					         ru ? ru : h->name, h->robots_err);
				else if (h->robots_status >= 500)
					snprintf(msg, sizeof(msg),
					         "robots.txt %s answered HTTP %ld: a temporary failure, "
					         "nothing of the host may be fetched (RFC 9309)",
					         ru ? ru : h->name, h->robots_status);
				else
					snprintf(msg, sizeof(msg), "robots.txt %s disallows %.2048s",
					         ru ? ru : h->name, r->url);
				free(ru);
				if (r->is_start && !s->start_done)
					set_str(&s->start_error, msg);
				s->res.skipped_robots++;
				req_free(r);
				site_release(c, s);
				continue;
			} else if (cd > h->gap_s) {
				h->gap_s = cd; /* Crawl-delay: from the next request on */
			}
		}
		{
			struct fr_request q = {.url = r->url, .tag = (uint64_t)(uintptr_t)r};

			if (fr_fetcher_submit(c->f, &q, err, sizeof(err)) < 0) {
				c->oom = 1;
				req_free(r);
				if (s)
					site_unref(s);
				return;
			}
		}
		r->prev = NULL;
		r->next = c->inflight;
		if (c->inflight)
			c->inflight->prev = r;
		c->inflight = r;
		if (s) {
			if (s->started_s == 0)
				s->started_s = now; /* its time runs from its first request */
			site_pause(s, waited_from, now);
			if (r->kind == K_PAGE)
				s->res.pages++;
			else if (r->kind == K_CAND)
				s->res.candidates++;
			else if (r->kind == K_PROBE)
				s->res.probes++;
		}
		h->busy = 1;
		return;
	}
}

/* Sends what is ready, up to the current transfer limit. No more in flight
 * than that: the rest wait here, where a site's time limit can still end
 * them. */
static void
dispatch_ready(struct ctx *c, double now)
{
	uint32_t hid;
	double key;

	while ((double)fr_fetcher_running(c->f) < c->limit && fr_heap_peek(c->ready, &hid, &key) &&
	       key <= now && !c->oom) {
		fr_heap_pop(c->ready, &hid, &key);
		dispatch(c, c->hosts[hid], key, now);
	}
}

static struct site *
site_new(struct ctx *c, size_t index, const char *input)
{
	struct site *s = calloc(1, sizeof(*s));
	char err[FR_ERRLEN], *h = NULL;

	if (!s)
		return NULL;
	s->index = index;
	s->input = strdup(input);
	s->seen = fr_strmap_new();
	s->paths = fr_strmap_new();
	s->feed_keys = fr_strmap_new();
	if (!s->input || !s->seen || !s->paths || !s->feed_keys) {
		site_free(s);
		return NULL;
	}
	if (!strstr(input, "://")) { /* "example.com": http://example.com/ */
		size_t n = strlen(input) + 16;
		char *u = malloc(n);
		if (u)
			snprintf(u, n, "http://%s", input);
		s->start = u ? fr_url_normalize(u, 0, err, sizeof(err)) : NULL;
		free(u);
	} else {
		s->start = fr_url_normalize(input, 0, err, sizeof(err));
	}
	if (s->start && strncmp(s->start, "http://", 7) && strncmp(s->start, "https://", 8)) {
		snprintf(err, sizeof(err), "url '%s': not an http(s) address", input);
		free(s->start);
		s->start = NULL;
	}
	if (s->start)
		h = fr_url_host(s->start);
	if (!s->start || !h) {
		s->start_error = strdup(s->start ? "no host" : err);
		s->domain = strdup("");
		free(h);
		return s;
	}
	s->domain = registrable(c->psl, h);
	free(h);
	return s;
}

/* Whether a new site may start now: under the cap (--sites-at-once, and
 * the sites the transfers can serve: site_cap), a transfer slot free, and
 * no admitted site with a request ready to send (those come first). A site
 * waiting for its host's gap asks for a transfer soon: without site_cap,
 * sites kept starting while those waited, and their pages then queued
 * behind each other (200 sites started in the first 0.2 s gap of
 * tests/e2e/discover_many.sh, half of them ran out of time). */
static int
may_admit(struct ctx *c, double now)
{
	uint32_t hid;
	double key;

	if (c->n_active >= MAX_ACTIVE(c->o) || c->oom)
		return 0;
	if (c->n_active == 0)
		return 1;
	if ((double)c->n_active >= c->site_cap)
		return 0;
	if ((double)fr_fetcher_running(c->f) >= c->limit)
		return 0;
	return !(fr_heap_peek(c->ready, &hid, &key) && key <= now);
}

static void
admit(struct ctx *c, const char *const *sites, size_t n, size_t *next)
{
	while (*next < n && may_admit(c, fr_time_now())) {
		struct site *s = site_new(c, *next, sites[*next]);

		(*next)++;
		if (!s) {
			c->oom = 1;
			return;
		}
		s->next = c->active;
		if (c->active)
			c->active->prev = s;
		c->active = s;
		c->n_active++;
		if (!s->start) {
			site_finish(c, s, FR_END_UNREACHABLE);
			continue;
		}
		enqueue(c, s, s->start, K_PAGE, FR_VIA_SELF, 0, NULL, NULL);
		if (s->refs == 0) /* not even queued (a limit of 0 pages) */
			site_check(c, s);
		else /* send it now, so the next check sees the slot taken */
			dispatch_ready(c, fr_time_now());
	}
}

/* A site's own time: from its first request, less the time its requests
 * waited for a transfer slot, including a wait still going on
 * (pending_from). */
static double
site_used(const struct site *s, double now)
{
	double u = now - s->started_s - s->paused_s;

	if (s->pending_from > 0) {
		double from = s->pending_from;

		if (from < s->pause_mark)
			from = s->pause_mark;
		if (from < s->started_s)
			from = s->started_s;
		if (now > from)
			u -= now - from;
	}
	return u;
}

/* Marks the waits going on now: hosts that may send (key <= now) but are
 * still queued wait for a slot; the first request of each with a site
 * (robots.txt has none: the request behind it waits with it) is that
 * site's. */
static void
mark_pending(struct ctx *c, double now)
{
	size_t n = fr_heap_len(c->ready), k;
	uint32_t *ids, *stack;

	if (!n)
		return;
	ids = malloc(n * sizeof(*ids));
	stack = malloc(n * sizeof(*stack));
	if (ids && stack) {
		k = fr_heap_collect(c->ready, now, ids, n, stack);
		for (size_t i = 0; i < k; i++) {
			struct host *h = c->hosts[ids[i]];
			struct req *r = h->hi;

			while (r && !r->site)
				r = r->next;
			if (!r)
				for (r = h->lo; r && !r->site; r = r->next)
					;
			if (r && !r->site->finished) {
				double from = r->queued_s > h->next_ok ? r->queued_s : h->next_ok;

				if (r->site->pending_from == 0 || from < r->site->pending_from)
					r->site->pending_from = from;
			}
		}
	}
	free(ids);
	free(stack);
}

/* Ends the sites whose own time ran out. */
static void
check_time(struct ctx *c, double now)
{
	struct site *s, *nx;
	double max = MAX_TIME(c->o);
	int over = 0;

	for (s = c->active; s && !over; s = s->next)
		over = s->started_s > 0 && site_used(s, now) >= max;
	if (!over)
		return;
	mark_pending(c, now);
	for (s = c->active; s; s = nx) {
		nx = s->next;
		if (s->started_s > 0 && site_used(s, now) >= max)
			site_finish(c, s, FR_END_TIME);
		else
			s->pending_from = 0;
	}
}

int
fr_discover_run(const char *const *sites, size_t n, const struct fr_discover_opts *o,
                void (*on_site)(void *arg, const struct fr_discover_site *s), void *arg,
                const volatile sig_atomic_t *stop, char *err, size_t errlen)
{
	struct ctx c;
	size_t next = 0;
	int rc = 0;
	double last_time_check = 0;

	memset(&c, 0, sizeof(c));
	c.o = o;
	c.on_site = on_site;
	c.arg = arg;
	c.psl = psl_ctx();
	c.heap_cap = 1024;
	c.limit = (double)MAX_INFLIGHT(o); /* halved by timeouts, grown back by answers */
	c.site_cap = site_target(&c);      /* twice the transfers until a page's time is known */
	c.host_ids = fr_strmap_new();
	c.ready = fr_heap_new(c.heap_cap);
	if (!c.host_ids || !c.ready) {
		rc = fr_errf(err, errlen, "discover: out of memory");
		goto out;
	}
	{
		struct fr_fetch_opts fo = o->fetch;

		/* Redirects are followed here, not by libcurl, so that each hop
		 * waits for its host's robots.txt and gap. */
		fo.max_redirects = -1;
		/* A page over the cap is cut there, not lost: its head names its
		 * feeds (process() reads what came, and no cut feed). */
		fo.truncate_body = 1;
		/* Discovery seldom comes back to a host after its last page: a
		 * small cache of idle connections (one per transfer slot) costs
		 * fewer reconnects than scanning and polling a large one (four
		 * times as many made the polite bench_discover run 45 s instead of
		 * 25 s); a reconnect over TLS resumes its session (the fetcher
		 * shares TLS sessions), so it costs no full handshake. */
		if (!fo.max_idle)
			fo.max_idle = fo.max_total > 0 ? fo.max_total : 64;
		if (fr_fetcher_new(&c.f, &fo, err, errlen) < 0) {
			rc = -1;
			goto out;
		}
	}
	if (o->robots) {
		struct fr_robots_cache_opts ro = {.max_crawl_delay_s = o->max_crawl_delay_s > 0
		                                                           ? o->max_crawl_delay_s
		                                                           : 30};
		char ua[512];

		snprintf(ua, sizeof(ua), "%s", o->fetch.user_agent ? o->fetch.user_agent : "freshet");
		if (fr_robots_cache_new(&c.robots, ua, &ro, err, errlen) < 0) {
			rc = -1;
			goto out;
		}
	}
	admit(&c, sites, n, &next);
	while (!c.oom && (c.active || next < n)) {
		double now = fr_time_now(), key;
		uint32_t hid;
		int timeout_ms = 100;

		if (stop && *stop) {
			while (c.active)
				site_finish(&c, c.active, FR_END_TIME);
			break;
		}
		if (now - last_time_check >= 0.1) {
			check_time(&c, now);
			last_time_check = now;
		}
		/* No more in flight than the fetcher runs at once: the rest wait
		 * here, where a site's time limit can still end them. */
		dispatch_ready(&c, now);
		admit(&c, sites, n, &next);
		if (!c.active && next >= n)
			break;
		if ((double)fr_fetcher_running(c.f) < c.limit && fr_heap_peek(c.ready, &hid, &key)) {
			double w = (key - fr_time_now()) * 1000.0;
			timeout_ms = w < 0 ? 0 : w > 100 ? 100 : (int)w + 1;
		} /* else: the poll returns as soon as a transfer ends */
		if (fr_fetcher_running(c.f) == 0) {
			if (!fr_heap_len(c.ready)) {
				/* nothing in flight and nothing queued: every active site
				 * is waiting for nothing; settle them */
				struct site *s = c.active, *nx;
				for (; s; s = nx) {
					nx = s->next;
					if (s->refs == 0)
						site_check(&c, s);
					else /* cannot happen: reported as it stands */
						site_finish(&c, s, FR_END_DONE);
				}
				continue;
			}
			if (timeout_ms > 0) {
				struct timespec ts = {0, (long)timeout_ms * 1000000L};
				nanosleep(&ts, NULL);
			}
			continue;
		}
		if (fr_fetcher_poll(c.f, timeout_ms, on_done, &c) < 0) {
			rc = fr_errf(err, errlen, "discover: the fetcher failed");
			break;
		}
	}
	if (c.oom && rc == 0)
		rc = fr_errf(err, errlen, "discover: out of memory");
out:
	/* Sites still active (an error above) are reported as they stand. */
	while (c.active)
		site_finish(&c, c.active, FR_END_TIME);
	fr_fetcher_free(c.f); /* aborts transfers without callbacks: free their requests */
	while (c.inflight) {
		struct req *r = c.inflight;
		c.inflight = r->next;
		if (r->site)
			site_unref(r->site);
		req_free(r);
	}
	for (size_t i = 0; i < c.n_hosts; i++) {
		struct req *r;
		while ((r = pop(c.hosts[i])) != NULL) {
			if (r->site)
				site_unref(r->site);
			req_free(r);
		}
		free(c.hosts[i]->name);
		free(c.hosts[i]->robots_err);
		free(c.hosts[i]);
	}
	free(c.hosts);
	fr_strmap_free(c.host_ids);
	fr_heap_free(c.ready);
	fr_robots_cache_free(c.robots);
	return rc;
}
