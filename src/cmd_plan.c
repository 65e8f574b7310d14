/* cmd_plan.c - `freshet plan`: revisit frequencies for pages that change,
 * CHO (no politeness) and OPT_POLITE (one request per P per server), with
 * the UNPOLITE and POLITE freshness bounds and per-server totals. */
#include "cmd.h"
#include "opt.h"
#include "dbopt.h"

#include "core/err.h"
#include "plan/alloc.h"
#include "plan/pages.h"
#include "sched/ratelimit.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char USAGE[] =
    "usage: freshet plan --pages FILE --budget C [--gap P] [--out FREQS.csv]\n"
    "                    [--alloc polite|cho] [--format table|json] [--top K]\n";

static const char ABOUT[] =
    "Plans how often to revisit each page of a repository so that the stored\n"
    "copies are as fresh as possible (seed 002, notes-politeness.md). Page i\n"
    "changes as a Poisson process with rate lambda_i and weighs w_i; revisiting\n"
    "it f_i times per second keeps it fresh a fraction\n"
    "A_i = (1 - exp(-lambda_i/f_i)) / (lambda_i/f_i) of the time. Two plans:\n"
    "  CHO         maximises sum w_i A_i with sum f_i = C (Cho & Garcia-Molina);\n"
    "              its freshness is the UNPOLITE bound\n"
    "  OPT_POLITE  the same with at most 1/P revisits per second per server; its\n"
    "              freshness is the POLITE bound\n"
    "Prints the plan's summary: both bounds, pages left at 0 (too fast to keep\n"
    "fresh), the servers with the largest totals and the saturated ones\n"
    "(total = 1/P). With --out, writes one row per page:\n"
    "  page,server,lambda_per_day,weight,freq_per_s,freq_per_day\n"
    "\n"
    "The pages file is CSV with the header page,server,lambda_per_day[,weight]\n"
    "(any column order; lambda_per_day may be called lambda or changes_per_day;\n"
    "rates in changes per day, > 0; weight >= 0, default 1). `freshet world\n"
    "--kind pages` writes one as pages.csv.\n";

static const char EXAMPLES[] =
    "  freshet plan --pages pages.csv --budget 86400/1d\n"
    "  freshet plan --pages pages.csv --budget 0.5 --gap 1m --out freqs.csv\n";

static const char FOOTER[] =
    "Exit status: 0 ok, 1 bad pages file or budget beyond what the servers\n"
    "allow, 2 bad usage.\n";

/* A budget: a positive number of revisits per second, or CALLS/WINDOW. */
static int
parse_budget(const char *s, double *per_s, char *err, size_t errlen)
{
	char *end;
	double calls, window;

	if (strchr(s, '/')) {
		if (fr_budget_parse(s, &calls, &window, err, errlen) != 0)
			return -1;
		*per_s = calls / window;
		return 0;
	}
	errno = 0;
	*per_s = strtod(s, &end);
	if (!*s || *end || errno || !isfinite(*per_s) || !(*per_s > 0) || s[0] == ' ' ||
	    strchr(s, 'x') || strchr(s, 'X'))
		return fr_errf(err, errlen,
		               "budget '%s': expected revisits per second (> 0) or CALLS/WINDOW, "
		               "e.g. 0.5 or 86400/1d",
		               s);
	return 0;
}

/* JSON string body: quotes, backslashes and control bytes escaped. */
static void
json_str(FILE *out, const char *s)
{
	fputc('"', out);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(out, "\\%c", *p);
		else if (*p < 0x20)
			fprintf(out, "\\u%04x", *p);
		else
			fputc(*p, out);
	}
	fputc('"', out);
}

struct server_row {
	uint32_t id;
	size_t pages, zeros;
	double total, cho_total;
	double key; /* total, or exactly 1/P when saturated: ties go by id */
};

static int
by_total_desc(const void *a, const void *b)
{
	const struct server_row *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? 1 : -1;
	return x->id < y->id ? -1 : x->id > y->id;
}

static int
write_csv(const char *path, const struct fr_plan_pages *pp, const double *f, char *err,
          size_t errlen)
{
	FILE *out = fopen(path, "w");
	const struct fr_pages *p = &pp->pages;

	if (!out)
		return fr_errf(err, errlen, "%s: cannot create: %s", path, strerror(errno));
	fputs("page,server,lambda_per_day,weight,freq_per_s,freq_per_day\n", out);
	for (size_t i = 0; i < p->n; i++) {
		dbopt_csv_field(out, fr_plan_pages_page(pp, i));
		fputc(',', out);
		dbopt_csv_field(out, fr_plan_pages_server(pp, p->server[i]));
		fprintf(out, ",%.10g,%.10g,%.10g,%.10g\n", pp->lambda_per_day[i],
		        pp->weight ? pp->weight[i] : 1.0, f[i], f[i] * 86400);
	}
	if (ferror(out) | fclose(out))
		return fr_errf(err, errlen, "%s: write error: %s", path, strerror(errno));
	return 0;
}

int
cmd_plan(int argc, char **argv)
{
	const char *pages_arg = NULL, *budget_arg = NULL, *out_arg = NULL;
	static const char *const FORMATS[] = {"table", "json", NULL};
	static const char *const ALLOCS[] = {"polite", "cho", NULL};
	struct fr_plan_pages pp;
	char err[FR_ERRLEN];
	double budget, gap_s, v_cho, v_pol, cap;
	double *f_cho = NULL, *f_pol = NULL, *pol_total = NULL;
	const double *f_show;
	struct server_row *rows = NULL;
	uint64_t top_u;
	unsigned long top;
	size_t zeros_cho = 0, zeros_pol = 0, n_sat = 0;
	int json, use_cho, fmt, alloc, rc = EXIT_FAIL;
	const struct opt opts[] = {
	    {.name = "pages", .kind = OPT_STRING, .arg = "FILE", .dest = &pages_arg,
	     .help = "the pages file (required; plain or gzip)"},
	    {.name = "budget", .kind = OPT_STRING, .arg = "C", .dest = &budget_arg,
	     .help = "revisits per second (0.5) or CALLS/WINDOW (86400/1d) (required; at most "
		     "servers/P)"},
	    OPT_GAP(&gap_s, "15s", OPT_GT_MIN),
	    {.name = "out", .kind = OPT_STRING, .arg = "FILE", .dest = &out_arg,
	     .help = "write the per-page frequencies there (CSV)"},
	    {.name = "alloc", .kind = OPT_ENUM, .arg = "NAME", .choices = ALLOCS, .def = "polite",
	     .dest = &alloc,
	     .help = "which plan --out and the server table show: polite (OPT_POLITE) or cho"},
	    {.name = "format", .kind = OPT_ENUM, .arg = "NAME", .choices = FORMATS, .def = "table",
	     .dest = &fmt, .help = "table or json"},
	    {.name = "top", .kind = OPT_UINT, .arg = "K", .def = "10", .dest = &top_u,
	     .flags = OPT_NO_MAX, .help = "servers listed by total frequency"},
	    OPT_TABLE_END};
	const struct opt_cmd cmd = {.name = "plan", .usage = USAGE, .about = ABOUT, .opts = opts,
				    .examples = EXAMPLES, .footer = FOOTER};
	int prc = opt_parse(&cmd, argc, argv);

	if (prc)
		return opt_exit(prc);
	top = top_u > ULONG_MAX ? ULONG_MAX : (unsigned long)top_u;
	if (!pages_arg || !*pages_arg) {
		cli_err("plan", "--pages FILE is required (try --help)");
		return EXIT_USAGE;
	}
	if (!budget_arg) {
		cli_err("plan", "--budget C is required, e.g. 0.5 (per second) or 86400/1d");
		return EXIT_USAGE;
	}
	if (parse_budget(budget_arg, &budget, err, sizeof(err)) != 0) {
		cli_err("plan", "%s", err);
		return EXIT_USAGE;
	}
	if (out_arg && !*out_arg) {
		cli_err("plan", "--out needs a file name");
		return EXIT_USAGE;
	}
	json = fmt == 1;
	use_cho = alloc == 1;
	cap = 1 / gap_s;

	if (fr_plan_pages_load(&pp, pages_arg, err, sizeof(err)) != 0) {
		cli_err("plan", "%s", err);
		return EXIT_FAIL;
	}
	const struct fr_pages *p = &pp.pages;
	if (p->n == 0) {
		cli_err("plan", "%s: no pages to plan", pages_arg);
		goto out;
	}
	f_cho = malloc(p->n * sizeof(*f_cho));
	f_pol = malloc(p->n * sizeof(*f_pol));
	rows = calloc(p->n_servers, sizeof(*rows));
	pol_total = calloc(p->n_servers, sizeof(*pol_total));
	if (!f_cho || !f_pol || !rows || !pol_total) {
		cli_err("plan", "out of memory for %zu pages", p->n);
		goto out;
	}
	if (fr_alloc_cho(p, budget, f_cho, NULL, err, sizeof(err)) != 0 ||
	    fr_alloc_opt_polite(p, budget, gap_s, f_pol, err, sizeof(err)) != 0) {
		cli_err("plan", "%s: %s", pages_arg, err);
		goto out;
	}
	v_cho = fr_alloc_value(p, f_cho);
	v_pol = fr_alloc_value(p, f_pol);
	f_show = use_cho ? f_cho : f_pol;
	for (uint32_t s = 0; s < p->n_servers; s++)
		rows[s].id = s;
	for (size_t i = 0; i < p->n; i++) {
		struct server_row *r = &rows[p->server[i]];

		r->pages++;
		r->total += f_show[i];
		r->cho_total += f_cho[i];
		r->zeros += f_show[i] == 0;
		zeros_cho += f_cho[i] == 0;
		zeros_pol += f_pol[i] == 0;
	}
	/* Saturation is of the polite plan, whichever is shown. */
	for (size_t i = 0; i < p->n; i++)
		pol_total[p->server[i]] += f_pol[i];
	for (uint32_t s = 0; s < p->n_servers; s++)
		n_sat += pol_total[s] >= cap * (1 - 1e-9);
	for (uint32_t s = 0; s < p->n_servers; s++)
		rows[s].key = !use_cho && rows[s].total >= cap * (1 - 1e-9) ? cap : rows[s].total;
	qsort(rows, p->n_servers, sizeof(*rows), by_total_desc);
	if (top > p->n_servers)
		top = p->n_servers;

	if (json) {
		int first = 1;

		printf("{\"pages\": %zu, \"servers\": %u, \"weighted\": %s,\n", p->n, p->n_servers,
		       pp.weight ? "true" : "false");
		printf(" \"budget_per_s\": %.10g, \"politeness_s\": %.10g, "
		       "\"capacity_per_s\": %.10g,\n",
		       budget, gap_s, p->n_servers * cap);
		printf(" \"unpolite\": %.10g, \"polite\": %.10g,\n", v_cho, v_pol);
		printf(" \"zero_pages_cho\": %zu, \"zero_pages_polite\": %zu,\n", zeros_cho,
		       zeros_pol);
		printf(" \"alloc\": \"%s\", \"saturated_servers\": %zu,\n",
		       use_cho ? "cho" : "polite", n_sat);
		printf(" \"top_servers\": [");
		for (unsigned long k = 0; k < top; k++) {
			printf("%s\n  {\"server\": ", k ? "," : "");
			json_str(stdout, fr_plan_pages_server(&pp, rows[k].id));
			printf(", \"pages\": %zu, \"freq_per_s\": %.10g, \"freq_per_day\": %.10g, "
			       "\"cho_freq_per_s\": %.10g, \"zero_pages\": %zu}",
			       rows[k].pages, rows[k].total, rows[k].total * 86400,
			       rows[k].cho_total, rows[k].zeros);
		}
		printf("%s],\n \"saturated\": [", top ? "\n " : "");
		for (uint32_t s = 0; s < p->n_servers; s++) {
			if (pol_total[s] < cap * (1 - 1e-9))
				continue;
			printf("%s", first ? "" : ", ");
			json_str(stdout, fr_plan_pages_server(&pp, s));
			first = 0;
		}
		printf("]}\n");
	} else {
		size_t shown_sat = 0;

		printf("pages        %zu on %u servers%s\n", p->n, p->n_servers,
		       pp.weight ? " (weighted)" : "");
		printf("budget       %.6g revisits/s (%.6g a day); politeness %g s allows "
		       "%.6g/s per server, %.6g/s in all\n",
		       budget, budget * 86400, gap_s, cap, p->n_servers * cap);
		printf("UNPOLITE     %.4f  weighted freshness of CHO (no politeness); %zu "
		       "pages at 0\n",
		       v_cho, zeros_cho);
		printf("POLITE       %.4f  weighted freshness of OPT_POLITE; %zu pages at 0\n",
		       v_pol, zeros_pol);
		printf("saturated    %zu of %u servers at 1/P = %.6g/s (OPT_POLITE)\n", n_sat,
		       p->n_servers, cap);
		printf("\ntop %lu servers by total frequency (%s):\n", top,
		       use_cho ? "CHO" : "OPT_POLITE");
		printf("  %-24s %8s %12s %12s %12s %7s\n", "server", "pages", "freq/s", "freq/day",
		       "CHO freq/s", "at 0");
		for (unsigned long k = 0; k < top; k++) {
			const struct server_row *r = &rows[k];

			printf("  %-24s %8zu %12.6g %12.6g %12.6g %7zu%s\n",
			       fr_plan_pages_server(&pp, r->id), r->pages, r->total,
			       r->total * 86400, r->cho_total, r->zeros,
			       !use_cho && r->total >= cap * (1 - 1e-9) ? "  saturated" : "");
			shown_sat += !use_cho && r->total >= cap * (1 - 1e-9);
		}
		if (n_sat > shown_sat)
			printf("  (%zu more saturated servers; --top or --format json lists "
			       "them)\n",
			       n_sat - shown_sat);
	}
	if (out_arg) {
		if (write_csv(out_arg, &pp, f_show, err, sizeof(err)) != 0) {
			cli_err("plan", "%s", err);
			goto out;
		}
		fprintf(stderr, "freshet plan: %zu pages' frequencies (%s) -> %s\n", p->n,
		        use_cho ? "CHO" : "OPT_POLITE", out_arg);
	} else {
		fprintf(stderr, "freshet plan: per-page frequencies not written (add --out "
		                "FREQS.csv)\n");
	}
	rc = EXIT_OK;
out:
	free(f_cho);
	free(f_pol);
	free(rows);
	free(pol_total);
	fr_plan_pages_free(&pp);
	return rc;
}
