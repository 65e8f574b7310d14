/* forum_html_vbulletin.c - the pages of the synthetic forums in the markup of
 * vBulletin: one instance of the ops table of forum_html_ops.h, which
 * forum_html.c renders every page through. */
#include "testkit/forum_html_ops.h"

#include "testkit/forum_gen.h"
#include "testkit/forum_url.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Sort and filter parameters beside a board's pager. */
static const char *const VB_FILTERS[] = {"&daysprune=30&order=desc&sort=lastpost", "&posticon=2",
                                         "&posticon=3"};

static void
header(struct rc *c, const char *section, int b, const char *thread)
{
	const struct fr_tk_forum *f = c->f;
	enum fr_tk_forum_sw sw = c->p->sw;
	char url[U];

	(void)section;

	F(c,
	  "<body>\n<div class=\"above_body\"><div id=\"header\" class=\"floatcontainer "
	  "doc_header\"><div><a name=\"top\" href=\"/\" class=\"logo-image\"><img "
	  "src=\"images/misc/vbulletin4_logo.png\" alt=\"%s\"></a></div>\n<div "
	  "id=\"toplinks\" class=\"toplinks\"><ul class=\"nouser\"><li>",
	  c->ui->forum);
	A(c, "/login.php?do=register", c->ui->reg, NULL);
	P(c, "</li><li>");
	A(c, fr_tk_forum_url_other(sw, FR_TK_FURL_LOGIN, url), c->ui->login, NULL);
	P(c, "</li></ul></div></div>\n<div id=\"navbar\" class=\"navbar\"><ul id=\"navtabs\" "
	     "class=\"navtabs floatcontainer\"><li class=\"selected\">");
	A(c, "/", c->ui->forum, "navtab");
	P(c, "</li><li>");
	A(c, fr_tk_forum_url_other(sw, FR_TK_FURL_FAQ, url), c->ui->faq, "navtab");
	P(c, "</li><li>");
	A(c, fr_tk_forum_url_other(sw, FR_TK_FURL_SEARCH, url), c->ui->search, "navtab");
	P(c, "</li></ul></div></div>\n<div class=\"body_wrapper\">\n<div id=\"breadcrumb\" "
	     "class=\"breadcrumb\"><ul class=\"floatcontainer\"><li class=\"navbithome\">");
	A(c, "/", c->ui->forum, NULL);
	P(c, "</li>");
	if (b >= 0) {
		P(c, "<li class=\"navbit\">");
		A(c, fr_tk_forum_url_board(f, (unsigned)b, 1, url), f->boards[b].name, NULL);
		P(c, "</li>");
	}
	if (thread) {
		P(c, "<li class=\"navbit lastnavbit\"><span>");
		X(c, thread);
		P(c, "</span></li>");
	}
	P(c, "</ul></div>\n");
}

static void
footer(struct rc *c)
{
	P(c, "<div id=\"footer_time\" class=\"shade footer_time\">");
	X(c, c->ui->all_times);
	P(c, ". ");
	X(c, c->ui->now_is);
	P(c, " ");
	now_el(c);
	P(c, ".</div>\n</div>\n<div class=\"below_body\"><div id=\"footer_copyright\" "
	     "class=\"shade footer_copyright\">");
}

static void
pager(struct rc *c, const struct pager *pg)
{
	char url[U];
	uint32_t p;

	if (pg->last <= 1)
		return;
	F(c,
	  "<div class=\"pagination_top\"><form class=\"pagination popupmenu "
	  "nohovermenu\"><span><a href=\"javascript://\" class=\"popupctrl\">%s %u %s "
	  "%u</a></span>",
	  c->ui->page, (unsigned)pg->cur, c->ui->of, (unsigned)pg->last);
	if (pg->cur > 1)
		F(c,
		  "<span class=\"prev_next\"><a rel=\"prev\" href=\"%s\" title=\"%s\">"
		  "&lt;</a></span>",
		  pager_url(c, pg, pg->cur - 1, url), c->ui->prev);
	for (p = 1; p <= pg->last; p++) {
		if (!shown_page(p, pg->cur, pg->last))
			continue;
		if (p == pg->cur)
			F(c,
			  "<span class=\"selected\"><a "
			  "href=\"javascript://\">%u</a></span>",
			  (unsigned)p);
		else
			F(c, "<span><a href=\"%s\">%u</a></span>", pager_url(c, pg, p, url),
			  (unsigned)p);
	}
	if (pg->cur < pg->last)
		F(c,
		  "<span class=\"prev_next\"><a rel=\"next\" href=\"%s\" title=\"%s\">"
		  "&gt;</a></span>",
		  pager_url(c, pg, pg->cur + 1, url), c->ui->next);
	P(c, "</form></div>\n");
}

static void
index_open(struct rc *c, unsigned b)
{
	const struct fr_tk_fboard *bd = &c->f->boards[b];

	P(c, "<div id=\"pagetitle\"><h1>");
	X(c, c->ui->forum);
	P(c, ": <span class=\"forumtitle\">");
	X(c, bd->name);
	P(c, "</span></h1></div>\n");
}

static void
rows_open(struct rc *c)
{
	P(c, "<div id=\"threadlist\" class=\"threadlist\"><ol id=\"threads\" "
	     "class=\"threads\">\n");
}

static void
index_row(struct rc *c, const struct row *r, int sticky)
{
	const struct fr_tk_forum *f = c->f;
	const struct fr_tk_fthread *th = r->th;
	uint32_t views = fr_tk_forum_gen_views(f, r->i, c->now);
	uint32_t replies = r->n - 1;

	F(c,
	  "<li class=\"%sthreadbit%s\" id=\"thread_%u\"><div class=\"rating0 "
	  "nonsticky\"><div class=\"threadinfo\"><div class=\"inner\"><h3 "
	  "class=\"threadtitle\">",
	  mark(c, 1, th->id), sticky ? " sticky" : "", (unsigned)th->id);
	if (sticky)
		F(c, "<span class=\"prefix understate\"><b>%s:</b> </span>", c->ui->sticky);
	F(c, "<a class=\"title\" href=\"");
	X(c, r->url);
	F(c, "\" id=\"thread_title_%u\">", (unsigned)th->id);
	X(c, r->title);
	P(c, "</a></h3><div class=\"threadmeta\"><div class=\"author\"><span "
	     "class=\"label\">");
	X(c, c->ui->started_by);
	P(c, " ");
	member_link(c, th->author[0], "username understate");
	if (show_created(c)) {
		P(c, ", ");
		date_el(c, r->created, "date-created");
	}
	P(c, "</span>");
	mini_pager(c, r, "<dl class=\"pagination\"><dt class=\"label\">Pages</dt><dd>",
	           "</dd></dl>");
	F(c,
	  "</div></div></div></div></div><ul class=\"threadstats td alt\"><li>%s: <a "
	  "href=\"javascript://\" class=\"understate\">%u</a></li><li>%s: %u</li></ul>"
	  "<dl class=\"threadlastpost td\"><dt class=\"lastpostby hidden\">%s</dt><dd>",
	  c->ui->replies, (unsigned)replies, c->ui->views, (unsigned)views, c->ui->last_post);
	member_link(c, th->author[r->n - 1], "username");
	F(c, "</dd><dd class=\"%slastpostdate\">", mark(c, 1, th->id));
	if (show_last(c))
		date_el(c, r->last, "date-last");
	if (c->p->la_links) {
		P(c, " <a href=\"");
		X(c, r->la_url);
		P(c, "\" class=\"lastpostdate understate\" title=\"Go to last post\"><img "
		     "class=\"inlineimg\" src=\"images/buttons/lastpost-right.png\" "
		     "alt=\"Go to "
		     "last post\"></a>");
	}
	P(c, "</dd></dl></li>\n");
}

static void
post(struct rc *c, size_t i, uint32_t j, uint32_t depth, const char *title)
{
	const struct fr_tk_forum *f = c->f;
	const struct fr_tk_fthread *th = &f->th[i];
	uint32_t m = th->author[j];
	uint32_t pid = th->pid[j];
	unsigned no = (unsigned)j + 1;
	(void)depth;

	F(c,
	  "<li class=\"postbitlegacy postbitim postcontainer old\" id=\"post_%u\">\n"
	  "<div class=\"posthead\"><span class=\"postdate old\">",
	  (unsigned)pid);
	date_el(c, th->t[j], "date-post");
	F(c,
	  "</span><span class=\"nodecontrols\"><a name=\"post%u\" href=\"#post%u\" "
	  "class=\"postcounter\">#%u</a></span></div>\n<div "
	  "class=\"postdetails\"><div class=\"userinfo\"><div "
	  "class=\"username_container\">",
	  (unsigned)pid, (unsigned)pid, no);
	member_link(c, m, "username offline popupctrl");
	if (c->p->filters)
		F(c, " <a href=\"/showthread.php?t=%u&amp;userid=%u\" rel=\"nofollow\">?</a>",
		  (unsigned)th->id, (unsigned)(f->uid0 + m));
	F(c, "</div><dl class=\"userinfo_extra\"><dt>%s</dt><dd>", c->ui->joined);
	date_el(c, fr_tk_forum_gen_member_joined(f, m), "date-joined");
	F(c,
	  "</dd><dt>%s</dt><dd>%u</dd></dl></div>\n<div class=\"postbody\"><div "
	  "class=\"postrow\">",
	  c->ui->posts, (unsigned)fr_tk_forum_gen_member_posts(f, m, c->now));
	if (j == 0) {
		P(c, "<h2 class=\"title icon\">");
		X(c, title);
		P(c, "</h2>");
	}
	F(c,
	  "<div class=\"content\"><div id=\"post_message_%u\"><blockquote "
	  "class=\"postcontent restore\">",
	  (unsigned)pid);
	post_body(c, i, j, 1);
	P(c, "</blockquote></div></div>");
	signature(c, m,
	          "<div class=\"after_content\"><blockquote class=\"signature "
	          "restore\"><div class=\"signaturecontainer\">",
	          "</div></blockquote></div>");
	P(c, "</div></div></div>\n</li>\n");
}

static void
thread_open(struct rc *c, const struct fr_tk_fthread *th, size_t i, uint32_t n, uint32_t page,
            const char *title, const struct pager *pg)
{
	(void)th;
	(void)i;
	(void)n;
	(void)page;

	P(c, "<div id=\"pagetitle\" class=\"pagetitle\"><h1>");
	X(c, title);
	P(c, "</h1></div>\n<div id=\"above_postlist\" class=\"above_postlist\">");
	pager(c, pg);
	P(c, "</div>\n<div id=\"postlist\" class=\"postlist restrain\"><ol id=\"posts\" "
	     "class=\"posts\" start=\"1\">\n");
}

static void
thread_close(struct rc *c, const struct pager *pg)
{
	P(c, "</ol></div>\n<div id=\"below_postlist\" class=\"below_postlist\">");
	pager(c, pg);
	P(c, "</div>\n");
}

static void
entry_open(struct rc *c)
{
	P(c, "<ol id=\"forums\" class=\"floatcontainer\"><li class=\"forumbit_nopost\"><ol "
	     "class=\"childforum\">\n");
}

static void
entry_board(struct rc *c, unsigned b, const struct fr_tk_fboard *bd, const char *url,
            const struct board_stats *st)
{
	F(c,
	  "<li id=\"forum%u\" class=\"forumbit_post old L2\"><div "
	  "class=\"forumrow table\"><div class=\"foruminfo td\"><div "
	  "class=\"forumdata\"><div class=\"datacontainer\"><div "
	  "class=\"titleline\"><h2 class=\"forumtitle\">",
	  (unsigned)bd->id);
	A(c, url, bd->name, NULL);
	P(c, "</h2></div><p class=\"forumdescription\">");
	board_desc(c, b);
	F(c,
	  "</p></div></div></div><ul class=\"forumstats td\"><li>%s: "
	  "%lu</li><li>%s: "
	  "%lu</li></ul><div class=\"forumlastpost td\"><p "
	  "class=\"lastposttitle\">",
	  c->ui->topics, st->topics, c->ui->posts, st->posts);
}

const struct fr_tk_forum_html_ops fr_tk_forum_html_vbulletin = {
    .css = "clientscript/vbulletin_css/style00002l/main-rollup.css?d=1571234567",
    .powered =
        "Powered by <a href=\"https://www.vbulletin.com\" id=\"vbulletinlink\">vBulletin&reg;</a> "
        "Version 4.2.5<br>Copyright &copy; 2019 vBulletin Solutions, Inc. All rights reserved.",
    .title_sep = " - ",
    .footer_close = "</div></div>\n",
    .post_frag = "#post",
    .rows_close = "</ol></div>\n",
    .entry_row_close = "</p></div></div></li>\n",
    .entry_close = "</ol></li></ol>\n",
    .filters = VB_FILTERS,
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
