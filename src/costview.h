/* costview.h - "the same delay for fewer requests": for each policy, the
 * budget (calls per window, the window unchanged) it needs to reach a target
 * mean delay, found by bisection on the budget, several policies at once in
 * child processes. */
#ifndef FR_COSTVIEW_H
#define FR_COSTVIEW_H

#include <stddef.h>

#include "runopts.h"

/* For each of the n policy specs, sets needed[i] to the smallest whole
 * number of calls per window (within 2%) at which its mean delay is at most
 * target_s with a coverage of at least min_coverage (0..1; 0 for no bar: a
 * run that leaves more items unfetched has not reached the target),
 * INFINITY if even 16 times the current budget does not reach it, or NAN
 * if its runs failed. The caller sets the bar from the run that set the
 * target (its coverage less a point), not an absolute level: on a small or
 * short trace even a good run misses the items published near the end.
 * Runs up to jobs policies at a time. Returns 0, or -1 with err set when no
 * child could be started. */
int cost_view(const struct runinput *in, const char *const *specs, size_t n, double target_s,
	      double min_coverage, int jobs, double *needed, char *err, size_t errlen);

#endif
