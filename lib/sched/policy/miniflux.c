/* miniflux.c - Miniflux's entry_frequency scheduler as an interval policy:
 * poll about as often as the source published over the last week, between
 * 5 min and 24 h.
 *
 * Implements baselines.md "Miniflux" with its defaults (minutes, like
 * Miniflux's SCHEDULER_ENTRY_FREQUENCY_* settings): weekly = ceil(1 week /
 * mean gap between the items published in the last week), 0 with at most one
 * such item (or a zero gap); interval = round(7 days / (weekly * factor))
 * minutes clamped to [min_interval, max_interval], or max_interval when
 * weekly is 0; then the publisher hint, which is 0 here (the simulator has no
 * <ttl>, Cache-Control, Expires or Retry-After); then at most max_interval.
 * Publication times come from a ring of the source's 48 latest dated items
 * (undated ones are ignored); a source with more than 48 items in the week is
 * judged by the mean gap of its 48 latest, an estimate of the same rate.
 * Errors: the schedule is the usual one (Miniflux sets the next check before
 * fetching), and after error_limit consecutive errors the source is dropped
 * from polling, as Miniflux does (error_limit=0 never drops). */
#include "sched/policy.h"

#include "model/recent.h"

#include "core/err.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#define WEEK_S (7 * 86400.0)
#define MF_RING 48

struct mf_ctx {
	double epoch_s; /* ring times are offsets from here */
	double min_min, max_min, factor;
	uint32_t error_limit;
};

/* 208 bytes per source. */
struct mf_state {
	double next_s;
	float pub[MF_RING]; /* the latest publication times, ascending, from epoch */
	uint8_t n;
	uint8_t errors; /* consecutive, saturating */
};

static int
mf_create(void **ctx, struct fr_params *params, const struct fr_policy_env *env, char *err,
	  size_t errlen)
{
	struct mf_ctx c;
	double limit;

	if (fr_params_double(params, "min_interval", 5, 0.01, 1e7, &c.min_min, err, errlen) < 0 ||
	    fr_params_double(params, "max_interval", 1440, 0.01, 1e7, &c.max_min, err, errlen) <
		0 ||
	    fr_params_double(params, "factor", 1, 1e-3, 1e3, &c.factor, err, errlen) < 0 ||
	    fr_params_double(params, "error_limit", 3, 0, 255, &limit, err, errlen) < 0)
		return -1;
	if (c.min_min > c.max_min)
		return fr_errf(err, errlen, "policy '%s': min_interval=%g exceeds max_interval=%g",
			       params->name, c.min_min, c.max_min);
	c.epoch_s = env->start_s;
	c.error_limit = (uint32_t)limit;
	struct mf_ctx *p = malloc(sizeof(*p));
	if (!p)
		return fr_errf(err, errlen, "out of memory");
	*p = c;
	*ctx = p;
	return 0;
}

static void
mf_destroy(void *ctx)
{
	free(ctx);
}

static size_t
mf_state_size(const void *ctx)
{
	(void)ctx;
	return sizeof(struct mf_state);
}

static void
mf_init(void *ctx, void *st, uint32_t s, double now_s)
{
	(void)ctx;
	(void)s;
	((struct mf_state *)st)->next_s = now_s;
}

static double
mf_due(void *ctx, void *st, double now_s, double theta)
{
	(void)ctx;
	(void)now_s;
	(void)theta;
	return ((struct mf_state *)st)->next_s;
}

/* Miniflux's weekly entry count at now: ceil(week / mean gap) over the items
 * published since now - 1 week, 0 when that is undefined. */
static double
weekly_count(const struct mf_ctx *c, const struct mf_state *b, double now_s)
{
	double from = now_s - WEEK_S - c->epoch_s;
	int i = 0;

	while (i < b->n && (double)b->pub[i] < from)
		i++;
	int count = b->n - i;
	if (count < 2)
		return 0;
	double gap = ((double)b->pub[b->n - 1] - (double)b->pub[i]) / (count - 1);
	return gap > 0 ? ceil(WEEK_S / gap) : 0;
}

static void
mf_fetched(void *ctx, void *st, const struct fr_fetch *f)
{
	const struct mf_ctx *c = ctx;
	struct mf_state *b = st;
	double now = f->now_s;

	if (f->status == FR_FETCH_ERROR) {
		if (b->errors < UINT8_MAX)
			b->errors++;
		if (c->error_limit > 0 && b->errors >= c->error_limit) {
			b->next_s = INFINITY;
			return;
		}
	} else {
		b->errors = 0;
		for (size_t k = 0; f->status == FR_FETCH_OK && k < f->n_items; k++)
			if (!isnan(f->published_s[k]))
				fr_recent_add(b->pub, &b->n, MF_RING, (float)(f->published_s[k] - c->epoch_s));
	}

	double weekly = weekly_count(c, b, now), interval;
	if (weekly > 0) {
		interval = round(7 * 24 * 60 / (weekly * c->factor));
		interval = fmax(fmin(interval, c->max_min), c->min_min);
	} else {
		interval = c->max_min;
	}
	/* Publisher hint (ttl, Cache-Control, Expires, Retry-After): none here. */
	interval = fmax(interval, 0);
	interval = fmin(interval, c->max_min);
	b->next_s = now + 60 * interval;
}

const struct fr_policy_ops fr_policy_miniflux = {
	.name = "miniflux-entry-frequency",
	.help = "Miniflux entry_frequency scheduler (minutes): min_interval=5 max_interval=1440 "
		"factor=1 error_limit=3",
	.kind = FR_POLICY_INTERVAL,
	.theta0 = 0,
	.create = mf_create,
	.destroy = mf_destroy,
	.state_size = mf_state_size,
	.init = mf_init,
	.urgency = NULL,
	.due = mf_due,
	.fetched = mf_fetched,
};
