/* airballoon.c - the "air balloon" policy of seed 000 (Zagreb, 2013), with the
 * digest's corrections: additive heating, the nearer hour gets the larger
 * share, exponential cooling to a floor, and urgency = accumulated activity
 * since the last fetch. Parameters: inertia (hours), floor, tz (hours added
 * to UTC to get the clock the buckets follow). */
#include "sched/policy.h"
#include "sched/policy/airballoon.h"

#include "core/err.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Cooling factors exp(-dt / inertia) by the exact dt, direct-mapped, for
 * the curve at an instant other than the one being evaluated (a due time
 * from an earlier accumulation, the rhythm): the gaps repeat. */
#define AB_COOL_BITS 10
#define AB_COOL_CACHE (1 << AB_COOL_BITS)
/* The shared reference moves a day at a time (less for an inertia under 40
 * hours, so that a day's factor cannot underflow). */
#define AB_STEP_S 86400.0

struct ab_cool_entry {
	double dt_s; /* NaN: empty */
	double e;
};

/* Hour of day and position within the hour of recent instants (bucket
 * clock), direct-mapped: the evaluations of a batch share their instant, and
 * most accumulations start at one of the last few. With them, for the span
 * an accumulation from there last asked for, the weights of its two buckets
 * when it stays within the hour (the common case). */
#define AB_CLOCK_BITS 6
#define AB_CLOCK_CACHE (1 << AB_CLOCK_BITS)

struct ab_clock_entry {
	double t_s; /* NaN: empty */
	double frac;
	double span_s; /* NaN: no weights yet */
	double w0, w1; /* area = w0 a[hh] + w1 a[hh + 1] over span_s, if one */
	int hh;
	int one;       /* span_s stays within hour hh */
};

struct ab_ctx {
	double inertia_h;
	double floor;
	double tz_s;
	/* The shared reference (see shared_factor): grid points grid0_s +
	 * k step_s, and the last instant asked, its grid point and factor. */
	double grid0_s, step_s;
	double memo_t_s, memo_ref_s, memo_e;
	struct ab_clock_entry *last_span; /* the entry span_cached returned last */
	int span_run;                     /* >= 0: try last_span first (span_cached) */
	struct ab_clock_entry *last_clock; /* the same for clock_cached */
	int clock_run;
	struct ab_cool_entry cool[AB_COOL_CACHE];
	struct ab_clock_entry clock[AB_CLOCK_CACHE];
};

/* 24 * 8 + 32 = 224 bytes per source. */
struct ab_state {
	double a[24];
	double cooled_s;   /* buckets are cooled up to here */
	double acc;        /* accumulated activity since the last fetch ... */
	double acc_s;      /* ... up to here */
	double last_s;     /* last fetch */
};

/* Multiplies every bucket by e, never below floor (written as a select so
 * that it vectorises). */
static void
cool_by(double a[24], double e, double floor)
{
	for (int i = 0; i < 24; i++) {
		double v = a[i] * e;
		a[i] = v < floor ? floor : v;
	}
}

void
fr_ab_cool(double a[24], double dt_h, double inertia_h, double floor)
{
	if (!(dt_h > 0))
		return;
	cool_by(a, exp(-dt_h / inertia_h), floor);
}

/* Hour of day (0..23) and position within the hour (0..1) of t. */
static void
clock_of(double t_s, int *hh, double *frac)
{
	double h = floor(t_s / 3600.0);
	int64_t hod = (int64_t)h % 24;

	*hh = (int)(hod < 0 ? hod + 24 : hod);
	*frac = (t_s - h * 3600.0) / 3600.0;
}

/* The cache entry of instant t_s, filled. */
static inline struct ab_clock_entry *
clock_entry(struct ab_ctx *c, double t_s)
{
	uint64_t bits;
	memcpy(&bits, &t_s, sizeof(bits));
	bits ^= bits >> 29;
	bits *= UINT64_C(0x9e3779b97f4a7c15);
	struct ab_clock_entry *ce = &c->clock[bits >> (64 - AB_CLOCK_BITS)];
	if (ce->t_s != t_s) {
		ce->t_s = t_s;
		ce->span_s = NAN;
		clock_of(t_s, &ce->hh, &ce->frac);
	}
	return ce;
}

/* clock_of through the context's cache: the same values, without the
 * divisions on the way to the first bucket. The due times computed after a
 * batch's fetches all start at its instant: the entry returned last is
 * tried first, while that keeps paying (as in span_cached). */
static inline void
clock_cached(struct ab_ctx *c, double t_s, int *hh, double *frac)
{
	const struct ab_clock_entry *ce = c->last_clock;

	if (c->clock_run >= 0 && ce->t_s == t_s) {
		c->clock_run += c->clock_run < 64;
	} else {
		if (c->clock_run >= 0)
			c->clock_run = c->clock_run >= 8 ? c->clock_run - 8 : -256;
		else
			c->clock_run++;
		ce = c->last_clock = clock_entry(c, t_s);
	}

	*hh = ce->hh;
	*frac = ce->frac;
}

/* The entry of from_s with the weights of a span of span_s seconds from
 * there: the trapezoid from frac to f1 within the hour, (v0 + (v1 - v0)
 * (frac + f1) / 2) (f1 - frac), written as w0 v0 + w1 v1. */
static inline const struct ab_clock_entry *
span_cached(struct ab_ctx *c, double from_s, double span_s)
{
	struct ab_clock_entry *ce = c->last_span;

	/* A scan's accumulations all start where the last one did: then the
	 * entry is at hand without hashing. Tried only while that keeps
	 * paying: elsewhere (the heap path) it hits half the time, and the
	 * mispredicted test cost more than the hash. */
	if (c->span_run >= 0) {
		if (ce->t_s == from_s && ce->span_s == span_s) {
			c->span_run += c->span_run < 64;
			return ce;
		}
		c->span_run = c->span_run >= 8 ? c->span_run - 8 : -256; /* rest a while */
	} else
		c->span_run++;
	ce = clock_entry(c, from_s);
	c->last_span = ce;

	if (ce->span_s != span_s) {
		double f1 = ce->frac + span_s / 3600.0, mid = (ce->frac + f1) / 2;
		ce->span_s = span_s;
		ce->one = f1 <= 1 && span_s < 86400.0 * (1 - 1e-12);
		ce->w0 = (1 - mid) * (f1 - ce->frac);
		ce->w1 = mid * (f1 - ce->frac);
	}
	return ce;
}

void
fr_ab_heat(double a[24], double created_s, double now_s, double inertia_h)
{
	int hh;
	double frac, age_h = (now_s - created_s) / 3600.0;

	if (age_h < 0)
		age_h = 0;
	double e = exp(-age_h / inertia_h);
	clock_of(created_s, &hh, &frac);
	a[hh] += e * (1 - frac);
	a[(hh + 1) % 24] += e * frac;
}

/* Bucket h of a, cooled by e and held at the floor fl: the buckets as they
 * are at an instant when a holds them at an earlier one (cooling commutes
 * with the floor: max(fl, max(fl, x e1) e2) = max(fl, x e1 e2)). */
static inline double
bucket(const double a[24], int h, double e, double fl)
{
	double v = a[h] * e;
	return v < fl ? fl : v;
}

/* fr_ab_area on the buckets a cooled by e to the floor fl, over span_s
 * seconds from the instant at hour hh, frac into it. */
static double
area_from(const double a[24], double e, double fl, int hh, double frac, double span_s)
{
	double area = 0;

	if (!(span_s > 0))
		return 0;
	/* Whole days first: a day's area is the sum of the buckets (and the
	 * clock is where it was). Most spans are shorter than a day by far,
	 * which saves the division. */
	if (span_s >= 86400.0 * (1 - 1e-12)) {
		double days = floor(span_s / 86400.0), day = 0;
		for (int i = 0; i < 24; i++)
			day += bucket(a, i, e, fl);
		area += days * day;
		span_s -= days * 86400.0;
	}
	/* Then hour segments: from frac to f1 within hour hh (rem: the hours
	 * left, one division for all of them). */
	double v0 = bucket(a, hh, e, fl), rem = span_s / 3600.0;
	while (rem > 0) {
		double f1 = frac + rem;
		if (f1 > 1)
			f1 = 1;
		int next = hh == 23 ? 0 : hh + 1;
		double v1 = bucket(a, next, e, fl);
		area += (v0 + (v1 - v0) * (frac + f1) / 2) * (f1 - frac);
		if (f1 < 1)
			break;
		rem -= 1 - frac;
		hh = next;
		v0 = v1;
		frac = 0;
	}
	return area;
}

double
fr_ab_area(const double a[24], double from_s, double to_s)
{
	int hh;
	double frac;

	if (!(to_s > from_s))
		return 0;
	clock_of(from_s, &hh, &frac);
	return area_from(a, 1.0, -INFINITY, hh, frac, to_s - from_s);
}

/* Walks hour segments from *t (hour *hh, frac into it) until *need is met,
 * at most max of them. Returns 1 and sets *at when met; else 0, with *t,
 * *hh and *need advanced past the segments walked. */
static inline int
walk(const double a[24], double e, double fl, double *t, int *hh, double frac, double *need,
     int max, double *at)
{
	double va = bucket(a, *hh, e, fl);
	/* The first segment's area from frac to the end of the hour, w0 va +
	 * w1 vb (the later ones start at 0: (va + vb) / 2). */
	double len = 1 - frac, w0 = len * len / 2, w1 = len * (1 + frac) / 2;

	for (int n = 0; n < max; n++) {
		int next = *hh == 23 ? 0 : *hh + 1;
		double vb = bucket(a, next, e, fl);
		double seg = w0 * va + w1 * vb;
		if (seg >= *need) {
			double slope = vb - va; /* per hour */
			double v0 = va + slope * frac;
			/* v0 x + slope x^2 / 2 = need, smallest x >= 0, in the
			 * form without the difference of near equals (and without
			 * a case for a flat hour). */
			double disc = v0 * v0 + 2 * slope * *need;
			double x = 2 * *need / (v0 + sqrt(disc > 0 ? disc : 0));
			if (x < 0)
				x = 0;
			if (x > len)
				x = len;
			*at = *t + x * 3600.0;
			return 1;
		}
		*need -= seg;
		*t += len * 3600.0;
		*hh = next;
		va = vb;
		frac = 0;
		len = 1;
		w0 = w1 = 0.5;
	}
	return 0;
}

/* fr_ab_solve from from_s, at hour hh, frac into it. Most solves end within
 * an hour or two (half in the first): walk the hours first, and only past a
 * day's worth skip whole days by the day's area, the sum of the buckets
 * (which needed a sum of 24 at every solve when it came first). */
static double
solve_from(const double a[24], double e, double fl, int hh, double frac, double from_s,
	   double need)
{
	double t = from_s, at;

	if (!(need > 0))
		return from_s;
	if (walk(a, e, fl, &t, &hh, frac, &need, 24, &at))
		return at;
	double day = 0;
	for (int i = 0; i < 24; i++)
		day += bucket(a, i, e, fl);
	if (!(day > 0))
		return INFINITY;
	if (need > day) {
		/* Skip whole days, keeping part of one to walk so the remainder
		 * stays > 0. */
		double days = floor(need / day);
		if (days * day >= need)
			days -= 1;
		need -= days * day;
		t += days * 86400.0;
	}
	/* t is on an hour boundary: a day and one more segment at most. */
	if (walk(a, e, fl, &t, &hh, 0, &need, 26, &at))
		return at;
	return t;
}

double
fr_ab_solve(const double a[24], double from_s, double need)
{
	int hh;
	double frac;

	clock_of(from_s, &hh, &frac);
	return solve_from(a, 1.0, -INFINITY, hh, frac, from_s, need);
}

static int
ab_create(void **ctx, struct fr_params *params, const struct fr_policy_env *env, char *err,
	  size_t errlen)
{
	double inertia_h, floor_, tz_h;

	if (fr_params_double(params, "inertia", 960, 1e-3, 1e9, &inertia_h, err, errlen) < 0 ||
	    fr_params_double(params, "floor", 0.01, 1e-9, 1e9, &floor_, err, errlen) < 0 ||
	    fr_params_double(params, "tz", 0, -24, 24, &tz_h, err, errlen) < 0)
		return -1;
	struct ab_ctx *p = malloc(sizeof(*p));
	if (!p)
		return fr_errf(err, errlen, "out of memory");
	p->inertia_h = inertia_h;
	p->floor = floor_;
	p->tz_s = tz_h * 3600.0;
	p->grid0_s = env->start_s;
	p->step_s = inertia_h * 40 * 3600.0 < AB_STEP_S ? inertia_h * 40 * 3600.0 : AB_STEP_S;
	p->memo_t_s = NAN;
	for (int i = 0; i < AB_COOL_CACHE; i++)
		p->cool[i].dt_s = NAN;
	for (int i = 0; i < AB_CLOCK_CACHE; i++)
		p->clock[i].t_s = p->clock[i].span_s = NAN;
	p->last_span = &p->clock[0];
	p->span_run = 0;
	p->last_clock = &p->clock[0];
	p->clock_run = 0;
	*ctx = p;
	return 0;
}

static void
ab_destroy(void *ctx)
{
	free(ctx);
}

static size_t
ab_state_size(const void *ctx)
{
	(void)ctx;
	return sizeof(struct ab_state);
}

static void
ab_init(void *ctx, void *st, uint32_t s, double now_s)
{
	struct ab_state *b = st;
	(void)ctx;
	(void)s;
	for (int i = 0; i < 24; i++)
		b->a[i] = 1.0;
	b->cooled_s = now_s;
	b->acc = 0;
	b->acc_s = now_s;
	b->last_s = now_s;
}

/* exp(-(now - cooled) / inertia) from the cache: the same double. */
static inline double
cool_factor(struct ab_ctx *c, const struct ab_state *b, double now_s)
{
	if (!(now_s > b->cooled_s))
		return 1.0;
	double dt_s = now_s - b->cooled_s;
	uint64_t bits;
	memcpy(&bits, &dt_s, sizeof(bits));
	bits ^= bits >> 29;
	bits *= UINT64_C(0x9e3779b97f4a7c15);
	struct ab_cool_entry *ce = &c->cool[bits >> (64 - AB_COOL_BITS)];
	if (ce->dt_s != dt_s) {
		ce->dt_s = dt_s;
		ce->e = exp(-(dt_s / 3600.0) / c->inertia_h);
	}
	return ce->e;
}

/* The cooling of all sources is expressed from one shared reference: the
 * grid point at or before the instant asked. A source's buckets are kept as
 * of the reference (cooled_s): then the factor from there to now, which an
 * evaluation needs, is the same for every source evaluated at that instant
 * (a batch's), computed once. Returns it and sets *ref_s. */
static inline double
shared_factor(struct ab_ctx *c, double t_s, double *ref_s)
{
	if (t_s != c->memo_t_s) {
		double ref = c->grid0_s + floor((t_s - c->grid0_s) / c->step_s) * c->step_s;
		c->memo_t_s = t_s;
		c->memo_ref_s = ref <= t_s ? ref : ref - c->step_s;
		c->memo_e = exp(-((t_s - c->memo_ref_s) / 3600.0) / c->inertia_h);
	}
	*ref_s = c->memo_ref_s;
	return c->memo_e;
}

/* Expresses the buckets as of ref_s instead of cooled_s, keeping what they
 * are at every later instant, max(floor, a exp(-(t - cooled) / inertia)).
 * Forward, this is the seed's cooling, held at the floor (ref_s comes after
 * the last heating: see ab_fetched). Backward (a new source, a restored
 * state) the buckets only grow, and the floor applied at evaluation keeps
 * them exact. */
static void
rebase(struct ab_ctx *c, struct ab_state *b, double ref_s)
{
	double dt_h = (ref_s - b->cooled_s) / 3600.0;

	if (dt_h > 0)
		cool_by(b->a, exp(-dt_h / c->inertia_h), c->floor);
	else {
		double f = exp(-dt_h / c->inertia_h);
		for (int i = 0; i < 24; i++)
			b->a[i] *= f;
	}
	b->cooled_s = ref_s;
}

/* As the seed's code: cool first, then add the area since the previous
 * accumulation under the cooled curve. The buckets stay as of the shared
 * reference, and the two or three an area reads are cooled on the way by
 * the factor every source shares at this instant (cooling all 24 at every
 * evaluation was a third of a scan, and a factor per source a cache lookup
 * each). */
static double
ab_urgency(void *ctx, void *st, double now_s)
{
	struct ab_ctx *c = ctx;
	struct ab_state *b = st;
	double ref, e = shared_factor(c, now_s, &ref);

	if (b->cooled_s != ref)
		rebase(c, b, ref);
	if (now_s > b->acc_s) {
		double span = now_s - b->acc_s;
		const struct ab_clock_entry *ce = span_cached(c, b->acc_s + c->tz_s, span);
		if (ce->one)
			b->acc += ce->w0 * bucket(b->a, ce->hh, e, c->floor) +
				  ce->w1 * bucket(b->a, ce->hh == 23 ? 0 : ce->hh + 1, e, c->floor);
		else
			b->acc += area_from(b->a, e, c->floor, ce->hh, ce->frac, span);
		b->acc_s = now_s;
	}
	return b->acc;
}

static double
ab_due(void *ctx, void *st, double now_s, double theta)
{
	struct ab_ctx *c = ctx;
	struct ab_state *b = st;
	double frac, e;
	int hh;
	(void)now_s;

	/* Reached just now (select=scan keys with theta 0 after a fetch). */
	if (b->acc == theta)
		return b->acc_s;
	/* The curve as it was at the last accumulation (mostly the instant
	 * just evaluated, whose factor is at hand). */
	if (b->acc_s == c->memo_t_s && b->cooled_s == c->memo_ref_s)
		e = c->memo_e;
	else
		e = cool_factor(c, b, b->acc_s);
	clock_cached(c, b->acc_s + c->tz_s, &hh, &frac);
	if (b->acc >= theta) {
		/* Already past: step back along the current activity level so
		 * that sources further past theta come first. */
		double v0 = bucket(b->a, hh, e, c->floor);
		double v = v0 + (bucket(b->a, (hh + 1) % 24, e, c->floor) - v0) * frac;
		return b->acc_s - (b->acc - theta) / v * 3600.0;
	}
	return solve_from(b->a, e, c->floor, hh, frac, b->acc_s + c->tz_s, theta - b->acc) -
	       c->tz_s;
}

/* As fr_ab_heat(a cooled to now, ...) on buckets kept as of the reference,
 * whose factor to now is e: the item's shares are scaled up by 1 / e, and a
 * bucket below the floor now is first lifted to it (the seed heats the
 * cooled bucket, which the floor holds). */
static void
heat(struct ab_ctx *c, struct ab_state *b, double created_s, double now_s, double e)
{
	int hh;
	double frac, age_h = (now_s - created_s) / 3600.0, lift = c->floor / e;

	if (age_h < 0)
		age_h = 0;
	double w = exp(-age_h / c->inertia_h) / e;
	clock_of(created_s, &hh, &frac);
	double *x = &b->a[hh], *y = &b->a[(hh + 1) % 24];
	*x = (*x < lift ? lift : *x) + w * (1 - frac);
	*y = (*y < lift ? lift : *y) + w * frac;
}

static void
ab_fetched(void *ctx, void *st, const struct fr_fetch *f)
{
	struct ab_ctx *c = ctx;
	struct ab_state *b = st;

	/* A failed fetch saw nothing: the accumulation goes on. */
	if (f->status == FR_FETCH_ERROR)
		return;
	if (f->status == FR_FETCH_OK)
		for (size_t i = 0; i < f->n_items; i++)
			if (!isnan(f->published_s[i])) {
				double ref, e = shared_factor(c, f->now_s, &ref);
				if (b->cooled_s != ref)
					rebase(c, b, ref);
				heat(c, b, f->published_s[i] + c->tz_s, f->now_s + c->tz_s, e);
			}
	b->acc = 0;
	b->acc_s = f->now_s;
	b->last_s = f->now_s;
}

static void
ab_rhythm(void *ctx, const void *st, double out[24])
{
	struct ab_ctx *c = ctx;
	const struct ab_state *b = st;
	/* Buckets follow the clock shifted by tz; report them by UTC hour, as
	 * they are at the last accumulation. */
	int shift = (int)lround(c->tz_s / 3600.0);

	double e = cool_factor(c, b, b->acc_s);

	for (int h = 0; h < 24; h++)
		out[h] = bucket(b->a, ((h + shift) % 24 + 24) % 24, e, c->floor);
}

const struct fr_policy_ops fr_policy_airballoon = {
	.name = "air-balloon",
	.help = "seed 000's learned hourly activity: inertia=960 (hours), floor=0.01, tz=0 (hours)",
	.kind = FR_POLICY_INDEX,
	.theta0 = 1.0,
	.create = ab_create,
	.destroy = ab_destroy,
	.state_size = ab_state_size,
	.init = ab_init,
	.urgency = ab_urgency,
	.due = ab_due,
	.fetched = ab_fetched,
	.rhythm = ab_rhythm,
};
