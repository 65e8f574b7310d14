/* test_fetch.c - the fetcher against a real libmicrohttpd server on
 * 127.0.0.1 (ephemeral port, in-process threads): decoding, conditional GET,
 * redirect chains, the body cap while streaming, timeouts, Retry-After and
 * Cache-Control, connect-to, concurrency and queueing, connection reuse,
 * the User-Agent, and failures that never reach a server. */
#include "net/fetch.h"
#include "net/httpdate.h"

#include "test.h"

#include <arpa/inet.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

/* ---- the server ---------------------------------------------------------- */

#define HUGE_LIMIT ((uint64_t)256 << 20) /* /huge ends here if nobody stops it */
#define LAST_MODIFIED "Sat, 01 Jan 2022 00:00:00 GMT"
#define RETRY_DATE "Wed, 21 Oct 2037 07:28:00 GMT"
#define RETRY_DATE_S 2139722880.0

static struct MHD_Daemon *daemon_;
static unsigned short port;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
/* What the server saw, under mu. */
static char seen_inm[256], seen_ims[256], seen_host[256], seen_ua[512], seen_ae[256];
static uint64_t huge_sent;
/* /slow and /stall: bodies whose end the server reached (the client read it all). */
static int slow_ended, stall_ended;
static int sleeping, peak_sleeping, connections;

static char *plain; /* the text served compressed */
static size_t plain_len;
static unsigned char *gz, *zl, *bomb;
static size_t gz_len, zl_len, bomb_len;
#define BOMB_PLAIN ((size_t)8 << 20)

static void
record(char *dst, size_t n, struct MHD_Connection *c, const char *name)
{
	const char *v = MHD_lookup_connection_value(c, MHD_HEADER_KIND, name);

	pthread_mutex_lock(&mu);
	snprintf(dst, n, "%s", v ? v : "");
	pthread_mutex_unlock(&mu);
}

static enum MHD_Result
reply(struct MHD_Connection *c, unsigned status, const void *body, size_t len, const char *h1,
      const char *v1, const char *h2, const char *v2)
{
	struct MHD_Response *r =
	    MHD_create_response_from_buffer(len, (void *)body, MHD_RESPMEM_MUST_COPY);
	enum MHD_Result ret;

	if (h1)
		MHD_add_response_header(r, h1, v1);
	if (h2)
		MHD_add_response_header(r, h2, v2);
	ret = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result
text(struct MHD_Connection *c, unsigned status, const char *s)
{
	return reply(c, status, s, strlen(s), "Content-Type", "text/plain", NULL, NULL);
}

/* /huge: 64 KiB blocks of 'x' until HUGE_LIMIT, counting what went out. */
static ssize_t
huge_reader(void *cls, uint64_t pos, char *buf, size_t max)
{
	(void)cls;
	if (pos >= HUGE_LIMIT)
		return MHD_CONTENT_READER_END_OF_STREAM;
	if (max > 65536)
		max = 65536;
	memset(buf, 'x', max);
	pthread_mutex_lock(&mu);
	huge_sent += max;
	pthread_mutex_unlock(&mu);
	return (ssize_t)max;
}

/* /slow: 100 bytes every 100 ms (fast enough for the low-speed limit) for 10 s. */
static ssize_t
slow_reader(void *cls, uint64_t pos, char *buf, size_t max)
{
	(void)cls;
	if (pos >= 10000) {
		pthread_mutex_lock(&mu);
		slow_ended++;
		pthread_mutex_unlock(&mu);
		return MHD_CONTENT_READER_END_OF_STREAM;
	}
	usleep(100 * 1000);
	if (max > 100)
		max = 100;
	memset(buf, 's', max);
	return (ssize_t)max;
}

/* /stall: one byte every 500 ms (2 B/s) for 10 s. */
static ssize_t
stall_reader(void *cls, uint64_t pos, char *buf, size_t max)
{
	(void)cls;
	(void)max;
	if (pos >= 20) {
		pthread_mutex_lock(&mu);
		stall_ended++;
		pthread_mutex_unlock(&mu);
		return MHD_CONTENT_READER_END_OF_STREAM;
	}
	usleep(500 * 1000);
	buf[0] = '.';
	return 1;
}

static enum MHD_Result
stream(struct MHD_Connection *c, uint64_t size, MHD_ContentReaderCallback cb)
{
	struct MHD_Response *r = MHD_create_response_from_callback(size, 65536, cb, NULL, NULL);
	enum MHD_Result ret = MHD_queue_response(c, 200, r);

	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result
handler(void *cls, struct MHD_Connection *c, const char *url, const char *method,
        const char *version, const char *upload, size_t *upload_len, void **state)
{
	(void)cls;
	(void)method;
	(void)version;
	(void)upload;
	(void)upload_len;
	/* Answer on the second call, when the request is complete: answering on
	 * the first makes libmicrohttpd close the connection. */
	if (!*state) {
		*state = (void *)1;
		return MHD_YES;
	}
	record(seen_ua, sizeof(seen_ua), c, "User-Agent");
	record(seen_host, sizeof(seen_host), c, "Host");
	record(seen_ae, sizeof(seen_ae), c, "Accept-Encoding");
	record(seen_inm, sizeof(seen_inm), c, "If-None-Match");
	record(seen_ims, sizeof(seen_ims), c, "If-Modified-Since");
	if (strcmp(url, "/text") == 0)
		return reply(c, 200, "hello", 5, "Cache-Control", "public, max-age=300", "Expires",
		             RETRY_DATE);
	if (strcmp(url, "/gzip") == 0)
		return reply(c, 200, gz, gz_len, "Content-Encoding", "gzip", NULL, NULL);
	if (strcmp(url, "/deflate") == 0)
		return reply(c, 200, zl, zl_len, "Content-Encoding", "deflate", NULL, NULL);
	if (strcmp(url, "/bomb") == 0)
		return reply(c, 200, bomb, bomb_len, "Content-Encoding", "gzip", NULL, NULL);
	if (strcmp(url, "/etag") == 0) {
		const char *inm = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "If-None-Match");

		if (inm && strcmp(inm, "\"v1\"") == 0)
			return reply(c, 304, "", 0, "ETag", "\"v1\"", "Last-Modified",
			             "Sun, 02 Jan 2022 00:00:00 GMT");
		return reply(c, 200, "etag body", 9, "ETag", "\"v1\"", "Last-Modified",
		             LAST_MODIFIED);
	}
	if (strcmp(url, "/lm") == 0) {
		const char *ims =
		    MHD_lookup_connection_value(c, MHD_HEADER_KIND, "If-Modified-Since");

		if (ims && strcmp(ims, LAST_MODIFIED) == 0)
			return reply(c, 304, "", 0, NULL, NULL, NULL, NULL);
		return reply(c, 200, "lm body", 7, "Last-Modified", LAST_MODIFIED, NULL, NULL);
	}
	if (strcmp(url, "/r301") == 0)
		return reply(c, 301, "moved", 5, "Location", "/r308", NULL, NULL);
	if (strcmp(url, "/r308") == 0)
		return reply(c, 308, "moved", 5, "Location", "/final", NULL, NULL);
	if (strcmp(url, "/r301b") == 0)
		return reply(c, 301, "moved", 5, "Location", "/r302", NULL, NULL);
	if (strcmp(url, "/r302") == 0)
		return reply(c, 302, "found", 5, "Location", "/final", NULL, NULL);
	if (strcmp(url, "/final") == 0)
		return reply(c, 200, "final", 5, "ETag", "\"f\"", NULL, NULL);
	if (strcmp(url, "/tolocal") == 0) {
		/* A public-looking host sending the crawler to loopback. */
		char loc[64];

		snprintf(loc, sizeof(loc), "http://127.0.0.1:%u/final", port);
		return reply(c, 302, "", 0, "Location", loc, NULL, NULL);
	}
	if (strcmp(url, "/loop") == 0)
		return reply(c, 302, "", 0, "Location", "/loop", NULL, NULL);
	if (strcmp(url, "/tofile") == 0)
		return reply(c, 302, "", 0, "Location", "file:///etc/passwd", NULL, NULL);
	if (strcmp(url, "/nolocation") == 0)
		return reply(c, 302, "", 0, NULL, NULL, NULL, NULL);
	if (strcmp(url, "/huge") == 0)
		return stream(c, MHD_SIZE_UNKNOWN, huge_reader);
	if (strcmp(url, "/bigcl") == 0)
		return stream(c, (uint64_t)20 << 20, huge_reader);
	if (strcmp(url, "/slow") == 0)
		return stream(c, MHD_SIZE_UNKNOWN, slow_reader);
	if (strcmp(url, "/stall") == 0)
		return stream(c, MHD_SIZE_UNKNOWN, stall_reader);
	if (strcmp(url, "/429s") == 0)
		return reply(c, 429, "slow down", 9, "Retry-After", "120", NULL, NULL);
	if (strcmp(url, "/429d") == 0)
		return reply(c, 429, "slow down", 9, "Retry-After", RETRY_DATE, NULL, NULL);
	if (strcmp(url, "/503") == 0)
		return reply(c, 503, "busy", 4, "Retry-After", " 30 ", NULL, NULL);
	if (strcmp(url, "/404") == 0)
		return text(c, 404, "no such page");
	if (strcmp(url, "/nostore") == 0)
		return reply(c, 200, "x", 1, "Cache-Control", "no-store, max-age=60", NULL, NULL);
	if (strcmp(url, "/host") == 0) {
		char host[256];

		pthread_mutex_lock(&mu);
		snprintf(host, sizeof(host), "%s", seen_host);
		pthread_mutex_unlock(&mu);
		return text(c, 200, host);
	}
	if (strcmp(url, "/sleep") == 0) {
		pthread_mutex_lock(&mu);
		sleeping++;
		if (sleeping > peak_sleeping)
			peak_sleeping = sleeping;
		pthread_mutex_unlock(&mu);
		usleep(300 * 1000);
		pthread_mutex_lock(&mu);
		sleeping--;
		pthread_mutex_unlock(&mu);
		return text(c, 200, "slept");
	}
	return text(c, 404, "unknown test path");
}

static void
on_connection(void *cls, struct MHD_Connection *c, void **socket_context,
              enum MHD_ConnectionNotificationCode code)
{
	(void)cls;
	(void)c;
	(void)socket_context;
	if (code == MHD_CONNECTION_NOTIFY_STARTED) {
		pthread_mutex_lock(&mu);
		connections++;
		pthread_mutex_unlock(&mu);
	}
}

static unsigned char *
compress_as(const void *src, size_t n, int window_bits, size_t *out_len)
{
	z_stream z;
	size_t cap = deflateBound(NULL, (uLong)n) + 64;
	unsigned char *out = malloc(cap);

	memset(&z, 0, sizeof(z));
	if (!out || deflateInit2(&z, 9, Z_DEFLATED, window_bits, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		exit(1);
	z.next_in = (Bytef *)src;
	z.avail_in = (uInt)n;
	z.next_out = out;
	z.avail_out = (uInt)cap;
	if (deflate(&z, Z_FINISH) != Z_STREAM_END)
		exit(1);
	*out_len = z.total_out;
	deflateEnd(&z);
	return out;
}

static void
server_start(void)
{
	struct sockaddr_in sa;
	const union MHD_DaemonInfo *info;
	char *zeros;

	plain_len = 100000;
	plain = malloc(plain_len + 1);
	for (size_t i = 0; i < plain_len; i++)
		plain[i] = "freshet fetches feeds\n"[i % 22];
	plain[plain_len] = '\0';
	gz = compress_as(plain, plain_len, 15 + 16, &gz_len);
	zl = compress_as(plain, plain_len, 15, &zl_len);
	zeros = calloc(1, BOMB_PLAIN);
	bomb = compress_as(zeros, BOMB_PLAIN, 15 + 16, &bomb_len);
	free(zeros);

	memset(&sa, 0, sizeof(sa));
	sa.sin_family = AF_INET;
	sa.sin_port = 0;
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	daemon_ = MHD_start_daemon(
	    MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION, 0, NULL, NULL, handler,
	    NULL, MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&sa, MHD_OPTION_NOTIFY_CONNECTION,
	    on_connection, NULL, MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)10, MHD_OPTION_END);
	if (!daemon_) {
		fprintf(stderr, "cannot start the test server\n");
		exit(1);
	}
	info = MHD_get_daemon_info(daemon_, MHD_DAEMON_INFO_BIND_PORT);
	port = info ? info->port : 0;
	if (!port) {
		fprintf(stderr, "test server has no port\n");
		exit(1);
	}
}

static void
server_stop(void)
{
	MHD_stop_daemon(daemon_);
	free(plain);
	free(gz);
	free(zl);
	free(bomb);
}

/* ---- helpers ------------------------------------------------------------- */

static const char *
url(const char *path)
{
	static char buf[4][256];
	static unsigned next;
	char *b = buf[next++ % 4];

	snprintf(b, sizeof(buf[0]), "http://127.0.0.1:%u%s", port, path);
	return b;
}

/* Options for tests: no proxy from the environment, short timeouts. */
static struct fr_fetch_opts
opts(void)
{
	struct fr_fetch_opts o;

	fr_fetch_opts_init(&o);
	o.proxy = "";
	o.timeout_s = 10;
	o.allow_private = 1; /* the test server is on loopback */
	return o;
}

static int
get(const char *path, const struct fr_fetch_opts *o, struct fr_response *r)
{
	struct fr_fetch_opts d = opts();

	return fr_http_get(url(path), o ? o : &d, r);
}

static void
seen(char *dst, size_t n, const char *src)
{
	pthread_mutex_lock(&mu);
	snprintf(dst, n, "%s", src);
	pthread_mutex_unlock(&mu);
}

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* ---- tests --------------------------------------------------------------- */

static void
test_plain_get_and_facts(void)
{
	struct fr_response r;
	double before = now_s(), d;

	CHECK(get("/text", NULL, &r) == 0);
	CHECK(r.outcome == FR_NET_OK);
	CHECK(r.status == 200);
	CHECK(r.len == 5 && r.body && strcmp(r.body, "hello") == 0);
	CHECK(r.err[0] == '\0');
	CHECK_STR(r.effective_url, url("/text"));
	CHECK(r.permanent_url == NULL);
	CHECK(r.redirects == 0);
	CHECK_STR(r.http_version, "1.1");
	CHECK(r.max_age_s == 300);
	CHECK(r.no_store == 0);
	CHECK(r.retry_after_at_s == -1);
	CHECK(r.expires_at_s == RETRY_DATE_S);
	CHECK(r.date_s > before - 5 && r.date_s < before + 5); /* MHD sends Date */
	CHECK(r.started_s >= before - 0.01 && r.started_s <= now_s());
	/* Within the call's own span (not a bound on the machine's speed). */
	CHECK(r.elapsed_s > 0 && r.elapsed_s <= now_s() - before + 0.01);
	CHECK(r.wire_bytes > 5);
	CHECK(r.first_byte_s >= 0);
	fr_response_clear(&r);
	CHECK(r.body == NULL && r.status == 0);

	CHECK(get("/nostore", NULL, &r) == 0);
	CHECK(r.no_store == 1 && r.max_age_s == 60);
	fr_response_clear(&r);

	CHECK(fr_http_date_parse("Sun, 06 Nov 1994 08:49:37 GMT", &d) == 0 && d == 784111777);
	CHECK(fr_http_date_parse("Sunday, 06-Nov-94 08:49:37 GMT", &d) == 0 && d == 784111777);
	CHECK(fr_http_date_parse("Sun Nov  6 08:49:37 1994", &d) == 0 && d == 784111777);
	CHECK(fr_http_date_parse("garbage", &d) == -1);
	CHECK(fr_http_retry_after("120", 1000) == 1120);
	CHECK(fr_http_retry_after(" 7 ", 1000) == 1007);
	CHECK(fr_http_retry_after("12abc", 1000) == -1);
	CHECK(fr_http_retry_after("", 1000) == -1);
	CHECK(fr_http_retry_after("99999999999999999999", 0) == 10.0 * 365 * 86400);
	CHECK(fr_http_retry_after(RETRY_DATE, 0) == RETRY_DATE_S);
	{
		double age;
		int ns;

		fr_http_cache_control("MAX-AGE=\"15\", private", &age, &ns);
		CHECK(age == 15 && ns == 0);
		fr_http_cache_control("s-maxage=5, max-age=x, no-cache", &age, &ns);
		CHECK(age == -1 && ns == 1);
		fr_http_cache_control("max-age=10, max-age=20", &age, NULL);
		CHECK(age == 10);
		fr_http_cache_control("", &age, &ns);
		CHECK(age == -1 && ns == 0);
	}
}

static void
test_compressed_bodies_decoded(void)
{
	struct fr_response r;
	struct fr_net_features ft;
	char ae[256];

	fr_net_features(&ft);
	fprintf(stderr, "libcurl %s (%s): http2 %d, brotli %d, zstd %d, gzip %d, https %d\n",
	        ft.curl_version, ft.ssl_version ? ft.ssl_version : "no TLS", ft.http2, ft.brotli,
	        ft.zstd, ft.gzip, ft.https);
	CHECK(ft.gzip == 1);
	CHECK(get("/gzip", NULL, &r) == 0);
	CHECK(r.outcome == FR_NET_OK);
	CHECK(r.len == plain_len && memcmp(r.body, plain, plain_len) == 0);
	CHECK(r.wire_bytes < plain_len / 10); /* the compressed size came over the wire */
	seen(ae, sizeof(ae), seen_ae);
	/* Every encoding this libcurl decodes is offered. */
	CHECK(strstr(ae, "gzip") && strstr(ae, "deflate"));
	CHECK((strstr(ae, "br") != NULL) == (ft.brotli != 0));
	CHECK((strstr(ae, "zstd") != NULL) == (ft.zstd != 0));
	fr_response_clear(&r);
	CHECK(get("/deflate", NULL, &r) == 0);
	CHECK(r.outcome == FR_NET_OK);
	CHECK(r.len == plain_len && memcmp(r.body, plain, plain_len) == 0);
	fr_response_clear(&r);
}

/* Keeps a copy of a borrowed response in arg (a struct fr_response *). */
static void
keep_cb(void *arg, const struct fr_response *res)
{
	struct fr_response *out = arg;

	fr_response_clear(out);
	*out = *res;
	out->body = res->body ? strdup(res->body) : NULL;
	out->content_type = res->content_type ? strdup(res->content_type) : NULL;
	out->etag = res->etag ? strdup(res->etag) : NULL;
	out->last_modified = res->last_modified ? strdup(res->last_modified) : NULL;
	out->effective_url = res->effective_url ? strdup(res->effective_url) : NULL;
	out->permanent_url = res->permanent_url ? strdup(res->permanent_url) : NULL;
	out->http_version = res->http_version ? strdup(res->http_version) : NULL;
}

static void
test_conditional_get(void)
{
	struct fr_fetcher *f;
	struct fr_fetch_opts o = opts();
	struct fr_response r;
	char inm[256], ims[256], err[256];

	/* First fetch: validators come back. */
	CHECK(get("/etag", NULL, &r) == 0);
	CHECK(r.outcome == FR_NET_OK);
	CHECK_STR(r.etag, "\"v1\"");
	CHECK_STR(r.last_modified, LAST_MODIFIED);
	seen(inm, sizeof(inm), seen_inm);
	CHECK(inm[0] == '\0');
	fr_response_clear(&r);

	/* With both validators: If-None-Match alone by default; a 304 carries the new ones. */
	CHECK(fr_fetcher_new(&f, &o, err, sizeof(err)) == 0);
	{
		struct fr_request q = {url("/etag"), "\"v1\"", LAST_MODIFIED, 42};
		struct fr_response got;

		memset(&got, 0, sizeof(got));
		CHECK(fr_fetcher_submit(f, &q, err, sizeof(err)) == 0);
		while (fr_fetcher_running(f) > 0)
			fr_fetcher_poll(f, 1000, keep_cb, &got);
		CHECK(got.tag == 42);
		CHECK(got.outcome == FR_NET_NOT_MODIFIED);
		CHECK(got.status == 304);
		CHECK(got.body == NULL);
		CHECK_STR(got.etag, "\"v1\"");
		CHECK_STR(got.last_modified, "Sun, 02 Jan 2022 00:00:00 GMT");
		fr_response_clear(&got);
	}
	fr_fetcher_free(f);
	seen(inm, sizeof(inm), seen_inm);
	seen(ims, sizeof(ims), seen_ims);
	CHECK_STR(inm, "\"v1\"");
	CHECK_STR(ims, "");

	/* send_both_validators: both go out. */
	o.send_both_validators = 1;
	CHECK(fr_fetcher_new(&f, &o, err, sizeof(err)) == 0);
	{
		struct fr_request q = {url("/etag"), "\"v1\"", LAST_MODIFIED, 1};

		CHECK(fr_fetcher_submit(f, &q, err, sizeof(err)) == 0);
		while (fr_fetcher_running(f) > 0)
			fr_fetcher_poll(f, 1000, NULL, NULL);
	}
	fr_fetcher_free(f);
	seen(inm, sizeof(inm), seen_inm);
	seen(ims, sizeof(ims), seen_ims);
	CHECK_STR(inm, "\"v1\"");
	CHECK_STR(ims, LAST_MODIFIED);

	/* Without an ETag: If-Modified-Since. A validator with CR LF is dropped. */
	o.send_both_validators = 0;
	CHECK(fr_fetcher_new(&f, &o, err, sizeof(err)) == 0);
	{
		struct fr_request q = {url("/lm"), NULL, LAST_MODIFIED, 2};
		struct fr_request bad = {url("/lm"), "\"x\"\r\nX-Evil: 1", NULL, 3};
		struct fr_response got;

		memset(&got, 0, sizeof(got));
		CHECK(fr_fetcher_submit(f, &q, err, sizeof(err)) == 0);
		while (fr_fetcher_running(f) > 0)
			fr_fetcher_poll(f, 1000, keep_cb, &got);
		CHECK(got.outcome == FR_NET_NOT_MODIFIED);
		fr_response_clear(&got);
		seen(inm, sizeof(inm), seen_inm);
		seen(ims, sizeof(ims), seen_ims);
		CHECK_STR(inm, "");
		CHECK_STR(ims, LAST_MODIFIED);
		CHECK(fr_fetcher_submit(f, &bad, err, sizeof(err)) == 0);
		while (fr_fetcher_running(f) > 0)
			fr_fetcher_poll(f, 1000, keep_cb, &got);
		CHECK(got.outcome == FR_NET_OK);
		fr_response_clear(&got);
		seen(inm, sizeof(inm), seen_inm);
		CHECK_STR(inm, "");
	}
	fr_fetcher_free(f);
}

static void
test_redirects(void)
{
	struct fr_response r;
	struct fr_fetch_opts o = opts();

	/* 301 -> 308 -> 200: permanent. */
	CHECK(get("/r301", NULL, &r) == 0);
	CHECK(r.outcome == FR_NET_OK && r.status == 200);
	CHECK(r.redirects == 2);
	CHECK_STR(r.body, "final");
	CHECK_STR(r.effective_url, url("/final"));
	CHECK_STR(r.permanent_url, url("/final"));
	CHECK_STR(r.etag, "\"f\""); /* the final response's headers */
	fr_response_clear(&r);
	/* 301 -> 302 -> 200: a temporary hop, no permanent address. */
	CHECK(get("/r301b", NULL, &r) == 0);
	CHECK(r.outcome == FR_NET_OK && r.redirects == 2);
	CHECK_STR(r.effective_url, url("/final"));
	CHECK(r.permanent_url == NULL);
	fr_response_clear(&r);
	/* A loop: FR_NET_REDIRECTS, named. */
	CHECK(get("/loop", NULL, &r) == 0);
	CHECK(r.outcome == FR_NET_REDIRECTS);
	CHECK(r.permanent_url == NULL && r.body == NULL);
	CHECK(strstr(r.err, url("/loop")) == r.err);
	fr_response_clear(&r);
	/* The limit is max_redirects: 2 hops are too many for 1. */
	o.max_redirects = 1;
	CHECK(get("/r301", &o, &r) == 0);
	CHECK(r.outcome == FR_NET_REDIRECTS);
	fr_response_clear(&r);
	/* Not following: the 301 itself. */
	o.max_redirects = -1;
	CHECK(get("/r301", &o, &r) == 0);
	CHECK(r.outcome == FR_NET_HTTP_ERROR && r.status == 301 && r.permanent_url == NULL);
	fr_response_clear(&r);
	/* A redirect to file:// is refused. */
	CHECK(get("/tofile", NULL, &r) == 0);
	CHECK(r.outcome == FR_NET_OTHER && r.body == NULL);
	fr_response_clear(&r);
	/* A 3xx without Location cannot be followed. */
	CHECK(get("/nolocation", NULL, &r) == 0);
	CHECK(r.outcome == FR_NET_HTTP_ERROR && r.status == 302);
	CHECK(strstr(r.err, "redirect not followed") != NULL);
	fr_response_clear(&r);
}

static long
max_rss_kb(void)
{
	struct rusage u;

	getrusage(RUSAGE_SELF, &u);
	return u.ru_maxrss;
}

static void
test_max_body(void)
{
	struct fr_fetch_opts o = opts();
	struct fr_response r;
	uint64_t sent;
	long rss0 = max_rss_kb();

	o.max_body = 1 << 20;
	pthread_mutex_lock(&mu);
	huge_sent = 0;
	pthread_mutex_unlock(&mu);
	/* An endless chunked body: stopped while streaming. */
	CHECK(get("/huge", &o, &r) == 0);
	CHECK(r.outcome == FR_NET_TOO_LARGE);
	CHECK(r.body == NULL && r.len == 0 && r.status == 200);
	CHECK(strstr(r.err, "larger than 1048576 bytes") != NULL);
	fr_response_clear(&r);
	usleep(100 * 1000);
	pthread_mutex_lock(&mu);
	sent = huge_sent;
	pthread_mutex_unlock(&mu);
	/* The server was stopped long before its 256 MiB (socket buffers hold a few MiB). */
	CHECK(sent < ((uint64_t)64 << 20));
	CHECK(max_rss_kb() - rss0 < 64 * 1024);
	/* A Content-Length over the cap fails before the body. */
	CHECK(get("/bigcl", &o, &r) == 0);
	CHECK(r.outcome == FR_NET_TOO_LARGE);
	fr_response_clear(&r);
	/* A small gzip body that decodes past the cap. */
	CHECK(get("/bomb", &o, &r) == 0);
	CHECK(r.outcome == FR_NET_TOO_LARGE);
	fr_response_clear(&r);
	/* truncate_body: the first max_body bytes, outcome OK. */
	o.max_body = 1000;
	o.truncate_body = 1;
	CHECK(get("/huge", &o, &r) == 0);
	CHECK(r.outcome == FR_NET_OK && r.truncated == 1);
	CHECK(r.len == 1000 && r.body && strlen(r.body) == 1000 && r.body[999] == 'x');
	fr_response_clear(&r);
	/* At exactly the cap nothing is cut. */
	o.max_body = 5;
	o.truncate_body = 0;
	CHECK(get("/text", &o, &r) == 0);
	CHECK(r.outcome == FR_NET_OK && r.len == 5 && r.truncated == 0);
	fr_response_clear(&r);
	o.max_body = 4;
	CHECK(get("/text", &o, &r) == 0);
	CHECK(r.outcome == FR_NET_TOO_LARGE);
	fr_response_clear(&r);
}

static void
test_timeouts(void)
{
	struct fr_fetch_opts o = opts();
	struct fr_response r;

	/* Total timeout: a steady trickle that takes 10 s, cut at 1 s. Checked
	 * on states, not on how soon it ended (a loaded machine is late): the
	 * outcome, not before the timeout, and the server never reached the
	 * body's end (the transfer was cut, not read to the end). */
	o.timeout_s = 1;
	CHECK(get("/slow", &o, &r) == 0);
	CHECK(r.outcome == FR_NET_TIMEOUT);
	CHECK(r.elapsed_s >= 0.9);
	pthread_mutex_lock(&mu);
	CHECK(slow_ended == 0);
	pthread_mutex_unlock(&mu);
	CHECK(r.wire_bytes < 10000);
	CHECK(strstr(r.err, url("/slow")) == r.err);
	CHECK(strstr(r.err, "timed out") != NULL);
	CHECK(r.body == NULL);
	fr_response_clear(&r);
	/* Low-speed limit: 2 B/s against 10 B/s over 1 s; the total timeout is far. */
	o.timeout_s = 20;
	o.low_speed_time_s = 1;
	o.low_speed_bytes = 10;
	CHECK(get("/stall", &o, &r) == 0);
	CHECK(r.outcome == FR_NET_TIMEOUT);
	CHECK(r.elapsed_s >= 0.9);
	pthread_mutex_lock(&mu);
	CHECK(stall_ended == 0);
	pthread_mutex_unlock(&mu);
	CHECK(strstr(r.err, "too slow") != NULL);
	fr_response_clear(&r);
}

static void
test_retry_after(void)
{
	struct fr_response r;
	double before = now_s();

	CHECK(get("/429s", NULL, &r) == 0);
	CHECK(r.outcome == FR_NET_HTTP_ERROR && r.status == 429);
	CHECK(r.body == NULL);
	CHECK(r.retry_after_at_s >= before + 120 && r.retry_after_at_s <= now_s() + 120);
	CHECK(strstr(r.err, "HTTP 429") != NULL);
	fr_response_clear(&r);
	CHECK(get("/429d", NULL, &r) == 0);
	CHECK(r.status == 429 && r.retry_after_at_s == RETRY_DATE_S);
	fr_response_clear(&r);
	before = now_s();
	CHECK(get("/503", NULL, &r) == 0);
	CHECK(r.outcome == FR_NET_HTTP_ERROR && r.status == 503);
	CHECK(r.retry_after_at_s >= before + 30 && r.retry_after_at_s <= now_s() + 30);
	fr_response_clear(&r);
	CHECK(get("/404", NULL, &r) == 0);
	CHECK(r.outcome == FR_NET_HTTP_ERROR && r.status == 404 && r.retry_after_at_s == -1);
	CHECK_STR(r.content_type, "text/plain");
	fr_response_clear(&r);
}

static void
test_connect_to_and_user_agent(void)
{
	struct fr_fetch_opts o = opts();
	struct fr_response r;
	char map[64], u[128], ua[512];
	const char *list[1] = {map};

	snprintf(map, sizeof(map), "::127.0.0.1:%u", port);
	o.connect_to = list;
	o.n_connect_to = 1;
	snprintf(u, sizeof(u), "http://h1.freshet.test:%u/host", port);
	CHECK(fr_http_get(u, &o, &r) == 0);
	CHECK(r.outcome == FR_NET_OK);
	{
		char want[64];

		snprintf(want, sizeof(want), "h1.freshet.test:%u", port);
		CHECK_STR(r.body, want);
	}
	CHECK_STR(r.effective_url, u);
	fr_response_clear(&r);
	/* The default User-Agent names freshet and the default contact. */
	seen(ua, sizeof(ua), seen_ua);
	CHECK_STR(ua, "freshet/" FR_FETCH_VERSION " (+" FR_FETCH_CONTACT_DEFAULT ")");
	/* A configured contact URL. */
	o = opts();
	o.contact_url = "https://example.org/about-our-crawler";
	CHECK(get("/text", &o, &r) == 0);
	fr_response_clear(&r);
	seen(ua, sizeof(ua), seen_ua);
	CHECK_STR(ua, "freshet/" FR_FETCH_VERSION " (+https://example.org/about-our-crawler)");
	/* A whole User-Agent of the caller's. */
	o.user_agent = "freshet-test/9 (+mailto:ops@example.org)";
	CHECK(get("/text", &o, &r) == 0);
	fr_response_clear(&r);
	seen(ua, sizeof(ua), seen_ua);
	CHECK_STR(ua, "freshet-test/9 (+mailto:ops@example.org)");
}

/* The address policy (allow_private = 0): checked on the address really
 * connected to, for the first request and for redirects libcurl follows;
 * a host a connect-to entry names is the user's choice. */
static void
test_address_policy(void)
{
	struct fr_fetch_opts o = opts();
	struct fr_response r;
	char map[64], u[128];
	const char *list[1] = {map};

	o.allow_private = 0;
	/* Straight to loopback: refused, named, nothing sent. */
	CHECK(get("/final", &o, &r) == 0);
	CHECK(r.outcome == FR_NET_BLOCKED && r.body == NULL && r.status == 0);
	CHECK(strstr(r.err, "127.0.0.1") && strstr(r.err, "loopback"));
	CHECK_STR(fr_net_outcome_name(r.outcome), "blocked");
	fr_response_clear(&r);
	/* A host named by connect-to reaches loopback, redirects on it too. */
	snprintf(map, sizeof(map), "pub.freshet.test:80:127.0.0.1:%u", port);
	o.connect_to = list;
	o.n_connect_to = 1;
	CHECK(fr_http_get("http://pub.freshet.test/r301", &o, &r) == 0);
	CHECK(r.outcome == FR_NET_OK && r.redirects == 2);
	CHECK_STR(r.body, "final");
	fr_response_clear(&r);
	/* Its redirect to an address no entry names is refused. */
	CHECK(fr_http_get("http://pub.freshet.test/tolocal", &o, &r) == 0);
	CHECK(r.outcome == FR_NET_BLOCKED && r.body == NULL);
	CHECK(strstr(r.err, url("/final")) == r.err);
	fr_response_clear(&r);
	/* Another port of the named host is not named. */
	snprintf(u, sizeof(u), "http://pub.freshet.test:%u/final", port);
	CHECK(fr_http_get(u, &o, &r) == 0);
	CHECK(r.outcome == FR_NET_BLOCKED || r.outcome == FR_NET_DNS);
	fr_response_clear(&r);
	/* allow_private lifts it. */
	o.allow_private = 1;
	CHECK(fr_http_get("http://pub.freshet.test/tolocal", &o, &r) == 0);
	CHECK(r.outcome == FR_NET_OK);
	fr_response_clear(&r);
	/* The fetcher counts the refusal as a finished transfer. */
	o = opts();
	o.allow_private = 0;
	o.max_redirects = -1;
	CHECK(get("/r301", &o, &r) == 0);
	CHECK(r.outcome == FR_NET_BLOCKED);
	fr_response_clear(&r);
}

struct tally {
	int done, ok;
	uint64_t seen_tags;
	double max_wait_s; /* longest sent_s - started_s: time queued and connecting */
	int sent_ok;       /* responses whose sent_s lies in [started_s, now] */
};

static void
count_done(void *arg, const struct fr_response *res)
{
	struct tally *t = arg;

	t->done++;
	if (res->outcome == FR_NET_OK && res->body && strcmp(res->body, "slept") == 0)
		t->ok++;
	if (res->tag < 64)
		t->seen_tags |= (uint64_t)1 << res->tag;
	if (res->sent_s - res->started_s > t->max_wait_s)
		t->max_wait_s = res->sent_s - res->started_s;
	t->sent_ok += res->sent_s >= res->started_s && res->sent_s <= now_s() + 0.001;
}

/* Submits n /sleep requests (host i % hosts + 1) and polls until all are done. */
static double
run_sleepers(const struct fr_fetch_opts *o, int n, int hosts, struct tally *t)
{
	struct fr_fetcher *f;
	char err[256], u[64][128];
	double t0 = now_s();

	memset(t, 0, sizeof(*t));
	pthread_mutex_lock(&mu);
	peak_sleeping = 0;
	pthread_mutex_unlock(&mu);
	CHECK(fr_fetcher_new(&f, o, err, sizeof(err)) == 0);
	for (int i = 0; i < n; i++) {
		struct fr_request q = {u[i], NULL, NULL, (uint64_t)i};

		snprintf(u[i], sizeof(u[i]), "http://h%d.freshet.test:%u/sleep", i % hosts + 1,
		         port);
		CHECK(fr_fetcher_submit(f, &q, err, sizeof(err)) == 0);
	}
	CHECK(fr_fetcher_running(f) == (size_t)n);
	while (fr_fetcher_running(f) > 0) {
		int left = fr_fetcher_poll(f, 2000, count_done, t);

		CHECK(left >= 0);
		if (left < 0 || now_s() - t0 > 20)
			break;
	}
	fr_fetcher_free(f);
	return now_s() - t0;
}

static void
test_concurrency(void)
{
	struct fr_fetch_opts o = opts();
	struct tally t;
	char map[64];
	const char *list[1] = {map};
	double took;
	int peak;

	snprintf(map, sizeof(map), "::127.0.0.1:%u", port);
	o.connect_to = list;
	o.n_connect_to = 1;
	/* 64 transfers to 64 hosts in one poll loop: all run at once. */
	took = run_sleepers(&o, 64, 64, &t);
	pthread_mutex_lock(&mu);
	peak = peak_sleeping;
	pthread_mutex_unlock(&mu);
	fprintf(stderr, "64 transfers of 300 ms each: %.2f s, peak %d at once on the server\n",
	        took, peak);
	CHECK(t.done == 64 && t.ok == 64);
	CHECK(t.seen_tags == UINT64_MAX);
	/* That they ran at once is the server's peak (a state), not the time
	 * they took (a loaded machine is slow to start 64 transfers). */
	CHECK(peak >= 32);
	/* max_total 4: the rest wait in the fetcher's queue. */
	o.max_total = 4;
	took = run_sleepers(&o, 12, 12, &t);
	pthread_mutex_lock(&mu);
	peak = peak_sleeping;
	pthread_mutex_unlock(&mu);
	CHECK(t.done == 12 && t.ok == 12);
	CHECK(peak <= 4 && peak >= 2);
	CHECK(took >= 0.85);
	/* the last four waited two sleeps in the queue: their requests went
	 * out then (what a host's gap counts from), not when submitted */
	CHECK(t.sent_ok == 12);
	CHECK(t.max_wait_s >= 0.5);
	/* max_per_host 2: eight transfers to one host go two at a time. */
	o.max_total = 0;
	o.max_per_host = 2;
	took = run_sleepers(&o, 8, 1, &t);
	pthread_mutex_lock(&mu);
	peak = peak_sleeping;
	pthread_mutex_unlock(&mu);
	CHECK(t.done == 8 && t.ok == 8);
	CHECK(peak <= 2);
	CHECK(took >= 1.15);
}

static void
test_connection_reuse(void)
{
	struct fr_fetcher *f;
	struct fr_fetch_opts o = opts();
	char err[256];
	int before, after;
	struct tally t;

	memset(&t, 0, sizeof(t));
	pthread_mutex_lock(&mu);
	before = connections;
	pthread_mutex_unlock(&mu);
	CHECK(fr_fetcher_new(&f, &o, err, sizeof(err)) == 0);
	for (int i = 0; i < 5; i++) {
		struct fr_request q = {url("/text"), NULL, NULL, (uint64_t)i};
		struct fr_response got;

		memset(&got, 0, sizeof(got));
		CHECK(fr_fetcher_submit(f, &q, err, sizeof(err)) == 0);
		while (fr_fetcher_running(f) > 0)
			fr_fetcher_poll(f, 1000, keep_cb, &got);
		t.ok += got.outcome == FR_NET_OK && got.tag == (uint64_t)i;
		CHECK(got.connect_s >= 0 && (i == 0 || got.connect_s == 0)); /* 0: reused */
		fr_response_clear(&got);
	}
	fr_fetcher_free(f);
	pthread_mutex_lock(&mu);
	after = connections;
	pthread_mutex_unlock(&mu);
	CHECK(t.ok == 5);
	CHECK(after - before == 1); /* one connection for five sequential requests */
}

static void
test_failures_without_server(void)
{
	struct fr_fetch_opts o = opts();
	struct fr_response r;
	struct fr_fetcher *f;
	struct sockaddr_in sa;
	socklen_t sl = sizeof(sa);
	char u[128], err[256];
	int s;

	/* A port nobody listens on: connection refused. */
	s = socket(AF_INET, SOCK_STREAM, 0);
	memset(&sa, 0, sizeof(sa));
	sa.sin_family = AF_INET;
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	CHECK(bind(s, (struct sockaddr *)&sa, sizeof(sa)) == 0);
	CHECK(getsockname(s, (struct sockaddr *)&sa, &sl) == 0);
	close(s);
	snprintf(u, sizeof(u), "http://127.0.0.1:%u/x", ntohs(sa.sin_port));
	CHECK(fr_http_get(u, &o, &r) == 0);
	CHECK(r.outcome == FR_NET_CONNECT);
	CHECK(r.status == 0 && r.body == NULL);
	CHECK(strstr(r.err, u) == r.err);
	fr_response_clear(&r);
	/* Not http(s): an outcome, not a submit error. */
	CHECK(fr_http_get("file:///etc/passwd", &o, &r) == 0);
	CHECK(r.outcome == FR_NET_OTHER && r.body == NULL);
	CHECK(strstr(r.err, "file:///etc/passwd") == r.err);
	fr_response_clear(&r);
	CHECK(fr_http_get("http://", &o, &r) == 0);
	CHECK(r.outcome == FR_NET_OTHER);
	fr_response_clear(&r);
	/* No URL: submit fails, nothing runs; free with a queued transfer is clean. */
	CHECK(fr_fetcher_new(&f, &o, err, sizeof(err)) == 0);
	{
		struct fr_request none = {NULL, NULL, NULL, 0};
		struct fr_request q = {url("/sleep"), NULL, NULL, 0};

		CHECK(fr_fetcher_submit(f, &none, err, sizeof(err)) == -1 && err[0]);
		CHECK(fr_fetcher_running(f) == 0);
		CHECK(fr_fetcher_poll(f, 10, NULL, NULL) == 0);
		CHECK(fr_fetcher_submit(f, &q, err, sizeof(err)) == 0);
		CHECK(fr_fetcher_poll(f, 10, NULL, NULL) == 1);
	}
	fr_fetcher_free(f); /* aborts the running transfer */
	CHECK(strcmp(fr_net_outcome_name(FR_NET_NOT_MODIFIED), "not-modified") == 0);
	CHECK(strcmp(fr_net_outcome_name(FR_NET_TOO_LARGE), "too-large") == 0);
}

int
main(void)
{
	server_start();
	RUN(test_plain_get_and_facts);
	RUN(test_compressed_bodies_decoded);
	RUN(test_conditional_get);
	RUN(test_redirects);
	RUN(test_max_body);
	RUN(test_timeouts);
	RUN(test_retry_after);
	RUN(test_connect_to_and_user_agent);
	RUN(test_address_policy);
	RUN(test_concurrency);
	RUN(test_connection_reuse);
	RUN(test_failures_without_server);
	server_stop();
	return TEST_DONE();
}
