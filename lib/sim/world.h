/* world.h - synthetic worlds shaped like the air-balloon thesis' data set:
 * many sources with heavy-tailed rates, a daily and weekly rhythm, rate
 * changes, late starts, stops and follow-up bursts. A world is described by a
 * few parameters per source, from which both its trace and its true
 * intensity (for the oracle policy) are derived deterministically. */
#ifndef FR_SIM_WORLD_H
#define FR_SIM_WORLD_H

#include <stddef.h>
#include <stdint.h>

struct fr_trace;

/* Shape of a world. fr_world_defaults fills the seed-calibrated defaults;
 * fr_world_preset the benchmark shapes. */
struct fr_world_params {
	uint32_t n_sources;       /* 4106 */
	double days;              /* 177 */
	double start_s;           /* 2012-10-01T00:00:00Z = 1349049600; whole seconds */
	uint64_t seed;            /* 1 */
	double mean_rate_per_day; /* mean items per source per day, follow-ups included: 1.52 */
	double rate_sigma;        /* sigma of the lognormal rate spread: 1.3 */
	double tz_frac;           /* share of sources whose day profile is shifted: 0.25 */
	double tz_max_h;          /* largest shift, whole hours either way: 9 */
	double sharp_median;      /* median of the profile exponent: 1 (below 1 flattens) */
	double sharp_sigma;       /* sigma of the log of the profile exponent: 0.5 */
	double change_frac;       /* share of sources that change rate once: 0.30 */
	double change_sigma;      /* sigma of the log of the change factor: 1.0 */
	double late_frac;         /* share that start late: 0.05 */
	double stop_frac;         /* share that stop: 0.05 */
	double followup_frac;     /* share of all items that are follow-ups: 0.15 */
	double followup_mean_s;   /* mean follow-up lag: 900 */
	int followup_chain;       /* 1: follow-ups have follow-ups of their own: 0 */
	double weight_corr;       /* correlation of log popularity with log rate: 0.1 (the
	                             * thesis' 3,000 most popular pages held 73% of items,
	                             * about their share of pages) */
};

/* One source's description; the primary intensity at time t is
 * rate_per_day / 86400 * day[UTC hour of t] * week(weekday of t + tz_shift_h)
 *   * (t >= change_at_s ? change_factor : 1), zero outside [start_s, stop_s)
 * and outside the world's [start_s, end_s). day[] is the seed profile taken
 * at local hour (UTC hour + tz_shift_h) mod 24, raised to sharpness and
 * normalised to mean 1; week() is the weekday profile (normalised to mean 1)
 * of the source's local day. Shifts are whole hours, so the intensity is
 * constant within each UTC hour except at change_at_s, start_s and stop_s.
 * Each item then brings follow-ups (see fr_world_params) so that the expected
 * total rate is the above divided by (1 - followup_frac).
 * All times are whole Unix seconds (or +inf). */
struct fr_world_source {
	double rate_per_day;  /* primary items per day before profiles */
	double tz_shift_h;    /* UTC offset of the source, whole hours */
	double sharpness;     /* exponent applied to the hourly profile */
	double change_at_s;   /* time of the rate change, or +inf */
	double change_factor; /* multiplier after change_at_s (lognormal, mean 1) */
	double start_s;       /* first instant the source publishes */
	double stop_s;        /* first instant it no longer does (or +inf) */
	double weight;        /* popularity, for buzzwise's K heaviest: rate * lognormal noise */
	double day[24];       /* derived: normalised shifted, sharpened day profile, by UTC hour */
};

struct fr_world {
	struct fr_world_params p;
	double end_s;                /* start_s + days * 86400 */
	double hour_profile[24];     /* seed 001's hourly table, as counts */
	double weekday_profile[7];   /* seed 001's weekday table (Mon..Sun), normalised to mean 1 */
	struct fr_world_source *src; /* [p.n_sources], owned by the world */
};

void fr_world_defaults(struct fr_world_params *p);

/* Fills p with the defaults changed to a named shape: "default"; "flat"
 * (rate_sigma 0.4, flatter and more alike day profiles); "regime" (70% change
 * rate with change_sigma 2, 15% start late, 15% stop); "bursty" (40%
 * follow-ups, in chains). Returns 0, or -1 for an unknown name (p untouched). */
int fr_world_preset(struct fr_world_params *p, const char *shape);

/* Draws the per-source descriptions. Each source's description depends only
 * on the seed, its index and p (not on n_sources), so a smaller world is a
 * prefix of a larger one. Returns 0, or -1 with err set for invalid
 * parameters or out-of-memory (then *w is left zeroed). Free with
 * fr_world_free. */
int fr_world_generate(struct fr_world *w, const struct fr_world_params *p, char *err,
                      size_t errlen);

/* Draws the items of source s: a non-homogeneous Poisson process of primary
 * items plus follow-ups, all in [max(world start, start_s), min(world end,
 * stop_s)), floored to whole seconds. Depends only on the seed, s and the
 * description, never on other sources. Sets *times_s to n ascending times
 * and, when followup is not NULL, *followup to n flags (1 = follow-up); both
 * malloc'd (NULL when n is 0), caller frees with free(). Returns 0, or -1 with
 * err set (nothing is set then). */
int fr_world_source_items(const struct fr_world *w, uint32_t s, double **times_s,
                          unsigned char **followup, size_t *n, char *err, size_t errlen);

/* Draws the items of the world (deterministic for the world's seed) into a
 * trace whose sources are named "s0000".."s4105" (wider when there are more
 * than 10,000), ids equal to the world's indices, each its own host, in group
 * "default", weighted by popularity. Returns 0 or -1 with err set (then *tr
 * is left empty). Free with fr_trace_free. */
int fr_world_trace(const struct fr_world *w, struct fr_trace *tr, char *err, size_t errlen);

/* Writes DIR/trace.csv (source,time; integer Unix seconds; sorted by time,
 * then source), DIR/sources.csv (source,host,group,weight; in index order, so
 * fr_trace_load with it gives every source its world index as id, as
 * fr_world_intensity wants) and DIR/world.csv
 * (the parameters and every source's description, from which fr_world_load
 * rebuilds the world exactly). Creates DIR if needed. Each file is written
 * under a temporary name and renamed, so a failure never leaves a half file.
 * Returns 0 or -1 with err naming the file. */
int fr_world_write(const struct fr_world *w, const char *dir, char *err, size_t errlen);

/* As fr_world_write; also sets *n_items (when not NULL) to the items written. */
int fr_world_write_count(const struct fr_world *w, const char *dir, size_t *n_items, char *err,
                         size_t errlen);

/* Reads DIR/world.csv into *w. Returns 0, or -1 with err set to
 * "PATH:LINE: reason" (or "PATH: reason") and *w left zeroed. */
int fr_world_load(struct fr_world *w, const char *dir, char *err, size_t errlen);

/* Expected items per second of source s at time t (follow-ups included, as
 * their long-run average). */
double fr_world_intensity(const struct fr_world *w, uint32_t s, double t_s);

/* fr_world_intensity with the world untyped (world is a const struct
 * fr_world *): the shape of the true-intensity callback policies take
 * (fr_policy_env's intensity, with the world as intensity_arg). */
double fr_world_intensity_cb(const void *world, uint32_t s, double t_s);

/* Expected items of source s in [t0_s, t1_s): the exact integral of
 * fr_world_intensity. */
double fr_world_expected(const struct fr_world *w, uint32_t s, double t0_s, double t1_s);

/* prefix + k in decimal, zero-padded to min_width digits or to the width of
 * count - 1 if wider, so that the names of 0..count-1 sort by index (byte
 * order). Writes into buf (len bytes, NUL-terminated); returns buf. */
char *fr_index_name(char prefix, uint32_t k, uint32_t count, unsigned min_width, char *buf,
		    size_t len);
/* Name of source s ("s0042") into buf; returns buf. len >= 16 always fits. */
char *fr_world_source_name(const struct fr_world *w, uint32_t s, char *buf, size_t len);

/* Frees what the world owns and zeroes it; safe on a zeroed world. */
void fr_world_free(struct fr_world *w);

#endif
