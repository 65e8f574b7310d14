/* sim.c - the virtual-clock loop: ask the scheduler for the next fetch, jump
 * to its instant, answer it from the trace, record the metrics, tell the
 * scheduler. */
#include "sim/sim.h"

#include "core/err.h"
#include "core/rng.h"
#include "core/timefmt.h"
#include "sched/hold.h"
#include "sched/sched.h"
#include "sim/faults.h"
#include "sim/insample.h"
#include "sim/trace.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Longest run: weekly figures and the policies' state grow with the span, so
 * one absurd time in a trace (year 2500) must not make a run of centuries.
 * NOTE: keep in sync with MAX_SPAN_YEARS in src/runopts.c. */
#define MAX_SPAN_S (50 * 365.25 * 86400)

/* The simulator's own policy key polite=0|1: whether the scheduler keeps the
 * host gap for this run (violations are counted either way). Taken only when
 * given or when the policy runs without the gap by default, so that other
 * policies' parameters stay as they were. */
static int
take_polite(struct fr_params *p, const struct fr_policy_ops *ops, int *polite, char *err,
	    size_t errlen)
{
	int given = 0;
	double v;

	for (int i = 0; i < p->n; i++)
		if (!strcmp(p->kv[i].key, "polite"))
			given = 1;
	*polite = 1;
	if (!given && !ops->no_host_gap)
		return 0;
	if (fr_params_double(p, "polite", ops->no_host_gap ? 0 : 1, 0, 1, &v, err, errlen) < 0)
		return -1;
	if (v != 0 && v != 1)
		return fr_errf(err, errlen, "policy '%s': polite=%g: expected 0 or 1", p->name, v);
	*polite = v == 1;
	return 0;
}

/* The oracle's key insample=0|1, taken only when given: 1 runs it on the
 * in-sample rates of the trace itself (fr_insample), its default on a
 * trace without a world; 0 on the true intensity, which a world has. */
static int
take_insample(struct fr_params *p, const struct fr_sim_config *cfg, int *insample, char *err,
	      size_t errlen)
{
	double v;

	*insample = !cfg->intensity;
	for (int i = 0; i < p->n; i++)
		if (!strcmp(p->kv[i].key, "insample")) {
			if (fr_params_double(p, "insample", *insample, 0, 1, &v, err, errlen) < 0)
				return -1;
			if (v != 0 && v != 1)
				return fr_errf(err, errlen, "policy '%s': insample=%g: expected 0 or 1",
					       p->name, v);
			*insample = v == 1;
			break;
		}
	return 0;
}

/* The time of source i's item k, its first unseen one, or +inf when none is
 * left before end_s. */
static double
next_unseen(const struct fr_trace *tr, uint32_t i, size_t k, double end_s)
{
	return k < tr->first[i + 1] && tr->item_time_s[k] < end_s ? tr->item_time_s[k] : INFINITY;
}

/* An injected fault fails source src's fetch at t: nothing is found, the
 * policy learns an error, and the live crawler's holds follow (hold.h),
 * the jitter drawn as the crawler draws it (the error's, then the
 * pause's). */
static void
fail(struct fr_sched *s, uint32_t src, const struct fr_fault *fx, double t,
     const struct fr_hold_opts *hold, struct fr_rng *rng, uint32_t *err_count, uint32_t host,
     struct fr_metrics *m, double *src_end, double *host_end)
{
	struct fr_fetch f = {.now_s = t, .status = FR_FETCH_ERROR};
	struct fr_hold_outcome ho = {
	    .error = 1,
	    .status = fx->status,
	    .retry_after_at_s = fx->retry_after_s > 0 ? t + fx->retry_after_s : -1,
	    .err_count = (int)err_count[src],
	    .hints = {-1, -1, -1},
	};
	struct fr_hold h;

	fr_metrics_request(m, t, 0);
	m->failed_requests++;
	fr_sched_done(s, src, &f);
	ho.u_error = fr_rng_uniform(rng);
	if (ho.status == 429 || ho.status == 503)
		ho.u_pause = fr_rng_uniform(rng);
	fr_hold_after_fetch(hold, &ho, t, &h);
	err_count[src] = (uint32_t)h.err_count;
	if (h.host_until_s > t) {
		fr_sched_hold_host(s, host, h.host_until_s);
		m->host_pauses++;
		if (h.host_until_s > host_end[host])
			host_end[host] = h.host_until_s;
	}
	fr_sched_hold(s, src, h.source_until_s, t);
	src_end[src] = h.source_until_s;
}

/* The earliest hold's end after t among end[0..n), or +inf. */
static double
release_after(const double *end, uint32_t n, double t)
{
	double r = INFINITY;

	for (uint32_t q = 0; q < n; q++)
		if (end[q] > t && end[q] < r)
			r = end[q];
	return r;
}

int
fr_sim_run(const struct fr_trace *tr, const char *policy_spec, const struct fr_sim_config *cfg,
	   struct fr_metrics *m, struct fr_params *params_out, char *err, size_t errlen)
{
	struct fr_params params;
	struct fr_sched *s = NULL;
	size_t *cursor = NULL;
	struct fr_sched_group *groups = NULL;
	struct fr_insample ins = {0};
	double *host_last = NULL, *next_item = NULL;
	/* Injected faults: how many fetches each has failed, each source's
	 * errors in a row, whether any fault names it. */
	uint32_t *fault_used = NULL, *err_count = NULL;
	double *hold_end = NULL; /* [n + n_hosts]: each source's hold's end, then each host's */
	uint8_t *has_fault = NULL;
	struct fr_hold_opts hold;
	struct fr_rng rng;
	int faults = cfg->faults && cfg->faults->n > 0;
	uint32_t n_groups = 1, n = tr->n_sources, n_hosts = 0;
	int rc = -1, polite = 1;

	memset(m, 0, sizeof(*m));
	if (fr_params_parse(&params, policy_spec, err, errlen) < 0)
		return -1;
	const struct fr_policy_ops *ops = fr_policy_find(params.name);
	if (!ops)
		return fr_errf(err, errlen, "unknown policy '%s' (see 'freshet simulate --help')",
			       params.name);
	if (!(cfg->end_s > cfg->start_s))
		return fr_errf(err, errlen, "empty run: end is not after start");
	if (cfg->end_s - cfg->start_s > MAX_SPAN_S) {
		char a[32], b[32];

		return fr_errf(err, errlen,
			       "run window %s .. %s is longer than 50 years (a wrong time in the "
			       "trace?); narrow it",
			       fr_time_format(cfg->start_s, a, sizeof(a)),
			       fr_time_format(cfg->end_s, b, sizeof(b)));
	}
	if (cfg->calls == 0 || !(cfg->window_s > 0))
		return fr_errf(err, errlen, "budget needs at least 1 call per window");
	if (take_polite(&params, ops, &polite, err, errlen) < 0)
		return -1;
	int insample = 0;
	if (ops == &fr_policy_oracle && take_insample(&params, cfg, &insample, err, errlen) < 0)
		return -1;
	if (insample && fr_insample_build(&ins, tr, cfg->start_s, cfg->end_s) < 0)
		return fr_errf(err, errlen, "out of memory for the in-sample rates");
	for (uint32_t i = 0; i < n; i++)
		if (tr->group[i] + 1 > n_groups)
			n_groups = tr->group[i] + 1;
	for (uint32_t i = 0; i < n; i++)
		if (tr->host[i] + 1 > n_hosts)
			n_hosts = tr->host[i] + 1;
	groups = malloc(n_groups * sizeof(*groups));
	cursor = malloc((n ? n : 1) * sizeof(*cursor));
	host_last = malloc((n_hosts ? n_hosts : 1) * sizeof(*host_last));
	next_item = malloc((n ? n : 1) * sizeof(*next_item));
	if (!groups || !cursor || !host_last || !next_item) {
		fr_errf(err, errlen, "out of memory");
		goto out;
	}
	if (faults) {
		fault_used = calloc(cfg->faults->n, sizeof(*fault_used));
		err_count = calloc(n ? n : 1, sizeof(*err_count));
		has_fault = calloc(n ? n : 1, 1);
		hold_end = malloc((n + n_hosts + 1) * sizeof(*hold_end));
		if (!fault_used || !err_count || !has_fault || !hold_end) {
			fr_errf(err, errlen, "out of memory");
			goto out;
		}
		for (uint32_t q = 0; q < n + n_hosts; q++)
			hold_end[q] = -INFINITY;
		for (size_t k = 0; k < cfg->faults->n; k++)
			if (cfg->faults->v[k].source < n)
				has_fault[cfg->faults->v[k].source] = 1;
		if (cfg->hold)
			hold = *cfg->hold;
		else
			fr_hold_opts_init(&hold);
		fr_rng_seed(&rng, cfg->seed);
	}
	for (uint32_t g = 0; g < n_groups; g++) {
		groups[g].calls = cfg->calls;
		groups[g].window_s = cfg->window_s;
	}

	double calls_per_s = (double)cfg->calls / cfg->window_s * n_groups;
	struct fr_policy_env env = {
		.n_sources = n,
		.weight = tr->weight,
		.group = tr->group,
		.start_s = cfg->start_s,
		.calls_per_s = calls_per_s,
		.seed = cfg->seed,
		.intensity = insample ? fr_insample_intensity_cb : cfg->intensity,
		.intensity_arg = insample ? (const void *)&ins : cfg->intensity_arg,
		.host_gap_s = cfg->host_gap_s > 0 ? cfg->host_gap_s : 0,
		.host = tr->host,
		.n_hosts = n_hosts,
	};
	struct fr_sched_config sc = {
		.mode = cfg->mode,
		.host_gap_s = polite ? cfg->host_gap_s : 0,
		.start_s = cfg->start_s,
		.n_groups = n_groups,
		.groups = groups,
		.n_sources = n,
		.group = tr->group,
		.host = tr->host,
		.n_hosts = n_hosts,
	};
	if (fr_sched_new(&s, ops, &params, &sc, &env, err, errlen) < 0)
		goto out;
	if (params_out)
		*params_out = params;
	if (fr_metrics_init(m, cfg->start_s, cfg->end_s) < 0) {
		fr_errf(err, errlen, "out of memory");
		goto out;
	}
	if (cfg->per_source && fr_metrics_per_source(m, n) < 0) {
		fr_errf(err, errlen, "out of memory");
		goto out;
	}

	m->polite_gap_s = env.host_gap_s;
	for (uint32_t h = 0; h < n_hosts; h++)
		host_last[h] = -INFINITY;

	/* Items before the start count as seen; items in the window exist.
	 * Every page starts fresh. */
	for (uint32_t i = 0; i < n; i++) {
		fr_metrics_source(m, tr->weight[i]);
		size_t k = tr->first[i];
		while (k < tr->first[i + 1] && tr->item_time_s[k] < cfg->start_s)
			k++;
		cursor[i] = k;
		next_item[i] = next_unseen(tr, i, k, cfg->end_s);
		size_t j = k;
		for (; j < tr->first[i + 1] && tr->item_time_s[j] < cfg->end_s; j++)
			fr_metrics_published(m, tr->item_time_s[j]);
		if (m->per_source)
			m->per_source[i].items = j - k;
	}

	double t = cfg->start_s, span = cfg->end_s - cfg->start_s, next_report = 0;
	uint32_t src;
	double at;
	double next_release = INFINITY;
	for (;;) {
		int found = fr_sched_next(s, t, &src, &at);
		if (faults) {
			/* A held source is not offered until its hold ends (the
			 * live loop asks again at least every second): when
			 * nothing comes before the next hold's end, time moves
			 * there and the scheduler is asked again. */
			if (t >= next_release)
				next_release = release_after(hold_end, n + n_hosts, t);
			if ((!found || at > next_release) && next_release < cfg->end_s) {
				t = next_release;
				continue;
			}
		}
		if (!found || !(at < cfg->end_s))
			break;
		t = at;
		uint32_t h = tr->host[src];
		if (env.host_gap_s > 0 && t < host_last[h] + env.host_gap_s)
			m->polite_violations++;
		host_last[h] = t;
		size_t fk;
		const struct fr_fault *fx =
		    faults && has_fault[src] ? fr_faults_at(cfg->faults, fault_used, src, t, &fk) : NULL;
		if (cfg->on_fetch)
			cfg->on_fetch(cfg->on_fetch_arg, src, t, fx != NULL);
		if (fx) {
			fail(s, src, fx, t, &hold, &rng, err_count, tr->host[src], m, hold_end,
			     hold_end + n);
			if (hold_end[src] > t && hold_end[src] < next_release)
				next_release = hold_end[src];
			if (hold_end[n + h] > t && hold_end[n + h] < next_release)
				next_release = hold_end[n + h];
			fault_used[fk]++;
			if (m->per_source) {
				m->per_source[src].requests++;
				m->per_source[src].empty_requests++;
			}
			continue;
		}
		size_t k = cursor[src], end = tr->first[src + 1];
		/* Most fetches find nothing: answer those from next_item, without
		 * touching the trace's items (megabytes, out of cache). */
		if (next_item[src] <= t) {
			while (k < end && tr->item_time_s[k] <= t &&
			       tr->item_time_s[k] < cfg->end_s)
				k++;
			next_item[src] = next_unseen(tr, src, k, cfg->end_s);
		}
		/* Stale from the first change since the last fetch until now. */
		if (k > cursor[src])
			fr_metrics_stale(m, tr->weight[src], tr->item_time_s[cursor[src]], t);
		struct fr_fetch f = {
			.now_s = t,
			.status = FR_FETCH_OK,
			.n_items = k - cursor[src],
			.published_s = tr->item_time_s + cursor[src],
			.item_weight = tr->item_weight ? tr->item_weight + cursor[src] : NULL,
		};
		fr_metrics_request(m, t, f.n_items);
		double delay_sum_s = 0;
		for (size_t j = cursor[src]; j < k; j++) {
			if (fr_metrics_fetched(m, tr->item_time_s[j], t) < 0) {
				fr_errf(err, errlen, "out of memory");
				goto out;
			}
			delay_sum_s += t - tr->item_time_s[j];
		}
		if (m->per_source) {
			struct fr_source_stats *ps = &m->per_source[src];
			ps->requests++;
			ps->empty_requests += f.n_items == 0;
			ps->fetched += f.n_items;
			ps->delay_sum_s += delay_sum_s;
		}
		cursor[src] = k;
		fr_sched_done(s, src, &f);
		if (faults && err_count[src]) {
			/* The crawler's rule after a success: errors reset, the
			 * backoff's hold lifted (the simulator has no hints). */
			err_count[src] = 0;
			hold_end[src] = -INFINITY;
			fr_sched_hold(s, src, -INFINITY, t);
		}
		if (cfg->progress && t >= next_report) {
			cfg->progress(cfg->progress_arg, (t - cfg->start_s) / span);
			next_report = t + span / 200;
		}
	}
	/* Pages changed since their last fetch stay stale to the end. */
	for (uint32_t i = 0; i < n; i++)
		if (cursor[i] < tr->first[i + 1] && tr->item_time_s[cursor[i]] < cfg->end_s)
			fr_metrics_stale(m, tr->weight[i], tr->item_time_s[cursor[i]], cfg->end_s);
	if (cfg->progress)
		cfg->progress(cfg->progress_arg, 1.0);
	if (cfg->rhythm_written)
		*cfg->rhythm_written = ops->rhythm != NULL && cfg->n_rhythm > 0;
	for (uint32_t r = 0; ops->rhythm && r < cfg->n_rhythm; r++)
		if (cfg->rhythm_src[r] < n)
			ops->rhythm(fr_sched_policy_ctx(s), fr_sched_state(s, cfg->rhythm_src[r]),
				    cfg->rhythm_out + 24 * r);
	for (uint32_t i = 0; ops->rate && m->per_source && i < n; i++)
		m->per_source[i].rate_per_day =
		    ops->rate(fr_sched_policy_ctx(s), fr_sched_state(s, i), cfg->end_s) * 86400.0;
	struct fr_sched_stats st;
	fr_sched_get_stats(s, &st);
	m->sched_batches = st.batches;
	m->sched_candidates = st.candidates;
	m->sched_rekeys = st.rekeys;
	m->sched_rebuilds = st.rebuilds;
	if (fr_metrics_finish(m) < 0) {
		fr_errf(err, errlen, "out of memory");
		goto out;
	}
	rc = 0;
out:
	if (rc < 0)
		fr_metrics_free(m);
	fr_sched_free(s);
	free(groups);
	free(cursor);
	free(host_last);
	free(next_item);
	free(fault_used);
	free(err_count);
	free(has_fault);
	free(hold_end);
	fr_insample_free(&ins);
	return rc;
}
