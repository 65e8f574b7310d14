/* forum_html_ops.h - what forum_html.c (the page flows and the shared
 * helpers) and the files of the seven forum products (forum_html_<product>.c)
 * share: the render context, the helpers, and the ops table each product
 * fills with its markup. Internal to testkit/ (forum_html*.c). */
#ifndef FR_TESTKIT_FORUM_HTML_OPS_H
#define FR_TESTKIT_FORUM_HTML_OPS_H

#include "testkit/forum_gen.h"
#include "testkit/forum_lang.h"
#include "testkit/forums.h"
#include "testkit/text.h"

#include <stddef.h>
#include <stdint.h>

#define U FR_TK_FORUMS_URL_MAX

struct fr_tk_forum_html_ops;

/* One page being rendered: the forum, its profile and words, the time, the
 * text the page goes to, and its product's ops. */
struct rc {
	const struct fr_tk_forum *f;
	const struct fr_tk_forum_profile *p;
	const struct fr_tk_forum_ui *ui;
	const char *host;
	double now_s;
	int64_t now;
	struct fr_text *t;
	const struct fr_tk_forum_html_ops *ops;
};

/* What a pager pages through. */
struct pager {
	int thread; /* 0: board b, 1: thread i */
	unsigned b;
	size_t i;
	uint32_t cur, last;
	unsigned long items; /* threads or posts, for "N topics" */
};

/* One row of an index page. */
struct row {
	size_t i;
	const struct fr_tk_fthread *th;
	uint32_t n, pages, la_page;
	int64_t created, last;
	char title[200], url[U], la_url[U + 24];
};

/* A board on the entry page. */
struct board_stats {
	unsigned long topics, posts;
	int64_t last;
	size_t last_i;
	int has_last;
};

/* The markup of one forum product. The page flows of forum_html.c call
 * these in order; each writes its part of the page to c->t. Strings are
 * static, written as they are (already HTML). */
struct fr_tk_forum_html_ops {
	const char *css;             /* the stylesheet's URL (escaped when written) */
	const char *powered;         /* the footer's "powered by" */
	const char *title_sep;       /* between the page's and the forum's name in <title> */
	const char *footer_close;    /* after powered */
	const char *post_frag;       /* a post's URL fragment before its id ("#p") */
	const char *rows_close;      /* after an index page's rows */
	const char *entry_row_close; /* after a board row of the entry page */
	const char *entry_close;     /* after the entry page's board rows */
	const char *const *filters;  /* 3 filter parameters beside the pagers, or NULL */
	int entry_now;               /* the entry page says the time above the boards */
	int nested_list;             /* thread pages are nested lists of comments */
	/* The site header, navigation and breadcrumbs (board b when >= 0, thread
	 * title when not NULL), after <head>. */
	void (*header)(struct rc *c, const char *section, int b, const char *thread);
	/* The footer, before powered. */
	void (*footer)(struct rc *c);
	void (*pager)(struct rc *c, const struct pager *pg);
	/* An index page: its title, then (after the pager and filters) the
	 * opening of its rows, then each row. */
	void (*index_open)(struct rc *c, unsigned b);
	void (*rows_open)(struct rc *c);
	void (*index_row)(struct rc *c, const struct row *r, int sticky);
	/* Post j of thread i at depth (nested forums) on a thread page. */
	void (*post)(struct rc *c, size_t i, uint32_t j, uint32_t depth, const char *title);
	/* A thread page's title and top pager (n posts, page of pg); its end. */
	void (*thread_open)(struct rc *c, const struct fr_tk_fthread *th, size_t i, uint32_t n,
	                    uint32_t page, const char *title, const struct pager *pg);
	void (*thread_close)(struct rc *c, const struct pager *pg);
	/* The entry page's board list, and a board row up to its last post. */
	void (*entry_open)(struct rc *c);
	void (*entry_board)(struct rc *c, unsigned b, const struct fr_tk_fboard *bd,
	                    const char *url, const struct board_stats *st);
};

/* One instance per product, in forum_html_<product>.c. */
extern const struct fr_tk_forum_html_ops fr_tk_forum_html_phpbb;
extern const struct fr_tk_forum_html_ops fr_tk_forum_html_vbulletin;
extern const struct fr_tk_forum_html_ops fr_tk_forum_html_smf;
extern const struct fr_tk_forum_html_ops fr_tk_forum_html_xenforo;
extern const struct fr_tk_forum_html_ops fr_tk_forum_html_discuz;
extern const struct fr_tk_forum_html_ops fr_tk_forum_html_custom;
extern const struct fr_tk_forum_html_ops fr_tk_forum_html_threaded;

/* ---- the helpers every product uses (forum_html.c) ---- */

/* s as it is; s escaped for HTML; printf. */
static inline void
P(struct rc *c, const char *s)
{
	fr_text_puts(c->t, s);
}

static inline void
X(struct rc *c, const char *s)
{
	fr_text_xml(c->t, s);
}

#define F(c, ...) fr_text_printf((c)->t, __VA_ARGS__)

/* <a href="url"[ class="cls"]>text</a>, url and text escaped. */
static inline void
A(struct rc *c, const char *url, const char *text, const char *cls)
{
	P(c, "<a href=\"");
	X(c, url);
	if (cls) {
		P(c, "\" class=\"");
		P(c, cls);
	}
	P(c, "\">");
	X(c, text);
	P(c, "</a>");
}

/* The shared helpers are exported as fr_tk_forum_html_NAME (the test kit's
 * names follow their file, docs/architecture.md); the short names below are
 * what the renderers call them. */
#define date_el fr_tk_forum_html_date_el
#define now_el fr_tk_forum_html_now_el
#define member_link fr_tk_forum_html_member_link
#define mark fr_tk_forum_html_mark
#define pager_url fr_tk_forum_html_pager_url
#define shown_page fr_tk_forum_html_shown_page
#define mini_pager fr_tk_forum_html_mini_pager
#define show_created fr_tk_forum_html_show_created
#define show_last fr_tk_forum_html_show_last
#define post_body fr_tk_forum_html_post_body
#define signature fr_tk_forum_html_signature
#define board_desc fr_tk_forum_html_board_desc

/* A date element of class cls, as the forum shows it (relative or not, with
 * the exact time in an attribute or not). */
void date_el(struct rc *c, int64_t t, const char *cls);
/* The current forum time, always absolute (class date-now). */
void now_el(struct rc *c);
/* A link to member m's profile, with class cls (NULL: none). */
void member_link(struct rc *c, uint32_t m, const char *cls);
/* The class word marking a row (kind 1) or post (kind 2) read or unread,
 * first in its class list; "" when the profile marks none of that kind. */
const char *mark(const struct rc *c, int kind, uint32_t id);
/* The URL of page `page` of what pg pages through, escaped for HTML, in buf
 * (U bytes); returns buf. */
char *pager_url(struct rc *c, const struct pager *pg, uint32_t page, char *buf);
/* Whether a pager shows page p: the first, the last, the current one +- 2. */
int shown_page(uint32_t p, uint32_t cur, uint32_t last);
/* A mini pager of a row's thread pages 1, 2, 3 ... last (la forums only),
 * between open and close. */
void mini_pager(struct rc *c, const struct row *r, const char *open, const char *close);
/* Whether index rows show the creation and the last post's date. */
int show_created(const struct rc *c);
int show_last(const struct rc *c);
/* The text of post j of thread i as HTML: paragraphs as <p> or separated by
 * <br><br> (br), after its quote when it has one. */
void post_body(struct rc *c, size_t i, uint32_t j, int br);
/* Member m's signature (one in three members), between open and close. */
void signature(struct rc *c, uint32_t m, const char *open, const char *close);
/* A board's description (six words). */
void board_desc(struct rc *c, unsigned b);

#endif
