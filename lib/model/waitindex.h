/* waitindex.h - the square-root rule's index for one source: the expected
 * total waiting time of the items it has published since its last fetch,
 *     U(t) = integral over [last fetch, t] of lambda(s) (t - s) ds,
 * for a rate lambda that is constant within each UTC hour (given by a
 * callback) plus an optional self-exciting part that decays exponentially
 * after the latest item seen (bursts). Fetching the source with the largest
 * U under a budget minimises the item-weighted mean delay (baselines.md,
 * "Research policies"); U reaching a threshold theta gives its due time. */
#ifndef FR_MODEL_WAITINDEX_H
#define FR_MODEL_WAITINDEX_H

#include <stdint.h>

/* Rate (items per second) during UTC hour number hour (hours since the
 * epoch: the hour starts at hour * 3600). */
typedef double (*fr_hour_rate_fn)(const void *arg, int64_t hour);

/* A decaying extra rate: amp * exp(-(t - from_s) / tau_s) for t >= from_s. */
struct fr_burst {
	double amp;    /* items per second at from_s; 0 = none */
	double from_s;
	double tau_s;
};

/* Accumulated state since the last fetch, advanced incrementally. */
struct fr_waitacc {
	double at_s;  /* state is for this instant */
	double lam;   /* integral of the hourly rate over [last fetch, at] */
	double u;     /* U of the hourly part at at_s */
	double last_s; /* the last fetch */
};

/* Starts a new accumulation after a fetch at now. */
void fr_waitacc_reset(struct fr_waitacc *a, double now_s);

/* Advances to now (>= a->at_s) and returns U(now), the burst part included. */
double fr_waitacc_advance(struct fr_waitacc *a, double now_s, fr_hour_rate_fn rate,
			  const void *arg, const struct fr_burst *b);

/* The instant at which U reaches theta (<= a->at_s when it already has:
 * then a->at_s is returned), looking at most horizon_s past a->at_s; if U
 * has not reached theta by then, returns a->at_s + horizon_s (a lower bound
 * of the true instant). */
double fr_waitacc_due(const struct fr_waitacc *a, double theta, fr_hour_rate_fn rate,
		      const void *arg, const struct fr_burst *b, double horizon_s);

/* U contributed by the burst part alone over [last, t]. */
double fr_burst_u(const struct fr_burst *b, double last_s, double t_s);

#endif
