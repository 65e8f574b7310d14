/* discover.h - feed discovery: crawls many sites at once, breadth first
 * inside each site's registrable domain, and reports the feeds each one
 * links to or serves, every one validated by fetching and parsing it.
 * One thread, one libcurl multi fetcher, robots.txt and a per-host gap as in
 * `freshet run`. The feed finder of seed 001 (notes-rss.md), with trap
 * limits, autodiscovery, feed-like anchors and well-known paths. */
#ifndef FR_DISCOVER_DISCOVER_H
#define FR_DISCOVER_DISCOVER_H

#include "net/fetch.h"

#include <signal.h>
#include <stddef.h>

struct fr_discover_opts {
	struct fr_fetch_opts fetch; /* transfers, connect-to, User-Agent, timeouts (its
	                             * max_redirects is ignored: discovery follows at most
	                             * 5 redirects itself, each hop under its host's
	                             * robots.txt and gap) */
	size_t max_pages;           /* HTML pages fetched per site (0: 50) */
	double max_time_s;          /* wall time per site from its first request (0: 60); a
	                             * site waiting its turn has not started */
	int max_depth;              /* link depth from the start page (negative: 3) */
	size_t max_queries;         /* distinct query strings per path per site (0: 5) */
	size_t max_candidates;      /* feed candidates fetched per site (0: 50) */
	int max_probes;             /* well-known paths probed when nothing is found (negative: 10) */
	size_t max_feeds;           /* a site stops once it has this many feeds (0: 200) */
	double gap_s;               /* per-host minimum gap between requests (negative: 1) */
	double max_crawl_delay_s;   /* robots.txt Crawl-delay honoured up to this (0: 30) */
	int robots;                 /* 1: honour robots.txt (fr_discover_opts_init's default) */
	size_t max_active;          /* at most this many sites at once (0: 1024); fewer are
	                             * admitted as the transfers allow: a new site starts
	                             * only while a transfer slot is free and no admitted
	                             * site has a request ready to send */
};

/* Fills o with the defaults (every field 0 or -1 as above, robots 1). */
void fr_discover_opts_init(struct fr_discover_opts *o);

/* How a feed was found. */
enum fr_discover_via {
	FR_VIA_LINK,   /* an autodiscovery <link rel="alternate"> */
	FR_VIA_ANCHOR, /* an <a> that looked like a feed */
	FR_VIA_SELF,   /* a crawled URL (the site URL itself, or a page) was a feed */
	FR_VIA_PROBE   /* a well-known path */
};
const char *fr_discover_via_name(enum fr_discover_via v); /* "link", "anchor", "self", "probe" */

struct fr_discovered_feed {
	const char *url;     /* the feed's address: the URL linked, or where a permanent
	                      * redirect from it ends */
	const char *title;   /* the feed's own title, or the link's title, or NULL */
	const char *format;  /* feedparser's version: "rss20", "atom10", "json11", ... */
	size_t n_items;
	enum fr_discover_via via;
	const char *found_on; /* the page that linked it (its own URL for SELF/PROBE) */
};

/* Why a site's crawl ended. */
enum fr_discover_end {
	FR_END_DONE,      /* nothing left to fetch within the limits */
	FR_END_TIME,      /* max_time_s ran out */
	FR_END_FEEDS,     /* max_feeds reached */
	FR_END_UNREACHABLE, /* the start URL gave no page (error says why) */
	FR_END_FAILED       /* the site answered, but no page, feed or probe could be read
	                     * (error says what the answers were) */
};
const char *fr_discover_end_name(enum fr_discover_end e);

/* One site's result, borrowed for the callback. */
struct fr_discover_site {
	size_t index;      /* position in the input */
	const char *url;   /* the site URL as given */
	const char *domain; /* its registrable domain */
	const struct fr_discovered_feed *feeds;
	size_t n_feeds;
	size_t pages, candidates, probes, requests; /* fetches by kind; requests counts all,
	                                               robots.txt included */
	size_t skipped_robots, skipped_limits; /* URLs not fetched: robots.txt, trap limits */
	/* skipped_limits by limit: links past max_pages, past max_depth, past
	 * max_queries (or a path repeating a segment), past max_candidates */
	size_t limit_pages, limit_depth, limit_queries, limit_candidates;
	size_t failed;     /* requests of the site that gave no usable answer */
	enum fr_discover_end end;
	const char *error; /* for UNREACHABLE and FAILED: what happened ("robots.txt of
	                    * http://h/ answered HTTP 500: ...", "redirect loop: ...",
	                    * "every request failed: ..."); else NULL */
	const char *note;  /* a problem that did not stop the site (a page over the size
	                    * cap read in part, a failed request), or NULL */
	double elapsed_s;
};

/* Discovers the feeds of sites[0..n) (absolute http(s) URLs; a bare
 * "example.com" is taken as http://example.com/). Calls on_site once per
 * site, as each finishes (not in input order); feeds come in the order they
 * were found, one per address (normalised). A site URL that cannot be
 * parsed is reported as UNREACHABLE with the reason. stop (may be NULL) is
 * polled: when it becomes non-zero every site ends as it stands (its
 * callback is still made). Returns 0, or -1 with err set when the run
 * cannot start or memory runs out. */
int fr_discover_run(const char *const *sites, size_t n, const struct fr_discover_opts *o,
                    void (*on_site)(void *arg, const struct fr_discover_site *s), void *arg,
                    const volatile sig_atomic_t *stop, char *err, size_t errlen);

/* The registrable domain of host (public suffix list via libpsl): "bbc.co.uk"
 * for "www.bbc.co.uk"; the host itself for an IP literal, "localhost" or a
 * public suffix. Lower case, malloc'd; NULL on out-of-memory. */
char *fr_registrable_domain(const char *host);

#endif
