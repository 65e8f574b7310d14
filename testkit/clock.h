/* clock.h - the serve clock of `freshet serve`: trace time runs from a start
 * at a chosen speed from the moment the server starts, and stops at an end. */
#ifndef FR_TESTKIT_CLOCK_H
#define FR_TESTKIT_CLOCK_H

/* Trace time T at wall time w is start_s + (w - wall0_s) * speed, never
 * below start_s and frozen at end_s. A trace time t shows in wall time as
 * wall0_s + (t - start_s) / speed (its "wall-equivalent"), so a crawler that
 * lives in wall time sees publication times on its own clock. Plain data:
 * set once before serving, then read by any thread. */
struct fr_serve_clock {
	double start_s; /* trace time at wall0_s */
	double end_s;   /* trace time at which the clock stops (>= start_s) */
	double speed;   /* trace seconds per wall second (> 0) */
	double wall0_s; /* wall time (Unix seconds) at which the clock started */
};

/* Wall time now (CLOCK_REALTIME), in seconds with microseconds. */
double fr_serve_wall_now(void);

/* Trace time at wall time wall_s. */
double fr_serve_clock_trace(const struct fr_serve_clock *c, double wall_s);

/* Wall-equivalent of trace time t_s. */
double fr_serve_clock_wall(const struct fr_serve_clock *c, double t_s);

/* Share of the clock's span [start_s, end_s] elapsed at trace time t_s, in
 * [0, 1] (1 when the span is empty). */
double fr_serve_clock_frac(const struct fr_serve_clock *c, double t_s);

#endif
