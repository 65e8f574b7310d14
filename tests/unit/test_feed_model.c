/* test_feed_model.c - feedparser's result model (lib/parse/fpx.c) as
 * `parse --format json` prints it: the sorted tables, the *_detail, links,
 * authors and tags of a small feed, references kept as written in HTML, the
 * sanitiser on escaped markup, the item cap, a model not built unless
 * asked for, and the streamed result written as json-c writes the model. */
#include "core/err.h"
#include "parse/feed.h"
#include "parse/feed_internal.h"
#include "test.h"

#include <json-c/json.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct fr_feed *
parse(const char *doc, size_t max_items)
{
	struct fr_feed_opts o = {.fp_result = 1, .max_items = max_items,
	                         .base_url = "http://example.com/dir/feed.xml"};
	struct fr_feed *f = NULL;
	char err[FR_ERRLEN];

	if (fr_feed_parse(doc, strlen(doc), &o, &f, err, sizeof(err)) != 0) {
		fprintf(stderr, "parse failed: %s\n", err);
		return NULL;
	}
	return f;
}

/* The string at a path of keys and indexes ("entries", "0", "title"). */
static const char *
at(struct json_object *o, const char *const *path)
{
	for (; o && *path; path++) {
		struct json_object *v = NULL;

		if (json_object_is_type(o, json_type_array))
			v = json_object_array_get_idx(o, (size_t)strtoul(*path, NULL, 10));
		else if (!json_object_object_get_ex(o, *path, &v))
			v = NULL;
		o = v;
	}
	return o && json_object_is_type(o, json_type_string) ? json_object_get_string(o) : NULL;
}

#define AT(o, ...) at((o), (const char *const[]){__VA_ARGS__, NULL})

static void
test_tables_sorted(void)
{
	CHECK(fr_fpx_ns_sorted() == 1);
	CHECK(fr_fpx_handlers_sorted() == 1);
	CHECK_STR(fr_fpx_ns_prefix("http://purl.org/dc/elements/1.1/"), "dc");
	CHECK_STR(fr_fpx_ns_prefix("HTTP://www.itunes.com/DTDs/PodCast-1.0.dtd"), "itunes");
	CHECK_STR(fr_fpx_ns_prefix("http://www.w3.org/2005/Atom"), "");
	CHECK(fr_fpx_ns_prefix("http://example.org/unknown") == NULL);
}

static void
test_rss_model(void)
{
	static const char doc[] =
	    "<rss version=\"2.0\" xmlns:dc=\"http://purl.org/dc/elements/1.1/\">"
	    "<channel><title>AT&amp;amp;T</title><link>http://example.com/</link>"
	    "<image><url>logo.png</url><title>Logo</title><link>http://example.com/</link>"
	    "<width>88</width></image>"
	    "<item><title>One</title><link>/posts/1?a=1&amp;b=2</link>"
	    "<guid isPermaLink=\"false\">p1</guid>"
	    "<author>jane@example.com (Jane Doe)</author>"
	    "<category domain=\"http://example.com/cats\">news</category>"
	    "<enclosure url=\"a.mp3\" length=\"12\" type=\"audio/mpeg\"/>"
	    "<description>&lt;p onclick=\"x()\"&gt;Hi &amp;amp; &amp;#38; &amp;eacute;&lt;/p&gt;"
	    "&lt;script&gt;alert(1)&lt;/script&gt;</description>"
	    "<dc:date>2014-07-06T12:56:00Z</dc:date></item>"
	    "<item><guid>http://example.com/p2</guid><title>Two</title></item>"
	    "</channel></rss>";
	struct fr_feed *f = parse(doc, 0);
	struct json_object *fe, *en, *v;

	CHECK(f != NULL);
	if (!f)
		return;
	fe = f->fp_feed;
	en = f->fp_entries;
	CHECK(fe && en);
	CHECK_STR(AT(fe, "title"), "AT&amp;T");
	CHECK_STR(AT(fe, "title_detail", "type"), "text/html");
	CHECK_STR(AT(fe, "title_detail", "base"), "http://example.com/dir/feed.xml");
	CHECK_STR(AT(fe, "image", "href"), "http://example.com/dir/logo.png");
	CHECK(json_object_object_get_ex(json_object_object_get(fe, "image"), "width", &v) &&
	      json_object_get_int(v) == 88);
	CHECK_STR(AT(en, "0", "link"), "http://example.com/posts/1?a=1&b=2");
	CHECK_STR(AT(en, "0", "id"), "p1");
	CHECK(json_object_object_get_ex(json_object_array_get_idx(en, 0), "guidislink", &v) &&
	      !json_object_get_boolean(v));
	/* the text as given; its parts in author_detail */
	CHECK_STR(AT(en, "0", "author"), "jane@example.com (Jane Doe)");
	CHECK_STR(AT(en, "0", "author_detail", "email"), "jane@example.com");
	CHECK_STR(AT(en, "0", "author_detail", "name"), "Jane Doe");
	CHECK_STR(AT(en, "0", "tags", "0", "term"), "news");
	CHECK_STR(AT(en, "0", "tags", "0", "scheme"), "http://example.com/cats");
	CHECK_STR(AT(en, "0", "links", "1", "rel"), "enclosure");
	CHECK_STR(AT(en, "0", "links", "1", "href"), "a.mp3");
	CHECK_STR(AT(en, "0", "links", "1", "length"), "12");
	/* sanitised, references as written, no script, no event attribute */
	CHECK_STR(AT(en, "0", "summary"), "<p>Hi &amp; &#38; &eacute;</p>");
	CHECK(json_object_object_get_ex(json_object_array_get_idx(en, 0), "updated_parsed", &v) &&
	      json_object_get_int64(v) == 1404651360);
	/* a permalink guid is the link */
	CHECK_STR(AT(en, "1", "link"), "http://example.com/p2");
	CHECK(json_object_object_get_ex(json_object_array_get_idx(en, 1), "guidislink", &v) &&
	      json_object_get_boolean(v));
	fr_feed_free(f);
}

static void
test_atom_model(void)
{
	static const char doc[] =
	    "<feed xmlns=\"http://www.w3.org/2005/Atom\" xml:lang=\"en\" xml:base=\"http://a.example/b/\">"
	    "<title type=\"text\">a &lt; b</title>"
	    "<author><name>Ann</name><email>ann@a.example</email><uri>/ann</uri></author>"
	    "<entry><id>tag:a,2024:1</id><title type=\"xhtml\"><div xmlns=\"http://www.w3.org/1999/xhtml\">"
	    "<b>bold</b></div></title>"
	    "<link rel=\"alternate\" type=\"text/html\" href=\"one\"/>"
	    "<category term=\"t\" scheme=\"s\" label=\"L\"/>"
	    "<content type=\"html\" xml:lang=\"fr\">&lt;a href=\"rel\"&gt;x&lt;/a&gt;</content>"
	    "<source><title>Src</title><id>src-id</id></source>"
	    "</entry></feed>";
	struct fr_feed *f = parse(doc, 0);
	struct json_object *fe, *en;

	CHECK(f != NULL);
	if (!f)
		return;
	fe = f->fp_feed;
	en = f->fp_entries;
	CHECK_STR(AT(fe, "title"), "a < b");
	CHECK_STR(AT(fe, "title_detail", "type"), "text/plain");
	CHECK_STR(AT(fe, "language"), "en");
	CHECK_STR(AT(fe, "author"), "Ann (ann@a.example)");
	CHECK_STR(AT(fe, "author_detail", "href"), "http://a.example/ann");
	CHECK_STR(AT(en, "0", "title"), "<b>bold</b>");
	CHECK_STR(AT(en, "0", "link"), "http://a.example/b/one");
	CHECK_STR(AT(en, "0", "tags", "0", "label"), "L");
	CHECK_STR(AT(en, "0", "content", "0", "value"), "<a href=\"http://a.example/b/rel\">x</a>");
	CHECK_STR(AT(en, "0", "content", "0", "language"), "fr");
	CHECK_STR(AT(en, "0", "source", "title"), "Src");
	/* an id that may be a link resolves (feedparser's guidislink) */
	CHECK_STR(AT(en, "0", "source", "id"), "http://a.example/b/src-id");
	fr_feed_free(f);
}

static void
test_cap_and_off(void)
{
	char doc[4096];
	size_t n = 0;
	struct fr_feed *f;
	struct fr_feed_opts o = {0};
	char err[FR_ERRLEN];

	n += (size_t)snprintf(doc + n, sizeof(doc) - n, "<rss version=\"2.0\"><channel>");
	for (int i = 1; i <= 9; i++)
		n += (size_t)snprintf(doc + n, sizeof(doc) - n,
		                      "<item><guid>g%d</guid><pubDate>0%d Jan 2020 00:00:00 GMT</pubDate></item>",
		                      i, i);
	snprintf(doc + n, sizeof(doc) - n, "</channel></rss>");
	f = parse(doc, 3);
	CHECK(f != NULL);
	if (f) {
		/* the three newest, in document order, as the feed's items */
		CHECK(json_object_array_length(f->fp_entries) == 3);
		CHECK_STR(AT(f->fp_entries, "0", "id"), "http://example.com/dir/g7");
		CHECK_STR(AT(f->fp_entries, "2", "id"), "http://example.com/dir/g9");
		CHECK(f->n_items == 3);
		fr_feed_free(f);
	}
	/* not asked for: not built */
	f = NULL;
	CHECK(fr_feed_parse(doc, strlen(doc), &o, &f, err, sizeof(err)) == 0);
	CHECK(f && !f->fp_feed && !f->fp_entries);
	fr_feed_free(f);
}

/* What `parse --format json` printed before streaming: the model as
 * json-c writes it. */
static char *
model_text(struct fr_feed *f, int flags, const char *file)
{
	struct json_object *root = json_object_new_object();
	char *r;

	json_object_object_add(root, "bozo", json_object_new_boolean(f->bozo));
	if (f->bozo_exception)
		json_object_object_add(root, "bozo_exception", json_object_new_string(f->bozo_exception));
	if (f->encoding)
		json_object_object_add(root, "encoding", json_object_new_string(f->encoding));
	if (f->version)
		json_object_object_add(root, "version", json_object_new_string(f->version));
	json_object_object_add(root, "feed", json_object_get(f->fp_feed));
	json_object_object_add(root, "entries", json_object_get(f->fp_entries));
	if (file)
		json_object_object_add(root, "file", json_object_new_string(file));
	r = strdup(json_object_to_json_string_ext(root, flags));
	json_object_put(root);
	return r;
}

/* fr_feed_fp_write's text of f. */
static char *
written_text(const struct fr_feed *f, int flags, const char *file)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int rc;

	if (!m)
		return NULL;
	rc = fr_feed_fp_write(f, m, flags, file);
	fclose(m);
	if (rc != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* The streamed result is, byte for byte, the model as json-c writes it,
 * in both layouts `parse` uses, with and without the cap (which keeps the
 * newest: dated out of order, undated, an item inside an item, an item
 * left open at the end). */
static void
test_streamed(void)
{
	static const char *const docs[] = {
	    "<rss version=\"2.0\"><channel><title>T</title>"
	    "<item><guid>u1</guid></item>"
	    "<item><guid>d5</guid><pubDate>05 Jan 2020 00:00:00 GMT</pubDate></item>"
	    "<item><guid>d2</guid><pubDate>02 Jan 2020 00:00:00 GMT</pubDate>"
	    "<item><guid>in</guid><pubDate>09 Jan 2020 00:00:00 GMT</pubDate></item>"
	    "<title>after the inner one</title></item>"
	    "<ttl>5</ttl>"
	    "<item><guid>d7</guid><pubDate>07 Jan 2020 00:00:00 GMT</pubDate>"
	    "<description>&lt;p&gt;a\nb &amp;amp; \"q\" / \xc3\xa9&lt;/p&gt;</description></item>"
	    "<item><guid>u2</guid><category>c</category></item>"
	    "<item><guid>d5b</guid><pubDate>05 Jan 2020 00:00:00 GMT</pubDate>",
	    "<rss version=\"2.0\"><channel><title>empty</title></channel></rss>",
	    "<feed xmlns=\"http://www.w3.org/2005/Atom\"><title>a</title><entry><id>1</id>"
	    "<updated>2024-01-01T00:00:00Z</updated><link href=\"x\"/></entry><entry><id>2</id>"
	    "</entry></feed>",
	};
	static const int flags[] = {
	    JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE,
	    JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE,
	    JSON_C_TO_STRING_PLAIN,
	};
	static const size_t caps[] = {SIZE_MAX, 1, 3, 100};

	for (size_t d = 0; d < sizeof(docs) / sizeof(docs[0]); d++)
		for (size_t k = 0; k < sizeof(flags) / sizeof(flags[0]); k++)
			for (size_t c = 0; c < sizeof(caps) / sizeof(caps[0]); c++) {
				struct fr_feed_opts o = {.fp_result = 1, .max_items = caps[c],
				                         .base_url = "http://example.com/dir/feed.xml"};
				struct fr_feed *model = NULL, *streamed = NULL;
				char err[FR_ERRLEN];
				const char *file = k ? "f\"1.xml" : NULL;
				char *want, *got, *got_model;

				CHECK(fr_feed_parse(docs[d], strlen(docs[d]), &o, &model, err, sizeof(err)) == 0);
				o.fp_stream = 1;
				o.fp_json_flags = flags[k];
				CHECK(fr_feed_parse(docs[d], strlen(docs[d]), &o, &streamed, err, sizeof(err)) ==
				      0);
				if (!model || !streamed) {
					fr_feed_free(model);
					fr_feed_free(streamed);
					continue;
				}
				CHECK(streamed->fp_feed && !streamed->fp_entries);
				if (d == 0 && caps[c] == 3) {
					/* the newest three: d9 (inner), d7, then d5 before
					 * d5b, its equal later in the document */
					CHECK(json_object_array_length(model->fp_entries) == 3);
					CHECK_STR(AT(model->fp_entries, "0", "id"), "http://example.com/dir/d5");
					CHECK_STR(AT(model->fp_entries, "1", "id"), "http://example.com/dir/in");
					CHECK_STR(AT(model->fp_entries, "2", "id"), "http://example.com/dir/d7");
				}
				want = model_text(model, flags[k], file);
				got = written_text(streamed, flags[k], file);
				got_model = written_text(model, flags[k], file);
				CHECK_STR(got, want);
				CHECK_STR(got_model, want);
				if (!got || !want || strcmp(got, want))
					fprintf(stderr, "doc %zu, flags %d, cap %zu:\n%s\n---\n%s\n", d, flags[k],
					        caps[c], want ? want : "(null)", got ? got : "(null)");
				free(want);
				free(got);
				free(got_model);
				fr_feed_free(model);
				fr_feed_free(streamed);
			}
}

int
main(void)
{
	RUN(test_tables_sorted);
	RUN(test_rss_model);
	RUN(test_atom_model);
	RUN(test_cap_and_off);
	RUN(test_streamed);
	return TEST_DONE();
}
