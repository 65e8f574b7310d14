/* ratelimit.h - a sliding-window rate limit of N calls per W seconds, in
 * burst mode (the seed's: calls go out as soon as the window allows, so N
 * calls leave together at the start of each window) or paced mode (also at
 * most one call every W/N seconds). Pure: the caller passes the time. */
#ifndef FR_SCHED_RATELIMIT_H
#define FR_SCHED_RATELIMIT_H

#include <stdint.h>

enum fr_rl_mode { FR_RL_BURST = 0, FR_RL_PACED = 1 };

struct fr_ratelimit {
	uint32_t calls;    /* N */
	double window_s;   /* W */
	enum fr_rl_mode mode;
	double *ring;      /* times of the last N calls, oldest at head */
	uint32_t head, count;
	double last_s;     /* time of the latest call, -inf before the first */
};

/* Returns 0, or -1 on out-of-memory or calls == 0 or window_s <= 0. Free with
 * fr_rl_free. */
int fr_rl_init(struct fr_ratelimit *rl, uint32_t calls, double window_s, enum fr_rl_mode mode);
void fr_rl_free(struct fr_ratelimit *rl);

/* The earliest instant >= now at which a call is allowed. */
double fr_rl_next(const struct fr_ratelimit *rl, double now_s);
/* How many calls could go out at instant t, one after another (burst: the
 * free slots of the window; paced: 1 or 0). */
uint32_t fr_rl_available(const struct fr_ratelimit *rl, double t_s);
/* Records a call at t (t must not precede the previous call). */
void fr_rl_record(struct fr_ratelimit *rl, double t_s);

/* Parses a budget "N/W", W a duration like 10m, 600s, 1h, 1d or plain
 * seconds: "600/10m". Returns 0, or -1 with err set. */
int fr_budget_parse(const char *s, double *calls, double *window_s, char *err, unsigned long errlen);

/* Parses a duration "15s", "10m", "2h", "1d", "1w" or plain seconds. Returns
 * 0, or -1 if malformed or negative. */
int fr_duration_parse(const char *s, double *out_s);

#endif
