/* mediacloud.c - Media Cloud rss-fetcher's overlap controller as an interval
 * policy: lengthen the poll period while fetches bring back mostly items
 * already seen, shorten it when they bring back mostly new ones.
 *
 * Implements baselines.md "Media Cloud rss-fetcher" with its defaults
 * (minutes). The share of fetched items already seen needs the whole feed
 * document; in the simulator every fetch returns only new items, so the share
 * is 1 when nothing new was found (> 67%: interval += small_step, or
 * large_step when nothing new was found for more than idle_days whole days, at
 * most max_interval) and 0 otherwise (< 33%: back to interval when above it,
 * else -= down_step, at least min_interval; no sy:updatePeriod here). As in
 * rss-fetcher, the first successful fetch adjusts nothing (it needs two in a
 * row), and "nothing new for 31 days" counts from the last fetch that found
 * new items, or from the subscription. Errors: the period times the number of
 * consecutive failures, at most max_backoff (1 day); no Retry-After here. */
#include "sched/policy.h"

#include "core/err.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

struct mc_ctx {
	double interval_min, min_min, max_min, small_step, large_step, idle_days, down_step,
		max_backoff;
};

/* 32 bytes per source. */
struct mc_state {
	double poll_min;   /* the learned poll period */
	double next_s;
	double last_new_s; /* last fetch with new items, or the subscription */
	uint32_t failures; /* consecutive */
	uint8_t succeeded; /* a fetch has succeeded */
};

static int
mc_create(void **ctx, struct fr_params *params, const struct fr_policy_env *env, char *err,
	  size_t errlen)
{
	struct mc_ctx c;

	(void)env;
	if (fr_params_double(params, "interval", 360, 0.01, 1e7, &c.interval_min, err, errlen) < 0 ||
	    fr_params_double(params, "min_interval", 10, 0.01, 1e7, &c.min_min, err, errlen) < 0 ||
	    fr_params_double(params, "max_interval", 1440, 0.01, 1e7, &c.max_min, err, errlen) <
		0 ||
	    fr_params_double(params, "small_step", 10, 0, 1e7, &c.small_step, err, errlen) < 0 ||
	    fr_params_double(params, "large_step", 60, 0, 1e7, &c.large_step, err, errlen) < 0 ||
	    fr_params_double(params, "idle_days", 31, 0, 1e5, &c.idle_days, err, errlen) < 0 ||
	    fr_params_double(params, "down_step", 60, 0, 1e7, &c.down_step, err, errlen) < 0 ||
	    fr_params_double(params, "max_backoff", 1440, 0.01, 1e7, &c.max_backoff, err, errlen) <
		0)
		return -1;
	if (c.min_min > c.max_min)
		return fr_errf(err, errlen, "policy '%s': min_interval=%g exceeds max_interval=%g",
			       params->name, c.min_min, c.max_min);
	struct mc_ctx *p = malloc(sizeof(*p));
	if (!p)
		return fr_errf(err, errlen, "out of memory");
	*p = c;
	*ctx = p;
	return 0;
}

static void
mc_destroy(void *ctx)
{
	free(ctx);
}

static size_t
mc_state_size(const void *ctx)
{
	(void)ctx;
	return sizeof(struct mc_state);
}

static void
mc_init(void *ctx, void *st, uint32_t s, double now_s)
{
	struct mc_state *b = st;
	(void)s;
	b->poll_min = ((struct mc_ctx *)ctx)->interval_min;
	b->next_s = now_s;
	b->last_new_s = now_s;
}

static double
mc_due(void *ctx, void *st, double now_s, double theta)
{
	(void)ctx;
	(void)now_s;
	(void)theta;
	return ((struct mc_state *)st)->next_s;
}

static void
mc_fetched(void *ctx, void *st, const struct fr_fetch *f)
{
	const struct mc_ctx *c = ctx;
	struct mc_state *b = st;
	double now = f->now_s;

	if (f->status == FR_FETCH_ERROR) {
		if (b->failures < UINT32_MAX)
			b->failures++;
		b->next_s = now + 60 * fmin(b->poll_min * b->failures, c->max_backoff);
		return;
	}
	b->failures = 0;
	int found_new = f->status == FR_FETCH_OK && f->n_items > 0;
	if (found_new)
		b->last_new_s = now;
	if (b->succeeded && !found_new) {
		/* Share already seen 1 > 67%: longer. */
		double idle = floor((now - b->last_new_s) / 86400.0);
		b->poll_min += idle <= c->idle_days ? c->small_step : c->large_step;
		b->poll_min = fmin(b->poll_min, c->max_min);
	} else if (b->succeeded) {
		/* Share already seen 0 < 33%: shorter. */
		if (b->poll_min > c->interval_min)
			b->poll_min = c->interval_min;
		else
			b->poll_min -= c->down_step;
		b->poll_min = fmax(b->poll_min, c->min_min);
	}
	b->succeeded = 1;
	b->next_s = now + 60 * b->poll_min;
}

const struct fr_policy_ops fr_policy_mediacloud = {
	.name = "mediacloud-overlap",
	.help = "Media Cloud rss-fetcher overlap controller (minutes): interval=360 "
		"min_interval=10 max_interval=1440 small_step=10 large_step=60 idle_days=31 "
		"down_step=60 max_backoff=1440",
	.kind = FR_POLICY_INTERVAL,
	.theta0 = 0,
	.create = mc_create,
	.destroy = mc_destroy,
	.state_size = mc_state_size,
	.init = mc_init,
	.urgency = NULL,
	.due = mc_due,
	.fetched = mc_fetched,
};
