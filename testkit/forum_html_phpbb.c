/* forum_html_phpbb.c - the pages of the synthetic forums in the markup of
 * phpBB: one instance of the ops table of forum_html_ops.h, which
 * forum_html.c renders every page through. */
#include "testkit/forum_html_ops.h"

#include "testkit/forum_gen.h"
#include "testkit/forum_url.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Sort and filter parameters beside a board's pager. */
static const char *const PHPBB_FILTERS[] = {"&sk=t&sd=d", "&sk=s&sd=a", "&st=7"};

static void
header(struct rc *c, const char *section, int b, const char *thread)
{
	const struct fr_tk_forum *f = c->f;
	enum fr_tk_forum_sw sw = c->p->sw;
	char url[U];

	(void)thread;

	F(c,
	  "<body id=\"phpbb\" class=\"nojs notouch section-%s ltr\">\n<div id=\"wrap\" "
	  "class=\"wrap\">\n<div id=\"page-header\">\n<div class=\"headerbar\" "
	  "role=\"banner\"><div class=\"inner\"><div id=\"site-description\">"
	  "<a id=\"logo\" class=\"logo\" href=\"/\" title=\"%s\"><span "
	  "class=\"site_logo\"></span></a><h1>",
	  section, c->ui->board_index);
	X(c, f->name);
	P(c, "</h1></div></div></div>\n<div class=\"navbar\" role=\"navigation\"><div "
	     "class=\"inner\"><ul id=\"nav-main\" class=\"nav-main linklist\" "
	     "role=\"menubar\">\n<li>");
	A(c, fr_tk_forum_url_other(sw, FR_TK_FURL_FAQ, url), c->ui->faq, NULL);
	P(c, "</li>\n<li>");
	A(c, fr_tk_forum_url_other(sw, FR_TK_FURL_SEARCH, url), c->ui->search, NULL);
	P(c, "</li>\n<li class=\"rightside\">");
	A(c, "/login.php?mode=register", c->ui->reg, NULL);
	P(c, "</li>\n<li class=\"rightside\">");
	A(c, fr_tk_forum_url_other(sw, FR_TK_FURL_LOGIN, url), c->ui->login, NULL);
	P(c, "</li>\n</ul>\n<ul id=\"nav-breadcrumbs\" class=\"nav-breadcrumbs linklist "
	     "navlinks\"><li class=\"breadcrumbs\"><span class=\"crumb\">");
	A(c, "/", c->ui->board_index, NULL);
	P(c, "</span>");
	if (b >= 0) {
		P(c, " <span class=\"crumb\">");
		A(c, fr_tk_forum_url_board(f, (unsigned)b, 1, url), f->boards[b].name, NULL);
		P(c, "</span>");
	}
	P(c, "</li></ul></div></div>\n</div>\n<div id=\"page-body\" class=\"page-body\" "
	     "role=\"main\">\n");
}

static void
footer(struct rc *c)
{
	P(c, "</div>\n<div id=\"page-footer\" class=\"page-footer\" "
	     "role=\"contentinfo\"><div class=\"navbar\"><ul class=\"linklist\"><li "
	     "class=\"rightside\">");
	X(c, c->ui->all_times);
	P(c, "</li></ul></div>\n<div class=\"copyright\">");
}

static void
pager(struct rc *c, const struct pager *pg)
{
	char url[U];
	uint32_t p;
	int gap;

	F(c, "<div class=\"pagination\">%lu %s &bull; ", pg->items,
	  pg->thread ? c->ui->posts : c->ui->topics);
	if (pg->last <= 1) {
		F(c, "%s <strong>1</strong> %s <strong>1</strong></div>\n", c->ui->page, c->ui->of);
		return;
	}
	P(c, "<ul>");
	if (pg->cur > 1)
		F(c,
		  "<li class=\"arrow previous\"><a class=\"button button-icon-only\" "
		  "href=\"%s\" rel=\"prev\" role=\"button\"><span>%s</span></a></li>",
		  pager_url(c, pg, pg->cur - 1, url), c->ui->prev);
	gap = 0;
	for (p = 1; p <= pg->last; p++) {
		if (!shown_page(p, pg->cur, pg->last)) {
			if (!gap)
				P(c, "<li class=\"ellipsis\" "
				     "role=\"separator\"><span>&hellip;</span></li>");
			gap = 1;
			continue;
		}
		gap = 0;
		if (p == pg->cur)
			F(c, "<li class=\"active\"><span>%u</span></li>", (unsigned)p);
		else
			F(c, "<li><a class=\"button\" href=\"%s\" role=\"button\">%u</a></li>",
			  pager_url(c, pg, p, url), (unsigned)p);
	}
	if (pg->cur < pg->last)
		F(c,
		  "<li class=\"arrow next\"><a class=\"button button-icon-only\" "
		  "href=\"%s\" rel=\"next\" role=\"button\"><span>%s</span></a></li>",
		  pager_url(c, pg, pg->cur + 1, url), c->ui->next);
	P(c, "</ul></div>\n");
}

static void
index_open(struct rc *c, unsigned b)
{
	const struct fr_tk_fboard *bd = &c->f->boards[b];
	char url[U];

	P(c, "<h2 class=\"forum-title\">");
	A(c, fr_tk_forum_url_board(c->f, b, 1, url), bd->name, NULL);
	P(c, "</h2>\n<p class=\"right responsive-center time\">");
	X(c, c->ui->now_is);
	P(c, " ");
	now_el(c);
	P(c, "</p>\n");
}

static void
rows_open(struct rc *c)
{
	F(c,
	  "<div class=\"forumbg\"><div class=\"inner\"><ul class=\"topiclist\"><li "
	  "class=\"header\"><dl class=\"row-item\"><dt><div "
	  "class=\"list-inner\">%s</div></dt><dd class=\"posts\">%s</dd><dd "
	  "class=\"views\">%s</dd><dd "
	  "class=\"lastpost\"><span>%s</span></dd></dl></li></ul>"
	  "\n<ul class=\"topiclist topics\">\n",
	  c->ui->topics, c->ui->replies, c->ui->views, c->ui->last_post);
}

static void
index_row(struct rc *c, const struct row *r, int sticky)
{
	const struct fr_tk_forum *f = c->f;
	const struct fr_tk_fthread *th = r->th;
	uint32_t views = fr_tk_forum_gen_views(f, r->i, c->now);
	uint32_t replies = r->n - 1;

	F(c,
	  "<li class=\"row bg%d%s\"><dl class=\"row-item %s\"><dt title=\"\"><div "
	  "class=\"list-inner\">",
	  (int)(r->i % 2 + 1), sticky ? " sticky" : "", sticky ? "sticky_read" : "topic_read");
	A(c, r->url, r->title, "topictitle");
	P(c, "<br><div class=\"responsive-hide left-box\">");
	X(c, c->ui->by);
	P(c, " ");
	member_link(c, th->author[0], "username");
	if (show_created(c)) {
		P(c, " &raquo; ");
		date_el(c, r->created, "date-created");
	}
	P(c, "</div>");
	mini_pager(c, r, "<div class=\"pagination\"><ul><li>", "</li></ul></div>");
	F(c,
	  "</div></dt><dd class=\"posts\">%u <dfn>%s</dfn></dd><dd class=\"views\">%u "
	  "<dfn>%s</dfn></dd><dd class=\"lastpost\"><span><dfn>%s </dfn>%s ",
	  (unsigned)replies, c->ui->replies, (unsigned)views, c->ui->views, c->ui->last_post,
	  c->ui->by);
	member_link(c, th->author[r->n - 1], "username");
	if (c->p->la_links) {
		P(c, " <a href=\"");
		X(c, r->la_url);
		P(c, "\" title=\"Go to last post\"><i class=\"icon fa-external-link-square "
		     "fa-fw icon-lightgray icon-md\" aria-hidden=\"true\"></i></a>");
	}
	if (show_last(c)) {
		P(c, "<br>");
		date_el(c, r->last, "date-last");
	}
	P(c, "</span></dd></dl></li>\n");
}

static void
post(struct rc *c, size_t i, uint32_t j, uint32_t depth, const char *title)
{
	const struct fr_tk_forum *f = c->f;
	const struct fr_tk_fthread *th = &f->th[i];
	uint32_t m = th->author[j];
	uint32_t pid = th->pid[j];
	int pinned = c->p->tsort == FR_TK_FORUM_DSC && j == 0 && th->n > 1 && !c->p->nested;

	(void)depth;

	F(c,
	  "<div id=\"p%u\" class=\"%spost has-profile bg%d%s\"><div class=\"inner\">\n<dl "
	  "class=\"postprofile\" id=\"profile%u\"><dt class=\"no-profile-rank "
	  "no-avatar\">",
	  (unsigned)pid, mark(c, 2, pid), (int)(j % 2 + 1), pinned ? " sticky" : "", (unsigned)pid);
	member_link(c, m, "username");
	F(c,
	  "</dt><dd class=\"profile-posts\"><strong>%s:</strong> %u</dd><dd "
	  "class=\"profile-joined\"><strong>%s:</strong> ",
	  c->ui->posts, (unsigned)fr_tk_forum_gen_member_posts(f, m, c->now), c->ui->joined);
	date_el(c, fr_tk_forum_gen_member_joined(f, m), "date-joined");
	F(c,
	  "</dd></dl>\n<div class=\"postbody\"><div id=\"post_content%u\"><h3%s><a "
	  "href=\"#p%u\">%s",
	  (unsigned)pid, j == 0 ? " class=\"first\"" : "", (unsigned)pid, j == 0 ? "" : "Re: ");
	X(c, title);
	F(c,
	  "</a></h3><p class=\"%sauthor\"><a href=\"#p%u\"><span class=\"imageset "
	  "icon_post_target\"></span></a><span class=\"responsive-hide\">%s "
	  "<strong>",
	  mark(c, 2, pid), (unsigned)pid, c->ui->by);
	member_link(c, m, "username");
	P(c, "</strong> &raquo; </span>");
	date_el(c, th->t[j], "date-post");
	if (c->p->filters)
		F(c, " <a href=\"/viewtopic.php?p=%u#p%u\">#</a>", (unsigned)pid, (unsigned)pid);
	P(c, "</p><div class=\"content\">");
	post_body(c, i, j, 1);
	P(c, "</div>");
	signature(c, m, "<div class=\"signature\">", "</div>");
	P(c, "</div></div>\n</div></div>\n<hr class=\"divider\">\n");
}

static void
thread_open(struct rc *c, const struct fr_tk_fthread *th, size_t i, uint32_t n, uint32_t page,
            const char *title, const struct pager *pg)
{
	const struct fr_tk_forum *f = c->f;
	char url[U];

	(void)th;
	(void)n;
	(void)page;

	P(c, "<h2 class=\"topic-title\">");
	A(c, fr_tk_forum_url_thread(f, i, 1, url), title, NULL);
	P(c, "</h2>\n<div class=\"action-bar bar-top\">");
	pager(c, pg);
	P(c, "</div>\n");
}

static void
thread_close(struct rc *c, const struct pager *pg)
{
	P(c, "<div class=\"action-bar bar-bottom\">");
	pager(c, pg);
	P(c, "</div>\n");
}

static void
entry_open(struct rc *c)
{
	F(c,
	  "<div class=\"forabg\"><div class=\"inner\"><ul class=\"topiclist\"><li "
	  "class=\"header\"><dl class=\"row-item\"><dt><div class=\"list-inner\">%s</div>"
	  "</dt><dd class=\"topics\">%s</dd><dd class=\"posts\">%s</dd><dd "
	  "class=\"lastpost\"><span>%s</span></dd></dl></li></ul><ul class=\"topiclist "
	  "forums\">\n",
	  c->ui->forum, c->ui->topics, c->ui->posts, c->ui->last_post);
}

static void
entry_board(struct rc *c, unsigned b, const struct fr_tk_fboard *bd, const char *url,
            const struct board_stats *st)
{
	P(c, "<li class=\"row\"><dl class=\"row-item forum_read\"><dt><div "
	     "class=\"list-inner\">");
	A(c, url, bd->name, "forumtitle");
	P(c, "<br>");
	board_desc(c, b);
	F(c,
	  "</div></dt><dd class=\"topics\">%lu</dd><dd class=\"posts\">%lu</dd><dd "
	  "class=\"lastpost\"><span>",
	  st->topics, st->posts);
}

const struct fr_tk_forum_html_ops fr_tk_forum_html_phpbb = {
    .css = "./styles/prosilver/theme/stylesheet.css?assets_version=42",
    .powered =
        "Powered by <a href=\"https://www.phpbb.com/\">phpBB</a>&reg; Forum Software &copy; phpBB "
        "Limited",
    .title_sep = " - ",
    .footer_close = "</div>\n</div>\n</div>\n",
    .post_frag = "#p",
    .rows_close = "</ul></div></div>\n",
    .entry_row_close = "</span></dd></dl></li>\n",
    .entry_close = "</ul></div></div>\n",
    .filters = PHPBB_FILTERS,
    .entry_now = 1,
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
