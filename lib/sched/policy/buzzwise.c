/* buzzwise.c - the seed's production baseline: round robin over a fixed
 * subset of k sources, the k heaviest by weight when weights differ, else a
 * fixed random draw. The other sources are never fetched. */
#include "sched/policy.h"

#include "core/err.h"
#include "core/rng.h"

#include <math.h>
#include <stdlib.h>

struct bw_ctx {
	unsigned char *member; /* [n_sources] */
};

struct bw_state {
	double last_s;
	int member;
};

struct ranked {
	double w;
	uint32_t id;
};

static int
by_weight_desc(const void *pa, const void *pb)
{
	const struct ranked *a = pa, *b = pb;
	if (a->w != b->w)
		return a->w > b->w ? -1 : 1;
	return a->id < b->id ? -1 : a->id > b->id;
}

static int
bw_create(void **ctx, struct fr_params *params, const struct fr_policy_env *env, char *err,
	  size_t errlen)
{
	double k;
	uint32_t n = env->n_sources;

	if (fr_params_double(params, "k", 3000, 0, 4e9, &k, err, errlen) < 0)
		return -1;
	struct bw_ctx *c = calloc(1, sizeof(*c));
	struct ranked *order = malloc((n ? n : 1) * sizeof(*order));
	if (!c || !(c->member = calloc(n ? n : 1, 1)) || !order) {
		free(order);
		if (c)
			free(c->member);
		free(c);
		return fr_errf(err, errlen, "out of memory");
	}
	for (uint32_t i = 0; i < n; i++) {
		order[i].id = i;
		order[i].w = env->weight ? env->weight[i] : 1;
	}
	int weighted = 0;
	for (uint32_t i = 1; env->weight && i < n; i++)
		if (env->weight[i] != env->weight[0])
			weighted = 1;
	if (weighted) {
		qsort(order, n, sizeof(*order), by_weight_desc);
	} else {
		struct fr_rng r;
		fr_rng_seed(&r, env->seed ^ 0x62757a7aULL);
		for (uint32_t i = n; i > 1; i--) {
			uint32_t j = (uint32_t)fr_rng_below(&r, i);
			struct ranked t = order[i - 1];
			order[i - 1] = order[j];
			order[j] = t;
		}
	}
	for (uint32_t i = 0; i < n && i < (uint32_t)k; i++)
		c->member[order[i].id] = 1;
	free(order);
	*ctx = c;
	return 0;
}

static void
bw_destroy(void *ctx)
{
	struct bw_ctx *c = ctx;
	free(c->member);
	free(c);
}

static size_t
bw_state_size(const void *ctx)
{
	(void)ctx;
	return sizeof(struct bw_state);
}

static void
bw_init(void *ctx, void *st, uint32_t s, double now_s)
{
	struct bw_state *b = st;
	b->last_s = now_s;
	b->member = ((struct bw_ctx *)ctx)->member[s];
}

static double
bw_urgency(void *ctx, void *st, double now_s)
{
	struct bw_state *b = st;
	(void)ctx;
	return b->member ? now_s - b->last_s : 0;
}

static double
bw_due(void *ctx, void *st, double now_s, double theta)
{
	struct bw_state *b = st;
	(void)ctx;
	(void)now_s;
	return b->member ? b->last_s + theta : INFINITY;
}

static void
bw_fetched(void *ctx, void *st, const struct fr_fetch *f)
{
	(void)ctx;
	((struct bw_state *)st)->last_s = f->now_s;
}

const struct fr_policy_ops fr_policy_buzzwise = {
	.name = "buzzwise",
	.help = "round robin over a fixed subset: k=3000 heaviest by weight (random draw if unweighted)",
	.kind = FR_POLICY_INDEX,
	.theta0 = 600,
	.create = bw_create,
	.destroy = bw_destroy,
	.state_size = bw_state_size,
	.init = bw_init,
	.urgency = bw_urgency,
	.due = bw_due,
	.fetched = bw_fetched,
};
