/* cmd_world.c - `freshet world`: draws a synthetic world and writes its
 * trace, sources and true intensities to a directory. */
#include "cmd.h"

#include "core/err.h"
#include "core/timefmt.h"
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
    "\n"
    "Draws a synthetic world shaped like the air-balloon thesis' data set (4,106\n"
    "sources, 177 days from 2012-10-01, about 1.1 M items, heavy-tailed rates, the\n"
    "hourly and weekday rhythm of seed 001) and writes to DIR (created if needed):\n"
    "  trace.csv    source,time (Unix seconds), sorted by time\n"
    "  sources.csv  source,host,group,weight (weight: popularity)\n"
    "  world.csv    the parameters and each source's true intensity\n"
    "The same seed gives the same files.\n"
    "\n"
    "options:\n"
    "  --out DIR      output directory (required)\n"
    "  --sources N    number of sources (default 4106)\n"
    "  --days D       length in days (default 177)\n"
    "  --seed S       random seed, 0..2^64-1 (default 1)\n"
    "  --shape NAME   default; flat (narrow rate spread, flat day profiles);\n"
    "                 regime (70% of sources change rate strongly, more late\n"
    "                 starts and stops); bursty (40% follow-ups, in chains)\n"
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

int
cmd_world(int argc, char **argv)
{
	const char *out = NULL, *shape = "default";
	const char *sources_arg = NULL, *days_arg = NULL, *seed_arg = NULL;
	struct fr_world_params p;
	struct fr_world w;
	char err[FR_ERRLEN], t0[32], t1[32];
	size_t n_items = 0;
	uint64_t u;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *val = NULL;
		const char *names[] = {"--out", "--sources", "--days", "--seed", "--shape"};
		const char **slots[] = {&out, &sources_arg, &days_arg, &seed_arg, &shape};
		size_t k, n = sizeof(names) / sizeof(names[0]);

		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			fputs(USAGE, stdout);
			return EXIT_OK;
		}
		for (k = 0; k < n; k++) {
			size_t len = strlen(names[k]);
			if (!strncmp(a, names[k], len) && (a[len] == '\0' || a[len] == '='))
				break;
		}
		if (k == n) {
			cli_err("world", "unknown argument '%s' (try --help)", a);
			return EXIT_USAGE;
		}
		val = strchr(a, '=');
		if (val) {
			val++;
		} else if (i + 1 < argc) {
			val = argv[++i];
		} else {
			cli_err("world", "%s needs a value (try --help)", names[k]);
			return EXIT_USAGE;
		}
		*slots[k] = val;
	}
	if (!out || !*out) {
		cli_err("world", "--out DIR is required (try --help)");
		return EXIT_USAGE;
	}
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
