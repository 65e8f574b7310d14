/* forum_html_threaded.c - the pages of the synthetic forums in the markup of
 * a threaded (nested comments) site: one instance of the ops table of
 * forum_html_ops.h, which forum_html.c renders every page through. Comments
 * are posts; the opening post is rendered by thread_open. */
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

	P(c, "<body class=\"listing-page\">\n<div id=\"header\" role=\"banner\"><div "
	     "id=\"sr-header-area\"><div class=\"sr-list\"><ul class=\"flat-list sr-bar\">");
	for (unsigned i = 0; i < f->n_boards; i++) {
		P(c, "<li>");
		A(c, fr_tk_forum_url_board(f, i, 1, url), f->boards[i].slug, "choice");
		P(c, "</li>");
	}
	P(c, "</ul></div></div>\n<div id=\"header-bottom-left\">");
	A(c, "/", f->name, "default-header");
	if (b >= 0) {
		P(c, " <span class=\"hover pagename redditname\">");
		A(c, fr_tk_forum_url_board(f, (unsigned)b, 1, url), f->boards[b].slug, NULL);
		P(c, "</span>");
	}
	P(c, "</div>\n<div id=\"header-bottom-right\"><span class=\"user\">");
	A(c, fr_tk_forum_url_other(sw, FR_TK_FURL_LOGIN, url), c->ui->login, "login-required");
	P(c, "</span> | ");
	A(c, fr_tk_forum_url_other(sw, FR_TK_FURL_SEARCH, url), c->ui->search, NULL);
	P(c, " | ");
	A(c, fr_tk_forum_url_other(sw, FR_TK_FURL_FAQ, url), c->ui->faq, NULL);
	P(c, "</div></div>\n<div class=\"content\" role=\"main\">\n");
}

static void
footer(struct rc *c)
{
	P(c, "</div>\n<div class=\"footer-parent\"><div class=\"footer\"><p>");
	X(c, c->ui->all_times);
	P(c, " &middot; ");
	now_el(c);
	P(c, "</p><p class=\"bottommenu\">");
}

static void
pager(struct rc *c, const struct pager *pg)
{
	char url[U];

	if (pg->last <= 1)
		return;
	P(c, "<div class=\"nav-buttons\"><span class=\"nextprev\">");
	if (pg->cur > 1)
		F(c,
		  "<span class=\"prev-button\"><a href=\"%s\" rel=\"nofollow "
		  "prev\">&lsaquo; "
		  "%s</a></span>",
		  pager_url(c, pg, pg->cur - 1, url), c->ui->prev);
	if (pg->cur < pg->last)
		F(c,
		  "<span class=\"next-button\"><a href=\"%s\" rel=\"nofollow next\">%s "
		  "&rsaquo;</a></span>",
		  pager_url(c, pg, pg->cur + 1, url), c->ui->next);
	P(c, "</span></div>\n");
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
	P(c, "<div id=\"siteTable\" class=\"sitetable linklisting\">\n");
}

static void
index_row(struct rc *c, const struct row *r, int sticky)
{
	const struct fr_tk_fthread *th = r->th;
	uint32_t replies = r->n - 1;

	F(c,
	  "<div class=\"thing link%s\" id=\"thing_t3_%u\" data-comments-count=\"%u\"><p "
	  "class=\"rank\"></p><div class=\"entry\"><p class=\"title\">",
	  sticky ? " stickied" : "", (unsigned)th->id, (unsigned)replies);
	A(c, r->url, r->title, "title may-blank");
	P(c, "</p><p class=\"tagline\">");
	if (show_created(c)) {
		P(c, "submitted ");
		date_el(c, r->created, "date-created");
		P(c, " ");
	}
	P(c, "by ");
	member_link(c, th->author[0], "author");
	if (sticky)
		F(c, " <span class=\"stickied-tagline\">%s</span>", c->ui->sticky);
	P(c, "</p><ul class=\"flat-list buttons\"><li class=\"first\"><a href=\"");
	X(c, r->url);
	F(c, "\" class=\"bylink comments may-blank\" rel=\"nofollow\">%u %s</a></li>",
	  (unsigned)replies, c->ui->replies);
	if (show_last(c) || c->p->la_links) {
		P(c, "<li class=\"last-comment\">");
		if (c->p->la_links) {
			P(c, "<a href=\"");
			X(c, r->la_url);
			P(c, "\">");
			X(c, c->ui->last_post);
			P(c, "</a> ");
		}
		if (show_last(c))
			date_el(c, r->last, "date-last");
		P(c, "</li>");
	}
	P(c, "</ul></div></div>\n");
}

static void
post(struct rc *c, size_t i, uint32_t j, uint32_t depth, const char *title)
{
	const struct fr_tk_forum *f = c->f;
	const struct fr_tk_fthread *th = &f->th[i];
	uint32_t m = th->author[j];
	uint32_t pid = th->pid[j];
	unsigned no = (unsigned)j + 1;
	(void)title;

	F(c,
	  "<li class=\"comment\" id=\"c%u\" data-depth=\"%u\"><div class=\"entry\"><p "
	  "class=\"tagline\">",
	  (unsigned)pid, (unsigned)depth);
	member_link(c, m, "author");
	P(c, " ");
	date_el(c, th->t[j], "date-post");
	F(c, " <a class=\"permalink\" href=\"#c%u\">#%u</a></p><div class=\"md\">", (unsigned)pid,
	  no);
	post_body(c, i, j, 0);
	P(c, "</div></div>");
}

static void
thread_open(struct rc *c, const struct fr_tk_fthread *th, size_t i, uint32_t n, uint32_t page,
            const char *title, const struct pager *pg)
{
	const struct fr_tk_forum *f = c->f;
	char url[U];

	P(c, "<div id=\"siteTable\" class=\"sitetable linklisting\"><div class=\"thing "
	     "link self\"><div class=\"entry\"");
	if (page == 1)
		F(c, " id=\"c%u\"", (unsigned)th->pid[0]);
	P(c, "><p class=\"title\">");
	A(c, fr_tk_forum_url_thread(f, i, 1, url), title, "title may-blank");
	P(c, "</p>");
	if (page == 1) {
		P(c, "<p class=\"tagline\">submitted ");
		date_el(c, th->t[0], "date-post");
		P(c, " by ");
		member_link(c, th->author[0], "author");
		P(c, "</p><div class=\"expando\"><div class=\"usertext-body\"><div "
		     "class=\"md\">");
		post_body(c, i, 0, 0);
		P(c, "</div></div></div>");
	}
	F(c,
	  "</div></div></div>\n<div class=\"commentarea\"><div class=\"panestack-title\">"
	  "<span class=\"title\">%u %s</span></div>\n",
	  (unsigned)(n - 1), c->ui->replies);
	pager(c, pg);
	P(c, "<ul class=\"comments nestedlisting\">\n");
}

static void
thread_close(struct rc *c, const struct pager *pg)
{
	pager(c, pg);
	P(c, "</div>\n");
}

static void
entry_open(struct rc *c)
{
	P(c, "<div class=\"communities\"><h1>Communities</h1><ul>\n");
}

static void
entry_board(struct rc *c, unsigned b, const struct fr_tk_fboard *bd, const char *url,
            const struct board_stats *st)
{
	P(c, "<li class=\"community\">");
	A(c, url, bd->slug, "community-name");
	F(c, " <span class=\"members\">%lu %s</span> <p>", st->topics, c->ui->topics);
	board_desc(c, b);
	P(c, "</p><p class=\"latest\">");
}

const struct fr_tk_forum_html_ops fr_tk_forum_html_threaded = {
    .css = "/static/threads.css",
    .powered =
        "Threads is a community of communities. Use of this site constitutes acceptance of our "
        "terms.",
    .title_sep = " - ",
    .footer_close = "</p></div></div>\n",
    .post_frag = "#c",
    .rows_close = "</div>\n",
    .entry_row_close = "</p></li>\n",
    .entry_close = "</ul></div>\n",
    .filters = NULL,
    .entry_now = 0,
    .nested_list = 1,
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
