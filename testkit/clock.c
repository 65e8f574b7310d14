/* clock.c - the serve clock: wall time mapped to trace time and back. */
#include "testkit/clock.h"

#include <time.h>

double
fr_serve_wall_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)(ts.tv_nsec / 1000) * 1e-6;
}

double
fr_serve_clock_trace(const struct fr_serve_clock *c, double wall_s)
{
	double t = c->start_s + (wall_s - c->wall0_s) * c->speed;

	if (t < c->start_s)
		return c->start_s;
	return t > c->end_s ? c->end_s : t;
}

double
fr_serve_clock_wall(const struct fr_serve_clock *c, double t_s)
{
	return c->wall0_s + (t_s - c->start_s) / c->speed;
}

double
fr_serve_clock_frac(const struct fr_serve_clock *c, double t_s)
{
	double span = c->end_s - c->start_s;

	if (!(span > 0))
		return 1;
	if (t_s <= c->start_s)
		return 0;
	return t_s >= c->end_s ? 1 : (t_s - c->start_s) / span;
}
