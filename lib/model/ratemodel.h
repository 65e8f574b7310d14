/* ratemodel.h - one source's publishing rate, learned online from what its
 * fetches return: exponentially decayed counts per hour of the day and per
 * day of the week, shrunk toward the population's profile and rate when data
 * is thin (empirical Bayes), with a fast second clock that detects rate
 * changes (a start, a stop, a doubling) sooner than plain decay would.
 * Items without a publication time count as spread over the interval in
 * which they appeared. A source's daily profile is shrunk toward the
 * population's shared shape shifted by the source's own time shift (the
 * posterior over the shift, its prior learned from how shifts are spread
 * across sources), so a source in another time zone borrows the right
 * prior, and one with few items hedges. 160 bytes per source. */
#ifndef FR_MODEL_RATEMODEL_H
#define FR_MODEL_RATEMODEL_H

#include <stddef.h>
#include <stdint.h>

/* Sharpness exponents a source's profile may take, about 20% apart.
 * NOTE: keep FR_N_SHARP values and FR_SHARP_ONE the index of 1. */
#define FR_SHARP {0.25, 0.35, 0.5, 0.6, 0.7, 0.85, 1.0, 1.2, 1.4, 1.7, 2.0, 2.5, 3.0}
#define FR_N_SHARP 13
#define FR_SHARP_ONE 6

/* What all sources together look like; the prior of each. */
struct fr_ratepop {
	double aligned[24]; /* decayed item counts per hour of the day, all sources, each
			     * source's items moved by its own time shift: the shape
			     * sources share, whatever their time zone */
	/* The shared shape raised to each sharpness of FR_SHARP and scaled to
	 * sum 1 (refreshed every few thousand items), and its logarithm. */
	double prior[FR_N_SHARP][24];
	double logprior[FR_N_SHARP][24];
	double since_refresh;
	double day[7];     /* per day of the week (Monday = 0) */
	double items;      /* decayed total items */
	double exposure_s; /* decayed source-seconds observed */
	double at_s;       /* the decay clock */
	double tau_s;      /* decay time */
	double prior_rate; /* prior rate of a source (items/s) if > 0, else items / exposure */
	/* How sources' fitted time shifts (index shift + 11) and sharpness
	 * indices are spread, in decayed source-seconds, and the log priors
	 * the fits use, refreshed with the shape. */
	double shift_w[24], sharp_w[FR_N_SHARP];
	double lp_shift[24], lp_sharp[FR_N_SHARP];
	/* Source-seconds watched per aligned hour of the day (each source's
	 * hours moved by its shift, as aligned[] is) and per weekday, decayed
	 * as the counts are: a share is items over the time that could hold
	 * them, so hours and days not watched yet do not read as quiet. */
	double hour_exp[24], day_exp[7];
	double dshare[7];  /* the weekday shares, refreshed with the shape */
};

struct fr_ratemodel {
	float hour[24];    /* decayed counts per UTC hour of day (profile clock) */
	float day[7];      /* per day of the week */
	float count;       /* decayed total (slow clock): the rate's level */
	float pcount;      /* decayed total on the profile clock (sum of hour[]) */
	float fast;        /* decayed total on the fast clock */
	int8_t shift;      /* hours its day runs ahead of the shared shape (time zone) */
	uint8_t sharp;     /* index of its sharpness in FR_SHARP: how strongly it
			    * follows the shape (1: as all do; 0.25: flat; 3: only at peaks) */
	/* The prior profile is a mixture: the shape shifted by shift (weight
	 * w1 / 255) and by shift2 (w2 / 255), the rest flat: the posterior
	 * over the source's time shift, its two likeliest values kept. w1 = 0
	 * (a state saved before these fields, zero padding): shift alone. */
	int8_t shift2;
	uint8_t w1, w2;
	double at_s;       /* both clocks are decayed up to here */
	double since_s;    /* observed since (first fetch window) */
};

struct fr_rateparams {
	double tau_s;       /* slow decay (rate level) */
	double profile_tau_s; /* decay of the hourly and daily counts (the shape) */
	double fast_tau_s;  /* fast decay (change detection): 2 days */
	double prior_s;     /* weight of the population rate, in source-seconds: 1 day */
	double prior_items; /* weight of the population profile, in items: 8 */
	double change_z;    /* z-score on the fast clock that declares a change: 3 */
	double change_alpha; /* its one-sided tail, 0.5 erfc(change_z / sqrt 2), set by
			      * fr_rateparams_prepare (0: computed at each use) */
	double floor_rate;  /* never below this rate (items/s): 1/30 days */
	int flat;           /* 1: ignore the hourly and daily shares (an ablation) */
	/* Optional memo of the clocks' exposures and decay factors by time
	 * difference (fr_ratecache_new), or NULL. Borrowed; the values are
	 * the same with or without it. */
	struct fr_ratecache *cache;
};

/* A memo of what the clocks compute from a time difference alone: the
 * exposures of a source watched for d seconds and the decay factors over
 * dt. In burst mode whole batches of sources are fetched at one instant,
 * so a few hundred differences recur millions of times. Tied to the
 * decay times of the rateparams it was made for (fr_ratecache_new checks
 * nothing: one cache per rateparams). Caller frees with free(). Returns
 * NULL when out of memory (then go without). */
struct fr_ratecache *fr_ratecache_new(void);

void fr_ratepop_init(struct fr_ratepop *p, double now_s, double tau_s);

/* Computes what rp's fields imply once (change_alpha), so that observing
 * does not at every fetch; call after setting them. */
void fr_rateparams_prepare(struct fr_rateparams *rp);

/* Whether p holds values a population can reach (a saved one is outside
 * data): counts, exposures and weights finite and within [0, 1e15], times
 * within years 1970 to 5138 (0 to 1e11 s), a decay time of 1 s to 1e12 s,
 * each prior row and the weekday shares positive and summing to 1 (1e-6),
 * the log rows their logarithms (1e-6) and the fits' log priors finite and
 * at most 0. Returns 0, or -1 with err naming the field (as "pop.NAME[i]")
 * and its value. */
int fr_ratepop_check(const struct fr_ratepop *p, char *err, size_t errlen);
void fr_ratemodel_init(struct fr_ratemodel *m, double now_s);

/* Adds what a fetch at now_s saw: n items with publication times pub_s
 * (NAN = unknown: spread over (prev_fetch_s, now_s]) in a window that
 * opened at prev_fetch_s. Updates the population too. Returns 1 when the
 * fast clock declared a rate change (the slow counts were rescaled). */
int fr_ratemodel_observe(struct fr_ratemodel *m, struct fr_ratepop *pop,
			 const struct fr_rateparams *rp, double prev_fetch_s, double now_s,
			 const double *pub_s, unsigned n);

/* Overall rate estimate (items per second), profile aside. */
double fr_ratemodel_mean_rate(const struct fr_ratemodel *m, const struct fr_ratepop *pop,
			      const struct fr_rateparams *rp);

/* Relative activity per UTC hour (mean 1), shrunk as the rate uses it. */
void fr_ratemodel_profile(const struct fr_ratemodel *m, const struct fr_ratepop *pop,
			  const struct fr_rateparams *rp, double out[24]);

/* The model prepared for evaluation: the overall rate and the shrinkage
 * denominators computed once, then each hour's rate costs a few
 * multiplications. Borrows m and pop: valid while they are unchanged. */
struct fr_ratesnap {
	double r;        /* overall rate (items/s) */
	double scale;    /* multiplies every hour's rate (e.g. the non-burst share) */
	double floor;
	int flat;        /* the rate is r * scale at every hour */
	double kappa;    /* prior_items */
	double inv_den;  /* 1 / (count + prior_items) */
	/* The prior share of hour h, a q[h - shift] + b q[h - shift2] + flat,
	 * with these taken from m and pop once (prior_share in ratemodel.c). */
	const double *q;
	double a, b, flat_share;
	const struct fr_ratemodel *m;
	const struct fr_ratepop *pop;
};

void fr_ratemodel_snapshot(const struct fr_ratemodel *m, const struct fr_ratepop *pop,
			   const struct fr_rateparams *rp, double scale, struct fr_ratesnap *out);

/* Rate (items per second) in UTC hour number hour (since the epoch); snap
 * is a struct fr_ratesnap (fits fr_hour_rate_fn of waitindex.h). */
double fr_ratesnap_rate(const void *snap, int64_t hour);

/* Day of the week (Monday = 0) and UTC hour of t. */
void fr_week_clock(double t_s, int *dow, int *hour);

#endif
