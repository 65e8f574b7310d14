/* metrics.c - accumulating run metrics. Delays are kept (as float seconds,
 * 4 bytes an item) so that medians, quantiles and CDFs are exact. */
#include "sim/metrics.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define WEEK_S 604800.0

int
fr_metrics_init(struct fr_metrics *m, double start_s, double end_s)
{
	memset(m, 0, sizeof(*m));
	m->start_s = start_s;
	m->end_s = end_s;
	double w = ceil((end_s - start_s) / WEEK_S);
	m->n_weeks = w > 0 ? (size_t)w : 1;
	m->weeks = calloc(m->n_weeks, sizeof(*m->weeks));
	m->delay_mean_s = m->delay_median_s = m->delay_p90_s = NAN;
	return m->weeks ? 0 : -1;
}

void
fr_metrics_free(struct fr_metrics *m)
{
	free(m->weeks);
	free(m->delays);
	memset(m, 0, sizeof(*m));
}

static struct fr_week_stats *
week(struct fr_metrics *m, double t_s)
{
	double w = floor((t_s - m->start_s) / WEEK_S);
	size_t i = w < 0 ? 0 : (size_t)w;
	return &m->weeks[i < m->n_weeks ? i : m->n_weeks - 1];
}

void
fr_metrics_published(struct fr_metrics *m, double pub_s)
{
	m->items++;
	week(m, pub_s)->published++;
}

void
fr_metrics_request(struct fr_metrics *m, double t_s, size_t n_items)
{
	struct fr_week_stats *w = week(m, t_s);

	m->requests++;
	w->requests++;
	w->items_found += n_items;
	if (n_items == 0) {
		m->empty_requests++;
		w->empty_requests++;
	}
}

int
fr_metrics_fetched(struct fr_metrics *m, double pub_s, double t_s)
{
	struct fr_week_stats *w = week(m, pub_s);

	if (m->fetched == m->delays_cap) {
		size_t cap = m->delays_cap ? m->delays_cap * 2 : 4096;
		float *d = realloc(m->delays, cap * sizeof(*d));
		if (!d)
			return -1;
		m->delays = d;
		m->delays_cap = cap;
	}
	m->delays[m->fetched++] = (float)(t_s - pub_s);
	w->fetched++;
	w->delay_sum_s += t_s - pub_s;
	return 0;
}

static int
cmp_float(const void *pa, const void *pb)
{
	float a = *(const float *)pa, b = *(const float *)pb;
	return (a > b) - (a < b);
}

/* The q-quantile of n sorted values, interpolating between closest ranks. */
static double
quantile_sorted(const float *c, size_t n, double q)
{
	double pos = q * (double)(n - 1);
	size_t lo = (size_t)floor(pos), hi = lo + 1 < n ? lo + 1 : lo;
	return c[lo] + (pos - (double)lo) * (c[hi] - c[lo]);
}

static float *
sorted_copy(const float *v, size_t n)
{
	float *c = malloc(n * sizeof(*c));
	if (!c)
		return NULL;
	memcpy(c, v, n * sizeof(*c));
	qsort(c, n, sizeof(*c), cmp_float);
	return c;
}

double
fr_quantile(const float *v, size_t n, double q)
{
	if (n == 0)
		return NAN;
	float *c = sorted_copy(v, n);
	if (!c)
		return NAN;
	double r = quantile_sorted(c, n, q);
	free(c);
	return r;
}

int
fr_metrics_finish(struct fr_metrics *m)
{
	double sum = 0;

	m->coverage = m->items ? (double)m->fetched / (double)m->items : 0;
	for (size_t i = 0; i < m->n_weeks; i++)
		sum += m->weeks[i].delay_sum_s;
	if (m->fetched == 0)
		return 0;
	m->delay_mean_s = sum / (double)m->fetched;
	float *c = sorted_copy(m->delays, m->fetched);
	if (!c)
		return -1;
	m->delay_median_s = quantile_sorted(c, m->fetched, 0.5);
	m->delay_p90_s = quantile_sorted(c, m->fetched, 0.9);
	free(c);
	return 0;
}
