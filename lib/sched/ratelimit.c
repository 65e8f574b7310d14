/* ratelimit.c - sliding window over a ring of the last N call times. */
#include "sched/ratelimit.h"

#include "core/err.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int
fr_rl_init(struct fr_ratelimit *rl, uint32_t calls, double window_s, enum fr_rl_mode mode)
{
	memset(rl, 0, sizeof(*rl));
	if (calls == 0 || !(window_s > 0))
		return -1;
	rl->ring = malloc(calls * sizeof(*rl->ring));
	if (!rl->ring)
		return -1;
	rl->calls = calls;
	rl->window_s = window_s;
	rl->mode = mode;
	rl->last_s = -INFINITY;
	return 0;
}

void
fr_rl_free(struct fr_ratelimit *rl)
{
	free(rl->ring);
	rl->ring = NULL;
}

double
fr_rl_next(const struct fr_ratelimit *rl, double now_s)
{
	double t = now_s;

	/* Window full: the oldest of the last N calls must leave it first. */
	if (rl->count == rl->calls && rl->ring[rl->head] + rl->window_s > t)
		t = rl->ring[rl->head] + rl->window_s;
	if (rl->mode == FR_RL_PACED && rl->last_s + rl->window_s / rl->calls > t)
		t = rl->last_s + rl->window_s / rl->calls;
	return t;
}

uint32_t
fr_rl_available(const struct fr_ratelimit *rl, double t_s)
{
	if (rl->mode == FR_RL_PACED)
		return fr_rl_next(rl, t_s) <= t_s;
	/* Calls in the window (t - W, t]: those at or after t - W + ... i.e.
	 * every recorded call newer than t - W. */
	uint32_t in = 0;
	for (uint32_t i = rl->count; i > 0; i--) {
		double c = rl->ring[(rl->head + i - 1) % rl->calls];
		if (c + rl->window_s <= t_s)
			break;
		in++;
	}
	return rl->calls - in;
}

void
fr_rl_record(struct fr_ratelimit *rl, double t_s)
{
	if (rl->count < rl->calls) {
		rl->ring[(rl->head + rl->count) % rl->calls] = t_s;
		rl->count++;
	} else {
		rl->ring[rl->head] = t_s;
		rl->head = (rl->head + 1) % rl->calls;
	}
	rl->last_s = t_s;
}

int
fr_duration_parse(const char *s, double *out_s)
{
	char *end;
	if (isspace((unsigned char)s[0])) /* strtod would skip them */
		return -1;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || end == s || !isfinite(v) || v < 0)
		return -1;
	double unit = 1;
	if (*end) {
		switch (*end) {
		case 's': unit = 1; break;
		case 'm': unit = 60; break;
		case 'h': unit = 3600; break;
		case 'd': unit = 86400; break;
		case 'w': unit = 604800; break;
		default: return -1;
		}
		if (end[1])
			return -1;
	}
	*out_s = v * unit;
	return 0;
}

int
fr_budget_parse(const char *s, double *calls, double *window_s, char *err, unsigned long errlen)
{
	const char *slash = strchr(s, '/');
	char *end;

	/* strtod would skip leading blanks; a budget has none anywhere. */
	for (const char *p = s; *p; p++)
		if (isspace((unsigned char)*p))
			return fr_errf(err, errlen, "budget '%s': blanks are not allowed, e.g. 600/10m",
				       s);
	if (!slash)
		return fr_errf(err, errlen, "budget '%s': expected CALLS/WINDOW, e.g. 600/10m", s);
	errno = 0;
	double n = strtod(s, &end);
	if (errno || end != slash || !(n >= 1) || n > 1e9 || n != floor(n))
		return fr_errf(err, errlen, "budget '%s': calls must be a whole number >= 1", s);
	double w;
	if (fr_duration_parse(slash + 1, &w) < 0 || !(w > 0))
		return fr_errf(err, errlen, "budget '%s': window must be a duration like 10m or 600s",
			       s);
	*calls = n;
	*window_s = w;
	return 0;
}
