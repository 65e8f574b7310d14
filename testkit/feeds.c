/* feeds.c - rendering the feeds of a trace on the serve clock. A rendered
 * body is cached per source, keyed by its visible item count, and shared
 * (reference-counted) by every answer that sends it, so a crawl benchmark
 * measures the crawler, not this server. */
#include "testkit/feeds.h"
#include "testkit/text.h"

#include "core/err.h"
#include "core/strmap.h"
#include "core/timefmt.h"
#include "parse/opml.h"
#include "testkit/clock.h"
#include "net/httpdate.h"
#include "testkit/server.h"
#include "sim/trace.h"

#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define N_STRIPES 64                /* locks over the per-source cache */
#define BODY_MAX ((size_t)64 << 20) /* cap on one rendered body */
#define NAME_URL_MAX 1024           /* cap on a percent-encoded source name */

/* A rendered body, shared by the cache and the answers sending it. */
struct body {
	atomic_int refs;
	size_t len;
	char data[];
};

struct cache {
	struct body *body; /* NULL until first asked */
	size_t count;      /* visible items it shows */
};

struct fr_serve_feeds {
	struct fr_serve_feeds_config cfg;
	const struct fr_trace *tr;
	uint32_t n_hosts;
	uint32_t *src_host;   /* [n_sources] */
	uint32_t *host_first; /* [n_hosts + 1]: CSR of the sources of each host */
	uint32_t *host_src;   /* [n_sources] */
	int64_t *lm_s;        /* [n_items] Last-Modified when the item is the newest */
	struct cache *cache;  /* [n_sources] */
	pthread_mutex_t stripe[N_STRIPES];
	unsigned run_id; /* in ETags, so validators of another run never match */
};

static const char *const EXT[FR_SERVE_N_FORMATS] = {"rss", "atom", "json"};
static const char *const CTYPE[FR_SERVE_N_FORMATS] = {"application/rss+xml; charset=utf-8",
                                                      "application/atom+xml; charset=utf-8",
                                                      "application/feed+json; charset=utf-8"};

const char *
fr_serve_format_ext(enum fr_serve_format f)
{
	return (unsigned)f < FR_SERVE_N_FORMATS ? EXT[f] : "?";
}

void
fr_serve_feeds_config_defaults(struct fr_serve_feeds_config *c)
{
	memset(c, 0, sizeof(*c));
	c->window = 25;
	c->formats[0] = FR_SERVE_RSS;
	c->formats[1] = FR_SERVE_ATOM;
	c->formats[2] = FR_SERVE_JSON;
	c->n_formats = 3;
	c->misbehave = 1;
	c->domain = "freshet.test";
}

/* ---- names, URLs and times ---- */

/* Percent-encodes a path segment: all but unreserved characters. */
static void
url_segment(const char *s, char *out, size_t len)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t o = 0;

	for (; *s && o + 4 < len; s++) {
		unsigned char c = (unsigned char)*s;

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		    c == '-' || c == '.' || c == '_' || c == '~') {
			out[o++] = (char)c;
		} else {
			out[o++] = '%';
			out[o++] = hex[c >> 4];
			out[o++] = hex[c & 15];
		}
	}
	out[o] = '\0';
}

/* Wall-equivalent of item j in whole milliseconds (floored). */
static int64_t
item_ms(const struct fr_serve_feeds *f, size_t j)
{
	return (int64_t)floor(fr_serve_clock_wall(f->cfg.clock, f->tr->item_time_s[j]) * 1000);
}

static int64_t
floor_div(int64_t a, int64_t b)
{
	return a / b - (a % b != 0 && ((a < 0) != (b < 0)));
}

/* RFC 3339 with milliseconds: "2012-10-01T00:00:00.123Z". */
static char *
rfc3339_ms(int64_t ms, char *buf, size_t len)
{
	int64_t sec = floor_div(ms, 1000);
	size_t n;

	fr_time_format((double)sec, buf, len);
	n = strlen(buf);
	if (n > 0 && buf[n - 1] == 'Z' && n + 5 <= len)
		snprintf(buf + n - 1, len - (n - 1), ".%03dZ", (int)(ms - sec * 1000));
	return buf;
}

uint32_t
fr_serve_feeds_n_hosts(const struct fr_serve_feeds *f)
{
	return f->n_hosts;
}

uint32_t
fr_serve_feeds_host(const struct fr_serve_feeds *f, uint32_t s)
{
	return f->src_host[s];
}

enum fr_serve_format
fr_serve_feeds_format(const struct fr_serve_feeds *f, uint32_t s)
{
	return f->cfg.formats[s % f->cfg.n_formats];
}

static char *
feed_url(const struct fr_serve_feeds *f, uint32_t s, char *buf, size_t len)
{
	char host[128], seg[NAME_URL_MAX];

	fr_serve_host_name(f->src_host[s], f->cfg.domain, host, sizeof(host));
	url_segment(fr_trace_source_name(f->tr, s), seg, sizeof(seg));
	snprintf(buf, len, "http://%s/feeds/%s.%s", host, seg, EXT[fr_serve_feeds_format(f, s)]);
	return buf;
}

char *
fr_serve_feeds_url(const struct fr_serve_feeds *f, uint32_t s, char *buf, size_t len)
{
	return feed_url(f, s, buf, len);
}

size_t
fr_serve_feeds_visible(const struct fr_serve_feeds *f, uint32_t s, double t_s)
{
	const double *t = f->tr->item_time_s;
	size_t lo = f->tr->first[s], hi = f->tr->first[s + 1], base = lo;

	while (lo < hi) { /* first item later than t_s */
		size_t mid = lo + (hi - lo) / 2;
		if (t[mid] <= t_s)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo - base;
}

/* ---- building ---- */

void
fr_serve_feeds_free(struct fr_serve_feeds *f)
{
	if (!f)
		return;
	if (f->cache) {
		for (uint32_t s = 0; s < f->tr->n_sources; s++)
			free(f->cache[s].body);
	}
	for (int i = 0; i < N_STRIPES; i++)
		pthread_mutex_destroy(&f->stripe[i]);
	free(f->src_host);
	free(f->host_first);
	free(f->host_src);
	free(f->lm_s);
	free(f->cache);
	free(f);
}

struct fr_serve_feeds *
fr_serve_feeds_new(const struct fr_serve_feeds_config *cfg, char *err, size_t errlen)
{
	const struct fr_trace *tr = cfg->tr;
	struct fr_serve_feeds *f;
	uint32_t n, s, h;
	size_t n_trace_hosts;
	uint64_t mix;

	if (!tr || !cfg->clock || !cfg->domain || cfg->window == 0 ||
	    cfg->n_formats > FR_SERVE_N_FORMATS || !(cfg->clock->speed > 0)) {
		fr_errf(err, errlen, "serve: bad feeds configuration");
		return NULL;
	}
	f = calloc(1, sizeof(*f));
	if (!f) {
		fr_errf(err, errlen, "serve: out of memory");
		return NULL;
	}
	for (int i = 0; i < N_STRIPES; i++)
		pthread_mutex_init(&f->stripe[i], NULL);
	f->cfg = *cfg;
	if (f->cfg.n_formats == 0) {
		struct fr_serve_feeds_config d;
		fr_serve_feeds_config_defaults(&d);
		memcpy(f->cfg.formats, d.formats, sizeof(d.formats));
		f->cfg.n_formats = d.n_formats;
	}
	for (unsigned i = 0; i < f->cfg.n_formats; i++) {
		if ((unsigned)f->cfg.formats[i] >= FR_SERVE_N_FORMATS) {
			fr_serve_feeds_free(f);
			fr_errf(err, errlen, "serve: bad feed format %u",
			        (unsigned)f->cfg.formats[i]);
			return NULL;
		}
	}
	f->tr = tr;
	n = tr->n_sources;
	n_trace_hosts = tr->hosts ? fr_strmap_len(tr->hosts) : n;
	f->src_host = malloc((n ? n : 1) * sizeof(*f->src_host));
	f->host_src = malloc((n ? n : 1) * sizeof(*f->host_src));
	f->lm_s = malloc((tr->n_items ? tr->n_items : 1) * sizeof(*f->lm_s));
	f->cache = calloc(n ? n : 1, sizeof(*f->cache));
	if (cfg->n_hosts)
		f->n_hosts = cfg->n_hosts;
	else if (n_trace_hosts < n)
		f->n_hosts = (uint32_t)n_trace_hosts;
	else
		f->n_hosts = n / 10 > 1 ? n / 10 : 1;
	f->host_first = calloc((size_t)f->n_hosts + 1, sizeof(*f->host_first));
	if (!f->src_host || !f->host_src || !f->lm_s || !f->cache || !f->host_first) {
		fr_serve_feeds_free(f);
		fr_errf(err, errlen, "serve: out of memory for %u sources", (unsigned)n);
		return NULL;
	}
	for (s = 0; s < n; s++) {
		if (!cfg->n_hosts && n_trace_hosts < n)
			f->src_host[s] = tr->host[s];
		else
			f->src_host[s] = s % f->n_hosts;
		f->host_first[f->src_host[s] + 1]++;
	}
	for (h = 0; h < f->n_hosts; h++)
		f->host_first[h + 1] += f->host_first[h];
	{
		uint32_t *fill = calloc((size_t)f->n_hosts, sizeof(*fill));
		if (!fill) {
			fr_serve_feeds_free(f);
			fr_errf(err, errlen, "serve: out of memory");
			return NULL;
		}
		for (s = 0; s < n; s++) {
			h = f->src_host[s];
			f->host_src[f->host_first[h] + fill[h]++] = s;
		}
		free(fill);
	}
	/* Last-Modified strictly increases with every new item, so that an
	 * If-Modified-Since from before an item never hides it, even when
	 * compressed time puts two items in one wall second. */
	for (s = 0; s < n; s++) {
		int64_t prev = INT64_MIN;

		for (size_t j = tr->first[s]; j < tr->first[s + 1]; j++) {
			int64_t lm = floor_div(item_ms(f, j), 1000);
			if (prev != INT64_MIN && lm <= prev)
				lm = prev + 1;
			f->lm_s[j] = prev = lm;
		}
	}
	mix = (uint64_t)(cfg->clock->wall0_s * 1e6) * 0x9E3779B97F4A7C15ull;
	f->run_id = (unsigned)(mix >> 40);
	return f;
}

/* ---- rendering ---- */

static int
illformed(const struct fr_serve_feeds *f, uint32_t s, enum fr_serve_format fmt)
{
	return fmt != FR_SERVE_JSON &&
	       (fr_serve_host_flags(f->src_host[s], f->cfg.misbehave) & FR_SERVE_HOST_ILLFORMED);
}

static void render_from(const struct fr_serve_feeds *f, uint32_t s, size_t count, size_t from,
			struct fr_text *b);

static void
render(const struct fr_serve_feeds *f, uint32_t s, size_t count, struct fr_text *b)
{
	render_from(f, s, count, 0, b);
}

const char *
fr_serve_feeds_render_new(const struct fr_serve_feeds *f, uint32_t s, size_t from, size_t count,
			  struct fr_text *b)
{
	render_from(f, s, count, from, b);
	return CTYPE[fr_serve_feeds_format(f, s)];
}

/* The feed of source s with its items [max(from, count - window), count). */
static void
render_from(const struct fr_serve_feeds *f, uint32_t s, size_t count, size_t from,
	    struct fr_text *b)
{
	const struct fr_trace *tr = f->tr;
	const char *name = fr_trace_source_name(tr, s);
	enum fr_serve_format fmt = fr_serve_feeds_format(f, s);
	int bad = illformed(f, s, fmt);
	size_t first = tr->first[s], lo = count > f->cfg.window ? count - f->cfg.window : 0;
	if (from > lo)
		lo = from; /* a WebSub push: the new items only */
	char host[128], seg[NAME_URL_MAX], url[NAME_URL_MAX + 192], date[FR_HTTPDATE_LEN],
	    d3339[40];
	int64_t newest_ms =
	    count ? item_ms(f, first + count - 1) : (int64_t)floor(f->cfg.clock->wall0_s * 1000);

	fr_serve_host_name(f->src_host[s], f->cfg.domain, host, sizeof(host));
	url_segment(name, seg, sizeof(seg));
	feed_url(f, s, url, sizeof(url));
	if (fmt == FR_SERVE_RSS) {
		fr_text_puts(b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<rss version=\"2.0\">\n"
		            "<channel>\n<title>Source ");
		fr_text_xml(b, name);
		fr_text_printf(b, "</title>\n<link>http://%s/</link>\n<description>Synthetic feed ",
		           host);
		fr_text_xml(b, name);
		fr_text_printf(b, " on %s (freshet serve)</description>\n", host);
		fr_text_printf(
		    b, "<lastBuildDate>%s</lastBuildDate>\n",
		    fr_http_date_format(floor_div(newest_ms, 1000), date, sizeof(date)));
	} else if (fmt == FR_SERVE_ATOM) {
		fr_text_puts(b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		            "<feed xmlns=\"http://www.w3.org/2005/Atom\">\n<title>Source ");
		fr_text_xml(b, name);
		fr_text_puts(b, "</title>\n<id>");
		fr_text_xml(b, url);
		fr_text_puts(b, "</id>\n<link rel=\"self\" href=\"");
		fr_text_xml(b, url);
		fr_text_printf(b,
		           "\"/>\n<link rel=\"alternate\" href=\"http://%s/\"/>\n"
		           "<updated>%s</updated>\n<author><name>freshet serve</name></author>\n",
		           host, rfc3339_ms(newest_ms, d3339, sizeof(d3339)));
	} else {
		fr_text_puts(b,
		         "{\"version\":\"https://jsonfeed.org/version/1.1\",\"title\":\"Source ");
		fr_text_json(b, name);
		fr_text_printf(b, "\",\"home_page_url\":\"http://%s/\",\"feed_url\":\"", host);
		fr_text_json(b, url);
		fr_text_puts(b, "\",\"items\":[");
	}
	for (size_t k = count; k-- > lo;) {
		int64_t ms = item_ms(f, first + k);

		rfc3339_ms(ms, d3339, sizeof(d3339));
		if (fmt == FR_SERVE_RSS) {
			fr_text_puts(b, "<item>\n<title>");
			fr_text_xml(b, name);
			fr_text_printf(b,
			           " item %zu%s</title>\n<link>http://%s/items/%s/%zu</link>\n"
			           "<guid isPermaLink=\"false\">",
			           k, bad ? ": Q&A &nbsp;a < b &copy;" : "", host, seg, k);
			fr_text_xml(b, name);
			fr_text_printf(
			    b, "-%zu</guid>\n<pubDate>%s</pubDate>\n<description>Item %zu of ", k,
			    fr_http_date_format(floor_div(ms, 1000), date, sizeof(date)), k);
			fr_text_xml(b, name);
			fr_text_printf(b, ", published %s.</description>\n</item>\n", d3339);
		} else if (fmt == FR_SERVE_ATOM) {
			fr_text_puts(b, "<entry>\n<title>");
			fr_text_xml(b, name);
			fr_text_printf(b, " item %zu%s</title>\n<id>", k, bad ? ": Q&A &nbsp;a < b &copy;" : "");
			fr_text_xml(b, name);
			fr_text_printf(
			    b,
			    "-%zu</id>\n<link rel=\"alternate\" href=\"http://%s/items/%s/%zu\"/>\n"
			    "<published>%s</published>\n<updated>%s</updated>\n"
			    "<summary>Item %zu of ",
			    k, host, seg, k, d3339, d3339, k);
			fr_text_xml(b, name);
			fr_text_printf(b, ", published %s.</summary>\n</entry>\n", d3339);
		} else {
			fr_text_puts(b, k + 1 == count ? "\n{\"id\":\"" : ",\n{\"id\":\"");
			fr_text_json(b, name);
			fr_text_printf(b, "-%zu\",\"url\":\"http://%s/items/%s/%zu\",\"title\":\"", k,
			           host, seg, k);
			fr_text_json(b, name);
			fr_text_printf(b, " item %zu\",\"content_text\":\"Item %zu of ", k, k);
			fr_text_json(b, name);
			fr_text_printf(b, ", published %s.\",\"date_published\":\"%s\"}", d3339, d3339);
		}
	}
	/* Ill-formed feeds also lack the close tag of their channel/feed's last
	 * child: libxml2's recovery still finds every item. */
	if (fmt == FR_SERVE_RSS)
		fr_text_puts(b, bad ? "</rss>\n" : "</channel>\n</rss>\n");
	else if (fmt == FR_SERVE_ATOM)
		fr_text_puts(b, bad ? "" : "</feed>\n");
	else
		fr_text_puts(b, "\n]}\n");
}

static void
body_unref(void *cls)
{
	struct body *b = cls;

	if (b && atomic_fetch_sub(&b->refs, 1) == 1)
		free(b);
}

/* The body for (s, count), from the cache or rendered; a new reference the
 * caller drops with body_unref. NULL on out-of-memory. */
static struct body *
get_body(struct fr_serve_feeds *f, uint32_t s, size_t count)
{
	pthread_mutex_t *mu = &f->stripe[s % N_STRIPES];
	struct cache *c = &f->cache[s];
	struct body *b;

	pthread_mutex_lock(mu);
	if (!c->body || c->count != count) {
		struct fr_text bb = {.max = BODY_MAX};
		render(f, s, count, &bb);
		b = bb.bad ? NULL : malloc(sizeof(*b) + bb.len + 1);
		if (!b) {
			free(bb.p);
			pthread_mutex_unlock(mu);
			return NULL;
		}
		atomic_init(&b->refs, 1);
		b->len = bb.len;
		memcpy(b->data, bb.p, bb.len + 1);
		free(bb.p);
		body_unref(c->body);
		c->body = b;
		c->count = count;
	}
	b = c->body;
	atomic_fetch_add(&b->refs, 1);
	pthread_mutex_unlock(mu);
	return b;
}

/* Finds the source named by the n bytes at p on host h. */
static int
find_source(const struct fr_serve_feeds *f, uint32_t h, const char *p, size_t n, uint32_t *s)
{
	return n > 0 && fr_strmap_find(f->tr->sources, p, n, s) && f->src_host[*s] == h;
}

static const char NOT_FOUND[] = "not found\n";

static void
not_found(struct fr_serve_resp *resp)
{
	resp->status = 404;
	resp->content_type = "text/plain; charset=utf-8";
	resp->body = NOT_FOUND;
	resp->len = sizeof(NOT_FOUND) - 1;
}

/* Gives resp a malloc'd body from b (taken). */
static int
give_buf(struct fr_text *b, struct fr_serve_resp *resp, const char *ctype)
{
	if (b->bad) {
		free(b->p);
		return -1;
	}
	resp->status = 200;
	resp->content_type = ctype;
	resp->body = b->p ? b->p : "";
	resp->len = b->len;
	resp->release = b->p ? free : NULL;
	resp->release_cls = b->p;
	return 0;
}

static int
host_page(const struct fr_serve_feeds *f, uint32_t h, struct fr_serve_resp *resp)
{
	struct fr_text b = {.max = BODY_MAX};
	char host[128], url[NAME_URL_MAX + 192];

	fr_serve_host_name(h, f->cfg.domain, host, sizeof(host));
	fr_text_printf(&b, "<!DOCTYPE html>\n<html><head><title>%s</title>\n", host);
	for (uint32_t i = f->host_first[h]; i < f->host_first[h + 1]; i++) {
		uint32_t s = f->host_src[i];
		enum fr_serve_format fmt = fr_serve_feeds_format(f, s);

		fr_text_printf(&b, "<link rel=\"alternate\" type=\"%.*s\" title=\"",
		           (int)strcspn(CTYPE[fmt], ";"), CTYPE[fmt]);
		fr_text_xml(&b, fr_trace_source_name(f->tr, s));
		fr_text_puts(&b, "\" href=\"");
		fr_text_xml(&b, feed_url(f, s, url, sizeof(url)));
		fr_text_puts(&b, "\">\n");
	}
	fr_text_printf(&b, "</head><body><h1>%s</h1>\n<ul>\n", host);
	for (uint32_t i = f->host_first[h]; i < f->host_first[h + 1]; i++) {
		uint32_t s = f->host_src[i];

		fr_text_puts(&b, "<li><a href=\"");
		fr_text_xml(&b, feed_url(f, s, url, sizeof(url)));
		fr_text_puts(&b, "\">");
		fr_text_xml(&b, fr_trace_source_name(f->tr, s));
		fr_text_puts(&b, "</a></li>\n");
	}
	fr_text_puts(&b, "</ul></body></html>\n");
	return give_buf(&b, resp, "text/html; charset=utf-8");
}

static int
item_page(const struct fr_serve_feeds *f, uint32_t s, size_t k, struct fr_serve_resp *resp)
{
	const char *name = fr_trace_source_name(f->tr, s);
	struct fr_text b = {.max = BODY_MAX};
	char d3339[40];

	rfc3339_ms(item_ms(f, f->tr->first[s] + k), d3339, sizeof(d3339));
	fr_text_puts(&b, "<!DOCTYPE html>\n<html><head><title>");
	fr_text_xml(&b, name);
	fr_text_printf(&b, " item %zu</title></head><body><h1>", k);
	fr_text_xml(&b, name);
	fr_text_printf(&b, " item %zu</h1><p>Item %zu of ", k, k);
	fr_text_xml(&b, name);
	fr_text_printf(&b, ", published <time datetime=\"%s\">%s</time>.</p></body></html>\n", d3339,
	           d3339);
	return give_buf(&b, resp, "text/html; charset=utf-8");
}

int
fr_serve_feeds_handle(void *ctx, const struct fr_serve_req *req, struct fr_serve_resp *resp)
{
	struct fr_serve_feeds *f = ctx;
	const char *path = req->path;
	double t = fr_serve_clock_trace(f->cfg.clock, req->wall_s);
	uint32_t s;

	if (!strcmp(path, "/"))
		return host_page(f, req->host, resp);
	if (!strncmp(path, "/feeds/", 7)) {
		const char *name = path + 7, *dot = strrchr(name, '.');
		enum fr_serve_format fmt;
		struct body *b;
		size_t count;

		if (!dot || !find_source(f, req->host, name, (size_t)(dot - name), &s)) {
			not_found(resp);
			return 0;
		}
		fmt = fr_serve_feeds_format(f, s);
		if (strcmp(dot + 1, EXT[fmt]) != 0) {
			not_found(resp);
			return 0;
		}
		count = fr_serve_feeds_visible(f, s, t);
		b = get_body(f, s, count);
		if (!b)
			return -1;
		resp->status = 200;
		resp->content_type = CTYPE[fmt];
		resp->body = b->data;
		resp->len = b->len;
		resp->release = body_unref;
		resp->release_cls = b;
		snprintf(resp->etag, sizeof(resp->etag), "\"%u-%zu-%08x%s\"", (unsigned)s, count,
		         f->run_id, illformed(f, s, fmt) ? "-x" : "");
		resp->last_modified_s = count ? f->lm_s[f->tr->first[s] + count - 1] : -1;
		return 0;
	}
	if (!strncmp(path, "/items/", 7)) {
		const char *name = path + 7, *slash = strrchr(name, '/'), *p;
		size_t k = 0;

		if (!slash || !slash[1] ||
		    !find_source(f, req->host, name, (size_t)(slash - name), &s)) {
			not_found(resp);
			return 0;
		}
		for (p = slash + 1; *p >= '0' && *p <= '9' && k < ((size_t)1 << 40); p++)
			k = k * 10 + (size_t)(*p - '0');
		if (*p || (slash[1] == '0' && slash[2]) || k >= fr_serve_feeds_visible(f, s, t)) {
			not_found(resp);
			return 0;
		}
		return item_page(f, s, k, resp);
	}
	not_found(resp);
	return 0;
}

/* ---- OPML and truth ---- */

/* A CSV field: quoted when it holds a comma, quote or line break. */
static void
csv_field(FILE *out, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

/* Sets o's strings to one malloc'd block holding copies of url, home and
 * title. Returns 0 or -1 on out-of-memory. */
static int
outline_set(struct fr_opml_outline *o, const char *url, const char *home, const char *title)
{
	size_t lu = strlen(url) + 1, lh = strlen(home) + 1, lt = strlen(title) + 1;
	char *p = malloc(lu + lh + lt);

	if (!p)
		return -1;
	memcpy(p, url, lu);
	memcpy(p + lu, home, lh);
	memcpy(p + lu + lh, title, lt);
	o->xml_url = p;
	o->html_url = p + lu;
	o->title = p + lu + lh;
	return 0;
}

int
fr_serve_feeds_write_opml(const struct fr_serve_feeds *f, FILE *out, const char *name, char *err,
                          size_t errlen)
{
	const struct fr_trace *tr = f->tr;
	size_t n = tr->n_sources, n_out = 0;
	struct fr_opml_outline *o;
	char url[NAME_URL_MAX + 192], home[160], title[NAME_URL_MAX + 64], host[128], hp[48];
	int rc = 0;

	for (uint32_t h = 0; h < f->n_hosts; h++)
		n += (fr_serve_host_flags(h, f->cfg.misbehave) & FR_SERVE_HOST_HUGE) != 0;
	o = calloc(n ? n : 1, sizeof(*o));
	if (!o)
		return fr_errf(err, errlen, "%s: out of memory for %zu outlines", name, n);
	for (uint32_t s = 0; s < tr->n_sources && rc == 0; s++) {
		fr_serve_host_name(f->src_host[s], f->cfg.domain, host, sizeof(host));
		snprintf(home, sizeof(home), "http://%s/", host);
		snprintf(title, sizeof(title), "Source %s", fr_trace_source_name(tr, s));
		rc = outline_set(&o[n_out++], feed_url(f, s, url, sizeof(url)), home, title);
	}
	for (uint32_t h = 0; h < f->n_hosts && rc == 0; h++) {
		if (!(fr_serve_host_flags(h, f->cfg.misbehave) & FR_SERVE_HOST_HUGE))
			continue;
		fr_serve_host_name(h, f->cfg.domain, host, sizeof(host));
		snprintf(home, sizeof(home), "http://%s/", host);
		snprintf(url, sizeof(url), "http://%s%s", host,
		         fr_serve_huge_path(h, hp, sizeof(hp)));
		snprintf(title, sizeof(title), "Huge feed of %s", host);
		o[n_out].category = "huge";
		rc = outline_set(&o[n_out++], url, home, title);
	}
	if (rc < 0)
		fr_errf(err, errlen, "%s: out of memory for %zu outlines", name, n);
	else if (fr_opml_write(out, "freshet serve", o, n_out) < 0 || fflush(out) != 0 ||
	         ferror(out))
		rc = fr_errf(err, errlen, "%s: write error", name);
	for (size_t i = 0; i < n_out; i++)
		free((char *)o[i].xml_url);
	free(o);
	return rc;
}

int
fr_serve_feeds_write_truth(const struct fr_serve_feeds *f, FILE *out, const char *name,
                           double t_end_s, size_t *rows, char *err, size_t errlen)
{
	const struct fr_trace *tr = f->tr;
	double start = f->cfg.clock->start_s;
	char url[NAME_URL_MAX + 192], id[NAME_URL_MAX + 32];
	size_t nrows = 0;

	fputs("source,feed_url,id,published_s\n", out);
	for (uint32_t s = 0; s < tr->n_sources; s++) {
		const char *sname = fr_trace_source_name(tr, s);
		size_t at_start = fr_serve_feeds_visible(f, s, start);
		size_t at_end = fr_serve_feeds_visible(f, s, t_end_s);
		size_t lo = at_start > f->cfg.window ? at_start - f->cfg.window : 0;

		feed_url(f, s, url, sizeof(url));
		for (size_t k = lo; k < at_end; k++) {
			int64_t ms = item_ms(f, tr->first[s] + k);
			int64_t sec = floor_div(ms, 1000);

			snprintf(id, sizeof(id), "%s-%zu", sname, k);
			csv_field(out, sname);
			fputc(',', out);
			csv_field(out, url);
			fputc(',', out);
			csv_field(out, id);
			fprintf(out, ",%lld.%03d\n", (long long)sec, (int)(ms - sec * 1000));
			nrows++;
		}
	}
	if (fflush(out) != 0 || ferror(out))
		return fr_errf(err, errlen, "%s: write error", name);
	if (rows)
		*rows = nrows;
	return 0;
}
