/* fetch.c - the fetcher over libcurl's multi interface: one easy handle per
 * transfer, a FIFO beyond max_total, header and body callbacks that keep only
 * the final response's facts and cap the decoded body while it streams. */
#include "net/fetch.h"

#include "core/err.h"
#include "core/timefmt.h"
#include "core/strmap.h"
#include "net/addrpolicy.h"
#include "net/httpdate.h"

#include <curl/curl.h>
#include <limits.h>
#include <arpa/inet.h>
#include <math.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#define DEF_CONNECT_TIMEOUT_S 10.0
#define DEF_TIMEOUT_S 30.0
#define DEF_LOW_SPEED_TIME_S 15.0
#define DEF_LOW_SPEED_BYTES 10L
#define DEF_MAX_BODY ((size_t)16 << 20)
#define DEF_MAX_REDIRECTS 5
#define DEF_MAX_PER_HOST 2
#define DEF_MAX_TOTAL 64
#define HEADER_VALUE_MAX 8192 /* longer values of the headers we keep are cut */
#define URL_IN_ERR 160        /* bytes of the URL quoted in an error */

static const char DEF_ACCEPT[] =
    "application/rss+xml, application/atom+xml, application/feed+json, "
    "application/xml;q=0.9, text/xml;q=0.9, application/json;q=0.9, text/html;q=0.8, "
    "*/*;q=0.5";

struct fr_fetcher {
	CURLM *multi;
	CURLSH *share; /* TLS sessions and DNS, shared by every transfer */
	struct curl_slist *connect_to;
	char *user_agent, *proxy, *accept, *cainfo;
	long connect_timeout_ms, timeout_ms, low_speed_time_s, low_speed_bytes;
	size_t max_body;
	int max_redirects, max_total, max_per_host, http2, truncate_body, both_validators;
	int allow_private;
	FILE *request_log; /* the caller's; one line per finished transfer */
	int via_proxy; /* a proxy is in use (option or environment): only URL literals judged */
	struct transfer *active;        /* doubly linked, in the multi handle */
	struct transfer *qhead, *qtail; /* waiting for a slot, FIFO */
	size_t n_active, n_queued;
	/* Transfers running per host of the requested URL. Counted here, not
	 * with CURLMOPT_MAX_HOST_CONNECTIONS, which counts per connect-to
	 * destination (all virtual hosts of a test server would share it). */
	struct fr_strmap *hosts;
	uint32_t *host_active;
	size_t host_cap;
};

struct transfer {
	struct fr_fetcher *f;
	struct transfer *prev, *next;
	CURL *h;
	struct curl_slist *headers;
	char *url;
	uint64_t tag;
	uint32_t host; /* id in f->hosts */
	double started_s, t0_mono_s;
	double begun_s; /* wall clock when it left the queue for libcurl */
	char errbuf[CURL_ERROR_SIZE];
	char blocked[160]; /* why an address was refused (allow_private = 0), else "" */
	/* The body of the current response. */
	char *body;
	size_t len, cap;
	int too_large, truncated;
	/* The current response's headers (reset at each status line). */
	char *content_type, *etag, *last_modified, *retry_after, *cache_control, *expires, *date;
	long cur_status;     /* status of the current response, 0 before the first */
	int hops;            /* responses before the current one (redirects followed) */
	int all_permanent;   /* every such response was 301 or 308 */
	double headers_at_s; /* wall clock when the current response's headers began */
	int want_headers;    /* keep the header block (hdr) */
	int want_error_body; /* keep an HTTP error's body */
	char *hdr;           /* the current response's header lines, or NULL */
	size_t hdr_len;
};

static double
mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static char *
dupn(const char *s, size_t n)
{
	char *d = malloc(n + 1);

	if (!d)
		return NULL;
	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

static char *
dup0(const char *s)
{
	return s ? dupn(s, strlen(s)) : NULL;
}

static int
lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

static int
strncasecmp_ascii(const char *a, const char *b, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int x = lower((unsigned char)a[i]), y = lower((unsigned char)b[i]);

		if (x != y || !x)
			return x - y;
	}
	return 0;
}

void
fr_fetch_opts_init(struct fr_fetch_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->http2 = 1;
}

const char *
fr_net_outcome_name(enum fr_net_outcome o)
{
	switch (o) {
	case FR_NET_OK:
		return "ok";
	case FR_NET_NOT_MODIFIED:
		return "not-modified";
	case FR_NET_HTTP_ERROR:
		return "http-error";
	case FR_NET_TIMEOUT:
		return "timeout";
	case FR_NET_DNS:
		return "dns";
	case FR_NET_CONNECT:
		return "connect";
	case FR_NET_TOO_LARGE:
		return "too-large";
	case FR_NET_TLS:
		return "tls";
	case FR_NET_REDIRECTS:
		return "redirects";
	case FR_NET_BLOCKED:
		return "blocked";
	case FR_NET_OTHER:
		break;
	}
	return "other";
}

void
fr_response_clear(struct fr_response *r)
{
	free(r->body);
	free(r->content_type);
	free(r->etag);
	free(r->last_modified);
	free(r->effective_url);
	free(r->permanent_url);
	free(r->location);
	free(r->http_version);
	free(r->headers);
	memset(r, 0, sizeof(*r));
}

void
fr_net_features(struct fr_net_features *out)
{
	const curl_version_info_data *d = curl_version_info(CURLVERSION_NOW);

	memset(out, 0, sizeof(*out));
	out->http2 = (d->features & CURL_VERSION_HTTP2) != 0;
	out->brotli = (d->features & CURL_VERSION_BROTLI) != 0;
	out->zstd = (d->features & CURL_VERSION_ZSTD) != 0;
	out->gzip = (d->features & CURL_VERSION_LIBZ) != 0;
	out->https = (d->features & CURL_VERSION_SSL) != 0;
	out->curl_version = d->version;
	out->ssl_version = d->ssl_version;
}

/* Seconds as milliseconds for libcurl, at least 1 (0 would mean "none"). */
static long
to_ms(double s, double def)
{
	double v = s > 0 ? s : def;

	if (v * 1000 > (double)LONG_MAX / 2)
		return LONG_MAX / 2;
	return v * 1000 < 1 ? 1 : (long)ceil(v * 1000);
}

int
fr_fetcher_new(struct fr_fetcher **out, const struct fr_fetch_opts *opts, char *err, size_t errlen)
{
	struct fr_fetch_opts def;
	struct fr_fetcher *f;
	const char *contact;
	double lst;
	size_t n;

	*out = NULL;
	if (!opts) {
		fr_fetch_opts_init(&def);
		opts = &def;
	}
	if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
		return fr_errf(err, errlen, "fetcher: libcurl initialisation failed");
	f = calloc(1, sizeof(*f));
	if (!f) {
		curl_global_cleanup();
		return fr_errf(err, errlen, "fetcher: out of memory");
	}
	contact =
	    opts->contact_url && *opts->contact_url ? opts->contact_url : FR_FETCH_CONTACT_DEFAULT;
	if (opts->user_agent && *opts->user_agent) {
		f->user_agent = dup0(opts->user_agent);
	} else {
		n = strlen(contact) + 32;
		f->user_agent = malloc(n);
		if (f->user_agent)
			snprintf(f->user_agent, n, "freshet/%s (+%s)", FR_FETCH_VERSION, contact);
	}
	f->accept = dup0(opts->accept ? opts->accept : DEF_ACCEPT);
	if (opts->proxy)
		f->proxy = dup0(opts->proxy);
	if (opts->cainfo)
		f->cainfo = dup0(opts->cainfo);
	if (!f->user_agent || !f->accept || (opts->proxy && !f->proxy) ||
	    (opts->cainfo && !f->cainfo))
		goto oom;
	for (size_t i = 0; i < opts->n_connect_to; i++) {
		struct curl_slist *l = curl_slist_append(f->connect_to, opts->connect_to[i]);

		if (!l)
			goto oom;
		f->connect_to = l;
	}
	f->connect_timeout_ms = to_ms(opts->connect_timeout_s, DEF_CONNECT_TIMEOUT_S);
	f->timeout_ms = to_ms(opts->timeout_s, DEF_TIMEOUT_S);
	lst = opts->low_speed_time_s > 0 ? opts->low_speed_time_s : DEF_LOW_SPEED_TIME_S;
	f->low_speed_time_s = lst < 1 ? 1 : lst > 86400 ? 86400 : (long)ceil(lst);
	f->low_speed_bytes =
	    opts->low_speed_bytes > 0 ? opts->low_speed_bytes : DEF_LOW_SPEED_BYTES;
	f->max_body = opts->max_body ? opts->max_body : DEF_MAX_BODY;
	if (f->max_body > (size_t)LONG_MAX / 2)
		f->max_body = (size_t)LONG_MAX / 2;
	f->max_redirects = opts->max_redirects ? opts->max_redirects : DEF_MAX_REDIRECTS;
	f->max_total = opts->max_total > 0 ? opts->max_total : DEF_MAX_TOTAL;
	f->max_per_host = opts->max_per_host > 0 ? opts->max_per_host : DEF_MAX_PER_HOST;
	f->http2 = opts->http2 != 0;
	f->truncate_body = opts->truncate_body != 0;
	f->both_validators = opts->send_both_validators != 0;
	f->allow_private = opts->allow_private != 0;
	f->request_log = opts->request_log;
	if (opts->proxy) {
		f->via_proxy = *opts->proxy != '\0';
	} else {
		static const char *const env[] = {"http_proxy", "HTTPS_PROXY", "https_proxy",
		                                  "ALL_PROXY", "all_proxy"};

		for (size_t k = 0; k < sizeof(env) / sizeof(env[0]); k++) {
			const char *v = getenv(env[k]);

			if (v && *v)
				f->via_proxy = 1;
		}
	}
	f->hosts = fr_strmap_new();
	f->multi = curl_multi_init();
	if (!f->multi || !f->hosts)
		goto oom;
	/* Transfers are limited by the fetcher's own queue (max_total), not
	 * by libcurl's connection limit, which counts idle connections too:
	 * with it at max_total, a crawl over more hosts than that closed an
	 * idle connection for every new one. Idle connections are kept (a
	 * crawl comes back to each host after its gap) up to a cache of 16 x
	 * max_total, at least 1,024. */
	long cache = opts->max_idle > 0 ? (long)opts->max_idle
	             : f->max_total * 16 > 1024 ? (long)f->max_total * 16
	                                        : 1024;
	curl_multi_setopt(f->multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, cache);
	curl_multi_setopt(f->multi, CURLMOPT_MAXCONNECTS, cache);
	curl_multi_setopt(f->multi, CURLMOPT_PIPELINING, (long)CURLPIPE_MULTIPLEX);
	/* Each transfer has its own easy handle, whose TLS session cache dies
	 * with it: shared, a new connection to a host seen before resumes its
	 * session (an abbreviated handshake) instead of a full one. One thread
	 * uses the fetcher, so no lock callbacks. */
	f->share = curl_share_init();
	if (!f->share)
		goto oom;
	curl_share_setopt(f->share, CURLSHOPT_SHARE, CURL_LOCK_DATA_SSL_SESSION);
	curl_share_setopt(f->share, CURLSHOPT_SHARE, CURL_LOCK_DATA_DNS);
	*out = f;
	return 0;
oom:
	fr_fetcher_free(f);
	return fr_errf(err, errlen, "fetcher: out of memory");
}

static void
reset_headers(struct transfer *t)
{
	char **fields[] = {&t->content_type,  &t->etag,    &t->last_modified, &t->retry_after,
	                   &t->cache_control, &t->expires, &t->date};

	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		free(*fields[i]);
		*fields[i] = NULL;
	}
	free(t->hdr);
	t->hdr = NULL;
	t->hdr_len = 0;
}

/* Appends a header line to the kept block (want_headers), up to the cap. */
static void
keep_line(struct transfer *t, const char *h, size_t n)
{
	char *nb;

	if (!t->want_headers || n == 0 || t->hdr_len + n + 1 > FR_FETCH_HEADERS_MAX)
		return;
	if (n <= 2 && (h[0] == '\r' || h[0] == '\n'))
		return; /* the blank line ending the block */
	if (!(nb = realloc(t->hdr, t->hdr_len + n + 1)))
		return;
	memcpy(nb + t->hdr_len, h, n);
	t->hdr = nb;
	t->hdr_len += n;
	t->hdr[t->hdr_len] = '\0';
}

static void
transfer_free(struct transfer *t)
{
	if (!t)
		return;
	if (t->h)
		curl_easy_cleanup(t->h);
	curl_slist_free_all(t->headers);
	reset_headers(t);
	free(t->body);
	free(t->url);
	free(t);
}

static void log_aborted(FILE *out, struct transfer *t);

void
fr_fetcher_free(struct fr_fetcher *f)
{
	struct transfer *t, *next;

	if (!f)
		return;
	for (t = f->active; t; t = next) {
		next = t->next;
		if (f->request_log)
			log_aborted(f->request_log, t);
		curl_multi_remove_handle(f->multi, t->h);
		transfer_free(t);
	}
	for (t = f->qhead; t; t = next) {
		next = t->next;
		transfer_free(t);
	}
	if (f->multi)
		curl_multi_cleanup(f->multi);
	if (f->share) /* after every easy handle that used it */
		curl_share_cleanup(f->share);
	curl_slist_free_all(f->connect_to);
	if (f->hosts)
		fr_strmap_free(f->hosts);
	free(f->host_active);
	free(f->user_agent);
	free(f->proxy);
	free(f->cainfo);
	free(f->accept);
	free(f);
	curl_global_cleanup();
}

/* The body callback: keeps at most max_body decoded bytes; past it, stops
 * the transfer (a write error) and marks it too large or truncated. */
static size_t
on_body(char *p, size_t size, size_t nmemb, void *ud)
{
	struct transfer *t = ud;
	size_t k = size * nmemb, max = t->f->max_body, room;

	if (t->too_large || t->truncated)
		return 0;
	room = max - t->len;
	if (k > room) {
		if (!t->f->truncate_body) {
			t->too_large = 1;
			return 0;
		}
		t->truncated = 1;
		k = room;
	}
	if (t->len + k + 1 > t->cap) {
		size_t cap = t->cap ? t->cap : 16384;
		char *b;

		while (cap < t->len + k + 1)
			cap *= 2;
		if (cap > max + 1)
			cap = max + 1;
		b = realloc(t->body, cap);
		if (!b)
			return 0; /* a write error; reported as out of memory */
		t->body = b;
		t->cap = cap;
	}
	memcpy(t->body + t->len, p, k);
	t->len += k;
	return t->truncated ? 0 : size * nmemb;
}

/* Whether header line h (n bytes) is "name:" (case-insensitive); sets *v and
 * *vn to its value without surrounding blanks and the CR LF. */
static int
header_is(const char *h, size_t n, const char *name, const char **v, size_t *vn)
{
	size_t k = strlen(name), e;

	if (n <= k || h[k] != ':')
		return 0;
	for (size_t i = 0; i < k; i++)
		if (lower((unsigned char)h[i]) != name[i])
			return 0;
	e = n;
	k++;
	while (k < e && (h[k] == ' ' || h[k] == '\t'))
		k++;
	while (e > k &&
	       (h[e - 1] == '\r' || h[e - 1] == '\n' || h[e - 1] == ' ' || h[e - 1] == '\t'))
		e--;
	*v = h + k;
	*vn = e - k;
	return 1;
}

/* Sets *field to the value (the first occurrence wins), or with append
 * joins repeated headers with ", " (Cache-Control). Values are capped. */
static void
keep(char **field, const char *v, size_t vn, int append)
{
	char *s;
	size_t old;

	if (vn > HEADER_VALUE_MAX)
		vn = HEADER_VALUE_MAX;
	if (!*field) {
		*field = dupn(v, vn);
		return;
	}
	if (!append)
		return;
	old = strlen(*field);
	if (old + vn + 2 > HEADER_VALUE_MAX)
		return;
	s = realloc(*field, old + vn + 3);
	if (!s)
		return;
	memcpy(s + old, ", ", 2);
	memcpy(s + old + 2, v, vn);
	s[old + 2 + vn] = '\0';
	*field = s;
}

/* The header callback: each status line starts a new response (a redirect
 * hop before it, or an interim 1xx); only the final response's fields stay. */
static size_t
on_header(char *h, size_t size, size_t nmemb, void *ud)
{
	struct transfer *t = ud;
	size_t n = size * nmemb, vn;
	const char *v;

	if (n > 5 && memcmp(h, "HTTP/", 5) == 0) {
		const char *p = memchr(h, ' ', n);
		long code = 0;

		if (p) {
			for (p++; p < h + n && *p >= '0' && *p <= '9' && code < 1000; p++)
				code = code * 10 + (*p - '0');
		}
		if (code >= 100 && code < 200)
			return n; /* interim: its headers do not describe the resource */
		if (t->cur_status) {
			t->hops++;
			if (t->cur_status != 301 && t->cur_status != 308)
				t->all_permanent = 0;
		}
		t->cur_status = code;
		t->headers_at_s = fr_time_now();
		reset_headers(t);
		t->len = 0; /* a redirect's body is not the resource's */
		return n;
	}
	keep_line(t, h, n);
	if (header_is(h, n, "content-type", &v, &vn))
		keep(&t->content_type, v, vn, 0);
	else if (header_is(h, n, "etag", &v, &vn))
		keep(&t->etag, v, vn, 0);
	else if (header_is(h, n, "last-modified", &v, &vn))
		keep(&t->last_modified, v, vn, 0);
	else if (header_is(h, n, "retry-after", &v, &vn))
		keep(&t->retry_after, v, vn, 0);
	else if (header_is(h, n, "cache-control", &v, &vn))
		keep(&t->cache_control, v, vn, 1);
	else if (header_is(h, n, "expires", &v, &vn))
		keep(&t->expires, v, vn, 0);
	else if (header_is(h, n, "date", &v, &vn))
		keep(&t->date, v, vn, 0);
	return n;
}

/* Whether a validator can go into a header line as it is. */
static int
header_safe(const char *s)
{
	return s && *s && !strpbrk(s, "\r\n");
}

static int
add_header(struct curl_slist **l, const char *name, const char *value)
{
	size_t n = strlen(name) + strlen(value) + 3;
	char *line = malloc(n);
	struct curl_slist *r;

	if (!line)
		return -1;
	snprintf(line, n, "%s: %s", name, value);
	r = curl_slist_append(*l, line);
	free(line);
	if (!r)
		return -1;
	*l = r;
	return 0;
}

/* Whether a connect-to entry names the host and port of url. */
static int
mapped(const struct fr_fetcher *f, const char *url)
{
	CURLU *u;
	char *host = NULL, *port = NULL;
	int yes = 0;

	if (!f->connect_to || !url || !(u = curl_url()))
		return 0;
	if (curl_url_set(u, CURLUPART_URL, url, 0) == CURLUE_OK &&
	    curl_url_get(u, CURLUPART_HOST, &host, 0) == CURLUE_OK &&
	    curl_url_get(u, CURLUPART_PORT, &port, CURLU_DEFAULT_PORT) == CURLUE_OK) {
		for (const struct curl_slist *l = f->connect_to; l && !yes; l = l->next)
			yes = fr_connect_to_names(l->data, host, strtol(port, NULL, 10));
	}
	curl_free(host);
	curl_free(port);
	curl_url_cleanup(u);
	return yes;
}

/* libcurl's socket callback: every connection libcurl opens goes through
 * here with the address it is about to connect to (after DNS, for each
 * address it tries, for the first request and each redirect it follows),
 * so the address policy judges what is really reached, not the name. */
static curl_socket_t
on_open_socket(void *ud, curlsocktype purpose, struct curl_sockaddr *a)
{
	struct transfer *t = ud;
	struct fr_fetcher *f = t->f;
	char *eff = NULL;
	const char *why;

	if (!f->allow_private && !f->via_proxy && purpose == CURLSOCKTYPE_IPCXN) {
		curl_easy_getinfo(t->h, CURLINFO_EFFECTIVE_URL, &eff);
		why = fr_addr_forbidden(&a->addr);
		if (why && !mapped(f, eff ? eff : t->url)) {
			char ip[INET6_ADDRSTRLEN] = "?";
			unsigned port = 0;

			if (a->family == AF_INET) {
				const struct sockaddr_in *s = (const void *)&a->addr;

				inet_ntop(AF_INET, &s->sin_addr, ip, sizeof(ip));
				port = ntohs(s->sin_port);
			} else if (a->family == AF_INET6) {
				const struct sockaddr_in6 *s = (const void *)&a->addr;

				inet_ntop(AF_INET6, &s->sin6_addr, ip, sizeof(ip));
				port = ntohs(s->sin6_port);
			}
			snprintf(t->blocked, sizeof(t->blocked),
			         "refused to connect to %s port %u: a %s address (--allow-private "
			         "allows it)",
			         ip, port, why);
			return CURL_SOCKET_BAD;
		}
	}
	return socket(a->family, a->socktype, a->protocol);
}

static int
setup_handle(struct transfer *t, const struct fr_request *req, const struct fr_request_extra *x)
{
	struct fr_fetcher *f = t->f;
	CURL *h = t->h;
	int cond_etag = header_safe(req->etag);

	if (add_header(&t->headers, "Accept", f->accept) < 0)
		return -1;
	if (cond_etag && add_header(&t->headers, "If-None-Match", req->etag) < 0)
		return -1;
	if (header_safe(req->last_modified) && (!cond_etag || f->both_validators) &&
	    add_header(&t->headers, "If-Modified-Since", req->last_modified) < 0)
		return -1;
	if (x && x->auth) {
		/* A credential: never on a line of its own making, never
		 * to a redirect's host (the caller follows redirects). */
		struct curl_slist *r;

		if (!header_safe(x->auth) || !strchr(x->auth, ':'))
			return -2;
		if (!(r = curl_slist_append(t->headers, x->auth)))
			return -1;
		t->headers = r;
	}
	t->want_headers = x && x->want_headers;
	t->want_error_body = x && x->want_error_body;
	curl_easy_setopt(h, CURLOPT_URL, t->url);
	curl_easy_setopt(h, CURLOPT_SHARE, f->share);
	curl_easy_setopt(h, CURLOPT_PRIVATE, t);
	curl_easy_setopt(h, CURLOPT_ERRORBUFFER, t->errbuf);
	curl_easy_setopt(h, CURLOPT_OPENSOCKETFUNCTION, on_open_socket);
	curl_easy_setopt(h, CURLOPT_OPENSOCKETDATA, t);
	curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(h, CURLOPT_HTTPGET, 1L);
	if (x && x->post_form) {
		/* Copied by libcurl; the Content-Type is the form's by default. */
		curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE, (long)strlen(x->post_form));
		curl_easy_setopt(h, CURLOPT_COPYPOSTFIELDS, x->post_form);
	}
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_body);
	curl_easy_setopt(h, CURLOPT_WRITEDATA, t);
	curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, on_header);
	curl_easy_setopt(h, CURLOPT_HEADERDATA, t);
	curl_easy_setopt(h, CURLOPT_HTTPHEADER, t->headers);
	curl_easy_setopt(h, CURLOPT_USERAGENT, f->user_agent);
	/* "" offers every encoding this libcurl decodes (gzip, deflate, br, zstd). */
	curl_easy_setopt(h, CURLOPT_ACCEPT_ENCODING, "");
	curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(h, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
	if (f->max_redirects < 0 || (x && (x->auth || x->post_form))) {
		curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L);
	} else {
		curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 1L);
		curl_easy_setopt(h, CURLOPT_MAXREDIRS, (long)f->max_redirects);
	}
	curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, f->connect_timeout_ms);
	curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, f->timeout_ms);
	curl_easy_setopt(h, CURLOPT_LOW_SPEED_TIME, f->low_speed_time_s);
	curl_easy_setopt(h, CURLOPT_LOW_SPEED_LIMIT, f->low_speed_bytes);
	if (!f->truncate_body) /* a Content-Length over the cap fails before the body */
		curl_easy_setopt(h, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)f->max_body);
	curl_easy_setopt(h, CURLOPT_HTTP_VERSION,
	                 f->http2 ? (long)CURL_HTTP_VERSION_2TLS : (long)CURL_HTTP_VERSION_1_1);
	/* Over TLS, where HTTP/2 may be negotiated, wait for a connection that can
	 * multiplex rather than open another. Not for http://: libcurl then
	 * runs one HTTP/1.1 transfer per host at a time. */
	if (f->http2 && strncasecmp_ascii(t->url, "https:", 6) == 0)
		curl_easy_setopt(h, CURLOPT_PIPEWAIT, 1L);
	curl_easy_setopt(h, CURLOPT_SUPPRESS_CONNECT_HEADERS, 1L);
	curl_easy_setopt(h, CURLOPT_TCP_KEEPALIVE, 1L);
	if (f->connect_to)
		curl_easy_setopt(h, CURLOPT_CONNECT_TO, f->connect_to);
	if (f->proxy)
		curl_easy_setopt(h, CURLOPT_PROXY, f->proxy);
	if (f->cainfo)
		curl_easy_setopt(h, CURLOPT_CAINFO, f->cainfo);
	return 0;
}

static void
unlink_active(struct fr_fetcher *f, struct transfer *t)
{
	if (t->prev)
		t->prev->next = t->next;
	else
		f->active = t->next;
	if (t->next)
		t->next->prev = t->prev;
	t->prev = t->next = NULL;
	f->n_active--;
	f->host_active[t->host]--;
}

/* Host and port of url, lower-cased ("" when it does not parse). */
static char *
host_key(const char *url)
{
	CURLU *u = curl_url();
	char *host = NULL, *port = NULL, *key = NULL;
	size_t n;

	if (u && curl_url_set(u, CURLUPART_URL, url, 0) == CURLUE_OK) {
		curl_url_get(u, CURLUPART_HOST, &host, 0);
		curl_url_get(u, CURLUPART_PORT, &port, CURLU_DEFAULT_PORT);
	}
	n = (host ? strlen(host) : 0) + (port ? strlen(port) : 0) + 2;
	key = malloc(n);
	if (key) {
		snprintf(key, n, "%s%s%s", host ? host : "", port ? ":" : "", port ? port : "");
		for (char *c = key; *c; c++)
			*c = (char)lower((unsigned char)*c);
	}
	curl_free(host);
	curl_free(port);
	if (u)
		curl_url_cleanup(u);
	return key;
}

/* Sets t->host, growing the per-host counts. Returns 0 or -1 (out of memory). */
static int
intern_host(struct fr_fetcher *f, struct transfer *t)
{
	char *key = host_key(t->url);
	int rc;

	if (!key)
		return -1;
	rc = fr_strmap_intern(f->hosts, key, strlen(key), &t->host, NULL);
	free(key);
	if (rc < 0)
		return -1;
	if (t->host >= f->host_cap) {
		size_t cap = f->host_cap ? f->host_cap * 2 : 64;
		uint32_t *a;

		while (cap <= t->host)
			cap *= 2;
		a = realloc(f->host_active, cap * sizeof(*a));
		if (!a)
			return -1;
		memset(a + f->host_cap, 0, (cap - f->host_cap) * sizeof(*a));
		f->host_active = a;
		f->host_cap = cap;
	}
	return 0;
}

static int
can_start(const struct fr_fetcher *f, const struct transfer *t)
{
	return f->n_active < (size_t)f->max_total &&
	       f->host_active[t->host] < (uint32_t)f->max_per_host;
}

/* Hands t to libcurl. Returns 0, or -1 when libcurl refuses (t is not linked). */
static int
start(struct fr_fetcher *f, struct transfer *t)
{
	if (curl_multi_add_handle(f->multi, t->h) != CURLM_OK)
		return -1;
	t->begun_s = fr_time_now();
	t->next = f->active;
	t->prev = NULL;
	if (f->active)
		f->active->prev = t;
	f->active = t;
	f->n_active++;
	f->host_active[t->host]++;
	return 0;
}

/* Starts queued transfers, oldest first, while there is room overall and on
 * their hosts. A transfer libcurl refuses stays queued for the next poll. */
static void
start_queued(struct fr_fetcher *f)
{
	struct transfer *prev = NULL, *t = f->qhead, *next;

	while (t && f->n_active < (size_t)f->max_total) {
		next = t->next;
		if (can_start(f, t) && start(f, t) == 0) {
			if (prev)
				prev->next = next;
			else
				f->qhead = next;
			if (f->qtail == t)
				f->qtail = prev;
			f->n_queued--;
		} else {
			prev = t;
		}
		t = next;
	}
}

int
fr_fetcher_submit(struct fr_fetcher *f, const struct fr_request *req, char *err, size_t errlen)
{
	return fr_fetcher_submit_ex(f, req, NULL, err, errlen);
}

int
fr_fetcher_submit_ex(struct fr_fetcher *f, const struct fr_request *req,
                     const struct fr_request_extra *x, char *err, size_t errlen)
{
	struct transfer *t;

	if (!req || !req->url)
		return fr_errf(err, errlen, "fetcher: request without a URL");
	t = calloc(1, sizeof(*t));
	if (!t)
		return fr_errf(err, errlen, "%.*s: out of memory", URL_IN_ERR, req->url);
	t->f = f;
	t->tag = req->tag;
	t->all_permanent = 1;
	t->url = dup0(req->url);
	t->h = curl_easy_init();
	int hrc = t->url && t->h ? setup_handle(t, req, x) : -1;
	if (hrc < 0) {
		transfer_free(t);
		if (hrc == -2)
			return fr_errf(err, errlen, "%.*s: credential header refused (no 'Name:' or a line break)",
				       URL_IN_ERR, req->url);
		return fr_errf(err, errlen, "%.*s: out of memory", URL_IN_ERR, req->url);
	}
	if (intern_host(f, t) < 0) {
		transfer_free(t);
		return fr_errf(err, errlen, "%.*s: out of memory", URL_IN_ERR, req->url);
	}
	t->started_s = fr_time_now();
	t->t0_mono_s = mono_s();
	/* Straight to libcurl when there is room, else into the queue. */
	if (can_start(f, t) && start(f, t) == 0)
		return 0;
	if (f->qtail)
		f->qtail->next = t;
	else
		f->qhead = t;
	f->qtail = t;
	f->n_queued++;
	return 0;
}

size_t
fr_fetcher_running(const struct fr_fetcher *f)
{
	return f->n_active + f->n_queued;
}

static enum fr_net_outcome
outcome_of(CURLcode rc)
{
	switch (rc) {
	case CURLE_OPERATION_TIMEDOUT:
		return FR_NET_TIMEOUT;
	case CURLE_COULDNT_RESOLVE_HOST:
	case CURLE_COULDNT_RESOLVE_PROXY:
		return FR_NET_DNS;
	case CURLE_COULDNT_CONNECT:
		return FR_NET_CONNECT;
	case CURLE_FILESIZE_EXCEEDED:
		return FR_NET_TOO_LARGE;
	case CURLE_TOO_MANY_REDIRECTS:
		return FR_NET_REDIRECTS;
	case CURLE_SSL_CONNECT_ERROR:
	case CURLE_PEER_FAILED_VERIFICATION:
	case CURLE_SSL_CERTPROBLEM:
	case CURLE_SSL_CIPHER:
	case CURLE_SSL_CACERT_BADFILE:
	case CURLE_SSL_ISSUER_ERROR:
	case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
	case CURLE_SSL_INVALIDCERTSTATUS:
	case CURLE_SSL_CRL_BADFILE:
	case CURLE_SSL_SHUTDOWN_FAILED:
	case CURLE_SSL_ENGINE_NOTFOUND:
	case CURLE_SSL_ENGINE_SETFAILED:
	case CURLE_SSL_ENGINE_INITFAILED:
	case CURLE_USE_SSL_FAILED:
		return FR_NET_TLS;
	default:
		return FR_NET_OTHER;
	}
}

static double
info_s(CURL *h, CURLINFO what)
{
	curl_off_t us = -1;

	if (curl_easy_getinfo(h, what, &us) != CURLE_OK || us < 0)
		return -1;
	return (double)us / 1e6;
}

/* Writes s to out with control characters and tabs as '?'. */
static void
put_clean(FILE *out, const char *s)
{
	for (; s && *s; s++)
		fputc((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s, out);
}

/* One line of the request log (fr_fetch_opts.request_log) for r, a transfer
 * of url that has just finished. */
static void
log_request(FILE *out, const struct fr_response *r, const char *url)
{
	flockfile(out);
	fprintf(out, "%.6f\t%.6f\t%ld\t%s\t%d\t", r->sent_s, r->elapsed_s, (long)r->status,
	        fr_net_outcome_name(r->outcome), r->redirects);
	put_clean(out, url);
	fputc('\t', out);
	put_clean(out, r->effective_url);
	fputc('\n', out);
	funlockfile(out);
}

/* The request log's line for a transfer aborted in flight (the fetcher freed
 * under it), when its request had gone out: status 0, outcome "aborted". */
static void
log_aborted(FILE *out, struct transfer *t)
{
	double pre = info_s(t->h, CURLINFO_PRETRANSFER_TIME_T);

	if (!(pre > 0))
		return;
	flockfile(out);
	fprintf(out, "%.6f\t%.6f\t0\taborted\t0\t", t->begun_s + pre, mono_s() - t->t0_mono_s);
	put_clean(out, t->url);
	fputc('\t', out);
	put_clean(out, t->url);
	fputc('\n', out);
	funlockfile(out);
}

/* Builds the response of a finished transfer into r, taking the transfer's
 * buffers. */
static void
finish(struct transfer *t, CURLcode rc, struct fr_response *r)
{
	struct fr_fetcher *f = t->f;
	CURL *h = t->h;
	char *eff = NULL;
	long status = 0, ver = 0, redirects = 0;
	curl_off_t down = 0;
	long hsize = 0;
	const char *why = NULL;
	double now;

	memset(r, 0, sizeof(*r));
	r->tag = t->tag;
	r->retry_after_at_s = r->max_age_s = r->expires_at_s = r->date_s = -1;
	r->started_s = t->started_s;
	r->elapsed_s = mono_s() - t->t0_mono_s;
	double pre = info_s(h, CURLINFO_PRETRANSFER_TIME_T);
	r->sent_s = t->begun_s + (pre > 0 ? pre : 0);
	curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
	curl_easy_getinfo(h, CURLINFO_EFFECTIVE_URL, &eff);
	curl_easy_getinfo(h, CURLINFO_HTTP_VERSION, &ver);
	curl_easy_getinfo(h, CURLINFO_REDIRECT_COUNT, &redirects);
	curl_easy_getinfo(h, CURLINFO_SIZE_DOWNLOAD_T, &down);
	curl_easy_getinfo(h, CURLINFO_HEADER_SIZE, &hsize);
	r->status = status;
	r->redirects = (int)redirects;
	r->wire_bytes = (size_t)(down > 0 ? down : 0) + (size_t)(hsize > 0 ? hsize : 0);
	r->connect_s = info_s(h, CURLINFO_CONNECT_TIME_T);
	r->first_byte_s = info_s(h, CURLINFO_STARTTRANSFER_TIME_T);
	r->effective_url = dup0(eff ? eff : t->url);
	if (status > 0) {
		r->http_version = dup0(ver == CURL_HTTP_VERSION_1_0   ? "1.0"
		                       : ver == CURL_HTTP_VERSION_1_1 ? "1.1"
		                       : ver == CURL_HTTP_VERSION_2_0 ? "2"
		                       : ver == CURL_HTTP_VERSION_3   ? "3"
		                                                      : "?");
	}

	if (rc == CURLE_WRITE_ERROR && t->truncated) {
		rc = CURLE_OK;
		r->truncated = 1;
	}
	if (rc == CURLE_OK && status == 304) {
		r->outcome = FR_NET_NOT_MODIFIED;
	} else if (rc == CURLE_OK && status >= 200 && status < 300) {
		r->outcome = FR_NET_OK;
	} else if (rc == CURLE_OK && status >= 300 && status < 400) {
		char *loc = NULL;

		r->outcome = FR_NET_HTTP_ERROR;
		why = "redirect not followed";
		/* Where it would have gone (resolved against the URL), for a
		 * caller that follows redirects itself. */
		if (curl_easy_getinfo(h, CURLINFO_REDIRECT_URL, &loc) == CURLE_OK && loc)
			r->location = dup0(loc);
	} else if (rc == CURLE_OK && status >= 400) {
		r->outcome = FR_NET_HTTP_ERROR;
	} else if (rc == CURLE_OK) {
		r->outcome = FR_NET_OTHER;
		why = "no HTTP status";
	} else if (t->blocked[0]) {
		r->outcome = FR_NET_BLOCKED;
		why = t->blocked;
	} else if (rc == CURLE_WRITE_ERROR && t->too_large) {
		r->outcome = FR_NET_TOO_LARGE;
	} else if (rc == CURLE_WRITE_ERROR) {
		r->outcome = FR_NET_OTHER;
		why = "out of memory for the body";
	} else if (rc == CURLE_OUT_OF_MEMORY && t->len == 0) {
		/* libcurl refuses a header line over its limit (CURL_MAX_HTTP_HEADER,
		 * 100 KiB) with this code: a hostile server, not our memory. */
		r->outcome = FR_NET_OTHER;
		why = "a response header line over libcurl's 100 KiB limit (or out of memory)";
	} else {
		r->outcome = outcome_of(rc);
	}

	/* The final response's facts, whatever the outcome, when it sent them. */
	now = t->headers_at_s > 0 ? t->headers_at_s : fr_time_now();
	if (status > 0) {
		r->headers = t->hdr, t->hdr = NULL;
		r->headers_len = r->headers ? t->hdr_len : 0;
		r->content_type = t->content_type, t->content_type = NULL;
		r->etag = t->etag, t->etag = NULL;
		r->last_modified = t->last_modified, t->last_modified = NULL;
		if (t->retry_after)
			r->retry_after_at_s = fr_http_retry_after(t->retry_after, now);
		if (t->cache_control)
			fr_http_cache_control(t->cache_control, &r->max_age_s, &r->no_store);
		if (!t->expires || fr_http_date_parse(t->expires, &r->expires_at_s) < 0)
			r->expires_at_s = -1;
		if (!t->date || fr_http_date_parse(t->date, &r->date_s) < 0)
			r->date_s = -1;
	}
	/* Every hop 301/308, and the count agrees with libcurl's (anything else
	 * in the header stream, such as a proxy's, makes it disagree). */
	if (t->hops > 0 && t->all_permanent && t->hops == r->redirects && status > 0 &&
	    (r->outcome == FR_NET_OK || r->outcome == FR_NET_NOT_MODIFIED ||
	     r->outcome == FR_NET_HTTP_ERROR))
		r->permanent_url = dup0(r->effective_url);
	if (r->outcome == FR_NET_HTTP_ERROR && status >= 400 && t->want_error_body && t->body) {
		t->body[t->len] = '\0';
		r->body = t->body;
		r->len = t->len;
		t->body = NULL;
	}
	if (r->outcome == FR_NET_OK) {
		if (!t->body)
			t->body = calloc(1, 1);
		else
			t->body[t->len] = '\0';
		r->body = t->body;
		r->len = t->body ? t->len : 0;
		t->body = NULL;
		if (!r->body) {
			r->outcome = FR_NET_OTHER;
			why = "out of memory for the body";
		}
	}

	if (r->outcome == FR_NET_OK || r->outcome == FR_NET_NOT_MODIFIED)
		return;
	if (r->outcome == FR_NET_HTTP_ERROR && !why) {
		snprintf(r->err, sizeof(r->err), "%.*s: HTTP %ld", URL_IN_ERR, t->url, status);
	} else if (r->outcome == FR_NET_HTTP_ERROR) {
		snprintf(r->err, sizeof(r->err), "%.*s: HTTP %ld (%.60s)", URL_IN_ERR, t->url, status,
		         why);
	} else if (r->outcome == FR_NET_TOO_LARGE) {
		snprintf(r->err, sizeof(r->err), "%.*s: body larger than %zu bytes", URL_IN_ERR,
		         t->url, f->max_body);
	} else if (r->outcome == FR_NET_BLOCKED) {
		/* The address refused may be a redirect's: name where it was going. */
		const char *u = r->effective_url ? r->effective_url : t->url;

		snprintf(r->err, sizeof(r->err), "%.90s: %.159s", u, t->blocked);
	} else if (why) {
		snprintf(r->err, sizeof(r->err), "%.*s: %.90s", URL_IN_ERR, t->url, why);
	} else {
		/* libcurl's message (up to CURL_ERROR_SIZE) is cut to fit beside the URL;
		 * a timeout after the headers came is a body too slow (a trickling
		 * server), named as such. */
		snprintf(r->err, sizeof(r->err), "%.*s: %.15s%.75s", URL_IN_ERR, t->url,
		         rc == CURLE_OPERATION_TIMEDOUT && status > 0 ? "body too slow: " : "",
		         t->errbuf[0] ? t->errbuf : curl_easy_strerror(rc));
	}
}

/* Finishes the transfers libcurl reports done: each is taken out of the
 * multi handle first, so done may submit. With steal, the first response is
 * moved into *steal instead of passed to done. Returns how many finished. */
static int
drain(struct fr_fetcher *f, void (*done)(void *, const struct fr_response *), void *arg,
      struct fr_response *steal)
{
	CURLMsg *m;
	int left, n = 0;

	for (;;) {
		struct transfer *t = NULL;
		struct fr_response r;
		CURLcode rc;

		m = curl_multi_info_read(f->multi, &left);
		if (!m)
			break;
		if (m->msg != CURLMSG_DONE)
			continue;
		rc = m->data.result;
		curl_easy_getinfo(m->easy_handle, CURLINFO_PRIVATE, (char **)&t);
		if (!t)
			continue;
		curl_multi_remove_handle(f->multi, t->h);
		unlink_active(f, t);
		finish(t, rc, &r);
		if (f->request_log)
			log_request(f->request_log, &r, t->url);
		transfer_free(t);
		n++;
		if (steal) {
			*steal = r;
			steal = NULL;
			continue;
		}
		if (done)
			done(arg, &r);
		fr_response_clear(&r);
	}
	return n;
}

static int
poll_impl(struct fr_fetcher *f, int timeout_ms, void (*done)(void *, const struct fr_response *),
          void *arg, struct fr_response *steal)
{
	double deadline = mono_s() + (timeout_ms > 0 ? timeout_ms : 0) / 1000.0;

	for (;;) {
		int still = 0;
		double left_ms;

		start_queued(f);
		if (curl_multi_perform(f->multi, &still) != CURLM_OK)
			return -1;
		if (drain(f, done, arg, steal) > 0) {
			start_queued(f);
			break;
		}
		if (f->n_active == 0 && f->n_queued == 0)
			break;
		left_ms = (deadline - mono_s()) * 1000;
		if (left_ms <= 0)
			break;
		if (curl_multi_poll(f->multi, NULL, 0, (int)ceil(left_ms), NULL) != CURLM_OK)
			return -1;
	}
	return (int)(f->n_active + f->n_queued);
}

int
fr_fetcher_poll(struct fr_fetcher *f, int timeout_ms,
                void (*done)(void *arg, const struct fr_response *res), void *arg)
{
	return poll_impl(f, timeout_ms, done, arg, NULL);
}

int
fr_http_get(const char *url, const struct fr_fetch_opts *opts, struct fr_response *out)
{
	struct fr_fetcher *f;
	struct fr_request req;

	memset(out, 0, sizeof(*out));
	out->retry_after_at_s = out->max_age_s = out->expires_at_s = out->date_s = -1;
	if (fr_fetcher_new(&f, opts, out->err, sizeof(out->err)) < 0)
		return -1;
	memset(&req, 0, sizeof(req));
	req.url = url;
	if (fr_fetcher_submit(f, &req, out->err, sizeof(out->err)) < 0) {
		fr_fetcher_free(f);
		return -1;
	}
	while (fr_fetcher_running(f) > 0) {
		if (poll_impl(f, 1000, NULL, NULL, out) < 0) {
			fr_fetcher_free(f);
			fr_response_clear(out);
			snprintf(out->err, sizeof(out->err), "%.*s: libcurl multi failure",
			         URL_IN_ERR, url ? url : "");
			out->outcome = FR_NET_OTHER;
			return -1;
		}
	}
	fr_fetcher_free(f);
	return 0;
}
