/* test_api_map.c - JSON API responses through the presets and custom specs
 * (lib/api/map.h): real-shaped bodies of the Graph API, Mastodon, Reddit
 * and JSON:API (tests/data/api/, written from the APIs' documented
 * examples) give the expected items, times, links and next pages; links
 * other than http(s) are refused; HTML text is sanitised; bad responses
 * fail with a named error. */
#include "api/map.h"
#include "api/spec.h"
#include "core/err.h"

#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DATA FR_TEST_DATA "/api/"

static struct fr_api_spec *
spec(const char *text)
{
	struct fr_api_spec *s = NULL;
	char err[FR_ERRLEN];

	if (fr_api_spec_parse(text, strlen(text), &s, err, sizeof(err)) != 0) {
		fprintf(stderr, "spec '%s': %s\n", text, err);
		exit(1);
	}
	return s;
}

/* Maps the file with the spec; 0 or -1 as fr_api_map. */
static int
map_file(const char *spec_text, const char *file, const struct fr_api_map_opts *o,
         struct fr_api_page *pg, char *err)
{
	struct fr_api_spec *s = spec(spec_text);
	char path[512];
	size_t len;
	char *body;
	int rc = -1;

	snprintf(path, sizeof(path), "%s%s", DATA, file);
	body = test_slurp(path, &len);
	if (body)
		rc = fr_api_map(s, body, len, o, pg, err, FR_ERRLEN);
	else
		snprintf(err, FR_ERRLEN, "cannot read %s", file);
	free(body);
	fr_api_spec_free(s);
	return rc;
}

static int
map_text(const char *spec_text, const char *body, const struct fr_api_map_opts *o,
         struct fr_api_page *pg, char *err)
{
	struct fr_api_spec *s = spec(spec_text);
	int rc = fr_api_map(s, body, strlen(body), o, pg, err, FR_ERRLEN);

	fr_api_spec_free(s);
	return rc;
}

static void
test_graph_posts(void)
{
	struct fr_api_map_opts o = {.url =
	                                "https://graph.facebook.com/v19.0/104526031279046/posts"};
	struct fr_api_page pg;
	char err[FR_ERRLEN];
	const struct fr_feed_item *it;

	CHECK(map_file("graph", "graph_posts.json", &o, &pg, err) == 0);
	if (!pg.feed)
		return;
	CHECK_STR(pg.feed->version, "api:graph");
	CHECK(pg.n_entries == 3 && pg.n_skipped == 0 && pg.feed->n_items == 3);
	it = &pg.feed->items[0];
	CHECK_STR(it->id, "104526031279046_720425116802130");
	CHECK(it->published_s == 1704164645); /* 2024-01-02T03:04:05+0000 */
	CHECK_STR(it->link, "https://www.facebook.com/104526031279046/posts/720425116802130");
	CHECK_STR(it->author, "Example Page");
	CHECK_STR(it->content,
	          "Happy new year from all of us! \xE2\x9C\xA8 Read more: https://example.com/ny");
	CHECK(it->title == NULL);
	it = &pg.feed->items[1];
	CHECK(it->published_s == 1704133800);
	CHECK_STR(it->content, "Example Page updated their cover photo."); /* story, no message */
	CHECK_STR(it->link,
	          "https://www.facebook.com/photo.php?fbid=720011093510199&set=a.1&type=3");
	it = &pg.feed->items[2];
	CHECK(it->published_s == 1704063599); /* +0100 */
	CHECK(it->link == NULL);
	CHECK_STR(it->refused_link, "javascript:alert(1)");
	CHECK(pg.feed->n_links_refused == 1);
	/* plain text stays as written: no markup is made of it */
	CHECK_STR(it->content, "Tags <b>are</b> text here & stay as written");
	CHECK(it->author == NULL);
	CHECK(!strncmp(pg.next_url ? pg.next_url : "",
	               "https://graph.facebook.com/v19.0/104526031279046/posts?access_token=", 68));
	CHECK_STR(pg.cursor, "QVFIUmx4TlNfV3lSRkVp");
	fr_api_page_free(&pg);
	CHECK(pg.feed == NULL && pg.next_url == NULL);
}

static void
test_mastodon_statuses(void)
{
	struct fr_api_map_opts o = {.url =
	                                "https://example.social/api/v1/timelines/tag/cats?limit=2"};
	struct fr_api_page pg;
	char err[FR_ERRLEN];
	const struct fr_feed_item *it;

	/* no Link header: the next page is max_id = the last id */
	CHECK(map_file("mastodon", "mastodon_statuses.json", &o, &pg, err) == 0);
	if (!pg.feed)
		return;
	CHECK(pg.feed->n_items == 2);
	it = &pg.feed->items[0];
	CHECK_STR(it->id, "103270115826048975");
	CHECK(it->published_s == 1575776913); /* 2019-12-08T03:48:33.901Z */
	CHECK(it->updated_s == FR_DATE_NONE); /* edited_at null */
	CHECK_STR(it->link, "https://mastodon.social/@Gargron/103270115826048975");
	CHECK_STR(it->author, "Gargron");
	CHECK(it->title == NULL); /* spoiler_text "" */
	CHECK(it->content && strstr(it->content, "I lost my inheritance") &&
	      strstr(it->content, "href=\"https://www.theguardian.com/money/2019/dec/07/"));
	it = &pg.feed->items[1];
	CHECK_STR(
	    it->link,
	    "https://example.social/users/alice/statuses/103270000000000001"); /* url null: uri */
	CHECK_STR(it->title, "cats");
	CHECK(it->published_s == 1575776400 && it->updated_s == 1575776700);
	CHECK_STR(it->author, "alice@example.social");
	/* sanitised like a feed's content: no script, no event handler; the
	 * relative link resolved against the request URL */
	CHECK(it->content && !strstr(it->content, "script") && !strstr(it->content, "onerror") &&
	      !strstr(it->content, "alert(1)"));
	CHECK(it->content && strstr(it->content, "href=\"https://example.social/tags/cats\""));
	CHECK_STR(pg.cursor, "103270000000000001");
	CHECK_STR(
	    pg.next_url,
	    "https://example.social/api/v1/timelines/tag/cats?limit=2&max_id=103270000000000001");
	fr_api_page_free(&pg);

	/* with the Link header, its rel="next" wins */
	o.link_header =
	    "<https://example.social/api/v1/timelines/tag/cats?max_id=103270000000000001>; "
	    "rel=\"next\", "
	    "<https://example.social/api/v1/timelines/tag/cats?min_id=103270115826048975>; "
	    "rel=\"prev\"";
	CHECK(map_file("mastodon", "mastodon_statuses.json", &o, &pg, err) == 0);
	CHECK_STR(pg.next_url,
	          "https://example.social/api/v1/timelines/tag/cats?max_id=103270000000000001");
	fr_api_page_free(&pg);

	/* an empty page has no next one */
	CHECK(map_text("mastodon", "[]", &o, &pg, err) == 0);
	CHECK(pg.feed && pg.feed->n_items == 0 && pg.n_entries == 0 && pg.next_url == NULL);
	fr_api_page_free(&pg);
}

static void
test_reddit_listing(void)
{
	/* the OAuth host: links still go to www.reddit.com (link_base) */
	struct fr_api_map_opts o = {.url =
	                                "https://oauth.reddit.com/r/programming/new.json?limit=2"};
	struct fr_api_page pg;
	char err[FR_ERRLEN];
	const struct fr_feed_item *it;

	CHECK(map_file("reddit", "reddit_new.json", &o, &pg, err) == 0);
	if (!pg.feed)
		return;
	CHECK(pg.feed->n_items == 2);
	it = &pg.feed->items[0];
	CHECK_STR(it->id, "t3_18wfxyz");
	CHECK_STR(it->title, "Rust & C: a comparison of <unsafe> code"); /* entities decoded once */
	CHECK_STR(it->link, "https://www.reddit.com/r/programming/comments/18wfxyz/"
	                    "rust_c_a_comparison_of_unsafe_code/");
	CHECK(it->published_s == 1704164645);
	CHECK_STR(it->author, "someone");
	CHECK(it->content == NULL); /* selftext "" */
	it = &pg.feed->items[1];
	CHECK(it->published_s == 1704160000); /* 1704160000.5: fractions dropped */
	CHECK_STR(it->content, "I wrote a small crawler & it works.\n\nAsk me anything.");
	CHECK_STR(pg.cursor, "t3_18wfe9y");
	CHECK_STR(pg.next_url,
	          "https://oauth.reddit.com/r/programming/new.json?limit=2&after=t3_18wfe9y");
	fr_api_page_free(&pg);

	/* the last page: after is null, no next page */
	CHECK(map_text("reddit",
	               "{\"kind\":\"Listing\",\"data\":{\"after\":null,\"children\":[{\"kind\":"
	               "\"t3\",\"data\":"
	               "{\"name\":\"t3_a\",\"title\":\"x\",\"created_utc\":1704160000}}]}}",
	               &o, &pg, err) == 0);
	CHECK(pg.feed && pg.feed->n_items == 1 && pg.next_url == NULL && pg.cursor == NULL);
	fr_api_page_free(&pg);
}

static void
test_jsonapi(void)
{
	struct fr_api_map_opts o = {.url = "http://example.com/articles"};
	struct fr_api_page pg;
	char err[FR_ERRLEN];

	CHECK(map_file("jsonapi", "jsonapi_articles.json", &o, &pg, err) == 0);
	if (!pg.feed)
		return;
	CHECK(pg.feed->n_items == 2);
	CHECK_STR(pg.feed->items[0].id, "1");
	CHECK_STR(pg.feed->items[0].title, "JSON:API paints my bikeshed!");
	CHECK(pg.feed->items[0].published_s == 1432306589);
	CHECK_STR(pg.feed->items[0].link, "http://example.com/articles/1");
	CHECK_STR(pg.feed->items[0].content, "<p>The shortest article. Ever.</p>");
	/* a link object's href, resolved */
	CHECK_STR(pg.feed->items[1].link, "http://example.com/articles/2");
	CHECK(pg.feed->items[1].published_s == FR_DATE_NONE);
	CHECK(pg.next_url && !strncmp(pg.next_url, "http://example.com/articles?page", 32));
	fr_api_page_free(&pg);
}

/* Custom specs: JSON Pointers with escapes, times in every form, ids as
 * numbers, the identity fallbacks of the feed parser. */
static void
test_custom_times_and_ids(void)
{
	static const char body[] = "{\"a/b\": {\"m~n\": ["
	                           "{\"k\": 1, \"t\": 1704164645},"
	                           "{\"k\": 2, \"t\": 1704164645123},"
	                           "{\"k\": 3, \"t\": \"1704164645\"},"
	                           "{\"k\": 4, \"t\": \"2024-01-02T03:04:05Z\"},"
	                           "{\"k\": 5, \"t\": \"2024-01-02T04:04:05+01:00\"},"
	                           "{\"k\": 6, \"t\": \"yesterday\"},"
	                           "{\"k\": 7, \"t\": 1e300},"
	                           "{\"k\": 8, \"t\": true},"
	                           "{\"u\": \"https://e.org/p/9\"},"
	                           "{\"x\": \"no id, no link\", \"txt\": \"hello\"},"
	                           "\"not an object\", null, [1]"
	                           "]}}";
	struct fr_api_page pg;
	char err[FR_ERRLEN];

	CHECK(map_text("list=/a~1b/m~0n; id=/k; time=/t; link=/u; text=/txt", body, NULL, &pg,
	               err) == 0);
	if (!pg.feed)
		return;
	CHECK(pg.n_entries == 13 && pg.n_skipped == 3 && pg.feed->n_items == 10);
	CHECK_STR(pg.feed->items[0].id, "1");
	CHECK(pg.feed->items[0].published_s == 1704164645);
	CHECK(pg.feed->items[1].published_s ==
	      FR_DATE_NONE); /* ms read as seconds: past year 9999 */
	CHECK(pg.feed->items[2].published_s == 1704164645);
	CHECK(pg.feed->items[3].published_s == 1704164645);
	CHECK(pg.feed->items[4].published_s == 1704164645);
	CHECK(pg.feed->items[5].published_s == FR_DATE_NONE);
	CHECK(pg.feed->items[6].published_s == FR_DATE_NONE);
	CHECK(pg.feed->items[7].published_s == FR_DATE_NONE);
	CHECK(pg.n_bad_times == 4);
	CHECK_STR(pg.feed->items[8].id, "https://e.org/p/9"); /* no id: the link */
	CHECK(!strncmp(pg.feed->items[9].id, "sha1:", 5) && strlen(pg.feed->items[9].id) == 45);
	CHECK(pg.next_url == NULL);
	fr_api_page_free(&pg);

	/* time_unit=ms */
	CHECK(map_text("list=/a~1b/m~0n; id=/k; time=/t; time_unit=ms", body, NULL, &pg, err) == 0);
	if (pg.feed) {
		CHECK(pg.feed->items[0].published_s == 1704164); /* seconds read as ms */
		CHECK(pg.feed->items[1].published_s == 1704164645);
	}
	fr_api_page_free(&pg);
}

static void
test_links(void)
{
	static const char body[] = "{\"d\":["
	                           "{\"l\":\"/rel/1\"},"
	                           "{\"l\":\"JaVaScRiPt:alert(1)\"},"
	                           "{\"l\":\"data:text/html,<script>x</script>\"},"
	                           "{\"l\":\"ftp://e.org/f\"},"
	                           "{\"l\":\"//cdn.e.org/x\"},"
	                           "{\"l\":\"HTTPS://E.org/y\"},"
	                           "{\"l\":42}"
	                           "]}";
	struct fr_api_map_opts o = {.url = "https://api.e.org/v1/list?x=1"};
	struct fr_api_page pg;
	char err[FR_ERRLEN];

	CHECK(map_text("list=d[]; link=l", body, &o, &pg, err) == 0);
	if (!pg.feed)
		return;
	CHECK(pg.feed->n_items == 7);
	CHECK_STR(pg.feed->items[0].link, "https://api.e.org/rel/1");
	CHECK(pg.feed->items[1].link == NULL &&
	      !strcmp(pg.feed->items[1].refused_link, "JaVaScRiPt:alert(1)"));
	CHECK(pg.feed->items[2].link == NULL && pg.feed->items[2].refused_link);
	CHECK(pg.feed->items[3].link == NULL && pg.feed->items[3].refused_link);
	CHECK_STR(pg.feed->items[4].link, "https://cdn.e.org/x");
	CHECK(pg.feed->items[5].link &&
	      !strncasecmp(pg.feed->items[5].link, "https://e.org/y", 15));
	CHECK(pg.feed->items[6].link == NULL && pg.feed->items[6].refused_link == NULL);
	CHECK(pg.feed->n_links_refused == 3);
	fr_api_page_free(&pg);

	/* no request URL: a relative link has nothing to resolve against */
	CHECK(map_text("list=d[]; link=l", body, NULL, &pg, err) == 0);
	CHECK(pg.feed && pg.feed->items[0].link == NULL && pg.feed->items[0].refused_link);
	fr_api_page_free(&pg);
}

static void
test_utf8_repair(void)
{
	/* json-c passes bytes of invalid UTF-8 through; \ud800 is a lone surrogate */
	static const char body[] = "[{\"id\":\"a\xff"
	                           "b\",\"title\":\"t\\ud800x\",\"text\":\"caf\xc3\"}]";
	struct fr_api_page pg;
	char err[FR_ERRLEN];

	CHECK(map_text("list=[]; id=id; title=title; text=text", body, NULL, &pg, err) == 0);
	if (!pg.feed)
		return;
	CHECK_STR(pg.feed->items[0].id, "a\xEF\xBF\xBD"
	                                "b");
	CHECK(pg.feed->items[0].title && !strstr(pg.feed->items[0].title, "\xed\xa0\x80"));
	CHECK_STR(pg.feed->items[0].content, "caf\xEF\xBF\xBD");
	fr_api_page_free(&pg);
}

static void
test_link_header_and_params(void)
{
	char *u;

	u = fr_api_link_next("<https://m.s/api?max_id=5>; rel=\"prev next\"", NULL);
	CHECK_STR(u, "https://m.s/api?max_id=5");
	free(u);
	u = fr_api_link_next(
	    "<https://m.s/a?min_id=9>; rel=\"prev\", </api/v1/x?max_id=3>;rel=next",
	    "https://m.s/q");
	CHECK_STR(u, "https://m.s/api/v1/x?max_id=3");
	free(u);
	CHECK(fr_api_link_next("<javascript:x>; rel=next", NULL) == NULL);
	CHECK(fr_api_link_next("<https://m.s/a>; rel=\"prev\"", NULL) == NULL);
	CHECK(fr_api_link_next("<https://m.s/a; rel=next", NULL) == NULL);
	u = fr_api_link_next("garbage, <https://m.s/b>; title=\"a, b\"; rel=NEXT", NULL);
	CHECK_STR(u, "https://m.s/b");
	free(u);

	u = fr_api_url_with_param("https://r.com/new.json?limit=2&after=t3_old&x=1#frag", "after",
	                          "t3_n w&");
	CHECK_STR(u, "https://r.com/new.json?limit=2&x=1&after=t3_n%20w%26");
	free(u);
	u = fr_api_url_with_param("https://r.com/new.json", "after", "t3_x");
	CHECK_STR(u, "https://r.com/new.json?after=t3_x");
	free(u);
	CHECK(fr_api_url_with_param("ftp://r.com/", "a", "b") == NULL);
}

static void
test_bad_responses(void)
{
	struct fr_api_map_opts o = {.url = "https://graph.facebook.com/v19.0/1/posts",
	                            .max_bytes = 64};
	struct fr_api_page pg;
	char err[FR_ERRLEN];

	CHECK(map_text("graph", "{\"data\": [", NULL, &pg, err) == -1);
	CHECK_STR(err, "api response: JSON at byte 10: unexpected end of data");
	CHECK(pg.feed == NULL);
	CHECK(map_text("graph", "<html>", NULL, &pg, err) == -1);
	CHECK(!strncmp(err, "api response: JSON at byte 0: ", 30));
	CHECK(map_text("graph", "", NULL, &pg, err) == -1);
	CHECK(map_text("graph", "{\"items\": []}", NULL, &pg, err) == -1);
	CHECK_STR(err, "api response: no list at /data");
	CHECK(map_text("graph", "{\"data\": \"x\"}", NULL, &pg, err) == -1);
	CHECK_STR(err, "api response: /data is a string, not a list");
	CHECK(map_text("mastodon", "{\"id\": 1}", NULL, &pg, err) == -1);
	CHECK_STR(err, "api response: the document's root is an object, not a list");
	CHECK(map_file("graph", "graph_error_4.json", NULL, &pg, err) == -1);
	CHECK_STR(err,
	          "api response: error 4 (OAuthException): (#4) Application request limit reached");
	CHECK(map_file("graph", "graph_error_190.json", NULL, &pg, err) == -1);
	CHECK_STR(err, "api response: error 190 (OAuthException): Invalid OAuth access token - "
	               "Cannot parse access token");
	CHECK(map_file("mastodon", "mastodon_429.json", NULL, &pg, err) == -1);
	CHECK_STR(err, "api response: error: Too many requests");
	CHECK(map_file("reddit", "reddit_429.json", NULL, &pg, err) == -1);
	CHECK_STR(err, "api response: error 429: Too Many Requests");
	CHECK(map_text(
	          "graph",
	          "{\"data\": [], \"paging\": {\"next\": \"https://x/y?after=1\"}}              ",
	          &o, &pg, err) == -1);
	CHECK_STR(err, "api response: 69 bytes, over the limit of 64");
	/* a null list is empty; data after the document is noted, not fatal */
	CHECK(map_text("graph", "{\"data\": null} xyz", NULL, &pg, err) == 0);
	CHECK(pg.feed && pg.feed->n_items == 0 && pg.feed->bozo);
	fr_api_page_free(&pg);
	{
		/* deeper than the limit */
		char deep[300];
		size_t w = 0;
		struct fr_api_map_opts d = {.max_depth = 8};

		w += (size_t)snprintf(deep + w, sizeof(deep) - w, "{\"data\":");
		for (int i = 0; i < 20; i++)
			deep[w++] = '[';
		deep[w] = '\0';
		CHECK(map_text("graph", deep, &d, &pg, err) == -1);
		CHECK(!strncmp(err, "api response: JSON at byte ", 27) &&
		      strstr(err, "nesting too deep"));
	}
	/* max_items keeps the newest */
	{
		struct fr_api_map_opts m = {.max_items = 1};

		CHECK(map_file("graph", "graph_posts.json", &m, &pg, err) == 0);
		CHECK(pg.feed && pg.feed->n_items == 1 && pg.feed->n_items_cut == 2 &&
		      pg.feed->items[0].published_s == 1704164645);
		fr_api_page_free(&pg);
	}
}

int
main(void)
{
	RUN(test_graph_posts);
	RUN(test_mastodon_statuses);
	RUN(test_reddit_listing);
	RUN(test_jsonapi);
	RUN(test_custom_times_and_ids);
	RUN(test_links);
	RUN(test_utf8_repair);
	RUN(test_link_header_and_params);
	RUN(test_bad_responses);
	return TEST_DONE();
}
