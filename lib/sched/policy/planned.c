/* planned.c - revisit schedules planned from the true change rates of pages
 * (seed 002, notes-politeness.md, docs/politeness.md): an allocation of
 * revisit frequencies f_i (CHO, or OPT_POLITE under the host gap) turned into
 * equally spaced revisits. Interval policies: the scheduler fetches a due
 * page at max(due, host free), which is the seed's DELAYED policy. */
#include "sched/policy.h"

#include "core/err.h"
#include "core/rng.h"
#include "plan/alloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum plan { PLAN_CHO, PLAN_OPT_POLITE };

struct planned_ctx {
	double *period_s; /* [n_sources] 1 / f_i, +INFINITY when f_i = 0 */
	uint64_t seed;
};

struct planned_state {
	double next_s;   /* the next instant of the undelayed schedule */
	double period_s; /* 1 / f_i, or +INFINITY: never fetched */
};

static uint64_t
mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Fills f[n] with the allocation for the pages with a positive rate at the
 * start; the others (they never change) get 0. */
static int
allocate(enum plan plan, const char *name, const struct fr_policy_env *env, double share, double *f,
         char *err, size_t errlen)
{
	uint32_t n = env->n_sources;
	double *lam = malloc((n ? n : 1) * sizeof(*lam));
	double *w = malloc((n ? n : 1) * sizeof(*w));
	double *fk = malloc((n ? n : 1) * sizeof(*fk));
	uint32_t *srv = malloc((n ? n : 1) * sizeof(*srv));
	uint32_t *idx = malloc((n ? n : 1) * sizeof(*idx));
	uint32_t n_servers = env->host ? env->n_hosts : n;
	unsigned char *live = calloc(n_servers ? n_servers : 1, 1);
	size_t k = 0;
	uint32_t n_live = 0;
	int rc = -1;

	if (!lam || !w || !fk || !srv || !idx || !live) {
		fr_errf(err, errlen, "policy '%s': out of memory", name);
		goto out;
	}
	for (uint32_t s = 0; s < n; s++) {
		double l = env->intensity(env->intensity_arg, s, env->start_s);
		f[s] = 0;
		if (!(l > 0) || !isfinite(l))
			continue;
		lam[k] = l;
		w[k] = env->weight ? env->weight[s] : 1;
		srv[k] = env->host ? env->host[s] : s;
		if (srv[k] >= n_servers) {
			fr_errf(err, errlen, "policy '%s': source %u is on host %u of %u", name, s,
			        srv[k], n_servers);
			goto out;
		}
		if (w[k] > 0 && !live[srv[k]]) {
			live[srv[k]] = 1;
			n_live++;
		}
		idx[k++] = s;
	}
	struct fr_pages p = {
	    .n = k, .lambda = lam, .weight = w, .server = srv, .n_servers = n_servers};
	double budget = share * env->calls_per_s;
	if (k == 0 || n_live == 0) {
		rc = 0; /* nothing changes, or nothing weighs: no revisits */
		goto out;
	}
	if (plan == PLAN_OPT_POLITE && env->host_gap_s > 0) {
		/* The servers cannot take more than 1/gap each. */
		double cap = (double)n_live / env->host_gap_s;
		if (fr_alloc_opt_polite(&p, budget < cap ? budget : cap, env->host_gap_s, fk, err,
		                        errlen) < 0)
			goto out;
	} else if (fr_alloc_cho(&p, budget, fk, NULL, err, errlen) < 0) {
		goto out;
	}
	for (size_t j = 0; j < k; j++)
		f[idx[j]] = fk[j];
	rc = 0;
out:
	free(lam);
	free(w);
	free(fk);
	free(srv);
	free(idx);
	free(live);
	return rc;
}

static int
planned_create(enum plan plan, struct fr_params *params, void **ctx,
               const struct fr_policy_env *env, char *err, size_t errlen)
{
	const char *name = params->name;
	double share;

	/* The share of the run's calls the schedule plans for; below 1 the
	 * rate limit has room to catch up with delayed revisits. */
	if (fr_params_double(params, "share", 1, 1e-6, 1, &share, err, errlen) < 0)
		return -1;
	if (!env->intensity)
		return fr_errf(
		    err, errlen,
		    "policy '%s' needs the true change rates of a --world (e.g. 'freshet "
		    "world --kind pages')",
		    name);
	struct planned_ctx *c = calloc(1, sizeof(*c));
	double *f = malloc((env->n_sources ? env->n_sources : 1) * sizeof(*f));
	if (!c || !f) {
		free(c);
		free(f);
		return fr_errf(err, errlen, "out of memory");
	}
	if (allocate(plan, name, env, share, f, err, errlen) < 0) {
		free(c);
		free(f);
		return -1;
	}
	for (uint32_t s = 0; s < env->n_sources; s++)
		f[s] = f[s] > 0 && isfinite(f[s]) ? 1 / f[s] : INFINITY;
	c->period_s = f;
	c->seed = env->seed;
	*ctx = c;
	return 0;
}

static int
cho_create(void **ctx, struct fr_params *params, const struct fr_policy_env *env, char *err,
           size_t errlen)
{
	return planned_create(PLAN_CHO, params, ctx, env, err, errlen);
}

static int
opt_polite_create(void **ctx, struct fr_params *params, const struct fr_policy_env *env, char *err,
                  size_t errlen)
{
	return planned_create(PLAN_OPT_POLITE, params, ctx, env, err, errlen);
}

static void
planned_destroy(void *ctx)
{
	struct planned_ctx *c = ctx;

	if (c)
		free(c->period_s);
	free(c);
}

static size_t
planned_state_size(const void *ctx)
{
	(void)ctx;
	return sizeof(struct planned_state);
}

/* The first revisit is uniform in [now, now + 1/f), drawn from the run's
 * seed and the source alone. */
static void
planned_init(void *ctx, void *st, uint32_t s, double now_s)
{
	const struct planned_ctx *c = ctx;
	struct planned_state *p = st;
	struct fr_rng r;

	p->period_s = c->period_s[s];
	if (p->period_s == INFINITY) {
		p->next_s = INFINITY;
		return;
	}
	fr_rng_seed(&r, mix64(c->seed ^ mix64(((uint64_t)s << 8 | 0x3c) + 0x9e3779b97f4a7c15ULL)));
	p->next_s = now_s + fr_rng_uniform(&r) * p->period_s;
}

static double
planned_due(void *ctx, void *st, double now_s, double theta)
{
	(void)ctx;
	(void)now_s;
	(void)theta;
	return ((const struct planned_state *)st)->next_s;
}

/* The next revisit is the previous instant of the schedule plus 1/f, not the
 * fetch time plus 1/f: a fetch delayed by the host gap does not push the
 * rest of the schedule back. */
static void
planned_fetched(void *ctx, void *st, const struct fr_fetch *f)
{
	struct planned_state *p = st;
	(void)ctx;
	(void)f;
	p->next_s += p->period_s;
}

const struct fr_policy_ops fr_policy_cho_delayed = {
    .name = "cho+delayed",
    .help = "pages: equally spaced revisits at the CHO allocation of the true change rates, "
            "each fetch delayed past its host's gap (DELAYED; a --world): share=1 (of the calls)",
    .kind = FR_POLICY_INTERVAL,
    .create = cho_create,
    .destroy = planned_destroy,
    .state_size = planned_state_size,
    .init = planned_init,
    .urgency = NULL,
    .due = planned_due,
    .fetched = planned_fetched,
    .rhythm = NULL,
};

const struct fr_policy_ops fr_policy_opt_polite_delayed = {
    .name = "opt-polite+delayed",
    .help = "pages: as cho+delayed at the OPT_POLITE allocation (each host at most one "
            "revisit per gap): share=1",
    .kind = FR_POLICY_INTERVAL,
    .create = opt_polite_create,
    .destroy = planned_destroy,
    .state_size = planned_state_size,
    .init = planned_init,
    .urgency = NULL,
    .due = planned_due,
    .fetched = planned_fetched,
    .rhythm = NULL,
};

const struct fr_policy_ops fr_policy_cho_equal = {
    .name = "cho+equal",
    .help = "pages: equally spaced revisits at the CHO allocation, ignoring the host gap "
            "(polite=0 by default; violations counted): share=1",
    .kind = FR_POLICY_INTERVAL,
    .create = cho_create,
    .destroy = planned_destroy,
    .state_size = planned_state_size,
    .init = planned_init,
    .urgency = NULL,
    .due = planned_due,
    .fetched = planned_fetched,
    .rhythm = NULL,
    .no_host_gap = 1,
};
