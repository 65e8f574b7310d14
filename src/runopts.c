/* runopts.c - shared input loading for simulate and tune. */
#include "runopts.h"

#include "cmd.h"
#include "core/err.h"
#include "core/timefmt.h"
#include "sched/ratelimit.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_SPAN_YEARS RUNOPTS_MAX_SPAN_YEARS
#define YEAR_S (365.25 * 86400)

/* A budget as given: N/W (calls, window) and the S of @S (0 without). */
struct budget {
	double calls, window_s, scale_to;
};

/* Everything that can be checked without the input. Fills c (seed, mode,
 * host gap, and start and end when given) and b. Returns EXIT_OK or
 * EXIT_USAGE (message printed). */
static int
check_usage(const struct runopts *o, const char *sub, struct fr_sim_config *c, struct budget *b)
{
	const char *why, *budget = o->budget; /* the table gives its default */
	char bbuf[128], err[FR_ERRLEN];

	c->seed = o->seed ? o->seed : 1; /* 0 means the default, as it always has */
	c->mode = o->mode == FR_RL_PACED ? FR_RL_PACED : FR_RL_BURST;
	c->host_gap_s = o->host_gap_s;
	if (o->start && fr_time_parse(o->start, strlen(o->start), &c->start_s, &why) < 0) {
		cli_err(sub, "--start %s: %s", o->start, why);
		return EXIT_USAGE;
	}
	if (o->end && fr_time_parse(o->end, strlen(o->end), &c->end_s, &why) < 0) {
		cli_err(sub, "--end %s: %s", o->end, why);
		return EXIT_USAGE;
	}
	if (o->start && o->end && !(c->end_s > c->start_s)) {
		cli_err(sub, "the run window is empty (end is not after start)");
		return EXIT_USAGE;
	}
	/* strtod skips leading blanks: refuse them anywhere, @S included. */
	for (const char *p = budget; *p; p++)
		if (isspace((unsigned char)*p)) {
			cli_err(sub, "--budget '%s': blanks are not allowed, e.g. 600/10m", budget);
			return EXIT_USAGE;
		}
	if (strlen(budget) >= sizeof(bbuf)) {
		cli_err(sub, "--budget %.40s...: too long; expected N/W[@S], e.g. 600/10m", budget);
		return EXIT_USAGE;
	}
	snprintf(bbuf, sizeof(bbuf), "%s", budget);
	char *at = strchr(bbuf, '@');
	b->scale_to = 0;
	if (at) {
		const char *sv = at + 1;
		char *end;

		*at = '\0';
		errno = 0;
		b->scale_to = strtod(sv, &end);
		if (!isdigit((unsigned char)*sv) || errno || *end || !isfinite(b->scale_to) ||
		    !(b->scale_to >= 1)) {
			cli_err(sub, "--budget %s: expected N/W@SOURCES, e.g. 600/10m@4106", budget);
			return EXIT_USAGE;
		}
	}
	if (fr_budget_parse(bbuf, &b->calls, &b->window_s, err, sizeof(err)) < 0) {
		cli_err(sub, "--budget: %s", err);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

int
runinput_load(struct runinput *in, const struct runopts *o, const char *sub)
{
	char err[FR_ERRLEN], path[4096], spath[4096];
	const char *trace = o->trace, *sources = o->sources;
	struct fr_sim_config *c = &in->cfg;
	struct budget b;

	memset(in, 0, sizeof(*in));
	if (!!o->trace == !!o->world) {
		cli_err(sub, "give exactly one of --trace and --world");
		return EXIT_USAGE;
	}
	/* Usage first: a typo should not wait for a trace of millions of rows. */
	if (check_usage(o, sub, c, &b) != EXIT_OK)
		return EXIT_USAGE;
	if (o->world) {
		if (fr_world_load(&in->w, o->world, err, sizeof(err)) < 0) {
			cli_err(sub, "%s", err);
			return EXIT_FAIL;
		}
		in->has_world = 1;
		snprintf(path, sizeof(path), "%s/trace.csv", o->world);
		snprintf(spath, sizeof(spath), "%s/sources.csv", o->world);
		trace = path;
		if (!sources)
			sources = spath;
	}
	if (fr_trace_load(&in->tr, trace, sources, err, sizeof(err)) < 0) {
		cli_err(sub, "%s", err);
		return EXIT_FAIL;
	}

	double calls = b.calls;
	if (b.scale_to > 0) {
		calls = floor(calls * in->tr.n_sources / b.scale_to + 0.5);
		if (calls < 1)
			calls = 1;
	}
	c->calls = (uint32_t)calls;
	c->window_s = b.window_s;
	snprintf(in->budget_desc, sizeof(in->budget_desc), "%" PRIu32 " calls / %g s%s (%s)",
		 c->calls, c->window_s, b.scale_to > 0 ? " scaled" : "",
		 c->mode == FR_RL_PACED ? "paced" : "burst");

	if (in->has_world) {
		c->intensity = fr_world_intensity_cb;
		c->intensity_arg = &in->w;
	}
	if (!o->start)
		c->start_s = in->has_world ? in->w.p.start_s : in->tr.start_s;
	if (!o->end) {
		/* A trace's last items need time to be found: one budget window
		 * after the last gives every source a chance in burst mode. */
		c->end_s = in->has_world ? in->w.end_s : in->tr.end_s + c->window_s;
	}
	if (!(c->end_s > c->start_s)) {
		cli_err(sub, "the run window is empty (end is not after start)");
		return EXIT_USAGE;
	}
	if (c->end_s - c->start_s > MAX_SPAN_YEARS * YEAR_S) {
		char a[32], e[32];

		cli_err(sub,
			"the run window %s .. %s spans %.0f years; at most %d can be simulated: "
			"narrow it with --start/--end%s",
			fr_time_format(c->start_s, a, sizeof(a)), fr_time_format(c->end_s, e, sizeof(e)),
			floor((c->end_s - c->start_s) / YEAR_S), MAX_SPAN_YEARS,
			o->start && o->end ? "" : " (or look for a wrong time in the trace)");
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

void
runinput_free(struct runinput *in)
{
	fr_trace_free(&in->tr);
	if (in->has_world)
		fr_world_free(&in->w);
}

void
progress_cb(void *arg, double done)
{
	struct progress *p = arg;
	int width = 40, fill = (int)(done * width + 0.5);

	if (!isatty(STDERR_FILENO))
		return;
	if (fill > width)
		fill = width;
	fprintf(stderr, "\r%-24.24s [", p->label);
	for (int i = 0; i < width; i++)
		fputc(i < fill ? '#' : ' ', stderr);
	fprintf(stderr, "] %3d%%", (int)(done * 100 + 0.5));
	fflush(stderr);
	p->shown = 1;
}

void
progress_end(struct progress *p)
{
	if (p->shown) {
		fprintf(stderr, "\r%-80s\r", "");
		fflush(stderr);
	}
	p->shown = 0;
}

char *
fmt_count(uint64_t n, char *buf, size_t len)
{
	char tmp[32];
	int k = snprintf(tmp, sizeof(tmp), "%" PRIu64, n), o = 0;

	for (int i = 0; i < k && (size_t)o + 2 < len; i++) {
		if (i > 0 && (k - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = tmp[i];
	}
	buf[o] = '\0';
	return buf;
}
