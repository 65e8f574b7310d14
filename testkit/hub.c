/* hub.c - the test kit's WebSub hub (hub.h). Subscriptions and the jobs
 * of verifying them sit under one mutex; the thread that verifies and
 * delivers (libcurl, one easy handle per request) works on copies, so
 * the server's threads never wait for a subscriber. */
#include "testkit/hub.h"

#include "core/hex.h"
#include "core/rng.h"
#include "core/strmap.h"
#include "sim/trace.h"
#include "testkit/clock.h"
#include "testkit/feeds.h"
#include "testkit/server.h"
#include "testkit/text.h"
#include "websub/sig.h"

#include <curl/curl.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define TICK_S 0.02
#define MAX_SUBS 100000
#define MAX_JOBS 10000

struct hsub {
	uint32_t s;
	char *callback, *secret;
	double lease_until;
	size_t sent; /* items up to here were pushed (or dropped) */
};

struct job {
	int subscribe;
	uint32_t s;
	char *callback, *secret;
	double lease_s;
};

struct fr_tk_hub {
	struct fr_tk_hub_config c;
	char hub_url[256];
	struct fr_strmap *paths; /* "/feeds/NAME.EXT" of pushed sources -> source */
	uint32_t *path_src;
	pthread_mutex_t mu;
	pthread_t thread;
	int stop, started;
	struct hsub *subs;
	size_t n_subs, cap_subs;
	struct job *jobs;
	size_t n_jobs, cap_jobs;
	struct fr_rng rng;
	struct fr_tk_hub_stats st;
};

int
fr_tk_hub_pushed(const struct fr_tk_hub *h, uint32_t s)
{
	return floor((s + 1.0) * h->c.share) > floor(s * h->c.share);
}

static double
wall_now(const struct fr_tk_hub *h)
{
	return h->c.clock_file ? fr_serve_file_time(h->c.clock_file) : fr_serve_wall_now();
}

static void
hlog(struct fr_tk_hub *h, const char *event, uint32_t s, size_t from, size_t count, long status)
{
	if (!h->c.log)
		return;
	/* Under mu or from the one thread: lines stay whole (stdio locks). */
	fprintf(h->c.log, "%.3f\t%s\t%s\t%zu\t%zu\t%ld\n", fr_serve_wall_now(), event,
		fr_trace_source_name(h->c.tr, s), from, count, status);
	fflush(h->c.log);
}

/* ---- subscription requests (server threads) ---- */

/* The value of name in a form body, decoded (malloc'd), or NULL. */
static char *
form_value(const char *body, size_t len, const char *name)
{
	size_t nl = strlen(name), i = 0;

	while (i < len) {
		const char *p = body + i, *amp = memchr(p, '&', len - i);
		size_t pl = amp ? (size_t)(amp - p) : len - i;

		i += pl + 1;
		if (pl > nl && !strncmp(p, name, nl) && p[nl] == '=') {
			char *v = malloc(pl - nl), *o = v;

			if (!v)
				return NULL;
			for (size_t k = nl + 1; k < pl; k++) {
				int a, b;

				if (p[k] == '+')
					*o++ = ' ';
				else if (p[k] == '%' && k + 2 < pl &&
					 (a = fr_hex_digit((unsigned char)p[k + 1])) >= 0 &&
					 (b = fr_hex_digit((unsigned char)p[k + 2])) >= 0) {
					*o++ = (char)(a << 4 | b);
					k += 2;
				} else
					*o++ = p[k];
			}
			*o = '\0';
			return v;
		}
	}
	return NULL;
}

static void
answer(struct fr_serve_resp *resp, int status, const char *text)
{
	resp->status = status;
	resp->content_type = "text/plain; charset=utf-8";
	resp->body = text;
	resp->len = strlen(text);
}

/* The source whose feed URL is topic, when it pushes: 1 and *s. */
static int
topic_source(const struct fr_tk_hub *h, const char *topic, uint32_t *s)
{
	const char *p = strstr(topic, "://"), *path;
	uint32_t id;

	if (!p || !(path = strchr(p + 3, '/')))
		return 0;
	if (!fr_strmap_find(h->paths, path, strlen(path), &id))
		return 0;
	*s = h->path_src[id];
	return 1;
}

static int
subscription_request(struct fr_tk_hub *h, const struct fr_serve_req *req,
		     struct fr_serve_resp *resp)
{
	char *mode = form_value(req->body, req->body_len, "hub.mode");
	char *topic = form_value(req->body, req->body_len, "hub.topic");
	char *cb = form_value(req->body, req->body_len, "hub.callback");
	char *secret = form_value(req->body, req->body_len, "hub.secret");
	char *lease = form_value(req->body, req->body_len, "hub.lease_seconds");
	uint32_t s = 0;
	int sub = mode && !strcmp(mode, "subscribe");
	double ls = lease ? strtod(lease, NULL) : 0;

	if (!mode || (!sub && strcmp(mode, "unsubscribe")) || !topic || !cb ||
	    (strncmp(cb, "http://", 7) && strncmp(cb, "https://", 8)) || strlen(cb) > 2048 ||
	    (secret && strlen(secret) > 200)) {
		answer(resp, 400, "hub.mode, hub.topic and an http(s) hub.callback are needed\n");
	} else if (!topic_source(h, topic, &s)) {
		answer(resp, 404, "not a topic of this hub\n");
	} else {
		double max = h->c.max_lease_s > 0 ? h->c.max_lease_s : 86400;

		pthread_mutex_lock(&h->mu);
		if (h->n_jobs == h->cap_jobs && h->n_jobs < MAX_JOBS) {
			size_t nc = h->cap_jobs ? 2 * h->cap_jobs : 16;
			struct job *nj = realloc(h->jobs, nc * sizeof(*nj));

			if (nj) {
				h->jobs = nj;
				h->cap_jobs = nc;
			}
		}
		if (h->n_jobs < h->cap_jobs) {
			struct job *j = &h->jobs[h->n_jobs++];

			j->subscribe = sub;
			j->s = s;
			j->callback = cb;
			j->secret = secret;
			j->lease_s = isfinite(ls) && ls >= 1 ? fmin(ls, max) : max;
			cb = secret = NULL;
			h->st.requests++;
			hlog(h, "request", s, 0, 0, 202);
			answer(resp, 202, "accepted: the callback will be asked to verify\n");
		} else {
			answer(resp, 503, "too many requests waiting\n");
		}
		pthread_mutex_unlock(&h->mu);
	}
	free(mode);
	free(topic);
	free(cb);
	free(secret);
	free(lease);
	return 0;
}

int
fr_tk_hub_handle(void *ctx, const struct fr_serve_req *req, struct fr_serve_resp *resp)
{
	struct fr_tk_hub *h = ctx;
	uint32_t id;
	int rc;

	if (req->host == 0 && req->path && !strcmp(req->path, FR_TK_HUB_PATH)) {
		if (!req->method || strcmp(req->method, "POST")) {
			answer(resp, 405, "POST a subscription request\n");
			return 0;
		}
		return subscription_request(h, req, resp);
	}
	rc = fr_serve_feeds_handle(h->c.feeds, req, resp);
	if (rc == 0 && resp->status == 200 && req->path &&
	    fr_strmap_find(h->paths, req->path, strlen(req->path), &id)) {
		char url[1024];
		size_t n = strlen(resp->headers);

		fr_serve_feeds_url(h->c.feeds, h->path_src[id], url, sizeof(url));
		snprintf(resp->headers + n, sizeof(resp->headers) - n,
			 "Link: <%s>; rel=\"hub\", <%s>; rel=\"self\"\n", h->hub_url, url);
	}
	return rc;
}

/* ---- the thread: verifications and deliveries ---- */

struct sink {
	char buf[1100];
	size_t len;
};

static size_t
on_body(char *p, size_t size, size_t n, void *arg)
{
	struct sink *k = arg;
	size_t t = size * n;

	if (k->len + t < sizeof(k->buf)) {
		memcpy(k->buf + k->len, p, t);
		k->len += t;
	} else {
		k->len = sizeof(k->buf); /* too long: no challenge matches */
	}
	return t;
}

static void
add_enc(struct fr_text *t, const char *s)
{
	static const char hx[] = "0123456789ABCDEF";

	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		    *p == '-' || *p == '.' || *p == '_' || *p == '~') {
			fr_text_add(t, (const char *)p, 1);
		} else {
			char e[3] = {'%', hx[*p >> 4], hx[*p & 15]};

			fr_text_add(t, e, 3);
		}
	}
}

/* Asks the callback to verify job j: 1 when it echoed the challenge. */
static int
verify(struct fr_tk_hub *h, const struct job *j, long *status)
{
	struct fr_text u = {0};
	struct sink k = {.len = 0};
	char challenge[40], url[1024], lease[32];
	CURL *e = curl_easy_init();
	int ok = 0;

	*status = 0;
	if (!e)
		return 0;
	snprintf(challenge, sizeof(challenge), "%016llx%016llx",
		 (unsigned long long)fr_rng_u64(&h->rng), (unsigned long long)fr_rng_u64(&h->rng));
	fr_serve_feeds_url(h->c.feeds, j->s, url, sizeof(url));
	fr_text_puts(&u, j->callback);
	fr_text_puts(&u, strchr(j->callback, '?') ? "&hub.mode=" : "?hub.mode=");
	fr_text_puts(&u, j->subscribe ? "subscribe" : "unsubscribe");
	fr_text_puts(&u, "&hub.topic=");
	add_enc(&u, url);
	fr_text_puts(&u, "&hub.challenge=");
	fr_text_puts(&u, challenge);
	if (j->subscribe) {
		snprintf(lease, sizeof(lease), "%.0f", j->lease_s);
		fr_text_puts(&u, "&hub.lease_seconds=");
		fr_text_puts(&u, lease);
	}
	if (!u.bad) {
		curl_easy_setopt(e, CURLOPT_URL, u.p);
		curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
		curl_easy_setopt(e, CURLOPT_TIMEOUT, 5L);
		curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, on_body);
		curl_easy_setopt(e, CURLOPT_WRITEDATA, &k);
		if (curl_easy_perform(e) == CURLE_OK) {
			curl_easy_getinfo(e, CURLINFO_RESPONSE_CODE, status);
			ok = *status >= 200 && *status < 300 && k.len == strlen(challenge) &&
			     !memcmp(k.buf, challenge, k.len);
		}
	}
	fr_text_free(&u);
	curl_easy_cleanup(e);
	return ok;
}

static void
job_done(struct fr_tk_hub *h, struct job *j, double now)
{
	size_t i;

	for (i = 0; i < h->n_subs; i++)
		if (h->subs[i].s == j->s && !strcmp(h->subs[i].callback, j->callback))
			break;
	if (!j->subscribe) {
		if (i < h->n_subs) {
			free(h->subs[i].callback);
			free(h->subs[i].secret);
			h->subs[i] = h->subs[--h->n_subs];
		}
		hlog(h, "gone", j->s, 0, 0, 200);
		return;
	}
	if (i == h->n_subs) {
		if (h->n_subs == h->cap_subs) {
			size_t nc = h->cap_subs ? 2 * h->cap_subs : 16;
			struct hsub *ns = nc <= MAX_SUBS ? realloc(h->subs, nc * sizeof(*ns)) : NULL;

			if (!ns)
				return;
			h->subs = ns;
			h->cap_subs = nc;
		}
		h->subs[i].s = j->s;
		h->subs[i].callback = j->callback;
		h->subs[i].secret = NULL;
		/* What is visible now the subscriber polls for; pushes bring
		 * what comes after. */
		h->subs[i].sent = fr_serve_feeds_visible(h->c.feeds, j->s,
							 fr_serve_clock_trace(h->c.clock, now));
		h->n_subs++;
		j->callback = NULL;
	}
	free(h->subs[i].secret);
	h->subs[i].secret = j->secret ? j->secret : strdup("");
	j->secret = NULL;
	h->subs[i].lease_until = now + j->lease_s;
	h->st.verified++;
	hlog(h, "verified", j->s, 0, h->subs[i].sent, 200);
}

/* POSTs source s's items [from, count) to a subscription (a copy). */
static long
deliver(struct fr_tk_hub *h, uint32_t s, const char *callback, const char *secret, size_t from,
	size_t count)
{
	struct fr_text b = {0};
	const char *ctype = fr_serve_feeds_render_new(h->c.feeds, s, from, count, &b);
	char sig[FR_WEBSUB_SIG_MAX], hdr[FR_WEBSUB_SIG_MAX + 32], ct[128], link[1400], url[1024];
	struct curl_slist *hl = NULL;
	struct sink k = {.len = 0};
	CURL *e;
	long status = 0;

	if (b.bad || !(e = curl_easy_init())) {
		fr_text_free(&b);
		return 0;
	}
	fr_websub_sig_make("sha256", secret, b.p ? b.p : "", b.len, sig);
	snprintf(hdr, sizeof(hdr), "X-Hub-Signature: %s", sig);
	snprintf(ct, sizeof(ct), "Content-Type: %s", ctype);
	fr_serve_feeds_url(h->c.feeds, s, url, sizeof(url));
	snprintf(link, sizeof(link), "Link: <%s>; rel=\"hub\", <%s>; rel=\"self\"", h->hub_url, url);
	hl = curl_slist_append(hl, hdr);
	hl = curl_slist_append(hl, ct);
	hl = curl_slist_append(hl, link);
	curl_easy_setopt(e, CURLOPT_URL, callback);
	curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(e, CURLOPT_TIMEOUT, 5L);
	curl_easy_setopt(e, CURLOPT_HTTPHEADER, hl);
	curl_easy_setopt(e, CURLOPT_POSTFIELDSIZE, (long)b.len);
	curl_easy_setopt(e, CURLOPT_POSTFIELDS, b.p ? b.p : "");
	curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, on_body);
	curl_easy_setopt(e, CURLOPT_WRITEDATA, &k);
	if (curl_easy_perform(e) == CURLE_OK)
		curl_easy_getinfo(e, CURLINFO_RESPONSE_CODE, &status);
	curl_slist_free_all(hl);
	curl_easy_cleanup(e);
	fr_text_free(&b);
	return status;
}

static void *
run(void *arg)
{
	struct fr_tk_hub *h = arg;

	for (;;) {
		struct timespec ts = {0, (long)(TICK_S * 1e9)};
		double now;

		pthread_mutex_lock(&h->mu);
		if (h->stop) {
			pthread_mutex_unlock(&h->mu);
			break;
		}
		/* Verifications, one at a time, outside the lock. */
		while (h->n_jobs > 0 && !h->stop) {
			struct job j = h->jobs[0];
			long status;
			int ok;

			memmove(h->jobs, h->jobs + 1, --h->n_jobs * sizeof(*h->jobs));
			pthread_mutex_unlock(&h->mu);
			ok = verify(h, &j, &status);
			pthread_mutex_lock(&h->mu);
			if (ok) {
				job_done(h, &j, wall_now(h));
			} else {
				h->st.refused++;
				hlog(h, "refused", j.s, 0, 0, status);
			}
			free(j.callback);
			free(j.secret);
		}
		/* Deliveries of what the clock published since. */
		now = wall_now(h);
		double t = fr_serve_clock_trace(h->c.clock, now);
		for (size_t i = 0; i < h->n_subs && !h->stop;) {
			struct hsub *u = &h->subs[i];
			size_t count;

			if (u->lease_until <= now) {
				hlog(h, "gone", u->s, 0, 0, 0);
				free(u->callback);
				free(u->secret);
				*u = h->subs[--h->n_subs];
				continue;
			}
			count = fr_serve_feeds_visible(h->c.feeds, u->s, t);
			if (count > u->sent) {
				size_t from = u->sent;
				uint32_t s = u->s;

				u->sent = count;
				if (fr_rng_uniform(&h->rng) < h->c.drop) {
					h->st.drops++;
					hlog(h, "drop", s, from, count, 0);
				} else {
					char *cb = strdup(u->callback), *sec = strdup(u->secret);
					long status;

					hlog(h, "push", s, from, count, 0);
					pthread_mutex_unlock(&h->mu);
					status = cb && sec ? deliver(h, s, cb, sec, from, count) : 0;
					pthread_mutex_lock(&h->mu);
					free(cb);
					free(sec);
					if (status >= 200 && status < 300)
						h->st.pushes++;
					else {
						h->st.failed++;
						hlog(h, "failed", s, from, count, status);
					}
				}
			}
			i++;
		}
		pthread_mutex_unlock(&h->mu);
		nanosleep(&ts, NULL);
	}
	return NULL;
}

struct fr_tk_hub *
fr_tk_hub_new(const struct fr_tk_hub_config *c, char *err, size_t errlen)
{
	struct fr_tk_hub *h;
	char url[1024], host[160];

	if (!c->feeds || !c->tr || !c->clock || !c->domain || !(c->share >= 0 && c->share <= 1) ||
	    !(c->drop >= 0 && c->drop <= 1)) {
		snprintf(err, errlen, "hub: bad configuration (share and drop in [0, 1])");
		return NULL;
	}
	if (!(h = calloc(1, sizeof(*h))) || !(h->paths = fr_strmap_new()) ||
	    !(h->path_src = malloc((c->tr->n_sources ? c->tr->n_sources : 1) * sizeof(uint32_t)))) {
		snprintf(err, errlen, "hub: out of memory");
		goto fail;
	}
	h->c = *c;
	fr_rng_seed(&h->rng, c->seed ? c->seed : 1);
	fr_serve_host_name(0, c->domain, host, sizeof(host));
	snprintf(h->hub_url, sizeof(h->hub_url), "http://%s%s", host, FR_TK_HUB_PATH);
	for (uint32_t s = 0; s < c->tr->n_sources; s++) {
		const char *p;
		uint32_t id;
		int added;

		if (!fr_tk_hub_pushed(h, s))
			continue;
		fr_serve_feeds_url(c->feeds, s, url, sizeof(url));
		p = strchr(strstr(url, "://") + 3, '/');
		if (!p || fr_strmap_intern(h->paths, p, strlen(p), &id, &added) < 0) {
			snprintf(err, errlen, "hub: out of memory");
			goto fail;
		}
		h->path_src[id] = s;
	}
	pthread_mutex_init(&h->mu, NULL);
	if (h->c.log) {
		fprintf(h->c.log, "wall_s\tevent\tsource\tfrom\tcount\tstatus\n");
		fflush(h->c.log);
	}
	if (pthread_create(&h->thread, NULL, run, h) != 0) {
		snprintf(err, errlen, "hub: cannot start its thread");
		pthread_mutex_destroy(&h->mu);
		goto fail;
	}
	h->started = 1;
	return h;
fail:
	if (h) {
		fr_strmap_free(h->paths);
		free(h->path_src);
		free(h);
	}
	return NULL;
}

void
fr_tk_hub_get_stats(struct fr_tk_hub *h, struct fr_tk_hub_stats *out)
{
	pthread_mutex_lock(&h->mu);
	*out = h->st;
	pthread_mutex_unlock(&h->mu);
}

void
fr_tk_hub_free(struct fr_tk_hub *h)
{
	if (!h)
		return;
	if (h->started) {
		pthread_mutex_lock(&h->mu);
		h->stop = 1;
		pthread_mutex_unlock(&h->mu);
		pthread_join(h->thread, NULL);
		pthread_mutex_destroy(&h->mu);
	}
	for (size_t i = 0; i < h->n_subs; i++) {
		free(h->subs[i].callback);
		free(h->subs[i].secret);
	}
	for (size_t i = 0; i < h->n_jobs; i++) {
		free(h->jobs[i].callback);
		free(h->jobs[i].secret);
	}
	free(h->subs);
	free(h->jobs);
	fr_strmap_free(h->paths);
	free(h->path_src);
	free(h);
}
