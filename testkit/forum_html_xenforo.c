/* forum_html_xenforo.c - the pages of the synthetic forums in the markup of
 * XenForo: one instance of the ops table of forum_html_ops.h, which
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

	(void)thread;

	F(c,
	  "<body data-template=\"%s\">\n<div class=\"p-pageWrapper\" "
	  "id=\"top\">\n<header class=\"p-header\" id=\"header\"><div "
	  "class=\"p-header-inner\"><div class=\"p-header-content\"><div "
	  "class=\"p-header-logo p-header-logo--image\"><a href=\"/\"><img "
	  "src=\"/styles/default/xenforo/xenforo-logo.png\" alt=\"",
	  section);
	X(c, f->name);
	P(c, "\"></a></div></div></div></header>\n<div class=\"p-navSticky "
	     "p-navSticky--primary\"><nav class=\"p-nav\"><div class=\"p-nav-inner\"><ul "
	     "class=\"p-nav-list\"><li><div class=\"p-navEl is-selected\">");
	A(c, "/", c->ui->forum, "p-navEl-link");
	P(c, "</div></li><li><div class=\"p-navEl\">");
	A(c, fr_tk_forum_url_other(sw, FR_TK_FURL_SEARCH, url), c->ui->search, "p-navEl-link");
	P(c, "</div></li><li><div class=\"p-navEl\">");
	A(c, fr_tk_forum_url_other(sw, FR_TK_FURL_FAQ, url), c->ui->faq, "p-navEl-link");
	P(c, "</div></li></ul><div class=\"p-nav-opposite\"><div "
	     "class=\"p-navgroup p-account p-navgroup--guest\">");
	A(c, fr_tk_forum_url_other(sw, FR_TK_FURL_LOGIN, url), c->ui->login,
	  "p-navgroup-link p-navgroup-link--logIn");
	A(c, "/login/register", c->ui->reg, "p-navgroup-link p-navgroup-link--register");
	P(c, "</div></div></div></nav></div>\n<div class=\"p-body\"><div "
	     "class=\"p-body-inner\">\n<div class=\"p-breadcrumbs-wrap\"><ul "
	     "class=\"p-breadcrumbs\" itemscope "
	     "itemtype=\"https://schema.org/BreadcrumbList\"><li itemprop=\"itemListElement\" "
	     "itemscope itemtype=\"https://schema.org/ListItem\">");
	A(c, "/", c->ui->forum, NULL);
	P(c, "</li>");
	if (b >= 0) {
		P(c, "<li itemprop=\"itemListElement\" itemscope "
		     "itemtype=\"https://schema.org/ListItem\">");
		A(c, fr_tk_forum_url_board(f, (unsigned)b, 1, url), f->boards[b].name, NULL);
		P(c, "</li>");
	}
	P(c, "</ul></div>\n");
}

static void
footer(struct rc *c)
{
	P(c, "</div></div>\n<footer class=\"p-footer\" id=\"footer\"><div "
	     "class=\"p-footer-inner\"><div class=\"p-footer-row\">");
	X(c, c->ui->all_times);
	P(c, " &middot; ");
	now_el(c);
	P(c, "</div><div class=\"p-footer-copyright\">");
}

static void
pager(struct rc *c, const struct pager *pg)
{
	char url[U];
	uint32_t p;
	int gap;

	if (pg->last <= 1)
		return;
	P(c, "<nav class=\"pageNavWrapper pageNavWrapper--mixed\"><div class=\"pageNav\">");
	if (pg->cur > 1)
		F(c, "<a href=\"%s\" class=\"pageNav-jump pageNav-jump--prev\">%s</a>",
		  pager_url(c, pg, pg->cur - 1, url), c->ui->prev);
	P(c, "<ul class=\"pageNav-main\">");
	gap = 0;
	for (p = 1; p <= pg->last; p++) {
		if (!shown_page(p, pg->cur, pg->last)) {
			if (!gap)
				P(c, "<li class=\"pageNav-page "
				     "pageNav-page--skip\"><a>&hellip;</a></li>");
			gap = 1;
			continue;
		}
		gap = 0;
		F(c, "<li class=\"pageNav-page%s\"><a href=\"%s\">%u</a></li>",
		  p == pg->cur ? " pageNav-page--current" : "", pager_url(c, pg, p, url),
		  (unsigned)p);
	}
	P(c, "</ul>");
	if (pg->cur < pg->last)
		F(c, "<a href=\"%s\" class=\"pageNav-jump pageNav-jump--next\">%s</a>",
		  pager_url(c, pg, pg->cur + 1, url), c->ui->next);
	P(c, "</div></nav>\n");
}

static void
index_open(struct rc *c, unsigned b)
{
	const struct fr_tk_fboard *bd = &c->f->boards[b];

	P(c, "<div class=\"p-body-header\"><div class=\"p-title\"><h1 "
	     "class=\"p-title-value\">");
	X(c, bd->name);
	P(c, "</h1></div></div>\n");
}

static void
rows_open(struct rc *c)
{
	P(c, "<div class=\"block-container\"><div class=\"block-body\"><div "
	     "class=\"structItemContainer\">\n");
}

static void
index_row(struct rc *c, const struct row *r, int sticky)
{
	const struct fr_tk_forum *f = c->f;
	const struct fr_tk_fthread *th = r->th;
	uint32_t views = fr_tk_forum_gen_views(f, r->i, c->now);
	uint32_t replies = r->n - 1;

	F(c,
	  "<div class=\"structItem structItem--thread%s js-inlineModContainer "
	  "js-threadListItem-%u\" data-author=\"",
	  sticky ? " is-sticky" : "", (unsigned)th->id);
	{
		char name[64];

		X(c, fr_tk_forum_gen_member_name(c->f, th->author[0], name, sizeof(name)));
	}
	P(c, "\"><div class=\"structItem-cell structItem-cell--main\" "
	     "data-xf-init=\"touch-proxy\"><div class=\"structItem-title\">");
	if (sticky)
		F(c, "<span class=\"label label--orange\">%s</span> ", c->ui->sticky);
	A(c, r->url, r->title, NULL);
	P(c, "</div><div class=\"structItem-minor\"><ul class=\"structItem-parts\"><li>");
	member_link(c, th->author[0], "username");
	P(c, "</li>");
	if (show_created(c)) {
		P(c, "<li class=\"structItem-startDate\"><a href=\"");
		X(c, r->url);
		P(c, "\" rel=\"nofollow\">");
		date_el(c, r->created, "date-created");
		P(c, "</a></li>");
	}
	P(c, "</ul>");
	mini_pager(c, r, "<span class=\"structItem-pageJump\">", "</span>");
	F(c,
	  "</div></div><div class=\"structItem-cell structItem-cell--meta\"><dl "
	  "class=\"pairs pairs--justified\"><dt>%s</dt><dd>%u</dd></dl><dl class=\"pairs "
	  "pairs--justified structItem-minor\"><dt>%s</dt><dd>%u</dd></dl></div>"
	  "<div class=\"structItem-cell structItem-cell--latest\">",
	  c->ui->replies, (unsigned)replies, c->ui->views, (unsigned)views);
	if (show_last(c)) {
		if (c->p->la_links) {
			P(c, "<a href=\"");
			X(c, r->la_url);
			P(c, "\" rel=\"nofollow\">");
		}
		date_el(c, r->last, "date-last");
		if (c->p->la_links)
			P(c, "</a>");
	} else if (c->p->la_links) {
		P(c, "<a href=\"");
		X(c, r->la_url);
		P(c, "\" rel=\"nofollow\">");
		X(c, c->ui->last_post);
		P(c, "</a>");
	}
	P(c, "<div class=\"structItem-minor\">");
	member_link(c, th->author[r->n - 1], "username");
	P(c, "</div></div></div>\n");
}

static void
post(struct rc *c, size_t i, uint32_t j, uint32_t depth, const char *title)
{
	const struct fr_tk_forum *f = c->f;
	const struct fr_tk_fthread *th = &f->th[i];
	uint32_t m = th->author[j];
	uint32_t pid = th->pid[j];
	unsigned no = (unsigned)j + 1;
	char name[64];

	fr_tk_forum_gen_member_name(f, m, name, sizeof(name));
	(void)depth;
	(void)title;

	F(c,
	  "<article class=\"%smessage message--post js-post js-inlineModContainer\" "
	  "data-author=\"%s\" data-content=\"post-%u\" id=\"js-post-%u\">\n<span "
	  "class=\"u-anchorTarget\" id=\"post-%u\"></span><div "
	  "class=\"message-inner\"><div "
	  "class=\"message-cell message-cell--user\"><section class=\"message-user\"><div "
	  "class=\"message-userDetails\"><h4 class=\"message-name\">",
	  mark(c, 2, pid), name, (unsigned)pid, (unsigned)pid, (unsigned)pid);
	member_link(c, m, "username");
	F(c,
	  "</h4></div><div class=\"message-userExtras\"><dl class=\"pairs "
	  "pairs--justified\"><dt>%s</dt><dd>",
	  c->ui->joined);
	date_el(c, fr_tk_forum_gen_member_joined(f, m), "date-joined");
	F(c,
	  "</dd></dl><dl class=\"pairs pairs--justified\"><dt>%s</dt><dd>%u</dd></dl>"
	  "</div></section></div>\n<div class=\"message-cell message-cell--main\"><div "
	  "class=\"message-main\"><header class=\"message-attribution\"><ul "
	  "class=\"message-attribution-main listInline\"><li class=\"%su-concealed\"><a "
	  "href=\"#post-%u\" rel=\"nofollow\">",
	  c->ui->posts, (unsigned)fr_tk_forum_gen_member_posts(f, m, c->now), mark(c, 2, pid),
	  (unsigned)pid);
	date_el(c, th->t[j], "date-post");
	F(c,
	  "</a></li></ul><ul class=\"message-attribution-opposite listInline\"><li><a "
	  "href=\"#post-%u\">#%u</a></li></ul></header>\n<div class=\"message-content "
	  "js-messageContent\"><div class=\"message-userContent lbContainer "
	  "js-lbContainer\"><article class=\"message-body js-selectToQuote\"><div "
	  "class=\"bbWrapper\">",
	  (unsigned)pid, no);
	post_body(c, i, j, 1);
	P(c, "</div></article></div>");
	signature(c, m, "<aside class=\"message-signature\"><div class=\"bbWrapper\">",
	          "</div></aside>");
	P(c, "</div></div></div></div>\n</article>\n");
}

static void
thread_open(struct rc *c, const struct fr_tk_fthread *th, size_t i, uint32_t n, uint32_t page,
            const char *title, const struct pager *pg)
{
	(void)th;
	(void)i;
	(void)n;
	(void)page;

	P(c, "<div class=\"p-body-header\"><div class=\"p-title\"><h1 "
	     "class=\"p-title-value\">");
	X(c, title);
	P(c, "</h1></div></div>\n<div class=\"block block--messages\"><div "
	     "class=\"block-outer\">");
	pager(c, pg);
	P(c, "</div><div class=\"block-container lbContainer\"><div class=\"block-body "
	     "js-replyNewMessageContainer\">\n");
}

static void
thread_close(struct rc *c, const struct pager *pg)
{
	P(c, "</div></div><div class=\"block-outer block-outer--after\">");
	pager(c, pg);
	P(c, "</div></div>\n");
}

static void
entry_open(struct rc *c)
{
	P(c, "<div class=\"block block--category\"><div class=\"block-container\"><div "
	     "class=\"block-body\">\n");
}

static void
entry_board(struct rc *c, unsigned b, const struct fr_tk_fboard *bd, const char *url,
            const struct board_stats *st)
{
	F(c,
	  "<div class=\"node node--id%u node--depth2 node--forum\"><div "
	  "class=\"node-body\"><div class=\"node-main js-nodeMain\"><h3 "
	  "class=\"node-title\">",
	  (unsigned)bd->id);
	A(c, url, bd->name, NULL);
	P(c, "</h3><div class=\"node-description\">");
	board_desc(c, b);
	F(c,
	  "</div></div><div class=\"node-stats\"><dl class=\"pairs "
	  "pairs--rows\"><dt>%s</dt><dd>%lu</dd></dl><dl class=\"pairs "
	  "pairs--rows\"><dt>%s</dt><dd>%lu</dd></dl></div><div "
	  "class=\"node-extra\">",
	  c->ui->topics, st->topics, c->ui->posts, st->posts);
}

const struct fr_tk_forum_html_ops fr_tk_forum_html_xenforo = {
    .css = "/css.php?css=public%3Anormalize.css%2Cpublic%3Acore.less%2Cpublic%3Aapp.less&s=1&l=1&d="
           "1571",
    .powered =
        "<a href=\"https://xenforo.com\" class=\"u-concealed\" dir=\"ltr\">Community platform by "
        "XenForo<sup>&reg;</sup> <span class=\"copyright\">&copy; 2010-2019 XenForo "
        "Ltd.</span></a>",
    .title_sep = " - ",
    .footer_close = "</div></div></footer>\n</div>\n",
    .post_frag = "#post-",
    .rows_close = "</div></div></div>\n",
    .entry_row_close = "</div></div></div>\n",
    .entry_close = "</div></div></div>\n",
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
