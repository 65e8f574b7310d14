/* crawl.h - the live crawl loop: the scheduler and its policy choose which
 * source to fetch and when (the same code the simulator runs), libcurl
 * fetches (net/fetch, on a thread of its own), the feed parser reads
 * (parse/feed), and the store keeps the new items and the source's learned
 * state together, all or nothing (store/store). The loop reads the wall
 * clock; the scheduler never does. */
#ifndef FR_CRAWL_H
#define FR_CRAWL_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "net/fetch.h"
#include "sched/hold.h"
#include "sched/ratelimit.h"

struct fr_store;
struct fr_websub;

/* --once waits at most this long for a source's hold (its host paused by
 * Retry-After, its error backoff) to end; a source held longer is skipped,
 * reported, and left for the next run. */
#define FR_CRAWL_ONCE_WAIT_S FR_HOLD_ONCE_WAIT_S

/* What a run did so far (also the final figures). */
struct fr_crawl_stats {
	uint64_t fetches;       /* feed fetches finished */
	uint64_t ok, not_modified, errors;
	uint64_t new_items, updated_items;
	uint64_t robots_fetches, robots_denied;
	uint64_t throttled;     /* 429/503 answers (the host was paused) */
	/* JSON API sources: pages asked beyond each fetch's first, answers
	 * meaning "slow down" (a 429, a Graph throttling code), and choices
	 * held because the API said no call was left. */
	uint64_t api_pages, api_slowdowns, api_waits;
	uint64_t skipped;       /* --once: sources not fetched this pass, their host paused or
				 * their error backoff running beyond FR_CRAWL_ONCE_WAIT_S */
	uint64_t aborted;       /* transfers in flight at the end of --duration, aborted
				 * (their sources are fetched again next run) */
	uint64_t not_stored;    /* fetches that ended but were not stored after the store
				 * failed (SQLITE_FULL: a full disk): rolled back with their
				 * group, or ended after the failure; fetched again next run */
	/* WebSub: pushes committed, and polls of sources whose lease ran. */
	uint64_t pushes, push_polls;
	uint64_t bytes;         /* on the wire */
	uint64_t with_delay;    /* new items with a publication time in the run */
	double delay_sum_s;     /* sum of (first seen - published) over those */
	/* Several workers on one store (leases, fr_store_claim): sources
	 * chosen while another worker was fetching them (held back until
	 * about its lease's end), sources another worker had fetched since
	 * this one last knew (their row and learned state reloaded, and the
	 * choice made again), and choices passed over as the other workers'
	 * share of the budget. 0 on a store of one process (SQLite). */
	uint64_t lease_held, fetched_elsewhere, passed;
	/* Requests held back because another worker's request to the host
	 * was in flight or its gap ran (fr_store_host_claim); 0 on SQLite. */
	uint64_t host_held;
	size_t running;         /* transfers in flight */
	size_t sources;         /* sources crawled */
	size_t hosts;           /* their hosts */
	size_t hosts_paused;    /* hosts a 429 or 503 paused, the pause running */
	double started_s, now_s, next_due_s; /* next_due_s: when the next fetch may go, or 0 */
};

/* A rate-limit group's own budget: sources whose group is name share
 * calls per window_s (e.g. an API host's "600/10m"). */
struct fr_crawl_group {
	const char *name;
	double calls, window_s;
};

struct fr_crawl_opts {
	const char *policy;          /* policy spec (as simulate's); NULL: "freshet" */
	/* The default group's budget; calls == 0: one fetch per source per
	 * 30 minutes on average. */
	double calls, window_s;
	const struct fr_crawl_group *groups; /* other groups' budgets */
	size_t n_groups;
	enum fr_rl_mode mode;        /* paced (the default here) or burst */
	double host_gap_s;           /* minimum gap between two fetches of one host: default 1 */
	double max_crawl_delay_s;    /* robots.txt Crawl-delay is honoured up to this: default 60 */
	int robots;                  /* 1: obey robots.txt (the default); 0: ignore */
	double robots_ttl_s;         /* robots.txt cached this long: default 1 day */
	double backoff_base_s;       /* first error backoff: default 60 s, doubling */
	double backoff_cap_s;        /* at most: default 1 day */
	double retry_after_cap_s;    /* Retry-After honoured up to this: default 1 day */
	int retry_after;             /* 1: honour Retry-After (the default); 0: use the backoff */
	int hints;                   /* 1: publisher hints (ttl, sy:update*, max-age) are lower
				      * bounds on a source's interval (the default); 0: recorded only */
	double hint_cap_s;           /* a hint longer than this counts as this: default 1 day */
	int redirect_after;          /* a permanent redirect is adopted after this many fetches: 3 */
	/* Group commit: fetches that end close together share one transaction
	 * (each a savepoint in it), committed when the oldest has waited
	 * commit_interval_s (default 0.25), when commit_max fetches are in it
	 * (default 1000), when no other transfer is in flight, and at the end.
	 * A fetch is stored, and counted in the stats' item figures, only once
	 * its group commits; a crash loses the open group, whose sources are
	 * then fetched again. 0: one transaction per fetch. */
	double commit_interval_s;
	uint32_t commit_max;
	int once;                    /* fetch every source once, then return */
	/* This worker's name in the store's leases (fr_store_claim), unique
	 * among the workers sharing a store; NULL: "HOST:PID". */
	const char *worker;
	double duration_s;           /* return after this long (0: until stopped): transfers
				      * still in flight then are aborted, not stored, and
				      * fetched again next run */
	uint64_t seed;               /* jitter of the backoff */
	/* A world's clock instead of the wall clock (tests/e2e/parity.sh):
	 * the file holds the world's time, Unix seconds as text. The run
	 * starts at that time and, where it would wait, moves the time to its
	 * next event instead and writes it to the file (atomically: a copy
	 * renamed over it), which `freshet serve` reads as its clock when
	 * given the same file. Fetches take no world time: one at a time, as
	 * the simulator makes them, gaps kept exactly (no slack for the
	 * send's variance); duration_s is world time. NULL: the wall clock. */
	const char *clock_file;
	struct fr_fetch_opts fetch;  /* timeouts, User-Agent, connect-to, ... */
	/* WebSub (docs/websub.md): the subscriber (websub/sub.h; borrowed,
	 * its callbacks served by the caller), or NULL. With it, a feed whose
	 * Link fields or links name a hub is subscribed to (the request goes
	 * through the fetcher: the address policy applies to hubs), renewed
	 * and, once its source is removed, unsubscribed; a push accepted is
	 * parsed and committed as a fetch would be (fetch log outcome
	 * "push"); and a source whose lease runs is polled only as a check,
	 * its hold push_check times the run's average gap between two polls
	 * of a source (0: 10), until a poll finds new items that no push
	 * brought since the poll before, or the lease ends. Not with once. */
	struct fr_websub *websub;
	double push_check;
	/* Set (e.g. by a signal handler) to stop: no new fetch starts, the
	 * ones in flight finish and are committed, then fr_crawl_run returns. */
	const volatile sig_atomic_t *stop;
	/* Called about once a second and at the end, with the figures so far. */
	void (*progress)(void *arg, const struct fr_crawl_stats *st);
	/* Called with a line about each notable event (errors, pauses,
	 * redirects adopted, robots denials). */
	void (*log)(void *arg, const char *line);
	void *arg;
};

/* Fills o with the defaults above. */
void fr_crawl_opts_init(struct fr_crawl_opts *o);

/* Crawls the active sources of st until stopped, o->duration_s has passed,
 * or (o->once) every source was fetched once (by this worker or, on a
 * shared store, another). Each source is claimed in the store just before
 * its fetch (a lease of twice the transfer timeout, renewed at each further
 * request of the fetch: robots.txt first, redirects, a forum's pages), so
 * that workers sharing a store (PostgreSQL) split the sources between them:
 * a source another worker is fetching waits until about that lease's end;
 * one another worker fetched since has its row and learned state reloaded,
 * then the scheduler chooses again. The n workers alive (fr_store_workers)
 * each spend 1/n of every group's budget (not with once). Each fetch's new
 * items, the source's state (validators, errors, learned policy state, hints)
 * and a fetch log row are committed together, all or nothing (in a group
 * transaction shared with the fetches that end close to it); the policy's
 * shared learned context is saved at the end. A source's failure is
 * recorded on the source and the crawl goes on. Returns 0 and fills *out
 * (may be NULL), or -1 with err set when the crawl cannot run at all (no
 * sources, a bad policy spec, the store failing). */
int fr_crawl_run(struct fr_store *st, const struct fr_crawl_opts *o, struct fr_crawl_stats *out,
		 char *err, size_t errlen);

struct fr_store_item;

/* The language of an item the store writes (struct fr_store_fetch's
 * detect callback): CLD2 on its title and its content, else its summary
 * (fr_lang_detect_item). 1 with the code in code, 0 when not sure. arg is
 * unused. */
int fr_crawl_detect_lang(void *arg, const struct fr_store_item *it, char *code, size_t len);

#endif
