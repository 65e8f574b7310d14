/* opml.h - OPML 1.0/2.0 feed lists: read the feed outlines of a document
 * (libxml2, no network, no entity expansion) and write one back (OPML 2.0). */
#ifndef FR_PARSE_OPML_H
#define FR_PARSE_OPML_H

#include <stddef.h>
#include <stdio.h>

/* One feed outline. Strings are UTF-8; each may be NULL when absent. */
struct fr_opml_outline {
	const char *xml_url;  /* the feed's address (xmlUrl), surrounding blanks trimmed; "" when
	                         the attribute is present but empty */
	const char *html_url; /* the site (htmlUrl) */
	const char *title;    /* title attribute, else text attribute */
	const char *category; /* title (else text) of the nearest enclosing outline, else the
	                         outline's own category attribute; may be NULL */
	long line;            /* line of the outline in the document (parse only; 0 unknown) */
};

/* Parses the OPML 1.0/2.0 document buf[0..len) (any encoding libxml2 knows;
 * UTF-8 by default). Outlines nest to any depth libxml2 accepts (256); an
 * outline with an xmlUrl attribute (any letter case: xmlUrl, xmlurl) is a
 * feed, whatever its type, and may itself hold outlines. Calls each(arg, o)
 * for every feed outline in document order; the strings in *o are borrowed
 * for the call only. each returns 0 to go on; anything else stops the walk.
 *
 * Safe on hostile input: no network access, no DTD loading, no external or
 * custom entity expansion (character references and the five predefined
 * entities are decoded; an attribute we read that uses a custom entity is an
 * error), libxml2's own depth and amplification limits.
 *
 * Returns 0, or -1 with err set to "LABEL:LINE: reason" (label names the
 * input, e.g. its path): malformed XML (libxml2's message), a root element
 * other than <opml>, no <body>, a custom entity in an attribute, a document
 * over 2 GiB; or "LABEL:LINE: stopped by the caller" when each stopped the
 * walk at the outline on LINE. */
int fr_opml_parse(const char *buf, size_t len, const char *label,
		  int (*each)(void *arg, const struct fr_opml_outline *o), void *arg, char *err,
		  size_t errlen);

/* Writes an OPML 2.0 document (UTF-8) titled title (NULL: "freshet
 * sources") with these n feed outlines to f: outlines without a category
 * first, in the given order, then one folder outline per distinct category
 * (in byte order of the names) holding its feeds in the given order. Each
 * feed is <outline type="rss" text=.. title=.. xmlUrl=.. htmlUrl=..>; text
 * is the title, or the address when there is none. Attribute values are
 * escaped; control characters other than tab, CR and LF are dropped and
 * invalid UTF-8 bytes become U+FFFD, so the output always parses. Outlines
 * with a NULL xml_url are skipped. Returns 0, or -1 on a write error or out
 * of memory (errno set by stdio). */
int fr_opml_write(FILE *f, const char *title, const struct fr_opml_outline *o, size_t n);

#endif
