/* robots.h - robots.txt (RFC 9309): a parser that keeps the rules of one
 * crawler's group, the matcher (longest match, allow wins a tie, `*` and `$`,
 * percent-encoding normalised), the status rules, and a cache per origin
 * with expiry that never does I/O: the caller fetches and hands results in. */
#ifndef FR_NET_ROBOTS_H
#define FR_NET_ROBOTS_H

#include <stddef.h>

struct fr_response;

/* Bytes of a robots.txt body that are read (RFC 9309 asks for at least 500 KiB). */
#define FR_ROBOTS_MAX_BYTES (500u * 1024)

struct fr_robots;

/* Parses len bytes of body (at most FR_ROBOTS_MAX_BYTES are read; no NUL
 * needed) for the crawler whose product token leads ua: the leading run of
 * letters, '-' and '_' ("freshet/0.1 (+https://...)" gives "freshet"; NULL or
 * no token: only the `*` group applies). Groups naming the token
 * (case-insensitively) are merged and used; else the `*` groups, merged; else
 * no rules. Lines without a colon, unknown keys and rules outside a group are
 * skipped; never fails on content. Returns the rules (free with
 * fr_robots_free), or NULL on out-of-memory. */
struct fr_robots *fr_robots_parse(const char *body, size_t len, const char *ua);

/* Rules that allow everything, or disallow everything but /robots.txt
 * (the RFC 9309 status rules). NULL on out-of-memory. */
struct fr_robots *fr_robots_allow_all(void);
struct fr_robots *fr_robots_disallow_all(void);

/* The rules for a fetch of robots.txt that ended with HTTP status (0 when
 * no response came: timeout, DNS, connection): 2xx parses body; 3xx left
 * after the redirects were followed and 4xx but 429 allow all ("unavailable");
 * 429, 5xx and 0 disallow all ("unreachable") and set *unreachable to 1
 * (else 0; may be NULL) so the caller retries sooner. NULL on out-of-memory. */
struct fr_robots *fr_robots_for_status(long status, const char *body, size_t len, const char *ua,
                                       int *unreachable);

void fr_robots_free(struct fr_robots *r);

/* Whether path_query ("/a/b?c=d"; "" counts as "/"; a fragment is ignored)
 * may be fetched. /robots.txt is always allowed. Both the path and the rules
 * are compared with percent-encoding normalised: %XX of an unreserved
 * character decoded, other escapes upper-cased, bytes outside printable
 * ASCII percent-encoded. r NULL allows all. */
int fr_robots_allowed(const struct fr_robots *r, const char *path_query);

/* Crawl-delay of the chosen group in seconds (the largest when several
 * are given; malformed values skipped), or -1 when none. */
double fr_robots_crawl_delay_s(const struct fr_robots *r);

/* Sitemap URLs listed anywhere in the file, in order (at most 64 are kept).
 * fr_robots_sitemap returns a borrowed string valid until fr_robots_free, or
 * NULL when i is out of range. */
size_t fr_robots_n_sitemaps(const struct fr_robots *r);
const char *fr_robots_sitemap(const struct fr_robots *r, size_t i);

/* Number of allow and disallow rules kept (for tests and stats). */
size_t fr_robots_n_rules(const struct fr_robots *r);

/* The robots.txt URL of url's origin ("https://Host:8443/x?y" gives
 * "https://host:8443/robots.txt"; the default port is left out), malloc'd;
 * NULL when url is not an http(s) URL with a host. */
char *fr_robots_url(const char *url);

/* ---- the cache ------------------------------------------------------------
 * One entry per origin (scheme, host, port). The caller asks about a URL;
 * when the origin's robots.txt is missing or expired the answer is FETCH
 * (once: the origin is then pending) and the caller fetches fr_robots_url
 * through its own fetcher, with its own politeness, and hands the result to
 * fr_robots_cache_put. While robots.txt is unreachable (5xx, 429, no answer)
 * the last good copy serves, however old (RFC 9309 2.4); with none,
 * everything is disallowed until max_stale_s of failures, then allowed
 * (2.3.1.4). Unreachable answers are retried after retry_s. */

struct fr_robots_cache;

struct fr_robots_cache_opts {
	double ttl_s;             /* 0: 86400 (RFC 9309: a day) */
	double retry_s;           /* after an unreachable answer, 0: 600 */
	double pending_s;         /* a FETCH not answered by then is handed out again, 0: 120 */
	double max_stale_s;       /* no copy and unreachable this long: allow all; 0: 30 days */
	double max_crawl_delay_s; /* reported delays are capped here, 0: 30; negative: no cap */
	size_t max_entries;       /* 0: 100000; over it the entry expiring first goes */
};

enum fr_robots_verdict {
	FR_ROBOTS_ALLOWED,
	FR_ROBOTS_DENIED,
	FR_ROBOTS_FETCH,  /* fetch fr_robots_url(url) and put the result, then ask again */
	FR_ROBOTS_PENDING /* another caller was told to fetch it; ask again later */
};

/* ua as for fr_robots_parse (copied). o may be NULL. Returns 0 and sets *out
 * (free with fr_robots_cache_free), or -1 with err set. */
int fr_robots_cache_new(struct fr_robots_cache **out, const char *ua,
                        const struct fr_robots_cache_opts *o, char *err, size_t errlen);
void fr_robots_cache_free(struct fr_robots_cache *c);

/* The verdict for url at now_s. With ALLOWED or DENIED, *crawl_delay_s (may
 * be NULL) is the origin's Crawl-delay capped at max_crawl_delay_s, or -1.
 * A URL that is not http(s) with a host is ALLOWED (the fetcher reports it);
 * out-of-memory gives PENDING. */
enum fr_robots_verdict fr_robots_cache_check(struct fr_robots_cache *c, const char *url,
                                             double now_s, double *crawl_delay_s);

/* Hands in the outcome of fetching robots.txt for url's origin (url may be
 * any URL of the origin): status and body as for fr_robots_for_status.
 * Returns 0, or -1 on a URL without an http(s) origin or out-of-memory. */
int fr_robots_cache_put(struct fr_robots_cache *c, const char *url, long status, const char *body,
                        size_t len, double now_s);
/* The same from a fetcher response (status 0 unless an HTTP answer came;
 * a 304 keeps the rules and renews them; a body that did not come whole
 * counts as unreachable). */
int fr_robots_cache_put_response(struct fr_robots_cache *c, const char *url,
                                 const struct fr_response *res, double now_s);

/* Whether the rules in force for url's origin are a stand-in for a
 * robots.txt that could not be had (429, 5xx, no answer: everything is
 * disallowed until it can, RFC 9309 2.3.1.3), rather than rules a server
 * answered with. Returns 1 and fills what is given (each may be NULL): why,
 * the last failure's reason (the fetcher's message, or "HTTP 503"),
 * *outcome (its enum fr_net_outcome) and *status (its HTTP status, or 0);
 * else 0. */
int fr_robots_cache_unreachable(struct fr_robots_cache *c, const char *url, char *why,
                                size_t whylen, int *outcome, long *status);

/* Entries held (for tests and stats). */
size_t fr_robots_cache_len(const struct fr_robots_cache *c);

#endif
