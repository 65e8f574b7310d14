/* nutch.c - Apache Nutch's AdaptiveFetchSchedule as an interval policy: the
 * re-fetch interval shrinks when a fetch finds something new, grows when it
 * does not, and sync_delta pulls the next fetch toward the last change.
 *
 * Implements baselines.md "Apache Nutch" with the nutch-default.xml defaults,
 * sync_delta in floating point as the text asks. Choices where the simulator
 * lacks Nutch's signals: "changed" is a fetch with at least one new item; the
 * first successful fetch has no earlier signature to compare with, so, as in
 * Nutch's CrawlDb update, it counts as "unknown" (interval kept); the modified
 * time is that of the last fetch that found a change (Nutch sets it to the
 * fetch time on a change), or of the first fetch before any. Errors: retry
 * after 1 day while fewer than retry_max retries were made, then the "gone"
 * schedule: interval * 1.5, or 0.9 * max_interval when that would reach the
 * max (AbstractFetchSchedule). Politeness belongs to the scheduler.
 * Times are in seconds, like Nutch's configuration. */
#include "sched/policy.h"

#include "core/err.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#define DAY_S 86400.0

struct nutch_ctx {
	double interval_s, inc_rate, dec_rate, sync_rate, min_s, max_s;
	int sync;
	uint32_t retry_max;
};

/* 32 bytes per source. */
struct nutch_state {
	double interval_s;
	double next_s;
	double modified_s; /* last detected change (or first fetch) */
	uint16_t retries;  /* consecutive failed fetches */
	uint8_t compared;  /* a fetch succeeded: later ones can be compared */
};

static int
nutch_create(void **ctx, struct fr_params *params, const struct fr_policy_env *env, char *err,
	     size_t errlen)
{
	struct nutch_ctx c;
	double sync, retry_max;

	(void)env;
	if (fr_params_double(params, "interval", 30 * DAY_S, 1, 1e10, &c.interval_s, err,
			     errlen) < 0 ||
	    fr_params_double(params, "inc_rate", 0.4, 0, 10, &c.inc_rate, err, errlen) < 0 ||
	    fr_params_double(params, "dec_rate", 0.2, 0, 0.999, &c.dec_rate, err, errlen) < 0 ||
	    fr_params_double(params, "sync_delta", 1, 0, 1, &sync, err, errlen) < 0 ||
	    fr_params_double(params, "sync_delta_rate", 0.3, 0, 1, &c.sync_rate, err, errlen) < 0 ||
	    fr_params_double(params, "min_interval", 60, 1, 1e10, &c.min_s, err, errlen) < 0 ||
	    fr_params_double(params, "max_interval", 365 * DAY_S, 1, 1e10, &c.max_s, err,
			     errlen) < 0 ||
	    fr_params_double(params, "retry_max", 3, 0, 1000, &retry_max, err, errlen) < 0)
		return -1;
	if (c.min_s > c.max_s)
		return fr_errf(err, errlen, "policy '%s': min_interval=%g exceeds max_interval=%g",
			       params->name, c.min_s, c.max_s);
	c.sync = sync != 0;
	c.retry_max = (uint32_t)retry_max;
	struct nutch_ctx *p = malloc(sizeof(*p));
	if (!p)
		return fr_errf(err, errlen, "out of memory");
	*p = c;
	*ctx = p;
	return 0;
}

static void
nutch_destroy(void *ctx)
{
	free(ctx);
}

static size_t
nutch_state_size(const void *ctx)
{
	(void)ctx;
	return sizeof(struct nutch_state);
}

static void
nutch_init(void *ctx, void *st, uint32_t s, double now_s)
{
	struct nutch_state *b = st;
	(void)s;
	b->interval_s = ((struct nutch_ctx *)ctx)->interval_s;
	b->next_s = now_s;
	b->modified_s = now_s;
}

static double
nutch_due(void *ctx, void *st, double now_s, double theta)
{
	(void)ctx;
	(void)now_s;
	(void)theta;
	return ((struct nutch_state *)st)->next_s;
}

static void
nutch_fetched(void *ctx, void *st, const struct fr_fetch *f)
{
	const struct nutch_ctx *c = ctx;
	struct nutch_state *b = st;
	double now = f->now_s;

	if (f->status == FR_FETCH_ERROR) {
		if (b->retries < c->retry_max) {
			b->retries++;
			b->next_s = now + DAY_S;
			return;
		}
		/* Gone: no page is truly gone, try much later. */
		if (b->interval_s * 1.5 < c->max_s)
			b->interval_s *= 1.5;
		else
			b->interval_s = 0.9 * c->max_s;
		b->next_s = now + b->interval_s;
		return;
	}
	b->retries = 0;

	double interval = b->interval_s, modified = b->compared ? b->modified_s : now, ref = now;
	if (b->compared) {
		if (f->status == FR_FETCH_OK && f->n_items > 0) {
			interval *= 1 - c->dec_rate;
			modified = now;
		} else {
			interval *= 1 + c->inc_rate;
		}
	}
	if (c->sync) {
		double delta = now - modified;
		if (delta > interval)
			interval = delta;
		ref = now - fmin(delta * c->sync_rate, c->max_s);
	}
	interval = fmin(fmax(interval, c->min_s), c->max_s);
	b->interval_s = interval;
	b->modified_s = modified;
	b->next_s = ref + interval;
	b->compared = 1;
}

const struct fr_policy_ops fr_policy_nutch = {
	.name = "nutch-adaptive",
	.help = "Nutch AdaptiveFetchSchedule (seconds): interval=2592000 inc_rate=0.4 dec_rate=0.2 "
		"sync_delta=1 sync_delta_rate=0.3 min_interval=60 max_interval=31536000 retry_max=3",
	.kind = FR_POLICY_INTERVAL,
	.theta0 = 0,
	.create = nutch_create,
	.destroy = nutch_destroy,
	.state_size = nutch_state_size,
	.init = nutch_init,
	.urgency = NULL,
	.due = nutch_due,
	.fetched = nutch_fetched,
};
