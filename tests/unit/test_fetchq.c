/* test_fetchq.c - the fetcher on its own thread (lib/crawl/fetchq.h) against a
 * libmicrohttpd server on 127.0.0.1: every request comes back once with its
 * tag and its own body, validators reach the server, a done callback may
 * submit, poll waits no longer than asked, a bad address comes back as a
 * failed transfer, and freeing with transfers running returns promptly. */
#include "crawl/fetchq.h"

#include "test.h"

#include <microhttpd.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static struct MHD_Daemon *daemon_;
static unsigned short port;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static int active, peak; /* /n/ requests being answered, at most at once (under mu) */

/* /slow answers after this long: far beyond the waits checked below, so a
 * loaded machine cannot blur "returned before the answer". */
#define SLOW_S 4

/* /n/K answers "body K" after 2 ms; /slow sleeps SLOW_S first;
 * If-None-Match "e" gets 304. */
static enum MHD_Result
handler(void *cls, struct MHD_Connection *c, const char *url, const char *method,
	const char *version, const char *upload, size_t *upload_len, void **state)
{
	const char *inm = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "If-None-Match");
	struct MHD_Response *r;
	enum MHD_Result ret;
	char body[64];
	unsigned status = 200;

	(void)cls;
	(void)method;
	(void)version;
	(void)upload;
	(void)upload_len;
	(void)state;
	if (!strcmp(url, "/slow"))
		sleep(SLOW_S);
	if (!strncmp(url, "/n/", 3)) {
		pthread_mutex_lock(&mu);
		if (++active > peak)
			peak = active;
		pthread_mutex_unlock(&mu);
		usleep(2000);
		pthread_mutex_lock(&mu);
		active--;
		pthread_mutex_unlock(&mu);
	}
	snprintf(body, sizeof(body), "body %s", strncmp(url, "/n/", 3) ? url : url + 3);
	if (inm && !strcmp(inm, "\"e\"")) {
		status = 304;
		body[0] = '\0';
	}
	r = MHD_create_response_from_buffer(strlen(body), body, MHD_RESPMEM_MUST_COPY);
	MHD_add_response_header(r, "ETag", "\"e\"");
	ret = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return ret;
}

static double
mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A fetcher of max_total transfers behind a queue of max_running. */
static struct fr_fetchq *
new_queue(int max_total, size_t max_running)
{
	struct fr_fetch_opts o;
	struct fr_fetcher *f;
	struct fr_fetchq *q = NULL;
	char err[256];

	static char ct[64];
	static const char *cts[1];

	fr_fetch_opts_init(&o);
	o.max_total = max_total;
	o.timeout_s = 10;
	/* Hosts hK.fetchq.test, all on the test server (one host would be
	 * held to the fetcher's few connections per host). */
	snprintf(ct, sizeof(ct), "::127.0.0.1:%u", port);
	cts[0] = ct;
	o.connect_to = cts;
	o.n_connect_to = 1;
	CHECK(fr_fetcher_new(&f, &o, err, sizeof(err)) == 0);
	CHECK(fr_fetchq_new(&q, f, max_running, err, sizeof(err)) == 0);
	return q;
}

struct got {
	struct fr_fetchq *q;
	int seen[2000];
	int bad;      /* a body or status that does not match its tag */
	int resubmit; /* tags below this get a follow-up (tag + 1000) */
	size_t n;
};

static void
on_done(void *arg, const struct fr_response *res)
{
	struct got *g = arg;
	char want[64];

	g->n++;
	if (res->tag >= 2000 || res->outcome != FR_NET_OK || res->status != 200 ||
	    !(res->started_s > 0)) {
		g->bad++;
		return;
	}
	g->seen[res->tag]++;
	snprintf(want, sizeof(want), "body %u", (unsigned)res->tag);
	if (!res->body || strcmp(res->body, want) != 0 || res->len != strlen(want))
		g->bad++;
	if ((int)res->tag < g->resubmit) {
		char url[128], err[256];
		struct fr_request rq = {url, NULL, NULL, res->tag + 1000};

		snprintf(url, sizeof(url), "http://h%u.fetchq.test/n/%u",
			 (unsigned)res->tag % 40, (unsigned)res->tag + 1000);
		CHECK(fr_fetchq_submit(g->q, &rq, err, sizeof(err)) == 0);
	}
}

static void
drain(struct got *g)
{
	double until = mono_s() + 20;

	while (fr_fetchq_running(g->q) > 0 && mono_s() < until)
		CHECK(fr_fetchq_poll(g->q, 100, on_done, g) >= 0);
	CHECK(fr_fetchq_running(g->q) == 0);
}

static void
test_every_request_comes_back_once(void)
{
	static struct got g;
	char err[256];

	memset(&g, 0, sizeof(g));
	g.q = new_queue(64, 16); /* the queue holds back all but 16 */
	g.resubmit = 10; /* and the done callback submits 10 more */
	for (unsigned k = 0; k < 300; k++) {
		char url[128];
		struct fr_request rq = {url, NULL, NULL, k};

		snprintf(url, sizeof(url), "http://h%u.fetchq.test/n/%u", k % 40, k);
		CHECK(fr_fetchq_submit(g.q, &rq, err, sizeof(err)) == 0);
	}
	CHECK(fr_fetchq_running(g.q) == 300);
	drain(&g);
	CHECK(g.n == 310 && g.bad == 0);
	/* The queue held back all but 16 at a time, and used them. */
	pthread_mutex_lock(&mu);
	CHECK(peak <= 16 && peak >= 3);
	if (peak > 16 || peak < 3)
		fprintf(stderr, "  at most %d at once\n", peak);
	pthread_mutex_unlock(&mu);
	for (int k = 0; k < 300; k++)
		CHECK(g.seen[k] == 1);
	for (int k = 1000; k < 1010; k++)
		CHECK(g.seen[k] == 1);
	fr_fetchq_free(g.q);
}

struct one {
	int n;
	struct fr_response r; /* strings not kept */
	int had_body;
};

static void
keep_one(void *arg, const struct fr_response *res)
{
	struct one *o = arg;

	o->n++;
	o->r = *res;
	o->had_body = res->body != NULL;
	o->r.body = o->r.content_type = o->r.etag = o->r.last_modified = NULL;
	o->r.effective_url = o->r.permanent_url = o->r.http_version = o->r.location = NULL;
}

static void
test_validators_bad_address_and_waiting(void)
{
	struct fr_fetchq *q = new_queue(4, 0);
	struct one o = {0};
	char url[128], err[256];
	struct fr_request rq = {url, "\"e\"", NULL, 7};
	double t0;

	/* Nothing submitted: poll returns at once, with nothing. */
	t0 = mono_s();
	CHECK(fr_fetchq_poll(q, 0, keep_one, &o) == 0);
	CHECK(o.n == 0);
	/* The validator reaches the server: 304, no body. */
	snprintf(url, sizeof(url), "http://127.0.0.1:%u/n/7", port);
	CHECK(fr_fetchq_submit(q, &rq, err, sizeof(err)) == 0);
	while (o.n == 0 && mono_s() - t0 < 10)
		CHECK(fr_fetchq_poll(q, 100, keep_one, &o) >= 0);
	CHECK(o.n == 1 && o.r.tag == 7 && o.r.status == 304);
	CHECK(o.r.outcome == FR_NET_NOT_MODIFIED && !o.had_body);
	/* An address no fetch can use comes back as a failed transfer. */
	struct fr_request bad = {"ftp://127.0.0.1/x", NULL, NULL, 9};
	CHECK(fr_fetchq_submit(q, &bad, err, sizeof(err)) == 0);
	while (o.n == 1 && mono_s() - t0 < 10)
		CHECK(fr_fetchq_poll(q, 100, keep_one, &o) >= 0);
	CHECK(o.n == 2 && o.r.tag == 9 && o.r.outcome != FR_NET_OK && o.r.err[0]);
	/* Waiting for a slow answer: poll gives up after about the time asked. */
	snprintf(url, sizeof(url), "http://127.0.0.1:%u/slow", port);
	rq.etag = NULL;
	CHECK(fr_fetchq_submit(q, &rq, err, sizeof(err)) == 0);
	t0 = mono_s();
	CHECK(fr_fetchq_poll(q, 200, keep_one, &o) == 0);
	double waited = mono_s() - t0;
	CHECK(waited >= 0.15 && waited < SLOW_S - 1);
	CHECK(fr_fetchq_running(q) == 1);
	/* Stopped with the slow transfer running: it is dropped, not awaited,
	 * and nothing comes back after. */
	t0 = mono_s();
	fr_fetchq_stop(q);
	o.n = 0;
	CHECK(fr_fetchq_poll(q, 100, keep_one, &o) == 0 && o.n == 0);
	fr_fetchq_free(q);
	CHECK(mono_s() - t0 < SLOW_S / 2.0);
	/* A request without an address is refused here. */
	struct fr_request none = {NULL, NULL, NULL, 1};
	q = new_queue(4, 0);
	CHECK(fr_fetchq_submit(q, &none, err, sizeof(err)) == -1);
	CHECK(fr_fetchq_running(q) == 0);
	fr_fetchq_free(q);
}

int
main(void)
{
	daemon_ = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION,
				   0, NULL, NULL, handler, NULL, MHD_OPTION_CONNECTION_TIMEOUT,
				   (unsigned)10, MHD_OPTION_END);
	if (!daemon_) {
		fprintf(stderr, "cannot start the test server\n");
		return 1;
	}
	port = MHD_get_daemon_info(daemon_, MHD_DAEMON_INFO_BIND_PORT)->port;
	RUN(test_every_request_comes_back_once);
	RUN(test_validators_bad_address_and_waiting);
	MHD_stop_daemon(daemon_);
	return TEST_DONE();
}
