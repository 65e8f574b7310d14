/* test_pages.c - repositories of changing pages (determinism, heavy tail,
 * the files and what the loaders make of them), the freshness and age
 * metrics on hand-worked traces, politeness violations and the polite key,
 * and the schedules of the time policies cho+delayed, opt-polite+delayed and
 * cho+equal (first visit, spacing, no drift under a host gap). */
#include "test.h"

#include "core/err.h"
#include "core/strmap.h"
#include "plan/alloc.h"
#include "sched/sched.h"
#include "sim/metrics.h"
#include "sim/pages.h"
#include "sim/sim.h"
#include "sim/trace.h"
#include "sim/world.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- repositories ---- */

static struct fr_pages_params
small_params(uint32_t pages, uint32_t servers, uint64_t seed)
{
	struct fr_pages_params p;

	fr_pages_defaults(&p);
	p.n_pages = pages;
	p.n_servers = servers;
	p.days = 10;
	p.seed = seed;
	return p;
}

static void
pages_are_deterministic_per_seed(void)
{
	struct fr_pages_params p = small_params(2000, 50, 7);
	struct fr_pages_world a, b, c, big;
	struct fr_trace ta, tb;
	char err[FR_ERRLEN];

	CHECK(fr_pages_generate(&a, &p, err, sizeof(err)) == 0);
	CHECK(fr_pages_generate(&b, &p, err, sizeof(err)) == 0);
	CHECK(memcmp(a.lambda_per_day, b.lambda_per_day, 2000 * sizeof(double)) == 0);
	CHECK(memcmp(a.weight, b.weight, 2000 * sizeof(double)) == 0);
	CHECK(memcmp(a.server, b.server, 2000 * sizeof(uint32_t)) == 0);
	CHECK(fr_pages_trace(&a, &ta, err, sizeof(err)) == 0);
	CHECK(fr_pages_trace(&b, &tb, err, sizeof(err)) == 0);
	CHECK(ta.n_items == tb.n_items && ta.n_items > 0);
	CHECK(memcmp(ta.item_time_s, tb.item_time_s, ta.n_items * sizeof(double)) == 0);
	CHECK(memcmp(ta.host, tb.host, 2000 * sizeof(uint32_t)) == 0);
	fr_trace_free(&tb);

	/* Another seed, another repository. */
	struct fr_pages_params q = p;
	q.seed = 8;
	CHECK(fr_pages_generate(&c, &q, err, sizeof(err)) == 0);
	CHECK(memcmp(a.lambda_per_day, c.lambda_per_day, 2000 * sizeof(double)) != 0);

	/* A page depends on its index, not on how many pages follow. */
	q = p;
	q.n_pages = 3000;
	CHECK(fr_pages_generate(&big, &q, err, sizeof(err)) == 0);
	CHECK(memcmp(a.lambda_per_day, big.lambda_per_day, 2000 * sizeof(double)) == 0);
	CHECK(memcmp(a.server, big.server, 2000 * sizeof(uint32_t)) == 0);

	/* The trace's sources are the pages, its hosts the servers. */
	CHECK(ta.n_sources == 2000);
	for (uint32_t i = 0; i < 2000; i++) {
		CHECK(ta.host[i] == a.server[i]);
		CHECK(ta.weight[i] == a.weight[i]);
	}
	char name[32];
	CHECK_STR(fr_trace_source_name(&ta, 42), "s0042");
	CHECK_STR(fr_pages_server_name(&a, 7, name, sizeof(name)), "h007");
	fr_trace_free(&ta);
	fr_pages_free(&a);
	fr_pages_free(&b);
	fr_pages_free(&c);
	fr_pages_free(&big);
}

static void
pages_are_heavy_tailed(void)
{
	struct fr_pages_params p = small_params(10000, 100, 1);
	struct fr_pages_world pw;
	char err[FR_ERRLEN];
	uint32_t count[100] = {0}, biggest = 0, empty = 0;
	double sum_l = 0, max_l = 0, sum_w = 0;

	CHECK(fr_pages_generate(&pw, &p, err, sizeof(err)) == 0);
	for (uint32_t i = 0; i < 10000; i++) {
		CHECK(pw.server[i] < 100);
		count[pw.server[i]]++;
		sum_l += pw.lambda_per_day[i];
		sum_w += pw.weight[i];
		if (pw.lambda_per_day[i] > max_l)
			max_l = pw.lambda_per_day[i];
		CHECK(pw.lambda_per_day[i] > 0 && pw.weight[i] > 0);
	}
	for (int k = 0; k < 100; k++) {
		empty += count[k] == 0;
		if (count[k] > biggest)
			biggest = count[k];
	}
	CHECK(empty == 0);
	/* Zipf(1) over 100 servers: the first holds about 1/H_100 = 19%, 19 times
	 * the mean of 100 pages. */
	CHECK(biggest > 1500 && biggest < 2300);
	CHECK(count[0] == biggest);
	CHECK(count[0] > 10 * count[50]);
	/* Mean about one change a day (lognormal sigma 1.5: standard error ~3%),
	 * some very fast; importance has mean 1. */
	CHECK_NEAR(sum_l / 10000, 1.0, 0.12);
	CHECK(max_l > 30);
	CHECK_NEAR(sum_w / 10000, 1.0, 0.08);

	/* Invalid shapes are refused with a usage-like message. */
	struct fr_pages_world bad;
	p.n_servers = 20000;
	CHECK(fr_pages_generate(&bad, &p, err, sizeof(err)) < 0);
	CHECK(strstr(err, "invalid repository") != NULL);
	fr_pages_free(&pw);
}

static int
files_equal(const char *a, const char *b)
{
	FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
	int same = fa && fb, ca, cb;

	while (same) {
		ca = fgetc(fa);
		cb = fgetc(fb);
		if (ca != cb)
			same = 0;
		if (ca == EOF || cb == EOF)
			break;
	}
	if (fa)
		fclose(fa);
	if (fb)
		fclose(fb);
	return same;
}

static void
pages_files_load_back(void)
{
	struct fr_pages_params p = small_params(300, 10, 3);
	struct fr_pages_world pw;
	struct fr_world w;
	struct fr_trace tr, mem;
	char err[FR_ERRLEN], dir[] = "/tmp/test_pages.XXXXXX", dir2[] = "/tmp/test_pages.XXXXXX";
	char path[256], path2[256], tpath[256], spath[256];
	size_t n_changes = 0;

	CHECK(mkdtemp(dir) != NULL);
	CHECK(mkdtemp(dir2) != NULL);
	CHECK(fr_pages_generate(&pw, &p, err, sizeof(err)) == 0);
	CHECK(!fr_pages_is_dir(dir));
	CHECK(fr_pages_write(&pw, dir, &n_changes, err, sizeof(err)) == 0);
	CHECK(fr_pages_write(&pw, dir2, NULL, err, sizeof(err)) == 0);
	CHECK(fr_pages_is_dir(dir));

	/* Same seed, same bytes. */
	static const char *const files[] = {"pages.csv", "trace.csv", "sources.csv", "world.csv"};
	for (int i = 0; i < 4; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		snprintf(path2, sizeof(path2), "%s/%s", dir2, files[i]);
		CHECK(files_equal(path, path2));
	}

	/* pages.csv: the exact header, then page,server,rate,weight in order. */
	snprintf(path, sizeof(path), "%s/pages.csv", dir);
	FILE *f = fopen(path, "r");
	char line[256];
	CHECK(f != NULL);
	if (f) {
		CHECK(fgets(line, sizeof(line), f) != NULL);
		CHECK_STR(line, FR_PAGES_HEADER "\n");
		CHECK(fgets(line, sizeof(line), f) != NULL);
		char want[256];
		snprintf(want, sizeof(want), "s0000,h%03u,%.17g,%.17g\n", pw.server[0],
		         pw.lambda_per_day[0], pw.weight[0]);
		CHECK_STR(line, want);
		int rows = 1;
		while (fgets(line, sizeof(line), f))
			rows++;
		CHECK(rows == 300);
		fclose(f);
	}

	/* world.csv: constant rates, lambda / 86400 per second at any time. */
	CHECK(fr_world_load(&w, dir, err, sizeof(err)) == 0);
	CHECK(w.p.n_sources == 300);
	for (uint32_t i = 0; i < 300; i += 37)
		for (double t = pw.p.start_s; t < pw.end_s; t += 86400 * 1.37 + 1234)
			CHECK_NEAR(fr_world_intensity(&w, i, t) * 86400 / pw.lambda_per_day[i], 1,
			           1e-12);
	CHECK(fr_world_intensity(&w, 0, pw.end_s + 1) == 0);
	CHECK_NEAR(fr_world_expected(&w, 5, pw.p.start_s, pw.end_s), pw.lambda_per_day[5] * 10,
	           1e-9);

	/* trace.csv and sources.csv: the same changes, hosts and weights as the
	 * trace made in memory. */
	snprintf(tpath, sizeof(tpath), "%s/trace.csv", dir);
	snprintf(spath, sizeof(spath), "%s/sources.csv", dir);
	CHECK(fr_trace_load(&tr, tpath, spath, err, sizeof(err)) == 0);
	CHECK(fr_pages_trace(&pw, &mem, err, sizeof(err)) == 0);
	CHECK(tr.n_sources == 300 && tr.n_items == mem.n_items && tr.n_items == n_changes);
	CHECK(memcmp(tr.first, mem.first, 301 * sizeof(size_t)) == 0);
	CHECK(memcmp(tr.item_time_s, mem.item_time_s, tr.n_items * sizeof(double)) == 0);
	char name[32];
	for (uint32_t i = 0; i < 300; i++) {
		CHECK_STR(fr_strmap_name(tr.hosts, tr.host[i]),
		          fr_pages_server_name(&pw, pw.server[i], name, sizeof(name)));
		CHECK(tr.weight[i] == pw.weight[i]);
	}
	fr_trace_free(&tr);
	fr_trace_free(&mem);
	fr_world_free(&w);
	fr_pages_free(&pw);
	for (int i = 0; i < 4; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		unlink(path);
		snprintf(path, sizeof(path), "%s/%s", dir2, files[i]);
		unlink(path);
	}
	rmdir(dir);
	rmdir(dir2);
}

/* ---- freshness, age, violations ---- */

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

/* One page changing at 10 and 50, fetched at 0, 30, 60 and 90 (round robin,
 * one call per 30 s) over [0, 100): stale [10, 30] and [50, 60], so
 * freshness 1 - 30/100 = 0.7 and age (20^2/2 + 10^2/2) / 100 = 2.5. */
static void
freshness_by_hand(void)
{
	const char *src[] = {"a", "a"};
	double t[] = {10, 50};
	struct fr_trace tr;
	struct fr_metrics m;
	char err[FR_ERRLEN];

	CHECK(fr_trace_from_rows(&tr, 2, src, t, NULL, err, sizeof(err)) == 0);
	struct fr_sim_config c = config(0, 100, 1, 30, FR_RL_BURST);
	CHECK(fr_sim_run(&tr, "round-robin", &c, &m, NULL, err, sizeof(err)) == 0);
	CHECK(m.requests == 4);
	CHECK_NEAR(m.freshness, 0.7, 1e-12);
	CHECK_NEAR(m.age_mean_s, 2.5, 1e-12);
	CHECK(m.polite_violations == 0);
	fr_metrics_free(&m);

	/* Never fetched after the change at 50 (the run ends at 55): stale
	 * [10, 30] and [50, 55]. */
	c.end_s = 55;
	CHECK(fr_sim_run(&tr, "round-robin", &c, &m, NULL, err, sizeof(err)) == 0);
	CHECK_NEAR(m.freshness, 1 - 25.0 / 55, 1e-12);
	CHECK_NEAR(m.age_mean_s, (200 + 12.5) / 55, 1e-12);
	fr_metrics_free(&m);
	fr_trace_free(&tr);
}

/* Weighted: a (weight 1) as above and b (weight 3) whose only change falls
 * outside the window, both fetched at 0, 30, 60, 90: freshness
 * 1 - 1 * 30 / (4 * 100) = 0.925, age 1 * 250 / 400 = 0.625. A change at the
 * very instant of a fetch is seen by it: no stale time. */
static void
freshness_is_weighted(void)
{
	const char *src[] = {"a", "a", "b", "c"};
	double t[] = {10, 50, 200, 30};
	struct fr_trace tr;
	struct fr_metrics m;
	char err[FR_ERRLEN];

	CHECK(fr_trace_from_rows(&tr, 4, src, t, NULL, err, sizeof(err)) == 0);
	tr.weight[0] = 1; /* ids follow the names: a, b, c */
	tr.weight[1] = 3;
	tr.weight[2] = 0;
	struct fr_sim_config c = config(0, 100, 3, 30, FR_RL_BURST);
	CHECK(fr_sim_run(&tr, "round-robin", &c, &m, NULL, err, sizeof(err)) == 0);
	CHECK(m.requests == 12);
	CHECK_NEAR(m.weight_sum, 4, 0);
	CHECK_NEAR(m.freshness, 0.925, 1e-12);
	CHECK_NEAR(m.age_mean_s, 0.625, 1e-12);
	fr_metrics_free(&m);

	/* Nothing weighs: no figure. */
	tr.weight[0] = tr.weight[1] = 0;
	CHECK(fr_sim_run(&tr, "round-robin", &c, &m, NULL, err, sizeof(err)) == 0);
	CHECK(isnan(m.freshness) && isnan(m.age_mean_s));
	fr_metrics_free(&m);
	fr_trace_free(&tr);

	/* The record functions on their own. */
	CHECK(fr_metrics_init(&m, 0, 10) == 0);
	CHECK(isnan(m.freshness));
	fr_metrics_source(&m, 2);
	fr_metrics_stale(&m, 2, 4, 8);
	fr_metrics_stale(&m, 2, 9, 9); /* empty */
	CHECK(fr_metrics_finish(&m) == 0);
	CHECK_NEAR(m.freshness, 0.6, 1e-12);
	CHECK_NEAR(m.age_mean_s, 2 * 8.0 / 20, 1e-12);
	fr_metrics_free(&m);
}

/* a and b on one host, one call per 10 s over [0, 100), host gap 15 s. The
 * scheduler keeps the gap: no violations. With polite=0 round robin calls
 * the host every 10 s: every call after the first is a violation. */
static void
politeness_violations(void)
{
	const char *src[] = {"a", "b"};
	double t[] = {5, 5};
	struct fr_trace tr;
	struct fr_metrics m;
	struct fr_params params;
	char err[FR_ERRLEN], buf[128];

	CHECK(fr_trace_from_rows(&tr, 2, src, t, NULL, err, sizeof(err)) == 0);
	tr.host[1] = tr.host[0];
	struct fr_sim_config c = config(0, 100, 1, 10, FR_RL_PACED);
	c.host_gap_s = 15;
	CHECK(fr_sim_run(&tr, "round-robin", &c, &m, &params, err, sizeof(err)) == 0);
	CHECK(m.requests == 7); /* 0, 15, ..., 90 */
	CHECK(m.polite_violations == 0);
	CHECK(m.polite_gap_s == 15);
	/* polite is not a parameter of policies that did not ask for it. */
	CHECK(strstr(fr_params_format(&params, 1, buf, sizeof(buf)), "polite") == NULL);
	fr_metrics_free(&m);

	CHECK(fr_sim_run(&tr, "round-robin:polite=0", &c, &m, &params, err, sizeof(err)) == 0);
	CHECK(m.requests == 10);
	CHECK(m.polite_violations == 9);
	fr_metrics_free(&m);
	CHECK(fr_sim_run(&tr, "round-robin:polite=1", &c, &m, NULL, err, sizeof(err)) == 0);
	CHECK(m.requests == 7 && m.polite_violations == 0);
	fr_metrics_free(&m);

	/* Without a configured gap nothing is a violation. */
	c.host_gap_s = 0;
	CHECK(fr_sim_run(&tr, "round-robin", &c, &m, NULL, err, sizeof(err)) == 0);
	CHECK(m.requests == 10 && m.polite_violations == 0);
	fr_metrics_free(&m);

	CHECK(fr_sim_run(&tr, "round-robin:polite=2", &c, &m, NULL, err, sizeof(err)) < 0);
	CHECK(strstr(err, "polite") != NULL);
	CHECK(fr_sim_run(&tr, "round-robin:polite=0.5", &c, &m, NULL, err, sizeof(err)) < 0);
	fr_trace_free(&tr);
}

/* ---- the time policies ---- */

struct rates {
	const double *lambda; /* per second */
};

static double
const_rate(const void *arg, uint32_t s, double t_s)
{
	(void)t_s;
	return ((const struct rates *)arg)->lambda[s];
}

/* Drives ops through the scheduler over [0, end) and records every fetch
 * time of each source (at most max each). Returns the fetches made. */
static int
drive(const struct fr_policy_ops *ops, const char *spec, const struct fr_policy_env *env,
      double gap_s, double end_s, double times[][400], int *count, int max)
{
	struct fr_sched_group g = {1000, 1}; /* generous: no rate-limit delay */
	uint32_t group[8] = {0};
	struct fr_sched_config sc = {
	    .mode = FR_RL_PACED,
	    .host_gap_s = gap_s,
	    .start_s = env->start_s,
	    .n_groups = 1,
	    .groups = &g,
	    .n_sources = env->n_sources,
	    .group = group,
	    .host = env->host,
	    .n_hosts = env->n_hosts,
	};
	struct fr_params p;
	struct fr_sched *s;
	char err[FR_ERRLEN];
	double now = env->start_s;
	int total = 0;

	for (uint32_t i = 0; i < env->n_sources; i++)
		count[i] = 0;
	if (fr_params_parse(&p, spec, err, sizeof(err)) < 0 ||
	    fr_sched_new(&s, ops, &p, &sc, env, err, sizeof(err)) < 0) {
		fprintf(stderr, "drive: %s\n", err);
		return -1;
	}
	for (;;) {
		uint32_t id;
		double at;
		if (!fr_sched_next(s, now, &id, &at) || at >= end_s)
			break;
		if (count[id] < max)
			times[id][count[id]] = at;
		count[id]++;
		total++;
		struct fr_fetch f = {at, FR_FETCH_OK, 0, NULL, NULL};
		fr_sched_done(s, id, &f);
		now = at;
	}
	fr_sched_free(s);
	return total;
}

/* Two equal pages share the budget: CHO gives each C/2. */
static void
time_policies_first_visit_and_spacing(void)
{
	static const struct fr_policy_ops *const ops[] = {
	    &fr_policy_cho_delayed, &fr_policy_opt_polite_delayed, &fr_policy_cho_equal};
	double lambda[3] = {1e-3, 1e-3, 0}; /* the third never changes */
	double w[3] = {1, 1, 1};
	uint32_t host[3] = {0, 1, 2}, group[3] = {0};
	struct rates r = {lambda};
	struct fr_policy_env env = {
	    .n_sources = 3,
	    .weight = w,
	    .group = group,
	    .start_s = 1000,
	    .calls_per_s = 0.1,
	    .seed = 5,
	    .intensity = const_rate,
	    .intensity_arg = &r,
	    .host = host,
	    .n_hosts = 3,
	};
	static double times[3][400];
	int count[3];

	for (int k = 0; k < 3; k++) {
		int n = drive(ops[k], ops[k]->name, &env, 0, 1000 + 2000, times, count, 400);
		/* f = 0.05 each: every 20 s, the first in [1000, 1020). */
		CHECK(n == 200);
		for (int i = 0; i < 2; i++) {
			CHECK(count[i] == 100);
			CHECK(times[i][0] >= 1000 && times[i][0] < 1020);
			for (int j = 1; j < count[i]; j++)
				CHECK_NEAR(times[i][j] - times[i][j - 1], 20, 1e-9);
		}
		CHECK(count[2] == 0); /* f = 0: never */
		/* The first visits depend on the seed and the source only. */
		CHECK(times[0][0] != times[1][0]);
	}
	double first0 = times[0][0];
	env.seed = 6;
	drive(&fr_policy_cho_equal, "cho+equal", &env, 0, 3000, times, count, 400);
	CHECK(times[0][0] != first0);

	/* Without the true rates the policies refuse to run. */
	struct fr_policy_env bare = env;
	struct fr_params p;
	void *ctx = NULL;
	char err[FR_ERRLEN];
	bare.intensity = NULL;
	CHECK(fr_params_parse(&p, "cho+delayed", err, sizeof(err)) == 0);
	CHECK(fr_policy_cho_delayed.create(&ctx, &p, &bare, err, sizeof(err)) < 0);
	CHECK(strstr(err, "--world") != NULL);
	/* The registry knows them by their '+' names. */
	CHECK(fr_policy_find("cho+delayed") == &fr_policy_cho_delayed);
	CHECK(fr_policy_find("opt-polite+delayed") == &fr_policy_opt_polite_delayed);
	CHECK(fr_policy_find("cho+equal") == &fr_policy_cho_equal);
	CHECK(fr_policy_cho_equal.no_host_gap && !fr_policy_cho_delayed.no_host_gap);
}

/* The due instant after a fetch is the previous due instant plus 1/f, even
 * when the fetch came late. */
static void
time_policies_keep_the_undelayed_schedule(void)
{
	double lambda[1] = {1e-3}, w[1] = {1};
	uint32_t group[1] = {0};
	struct rates r = {lambda};
	struct fr_policy_env env = {
	    .n_sources = 1,
	    .weight = w,
	    .group = group,
	    .start_s = 0,
	    .calls_per_s = 0.01, /* one page: f = C, every 100 s */
	    .seed = 1,
	    .intensity = const_rate,
	    .intensity_arg = &r,
	};
	struct fr_params p;
	void *ctx = NULL;
	char err[FR_ERRLEN];
	const struct fr_policy_ops *ops = &fr_policy_cho_delayed;
	unsigned char st[64] = {0};

	CHECK(ops->state_size(NULL) <= sizeof(st));
	CHECK(fr_params_parse(&p, "cho+delayed", err, sizeof(err)) == 0);
	CHECK(ops->create(&ctx, &p, &env, err, sizeof(err)) == 0);
	ops->init(ctx, st, 0, 0);
	double d0 = ops->due(ctx, st, 0, 0);
	CHECK(d0 >= 0 && d0 < 100);
	struct fr_fetch f = {d0 + 70, FR_FETCH_OK, 0, NULL, NULL};
	ops->fetched(ctx, st, &f);
	CHECK_NEAR(ops->due(ctx, st, f.now_s, 0), d0 + 100, 1e-9);
	f.now_s = d0 + 100; /* on time */
	ops->fetched(ctx, st, &f);
	CHECK_NEAR(ops->due(ctx, st, f.now_s, 0), d0 + 200, 1e-9);
	ops->destroy(ctx);
}

/* The first due instant of source s under ops with env (the schedule's own,
 * before any delay). */
static double
first_due(const struct fr_policy_ops *ops, const struct fr_policy_env *env, uint32_t s)
{
	struct fr_params p;
	void *ctx = NULL;
	char err[FR_ERRLEN];
	unsigned char st[64] = {0};
	double d = NAN;

	if (fr_params_parse(&p, ops->name, err, sizeof(err)) == 0 &&
	    ops->create(&ctx, &p, env, err, sizeof(err)) == 0) {
		ops->init(ctx, st, s, env->start_s);
		d = ops->due(ctx, st, env->start_s, 0);
		ops->destroy(ctx);
	}
	return d;
}

/* Two pages on one host, each every 40 s (C = 0.05), host gap 15 s. When
 * their phases lie within 15 s, the later one waits for the gap every round,
 * but its schedule stays first + 40 k: the delay never grows past the gap.
 * The same without the gap (cho+equal) is exactly equally spaced. */
static void
time_policies_delays_do_not_accumulate(void)
{
	double lambda[2] = {1e-3, 1e-3}, w[2] = {1, 1};
	uint32_t host[2] = {0, 0}, group[2] = {0};
	struct rates r = {lambda};
	struct fr_policy_env env = {
	    .n_sources = 2,
	    .weight = w,
	    .group = group,
	    .start_s = 0,
	    .calls_per_s = 0.05,
	    .host_gap_s = 15,
	    .host = host,
	    .n_hosts = 1,
	    .intensity = const_rate,
	    .intensity_arg = &r,
	};
	static double times[2][400];
	int count[2], close_phases = 0;

	/* A seed whose two phases fall within 15 s of each other. */
	for (uint64_t seed = 1; seed < 200 && !close_phases; seed++) {
		env.seed = seed;
		double first[2] = {first_due(&fr_policy_cho_delayed, &env, 0),
		                   first_due(&fr_policy_cho_delayed, &env, 1)};
		CHECK(first[0] >= 0 && first[0] < 40 && first[1] >= 0 && first[1] < 40);
		if (fabs(first[0] - first[1]) >= 15)
			continue;
		close_phases = 1;
		int late = first[1] > first[0];
		CHECK(drive(&fr_policy_cho_delayed, "cho+delayed", &env, 15, 16000, times, count,
		            400) == 800);
		for (int i = 0; i < 2; i++) {
			CHECK(count[i] == 400);
			for (int j = 0; j < count[i]; j++) {
				double sched = first[i] + 40.0 * j;
				if (i == late)
					/* Waits for the gap after the other, every round. */
					CHECK_NEAR(times[i][j], first[1 - i] + 40.0 * j + 15, 1e-6);
				else
					CHECK_NEAR(times[i][j], sched, 1e-6);
				CHECK(times[i][j] <= sched + 15 + 1e-6);
			}
		}
	}
	CHECK(close_phases);

	/* Unpolite: equally spaced, the gap ignored. */
	CHECK(drive(&fr_policy_cho_equal, "cho+equal", &env, 0, 16000, times, count, 400) == 800);
	for (int i = 0; i < 2; i++) {
		CHECK_NEAR(times[i][0], first_due(&fr_policy_cho_equal, &env, (uint32_t)i), 1e-9);
		for (int j = 1; j < count[i]; j++)
			CHECK_NEAR(times[i][j] - times[i][j - 1], 40, 1e-6);
	}
}

/* DELAYED on an overloaded host: eight pages whose plan asks far more than
 * one visit per gap. The host is then busy back to back, exactly one gap
 * apart, and the waiting pages take turns least recently fetched first (the
 * host's waiting queue in the scheduler): no page is visited twice before
 * another once. */
static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static void
delayed_overloaded_host_takes_turns(void)
{
	double lambda[8], w[8];
	uint32_t host[8], group[8] = {0};
	struct rates r = {lambda};
	struct fr_policy_env env = {
	    .n_sources = 8,
	    .weight = w,
	    .group = group,
	    .start_s = 0,
	    .calls_per_s = 1,
	    .host_gap_s = 15,
	    .host = host,
	    .n_hosts = 1,
	    .seed = 3,
	    .intensity = const_rate,
	    .intensity_arg = &r,
	};
	static double times[8][400], all[8 * 400];
	int count[8], n = 0, lo = 1 << 30, hi = 0;

	for (int i = 0; i < 8; i++) {
		lambda[i] = 1e-2;
		w[i] = 1;
		host[i] = 0;
	}
	int total = drive(&fr_policy_cho_delayed, "cho+delayed", &env, 15, 15 * 2000, times, count,
	                  400);
	CHECK(total >= 1990 && total <= 2000);
	for (int i = 0; i < 8; i++) {
		lo = count[i] < lo ? count[i] : lo;
		hi = count[i] > hi ? count[i] : hi;
		for (int j = 0; j < count[i] && j < 400; j++)
			all[n++] = times[i][j];
	}
	CHECK(hi - lo <= 1);
	qsort(all, (size_t)n, sizeof(all[0]), cmp_double);
	for (int k = 1; k < n; k++)
		CHECK_NEAR(all[k] - all[k - 1], 15, 1e-6);
	/* Turns: between two visits of a page, every other page once. */
	for (int i = 0; i < 8; i++)
		for (int j = 1; j < count[i] && j < 400; j++)
			CHECK_NEAR(times[i][j] - times[i][j - 1], 8 * 15, 1e-6);
}

/* OPT_POLITE caps the server at 1/gap: two equal pages on one host with a
 * budget of 0.1/s and a gap of 15 s get 1/30 each, CHO 1/20 each. */
static void
opt_polite_caps_the_host(void)
{
	double lambda[2] = {1e-3, 1e-3}, w[2] = {1, 1};
	uint32_t host[2] = {0, 0}, group[2] = {0};
	struct rates r = {lambda};
	struct fr_policy_env env = {
	    .n_sources = 2,
	    .weight = w,
	    .group = group,
	    .start_s = 0,
	    .calls_per_s = 0.1,
	    .seed = 3,
	    .host_gap_s = 15,
	    .host = host,
	    .n_hosts = 1,
	    .intensity = const_rate,
	    .intensity_arg = &r,
	};
	static double times[2][400];
	int count[2];

	/* Exactly saturated (two per 30 s = one per 15 s): the later phase may
	 * lose its last visit to the end of the run. */
	int n = drive(&fr_policy_opt_polite_delayed, "opt-polite+delayed", &env, 15, 3000, times,
	              count, 400);
	CHECK(n >= 199 && n <= 200);
	for (int i = 0; i < 2; i++)
		for (int j = 1; j < count[i]; j++)
			CHECK_NEAR(times[i][j] - times[i][j - 1], 30, 1e-6);
	CHECK(drive(&fr_policy_cho_delayed, "cho+delayed", &env, 0, 3000, times, count, 400) ==
	      300);
}

/* The bounds: UNPOLITE >= POLITE, equal without a gap or when no server is
 * over its cap, both the value of their allocations. */
static void
bounds_of_a_small_repository(void)
{
	double lam[4] = {1e-3, 2e-3, 1e-4, 5e-3}, w[4] = {1, 2, 1, 0.5};
	uint32_t srv[4] = {0, 0, 0, 1};
	struct fr_pages p = {.n = 4, .lambda = lam, .weight = w, .server = srv, .n_servers = 2};
	double up, po, f[4];
	char err[FR_ERRLEN];

	CHECK(fr_pages_bounds(&p, 0, 0.05, 15, &up, &po, err, sizeof(err)) == 0);
	CHECK(fr_alloc_cho(&p, 0.05, f, NULL, err, sizeof(err)) == 0);
	CHECK_NEAR(up, fr_alloc_value(&p, f), 1e-12);
	CHECK(up >= po - 1e-12);
	CHECK(fr_pages_bounds(&p, 0, 0.05, 0, &up, &po, err, sizeof(err)) == 0);
	CHECK(up == po);
	/* Server 0 over its cap: a real gap. */
	CHECK(fr_pages_bounds(&p, 0, 0.12, 15, &up, &po, err, sizeof(err)) == 0);
	CHECK(up > po + 1e-4);
	/* A budget beyond m/P is capped for POLITE, not an error. */
	CHECK(fr_pages_bounds(&p, 0, 1, 15, &up, &po, err, sizeof(err)) == 0);
	CHECK(po < up);
	/* Pages outside p (rate 0) count as always fresh. */
	double up2, po2;
	CHECK(fr_pages_bounds(&p, 0, 0.05, 15, &up, &po, err, sizeof(err)) == 0);
	CHECK(fr_pages_bounds(&p, 9, 0.05, 15, &up2, &po2, err, sizeof(err)) == 0);
	CHECK_NEAR(up2, (up * 4.5 + 4.5) / 9, 1e-12);
	CHECK_NEAR(po2, (po * 4.5 + 4.5) / 9, 1e-12);
}

int
main(void)
{
	RUN(pages_are_deterministic_per_seed);
	RUN(pages_are_heavy_tailed);
	RUN(pages_files_load_back);
	RUN(freshness_by_hand);
	RUN(freshness_is_weighted);
	RUN(politeness_violations);
	RUN(time_policies_first_visit_and_spacing);
	RUN(time_policies_keep_the_undelayed_schedule);
	RUN(time_policies_delays_do_not_accumulate);
	RUN(delayed_overloaded_host_takes_turns);
	RUN(opt_polite_caps_the_host);
	RUN(bounds_of_a_small_repository);
	return TEST_DONE();
}
