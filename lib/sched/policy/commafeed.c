/* commafeed.c - CommaFeed's empirical refresh interval as an interval policy:
 * half the mean gap between the feed's recent items, backing off in steps
 * when the last item grows old, and after repeated errors.
 *
 * Implements baselines.md "CommaFeed" (FeedRefreshIntervalCalculator) with its
 * defaults, in minutes: interval (5) is the refresh interval and lower bound,
 * max_interval (4 h) the upper bound. Last item 30+ whole days old: max; 14+:
 * max / 2; 7+: max / 4; else half the mean gap between the recent items,
 * clamped to [interval, max / 4]; no dated item, or fewer than two: max. The
 * recent items stand for the fetched document: the source's 20 latest dated
 * items (undated ones are ignored). Errors: below retries_before_backoff (3)
 * consecutive errors, the refresh interval; from there on backoff_interval
 * (1 h) * (errors - 2). Cache-Control and Retry-After are absent here (0);
 * everything ends bounded to [interval, max_interval]. */
#include "sched/policy.h"

#include "model/recent.h"

#include "core/err.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#define DAY_S 86400.0
#define CF_RING 20

struct cf_ctx {
	double epoch_s; /* ring times are offsets from here */
	double interval_min, max_min, backoff_min;
	uint32_t retries_before_backoff;
};

/* 96 bytes per source. */
struct cf_state {
	double next_s;
	float pub[CF_RING]; /* the latest publication times, ascending, from epoch */
	uint32_t errors;    /* consecutive */
	uint8_t n;
};

static int
cf_create(void **ctx, struct fr_params *params, const struct fr_policy_env *env, char *err,
	  size_t errlen)
{
	struct cf_ctx c;
	double retries;

	if (fr_params_double(params, "interval", 5, 0.01, 1e7, &c.interval_min, err, errlen) < 0 ||
	    fr_params_double(params, "max_interval", 240, 0.01, 1e7, &c.max_min, err, errlen) < 0 ||
	    fr_params_double(params, "backoff_interval", 60, 0, 1e7, &c.backoff_min, err, errlen) <
		0 ||
	    fr_params_double(params, "retries_before_backoff", 3, 0, 1e6, &retries, err, errlen) <
		0)
		return -1;
	if (c.interval_min > c.max_min)
		return fr_errf(err, errlen, "policy '%s': interval=%g exceeds max_interval=%g",
			       params->name, c.interval_min, c.max_min);
	c.epoch_s = env->start_s;
	c.retries_before_backoff = (uint32_t)retries;
	struct cf_ctx *p = malloc(sizeof(*p));
	if (!p)
		return fr_errf(err, errlen, "out of memory");
	*p = c;
	*ctx = p;
	return 0;
}

static void
cf_destroy(void *ctx)
{
	free(ctx);
}

static size_t
cf_state_size(const void *ctx)
{
	(void)ctx;
	return sizeof(struct cf_state);
}

static void
cf_init(void *ctx, void *st, uint32_t s, double now_s)
{
	(void)ctx;
	(void)s;
	((struct cf_state *)st)->next_s = now_s;
}

static double
cf_due(void *ctx, void *st, double now_s, double theta)
{
	(void)ctx;
	(void)now_s;
	(void)theta;
	return ((struct cf_state *)st)->next_s;
}

/* computeEmpiricalRefreshInterval, in minutes. */
static double
empirical_minutes(const struct cf_ctx *c, const struct cf_state *b, double now_s)
{
	if (b->n == 0)
		return c->max_min;
	double age_s = now_s - (c->epoch_s + (double)b->pub[b->n - 1]);
	if (age_s >= 30 * DAY_S)
		return c->max_min;
	if (age_s >= 14 * DAY_S)
		return c->max_min / 2;
	if (age_s >= 7 * DAY_S)
		return c->max_min / 4;
	if (b->n < 2)
		return c->max_min; /* no average: the "unknown case" */
	double gap_min = ((double)b->pub[b->n - 1] - (double)b->pub[0]) / (b->n - 1) / 60;
	return fmin(fmax(gap_min / 2, c->interval_min), c->max_min / 4);
}

static void
cf_fetched(void *ctx, void *st, const struct fr_fetch *f)
{
	const struct cf_ctx *c = ctx;
	struct cf_state *b = st;
	double minutes;

	if (f->status == FR_FETCH_ERROR) {
		if (b->errors < UINT32_MAX)
			b->errors++;
		if (b->errors < c->retries_before_backoff)
			minutes = c->interval_min;
		else
			minutes = c->backoff_min * (b->errors - c->retries_before_backoff + 1.0);
	} else {
		b->errors = 0;
		for (size_t k = 0; f->status == FR_FETCH_OK && k < f->n_items; k++)
			if (!isnan(f->published_s[k]))
				fr_recent_add(b->pub, &b->n, CF_RING, (float)(f->published_s[k] - c->epoch_s));
		/* max(empirical, Cache-Control max-age = 0) */
		minutes = empirical_minutes(c, b, f->now_s);
	}
	minutes = fmax(fmin(minutes, c->max_min), c->interval_min);
	b->next_s = f->now_s + 60 * minutes;
}

const struct fr_policy_ops fr_policy_commafeed = {
	.name = "commafeed",
	.help = "CommaFeed empirical refresh interval (minutes): interval=5 max_interval=240 "
		"backoff_interval=60 retries_before_backoff=3",
	.kind = FR_POLICY_INTERVAL,
	.theta0 = 0,
	.create = cf_create,
	.destroy = cf_destroy,
	.state_size = cf_state_size,
	.init = cf_init,
	.urgency = NULL,
	.due = cf_due,
	.fetched = cf_fetched,
};
