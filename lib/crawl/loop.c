/* loop.c - the live crawl loop (crawl.h). The scheduler picks, the curl
 * multi fetcher runs many transfers at once on its own thread (fetchq.h),
 * and this thread parses each finished feed and commits it with the
 * source's new state (fetches that end close together share a group
 * transaction). Robots.txt is fetched per host before its first feed,
 * inside the same host slot, so a host never sees two requests closer than
 * its gap. This file: setting up, choosing and starting fetches, taking
 * responses back. */
#include "crawl/crawl_int.h"

#include "core/err.h"
#include "core/strmap.h"
#include "core/timefmt.h"
#include "crawl/fetchq.h"
#include "forum/fdate.h"
#include "net/robots.h"
#include "sched/hold.h"
#include "sched/params.h"
#include "sched/sched.h"
#include "url/url.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

void
fr_crawl_logf(struct crawl *c, const char *fmt, ...)
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
void
fr_crawl_set_str(char **dst, const char *s)
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
struct fr_sched *
fr_crawl_pick(struct crawl *c)
{
	return c->order ? c->order : c->sched;
}

/* Transfers at once in the fetcher (which would queue more itself, with
 * their start time taken too early). */
static size_t
fetch_room(const struct crawl *c)
{
	return c->o->fetch.max_total > 0 ? (size_t)c->o->fetch.max_total : 64;
}

double
fr_crawl_now(const struct crawl *c)
{
	return c->virt ? c->vnow : fr_time_now();
}

/* A world's clock (o->clock_file): its first time. Returns 0, or -1 with
 * err set. */
static int
clock_read(struct crawl *c, char *err, size_t errlen)
{
	const char *path = c->o->clock_file;
	char buf[64], *end;
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return fr_errf(err, errlen, "clock file %s: cannot open: %s", path, strerror(errno));
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	c->vnow = strtod(buf, &end);
	while (*end == ' ' || *end == '\n' || *end == '\r' || *end == '\t')
		end++;
	if (end == buf || *end || !isfinite(c->vnow) || c->vnow < 0)
		return fr_errf(err, errlen, "clock file %s: expected a time in Unix seconds", path);
	if (!(c->clock_tmp = malloc(strlen(path) + 8)))
		return fr_errf(err, errlen, "out of memory");
	snprintf(c->clock_tmp, strlen(path) + 8, "%s.tmp", path);
	c->virt = 1;
	return 0;
}

/* Moves the world's clock to t and writes it (a copy renamed over the
 * file, so that a reader never sees half a time). A failure is fatal. */
static void
clock_set(struct crawl *c, double t)
{
	FILE *f;

	if (!(t > c->vnow))
		return;
	c->vnow = t;
	f = fopen(c->clock_tmp, "w");
	if (!f || fprintf(f, "%.6f\n", t) < 0 || fclose(f) != 0 ||
	    rename(c->clock_tmp, c->o->clock_file) != 0) {
		char e[512];

		snprintf(e, sizeof(e), "clock file %s: cannot write: %s", c->o->clock_file,
			 strerror(errno));
		fr_crawl_logf(c, "%s", e);
		fr_crawl_fatal(c, e);
	}
}

/* Fetches under way: transfers whose responses the loop has not taken. */
size_t
fr_crawl_in_flight(struct crawl *c)
{
	return fr_fetchq_running(c->fetcher);
}

/* Starts source i's fetch at now (the scheduler chose it). Returns 0, -1
 * when it cannot start yet (robots.txt of its origin is being fetched for
 * another source: it is held back a little) or the choice is another
 * worker's share of the budget (fr_crawl_pass()), or -2 when its claim was not
 * granted (fr_crawl_claim(): the scheduler may offer it again at this same instant,
 * so the caller lets time move first). */
static int
start(struct crawl *c, uint32_t i, double now)
{
	struct csrc *cs = &c->src[i];
	enum fr_robots_verdict v = FR_ROBOTS_ALLOWED;
	double cd = -1;

	/* Another source's redirect is on this host (its request in flight,
	 * or its robots.txt's answer waiting for the gap): asked again soon;
	 * the hop's answer then holds the host for its gap (on_done). */
	if (c->hosts[cs->host].holders > 0) {
		fr_sched_hold(fr_crawl_pick(c), i, now + HOP_RECHECK_S, now);
		return -1;
	}
	/* An API source: not while its API says no call is left. */
	if (cs->api && fr_crawl_api_gate(c, i, now))
		return -1;
	if (fr_crawl_pass(c, i, now))
		return -1;
	/* Claimed first: a robots.txt check that answers "fetch it" expects
	 * that fetch to follow. */
	if (fr_crawl_claim(c, i, now) != 0)
		return -2;
	/* The host's shared slot next (before robots.txt is asked for: its
	 * request goes in this slot). */
	double wait;
	if (fr_crawl_slot_claim(c, i, NULL, &wait) != 0) {
		/* Another worker's request to the host is in flight, or its gap
		 * runs: the host waits, the choice is made again. */
		char e[512];

		if (fr_store_release(c->st, cs->row.id, e, sizeof(e)) < 0) {
			fr_crawl_logf(c, "source %lld: %s: release: %s", (long long)cs->row.id, cs->row.url,
			      e);
			fr_crawl_fatal(c, e);
		}
		fr_sched_hold_host(fr_crawl_pick(c), cs->host, now + wait);
		/* --once waits for no host beyond FR_CRAWL_ONCE_WAIT_S (a pause
		 * another worker met, carried in the shared row). */
		if (c->o->once && wait > FR_CRAWL_ONCE_WAIT_S)
			fr_crawl_once_skip_host(c, cs->host, now + wait, now);
		/* -2: the scheduler's batch for this instant may offer the same
		 * source again (the hold applies from its next batch): the loop
		 * lets time move first. Before, it asked the store again and
		 * again at one instant until the other worker's request ended,
		 * and forever when the host was paused for a day. */
		return -2;
	}
	/* robots.txt is not asked for an API's calls: they are made with the
	 * application's token under the API's terms and its rate limit
	 * (docs/api.md). */
	if (c->robots && !cs->api)
		v = fr_robots_cache_check(c->robots, cs->row.url, now, &cd);
	if (v == FR_ROBOTS_PENDING) {
		char e[512];

		fr_crawl_slot_done(c, i, 0);
		if (fr_store_release(c->st, cs->row.id, e, sizeof(e)) < 0) {
			fr_crawl_logf(c, "source %lld: %s: release: %s", (long long)cs->row.id, cs->row.url, e);
			fr_crawl_fatal(c, e);
		}
		fr_sched_hold(fr_crawl_pick(c), i, now + 1, now);
		return -1;
	}
	/* The turn passes only with a fetch that starts (see fr_crawl_pass()). */
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
			int ok = fr_crawl_send(c, i, &rq, e, sizeof(e)) == 0;

			free(u);
			if (ok)
				return 0;
		}
		v = FR_ROBOTS_ALLOWED;
	}
	if (v == FR_ROBOTS_DENIED) {
		fr_crawl_deny(c, i, now);
		return 0;
	}
	if (cd >= 0)
		fr_crawl_take_crawl_delay(c, cs->host, cd);
	fr_crawl_submit(c, i);
	return 0;
}

static void
on_done(void *arg, const struct fr_response *res)
{
	struct crawl *c = arg;
	uint32_t i = (uint32_t)(res->tag >> 1);
	double now = fr_crawl_now(c);

	if (res->tag & TAG_WEBSUB) {
		fr_crawl_push_answer(c, res, now); /* a hub's answer */
		return;
	}
	if (i >= c->n)
		return;
	/* The request left when the fetcher's thread took it and a connection
	 * was free and made, a little after this loop decided to send it
	 * (later still on a busy machine, or behind other transfers to one
	 * connect-to target): the host's gap runs from then. */
	double sent = res->sent_s > res->started_s ? res->sent_s : res->started_s;
	if (c->virt)
		sent = -INFINITY; /* on a world's clock it left when decided */
	/* The host the request went to: the source's, or a redirect's. */
	uint32_t rh = c->src[i].at_host != NO_HOST ? c->src[i].at_host : c->src[i].host;
	struct host *rho = &c->hosts[rh];
	if (sent <= now && sent > rho->last_sent_s)
		rho->last_sent_s = sent;
	if (now > rho->answered_s)
		rho->answered_s = now;
	if (rh != c->src[i].host) {
		/* A redirect's hop: that host's own sources wait its gap from
		 * this answer (the scheduler knows the sources' hosts only). */
		double until = now + fr_crawl_slack(c, rho->gap_s);

		if (rh < c->n_sched_hosts) {
			fr_sched_hold_host(fr_crawl_pick(c), rh, until);
			if (c->order)
				fr_sched_hold_host(c->sched, rh, until);
		}
		if (sent > c->src[i].req_at && sent <= now)
			c->src[i].req_at = sent;
	} else if (sent > c->src[i].req_at && sent <= now) {
		c->src[i].req_at = sent;
		fr_sched_host_request(fr_crawl_pick(c), i, sent);
		if (c->order)
			fr_sched_host_request(c->sched, i, sent);
	}
	/* robots.txt's slot is freed below, once its Crawl-delay is known. */
	if (!(res->tag & TAG_ROBOTS))
		fr_crawl_slot_sent(c, i, now);
	if (res->tag & TAG_ROBOTS) {
		struct csrc *cs = &c->src[i];
		enum fr_robots_verdict v;
		double cd = -1;

		int hop = cs->hop_robots && cs->hop_url;
		const char *ru = hop ? cs->hop_url : cs->row.url;

		c->stats.robots_fetches++;
		fr_robots_cache_put_response(c->robots, ru, res, now);
		v = fr_robots_cache_check(c->robots, ru, now, &cd);
		/* Its Crawl-delay is the gap of the host it came from (a
		 * redirect's target's too). */
		if (cd >= 0)
			fr_crawl_take_crawl_delay(c, rh, cd);
		cs->hop_robots = 0;
		fr_crawl_slot_sent(c, i, now);
		if (v == FR_ROBOTS_DENIED && !cs->is_forum) {
			fr_crawl_deny(c, i, now);
		} else {
			/* (A forum's page that robots.txt forbids is skipped by
			 * submit_forum, and the cycle goes on.) */
			/* The feed request keeps the host's gap after robots.txt,
			 * counted from robots.txt's answer: the host logs a
			 * request when it takes it, which at the start of a run
			 * (every host's robots.txt at once) can be well after it
			 * was sent, so a gap counted from the send could reach
			 * the host shorter than the gap. */
			double g = fr_crawl_slack(c, c->hosts[rh].gap_s);
			cs->feed_at = fmax(cs->req_at + g, now + g);
			c->deferred[c->n_deferred++] = i;
		}
		return;
	}
	if (c->src[i].is_forum) {
		fr_crawl_forum_page_done(c, i, res, now);
		return;
	}
	if (res->outcome == FR_NET_HTTP_ERROR && res->status >= 300 && res->status < 400 &&
	    res->location && fr_crawl_follow(c, i, res, now))
		return;
	if (c->src[i].api) {
		fr_crawl_api_done(c, i, res, now);
		return;
	}
	fr_crawl_finish(c, i, res, NULL, now);
}

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
			fr_crawl_logf(c,
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
		fr_crawl_logf(c, "saving the policy's learned context: %s", e);
	free(buf);
}

static void
crawl_free(struct crawl *c)
{
	fr_fetchq_free(c->fetcher);
	fr_robots_cache_free(c->robots);
	fr_sched_free(c->sched);
	fr_sched_free(c->order);
	fr_crawl_api_free(c);
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
	fr_strmap_free(c->host_ids);
	fr_fdate_free(c->fdate);
	free(c->clock_tmp);
	free(c->fatal_err);
	free(c->deferred);
	free(c->weight);
	free(c->host_of);
	free(c->group_of);
	free(c->turn);
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
	double *weight, now = fr_crawl_now(c);
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
	c->host_ids = hosts = fr_strmap_new();
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
	c->n_hosts = c->n_sched_hosts = c->host_cap = (uint32_t)fr_strmap_len(hosts);
	uint32_t n_groups = (uint32_t)fr_strmap_len(groups);
	c->hosts = calloc(c->n_hosts, sizeof(*c->hosts));
	for (uint32_t k = 0; k < c->n; k++)
		c->src[k].at_host = NO_HOST;
	c->deferred = malloc(n * sizeof(*c->deferred));
	if (!c->deferred)
		goto oom;
	gl = calloc(n_groups, sizeof(*gl));
	if (!c->hosts || !gl)
		goto oom;
	for (uint32_t h = 0; h < c->n_hosts; h++) {
		c->hosts[h].gap_s = o->host_gap_s;
		c->hosts[h].last_sent_s = c->hosts[h].answered_s = -INFINITY;
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
		.host_gap_s = fr_crawl_slack(c, o->host_gap_s),
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
	if (fr_crawl_api_setup(c, err, errlen) < 0)
		goto out;
	if (fr_crawl_push_setup(c, err, errlen) < 0)
		goto out;
	load_context(c);
	/* Learned state and holds from earlier runs: a source's backoff, and
	 * its host's pause when the source's last answer was a 429 or 503
	 * (learn() stores the pause as that source's backoff). */
	size_t restored = 0;
	fr_crawl_load_hop_pauses(c, now); /* a redirect's target's: not the row's host */
	double *paused = calloc(c->n_hosts, sizeof(*paused));
	if (!paused)
		goto oom;
	for (uint32_t i = 0; i < c->n; i++) {
		struct fr_store_source *r = &c->src[i].row;

		if (r->policy && !strcmp(r->policy, c->ops->name) && r->policy_state &&
		    fr_sched_set_state(c->sched, i, r->policy_state, r->policy_state_len, now) == 0)
			restored++;
		if (r->backoff_until_s > now)
			fr_sched_hold(fr_crawl_pick(c), i, r->backoff_until_s, now);
		if (fr_hold_row_pauses_host(r->err_count, r->last_status, r->backoff_until_s, now) &&
		    !(c->src[i].hop_pause_until > now) && r->backoff_until_s > paused[c->src[i].host])
			paused[c->src[i].host] = r->backoff_until_s;
	}
	if (restored)
		fr_crawl_logf(c, "restored the learned state of %zu of %u sources", restored, c->n);
	for (uint32_t h = 0; h < c->n_hosts; h++) {
		char t[40];

		if (!(paused[h] > now))
			continue;
		fr_sched_hold_host(fr_crawl_pick(c), h, paused[h]);
		c->hosts[h].paused_until_s = paused[h];
		if (o->once && fr_hold_once_beyond(paused[h], now))
			fr_crawl_once_skip_host(c, h, paused[h], now);
		else
			fr_crawl_logf(c, "host %s paused until %s (%.0f s), as a 429 or 503 asked",
			      fr_strmap_name(hosts, h), fr_time_format(paused[h], t, sizeof(t)),
			      paused[h] - now);
	}
	free(paused);
	fr_crawl_load_host_holds(c, hosts, now);
	/* --once waits for no source's backoff beyond FR_CRAWL_ONCE_WAIT_S. */
	for (uint32_t i = 0; o->once && i < c->n; i++) {
		struct csrc *cs = &c->src[i];
		char t[40];

		if (cs->done_once || !fr_hold_once_beyond(cs->row.backoff_until_s, now))
			continue;
		cs->done_once = 1;
		c->n_done_once++;
		c->stats.skipped++;
		fr_sched_hold(fr_crawl_pick(c), i, INFINITY, now);
		fr_crawl_logf(c, "source %lld: %s: in error backoff until %s (%.0f s), beyond this pass: "
			 "skipped, left for the next run",
		      (long long)cs->row.id, cs->row.url,
		      fr_time_format(cs->row.backoff_until_s, t, sizeof(t)),
		      cs->row.backoff_until_s - now);
	}
	/* Redirects are followed by the loop (fr_crawl_follow()), hop by hop. */
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
	fr_strmap_free(groups);
	free(gl);
	fr_store_sources_free(rows, n);
	return rc;
}

static void
progress(struct crawl *c, double now)
{
	c->stats.now_s = now;
	c->stats.running = fr_fetchq_running(c->fetcher);
	c->stats.hosts = c->n_sched_hosts;
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
	c->hold = (struct fr_hold_opts){
	    .backoff_base_s = o->backoff_base_s,
	    .backoff_cap_s = o->backoff_cap_s,
	    .retry_after = o->retry_after,
	    .retry_after_cap_s = o->retry_after_cap_s,
	    .hints = o->hints,
	    .hint_cap_s = o->hint_cap_s,
	};
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
	if (o->clock_file && clock_read(c, err, errlen) < 0)
		goto out;
	if (setup(c, &params, err, errlen) < 0)
		goto out;

	now = fr_crawl_now(c);
	c->stats.started_s = now;
	next_progress = now + 1;
	if (o->duration_s > 0)
		end = now + o->duration_s;
	for (;;) {
		uint32_t i;
		double at = INFINITY, wake = INFINITY, wake_push = INFINITY;

		now = fr_crawl_now(c);
		if (fr_crawl_group_due(c, now))
			fr_crawl_group_commit(c);
		if (!o->once && now >= c->alive_next_s)
			fr_crawl_heartbeat(c, now);
		if (o->websub) /* pushes committed, hubs asked */
			wake_push = fr_crawl_push_tick(c, now);
		if (now >= end && !c->fatal) {
			/* The duration is up: transfers still in flight are aborted
			 * (fr_fetchq_stop below), nothing of them is stored, and their
			 * sources are fetched again next run. */
			c->stats.aborted = fr_crawl_in_flight(c);
			if (c->stats.aborted)
				fr_crawl_logf(c, "duration reached: %llu transfers in flight aborted, fetched "
					 "again next run",
				      (unsigned long long)c->stats.aborted);
			break;
		}
		if (!stopping && ((o->stop && *o->stop) || c->fatal ||
				  (o->once && c->n_done_once >= c->n))) {
			stopping = 1;
			c->stopping = 1;
			if (o->stop && *o->stop)
				fr_crawl_logf(c, "stopping: finishing %zu transfers in flight",
				      fr_fetchq_running(c->fetcher));
		}
		if (stopping && fr_crawl_in_flight(c) == 0)
			break;
		/* Feed requests that waited out their host's gap after robots.txt. */
		for (uint32_t k = 0; k < c->n_deferred;) {
			uint32_t j = c->deferred[k];

			double slot_wait;

			/* A redirect's hop to a host this fetch is not on yet
			 * waits for that host (fr_crawl_hop_wait). */
			/* An API source's next page waits for its group's limit
			 * and the API's. */
			if (c->src[j].feed_at <= now && c->src[j].api) {
				double w = fr_crawl_api_page_wait(c, j, now);

				if (w > now)
					c->src[j].feed_at = w;
			}
			if (c->src[j].feed_at <= now && c->src[j].hop_url) {
				double w = fr_crawl_hop_wait(
				    c, j, fr_crawl_host_id(c, c->src[j].hop_url), now);

				if (w > now)
					c->src[j].feed_at = w;
			}
			if (c->src[j].feed_at <= now &&
			    fr_crawl_slot_claim(c, j, c->src[j].hop_url, &slot_wait) != 0) {
				/* Another worker's request to the host first. */
				c->src[j].feed_at = now + slot_wait;
			}
			if (c->src[j].feed_at <= now) {
				c->deferred[k] = c->deferred[--c->n_deferred];
				if (fr_crawl_renew(c, j, now) != 0) {
					fr_crawl_slot_done(c, j, 0);
					continue;
				}
				if (c->src[j].hop_robots) {
					fr_crawl_hop_start(c, j, now);
					continue;
				}
				fr_sched_host_request(fr_crawl_pick(c), j, now);
				fr_crawl_submit(c, j);
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
		/* On a world's clock, one fetch at a time, as the simulator. */
		while (!stopping && fr_fetchq_running(c->fetcher) < room_cap &&
		       !(c->virt && fr_fetchq_running(c->fetcher) > 0) &&
		       fr_sched_next(fr_crawl_pick(c), now, &i, &at) && at <= now) {
			if (start(c, i, now) == -2)
				break; /* at <= now: the loop comes back in a millisecond */
			at = INFINITY;
		}
		c->stats.next_due_s = isfinite(at) ? at : 0;
		if (at < wake)
			wake = at;
		if (wake_push < wake)
			wake = wake_push;
		/* Wait for a transfer, or until the next fetch is due (at most
		 * a second, to show progress and see a stop request). */
		double wait = isfinite(wake) ? wake - now : 1;
		if (wait > 1)
			wait = 1;
		if (end - now < wait)
			wait = end - now;
		if (c->tx_open && c->tx_since + o->commit_interval_s - now < wait)
			wait = c->tx_since + o->commit_interval_s - now;
		if (o->websub && wait > 0.1)
			wait = 0.1; /* a push waits at most this long for its commit */
		if (wait < 0.001)
			wait = 0.001;
		if (c->virt && fr_fetchq_running(c->fetcher) > 0) {
			/* Fetches take no world time: wait for the answer. */
			if (fr_fetchq_poll(c->fetcher, 1000, on_done, c) < 0) {
				fr_crawl_group_commit(c);
				fr_errf(err, errlen, "the HTTP layer failed (libcurl multi)");
				goto out;
			}
		} else if (c->virt) {
			if (stopping)
				break;
			/* Nothing in flight: time moves to the next event (the
			 * next fetch due, a deferred request, the end), or a
			 * second on, where the live loop would ask again. */
			double to = isfinite(wake) ? wake : now + 1;
			clock_set(c, to < end ? to : end);
		} else if (fr_fetchq_running(c->fetcher) > 0) {
			int prc = fr_fetchq_poll(c->fetcher, (int)(wait * 1000), on_done, c);

			if (prc < 0) {
				fr_crawl_group_commit(c);
				fr_errf(err, errlen, "the HTTP layer failed (libcurl multi)");
				goto out;
			}
		} else {
			struct timespec ts = {(time_t)wait, (long)((wait - (time_t)wait) * 1e9)};
			if (stopping && fr_crawl_in_flight(c) == 0)
				break; /* feed requests still waiting were never sent: fetched next run */
			nanosleep(&ts, NULL);
		}
		now = fr_crawl_now(c);
		if (now >= next_progress) {
			progress(c, now);
			next_progress = now + 1;
		}
	}
	/* The fetcher's thread closes its connections while the last group
	 * commits and the log is copied into the database. */
	fr_fetchq_stop(c->fetcher);
	fr_crawl_group_commit(c);
	save_context(c);
	fr_crawl_save_host_holds(c, fr_crawl_now(c));
	if (c->stats.lease_held || c->stats.fetched_elsewhere || c->stats.passed ||
	    c->stats.host_held)
		fr_crawl_logf(c, "worker %s: %llu choices left to the other workers' share of the budget, "
			 "%llu were being fetched by another worker, %llu had been fetched by one "
			 "(state reloaded), %llu requests waited for another worker's to their host",
		      c->worker, (unsigned long long)c->stats.passed,
		      (unsigned long long)c->stats.lease_held,
		      (unsigned long long)c->stats.fetched_elsewhere,
		      (unsigned long long)c->stats.host_held);
	if (!c->fatal && fr_store_checkpoint(c->st, c->errbuf, sizeof(c->errbuf)) < 0)
		fr_crawl_logf(c, "store: %s", c->errbuf);
	progress(c, fr_crawl_now(c));
	if (c->fatal) {
		/* What was lost, in all: the rolled-back group's fetches, or the
		 * one that failed alone, and those that ended after. */
		fr_crawl_logf(c, "store: %llu fetch%s not stored (rolled back, or ended after the store "
			 "failed; fetched again next run)",
		      (unsigned long long)c->stats.not_stored, c->stats.not_stored == 1 ? "" : "es");
		fr_errf(err, errlen, "store: %s", c->fatal_err ? c->fatal_err : "failed");
		goto out;
	}
	rc = 0;
out:
	if (c->fetcher)
		fr_crawl_push_end(c);
	if (out)
		*out = c->stats;
	crawl_free(c);
	return rc;
}
