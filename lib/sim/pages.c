/* pages.c - repositories of changing pages: per-page rates, weights and
 * servers drawn from independent streams; the change events come from the
 * world generator (a pages repository is a world with flat profiles), so the
 * trace, world.csv and the true intensities agree by construction. */
#include "sim/pages.h"

#include "core/err.h"
#include "core/outfile.h"
#include "core/rng.h"
#include "core/strmap.h"
#include "plan/alloc.h"
#include "sim/trace.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_PAGES 100000000u
#define MAX_DAYS 36600.0         /* the world's limit */
#define MAX_EXPECTED_CHANGES 1e9 /* the world's limit on items */

void
fr_pages_defaults(struct fr_pages_params *p)
{
	*p = (struct fr_pages_params){
	    .n_pages = 10000,
	    .n_servers = 100,
	    .days = 30,
	    .start_s = 1349049600, /* 2012-10-01T00:00:00Z */
	    .seed = 1,
	    .mean_rate_per_day = 1,
	    .rate_sigma = 1.5,
	    .server_zipf = 1,
	    .weight_sigma = 1,
	};
}

static int
in_range(double x, double lo, double hi)
{
	return isfinite(x) && x >= lo && x <= hi;
}

static const char *
check_params(const struct fr_pages_params *p)
{
	if (p->n_pages < 1 || p->n_pages > MAX_PAGES)
		return "pages must be in [1, 100000000]";
	if (p->n_servers < 1 || p->n_servers > p->n_pages)
		return "servers must be in [1, pages]";
	if (!(p->days > 0 && p->days <= MAX_DAYS))
		return "days must be in (0, 36600]";
	if (!in_range(p->start_s, -1e13, 1e13) || p->start_s != floor(p->start_s))
		return "start_s must be whole Unix seconds";
	if (!(isfinite(p->mean_rate_per_day) && p->mean_rate_per_day > 0))
		return "mean_rate_per_day must be positive";
	if (!in_range(p->rate_sigma, 0, 5))
		return "rate_sigma must be in [0, 5]";
	if (!in_range(p->server_zipf, 0, 5))
		return "server_zipf must be in [0, 5]";
	if (!in_range(p->weight_sigma, 0, 5))
		return "weight_sigma must be in [0, 5]";
	if ((double)p->n_pages * p->days * p->mean_rate_per_day > MAX_EXPECTED_CHANGES)
		return "asks for more than 1e9 changes (pages * days * rate)";
	return NULL;
}

static uint64_t
mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* An independent stream per (seed, page): a page's description never depends
 * on other pages. The constant keeps it apart from the world's own streams
 * (which draw the change events from the same seed). */
static void
page_stream(struct fr_rng *r, uint64_t seed, uint32_t i)
{
	uint64_t key = ((uint64_t)i << 8 | 0x5a) + 0x2545f4914f6cdd1dULL;

	fr_rng_seed(r, mix64(seed ^ mix64(key)));
}

/* Index of the first cum[k] > u (cum ascending, cum[m-1] = 1). */
static uint32_t
draw_server(const double *cum, uint32_t m, double u)
{
	uint32_t lo = 0, hi = m - 1;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (cum[mid] > u)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/* The world that has the same pages: flat profiles, constant rates. */
static void
fill_world(struct fr_pages_world *pw)
{
	const struct fr_pages_params *p = &pw->p;
	struct fr_world *w = &pw->world;

	fr_world_defaults(&w->p);
	w->p.n_sources = p->n_pages;
	w->p.days = p->days;
	w->p.start_s = p->start_s;
	w->p.seed = p->seed;
	w->p.mean_rate_per_day = p->mean_rate_per_day;
	w->p.rate_sigma = p->rate_sigma;
	w->p.tz_frac = 0;
	w->p.tz_max_h = 0;
	w->p.sharp_median = 1;
	w->p.sharp_sigma = 0;
	w->p.change_frac = 0;
	w->p.change_sigma = 0;
	w->p.late_frac = 0;
	w->p.stop_frac = 0;
	w->p.followup_frac = 0;
	w->p.followup_mean_s = 0;
	w->p.followup_chain = 0;
	w->p.weight_corr = 0;
	w->end_s = pw->end_s;
	for (int h = 0; h < 24; h++)
		w->hour_profile[h] = 1;
	for (int d = 0; d < 7; d++)
		w->weekday_profile[d] = 1;
	for (uint32_t i = 0; i < p->n_pages; i++) {
		struct fr_world_source *src = &w->src[i];
		src->rate_per_day = pw->lambda_per_day[i];
		src->tz_shift_h = 0;
		src->sharpness = 1;
		src->change_at_s = INFINITY;
		src->change_factor = 1;
		src->start_s = p->start_s;
		src->stop_s = INFINITY;
		src->weight = pw->weight[i];
		for (int h = 0; h < 24; h++)
			src->day[h] = 1;
	}
}

int
fr_pages_generate(struct fr_pages_world *pw, const struct fr_pages_params *p, char *err,
                  size_t errlen)
{
	const char *why = check_params(p);
	double *cum = NULL;
	uint32_t n, m;

	memset(pw, 0, sizeof(*pw));
	if (why)
		return fr_errf(err, errlen, "invalid repository: %s", why);
	pw->p = *p;
	pw->end_s = p->start_s + p->days * 86400.0;
	n = p->n_pages;
	m = p->n_servers;
	pw->lambda_per_day = malloc(n * sizeof(*pw->lambda_per_day));
	pw->weight = malloc(n * sizeof(*pw->weight));
	pw->server = malloc(n * sizeof(*pw->server));
	pw->world.src = calloc(n, sizeof(*pw->world.src));
	cum = malloc(m * sizeof(*cum));
	if (!pw->lambda_per_day || !pw->weight || !pw->server || !pw->world.src || !cum) {
		free(cum);
		fr_pages_free(pw);
		return fr_errf(err, errlen, "pages: out of memory for %u pages", n);
	}
	/* Zipf shares of the servers, cumulated. */
	double sum = 0;
	for (uint32_t k = 0; k < m; k++) {
		sum += pow((double)k + 1, -p->server_zipf);
		cum[k] = sum;
	}
	for (uint32_t k = 0; k < m; k++)
		cum[k] /= sum;
	cum[m - 1] = 1;

	/* Lognormal with the given mean: E[exp(mu + sigma z)] = exp(mu + sigma^2/2). */
	double mu_rate = log(p->mean_rate_per_day) - 0.5 * p->rate_sigma * p->rate_sigma;
	double mu_weight = -0.5 * p->weight_sigma * p->weight_sigma;
	for (uint32_t i = 0; i < n; i++) {
		struct fr_rng r;
		page_stream(&r, p->seed, i);
		double z_rate = fr_rng_normal(&r);
		double z_weight = fr_rng_normal(&r);
		double u_server = fr_rng_uniform(&r);
		pw->lambda_per_day[i] = exp(mu_rate + p->rate_sigma * z_rate);
		pw->weight[i] = exp(mu_weight + p->weight_sigma * z_weight);
		/* The first m pages take one server each, so no server is empty. */
		pw->server[i] = i < m ? i : draw_server(cum, m, u_server);
	}
	free(cum);
	fill_world(pw);
	return 0;
}

void
fr_pages_free(struct fr_pages_world *pw)
{
	free(pw->lambda_per_day);
	free(pw->weight);
	free(pw->server);
	fr_world_free(&pw->world);
	memset(pw, 0, sizeof(*pw));
}

char *
fr_pages_server_name(const struct fr_pages_world *pw, uint32_t k, char *buf, size_t len)
{
	return fr_index_name('h', k, pw->p.n_servers, 3, buf, len);
}

int
fr_pages_trace(const struct fr_pages_world *pw, struct fr_trace *tr, char *err, size_t errlen)
{
	struct fr_strmap *hosts;
	char name[32];

	if (fr_world_trace(&pw->world, tr, err, errlen) < 0)
		return -1;
	/* The world made every page its own host: put the servers in. */
	hosts = fr_strmap_new();
	for (uint32_t k = 0; hosts && k < pw->p.n_servers; k++) {
		uint32_t id;
		fr_pages_server_name(pw, k, name, sizeof(name));
		if (fr_strmap_intern(hosts, name, strlen(name), &id, NULL) != 0) {
			fr_strmap_free(hosts);
			hosts = NULL;
		}
	}
	if (!hosts) {
		fr_trace_free(tr);
		return fr_errf(err, errlen, "pages: out of memory building the trace");
	}
	fr_strmap_free(tr->hosts);
	tr->hosts = hosts;
	for (uint32_t i = 0; i < pw->p.n_pages; i++)
		tr->host[i] = pw->server[i];
	return 0;
}

/* ---- writing ---- */

int
fr_pages_write(const struct fr_pages_world *pw, const char *dir, size_t *n_changes, char *err,
               size_t errlen)
{
	struct fr_outfile o;
	char page[32], server[32];
	char path[PATH_MAX];

	/* A stale pages.csv must not vouch for the files being replaced. */
	if (snprintf(path, sizeof(path), "%s/pages.csv", dir) >= (int)sizeof(path))
		return fr_errf(err, errlen, "%s/pages.csv: path too long", dir);
	if (unlink(path) != 0 && errno != ENOENT)
		return fr_errf(err, errlen, "%s: %s", path, strerror(errno));
	/* trace.csv, world.csv and a sources.csv with every page its own host. */
	if (fr_world_write_count(&pw->world, dir, n_changes, err, errlen) < 0)
		return -1;

	if (fr_outfile_open(&o, dir, "sources.csv", err, errlen) < 0)
		return -1;
	fputs("source,host,group,weight\n", o.f);
	for (uint32_t i = 0; i < pw->p.n_pages; i++)
		fprintf(o.f, "%s,%s,default,%.17g\n",
		        fr_world_source_name(&pw->world, i, page, sizeof(page)),
		        fr_pages_server_name(pw, pw->server[i], server, sizeof(server)),
		        pw->weight[i]);
	if (fr_outfile_commit(&o, err, errlen) < 0)
		return -1;

	if (fr_outfile_open(&o, dir, "pages.csv", err, errlen) < 0)
		return -1;
	fputs(FR_PAGES_HEADER "\n", o.f);
	for (uint32_t i = 0; i < pw->p.n_pages; i++)
		fprintf(o.f, "%s,%s,%.17g,%.17g\n",
		        fr_world_source_name(&pw->world, i, page, sizeof(page)),
		        fr_pages_server_name(pw, pw->server[i], server, sizeof(server)),
		        pw->lambda_per_day[i], pw->weight[i]);
	return fr_outfile_commit(&o, err, errlen);
}

int
fr_pages_is_dir(const char *dir)
{
	char path[PATH_MAX];
	struct stat st;

	if (snprintf(path, sizeof(path), "%s/pages.csv", dir) >= (int)sizeof(path))
		return 0;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* ---- bounds ---- */

size_t
fr_pages_from_trace(const struct fr_trace *tr,
                    double (*intensity)(const void *arg, uint32_t s, double t_s), const void *arg,
                    double t_s, double *lambda, double *weight, uint32_t *server, uint32_t *idx,
                    struct fr_pages *out)
{
	size_t k = 0;
	uint32_t n_servers = 0;

	for (uint32_t s = 0; s < tr->n_sources; s++) {
		double lam = intensity ? intensity(arg, s, t_s) : 0;
		if (tr->host[s] + 1 > n_servers)
			n_servers = tr->host[s] + 1;
		if (!(lam > 0) || !isfinite(lam))
			continue;
		lambda[k] = lam;
		weight[k] = tr->weight[s];
		server[k] = tr->host[s];
		if (idx)
			idx[k] = s;
		k++;
	}
	out->n = k;
	out->lambda = lambda;
	out->weight = weight;
	out->server = server;
	out->n_servers = n_servers;
	return k;
}

int
fr_pages_bounds(const struct fr_pages *p, double total_weight, double budget, double gap_s,
                double *unpolite, double *polite, char *err, size_t errlen)
{
	double *f = NULL, wp = 0, rest = 0;
	unsigned char *used = NULL;
	uint32_t m_used = 0;
	int rc = -1;

	*unpolite = *polite = NAN;
	for (size_t i = 0; i < p->n; i++)
		wp += p->weight ? p->weight[i] : 1;
	if (total_weight > 0) {
		if (total_weight < wp * (1 - 1e-12))
			return fr_errf(err, errlen, "bounds: total weight below the pages' weight");
		rest = total_weight > wp ? total_weight - wp : 0;
	}
	if (p->n == 0 || !(wp > 0)) {
		/* Nothing changes (or nothing weighs): always fresh. */
		*unpolite = *polite = 1;
		return 0;
	}
	f = malloc(p->n * sizeof(*f));
	used = calloc(p->n_servers ? p->n_servers : 1, 1);
	if (!f || !used) {
		fr_errf(err, errlen, "bounds: out of memory");
		goto out;
	}
	if (fr_alloc_cho(p, budget, f, NULL, err, errlen) < 0)
		goto out;
	*unpolite = (fr_alloc_value(p, f) * wp + rest) / (wp + rest);
	if (!(gap_s > 0)) {
		*polite = *unpolite;
		rc = 0;
		goto out;
	}
	/* No schedule calls the servers with pages more than 1/gap each (and
	 * revisits of pages that weigh nothing add nothing). */
	for (size_t i = 0; i < p->n; i++)
		if (!used[p->server[i]] && (!p->weight || p->weight[i] > 0)) {
			used[p->server[i]] = 1;
			m_used++;
		}
	double cap = (double)m_used / gap_s;
	if (fr_alloc_opt_polite(p, budget < cap ? budget : cap, gap_s, f, err, errlen) < 0)
		goto out;
	*polite = (fr_alloc_value(p, f) * wp + rest) / (wp + rest);
	rc = 0;
out:
	free(f);
	free(used);
	return rc;
}
