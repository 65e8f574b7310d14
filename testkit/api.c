/* api.c - a world's sources as a Graph, Mastodon or Reddit JSON API: the
 * bodies, pagination, tokens, per-token fixed windows, usage headers and
 * the error bodies past the limit, each in the real API's form (what
 * lib/api's presets and limit reader take). Pages are rendered per request
 * (they are small: at most 100 items). */
#include "testkit/api.h"
#include "testkit/text.h"

#include "core/err.h"
#include "core/strmap.h"
#include "sim/trace.h"
#include "testkit/clock.h"
#include "testkit/server.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#define NAME_URL_MAX 1024         /* a percent-encoded source name */
#define PARAM_MAX 512             /* a query parameter's decoded value */
#define TOKEN_MAX 4096            /* a token's length */
#define REDDIT_ID_BASE 1000000ull /* Reddit ids: base 36 of item index + this */
#define ITEM_K_MAX ((uint64_t)1 << 40)

static const char *const KIND_NAMES[FR_TK_API_N] = {"graph", "mastodon", "reddit"};

/* Default and largest page sizes, per API (Graph 25/100, Mastodon 20/40,
 * Reddit 25/100, as the APIs document them). */
static const unsigned PAGE_DEFAULT[FR_TK_API_N] = {25, 20, 25};
static const unsigned PAGE_MAX[FR_TK_API_N] = {100, 40, 100};

struct tok {
	int64_t win;   /* the window its count is of */
	unsigned used; /* calls in that window */
};

struct fr_tk_api {
	struct fr_tk_api_config cfg;
	const struct fr_trace *tr;
	char host[256];
	pthread_mutex_t mu; /* over toks, tokmap and the counts */
	struct fr_strmap *tokmap;
	struct tok *toks;
	size_t cap_toks;
	uint64_t calls, refused, unauthorized;
};

const char *
fr_tk_api_kind_name(enum fr_tk_api_kind k)
{
	return (unsigned)k < FR_TK_API_N ? KIND_NAMES[k] : "?";
}

int
fr_tk_api_kind_parse(const char *name, enum fr_tk_api_kind *k)
{
	for (int i = 0; i < FR_TK_API_N; i++) {
		if (!strcmp(name, KIND_NAMES[i])) {
			*k = (enum fr_tk_api_kind)i;
			return 0;
		}
	}
	return -1;
}

void
fr_tk_api_config_defaults(struct fr_tk_api_config *c)
{
	memset(c, 0, sizeof(*c));
	c->kind = FR_TK_API_GRAPH;
	c->limit_n = 600;
	c->limit_window_s = 600;
	c->graph_code = 4;
}

void
fr_tk_api_free(struct fr_tk_api *a)
{
	if (!a)
		return;
	fr_strmap_free(a->tokmap);
	free(a->toks);
	pthread_mutex_destroy(&a->mu);
	free(a);
}

struct fr_tk_api *
fr_tk_api_new(const struct fr_tk_api_config *cfg, char *err, size_t errlen)
{
	struct fr_tk_api *a;

	if (!cfg->tr || !cfg->clock || (unsigned)cfg->kind >= FR_TK_API_N ||
	    (cfg->limit_n && !(cfg->limit_window_s > 0))) {
		fr_errf(err, errlen, "api: bad configuration (no trace, clock, kind or window)");
		return NULL;
	}
	if (cfg->graph_code != 4 && cfg->graph_code != 17 && cfg->graph_code != 32 &&
	    cfg->graph_code != 613) {
		fr_errf(err, errlen, "api: Graph error code %d is not 4, 17, 32 or 613",
		        cfg->graph_code);
		return NULL;
	}
	a = calloc(1, sizeof(*a));
	if (!a) {
		fr_errf(err, errlen, "api: out of memory");
		return NULL;
	}
	a->cfg = *cfg;
	a->tr = cfg->tr;
	pthread_mutex_init(&a->mu, NULL);
	if (cfg->host)
		snprintf(a->host, sizeof(a->host), "%s", cfg->host);
	else
		snprintf(a->host, sizeof(a->host), "%s.freshet.test", KIND_NAMES[cfg->kind]);
	a->tokmap = fr_strmap_new();
	a->cap_toks = cfg->n_tokens ? cfg->n_tokens : 64;
	a->toks = calloc(a->cap_toks, sizeof(*a->toks));
	if (!a->tokmap || !a->toks)
		goto oom;
	for (size_t i = 0; i < cfg->n_tokens; i++) {
		uint32_t id;
		int added;

		if (!cfg->tokens[i] || !*cfg->tokens[i] || strlen(cfg->tokens[i]) > TOKEN_MAX) {
			fr_tk_api_free(a);
			fr_errf(err, errlen, "api: token %zu is empty or longer than %d bytes",
			        i + 1, TOKEN_MAX);
			return NULL;
		}
		if (fr_strmap_intern(a->tokmap, cfg->tokens[i], strlen(cfg->tokens[i]), &id,
		                     &added) < 0)
			goto oom;
		if (!added) {
			fr_tk_api_free(a);
			fr_errf(err, errlen, "api: token %zu is given twice", i + 1);
			return NULL;
		}
		a->toks[id].win = INT64_MIN;
	}
	return a;
oom:
	fr_tk_api_free(a);
	fr_errf(err, errlen, "api: out of memory");
	return NULL;
}

/* ---- names, ids, times ---- */

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

/* The endpoint path of source s (without scheme and host). */
static char *
endpoint_path(const struct fr_tk_api *a, uint32_t s, char *buf, size_t len)
{
	char seg[NAME_URL_MAX];

	url_segment(fr_trace_source_name(a->tr, s), seg, sizeof(seg));
	switch (a->cfg.kind) {
	case FR_TK_API_GRAPH:
		snprintf(buf, len, "/%s/posts", seg);
		break;
	case FR_TK_API_MASTODON:
		snprintf(buf, len, "/api/v1/accounts/%s/statuses", seg);
		break;
	default:
		snprintf(buf, len, "/r/%s/new.json", seg);
		break;
	}
	return buf;
}

char *
fr_tk_api_url(const struct fr_tk_api *a, uint32_t s, char *buf, size_t len)
{
	char path[NAME_URL_MAX + 64];

	snprintf(buf, len, "http://%s%s", a->host, endpoint_path(a, s, path, sizeof(path)));
	return buf;
}

/* Items of source s visible at trace time t_s. */
static size_t
visible(const struct fr_tk_api *a, uint32_t s, double t_s)
{
	const double *t = a->tr->item_time_s;
	size_t lo = a->tr->first[s], hi = a->tr->first[s + 1], base = lo;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (t[mid] <= t_s)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo - base;
}

/* Wall-equivalent of item k of source s, whole milliseconds (floored). */
static int64_t
item_ms(const struct fr_tk_api *a, uint32_t s, size_t k)
{
	return (int64_t)floor(
	    fr_serve_clock_wall(a->cfg.clock, a->tr->item_time_s[a->tr->first[s] + k]) * 1000);
}

static int64_t
floor_div(int64_t x, int64_t y)
{
	return x / y - (x % y != 0 && ((x < 0) != (y < 0)));
}

/* Mastodon's id of item k: its time in ms, then k, so ids rise with time
 * within an account (as Mastodon's snowflake ids do). */
static uint64_t
masto_id(const struct fr_tk_api *a, uint32_t s, size_t k)
{
	int64_t ms = item_ms(a, s, k);

	return (uint64_t)(ms < 0 ? 0 : ms) * 65536u + (uint64_t)(k % 65536u);
}

/* Items of s among the first count with a Mastodon id below id. */
static size_t
masto_below(const struct fr_tk_api *a, uint32_t s, size_t count, uint64_t id)
{
	size_t lo = 0, hi = count;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (masto_id(a, s, mid) < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static char *
base36(uint64_t v, char *buf, size_t len)
{
	char tmp[16];
	size_t n = 0, i;

	do {
		tmp[n++] = "0123456789abcdefghijklmnopqrstuvwxyz"[v % 36];
		v /= 36;
	} while (v && n < sizeof(tmp));
	for (i = 0; i < n && i + 1 < len; i++)
		buf[i] = tmp[n - 1 - i];
	buf[i] = '\0';
	return buf;
}

/* Reddit's id (without "t3_") of item k of s. */
static char *
reddit_id(const struct fr_tk_api *a, uint32_t s, size_t k, char *buf, size_t len)
{
	return base36((uint64_t)(a->tr->first[s] + k) + REDDIT_ID_BASE, buf, len);
}

/* The item index within s of Reddit fullname v ("t3_xxx"), or -1 when it
 * is not an item of s. */
static int64_t
reddit_k(const struct fr_tk_api *a, uint32_t s, const char *v)
{
	uint64_t x = 0;

	if (strncmp(v, "t3_", 3) != 0 || !v[3] || strlen(v) > 15)
		return -1;
	for (v += 3; *v; v++) {
		int d = *v >= '0' && *v <= '9'   ? *v - '0'
		        : *v >= 'a' && *v <= 'z' ? *v - 'a' + 10
		                                 : -1;
		if (d < 0)
			return -1;
		x = x * 36 + (uint64_t)d;
	}
	if (x < REDDIT_ID_BASE + a->tr->first[s] || x >= REDDIT_ID_BASE + a->tr->first[s + 1])
		return -1;
	return (int64_t)(x - REDDIT_ID_BASE - a->tr->first[s]);
}

/* "2012-10-02T00:00:19" of whole seconds sec, UTC. */
static void
ymdhms(int64_t sec, char *buf, size_t len)
{
	time_t t = (time_t)sec;
	struct tm tm;

	if (!gmtime_r(&t, &tm) || !strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm))
		snprintf(buf, len, "1970-01-01T00:00:00");
}

/* ---- the query ---- */

static int
hexval(char c)
{
	return c >= '0' && c <= '9'   ? c - '0'
	       : c >= 'a' && c <= 'f' ? c - 'a' + 10
	       : c >= 'A' && c <= 'F' ? c - 'A' + 10
	                              : -1;
}

/* The decoded value of the first parameter name in query into out (len
 * bytes). Returns 1 when found, 0 when absent, -1 when too long. */
static int
qparam(const char *query, const char *name, char *out, size_t len)
{
	size_t nl = strlen(name);
	const char *p = query;

	while (*p) {
		size_t n = strcspn(p, "&;");

		if (n > nl && !strncmp(p, name, nl) && p[nl] == '=') {
			size_t o = 0;

			for (const char *v = p + nl + 1; v < p + n; v++) {
				char c = *v;

				if (c == '+') {
					c = ' ';
				} else if (c == '%' && v + 2 < p + n && hexval(v[1]) >= 0 &&
				           hexval(v[2]) >= 0) {
					c = (char)(hexval(v[1]) * 16 + hexval(v[2]));
					v += 2;
				}
				if (o + 1 >= len)
					return -1;
				out[o++] = c;
			}
			out[o] = '\0';
			return 1;
		}
		if (n == nl && !strncmp(p, name, nl)) {
			out[0] = '\0';
			return 1;
		}
		p += n;
		if (*p)
			p++;
	}
	return 0;
}

/* The query with the value of access_token (and any other secret
 * parameter) written as "***", for the log. */
static void
scrub_query(const char *query, char *out, size_t len)
{
	static const char *const SECRET[] = {"access_token", "client_secret", "appsecret_proof"};
	const char *p = query;
	size_t o = 0;

	out[0] = '\0';
	while (*p && o + 1 < len) {
		size_t n = strcspn(p, "&;"), keep = n;

		for (size_t i = 0; i < sizeof(SECRET) / sizeof(SECRET[0]); i++) {
			size_t sl = strlen(SECRET[i]);
			if (n > sl && !strncmp(p, SECRET[i], sl) && p[sl] == '=')
				keep = sl + 1;
		}
		if (o + keep + 4 >= len)
			break;
		memcpy(out + o, p, keep);
		o += keep;
		if (keep < n) {
			memcpy(out + o, "***", 3);
			o += 3;
		}
		p += n;
		if (*p)
			out[o++] = *p++;
		out[o] = '\0';
	}
}

/* A page size from the limit parameter: default when absent, capped at
 * the API's largest; 0 when not a positive whole number. */
static unsigned
page_size(const struct fr_tk_api *a, const char *query)
{
	char v[PARAM_MAX];
	unsigned long n = 0;

	if (qparam(query, "limit", v, sizeof(v)) != 1)
		return PAGE_DEFAULT[a->cfg.kind];
	if (!v[0] || strlen(v) > 9)
		return 0;
	for (const char *c = v; *c; c++) {
		if (*c < '0' || *c > '9')
			return 0;
		n = n * 10 + (unsigned long)(*c - '0');
	}
	if (n == 0)
		return 0;
	return n > PAGE_MAX[a->cfg.kind] ? PAGE_MAX[a->cfg.kind] : (unsigned)n;
}

/* ---- tokens and the limit ---- */

/* The request's token into tok (len bytes): the Bearer credentials of
 * Authorization, else (Graph) access_token=. Returns 1, or 0 when none. */
static int
find_token(const struct fr_tk_api *a, const struct fr_serve_req *req, char *tok, size_t len)
{
	const char *h = fr_serve_req_header(req, "Authorization");

	if (h) {
		while (*h == ' ')
			h++;
		if (!strncasecmp(h, "Bearer ", 7) ||
		    (a->cfg.kind == FR_TK_API_GRAPH && !strncasecmp(h, "OAuth ", 6))) {
			h += h[0] == 'B' || h[0] == 'b' ? 7 : 6;
			while (*h == ' ')
				h++;
			size_t n = strcspn(h, " \t");
			if (n > 0 && n < len) {
				memcpy(tok, h, n);
				tok[n] = '\0';
				return 1;
			}
		}
	}
	if (a->cfg.kind == FR_TK_API_GRAPH &&
	    qparam(req->query ? req->query : "", "access_token", tok, len) == 1 && tok[0])
		return 1;
	return 0;
}

/* Outcome of a call's accounting. */
struct acct {
	int64_t tok;   /* token index, -1: unknown */
	int limited;   /* refused for the limit */
	unsigned used; /* calls of the window after this one */
	int64_t win;   /* the window */
};

/* Looks the token up (adding it when any is accepted) and counts the call
 * at world time t_s. */
static void
account(struct fr_tk_api *a, const char *token, double t_s, struct acct *ac)
{
	uint32_t id;
	int added = 0;

	memset(ac, 0, sizeof(*ac));
	ac->tok = -1;
	pthread_mutex_lock(&a->mu);
	if (!fr_strmap_find(a->tokmap, token, strlen(token), &id)) {
		if (a->cfg.n_tokens || fr_strmap_len(a->tokmap) >= FR_TK_API_MAX_TOKENS ||
		    strlen(token) > TOKEN_MAX) {
			a->unauthorized++;
			pthread_mutex_unlock(&a->mu);
			return;
		}
		if (fr_strmap_len(a->tokmap) >= a->cap_toks) {
			size_t cap = a->cap_toks * 2;
			struct tok *t = realloc(a->toks, cap * sizeof(*t));
			if (!t) {
				a->unauthorized++;
				pthread_mutex_unlock(&a->mu);
				return;
			}
			a->toks = t;
			a->cap_toks = cap;
		}
		if (fr_strmap_intern(a->tokmap, token, strlen(token), &id, &added) < 0) {
			a->unauthorized++;
			pthread_mutex_unlock(&a->mu);
			return;
		}
		a->toks[id].win = INT64_MIN;
		a->toks[id].used = 0;
	}
	ac->tok = id;
	if (a->cfg.limit_n) {
		struct tok *t = &a->toks[id];
		int64_t win = (int64_t)floor(t_s / a->cfg.limit_window_s);

		if (t->win != win) {
			t->win = win;
			t->used = 0;
		}
		ac->win = win;
		if (t->used >= a->cfg.limit_n) {
			ac->limited = 1;
			a->refused++;
		} else {
			t->used++;
			a->calls++;
		}
		ac->used = t->used;
	} else {
		a->calls++;
	}
	pthread_mutex_unlock(&a->mu);
}

void
fr_tk_api_get_stats(struct fr_tk_api *a, struct fr_tk_api_stats *st)
{
	pthread_mutex_lock(&a->mu);
	st->calls = a->calls;
	st->refused = a->refused;
	st->unauthorized = a->unauthorized;
	st->tokens = a->cfg.n_tokens ? a->cfg.n_tokens : fr_strmap_len(a->tokmap);
	pthread_mutex_unlock(&a->mu);
}

/* Appends a "Name: value\n" line to resp's headers. */
static void
add_header(struct fr_serve_resp *resp, const char *name, const char *value)
{
	size_t n = strlen(resp->headers);

	snprintf(resp->headers + n, sizeof(resp->headers) - n, "%s: %s\n", name, value);
}

/* The usage headers of a counted call, in the API's form. World times are
 * shown on the serve clock's wall (the clock file's time under
 * FRESHET_CLOCK_FILE). */
static void
usage_headers(const struct fr_tk_api *a, const struct acct *ac, double wall_s,
              struct fr_serve_resp *resp)
{
	const struct fr_serve_clock *c = a->cfg.clock;
	double reset_t, reset_wall;
	unsigned n = a->cfg.limit_n;
	char v[128], d[40];

	if (!n)
		return;
	reset_t = (double)(ac->win + 1) * a->cfg.limit_window_s;
	reset_wall = c->wall0_s + (reset_t - c->start_s) / c->speed;
	switch (a->cfg.kind) {
	case FR_TK_API_GRAPH: {
		/* The percentage of the limit used; the stub's calls all cost
		 * alike, so time and CPU time go with the count. */
		unsigned pct = (unsigned)((uint64_t)ac->used * 100 / n);
		snprintf(v, sizeof(v), "{\"call_count\":%u,\"total_time\":%u,\"total_cputime\":%u}",
		         pct, pct, pct);
		add_header(resp, "X-App-Usage", v);
		break;
	}
	case FR_TK_API_MASTODON: {
		/* Rack::Attack's: the window's end, ISO 8601 with microseconds. */
		double us = floor(reset_wall * 1e6 + 0.5);
		int64_t sec = (int64_t)floor(us / 1e6);

		snprintf(v, sizeof(v), "%u", n);
		add_header(resp, "X-RateLimit-Limit", v);
		snprintf(v, sizeof(v), "%u", n - ac->used);
		add_header(resp, "X-RateLimit-Remaining", v);
		ymdhms(sec, d, sizeof(d));
		snprintf(v, sizeof(v), "%s.%06dZ", d, (int)(us - (double)sec * 1e6));
		add_header(resp, "X-RateLimit-Reset", v);
		break;
	}
	default: {
		/* Reddit's: used, remaining as a float, whole seconds to the
		 * window's end (rounded up, so waiting them passes it). */
		double left = ceil(reset_wall - wall_s);

		snprintf(v, sizeof(v), "%u", ac->used);
		add_header(resp, "X-Ratelimit-Used", v);
		snprintf(v, sizeof(v), "%u.0", n - ac->used);
		add_header(resp, "X-Ratelimit-Remaining", v);
		snprintf(v, sizeof(v), "%.0f", left < 0 ? 0 : left);
		add_header(resp, "X-Ratelimit-Reset", v);
		break;
	}
	}
}

/* ---- answers ---- */

static const char CT_JSON[] = "application/json; charset=utf-8";

static int
give(struct fr_text *b, struct fr_serve_resp *resp, int status, const char *ctype)
{
	if (b->bad) {
		free(b->p);
		return -1;
	}
	resp->status = status;
	resp->content_type = ctype;
	resp->body = b->p ? b->p : "";
	resp->len = b->len;
	resp->release = b->p ? free : NULL;
	resp->release_cls = b->p;
	return 0;
}

/* An error in the API's shape. graph_code: the Graph code (and message);
 * others use status. */
static int
error_answer(const struct fr_tk_api *a, struct fr_serve_resp *resp, int status, int graph_code,
             const char *graph_type, const char *message)
{
	struct fr_text b = {0};

	switch (a->cfg.kind) {
	case FR_TK_API_GRAPH:
		fr_text_puts(&b, "{\"error\":{\"message\":\"");
		fr_text_json(&b, message);
		fr_text_printf(&b, "\",\"type\":\"%s\",", graph_type);
		if (graph_code == 4 || graph_code == 17 || graph_code == 32 || graph_code == 613)
			fr_text_puts(&b, "\"is_transient\":true,");
		fr_text_printf(&b, "\"code\":%d,\"fbtrace_id\":\"AfreshetStub%04d\"}}", graph_code,
		               status);
		break;
	case FR_TK_API_MASTODON:
		fr_text_puts(&b, "{\"error\":\"");
		fr_text_json(&b, message);
		fr_text_puts(&b, "\"}");
		break;
	default:
		fr_text_puts(&b, "{\"message\": \"");
		fr_text_json(&b, message);
		fr_text_printf(&b, "\", \"error\": %d}", status);
		break;
	}
	return give(&b, resp, status, CT_JSON);
}

static int
limit_answer(const struct fr_tk_api *a, struct fr_serve_resp *resp)
{
	switch (a->cfg.kind) {
	case FR_TK_API_GRAPH: {
		const char *msg = a->cfg.graph_code == 17   ? "(#17) User request limit reached"
		                  : a->cfg.graph_code == 32 ? "(#32) Page request limit reached"
		                  : a->cfg.graph_code == 613
		                      ? "(#613) Calls to this api have exceeded the rate limit."
		                      : "(#4) Application request limit reached";
		return error_answer(a, resp, 403, a->cfg.graph_code, "OAuthException", msg);
	}
	case FR_TK_API_MASTODON:
		return error_answer(a, resp, 429, 0, NULL, "Too many requests");
	default:
		return error_answer(a, resp, 429, 0, NULL, "Too Many Requests");
	}
}

/* The text of item k of source name, published at d (RFC 3339). */
static void
item_text(struct fr_text *b, const char *name, size_t k, const char *d, int html)
{
	fr_text_printf(b, "%sItem %zu of ", html ? "<p>" : "", k);
	if (html)
		fr_text_xml(b, name);
	else
		fr_text_puts(b, name);
	fr_text_printf(b, " (Q%sA), published %s.%s", html ? "&amp;" : "&", d, html ? "</p>" : "");
}

/* Reddit's escaping of title and selftext (without raw_json=1): & < > as
 * entities, into a JSON string. */
static void
reddit_str(struct fr_text *b, const char *s, int raw)
{
	struct fr_text t = {0};

	if (raw) {
		fr_text_json(b, s);
		return;
	}
	for (; *s; s++) {
		if (*s == '&')
			fr_text_puts(&t, "&amp;");
		else if (*s == '<')
			fr_text_puts(&t, "&lt;");
		else if (*s == '>')
			fr_text_puts(&t, "&gt;");
		else
			fr_text_add(&t, s, 1);
	}
	if (t.bad)
		b->bad = 1;
	else if (t.p)
		fr_text_json(b, t.p);
	fr_text_free(&t);
}

/* Cursors of the Graph pages: base64url of "k:<n>", opaque to clients. */
static void
graph_cursor(size_t n, char *out, size_t len)
{
	static const char B64[] =
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
	char raw[32];
	size_t rl = (size_t)snprintf(raw, sizeof(raw), "k:%zu", n), o = 0;

	for (size_t i = 0; i < rl && o + 5 < len; i += 3) {
		unsigned v = (unsigned char)raw[i] << 16;
		if (i + 1 < rl)
			v |= (unsigned char)raw[i + 1] << 8;
		if (i + 2 < rl)
			v |= (unsigned char)raw[i + 2];
		out[o++] = B64[(v >> 18) & 63];
		out[o++] = B64[(v >> 12) & 63];
		if (i + 1 < rl)
			out[o++] = B64[(v >> 6) & 63];
		if (i + 2 < rl)
			out[o++] = B64[v & 63];
	}
	out[o] = '\0';
}

/* A Graph cursor back to n; -1 when it is not one. */
static int64_t
graph_uncursor(const char *c)
{
	char raw[32];
	size_t o = 0, n = strlen(c);
	int64_t v = 0;

	if (n == 0 || n > 40)
		return -1;
	for (size_t i = 0; i < n; i += 4) {
		unsigned acc = 0, k;
		size_t got = 0;

		for (k = 0; k < 4 && i + k < n; k++) {
			char ch = c[i + k];
			int d = ch >= 'A' && ch <= 'Z'   ? ch - 'A'
			        : ch >= 'a' && ch <= 'z' ? ch - 'a' + 26
			        : ch >= '0' && ch <= '9' ? ch - '0' + 52
			        : ch == '-'              ? 62
			        : ch == '_'              ? 63
			                                 : -1;
			if (d < 0)
				return -1;
			acc |= (unsigned)d << (18 - 6 * k);
			got++;
		}
		if (got < 2)
			return -1;
		for (k = 0; k + 1 < got && o + 1 < sizeof(raw); k++)
			raw[o++] = (char)((acc >> (16 - 8 * k)) & 255);
	}
	raw[o] = '\0';
	if (strncmp(raw, "k:", 2) != 0 || !raw[2])
		return -1;
	for (const char *p = raw + 2; *p; p++) {
		if (*p < '0' || *p > '9' || v > (int64_t)ITEM_K_MAX)
			return -1;
		v = v * 10 + (*p - '0');
	}
	return v;
}

/* Appends "&name=value" (value percent-encoded) to b. */
static void
add_param(struct fr_text *b, const char *name, const char *value)
{
	char enc[TOKEN_MAX * 3 + 1];

	url_segment(value, enc, sizeof(enc));
	fr_text_printf(b, "&%s=%s", name, enc);
}

/* Graph: /PAGE/posts. Items [lo, hi) newest first. */
static int
graph_page(const struct fr_tk_api *a, const struct fr_serve_req *req, uint32_t s, size_t count,
           const char *token_param, struct fr_serve_resp *resp)
{
	const char *name = fr_trace_source_name(a->tr, s);
	const char *q = req->query ? req->query : "";
	unsigned limit = page_size(a, q);
	char v[PARAM_MAX], seg[NAME_URL_MAX], d[40], c1[64], c2[64];
	size_t lo, hi = count;
	struct fr_text b = {0};

	if (!limit)
		return error_answer(a, resp, 400, 100, "OAuthException",
		                    "(#100) The parameter limit must be a positive whole number");
	if (qparam(q, "after", v, sizeof(v)) == 1) {
		int64_t k = graph_uncursor(v);
		if (k < 0)
			return error_answer(a, resp, 400, 100, "OAuthException",
			                    "(#100) The after cursor is not valid");
		if ((size_t)k < hi)
			hi = (size_t)k;
		lo = hi > limit ? hi - limit : 0;
	} else if (qparam(q, "before", v, sizeof(v)) == 1) {
		int64_t k = graph_uncursor(v);
		if (k < 0)
			return error_answer(a, resp, 400, 100, "OAuthException",
			                    "(#100) The before cursor is not valid");
		lo = (size_t)k < count ? (size_t)k : count;
		hi = count - lo > limit ? lo + limit : count;
	} else {
		lo = hi > limit ? hi - limit : 0;
	}
	url_segment(name, seg, sizeof(seg));
	fr_text_puts(&b, "{\"data\":[");
	for (size_t k = hi; k-- > lo;) {
		int64_t sec = floor_div(item_ms(a, s, k), 1000);

		ymdhms(sec, d, sizeof(d));
		fr_text_puts(&b, k + 1 == hi ? "\n{\"id\":\"" : ",\n{\"id\":\"");
		fr_text_json(&b, name);
		fr_text_printf(&b, "_%zu\",\"created_time\":\"%s+0000\",\"message\":\"", k, d);
		{
			struct fr_text t = {0};
			char d3[48];

			snprintf(d3, sizeof(d3), "%sZ", d);
			item_text(&t, name, k, d3, 0);
			if (t.bad)
				b.bad = 1;
			else
				fr_text_json(&b, t.p);
			fr_text_free(&t);
		}
		fr_text_printf(
		    &b,
		    "\",\"permalink_url\":\"http://%s/%s/posts/%zu\",\"from\":{\"name\":\"Source ",
		    a->host, seg, k);
		fr_text_json(&b, name);
		fr_text_puts(&b, "\",\"id\":\"");
		fr_text_json(&b, name);
		fr_text_puts(&b, "\"}}");
	}
	fr_text_puts(&b, hi > lo ? "\n]" : "]");
	if (hi > lo) {
		graph_cursor(hi, c1, sizeof(c1));
		graph_cursor(lo, c2, sizeof(c2));
		fr_text_printf(&b, ",\"paging\":{\"cursors\":{\"before\":\"%s\",\"after\":\"%s\"}",
		               c1, c2);
		if (hi < count) {
			fr_text_printf(&b, ",\"previous\":\"http://%s%s?limit=%u&before=%s",
			               a->host, req->path, limit, c1);
			if (token_param)
				add_param(&b, "access_token", token_param);
			fr_text_puts(&b, "\"");
		}
		if (lo > 0) {
			fr_text_printf(&b, ",\"next\":\"http://%s%s?limit=%u&after=%s", a->host,
			               req->path, limit, c2);
			if (token_param)
				add_param(&b, "access_token", token_param);
			fr_text_puts(&b, "\"");
		}
		fr_text_puts(&b, "}");
	}
	fr_text_puts(&b, "}\n");
	return give(&b, resp, 200, CT_JSON);
}

/* A whole number parameter of Mastodon (an id); 1 found, 0 absent, -1 bad. */
static int
id_param(const char *q, const char *name, uint64_t *out)
{
	char v[PARAM_MAX];
	uint64_t x = 0;
	int r = qparam(q, name, v, sizeof(v));

	if (r != 1)
		return r;
	if (!v[0] || strlen(v) > 19)
		return -1;
	for (const char *p = v; *p; p++) {
		if (*p < '0' || *p > '9')
			return -1;
		x = x * 10 + (uint64_t)(*p - '0');
	}
	*out = x;
	return 1;
}

/* Mastodon: /api/v1/accounts/:id/statuses. */
static int
masto_page(const struct fr_tk_api *a, const struct fr_serve_req *req, uint32_t s, size_t count,
           struct fr_serve_resp *resp)
{
	const char *name = fr_trace_source_name(a->tr, s);
	const char *q = req->query ? req->query : "";
	unsigned limit = page_size(a, q);
	uint64_t max_id = 0, since_id = 0, min_id = 0;
	int has_max, has_since, has_min;
	size_t lo, hi = count, floor_k = 0;
	char seg[NAME_URL_MAX], d[40], d3[48];
	struct fr_text b = {0};

	has_max = id_param(q, "max_id", &max_id);
	has_since = id_param(q, "since_id", &since_id);
	has_min = id_param(q, "min_id", &min_id);
	if (!limit || has_max < 0 || has_since < 0 || has_min < 0)
		return error_answer(a, resp, 422, 0, NULL, "Validation failed: bad limit or id");
	if (has_max)
		hi = masto_below(a, s, count, max_id);
	if (has_since)
		floor_k = masto_below(a, s, count, since_id + 1);
	if (has_min) {
		/* The statuses just after min_id (the oldest of them), newest first. */
		size_t m = masto_below(a, s, count, min_id + 1);
		if (m > floor_k)
			floor_k = m;
		lo = floor_k < hi ? floor_k : hi;
		hi = hi - lo > limit ? lo + limit : hi;
	} else {
		if (hi < floor_k)
			hi = floor_k;
		lo = hi - floor_k > limit ? hi - limit : floor_k;
	}
	url_segment(name, seg, sizeof(seg));
	fr_text_puts(&b, "[");
	for (size_t k = hi; k-- > lo;) {
		int64_t ms = item_ms(a, s, k), sec = floor_div(ms, 1000);
		uint64_t id = masto_id(a, s, k);

		ymdhms(sec, d, sizeof(d));
		snprintf(d3, sizeof(d3), "%s.%03dZ", d, (int)(ms - sec * 1000));
		fr_text_printf(&b,
		               "%s{\"id\":\"%llu\",\"created_at\":\"%s\",\"edited_at\":null,"
		               "\"in_reply_to_id\":null,\"sensitive\":false,\"spoiler_text\":\"\","
		               "\"visibility\":\"public\",\"language\":\"en\","
		               "\"uri\":\"http://%s/users/%s/statuses/%llu\","
		               "\"url\":\"http://%s/@%s/%llu\",\"content\":\"",
		               k + 1 == hi ? "\n" : ",\n", (unsigned long long)id, d3, a->host, seg,
		               (unsigned long long)id, a->host, seg, (unsigned long long)id);
		{
			struct fr_text t = {0};

			item_text(&t, name, k, d3, 1);
			if (t.bad)
				b.bad = 1;
			else
				fr_text_json(&b, t.p);
			fr_text_free(&t);
		}
		fr_text_puts(&b, "\",\"account\":{\"id\":\"");
		fr_text_json(&b, name);
		fr_text_puts(&b, "\",\"username\":\"");
		fr_text_json(&b, name);
		fr_text_puts(&b, "\",\"acct\":\"");
		fr_text_json(&b, name);
		fr_text_puts(&b, "\",\"display_name\":\"Source ");
		fr_text_json(&b, name);
		fr_text_printf(&b, "\",\"url\":\"http://%s/@%s\"}}", a->host, seg);
	}
	fr_text_puts(&b, hi > lo ? "\n]\n" : "]\n");
	if (hi > lo) {
		/* As Mastodon: next (older) when the page is full, prev always. */
		struct fr_text l = {0};

		if (hi - lo == limit)
			fr_text_printf(&l, "<http://%s%s?limit=%u&max_id=%llu>; rel=\"next\", ",
			               a->host, req->path, limit,
			               (unsigned long long)masto_id(a, s, lo));
		fr_text_printf(&l, "<http://%s%s?limit=%u&min_id=%llu>; rel=\"prev\"", a->host,
		               req->path, limit, (unsigned long long)masto_id(a, s, hi - 1));
		if (!l.bad && l.p)
			add_header(resp, "Link", l.p);
		fr_text_free(&l);
	}
	/* Rails' Rack::ETag: a weak ETag of the body, and a 304 (by the
	 * server) to an If-None-Match that holds it; still a call. */
	if (!b.bad && b.p) {
		uint64_t h = 0xcbf29ce484222325ull;

		for (size_t i = 0; i < b.len; i++)
			h = (h ^ (unsigned char)b.p[i]) * 0x100000001b3ull;
		snprintf(resp->etag, sizeof(resp->etag), "W/\"%016llx\"", (unsigned long long)h);
	}
	return give(&b, resp, 200, CT_JSON);
}

/* Reddit: /r/NAME/new.json. */
static int
reddit_page(const struct fr_tk_api *a, const struct fr_serve_req *req, uint32_t s, size_t count,
            struct fr_serve_resp *resp)
{
	const char *name = fr_trace_source_name(a->tr, s);
	const char *q = req->query ? req->query : "";
	unsigned limit = page_size(a, q);
	char v[PARAM_MAX], seg[NAME_URL_MAX], id[16], d[40], title[NAME_URL_MAX + 64];
	size_t lo, hi = count;
	int raw = qparam(q, "raw_json", v, sizeof(v)) == 1 && !strcmp(v, "1");
	struct fr_text b = {0};

	if (!limit)
		return error_answer(a, resp, 400, 0, NULL, "Bad Request");
	if (qparam(q, "after", v, sizeof(v)) == 1) {
		int64_t k = reddit_k(a, s, v);

		/* An unknown fullname: Reddit answers an empty listing. */
		hi = k < 0 ? 0 : (size_t)k < count ? (size_t)k : count;
		lo = hi > limit ? hi - limit : 0;
	} else if (qparam(q, "before", v, sizeof(v)) == 1) {
		int64_t k = reddit_k(a, s, v);

		lo = k < 0 ? count : (size_t)k + 1 < count ? (size_t)k + 1 : count;
		hi = count - lo > limit ? lo + limit : count;
	} else {
		lo = hi > limit ? hi - limit : 0;
	}
	url_segment(name, seg, sizeof(seg));
	fr_text_printf(&b, "{\"kind\":\"Listing\",\"data\":{\"after\":");
	if (lo > 0 && hi > lo)
		fr_text_printf(&b, "\"t3_%s\"", reddit_id(a, s, lo, id, sizeof(id)));
	else
		fr_text_puts(&b, "null");
	fr_text_printf(&b, ",\"dist\":%zu,\"modhash\":\"\",\"geo_filter\":\"\",\"children\":[",
	               hi - lo);
	for (size_t k = hi; k-- > lo;) {
		int64_t ms = item_ms(a, s, k), sec = floor_div(ms, 1000);
		struct fr_text t = {0};
		char d3[48];

		ymdhms(sec, d, sizeof(d));
		snprintf(d3, sizeof(d3), "%sZ", d);
		reddit_id(a, s, k, id, sizeof(id));
		fr_text_printf(&b, "%s{\"kind\":\"t3\",\"data\":{\"subreddit\":\"",
		               k + 1 == hi ? "\n" : ",\n");
		fr_text_json(&b, name);
		fr_text_puts(&b, "\",\"selftext\":\"");
		item_text(&t, name, k, d3, 0);
		if (t.bad)
			b.bad = 1;
		else
			reddit_str(&b, t.p, raw);
		fr_text_free(&t);
		fr_text_puts(&b, "\",\"author\":\"");
		fr_text_json(&b, name);
		fr_text_puts(&b, "_bot\",\"title\":\"");
		snprintf(title, sizeof(title), "%s item %zu (Q&A)", name, k);
		reddit_str(&b, title, raw);
		fr_text_printf(&b,
		               "\",\"name\":\"t3_%s\",\"id\":\"%s\",\"created_utc\":%lld.0,"
		               "\"created\":%lld.0,\"is_self\":true,"
		               "\"permalink\":\"/r/%s/comments/%s/item_%zu/\","
		               "\"url\":\"http://%s/r/%s/comments/%s/item_%zu/\"}}",
		               id, id, (long long)sec, (long long)sec, seg, id, k, a->host, seg, id,
		               k);
	}
	fr_text_puts(&b, hi > lo ? "\n],\"before\":" : "],\"before\":");
	if (hi < count && hi > lo)
		fr_text_printf(&b, "\"t3_%s\"}}\n", reddit_id(a, s, hi - 1, id, sizeof(id)));
	else
		fr_text_puts(&b, "null}}\n");
	return give(&b, resp, 200, CT_JSON);
}

/* The source named by the n bytes at p, or -1. */
static int64_t
source_of(const struct fr_tk_api *a, const char *p, size_t n)
{
	uint32_t s;

	return n > 0 && fr_strmap_find(a->tr->sources, p, n, &s) ? (int64_t)s : -1;
}

/* The source of an endpoint path (graph: "[/vN.N]/PAGE/posts"), or -1. */
static int64_t
route(const struct fr_tk_api *a, const char *path)
{
	const char *p = path, *end;
	size_t n;

	switch (a->cfg.kind) {
	case FR_TK_API_GRAPH:
		if (p[0] == '/' && p[1] == 'v' && p[2] >= '0' && p[2] <= '9') {
			const char *q = p + 2;
			while ((*q >= '0' && *q <= '9') || *q == '.')
				q++;
			if (*q == '/')
				p = q;
		}
		p++;
		end = strchr(p, '/');
		if (!end || strcmp(end, "/posts") != 0)
			return -1;
		return source_of(a, p, (size_t)(end - p));
	case FR_TK_API_MASTODON:
		if (strncmp(p, "/api/v1/accounts/", 17) != 0)
			return -1;
		p += 17;
		end = strchr(p, '/');
		if (!end || strcmp(end, "/statuses") != 0)
			return -1;
		return source_of(a, p, (size_t)(end - p));
	default:
		if (strncmp(p, "/r/", 3) != 0)
			return -1;
		p += 3;
		end = strchr(p, '/');
		if (!end || (strcmp(end, "/new.json") != 0 && strcmp(end, "/new") != 0 &&
		             strcmp(end, "/new/.json") != 0))
			return -1;
		n = (size_t)(end - p);
		return source_of(a, p, n);
	}
}

/* GET /: the API, its limit and every source's endpoint, as JSON (free:
 * no token, not a call), for people and demos; tests read --list. */
static int
listing(const struct fr_tk_api *a, struct fr_serve_resp *resp)
{
	struct fr_text b = {.max = (size_t)1 << 30};
	char url[NAME_URL_MAX + 320];

	fr_text_printf(&b, "{\"api\":\"%s\",\"limit\":", KIND_NAMES[a->cfg.kind]);
	if (a->cfg.limit_n)
		fr_text_printf(&b, "{\"calls\":%u,\"window_s\":%.17g}", a->cfg.limit_n,
		               a->cfg.limit_window_s);
	else
		fr_text_puts(&b, "null");
	fr_text_puts(&b, ",\"sources\":[");
	for (uint32_t s = 0; s < a->tr->n_sources; s++) {
		fr_text_puts(&b, s ? ",\n{\"source\":\"" : "\n{\"source\":\"");
		fr_text_json(&b, fr_trace_source_name(a->tr, s));
		fr_text_puts(&b, "\",\"url\":\"");
		fr_text_json(&b, fr_tk_api_url(a, s, url, sizeof(url)));
		fr_text_puts(&b, "\"}");
	}
	fr_text_puts(&b, "\n]}\n");
	return give(&b, resp, 200, CT_JSON);
}

static const char ROBOTS[] = "User-agent: *\nAllow: /\n";

int
fr_tk_api_handle(void *ctx, const struct fr_serve_req *req, struct fr_serve_resp *resp)
{
	struct fr_tk_api *a = ctx;
	const struct fr_serve_clock *c = a->cfg.clock;
	const char *q = req->query ? req->query : "";
	char tok[TOKEN_MAX + 1], scrubbed[FR_SERVE_LOG_NOTE_CAP];
	struct acct ac;
	int64_t s;
	int via_param = 0;
	/* Visibility runs on the serve clock (frozen at its end); the limit's
	 * windows on the unclamped world time, so they keep resetting after
	 * the clock stops. */
	double t_items = fr_serve_clock_trace(c, req->wall_s);
	double t_world = c->start_s + (req->wall_s - c->wall0_s) * c->speed;

	scrub_query(q, scrubbed, sizeof(scrubbed));
	snprintf(resp->log_path, sizeof(resp->log_path), "%s%s%s", req->path, q[0] ? "?" : "",
	         scrubbed);
	if (!strcmp(req->path, "/robots.txt")) {
		snprintf(resp->log_extra, sizeof(resp->log_extra), "-\t0");
		resp->status = 200;
		resp->content_type = "text/plain; charset=utf-8";
		resp->body = ROBOTS;
		resp->len = sizeof(ROBOTS) - 1;
		return 0;
	}
	if (!strcmp(req->path, "/")) {
		snprintf(resp->log_extra, sizeof(resp->log_extra), "-\t0");
		return listing(a, resp);
	}
	if (!find_token(a, req, tok, sizeof(tok))) {
		snprintf(resp->log_extra, sizeof(resp->log_extra), "-\t0");
		pthread_mutex_lock(&a->mu);
		a->unauthorized++;
		pthread_mutex_unlock(&a->mu);
		if (a->cfg.kind == FR_TK_API_GRAPH)
			return error_answer(
			    a, resp, 400, 104, "OAuthException",
			    "An access token is required to request this resource.");
		return error_answer(a, resp, 401, 0, NULL,
		                    a->cfg.kind == FR_TK_API_MASTODON
		                        ? "The access token is invalid"
		                        : "Unauthorized");
	}
	if (a->cfg.kind == FR_TK_API_GRAPH && !fr_serve_req_header(req, "Authorization"))
		via_param = 1;
	account(a, tok, t_world, &ac);
	if (ac.tok < 0) {
		snprintf(resp->log_extra, sizeof(resp->log_extra), "?\t0");
		if (a->cfg.kind == FR_TK_API_GRAPH)
			return error_answer(
			    a, resp, 400, 190, "OAuthException",
			    "Invalid OAuth access token - Cannot parse access token");
		return error_answer(a, resp, 401, 0, NULL,
		                    a->cfg.kind == FR_TK_API_MASTODON
		                        ? "The access token is invalid"
		                        : "Unauthorized");
	}
	snprintf(resp->log_extra, sizeof(resp->log_extra), "t%lld\t%d", (long long)ac.tok,
	         ac.limited);
	usage_headers(a, &ac, req->wall_s, resp);
	if (ac.limited)
		return limit_answer(a, resp);
	s = route(a, req->path);
	if (s < 0) {
		if (a->cfg.kind == FR_TK_API_GRAPH)
			return error_answer(a, resp, 400, 100, "GraphMethodException",
			                    "Unsupported get request. Object does not exist or the "
			                    "path is not one this API serves");
		return error_answer(a, resp, 404, 0, NULL,
		                    a->cfg.kind == FR_TK_API_MASTODON ? "Record not found"
		                                                      : "Not Found");
	}
	{
		size_t count = visible(a, (uint32_t)s, t_items);

		switch (a->cfg.kind) {
		case FR_TK_API_GRAPH:
			return graph_page(a, req, (uint32_t)s, count, via_param ? tok : NULL, resp);
		case FR_TK_API_MASTODON:
			return masto_page(a, req, (uint32_t)s, count, resp);
		default:
			return reddit_page(a, req, (uint32_t)s, count, resp);
		}
	}
}

/* ---- files ---- */

int
fr_tk_api_write_list(const struct fr_tk_api *a, FILE *out, const char *name, char *err,
                     size_t errlen)
{
	char url[NAME_URL_MAX + 320];

	for (uint32_t s = 0; s < a->tr->n_sources; s++)
		fprintf(out, "%s\n", fr_tk_api_url(a, s, url, sizeof(url)));
	if (ferror(out)) {
		fr_errf(err, errlen, "%s: write error", name);
		return -1;
	}
	return 0;
}

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

int
fr_tk_api_write_truth(const struct fr_tk_api *a, FILE *out, const char *name, double t_end_s,
                      size_t *rows, char *err, size_t errlen)
{
	char url[NAME_URL_MAX + 320], id[64];
	size_t n = 0;

	fputs("source,url,id,published_s\n", out);
	for (uint32_t s = 0; s < a->tr->n_sources; s++) {
		const char *src = fr_trace_source_name(a->tr, s);
		size_t count = visible(a, s, t_end_s);

		fr_tk_api_url(a, s, url, sizeof(url));
		for (size_t k = 0; k < count; k++) {
			int64_t sec = floor_div(item_ms(a, s, k), 1000);

			if (a->cfg.kind == FR_TK_API_GRAPH) {
				csv_field(out, src);
				fputc(',', out);
				csv_field(out, url);
				fputc(',', out);
				csv_field(out, src);
				fprintf(out, "_%zu,%lld\n", k, (long long)sec);
			} else {
				if (a->cfg.kind == FR_TK_API_MASTODON) {
					snprintf(id, sizeof(id), "%llu",
					         (unsigned long long)masto_id(a, s, k));
				} else {
					char b36[16];
					snprintf(id, sizeof(id), "t3_%s",
					         reddit_id(a, s, k, b36, sizeof(b36)));
				}
				csv_field(out, src);
				fputc(',', out);
				csv_field(out, url);
				fprintf(out, ",%s,%lld\n", id, (long long)sec);
			}
			n++;
		}
	}
	if (rows)
		*rows = n;
	if (ferror(out)) {
		fr_errf(err, errlen, "%s: write error", name);
		return -1;
	}
	return 0;
}
