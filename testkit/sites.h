/* sites.h - a static web for `freshet serve --sites MANIFEST`: every URL a
 * TSV manifest lists is answered from a file, a generated feed, a status, a
 * redirect or a literal text, on any host name (the server's any-host
 * mode). For testing feed discovery against pages saved from real sites. */
#ifndef FR_TESTKIT_SITES_H
#define FR_TESTKIT_SITES_H

#include <stddef.h>

struct fr_serve_req;
struct fr_serve_resp;

/* Largest file a manifest may serve (file:PATH). */
#define FR_SITES_FILE_MAX (16u << 20)

/* The manifest, one URL a line, fields separated by the first two tabs:
 *
 *   URL <TAB> TYPE <TAB> SOURCE
 *
 * URL: absolute http:// or https:// URL (no user info); it is matched on
 *   host (case-insensitive, port ignored), percent-decoded path and query as
 *   written, so http and https entries of one host+path+query clash.
 * TYPE: the Content-Type (e.g. "text/html; charset=utf-8"), type/subtype.
 * SOURCE, one of:
 *   file:PATH               the file's bytes; a relative PATH is relative to
 *                           the manifest's directory; at most FR_SITES_FILE_MAX
 *   feed:rss|atom|json|rdf  a small valid feed of that format, 3 items,
 *                           titled "Feed at URL"
 *   status:CODE             CODE 400..599 with a one-line body
 *   redirect:CODE:TARGET    CODE 301, 302, 303, 307 or 308, Location TARGET
 *   text:LITERAL            LITERAL as the body, with \n, \t and \\ read as
 *                           newline, tab and backslash
 * Lines whose first non-blank byte is '#', and blank lines, are skipped.
 * Any URL not listed is 404 (so is /robots.txt unless listed: allow all). */
struct fr_sites;

/* Reads the manifest at path and every file it names. Returns the web, or
 * NULL with err set: "PATH:LINE: reason" for a bad line (a missing field, a
 * bad URL, TYPE or SOURCE, an unreadable or too large file, a URL listed
 * twice), "PATH: reason" when it cannot be read or lists nothing. Caller
 * frees with fr_sites_free. */
struct fr_sites *fr_sites_load(const char *path, char *err, size_t errlen);

/* Frees w and everything it holds. NULL is ignored. */
void fr_sites_free(struct fr_sites *w);

/* Number of URLs the manifest lists. */
size_t fr_sites_count(const struct fr_sites *w);

/* The handler for the server's any-host mode (ctx = the web): answers
 * req->host_name + req->path + req->query from the manifest, else 404.
 * Bodies are the web's (released with it); a strong ETag is set on 200s.
 * Thread-safe: the web is read-only once loaded. */
int fr_sites_handle(void *ctx, const struct fr_serve_req *req, struct fr_serve_resp *resp);

/* The match key of an absolute http(s) URL: lower-case host (no port) +
 * percent-decoded path ("/" when empty) + "?" + query when it has one (no
 * fragment), into buf (len bytes). Returns 0, or -1 with *why set (a static
 * string) when url is not such a URL or the key does not fit. */
int fr_sites_url_key(const char *url, char *buf, size_t len, const char **why);

#endif
