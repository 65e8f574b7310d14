/* test_feed.c - the feed parser (lib/parse/feed.h) on small hand-written
 * feeds in tests/data/parse: formats and versions, namespaces, item
 * identity and its stability, xml:base and base-URL resolution, encodings
 * (ISO-8859-1, windows-1252, UTF-16 and UTF-32 with BOM, HTTP charset, a wrong
 * declaration), hostile input (billion laughs, XXE, deep nesting, size),
 * bozo on ill-formed XML, JSON Feed, sniffing, and a fetch over loopback
 * HTTP (libmicrohttpd) parsed as `freshet parse URL` does. */
#include "core/err.h"
#include "net/fetch.h"
#include "parse/feed.h"
#include "test.h"

#include <arpa/inet.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define DATA FR_TEST_DATA "/parse/"

static char *
slurp(const char *name, size_t *len)
{
	char path[1024];

	snprintf(path, sizeof(path), "%s%s", DATA, name);
	return test_slurp(path, len);
}

/* Parses a data file; NULL (with the error printed) when it fails. */
static struct fr_feed *
parse_file(const char *name, const struct fr_feed_opts *o)
{
	size_t len = 0;
	char *buf = slurp(name, &len);
	struct fr_feed *f = NULL;
	char err[FR_ERRLEN] = "";

	if (!buf)
		return NULL;
	if (fr_feed_parse(buf, len, o, &f, err, sizeof(err)) != 0)
		fprintf(stderr, "%s: %s\n", name, err);
	free(buf);
	return f;
}

static struct fr_feed *
parse_str(const char *s, const struct fr_feed_opts *o, char *err, size_t errlen)
{
	struct fr_feed *f = NULL;
	size_t n = strlen(s);
	char *copy = malloc(n ? n : 1); /* exact size: a sanitizer sees any overread */

	if (!copy)
		return NULL;
	memcpy(copy, s, n);
	if (fr_feed_parse(copy, n, o, &f, err, errlen) != 0)
		f = NULL;
	free(copy);
	return f;
}

static void
test_rss_full(void)
{
	struct fr_feed_opts o = {.base_url = "http://example.com/feed.xml"};
	struct fr_feed *f = parse_file("rss_full.xml", &o);
	const struct fr_feed_item *a, *b, *c;

	CHECK(f != NULL);
	if (!f)
		return;
	CHECK_STR(f->version, "rss20");
	CHECK(!f->bozo);
	CHECK_STR(f->title, "AT&T <News>"); /* HTML in titles unescaped once */
	CHECK_STR(f->link, "http://example.com/");
	CHECK_STR(f->subtitle, "All the news");
	CHECK_STR(f->language, "en-us");
	CHECK(f->updated_s == 1404720000);
	CHECK(f->ttl_s == 3600);
	CHECK(f->update_period_s == 1800); /* hourly, twice */
	CHECK(f->n_items == 3);
	if (f->n_items != 3)
		goto done;
	a = &f->items[0];
	b = &f->items[1];
	c = &f->items[2];
	CHECK_STR(a->id, "post-1");
	CHECK_STR(a->title, "First & foremost");
	CHECK_STR(a->link, "http://example.com/posts/1"); /* relative, against the feed URL */
	CHECK_STR(a->summary, "<p>Short <a href=\"http://example.com/x\">x</a></p>");
	CHECK_STR(a->content, "<p>Long body</p>");
	CHECK_STR(a->author, "Jane Doe");
	CHECK(a->published_s == 1404651360);
	CHECK(a->n_tags == 2); /* dc:subject "news" is not repeated */
	if (a->n_tags == 2) {
		CHECK_STR(a->tags[0], "news");
		CHECK_STR(a->tags[1], "tech");
	}
	CHECK(a->n_enclosures == 1);
	if (a->n_enclosures == 1) {
		CHECK_STR(a->enclosures[0].url, "http://cdn.example.com/a.mp3");
		CHECK_STR(a->enclosures[0].type, "audio/mpeg");
		CHECK(a->enclosures[0].length == 123456);
	}
	CHECK_STR(a->comments_url, "http://example.com/posts/1#comments");
	CHECK(a->n_comments == 7);
	/* guid as id and, being a permalink, as link; &nbsp; and &eacute; read */
	CHECK_STR(b->id, "http://example.com/posts/2");
	CHECK_STR(b->link, "http://example.com/posts/2");
	CHECK_STR(b->title, "Second\xc2\xa0item caf\xc3\xa9");
	CHECK_STR(b->author, "Ed Itor"); /* RSS author "email (Name)" */
	CHECK_STR(b->summary, "From media");
	CHECK(b->published_s == 1404547200); /* dc:date */
	CHECK(b->updated_s == 1404547200);
	CHECK(b->n_comments == -1);
	/* no guid, no link: a hash; an unparseable date stays unknown */
	CHECK(c->id && strncmp(c->id, "sha1:", 5) == 0 && strlen(c->id) == 45);
	CHECK(c->link == NULL);
	CHECK(c->published_s == FR_DATE_NONE);
done:
	fr_feed_free(f);
}

static void
test_versions(void)
{
	static const struct {
		const char *file, *version;
	} rows[] = {
		{"rss091n.xml", "rss091n"}, {"rdf.xml", "rss10"},   {"atom03.xml", "atom03"},
		{"xml_base.xml", "atom10"}, {"feed.json", "json11"}, {"rss_full.xml", "rss20"},
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct fr_feed *f = parse_file(rows[i].file, NULL);

		CHECK(f != NULL);
		if (f)
			CHECK_STR(f->version, rows[i].version);
		fr_feed_free(f);
	}
}

static void
test_rdf_and_atom03(void)
{
	struct fr_feed *f = parse_file("rdf.xml", NULL);

	CHECK(f && f->n_items == 2);
	if (f && f->n_items == 2) {
		CHECK_STR(f->items[0].id, "http://example.org/a"); /* no guid: the link */
		CHECK_STR(f->items[0].author, "Ann");
		CHECK(f->items[0].published_s == 1071340202);
	}
	fr_feed_free(f);
	f = parse_file("atom03.xml", NULL);
	CHECK(f && f->n_items == 1);
	if (f && f->n_items == 1) {
		CHECK_STR(f->items[0].title, "A <b> entry"); /* mode=escaped, unescaped once */
		CHECK_STR(f->items[0].content, "<p>Hello world</p>"); /* mode=base64 */
		CHECK(f->items[0].published_s == 1071318569);           /* issued, -04:00 */
		CHECK(f->items[0].updated_s == 1071340202);             /* modified */
		CHECK_STR(f->items[0].author, "Mark");
		CHECK_STR(f->link, "http://example.org/");
	}
	fr_feed_free(f);
}

/* The same item fetched twice with changed content keeps its id; items
 * without guid and link are told apart by title and content. */
static void
test_identity_stable(void)
{
	const char *v1 = "<rss version=\"2.0\"><channel><item><guid>g1</guid><title>T</title>"
	                 "<description>old</description></item><item><link>http://e.org/2</link>"
	                 "<title>U</title><description>old</description></item><item><title>V"
	                 "</title><description>same</description></item></channel></rss>";
	const char *v2 = "<rss version=\"2.0\"><channel><item><guid>g1</guid><title>T (edited)"
	                 "</title><description>new</description></item><item><link>http://e.org/2"
	                 "</link><title>U</title><description>new</description></item><item><title>V"
	                 "</title><description>same</description></item></channel></rss>";
	char err[FR_ERRLEN];
	struct fr_feed *a = parse_str(v1, NULL, err, sizeof(err));
	struct fr_feed *b = parse_str(v2, NULL, err, sizeof(err));
	struct fr_feed *c = parse_str(v1, NULL, err, sizeof(err));

	CHECK(a && b && c);
	if (a && b && c && a->n_items == 3 && b->n_items == 3 && c->n_items == 3) {
		CHECK_STR(a->items[0].id, "g1");
		CHECK_STR(b->items[0].id, "g1");
		CHECK_STR(a->items[1].id, "http://e.org/2");
		CHECK_STR(b->items[1].id, "http://e.org/2");
		CHECK_STR(a->items[2].id, b->items[2].id); /* same title and content: same hash */
		CHECK_STR(a->items[2].id, c->items[2].id);
		CHECK(strcmp(a->items[2].id, a->items[0].id) != 0);
		/* SHA-1 of "V\nsame" */
		CHECK_STR(a->items[2].id, "sha1:cc78def387067420a5d4c18cb924ea67063c7e38");
	}
	fr_feed_free(a);
	fr_feed_free(b);
	fr_feed_free(c);
}

static void
test_xml_base(void)
{
	struct fr_feed_opts o = {.base_url = "http://ignored.example/feed"};
	struct fr_feed *f = parse_file("xml_base.xml", &o);

	CHECK(f && f->n_items == 2);
	if (!f || f->n_items != 2) {
		fr_feed_free(f);
		return;
	}
	CHECK_STR(f->link, "http://example.org/blog/index.html");
	CHECK_STR(f->items[0].link, "http://example.org/blog/2024/one.html");
	CHECK(f->items[0].n_enclosures == 1);
	if (f->items[0].n_enclosures == 1) {
		CHECK_STR(f->items[0].enclosures[0].url, "http://example.org/blog/media/one.mp3");
		CHECK(f->items[0].enclosures[0].length == 1234);
	}
	CHECK(f->items[0].content &&
	      strstr(f->items[0].content, "href=\"http://example.org/blog/2024/two.html\""));
	CHECK(f->items[0].content && strstr(f->items[0].content, "src=\"http://example.org/img/x.png\""));
	CHECK(f->items[0].updated_s == 1709283600);
	CHECK_STR(f->items[1].title, "Two <b>bold</b>"); /* xhtml: inner markup */
	CHECK_STR(f->items[1].link, "http://example.org/abs/two");
	CHECK_STR(f->items[1].summary, "<a href=\"http://example.org/blog/three.html\">3</a>");
	fr_feed_free(f);
}

static void
test_encodings(void)
{
	struct fr_feed *f;
	struct fr_feed_opts o = {.content_type = "application/rss+xml; charset=\"ISO-8859-1\""};

	f = parse_file("latin1.xml", NULL);
	CHECK(f && !f->bozo);
	if (f) {
		CHECK_STR(f->encoding, "iso-8859-1");
		CHECK_STR(f->title, "Caf\xc3\xa9 cr\xc3\xa8me");
		CHECK(f->n_items == 1 && !strcmp(f->items[0].title, "Na\xc3\xafve r\xc3\xa9sum\xc3\xa9"));
	}
	fr_feed_free(f);
	f = parse_file("win1252.xml", NULL);
	CHECK(f && !f->bozo);
	if (f) {
		CHECK_STR(f->encoding, "windows-1252");
		CHECK_STR(f->title, "\xe2\x80\x9cQuoted\xe2\x80\x9d \xe2\x82\xac" "5");
	}
	fr_feed_free(f);
	for (int be = 0; be < 2; be++) {
		f = parse_file(be ? "utf16be_bom.xml" : "utf16le_bom.xml", NULL);
		CHECK(f && !f->bozo);
		if (f) {
			CHECK_STR(f->encoding, be ? "utf-16be" : "utf-16le");
			CHECK_STR(f->title, "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e \xc3\xa9");
			CHECK(f->n_items == 1 && !strcmp(f->items[0].id, "urn:x:3"));
		}
		fr_feed_free(f);
	}
	for (int be = 0; be < 2; be++) {
		f = parse_file(be ? "utf32be_bom.xml" : "utf32le_bom.xml", NULL);
		CHECK(f && !f->bozo);
		if (f) {
			CHECK_STR(f->encoding, be ? "utf-32be" : "utf-32le");
			CHECK_STR(f->title, "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e \xc3\xa9");
			CHECK(f->n_items == 1 && !strcmp(f->items[0].title, "\xf0\x9f\x98\x80 emoji"));
		}
		fr_feed_free(f);
	}
	/* The HTTP charset decides when the document declares none. */
	f = parse_file("http_charset.xml", &o);
	CHECK(f && !f->bozo);
	if (f) {
		CHECK_STR(f->encoding, "iso-8859-1");
		CHECK_STR(f->title, "Caf\xc3\xa9");
	}
	fr_feed_free(f);
	/* Declared UTF-8, is Latin-1: read as windows-1252, flagged. */
	f = parse_file("wrong_utf8.xml", NULL);
	CHECK(f && f->bozo);
	if (f) {
		CHECK_STR(f->encoding, "windows-1252");
		CHECK(f->bozo_exception && strstr(f->bozo_exception, "line 2:") &&
		      strstr(f->bozo_exception, "windows-1252"));
		CHECK(f->n_items == 1 && !strcmp(f->items[0].title, "Cr\xc3\xa8me br\xc3\xbbl\xc3\xa9" "e"));
	}
	fr_feed_free(f);
}

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void
test_billion_laughs_and_xxe(void)
{
	double t0 = now_s();
	struct fr_feed *f = parse_file("billion_laughs.xml", NULL);

	CHECK(f != NULL);
	CHECK(now_s() - t0 < 1.0);
	if (f) {
		/* nothing expanded: the nested entity stays as its name */
		CHECK(f->title && strlen(f->title) < 64 && !strstr(f->title, "lollol"));
		CHECK(f->n_items == 1 && !strcmp(f->items[0].title, "after & still"));
		CHECK(f->bozo);
	}
	fr_feed_free(f);
	f = parse_file("xxe.xml", NULL);
	CHECK(f != NULL);
	if (f) {
		/* No file was read and no request made: the external
		 * entities stay as the text they are, and the feed is bozo. */
		CHECK(f->title && !strstr(f->title, "root:") && !strcmp(f->title, "X &xxe; Y"));
		CHECK(f->n_items == 1 && !strcmp(f->items[0].title, "N &net; M"));
		CHECK(f->bozo);
	}
	fr_feed_free(f);
}

/* Nesting deeper than the limit stops the parse with bozo, no crash. */
static void
test_deep_nesting(void)
{
	size_t depth = 100000, n = 0;
	char *buf = malloc(depth * 7 + 200);
	struct fr_feed_opts o = {.max_depth = 20};
	struct fr_feed *f = NULL;
	char err[FR_ERRLEN];

	if (!buf)
		return;
	n += (size_t)snprintf(buf + n, 200, "<rss version=\"2.0\"><channel><item><title>t</title>");
	for (size_t i = 0; i < depth; i++) {
		memcpy(buf + n, "<a>", 3);
		n += 3;
	}
	CHECK(fr_feed_parse(buf, n, NULL, &f, err, sizeof(err)) == 0);
	CHECK(f && f->bozo && f->bozo_exception);
	if (f)
		fprintf(stderr, "  deep nesting, default limit: %s\n", f->bozo_exception);
	CHECK(f && f->n_items == 1);
	fr_feed_free(f);
	f = NULL;
	CHECK(fr_feed_parse(buf, n, &o, &f, err, sizeof(err)) == 0);
	CHECK(f && f->bozo && strstr(f->bozo_exception, "deeper than 20"));
	fr_feed_free(f);
	free(buf);
}

static void
test_bozo_and_errors(void)
{
	char err[FR_ERRLEN];
	struct fr_feed *f = parse_file("illformed.xml", NULL);
	struct fr_feed_opts small = {.max_bytes = 10};

	CHECK(f && f->bozo);
	if (f) {
		CHECK(f->bozo_exception && strstr(f->bozo_exception, "line 6:"));
		CHECK(f->n_items == 2);
		if (f->n_items == 2)
			CHECK_STR(f->items[1].title, "Two & three"); /* entities still read after an error */
	}
	fr_feed_free(f);
	f = parse_file("not_feed.html", NULL);
	CHECK(f == NULL);
	CHECK(parse_str("<html><body>x</body></html>", NULL, err, sizeof(err)) == NULL);
	CHECK(strstr(err, "not a feed: root <html>") != NULL);
	CHECK(parse_str("", NULL, err, sizeof(err)) == NULL);
	CHECK(strstr(err, "not a feed") != NULL);
	CHECK(parse_str("garbage, not XML", NULL, err, sizeof(err)) == NULL);
	CHECK(strstr(err, "not a feed") != NULL);
	CHECK(parse_str("<rss version=\"2.0\"><channel></channel></rss>", &small, err, sizeof(err)) ==
	      NULL);
	CHECK(strstr(err, "over the limit of 10") != NULL);
	f = parse_str("<rss version=\"2.0\"><channel><title>Fish & Chips</title></channel></rss>", NULL,
	              err, sizeof(err));
	CHECK(f && f->bozo && !strcmp(f->title, "Fish & Chips"));
	fr_feed_free(f);
	/* HTML entities in attributes too (a libxml2 predefined entity would
	 * keep one byte of the character there; found by fuzzing). */
	f = parse_str("<rss version=\"2.0\"><channel><item><guid>1</guid><enclosure url=\"http://e.org/"
	              "a&nbsp;&eacute;.mp3\"/><title>&Eacute;t&eacute;</title></item></channel></rss>",
	              NULL, err, sizeof(err));
	CHECK(f && f->n_items == 1 && f->items[0].n_enclosures == 1 &&
	      !strcmp(f->items[0].enclosures[0].url, "http://e.org/a\xc2\xa0\xc3\xa9.mp3") &&
	      !strcmp(f->items[0].title, "\xc3\x89t\xc3\xa9") && !f->bozo);
	fr_feed_free(f);
	f = parse_str("<rss version=\"2.0\"><channel><title><![CDATA[a & b &nbsp;]]></title></channel></rss>",
	              NULL, err, sizeof(err));
	CHECK(f && !f->bozo && !strcmp(f->title, "a & b \xc2\xa0")); /* in CDATA: HTML, unescaped once */
	fr_feed_free(f);
}

/* CDATA sections are handed on as text, by libxml2 or (UTF-8) cut out
 * before parsing: the text, the error lines and the encoding fallback must
 * be the same either way. */
static void
test_cdata(void)
{
	char err[FR_ERRLEN];
	struct fr_feed *f;

	f = parse_str("<rss version=\"2.0\"><channel><title><![CDATA[a <b>&amp;</b> ]] ]]]]></title>\n"
	              "<item><description><![CDATA[line1\nline2\nline3]]></description>\n"
	              "<title>x &bogus; y</title></item></channel></rss>",
	              NULL, err, sizeof(err));
	CHECK(f != NULL);
	if (f) {
		CHECK_STR(f->title, "a <b>&</b> ]] ]]"); /* HTML title unescaped once */
		CHECK(f->n_items == 1 && !strcmp(f->items[0].summary, "line1\nline2\nline3"));
		/* the error is on line 5, after a CDATA holding two newlines */
		CHECK(f->bozo && f->bozo_exception && strstr(f->bozo_exception, "line 5:"));
	}
	fr_feed_free(f);
	/* In a content field the CDATA is HTML and links resolve. */
	{
		struct fr_feed_opts o = {.base_url = "http://example.org/a/"};

		f = parse_str("<rss version=\"2.0\"><channel><item><guid>1</guid><description>"
		              "<![CDATA[<a href=\"b.html\">b</a>]]></description></item></channel></rss>",
		              &o, err, sizeof(err));
		CHECK(f && f->n_items == 1 &&
		      !strcmp(f->items[0].summary, "<a href=\"http://example.org/a/b.html\">b</a>"));
		fr_feed_free(f);
	}
	/* Latin-1 bytes in a CDATA of a "UTF-8" document: the fallback. */
	f = parse_str("<?xml version=\"1.0\" encoding=\"utf-8\"?><rss version=\"2.0\"><channel><title>"
	              "<![CDATA[caf\xe9]]></title></channel></rss>",
	              NULL, err, sizeof(err));
	CHECK(f && f->bozo && !strcmp(f->title, "caf\xc3\xa9") && !strcmp(f->encoding, "windows-1252"));
	fr_feed_free(f);
	/* A processing instruction that looks like a lifted section is ignored. */
	f = parse_str("<rss version=\"2.0\"><channel><title>t<?fr-cdata 0?>u</title></channel></rss>",
	              NULL, err, sizeof(err));
	CHECK(f && !strcmp(f->title, "tu"));
	fr_feed_free(f);
}

static void
test_json_feed(void)
{
	struct fr_feed_opts o = {.base_url = "http://example.com/feed.json"};
	struct fr_feed *f = parse_file("feed.json", &o);
	char err[FR_ERRLEN];
	char deep[3000];

	CHECK(f && f->n_items == 2);
	if (f && f->n_items == 2) {
		const struct fr_feed_item *a = &f->items[0], *b = &f->items[1];

		CHECK_STR(f->title, "JSON Feed");
		CHECK_STR(f->author, "Feed Author");
		CHECK_STR(a->link, "http://example.com/posts/1");
		CHECK_STR(a->content, "<p>Hi <a href=\"http://example.com/x.html\">x</a></p>");
		CHECK_STR(a->author, "Ann");
		CHECK(a->published_s == 1577934245);
		CHECK(a->updated_s == 1578006000);
		CHECK(a->n_tags == 2);
		CHECK(a->n_enclosures == 1 && a->enclosures[0].length == 42);
		CHECK_STR(b->id, "2"); /* a number id read as text */
		CHECK_STR(b->content, "Plain");
		CHECK_STR(b->author, "Old Style");
	}
	fr_feed_free(f);
	CHECK(parse_str("{\"version\": \"https://jsonfeed.org/version/1\", \"items\": [", NULL, err,
	                sizeof(err)) == NULL);
	CHECK(strstr(err, "not a feed: JSON at byte") != NULL);
	CHECK(parse_str("{\"hello\": 1}", NULL, err, sizeof(err)) == NULL);
	CHECK(strstr(err, "jsonfeed.org version") != NULL);
	memset(deep, '[', sizeof(deep) - 1);
	deep[0] = '{';
	deep[sizeof(deep) - 1] = '\0';
	CHECK(parse_str(deep, NULL, err, sizeof(err)) == NULL);
}

static void
test_sniff(void)
{
	static const struct {
		const char *s;
		int want;
	} rows[] = {
		{"<?xml version=\"1.0\"?>\n<!-- c --><rss version=\"2.0\">", 1},
		{"\xef\xbb\xbf<feed xmlns=\"http://www.w3.org/2005/Atom\">", 1},
		{"<!DOCTYPE rss [<!ENTITY a \"b\">]><rss>", 1},
		{"<rdf:RDF xmlns:rdf=\"x\">", 1},
		{"{\"version\": \"https://jsonfeed.org/version/1.1\"}", 1},
		{"<!DOCTYPE html><html>", 0},
		{"{\"a\": 1}", 0},
		{"hello", 0},
		{"", 0},
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		int got = fr_feed_sniff(rows[i].s, strlen(rows[i].s));

		CHECK(got == rows[i].want);
		if (got != rows[i].want)
			fprintf(stderr, "  sniff '%s': %d\n", rows[i].s, got);
	}
}

/* ---- a loopback HTTP server serving one feed ---- */

static const char SERVED[] = "<rss version=\"2.0\"><channel><title>Caf\xe9</title><item>"
                             "<link>/p/1</link><title>x</title></item></channel></rss>";

static enum MHD_Result
serve(void *cls, struct MHD_Connection *conn, const char *url, const char *method,
      const char *version, const char *upload, size_t *upload_size, void **con_cls)
{
	struct MHD_Response *r;
	enum MHD_Result ret;

	(void)cls;
	(void)url;
	(void)method;
	(void)version;
	(void)upload;
	(void)upload_size;
	(void)con_cls;
	r = MHD_create_response_from_buffer(sizeof(SERVED) - 1, (void *)SERVED, MHD_RESPMEM_PERSISTENT);
	MHD_add_response_header(r, "Content-Type", "application/rss+xml; charset=iso-8859-1");
	ret = MHD_queue_response(conn, MHD_HTTP_OK, r);
	MHD_destroy_response(r);
	return ret;
}

static void
test_fetch_and_parse(void)
{
	struct sockaddr_in sa;
	struct MHD_Daemon *d;
	const union MHD_DaemonInfo *info;
	struct fr_fetch_opts fo;
	struct fr_response res;
	struct fr_feed_opts o;
	struct fr_feed *f = NULL;
	char url[128], err[FR_ERRLEN];

	memset(&sa, 0, sizeof(sa));
	sa.sin_family = AF_INET;
	sa.sin_port = 0; /* ephemeral */
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	d = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD, 0, NULL, NULL, serve, NULL,
	                     MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&sa, MHD_OPTION_END);
	CHECK(d != NULL);
	if (!d)
		return;
	info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
	snprintf(url, sizeof(url), "http://127.0.0.1:%u/feed.xml", (unsigned)info->port);
	fr_fetch_opts_init(&fo);
	fo.proxy = "";
	fo.allow_private = 1; /* the test server is on loopback */
	memset(&res, 0, sizeof(res));
	CHECK(fr_http_get(url, &fo, &res) == 0);
	CHECK(res.outcome == FR_NET_OK);
	if (res.outcome == FR_NET_OK) {
		memset(&o, 0, sizeof(o));
		o.base_url = res.effective_url ? res.effective_url : url;
		o.content_type = res.content_type;
		CHECK(fr_feed_parse(res.body, res.len, &o, &f, err, sizeof(err)) == 0);
		CHECK(f && !f->bozo && !strcmp(f->title, "Caf\xc3\xa9"));
		CHECK(f && f->n_items == 1 && f->items[0].link && strstr(f->items[0].link, "/p/1") &&
		      !strncmp(f->items[0].link, "http://127.0.0.1:", 17));
		fr_feed_free(f);
	}
	fr_response_clear(&res);
	MHD_stop_daemon(d);
}

static struct fr_feed *
parse_mem(const char *s, size_t n, const struct fr_feed_opts *o, char *err, size_t errlen)
{
	struct fr_feed *f = NULL;
	char *copy = malloc(n ? n : 1);

	if (!copy)
		return NULL;
	memcpy(copy, s, n);
	if (fr_feed_parse(copy, n, o, &f, err, errlen) != 0)
		f = NULL;
	free(copy);
	return f;
}

/* Issue 24's defects in fields already output, one by one. */
static void
test_defects_issue24(void)
{
	char err[FR_ERRLEN] = "";
	struct fr_feed *f;

	/* &amp; in attributes is '&', not "&#38;" (feed, entry, enclosure links) */
	f = parse_str("<rss version=\"2.0\"><channel><title>t</title>"
	              "<atom:link xmlns:atom=\"http://www.w3.org/2005/Atom\" rel=\"alternate\" href=\"http://x/f?a=1&amp;b=2\"/>"
	              "<item><title>i</title><enclosure url=\"http://x/e?a=1&amp;b=2&amp;amp;c\" type=\"audio/mpeg\" length=\"1\"/></item>"
	              "</channel></rss>", NULL, err, sizeof(err));
	CHECK(f && f->n_items == 1);
	if (f && f->n_items == 1) {
		CHECK_STR(f->link, "http://x/f?a=1&b=2");
		CHECK(f->items[0].n_enclosures == 1 &&
		      !strcmp(f->items[0].enclosures[0].url, "http://x/e?a=1&b=2&amp;c"));
	}
	fr_feed_free(f);
	f = parse_str("<feed xmlns=\"http://www.w3.org/2005/Atom\"><title>t</title><entry><id>x</id><title>e</title>"
	              "<link rel=\"alternate\" href=\"http://x/p?a=1&amp;b=2\"/></entry></feed>", NULL, err, sizeof(err));
	CHECK(f && f->n_items == 1 && !strcmp(f->items[0].link, "http://x/p?a=1&b=2"));
	fr_feed_free(f);

	/* markup injection through escaped attributes: no live event attribute */
	f = parse_str("<rss version=\"2.0\"><channel><title>t</title><item><title>i</title><description>"
	              "&lt;span title=\"&amp;quot; onmouseover=&amp;quot;alert(1)\"&gt;hi&lt;/span&gt;"
	              "&lt;img src=\"x.png\" onerror=\"alert(2)\"&gt;&lt;script&gt;alert(3)&lt;/script&gt;"
	              "&lt;a href=\"javascript:alert(4)\"&gt;a&lt;/a&gt;</description></item></channel></rss>",
	              NULL, err, sizeof(err));
	CHECK(f && f->n_items == 1 && f->items[0].summary);
	if (f && f->n_items == 1 && f->items[0].summary) {
		const char *s = f->items[0].summary;

		CHECK(!strstr(s, "onmouseover=\"") && !strstr(s, "onerror") && !strstr(s, "script") &&
		      !strstr(s, "alert(4)"));
		CHECK(strstr(s, "<span title=\"&quot; onmouseover=&quot;alert(1)\">hi</span>") != NULL);
	}
	fr_feed_free(f);

	/* Atom type="text": stays text (escaped as HTML in summary/content) */
	f = parse_str("<feed xmlns=\"http://www.w3.org/2005/Atom\"><title>t</title><entry><id>x</id>"
	              "<content type=\"text\">if a &lt; b &amp;&amp; c</content></entry></feed>",
	              NULL, err, sizeof(err));
	CHECK(f && f->n_items == 1 && f->items[0].content &&
	      !strcmp(f->items[0].content, "if a &lt; b &amp;&amp; c"));
	fr_feed_free(f);

	/* an unknown encoding label: read (as UTF-8 here), bozo */
	f = parse_str("<?xml version=\"1.0\" encoding=\"bogus\"?><rss version=\"2.0\"><channel><title>caf\xc3\xa9</title>"
	              "<item><title>i</title></item></channel></rss>", NULL, err, sizeof(err));
	CHECK(f && f->bozo && f->n_items == 1 && !strcmp(f->title, "caf\xc3\xa9"));
	fr_feed_free(f);

	/* rdf:about is the RSS 1.0 item's id */
	f = parse_str("<rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\" xmlns=\"http://purl.org/rss/1.0/\">"
	              "<channel rdf:about=\"http://x/\"><title>t</title></channel>"
	              "<item rdf:about=\"http://x/1\"><title>one</title></item></rdf:RDF>", NULL, err, sizeof(err));
	CHECK(f && f->n_items == 1 && !strcmp(f->items[0].id, "http://x/1"));
	fr_feed_free(f);

	/* internal DTD entities expanded (flat ones, as feedparser), external
	 * never read, nested and undefined ones kept as text without eating
	 * spaces */
	f = parse_str("<?xml version=\"1.0\"?>\n<!DOCTYPE rss [\n<!ENTITY mid \"MIDDLE\">\n<!ENTITY nest \"a&mid;b\">\n"
	              "<!ENTITY ext SYSTEM \"file:///etc/passwd\">\n]>\n<rss version=\"2.0\"><channel><title>T &nest;</title>"
	              "<item><guid isPermaLink=\"false\">start-&mid;-end</guid><title>testing &doesnotexist; entity</title></item>"
	              "<item><title>x &ext; y</title></item></channel></rss>", NULL, err, sizeof(err));
	CHECK(f && f->n_items == 2 && f->bozo);
	if (f && f->n_items == 2) {
		CHECK_STR(f->title, "T &nest;");
		CHECK_STR(f->items[0].id, "start-MIDDLE-end");
		CHECK_STR(f->items[0].title, "testing &doesnotexist; entity");
		CHECK_STR(f->items[1].title, "x &ext; y");
	}
	fr_feed_free(f);

	/* NUL and &#0;: U+FFFD, title and items kept, bozo */
	{
		static const char nul[] = "<rss version=\"2.0\"><channel><title>A\0B &#0; C</title>"
		                          "<item><title>one</title></item><item><title>two</title></item></channel></rss>";

		f = parse_mem(nul, sizeof(nul) - 1, NULL, err, sizeof(err));
		CHECK(f && f->bozo && f->n_items == 2 && f->title &&
		      !strcmp(f->title, "A\xef\xbf\xbd" "B \xef\xbf\xbd C"));
		fr_feed_free(f);
	}

	/* a truncated file keeps every item before the cut */
	f = parse_str("<rss version=\"2.0\"><channel><title>T</title><item><title>one</title></item>\n"
	              "<item><title>two</title></item>\n<item><title>three</title></item>\n<item><title>fo",
	              NULL, err, sizeof(err));
	CHECK(f && f->bozo && f->n_items == 4 && !strcmp(f->items[2].title, "three"));
	fr_feed_free(f);

	/* UTF-16BE without BOM or declaration */
	{
		const char *src = "<rss version=\"2.0\"><channel><title>T</title></channel></rss>";
		size_t n = strlen(src);
		char *u16 = calloc(2 * n, 1);

		for (size_t i = 0; u16 && i < n; i++)
			u16[2 * i + 1] = src[i];
		f = u16 ? parse_mem(u16, 2 * n, NULL, err, sizeof(err)) : NULL;
		CHECK(f && f->title && !strcmp(f->title, "T"));
		fr_feed_free(f);
		free(u16);
	}

	/* binary input: named as binary */
	{
		static const char elf[] = "\x7f" "ELF\x02\x01\x01\0\0\0\0\0\0\0\0\0\x03\0>\0";

		f = parse_mem(elf, sizeof(elf) - 1, NULL, err, sizeof(err));
		CHECK(!f && strstr(err, "binary data") != NULL);
	}
}

/* Issue 23 items 8 and 9: the item cap and refused link schemes. */
static void
test_item_cap_and_link_schemes(void)
{
	char err[FR_ERRLEN] = "";
	struct fr_feed_opts o = {.max_items = 3};
	struct fr_feed *f;
	struct fb {
		char *p;
		size_t n;
	} b = {0};
	FILE *m = open_memstream(&b.p, &b.n);

	/* 10 items, dated out of order: the 3 newest kept, in document order */
	fputs("<rss version=\"2.0\"><channel><title>t</title>", m);
	for (int i = 0; i < 10; i++)
		fprintf(m, "<item><guid>g%d</guid><pubDate>Mon, %02d Jan 2024 00:00:00 GMT</pubDate></item>", i,
		        1 + (i * 7) % 10);
	fputs("</channel></rss>", m);
	fclose(m);
	f = parse_str(b.p, &o, err, sizeof(err));
	CHECK(f && f->n_items == 3 && f->n_items_cut == 7);
	if (f && f->n_items == 3) {
		/* days: g0 1, g1 8, g2 5, g3 2, g4 9, g5 6, g6 3, g7 10, g8 7, g9 4 */
		CHECK_STR(f->items[0].id, "g1");
		CHECK_STR(f->items[1].id, "g4");
		CHECK_STR(f->items[2].id, "g7");
	}
	fr_feed_free(f);
	free(b.p);

	f = parse_str("<rss version=\"2.0\"><channel><title>t</title><link>javascript:alert(0)</link>"
	              "<item><title>a</title><link> JaVa\tScript:alert(1)</link><comments>data:text/html,x</comments>"
	              "<enclosure url=\"vbscript:x\" type=\"a/b\" length=\"1\"/><enclosure url=\"http://x/a.mp3\" type=\"a/b\" length=\"1\"/></item>"
	              "<item><title>b</title><link>http://x/b</link></item></channel></rss>", NULL, err, sizeof(err));
	CHECK(f && f->n_items == 2);
	if (f && f->n_items == 2) {
		CHECK(f->link == NULL);
		CHECK(f->items[0].link == NULL && f->items[0].comments_url == NULL);
		CHECK(f->items[0].refused_link && strstr(f->items[0].refused_link, "alert(1)"));
		CHECK(f->items[0].n_enclosures == 1 && !strcmp(f->items[0].enclosures[0].url, "http://x/a.mp3"));
		CHECK(strncmp(f->items[0].id, "java", 4) != 0);
		CHECK_STR(f->items[1].link, "http://x/b");
		CHECK(f->n_links_refused == 4);
	}
	fr_feed_free(f);
}

/* Start tags with more than 256 attributes keep the first 256 (libxml2's
 * duplicate check is quadratic); "/>" stays, and markup inside CDATA and
 * comments is not touched. */
static void
test_attribute_cap(void)
{
	size_t cap = 4u << 20, n = 0;
	char *buf = malloc(cap);
	struct fr_feed *f = NULL;
	char err[FR_ERRLEN];

	if (!buf)
		return;
	n += (size_t)snprintf(buf + n, cap - n,
	                      "<rss version=\"2.0\" xmlns:content=\"http://purl.org/rss/1.0/modules/content/\">"
	                      "<channel><title>t</title><item><enclosure url=\"http://x/a.mp3\" type=\"audio/mpeg\" ");
	for (unsigned i = 0; i < 300; i++)
		n += (size_t)snprintf(buf + n, cap - n, "a%u='v' ", i);
	n += (size_t)snprintf(buf + n, cap - n, "/><title>after</title><content:encoded><![CDATA[<p ");
	for (unsigned i = 0; i < 300; i++)
		n += (size_t)snprintf(buf + n, cap - n, "b%u=\"v\" ", i);
	n += (size_t)snprintf(buf + n, cap - n, ">x</p>]]></content:encoded></item><item><link ");
	for (unsigned i = 0; i < 100000; i++)
		n += (size_t)snprintf(buf + n, cap - n, "c%u=\"v\" ", i);
	n += (size_t)snprintf(buf + n, cap - n, ">http://x/2</link><title>two</title></item></channel></rss>");
	CHECK(fr_feed_parse(buf, n, NULL, &f, err, sizeof(err)) == 0);
	CHECK(f && f->bozo && f->bozo_exception && strstr(f->bozo_exception, "more than 256 attributes"));
	CHECK(f && f->n_items == 2);
	if (f && f->n_items == 2) {
		CHECK(f->items[0].n_enclosures == 1 && !strcmp(f->items[0].enclosures[0].url, "http://x/a.mp3"));
		CHECK_STR(f->items[0].title, "after");
		/* the CDATA's 300 attributes are content, kept (those the
		 * sanitiser allows: none of b0..b299) */
		CHECK(f->items[0].content && strstr(f->items[0].content, "<p>x</p>"));
		CHECK_STR(f->items[1].link, "http://x/2");
		CHECK_STR(f->items[1].title, "two");
	}
	fr_feed_free(f);
	f = NULL;
	/* 256 exactly: nothing cut, no bozo */
	n = (size_t)snprintf(buf, cap, "<rss version=\"2.0\"><channel><item><title x=\"1\" ");
	for (unsigned i = 1; i < 256; i++)
		n += (size_t)snprintf(buf + n, cap - n, "a%u=\"v\" ", i);
	n += (size_t)snprintf(buf + n, cap - n, ">ok</title></item></channel></rss>");
	CHECK(fr_feed_parse(buf, n, NULL, &f, err, sizeof(err)) == 0);
	CHECK(f && !f->bozo && f->n_items == 1);
	if (f && f->n_items == 1)
		CHECK_STR(f->items[0].title, "ok");
	fr_feed_free(f);
	free(buf);
}

int
main(void)
{
	RUN(test_rss_full);
	RUN(test_versions);
	RUN(test_rdf_and_atom03);
	RUN(test_identity_stable);
	RUN(test_xml_base);
	RUN(test_encodings);
	RUN(test_billion_laughs_and_xxe);
	RUN(test_deep_nesting);
	RUN(test_bozo_and_errors);
	RUN(test_cdata);
	RUN(test_json_feed);
	RUN(test_sniff);
	RUN(test_fetch_and_parse);
	RUN(test_defects_issue24);
	RUN(test_item_cap_and_link_schemes);
	RUN(test_attribute_cap);
	return TEST_DONE();
}
