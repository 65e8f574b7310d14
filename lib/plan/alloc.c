/* alloc.c - CHO and OPT_POLITE: one Lagrange multiplier mu found by a
 * safeguarded Newton iteration in log mu, each page's frequency by inverting
 * its KKT condition through a small table and one Newton polish. */
#include "plan/alloc.h"

#include "core/err.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/*
 * The KKT condition of page i: (w_i / lambda_i) g(r_i) = mu with r_i =
 * lambda_i / f_i and g(r) = 1 - (1 + r) e^{-r}, since dA/df = g(r) / lambda.
 * With y = mu lambda_i / w_i (< 1, else f_i = 0), g(r) = y is the same as
 *
 *     h(r) = r - ln(1 + r) = u,   u = -ln(1 - y),
 *
 * which is better conditioned at both ends (no cancellation in 1 - y near 1,
 * and log1p keeps small y exact). r(u) behaves like sqrt(2u) near 0 and like
 * u + ln(1 + u) for large u, so q(s) = r / s with s = sqrt(u) is smooth and
 * bounded in slope on all of [0, S_MAX]: a uniform table of q with linear
 * interpolation is good to ~1e-7 relative, and one Newton step on h brings
 * that to ~1e-14. A double y < 1 has u <= 53 ln 2 = 36.7, so S_MAX = 6.2
 * covers every representable y.
 */
#define TAB_N 4096
#define S_MAX 6.2
#define SMALL_U 1e-24 /* below, r = v (1 + v/3), v = sqrt(2u), is exact enough */
#define SERIES_R 0.01 /* below, h(r) by its series (r - log1p(r) cancels) */
#define REL_TOL 1e-12 /* |sum f - budget| accepted, relative to the budget */
#define MAX_ITER 400

struct rtab {
	double inv_h;
	double q[TAB_N + 2]; /* q(k h), k = 0..TAB_N+1 */
};

/* h(r) = r - ln(1 + r) = r^2/2 - r^3/3 + r^4/4 - ... Below SERIES_R = 0.01
 * the series to r^9 is exact to 1e-16 (and r - log1p(r) would lose 1e-14);
 * above it, the log costs less than a long Horner chain. Estrin's scheme
 * keeps the dependency chain short. */
static inline double
hfun(double r)
{
	if (r < SERIES_R) {
		double r2 = r * r;
		double p01 = 1.0 / 2 - r * (1.0 / 3), p23 = 1.0 / 4 - r * (1.0 / 5);
		double p45 = 1.0 / 6 - r * (1.0 / 7), p67 = 1.0 / 8 - r * (1.0 / 9);
		double r4 = r2 * r2;

		return r2 * ((p01 + r2 * p23) + r4 * (p45 + r2 * p67));
	}
	return r - log1p(r);
}

/* r >= 0 with h(r) = u, to full precision (table building only). h is
 * convex and increasing, so Newton from any r0 > 0 converges: an undershoot
 * becomes an overshoot, then it descends monotonically. */
static double
hinv_exact(double u, double r0)
{
	double r = r0 > 0 ? r0 : sqrt(2 * u), last = INFINITY;

	if (u <= 0)
		return 0;
	for (int i = 0; i < 100; i++) {
		double step = (hfun(r) - u) * (1 + r) / r;
		double next = r - step;

		if (!(next > 0))
			next = r / 2;
		/* Done when the step is at rounding level or stops shrinking
		 * (Newton's steps shrink quadratically until rounding). */
		if (fabs(step) <= 2 * DBL_EPSILON * r || (fabs(step) >= last && i > 3)) {
			r = next;
			break;
		}
		last = fabs(step);
		r = next;
	}
	return r;
}

static void
rtab_build(struct rtab *t)
{
	double h = S_MAX / TAB_N;

	t->inv_h = 1 / h;
	t->q[0] = M_SQRT2;
	for (int k = 1; k <= 2; k++)
		t->q[k] = hinv_exact(k * h * k * h, M_SQRT2 * k * h) / (k * h);
	for (int k = 3; k <= TAB_N + 1; k++) {
		double s = k * h, u = s * s;
		/* Quadratic extrapolation of q from the last three entries is good
		 * to ~h^3 q''' ~ 1e-9; one Newton step on h takes that below
		 * rounding (measured: 1.3e-15 worst against a full solve). */
		double r = s * (3 * t->q[k - 1] - 3 * t->q[k - 2] + t->q[k - 3]);

		r -= (hfun(r) - u) * (1 + r) / r;
		t->q[k] = r / s;
	}
}

/* Frequency of a page with a = lambda / w and change rate lam at multiplier
 * mu; *df = d f / d mu. */
static inline double
page_f(const struct rtab *t, double a, double lam, double mu, double *df)
{
	double y = mu * a, u, s, x, r, q;
	size_t k;

	if (!(y < 1)) {
		*df = 0;
		return 0;
	}
	u = -log1p(-y);
	s = sqrt(u);
	if (u < SMALL_U) {
		double v = M_SQRT2 * s;

		if (v == 0) { /* y underflowed: as good as unbounded */
			*df = -INFINITY;
			return INFINITY;
		}
		r = v * (1 + v / 3);
	} else {
		x = s * t->inv_h;
		k = (size_t)x;
		if (k >= TAB_N)
			k = TAB_N; /* extrapolate from the last segment; Newton fixes it */
		q = t->q[k] + (x - (double)k) * (t->q[k + 1] - t->q[k]);
		r = s * q;
		r -= (hfun(r) - u) * (1 + r) / r;
	}
	/* f = lam / r; df/dmu = -(lam / r^2) dr/dy a, dr/dy = (1 + r) / (r (1 - y)). */
	double ir = 1 / r, f = lam * ir;
	*df = -f * ir * ir * (1 + r) * a / (1 - y);
	return f;
}

/* ---- the multiplier ---- */

typedef void (*eval_fn)(void *ctx, double mu, double *total, double *dtotal);

/* Finds mu with T(mu) = budget, T continuous and non-increasing, given
 * T(e^*t_hi) <= budget and, when *t_lo is finite, T(e^*t_lo) > budget.
 * Newton on ln T against t = ln mu (T behaves like mu^{-1/2} while few pages
 * are left out, so this is nearly linear), with bisection whenever Newton
 * leaves the bracket or stalls (as in Numerical Recipes' rtsafe). Returns 0
 * with *t_lo = *t_hi = ln mu when |T - budget| <= REL_TOL budget, or 1 with
 * the bracket (*t_lo, *t_hi) narrowed to adjacent doubles: T jumps there,
 * because a page's f falls to 0 like 1/ln(1/(1 - mu lambda/w)), which no
 * double mu resolves (see fix_marginal). */
static int
solve_mu(eval_fn ev, void *ctx, double budget, double *t_lo_io, double *t_hi_io, double t)
{
	double dx = INFINITY, dxold = INFINITY, t_lo = *t_lo_io, t_hi = *t_hi_io;

	for (int it = 0; it < MAX_ITER; it++) {
		double mu = exp(t), T, dT, tn = NAN, next;

		ev(ctx, mu, &T, &dT);
		if (fabs(T - budget) <= REL_TOL * budget) {
			*t_lo_io = *t_hi_io = t;
			return 0;
		}
		if (T > budget)
			t_lo = t;
		else
			t_hi = t;
		if (T > 0 && isfinite(T) && dT < 0 && isfinite(dT))
			tn = t - (log(T) - log(budget)) / (mu * dT / T);
		if (t_lo == -INFINITY) {
			next = (isfinite(tn) && tn < t_hi) ? tn : t_hi - 2;
		} else {
			if (t_hi - t_lo <= 4 * DBL_EPSILON * fmax(1, fabs(t_hi)))
				break;
			if (isfinite(tn) && tn > t_lo && tn < t_hi && fabs(tn - t) <= 0.5 * dxold)
				next = tn;
			else
				next = 0.5 * (t_lo + t_hi);
			if (next <= t_lo || next >= t_hi)
				break; /* no double strictly inside: collapsed */
			dxold = dx;
			dx = fabs(next - t);
		}
		t = next;
	}
	*t_lo_io = t_lo;
	*t_hi_io = t_hi;
	return 1;
}

/* A run of pages: a[i] = lambda_i / w_i (INFINITY when w_i = 0), lam[i]. */
struct run {
	const struct rtab *tab;
	const double *a, *lam;
	size_t n;
	double *f; /* written by run_eval when not NULL */
};

static void
run_eval(void *ctx, double mu, double *total, double *dtotal)
{
	const struct run *c = ctx;
	double T = 0, dT = 0, df;

	if (c->f) {
		for (size_t i = 0; i < c->n; i++) {
			c->f[i] = page_f(c->tab, c->a[i], c->lam[i], mu, &df);
			T += c->f[i];
			dT += df;
		}
	} else {
		for (size_t i = 0; i < c->n; i++) {
			T += page_f(c->tab, c->a[i], c->lam[i], mu, &df);
			dT += df;
		}
	}
	*total = T;
	*dtotal = dT;
}

/* Upper end of the bracket for a run and a budget: T(mu) = 0 above 1 /
 * min a, and g(r) <= r^2 / 2 gives f_i <= sqrt(lambda_i w_i / (2 mu)), so at
 * mu0 = (sum sqrt(lambda w))^2 / (2 budget^2) the total is at most the
 * budget (and close to it while few pages are left out). */
static double
run_t_hi(const double *a, const double *lam, size_t n, double budget)
{
	double amin = INFINITY, sq = 0, t0, t_zero;

	for (size_t i = 0; i < n; i++) {
		if (a[i] < amin)
			amin = a[i];
		if (isfinite(a[i]))
			sq += lam[i] / sqrt(a[i]); /* sqrt(lambda w) */
	}
	t0 = 2 * log(sq / budget) - M_LN2;
	t_zero = -log(amin);
	/* Rounding must not leave the fastest page a hair under its threshold,
	 * where it would still get lambda / 37. */
	while (exp(t_zero) * amin < 1)
		t_zero = nextafter(t_zero, INFINITY);
	return t0 < t_zero ? t0 : t_zero;
}

#define MARGIN 1e-6 /* pages with |1 - mu a| below this are marginal */

/* The solve stopped on a jump of T at mu: the pages with mu a_i within
 * MARGIN of 1 sit at their threshold, where f_i swings from 0 to lambda_i /
 * 37 over one ulp of mu. Every other page keeps its f at mu (its relative
 * sensitivity to mu is below 1e5, so one ulp moves it by ~1e-11). The
 * marginal pages share what is left, R = budget - the rest, by solving for
 * the exact multiplier mu' = (1 - eta) / a_m (a_m their smallest a) in L =
 * -ln eta, which reaches the tiny eta (down to e^-100 and below) that double
 * mu cannot: page i then has 1 - mu' a_i = eta rho_i - (rho_i - 1), rho_i =
 * a_i / a_m, and u_i = -ln of that. Writes f[] (all pages). */
static void
fix_marginal(struct run *c, double mu, double budget)
{
	double rest = 0, am = INFINITY, R, lo = 1e-3, hi = 1e300, tot = 0;
	size_t n_marg = 0;

	for (size_t i = 0; i < c->n; i++) {
		double df;

		if (fabs(1 - mu * c->a[i]) < MARGIN) {
			c->f[i] = NAN; /* marks the marginal pages */
			n_marg++;
			if (c->a[i] < am)
				am = c->a[i];
			continue;
		}
		c->f[i] = page_f(c->tab, c->a[i], c->lam[i], mu, &df);
		rest += c->f[i];
	}
	if (n_marg == 0)
		return;
	R = budget - rest;
	if (!(R > 0)) {
		for (size_t i = 0; i < c->n; i++)
			if (isnan(c->f[i]))
				c->f[i] = 0;
		return;
	}
	/* Geometric bisection on L: the marginal total falls from +inf at L ~ 0
	 * (eta = 1) to 0 as L grows. */
	for (int it = 0; it < 200 && hi / lo - 1 > 1e-15; it++) {
		double L = sqrt(lo * hi), eta = exp(-L);

		tot = 0;
		for (size_t i = 0; i < c->n; i++) {
			double rho, eps, u;

			if (!isnan(c->f[i]))
				continue;
			rho = c->a[i] / am;
			if (c->a[i] == am) {
				u = L;
			} else {
				eps = eta * rho - (c->a[i] - am) / am;
				if (!(eps > 0))
					continue;
				u = -log(eps);
			}
			tot += c->lam[i] / hinv_exact(u, u + log1p(u));
		}
		if (tot > R)
			lo = L;
		else
			hi = L;
	}
	{
		double L = sqrt(lo * hi), eta = exp(-L);

		for (size_t i = 0; i < c->n; i++) {
			double eps, u;

			if (!isnan(c->f[i]))
				continue;
			if (c->a[i] == am) {
				u = L;
			} else {
				eps = eta * (c->a[i] / am) - (c->a[i] - am) / am;
				if (!(eps > 0)) {
					c->f[i] = 0;
					continue;
				}
				u = -log(eps);
			}
			c->f[i] = c->lam[i] / hinv_exact(u, u + log1p(u));
		}
	}
}

/* Solves CHO on one run with the given budget (> 0); the run must hold a
 * page with w > 0. Writes c->f (not NULL), scaled to sum to the budget to
 * rounding; returns mu. t_lo: ln of a multiplier known to give more than the
 * budget, or -INFINITY; t_start: where to start (NAN: at the upper bound). */
static double
run_solve(struct run *c, double budget, double t_lo, double t_start)
{
	double t_hi = run_t_hi(c->a, c->lam, c->n, budget), mu, sum = 0;
	double *f = c->f;
	int jumped;

	if (isnan(t_start) || t_start > t_hi || t_start <= t_lo)
		t_start = t_hi;
	c->f = NULL;
	jumped = solve_mu(run_eval, c, budget, &t_lo, &t_hi, t_start);
	c->f = f;
	mu = exp(t_hi);
	if (jumped) {
		fix_marginal(c, mu, budget);
	} else {
		for (size_t i = 0; i < c->n; i++) {
			double df;

			f[i] = page_f(c->tab, c->a[i], c->lam[i], mu, &df);
		}
	}
	for (size_t i = 0; i < c->n; i++)
		sum += f[i];
	if (sum > 0 && isfinite(sum) && sum != budget) {
		double k = budget / sum;

		for (size_t i = 0; i < c->n; i++)
			f[i] *= k;
	}
	return mu;
}

/* ---- checks shared by both allocations ---- */

static int
check_pages(const struct fr_pages *p, double budget, char *err, size_t errlen)
{
	int any = 0;

	if (!p || (p->n > 0 && !p->lambda))
		return fr_errf(err, errlen, "alloc: no pages given");
	if (!(budget >= 0) || !isfinite(budget))
		return fr_errf(err, errlen, "alloc: budget %g is not a finite number >= 0", budget);
	for (size_t i = 0; i < p->n; i++) {
		double l = p->lambda[i], w = p->weight ? p->weight[i] : 1;

		if (!(l > 0) || !isfinite(l))
			return fr_errf(err, errlen, "alloc: page %zu: change rate %g is not > 0", i,
			               l);
		if (!(w >= 0) || !isfinite(w))
			return fr_errf(err, errlen,
			               "alloc: page %zu: weight %g is not a finite number >= 0", i,
			               w);
		if (w > 0 && isfinite(l / w))
			any = 1;
	}
	if (budget > 0 && !any)
		return fr_errf(err, errlen,
		               "alloc: no page has a positive weight to spend the "
		               "budget on");
	return 0;
}

double
fr_freshness(double lambda, double f)
{
	double r;

	if (!(f > 0))
		return 0;
	if (!(lambda > 0))
		return 1;
	r = lambda / f;
	if (r == 0)
		return 1;
	return -expm1(-r) / r;
}

double
fr_alloc_value(const struct fr_pages *p, const double *f)
{
	double num = 0, den = 0;

	for (size_t i = 0; i < p->n; i++) {
		double w = p->weight ? p->weight[i] : 1;

		num += w * fr_freshness(p->lambda[i], f[i]);
		den += w;
	}
	return den > 0 ? num / den : 0;
}

int
fr_alloc_cho(const struct fr_pages *p, double budget, double *f, double *mu, char *err,
             size_t errlen)
{
	struct rtab *tab = NULL;
	double *a = NULL;
	struct run c;

	if (check_pages(p, budget, err, errlen) < 0)
		return -1;
	if (mu)
		*mu = INFINITY;
	if (budget == 0 || p->n == 0) {
		if (p->n)
			memset(f, 0, p->n * sizeof(*f));
		return 0;
	}
	tab = malloc(sizeof(*tab));
	a = malloc(p->n * sizeof(*a));
	if (!tab || !a) {
		free(tab);
		free(a);
		return fr_errf(err, errlen, "alloc: out of memory for %zu pages", p->n);
	}
	rtab_build(tab);
	for (size_t i = 0; i < p->n; i++) {
		double w = p->weight ? p->weight[i] : 1;

		a[i] = w > 0 ? p->lambda[i] / w : INFINITY;
	}
	c = (struct run){.tab = tab, .a = a, .lam = p->lambda, .n = p->n, .f = f};
	double m = run_solve(&c, budget, -INFINITY, NAN);
	if (mu)
		*mu = m;
	free(tab);
	free(a);
	return 0;
}

/* ---- OPT_POLITE ---- */

/* Pages grouped by server: server s holds positions start[s]..start[s+1]-1
 * of a, lam (and of order, the page index of each position). */
struct polite {
	const struct rtab *tab;
	const double *a, *lam;
	const size_t *start;
	uint32_t m;
	double cap;
};

/* T(mu) = sum over servers of min(F_s(mu), cap), F_s the server's CHO total
 * at mu: a server over its cap is held at the cap and contributes nothing
 * to the derivative. */
static void
polite_eval(void *ctx, double mu, double *total, double *dtotal)
{
	const struct polite *c = ctx;
	double T = 0, dT = 0;

	for (uint32_t s = 0; s < c->m; s++) {
		double F = 0, dF = 0, df;

		for (size_t k = c->start[s]; k < c->start[s + 1]; k++) {
			F += page_f(c->tab, c->a[k], c->lam[k], mu, &df);
			dF += df;
		}
		if (F > c->cap) {
			T += c->cap;
		} else {
			T += F;
			dT += dF;
		}
	}
	*total = T;
	*dtotal = dT;
}

/*
 * The digest's loop (saturate the servers over 1/P, re-solve the rest with
 * what is left, repeat) only ever lowers the multiplier of the unsaturated
 * pages: capping a server at 1/P hands the rest more budget than it took at
 * the old mu. So a server once saturated stays over its cap, and the loop
 * stops at the one mu where T(mu) = budget with T as in polite_eval; the
 * saturated servers are exactly those with F_s(mu) > 1/P, each then solved
 * alone at budget 1/P. We find that mu directly: one Newton/bisection
 * sequence of O(n) passes, then one CHO per saturated server on its own
 * pages, instead of up to 2m CHO runs over everything.
 */
int
fr_alloc_opt_polite(const struct fr_pages *p, double budget, double gap_s, double *f, char *err,
                    size_t errlen)
{
	struct rtab *tab = NULL;
	double *a = NULL, *lam = NULL, *fp = NULL;
	size_t *start = NULL, *order = NULL, *fill = NULL;
	double *ua = NULL, *ulam = NULL, *uf = NULL;
	size_t *upos = NULL, n_free = 0, n_sat = 0;
	unsigned char *sat = NULL;
	uint32_t m, live = 0;
	double cap, mu, t_lo = -INFINITY, t_hi;
	int jumped;
	int rc = -1;

	if (check_pages(p, budget, err, errlen) < 0)
		return -1;
	if (!(gap_s > 0) || !isfinite(gap_s))
		return fr_errf(err, errlen, "alloc: politeness gap %g s is not > 0", gap_s);
	m = p->n_servers;
	cap = 1 / gap_s;
	for (size_t i = 0; i < p->n; i++)
		if (!p->server || p->server[i] >= m)
			return fr_errf(err, errlen, "alloc: page %zu: server %u is not < %u", i,
			               p->server ? p->server[i] : 0, m);
	if (budget == 0 || p->n == 0) {
		if (p->n)
			memset(f, 0, p->n * sizeof(*f));
		return 0;
	}
	if (budget > (double)m * cap * (1 + 1e-12))
		return fr_errf(
		    err, errlen,
		    "alloc: budget %g/s exceeds the politeness limit %g/s: %u server(s), "
		    "one request per %g s each",
		    budget, (double)m * cap, m, gap_s);

	tab = malloc(sizeof(*tab));
	a = malloc(p->n * sizeof(*a));
	lam = malloc(p->n * sizeof(*lam));
	fp = malloc(p->n * sizeof(*fp));
	order = malloc(p->n * sizeof(*order));
	start = calloc((size_t)m + 1, sizeof(*start));
	fill = malloc(((size_t)m + 1) * sizeof(*fill));
	ua = malloc(p->n * sizeof(*ua));
	ulam = malloc(p->n * sizeof(*ulam));
	uf = malloc(p->n * sizeof(*uf));
	upos = malloc(p->n * sizeof(*upos));
	sat = calloc((size_t)m + 1, 1);
	if (!tab || !a || !lam || !fp || !order || !start || !fill || !ua || !ulam || !uf ||
	    !upos || !sat) {
		fr_errf(err, errlen, "alloc: out of memory for %zu pages on %u servers", p->n, m);
		goto out;
	}
	rtab_build(tab);

	/* Counting sort by server, stable. */
	for (size_t i = 0; i < p->n; i++)
		start[p->server[i] + 1]++;
	for (uint32_t s = 0; s < m; s++)
		start[s + 1] += start[s];
	memcpy(fill, start, ((size_t)m + 1) * sizeof(*fill));
	for (size_t i = 0; i < p->n; i++) {
		size_t k = fill[p->server[i]]++;
		double w = p->weight ? p->weight[i] : 1;

		order[k] = i;
		lam[k] = p->lambda[i];
		a[k] = w > 0 ? p->lambda[i] / w : INFINITY;
	}
	/* Only servers with a weighted page can take revisits. */
	for (uint32_t s = 0; s < m; s++) {
		for (size_t k = start[s]; k < start[s + 1]; k++) {
			if (isfinite(a[k])) {
				live++;
				break;
			}
		}
	}
	if (budget > (double)live * cap * (1 + 1e-12)) {
		fr_errf(err, errlen,
		        "alloc: budget %g/s exceeds the politeness limit %g/s: %u server(s) "
		        "with a weighted page, one request per %g s each",
		        budget, (double)live * cap, live, gap_s);
		goto out;
	}

	{
		struct polite c = {
		    .tab = tab, .a = a, .lam = lam, .start = start, .m = m, .cap = cap};

		/* Caps only lower T, so CHO's upper bound holds here too. */
		t_hi = run_t_hi(a, lam, p->n, budget);
		jumped = solve_mu(polite_eval, &c, budget, &t_lo, &t_hi, t_hi);
		if (!jumped)
			t_lo = -INFINITY; /* T(e^t_hi) = budget: no strict low end */
		mu = exp(t_hi);           /* T(mu) = budget, or <= it just above a jump */
	}

	/* A server over its cap at mu stays over it at the solution (whose
	 * multiplier is at most mu): saturate it, solving it alone at the cap
	 * with ln mu as a valid low end. */
	for (uint32_t s = 0; s < m; s++) {
		double F = 0, df;

		for (size_t k = start[s]; k < start[s + 1]; k++) {
			fp[k] = page_f(tab, a[k], lam[k], mu, &df);
			F += fp[k];
		}
		if (F > cap) {
			struct run r = {.tab = tab,
			                .a = a + start[s],
			                .lam = lam + start[s],
			                .n = start[s + 1] - start[s],
			                .f = fp + start[s]};

			run_solve(&r, cap, log(mu), NAN);
			sat[s] = 1;
			n_sat++;
		}
	}
	/* The others: one CHO on their pages with what is left, started at mu
	 * (one pass, or two after a jump), which also settles pages at their
	 * threshold. A server that then exceeds its cap could only be one
	 * whose threshold page made the jump; saturate it and redo the rest,
	 * as the digest's loop would (it does not happen otherwise). */
	for (;;) {
		double left = budget - (double)n_sat * cap;
		struct run r = {.tab = tab, .a = ua, .lam = ulam, .n = 0, .f = uf};
		int weighted = 0, more = 0;

		n_free = 0;
		for (uint32_t s = 0; s < m; s++) {
			if (sat[s])
				continue;
			for (size_t k = start[s]; k < start[s + 1]; k++) {
				ua[n_free] = a[k];
				ulam[n_free] = lam[k];
				upos[n_free++] = k;
				weighted |= isfinite(a[k]);
			}
		}
		r.n = n_free;
		if (left > REL_TOL * budget && weighted) {
			run_solve(&r, left, t_lo, t_hi);
		} else {
			for (size_t j = 0; j < n_free; j++)
				uf[j] = 0;
		}
		for (size_t j = 0; j < n_free; j++)
			fp[upos[j]] = uf[j];
		for (uint32_t s = 0; s < m; s++) {
			double F = 0;

			if (sat[s])
				continue;
			for (size_t k = start[s]; k < start[s + 1]; k++)
				F += fp[k];
			if (F > cap * (1 + 1e-12)) {
				struct run q = {.tab = tab,
				                .a = a + start[s],
				                .lam = lam + start[s],
				                .n = start[s + 1] - start[s],
				                .f = fp + start[s]};

				run_solve(&q, cap, -INFINITY, NAN);
				sat[s] = 1;
				n_sat++;
				more = 1;
			}
		}
		if (!more)
			break;
	}
	for (size_t k = 0; k < p->n; k++)
		f[order[k]] = fp[k];
	rc = 0;
out:
	free(tab);
	free(a);
	free(lam);
	free(fp);
	free(order);
	free(start);
	free(fill);
	free(ua);
	free(ulam);
	free(uf);
	free(upos);
	free(sat);
	return rc;
}
