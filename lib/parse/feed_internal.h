/* feed_internal.h - what the feed parser's files share (not for callers):
 * a capped string buffer, the builder the XML and JSON front ends fill, and
 * the finishing steps (identity, link resolution, HTML unescaping). */
#ifndef FR_PARSE_FEED_INTERNAL_H
#define FR_PARSE_FEED_INTERNAL_H

#include "parse/feed.h"

#include <stddef.h>
#include <stdint.h>

/* A growable byte buffer, always NUL-terminated once anything was added. */
struct fb_buf {
	char *p;
	size_t n, cap;
	size_t max; /* adding past max fails */
};

int fr_fb_add(struct fb_buf *b, const char *s, size_t n);
int fr_fb_addc(struct fb_buf *b, char c);
/* Appends s with &, <, > (and " when quot) escaped as XML entities. */
int fr_fb_add_escaped(struct fb_buf *b, const char *s, size_t n, int quot);
/* Takes the contents as a malloc'd string (NULL if empty), leaving b empty. */
char *fr_fb_take(struct fb_buf *b);
void fr_fb_reset(struct fb_buf *b);
void fr_fb_free(struct fb_buf *b);

/* Which source set a field: lower ranks win (RANK_NONE: unset). */
#define RANK_NONE 255

/* Item fields with precedence. */
enum { IF_TITLE, IF_LINK, IF_AUTHOR, IF_SUMMARY, IF_CONTENT, IF_PUB, IF_UPD, IF_ID, IF_COMMENTS, IF_N };
/* Feed fields with precedence. */
enum { FF_TITLE, FF_LINK, FF_SUBTITLE, FF_LANGUAGE, FF_UPDATED, FF_AUTHOR, FF_RIGHTS, FF_INFO, FF_N };

struct feedb {
	struct fr_feed *f;
	size_t cap_items;
	struct fr_feed_item *cur; /* the open item, or NULL */
	unsigned char irank[IF_N];
	unsigned char frank[FF_N];
	int guid_permalink;      /* RSS guid isPermaLink (default 1) */
	size_t cap_tags, cap_enc;
	const char *base_url;    /* opts->base_url, may be NULL */
	size_t max_bytes;
	size_t max_items;
	int oom;                 /* an allocation failed: the parse fails */
	int fp_result;           /* opts->fp_result */
	int fp_stream_flags;     /* opts->fp_json_flags with opts->fp_stream, else -1 */
	int lazy_summary;        /* opts->summary_if_no_content */
	/* Called when the open item ends, before anything else is done with
	 * it (the XML front end's deferred summaries), or NULL. */
	void (*on_item_end)(void *ctx);
	void *on_item_end_ctx;
};

int fr_feedb_init(struct feedb *b, const struct fr_feed_opts *o);
/* Opens a new item (closing any open one). -1 on out of memory. */
int fr_feedb_item_begin(struct feedb *b);
void fr_feedb_item_end(struct feedb *b);
/* Sets an item or feed string field from the owned value v (freed when it
 * loses to a better-ranked value already set, or is empty). */
void fr_feedb_item_str(struct feedb *b, int field, char *v, int rank);
void fr_feedb_feed_str(struct feedb *b, int field, char *v, int rank);
void fr_feedb_item_date(struct feedb *b, int field, const char *s, size_t n, int rank);
void fr_feedb_feed_date(struct feedb *b, const char *s, size_t n, int rank);
void fr_feedb_item_tag(struct feedb *b, char *v);           /* takes v */
void fr_feedb_item_enclosure(struct feedb *b, char *url, char *type, int64_t length); /* takes url, type */
void fr_feedb_bozo(struct feedb *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Identity, link fallbacks, trimming. Call once after the front end. */
void fr_feedb_finish(struct feedb *b);
/* Frees the half-built feed (on failure). */
void fr_feedb_abort(struct feedb *b);

/* Strips blanks around s in place; returns s. */
char *fr_feed_trim(char *s);
/* Decodes HTML character references (&amp; &eacute; &#233; &#xE9;) once,
 * in place (the result is never longer). Unknown names stay as they are. */
void fr_feed_html_unescape(char *s);
/* UTF-8 of an HTML 4 entity name (without & and ;), or NULL. */
const char *fr_feed_html_entity(const char *name, size_t n, char *utf8, size_t cap);
/* A malloc'd absolute URL for ref against base (ref itself, trimmed, when it
 * cannot be resolved), or NULL on out of memory. */
char *fr_feed_resolve(const char *base, const char *ref);
/* HTML with relative href= and src= values resolved against base: a new
 * malloc'd string, or html itself (unchanged, not copied) when nothing
 * needed resolving or base is NULL. */
char *fr_feed_resolve_html(char *html, const char *base);
/* The HTML fragment html[0..len) parsed with libxml2's HTML parser and
 * written back: relative URIs (feedparser's list of element/attribute
 * pairs) resolved against base (may be NULL), and, when sanitize, only
 * feedparser's allowed elements, attributes, CSS and URI schemes kept
 * (script, style and applet with their content). Trimmed, CRLF as LF.
 * A malloc'd string, NULL on out of memory. */
char *fr_feed_sanitize_html(const char *html, size_t len, const char *base, int sanitize);
/* The same, reusing the HTML parser context in *san (made on first use;
 * the caller frees it with fr_feed_san_free). san may be NULL. */
struct fr_san;
char *fr_feed_sanitize_html_r(struct fr_san **san, const char *html, size_t len, const char *base,
                              int sanitize);
void fr_feed_san_free(struct fr_san *san);
/* A flag of fr_feed_sanitize_html's sanitize: character and entity references
 * come out as written (feedparser's SGML pass keeps them), "&#39;" and
 * "&#34;" as their characters, unknown entity names as "&amp;name", C1
 * character references as their windows-1252 characters; text is not
 * escaped again but for '<'. */
#define FEED_SAN_KEEPREFS 2

/* feedparser's result model (fpx.c), fed the XML front end's events. */
struct fpx;
struct json_object;
/* A new model; base_url may be NULL; over max_items entries (0: no cap)
 * the newest are kept, as the feed's items. stream_flags >= 0: the
 * entries are serialised with these json-c flags as they are complete
 * (fr_fpx_take_texts), -1: kept as models (fr_fpx_take). NULL on out of
 * memory. */
struct fpx *fr_fpx_new(const char *base_url, size_t max_items, int stream_flags);
void fr_fpx_free(struct fpx *p);
/* A namespace declaration (prefix NULL for the default namespace). */
void fr_fpx_ns(struct fpx *p, const char *prefix, const char *uri);
/* feedparser's prefix for a namespace URI ("" for the feed formats' own),
 * or NULL when it knows none. */
const char *fr_fpx_ns_prefix(const char *uri);
/* A start tag: tag is "prefix:local" or "local" in lower case; kv holds n
 * key, value pairs (keys in lower case, later duplicates win). */
void fr_fpx_start(struct fpx *p, const char *tag, const char *const *kv, size_t n);
void fr_fpx_end(struct fpx *p, const char *tag);
void fr_fpx_text(struct fpx *p, const char *s, size_t n);
int fr_fpx_oom(const struct fpx *p);
/* The feed dict (feed 1) or the entries array (feed 0); the caller owns it. */
struct json_object *fr_fpx_take(struct fpx *p, int feed);
/* When streaming: the entries' texts in document order, *n of them, each
 * malloc'd, in a malloc'd array (NULL when none); the caller owns them. */
char **fr_fpx_take_texts(struct fpx *p, size_t *n);
/* For the tests: 1 when the sorted tables are sorted. */
int fr_fpx_ns_sorted(void);
int fr_fpx_handlers_sorted(void);
/* Whether uri has no scheme or one of feedparser's acceptable schemes
 * (http, https, ftp, mailto, ...; never javascript:, data:, vbscript:). */
int fr_feed_uri_scheme_ok(const char *uri);
/* Whether name (lower case) is one of feedparser's acceptable elements. */
int fr_feed_html_element_ok(const char *name);
/* Decodes base64 (blanks ignored) into a malloc'd NUL-terminated string, or
 * NULL when s is not base64. */
char *fr_feed_base64(const char *s, size_t n);
/* s as well-formed UTF-8: each invalid byte becomes U+FFFD. Returns s
 * when it already is, else a new string (s freed); NULL on out of memory
 * (s freed). */
char *fr_feed_utf8_fix(char *s);
/* Whether s[0..n) is well-formed UTF-8. */
int fr_feed_utf8_valid(const char *s, size_t n);
/* What fr_feed_fix_references did, for bozo messages (lines are 1-based, 0 none). */
struct feed_fix_info {
	unsigned long bare_line;  /* first '&' that starts no reference */
	unsigned long undef_line; /* first undefined entity, kept as text */
	char undef_name[32];
	unsigned long nul_line;   /* first &#0; (or other forbidden character reference) */
	unsigned long cut_line;   /* first internal entity not expanded (depth or size bound) */
	size_t n_expanded;        /* internal entity references expanded */
	size_t doctype_start, doctype_end;
};

/* Prepares the references of buf (an ASCII-compatible encoding) for
 * libxml2, outside comments, CDATA, processing instructions and the
 * DOCTYPE: an '&' that starts no reference ("Fish & Chips", "?a=1&b=2")
 * becomes "&amp;"; an HTML entity name that XML does not know ("&nbsp;")
 * becomes a character reference ("&#160;"); a reference to an internal
 * entity declared in the DOCTYPE whose value holds no entity reference
 * (feedparser's "safe" entities) is replaced by its text (adding at most
 * max(8 MiB, 4 len) bytes in all); nested ones, external entities (never
 * read) and undefined names stay as text ("&amp;name;");
 * character references XML forbids (&#0;) become U+FFFD.
 * Returns 1 with *out a malloc'd copy and *out_len, 0 when nothing needed
 * changing (*out NULL), -1 on out of memory. */
int fr_feed_fix_references(const char *buf, size_t len, char **out, size_t *out_len,
                        struct feed_fix_info *info);
/* Start tags with more attributes than this lose the rest (libxml2's
 * duplicate check is quadratic in their number). */
#define FR_FEED_MAX_ATTRS 256
/* A copy of buf[0..len) (an ASCII-compatible encoding) in which every
 * start tag outside comments, CDATA, PIs and the DOCTYPE keeps only its
 * first FR_FEED_MAX_ATTRS attributes. Returns 1 with *out (malloc'd),
 * *out_len and *line (the first such tag's line), 0 when no tag had more
 * (*out NULL), -1 on out of memory. */
int fr_feed_cap_attributes(const char *buf, size_t len, char **out, size_t *out_len, unsigned long *line);
/* Writes a code point as UTF-8 (U+FFFD for invalid ones); returns the length. */
size_t fr_feed_utf8(uint32_t cp, char *out);

/* The front ends. Each fills b->f from buf; 0, or -1 with err set when buf
 * is not a feed (b is then aborted by the caller). */
int fr_feed_parse_xml(struct feedb *b, const char *buf, size_t len, const struct fr_feed_opts *o,
                   char *err, size_t errlen);
int fr_feed_parse_json(struct feedb *b, const char *buf, size_t len, unsigned max_depth, char *err,
                    size_t errlen);

#endif
