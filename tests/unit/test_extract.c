/* test_extract.c - the extractor's parts one at a time: titles with site
 * names cut as Readability cuts them, meta and JSON-LD precedence, bylines
 * found in the page, hidden and unlikely blocks dropped, link-heavy blocks
 * cleaned, the retry with looser rules, the size cap, and the text helpers. */
#include "test.h"

#include "extract/ex_internal.h"
#include "extract/extract.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Extracts html; the article (caller frees) or NULL. */
static struct fr_article *
ex(const char *html, const char *url)
{
	struct fr_extract_opts o = {0};
	struct fr_article *a = NULL;
	char err[256];

	o.url = url;
	if (fr_extract(html, strlen(html), &o, &a, err, sizeof(err)) != 0) {
		fprintf(stderr, "fr_extract: %s\n", err);
		return NULL;
	}
	return a;
}

static char *
title_of(const char *head_and_body)
{
	struct fr_article *a = ex(head_and_body, NULL);
	char *t = a ? strdup(a->title) : NULL;

	fr_article_free(a);
	return t;
}

#define PARA                                                                                   \
	"<p>This paragraph is long enough to count as content, with a few commas, some words, " \
	"and a full stop at the end of it, as paragraphs in real articles tend to have.</p>"

static void
test_titles(void)
{
	struct {
		const char *html, *want;
	} cases[] = {
	    /* the last " | " part cut */
	    {"<title>How the river rose in spring | The Daily Paper</title>", "How the river rose in spring"},
	    /* too few words left: the first part cut instead */
	    {"<title>Site - A somewhat longer title here</title>", "A somewhat longer title here"},
	    /* four words or fewer: the whole title back */
	    {"<title>Site - Short title here</title>", "Site - Short title here"},
	    /* en dash */
	    {"<title>Lorem ipsum dolor sit amet \xe2\x80\x93 My website</title>", "Lorem ipsum dolor sit amet"},
	    /* "Site: title" when no heading says the whole */
	    {"<title>My Blog: a long title about many things</title><h1>x</h1>",
	     "a long title about many things"},
	    /* short title: the only h1 */
	    {"<title>Home</title><body><h1>The real headline of the page</h1></body>",
	     "The real headline of the page"},
	    /* og:title first, entities decoded once */
	    {"<meta property=\"og:title\" content=\"Fish &amp;amp; chips\"><title>x | y</title>", "Fish & chips"},
	    /* JSON-LD headline before meta */
	    {"<script type=\"application/ld+json\">{\"@context\":\"https://schema.org\",\"@type\":"
	     "\"NewsArticle\",\"headline\":\"From JSON-LD\"}</script><meta property=\"og:title\" "
	     "content=\"From OG\">",
	     "From JSON-LD"},
	    /* not schema.org: ignored */
	    {"<script type=\"application/ld+json\">{\"@context\":\"https://example.org\",\"@type\":"
	     "\"NewsArticle\",\"headline\":\"No\"}</script><meta property=\"og:title\" content=\"Yes\">",
	     "Yes"},
	    {"<p>no title at all</p>", ""},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *t = title_of(cases[i].html);

		CHECK_STR(t, cases[i].want);
		free(t);
	}
}

static void
test_metadata(void)
{
	struct fr_article *a = ex(
	    "<html lang=\"de-AT\"><head>"
	    "<meta name=\"author\" content=\"Meta Author\">"
	    "<meta property=\"og:site_name\" content=\"Die Seite\">"
	    "<meta property=\"article:published_time\" content=\"2020-01-02T03:04:05Z\">"
	    "<meta name=\"description\" content=\"A description.\">"
	    "<script type=\"application/ld+json\">[{\"@context\":\"http://schema.org\",\"@type\":"
	    "\"BlogPosting\",\"author\":[{\"name\":\"Ann\"},{\"name\":\" Bob \"}],"
	    "\"publisher\":{\"name\":\"Pub\"}}]</script>"
	    "</head><body><article>" PARA PARA PARA PARA "</article></body></html>",
	    NULL);

	CHECK(a != NULL);
	if (!a)
		return;
	CHECK_STR(a->byline, "Ann, Bob");
	CHECK_STR(a->site_name, "Pub");
	CHECK_STR(a->lang, "de-AT");
	CHECK_STR(a->published_time, "2020-01-02T03:04:05Z");
	CHECK_STR(a->excerpt, "A description.");
	fr_article_free(a);

	/* a byline in the page, its itemprop=name part, and the excerpt from
	 * the first paragraph */
	a = ex("<body><div class=\"byline\"><a rel=\"author\"><span itemprop=\"name\">Cy Doe</span>"
	       "</a> - 3 May</div><article>" PARA PARA PARA PARA "</article></body>",
	       NULL);
	CHECK(a != NULL);
	if (!a)
		return;
	CHECK_STR(a->byline, "Cy Doe");
	CHECK(a->excerpt && !strncmp(a->excerpt, "This paragraph is long", 22));
	CHECK(!strstr(a->text, "3 May"));
	CHECK(a->site_name == NULL && a->published_time == NULL && a->lang == NULL);
	fr_article_free(a);
}

static void
test_content(void)
{
	struct fr_article *a = ex(
	    "<html><body>"
	    "<div class=\"sidebar\"><p>Sidebar words that are long enough to be scored, with commas, "
	    "yes, and more than twenty-five characters.</p></div>"
	    "<div style=\"display: none\"><p>Hidden words, hidden words, hidden words, hidden.</p></div>"
	    "<div id=\"main-content\">" PARA PARA PARA PARA
	    "<div class=\"share-tools\"><a href=\"/s\">Share</a></div>"
	    "<p>See <a href=\"/next\">the next</a> and <a href=\"javascript:evil()\">that</a>.</p>"
	    "<ul><li><a href=\"/1\">one link</a></li><li><a href=\"/2\">two link</a></li></ul>"
	    "<form><input name=q><button>Go</button></form>"
	    "</div>"
	    "<div class=\"comments\"><p>A comment that is long enough to be scored, with commas, too, "
	    "and more.</p></div>"
	    "</body></html>",
	    "http://example.com/dir/page.html");

	CHECK(a != NULL);
	if (!a)
		return;
	CHECK(strstr(a->text, "This paragraph is long enough") != NULL);
	CHECK(!strstr(a->text, "Sidebar"));
	CHECK(!strstr(a->text, "Hidden"));
	CHECK(!strstr(a->text, "comment"));
	CHECK(!strstr(a->text, "Share"));
	CHECK(strstr(a->text, "one link") != NULL); /* lists of links stay, as in Readability */
	CHECK(!strstr(a->content, "<form"));
	CHECK(!strstr(a->content, "javascript:"));
	CHECK(strstr(a->content, "href=\"http://example.com/next\"") != NULL);
	CHECK(a->length == fr_ex_utf8_len(a->text));
	/* blocks apart by blank lines */
	CHECK(strstr(a->text, "have.\n\nThis paragraph") != NULL);
	fr_article_free(a);
}

static void
test_retry_and_limits(void)
{
	struct fr_extract_opts o = {0};
	struct fr_article *a = NULL;
	char err[256] = "";
	/* all the text sits in a block the first pass calls unlikely: the
	 * retry without that rule finds it */
	const char *page = "<body><div class=\"comment-body\">" PARA PARA PARA PARA "</div></body>";

	a = ex(page, NULL);
	CHECK(a != NULL);
	if (a)
		CHECK(strstr(a->text, "This paragraph") != NULL);
	fr_article_free(a);

	o.max_bytes = 10;
	a = (struct fr_article *)1;
	CHECK(fr_extract(page, strlen(page), &o, &a, err, sizeof(err)) == -1);
	CHECK(a == NULL);
	CHECK(strstr(err, "over the cap") != NULL);

	/* nothing at all: no article, not an error */
	a = ex("", NULL);
	CHECK(a != NULL);
	if (a) {
		CHECK_STR(a->text, "");
		CHECK_STR(a->content, "");
		CHECK_STR(a->title, "");
		CHECK(a->length == 0);
	}
	fr_article_free(a);
}

static void
test_helpers(void)
{
	char s[64];

	strcpy(s, "a &amp;amp; &lt;b&gt; &#233;&#xe9; &bogus; &#;");
	fr_ex_unescape(s);
	CHECK_STR(s, "a &amp; <b> \xc3\xa9\xc3\xa9 &bogus; &#;");
	strcpy(s, "  one \t two\n\nthree  ");
	CHECK_STR(fr_ex_squash(s), "one two three");
	CHECK(fr_ex_word_count("one two three") == 3);
	CHECK(fr_ex_word_count(" lead") == 2); /* as JavaScript's split */
	CHECK(fr_ex_utf8_len("caf\xc3\xa9") == 4);
	CHECK_NEAR(fr_ex_similarity("The same words", "the SAME words"), 1.0, 1e-9);
	CHECK_NEAR(fr_ex_similarity("abc", "xyz"), 0.0, 1e-9);
	CHECK(fr_ex_similarity("one two", "one two three") > 0.5);
}

int
main(void)
{
	RUN(test_titles);
	RUN(test_metadata);
	RUN(test_content);
	RUN(test_retry_and_limits);
	RUN(test_helpers);
	return TEST_DONE();
}
