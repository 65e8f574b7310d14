/* crawl_int.h - what the files of the live crawl loop share (lib/crawl/):
 * the loop's state, one source's fetch under way, and the functions one
 * file calls in another. Internal to the crawl part; the contract is
 * crawl.h. */
#ifndef FR_CRAWL_INT_H
#define FR_CRAWL_INT_H

#include "crawl.h"

#include "core/rng.h"
#include "forum/sinfo.h"
#include "parse/feed.h"
#include "sched/hold.h"
#include "sched/policy.h"
#include "store/store.h"

#include <stddef.h>
#include <stdint.h>

struct fr_fdate;
struct fr_fetchq;
struct fr_robots_cache;
struct fr_sched;
struct fr_strmap;

/* Response tags: the source id, and this bit for its host's robots.txt. */
#define TAG_ROBOTS 1u
/* A WebSub request to a hub (push.c): this bit, and the source id. */
#define TAG_WEBSUB (1ull << 63)

/* A host: the sources' hosts (indexes 0 .. n_sched_hosts - 1, the
 * scheduler's), then hosts only redirects lead to, added as met. */
struct host {
	double gap_s;      /* this host's gap: the run's, or its longer Crawl-delay */
	double last_sent_s; /* when this run's latest request to it went out */
	double answered_s;  /* when its latest answer came (any source's) */
	double paused_until_s; /* a 429 or 503 paused it until then (stats) */
	uint32_t holders;   /* fetches whose current request chain is on it (at_host) */
	char *name;
};

/* No host (csrc.at_host). */
#define NO_HOST UINT32_MAX
/* A redirect's hop waiting for a host another fetch holds asks again this
 * often. */
#define HOP_RECHECK_S 0.1

struct api_src;
struct api_cred;

struct csrc {
	struct fr_store_source row;
	struct api_src *api; /* a JSON API source (api.c), else NULL */
	uint32_t host, group;
	int done_once;
	int busy;       /* its fetch is under way (begun, not finished) */
	int attempts;   /* fetches this run (--once retries transient errors) */
	int throttles;  /* --once: 429/503 answers waited out (not attempts) */
	double throttled_s; /* --once: the Retry-After time they asked for, in all */
	int bozo_told;  /* its ill-formedness was logged */
	double feed_at; /* > 0: the feed request waits for this time (after robots.txt
			 * or a redirect on the same host) */
	double req_at;  /* when the slot's latest request went out */
	char *hop_url;  /* following a redirect: the address asked next, else NULL */
	int hop_robots; /* 1: hop_url is on another host, whose robots.txt is asked first */
	char *slot_host; /* the host whose shared slot its request in flight holds
			  * (fr_store_host_claim), else NULL */
	uint32_t at_host; /* the host its fetch's requests are on now (robots.txt,
			   * the feed, a redirect's hop), held from the request
			   * until the fetch ends or leaves it; NO_HOST: none */
	int hops;       /* redirects followed in this fetch */
	/* Its latest fetch's 429/503 came from a redirect's target: that host
	 * is paused until then (store meta key hop-pauses), not its own. */
	double hop_pause_until;
	uint32_t hop_pause_host;
	int all_permanent; /* every one of them 301 or 308 */
	/* Forums: the learned state, and the cycle under way (its pages go
	 * out one at a time, each after the host's gap). */
	int is_forum;
	struct fr_sinfo *forum;
	struct fr_sinfo_cycle *cyc;
	double cyc_start_s;
	uint64_t cyc_bytes;
	long cyc_last_status;
	/* WebSub (push.c): polled as a check only while its lease runs and
	 * push_stale is 0; push_poll_s is when its latest poll committed. */
	int push_stale;
	double push_poll_s;
	double push_live_s; /* when its lease was first seen running (0: not) */
	int push_misses;    /* polls in a row that found items no push brought */
};

struct crawl {
	const struct fr_crawl_opts *o;
	struct fr_store *st;
	const struct fr_policy_ops *ops;
	struct fr_sched *sched;  /* the policy: learns, keeps the state */
	/* --once: the order of fetching (once_order: by id, each source when
	 * its holds allow) with the politeness state; the policy's urgency has
	 * no say when everything is fetched once. NULL otherwise: sched
	 * chooses too. */
	struct fr_sched *order;
	struct fr_fetchq *fetcher;      /* the fetcher, on its own thread */
	struct fr_robots_cache *robots; /* NULL: robots.txt ignored */
	struct csrc *src;
	uint32_t n;
	struct host *hosts;
	uint32_t n_hosts;        /* all hosts met, with redirects' targets */
	uint32_t n_sched_hosts;  /* the sources' hosts, the scheduler's */
	uint32_t host_cap;
	struct fr_strmap *host_ids; /* name -> index in hosts */
	struct fr_rng rng;
	struct fr_hold_opts hold; /* the holds' rules (hold.h), from o */
	/* Borrowed by the scheduler and the policy for their life. */
	struct fr_policy_env env;
	double *weight;
	uint32_t *host_of, *group_of;
	struct fr_crawl_stats stats;
	uint32_t n_done_once;
	uint32_t *deferred;      /* sources whose feed request waits (feed_at) */
	uint32_t n_deferred;
	int max_hops;            /* redirects followed per fetch */
	/* Group commit: fetches committed as savepoints of one open transaction
	 * (tx_open) since tx_since; their new/updated item counts join the
	 * stats when it commits. */
	int tx_open;
	uint32_t tx_fetches;
	double tx_since;
	uint64_t tx_new, tx_updated;
	struct fr_fdate *fdate;         /* forums' date detector (NULL: no forum) */
	struct fr_sinfo_opts fopts;
	/* Leases (fr_store_claim): this worker's name, and how long a claim
	 * lasts (twice the transfer timeout; renewed at each further request
	 * of a fetch). */
	char worker[320];
	double lease_s;
	/* Workers sharing the store (fr_store_workers, asked every
	 * ALIVE_EVERY_S): each spends 1/n_workers of every group's budget,
	 * passing over the other choices (fr_crawl_pass()); turn[g] counts group g's
	 * choices. */
	int n_workers, n_beats;
	double alive_next_s;
	uint32_t *turn;
	int stopping;
	/* A fetch that ends without a response of its own (robots.txt could
	 * not be had): the fetch log's outcome and status, and whether --once
	 * tries again (set by fr_crawl_deny() around its finish). */
	const char *end_outcome;
	long end_status;
	int end_transient;
	/* A world's clock (o->clock_file): its time now, moved by the loop. */
	int virt;
	double vnow;
	char *clock_tmp;         /* the file written, then renamed over o->clock_file */
	struct api_cred *api_cred; /* API sources' tokens and limit states (api.c) */
	uint32_t n_api_cred;
	/* WebSub (push.c): pushes taken while their source was being
	 * fetched, committed after; when the state was last saved. */
	struct fr_websub_push *push_held;
	size_t n_push_held;
	double push_saved_s;
	int fatal;               /* the store failed: stop */
	char *fatal_err;
	char errbuf[512];
};

/* One fetch's outcome, as it is committed (commit.c). */
struct outcome {
	struct crawl *c;
	uint32_t i;
	double now;
	const struct fr_response *res;   /* NULL: no transfer (robots denial) */
	const struct fr_feed *feed;      /* parsed, or NULL */
	const char *error;               /* NULL on success */
	const char *permanent_url;       /* the fetch's redirects were all permanent: here */
	enum fr_fetch_status status;
	const struct fr_store_item *items;
	size_t n_items;
	size_t n_new;
	int settled;    /* --once: no further attempt this run */
	/* Without a response (a forum's cycle of many pages): the fetch log's
	 * outcome, bytes and duration. */
	const char *outcome_name;
	int64_t bytes;
	double duration_s;
	double learn_since_s; /* > 0: items published before are not news to the policy */
	double pause_until;   /* > 0: a 429/503 paused the source's host until then */
	const char *pause_host; /* the host paused (a redirect's target's), or NULL */
	int throttle_wait;    /* --once: a 429/503 waited out until its Retry-After */
	/* API sources (api.c): called first inside the transaction; returns 1
	 * when the fetch goes on to a further page (the policy learns then
	 * nothing, and more is set), 0 to learn as usual. */
	int (*page)(struct outcome *oc, const uint8_t *is_new, size_t n_new,
		    struct fr_store_source *r);
	int more;
	const double *extra_pub; /* new items' times from the fetch's earlier pages */
	size_t n_extra_pub;
	int push;                /* a WebSub push, not a poll (push.c) */
};

/* --once: a transient failure is retried (after its backoff or the host's
 * pause) up to this many fetches in all. */
#define ONCE_ATTEMPTS 3
/* --once: a 429 or 503 whose Retry-After ends within the pass is waited
 * out rather than counted as an attempt (a rate-limited host answers its
 * sources in turn), up to this many times per source and, in all, up to
 * FR_HOLD_ONCE_WAIT_S of Retry-After per source. */
#define ONCE_THROTTLES 30
/* --once: a source another worker is fetching is asked about again this
 * soon (its commit, not its lease's end, is what the run waits for). */
#define ONCE_RECHECK_S 1.0

/* ---- loop.c: the loop, starting fetches, responses ---- */
/* A line about a notable event, to o->log. */
void fr_crawl_logf(struct crawl *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Replaces *dst by a copy of s (NULL clears). */
void fr_crawl_set_str(char **dst, const char *s);
/* The scheduler that chooses (and so holds the politeness state). */
struct fr_sched *fr_crawl_pick(struct crawl *c);
/* Fetches under way: transfers whose responses the loop has not taken. */
size_t fr_crawl_in_flight(struct crawl *c);
/* The loop's clock: the wall clock, or the world's (o->clock_file). */
double fr_crawl_now(const struct crawl *c);

/* ---- hosts.c: robots.txt, gaps, host holds ---- */

/* The source with store row id, by bisection (loop.c loads the sources
 * ordered by id and never reorders them); UINT32_MAX when none. */
uint32_t fr_crawl_source_by_id(const struct crawl *c, int64_t id);
/* The index of url's host, added when new (a redirect's target); NO_HOST
 * when out of memory. */
uint32_t fr_crawl_host_id(struct crawl *c, const char *url);
/* Source i's requests are on host h from now (it leaves the one before). */
void fr_crawl_host_take(struct crawl *c, uint32_t i, uint32_t h);
/* Source i's fetch leaves the host it was on. */
void fr_crawl_host_leave(struct crawl *c, uint32_t i);
/* When source i's redirect may go to host h: no other fetch on it, its
 * gap run since its latest answer, its pause over (<= now: at once). */
double fr_crawl_hop_wait(struct crawl *c, uint32_t i, uint32_t h, double now);
/* Sends rq for source i: its host is taken (fr_crawl_host_take) first. */
int fr_crawl_send(struct crawl *c, uint32_t i, const struct fr_request *rq, char *e, size_t elen);
/* The same with a request's extra (an API's credential header). */
int fr_crawl_send_ex(struct crawl *c, uint32_t i, const struct fr_request *rq,
		     const struct fr_request_extra *x, char *e, size_t elen);
/* The gap kept for a host whose gap is gap_s, with room for the send's
 * variance. */
double fr_crawl_slack(const struct crawl *c, double gap_s);
/* The host's Crawl-delay, within bounds, becomes its gap. */
void fr_crawl_take_crawl_delay(struct crawl *c, uint32_t hi, double cd);
/* --once: host's sources not fetched yet are skipped this pass. */
void fr_crawl_once_skip_host(struct crawl *c, uint32_t host, double until, double now);
/* Ends source i's fetch unsent: robots.txt forbids it or could not be had. */
void fr_crawl_deny(struct crawl *c, uint32_t i, double now);
/* The hosts' gaps across restarts (store meta key host-holds). */
void fr_crawl_save_host_holds(struct crawl *c, double now);
void fr_crawl_load_host_holds(struct crawl *c, const struct fr_strmap *hosts, double now);
/* Source i's fetch just committed, whose 429/503 paused host until (until
 * <= now: none): a redirect's target's pause is stored under that host's
 * name (meta key hop-pauses) in the fetch's transaction. */
void fr_crawl_note_hop_pause(struct crawl *c, uint32_t i, const char *host, double until,
			     double now);
/* At start: the stored pauses of redirects' targets, each held on its
 * host; their sources' rows then pause no host of their own. */
void fr_crawl_load_hop_pauses(struct crawl *c, double now);

/* ---- commit.c: committing a fetch, group commits, holds ---- */
/* A stored row's publisher hints. */
struct fr_hold_hints fr_crawl_hints(const struct fr_store_source *r);
/* The store failed: the run stops (the first reason is kept). */
void fr_crawl_fatal(struct crawl *c, const char *why);
void fr_crawl_group_commit(struct crawl *c);
int fr_crawl_group_due(struct crawl *c, double now);
/* Whether a failed transfer may well succeed later. */
int fr_crawl_transient(const struct fr_response *res);
/* Stores source i's fetch as oc describes it, the policy learning inside
 * the transaction. */
void fr_crawl_commit(struct crawl *c, uint32_t i, struct outcome *oc, const struct fr_response *res,
		     const char *error, double now);

/* ---- feed.c: a feed's fetch, its redirects ---- */
/* Sends source i's request (a feed's, or a forum's next page). */
int fr_crawl_submit(struct crawl *c, uint32_t i);
/* The store's items for a parsed feed's (or an API page's), strings
 * borrowed from feed: free the array only. NULL when out of memory. */
struct fr_store_item *fr_crawl_feed_items(const struct fr_feed *feed);
/* Ends source i's fetch: parse, commit, learn (res NULL: never sent). */
void fr_crawl_finish(struct crawl *c, uint32_t i, const struct fr_response *res, const char *error,
		     double now);
/* Follows a redirect; 1 when the next hop is on its way. */
int fr_crawl_follow(struct crawl *c, uint32_t i, const struct fr_response *res, double now);
/* A redirect's hop to another host: its robots.txt first. */
void fr_crawl_hop_start(struct crawl *c, uint32_t i, double now);

/* The new items' publication times (commit.c), with the delay figures. */
size_t fr_crawl_new_pubs(struct outcome *oc, const uint8_t *is_new, double *pub);

/* ---- api.c: JSON API sources ---- */
/* Reads the API sources' settings and tokens (after the scheduler is
 * made). Returns 0, or -1 with err set (out of memory). */
int fr_crawl_api_setup(struct crawl *c, char *err, size_t errlen);
void fr_crawl_api_free(struct crawl *c);
/* 1 when the API's limit holds source i's fetch now (its group held until
 * the API allows a call), else 0. */
int fr_crawl_api_gate(struct crawl *c, uint32_t i, double now);
/* When source i's next page may be asked (its group's limit and the API's),
 * or now. */
double fr_crawl_api_page_wait(struct crawl *c, uint32_t i, double now);
int fr_crawl_api_submit(struct crawl *c, uint32_t i);
/* A response to an API source's request: the limit learns, the page is
 * mapped and committed, the next page deferred or the fetch ended. */
void fr_crawl_api_done(struct crawl *c, uint32_t i, const struct fr_response *res, double now);
/* Ends an API source's fetch without a response (error says why). */
void fr_crawl_api_fail(struct crawl *c, uint32_t i, const char *error, double now);

/* ---- push.c: WebSub ---- */
struct fr_websub_push;
/* Reads the subscriptions from the store, unsubscribes the removed
 * sources'. Returns 0, or -1 with err set. */
int fr_crawl_push_setup(struct crawl *c, char *err, size_t errlen);
/* Commits the pushes waiting, sends the requests due to hubs, saves the
 * state when it changed; returns when it next wants a turn (or INFINITY). */
double fr_crawl_push_tick(struct crawl *c, double now);
/* A hub's answer to a request (res->tag has TAG_WEBSUB). */
void fr_crawl_push_answer(struct crawl *c, const struct fr_response *res, double now);
/* Source i's feed was fetched and parsed: its hub, if any, is subscribed. */
void fr_crawl_push_found(struct crawl *c, uint32_t i, const struct fr_response *res,
			 const struct fr_feed *feed, double now);
/* Inside a commit's transaction, after the policy learned (commit.c):
 * the hold of a source whose lease runs (hold: the one it has, returned
 * lengthened when it is polled as a check only). */
double fr_crawl_push_hold(struct crawl *c, struct outcome *oc, double hold, double now);
/* At the end: the state saved, pushes held freed. */
void fr_crawl_push_end(struct crawl *c);

/* ---- forum.c: a forum's cycle of pages ---- */
void fr_crawl_forum_finish(struct crawl *c, uint32_t i, const char *error, double now);
int fr_crawl_forum_submit(struct crawl *c, uint32_t i);
void fr_crawl_forum_page_done(struct crawl *c, uint32_t i, const struct fr_response *res,
			      double now);

/* ---- claims.c: several workers on one store ---- */
int fr_crawl_slot_claim(struct crawl *c, uint32_t i, const char *url, double *wait_s);
void fr_crawl_slot_done(struct crawl *c, uint32_t i, double next_in_s);
void fr_crawl_slot_sent(struct crawl *c, uint32_t i, double now);
void fr_crawl_share_pause(struct crawl *c, const char *host, double until, double now);
void fr_crawl_heartbeat(struct crawl *c, double now);
int fr_crawl_pass(struct crawl *c, uint32_t i, double now);
void fr_crawl_reseed(struct crawl *c, uint32_t i, double now);
int fr_crawl_claim(struct crawl *c, uint32_t i, double now);
int fr_crawl_renew(struct crawl *c, uint32_t i, double now);

#endif
