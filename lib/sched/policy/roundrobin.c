/* roundrobin.c - round robin over all sources: always fetch the source
 * fetched longest ago. Urgency is the time since the last fetch. */
#include "sched/policy.h"

struct rr_state {
	double last_s;
};

static int
rr_create(void **ctx, struct fr_params *params, const struct fr_policy_env *env, char *err,
	  size_t errlen)
{
	(void)params;
	(void)env;
	(void)err;
	(void)errlen;
	*ctx = NULL;
	return 0;
}

static size_t
rr_state_size(const void *ctx)
{
	(void)ctx;
	return sizeof(struct rr_state);
}

static void
rr_init(void *ctx, void *st, uint32_t s, double now_s)
{
	(void)ctx;
	(void)s;
	((struct rr_state *)st)->last_s = now_s;
}

static double
rr_urgency(void *ctx, void *st, double now_s)
{
	(void)ctx;
	return now_s - ((struct rr_state *)st)->last_s;
}

static double
rr_due(void *ctx, void *st, double now_s, double theta)
{
	(void)ctx;
	(void)now_s;
	return ((struct rr_state *)st)->last_s + theta;
}

static void
rr_fetched(void *ctx, void *st, const struct fr_fetch *f)
{
	(void)ctx;
	((struct rr_state *)st)->last_s = f->now_s;
}

const struct fr_policy_ops fr_policy_roundrobin = {
	.name = "round-robin",
	.help = "round robin over all sources (no parameters)",
	.kind = FR_POLICY_INDEX,
	.theta0 = 600,
	.create = rr_create,
	.destroy = NULL,
	.state_size = rr_state_size,
	.init = rr_init,
	.urgency = rr_urgency,
	.due = rr_due,
	.fetched = rr_fetched,
};
