/* stormcrawler.c - StormCrawler's AdaptiveScheduler as an interval policy: the
 * interval moves halfway toward the minimum when a fetch finds something new
 * and grows by half (up to a cap) when it does not.
 *
 * Implements baselines.md "StormCrawler" with its defaults, in whole minutes
 * as StormCrawler stores the interval (each step is truncated to an integer).
 * "Changed" is a fetch with at least one new item; a 304 is unchanged. As in
 * StormCrawler, a fetch without an earlier signature to compare with (the
 * first one, or the first after an error) falls back to the DefaultScheduler:
 * next = now + interval, nothing learned. Errors: next = now + error_interval
 * (120 min), and the learned interval is reset, as StormCrawler drops the
 * adaptive metadata of a failed page. */
#include "sched/policy.h"

#include "core/err.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

struct sc_ctx {
	double interval_min, dec_rate, inc_rate, min_min, max_min, error_min;
};

/* 24 bytes per source. */
struct sc_state {
	double interval_min; /* stored fetch interval, when has_interval */
	double next_s;
	uint8_t has_interval;
	uint8_t has_signature; /* the next fetch can be compared with this one */
};

static int
sc_create(void **ctx, struct fr_params *params, const struct fr_policy_env *env, char *err,
	  size_t errlen)
{
	struct sc_ctx c;

	(void)env;
	if (fr_params_double(params, "interval", 1440, 1, 1e8, &c.interval_min, err, errlen) < 0 ||
	    fr_params_double(params, "dec_rate", 0.5, 0, 1, &c.dec_rate, err, errlen) < 0 ||
	    fr_params_double(params, "inc_rate", 0.5, 0, 10, &c.inc_rate, err, errlen) < 0 ||
	    fr_params_double(params, "min_interval", 60, 1, 1e8, &c.min_min, err, errlen) < 0 ||
	    fr_params_double(params, "max_interval", 20160, 1, 1e8, &c.max_min, err, errlen) < 0 ||
	    fr_params_double(params, "error_interval", 120, 0, 1e8, &c.error_min, err, errlen) < 0)
		return -1;
	struct sc_ctx *p = malloc(sizeof(*p));
	if (!p)
		return fr_errf(err, errlen, "out of memory");
	*p = c;
	*ctx = p;
	return 0;
}

static void
sc_destroy(void *ctx)
{
	free(ctx);
}

static size_t
sc_state_size(const void *ctx)
{
	(void)ctx;
	return sizeof(struct sc_state);
}

static void
sc_init(void *ctx, void *st, uint32_t s, double now_s)
{
	(void)ctx;
	(void)s;
	((struct sc_state *)st)->next_s = now_s;
}

static double
sc_due(void *ctx, void *st, double now_s, double theta)
{
	(void)ctx;
	(void)now_s;
	(void)theta;
	return ((struct sc_state *)st)->next_s;
}

static void
sc_fetched(void *ctx, void *st, const struct fr_fetch *f)
{
	const struct sc_ctx *c = ctx;
	struct sc_state *b = st;

	if (f->status == FR_FETCH_ERROR) {
		b->has_interval = 0;
		b->has_signature = 0;
		b->next_s = f->now_s + 60 * c->error_min;
		return;
	}
	if (f->status == FR_FETCH_OK && !b->has_signature) {
		/* No decision possible: DefaultScheduler. */
		b->has_signature = 1;
		b->next_s = f->now_s + 60 * c->interval_min;
		return;
	}
	double interval = b->has_interval ? b->interval_min : c->interval_min;
	if (f->status == FR_FETCH_OK && f->n_items > 0) {
		interval = floor((1 - c->dec_rate) * interval + c->dec_rate * c->min_min);
	} else {
		interval = floor(interval * (1 + c->inc_rate));
		if (interval > c->max_min)
			interval = c->max_min;
	}
	b->interval_min = interval;
	b->has_interval = 1;
	b->has_signature = 1;
	b->next_s = f->now_s + 60 * interval;
}

const struct fr_policy_ops fr_policy_stormcrawler = {
	.name = "stormcrawler-adaptive",
	.help = "StormCrawler AdaptiveScheduler (minutes): interval=1440 dec_rate=0.5 inc_rate=0.5 "
		"min_interval=60 max_interval=20160 error_interval=120",
	.kind = FR_POLICY_INTERVAL,
	.theta0 = 0,
	.create = sc_create,
	.destroy = sc_destroy,
	.state_size = sc_state_size,
	.init = sc_init,
	.urgency = NULL,
	.due = sc_due,
	.fetched = sc_fetched,
};
