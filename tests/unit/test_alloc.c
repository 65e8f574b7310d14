/* test_alloc.c - CHO and OPT_POLITE against brute force on small instances,
 * their KKT conditions on random ones, and the freshness formula's limits. */
#include "test.h"

#include "core/err.h"
#include "core/rng.h"
#include "plan/alloc.h"
#include "plan/pages.h"

#include <float.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

/* g(r) = 1 - (1 + r) e^{-r}, by its series sum_{k>=2} (-1)^k (k-1) r^k / k!
 * for small r, where the closed form cancels. */
static double
gfun(double r)
{
	if (r < 0.5) {
		double term = r, sum = 0;

		for (int k = 2; k < 40; k++) {
			term *= -r / k; /* (-1)^{k-1} r^k / k! */
			sum -= (k - 1) * term;
		}
		return sum;
	}
	return 1 - (1 + r) * exp(-r);
}

/* dA/df for page (lambda, f): g(r) / lambda, r = lambda / f; 1/lambda at 0+. */
static double
dadf(double lambda, double f)
{
	if (f <= 0)
		return 1 / lambda;
	return gfun(lambda / f) / lambda;
}

static double
wsum_fresh(size_t n, const double *lam, const double *w, const double *f)
{
	double v = 0;

	for (size_t i = 0; i < n; i++)
		v += (w ? w[i] : 1) * fr_freshness(lam[i], f[i]);
	return v;
}

/* ---- fr_freshness ---- */

static void
test_freshness_limits(void)
{
	CHECK_NEAR(fr_freshness(1, 1), 1 - exp(-1), 1e-15);
	CHECK_NEAR(fr_freshness(2.5, 2.5), 1 - 1 / M_E, 1e-15);
	CHECK_NEAR(fr_freshness(1, 1e12), 1, 1e-12);
	CHECK(fr_freshness(1, INFINITY) == 1);
	CHECK(fr_freshness(1, 0) == 0);
	CHECK_NEAR(fr_freshness(1e3, 1), 1e-3, 1e-12); /* far too slow: 1 / r */
	/* Small r: 1 - r/2 without cancellation. */
	CHECK_NEAR(fr_freshness(1e-9, 1), 1 - 0.5e-9, 1e-17);
	/* Increasing in f. */
	CHECK(fr_freshness(1, 0.5) < fr_freshness(1, 0.6));
}

static void
test_alloc_value(void)
{
	double lam[2] = {1, 2}, w[2] = {1, 3}, f[2] = {1, 2};
	struct fr_pages p = {.n = 2, .lambda = lam, .weight = w, .server = NULL};

	CHECK_NEAR(fr_alloc_value(&p, f), (1 - 1 / M_E), 1e-15);
	p.weight = NULL;
	f[1] = 0;
	CHECK_NEAR(fr_alloc_value(&p, f), (1 - 1 / M_E) / 2, 1e-15);
}

/* ---- brute force ---- */

/* Best split of budget between two pages with caps on each f (INFINITY for
 * none): the objective is concave in f1, so ternary search is exact. */
static double
brute2(const double *lam, const double *w, double budget, double cap0, double cap1, double *f)
{
	double lo = fmax(0, budget - cap1), hi = fmin(budget, cap0);

	for (int i = 0; i < 300; i++) {
		double m1 = lo + (hi - lo) / 3, m2 = hi - (hi - lo) / 3;
		double a[2] = {m1, budget - m1}, b[2] = {m2, budget - m2};

		if (wsum_fresh(2, lam, w, a) < wsum_fresh(2, lam, w, b))
			lo = m1;
		else
			hi = m2;
	}
	f[0] = (lo + hi) / 2;
	f[1] = budget - f[0];
	return wsum_fresh(2, lam, w, f);
}

/* Pairwise exchange: move mass between two pages by exact 1-D maximisation
 * while it helps. The feasible set (f >= 0, sum = budget, server sums <=
 * cap) is a polymatroid base polytope, whose edges are exchanges e_i - e_j,
 * so for a concave separable objective a point no exchange improves is
 * optimal. Independent of the multiplier machinery under test. */
static double
brute_exchange(size_t n, const double *lam, const double *w, const uint32_t *server, uint32_t m,
               double budget, double cap, double *f)
{
	double *load = calloc(m, sizeof(*load));
	uint32_t s = 0;

	/* Feasible start: fill servers up to the cap, page by page. */
	double left = budget;
	for (size_t i = 0; i < n; i++)
		f[i] = 0;
	for (size_t i = 0; i < n && left > 0; i++) {
		s = server[i];
		double take = fmin(left, cap - load[s]);
		if (take > 0) {
			f[i] = take;
			load[s] += take;
			left -= take;
		}
	}
	for (int sweep = 0; sweep < 4000; sweep++) {
		double gain = 0;

		for (size_t i = 0; i < n; i++) {
			for (size_t j = 0; j < n; j++) {
				double lam2[2] = {lam[i], lam[j]},
				       w2[2] = {w ? w[i] : 1, w ? w[j] : 1};
				double tot = f[i] + f[j], c0, c1, g[2], before;

				if (i == j)
					continue;
				if (server[i] == server[j]) {
					c0 = c1 = INFINITY;
				} else {
					c0 = cap - load[server[i]] + f[i];
					c1 = cap - load[server[j]] + f[j];
				}
				double old[2] = {f[i], f[j]};
				before = wsum_fresh(2, lam2, w2, old);
				if (brute2(lam2, w2, tot, c0, c1, g) > before) {
					gain += wsum_fresh(2, lam2, w2, g) - before;
					load[server[i]] += g[0] - f[i];
					load[server[j]] += g[1] - f[j];
					f[i] = g[0];
					f[j] = g[1];
				}
			}
		}
		if (gain < 1e-15)
			break;
	}
	free(load);
	return wsum_fresh(n, lam, w, f);
}

static void
test_cho_two_pages_brute(void)
{
	struct fr_rng rng;
	char err[FR_ERRLEN];

	fr_rng_seed(&rng, 7);
	for (int t = 0; t < 200; t++) {
		double lam[2], w[2], f[2], g[2], mu;
		uint32_t srv[2] = {0, 1};
		struct fr_pages p = {
		    .n = 2, .lambda = lam, .weight = w, .server = srv, .n_servers = 2};
		double budget = exp(4 * fr_rng_normal(&rng) / 2);

		for (int i = 0; i < 2; i++) {
			lam[i] = exp(2 * fr_rng_normal(&rng));
			w[i] = t % 2 ? exp(fr_rng_normal(&rng)) : 1;
		}
		CHECK(fr_alloc_cho(&p, budget, f, &mu, err, sizeof(err)) == 0);
		double best = brute2(lam, w, budget, INFINITY, INFINITY, g);
		double got = wsum_fresh(2, lam, w, f);
		CHECK(got >= best - 1e-12 * (w[0] + w[1]));
		CHECK_NEAR(got, best, 1e-9 * (w[0] + w[1]));
		CHECK_NEAR(f[0] + f[1], budget, 1e-12 * budget);
	}
}

static void
test_cho_small_exchange(void)
{
	struct fr_rng rng;
	char err[FR_ERRLEN];

	fr_rng_seed(&rng, 11);
	for (int t = 0; t < 60; t++) {
		size_t n = 3 + (size_t)(t % 4);
		double lam[6], w[6], f[6], g[6], mu;
		uint32_t srv[6];
		struct fr_pages p = {
		    .n = n, .lambda = lam, .weight = w, .server = srv, .n_servers = (uint32_t)n};
		double budget = exp(2 * fr_rng_normal(&rng));

		for (size_t i = 0; i < n; i++) {
			lam[i] = exp(1.5 * fr_rng_normal(&rng));
			w[i] = exp(fr_rng_normal(&rng));
			srv[i] = (uint32_t)i;
		}
		CHECK(fr_alloc_cho(&p, budget, f, &mu, err, sizeof(err)) == 0);
		double best = brute_exchange(n, lam, w, srv, (uint32_t)n, budget, INFINITY, g);
		double got = wsum_fresh(n, lam, w, f);
		CHECK(got >= best - 1e-11);
		CHECK_NEAR(got, best, 1e-8);
		for (size_t i = 0; i < n; i++)
			CHECK_NEAR(f[i], g[i], 1e-4 * budget);
	}
}

/* A page that changes much faster than the others, with the same weight,
 * gets nothing once the budget is small: w / lambda <= mu. */
static void
test_cho_fast_page_gets_zero(void)
{
	double lam[3] = {1, 1.2, 200}, f[3], mu;
	uint32_t srv[3] = {0, 0, 0};
	struct fr_pages p = {.n = 3, .lambda = lam, .weight = NULL, .server = srv, .n_servers = 1};
	char err[FR_ERRLEN];

	CHECK(fr_alloc_cho(&p, 2, f, &mu, err, sizeof(err)) == 0);
	CHECK(f[2] == 0);
	CHECK(1 / lam[2] <= mu);
	CHECK(f[0] > 0 && f[1] > 0);
	CHECK_NEAR(f[0] + f[1], 2, 1e-12);
	/* With a huge budget every page is worth revisiting. */
	CHECK(fr_alloc_cho(&p, 1e5, f, &mu, err, sizeof(err)) == 0);
	CHECK(f[2] > 0);
}

/* KKT on random instances spanning many orders of magnitude of lambda /
 * f: every revisited page has w dA/df = mu, every other w / lambda <= mu. */
static void
test_cho_kkt_random(void)
{
	struct fr_rng rng;
	char err[FR_ERRLEN];
	enum { N = 20000 };
	double *lam = malloc(N * sizeof(*lam)), *w = malloc(N * sizeof(*w));
	double *f = malloc(N * sizeof(*f));
	uint32_t *srv = calloc(N, sizeof(*srv));

	fr_rng_seed(&rng, 3);
	for (int t = 0; t < 6; t++) {
		struct fr_pages p = {.n = N,
		                     .lambda = lam,
		                     .weight = t % 3 ? w : NULL,
		                     .server = srv,
		                     .n_servers = 1};
		double sum = 0, mu, worst = 0, budget, sumlam = 0;
		size_t zeros = 0;

		for (size_t i = 0; i < N; i++) {
			lam[i] = exp(3 * fr_rng_normal(&rng)); /* spans ~1e-8 .. 1e8 */
			w[i] = exp(fr_rng_normal(&rng));
			sumlam += lam[i];
		}
		/* From a starved budget to a lavish one. */
		budget = sumlam * pow(10, -3 + t);
		CHECK(fr_alloc_cho(&p, budget, f, &mu, err, sizeof(err)) == 0);
		for (size_t i = 0; i < N; i++) {
			double wi = p.weight ? w[i] : 1;

			sum += f[i];
			CHECK(f[i] >= 0);
			if (f[i] > 0) {
				double rel = fabs(wi * dadf(lam[i], f[i]) - mu) / mu;
				if (rel > worst)
					worst = rel;
			} else {
				zeros++;
				CHECK(wi / lam[i] <= mu * (1 + 1e-12));
			}
		}
		CHECK(worst < 1e-8);
		CHECK_NEAR(sum, budget, 1e-12 * budget);
		if (t == 0)
			CHECK(zeros > 0); /* a starved budget leaves the fast pages out */
	}
	free(lam);
	free(w);
	free(f);
	free(srv);
}

/* A page whose optimal f is far below lambda sits where mu lambda / w is 1
 * to within e^-100: no double mu reaches it, and the total jumps from 0 to
 * lambda/37 at its threshold. It must still get its exact share (found by
 * brute force here: 0.0147, where a solver stuck on the jump gives 0.0447
 * or 0), and a page alone on its server must not be capped for it. */
static void
test_threshold_page_gets_its_share(void)
{
	double lam[2] = {1.8906465603299252, 0.50309554482617225}, f[2], g[2], mu;
	double budget = 0.5152888341425732;
	uint32_t srv[2] = {0, 1};
	struct fr_pages p = {.n = 2, .lambda = lam, .weight = NULL, .server = srv, .n_servers = 2};
	char err[FR_ERRLEN];

	CHECK(fr_alloc_cho(&p, budget, f, &mu, err, sizeof(err)) == 0);
	brute2(lam, NULL, budget, INFINITY, INFINITY, g);
	CHECK_NEAR(f[0], g[0], 1e-7);
	CHECK_NEAR(f[0], 0.0147187, 1e-6);
	CHECK_NEAR(f[0] + f[1], budget, 1e-15);
	CHECK_NEAR(dadf(lam[1], f[1]) / mu, 1, 1e-9);
	CHECK(f[0] < lam[0] / 100); /* r > 100: 1 - mu a < e^-95 */
	CHECK(fr_alloc_opt_polite(&p, budget, 1, f, err, sizeof(err)) == 0);
	CHECK_NEAR(f[0], g[0], 1e-7);

	/* One weighted page, a tiny budget: it gets the whole budget, not the
	 * cap of its server. */
	double lam3[4] = {51.149621633034918, 0.70325247229608412, 0.25730171100177035,
	                  0.48836962389675148};
	double w3[4] = {1, 0, 0, 0}, f3[4];
	uint32_t srv3[4] = {0, 1, 1, 0};
	struct fr_pages q = {.n = 4, .lambda = lam3, .weight = w3, .server = srv3, .n_servers = 2};

	CHECK(fr_alloc_opt_polite(&q, 6.1804242861912901e-06, 1, f3, err, sizeof(err)) == 0);
	CHECK_NEAR(f3[0], 6.1804242861912901e-06, 1e-20);
	CHECK(f3[1] == 0 && f3[2] == 0 && f3[3] == 0);
}

/* ---- OPT_POLITE ---- */

/* The digest's loop, literally, on top of fr_alloc_cho: solve on the pages of
 * unsaturated servers, saturate those over 1/P with CHO on their own pages,
 * repeat until none is over. */
static void
digest_polite(const struct fr_pages *p, double budget, double gap, double *f)
{
	size_t n = p->n;
	unsigned char *satd = calloc(p->n_servers, 1);
	double *lam = malloc(n * sizeof(*lam)), *w = malloc(n * sizeof(*w));
	double *g = malloc(n * sizeof(*g)), *tot = malloc(p->n_servers * sizeof(*tot));
	size_t *idx = malloc(n * sizeof(*idx));
	uint32_t *srv = malloc(n * sizeof(*srv));
	char err[FR_ERRLEN];
	double left = budget;

	for (;;) {
		size_t k = 0;
		int any = 0;

		for (size_t i = 0; i < n; i++) {
			if (satd[p->server[i]])
				continue;
			idx[k] = i;
			lam[k] = p->lambda[i];
			w[k] = p->weight ? p->weight[i] : 1;
			srv[k] = p->server[i];
			k++;
		}
		struct fr_pages q = {
		    .n = k, .lambda = lam, .weight = w, .server = srv, .n_servers = p->n_servers};
		fr_alloc_cho(&q, left, g, NULL, err, sizeof(err));
		for (uint32_t s = 0; s < p->n_servers; s++)
			tot[s] = 0;
		for (size_t j = 0; j < k; j++) {
			f[idx[j]] = g[j];
			tot[srv[j]] += g[j];
		}
		for (uint32_t s = 0; s < p->n_servers; s++) {
			size_t kk = 0;

			if (satd[s] || tot[s] <= 1 / gap)
				continue;
			any = 1;
			satd[s] = 1;
			left -= 1 / gap;
			for (size_t i = 0; i < n; i++) {
				if (p->server[i] != s)
					continue;
				idx[kk] = i;
				lam[kk] = p->lambda[i];
				w[kk] = p->weight ? p->weight[i] : 1;
				srv[kk] = s;
				kk++;
			}
			struct fr_pages r = {.n = kk,
			                     .lambda = lam,
			                     .weight = w,
			                     .server = srv,
			                     .n_servers = p->n_servers};
			fr_alloc_cho(&r, 1 / gap, g, NULL, err, sizeof(err));
			for (size_t j = 0; j < kk; j++)
				f[idx[j]] = g[j];
		}
		if (!any)
			break;
	}
	free(satd);
	free(lam);
	free(w);
	free(g);
	free(tot);
	free(idx);
	free(srv);
}

static void
random_pages(struct fr_rng *rng, size_t n, uint32_t m, double *lam, double *w, uint32_t *srv)
{
	for (size_t i = 0; i < n; i++) {
		lam[i] = exp(1.5 * fr_rng_normal(rng));
		w[i] = exp(fr_rng_normal(rng));
		/* Heavy-tailed: a few servers hold most pages. */
		srv[i] = i < m ? (uint32_t)i : (uint32_t)(m * pow(fr_rng_uniform(rng), 3));
		if (srv[i] >= m)
			srv[i] = m - 1;
	}
}

static void
test_polite_small_exchange(void)
{
	struct fr_rng rng;
	char err[FR_ERRLEN];

	fr_rng_seed(&rng, 5);
	for (int t = 0; t < 60; t++) {
		size_t n = 2 + (size_t)(t % 5);
		uint32_t m = 1 + (uint32_t)(t % 3);
		double lam[6], w[6], f[6], g[6], fc[6], tot[3] = {0, 0, 0};
		uint32_t srv[6];

		if (m > n)
			m = (uint32_t)n;
		random_pages(&rng, n, m, lam, w, srv);
		struct fr_pages p = {.n = n,
		                     .lambda = lam,
		                     .weight = (t & 1) ? w : NULL,
		                     .server = srv,
		                     .n_servers = m};
		double gap = 1, budget = m * (0.05 + 0.9 * fr_rng_uniform(&rng));

		CHECK(fr_alloc_opt_polite(&p, budget, gap, f, err, sizeof(err)) == 0);
		double best = brute_exchange(n, lam, p.weight, srv, m, budget, 1 / gap, g);
		double got = wsum_fresh(n, lam, p.weight, f);
		CHECK(got >= best - 1e-11);
		CHECK_NEAR(got, best, 1e-8);
		for (size_t i = 0; i < n; i++) {
			CHECK_NEAR(f[i], g[i], 1e-4);
			tot[srv[i]] += f[i];
		}
		for (uint32_t s = 0; s < m; s++)
			CHECK(tot[s] <= (1 / gap) * (1 + 1e-9));
		/* POLITE <= UNPOLITE. */
		CHECK(fr_alloc_cho(&p, budget, fc, NULL, err, sizeof(err)) == 0);
		CHECK(fr_alloc_value(&p, f) <= fr_alloc_value(&p, fc) + 1e-12);
	}
}

/* Two pages on one server, a third alone: a hand-checkable case. With
 * budget 1.5 and cap 1 the shared server is saturated at exactly 1 and the
 * lone page gets 0.5. */
static void
test_polite_hand_case(void)
{
	double lam[3] = {1, 1, 50}, f[3];
	uint32_t srv[3] = {0, 0, 1};
	struct fr_pages p = {.n = 3, .lambda = lam, .weight = NULL, .server = srv, .n_servers = 2};
	char err[FR_ERRLEN];

	CHECK(fr_alloc_opt_polite(&p, 1.5, 1, f, err, sizeof(err)) == 0);
	CHECK_NEAR(f[0], 0.5, 1e-12);
	CHECK_NEAR(f[1], 0.5, 1e-12);
	CHECK_NEAR(f[2], 0.5, 1e-12);
	/* Unpolite, the lone fast page is left out (1/50 is far below mu). */
	CHECK(fr_alloc_cho(&p, 1.5, f, NULL, err, sizeof(err)) == 0);
	CHECK(f[2] == 0);
	CHECK_NEAR(f[0], 0.75, 1e-12);
}

/* Uniform weights, where the thesis proves the loop optimal: the fast
 * version equals the digest's loop run literally; and with weights too. */
static void
test_polite_equals_digest_loop(void)
{
	struct fr_rng rng;
	char err[FR_ERRLEN];
	enum { N = 400, M = 40 };
	double lam[N], w[N], f[N], g[N];
	uint32_t srv[N];

	fr_rng_seed(&rng, 9);
	for (int t = 0; t < 8; t++) {
		random_pages(&rng, N, M, lam, w, srv);
		struct fr_pages p = {.n = N,
		                     .lambda = lam,
		                     .weight = t < 4 ? NULL : w,
		                     .server = srv,
		                     .n_servers = M};
		double gap = 15,
		       budget = (double)M / gap * (t % 4 == 3 ? 0.97 : 0.1 + 0.25 * (t % 4));
		double worst = 0;

		CHECK(fr_alloc_opt_polite(&p, budget, gap, f, err, sizeof(err)) == 0);
		digest_polite(&p, budget, gap, g);
		for (size_t i = 0; i < N; i++)
			if (fabs(f[i] - g[i]) > worst)
				worst = fabs(f[i] - g[i]);
		CHECK(worst < 1e-9 / gap);
		CHECK_NEAR(fr_alloc_value(&p, f), fr_alloc_value(&p, g), 1e-12);
	}
}

/* KKT for the capped problem: one mu for the pages of unsaturated servers,
 * and for a saturated server s its own nu_s >= mu; caps and budget hold. */
static void
test_polite_kkt_random(void)
{
	struct fr_rng rng;
	char err[FR_ERRLEN];
	enum { N = 30000, M = 300 };
	double *lam = malloc(N * sizeof(*lam)), *w = malloc(N * sizeof(*w));
	double *f = malloc(N * sizeof(*f)), *fc = malloc(N * sizeof(*fc));
	double *tot = malloc(M * sizeof(*tot)), *nu = malloc(M * sizeof(*nu));
	uint32_t *srv = malloc(N * sizeof(*srv));

	fr_rng_seed(&rng, 13);
	for (int t = 0; t < 6; t++) {
		double gap = 15, budget = (double)M / gap * (t < 3 ? 0.01 : 0.3 * (t - 2));
		double sum = 0, mu = -1, worst = 0;
		int sat = 0;

		random_pages(&rng, N, M, lam, w, srv);
		struct fr_pages p = {.n = N,
		                     .lambda = lam,
		                     .weight = (t & 1) ? w : NULL,
		                     .server = srv,
		                     .n_servers = M};
		CHECK(fr_alloc_opt_polite(&p, budget, gap, f, err, sizeof(err)) == 0);
		for (uint32_t s = 0; s < M; s++) {
			tot[s] = 0;
			nu[s] = -1;
		}
		for (size_t i = 0; i < N; i++) {
			CHECK(f[i] >= 0);
			tot[srv[i]] += f[i];
			sum += f[i];
		}
		CHECK_NEAR(sum, budget, 1e-12 * budget);
		/* The multiplier of the unsaturated pages: the largest marginal value
		 * among them (they should all agree). */
		for (size_t i = 0; i < N; i++) {
			double v = (p.weight ? w[i] : 1) * dadf(lam[i], f[i]);

			if (f[i] > 0 && tot[srv[i]] < (1 / gap) * (1 - 1e-9) && v > mu)
				mu = v;
		}
		for (size_t i = 0; i < N; i++) {
			double wi = p.weight ? w[i] : 1, v = wi * dadf(lam[i], f[i]);
			int full = tot[srv[i]] >= (1 / gap) * (1 - 1e-9);

			CHECK(tot[srv[i]] <= (1 / gap) * (1 + 1e-9));
			if (f[i] > 0 && !full) {
				if (fabs(v - mu) / mu > worst)
					worst = fabs(v - mu) / mu;
			} else if (f[i] > 0) {
				if (nu[srv[i]] < 0)
					nu[srv[i]] = v;
				if (fabs(v - nu[srv[i]]) / nu[srv[i]] > worst)
					worst = fabs(v - nu[srv[i]]) / nu[srv[i]];
				CHECK(v >= mu * (1 - 1e-8));
			} else {
				CHECK(wi / lam[i] <=
				      (full ? nu[srv[i]] > 0 ? nu[srv[i]] : INFINITY : mu) *
				          (1 + 1e-9));
			}
		}
		for (uint32_t s = 0; s < M; s++)
			sat += tot[s] >= (1 / gap) * (1 - 1e-9);
		CHECK(worst < 1e-7);
		if (t >= 4)
			CHECK(sat > 0);
		CHECK(fr_alloc_cho(&p, budget, fc, NULL, err, sizeof(err)) == 0);
		CHECK(fr_alloc_value(&p, f) <= fr_alloc_value(&p, fc) + 1e-12);
	}
	free(lam);
	free(w);
	free(f);
	free(fc);
	free(tot);
	free(nu);
	free(srv);
}

/* At the full capacity m/P every server is exactly saturated. */
static void
test_polite_full_capacity(void)
{
	double lam[5] = {1, 2, 3, 0.1, 10}, f[5], tot[2] = {0, 0};
	uint32_t srv[5] = {0, 0, 1, 1, 1};
	struct fr_pages p = {.n = 5, .lambda = lam, .weight = NULL, .server = srv, .n_servers = 2};
	char err[FR_ERRLEN];

	CHECK(fr_alloc_opt_polite(&p, 2.0 / 15, 15, f, err, sizeof(err)) == 0);
	for (int i = 0; i < 5; i++)
		tot[srv[i]] += f[i];
	CHECK_NEAR(tot[0], 1.0 / 15, 1e-15);
	CHECK_NEAR(tot[1], 1.0 / 15, 1e-15);
	CHECK(fr_alloc_opt_polite(&p, 2.0 / 15 * 1.001, 15, f, err, sizeof(err)) == -1);
	CHECK(strstr(err, "politeness limit") != NULL);
}

static void
test_errors_and_edges(void)
{
	double lam[3] = {1, 2, 3}, w[3] = {0, 1, 0}, f[3], mu;
	uint32_t srv[3] = {0, 1, 5};
	struct fr_pages p = {.n = 3, .lambda = lam, .weight = w, .server = srv, .n_servers = 2};
	char err[FR_ERRLEN];

	/* Server out of range. */
	CHECK(fr_alloc_opt_polite(&p, 0.01, 15, f, err, sizeof(err)) == -1);
	CHECK(strstr(err, "page 2") != NULL);
	srv[2] = 0;
	/* Zero-weight pages get nothing; the weighted page takes it all. */
	CHECK(fr_alloc_cho(&p, 0.5, f, &mu, err, sizeof(err)) == 0);
	CHECK(f[0] == 0 && f[2] == 0);
	CHECK_NEAR(f[1], 0.5, 1e-15);
	/* Only server 1 has a weighted page: capacity 1/15. */
	CHECK(fr_alloc_opt_polite(&p, 0.1, 15, f, err, sizeof(err)) == -1);
	CHECK(fr_alloc_opt_polite(&p, 0.05, 15, f, err, sizeof(err)) == 0);
	CHECK_NEAR(f[1], 0.05, 1e-15);
	/* Budget 0: all zero. */
	CHECK(fr_alloc_cho(&p, 0, f, &mu, err, sizeof(err)) == 0);
	CHECK(f[0] == 0 && f[1] == 0 && f[2] == 0);
	/* Bad inputs. */
	CHECK(fr_alloc_cho(&p, -1, f, &mu, err, sizeof(err)) == -1);
	CHECK(fr_alloc_cho(&p, NAN, f, &mu, err, sizeof(err)) == -1);
	CHECK(fr_alloc_opt_polite(&p, 0.01, 0, f, err, sizeof(err)) == -1);
	lam[1] = 0;
	CHECK(fr_alloc_cho(&p, 1, f, &mu, err, sizeof(err)) == -1);
	CHECK(strstr(err, "page 1") != NULL);
	lam[1] = 2;
	w[1] = -1;
	CHECK(fr_alloc_cho(&p, 1, f, &mu, err, sizeof(err)) == -1);
	w[1] = 0;
	CHECK(fr_alloc_cho(&p, 1, f, &mu, err, sizeof(err)) == -1);
	CHECK(strstr(err, "positive weight") != NULL);
}

/* Extreme but valid inputs: a single page takes the whole budget; tiny and
 * huge rates; the KKT residual stays small at both ends of the table. */
static void
test_extremes(void)
{
	double lam[4] = {1e-9, 1e-3, 1, 1e6}, f[4], mu;
	uint32_t srv[4] = {0, 0, 0, 0};
	struct fr_pages p = {.n = 1, .lambda = lam, .weight = NULL, .server = srv, .n_servers = 1};
	char err[FR_ERRLEN];

	CHECK(fr_alloc_cho(&p, 3, f, &mu, err, sizeof(err)) == 0);
	CHECK_NEAR(f[0], 3, 1e-15);
	CHECK_NEAR(dadf(lam[0], f[0]), mu, 1e-10 * mu);
	p.n = 4;
	for (int e = -6; e <= 9; e += 3) {
		double budget = pow(10, e), sum = 0;

		CHECK(fr_alloc_cho(&p, budget, f, &mu, err, sizeof(err)) == 0);
		for (int i = 0; i < 4; i++) {
			sum += f[i];
			if (f[i] > 0)
				CHECK_NEAR(dadf(lam[i], f[i]) / mu, 1, 1e-8);
			else
				CHECK(1 / lam[i] <= mu * (1 + 1e-12));
		}
		CHECK_NEAR(sum, budget, 1e-12 * budget);
	}
}

/* ---- the pages file ---- */

/* Writes text to a fresh temporary file; path must hold 64 bytes. */
static int
write_tmp(char *path, const char *text)
{
	FILE *f;
	int fd;

	snprintf(path, 64, "%s/test_alloc_XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	fd = mkstemp(path);
	if (fd < 0)
		return -1;
	f = fdopen(fd, "w");
	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f);
}

/* Loads text; returns the loader's result with err set. */
static int
load_text(const char *text, struct fr_plan_pages *pp, char *err, char *path)
{
	int rc;

	if (write_tmp(path, text) != 0)
		return -2;
	rc = fr_plan_pages_load(pp, path, err, FR_ERRLEN);
	unlink(path);
	return rc;
}

static void
test_pages_file_loads(void)
{
	struct fr_plan_pages pp;
	char err[FR_ERRLEN], path[64];

	/* The header `freshet world --kind pages` writes. */
	CHECK(load_text("page,server,lambda_per_day,weight\n"
	                "s0,h0,0.5,1\ns1,h1,2,0.25\ns2,h0,86400,0\n",
	                &pp, err, path) == 0);
	CHECK(pp.pages.n == 3);
	CHECK(pp.pages.n_servers == 2);
	CHECK(pp.pages.server[2] == 0 && pp.pages.server[1] == 1);
	CHECK_NEAR(pp.pages.lambda[0], 0.5 / 86400, 1e-20);
	CHECK_NEAR(pp.pages.lambda[2], 1, 1e-15); /* once a second */
	CHECK(pp.pages.weight && pp.pages.weight[1] == 0.25 && pp.pages.weight[2] == 0);
	CHECK_STR(fr_plan_pages_page(&pp, 1), "s1");
	CHECK_STR(fr_plan_pages_server(&pp, 1), "h1");
	fr_plan_pages_free(&pp);
	fr_plan_pages_free(&pp); /* again: harmless */

	/* Synonyms, any column order, no weight, CRLF, BOM, quotes, no final
	 * newline. */
	CHECK(load_text("\xEF\xBB\xBFserver,changes_per_day,page\r\n\"a,b\",1,\"p\"\"1\"\r\nc,2,p2",
	                &pp, err, path) == 0);
	CHECK(pp.pages.n == 2 && pp.pages.weight == NULL);
	CHECK_STR(fr_plan_pages_server(&pp, 0), "a,b");
	CHECK_STR(fr_plan_pages_page(&pp, 0), "p\"1");
	fr_plan_pages_free(&pp);
	CHECK(load_text("page,server,lambda\n", &pp, err, path) == 0);
	CHECK(pp.pages.n == 0);
	fr_plan_pages_free(&pp);
}

static void
test_pages_file_errors(void)
{
	static const struct {
		const char *text, *want;
	} bad[] = {
	    {"", ":1: file is empty"},
	    {"page,server\n", ":1: header lacks a 'lambda_per_day' column"},
	    {"page,lambda\n", ":1: header lacks a 'server' column"},
	    {"page,server,lambda,rate\n", ":1: unknown column 'rate'"},
	    {"page,server,lambda,changes_per_day\n", ":1: duplicate column 'changes_per_day'"},
	    {"page,server,lambda\na,h,1\na,h,2\n", ":3: page 'a' repeats line 2"},
	    {"page,server,lambda\na,h,0\n", ":2: lambda '0' is not > 0"},
	    {"page,server,lambda_per_day\na,h,-3\n", ":2: lambda_per_day '-3' is not > 0"},
	    {"page,server,lambda\na,h,1e999\n", ":2: lambda '1e999' is not a finite number"},
	    {"page,server,lambda\na,h,0x10\n", ":2: lambda '0x10' is not a finite number"},
	    {"page,server,lambda,weight\na,h,1,-1\n", ":2: weight '-1' is negative"},
	    {"page,server,lambda,weight\na,h,1,nan\n", ":2: weight 'nan' is not a finite number"},
	    {"page,server,lambda\na,h,1\n\nb,h,1\n", ":3: blank line"},
	    {"page,server,lambda\na,h\n", ":2: expected 3 fields, found 2"},
	    {"page,server,lambda\n,h,1\n", ":2: page name is empty"},
	    {"page,server,lambda\na,,1\n", ":2: server name is empty"},
	    {"page,server,lambda\n\"a,h,1\n", ":2: a quoted field has no closing quote"},
	};
	struct fr_plan_pages pp;
	char err[FR_ERRLEN], path[64];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char want[FR_ERRLEN];

		err[0] = '\0';
		CHECK(load_text(bad[i].text, &pp, err, path) == -1);
		snprintf(want, sizeof(want), "%s%s", path, bad[i].want);
		CHECK(strncmp(err, want, strlen(want)) == 0);
		if (strncmp(err, want, strlen(want)) != 0)
			fprintf(stderr, "  got '%s'\n  want '%s...'\n", err, want);
		CHECK(pp.pages.n == 0 && pp.names == NULL && pp.server == NULL);
	}
	CHECK(fr_plan_pages_load(&pp, "/nonexistent/pages.csv", err, sizeof(err)) == -1);
	CHECK(strstr(err, "cannot open") != NULL);
}

int
main(void)
{
	RUN(test_freshness_limits);
	RUN(test_alloc_value);
	RUN(test_cho_two_pages_brute);
	RUN(test_cho_small_exchange);
	RUN(test_cho_fast_page_gets_zero);
	RUN(test_cho_kkt_random);
	RUN(test_threshold_page_gets_its_share);
	RUN(test_polite_small_exchange);
	RUN(test_polite_hand_case);
	RUN(test_polite_equals_digest_loop);
	RUN(test_polite_kkt_random);
	RUN(test_polite_full_capacity);
	RUN(test_errors_and_edges);
	RUN(test_extremes);
	RUN(test_pages_file_loads);
	RUN(test_pages_file_errors);
	return TEST_DONE();
}
