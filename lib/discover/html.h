/* html.h - what feed discovery reads from an HTML page: the feed links it
 * advertises (<link rel="alternate"> with a feed type, in <head> or <body>),
 * the <a> links that look like feeds, and the links to follow, each resolved
 * against <base href> or the page's URL. libxml2's HTML parser, in recovery
 * mode, with no network access. */
#ifndef FR_DISCOVER_HTML_H
#define FR_DISCOVER_HTML_H

#include <stddef.h>

/* Why a link was kept (fr_html_link.flags). */
#define FR_HTML_FEED_LINK 1u /* <link rel="alternate"> of a feed type: an autodiscovery link */
#define FR_HTML_FEEDLIKE 2u  /* <a> whose href or text names rss, atom, feed or xml */
#define FR_HTML_FOLLOW 4u    /* <a>, <area>, <frame> or <iframe> href: a page to crawl */

struct fr_html_link {
	char *url;   /* absolute, fragment removed (malloc'd) */
	char *title; /* link title or anchor text, blanks collapsed, or NULL */
	char *type;  /* the type attribute, lower case, parameters dropped, or NULL */
	unsigned flags;
};

struct fr_html_page {
	char *title;                /* <title>, or NULL */
	char *base;                 /* the base links resolve against (<base href> or the page URL) */
	struct fr_html_link *links; /* one entry per distinct URL, flags merged, in page order */
	size_t n_links;
	size_t n_feed_links; /* links with FR_HTML_FEED_LINK */
};

/* Whether a <link> with these rel and type attribute values (either may be
 * NULL) and title is an autodiscovery link: rel holds the token "alternate"
 * (or "feed"), and type is application/rss+xml, application/atom+xml,
 * application/rdf+xml, application/feed+json (or their x- variants), or
 * application/json with a title naming a feed, rss or atom. Case-insensitive;
 * type parameters (";charset=...") are ignored. */
int fr_html_is_feed_link(const char *rel, const char *type, const char *title);

/* Whether an <a> link looks like a feed: its href (without the scheme) or
 * its text holds "rss", "atom", "xml" or "feed(s)" as a word of its own,
 * case-insensitively, where digits and punctuation end a word and "feed"
 * may close a longer word ("newsfeed"): "/rss2/", "feeds.example.com" and
 * "atom.xml" count, "feedback", "rssi" and "atomic" do not. */
int fr_html_is_feedlike(const char *href, const char *text);

/* Scans the HTML page buf[0..len) fetched from page_url. content_type (may
 * be NULL) gives the charset when it names one; else the page's <meta> does.
 * Links are resolved against the first <base href> (itself resolved against
 * page_url) or page_url; javascript:, mailto:, data:, tel: and fragment-only
 * hrefs, and hrefs that do not resolve, are skipped; at most max_links links
 * are kept (0: 10000), autodiscovery links first. Returns 0 with *out filled
 * (clear it with fr_html_page_clear), or -1 with err set when buf cannot be
 * read as HTML at all or memory runs out. */
int fr_html_scan(const char *buf, size_t len, const char *page_url, const char *content_type,
                 size_t max_links, struct fr_html_page *out, char *err, size_t errlen);

/* Frees what p holds and zeroes it. */
void fr_html_page_clear(struct fr_html_page *p);

/* Whether buf looks like an HTML document rather than a feed or other data:
 * a doctype, <html>, <head> or <body> near the start. */
int fr_html_sniff(const char *buf, size_t len);

#endif
