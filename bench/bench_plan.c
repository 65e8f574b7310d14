/* bench_plan.c - time the CHO and OPT_POLITE allocations on a large
 * synthetic repository against the baseline of one O(n) pass computing the
 * freshness of every page (fr_alloc_value at f = lambda), so each ratio says
 * how many such passes an allocation costs.
 *
 * usage: bench_plan [PAGES [SERVERS [BUDGET_FRACTION]]]
 *        (default 1000000 pages, 10000 servers, budget 0.1 of m/P; P = 15 s)
 *
 * The repository: heavy-tailed pages per server (server k draws pages with
 * probability ~ 1/(k+1), every server at least one page), lognormal change
 * rates with mean 1 a day (sigma 1.5), lognormal weights with mean 1
 * (sigma 1). */
#include "bench.h"

#include "core/err.h"
#include "core/rng.h"
#include "plan/alloc.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define GAP_S 15.0
#define REPEAT 3

static int
parse_num(const char *s, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(s, &end);
	return (*s && !*end && errno == 0 && *out > 0) ? 0 : -1;
}

/* Zipf(1) over m servers by inversion of the harmonic CDF. */
static uint32_t
draw_server(struct fr_rng *rng, const double *cdf, uint32_t m)
{
	double u = fr_rng_uniform(rng) * cdf[m - 1];
	uint32_t lo = 0, hi = m - 1;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (cdf[mid] < u)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int
main(int argc, char **argv)
{
	double n_arg = 1e6, m_arg = 1e4, frac = 0.1;
	size_t n;
	uint32_t m;
	double *lam, *w, *f, *cdf, *tot;
	uint32_t *srv;
	struct fr_rng rng;
	char err[FR_ERRLEN];
	double best_pass = INFINITY, best_cho = INFINITY, best_pol = INFINITY;
	double v_cho = 0, v_pol = 0, sink = 0, mu = 0, budget;
	double s_rate = 1.5, s_w = 1.0;
	size_t zeros_cho = 0, zeros_pol = 0;
	uint32_t sat = 0, maxpages = 0;

	if ((argc > 1 && parse_num(argv[1], &n_arg) < 0) ||
	    (argc > 2 && parse_num(argv[2], &m_arg) < 0) ||
	    (argc > 3 && (parse_num(argv[3], &frac) < 0 || frac > 1)) || argc > 4 ||
	    m_arg > n_arg) {
		fprintf(stderr, "usage: bench_plan [PAGES [SERVERS [BUDGET_FRACTION]]]\n");
		return 2;
	}
	n = (size_t)n_arg;
	m = (uint32_t)m_arg;
	lam = malloc(n * sizeof(*lam));
	w = malloc(n * sizeof(*w));
	f = malloc(n * sizeof(*f));
	srv = malloc(n * sizeof(*srv));
	cdf = malloc(m * sizeof(*cdf));
	tot = calloc(m, sizeof(*tot));
	if (!lam || !w || !f || !srv || !cdf || !tot) {
		fprintf(stderr, "bench_plan: out of memory\n");
		return 1;
	}
	fr_rng_seed(&rng, 2002);
	for (uint32_t k = 0; k < m; k++)
		cdf[k] = (k ? cdf[k - 1] : 0) + 1.0 / (k + 1);
	for (size_t i = 0; i < n; i++) {
		/* Lognormal with mean 1 a day: exp(sigma Z - sigma^2 / 2). */
		lam[i] = exp(s_rate * fr_rng_normal(&rng) - s_rate * s_rate / 2) / 86400;
		w[i] = exp(s_w * fr_rng_normal(&rng) - s_w * s_w / 2);
		srv[i] = i < m ? (uint32_t)i : draw_server(&rng, cdf, m);
	}
	budget = frac * m / GAP_S;

	struct fr_pages p = {.n = n, .lambda = lam, .weight = w, .server = srv, .n_servers = m};

	/* The baseline's work must not depend on the budget: every page at
	 * f = lambda (r = 1). */
	for (size_t i = 0; i < n; i++)
		f[i] = lam[i];
	for (int r = 0; r < REPEAT; r++) {
		double t0 = bench_now();

		sink += fr_alloc_value(&p, f);
		t0 = bench_now() - t0;
		if (t0 < best_pass)
			best_pass = t0;
	}
	for (int r = 0; r < REPEAT; r++) {
		double t0 = bench_now();

		if (fr_alloc_cho(&p, budget, f, &mu, err, sizeof(err)) < 0) {
			fprintf(stderr, "bench_plan: %s\n", err);
			return 1;
		}
		t0 = bench_now() - t0;
		if (t0 < best_cho)
			best_cho = t0;
	}
	v_cho = fr_alloc_value(&p, f);
	for (size_t i = 0; i < n; i++)
		zeros_cho += f[i] == 0;
	for (int r = 0; r < REPEAT; r++) {
		double t0 = bench_now();

		if (fr_alloc_opt_polite(&p, budget, GAP_S, f, err, sizeof(err)) < 0) {
			fprintf(stderr, "bench_plan: %s\n", err);
			return 1;
		}
		t0 = bench_now() - t0;
		if (t0 < best_pol)
			best_pol = t0;
	}
	v_pol = fr_alloc_value(&p, f);
	for (size_t i = 0; i < n; i++) {
		zeros_pol += f[i] == 0;
		tot[srv[i]] += f[i];
	}
	for (uint32_t k = 0; k < m; k++)
		sat += tot[k] >= (1 / GAP_S) * (1 - 1e-9);
	memset(tot, 0, m * sizeof(*tot));
	for (size_t i = 0; i < n; i++)
		tot[srv[i]] += 1;
	for (uint32_t k = 0; k < m; k++)
		if (tot[k] > maxpages)
			maxpages = (uint32_t)tot[k];

	printf("repository: %zu pages on %u servers (largest %u pages), P = %g s, "
	       "budget %.6g/s = %g of m/P\n",
	       n, m, maxpages, GAP_S, budget, frac);
	printf("%-44s %9.3f s   1.0x\n", "baseline: one freshness pass (alloc_value)", best_pass);
	printf("%-44s %9.3f s  %5.1fx   UNPOLITE %.4f, %zu pages at 0\n", "CHO", best_cho,
	       best_cho / best_pass, v_cho, zeros_cho);
	printf("%-44s %9.3f s  %5.1fx   POLITE   %.4f, %zu pages at 0, %u servers saturated\n",
	       "OPT_POLITE", best_pol, best_pol / best_pass, v_pol, zeros_pol, sat);
	printf("(best of %d runs each; target: both under 5 s at 1 M pages, 10 k servers)\n",
	       REPEAT);
	if (sink < 0)
		printf("%g\n", sink);
	free(lam);
	free(w);
	free(f);
	free(srv);
	free(cdf);
	free(tot);
	return 0;
}
