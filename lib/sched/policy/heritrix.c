/* heritrix.c - Heritrix 1's WaitEvaluator (adaptive revisiting) as an
 * interval policy: the wait divides by 1.5 when a revisit finds a change and
 * multiplies by 1.5 when it does not, within [1 h, 28 days].
 *
 * Implements baselines.md "Heritrix 1" with its defaults, in seconds like
 * Heritrix's configuration. The first fetch sets the initial wait (1 day), as
 * WaitEvaluator does for a URI without a stored wait; "changed" is a fetch with
 * at least one new item, a 304 is unchanged. The "unknown" branch (3 days)
 * applies to URIs whose change detection is unavailable, which never happens
 * here: every successful fetch says whether something is new. Errors: the
 * WaitEvaluator skips failed URIs, so the wait is left as it is and the next
 * attempt comes one wait later. */
#include "sched/policy.h"

#include "core/err.h"

#include <stdint.h>
#include <stdlib.h>

struct hw_ctx {
	double initial_s, min_s, max_s, changed_factor, unchanged_factor;
};

/* 24 bytes per source. */
struct hw_state {
	double wait_s; /* when has_wait */
	double next_s;
	uint8_t has_wait;
};

static int
hw_create(void **ctx, struct fr_params *params, const struct fr_policy_env *env, char *err,
	  size_t errlen)
{
	struct hw_ctx c;

	(void)env;
	if (fr_params_double(params, "initial_wait", 86400, 1, 1e10, &c.initial_s, err, errlen) <
		0 ||
	    fr_params_double(params, "min_wait", 3600, 1, 1e10, &c.min_s, err, errlen) < 0 ||
	    fr_params_double(params, "max_wait", 2419200, 1, 1e10, &c.max_s, err, errlen) < 0 ||
	    fr_params_double(params, "changed_factor", 1.5, 1e-3, 1e3, &c.changed_factor, err,
			     errlen) < 0 ||
	    fr_params_double(params, "unchanged_factor", 1.5, 1e-3, 1e3, &c.unchanged_factor, err,
			     errlen) < 0)
		return -1;
	if (c.min_s > c.max_s)
		return fr_errf(err, errlen, "policy '%s': min_wait=%g exceeds max_wait=%g",
			       params->name, c.min_s, c.max_s);
	struct hw_ctx *p = malloc(sizeof(*p));
	if (!p)
		return fr_errf(err, errlen, "out of memory");
	*p = c;
	*ctx = p;
	return 0;
}

static void
hw_destroy(void *ctx)
{
	free(ctx);
}

static size_t
hw_state_size(const void *ctx)
{
	(void)ctx;
	return sizeof(struct hw_state);
}

static void
hw_init(void *ctx, void *st, uint32_t s, double now_s)
{
	(void)ctx;
	(void)s;
	((struct hw_state *)st)->next_s = now_s;
}

static double
hw_due(void *ctx, void *st, double now_s, double theta)
{
	(void)ctx;
	(void)now_s;
	(void)theta;
	return ((struct hw_state *)st)->next_s;
}

static void
hw_fetched(void *ctx, void *st, const struct fr_fetch *f)
{
	const struct hw_ctx *c = ctx;
	struct hw_state *b = st;
	double wait;

	if (f->status == FR_FETCH_ERROR) {
		b->next_s = f->now_s + (b->has_wait ? b->wait_s : c->initial_s);
		return;
	}
	if (!b->has_wait)
		wait = c->initial_s;
	else if (f->status == FR_FETCH_OK && f->n_items > 0)
		wait = b->wait_s / c->changed_factor;
	else
		wait = b->wait_s * c->unchanged_factor;
	if (wait < c->min_s)
		wait = c->min_s;
	else if (wait > c->max_s)
		wait = c->max_s;
	b->wait_s = wait;
	b->has_wait = 1;
	b->next_s = f->now_s + wait;
}

const struct fr_policy_ops fr_policy_heritrix = {
	.name = "heritrix-wait",
	.help = "Heritrix 1 WaitEvaluator (seconds): initial_wait=86400 min_wait=3600 "
		"max_wait=2419200 changed_factor=1.5 unchanged_factor=1.5",
	.kind = FR_POLICY_INTERVAL,
	.theta0 = 0,
	.create = hw_create,
	.destroy = hw_destroy,
	.state_size = hw_state_size,
	.init = hw_init,
	.urgency = NULL,
	.due = hw_due,
	.fetched = hw_fetched,
};
