/* page.h - what one forum page holds, read from its HTML alone, with no
 * knowledge of the forum software (SInFo phase 1 and 2, issue 8): the
 * page's kind (index, thread or other), its records (an index page's rows,
 * a thread page's posts) found by aligning the repeated DOM subtrees that
 * carry dates, each record's dates, links, author and text, and every link
 * of the page with its DOM position (so pagers can be found from URLs, not
 * anchor text: forum/furl.h). Pure: bytes in, a page out; no I/O, no clock
 * (the fetch time is passed in). libxml2's HTML parser, no network, no
 * entity expansion. */
#ifndef FR_FORUM_PAGE_H
#define FR_FORUM_PAGE_H

#include <stddef.h>
#include <stdint.h>

struct fr_fdate;

enum fr_fpage_kind {
	FR_FPAGE_OTHER,  /* login, FAQ, profile, search, a page with no record list */
	FR_FPAGE_INDEX,  /* a board: rows of threads (or of sub-boards), each a title link */
	FR_FPAGE_THREAD  /* posts */
};

#define FR_FPAGE_NO_DATE INT64_MIN
#define FR_FPAGE_MAX_NUMS 8 /* numbers kept per index row */

/* One <a href> of the page (also those inside records). */
struct fr_fpage_link {
	char *url;      /* absolute (resolved against the page URL and <base href>), fragment
	                   removed, "&amp;" decoded; http(s) only (others are not listed, nor
	                   an anchor into the page itself, href "#p1") */
	char *text;     /* anchor text, whitespace collapsed, trimmed ("" for an image link);
	                   the title attribute when the text is empty */
	uint32_t group; /* DOM position: links whose element paths from the root (tag names
	                   and class names with digits removed, no indices) are equal share a
	                   group number, numbered from 0 in document order of first use */
	int32_t record; /* index of the record holding the link, or -1 */
};

/* A record: an index row or a post. */
struct fr_fpage_record {
	/* Index rows: the link with the row's title (the thread or sub-board),
	 * from the link column with the longest total anchor text (-1 none;
	 * an index into links). */
	int32_t title_link;
	/* Index rows: creation and last-activity dates when the row shows them
	 * (Alg. 2: with two date columns, per row the older is the creation
	 * and the newer the last activity; with one, which it is is not known
	 * from the row: it is in date_s and created_s/last_s stay NO_DATE). */
	int64_t created_s, last_s;
	/* The record's date in its date column: a post's date; an index row's
	 * only date (one column) or its last activity (two). NO_DATE: none. */
	int64_t date_s;
	unsigned date_gran;  /* enum fr_fdate_gran of date_s */
	unsigned date_flags; /* FR_FDATE_* of date_s (RELATIVE, FROM_ATTR, ...) */
	/* Posts: the author's name as shown (NULL when not found), and the
	 * text the user wrote: block elements and <br> as line breaks, runs of
	 * blanks as one space, paragraphs joined by "\n\n", without the date,
	 * the author block, signatures or the post's header when they can be
	 * told apart; never empty for a post (NULL for rows). */
	char *author;
	char *text;
	/* Posts: what the post quotes (each quote with its header, "X wrote:",
	 * quotes apart by "\n\n") and the member's signature under it, in the
	 * same text flow; NULL when the post shows none. Kept out of text. */
	char *quote;
	char *signature;
	/* Posts in a nested (threaded) list: how deep in the tree (0 top). */
	unsigned depth;
	/* Index rows: the whole numbers the row shows on their own, outside
	 * links and dates, in document order ("4 Replies", "Replies: 4",
	 * "1.104" views, a number that is alone a link in its cell):
	 * where a reply count sits, it tells news without opening the thread. */
	int64_t nums[FR_FPAGE_MAX_NUMS];
	unsigned n_nums;
	/* The record's links: links[first_link .. first_link + n_links). */
	uint32_t first_link, n_links;
};

struct fr_fpage {
	enum fr_fpage_kind kind;
	char *url;     /* as passed */
	char *title;   /* <title>, trimmed, or NULL */
	char *lang;    /* <html lang> or NULL */
	struct fr_fpage_link *links;
	size_t n_links;
	struct fr_fpage_record *recs; /* in document order */
	size_t n_recs;
	/* Index pages: how many date columns the rows show (0, 1 or 2). */
	unsigned n_date_cols;
	/* Thread pages: the leading records out of date order in the date
	 * column (stickies or a pinned opening post: 0 or 1, Alg. 1). */
	unsigned n_lead_out_of_order;
};

/* Settings of one parse. */
struct fr_fpage_opts {
	/* The detector for dates (borrowed; not thread-safe, one per thread). */
	struct fr_fdate *dates;
	/* Comma-separated ICU locales the page may be in; NULL: the page's
	 * <html lang> (when ICU knows it) first, then FR_FDATE_DEFAULT_LOCALES. */
	const char *locales;
	/* Olson zone of the times shown; NULL: UTC. */
	const char *zone;
	/* When the page was fetched (Unix seconds): relative dates ("3 hours
	 * ago", "Yesterday, 10:15") are read against it. */
	int64_t now_s;
	/* Bodies larger than this are refused (0: 16 MiB). */
	size_t max_bytes;
	/* Query parameters to strip from every link as session ids, besides
	 * the known names and the long random values repeated across the
	 * page's links (comma-separated; NULL none): see
	 * fr_furl_strip_sessions. The page's url and links[] come without them. */
	const char *session_names;
};

/* Parses one page. url is the page's absolute address (for resolving
 * links). Returns 0 and *out (caller frees with fr_fpage_free), or -1 with
 * err set naming url: out of memory, a body over max_bytes, a zone or
 * locale ICU does not know. A page with nothing recognisable is not an
 * error: it is FR_FPAGE_OTHER with its links. */
int fr_fpage_parse(const char *html, size_t len, const char *url, const struct fr_fpage_opts *o,
                   struct fr_fpage **out, char *err, size_t errlen);

/* Frees p and everything it holds. NULL is fine. */
void fr_fpage_free(struct fr_fpage *p);

/* "other", "index", "thread". Static strings. */
const char *fr_fpage_kind_name(enum fr_fpage_kind k);

#endif
