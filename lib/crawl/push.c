/* push.c - WebSub in the live loop (docs/websub.md): the subscriptions
 * read from and saved to the store (meta key websub), subscription
 * requests sent to hubs through the fetcher (so the address policy holds
 * for hubs as for feeds), pushes accepted by the callback server parsed
 * and committed as fetches are, and the check-only polling of a source
 * whose lease runs. */
#include "crawl/crawl_int.h"

#include "crawl/fetchq.h"
#include "sched/sched.h"
#include "websub/link.h"
#include "websub/sub.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define META_KEY "websub"
#define TAG_SUBSCRIBE (1ull << 62)
#define TAG_ID_MASK (TAG_SUBSCRIBE - 1)
/* Requests sent to hubs per turn of the loop, at most. */
#define REQUESTS_PER_TICK 16

static int
cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

int
fr_crawl_push_setup(struct crawl *c, char *err, size_t errlen)
{
	struct fr_websub *ws = c->o->websub;
	void *buf = NULL;
	size_t len = 0;
	int64_t *ids;
	char e[256];
	int bad;

	if (!ws)
		return 0;
	if (c->o->once) {
		snprintf(err, errlen, "WebSub push is for a running crawl, not --once");
		return -1;
	}
	if (fr_store_meta_get(c->st, META_KEY, &buf, &len) < 0) {
		snprintf(err, errlen, "store: the WebSub subscriptions could not be read");
		return -1;
	}
	bad = buf ? fr_websub_load(ws, buf, len, e, sizeof(e)) : 0;
	free(buf);
	if (bad < 0) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (bad > 0)
		fr_crawl_logf(c, "store: %d WebSub subscription line%s skipped: %s", bad,
			      bad == 1 ? "" : "s", e);
	/* Subscriptions of sources removed since: unsubscribed. */
	if (!(ids = malloc((c->n ? c->n : 1) * sizeof(*ids)))) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (uint32_t i = 0; i < c->n; i++)
		ids[i] = c->src[i].row.id;
	qsort(ids, c->n, sizeof(*ids), cmp_i64);
	fr_websub_keep_only(ws, ids, c->n, fr_crawl_now(c));
	fr_websub_retry_failed(ws, fr_crawl_now(c));
	free(ids);
	return 0;
}

static void
save(struct crawl *c, double now)
{
	size_t len;
	char *buf, e[512];

	c->push_saved_s = now;
	if (!fr_websub_dirty(c->o->websub) || c->fatal)
		return;
	if (!(buf = fr_websub_save(c->o->websub, &len)))
		return;
	if (fr_store_meta_put(c->st, META_KEY, buf, len, e, sizeof(e)) < 0)
		fr_crawl_logf(c, "store: the WebSub subscriptions were not saved: %s", e);
	/* The text holds the secrets: wiped before it is freed. */
	memset(buf, 0, len);
	free(buf);
}

/* Commits push p for source i (not busy), as a fetch's answer. */
static void
commit_push(struct crawl *c, uint32_t i, struct fr_websub_push *p, double now)
{
	struct csrc *cs = &c->src[i];
	struct outcome oc = {.c = c, .i = i, .now = now, .push = 1, .outcome_name = "push"};
	struct fr_feed_opts po = {.base_url = cs->row.url, .content_type = p->content_type};
	struct fr_feed *feed = NULL;
	struct fr_store_item *items = NULL;
	char perr[512];

	if (fr_feed_parse(p->body ? p->body : "", p->len, &po, &feed, perr, sizeof(perr)) < 0) {
		/* A hub's bad body says nothing of the source: logged, not
		 * stored as the source's error. */
		fr_crawl_logf(c, "source %lld: %s: push of %zu bytes not stored: parse: %s",
			      (long long)cs->row.id, cs->row.url, p->len, perr);
		return;
	}
	if (!(items = fr_crawl_feed_items(feed))) {
		fr_crawl_logf(c, "source %lld: %s: push not stored: out of memory", (long long)cs->row.id,
			      cs->row.url);
		fr_feed_free(feed);
		return;
	}
	if (feed->bozo && !cs->bozo_told++)
		fr_crawl_logf(c, "source %lld: %s: ill-formed push, recovered: %s", (long long)cs->row.id,
			      cs->row.url, feed->bozo_exception ? feed->bozo_exception : "?");
	oc.items = items;
	oc.n_items = feed->n_items;
	oc.feed = feed;
	oc.status = FR_FETCH_OK;
	oc.bytes = (int64_t)p->len;
	oc.duration_s = now - p->received_s;
	c->stats.pushes++;
	fr_crawl_commit(c, i, &oc, NULL, NULL, now);
	free(items);
	fr_feed_free(feed);
}

/* Sends the requests due to hubs. */
static void
send_requests(struct crawl *c, double now)
{
	struct fr_websub *ws = c->o->websub;
	struct fr_websub_request rq;

	for (int k = 0; k < REQUESTS_PER_TICK && !c->stopping; k++) {
		char e[256];
		int r = fr_websub_next_request(ws, now, &rq);

		if (r <= 0)
			break;
		uint64_t tag = TAG_WEBSUB | (rq.subscribe ? TAG_SUBSCRIBE : 0) |
			       ((uint64_t)rq.source_id & TAG_ID_MASK);
		struct fr_request req = {rq.hub, NULL, NULL, tag};
		struct fr_request_extra x = {.post_form = rq.form};

		if (fr_fetchq_submit_ex(c->fetcher, &req, &x, e, sizeof(e)) < 0)
			fr_websub_request_done(ws, rq.source_id, rq.subscribe, 0, e, now);
		fr_websub_request_clear(&rq);
	}
}

double
fr_crawl_push_tick(struct crawl *c, double now)
{
	struct fr_websub *ws = c->o->websub;
	struct fr_websub_push p;
	size_t k = 0;

	if (!ws)
		return INFINITY;
	/* Pushes held while their source was being fetched. */
	for (size_t j = 0; j < c->n_push_held; j++) {
		uint32_t i = fr_crawl_source_by_id(c, c->push_held[j].source_id);

		if (i != UINT32_MAX && c->src[i].busy) {
			c->push_held[k++] = c->push_held[j];
			continue;
		}
		if (i != UINT32_MAX && !c->fatal)
			commit_push(c, i, &c->push_held[j], now);
		fr_websub_push_clear(&c->push_held[j]);
	}
	c->n_push_held = k;
	while (fr_websub_take(ws, &p) == 1) {
		uint32_t i = fr_crawl_source_by_id(c, p.source_id);

		if (i == UINT32_MAX || c->fatal) {
			fr_websub_push_clear(&p);
			continue;
		}
		if (c->src[i].busy) {
			struct fr_websub_push *nh =
			    realloc(c->push_held, (c->n_push_held + 1) * sizeof(*nh));

			if (nh) {
				c->push_held = nh;
				c->push_held[c->n_push_held++] = p;
				continue;
			}
			fr_crawl_logf(c, "source %lld: push not stored: out of memory",
				      (long long)p.source_id);
			fr_websub_push_clear(&p);
			continue;
		}
		commit_push(c, i, &p, now);
		fr_websub_push_clear(&p);
	}
	send_requests(c, now);
	if (now - c->push_saved_s >= 1)
		save(c, now);
	return c->n_push_held ? now + 0.05 : fr_websub_next_due(ws);
}

void
fr_crawl_push_answer(struct crawl *c, const struct fr_response *res, double now)
{
	int64_t id = (int64_t)(res->tag & TAG_ID_MASK);
	int sub = (res->tag & TAG_SUBSCRIBE) != 0;
	const char *why = NULL;

	if (!c->o->websub)
		return;
	if (res->outcome != FR_NET_OK)
		why = res->err[0] ? res->err : fr_net_outcome_name(res->outcome);
	fr_websub_request_done(c->o->websub, id, sub, res->status, why, now);
}

void
fr_crawl_push_found(struct crawl *c, uint32_t i, const struct fr_response *res,
		    const struct fr_feed *feed, double now)
{
	struct csrc *cs = &c->src[i];
	char *hub = NULL, *topic = NULL, e[256];
	int r;

	if (!c->o->websub || !feed)
		return;
	r = fr_websub_discover(feed, res ? res->headers : NULL, res ? res->headers_len : 0,
			       cs->row.url, &hub, &topic);
	if (r == 1 && fr_websub_want(c->o->websub, cs->row.id, hub, topic, now, e, sizeof(e)) < 0)
		fr_crawl_logf(c, "source %lld: %s: hub %s: %s", (long long)cs->row.id, cs->row.url, hub, e);
	free(hub);
	free(topic);
}

double
fr_crawl_push_hold(struct crawl *c, struct outcome *oc, double hold, double now)
{
	struct csrc *cs = &c->src[oc->i];
	double last_push = 0, lease_until = 0, gap;
	int live;

	if (!c->o->websub)
		return hold;
	live = fr_websub_live(c->o->websub, cs->row.id, now, &last_push, &lease_until);
	if (!live)
		cs->push_live_s = 0;
	else if (cs->push_live_s == 0)
		cs->push_live_s = now;
	if (oc->push) {
		if (cs->push_stale)
			fr_crawl_logf(c, "source %lld: %s: pushes arrive again: polled as a check only",
				      (long long)cs->row.id, cs->row.url);
		cs->push_stale = 0;
		cs->push_misses = 0;
	} else {
		c->stats.push_polls += live;
		/* Pushes stopped: this poll found items, and no push came since
		 * the poll before, itself made while the lease ran (items
		 * published before the hub took the subscription come by
		 * polls, not pushes). */
		/* Two such polls in a row: one is a lost delivery (a hub may
		 * drop some), after which the next poll comes at the learned
		 * gap, not as a check. */
		int miss = live && !cs->push_stale && oc->n_new > 0 && cs->push_poll_s > 0 &&
			   cs->push_poll_s >= cs->push_live_s && last_push <= cs->push_poll_s;

		cs->push_misses = miss ? cs->push_misses + 1 : 0;
		if (cs->push_misses >= 2) {
			cs->push_stale = 1;
			cs->push_misses = 0;
			fr_crawl_logf(c, "source %lld: %s: two polls in a row found items (now %zu) that no "
				      "push brought: back to learned polling",
				      (long long)cs->row.id, cs->row.url, oc->n_new);
		}
		cs->push_poll_s = now;
	}
	if (!live || cs->push_stale || cs->push_misses)
		return hold;
	/* A check only: push_check times the run's average gap between two
	 * polls of a source after its latest poll (pushes do not put the
	 * check off), and never past the lease's end. */
	gap = c->env.calls_per_s > 0 ? c->n / c->env.calls_per_s : 1800;
	double base = cs->push_poll_s > 0 ? cs->push_poll_s : now;
	double until = base + (c->o->push_check > 0 ? c->o->push_check : 10) * gap;
	if (until > lease_until)
		until = lease_until;
	return until > hold ? until : hold;
}

void
fr_crawl_push_end(struct crawl *c)
{
	if (!c->o->websub)
		return;
	for (size_t j = 0; j < c->n_push_held; j++)
		fr_websub_push_clear(&c->push_held[j]);
	if (c->n_push_held)
		fr_crawl_logf(c, "%zu pushes not stored: their sources' fetches were under way at the end "
			      "(their items are fetched next run)", c->n_push_held);
	free(c->push_held);
	c->push_held = NULL;
	c->n_push_held = 0;
	save(c, fr_crawl_now(c));
}
