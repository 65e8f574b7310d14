/* test_opml.c - OPML lists: nested folders, entities, encodings, OPML 1.0,
 * every error naming file:line, no entity expansion, and write -> parse
 * round trips (escaping, invalid UTF-8, grouping by category). */
#include "core/err.h"
#include "parse/opml.h"

#include "test.h"

#include <stdlib.h>
#include <string.h>

#define DATA FR_TEST_DATA "/opml/"

/* Outlines collected by a parse, copied (the parser lends its strings). */
struct got {
	size_t n;
	char *url[32], *html[32], *title[32], *cat[32];
	long line[32];
	size_t stop_at; /* stop after this many (0: never) */
};

static char *
dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

static int
collect(void *arg, const struct fr_opml_outline *o)
{
	struct got *g = arg;

	if (g->n >= 32)
		return -1;
	g->url[g->n] = dup_or_null(o->xml_url);
	g->html[g->n] = dup_or_null(o->html_url);
	g->title[g->n] = dup_or_null(o->title);
	g->cat[g->n] = dup_or_null(o->category);
	g->line[g->n] = o->line;
	g->n++;
	return g->stop_at && g->n >= g->stop_at ? 1 : 0;
}

static void
got_free(struct got *g)
{
	for (size_t i = 0; i < g->n; i++) {
		free(g->url[i]);
		free(g->html[i]);
		free(g->title[i]);
		free(g->cat[i]);
	}
	memset(g, 0, sizeof(*g));
}

/* Parses DATA/name into g; returns fr_opml_parse's result, err filled. */
static int
parse_file(const char *name, struct got *g, char *err, size_t errlen)
{
	char path[512];
	size_t len;
	char *buf;
	int rc;

	snprintf(path, sizeof(path), "%s%s", DATA, name);
	buf = test_slurp(path, &len);
	err[0] = '\0';
	if (!buf)
		return -1; /* test_slurp counted the failure */
	rc = fr_opml_parse(buf, len, name, collect, g, err, errlen);
	free(buf);
	return rc;
}

static int
streq(const char *a, const char *b)
{
	return a && b ? strcmp(a, b) == 0 : a == b;
}

static void
test_nested_folders_and_entities(void)
{
	struct got g = {0};
	char err[FR_ERRLEN];

	CHECK(parse_file("nested.opml", &g, err, sizeof(err)) == 0);
	CHECK(g.n == 6);
	if (g.n != 6)
		return;
	/* Outside any folder; blanks around the address trimmed. */
	CHECK_STR(g.url[0], "https://example.org/top.xml");
	CHECK_STR(g.html[0], "https://example.org/");
	CHECK_STR(g.title[0], "Top level");
	CHECK(g.cat[0] == NULL);
	CHECK(g.line[0] == 8);
	/* title wins over text; a character reference decoded. */
	CHECK_STR(g.title[1], "Le Monde \xc3\xa0 la une");
	CHECK_STR(g.cat[1], "News");
	CHECK(g.html[1] == NULL);
	/* Predefined entities decoded in values. */
	CHECK_STR(g.title[2], "Q&A <daily>");
	CHECK_STR(g.url[2], "http://example.com/feed?a=1&b=2");
	CHECK(g.line[2] == 11);
	/* The nearest enclosing folder, named by its title. */
	CHECK_STR(g.cat[3], "Tech");
	CHECK_STR(g.url[3], "https://lwn.net/headlines/rss");
	/* No folder: the category attribute; xmlurl in any case. */
	CHECK_STR(g.url[4], "https://arxiv.org/rss/physics");
	CHECK_STR(g.cat[4], "/Science/Physics");
	/* Present but empty: reported as "" so the caller can name the line. */
	CHECK_STR(g.url[5], "");
	CHECK(g.line[5] == 18);
	got_free(&g);
}

static void
test_opml_1_0_latin1(void)
{
	struct got g = {0};
	char err[FR_ERRLEN];

	CHECK(parse_file("v1.opml", &g, err, sizeof(err)) == 0);
	CHECK(g.n == 1);
	if (g.n == 1) {
		CHECK_STR(g.title[0], "Caf\xc3\xa9 du coin");
		CHECK_STR(g.cat[0], "Caf\xc3\xa9s");
		CHECK_STR(g.url[0], "http://cafe.example/rss");
	}
	got_free(&g);
}

static void
test_errors_name_file_and_line(void)
{
	struct got g = {0};
	char err[FR_ERRLEN];

	/* An unclosed outline: libxml2's message at the line it noticed. */
	CHECK(parse_file("bad.opml", &g, err, sizeof(err)) == -1);
	CHECK(strncmp(err, "bad.opml:", 9) == 0);
	/* The first error, not the "premature end" it leads to at the end. */
	CHECK_STR(err, "bad.opml:7: Opening and ending tag mismatch: outline line 6 and body");
	CHECK(strchr(err, '\n') == NULL);
	got_free(&g);

	CHECK(parse_file("notopml.xml", &g, err, sizeof(err)) == -1);
	CHECK_STR(err, "notopml.xml:2: not an OPML document (the root element is <rss>)");
	CHECK(g.n == 0);

	CHECK(parse_file("nobody.opml", &g, err, sizeof(err)) == -1);
	CHECK_STR(err, "nobody.opml:2: OPML document without a <body>");

	/* A custom entity is never expanded: the attribute is refused, with
	 * its line; outlines before it were delivered. */
	CHECK(parse_file("entity.opml", &g, err, sizeof(err)) == -1);
	CHECK(strstr(err, "entity.opml:8: attribute xmlUrl uses the entity '&host;'") == err);
	CHECK(g.n == 1);
	got_free(&g);

	/* Exponential entities: libxml2's amplification guard, fast. */
	CHECK(parse_file("laughs.opml", &g, err, sizeof(err)) == -1);
	CHECK(strncmp(err, "laughs.opml:", 12) == 0);
	got_free(&g);

	/* Not XML at all, and nothing at all. */
	err[0] = '\0';
	CHECK(fr_opml_parse("hello", 5, "x.txt", collect, &g, err, sizeof(err)) == -1);
	CHECK(strncmp(err, "x.txt:1: ", 9) == 0);
	CHECK(fr_opml_parse("", 0, "empty.opml", collect, &g, err, sizeof(err)) == -1);
	CHECK(strncmp(err, "empty.opml:", 11) == 0);
	CHECK(g.n == 0);
}

static void
test_external_entity_not_loaded(void)
{
	/* An external entity would read a local file if expanded. */
	static const char doc[] =
	    "<?xml version=\"1.0\"?>\n"
	    "<!DOCTYPE opml [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>\n"
	    "<opml><body>\n<outline text=\"&x;\" xmlUrl=\"http://a.example/\"/>\n"
	    "</body></opml>\n";
	struct got g = {0};
	char err[FR_ERRLEN];
	int rc = fr_opml_parse(doc, sizeof(doc) - 1, "ext.opml", collect, &g, err, sizeof(err));

	/* libxml2 refuses external entities in attributes outright. */
	CHECK(rc == -1);
	CHECK(strncmp(err, "ext.opml:", 9) == 0);
	for (size_t i = 0; i < g.n; i++)
		CHECK(g.title[i] == NULL || strstr(g.title[i], "root:") == NULL);
	got_free(&g);
}

static void
test_caller_stops(void)
{
	struct got g = {0};
	char err[FR_ERRLEN];

	g.stop_at = 2;
	CHECK(parse_file("nested.opml", &g, err, sizeof(err)) == -1);
	CHECK_STR(err, "nested.opml:10: stopped by the caller");
	CHECK(g.n == 2);
	got_free(&g);
}

/* Writes o[0..n) to memory, parses it back into g. */
static int
round_trip(const struct fr_opml_outline *o, size_t n, struct got *g, char **text)
{
	char err[FR_ERRLEN];
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int rc;

	if (!f)
		return -1;
	rc = fr_opml_write(f, "t & <t>", o, n);
	fclose(f);
	if (rc == 0)
		rc = fr_opml_parse(buf, len, "mem", collect, g, err, sizeof(err));
	if (rc != 0)
		fprintf(stderr, "round trip: %s\n%s\n", err, buf);
	*text = buf;
	return rc;
}

static void
test_write_parse_round_trip(void)
{
	struct got g = {0}, h = {0};
	struct fr_opml_outline o[8];
	char err[FR_ERRLEN], *text = NULL;

	/* The nested file, written and read again: the same feeds, with
	 * categories kept (grouping puts uncategorised ones first). */
	CHECK(parse_file("nested.opml", &g, err, sizeof(err)) == 0);
	for (size_t i = 0; i < g.n; i++) {
		o[i].xml_url = g.url[i];
		o[i].html_url = g.html[i];
		o[i].title = g.title[i];
		o[i].category = g.cat[i];
		o[i].line = 0;
	}
	CHECK(round_trip(o, g.n, &h, &text) == 0);
	CHECK(h.n == g.n);
	for (size_t i = 0; i < g.n && h.n == g.n; i++) {
		size_t j;

		for (j = 0; j < h.n && strcmp(h.url[j], g.url[i]) != 0; j++)
			;
		CHECK(j < h.n);
		if (j == h.n)
			continue;
		CHECK(streq(h.html[j], g.html[i]));
		/* A feed without a title gets its address as text. */
		CHECK(streq(h.title[j], g.title[i]) ||
		      (!g.title[i] && streq(h.title[j], g.url[i])));
		CHECK(streq(h.cat[j], g.cat[i]));
	}
	/* Uncategorised first, then folders in byte order: /Science.., News, Tech. */
	if (h.n == 6) {
		CHECK(h.cat[0] == NULL && h.cat[1] == NULL);
		CHECK_STR(h.cat[2], "/Science/Physics");
		CHECK_STR(h.cat[3], "News");
		CHECK_STR(h.cat[4], "News");
		CHECK_STR(h.cat[5], "Tech");
		CHECK_STR(h.url[3], "https://www.lemonde.fr/rss/une.xml");
		CHECK_STR(h.url[4], "http://example.com/feed?a=1&b=2");
	}
	CHECK(strstr(text, "<title>t &amp; &lt;t&gt;</title>") != NULL);
	free(text);
	got_free(&g);
	got_free(&h);

	/* Hostile strings: quotes, markup, a newline, control bytes, invalid
	 * UTF-8; the output still parses and says the same, minus what XML
	 * cannot hold. */
	o[0] = (struct fr_opml_outline){"http://q.example/?a=\"1\"&b=<2>", NULL,
	                                "line1\nline2\t\"x\" \x01\x7f<b>&amp;", "A \"cat\"", 0};
	o[1] = (struct fr_opml_outline){"http://u.example/", "http://u.example/home",
	                                "bad \xff\xc3( utf8 \xed\xa0\x80 end", NULL, 0};
	o[2] = (struct fr_opml_outline){NULL, NULL, "skipped: no address", NULL, 0};
	CHECK(round_trip(o, 3, &h, &text) == 0);
	CHECK(h.n == 2);
	if (h.n == 2) {
		CHECK_STR(h.url[0], "http://u.example/");
		CHECK_STR(h.html[0], "http://u.example/home");
		CHECK_STR(h.title[0], "bad \xef\xbf\xbd\xef\xbf\xbd( utf8 \xef\xbf\xbd\xef\xbf\xbd"
		                      "\xef\xbf\xbd end");
		CHECK_STR(h.url[1], "http://q.example/?a=\"1\"&b=<2>");
		CHECK_STR(h.title[1], "line1\nline2\t\"x\" <b>&amp;");
		CHECK_STR(h.cat[1], "A \"cat\"");
	}
	free(text);
	got_free(&h);

	/* Nothing to write: a valid, empty list. */
	CHECK(round_trip(o, 0, &h, &text) == 0);
	CHECK(h.n == 0);
	CHECK(strstr(text, "<body>") != NULL);
	free(text);
}

int
main(void)
{
	RUN(test_nested_folders_and_entities);
	RUN(test_opml_1_0_latin1);
	RUN(test_errors_name_file_and_line);
	RUN(test_external_entity_not_loaded);
	RUN(test_caller_stops);
	RUN(test_write_parse_round_trip);
	return TEST_DONE();
}
