/* forum_html.c - the pages of the synthetic forums, rendered from a forum's
 * timeline at a forum time: the page flows (entry, index, thread and other
 * pages, the answer) and the helpers every product shares. The markup of
 * each software (phpBB, vBulletin, SMF, XenForo, Discuz!, a custom forum, a
 * threaded site) is in forum_html_<product>.c, behind the ops table of
 * forum_html_ops.h. The markup follows the real software closely enough for
 * layout-based page classification and post extraction to be a real task;
 * every date the page shows sits in an element of class date-post,
 * date-created, date-last, date-joined or date-now (for tests; crawlers
 * should not need them). */
#include "testkit/forum_html.h"
#include "testkit/forum_html_ops.h"


#include "testkit/forum_gen.h"
#include "testkit/forum_url.h"
#include "testkit/server.h"
#include "testkit/text.h"

#include <stdlib.h>
#include <string.h>

#define HTML_TYPE "text/html; charset=utf-8"
#define PAGE_MAX (4u << 20)

/* NOTE: keep in the order of enum fr_tk_forum_sw. */
static const struct fr_tk_forum_html_ops *const OPS[FR_TK_FORUM_N_SW] = {
    &fr_tk_forum_html_phpbb,   &fr_tk_forum_html_vbulletin, &fr_tk_forum_html_smf,
    &fr_tk_forum_html_xenforo, &fr_tk_forum_html_discuz,    &fr_tk_forum_html_custom,
    &fr_tk_forum_html_threaded};

/* A date element of class cls, as the forum shows it (relative or not,
 * with the exact time in an attribute or not). */
void
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
void
now_el(struct rc *c)
{
	struct fr_text s = {0};

	fr_tk_forum_lang_date_abs(&s, c->p->lang, c->p->dstyle, c->now);
	P(c, "<span class=\"date-now\">");
	X(c, s.p ? s.p : "");
	P(c, "</span>");
	fr_text_free(&s);
}

void
member_link(struct rc *c, uint32_t m, const char *cls)
{
	char url[U], name[64];

	A(c, fr_tk_forum_url_profile(c->f, m, url),
	  fr_tk_forum_gen_member_name(c->f, m, name, sizeof(name)), cls);
}

/* The class word that marks a row or post read or unread (one in three
 * unread), first in its class list; "" when the profile marks none of
 * that kind (1 rows, 2 posts). */
const char *
mark(const struct rc *c, int kind, uint32_t id)
{
	uint64_t h = (uint64_t)id * 0x9e3779b97f4a7c15ull;

	if (c->p->marks != kind)
		return "";
	return (h >> 33) % 3 == 0 ? "unread " : "read ";
}

/* ---- chrome ---- */

/* Opens the page: head, site header, navigation, breadcrumbs (board b when
 * >= 0, thread title when not NULL). */
static void
page_begin(struct rc *c, const char *title, const char *section, int b, const char *thread)
{
	const struct fr_tk_forum *f = c->f;

	F(c, "<!DOCTYPE html>\n<html dir=\"ltr\" lang=\"%s\">\n<head>\n<meta charset=\"utf-8\">\n",
	  c->ui->code);
	P(c, "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>");
	if (title) {
		X(c, title);
		P(c, c->ops->title_sep);
	}
	X(c, f->name);
	P(c, "</title>\n<link href=\"");
	X(c, c->ops->css);
	P(c, "\" rel=\"stylesheet\" type=\"text/css\">\n");
	P(c, "<link rel=\"icon\" href=\"/favicon.ico\">\n</head>\n");
	c->ops->header(c, section, b, thread);
}

static void
page_end(struct rc *c)
{
	c->ops->footer(c);
	P(c, c->ops->powered);
	P(c, c->ops->footer_close);
	P(c, "</body>\n</html>\n");
}

/* ---- pagination ---- */

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
char *
pager_url(struct rc *c, const struct pager *pg, uint32_t page, char *buf)
{
	return amp(pg->thread ? fr_tk_forum_url_thread(c->f, pg->i, page, buf)
	                      : fr_tk_forum_url_board(c->f, pg->b, page, buf));
}

/* Pages shown: the first, the last, and the current one +- 2. */
int
shown_page(uint32_t p, uint32_t cur, uint32_t last)
{
	return p == 1 || p == last || (p + 2 >= cur && p <= cur + 2);
}

/* ---- index pages ---- */

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
	         c->ops->post_frag, (unsigned)r->th->pid[r->n - 1]);
}

/* A mini pager of thread pages 1, 2, 3 ... last (la forums only). */
void
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

int
show_created(const struct rc *c)
{
	return c->p->idates != FR_TK_FORUM_IDATES_LAST;
}

int
show_last(const struct rc *c)
{
	return c->p->idates != FR_TK_FORUM_IDATES_CREATED;
}

static void
rows_close(struct rc *c)
{
	P(c, c->ops->rows_close);
}

/* Sort and filter links beside a board's pager (the same board, one
 * parameter more): to be told from the pager, which steps one parameter. */
static void
filters(struct rc *c, unsigned b)
{
	char url[U];

	if (!c->p->filters || !c->ops->filters)
		return;
	P(c, "<div class=\"filters\">");
	for (size_t i = 0; i < 3; i++) {
		fr_tk_forum_url_board(c->f, b, 1, url);
		F(c, " <a href=\"");
		X(c, url);
		X(c, c->ops->filters[i]);
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
	c->ops->index_open(c, b);
	c->ops->pager(c, &pg);
	filters(c, b);
	c->ops->rows_open(c);
	if (page == 1) {
		for (unsigned s = 0; s < bd->n_sticky; s++) {
			fill_row(c, bd->sticky[s], r);
			c->ops->index_row(c, r, 1);
		}
	}
	for (long k = (long)(page - 1) * c->p->threads_pp;
	     k < n && k < (long)page * c->p->threads_pp; k++) {
		fill_row(c, order[k], r);
		c->ops->index_row(c, r, 0);
	}
	if (n == 0 && bd->n_sticky == 0) {
		P(c, "<p class=\"empty\">");
		X(c, c->ui->no_posts);
		P(c, "</p>\n");
	}
	rows_close(c);
	c->ops->pager(c, &pg);
	page_end(c);
	free(r);
	free(order);
	return 0;
}

/* ---- thread pages ---- */

/* The text of a post as HTML: paragraphs as <p> or separated by <br><br>. */
void
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

void
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
	c->ops->thread_open(c, th, i, n, page, title, &pg);
	for (uint32_t k = from; k < to; k++) {
		uint32_t d = depth[k];

		if (!c->ops->nested_list) {
			c->ops->post(c, i, order[k], 0, title);
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
		c->ops->post(c, i, order[k], d, title);
		open = d;
	}
	if (c->ops->nested_list) {
		while (open >= 1) {
			P(c, "</li>");
			open--;
			if (open >= 1)
				P(c, "</ul>");
		}
		P(c, "</ul>\n");
	}
	c->ops->thread_close(c, &pg);
	page_end(c);
	free(order);
	free(depth);
	return 0;
}

/* ---- the entry page ---- */

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

void
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
	if (c->ops->entry_now) {
		P(c, "<p class=\"right responsive-center time\">");
		X(c, c->ui->now_is);
		P(c, " ");
		now_el(c);
		P(c, "</p>\n");
	}
	c->ops->entry_open(c);
	for (unsigned b = 0; b < f->n_boards; b++) {
		struct board_stats st;
		const struct fr_tk_fboard *bd = &f->boards[b];

		stats_of(c, b, &st);
		fr_tk_forum_url_board(f, b, 1, url);
		c->ops->entry_board(c, b, bd, url, &st);
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
		P(c, c->ops->entry_row_close);
	}
	P(c, c->ops->entry_close);
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
	struct rc c = {f,    &f->prof,       fr_tk_forum_lang_ui(f->prof.lang),
	               host, now_s,          (int64_t)now_s,
	               &t,   OPS[f->prof.sw]};
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
