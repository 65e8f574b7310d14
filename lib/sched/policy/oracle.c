/* oracle.c - the limit for policies that cannot see the future: it knows
 * each source's true intensity (the world's rates, not its item times) and
 * fetches by the square-root-rule index, the expected total waiting time of
 * the items published since the last fetch. On a recorded trace the
 * simulator hands it the in-sample rates instead (sim/insample.h: each
 * source's rate by hour of the week over the whole trace), a reference in
 * hindsight, not a limit. */
#include "sched/policy.h"

#include "core/err.h"
#include "model/waitindex.h"

#include <math.h>
#include <stdlib.h>

struct oracle_ctx {
	double (*intensity)(const void *arg, uint32_t s, double t_s);
	const void *arg;
	double horizon_s;
};

struct oracle_state {
	struct fr_waitacc acc;
	uint32_t src;
	/* The rate of hour memo_hour (INT64_MIN: none yet): urgencies
	 * advance a few minutes at a time, so most ask again for the hour the
	 * last one (or the due time's search) asked for. The rate is a function
	 * of the source and the hour alone, so the memo changes no figure. */
	int64_t memo_hour;
	double memo_rate;
};

struct rate_arg {
	const struct oracle_ctx *c;
	struct oracle_state *o;
};

/* The world's intensity is constant within an hour except at a source's
 * rate change, start and stop instants; its value at mid-hour stands for the
 * hour. */
static double
hour_rate(const void *arg, int64_t hour)
{
	const struct rate_arg *ra = arg;
	struct oracle_state *o = ra->o;

	if (o->memo_hour != hour) {
		o->memo_rate = ra->c->intensity(ra->c->arg, o->src, (double)hour * 3600.0 + 1800.0);
		o->memo_hour = hour;
	}
	return o->memo_rate;
}

static int
oracle_create(void **ctx, struct fr_params *params, const struct fr_policy_env *env, char *err,
	      size_t errlen)
{
	double horizon_d;

	if (!env->intensity)
		return fr_errf(err, errlen,
			       "policy 'oracle' needs rates: a synthetic world's (--world DIR) "
			       "or, on a trace, the in-sample ones (insample=1)");
	if (fr_params_double(params, "horizon", 14, 0.1, 3650, &horizon_d, err, errlen) < 0)
		return -1;
	struct oracle_ctx *c = malloc(sizeof(*c));
	if (!c)
		return fr_errf(err, errlen, "out of memory");
	c->intensity = env->intensity;
	c->arg = env->intensity_arg;
	c->horizon_s = horizon_d * 86400.0;
	*ctx = c;
	return 0;
}

static void
oracle_destroy(void *ctx)
{
	free(ctx);
}

static size_t
oracle_state_size(const void *ctx)
{
	(void)ctx;
	return sizeof(struct oracle_state);
}

static void
oracle_init(void *ctx, void *st, uint32_t s, double now_s)
{
	struct oracle_state *o = st;
	(void)ctx;
	fr_waitacc_reset(&o->acc, now_s);
	o->src = s;
	o->memo_hour = INT64_MIN;
}

static double
oracle_urgency(void *ctx, void *st, double now_s)
{
	struct oracle_state *o = st;
	struct rate_arg ra = {ctx, o};
	return fr_waitacc_advance(&o->acc, now_s, hour_rate, &ra, NULL);
}

static double
oracle_due(void *ctx, void *st, double now_s, double theta)
{
	struct oracle_state *o = st;
	const struct oracle_ctx *c = ctx;
	struct rate_arg ra = {c, o};
	(void)now_s;
	return fr_waitacc_due(&o->acc, theta, hour_rate, &ra, NULL, c->horizon_s);
}

static void
oracle_fetched(void *ctx, void *st, const struct fr_fetch *f)
{
	(void)ctx;
	/* A failed fetch saw nothing: the unseen items still wait. */
	if (f->status != FR_FETCH_ERROR)
		fr_waitacc_reset(&((struct oracle_state *)st)->acc, f->now_s);
}

const struct fr_policy_ops fr_policy_oracle = {
	.name = "oracle",
	.help = "square-root rule with the true rates of a --world (the practical limit), or on a --trace "
		"the in-sample rates by hour of week (hindsight, no limit): horizon=14 (days) insample=0|1",
	.kind = FR_POLICY_INDEX,
	.theta0 = 100,
	.create = oracle_create,
	.destroy = oracle_destroy,
	.state_size = oracle_state_size,
	.init = oracle_init,
	.urgency = oracle_urgency,
	.due = oracle_due,
	.fetched = oracle_fetched,
	.rhythm = NULL,
};
