/* sched.c - per group: a rate limiter and a min-heap of the group's sources
 * keyed by due time. Interval policies are fetched in due order once due.
 * Index policies are fetched in batches (the calls one instant allows): the
 * sources whose key, computed with the group's threshold theta, has passed
 * are collected, and the most urgent of them taken; stale keys are lower
 * bounds, corrected when collected (docs/scheduler.md has the argument). */
#include "sched/sched.h"

#include "core/err.h"
#include "core/heap.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* When theta must come down, it comes down to this share of the lowest
 * urgency in the batch. */
#define THETA_UNDERSHOOT 0.8
/* select=scan: the cut is this share of the last batch's lowest urgency
 * (0.8: 1,300 of 4,106 pass on the default world, 0.9: fewer, and a
 * fallback is still cheaper than ranking them all). */
#define SCAN_CUT 0.9
/* At most this many due-time evaluations per call are spent on rebuilds. */
#define REBUILD_SHARE 8
/* park_head/park_next: the end of a list, and a source in none. */
#define NO_SRC UINT32_MAX
#define NOT_PARKED (UINT32_MAX - 1)

/* A candidate of a batch, ranked by urgency (descending), then least
 * recently fetched, then id, folded into two integers so that comparing two
 * candidates takes no branch: u >= 0, and the bits of a non-negative double
 * order as the double does. 16 bytes: the source and the urgency are read
 * back from the ranks. */
struct cand {
	uint64_t rank_u;   /* ~bits(u): smaller is more urgent */
	uint64_t rank_tie; /* last call number << 32 | source id */
};

struct group {
	struct fr_ratelimit rl;
	struct fr_heap *heap;  /* local ids, keyed by due time */
	uint32_t *members;     /* local id -> source id, ascending */
	uint32_t n_members;
	double theta;          /* threshold the heap keys are computed with */
	struct cand last_kth;  /* the least urgent source of the last full batch ... */
	int has_kth;           /* ... when there was one */
	double cut;            /* select=scan: urgencies below it are ranked only when
				* too few are above */
	uint32_t short_batches; /* batches with fewer due sources than calls, since the
				 * last rebuild */
	/* Index policies: the sources chosen for instant batch_t, out of the
	 * heap until fetched, consumed in order. */
	uint32_t *batch;
	uint32_t n_batch, batch_pos;
	double batch_t;
	double hold_s;        /* no call before this (fr_sched_hold_group), or -inf */
};

struct waitq {
	uint32_t *v; /* a binary min-heap of source ids by (last_seq, local id) */
	uint32_t n, cap;
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
	double seq;          /* calls made so far (ties rank by the low 32 bits) */
	uint32_t epoch;      /* numbers batch builds, for host_stamp */
	double *host_free_s; /* [n_hosts] earliest next call to the host; +inf while a
			      * live fetch is in flight (fr_sched_begin) */
	double *host_gap;    /* [n_hosts] per-host gaps, or NULL: host_gap_s for all */
	double *host_hold;   /* [n_hosts] paused until (Retry-After), or NULL */
	double *host_begin;  /* [n_hosts] start of the last fetch, or NULL (live only) */
	double *hold_s;      /* [n_sources] not before (error backoff), or NULL */
	/* Interval policies, live: sources met while their host was in flight,
	 * out of the heap until that fetch ends (fr_sched_finish puts them
	 * back). A list per host through park_next; NULL for index policies. */
	uint32_t *park_head; /* [n_hosts] first parked source, or NO_SRC */
	/* Interval policies in the simulator (one group, no live fetch yet):
	 * DELAYED in O(log n) per visit. Of the due sources waiting for a host
	 * in its gap, one (the host's representative) stays in the heap, keyed
	 * at the instant the host frees; the others wait in the host's own
	 * heap, least recently fetched first, and the next comes out when the
	 * representative is fetched. Without it every waiting source was
	 * re-keyed once per gap. NULL when off. */
	struct waitq *wait;  /* [n_hosts] */
	uint32_t *wait_rep;  /* [n_hosts] the representative, or NO_SRC */
	uint32_t *park_next; /* [n_sources] next in its host's list; NOT_PARKED if not in one */
	int any_gap;         /* some host has a gap */
	uint32_t *host_stamp; /* [n_hosts] marks hosts already in the batch being built */
	struct cand *cand;   /* candidates of the batch being built */
	uint32_t n_cand, cand_cap;
	uint32_t *stash;     /* [n_sources] sources to return to the heap */
	uint32_t *coll;      /* [n_sources] due sources found in the heap */
	double *low_u;       /* [n_sources] select=scan: urgencies below the cut */
	uint32_t *coll_stack; /* [n_sources] */
	uint32_t n_stash;
	uint32_t best_blocked; /* of those, the one whose host frees first */
	/* Per-host caps (index policies that report a rate, on shared hosts):
	 * the host's threshold floor, so that its sources are not due faster
	 * in sum than its gap allows (see host_cap_update). NULL when off. */
	double *hc_theta;     /* [n_hosts] 0: no floor */
	double *hc_sum;       /* [n_hosts] sum of sqrt(rate / 2) over its sources */
	double *hc_keyed;     /* [n_hosts] the lowest floor since the host was last re-keyed */
	float *hc_a;          /* [n_sources] each source's term in that sum */
	uint32_t *hc_first;   /* [n_hosts + 1] a host's sources: hc_members[first[h]..first[h+1]) */
	uint32_t *hc_members; /* [n_sources] */
	struct fr_sched_stats stats;
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

void
fr_sched_get_stats(const struct fr_sched *s, struct fr_sched_stats *out)
{
	*out = s->stats;
}

size_t
fr_sched_state_size(const struct fr_sched *s)
{
	return s->state_size;
}

double
fr_sched_theta(const struct fr_sched *s, uint32_t group)
{
	return s->groups[group].theta;
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
	free(s->host_free_s);
	free(s->host_gap);
	free(s->hc_theta);
	free(s->hc_sum);
	free(s->hc_keyed);
	free(s->hc_a);
	free(s->hc_first);
	free(s->hc_members);
	free(s->host_hold);
	free(s->host_begin);
	free(s->hold_s);
	free(s->park_head);
	free(s->park_next);
	if (s->wait) {
		for (uint32_t h = 0; h < s->n_hosts; h++)
			free(s->wait[h].v);
		free(s->wait);
	}
	free(s->wait_rep);
	free(s->host_stamp);
	free(s->cand);
	free(s->stash);
	free(s->coll);
	free(s->coll_stack);
	free(s->low_u);
	free(s);
}

static double
theta(const struct group *g)
{
	return g->theta;
}

static void
set_theta(struct group *g, double th)
{
	g->theta = th;
}

static double
due_of(struct fr_sched *s, uint32_t src, double now_s)
{
	/* select=scan ranks by urgency and reads a key only for whether it is
	 * finite (ever due): theta 0 says that, cheaply. */
	double th = s->scan ? 0 : theta(&s->groups[s->group[src]]);

	/* A source not yet fetched by this scheduler goes by theta alone: its
	 * first fetch comes as early as the policy and the host's gap allow
	 * (a new source, or the first round after a restart). */
	if (!s->scan && s->hc_theta && s->last_seq[src] > 0 && s->hc_theta[s->host[src]] > th)
		th = s->hc_theta[s->host[src]];
	double d = s->ops->due(s->ctx, state_of(s, src), now_s, th);
	if (isnan(d))
		return INFINITY;
	return s->hold_s && s->hold_s[src] > d ? s->hold_s[src] : d;
}

static double gap_of(const struct fr_sched *s, uint32_t h);
static int cand_reserve(struct fr_sched *s, uint32_t n);

/* Per-host caps. Under the square-root rule the index of a source with rate
 * r, fetched every tau, grows like r tau^2 / 2 (the expected waiting time of
 * the items it has missed), so at threshold theta it is fetched at the rate
 * a / sqrt(theta) with a = sqrt(r / 2), and a host's sources together at
 * S_h / sqrt(theta), S_h the sum of their a. The host may be called once per
 * gap P, so its sources get the threshold floor theta_h = (S_h P)^2, where
 * their rates sum to 1/P: the multiplier that meets the cap, in closed form
 * (the sum is monotone in theta: bisection would find this same root). The
 * policy's index is not exactly quadratic (rhythm, bursts, its exploration
 * cap), so a is measured on the policy itself at each fetch: the interval
 * tau it gives at the threshold in force, a = sqrt(theta) / tau (exact for
 * the quadratic index, a local fit otherwise, refitted as the floor moves);
 * the policy's mean rate is the fallback. A group threshold above the floor
 * leaves the host alone. When the floor falls to half of what the host's
 * keys were computed with, its waiting sources are re-keyed (a key computed
 * with a higher floor is late, not a lower bound). */
static void
host_cap_update(struct fr_sched *s, uint32_t src, double now_s, int rekey)
{
	uint32_t h = s->host[src];
	void *st = state_of(s, src);
	double gap = gap_of(s, h), old = s->hc_theta[h], th;
	double ref = theta(&s->groups[s->group[src]]), a = 0, tau;

	if (old > ref)
		ref = old;
	tau = s->ops->due(s->ctx, st, now_s, ref) - now_s;
	if (ref > 0 && tau > 1e-3 && isfinite(tau)) {
		a = sqrt(ref) / tau;
	} else {
		double r = s->ops->rate(s->ctx, st, now_s);
		a = r > 0 && isfinite(r) ? sqrt(r / 2) : 0;
	}
	s->hc_sum[h] += a - (double)s->hc_a[src];
	if (s->hc_sum[h] < 0)
		s->hc_sum[h] = 0;
	s->hc_a[src] = (float)a;
	th = gap > 0 ? (s->hc_sum[h] * gap) * (s->hc_sum[h] * gap) : 0;
	s->hc_theta[h] = th;
	/* Keys computed with a floor up to twice too high are late by at most
	 * sqrt(2) for a quadratic index: tolerated, so that a large host's
	 * floor, refitted at every fetch, does not re-key it every time. */
	if (th > s->hc_keyed[h] || !rekey)
		s->hc_keyed[h] = th > s->hc_keyed[h] ? th : s->hc_keyed[h];
	if (!rekey || !(th < 0.5 * s->hc_keyed[h]))
		return;
	s->hc_keyed[h] = th;
	for (uint32_t k = s->hc_first[h]; k < s->hc_first[h + 1]; k++) {
		uint32_t i = s->hc_members[k];
		struct group *gi = &s->groups[s->group[i]];

		if (i != src && fr_heap_contains(gi->heap, s->local[i]) &&
		    fr_heap_key(gi->heap, s->local[i]) != INFINITY)
			fr_heap_set(gi->heap, s->local[i], due_of(s, i, now_s), s->last_seq[i]);
	}
}

/* Sets up the caps when they can matter: an index policy that reports
 * rates, some host shared by two sources, and hostcap=1. Returns 0 or -1. */
static int
host_cap_init(struct fr_sched *s, double hostcap)
{
	uint32_t n = s->n_sources, shared = 0;

	if (!(hostcap > 0) || s->ops->kind != FR_POLICY_INDEX || !s->ops->rate)
		return 0;
	s->hc_first = calloc((size_t)s->n_hosts + 1, sizeof(*s->hc_first));
	if (!s->hc_first)
		return -1;
	for (uint32_t i = 0; i < n; i++)
		s->hc_first[s->host[i] + 1]++;
	for (uint32_t h = 0; h < s->n_hosts; h++) {
		if (s->hc_first[h + 1] > 1)
			shared = 1;
		s->hc_first[h + 1] += s->hc_first[h];
	}
	if (!shared) {
		free(s->hc_first);
		s->hc_first = NULL;
		return 0;
	}
	s->hc_members = malloc((n ? n : 1) * sizeof(*s->hc_members));
	s->hc_theta = calloc(s->n_hosts ? s->n_hosts : 1, sizeof(*s->hc_theta));
	s->hc_sum = calloc(s->n_hosts ? s->n_hosts : 1, sizeof(*s->hc_sum));
	s->hc_keyed = calloc(s->n_hosts ? s->n_hosts : 1, sizeof(*s->hc_keyed));
	s->hc_a = calloc(n ? n : 1, sizeof(*s->hc_a));
	if (!s->hc_members || !s->hc_theta || !s->hc_sum || !s->hc_a || !s->hc_keyed)
		return -1;
	{
		uint32_t *fill = malloc((s->n_hosts ? s->n_hosts : 1) * sizeof(*fill));
		if (!fill)
			return -1;
		memcpy(fill, s->hc_first, s->n_hosts * sizeof(*fill));
		for (uint32_t i = 0; i < n; i++)
			s->hc_members[fill[s->host[i]]++] = i;
		free(fill);
	}
	return 0;
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
	s->any_gap = s->host_gap_s > 0;
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
	double hostcap;
	if (fr_params_double(params, "hostcap", 1, 0, 1, &hostcap, err, errlen) < 0)
		goto fail;
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
	s->host_free_s = malloc((s->n_hosts ? s->n_hosts : 1) * sizeof(*s->host_free_s));
	s->host_stamp = calloc(s->n_hosts ? s->n_hosts : 1, sizeof(*s->host_stamp));
	s->stash = malloc((n ? n : 1) * sizeof(*s->stash));
	s->coll = malloc((n ? n : 1) * sizeof(*s->coll));
	s->coll_stack = malloc((n ? n : 1) * sizeof(*s->coll_stack));
	if (s->scan && !(s->low_u = malloc((n ? n : 1) * sizeof(*s->low_u)))) {
		fr_errf(err, errlen, "out of memory for %u sources", n);
		goto fail;
	}
	s->groups = calloc(cfg->n_groups, sizeof(*s->groups));
	if (!s->states || !s->group || !s->host || !s->local || !s->last_seq || 
	    !s->host_free_s || !s->host_stamp || !s->stash || !s->coll || !s->coll_stack ||
	    !s->groups) {
		fr_errf(err, errlen, "out of memory for %u sources", n);
		goto fail;
	}
	for (uint32_t h = 0; h < s->n_hosts; h++)
		s->host_free_s[h] = -INFINITY;
	if (ops->kind == FR_POLICY_INTERVAL) {
		s->park_head = malloc((s->n_hosts ? s->n_hosts : 1) * sizeof(*s->park_head));
		s->park_next = malloc((n ? n : 1) * sizeof(*s->park_next));
		if (!s->park_head || !s->park_next) {
			fr_errf(err, errlen, "out of memory for %u sources", n);
			goto fail;
		}
		for (uint32_t h = 0; h < s->n_hosts; h++)
			s->park_head[h] = NO_SRC;
		for (uint32_t i = 0; i < n; i++)
			s->park_next[i] = NOT_PARKED;
		if (cfg->n_groups == 1 && s->n_hosts < n) {
			s->wait = calloc(s->n_hosts, sizeof(*s->wait));
			s->wait_rep = malloc(s->n_hosts * sizeof(*s->wait_rep));
			if (!s->wait || !s->wait_rep) {
				fr_errf(err, errlen, "out of memory for %u sources", n);
				goto fail;
			}
			for (uint32_t h = 0; h < s->n_hosts; h++)
				s->wait_rep[h] = NO_SRC;
		}
	}

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
		set_theta(gr, ops->theta0 > 0 ? ops->theta0 : 1.0);
		gr->hold_s = -INFINITY;
		/* select=scan ranks by urgency, never by key: the heap only says
		 * who is waiting, and its order is never needed. */
		fr_heap_set_lazy(gr->heap, s->scan);
		if (!(gr->batch = malloc((cfg->groups[g].calls) * sizeof(*gr->batch)))) {
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
	uint32_t most = 0;
	for (uint32_t g = 0; g < cfg->n_groups; g++)
		most = s->groups[g].n_members > most ? s->groups[g].n_members : most;
	if (cand_reserve(s, most) < 0) {
		fr_errf(err, errlen, "out of memory for %u sources", n);
		goto fail;
	}
	if (host_cap_init(s, hostcap) < 0) {
		fr_errf(err, errlen, "out of memory for %u sources", n);
		goto fail;
	}
	if (s->hc_theta)
		for (uint32_t i = 0; i < n; i++)
			host_cap_update(s, i, cfg->start_s, 0);
	for (uint32_t i = 0; i < n; i++)
		fr_heap_set(s->groups[s->group[i]].heap, s->local[i], due_of(s, i, cfg->start_s), 0);
	*out = s;
	return 0;
fail:
	fr_sched_free(s);
	return -1;
}

/* Whether source a goes before b among sources due at the same instant:
 * the order of the group heap's ties (last fetch, then local id). */
static int
wait_before(const struct fr_sched *s, uint32_t a, uint32_t b)
{
	if (s->last_seq[a] != s->last_seq[b])
		return s->last_seq[a] < s->last_seq[b];
	return s->local[a] < s->local[b];
}

static int
wait_push(struct fr_sched *s, struct waitq *q, uint32_t i)
{
	uint32_t k;

	if (q->n == q->cap) {
		uint32_t nc = q->cap ? q->cap * 2 : 4;
		uint32_t *nv = realloc(q->v, nc * sizeof(*nv));
		if (!nv)
			return -1;
		q->v = nv;
		q->cap = nc;
	}
	k = q->n++;
	while (k > 0 && wait_before(s, i, q->v[(k - 1) / 2])) {
		q->v[k] = q->v[(k - 1) / 2];
		k = (k - 1) / 2;
	}
	q->v[k] = i;
	return 0;
}

static uint32_t
wait_pop(struct fr_sched *s, struct waitq *q)
{
	uint32_t top = q->v[0], last = q->v[--q->n], k = 0;

	for (;;) {
		uint32_t c = 2 * k + 1;
		if (c >= q->n)
			break;
		if (c + 1 < q->n && wait_before(s, q->v[c + 1], q->v[c]))
			c++;
		if (!wait_before(s, q->v[c], last))
			break;
		q->v[k] = q->v[c];
		k = c;
	}
	if (q->n)
		q->v[k] = last;
	return top;
}

/* Puts every waiting source back in its heap at the instant its host frees
 * and turns the queues off (a live fetch began: holds and in-flight hosts
 * are the live path's, which re-keys). */
static void
wait_off(struct fr_sched *s)
{
	for (uint32_t h = 0; h < s->n_hosts; h++) {
		struct waitq *q = &s->wait[h];
		while (q->n) {
			uint32_t i = wait_pop(s, q);
			struct group *g = &s->groups[s->group[i]];
			fr_heap_set(g->heap, s->local[i], s->host_free_s[h], s->last_seq[i]);
		}
		free(q->v);
	}
	free(s->wait);
	free(s->wait_rep);
	s->wait = NULL;
	s->wait_rep = NULL;
}

/* Source i, due, meets host h in its gap (free at hf): it becomes the
 * host's representative in the heap, or waits in the host's queue. */
static void
wait_for_host(struct fr_sched *s, struct group *g, uint32_t i, uint32_t h, double hf)
{
	uint32_t r = s->wait_rep[h];

	if (r != NO_SRC && r != i && fr_heap_contains(g->heap, s->local[r])) {
		if (wait_before(s, i, r)) { /* i goes first: r waits instead */
			fr_heap_remove(g->heap, s->local[r]);
			if (wait_push(s, &s->wait[h], r) < 0) {
				fr_heap_set(g->heap, s->local[r], hf, s->last_seq[r]);
			}
		} else {
			fr_heap_remove(g->heap, s->local[i]);
			if (wait_push(s, &s->wait[h], i) < 0) /* no memory: re-key as before */
				fr_heap_set(g->heap, s->local[i], hf, s->last_seq[i]);
			return;
		}
	}
	s->wait_rep[h] = i;
	fr_heap_set(g->heap, s->local[i], hf, s->last_seq[i]);
}

/* Source src of host h was fetched: when it was the representative, the
 * next waiting source takes its place, keyed at the instant h frees. */
static void
wait_fetched(struct fr_sched *s, uint32_t src, uint32_t h)
{
	if (s->wait_rep[h] != src)
		return;
	s->wait_rep[h] = NO_SRC;
	if (s->wait[h].n) {
		uint32_t i = wait_pop(s, &s->wait[h]);
		struct group *g = &s->groups[s->group[i]];

		s->wait_rep[h] = i;
		fr_heap_set(g->heap, s->local[i], s->host_free_s[h], s->last_seq[i]);
	}
}

/* Interval policies: the due source with the smallest due time, delayed past
 * its host's gap. Keys only grow when re-keyed, so the loop ends. A source
 * whose host has a live fetch in flight (free at +inf) leaves the heap for
 * its host's list until that fetch ends: O(log n) each time, where keying it
 * at +inf would lose it for good. */
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
		uint32_t h = s->host[i];
		double hf = s->host_free_s[h];
		if (hf == INFINITY && s->park_next[i] == NOT_PARKED) {
			fr_heap_remove(g->heap, li);
			s->park_next[i] = s->park_head[h];
			s->park_head[h] = i;
			continue;
		}
		if (hf > t) {
			if (s->wait)
				wait_for_host(s, g, i, h, hf);
			else
				fr_heap_set(g->heap, li, hf, s->last_seq[i]);
			continue;
		}
		*src = i;
		*at = t;
		return 1;
	}
	return 0;
}


static inline uint32_t
cand_src(const struct cand *c)
{
	return (uint32_t)c->rank_tie;
}

/* The urgency, as ranked (negative and NaN read as 0). */
static inline double
cand_u(const struct cand *c)
{
	uint64_t bits = ~c->rank_u;
	double u;
	memcpy(&u, &bits, sizeof(u));
	return u;
}

static inline int
cand_before(const struct cand *a, const struct cand *b)
{
	return (a->rank_u < b->rank_u) | ((a->rank_u == b->rank_u) & (a->rank_tie < b->rank_tie));
}

static inline void
cand_swap(struct cand *c, uint32_t i, uint32_t j)
{
	struct cand t = c[i];
	c[i] = c[j];
	c[j] = t;
}

/* Moves the k best of c[0..n) to the front, as a set in no particular order
 * (quickselect; cand_before is a strict total order). The partition swaps
 * every element and advances by the comparison, without a branch: the
 * comparisons of a selection are unpredictable, and mispredictions were
 * most of its cost. */
static void
take_top(struct cand *c, uint32_t n, uint32_t k, const struct cand *hint)
{
	uint32_t lo = 0, hi = n;

	if (hint && k > 0 && k < n) {
		/* A first partition around the last batch's k-th: this batch's
		 * is mostly near it, which leaves a short range to select in. */
		uint32_t lt = 0;
		for (uint32_t i = 0; i < n; i++) {
			struct cand x = c[i];
			int before = cand_before(&x, hint);
			c[i] = c[lt];
			c[lt] = x;
			lt += before;
		}
		if (k <= lt)
			hi = lt;
		else
			lo = lt;
	}
	while (k > lo && k < hi) {
		/* Pivot: the median of the first, middle and last. */
		uint32_t a = lo, b = lo + (hi - lo) / 2, z = hi - 1, m;
		if (cand_before(&c[a], &c[b]))
			m = cand_before(&c[b], &c[z]) ? b : cand_before(&c[a], &c[z]) ? z : a;
		else
			m = cand_before(&c[a], &c[z]) ? a : cand_before(&c[b], &c[z]) ? z : b;
		cand_swap(c, m, z);
		struct cand pivot = c[z];
		uint32_t lt = lo;
		/* [lo, lt) before the pivot, [lt, i) after it. */
		for (uint32_t i = lo; i < z; i++) {
			struct cand x = c[i];
			int before = cand_before(&x, &pivot);
			c[i] = c[lt];
			c[lt] = x;
			lt += before;
		}
		cand_swap(c, lt, z);
		/* The pivot is at lt: [lo, lt] are the lt - lo + 1 best of [lo, hi). */
		if (k <= lt)
			hi = lt;
		else
			lo = lt + 1;
	}
}

/* After take_top: remembers the k-th best of a batch of k or more as the
 * next batch's first pivot. */
static void
note_kth(struct fr_sched *s, struct group *g, uint32_t k)
{
	if (k == 0 || s->n_cand < k) {
		g->has_kth = 0;
		return;
	}
	struct cand w = s->cand[0];
	for (uint32_t j = 1; j < k; j++)
		if (cand_before(&w, &s->cand[j]))
			w = s->cand[j];
	g->last_kth = w;
	g->has_kth = 1;
}

/* Room for every source of the largest group, once: cand_push then needs
 * no check. */
static int
cand_reserve(struct fr_sched *s, uint32_t n)
{
	if (n > s->cand_cap) {
		struct cand *c = realloc(s->cand, (n ? n : 1) * sizeof(*c));
		if (!c)
			return -1;
		s->cand = c;
		s->cand_cap = n;
	}
	return 0;
}

static inline void
cand_push(struct fr_sched *s, uint32_t src, double u)
{
	struct cand *c = &s->cand[s->n_cand++];
	double pos = u > 0 ? u : 0; /* also maps -0 and NaN to 0 */
	uint64_t bits;
	memcpy(&bits, &pos, sizeof(bits));
	c->rank_u = ~bits;
	c->rank_tie = (uint64_t)(int64_t)s->last_seq[src] << 32 | src;
}

/* Whether a host can be busy past the instant of its last call: a gap, a
 * hold (Retry-After) or a live fetch in flight. Without, the check per
 * candidate is skipped. */
static inline int
hosts_can_wait(const struct fr_sched *s)
{
	return s->any_gap || s->host_hold || s->host_begin;
}

/* Notes that i's host is in its gap, remembering the source whose host
 * frees first. */
static void
note_blocked(struct fr_sched *s, uint32_t i)
{
	if (s->best_blocked == UINT32_MAX ||
	    s->host_free_s[s->host[i]] < s->host_free_s[s->host[s->best_blocked]])
		s->best_blocked = i;
}

/* Index policies, select=scan (the seed's air balloon): once per burst,
 * rank every source of the group by urgency and take as many as the window
 * has room for. O(n) per burst. Every urgency is evaluated (the seed's
 * accumulation depends on it), but only those at or above the group's cut
 * (a share of the last batch's lowest urgency) enter the selection, unless
 * fewer than k do; either way the k taken are the k most urgent. */
static void
build_scan_batch(struct fr_sched *s, struct group *g, double t)
{
	uint32_t k = fr_rl_available(&g->rl, t), n_low = 0;
	/* Who is waiting: every source with a finite key (in the heap, not
	 * in flight, ever due). */
	size_t m = fr_heap_collect(g->heap, DBL_MAX, s->coll, g->n_members, s->coll_stack);

	int busy = hosts_can_wait(s);

	s->n_cand = 0;
	s->n_stash = 0;
	s->best_blocked = UINT32_MAX;
	for (size_t j = 0; j < m; j++) {
		uint32_t i = g->members[s->coll[j]];
		if (s->hold_s && s->hold_s[i] > t)
			continue;
		if (busy && s->host_free_s[s->host[i]] > t) {
			note_blocked(s, i);
			continue;
		}
		double u = s->ops->urgency(s->ctx, state_of(s, i), t);
		if (u >= g->cut) {
			cand_push(s, i, u);
		} else {
			s->stash[n_low] = i;
			s->low_u[n_low++] = u;
		}
	}
	if (s->n_cand < k) {
		for (uint32_t j = 0; j < n_low; j++)
			cand_push(s, s->stash[j], s->low_u[j]);
	}
	take_top(s->cand, s->n_cand, k, g->has_kth ? &g->last_kth : NULL);
	g->n_batch = g->batch_pos = 0;
	g->batch_t = t;
	for (uint32_t j = 0; j < s->n_cand && g->n_batch < k; j++) {
		uint32_t i = cand_src(&s->cand[j]);
		g->batch[g->n_batch++] = i;
		fr_heap_remove(g->heap, s->local[i]);
	}
	note_kth(s, g, k);
	/* A full batch is the top k: its k-th is its lowest urgency. */
	double low = g->n_batch == k && g->has_kth ? cand_u(&g->last_kth) : INFINITY;
	g->cut = isfinite(low) ? SCAN_CUT * low : 0;
}

/* Returns a leftover batch to the heap (the caller moved on in time). */
static void
flush_batch(struct fr_sched *s, struct group *g)
{
	for (uint32_t j = g->batch_pos; j < g->n_batch; j++) {
		uint32_t i = g->batch[j];
		fr_heap_set(g->heap, s->local[i], due_of(s, i, g->batch_t), s->last_seq[i]);
	}
	g->n_batch = g->batch_pos = 0;
}

/* Index policies, heap path: builds the batch of the k most urgent sources
 * at t (k: the calls the window allows at t; 1 when paced). Keys are lower
 * bounds of due times under theta, so every source with urgency >= theta
 * has a key <= t; those are collected (without disturbing the heap) and
 * re-evaluated, and when at least k are due the batch is exactly the top k by
 * urgency, as a scan would find. Theta is then raised to keep some due
 * sources spare; when fewer than k are due, the batch is filled in due
 * order and theta is lowered with a rebuild (rare). */
static void
build_index_batch(struct fr_sched *s, struct group *g, double t)
{
	uint32_t k = s->mode == FR_RL_PACED ? 1 : fr_rl_available(&g->rl, t);
	uint32_t extra, n_due, li;
	double key, th = theta(g);
	int out_of_heap = 0; /* candidates removed from the heap (pass 2) */
	int busy = hosts_can_wait(s);

	if (k == 0)
		k = 1;
	/* A batch that takes a large share of the group (k log n >= n) leaves
	 * the heap unordered: its k removals and the k re-insertions after the
	 * fetches cost O(1) each, and the next collect scans the n keys, O(n)
	 * per batch, O(log n) per call. Smaller batches keep the order; the
	 * switch costs one O(n) heapify, paid for by the large batch before. */
	int bulk = (double)k * log2(g->n_members) >= g->n_members;
	fr_heap_set_lazy(g->heap, bulk);
	/* The spare due sources theta keeps (see the retuning below). */
	extra = bulk ? k + k / 2 : k / 2 > 1 ? k / 2 : 1;
	s->n_cand = 0;
	s->n_stash = 0;
	s->best_blocked = UINT32_MAX;
	if (++s->epoch == 0)
		s->epoch = 1;

	/* Pass 1: the sources due by t. */
	size_t m = fr_heap_collect(g->heap, t, s->coll, g->n_members, s->coll_stack);
	for (size_t j = 0; j < m; j++) {
		li = s->coll[j];
		uint32_t i = g->members[li];
		/* Due by t exactly when its urgency has reached theta; if not,
		 * its key was stale: re-key it. */
		double u = s->ops->urgency(s->ctx, state_of(s, i), t);
		if (!(u >= th)) {
			s->stats.rekeys++;
			fr_heap_set(g->heap, li, due_of(s, i, t), s->last_seq[i]);
			continue;
		}
		if (busy && s->host_free_s[s->host[i]] > t) {
			note_blocked(s, i);
			continue;
		}
		cand_push(s, i, u);
	}
	n_due = s->n_cand;
	s->stats.batches++;
	s->stats.candidates += m;

	/* Pass 2, theta too high: fill up in due order. */
	if (n_due < k) {
		fr_heap_set_lazy(g->heap, 0); /* due order is needed */
		out_of_heap = 1;
		for (uint32_t j = 0; j < s->n_cand; j++)
			fr_heap_remove(g->heap, s->local[cand_src(&s->cand[j])]);
		while (s->n_cand < k && fr_heap_peek(g->heap, &li, &key) && key != INFINITY) {
			uint32_t i = g->members[li];
			fr_heap_remove(g->heap, li);
			if (s->hold_s && s->hold_s[i] > t) {
				s->stash[s->n_stash++] = i;
				continue;
			}
			if (s->host_free_s[s->host[i]] > t) {
				note_blocked(s, i);
				s->stash[s->n_stash++] = i;
				continue;
			}
			cand_push(s, i, s->ops->urgency(s->ctx, state_of(s, i), t));
		}
	}
	take_top(s->cand, s->n_cand, k, g->has_kth ? &g->last_kth : NULL);
	note_kth(s, g, k);

	/* The batch: the best k, at most one per host when hosts have gaps. */
	g->n_batch = g->batch_pos = 0;
	g->batch_t = t;
	uint32_t j = 0;
	for (; j < s->n_cand && g->n_batch < k; j++) {
		uint32_t i = cand_src(&s->cand[j]), h = s->host[i];
		if (s->any_gap && s->host_stamp[h] == s->epoch) {
			if (out_of_heap)
				s->stash[s->n_stash++] = i;
			continue;
		}
		s->host_stamp[h] = s->epoch;
		g->batch[g->n_batch++] = i;
		if (!out_of_heap)
			fr_heap_remove(g->heap, s->local[i]);
	}
	for (; out_of_heap && j < s->n_cand; j++)
		s->stash[s->n_stash++] = cand_src(&s->cand[j]);
	for (uint32_t q = 0; q < s->n_stash; q++) {
		uint32_t i = s->stash[q];
		fr_heap_set(g->heap, s->local[i], due_of(s, i, t), s->last_seq[i]);
	}

	/* Retune theta (see above). */
	if (n_due >= k + extra) {
		/* Toward the most urgent source left out (a scan of cand[k..],
		 * no second selection), halfway (geometrically): a full step
		 * overshoots as often as not, and every overshoot costs a
		 * rebuild; the slack of k/2 due sources absorbs the rest.
		 * Large batches step a quarter of the way, and only with 3k/2
		 * spare: a rebuild costs them a share of n due evaluations
		 * each time, and the urgencies they rank follow the day
		 * (docs/scheduler.md, "Speed"; bench_sim prints the
		 * rebuilds). */
		double u = 0;
		for (uint32_t q = k; q < s->n_cand; q++)
			if (cand_u(&s->cand[q]) > u)
				u = cand_u(&s->cand[q]);
		/* (A theta of 0 would stay 0, or turn NaN: it jumps to u.) */
		if (u > th && isfinite(u))
			set_theta(g, !(th > 0) ? u : bulk ? th * sqrt(sqrt(u / th)) : sqrt(u * th));
	} else if (n_due < k && g->n_batch > 0 &&
		   (double)++g->short_batches * k * REBUILD_SHARE >= g->n_members) {
		/* Rebuilds are O(n): with small batches (paced mode) they are
		 * spread out, at most one per n / (REBUILD_SHARE k) short
		 * batches; meanwhile short batches fill up in due order. */
		g->short_batches = 0;
		double u = cand_u(&s->cand[0]);
		for (uint32_t q = 1; q < g->n_batch; q++)
			if (cand_u(&s->cand[q]) < u)
				u = cand_u(&s->cand[q]);
		/* A batch that reached sources of urgency 0 (a rate of 0 since
		 * their last fetch: the in-sample oracle on a sparse trace) has
		 * run out of sources with anything waiting: a lower theta
		 * would find none more, and rebuilding at every such batch
		 * cost O(n) each (theta halved down to 0, then NaN). */
		if (!(u > 0))
			return;
		/* Undershoot, so that the next bursts find slack and raise theta
		 * lazily instead of rebuilding again. */
		u *= THETA_UNDERSHOOT;
		set_theta(g, u < th ? u : th / 2 > 0 ? th / 2 : th);
		s->stats.rebuilds++;
		for (uint32_t q = 0; q < g->n_members; q++)
			if (fr_heap_contains(g->heap, q))
				fr_heap_rekey(g->heap, q, due_of(s, g->members[q], t),
					      s->last_seq[g->members[q]]);
	}
}

/* Index policies: the next source of the group's batch at t, building the
 * batch when needed. When every candidate's host is in its gap, the call
 * waits for the earliest such host. */
static int
choose_index(struct fr_sched *s, struct group *g, double t_rl, uint32_t *src, double *at)
{
	if (g->batch_pos < g->n_batch && g->batch_t == t_rl) {
		*src = g->batch[g->batch_pos];
		*at = t_rl;
		return 1;
	}
	flush_batch(s, g);
	if (s->scan)
		build_scan_batch(s, g, t_rl);
	else
		build_index_batch(s, g, t_rl);
	if (g->n_batch > 0) {
		*src = g->batch[0];
		*at = t_rl;
		return 1;
	}
	/* Nothing callable at t_rl: the source whose host frees first. */
	uint32_t best = s->best_blocked;
	if (best == UINT32_MAX)
		return 0;
	*src = best;
	*at = s->host_free_s[s->host[best]] > t_rl ? s->host_free_s[s->host[best]] : t_rl;
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
		if (g->hold_s > t_rl)
			t_rl = g->hold_s;
		if (s->ops->kind == FR_POLICY_INTERVAL)
			ok = choose_interval(s, g, t_rl, &c, &t);
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

static double
gap_of(const struct fr_sched *s, uint32_t h)
{
	return s->host_gap ? s->host_gap[h] : s->host_gap_s;
}

static double
hold_of_host(const struct fr_sched *s, uint32_t h)
{
	return s->host_hold ? s->host_hold[h] : -INFINITY;
}

/* What a fetch of src at now costs: a call of its group's limit, its host's
 * gap, its turn in the order of choices and in the batch. */
static void
charge(struct fr_sched *s, uint32_t src, double now)
{
	struct group *g = &s->groups[s->group[src]];
	uint32_t h = s->host[src];
	double hold;

	fr_rl_record(&g->rl, now);
	hold = hold_of_host(s, h);
	s->host_free_s[h] = now + gap_of(s, h) > hold ? now + gap_of(s, h) : hold;
	s->last_seq[src] = ++s->seq;
	if (g->batch_pos < g->n_batch && g->batch[g->batch_pos] == src)
		g->batch_pos++;
}

/* Src's key from its policy state at now, after charge(). */
static void
rekey_charged(struct fr_sched *s, uint32_t src, double now)
{
	struct group *g = &s->groups[s->group[src]];

	if (s->hc_theta)
		host_cap_update(s, src, now, 1);
	fr_heap_set(g->heap, s->local[src], due_of(s, src, now), s->last_seq[src]);
	if (s->wait)
		wait_fetched(s, src, s->host[src]);
}

void
fr_sched_done(struct fr_sched *s, uint32_t src, const struct fr_fetch *f)
{
	charge(s, src, f->now_s);
	s->ops->fetched(s->ctx, state_of(s, src), f);
	rekey_charged(s, src, f->now_s);
}

void
fr_sched_pass(struct fr_sched *s, uint32_t src, double now_s)
{
	charge(s, src, now_s);
	rekey_charged(s, src, now_s);
}

void
fr_sched_begin(struct fr_sched *s, uint32_t src, double now_s)
{
	struct group *g = &s->groups[s->group[src]];
	uint32_t h = s->host[src];

	if (!s->host_begin) {
		s->host_begin = malloc((s->n_hosts ? s->n_hosts : 1) * sizeof(*s->host_begin));
		if (s->host_begin)
			for (uint32_t q = 0; q < s->n_hosts; q++)
				s->host_begin[q] = -INFINITY;
	}
	if (s->wait)
		wait_off(s);
	fr_rl_record(&g->rl, now_s);
	if (s->host_begin)
		s->host_begin[h] = now_s;
	/* One fetch per host at a time: the host is busy until it ends. */
	s->host_free_s[h] = INFINITY;
	s->last_seq[src] = ++s->seq;
	if (g->batch_pos < g->n_batch && g->batch[g->batch_pos] == src)
		g->batch_pos++;
	/* Parked until fr_sched_finish. */
	fr_heap_set(g->heap, s->local[src], INFINITY, s->last_seq[src]);
}

void
fr_sched_finish(struct fr_sched *s, uint32_t src, const struct fr_fetch *f)
{
	struct group *g = &s->groups[s->group[src]];
	uint32_t h = s->host[src];
	double begin = s->host_begin ? s->host_begin[h] : f->now_s;
	double free_at = begin + gap_of(s, h), hold = hold_of_host(s, h);

	if (hold > free_at)
		free_at = hold;
	s->host_free_s[h] = free_at;
	s->ops->fetched(s->ctx, state_of(s, src), f);
	if (s->hc_theta)
		host_cap_update(s, src, f->now_s, 1);
	fr_heap_set(g->heap, s->local[src], due_of(s, src, f->now_s), s->last_seq[src]);
	/* The host's parked sources return to their heaps (choose_interval
	 * re-keys them past free_at when they come up). */
	if (s->park_head) {
		uint32_t i = s->park_head[h];

		s->park_head[h] = NO_SRC;
		while (i != NO_SRC) {
			uint32_t next = s->park_next[i];
			struct group *gi = &s->groups[s->group[i]];

			s->park_next[i] = NOT_PARKED;
			if (!fr_heap_contains(gi->heap, s->local[i]))
				fr_heap_set(gi->heap, s->local[i], due_of(s, i, f->now_s),
					    s->last_seq[i]);
			i = next;
		}
	}
}

/* Allocates a per-host array filled with fill, once. */
static double *
host_array(struct fr_sched *s, double **a, double fill)
{
	if (!*a) {
		*a = malloc((s->n_hosts ? s->n_hosts : 1) * sizeof(**a));
		if (!*a)
			return NULL;
		for (uint32_t q = 0; q < s->n_hosts; q++)
			(*a)[q] = fill;
	}
	return *a;
}

int
fr_sched_set_host_gap(struct fr_sched *s, uint32_t host, double gap_s)
{
	if (host >= s->n_hosts || !host_array(s, &s->host_gap, s->host_gap_s))
		return -1;
	s->host_gap[host] = gap_s > 0 ? gap_s : 0;
	if (gap_s > 0)
		s->any_gap = 1;
	if (s->hc_theta) { /* the floor follows the gap from the next update */
		double sum = s->hc_sum[host] * s->host_gap[host];
		s->hc_theta[host] = sum * sum;
	}
	return 0;
}

int
fr_sched_hold_host(struct fr_sched *s, uint32_t host, double until_s)
{
	if (host >= s->n_hosts || !host_array(s, &s->host_hold, -INFINITY))
		return -1;
	if (until_s > s->host_hold[host])
		s->host_hold[host] = until_s;
	/* A host in flight keeps +inf until its fetch finishes, which applies
	 * the hold. */
	if (s->host_free_s[host] < until_s)
		s->host_free_s[host] = until_s;
	return 0;
}

int
fr_sched_hold(struct fr_sched *s, uint32_t src, double until_s, double now_s)
{
	struct group *g = &s->groups[s->group[src]];

	if (!s->hold_s) {
		s->hold_s = malloc((s->n_sources ? s->n_sources : 1) * sizeof(*s->hold_s));
		if (!s->hold_s)
			return -1;
		for (uint32_t q = 0; q < s->n_sources; q++)
			s->hold_s[q] = -INFINITY;
	}
	s->hold_s[src] = until_s;
	if (fr_heap_contains(g->heap, s->local[src]) && fr_heap_key(g->heap, s->local[src]) != INFINITY)
		fr_heap_set(g->heap, s->local[src], due_of(s, src, now_s), s->last_seq[src]);
	return 0;
}

int
fr_sched_set_state(struct fr_sched *s, uint32_t src, const void *state, size_t len, double now_s)
{
	struct group *g = &s->groups[s->group[src]];

	if (len != s->state_size)
		return -1;
	memcpy(state_of(s, src), state, len);
	if (s->hc_theta)
		host_cap_update(s, src, now_s, 1);
	if (fr_heap_contains(g->heap, s->local[src]))
		fr_heap_set(g->heap, s->local[src], due_of(s, src, now_s), s->last_seq[src]);
	return 0;
}

double
fr_sched_due_at(const struct fr_sched *s, uint32_t src)
{
	const struct group *g = &s->groups[s->group[src]];

	if (!fr_heap_contains(g->heap, s->local[src]))
		return INFINITY;
	return fr_heap_key(g->heap, s->local[src]);
}

void
fr_sched_host_request(struct fr_sched *s, uint32_t src, double now_s)
{
	uint32_t h = s->host[src];

	if (s->host_begin && s->host_free_s[h] == INFINITY)
		s->host_begin[h] = now_s;
}

/* ---- Groups steered from outside (an API's own limit, issue 30) ---- */

int
fr_sched_set_group_limit(struct fr_sched *s, uint32_t group, uint32_t calls, double window_s)
{
	struct group *g;
	struct fr_ratelimit rl;
	uint32_t *batch;

	if (group >= s->n_groups || calls == 0 || !(window_s > 0))
		return -1;
	g = &s->groups[group];
	if (g->rl.calls == calls && g->rl.window_s == window_s)
		return 0;
	if (fr_rl_init(&rl, calls, window_s, g->rl.mode) < 0)
		return -1;
	if (!(batch = malloc(calls * sizeof(*batch)))) {
		fr_rl_free(&rl);
		return -1;
	}
	/* The calls already made stay in the window: the newest, up to calls
	 * of them, oldest first. */
	uint32_t keep = g->rl.count < calls ? g->rl.count : calls;
	for (uint32_t k = g->rl.count - keep; k < g->rl.count; k++)
		fr_rl_record(&rl, g->rl.ring[(g->rl.head + k) % g->rl.calls]);
	rl.last_s = g->rl.last_s;
	/* The batch was sized by the old limit: its sources go back first. */
	flush_batch(s, g);
	free(g->batch);
	g->batch = batch;
	fr_rl_free(&g->rl);
	g->rl = rl;
	return 0;
}

int
fr_sched_hold_group(struct fr_sched *s, uint32_t group, double until_s)
{
	if (group >= s->n_groups)
		return -1;
	s->groups[group].hold_s = until_s;
	return 0;
}

double
fr_sched_group_next(const struct fr_sched *s, uint32_t group, double now_s)
{
	const struct group *g;
	double t;

	if (group >= s->n_groups)
		return now_s;
	g = &s->groups[group];
	t = fr_rl_next(&g->rl, now_s);
	return g->hold_s > t ? g->hold_s : t;
}

void
fr_sched_group_spend(struct fr_sched *s, uint32_t group, double now_s)
{
	if (group < s->n_groups)
		fr_rl_record(&s->groups[group].rl, now_s);
}

void
fr_sched_group_limit(const struct fr_sched *s, uint32_t group, uint32_t *calls, double *window_s)
{
	const struct group *g = &s->groups[group < s->n_groups ? group : 0];

	*calls = g->rl.calls;
	*window_s = g->rl.window_s;
}
