/* sub.c - the subscriber's subscriptions and push queue (sub.h). Every
 * value from a hub is hostile: compared, bounded, never trusted to name a
 * subscription by anything but its random callback id. Lookups are linear
 * in the subscriptions (a crawl pushes for hundreds of sources, not
 * millions). */
#include "websub/sub.h"

#include "core/err.h"
#include "websub/link.h"
#include "websub/sig.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum { P_NONE, P_SUB, P_UNSUB };

struct sub {
	int64_t source_id;
	char *topic, *hub;
	char secret[65]; /* 32 random bytes, hex */
	char cb[33];     /* 16 random bytes, hex: the callback's last segment */
	int want;        /* 1: subscribed wanted; 0: to unsubscribe (source gone) */
	int pending;     /* asked of the hub, not verified yet (P_*) */
	int sending;     /* a request is out (next_request .. request_done) */
	int fails;
	double asked_s, next_try_s, lease_until_s, last_push_s;
	double lease_s;  /* the lease the hub granted last (renewal's margin) */
	int dead;        /* unsubscribed: removed at the next compaction */
};

struct qpush {
	struct fr_websub_push p;
	struct qpush *next;
};

struct fr_websub {
	pthread_mutex_t mu;
	char *base;      /* callback base, no trailing '/' */
	char *base_path; /* its path ("/websub"), "" for the root */
	struct fr_websub_opts o;
	struct sub *subs;
	size_t n, cap;
	struct qpush *qhead, *qtail;
	size_t qbytes;
	int dirty;
	struct fr_websub_stats st;
};

static void
logf_(struct fr_websub *ws, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
logf_(struct fr_websub *ws, const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	if (!ws->o.log)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	ws->o.log(ws->o.arg, line);
}

int
fr_websub_new(struct fr_websub **out, const struct fr_websub_opts *o, char *err, size_t errlen)
{
	struct fr_websub *ws;
	const char *p;
	size_t bl;

	*out = NULL;
	if (!o || !fr_websub_url_ok(o->callback_base) || strchr(o->callback_base, '?') ||
	    strchr(o->callback_base, '#'))
		return fr_errf(err, errlen, "callback base '%s': not an http:// or https:// URL without query",
			       o && o->callback_base ? o->callback_base : "");
	if (!(ws = calloc(1, sizeof(*ws))))
		return fr_errf(err, errlen, "out of memory");
	ws->o = *o;
	if (!(ws->o.lease_s > 0))
		ws->o.lease_s = FR_WEBSUB_LEASE_S;
	if (!(ws->o.retry_s > 0))
		ws->o.retry_s = FR_WEBSUB_RETRY_S;
	if (!(ws->o.retry_cap_s > 0))
		ws->o.retry_cap_s = FR_WEBSUB_RETRY_CAP_S;
	if (!(ws->o.verify_wait_s > 0))
		ws->o.verify_wait_s = FR_WEBSUB_VERIFY_WAIT_S;
	if (!ws->o.max_body)
		ws->o.max_body = FR_WEBSUB_MAX_BODY;
	if (!ws->o.max_queue)
		ws->o.max_queue = FR_WEBSUB_MAX_QUEUE;
	ws->base = strdup(o->callback_base);
	if (!ws->base) {
		free(ws);
		return fr_errf(err, errlen, "out of memory");
	}
	bl = strlen(ws->base);
	while (bl > 0 && ws->base[bl - 1] == '/')
		ws->base[--bl] = '\0';
	p = strstr(ws->base, "://") + 3;
	p = strchr(p, '/');
	ws->base_path = strdup(p ? p : "");
	if (!ws->base_path) {
		free(ws->base);
		free(ws);
		return fr_errf(err, errlen, "out of memory");
	}
	ws->o.callback_base = ws->base;
	pthread_mutex_init(&ws->mu, NULL);
	*out = ws;
	return 0;
}

void
fr_websub_push_clear(struct fr_websub_push *p)
{
	free(p->body);
	free(p->content_type);
	free(p->topic);
	memset(p, 0, sizeof(*p));
}

static void
sub_free(struct sub *s)
{
	free(s->topic);
	free(s->hub);
	memset(s->secret, 0, sizeof(s->secret));
}

void
fr_websub_free(struct fr_websub *ws)
{
	if (!ws)
		return;
	for (size_t i = 0; i < ws->n; i++)
		sub_free(&ws->subs[i]);
	free(ws->subs);
	while (ws->qhead) {
		struct qpush *q = ws->qhead;

		ws->qhead = q->next;
		fr_websub_push_clear(&q->p);
		free(q);
	}
	pthread_mutex_destroy(&ws->mu);
	free(ws->base);
	free(ws->base_path);
	free(ws);
}

static struct sub *
by_source(struct fr_websub *ws, int64_t id)
{
	for (size_t i = 0; i < ws->n; i++)
		if (ws->subs[i].source_id == id && !ws->subs[i].dead)
			return &ws->subs[i];
	return NULL;
}

static struct sub *
by_cb(struct fr_websub *ws, const char *cb)
{
	if (!cb || strlen(cb) != 32)
		return NULL;
	for (size_t i = 0; i < ws->n; i++)
		if (!ws->subs[i].dead && !strcmp(ws->subs[i].cb, cb))
			return &ws->subs[i];
	return NULL;
}

static struct sub *
add_sub(struct fr_websub *ws)
{
	if (ws->n == ws->cap) {
		size_t nc = ws->cap ? 2 * ws->cap : 16;
		struct sub *ns = realloc(ws->subs, nc * sizeof(*ns));

		if (!ns)
			return NULL;
		ws->subs = ns;
		ws->cap = nc;
	}
	memset(&ws->subs[ws->n], 0, sizeof(ws->subs[0]));
	return &ws->subs[ws->n++];
}

/* Drops the dead subscriptions (no request of theirs is out). */
static void
compact(struct fr_websub *ws)
{
	size_t k = 0;

	for (size_t i = 0; i < ws->n; i++) {
		if (ws->subs[i].dead && !ws->subs[i].sending) {
			sub_free(&ws->subs[i]);
			continue;
		}
		ws->subs[k++] = ws->subs[i];
	}
	ws->n = k;
}

/* ---- persistence ---- */

char *
fr_websub_save(struct fr_websub *ws, size_t *len)
{
	size_t cap = 64, n = 0;
	char *buf;

	pthread_mutex_lock(&ws->mu);
	for (size_t i = 0; i < ws->n; i++)
		cap += 256 + strlen(ws->subs[i].topic) + strlen(ws->subs[i].hub);
	if ((buf = malloc(cap)) != NULL) {
		buf[0] = '\0';
		for (size_t i = 0; i < ws->n; i++) {
			const struct sub *s = &ws->subs[i];

			if (s->dead)
				continue;
			n += (size_t)snprintf(buf + n, cap - n,
					      "v1\t%" PRId64 "\t%d\t%d\t%.3f\t%.3f\t%.3f\t%d\t%.3f\t%.3f\t%s\t%s\t%s\t%s\n",
					      s->source_id, s->want, s->pending, s->asked_s,
					      s->next_try_s, s->lease_until_s, s->fails, s->last_push_s,
					      s->lease_s,
					      s->cb, s->secret, s->hub, s->topic);
		}
		*len = n;
		ws->dirty = 0;
	}
	pthread_mutex_unlock(&ws->mu);
	return buf;
}

static int
hex_ok(const char *s, size_t n)
{
	if (strlen(s) != n)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return 0;
	return 1;
}

static int
num(const char *s, double *out)
{
	char *e;
	double v;

	errno = 0;
	v = strtod(s, &e);
	if (e == s || *e || errno || !isfinite(v) || v < 0 || v > 1e11)
		return -1;
	*out = v;
	return 0;
}

/* One saved line (NUL-terminated, without its newline) into s; a reason
 * when it is bad. */
static const char *
parse_line(char *line, struct sub *s)
{
	char *f[14], *p = line;
	int k = 0;
	double v;
	char *e;
	long long id;

	while (k < 14) {
		f[k++] = p;
		if (!(p = strchr(p, '\t')))
			break;
		*p++ = '\0';
	}
	if (k != 14 || p)
		return "expected 14 tab-separated fields";
	if (strcmp(f[0], "v1"))
		return "unknown version (not v1)";
	errno = 0;
	id = strtoll(f[1], &e, 10);
	if (e == f[1] || *e || errno || id <= 0)
		return "bad source id";
	s->source_id = id;
	if (strcmp(f[2], "0") && strcmp(f[2], "1"))
		return "bad want flag";
	s->want = f[2][0] - '0';
	if (strlen(f[3]) != 1 || f[3][0] < '0' || f[3][0] > '2')
		return "bad pending state";
	s->pending = f[3][0] - '0';
	if (num(f[4], &s->asked_s) || num(f[5], &s->next_try_s) || num(f[6], &s->lease_until_s) ||
	    num(f[8], &s->last_push_s) || num(f[9], &s->lease_s))
		return "bad time";
	if (num(f[7], &v) || v > 1000 || v != floor(v))
		return "bad failure count";
	s->fails = (int)v;
	if (!hex_ok(f[10], 32))
		return "bad callback id";
	if (!hex_ok(f[11], 64))
		return "bad secret";
	if (!fr_websub_url_ok(f[12]) || !fr_websub_url_ok(f[13]))
		return "hub or topic not an http(s) URL";
	memcpy(s->cb, f[10], 33);
	memcpy(s->secret, f[11], 65);
	if (!(s->hub = strdup(f[12])) || !(s->topic = strdup(f[13]))) {
		free(s->hub);
		s->hub = NULL;
		return NULL; /* out of memory: told apart by the caller */
	}
	return "";
}

int
fr_websub_load(struct fr_websub *ws, const char *text, size_t len, char *err, size_t errlen)
{
	size_t i = 0, lineno = 0;
	int bad = 0, rc = 0;

	pthread_mutex_lock(&ws->mu);
	while (i < len) {
		const char *l = text + i, *nl = memchr(l, '\n', len - i);
		size_t ll = nl ? (size_t)(nl - l) : len - i;
		char *line;
		struct sub s;
		const char *why;

		i += ll + (nl != NULL);
		lineno++;
		if (ll == 0)
			continue;
		if (ll > 8192 || memchr(l, '\0', ll)) {
			if (!bad++)
				fr_errf(err, errlen, "websub state line %zu: %s", lineno,
					ll > 8192 ? "too long" : "a NUL byte");
			continue;
		}
		if (!(line = malloc(ll + 1))) {
			rc = -1;
			break;
		}
		memcpy(line, l, ll);
		line[ll] = '\0';
		memset(&s, 0, sizeof(s));
		why = parse_line(line, &s);
		free(line);
		if (!why) {
			rc = -1;
			break;
		}
		if (*why) {
			sub_free(&s);
			if (!bad++)
				fr_errf(err, errlen, "websub state line %zu: %s", lineno, why);
			continue;
		}
		struct sub *old = by_source(ws, s.source_id), *dst;

		if (old) {
			sub_free(old);
			dst = old;
		} else if (!(dst = add_sub(ws))) {
			sub_free(&s);
			rc = -1;
			break;
		}
		*dst = s;
	}
	pthread_mutex_unlock(&ws->mu);
	return rc < 0 ? -1 : bad;
}

int
fr_websub_dirty(struct fr_websub *ws)
{
	int d;

	pthread_mutex_lock(&ws->mu);
	d = ws->dirty;
	pthread_mutex_unlock(&ws->mu);
	return d;
}

/* ---- what the loop asks ---- */

int
fr_websub_want(struct fr_websub *ws, int64_t source_id, const char *hub, const char *topic,
	       double now, char *err, size_t errlen)
{
	struct sub *s;
	int rc = 0;

	if (!fr_websub_url_ok(hub) || !fr_websub_url_ok(topic))
		return fr_errf(err, errlen, "source %" PRId64 ": hub or topic not an http(s) URL",
			       source_id);
	pthread_mutex_lock(&ws->mu);
	s = by_source(ws, source_id);
	if (s && s->want && !strcmp(s->hub, hub) && !strcmp(s->topic, topic))
		goto out; /* as it is */
	if (s) {
		/* Another hub or topic: the old one is left to lapse, a new
		 * subscription (new secret and callback) made. */
		if (s->sending) {
			goto out; /* after its answer; the next fetch says again */
		}
		s->dead = 1;
		ws->dirty = 1;
		compact(ws);
	}
	if (!(s = add_sub(ws))) {
		rc = fr_errf(err, errlen, "out of memory");
		goto out;
	}
	s->source_id = source_id;
	s->want = 1;
	s->next_try_s = now;
	if (fr_websub_random_hex(s->secret, 32) < 0 || fr_websub_random_hex(s->cb, 16) < 0) {
		ws->n--;
		rc = fr_errf(err, errlen, "no random source for a WebSub secret");
		goto out;
	}
	if (!(s->hub = strdup(hub)) || !(s->topic = strdup(topic))) {
		sub_free(s);
		ws->n--;
		rc = fr_errf(err, errlen, "out of memory");
		goto out;
	}
	ws->dirty = 1;
out:
	pthread_mutex_unlock(&ws->mu);
	return rc;
}

static int
cmp_id(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

void
fr_websub_keep_only(struct fr_websub *ws, const int64_t *ids, size_t n, double now)
{
	pthread_mutex_lock(&ws->mu);
	for (size_t i = 0; i < ws->n; i++) {
		struct sub *s = &ws->subs[i];

		if (s->dead || !s->want || (n && bsearch(&s->source_id, ids, n, sizeof(*ids), cmp_id)))
			continue;
		s->want = 0;
		s->fails = 0;
		s->next_try_s = now;
		ws->dirty = 1;
	}
	pthread_mutex_unlock(&ws->mu);
}

void
fr_websub_retry_failed(struct fr_websub *ws, double now)
{
	pthread_mutex_lock(&ws->mu);
	for (size_t i = 0; i < ws->n; i++) {
		struct sub *s = &ws->subs[i];

		if (!s->dead && !s->sending && s->fails > 0 && s->next_try_s > now) {
			s->next_try_s = now;
			ws->dirty = 1;
		}
	}
	pthread_mutex_unlock(&ws->mu);
}

void
fr_websub_request_clear(struct fr_websub_request *rq)
{
	free(rq->hub);
	free(rq->form);
	memset(rq, 0, sizeof(*rq));
}

/* When s should next be asked of its hub (INFINITY: never; it may then be
 * dropped). */
static double
due_at(const struct fr_websub *ws, const struct sub *s)
{
	double t;

	if (s->dead || s->sending)
		return INFINITY;
	if (s->want) {
		/* Renew when a fifth of the granted lease is left (at most a
		 * day before). */
		double left = s->lease_until_s > 0 ? fmin(0.2 * s->lease_s, 86400) : 0;

		t = s->lease_until_s - left;
		if (s->pending)
			t = fmax(t, s->asked_s + ws->o.verify_wait_s);
		return fmax(t, s->next_try_s);
	}
	if (s->pending != P_UNSUB && s->pending != P_SUB && s->lease_until_s <= 0)
		return INFINITY; /* nothing at the hub to undo */
	t = s->pending == P_UNSUB ? s->asked_s + ws->o.verify_wait_s : 0;
	return fmax(t, s->next_try_s);
}

/* Appends name=value (form-encoded) to b at *n (b has room: 3x). */
static void
form_add(char *b, size_t *n, const char *name, const char *v)
{
	static const char hx[] = "0123456789ABCDEF";

	if (*n)
		b[(*n)++] = '&';
	for (const char *p = name; *p; p++)
		b[(*n)++] = *p;
	b[(*n)++] = '=';
	for (const unsigned char *p = (const unsigned char *)v; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		    *p == '-' || *p == '.' || *p == '_' || *p == '~') {
			b[(*n)++] = (char)*p;
		} else {
			b[(*n)++] = '%';
			b[(*n)++] = hx[*p >> 4];
			b[(*n)++] = hx[*p & 15];
		}
	}
	b[*n] = '\0';
}

int
fr_websub_next_request(struct fr_websub *ws, double now, struct fr_websub_request *rq)
{
	int rc = 0;

	memset(rq, 0, sizeof(*rq));
	pthread_mutex_lock(&ws->mu);
	compact(ws);
	for (size_t i = 0; i < ws->n; i++) {
		struct sub *s = &ws->subs[i];
		double t = due_at(ws, s);
		char lease[32], cb[600];
		size_t cap, n = 0;

		if (!s->want && !isfinite(t) && !s->sending) {
			s->dead = 1; /* nothing to undo at the hub */
			ws->dirty = 1;
			continue;
		}
		if (!(t <= now))
			continue;
		snprintf(lease, sizeof(lease), "%.0f", ws->o.lease_s);
		snprintf(cb, sizeof(cb), "%s/%s", ws->base, s->cb);
		cap = 3 * (strlen(cb) + strlen(s->topic) + sizeof(s->secret) + sizeof(lease)) + 128;
		if (!(rq->form = malloc(cap)) || !(rq->hub = strdup(s->hub))) {
			fr_websub_request_clear(rq);
			rc = -1;
			break;
		}
		form_add(rq->form, &n, "hub.callback", cb);
		form_add(rq->form, &n, "hub.mode", s->want ? "subscribe" : "unsubscribe");
		form_add(rq->form, &n, "hub.topic", s->topic);
		if (s->want) {
			form_add(rq->form, &n, "hub.lease_seconds", lease);
			form_add(rq->form, &n, "hub.secret", s->secret);
		}
		rq->source_id = s->source_id;
		rq->subscribe = s->want;
		s->sending = 1;
		/* Pending from now: a hub may verify before its answer to the
		 * request reaches us. */
		s->pending = s->want ? P_SUB : P_UNSUB;
		s->asked_s = now;
		ws->st.requests++;
		rc = 1;
		break;
	}
	pthread_mutex_unlock(&ws->mu);
	return rc;
}

double
fr_websub_next_due(struct fr_websub *ws)
{
	double t = INFINITY;

	pthread_mutex_lock(&ws->mu);
	for (size_t i = 0; i < ws->n; i++)
		t = fmin(t, due_at(ws, &ws->subs[i]));
	pthread_mutex_unlock(&ws->mu);
	return t;
}

void
fr_websub_request_done(struct fr_websub *ws, int64_t source_id, int subscribe, long status,
		       const char *error, double now)
{
	struct sub *s;

	pthread_mutex_lock(&ws->mu);
	for (size_t i = 0; i < ws->n; i++) {
		s = &ws->subs[i];
		if (s->source_id != source_id || !s->sending)
			continue;
		s->sending = 0;
		if (s->dead || s->want != subscribe)
			break; /* changed meanwhile: due_at says what next */
		if (!error && status >= 200 && status < 300) {
			s->fails = 0; /* pending since it was sent (or verified already) */
		} else {
			if (s->pending == (subscribe ? P_SUB : P_UNSUB))
				s->pending = P_NONE;
			double back = ws->o.retry_s * pow(2, s->fails < 30 ? s->fails : 30);

			s->fails++;
			s->next_try_s = now + fmin(back, ws->o.retry_cap_s);
			ws->st.requests_failed++;
			logf_(ws, "websub: source %" PRId64 ": %s at hub %s failed: %s%s%ld (asked again in %.0f s)",
			      source_id, subscribe ? "subscribe" : "unsubscribe", s->hub,
			      error ? error : "", error ? ", status " : "status ", status,
			      s->next_try_s - now);
		}
		ws->dirty = 1;
		break;
	}
	pthread_mutex_unlock(&ws->mu);
}

/* ---- what the hub sends ---- */

int
fr_websub_callback_id(const struct fr_websub *ws, const char *path, char id[33])
{
	size_t bl = strlen(ws->base_path);

	id[0] = '\0';
	if (!path || strncmp(path, ws->base_path, bl) || path[bl] != '/' || !hex_ok(path + bl + 1, 32))
		return -1;
	memcpy(id, path + bl + 1, 33);
	return 0;
}

/* A lease_seconds value: a whole number of seconds >= 1, or -1. */
static double
lease_value(const char *s)
{
	double v = 0;

	if (!s || !*s || strlen(s) > 12)
		return -1;
	for (const char *p = s; *p; p++) {
		if (*p < '0' || *p > '9')
			return -1;
		v = v * 10 + (*p - '0');
	}
	return v >= 1 ? v : -1;
}

int
fr_websub_intent(struct fr_websub *ws, const char *cb_id, const char *mode, const char *topic,
		 const char *challenge, const char *lease_seconds, const char *reason, double now,
		 const char **echo, char *why, size_t whylen)
{
	struct sub *s;
	int code = 404;
	double lease = -1;

	*echo = NULL;
	if (why && whylen)
		why[0] = '\0';
	pthread_mutex_lock(&ws->mu);
	if (!(s = by_cb(ws, cb_id))) {
		fr_errf(why, whylen, "no subscription has this callback");
		goto out;
	}
	if (!mode || !topic) {
		code = 400;
		fr_errf(why, whylen, "hub.mode or hub.topic missing");
		goto out;
	}
	if (strcmp(topic, s->topic)) {
		fr_errf(why, whylen, "hub.topic is not the subscription's topic");
		goto out;
	}
	if (!strcmp(mode, "denied")) {
		if (s->pending != P_SUB && !(s->want && s->lease_until_s > now)) {
			fr_errf(why, whylen, "a denial of nothing asked");
			goto out;
		}
		s->pending = P_NONE;
		s->lease_until_s = 0;
		s->next_try_s = now + ws->o.retry_cap_s;
		ws->st.denied++;
		ws->dirty = 1;
		logf_(ws, "websub: source %" PRId64 ": hub %s denied the subscription to %s: %.200s",
		      s->source_id, s->hub, s->topic, reason ? reason : "(no reason given)");
		*echo = "";
		code = 200;
		goto out;
	}
	if (!challenge || !*challenge || strlen(challenge) > 1024) {
		code = 400;
		fr_errf(why, whylen, "hub.challenge missing or over 1024 bytes");
		goto out;
	}
	if (!strcmp(mode, "subscribe")) {
		if (!s->want || s->pending != P_SUB) {
			fr_errf(why, whylen, "a subscription not asked for");
			goto out;
		}
		if ((lease = lease_value(lease_seconds)) < 0) {
			code = 400;
			fr_errf(why, whylen, "hub.lease_seconds missing or not a whole number >= 1");
			goto out;
		}
		s->pending = P_NONE;
		s->lease_s = fmin(lease, FR_WEBSUB_MAX_LEASE_S);
		s->lease_until_s = now + s->lease_s;
		s->next_try_s = now;
		s->fails = 0;
	} else if (!strcmp(mode, "unsubscribe")) {
		if (s->want || s->pending != P_UNSUB) {
			fr_errf(why, whylen, "an unsubscription not asked for");
			goto out;
		}
		s->dead = 1;
	} else {
		code = 400;
		fr_errf(why, whylen, "unknown hub.mode");
		goto out;
	}
	ws->st.verified++;
	ws->dirty = 1;
	*echo = challenge;
	code = 200;
out:
	if (code != 200)
		ws->st.verify_refused++;
	pthread_mutex_unlock(&ws->mu);
	return code;
}

int
fr_websub_deliver(struct fr_websub *ws, const char *cb_id, const char *sig, const char *ctype,
		  const void *body, size_t len, double now, int *accepted, char *why, size_t whylen)
{
	struct sub *s;
	struct qpush *q = NULL;
	enum fr_websub_sig v;
	int code;

	*accepted = 0;
	if (why && whylen)
		why[0] = '\0';
	pthread_mutex_lock(&ws->mu);
	if (!(s = by_cb(ws, cb_id))) {
		code = 404;
		fr_errf(why, whylen, "no subscription has this callback");
		goto out;
	}
	if (!s->want) {
		code = 410;
		fr_errf(why, whylen, "source %" PRId64 ": unsubscribed", s->source_id);
		goto out;
	}
	if (len > ws->o.max_body) {
		code = 413;
		fr_errf(why, whylen, "source %" PRId64 ": body of %zu bytes over the cap of %zu",
			s->source_id, len, ws->o.max_body);
		goto out;
	}
	v = fr_websub_sig_check(sig, s->secret, body, len);
	if (v != FR_WEBSUB_SIG_OK) {
		code = 202; /* the spec's answer to a bad signature: acknowledged, ignored */
		fr_errf(why, whylen, "source %" PRId64 ": X-Hub-Signature %s: delivery ignored",
			s->source_id, fr_websub_sig_name(v));
		goto out;
	}
	if (ws->qbytes + len > ws->o.max_queue) {
		code = 503;
		fr_errf(why, whylen, "source %" PRId64 ": %zu bytes of pushes wait already", s->source_id,
			ws->qbytes);
		goto out;
	}
	if (!(q = calloc(1, sizeof(*q))) || !(q->p.body = malloc(len + 1)) ||
	    !(q->p.topic = strdup(s->topic)) || (ctype && !(q->p.content_type = strndup(ctype, 256)))) {
		code = 503;
		fr_errf(why, whylen, "out of memory");
		goto out;
	}
	memcpy(q->p.body, body, len);
	q->p.body[len] = '\0';
	q->p.len = len;
	q->p.source_id = s->source_id;
	q->p.received_s = now;
	if (ws->qtail)
		ws->qtail->next = q;
	else
		ws->qhead = q;
	ws->qtail = q;
	ws->qbytes += len;
	q = NULL;
	s->last_push_s = now;
	ws->st.pushes++;
	*accepted = 1;
	code = 202;
out:
	if (q) {
		fr_websub_push_clear(&q->p);
		free(q);
	}
	if (!*accepted)
		ws->st.pushes_refused++;
	pthread_mutex_unlock(&ws->mu);
	return code;
}

size_t
fr_websub_max_body(const struct fr_websub *ws)
{
	return ws->o.max_body;
}

int
fr_websub_take(struct fr_websub *ws, struct fr_websub_push *p)
{
	struct qpush *q;

	pthread_mutex_lock(&ws->mu);
	q = ws->qhead;
	if (q) {
		ws->qhead = q->next;
		if (!ws->qhead)
			ws->qtail = NULL;
		ws->qbytes -= q->p.len;
	}
	pthread_mutex_unlock(&ws->mu);
	if (!q)
		return 0;
	*p = q->p;
	free(q);
	return 1;
}

int
fr_websub_live(struct fr_websub *ws, int64_t source_id, double now, double *last_push_s,
	       double *lease_until_s)
{
	struct sub *s;
	int live = 0;

	pthread_mutex_lock(&ws->mu);
	s = by_source(ws, source_id);
	if (last_push_s)
		*last_push_s = s ? s->last_push_s : 0;
	if (lease_until_s)
		*lease_until_s = s ? s->lease_until_s : 0;
	live = s && s->want && s->lease_until_s > now;
	pthread_mutex_unlock(&ws->mu);
	return live;
}

void
fr_websub_get_stats(struct fr_websub *ws, double now, struct fr_websub_stats *out)
{
	pthread_mutex_lock(&ws->mu);
	*out = ws->st;
	out->subscriptions = out->live = 0;
	for (size_t i = 0; i < ws->n; i++) {
		if (ws->subs[i].dead)
			continue;
		out->subscriptions++;
		out->live += ws->subs[i].want && ws->subs[i].lease_until_s > now;
	}
	pthread_mutex_unlock(&ws->mu);
}
