/* fetch.h - the HTTP fetcher: many concurrent GETs in one thread over libcurl's
 * multi interface, with conditional requests, capped bodies, per-transfer
 * timeouts, and the per-response facts the crawl loop schedules by. Mechanism
 * only: politeness, backoff and robots.txt are the caller's (docs/net.md). */
#ifndef FR_NET_FETCH_H
#define FR_NET_FETCH_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

/* The contact URL named in the default User-Agent when none is configured.
 * A placeholder in the reserved .invalid domain: a live crawl should set
 * contact_url to a page that tells site owners who runs it. */
#define FR_FETCH_CONTACT_DEFAULT "https://freshet.invalid/"
#define FR_FETCH_VERSION "0.1"

struct fr_fetcher;

/* Fetcher options. Zero means the default for every field but http2 (start
 * from fr_fetch_opts_init, or pass NULL for all defaults). Pointers are
 * borrowed during fr_fetcher_new / fr_http_get only (what is needed is copied). */
struct fr_fetch_opts {
	const char *user_agent;  /* NULL: "freshet/0.1 (+CONTACT)" */
	const char *contact_url; /* NULL: FR_FETCH_CONTACT_DEFAULT */
	const char *const *connect_to;
	size_t n_connect_to; /* CURLOPT_CONNECT_TO entries, e.g. "::127.0.0.1:8080" */
	double connect_timeout_s, timeout_s, low_speed_time_s; /* 0: 10 s, 30 s, 15 s */
	long low_speed_bytes;                                  /* 0: 10 B/s */
	size_t max_body;   /* decoded bytes; 0: 16 MiB; enforced while streaming */
	int max_redirects; /* 0: 5; negative: follow none */
	int max_per_host;  /* transfers at once per host:port of the requested URL, 0: 2;
	                    * counted by the fetcher (libcurl's own limit would count
	                    * per connect-to target); more wait in its queue */
	int max_total;     /* concurrent transfers, 0: 64; more wait in the queue, oldest first */
	/* 1 (fr_fetch_opts_init's default): allow HTTP/2 (negotiated over TLS); 0: HTTP/1.1. */
	int http2;
	/* Added beyond the first contract: */
	int truncate_body; /* 1: a body over max_body is cut there and the outcome is OK
	                    * with truncated = 1 (robots.txt); 0: FR_NET_TOO_LARGE */
	/* 1: send If-Modified-Since beside If-None-Match; 0: the ETag alone when
	 * there is one (a server must then ignore If-Modified-Since anyway). */
	int send_both_validators;
	const char *proxy;  /* NULL: libcurl's default (the *_proxy environment); "": none */
	const char *accept; /* Accept header; NULL: a feed-friendly default */
	int max_idle; /* connections kept open for reuse; 0: max(1024, 16 x max_total)
	               * (a feed crawl comes back to its hosts; discovery seldom does) */
	const char *cainfo; /* PEM file of the CA certificates to trust instead of the
	                     * system's (a private CA, a test server); NULL: the system's */
	/* 0 (the default): refuse to connect to loopback, private, link-local,
	 * unique-local, multicast, unspecified and reserved addresses
	 * (net/addrpolicy.h), judged on each address a host name resolves to,
	 * at the first request and at every redirect; the transfer ends as
	 * FR_NET_BLOCKED. Requests to a host:port that a connect_to entry
	 * names are the user's choice and not judged. Through a proxy (this
	 * option or the *_proxy environment) nothing is judged here: the proxy
	 * connects, and its own policy applies. 1: connect anywhere. */
	int allow_private;
	/* NULL: none. Else one line per finished transfer, written when it
	 * ends: TSV of the time the request went out (Unix seconds, as
	 * fr_response.sent_s), the seconds to the end, the HTTP status (0: none),
	 * the outcome's name ("aborted": cut off in flight when the fetcher was
	 * freed), the redirects followed, the requested URL and the effective
	 * URL (control characters written as '?'). The politeness a host saw,
	 * as the crawler sent it. */
	FILE *request_log;
};

/* Fills o with the defaults (all zero but http2 = 1). */
void fr_fetch_opts_init(struct fr_fetch_opts *o);

/* What became of a transfer. A crawl outcome, not a program error. */
enum fr_net_outcome {
	FR_NET_OK,           /* 2xx with its body */
	FR_NET_NOT_MODIFIED, /* 304 to a conditional request */
	FR_NET_HTTP_ERROR,   /* status >= 400 (status says which), or a 3xx that was not followed */
	FR_NET_TIMEOUT,      /* total timeout or low-speed limit (err says which) */
	FR_NET_DNS,          /* the host name did not resolve */
	FR_NET_CONNECT,      /* no connection (refused, unreachable, connect timeout) */
	FR_NET_TOO_LARGE,    /* body over max_body (Content-Length or while streaming) */
	FR_NET_TLS,          /* handshake or certificate failure */
	FR_NET_REDIRECTS,    /* more than max_redirects redirects (a loop) */
	FR_NET_BLOCKED,      /* the address is one allow_private = 0 refuses (err says which) */
	FR_NET_OTHER         /* anything else: bad URL, unsupported scheme, protocol error */
};

/* Short name of an outcome ("ok", "not-modified", "http-error", "timeout",
 * "dns", "connect", "too-large", "tls", "redirects", "blocked", "other"); static. */
const char *fr_net_outcome_name(enum fr_net_outcome o);

struct fr_request {
	const char *url;
	const char *etag, *last_modified; /* validators from the last fetch, or NULL; a value
	                                   * holding CR or LF is ignored */
	uint64_t tag;                     /* the caller's id, handed back */
};

/* More of a request, for API sources (issue 30): fr_fetcher_submit_ex. */
struct fr_request_extra {
	/* A header line "Name: value" (a credential: "Authorization: Bearer
	 * T") sent with this request alone, or NULL. Never logged; a request
	 * carrying one follows no redirect inside the fetcher (the caller
	 * decides whether the next hop's host may see it). A line without ':'
	 * or holding CR or LF is refused by fr_fetcher_submit_ex. */
	const char *auth;
	int want_headers; /* 1: the response keeps its header block (fr_response.headers) */
	int want_error_body; /* 1: an HTTP error (status >= 400) keeps its body too, in
	                      * body and len (an API's error object) */
	/* A POST of this application/x-www-form-urlencoded body instead of
	 * a GET (a WebSub subscription request, docs/websub.md), or NULL.
	 * Copied; never logged; no redirect is followed. */
	const char *post_form;
};

/* One finished transfer. Strings are NUL-terminated and malloc'd; NULL when absent. */
struct fr_response {
	uint64_t tag;
	enum fr_net_outcome outcome;
	long status;   /* final HTTP status, 0 if none */
	char err[256]; /* a readable reason naming the URL when outcome is not OK/NOT_MODIFIED */
	char *body;
	size_t len; /* decoded body (NUL-terminated), NULL on 304 and errors (but an
	             * HTTP error's when the request had want_error_body) */
	char *content_type, *etag, *last_modified; /* of the final response; on 304 the new
	                                            * validators if the server sent them */
	char *effective_url;                       /* after redirects */
	char *permanent_url; /* set when every redirect hop was 301/308: the final URL; else NULL */
	double retry_after_at_s;     /* absolute Unix time from Retry-After (seconds or an HTTP
	                              * date) of the final response, or -1 */
	double max_age_s;            /* Cache-Control max-age (s-maxage ignored), or -1 */
	double started_s, elapsed_s; /* wall clock at submit (Unix s), and duration to the end */
	size_t wire_bytes;           /* bytes received on the wire: headers + (compressed) body */
	char *http_version;          /* "1.0", "1.1", "2", "3" */
	/* Added beyond the first contract: */
	double expires_at_s; /* Expires header as Unix time, or -1 */
	double date_s;       /* Date header as Unix time (the server's clock), or -1 */
	int no_store;        /* Cache-Control no-store or no-cache was sent */
	double sent_s;       /* wall clock (Unix s) when the request went out: when the
	                      * transfer left the queue, plus connecting (what a host's
	                      * gap counts from: a transfer that waited for a free
	                      * connection reaches the server late) */
	int redirects;       /* redirects followed */
	int truncated;       /* body cut at max_body (truncate_body only) */
	double connect_s;    /* from start to connected (0 on a reused connection), or -1 */
	double first_byte_s; /* from start to the first response byte, or -1 */
	char *location;      /* a 3xx not followed (max_redirects < 0): its target, absolute;
	                      * else NULL */
	/* The final response's header lines ("Name: value\r\n" each, the
	 * status line left out), at most FR_FETCH_HEADERS_MAX bytes (later
	 * lines dropped), when the request asked (want_headers); else NULL. */
	char *headers;
	size_t headers_len;
};

#define FR_FETCH_HEADERS_MAX 65536u

/* Creates a fetcher (opts may be NULL). Returns 0 and sets *out (free with
 * fr_fetcher_free), or -1 with err set. */
int fr_fetcher_new(struct fr_fetcher **out, const struct fr_fetch_opts *opts, char *err,
                   size_t errlen);
/* Aborts transfers still running (done is not called for them). Not from a done callback. */
void fr_fetcher_free(struct fr_fetcher *f);

/* Starts a transfer (copies what it needs from req), or queues it while
 * max_total transfers run. Returns 0, or -1 with err set (out of memory, no URL). A bad
 * or unsupported URL is not an error here: it finishes as FR_NET_OTHER. May
 * be called from a done callback. */
int fr_fetcher_submit(struct fr_fetcher *f, const struct fr_request *req, char *err, size_t errlen);
/* The same with x (may be NULL: as fr_fetcher_submit). */
int fr_fetcher_submit_ex(struct fr_fetcher *f, const struct fr_request *req,
                         const struct fr_request_extra *x, char *err, size_t errlen);

/* Drives transfers for at most timeout_ms (returns early once one has
 * finished); calls done for each finished transfer with a response borrowed
 * for the call (copy what you keep). Returns the number still running or
 * queued, or -1 on a libcurl multi failure (not a transfer's). */
int fr_fetcher_poll(struct fr_fetcher *f, int timeout_ms,
                    void (*done)(void *arg, const struct fr_response *res), void *arg);
/* Transfers running or queued. */
size_t fr_fetcher_running(const struct fr_fetcher *f);

/* One blocking GET (for `freshet parse URL`, robots.txt, tests); opts may be NULL.
 * Fills *out (the caller clears it with fr_response_clear) and returns 0
 * whatever the outcome; -1 only when it cannot start (err in out->err). */
int fr_http_get(const char *url, const struct fr_fetch_opts *opts, struct fr_response *out);

/* Frees the strings of r and zeroes every field. */
void fr_response_clear(struct fr_response *r);

/* Run-time abilities of the libcurl in use: 1 when present. */
struct fr_net_features {
	int http2, brotli, zstd, gzip, https;
	const char *curl_version, *ssl_version; /* static strings of libcurl */
};
void fr_net_features(struct fr_net_features *out);

#endif
