/* insample.h - the in-sample reference on a recorded trace: each source's
 * rate by hour of the week, taken from the whole run window of the trace
 * itself (its items in each of the 168 hours of the week over the time the
 * window spends in that hour). The oracle policy uses it when a run has no
 * world: the square-root index on rates it could only know in hindsight.
 * On a sparse trace it overfits (it knows the hours that held items) and
 * is no limit of what a learner can reach, only a reference. */
#ifndef FR_SIM_INSAMPLE_H
#define FR_SIM_INSAMPLE_H

#include <stdint.h>

struct fr_trace;

struct fr_insample {
	uint32_t n_sources;
	float *rate; /* [n_sources * 168] items per second, by Monday-0 hour of week (UTC) */
};

/* Counts the items of tr published in [start_s, end_s) by source and hour
 * of the week. Returns 0, or -1 (out of memory, or an empty window) with
 * *in zeroed. Free with fr_insample_free. */
int fr_insample_build(struct fr_insample *in, const struct fr_trace *tr, double start_s,
		      double end_s);

void fr_insample_free(struct fr_insample *in);

/* Hour of the week (Monday 00:00 UTC = 0) of t. */
int fr_insample_how(double t_s);

/* Source s's in-sample rate (items per second) at t; arg is a const
 * struct fr_insample * (the shape of fr_policy_env's intensity). */
double fr_insample_intensity_cb(const void *arg, uint32_t s, double t_s);

#endif
