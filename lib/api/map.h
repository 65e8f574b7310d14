/* map.h - a JSON API response read through a spec (api/spec.h) into the feed
 * parser's item model (parse/feed.h), so API items are stored like feed
 * items, with the next page's URL. Pure: bytes in, items out, no I/O. */
#ifndef FR_API_MAP_H
#define FR_API_MAP_H

#include "api/spec.h"
#include "parse/feed.h"

#include <stddef.h>

#define FR_API_MAX_BYTES_DEFAULT (16u << 20) /* 16 MiB */
#define FR_API_MAX_DEPTH_DEFAULT 64u

struct fr_api_map_opts {
	/* The request's URL: the base of relative links (unless the spec has
	 * link_base) and of the next page's URL, the URL a cursor goes into.
	 * May be NULL (relative links are then refused, no cursor page). */
	const char *url;
	/* The response's Link header (RFC 8288), for "next=@link"; may be NULL. */
	const char *link_header;
	size_t max_bytes;   /* 0: FR_API_MAX_BYTES_DEFAULT; a longer body is refused */
	unsigned max_depth; /* 0: FR_API_MAX_DEPTH_DEFAULT; deeper JSON is refused */
	size_t max_items;   /* 0: FR_FEED_MAX_ITEMS_DEFAULT; over it the newest are kept */
};

struct fr_api_page {
	/* The items, as fr_feed_parse gives a feed's: ids never NULL (the id,
	 * else the link, else "sha1:" of title and text), links absolute
	 * http(s) (others refused: n_links_refused, refused_link), every string
	 * well-formed UTF-8, text of format html sanitised like a feed's
	 * content, published_s/updated_s Unix seconds or FR_DATE_NONE.
	 * version is "api:" + the spec's name. Owned by the page. */
	struct fr_feed *feed;
	/* The next page's absolute http(s) URL, NULL when there is none: the
	 * first of the spec's next alternatives that gives one, else the
	 * request URL with the cursor in cursor_param. An empty list has no
	 * next page. Owned by the page. */
	char *next_url;
	char *cursor;       /* the cursor's value, NULL when none; owned by the page */
	size_t n_entries;   /* entries in the list */
	size_t n_skipped;   /* entries that gave no item (not an object at the item path) */
	size_t n_bad_times; /* items whose time field was there but not a time */
};

/* Reads body[0..len) with spec. opts may be NULL (all defaults). Returns 0
 * and fills *out (free with fr_api_page_free), or -1 with err set and *out
 * zeroed: "api response: JSON at byte 12: ...", "api response: no list at
 * /data", "api response: /data is a string, not a list", "api response:
 * error 4 (OAuthException): (#4) Application request limit reached" (an
 * API's error object where the list should be). A list that is JSON null
 * reads as empty. */
int fr_api_map(const struct fr_api_spec *spec, const char *body, size_t len,
               const struct fr_api_map_opts *opts, struct fr_api_page *out, char *err,
               size_t errlen);

/* Frees what p owns and zeroes it. p may be zeroed already. */
void fr_api_page_free(struct fr_api_page *p);

/* The URL of the first link of rel "next" in a Link header value
 * ("<https://x/?max_id=1>; rel=\"next\", <...>; rel=\"prev\""), resolved
 * against base (may be NULL). malloc'd (caller frees), or NULL when there is
 * none or it is not http(s). */
char *fr_api_link_next(const char *link_header, const char *base);

/* url with query parameter name set to value (percent-encoded), replacing
 * any it had; the fragment is dropped. malloc'd (caller frees), or NULL on
 * out of memory or when url is not absolute http(s). */
char *fr_api_url_with_param(const char *url, const char *name, const char *value);

#endif
