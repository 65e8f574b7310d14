/* server.c - libmicrohttpd with one thread per connection (so that a slow
 * host's 2 s answer holds up nobody else), virtual hosts by Host header (or
 * any Host, passed to the handler), robots.txt, sliding-window rate limits,
 * misbehaviour, and the request log. */
#include "testkit/server.h"

#include "core/err.h"
#include "net/httpdate.h"
#include "testkit/clock.h"

#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#define MAX_LIMIT_N 100000u /* cap on a window's request count (ring size) */
#define HUGE_BLOCK (64 * 1024)
#define LOG_FIELD_CAP 512 /* bytes of a host, path or User-Agent in a log line */
#define HOST_NAME_CAP 256 /* bytes of a Host name given to a handler */
#define ANY_HOST_THREADS 4 /* any-host mode's pool of polling threads */

/* One request's own state, made by the URI callback (which alone sees the
 * request line's query as sent) and freed when the request completes. */
struct rq {
	int started; /* the access handler has been called once */
	/* A POST's body (config max_post), and whether it went past the cap. */
	char *post;
	size_t post_len;
	int post_big;
	char query[]; /* raw query, without '?' and fragment; "" when none */
};

/* Sliding window: the times of the last n requests let through. */
struct window {
	double *t;               /* ring of n times */
	unsigned n, count, head; /* head: index of the oldest */
	double span_s;
};

/* Requests seen per path of a FAIL500 host (a path known by its 64-bit
 * FNV-1a hash; 0 marks a free slot): open addressing, never grown. */
struct fail_paths {
	uint64_t key[FR_SERVE_FAIL500_PATHS];
	unsigned n[FR_SERVE_FAIL500_PATHS];
};

struct host {
	pthread_mutex_t mu;
	struct window all, api;
	struct fail_paths *fail; /* FAIL500 hosts only */
	uint64_t n_taken;        /* requests counted for FAIL503 (robots.txt aside) */
};

struct fr_serve {
	struct fr_serve_config cfg;
	struct MHD_Daemon *d;
	uint16_t port;
	struct host *hosts; /* [n_hosts] */
	pthread_mutex_t log_mu;
	pthread_mutex_t err_mu;
	char mhd_err[256];          /* last message libmicrohttpd logged */
	atomic_uint_fast64_t st[9]; /* in the order of struct fr_serve_stats */
};

enum { ST_REQ, ST_OK, ST_304, ST_3XX, ST_404, ST_429, ST_500, ST_503, ST_OTHER };

unsigned
fr_serve_host_flags(uint32_t k, int misbehave)
{
	unsigned f = 0, r = k % 40;

	if (k < 3)
		return 0;
	if (r == 7 || r == 18)
		f |= FR_SERVE_HOST_API;
	if (r == 9)
		f |= FR_SERVE_HOST_CRAWL_DELAY;
	if (k % 4 == 3)
		f |= FR_SERVE_HOST_RETRY_DATE;
	if (!misbehave)
		return f;
	switch (r) {
	case 3:
		f |= FR_SERVE_HOST_SLOW;
		break;
	case 5:
		f |= FR_SERVE_HOST_FAIL500;
		break;
	case 11:
		f |= FR_SERVE_HOST_FAIL503;
		break;
	case 13:
		f |= FR_SERVE_HOST_ILLFORMED;
		break;
	case 15:
		f |= FR_SERVE_HOST_REDIRECT;
		break;
	case 17:
		f |= FR_SERVE_HOST_HUGE;
		break;
	default:
		break;
	}
	return f;
}

char *
fr_serve_host_name(uint32_t k, const char *domain, char *buf, size_t len)
{
	snprintf(buf, len, "h%u.%s", (unsigned)k, domain);
	return buf;
}

char *
fr_serve_huge_path(uint32_t k, char *buf, size_t len)
{
	snprintf(buf, len, "/huge/%u.rss", (unsigned)k);
	return buf;
}

void
fr_serve_config_defaults(struct fr_serve_config *c)
{
	memset(c, 0, sizeof(*c));
	c->n_hosts = 1;
	c->domain = "freshet.test";
	c->misbehave = 1;
	c->api_limit_n = 2;
	c->api_limit_window_s = 5;
	c->slow_s = 2;
	c->huge_bytes = (uint64_t)64 << 20;
	c->max_conns = 1024;
}

/* ---- rate limits ---- */

static int
window_init(struct window *w, unsigned n, double span_s)
{
	memset(w, 0, sizeof(*w));
	if (n == 0 || !(span_s > 0))
		return 0;
	w->t = malloc(n * sizeof(*w->t));
	if (!w->t)
		return -1;
	w->n = n;
	w->span_s = span_s;
	return 0;
}

/* Seconds until a request at now would be let through (0: now). */
static double
window_wait(const struct window *w, double now)
{
	double free_at;

	if (!w->t || w->count < w->n)
		return 0;
	free_at = w->t[w->head] + w->span_s;
	return free_at > now ? free_at - now : 0;
}

static void
window_add(struct window *w, double now)
{
	if (!w->t)
		return;
	if (w->count < w->n) {
		w->t[(w->head + w->count) % w->n] = now;
		w->count++;
	} else {
		w->t[w->head] = now;
		w->head = (w->head + 1) % w->n;
	}
}

/* Counts a request at now on host h unless a limit forbids it; returns the
 * wait in seconds (0: let through and counted). */
static double
limit_check(struct fr_serve *s, uint32_t h, unsigned flags, double now)
{
	struct host *ho = &s->hosts[h];
	double wait;

	pthread_mutex_lock(&ho->mu);
	wait = window_wait(&ho->all, now);
	if (flags & FR_SERVE_HOST_API) {
		double w2 = window_wait(&ho->api, now);
		if (w2 > wait)
			wait = w2;
	}
	if (wait <= 0) {
		window_add(&ho->all, now);
		if (flags & FR_SERVE_HOST_API)
			window_add(&ho->api, now);
	}
	pthread_mutex_unlock(&ho->mu);
	return wait;
}

/* ---- request parsing ---- */

/* Host index of a Host header "h<k>.<domain>[.][:port]" (any case), or -1. */
static int64_t
parse_host(const struct fr_serve *s, const char *v)
{
	const char *dom = s->cfg.domain, *p = v;
	size_t dlen = strlen(dom);
	uint64_t k = 0;

	if (!v || (*p != 'h' && *p != 'H'))
		return -1;
	p++;
	if (*p < '0' || *p > '9' || (*p == '0' && p[1] >= '0' && p[1] <= '9'))
		return -1;
	for (; *p >= '0' && *p <= '9'; p++) {
		k = k * 10 + (uint64_t)(*p - '0');
		if (k >= s->cfg.n_hosts)
			return -1;
	}
	if (*p != '.' || strncasecmp(p + 1, dom, dlen) != 0)
		return -1;
	p += 1 + dlen;
	if (*p == '.')
		p++;
	if (*p == ':') {
		for (p++; *p >= '0' && *p <= '9'; p++)
			;
	}
	return *p ? -1 : (int64_t)k;
}

/* Copies v into buf for the log: at most LOG_FIELD_CAP bytes, control bytes
 * (tabs, newlines) as '?', "-" when v is NULL or empty. */
static void
log_field(char *buf, size_t len, const char *v)
{
	size_t i = 0;

	if (!v || !*v)
		v = "-";
	for (; v[i] && i + 1 < len; i++)
		buf[i] = ((unsigned char)v[i] < 0x20 || v[i] == 0x7f) ? '?' : v[i];
	buf[i] = '\0';
}

/* The Host header v as a handler sees it: lower case, without port and a
 * final dot, at most len - 1 bytes; "" when v is NULL. */
static void
host_name_of(const char *v, char *buf, size_t len)
{
	size_t n = 0;
	char *colon;

	for (; v && v[n] && n + 1 < len; n++)
		buf[n] = (v[n] >= 'A' && v[n] <= 'Z') ? (char)(v[n] - 'A' + 'a') : v[n];
	buf[n] = '\0';
	colon = strrchr(buf, ':');
	if (colon && !strchr(colon, ']'))
		*colon = '\0';
	n = strlen(buf);
	if (n > 0 && buf[n - 1] == '.')
		buf[n - 1] = '\0';
}

/* Does the If-None-Match list hold etag (weak comparison, as RFC 9110 asks
 * for If-None-Match) or "*"? */
static int
etag_matches(const char *list, const char *etag)
{
	const char *p = list;
	const char *tag = etag;
	size_t tlen;

	if (!*etag)
		return 0;
	if (!strncmp(tag, "W/", 2))
		tag += 2;
	tlen = strlen(tag);
	while (*p) {
		const char *q;

		while (*p == ' ' || *p == '\t' || *p == ',')
			p++;
		if (*p == '*')
			return 1;
		if (!strncmp(p, "W/", 2))
			p += 2;
		if (*p != '"')
			break;
		q = strchr(p + 1, '"');
		if (!q)
			break;
		if ((size_t)(q + 1 - p) == tlen && !memcmp(p, tag, tlen))
			return 1;
		p = q + 1;
	}
	return 0;
}

/* ---- the huge body ---- */

static const char HUGE_HEAD[] =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<rss version=\"2.0\"><channel>"
    "<title>A huge feed</title><link>http://freshet.test/</link>"
    "<description>freshet serve: a body far larger than any crawler should take"
    "</description>\n";
static const char HUGE_ITEM[] =
    "<item><title>Filler</title><description>This feed is too large to be read whole; "
    "a crawler should stop at its size cap. 0123456789abcdefghijklmnopqrstuvwxyz"
    "</description></item>\n";
static const char HUGE_TAIL[] = "</channel></rss>\n";

struct huge {
	uint64_t size, blocks_end; /* blocks_end: end of the whole item blocks */
};

/* Byte pattern: head, whole item blocks, spaces, tail; exactly size bytes. */
static ssize_t
huge_read(void *cls, uint64_t pos, char *buf, size_t max)
{
	const struct huge *h = cls;
	const uint64_t hl = sizeof(HUGE_HEAD) - 1, il = sizeof(HUGE_ITEM) - 1,
	               tl = sizeof(HUGE_TAIL) - 1;
	size_t n = 0;

	if (pos >= h->size)
		return MHD_CONTENT_READER_END_OF_STREAM;
	while (n < max && pos < h->size) {
		const char *src;
		uint64_t avail;

		if (pos < hl) {
			src = HUGE_HEAD + pos;
			avail = hl - pos;
		} else if (pos >= h->size - tl) {
			src = HUGE_TAIL + (pos - (h->size - tl));
			avail = h->size - pos;
		} else if (pos < h->blocks_end) {
			uint64_t off = (pos - hl) % il;
			src = HUGE_ITEM + off;
			avail = il - off;
		} else {
			size_t k = max - n;
			uint64_t left = h->size - tl - pos;
			if (k > left)
				k = (size_t)left;
			memset(buf + n, ' ', k);
			n += k;
			pos += k;
			continue;
		}
		if (avail > max - n)
			avail = max - n;
		memcpy(buf + n, src, (size_t)avail);
		n += (size_t)avail;
		pos += avail;
	}
	return (ssize_t)n;
}

static struct MHD_Response *
huge_response(const struct fr_serve *s)
{
	const uint64_t hl = sizeof(HUGE_HEAD) - 1, il = sizeof(HUGE_ITEM) - 1,
	               tl = sizeof(HUGE_TAIL) - 1;
	struct huge *h = malloc(sizeof(*h));
	struct MHD_Response *r;

	if (!h)
		return NULL;
	h->size = s->cfg.huge_bytes < hl + tl ? hl + tl : s->cfg.huge_bytes;
	h->blocks_end = hl + (h->size - hl - tl) / il * il;
	r = MHD_create_response_from_callback(h->size, HUGE_BLOCK, huge_read, h, free);
	if (!r)
		free(h);
	return r;
}

/* ---- answering ---- */

/* Everything one answer needs, gathered before it is queued. */
struct answer {
	int status;
	const char *ctype;
	const char *body; /* static or from the handler */
	size_t len;
	struct fr_serve_resp hr; /* when from the handler */
	int from_handler;
	int huge;
	char location[512];
	char retry_after[FR_HTTPDATE_LEN];
	char robots[160];
};

static void
release_body(void *cls)
{
	struct fr_serve_resp *hr = cls;

	hr->release(hr->release_cls);
	free(hr);
}

/* Retry-After of wait_s seconds from now: delta-seconds, or an HTTP date on
 * hosts that want one. Whole seconds, rounded up, at least 1. */
static void
set_retry_after(struct answer *a, unsigned flags, double now, double wait_s)
{
	double secs = ceil(wait_s);

	if (secs < 1)
		secs = 1;
	if (flags & FR_SERVE_HOST_RETRY_DATE)
		fr_http_date_format((int64_t)ceil(now + secs), a->retry_after,
		                         sizeof(a->retry_after));
	else
		snprintf(a->retry_after, sizeof(a->retry_after), "%.0f", secs);
}

static void
set_static(struct answer *a, int status, const char *body)
{
	a->status = status;
	a->ctype = "text/plain; charset=utf-8";
	a->body = body;
	a->len = strlen(body);
}

/* Asks the handler for the answer to req. */
static void
call_handler(struct fr_serve *s, const struct fr_serve_req *req, struct answer *a)
{
	memset(&a->hr, 0, sizeof(a->hr));
	a->hr.last_modified_s = -1;
	if (s->cfg.handler.handle(s->cfg.handler.ctx, req, &a->hr) < 0) {
		set_static(a, 500, "internal server error (out of memory)\n");
		return;
	}
	a->hr.location[sizeof(a->hr.location) - 1] = '\0';
	a->from_handler = 1;
	a->status = a->hr.status;
	a->ctype = a->hr.content_type;
	a->body = a->hr.body;
	a->len = a->hr.len;
	if (a->hr.location[0])
		memcpy(a->location, a->hr.location, sizeof(a->location));
}

/* Counts a request for path on FAIL500 host h; 1 when it is among the
 * path's first FR_SERVE_FAIL500_FIRST (answer 500), 0 once the path has
 * recovered or the host's table is full. */
static int
fail500_take(struct fr_serve *s, uint32_t h, const char *path)
{
	struct host *ho = &s->hosts[h];
	uint64_t key = 0xcbf29ce484222325ull;
	unsigned i, k;
	int fail = 0;

	if (!ho->fail)
		return 0;
	for (const unsigned char *p = (const unsigned char *)path; *p; p++)
		key = (key ^ *p) * 0x100000001b3ull;
	key |= 1;
	pthread_mutex_lock(&ho->mu);
	for (k = 0; k < FR_SERVE_FAIL500_PATHS; k++) {
		i = (unsigned)((key + k) % FR_SERVE_FAIL500_PATHS);
		if (ho->fail->key[i] == key || ho->fail->key[i] == 0) {
			ho->fail->key[i] = key;
			if (ho->fail->n[i] < FR_SERVE_FAIL500_FIRST) {
				ho->fail->n[i]++;
				fail = 1;
			}
			break;
		}
	}
	pthread_mutex_unlock(&ho->mu);
	return fail;
}

/* Counts a request on FAIL503 host h; 1 when it falls in the host's outage
 * (its requests FR_SERVE_FAIL503_FROM .. FR_SERVE_FAIL503_UNTIL - 1,
 * counted from 0). */
static int
fail503_take(struct fr_serve *s, uint32_t h)
{
	struct host *ho = &s->hosts[h];
	uint64_t k;

	pthread_mutex_lock(&ho->mu);
	k = ho->n_taken++;
	pthread_mutex_unlock(&ho->mu);
	return k >= FR_SERVE_FAIL503_FROM && k < FR_SERVE_FAIL503_UNTIL;
}

/* Decides the answer to a request on host h (before conditionals). req comes
 * with wall_s, host_name and query set; host, host_flags and path are set
 * here when the handler is asked. */
static void
decide(struct fr_serve *s, uint32_t h, const char *path, double now, struct fr_serve_req *req,
       struct answer *a)
{
	unsigned flags = fr_serve_host_flags(h, s->cfg.misbehave);
	double wait;
	char hname[128], hp[48];

	if (!strcmp(path, "/robots.txt")) {
		/* Always answered at once: a crawler reads it first, and a host
		 * that fails it would look closed to everything. */
		if (flags & FR_SERVE_HOST_CRAWL_DELAY)
			snprintf(a->robots, sizeof(a->robots),
			         "User-agent: *\nDisallow: /private/\nCrawl-delay: %d\n",
			         FR_SERVE_CRAWL_DELAY_S);
		else
			snprintf(a->robots, sizeof(a->robots),
			         "User-agent: *\nDisallow: /private/\n");
		set_static(a, 200, a->robots);
		return;
	}
	wait = limit_check(s, h, flags, now);
	if (wait > 0) {
		set_static(a, 429, "too many requests\n");
		set_retry_after(a, flags, now, wait);
		return;
	}
	if ((flags & FR_SERVE_HOST_FAIL500) && fail500_take(s, h, path)) {
		set_static(a, 500,
		           "internal server error (freshet serve: this host fails for a while)\n");
		return;
	}
	if ((flags & FR_SERVE_HOST_FAIL503) && fail503_take(s, h)) {
		set_static(a, 503, "service unavailable (freshet serve: back soon)\n");
		set_retry_after(a, flags, now, FR_SERVE_FAIL503_RETRY_S);
		return;
	}
	if (flags & FR_SERVE_HOST_REDIRECT) {
		if (strncmp(path, "/moved/", 7) != 0) {
			fr_serve_host_name(h, s->cfg.domain, hname, sizeof(hname));
			snprintf(a->location, sizeof(a->location), "http://%s/moved%s", hname,
			         path);
			set_static(a, 301, "moved permanently\n");
			return;
		}
		path += 6;
	}
	if ((flags & FR_SERVE_HOST_HUGE) && !strcmp(path, fr_serve_huge_path(h, hp, sizeof(hp)))) {
		a->status = 200;
		a->ctype = "application/rss+xml; charset=utf-8";
		a->huge = 1;
		a->len = (size_t)s->cfg.huge_bytes;
		return;
	}
	req->host = h;
	req->host_flags = flags;
	req->path = path;
	call_handler(s, req, a);
}

static void
count(struct fr_serve *s, int status)
{
	int k;

	switch (status) {
	case 200:
		k = ST_OK;
		break;
	case 304:
		k = ST_304;
		break;
	case 404:
		k = ST_404;
		break;
	case 429:
		k = ST_429;
		break;
	case 500:
		k = ST_500;
		break;
	case 503:
		k = ST_503;
		break;
	default:
		k = (status >= 300 && status < 400) ? ST_3XX : ST_OTHER;
		break;
	}
	atomic_fetch_add(&s->st[ST_REQ], 1);
	atomic_fetch_add(&s->st[k], 1);
}

/* The extra columns' values for the log: the handler's (tabs kept as the
 * separators, other control bytes as '?'), or "-" for each column. */
static void
log_extra_field(const struct fr_serve *s, const char *v, char *buf, size_t len)
{
	size_t i = 0;

	buf[0] = '\0';
	if (!s->cfg.log_extra)
		return;
	if (!v || !*v) {
		buf[i++] = '\t';
		buf[i++] = '-';
		for (const char *c = s->cfg.log_extra; *c && i + 3 < len; c++) {
			if (*c == '\t') {
				buf[i++] = '\t';
				buf[i++] = '-';
			}
		}
		buf[i] = '\0';
		return;
	}
	buf[i++] = '\t';
	for (; *v && i + 1 < len; v++)
		buf[i++] = *v != '\t' && ((unsigned char)*v < 0x20 || *v == 0x7f) ? '?' : *v;
	buf[i] = '\0';
}

static void
log_request(struct fr_serve *s, double now, const char *host, const char *method, const char *path,
            int status, uint64_t bytes, int inm, int ims, const char *ua, const char *extra)
{
	char h[LOG_FIELD_CAP], p[LOG_FIELD_CAP], u[LOG_FIELD_CAP], m[32], x[FR_SERVE_LOG_NOTE_CAP];

	if (!s->cfg.log)
		return;
	log_field(h, sizeof(h), host);
	log_field(p, sizeof(p), path);
	log_field(u, sizeof(u), ua);
	log_field(m, sizeof(m), method);
	log_extra_field(s, extra, x, sizeof(x));
	pthread_mutex_lock(&s->log_mu);
	fprintf(s->cfg.log, "%.6f\t%s\t%s\t%s\t%d\t%llu\t%d\t%d\t%s%s\n", now, h, m, p, status,
	        (unsigned long long)bytes, inm, ims, u, x);
	pthread_mutex_unlock(&s->log_mu);
}

static const char *
conn_header(void *cls, const char *name)
{
	return MHD_lookup_connection_value(cls, MHD_HEADER_KIND, name);
}

const char *
fr_serve_req_header(const struct fr_serve_req *req, const char *name)
{
	return req->header ? req->header(req->header_cls, name) : NULL;
}

/* Adds the handler's "Name: value" lines to r. */
static void
add_extra_headers(struct MHD_Response *r, const char *lines)
{
	char name[128], value[FR_SERVE_EXTRA_HEADERS_CAP];
	const char *p = lines;

	while (*p) {
		size_t n = strcspn(p, "\n");
		const char *colon = memchr(p, ':', n);

		if (colon && colon > p && (size_t)(colon - p) < sizeof(name) && colon[1] == ' ') {
			size_t vn = n - (size_t)(colon + 2 - p);

			memcpy(name, p, (size_t)(colon - p));
			name[colon - p] = '\0';
			memcpy(value, colon + 2, vn);
			value[vn] = '\0';
			MHD_add_response_header(r, name, value);
		}
		p += n;
		if (*p == '\n')
			p++;
	}
}

static void
sleep_s(double secs)
{
	struct timespec ts;

	ts.tv_sec = (time_t)secs;
	ts.tv_nsec = (long)((secs - (double)ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

double
fr_serve_file_time(const char *path)
{
	char buf[64], *end;
	FILE *f = fopen(path, "r");
	size_t n;
	double t;

	if (!f)
		return fr_serve_wall_now();
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	t = strtod(buf, &end);
	return end == buf || !isfinite(t) ? fr_serve_wall_now() : t;
}

static enum MHD_Result
on_request(void *cls, struct MHD_Connection *conn, const char *url, const char *method,
           const char *version, const char *upload_data, size_t *upload_size, void **con_cls)
{
	struct fr_serve *s = cls;
	double now =
	    s->cfg.clock_file ? fr_serve_file_time(s->cfg.clock_file) : fr_serve_wall_now();
	const char *host_hdr, *inm, *ims, *ua;
	struct MHD_Response *r = NULL;
	struct answer *a;
	struct rq *rq;
	struct fr_serve_req req;
	char hostlog[256], hname[HOST_NAME_CAP], date[FR_HTTPDATE_LEN];
	char *logpath = NULL;
	int64_t h = -1;
	unsigned flags = 0;
	enum MHD_Result ret;

	(void)version;
	/* The first call comes with the headers; answering then would make
	 * libmicrohttpd close the connection (the request is not yet fully
	 * read), so answer on the next call and keep connections alive. */
	rq = *con_cls;
	if (!rq) { /* the URI callback ran out of memory */
		rq = calloc(1, sizeof(*rq) + 1);
		if (!rq)
			return MHD_NO;
		*con_cls = rq;
	}
	if (!rq->started) {
		rq->started = 1;
		return MHD_YES;
	}
	if (*upload_size) { /* a body: kept for a POST (max_post), else dropped; answer after */
		size_t n = *upload_size;

		*upload_size = 0;
		if (s->cfg.max_post && !strcmp(method, "POST") && !rq->post_big) {
			char *np = rq->post_len + n <= s->cfg.max_post
				       ? realloc(rq->post, rq->post_len + n + 1)
				       : NULL;

			if (!np) {
				rq->post_big = 1;
			} else {
				rq->post = np;
				memcpy(np + rq->post_len, upload_data, n);
				rq->post_len += n;
				np[rq->post_len] = '\0';
			}
		}
		return MHD_YES;
	}
	a = calloc(1, sizeof(*a));
	if (!a)
		return MHD_NO;
	host_hdr = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_HOST);
	inm = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_IF_NONE_MATCH);
	ims = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_IF_MODIFIED_SINCE);
	ua = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_USER_AGENT);
	log_field(hostlog, sizeof(hostlog), host_hdr);
	{
		char *colon = strrchr(hostlog, ':');
		if (colon && !strchr(colon, ']'))
			*colon = '\0';
		for (char *q = hostlog; *q; q++)
			if (*q >= 'A' && *q <= 'Z')
				*q = (char)(*q - 'A' + 'a');
	}
	host_name_of(host_hdr, hname, sizeof(hname));
	memset(&req, 0, sizeof(req));
	req.path = url;
	req.wall_s = now;
	req.host_name = hname;
	req.query = rq->query;
	req.header = conn_header;
	req.header_cls = conn;
	req.method = method;
	req.body = rq->post ? rq->post : "";
	req.body_len = rq->post_len;
	if (!s->cfg.any_host)
		h = parse_host(s, host_hdr);
	if (rq->post_big) {
		set_static(a, 413, "body too large\n");
	} else if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0 &&
		   !(s->cfg.max_post && !strcmp(method, "POST"))) {
		set_static(a, 405, "method not allowed\n");
	} else if (s->cfg.any_host) {
		call_handler(s, &req, a);
	} else if (h < 0) {
		set_static(a, 404, "unknown host\n");
	} else {
		flags = fr_serve_host_flags((uint32_t)h, s->cfg.misbehave);
		decide(s, (uint32_t)h, url, now, &req, a);
	}
	/* In any-host mode the log's path shows the query too (traps and
	 * session ids are told apart by it). */
	if (s->cfg.any_host && rq->query[0]) {
		size_t ul = strlen(url), ql = strlen(rq->query);

		logpath = malloc(ul + ql + 2);
		if (logpath) {
			memcpy(logpath, url, ul);
			logpath[ul] = '?';
			memcpy(logpath + ul + 1, rq->query, ql + 1);
		}
	}
	if (a->status == 200 && a->from_handler) {
		int hit = 0;
		double since;

		if (inm)
			hit = etag_matches(inm, a->hr.etag);
		else if (ims && a->hr.last_modified_s >= 0 && fr_http_date_parse(ims, &since) == 0)
			hit = since >= (double)a->hr.last_modified_s;
		if (hit) {
			a->status = 304;
			a->len = 0;
		}
	}
	if (a->huge)
		r = huge_response(s);
	else if (a->from_handler && a->status != 304 && a->hr.release) {
		struct fr_serve_resp *keep = malloc(sizeof(*keep));
		if (keep) {
			*keep = a->hr;
			r = MHD_create_response_from_buffer_with_free_callback_cls(
			    a->len, (void *)a->body, release_body, keep);
			if (r)
				a->hr.release = NULL; /* now the response's */
			else
				free(keep);
		}
	} else {
		/* Small texts, some in *a (robots.txt), which is freed below. */
		r = MHD_create_response_from_buffer(a->status == 304 ? 0 : a->len,
		                                    (void *)(a->body ? a->body : ""),
		                                    MHD_RESPMEM_MUST_COPY);
	}
	if (a->from_handler && a->hr.release)
		a->hr.release(a->hr.release_cls); /* copied, or not needed (304, failure) */
	if (!r) {
		free(a);
		return MHD_NO;
	}
	if (a->ctype && a->status != 304)
		MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, a->ctype);
	if (a->from_handler && a->hr.etag[0])
		MHD_add_response_header(r, MHD_HTTP_HEADER_ETAG, a->hr.etag);
	if (a->from_handler && a->hr.last_modified_s >= 0)
		MHD_add_response_header(
		    r, MHD_HTTP_HEADER_LAST_MODIFIED,
		    fr_http_date_format(a->hr.last_modified_s, date, sizeof(date)));
	if (a->location[0])
		MHD_add_response_header(r, MHD_HTTP_HEADER_LOCATION, a->location);
	if (a->retry_after[0])
		MHD_add_response_header(r, MHD_HTTP_HEADER_RETRY_AFTER, a->retry_after);
	if (a->status == 405)
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	if (a->from_handler) {
		a->hr.headers[sizeof(a->hr.headers) - 1] = '\0';
		a->hr.log_path[sizeof(a->hr.log_path) - 1] = '\0';
		a->hr.log_extra[sizeof(a->hr.log_extra) - 1] = '\0';
		add_extra_headers(r, a->hr.headers);
	}
	count(s, a->status);
	log_request(s, now, hostlog, method,
	            a->from_handler && a->hr.log_path[0] ? a->hr.log_path
	            : logpath                            ? logpath
	                                                 : url,
	            a->status, a->status == 304 || !strcmp(method, "HEAD") ? 0 : (uint64_t)a->len,
	            inm != NULL, ims != NULL, ua, a->from_handler ? a->hr.log_extra : NULL);
	if ((flags & FR_SERVE_HOST_SLOW) && s->cfg.slow_s > 0)
		sleep_s(s->cfg.slow_s);
	free(logpath);
	ret = MHD_queue_response(conn, (unsigned)a->status, r);
	MHD_destroy_response(r);
	free(a);
	return ret;
}

/* The URI callback: libmicrohttpd calls it once per request with the
 * request-target as sent, before it splits off and decodes the query. */
static void *
on_uri(void *cls, const char *uri, struct MHD_Connection *conn)
{
	const char *q = uri ? strchr(uri, '?') : NULL;
	size_t n = 0;
	struct rq *rq;

	(void)cls;
	(void)conn;
	if (q) {
		q++;
		n = strcspn(q, "#");
	}
	rq = malloc(sizeof(*rq) + n + 1);
	if (!rq)
		return NULL;
	rq->started = 0;
	rq->post = NULL;
	rq->post_len = 0;
	rq->post_big = 0;
	if (n)
		memcpy(rq->query, q, n);
	rq->query[n] = '\0';
	return rq;
}

static void
on_completed(void *cls, struct MHD_Connection *conn, void **con_cls,
             enum MHD_RequestTerminationCode toe)
{
	(void)cls;
	(void)conn;
	(void)toe;
	if (*con_cls)
		free(((struct rq *)*con_cls)->post);
	free(*con_cls);
	*con_cls = NULL;
}

/* libmicrohttpd's messages: the last one is kept for a start failure. */
static void
on_mhd_log(void *cls, const char *fmt, va_list ap)
{
	struct fr_serve *s = cls;
	size_t n;

	pthread_mutex_lock(&s->err_mu);
	vsnprintf(s->mhd_err, sizeof(s->mhd_err), fmt, ap);
	n = strlen(s->mhd_err);
	while (n > 0 && (s->mhd_err[n - 1] == '\n' || s->mhd_err[n - 1] == ' '))
		s->mhd_err[--n] = '\0';
	pthread_mutex_unlock(&s->err_mu);
}

static void
free_server(struct fr_serve *s)
{
	if (s->hosts) {
		for (uint32_t i = 0; i < s->cfg.n_hosts; i++) {
			free(s->hosts[i].all.t);
			free(s->hosts[i].api.t);
			free(s->hosts[i].fail);
			pthread_mutex_destroy(&s->hosts[i].mu);
		}
	}
	free(s->hosts);
	pthread_mutex_destroy(&s->log_mu);
	pthread_mutex_destroy(&s->err_mu);
	free(s);
}

struct fr_serve *
fr_serve_start(const struct fr_serve_config *cfg, char *err, size_t errlen)
{
	struct fr_serve *s;
	struct sockaddr_in sa;
	const union MHD_DaemonInfo *info;
	uint32_t i;

	if (!cfg->handler.handle ||
	    (!cfg->any_host && (cfg->n_hosts == 0 || !cfg->clock || !cfg->domain))) {
		fr_errf(err, errlen, "serve: bad configuration (no hosts, clock or handler)");
		return NULL;
	}
	if (cfg->limit_n > MAX_LIMIT_N || cfg->api_limit_n > MAX_LIMIT_N) {
		fr_errf(err, errlen, "serve: a rate limit allows at most %u requests per window",
		        MAX_LIMIT_N);
		return NULL;
	}
	s = calloc(1, sizeof(*s));
	if (!s) {
		fr_errf(err, errlen, "serve: out of memory");
		return NULL;
	}
	s->cfg = *cfg;
	pthread_mutex_init(&s->log_mu, NULL);
	pthread_mutex_init(&s->err_mu, NULL);
	if (cfg->any_host)
		s->cfg.n_hosts = 0; /* no per-host state: limits are the handler's */
	s->hosts = s->cfg.n_hosts ? calloc(s->cfg.n_hosts, sizeof(*s->hosts)) : NULL;
	if (s->cfg.n_hosts && !s->hosts) {
		s->cfg.n_hosts = 0;
		free_server(s);
		fr_errf(err, errlen, "serve: out of memory for %u hosts", (unsigned)cfg->n_hosts);
		return NULL;
	}
	for (i = 0; i < s->cfg.n_hosts; i++) {
		struct host *ho = &s->hosts[i];

		pthread_mutex_init(&ho->mu, NULL);
		if (window_init(&ho->all, cfg->limit_n, cfg->limit_window_s) < 0 ||
		    ((fr_serve_host_flags(i, 0) & FR_SERVE_HOST_API) &&
		     window_init(&ho->api, cfg->api_limit_n, cfg->api_limit_window_s) < 0) ||
		    ((fr_serve_host_flags(i, cfg->misbehave) & FR_SERVE_HOST_FAIL500) &&
		     !(ho->fail = calloc(1, sizeof(*ho->fail))))) {
			s->cfg.n_hosts = i + 1;
			free_server(s);
			fr_errf(err, errlen, "serve: out of memory for rate limits");
			return NULL;
		}
	}
	memset(&sa, 0, sizeof(sa));
	sa.sin_family = AF_INET;
	sa.sin_port = htons(cfg->port);
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	/* Host mode: a thread per connection, so a slow host's wait holds up
	 * nobody else. Any-host mode never waits: a small pool of epoll threads
	 * answers many short connections to many hosts without a thread start
	 * for each. */
	{
		struct MHD_OptionItem tls[] = {
		    {MHD_OPTION_HTTPS_MEM_KEY, 0, (void *)cfg->tls_key},
		    {MHD_OPTION_HTTPS_MEM_CERT, 0, (void *)cfg->tls_cert},
		    {MHD_OPTION_END, 0, NULL}};
		int use_tls = cfg->tls_cert && cfg->tls_key;

		if ((cfg->tls_cert || cfg->tls_key) && !use_tls) {
			fr_errf(err, errlen, "serve: HTTPS needs both a certificate and a key");
			free_server(s);
			return NULL;
		}
		if (use_tls && MHD_is_feature_supported(MHD_FEATURE_TLS) != MHD_YES) {
			fr_errf(err, errlen, "serve: this libmicrohttpd has no TLS support");
			free_server(s);
			return NULL;
		}
		if (!use_tls)
			tls[0].option = MHD_OPTION_END;
		s->d = MHD_start_daemon(
		    (cfg->any_host ? MHD_USE_EPOLL_INTERNAL_THREAD | MHD_USE_ERROR_LOG
		                   : MHD_USE_THREAD_PER_CONNECTION | MHD_USE_POLL_INTERNAL_THREAD |
		                         MHD_USE_ERROR_LOG) |
		        (use_tls ? MHD_USE_TLS : 0),
		    cfg->port, NULL, NULL, on_request, s, MHD_OPTION_THREAD_POOL_SIZE,
		    (unsigned)(cfg->any_host ? ANY_HOST_THREADS : 0), MHD_OPTION_SOCK_ADDR,
		    (struct sockaddr *)&sa, MHD_OPTION_CONNECTION_LIMIT,
		    (unsigned)(cfg->max_conns ? cfg->max_conns : 1024), MHD_OPTION_CONNECTION_TIMEOUT,
		    (unsigned)30, MHD_OPTION_LISTEN_BACKLOG_SIZE, (unsigned)1024,
		    MHD_OPTION_EXTERNAL_LOGGER, on_mhd_log, s, MHD_OPTION_URI_LOG_CALLBACK, on_uri, s,
		    MHD_OPTION_NOTIFY_COMPLETED, on_completed, s, MHD_OPTION_ARRAY, tls,
		    MHD_OPTION_END);
	}
	if (!s->d) {
		pthread_mutex_lock(&s->err_mu);
		fr_errf(err, errlen, "serve: cannot listen on 127.0.0.1:%u%s%s",
		        (unsigned)cfg->port, s->mhd_err[0] ? ": " : "", s->mhd_err);
		pthread_mutex_unlock(&s->err_mu);
		free_server(s);
		return NULL;
	}
	info = MHD_get_daemon_info(s->d, MHD_DAEMON_INFO_BIND_PORT);
	s->port = info ? info->port : cfg->port;
	if (cfg->log && !cfg->no_log_header) {
		pthread_mutex_lock(&s->log_mu);
		fputs("wall_s\thost\tmethod\tpath\tstatus\tbytes\tinm\tims\tuser_agent", cfg->log);
		if (cfg->log_extra)
			fprintf(cfg->log, "\t%s", cfg->log_extra);
		fputc('\n', cfg->log);
		fflush(cfg->log);
		pthread_mutex_unlock(&s->log_mu);
	}
	return s;
}

uint16_t
fr_serve_port(const struct fr_serve *s)
{
	return s->port;
}

void
fr_serve_get_stats(const struct fr_serve *s, struct fr_serve_stats *st)
{
	struct fr_serve *m = (struct fr_serve *)s; /* atomics are read through a non-const */

	st->requests = atomic_load(&m->st[ST_REQ]);
	st->ok = atomic_load(&m->st[ST_OK]);
	st->not_modified = atomic_load(&m->st[ST_304]);
	st->redirect = atomic_load(&m->st[ST_3XX]);
	st->not_found = atomic_load(&m->st[ST_404]);
	st->too_many = atomic_load(&m->st[ST_429]);
	st->fail500 = atomic_load(&m->st[ST_500]);
	st->fail503 = atomic_load(&m->st[ST_503]);
	st->other = atomic_load(&m->st[ST_OTHER]);
}

void
fr_serve_stop(struct fr_serve *s)
{
	if (!s)
		return;
	MHD_stop_daemon(s->d);
	if (s->cfg.log) {
		pthread_mutex_lock(&s->log_mu);
		fflush(s->cfg.log);
		pthread_mutex_unlock(&s->log_mu);
	}
	free_server(s);
}
