/* alloc.h - revisit frequencies for pages that change (seed 002,
 * notes-politeness.md): page i changes as a Poisson process with rate
 * lambda_i, has importance w_i and lives on server s_i; the crawler makes C
 * revisits per second in all, and two requests to one server must be at
 * least P apart. The allocations maximise the weighted time-averaged
 * freshness sum_i w_i A_i(f_i), A(f) = (1 - exp(-lambda/f)) / (lambda/f). */
#ifndef FR_PLAN_ALLOC_H
#define FR_PLAN_ALLOC_H

#include <stddef.h>
#include <stdint.h>

/* A repository of pages. Arrays borrowed, n entries each. */
struct fr_pages {
	size_t n;
	const double *lambda;   /* change rate, per second (> 0) */
	const double *weight;   /* importance (>= 0), or NULL: all 1 */
	const uint32_t *server; /* server of each page (< n_servers) */
	uint32_t n_servers;
};

/* Time-averaged freshness of one page revisited every 1/f seconds (equally
 * spaced): (1 - exp(-lambda/f)) / (lambda/f); 0 when f == 0. */
double fr_freshness(double lambda, double f);

/* Weighted freshness of an allocation: sum w_i A_i(f_i) / sum w_i. */
double fr_alloc_value(const struct fr_pages *p, const double *f);

/* CHO (Cho & Garcia-Molina): the allocation maximising weighted freshness
 * subject to sum f_i = budget (revisits per second), by Lagrangian
 * relaxation: each page's f_i solves w_i dA_i/df = mu (pages with w_i /
 * lambda_i <= mu get 0: too fast to keep fresh), with bisection on mu; O(n)
 * per bisection step. Writes f[n]; sets *mu when not NULL. Returns 0, or -1
 * with err set (bad input). This is the UNPOLITE bound's optimum. */
int fr_alloc_cho(const struct fr_pages *p, double budget, double *f, double *mu, char *err,
		 size_t errlen);

/* OPT_POLITE: the same with, for every server, sum of its pages' f_i <=
 * 1 / gap_s: repeatedly solve CHO on the pages of unsaturated servers, cap
 * the servers that exceed 1/gap_s with CHO on their own pages at budget
 * 1/gap_s, until none exceeds (notes-politeness.md; optimal for uniform
 * weights, used with weights too). budget must be at most n_servers / gap_s.
 * Writes f[n]. Returns 0, or -1 with err set. This is the POLITE bound's
 * optimum. */
int fr_alloc_opt_polite(const struct fr_pages *p, double budget, double gap_s, double *f,
			char *err, size_t errlen);

#endif
