/* cmd_tune.c - `freshet tune`: golden-section search over one policy
 * parameter for the value that minimises mean delay, printed step by step as
 * the thesis' Table 5.7 does (a, c, d, b and f at the two inner points). */
#include "cmd.h"
#include "opt.h"
#include "runopts.h"

#include "core/err.h"
#include "sched/params.h"
#include "sched/policy.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char USAGE[] =
    "usage: freshet tune (--trace FILE [--sources FILE] | --world DIR) --policy P\n"
    "                    --param NAME --range LO:HI [--steps N] [--log]\n"
    "                    [--budget N/W[@S]] [--mode burst|paced]\n";

static const char ABOUT[] =
    "Finds the value of one parameter of policy P (NAME[:key=value...]) in [LO, HI]\n"
    "that minimises the mean discovery delay, by golden-section search: each step\n"
    "runs one new simulation and keeps the better inner point.\n";

static const char EXAMPLES[] =
    "  freshet tune --world w --policy air-balloon --param inertia --range 60:3600 --log\n"
    "  freshet tune --trace t.csv --policy freshet --param k --range 1:8 --steps 6\n";

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
	uint64_t steps_u = 8;
	int steps, log_scale = 0;
	const struct opt opts[] = {
	    {.name = "policy", .kind = OPT_STRING, .arg = "P", .dest = &policy,
	     .help = "the policy, NAME[:key=value...] (required)"},
	    {.name = "param", .kind = OPT_STRING, .arg = "NAME", .dest = &param,
	     .help = "the parameter searched (required)"},
	    {.name = "range", .kind = OPT_STRING, .arg = "LO:HI", .dest = &range,
	     .help = "the interval searched (required)"},
	    {.name = "steps", .kind = OPT_UINT, .def = "8", .dest = &steps_u, .min = 1, .max = 100,
	     .help = "number of narrowing steps"},
	    {.name = "log", .kind = OPT_FLAG, .dest = &log_scale,
	     .help = "search log(value) instead of value (for scale parameters)"},
	    RUNOPTS_TABLE(&o),
	    OPT_TABLE_END};
	const struct opt_cmd cmd = {.name = "tune", .usage = USAGE, .about = ABOUT, .opts = opts,
				    .examples = EXAMPLES};
	int prc = opt_parse(&cmd, argc, argv);

	if (prc)
		return opt_exit(prc);
	steps = (int)steps_u;
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
