/* sched.c - per group: a rate limiter and a min-heap of the group's sources
 * keyed by due time. Index policies' due times depend on the group's fetch
 * threshold theta, which tracks the urgency at which sources are actually
 * fetched; keys are re-evaluated lazily when they reach the top (see
 * docs/scheduler.md for the argument). */
#include "sched/sched.h"

#include "core/err.h"
#include "core/heap.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* How far the target threshold moves toward each observed fetch urgency (in
 * log space). */
#define THETA_GAIN 0.01
#define THETA_GAIN_BURST 0.1
/* The keys' threshold follows the target up at once (lazily: keys computed
 * with a lower threshold are lower bounds), and down only when the target
 * has fallen below it by this factor, with a rebuild of the group's keys. */
#define THETA_DROP 1.5
/* Sources set aside per choice while their host is in its politeness gap. */
#define MAX_STASH 64

struct group {
	struct fr_ratelimit rl;
	struct fr_heap *heap;  /* local ids, keyed by due time */
	uint32_t *members;     /* local id -> source id, ascending */
	uint32_t n_members;
	double log_theta;      /* threshold the heap keys are computed with */
	double log_target;     /* where the observed fetch urgencies say it should be */
	/* select=scan: the batch chosen at batch_t, consumed in order. */
	uint32_t *batch;
	uint32_t n_batch, batch_pos;
	double batch_t;
};

struct fr_sched {
	const struct fr_policy_ops *ops;
	void *ctx;
	size_t state_size;
	unsigned char *states;
	enum fr_rl_mode mode;
	double host_gap_s;
	int scan;

	uint32_t n_sources, n_groups, n_hosts;
	uint32_t *group;     /* [n_sources] */
	uint32_t *host;      /* [n_sources] */
	uint32_t *local;     /* [n_sources] index within its group */
	double *last_seq;    /* [n_sources] call number of the last fetch (0: never) */
	double seq;          /* calls made so far */
	uint32_t *stamp;     /* [n_sources] epoch of the last re-evaluation */
	uint32_t epoch;
	double *host_free_s; /* [n_hosts] earliest next call to the host */
	struct group *groups;
};

static void *
state_of(struct fr_sched *s, uint32_t src)
{
	return s->states + (size_t)src * s->state_size;
}

void *
fr_sched_state(struct fr_sched *s, uint32_t src)
{
	return state_of(s, src);
}

void *
fr_sched_policy_ctx(struct fr_sched *s)
{
	return s->ctx;
}

size_t
fr_sched_state_size(const struct fr_sched *s)
{
	return s->state_size;
}

double
fr_sched_theta(const struct fr_sched *s, uint32_t group)
{
	return exp(s->groups[group].log_theta);
}

void
fr_sched_free(struct fr_sched *s)
{
	if (!s)
		return;
	if (s->groups) {
		for (uint32_t g = 0; g < s->n_groups; g++) {
			fr_rl_free(&s->groups[g].rl);
			fr_heap_free(s->groups[g].heap);
			free(s->groups[g].members);
			free(s->groups[g].batch);
		}
		free(s->groups);
	}
	if (s->ctx && s->ops->destroy)
		s->ops->destroy(s->ctx);
	free(s->states);
	free(s->group);
	free(s->host);
	free(s->local);
	free(s->last_seq);
	free(s->stamp);
	free(s->host_free_s);
	free(s);
}

static double
theta(const struct group *g)
{
	return exp(g->log_theta);
}

static double
due_of(struct fr_sched *s, uint32_t src, double now_s)
{
	double d = s->ops->due(s->ctx, state_of(s, src), now_s, theta(&s->groups[s->group[src]]));
	return isnan(d) ? INFINITY : d;
}

int
fr_sched_new(struct fr_sched **out, const struct fr_policy_ops *ops, struct fr_params *params,
	     const struct fr_sched_config *cfg, const struct fr_policy_env *env, char *err,
	     size_t errlen)
{
	struct fr_sched *s = calloc(1, sizeof(*s));
	uint32_t n = cfg->n_sources;

	*out = NULL;
	if (!s)
		return fr_errf(err, errlen, "out of memory");
	s->ops = ops;
	s->mode = cfg->mode;
	s->host_gap_s = cfg->host_gap_s > 0 ? cfg->host_gap_s : 0;
	s->n_sources = n;
	s->n_groups = cfg->n_groups;
	s->n_hosts = cfg->host ? cfg->n_hosts : n;

	const char *sel = fr_params_str(params, "select", "heap");
	if (!strcmp(sel, "scan"))
		s->scan = 1;
	else if (strcmp(sel, "heap") != 0) {
		fr_errf(err, errlen, "policy '%s': select=%s: expected heap or scan", params->name,
			sel);
		goto fail;
	}
	if (s->scan && (ops->kind != FR_POLICY_INDEX || cfg->mode != FR_RL_BURST)) {
		fr_errf(err, errlen, "policy '%s': select=scan needs an index policy in burst mode",
			params->name);
		goto fail;
	}
	if (cfg->n_groups == 0) {
		fr_errf(err, errlen, "no rate-limit group");
		goto fail;
	}
	if (ops->create(&s->ctx, params, env, err, errlen) < 0)
		goto fail;
	if (fr_params_check_used(params, err, errlen) < 0)
		goto fail;

	s->state_size = ops->state_size(s->ctx);
	s->states = calloc(n ? n : 1, s->state_size ? s->state_size : 1);
	s->group = malloc((n ? n : 1) * sizeof(*s->group));
	s->host = malloc((n ? n : 1) * sizeof(*s->host));
	s->local = malloc((n ? n : 1) * sizeof(*s->local));
	s->last_seq = calloc(n ? n : 1, sizeof(*s->last_seq));
	s->stamp = calloc(n ? n : 1, sizeof(*s->stamp));
	s->host_free_s = malloc((s->n_hosts ? s->n_hosts : 1) * sizeof(*s->host_free_s));
	s->groups = calloc(cfg->n_groups, sizeof(*s->groups));
	if (!s->states || !s->group || !s->host || !s->local || !s->last_seq || !s->stamp ||
	    !s->host_free_s || !s->groups) {
		fr_errf(err, errlen, "out of memory for %u sources", n);
		goto fail;
	}
	for (uint32_t h = 0; h < s->n_hosts; h++)
		s->host_free_s[h] = -INFINITY;

	/* Members of each group, in source id order. */
	for (uint32_t i = 0; i < n; i++) {
		uint32_t g = cfg->group ? cfg->group[i] : 0;
		if (g >= cfg->n_groups) {
			fr_errf(err, errlen, "source %u is in group %u of %u", i, g, cfg->n_groups);
			goto fail;
		}
		uint32_t h = cfg->host ? cfg->host[i] : i;
		if (h >= s->n_hosts) {
			fr_errf(err, errlen, "source %u is on host %u of %u", i, h, s->n_hosts);
			goto fail;
		}
		s->group[i] = g;
		s->host[i] = h;
		s->local[i] = s->groups[g].n_members++;
	}
	for (uint32_t g = 0; g < cfg->n_groups; g++) {
		struct group *gr = &s->groups[g];
		if (cfg->groups[g].calls == 0 || !(cfg->groups[g].window_s > 0)) {
			fr_errf(err, errlen, "group %u: a limit needs calls >= 1 and a window > 0", g);
			goto fail;
		}
		if (fr_rl_init(&gr->rl, cfg->groups[g].calls, cfg->groups[g].window_s, cfg->mode) < 0 ||
		    !(gr->members = malloc((gr->n_members ? gr->n_members : 1) *
					   sizeof(*gr->members))) ||
		    !(gr->heap = fr_heap_new(gr->n_members))) {
			fr_errf(err, errlen, "out of memory");
			goto fail;
		}
		gr->log_theta = gr->log_target = log(ops->theta0 > 0 ? ops->theta0 : 1.0);
		if (s->scan && !(gr->batch = malloc((cfg->groups[g].calls) * sizeof(*gr->batch)))) {
			fr_errf(err, errlen, "out of memory");
			goto fail;
		}
		gr->n_members = 0;
	}
	for (uint32_t i = 0; i < n; i++) {
		struct group *gr = &s->groups[s->group[i]];
		gr->members[gr->n_members++] = i;
		ops->init(s->ctx, state_of(s, i), i, cfg->start_s);
	}
	for (uint32_t i = 0; i < n; i++)
		fr_heap_set(s->groups[s->group[i]].heap, s->local[i], due_of(s, i, cfg->start_s), 0);
	*out = s;
	return 0;
fail:
	fr_sched_free(s);
	return -1;
}

/* Moves the group's threshold toward its target. Raising it leaves every
 * stored key a lower bound of its true value, which the lazy re-evaluation
 * in choose_index corrects when the key reaches the top; lowering it would
 * leave keys too late, so it is done rarely and with a rebuild (O(n)). */
static void
retune(struct fr_sched *s, struct group *g, double now_s)
{
	if (g->log_target > g->log_theta) {
		g->log_theta = g->log_target;
		return;
	}
	if (g->log_target > g->log_theta - log(THETA_DROP))
		return;
	g->log_theta = g->log_target;
	for (uint32_t li = 0; li < g->n_members; li++) {
		uint32_t i = g->members[li];
		if (fr_heap_contains(g->heap, li))
			fr_heap_set(g->heap, li, due_of(s, i, now_s), s->last_seq[i]);
	}
}

/* Interval policies: the due source with the smallest due time, delayed past
 * its host's gap. Keys only grow when re-keyed, so the loop ends. */
static int
choose_interval(struct fr_sched *s, struct group *g, double t_rl, uint32_t *src, double *at)
{
	uint32_t li;
	double key;

	while (fr_heap_peek(g->heap, &li, &key)) {
		if (key == INFINITY)
			return 0;
		uint32_t i = g->members[li];
		double t = key > t_rl ? key : t_rl;
		double hf = s->host_free_s[s->host[i]];
		if (hf > t) {
			fr_heap_set(g->heap, li, hf, s->last_seq[i]);
			continue;
		}
		*src = i;
		*at = t;
		return 1;
	}
	return 0;
}

/* Index policies, heap path: the source with the smallest due time under the
 * current theta, each key re-evaluated at most once per choice. Sources whose
 * host is in its gap are set aside; if all are, the call waits for the
 * earliest host among those set aside. */
static int
choose_index(struct fr_sched *s, struct group *g, double t_rl, uint32_t *src, double *at)
{
	uint32_t stash[MAX_STASH], n_stash = 0, li;
	double stash_key[MAX_STASH], key;
	int found = 0;

	if (++s->epoch == 0)
		s->epoch = 1;
	while (fr_heap_peek(g->heap, &li, &key)) {
		if (key == INFINITY)
			break;
		uint32_t i = g->members[li];
		if (s->stamp[i] != s->epoch) {
			s->stamp[i] = s->epoch;
			double d = due_of(s, i, t_rl);
			if (d != key) {
				fr_heap_set(g->heap, li, d, s->last_seq[i]);
				continue;
			}
		}
		if (s->host_free_s[s->host[i]] > t_rl) {
			stash[n_stash] = li;
			stash_key[n_stash++] = key;
			fr_heap_remove(g->heap, li);
			if (n_stash == MAX_STASH)
				break;
			continue;
		}
		*src = i;
		*at = t_rl;
		found = 1;
		break;
	}
	if (!found && n_stash > 0) {
		uint32_t best = 0;
		for (uint32_t k = 1; k < n_stash; k++)
			if (s->host_free_s[s->host[g->members[stash[k]]]] <
			    s->host_free_s[s->host[g->members[stash[best]]]])
				best = k;
		*src = g->members[stash[best]];
		*at = s->host_free_s[s->host[*src]];
		found = 1;
	}
	for (uint32_t k = 0; k < n_stash; k++)
		fr_heap_set(g->heap, stash[k], stash_key[k], s->last_seq[g->members[stash[k]]]);
	return found;
}

struct cand {
	double u;
	double last;
	uint32_t src;
};

/* Ranks by urgency descending, then least recently fetched, then id. */
static int
cand_before(const struct cand *a, const struct cand *b)
{
	if (a->u != b->u)
		return a->u > b->u;
	if (a->last != b->last)
		return a->last < b->last;
	return a->src < b->src;
}

static int
cand_cmp(const void *pa, const void *pb)
{
	const struct cand *a = pa, *b = pb;
	return cand_before(a, b) ? -1 : cand_before(b, a) ? 1 : 0;
}

/* Moves the k best of c[0..n) to the front (Hoare-style quickselect). */
static void
select_top(struct cand *c, uint32_t n, uint32_t k)
{
	uint32_t lo = 0, hi = n;

	while (hi - lo > 1 && k > lo && k < hi) {
		struct cand pivot = c[lo + (hi - lo) / 2], tmp;
		uint32_t i = lo, j = hi - 1;
		while (i <= j) {
			while (cand_before(&c[i], &pivot))
				i++;
			while (cand_before(&pivot, &c[j]))
				j--;
			if (i <= j) {
				tmp = c[i];
				c[i] = c[j];
				c[j] = tmp;
				i++;
				if (j == 0)
					break;
				j--;
			}
		}
		if (k <= j + 1)
			hi = j + 1;
		else if (k >= i)
			lo = i;
		else
			return;
	}
}

/* Index policies, scan path (the seed's air balloon): once per burst, rank
 * every source of the group by urgency and take as many as the window has
 * room for. O(n) per burst. */
static int
choose_scan(struct fr_sched *s, struct group *g, double t_rl, uint32_t *src, double *at)
{
	if (g->batch_pos < g->n_batch && g->batch_t == t_rl) {
		*src = g->batch[g->batch_pos];
		*at = t_rl;
		return 1;
	}
	uint32_t k = fr_rl_available(&g->rl, t_rl), n = 0;
	struct cand *c = malloc((g->n_members ? g->n_members : 1) * sizeof(*c));
	if (!c)
		return choose_index(s, g, t_rl, src, at);
	for (uint32_t li = 0; li < g->n_members; li++) {
		uint32_t i = g->members[li];
		if (s->host_free_s[s->host[i]] > t_rl)
			continue;
		c[n].u = s->ops->urgency(s->ctx, state_of(s, i), t_rl);
		c[n].last = s->last_seq[i];
		c[n].src = i;
		n++;
	}
	if (k > n)
		k = n;
	select_top(c, n, k);
	qsort(c, k, sizeof(*c), cand_cmp);
	for (uint32_t j = 0; j < k; j++)
		g->batch[j] = c[j].src;
	free(c);
	g->n_batch = k;
	g->batch_pos = 0;
	g->batch_t = t_rl;
	if (k == 0)
		return choose_index(s, g, t_rl, src, at);
	*src = g->batch[0];
	*at = t_rl;
	return 1;
}

int
fr_sched_next(struct fr_sched *s, double now_s, uint32_t *src, double *at_s)
{
	int found = 0;

	for (uint32_t gi = 0; gi < s->n_groups; gi++) {
		struct group *g = &s->groups[gi];
		uint32_t c;
		double t, t_rl;
		int ok;

		if (g->n_members == 0)
			continue;
		t_rl = fr_rl_next(&g->rl, now_s);
		if (s->ops->kind == FR_POLICY_INTERVAL)
			ok = choose_interval(s, g, t_rl, &c, &t);
		else if (s->scan)
			ok = choose_scan(s, g, t_rl, &c, &t);
		else
			ok = choose_index(s, g, t_rl, &c, &t);
		if (ok && (!found || t < *at_s)) {
			*src = c;
			*at_s = t;
			found = 1;
		}
	}
	return found;
}

void
fr_sched_done(struct fr_sched *s, uint32_t src, const struct fr_fetch *f)
{
	struct group *g = &s->groups[s->group[src]];
	void *st = state_of(s, src);
	double now = f->now_s;

	fr_rl_record(&g->rl, now);
	s->host_free_s[s->host[src]] = now + s->host_gap_s;
	if (s->ops->kind == FR_POLICY_INDEX && !s->scan && fr_rl_next(&g->rl, now) > now) {
		/* The marginal fetch: the last call the window allows now (every
		 * call when paced). With theta equal to its urgency the sources
		 * due by now are exactly the most urgent ones, so the target
		 * follows the urgency of marginal fetches. */
		double u = s->ops->urgency(s->ctx, st, now);
		if (u > 0 && isfinite(u))
			g->log_target += (s->mode == FR_RL_BURST ? THETA_GAIN_BURST : THETA_GAIN) *
					 (log(u) - g->log_target);
	}
	s->ops->fetched(s->ctx, st, f);
	s->last_seq[src] = ++s->seq;
	if (s->scan && g->batch_pos < g->n_batch && g->batch[g->batch_pos] == src)
		g->batch_pos++;
	s->stamp[src] = s->epoch;
	fr_heap_set(g->heap, s->local[src], due_of(s, src, now), s->last_seq[src]);
	if (s->ops->kind == FR_POLICY_INDEX && !s->scan)
		retune(s, g, now);
}
