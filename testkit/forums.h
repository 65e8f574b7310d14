/* forums.h - a world of N synthetic forums for `freshet serve --forums N`,
 * to test and benchmark incremental forum crawling (SInFo, issue 8): forum k
 * lives on host forum<k>.test (registrable domain forum<k>.test), served in
 * the server's any-host mode, and EVOLVES: new threads and posts appear as
 * the serve clock runs (compressed by --speed), at times drawn from (seed,
 * forum). Every answer is rendered on request from (seed, forum, forum
 * time); what is kept per forum is only the deterministic timeline of its
 * threads and posts, generated lazily as far as the clock has gone.
 *
 * Forum k's structure is row k % FR_TK_FORUMS_N_PROFILES of this table
 * (software k % 7; tpp/ppp: threads per index page, posts per thread page):
 *
 *  row software   lang date      rel  attr   index  thread idx-dates la stk tpp ppp
 *   0  phpBB      en   en-phpbb  none -      LAD    ASC    both      yes  2  25  10
 *   1  vBulletin  de   num-dot   day  -      LAD    ASC    last      yes  1  20  15
 *   2  SMF        en   en-long   day  -      LAD    ASC    last      yes  2  20  15
 *   3  XenForo    en   en-short  ago  time   LAD    ASC    both      yes  1  20  15
 *   4  Discuz!    zh   num-ymd   ago  title  LAD    ASC    both      yes  3  20  10
 *   5  custom     ru   text      none -      CRD    DSC    created   no   1  25  10
 *   6  threaded   nl   text      ago  time   CRD    ASC    created   no   0  25  15  nested
 *   7  phpBB      fr   text      none time   CRD    ASC    both      no   1  25  10
 *   8  vBulletin  en   num-mdy   none -      CRD    DSC    last      yes  2  20  12
 *   9  SMF        es   num-dmy   day  -      LAD    DSC    last      yes  0  20  15
 *  10  XenForo    de   text      ago  time   CRD    ASC    both      yes  2  20  15
 *  11  Discuz!    tr   text      none -      CRD    DSC    both      no   1  20  10
 *  12  custom     pl   text      none data   LAD    ASC    created   no   3  25  12
 *  13  threaded   de   num-dot2  ago  -      LAD    DSC    last      yes  1  22  12  nested
 *
 * - date: how absolute dates are written (forum_lang.h); rel: relative
 *   dates for recent times ("day": Today/Yesterday at hh:mm, exact to the
 *   minute; "ago": "3 hours ago", floor of the age, for under 7 days);
 *   attr: the exact time also in an attribute of every date element
 *   (<time datetime=RFC 3339>, title="YYYY-MM-DD hh:mm", data-time=Unix).
 * - index: threads on index pages by creation (CRD) or last activity (LAD),
 *   newest first; thread: posts oldest first (ASC: new posts on the last
 *   page) or newest first (DSC: new posts on page 1, the opening post pinned
 *   at the top of page 1). Nested forums show a tree: the opening post, then
 *   top-level replies in the thread order with their replies below them
 *   (oldest first), depth-first, paginated as one list.
 * - idx-dates: which dates index rows show (creation, last post, or both).
 * - la: last-activity links (a link from the index row to the page of the
 *   thread's newest post, and a mini pager) or only the title link.
 * - stk: sticky threads per board, pinned at the top of index page 1.
 *
 * Traits of real forums (issue 28), per row:
 *
 *  row session    marks  filters quotes      no year
 *   0  sid        -      yes     blockquote  -
 *   1  s          rows   yes     box         -
 *   2  PHPSESSID  -      -       header      -
 *   3  -          posts  -       blockquote  -
 *   4  -          -      -       blockquote  yes (MM/DD hh:mm)
 *   5  -          posts  -       table       -
 *   6  -          -      -       blockquote  -
 *   7  -          posts  yes     blockquote  -
 *   8  s          rows   yes     table       -
 *   9  -          rows   -       header      yes (DD/MM, hh:mm)
 *  10  -          -      -       blockquote  -
 *  11  -          rows   -       blockquote  -
 *  12  -          posts  -       box         -
 *  13  -          -      -       blockquote  -
 *
 * - session: the parameter carrying a session id in every link (a new id
 *   each half hour of forum time; requests with or without it are served).
 * - marks: rows (index) or posts whose first class word says read or
 *   unread ("unread row bg1"), one in three.
 * - filters: sort and filter links beside the board pagers ("&sk=t&sd=d",
 *   "&posticon=2", "&daysprune=30"), and per post a "posts by this user"
 *   (vBulletin) or a permalink "?p=N" (phpBB) link.
 * - quotes: see enum fr_tk_forum_qstyle. SMF shows "Today"/"Yesterday" in a
 *   <strong> with the time after it in the parent's text.
 * - no year: dates of the forum's current year without the year.
 * Forums with k % 8 == 3 are busy (12-30 new threads a day), the others
 * quiet (0.1-2.5). NOTE: keep docs/serve.md and PROFILES in forums.c in sync.
 *
 * URLs (ID: board or thread id, P: page, O: offset = (P-1) * page size):
 *   phpBB      /  /viewforum.php?f=ID[&start=O]  /viewtopic.php?t=ID[&start=O]
 *   vBulletin  /  /forumdisplay.php?f=ID[&page=P]  /showthread.php?t=ID[&page=P]
 *   SMF        /  /index.php?board=ID.O  /index.php?topic=ID.O
 *   XenForo    /  /forums/SLUG.ID/[page-P]  /threads/SLUG.ID/[page-P]
 *   Discuz!    /forum.php  /forum-ID-P.html  /thread-ID-P-1.html
 *   custom     /forum/  /forum/SLUG/[P.html]  /forum/SLUG/ID-SLUG/[P.html]
 *   threaded   /  /c/SLUG/[?page=P]  /c/SLUG/comments/ID/SLUG/[?page=P]
 * plus "other" pages linked from everywhere (member profiles, FAQ, login,
 * search) and /robots.txt: everything allowed but /login and /search. */
#ifndef FR_TESTKIT_FORUMS_H
#define FR_TESTKIT_FORUMS_H

#include "testkit/forum_lang.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct fr_serve_req;
struct fr_serve_resp;
struct fr_serve_clock;

#define FR_TK_FORUMS_MAX 10000u     /* most forums in a world */
#define FR_TK_FORUMS_N_PROFILES 14u /* rows of the table above */
#define FR_TK_FORUMS_URL_MAX 256    /* longest URL, with the NUL */

/* NOTE: keep in the order of SW_NAMES in forums.c. */
enum fr_tk_forum_sw {
	FR_TK_FORUM_PHPBB,
	FR_TK_FORUM_VBULLETIN,
	FR_TK_FORUM_SMF,
	FR_TK_FORUM_XENFORO,
	FR_TK_FORUM_DISCUZ,
	FR_TK_FORUM_CUSTOM,
	FR_TK_FORUM_THREADED,
	FR_TK_FORUM_N_SW
};

enum fr_tk_forum_isort { FR_TK_FORUM_CRD, FR_TK_FORUM_LAD };
enum fr_tk_forum_tsort { FR_TK_FORUM_ASC, FR_TK_FORUM_DSC };
enum fr_tk_forum_idates {
	FR_TK_FORUM_IDATES_BOTH,
	FR_TK_FORUM_IDATES_CREATED,
	FR_TK_FORUM_IDATES_LAST
};
enum fr_tk_forum_attr {
	FR_TK_FORUM_ATTR_NONE,
	FR_TK_FORUM_ATTR_TIME,
	FR_TK_FORUM_ATTR_TITLE,
	FR_TK_FORUM_ATTR_DATA
};

/* How a forum's pagination carries its specific number. */
enum fr_tk_forum_pag {
	FR_TK_FORUM_PAG_PARAM_OFFSET, /* phpBB: &start=O */
	FR_TK_FORUM_PAG_PARAM_PAGE,   /* vBulletin &page=P, threaded ?page=P */
	FR_TK_FORUM_PAG_OFFSET,       /* SMF: board=ID.O, topic=ID.O */
	FR_TK_FORUM_PAG_PATH          /* XenForo page-P, Discuz! -P-, custom P.html */
};

/* Session ids in links (a new one each half hour of forum time, as a
 * cookieless visitor gets): phpBB "sid", vBulletin "s", SMF "PHPSESSID". */
enum fr_tk_forum_sess {
	FR_TK_FORUM_SESS_NONE,
	FR_TK_FORUM_SESS_SID,
	FR_TK_FORUM_SESS_S,
	FR_TK_FORUM_SESS_PHP
};

/* Quotes: <blockquote> with a <cite> header; a header box then a
 * <blockquote> (SMF); a box of boxes with "Originally Posted by" (vBulletin
 * 4); a "Quote:" label over a table (vBulletin 3, phpBB 2). */
enum fr_tk_forum_qstyle {
	FR_TK_FORUM_Q_BLOCKQUOTE,
	FR_TK_FORUM_Q_HEADER,
	FR_TK_FORUM_Q_BOX,
	FR_TK_FORUM_Q_TABLE
};

/* One row of the table above. */
struct fr_tk_forum_profile {
	enum fr_tk_forum_sw sw;
	enum fr_tk_forum_lang lang;
	enum fr_tk_forum_dstyle dstyle;
	enum fr_tk_forum_rel rel;
	enum fr_tk_forum_attr attr;
	enum fr_tk_forum_isort isort;
	enum fr_tk_forum_tsort tsort;
	enum fr_tk_forum_idates idates;
	int la_links;
	unsigned stickies;
	unsigned threads_pp, posts_pp;
	int nested;
	/* Traits of real forums (issue 28), the table's second part. */
	enum fr_tk_forum_sess sess; /* a session id in every link of the forum's pages */
	int marks;               /* rows and posts marked read/unread by a first class */
	int filters;             /* filter and sort links beside the pagers */
	enum fr_tk_forum_qstyle qstyle; /* how quotes are laid out */
	int noyear;              /* dates of the current year shown without it */
};

/* The structure of forum k. */
void fr_tk_forums_profile(uint32_t k, struct fr_tk_forum_profile *out);

/* The pagination kind of a software. */
enum fr_tk_forum_pag fr_tk_forums_pagination(enum fr_tk_forum_sw sw);

/* Names for tables and messages: "phpbb", "vbulletin", "smf", "xenforo",
 * "discuz", "custom", "threaded"; "CRD"/"LAD"; "ASC"/"DSC"; "param-offset",
 * "param-page", "offset", "path"; "both", "created", "last"; "none", "time",
 * "title", "data". Static strings. */
const char *fr_tk_forums_sw_name(enum fr_tk_forum_sw sw);
const char *fr_tk_forums_isort_name(enum fr_tk_forum_isort s);
const char *fr_tk_forums_tsort_name(enum fr_tk_forum_tsort s);
const char *fr_tk_forums_pag_name(enum fr_tk_forum_pag p);
const char *fr_tk_forums_idates_name(enum fr_tk_forum_idates d);
const char *fr_tk_forums_attr_name(enum fr_tk_forum_attr a);

/* Forum k's entry URL ("http://forum<k>.test/", "/forum/" for custom,
 * "/forum.php" for Discuz!) into buf; returns buf. */
char *fr_tk_forums_entry_url(uint32_t k, char *buf, size_t len);

struct fr_tk_forums_config {
	uint32_t n_forums;                  /* 1 .. FR_TK_FORUMS_MAX */
	uint64_t seed;                      /* everything random: rates, times, words */
	const struct fr_serve_clock *clock; /* borrowed, outlives the world: forum time
	                                       (start_s, speed); history is generated
	                                       before start_s */
};

struct fr_tk_forums;

/* A world of forums. Returns NULL with err set on a bad config or out of
 * memory. Free with fr_tk_forums_free. */
struct fr_tk_forums *fr_tk_forums_new(const struct fr_tk_forums_config *cfg, char *err,
                                      size_t errlen);
void fr_tk_forums_free(struct fr_tk_forums *w);

/* Number of forums. */
uint32_t fr_tk_forums_n(const struct fr_tk_forums *w);

/* The handler for the server's any-host mode (ctx = the world): answers
 * Host forum<k>.test (k < N) at forum time clock(req->wall_s); any other
 * host is 404. Bodies are malloc'd per answer (released with free); 200s
 * carry a strong ETag (a hash of the body). Thread-safe. Returns -1 on out
 * of memory. */
int fr_tk_forums_handle(void *ctx, const struct fr_serve_req *req, struct fr_serve_resp *resp);

/* Writes the truth at forum time t_s to out, TSV with a header:
 *   host thread_id thread_url post_no post_id author published_s text_hash
 *   sticky_thread pinned_post parent_no
 * one line per post that exists at t_s (published_s <= t_s), forums in
 * order, threads by id, posts by number (0 is the opening post). text_hash
 * is fr_tk_forums_text_hash of the post's text; parent_no is the number of the
 * post replied to in nested forums, else -1. *rows (may be NULL) gets the
 * number of posts. Returns 0, or -1 with err naming name (write error or
 * out of memory). */
int fr_tk_forums_write_truth(struct fr_tk_forums *w, FILE *out, double t_s, size_t *rows,
                          const char *name, char *err, size_t errlen);

/* Writes every forum's entry URL, one a line. Returns 0, or -1 with err set
 * naming name on a write error. */
int fr_tk_forums_write_list(const struct fr_tk_forums *w, FILE *out, const char *name, char *err,
                         size_t errlen);

/* Writes the structure of every forum, TSV with a header:
 *   host entry_url software index_sort thread_sort pagination lang date_style
 *   relative attr index_dates last_activity_links stickies threads_per_page
 *   posts_per_page nested busy threads_per_day boards born_s
 * Returns 0, or -1 with err set naming name on a write error. */
int fr_tk_forums_write_describe(struct fr_tk_forums *w, FILE *out, const char *name, char *err,
                             size_t errlen);

/* FNV-1a 64 of a post's text as the truth hashes it: its paragraphs joined
 * by "\n\n", without markup, quotes or signature. */
uint64_t fr_tk_forums_text_hash(const char *text, size_t len);

#endif
