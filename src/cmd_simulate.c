/* cmd_simulate.c - `freshet simulate`: replay one trace against several
 * policies with one budget and print them side by side. */
#include "cmd.h"
#include "runopts.h"

#include "core/err.h"
#include "core/timefmt.h"
#include "sched/params.h"
#include "sched/policy.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define DEFAULT_POLICIES "round-robin,buzzwise:k=3000,air-balloon:inertia=960"
#define MAX_RUNS 64

struct run {
	char spec[256];
	struct fr_params params;
	struct fr_metrics m;
	double wall_s;
};

static void
help(FILE *f)
{
	fprintf(f, "usage: freshet simulate (--trace FILE [--sources FILE] | --world DIR)\n"
		   "                        [--policy P[,P...]] [--budget N/W[@S]] [--mode burst|paced]\n"
		   "                        [--format table|csv|json] [--weekly]\n\n"
		   "Replays a publication trace against each policy with the same budget and\n"
		   "prints coverage, discovery delay and requests side by side.\n\n"
		   "  --policy LIST       comma-separated policies, each NAME[:key=value...]\n"
		   "                      (default " DEFAULT_POLICIES ")\n"
		   "  --format F          table (default), csv or json\n"
		   "  --weekly            also print the per-week figures (table format)\n");
	runopts_help(f);
	fprintf(f, "policies:\n");
	for (size_t i = 0; fr_policy_at(i); i++)
		fprintf(f, "  %-14s %s\n", fr_policy_at(i)->name, fr_policy_at(i)->help);
	fprintf(f, "  any index policy also takes select=heap|scan (scan: the seed's top-k by\n"
		   "  urgency once per burst window)\n");
}

static double
wall_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void
json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static void
json_num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.6g", v);
	else
		fputs("null", f);
}

static void
print_json(FILE *f, const struct runinput *in, struct run *runs, int n)
{
	char a[32], b[32];

	fprintf(f, "{\"trace\": {\"sources\": %" PRIu32 ", \"items\": %" PRIu64
		   ", \"start\": \"%s\", \"end\": \"%s\"},\n",
		in->tr.n_sources, n ? runs[0].m.items : (uint64_t)in->tr.n_items,
		fr_time_format(in->cfg.start_s, a, sizeof(a)),
		fr_time_format(in->cfg.end_s, b, sizeof(b)));
	fprintf(f, " \"budget\": {\"calls\": %" PRIu32 ", \"window_s\": %g, \"mode\": \"%s\"},\n",
		in->cfg.calls, in->cfg.window_s, in->cfg.mode == FR_RL_PACED ? "paced" : "burst");
	fprintf(f, " \"runs\": [");
	for (int r = 0; r < n; r++) {
		const struct fr_metrics *m = &runs[r].m;
		fprintf(f, "%s\n  {\"policy\": ", r ? "," : "");
		json_str(f, runs[r].params.name);
		fprintf(f, ", \"params\": {");
		for (int k = 0; k < runs[r].params.n; k++) {
			fprintf(f, "%s", k ? ", " : "");
			json_str(f, runs[r].params.kv[k].key);
			fprintf(f, ": ");
			char *end;
			double v = strtod(runs[r].params.kv[k].val, &end);
			if (*end == '\0' && end != runs[r].params.kv[k].val)
				json_num(f, v);
			else
				json_str(f, runs[r].params.kv[k].val);
		}
		fprintf(f, "}, \"items\": %" PRIu64 ", \"fetched\": %" PRIu64 ", \"coverage\": ",
			m->items, m->fetched);
		json_num(f, m->coverage);
		fprintf(f, ", \"delay_mean_s\": ");
		json_num(f, m->delay_mean_s);
		fprintf(f, ", \"delay_median_s\": ");
		json_num(f, m->delay_median_s);
		fprintf(f, ", \"delay_p90_s\": ");
		json_num(f, m->delay_p90_s);
		fprintf(f, ", \"requests\": %" PRIu64 ", \"empty_requests\": %" PRIu64
			   ", \"wall_s\": %.3f,\n   \"weekly\": [",
			m->requests, m->empty_requests, runs[r].wall_s);
		for (size_t w = 0; w < m->n_weeks; w++) {
			const struct fr_week_stats *ws = &m->weeks[w];
			fprintf(f, "%s{\"week\": %zu, \"start\": \"%s\", \"published\": %" PRIu64
				   ", \"fetched\": %" PRIu64 ", \"delay_mean_s\": ",
				w ? ", " : "", w,
				fr_time_format(m->start_s + 604800.0 * (double)w, a, sizeof(a)),
				ws->published, ws->fetched);
			json_num(f, ws->fetched ? ws->delay_sum_s / (double)ws->fetched : NAN);
			fprintf(f, ", \"requests\": %" PRIu64 ", \"empty_requests\": %" PRIu64
				   ", \"items_found\": %" PRIu64 "}",
				ws->requests, ws->empty_requests, ws->items_found);
		}
		fprintf(f, "]}");
	}
	fprintf(f, "\n ]}\n");
}

static void
print_csv(FILE *f, struct run *runs, int n)
{
	fprintf(f, "policy,items,fetched,coverage,delay_mean_s,delay_median_s,delay_p90_s,"
		   "requests,empty_requests,wall_s\n");
	for (int r = 0; r < n; r++) {
		const struct fr_metrics *m = &runs[r].m;
		char spec[512];
		fprintf(f, "\"%s\",%" PRIu64 ",%" PRIu64 ",%.6f,%.1f,%.1f,%.1f,%" PRIu64 ",%" PRIu64
			   ",%.3f\n",
			fr_params_format(&runs[r].params, 0, spec, sizeof(spec)), m->items,
			m->fetched, m->coverage, m->delay_mean_s, m->delay_median_s, m->delay_p90_s,
			m->requests, m->empty_requests, runs[r].wall_s);
	}
}

static void
print_table(FILE *f, const struct runinput *in, struct run *runs, int n, int weekly)
{
	char a[32], b[32], c1[32], c2[32], c3[32];

	fprintf(f, "trace: %s sources, %s items, %s .. %s\n",
		fmt_count(in->tr.n_sources, c1, sizeof(c1)),
		fmt_count(n ? runs[0].m.items : in->tr.n_items, c2, sizeof(c2)),
		fr_time_format(in->cfg.start_s, a, sizeof(a)),
		fr_time_format(in->cfg.end_s, b, sizeof(b)));
	fprintf(f, "budget: %s per rate-limit group\n\n", in->budget_desc);
	fprintf(f, "%-30s %11s %9s %9s %9s %9s %11s %11s %7s\n", "policy", "fetched", "coverage",
		"mean s", "median s", "p90 s", "requests", "empty", "vs rr");
	double rr = NAN;
	for (int r = 0; r < n; r++)
		if (!strcmp(runs[r].params.name, "round-robin") && isnan(rr))
			rr = runs[r].m.delay_mean_s;
	for (int r = 0; r < n; r++) {
		const struct fr_metrics *m = &runs[r].m;
		char spec[512], ratio[16] = "-";
		if (isfinite(rr) && rr > 0 && isfinite(m->delay_mean_s))
			snprintf(ratio, sizeof(ratio), "%.3f", m->delay_mean_s / rr);
		fprintf(f, "%-30s %11s %8.2f%% %9.0f %9.0f %9.0f %11s %11s %7s\n",
			fr_params_format(&runs[r].params, 0, spec, sizeof(spec)),
			fmt_count(m->fetched, c1, sizeof(c1)), 100 * m->coverage, m->delay_mean_s,
			m->delay_median_s, m->delay_p90_s, fmt_count(m->requests, c2, sizeof(c2)),
			fmt_count(m->empty_requests, c3, sizeof(c3)), ratio);
	}
	if (!weekly || n == 0)
		return;
	fprintf(f, "\nmean delay per week (s), by publication week\n%-12s", "week");
	for (int r = 0; r < n; r++)
		fprintf(f, " %14.14s", runs[r].params.name);
	fputc('\n', f);
	for (size_t w = 0; w < runs[0].m.n_weeks; w++) {
		char d[32];
		fr_time_format(runs[0].m.start_s + 604800.0 * (double)w, d, sizeof(d));
		d[10] = '\0';
		fprintf(f, "%-12s", d);
		for (int r = 0; r < n; r++) {
			const struct fr_week_stats *ws = &runs[r].m.weeks[w];
			fprintf(f, " %14.0f", ws->fetched ? ws->delay_sum_s / (double)ws->fetched : NAN);
		}
		fputc('\n', f);
	}
}

int
cmd_simulate(int argc, char **argv)
{
	struct runopts o = {0};
	const char *policies = DEFAULT_POLICIES, *format = "table";
	int weekly = 0;

	for (int i = 1; i < argc; i++) {
		int t = runopts_take(&o, argc, argv, &i);
		if (t == 1)
			continue;
		if (t < 0) {
			cli_err("simulate", "%s needs a value", argv[i]);
			return EXIT_USAGE;
		}
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			help(stdout);
			return EXIT_OK;
		} else if (!strcmp(argv[i], "--policy") && i + 1 < argc)
			policies = argv[++i];
		else if (!strcmp(argv[i], "--format") && i + 1 < argc)
			format = argv[++i];
		else if (!strcmp(argv[i], "--weekly"))
			weekly = 1;
		else {
			cli_err("simulate", "unknown or incomplete option '%s' (see --help)", argv[i]);
			return EXIT_USAGE;
		}
	}
	if (strcmp(format, "table") && strcmp(format, "csv") && strcmp(format, "json")) {
		cli_err("simulate", "--format %s: expected table, csv or json", format);
		return EXIT_USAGE;
	}

	/* Split and check every policy before the (slow) load and runs. */
	static struct run runs[MAX_RUNS];
	int n = 0;
	char err[FR_ERRLEN];
	const char *p = policies;
	while (*p) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		if (n == MAX_RUNS || len == 0 || len >= sizeof(runs[n].spec)) {
			cli_err("simulate", "--policy: bad list '%s'", policies);
			return EXIT_USAGE;
		}
		memcpy(runs[n].spec, p, len);
		runs[n].spec[len] = '\0';
		if (fr_params_parse(&runs[n].params, runs[n].spec, err, sizeof(err)) < 0) {
			cli_err("simulate", "%s", err);
			return EXIT_USAGE;
		}
		if (!fr_policy_find(runs[n].params.name)) {
			cli_err("simulate", "unknown policy '%s' (see --help)", runs[n].params.name);
			return EXIT_USAGE;
		}
		n++;
		p += len + (comma ? 1 : 0);
	}

	struct runinput in;
	int rc = runinput_load(&in, &o, "simulate");
	if (rc != EXIT_OK) {
		runinput_free(&in);
		return rc;
	}
	for (int r = 0; r < n; r++) {
		struct progress pr = {runs[r].spec, 0};
		in.cfg.progress = progress_cb;
		in.cfg.progress_arg = &pr;
		double t0 = wall_now();
		if (fr_sim_run(&in.tr, runs[r].spec, &in.cfg, &runs[r].m, &runs[r].params, err,
			       sizeof(err)) < 0) {
			progress_end(&pr);
			cli_err("simulate", "%s", err);
			for (int k = 0; k < r; k++)
				fr_metrics_free(&runs[k].m);
			runinput_free(&in);
			/* A bad parameter is a usage error; the rest are failures. */
			return strstr(err, "policy '") ? EXIT_USAGE : EXIT_FAIL;
		}
		runs[r].wall_s = wall_now() - t0;
		progress_end(&pr);
	}
	if (!strcmp(format, "json"))
		print_json(stdout, &in, runs, n);
	else if (!strcmp(format, "csv"))
		print_csv(stdout, runs, n);
	else
		print_table(stdout, &in, runs, n, weekly);
	for (int r = 0; r < n; r++)
		fr_metrics_free(&runs[r].m);
	runinput_free(&in);
	return EXIT_OK;
}
