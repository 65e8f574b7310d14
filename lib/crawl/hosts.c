/* hosts.c - a host's politeness in the live loop: robots.txt's verdicts
 * (Crawl-delay as the host's gap, a denial or an unreachable robots.txt
 * ending the fetch), --once's skipped hosts, and the gaps that run across
 * restarts. */
#include "crawl/crawl_int.h"

#include "core/timefmt.h"
#include "core/strmap.h"
#include "crawl/fetchq.h"
#include "net/robots.h"
#include "sched/sched.h"
#include "url/url.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Store meta key of the hosts whose gap still ran when a run ended: the
 * next run waits it out (see fr_crawl_save_host_holds). */
#define HOST_HOLDS_KEY "host-holds"

/* A request leaves a little after the loop decides to send it, by an
 * amount that varies (connection reuse, the poll loop): gaps are kept with
 * this much to spare, so that the host never sees one shorter. */
double
fr_crawl_slack(const struct crawl *c, double gap_s)
{
	/* On a world's clock (o->clock_file) a request leaves when decided. */
	if (c->virt)
		return gap_s > 0 ? gap_s : 0;
	return gap_s > 0 ? gap_s * 1.01 + 0.02 : 0;
}

/* The host's Crawl-delay, within bounds, becomes its gap. */
void
fr_crawl_take_crawl_delay(struct crawl *c, uint32_t hi, double cd)
{
	struct host *h = &c->hosts[hi];
	double gap = c->o->host_gap_s;

	/* The robots cache caps cd at max_crawl_delay_s already. */
	if (cd > gap)
		gap = cd;
	if (gap != h->gap_s) {
		h->gap_s = gap;
		fr_sched_set_host_gap(fr_crawl_pick(c), hi, fr_crawl_slack(c, gap));
	}
}

/* --once: the sources of host not fetched yet and not under way are skipped
 * this pass (its pause ends at until, beyond FR_CRAWL_ONCE_WAIT_S), reported
 * once, and left for the next run (their rows are not touched). */
void
fr_crawl_once_skip_host(struct crawl *c, uint32_t host, double until, double now)
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
		fr_sched_hold(fr_crawl_pick(c), j, INFINITY, now);
		n++;
	}
	if (n)
		fr_crawl_logf(c, "host %s paused until %s (%.0f s), beyond this pass: %u sources skipped, "
			 "left for the next run",
		      name ? name : "?", fr_time_format(until, t, sizeof(t)), until - now, n);
}

/* Ends source i's fetch without sending it: robots.txt of the address
 * about to be asked (the source's, or a redirect's on another host)
 * forbids it, or could not be had. RFC 9309: a robots.txt that answered
 * 429 or 5xx or did not answer is a temporary failure, retried after the
 * backoff, with its real cause stored (a DNS failure, a refused
 * connection, a TLS error, HTTP 503); only rules a server answered with
 * are a refusal. */
void
fr_crawl_deny(struct crawl *c, uint32_t i, double now)
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
		c->end_transient = fake.outcome != FR_NET_BLOCKED && fr_crawl_transient(&fake);
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
		fr_crawl_forum_finish(c, i, why, now);
	else
		fr_crawl_finish(c, i, NULL, why, now);
	c->end_outcome = NULL;
	c->end_status = 0;
	c->end_transient = 0;
}

/* A host's gap runs across restarts: a run that ends (or is stopped) a
 * moment after asking a host, and a run started right after it, must not
 * ask that host sooner than its gap, Crawl-delay included, though the new
 * run knows neither until it reads robots.txt again. The run that ends
 * stores, for each host whose gap still runs, until when it runs (a request
 * still in flight counts as sent at the end); the next run holds each host
 * until then. After a kill -9 nothing is stored, and the hosts' last fetch
 * times in the store stand in, with the run's own gap. */
void
fr_crawl_save_host_holds(struct crawl *c, double now)
{
	char *buf = NULL, e[256];
	size_t len = 0;
	FILE *f;

	for (uint32_t i = 0; i < c->n; i++) {
		uint32_t h = c->src[i].at_host != NO_HOST ? c->src[i].at_host : c->src[i].host;

		if (c->src[i].busy && c->hosts[h].last_sent_s < now)
			c->hosts[h].last_sent_s = now;
	}
	if (!(f = open_memstream(&buf, &len)))
		return;
	for (uint32_t h = 0; h < c->n_hosts; h++) {
		double until = c->hosts[h].last_sent_s + fr_crawl_slack(c, c->hosts[h].gap_s);

		if (until > now && c->hosts[h].name && !strpbrk(c->hosts[h].name, "\t\n"))
			fprintf(f, "%s\t%.6f\n", c->hosts[h].name, until);
	}
	if (fclose(f) != 0) {
		free(buf);
		return;
	}
	if (fr_store_meta_put(c->st, HOST_HOLDS_KEY, buf, len, e, sizeof(e)) < 0)
		fr_crawl_logf(c, "saving the hosts' gaps still running: %s", e);
	free(buf);
}

void
fr_crawl_load_host_holds(struct crawl *c, const struct fr_strmap *hosts, double now)
{
	double *until = calloc(c->n_hosts ? c->n_hosts : 1, sizeof(*until));
	void *buf = NULL;
	size_t len = 0;

	if (!until)
		return;
	for (uint32_t i = 0; i < c->n; i++) {
		double t = c->src[i].row.last_fetch_s + fr_crawl_slack(c, c->o->host_gap_s);

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
			fr_crawl_logf(c, "store key %s: %zu of %zu lines unreadable, ignored", HOST_HOLDS_KEY,
			      bad, line);
	}
	free(buf);
	for (uint32_t h = 0; h < c->n_hosts; h++)
		if (until[h] > now)
			fr_sched_hold_host(fr_crawl_pick(c), h, until[h]);
	free(until);
}

/* ---- the host a fetch's requests are on -----------------------------------
 * The scheduler keeps one fetch per host at a time, and a host's gap, for
 * the sources' own hosts. A redirect to another host leaves that: its hop
 * is a request to a host the scheduler did not choose. So each fetch holds
 * the host its requests are on (at_host: robots.txt, the feed, each hop),
 * and a hop to another host waits until no other fetch holds it and its
 * gap since its latest answer has run (fr_crawl_hop_wait); a source whose
 * host a hop holds waits too (start() in loop.c), and a hop's answer holds
 * the host's own sources for its gap (on_done in loop.c). */

/* The index of host name (len bytes), added when new; NO_HOST when out of
 * memory. */
static uint32_t
host_intern(struct crawl *c, const char *name, size_t len)
{
	uint32_t h = NO_HOST;
	int added = 0;

	if (fr_strmap_intern(c->host_ids, name, len, &h, &added) < 0)
		return NO_HOST;
	if (added) {
		if (h >= c->host_cap) {
			uint32_t cap = c->host_cap ? c->host_cap * 2 : 16;
			struct host *a = realloc(c->hosts, (size_t)cap * sizeof(*a));

			if (!a)
				/* The name stays interned: the next look-up adds it again. */
				return NO_HOST;
			c->hosts = a;
			c->host_cap = cap;
		}
		/* Interned ids are dense: a failed growth above left h unused. */
		for (uint32_t k = c->n_hosts; k <= h; k++) {
			struct host *nh = &c->hosts[k];

			memset(nh, 0, sizeof(*nh));
			nh->gap_s = c->o->host_gap_s;
			nh->last_sent_s = nh->answered_s = -INFINITY;
			nh->name = strdup(fr_strmap_name(c->host_ids, k));
		}
		c->n_hosts = h + 1;
	} else if (h >= c->n_hosts) {
		/* Interned before, when growing the array failed. */
		return NO_HOST;
	}
	return h;
}

uint32_t
fr_crawl_host_id(struct crawl *c, const char *url)
{
	char *name = url ? fr_url_host(url) : NULL;
	uint32_t h;

	if (!name)
		return NO_HOST;
	h = host_intern(c, name, strlen(name));
	free(name);
	return h;
}

void
fr_crawl_host_leave(struct crawl *c, uint32_t i)
{
	struct csrc *cs = &c->src[i];

	if (cs->at_host != NO_HOST && c->hosts[cs->at_host].holders > 0)
		c->hosts[cs->at_host].holders--;
	cs->at_host = NO_HOST;
}

void
fr_crawl_host_take(struct crawl *c, uint32_t i, uint32_t h)
{
	struct csrc *cs = &c->src[i];

	if (cs->at_host == h)
		return;
	fr_crawl_host_leave(c, i);
	if (h == NO_HOST)
		return;
	cs->at_host = h;
	c->hosts[h].holders++;
}

double
fr_crawl_hop_wait(struct crawl *c, uint32_t i, uint32_t h, double now)
{
	const struct host *ho;
	double t;

	if (h == NO_HOST || c->src[i].at_host == h)
		return now;
	ho = &c->hosts[h];
	if (ho->holders > 0)
		return now + HOP_RECHECK_S;
	/* From its latest answer, not the request's send: the host took that
	 * request at some instant between the two, so a gap counted from the
	 * answer reaches it whole, whatever the load here. */
	t = fmax(ho->last_sent_s, ho->answered_s) + fr_crawl_slack(c, ho->gap_s);
	if (ho->paused_until_s > t)
		t = ho->paused_until_s;
	return t;
}

int
fr_crawl_send(struct crawl *c, uint32_t i, const struct fr_request *rq, char *e, size_t elen)
{
	return fr_crawl_send_ex(c, i, rq, NULL, e, elen);
}

int
fr_crawl_send_ex(struct crawl *c, uint32_t i, const struct fr_request *rq,
		 const struct fr_request_extra *x, char *e, size_t elen)
{
	/* The source's own host unless a redirect led elsewhere, or a forum's
	 * page is on another host (each page is its own host's). Out of memory
	 * for a new host's entry: the source's own host. */
	uint32_t h = c->src[i].hop_url || c->src[i].is_forum ? fr_crawl_host_id(c, rq->url)
							      : c->src[i].host;

	fr_crawl_host_take(c, i, h != NO_HOST ? h : c->src[i].host);
	return fr_fetchq_submit_ex(c->fetcher, rq, x, e, elen);
}

/* ---- a redirect's target's pause across restarts --------------------------
 * A 429 or 503 pauses the host that answered it (learn() in commit.c); the
 * source's row keeps the pause as its backoff, with the status, which a
 * restart reads back as a pause of the source's own host. When the answer
 * came from a redirect's target, the row alone would pause the wrong host,
 * so the target's name is stored beside it: store meta key hop-pauses, one
 * line per source whose latest fetch was so paused, "ID<TAB>HOST<TAB>UNTIL",
 * written in the fetch's own transaction (a group's, when one is open), so
 * that the row and the line are stored together or not at all. A source
 * without a line, after a crash between the two outside a group, pauses its
 * own host as before. */
#define HOP_PAUSES_KEY "hop-pauses"

static void
save_hop_pauses(struct crawl *c, double now)
{
	char *buf = NULL, e[256];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return;
	for (uint32_t i = 0; i < c->n; i++) {
		const struct csrc *cs = &c->src[i];
		const char *name = cs->hop_pause_until > now ? c->hosts[cs->hop_pause_host].name : NULL;

		if (name && !strpbrk(name, "\t\n"))
			fprintf(f, "%lld\t%s\t%.6f\n", (long long)cs->row.id, name, cs->hop_pause_until);
	}
	if (fclose(f) != 0) {
		free(buf);
		return;
	}
	if (fr_store_meta_put(c->st, HOP_PAUSES_KEY, buf, len, e, sizeof(e)) < 0)
		fr_crawl_logf(c, "saving the pauses of redirects' targets: %s", e);
	free(buf);
}

void
fr_crawl_note_hop_pause(struct crawl *c, uint32_t i, const char *host, double until, double now)
{
	struct csrc *cs = &c->src[i];
	const char *own = c->hosts[cs->host].name;
	uint32_t h = NO_HOST;

	if (c->fatal)
		return;
	if (host && until > now && own && strcmp(host, own) != 0)
		h = host_intern(c, host, strlen(host));
	if (h != NO_HOST) {
		if (cs->hop_pause_until == until && cs->hop_pause_host == h)
			return;
		cs->hop_pause_until = until;
		cs->hop_pause_host = h;
	} else {
		if (!(cs->hop_pause_until > 0))
			return;
		cs->hop_pause_until = 0;
	}
	save_hop_pauses(c, now);
}

uint32_t
fr_crawl_source_by_id(const struct crawl *c, int64_t id)
{
	uint32_t lo = 0, hi = c->n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (c->src[mid].row.id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < c->n && c->src[lo].row.id == id ? lo : UINT32_MAX;
}

void
fr_crawl_load_hop_pauses(struct crawl *c, double now)
{
	void *buf = NULL;
	size_t len = 0, line = 0, bad = 0;
	const char *p, *end;

	if (fr_store_meta_get(c->st, HOP_PAUSES_KEY, &buf, &len) < 0 || !buf)
		return;
	for (p = buf, end = p + len; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end, *t1, *t2;
		char num[40], *ep;
		long long id;
		double until;
		uint32_t i, h;

		line++;
		t1 = memchr(p, '\t', (size_t)(le - p));
		t2 = t1 ? memchr(t1 + 1, '\t', (size_t)(le - t1 - 1)) : NULL;
		if (!t2 || t2 == t1 + 1 || (size_t)(t1 - p) >= sizeof(num) ||
		    (size_t)(le - t2 - 1) >= sizeof(num)) {
			bad++;
			goto next;
		}
		memcpy(num, p, (size_t)(t1 - p));
		num[t1 - p] = 0;
		id = strtoll(num, &ep, 10);
		if (ep == num || *ep) {
			bad++;
			goto next;
		}
		memcpy(num, t2 + 1, (size_t)(le - t2 - 1));
		num[le - t2 - 1] = 0;
		until = strtod(num, &ep);
		if (ep == num || *ep || !isfinite(until)) {
			bad++;
			goto next;
		}
		/* Only while the row still says so: its latest fetch a 429 or
		 * 503 whose backoff runs (a line never outlasts its row's
		 * pause). */
		i = fr_crawl_source_by_id(c, id);
		if (i == UINT32_MAX)
			goto next;
		const struct fr_store_source *r = &c->src[i].row;
		if (!fr_hold_row_pauses_host(r->err_count, r->last_status, r->backoff_until_s, now) ||
		    !(until > now))
			goto next;
		if (until > r->backoff_until_s)
			until = r->backoff_until_s;
		h = host_intern(c, t1 + 1, (size_t)(t2 - t1 - 1));
		if (h == NO_HOST)
			goto next;
		c->src[i].hop_pause_until = until;
		c->src[i].hop_pause_host = h;
		if (!(until > c->hosts[h].paused_until_s)) /* told already */
			goto next;
		c->hosts[h].paused_until_s = until;
		if (h < c->n_sched_hosts)
			fr_sched_hold_host(fr_crawl_pick(c), h, until);
		if (c->o->once && fr_hold_once_beyond(until, now) && h < c->n_sched_hosts) {
			fr_crawl_once_skip_host(c, h, until, now);
		} else {
			char t[40];

			fr_crawl_logf(c, "host %s paused until %s (%.0f s), as a 429 or 503 to a redirect "
				      "asked", c->hosts[h].name, fr_time_format(until, t, sizeof(t)),
				      until - now);
		}
	next:
		p = nl ? nl + 1 : end;
	}
	if (bad)
		fr_crawl_logf(c, "store key %s: %zu of %zu lines unreadable, ignored", HOP_PAUSES_KEY, bad,
			      line);
	free(buf);
}
