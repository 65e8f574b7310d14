/* url.h - URLs for the crawler and the feed parser: RFC 3986 resolution of
 * relative references, normalisation for de-duplication, and the host and
 * path parts (for politeness and robots.txt). Built on libcurl's URL API;
 * no libcurl type appears here. */
#ifndef FR_NET_URL_H
#define FR_NET_URL_H

#include <stddef.h>

/* fr_url_normalize flags. */
#define FR_URL_STRIP_SESSION 1u /* drop session ids: PHPSESSID, jsessionid, sid, sessionid, session_id, utm_* */
#define FR_URL_SORT_QUERY 2u    /* sort the query parameters (byte order, stable) */

/* Resolves ref against base (RFC 3986 section 5). Blanks around either are
 * ignored and spaces inside are encoded as %20. An absolute ref is returned
 * as it is (parsed and re-serialised); base may be NULL only then. Schemes
 * libcurl does not speak (mailto:, tag:, at:) are accepted. Returns a
 * malloc'd absolute URL (caller frees with free), or NULL with err set
 * ("url 'REF': reason"). */
char *fr_url_resolve(const char *base, const char *ref, char *err, size_t errlen);

/* Normalises an absolute URL: scheme and host lower case, default port
 * dropped, dot segments removed, fragment removed, an empty path made "/";
 * with FR_URL_STRIP_SESSION the session-id parameters above are removed
 * from the query (case-insensitive names) and ";jsessionid=..." from the
 * path; with FR_URL_SORT_QUERY the parameters are sorted. An emptied query
 * is dropped with its '?'. Returns a malloc'd URL (caller frees), or NULL
 * with err set. */
char *fr_url_normalize(const char *url, unsigned flags, char *err, size_t errlen);

/* The host of an absolute URL in lower case, without port (an IPv6 literal
 * keeps its brackets). malloc'd (caller frees), or NULL if url has none or
 * is not a URL. */
char *fr_url_host(const char *url);

/* The path and query of an absolute URL ("/a/b?x=1"; "/" when the path is
 * empty), for robots.txt matching. malloc'd (caller frees), or NULL. */
char *fr_url_path_query(const char *url);

#endif
