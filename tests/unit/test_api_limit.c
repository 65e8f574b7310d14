/* test_api_limit.c - rate limits learned from API responses (lib/api/limit.h)
 * with each rule's figures: X-RateLimit-* with a reset in epoch seconds,
 * milliseconds, delta seconds or ISO 8601; Reddit's used + remaining; the
 * IETF fields in the older and the newer drafts' forms; the Graph API's
 * usage percentages; Retry-After and its cap; the slow-down bodies; and that
 * no call is ever allowed while the API says none are left. Also the token
 * scrubber (lib/api/scrub.h). */
#include "api/limit.h"
#include "api/scrub.h"

#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOW 1700000000.0 /* 2023-11-14T22:13:20Z */

/* A header block given as a C string. */
static int
headers(struct fr_api_limit *l, const char *block, double now)
{
	return fr_api_limit_headers(l, block, strlen(block), now);
}

static double
until_of(const struct fr_api_limit *l, double now)
{
	double u = -2;

	if (fr_api_limit_may_call(l, now, &u))
		return now;
	return u;
}

static void
test_x_ratelimit(void)
{
	struct fr_api_limit l;

	/* GitHub's: reset as Unix seconds */
	fr_api_limit_init(&l);
	CHECK(fr_api_limit_header(&l, "X-RateLimit-Limit", "5000", NOW) == 1);
	CHECK(fr_api_limit_header(&l, "x-ratelimit-remaining", " 4999 ", NOW) == 1);
	CHECK(fr_api_limit_header(&l, "X-RATELIMIT-RESET", "1700003600", NOW) == 1);
	CHECK(l.limit == 5000 && l.remaining == 4999 && l.reset_at_s == 1700003600);
	CHECK(l.seen == FR_API_SEEN_XRATELIMIT && l.learned_s == NOW);
	CHECK(fr_api_limit_may_call(&l, NOW, NULL) == 1);
	/* delta seconds, milliseconds */
	CHECK(fr_api_limit_header(&l, "X-RateLimit-Reset", "60", NOW) == 1 &&
	      l.reset_at_s == NOW + 60);
	CHECK(fr_api_limit_header(&l, "X-RateLimit-Reset", "1700000600000", NOW) == 1 &&
	      l.reset_at_s == 1700000600);
	/* Twitter's spelling */
	CHECK(fr_api_limit_header(&l, "X-Rate-Limit-Remaining", "7", NOW) == 1 && l.remaining == 7);
	/* not understood: nothing changes */
	CHECK(fr_api_limit_header(&l, "X-RateLimit-Remaining", "lots", NOW) == 0 &&
	      l.remaining == 7);
	CHECK(fr_api_limit_header(&l, "X-RateLimit-Remaining", "-1", NOW) == 0 && l.remaining == 7);
	CHECK(fr_api_limit_header(&l, "X-Frame-Options", "DENY", NOW) == 0);

	/* Mastodon's: 300 per 5 minutes, reset as ISO 8601; none left */
	fr_api_limit_init(&l);
	CHECK(headers(&l,
	              "HTTP/1.1 200 OK\r\nX-RateLimit-Limit: 300\r\nX-RateLimit-Remaining: 0\r\n"
	              "X-RateLimit-Reset: 2023-11-14T22:18:20.123Z\r\nContent-Type: "
	              "application/json\r\n\r\n",
	              NOW) == 3);
	CHECK(l.limit == 300 && l.remaining == 0 && l.reset_at_s == 1700000300);
	CHECK(until_of(&l, NOW) == 1700000300);
	CHECK(until_of(&l, 1700000299.9) == 1700000300);
	CHECK(fr_api_limit_may_call(&l, 1700000300, NULL) == 1);
	/* the first call of the new window: 299 left, reset no longer known */
	fr_api_limit_spend(&l, 1700000300);
	CHECK(l.remaining == 299 && l.reset_at_s == -1);

	/* Reddit's: used and remaining (a float), reset in seconds, no limit */
	fr_api_limit_init(&l);
	CHECK(headers(&l,
	              "x-ratelimit-used: 4\nx-ratelimit-remaining: 596.0\nx-ratelimit-reset: 412\n",
	              NOW) == 3);
	CHECK(l.limit == 600 && l.remaining == 596 && l.reset_at_s == NOW + 412);
	/* the next response's used goes with its own remaining */
	CHECK(headers(&l, "x-ratelimit-remaining: 590.0\nx-ratelimit-used: 10\n", NOW + 1) == 2);
	CHECK(l.limit == 600 && l.remaining == 590);
}

static void
test_ietf(void)
{
	struct fr_api_limit l;
	double calls, w;

	/* older drafts: three fields, the policy in RateLimit-Limit */
	fr_api_limit_init(&l);
	CHECK(fr_api_limit_header(&l, "RateLimit-Limit", "100, 100;w=60, 1000;w=86400", NOW) == 1);
	CHECK(fr_api_limit_header(&l, "RateLimit-Remaining", "50", NOW) == 1);
	CHECK(fr_api_limit_header(&l, "RateLimit-Reset", "30", NOW) == 1);
	CHECK(l.limit == 100 && l.window_s == 60 && l.remaining == 50 && l.reset_at_s == NOW + 30);
	CHECK(l.seen == FR_API_SEEN_IETF);
	CHECK(fr_api_limit_budget(&l, &calls, &w) == 0 && calls == 100 && w == 60);
	/* older RateLimit-Policy */
	fr_api_limit_init(&l);
	CHECK(fr_api_limit_header(&l, "RateLimit-Policy", "10;w=1, 1000;w=3600", NOW) == 1);
	CHECK(l.limit == 10 && l.window_s == 1);

	/* newer drafts: named policies, the one with the fewest calls left rules */
	fr_api_limit_init(&l);
	CHECK(headers(&l,
	              "RateLimit-Policy: \"burst\";q=100;w=60, \"daily\";q=1000;w=86400\r\n"
	              "RateLimit: \"burst\";r=50;t=30, \"daily\";r=20;t=3600\r\n",
	              NOW) == 2);
	CHECK(l.remaining == 20 && l.reset_at_s == NOW + 3600 && l.limit == 1000 &&
	      l.window_s == 86400);
	/* the same fields the other way round */
	fr_api_limit_init(&l);
	CHECK(headers(&l,
	              "RateLimit: \"burst\";r=50;t=30, \"daily\";r=20;t=3600\r\n"
	              "RateLimit-Policy: \"burst\";q=100;w=60, \"daily\";q=1000;w=86400\r\n",
	              NOW) == 2);
	CHECK(l.remaining == 20 && l.limit == 1000 && l.window_s == 86400);
	/* with a partition key and a quota unit, which are skipped */
	fr_api_limit_init(&l);
	CHECK(fr_api_limit_header(
	          &l, "RateLimit-Policy",
	          "\"default\";q=100;qu=\"requests\";w=60;pk=:cHsdsRa894==:", NOW) == 1);
	CHECK(fr_api_limit_header(&l, "RateLimit", "\"default\";r=0;t=30;pk=:cHsdsRa894==:", NOW) ==
	      1);
	CHECK(l.limit == 100 && l.window_s == 60 && l.remaining == 0 && l.reset_at_s == NOW + 30);
	CHECK(until_of(&l, NOW) == NOW + 30);
	/* draft 07's dictionary */
	fr_api_limit_init(&l);
	CHECK(fr_api_limit_header(&l, "RateLimit", "limit=100, remaining=0, reset=7", NOW) == 1);
	CHECK(l.limit == 100 && l.remaining == 0 && l.reset_at_s == NOW + 7);
	CHECK(fr_api_limit_header(&l, "RateLimit", "\"x\";q", NOW) == 0);
	CHECK(fr_api_limit_budget(&l, &calls, &w) == -1); /* no window known */
}

static void
test_graph_usage(void)
{
	struct fr_api_limit l;

	fr_api_limit_init(&l);
	CHECK(fr_api_limit_header(&l, "X-App-Usage",
	                          "{\"call_count\":28,\"total_time\":25,\"total_cputime\":25}",
	                          NOW) == 1);
	CHECK(l.usage_pct == 28 && fr_api_limit_may_call(&l, NOW, NULL));
	/* any figure at 100: none left; no time given: the default wait */
	CHECK(fr_api_limit_header(&l, "x-app-usage",
	                          "{\"call_count\":12,\"total_time\":100,\"total_cputime\":5}",
	                          NOW) == 1);
	CHECK(l.usage_pct == 100 && until_of(&l, NOW) == NOW + 60);
	CHECK(fr_api_limit_response(&l, 200, "{\"data\":[]}", 11, NOW, NULL) == FR_API_SLOW_USAGE);
	l.default_wait_s = 300;
	CHECK(until_of(&l, NOW + 10) == NOW + 300);
	/* at the end of the wait one call may probe */
	CHECK(fr_api_limit_may_call(&l, NOW + 300, NULL) == 1);

	/* the business use case's estimate, in minutes */
	fr_api_limit_init(&l);
	CHECK(
	    fr_api_limit_header(
	        &l, "X-Business-Use-Case-Usage",
	        "{\"104526031279046\":[{\"type\":\"pages\",\"call_count\":100,\"total_cputime\":25,"
	        "\"total_time\":25,\"estimated_time_to_regain_access\":19}]}",
	        NOW) == 1);
	CHECK(l.usage_pct == 100 && l.reset_at_s == NOW + 19 * 60 &&
	      until_of(&l, NOW) == NOW + 1140);

	/* one response's usage headers combine (the highest); the next
	 * response's replace them */
	fr_api_limit_init(&l);
	CHECK(headers(&l,
	              "X-App-Usage: {\"call_count\":20}\r\nX-Business-Use-Case-Usage: "
	              "{\"1\":[{\"call_count\":97,"
	              "\"total_time\":3}], \"2\": [{\"total_cputime\": 64}]}\r\nX-App-Usage: "
	              "{\"call_count\":21}\r\n",
	              NOW) == 3);
	CHECK(l.usage_pct == 97);
	CHECK(headers(&l, "X-App-Usage: {\"call_count\":10,\"total_time\":2}\r\n", NOW + 5) == 1);
	CHECK(l.usage_pct == 10);
	CHECK(headers(&l, "Content-Type: text/html\r\n", NOW + 6) == 0 && l.usage_pct == 10);
	/* the ads account's */
	CHECK(fr_api_limit_header(&l, "X-Ad-Account-Usage",
	                          "{\"acc_id_util_pct\":100,\"reset_time_duration\":120,\"ads_api_"
	                          "access_tier\":\"standard_access\"}",
	                          NOW) == 1);
	CHECK(l.usage_pct == 100 && until_of(&l, NOW) == NOW + 120);
	/* not JSON, not an object */
	CHECK(fr_api_limit_header(&l, "X-App-Usage", "{call_count:5}", NOW) == 0);
	CHECK(fr_api_limit_header(&l, "X-App-Usage", "[1,2]", NOW) == 0);
	CHECK(l.usage_pct == 100);
}

static void
test_retry_after(void)
{
	struct fr_api_limit l;

	fr_api_limit_init(&l);
	CHECK(fr_api_limit_header(&l, "Retry-After", "120", NOW) == 1 &&
	      l.hold_until_s == NOW + 120);
	CHECK(until_of(&l, NOW) == NOW + 120 && l.seen == FR_API_SEEN_RETRY);
	CHECK(fr_api_limit_header(&l, "Retry-After", "Tue, 14 Nov 2023 22:18:20 GMT", NOW) == 1 &&
	      l.hold_until_s == 1700000300);
	/* capped as the crawler caps it: a day, or the knob */
	CHECK(fr_api_limit_header(&l, "Retry-After", "999999999", NOW) == 1 &&
	      l.hold_until_s == NOW + 86400);
	l.cap_s = 3600;
	CHECK(fr_api_limit_header(&l, "Retry-After", "7200", NOW) == 1 &&
	      l.hold_until_s == NOW + 3600);
	CHECK(fr_api_limit_header(&l, "X-RateLimit-Reset", "1800000000", NOW) == 1 &&
	      l.reset_at_s == NOW + 3600);
	CHECK(fr_api_limit_header(&l, "Retry-After", "soon", NOW) == 0 &&
	      l.hold_until_s == NOW + 3600);
}

static void
test_slow_down_bodies(void)
{
	static const char graph4[] =
	    "{\"error\":{\"message\":\"(#4) Application request limit reached\","
	    "\"type\":\"OAuthException\",\"is_transient\":true,\"code\":4,"
	    "\"fbtrace_id\":\"AOyy8bJQjjhyVw5Dbcy0V9z\"}}";
	static const char graph190[] = "{\"error\":{\"message\":\"Invalid OAuth access token\","
	                               "\"type\":\"OAuthException\",\"code\":190}}";
	static const char masto[] = "{\"error\":\"Too many requests\"}";
	static const char reddit[] = "{\"message\": \"Too Many Requests\", \"error\": 429}";
	static const long codes[] = {4, 17, 32, 613, 80001, 80014};
	struct fr_api_limit l;
	long code = -1;

	fr_api_limit_init(&l);
	CHECK(fr_api_limit_response(&l, 400, graph4, sizeof(graph4) - 1, NOW, &code) ==
	      FR_API_SLOW_GRAPH);
	CHECK(code == 4 && l.remaining == 0 && l.hold_until_s == NOW + 60 &&
	      l.seen == FR_API_SEEN_BODY);
	CHECK(until_of(&l, NOW) == NOW + 60);
	for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++) {
		char body[128];

		fr_api_limit_init(&l);
		snprintf(body, sizeof(body), "{\"error\":{\"message\":\"x\",\"code\":%ld}}",
		         codes[i]);
		/* a reset already known is the end of the hold */
		fr_api_limit_header(&l, "X-RateLimit-Reset", "600", NOW);
		CHECK(fr_api_limit_response(&l, 403, body, strlen(body), NOW, &code) ==
		      FR_API_SLOW_GRAPH);
		CHECK(code == codes[i] && l.hold_until_s == NOW + 600 &&
		      until_of(&l, NOW + 599) == NOW + 600);
	}
	/* an expired token is no reason to slow down */
	fr_api_limit_init(&l);
	CHECK(fr_api_limit_response(&l, 400, graph190, sizeof(graph190) - 1, NOW, &code) ==
	      FR_API_SLOW_NONE);
	CHECK(code == 190 && l.remaining == -1 && fr_api_limit_may_call(&l, NOW, NULL));
	/* 429s; a Retry-After already learned sets the hold */
	fr_api_limit_init(&l);
	fr_api_limit_header(&l, "Retry-After", "30", NOW);
	CHECK(fr_api_limit_response(&l, 429, masto, sizeof(masto) - 1, NOW, &code) ==
	      FR_API_SLOW_STATUS);
	CHECK(code == 0 && l.hold_until_s == NOW + 30 && l.remaining == 0);
	fr_api_limit_init(&l);
	CHECK(fr_api_limit_response(&l, 429, reddit, sizeof(reddit) - 1, NOW, &code) ==
	      FR_API_SLOW_STATUS);
	CHECK(code == 429 && until_of(&l, NOW) == NOW + 60);
	fr_api_limit_init(&l);
	CHECK(fr_api_limit_response(&l, 429, "<html>Too Many Requests</html>", 30, NOW, &code) ==
	      FR_API_SLOW_STATUS);
	CHECK(fr_api_limit_response(&l, 200, NULL, 0, NOW, NULL) == FR_API_SLOW_NONE);
}

/* A Graph throttle body sets remaining 0, which X-App-Usage (percentages,
 * no count) never sets back: the state must recover. The throttle holds
 * until its estimate; a call let through or a usage under 100% then
 * releases it; a later 100% waits again (a hold long over does not excuse
 * it); throttles in a row back off, doubling; the caller's estimate of the
 * reset is used until a throttle shows it wrong, then never again. */
static void
test_graph_throttle_recovers(void)
{
	static const char graph4[] =
	    "{\"error\":{\"message\":\"(#4) Application request limit reached\","
	    "\"type\":\"OAuthException\",\"is_transient\":true,\"code\":4}}";
	struct fr_api_limit l;

	fr_api_limit_init(&l);
	CHECK(headers(&l, "X-App-Usage: {\"call_count\":100,\"total_time\":9}\r\n", NOW) == 1);
	CHECK(fr_api_limit_response(&l, 403, graph4, sizeof(graph4) - 1, NOW, NULL) ==
	      FR_API_SLOW_GRAPH);
	CHECK(l.remaining == 0 && until_of(&l, NOW) == NOW + 60);
	/* the probe at the hold's end is let through, usage 20%: released */
	CHECK(fr_api_limit_may_call(&l, NOW + 60, NULL));
	fr_api_limit_spend(&l, NOW + 60);
	CHECK(headers(&l, "X-App-Usage: {\"call_count\":20}\r\n", NOW + 60) == 1);
	CHECK(fr_api_limit_response(&l, 200, "{\"data\":[]}", 11, NOW + 60, NULL) ==
	      FR_API_SLOW_NONE);
	CHECK(l.remaining == -1 && l.usage_pct == 20);
	CHECK(fr_api_limit_may_call(&l, NOW + 61, NULL));
	/* a usage header alone releases it too */
	fr_api_limit_init(&l);
	fr_api_limit_response(&l, 403, graph4, sizeof(graph4) - 1, NOW, NULL);
	CHECK(fr_api_limit_header(&l, "X-App-Usage", "{\"call_count\":35}", NOW + 100) == 1);
	CHECK(l.remaining == -1 && fr_api_limit_may_call(&l, NOW + 100, NULL));
	/* later, usage at 100% again: wait (the old hold does not excuse it) */
	CHECK(headers(&l, "X-App-Usage: {\"call_count\":100}\r\n", NOW + 500) == 1);
	CHECK(fr_api_limit_response(&l, 200, "{\"data\":[]}", 11, NOW + 500, NULL) ==
	      FR_API_SLOW_USAGE);
	CHECK(until_of(&l, NOW + 500) == NOW + 560);
	/* throttles in a row: 60, 120, 240 s ... at most an hour */
	fr_api_limit_init(&l);
	double t = NOW, want = 60;
	for (int k = 0; k < 8; k++) {
		CHECK(fr_api_limit_response(&l, 403, graph4, sizeof(graph4) - 1, t, NULL) ==
		      FR_API_SLOW_GRAPH);
		CHECK(until_of(&l, t) == t + want);
		t += want;
		want = want * 2 > 3600 ? 3600 : want * 2;
	}
	/* let through: the back-off starts over */
	headers(&l, "X-App-Usage: {\"call_count\":99}\r\n", t);
	fr_api_limit_response(&l, 200, "{}", 2, t, NULL);
	CHECK(fr_api_limit_response(&l, 403, graph4, sizeof(graph4) - 1, t + 1, NULL) ==
	      FR_API_SLOW_GRAPH);
	CHECK(until_of(&l, t + 1) == t + 61);
	/* the caller's estimate (its own limiter's next slot) rules a usage at
	 * 100% until a throttle shows it wrong */
	fr_api_limit_init(&l);
	fr_api_limit_expect_reset(&l, NOW + 7);
	headers(&l, "X-App-Usage: {\"call_count\":100}\r\n", NOW);
	CHECK(until_of(&l, NOW) == NOW + 7);
	CHECK(fr_api_limit_response(&l, 403, graph4, sizeof(graph4) - 1, NOW + 7, NULL) ==
	      FR_API_SLOW_GRAPH);
	CHECK(until_of(&l, NOW + 7) == NOW + 67);
	/* released, then 100% again: the estimate proved wrong, the wait is
	 * the default */
	headers(&l, "X-App-Usage: {\"call_count\":10}\r\n", NOW + 67);
	CHECK(fr_api_limit_may_call(&l, NOW + 67, NULL));
	fr_api_limit_expect_reset(&l, NOW + 70);
	headers(&l, "X-App-Usage: {\"call_count\":100}\r\n", NOW + 68);
	CHECK(until_of(&l, NOW + 68) == NOW + 128);
	/* X-RateLimit counts are not undone by a usage figure: a remaining
	 * count the API gave stays */
	fr_api_limit_init(&l);
	headers(&l, "X-RateLimit-Remaining: 0\r\nX-RateLimit-Reset: 30\r\n", NOW);
	CHECK(fr_api_limit_header(&l, "X-App-Usage", "{\"call_count\":5}", NOW) == 1);
	CHECK(l.remaining == 0 && until_of(&l, NOW) == NOW + 30);
}

/* Whatever the order of calls, never more than the API said were left
 * before its reset; the calls resume at the reset. */
static void
test_never_spends_past_zero(void)
{
	struct fr_api_limit l;
	int calls = 0, after = 0;

	fr_api_limit_init(&l);
	headers(&l, "RateLimit-Policy: \"app\";q=600;w=600\r\nRateLimit: \"app\";r=3;t=600\r\n",
	        NOW);
	CHECK(l.remaining == 3 && l.limit == 600);
	for (double t = NOW; t < NOW + 600; t += 0.5)
		if (fr_api_limit_may_call(&l, t, NULL)) {
			fr_api_limit_spend(&l, t);
			calls++;
		}
	CHECK(calls == 3);
	CHECK(until_of(&l, NOW + 599) == NOW + 600);
	/* the window resets: 600 again, the next reset a window later */
	for (double t = NOW + 600; t < NOW + 1200; t += 0.5)
		if (fr_api_limit_may_call(&l, t, NULL)) {
			fr_api_limit_spend(&l, t);
			after++;
		}
	CHECK(after == 600);
	CHECK(l.reset_at_s == NOW + 1200 && until_of(&l, NOW + 1199.5) == NOW + 1200);
	/* spent with remaining unknown: stays unknown */
	fr_api_limit_init(&l);
	fr_api_limit_spend(&l, NOW);
	CHECK(l.remaining == -1 && fr_api_limit_may_call(&l, NOW, NULL));
}

static void
test_scrub(void)
{
	char *s, buf[40];

	s = fr_api_scrub(
	    "GET https://graph.facebook.com/v19.0/1/posts?access_token=EAAB123xyz&limit=25: 400",
	    "EAAB123xyz");
	CHECK_STR(s, "GET https://graph.facebook.com/v19.0/1/posts?access_token=***&limit=25: 400");
	free(s);
	s = fr_api_scrub("token EAAB123xyz rejected; EAAB123xyz again", "EAAB123xyz");
	CHECK_STR(s, "token *** rejected; *** again");
	free(s);
	/* an app token "ID|SECRET" as a URL carries it */
	s = fr_api_scrub("next=https://g.f.com/x?after=1&token=123%7cabcSECRET", "123|abcSECRET");
	CHECK_STR(s, "next=https://g.f.com/x?after=1&token=***");
	free(s);
	/* no token given: the secret parameters still go */
	s = fr_api_scrub("https://x/y?Access_Token=zz&client_secret=s3&appsecret_proof=ab12&q=1",
	                 NULL);
	CHECK_STR(s, "https://x/y?Access_Token=***&client_secret=***&appsecret_proof=***&q=1");
	free(s);
	s = fr_api_scrub("my_access_token=kept access_token= empty", "");
	CHECK_STR(s, "my_access_token=kept access_token= empty");
	free(s);
	CHECK(fr_api_scrub(NULL, "x") == NULL);
	/* a one-letter token in a parameter's name (fuzz_api's finding) */
	s = fr_api_scrub("GET https://m/?access_token=Elin, ok", "e");
	CHECK_STR(s, "GET https://m/?acc***ss_tok***n=***, ok");
	free(s);
	/* a message cut short in the middle of the token */
	s = fr_api_scrub("error: bad token EAAB12", "EAAB123xyz");
	CHECK_STR(s, "error: bad token ***");
	free(s);
	/* in place, in a small buffer */
	snprintf(buf, sizeof(buf), "a EAAB123xyz b EAAB123xyz c");
	fr_api_scrub_buf(buf, sizeof(buf), "EAAB123xyz");
	CHECK_STR(buf, "a *** b *** c");
	snprintf(buf, sizeof(buf), "ab");
	fr_api_scrub_buf(buf, 3, "b");
	CHECK_STR(buf, "a*");
}

int
main(void)
{
	RUN(test_x_ratelimit);
	RUN(test_ietf);
	RUN(test_graph_usage);
	RUN(test_retry_after);
	RUN(test_slow_down_bodies);
	RUN(test_graph_throttle_recovers);
	RUN(test_never_spends_past_zero);
	RUN(test_scrub);
	return TEST_DONE();
}
