/* cmd_simulate.c - `freshet simulate`: replay one trace against several
 * policies with one budget and print them side by side. */
#include "cmd.h"
#include "opt.h"
#include "costview.h"
#include "dbopt.h"
#include "runopts.h"

#include "core/err.h"
#include "core/outfile.h"
#include "core/strmap.h"
#include "core/timefmt.h"
#include "plan/alloc.h"
#include "sched/params.h"
#include "sched/policy.h"
#include "sim/faults.h"
#include "sim/pages.h"
#include "sim/report.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* freshet's own policy beside the baseline every figure is read against. */
#define DEFAULT_POLICIES "round-robin,freshet"
#define MAX_RUNS 64

#define N_RHYTHM 4

/* Freshness figures (pages that change): shown for a repository of pages
 * (a --world with pages.csv) or on request, with the two upper bounds when
 * the true rates are known. */
struct fresh {
	int show;
	double unpolite, polite; /* NAN when not computed */
	double gap_s;
};

struct run {
	char spec[256];
	struct fr_params params;
	struct fr_metrics m;
	double wall_s;
	double budget_needed; /* cost view; NAN when not computed */
	int has_rhythm;
	double rhythm[N_RHYTHM * 24];
};

static const char USAGE[] =
    "usage: freshet simulate (--trace FILE [--sources FILE] | --world DIR)\n"
    "                        [--policy P[,P...]] [--budget N/W[@S]] [--mode burst|paced]\n"
    "                        [--format table|csv|json] [--weekly] [--report FILE]\n"
    "                        [--cost [--cost-target S]] [--jobs N] [--freshness]\n"
    "                        [--per-source FILE] [--faults FILE] [--fetch-log FILE]\n";

static const char ABOUT[] =
    "Replays a publication trace against each policy with the same budget and\n"
    "prints coverage, discovery delay and requests side by side.\n";

static const char EXAMPLES[] =
    "  freshet simulate --world w                  round robin beside freshet\n"
    "  freshet simulate --trace t.csv --policy all --budget 600/10m --report r.html\n"
    "  freshet simulate --world w --cost --format json\n";

/* The policies section of the help: one aligned column of every policy. */
static void
policies_help(char *buf, size_t len)
{
	size_t used = 0, width = 0;
	int w;

#define ADD(...)                                                                                   \
	do {                                                                                       \
		w = snprintf(buf + used, len - used, __VA_ARGS__);                                 \
		if (w < 0 || (size_t)w >= len - used)                                              \
			return;                                                                    \
		used += (size_t)w;                                                                 \
	} while (0)
	buf[0] = '\0';
	for (size_t i = 0; fr_policy_at(i); i++)
		if (strlen(fr_policy_at(i)->name) > width)
			width = strlen(fr_policy_at(i)->name);
	ADD("policies:\n");
	for (size_t i = 0; fr_policy_at(i); i++)
		ADD("  %-*s  %s\n", (int)width, fr_policy_at(i)->name, fr_policy_at(i)->help);
	ADD("  any index policy also takes select=heap|scan (scan: the seed's top-k by\n"
	    "  urgency once per burst window)\n"
	    "  any policy also takes polite=0|1 (0: this run ignores --gap, whose\n"
	    "  violations are counted; cho+equal defaults to 0)\n");
#undef ADD
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

/* A finite number in the fewest significant digits that read back as
 * exactly v (23.2, not 23.199999999999999; 1234567, not 1.23457e+06);
 * null for NaN and infinities, which JSON lacks. */
static void
json_num(FILE *f, double v)
{
	char buf[32];

	if (!isfinite(v)) {
		fputs("null", f);
		return;
	}
	for (int prec = 15; prec <= 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	fputs(buf, f);
}

static void
print_json(FILE *f, const struct runinput *in, struct run *runs, int n, double cost_target,
	   double cost_min_coverage, const struct fresh *fr)
{
	char a[32], b[32];

	fprintf(f, "{\"trace\": {\"sources\": %" PRIu32 ", \"items\": %" PRIu64
		   ", \"start\": \"%s\", \"end\": \"%s\"},\n",
		in->tr.n_sources, n ? runs[0].m.items : (uint64_t)in->tr.n_items,
		fr_time_format(in->cfg.start_s, a, sizeof(a)),
		fr_time_format(in->cfg.end_s, b, sizeof(b)));
	fprintf(f, " \"budget\": {\"calls\": %" PRIu32 ", \"window_s\": ", in->cfg.calls);
	json_num(f, in->cfg.window_s);
	fprintf(f, ", \"mode\": \"%s\"},\n", in->cfg.mode == FR_RL_PACED ? "paced" : "burst");
	if (fr->show && (isfinite(fr->unpolite) || isfinite(fr->polite))) {
		fprintf(f, " \"bounds\": {\"unpolite\": ");
		json_num(f, fr->unpolite);
		fprintf(f, ", \"polite\": ");
		json_num(f, fr->polite);
		fprintf(f, ", \"gap_s\": ");
		json_num(f, fr->gap_s);
		fprintf(f, "},\n");
	}
	if (isfinite(cost_target)) {
		fprintf(f, " \"cost\": {\"target_delay_s\": ");
		json_num(f, cost_target);
		fprintf(f, ", \"min_coverage\": ");
		json_num(f, cost_min_coverage);
		fprintf(f, "},\n");
	}
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
			   ", \"wall_s\": %.3f",
			m->requests, m->empty_requests, runs[r].wall_s);
		if (fr->show) {
			fprintf(f, ", \"freshness\": ");
			json_num(f, m->freshness);
			fprintf(f, ", \"age_mean_s\": ");
			json_num(f, m->age_mean_s);
			fprintf(f, ", \"polite_gap_s\": ");
			json_num(f, m->polite_gap_s);
			fprintf(f, ", \"polite_violations\": %" PRIu64, m->polite_violations);
		}
		if (isfinite(cost_target)) {
			/* null: the runs failed; "unreachable": not even at 16x. */
			fprintf(f, ", \"budget_needed_calls\": ");
			if (isinf(runs[r].budget_needed))
				fprintf(f, "\"unreachable\"");
			else
				json_num(f, runs[r].budget_needed);
		}
		fprintf(f, ",\n   \"weekly\": [");
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
print_csv(FILE *f, struct run *runs, int n, const struct fresh *fr)
{
	fprintf(f, "policy,items,fetched,coverage,delay_mean_s,delay_median_s,delay_p90_s,"
		   "requests,empty_requests,wall_s,budget_needed_calls%s\n",
		fr->show ? ",freshness,age_mean_s,polite_violations" : "");
	for (int r = 0; r < n; r++) {
		const struct fr_metrics *m = &runs[r].m;
		char spec[512];
		fprintf(f, "\"%s\",%" PRIu64 ",%" PRIu64 ",%.6f,%.1f,%.1f,%.1f,%" PRIu64 ",%" PRIu64
			   ",%.3f,",
			fr_params_format(&runs[r].params, 0, spec, sizeof(spec)), m->items,
			m->fetched, m->coverage, m->delay_mean_s, m->delay_median_s, m->delay_p90_s,
			m->requests, m->empty_requests, runs[r].wall_s);
		if (isinf(runs[r].budget_needed))
			fprintf(f, "unreachable");
		else if (!isnan(runs[r].budget_needed))
			fprintf(f, "%.0f", runs[r].budget_needed);
		if (fr->show)
			fprintf(f, ",%.6f,%.1f,%" PRIu64, m->freshness, m->age_mean_s,
				m->polite_violations);
		fputc('\n', f);
	}
}

/* An output file of option opt (--report, --per-source), written whole or
 * not at all (core/outfile): opened under a temporary name before the runs,
 * so that a path that cannot be written fails at once, and renamed over
 * path only once complete. o->f is NULL when path is. Returns 0, or -1
 * after a message. */
static int
open_output(struct fr_outfile *o, const char *opt, const char *path)
{
	char err[FR_ERRLEN];

	o->f = NULL;
	if (!path || fr_outfile_open_path(o, path, err, sizeof(err)) == 0)
		return 0;
	size_t n = strlen(path); /* err is "PATH: reason" */
	cli_err("simulate", "%s %s: cannot write: %s", opt, path,
		!strncmp(err, path, n) && err[n] == ':' ? err + n + 2 : err);
	return -1;
}

/* Commits an output file written by the command (opt names it in a
 * message). Returns 0, or -1 after a message. */
static int
commit_output(struct fr_outfile *o, const char *opt)
{
	char err[FR_ERRLEN];

	if (fr_outfile_commit(o, err, sizeof(err)) == 0)
		return 0;
	cli_err("simulate", "%s %s", opt, err);
	return -1;
}

/* --per-source: one row per run and source, in the runs' order, then the
 * sources' ids, to o (open_output), which is committed. Returns 0, or -1
 * when the file cannot be written. */
static int
write_per_source(struct fr_outfile *o, const struct runinput *in, struct run *runs, int n)
{
	FILE *f = o->f;

	fputs("policy,source,items,fetched,delay_mean_s,delay_sum_s,requests,empty_requests,"
	      "rate_per_day\n",
	      f);
	for (int r = 0; r < n; r++) {
		const struct fr_metrics *m = &runs[r].m;
		char spec[512];
		fr_params_format(&runs[r].params, 0, spec, sizeof(spec));
		for (uint32_t i = 0; m->per_source && i < m->n_sources; i++) {
			const struct fr_source_stats *ps = &m->per_source[i];
			dbopt_csv_field(f, spec);
			fputc(',', f);
			dbopt_csv_field(f, fr_trace_source_name(&in->tr, i));
			fprintf(f, ",%" PRIu64 ",%" PRIu64 ",", ps->items, ps->fetched);
			if (ps->fetched)
				fprintf(f, "%.1f", ps->delay_sum_s / (double)ps->fetched);
			fprintf(f, ",%.0f,%" PRIu64 ",%" PRIu64 ",", ps->delay_sum_s, ps->requests,
				ps->empty_requests);
			if (!isnan(ps->rate_per_day))
				fprintf(f, "%.6g", ps->rate_per_day);
			fputc('\n', f);
		}
	}
	if (commit_output(o, "--per-source") < 0)
		return -1;
	fprintf(stderr, "freshet simulate: per-source figures written to %s\n", o->path);
	return 0;
}

static void
print_table(FILE *f, const struct runinput *in, struct run *runs, int n, int weekly,
	    const char *cost_desc, const struct fresh *fr)
{
	char a[32], b[32], c1[32], c2[32], c3[32];

	fprintf(f, "trace: %s sources, %s items, %s .. %s\n",
		fmt_count(in->tr.n_sources, c1, sizeof(c1)),
		fmt_count(n ? runs[0].m.items : in->tr.n_items, c2, sizeof(c2)),
		fr_time_format(in->cfg.start_s, a, sizeof(a)),
		fr_time_format(in->cfg.end_s, b, sizeof(b)));
	fprintf(f, "budget: %s per rate-limit group\n", in->budget_desc);
	if (fr->show && (isfinite(fr->unpolite) || isfinite(fr->polite))) {
		fprintf(f, "freshness bounds: unpolite (CHO) %.2f%%", 100 * fr->unpolite);
		if (fr->gap_s > 0)
			fprintf(f, ", polite (OPT_POLITE, gap %g s) %.2f%%", fr->gap_s,
				100 * fr->polite);
		fputc('\n', f);
	}
	fputc('\n', f);
	fprintf(f, "%-30s %11s %9s %9s %9s %9s %11s %11s %7s", "policy", "fetched", "coverage",
		"mean s", "median s", "p90 s", "requests", "empty", "vs rr");
	if (fr->show)
		fprintf(f, " %9s %9s %11s", "fresh", "age s", "violations");
	fputc('\n', f);
	double rr = NAN;
	for (int r = 0; r < n; r++)
		if (!strcmp(runs[r].params.name, "round-robin") && isnan(rr))
			rr = runs[r].m.delay_mean_s;
	for (int r = 0; r < n; r++) {
		const struct fr_metrics *m = &runs[r].m;
		char spec[512], ratio[16] = "-";
		if (isfinite(rr) && rr > 0 && isfinite(m->delay_mean_s))
			snprintf(ratio, sizeof(ratio), "%.3f", m->delay_mean_s / rr);
		fprintf(f, "%-30s %11s %8.2f%% %9.0f %9.0f %9.0f %11s %11s %7s",
			fr_params_format(&runs[r].params, 0, spec, sizeof(spec)),
			fmt_count(m->fetched, c1, sizeof(c1)), 100 * m->coverage, m->delay_mean_s,
			m->delay_median_s, m->delay_p90_s, fmt_count(m->requests, c2, sizeof(c2)),
			fmt_count(m->empty_requests, c3, sizeof(c3)), ratio);
		if (fr->show)
			fprintf(f, " %8.2f%% %9.0f %11s", 100 * m->freshness, m->age_mean_s,
				fmt_count(m->polite_violations, c1, sizeof(c1)));
		fputc('\n', f);
	}
	if (cost_desc) {
		fprintf(f, "\ncost view: calls per %g s each policy needs to reach %s\n",
			in->cfg.window_s, cost_desc);
		fprintf(f, "%-30s %14s %10s\n", "policy", "budget needed", "vs given");
		for (int r = 0; r < n; r++) {
			char spec[512], need[32] = "-", ratio[16] = "-";
			double need_b = runs[r].budget_needed;
			if (isinf(need_b))
				snprintf(need, sizeof(need), "unreachable");
			else if (isfinite(need_b)) {
				snprintf(need, sizeof(need), "%.0f", need_b);
				snprintf(ratio, sizeof(ratio), "%.3f", need_b / in->cfg.calls);
			}
			fprintf(f, "%-30s %14s %10s\n",
				fr_params_format(&runs[r].params, 0, spec, sizeof(spec)), need, ratio);
		}
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

/* Buzzwise's k: the seed's 3,000 of 4,106 sources, scaled. */
static double
scaled_k(const struct runinput *in)
{
	return floor(3000.0 * in->tr.n_sources / 4106.0 + 0.5);
}

/* The revisit schedules for pages (they need a repository's true rates). */
static int
is_page_policy(const struct fr_policy_ops *ops)
{
	return ops == &fr_policy_cho_delayed || ops == &fr_policy_opt_polite_delayed ||
	       ops == &fr_policy_cho_equal;
}

/* Splits a comma-separated policy list into runs, expanding "all" (the page
 * policies only on a repository of pages). Returns the number of runs, or -1
 * after printing the problem. */
static int
split_policies(const char *policies, const struct runinput *in, int pages, struct run *runs)
{
	int n = 0;
	char err[FR_ERRLEN];
	const char *p = policies;

	while (*p) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		if (len == 3 && !strncmp(p, "all", 3)) {
			for (size_t i = 0; fr_policy_at(i); i++) {
				const struct fr_policy_ops *ops = fr_policy_at(i);
				if (!strcmp(ops->name, "oracle") && (!in || !in->has_world))
					continue;
				if (is_page_policy(ops) && (!pages || !in || !in->has_world))
					continue;
				if (n == MAX_RUNS)
					break;
				if (!strcmp(ops->name, "buzzwise") && in)
					snprintf(runs[n].spec, sizeof(runs[n].spec), "buzzwise:k=%.0f",
						 scaled_k(in));
				else if (!strcmp(ops->name, "air-balloon"))
					snprintf(runs[n].spec, sizeof(runs[n].spec),
						 "air-balloon:inertia=960");
				else
					snprintf(runs[n].spec, sizeof(runs[n].spec), "%s", ops->name);
				fr_params_parse(&runs[n].params, runs[n].spec, err, sizeof(err));
				n++;
			}
		} else {
			if (len == 0) {
				cli_err("simulate", "--policy: bad list '%s': an empty name between "
					"commas", policies);
				return -1;
			}
			if (n == MAX_RUNS || len >= sizeof(runs[n].spec)) {
				cli_err("simulate", "--policy: bad list '%s': more than %d policies or "
					"a policy too long", policies, MAX_RUNS);
				return -1;
			}
			memcpy(runs[n].spec, p, len);
			runs[n].spec[len] = '\0';
			if (fr_params_parse(&runs[n].params, runs[n].spec, err, sizeof(err)) < 0) {
				cli_err("simulate", "%s", err);
				return -1;
			}
			if (!fr_policy_find(runs[n].params.name)) {
				cli_err("simulate", "unknown policy '%s' (see --help)",
					runs[n].params.name);
				return -1;
			}
			/* A bare "buzzwise" takes the seed's share of sources. */
			if (in && !strcmp(runs[n].spec, "buzzwise")) {
				snprintf(runs[n].spec, sizeof(runs[n].spec), "buzzwise:k=%.0f",
					 scaled_k(in));
				fr_params_parse(&runs[n].params, runs[n].spec, err, sizeof(err));
			}
			n++;
		}
		p += len + (comma ? 1 : 0);
		if (comma && *p == '\0') {
			cli_err("simulate", "--policy: bad list '%s': it ends with a comma",
				policies);
			return -1;
		}
	}
	if (n == 0) {
		cli_err("simulate", "--policy: no policy given");
		return -1;
	}
	return n;
}

/* The n_pick sources with the most items, for the rhythm plots. */
static uint32_t
busiest_sources(const struct fr_trace *tr, uint32_t *out, uint32_t n_pick)
{
	uint32_t n = 0;

	for (uint32_t s = 0; s < tr->n_sources; s++) {
		size_t c = tr->first[s + 1] - tr->first[s];
		uint32_t pos = n < n_pick ? n++ : n_pick;
		while (pos > 0 && tr->first[out[pos - 1] + 1] - tr->first[out[pos - 1]] < c) {
			if (pos < n_pick)
				out[pos] = out[pos - 1];
			pos--;
		}
		if (pos < n_pick)
			out[pos] = s;
	}
	return n;
}

/* The HTML report to o (open_output), which is committed, or dropped when
 * it cannot be written. Returns 0, or -1 after a message. */
static int
write_report(struct fr_outfile *o, const struct runinput *in, struct run *runs, int n,
	     const uint32_t *rsrc, uint32_t n_rhythm, double target, const char *target_desc)
{
	struct fr_report_run rr[MAX_RUNS];
	const char *names[N_RHYTHM];
	double truth[N_RHYTHM * 24];
	char input[512], title[600], a[32], b[32], err[FR_ERRLEN];

	for (int r = 0; r < n; r++) {
		rr[r].label = runs[r].spec;
		rr[r].m = &runs[r].m;
		rr[r].budget_needed = runs[r].budget_needed;
		rr[r].has_rhythm = runs[r].has_rhythm;
		rr[r].rhythm = runs[r].rhythm;
	}
	for (uint32_t k = 0; k < n_rhythm; k++) {
		names[k] = fr_trace_source_name(&in->tr, rsrc[k]);
		if (!in->has_world)
			continue;
		/* The true relative intensity per UTC hour, averaged over the run. */
		for (int h = 0; h < 24; h++) {
			double sum = 0;
			int cnt = 0;
			for (double t = floor(in->cfg.start_s / 86400) * 86400 + h * 3600 + 1800;
			     t < in->cfg.end_s; t += 86400, cnt++)
				sum += fr_world_intensity(&in->w, rsrc[k], t);
			truth[k * 24 + h] = cnt ? sum / cnt : 0;
		}
	}
	snprintf(input, sizeof(input), "%s: %u sources, %" PRIu64 " items, %s .. %s",
		 in->has_world ? "synthetic world" : "trace", in->tr.n_sources,
		 n ? runs[0].m.items : (uint64_t)in->tr.n_items,
		 fr_time_format(in->cfg.start_s, a, sizeof(a)),
		 fr_time_format(in->cfg.end_s, b, sizeof(b)));
	snprintf(title, sizeof(title), "freshet simulate: %s", input);
	struct fr_report rep = {
		.title = title,
		.input_desc = input,
		.budget_desc = in->budget_desc,
		.window_s = in->cfg.window_s,
		.target_delay_s = target,
		.target_desc = target_desc,
		.n_runs = (size_t)n,
		.runs = rr,
		.n_rhythm = n_rhythm,
		.rhythm_names = names,
		.true_rhythm = in->has_world ? truth : NULL,
	};
	if (fr_report_html(o->f, &rep, err, sizeof(err)) < 0) {
		fr_outfile_abort(o);
		cli_err("simulate", "--report %s: %s", o->path, err);
		return -1;
	}
	if (commit_output(o, "--report") < 0)
		return -1;
	fprintf(stderr, "freshet simulate: report written to %s\n", o->path);
	return 0;
}

/* The UNPOLITE and POLITE bounds of the run's budget (every group's calls)
 * and host gap, from the true rates at the start. A failure is reported and
 * leaves them NAN. */
static void
fresh_bounds(const struct runinput *in, struct fresh *fr)
{
	uint32_t n = in->tr.n_sources, n_groups = 1;
	double *lam = malloc((n ? n : 1) * sizeof(*lam)), *w = malloc((n ? n : 1) * sizeof(*w));
	uint32_t *srv = malloc((n ? n : 1) * sizeof(*srv));
	double total = 0;
	char err[FR_ERRLEN];
	struct fr_pages p;

	if (!lam || !w || !srv) {
		cli_err("simulate", "freshness bounds: out of memory");
		goto out;
	}
	for (uint32_t s = 0; s < n; s++) {
		total += in->tr.weight[s];
		if (in->tr.group[s] + 1 > n_groups)
			n_groups = in->tr.group[s] + 1;
	}
	fr_pages_from_trace(&in->tr, in->cfg.intensity, in->cfg.intensity_arg, in->cfg.start_s, lam,
			    w, srv, NULL, &p);
	if (fr_pages_bounds(&p, total, (double)in->cfg.calls / in->cfg.window_s * n_groups,
			    in->cfg.host_gap_s, &fr->unpolite, &fr->polite, err, sizeof(err)) < 0)
		cli_err("simulate", "freshness bounds: %s", err);
out:
	free(lam);
	free(w);
	free(srv);
}

/* --fetch-log: every fetch of every run, as it is made. */
struct fetch_log {
	FILE *f;
	const struct fr_trace *tr;
	const char *policy;
};

/* A CSV field, quoted when it must be. */
static void
csv_field(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void
log_fetch(void *arg, uint32_t src, double t_s, int failed)
{
	struct fetch_log *l = arg;

	csv_field(l->f, l->policy);
	fputc(',', l->f);
	csv_field(l->f, fr_strmap_name(l->tr->sources, src));
	fprintf(l->f, ",%.6f,%d\n", t_s, failed);
}

int
cmd_simulate(int argc, char **argv)
{
	struct runopts o = {0};
	const char *policies = NULL, *report = NULL, *per_source = NULL;
	const char *faults_path = NULL, *fetch_log = NULL;
	static const char *const FORMATS[] = {"table", "csv", "json", NULL};
	int fmt = 0, weekly = 0, cost = 0, freshness = 0, target_seen = 0;
	uint64_t jobs_u = 2;
	double cost_target = NAN;
	static char more[16384];
	const struct opt opts[] = {
	    {.name = "policy", .kind = OPT_STRING, .arg = "LIST", .def = DEFAULT_POLICIES,
	     .dest = &policies,
	     .help = "comma-separated policies, each NAME[:key=value...], or 'all': every "
		     "policy below (the oracle only on a --world; buzzwise with k scaled as 3000 "
		     "of 4106 sources); a bare 'buzzwise' takes k as 3000 of 4106 sources, "
		     "scaled"},
	    {.name = "report", .kind = OPT_STRING, .arg = "FILE", .dest = &report,
	     .help = "also write an HTML report with plots (self-contained)"},
	    {.name = "cost", .kind = OPT_FLAG, .dest = &cost,
	     .help = "cost view: the budget each policy needs to reach a target mean delay, by "
		     "bisection on the budget (many runs)"},
	    {.name = "cost-target", .kind = OPT_DOUBLE, .arg = "S", .dest = &cost_target,
	     .seen = &target_seen, .flags = OPT_GT_MIN | OPT_NO_MAX, .want = "seconds > 0",
	     .help = "the target in seconds, implies --cost (default: round robin's mean delay "
		     "at the given budget)"},
	    {.name = "jobs", .kind = OPT_UINT, .def = "2", .dest = &jobs_u, .min = 1, .max = 64,
	     .help = "cost-view runs in parallel"},
	    {.name = "format", .kind = OPT_ENUM, .arg = "F", .choices = FORMATS, .def = "table",
	     .dest = &fmt, .help = "table, csv or json"},
	    {.name = "weekly", .kind = OPT_FLAG, .dest = &weekly,
	     .help = "also print the per-week figures (table format)"},
	    {.name = "freshness", .kind = OPT_FLAG, .dest = &freshness,
	     .help = "also print freshness, age and politeness violations (a source is a page, "
		     "an item a change; on by default for a --world made by 'freshet world "
		     "--kind pages', with the UNPOLITE and POLITE bounds of its true rates)"},
	    {.name = "per-source", .kind = OPT_STRING, .arg = "FILE", .dest = &per_source,
	     .help = "also write each run's figures per source as CSV: policy, source, items, "
		     "fetched, delay_mean_s, delay_sum_s, requests, empty_requests, rate_per_day "
		     "(the policy's learned rate at the end; empty if it learns none)"},
	    {.name = "faults", .kind = OPT_STRING, .arg = "FILE", .dest = &faults_path,
	     .help = "inject failures (CSV: source,from,to,status[,retry_after][,times]): fetches "
		     "in the window fail with that status (0: no answer), under the live "
		     "crawler's backoff and 429/503 pauses (docs/crawl.md, \"Errors in the "
		     "simulator\")"},
	    {.name = "fetch-log", .kind = OPT_STRING, .arg = "FILE", .dest = &fetch_log,
	     .help = "also write every fetch as CSV: policy,source,time,failed"},
	    RUNOPTS_TABLE(&o),
	    OPT_TABLE_END};
	const struct opt_cmd cmd = {.name = "simulate", .usage = USAGE, .about = ABOUT,
				    .opts = opts, .more = more, .examples = EXAMPLES};
	int prc, jobs;
	const char *format;

	policies_help(more, sizeof(more));
	if ((prc = opt_parse(&cmd, argc, argv)) != 0)
		return opt_exit(prc);
	if (target_seen)
		cost = 1;
	jobs = (int)jobs_u;
	format = FORMATS[fmt];
	/* Check every policy before the (slow) load and runs. */
	static struct run runs[MAX_RUNS];
	int pages = o.world && fr_pages_is_dir(o.world);
	int n = split_policies(policies, NULL, pages, runs);
	if (n < 0)
		return EXIT_USAGE;

	/* A command that fails leaves no output file, and any file already at
	 * either path as it was. */
	struct fr_outfile report_f, per_source_f = {0}, fetch_log_f = {0};
	if (open_output(&report_f, "--report", report) < 0 ||
	    open_output(&per_source_f, "--per-source", per_source) < 0 ||
	    open_output(&fetch_log_f, "--fetch-log", fetch_log) < 0) {
		fr_outfile_abort(&report_f);
		fr_outfile_abort(&per_source_f);
		return EXIT_FAIL;
	}

	struct runinput in;
	char err[FR_ERRLEN];
	int rc = runinput_load(&in, &o, "simulate");
	struct fr_faults faults = {0};
	if (rc == EXIT_OK && faults_path &&
	    fr_faults_read(faults_path, &in.tr, &faults, err, sizeof(err)) < 0) {
		cli_err("simulate", "--faults %s", err);
		rc = EXIT_FAIL;
	}
	if (rc != EXIT_OK) {
		runinput_free(&in);
		fr_outfile_abort(&report_f);
		fr_outfile_abort(&per_source_f);
		fr_outfile_abort(&fetch_log_f);
		return rc;
	}
	in.cfg.faults = &faults;
	struct fetch_log fl = {fetch_log_f.f, &in.tr, NULL};
	if (fl.f) {
		fprintf(fl.f, "policy,source,time,failed\n");
		in.cfg.on_fetch = log_fetch;
		in.cfg.on_fetch_arg = &fl;
	}
	n = split_policies(policies, &in, pages, runs);
	struct fresh fr = {freshness || pages, NAN, NAN, in.cfg.host_gap_s};
	if (fr.show && in.has_world)
		fresh_bounds(&in, &fr);
	uint32_t rsrc[N_RHYTHM], n_rhythm = report ? busiest_sources(&in.tr, rsrc, N_RHYTHM) : 0;
	for (int r = 0; r < n; r++) {
		struct progress pr = {runs[r].spec, 0};
		in.cfg.progress = progress_cb;
		in.cfg.progress_arg = &pr;
		in.cfg.n_rhythm = n_rhythm;
		in.cfg.rhythm_src = rsrc;
		in.cfg.rhythm_out = runs[r].rhythm;
		in.cfg.rhythm_written = &runs[r].has_rhythm;
		in.cfg.per_source = per_source != NULL;
		runs[r].budget_needed = NAN;
		fl.policy = runs[r].spec;
		double t0 = wall_now();
		if (fr_sim_run(&in.tr, runs[r].spec, &in.cfg, &runs[r].m, &runs[r].params, err,
			       sizeof(err)) < 0) {
			progress_end(&pr);
			cli_err("simulate", "%s", err);
			for (int k = 0; k < r; k++)
				fr_metrics_free(&runs[k].m);
			runinput_free(&in);
			fr_faults_free(&faults);
			fr_outfile_abort(&report_f);
			fr_outfile_abort(&per_source_f);
			fr_outfile_abort(&fetch_log_f);
			/* A bad parameter is a usage error; the rest are failures. */
			return strstr(err, "policy '") ? EXIT_USAGE : EXIT_FAIL;
		}
		runs[r].wall_s = wall_now() - t0;
		progress_end(&pr);
	}
	in.cfg.progress = NULL;
	in.cfg.n_rhythm = 0;
	in.cfg.per_source = 0;
	in.cfg.on_fetch = NULL;

	char target_desc[256] = "";
	double min_coverage = 0;
	if (cost) {
		/* Round robin at the given budget: the default target, and the
		 * coverage a policy must keep to count (no buying delay by leaving
		 * items unfetched). */
		double rr_delay = NAN, rr_coverage = NAN;
		for (int r = 0; r < n && isnan(rr_delay); r++)
			if (!strcmp(runs[r].params.name, "round-robin")) {
				rr_delay = runs[r].m.delay_mean_s;
				rr_coverage = runs[r].m.coverage;
			}
		if (isnan(cost_target)) {
			if (isnan(rr_delay)) {
				struct fr_metrics m;
				if (fr_sim_run(&in.tr, "round-robin", &in.cfg, &m, NULL, err,
					       sizeof(err)) == 0) {
					rr_delay = m.delay_mean_s;
					rr_coverage = m.coverage;
					fr_metrics_free(&m);
				}
			}
			/* The target run's own coverage, less 1 percentage point. */
			cost_target = rr_delay;
			min_coverage = rr_coverage - 0.01;
			snprintf(target_desc, sizeof(target_desc),
				 "round robin's mean delay at %s: %.0f s", in.budget_desc, cost_target);
		} else {
			/* No run behind an explicit target: keep 99% of round robin's
			 * coverage when it ran, else no bar. */
			min_coverage = isfinite(rr_coverage) ? 0.99 * rr_coverage : 0;
			snprintf(target_desc, sizeof(target_desc), "mean delay %.0f s", cost_target);
		}
		if (!(min_coverage > 0))
			min_coverage = 0;
		if (min_coverage > 0) {
			size_t len = strlen(target_desc);
			snprintf(target_desc + len, sizeof(target_desc) - len,
				 " with coverage at least %.2f%%", 100 * min_coverage);
		}
	}
	if (cost && !isfinite(cost_target)) {
		cli_err("simulate", "cost view: no target (round robin fetched nothing); skipped");
		cost = 0;
	}
	if (cost) {
		const char *specs[MAX_RUNS];
		double needed[MAX_RUNS];
		for (int r = 0; r < n; r++)
			specs[r] = runs[r].spec;
		fprintf(stderr, "freshet simulate: cost view: bisection on the budget for %d "
				"policies, %d at a time...\n", n, jobs);
		if (cost_view(&in, specs, (size_t)n, cost_target, min_coverage, jobs, needed, err,
			      sizeof(err)) < 0)
			cli_err("simulate", "cost view: %s", err);
		else
			for (int r = 0; r < n; r++)
				runs[r].budget_needed = needed[r];
	}

	if (!strcmp(format, "json"))
		print_json(stdout, &in, runs, n, cost ? cost_target : NAN, min_coverage, &fr);
	else if (!strcmp(format, "csv"))
		print_csv(stdout, runs, n, &fr);
	else
		print_table(stdout, &in, runs, n, weekly, cost ? target_desc : NULL, &fr);
	rc = EXIT_OK;
	if (report_f.f && write_report(&report_f, &in, runs, n, rsrc, n_rhythm,
				       cost ? cost_target : NAN, target_desc) < 0)
		rc = EXIT_FAIL;
	if (per_source_f.f && write_per_source(&per_source_f, &in, runs, n) < 0)
		rc = EXIT_FAIL;
	if (fetch_log_f.f && commit_output(&fetch_log_f, "--fetch-log") < 0)
		rc = EXIT_FAIL;
	if (faults.n && strcmp(format, "table") == 0) {
		printf("injected faults (%s, %zu rows):", faults_path, faults.n);
		for (int r = 0; r < n; r++)
			printf("%s %s %" PRIu64 " failed requests, %" PRIu64 " host pauses",
			       r ? ";" : "", runs[r].spec, runs[r].m.failed_requests,
			       runs[r].m.host_pauses);
		printf("\n");
	}
	fr_faults_free(&faults);
	for (int r = 0; r < n; r++)
		fr_metrics_free(&runs[r].m);
	runinput_free(&in);
	return rc;
}
