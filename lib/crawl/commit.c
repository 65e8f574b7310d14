/* commit.c - a fetch's end in the live loop: the policy learns, the source's
 * row takes its new state (validators, errors, backoff, hints, holds), and
 * the store commits it, in a group transaction with the fetches that end
 * close to it. */
#include "crawl/crawl_int.h"

#include "core/timefmt.h"
#include "lang/lang.h"
#include "sched/hold.h"
#include "sched/sched.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A stored row's publisher hints (hold.h). */
struct fr_hold_hints
fr_crawl_hints(const struct fr_store_source *r)
{
	return (struct fr_hold_hints){r->hint_ttl_s, r->hint_period_s, r->hint_max_age_s};
}

/* Ascending times, NaN (no date) after every number. */
static int
cmp_time(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	if (isnan(x) || isnan(y))
		return isnan(x) - isnan(y);
	return x < y ? -1 : x > y;
}

/* The publication times of the new items of oc (is_new), into pub (room
 * for every new item), with the run's delay figures; returns how many. */
size_t
fr_crawl_new_pubs(struct outcome *oc, const uint8_t *is_new, double *pub)
{
	struct crawl *c = oc->c;
	double now = oc->now;
	size_t k = 0;

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
	return k;
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
	/* An API source's page that the fetch goes on from: the policy
	 * learns at the fetch's last page. */
	if (oc->page && oc->page(oc, is_new, n_new, r))
		return;
	if ((n_new || oc->n_extra_pub) &&
	    (pub = malloc((n_new + oc->n_extra_pub) * sizeof(*pub))) != NULL) {
		k = n_new ? fr_crawl_new_pubs(oc, is_new, pub) : 0;
		for (size_t j = 0; j < oc->n_extra_pub; j++)
			pub[k++] = oc->extra_pub[j];
	}
	/* Oldest first, as the simulator gives them (a feed lists its newest
	 * first): the policy learns the gaps between successive items in
	 * order. Items without a date last. */
	if (pub && k > 1)
		qsort(pub, k, sizeof(*pub), cmp_time);
	struct fr_fetch f = {now, oc->status, pub ? k : 0, pub, NULL};
	if (oc->push) {
		/* A WebSub push (push.c): the policy learns as from a fetch,
		 * but no fetch was begun, so the host's state is left alone;
		 * the hold below re-keys the source. */
		c->ops->fetched(fr_sched_policy_ctx(c->sched), fr_sched_state(c->sched, oc->i), &f);
	} else {
		fr_sched_finish(c->sched, oc->i, &f);
		if (c->order)
			fr_sched_finish(c->order, oc->i, &f);
	}
	free(pub);

	/* The store has set last_fetch_s, last_status, last_ok_s and last_error
	 * from the fetch (store.h); the rest is ours. */
	if (!oc->error) {
		if (res && res->outcome == FR_NET_OK) {
			fr_crawl_set_str(&r->etag, res->etag);
			fr_crawl_set_str(&r->last_modified, res->last_modified);
		} else if (res) {
			if (res->etag)
				fr_crawl_set_str(&r->etag, res->etag);
			if (res->last_modified)
				fr_crawl_set_str(&r->last_modified, res->last_modified);
		}
		if (oc->feed) {
			r->hint_ttl_s = oc->feed->ttl_s >= 0 ? (double)oc->feed->ttl_s : -1;
			r->hint_period_s =
			    oc->feed->update_period_s >= 0 ? (double)oc->feed->update_period_s : -1;
			if (oc->feed->title && (!r->title || !r->title[0]))
				fr_crawl_set_str(&r->title, oc->feed->title);
			if (oc->feed->link && !r->site_url)
				fr_crawl_set_str(&r->site_url, oc->feed->link);
		}
		if (res)
			r->hint_max_age_s =
			    fr_hold_lifetime_s(res->max_age_s, res->expires_at_s, res->date_s, now);
	}
	/* The holds (hold.h): an error's backoff; a 429 or 503 pauses the
	 * whole host, until its Retry-After (capped; a huge or far-off value
	 * is the cap), else for a backoff; the pause is stored as this
	 * source's backoff (when longer), which a restart reads back as the
	 * host's pause (setup()), and `sources` shows. The jitter's draws come
	 * in the order they always did: the error's, then the pause's. */
	struct fr_hold_outcome ho = {
	    .error = oc->error != NULL,
	    .status = res ? res->status : 0,
	    .retry_after_at_s = res ? res->retry_after_at_s : -1,
	    .err_count = r->err_count,
	    .hints = fr_crawl_hints(r),
	};
	struct fr_hold h;
	if (ho.error)
		ho.u_error = fr_rng_uniform(&c->rng);
	if (ho.status == 429 || ho.status == 503)
		ho.u_pause = fr_rng_uniform(&c->rng);
	fr_hold_after_fetch(&c->hold, &ho, now, &h);
	r->err_count = h.err_count;
	r->backoff_until_s = h.backoff_until_s;
	if (h.host_until_s > now) {
		double until = h.host_until_s;
		char t[40];
		/* The host that answered: the source's, or a redirect's
		 * target (whose own sources, if any, the pause holds; a host
		 * only redirects lead to is held by fr_crawl_hop_wait). */
		uint32_t ph = cs->at_host != NO_HOST ? cs->at_host : cs->host;
		const char *pname = c->hosts[ph].name ? c->hosts[ph].name : r->host;

		if (ph < c->n_sched_hosts)
			fr_sched_hold_host(fr_crawl_pick(c), ph, until);
		if (until > c->hosts[ph].paused_until_s)
			c->hosts[ph].paused_until_s = until;
		oc->pause_until = until;
		oc->pause_host = pname;
		c->stats.throttled++;
		fr_crawl_logf(c, "host %s answered %ld: paused for %.0f s (until %s)", pname,
			      res->status, until - now, fr_time_format(until, t, sizeof(t)));
		if (c->o->once && fr_hold_once_beyond(until, now)) {
			oc->settled = 1;
			fr_crawl_once_skip_host(c, ph, until, now);
		}
	}
	/* --once waits for no hold beyond FR_CRAWL_ONCE_WAIT_S. */
	if (c->o->once && oc->error && !oc->settled && !oc->throttle_wait &&
	    fr_hold_once_beyond(r->backoff_until_s, now)) {
		oc->settled = 1;
		fr_crawl_logf(c, "source %lld: %s: next try in %.0f s, beyond this pass: left for the next run",
		      (long long)r->id, r->url, r->backoff_until_s - now);
	}

	/* A permanent redirect is adopted once it has held for a few fetches. */
	if (oc->permanent_url && strcmp(oc->permanent_url, r->url) != 0) {
		if (r->redirect_url && !strcmp(r->redirect_url, oc->permanent_url))
			r->redirect_hits++;
		else {
			fr_crawl_set_str(&r->redirect_url, oc->permanent_url);
			r->redirect_hits = 1;
		}
		if (r->redirect_hits >= c->o->redirect_after) {
			fr_crawl_logf(c, "source %lld: %s moved permanently to %s (held for %d fetches)",
			      (long long)r->id, r->url, r->redirect_url, r->redirect_hits);
			fr_crawl_set_str(&r->url, r->redirect_url);
			fr_crawl_set_str(&r->redirect_url, NULL);
			r->redirect_hits = 0;
		}
	} else if (res && !oc->error) {
		fr_crawl_set_str(&r->redirect_url, NULL);
		r->redirect_hits = 0;
	}

	/* Holds: error backoff, a paused host, hints as lower bounds. */
	double hold = h.source_until_s;
	hold = fr_crawl_push_hold(c, oc, hold, now); /* WebSub: a check only, when pushed */
	fr_sched_hold(c->sched, oc->i, hold, now);
	if (c->order)
		fr_sched_hold(c->order, oc->i, hold, now);
	r->next_due_s = fr_sched_due_at(c->sched, oc->i);
	if (!isfinite(r->next_due_s))
		r->next_due_s = 0;
	if (c->o->once && oc->settled)
		fr_sched_hold(fr_crawl_pick(c), oc->i, INFINITY, now);
	else if (c->order && oc->throttle_wait)
		/* --once: tried again when the Retry-After ends (its host's
		 * pause), not after the error backoff stored for later runs. */
		fr_sched_hold(c->order, oc->i, fmax(h.host_until_s, now), now);

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
			fr_crawl_set_str(&r->policy, c->ops->name);
	}
	if (c->ops->rate)
		r->rate_per_day = c->ops->rate(fr_sched_policy_ctx(c->sched),
					       fr_sched_state(c->sched, oc->i), now) * 86400;
}

int
fr_crawl_detect_lang(void *arg, const struct fr_store_item *it, char *code, size_t len)
{
	struct fr_lang_guess g;

	(void)arg;
	if (!fr_lang_detect_item(it->title, it->content ? it->content : it->summary, &g))
		return 0;
	snprintf(code, len, "%s", g.code);
	return 1;
}

void
fr_crawl_fatal(struct crawl *c, const char *why)
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
void
fr_crawl_group_commit(struct crawl *c)
{
	char e[512];

	if (!c->tx_open)
		return;
	c->tx_open = 0;
	if (fr_store_group_end(c->st, 1, e, sizeof(e)) < 0) {
		fr_crawl_logf(c, "store: a group of %u fetch%s rolled back: %s", c->tx_fetches,
		      c->tx_fetches == 1 ? "" : "es", e);
		c->stats.not_stored += c->tx_fetches;
		fr_crawl_fatal(c, e);
	} else {
		c->stats.new_items += c->tx_new;
		c->stats.updated_items += c->tx_updated;
	}
	c->tx_fetches = 0;
	c->tx_new = c->tx_updated = 0;
}

/* Whether the open group should commit now: it is old enough or large
 * enough, or nothing else is in flight to join it. (The end of the run
 * commits it too.) */
int
fr_crawl_group_due(struct crawl *c, double now)
{
	return c->tx_open &&
	       (now - c->tx_since >= c->o->commit_interval_s ||
		c->tx_fetches >= c->o->commit_max || fr_crawl_in_flight(c) == 0);
}

/* Whether a failed transfer may well succeed later: no answer, a timeout,
 * 408, 429 and 5xx. A 404, a parse error, a robots denial are not. */
int
fr_crawl_transient(const struct fr_response *res)
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

/* Stores source i's fetch as oc describes it (items, status, error), the
 * policy learning inside the transaction (learn). */
void
fr_crawl_commit(struct crawl *c, uint32_t i, struct outcome *oc, const struct fr_response *res,
	       const char *error, double now)
{
	struct csrc *cs = &c->src[i];

	/* --once: a 429 or 503 asking to come back within the pass is waited
	 * out (the source held until its Retry-After, learn()), not counted as
	 * a failed attempt: under a host's rate limit, every answer but the
	 * allowed ones is a 429 until the window moves, however many sources
	 * wait. Bounded per source (ONCE_THROTTLES, FR_HOLD_ONCE_WAIT_S of
	 * Retry-After in all); a pause beyond the pass is skipped (learn()). */
	double ra = res ? res->retry_after_at_s : -1;
	if (c->o->once && oc->error && res && (res->status == 429 || res->status == 503) &&
	    c->hold.retry_after && ra > now && !fr_hold_once_beyond(ra, now) &&
	    cs->throttles < ONCE_THROTTLES && cs->throttled_s + (ra - now) <= FR_HOLD_ONCE_WAIT_S) {
		cs->throttles++;
		cs->throttled_s += ra - now;
		oc->throttle_wait = 1;
	} else {
		cs->attempts++;
	}
	oc->settled = !oc->error || (!oc->throttle_wait && cs->attempts >= ONCE_ATTEMPTS) ||
		      (res ? !fr_crawl_transient(res) : !(c->end_outcome && c->end_transient));
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
	/* Languages (docs/store.md): the feed's declared one, and each
	 * written item's detected one. */
	char lang[16];
	if (oc->feed && oc->feed->language) {
		fr_lang_primary(oc->feed->language, lang, sizeof(lang));
		sf.lang = lang;
	}
	sf.detect = fr_crawl_detect_lang;
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
		fr_crawl_logf(c, "source %lld: %s: store: %s", (long long)cs->row.id, cs->row.url, serr);
		fr_crawl_fatal(c, serr);
		/* This fetch is lost with the group's others. */
		if (c->tx_open)
			c->tx_fetches++;
		else
			c->stats.not_stored++;
		fr_crawl_group_commit(c);
	} else if (c->tx_open) {
		c->tx_fetches++;
		c->tx_new += n_new;
		c->tx_updated += n_upd;
	} else {
		c->stats.new_items += n_new;
		c->stats.updated_items += n_upd;
	}
	fr_crawl_share_pause(c, oc->pause_host ? oc->pause_host : cs->row.host, oc->pause_until, now);
	fr_crawl_note_hop_pause(c, i, oc->pause_host, oc->pause_until, now);
	if (oc->error) {
		/* The fetcher's reasons name the URL already. */
		if (res && res->err[0] && strstr(oc->error, cs->row.url))
			fr_crawl_logf(c, "source %lld: %s (error %d in a row, next try in %.0f s)",
			      (long long)cs->row.id, oc->error, cs->row.err_count,
			      cs->row.backoff_until_s - now);
		else
			fr_crawl_logf(c, "source %lld: %s: %s (error %d in a row, next try in %.0f s)",
			      (long long)cs->row.id, cs->row.url, oc->error, cs->row.err_count,
			      cs->row.backoff_until_s - now);
	}
	if (oc->settled && !cs->done_once && !oc->more) {
		cs->done_once = 1;
		c->n_done_once++;
	}
}
