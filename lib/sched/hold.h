/* hold.h - the holds a fetch's outcome puts on its source and its host:
 * the error backoff, a 429 or 503's pause (Retry-After), publisher hints
 * as a lower bound on the interval, and --once's limit on waiting. Pure
 * functions: the outcome and now in, hold-until out; no clock, no I/O, and
 * no randomness of their own (the backoff's jitter comes in as uniform
 * draws). The live crawler (lib/crawl) and the simulator's injected
 * outcomes (lib/sim) apply the same rules (docs/crawl.md, "Politeness and
 * limits"). */
#ifndef FR_SCHED_HOLD_H
#define FR_SCHED_HOLD_H

/* --once waits at most this long for a hold (a paused host, an error
 * backoff) to end; a source held longer is left for the next run. */
#define FR_HOLD_ONCE_WAIT_S 300.0

struct fr_hold_opts {
	double backoff_base_s;    /* first error backoff, doubling per error in a row: 60 */
	double backoff_cap_s;     /* the backoff's cap (before jitter): 86400 */
	int retry_after;          /* 1: a 429/503's Retry-After is honoured (default) */
	double retry_after_cap_s; /* up to this: 86400 */
	int hints;                /* 1: hints bound the interval from below (default) */
	double hint_cap_s;        /* a longer hint counts as this: 86400 */
};

/* Fills o with the defaults above. */
void fr_hold_opts_init(struct fr_hold_opts *o);

/* A source's publisher hints, in seconds; <= 0 or -1: absent. The feed's
 * RSS <ttl>, its sy:updatePeriod/updateFrequency, the answer's freshness
 * lifetime (fr_hold_lifetime_s). (RSS skipHours/skipDays are not
 * honoured.) */
struct fr_hold_hints {
	double ttl_s, period_s, max_age_s;
};

/* One fetch's outcome, as far as the holds care. */
struct fr_hold_outcome {
	int error;               /* the fetch failed (any cause) */
	long status;             /* its HTTP status; 0: none (no answer, or no transfer) */
	double retry_after_at_s; /* Retry-After as an absolute time; <= 0: none */
	int err_count;           /* the source's errors in a row before this fetch */
	struct fr_hold_hints hints; /* the source's hints after this fetch */
	/* Uniform draws in [0, 1) for the jitter: of the error backoff (used
	 * when error) and of a 429/503 pause without Retry-After (used when
	 * status is 429 or 503). The crawler draws them in this order, each
	 * only when used. */
	double u_error, u_pause;
};

/* What the outcome holds. */
struct fr_hold {
	int err_count;          /* errors in a row after this fetch (0 after a success) */
	double backoff_until_s; /* the source's stored backoff: 0 after a success; after an
				 * error its backoff, or its host's pause when that is longer */
	double host_until_s;    /* > now: a 429/503 pauses the whole host until then; else 0 */
	double source_until_s;  /* the source's hold in the scheduler (fr_sched_hold):
				 * its backoff after an error, now + the hint after a
				 * success when hints bound, else -inf */
};

/* The error backoff after n_errors errors in a row: base doubling per
 * error from the second, capped, times a jitter of 0.75 + 0.5 u (u in
 * [0, 1), so sources that failed together spread out). */
double fr_hold_backoff_s(const struct fr_hold_opts *o, int n_errors, double u);

/* An answer's freshness lifetime (RFC 9111 4.2.1), in seconds: its
 * Cache-Control max-age when given (max_age_s >= 0; 0 is no lifetime), else
 * Expires minus the server's Date (minus now_s when the answer has no Date);
 * -1 when none or not positive (an Expires in the past or unparsable). */
double fr_hold_lifetime_s(double max_age_s, double expires_at_s, double date_s, double now_s);

/* The longest of a source's hints, capped at o->hint_cap_s; 0 when none. */
double fr_hold_hint_s(const struct fr_hold_opts *o, const struct fr_hold_hints *h);

/* A 429 or 503 pauses the host: until Retry-After when honoured and given
 * (a value beyond now + retry_after_cap_s, however large, is the cap),
 * else for the first backoff step (jitter u). Returns the pause's end, or
 * 0 when status is neither 429 nor 503. A Retry-After already past gives
 * an end <= now: no pause. */
double fr_hold_pause_until(const struct fr_hold_opts *o, long status, double retry_after_at_s,
			   double now_s, double u);

/* The holds after a feed's fetch (the live loop's rule, and the
 * simulator's injected outcomes): fills *out. */
void fr_hold_after_fetch(const struct fr_hold_opts *o, const struct fr_hold_outcome *oc,
			 double now_s, struct fr_hold *out);

/* A forum page answered 429 or 503 (in the middle of a cycle): when the
 * next page may go. The first backoff step (jitter u), or Retry-After when
 * honoured, later than that, and within the cap; a Retry-After beyond the
 * cap is not honoured (the backoff step stands). */
double fr_hold_forum_page(const struct fr_hold_opts *o, double retry_after_at_s, double now_s,
			  double u);

/* The scheduler's hold a stored source row implies at now (a restart, or
 * a row another worker wrote): its error backoff while it runs, else,
 * without errors and with hints that bound, its last fetch + the hint;
 * else -inf. */
double fr_hold_from_row(const struct fr_hold_opts *o, int err_count, double backoff_until_s,
			double last_fetch_s, const struct fr_hold_hints *h, double now_s);

/* Whether a stored row pauses its host at now (its last answer a 429 or
 * 503, its backoff, which then holds the pause, still running). */
int fr_hold_row_pauses_host(int err_count, long last_status, double backoff_until_s,
			    double now_s);

/* --once: whether a hold until until_s is beyond this pass's wait. */
int fr_hold_once_beyond(double until_s, double now_s);

#endif
