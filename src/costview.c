/* costview.c - bisection on the budget, one child process per policy. */
#include "costview.h"

#include "core/err.h"
#include "sim/sim.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_FACTOR 16

/* What a policy is asked to reach. */
struct goal {
	double delay_s;      /* mean delay at most this */
	double min_coverage; /* with coverage at least this */
};

/* Mean delay at calls per window, INFINITY when the coverage is below the
 * goal's; NAN on failure. */
static double
delay_at(const struct runinput *in, const char *spec, double calls, const struct goal *g)
{
	struct fr_sim_config c = in->cfg;
	struct fr_metrics m;
	char err[FR_ERRLEN];

	c.calls = (uint32_t)calls;
	c.progress = NULL;
	c.n_rhythm = 0;
	if (fr_sim_run(&in->tr, spec, &c, &m, NULL, err, sizeof(err)) < 0)
		return NAN;
	double d = m.delay_mean_s;
	/* A policy that leaves more items unfetched than the target run did
	 * has not reached the target, whatever its delay on the rest. */
	if (m.coverage < g->min_coverage)
		d = INFINITY;
	fr_metrics_free(&m);
	return d;
}

/* Smallest calls with delay <= target: bracket by doubling or halving from
 * the current budget, then bisect to 2%. */
static double
needed_for(const struct runinput *in, const char *spec, const struct goal *g)
{
	double base = in->cfg.calls, lo, hi, target = g->delay_s;
	double d = delay_at(in, spec, base, g);

	if (isnan(d))
		return NAN;
	if (d <= target) {
		hi = base;
		lo = base;
		while (lo > 1) {
			lo = floor(lo / 2);
			if (lo < 1)
				lo = 1;
			d = delay_at(in, spec, lo, g);
			if (isnan(d))
				return NAN;
			if (d > target)
				break;
			hi = lo;
			if (lo == 1)
				return 1;
		}
	} else {
		lo = base;
		hi = base;
		for (;;) {
			hi *= 2;
			if (hi > MAX_FACTOR * base)
				return INFINITY;
			d = delay_at(in, spec, hi, g);
			if (isnan(d))
				return NAN;
			if (d <= target)
				break;
			lo = hi;
		}
	}
	/* Invariant: delay(lo) > target >= delay(hi). */
	while (hi - lo > 1 && hi - lo > 0.02 * hi) {
		double mid = floor((lo + hi) / 2);
		d = delay_at(in, spec, mid, g);
		if (isnan(d))
			return NAN;
		if (d <= target)
			hi = mid;
		else
			lo = mid;
	}
	return hi;
}

int
cost_view(const struct runinput *in, const char *const *specs, size_t n, double target_s,
	  double min_coverage, int jobs, double *needed, char *err, size_t errlen)
{
	const struct goal goal = {target_s, min_coverage};
	pid_t *pid = calloc(n ? n : 1, sizeof(*pid));
	int *fd = calloc(n ? n : 1, sizeof(*fd));
	size_t next = 0, running = 0, done = 0;

	if (!pid || !fd) {
		free(pid);
		free(fd);
		return fr_errf(err, errlen, "out of memory");
	}
	if (jobs < 1)
		jobs = 1;
	for (size_t i = 0; i < n; i++)
		needed[i] = NAN;
	fflush(NULL);
	while (done < n) {
		while (running < (size_t)jobs && next < n) {
			int p[2];
			if (pipe(p) < 0)
				break;
			pid_t c = fork();
			if (c < 0) {
				close(p[0]);
				close(p[1]);
				break;
			}
			if (c == 0) {
				close(p[0]);
				double v = needed_for(in, specs[next], &goal);
				ssize_t w = write(p[1], &v, sizeof(v));
				_exit(w == (ssize_t)sizeof(v) ? 0 : 1);
			}
			close(p[1]);
			pid[next] = c;
			fd[next] = p[0];
			next++;
			running++;
		}
		if (running == 0) {
			free(pid);
			free(fd);
			return fr_errf(err, errlen, "could not start a process for the cost view");
		}
		int status;
		pid_t w = wait(&status);
		if (w < 0)
			break;
		for (size_t i = 0; i < next; i++)
			if (pid[i] == w) {
				double v;
				if (read(fd[i], &v, sizeof(v)) == (ssize_t)sizeof(v))
					needed[i] = v;
				close(fd[i]);
				pid[i] = 0;
				running--;
				done++;
			}
	}
	free(pid);
	free(fd);
	return 0;
}
