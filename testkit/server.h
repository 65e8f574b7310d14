/* server.h - the HTTP layer of `freshet serve`: libmicrohttpd on 127.0.0.1,
 * virtual hosts h<k>.<domain> told apart by the Host header, robots.txt, a
 * request log, per-host rate limits and misbehaving hosts; or, in any-host
 * mode, every Host name passed as it is to the handler. What is served
 * (feeds, a web of sites, forums later) comes from a handler behind a small
 * interface. */
#ifndef FR_TESTKIT_SERVER_H
#define FR_TESTKIT_SERVER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct fr_serve_clock;

/* Traits of virtual host k, from fr_serve_host_flags. With misbehaviour on,
 * r = k % 40 picks at most one: 3 slow, 5 fail500, 11 fail503, 13 ill-formed,
 * 15 redirect, 17 huge. Always (politeness, not misbehaviour): 7 and 18 are
 * "API" hosts with a strict rate limit, 9 has a robots.txt Crawl-delay, and
 * Retry-After is an HTTP date on hosts with k % 4 == 3 (delta-seconds
 * elsewhere). Hosts 0-2 are always plain. NOTE: keep docs/serve.md in sync. */
#define FR_SERVE_HOST_SLOW 0x001u        /* every answer waits slow_s (wall) */
#define FR_SERVE_HOST_FAIL500 0x002u     /* each path's first FAIL500_FIRST requests get 500 */
#define FR_SERVE_HOST_FAIL503 0x004u     /* 503 + Retry-After to requests FAIL503_FROM.. */
#define FR_SERVE_HOST_ILLFORMED 0x008u   /* the handler serves ill-formed XML */
#define FR_SERVE_HOST_REDIRECT 0x010u    /* 301 from every path P to /moved/P */
#define FR_SERVE_HOST_HUGE 0x020u        /* serves /huge/<k>.rss, huge_bytes long */
#define FR_SERVE_HOST_API 0x040u         /* strict rate limit (api_limit_*) */
#define FR_SERVE_HOST_CRAWL_DELAY 0x080u /* robots.txt says Crawl-delay */
#define FR_SERVE_HOST_RETRY_DATE 0x100u  /* Retry-After is an HTTP date */

/* A failing host answers 500 to the first FR_SERVE_FAIL500_FIRST requests
 * of each of its paths (robots.txt aside), then normally: counted per path,
 * not timed, so a crawler meets the outage however slowly it gets there. The
 * first FR_SERVE_FAIL500_PATHS distinct paths of a host are counted; later
 * ones answer normally at once. */
#define FR_SERVE_FAIL500_FIRST 2
#define FR_SERVE_FAIL500_PATHS 256
/* A 503 host answers its requests FROM .. UNTIL - 1 (counted from 0 as it
 * takes them, robots.txt aside, after any 429 of its rate limit) with 503
 * and Retry-After: RETRY_S seconds (an HTTP date on RETRY_DATE hosts):
 * counted, not timed, like the 500s. */
#define FR_SERVE_FAIL503_FROM 3
#define FR_SERVE_FAIL503_UNTIL 6
#define FR_SERVE_FAIL503_RETRY_S 2
/* The Crawl-delay robots.txt gives, in seconds. */
#define FR_SERVE_CRAWL_DELAY_S 2

/* FR_SERVE_HOST_* bits of host k; misbehave 0 keeps only the politeness bits
 * (API, CRAWL_DELAY, RETRY_DATE). */
unsigned fr_serve_host_flags(uint32_t k, int misbehave);

/* "h<k>.<domain>" into buf (len bytes, NUL-terminated). Returns buf. */
char *fr_serve_host_name(uint32_t k, const char *domain, char *buf, size_t len);

/* Path of host k's huge feed ("/huge/<k>.rss") into buf. Returns buf. */
char *fr_serve_huge_path(uint32_t k, char *buf, size_t len);

/* A request as a handler sees it. Pointers are borrowed for the call. */
struct fr_serve_req {
	uint32_t host;         /* virtual host index, below n_hosts; 0 in any-host mode */
	unsigned host_flags;   /* FR_SERVE_HOST_* of that host; 0 in any-host mode */
	const char *path;      /* decoded path, no query; "/moved" already taken off on
	                          redirect hosts */
	double wall_s;         /* arrival, wall time */
	const char *host_name; /* the Host header in lower case, without port or a
	                          final dot; "" when absent */
	const char *query;     /* the query string as sent (not decoded), without
	                          '?' or fragment; "" when none */
	/* A request header by name (case-insensitive), or NULL when absent:
	 * call fr_serve_req_header. header_cls is the server's; a test may set
	 * its own function (header NULL: no headers). */
	const char *(*header)(void *header_cls, const char *name);
	void *header_cls;
	/* "GET", "HEAD", or (config max_post) "POST" with its body (body_len
	 * bytes, NUL after; "" without); NULL method: GET. */
	const char *method;
	const char *body;
	size_t body_len;
};

/* The request header name of req (case-insensitive; the first when
 * repeated), or NULL. Borrowed for the call. */
const char *fr_serve_req_header(const struct fr_serve_req *req, const char *name);

#define FR_SERVE_EXTRA_HEADERS_CAP 2048 /* bytes of fr_serve_resp.headers */
#define FR_SERVE_LOG_NOTE_CAP 512       /* bytes of log_path and log_extra */

/* A handler's answer. The caller zeroes it and sets last_modified_s to -1
 * before the call. body (len bytes) stays valid until the server calls
 * release(release_cls) once (release NULL: body is static). The server turns
 * a 200 into a 304 when the request's If-None-Match matches etag, or, when it
 * sent no If-None-Match, when its If-Modified-Since >= last_modified_s. */
struct fr_serve_resp {
	int status;               /* HTTP status */
	const char *content_type; /* static string, or NULL */
	const char *body;
	size_t len;
	void (*release)(void *cls);
	void *release_cls;
	char etag[80];           /* with its quotes (strong), or "" for none */
	int64_t last_modified_s; /* Unix seconds, or -1 for none */
	char location[512];      /* Location header (for a 3xx), or "" for none */
	/* More headers, "Name: value" lines each ended by '\n' ("" for none);
	 * a line without ": " is skipped. */
	char headers[FR_SERVE_EXTRA_HEADERS_CAP];
	/* The log's path column when not "" (a handler that hides secrets of
	 * the query); else the path as the server logs it. */
	char log_path[FR_SERVE_LOG_NOTE_CAP];
	/* With config log_extra set: the values of its columns, tab-separated
	 * ("" writes "-" in each). */
	char log_extra[FR_SERVE_LOG_NOTE_CAP];
};

/* What is served. handle is called from many threads at once; it returns 0
 * with resp filled (any status), or -1 on out-of-memory (the server answers
 * 500; resp must then hold nothing to release). */
struct fr_serve_handler {
	int (*handle)(void *ctx, const struct fr_serve_req *req, struct fr_serve_resp *resp);
	void *ctx;
};

struct fr_serve_config {
	uint16_t port;                      /* 0: an ephemeral port */
	/* Any-host mode (1): every request goes to the handler with its Host
	 * name (req->host_name) and query; robots.txt, rate limits and
	 * misbehaviour are the handler's business, and n_hosts, domain,
	 * misbehave, the limits, slow_s, huge_bytes and clock are unused (clock
	 * may be NULL). The log, 304s, HEAD and the counts work as in host mode,
	 * and the log's path column carries "?query" when there is one. */
	int any_host;
	uint32_t n_hosts;                   /* virtual hosts h0..h<n-1> (>= 1) */
	const char *domain;                 /* "freshet.test"; borrowed */
	int misbehave;                      /* 1: the misbehaving hosts misbehave */
	unsigned limit_n;                   /* every host: at most limit_n requests per */
	double limit_window_s;              /*   limit_window_s wall seconds; 0: no limit */
	unsigned api_limit_n;               /* API hosts: 2 */
	double api_limit_window_s;          /*   per 5 s; 0: no limit */
	double slow_s;                      /* delay of slow hosts: 2 */
	uint64_t huge_bytes;                /* length of the huge feeds: 64 MiB */
	unsigned max_conns;                 /* concurrent connections: 1024 */
	FILE *log;                          /* request log, borrowed (NULL: none) */
	int no_log_header;                  /* 1: do not write the log's header line (a
	                                     * second server sharing one log) */
	/* NULL, or the names of more log columns after user_agent,
	 * tab-separated ("token\tlimited"), whose values the handler gives in
	 * resp->log_extra. Borrowed. */
	const char *log_extra;
	/* HTTPS: PEM texts of the certificate (chain) and its private key; both
	 * NULL for plain HTTP. Borrowed: they must outlive the server. */
	const char *tls_cert, *tls_key;
	const struct fr_serve_clock *clock; /* borrowed; outlives the server */
	struct fr_serve_handler handler;
	/* NULL, or a file holding a time (Unix seconds, text) that a client
	 * moves (`freshet run` on the same FRESHET_CLOCK_FILE,
	 * tests/e2e/parity.sh): each request's wall time is read from it
	 * instead of the system clock (then give clock speed 1 and wall0_s =
	 * start_s, so that the serve clock shows that time). Borrowed. */
	const char *clock_file;
	/* > 0: POST requests go to the handler too, with bodies up to this
	 * many bytes (beyond: 413); 0: 405 (a WebSub hub, testkit/hub.h). */
	size_t max_post;
};

/* The time (Unix seconds) written in the file at path (a clock_file), or
 * the wall clock when it cannot be read or holds no number. */
double fr_serve_file_time(const char *path);

/* Sets the defaults given above; port 0, n_hosts 1, no log, no clock, no
 * handler. */
void fr_serve_config_defaults(struct fr_serve_config *c);

/* Counts of answered requests, by status. */
struct fr_serve_stats {
	uint64_t requests, ok, not_modified, redirect, not_found, too_many, fail500, fail503, other;
};

struct fr_serve;

/* Binds 127.0.0.1:port and serves from threads of its own (one per
 * connection, so a slow answer holds up no one else) until fr_serve_stop.
 * When cfg->log is set, writes the log's header line first. cfg is copied;
 * what it points to is borrowed and must outlive the server. Returns the
 * server, or NULL with err set (port in use, bad config, out of memory). */
struct fr_serve *fr_serve_start(const struct fr_serve_config *cfg, char *err, size_t errlen);

/* The port it listens on (the real one when 0 was asked). */
uint16_t fr_serve_port(const struct fr_serve *s);

/* Counts so far (read while serving, so not a consistent snapshot). */
void fr_serve_get_stats(const struct fr_serve *s, struct fr_serve_stats *st);

/* Stops listening, waits for the connections' threads (a slow answer being
 * made is finished), flushes the log and frees s. NULL is ignored. */
void fr_serve_stop(struct fr_serve *s);

#endif
