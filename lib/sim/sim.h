/* sim.h - the trace-driven simulator: a virtual clock and a stub API that
 * answers a fetch of source s at time t with the items of s published in
 * (its previous fetch, t], exactly as notes-airballoon.md describes. Calls
 * take no time. The scheduler and policy are the live crawler's. */
#ifndef FR_SIM_SIM_H
#define FR_SIM_SIM_H

#include <stddef.h>
#include <stdint.h>

#include "sched/ratelimit.h"
#include "sim/metrics.h"

struct fr_trace;
struct fr_faults;
struct fr_hold_opts;

struct fr_sim_config {
	double start_s, end_s;  /* the run covers [start, end); items outside are ignored */
	enum fr_rl_mode mode;   /* burst (the seed's) or paced */
	uint32_t calls;         /* budget of each rate-limit group: calls ... */
	double window_s;        /* ... per window */
	double host_gap_s;      /* politeness: minimum gap between calls to one host */
	uint64_t seed;
	/* Optional true intensity (oracle policies); NULL when unknown. */
	double (*intensity)(const void *arg, uint32_t s, double t_s);
	const void *intensity_arg;
	/* Optional: the learned daily rhythm (policy op rhythm) of these sources
	 * at the end of the run is written to rhythm_out[i * 24 + h], and
	 * *rhythm_written set to 1 when the policy has one. */
	uint32_t n_rhythm;
	const uint32_t *rhythm_src;
	double *rhythm_out;
	int *rhythm_written;
	/* Optional progress report, called with the share of simulated time done
	 * (0..1) at most about 200 times a run. */
	void (*progress)(void *arg, double done);
	void *progress_arg;
	/* 1: also fill the metrics' per-source figures (fr_metrics_per_source),
	 * with each source's learned rate at the end (policy op rate). */
	int per_source;
	/* Optional outcomes injected (NULL or none: every fetch answers from
	 * the trace): a fetch a fault meets fails, finds nothing, and the live
	 * crawler's holds follow (sched/hold.h: the error backoff, a 429/503's
	 * pause of the host, with Retry-After), under hold's rules (NULL: the
	 * crawler's defaults). The backoff's jitter is drawn from seed. */
	const struct fr_faults *faults;
	const struct fr_hold_opts *hold;
	/* Optional: called with each fetch as it is made (the source's id, the
	 * time, 1 when an injected fault failed it). */
	void (*on_fetch)(void *arg, uint32_t src, double t_s, int failed);
	void *on_fetch_arg;
};

/* Runs the policy given as "name[:k=v...]" over tr with cfg, filling m (free
 * with fr_metrics_free). params receives the effective parameters (given and
 * defaulted) when not NULL. Besides the scheduler's and the policy's keys the
 * spec may say polite=0 (run without cfg->host_gap_s) or polite=1 (with it;
 * the default except for policies with no_host_gap); calls closer than
 * cfg->host_gap_s to one host are counted in m->polite_violations either
 * way. Every source counts as a page for m's freshness figures (its items
 * are its changes). Returns 0, or -1 with err set (unknown policy, bad
 * parameter, out-of-memory). */
struct fr_params;
int fr_sim_run(const struct fr_trace *tr, const char *policy_spec, const struct fr_sim_config *cfg,
	       struct fr_metrics *m, struct fr_params *params, char *err, size_t errlen);

#endif
