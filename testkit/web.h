/* web.h - a generated web of N sites for `freshet serve --web N`, to test
 * and benchmark feed discovery: every site shows one way feeds are found (or
 * hidden) in the wild, deterministic for a seed, served on any-host mode
 * under real-looking host names www.site<k>.test; plus the truth (which
 * feeds a discoverer should find, per site).
 *
 * Every site k (registrable domain site<k>.test) has a home page "/" that
 * links five articles /post/1.html .. /post/5.html (each links home, two
 * other posts and http://www.site<k+1 mod N>.test/, another registrable
 * domain a discoverer must not crawl), a robots.txt that disallows /private/,
 * and a link from the home to /private/feed.xml (a real RSS feed a polite
 * discoverer must not fetch; the request log shows whether it was). Its shape
 * is k % 10:
 *
 *  0 RSS autodiscovery <link rel="alternate" type="application/rss+xml"
 *    href="/feed/"> in <head>
 *  1 two feeds by autodiscovery in <head>: Atom href="atom.xml" (relative)
 *    and comments RSS at the absolute http://www.site<k>.test/comments/feed/,
 *    the latter with upper-case REL, TYPE and attribute values
 *  2 autodiscovery <link> inside <body>, protocol-relative
 *    href="//www.site<k>.test/rss"; the feed is RSS 2.0 when (k / 10) is even,
 *    RSS 1.0 (RDF, type application/rdf+xml) when odd
 *  3 no <link>; the home's footer has <a href="/blog/rss.xml">RSS</a> (an RSS
 *    feed served as text/xml) and a decoy <a href="/rss-help.html">About
 *    RSS</a> (an HTML page)
 *  4 no link at all: an Atom feed only at the well-known path /feed
 *  5 the feed is on another registrable domain: autodiscovery href
 *    http://feeds.cdn<k>.test/site<k>/main.xml (RSS); that host's "/" is an
 *    HTML page linking (and autodiscovering) /other/feed.xml, a feed that is
 *    not site k's: a discoverer that crawls the CDN host reports it
 *  6 JSON Feed 1.1 at /feed.json by type application/feed+json, plus an
 *    untitled <link rel="alternate" type="application/json"
 *    href="/wp-json/wp/v2/posts/1"> (JSON, not a feed) and an oEmbed link
 *    (application/json+oembed, /wp-json/oembed/1.0/embed?url=...)
 *  7 the home has no feed link but links /blog/ (depth 1), which has
 *    <base href="/blog/"> and Atom autodiscovery href="feed.xml" (so
 *    /blog/feed.xml)
 *  8 no feed at all: every well-known path is 404; the home links /feeds/,
 *    an HTML page
 *  9 traps: an endless calendar /calendar?y=YYYY&m=MM (each month links the
 *    previous and the next, for any year up to 999999999), links carrying
 *    session ids that change on every request (?PHPSESSID=<32 hex> and
 *    ;jsessionid=<32 HEX>; the pages are served whatever the id), an endless
 *    path /a/ -> /a/a/ -> ...; and RSS autodiscovery of /index.xml
 *
 * Sites with k % 7 == 3 also answer on the bare domain site<k>.test: 301 from
 * every path there to the same path on www.site<k>.test (robots.txt is
 * served directly), and the truth gives them as http://site<k>.test/.
 * Feeds have 5 items and the title "site<k> feed <name>". Any other URL is
 * 404 (robots.txt of the CDN hosts too: allow all); a query string is 404
 * except where a shape uses one. NOTE: keep docs/serve.md in sync. */
#ifndef FR_TESTKIT_WEB_H
#define FR_TESTKIT_WEB_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct fr_serve_req;
struct fr_serve_resp;

#define FR_WEB_MAX_SITES 10000000u
#define FR_WEB_URL_MAX 128       /* longest URL of a site or feed, with the NUL */
#define FR_WEB_MAX_SITE_FEEDS 2  /* most feeds one site has */
#define FR_WEB_SHAPES 10         /* shape of site k: k % FR_WEB_SHAPES */

struct fr_web_config {
	uint32_t n_sites; /* 1 .. FR_WEB_MAX_SITES */
	uint64_t seed;    /* the words, titles and dates; URLs do not depend on it */
};

struct fr_web;

/* A web of cfg->n_sites sites. Returns NULL with err set on a bad config or
 * out-of-memory. Free with fr_web_free. */
struct fr_web *fr_web_new(const struct fr_web_config *cfg, char *err, size_t errlen);
void fr_web_free(struct fr_web *w);

/* The URL a discoverer is given for site k (http://site<k>.test/ when k % 7
 * == 3, else http://www.site<k>.test/) into buf (len bytes); returns buf. */
char *fr_web_site_url(uint32_t k, char *buf, size_t len);

/* The feeds a discoverer should find for site k (0, 1 or 2 of them) into
 * urls; returns how many. */
size_t fr_web_site_feeds(uint32_t k, char urls[FR_WEB_MAX_SITE_FEEDS][FR_WEB_URL_MAX]);

/* The handler for the server's any-host mode (ctx = the web). Bodies are
 * malloc'd per answer (released with free); 200s carry a strong ETag (a hash
 * of the body), feeds also Last-Modified. Thread-safe. */
int fr_web_handle(void *ctx, const struct fr_serve_req *req, struct fr_serve_resp *resp);

/* Writes the truth TSV to out: a header "site_url<TAB>feed_url", then for
 * every site in order one line per expected feed, or one line with an empty
 * feed_url for a site without feed. Returns 0, or -1 with err set naming
 * name on a write error. */
int fr_web_write_truth(const struct fr_web *w, FILE *out, const char *name, char *err,
                       size_t errlen);

/* Writes every site's URL (fr_web_site_url), one a line, to out. Returns 0,
 * or -1 with err set naming name on a write error. */
int fr_web_write_sites(const struct fr_web *w, FILE *out, const char *name, char *err,
                       size_t errlen);

/* Number of sites. */
uint32_t fr_web_n_sites(const struct fr_web *w);

#endif
