/* test_api_source.c - what the store keeps of an API source (lib/api/
 * source.h): the stored form's round trip, its errors, the shared limit's
 * key, the said figures back into a limit; the secrets stripped from a next
 * page's URL (api/scrub.h); and the scheduler's groups steered from an
 * API's limit (sched.h: fr_sched_set_group_limit, fr_sched_hold_group,
 * fr_sched_group_next, fr_sched_group_spend), with hand-worked figures. */
#include "api/scrub.h"
#include "api/source.h"
#include "core/err.h"
#include "sched/params.h"
#include "sched/policy.h"
#include "sched/sched.h"

#include "test.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void
test_round_trip(void)
{
	struct fr_api_source s, r;
	char err[256], *text;
	size_t len;

	fr_api_source_init(&s);
	CHECK(s.max_pages == FR_API_PAGES_DEFAULT && s.remaining == -1 && s.learned_s == -1);
	s.spec = "preset=graph\ntext=story";
	s.token_env = "FB_TOKEN";
	s.max_pages = 3;
	text = fr_api_source_format(&s, &len);
	CHECK(text != NULL);
	CHECK_STR(text, "token-env = FB_TOKEN\npages = 3\nspec:\npreset=graph\ntext=story");
	CHECK(strlen(text) == len);
	CHECK(fr_api_source_parse(text, len, &r, err, sizeof(err)) == 0);
	CHECK_STR(r.token_env, "FB_TOKEN");
	CHECK(r.token_file == NULL && r.max_pages == 3 && r.learned_s == -1);
	CHECK_STR(r.spec, "preset=graph\ntext=story");
	free(text);

	/* what the API said, through a limit state and back */
	struct fr_api_limit l, l2;
	fr_api_limit_init(&l);
	l.limit = 600;
	l.remaining = 412;
	l.reset_at_s = 1700000600;
	l.learned_s = 1700000000.25;
	fr_api_source_said(&r, &l);
	text = fr_api_source_format(&r, &len);
	CHECK(text && strstr(text, "said = 600 412 1700000600 -1 -1 -1 1700000000.25\n"));
	fr_api_source_clear(&r);
	CHECK(fr_api_source_parse(text, len, &r, err, sizeof(err)) == 0);
	fr_api_limit_init(&l2);
	fr_api_source_restore(&r, &l2);
	CHECK(l2.limit == 600 && l2.remaining == 412 && l2.reset_at_s == 1700000600 &&
	      l2.learned_s == 1700000000.25 && l2.window_s == -1);
	/* no call before the reset when none are left, after a restart too */
	l2.remaining = 0;
	CHECK(fr_api_limit_next(&l2, 1700000100) == 1700000600);
	free(text);
	fr_api_source_clear(&r);

	/* a token file, a key of each kind */
	char key[64];
	fr_api_source_init(&s);
	s.spec = "reddit";
	s.token_file = "/etc/freshet/reddit.token";
	CHECK_STR(fr_api_source_key(&s, "oauth.reddit.com", key, sizeof(key)),
		  "file:/etc/freshet/reddit.token");
	s.token_file = NULL;
	CHECK_STR(fr_api_source_key(&s, "oauth.reddit.com", key, sizeof(key)),
		  "host:oauth.reddit.com");
	s.token_env = "A\nB"; /* a value with a new line cannot be written */
	CHECK(fr_api_source_format(&s, &len) == NULL);
}

static void
test_errors(void)
{
	static const struct {
		const char *text, *err;
	} bad[] = {
	    {"token-env = A\n", "api source: no 'spec:'"},
	    {"tokenenv = A\nspec:\ngraph", "api source: line 1: key 'tokenenv' unknown"},
	    {"pages = 0\nspec:\ngraph", "api source: line 1: pages wants 1 to 1000"},
	    {"pages = 1001\nspec:\ngraph", "api source: line 1: pages wants 1 to 1000"},
	    {"\n\ntoken-env\nspec:\ngraph", "api source: line 3: expected 'key = value'"},
	    {"token-env = A\ntoken-env = B\nspec:\ngraph", "api source: line 2: token-env given twice"},
	    {"said = 1 2 3\nspec:\ngraph", "api source: line 1: said wants 7 numbers"},
	    {"spec:\ntiem=x", "api source: spec: api spec: key 'tiem' unknown at 1:1"},
	    {"spec:\npreset=twitter",
	     "api source: spec: api spec: preset 'twitter' unknown (graph, mastodon, reddit, "
	     "jsonapi) at 1:8"},
	};
	struct fr_api_source s;
	char err[256];

	for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		CHECK(fr_api_source_parse(bad[k].text, strlen(bad[k].text), &s, err, sizeof(err)) < 0);
		CHECK_STR(err, bad[k].err);
		CHECK(s.spec == NULL && s.token_env == NULL);
	}
	CHECK(fr_api_source_parse(NULL, 0, &s, err, sizeof(err)) < 0);
	CHECK_STR(err, "api source: no settings");
	/* comments and blanks are fine */
	const char *ok = "# an API source\n  token-file = /t  \n\npages=2\nspec:\nmastodon";
	CHECK(fr_api_source_parse(ok, strlen(ok), &s, err, sizeof(err)) == 0);
	CHECK_STR(s.token_file, "/t");
	CHECK(s.max_pages == 2);
	fr_api_source_clear(&s);
}

static void
test_url_strip(void)
{
	static const char *const cases[][2] = {
	    {"https://graph.facebook.com/v19.0/1/posts?access_token=ID%7CSECRET&limit=25&after=QVFI",
	     "https://graph.facebook.com/v19.0/1/posts?limit=25&after=QVFI"},
	    {"https://g.example/p?limit=25&ACCESS_TOKEN=x&appsecret_proof=y&after=z#f",
	     "https://g.example/p?limit=25&after=z#f"},
	    {"https://g.example/p?access_token=x", "https://g.example/p"},
	    {"https://g.example/p?access_token&a=1", "https://g.example/p?a=1"},
	    {"https://g.example/p?my_access_token=1", "https://g.example/p?my_access_token=1"},
	    {"https://g.example/p", "https://g.example/p"},
	    {"https://g.example/p#access_token=x", "https://g.example/p#access_token=x"},
	};
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		char *s = fr_api_url_strip(cases[k][0]);

		CHECK(s != NULL);
		if (s)
			CHECK_STR(s, cases[k][1]);
		free(s);
	}
	CHECK(fr_api_url_strip(NULL) == NULL);
}

/* A group of 2 sources, each on its own host, at 10 calls per 100 s paced:
 * one call every 10 s. */
static struct fr_sched *
two_sources(void)
{
	static struct fr_sched_group g = {10, 100};
	static uint32_t host[] = {0, 1}, group[] = {0, 0};
	static double w[] = {1, 1};
	static struct fr_policy_env env = {
	    .n_sources = 2, .weight = w, .group = group, .calls_per_s = 0.1, .seed = 1};
	struct fr_sched_config sc = {FR_RL_PACED, 0, 0, 1, &g, 2, group, host, 2};
	struct fr_params p;
	struct fr_sched *s = NULL;
	char err[FR_ERRLEN];

	env.host = host;
	env.n_hosts = 2;
	CHECK(fr_params_parse(&p, "round-robin", err, sizeof(err)) == 0);
	CHECK(fr_sched_new(&s, &fr_policy_roundrobin, &p, &sc, &env, err, sizeof(err)) == 0);
	return s;
}

static void
fetch(struct fr_sched *s, uint32_t id, double at)
{
	struct fr_fetch f = {at, FR_FETCH_OK, 0, NULL, NULL};

	fr_sched_begin(s, id, at);
	fr_sched_finish(s, id, &f);
}

static void
test_sched_groups(void)
{
	struct fr_sched *s = two_sources();
	uint32_t id, calls;
	double at, win;

	CHECK(fr_sched_next(s, 0, &id, &at) && at == 0);
	fetch(s, id, 0);
	/* paced: the next call 10 s after */
	CHECK(fr_sched_group_next(s, 0, 0) == 10);
	CHECK(fr_sched_next(s, 0, &id, &at) && at == 10);
	/* a further page spends a call: the next source waits for it */
	fr_sched_group_spend(s, 0, 10);
	CHECK(fr_sched_group_next(s, 0, 10) == 20);
	CHECK(fr_sched_next(s, 10, &id, &at) && at == 20);
	/* the API says none are left until 500: nothing before */
	CHECK(fr_sched_hold_group(s, 0, 500) == 0);
	CHECK(fr_sched_group_next(s, 0, 20) == 500);
	CHECK(fr_sched_next(s, 20, &id, &at) && at == 500);
	/* a hold replaces the last: the API spoke again */
	CHECK(fr_sched_hold_group(s, 0, -INFINITY) == 0);
	CHECK(fr_sched_next(s, 20, &id, &at) && at == 20);
	CHECK(fr_sched_hold_group(s, 7, 1) == -1);
	/* the API's budget, 600 per 600 s: one a second; the calls made stay */
	CHECK(fr_sched_set_group_limit(s, 0, 600, 600) == 0);
	fr_sched_group_limit(s, 0, &calls, &win);
	CHECK(calls == 600 && win == 600);
	CHECK(fr_sched_group_next(s, 0, 10) == 11);
	CHECK(fr_sched_next(s, 10, &id, &at) && at == 11);
	/* down to 2 per 100 s: the last two calls (0 and 10) fill the window
	 * until 100 */
	CHECK(fr_sched_set_group_limit(s, 0, 2, 100) == 0);
	CHECK(fr_sched_group_next(s, 0, 20) == 100);
	CHECK(fr_sched_next(s, 20, &id, &at) && at == 100);
	fetch(s, id, 100);
	CHECK(fr_sched_group_next(s, 0, 100) == 150);
	CHECK(fr_sched_set_group_limit(s, 0, 0, 100) == -1);
	CHECK(fr_sched_set_group_limit(s, 0, 5, 0) == -1);
	CHECK(fr_sched_set_group_limit(s, 3, 5, 10) == -1);
	fr_sched_group_limit(s, 0, &calls, &win);
	CHECK(calls == 2 && win == 100);
	fr_sched_free(s);
}

int
main(void)
{
	RUN(test_round_trip);
	RUN(test_errors);
	RUN(test_url_strip);
	RUN(test_sched_groups);
	return TEST_DONE();
}
