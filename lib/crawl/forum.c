/* forum.c - a forum's fetch in the live loop: a cycle of page requests,
 * one at a time in the host's gap, stored as one fetch. */
#include "crawl/crawl_int.h"

#include "core/timefmt.h"
#include "crawl/fetchq.h"
#include "net/robots.h"
#include "sched/hold.h"
#include "sched/sched.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The cycle is over: its new posts are the fetch's items, the forum's
 * learned state goes into the row, and both commit together. */
void
fr_crawl_forum_finish(struct crawl *c, uint32_t i, const char *error, double now)
{
	struct csrc *cs = &c->src[i];
	struct outcome oc = {.c = c, .i = i, .now = now, .error = error};
	struct fr_sinfo_cycle_stats st = {0};
	struct fr_store_item *items = NULL;
	size_t n = 0;
	char msg[768];

	fr_crawl_slot_done(c, i, 0); /* a request that never went (a response freed it before) */
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
			fr_crawl_logf(c, "forum %lld: %s: pages not read this cycle: %.*s%s", (long long)cs->row.id,
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
		fr_crawl_set_str(&cs->row.site_url, fr_sinfo_entry(cs->forum));
	int ok_before = !c->fatal;
	fr_crawl_commit(c, i, &oc, NULL, error, now);
	fr_crawl_host_leave(c, i);
	cs->busy = 0;
	free(items);
	/* A store failure puts the forum back as it was: its posts are not
	 * stored, and the next run repeats the cycle. */
	fr_sinfo_cycle_end(cs->cyc, !oc.error && ok_before && !c->fatal);
	cs->cyc = NULL;
	cs->cyc_bytes = 0;
}

/* Whether source i's next request, to url, must wait for url's host: a
 * page (or its robots.txt) on another host than the one the cycle's last
 * request was on (a pager's link to another host, a row on a mirror)
 * waits, as a redirect's hop does, until no other fetch is on that host
 * and its gap since its latest answer has run, its pause too
 * (fr_crawl_hop_wait); the cycle's first request goes when the scheduler
 * chose the forum, which kept its own host's gap. When it must wait, url is
 * kept (hop_url) and the source deferred: 1. */
static int
page_waits(struct crawl *c, uint32_t i, const char *url, double now)
{
	struct csrc *cs = &c->src[i];
	uint32_t h = fr_crawl_host_id(c, url);
	double w;

	if (h == NO_HOST || h == cs->at_host || (h == cs->host && cs->at_host == NO_HOST))
		return 0;
	w = fr_crawl_hop_wait(c, i, h, now);
	if (!(w > now))
		return 0;
	if (!cs->hop_url)
		fr_crawl_set_str(&cs->hop_url, url);
	cs->feed_at = w;
	c->deferred[c->n_deferred++] = i;
	return 1;
}

/* Sends the cycle's next page (or the next hop of a redirect), or ends the
 * cycle when there is none. */
int
fr_crawl_forum_submit(struct crawl *c, uint32_t i)
{
	struct csrc *cs = &c->src[i];
	double now = fr_crawl_now(c);
	char e[512];

	cs->feed_at = 0;
	if (!cs->forum) {
		int rc = cs->row.kind_state && cs->row.kind_state_len
				 ? fr_sinfo_load(cs->row.kind_state, cs->row.kind_state_len, &cs->forum,
						 e, sizeof(e))
				 : fr_sinfo_new(cs->row.url, &cs->forum, e, sizeof(e));
		if (rc < 0) {
			fr_crawl_forum_finish(c, i, e, now);
			return -1;
		}
	}
	if (!cs->cyc) {
		if (fr_sinfo_cycle_begin(cs->forum, &c->fopts, now, &cs->cyc, e, sizeof(e)) < 0) {
			fr_crawl_forum_finish(c, i, e, now);
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
				fr_crawl_forum_finish(c, i, NULL, now);
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
			if (v != FR_ROBOTS_PENDING && page_waits(c, i, url, now))
				return 0;
			if (v == FR_ROBOTS_FETCH || v == FR_ROBOTS_PENDING) {
				/* A page on a host whose robots.txt is not known (a
				 * redirect to another host): that robots.txt first, as
				 * for a feed's redirect; the page is asked after it,
				 * from hop_url, and skipped if it forbids the page. */
				char *u;

				if (!cs->hop_url)
					fr_crawl_set_str(&cs->hop_url, url);
				if (v == FR_ROBOTS_FETCH && (u = fr_robots_url(url)) != NULL) {
					struct fr_request rq = {u, NULL, NULL, (uint64_t)i << 1 | TAG_ROBOTS};
					int ok = fr_crawl_send(c, i, &rq, e, sizeof(e)) == 0;

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
		if (!c->robots && page_waits(c, i, url, now))
			return 0;
		cs->req_at = now;
		struct fr_request rq = {url, NULL, NULL, (uint64_t)i << 1};
		if (fr_crawl_send(c, i, &rq, e, sizeof(e)) < 0) {
			fr_sinfo_cycle_feed(cs->cyc, 0, NULL, 0, now);
			continue;
		}
		return 0;
	}
}

/* A page of a forum's cycle came back: fed to the cycle; the next one
 * waits for the host's gap. */
void
fr_crawl_forum_page_done(struct crawl *c, uint32_t i, const struct fr_response *res,
			 double now)
{
	struct csrc *cs = &c->src[i];

	c->stats.bytes += res->wire_bytes;
	cs->cyc_bytes += res->wire_bytes;
	cs->cyc_last_status = res->status;
	if (res->outcome == FR_NET_HTTP_ERROR && res->status >= 300 && res->status < 400 &&
	    res->location && cs->hops < c->max_hops) {
		/* Followed here, in the host's slot like any page. */
		cs->hops++;
		fr_crawl_set_str(&cs->hop_url, res->location);
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
	/* The host the page was on: the forum's, or another (a link's, a
	 * redirect's). */
	uint32_t ph = cs->at_host != NO_HOST ? cs->at_host : cs->host;
	const char *pname = c->hosts[ph].name ? c->hosts[ph].name : cs->row.host;
	if (res->status == 429 || res->status == 503) {
		double until = fr_hold_forum_page(&c->hold, res->retry_after_at_s, now,
						  fr_rng_uniform(&c->rng));
		cs->feed_at = until;
		if (until > c->hosts[ph].paused_until_s)
			c->hosts[ph].paused_until_s = until;
		if (ph != cs->host && ph < c->n_sched_hosts)
			fr_sched_hold_host(fr_crawl_pick(c), ph, until);
		fr_crawl_share_pause(c, pname, until, now);
		c->stats.throttled++;
		fr_crawl_logf(c, "host %s answered %ld: the forum's next page waits %.0f s", pname,
		      res->status, until - now);
	} else {
		cs->feed_at = cs->req_at + fr_crawl_slack(c, c->hosts[ph].gap_s);
	}
	c->deferred[c->n_deferred++] = i;
}
