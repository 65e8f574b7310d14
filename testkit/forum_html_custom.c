/* forum_html_custom.c - the pages of the synthetic forums in the markup of
 * a custom forum: one instance of the ops table of forum_html_ops.h, which
 * forum_html.c renders every page through. */
#include "testkit/forum_html_ops.h"

#include "testkit/forum_gen.h"
#include "testkit/forum_url.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void
header(struct rc *c, const char *section, int b, const char *thread)
{
	const struct fr_tk_forum *f = c->f;
	enum fr_tk_forum_sw sw = c->p->sw;
	char url[U];

	(void)section;
	(void)thread;

	P(c, "<body>\n<table class=\"layout\" width=\"100%\"><tr><td "
	     "class=\"top\">\n<div class=\"logo\">");
	A(c, "/", f->name, NULL);
	P(c, "</div>\n<div class=\"menu\">");
	A(c, "/forum/", c->ui->forum, NULL);
	P(c, " | ");
	A(c, fr_tk_forum_url_other(sw, FR_TK_FURL_FAQ, url), c->ui->faq, NULL);
	P(c, " | ");
	A(c, fr_tk_forum_url_other(sw, FR_TK_FURL_SEARCH, url), c->ui->search, NULL);
	P(c, " | ");
	A(c, fr_tk_forum_url_other(sw, FR_TK_FURL_LOGIN, url), c->ui->login, NULL);
	P(c, "</div>\n<div class=\"path\">");
	A(c, "/forum/", c->ui->board_index, NULL);
	if (b >= 0) {
		P(c, " / ");
		A(c, fr_tk_forum_url_board(f, (unsigned)b, 1, url), f->boards[b].name, NULL);
	}
	P(c, "</div>\n</td></tr><tr><td class=\"content\">\n");
}

static void
footer(struct rc *c)
{
	P(c, "</td></tr><tr><td class=\"bottom\">\n<p>");
	X(c, c->ui->now_is);
	P(c, ": ");
	now_el(c);
	P(c, " (");
	X(c, c->ui->all_times);
	P(c, ")</p>\n<p>");
}

static void
pager(struct rc *c, const struct pager *pg)
{
	char url[U];
	uint32_t p;

	if (pg->last <= 1)
		return;
	F(c, "<p class=\"pages\">%s:", c->ui->page);
	for (p = 1; p <= pg->last; p++) {
		if (p == pg->cur)
			F(c, " <b>%u</b>", (unsigned)p);
		else
			F(c, " <a href=\"%s\">%u</a>", pager_url(c, pg, p, url), (unsigned)p);
	}
	if (pg->cur < pg->last)
		F(c, " <a href=\"%s\">%s &raquo;</a>", pager_url(c, pg, pg->cur + 1, url),
		  c->ui->next);
	P(c, "</p>\n");
}

static void
index_open(struct rc *c, unsigned b)
{
	const struct fr_tk_fboard *bd = &c->f->boards[b];

	P(c, "<h1>");
	X(c, bd->name);
	P(c, "</h1>\n");
}

static void
rows_open(struct rc *c)
{
	F(c,
	  "<table class=\"threads\" cellspacing=\"1\"><tr><th>%s</th><th>%s</th><th>"
	  "%s</th><th>%s</th><th>%s</th><th>%s</th></tr>\n",
	  c->ui->topics, c->ui->by, c->ui->posted_on, c->ui->replies, c->ui->views,
	  c->ui->last_post);
}

static void
index_row(struct rc *c, const struct row *r, int sticky)
{
	const struct fr_tk_forum *f = c->f;
	const struct fr_tk_fthread *th = r->th;
	uint32_t views = fr_tk_forum_gen_views(f, r->i, c->now);
	uint32_t replies = r->n - 1;

	F(c, "<tr class=\"thread%s\" id=\"t%u\"><td class=\"title\">", sticky ? " pinned" : "",
	  (unsigned)th->id);
	if (sticky)
		F(c, "<b>%s:</b> ", c->ui->sticky);
	A(c, r->url, r->title, "thread-title");
	mini_pager(c, r, " <span class=\"tpages\">(", " )</span>");
	P(c, "</td><td class=\"author\">");
	member_link(c, th->author[0], NULL);
	P(c, "</td><td class=\"started\">");
	if (show_created(c))
		date_el(c, r->created, "date-created");
	F(c, "</td><td class=\"num\">%u</td><td class=\"num\">%u</td><td class=\"last\">",
	  (unsigned)replies, (unsigned)views);
	if (show_last(c))
		date_el(c, r->last, "date-last");
	if (c->p->la_links) {
		P(c, " <a href=\"");
		X(c, r->la_url);
		P(c, "\">&raquo;</a>");
	}
	P(c, "</td></tr>\n");
}

static void
post(struct rc *c, size_t i, uint32_t j, uint32_t depth, const char *title)
{
	const struct fr_tk_forum *f = c->f;
	const struct fr_tk_fthread *th = &f->th[i];
	uint32_t m = th->author[j];
	uint32_t pid = th->pid[j];
	unsigned no = (unsigned)j + 1;
	int pinned = c->p->tsort == FR_TK_FORUM_DSC && j == 0 && th->n > 1 && !c->p->nested;

	(void)depth;
	(void)title;

	F(c,
	  "<div class=\"%spost%s\" id=\"post-%u\"><div class=\"%spost-head\"><span "
	  "class=\"post-author\">",
	  mark(c, 2, pid), pinned ? " pinned" : "", (unsigned)pid, mark(c, 2, pid));
	member_link(c, m, NULL);
	P(c, "</span> ");
	date_el(c, th->t[j], "date-post");
	F(c,
	  " <a class=\"post-no\" href=\"#post-%u\">#%u</a></div>\n<div "
	  "class=\"post-body\">",
	  (unsigned)pid, no);
	post_body(c, i, j, 0);
	F(c, "</div>\n<div class=\"post-foot\">%s: ", c->ui->joined);
	date_el(c, fr_tk_forum_gen_member_joined(f, m), "date-joined");
	F(c, ", %s: %u</div></div>\n", c->ui->posts,
	  (unsigned)fr_tk_forum_gen_member_posts(f, m, c->now));
}

static void
thread_open(struct rc *c, const struct fr_tk_fthread *th, size_t i, uint32_t n, uint32_t page,
            const char *title, const struct pager *pg)
{
	(void)th;
	(void)i;
	(void)n;
	(void)page;

	P(c, "<h1>");
	X(c, title);
	P(c, "</h1>\n");
	pager(c, pg);
	P(c, "<div class=\"posts\">\n");
}

static void
thread_close(struct rc *c, const struct pager *pg)
{
	P(c, "</div>\n");
	pager(c, pg);
}

static void
entry_open(struct rc *c)
{
	F(c,
	  "<h1>%s</h1>\n<table class=\"boards\"><tr><th>%s</th><th>%s</th><th>%s</th>"
	  "<th>%s</th></tr>\n",
	  c->ui->board_index, c->ui->forum, c->ui->topics, c->ui->posts, c->ui->last_post);
}

static void
entry_board(struct rc *c, unsigned b, const struct fr_tk_fboard *bd, const char *url,
            const struct board_stats *st)
{
	P(c, "<tr><td>");
	A(c, url, bd->name, "board");
	P(c, "<br><small>");
	board_desc(c, b);
	F(c, "</small></td><td>%lu</td><td>%lu</td><td>", st->topics, st->posts);
}

const struct fr_tk_forum_html_ops fr_tk_forum_html_custom = {
    .css = "/forum/style.css",
    .powered = "Forum software written by the club's volunteers.",
    .title_sep = " - ",
    .footer_close = "</p>\n</td></tr></table>\n",
    .post_frag = "#post-",
    .rows_close = "</table>\n",
    .entry_row_close = "</td></tr>\n",
    .entry_close = "</table>\n",
    .filters = NULL,
    .entry_now = 0,
    .nested_list = 0,
    .header = header,
    .footer = footer,
    .pager = pager,
    .index_open = index_open,
    .rows_open = rows_open,
    .index_row = index_row,
    .post = post,
    .thread_open = thread_open,
    .thread_close = thread_close,
    .entry_open = entry_open,
    .entry_board = entry_board,
};
