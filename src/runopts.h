/* runopts.h - what simulate and tune share: the input (a trace, or a world
 * directory) and the budget, parsed from the command line. */
#ifndef FR_RUNOPTS_H
#define FR_RUNOPTS_H

#include <stdint.h>
#include <stdio.h>

#include "opt.h"
#include "sim/sim.h"
#include "sim/trace.h"
#include "sim/world.h"

/* Longest run simulated, in years: a trace with one absurd time (year 2500)
 * would otherwise make a window of centuries. NOTE: keep in sync with
 * MAX_SPAN_S in lib/sim/sim.c. */
#define RUNOPTS_MAX_SPAN_YEARS 50
#define RUNOPTS_STR_(x) #x
#define RUNOPTS_STR(x) RUNOPTS_STR_(x)

struct runopts {
	const char *trace;
	const char *sources;
	const char *world;
	const char *budget;  /* "600/10m" or "600/10m@4106" (scaled to the source count) */
	int mode;            /* enum fr_rl_mode */
	const char *start, *end;
	double host_gap_s;
	uint64_t seed;       /* 0 means the default, 1 */
};

/* The options simulate and tune share, as entries of their option tables
 * (opt.h), with o's fields as destinations. Values the table cannot check
 * (budget, window) are checked by runinput_load. */
#define RUNOPTS_TABLE(o)                                                                           \
	{.name = "trace", .kind = OPT_STRING, .arg = "FILE", .dest = &(o)->trace,                  \
	 .section = "input (one of)", .help = "CSV source,time[,weight] (gzip accepted)"},        \
	{.name = "sources", .kind = OPT_STRING, .arg = "FILE", .dest = &(o)->sources,              \
	 .help = "optional CSV source,host,group,weight"},                                        \
	{.name = "world", .kind = OPT_STRING, .arg = "DIR", .dest = &(o)->world,                   \
	 .help = "a world made by 'freshet world' (trace, sources, true rates)"},                \
	{.name = "budget", .kind = OPT_STRING, .arg = "N/W[@S]", .def = "600/10m@4106",            \
	 .dest = &(o)->budget, .section = "run",                                                  \
	 .help = "calls per window for each rate-limit group, e.g. 600/10m; with @S the budget " \
		 "is for S sources, scaled to this trace's count (600/10m@4106 on 2221 sources " \
		 "gives 325/10m)"},                                                               \
	OPT_MODE(&(o)->mode, "burst",                                                              \
		 "burst: N calls at the start of each window (the seed's, so the default here; " \
		 "'freshet run' paces by default); paced: one call every W/N"),                   \
	{.name = "start", .kind = OPT_STRING, .arg = "T", .dest = &(o)->start,                     \
	 .help = "run window [start, end), Unix seconds or RFC 3339 (default: the world's span, " \
		 "or the trace's first item to its last plus one budget window W, so the last "  \
		 "items can be found); at most " RUNOPTS_STR(RUNOPTS_MAX_SPAN_YEARS) " years"},    \
	{.name = "end", .kind = OPT_STRING, .arg = "T", .dest = &(o)->end,                         \
	 .help = "the end of the run window (see --start)"},                                      \
	OPT_GAP(&(o)->host_gap_s, "0", 0),                                                         \
	OPT_SEED(&(o)->seed, "1", "seed for policies that draw at random")

struct runinput {
	struct fr_trace tr;
	struct fr_world w;
	int has_world;
	struct fr_sim_config cfg;
	char budget_desc[96];
};

/* Checks the options (budget and window: bad usage is found before the
 * slow load), then loads the input and fills the
 * simulation config. Returns 0, 1 on a failure (message printed), 2 on bad
 * usage (message printed). runinput_free is safe after any return. */
int runinput_load(struct runinput *in, const struct runopts *o, const char *sub);
void runinput_free(struct runinput *in);

/* Prints a progress bar for label on stderr; arg is a struct progress. */
struct progress {
	const char *label;
	int shown;
};
void progress_cb(void *arg, double done);
void progress_end(struct progress *p);

/* Formats n with thousands separators. Returns buf. */
char *fmt_count(uint64_t n, char *buf, size_t len);

#endif
