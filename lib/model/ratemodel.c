/* ratemodel.c - decayed counts on two clocks, with shrinkage. The rate in
 * hour h of weekday d is R * H(h) * D(d): R the decayed count over decayed
 * exposure (with the population's rate as a prior of prior_s seconds), H and
 * D the source's shares of items per hour and weekday, each shrunk toward
 * the population's shares with prior_items pseudo-items, scaled to mean 1. */
#include "model/ratemodel.h"

#include "core/err.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void
fr_week_clock(double t_s, int *dow, int *hour)
{
	double days = floor(t_s / 86400.0);
	int64_t d = (int64_t)days;
	/* 1970-01-01 was a Thursday (Monday = 0: Thursday = 3). */
	int64_t w = (d + 3) % 7;
	*dow = (int)(w < 0 ? w + 7 : w);
	*hour = (int)((t_s - days * 86400.0) / 3600.0);
	if (*hour > 23)
		*hour = 23;
}

/* The prior of the shift and sharpness fits: this many source-days, half
 * on no shift and sharpness 1, the rest spread evenly, before the spread
 * across sources is learned. */
#define FIT_PRIOR_DAYS 50.0
/* A source's fit counts in that spread from this many items on. */
#define FIT_MIN_ITEMS 8.0

static const double sharp_exp[FR_N_SHARP] = FR_SHARP;

/* i mod 24 for i in [-24, 47] (an hour of the day less a time shift of
 * -11..12): what ((i % 24) + 24) % 24 gives, without the divisions. */
static inline int
wrap24(int i)
{
	i += i < 0 ? 24 : 0;
	return i >= 24 ? i - 24 : i;
}

/* Below this many source-seconds a cell counts as not watched yet: a
 * count over a vanishing exposure (a decayed or denormal remainder, 1e-312
 * in a saved context) is no rate, and overflowed to infinity, whose share
 * was inf / inf (fuzz_ctx, corpus/ctx/crash-rhythm-nan-later). With counts
 * and exposures within fr_ratepop_check's bounds each term stays below
 * 1e15 * 24e15 / 1 s: finite. */
#define MIN_CELL_EXPOSURE_S 1.0

/* Shares of n cells (hours, weekdays) from their counts and the time each
 * has been watched: each cell's items per second watched, a cell not watched
 * yet at the mean of the others, plus one pseudo-item each, scaled to sum 1. */
static void
exp_shares(const double *cnt, const double *ex, int n, double *out)
{
	double c = 0, e = 0, sum = 0;
	for (int k = 0; k < n; k++) {
		c += cnt[k];
		e += ex[k];
	}
	for (int k = 0; k < n; k++) {
		out[k] = (ex[k] >= MIN_CELL_EXPOSURE_S ? cnt[k] / ex[k] * (e / n) : c / n) + 1.0;
		sum += out[k];
	}
	for (int k = 0; k < n; k++)
		out[k] /= sum;
}

/* A log prior over n values from decayed weights w: a pseudo-weight of a
 * (half on value one, the rest even) plus w. */
static void
fit_prior(const double *w, int n, int one, double a, double *lp)
{
	double sum = a;
	for (int k = 0; k < n; k++)
		sum += w[k];
	for (int k = 0; k < n; k++)
		lp[k] = log((w[k] + (k == one ? 0.5 : 0.5 / (n - 1)) * a) / sum);
}

/* Recomputes the shared shape (hourly shares of the aligned counts, raised
 * to each sharpness) and the fits' priors. */
static void
refresh_prior(struct fr_ratepop *p)
{
	double sh[24];
	exp_shares(p->aligned, p->hour_exp, 24, sh);
	exp_shares(p->day, p->day_exp, 7, p->dshare);
	for (int g = 0; g < FR_N_SHARP; g++) {
		double sum = 0;
		for (int k = 0; k < 24; k++) {
			double q = sh[k];
			p->prior[g][k] = pow(q, sharp_exp[g]);
			sum += p->prior[g][k];
		}
		for (int k = 0; k < 24; k++) {
			p->prior[g][k] /= sum;
			p->logprior[g][k] = log(p->prior[g][k]);
		}
	}
	fit_prior(p->shift_w, 24, 11, FIT_PRIOR_DAYS * 86400.0, p->lp_shift);
	fit_prior(p->sharp_w, FR_N_SHARP, FR_SHARP_ONE, FIT_PRIOR_DAYS * 86400.0, p->lp_sharp);
	p->since_refresh = 0;
}

void
fr_ratepop_init(struct fr_ratepop *p, double now_s, double tau_s)
{
	memset(p, 0, sizeof(*p));
	p->at_s = now_s;
	p->tau_s = tau_s;
	refresh_prior(p);
}

/* Each of the n values of v, named name, within [lo, hi] (and finite). */
static int
check_range(const double *v, int n, const char *name, double lo, double hi, char *err,
            size_t errlen)
{
	for (int k = 0; k < n; k++)
		if (!(v[k] >= lo && v[k] <= hi)) /* NaN fails too */
			return n > 1 ? fr_errf(err, errlen, "pop.%s[%d] = %g is outside [%g, %g]",
			                       name, k, v[k], lo, hi)
			             : fr_errf(err, errlen, "pop.%s = %g is outside [%g, %g]", name,
			                       v[k], lo, hi);
	return 0;
}

/* n shares named name: positive, summing to 1; with their logarithms lg
 * (NULL: none kept) equal to log of each. */
static int
check_shares(const double *v, const double *lg, int n, const char *name, char *err, size_t errlen)
{
	double sum = 0;
	if (check_range(v, n, name, 1e-300, 1, err, errlen) < 0)
		return -1;
	for (int k = 0; k < n; k++) {
		sum += v[k];
		if (lg && !(fabs(lg[k] - log(v[k])) <= 1e-6))
			return fr_errf(err, errlen, "pop.log%s[%d] = %g is not the log of %g", name,
			               k, lg[k], v[k]);
	}
	if (!(fabs(sum - 1) <= 1e-6))
		return fr_errf(err, errlen, "pop.%s sums to %.9g, not 1", name, sum);
	return 0;
}

#define POP_MAX_COUNT 1e15
#define POP_MAX_TIME_S 1e11
/* Items per second: the bound of prior_rate, and of the rate the counts
 * give. */
#define POP_MAX_RATE 1e6

int
fr_ratepop_check(const struct fr_ratepop *p, char *err, size_t errlen)
{
	const double M = POP_MAX_COUNT;
	char row[32];

	if (check_range(p->aligned, 24, "aligned", 0, M, err, errlen) < 0 ||
	    check_range(&p->since_refresh, 1, "since_refresh", 0, M, err, errlen) < 0 ||
	    check_range(p->day, 7, "day", 0, M, err, errlen) < 0 ||
	    check_range(&p->items, 1, "items", 0, M, err, errlen) < 0 ||
	    check_range(&p->exposure_s, 1, "exposure_s", 0, M, err, errlen) < 0 ||
	    check_range(&p->at_s, 1, "at_s", 0, POP_MAX_TIME_S, err, errlen) < 0 ||
	    check_range(&p->tau_s, 1, "tau_s", 1, 1e12, err, errlen) < 0 ||
	    check_range(&p->prior_rate, 1, "prior_rate", 0, POP_MAX_RATE, err, errlen) < 0 ||
	    check_range(p->shift_w, 24, "shift_w", 0, M, err, errlen) < 0 ||
	    check_range(p->sharp_w, FR_N_SHARP, "sharp_w", 0, M, err, errlen) < 0 ||
	    check_range(p->lp_shift, 24, "lp_shift", -1e6, 0, err, errlen) < 0 ||
	    check_range(p->lp_sharp, FR_N_SHARP, "lp_sharp", -1e6, 0, err, errlen) < 0 ||
	    check_range(p->hour_exp, 24, "hour_exp", 0, M, err, errlen) < 0 ||
	    check_range(p->day_exp, 7, "day_exp", 0, M, err, errlen) < 0 ||
	    check_shares(p->dshare, NULL, 7, "dshare", err, errlen) < 0)
		return -1;
	for (int g = 0; g < FR_N_SHARP; g++) {
		snprintf(row, sizeof(row), "prior[%d]", g);
		if (check_shares(p->prior[g], p->logprior[g], 24, row, err, errlen) < 0)
			return -1;
	}
	return 0;
}

void
fr_rateparams_prepare(struct fr_rateparams *rp)
{
	rp->change_alpha = 0.5 * erfc(rp->change_z / sqrt(2.0));
}

void
fr_ratemodel_init(struct fr_ratemodel *m, double now_s)
{
	memset(m, 0, sizeof(*m));
	m->at_s = now_s;
	m->since_s = now_s;
	m->sharp = FR_SHARP_ONE;
	m->w1 = 255;
}

/* Decayed exposure over [since, at] with decay time tau. */
static double
exposure(double since_s, double at_s, double tau_s)
{
	double d = at_s - since_s;
	return d > 0 ? tau_s * (1 - exp(-d / tau_s)) : 0;
}

/* NOTE: a power of two (the slot is the top bits of a hash). */
#define CACHE_BITS 9
#define CACHE_N (1 << CACHE_BITS)

struct fr_ratecache {
	struct {
		double d, es, ef; /* exposures of the slow and fast clocks over d */
	} expo[CACHE_N];
	struct {
		double dt;
		float e, ep, ef; /* decay over dt: slow, profile and fast clocks */
	} decay[CACHE_N];
};

struct fr_ratecache *
fr_ratecache_new(void)
{
	struct fr_ratecache *c = malloc(sizeof(*c));
	if (!c)
		return NULL;
	for (int i = 0; i < CACHE_N; i++) {
		c->expo[i].d = NAN; /* equal to no difference */
		c->decay[i].dt = NAN;
	}
	return c;
}

static unsigned
cache_slot(double x)
{
	uint64_t b;
	memcpy(&b, &x, sizeof(b));
	return (unsigned)((b * 0x9E3779B97F4A7C15u) >> (64 - CACHE_BITS));
}

/* The slow (tau_s) and fast clocks' exposures of a source watched from
 * since to at: exposure() of each, through the memo. */
static void
exposures(double since_s, double at_s, const struct fr_rateparams *rp, double *es, double *ef)
{
	struct fr_ratecache *c = rp->cache;
	double d = at_s - since_s;
	if (c && d > 0) {
		unsigned k = cache_slot(d);
		if (c->expo[k].d != d) {
			c->expo[k].d = d;
			c->expo[k].es = exposure(since_s, at_s, rp->tau_s);
			c->expo[k].ef = exposure(since_s, at_s, rp->fast_tau_s);
		}
		*es = c->expo[k].es;
		*ef = c->expo[k].ef;
		return;
	}
	*es = exposure(since_s, at_s, rp->tau_s);
	*ef = exposure(since_s, at_s, rp->fast_tau_s);
}

static void
decay_to(struct fr_ratemodel *m, const struct fr_rateparams *rp, double now_s)
{
	double dt = now_s - m->at_s;
	if (!(dt > 0))
		return;
	float e, ep, ef;
	struct fr_ratecache *c = rp->cache;
	unsigned k = c ? cache_slot(dt) : 0;
	if (c && c->decay[k].dt == dt) {
		e = c->decay[k].e;
		ep = c->decay[k].ep;
		ef = c->decay[k].ef;
	} else {
		e = (float)exp(-dt / rp->tau_s);
		ep = (float)exp(-dt / rp->profile_tau_s);
		ef = (float)exp(-dt / rp->fast_tau_s);
		if (c) {
			c->decay[k].dt = dt;
			c->decay[k].e = e;
			c->decay[k].ep = ep;
			c->decay[k].ef = ef;
		}
	}
	for (int h = 0; h < 24; h++)
		m->hour[h] *= ep;
	for (int d = 0; d < 7; d++)
		m->day[d] *= ep;
	m->pcount *= ep;
	m->count *= e;
	m->fast *= ef;
	m->at_s = now_s;
}

static void
pop_decay_to(struct fr_ratepop *p, double now_s)
{
	double dt = now_s - p->at_s;
	if (!(dt > 0))
		return;
	double e = exp(-dt / p->tau_s);
	for (int h = 0; h < 24; h++)
		p->aligned[h] *= e;
	for (int d = 0; d < 7; d++) {
		p->day[d] *= e;
		p->day_exp[d] *= e;
	}
	for (int k = 0; k < 24; k++) {
		p->shift_w[k] *= e;
		p->hour_exp[k] *= e;
	}
	for (int g = 0; g < FR_N_SHARP; g++)
		p->sharp_w[g] *= e;
	p->items *= e;
	p->exposure_s *= e;
	p->at_s = now_s;
}

static void
add_item(struct fr_ratemodel *m, struct fr_ratepop *pop, double t_s, double w)
{
	int d, h;
	fr_week_clock(t_s, &d, &h);
	m->hour[h] += (float)w;
	m->day[d] += (float)w;
	m->count += (float)w;
	m->pcount += (float)w;
	m->fast += (float)w;
	pop->aligned[wrap24(h - m->shift)] += w;
	pop->day[d] += w;
	pop->items += w;
	pop->since_refresh += w;
}

static double
pop_rate(const struct fr_ratepop *pop)
{
	if (pop->prior_rate > 0)
		return pop->prior_rate;
	/* Under a second watched (a saved context's remainder) is no rate:
	 * items over it would reach infinity, and inf - inf downstream. */
	if (!(pop->exposure_s >= 1.0))
		return 1.0 / 86400.0;
	double r = pop->items / pop->exposure_s;
	return r < POP_MAX_RATE ? r : POP_MAX_RATE;
}

/* The slow clock's rate (prior included), given its exposure e (exposure()
 * on tau_s: one exp, computed once by the callers that need it too). */
static double
slow_rate(const struct fr_ratemodel *m, const struct fr_ratepop *pop,
	  const struct fr_rateparams *rp, double e)
{
	return (m->count + pop_rate(pop) * rp->prior_s) / (e + rp->prior_s);
}

/* Both clocks' estimates blended by their expected errors: the slow one is
 * precise but lags when the rate moves (its bias, estimated from how far the
 * two disagree beyond noise), the fast one follows but is noisy. A heavy
 * source thus tracks its rate week by week while a light one keeps its long
 * memory. */
double
fr_ratemodel_mean_rate(const struct fr_ratemodel *m, const struct fr_ratepop *pop,
		       const struct fr_rateparams *rp)
{
	double es, ef;
	exposures(m->since_s, m->at_s, rp, &es, &ef);
	double rs = slow_rate(m, pop, rp, es);
	double r = rs;
	if (ef > 0 && es > ef) {
		double pf = rp->prior_s * rp->fast_tau_s / rp->tau_s;
		double rf = (m->fast + rs * pf) / (ef + pf);
		double base = rs > rp->floor_rate ? rs : rp->floor_rate;
		double vs = base / (es + rp->prior_s), vf = base / (ef + pf);
		double d = rf - rs, bias2 = d * d - vf - vs;
		if (bias2 < 0)
			bias2 = 0;
		double wf = (vs + bias2) / (vs + bias2 + vf);
		r = wf * rf + (1 - wf) * rs;
	}
	return r > rp->floor_rate ? r : rp->floor_rate;
}

/* The prior share of UTC hour h for a source: the shared shape, shifted by
 * the source's time shift and raised to its sharpness. NOTE: keep in sync
 * with fr_ratemodel_snapshot and fr_ratesnap_rate, which compute the same
 * terms once per snapshot (test_model checks they agree). */
static double
prior_share(const struct fr_ratemodel *m, const struct fr_ratepop *pop, int h)
{
	const double *q = pop->prior[m->sharp];
	/* w1 is at least 1/24 of 255 once fitted; 0 is a state saved before
	 * the mixture (its bytes were padding): the fitted shift alone. */
	double a = m->w1 ? m->w1 * (1 / 255.0) : 1, b = m->w1 ? m->w2 * (1 / 255.0) : 0;
	return a * q[wrap24(h - m->shift)] + b * q[wrap24(h - m->shift2)] +
	       (1 - a - b) * (1 / 24.0);
}

/* The log posterior (up to a constant) of each shift (index shift + 11) at
 * the source's sharpness: its hourly counts as draws from the shape so
 * shifted, plus the shifts' prior. */
static void
shift_ll(const struct fr_ratemodel *m, const struct fr_ratepop *pop, double ll[24])
{
	/* The shape twice over, reversed: shift sh (s = sh + 11) reads hour h
	 * at rq[24 - h + s], the shape's hour h - sh, without a modulo. The
	 * 24 sums run side by side (one pass over the hours, a vector of
	 * shifts at each), each over the hours in order as one at a time
	 * would: the same figures. */
	const double *lp = pop->logprior[m->sharp];
	double rq[48], x[24];
	for (int i = 0; i < 48; i++)
		rq[i] = lp[wrap24(35 - i)];
	for (int s = 0; s < 24; s++)
		x[s] = 0;
	for (int h = 0; h < 24; h++) {
		double v = m->hour[h];
		const double *q = rq + 24 - h;
		for (int s = 0; s < 24; s++)
			x[s] += v * q[s];
	}
	for (int s = 0; s < 24; s++)
		ll[s] = x[s] + pop->lp_shift[s];
}

/* From the shifts' log posterior: the fitted shift's weight, the next
 * likeliest one and its weight; the rest of the posterior is spread flat
 * (a source with few items borrows a profile that hedges its time zone). */
static void
set_mixture(struct fr_ratemodel *m, const double ll[24])
{
	double p[24], best = -INFINITY, sum = 0;
	int i1 = m->shift + 11, i2 = i1 == 0 ? 1 : 0;

	for (int k = 0; k < 24; k++)
		best = ll[k] > best ? ll[k] : best;
	for (int k = 0; k < 24; k++) {
		p[k] = exp(ll[k] - best);
		sum += p[k];
		if (k != i1 && p[k] > p[i2])
			i2 = k;
	}
	m->shift2 = (int8_t)(i2 - 11);
	m->w1 = (uint8_t)lround(p[i1] / sum * 255);
	m->w2 = (uint8_t)lround(p[i2] / sum * 255);
	if (m->w1 < 1) /* 0 would read as an old state (prior_share) */
		m->w1 = 1;
	if (m->w1 + m->w2 > 255)
		m->w2 = (uint8_t)(255 - m->w1);
}

/* Picks the shift, then the sharpness, under which the source's hourly
 * counts are most likely as draws from the shared shape (each with the
 * prior the spread across sources gives), then the posterior mixture over
 * the shift. Below 4 items the fit stays; the mixture follows the counts. */
static void
fit_profile(struct fr_ratemodel *m, const struct fr_ratepop *pop)
{
	double ll[24];

	shift_ll(m, pop, ll);
	if (m->pcount >= 4) {
		int arg = m->shift;
		for (int k = 0; k < 24; k++)
			if (ll[k] > ll[arg + 11])
				arg = k - 11;
		m->shift = (int8_t)arg;
		double best = -INFINITY;
		int g0 = m->sharp;
		arg = g0;
		/* Each sharpness's sum over the hours in order, the 13 side by
		 * side (as in shift_ll). */
		double xs[FR_N_SHARP];
		int j = wrap24(-m->shift);
		for (int g = 0; g < FR_N_SHARP; g++)
			xs[g] = pop->lp_sharp[g];
		for (int h = 0; h < 24; h++, j = j == 23 ? 0 : j + 1) {
			double v = m->hour[h];
			for (int g = 0; g < FR_N_SHARP; g++)
				xs[g] += v * pop->logprior[g][j];
		}
		for (int g = 0; g < FR_N_SHARP; g++) {
			double x = xs[g];
			if (x > best) {
				best = x;
				arg = g;
			}
		}
		m->sharp = (uint8_t)arg;
		if (arg != g0)
			shift_ll(m, pop, ll);
	}
	set_mixture(m, ll);
}

/* P(X <= k - 1) into *below and P(X <= k) into *upto for X ~ Poisson(mu);
 * a normal approximation past mu = 200. One pass for both: the same sums,
 * in the same order, as two separate ones would make (the second is the
 * first plus one term). */
static void
poisson_cdf2(long k, double mu, double *below, double *upto)
{
	if (mu > 200) {
		*below = k - 1 < 0 ? 0 : 0.5 * erfc(-((double)(k - 1) + 0.5 - mu) / sqrt(2 * mu));
		*upto = k < 0 ? 0 : 0.5 * erfc(-((double)k + 0.5 - mu) / sqrt(2 * mu));
		return;
	}
	if (k < 0) {
		*below = *upto = 0;
		return;
	}
	double term = exp(-mu), sum = term;
	long i;
	for (i = 1; i <= k - 1 && i < 10000; i++) {
		term *= mu / (double)i;
		sum += term;
	}
	*below = k - 1 < 0 ? 0 : sum < 1 ? sum : 1;
	if (i <= k && i < 10000) { /* i == k: its term */
		term *= mu / (double)i;
		sum += term;
	}
	*upto = sum < 1 ? sum : 1;
}

/* Credits the source's watched window [a, e) to the population's time
 * watched per aligned hour (by the source's shift, as its items are) and per
 * weekday: so a share compares items with the time the same sources were
 * watched. Past a week the rest is spread evenly. */
static void
watch(const struct fr_ratemodel *m, struct fr_ratepop *pop, double a, double e)
{
	if (e - a > 7 * 86400.0) {
		double rest = e - a - 7 * 86400.0;
		for (int k = 0; k < 24; k++)
			pop->hour_exp[k] += rest / 24;
		for (int d = 0; d < 7; d++)
			pop->day_exp[d] += rest / 7;
		a = e - 7 * 86400.0;
	}
	if (!(a < e))
		return;
	int dw, hr;
	fr_week_clock(a, &dw, &hr);
	int k = wrap24(hr - m->shift);
	for (double nb = (floor(a / 3600.0) + 1) * 3600.0;; nb += 3600.0) {
		double x = (nb < e ? nb : e) - a;
		pop->hour_exp[k] += x;
		pop->day_exp[dw] += x;
		if (nb >= e)
			break;
		a = nb;
		k = k == 23 ? 0 : k + 1;
		if (++hr == 24) {
			hr = 0;
			dw = dw == 6 ? 0 : dw + 1;
		}
	}
}

int
fr_ratemodel_observe(struct fr_ratemodel *m, struct fr_ratepop *pop,
		     const struct fr_rateparams *rp, double prev_fetch_s, double now_s,
		     const double *pub_s, unsigned n)
{
	int changed = 0;

	double watched = prev_fetch_s > m->at_s ? prev_fetch_s : m->at_s; /* from */
	pop_decay_to(pop, now_s);
	watch(m, pop, watched, now_s);
	if (now_s > m->at_s)
		pop->exposure_s += now_s - watched;
	decay_to(m, rp, now_s);
	for (unsigned i = 0; i < n; i++) {
		if (!isnan(pub_s[i])) {
			add_item(m, pop, pub_s[i], 1.0);
			continue;
		}
		/* Interval-censored: something appeared in (prev, now]; spread
		 * it over the hours of that interval, at most a week of them. */
		double from = prev_fetch_s, span = now_s - prev_fetch_s;
		if (!(span > 0)) {
			add_item(m, pop, now_s, 1.0);
			continue;
		}
		if (span > 7 * 86400.0) {
			from = now_s - 7 * 86400.0;
			span = 7 * 86400.0;
		}
		for (double t = from; t < now_s;) {
			double end = (floor(t / 3600.0) + 1) * 3600.0;
			if (end > now_s)
				end = now_s;
			add_item(m, pop, (t + end) / 2, (end - t) / span);
			t = end;
		}
	}

	if (pop->since_refresh > 4096)
		refresh_prior(pop);
	/* A source with no items yet takes the prior's mixture once. */
	if (n > 0 || (m->pcount == 0 && m->w2 == 0 && m->shift2 == 0))
		fit_profile(m, pop);
	/* Sources with a few items tell the spread of shifts and sharpnesses,
	 * each by the time since its previous fetch (so each source counts
	 * for the time it is watched, however often it is fetched). */
	if (m->pcount >= FIT_MIN_ITEMS && now_s > prev_fetch_s) {
		pop->shift_w[m->shift + 11] += now_s - prev_fetch_s;
		pop->sharp_w[m->sharp] += now_s - prev_fetch_s;
	}

	/* Change detection on the fast clock: is its count unlikely under the
	 * current rate (prior included) for the same fast-decayed exposure?
	 * Poisson tails, not a z-score, so that two items from a source
	 * believed asleep already count as a start. */
	double ef, es;
	exposures(m->since_s, m->at_s, rp, &es, &ef);
	if (ef > 0 && es > 2 * ef) {
		double expect = slow_rate(m, pop, rp, es) * ef;
		double alpha = rp->change_alpha > 0 ? rp->change_alpha : 0.5 * erfc(rp->change_z / sqrt(2.0));
		/* The decayed count is not a whole number: test a rise with
		 * its floor (P(X >= floor) is the larger, so the cautious
		 * side) and a fall with its floor too (a count that has
		 * decayed below 1 is no item in the window). */
		long k = (long)floor(m->fast);
		double below, upto;
		poisson_cdf2(k, expect, &below, &upto);
		if (below > 1 - alpha || upto < alpha) {
			/* The level moves to the fast clock's; the shape stays. */
			m->count = (float)(m->fast / ef * es);
			changed = 1;
		}
	}
	return changed;
}

void
fr_ratemodel_profile(const struct fr_ratemodel *m, const struct fr_ratepop *pop,
		     const struct fr_rateparams *rp, double out[24])
{
	for (int h = 0; h < 24; h++) {
		double q = prior_share(m, pop, h);
		out[h] = 24 * (m->hour[h] + rp->prior_items * q) / (m->pcount + rp->prior_items);
	}
}

void
fr_ratemodel_snapshot(const struct fr_ratemodel *m, const struct fr_ratepop *pop,
		      const struct fr_rateparams *rp, double scale, struct fr_ratesnap *out)
{
	out->r = fr_ratemodel_mean_rate(m, pop, rp);
	out->scale = scale;
	out->floor = rp->floor_rate;
	out->flat = rp->flat;
	out->kappa = rp->prior_items;
	out->inv_den = 1.0 / (m->pcount + rp->prior_items);
	/* prior_share's terms, as it computes them */
	out->q = pop->prior[m->sharp];
	out->a = m->w1 ? m->w1 * (1 / 255.0) : 1;
	out->b = m->w1 ? m->w2 * (1 / 255.0) : 0;
	out->flat_share = (1 - out->a - out->b) * (1 / 24.0);
	out->m = m;
	out->pop = pop;
}

double
fr_ratesnap_rate(const void *snap, int64_t hour)
{
	const struct fr_ratesnap *s = snap;
	if (s->flat) {
		double r = s->r * s->scale;
		return r > s->floor ? r : s->floor;
	}
	int64_t day = hour >= 0 ? hour / 24 : (hour - 23) / 24;
	int h = (int)(hour - day * 24), d = (int)((day + 3) % 7);
	if (d < 0)
		d += 7;
	/* prior_share(s->m, s->pop, h) from the snapshot's terms */
	double qh = s->a * s->q[wrap24(h - s->m->shift)] + s->b * s->q[wrap24(h - s->m->shift2)] +
	            s->flat_share;
	double qd = s->pop->dshare[d];
	double H = 24 * (s->m->hour[h] + s->kappa * qh) * s->inv_den;
	double D = 7 * (s->m->day[d] + s->kappa * qd) * s->inv_den;
	double r = s->r * H * D * s->scale;
	return r > s->floor ? r : s->floor;
}
