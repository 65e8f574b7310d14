/* runopts.h - what simulate and tune share: the input (a trace, or a world
 * directory) and the budget, parsed from the command line. */
#ifndef FR_RUNOPTS_H
#define FR_RUNOPTS_H

#include <stdint.h>
#include <stdio.h>

#include "sim/sim.h"
#include "sim/trace.h"
#include "sim/world.h"

struct runopts {
	const char *trace;
	const char *sources;
	const char *world;
	const char *budget;  /* "600/10m" or "600/10m@4106" (scaled to the source count) */
	const char *mode;    /* burst | paced */
	const char *start, *end;
	const char *host_gap;
	const char *seed;    /* a whole number (default 1) */
};

struct runinput {
	struct fr_trace tr;
	struct fr_world w;
	int has_world;
	struct fr_sim_config cfg;
	char budget_desc[96];
};

/* Handles one option shared by simulate and tune at argv[*i] (advancing *i
 * past its value). Values are checked by runinput_load. Returns 1 if taken,
 * 0 if not ours, -1 on a missing value. */
int runopts_take(struct runopts *o, int argc, char **argv, int *i);
/* The value of the option argv[*i], advancing *i past it; NULL after
 * printing "freshet SUB: OPTION needs a value" when argv[*i] is the last
 * argument. */
const char *runopts_value(const char *sub, int argc, char **argv, int *i);
/* Help lines for the shared options. */
void runopts_help(FILE *f);
/* Checks the options (budget, mode, window, host gap, seed: bad usage is
 * found before the slow load), then loads the input and fills the
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
