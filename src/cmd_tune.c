/* cmd_tune.c - `freshet tune`: golden-section search over one policy
 * parameter for the value that minimises mean delay, printed step by step as
 * the thesis' Table 5.7 does (a, c, d, b and f at the two inner points). */
#include "cmd.h"
#include "runopts.h"

#include "core/err.h"
#include "sched/params.h"
#include "sched/policy.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void
help(FILE *f)
{
	fprintf(f, "usage: freshet tune (--trace FILE [--sources FILE] | --world DIR) --policy P\n"
		   "                    --param NAME --range LO:HI [--steps N] [--log]\n"
		   "                    [--budget N/W[@S]] [--mode burst|paced]\n\n"
		   "Finds the value of one parameter of policy P (NAME[:key=value...]) in [LO, HI]\n"
		   "that minimises the mean discovery delay, by golden-section search: each step\n"
		   "runs one new simulation and keeps the better inner point.\n\n"
		   "  --steps N           number of narrowing steps (default 8)\n"
		   "  --log               search log(value) instead of value (for scale parameters)\n");
	runopts_help(f);
}

struct tuner {
	struct runinput *in;
	const char *policy;
	const char *param;
	int log_scale;
	int evals;
};

/* Mean delay at x (in search coordinates); +inf if the run failed. */
static double
eval(struct tuner *t, double x, double *value, char *err, size_t errlen)
{
	char spec[512];
	struct fr_metrics m;
	double v = t->log_scale ? exp(x) : x;

	*value = v;
	snprintf(spec, sizeof(spec), "%s:%s=%.6g", t->policy, t->param, v);
	if (fr_sim_run(&t->in->tr, spec, &t->in->cfg, &m, NULL, err, errlen) < 0)
		return NAN;
	t->evals++;
	double d = m.delay_mean_s;
	fprintf(stderr, "  %s: mean delay %.1f s, coverage %.2f%%\n", spec, d, 100 * m.coverage);
	fr_metrics_free(&m);
	return d;
}

static int
parse_range(const char *s, double *lo, double *hi)
{
	char *end;
	errno = 0;
	*lo = strtod(s, &end);
	if (errno || *end != ':')
		return -1;
	const char *h = end + 1;
	*hi = strtod(h, &end);
	if (errno || *end || end == h || !(*hi > *lo))
		return -1;
	return 0;
}

int
cmd_tune(int argc, char **argv)
{
	struct runopts o = {0};
	const char *policy = NULL, *param = NULL, *range = NULL;
	int steps = 8, log_scale = 0;

	for (int i = 1; i < argc; i++) {
		int t = runopts_take(&o, argc, argv, &i);
		if (t == 1)
			continue;
		if (t < 0) {
			cli_err("tune", "%s needs a value", argv[i]);
			return EXIT_USAGE;
		}
		const char *a = argv[i], *v;
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			help(stdout);
			return EXIT_OK;
		} else if (!strcmp(a, "--log"))
			log_scale = 1;
		else if (!strcmp(a, "--policy") || !strcmp(a, "--param") || !strcmp(a, "--range") ||
			 !strcmp(a, "--steps")) {
			v = runopts_value("tune", argc, argv, &i);
			if (!v)
				return EXIT_USAGE;
			if (!strcmp(a, "--policy"))
				policy = v;
			else if (!strcmp(a, "--param"))
				param = v;
			else if (!strcmp(a, "--range"))
				range = v;
			else {
				char *end;
				long sv = strtol(v, &end, 10);
				if (end == v || *end || sv < 1 || sv > 100) {
					cli_err("tune", "--steps %s: expected 1..100", v);
					return EXIT_USAGE;
				}
				steps = (int)sv;
			}
		} else {
			cli_err("tune", "unknown or incomplete option '%s' (see --help)", argv[i]);
			return EXIT_USAGE;
		}
	}
	double lo, hi;
	if (!policy || !param || !range) {
		cli_err("tune", "--policy, --param and --range are required (see --help)");
		return EXIT_USAGE;
	}
	if (parse_range(range, &lo, &hi) < 0 || (log_scale && !(lo > 0))) {
		cli_err("tune", "--range %s: expected LO:HI with LO < HI%s", range,
			log_scale ? " and LO > 0" : "");
		return EXIT_USAGE;
	}
	struct fr_params pp;
	char err[FR_ERRLEN];
	if (fr_params_parse(&pp, policy, err, sizeof(err)) < 0 || !fr_policy_find(pp.name)) {
		cli_err("tune", "--policy %s: %s", policy,
			fr_policy_find(pp.name) ? err : "unknown policy");
		return EXIT_USAGE;
	}

	struct runinput in;
	int rc = runinput_load(&in, &o, "tune");
	if (rc != EXIT_OK) {
		runinput_free(&in);
		return rc;
	}
	struct tuner t = {&in, policy, param, log_scale, 0};
	const double g = (sqrt(5.0) - 1) / 2; /* 0.618... */
	double a = log_scale ? log(lo) : lo, b = log_scale ? log(hi) : hi;
	double c = b - g * (b - a), d = a + g * (b - a), vc, vd, va, vb;
	double fc = eval(&t, c, &vc, err, sizeof(err));
	double fd = isnan(fc) ? NAN : eval(&t, d, &vd, err, sizeof(err));
	if (isnan(fc) || isnan(fd)) {
		cli_err("tune", "%s", err);
		runinput_free(&in);
		return strstr(err, "policy '") ? EXIT_USAGE : EXIT_FAIL;
	}
	printf("golden-section search of %s over [%g, %g]%s, budget %s\n", param, lo, hi,
	       log_scale ? " (log scale)" : "", in.budget_desc);
	printf("%4s %12s %12s %12s %12s %12s %12s\n", "step", "a", "c", "d", "b", "f(c) s",
	       "f(d) s");
	for (int step = 1;; step++) {
		va = log_scale ? exp(a) : a;
		vb = log_scale ? exp(b) : b;
		printf("%4d %12.4g %12.4g %12.4g %12.4g %12.1f %12.1f\n", step, va, vc, vd, vb, fc,
		       fd);
		fflush(stdout);
		if (step == steps)
			break;
		if (fc <= fd) { /* minimum in [a, d] */
			b = d;
			d = c;
			fd = fc;
			vd = vc;
			c = b - g * (b - a);
			fc = eval(&t, c, &vc, err, sizeof(err));
		} else { /* minimum in [c, b] */
			a = c;
			c = d;
			fc = fd;
			vc = vd;
			d = a + g * (b - a);
			fd = eval(&t, d, &vd, err, sizeof(err));
		}
		if (isnan(fc) || isnan(fd)) {
			cli_err("tune", "%s", err);
			runinput_free(&in);
			return EXIT_FAIL;
		}
	}
	double best = fc <= fd ? vc : vd, fbest = fc <= fd ? fc : fd;
	printf("best %s=%.6g: mean delay %.1f s (%d simulations)\n", param, best, fbest, t.evals);
	runinput_free(&in);
	return EXIT_OK;
}
