/* api.c - JSON API sources in the live loop (issue 30): the token read at
 * run time and sent only to the source's own host, the API's rate limit
 * learned from every response and steering the source's scheduler group,
 * each response mapped into items (api/map.h) and committed page by page,
 * the next page followed while every item on a page is new. */
#include "crawl/crawl_int.h"

#include "core/err.h"

#include "api/limit.h"
#include "api/map.h"
#include "api/scrub.h"
#include "api/source.h"
#include "api/spec.h"
#include "core/timefmt.h"
#include "crawl/fetchq.h"
#include "sched/sched.h"
#include "url/url.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define TOKEN_MAX 8192 /* bytes of a token file read at most */

/* One token (one application): its limit state, shared by its sources. */
struct api_cred {
	char *key;         /* fr_api_source_key */
	char *auth;        /* "Authorization: Bearer TOKEN", or NULL (no token) */
	char *token;       /* the secret, for scrubbing; NULL when none */
	char *token_err;   /* why the token could not be read (names no secret) */
	struct fr_api_limit lim;
	double cap_rate;   /* the groups' configured calls per second, or 0 */
	double applied_calls, applied_window_s;
	double told_until; /* the latest wait logged */
	uint32_t *groups;  /* the scheduler groups of its sources, each once */
	const char **group_names; /* their names (borrowed from a source row) */
	uint32_t n_groups;
};

struct api_src {
	struct fr_api_source conf;
	struct fr_api_spec *spec;
	char *bad;         /* the settings could not be read: why */
	uint32_t cred;
	int page;          /* pages asked in the fetch under way */
	char *page_url;    /* the page asked now beyond the first, else NULL */
	char *next_url;    /* the current response's next page (secrets stripped) */
	double *pub;       /* new items' times from the fetch's earlier pages */
	size_t n_pub, cap_pub;
};

static struct api_cred *
cred_of(struct crawl *c, uint32_t i)
{
	return &c->api_cred[c->src[i].api->cred];
}

/* The token: the first line of the file, or the variable's value; blanks
 * around it dropped. *out malloc'd, or -1 with why (naming no secret). */
static int
read_token(const struct fr_api_source *s, char **out, char *why, size_t wlen)
{
	char *t = NULL;
	size_t n;

	*out = NULL;
	if (s->token_env) {
		const char *v = getenv(s->token_env);

		if (!v || !*v)
			return fr_errf(why, wlen, "token: environment variable %s is not set",
				       s->token_env);
		t = strdup(v);
	} else if (s->token_file) {
		FILE *f = fopen(s->token_file, "r");

		if (!f)
			return fr_errf(why, wlen, "token: %s: cannot read: %s", s->token_file,
				       strerror(errno));
		if (!(t = malloc(TOKEN_MAX + 1))) {
			fclose(f);
			return fr_errf(why, wlen, "token: out of memory");
		}
		n = fread(t, 1, TOKEN_MAX, f);
		fclose(f);
		t[n] = 0;
		t[strcspn(t, "\r\n")] = 0;
	} else {
		return 0;
	}
	if (!t)
		return fr_errf(why, wlen, "token: out of memory");
	/* blanks around it */
	char *p = t;
	while (*p == ' ' || *p == '\t')
		p++;
	n = strlen(p);
	while (n > 0 && (p[n - 1] == ' ' || p[n - 1] == '\t'))
		p[--n] = 0;
	memmove(t, p, n + 1);
	if (!*t) {
		free(t);
		return fr_errf(why, wlen, "token: %s%s is empty", s->token_env ? "" : "file ",
			       s->token_env ? s->token_env : s->token_file);
	}
	for (p = t; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f) {
			free(t);
			return fr_errf(why, wlen, "token from %s holds a control character",
				       s->token_env ? s->token_env : s->token_file);
		}
	*out = t;
	return 0;
}

/* The budget configured for group g (--group NAME=N/W), in calls per
 * second, or 0 when none was. */
static double
configured_rate(struct crawl *c, const char *gname)
{
	for (size_t k = 0; k < c->o->n_groups; k++)
		if (!strcmp(c->o->groups[k].name, gname) && c->o->groups[k].window_s > 0)
			return c->o->groups[k].calls / c->o->groups[k].window_s;
	return 0;
}

/* Makes the groups of cred's sources follow what its API said: the budget
 * (when the API gave its limit and window, never above a --group budget),
 * and a hold: until a call may be spent (none left: the reset; a
 * Retry-After), else the calls left spread evenly to the reset. */
static void
steer(struct crawl *c, uint32_t k, double now)
{
	struct api_cred *cr = &c->api_cred[k];
	double calls, win, until;
	int budget = fr_api_limit_budget(&cr->lim, &calls, &win) == 0 && calls >= 1 && win > 0;

	if (cr->cap_rate > 0) {
		/* With a --group budget set to the API's, usage at 100% (the Graph
		 * API's percentages: no count, no reset time) frees a call when
		 * the groups' own windows do: the estimate of its reset. */
		double est = now;

		for (uint32_t g = 0; g < cr->n_groups; g++) {
			fr_sched_hold_group(c->sched, cr->groups[g], -INFINITY);
			est = fmax(est, fr_sched_group_next(c->sched, cr->groups[g], now));
		}
		fr_api_limit_expect_reset(&cr->lim, est);
	}
	until = fr_api_limit_next(&cr->lim, now);

	if (budget && cr->cap_rate > 0 && calls / win > cr->cap_rate)
		calls = floor(cr->cap_rate * win) >= 1 ? floor(cr->cap_rate * win) : 1;
	if (until <= now && cr->lim.remaining >= 1 && cr->lim.reset_at_s > now)
		until = now + (cr->lim.reset_at_s - now) / cr->lim.remaining;
	if (fr_api_limit_next(&cr->lim, now) > now && until > cr->told_until + 1) {
		char t[40];

		cr->told_until = until;
		fr_crawl_logf(c, "api %s: the API says no call is left: its sources wait until %s (%.0f s)",
			      cr->key, fr_time_format(until, t, sizeof(t)), until - now);
	}
	/* Per group, not per source: a steer follows every answer. */
	for (uint32_t g = 0; g < cr->n_groups; g++) {
		if (budget && !c->o->once &&
		    (calls != cr->applied_calls || win != cr->applied_window_s) &&
		    fr_sched_set_group_limit(c->sched, cr->groups[g], (uint32_t)fmin(calls, 4e9), win) == 0)
			fr_crawl_logf(c, "group %s: the API's budget, %.0f calls per %.0f s, followed",
				      cr->group_names[g], calls, win);
		fr_sched_hold_group(fr_crawl_pick(c), cr->groups[g], until);
		if (c->order)
			fr_sched_hold_group(c->sched, cr->groups[g], until);
	}
	if (budget) {
		cr->applied_calls = calls;
		cr->applied_window_s = win;
	}
}

static void
api_src_free(struct api_src *a)
{
	if (!a)
		return;
	fr_api_source_clear(&a->conf);
	fr_api_spec_free(a->spec);
	free(a->bad);
	free(a->page_url);
	free(a->next_url);
	free(a->pub);
	free(a);
}

void
fr_crawl_api_free(struct crawl *c)
{
	for (uint32_t i = 0; c->src && i < c->n; i++) {
		api_src_free(c->src[i].api);
		c->src[i].api = NULL;
	}
	for (uint32_t k = 0; k < c->n_api_cred; k++) {
		struct api_cred *cr = &c->api_cred[k];

		free(cr->key);
		if (cr->auth)
			memset(cr->auth, 0, strlen(cr->auth));
		if (cr->token)
			memset(cr->token, 0, strlen(cr->token));
		free(cr->auth);
		free(cr->token);
		free(cr->token_err);
		free(cr->groups);
		free(cr->group_names);
	}
	free(c->api_cred);
	c->api_cred = NULL;
	c->n_api_cred = 0;
}

int
fr_crawl_api_setup(struct crawl *c, char *err, size_t errlen)
{
	double now = fr_crawl_now(c);

	for (uint32_t i = 0; i < c->n; i++) {
		struct csrc *cs = &c->src[i];
		struct api_src *a;
		char e[768], key[1200];

		if (!cs->row.kind || strcmp(cs->row.kind, "api") != 0)
			continue;
		if (!(a = calloc(1, sizeof(*a))))
			goto oom;
		cs->api = a;
		fr_api_source_init(&a->conf);
		if (fr_api_source_parse(cs->row.kind_state, cs->row.kind_state_len, &a->conf, e,
					sizeof(e)) < 0 ||
		    fr_api_spec_parse(a->conf.spec, strlen(a->conf.spec), &a->spec, e, sizeof(e)) < 0) {
			/* Fetched never: each try records why on the source. */
			if (!(a->bad = strdup(e)))
				goto oom;
			fr_crawl_logf(c, "source %lld: %s: %s", (long long)cs->row.id, cs->row.url, e);
		}
		fr_api_source_key(&a->conf, cs->row.host, key, sizeof(key));
		uint32_t k;
		for (k = 0; k < c->n_api_cred && strcmp(c->api_cred[k].key, key); k++)
			;
		if (k == c->n_api_cred) {
			struct api_cred *nc = realloc(c->api_cred, (k + 1) * sizeof(*nc)), *cr;

			if (!nc)
				goto oom;
			c->api_cred = nc;
			cr = &nc[k];
			memset(cr, 0, sizeof(*cr));
			c->n_api_cred++;
			fr_api_limit_init(&cr->lim);
			cr->lim.cap_s = c->o->retry_after_cap_s > 0 ? c->o->retry_after_cap_s : 86400;
			cr->told_until = -INFINITY;
			if (!(cr->key = strdup(key)))
				goto oom;
			if (read_token(&a->conf, &cr->token, e, sizeof(e)) < 0) {
				if (!(cr->token_err = strdup(e)))
					goto oom;
				fr_crawl_logf(c, "source %lld: %s: %s", (long long)cs->row.id,
					      cs->row.url, e);
			} else if (cr->token) {
				size_t n = strlen(cr->token) + 32;

				if (!(cr->auth = malloc(n)))
					goto oom;
				snprintf(cr->auth, n, "Authorization: Bearer %s", cr->token);
			}
		}
		a->cred = k;
		/* What the API said last, as the newest of its sources keeps it. */
		struct api_cred *cr = &c->api_cred[k];
		uint32_t g;
		for (g = 0; g < cr->n_groups && cr->groups[g] != cs->group; g++)
			;
		if (g == cr->n_groups) {
			uint32_t *ng = realloc(cr->groups, (g + 1) * sizeof(*ng));
			const char **nn;

			if (ng)
				cr->groups = ng;
			nn = ng ? realloc(cr->group_names, (g + 1) * sizeof(*nn)) : NULL;
			if (!nn)
				goto oom;
			cr->group_names = nn;
			cr->groups[g] = cs->group;
			cr->group_names[g] = cs->row.grp ? cs->row.grp : "default";
			cr->n_groups++;
		}
		if (a->conf.learned_s > cr->lim.learned_s)
			fr_api_source_restore(&a->conf, &cr->lim);
		double rate = configured_rate(c, cs->row.grp && cs->row.grp[0] ? cs->row.grp : "default");
		if (rate > 0 && (cr->cap_rate == 0 || rate < cr->cap_rate))
			cr->cap_rate = rate;
	}
	/* What the API said last run holds from the start. */
	for (uint32_t k = 0; k < c->n_api_cred; k++)
		steer(c, k, now);
	return 0;
oom:
	return fr_errf(err, errlen, "out of memory");
}

int
fr_crawl_api_gate(struct crawl *c, uint32_t i, double now)
{
	struct csrc *cs = &c->src[i];
	struct api_cred *cr;
	double until;

	if (!cs->api)
		return 0;
	cr = cred_of(c, i);
	until = fr_api_limit_next(&cr->lim, now);
	if (until <= now)
		return 0;
	c->stats.api_waits++;
	fr_sched_hold_group(fr_crawl_pick(c), cs->group, until);
	if (c->order)
		fr_sched_hold_group(c->sched, cs->group, until);
	if (until > cr->told_until + 1) {
		char t[40];

		cr->told_until = until;
		fr_crawl_logf(c, "api %s: the API says no call is left: group %s waits until %s (%.0f s)",
			      cr->key, cs->row.grp ? cs->row.grp : "default",
			      fr_time_format(until, t, sizeof(t)), until - now);
	}
	return 1;
}

double
fr_crawl_api_page_wait(struct crawl *c, uint32_t i, double now)
{
	struct csrc *cs = &c->src[i];
	double t;

	if (!cs->api || cs->api->page < 1 || cs->hop_url)
		return now;
	t = fr_sched_group_next(c->sched, cs->group, now);
	if (c->order)
		t = fmax(t, fr_sched_group_next(c->order, cs->group, now));
	return fmax(t, fr_api_limit_next(&cred_of(c, i)->lim, now));
}

/* Whether url is on the source's own host (scheme, host and port as
 * the source's address has them): the only place its token goes. */
static int
own_host(const struct csrc *cs, const char *url)
{
	char *a = fr_url_host(url), *b = fr_url_host(cs->row.url);
	int same = a && b && !strcasecmp(a, b);
	const char *pa = strchr(url, ':'), *pb = strchr(cs->row.url, ':');

	/* the same scheme too: a token asked for over https stays on https */
	if (same && pa && pb && (pa - url != pb - cs->row.url || strncasecmp(url, cs->row.url, (size_t)(pa - url))))
		same = 0;
	free(a);
	free(b);
	return same;
}

int
fr_crawl_api_submit(struct crawl *c, uint32_t i)
{
	struct csrc *cs = &c->src[i];
	struct api_src *a = cs->api;
	struct api_cred *cr = cred_of(c, i);
	double now = fr_crawl_now(c);
	const char *url = cs->hop_url ? cs->hop_url : a->page_url ? a->page_url : cs->row.url;
	char e[512];

	if (a->bad || cr->token_err) {
		fr_crawl_api_fail(c, i, a->bad ? a->bad : cr->token_err, now);
		return -1;
	}
	if (a->page == 0)
		a->page = 1;
	else if (a->page_url && !cs->hop_url) {
		/* a further page: one more call of the group's */
		fr_sched_group_spend(c->sched, cs->group, now);
		c->stats.api_pages++;
	}
	cs->feed_at = 0;
	cs->hop_robots = 0;
	cs->req_at = now;
	struct fr_request rq = {.url = url, .tag = (uint64_t)i << 1};
	struct fr_request_extra x = {.auth = cr->auth && own_host(cs, url) ? cr->auth : NULL,
				     .want_headers = 1,
				     .want_error_body = 1};
	fr_api_limit_spend(&cr->lim, now);
	if (fr_crawl_send_ex(c, i, &rq, &x, e, sizeof(e)) < 0) {
		fr_api_scrub_buf(e, sizeof(e), cr->token);
		fr_crawl_api_fail(c, i, e, now);
		return -1;
	}
	return 0;
}

/* Inside the commit's transaction (learn): the row keeps what the API said;
 * a page whose items were all new, with a next page and pages to go, goes
 * on (its new items' times kept for the policy's lesson at the end). */
static int
page_hook(struct outcome *oc, const uint8_t *is_new, size_t n_new, struct fr_store_source *r)
{
	struct crawl *c = oc->c;
	struct api_src *a = c->src[oc->i].api;
	struct api_cred *cr = &c->api_cred[a->cred];
	size_t len;
	char *blob;

	if (!a->bad) {
		fr_api_source_said(&a->conf, &cr->lim);
		if ((blob = fr_api_source_format(&a->conf, &len)) != NULL) {
			free(r->kind_state);
			r->kind_state = blob;
			r->kind_state_len = len;
		}
	}
	if (oc->error || !a->next_url || a->page >= a->conf.max_pages || oc->n_items == 0 ||
	    n_new < oc->n_items || c->stopping)
		return 0;
	if (a->n_pub + n_new > a->cap_pub) {
		size_t cap = (a->n_pub + n_new) * 2;
		double *p = realloc(a->pub, cap * sizeof(*p));

		if (!p)
			return 0; /* the fetch ends here */
		a->pub = p;
		a->cap_pub = cap;
	}
	a->n_pub += fr_crawl_new_pubs(oc, is_new, a->pub + a->n_pub);
	oc->more = 1;
	return 1;
}

/* Commits a page (or the fetch's end), then goes on or ends the fetch. */
static void
api_end(struct crawl *c, uint32_t i, const struct fr_response *res, const char *error,
	const struct fr_feed *feed, const struct fr_store_item *items, double now)
{
	struct csrc *cs = &c->src[i];
	struct api_src *a = cs->api;
	struct outcome oc = {.c = c, .i = i, .now = now, .res = res, .error = error};

	fr_crawl_slot_done(c, i, 0);
	c->stats.fetches++;
	if (res)
		c->stats.bytes += res->wire_bytes;
	if (feed && items) {
		oc.items = items;
		oc.n_items = feed->n_items;
		oc.feed = feed;
	}
	oc.page = page_hook;
	oc.extra_pub = a->pub;
	oc.n_extra_pub = a->n_pub;
	oc.status = error ? FR_FETCH_ERROR
		    : (res && res->outcome == FR_NET_NOT_MODIFIED) ? FR_FETCH_NOT_MODIFIED
								    : FR_FETCH_OK;
	if (error)
		c->stats.errors++;
	else if (oc.status == FR_FETCH_NOT_MODIFIED)
		c->stats.not_modified++;
	else
		c->stats.ok++;
	if (!res && !c->end_outcome) {
		c->end_outcome = "api-error";
		c->end_status = 0;
		c->end_transient = 0;
		fr_crawl_commit(c, i, &oc, res, error, now);
		c->end_outcome = NULL;
	} else {
		fr_crawl_commit(c, i, &oc, res, NULL, now);
	}
	if (oc.more && !c->fatal) {
		/* The next page, after the host's gap, when the group's limit
		 * and the API's allow (fr_crawl_api_page_wait). */
		uint32_t h = cs->at_host != NO_HOST ? cs->at_host : cs->host;

		free(a->page_url);
		a->page_url = a->next_url;
		a->next_url = NULL;
		a->page++;
		free(cs->hop_url);
		cs->hop_url = NULL;
		cs->hops = 0;
		cs->hop_robots = 0;
		cs->feed_at = cs->req_at + fr_crawl_slack(c, c->hosts[h].gap_s);
		c->deferred[c->n_deferred++] = i;
		return;
	}
	fr_crawl_host_leave(c, i);
	cs->busy = 0;
	free(cs->hop_url);
	cs->hop_url = NULL;
	cs->hops = 0;
	cs->hop_robots = 0;
	free(a->page_url);
	a->page_url = NULL;
	free(a->next_url);
	a->next_url = NULL;
	a->page = 0;
	a->n_pub = 0;
}

void
fr_crawl_api_fail(struct crawl *c, uint32_t i, const char *error, double now)
{
	api_end(c, i, NULL, error, NULL, NULL, now);
}

/* The value of the header name in a header block, malloc'd, or NULL. */
static char *
header_value(const char *block, size_t len, const char *name)
{
	size_t nn = strlen(name);

	for (size_t pos = 0; block && pos < len;) {
		const char *p = block + pos, *nl = memchr(p, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - p) : len - pos;

		pos += n + (nl ? 1 : 0);
		if (n > nn && p[nn] == ':' && !strncasecmp(p, name, nn)) {
			const char *v = p + nn + 1;
			size_t vn = n - nn - 1;

			while (vn && (*v == ' ' || *v == '\t'))
				v++, vn--;
			while (vn && (v[vn - 1] == '\r' || v[vn - 1] == ' '))
				vn--;
			char *d = malloc(vn + 1);
			if (d) {
				memcpy(d, v, vn);
				d[vn] = 0;
			}
			return d;
		}
	}
	return NULL;
}

static const char *
slow_name(enum fr_api_slow s)
{
	switch (s) {
	case FR_API_SLOW_STATUS:
		return "HTTP 429";
	case FR_API_SLOW_GRAPH:
		return "a Graph API throttling code";
	case FR_API_SLOW_USAGE:
		return "usage at 100%";
	default:
		return "?";
	}
}

void
fr_crawl_api_done(struct crawl *c, uint32_t i, const struct fr_response *res, double now)
{
	struct csrc *cs = &c->src[i];
	struct api_src *a = cs->api;
	struct api_cred *cr = cred_of(c, i);
	const char *url = cs->hop_url ? cs->hop_url : a->page_url ? a->page_url : cs->row.url;
	char msg[1024], t[40];
	long code = 0;
	enum fr_api_slow slow = FR_API_SLOW_NONE;

	if (res->status > 0) {
		if (res->headers)
			fr_api_limit_headers(&cr->lim, res->headers, res->headers_len, now);
		slow = fr_api_limit_response(&cr->lim, (int)res->status, res->body, res->len, now,
					     &code);
	}
	steer(c, a->cred, now);
	if (slow != FR_API_SLOW_NONE && slow != FR_API_SLOW_USAGE) {
		double until = fr_api_limit_next(&cr->lim, now);

		c->stats.api_slowdowns++;
		if (code)
			snprintf(msg, sizeof(msg), "api: the API asks to slow down (%s, error %ld): no call before %s",
				 slow_name(slow), code, fr_time_format(until, t, sizeof(t)));
		else
			snprintf(msg, sizeof(msg), "api: the API asks to slow down (%s): no call before %s",
				 slow_name(slow), fr_time_format(until, t, sizeof(t)));
		fr_api_scrub_buf(msg, sizeof(msg), cr->token);
		fr_crawl_logf(c, "api %s: source %lld answered slow down: group %s paused until %s (%.0f s)",
			      cr->key, (long long)cs->row.id, cs->row.grp ? cs->row.grp : "default", t,
			      until - now);
		api_end(c, i, res, msg, NULL, NULL, now);
		return;
	}
	if (res->outcome == FR_NET_NOT_MODIFIED) {
		api_end(c, i, res, NULL, NULL, NULL, now);
		return;
	}
	if (res->outcome != FR_NET_OK) {
		snprintf(msg, sizeof(msg), "%s",
			 res->err[0] ? res->err : fr_net_outcome_name(res->outcome));
		if (res->outcome == FR_NET_HTTP_ERROR && res->body && res->len) {
			/* The API's own words (a 401's "invalid token"). */
			struct fr_api_page pg;
			char perr[400];

			if (fr_api_map(a->spec, res->body, res->len, NULL, &pg, perr, sizeof(perr)) < 0 &&
			    strstr(perr, "error")) {
				size_t n = strlen(msg);
				snprintf(msg + n, sizeof(msg) - n, " (%s)", perr);
			}
			fr_api_page_free(&pg);
		}
		fr_api_scrub_buf(msg, sizeof(msg), cr->token);
		api_end(c, i, res, msg, NULL, NULL, now);
		return;
	}
	char *link = header_value(res->headers, res->headers_len, "link");
	struct fr_api_map_opts mo = {.url = url, .link_header = link,
				     .max_bytes = c->o->fetch.max_body};
	struct fr_api_page pg;
	char perr[512];

	if (fr_api_map(a->spec, res->body ? res->body : "", res->len, &mo, &pg, perr,
		       sizeof(perr)) < 0) {
		free(link);
		snprintf(msg, sizeof(msg), "%s", perr);
		fr_api_scrub_buf(msg, sizeof(msg), cr->token);
		api_end(c, i, res, msg, NULL, NULL, now);
		return;
	}
	free(link);
	if (pg.feed->n_items_cut)
		fr_crawl_logf(c, "source %lld: %s: %zu items, over the cap: the %zu oldest left out",
			      (long long)cs->row.id, cs->row.url, pg.feed->n_items + pg.feed->n_items_cut,
			      pg.feed->n_items_cut);
	free(a->next_url);
	a->next_url = pg.next_url ? fr_api_url_strip(pg.next_url) : NULL;
	struct fr_store_item *items = fr_crawl_feed_items(pg.feed);
	if (!items)
		api_end(c, i, res, "out of memory", NULL, NULL, now);
	else
		api_end(c, i, res, NULL, pg.feed, items, now);
	free(items);
	fr_api_page_free(&pg);
}
