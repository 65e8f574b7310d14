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
	m->freshness = m->age_mean_s = NAN;
	m->cur_week_start_s = INFINITY;
	return m->weeks ? 0 : -1;
}

void
fr_metrics_free(struct fr_metrics *m)
{
	free(m->weeks);
	free(m->delays);
	free(m->per_source);
	memset(m, 0, sizeof(*m));
}

int
fr_metrics_per_source(struct fr_metrics *m, uint32_t n)
{
	struct fr_source_stats *ps = calloc(n ? n : 1, sizeof(*ps));

	if (!ps)
		return -1;
	for (uint32_t i = 0; i < n; i++)
		ps[i].rate_per_day = NAN;
	free(m->per_source);
	m->per_source = ps;
	m->n_sources = n;
	return 0;
}

static struct fr_week_stats *
week(struct fr_metrics *m, double t_s)
{
	/* Calls come in time order: most fall in the week of the previous. */
	if (t_s >= m->cur_week_start_s && t_s < m->cur_week_start_s + WEEK_S)
		return m->cur_week;
	double w = floor((t_s - m->start_s) / WEEK_S);
	size_t i = w < 0 ? 0 : (size_t)w;
	i = i < m->n_weeks ? i : m->n_weeks - 1;
	if (w >= 0 && i == (size_t)w) {
		m->cur_week = &m->weeks[i];
		m->cur_week_start_s = m->start_s + WEEK_S * w;
	}
	return &m->weeks[i];
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

void
fr_metrics_source(struct fr_metrics *m, double w)
{
	m->weight_sum += w;
}

void
fr_metrics_stale(struct fr_metrics *m, double w, double from_s, double to_s)
{
	double d = to_s - from_s;

	if (!(d > 0))
		return;
	m->stale_w_s += w * d;
	m->age_w_s2 += w * d * d / 2;
}

/* The k-th smallest of c[0..n) (0-based), moving it to c[k] and smaller
 * ones before it (quickselect). */
static float
select_kth(float *c, size_t n, size_t k)
{
	size_t lo = 0, hi = n;

	while (hi - lo > 1) {
		float pivot = c[lo + (hi - lo) / 2], t;
		size_t lt = lo, i = lo, gt = hi;
		while (i < gt) {
			if (c[i] < pivot) {
				t = c[lt];
				c[lt++] = c[i];
				c[i++] = t;
			} else if (c[i] > pivot) {
				t = c[--gt];
				c[gt] = c[i];
				c[i] = t;
			} else
				i++;
		}
		if (k < lt)
			hi = lt;
		else if (k >= gt)
			lo = gt;
		else
			return pivot;
	}
	return c[k];
}

/* The q-quantile of c[0..n) (reordered), interpolating between closest
 * ranks. */
static double
quantile_inplace(float *c, size_t n, double q)
{
	double pos = q * (double)(n - 1);
	size_t lo = (size_t)floor(pos);
	double a = select_kth(c, n, lo);
	if (lo + 1 >= n || pos == (double)lo)
		return a;
	/* The next rank is the smallest of what lies above lo. */
	float b = c[lo + 1];
	for (size_t i = lo + 2; i < n; i++)
		if (c[i] < b)
			b = c[i];
	return a + (pos - (double)lo) * (b - a);
}

double
fr_quantile(const float *v, size_t n, double q)
{
	if (n == 0)
		return NAN;
	float *c = malloc(n * sizeof(*c));
	if (!c)
		return NAN;
	memcpy(c, v, n * sizeof(*c));
	double r = quantile_inplace(c, n, q);
	free(c);
	return r;
}

int
fr_metrics_finish(struct fr_metrics *m)
{
	double sum = 0;

	m->coverage = m->items ? (double)m->fetched / (double)m->items : 0;
	double span = m->end_s - m->start_s;
	if (m->weight_sum > 0 && span > 0) {
		m->freshness = 1 - m->stale_w_s / (m->weight_sum * span);
		m->age_mean_s = m->age_w_s2 / (m->weight_sum * span);
	}
	for (size_t i = 0; i < m->n_weeks; i++)
		sum += m->weeks[i].delay_sum_s;
	if (m->fetched == 0)
		return 0;
	m->delay_mean_s = sum / (double)m->fetched;
	float *c = malloc(m->fetched * sizeof(*c));
	if (!c)
		return -1;
	memcpy(c, m->delays, m->fetched * sizeof(*c));
	m->delay_median_s = quantile_inplace(c, m->fetched, 0.5);
	m->delay_p90_s = quantile_inplace(c, m->fetched, 0.9);
	free(c);
	return 0;
}
