/* feed.c - a feed's fetch in the live loop: its request (conditional), the
 * redirects followed hop by hop in the host's slot, the parse of the
 * answer into items. */
#include "crawl/crawl_int.h"

#include "core/timefmt.h"
#include "crawl/fetchq.h"
#include "net/robots.h"
#include "sched/sched.h"
#include "url/url.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The store's items for feed's items, strings borrowed from feed (free
 * the array only); NULL when out of memory. */
struct fr_store_item *
fr_crawl_feed_items(const struct fr_feed *feed)
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

/* Ends source i's fetch: parse, commit, learn. res is NULL when the fetch
 * never went out (robots.txt denial, error says why). */
void
fr_crawl_finish(struct crawl *c, uint32_t i, const struct fr_response *res, const char *error,
		double now)
{
	struct csrc *cs = &c->src[i];
	struct outcome oc = {.c = c, .i = i, .now = now, .res = res, .error = error};
	struct fr_feed *feed = NULL;
	struct fr_store_item *items = NULL;
	char perr[512], msg[768];

	fr_crawl_slot_done(c, i, 0); /* a request that never went (a response freed it before) */
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
					fr_crawl_logf(c, "source %lld: %s: ill-formed feed, recovered: %s",
					      (long long)cs->row.id, cs->row.url,
					      feed->bozo_exception ? feed->bozo_exception : "?");
				if (feed->n_items_cut)
					fr_crawl_logf(c, "source %lld: %s: %zu items, over the cap of %u: the %zu oldest left out",
					      (long long)cs->row.id, cs->row.url, feed->n_items + feed->n_items_cut,
					      FR_FEED_MAX_ITEMS_DEFAULT, feed->n_items_cut);
				if (feed->n_links_refused)
					fr_crawl_logf(c, "source %lld: %s: %zu javascript:/data:/vbscript: links refused (not stored as links, not followed)",
					      (long long)cs->row.id, cs->row.url, feed->n_links_refused);
				fr_crawl_push_found(c, i, res, feed, now); /* WebSub hubs */
				items = fr_crawl_feed_items(feed);
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

	fr_crawl_commit(c, i, &oc, res, error, now);
	fr_crawl_host_leave(c, i);
	cs->busy = 0;
	free(items);
	fr_feed_free(feed);
	free(cs->hop_url);
	cs->hop_url = NULL;
	cs->hops = 0;
	cs->hop_robots = 0;
}

int
fr_crawl_submit(struct crawl *c, uint32_t i)
{
	struct csrc *cs = &c->src[i];

	if (cs->is_forum)
		return fr_crawl_forum_submit(c, i);
	if (cs->api)
		return fr_crawl_api_submit(c, i);

	cs->feed_at = 0;
	cs->hop_robots = 0;
	cs->req_at = fr_crawl_now(c);
	struct fr_request rq = {cs->hop_url ? cs->hop_url : cs->row.url, cs->row.etag,
				cs->row.last_modified, (uint64_t)i << 1};
	char e[256];
	/* WebSub: a hub may be named in the answer's Link fields. */
	struct fr_request_extra x = {.want_headers = c->o->websub != NULL};

	if (fr_crawl_send_ex(c, i, &rq, &x, e, sizeof(e)) < 0) {
		fr_crawl_finish(c, i, NULL, e, fr_crawl_now(c));
		return -1;
	}
	return 0;
}

/* The next hop of a redirect to another host: that host's robots.txt is
 * asked first (fetched when the cache has none, in the source's slot),
 * then the hop goes out. */
void
fr_crawl_hop_start(struct crawl *c, uint32_t i, double now)
{
	struct csrc *cs = &c->src[i];
	enum fr_robots_verdict v;
	char *u, e[256];
	double cd = -1;

	cs->hop_robots = 0;
	if (!c->robots || cs->api) {
		fr_crawl_submit(c, i);
		return;
	}
	v = fr_robots_cache_check(c->robots, cs->hop_url, now, &cd);
	if (v == FR_ROBOTS_ALLOWED && cd >= 0) {
		/* The target's Crawl-delay is its gap; a longer one than it
		 * had waits (fr_crawl_hop_wait) before the hop goes. */
		uint32_t h = fr_crawl_host_id(c, cs->hop_url);

		if (h != NO_HOST && cs->at_host != h) {
			fr_crawl_take_crawl_delay(c, h, cd);
			double w = fr_crawl_hop_wait(c, i, h, now);
			if (w > now) {
				fr_crawl_slot_done(c, i, 0);
				cs->hop_robots = 1;
				cs->feed_at = w;
				c->deferred[c->n_deferred++] = i;
				return;
			}
		}
	}
	if (v == FR_ROBOTS_DENIED) {
		fr_crawl_deny(c, i, now);
		return;
	}
	if (v == FR_ROBOTS_PENDING) {
		/* Another source is fetching it: asked again in a second. */
		fr_crawl_slot_done(c, i, 0);
		cs->hop_robots = 1;
		cs->feed_at = now + 1;
		c->deferred[c->n_deferred++] = i;
		return;
	}
	if (v == FR_ROBOTS_FETCH && (u = fr_robots_url(cs->hop_url)) != NULL) {
		struct fr_request rq = {u, NULL, NULL, (uint64_t)i << 1 | TAG_ROBOTS};
		int ok = fr_crawl_send(c, i, &rq, e, sizeof(e)) == 0;

		free(u);
		if (ok) {
			cs->req_at = now;
			cs->hop_robots = 1;
			return;
		}
	}
	fr_crawl_submit(c, i);
}

/* A redirect, followed here rather than by libcurl so that a host never
 * sees the next request of a chain sooner than its gap. Returns 1 when the
 * next hop is on its way, 0 when the chain ends here (too long: the 3xx is
 * the fetch's outcome). */
int
fr_crawl_follow(struct crawl *c, uint32_t i, const struct fr_response *res, double now)
{
	struct csrc *cs = &c->src[i];
	uint32_t to, from = cs->at_host != NO_HOST ? cs->at_host : cs->host;

	if (cs->hops >= c->max_hops)
		return 0;
	if (cs->hops == 0)
		cs->all_permanent = 1;
	cs->hops++;
	if (res->status != 301 && res->status != 308)
		cs->all_permanent = 0;
	fr_crawl_set_str(&cs->hop_url, res->location);
	to = fr_crawl_host_id(c, res->location);
	if (to == from || to == NO_HOST) {
		/* The host the chain is on (or no room to know another):
		 * after its gap, in the slot the fetch holds. */
		cs->feed_at = cs->req_at + fr_crawl_slack(c, c->hosts[from].gap_s);
		c->deferred[c->n_deferred++] = i;
	} else {
		/* Another host: the fetch leaves this one, and waits as any
		 * request to that host would: until no other fetch is on it
		 * (one of its own sources', or another redirect's) and its gap
		 * since its latest answer has run (its Crawl-delay once
		 * known), else in the deferred list; then its robots.txt
		 * first, then the hop, when its shared slot is free too. */
		double wait = fr_crawl_hop_wait(c, i, to, now);

		fr_crawl_host_leave(c, i);
		if (wait > now) {
			/* Its own sources wait behind the hop (not ahead of it,
			 * again and again). */
			if (to < c->n_sched_hosts)
				fr_sched_hold_host(fr_crawl_pick(c), to,
						   wait + fr_crawl_slack(c, c->hosts[to].gap_s));
			cs->hop_robots = 1;
			cs->feed_at = wait;
			c->deferred[c->n_deferred++] = i;
		} else if (fr_crawl_slot_claim(c, i, cs->hop_url, &wait) != 0) {
			cs->hop_robots = 1;
			cs->feed_at = now + wait;
			c->deferred[c->n_deferred++] = i;
		} else if (fr_crawl_renew(c, i, now) == 0) {
			fr_crawl_hop_start(c, i, now);
		} else {
			fr_crawl_slot_done(c, i, 0);
		}
	}
	return 1;
}
