/* metrics.h - what a run measured: coverage, discovery delay (mean, median,
 * p90), requests and empty requests, overall and per week. Filled by the
 * simulator (and later the live crawler) through the record functions. */
#ifndef FR_SIM_METRICS_H
#define FR_SIM_METRICS_H

#include <stddef.h>
#include <stdint.h>

struct fr_week_stats {
	uint64_t published;   /* items published this week (by publication time) */
	uint64_t fetched;     /* of those, fetched before the end of the run */
	double delay_sum_s;   /* sum of their delays */
	uint64_t requests;    /* calls made this week (by call time) */
	uint64_t empty_requests;
	uint64_t items_found; /* items found by this week's calls (by call time) */
};

/* One source's share of a run (fr_metrics_per_source). */
struct fr_source_stats {
	uint64_t items;        /* published in [start, end) */
	uint64_t fetched;      /* of those, fetched */
	double delay_sum_s;    /* sum of their delays */
	uint64_t requests;     /* calls made to it */
	uint64_t empty_requests;
	double rate_per_day;   /* the policy's learned rate at the end; NAN if it has none */
};

struct fr_metrics {
	double start_s, end_s;
	uint64_t items;          /* published in [start, end) */
	uint64_t fetched;
	uint64_t requests;
	uint64_t empty_requests;
	double coverage;         /* fetched / items (0 when no items) */
	double delay_mean_s, delay_median_s, delay_p90_s; /* NAN when nothing fetched */
	size_t n_weeks;
	struct fr_week_stats *weeks; /* [n_weeks], owned */
	float *delays;           /* [fetched] every delay, owned, in fetch order */
	size_t delays_cap;
	struct fr_week_stats *cur_week; /* cache of the week of the latest lookup */
	double cur_week_start_s;
	/* The scheduler's work (see sched.h), set by the simulator. */
	uint64_t sched_batches, sched_candidates, sched_rekeys, sched_rebuilds;
	/* Freshness, for sources that are pages whose items are changes
	 * (docs/politeness.md): a page is fresh while the stored copy equals the
	 * live page, stale from its first change after a fetch to the next
	 * fetch; all start fresh. Weighted by source weight. Set by the
	 * simulator for every run; commands show them for pages only. */
	double weight_sum;    /* sum of the sources' weights */
	double stale_w_s;     /* sum_i w_i * stale time of i */
	double age_w_s2;      /* sum_i w_i * integral over stale periods of (t - first change) */
	double freshness;     /* 1 - stale_w_s / (weight_sum * T); NAN when weight_sum is 0 */
	double age_mean_s;    /* age_w_s2 / (weight_sum * T); NAN when weight_sum is 0 */
	/* Politeness: calls to one host less than polite_gap_s after the
	 * previous call to it (the run's configured gap; the scheduler prevents
	 * them unless the gap is switched off for the run, polite=0). */
	double polite_gap_s;
	uint64_t polite_violations;
	/* Injected outcomes (sim/faults.h): requests that failed (counted in
	 * requests and empty_requests too), and the hosts' 429/503 pauses. */
	uint64_t failed_requests, host_pauses;
	/* Per source, when asked for (fr_metrics_per_source): [n_sources],
	 * owned; NULL otherwise. The simulator fills it. */
	struct fr_source_stats *per_source;
	uint32_t n_sources;
};

/* Prepares m for a run over [start_s, end_s). Returns 0 or -1 on
 * out-of-memory. Free with fr_metrics_free. */
int fr_metrics_init(struct fr_metrics *m, double start_s, double end_s);
void fr_metrics_free(struct fr_metrics *m);
/* Also keeps figures per source, for n sources (ids 0..n-1), every rate
 * NAN until set. Returns 0 or -1 on out-of-memory. */
int fr_metrics_per_source(struct fr_metrics *m, uint32_t n);

/* An item published at pub_s exists in the run (call for every item in the
 * window, fetched or not). */
void fr_metrics_published(struct fr_metrics *m, double pub_s);
/* A call at t_s found n_items new items. */
void fr_metrics_request(struct fr_metrics *m, double t_s, size_t n_items);
/* An item published at pub_s was fetched at t_s. Returns 0 or -1 on
 * out-of-memory. */
int fr_metrics_fetched(struct fr_metrics *m, double pub_s, double t_s);
/* A source of weight w takes part in the freshness figures. */
void fr_metrics_source(struct fr_metrics *m, double w);
/* A source of weight w was stale from from_s (its first change since the
 * last fetch, or since the start) to to_s (the fetch, or the end). */
void fr_metrics_stale(struct fr_metrics *m, double w, double from_s, double to_s);

/* Computes coverage, mean, median and p90, and freshness and mean age.
 * Returns 0 or -1 on out-of-memory. */
int fr_metrics_finish(struct fr_metrics *m);

/* The q-quantile (0..1) of n values (copied, not reordered); NAN when n == 0. */
double fr_quantile(const float *v, size_t n, double q);

#endif
