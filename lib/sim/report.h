/* report.h - the simulation report: one self-contained HTML page (inline SVG,
 * no external assets, no JavaScript) with the side-by-side table, mean delay
 * per week, items fetched per week, the delay CDF of each policy, and the
 * learned 24-hour rhythm of a few sources. Pure output to a caller's FILE. */
#ifndef FR_SIM_REPORT_H
#define FR_SIM_REPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sim/metrics.h"

struct fr_report_run {
	const char *label;          /* the policy spec, e.g. "air-balloon:inertia=960" */
	const struct fr_metrics *m; /* its metrics (weekly figures, every delay) */
	double budget_needed;       /* cost view: calls per window this policy needs to
				     * reach the report's target delay; NAN if not computed,
				     * INFINITY if unreachable */
	int has_rhythm;             /* rhythm below is set */
	const double *rhythm;       /* [n_rhythm * 24] learned activity per UTC hour */
};

struct fr_report {
	const char *title;          /* e.g. "freshet simulate: world build/demo-world" */
	const char *input_desc;     /* what was replayed (path, sources, items, span) */
	const char *budget_desc;    /* e.g. "600 calls / 600 s (burst)" */
	double window_s;            /* the budget's window, for the cost view's units */
	double target_delay_s;      /* cost view target (NAN: no cost view) */
	const char *target_desc;    /* e.g. "round robin's mean delay at 600/10m" */
	size_t n_runs;
	const struct fr_report_run *runs;
	uint32_t n_rhythm;          /* sources whose rhythm is shown */
	const char *const *rhythm_names; /* [n_rhythm] their names */
	const double *true_rhythm;  /* [n_rhythm * 24] true relative intensity per UTC
				     * hour (synthetic worlds), or NULL */
};

/* Writes the page to f. Returns 0, or -1 with err set (a write error). */
int fr_report_html(FILE *f, const struct fr_report *r, char *err, size_t errlen);

#endif
