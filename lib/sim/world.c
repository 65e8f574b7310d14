/* world.c - synthetic worlds: per-source descriptions drawn from the seed
 * tables, items drawn as a non-homogeneous Poisson process by inverting the
 * cumulative intensity hour by hour, and the CSV files that hold both. */
#include "sim/world.h"

#include "core/err.h"
#include "core/outfile.h"
#include "core/rng.h"
#include "core/strmap.h"
#include "sim/trace.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Seed 001's tables (notes-rss.md). NOTE: keep equal to the notes;
 * test_world checks their sums. */
static const double HOUR_COUNTS[24] = {2764, 1616, 1381, 384,  203,  260,  305,  582,
                                       998,  1882, 2659, 2596, 2204, 1854, 2599, 2647,
                                       2241, 1661, 1863, 1396, 1138, 1343, 2296, 1537};
static const double WEEKDAY_COUNTS[7] = {6191, 6679, 6257, 5811, 5997, 2906, 4568};

#define HOURS_PER_WEEK 168
/* Unix hour 0 (1970-01-01, a Thursday) is hour 72 of its Monday-based week. */
#define EPOCH_HOUR_OF_WEEK 72
#define MAX_DAYS 36600.0 /* keeps time offsets below 2^32 s */
#define MAX_SOURCES 100000000u
#define MAX_EXPECTED_ITEMS 1e9 /* what a world may ask for in memory */
#define FORMAT_LINE "# freshet world 1"
#define LINE_MAX_LEN 16384

enum { STREAM_DESC = 1, STREAM_ITEMS = 2 };

/* ---- parameters ---- */

enum ptype { P_U32, P_U64, P_DBL, P_INT };

struct pdesc {
	const char *key;
	enum ptype type;
	size_t off;
};

#define PD(name, type)                                                                             \
	{                                                                                          \
#name, type, offsetof(struct fr_world_params, name)                                \
	}
/* NOTE: keep in the order of struct fr_world_params; world.csv lists them in
 * this order and the loader wants each exactly once. */
static const struct pdesc PARAMS[] = {
    PD(n_sources, P_U32),         PD(days, P_DBL),
    PD(start_s, P_DBL),           PD(seed, P_U64),
    PD(mean_rate_per_day, P_DBL), PD(rate_sigma, P_DBL),
    PD(tz_frac, P_DBL),           PD(tz_max_h, P_DBL),
    PD(sharp_median, P_DBL),      PD(sharp_sigma, P_DBL),
    PD(change_frac, P_DBL),       PD(change_sigma, P_DBL),
    PD(late_frac, P_DBL),         PD(stop_frac, P_DBL),
    PD(followup_frac, P_DBL),     PD(followup_mean_s, P_DBL),
    PD(followup_chain, P_INT),    PD(weight_corr, P_DBL),
};
#undef PD
#define N_PARAMS (sizeof(PARAMS) / sizeof(PARAMS[0]))

void
fr_world_defaults(struct fr_world_params *p)
{
	*p = (struct fr_world_params){
	    .n_sources = 4106,
	    .days = 177,
	    .start_s = 1349049600, /* 2012-10-01T00:00:00Z */
	    .seed = 1,
	    .mean_rate_per_day = 1.52,
	    .rate_sigma = 1.3,
	    .tz_frac = 0.25,
	    .tz_max_h = 9,
	    .sharp_median = 1,
	    .sharp_sigma = 0.5,
	    .change_frac = 0.30,
	    .change_sigma = 1.0,
	    .late_frac = 0.05,
	    .stop_frac = 0.05,
	    .followup_frac = 0.15,
	    .followup_mean_s = 900,
	    .followup_chain = 0,
	    .weight_corr = 0.1,
	};
}

int
fr_world_preset(struct fr_world_params *p, const char *shape)
{
	struct fr_world_params q;

	fr_world_defaults(&q);
	if (!strcmp(shape, "default")) {
		/* as is */
	} else if (!strcmp(shape, "flat")) {
		q.rate_sigma = 0.4;
		q.sharp_median = 0.5;
		q.sharp_sigma = 0.2;
	} else if (!strcmp(shape, "regime")) {
		q.change_frac = 0.70;
		q.change_sigma = 2.0;
		q.late_frac = 0.15;
		q.stop_frac = 0.15;
	} else if (!strcmp(shape, "bursty")) {
		q.followup_frac = 0.40;
		q.followup_chain = 1;
	} else {
		return -1;
	}
	*p = q;
	return 0;
}

static int
in_range(double x, double lo, double hi)
{
	return isfinite(x) && x >= lo && x <= hi;
}

/* Returns NULL when p is valid, else the reason and in *key the parameter
 * it is about (the loader turns that into a line number). */
static const char *
check_params(const struct fr_world_params *p, const char **key)
{
#define BAD(k, why)                                                                                \
	do {                                                                                       \
		*key = k;                                                                          \
		return why;                                                                        \
	} while (0)
	if (p->n_sources < 1 || p->n_sources > MAX_SOURCES)
		BAD("n_sources", "must be in [1, 100000000]");
	if (!(p->days > 0 && p->days <= MAX_DAYS))
		BAD("days", "must be in (0, 36600]");
	if (!in_range(p->start_s, -1e13, 1e13) || p->start_s != floor(p->start_s))
		BAD("start_s", "must be whole Unix seconds");
	if (!(isfinite(p->mean_rate_per_day) && p->mean_rate_per_day > 0))
		BAD("mean_rate_per_day", "must be positive");
	if (!in_range(p->rate_sigma, 0, 5))
		BAD("rate_sigma", "must be in [0, 5]");
	if (!in_range(p->tz_frac, 0, 1))
		BAD("tz_frac", "must be in [0, 1]");
	if (!in_range(p->tz_max_h, 0, 23))
		BAD("tz_max_h", "must be in [0, 23]");
	if (!(isfinite(p->sharp_median) && p->sharp_median > 0 && p->sharp_median <= 20))
		BAD("sharp_median", "must be in (0, 20]");
	if (!in_range(p->sharp_sigma, 0, 3))
		BAD("sharp_sigma", "must be in [0, 3]");
	if (!in_range(p->change_frac, 0, 1))
		BAD("change_frac", "must be in [0, 1]");
	if (!in_range(p->change_sigma, 0, 5))
		BAD("change_sigma", "must be in [0, 5]");
	if (!in_range(p->late_frac, 0, 1))
		BAD("late_frac", "must be in [0, 1]");
	if (!in_range(p->stop_frac, 0, 1))
		BAD("stop_frac", "must be in [0, 1]");
	if (!in_range(p->followup_frac, 0, 0.95))
		BAD("followup_frac", "must be in [0, 0.95]");
	if (!in_range(p->followup_mean_s, 0, 1e9))
		BAD("followup_mean_s", "must be in [0, 1e9]");
	if (p->followup_chain != 0 && p->followup_chain != 1)
		BAD("followup_chain", "must be 0 or 1");
	if (!in_range(p->weight_corr, -1, 1))
		BAD("weight_corr", "must be in [-1, 1]");
	if ((double)p->n_sources * p->days * p->mean_rate_per_day > MAX_EXPECTED_ITEMS)
		BAD("mean_rate_per_day", "asks for more than 1e9 items (n_sources * days * rate)");
#undef BAD
	return NULL;
}

/* ---- descriptions ---- */

static uint64_t
mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* An independent stream per (seed, source, purpose), so that a source's
 * description and items never depend on other sources or on the order in
 * which sources are drawn. */
static void
stream(struct fr_rng *r, uint64_t seed, uint32_t s, unsigned kind)
{
	uint64_t key = ((uint64_t)s << 8 | kind) + 0x9e3779b97f4a7c15ULL;

	fr_rng_seed(r, mix64(seed ^ mix64(key)));
}

static double
whole(double x)
{
	return floor(x + 0.5);
}

/* day[] by UTC hour: the profile at local hour h + tz, raised to sharp,
 * normalised to mean 1. Scaled by the largest count first so the power
 * cannot overflow. */
static void
make_day(const double *hour, double tz, double sharp, double *day)
{
	double mx = 0, sum = 0;
	int shift = (int)tz;

	for (int h = 0; h < 24; h++)
		mx = hour[h] > mx ? hour[h] : mx;
	for (int h = 0; h < 24; h++) {
		int local = ((h + shift) % 24 + 24) % 24;
		day[h] = pow(hour[local] / mx, sharp);
		sum += day[h];
	}
	for (int h = 0; h < 24; h++)
		day[h] = day[h] * 24.0 / sum;
}

static void
describe(const struct fr_world *w, uint32_t s, struct fr_world_source *src)
{
	const struct fr_world_params *p = &w->p;
	double span = w->end_s - p->start_s;
	struct fr_rng r;

	/* Every source makes the same draws in the same order whatever the
	 * shares, so two presets differ only in the sources a share flips. */
	stream(&r, p->seed, s, STREAM_DESC);
	double z_rate = fr_rng_normal(&r);
	double u_tz = fr_rng_uniform(&r), u_tz_by = fr_rng_uniform(&r);
	double z_sharp = fr_rng_normal(&r);
	double u_change = fr_rng_uniform(&r), u_change_at = fr_rng_uniform(&r);
	double z_change = fr_rng_normal(&r);
	double u_late = fr_rng_uniform(&r), u_late_at = fr_rng_uniform(&r);
	double u_stop = fr_rng_uniform(&r), u_stop_at = fr_rng_uniform(&r);
	double z_weight = fr_rng_normal(&r);

	/* Lognormal with the mean of primary items: E[exp(mu + sigma z)] =
	 * exp(mu + sigma^2 / 2). Profiles have mean 1 and leave it alone. */
	double mean = p->mean_rate_per_day * (1 - p->followup_frac);
	/* Late starts and stops each remove about half a span of a share of
	 * sources; make up for them so mean_rate_per_day is what the trace
	 * shows (items / sources / days), as the thesis' 1.52 is. */
	mean /= 1 - p->late_frac / 2 - p->stop_frac / 2;
	double mu = log(mean) - 0.5 * p->rate_sigma * p->rate_sigma;
	src->rate_per_day = exp(mu + p->rate_sigma * z_rate);

	int max_shift = (int)floor(p->tz_max_h);
	src->tz_shift_h = 0;
	if (u_tz < p->tz_frac && max_shift > 0) {
		int k = (int)(u_tz_by * 2 * max_shift);
		if (k >= 2 * max_shift)
			k = 2 * max_shift - 1;
		src->tz_shift_h = k < max_shift ? k - max_shift : k - max_shift + 1;
	}
	src->sharpness = p->sharp_median * exp(p->sharp_sigma * z_sharp);

	/* The change factor has mean 1, so changes do not move the expected
	 * total: most changes are drops, a few are large jumps. */
	src->change_at_s = INFINITY;
	src->change_factor = 1;
	if (u_change < p->change_frac) {
		src->change_at_s = whole(p->start_s + u_change_at * span);
		src->change_factor =
		    exp(p->change_sigma * z_change - 0.5 * p->change_sigma * p->change_sigma);
	}
	src->start_s = p->start_s;
	if (u_late < p->late_frac)
		src->start_s = whole(p->start_s + u_late_at * span);
	src->stop_s = INFINITY;
	if (u_stop < p->stop_frac)
		src->stop_s = whole(src->start_s + u_stop_at * (w->end_s - src->start_s));
	/* Popularity: lognormal (sigma 1), correlated with the rate's normal
	 * draw by weight_corr. */
	src->weight = exp(p->weight_corr * z_rate +
			  sqrt(1 - p->weight_corr * p->weight_corr) * z_weight);
	make_day(w->hour_profile, src->tz_shift_h, src->sharpness, src->day);
}

static void
set_profiles(struct fr_world *w)
{
	double sum = 0;

	memcpy(w->hour_profile, HOUR_COUNTS, sizeof(HOUR_COUNTS));
	for (int d = 0; d < 7; d++)
		sum += WEEKDAY_COUNTS[d];
	for (int d = 0; d < 7; d++)
		w->weekday_profile[d] = WEEKDAY_COUNTS[d] * 7.0 / sum;
}

int
fr_world_generate(struct fr_world *w, const struct fr_world_params *p, char *err, size_t errlen)
{
	const char *key = NULL, *why;

	memset(w, 0, sizeof(*w));
	why = check_params(p, &key);
	if (why)
		return fr_errf(err, errlen, "invalid world: %s %s", key, why);
	w->p = *p;
	w->end_s = p->start_s + p->days * 86400.0;
	set_profiles(w);
	w->src = calloc(p->n_sources, sizeof(*w->src));
	if (!w->src) {
		memset(w, 0, sizeof(*w));
		return fr_errf(err, errlen, "world: out of memory for %u sources", p->n_sources);
	}
	for (uint32_t s = 0; s < p->n_sources; s++)
		describe(w, s, &w->src[s]);
	return 0;
}

void
fr_world_free(struct fr_world *w)
{
	free(w->src);
	memset(w, 0, sizeof(*w));
}

char *
fr_index_name(char prefix, uint32_t k, uint32_t count, unsigned min_width, char *buf, size_t len)
{
	char d[16];
	size_t width = min_width, n = 0, o = 0;
	uint32_t limit = 1;

	for (unsigned i = 0; i < min_width && limit < UINT32_MAX / 10; i++)
		limit *= 10;
	for (uint32_t m = count > 0 ? count - 1 : 0; m >= limit; m /= 10)
		width++;
	do {
		d[n++] = (char)('0' + k % 10);
		k /= 10;
	} while (k);
	if (len == 0)
		return buf;
	if (o + 1 < len)
		buf[o++] = prefix;
	for (size_t i = n; i < width && o + 1 < len; i++)
		buf[o++] = '0';
	while (n && o + 1 < len)
		buf[o++] = d[--n];
	buf[o] = '\0';
	return buf;
}

char *
fr_world_source_name(const struct fr_world *w, uint32_t s, char *buf, size_t len)
{
	return fr_index_name('s', s, w->p.n_sources, 4, buf, len);
}

/* ---- intensity ---- */

static int64_t
hour_of(double t)
{
	return (int64_t)floor(t / 3600.0);
}

static int
hour_of_week(int64_t hr)
{
	int64_t k = (hr + EPOCH_HOUR_OF_WEEK) % HOURS_PER_WEEK;

	return (int)(k < 0 ? k + HOURS_PER_WEEK : k);
}

/* Primary items per second by UTC hour of the week (0 = Monday 00:00 UTC),
 * before the rate change. */
static void
week_rates(const struct fr_world *w, const struct fr_world_source *src, double *wk)
{
	int tz = (int)src->tz_shift_h;
	double base = src->rate_per_day / 86400.0;

	for (int k = 0; k < HOURS_PER_WEEK; k++) {
		int local = ((k + tz) % HOURS_PER_WEEK + HOURS_PER_WEEK) % HOURS_PER_WEEK;
		wk[k] = base * src->day[k % 24] * w->weekday_profile[local / 24];
	}
}

/* The span in which source s publishes. */
static void
active_span(const struct fr_world *w, const struct fr_world_source *src, double *lo, double *hi)
{
	*lo = src->start_s > w->p.start_s ? src->start_s : w->p.start_s;
	*hi = src->stop_s < w->end_s ? src->stop_s : w->end_s;
}

double
fr_world_intensity(const struct fr_world *w, uint32_t s, double t_s)
{
	const struct fr_world_source *src;
	double lo, hi;

	if (s >= w->p.n_sources || !w->src)
		return 0;
	src = &w->src[s];
	active_span(w, src, &lo, &hi);
	if (!(t_s >= lo && t_s < hi))
		return 0;
	int k = hour_of_week(hour_of(t_s));
	int local = ((k + (int)src->tz_shift_h) % HOURS_PER_WEEK + HOURS_PER_WEEK) % HOURS_PER_WEEK;
	double lam =
	    src->rate_per_day / 86400.0 * src->day[k % 24] * w->weekday_profile[local / 24];
	if (t_s >= src->change_at_s)
		lam *= src->change_factor;
	return lam / (1 - w->p.followup_frac);
}

double
fr_world_intensity_cb(const void *world, uint32_t s, double t_s)
{
	return fr_world_intensity(world, s, t_s);
}

double
fr_world_expected(const struct fr_world *w, uint32_t s, double t0_s, double t1_s)
{
	const struct fr_world_source *src;
	double lo, hi, wk[HOURS_PER_WEEK], sum = 0;

	if (s >= w->p.n_sources || !w->src)
		return 0;
	src = &w->src[s];
	active_span(w, src, &lo, &hi);
	if (t0_s > lo)
		lo = t0_s;
	if (t1_s < hi)
		hi = t1_s;
	if (!(lo < hi))
		return 0;
	week_rates(w, src, wk);
	int64_t hr = hour_of(lo);
	int k = hour_of_week(hr);
	double t = lo;
	while (t < hi) {
		double hend = (double)(hr + 1) * 3600.0;
		double seg_end = hend < hi ? hend : hi;
		double f = 1;
		if (t >= src->change_at_s)
			f = src->change_factor;
		else if (src->change_at_s < seg_end)
			seg_end = src->change_at_s;
		sum += wk[k] * f * (seg_end - t);
		t = seg_end;
		if (seg_end == hend) {
			hr++;
			k = k + 1 == HOURS_PER_WEEK ? 0 : k + 1;
		}
	}
	return sum / (1 - w->p.followup_frac);
}

/* ---- items ---- */

struct dbuf {
	double *v;
	size_t n, cap;
};

static int
dbuf_push(struct dbuf *b, double x)
{
	if (b->n == b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 256;
		double *v = realloc(b->v, cap * sizeof(*v));
		if (!v)
			return -1;
		b->v = v;
		b->cap = cap;
	}
	b->v[b->n++] = x;
	return 0;
}

/* Scratch reused from source to source; out_* hold one source's items. */
struct gen {
	struct dbuf prim, fu;
	double *out_t;
	unsigned char *out_f;
	size_t out_n, out_cap;
};

static void
gen_free(struct gen *g)
{
	free(g->prim.v);
	free(g->fu.v);
	free(g->out_t);
	free(g->out_f);
	memset(g, 0, sizeof(*g));
}

/* Follow-ups of an item at exact time parent: a Poisson number with mean q,
 * each an exponential lag later; those at or past hi are dropped. */
static int
add_children(struct gen *g, struct fr_rng *r, double parent, double q, double mean_s, double hi)
{
	uint64_t k = fr_rng_poisson(r, q);

	for (uint64_t i = 0; i < k; i++) {
		double c = parent + fr_rng_exp(r, mean_s);
		if (c < hi && dbuf_push(&g->fu, c) < 0)
			return -1;
	}
	return 0;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Merges the time-ordered primaries with the sorted follow-ups into out_*,
 * floored to whole seconds (order survives flooring). */
static int
merge(struct gen *g)
{
	size_t n = g->prim.n + g->fu.n, i = 0, j = 0;

	if (n > g->out_cap) {
		size_t cap = g->out_cap ? g->out_cap : 256;
		while (cap < n)
			cap *= 2;
		double *t = realloc(g->out_t, cap * sizeof(*t));
		if (!t)
			return -1;
		g->out_t = t;
		unsigned char *f = realloc(g->out_f, cap);
		if (!f)
			return -1;
		g->out_f = f;
		g->out_cap = cap;
	}
	if (g->fu.n > 1)
		qsort(g->fu.v, g->fu.n, sizeof(double), cmp_double);
	for (size_t o = 0; o < n; o++) {
		int take_fu = i == g->prim.n || (j < g->fu.n && g->fu.v[j] < g->prim.v[i]);
		g->out_t[o] = floor(take_fu ? g->fu.v[j++] : g->prim.v[i++]);
		g->out_f[o] = (unsigned char)take_fu;
	}
	g->out_n = n;
	return 0;
}

/* Draws source s into g->out_*. The primary process is inverted segment by
 * segment: a unit exponential "need" is spent against the integral of the
 * intensity, which is constant within a UTC hour up to the rate change. */
static int
gen_source(const struct fr_world *w, uint32_t s, struct gen *g)
{
	const struct fr_world_source *src = &w->src[s];
	double lo, hi, wk[HOURS_PER_WEEK];
	double f = w->p.followup_frac, mean_s = w->p.followup_mean_s;
	/* Follow-ups per item: without chains a share f of all items needs
	 * f / (1 - f) per primary; with chains every item has q = f on average,
	 * so a primary brings q / (1 - q) and the share is again f. */
	double q = w->p.followup_chain ? f : f / (1 - f);
	struct fr_rng r;

	g->prim.n = g->fu.n = g->out_n = 0;
	active_span(w, src, &lo, &hi);
	if (!(lo < hi) || !(src->rate_per_day > 0))
		return 0;
	week_rates(w, src, wk);
	stream(&r, w->p.seed, s, STREAM_ITEMS);

	int64_t hr = hour_of(lo);
	int k = hour_of_week(hr);
	double t = lo, need = fr_rng_exp(&r, 1.0);
	while (t < hi) {
		double hend = (double)(hr + 1) * 3600.0;
		double seg_end = hend < hi ? hend : hi;
		double fac = 1;
		if (t >= src->change_at_s)
			fac = src->change_factor;
		else if (src->change_at_s < seg_end)
			seg_end = src->change_at_s;
		double lam = wk[k] * fac;
		for (;;) {
			double avail = lam * (seg_end - t);
			if (!(need < avail)) {
				need -= avail;
				break;
			}
			t += need / lam;
			need = fr_rng_exp(&r, 1.0);
			if (t >= seg_end) /* rounding; the next pass of the loop ends the segment */
				continue;
			size_t first = g->fu.n;
			if (dbuf_push(&g->prim, t) < 0 || add_children(g, &r, t, q, mean_s, hi) < 0)
				return -1;
			/* The follow-up buffer doubles as the queue of a chain. */
			for (size_t c = first; w->p.followup_chain && c < g->fu.n; c++)
				if (add_children(g, &r, g->fu.v[c], q, mean_s, hi) < 0)
					return -1;
		}
		t = seg_end;
		if (seg_end == hend) {
			hr++;
			k = k + 1 == HOURS_PER_WEEK ? 0 : k + 1;
		}
	}
	return merge(g);
}

int
fr_world_source_items(const struct fr_world *w, uint32_t s, double **times_s,
                      unsigned char **followup, size_t *n, char *err, size_t errlen)
{
	struct gen g = {0};
	double *t = NULL;
	unsigned char *f = NULL;

	if (s >= w->p.n_sources)
		return fr_errf(err, errlen, "world: no source %u (of %u)", s, w->p.n_sources);
	if (gen_source(w, s, &g) < 0)
		goto oom;
	if (g.out_n > 0) {
		t = malloc(g.out_n * sizeof(*t));
		f = followup ? malloc(g.out_n) : NULL;
		if (!t || (followup && !f))
			goto oom;
		memcpy(t, g.out_t, g.out_n * sizeof(*t));
		if (f)
			memcpy(f, g.out_f, g.out_n);
	}
	*times_s = t;
	if (followup)
		*followup = f;
	*n = g.out_n;
	gen_free(&g);
	return 0;
oom:
	free(t);
	free(f);
	gen_free(&g);
	return fr_errf(err, errlen, "world: out of memory drawing source %u", s);
}

/* Every item of the world, grouped by source in index order. */
struct all {
	double *t;
	uint32_t *s;
	size_t n, cap;
};

static int
gen_all(const struct fr_world *w, struct all *a, char *err, size_t errlen)
{
	struct gen g = {0};

	memset(a, 0, sizeof(*a));
	for (uint32_t s = 0; s < w->p.n_sources; s++) {
		if (gen_source(w, s, &g) < 0)
			goto oom;
		if (a->n + g.out_n > a->cap) {
			size_t cap = a->cap ? a->cap : 1 << 16;
			while (cap < a->n + g.out_n)
				cap *= 2;
			double *t = realloc(a->t, cap * sizeof(*t));
			if (!t)
				goto oom;
			a->t = t;
			uint32_t *sv = realloc(a->s, cap * sizeof(*sv));
			if (!sv)
				goto oom;
			a->s = sv;
			a->cap = cap;
		}
		if (g.out_n == 0)
			continue;
		memcpy(a->t + a->n, g.out_t, g.out_n * sizeof(double));
		for (size_t i = 0; i < g.out_n; i++)
			a->s[a->n + i] = s;
		a->n += g.out_n;
	}
	gen_free(&g);
	return 0;
oom:
	gen_free(&g);
	free(a->t);
	free(a->s);
	memset(a, 0, sizeof(*a));
	return fr_errf(err, errlen, "world: out of memory drawing items");
}

/* All source names in one block of fixed-width, NUL-terminated slots. */
static char *
make_names(const struct fr_world *w, size_t *stride)
{
	char buf[32];
	size_t width = strlen(fr_world_source_name(w, 0, buf, sizeof(buf))) + 1;
	char *names = malloc((size_t)w->p.n_sources * width);

	if (!names)
		return NULL;
	for (uint32_t s = 0; s < w->p.n_sources; s++)
		fr_world_source_name(w, s, names + (size_t)s * width, width);
	*stride = width;
	return names;
}

int
fr_world_trace(const struct fr_world *w, struct fr_trace *tr, char *err, size_t errlen)
{
	struct all a;
	size_t stride = 0, n_rows, j;
	char *names = NULL;
	const char **rows = NULL;
	double *times = NULL;
	unsigned char *missing = NULL;
	int rc = -1;

	memset(tr, 0, sizeof(*tr));
	if (gen_all(w, &a, err, errlen) < 0)
		return -1;
	names = make_names(w, &stride);
	missing = calloc(w->p.n_sources, 1);
	/* A source without items still belongs in the trace. fr_trace_from_rows
	 * only knows sources through rows, so such a source gets one stand-in
	 * row here, removed again below. */
	n_rows = a.n;
	for (size_t i = 0, s = 0; missing && s < w->p.n_sources; s++) {
		if (i < a.n && a.s[i] == s) {
			while (i < a.n && a.s[i] == s)
				i++;
		} else {
			missing[s] = 1;
			n_rows++;
		}
	}
	rows = malloc((n_rows ? n_rows : 1) * sizeof(*rows));
	times = malloc((n_rows ? n_rows : 1) * sizeof(*times));
	if (!names || !missing || !rows || !times) {
		fr_errf(err, errlen, "world: out of memory building the trace");
		goto done;
	}
	j = 0;
	for (size_t i = 0, s = 0; s < w->p.n_sources; s++) {
		const char *name = names + s * stride;
		if (missing[s]) {
			rows[j] = name;
			times[j++] = w->p.start_s;
		}
		for (; i < a.n && a.s[i] == s; i++) {
			rows[j] = name;
			times[j++] = a.t[i];
		}
	}
	if (fr_trace_from_rows(tr, n_rows, rows, times, NULL, err, errlen) < 0)
		goto done;
	/* Ids must be the world's indices (rows come in index order and the
	 * zero-padded names sort the same way, so either id rule gives them). */
	if (tr->n_sources != w->p.n_sources) {
		fr_errf(err, errlen, "world: trace has %u sources, world %u", tr->n_sources,
		        w->p.n_sources);
		goto bad;
	}
	for (uint32_t s = 0; s < w->p.n_sources; s++) {
		uint32_t id;
		const char *name = names + (size_t)s * stride;
		if (!fr_strmap_find(tr->sources, name, strlen(name), &id) || id != s) {
			fr_errf(err, errlen, "world: trace gave source %s another id", name);
			goto bad;
		}
		tr->weight[s] = w->src[s].weight;
	}
	/* Drop the stand-in rows, compacting in place. */
	j = 0;
	for (uint32_t s = 0; s < w->p.n_sources; s++) {
		size_t b = tr->first[s], e = tr->first[s + 1];
		tr->first[s] = j;
		if (missing[s])
			continue;
		for (size_t i = b; i < e; i++) {
			tr->item_time_s[j] = tr->item_time_s[i];
			if (tr->item_weight)
				tr->item_weight[j] = tr->item_weight[i];
			j++;
		}
	}
	tr->first[w->p.n_sources] = j;
	tr->n_items = j;
	tr->start_s = tr->end_s = 0;
	for (size_t i = 0; i < j; i++) {
		double t = tr->item_time_s[i];
		if (i == 0 || t < tr->start_s)
			tr->start_s = t;
		if (i == 0 || t > tr->end_s)
			tr->end_s = t;
	}
	rc = 0;
	goto done;
bad:
	fr_trace_free(tr);
	memset(tr, 0, sizeof(*tr));
done:
	free(a.t);
	free(a.s);
	free(names);
	free(missing);
	free(rows);
	free(times);
	return rc;
}

/* ---- writing ---- */

/* LSD radix sort of 64-bit keys, 8 bits a pass, skipping bytes all keys
 * share. tmp has room for n keys. */
static void
radix_sort(uint64_t *k, uint64_t *tmp, size_t n)
{
	uint64_t and_all = ~0ULL, or_all = 0;

	for (size_t i = 0; i < n; i++) {
		and_all &= k[i];
		or_all |= k[i];
	}
	for (int shift = 0; shift < 64; shift += 8) {
		size_t count[256] = {0};
		if (((and_all ^ or_all) >> shift & 0xff) == 0)
			continue;
		for (size_t i = 0; i < n; i++)
			count[k[i] >> shift & 0xff]++;
		size_t pos = 0;
		for (int d = 0; d < 256; d++) {
			size_t c = count[d];
			count[d] = pos;
			pos += c;
		}
		for (size_t i = 0; i < n; i++)
			tmp[count[k[i] >> shift & 0xff]++] = k[i];
		memcpy(k, tmp, n * sizeof(*k));
	}
}

/* Writes the decimal digits of v at p; returns the end. */
static char *
put_i64(char *p, int64_t v)
{
	char d[24];
	int n = 0;
	uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;

	do {
		d[n++] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		*p++ = '-';
	while (n)
		*p++ = d[--n];
	return p;
}

/* A file written under a temporary name in its directory, renamed on
 * commit. */
static int
write_trace(const struct fr_world *w, const char *dir, const struct all *a, const char *names,
            size_t stride, char *err, size_t errlen)
{
	struct fr_outfile o;
	uint64_t *keys = malloc((a->n ? a->n : 1) * sizeof(*keys));
	uint64_t *tmp = malloc((a->n ? a->n : 1) * sizeof(*tmp));
	char buf[1 << 16], *p = buf;
	int64_t t0 = (int64_t)w->p.start_s;

	if (!keys || !tmp) {
		free(keys);
		free(tmp);
		return fr_errf(err, errlen, "%s/trace.csv: out of memory", dir);
	}
	/* (time offset, source) in one key; offsets fit 32 bits (MAX_DAYS). */
	for (size_t i = 0; i < a->n; i++)
		keys[i] = (uint64_t)((int64_t)a->t[i] - t0) << 32 | a->s[i];
	radix_sort(keys, tmp, a->n);
	free(tmp);
	if (fr_outfile_open(&o, dir, "trace.csv", err, errlen) < 0) {
		free(keys);
		return -1;
	}
	fputs("source,time\n", o.f);
	for (size_t i = 0; i < a->n; i++) {
		if (p - buf > (ptrdiff_t)sizeof(buf) - 64) {
			fwrite(buf, 1, (size_t)(p - buf), o.f);
			p = buf;
		}
		const char *name = names + (size_t)(keys[i] & 0xffffffffu) * stride;
		size_t len = strlen(name);
		memcpy(p, name, len);
		p += len;
		*p++ = ',';
		p = put_i64(p, t0 + (int64_t)(keys[i] >> 32));
		*p++ = '\n';
	}
	fwrite(buf, 1, (size_t)(p - buf), o.f);
	free(keys);
	return fr_outfile_commit(&o, err, errlen);
}

static int
write_sources(const struct fr_world *w, const char *dir, const char *names, size_t stride,
              char *err, size_t errlen)
{
	struct fr_outfile o;

	if (fr_outfile_open(&o, dir, "sources.csv", err, errlen) < 0)
		return -1;
	fputs("source,host,group,weight\n", o.f);
	for (uint32_t s = 0; s < w->p.n_sources; s++) {
		const char *name = names + (size_t)s * stride;
		fprintf(o.f, "%s,%s,default,%.17g\n", name, name, w->src[s].weight);
	}
	return fr_outfile_commit(&o, err, errlen);
}

static void
print_param(FILE *f, const struct fr_world_params *p, const struct pdesc *d)
{
	const char *base = (const char *)p + d->off;

	switch (d->type) {
	case P_U32: {
		uint32_t v;
		memcpy(&v, base, sizeof(v));
		fprintf(f, "# %s=%u\n", d->key, v);
		break;
	}
	case P_U64: {
		uint64_t v;
		memcpy(&v, base, sizeof(v));
		fprintf(f, "# %s=%llu\n", d->key, (unsigned long long)v);
		break;
	}
	case P_INT: {
		int v;
		memcpy(&v, base, sizeof(v));
		fprintf(f, "# %s=%d\n", d->key, v);
		break;
	}
	case P_DBL: {
		double v;
		memcpy(&v, base, sizeof(v));
		fprintf(f, "# %s=%.17g\n", d->key, v);
		break;
	}
	}
}

/* NOTE: keep in the order of struct fr_world_source (day[] last). */
static const char SOURCE_HEADER[] =
    "source,rate_per_day,tz_shift_h,sharpness,change_at_s,change_factor,start_s,stop_s,weight,"
    "day00,day01,day02,day03,day04,day05,day06,day07,day08,day09,day10,day11,"
    "day12,day13,day14,day15,day16,day17,day18,day19,day20,day21,day22,day23";
#define SOURCE_SCALARS 8

static const size_t SOURCE_OFF[SOURCE_SCALARS] = {
    offsetof(struct fr_world_source, rate_per_day),  offsetof(struct fr_world_source, tz_shift_h),
    offsetof(struct fr_world_source, sharpness),     offsetof(struct fr_world_source, change_at_s),
    offsetof(struct fr_world_source, change_factor), offsetof(struct fr_world_source, start_s),
    offsetof(struct fr_world_source, stop_s),        offsetof(struct fr_world_source, weight),
};

static int
write_world(const struct fr_world *w, const char *dir, const char *names, size_t stride, char *err,
            size_t errlen)
{
	struct fr_outfile o;

	if (fr_outfile_open(&o, dir, "world.csv", err, errlen) < 0)
		return -1;
	fprintf(o.f, "%s\n", FORMAT_LINE);
	fprintf(o.f,
	        "# Parameters, then one row per source. Times are Unix seconds (inf: never).\n"
	        "# The primary intensity of a source at t is rate_per_day / 86400 * day[UTC hour]\n"
	        "# * weekday_profile[local weekday (UTC + tz_shift_h)] * (t >= change_at_s ?\n"
	        "# change_factor : 1) in [max(start_s, world start), min(stop_s, end_s)); with\n"
	        "# follow-ups the expected rate is that / (1 - followup_frac). Lines\n"
	        "# '# key=value' are parameters; other '#' lines are comments.\n");
	for (size_t i = 0; i < N_PARAMS; i++)
		print_param(o.f, &w->p, &PARAMS[i]);
	fprintf(o.f, "# end_s=%.17g\n# hour_profile=", w->end_s);
	for (int h = 0; h < 24; h++)
		fprintf(o.f, "%s%.17g", h ? " " : "", w->hour_profile[h]);
	fputs("\n# weekday_profile=", o.f);
	for (int d = 0; d < 7; d++)
		fprintf(o.f, "%s%.17g", d ? " " : "", w->weekday_profile[d]);
	fprintf(o.f, "\n%s\n", SOURCE_HEADER);
	for (uint32_t s = 0; s < w->p.n_sources; s++) {
		const struct fr_world_source *src = &w->src[s];
		fputs(names + (size_t)s * stride, o.f);
		for (int i = 0; i < SOURCE_SCALARS; i++) {
			double v;
			memcpy(&v, (const char *)src + SOURCE_OFF[i], sizeof(v));
			fprintf(o.f, ",%.17g", v);
		}
		for (int h = 0; h < 24; h++)
			fprintf(o.f, ",%.17g", src->day[h]);
		fputc('\n', o.f);
	}
	return fr_outfile_commit(&o, err, errlen);
}

int
fr_world_write_count(const struct fr_world *w, const char *dir, size_t *n_items, char *err,
                     size_t errlen)
{
	struct all a;
	size_t stride = 0;
	char *names;
	int rc = -1;

	if (!w->src)
		return fr_errf(err, errlen, "world: nothing to write (no sources)");
	if (fr_mkdirs(dir, err, errlen) < 0)
		return -1;
	names = make_names(w, &stride);
	if (!names)
		return fr_errf(err, errlen, "world: out of memory");
	if (gen_all(w, &a, err, errlen) < 0) {
		free(names);
		return -1;
	}
	/* world.csv last: its presence says the other two are complete. */
	if (write_trace(w, dir, &a, names, stride, err, errlen) == 0 &&
	    write_sources(w, dir, names, stride, err, errlen) == 0 &&
	    write_world(w, dir, names, stride, err, errlen) == 0) {
		rc = 0;
		if (n_items)
			*n_items = a.n;
	}
	free(a.t);
	free(a.s);
	free(names);
	return rc;
}

int
fr_world_write(const struct fr_world *w, const char *dir, char *err, size_t errlen)
{
	return fr_world_write_count(w, dir, NULL, err, errlen);
}

/* ---- loading ---- */

/* Strict numbers: the whole field, no blanks, no NaN. */
static int
parse_double(const char *s, double *out)
{
	char *end;

	if (!*s || *s == ' ' || *s == '\t')
		return -1;
	errno = 0;
	double v = strtod(s, &end);
	if (*end || isnan(v) || (errno == ERANGE && isfinite(v) && v != 0))
		return -1;
	*out = v;
	return 0;
}

static int
parse_u64(const char *s, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		unsigned d = (unsigned)(*s - '0');
		if (v > (max - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

static int
parse_param(struct fr_world_params *p, const struct pdesc *d, const char *val)
{
	char *base = (char *)p + d->off;
	uint64_t u;
	double x;

	switch (d->type) {
	case P_U32:
		if (parse_u64(val, UINT32_MAX, &u) < 0)
			return -1;
		uint32_t v32 = (uint32_t)u;
		memcpy(base, &v32, sizeof(v32));
		return 0;
	case P_U64:
		if (parse_u64(val, UINT64_MAX, &u) < 0)
			return -1;
		memcpy(base, &u, sizeof(u));
		return 0;
	case P_INT:
		if (parse_u64(val, INT_MAX, &u) < 0)
			return -1;
		int vi = (int)u;
		memcpy(base, &vi, sizeof(vi));
		return 0;
	case P_DBL:
		if (parse_double(val, &x) < 0)
			return -1;
		memcpy(base, &x, sizeof(x));
		return 0;
	}
	return -1;
}

/* n numbers separated by single spaces. */
static int
parse_list(char *s, double *v, int n)
{
	for (int i = 0; i < n; i++) {
		char *sp = strchr(s, ' ');
		if ((sp != NULL) != (i < n - 1))
			return -1;
		if (sp)
			*sp = '\0';
		if (parse_double(s, &v[i]) < 0 || !(isfinite(v[i]) && v[i] > 0))
			return -1;
		s = sp ? sp + 1 : s;
	}
	return 0;
}

/* Splits s at commas in place; returns the field count (at most max). */
static int
split(char *s, char **f, int max)
{
	int n = 0;

	f[n++] = s;
	for (; *s; s++) {
		if (*s == ',') {
			if (n == max)
				return max + 1;
			*s = '\0';
			f[n++] = s + 1;
		}
	}
	return n;
}

/* Checks one source row's values; returns the reason or NULL. */
static const char *
check_source(const struct fr_world_source *src)
{
	if (!(isfinite(src->rate_per_day) && src->rate_per_day >= 0))
		return "rate_per_day must be a finite number >= 0";
	if (!in_range(src->tz_shift_h, -23, 23) || src->tz_shift_h != floor(src->tz_shift_h))
		return "tz_shift_h must be whole hours in [-23, 23]";
	if (!(isfinite(src->sharpness) && src->sharpness > 0))
		return "sharpness must be positive";
	if (!(src->change_at_s == INFINITY ||
	      (isfinite(src->change_at_s) && src->change_at_s == floor(src->change_at_s))))
		return "change_at_s must be whole seconds or inf";
	if (!(isfinite(src->change_factor) && src->change_factor > 0))
		return "change_factor must be positive";
	if (!isfinite(src->start_s) || src->start_s != floor(src->start_s))
		return "start_s must be whole seconds";
	if (!(src->stop_s == INFINITY ||
	      (isfinite(src->stop_s) && src->stop_s == floor(src->stop_s) &&
	       src->stop_s >= src->start_s)))
		return "stop_s must be whole seconds >= start_s, or inf";
	if (!(isfinite(src->weight) && src->weight >= 0))
		return "weight must be a finite number >= 0";
	for (int h = 0; h < 24; h++)
		if (!(isfinite(src->day[h]) && src->day[h] >= 0))
			return "day profile values must be finite and >= 0";
	return NULL;
}

/* Reads one line into buf (without its newline). Returns 1 for a line, 0 at
 * end of file, -1 for a line too long. */
static int
read_line(FILE *f, char *buf, size_t cap)
{
	if (!fgets(buf, (int)cap, f))
		return 0;
	size_t n = strlen(buf);
	if (n > 0 && buf[n - 1] == '\n')
		buf[--n] = '\0';
	else if (!feof(f))
		return -1;
	if (n > 0 && buf[n - 1] == '\r')
		buf[--n] = '\0';
	return 1;
}

int
fr_world_load(struct fr_world *w, const char *dir, char *err, size_t errlen)
{
	char path[PATH_MAX], *line = NULL, *fields[64];
	int seen[N_PARAMS] = {0}, seen_end = 0, seen_hour = 0, seen_week = 0;
	long key_line[N_PARAMS] = {0}, lineno = 0, end_line = 0;
	double end_s = 0;
	uint32_t s = 0;
	FILE *f = NULL;
	int r, n = snprintf(path, sizeof(path), "%s/world.csv", dir);

	memset(w, 0, sizeof(*w));
	if (n < 0 || (size_t)n >= sizeof(path))
		return fr_errf(err, errlen, "%s/world.csv: path too long", dir);
	f = fopen(path, "r");
	if (!f)
		return fr_errf(err, errlen, "%s: %s", path, strerror(errno));
	line = malloc(LINE_MAX_LEN);
	if (!line) {
		fr_errf(err, errlen, "%s: out of memory", path);
		goto fail;
	}
#define FAIL(...)                                                                                  \
	do {                                                                                       \
		char why_[1024];                                                                   \
		snprintf(why_, sizeof(why_), __VA_ARGS__);                                         \
		fr_errf(err, errlen, "%s:%ld: %s", path, lineno, why_);                            \
		goto fail;                                                                         \
	} while (0)

	/* Format line, then '# key=value' parameters up to the column header. */
	for (;;) {
		lineno++;
		r = read_line(f, line, LINE_MAX_LEN);
		if (r < 0)
			FAIL("line too long");
		if (r == 0)
			FAIL(lineno == 1 ? "empty file" : "missing the source table");
		if (lineno == 1) {
			if (strcmp(line, FORMAT_LINE) != 0)
				FAIL("not a freshet world file (want '%s')", FORMAT_LINE);
			continue;
		}
		if (line[0] != '#')
			break;
		/* '# key=value' with key in [a-z0-9_]; any other '#' line is a
		 * comment. */
		char *eq = line + 2;
		if (strncmp(line, "# ", 2) != 0)
			continue;
		while ((*eq >= 'a' && *eq <= 'z') || (*eq >= '0' && *eq <= '9') || *eq == '_')
			eq++;
		if (eq == line + 2 || *eq != '=')
			continue;
		*eq = '\0';
		const char *key = line + 2, *val = eq + 1;
		if (!strcmp(key, "end_s")) {
			if (seen_end++ || parse_double(val, &end_s) < 0)
				FAIL("end_s repeated or not a number");
			end_line = lineno;
		} else if (!strcmp(key, "hour_profile")) {
			if (seen_hour++ || parse_list(eq + 1, w->hour_profile, 24) < 0)
				FAIL("hour_profile repeated or not 24 positive numbers");
		} else if (!strcmp(key, "weekday_profile")) {
			if (seen_week++ || parse_list(eq + 1, w->weekday_profile, 7) < 0)
				FAIL("weekday_profile repeated or not 7 positive numbers");
		} else {
			size_t i = 0;
			while (i < N_PARAMS && strcmp(PARAMS[i].key, key) != 0)
				i++;
			if (i == N_PARAMS)
				FAIL("unknown parameter '%s'", key);
			if (seen[i]++)
				FAIL("parameter '%s' repeated", key);
			if (parse_param(&w->p, &PARAMS[i], val) < 0)
				FAIL("parameter '%s': bad value '%s'", key, val);
			key_line[i] = lineno;
		}
	}
	for (size_t i = 0; i < N_PARAMS; i++)
		if (!seen[i])
			FAIL("missing parameter '%s' before the source table", PARAMS[i].key);
	if (!seen_end || !seen_hour || !seen_week)
		FAIL("missing %s before the source table", !seen_end    ? "end_s"
		                                           : !seen_hour ? "hour_profile"
		                                                        : "weekday_profile");
	{
		const char *bad_key = NULL, *why = check_params(&w->p, &bad_key);
		if (why) {
			for (size_t i = 0; i < N_PARAMS; i++)
				if (!strcmp(PARAMS[i].key, bad_key))
					lineno = key_line[i];
			FAIL("%s %s", bad_key, why);
		}
	}
	w->end_s = w->p.start_s + w->p.days * 86400.0;
	if (end_s != w->end_s) {
		lineno = end_line;
		FAIL("end_s is not start_s + days * 86400 (%.17g)", w->end_s);
	}
	if (strcmp(line, SOURCE_HEADER) != 0)
		FAIL("want the column header '%s'", SOURCE_HEADER);
	w->src = calloc(w->p.n_sources, sizeof(*w->src));
	if (!w->src)
		FAIL("out of memory for %u sources", w->p.n_sources);

	for (;;) {
		lineno++;
		r = read_line(f, line, LINE_MAX_LEN);
		if (r < 0)
			FAIL("line too long");
		if (r == 0)
			break;
		if (s == w->p.n_sources)
			FAIL("more source rows than n_sources (%u)", w->p.n_sources);
		int nf = split(line, fields, 64);
		if (nf != 1 + SOURCE_SCALARS + 24)
			FAIL("want %d fields, found %d", 1 + SOURCE_SCALARS + 24, nf);
		char want[32];
		fr_world_source_name(w, s, want, sizeof(want));
		if (strcmp(fields[0], want) != 0)
			FAIL("want source '%s', found '%s'", want, fields[0]);
		struct fr_world_source *src = &w->src[s];
		for (int i = 0; i < SOURCE_SCALARS; i++) {
			double v;
			if (parse_double(fields[1 + i], &v) < 0)
				FAIL("field %d ('%s') is not a number", 2 + i, fields[1 + i]);
			memcpy((char *)src + SOURCE_OFF[i], &v, sizeof(v));
		}
		for (int h = 0; h < 24; h++)
			if (parse_double(fields[1 + SOURCE_SCALARS + h], &src->day[h]) < 0)
				FAIL("field %d ('%s') is not a number", 2 + SOURCE_SCALARS + h,
				     fields[1 + SOURCE_SCALARS + h]);
		const char *why = check_source(src);
		if (why)
			FAIL("%s", why);
		s++;
	}
	if (s != w->p.n_sources)
		FAIL("want %u source rows, found %u", w->p.n_sources, s);
	if (ferror(f)) {
		fr_errf(err, errlen, "%s: read error", path);
		goto fail;
	}
#undef FAIL
	fclose(f);
	free(line);
	return 0;
fail:
	if (f)
		fclose(f);
	free(line);
	fr_world_free(w);
	return -1;
}
