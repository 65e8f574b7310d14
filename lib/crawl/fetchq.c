/* fetchq.c - the fetcher's thread (fetchq.h). Two FIFO lists under one
 * mutex: requests for the thread, responses for the loop. The thread
 * drives the fetcher in slices of a millisecond while requests or
 * responses keep coming (a request waits at most that long to start),
 * longer ones (up to 16 ms) while transfers run quietly; with none running
 * it sleeps until a request comes. */
#include "crawl/fetchq.h"

#include "core/err.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* How long the thread stays in the fetcher before looking for requests:
 * the busy value, and the longest after quiet slices. */
#define SLICE_MS 1
#define SLICE_MAX_MS 16

/* A request copied for the thread, its strings in the same allocation. */
struct req {
	struct fr_request rq;
	struct fr_request_extra x;
	struct req *next;
	char data[];
};

/* A response copied out of the fetcher: the struct, then its body and
 * strings in the same allocation (one malloc and one free per response,
 * the free on the loop's thread). */
struct resp {
	struct fr_response r;
	struct resp *next;
	char data[];
};

struct fr_fetchq {
	struct fr_fetcher *f;  /* the thread's alone */
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t cv_thread; /* a request or stop for the thread */
	pthread_cond_t cv_loop;   /* a response for the loop */
	struct req *rq_head, *rq_tail;
	struct resp *rs_head, *rs_tail;
	int stop;           /* the loop asks the thread to end */
	int failed;         /* the fetcher failed: the thread ended */
	int thread_waiting; /* the thread sleeps on cv_thread */
	int loop_waiting;   /* the loop sleeps on cv_loop */
	size_t pending;     /* the loop's count: submitted, not taken back */
	size_t max_running; /* transfers in the fetcher at once; 0: no limit */
	/* The thread's: responses of the slice, handed over together, and
	 * requests waiting for room in the fetcher. */
	struct resp *batch_head, *batch_tail;
	struct req *wait_head, *wait_tail;
};


static void
batch_push(struct fr_fetchq *q, struct resp *p)
{
	p->next = NULL;
	if (q->batch_tail)
		q->batch_tail->next = p;
	else
		q->batch_head = p;
	q->batch_tail = p;
}

/* A response for a request that never started. */
static void
batch_error(struct fr_fetchq *q, uint64_t tag, const char *why)
{
	struct resp *p = calloc(1, sizeof(*p));

	if (!p)
		return; /* nothing to say it with: the loop's count stays off by one */
	p->r.tag = tag;
	p->r.outcome = FR_NET_OTHER;
	p->r.retry_after_at_s = p->r.max_age_s = p->r.expires_at_s = p->r.date_s = -1;
	snprintf(p->r.err, sizeof(p->r.err), "%s", why);
	batch_push(q, p);
}

/* Copies s (n bytes, then a NUL) to *at and returns the copy, advancing
 * *at; NULL stays NULL. */
static char *
put(char **at, const char *s, size_t n)
{
	char *d = *at;

	if (!s)
		return NULL;
	memcpy(d, s, n);
	d[n] = '\0';
	*at += n + 1;
	return d;
}

static size_t
len0(const char *s)
{
	return s ? strlen(s) + 1 : 0;
}

/* The fetcher's done callback, on the thread: keeps a copy. */
static void
on_done(void *arg, const struct fr_response *res)
{
	struct fr_fetchq *q = arg;
	size_t need = (res->body ? res->len + 1 : 0) + len0(res->content_type) + len0(res->etag) +
		      len0(res->last_modified) + len0(res->effective_url) +
		      len0(res->permanent_url) + len0(res->http_version) + len0(res->location) +
		      (res->headers ? res->headers_len + 1 : 0);
	struct resp *p = malloc(sizeof(*p) + need);
	char *at;

	if (!p) {
		batch_error(q, res->tag, "out of memory");
		return;
	}
	at = p->data;
	p->r = *res;
	p->r.body = put(&at, res->body, res->len);
	if (!res->body)
		p->r.len = 0;
#define PUT_STR(f) p->r.f = put(&at, res->f, res->f ? strlen(res->f) : 0)
	PUT_STR(content_type);
	PUT_STR(etag);
	PUT_STR(last_modified);
	PUT_STR(effective_url);
	PUT_STR(permanent_url);
	PUT_STR(http_version);
	PUT_STR(location);
#undef PUT_STR
	p->r.headers = put(&at, res->headers, res->headers_len);
	if (!res->headers)
		p->r.headers_len = 0;
	batch_push(q, p);
}

/* Hands the slice's responses to the loop (mu held). */
static void
hand_over(struct fr_fetchq *q)
{
	if (!q->batch_head)
		return;
	if (q->rs_tail)
		q->rs_tail->next = q->batch_head;
	else
		q->rs_head = q->batch_head;
	q->rs_tail = q->batch_tail;
	q->batch_head = q->batch_tail = NULL;
	if (q->loop_waiting)
		pthread_cond_signal(&q->cv_loop);
}

/* Hands waiting requests to the fetcher while it has room (the thread's). */
static void
start_waiting(struct fr_fetchq *q)
{
	while (q->wait_head &&
	       (!q->max_running || fr_fetcher_running(q->f) < q->max_running)) {
		struct req *r = q->wait_head;
		char e[256];

		q->wait_head = r->next;
		if (!q->wait_head)
			q->wait_tail = NULL;
		if (fr_fetcher_submit_ex(q->f, &r->rq, &r->x, e, sizeof(e)) < 0)
			batch_error(q, r->rq.tag, e);
		free(r);
	}
}

static void *
thread_main(void *arg)
{
	struct fr_fetchq *q = arg;
	int slice_ms = SLICE_MS;

	pthread_mutex_lock(&q->mu);
	for (;;) {
		struct req *todo = q->rq_head;

		q->rq_head = q->rq_tail = NULL;
		if (q->stop) {
			q->rq_head = todo; /* freed by fr_fetchq_free */
			break;
		}
		if (!todo && !q->wait_head && fr_fetcher_running(q->f) == 0) {
			q->thread_waiting = 1;
			pthread_cond_wait(&q->cv_thread, &q->mu);
			q->thread_waiting = 0;
			continue;
		}
		pthread_mutex_unlock(&q->mu);
		if (todo) {
			slice_ms = SLICE_MS;
			if (q->wait_tail)
				q->wait_tail->next = todo;
			else
				q->wait_head = todo;
			while (todo->next)
				todo = todo->next;
			q->wait_tail = todo;
		}
		start_waiting(q);
		int rc = 0;
		if (fr_fetcher_running(q->f) > 0)
			rc = fr_fetcher_poll(q->f, slice_ms, on_done, q);
		/* Transfers that ended make room for waiting requests at once. */
		start_waiting(q);
		if (q->batch_head)
			slice_ms = SLICE_MS;
		else if (slice_ms < SLICE_MAX_MS)
			slice_ms *= 2;
		pthread_mutex_lock(&q->mu);
		hand_over(q);
		if (rc < 0) {
			q->failed = 1;
			if (q->loop_waiting)
				pthread_cond_signal(&q->cv_loop);
			break;
		}
	}
	pthread_mutex_unlock(&q->mu);
	/* Closing the connections takes a while (a FIN each): here, beside
	 * the loop's own winding down. */
	fr_fetcher_free(q->f);
	q->f = NULL;
	while (q->wait_head) {
		struct req *next = q->wait_head->next;
		free(q->wait_head);
		q->wait_head = next;
	}
	q->wait_tail = NULL;
	return NULL;
}

int
fr_fetchq_new(struct fr_fetchq **out, struct fr_fetcher *f, size_t max_running, char *err,
	      size_t errlen)
{
	struct fr_fetchq *q = calloc(1, sizeof(*q));

	*out = NULL;
	if (!q) {
		fr_fetcher_free(f);
		return fr_errf(err, errlen, "out of memory");
	}
	q->f = f;
	q->max_running = max_running;
	pthread_mutex_init(&q->mu, NULL);
	pthread_cond_init(&q->cv_thread, NULL);
	pthread_cond_init(&q->cv_loop, NULL);
	/* Signals (SIGINT, SIGTERM: stop the crawl) go to the loop's thread:
	 * the new thread starts with them blocked. */
	sigset_t all, old;
	int started;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	started = pthread_create(&q->thread, NULL, thread_main, q) == 0;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!started) {
		pthread_cond_destroy(&q->cv_loop);
		pthread_cond_destroy(&q->cv_thread);
		pthread_mutex_destroy(&q->mu);
		fr_fetcher_free(f);
		free(q);
		return fr_errf(err, errlen, "cannot start the fetcher's thread");
	}
	*out = q;
	return 0;
}

void
fr_fetchq_stop(struct fr_fetchq *q)
{
	if (!q)
		return;
	pthread_mutex_lock(&q->mu);
	q->stop = 1;
	pthread_cond_signal(&q->cv_thread);
	pthread_mutex_unlock(&q->mu);
}

void
fr_fetchq_free(struct fr_fetchq *q)
{
	if (!q)
		return;
	fr_fetchq_stop(q);
	pthread_join(q->thread, NULL);
	while (q->rq_head) {
		struct req *next = q->rq_head->next;
		free(q->rq_head);
		q->rq_head = next;
	}
	hand_over(q);
	while (q->rs_head) {
		struct resp *next = q->rs_head->next;
		free(q->rs_head);
		q->rs_head = next;
	}
	pthread_cond_destroy(&q->cv_loop);
	pthread_cond_destroy(&q->cv_thread);
	pthread_mutex_destroy(&q->mu);
	free(q);
}

int
fr_fetchq_submit(struct fr_fetchq *q, const struct fr_request *req, char *err, size_t errlen)
{
	return fr_fetchq_submit_ex(q, req, NULL, err, errlen);
}

int
fr_fetchq_submit_ex(struct fr_fetchq *q, const struct fr_request *req,
		    const struct fr_request_extra *x, char *err, size_t errlen)
{
	struct req *r;
	char *at;

	if (!req->url)
		return fr_errf(err, errlen, "fetcher: request without a URL");
	r = malloc(sizeof(*r) + len0(req->url) + len0(req->etag) + len0(req->last_modified) +
		   (x ? len0(x->auth) + len0(x->post_form) : 0));
	if (!r)
		return fr_errf(err, errlen, "%s: out of memory", req->url);
	at = r->data;
	r->next = NULL;
	r->rq.url = put(&at, req->url, strlen(req->url));
	r->rq.etag = put(&at, req->etag, req->etag ? strlen(req->etag) : 0);
	r->rq.last_modified =
	    put(&at, req->last_modified, req->last_modified ? strlen(req->last_modified) : 0);
	r->rq.tag = req->tag;
	r->x.auth = x ? put(&at, x->auth, x->auth ? strlen(x->auth) : 0) : NULL;
	r->x.post_form = x ? put(&at, x->post_form, x->post_form ? strlen(x->post_form) : 0) : NULL;
	r->x.want_headers = x ? x->want_headers : 0;
	r->x.want_error_body = x ? x->want_error_body : 0;
	pthread_mutex_lock(&q->mu);
	if (q->rq_tail)
		q->rq_tail->next = r;
	else
		q->rq_head = r;
	q->rq_tail = r;
	if (q->thread_waiting)
		pthread_cond_signal(&q->cv_thread);
	pthread_mutex_unlock(&q->mu);
	q->pending++;
	return 0;
}

int
fr_fetchq_poll(struct fr_fetchq *q, int timeout_ms,
	       void (*done)(void *arg, const struct fr_response *res), void *arg)
{
	struct resp *list;
	int n = 0, failed;

	pthread_mutex_lock(&q->mu);
	if (!q->rs_head && !q->failed && timeout_ms > 0) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_sec += timeout_ms / 1000;
		ts.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		q->loop_waiting = 1;
		while (!q->rs_head && !q->failed) {
			if (pthread_cond_timedwait(&q->cv_loop, &q->mu, &ts) == ETIMEDOUT)
				break;
		}
		q->loop_waiting = 0;
	}
	list = q->rs_head;
	q->rs_head = q->rs_tail = NULL;
	failed = q->failed;
	pthread_mutex_unlock(&q->mu);
	while (list) {
		struct resp *next = list->next;

		q->pending--;
		n++;
		done(arg, &list->r);
		free(list);
		list = next;
	}
	return failed && n == 0 ? -1 : n;
}

size_t
fr_fetchq_running(const struct fr_fetchq *q)
{
	return q->pending;
}
