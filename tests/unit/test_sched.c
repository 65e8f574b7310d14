/* test_sched.c - the rate limiter in both modes, round robin on a hand-made
 * trace with hand-computed delays, the n/(2C) law, host politeness, buzzwise
 * membership, parameter errors, and bursts that take the most urgent. */
#include "test.h"

#include "core/err.h"
#include "core/rng.h"
#include "core/strmap.h"
#include "sched/policy/airballoon.h"
#include "sched/ratelimit.h"
#include "sched/sched.h"
#include "sim/sim.h"
#include "sim/trace.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void
ratelimit_burst(void)
{
	struct fr_ratelimit rl;

	CHECK(fr_rl_init(&rl, 3, 10, FR_RL_BURST) == 0);
	CHECK(fr_rl_available(&rl, 0) == 3);
	for (int i = 0; i < 3; i++) {
		CHECK_NEAR(fr_rl_next(&rl, 0), 0, 0);
		fr_rl_record(&rl, 0);
	}
	/* Window full: the next call waits for the window to slide. */
	CHECK_NEAR(fr_rl_next(&rl, 0), 10, 0);
	CHECK_NEAR(fr_rl_next(&rl, 4), 10, 0);
	CHECK(fr_rl_available(&rl, 9.5) == 0);
	CHECK(fr_rl_available(&rl, 10) == 3);
	fr_rl_record(&rl, 10);
	fr_rl_record(&rl, 10);
	CHECK_NEAR(fr_rl_next(&rl, 10), 10, 0);
	fr_rl_record(&rl, 10);
	CHECK_NEAR(fr_rl_next(&rl, 10), 20, 0);
	/* A late call keeps its own place in the window. */
	fr_rl_record(&rl, 25);
	CHECK_NEAR(fr_rl_next(&rl, 25), 25, 0);
	fr_rl_free(&rl);
}

static void
ratelimit_paced(void)
{
	struct fr_ratelimit rl;
	double t = 0;

	CHECK(fr_rl_init(&rl, 4, 10, FR_RL_PACED) == 0);
	for (int i = 0; i < 8; i++) {
		t = fr_rl_next(&rl, t);
		CHECK_NEAR(t, 2.5 * i, 1e-9);
		fr_rl_record(&rl, t);
	}
	CHECK(fr_rl_available(&rl, t) == 0);
	CHECK(fr_rl_available(&rl, t + 2.5) == 1);
	fr_rl_free(&rl);
}

static void
budget_parsing(void)
{
	double n, w, d;
	char err[FR_ERRLEN];

	CHECK(fr_budget_parse("600/10m", &n, &w, err, sizeof(err)) == 0);
	CHECK(n == 600 && w == 600);
	CHECK(fr_budget_parse("5/1h", &n, &w, err, sizeof(err)) == 0 && w == 3600);
	CHECK(fr_budget_parse("600", &n, &w, err, sizeof(err)) < 0);
	CHECK(fr_budget_parse("0/10m", &n, &w, err, sizeof(err)) < 0);
	CHECK(fr_budget_parse("1.5/10m", &n, &w, err, sizeof(err)) < 0);
	CHECK(fr_budget_parse("6/10x", &n, &w, err, sizeof(err)) < 0);
	/* blanks anywhere are refused (strtod would skip leading ones) */
	CHECK(fr_budget_parse(" 600/10m", &n, &w, err, sizeof(err)) < 0);
	CHECK(strstr(err, "blanks") != NULL);
	CHECK(fr_budget_parse("600/ 10m", &n, &w, err, sizeof(err)) < 0);
	CHECK(fr_budget_parse("600/10m ", &n, &w, err, sizeof(err)) < 0);
	CHECK(fr_budget_parse("\t600/10m", &n, &w, err, sizeof(err)) < 0);
	CHECK(fr_duration_parse(" 15s", &d) < 0);
	CHECK(fr_duration_parse("15s", &d) == 0 && d == 15);
	CHECK(fr_duration_parse("2d", &d) == 0 && d == 172800);
	CHECK(fr_duration_parse("-1", &d) < 0);
}

static struct fr_sim_config
config(double start, double end, uint32_t calls, double window, enum fr_rl_mode mode)
{
	struct fr_sim_config c = {0};
	c.start_s = start;
	c.end_s = end;
	c.calls = calls;
	c.window_s = window;
	c.mode = mode;
	c.seed = 1;
	return c;
}

/* Three sources A, B, C; one call every 10 s from t = 0, so round robin
 * calls A at 0, B at 10, C at 20, A at 30, B at 40, C at 50, ...
 *   A@5  -> fetched at 30, delay 25
 *   B@1  -> fetched at 10, delay 9
 *   B@12 -> fetched at 40, delay 28
 *   C@25 -> fetched at 50, delay 25
 *   A@61 -> fetched at 90, delay 29
 *   C@95 -> not fetched before the end (100)
 * Mean (25 + 9 + 28 + 25 + 29) / 5 = 23.2; median 25; coverage 5/6. */
static void
round_robin_hand_computed(void)
{
	const char *src[] = {"A", "B", "C", "A", "B", "C", "A"};
	double t[] = {5, 1, 95, 61, 12, 25, 150};
	struct fr_trace tr;
	struct fr_metrics m;
	char err[FR_ERRLEN];

	CHECK(fr_trace_from_rows(&tr, 7, src, t, NULL, err, sizeof(err)) == 0);
	for (enum fr_rl_mode mode = FR_RL_BURST; mode <= FR_RL_PACED; mode++) {
		struct fr_sim_config c = config(0, 100, 1, 10, mode);
		CHECK(fr_sim_run(&tr, "round-robin", &c, &m, NULL, err, sizeof(err)) == 0);
		CHECK(m.items == 6);
		CHECK(m.fetched == 5);
		CHECK_NEAR(m.coverage, 5.0 / 6, 1e-12);
		CHECK_NEAR(m.delay_mean_s, 23.2, 1e-9);
		CHECK_NEAR(m.delay_median_s, 25, 1e-9);
		CHECK(m.requests == 10); /* t = 0, 10, ..., 90 */
		CHECK(m.empty_requests == 5);
		fr_metrics_free(&m);
	}
	/* Burst: 3 calls per 30 s go out together at 0, 30, 60, 90, so every
	 * source is fetched at each window start. */
	struct fr_sim_config c = config(0, 100, 3, 30, FR_RL_BURST);
	CHECK(fr_sim_run(&tr, "round-robin", &c, &m, NULL, err, sizeof(err)) == 0);
	/* A@5->30, B@1->30, B@12->30, C@25->30, A@61->90, C@95 missed. */
	CHECK(m.fetched == 5);
	CHECK_NEAR(m.delay_mean_s, (25 + 29 + 18 + 5 + 29) / 5.0, 1e-9);
	CHECK(m.requests == 12);
	fr_metrics_free(&m);
	fr_trace_free(&tr);
}

/* Round robin over n sources at C calls/s: mean delay n / (2C). */
static void
round_robin_mean_delay_law(void)
{
	enum { NSRC = 50, PER = 1000 };
	const char *names[NSRC];
	char buf[NSRC][8];
	size_t rows = NSRC * PER;
	const char **src = malloc(rows * sizeof(*src));
	double *t = malloc(rows * sizeof(*t));
	struct fr_rng r;
	struct fr_trace tr;
	struct fr_metrics m;
	char err[FR_ERRLEN];

	fr_rng_seed(&r, 11);
	for (int i = 0; i < NSRC; i++) {
		snprintf(buf[i], sizeof(buf[i]), "s%d", i);
		names[i] = buf[i];
	}
	for (size_t k = 0; k < rows; k++) {
		src[k] = names[k % NSRC];
		t[k] = fr_rng_uniform(&r) * 100000.0;
	}
	CHECK(fr_trace_from_rows(&tr, rows, src, t, NULL, err, sizeof(err)) == 0);
	/* 1 call/s paced, and 10 calls per 10 s in bursts: both n/(2C) = 25 s. */
	struct fr_sim_config c = config(0, 100000, 1, 1, FR_RL_PACED);
	CHECK(fr_sim_run(&tr, "round-robin", &c, &m, NULL, err, sizeof(err)) == 0);
	CHECK_NEAR(m.delay_mean_s, NSRC / 2.0, 0.02 * NSRC / 2.0);
	CHECK(m.coverage > 0.999);
	fr_metrics_free(&m);
	c = config(0, 100000, 10, 10, FR_RL_BURST);
	CHECK(fr_sim_run(&tr, "round-robin", &c, &m, NULL, err, sizeof(err)) == 0);
	CHECK_NEAR(m.delay_mean_s, NSRC / 2.0, 0.02 * NSRC / 2.0);
	fr_metrics_free(&m);
	/* Air balloon cannot beat n/(2C) much on uniform sources either; its
	 * scan and heap paths agree closely. */
	c = config(0, 100000, 10, 10, FR_RL_BURST);
	struct fr_metrics heap, scan;
	CHECK(fr_sim_run(&tr, "air-balloon:inertia=168", &c, &heap, NULL, err, sizeof(err)) == 0);
	CHECK(fr_sim_run(&tr, "air-balloon:inertia=168:select=scan", &c, &scan, NULL, err,
			 sizeof(err)) == 0);
	CHECK(heap.delay_mean_s > 0.8 * NSRC / 2.0 && heap.delay_mean_s < 1.3 * NSRC / 2.0);
	CHECK_NEAR(heap.delay_mean_s, scan.delay_mean_s, 0.1 * scan.delay_mean_s);
	fr_metrics_free(&heap);
	fr_metrics_free(&scan);
	fr_trace_free(&tr);
	free(src);
	free(t);
}

/* Two sources on one host with a 15 s gap and a budget that would allow a
 * call every second: calls to the host are at least 15 s apart. */
static void
host_gap_is_respected(void)
{
	const char *src[] = {"a", "b", "c"};
	double t[] = {100, 100, 100};
	struct fr_trace tr;
	struct fr_metrics m;
	char err[FR_ERRLEN];

	CHECK(fr_trace_from_rows(&tr, 3, src, t, NULL, err, sizeof(err)) == 0);
	tr.host[1] = tr.host[0]; /* a and b share a host; c has its own */
	struct fr_sim_config c = config(0, 300, 1, 1, FR_RL_PACED);
	c.host_gap_s = 15;
	CHECK(fr_sim_run(&tr, "round-robin", &c, &m, NULL, err, sizeof(err)) == 0);
	/* Each host gets one call per 15 s (c's own host too), although the
	 * budget allows one a second: 2 hosts x 300 s / 15 s = 40 calls; the
	 * shared host's two sources alternate. */
	CHECK(m.fetched == 3);
	CHECK(m.requests == 40);
	fr_metrics_free(&m);

	/* Drive the scheduler directly and check every gap. */
	struct fr_sched_group g = {1, 1};
	uint32_t host[] = {0, 0, 1}, group[] = {0, 0, 0};
	struct fr_sched_config sc = {FR_RL_PACED, 15, 0, 1, &g, 3, group, host, 2};
	double w[] = {1, 1, 1};
	struct fr_policy_env env = {
	    .n_sources = 3, .weight = w, .group = group, .calls_per_s = 1, .seed = 1};
	struct fr_params p;
	struct fr_sched *s;
	CHECK(fr_params_parse(&p, "round-robin", err, sizeof(err)) == 0);
	CHECK(fr_sched_new(&s, &fr_policy_roundrobin, &p, &sc, &env, err, sizeof(err)) == 0);
	double last_host0 = -1e9, now = 0;
	int calls_host0 = 0;
	for (int i = 0; i < 200; i++) {
		uint32_t id;
		double at;
		CHECK(fr_sched_next(s, now, &id, &at));
		CHECK(at >= now);
		if (host[id] == 0) {
			CHECK(at - last_host0 >= 15 - 1e-9);
			last_host0 = at;
			calls_host0++;
		}
		struct fr_fetch f = {at, FR_FETCH_OK, 0, NULL, NULL};
		fr_sched_done(s, id, &f);
		now = at;
	}
	CHECK(calls_host0 >= 12); /* about one per 15 s over ~200 s */
	fr_sched_free(s);
	fr_trace_free(&tr);
}

static void
buzzwise_fetches_only_the_heaviest(void)
{
	const char *src[] = {"light", "heavy", "mid"};
	double t[] = {50, 50, 50};
	struct fr_trace tr;
	struct fr_metrics m;
	char err[FR_ERRLEN];

	CHECK(fr_trace_from_rows(&tr, 3, src, t, NULL, err, sizeof(err)) == 0);
	/* Ids follow the names' byte order, not the rows': set weights by name. */
	static const double weight[] = {1, 10, 5};
	for (int i = 0; i < 3; i++) {
		uint32_t id = UINT32_MAX;
		CHECK(fr_strmap_find(tr.sources, src[i], strlen(src[i]), &id) == 1);
		if (id < tr.n_sources)
			tr.weight[id] = weight[i];
	}
	struct fr_sim_config c = config(0, 1000, 1, 10, FR_RL_PACED);
	CHECK(fr_sim_run(&tr, "buzzwise:k=2", &c, &m, NULL, err, sizeof(err)) == 0);
	CHECK(m.fetched == 2); /* heavy and mid; light never */
	CHECK(m.requests == 100);
	fr_metrics_free(&m);
	fr_trace_free(&tr);
}

/* A window of more than 50 years (one absurd time in a trace) is refused
 * before anything is allocated for it. */
static void
run_longer_than_50_years_is_refused(void)
{
	const char *src[] = {"a"};
	double t[] = {1};
	struct fr_trace tr;
	struct fr_metrics m;
	char err[FR_ERRLEN];
	struct fr_sim_config c = config(0, 51 * 365.25 * 86400, 1, 10, FR_RL_BURST);

	CHECK(fr_trace_from_rows(&tr, 1, src, t, NULL, err, sizeof(err)) == 0);
	CHECK(fr_sim_run(&tr, "round-robin", &c, &m, NULL, err, sizeof(err)) < 0);
	CHECK(strstr(err, "1970-01-01T00:00:00Z .. 2020-12-31") != NULL);
	CHECK(strstr(err, "longer than 50 years") != NULL);
	c = config(0, 86400, 1, 10, FR_RL_BURST);
	CHECK(fr_sim_run(&tr, "round-robin", &c, &m, NULL, err, sizeof(err)) == 0);
	fr_metrics_free(&m);
	fr_trace_free(&tr);
}

static void
bad_policy_specs_are_errors(void)
{
	const char *src[] = {"a"};
	double t[] = {1};
	struct fr_trace tr;
	struct fr_metrics m;
	char err[FR_ERRLEN];
	struct fr_sim_config c = config(0, 100, 1, 10, FR_RL_BURST);

	CHECK(fr_trace_from_rows(&tr, 1, src, t, NULL, err, sizeof(err)) == 0);
	CHECK(fr_sim_run(&tr, "no-such-policy", &c, &m, NULL, err, sizeof(err)) < 0);
	CHECK(strstr(err, "unknown policy") != NULL);
	CHECK(fr_sim_run(&tr, "air-balloon:inertai=5", &c, &m, NULL, err, sizeof(err)) < 0);
	CHECK(strstr(err, "inertai") != NULL);
	CHECK(fr_sim_run(&tr, "air-balloon:inertia=x", &c, &m, NULL, err, sizeof(err)) < 0);
	CHECK(strstr(err, "not a number") != NULL);
	CHECK(fr_sim_run(&tr, "air-balloon:inertia", &c, &m, NULL, err, sizeof(err)) < 0);
	CHECK(fr_sim_run(&tr, "round-robin:select=scan", &c, &m, NULL, err, sizeof(err)) == 0);
	fr_metrics_free(&m);
	c.mode = FR_RL_PACED;
	CHECK(fr_sim_run(&tr, "air-balloon:select=scan", &c, &m, NULL, err, sizeof(err)) < 0);
	fr_trace_free(&tr);
}

/* Live use: overlapping fetches (begin/finish), a host paused by
 * Retry-After, a per-host gap (Crawl-delay), a source held back (backoff)
 * and restored policy state. */
static void
live_begin_finish_and_holds(void)
{
	struct fr_sched_group g = {100, 1};
	uint32_t host[] = {0, 0, 1, 2}, group[] = {0, 0, 0, 0};
	struct fr_sched_config sc = {FR_RL_PACED, 2, 0, 1, &g, 4, group, host, 3};
	double w[] = {1, 1, 1, 1};
	struct fr_policy_env env = {
	    .n_sources = 4, .weight = w, .group = group, .calls_per_s = 100, .seed = 1};
	struct fr_params p;
	struct fr_sched *s;
	char err[FR_ERRLEN];
	uint32_t id, first, began0 = UINT32_MAX;
	double at, now = 10;
	int seen[3] = {0};

	CHECK(fr_params_parse(&p, "round-robin", err, sizeof(err)) == 0);
	CHECK(fr_sched_new(&s, &fr_policy_roundrobin, &p, &sc, &env, err, sizeof(err)) == 0);
	/* Three fetches start at once, one per host; host 0's second source
	 * must wait: its host is busy. */
	for (int i = 0; i < 3; i++) {
		CHECK(fr_sched_next(s, now, &id, &at));
		CHECK(at <= now + 0.011);
		CHECK(!seen[host[id]]);
		seen[host[id]] = 1;
		if (host[id] == 0)
			began0 = id;
		fr_sched_begin(s, id, now);
	}
	CHECK(began0 != UINT32_MAX);
	CHECK(!fr_sched_next(s, now, &id, &at) || at == INFINITY);
	/* Host 0's fetch ends late, at 15: the gap of 2 s from its start has
	 * passed, so host 0's other source comes next, at once. */
	struct fr_fetch f0 = {now + 5, FR_FETCH_OK, 0, NULL, NULL};
	fr_sched_finish(s, began0, &f0);
	CHECK(fr_sched_next(s, now + 5, &id, &at));
	CHECK(host[id] == 0 && id != began0);
	CHECK_NEAR(at, now + 5, 0.011);
	fr_sched_free(s);

	/* Simpler, exact checks on a fresh scheduler, driving one host. */
	uint32_t host1[] = {0, 0};
	uint32_t group1[] = {0, 0};
	struct fr_sched_config sc1 = {FR_RL_PACED, 2, 0, 1, &g, 2, group1, host1, 1};
	env.n_sources = 2;
	env.group = group1;
	CHECK(fr_params_parse(&p, "round-robin", err, sizeof(err)) == 0);
	CHECK(fr_sched_new(&s, &fr_policy_roundrobin, &p, &sc1, &env, err, sizeof(err)) == 0);
	CHECK(fr_sched_next(s, 0, &id, &at));
	fr_sched_begin(s, id, 0);
	/* Busy host: nothing before the fetch ends. */
	CHECK(!fr_sched_next(s, 1, &first, &at) || at == INFINITY);
	struct fr_fetch f = {0.5, FR_FETCH_OK, 0, NULL, NULL};
	fr_sched_finish(s, id, &f);
	/* Ended at 0.5; gap 2 s from the start at 0. */
	CHECK(fr_sched_next(s, 0.5, &first, &at));
	CHECK(first != id);
	CHECK_NEAR(at, 2, 1e-9);
	/* Retry-After pauses the host until 50. */
	CHECK(fr_sched_hold_host(s, 0, 50) == 0);
	CHECK(fr_sched_next(s, 3, &first, &at));
	CHECK_NEAR(at, 50, 1e-9);
	/* A per-host gap of 30 s (Crawl-delay). */
	fr_sched_begin(s, first, 50);
	f.now_s = 51;
	fr_sched_finish(s, first, &f);
	CHECK(fr_sched_set_host_gap(s, 0, 30) == 0);
	fr_sched_begin(s, id, 80); /* the next fetch starts at 80 */
	f.now_s = 80.1;
	fr_sched_finish(s, id, &f);
	CHECK(fr_sched_next(s, 81, &first, &at));
	CHECK_NEAR(at, 110, 1e-9);
	/* A source held back until 500 is skipped while the other is not. */
	uint32_t held = first;
	CHECK(fr_sched_hold(s, held, 500, 81) == 0);
	double t = 120, held_at = -1;
	while (t < 600 && fr_sched_next(s, t, &first, &at)) {
		if (first == held && held_at < 0)
			held_at = at;
		fr_sched_begin(s, first, at);
		f.now_s = at + 0.1;
		fr_sched_finish(s, first, &f);
		t = at + 0.1;
	}
	CHECK(held_at >= 500 - 1e-9 && held_at < 600);
	/* Restored state must have the policy's size. */
	size_t sz = fr_sched_state_size(s);
	unsigned char blob[512] = {0};
	CHECK(sz <= sizeof(blob));
	memcpy(blob, fr_sched_state(s, 0), sz);
	CHECK(fr_sched_set_state(s, 0, blob, sz, 200) == 0);
	CHECK(fr_sched_set_state(s, 0, blob, sz + 1, 200) == -1);
	fr_sched_free(s);
}

/* Live use of an interval policy: a source met while its host is in flight
 * waits for that fetch to end, then comes up (it used to be parked at +inf
 * for good), and every source is fetched in turn, none twice at once. */
static void
live_interval_policy_waits_for_busy_host(void)
{
	struct fr_sched_group g = {1000, 1};
	uint32_t host[] = {0, 0, 0, 1, 1, 2}, group[] = {0, 0, 0, 0, 0, 0};
	struct fr_sched_config sc = {FR_RL_BURST, 2, 0, 1, &g, 6, group, host, 3};
	double w[] = {1, 1, 1, 1, 1, 1};
	struct fr_policy_env env = {
	    .n_sources = 6, .weight = w, .group = group, .calls_per_s = 1000, .seed = 1};
	struct fr_params p;
	struct fr_sched *s;
	char err[FR_ERRLEN];
	uint32_t id, in_flight[3];
	double at, t = 0;
	int fetched[6] = {0}, busy[3] = {0};

	CHECK(fr_params_parse(&p, "miniflux-entry-frequency", err, sizeof(err)) == 0);
	CHECK(fr_sched_new(&s, &fr_policy_miniflux, &p, &sc, &env, err, sizeof(err)) == 0);
	/* One fetch per host at once; each ends 0.5 s after it began. */
	for (int round = 0; round < 40; round++) {
		while (fr_sched_next(s, t, &id, &at) && at <= t) {
			CHECK(!busy[host[id]]);
			busy[host[id]] = 1;
			in_flight[host[id]] = id;
			fr_sched_begin(s, id, t);
		}
		t += 0.5;
		for (uint32_t h = 0; h < 3; h++) {
			if (!busy[h])
				continue;
			struct fr_fetch f = {t, FR_FETCH_OK, 0, NULL, NULL};
			fr_sched_finish(s, in_flight[h], &f);
			fetched[in_flight[h]]++;
			busy[h] = 0;
		}
	}
	/* Host 0 (gap 2 s) has three sources: each was reached. */
	for (int i = 0; i < 6; i++)
		CHECK(fetched[i] >= 1);
	fr_sched_free(s);
}

/* Per-host caps: 20 sources on one host with a 60 s gap and 20 on hosts of
 * their own, all publishing 10 items an hour. Without the cap the shared
 * host's sources would be due together far faster than one call per gap;
 * with it, their rates sum to about 1/gap, and the other hosts' sources are
 * left alone. */
static double
host0_rate_sum(const char *spec, double *single_interval)
{
	enum { N = 40, NH = 21 };
	uint32_t host[N], group[N];
	double w[N], pub[10], now = 0, sum = 0;
	struct fr_sched_group g = {1000, 10};
	struct fr_sched_config sc = {FR_RL_BURST, 60, 0, 1, &g, N, group, host, NH};
	struct fr_policy_env env = {
	    .n_sources = N, .weight = w, .group = group, .calls_per_s = 0.01, .seed = 1};
	struct fr_params p;
	struct fr_sched *s;
	char err[FR_ERRLEN];

	for (uint32_t i = 0; i < N; i++) {
		host[i] = i < 20 ? 0 : i - 19;
		group[i] = 0;
		w[i] = 1;
	}
	env.host = host;
	env.n_hosts = NH;
	env.host_gap_s = 60;
	env.start_s = 0;
	CHECK(fr_params_parse(&p, spec, err, sizeof(err)) == 0);
	if (fr_sched_new(&s, &fr_policy_freshet, &p, &sc, &env, err, sizeof(err)) < 0) {
		fprintf(stderr, "%s\n", err);
		CHECK(0);
		return 0;
	}
	/* Two days of hourly fetches, each finding the hour's 10 items. */
	for (int h = 1; h <= 48; h++) {
		now = h * 3600.0;
		for (int k = 0; k < 10; k++)
			pub[k] = now - 3600 + 360 * k + 180;
		for (uint32_t i = 0; i < N; i++) {
			struct fr_fetch f = {now + i * 0.001, FR_FETCH_OK, 10, pub, NULL};
			fr_sched_done(s, i, &f);
		}
	}
	for (uint32_t i = 0; i < 20; i++)
		sum += 1 / (fr_sched_due_at(s, i) - (now + i * 0.001));
	*single_interval = fr_sched_due_at(s, 30) - (now + 30 * 0.001);
	fr_sched_free(s);
	return sum;
}

static void
host_caps_keep_a_shared_host_within_its_gap(void)
{
	double single_on, single_off;
	double on = host0_rate_sum("freshet", &single_on);
	double off = host0_rate_sum("freshet:hostcap=0", &single_off);

	fprintf(stderr, "  shared host: sources due at %.4f/s in sum with caps, %.4f/s without "
	                "(gap allows %.4f/s); a lone source every %.0f s\n",
	        on, off, 1 / 60.0, single_on);
	CHECK(off > 2.0 / 60);             /* the cap binds here */
	CHECK(on <= 1.25 / 60);            /* and brings the host to about one call per gap */
	CHECK(on >= 0.75 / 60);
	CHECK_NEAR(single_on, single_off, 1e-6); /* other hosts untouched */
}

/* A weighted round robin for the selection test: urgency w (t - last), and
 * every fetch draws a new w (0.2 .. 2.2), so the threshold has to move both
 * ways. */
struct wrr_state {
	double last_s, w;
};

static double
wrr_draw(uint64_t x)
{
	x ^= x >> 31;
	x *= UINT64_C(0x9e3779b97f4a7c15);
	x ^= x >> 29;
	return 0.2 + 2.0 * (double)(x >> 11) / 9007199254740992.0;
}

static size_t
wrr_state_size(const void *ctx)
{
	(void)ctx;
	return sizeof(struct wrr_state);
}

static void
wrr_init(void *ctx, void *st, uint32_t s, double now_s)
{
	struct wrr_state *w = st;
	(void)ctx;
	w->last_s = now_s;
	w->w = wrr_draw(s + 1);
}

static double
wrr_urgency(void *ctx, void *st, double now_s)
{
	const struct wrr_state *w = st;
	(void)ctx;
	return w->w * (now_s - w->last_s);
}

static double
wrr_due(void *ctx, void *st, double now_s, double theta)
{
	const struct wrr_state *w = st;
	(void)ctx;
	(void)now_s;
	return w->last_s + theta / w->w;
}

static void
wrr_fetched(void *ctx, void *st, const struct fr_fetch *f)
{
	struct wrr_state *w = st;
	uint64_t bits;
	(void)ctx;
	memcpy(&bits, &w->w, sizeof(bits));
	w->w = wrr_draw(bits ^ (uint64_t)f->now_s);
	w->last_s = f->now_s;
}

static const struct fr_policy_ops wrr_ops = {
	.name = "wrr",
	.kind = FR_POLICY_INDEX,
	.theta0 = 1,
	.create = fr_policy_create_no_ctx,
	.state_size = wrr_state_size,
	.init = wrr_init,
	.urgency = wrr_urgency,
	.due = wrr_due,
	.fetched = wrr_fetched,
};

/* Runs wrr over n sources with calls per 10 s in bursts; returns the share
 * of bursts whose sources were exactly the calls most urgent ones (ties by
 * last fetch, then id), checked against every source's urgency. */
static double
share_of_exact_bursts(uint32_t n, uint32_t calls, const char *spec)
{
	struct fr_sched_group g = {calls, 10};
	struct fr_sched_config sc = {FR_RL_BURST, 0, 0, 1, &g, n, NULL, NULL, 0};
	struct fr_policy_env env = {.n_sources = n, .calls_per_s = calls / 10.0, .seed = 1};
	struct fr_params p;
	struct fr_sched *s;
	char err[FR_ERRLEN];
	double *u = malloc(n * sizeof(*u)), *seq = calloc(n, sizeof(*seq)), calls_made = 0;
	int *want = malloc(n * sizeof(*want));
	uint32_t bursts = 0, exact = 0;

	CHECK(fr_params_parse(&p, spec, err, sizeof(err)) == 0);
	CHECK(fr_sched_new(&s, &wrr_ops, &p, &sc, &env, err, sizeof(err)) == 0);
	for (double t = 0; t < 3000; t += 10) {
		/* The calls most urgent at t, by brute force. */
		for (uint32_t i = 0; i < n; i++) {
			u[i] = wrr_urgency(NULL, fr_sched_state(s, i), t);
			want[i] = 0;
		}
		for (uint32_t c = 0; c < calls; c++) {
			uint32_t best = UINT32_MAX;
			for (uint32_t i = 0; i < n; i++)
				if (!want[i] && (best == UINT32_MAX || u[i] > u[best] ||
						 (u[i] == u[best] && seq[i] < seq[best])))
					best = i;
			want[best] = 1;
		}
		int ok = 1;
		for (uint32_t c = 0; c < calls; c++) {
			uint32_t id;
			double at;
			CHECK(fr_sched_next(s, t, &id, &at));
			CHECK(at == t);
			ok &= want[id];
			want[id] = 0;
			seq[id] = ++calls_made;
			struct fr_fetch f = {t, FR_FETCH_OK, 0, NULL, NULL};
			fr_sched_done(s, id, &f);
		}
		bursts++;
		exact += ok;
	}
	fr_sched_free(s);
	free(u);
	free(seq);
	free(want);
	return (double)exact / bursts;
}

/* The k sources a burst takes are the k most urgent: always with
 * select=scan (whether or not its cut lets enough through), and whenever
 * enough are due on the heap path, with the heap left unordered (k log n >=
 * n) and ordered (k log n < n; there short batches fill up in due order
 * between rebuilds spread out over several batches, 22% of them here, as
 * before the unordered heap). */
static void
batches_are_the_top_k_by_urgency(void)
{
	CHECK(share_of_exact_bursts(500, 100, "wrr:select=scan") == 1.0);
	CHECK(share_of_exact_bursts(500, 7, "wrr:select=scan") == 1.0);
	CHECK(share_of_exact_bursts(500, 100, "wrr") >= 0.95);
	CHECK(share_of_exact_bursts(500, 7, "wrr") >= 0.7);
}

/* A pass (workers sharing a budget) takes a call of the window and leaves
 * the policy's state as it was: the policy is not told. */
static void
pass_charges_the_budget_and_leaves_the_policy_alone(void)
{
	struct fr_sched_group g = {2, 10};
	struct fr_sched_config sc = {FR_RL_BURST, 0, 0, 1, &g, 3, NULL, NULL, 0};
	struct fr_policy_env env = {.n_sources = 3, .calls_per_s = 0.2, .seed = 1};
	struct fr_params p;
	struct fr_sched *s;
	char err[FR_ERRLEN], before[64];
	uint32_t a, b, c;
	double at;

	CHECK(fr_params_parse(&p, "wrr", err, sizeof(err)) == 0);
	CHECK(fr_sched_new(&s, &wrr_ops, &p, &sc, &env, err, sizeof(err)) == 0);
	size_t sz = fr_sched_state_size(s);
	CHECK(sz <= sizeof(before));
	CHECK(fr_sched_next(s, 0, &a, &at) && at == 0);
	memcpy(before, fr_sched_state(s, a), sz);
	fr_sched_pass(s, a, 0);
	CHECK(memcmp(before, fr_sched_state(s, a), sz) == 0);
	CHECK(fr_sched_next(s, 0, &b, &at) && at == 0 && b != a);
	struct fr_fetch f = {0, FR_FETCH_OK, 0, NULL, NULL};
	fr_sched_done(s, b, &f);
	/* The window's two calls are spent: the next waits for it to slide,
	 * and the passed source is chosen again. */
	CHECK(fr_sched_next(s, 0, &c, &at) && at == 10);
	CHECK(c == a);
	fr_sched_free(s);
}

/* Air balloon cools its buckets lazily (an evaluation cools only the ones
 * its area reads, from one cooling reference all sources share):
 * urgencies and due times match the seed's cooling of all 24 at every
 * evaluation, done here with the digest's functions, over gaps of minutes
 * to days, heating, and buckets that reach the floor. */
static void
air_balloon_lazy_cooling_matches_eager(void)
{
	const struct fr_policy_ops *ops = &fr_policy_airballoon;
	const double inertia = 168, fl = 0.05;
	struct fr_params p;
	struct fr_policy_env env = {.n_sources = 1};
	struct fr_rng r;
	char err[FR_ERRLEN];
	void *ctx;
	double st[32], a[24], acc = 0, t = 1370419200.0, acc_s = t, cooled = t, worst = 0;
	int floored = 0;

	CHECK(fr_params_parse(&p, "air-balloon:inertia=168:floor=0.05", err, sizeof(err)) == 0);
	CHECK(ops->create(&ctx, &p, &env, err, sizeof(err)) == 0);
	CHECK(ops->state_size(ctx) <= sizeof(st));
	memset(st, 0, sizeof(st));
	ops->init(ctx, st, 0, t);
	for (int i = 0; i < 24; i++)
		a[i] = 1;
	fr_rng_seed(&r, 5);
	for (int step = 0; step < 3000; step++) {
		t += fr_rng_below(&r, 40) ? 600.0 * (1 + fr_rng_below(&r, 30))
					   : 86400.0 * (1 + fr_rng_below(&r, 4));
		fr_ab_cool(a, (t - cooled) / 3600, inertia, fl);
		cooled = t;
		for (int i = 0; i < 24; i++)
			floored |= a[i] == fl;
		acc += fr_ab_area(a, acc_s, t);
		acc_s = t;
		double u = ops->urgency(ctx, st, t);
		CHECK_NEAR(u, acc, 1e-9 * (1 + acc));
		double theta = acc + 0.01 + 3 * fr_rng_uniform(&r);
		double due = ops->due(ctx, st, t, theta), want = fr_ab_solve(a, t, theta - acc);
		CHECK_NEAR(due, want, 1e-6 * (want - t));
		worst = fabs(u - acc) > worst ? fabs(u - acc) : worst;
		if (fr_rng_below(&r, 3) == 0) {
			double pub[3];
			size_t n = fr_rng_below(&r, 4);
			for (size_t k = 0; k < n; k++)
				pub[k] = t - fr_rng_uniform(&r) * 6 * 3600;
			struct fr_fetch f = {t, FR_FETCH_OK, n, pub, NULL};
			ops->fetched(ctx, st, &f);
			for (size_t k = 0; k < n; k++)
				fr_ab_heat(a, pub[k], t, inertia);
			acc = 0;
		}
	}
	CHECK(floored);
	CHECK(worst < 1e-9);
	ops->destroy(ctx);
}

int
main(void)
{
	RUN(ratelimit_burst);
	RUN(ratelimit_paced);
	RUN(budget_parsing);
	RUN(round_robin_hand_computed);
	RUN(round_robin_mean_delay_law);
	RUN(host_gap_is_respected);
	RUN(live_begin_finish_and_holds);
	RUN(live_interval_policy_waits_for_busy_host);
	RUN(buzzwise_fetches_only_the_heaviest);
	RUN(run_longer_than_50_years_is_refused);
	RUN(bad_policy_specs_are_errors);
	RUN(host_caps_keep_a_shared_host_within_its_gap);
	RUN(batches_are_the_top_k_by_urgency);
	RUN(pass_charges_the_budget_and_leaves_the_policy_alone);
	RUN(air_balloon_lazy_cooling_matches_eager);
	return TEST_DONE();
}
