/* insample.c - per source and hour of the week: items / seconds the run
 * window spends in that hour of the week. */
#include "sim/insample.h"

#include "sim/trace.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define HOW 168

int
fr_insample_how(double t_s)
{
	double days = floor(t_s / 86400.0);
	int64_t d = (int64_t)days;
	/* 1970-01-01 was a Thursday (Monday = 0: Thursday = 3). */
	int dow = (int)(((d + 3) % 7 + 7) % 7);
	int hour = (int)((t_s - days * 86400.0) / 3600.0);
	return dow * 24 + (hour > 23 ? 23 : hour);
}

int
fr_insample_build(struct fr_insample *in, const struct fr_trace *tr, double start_s, double end_s)
{
	double exposure[HOW] = {0};

	memset(in, 0, sizeof(*in));
	if (!(end_s > start_s))
		return -1;
	/* The window's seconds in each hour of the week. */
	for (double t = start_s; t < end_s;) {
		double nb = (floor(t / 3600.0) + 1) * 3600.0;
		if (nb > end_s)
			nb = end_s;
		exposure[fr_insample_how(t)] += nb - t;
		t = nb;
	}
	in->rate = calloc((size_t)(tr->n_sources ? tr->n_sources : 1) * HOW, sizeof(*in->rate));
	if (!in->rate)
		return -1;
	in->n_sources = tr->n_sources;
	for (uint32_t s = 0; s < tr->n_sources; s++) {
		float *r = in->rate + (size_t)s * HOW;
		for (size_t k = tr->first[s]; k < tr->first[s + 1]; k++) {
			double t = tr->item_time_s[k];
			if (t >= start_s && t < end_s)
				r[fr_insample_how(t)] += 1;
		}
		for (int h = 0; h < HOW; h++)
			r[h] = exposure[h] > 0 ? (float)(r[h] / exposure[h]) : 0;
	}
	return 0;
}

void
fr_insample_free(struct fr_insample *in)
{
	free(in->rate);
	memset(in, 0, sizeof(*in));
}

double
fr_insample_intensity_cb(const void *arg, uint32_t s, double t_s)
{
	const struct fr_insample *in = arg;
	return s < in->n_sources ? in->rate[(size_t)s * HOW + fr_insample_how(t_s)] : 0;
}
