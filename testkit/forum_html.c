/* forum_html.c - the pages of the synthetic forums in the markup of phpBB,
 * vBulletin, SMF, XenForo, Discuz!, a custom forum and a threaded (nested
 * comments) site, rendered from a forum's timeline at a forum time. The
 * markup follows the real software closely enough for layout-based page
 * classification and post extraction to be a real task; every date the
 * page shows sits in an element of class date-post, date-created,
 * date-last, date-joined or date-now (for tests; crawlers should not need
 * them). */
#include "testkit/forum_html.h"

#include "testkit/forum_gen.h"
#include "testkit/forum_url.h"
#include "testkit/server.h"
#include "testkit/text.h"

#include <stdlib.h>
#include <string.h>

#define HTML_TYPE "text/html; charset=utf-8"
#define PAGE_MAX (4u << 20)
#define U FR_TK_FORUMS_URL_MAX

struct rc {
	const struct fr_tk_forum *f;
	const struct fr_tk_forum_profile *p;
	const struct fr_tk_forum_ui *ui;
	const char *host;
	double now_s;
	int64_t now;
	struct fr_text *t;
};

static void
P(struct rc *c, const char *s)
{
	fr_text_puts(c->t, s);
}

static void
X(struct rc *c, const char *s)
{
	fr_text_xml(c->t, s);
}

#define F(c, ...) fr_text_printf((c)->t, __VA_ARGS__)

/* <a href="url"[ class="cls"]>text</a>, url and text escaped. */
static void
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

/* A date element of class cls, as the forum shows it (relative or not,
 * with the exact time in an attribute or not). */
static void
date_el(struct rc *c, int64_t t, const char *cls)
{
	struct fr_text shown = {0}, abs = {0};
	const struct fr_tk_forum_profile *p = c->p;

	int rel = fr_tk_forum_lang_date_shown(&shown, p->lang, p->dstyle, p->rel, t, c->now_s);

	if (rel == 1 && p->sw == FR_TK_FORUM_SMF && p->rel == FR_TK_FORUM_REL_DAY && shown.p) {
		/* SMF: "<strong>Today</strong> at 10:15 PM" */
		size_t w = strcspn(shown.p, " ");

		F(c, "<span class=\"%s\"><strong>%.*s</strong>", cls, (int)w, shown.p);
		X(c, shown.p + w);
		P(c, "</span>");
		fr_text_free(&shown);
		return;
	}
	if (!rel && p->noyear && fr_tk_forum_lang_same_year(t, c->now) &&
	    (p->dstyle == FR_TK_FORUM_DS_NUM_YMD || p->dstyle == FR_TK_FORUM_DS_NUM_DMY)) {
		fr_text_free(&shown);
		fr_tk_forum_lang_date_noyear(&shown, p->dstyle, t);
	}
	switch (p->attr) {
	case FR_TK_FORUM_ATTR_TIME:
		F(c, "<time class=\"%s%s\" datetime=\"",
		  p->sw == FR_TK_FORUM_XENFORO ? "u-dt " : "", cls);
		fr_tk_forum_lang_date_iso(c->t, t);
		P(c, "\"");
		if (p->sw == FR_TK_FORUM_XENFORO || p->sw == FR_TK_FORUM_THREADED) {
			fr_tk_forum_lang_date_abs(&abs, p->lang, p->dstyle, t);
			if (p->sw == FR_TK_FORUM_XENFORO)
				F(c, " data-time=\"%lld\"", (long long)t);
			P(c, " title=\"");
			X(c, abs.p ? abs.p : "");
			P(c, "\"");
		}
		P(c, ">");
		X(c, shown.p ? shown.p : "");
		P(c, "</time>");
		break;
	case FR_TK_FORUM_ATTR_TITLE:
		fr_tk_forum_lang_date_abs(&abs, p->lang, FR_TK_FORUM_DS_NUM_YMD, t);
		F(c, "<span class=\"%s\" title=\"", cls);
		X(c, abs.p ? abs.p : "");
		P(c, "\">");
		X(c, shown.p ? shown.p : "");
		P(c, "</span>");
		break;
	case FR_TK_FORUM_ATTR_DATA:
		F(c, "<span class=\"%s\" data-time=\"%lld\">", cls, (long long)t);
		X(c, shown.p ? shown.p : "");
		P(c, "</span>");
		break;
	default:
		F(c, "<span class=\"%s\">", cls);
		X(c, shown.p ? shown.p : "");
		P(c, "</span>");
		break;
	}
	fr_text_free(&shown);
	fr_text_free(&abs);
}

/* The current forum time, always absolute. */
static void
now_el(struct rc *c)
{
	struct fr_text s = {0};

	fr_tk_forum_lang_date_abs(&s, c->p->lang, c->p->dstyle, c->now);
	P(c, "<span class=\"date-now\">");
	X(c, s.p ? s.p : "");
	P(c, "</span>");
	fr_text_free(&s);
}

static void
member_link(struct rc *c, uint32_t m, const char *cls)
{
	char url[U], name[64];

	A(c, fr_tk_forum_url_profile(c->f, m, url),
	  fr_tk_forum_gen_member_name(c->f, m, name, sizeof(name)), cls);
}

/* The class word that marks a row or post read or unread (one in three
 * unread), first in its class list; "" when the profile marks none of
 * that kind (1 rows, 2 posts). */
static const char *
mark(const struct rc *c, int kind, uint32_t id)
{
	uint64_t h = (uint64_t)id * 0x9e3779b97f4a7c15ull;

	if (c->p->marks != kind)
		return "";
	return (h >> 33) % 3 == 0 ? "unread " : "read ";
}

/* ---- chrome ---- */

static const char *const POWERED[FR_TK_FORUM_N_SW] = {
    "Powered by <a href=\"https://www.phpbb.com/\">phpBB</a>&reg; Forum Software &copy; phpBB "
    "Limited",
    "Powered by <a href=\"https://www.vbulletin.com\" id=\"vbulletinlink\">vBulletin&reg;</a> "
    "Version 4.2.5<br>Copyright &copy; 2019 vBulletin Solutions, Inc. All rights reserved.",
    "<a href=\"https://www.simplemachines.org/\" title=\"Simple Machines\">SMF 2.0.17</a> | "
    "<a href=\"https://www.simplemachines.org/about/smf/license.php\">SMF &copy; 2019</a>, "
    "Simple Machines",
    "<a href=\"https://xenforo.com\" class=\"u-concealed\" dir=\"ltr\">Community platform by "
    "XenForo<sup>&reg;</sup> <span class=\"copyright\">&copy; 2010-2019 XenForo Ltd.</span></a>",
    "Powered by <strong><a href=\"http://www.discuz.net\">Discuz!</a></strong> <em>X3.4</em> "
    "&copy; 2001-2019 <a href=\"http://www.comsenz.com\">Comsenz Inc.</a>",
    "Forum software written by the club's volunteers.",
    "Threads is a community of communities. Use of this site constitutes acceptance of our "
    "terms."};

static const char *const CSS[FR_TK_FORUM_N_SW] = {
    "./styles/prosilver/theme/stylesheet.css?assets_version=42",
    "clientscript/vbulletin_css/style00002l/main-rollup.css?d=1571234567",
    "/Themes/default/css/index.css?fin20",
    "/css.php?css=public%3Anormalize.css%2Cpublic%3Acore.less%2Cpublic%3Aapp.less&s=1&l=1&d=1571",
    "data/cache/style_1_common.css?x7a",
    "/forum/style.css",
    "/static/threads.css"};

/* Opens the page: head, site header, navigation, breadcrumbs (board b when
 * >= 0, thread title when not NULL). */
static void
page_begin(struct rc *c, const char *title, const char *section, int b, const char *thread)
{
	const struct fr_tk_forum *f = c->f;
	enum fr_tk_forum_sw sw = c->p->sw;
	char url[U];

	F(c, "<!DOCTYPE html>\n<html dir=\"ltr\" lang=\"%s\">\n<head>\n<meta charset=\"utf-8\">\n",
	  c->ui->code);
	P(c, "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>");
	if (title) {
		X(c, title);
		P(c, sw == FR_TK_FORUM_DISCUZ ? " - " : sw == FR_TK_FORUM_SMF ? " | " : " - ");
	}
	X(c, f->name);
	P(c, "</title>\n<link href=\"");
	X(c, CSS[sw]);
	P(c, "\" rel=\"stylesheet\" type=\"text/css\">\n");
	P(c, "<link rel=\"icon\" href=\"/favicon.ico\">\n</head>\n");
	switch (sw) {
	case FR_TK_FORUM_PHPBB:
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
			A(c, fr_tk_forum_url_board(f, (unsigned)b, 1, url), f->boards[b].name,
			  NULL);
			P(c, "</span>");
		}
		P(c, "</li></ul></div></div>\n</div>\n<div id=\"page-body\" class=\"page-body\" "
		     "role=\"main\">\n");
		break;
	case FR_TK_FORUM_VBULLETIN:
		F(c,
		  "<body>\n<div class=\"above_body\"><div id=\"header\" class=\"floatcontainer "
		  "doc_header\"><div><a name=\"top\" href=\"/\" class=\"logo-image\"><img "
		  "src=\"images/misc/vbulletin4_logo.png\" alt=\"%s\"></a></div>\n<div "
		  "id=\"toplinks\" class=\"toplinks\"><ul class=\"nouser\"><li>",
		  c->ui->forum);
		A(c, "/login.php?do=register", c->ui->reg, NULL);
		P(c, "</li><li>");
		A(c, fr_tk_forum_url_other(sw, FR_TK_FURL_LOGIN, url), c->ui->login, NULL);
		P(c,
		  "</li></ul></div></div>\n<div id=\"navbar\" class=\"navbar\"><ul id=\"navtabs\" "
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
			A(c, fr_tk_forum_url_board(f, (unsigned)b, 1, url), f->boards[b].name,
			  NULL);
			P(c, "</li>");
		}
		if (thread) {
			P(c, "<li class=\"navbit lastnavbit\"><span>");
			X(c, thread);
			P(c, "</span></li>");
		}
		P(c, "</ul></div>\n");
		break;
	case FR_TK_FORUM_SMF:
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
		A(c, fr_tk_forum_url_other(sw, FR_TK_FURL_SEARCH, url), c->ui->search,
		  "firstlevel");
		P(c, "</li><li id=\"button_login\">");
		A(c, fr_tk_forum_url_other(sw, FR_TK_FURL_LOGIN, url), c->ui->login, "firstlevel");
		P(c, "</li><li id=\"button_register\">");
		A(c, "/login.php?action=register", c->ui->reg, "firstlevel");
		P(c, "</li></ul></div>\n<div class=\"navigate_section\"><ul><li>");
		A(c, "/index.php", f->name, NULL);
		P(c, "</li>");
		if (b >= 0) {
			P(c, "<li> &#187; ");
			A(c, fr_tk_forum_url_board(f, (unsigned)b, 1, url), f->boards[b].name,
			  NULL);
			P(c, "</li>");
		}
		if (thread) {
			P(c, "<li class=\"last\"> &#187; <span>");
			X(c, thread);
			P(c, "</span></li>");
		}
		P(c, "</ul></div>\n</div></div>\n<div id=\"content_section\"><div class=\"frame\">"
		     "<div id=\"main_content_section\">\n");
		break;
	case FR_TK_FORUM_XENFORO:
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
		A(c, fr_tk_forum_url_other(sw, FR_TK_FURL_SEARCH, url), c->ui->search,
		  "p-navEl-link");
		P(c, "</div></li><li><div class=\"p-navEl\">");
		A(c, fr_tk_forum_url_other(sw, FR_TK_FURL_FAQ, url), c->ui->faq, "p-navEl-link");
		P(c, "</div></li></ul><div class=\"p-nav-opposite\"><div "
		     "class=\"p-navgroup p-account p-navgroup--guest\">");
		A(c, fr_tk_forum_url_other(sw, FR_TK_FURL_LOGIN, url), c->ui->login,
		  "p-navgroup-link p-navgroup-link--logIn");
		A(c, "/login/register", c->ui->reg, "p-navgroup-link p-navgroup-link--register");
		P(c,
		  "</div></div></div></nav></div>\n<div class=\"p-body\"><div "
		  "class=\"p-body-inner\">\n<div class=\"p-breadcrumbs-wrap\"><ul "
		  "class=\"p-breadcrumbs\" itemscope "
		  "itemtype=\"https://schema.org/BreadcrumbList\"><li itemprop=\"itemListElement\" "
		  "itemscope itemtype=\"https://schema.org/ListItem\">");
		A(c, "/", c->ui->forum, NULL);
		P(c, "</li>");
		if (b >= 0) {
			P(c, "<li itemprop=\"itemListElement\" itemscope "
			     "itemtype=\"https://schema.org/ListItem\">");
			A(c, fr_tk_forum_url_board(f, (unsigned)b, 1, url), f->boards[b].name,
			  NULL);
			P(c, "</li>");
		}
		P(c, "</ul></div>\n");
		break;
	case FR_TK_FORUM_DISCUZ:
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
			A(c, fr_tk_forum_url_board(f, (unsigned)b, 1, url), f->boards[b].name,
			  NULL);
		}
		P(c, "</div></div>\n");
		break;
	case FR_TK_FORUM_CUSTOM:
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
			A(c, fr_tk_forum_url_board(f, (unsigned)b, 1, url), f->boards[b].name,
			  NULL);
		}
		P(c, "</div>\n</td></tr><tr><td class=\"content\">\n");
		break;
	default:
		P(c,
		  "<body class=\"listing-page\">\n<div id=\"header\" role=\"banner\"><div "
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
			A(c, fr_tk_forum_url_board(f, (unsigned)b, 1, url), f->boards[b].slug,
			  NULL);
			P(c, "</span>");
		}
		P(c, "</div>\n<div id=\"header-bottom-right\"><span class=\"user\">");
		A(c, fr_tk_forum_url_other(sw, FR_TK_FURL_LOGIN, url), c->ui->login,
		  "login-required");
		P(c, "</span> | ");
		A(c, fr_tk_forum_url_other(sw, FR_TK_FURL_SEARCH, url), c->ui->search, NULL);
		P(c, " | ");
		A(c, fr_tk_forum_url_other(sw, FR_TK_FURL_FAQ, url), c->ui->faq, NULL);
		P(c, "</div></div>\n<div class=\"content\" role=\"main\">\n");
		break;
	}
}

static void
page_end(struct rc *c)
{
	enum fr_tk_forum_sw sw = c->p->sw;

	switch (sw) {
	case FR_TK_FORUM_PHPBB:
		P(c, "</div>\n<div id=\"page-footer\" class=\"page-footer\" "
		     "role=\"contentinfo\"><div class=\"navbar\"><ul class=\"linklist\"><li "
		     "class=\"rightside\">");
		X(c, c->ui->all_times);
		P(c, "</li></ul></div>\n<div class=\"copyright\">");
		break;
	case FR_TK_FORUM_VBULLETIN:
		P(c, "<div id=\"footer_time\" class=\"shade footer_time\">");
		X(c, c->ui->all_times);
		P(c, ". ");
		X(c, c->ui->now_is);
		P(c, " ");
		now_el(c);
		P(c, ".</div>\n</div>\n<div class=\"below_body\"><div id=\"footer_copyright\" "
		     "class=\"shade footer_copyright\">");
		break;
	case FR_TK_FORUM_SMF:
		P(c, "</div></div></div>\n<div id=\"footer_section\"><div class=\"frame\"><ul "
		     "class=\"reset\"><li class=\"copyright\">");
		break;
	case FR_TK_FORUM_XENFORO:
		P(c, "</div></div>\n<footer class=\"p-footer\" id=\"footer\"><div "
		     "class=\"p-footer-inner\"><div class=\"p-footer-row\">");
		X(c, c->ui->all_times);
		P(c, " &middot; ");
		now_el(c);
		P(c, "</div><div class=\"p-footer-copyright\">");
		break;
	case FR_TK_FORUM_DISCUZ:
		P(c, "</div>\n<div id=\"ft\" class=\"wp cl\"><div id=\"flk\" class=\"y\"><p>");
		X(c, c->ui->all_times);
		P(c, ", ");
		now_el(c);
		P(c, "</p></div><div id=\"frt\"><p>");
		break;
	case FR_TK_FORUM_CUSTOM:
		P(c, "</td></tr><tr><td class=\"bottom\">\n<p>");
		X(c, c->ui->now_is);
		P(c, ": ");
		now_el(c);
		P(c, " (");
		X(c, c->ui->all_times);
		P(c, ")</p>\n<p>");
		break;
	default:
		P(c, "</div>\n<div class=\"footer-parent\"><div class=\"footer\"><p>");
		X(c, c->ui->all_times);
		P(c, " &middot; ");
		now_el(c);
		P(c, "</p><p class=\"bottommenu\">");
		break;
	}
	P(c, POWERED[sw]);
	switch (sw) {
	case FR_TK_FORUM_PHPBB:
		P(c, "</div>\n</div>\n</div>\n");
		break;
	case FR_TK_FORUM_VBULLETIN:
		P(c, "</div></div>\n");
		break;
	case FR_TK_FORUM_SMF:
		P(c, "</li></ul></div></div>\n</div>\n");
		break;
	case FR_TK_FORUM_XENFORO:
		P(c, "</div></div></footer>\n</div>\n");
		break;
	case FR_TK_FORUM_DISCUZ:
		P(c, "</p></div></div>\n");
		break;
	case FR_TK_FORUM_CUSTOM:
		P(c, "</p>\n</td></tr></table>\n");
		break;
	default:
		P(c, "</p></div></div>\n");
		break;
	}
	P(c, "</body>\n</html>\n");
}

/* ---- pagination ---- */

struct pager {
	int thread; /* 0: board b, 1: thread i */
	unsigned b;
	size_t i;
	uint32_t cur, last;
	unsigned long items; /* threads or posts, for "N topics" */
};

/* Escapes the '&' of a URL in buf (U bytes) for an HTML attribute. */
static char *
amp(char *buf)
{
	char tmp[U];
	size_t n = 0;

	for (const char *p = buf; *p && n + 6 < sizeof(tmp); p++) {
		if (*p == '&') {
			memcpy(tmp + n, "&amp;", 5);
			n += 5;
		} else {
			tmp[n++] = *p;
		}
	}
	tmp[n] = '\0';
	memcpy(buf, tmp, n + 1);
	return buf;
}

/* The URL of page `page` of what pg pages through, escaped for HTML. */
static char *
pager_url(struct rc *c, const struct pager *pg, uint32_t page, char *buf)
{
	return amp(pg->thread ? fr_tk_forum_url_thread(c->f, pg->i, page, buf)
	                      : fr_tk_forum_url_board(c->f, pg->b, page, buf));
}

/* Pages shown: the first, the last, and the current one +- 2. */
static int
shown_page(uint32_t p, uint32_t cur, uint32_t last)
{
	return p == 1 || p == last || (p + 2 >= cur && p <= cur + 2);
}

static void
pager(struct rc *c, const struct pager *pg)
{
	enum fr_tk_forum_sw sw = c->p->sw;
	char url[U];
	uint32_t p;
	int gap;

	switch (sw) {
	case FR_TK_FORUM_PHPBB:
		F(c, "<div class=\"pagination\">%lu %s &bull; ", pg->items,
		  pg->thread ? c->ui->posts : c->ui->topics);
		if (pg->last <= 1) {
			F(c, "%s <strong>1</strong> %s <strong>1</strong></div>\n", c->ui->page,
			  c->ui->of);
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
				F(c,
				  "<li><a class=\"button\" href=\"%s\" role=\"button\">%u</a></li>",
				  pager_url(c, pg, p, url), (unsigned)p);
		}
		if (pg->cur < pg->last)
			F(c,
			  "<li class=\"arrow next\"><a class=\"button button-icon-only\" "
			  "href=\"%s\" rel=\"next\" role=\"button\"><span>%s</span></a></li>",
			  pager_url(c, pg, pg->cur + 1, url), c->ui->next);
		P(c, "</ul></div>\n");
		return;
	case FR_TK_FORUM_VBULLETIN:
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
		return;
	case FR_TK_FORUM_SMF:
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
				F(c, "<a class=\"navPages\" href=\"%s\">%u</a> ",
				  pager_url(c, pg, p, url), (unsigned)p);
		}
		P(c, "</div>\n");
		return;
	case FR_TK_FORUM_XENFORO:
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
		return;
	case FR_TK_FORUM_DISCUZ:
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
			F(c, "<a href=\"%s\" class=\"nxt\">%s</a>",
			  pager_url(c, pg, pg->cur + 1, url), c->ui->next);
		P(c, "</div>\n");
		return;
	case FR_TK_FORUM_CUSTOM:
		if (pg->last <= 1)
			return;
		F(c, "<p class=\"pages\">%s:", c->ui->page);
		for (p = 1; p <= pg->last; p++) {
			if (p == pg->cur)
				F(c, " <b>%u</b>", (unsigned)p);
			else
				F(c, " <a href=\"%s\">%u</a>", pager_url(c, pg, p, url),
				  (unsigned)p);
		}
		if (pg->cur < pg->last)
			F(c, " <a href=\"%s\">%s &raquo;</a>", pager_url(c, pg, pg->cur + 1, url),
			  c->ui->next);
		P(c, "</p>\n");
		return;
	default:
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
		return;
	}
}

/* ---- index pages ---- */

struct row {
	size_t i;
	const struct fr_tk_fthread *th;
	uint32_t n, pages, la_page;
	int64_t created, last;
	char title[200], url[U], la_url[U + 24];
};

static uint32_t
pages_of(uint32_t items, unsigned per)
{
	return items == 0 ? 1 : (items + per - 1) / per;
}

/* The page of thread th on which its newest visible post is shown. */
static uint32_t
la_page(const struct rc *c, const struct fr_tk_fthread *th, uint32_t n)
{
	uint32_t *order;
	uint32_t pos = n - 1;

	if (!c->p->nested)
		return c->p->tsort == FR_TK_FORUM_DSC ? 1 : pages_of(n, c->p->posts_pp);
	order = malloc(n * sizeof(*order));
	if (order && fr_tk_forum_gen_thread_order(c->f, th, n, order, NULL) == 0) {
		for (uint32_t k = 0; k < n; k++)
			if (order[k] == n - 1)
				pos = k;
	}
	free(order);
	return pos / c->p->posts_pp + 1;
}

static void
fill_row(struct rc *c, size_t i, struct row *r)
{
	const struct fr_tk_forum *f = c->f;
	static const char *const FRAG[FR_TK_FORUM_N_SW] = {"#p",   "#post",  "#msg", "#post-",
	                                                "#pid", "#post-", "#c"};

	r->i = i;
	r->th = &f->th[i];
	r->n = fr_tk_forum_gen_posts_at(r->th, c->now);
	r->pages = pages_of(r->n, c->p->posts_pp);
	r->created = r->th->t[0];
	r->last = r->th->t[r->n - 1];
	fr_tk_forum_gen_title(f, i, r->title, sizeof(r->title));
	fr_tk_forum_url_thread(f, i, 1, r->url);
	r->la_page = la_page(c, r->th, r->n);
	fr_tk_forum_url_thread(f, i, r->la_page, r->la_url);
	snprintf(r->la_url + strlen(r->la_url), sizeof(r->la_url) - strlen(r->la_url), "%s%u",
	         FRAG[c->p->sw], (unsigned)r->th->pid[r->n - 1]);
}

/* A mini pager of thread pages 1, 2, 3 ... last (la forums only). */
static void
mini_pager(struct rc *c, const struct row *r, const char *open, const char *close)
{
	char url[U];

	if (!c->p->la_links || r->pages <= 1)
		return;
	P(c, open);
	for (uint32_t p = 1; p <= r->pages; p++) {
		if (p > 3 && p < r->pages) {
			if (p == 4)
				P(c, " &hellip;");
			continue;
		}
		F(c, " <a href=\"%s\">%u</a>", amp(fr_tk_forum_url_thread(c->f, r->i, p, url)),
		  (unsigned)p);
	}
	P(c, close);
}

static int
show_created(const struct rc *c)
{
	return c->p->idates != FR_TK_FORUM_IDATES_LAST;
}

static int
show_last(const struct rc *c)
{
	return c->p->idates != FR_TK_FORUM_IDATES_CREATED;
}

static void
index_row(struct rc *c, const struct row *r, int sticky)
{
	const struct fr_tk_forum *f = c->f;
	const struct fr_tk_fthread *th = r->th;
	uint32_t views = fr_tk_forum_gen_views(f, r->i, c->now), replies = r->n - 1;

	switch (c->p->sw) {
	case FR_TK_FORUM_PHPBB:
		F(c,
		  "<li class=\"row bg%d%s\"><dl class=\"row-item %s\"><dt title=\"\"><div "
		  "class=\"list-inner\">",
		  (int)(r->i % 2 + 1), sticky ? " sticky" : "",
		  sticky ? "sticky_read" : "topic_read");
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
		  (unsigned)replies, c->ui->replies, (unsigned)views, c->ui->views,
		  c->ui->last_post, c->ui->by);
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
		break;
	case FR_TK_FORUM_VBULLETIN:
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
		  c->ui->replies, (unsigned)replies, c->ui->views, (unsigned)views,
		  c->ui->last_post);
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
		break;
	case FR_TK_FORUM_SMF:
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
		  sticky ? "stickybg" : "windowbg", (unsigned)replies, c->ui->replies,
		  (unsigned)views, c->ui->views, sticky ? "stickybg2" : "windowbg2");
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
		break;
	case FR_TK_FORUM_XENFORO:
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
		break;
	case FR_TK_FORUM_DISCUZ:
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
		F(c, "\" class=\"xi2\">%u</a><em>%u</em></td><td class=\"by\"><cite>",
		  (unsigned)replies, (unsigned)views);
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
		break;
	case FR_TK_FORUM_CUSTOM:
		F(c, "<tr class=\"thread%s\" id=\"t%u\"><td class=\"title\">",
		  sticky ? " pinned" : "", (unsigned)th->id);
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
		break;
	default:
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
		break;
	}
}

static void
index_open(struct rc *c, unsigned b)
{
	const struct fr_tk_fboard *bd = &c->f->boards[b];
	char url[U];

	switch (c->p->sw) {
	case FR_TK_FORUM_PHPBB:
		P(c, "<h2 class=\"forum-title\">");
		A(c, fr_tk_forum_url_board(c->f, b, 1, url), bd->name, NULL);
		P(c, "</h2>\n<p class=\"right responsive-center time\">");
		X(c, c->ui->now_is);
		P(c, " ");
		now_el(c);
		P(c, "</p>\n");
		break;
	case FR_TK_FORUM_VBULLETIN:
		P(c, "<div id=\"pagetitle\"><h1>");
		X(c, c->ui->forum);
		P(c, ": <span class=\"forumtitle\">");
		X(c, bd->name);
		P(c, "</span></h1></div>\n");
		break;
	case FR_TK_FORUM_XENFORO:
		P(c, "<div class=\"p-body-header\"><div class=\"p-title\"><h1 "
		     "class=\"p-title-value\">");
		X(c, bd->name);
		P(c, "</h1></div></div>\n");
		break;
	case FR_TK_FORUM_DISCUZ:
		P(c, "<div class=\"bm bml pbn\"><div class=\"bm_h cl\"><h1 class=\"xs2\">");
		A(c, fr_tk_forum_url_board(c->f, b, 1, url), bd->name, NULL);
		P(c, "</h1></div></div>\n");
		break;
	default:
		P(c, "<h1>");
		X(c, bd->name);
		P(c, "</h1>\n");
		break;
	}
}

static void
rows_open(struct rc *c)
{
	switch (c->p->sw) {
	case FR_TK_FORUM_PHPBB:
		F(c,
		  "<div class=\"forumbg\"><div class=\"inner\"><ul class=\"topiclist\"><li "
		  "class=\"header\"><dl class=\"row-item\"><dt><div "
		  "class=\"list-inner\">%s</div></dt><dd class=\"posts\">%s</dd><dd "
		  "class=\"views\">%s</dd><dd "
		  "class=\"lastpost\"><span>%s</span></dd></dl></li></ul>"
		  "\n<ul class=\"topiclist topics\">\n",
		  c->ui->topics, c->ui->replies, c->ui->views, c->ui->last_post);
		break;
	case FR_TK_FORUM_VBULLETIN:
		P(c, "<div id=\"threadlist\" class=\"threadlist\"><ol id=\"threads\" "
		     "class=\"threads\">\n");
		break;
	case FR_TK_FORUM_SMF:
		F(c,
		  "<div class=\"tborder topic_table\" id=\"messageindex\"><table "
		  "class=\"table_grid\" cellspacing=\"0\"><thead><tr class=\"catbg\"><th "
		  "scope=\"col\" class=\"first_th\" width=\"8%%\">&nbsp;</th><th "
		  "scope=\"col\">%s</th><th scope=\"col\" width=\"14%%\">%s</th><th scope=\"col\" "
		  "class=\"last_th\" width=\"22%%\">%s</th></tr></thead><tbody>\n",
		  c->ui->topics, c->ui->replies, c->ui->last_post);
		break;
	case FR_TK_FORUM_XENFORO:
		P(c, "<div class=\"block-container\"><div class=\"block-body\"><div "
		     "class=\"structItemContainer\">\n");
		break;
	case FR_TK_FORUM_DISCUZ:
		F(c,
		  "<div id=\"threadlist\" class=\"tl bm bmw\"><div class=\"th\"><table "
		  "cellspacing=\"0\" cellpadding=\"0\"><tr><th colspan=\"2\">%s</th><td "
		  "class=\"by\">%s</td><td class=\"num\">%s</td><td class=\"by\">%s</td></tr>"
		  "</table></div><div class=\"bm_c\"><table summary=\"forum\" cellspacing=\"0\" "
		  "cellpadding=\"0\" id=\"threadlisttableid\">\n",
		  c->ui->topics, c->ui->by, c->ui->replies, c->ui->last_post);
		break;
	case FR_TK_FORUM_CUSTOM:
		F(c,
		  "<table class=\"threads\" cellspacing=\"1\"><tr><th>%s</th><th>%s</th><th>"
		  "%s</th><th>%s</th><th>%s</th><th>%s</th></tr>\n",
		  c->ui->topics, c->ui->by, c->ui->posted_on, c->ui->replies, c->ui->views,
		  c->ui->last_post);
		break;
	default:
		P(c, "<div id=\"siteTable\" class=\"sitetable linklisting\">\n");
		break;
	}
}

static void
rows_close(struct rc *c)
{
	static const char *const CLOSE[FR_TK_FORUM_N_SW] = {"</ul></div></div>\n",
	                                                 "</ol></div>\n",
	                                                 "</tbody></table></div>\n",
	                                                 "</div></div></div>\n",
	                                                 "</table></div></div>\n",
	                                                 "</table>\n",
	                                                 "</div>\n"};

	P(c, CLOSE[c->p->sw]);
}

/* Sort and filter links beside a board's pager (the same board, one
 * parameter more): to be told from the pager, which steps one parameter. */
static void
filters(struct rc *c, unsigned b)
{
	static const char *const php[] = {"&sk=t&sd=d", "&sk=s&sd=a", "&st=7"};
	static const char *const vb[] = {"&daysprune=30&order=desc&sort=lastpost", "&posticon=2",
	                                 "&posticon=3"};
	char url[U];

	if (!c->p->filters || (c->p->sw != FR_TK_FORUM_PHPBB && c->p->sw != FR_TK_FORUM_VBULLETIN))
		return;
	P(c, "<div class=\"filters\">");
	for (size_t i = 0; i < 3; i++) {
		fr_tk_forum_url_board(c->f, b, 1, url);
		F(c, " <a href=\"");
		X(c, url);
		X(c, c->p->sw == FR_TK_FORUM_PHPBB ? php[i] : vb[i]);
		F(c, "\">%s %zu</a>", c->ui->page, i + 1);
	}
	P(c, "</div>\n");
}

static int
board_page(struct rc *c, unsigned b, uint32_t page, int *found)
{
	const struct fr_tk_forum *f = c->f;
	const struct fr_tk_fboard *bd = &f->boards[b];
	uint32_t *order = NULL;
	long n = fr_tk_forum_gen_board_order(f, b, c->now, &order);
	uint32_t last;
	struct pager pg;
	struct row *r;

	if (n < 0)
		return -1;
	last = pages_of((uint32_t)n, c->p->threads_pp);
	if (page == 0 || page > last) {
		free(order);
		*found = 0;
		return 0;
	}
	*found = 1;
	r = malloc(sizeof(*r));
	if (!r) {
		free(order);
		return -1;
	}
	pg = (struct pager){0, b, 0, page, last, (unsigned long)n};
	{
		char title[160];

		if (page > 1)
			snprintf(title, sizeof(title), "%s - %s %u", bd->name, c->ui->page,
			         (unsigned)page);
		else
			snprintf(title, sizeof(title), "%s", bd->name);
		page_begin(c, title, "viewforum", (int)b, NULL);
	}
	index_open(c, b);
	pager(c, &pg);
	filters(c, b);
	rows_open(c);
	if (page == 1) {
		for (unsigned s = 0; s < bd->n_sticky; s++) {
			fill_row(c, bd->sticky[s], r);
			index_row(c, r, 1);
		}
	}
	for (long k = (long)(page - 1) * c->p->threads_pp;
	     k < n && k < (long)page * c->p->threads_pp; k++) {
		fill_row(c, order[k], r);
		index_row(c, r, 0);
	}
	if (n == 0 && bd->n_sticky == 0) {
		P(c, "<p class=\"empty\">");
		X(c, c->ui->no_posts);
		P(c, "</p>\n");
	}
	rows_close(c);
	pager(c, &pg);
	page_end(c);
	free(r);
	free(order);
	return 0;
}

/* ---- thread pages ---- */

/* The text of a post as HTML: paragraphs as <p> or separated by <br><br>. */
static void
post_body(struct rc *c, size_t i, uint32_t j, int br)
{
	struct fr_text t = {0};
	const char *s, *e;
	long q = fr_tk_forum_gen_post_quote(c->f, i, j);

	if (q >= 0) {
		struct fr_text qt = {0};
		char name[64];
		size_t cut;

		fr_tk_forum_gen_post_text(c->f, i, (uint32_t)q, &qt);
		if (qt.p && fr_tk_forum_lang_spaced(c->p->lang)) {
			cut = strcspn(qt.p, ".!\n");
		} else if (qt.p) {
			const char *stop = strstr(qt.p, "。");

			cut = stop ? (size_t)(stop - qt.p) : qt.len;
		} else {
			cut = 0;
		}
		fr_tk_forum_gen_member_name(c->f, c->f->th[i].author[q], name, sizeof(name));
		if (qt.p)
			qt.p[cut] = '\0';
		switch (c->p->qstyle) {
		case FR_TK_FORUM_Q_HEADER: /* SMF: a header box, the quote, a footer */
			F(c, "<div class=\"quoteheader\"><div class=\"topslice_quote\"><a "
			     "href=\"#\">");
			X(c, name);
			F(c, " %s:</a></div></div><blockquote class=\"bbc_standard_quote\">",
			  c->ui->wrote);
			X(c, qt.p ? qt.p : "");
			P(c, " &hellip;</blockquote><div class=\"quotefooter\"><div "
			     "class=\"botslice_quote\"></div></div>\n");
			break;
		case FR_TK_FORUM_Q_BOX: /* vBulletin 4: boxes, no <blockquote> */
			P(c, "<div class=\"bbcode_container\"><div class=\"bbcode_quote\"><div "
			     "class=\"quote_container\"><div class=\"bbcode_postedby\"><strong>");
			X(c, name);
			P(c, "</strong></div><div class=\"message\">");
			X(c, qt.p ? qt.p : "");
			P(c, " &hellip;</div></div></div></div>\n");
			break;
		case FR_TK_FORUM_Q_TABLE: /* vBulletin 3: "Quote:" over a table */
			P(c, "<div style=\"margin:20px; margin-top:5px\"><div "
			     "class=\"smallfont\">Quote:</div><table cellpadding=\"6\" "
			     "width=\"100%\"><tr><td class=\"alt2\"><div><strong>");
			X(c, name);
			P(c, "</strong></div><div style=\"font-style:italic\">");
			X(c, qt.p ? qt.p : "");
			P(c, " &hellip;</div></td></tr></table></div>\n");
			break;
		default:
			P(c, "<blockquote class=\"quote\"><cite>");
			X(c, name);
			P(c, " ");
			X(c, c->ui->wrote);
			P(c, ":</cite><div>");
			X(c, qt.p ? qt.p : "");
			P(c, " &hellip;</div></blockquote>\n");
			break;
		}
		fr_text_free(&qt);
	}
	fr_tk_forum_gen_post_text(c->f, i, j, &t);
	s = t.p ? t.p : "";
	for (;;) {
		char *para;
		size_t n;

		e = strstr(s, "\n\n");
		n = e ? (size_t)(e - s) : strlen(s);
		para = strndup(s, n);
		if (!br)
			P(c, "<p>");
		X(c, para ? para : "");
		free(para);
		if (!br)
			P(c, "</p>");
		if (!e)
			break;
		if (br)
			P(c, "<br>\n<br>\n");
		else
			P(c, "\n");
		s = e + 2;
	}
	fr_text_free(&t);
}

static void
signature(struct rc *c, uint32_t m, const char *open, const char *close)
{
	if (m % 3 != 1)
		return;
	P(c, open);
	F(c, "&mdash; %s %s, %s %s", fr_tk_forum_lang_word(c->p->lang, m * 7 + 3),
	  fr_tk_forum_lang_word(c->p->lang, m * 5 + 1), fr_tk_forum_lang_word(c->p->lang, m + 11),
	  fr_tk_forum_lang_word(c->p->lang, m * 3 + 2));
	P(c, close);
}

static void
post_block(struct rc *c, size_t i, uint32_t j, uint32_t depth, const char *title)
{
	const struct fr_tk_forum *f = c->f;
	const struct fr_tk_fthread *th = &f->th[i];
	uint32_t m = th->author[j], pid = th->pid[j];
	unsigned no = (unsigned)j + 1;
	int pinned = c->p->tsort == FR_TK_FORUM_DSC && j == 0 && th->n > 1 && !c->p->nested;
	char name[64];

	fr_tk_forum_gen_member_name(f, m, name, sizeof(name));
	switch (c->p->sw) {
	case FR_TK_FORUM_PHPBB:
		F(c,
		  "<div id=\"p%u\" class=\"%spost has-profile bg%d%s\"><div class=\"inner\">\n<dl "
		  "class=\"postprofile\" id=\"profile%u\"><dt class=\"no-profile-rank "
		  "no-avatar\">",
		  (unsigned)pid, mark(c, 2, pid), (int)(j % 2 + 1), pinned ? " sticky" : "",
		  (unsigned)pid);
		member_link(c, m, "username");
		F(c,
		  "</dt><dd class=\"profile-posts\"><strong>%s:</strong> %u</dd><dd "
		  "class=\"profile-joined\"><strong>%s:</strong> ",
		  c->ui->posts, (unsigned)fr_tk_forum_gen_member_posts(f, m, c->now),
		  c->ui->joined);
		date_el(c, fr_tk_forum_gen_member_joined(f, m), "date-joined");
		F(c,
		  "</dd></dl>\n<div class=\"postbody\"><div id=\"post_content%u\"><h3%s><a "
		  "href=\"#p%u\">%s",
		  (unsigned)pid, j == 0 ? " class=\"first\"" : "", (unsigned)pid,
		  j == 0 ? "" : "Re: ");
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
			F(c, " <a href=\"/viewtopic.php?p=%u#p%u\">#</a>", (unsigned)pid,
			  (unsigned)pid);
		P(c, "</p><div class=\"content\">");
		post_body(c, i, j, 1);
		P(c, "</div>");
		signature(c, m, "<div class=\"signature\">", "</div>");
		P(c, "</div></div>\n</div></div>\n<hr class=\"divider\">\n");
		break;
	case FR_TK_FORUM_VBULLETIN:
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
			F(c,
			  " <a href=\"/showthread.php?t=%u&amp;userid=%u\" rel=\"nofollow\">?</a>",
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
		break;
	case FR_TK_FORUM_SMF:
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
		signature(c, m, "<div class=\"moderatorbar\"><div class=\"signature\">",
		          "</div></div>");
		P(c, "</div>\n<span class=\"botslice\"><span></span></span></div>\n<hr "
		     "class=\"post_separator\">\n");
		break;
	case FR_TK_FORUM_XENFORO:
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
		  c->ui->posts, (unsigned)fr_tk_forum_gen_member_posts(f, m, c->now),
		  mark(c, 2, pid), (unsigned)pid);
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
		break;
	case FR_TK_FORUM_DISCUZ:
		F(c,
		  "<div id=\"post_%u\"><table id=\"pid%u\" class=\"plhin\" summary=\"pid%u\" "
		  "cellspacing=\"0\" cellpadding=\"0\"><tr><td class=\"pls\" rowspan=\"2\"><div "
		  "class=\"pi\"><div class=\"authi\">",
		  (unsigned)pid, (unsigned)pid, (unsigned)pid);
		member_link(c, m, "xw1");
		F(c, "</div></div><dl class=\"pil cl\"><dt>%s</dt><dd>%u</dd><dt>%s</dt><dd>",
		  c->ui->posts, (unsigned)fr_tk_forum_gen_member_posts(f, m, c->now),
		  c->ui->joined);
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
		break;
	case FR_TK_FORUM_CUSTOM:
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
		break;
	default: /* threaded: comments; the opening post is rendered by thread_page */
		F(c,
		  "<li class=\"comment\" id=\"c%u\" data-depth=\"%u\"><div class=\"entry\"><p "
		  "class=\"tagline\">",
		  (unsigned)pid, (unsigned)depth);
		member_link(c, m, "author");
		P(c, " ");
		date_el(c, th->t[j], "date-post");
		F(c, " <a class=\"permalink\" href=\"#c%u\">#%u</a></p><div class=\"md\">",
		  (unsigned)pid, no);
		post_body(c, i, j, 0);
		P(c, "</div></div>");
		break;
	}
}

static int
thread_page(struct rc *c, const struct fr_tk_fthread *th, uint32_t page, int *found)
{
	const struct fr_tk_forum *f = c->f;
	size_t i = (size_t)(th - f->th);
	uint32_t n = fr_tk_forum_gen_posts_at(th, c->now), last, *order, *depth, from, to, open = 0;
	char title[200], ptitle[260];
	struct pager pg;

	if (n == 0) {
		*found = 0;
		return 0;
	}
	last = pages_of(n, c->p->posts_pp);
	if (page == 0 || page > last) {
		*found = 0;
		return 0;
	}
	*found = 1;
	order = malloc(n * sizeof(*order));
	depth = malloc(n * sizeof(*depth));
	if (!order || !depth || fr_tk_forum_gen_thread_order(f, th, n, order, depth) < 0) {
		free(order);
		free(depth);
		return -1;
	}
	fr_tk_forum_gen_title(f, i, title, sizeof(title));
	if (page > 1)
		snprintf(ptitle, sizeof(ptitle), "%s - %s %u", title, c->ui->page, (unsigned)page);
	else
		snprintf(ptitle, sizeof(ptitle), "%s", title);
	page_begin(c, ptitle, "viewtopic", th->board, title);
	pg = (struct pager){1, th->board, i, page, last, (unsigned long)n};
	from = (page - 1) * c->p->posts_pp;
	to = from + c->p->posts_pp < n ? from + c->p->posts_pp : n;
	switch (c->p->sw) {
	case FR_TK_FORUM_PHPBB:
		P(c, "<h2 class=\"topic-title\">");
		A(c, fr_tk_forum_url_thread(f, i, 1, ptitle), title, NULL);
		P(c, "</h2>\n<div class=\"action-bar bar-top\">");
		pager(c, &pg);
		P(c, "</div>\n");
		break;
	case FR_TK_FORUM_VBULLETIN:
		P(c, "<div id=\"pagetitle\" class=\"pagetitle\"><h1>");
		X(c, title);
		P(c, "</h1></div>\n<div id=\"above_postlist\" class=\"above_postlist\">");
		pager(c, &pg);
		P(c, "</div>\n<div id=\"postlist\" class=\"postlist restrain\"><ol id=\"posts\" "
		     "class=\"posts\" start=\"1\">\n");
		break;
	case FR_TK_FORUM_SMF:
		P(c, "<a id=\"top\"></a><div class=\"pagesection\">");
		pager(c, &pg);
		P(c, "</div>\n<div id=\"forumposts\"><div class=\"cat_bar\"><h3 "
		     "class=\"catbg\">");
		X(c, title);
		P(c, "</h3></div><form action=\"/index.php?action=quickmod2\" method=\"post\" "
		     "name=\"quickModForm\" id=\"quickModForm\" style=\"margin: 0;\">\n");
		break;
	case FR_TK_FORUM_XENFORO:
		P(c, "<div class=\"p-body-header\"><div class=\"p-title\"><h1 "
		     "class=\"p-title-value\">");
		X(c, title);
		P(c, "</h1></div></div>\n<div class=\"block block--messages\"><div "
		     "class=\"block-outer\">");
		pager(c, &pg);
		P(c, "</div><div class=\"block-container lbContainer\"><div class=\"block-body "
		     "js-replyNewMessageContainer\">\n");
		break;
	case FR_TK_FORUM_DISCUZ:
		P(c, "<div id=\"pgt\" class=\"pgs mbm cl\">");
		pager(c, &pg);
		P(c, "</div>\n<div id=\"postlist\" class=\"pl bm\"><table cellspacing=\"0\" "
		     "cellpadding=\"0\"><tr><td class=\"plc ptm pbn vwthd\"><h1 class=\"ts\"><span "
		     "id=\"thread_subject\">");
		X(c, title);
		P(c, "</span></h1></td></tr></table>\n");
		break;
	case FR_TK_FORUM_CUSTOM:
		P(c, "<h1>");
		X(c, title);
		P(c, "</h1>\n");
		pager(c, &pg);
		P(c, "<div class=\"posts\">\n");
		break;
	default: {
		const struct fr_tk_fthread *t0 = th;

		P(c, "<div id=\"siteTable\" class=\"sitetable linklisting\"><div class=\"thing "
		     "link self\"><div class=\"entry\"");
		if (page == 1)
			F(c, " id=\"c%u\"", (unsigned)t0->pid[0]);
		P(c, "><p class=\"title\">");
		A(c, fr_tk_forum_url_thread(f, i, 1, ptitle), title, "title may-blank");
		P(c, "</p>");
		if (page == 1) {
			P(c, "<p class=\"tagline\">submitted ");
			date_el(c, t0->t[0], "date-post");
			P(c, " by ");
			member_link(c, t0->author[0], "author");
			P(c, "</p><div class=\"expando\"><div class=\"usertext-body\"><div "
			     "class=\"md\">");
			post_body(c, i, 0, 0);
			P(c, "</div></div></div>");
		}
		F(c,
		  "</div></div></div>\n<div class=\"commentarea\"><div class=\"panestack-title\">"
		  "<span class=\"title\">%u %s</span></div>\n",
		  (unsigned)(n - 1), c->ui->replies);
		pager(c, &pg);
		P(c, "<ul class=\"comments nestedlisting\">\n");
		break;
	}
	}
	for (uint32_t k = from; k < to; k++) {
		uint32_t d = depth[k];

		if (c->p->sw != FR_TK_FORUM_THREADED) {
			post_block(c, i, order[k], 0, title);
			continue;
		}
		if (order[k] == 0)
			continue; /* the submission, shown above */
		/* Nested lists: close down to depth d - 1, or open up to it. */
		if (open >= d) {
			P(c, "</li>\n");
			open--;
			while (open >= d) {
				P(c, "</ul></li>\n");
				open--;
			}
		} else {
			while (open + 1 < d) {
				if (open >= 1)
					P(c, "<ul class=\"children\">");
				P(c, "<li class=\"comment continued\">");
				open++;
			}
			if (open >= 1)
				P(c, "<ul class=\"children\">\n");
		}
		post_block(c, i, order[k], d, title);
		open = d;
	}
	if (c->p->sw == FR_TK_FORUM_THREADED) {
		while (open >= 1) {
			P(c, "</li>");
			open--;
			if (open >= 1)
				P(c, "</ul>");
		}
		P(c, "</ul>\n");
	}
	switch (c->p->sw) {
	case FR_TK_FORUM_PHPBB:
		P(c, "<div class=\"action-bar bar-bottom\">");
		pager(c, &pg);
		P(c, "</div>\n");
		break;
	case FR_TK_FORUM_VBULLETIN:
		P(c, "</ol></div>\n<div id=\"below_postlist\" class=\"below_postlist\">");
		pager(c, &pg);
		P(c, "</div>\n");
		break;
	case FR_TK_FORUM_SMF:
		P(c, "</form></div>\n<div class=\"pagesection\">");
		pager(c, &pg);
		P(c, "</div>\n");
		break;
	case FR_TK_FORUM_XENFORO:
		P(c, "</div></div><div class=\"block-outer block-outer--after\">");
		pager(c, &pg);
		P(c, "</div></div>\n");
		break;
	case FR_TK_FORUM_DISCUZ:
		P(c, "</div>\n<div class=\"pgs mtm mbm cl\">");
		pager(c, &pg);
		P(c, "</div>\n");
		break;
	case FR_TK_FORUM_CUSTOM:
		P(c, "</div>\n");
		pager(c, &pg);
		break;
	default:
		pager(c, &pg);
		P(c, "</div>\n");
		break;
	}
	page_end(c);
	free(order);
	free(depth);
	return 0;
}

/* ---- the entry page ---- */

struct board_stats {
	unsigned long topics, posts;
	int64_t last;
	size_t last_i;
	int has_last;
};

static void
stats_of(const struct rc *c, unsigned b, struct board_stats *st)
{
	const struct fr_tk_forum *f = c->f;
	size_t n = fr_tk_forum_gen_threads_at(f, c->now);

	memset(st, 0, sizeof(*st));
	for (size_t i = 0; i < n; i++) {
		const struct fr_tk_fthread *th = &f->th[i];
		uint32_t np;

		if (th->board != b)
			continue;
		np = fr_tk_forum_gen_posts_at(th, c->now);
		st->topics++;
		st->posts += np;
		if (!st->has_last || th->t[np - 1] > st->last ||
		    (th->t[np - 1] == st->last && th->id > f->th[st->last_i].id)) {
			st->has_last = 1;
			st->last = th->t[np - 1];
			st->last_i = i;
		}
	}
}

static void
board_desc(struct rc *c, unsigned b)
{
	for (unsigned w = 0; w < 6; w++) {
		if (w && fr_tk_forum_lang_spaced(c->p->lang))
			P(c, " ");
		X(c, fr_tk_forum_lang_word(c->p->lang, b * 7 + w * 5 + c->f->k));
	}
	P(c, fr_tk_forum_lang_spaced(c->p->lang) ? "." : "。");
}

static void
entry_page(struct rc *c)
{
	const struct fr_tk_forum *f = c->f;
	char url[U], title[200];

	page_begin(c, NULL, "index", -1, NULL);
	if (c->p->sw == FR_TK_FORUM_PHPBB || c->p->sw == FR_TK_FORUM_VBULLETIN) {
		P(c, "<p class=\"right responsive-center time\">");
		X(c, c->ui->now_is);
		P(c, " ");
		now_el(c);
		P(c, "</p>\n");
	}
	switch (c->p->sw) {
	case FR_TK_FORUM_PHPBB:
		F(c,
		  "<div class=\"forabg\"><div class=\"inner\"><ul class=\"topiclist\"><li "
		  "class=\"header\"><dl class=\"row-item\"><dt><div class=\"list-inner\">%s</div>"
		  "</dt><dd class=\"topics\">%s</dd><dd class=\"posts\">%s</dd><dd "
		  "class=\"lastpost\"><span>%s</span></dd></dl></li></ul><ul class=\"topiclist "
		  "forums\">\n",
		  c->ui->forum, c->ui->topics, c->ui->posts, c->ui->last_post);
		break;
	case FR_TK_FORUM_VBULLETIN:
		P(c, "<ol id=\"forums\" class=\"floatcontainer\"><li class=\"forumbit_nopost\"><ol "
		     "class=\"childforum\">\n");
		break;
	case FR_TK_FORUM_SMF:
		P(c, "<div id=\"boardindex_table\"><table class=\"table_list\"><tbody "
		     "class=\"content\">\n");
		break;
	case FR_TK_FORUM_XENFORO:
		P(c, "<div class=\"block block--category\"><div class=\"block-container\"><div "
		     "class=\"block-body\">\n");
		break;
	case FR_TK_FORUM_DISCUZ:
		P(c,
		  "<div class=\"fl bm\"><div class=\"bm bmw cl\"><div id=\"category_1\" "
		  "class=\"bm_c\"><table cellspacing=\"0\" cellpadding=\"0\" class=\"fl_tb\">\n");
		break;
	case FR_TK_FORUM_CUSTOM:
		F(c,
		  "<h1>%s</h1>\n<table class=\"boards\"><tr><th>%s</th><th>%s</th><th>%s</th>"
		  "<th>%s</th></tr>\n",
		  c->ui->board_index, c->ui->forum, c->ui->topics, c->ui->posts, c->ui->last_post);
		break;
	default:
		P(c, "<div class=\"communities\"><h1>Communities</h1><ul>\n");
		break;
	}
	for (unsigned b = 0; b < f->n_boards; b++) {
		struct board_stats st;
		const struct fr_tk_fboard *bd = &f->boards[b];

		stats_of(c, b, &st);
		fr_tk_forum_url_board(f, b, 1, url);
		switch (c->p->sw) {
		case FR_TK_FORUM_PHPBB:
			P(c, "<li class=\"row\"><dl class=\"row-item forum_read\"><dt><div "
			     "class=\"list-inner\">");
			A(c, url, bd->name, "forumtitle");
			P(c, "<br>");
			board_desc(c, b);
			F(c,
			  "</div></dt><dd class=\"topics\">%lu</dd><dd class=\"posts\">%lu</dd><dd "
			  "class=\"lastpost\"><span>",
			  st.topics, st.posts);
			break;
		case FR_TK_FORUM_VBULLETIN:
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
			  c->ui->topics, st.topics, c->ui->posts, st.posts);
			break;
		case FR_TK_FORUM_SMF:
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
			  st.posts, c->ui->posts, st.topics, c->ui->topics);
			break;
		case FR_TK_FORUM_XENFORO:
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
			  c->ui->topics, st.topics, c->ui->posts, st.posts);
			break;
		case FR_TK_FORUM_DISCUZ:
			P(c, "<tr><td class=\"fl_g\"><dl><dt>");
			A(c, url, bd->name, NULL);
			P(c, "</dt><dd>");
			board_desc(c, b);
			F(c, "</dd><dd><em>%s: %lu</em>, <em>%s: %lu</em></dd><dd>", c->ui->topics,
			  st.topics, c->ui->posts, st.posts);
			break;
		case FR_TK_FORUM_CUSTOM:
			P(c, "<tr><td>");
			A(c, url, bd->name, "board");
			P(c, "<br><small>");
			board_desc(c, b);
			F(c, "</small></td><td>%lu</td><td>%lu</td><td>", st.topics, st.posts);
			break;
		default:
			P(c, "<li class=\"community\">");
			A(c, url, bd->slug, "community-name");
			F(c, " <span class=\"members\">%lu %s</span> <p>", st.topics,
			  c->ui->topics);
			board_desc(c, b);
			P(c, "</p><p class=\"latest\">");
			break;
		}
		if (st.has_last) {
			const struct fr_tk_fthread *th = &f->th[st.last_i];
			uint32_t np = fr_tk_forum_gen_posts_at(th, c->now);

			A(c, fr_tk_forum_url_thread(f, st.last_i, 1, url),
			  fr_tk_forum_gen_title(f, st.last_i, title, sizeof(title)), "lastsubject");
			P(c, "<br>");
			X(c, c->ui->by);
			P(c, " ");
			member_link(c, th->author[np - 1], "username");
			P(c, "<br>");
			date_el(c, st.last, "date-last");
		} else {
			X(c, c->ui->no_posts);
		}
		switch (c->p->sw) {
		case FR_TK_FORUM_PHPBB:
			P(c, "</span></dd></dl></li>\n");
			break;
		case FR_TK_FORUM_VBULLETIN:
			P(c, "</p></div></div></li>\n");
			break;
		case FR_TK_FORUM_SMF:
			P(c, "</p></td></tr>\n");
			break;
		case FR_TK_FORUM_XENFORO:
			P(c, "</div></div></div>\n");
			break;
		case FR_TK_FORUM_DISCUZ:
			P(c, "</dd></dl></td></tr>\n");
			break;
		case FR_TK_FORUM_CUSTOM:
			P(c, "</td></tr>\n");
			break;
		default:
			P(c, "</p></li>\n");
			break;
		}
	}
	{
		static const char *const CLOSE[FR_TK_FORUM_N_SW] = {"</ul></div></div>\n",
		                                                 "</ol></li></ol>\n",
		                                                 "</tbody></table></div>\n",
		                                                 "</div></div></div>\n",
		                                                 "</table></div></div></div>\n",
		                                                 "</table>\n",
		                                                 "</ul></div>\n"};

		P(c, CLOSE[c->p->sw]);
	}
	F(c, "<div class=\"stat\"><h3>%s</h3><p>%s: %lu &bull; %s: %lu</p></div>\n", c->ui->members,
	  c->ui->members, (unsigned long)fr_tk_forum_gen_members_at(f, c->now), c->ui->topics,
	  (unsigned long)fr_tk_forum_gen_threads_at(f, c->now));
	page_end(c);
}

/* ---- other pages ---- */

static void
other_page(struct rc *c, enum fr_tk_furl_kind kind, uint32_t m)
{
	char name[64], url[U];

	switch (kind) {
	case FR_TK_FURL_PROFILE:
		fr_tk_forum_gen_member_name(c->f, m, name, sizeof(name));
		{
			char title[128];

			snprintf(title, sizeof(title), "%s - %s", c->ui->profile, name);
			page_begin(c, title, "memberlist", -1, NULL);
		}
		P(c, "<h2 class=\"memberlist-title\">");
		X(c, c->ui->profile);
		P(c, ": ");
		X(c, name);
		F(c,
		  "</h2>\n<div class=\"panel bg1\"><dl class=\"left-box details "
		  "profile-details\"><dt>%s:</dt><dd><span>",
		  c->ui->username);
		X(c, name);
		F(c, "</span></dd><dt>%s:</dt><dd>", c->ui->joined);
		date_el(c, fr_tk_forum_gen_member_joined(c->f, m), "date-joined");
		F(c, "</dd><dt>%s:</dt><dd>%u</dd></dl></div>\n", c->ui->posts,
		  (unsigned)fr_tk_forum_gen_member_posts(c->f, m, c->now));
		break;
	case FR_TK_FURL_FAQ:
		page_begin(c, c->ui->faq, "faq", -1, NULL);
		F(c,
		  "<h2 class=\"faq-title\">%s</h2>\n<div class=\"panel bg1\" id=\"faqlinks\"><dl "
		  "class=\"faq\"><dt><strong>",
		  c->ui->faq);
		X(c, c->ui->faq_q1);
		P(c, "</strong></dt><dd>");
		X(c, c->ui->faq_a1);
		P(c, "</dd></dl></div>\n");
		break;
	case FR_TK_FURL_SEARCH:
		page_begin(c, c->ui->search, "search", -1, NULL);
		F(c, "<h2 class=\"search-title\">%s</h2>\n<form method=\"get\" action=\"",
		  c->ui->search);
		X(c, fr_tk_forum_url_other(c->p->sw, FR_TK_FURL_SEARCH, url));
		P(c, "\" id=\"search\"><fieldset><input type=\"search\" name=\"keywords\" "
		     "id=\"keywords\" size=\"40\" value=\"\"><input type=\"submit\" value=\"");
		X(c, c->ui->search);
		P(c, "\"></fieldset></form>\n");
		break;
	case FR_TK_FURL_LOGIN:
		page_begin(c, c->ui->login, "ucp", -1, NULL);
		F(c, "<h2 class=\"login-title\">%s</h2>\n<form method=\"post\" action=\"",
		  c->ui->login);
		X(c, fr_tk_forum_url_other(c->p->sw, FR_TK_FURL_LOGIN, url));
		F(c,
		  "\" id=\"login\"><fieldset><dl><dt><label for=\"username\">%s:</label></dt><dd>"
		  "<input type=\"text\" name=\"username\" id=\"username\" size=\"25\"></dd></dl>"
		  "<dl><dt><label for=\"password\">%s:</label></dt><dd><input type=\"password\" "
		  "id=\"password\" name=\"password\" size=\"25\"></dd></dl><input type=\"submit\" "
		  "name=\"login\" value=\"%s\"></fieldset></form>\n",
		  c->ui->username, c->ui->password, c->ui->login);
		break;
	default: /* HOME: the site around the forum */
		page_begin(c, NULL, "portal", -1, NULL);
		P(c, "<div class=\"portal\"><h1>");
		X(c, c->f->name);
		P(c, "</h1><p>");
		board_desc(c, 0);
		P(c, "</p><p class=\"enter\">");
		A(c, fr_tk_forum_url_entry(c->p->sw, url), c->ui->board_index, "enter-forum");
		P(c, "</p></div>\n");
		break;
	}
	page_end(c);
}

/* ---- answers ---- */

static uint64_t
fnv1a(const char *p, size_t n)
{
	uint64_t h = 14695981039346656037ull;

	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)p[i];
		h *= 1099511628211ull;
	}
	return h;
}

static const char NOT_FOUND[] =
    "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>Not "
    "found</title>\n</head>\n<body>\n<h1>Not found</h1>\n<p>The requested page does not "
    "exist. <a href=\"/\">Home</a></p>\n</body>\n</html>\n";
static const char ROBOTS[] = "User-agent: *\nDisallow: /login\nDisallow: /search\n";

static int
not_found(struct fr_serve_resp *resp)
{
	resp->status = 404;
	resp->content_type = HTML_TYPE;
	resp->body = NOT_FOUND;
	resp->len = sizeof(NOT_FOUND) - 1;
	return 0;
}

/* Whether the slugs of u fit board b / thread i's canonical URL. */
static int
slugs_fit(const struct fr_tk_forum *f, const struct fr_tk_furl *u, int b,
          const struct fr_tk_fthread *th)
{
	char title[200], slug[72];
	enum fr_tk_forum_sw sw = f->prof.sw;

	if (sw != FR_TK_FORUM_XENFORO && sw != FR_TK_FORUM_CUSTOM && sw != FR_TK_FORUM_THREADED)
		return 1;
	if (th) {
		size_t i = (size_t)(th - f->th);

		fr_tk_forum_gen_slug(fr_tk_forum_gen_title(f, i, title, sizeof(title)), "thread",
		                     slug, sizeof(slug));
		if (sw == FR_TK_FORUM_XENFORO)
			return !strcmp(u->slug, slug);
		return !strcmp(u->slug2, slug) && !strcmp(u->slug, f->boards[th->board].slug);
	}
	return !strcmp(u->slug, f->boards[b].slug);
}

/* The session id a cookieless visitor gets at forum time now_s: a new
 * one each half hour. Writes "NAME=VALUE" into buf. */
static void
session_param(const struct fr_tk_forum *f, double now_s, char *buf, size_t len)
{
	uint64_t h = f->seed * 0x9e3779b97f4a7c15ull + f->k * 0xbf58476d1ce4e5b9ull +
	             (uint64_t)(now_s / 1800.0);
	uint64_t a = fnv1a((const char *)&h, sizeof(h)), b = fnv1a((const char *)&a, sizeof(a));

	switch (f->prof.sess) {
	case FR_TK_FORUM_SESS_PHP: {
		static const char al[] = "abcdefghijklmnopqrstuvwxyz0123456789";
		char v[27];

		for (int i = 0; i < 26; i++) {
			uint64_t w = i < 13 ? a : b;

			v[i] = al[(w >> ((i % 13) * 4)) % 36];
		}
		v[26] = '\0';
		snprintf(buf, len, "PHPSESSID=%s", v);
		break;
	}
	default:
		snprintf(buf, len, "%s=%016llx%016llx",
		         f->prof.sess == FR_TK_FORUM_SESS_S ? "s" : "sid", (unsigned long long)a,
		         (unsigned long long)b);
		break;
	}
}

/* body with the session id in every link into the forum (before a
 * fragment); NULL when out of memory. Frees body. */
static char *
with_session(const struct fr_tk_forum *f, double now_s, char *body, size_t *len)
{
	struct fr_text t = {NULL, 0, 0, PAGE_MAX * 2, 0};
	char param[64];
	const char *p = body, *h;

	session_param(f, now_s, param, sizeof(param));
	while ((h = strstr(p, "href=\"")) != NULL) {
		const char *u = h + 6, *q = strchr(u, '"'), *frag, *qm;

		if (!q)
			break;
		fr_text_add(&t, p, (size_t)(u - p));
		p = u;
		if (u[0] != '/' || u[1] == '/')
			continue; /* outside the forum, or an anchor */
		frag = memchr(u, '#', (size_t)(q - u));
		if (!frag)
			frag = q;
		qm = memchr(u, '?', (size_t)(frag - u));
		fr_text_add(&t, u, (size_t)(frag - u));
		fr_text_puts(&t, qm ? "&amp;" : "?");
		fr_text_puts(&t, param);
		p = frag;
	}
	fr_text_puts(&t, p);
	free(body);
	return fr_text_take(&t, len);
}

int
fr_tk_forum_html_answer(const struct fr_tk_forum *f, const char *host, const struct fr_tk_furl *u,
                        double now_s, struct fr_serve_resp *resp)
{
	struct fr_text t = {NULL, 0, 0, PAGE_MAX, 0};
	struct rc c = {f, &f->prof, fr_tk_forum_lang_ui(f->prof.lang), host, now_s, (int64_t)now_s,
	               &t};
	int found = 1, rc = 0;
	char *body;
	size_t len;

	switch (u->kind) {
	case FR_TK_FURL_ROBOTS:
		resp->status = 200;
		resp->content_type = "text/plain; charset=utf-8";
		resp->body = ROBOTS;
		resp->len = sizeof(ROBOTS) - 1;
		return 0;
	case FR_TK_FURL_ENTRY:
		entry_page(&c);
		break;
	case FR_TK_FURL_BOARD: {
		int b = -1;

		if (f->prof.sw == FR_TK_FORUM_CUSTOM || f->prof.sw == FR_TK_FORUM_THREADED) {
			for (unsigned k = 0; k < f->n_boards; k++)
				if (!strcmp(f->boards[k].slug, u->slug))
					b = (int)k;
		} else {
			b = fr_tk_forum_gen_board_by_id(f, u->id);
		}
		if (b < 0 || !slugs_fit(f, u, b, NULL))
			return not_found(resp);
		rc = board_page(&c, (unsigned)b, u->page, &found);
		break;
	}
	case FR_TK_FURL_THREAD: {
		const struct fr_tk_fthread *th = fr_tk_forum_gen_thread_by_id(f, u->id);

		if (!th || th->created > c.now || !slugs_fit(f, u, -1, th))
			return not_found(resp);
		rc = thread_page(&c, th, u->page, &found);
		break;
	}
	case FR_TK_FURL_PROFILE:
		if (u->id >= fr_tk_forum_gen_members_at(f, c.now))
			return not_found(resp);
		if (f->prof.sw == FR_TK_FORUM_THREADED) {
			char name[64];

			if (strcmp(u->slug2,
			           fr_tk_forum_gen_member_name(f, u->id, name, sizeof(name))) != 0)
				return not_found(resp);
		} else if (f->prof.sw == FR_TK_FORUM_XENFORO) {
			char name[64], slug[72];

			fr_tk_forum_gen_slug(
			    fr_tk_forum_gen_member_name(f, u->id, name, sizeof(name)), "member",
			    slug, sizeof(slug));
			if (strcmp(u->slug, slug) != 0)
				return not_found(resp);
		}
		other_page(&c, u->kind, u->id);
		break;
	case FR_TK_FURL_HOME:
	case FR_TK_FURL_FAQ:
	case FR_TK_FURL_LOGIN:
	case FR_TK_FURL_SEARCH:
		other_page(&c, u->kind, 0);
		break;
	default:
		return not_found(resp);
	}
	if (rc < 0 || !found) {
		fr_text_free(&t);
		return rc < 0 ? -1 : not_found(resp);
	}
	body = fr_text_take(&t, &len);
	if (body && f->prof.sess != FR_TK_FORUM_SESS_NONE)
		body = with_session(f, now_s, body, &len);
	if (!body)
		return -1;
	resp->status = 200;
	resp->content_type = HTML_TYPE;
	resp->body = body;
	resp->len = len;
	resp->release = free;
	resp->release_cls = body;
	snprintf(resp->etag, sizeof(resp->etag), "\"%016llx\"",
	         (unsigned long long)fnv1a(body, len));
	return 0;
}
