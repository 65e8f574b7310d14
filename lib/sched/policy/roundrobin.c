/* roundrobin.c - round robin over all sources: always fetch the source
 * fetched longest ago. Urgency is the time since the last fetch. Also the
 * last-fetch building blocks of policy.h, which it is made of. */
#include "sched/policy.h"

struct rr_state {
	double last_s;
};

int
fr_policy_create_no_ctx(void **ctx, struct fr_params *params, const struct fr_policy_env *env,
			char *err, size_t errlen)
{
	(void)params;
	(void)env;
	(void)err;
	(void)errlen;
	*ctx = NULL;
	return 0;
}

size_t
fr_policy_last_fetch_size(const void *ctx)
{
	(void)ctx;
	return sizeof(struct rr_state);
}

void
fr_policy_last_fetch_init(void *ctx, void *st, uint32_t s, double now_s)
{
	(void)ctx;
	(void)s;
	((struct rr_state *)st)->last_s = now_s;
}

void
fr_policy_last_fetch_done(void *ctx, void *st, const struct fr_fetch *f)
{
	(void)ctx;
	((struct rr_state *)st)->last_s = f->now_s;
}

double
fr_policy_last_fetch(const void *st)
{
	return ((const struct rr_state *)st)->last_s;
}

static double
rr_urgency(void *ctx, void *st, double now_s)
{
	(void)ctx;
	return now_s - fr_policy_last_fetch(st);
}

static double
rr_due(void *ctx, void *st, double now_s, double theta)
{
	(void)ctx;
	(void)now_s;
	return fr_policy_last_fetch(st) + theta;
}

const struct fr_policy_ops fr_policy_roundrobin = {
	.name = "round-robin",
	.help = "round robin over all sources (no parameters)",
	.kind = FR_POLICY_INDEX,
	.theta0 = 600,
	.create = fr_policy_create_no_ctx,
	.destroy = NULL,
	.state_size = fr_policy_last_fetch_size,
	.init = fr_policy_last_fetch_init,
	.urgency = rr_urgency,
	.due = rr_due,
	.fetched = fr_policy_last_fetch_done,
};
