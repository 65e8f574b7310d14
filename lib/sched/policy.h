/* policy.h - the policy interface: a table of functions over one source's
 * learned state. A policy never reads the clock and never does I/O; the
 * scheduler passes the time. The same policies run in the simulator and in
 * the live crawler. See docs/scheduler.md for how urgency maps onto the
 * scheduler's due-time heap. */
#ifndef FR_SCHED_POLICY_H
#define FR_SCHED_POLICY_H

#include <stddef.h>
#include <stdint.h>

#include "sched/params.h"

/* What a fetch of one source returned. */
enum fr_fetch_status {
	FR_FETCH_OK = 0,        /* fetched; items holds the new ones (maybe none) */
	FR_FETCH_NOT_MODIFIED,  /* HTTP 304 or equivalent: nothing new */
	FR_FETCH_ERROR,         /* failed: nothing learned about publishing */
};

struct fr_fetch {
	double now_s;              /* when the fetch happened */
	enum fr_fetch_status status;
	size_t n_items;            /* new items */
	const double *published_s; /* [n_items] publication times; NAN when unknown */
	const float *item_weight;  /* [n_items] or NULL */
};

/* What the run knows when a policy is created. Borrowed for the policy's life. */
struct fr_policy_env {
	uint32_t n_sources;
	const double *weight;  /* [n_sources] source weights (popularity), default 1 */
	const uint32_t *group; /* [n_sources] rate-limit group */
	double start_s;        /* start of the run */
	double calls_per_s;    /* the whole budget, all groups together */
	uint64_t seed;         /* for policies that draw at random */
	/* The true intensity (items per second) of source s at time t when the
	 * run knows it (synthetic worlds), else NULL. For oracle policies only. */
	double (*intensity)(const void *arg, uint32_t s, double t_s);
	const void *intensity_arg;
	/* Politeness, for policies that plan around it: the run's minimum gap
	 * between two calls to one host (0: none; the scheduler enforces it
	 * unless the spec says polite=0, see fr_policy_ops.no_host_gap), and the
	 * host of each source ([n_sources], ids < n_hosts; NULL: every source
	 * its own host). */
	double host_gap_s;
	const uint32_t *host;
	uint32_t n_hosts;
};

enum fr_policy_kind {
	/* An index policy: urgency grows from 0 after each fetch; the scheduler
	 * spends every call the rate limit allows on the most urgent source. */
	FR_POLICY_INDEX = 0,
	/* An interval policy: each fetch sets the next fetch time; the
	 * scheduler fetches a source only once it is due (due sources wait
	 * their turn under the rate limit). */
	FR_POLICY_INTERVAL = 1,
};

struct fr_policy_ops {
	const char *name;
	const char *help;    /* one line, with the parameters and their defaults */
	enum fr_policy_kind kind;
	double theta0;       /* index policies: a first guess of the fetch threshold */

	/* Creates the policy's shared context from params (taking the keys it
	 * knows, see params.h) and env. Returns 0, or -1 with err set. */
	int (*create)(void **ctx, struct fr_params *params, const struct fr_policy_env *env,
		      char *err, size_t errlen);
	/* Frees the context. */
	void (*destroy)(void *ctx);
	/* Bytes of state per source (at most 256 for the default policy). */
	size_t (*state_size)(const void *ctx);
	/* Initialises source s's zeroed state st at time now (its first fetch
	 * window opens now). */
	void (*init)(void *ctx, void *st, uint32_t s, double now_s);
	/* Index policies: how urgent a fetch of the source is at now (>= the
	 * time of its last fetch); non-decreasing in now between fetches. May
	 * update cached state (decay, accumulation). NULL for interval policies. */
	double (*urgency)(void *ctx, void *st, double now_s);
	/* Index policies: the time at which urgency reaches theta, which may
	 * lie before now when it already has; +INFINITY if never. Interval
	 * policies: the next fetch time, theta ignored. */
	double (*due)(void *ctx, void *st, double now_s, double theta);
	/* Learns from a fetch of the source (f->now_s is the fetch time). */
	void (*fetched)(void *ctx, void *st, const struct fr_fetch *f);
	/* Optional (NULL if the policy learns no daily rhythm): the source's
	 * learned relative activity per hour of the day (UTC), 24 values, for
	 * reports. */
	void (*rhythm)(void *ctx, const void *st, double out[24]);
	/* 1: the simulator runs this policy without the host gap unless the
	 * spec says polite=1 (the equally spaced baseline); violations of the
	 * gap are still counted. 0 (the default): the gap applies unless the
	 * spec says polite=0. */
	int no_host_gap;

	/* Optional: the source's learned publishing rate (items per second)
	 * at now, for `freshet sources`; NULL if the policy learns none. */
	double (*rate)(void *ctx, const void *st, double now_s);
	/* Optional, for policies whose context learns across sources (the
	 * live crawler persists it so that a restart loses nothing):
	 * ctx_save writes the learned part of the context to buf (at most cap
	 * bytes) and returns its length, or the length needed when cap is too
	 * small; ctx_load restores it. A saved context is outside data (the
	 * store's file): ctx_load refuses one of another length or version and
	 * any value that is not finite or outside the range the policy's
	 * learning can reach, returning -1 with err saying which value and
	 * why, and then leaves the context as it was. Returns 0 on success.
	 * NULL: nothing to keep. */
	size_t (*ctx_save)(const void *ctx, void *buf, size_t cap);
	int (*ctx_load)(void *ctx, const void *buf, size_t len, char *err, size_t errlen);
};

/* Policy registry. NOTE: keep fr_policy_all's list in policy.c in --help order. */
const struct fr_policy_ops *fr_policy_find(const char *name);
/* Returns the n-th registered policy, or NULL past the end. */
const struct fr_policy_ops *fr_policy_at(size_t i);

/* The op create of a policy with no context and no parameters of its own. */
int fr_policy_create_no_ctx(void **ctx, struct fr_params *params, const struct fr_policy_env *env,
			    char *err, size_t errlen);
/* Building blocks for policies whose only state is the time of the
 * source's last fetch (round robin, the crawler's --once order): the ops
 * state_size, init (the last fetch is the start) and fetched (any outcome
 * moves it); fr_policy_last_fetch reads it back. */
size_t fr_policy_last_fetch_size(const void *ctx);
void fr_policy_last_fetch_init(void *ctx, void *st, uint32_t s, double now_s);
void fr_policy_last_fetch_done(void *ctx, void *st, const struct fr_fetch *f);
double fr_policy_last_fetch(const void *st);

extern const struct fr_policy_ops fr_policy_roundrobin;
extern const struct fr_policy_ops fr_policy_buzzwise;
extern const struct fr_policy_ops fr_policy_airballoon;
extern const struct fr_policy_ops fr_policy_nutch;
extern const struct fr_policy_ops fr_policy_stormcrawler;
extern const struct fr_policy_ops fr_policy_heritrix;
extern const struct fr_policy_ops fr_policy_miniflux;
extern const struct fr_policy_ops fr_policy_newsblur;
extern const struct fr_policy_ops fr_policy_ttrss;
extern const struct fr_policy_ops fr_policy_mediacloud;
extern const struct fr_policy_ops fr_policy_commafeed;
extern const struct fr_policy_ops fr_policy_oracle;
extern const struct fr_policy_ops fr_policy_freshet;
extern const struct fr_policy_ops fr_policy_cho_delayed;
extern const struct fr_policy_ops fr_policy_opt_polite_delayed;
extern const struct fr_policy_ops fr_policy_cho_equal;

#endif
