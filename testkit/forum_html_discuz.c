/* forum_html_discuz.c - the pages of the synthetic forums in the markup of
 * Discuz!: one instance of the ops table of forum_html_ops.h, which
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

	P(c, "<body id=\"nv_forum\" class=\"pg_forumdisplay\">\n<div id=\"toptb\" "
	     "class=\"cl\"><div class=\"wp\"><div class=\"z\">");
	A(c, "/", f->name, NULL);
	P(c, "</div><div class=\"y\">");
	A(c, fr_tk_forum_url_other(sw, FR_TK_FURL_LOGIN, url), c->ui->login, NULL);
	P(c, " ");
	A(c, "/login.php?mod=register", c->ui->reg, NULL);
	P(c, "</div></div></div>\n<div id=\"hd\"><div class=\"wp\"><div "
	     "id=\"nv\"><ul><li class=\"a\" id=\"mn_forum\">");
	A(c, "/forum.php", c->ui->forum, NULL);
	P(c, "</li><li id=\"mn_N12a7\">");
	A(c, fr_tk_forum_url_other(sw, FR_TK_FURL_FAQ, url), c->ui->faq, NULL);
	P(c, "</li><li id=\"mn_search\">");
	A(c, fr_tk_forum_url_other(sw, FR_TK_FURL_SEARCH, url), c->ui->search, NULL);
	P(c, "</li></ul></div></div></div>\n<div id=\"wp\" class=\"wp\">\n<div id=\"pt\" "
	     "class=\"bm cl\"><div class=\"z\">");
	A(c, "/", f->name, "nvhm");
	P(c, " <em>&rsaquo;</em> ");
	A(c, "/forum.php", c->ui->forum, NULL);
	if (b >= 0) {
		P(c, " <em>&rsaquo;</em> ");
		A(c, fr_tk_forum_url_board(f, (unsigned)b, 1, url), f->boards[b].name, NULL);
	}
	P(c, "</div></div>\n");
}

static void
footer(struct rc *c)
{
	P(c, "</div>\n<div id=\"ft\" class=\"wp cl\"><div id=\"flk\" class=\"y\"><p>");
	X(c, c->ui->all_times);
	P(c, ", ");
	now_el(c);
	P(c, "</p></div><div id=\"frt\"><p>");
}

static void
pager(struct rc *c, const struct pager *pg)
{
	char url[U];
	uint32_t p;

	if (pg->last <= 1)
		return;
	P(c, "<div class=\"pg\">");
	if (pg->cur > 1)
		F(c, "<a href=\"%s\" class=\"prev\">&nbsp;&nbsp;</a>",
		  pager_url(c, pg, pg->cur - 1, url));
	for (p = 1; p <= pg->last; p++) {
		if (!shown_page(p, pg->cur, pg->last))
			continue;
		if (p == pg->cur)
			F(c, "<strong>%u</strong>", (unsigned)p);
		else
			F(c, "<a href=\"%s\">%s%u</a>", pager_url(c, pg, p, url),
			  p == pg->last && p > pg->cur + 3 ? "... " : "", (unsigned)p);
	}
	F(c,
	  "<label><input type=\"text\" name=\"custompage\" class=\"px\" size=\"2\" "
	  "value=\"%u\"><span> / %u</span></label>",
	  (unsigned)pg->cur, (unsigned)pg->last);
	if (pg->cur < pg->last)
		F(c, "<a href=\"%s\" class=\"nxt\">%s</a>", pager_url(c, pg, pg->cur + 1, url),
		  c->ui->next);
	P(c, "</div>\n");
}

static void
index_open(struct rc *c, unsigned b)
{
	const struct fr_tk_fboard *bd = &c->f->boards[b];
	char url[U];

	P(c, "<div class=\"bm bml pbn\"><div class=\"bm_h cl\"><h1 class=\"xs2\">");
	A(c, fr_tk_forum_url_board(c->f, b, 1, url), bd->name, NULL);
	P(c, "</h1></div></div>\n");
}

static void
rows_open(struct rc *c)
{
	F(c,
	  "<div id=\"threadlist\" class=\"tl bm bmw\"><div class=\"th\"><table "
	  "cellspacing=\"0\" cellpadding=\"0\"><tr><th colspan=\"2\">%s</th><td "
	  "class=\"by\">%s</td><td class=\"num\">%s</td><td class=\"by\">%s</td></tr>"
	  "</table></div><div class=\"bm_c\"><table summary=\"forum\" cellspacing=\"0\" "
	  "cellpadding=\"0\" id=\"threadlisttableid\">\n",
	  c->ui->topics, c->ui->by, c->ui->replies, c->ui->last_post);
}

static void
index_row(struct rc *c, const struct row *r, int sticky)
{
	const struct fr_tk_forum *f = c->f;
	const struct fr_tk_fthread *th = r->th;
	uint32_t views = fr_tk_forum_gen_views(f, r->i, c->now);
	uint32_t replies = r->n - 1;

	F(c, "<tbody id=\"%s_%u\"><tr><td class=\"icn\"><a href=\"",
	  sticky ? "stickthread" : "normalthread", (unsigned)th->id);
	X(c, r->url);
	F(c,
	  "\" target=\"_blank\"><img src=\"static/image/common/%s.gif\"></a></td><th "
	  "class=\"common\">",
	  sticky ? "pin_1" : "folder_common");
	A(c, r->url, r->title, "s xst");
	mini_pager(c, r, "<span class=\"tps\">&nbsp;...", "</span>");
	P(c, "</th><td class=\"by\"><cite>");
	member_link(c, th->author[0], NULL);
	P(c, "</cite><em>");
	if (show_created(c))
		date_el(c, r->created, "date-created");
	F(c, "</em></td><td class=\"num\"><a href=\"");
	X(c, r->url);
	F(c, "\" class=\"xi2\">%u</a><em>%u</em></td><td class=\"by\"><cite>", (unsigned)replies,
	  (unsigned)views);
	member_link(c, th->author[r->n - 1], NULL);
	P(c, "</cite><em>");
	if (c->p->la_links) {
		P(c, "<a href=\"");
		X(c, r->la_url);
		P(c, "\">");
	}
	if (show_last(c))
		date_el(c, r->last, "date-last");
	else if (c->p->la_links)
		X(c, c->ui->last_post);
	if (c->p->la_links)
		P(c, "</a>");
	P(c, "</em></td></tr></tbody>\n");
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
	(void)title;

	F(c,
	  "<div id=\"post_%u\"><table id=\"pid%u\" class=\"plhin\" summary=\"pid%u\" "
	  "cellspacing=\"0\" cellpadding=\"0\"><tr><td class=\"pls\" rowspan=\"2\"><div "
	  "class=\"pi\"><div class=\"authi\">",
	  (unsigned)pid, (unsigned)pid, (unsigned)pid);
	member_link(c, m, "xw1");
	F(c, "</div></div><dl class=\"pil cl\"><dt>%s</dt><dd>%u</dd><dt>%s</dt><dd>", c->ui->posts,
	  (unsigned)fr_tk_forum_gen_member_posts(f, m, c->now), c->ui->joined);
	date_el(c, fr_tk_forum_gen_member_joined(f, m), "date-joined");
	F(c,
	  "</dd></dl></td><td class=\"plc\"><div class=\"pi\"><strong><a "
	  "href=\"#pid%u\" id=\"postnum%u\">%u#</a></strong><div class=\"pti\"><div "
	  "class=\"authi\"><em id=\"authorposton%u\">%s ",
	  (unsigned)pid, (unsigned)pid, no, (unsigned)pid, c->ui->posted_on);
	date_el(c, th->t[j], "date-post");
	F(c,
	  "</em></div></div></div><div class=\"pct\"><div class=\"pcb\"><div "
	  "class=\"t_fsz\"><table cellspacing=\"0\" cellpadding=\"0\"><tr><td "
	  "class=\"t_f\" id=\"postmessage_%u\">",
	  (unsigned)pid);
	post_body(c, i, j, 1);
	P(c, "</td></tr></table></div></div></div>");
	signature(c, m, "<div class=\"sign\">", "</div>");
	P(c, "</td></tr></table></div>\n");
}

static void
thread_open(struct rc *c, const struct fr_tk_fthread *th, size_t i, uint32_t n, uint32_t page,
            const char *title, const struct pager *pg)
{
	(void)th;
	(void)i;
	(void)n;
	(void)page;

	P(c, "<div id=\"pgt\" class=\"pgs mbm cl\">");
	pager(c, pg);
	P(c, "</div>\n<div id=\"postlist\" class=\"pl bm\"><table cellspacing=\"0\" "
	     "cellpadding=\"0\"><tr><td class=\"plc ptm pbn vwthd\"><h1 class=\"ts\"><span "
	     "id=\"thread_subject\">");
	X(c, title);
	P(c, "</span></h1></td></tr></table>\n");
}

static void
thread_close(struct rc *c, const struct pager *pg)
{
	P(c, "</div>\n<div class=\"pgs mtm mbm cl\">");
	pager(c, pg);
	P(c, "</div>\n");
}

static void
entry_open(struct rc *c)
{
	P(c, "<div class=\"fl bm\"><div class=\"bm bmw cl\"><div id=\"category_1\" "
	     "class=\"bm_c\"><table cellspacing=\"0\" cellpadding=\"0\" class=\"fl_tb\">\n");
}

static void
entry_board(struct rc *c, unsigned b, const struct fr_tk_fboard *bd, const char *url,
            const struct board_stats *st)
{
	P(c, "<tr><td class=\"fl_g\"><dl><dt>");
	A(c, url, bd->name, NULL);
	P(c, "</dt><dd>");
	board_desc(c, b);
	F(c, "</dd><dd><em>%s: %lu</em>, <em>%s: %lu</em></dd><dd>", c->ui->topics, st->topics,
	  c->ui->posts, st->posts);
}

const struct fr_tk_forum_html_ops fr_tk_forum_html_discuz = {
    .css = "data/cache/style_1_common.css?x7a",
    .powered =
        "Powered by <strong><a href=\"http://www.discuz.net\">Discuz!</a></strong> <em>X3.4</em> "
        "&copy; 2001-2019 <a href=\"http://www.comsenz.com\">Comsenz Inc.</a>",
    .title_sep = " - ",
    .footer_close = "</p></div></div>\n",
    .post_frag = "#pid",
    .rows_close = "</table></div></div>\n",
    .entry_row_close = "</dd></dl></td></tr>\n",
    .entry_close = "</table></div></div></div>\n",
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
