/* link.h - WebSub discovery: the hub and the topic (self) of a feed, from
 * the HTTP Link header fields of its response (RFC 8288) and from the
 * feed's own links (parse/feed.h's hub and self). Pure: no I/O. */
#ifndef FR_WEBSUB_LINK_H
#define FR_WEBSUB_LINK_H

#include <stddef.h>

struct fr_feed;

/* A Link field value longer than this is read up to here only. */
#define FR_WEBSUB_LINK_MAX 8192u

/* Reads one Link field value v[0..n) ("<URI>; rel=\"hub self\", <URI2>;
 * rel=next"): calls each(arg, uri, uri_len, rels, rels_len) for every link
 * value with a rel parameter (uri and rels point into v, not terminated;
 * rels is the parameter's value without quotes, space-separated relation
 * types). Malformed link values are skipped up to the next comma outside
 * <> and quotes; each returning non-zero stops. Returns the number of link
 * values passed to each. */
int fr_websub_link_parse(const char *v, size_t n,
			 int (*each)(void *arg, const char *uri, size_t uri_len, const char *rels,
				     size_t rels_len),
			 void *arg);

/* Whether the space-separated relation types rels[0..n) hold name (ASCII
 * case-insensitive): 1 or 0. */
int fr_websub_rel_has(const char *rels, size_t n, const char *name);

/* The first hub and self links of a response's header block ("Name:
 * value\r\n" lines, as fr_response.headers; every Link field is read),
 * resolved against base (the URL fetched; may be NULL, then only absolute
 * URIs count). Only http and https URLs are taken. Sets *hub and *self to
 * malloc'd strings (caller frees) or NULL when absent. Returns 0, or -1 on
 * out of memory (both NULL). */
int fr_websub_links_from_headers(const char *headers, size_t len, const char *base, char **hub,
				 char **self);

/* The hub and topic for a fetched feed, as the WebSub spec orders them:
 * the Link header fields first, then the feed's own links (feed may be
 * NULL, headers may be NULL). The topic is the self link, else the URL
 * fetched (url). Sets *hub and *topic (malloc'd, caller frees) and returns
 * 1 when a hub was found (an http or https URL), 0 when none (both NULL),
 * -1 on out of memory. */
int fr_websub_discover(const struct fr_feed *feed, const char *headers, size_t hlen,
		       const char *url, char **hub, char **topic);

/* Whether s is an absolute http:// or https:// URL (no blanks, no control
 * characters, at most 2048 bytes): 1 or 0. */
int fr_websub_url_ok(const char *s);

#endif
