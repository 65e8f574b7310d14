/* test_policies.c - the research policies end to end on a small synthetic
 * world (300 sources, 42 days) under the seed's budget scaled to its size:
 * the oracle and freshet beat round robin, freshet beats air balloon, the
 * oracle stays near freshet; plus freshet's per-source footprint, the
 * oracle's refusal without a world, parameter errors and determinism. */
#include "test.h"

#include "core/err.h"
#include "core/rng.h"
#include "model/ratemodel.h"
#include "sched/params.h"
#include "sched/policy.h"
#include "sched/sched.h"
#include "sim/sim.h"
#include "sim/trace.h"
#include "sim/world.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define N_SOURCES 300
#define DAYS 42
#define SEED 5

/* The world and its trace, built once. */
static struct fr_world world;
static struct fr_trace trace;
static int world_ok;

static void
world_open(void)
{
	struct fr_world_params p;
	char err[FR_ERRLEN];

	fr_world_defaults(&p);
	p.n_sources = N_SOURCES;
	p.days = DAYS;
	p.seed = SEED;
	world_ok = fr_world_generate(&world, &p, err, sizeof(err)) == 0 &&
	           fr_world_trace(&world, &trace, err, sizeof(err)) == 0;
	if (!world_ok)
		fprintf(stderr, "world: %s\n", err);
	CHECK(world_ok);
	CHECK(trace.n_sources == N_SOURCES);
	CHECK(trace.n_items > 1000);
}

/* The seed's 600 calls per 10 minutes for 4,106 sources, scaled to 300:
 * round(600 * 300 / 4106) = round(43.84) = 44 calls per 600 s. */
static struct fr_sim_config
config(enum fr_rl_mode mode, int with_intensity)
{
	struct fr_sim_config c;
	memset(&c, 0, sizeof(c));
	c.start_s = world.p.start_s;
	c.end_s = world.end_s;
	c.mode = mode;
	c.calls = (uint32_t)lround(600.0 * N_SOURCES / 4106.0);
	c.window_s = 600;
	c.seed = 1;
	if (with_intensity) {
		c.intensity = fr_world_intensity_cb;
		c.intensity_arg = &world;
	}
	return c;
}

struct figures {
	double mean_s, coverage, delay_sum_s;
	uint64_t items, fetched, requests;
	int ok;
};

static struct figures
run(const char *spec, enum fr_rl_mode mode)
{
	struct figures f = {0};
	struct fr_sim_config c = config(mode, 1);
	struct fr_metrics m;
	char err[FR_ERRLEN];

	if (fr_sim_run(&trace, spec, &c, &m, NULL, err, sizeof(err)) < 0) {
		fprintf(stderr, "%s: %s\n", spec, err);
		return f;
	}
	f.ok = 1;
	f.mean_s = m.delay_mean_s;
	f.coverage = m.coverage;
	f.items = m.items;
	f.fetched = m.fetched;
	f.requests = m.requests;
	for (uint64_t i = 0; i < m.fetched; i++)
		f.delay_sum_s += m.delays[i];
	fr_metrics_free(&m);
	fprintf(stderr, "  %-28s %s mean %8.1f s  coverage %.5f  items %llu  requests %llu\n", spec,
	        mode == FR_RL_PACED ? "paced" : "burst", f.mean_s, f.coverage,
	        (unsigned long long)f.items, (unsigned long long)f.requests);
	return f;
}

static void
policies_rank_as_expected_in_burst_mode(void)
{
	if (!world_ok)
		return;
	struct figures rr = run("round-robin", FR_RL_BURST);
	struct figures ab = run("air-balloon:inertia=960", FR_RL_BURST);
	struct figures fs = run("freshet", FR_RL_BURST);
	struct figures orc = run("oracle", FR_RL_BURST);

	CHECK(rr.ok && ab.ok && fs.ok && orc.ok);
	CHECK(rr.items == fs.items && fs.items == orc.items && orc.items == ab.items);
	/* Every policy spends the whole budget: 44 calls per window, 42 days. */
	CHECK(rr.requests == 44ull * 6 * 24 * DAYS);
	CHECK(fs.requests == rr.requests && orc.requests == rr.requests);
	CHECK(orc.mean_s < rr.mean_s);
	CHECK(fs.mean_s < rr.mean_s);
	CHECK(fs.mean_s < ab.mean_s);
	/* The oracle is the practical limit; freshet may come close, not far below. */
	CHECK(orc.mean_s <= 1.05 * fs.mean_s);
	CHECK(fs.coverage >= 0.999);
	CHECK(orc.coverage >= 0.999);
	if (fs.ok && rr.ok && orc.ok && ab.ok)
		fprintf(stderr,
		        "  ratios: freshet/rr %.3f  oracle/rr %.3f  freshet/air-balloon %.3f  "
		        "oracle/freshet %.3f\n",
		        fs.mean_s / rr.mean_s, orc.mean_s / rr.mean_s, fs.mean_s / ab.mean_s,
		        orc.mean_s / fs.mean_s);
}

static void
freshet_beats_round_robin_paced(void)
{
	if (!world_ok)
		return;
	struct figures rr = run("round-robin", FR_RL_PACED);
	struct figures fs = run("freshet", FR_RL_PACED);

	CHECK(rr.ok && fs.ok);
	CHECK(fs.mean_s < rr.mean_s);
	CHECK(fs.coverage >= 0.999);
}

static void
same_run_twice_is_identical(void)
{
	if (!world_ok)
		return;
	struct figures a = run("freshet", FR_RL_BURST);
	struct figures b = run("freshet", FR_RL_BURST);

	CHECK(a.ok && b.ok);
	CHECK(a.items == b.items);
	CHECK(a.fetched == b.fetched);
	CHECK(a.requests == b.requests);
	CHECK(a.delay_sum_s == b.delay_sum_s);
	CHECK(a.mean_s == b.mean_s);
}

/* freshet's state per source fits the 256 bytes the interface allows,
 * through the scheduler and through the ops alike. */
static void
freshet_state_is_at_most_256_bytes(void)
{
	struct fr_sched_group g = {44, 600};
	uint32_t group[3] = {0, 0, 0};
	double w[3] = {1, 1, 1};
	struct fr_sched_config sc = {FR_RL_BURST, 0, 0, 1, &g, 3, group, NULL, 0};
	struct fr_policy_env env = {
	    .n_sources = 3, .weight = w, .group = group, .calls_per_s = 44.0 / 600, .seed = 1};
	struct fr_params p;
	struct fr_sched *s = NULL;
	char err[FR_ERRLEN];

	CHECK(fr_params_parse(&p, "freshet", err, sizeof(err)) == 0);
	CHECK(fr_sched_new(&s, &fr_policy_freshet, &p, &sc, &env, err, sizeof(err)) == 0);
	if (s) {
		size_t n = fr_sched_state_size(s);
		CHECK(n > 0 && n <= 256);
		fprintf(stderr, "  freshet state: %zu bytes per source\n", n);
		fr_sched_free(s);
	}

	void *ctx = NULL;
	CHECK(fr_params_parse(&p, "freshet", err, sizeof(err)) == 0);
	CHECK(fr_policy_freshet.create(&ctx, &p, &env, err, sizeof(err)) == 0);
	if (ctx) {
		CHECK(fr_policy_freshet.state_size(ctx) <= 256);
		fr_policy_freshet.destroy(ctx);
	}
	CHECK(fr_policy_find("freshet") == &fr_policy_freshet);
	CHECK(fr_policy_find("oracle") == &fr_policy_oracle);
}

/* freshet driven through its ops: due(theta) is where urgency reaches
 * theta (bursts included), within the exploration cap. */
static void
freshet_due_inverts_urgency(void)
{
	enum { N = 300 };
	static double w[N];
	static uint32_t group[N];
	const double t0 = 1349049600.0, hour = 3600.0;
	struct fr_policy_env env = {
	    .n_sources = N, .weight = w, .group = group, .start_s = t0, .calls_per_s = 44.0 / 600,
	    .seed = 1};
	struct fr_params p;
	char err[FR_ERRLEN];
	void *ctx = NULL;
	union {
		double d;
		unsigned char b[256];
	} st, cp;

	for (int i = 0; i < N; i++)
		w[i] = 1;
	CHECK(fr_params_parse(&p, "freshet", err, sizeof(err)) == 0);
	CHECK(fr_policy_freshet.create(&ctx, &p, &env, err, sizeof(err)) == 0);
	if (!ctx)
		return;
	CHECK(fr_policy_freshet.state_size(ctx) <= sizeof(st.b));
	memset(&st, 0, sizeof(st));
	fr_policy_freshet.init(ctx, st.b, 0, t0);
	/* Fetched every 2 h for 10 days; items every 3 h (the last one 10
	 * minutes before the last fetch) and a follow-up 5 minutes after every
	 * fourth one, so the burst term is live when due() is asked. */
	double last = t0, pub[8];
	long k = 0;
	for (int i = 1; i <= 120; i++) {
		double now = t0 + 2 * hour * i;
		size_t n = 0;
		for (;; k++) {
			double tk =
			    t0 + 3 * hour - 600 + 3 * hour * (double)(k / 2) + (k % 2 ? 300 : 0);
			if (k % 2 && (k / 2) % 4)
				continue; /* no follow-up this time */
			if (tk > now)
				break;
			pub[n++] = tk;
		}
		struct fr_fetch f = {now, FR_FETCH_OK, n, pub, NULL};
		CHECK(fr_policy_freshet.urgency(ctx, st.b, now) >= 0);
		fr_policy_freshet.fetched(ctx, st.b, &f);
		last = now;
	}
	CHECK(fr_policy_freshet.urgency(ctx, st.b, last) == 0);
	double cap = 16 * N / (44.0 / 600); /* explore x the round-robin cycle */
	int checked = 0;
	for (double theta = 10; theta < 1e6; theta *= 3) {
		cp = st;
		double d = fr_policy_freshet.due(ctx, cp.b, last, theta);
		CHECK(d > last && d <= last + cap);
		if (!(d > last + 1 && d < last + cap - 1))
			continue;
		cp = st;
		double before = fr_policy_freshet.urgency(ctx, cp.b, d - 1e-2);
		double at = fr_policy_freshet.urgency(ctx, cp.b, d + 1e-2);
		CHECK(before < theta && at >= theta);
		checked++;
	}
	CHECK(checked >= 4);
	/* Past the cap a source ranks above the threshold asked about. */
	cp = st;
	fr_policy_freshet.due(ctx, cp.b, last, 1e12);
	CHECK(fr_policy_freshet.urgency(ctx, cp.b, last + cap) >= 2e12);

	/* A failed fetch teaches nothing: the unseen items keep waiting. */
	double u5 = fr_policy_freshet.urgency(ctx, st.b, last + 5 * hour);
	CHECK(u5 > 0);
	struct fr_fetch fail = {last + 5 * hour, FR_FETCH_ERROR, 0, NULL, NULL};
	fr_policy_freshet.fetched(ctx, st.b, &fail);
	CHECK(fr_policy_freshet.urgency(ctx, st.b, last + 5 * hour) >= u5);
	fr_policy_freshet.destroy(ctx);
}

/* Sources that publish once a day at their own hour (a daily thread, a
 * digest) beside Poisson sources of the same rate: what the time since a
 * source's last item says (next to nothing for hours, then a lot) is what
 * freshet's hazard table learns, and it must pay off in mean delay. */
static double
daily_run(const struct fr_trace *tr, const char *spec, double start_s, double end_s)
{
	struct fr_sim_config c;
	struct fr_metrics m;
	char err[FR_ERRLEN];

	memset(&c, 0, sizeof(c));
	c.start_s = start_s;
	c.end_s = end_s;
	c.mode = FR_RL_BURST;
	c.calls = 12; /* per 600 s for 300 sources: a round-robin cycle of 4 h 10 */
	c.window_s = 600;
	c.seed = 1;
	if (fr_sim_run(tr, spec, &c, &m, NULL, err, sizeof(err)) < 0) {
		fprintf(stderr, "%s: %s\n", spec, err);
		return NAN;
	}
	double mean = m.delay_mean_s;
	fr_metrics_free(&m);
	fprintf(stderr, "  daily posters, %-22s mean %8.1f s\n", spec, mean);
	return mean;
}

static void
freshet_hazard_learns_daily_posters(void)
{
	enum { N = 300, DAYS_D = 60 };
	const double t0 = 1349049600.0; /* 2012-10-01, a Monday */
	size_t cap = N * DAYS_D * 3, n = 0;
	const char **src = malloc(cap * sizeof(*src));
	double *t = malloc(cap * sizeof(*t));
	char(*names)[8] = malloc(N * sizeof(*names));
	struct fr_rng r;
	struct fr_trace tr;
	char err[FR_ERRLEN];

	CHECK(src && t && names);
	if (!src || !t || !names)
		goto out;
	fr_rng_seed(&r, 11);
	for (int s = 0; s < N; s++) {
		snprintf(names[s], sizeof(names[s]), "s%03d", s);
		if (s % 2 == 0) { /* daily, at its own minute, +- 15 minutes */
			double at = fr_rng_uniform(&r) * 86400.0;
			for (int d = 0; d < DAYS_D; d++) {
				src[n] = names[s];
				t[n++] = t0 + d * 86400.0 + at + (fr_rng_uniform(&r) - 0.5) * 1800.0;
			}
		} else { /* Poisson, once a day on average */
			for (double x = t0 + fr_rng_exp(&r, 1.0) * 86400.0;
			     x < t0 + DAYS_D * 86400.0 && n < cap; x += fr_rng_exp(&r, 1.0) * 86400.0) {
				src[n] = names[s];
				t[n++] = x;
			}
		}
	}
	CHECK(fr_trace_from_rows(&tr, n, src, t, NULL, err, sizeof(err)) == 0);
	double with = daily_run(&tr, "freshet", t0, t0 + DAYS_D * 86400.0);
	double without = daily_run(&tr, "freshet:hazard=0", t0, t0 + DAYS_D * 86400.0);
	double rr = daily_run(&tr, "round-robin", t0, t0 + DAYS_D * 86400.0);
	CHECK(with < without * 0.9);
	CHECK(with < rr);
	fr_trace_free(&tr);
out:
	free(src);
	free(t);
	free(names);
}

/* A feed whose items carry no date: they count as seen in the hazard table
 * too, so its expectation and its items stay level and the source keeps
 * the urgency its rate gives (a table that expected items and counted none
 * would push it toward never). Two dated sources beside it for contrast. */
static void
freshet_undated_items_keep_their_rate(void)
{
	enum { N = 3 };
	static double w[N] = {1, 1, 1};
	static uint32_t group[N];
	const double t0 = 1349049600.0, hour = 3600.0, rate = 2 / hour;
	struct fr_policy_env env = {
	    .n_sources = N, .weight = w, .group = group, .start_s = t0, .calls_per_s = 3.0 / 3600,
	    .seed = 1};
	struct fr_params p;
	char err[FR_ERRLEN];
	void *ctx = NULL;
	union {
		double d;
		unsigned char b[256];
	} st[N];
	struct fr_rng r;

	CHECK(fr_params_parse(&p, "freshet", err, sizeof(err)) == 0);
	CHECK(fr_policy_freshet.create(&ctx, &p, &env, err, sizeof(err)) == 0);
	if (!ctx)
		return;
	for (int s = 0; s < N; s++)
		fr_policy_freshet.init(ctx, st[s].b, (uint32_t)s, t0);
	fr_rng_seed(&r, 3);
	/* Each source: items at 2 per hour, fetched hourly for 30 days; source
	 * 0's come without a date. */
	double next[N], now = t0;
	for (int s = 0; s < N; s++)
		next[s] = t0 + fr_rng_exp(&r, 1 / rate);
	for (int i = 1; i <= 30 * 24; i++) {
		now = t0 + hour * i;
		for (int s = 0; s < N; s++) {
			double pub[64];
			size_t n = 0;
			for (; next[s] <= now; next[s] += fr_rng_exp(&r, 1 / rate))
				if (n < 64)
					pub[n++] = s == 0 ? NAN : next[s];
			struct fr_fetch f = {now, FR_FETCH_OK, n, pub, NULL};
			fr_policy_freshet.urgency(ctx, st[s].b, now);
			fr_policy_freshet.fetched(ctx, st[s].b, &f);
		}
	}
	/* An hour after the last fetch U is about rate x hour^2 / 2 (3,600
	 * item-seconds), the daily profile aside. */
	double u0 = fr_policy_freshet.urgency(ctx, st[0].b, now + hour);
	double u1 = fr_policy_freshet.urgency(ctx, st[1].b, now + hour);
	fprintf(stderr, "  undated source U %.0f, dated %.0f (rate x hour^2 / 2 = %.0f)\n", u0, u1,
	        rate * hour * hour / 2);
	CHECK(u0 > 0.5 * rate * hour * hour / 2 && u0 < 2 * rate * hour * hour / 2);
	CHECK(u0 > 0.5 * u1 && u0 < 2 * u1);
	fr_policy_freshet.destroy(ctx);
}

/* Without a world the oracle runs on the trace's in-sample rates by hour
 * of week (they know the hours that held items: far ahead of round robin
 * on this small world); asked for the true ones, it needs a world. */
static void
oracle_needs_a_world(void)
{
	if (!world_ok)
		return;
	struct fr_sim_config c = config(FR_RL_BURST, 0);
	struct fr_metrics m;
	char err[FR_ERRLEN] = "";

	CHECK(fr_sim_run(&trace, "oracle:insample=0", &c, &m, NULL, err, sizeof(err)) == -1);
	CHECK(strstr(err, "--world") != NULL);
	CHECK(fr_sim_run(&trace, "oracle:insample=2", &c, &m, NULL, err, sizeof(err)) == -1);
	CHECK(strstr(err, "insample") != NULL);
	struct figures rr = run("round-robin", FR_RL_BURST);
	CHECK(fr_sim_run(&trace, "oracle", &c, &m, NULL, err, sizeof(err)) == 0);
	CHECK(m.coverage >= 0.999 && m.delay_mean_s < 0.8 * rr.mean_s);
	fprintf(stderr, "  oracle in-sample burst mean %7.1f s (round robin %.1f s)\n",
		m.delay_mean_s, rr.mean_s);
	fr_metrics_free(&m);
	/* On a world it may be asked for too. */
	c.intensity = fr_world_intensity_cb;
	c.intensity_arg = &world;
	CHECK(fr_sim_run(&trace, "oracle:insample=1", &c, &m, NULL, err, sizeof(err)) == 0);
	fr_metrics_free(&m);
	c.intensity = NULL;
	/* Freshet needs none. */
	CHECK(fr_sim_run(&trace, "freshet:explore=4", &c, &m, NULL, err, sizeof(err)) == 0);
	fr_metrics_free(&m);
}

static void
parameter_errors(void)
{
	if (!world_ok)
		return;
	struct fr_sim_config c = config(FR_RL_BURST, 1);
	struct fr_metrics m;
	char err[FR_ERRLEN] = "";

	CHECK(fr_sim_run(&trace, "freshet:no_such_key=1", &c, &m, NULL, err, sizeof(err)) < 0);
	CHECK(strstr(err, "no_such_key") != NULL);
	CHECK(fr_sim_run(&trace, "freshet:tau=abc", &c, &m, NULL, err, sizeof(err)) < 0);
	CHECK(strstr(err, "tau") != NULL);
	CHECK(fr_sim_run(&trace, "freshet:bursts=2", &c, &m, NULL, err, sizeof(err)) < 0);
	CHECK(fr_sim_run(&trace, "oracle:horizon=0", &c, &m, NULL, err, sizeof(err)) < 0);
	CHECK(fr_sim_run(&trace, "oracle:tau=60", &c, &m, NULL, err, sizeof(err)) < 0);
	CHECK(strstr(err, "tau") != NULL);
}

/* A freshet context that has learned: a few sources fetched over weeks. */
static void *
learned_freshet(const struct fr_policy_ops *ops, const struct fr_policy_env *env)
{
	struct fr_params p;
	char err[FR_ERRLEN];
	void *ctx = NULL;
	unsigned char st[3][256];
	double now = env->start_s;

	if (fr_params_parse(&p, "freshet", err, sizeof(err)) != 0 ||
	    ops->create(&ctx, &p, env, err, sizeof(err)) != 0)
		return NULL;
	for (uint32_t s = 0; s < 3; s++) {
		memset(st[s], 0, sizeof(st[s]));
		ops->init(ctx, st[s], s, now);
	}
	for (int i = 0; i < 400; i++) {
		double pub[3];
		struct fr_fetch f = {0};
		uint32_t s = (uint32_t)(i % 3);

		now += 3 * 3600.0 + 600.0 * (i % 7);
		pub[0] = now - 900;
		pub[1] = now - 5000 - 100.0 * s;
		pub[2] = NAN;
		f.now_s = now;
		f.status = FR_FETCH_OK;
		f.n_items = (size_t)(i % 4 == 3 ? 0 : 1 + (i % 3));
		f.published_s = pub;
		ops->fetched(ctx, st[s], &f);
	}
	return ctx;
}

/* The saved context is outside data: a learned one loads back to the same
 * bytes; a value that is not finite or out of its range is refused with a
 * message naming it, and the context is left as it was (the fuzz_ctx
 * finding: a NaN-making context passed a probe of a few fetches). */
static void
freshet_context_load_refuses_bad_values(void)
{
	const struct fr_policy_ops *ops = fr_policy_find("freshet");
	uint32_t group[3] = {0, 0, 0};
	double w[3] = {1, 1, 1};
	struct fr_policy_env env = {.n_sources = 3,
	                            .weight = w,
	                            .group = group,
	                            .start_s = 1.7e9,
	                            .calls_per_s = 0.1,
	                            .seed = 1};
	char err[FR_ERRLEN];

	CHECK(ops != NULL && ops->ctx_save && ops->ctx_load);
	if (!ops || !ops->ctx_save || !ops->ctx_load)
		return;
	void *a = learned_freshet(ops, &env), *b = learned_freshet(ops, &env);
	CHECK(a != NULL && b != NULL);
	if (!a || !b)
		return;
	size_t len = ops->ctx_save(a, NULL, 0);
	unsigned char *saved = malloc(len), *bad = malloc(len), *again = malloc(len),
	              *before = malloc(len);
	CHECK(saved && bad && again && before);
	if (!saved || !bad || !again || !before)
		goto out;
	CHECK(ops->ctx_save(a, saved, len) == len);

	/* a fresh context takes it, and saves the same bytes */
	struct fr_params p;
	void *fresh = NULL;
	CHECK(fr_params_parse(&p, "freshet", err, sizeof(err)) == 0 &&
	      ops->create(&fresh, &p, &env, err, sizeof(err)) == 0);
	CHECK(ops->ctx_load(fresh, saved, len, err, sizeof(err)) == 0);
	CHECK(ops->ctx_save(fresh, again, len) == len && memcmp(again, saved, len) == 0);
	ops->destroy(fresh);

	/* The record: two 32-bit words, the population (lib/model), then
	 * freshet's own doubles starting with em_items, em_short, em_follow,
	 * em_lag, follow_share, log_rate_mean, log_rate_n, burst_tau_s. */
	size_t pop_at = 2 * sizeof(uint32_t), own_at = pop_at + sizeof(struct fr_ratepop);
	struct {
		size_t at;
		double v;
		const char *name;
	} cases[] = {
	    {pop_at + offsetof(struct fr_ratepop, tau_s), -86400.0, "pop.tau_s"},
	    {pop_at + offsetof(struct fr_ratepop, at_s), 1e300, "pop.at_s"},
	    {pop_at + offsetof(struct fr_ratepop, items), NAN, "pop.items"},
	    {pop_at + offsetof(struct fr_ratepop, aligned) + 5 * sizeof(double), -3.0,
	     "pop.aligned[5]"},
	    {pop_at + offsetof(struct fr_ratepop, prior) + 7 * sizeof(double), 0.9,
	     "pop.logprior[0][7]"},
	    {pop_at + offsetof(struct fr_ratepop, logprior) + 24 * sizeof(double), -1.0,
	     "pop.logprior[1][0]"},
	    {pop_at + offsetof(struct fr_ratepop, dshare) + 2 * sizeof(double), -0.1,
	     "pop.dshare[2]"},
	    {pop_at + offsetof(struct fr_ratepop, lp_shift), 0.5, "pop.lp_shift[0]"},
	    {pop_at + offsetof(struct fr_ratepop, prior_rate), INFINITY, "pop.prior_rate"},
	    {own_at, -1.0, "em_items"},
	    {own_at + 2 * sizeof(double), 1e9, "em_follow"},
	    {own_at + 4 * sizeof(double), 2.0, "follow_share"},
	    {own_at + 5 * sizeof(double), NAN, "log_rate_mean"},
	    {own_at + 7 * sizeof(double), 0.0, "burst_tau_s"},
	    {own_at + 8 * sizeof(double), -1.0, "hz_obs[0][0]"},
	};
	CHECK(ops->ctx_save(b, before, len) == len);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memcpy(bad, saved, len);
		memcpy(bad + cases[i].at, &cases[i].v, sizeof(double));
		err[0] = '\0';
		CHECK(ops->ctx_load(b, bad, len, err, sizeof(err)) == -1);
		if (!strstr(err, cases[i].name))
			fprintf(stderr, "case %s: \"%s\"\n", cases[i].name, err);
		CHECK(strstr(err, cases[i].name) != NULL);
		CHECK(ops->ctx_save(b, again, len) == len && memcmp(again, before, len) == 0);
	}
	/* another length, another version */
	CHECK(ops->ctx_load(b, saved, len - 8, err, sizeof(err)) == -1);
	CHECK(strstr(err, "bytes") != NULL);
	memcpy(bad, saved, len);
	bad[0] ^= 0x55;
	CHECK(ops->ctx_load(b, bad, len, err, sizeof(err)) == -1);
	CHECK(strstr(err, "version") != NULL);
out:
	free(saved);
	free(bad);
	free(again);
	free(before);
	ops->destroy(a);
	ops->destroy(b);
}

int
main(void)
{
	RUN(world_open);
	RUN(freshet_state_is_at_most_256_bytes);
	RUN(policies_rank_as_expected_in_burst_mode);
	RUN(freshet_beats_round_robin_paced);
	RUN(same_run_twice_is_identical);
	RUN(freshet_due_inverts_urgency);
	RUN(freshet_hazard_learns_daily_posters);
	RUN(freshet_undated_items_keep_their_rate);
	RUN(oracle_needs_a_world);
	RUN(parameter_errors);
	RUN(freshet_context_load_refuses_bad_values);
	fr_trace_free(&trace);
	fr_world_free(&world);
	return TEST_DONE();
}
