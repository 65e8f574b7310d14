/* sched.h - the scheduler: which source to fetch next, and when, under
 * per-group rate limits and per-host politeness, driven by one policy.
 * Choosing costs O(log n) through a due-time heap per group with lazy
 * re-evaluation (docs/scheduler.md). It never reads the clock: the caller
 * passes now, which is what lets the simulator and the live crawler share it. */
#ifndef FR_SCHED_SCHED_H
#define FR_SCHED_SCHED_H

#include <stddef.h>
#include <stdint.h>

#include "sched/policy.h"
#include "sched/ratelimit.h"

struct fr_sched;

/* A rate-limit group: at most calls per window_s seconds. */
struct fr_sched_group {
	uint32_t calls;
	double window_s;
};

struct fr_sched_config {
	enum fr_rl_mode mode;     /* burst (the seed's) or paced */
	double host_gap_s;        /* minimum gap between two calls to one host; 0 = none */
	double start_s;           /* the run starts here; every source's first window opens */
	uint32_t n_groups;
	const struct fr_sched_group *groups; /* [n_groups] */
	uint32_t n_sources;
	const uint32_t *group;    /* [n_sources] group of each source (< n_groups) */
	const uint32_t *host;     /* [n_sources] host id of each source, or NULL: each its own */
	uint32_t n_hosts;         /* bound on host ids when host is given */
};

/* Creates a scheduler running ops with params over the sources of cfg.
 * Takes from params the scheduler's own key "select" (heap, the default, or
 * scan: the seed-faithful top-k by urgency once per burst, index policies in
 * burst mode only), then lets the policy take its keys; any key left is an
 * error. env is borrowed for the scheduler's life. Returns 0 and sets *out
 * (free with fr_sched_free), or -1 with err set. */
int fr_sched_new(struct fr_sched **out, const struct fr_policy_ops *ops, struct fr_params *params,
		 const struct fr_sched_config *cfg, const struct fr_policy_env *env, char *err,
		 size_t errlen);
void fr_sched_free(struct fr_sched *s);

/* Chooses the next fetch at or after now: sets *src and *at_s (the earliest
 * instant the rate limit, the host gap and, for interval policies, the
 * source's due time allow) and returns 1; returns 0 when no source will ever
 * be due. The choice is held: the caller either performs it and calls
 * fr_sched_done with f->now_s == *at_s, or calls fr_sched_next again later
 * (the choice is then re-made). */
int fr_sched_next(struct fr_sched *s, double now_s, uint32_t *src, double *at_s);

/* Records that src was fetched with outcome f (counts against its group's
 * limit and its host's gap) and lets the policy learn from it. */
void fr_sched_done(struct fr_sched *s, uint32_t src, const struct fr_fetch *f);
/* Passes over src at now_s: it counts against its group's limit and its
 * host's gap as a fetch would, but nothing was fetched: the policy is told
 * nothing and its state stays as it was (workers sharing one budget each
 * fetch one choice in n). */
void fr_sched_pass(struct fr_sched *s, uint32_t src, double now_s);

/* Live crawling, where fetches take time and overlap: fr_sched_begin
 * records that src's fetch starts at now_s (it counts against the group's
 * limit at once; the source is not chosen again, and its host takes no other
 * fetch, until the fetch ends); fr_sched_finish ends it with outcome f (the
 * policy learns f; the host is free again at begin + its gap, or later if
 * held). fr_sched_done(s, src, f) is the two at one instant (the
 * simulator's case). */
void fr_sched_begin(struct fr_sched *s, uint32_t src, double now_s);
void fr_sched_finish(struct fr_sched *s, uint32_t src, const struct fr_fetch *f);
/* A further request within src's fetch (after its host's robots.txt) went
 * out at now_s: the host's gap then runs from now_s. */
void fr_sched_host_request(struct fr_sched *s, uint32_t src, double now_s);

/* Politeness learned while crawling (each returns 0, or -1 when out of
 * memory or the host is out of range). The host's own minimum gap, e.g.
 * robots.txt Crawl-delay, replacing the run's gap for it: */
int fr_sched_set_host_gap(struct fr_sched *s, uint32_t host, double gap_s);
/* No fetch to host before until_s (Retry-After on a 429 or 503); holds only
 * lengthen. */
int fr_sched_hold_host(struct fr_sched *s, uint32_t host, double until_s);
/* No fetch of src before until_s (error backoff, a publisher's hint taken as
 * a lower bound), replacing its previous hold; now_s is the current time. */
int fr_sched_hold(struct fr_sched *s, uint32_t src, double until_s, double now_s);
/* Restores src's policy state from a saved copy of len bytes (must equal
 * fr_sched_state_size; returns -1 otherwise) and re-keys it at now_s. */
int fr_sched_set_state(struct fr_sched *s, uint32_t src, const void *state, size_t len,
		       double now_s);

/* When src is next expected to be fetched under the current threshold (its
 * key in the due-time heap, holds included): a lower bound for index
 * policies, whose threshold moves. +inf while in flight or never. */
double fr_sched_due_at(const struct fr_sched *s, uint32_t src);

/* The policy's state of source src (borrowed; for tests and reports). */
void *fr_sched_state(struct fr_sched *s, uint32_t src);
/* The policy's context (borrowed). */
void *fr_sched_policy_ctx(struct fr_sched *s);
/* The current fetch threshold of a group (index policies). */
double fr_sched_theta(const struct fr_sched *s, uint32_t group);
/* Work counters, for benchmarks and docs/scheduler.md. */
struct fr_sched_stats {
	uint64_t batches;    /* batch builds (index policies) */
	uint64_t candidates; /* due sources examined in them */
	uint64_t rekeys;     /* stale keys corrected */
	uint64_t rebuilds;   /* threshold lowered, every key recomputed */
};
void fr_sched_get_stats(const struct fr_sched *s, struct fr_sched_stats *out);

/* Rate-limit groups steered from outside (a JSON API's own limit, as its
 * responses tell it; issue 30). fr_sched_set_group_limit makes group's
 * limit calls per window_s from now on (the calls already made stay in its
 * window, the newest up to calls of them); returns 0, or -1 when out of
 * memory, calls is 0, window_s not > 0 or group out of range (nothing
 * changed). */
int fr_sched_set_group_limit(struct fr_sched *s, uint32_t group, uint32_t calls, double window_s);
/* No call of group before until_s (-INFINITY: none), replacing the group's
 * previous hold; the group's sources are chosen at until_s at the
 * earliest. Returns 0, or -1 when group is out of range. */
int fr_sched_hold_group(struct fr_sched *s, uint32_t group, double until_s);
/* The earliest instant >= now_s at which group may spend a call: its
 * limit's and its hold's. */
double fr_sched_group_next(const struct fr_sched *s, uint32_t group, double now_s);
/* Records a call of group at now_s that no source's fetch began (a further
 * page of an API source's fetch): it counts against the group's limit. */
void fr_sched_group_spend(struct fr_sched *s, uint32_t group, double now_s);
/* The group's limit now. */
void fr_sched_group_limit(const struct fr_sched *s, uint32_t group, uint32_t *calls,
			  double *window_s);
/* Bytes of policy state per source. */
size_t fr_sched_state_size(const struct fr_sched *s);

#endif
