/* forum_html_smf.c - the pages of the synthetic forums in the markup of
 * SMF: one instance of the ops table of forum_html_ops.h, which
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

	P(c, "<body>\n<div id=\"wrapper\" style=\"width: 90%\">\n<div id=\"header\"><div "
	     "class=\"frame\">\n<div id=\"top_section\"><h1 class=\"forumtitle\">");
	A(c, "/index.php", f->name, NULL);
	P(c, "</h1></div>\n<div id=\"upper_section\" class=\"middletext\"><div "
	     "class=\"user\"><p class=\"avatar\"></p><ul class=\"reset\"><li>");
	now_el(c);
	P(c, "</li></ul></div></div>\n<div id=\"main_menu\"><ul class=\"dropmenu\" "
	     "id=\"menu_nav\"><li id=\"button_home\">");
	A(c, "/index.php", c->ui->forum, "firstlevel active");
	P(c, "</li><li id=\"button_help\">");
	A(c, fr_tk_forum_url_other(sw, FR_TK_FURL_FAQ, url), c->ui->faq, "firstlevel");
	P(c, "</li><li id=\"button_search\">");
	A(c, fr_tk_forum_url_other(sw, FR_TK_FURL_SEARCH, url), c->ui->search, "firstlevel");
	P(c, "</li><li id=\"button_login\">");
	A(c, fr_tk_forum_url_other(sw, FR_TK_FURL_LOGIN, url), c->ui->login, "firstlevel");
	P(c, "</li><li id=\"button_register\">");
	A(c, "/login.php?action=register", c->ui->reg, "firstlevel");
	P(c, "</li></ul></div>\n<div class=\"navigate_section\"><ul><li>");
	A(c, "/index.php", f->name, NULL);
	P(c, "</li>");
	if (b >= 0) {
		P(c, "<li> &#187; ");
		A(c, fr_tk_forum_url_board(f, (unsigned)b, 1, url), f->boards[b].name, NULL);
		P(c, "</li>");
	}
	if (thread) {
		P(c, "<li class=\"last\"> &#187; <span>");
		X(c, thread);
		P(c, "</span></li>");
	}
	P(c, "</ul></div>\n</div></div>\n<div id=\"content_section\"><div class=\"frame\">"
	     "<div id=\"main_content_section\">\n");
}

static void
footer(struct rc *c)
{
	P(c, "</div></div></div>\n<div id=\"footer_section\"><div class=\"frame\"><ul "
	     "class=\"reset\"><li class=\"copyright\">");
}

static void
pager(struct rc *c, const struct pager *pg)
{
	char url[U];
	uint32_t p;
	int gap;

	F(c, "<div class=\"pagelinks floatleft\">%s: ", c->ui->page);
	gap = 0;
	for (p = 1; p <= pg->last; p++) {
		if (!shown_page(p, pg->cur, pg->last)) {
			if (!gap)
				P(c, " <span style=\"font-weight: bold;\"> ... </span>");
			gap = 1;
			continue;
		}
		gap = 0;
		if (p == pg->cur)
			F(c, "[<strong>%u</strong>] ", (unsigned)p);
		else
			F(c, "<a class=\"navPages\" href=\"%s\">%u</a> ", pager_url(c, pg, p, url),
			  (unsigned)p);
	}
	P(c, "</div>\n");
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
	  "<div class=\"tborder topic_table\" id=\"messageindex\"><table "
	  "class=\"table_grid\" cellspacing=\"0\"><thead><tr class=\"catbg\"><th "
	  "scope=\"col\" class=\"first_th\" width=\"8%%\">&nbsp;</th><th "
	  "scope=\"col\">%s</th><th scope=\"col\" width=\"14%%\">%s</th><th scope=\"col\" "
	  "class=\"last_th\" width=\"22%%\">%s</th></tr></thead><tbody>\n",
	  c->ui->topics, c->ui->replies, c->ui->last_post);
}

static void
index_row(struct rc *c, const struct row *r, int sticky)
{
	const struct fr_tk_forum *f = c->f;
	const struct fr_tk_fthread *th = r->th;
	uint32_t views = fr_tk_forum_gen_views(f, r->i, c->now);
	uint32_t replies = r->n - 1;

	F(c,
	  "<tr><td class=\"icon1 %s\"><img src=\"/Themes/default/images/topic/%s.gif\" "
	  "alt=\"\"></td><td class=\"subject %s\"><div><span id=\"msg_%u\">",
	  sticky ? "stickybg" : "windowbg", sticky ? "normal_post_sticky" : "normal_post",
	  sticky ? "stickybg2" : "windowbg2", (unsigned)th->pid[0]);
	if (sticky)
		P(c, "<strong>");
	A(c, r->url, r->title, NULL);
	if (sticky)
		P(c, "</strong>");
	P(c, "</span><p>");
	X(c, c->ui->started_by);
	P(c, " ");
	member_link(c, th->author[0], NULL);
	if (show_created(c)) {
		P(c, ", ");
		date_el(c, r->created, "date-created");
	}
	mini_pager(c, r, " <small class=\"pages\">&#171;", " &#187;</small>");
	F(c,
	  "</p></div></td><td class=\"stats %s\">%u %s<br>%u %s</td><td class=\"lastpost "
	  "%s\">",
	  sticky ? "stickybg" : "windowbg", (unsigned)replies, c->ui->replies, (unsigned)views,
	  c->ui->views, sticky ? "stickybg2" : "windowbg2");
	if (c->p->la_links) {
		P(c, "<a href=\"");
		X(c, r->la_url);
		P(c, "\"><img src=\"/Themes/default/images/icons/last_post.gif\" alt=\"");
		X(c, c->ui->last_post);
		P(c, "\" title=\"");
		X(c, c->ui->last_post);
		P(c, "\"></a> ");
	}
	if (show_last(c))
		date_el(c, r->last, "date-last");
	P(c, "<br>");
	X(c, c->ui->by);
	P(c, " ");
	member_link(c, th->author[r->n - 1], NULL);
	P(c, "</td></tr>\n");
}

static void
post(struct rc *c, size_t i, uint32_t j, uint32_t depth, const char *title)
{
	const struct fr_tk_forum *f = c->f;
	const struct fr_tk_fthread *th = &f->th[i];
	uint32_t m = th->author[j];
	uint32_t pid = th->pid[j];

	(void)depth;

	F(c,
	  "<div class=\"%s\" id=\"msg%u\"><span class=\"topslice\"><span></span></span>\n"
	  "<div class=\"post_wrapper\"><div class=\"poster\"><h4>",
	  j % 2 ? "windowbg" : "windowbg2", (unsigned)pid);
	member_link(c, m, NULL);
	F(c,
	  "</h4><ul class=\"reset smalltext\" id=\"msg_%u_extra_info\"><li "
	  "class=\"postcount\">%s: %u</li></ul></div>\n<div class=\"postarea\"><div "
	  "class=\"flow_hidden\"><div class=\"keyinfo\"><h5 id=\"subject_%u\"><a "
	  "href=\"#msg%u\" rel=\"nofollow\">%s",
	  (unsigned)pid, c->ui->posts, (unsigned)fr_tk_forum_gen_member_posts(f, m, c->now),
	  (unsigned)pid, (unsigned)pid, j == 0 ? "" : "Re: ");
	X(c, title);
	P(c, "</a></h5><div class=\"smalltext\">&#171; ");
	if (j)
		F(c, "<strong>#%u</strong> ", (unsigned)j);
	date_el(c, th->t[j], "date-post");
	F(c,
	  " &#187;</div></div></div>\n<div class=\"post\"><div class=\"inner\" "
	  "data-msgid=\"%u\" id=\"msg_%u\">",
	  (unsigned)pid, (unsigned)pid);
	post_body(c, i, j, 1);
	P(c, "</div></div></div>\n");
	signature(c, m, "<div class=\"moderatorbar\"><div class=\"signature\">", "</div></div>");
	P(c, "</div>\n<span class=\"botslice\"><span></span></span></div>\n<hr "
	     "class=\"post_separator\">\n");
}

static void
thread_open(struct rc *c, const struct fr_tk_fthread *th, size_t i, uint32_t n, uint32_t page,
            const char *title, const struct pager *pg)
{
	(void)th;
	(void)i;
	(void)n;
	(void)page;

	P(c, "<a id=\"top\"></a><div class=\"pagesection\">");
	pager(c, pg);
	P(c, "</div>\n<div id=\"forumposts\"><div class=\"cat_bar\"><h3 "
	     "class=\"catbg\">");
	X(c, title);
	P(c, "</h3></div><form action=\"/index.php?action=quickmod2\" method=\"post\" "
	     "name=\"quickModForm\" id=\"quickModForm\" style=\"margin: 0;\">\n");
}

static void
thread_close(struct rc *c, const struct pager *pg)
{
	P(c, "</form></div>\n<div class=\"pagesection\">");
	pager(c, pg);
	P(c, "</div>\n");
}

static void
entry_open(struct rc *c)
{
	P(c, "<div id=\"boardindex_table\"><table class=\"table_list\"><tbody "
	     "class=\"content\">\n");
}

static void
entry_board(struct rc *c, unsigned b, const struct fr_tk_fboard *bd, const char *url,
            const struct board_stats *st)
{
	F(c,
	  "<tr id=\"board_%u\" class=\"windowbg2\"><td class=\"icon "
	  "windowbg\"></td>"
	  "<td class=\"info\">",
	  (unsigned)bd->id);
	A(c, url, bd->name, "subject");
	P(c, "<p>");
	board_desc(c, b);
	F(c,
	  "</p></td><td class=\"stats windowbg\"><p>%lu %s<br>%lu %s</p></td><td "
	  "class=\"lastpost\"><p>",
	  st->posts, c->ui->posts, st->topics, c->ui->topics);
}

const struct fr_tk_forum_html_ops fr_tk_forum_html_smf = {
    .css = "/Themes/default/css/index.css?fin20",
    .powered =
        "<a href=\"https://www.simplemachines.org/\" title=\"Simple Machines\">SMF 2.0.17</a> | "
        "<a href=\"https://www.simplemachines.org/about/smf/license.php\">SMF &copy; 2019</a>, "
        "Simple Machines",
    .title_sep = " | ",
    .footer_close = "</li></ul></div></div>\n</div>\n",
    .post_frag = "#msg",
    .rows_close = "</tbody></table></div>\n",
    .entry_row_close = "</p></td></tr>\n",
    .entry_close = "</tbody></table></div>\n",
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
