/* ttrss.c - Tiny Tiny RSS's fixed interval as an interval policy: every
 * source is fetched every 30 minutes, whatever it publishes.
 *
 * Implements baselines.md "Tiny Tiny RSS": next = now + interval (minutes),
 * after successes and errors alike. The simulator has no 429 (whose 1-2 h
 * random retry is therefore absent). A source without a successful update for
 * unsuccessful_days (30; 0 never) is no longer fetched, as TT-RSS's daemon
 * skips it; before its first success, the subscription time counts. */
#include "sched/policy.h"

#include "core/err.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

struct tt_ctx {
	double interval_min, unsuccessful_days;
};

/* 16 bytes per source. */
struct tt_state {
	double next_s;
	double last_ok_s; /* last successful update, or the subscription */
};

static int
tt_create(void **ctx, struct fr_params *params, const struct fr_policy_env *env, char *err,
	  size_t errlen)
{
	struct tt_ctx c;

	(void)env;
	if (fr_params_double(params, "interval", 30, 0.01, 1e7, &c.interval_min, err, errlen) < 0 ||
	    fr_params_double(params, "unsuccessful_days", 30, 0, 1e5, &c.unsuccessful_days, err,
			     errlen) < 0)
		return -1;
	struct tt_ctx *p = malloc(sizeof(*p));
	if (!p)
		return fr_errf(err, errlen, "out of memory");
	*p = c;
	*ctx = p;
	return 0;
}

static void
tt_destroy(void *ctx)
{
	free(ctx);
}

static size_t
tt_state_size(const void *ctx)
{
	(void)ctx;
	return sizeof(struct tt_state);
}

static void
tt_init(void *ctx, void *st, uint32_t s, double now_s)
{
	struct tt_state *b = st;
	(void)ctx;
	(void)s;
	b->next_s = now_s;
	b->last_ok_s = now_s;
}

static double
tt_due(void *ctx, void *st, double now_s, double theta)
{
	(void)ctx;
	(void)now_s;
	(void)theta;
	return ((struct tt_state *)st)->next_s;
}

static void
tt_fetched(void *ctx, void *st, const struct fr_fetch *f)
{
	const struct tt_ctx *c = ctx;
	struct tt_state *b = st;

	if (f->status != FR_FETCH_ERROR)
		b->last_ok_s = f->now_s;
	else if (c->unsuccessful_days > 0 &&
		 f->now_s - b->last_ok_s >= c->unsuccessful_days * 86400.0) {
		b->next_s = INFINITY;
		return;
	}
	b->next_s = f->now_s + 60 * c->interval_min;
}

const struct fr_policy_ops fr_policy_ttrss = {
	.name = "ttrss-fixed",
	.help = "Tiny Tiny RSS fixed interval (minutes): interval=30 unsuccessful_days=30",
	.kind = FR_POLICY_INTERVAL,
	.theta0 = 0,
	.create = tt_create,
	.destroy = tt_destroy,
	.state_size = tt_state_size,
	.init = tt_init,
	.urgency = NULL,
	.due = tt_due,
	.fetched = tt_fetched,
};
