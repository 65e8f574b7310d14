/* test_robots.c - robots.txt: the golden table tests/data/robots/expected.tsv
 * (RFC 9309's examples and more), the product token taken from a full
 * User-Agent, the 500 KiB cap, the status rules, robots URLs, and the cache
 * (fetch once, pending, expiry, unreachable hosts, stale copies, eviction). */
#include "net/fetch.h"
#include "net/robots.h"

#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DATA FR_TEST_DATA "/robots/"

static struct fr_robots *
parse_str(const char *text, const char *ua)
{
	return fr_robots_parse(text, strlen(text), ua);
}

/* Every row of the golden table; a failing row is named by its line. */
static void
test_golden_table(void)
{
	FILE *f = fopen(DATA "expected.tsv", "r");
	char line[1024];
	unsigned long lineno = 0, rows = 0;

	CHECK(f != NULL);
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char file[128], agent[128], path[512], want[32], fpath[256];
		struct fr_robots *r;
		char *text;
		size_t len;
		int ok = 1;

		lineno++;
		if (line[0] == '#' || line[strspn(line, " \t\r\n")] == '\0')
			continue;
		if (sscanf(line, "%127s %127s %511s %31s", file, agent, path, want) != 4) {
			fprintf(stderr, "expected.tsv:%lu: malformed row\n", lineno);
			CHECK(0);
			continue;
		}
		snprintf(fpath, sizeof(fpath), "%s%s", DATA, file);
		text = test_slurp(fpath, &len);
		if (!text)
			continue; /* counted as a failed check */
		r = fr_robots_parse(text, len, agent);
		CHECK(r != NULL);
		if (!r) {
			free(text);
			continue;
		}
		if (strcmp(path, "@crawl-delay") == 0) {
			double d = fr_robots_crawl_delay_s(r);

			ok = strcmp(want, "none") == 0 ? d == -1
			                               : fabs(d - strtod(want, NULL)) < 1e-9;
			if (!ok)
				fprintf(stderr,
				        "expected.tsv:%lu: %s %s: crawl-delay %g, want %s\n",
				        lineno, file, agent, d, want);
		} else if (strcmp(path, "@sitemaps") == 0) {
			ok = fr_robots_n_sitemaps(r) == strtoul(want, NULL, 10);
			if (!ok)
				fprintf(stderr, "expected.tsv:%lu: %s: %zu sitemaps, want %s\n",
				        lineno, file, fr_robots_n_sitemaps(r), want);
		} else {
			int got = fr_robots_allowed(r, path);

			ok = got == (strcmp(want, "allow") == 0);
			if (!ok)
				fprintf(stderr, "expected.tsv:%lu: %s %s %s: %s, want %s\n", lineno,
				        file, agent, path, got ? "allow" : "deny", want);
		}
		CHECK(ok);
		rows++;
		fr_robots_free(r);
		free(text);
	}
	fclose(f);
	CHECK(rows >= 150);
}

static void
test_product_token_from_user_agent(void)
{
	const char *text = "User-agent: freshet\nDisallow: /private\n\n"
	                   "User-agent: *\nDisallow: /\n";
	struct fr_robots *r = parse_str(text, "freshet/0.1 (+https://example.org/bot)");

	CHECK(fr_robots_allowed(r, "/public"));
	CHECK(!fr_robots_allowed(r, "/private/x"));
	fr_robots_free(r);
	/* No token (NULL, empty, or not starting with a letter): only "*" applies. */
	r = parse_str(text, NULL);
	CHECK(!fr_robots_allowed(r, "/public"));
	fr_robots_free(r);
	r = parse_str(text, "0freshet");
	CHECK(!fr_robots_allowed(r, "/public"));
	fr_robots_free(r);
	/* The default User-Agent of the fetcher names the same token. */
	r = parse_str(text, "freshet/" FR_FETCH_VERSION " (+" FR_FETCH_CONTACT_DEFAULT ")");
	CHECK(fr_robots_allowed(r, "/public"));
	fr_robots_free(r);
}

static void
test_paths(void)
{
	struct fr_robots *r =
	    parse_str("User-agent: *\nDisallow: /a\nSitemap: http://x/s.xml\n", "x");

	CHECK(fr_robots_n_rules(r) == 1);
	CHECK_STR(fr_robots_sitemap(r, 0), "http://x/s.xml");
	CHECK(fr_robots_sitemap(r, 1) == NULL);
	CHECK(!fr_robots_allowed(r, "a")); /* a missing leading slash is added */
	CHECK(fr_robots_allowed(r, ""));   /* "" is "/" */
	CHECK(fr_robots_allowed(r, NULL));
	CHECK(fr_robots_allowed(r, "?a=1"));  /* "/?a=1" */
	CHECK(fr_robots_allowed(NULL, "/a")); /* no rules */
	CHECK(fr_robots_crawl_delay_s(NULL) == -1);
	fr_robots_free(r);
	fr_robots_free(NULL);

	/* Long paths (beyond the matcher's stack buffer) and a pathological pattern. */
	{
		size_t n = 20000;
		char *p = malloc(n + 2);

		p[0] = '/';
		memset(p + 1, 'a', n);
		p[n + 1] = '\0';
		r = parse_str("User-agent: *\nDisallow: /*a*a*a*a*a*a*a*a*b\nDisallow: /aaa$\n",
		              "x");
		CHECK(fr_robots_allowed(r, p));
		p[n] = 'b';
		CHECK(!fr_robots_allowed(r, p));
		fr_robots_free(r);
		free(p);
	}
}

/* Only the first FR_ROBOTS_MAX_BYTES are read. */
static void
test_size_cap(void)
{
	size_t filler = FR_ROBOTS_MAX_BYTES + 1000, n = 0;
	char *text = malloc(filler + 256);
	struct fr_robots *r;

	n += (size_t)snprintf(text + n, 64, "User-agent: *\nDisallow: /early\n");
	while (n < filler) {
		memcpy(text + n, "# padding padding padding padding padding padding padding\n", 59);
		n += 59;
	}
	n += (size_t)snprintf(text + n, 64, "Disallow: /late\n");
	r = fr_robots_parse(text, n, "x");
	CHECK(!fr_robots_allowed(r, "/early"));
	CHECK(fr_robots_allowed(r, "/late"));
	fr_robots_free(r);
	/* Without the filler, /late is honoured. */
	r = parse_str("User-agent: *\nDisallow: /early\nDisallow: /late\n", "x");
	CHECK(!fr_robots_allowed(r, "/late"));
	fr_robots_free(r);
	free(text);
}

static void
test_status_rules(void)
{
	const char *body = "User-agent: *\nDisallow: /x\n";
	struct {
		long status;
		int allowed_y, allowed_x, unreachable;
	} cases[] = {
	    {200, 1, 0, 0},                                 /* parsed */
	    {404, 1, 1, 0},                                 /* unavailable: allow all */
	    {410, 1, 1, 0}, {401, 1, 1, 0}, {301, 1, 1, 0}, /* redirects left over */
	    {429, 0, 0, 1}, /* too many requests counts as unreachable */
	    {500, 0, 0, 1}, {503, 0, 0, 1}, {0, 0, 0, 1}, /* no answer */
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int down = -1;
		struct fr_robots *r =
		    fr_robots_for_status(cases[i].status, body, strlen(body), "bot", &down);

		CHECK(r != NULL);
		CHECK(fr_robots_allowed(r, "/y") == cases[i].allowed_y);
		CHECK(fr_robots_allowed(r, "/x") == cases[i].allowed_x);
		CHECK(fr_robots_allowed(r, "/robots.txt"));
		CHECK(down == cases[i].unreachable);
		fr_robots_free(r);
	}
}

static void
test_robots_url(void)
{
	char *u;

	u = fr_robots_url("https://Example.COM:8443/a/b?c=d#e");
	CHECK_STR(u, "https://example.com:8443/robots.txt");
	free(u);
	u = fr_robots_url("http://example.com:80/feed.xml");
	CHECK_STR(u, "http://example.com/robots.txt");
	free(u);
	u = fr_robots_url("HTTP://example.com");
	CHECK_STR(u, "http://example.com/robots.txt");
	free(u);
	u = fr_robots_url("http://[::1]:8080/x");
	CHECK_STR(u, "http://[::1]:8080/robots.txt");
	free(u);
	CHECK(fr_robots_url("ftp://example.com/x") == NULL);
	CHECK(fr_robots_url("not a url") == NULL);
	CHECK(fr_robots_url(NULL) == NULL);
}

static const char BODY[] = "User-agent: freshet\nDisallow: /private\nCrawl-delay: 3\n";
static const char SLOW[] = "User-agent: *\nCrawl-delay: 600\n";

static void
test_cache_fetch_once_then_rules(void)
{
	struct fr_robots_cache *c;
	char err[256];
	double d = 0;
	const double t0 = 1e9;

	CHECK(fr_robots_cache_new(&c, "freshet/0.1", NULL, err, sizeof(err)) == 0);
	CHECK(fr_robots_cache_check(c, "http://a.test/x", t0, &d) == FR_ROBOTS_FETCH);
	CHECK(d == -1);
	/* Handed out once: the origin is pending for everyone else, any path. */
	CHECK(fr_robots_cache_check(c, "http://a.test/y", t0 + 1, NULL) == FR_ROBOTS_PENDING);
	CHECK(fr_robots_cache_check(c, "http://A.test:80/z", t0 + 1, NULL) == FR_ROBOTS_PENDING);
	/* Another scheme or port is another origin. */
	CHECK(fr_robots_cache_check(c, "https://a.test/x", t0 + 1, NULL) == FR_ROBOTS_FETCH);
	CHECK(fr_robots_cache_check(c, "http://a.test:8080/x", t0 + 1, NULL) == FR_ROBOTS_FETCH);
	CHECK(fr_robots_cache_len(c) == 3);
	CHECK(fr_robots_cache_put(c, "http://a.test/robots.txt", 200, BODY, strlen(BODY), t0 + 2) ==
	      0);
	CHECK(fr_robots_cache_check(c, "http://a.test/public", t0 + 3, &d) == FR_ROBOTS_ALLOWED);
	CHECK(d == 3);
	CHECK(fr_robots_cache_check(c, "http://a.test/private/1?q", t0 + 3, &d) ==
	      FR_ROBOTS_DENIED);
	CHECK(fr_robots_cache_check(c, "http://a.test/public?x=1", t0 + 3, NULL) ==
	      FR_ROBOTS_ALLOWED);
	/* Still valid just before a day, refetched after. */
	CHECK(fr_robots_cache_check(c, "http://a.test/public", t0 + 2 + 86399, NULL) ==
	      FR_ROBOTS_ALLOWED);
	CHECK(fr_robots_cache_check(c, "http://a.test/public", t0 + 2 + 86400, NULL) ==
	      FR_ROBOTS_FETCH);
	CHECK(fr_robots_cache_check(c, "http://a.test/public", t0 + 2 + 86401, NULL) ==
	      FR_ROBOTS_PENDING);
	/* An unanswered FETCH is handed out again after pending_s (120 s). */
	CHECK(fr_robots_cache_check(c, "http://a.test/public", t0 + 2 + 86400 + 120, NULL) ==
	      FR_ROBOTS_FETCH);
	/* Not http(s): allowed, nothing stored. */
	CHECK(fr_robots_cache_check(c, "mailto:x@y", t0, &d) == FR_ROBOTS_ALLOWED && d == -1);
	CHECK(fr_robots_cache_put(c, "mailto:x@y", 200, "", 0, t0) == -1);
	fr_robots_cache_free(c);
}

static void
test_cache_unreachable(void)
{
	struct fr_robots_cache *c;
	struct fr_robots_cache_opts o = {0};
	const double t0 = 1e9, day = 86400;
	double d;

	o.max_crawl_delay_s = 60;
	CHECK(fr_robots_cache_new(&c, "freshet", &o, NULL, 0) == 0);
	/* 5xx with no copy: everything denied, retried after retry_s (600 s). */
	CHECK(fr_robots_cache_check(c, "http://b.test/x", t0, NULL) == FR_ROBOTS_FETCH);
	CHECK(fr_robots_cache_put(c, "http://b.test/", 503, NULL, 0, t0) == 0);
	CHECK(fr_robots_cache_check(c, "http://b.test/x", t0 + 1, NULL) == FR_ROBOTS_DENIED);
	CHECK(fr_robots_cache_check(c, "http://b.test/robots.txt", t0 + 1, NULL) ==
	      FR_ROBOTS_ALLOWED);
	CHECK(fr_robots_cache_check(c, "http://b.test/x", t0 + 599, NULL) == FR_ROBOTS_DENIED);
	CHECK(fr_robots_cache_check(c, "http://b.test/x", t0 + 600, NULL) == FR_ROBOTS_FETCH);
	/* Unreachable for 30 days with no copy: allowed (RFC 9309 2.3.1.4). */
	CHECK(fr_robots_cache_put(c, "http://b.test/", 0, NULL, 0, t0 + 29 * day) == 0);
	CHECK(fr_robots_cache_check(c, "http://b.test/x", t0 + 29 * day, NULL) == FR_ROBOTS_DENIED);
	CHECK(fr_robots_cache_put(c, "http://b.test/", 0, NULL, 0, t0 + 30 * day) == 0);
	CHECK(fr_robots_cache_check(c, "http://b.test/x", t0 + 30 * day, NULL) ==
	      FR_ROBOTS_ALLOWED);
	/* A good answer ends the run of failures. */
	CHECK(fr_robots_cache_put(c, "http://b.test/", 200, BODY, strlen(BODY), t0 + 31 * day) ==
	      0);
	CHECK(fr_robots_cache_check(c, "http://b.test/private", t0 + 31 * day, NULL) ==
	      FR_ROBOTS_DENIED);
	/* Unreachable later: the last good copy is kept (and retried sooner). */
	CHECK(fr_robots_cache_put(c, "http://b.test/", 500, NULL, 0, t0 + 32 * day) == 0);
	CHECK(fr_robots_cache_check(c, "http://b.test/public", t0 + 32 * day, NULL) ==
	      FR_ROBOTS_ALLOWED);
	CHECK(fr_robots_cache_check(c, "http://b.test/private", t0 + 32 * day, NULL) ==
	      FR_ROBOTS_DENIED);
	CHECK(fr_robots_cache_check(c, "http://b.test/public", t0 + 32 * day + 600, NULL) ==
	      FR_ROBOTS_FETCH);
	/* ... however long the failures last. */
	CHECK(fr_robots_cache_put(c, "http://b.test/", 500, NULL, 0, t0 + 90 * day) == 0);
	CHECK(fr_robots_cache_check(c, "http://b.test/public", t0 + 90 * day, NULL) ==
	      FR_ROBOTS_ALLOWED);
	CHECK(fr_robots_cache_check(c, "http://b.test/private", t0 + 90 * day, NULL) ==
	      FR_ROBOTS_DENIED);
	/* 404: everything allowed for a day. */
	CHECK(fr_robots_cache_put(c, "http://b.test/", 404, "nope", 4, t0 + 63 * day) == 0);
	CHECK(fr_robots_cache_check(c, "http://b.test/private", t0 + 63 * day, &d) ==
	      FR_ROBOTS_ALLOWED);
	CHECK(d == -1);
	/* Crawl-delay over max_crawl_delay_s is capped. */
	CHECK(fr_robots_cache_put(c, "http://slow.test/", 200, SLOW, strlen(SLOW), t0) == 0);
	CHECK(fr_robots_cache_check(c, "http://slow.test/", t0, &d) == FR_ROBOTS_ALLOWED);
	CHECK(d == 60);
	fr_robots_cache_free(c);
}

static void
test_cache_put_response(void)
{
	struct fr_robots_cache *c;
	struct fr_response res;
	const double t0 = 1e9;

	CHECK(fr_robots_cache_new(&c, "freshet", NULL, NULL, 0) == 0);
	memset(&res, 0, sizeof(res));
	res.outcome = FR_NET_OK;
	res.status = 200;
	res.body = (char *)BODY;
	res.len = strlen(BODY);
	CHECK(fr_robots_cache_put_response(c, "http://c.test/robots.txt", &res, t0) == 0);
	CHECK(fr_robots_cache_check(c, "http://c.test/private", t0, NULL) == FR_ROBOTS_DENIED);
	/* 304 renews the rules for another day. */
	memset(&res, 0, sizeof(res));
	res.outcome = FR_NET_NOT_MODIFIED;
	res.status = 304;
	CHECK(fr_robots_cache_put_response(c, "http://c.test/robots.txt", &res, t0 + 86000) == 0);
	CHECK(fr_robots_cache_check(c, "http://c.test/private", t0 + 86400 + 100, NULL) ==
	      FR_ROBOTS_DENIED);
	/* A timeout counts as unreachable: the copy stays. */
	res.outcome = FR_NET_TIMEOUT;
	res.status = 0;
	CHECK(fr_robots_cache_put_response(c, "http://c.test/robots.txt", &res, t0 + 2 * 86400) ==
	      0);
	CHECK(fr_robots_cache_check(c, "http://c.test/public", t0 + 2 * 86400, NULL) ==
	      FR_ROBOTS_ALLOWED);
	CHECK(fr_robots_cache_check(c, "http://c.test/private", t0 + 2 * 86400, NULL) ==
	      FR_ROBOTS_DENIED);
	/* A 404 answer (HTTP_ERROR) allows all. */
	res.outcome = FR_NET_HTTP_ERROR;
	res.status = 404;
	CHECK(fr_robots_cache_put_response(c, "http://c.test/robots.txt", &res, t0 + 3 * 86400) ==
	      0);
	CHECK(fr_robots_cache_check(c, "http://c.test/private", t0 + 3 * 86400, NULL) ==
	      FR_ROBOTS_ALLOWED);
	/* A DNS failure on a new origin: denied until retried. */
	res.outcome = FR_NET_DNS;
	res.status = 0;
	CHECK(fr_robots_cache_put_response(c, "http://d.test/robots.txt", &res, t0) == 0);
	CHECK(fr_robots_cache_check(c, "http://d.test/", t0, NULL) == FR_ROBOTS_DENIED);
	fr_robots_cache_free(c);
}

/* Stand-in rules for a robots.txt that could not be had are told apart
 * from a server's own, with the failure's cause (issue 23 item 5). */
static void
test_cache_unreachable_cause(void)
{
	struct fr_robots_cache *c;
	struct fr_response res;
	char why[256];
	int out = -1;
	long st = -1;
	const double t0 = 1e9;

	CHECK(fr_robots_cache_new(&c, "freshet", NULL, NULL, 0) == 0);
	memset(&res, 0, sizeof(res));
	/* A DNS failure: denied, its message kept. */
	res.outcome = FR_NET_DNS;
	snprintf(res.err, sizeof(res.err), "http://d.test/robots.txt: Could not resolve host: d.test");
	CHECK(fr_robots_cache_put_response(c, "http://d.test/robots.txt", &res, t0) == 0);
	CHECK(fr_robots_cache_check(c, "http://d.test/feed", t0, NULL) == FR_ROBOTS_DENIED);
	CHECK(fr_robots_cache_unreachable(c, "http://d.test/feed", why, sizeof(why), &out, &st) == 1);
	CHECK_STR(why, "http://d.test/robots.txt: Could not resolve host: d.test");
	CHECK(out == FR_NET_DNS && st == 0);
	/* A 503: denied, named by its status. */
	memset(&res, 0, sizeof(res));
	res.outcome = FR_NET_HTTP_ERROR;
	res.status = 503;
	CHECK(fr_robots_cache_put_response(c, "http://e.test/robots.txt", &res, t0) == 0);
	CHECK(fr_robots_cache_check(c, "http://e.test/feed", t0, NULL) == FR_ROBOTS_DENIED);
	CHECK(fr_robots_cache_unreachable(c, "http://e.test/x", why, sizeof(why), &out, &st) == 1);
	CHECK_STR(why, "robots.txt answered HTTP 503");
	CHECK(out == FR_NET_HTTP_ERROR && st == 503);
	/* Rules a server answered with are no stand-in; nor is a 404 (allow all). */
	CHECK(fr_robots_cache_put(c, "http://f.test/", 200, BODY, strlen(BODY), t0) == 0);
	CHECK(fr_robots_cache_check(c, "http://f.test/private", t0, NULL) == FR_ROBOTS_DENIED);
	CHECK(fr_robots_cache_unreachable(c, "http://f.test/private", why, sizeof(why), NULL,
	                                  NULL) == 0);
	res.status = 404;
	CHECK(fr_robots_cache_put_response(c, "http://g.test/robots.txt", &res, t0) == 0);
	CHECK(fr_robots_cache_unreachable(c, "http://g.test/", NULL, 0, NULL, NULL) == 0);
	/* Unreachable with a good copy: the copy's rules serve, not a stand-in. */
	res.status = 503;
	CHECK(fr_robots_cache_put_response(c, "http://f.test/robots.txt", &res, t0 + 90000) == 0);
	CHECK(fr_robots_cache_unreachable(c, "http://f.test/private", NULL, 0, NULL, NULL) == 0);
	/* An origin never asked about. */
	CHECK(fr_robots_cache_unreachable(c, "http://h.test/", NULL, 0, NULL, NULL) == 0);
	fr_robots_cache_free(c);
}

static void
test_cache_eviction(void)
{
	struct fr_robots_cache *c;
	struct fr_robots_cache_opts o = {0};
	char url[64];
	const double t0 = 1e9;

	o.max_entries = 50;
	CHECK(fr_robots_cache_new(&c, "freshet", &o, NULL, 0) == 0);
	for (int i = 0; i < 500; i++) {
		snprintf(url, sizeof(url), "http://h%d.test/", i);
		/* Each answered at once: alive for a day from t0 + i. */
		CHECK(fr_robots_cache_put(c, url, 404, NULL, 0, t0 + i) == 0);
		CHECK(fr_robots_cache_len(c) <= 50);
	}
	/* The newest stay; the oldest went first. */
	CHECK(fr_robots_cache_check(c, "http://h499.test/x", t0 + 500, NULL) == FR_ROBOTS_ALLOWED);
	CHECK(fr_robots_cache_check(c, "http://h0.test/x", t0 + 500, NULL) == FR_ROBOTS_FETCH);
	CHECK(fr_robots_cache_len(c) <= 50);
	/* After every entry expired, one sweep frees them all. */
	for (int i = 0; i < 60; i++) {
		snprintf(url, sizeof(url), "http://late%d.test/", i);
		CHECK(fr_robots_cache_put(c, url, 404, NULL, 0, t0 + 2 * 86400) == 0);
	}
	CHECK(fr_robots_cache_len(c) <= 50);
	CHECK(fr_robots_cache_check(c, "http://late59.test/", t0 + 2 * 86400, NULL) ==
	      FR_ROBOTS_ALLOWED);
	fr_robots_cache_free(c);
}

int
main(void)
{
	RUN(test_golden_table);
	RUN(test_product_token_from_user_agent);
	RUN(test_paths);
	RUN(test_size_cap);
	RUN(test_status_rules);
	RUN(test_robots_url);
	RUN(test_cache_fetch_once_then_rules);
	RUN(test_cache_unreachable);
	RUN(test_cache_put_response);
	RUN(test_cache_unreachable_cause);
	RUN(test_cache_eviction);
	return TEST_DONE();
}
