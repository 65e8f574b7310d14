/* claims.c - several workers on one store (PostgreSQL): each source is
 * claimed just before its fetch (a lease), each request claims its host's
 * shared slot, a 429's pause is shared, and the workers split the budget. */
#include "crawl/crawl_int.h"

#include "sched/hold.h"
#include "sched/sched.h"
#include "url/url.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A 429/503 pause of host, shared with the other workers of the store: the
 * host's row in `hosts` (fr_store_host_done raises its next allowed time,
 * never lowers it), so that no worker asks it before until. A no-op on
 * SQLite (one crawler per file). */
void
fr_crawl_share_pause(struct crawl *c, const char *host, double until, double now)
{
	char e[512];

	if (!host || !*host || !(until > now))
		return;
	if (fr_store_host_done(c->st, host, until - now, e, sizeof(e)) < 0)
		fr_crawl_logf(c, "host %s: sharing its pause: %s", host, e);
}

/* ---- politeness shared by the workers of one store ------------------------
 * Each request claims its host's slot in the store just before it goes
 * (fr_store_host_claim): granted when no other worker's request to the host
 * is in flight and the host's gap since the last response has run. The
 * response frees the slot and sets the host's next time a gap after it, so
 * a host never sees two requests closer than its gap whichever workers
 * send them. On SQLite every claim is
 * granted without a look at the file. */

/* Claims the slot of url's host (NULL: the source's host) for source i's
 * next request. Returns 0 granted, 1 not now (*wait_s: ask again then), or
 * 1 after a store failure (fatal). */
int
fr_crawl_slot_claim(struct crawl *c, uint32_t i, const char *url, double *wait_s)
{
	struct csrc *cs = &c->src[i];
	char *host = url ? fr_url_host(url) : strdup(cs->row.host ? cs->row.host : "");
	char e[512];
	int rc;

	*wait_s = 0;
	if (!host)
		return 0; /* out of memory: the local gap alone */
	rc = fr_store_host_claim(c->st, host, c->worker, c->lease_s, wait_s, e, sizeof(e));
	if (rc < 0) {
		fr_crawl_logf(c, "host %s: claim: %s", host, e);
		fr_crawl_fatal(c, e);
		free(host);
		*wait_s = 1;
		return 1;
	}
	if (rc == 1) {
		c->stats.host_held++;
		free(host);
		return 1;
	}
	free(cs->slot_host);
	cs->slot_host = host;
	return 0;
}

/* Frees the slot source i's request held: its host may be asked again
 * next_in_s from now (none held is fine). A store failure is logged: the
 * slot then frees itself when its claim runs out. */
void
fr_crawl_slot_done(struct crawl *c, uint32_t i, double next_in_s)
{
	struct csrc *cs = &c->src[i];
	char e[512];

	if (!cs->slot_host)
		return;
	if (fr_store_host_done(c->st, cs->slot_host, next_in_s, e, sizeof(e)) < 0)
		fr_crawl_logf(c, "host %s: freeing its slot: %s", cs->slot_host, e);
	free(cs->slot_host);
	cs->slot_host = NULL;
}

/* The slot of source i's request, whose response has come: the host's
 * gap across workers runs from now. Not from the request's send time as
 * the worker's own gap does: the time a transfer reports (libcurl's
 * pretransfer) can precede the bytes reaching the host by tens of ms on a
 * loaded machine, while the response's end follows the host's answer, so
 * the host sees the next request at least a gap after it answered. */
void
fr_crawl_slot_sent(struct crawl *c, uint32_t i, double now)
{
	uint32_t h = c->src[i].at_host != NO_HOST ? c->src[i].at_host : c->src[i].host;

	(void)now;
	fr_crawl_slot_done(c, i, fr_crawl_slack(c, c->hosts[h].gap_s));
}

/* ---- several workers on one store: leases -------------------------------- */

/* Workers say they are alive this often (the first few times sooner:
 * workers started together see each other at once), and count as alive
 * this long. */
#define ALIVE_EVERY_S 2.0
#define ALIVE_FIRST_S 0.25
#define ALIVE_FOR_S 15.0

/* Every ALIVE_EVERY_S: this worker is alive, and how many share the store
 * (1 on SQLite). A store failure is fatal. */
void
fr_crawl_heartbeat(struct crawl *c, double now)
{
	char e[512];
	int n = 1;

	c->alive_next_s = now + (c->n_beats++ < 4 ? ALIVE_FIRST_S : ALIVE_EVERY_S);
	if (fr_store_workers(c->st, c->worker, now, ALIVE_FOR_S, &n, e, sizeof(e)) < 0) {
		fr_crawl_logf(c, "store: workers: %s", e);
		fr_crawl_fatal(c, e);
		return;
	}
	if (n != c->n_workers && (n > 1 || c->n_workers > 1))
		fr_crawl_logf(c, "worker %s: %d workers share the store: each spends 1/%d of the budget",
		      c->worker, n, n);
	c->n_workers = n;
}

/* With n workers sharing the store, this one fetches one choice of n in
 * each group and passes over the others: a passed choice counts against
 * the group's budget as a fetch would, and its source keeps its state
 * (fr_sched_pass). So the workers together spend
 * the budget once, however differently their policies rank the sources,
 * and the source comes up again at a later choice. Returns 1 when passed. */
int
fr_crawl_pass(struct crawl *c, uint32_t i, double now)
{
	uint32_t g = c->src[i].group;

	/* The fetching turn passes only with a fetch that starts (start()): a
	 * claim refused is chosen again at no cost. */
	if (c->n_workers <= 1 || c->order || c->turn[g] % (uint32_t)c->n_workers == 0)
		return 0;
	c->turn[g]++;
	fr_sched_pass(c->sched, i, now);
	c->stats.passed++;
	return 1;
}

/* Puts source i's stored policy state into the scheduler (when it is this
 * policy's and fits). */
void
fr_crawl_reseed(struct crawl *c, uint32_t i, double now)
{
	const struct fr_store_source *r = &c->src[i].row;

	if (r->policy && !strcmp(r->policy, c->ops->name) && r->policy_state)
		fr_sched_set_state(c->sched, i, r->policy_state, r->policy_state_len, now);
}

/* Another worker fetched source i since this one loaded or stored its row:
 * the stored row (validators, errors, backoff, that worker's learned state)
 * replaces this worker's copy (the caller reseeds the scheduler). In a
 * group the row is read without a lock (store.h); nothing of this source
 * can be in the open group (the other worker's commit came after ours). Returns 0, or -1 when the row cannot be read (fatal). */
static int
reload(struct crawl *c, uint32_t i)
{
	struct csrc *cs = &c->src[i];
	struct fr_store_source fresh;
	char e[512];

	if (fr_store_get_source(c->st, cs->row.id, &fresh, e, sizeof(e)) < 0) {
		fr_crawl_logf(c, "source %lld: %s: reloading its row: %s", (long long)cs->row.id, cs->row.url,
		      e);
		fr_crawl_fatal(c, e);
		return -1;
	}
	fr_store_source_clear(&cs->row);
	cs->row = fresh;
	/* A forum's structure is read again from the stored state. */
	if (cs->forum && !cs->cyc) {
		fr_sinfo_free(cs->forum);
		cs->forum = NULL;
	}
	return 0;
}

/* The holds a stored row implies: its error backoff, else its publisher
 * hints from its last fetch (as learn sets them after a fetch). */
static void
hold_from_row(struct crawl *c, uint32_t i, double now)
{
	const struct fr_store_source *r = &c->src[i].row;
	struct fr_hold_hints hints = fr_crawl_hints(r);
	double hold = fr_hold_from_row(&c->hold, r->err_count, r->backoff_until_s, r->last_fetch_s,
				       &hints, now);
	fr_sched_hold(c->sched, i, hold, now);
}

/* Claims source i just before its fetch starts. Returns 0 to fetch it,
 * 1 when not now (the choice is made again, at no cost to the budget: each
 * worker's share is set by fr_crawl_pass()):
 *  - another worker's lease runs: the source is held until about its end
 *    (--once: asked again soon) and the scheduler picks another;
 *  - another worker fetched it since this worker's copy of the row: the
 *    row and the policy state are reloaded, the lease is released, and the
 *    scheduler chooses again with what the other worker learned (--once:
 *    the source is done).
 * On SQLite every claim is granted without a look at the file. A store
 * failure is fatal (1). */
int
fr_crawl_claim(struct crawl *c, uint32_t i, double now)
{
	struct csrc *cs = &c->src[i];
	double lf = -1, held = 0;
	char e[512];
	int rc = fr_store_claim(c->st, cs->row.id, c->worker, now + c->lease_s, now, &lf, &held, e,
				sizeof(e));

	if (rc < 0) {
		fr_crawl_logf(c, "source %lld: %s: claim: %s", (long long)cs->row.id, cs->row.url, e);
		fr_crawl_fatal(c, e);
		return 1;
	}
	if (rc == 1) {
		c->stats.lease_held++;
		if (c->o->once && held > now + ONCE_RECHECK_S)
			held = now + ONCE_RECHECK_S;
		fr_sched_hold(fr_crawl_pick(c), i, held > now ? held : now + ONCE_RECHECK_S, now);
		return 1;
	}
	if (!(lf > cs->row.last_fetch_s))
		return 0;
	c->stats.fetched_elsewhere++;
	if (reload(c, i) < 0)
		return 1;
	fr_crawl_reseed(c, i, now);
	if (c->order) {
		/* --once: fetched this run, by another worker. */
		fr_sched_hold(c->order, i, INFINITY, now);
		if (!cs->done_once) {
			cs->done_once = 1;
			c->n_done_once++;
		}
	} else {
		hold_from_row(c, i, now);
	}
	if (fr_store_release(c->st, cs->row.id, e, sizeof(e)) < 0) {
		fr_crawl_logf(c, "source %lld: %s: release: %s", (long long)cs->row.id, cs->row.url, e);
		fr_crawl_fatal(c, e);
	}
	return 1;
}

/* Renews source i's lease before a further request of its fetch (the feed
 * after robots.txt, a redirect's next hop, a forum's next page). Returns 0
 * to go on, 1 when another worker has taken the source over (this lease ran
 * out: a long pause on a 429): the fetch is dropped unstored (a forum's
 * cycle undone), the policy learns nothing, and the source waits for that
 * worker's lease. A store failure is fatal (0: the fetch finishes, its
 * commit is skipped). */
int
fr_crawl_renew(struct crawl *c, uint32_t i, double now)
{
	struct csrc *cs = &c->src[i];
	double held = 0;
	char e[512];
	int rc = fr_store_claim(c->st, cs->row.id, c->worker, now + c->lease_s, now, NULL, &held, e,
				sizeof(e));

	if (rc < 0) {
		fr_crawl_logf(c, "source %lld: %s: renewing its lease: %s", (long long)cs->row.id, cs->row.url,
		      e);
		fr_crawl_fatal(c, e);
		return 0;
	}
	if (rc == 0)
		return 0;
	fr_crawl_logf(c, "source %lld: %s: another worker took it over mid-fetch (this worker's lease ran "
		 "out): not stored",
	      (long long)cs->row.id, cs->row.url);
	if (cs->cyc) {
		fr_sinfo_cycle_end(cs->cyc, 0);
		cs->cyc = NULL;
		cs->cyc_bytes = 0;
	}
	free(cs->hop_url);
	cs->hop_url = NULL;
	cs->hops = 0;
	cs->hop_robots = 0;
	fr_crawl_host_leave(c, i);
	cs->busy = 0;
	struct fr_fetch f = {now, FR_FETCH_ERROR, 0, NULL, NULL};
	fr_sched_finish(c->sched, i, &f);
	if (c->order)
		fr_sched_finish(c->order, i, &f);
	fr_crawl_reseed(c, i, now);
	c->stats.lease_held++;
	fr_sched_hold(fr_crawl_pick(c), i, held > now ? held : now + ONCE_RECHECK_S, now);
	return 1;
}
