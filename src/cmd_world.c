/* cmd_world.c - `freshet world`: draws a synthetic world and writes its
 * trace, sources and true intensities to a directory. */
#include "cmd.h"

#include "core/err.h"
#include "core/timefmt.h"
#include "sim/pages.h"
#include "sim/world.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char USAGE[] =
    "usage: freshet world --out DIR [--sources N] [--days D] [--seed S]\n"
    "                     [--shape default|flat|regime|bursty]\n"
    "       freshet world --kind pages --out DIR [--pages N] [--servers M] [--days D]\n"
    "                     [--seed S]\n"
    "\n"
    "Draws a synthetic world shaped like the air-balloon thesis' data set (4,106\n"
    "sources, 177 days from 2012-10-01, about 1.1 M items, heavy-tailed rates, the\n"
    "hourly and weekday rhythm of seed 001) and writes to DIR (created if needed):\n"
    "  trace.csv    source,time (Unix seconds), sorted by time\n"
    "  sources.csv  source,host,group,weight (weight: popularity)\n"
    "  world.csv    the parameters and each source's true intensity\n"
    "The same seed gives the same files.\n"
    "\n"
    "With --kind pages: a repository of pages that change (seed 002): pages on\n"
    "servers, a heavy-tailed (Zipf) number of pages per server, Poisson change\n"
    "rates (lognormal, mean 1 a day, some very fast) and importance weights\n"
    "(lognormal, mean 1). Writes trace.csv (the change events; a page is a\n"
    "source), sources.csv (host = server, weight = importance), world.csv (the\n"
    "true, constant rates, for --world) and pages.csv\n"
    "(" FR_PAGES_HEADER ").\n"
    "\n"
    "options:\n"
    "  --kind K       feeds (default) or pages\n"
    "  --out DIR      output directory (required)\n"
    "  --sources N    number of sources (default 4106)\n"
    "  --days D       length in days (default 177)\n"
    "  --seed S       random seed, 0..2^64-1 (default 1)\n"
    "  --shape NAME   default; flat (narrow rate spread, flat day profiles);\n"
    "                 regime (70% of sources change rate strongly, more late\n"
    "                 starts and stops); bursty (40% follow-ups, in chains)\n"
    "  --pages N      pages: number of pages (default 10000)\n"
    "  --servers M    pages: number of servers, at most N (default 100)\n"
    "                 (pages: --days defaults to 30)\n"
    "  --help         show this help\n";

static int
parse_u64(const char *s, uint64_t max, uint64_t *out)
{
	char *end;

	if (!*s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (*end || errno == ERANGE || v > max)
		return -1;
	*out = v;
	return 0;
}

static int
parse_pos_double(const char *s, double *out)
{
	char *end;

	if (!*s || *s == ' ' || *s == '\t')
		return -1;
	double v = strtod(s, &end);
	if (*end || !isfinite(v) || !(v > 0))
		return -1;
	*out = v;
	return 0;
}

/* --kind pages: a repository of changing pages (sim/pages.h). */
static int
world_pages(const char *out, const char *pages_arg, const char *servers_arg,
            const char *days_arg, const char *seed_arg)
{
	struct fr_pages_params p;
	struct fr_pages_world pw;
	char err[FR_ERRLEN], t0[32], t1[32];
	size_t n_changes = 0;
	uint64_t u;

	fr_pages_defaults(&p);
	if (pages_arg) {
		if (parse_u64(pages_arg, UINT32_MAX, &u) < 0 || u == 0) {
			cli_err("world", "--pages wants a whole number >= 1, not '%s'", pages_arg);
			return EXIT_USAGE;
		}
		p.n_pages = (uint32_t)u;
	}
	if (servers_arg) {
		if (parse_u64(servers_arg, UINT32_MAX, &u) < 0 || u == 0) {
			cli_err("world", "--servers wants a whole number >= 1, not '%s'",
			        servers_arg);
			return EXIT_USAGE;
		}
		p.n_servers = (uint32_t)u;
	}
	if (days_arg && parse_pos_double(days_arg, &p.days) < 0) {
		cli_err("world", "--days wants a positive number, not '%s'", days_arg);
		return EXIT_USAGE;
	}
	if (seed_arg) {
		if (parse_u64(seed_arg, UINT64_MAX, &u) < 0) {
			cli_err("world", "--seed wants a whole number >= 0, not '%s'", seed_arg);
			return EXIT_USAGE;
		}
		p.seed = u;
	}
	if (fr_pages_generate(&pw, &p, err, sizeof(err)) < 0) {
		cli_err("world", "%s", err);
		return strstr(err, "invalid repository") ? EXIT_USAGE : EXIT_FAIL;
	}
	if (fr_pages_write(&pw, out, &n_changes, err, sizeof(err)) < 0) {
		cli_err("world", "%s", err);
		fr_pages_free(&pw);
		return EXIT_FAIL;
	}
	fr_time_format(pw.p.start_s, t0, sizeof(t0));
	fr_time_format(pw.end_s, t1, sizeof(t1));
	fprintf(stderr,
	        "freshet world: %u pages on %u servers, %zu changes, %g days %s .. %s (seed %llu) "
	        "-> %s\n",
	        pw.p.n_pages, pw.p.n_servers, n_changes, pw.p.days, t0, t1,
	        (unsigned long long)pw.p.seed, out);
	fr_pages_free(&pw);
	return EXIT_OK;
}

int
cmd_world(int argc, char **argv)
{
	const char *out = NULL, *shape = "default";
	const char *sources_arg = NULL, *days_arg = NULL, *seed_arg = NULL;
	const char *kind = "feeds", *pages_arg = NULL, *servers_arg = NULL, *shape_arg = NULL;
	struct fr_world_params p;
	struct fr_world w;
	char err[FR_ERRLEN], t0[32], t1[32];
	size_t n_items = 0;
	uint64_t u;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *const names[] = {"--out",  "--sources", "--days",   "--seed",
				       "--shape", "--kind",   "--pages", "--servers"};
		const char **const slots[] = {&out,       &sources_arg, &days_arg,  &seed_arg,
					&shape_arg, &kind,        &pages_arg, &servers_arg};
		size_t n = sizeof(names) / sizeof(names[0]);

		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			fputs(USAGE, stdout);
			return EXIT_OK;
		}
		if (cli_take_option("world", names, slots, n, argc, argv, &i) != 0)
			return EXIT_USAGE;
	}
	if (!out || !*out) {
		cli_err("world", "--out DIR is required (try --help)");
		return EXIT_USAGE;
	}
	if (!strcmp(kind, "pages")) {
		if (sources_arg || shape_arg) {
			cli_err("world", "%s is for --kind feeds; pages take --pages and --servers",
			        sources_arg ? "--sources" : "--shape");
			return EXIT_USAGE;
		}
		return world_pages(out, pages_arg, servers_arg, days_arg, seed_arg);
	}
	if (strcmp(kind, "feeds") != 0) {
		cli_err("world", "unknown kind '%s' (feeds or pages)", kind);
		return EXIT_USAGE;
	}
	if (pages_arg || servers_arg) {
		cli_err("world", "%s is for --kind pages", pages_arg ? "--pages" : "--servers");
		return EXIT_USAGE;
	}
	if (shape_arg)
		shape = shape_arg;
	if (fr_world_preset(&p, shape) < 0) {
		cli_err("world", "unknown shape '%s' (default, flat, regime or bursty)", shape);
		return EXIT_USAGE;
	}
	if (sources_arg) {
		if (parse_u64(sources_arg, UINT32_MAX, &u) < 0 || u == 0) {
			cli_err("world", "--sources wants a whole number >= 1, not '%s'",
			        sources_arg);
			return EXIT_USAGE;
		}
		p.n_sources = (uint32_t)u;
	}
	if (days_arg && parse_pos_double(days_arg, &p.days) < 0) {
		cli_err("world", "--days wants a positive number, not '%s'", days_arg);
		return EXIT_USAGE;
	}
	if (seed_arg) {
		if (parse_u64(seed_arg, UINT64_MAX, &u) < 0) {
			cli_err("world", "--seed wants a whole number >= 0, not '%s'", seed_arg);
			return EXIT_USAGE;
		}
		p.seed = u;
	}
	if (fr_world_generate(&w, &p, err, sizeof(err)) < 0) {
		/* Out-of-range values the parser let through (e.g. --days 1e6). */
		cli_err("world", "%s", err);
		return strstr(err, "invalid world") ? EXIT_USAGE : EXIT_FAIL;
	}
	if (fr_world_write_count(&w, out, &n_items, err, sizeof(err)) < 0) {
		cli_err("world", "%s", err);
		fr_world_free(&w);
		return EXIT_FAIL;
	}
	fr_time_format(w.p.start_s, t0, sizeof(t0));
	fr_time_format(w.end_s, t1, sizeof(t1));
	fprintf(
	    stderr,
	    "freshet world: %u sources, %zu items, %g days %s .. %s (shape %s, seed %llu) -> %s\n",
	    w.p.n_sources, n_items, w.p.days, t0, t1, shape, (unsigned long long)w.p.seed, out);
	fr_world_free(&w);
	return EXIT_OK;
}
