/* test_fpage_traits.c - forum page analysis (lib/forum/page.h) on the traits
 * of real forums that the synthetic ones lacked (issue 28): rows marked read
 * or unread, the member's join date beside the post's date, relative dates
 * split over elements, quotes (as <blockquote>, as tables, as boxes) and
 * signatures kept apart from a post's own text. Each page is written here in
 * the shape one family of software gives it (not copied from a site); the
 * checks are what a reader of the page sees. */
#include "core/err.h"
#include "core/timefmt.h"
#include "forum/fdate.h"
#include "forum/page.h"

#include "test.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOW 1790000000 /* 2026-09-21T14:13:20Z */

static struct fr_fdate *FD;

/* ---- a page builder ---- */

static char PAGE[4 << 20];
static size_t PLEN;

static void
out(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(PAGE + PLEN, sizeof(PAGE) - PLEN, fmt, ap);
	va_end(ap);
	if (n > 0 && PLEN + (size_t)n < sizeof(PAGE))
		PLEN += (size_t)n;
}

static struct fr_fpage *
parse(const char *url, const char *zone)
{
	struct fr_fpage_opts o;
	struct fr_fpage *p = NULL;
	char err[FR_ERRLEN];

	memset(&o, 0, sizeof(o));
	o.dates = FD;
	o.now_s = NOW;
	o.zone = zone;
	o.locales = "en";
	if (fr_fpage_parse(PAGE, PLEN, url, &o, &p, err, sizeof(err)) != 0)
		fprintf(stderr, "  %s\n", err);
	return p;
}

static int64_t
at(const char *iso)
{
	double t = 0;

	if (fr_time_parse(iso, strlen(iso), &t, NULL) != 0)
		return -1;
	return (int64_t)t;
}

static void
show(const struct fr_fpage *p)
{
	fprintf(stderr, "  page: %s, %zu records\n", fr_fpage_kind_name(p->kind), p->n_recs);
	for (size_t i = 0; i < p->n_recs; i++)
		fprintf(stderr, "   %zu: %lld %s | %.60s | q=%.40s | s=%.40s\n", i,
		        (long long)p->recs[i].date_s, p->recs[i].author ? p->recs[i].author : "-",
		        p->recs[i].text ? p->recs[i].text : "-",
		        p->recs[i].quote ? p->recs[i].quote : "-",
		        p->recs[i].signature ? p->recs[i].signature : "-");
}

/* ---- rows marked read and unread, names in text, join dates ---- */

static const char *const NAMES[] = {"Kenneth", "mossy rocks", "Zed", "Quill"};
static const char *const JOINED[] = {"Mar 3, 2004", "Jan 12, 2011", "Oct 30, 2008",
                                     "Jun 1, 2015"};
static const unsigned WHO[] = {0, 1, 0, 2, 3, 0, 2, 1, 0, 3};
static const char *const WORDS[] = {
    "the trains ran late again this morning and nobody knew why",
    "I tried the other route but it was closed for repairs",
    "has anyone seen the new timetable posted at the station",
    "my bike is faster anyway when the weather holds",
    "they promised a fix by next month, we will see",
    "rain all week, the river is up by half a metre",
    "the bakery by the bridge opened again",
    "a quiet day here, only the ferry horn",
    "bought a new lamp for the reading corner",
    "the museum is free on Sundays now"};

/* A thread of ten posts laid out as tables, two rows each (the member and
 * the text; the date and the buttons), the rows' classes telling read posts
 * (the first six) from unread ones; the name is text, the links beside it
 * say "Profile"; the member's registration date sits under the name. Posts 3
 * and 6 open with a quote of post 1; Kenneth signs every post. */
static void
page_rows(void)
{
	PLEN = 0;
	out("<!DOCTYPE html><html lang=\"en\"><head><title>Trains - The Forums</title></head>"
	    "<body><div id=\"nav\"><a href=\"index.php\">Forums</a> &gt; "
	    "<a href=\"forumdisplay.php?forumid=46\">Transport</a></div>"
	    "<div class=\"pages\"><a href=\"showthread.php?threadid=77&amp;userid=0&amp;"
	    "perpage=40&amp;pagenumber=1\">1</a> <a href=\"showthread.php?threadid=77&amp;"
	    "userid=0&amp;perpage=40&amp;pagenumber=2\">2</a></div><div id=\"thread\">\n");
	for (unsigned i = 0; i < 10; i++) {
		unsigned m = WHO[i];
		const char *row = i < 6 ? "seen" : "altcolor";

		out("<table class=\"post\" id=\"post%u\"><tbody><tr class=\"%s%u\">"
		    "<td class=\"userinfo userid-%u\"><dl class=\"userinfo\"><dt class=\"author\">"
		    "%s</dt><dd class=\"registered\">%s</dd><dd class=\"title\">rides the night "
		    "bus</dd></dl></td><td class=\"postbody\">",
		    100 + i, row, i % 2 + 1, 50 + m, NAMES[m], JOINED[m]);
		if (i == 3 || i == 6)
			out("<div class=\"bbc-block\"><h4>mossy rocks posted:</h4><blockquote>%s"
			    "</blockquote></div>",
			    WORDS[1]);
		out("%s, post %u.", WORDS[i], i);
		if (m == 0)
			out("<p class=\"signature\">Kenneth's garden blog: roses, beans and "
			    "the odd pumpkin</p>");
		out("</td></tr><tr class=\"%s%u\"><td class=\"postdate\"><a href=\"#post%u\" "
		    "title=\"Link to this post\">#</a> <a href=\"showthread.php?threadid=77&amp;"
		    "userid=%u#post%u\" title=\"Only show posts by this user\">?</a> "
		    "Sep %u, 2026 1%u:%02u</td><td class=\"postlinks\"><ul class=\"profilelinks\">"
		    "<li><a href=\"member.php?action=getinfo&amp;userid=%u\">Profile</a></li>"
		    "<li><a href=\"private.php?action=newmessage&amp;userid=%u\">Message</a></li>"
		    "<li><a href=\"search.php?action=do_search_posthistory&amp;userid=%u\">Post "
		    "History</a></li></ul><ul class=\"postbuttons\"><li><a href=\"newreply.php?"
		    "action=newreply&amp;postid=%u\"><img src=\"quote.gif\" alt=\"Quote\"></a>"
		    "</li></ul></td></tr></tbody></table>\n",
		    row, i % 2 + 1, 100 + i, 50 + m, 100 + i, 10 + i, i % 10, 5 + i * 3, 50 + m,
		    50 + m, 50 + m, 100 + i);
	}
	out("</div></body></html>");
}

static void
test_rows_read_unread(void)
{
	struct fr_fpage *p;

	page_rows();
	p = parse("https://forums.example.net/showthread.php?threadid=77", NULL);
	CHECK(p != NULL);
	if (!p)
		return;
	CHECK(p->kind == FR_FPAGE_THREAD);
	CHECK(p->n_recs == 10);
	if (p->kind != FR_FPAGE_THREAD || p->n_recs != 10) {
		show(p);
		fr_fpage_free(p);
		return;
	}
	for (unsigned i = 0; i < 10; i++) {
		char want[256], iso[32];

		snprintf(iso, sizeof(iso), "2026-09-%02uT1%u:%02u:00Z", 10 + i, i % 10, 5 + i * 3);
		CHECK(p->recs[i].date_s == at(iso));
		CHECK_STR(p->recs[i].author, NAMES[WHO[i]]);
		snprintf(want, sizeof(want), "%s, post %u.", WORDS[i], i);
		CHECK_STR(p->recs[i].text, want);
		if (i == 3 || i == 6) {
			snprintf(want, sizeof(want), "mossy rocks posted:\n\n%s", WORDS[1]);
			CHECK_STR(p->recs[i].quote, want);
		} else {
			CHECK(p->recs[i].quote == NULL);
		}
		if (WHO[i] == 0)
			CHECK_STR(p->recs[i].signature,
			          "Kenneth's garden blog: roses, beans and the odd pumpkin");
		else
			CHECK(p->recs[i].signature == NULL);
	}
	fr_fpage_free(p);
}

/* Two posts, one read and one unread (the header cells' classes differ),
 * each beside its member's box with a join date: the posts are dated by
 * their headers, not by the join dates. */
static void
test_join_date_two_posts(void)
{
	static const char *const when[] = {"09-20-2026, 08:15 PM", "09-21-2026, 09:40 AM"};
	static const char *const who[] = {"alice", "bob"};
	static const char *const joined[] = {"Join Date: Mar 2004", "Join Date: Nov 2019"};
	struct fr_fpage *p;

	PLEN = 0;
	out("<html><head><title>A question</title></head><body><div id=\"posts\">");
	for (unsigned i = 0; i < 2; i++)
		out("<div id=\"edit%u\"><table class=\"tborder\" id=\"post%u\"><tr>"
		    "<td class=\"%s\"><a name=\"post%u\"></a> %s</td><td class=\"thead\" "
		    "align=\"right\"><a href=\"showpost.php?p=%u&amp;postcount=%u\">#%u</a></td></tr>"
		    "<tr><td class=\"alt2\" width=\"175\"><div><a class=\"bigusername\" "
		    "href=\"member.php?u=%u\">%s</a></div><div class=\"smallfont\">Senior Member"
		    "</div><div class=\"smallfont\"><div>%s</div><div>Posts: %u</div></div></td>"
		    "<td class=\"alt1\"><div id=\"post_message_%u\">%s</div></td></tr></table>"
		    "</div>\n",
		    i, 900 + i, i ? "unread" : "thead", 900 + i, when[i], 900 + i, i + 1, i + 1,
		    10 + i, who[i], joined[i], 120 * i + 37, 900 + i, WORDS[i + 2]);
	out("</div></body></html>");
	p = parse("https://forums.example.net/showthread.php?t=9", NULL);
	CHECK(p != NULL);
	if (!p)
		return;
	CHECK(p->kind == FR_FPAGE_THREAD && p->n_recs == 2);
	if (p->n_recs == 2) {
		CHECK(p->recs[0].date_s == at("2026-09-20T20:15:00Z"));
		CHECK(p->recs[1].date_s == at("2026-09-21T09:40:00Z"));
		CHECK_STR(p->recs[0].author, "alice");
		CHECK_STR(p->recs[1].author, "bob");
		CHECK_STR(p->recs[1].text, WORDS[3]);
	}
	if (p->n_recs != 2 || p->recs[0].date_s != at("2026-09-20T20:15:00Z"))
		show(p);
	fr_fpage_free(p);
}

/* Relative days in a child element, the time after it in the parent's
 * text ("<strong>Today</strong> at 03:35:44 AM"), in the page's zone;
 * quotes under a header box; a signature under every post of a member. */
static void
test_relative_split_and_signature(void)
{
	static const char *const when[] = {
	    "September 19, 2026, 11:02:10 PM", "<strong>Yesterday</strong> at 03:35:44 AM",
	    "<strong>Yesterday</strong> at 09:12:00 PM", "<strong>Today</strong> at 08:01:02 AM"};
	static const char *const want[] = {"2026-09-19T21:02:10Z", "2026-09-20T01:35:44Z",
	                                   "2026-09-20T19:12:00Z", "2026-09-21T06:01:02Z"};
	static const unsigned who[] = {0, 1, 0, 1};
	struct fr_fpage *p;

	PLEN = 0;
	out("<html><head><title>Bikes</title></head><body><div id=\"forumposts\">");
	for (unsigned i = 0; i < 4; i++) {
		out("<div class=\"windowbg%s\"><div class=\"post_wrapper\"><div class=\"poster\">"
		    "<h4><a href=\"index.php?action=profile;u=%u\">%s</a></h4><ul><li>Posts: %u"
		    "</li></ul></div><div class=\"postarea\"><div class=\"keyinfo\"><h5><a "
		    "href=\"index.php?topic=5.msg%u#msg%u\">Re: Bikes</a></h5><div "
		    "class=\"smalltext\">&#171; <strong>Reply #%u on:</strong> %s &#187;</div>"
		    "</div><div class=\"post\"><div class=\"inner\">",
		    i % 2 ? "" : "2", 7 + who[i], NAMES[who[i]], 40 + i, 500 + i, 500 + i, i,
		    when[i]);
		if (i == 2)
			out("<div class=\"quoteheader\"><div class=\"topslice_quote\"><a "
			    "href=\"index.php?topic=5.msg501#msg501\">Quote from: mossy rocks on "
			    "Yesterday at 03:35:44 AM</a></div></div><blockquote "
			    "class=\"bbc_standard_quote\">%s</blockquote><div "
			    "class=\"quotefooter\"><div class=\"botslice_quote\"></div></div>",
			    WORDS[1]);
		out("%s</div></div></div><div class=\"moderatorbar\"><div class=\"signature\">%s"
		    "</div></div></div></div>\n",
		    WORDS[i + 4], who[i] ? "Ride safe, ride often" : "-- K.");
	}
	out("</div></body></html>");
	p = parse("https://smf.example.net/index.php?topic=5.0", "Europe/Berlin");
	CHECK(p != NULL);
	if (!p)
		return;
	CHECK(p->kind == FR_FPAGE_THREAD && p->n_recs == 4);
	if (p->n_recs == 4) {
		for (unsigned i = 0; i < 4; i++) {
			CHECK(p->recs[i].date_s == at(want[i]));
			CHECK_STR(p->recs[i].author, NAMES[who[i]]);
			CHECK_STR(p->recs[i].text, WORDS[i + 4]);
			CHECK_STR(p->recs[i].signature, who[i] ? "Ride safe, ride often" : "-- K.");
		}
		CHECK(p->recs[2].quote && strstr(p->recs[2].quote, WORDS[1]) &&
		      strstr(p->recs[2].quote, "Quote from: mossy rocks"));
		CHECK(p->recs[0].quote == NULL && p->recs[1].quote == NULL);
	}
	if (p->n_recs != 4 || p->recs[1].date_s != at(want[1]) || !p->recs[2].quote)
		show(p);
	fr_fpage_free(p);
}

/* Quotes not written as <blockquote>: a table under a "Quote:" label, and
 * a box of boxes; posts that open with them keep their own text. */
static void
test_quote_shapes(void)
{
	struct fr_fpage *p;

	for (int shape = 0; shape < 3; shape++) {
		PLEN = 0;
		out("<html><head><title>Lamps</title></head><body><ol id=\"posts\">");
		for (unsigned i = 0; i < 5; i++) {
			out("<li class=\"postcontainer\" id=\"post_%u\"><div class=\"posthead\">"
			    "<span class=\"date\">Sep %u, 2026, 10:%02u</span></div><div "
			    "class=\"userinfo\"><a class=\"username\" href=\"member.php?u=%u\">%s</a>"
			    "</div><div class=\"postbody\"><div class=\"content\">",
			    700 + i, 11 + i, i * 7, 3 + WHO[i], NAMES[WHO[i]]);
			if (i % 2 == 1 && shape == 0)
				out("<div style=\"margin:20px; margin-top:5px\"><div "
				    "class=\"smallfont\">Quote:</div><table cellpadding=\"6\" "
				    "width=\"100%%\"><tr><td class=\"alt2\">Originally Posted by "
				    "<strong>%s</strong><div style=\"font-style:italic\">%s</div>"
				    "</td></tr></table></div>",
				    NAMES[WHO[i - 1]], WORDS[i - 1]);
			else if (i % 2 == 1 && shape == 1)
				out("<div class=\"bbcode_container\"><div class=\"bbcode_quote\">"
				    "<div class=\"quote_container\"><div class=\"bbcode_postedby\">"
				    "Originally Posted by <strong>%s</strong> <a href=\"showthread.php?"
				    "p=%u#post%u\" rel=\"nofollow\">View Post</a></div><div "
				    "class=\"message\">%s</div></div></div></div>",
				    NAMES[WHO[i - 1]], 699 + i, 699 + i, WORDS[i - 1]);
			else if (i % 2 == 1)
				out("<blockquote><div><cite>%s wrote:</cite>%s</div></blockquote>",
				    NAMES[WHO[i - 1]], WORDS[i - 1]);
			out("%s</div></div></li>\n", WORDS[i + 5]);
		}
		out("</ol></body></html>");
		p = parse("https://vb.example.net/showthread.php?t=3", NULL);
		CHECK(p != NULL);
		if (!p)
			continue;
		CHECK(p->kind == FR_FPAGE_THREAD && p->n_recs == 5);
		for (unsigned i = 0; i < 5 && p->n_recs == 5; i++) {
			CHECK_STR(p->recs[i].text, WORDS[i + 5]);
			CHECK_STR(p->recs[i].author, NAMES[WHO[i]]);
			if (i % 2 == 1)
				CHECK(p->recs[i].quote && strstr(p->recs[i].quote, WORDS[i - 1]));
			else
				CHECK(p->recs[i].quote == NULL);
		}
		if (p->n_recs != 5 || strcmp(p->recs[1].text, WORDS[6]) != 0) {
			fprintf(stderr, "  shape %d\n", shape);
			show(p);
		}
		fr_fpage_free(p);
	}
}

/* test_fpage_traits FILE [NOW]: shows what a saved page reads as. */
static int
dump(const char *path, const char *now)
{
	FILE *f = fopen(path, "rb");
	struct fr_fpage_opts o;
	struct fr_fpage *p = NULL;
	char err[FR_ERRLEN];

	if (!f) {
		perror(path);
		return 1;
	}
	PLEN = fread(PAGE, 1, sizeof(PAGE), f);
	fclose(f);
	memset(&o, 0, sizeof(o));
	o.dates = FD;
	o.now_s = now ? at(now) : NOW;
	if (fr_fpage_parse(PAGE, PLEN, "https://forum.example/t", &o, &p, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	for (size_t i = 0; i < p->n_recs; i++)
		printf("--- %zu: %lld [%s]\n%s\n  quote: %s\n  sig: %s\n", i,
		       (long long)p->recs[i].date_s, p->recs[i].author ? p->recs[i].author : "-",
		       p->recs[i].text ? p->recs[i].text : "-",
		       p->recs[i].quote ? p->recs[i].quote : "-",
		       p->recs[i].signature ? p->recs[i].signature : "-");
	printf("%s, %zu records\n", fr_fpage_kind_name(p->kind), p->n_recs);
	fr_fpage_free(p);
	return 0;
}

int
main(int argc, char **argv)
{
	char err[FR_ERRLEN];

	if (fr_fdate_new(&FD) != 0 || fr_fdate_load(FD, "en", err, sizeof(err)) != 0) {
		fprintf(stderr, "fdate: %s\n", err);
		return 1;
	}
	if (argc > 1) {
		int rc = dump(argv[1], argc > 2 ? argv[2] : NULL);

		fr_fdate_free(FD);
		return rc;
	}
	RUN(test_rows_read_unread);
	RUN(test_join_date_two_posts);
	RUN(test_relative_split_and_signature);
	RUN(test_quote_shapes);
	fr_fdate_free(FD);
	return TEST_DONE();
}
