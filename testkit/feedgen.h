/* feedgen.h - small valid feeds for `freshet serve --sites/--web`: RSS 2.0,
 * Atom 1.0, JSON Feed 1.1 and RSS 1.0 (RDF), rendered from a plain
 * description. No I/O. */
#ifndef FR_TESTKIT_FEEDGEN_H
#define FR_TESTKIT_FEEDGEN_H

#include <stddef.h>
#include <stdint.h>

struct fr_text;

/* NOTE: keep in the order of the names in feedgen.c's NAMES table. */
enum fr_feedgen_format { FR_FEEDGEN_RSS, FR_FEEDGEN_ATOM, FR_FEEDGEN_JSON, FR_FEEDGEN_RDF };

struct fr_feedgen_item {
	const char *id, *title, *link, *summary; /* borrowed; summary may be NULL */
	int64_t published_s;                     /* Unix seconds */
};

/* A feed to render. All strings borrowed, UTF-8; description may be NULL. */
struct fr_feedgen {
	enum fr_feedgen_format format;
	const char *title, *feed_url, *home_url, *description;
	const struct fr_feedgen_item *items; /* newest first, as feeds list them */
	size_t n_items;
};

/* The format named by the n bytes at s ("rss", "atom", "json", "rdf"):
 * returns 0 and sets *out, or -1. */
int fr_feedgen_format_parse(const char *s, size_t n, enum fr_feedgen_format *out);

/* Name of a format ("rss", ...); a static string. */
const char *fr_feedgen_format_name(enum fr_feedgen_format f);

/* Content type a server gives a format ("application/rss+xml;
 * charset=utf-8", application/atom+xml, application/feed+json,
 * application/rdf+xml); a static string. */
const char *fr_feedgen_content_type(enum fr_feedgen_format f);

/* The MIME type an autodiscovery <link> gives a format (the content type
 * without parameters); a static string. */
const char *fr_feedgen_mime(enum fr_feedgen_format f);

/* Appends feed f, UTF-8, to out (out->bad set when out of memory or over
 * its cap). The feed's updated time is its first item's (the Unix epoch
 * when it has none). */
void fr_feedgen_render(const struct fr_feedgen *f, struct fr_text *out);

#endif
