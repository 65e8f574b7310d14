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

/* A repository of pages. Arrays borrowed, n entries each. Times are in
 * seconds here (rates per second), but any one unit for lambda, f and the
 * budget works, and gap_s is then in its inverse. */
struct fr_pages {
	size_t n;
	const double *lambda;   /* change rate, per second (finite, > 0) */
	const double *weight;   /* importance (finite, >= 0), or NULL: all 1 */
	const uint32_t *server; /* server of each page (< n_servers); may be NULL
	                           for fr_alloc_cho and fr_alloc_value */
	uint32_t n_servers;
};

/* Time-averaged freshness of one page revisited every 1/f seconds (equally
 * spaced): (1 - exp(-lambda/f)) / (lambda/f), computed without cancellation
 * for small lambda/f; 0 when f == 0, 1 when f is infinite or lambda == 0;
 * 1 - 1/e at f == lambda. */
double fr_freshness(double lambda, double f);

/* Weighted freshness of an allocation f[n]: sum w_i A_i(f_i) / sum w_i; 0
 * when the weights sum to 0 (or n == 0). */
double fr_alloc_value(const struct fr_pages *p, const double *f);

/* CHO (Cho & Garcia-Molina): the allocation maximising weighted freshness
 * subject to sum f_i = budget (revisits per second), by Lagrangian
 * relaxation: each page's f_i solves w_i dA_i/df = mu, i.e. (w_i/lambda_i)
 * (1 - (1 + r_i) e^{-r_i}) = mu with r_i = lambda_i / f_i (pages with w_i /
 * lambda_i <= mu get 0: too fast to keep fresh; pages with w_i = 0 get 0),
 * and mu found by a safeguarded Newton iteration: a few O(n) passes. The
 * per-page inverse is a table plus one Newton step, exact to ~1e-14; sum f
 * equals the budget to rounding.
 *
 * Writes f[n] (caller-owned) and, when mu is not NULL, *mu (INFINITY for a
 * zero budget, which gives all zeros). Allocates O(n) scratch and frees it;
 * no global state, so calls may run in parallel. Returns 0, or -1 with err
 * set and f not written: budget negative or not finite, a lambda not > 0 or
 * not finite, a weight negative or not finite, a positive budget with no
 * page of positive weight, out of memory. This is the UNPOLITE bound's
 * optimum. */
int fr_alloc_cho(const struct fr_pages *p, double budget, double *f, double *mu, char *err,
                 size_t errlen);

/* OPT_POLITE: the same with, for every server, sum of its pages' f_i <=
 * 1 / gap_s. The digest's loop (solve CHO on the pages of unsaturated
 * servers, cap the servers that exceed 1/gap_s with CHO on their own pages
 * at budget 1/gap_s, repeat until none exceeds; notes-politeness.md) stops
 * at the multiplier mu where sum_s min(F_s(mu), 1/gap_s) = budget, F_s the
 * server's CHO total at mu; this finds that mu directly (pages grouped by
 * server once, a few O(n) passes), then solves each saturated server alone:
 * about twice CHO's cost, not O(n m). The result satisfies the KKT
 * conditions of the capped problem, so it is optimal for any non-negative
 * weights (the thesis proves the loop for uniform ones).
 *
 * p->server must be set. budget must be at most (number of servers having a
 * page of positive weight) / gap_s, which is at most n_servers / gap_s.
 * Writes f[n]; same errors as fr_alloc_cho, plus gap_s not > 0 or not
 * finite, a server index out of range, and a budget over the politeness
 * limit ("exceeds the politeness limit"). This is the POLITE bound's
 * optimum. */
int fr_alloc_opt_polite(const struct fr_pages *p, double budget, double gap_s, double *f, char *err,
                        size_t errlen);

#endif
