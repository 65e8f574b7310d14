/* cmd_world.c - `freshet world`: draws a synthetic world and writes its
 * trace, sources and true intensities to a directory. */
#include "cmd.h"
#include "opt.h"

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
    "                     [--seed S]\n";

static const char ABOUT[] =
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
    "(" FR_PAGES_HEADER ").\n";

static const char EXAMPLES[] =
    "  freshet world --out w                     the thesis-sized world\n"
    "  freshet world --out w --sources 500 --days 30 --seed 7\n"
    "  freshet world --kind pages --out p --pages 2000\n";

/* The options, typed by the table; *_seen says which were given. */
struct world_args {
	const char *out, *kind, *shape;
	uint64_t sources, seed, pages, servers;
	double days;
	int sources_seen, days_seen, seed_seen, shape_seen, pages_seen, servers_seen;
};

/* --kind pages: a repository of changing pages (sim/pages.h). */
static int
world_pages(const struct world_args *wa)
{
	struct fr_pages_params p;
	struct fr_pages_world pw;
	char err[FR_ERRLEN], t0[32], t1[32];
	size_t n_changes = 0;
	const char *out = wa->out;

	fr_pages_defaults(&p);
	if (wa->pages_seen)
		p.n_pages = (uint32_t)wa->pages;
	if (wa->servers_seen)
		p.n_servers = (uint32_t)wa->servers;
	if (wa->days_seen)
		p.days = wa->days;
	if (wa->seed_seen)
		p.seed = wa->seed;
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
	struct world_args wa = {0};
	struct fr_world_params p;
	struct fr_world w;
	char err[FR_ERRLEN], t0[32], t1[32];
	size_t n_items = 0;
	const struct opt opts[] = {
	    {.name = "kind", .kind = OPT_STRING, .arg = "K", .def = "feeds", .dest = &wa.kind,
	     .help = "feeds or pages"},
	    {.name = "out", .kind = OPT_STRING, .arg = "DIR", .dest = &wa.out,
	     .help = "output directory (required)"},
	    {.name = "sources", .kind = OPT_UINT, .dest = &wa.sources, .seen = &wa.sources_seen,
	     .min = 1, .max = UINT32_MAX, .want = "a whole number >= 1",
	     .help = "number of sources (default 4106)"},
	    {.name = "days", .kind = OPT_DOUBLE, .arg = "D", .dest = &wa.days,
	     .seen = &wa.days_seen, .flags = OPT_GT_MIN | OPT_NO_MAX, .want = "a positive number",
	     .help = "length in days (default 177; pages: 30)"},
	    {.name = "seed", .kind = OPT_UINT, .arg = "S", .dest = &wa.seed, .seen = &wa.seed_seen,
	     .flags = OPT_NO_MAX, .want = "a whole number >= 0",
	     .help = "random seed, 0..2^64-1 (default 1)"},
	    {.name = "shape", .kind = OPT_STRING, .arg = "NAME", .def = "default", .dest = &wa.shape,
	     .seen = &wa.shape_seen,
	     .help = "default; flat (narrow rate spread, flat day profiles); regime (70% of "
		     "sources change rate strongly, more late starts and stops); bursty (40% "
		     "follow-ups, in chains)"},
	    {.name = "pages", .kind = OPT_UINT, .dest = &wa.pages, .seen = &wa.pages_seen, .min = 1,
	     .max = UINT32_MAX, .want = "a whole number >= 1",
	     .help = "pages: number of pages (default 10000)"},
	    {.name = "servers", .kind = OPT_UINT, .arg = "M", .dest = &wa.servers,
	     .seen = &wa.servers_seen, .min = 1, .max = UINT32_MAX, .want = "a whole number >= 1",
	     .help = "pages: number of servers, at most N (default 100)"},
	    OPT_TABLE_END};
	const struct opt_cmd cmd = {.name = "world", .usage = USAGE, .about = ABOUT, .opts = opts,
				    .examples = EXAMPLES};
	int prc;

	if ((prc = opt_parse(&cmd, argc, argv)) != 0)
		return opt_exit(prc);
	if (!wa.out || !*wa.out) {
		cli_err("world", "--out DIR is required (try --help)");
		return EXIT_USAGE;
	}
	if (!strcmp(wa.kind, "pages")) {
		if (wa.sources_seen || wa.shape_seen) {
			cli_err("world", "%s is for --kind feeds; pages take --pages and --servers",
			        wa.sources_seen ? "--sources" : "--shape");
			return EXIT_USAGE;
		}
		return world_pages(&wa);
	}
	if (strcmp(wa.kind, "feeds") != 0) {
		cli_err("world", "unknown kind '%s' (feeds or pages)", wa.kind);
		return EXIT_USAGE;
	}
	if (wa.pages_seen || wa.servers_seen) {
		cli_err("world", "%s is for --kind pages", wa.pages_seen ? "--pages" : "--servers");
		return EXIT_USAGE;
	}
	if (fr_world_preset(&p, wa.shape) < 0) {
		cli_err("world", "unknown shape '%s' (default, flat, regime or bursty)", wa.shape);
		return EXIT_USAGE;
	}
	if (wa.sources_seen)
		p.n_sources = (uint32_t)wa.sources;
	if (wa.days_seen)
		p.days = wa.days;
	if (wa.seed_seen)
		p.seed = wa.seed;
	if (fr_world_generate(&w, &p, err, sizeof(err)) < 0) {
		/* Out-of-range values the parser let through (e.g. --days 1e6). */
		cli_err("world", "%s", err);
		return strstr(err, "invalid world") ? EXIT_USAGE : EXIT_FAIL;
	}
	if (fr_world_write_count(&w, wa.out, &n_items, err, sizeof(err)) < 0) {
		cli_err("world", "%s", err);
		fr_world_free(&w);
		return EXIT_FAIL;
	}
	fr_time_format(w.p.start_s, t0, sizeof(t0));
	fr_time_format(w.end_s, t1, sizeof(t1));
	fprintf(
	    stderr,
	    "freshet world: %u sources, %zu items, %g days %s .. %s (shape %s, seed %llu) -> %s\n",
	    w.p.n_sources, n_items, w.p.days, t0, t1, wa.shape, (unsigned long long)w.p.seed,
	    wa.out);
	fr_world_free(&w);
	return EXIT_OK;
}
