/* crawl.c - the live crawl loop (crawl.h). The scheduler picks, the curl
 * multi fetcher runs many transfers at once on its own thread (fetchq.h),
 * and this thread parses each finished feed and commits it with the
 * source's new state (fetches that end close together share a group
 * transaction). Robots.txt is fetched per host before its first feed,
 * inside the same host slot, so a host never sees two requests closer than
 * its gap. */
#include "crawl.h"

#include "core/err.h"
#include "core/timefmt.h"
#include "core/rng.h"
#include "core/strmap.h"
#include "fetchq.h"
#include "forum/fdate.h"
#include "forum/sinfo.h"
#include "net/robots.h"
#include "url/url.h"
#include "parse/feed.h"
#include "sched/params.h"
#include "sched/policy.h"
#include "sched/sched.h"
#include "store/store.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Response tags: the source id, and this bit for its host's robots.txt. */
#define TAG_ROBOTS 1u

struct host {
	double gap_s;      /* this host's gap: the run's, or its longer Crawl-delay */
	double last_sent_s; /* when this run's latest request to it went out */
	double paused_until_s; /* a 429 or 503 paused it until then (stats) */
	char *name;
};

/* Store meta key of the hosts whose gap still ran when a run ended: the
 * next run waits it out (see save_host_holds). */
#define HOST_HOLDS_KEY "host-holds"


struct csrc {
	struct fr_store_source row;
	uint32_t host, group;
	int done_once;
	int busy;       /* its fetch is under way (begun, not finished) */
	int attempts;   /* fetches this run (--once retries transient errors) */
	int bozo_told;  /* its ill-formedness was logged */
	double feed_at; /* > 0: the feed request waits for this time (after robots.txt
			 * or a redirect on the same host) */
	double req_at;  /* when the slot's latest request went out */
	char *hop_url;  /* following a redirect: the address asked next, else NULL */
	int hop_robots; /* 1: hop_url is on another host, whose robots.txt is asked first */
	char *slot_host; /* the host whose shared slot its request in flight holds
			  * (fr_store_host_claim), else NULL */
	int hops;       /* redirects followed in this fetch */
	int all_permanent; /* every one of them 301 or 308 */
	/* Forums: the learned state, and the cycle under way (its pages go
	 * out one at a time, each after the host's gap). */
	int is_forum;
	struct fr_sinfo *forum;
	struct fr_sinfo_cycle *cyc;
	double cyc_start_s;
	uint64_t cyc_bytes;
	long cyc_last_status;
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
	uint32_t n_hosts;
	struct fr_rng rng;
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
	 * passing over the other choices (pass()); turn[g] counts group g's
	 * choices. */
	int n_workers, n_beats;
	double alive_next_s;
	uint32_t *turn;
	int stopping;
	/* A fetch that ends without a response of its own (robots.txt could
	 * not be had): the fetch log's outcome and status, and whether --once
	 * tries again (set by deny() around its finish). */
	const char *end_outcome;
	long end_status;
	int end_transient;
	int fatal;               /* the store failed: stop */
	char *fatal_err;
	char errbuf[512];
};

static void
logf_(struct crawl *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
logf_(struct crawl *c, const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	if (!c->o->log)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	c->o->log(c->o->arg, line);
}

void
fr_crawl_opts_init(struct fr_crawl_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->mode = FR_RL_PACED;
	o->host_gap_s = 1;
	o->max_crawl_delay_s = 60;
	o->robots = 1;
	o->robots_ttl_s = 86400;
	o->backoff_base_s = 60;
	o->backoff_cap_s = 86400;
	o->retry_after_cap_s = 86400;
	o->retry_after = 1;
	o->hints = 1;
	o->hint_cap_s = 86400;
	o->redirect_after = 3;
	o->commit_interval_s = 0.25;
	o->commit_max = 1000;
	o->seed = 1;
	fr_fetch_opts_init(&o->fetch);
}

static char *
dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

/* Replaces *dst by a copy of s (NULL clears). */
static void
set_str(char **dst, const char *s)
{
	if (*dst == s)
		return;
	free(*dst);
	*dst = dup_or_null(s);
}

/* --once's order, an interval policy: every source is due at the start, a
 * retried one when its hold (backoff, a paused host) ends. The scheduler's
 * due-time heap then costs O(log n) per choice, where an index policy
 * whose urgencies all tie (round robin at the start) re-ranks every due
 * source for each choice. */
static double
once_due(void *ctx, void *st, double now_s, double theta)
{
	(void)ctx;
	(void)now_s;
	(void)theta;
	return fr_policy_last_fetch(st);
}

static const struct fr_policy_ops once_order = {
	.name = "once-order",
	.help = "--once: every source once, in id order, as politeness allows",
	.kind = FR_POLICY_INTERVAL,
	.create = fr_policy_create_no_ctx,
	.state_size = fr_policy_last_fetch_size,
	.init = fr_policy_last_fetch_init,
	.due = once_due,
	.fetched = fr_policy_last_fetch_done,
};

/* The scheduler that chooses (and so holds the politeness state). */
static struct fr_sched *
pick(struct crawl *c)
{
	return c->order ? c->order : c->sched;
}

/* ---- robots.txt ---------------------------------------------------------- */

/* A request leaves a little after the loop decides to send it, by an
 * amount that varies (connection reuse, the poll loop): gaps are kept with
 * this much to spare, so that the host never sees one shorter. */
static double
slack(double gap_s)
{
	return gap_s > 0 ? gap_s * 1.01 + 0.02 : 0;
}

/* The host's Crawl-delay, within bounds, becomes its gap. */
static void
take_crawl_delay(struct crawl *c, uint32_t hi, double cd)
{
	struct host *h = &c->hosts[hi];
	double gap = c->o->host_gap_s;

	/* The robots cache caps cd at max_crawl_delay_s already. */
	if (cd > gap)
		gap = cd;
	if (gap != h->gap_s) {
		h->gap_s = gap;
		fr_sched_set_host_gap(pick(c), hi, slack(gap));
	}
}

/* ---- committing a fetch -------------------------------------------------- */

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
};

static double
backoff_s(struct crawl *c, int n_errors)
{
	double b = c->o->backoff_base_s;

	for (int k = 1; k < n_errors && b < c->o->backoff_cap_s; k++)
		b *= 2;
	if (b > c->o->backoff_cap_s)
		b = c->o->backoff_cap_s;
	/* Jitter in [0.75, 1.25), so sources that failed together spread out. */
	return b * (0.75 + 0.5 * fr_rng_uniform(&c->rng));
}

static double
hint_s(struct crawl *c, const struct fr_store_source *r)
{
	double h = 0;

	if (r->hint_ttl_s > h)
		h = r->hint_ttl_s;
	if (r->hint_period_s > h)
		h = r->hint_period_s;
	if (r->hint_max_age_s > h)
		h = r->hint_max_age_s;
	return h > c->o->hint_cap_s ? c->o->hint_cap_s : h;
}

/* --once: the sources of host not fetched yet and not under way are skipped
 * this pass (its pause ends at until, beyond FR_CRAWL_ONCE_WAIT_S), reported
 * once, and left for the next run (their rows are not touched). */
static void
once_skip_host(struct crawl *c, uint32_t host, double until, double now)
{
	uint32_t n = 0;
	const char *name = NULL;
	char t[40];

	for (uint32_t j = 0; j < c->n; j++) {
		struct csrc *cj = &c->src[j];

		if (cj->host != host)
			continue;
		if (!name)
			name = cj->row.host ? cj->row.host : cj->row.url;
		if (cj->done_once || cj->busy)
			continue;
		cj->done_once = 1;
		c->n_done_once++;
		c->stats.skipped++;
		fr_sched_hold(pick(c), j, INFINITY, now);
		n++;
	}
	if (n)
		logf_(c, "host %s paused until %s (%.0f s), beyond this pass: %u sources skipped, "
			 "left for the next run",
		      name ? name : "?", fr_time_format(until, t, sizeof(t)), until - now, n);
}

/* Inside the store's transaction: the policy learns, the row takes the
 * source's new state. */
static void
learn(void *arg, const uint8_t *is_new, size_t n_new, struct fr_store_source *r)
{
	struct outcome *oc = arg;
	struct crawl *c = oc->c;
	struct csrc *cs = &c->src[oc->i];
	const struct fr_response *res = oc->res;
	double *pub = NULL, now = oc->now;
	size_t k = 0;

	oc->n_new = n_new;
	if (n_new && (pub = malloc(n_new * sizeof(*pub))) != NULL) {
		for (size_t j = 0; j < oc->n_items; j++) {
			const struct fr_store_item *it = &oc->items[j];
			double p = NAN;

			if (!is_new[j])
				continue;
			if (it->published_s != INT64_MIN)
				p = (double)it->published_s;
			else if (it->updated_s != INT64_MIN)
				p = (double)it->updated_s;
			/* A forum's first crawl brings its whole history: only
			 * what appeared since the previous cycle is news. */
			if (oc->learn_since_s > 0 && !(p >= oc->learn_since_s))
				continue;
			if (p > now)
				p = now; /* a clock ahead of ours */
			if (isfinite(p) && p >= c->stats.started_s) {
				c->stats.with_delay++;
				c->stats.delay_sum_s += now - p;
			}
			pub[k++] = p;
		}
	}
	struct fr_fetch f = {now, oc->status, pub ? k : 0, pub, NULL};
	fr_sched_finish(c->sched, oc->i, &f);
	if (c->order)
		fr_sched_finish(c->order, oc->i, &f);
	free(pub);

	/* The store has set last_fetch_s, last_status, last_ok_s and last_error
	 * from the fetch (store.h); the rest is ours. */
	if (!oc->error) {
		r->err_count = 0;
		r->backoff_until_s = 0;
		if (res && res->outcome == FR_NET_OK) {
			set_str(&r->etag, res->etag);
			set_str(&r->last_modified, res->last_modified);
		} else if (res) {
			if (res->etag)
				set_str(&r->etag, res->etag);
			if (res->last_modified)
				set_str(&r->last_modified, res->last_modified);
		}
		if (oc->feed) {
			r->hint_ttl_s = oc->feed->ttl_s >= 0 ? (double)oc->feed->ttl_s : -1;
			r->hint_period_s =
			    oc->feed->update_period_s >= 0 ? (double)oc->feed->update_period_s : -1;
			if (oc->feed->title && (!r->title || !r->title[0]))
				set_str(&r->title, oc->feed->title);
			if (oc->feed->link && !r->site_url)
				set_str(&r->site_url, oc->feed->link);
		}
		if (res)
			r->hint_max_age_s = res->max_age_s > 0 ? res->max_age_s : -1;
	} else {
		r->err_count++;
		r->backoff_until_s = now + backoff_s(c, r->err_count);
	}
	/* A 429 or 503 pauses the whole host: until its Retry-After (capped;
	 * a huge or far-off value is the cap), else for a backoff. The pause
	 * is stored as this source's backoff (when longer), which a restart
	 * reads back as the host's pause (setup()), and `sources` shows. */
	if (res && (res->status == 429 || res->status == 503)) {
		double until = now + backoff_s(c, 1);
		if (c->o->retry_after && res->retry_after_at_s > 0) {
			until = res->retry_after_at_s;
			if (!(until <= now + c->o->retry_after_cap_s))
				until = now + c->o->retry_after_cap_s;
		}
		if (until > now) {
			char t[40];

			fr_sched_hold_host(pick(c), cs->host, until);
			if (until > c->hosts[cs->host].paused_until_s)
				c->hosts[cs->host].paused_until_s = until;
			oc->pause_until = until;
			if (oc->error && until > r->backoff_until_s)
				r->backoff_until_s = until;
			c->stats.throttled++;
			logf_(c, "host %s answered %ld: paused for %.0f s (until %s)", r->host,
			      res->status, until - now, fr_time_format(until, t, sizeof(t)));
			if (c->o->once && until > now + FR_CRAWL_ONCE_WAIT_S) {
				oc->settled = 1;
				once_skip_host(c, cs->host, until, now);
			}
		}
	}
	/* --once waits for no hold beyond FR_CRAWL_ONCE_WAIT_S. */
	if (c->o->once && oc->error && !oc->settled && r->backoff_until_s > now + FR_CRAWL_ONCE_WAIT_S) {
		oc->settled = 1;
		logf_(c, "source %lld: %s: next try in %.0f s, beyond this pass: left for the next run",
		      (long long)r->id, r->url, r->backoff_until_s - now);
	}

	/* A permanent redirect is adopted once it has held for a few fetches. */
	if (oc->permanent_url && strcmp(oc->permanent_url, r->url) != 0) {
		if (r->redirect_url && !strcmp(r->redirect_url, oc->permanent_url))
			r->redirect_hits++;
		else {
			set_str(&r->redirect_url, oc->permanent_url);
			r->redirect_hits = 1;
		}
		if (r->redirect_hits >= c->o->redirect_after) {
			logf_(c, "source %lld: %s moved permanently to %s (held for %d fetches)",
			      (long long)r->id, r->url, r->redirect_url, r->redirect_hits);
			set_str(&r->url, r->redirect_url);
			set_str(&r->redirect_url, NULL);
			r->redirect_hits = 0;
		}
	} else if (res && !oc->error) {
		set_str(&r->redirect_url, NULL);
		r->redirect_hits = 0;
	}

	/* Holds: error backoff, a paused host, hints as lower bounds. */
	double hold = -INFINITY;
	if (oc->error)
		hold = r->backoff_until_s;
	else if (c->o->hints && hint_s(c, r) > 0)
		hold = now + hint_s(c, r);
	fr_sched_hold(c->sched, oc->i, hold, now);
	if (c->order)
		fr_sched_hold(c->order, oc->i, hold, now);
	r->next_due_s = fr_sched_due_at(c->sched, oc->i);
	if (!isfinite(r->next_due_s))
		r->next_due_s = 0;
	if (c->o->once && oc->settled)
		fr_sched_hold(pick(c), oc->i, INFINITY, now);

	/* The learned state (into the row's own buffer when it has the size). */
	size_t sz = fr_sched_state_size(c->sched);
	void *blob = r->policy_state && r->policy_state_len == sz ? r->policy_state
								  : malloc(sz ? sz : 1);
	if (blob) {
		memcpy(blob, fr_sched_state(c->sched, oc->i), sz);
		if (blob != r->policy_state)
			free(r->policy_state);
		r->policy_state = blob;
		r->policy_state_len = sz;
		if (!r->policy || strcmp(r->policy, c->ops->name) != 0)
			set_str(&r->policy, c->ops->name);
	}
	if (c->ops->rate)
		r->rate_per_day = c->ops->rate(fr_sched_policy_ctx(c->sched),
					       fr_sched_state(c->sched, oc->i), now) * 86400;
}

/* ---- group commits -------------------------------------------------------- */

static void
fatal(struct crawl *c, const char *why)
{
	if (!c->fatal) {
		c->fatal = 1;
		c->fatal_err = strdup(why);
	}
}

/* Before a fetch's commit: opens the group's transaction unless one is
 * open (or groups are off). When that fails (e.g. another writer holds the
 * lock past the busy timeout) the fetch commits alone and reports its own
 * error. */
static void
group_open(struct crawl *c, double now)
{
	char e[512];

	if (c->tx_open || !(c->o->commit_interval_s > 0) || c->fatal)
		return;
	if (fr_store_group_begin(c->st, e, sizeof(e)) < 0)
		return;
	c->tx_open = 1;
	c->tx_since = now;
	c->tx_fetches = 0;
	c->tx_new = c->tx_updated = 0;
}

/* Commits the open group: only now are its fetches stored (a crash before
 * loses them all, and their sources are fetched again on restart with the
 * state they had). A failed commit, or a fetch that failed in the group
 * (which rolled it back), is fatal. */
static void
group_commit(struct crawl *c)
{
	char e[512];

	if (!c->tx_open)
		return;
	c->tx_open = 0;
	if (fr_store_group_end(c->st, 1, e, sizeof(e)) < 0) {
		logf_(c, "store: a group of %u fetch%s rolled back: %s", c->tx_fetches,
		      c->tx_fetches == 1 ? "" : "es", e);
		c->stats.not_stored += c->tx_fetches;
		fatal(c, e);
	} else {
		c->stats.new_items += c->tx_new;
		c->stats.updated_items += c->tx_updated;
	}
	c->tx_fetches = 0;
	c->tx_new = c->tx_updated = 0;
}

/* Transfers at once in the fetcher (which would queue more itself, with
 * their start time taken too early). */
static size_t
fetch_room(const struct crawl *c)
{
	return c->o->fetch.max_total > 0 ? (size_t)c->o->fetch.max_total : 64;
}

/* Fetches under way: transfers whose responses the loop has not taken. */
static size_t
in_flight(struct crawl *c)
{
	return fr_fetchq_running(c->fetcher);
}

/* Whether the open group should commit now: it is old enough or large
 * enough, or nothing else is in flight to join it. (The end of the run
 * commits it too.) */
static int
group_due(struct crawl *c, double now)
{
	return c->tx_open &&
	       (now - c->tx_since >= c->o->commit_interval_s ||
		c->tx_fetches >= c->o->commit_max || in_flight(c) == 0);
}

/* --once: a transient failure is retried (after its backoff or the host's
 * pause) up to this many fetches in all. */
#define ONCE_ATTEMPTS 3

/* Whether a failed transfer may well succeed later: no answer, a timeout,
 * 408, 429 and 5xx. A 404, a parse error, a robots denial are not. */
static int
transient(const struct fr_response *res)
{
	if (!res)
		return 0;
	switch (res->outcome) {
	case FR_NET_TIMEOUT:
	case FR_NET_DNS:
	case FR_NET_CONNECT:
	case FR_NET_OTHER:
		return 1;
	case FR_NET_HTTP_ERROR:
		return res->status == 408 || res->status == 429 || res->status >= 500;
	default:
		return 0;
	}
}

/* Frees the strings of items built by feed_items. */
static struct fr_store_item *
feed_items(const struct fr_feed *feed)
{
	struct fr_store_item *it = calloc(feed->n_items ? feed->n_items : 1, sizeof(*it));

	if (!it)
		return NULL;
	for (size_t j = 0; j < feed->n_items; j++) {
		const struct fr_feed_item *e = &feed->items[j];

		it[j].id = e->id;
		it[j].url = e->link;
		it[j].title = e->title;
		it[j].author = e->author;
		it[j].summary = e->summary;
		it[j].content = e->content;
		it[j].enclosure_length = -1;
		if (e->n_enclosures) {
			it[j].enclosure_url = e->enclosures[0].url;
			it[j].enclosure_type = e->enclosures[0].type;
			it[j].enclosure_length = e->enclosures[0].length;
		}
		it[j].published_s = e->published_s;
		it[j].updated_s = e->updated_s;
	}
	return it;
}

/* A 429/503 pause of host, shared with the other workers of the store: the
 * host's row in `hosts` (fr_store_host_done raises its next allowed time,
 * never lowers it), so that no worker asks it before until. A no-op on
 * SQLite (one crawler per file). */
static void
share_pause(struct crawl *c, const char *host, double until, double now)
{
	char e[512];

	if (!host || !*host || !(until > now))
		return;
	if (fr_store_host_done(c->st, host, until - now, e, sizeof(e)) < 0)
		logf_(c, "host %s: sharing its pause: %s", host, e);
}

/* Stores source i's fetch as oc describes it (items, status, error), the
 * policy learning inside the transaction (learn). */
static void
commit_outcome(struct crawl *c, uint32_t i, struct outcome *oc, const struct fr_response *res,
	       const char *error, double now)
{
	struct csrc *cs = &c->src[i];

	cs->attempts++;
	oc->settled = !oc->error || cs->attempts >= ONCE_ATTEMPTS ||
		      (res ? !transient(res) : !(c->end_outcome && c->end_transient));
	struct fr_store_fetch sf = {
		.source_id = cs->row.id,
		.time_s = now,
		.duration_s = res ? res->elapsed_s : oc->duration_s,
		.status = res ? res->status : c->end_outcome ? c->end_status : 0,
		.outcome = oc->outcome_name ? oc->outcome_name
			   : c->end_outcome ? c->end_outcome
			   : error        ? "robots-denied"
			   : res          ? fr_net_outcome_name(res->outcome)
					  : "none",
		.bytes = res ? (int64_t)res->wire_bytes : oc->bytes,
		.error = oc->error,
		.items = oc->items,
		.n_items = oc->n_items,
	};
	if (oc->error && res && res->outcome == FR_NET_OK)
		sf.outcome = "parse-error";
	size_t n_new = 0, n_upd = 0;
	char serr[512];
	group_open(c, now);
	if (c->fatal) {
		/* After a store failure nothing more is committed: the rows of a
		 * rolled-back group are ahead of the store. The source is
		 * fetched again next run. */
		c->stats.not_stored++;
	} else if (fr_store_commit_fetch(c->st, &sf, learn, oc, &cs->row, &n_new, &n_upd, serr,
					 sizeof(serr)) < 0) {
		/* Nothing of this fetch was stored, nor (in a group) anything
		 * of the group: those sources keep their stored state and are
		 * fetched again. The store failing is fatal to the run. */
		logf_(c, "source %lld: %s: store: %s", (long long)cs->row.id, cs->row.url, serr);
		fatal(c, serr);
		/* This fetch is lost with the group's others. */
		if (c->tx_open)
			c->tx_fetches++;
		else
			c->stats.not_stored++;
		group_commit(c);
	} else if (c->tx_open) {
		c->tx_fetches++;
		c->tx_new += n_new;
		c->tx_updated += n_upd;
	} else {
		c->stats.new_items += n_new;
		c->stats.updated_items += n_upd;
	}
	share_pause(c, cs->row.host, oc->pause_until, now);
	if (oc->error) {
		/* The fetcher's reasons name the URL already. */
		if (res && res->err[0] && strstr(oc->error, cs->row.url))
			logf_(c, "source %lld: %s (error %d in a row, next try in %.0f s)",
			      (long long)cs->row.id, oc->error, cs->row.err_count,
			      cs->row.backoff_until_s - now);
		else
			logf_(c, "source %lld: %s: %s (error %d in a row, next try in %.0f s)",
			      (long long)cs->row.id, cs->row.url, oc->error, cs->row.err_count,
			      cs->row.backoff_until_s - now);
	}
	if (oc->settled && !cs->done_once) {
		cs->done_once = 1;
		c->n_done_once++;
	}
}

/* Ends source i's fetch: parse, commit, learn. res is NULL when the fetch
 * never went out (robots.txt denial, error says why). */
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
static int
slot_claim(struct crawl *c, uint32_t i, const char *url, double *wait_s)
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
		logf_(c, "host %s: claim: %s", host, e);
		fatal(c, e);
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
static void
slot_done(struct crawl *c, uint32_t i, double next_in_s)
{
	struct csrc *cs = &c->src[i];
	char e[512];

	if (!cs->slot_host)
		return;
	if (fr_store_host_done(c->st, cs->slot_host, next_in_s, e, sizeof(e)) < 0)
		logf_(c, "host %s: freeing its slot: %s", cs->slot_host, e);
	free(cs->slot_host);
	cs->slot_host = NULL;
}

/* The slot of source i's request, whose response has come: the host's
 * gap across workers runs from now. Not from the request's send time as
 * the worker's own gap does: the time a transfer reports (libcurl's
 * pretransfer) can precede the bytes reaching the host by tens of ms on a
 * loaded machine, while the response's end follows the host's answer, so
 * the host sees the next request at least a gap after it answered. */
static void
slot_sent(struct crawl *c, uint32_t i, double now)
{
	(void)now;
	slot_done(c, i, slack(c->hosts[c->src[i].host].gap_s));
}

static void
finish(struct crawl *c, uint32_t i, const struct fr_response *res, const char *error, double now)
{
	struct csrc *cs = &c->src[i];
	struct outcome oc = {.c = c, .i = i, .now = now, .res = res, .error = error};
	struct fr_feed *feed = NULL;
	struct fr_store_item *items = NULL;
	char perr[512], msg[768];

	slot_done(c, i, 0); /* a request that never went (a response freed it before) */
	if (cs->hops > 0 && cs->all_permanent && res && cs->hop_url)
		oc.permanent_url = cs->hop_url;
	c->stats.fetches++;
	if (res)
		c->stats.bytes += res->wire_bytes;
	if (!error && res) {
		if (res->outcome == FR_NET_OK) {
			struct fr_feed_opts po = {.base_url = cs->hop_url ? cs->hop_url : cs->row.url,
						  .content_type = res->content_type};
			if (fr_feed_parse(res->body ? res->body : "", res->len, &po, &feed, perr,
					  sizeof(perr)) < 0) {
				snprintf(msg, sizeof(msg), "parse: %s", perr);
				oc.error = msg;
			} else {
				if (feed->bozo && !cs->bozo_told++)
					logf_(c, "source %lld: %s: ill-formed feed, recovered: %s",
					      (long long)cs->row.id, cs->row.url,
					      feed->bozo_exception ? feed->bozo_exception : "?");
				if (feed->n_items_cut)
					logf_(c, "source %lld: %s: %zu items, over the cap of %u: the %zu oldest left out",
					      (long long)cs->row.id, cs->row.url, feed->n_items + feed->n_items_cut,
					      FR_FEED_MAX_ITEMS_DEFAULT, feed->n_items_cut);
				if (feed->n_links_refused)
					logf_(c, "source %lld: %s: %zu javascript:/data:/vbscript: links refused (not stored as links, not followed)",
					      (long long)cs->row.id, cs->row.url, feed->n_links_refused);
				items = feed_items(feed);
				if (!items) {
					oc.error = "out of memory";
				} else {
					oc.items = items;
					oc.n_items = feed->n_items;
					oc.feed = feed;
				}
			}
		} else if (res->outcome != FR_NET_NOT_MODIFIED) {
			snprintf(msg, sizeof(msg), "%s", res->err[0] ? res->err
								     : fr_net_outcome_name(res->outcome));
			oc.error = msg;
		}
	}
	oc.status = oc.error ? FR_FETCH_ERROR
		    : (res && res->outcome == FR_NET_NOT_MODIFIED) ? FR_FETCH_NOT_MODIFIED
								    : FR_FETCH_OK;
	if (oc.error)
		c->stats.errors++;
	else if (oc.status == FR_FETCH_NOT_MODIFIED)
		c->stats.not_modified++;
	else
		c->stats.ok++;

	commit_outcome(c, i, &oc, res, error, now);
	cs->busy = 0;
	free(items);
	fr_feed_free(feed);
	free(cs->hop_url);
	cs->hop_url = NULL;
	cs->hops = 0;
	cs->hop_robots = 0;
}

/* ---- forums: a cycle of page fetches, stored as one fetch ---------------- */

/* The cycle is over: its new posts are the fetch's items, the forum's
 * learned state goes into the row, and both commit together. */
static void
forum_finish(struct crawl *c, uint32_t i, const char *error, double now)
{
	struct csrc *cs = &c->src[i];
	struct outcome oc = {.c = c, .i = i, .now = now, .error = error};
	struct fr_sinfo_cycle_stats st = {0};
	struct fr_store_item *items = NULL;
	size_t n = 0;
	char msg[768];

	slot_done(c, i, 0); /* a request that never went (a response freed it before) */
	c->stats.fetches++;
	if (cs->cyc) {
		const struct fr_sinfo_post *p = fr_sinfo_cycle_posts(cs->cyc, &n);
		fr_sinfo_cycle_stats(cs->cyc, &st);
		if (n && !(items = calloc(n, sizeof(*items)))) {
			oc.error = "out of memory";
			n = 0;
		}
		for (size_t k = 0; k < n; k++) {
			/* One post, one item: its thread is the item's summary
			 * line and title. */
			items[k].id = p[k].id;
			items[k].url = p[k].page_url;
			items[k].title = p[k].thread_title;
			items[k].author = p[k].author;
			items[k].summary = p[k].thread_url;
			items[k].content = p[k].text;
			items[k].enclosure_length = -1;
			items[k].published_s = p[k].published_s;
			items[k].updated_s = INT64_MIN;
		}
		const char *errs = fr_sinfo_cycle_errors(cs->cyc);
		size_t el = strlen(errs);
		if (el)
			logf_(c, "forum %lld: %s: pages not read this cycle: %.*s%s", (long long)cs->row.id,
			      cs->row.url, (int)(el > 600 ? 600 : el - 1), errs, el > 600 ? "..." : "");
		if (!oc.error && st.pages > 0 && st.pages == st.errors) {
			snprintf(msg, sizeof(msg), "no page of the forum could be read (last status %ld)",
				 cs->cyc_last_status);
			oc.error = msg;
		}
		if (!oc.error && st.pages == 0) {
			snprintf(msg, sizeof(msg), "nothing to fetch: %s",
				 el ? errs : "no forum structure found");
			oc.error = msg;
		}
	} else if (!oc.error) {
		oc.error = "the forum's cycle could not start";
	}
	oc.items = items;
	oc.n_items = n;
	oc.status = oc.error ? FR_FETCH_ERROR : FR_FETCH_OK;
	oc.outcome_name = oc.error ? "forum-error" : "forum-cycle";
	oc.bytes = (int64_t)cs->cyc_bytes;
	oc.duration_s = now - cs->cyc_start_s;
	oc.learn_since_s = cs->row.last_ok_s > 0 ? cs->row.last_ok_s : cs->cyc_start_s;
	if (oc.error)
		c->stats.errors++;
	else
		c->stats.ok++;
	/* The state after the cycle is stored with its posts. */
	if (!oc.error && cs->cyc) {
		void *blob = NULL;
		size_t len = 0;
		fr_sinfo_cycle_settle(cs->cyc);
		if (fr_sinfo_save(cs->forum, &blob, &len) == 0) {
			free(cs->row.kind_state);
			cs->row.kind_state = blob;
			cs->row.kind_state_len = len;
		} else {
			oc.error = "out of memory";
			oc.status = FR_FETCH_ERROR;
		}
	}
	if (!oc.error && !cs->row.site_url && cs->forum && fr_sinfo_entry(cs->forum))
		set_str(&cs->row.site_url, fr_sinfo_entry(cs->forum));
	int ok_before = !c->fatal;
	commit_outcome(c, i, &oc, NULL, error, now);
	cs->busy = 0;
	free(items);
	/* A store failure puts the forum back as it was: its posts are not
	 * stored, and the next run repeats the cycle. */
	fr_sinfo_cycle_end(cs->cyc, !oc.error && ok_before && !c->fatal);
	cs->cyc = NULL;
	cs->cyc_bytes = 0;
}

/* Sends the cycle's next page (or the next hop of a redirect), or ends the
 * cycle when there is none. */
static int
submit_forum(struct crawl *c, uint32_t i)
{
	struct csrc *cs = &c->src[i];
	double now = fr_time_now();
	char e[512];

	cs->feed_at = 0;
	if (!cs->forum) {
		int rc = cs->row.kind_state && cs->row.kind_state_len
				 ? fr_sinfo_load(cs->row.kind_state, cs->row.kind_state_len, &cs->forum,
						 e, sizeof(e))
				 : fr_sinfo_new(cs->row.url, &cs->forum, e, sizeof(e));
		if (rc < 0) {
			forum_finish(c, i, e, now);
			return -1;
		}
	}
	if (!cs->cyc) {
		if (fr_sinfo_cycle_begin(cs->forum, &c->fopts, now, &cs->cyc, e, sizeof(e)) < 0) {
			forum_finish(c, i, e, now);
			return -1;
		}
		cs->cyc_start_s = now;
		cs->cyc_bytes = 0;
		cs->cyc_last_status = 0;
	}
	for (;;) {
		const char *url = cs->hop_url;
		if (!url) {
			if (c->stopping || !(url = fr_sinfo_cycle_next(cs->cyc))) {
				if (c->stopping) {
					/* Not finished: nothing of it is stored. */
					fr_sinfo_cycle_end(cs->cyc, 0);
					cs->cyc = NULL;
					return 0;
				}
				forum_finish(c, i, NULL, now);
				return 0;
			}
		}
		if (c->robots) {
			double cd = -1;
			enum fr_robots_verdict v = fr_robots_cache_check(c->robots, url, now, &cd);
			if (v == FR_ROBOTS_DENIED) {
				/* A page robots.txt forbids is skipped, not fetched. */
				c->stats.robots_denied++;
				free(cs->hop_url);
				cs->hop_url = NULL;
				cs->hops = 0;
				fr_sinfo_cycle_feed(cs->cyc, 0, NULL, 0, now);
				continue;
			}
			if (v == FR_ROBOTS_FETCH || v == FR_ROBOTS_PENDING) {
				/* A page on a host whose robots.txt is not known (a
				 * redirect to another host): that robots.txt first, as
				 * for a feed's redirect; the page is asked after it,
				 * from hop_url, and skipped if it forbids the page. */
				char *u;

				if (!cs->hop_url)
					set_str(&cs->hop_url, url);
				if (v == FR_ROBOTS_FETCH && (u = fr_robots_url(url)) != NULL) {
					struct fr_request rq = {u, NULL, NULL, (uint64_t)i << 1 | TAG_ROBOTS};
					int ok = fr_fetchq_submit(c->fetcher, &rq, e, sizeof(e)) == 0;

					free(u);
					if (ok) {
						cs->req_at = now;
						cs->hop_robots = 1;
						return 0;
					}
				}
				/* Another source is fetching it: asked again in a second. */
				cs->feed_at = now + 1;
				c->deferred[c->n_deferred++] = i;
				return 0;
			}
		}
		cs->req_at = now;
		struct fr_request rq = {url, NULL, NULL, (uint64_t)i << 1};
		if (fr_fetchq_submit(c->fetcher, &rq, e, sizeof(e)) < 0) {
			fr_sinfo_cycle_feed(cs->cyc, 0, NULL, 0, now);
			continue;
		}
		return 0;
	}
}

/* A page of a forum's cycle came back: fed to the cycle; the next one
 * waits for the host's gap. */
static void
forum_page_done(struct crawl *c, uint32_t i, const struct fr_response *res, double now)
{
	struct csrc *cs = &c->src[i];

	c->stats.bytes += res->wire_bytes;
	cs->cyc_bytes += res->wire_bytes;
	cs->cyc_last_status = res->status;
	if (res->outcome == FR_NET_HTTP_ERROR && res->status >= 300 && res->status < 400 &&
	    res->location && cs->hops < c->max_hops) {
		/* Followed here, in the host's slot like any page. */
		cs->hops++;
		set_str(&cs->hop_url, res->location);
	} else {
		if (!cs->cyc)
			return;
		if (res->outcome == FR_NET_OK)
			fr_sinfo_cycle_feed(cs->cyc, res->status ? res->status : 200, res->body,
					    res->len, now);
		else
			fr_sinfo_cycle_feed(cs->cyc, res->status ? res->status : -1, NULL, 0, now);
		free(cs->hop_url);
		cs->hop_url = NULL;
		cs->hops = 0;
	}
	if (res->status == 429 || res->status == 503) {
		double until = now + backoff_s(c, 1);
		if (c->o->retry_after && res->retry_after_at_s > until &&
		    res->retry_after_at_s < now + c->o->retry_after_cap_s)
			until = res->retry_after_at_s;
		cs->feed_at = until;
		if (until > c->hosts[cs->host].paused_until_s)
			c->hosts[cs->host].paused_until_s = until;
		share_pause(c, cs->row.host, until, now);
		c->stats.throttled++;
		logf_(c, "host %s answered %ld: the forum's next page waits %.0f s", cs->row.host,
		      res->status, until - now);
	} else {
		cs->feed_at = cs->req_at + slack(c->hosts[cs->host].gap_s);
	}
	c->deferred[c->n_deferred++] = i;
}

/* ---- several workers on one store: leases -------------------------------- */

/* --once: a source another worker is fetching is asked about again this
 * soon (its commit, not its lease's end, is what the run waits for). */
#define ONCE_RECHECK_S 1.0
/* Workers say they are alive this often (the first few times sooner:
 * workers started together see each other at once), and count as alive
 * this long. */
#define ALIVE_EVERY_S 2.0
#define ALIVE_FIRST_S 0.25
#define ALIVE_FOR_S 15.0

/* Every ALIVE_EVERY_S: this worker is alive, and how many share the store
 * (1 on SQLite). A store failure is fatal. */
static void
heartbeat(struct crawl *c, double now)
{
	char e[512];
	int n = 1;

	c->alive_next_s = now + (c->n_beats++ < 4 ? ALIVE_FIRST_S : ALIVE_EVERY_S);
	if (fr_store_workers(c->st, c->worker, now, ALIVE_FOR_S, &n, e, sizeof(e)) < 0) {
		logf_(c, "store: workers: %s", e);
		fatal(c, e);
		return;
	}
	if (n != c->n_workers && (n > 1 || c->n_workers > 1))
		logf_(c, "worker %s: %d workers share the store: each spends 1/%d of the budget",
		      c->worker, n, n);
	c->n_workers = n;
}

/* With n workers sharing the store, this one fetches one choice of n in
 * each group and passes over the others: a passed choice counts against
 * the group's budget as a fetch would, and its source keeps its state
 * (fr_sched_pass). So the workers together spend
 * the budget once, however differently their policies rank the sources,
 * and the source comes up again at a later choice. Returns 1 when passed. */
static int
pass(struct crawl *c, uint32_t i, double now)
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
static void
reseed(struct crawl *c, uint32_t i, double now)
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
		logf_(c, "source %lld: %s: reloading its row: %s", (long long)cs->row.id, cs->row.url,
		      e);
		fatal(c, e);
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
	double hold = -INFINITY;

	if (r->err_count > 0 && r->backoff_until_s > now)
		hold = r->backoff_until_s;
	else if (r->err_count == 0 && c->o->hints && hint_s(c, r) > 0)
		hold = r->last_fetch_s + hint_s(c, r);
	fr_sched_hold(c->sched, i, hold, now);
}

/* Claims source i just before its fetch starts. Returns 0 to fetch it,
 * 1 when not now (the choice is made again, at no cost to the budget: each
 * worker's share is set by pass()):
 *  - another worker's lease runs: the source is held until about its end
 *    (--once: asked again soon) and the scheduler picks another;
 *  - another worker fetched it since this worker's copy of the row: the
 *    row and the policy state are reloaded, the lease is released, and the
 *    scheduler chooses again with what the other worker learned (--once:
 *    the source is done).
 * On SQLite every claim is granted without a look at the file. A store
 * failure is fatal (1). */
static int
claim(struct crawl *c, uint32_t i, double now)
{
	struct csrc *cs = &c->src[i];
	double lf = -1, held = 0;
	char e[512];
	int rc = fr_store_claim(c->st, cs->row.id, c->worker, now + c->lease_s, now, &lf, &held, e,
				sizeof(e));

	if (rc < 0) {
		logf_(c, "source %lld: %s: claim: %s", (long long)cs->row.id, cs->row.url, e);
		fatal(c, e);
		return 1;
	}
	if (rc == 1) {
		c->stats.lease_held++;
		if (c->o->once && held > now + ONCE_RECHECK_S)
			held = now + ONCE_RECHECK_S;
		fr_sched_hold(pick(c), i, held > now ? held : now + ONCE_RECHECK_S, now);
		return 1;
	}
	if (!(lf > cs->row.last_fetch_s))
		return 0;
	c->stats.fetched_elsewhere++;
	if (reload(c, i) < 0)
		return 1;
	reseed(c, i, now);
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
		logf_(c, "source %lld: %s: release: %s", (long long)cs->row.id, cs->row.url, e);
		fatal(c, e);
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
static int
renew(struct crawl *c, uint32_t i, double now)
{
	struct csrc *cs = &c->src[i];
	double held = 0;
	char e[512];
	int rc = fr_store_claim(c->st, cs->row.id, c->worker, now + c->lease_s, now, NULL, &held, e,
				sizeof(e));

	if (rc < 0) {
		logf_(c, "source %lld: %s: renewing its lease: %s", (long long)cs->row.id, cs->row.url,
		      e);
		fatal(c, e);
		return 0;
	}
	if (rc == 0)
		return 0;
	logf_(c, "source %lld: %s: another worker took it over mid-fetch (this worker's lease ran "
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
	cs->busy = 0;
	struct fr_fetch f = {now, FR_FETCH_ERROR, 0, NULL, NULL};
	fr_sched_finish(c->sched, i, &f);
	if (c->order)
		fr_sched_finish(c->order, i, &f);
	reseed(c, i, now);
	c->stats.lease_held++;
	fr_sched_hold(pick(c), i, held > now ? held : now + ONCE_RECHECK_S, now);
	return 1;
}

/* ---- starting fetches ---------------------------------------------------- */

static int
submit_feed(struct crawl *c, uint32_t i)
{
	struct csrc *cs = &c->src[i];

	if (cs->is_forum)
		return submit_forum(c, i);

	cs->feed_at = 0;
	cs->hop_robots = 0;
	cs->req_at = fr_time_now();
	struct fr_request rq = {cs->hop_url ? cs->hop_url : cs->row.url, cs->row.etag,
				cs->row.last_modified, (uint64_t)i << 1};
	char e[256];

	if (fr_fetchq_submit(c->fetcher, &rq, e, sizeof(e)) < 0) {
		finish(c, i, NULL, e, fr_time_now());
		return -1;
	}
	return 0;
}

/* Ends source i's fetch without sending it: robots.txt of the address
 * about to be asked (the source's, or a redirect's on another host)
 * forbids it, or could not be had. RFC 9309: a robots.txt that answered
 * 429 or 5xx or did not answer is a temporary failure, retried after the
 * backoff, with its real cause stored (a DNS failure, a refused
 * connection, a TLS error, HTTP 503); only rules a server answered with
 * are a refusal. */
static void
deny(struct crawl *c, uint32_t i, double now)
{
	struct csrc *cs = &c->src[i];
	const char *url = cs->hop_url ? cs->hop_url : cs->row.url;
	char why[640], reason[320], *host = fr_url_host(url);
	const char *hn = host ? host : cs->row.host ? cs->row.host : "its host";
	int out = FR_NET_OTHER;
	long status = 0;

	if (c->robots &&
	    fr_robots_cache_unreachable(c->robots, url, reason, sizeof(reason), &out, &status)) {
		struct fr_response fake;

		memset(&fake, 0, sizeof(fake));
		fake.outcome = (enum fr_net_outcome)out;
		fake.status = status;
		if (fake.outcome == FR_NET_BLOCKED)
			/* The host's address is one the policy refuses. */
			snprintf(why, sizeof(why), "%.200s: not fetched: %s", url, reason);
		else
			snprintf(why, sizeof(why), "robots.txt of %s could not be had (%s): not "
				 "fetched until it can", hn, reason);
		c->end_outcome = fr_net_outcome_name(fake.outcome);
		c->end_status = status;
		c->end_transient = fake.outcome != FR_NET_BLOCKED && transient(&fake);
	} else {
		c->stats.robots_denied++;
		if (cs->hop_url)
			snprintf(why, sizeof(why), "robots.txt of %s disallows %.300s (redirected there)",
				 hn, url);
		else
			snprintf(why, sizeof(why), "robots.txt of %s disallows this address", hn);
	}
	free(host);
	if (cs->is_forum)
		forum_finish(c, i, why, now);
	else
		finish(c, i, NULL, why, now);
	c->end_outcome = NULL;
	c->end_status = 0;
	c->end_transient = 0;
}

/* The next hop of a redirect to another host: that host's robots.txt is
 * asked first (fetched when the cache has none, in the source's slot),
 * then the hop goes out. */
static void
hop_start(struct crawl *c, uint32_t i, double now)
{
	struct csrc *cs = &c->src[i];
	enum fr_robots_verdict v;
	char *u, e[256];

	cs->hop_robots = 0;
	if (!c->robots) {
		submit_feed(c, i);
		return;
	}
	v = fr_robots_cache_check(c->robots, cs->hop_url, now, NULL);
	if (v == FR_ROBOTS_DENIED) {
		deny(c, i, now);
		return;
	}
	if (v == FR_ROBOTS_PENDING) {
		/* Another source is fetching it: asked again in a second. */
		slot_done(c, i, 0);
		cs->hop_robots = 1;
		cs->feed_at = now + 1;
		c->deferred[c->n_deferred++] = i;
		return;
	}
	if (v == FR_ROBOTS_FETCH && (u = fr_robots_url(cs->hop_url)) != NULL) {
		struct fr_request rq = {u, NULL, NULL, (uint64_t)i << 1 | TAG_ROBOTS};
		int ok = fr_fetchq_submit(c->fetcher, &rq, e, sizeof(e)) == 0;

		free(u);
		if (ok) {
			cs->req_at = now;
			cs->hop_robots = 1;
			return;
		}
	}
	submit_feed(c, i);
}

/* Starts source i's fetch at now (the scheduler chose it). Returns 0, -1
 * when it cannot start yet (robots.txt of its origin is being fetched for
 * another source: it is held back a little) or the choice is another
 * worker's share of the budget (pass()), or -2 when its claim was not
 * granted (claim(): the scheduler may offer it again at this same instant,
 * so the caller lets time move first). */
static int
start(struct crawl *c, uint32_t i, double now)
{
	struct csrc *cs = &c->src[i];
	enum fr_robots_verdict v = FR_ROBOTS_ALLOWED;
	double cd = -1;

	if (pass(c, i, now))
		return -1;
	/* Claimed first: a robots.txt check that answers "fetch it" expects
	 * that fetch to follow. */
	if (claim(c, i, now) != 0)
		return -2;
	/* The host's shared slot next (before robots.txt is asked for: its
	 * request goes in this slot). */
	double wait;
	if (slot_claim(c, i, NULL, &wait) != 0) {
		/* Another worker's request to the host is in flight, or its gap
		 * runs: the host waits, the choice is made again. */
		char e[512];

		if (fr_store_release(c->st, cs->row.id, e, sizeof(e)) < 0) {
			logf_(c, "source %lld: %s: release: %s", (long long)cs->row.id, cs->row.url,
			      e);
			fatal(c, e);
		}
		fr_sched_hold_host(pick(c), cs->host, now + wait);
		/* --once waits for no host beyond FR_CRAWL_ONCE_WAIT_S (a pause
		 * another worker met, carried in the shared row). */
		if (c->o->once && wait > FR_CRAWL_ONCE_WAIT_S)
			once_skip_host(c, cs->host, now + wait, now);
		/* -2: the scheduler's batch for this instant may offer the same
		 * source again (the hold applies from its next batch): the loop
		 * lets time move first. Before, it asked the store again and
		 * again at one instant until the other worker's request ended,
		 * and forever when the host was paused for a day. */
		return -2;
	}
	if (c->robots)
		v = fr_robots_cache_check(c->robots, cs->row.url, now, &cd);
	if (v == FR_ROBOTS_PENDING) {
		char e[512];

		slot_done(c, i, 0);
		if (fr_store_release(c->st, cs->row.id, e, sizeof(e)) < 0) {
			logf_(c, "source %lld: %s: release: %s", (long long)cs->row.id, cs->row.url, e);
			fatal(c, e);
		}
		fr_sched_hold(pick(c), i, now + 1, now);
		return -1;
	}
	/* The turn passes only with a fetch that starts (see pass()). */
	c->turn[cs->group]++;
	cs->busy = 1;
	fr_sched_begin(c->sched, i, now);
	if (c->order)
		fr_sched_begin(c->order, i, now);
	if (v == FR_ROBOTS_FETCH) {
		/* robots.txt first, in the host's slot; the feed follows. */
		char *u = fr_robots_url(cs->row.url), e[256];

		if (u) {
			struct fr_request rq = {u, NULL, NULL, (uint64_t)i << 1 | TAG_ROBOTS};
			cs->req_at = now;
			int ok = fr_fetchq_submit(c->fetcher, &rq, e, sizeof(e)) == 0;

			free(u);
			if (ok)
				return 0;
		}
		v = FR_ROBOTS_ALLOWED;
	}
	if (v == FR_ROBOTS_DENIED) {
		deny(c, i, now);
		return 0;
	}
	if (cd >= 0)
		take_crawl_delay(c, cs->host, cd);
	submit_feed(c, i);
	return 0;
}

/* A redirect, followed here rather than by libcurl so that a host never
 * sees the next request of a chain sooner than its gap. Returns 1 when the
 * next hop is on its way, 0 when the chain ends here (too long: the 3xx is
 * the fetch's outcome). */
static int
follow(struct crawl *c, uint32_t i, const struct fr_response *res, double now)
{
	struct csrc *cs = &c->src[i];
	char *host;
	int same;

	if (cs->hops >= c->max_hops)
		return 0;
	if (cs->hops == 0)
		cs->all_permanent = 1;
	cs->hops++;
	if (res->status != 301 && res->status != 308)
		cs->all_permanent = 0;
	set_str(&cs->hop_url, res->location);
	host = fr_url_host(res->location);
	same = host && cs->row.host && !strcmp(host, cs->row.host);
	free(host);
	if (same) {
		cs->feed_at = cs->req_at + slack(c->hosts[cs->host].gap_s);
		c->deferred[c->n_deferred++] = i;
	} else {
		/* Another host: its robots.txt first, then the hop, at once
		 * (its own sources' gaps are not tracked across this chain;
		 * see docs/crawl.md), when that host's shared slot is free,
		 * else once it is (the deferred list). */
		double wait;

		if (slot_claim(c, i, cs->hop_url, &wait) != 0) {
			cs->hop_robots = 1;
			cs->feed_at = now + wait;
			c->deferred[c->n_deferred++] = i;
		} else if (renew(c, i, now) == 0) {
			hop_start(c, i, now);
		} else {
			slot_done(c, i, 0);
		}
	}
	return 1;
}

static void
on_done(void *arg, const struct fr_response *res)
{
	struct crawl *c = arg;
	uint32_t i = (uint32_t)(res->tag >> 1);
	double now = fr_time_now();

	if (i >= c->n)
		return;
	/* The request left when the fetcher's thread took it and a connection
	 * was free and made, a little after this loop decided to send it
	 * (later still on a busy machine, or behind other transfers to one
	 * connect-to target): the host's gap runs from then. */
	double sent = res->sent_s > res->started_s ? res->sent_s : res->started_s;
	if (sent <= now && sent > c->hosts[c->src[i].host].last_sent_s)
		c->hosts[c->src[i].host].last_sent_s = sent;
	if (sent > c->src[i].req_at && sent <= now) {
		c->src[i].req_at = sent;
		fr_sched_host_request(pick(c), i, sent);
		if (c->order)
			fr_sched_host_request(c->sched, i, sent);
	}
	/* robots.txt's slot is freed below, once its Crawl-delay is known. */
	if (!(res->tag & TAG_ROBOTS))
		slot_sent(c, i, now);
	if (res->tag & TAG_ROBOTS) {
		struct csrc *cs = &c->src[i];
		enum fr_robots_verdict v;
		double cd = -1;

		int hop = cs->hop_robots && cs->hop_url;
		const char *ru = hop ? cs->hop_url : cs->row.url;

		c->stats.robots_fetches++;
		fr_robots_cache_put_response(c->robots, ru, res, now);
		v = fr_robots_cache_check(c->robots, ru, now, &cd);
		if (cd >= 0 && !hop)
			take_crawl_delay(c, cs->host, cd);
		cs->hop_robots = 0;
		slot_sent(c, i, now);
		if (v == FR_ROBOTS_DENIED && !cs->is_forum) {
			deny(c, i, now);
		} else {
			/* (A forum's page that robots.txt forbids is skipped by
			 * submit_forum, and the cycle goes on.) */
			/* The feed request keeps the host's gap after robots.txt,
			 * counted from robots.txt's answer: the host logs a
			 * request when it takes it, which at the start of a run
			 * (every host's robots.txt at once) can be well after it
			 * was sent, so a gap counted from the send could reach
			 * the host shorter than the gap. */
			double g = slack(c->hosts[cs->host].gap_s);
			cs->feed_at = fmax(cs->req_at + g, now + g);
			c->deferred[c->n_deferred++] = i;
		}
		return;
	}
	if (c->src[i].is_forum) {
		forum_page_done(c, i, res, now);
		return;
	}
	if (res->outcome == FR_NET_HTTP_ERROR && res->status >= 300 && res->status < 400 &&
	    res->location && follow(c, i, res, now))
		return;
	finish(c, i, res, NULL, now);
}

/* ---- setting up ---------------------------------------------------------- */

static int
load_context(struct crawl *c)
{
	void *buf = NULL;
	size_t len = 0;
	char key[128], e[256];

	if (!c->ops->ctx_load)
		return 0;
	snprintf(key, sizeof(key), "policy-context:%s", c->ops->name);
	if (fr_store_meta_get(c->st, key, &buf, &len) == 0 && buf) {
		if (c->ops->ctx_load(fr_sched_policy_ctx(c->sched), buf, len, e, sizeof(e)) < 0)
			logf_(c,
			      "the saved learned context of policy %s (store key %s) is refused: "
			      "%s; starting it afresh",
			      c->ops->name, key, e);
	}
	free(buf);
	return 0;
}

static void
save_context(struct crawl *c)
{
	char key[128], e[256];
	size_t len;
	void *buf;

	if (!c->ops->ctx_save)
		return;
	len = c->ops->ctx_save(fr_sched_policy_ctx(c->sched), NULL, 0);
	if (!(buf = malloc(len ? len : 1)))
		return;
	len = c->ops->ctx_save(fr_sched_policy_ctx(c->sched), buf, len);
	snprintf(key, sizeof(key), "policy-context:%s", c->ops->name);
	if (fr_store_meta_put(c->st, key, buf, len, e, sizeof(e)) < 0)
		logf_(c, "saving the policy's learned context: %s", e);
	free(buf);
}

static void
crawl_free(struct crawl *c)
{
	fr_fetchq_free(c->fetcher);
	fr_robots_cache_free(c->robots);
	fr_sched_free(c->sched);
	fr_sched_free(c->order);
	if (c->src) {
		for (uint32_t i = 0; i < c->n; i++) {
			fr_store_source_clear(&c->src[i].row);
			free(c->src[i].hop_url);
			free(c->src[i].slot_host);
			fr_sinfo_cycle_end(c->src[i].cyc, 0);
			fr_sinfo_free(c->src[i].forum);
		}
		free(c->src);
	}
	if (c->hosts) {
		for (uint32_t h = 0; h < c->n_hosts; h++)
			free(c->hosts[h].name);
		free(c->hosts);
	}
	fr_fdate_free(c->fdate);
	free(c->fatal_err);
	free(c->deferred);
	free(c->weight);
	free(c->host_of);
	free(c->group_of);
	free(c->turn);
}

/* A host's gap runs across restarts: a run that ends (or is stopped) a
 * moment after asking a host, and a run started right after it, must not
 * ask that host sooner than its gap, Crawl-delay included, though the new
 * run knows neither until it reads robots.txt again. The run that ends
 * stores, for each host whose gap still runs, until when it runs (a request
 * still in flight counts as sent at the end); the next run holds each host
 * until then. After a kill -9 nothing is stored, and the hosts' last fetch
 * times in the store stand in, with the run's own gap. */
static void
save_host_holds(struct crawl *c, double now)
{
	char *buf = NULL, e[256];
	size_t len = 0;
	FILE *f;

	for (uint32_t i = 0; i < c->n; i++)
		if (c->src[i].busy && c->hosts[c->src[i].host].last_sent_s < now)
			c->hosts[c->src[i].host].last_sent_s = now;
	if (!(f = open_memstream(&buf, &len)))
		return;
	for (uint32_t h = 0; h < c->n_hosts; h++) {
		double until = c->hosts[h].last_sent_s + slack(c->hosts[h].gap_s);

		if (until > now && c->hosts[h].name && !strpbrk(c->hosts[h].name, "\t\n"))
			fprintf(f, "%s\t%.6f\n", c->hosts[h].name, until);
	}
	if (fclose(f) != 0) {
		free(buf);
		return;
	}
	if (fr_store_meta_put(c->st, HOST_HOLDS_KEY, buf, len, e, sizeof(e)) < 0)
		logf_(c, "saving the hosts' gaps still running: %s", e);
	free(buf);
}

static void
load_host_holds(struct crawl *c, const struct fr_strmap *hosts, double now)
{
	double *until = calloc(c->n_hosts ? c->n_hosts : 1, sizeof(*until));
	void *buf = NULL;
	size_t len = 0;

	if (!until)
		return;
	for (uint32_t i = 0; i < c->n; i++) {
		double t = c->src[i].row.last_fetch_s + slack(c->o->host_gap_s);

		if (c->src[i].row.last_fetch_s > 0 && t > until[c->src[i].host])
			until[c->src[i].host] = t;
	}
	if (fr_store_meta_get(c->st, HOST_HOLDS_KEY, &buf, &len) == 0 && buf) {
		const char *p = buf, *end = (const char *)buf + len;
		size_t line = 0, bad = 0;

		while (p < end) {
			const char *nl = memchr(p, '\n', (size_t)(end - p)), *tab;
			const char *le = nl ? nl : end;
			char num[40], *ep;
			uint32_t h;
			double t;

			line++;
			tab = memchr(p, '\t', (size_t)(le - p));
			if (!tab || (size_t)(le - tab - 1) >= sizeof(num)) {
				bad++;
			} else {
				memcpy(num, tab + 1, (size_t)(le - tab - 1));
				num[le - tab - 1] = 0;
				t = strtod(num, &ep);
				if (ep == num || *ep || !isfinite(t))
					bad++;
				else if (fr_strmap_find(hosts, p, (size_t)(tab - p), &h) == 1 &&
					 t > until[h] && t < now + 3600)
					until[h] = t;
			}
			p = nl ? nl + 1 : end;
		}
		if (bad)
			logf_(c, "store key %s: %zu of %zu lines unreadable, ignored", HOST_HOLDS_KEY,
			      bad, line);
	}
	free(buf);
	for (uint32_t h = 0; h < c->n_hosts; h++)
		if (until[h] > now)
			fr_sched_hold_host(pick(c), h, until[h]);
	free(until);
}

static int
setup(struct crawl *c, struct fr_params *params, char *err, size_t errlen)
{
	const struct fr_crawl_opts *o = c->o;
	struct fr_store_source *rows = NULL;
	size_t n = 0;
	struct fr_strmap *hosts = NULL, *groups = NULL;
	struct fr_sched_group *gl = NULL;
	uint32_t *host, *group;
	double *weight, now = fr_time_now();
	int rc = -1;

	if (fr_store_load_sources(c->st, &rows, &n, err, errlen) < 0)
		return -1;
	if (n == 0) {
		fr_store_sources_free(rows, n);
		return fr_errf(err, errlen, "no sources to crawl: add some with 'freshet add'");
	}
	c->n = (uint32_t)n;
	c->src = calloc(n, sizeof(*c->src));
	host = c->host_of = malloc(n * sizeof(*host));
	group = c->group_of = malloc(n * sizeof(*group));
	weight = c->weight = malloc(n * sizeof(*weight));
	hosts = fr_strmap_new();
	groups = fr_strmap_new();
	if (!c->src || !host || !group || !weight || !hosts || !groups) {
		fr_errf(err, errlen, "out of memory");
		goto out;
	}
	/* "default" is group 0. */
	uint32_t gid;
	int added;
	if (fr_strmap_intern(groups, "default", 7, &gid, &added) < 0)
		goto oom;
	for (size_t i = 0; i < n; i++) {
		struct csrc *cs = &c->src[i];
		const char *hn;
		char *hfree = NULL;

		cs->row = rows[i];
		memset(&rows[i], 0, sizeof(rows[i]));
		cs->is_forum = cs->row.kind && strcmp(cs->row.kind, "forum") == 0;
		if (cs->is_forum && !c->fdate) {
			if (fr_fdate_new(&c->fdate) < 0) {
				fr_errf(err, errlen, "out of memory");
				goto out;
			}
			c->fopts.mode = FR_SINFO_INCREMENTAL;
			c->fopts.dates = c->fdate;
			c->fopts.max_bytes = o->fetch.max_body;
		}
		hn = cs->row.host;
		if (!hn || !hn[0])
			hn = hfree = fr_url_host(cs->row.url);
		if (!hn)
			hn = cs->row.url;
		if (fr_strmap_intern(hosts, hn, strlen(hn), &cs->host, &added) < 0) {
			free(hfree);
			goto oom;
		}
		free(hfree);
		const char *gn = cs->row.grp && cs->row.grp[0] ? cs->row.grp : "default";
		if (fr_strmap_intern(groups, gn, strlen(gn), &cs->group, &added) < 0)
			goto oom;
		host[i] = cs->host;
		group[i] = cs->group;
		weight[i] = 1;
	}
	c->n_hosts = (uint32_t)fr_strmap_len(hosts);
	uint32_t n_groups = (uint32_t)fr_strmap_len(groups);
	c->hosts = calloc(c->n_hosts, sizeof(*c->hosts));
	c->deferred = malloc(n * sizeof(*c->deferred));
	if (!c->deferred)
		goto oom;
	gl = calloc(n_groups, sizeof(*gl));
	if (!c->hosts || !gl)
		goto oom;
	for (uint32_t h = 0; h < c->n_hosts; h++) {
		c->hosts[h].gap_s = o->host_gap_s;
		c->hosts[h].last_sent_s = -INFINITY;
		if (!(c->hosts[h].name = strdup(fr_strmap_name(hosts, h))))
			goto oom;
	}

	/* Budgets: the default group's, and each named group's own. */
	double calls_per_s = 0;
	for (uint32_t g = 0; g < n_groups; g++) {
		uint32_t members = 0;
		double calls = o->calls, win = o->window_s;

		for (size_t i = 0; i < n; i++)
			members += group[i] == g;
		for (size_t k = 0; k < o->n_groups; k++)
			if (!strcmp(o->groups[k].name, fr_strmap_name(groups, g))) {
				calls = o->groups[k].calls;
				win = o->groups[k].window_s;
			}
		if (!(calls >= 1) || !(win > 0)) {
			/* One fetch per source per 30 minutes on average. */
			calls = members ? members : 1;
			win = 1800;
		}
		if (o->once) {
			/* Everything once, as fast as politeness allows: the
			 * rate limit does not bind. */
			calls = members ? members : 1;
			win = 1e-3;
		}
		gl[g].calls = calls > 4e9 ? 4000000000u : (uint32_t)calls;
		gl[g].window_s = win;
		calls_per_s += calls / win;
	}

	c->env = (struct fr_policy_env){
		.n_sources = c->n,
		.weight = weight,
		.group = group,
		.start_s = now,
		.calls_per_s = calls_per_s,
		.seed = o->seed,
		.host_gap_s = o->host_gap_s,
		.host = host,
		.n_hosts = c->n_hosts,
	};
	struct fr_sched_config sc = {
		.mode = o->mode,
		.host_gap_s = slack(o->host_gap_s),
		.start_s = now,
		.n_groups = n_groups,
		.groups = gl,
		.n_sources = c->n,
		.group = group,
		.host = host,
		.n_hosts = c->n_hosts,
	};
	if (fr_sched_new(&c->sched, c->ops, params, &sc, &c->env, err, errlen) < 0)
		goto out;
	c->turn = calloc(n_groups, sizeof(*c->turn));
	if (!c->turn)
		goto oom;
	if (o->once) {
		struct fr_params none;
		/* No pacing: the budget does not bind (see above), and a paced
		 * limiter would let one fetch start per turn of the loop. */
		struct fr_sched_config oc = sc;

		oc.mode = FR_RL_BURST;
		if (fr_params_parse(&none, once_order.name, err, errlen) < 0 ||
		    fr_sched_new(&c->order, &once_order, &none, &oc, &c->env, err, errlen) < 0)
			goto out;
	}
	load_context(c);
	/* Learned state and holds from earlier runs: a source's backoff, and
	 * its host's pause when the source's last answer was a 429 or 503
	 * (learn() stores the pause as that source's backoff). */
	size_t restored = 0;
	double *paused = calloc(c->n_hosts, sizeof(*paused));
	if (!paused)
		goto oom;
	for (uint32_t i = 0; i < c->n; i++) {
		struct fr_store_source *r = &c->src[i].row;

		if (r->policy && !strcmp(r->policy, c->ops->name) && r->policy_state &&
		    fr_sched_set_state(c->sched, i, r->policy_state, r->policy_state_len, now) == 0)
			restored++;
		if (r->backoff_until_s > now)
			fr_sched_hold(pick(c), i, r->backoff_until_s, now);
		if (r->backoff_until_s > now && r->err_count > 0 &&
		    (r->last_status == 429 || r->last_status == 503) &&
		    r->backoff_until_s > paused[c->src[i].host])
			paused[c->src[i].host] = r->backoff_until_s;
	}
	if (restored)
		logf_(c, "restored the learned state of %zu of %u sources", restored, c->n);
	for (uint32_t h = 0; h < c->n_hosts; h++) {
		char t[40];

		if (!(paused[h] > now))
			continue;
		fr_sched_hold_host(pick(c), h, paused[h]);
		c->hosts[h].paused_until_s = paused[h];
		if (o->once && paused[h] > now + FR_CRAWL_ONCE_WAIT_S)
			once_skip_host(c, h, paused[h], now);
		else
			logf_(c, "host %s paused until %s (%.0f s), as a 429 or 503 asked",
			      fr_strmap_name(hosts, h), fr_time_format(paused[h], t, sizeof(t)),
			      paused[h] - now);
	}
	free(paused);
	load_host_holds(c, hosts, now);
	/* --once waits for no source's backoff beyond FR_CRAWL_ONCE_WAIT_S. */
	for (uint32_t i = 0; o->once && i < c->n; i++) {
		struct csrc *cs = &c->src[i];
		char t[40];

		if (cs->done_once || !(cs->row.backoff_until_s > now + FR_CRAWL_ONCE_WAIT_S))
			continue;
		cs->done_once = 1;
		c->n_done_once++;
		c->stats.skipped++;
		fr_sched_hold(pick(c), i, INFINITY, now);
		logf_(c, "source %lld: %s: in error backoff until %s (%.0f s), beyond this pass: "
			 "skipped, left for the next run",
		      (long long)cs->row.id, cs->row.url,
		      fr_time_format(cs->row.backoff_until_s, t, sizeof(t)),
		      cs->row.backoff_until_s - now);
	}
	/* Redirects are followed by the loop (follow()), hop by hop. */
	struct fr_fetch_opts fo = o->fetch;
	c->max_hops = fo.max_redirects > 0 ? fo.max_redirects : fo.max_redirects < 0 ? 0 : 5;
	fo.max_redirects = -1;
	struct fr_fetcher *fetcher;
	if (fr_fetcher_new(&fetcher, &fo, err, errlen) < 0 ||
	    fr_fetchq_new(&c->fetcher, fetcher, fetch_room(c), err, errlen) < 0)
		goto out;
	if (o->robots) {
		/* An unreachable robots.txt is asked again when the error
		 * backoff would retry the source (at most every 10 minutes). */
		struct fr_robots_cache_opts ro = {
		    .ttl_s = o->robots_ttl_s,
		    .max_crawl_delay_s = o->max_crawl_delay_s,
		    .retry_s = o->backoff_base_s > 0 && o->backoff_base_s < 600 ? o->backoff_base_s
										 : 600};
		const char *ua = o->fetch.user_agent ? o->fetch.user_agent : "freshet";
		if (fr_robots_cache_new(&c->robots, ua, &ro, err, errlen) < 0)
			goto out;
	}
	c->stats.sources = c->n;
	rc = 0;
	goto out;
oom:
	fr_errf(err, errlen, "out of memory");
out:
	fr_strmap_free(hosts);
	fr_strmap_free(groups);
	free(gl);
	fr_store_sources_free(rows, n);
	return rc;
}

/* ---- the loop ------------------------------------------------------------- */

static void
progress(struct crawl *c, double now)
{
	c->stats.now_s = now;
	c->stats.running = fr_fetchq_running(c->fetcher);
	c->stats.hosts = c->n_hosts;
	c->stats.hosts_paused = 0;
	for (uint32_t h = 0; h < c->n_hosts; h++)
		c->stats.hosts_paused += c->hosts[h].paused_until_s > now;
	if (c->o->progress)
		c->o->progress(c->o->arg, &c->stats);
}

int
fr_crawl_run(struct fr_store *st, const struct fr_crawl_opts *o, struct fr_crawl_stats *out,
	     char *err, size_t errlen)
{
	struct crawl cr, *c = &cr;
	struct fr_params params;
	double now, end = INFINITY, next_progress;
	int stopping = 0, rc = -1;

	memset(c, 0, sizeof(*c));
	c->o = o;
	c->st = st;
	fr_rng_seed(&c->rng, o->seed);
	if (o->worker && *o->worker) {
		snprintf(c->worker, sizeof(c->worker), "%s", o->worker);
	} else {
		char host[256];

		if (gethostname(host, sizeof(host)) != 0)
			snprintf(host, sizeof(host), "localhost");
		host[sizeof(host) - 1] = '\0';
		snprintf(c->worker, sizeof(c->worker), "%s:%ld", host, (long)getpid());
	}
	c->lease_s = 2 * (o->fetch.timeout_s > 0 ? o->fetch.timeout_s : 30);
	c->n_workers = 1;
	if (fr_params_parse(&params, o->policy ? o->policy : "freshet", err, errlen) < 0)
		return -1;
	if (!(c->ops = fr_policy_find(params.name)))
		return fr_errf(err, errlen, "unknown policy '%s' (see 'freshet simulate --help')",
			       params.name);
	if (setup(c, &params, err, errlen) < 0)
		goto out;

	now = fr_time_now();
	c->stats.started_s = now;
	next_progress = now + 1;
	if (o->duration_s > 0)
		end = now + o->duration_s;
	for (;;) {
		uint32_t i;
		double at = INFINITY, wake = INFINITY;

		now = fr_time_now();
		if (group_due(c, now))
			group_commit(c);
		if (!o->once && now >= c->alive_next_s)
			heartbeat(c, now);
		if (now >= end && !c->fatal) {
			/* The duration is up: transfers still in flight are aborted
			 * (fr_fetchq_stop below), nothing of them is stored, and their
			 * sources are fetched again next run. */
			c->stats.aborted = in_flight(c);
			if (c->stats.aborted)
				logf_(c, "duration reached: %llu transfers in flight aborted, fetched "
					 "again next run",
				      (unsigned long long)c->stats.aborted);
			break;
		}
		if (!stopping && ((o->stop && *o->stop) || c->fatal ||
				  (o->once && c->n_done_once >= c->n))) {
			stopping = 1;
			c->stopping = 1;
			if (o->stop && *o->stop)
				logf_(c, "stopping: finishing %zu transfers in flight",
				      fr_fetchq_running(c->fetcher));
		}
		if (stopping && in_flight(c) == 0)
			break;
		/* Feed requests that waited out their host's gap after robots.txt. */
		for (uint32_t k = 0; k < c->n_deferred;) {
			uint32_t j = c->deferred[k];

			double slot_wait;

			if (c->src[j].feed_at <= now &&
			    slot_claim(c, j, c->src[j].hop_url, &slot_wait) != 0) {
				/* Another worker's request to the host first. */
				c->src[j].feed_at = now + slot_wait;
			}
			if (c->src[j].feed_at <= now) {
				c->deferred[k] = c->deferred[--c->n_deferred];
				if (renew(c, j, now) != 0) {
					slot_done(c, j, 0);
					continue;
				}
				if (c->src[j].hop_robots) {
					hop_start(c, j, now);
					continue;
				}
				fr_sched_host_request(pick(c), j, now);
				submit_feed(c, j);
			} else {
				if (c->src[j].feed_at < wake)
					wake = c->src[j].feed_at;
				k++;
			}
		}
		/* Start every fetch that is due now, while there is room: the
		 * fetcher's transfers, and as many more waiting in its queue to
		 * start the moment one ends (a transfer's host gap runs from
		 * when it really starts). */
		size_t room_cap = 2 * fetch_room(c);
		while (!stopping && fr_fetchq_running(c->fetcher) < room_cap &&
		       fr_sched_next(pick(c), now, &i, &at) && at <= now) {
			if (start(c, i, now) == -2)
				break; /* at <= now: the loop comes back in a millisecond */
			at = INFINITY;
		}
		c->stats.next_due_s = isfinite(at) ? at : 0;
		if (at < wake)
			wake = at;
		/* Wait for a transfer, or until the next fetch is due (at most
		 * a second, to show progress and see a stop request). */
		double wait = isfinite(wake) ? wake - now : 1;
		if (wait > 1)
			wait = 1;
		if (end - now < wait)
			wait = end - now;
		if (c->tx_open && c->tx_since + o->commit_interval_s - now < wait)
			wait = c->tx_since + o->commit_interval_s - now;
		if (wait < 0.001)
			wait = 0.001;
		if (fr_fetchq_running(c->fetcher) > 0) {
			int prc = fr_fetchq_poll(c->fetcher, (int)(wait * 1000), on_done, c);

			if (prc < 0) {
				group_commit(c);
				fr_errf(err, errlen, "the HTTP layer failed (libcurl multi)");
				goto out;
			}
		} else {
			struct timespec ts = {(time_t)wait, (long)((wait - (time_t)wait) * 1e9)};
			if (stopping && in_flight(c) == 0)
				break; /* feed requests still waiting were never sent: fetched next run */
			nanosleep(&ts, NULL);
		}
		now = fr_time_now();
		if (now >= next_progress) {
			progress(c, now);
			next_progress = now + 1;
		}
	}
	/* The fetcher's thread closes its connections while the last group
	 * commits and the log is copied into the database. */
	fr_fetchq_stop(c->fetcher);
	group_commit(c);
	save_context(c);
	save_host_holds(c, fr_time_now());
	if (c->stats.lease_held || c->stats.fetched_elsewhere || c->stats.passed ||
	    c->stats.host_held)
		logf_(c, "worker %s: %llu choices left to the other workers' share of the budget, "
			 "%llu were being fetched by another worker, %llu had been fetched by one "
			 "(state reloaded), %llu requests waited for another worker's to their host",
		      c->worker, (unsigned long long)c->stats.passed,
		      (unsigned long long)c->stats.lease_held,
		      (unsigned long long)c->stats.fetched_elsewhere,
		      (unsigned long long)c->stats.host_held);
	if (!c->fatal && fr_store_checkpoint(c->st, c->errbuf, sizeof(c->errbuf)) < 0)
		logf_(c, "store: %s", c->errbuf);
	progress(c, fr_time_now());
	if (c->fatal) {
		/* What was lost, in all: the rolled-back group's fetches, or the
		 * one that failed alone, and those that ended after. */
		logf_(c, "store: %llu fetch%s not stored (rolled back, or ended after the store "
			 "failed; fetched again next run)",
		      (unsigned long long)c->stats.not_stored, c->stats.not_stored == 1 ? "" : "es");
		fr_errf(err, errlen, "store: %s", c->fatal_err ? c->fatal_err : "failed");
		goto out;
	}
	rc = 0;
out:
	if (out)
		*out = c->stats;
	crawl_free(c);
	return rc;
}
