/* furl.h - forum URLs as SInFo reads them: pagination by each URL's
 * "specific number" (a page number or an offset), never by anchor text.
 * Two URLs of one pagination list share everything but that number
 * (vBulletin showthread.php?t=5&page=2 / &page=3, SMF topic,250.0.html /
 * topic,250.10.html, Discuz! thread-147-1-1.html / thread-147-2-1.html),
 * or one is the other without the chunk that holds it (the first page:
 * showthread.php?t=5, /threads/x.1/ beside /threads/x.1/page-2). Pure
 * string work. */
#ifndef FR_FORUM_FURL_H
#define FR_FORUM_FURL_H

#include <stddef.h>
#include <stdint.h>

/* The number where two URLs differ. */
struct fr_furl_num {
	int64_t a, b;      /* the number in each URL */
	size_t off, len;   /* its byte span in the first URL */
	int from_right;    /* digit runs after it in the first URL (its position from the end) */
};

/* Whether a and b are equal but for one run of digits (whole runs: "t=5"
 * and "t=51" differ in one run, "t=5" and "t=5a" do not): returns 1 and
 * sets *n, else 0. */
int fr_furl_diff1(const char *a, const char *b, struct fr_furl_num *n);

/* Whether first is paged without one chunk that holds a number and no
 * other digit (at most 24 bytes: "&page=2", "page-2", "2.html"): the
 * first page of paged's list. Returns 1 and sets *num to the number (and
 * *off, *len, may be NULL, to its span in paged), else 0. */
int fr_furl_first_form(const char *first, const char *paged, int64_t *num, size_t *off, size_t *len);

/* One page of a pagination list. */
struct fr_furl_page {
	char *url;
	int64_t num;  /* its specific number; the first page without one: INT64_MIN */
};

/* The pagination list a page belongs to, as its own links show it. */
struct fr_furl_pager {
	struct fr_furl_page *pages; /* by number, each once, the current page included */
	size_t n;
	size_t cur;        /* index of the current page */
	int64_t step;      /* the gcd of the gaps between numbers (1 pages, > 1 offsets), 0 unknown */
	int from_right;    /* the number's position from the end (digit runs after it) */
	char *tmpl;        /* a URL of the list with the number cut out as "\x01" (for
	                      making the URL of a number not linked) */
	char *made;        /* the last URL made from tmpl (next/prev), owned */
};

/* Finds the pager of the page at url among urls (the page's links outside
 * its records: n of them; repeats and unrelated links are fine). Only URLs
 * related to url by fr_furl_diff1 or fr_furl_first_form count; among
 * candidate positions the one with most pages wins, then one with a first
 * page form, then pref_from_right (>= 0: the position learnt for this page
 * type), then the rightmost. Returns 1 and fills *out (free with
 * fr_furl_pager_free), 0 when the page has no pager (*out zeroed), or -1 on
 * out of memory. */
int fr_furl_pager_find(const char *url, const char *const *urls, size_t n, int pref_from_right,
                       struct fr_furl_pager *out);
void fr_furl_pager_free(struct fr_furl_pager *p);

/* Navigation (Alg. 4), each a borrowed URL (valid until the next call on
 * p or its free) or NULL: first (the smallest number, or the page without
 * one), last (the largest), next/previous (the current number plus or
 * minus one step: the listed URL when the pager shows it, else made from
 * the list's template; NULL past either end of the list shown). */
const char *fr_furl_pager_first(const struct fr_furl_pager *p);
const char *fr_furl_pager_last(const struct fr_furl_pager *p);
const char *fr_furl_pager_next(struct fr_furl_pager *p);
const char *fr_furl_pager_prev(struct fr_furl_pager *p);

/* The URL of page k (1-based) of the list, made from its template and
 * step (page numbers, or offsets from 0); the first page is the one
 * without a number when the list has one. malloc'd (caller frees), or NULL
 * (no template, k < 1, out of memory). */
char *fr_furl_pager_url(const struct fr_furl_pager *p, int64_t k);
/* The page number (1-based) of p->pages[i], as fr_furl_pager_url counts
 * them (0 when i is out of range). */
int64_t fr_furl_pager_k(const struct fr_furl_pager *p, size_t i);

/* The last-activity URL of a thread (Alg. 3) from the URLs of its index
 * row: among those paging the thread (related to thread_url by diff1 or
 * first form), the one with the largest number; NULL when none (then the
 * thread's first page is the way in). Returns a borrowed entry of urls. */
const char *fr_furl_last_activity(const char *thread_url, const char *const *urls, size_t n);

/* The shape of a URL, for describing learned patterns: its path and query
 * with runs of digits as '#' and slugs (two or more words of letters joined
 * by '-' or '_') as '*' (XenForo's thread pages: "/threads/" "*" ".#/page-#"). malloc'd, caller frees;
 * NULL on out of memory. */
char *fr_furl_shape(const char *url);

/* Session ids out of a page's links, in place (each changed URL is
 * replaced by a new malloc'd string): query parameters named as session
 * ids (PHPSESSID, sid, jsessionid, sessionid, ...; vBulletin's s= when
 * empty or random), those named in names (comma-separated, case-
 * insensitive, may be NULL: learnt from two fetches of one page), those
 * whose long random value (16+ letters and digits) recurs in 3 or more of
 * the URLs, and ";jsessionid=..." in paths. Returns the number of URLs
 * changed, or -1 on out of memory (urls unchanged). */
int fr_furl_strip_sessions(char **urls, size_t n, const char *names);

/* The parameters of two fetches of one address (a and b, the same link
 * seen twice) whose long random values differ: session ids the names of
 * which are not known. Writes them comma-separated into names (cap bytes,
 * names already there are kept and not repeated); returns how many were
 * added. */
int fr_furl_session_names(const char *a, const char *b, char *names, size_t cap);

#endif
