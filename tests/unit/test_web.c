/* test_web.c - the webs of `freshet serve --sites/--web`: the manifest's URL
 * keys, lines and errors (file:line), every SOURCE kind answered through the
 * handler; the generated web's shapes, truth, determinism, traps and
 * redirects, every feed parsed by the real parser; feedgen's four formats;
 * and the server's any-host mode (Host name, raw query, Location, 304)
 * over a real socket. */
#include "parse/feed.h"
#include "testkit/feedgen.h"
#include "testkit/server.h"
#include "testkit/sites.h"
#include "testkit/text.h"
#include "testkit/web.h"

#include "test.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

static char tmpdir[512];

/* ---- helpers ---- */

static void
write_file(const char *name, const char *text)
{
	char path[1024];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	f = fopen(path, "w");
	if (!f) {
		perror(path);
		exit(1);
	}
	fputs(text, f);
	fclose(f);
}

static char *
tmp_path(const char *name, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s", tmpdir, name);
	return buf;
}

/* Answer of a handler to host + path + query, body copied (NUL-terminated)
 * into body; returns the status (-1 on a handler failure). */
struct got {
	int status;
	char ctype[128], etag[80], location[512];
	char *body;
	size_t len;
	int64_t last_modified_s;
};

static int
ask(int (*handle)(void *, const struct fr_serve_req *, struct fr_serve_resp *), void *ctx,
    const char *host, const char *path, const char *query, struct got *g)
{
	struct fr_serve_req req;
	struct fr_serve_resp resp;

	memset(&req, 0, sizeof(req));
	req.host_name = host;
	req.path = path;
	req.query = query;
	memset(&resp, 0, sizeof(resp));
	resp.last_modified_s = -1;
	memset(g, 0, sizeof(*g));
	if (handle(ctx, &req, &resp) < 0)
		return g->status = -1;
	g->status = resp.status;
	snprintf(g->ctype, sizeof(g->ctype), "%s", resp.content_type ? resp.content_type : "");
	snprintf(g->etag, sizeof(g->etag), "%s", resp.etag);
	snprintf(g->location, sizeof(g->location), "%s", resp.location);
	g->body = malloc(resp.len + 1);
	memcpy(g->body, resp.body, resp.len);
	g->body[resp.len] = '\0';
	g->len = resp.len;
	g->last_modified_s = resp.last_modified_s;
	if (resp.release)
		resp.release(resp.release_cls);
	return g->status;
}

static void
got_free(struct got *g)
{
	free(g->body);
	g->body = NULL;
}

/* Parses body as a feed: returns its item count, -1 if not a feed; sets
 * title (may be NULL) and version. */
static long
feed_items(const struct got *g, char *title, size_t tlen, char *version, size_t vlen)
{
	struct fr_feed *f = NULL;
	char err[256];
	long n;

	if (fr_feed_parse(g->body, g->len, NULL, &f, err, sizeof(err)) < 0)
		return -1;
	snprintf(title, tlen, "%s", f->title ? f->title : "");
	snprintf(version, vlen, "%s", f->version ? f->version : "");
	n = f->bozo ? -2 : (long)f->n_items;
	fr_feed_free(f);
	return n;
}

/* ---- feedgen ---- */

static void
test_feedgen_formats_parse(void)
{
	struct fr_feedgen_item items[2] = {
	    {"id-2", "Second & last", "http://a.test/2", "Two <b>", 1704153600},
	    {"id-1", "First \"one\"", "http://a.test/1", NULL, 1704067200}};
	const char *versions[] = {"rss20", "atom10", "json11", "rss10"};

	for (int f = FR_FEEDGEN_RSS; f <= FR_FEEDGEN_RDF; f++) {
		struct fr_feedgen g = {(enum fr_feedgen_format)f, "T & co", "http://a.test/feed",
		                       "http://a.test/", NULL, items, 2};
		struct fr_text t = {0};
		struct fr_feed *feed = NULL;
		char err[256];
		size_t len;
		char *body;
		enum fr_feedgen_format back;

		fr_feedgen_render(&g, &t);
		body = fr_text_take(&t, &len);
		CHECK(body != NULL);
		CHECK(fr_feed_parse(body, len, NULL, &feed, err, sizeof(err)) == 0);
		if (feed) {
			CHECK_STR(feed->version, versions[f]);
			CHECK(!feed->bozo);
			CHECK_STR(feed->title, "T & co");
			CHECK(feed->n_items == 2);
			if (feed->n_items == 2) {
				CHECK_STR(feed->items[0].title, "Second & last");
				CHECK_STR(feed->items[1].title, "First \"one\"");
				CHECK(feed->items[0].published_s == 1704153600);
				CHECK_STR(feed->items[0].link, "http://a.test/2");
			}
		}
		fr_feed_free(feed);
		free(body);
		CHECK(fr_feedgen_format_parse(fr_feedgen_format_name((enum fr_feedgen_format)f),
		                              strlen(fr_feedgen_format_name(
		                                  (enum fr_feedgen_format)f)),
		                              &back) == 0 &&
		      back == (enum fr_feedgen_format)f);
	}
	{
		enum fr_feedgen_format x;
		CHECK(fr_feedgen_format_parse("xml", 3, &x) < 0);
		CHECK(fr_feedgen_format_parse("rs", 2, &x) < 0);
	}
}

static void
test_text_cap(void)
{
	struct fr_text t = {NULL, 0, 0, 10, 0};
	size_t len = 99;

	fr_text_puts(&t, "0123456789");
	CHECK(!t.bad && t.len == 10);
	fr_text_puts(&t, "x");
	CHECK(t.bad);
	CHECK(fr_text_take(&t, &len) == NULL);
	CHECK(t.bad == 0 && t.len == 0); /* take emptied it */
	fr_text_xml(&t, "<a'");
	CHECK_STR(t.p, "&lt;a&#39;");
	fr_text_xml(&t, "&");
	CHECK(t.bad); /* 15 bytes: over the cap of 10 */
	fr_text_free(&t);
	t.max = 0;
	fr_text_json(&t, "a\"b\\c\n");
	CHECK_STR(t.p, "a\\\"b\\\\c\\u000a");
	fr_text_free(&t);
}

/* ---- the manifest ---- */

static void
test_sites_url_key(void)
{
	char k[256];
	const char *why = NULL;

	CHECK(fr_sites_url_key("http://Example.COM", k, sizeof(k), &why) == 0);
	CHECK_STR(k, "example.com/");
	CHECK(fr_sites_url_key("https://example.com:8443/a%20b/c?x=%41&y#frag", k, sizeof(k),
	                       &why) == 0);
	CHECK_STR(k, "example.com/a b/c?x=%41&y");
	CHECK(fr_sites_url_key("HTTP://www.a.test./p?", k, sizeof(k), &why) == 0);
	CHECK_STR(k, "www.a.test/p");
	CHECK(fr_sites_url_key("http://[::1]:80/x", k, sizeof(k), &why) == 0);
	CHECK_STR(k, "[::1]/x");
	CHECK(fr_sites_url_key("http://a.test/%zz", k, sizeof(k), &why) == 0);
	CHECK_STR(k, "a.test/%zz");
	CHECK(fr_sites_url_key("ftp://a.test/", k, sizeof(k), &why) < 0 && why);
	CHECK(fr_sites_url_key("http:///x", k, sizeof(k), &why) < 0);
	CHECK(fr_sites_url_key("http://u@a.test/", k, sizeof(k), &why) < 0);
	CHECK(fr_sites_url_key("http://a.test:8x/", k, sizeof(k), &why) < 0);
	CHECK(fr_sites_url_key("http://a.test/a b", k, sizeof(k), &why) < 0);
	CHECK(fr_sites_url_key("http://a.test/abcdef", k, 8, &why) < 0);
}

static void
test_sites_every_source(void)
{
	char path[1024], err[512];
	struct fr_sites *w;
	struct got g;
	char title[256], ver[32];

	write_file("page.html", "<html><body>saved</body></html>\n");
	mkdir(tmp_path("sub", path, sizeof(path)), 0700);
	write_file("sub/m.tsv",
	           "# comment line\n"
	           "   # indented comment\n"
	           "\n"
	           "http://Site.test/\ttext/html; charset=utf-8\tfile:../page.html\n"
	           "https://site.test/feed\tapplication/atom+xml\tfeed:atom\n"
	           "http://site.test/f.json\tapplication/feed+json\tfeed:json\n"
	           "http://site.test/f.rdf\tapplication/rdf+xml\tfeed:rdf\n"
	           "http://site.test/f.rss?a=1&b=2\tapplication/rss+xml\tfeed:rss\n"
	           "http://site.test/gone\ttext/plain\tstatus:410\n"
	           "http://site.test/old\ttext/html\tredirect:301:http://site.test/\n"
	           "http://site.test/t\ttext/plain\ttext:a\\tb\\nc\\\\n\tx\r\n");
	w = fr_sites_load(tmp_path("sub/m.tsv", path, sizeof(path)), err, sizeof(err));
	CHECK(w != NULL);
	if (!w) {
		fprintf(stderr, "  %s\n", err);
		return;
	}
	CHECK(fr_sites_count(w) == 8);
	CHECK(ask(fr_sites_handle, w, "site.test", "/", "", &g) == 200);
	CHECK_STR(g.body, "<html><body>saved</body></html>\n");
	CHECK_STR(g.ctype, "text/html; charset=utf-8");
	CHECK(g.etag[0] == '"');
	got_free(&g);
	CHECK(ask(fr_sites_handle, w, "site.test", "/feed", "", &g) == 200);
	CHECK(feed_items(&g, title, sizeof(title), ver, sizeof(ver)) == 3);
	CHECK_STR(title, "Feed at https://site.test/feed");
	CHECK_STR(ver, "atom10");
	got_free(&g);
	CHECK(ask(fr_sites_handle, w, "site.test", "/f.json", "", &g) == 200);
	CHECK(feed_items(&g, title, sizeof(title), ver, sizeof(ver)) == 3);
	CHECK_STR(ver, "json11");
	got_free(&g);
	CHECK(ask(fr_sites_handle, w, "site.test", "/f.rdf", "", &g) == 200);
	CHECK(feed_items(&g, title, sizeof(title), ver, sizeof(ver)) == 3);
	CHECK_STR(ver, "rss10");
	got_free(&g);
	CHECK(ask(fr_sites_handle, w, "site.test", "/f.rss", "a=1&b=2", &g) == 200);
	CHECK(feed_items(&g, title, sizeof(title), ver, sizeof(ver)) == 3);
	CHECK_STR(ver, "rss20");
	CHECK_STR(title, "Feed at http://site.test/f.rss?a=1&b=2");
	got_free(&g);
	/* The query matches exactly, as written. */
	CHECK(ask(fr_sites_handle, w, "site.test", "/f.rss", "b=2&a=1", &g) == 404);
	got_free(&g);
	CHECK(ask(fr_sites_handle, w, "site.test", "/f.rss", "", &g) == 404);
	got_free(&g);
	CHECK(ask(fr_sites_handle, w, "site.test", "/gone", "", &g) == 410);
	CHECK_STR(g.ctype, "text/plain");
	got_free(&g);
	CHECK(ask(fr_sites_handle, w, "site.test", "/old", "", &g) == 301);
	CHECK_STR(g.location, "http://site.test/");
	got_free(&g);
	CHECK(ask(fr_sites_handle, w, "site.test", "/t", "", &g) == 200);
	CHECK_STR(g.body, "a\tb\nc\\n\tx"); /* after the second tab, all is SOURCE */
	got_free(&g);
	CHECK(ask(fr_sites_handle, w, "site.test", "/robots.txt", "", &g) == 404);
	got_free(&g);
	CHECK(ask(fr_sites_handle, w, "other.test", "/", "", &g) == 404);
	got_free(&g);
	fr_sites_free(w);
}

/* Loads a one-file manifest; returns 1 when it fails with err containing
 * want. */
static int
load_fails(const char *text, const char *want)
{
	char path[1024], err[512] = "";
	struct fr_sites *w;

	write_file("bad.tsv", text);
	w = fr_sites_load(tmp_path("bad.tsv", path, sizeof(path)), err, sizeof(err));
	if (w) {
		fr_sites_free(w);
		fprintf(stderr, "  loaded, want an error with '%s'\n", want);
		return 0;
	}
	if (!strstr(err, want)) {
		fprintf(stderr, "  error '%s' lacks '%s'\n", err, want);
		return 0;
	}
	return 1;
}

static void
test_sites_bad_lines(void)
{
	char want[1100];

	snprintf(want, sizeof(want), "%s/bad.tsv:3: wants URL<TAB>TYPE<TAB>SOURCE", tmpdir);
	CHECK(load_fails("# c\nhttp://a.test/\ttext/plain\ttext:x\nhttp://a.test/b text/plain\n",
	                 want));
	CHECK(load_fails("http://a.test/\ttext/plain\n", "bad.tsv:1: wants URL<TAB>TYPE<TAB>SOURCE (one tab)"));
	CHECK(load_fails("mailto:x@a.test\ttext/plain\ttext:x\n", "bad.tsv:1: URL 'mailto:x@a.test' is not"));
	CHECK(load_fails("http://a.test/\tplain\ttext:x\n", "bad.tsv:1: TYPE 'plain'"));
	CHECK(load_fails("http://a.test/\ttext/plain\tfeed:atom10\n", "bad.tsv:1: feed:atom10"));
	CHECK(load_fails("http://a.test/\ttext/plain\tstatus:302\n", "bad.tsv:1: status:302"));
	CHECK(load_fails("http://a.test/\ttext/plain\tstatus:4040\n", "bad.tsv:1: status:4040"));
	CHECK(load_fails("http://a.test/\ttext/plain\tredirect:301\n", "bad.tsv:1: redirect:301"));
	CHECK(load_fails("http://a.test/\ttext/plain\tredirect:305:/x\n", "bad.tsv:1: redirect:305"));
	CHECK(load_fails("http://a.test/\ttext/plain\tredirect:301:\n", "bad.tsv:1: redirect: TARGET"));
	CHECK(load_fails("http://a.test/\ttext/plain\tfile:missing.html\n",
	                 "bad.tsv:1: file:missing.html: cannot read"));
	CHECK(load_fails("http://a.test/\ttext/plain\tfile:\n", "bad.tsv:1: file: wants a path"));
	CHECK(load_fails("http://a.test/\ttext/plain\tnothing\n", "bad.tsv:1: SOURCE 'nothing'"));
	CHECK(load_fails("http://a.test/x\ttext/plain\ttext:1\n\nhttps://A.TEST:443/x\ttext/plain\ttext:2\n",
	                 "bad.tsv:3: URL 'https://A.TEST:443/x' is already listed on line 1"));
	CHECK(load_fails("# nothing\n\n", "bad.tsv: lists no URL"));
	{
		char err[512] = "";
		CHECK(fr_sites_load("/nonexistent/m.tsv", err, sizeof(err)) == NULL);
		CHECK(strstr(err, "/nonexistent/m.tsv") != NULL);
	}
}

/* ---- the generated web ---- */

static void
test_web_truth(void)
{
	char urls[FR_WEB_MAX_SITE_FEEDS][FR_WEB_URL_MAX], site[FR_WEB_URL_MAX];

	CHECK(fr_web_site_feeds(0, urls) == 1);
	CHECK_STR(urls[0], "http://www.site0.test/feed/");
	CHECK(fr_web_site_feeds(11, urls) == 2);
	CHECK_STR(urls[0], "http://www.site11.test/atom.xml");
	CHECK_STR(urls[1], "http://www.site11.test/comments/feed/");
	CHECK(fr_web_site_feeds(15, urls) == 1);
	CHECK_STR(urls[0], "http://feeds.cdn15.test/site15/main.xml");
	CHECK(fr_web_site_feeds(8, urls) == 0);
	CHECK(fr_web_site_feeds(1008, urls) == 0);
	CHECK_STR(fr_web_site_url(3, site, sizeof(site)), "http://site3.test/");
	CHECK_STR(fr_web_site_url(10, site, sizeof(site)), "http://site10.test/");
	CHECK_STR(fr_web_site_url(4, site, sizeof(site)), "http://www.site4.test/");
	{
		struct fr_web_config c = {0, 1};
		char err[256];
		CHECK(fr_web_new(&c, err, sizeof(err)) == NULL);
	}
}

/* Every expected feed of every site of a web of 40 is served, parses with
 * 5 items and the right title and format, and no site has other feeds at
 * the well-known paths. */
static void
test_web_every_feed(void)
{
	struct fr_web_config c = {40, 7};
	char err[256];
	struct fr_web *w = fr_web_new(&c, err, sizeof(err));
	const char *wellknown[] = {"/feed", "/rss", "/atom.xml", "/index.xml", "/feed.xml",
	                           "/rss.xml", "/feed/", "/atom", "/rss/", "/feeds/"};

	CHECK(w != NULL);
	if (!w)
		return;
	for (uint32_t k = 0; k < 40; k++) {
		char urls[FR_WEB_MAX_SITE_FEEDS][FR_WEB_URL_MAX];
		size_t n = fr_web_site_feeds(k, urls);

		for (size_t i = 0; i < n; i++) {
			char host[128], title[256], ver[32];
			const char *h = urls[i] + 7, *p = strchr(h, '/');
			struct got g;

			snprintf(host, sizeof(host), "%.*s", (int)(p - h), h);
			CHECK(ask(fr_web_handle, w, host, p, "", &g) == 200);
			CHECK(feed_items(&g, title, sizeof(title), ver, sizeof(ver)) == 5);
			CHECK(!strncmp(title, "site", 4) && strstr(title, " feed "));
			CHECK(g.last_modified_s > 1704067200);
			if (k % 10 == 6)
				CHECK_STR(ver, "json11");
			if (k % 10 == 2)
				CHECK_STR(ver, (k / 10) % 2 ? "rss10" : "rss20");
			if (k % 10 == 3)
				CHECK_STR(g.ctype, "text/xml; charset=utf-8");
			got_free(&g);
		}
		/* Probing finds only what the truth says. */
		for (size_t j = 0; j < sizeof(wellknown) / sizeof(wellknown[0]); j++) {
			char host[64], url[FR_WEB_URL_MAX], title[256], ver[32];
			struct got g;
			int listed = 0;

			snprintf(host, sizeof(host), "www.site%u.test", (unsigned)k);
			snprintf(url, sizeof(url), "http://%s%s", host, wellknown[j]);
			for (size_t i = 0; i < n; i++)
				listed |= !strcmp(urls[i], url);
			ask(fr_web_handle, w, host, wellknown[j], "", &g);
			if (!listed)
				CHECK(g.status == 404 ||
				      feed_items(&g, title, sizeof(title), ver, sizeof(ver)) == -1);
			got_free(&g);
		}
	}
	fr_web_free(w);
}

static int
has(const struct got *g, const char *s)
{
	return g->body && strstr(g->body, s) != NULL;
}

static void
test_web_shapes(void)
{
	struct fr_web_config c = {20, 1};
	char err[256], title[256], ver[32];
	struct fr_web *w = fr_web_new(&c, err, sizeof(err));
	struct got g, g2;

	CHECK(w != NULL);
	if (!w)
		return;
	/* Common: robots.txt, posts, the private feed, the external link. */
	CHECK(ask(fr_web_handle, w, "www.site4.test", "/robots.txt", "", &g) == 200);
	CHECK(has(&g, "Disallow: /private/"));
	got_free(&g);
	CHECK(ask(fr_web_handle, w, "www.site4.test", "/", "", &g) == 200);
	CHECK(has(&g, "<!DOCTYPE html>") && has(&g, "href=\"/private/feed.xml\""));
	CHECK(!has(&g, "rel=\"alternate\"") && !has(&g, "REL="));
	CHECK(has(&g, "href=\"/post/1.html\"") && has(&g, "href=\"/post/5.html\""));
	got_free(&g);
	CHECK(ask(fr_web_handle, w, "www.site19.test", "/post/3.html", "", &g) == 200);
	CHECK(has(&g, "href=\"http://www.site0.test/\"")); /* k + 1 mod N */
	got_free(&g);
	CHECK(ask(fr_web_handle, w, "www.site4.test", "/post/6.html", "", &g) == 404);
	got_free(&g);
	CHECK(ask(fr_web_handle, w, "www.site4.test", "/post/1.html", "x=1", &g) == 404);
	got_free(&g);
	CHECK(ask(fr_web_handle, w, "www.site8.test", "/private/feed.xml", "", &g) == 200);
	CHECK(feed_items(&g, title, sizeof(title), ver, sizeof(ver)) == 5);
	CHECK_STR(title, "site8 feed private");
	got_free(&g);
	/* 0..9 */
	CHECK(ask(fr_web_handle, w, "www.site0.test", "/", "", &g) == 200);
	CHECK(has(&g, "<link rel=\"alternate\" type=\"application/rss+xml\" title=\"site0 "
	              "feed\" href=\"/feed/\">"));
	got_free(&g);
	CHECK(ask(fr_web_handle, w, "www.site1.test", "/", "", &g) == 200);
	CHECK(has(&g, "href=\"atom.xml\""));
	CHECK(has(&g, "REL=\"ALTERNATE\" TYPE=\"APPLICATION/RSS+XML\""));
	CHECK(has(&g, "HREF=\"http://www.site1.test/comments/feed/\""));
	got_free(&g);
	CHECK(ask(fr_web_handle, w, "www.site2.test", "/", "", &g) == 200);
	CHECK(strstr(g.body, "href=\"//www.site2.test/rss\"") > strstr(g.body, "<body>"));
	got_free(&g);
	CHECK(ask(fr_web_handle, w, "www.site12.test", "/", "", &g) == 200);
	CHECK(has(&g, "type=\"application/rdf+xml\""));
	got_free(&g);
	CHECK(ask(fr_web_handle, w, "www.site3.test", "/", "", &g) == 200);
	CHECK(has(&g, "<a href=\"/blog/rss.xml\">RSS</a>") &&
	      has(&g, "<a href=\"/rss-help.html\">About RSS</a>"));
	CHECK(strstr(g.body, "/blog/rss.xml") > strstr(g.body, "<footer>"));
	got_free(&g);
	CHECK(ask(fr_web_handle, w, "www.site3.test", "/rss-help.html", "", &g) == 200);
	CHECK_STR(g.ctype, "text/html; charset=utf-8");
	got_free(&g);
	CHECK(ask(fr_web_handle, w, "www.site5.test", "/", "", &g) == 200);
	CHECK(has(&g, "href=\"http://feeds.cdn5.test/site5/main.xml\""));
	got_free(&g);
	CHECK(ask(fr_web_handle, w, "feeds.cdn5.test", "/", "", &g) == 200);
	CHECK(has(&g, "/other/feed.xml"));
	got_free(&g);
	CHECK(ask(fr_web_handle, w, "feeds.cdn5.test", "/other/feed.xml", "", &g) == 200);
	CHECK(feed_items(&g, title, sizeof(title), ver, sizeof(ver)) == 5);
	got_free(&g);
	CHECK(ask(fr_web_handle, w, "feeds.cdn5.test", "/robots.txt", "", &g) == 404);
	got_free(&g);
	CHECK(ask(fr_web_handle, w, "feeds.cdn6.test", "/", "", &g) == 404);
	got_free(&g);
	CHECK(ask(fr_web_handle, w, "www.site6.test", "/", "", &g) == 200);
	CHECK(has(&g, "type=\"application/feed+json\" title=\"site6 feed\" href=\"/feed.json\""));
	CHECK(has(&g, "<link rel=\"alternate\" type=\"application/json\" "
	              "href=\"/wp-json/wp/v2/posts/1\">"));
	CHECK(has(&g, "application/json+oembed"));
	got_free(&g);
	CHECK(ask(fr_web_handle, w, "www.site6.test", "/wp-json/wp/v2/posts/1", "", &g) == 200);
	CHECK(feed_items(&g, title, sizeof(title), ver, sizeof(ver)) == -1);
	CHECK(!strncmp(g.ctype, "application/json", 16) && g.body[0] == '{');
	got_free(&g);
	CHECK(ask(fr_web_handle, w, "www.site6.test", "/wp-json/oembed/1.0/embed",
	          "url=http%3A%2F%2Fwww.site6.test%2F", &g) == 200);
	CHECK(feed_items(&g, title, sizeof(title), ver, sizeof(ver)) == -1);
	got_free(&g);
	CHECK(ask(fr_web_handle, w, "www.site7.test", "/", "", &g) == 200);
	CHECK(has(&g, "href=\"/blog/\"") && !has(&g, "rel=\"alternate\""));
	got_free(&g);
	CHECK(ask(fr_web_handle, w, "www.site7.test", "/blog/", "", &g) == 200);
	CHECK(has(&g, "<base href=\"/blog/\">") && has(&g, "href=\"feed.xml\""));
	got_free(&g);
	CHECK(ask(fr_web_handle, w, "www.site7.test", "/feed.xml", "", &g) == 404);
	got_free(&g);
	CHECK(ask(fr_web_handle, w, "www.site8.test", "/", "", &g) == 200);
	CHECK(has(&g, "href=\"/feeds/\"") && !has(&g, "rel=\"alternate\""));
	got_free(&g);
	CHECK(ask(fr_web_handle, w, "www.site8.test", "/feeds/", "", &g) == 200);
	CHECK(feed_items(&g, title, sizeof(title), ver, sizeof(ver)) == -1);
	got_free(&g);
	CHECK(ask(fr_web_handle, w, "www.site8.test", "/", "feed=rss2", &g) == 404);
	got_free(&g);
	/* 9: traps. */
	CHECK(ask(fr_web_handle, w, "www.site9.test", "/", "", &g) == 200);
	CHECK(ask(fr_web_handle, w, "www.site9.test", "/", "", &g2) == 200);
	CHECK(has(&g, "href=\"/index.xml\"") && has(&g, "?PHPSESSID=") &&
	      has(&g, ";jsessionid=") && has(&g, "/calendar?y=2024&amp;m=01") &&
	      has(&g, "href=\"/a/\""));
	CHECK(strcmp(g.body, g2.body) != 0); /* fresh session ids every time */
	CHECK(strcmp(g.etag, g2.etag) != 0);
	got_free(&g);
	got_free(&g2);
	CHECK(ask(fr_web_handle, w, "www.site9.test", "/post/2.html;jsessionid=0123ABC", "", &g) ==
	      200);
	got_free(&g);
	CHECK(ask(fr_web_handle, w, "www.site9.test", "/post/3.html", "PHPSESSID=abc", &g) == 200);
	got_free(&g);
	CHECK(ask(fr_web_handle, w, "www.site9.test", "/calendar", "y=2024&m=12", &g) == 200);
	CHECK(has(&g, "/calendar?y=2025&amp;m=01") && has(&g, "/calendar?y=2024&amp;m=11"));
	got_free(&g);
	CHECK(ask(fr_web_handle, w, "www.site9.test", "/calendar", "y=987654&m=01", &g) == 200);
	CHECK(has(&g, "/calendar?y=987653&amp;m=12") && has(&g, "/calendar?y=987654&amp;m=02"));
	got_free(&g);
	CHECK(ask(fr_web_handle, w, "www.site9.test", "/calendar", "y=2024&m=13", &g) == 404);
	got_free(&g);
	CHECK(ask(fr_web_handle, w, "www.site9.test", "/calendar", "m=01&y=2024", &g) == 404);
	got_free(&g);
	CHECK(ask(fr_web_handle, w, "www.site19.test", "/calendar", "y=2024&m=01", &g) == 200);
	got_free(&g);
	CHECK(ask(fr_web_handle, w, "www.site8.test", "/calendar", "y=2024&m=01", &g) == 404);
	got_free(&g);
	CHECK(ask(fr_web_handle, w, "www.site9.test", "/a/a/a/", "", &g) == 200);
	CHECK(has(&g, "href=\"/a/a/a/a/\""));
	got_free(&g);
	CHECK(ask(fr_web_handle, w, "www.site9.test", "/a/b/", "", &g) == 404);
	got_free(&g);
	/* Bare domains: k % 7 == 3 redirect; others are unknown. */
	CHECK(ask(fr_web_handle, w, "site3.test", "/", "", &g) == 301);
	CHECK_STR(g.location, "http://www.site3.test/");
	got_free(&g);
	CHECK(ask(fr_web_handle, w, "site10.test", "/a b", "x=1", &g) == 301);
	CHECK_STR(g.location, "http://www.site10.test/a%20b?x=1");
	got_free(&g);
	CHECK(ask(fr_web_handle, w, "site17.test", "/robots.txt", "", &g) == 200);
	got_free(&g);
	CHECK(ask(fr_web_handle, w, "site4.test", "/", "", &g) == 404);
	got_free(&g);
	CHECK(ask(fr_web_handle, w, "www.site20.test", "/", "", &g) == 404);
	got_free(&g);
	CHECK(ask(fr_web_handle, w, "www.site01.test", "/", "", &g) == 404);
	got_free(&g);
	CHECK(ask(fr_web_handle, w, "www.site1.test.evil", "/", "", &g) == 404);
	got_free(&g);
	fr_web_free(w);
}

static void
test_web_deterministic(void)
{
	struct fr_web_config c1 = {30, 42}, c2 = {30, 43};
	char err[256];
	struct fr_web *a = fr_web_new(&c1, err, sizeof(err)), *b = fr_web_new(&c1, err, sizeof(err)),
	              *d = fr_web_new(&c2, err, sizeof(err));
	struct got ga, gb, gd;

	CHECK(a && b && d);
	if (!a || !b || !d)
		return;
	ask(fr_web_handle, a, "www.site21.test", "/post/4.html", "", &ga);
	ask(fr_web_handle, b, "www.site21.test", "/post/4.html", "", &gb);
	ask(fr_web_handle, d, "www.site21.test", "/post/4.html", "", &gd);
	CHECK(ga.status == 200 && !strcmp(ga.body, gb.body) && !strcmp(ga.etag, gb.etag));
	CHECK(strcmp(ga.body, gd.body) != 0);
	got_free(&ga);
	got_free(&gb);
	got_free(&gd);
	ask(fr_web_handle, a, "www.site20.test", "/feed/", "", &ga);
	ask(fr_web_handle, b, "www.site20.test", "/feed/", "", &gb);
	CHECK(ga.status == 200 && !strcmp(ga.body, gb.body));
	got_free(&ga);
	got_free(&gb);
	fr_web_free(a);
	fr_web_free(b);
	fr_web_free(d);
}

static void
test_web_truth_file(void)
{
	struct fr_web_config c = {12, 1};
	char err[256], path[1024], line[512];
	struct fr_web *w = fr_web_new(&c, err, sizeof(err));
	FILE *f;
	int n = 0, empty = 0;

	CHECK(w != NULL);
	if (!w)
		return;
	f = fopen(tmp_path("truth.tsv", path, sizeof(path)), "w+");
	CHECK(f && fr_web_write_truth(w, f, path, err, sizeof(err)) == 0);
	rewind(f);
	CHECK(fgets(line, sizeof(line), f) && !strcmp(line, "site_url\tfeed_url\n"));
	while (fgets(line, sizeof(line), f)) {
		n++;
		empty += strstr(line, "\t\n") != NULL;
	}
	fclose(f);
	CHECK(n == 14); /* 12 sites, two with two feeds (1, 11) */
	CHECK(empty == 1); /* site 8 */
	f = fopen(tmp_path("sites.txt", path, sizeof(path)), "w+");
	CHECK(f && fr_web_write_sites(w, f, path, err, sizeof(err)) == 0);
	rewind(f);
	n = 0;
	while (fgets(line, sizeof(line), f)) {
		if (n == 3)
			CHECK_STR(line, "http://site3.test/\n");
		if (n == 11)
			CHECK_STR(line, "http://www.site11.test/\n");
		n++;
	}
	CHECK(n == 12);
	fclose(f);
	fr_web_free(w);
}

/* ---- the server's any-host mode, over a socket ---- */

static int
echo_handle(void *ctx, const struct fr_serve_req *req, struct fr_serve_resp *resp)
{
	char *body = malloc(1024);

	(void)ctx;
	if (!body)
		return -1;
	snprintf(body, 1024, "host=%s path=%s query=%s flags=%u", req->host_name, req->path,
	         req->query, req->host_flags);
	resp->status = 200;
	resp->content_type = "text/plain";
	resp->body = body;
	resp->len = strlen(body);
	resp->release = free;
	resp->release_cls = body;
	snprintf(resp->etag, sizeof(resp->etag), "\"e1\"");
	if (!strcmp(req->path, "/moved")) {
		resp->status = 302;
		snprintf(resp->location, sizeof(resp->location), "http://elsewhere.test/x");
	}
	return 0;
}

/* Sends request (raw bytes) to 127.0.0.1:port and reads the answer whole
 * into buf. */
static void
http_raw(uint16_t port, const char *request, char *buf, size_t len)
{
	struct sockaddr_in sa;
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	size_t n = 0;
	ssize_t r;

	buf[0] = '\0';
	memset(&sa, 0, sizeof(sa));
	sa.sin_family = AF_INET;
	sa.sin_port = htons(port);
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0) {
		if (fd >= 0)
			close(fd);
		return;
	}
	if (write(fd, request, strlen(request)) != (ssize_t)strlen(request)) {
		close(fd);
		return;
	}
	while (n + 1 < len && (r = read(fd, buf + n, len - 1 - n)) > 0)
		n += (size_t)r;
	buf[n] = '\0';
	close(fd);
}

static void
test_server_any_host(void)
{
	struct fr_serve_config sc;
	struct fr_serve *s;
	struct fr_serve_stats st;
	char err[256], buf[4096];
	FILE *log = tmpfile();
	uint16_t port;

	fr_serve_config_defaults(&sc);
	sc.any_host = 1;
	sc.handler.handle = echo_handle;
	sc.log = log;
	s = fr_serve_start(&sc, err, sizeof(err));
	CHECK(s != NULL);
	if (!s) {
		fprintf(stderr, "  %s\n", err);
		return;
	}
	port = fr_serve_port(s);
	http_raw(port,
	         "GET /a%20b;jsessionid=X?y=%41&m=01&&z HTTP/1.1\r\nHost: WWW.Example.TEST.:8080\r\n"
	         "Connection: close\r\n\r\n",
	         buf, sizeof(buf));
	CHECK(strstr(buf, "HTTP/1.1 200") == buf);
	CHECK(strstr(buf, "host=www.example.test path=/a b;jsessionid=X query=y=%41&m=01&&z "
	                  "flags=0") != NULL);
	http_raw(port, "GET /plain HTTP/1.1\r\nHost: other.test\r\nConnection: close\r\n\r\n", buf,
	         sizeof(buf));
	CHECK(strstr(buf, "host=other.test path=/plain query= ") != NULL);
	/* robots.txt is the handler's too. */
	http_raw(port, "GET /robots.txt HTTP/1.1\r\nHost: a.test\r\nConnection: close\r\n\r\n",
	         buf, sizeof(buf));
	CHECK(strstr(buf, "path=/robots.txt") != NULL);
	http_raw(port, "GET /moved HTTP/1.1\r\nHost: a.test\r\nConnection: close\r\n\r\n", buf,
	         sizeof(buf));
	CHECK(strstr(buf, "HTTP/1.1 302") == buf);
	CHECK(strstr(buf, "\r\nLocation: http://elsewhere.test/x\r\n") != NULL);
	http_raw(port,
	         "GET /x HTTP/1.1\r\nHost: a.test\r\nIf-None-Match: \"e1\"\r\n"
	         "Connection: close\r\n\r\n",
	         buf, sizeof(buf));
	CHECK(strstr(buf, "HTTP/1.1 304") == buf);
	http_raw(port, "HEAD /x?q=1 HTTP/1.1\r\nHost: a.test\r\nConnection: close\r\n\r\n", buf,
	         sizeof(buf));
	CHECK(strstr(buf, "HTTP/1.1 200") == buf && !strstr(buf, "host="));
	/* Keep-alive: two requests on one connection, each with its query. */
	http_raw(port,
	         "GET /1?a=1 HTTP/1.1\r\nHost: a.test\r\n\r\n"
	         "GET /2 HTTP/1.1\r\nHost: b.test\r\nConnection: close\r\n\r\n",
	         buf, sizeof(buf));
	CHECK(strstr(buf, "host=a.test path=/1 query=a=1 ") != NULL);
	CHECK(strstr(buf, "host=b.test path=/2 query= ") != NULL);
	fr_serve_get_stats(s, &st);
	CHECK(st.requests == 8 && st.not_modified == 1 && st.redirect == 1 && st.ok == 6);
	fr_serve_stop(s);
	{
		int lines = 0, query_shown = 0;

		rewind(log);
		while (fgets(buf, sizeof(buf), log)) {
			lines++;
			query_shown += strstr(buf, "\twww.example.test.\tGET\t/a b;jsessionid=X?y=%41&m=01&&z\t200\t") != NULL;
		}
		CHECK(lines == 9);
		CHECK(query_shown == 1);
	}
	fclose(log);
}

int
main(void)
{
	const char *base = getenv("TMPDIR");

	snprintf(tmpdir, sizeof(tmpdir), "%s/test_web_XXXXXX", base && *base ? base : "/tmp");
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	RUN(test_feedgen_formats_parse);
	RUN(test_text_cap);
	RUN(test_sites_url_key);
	RUN(test_sites_every_source);
	RUN(test_sites_bad_lines);
	RUN(test_web_truth);
	RUN(test_web_every_feed);
	RUN(test_web_shapes);
	RUN(test_web_deterministic);
	RUN(test_web_truth_file);
	RUN(test_server_any_host);
	{
		char cmd[600];
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
		if (system(cmd) != 0)
			fprintf(stderr, "could not remove %s\n", tmpdir);
	}
	return TEST_DONE();
}
