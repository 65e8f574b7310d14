/* test_tk_api.c - `serve --api`'s handler (testkit/api.c) read back with
 * freshet's own API client parts: every page through lib/api's presets
 * (items, times, links, authors, text) and its pagination to the end; the
 * usage headers through lib/api's limit reader, which must then refuse to
 * spend a call exactly when the server would refuse it; the refusal
 * bodies; tokens (missing, unknown, per-token counts); the log fields
 * (no token in them); items appearing as the clock runs. */
#include "test.h"

#include "api/limit.h"
#include "api/map.h"
#include "api/spec.h"
#include "core/strmap.h"
#include "sim/trace.h"
#include "testkit/api.h"
#include "testkit/clock.h"
#include "testkit/server.h"

#include <stdint.h>

#define START 1700000400.0 /* a multiple of 600: windows start there */

static struct fr_trace tr;
static struct fr_serve_clock clk;

/* s0: 57 items before the start, 100 s apart, then 3 at +50, +150, +250;
 * s1: one item at +1000; s2: two items in the same second before it. */
static void
make_trace(void)
{
	const char *src[64];
	double t[64];
	size_t n = 0;
	char err[256];

	for (int i = 0; i < 57; i++) {
		src[n] = "s0";
		t[n++] = START - 5700 + i * 100;
	}
	for (int i = 0; i < 3; i++) {
		src[n] = "s0";
		t[n++] = START + 50 + i * 100;
	}
	src[n] = "s1";
	t[n++] = START + 1000;
	src[n] = "s2";
	t[n++] = START - 10;
	src[n] = "s2";
	t[n++] = START - 10;
	CHECK(fr_trace_from_rows(&tr, n, src, t, NULL, err, sizeof(err)) == 0);
	clk.start_s = START;
	clk.end_s = START + 5000;
	clk.speed = 1;
	clk.wall0_s = START;
}

struct got {
	int status;
	char *body;
	size_t len;
	char headers[FR_SERVE_EXTRA_HEADERS_CAP];
	char log_path[FR_SERVE_LOG_NOTE_CAP], log_extra[FR_SERVE_LOG_NOTE_CAP];
	char link[1024]; /* the Link header's value */
	char etag[80];
};

static const char *auth_value;

static const char *
header_of(void *cls, const char *name)
{
	(void)cls;
	return !strcasecmp(name, "Authorization") ? auth_value : NULL;
}

/* Asks the API for url (absolute, query included) at wall time wall with
 * Authorization auth (NULL: none). */
static int
ask(struct fr_tk_api *a, const char *url, const char *auth, double wall, struct got *g)
{
	struct fr_serve_req req;
	struct fr_serve_resp resp;
	char path[2048];
	const char *p = strstr(url, "://"), *q;

	memset(g, 0, sizeof(*g));
	p = p ? strchr(p + 3, '/') : url;
	q = strchr(p, '?');
	snprintf(path, sizeof(path), "%.*s", (int)(q ? (size_t)(q - p) : strlen(p)), p);
	memset(&req, 0, sizeof(req));
	req.path = path;
	req.query = q ? q + 1 : "";
	req.host_name = "graph.freshet.test";
	req.wall_s = wall;
	req.header = header_of;
	auth_value = auth;
	memset(&resp, 0, sizeof(resp));
	resp.last_modified_s = -1;
	if (fr_tk_api_handle(a, &req, &resp) < 0)
		return g->status = -1;
	g->status = resp.status;
	g->body = malloc(resp.len + 1);
	memcpy(g->body, resp.body, resp.len);
	g->body[resp.len] = '\0';
	g->len = resp.len;
	memcpy(g->headers, resp.headers, sizeof(g->headers));
	memcpy(g->log_path, resp.log_path, sizeof(g->log_path));
	memcpy(g->log_extra, resp.log_extra, sizeof(g->log_extra));
	memcpy(g->etag, resp.etag, sizeof(g->etag));
	{
		const char *l = strstr(g->headers, "Link: ");
		if (l)
			snprintf(g->link, sizeof(g->link), "%.*s", (int)strcspn(l + 6, "\n"),
			         l + 6);
	}
	if (resp.release)
		resp.release(resp.release_cls);
	return g->status;
}

static struct fr_tk_api *
make_api(enum fr_tk_api_kind kind, unsigned limit_n, const char *const *tokens, size_t n_tokens)
{
	struct fr_tk_api_config c;
	char err[256];
	struct fr_tk_api *a;

	fr_tk_api_config_defaults(&c);
	c.tr = &tr;
	c.clock = &clk;
	c.kind = kind;
	c.limit_n = limit_n;
	c.tokens = tokens;
	c.n_tokens = n_tokens;
	a = fr_tk_api_new(&c, err, sizeof(err));
	CHECK(a != NULL);
	return a;
}

static uint32_t
src_id(const char *name)
{
	uint32_t s = 0;

	CHECK(fr_strmap_find(tr.sources, name, strlen(name), &s));
	return s;
}

/* Crawls source name to the end with the kind's preset at wall time wall:
 * returns the items seen (-1 on a failure), each page's items newest
 * first, no id twice, times descending; *pages gets the page count. */
static long
crawl(struct fr_tk_api *a, enum fr_tk_api_kind kind, const char *name, const char *query,
      double wall, int *pages, char first_id[64])
{
	struct fr_api_spec *spec = NULL;
	char err[256], url[1024];
	long n = 0;
	int64_t last_t = INT64_MAX;
	char seen[128][64];

	CHECK(fr_api_spec_parse(fr_tk_api_kind_name(kind), strlen(fr_tk_api_kind_name(kind)), &spec,
	                        err, sizeof(err)) == 0);
	fr_tk_api_url(a, src_id(name), url, sizeof(url));
	if (query) {
		strcat(url, "?");
		strcat(url, query);
	}
	*pages = 0;
	first_id[0] = '\0';
	for (int guard = 0; guard < 100; guard++) {
		struct got g;
		struct fr_api_page page;
		struct fr_api_map_opts mo = {.url = url};

		if (ask(a, url, "Bearer tok", wall, &g) != 200) {
			fprintf(stderr, "status %d for %s: %s\n", g.status, url, g.body);
			free(g.body);
			n = -1;
			break;
		}
		(*pages)++;
		mo.link_header = g.link[0] ? g.link : NULL;
		if (fr_api_map(spec, g.body, g.len, &mo, &page, err, sizeof(err)) != 0) {
			fprintf(stderr, "%s\n", err);
			free(g.body);
			n = -1;
			break;
		}
		for (size_t i = 0; i < page.feed->n_items; i++) {
			const struct fr_feed_item *it = &page.feed->items[i];

			CHECK(it->published_s <= last_t);
			last_t = it->published_s;
			if (n == 0)
				snprintf(first_id, 64, "%s", it->id);
			for (long j = 0; j < n && j < 128; j++)
				CHECK(strcmp(seen[j], it->id) != 0);
			if (n < 128)
				snprintf(seen[n], sizeof(seen[n]), "%s", it->id);
			n++;
		}
		free(g.body);
		if (!page.next_url || page.feed->n_items == 0) {
			fr_api_page_free(&page);
			break;
		}
		snprintf(url, sizeof(url), "%s", page.next_url);
		fr_api_page_free(&page);
	}
	fr_api_spec_free(spec);
	return n;
}

/* Every source through each preset, to the end of its pages. */
static void
test_pages_to_the_end(void)
{
	for (int k = 0; k < FR_TK_API_N; k++) {
		struct fr_tk_api *a = make_api((enum fr_tk_api_kind)k, 0, NULL, 0);
		char id[64];
		int pages;

		/* s0: 57 visible at the start, 3 more by +250 */
		CHECK(crawl(a, k, "s0", NULL, START, &pages, id) == 57);
		CHECK(pages >= 3 &&
		      pages <= 4); /* 25/20 a page; Mastodon may end on an empty one */
		CHECK(crawl(a, k, "s0", "limit=7", START + 260, &pages, id) == 60);
		CHECK(pages >= 9 && pages <= 10);
		CHECK(crawl(a, k, "s0", "limit=1000", START, &pages, id) ==
		      57); /* capped, not refused */
		/* Graph 57 and Mastodon 40 + 17, then an empty page, as the real
		 * APIs: Graph gives cursors on its last page and Mastodon a
		 * last id, which the presets fall back to when there is no next
		 * link; Reddit's after is null on the last page. */
		CHECK(pages == (k == FR_TK_API_REDDIT ? 1 : k == FR_TK_API_GRAPH ? 2 : 3));
		CHECK(crawl(a, k, "s1", NULL, START, &pages, id) == 0);
		CHECK(crawl(a, k, "s1", NULL, START + 1000, &pages, id) == 1);
		CHECK(crawl(a, k, "s2", "limit=1", START, &pages, id) == 2);
		/* the clock stops at its end: s1's item stays, nothing more */
		CHECK(crawl(a, k, "s1", NULL, START + 1e6, &pages, id) == 1);
		fr_tk_api_free(a);
	}
}

/* The newest item through each preset, field by field. */
static void
test_item_fields(void)
{
	struct fr_tk_api *a;
	struct fr_api_spec *spec;
	struct fr_api_page page;
	struct got g;
	char err[256], url[512];

	for (int k = 0; k < FR_TK_API_N; k++) {
		const struct fr_feed_item *it;
		struct fr_api_map_opts mo = {0};

		a = make_api((enum fr_tk_api_kind)k, 0, NULL, 0);
		CHECK(fr_api_spec_parse(fr_tk_api_kind_name(k), strlen(fr_tk_api_kind_name(k)),
		                        &spec, err, sizeof(err)) == 0);
		fr_tk_api_url(a, src_id("s0"), url, sizeof(url));
		CHECK(ask(a, url, "Bearer t", START, &g) == 200);
		mo.url = url;
		CHECK(fr_api_map(spec, g.body, g.len, &mo, &page, err, sizeof(err)) == 0);
		CHECK(page.feed->n_items == (k == FR_TK_API_MASTODON ? 20u : 25u));
		it = &page.feed->items[0];
		CHECK(it->published_s == (int64_t)(START - 100));
		CHECK(it->content && strstr(it->content, k == FR_TK_API_MASTODON
		                                             ? "Item 56 of s0 (Q&amp;A), published"
		                                             : "Item 56 of s0 (Q&A), published"));
		if (k == FR_TK_API_GRAPH) {
			CHECK_STR(url, "http://graph.freshet.test/s0/posts");
			CHECK_STR(it->id, "s0_56");
			CHECK_STR(it->author, "Source s0");
			CHECK_STR(it->link, "http://graph.freshet.test/s0/posts/56");
			CHECK(page.next_url && strstr(page.next_url, "after=") != NULL);
		} else if (k == FR_TK_API_MASTODON) {
			CHECK_STR(url, "http://mastodon.freshet.test/api/v1/accounts/s0/statuses");
			CHECK_STR(it->author, "s0");
			CHECK(it->link &&
			      !strncmp(it->link, "http://mastodon.freshet.test/@s0/", 33));
			CHECK(strchr(it->id, '_') == NULL && strlen(it->id) >= 15);
			CHECK(strstr(g.body, "\"created_at\":\"2023-11-14T22:18:20.000Z\"") !=
			      NULL);
		} else {
			CHECK_STR(url, "http://reddit.freshet.test/r/s0/new.json");
			CHECK(!strncmp(it->id, "t3_", 3));
			CHECK_STR(it->title, "s0 item 56 (Q&A)"); /* entities decoded once */
			CHECK_STR(it->author, "s0_bot");
			CHECK(strstr(g.body, "\"title\":\"s0 item 56 (Q&amp;A)\"") != NULL);
			CHECK(strstr(g.body, "\"created_utc\":1700000300.0") != NULL);
		}
		fr_api_page_free(&page);
		free(g.body);
		fr_api_spec_free(spec);
		fr_tk_api_free(a);
	}
}

/* The usage headers read by lib/api's limit reader: it refuses to spend a
 * call exactly when the server would refuse it, and waits until the
 * window's reset where the API tells it. */
static void
test_limit_headers_and_refusals(void)
{
	for (int k = 0; k < FR_TK_API_N; k++) {
		struct fr_tk_api *a = make_api((enum fr_tk_api_kind)k, 5, NULL, 0);
		struct fr_api_limit l;
		struct fr_tk_api_stats st;
		struct got g;
		char url[512];
		double now = START + 10, until = 0;
		long code = 0;

		fr_api_limit_init(&l);
		fr_tk_api_url(a, src_id("s2"), url, sizeof(url));
		for (int i = 1; i <= 5; i++) {
			CHECK(fr_api_limit_may_call(&l, now, NULL));
			CHECK(ask(a, url, "Bearer tokA", now, &g) == 200);
			CHECK(fr_api_limit_headers(&l, g.headers, strlen(g.headers), now) >= 1);
			CHECK_STR(g.log_extra, "t0\t0");
			free(g.body);
			now += 1;
		}
		if (k == FR_TK_API_GRAPH) {
			CHECK(strstr(g.headers, "X-App-Usage: {\"call_count\":100,") != NULL);
			CHECK_NEAR(l.usage_pct, 100, 0);
		} else {
			CHECK_NEAR(l.remaining, 0, 0);
			CHECK_NEAR(l.reset_at_s, START + 600, 0);
			if (k == FR_TK_API_MASTODON) {
				CHECK(strstr(g.headers, "X-RateLimit-Limit: 5\n") != NULL);
				CHECK(strstr(g.headers,
				             "X-RateLimit-Reset: 2023-11-14T22:30:00.000000Z\n"));
			} else {
				CHECK(strstr(g.headers, "X-Ratelimit-Used: 5\n") != NULL);
				CHECK(strstr(g.headers, "X-Ratelimit-Remaining: 0.0\n") != NULL);
				CHECK(strstr(g.headers, "X-Ratelimit-Reset: 586\n") != NULL);
			}
		}
		/* the client would not call now; the server refuses if it does */
		CHECK(!fr_api_limit_may_call(&l, now, &until));
		CHECK(until > now);
		if (k != FR_TK_API_GRAPH)
			CHECK_NEAR(until, START + 600, 0);
		ask(a, url, "Bearer tokA", now, &g);
		CHECK(g.status == (k == FR_TK_API_GRAPH ? 403 : 429));
		CHECK_STR(g.log_extra, "t0\t1");
		CHECK(fr_api_limit_response(&l, g.status, g.body, g.len, now, &code) !=
		      FR_API_SLOW_NONE);
		if (k == FR_TK_API_GRAPH) {
			CHECK(code == 4);
			CHECK(strstr(g.body,
			             "\"message\":\"(#4) Application request limit reached\"") !=
			      NULL);
			CHECK(strstr(g.body, "\"type\":\"OAuthException\"") != NULL);
		} else if (k == FR_TK_API_MASTODON) {
			CHECK_STR(g.body, "{\"error\":\"Too many requests\"}");
		} else {
			CHECK_STR(g.body, "{\"message\": \"Too Many Requests\", \"error\": 429}");
		}
		free(g.body);
		/* another token has its own count */
		CHECK(ask(a, url, "Bearer tokB", now, &g) == 200);
		CHECK_STR(g.log_extra, "t1\t0");
		free(g.body);
		/* just before the window's end: still refused; at it: let through */
		CHECK(ask(a, url, "Bearer tokA", START + 599.9, &g) != 200);
		free(g.body);
		CHECK(ask(a, url, "Bearer tokA", START + 600, &g) == 200);
		fr_api_limit_headers(&l, g.headers, strlen(g.headers), START + 600);
		/* (Graph: the throttle body's remaining 0 is released by the
		 * usage under 100%, as X-App-Usage carries no count.) */
		CHECK(fr_api_limit_may_call(&l, START + 600, NULL));
		if (k == FR_TK_API_GRAPH)
			CHECK(strstr(g.headers, "X-App-Usage: {\"call_count\":20,") != NULL);
		free(g.body);
		fr_tk_api_get_stats(a, &st);
		CHECK(st.calls == 7);
		CHECK(st.refused == 2);
		CHECK(st.tokens == 2);
		fr_tk_api_free(a);
	}
}

/* Graph's other limit codes. */
static void
test_graph_codes(void)
{
	static const int codes[] = {17, 32, 613};
	for (size_t i = 0; i < 3; i++) {
		struct fr_tk_api_config c;
		struct fr_tk_api *a;
		struct fr_api_limit l;
		struct got g;
		char err[256], url[512], want[64];
		long code = 0;

		fr_tk_api_config_defaults(&c);
		c.tr = &tr;
		c.clock = &clk;
		c.limit_n = 1;
		c.graph_code = codes[i];
		a = fr_tk_api_new(&c, err, sizeof(err));
		CHECK(a != NULL);
		fr_tk_api_url(a, 0, url, sizeof(url));
		CHECK(ask(a, url, "Bearer x", START, &g) == 200);
		free(g.body);
		CHECK(ask(a, url, "Bearer x", START, &g) == 403);
		snprintf(want, sizeof(want), "\"message\":\"(#%d) ", codes[i]);
		CHECK(strstr(g.body, want) != NULL);
		fr_api_limit_init(&l);
		CHECK(fr_api_limit_response(&l, g.status, g.body, g.len, START, &code) ==
		      FR_API_SLOW_GRAPH);
		CHECK(code == codes[i]);
		free(g.body);
		fr_tk_api_free(a);
	}
	{
		struct fr_tk_api_config c;
		char err[256];

		fr_tk_api_config_defaults(&c);
		c.tr = &tr;
		c.clock = &clk;
		c.graph_code = 5;
		CHECK(fr_tk_api_new(&c, err, sizeof(err)) == NULL);
		CHECK(strstr(err, "not 4, 17, 32 or 613") != NULL);
	}
}

/* Missing and unknown tokens, Graph's access_token parameter, and the log
 * never showing a token. */
static void
test_tokens(void)
{
	static const char *const good[] = {"good1", "good|2"};
	struct fr_tk_api *a = make_api(FR_TK_API_GRAPH, 600, good, 2);
	struct got g;
	char url[512];

	fr_tk_api_url(a, src_id("s0"), url, sizeof(url));
	CHECK(ask(a, url, NULL, START, &g) == 400);
	CHECK(strstr(g.body, "\"code\":104") != NULL);
	CHECK(strstr(g.headers, "X-App-Usage") == NULL);
	CHECK_STR(g.log_extra, "-\t0");
	free(g.body);
	CHECK(ask(a, url, "Bearer bad", START, &g) == 400);
	CHECK(strstr(g.body, "\"code\":190") != NULL);
	CHECK_STR(g.log_extra, "?\t0");
	free(g.body);
	CHECK(ask(a, url, "Basic Z29vZDE=", START, &g) == 400);
	free(g.body);
	CHECK(ask(a, url, "Bearer good1", START, &g) == 200);
	CHECK_STR(g.log_extra, "t0\t0");
	free(g.body);
	/* the token as a parameter (an app token ID|SECRET percent-encoded):
	 * accepted, carried into the next page's URL as the real API does, and
	 * never in the log */
	strcat(url, "?limit=5&access_token=good%7C2");
	CHECK(ask(a, url, NULL, START, &g) == 200);
	CHECK_STR(g.log_extra, "t1\t0");
	CHECK_STR(g.log_path, "/s0/posts?limit=5&access_token=***");
	CHECK(strstr(g.body, "access_token=good%7C2") != NULL);
	CHECK(strstr(g.log_path, "good") == NULL);
	free(g.body);
	fr_tk_api_free(a);

	a = make_api(FR_TK_API_MASTODON, 600, good, 2);
	fr_tk_api_url(a, src_id("s0"), url, sizeof(url));
	CHECK(ask(a, url, NULL, START, &g) == 401);
	CHECK_STR(g.body, "{\"error\":\"The access token is invalid\"}");
	free(g.body);
	strcat(url, "?access_token=good1"); /* only Graph reads it */
	CHECK(ask(a, url, NULL, START, &g) == 401);
	free(g.body);
	CHECK(ask(a, "http://mastodon.freshet.test/api/v1/accounts/nobody/statuses", "Bearer good1",
	          START, &g) == 404);
	CHECK_STR(g.body, "{\"error\":\"Record not found\"}");
	free(g.body);
	fr_tk_api_free(a);

	a = make_api(FR_TK_API_REDDIT, 600, NULL, 0);
	CHECK(ask(a, "http://reddit.freshet.test/r/s0/new.json", "bearer  anything", START, &g) ==
	      200);
	free(g.body);
	CHECK(ask(a, "http://reddit.freshet.test/r/s0/new.json", "", START, &g) == 401);
	CHECK_STR(g.body, "{\"message\": \"Unauthorized\", \"error\": 401}");
	free(g.body);
	/* robots.txt and the listing are free: no token, not a call */
	CHECK(ask(a, "http://reddit.freshet.test/robots.txt", NULL, START, &g) == 200);
	free(g.body);
	CHECK(ask(a, "http://reddit.freshet.test/", NULL, START, &g) == 200);
	CHECK_STR(g.body,
	          "{\"api\":\"reddit\",\"limit\":{\"calls\":600,\"window_s\":600},"
	          "\"sources\":[\n"
	          "{\"source\":\"s0\",\"url\":\"http://reddit.freshet.test/r/s0/new.json\"},\n"
	          "{\"source\":\"s1\",\"url\":\"http://reddit.freshet.test/r/s1/new.json\"},\n"
	          "{\"source\":\"s2\",\"url\":\"http://reddit.freshet.test/r/s2/new.json\"}\n"
	          "]}\n");
	free(g.body);
	{
		struct fr_tk_api_stats st;
		fr_tk_api_get_stats(a, &st);
		CHECK(st.calls == 1 && st.unauthorized == 1 && st.tokens == 1);
	}
	fr_tk_api_free(a);
}

/* Mastodon's since_id and min_id, Reddit's before, Graph's before. */
static void
test_newer_pages(void)
{
	struct fr_tk_api *a = make_api(FR_TK_API_MASTODON, 0, NULL, 0);
	struct got g;
	char url[512], id[64];
	int pages;

	/* the 3rd newest's id, from a page of 3 */
	CHECK(ask(a, "http://mastodon.freshet.test/api/v1/accounts/s0/statuses?limit=3", "Bearer t",
	          START, &g) == 200);
	{
		const char *p = strstr(g.body, "\n{\"id\":\"");
		for (int i = 0; i < 2 && p; i++)
			p = strstr(p + 1, "\n{\"id\":\"");
		CHECK(p != NULL);
		snprintf(id, sizeof(id), "%.*s", p ? (int)strcspn(p + 8, "\"") : 0, p ? p + 8 : "");
	}
	free(g.body);
	snprintf(url, sizeof(url),
	         "http://mastodon.freshet.test/api/v1/accounts/s0/statuses?since_id=%s", id);
	CHECK(ask(a, url, "Bearer t", START, &g) == 200);
	CHECK(strstr(g.body, "Item 56 of") && strstr(g.body, "Item 55 of") &&
	      !strstr(g.body, "Item 54 of"));
	free(g.body);
	snprintf(url, sizeof(url),
	         "http://mastodon.freshet.test/api/v1/accounts/s0/statuses?min_id=%s&limit=1", id);
	CHECK(ask(a, url, "Bearer t", START, &g) == 200);
	CHECK(strstr(g.body, "Item 55 of") && !strstr(g.body, "Item 56 of"));
	free(g.body);
	/* a weak ETag of the body, as Rails gives: the same for the same
	 * page, another once an item appears; Graph and Reddit give none */
	{
		char e1[80];

		CHECK(ask(a, "http://mastodon.freshet.test/api/v1/accounts/s0/statuses", "Bearer t",
		          START, &g) == 200);
		CHECK(!strncmp(g.etag, "W/\"", 3) && strlen(g.etag) == 20);
		snprintf(e1, sizeof(e1), "%s", g.etag);
		free(g.body);
		CHECK(ask(a, "http://mastodon.freshet.test/api/v1/accounts/s0/statuses", "Bearer t",
		          START + 49, &g) == 200);
		CHECK_STR(g.etag, e1);
		free(g.body);
		CHECK(ask(a, "http://mastodon.freshet.test/api/v1/accounts/s0/statuses", "Bearer t",
		          START + 50, &g) == 200);
		CHECK(g.etag[0] && strcmp(g.etag, e1) != 0);
		free(g.body);
	}
	CHECK(ask(a, "http://mastodon.freshet.test/api/v1/accounts/s0/statuses?max_id=x",
	          "Bearer t", START, &g) == 422);
	free(g.body);
	fr_tk_api_free(a);
	(void)pages;

	a = make_api(FR_TK_API_REDDIT, 0, NULL, 0);
	CHECK(crawl(a, FR_TK_API_REDDIT, "s0", "limit=2", START, &pages, id) == 57);
	snprintf(url, sizeof(url), "http://reddit.freshet.test/r/s0/new.json?before=%s", id);
	CHECK(ask(a, url, "Bearer t", START + 300, &g) == 200);
	CHECK(strstr(g.body, "\"dist\":3,") != NULL); /* the three newer ones */
	free(g.body);
	CHECK(ask(a, "http://reddit.freshet.test/r/s0/new.json?after=t3_zzzz", "Bearer t", START,
	          &g) == 200);
	CHECK(strstr(g.body, "\"dist\":0,") != NULL);
	free(g.body);
	fr_tk_api_free(a);

	a = make_api(FR_TK_API_GRAPH, 0, NULL, 0);
	CHECK(ask(a, "http://graph.freshet.test/v19.0/s0/posts?limit=2", "Bearer t", START, &g) ==
	      200);
	{
		const char *p = strstr(g.body, "\"before\":\"");
		CHECK(p != NULL);
		snprintf(id, sizeof(id), "%.*s", p ? (int)strcspn(p + 10, "\"") : 0,
		         p ? p + 10 : "");
	}
	free(g.body);
	snprintf(url, sizeof(url), "http://graph.freshet.test/s0/posts?before=%s", id);
	CHECK(ask(a, url, "Bearer t", START + 300, &g) == 200);
	CHECK(g.etag[0] == '\0');
	CHECK(strstr(g.body, "\"id\":\"s0_59\"") && strstr(g.body, "\"id\":\"s0_57\"") &&
	      !strstr(g.body, "\"id\":\"s0_56\""));
	free(g.body);
	CHECK(ask(a, "http://graph.freshet.test/s0/posts?after=!!", "Bearer t", START, &g) == 400);
	free(g.body);
	fr_tk_api_free(a);
}

int
main(void)
{
	make_trace();
	RUN(test_pages_to_the_end);
	RUN(test_item_fields);
	RUN(test_limit_headers_and_refusals);
	RUN(test_graph_codes);
	RUN(test_tokens);
	RUN(test_newer_pages);
	fr_trace_free(&tr);
	return TEST_DONE();
}
