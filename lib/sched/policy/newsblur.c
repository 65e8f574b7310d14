/* newsblur.c - NewsBlur's next-update rule as an interval policy: a delay in
 * minutes from the stories of the last 30 days and the subscriber count,
 * capped, multiplied by the error count, plus a random quarter on top.
 *
 * Implements baselines.md "NewsBlur". spd = items published in the last 30
 * days / 30, counted from a ring of the source's 32 latest dated items (enough:
 * 30 or more means spd >= 1); undated items are ignored. The simulator has no
 * subscribers, so subs is a parameter; its default 1 models a single-user
 * reader (then the cap is 240 min and the spd == 0 tier, 720 min, is always
 * capped). Months since the last item: by its publication time, 1 when no
 * dated item was seen. Errors: consecutive errors multiply the delay, at most
 * 7 days. Jitter: uniform(0, total / 4) from a per-source generator seeded by
 * the run's seed and the source id. Cache-Control and Retry-After are absent
 * here; the per-domain budget is the scheduler's host politeness. */
#include "sched/policy.h"

#include "model/recent.h"

#include "core/err.h"
#include "core/rng.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#define DAY_S 86400.0
#define NB_RING 32

struct nb_ctx {
	double epoch_s; /* ring times are offsets from here */
	double subs;
	uint64_t seed;
};

/* 176 bytes per source. */
struct nb_state {
	struct fr_rng rng;
	double next_s;
	float pub[NB_RING]; /* the latest publication times, ascending, from epoch */
	uint32_t errors;    /* consecutive */
	uint8_t n;
};

static int
nb_create(void **ctx, struct fr_params *params, const struct fr_policy_env *env, char *err,
	  size_t errlen)
{
	struct nb_ctx c;

	if (fr_params_double(params, "subs", 1, 0, 1e9, &c.subs, err, errlen) < 0)
		return -1;
	c.epoch_s = env->start_s;
	c.seed = env->seed;
	struct nb_ctx *p = malloc(sizeof(*p));
	if (!p)
		return fr_errf(err, errlen, "out of memory");
	*p = c;
	*ctx = p;
	return 0;
}

static void
nb_destroy(void *ctx)
{
	free(ctx);
}

static size_t
nb_state_size(const void *ctx)
{
	(void)ctx;
	return sizeof(struct nb_state);
}

static void
nb_init(void *ctx, void *st, uint32_t s, double now_s)
{
	const struct nb_ctx *c = ctx;
	struct nb_state *b = st;

	/* fr_rng_seed mixes with splitmix64, so nearby seeds give unrelated
	 * streams. */
	fr_rng_seed(&b->rng, c->seed ^ (0x6e657773626c7572ULL + 0x9e3779b97f4a7c15ULL * s));
	b->next_s = now_s;
}

static double
nb_due(void *ctx, void *st, double now_s, double theta)
{
	(void)ctx;
	(void)now_s;
	(void)theta;
	return ((struct nb_state *)st)->next_s;
}

/* NewsBlur's get_next_scheduled_update, in minutes, before errors and
 * jitter. */
static double
base_minutes(const struct nb_ctx *c, const struct nb_state *b, double now_s)
{
	double from = now_s - 30 * DAY_S - c->epoch_s, subs = c->subs, total;
	int i = 0;

	while (i < b->n && (double)b->pub[i] < from)
		i++;
	double spd = (b->n - i) / 30.0;
	if (spd >= 1) {
		total = subs >= 10 ? 6 : subs > 1 ? 15 : 45;
	} else if (spd > 0) {
		total = subs > 1 ? 60 - spd * 60 : 360 - spd * 360;
	} else {
		total = subs > 1 ? 360 : subs == 1 ? 720 : 1440;
		double months = 0;
		if (b->n > 0)
			months = (now_s - (c->epoch_s + (double)b->pub[b->n - 1])) / (30 * DAY_S);
		total *= fmax(1, months);
	}
	return fmin(total, subs >= 1 ? 240 : 2880);
}

static void
nb_fetched(void *ctx, void *st, const struct fr_fetch *f)
{
	const struct nb_ctx *c = ctx;
	struct nb_state *b = st;

	if (f->status == FR_FETCH_ERROR) {
		if (b->errors < UINT32_MAX)
			b->errors++;
	} else {
		b->errors = 0;
		for (size_t k = 0; f->status == FR_FETCH_OK && k < f->n_items; k++)
			if (!isnan(f->published_s[k]))
				fr_recent_add(b->pub, &b->n, NB_RING, (float)(f->published_s[k] - c->epoch_s));
	}
	double total = base_minutes(c, b, f->now_s);
	if (b->errors)
		total = fmin(total * b->errors, 7 * 24 * 60);
	total += fr_rng_uniform(&b->rng) * total / 4;
	b->next_s = f->now_s + 60 * total;
}

const struct fr_policy_ops fr_policy_newsblur = {
	.name = "newsblur",
	.help = "NewsBlur next update (minutes, jitter seeded by --seed): subs=1 (subscribers; 1 = "
		"a single-user reader)",
	.kind = FR_POLICY_INTERVAL,
	.theta0 = 0,
	.create = nb_create,
	.destroy = nb_destroy,
	.state_size = nb_state_size,
	.init = nb_init,
	.urgency = NULL,
	.due = nb_due,
	.fetched = nb_fetched,
};
