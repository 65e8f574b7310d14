/* test_sim_faults.c - outcomes injected into the simulator (sim/faults.h):
 * the fetches a fault meets fail, find nothing, and are held as the live
 * crawler holds them (sched/hold.h); without faults a run is unchanged. */
#include "core/err.h"
#include "sim/faults.h"
#include "sim/sim.h"
#include "sim/trace.h"
#include "test.h"

#include <stdlib.h>

struct rec {
	double t[64];
	int failed[64];
	int n;
};

static void
on_fetch(void *arg, uint32_t src, double t_s, int failed)
{
	struct rec *r = arg;

	(void)src;
	if (r->n < 64) {
		r->t[r->n] = t_s;
		r->failed[r->n] = failed;
	}
	r->n++;
}

/* Runs round robin, one call per 600 s, paced, from 0 to end_s, over one
 * source "a" publishing at times t[0..n), with the faults of faults_csv
 * (or none); r records each fetch. Returns fr_sim_run's result. */
static int
run_on(const double *t, size_t n, double end_s, const char *faults_csv, struct rec *r,
       struct fr_metrics *m)
{
	const char *names[8] = {"a", "a", "a", "a", "a", "a", "a", "a"};
	struct fr_trace tr;
	struct fr_faults f = {0};
	struct fr_sim_config c = {0};
	char err[FR_ERRLEN];
	int rc;

	CHECK(n <= 8);
	if (n > 8)
		return -1;
	CHECK(fr_trace_from_rows(&tr, n, names, t, NULL, err, sizeof(err)) == 0);
	if (faults_csv)
		CHECK(fr_faults_parse("f.csv", faults_csv, strlen(faults_csv), &tr, &f, err,
				      sizeof(err)) == 0);
	c.start_s = 0;
	c.end_s = end_s;
	c.mode = FR_RL_PACED;
	c.calls = 1;
	c.window_s = 600;
	c.seed = 1;
	c.faults = &f;
	c.on_fetch = on_fetch;
	c.on_fetch_arg = r;
	memset(r, 0, sizeof(*r));
	rc = fr_sim_run(&tr, "round-robin", &c, m, NULL, err, sizeof(err));
	if (rc < 0)
		fprintf(stderr, "%s\n", err);
	fr_faults_free(&f);
	fr_trace_free(&tr);
	return rc;
}

/* Publishing at 100, 650 and 1500, from 0 to 3000: fetches at 0, 600,
 * 1200, 1800, 2400. */
static int
run(const char *faults_csv, struct rec *r, struct fr_metrics *m)
{
	const double t[] = {100, 650, 1500};

	return run_on(t, 3, 3000, faults_csv, r, m);
}

static void
without_faults_every_fetch_answers(void)
{
	struct rec r;
	struct fr_metrics m;

	CHECK(run(NULL, &r, &m) == 0);
	CHECK(r.n == 5);
	CHECK(r.t[0] == 0 && r.t[1] == 600 && r.t[2] == 1200 && r.t[4] == 2400);
	CHECK(m.fetched == 3);
	CHECK(m.failed_requests == 0);
	/* 100 at 600, 650 at 1200, 1500 at 1800: (500 + 550 + 300) / 3 */
	CHECK_NEAR(m.delay_mean_s, 450, 1e-9);
	fr_metrics_free(&m);
}

static void
retry_after_holds_the_source_and_its_host(void)
{
	struct rec r;
	struct fr_metrics m;

	/* 503 with Retry-After 1000 s from 500 to 700: the fetch at 600 fails,
	 * the host pauses until 1600, the source's backoff is the pause (longer
	 * than its 60 s step), so the next fetch is at 1600, not 1200. */
	CHECK(run("source,from,to,status,retry_after\na,500,700,503,1000\n", &r, &m) == 0);
	CHECK(r.n == 5);
	CHECK(r.t[0] == 0 && !r.failed[0]);
	CHECK(r.t[1] == 600 && r.failed[1]);
	CHECK(r.t[2] == 1600 && !r.failed[2]);
	CHECK(r.t[3] == 2200 && r.t[4] == 2800);
	CHECK(m.failed_requests == 1);
	CHECK(m.host_pauses == 1);
	CHECK(m.requests == 5);
	/* All three at 1600: 1500, 950 and 100 s late. */
	CHECK(m.fetched == 3);
	CHECK_NEAR(m.delay_mean_s, (1500.0 + 950 + 100) / 3, 1e-9);
	fr_metrics_free(&m);
}

static void
a_fault_of_n_times_fails_n_fetches(void)
{
	struct rec r;
	struct fr_metrics m;

	/* No answer, the first two fetches of the window: the backoffs (60 s
	 * and 120 s, jittered) are shorter than the pacing, so the fetches
	 * keep their slots; the third answers. */
	CHECK(run("source,from,to,status,times\na,0,3000,0,2\n", &r, &m) == 0);
	CHECK(r.n == 5);
	CHECK(r.failed[0] && r.failed[1] && !r.failed[2] && !r.failed[3]);
	CHECK(r.t[1] == 600 && r.t[2] == 1200);
	CHECK(m.failed_requests == 2);
	CHECK(m.host_pauses == 0);
	/* 100 and 650 at 1200, 1500 at 1800. */
	CHECK(m.fetched == 3);
	CHECK_NEAR(m.delay_mean_s, (1100.0 + 550 + 300) / 3, 1e-9);
	fr_metrics_free(&m);
}

static void
a_long_retry_after_is_capped_at_a_day(void)
{
	struct rec r;
	struct fr_metrics m;
	const double t[] = {100};
	const char *csv = "source,from,to,status,retry_after\na,0,1,429,99999999\n";

	CHECK(run_on(t, 1, 200000, csv, &r, &m) == 0);
	CHECK(r.n > 2);
	CHECK(r.failed[0] && r.t[0] == 0);
	CHECK(r.t[1] == 86400 && !r.failed[1]);
	fr_metrics_free(&m);
}

static void
bad_rows_are_named(void)
{
	const char *names[] = {"a"};
	const double t[] = {100};
	struct fr_trace tr;
	struct fr_faults f;
	char err[FR_ERRLEN];
	const char *csv = "source,from,to,status\na,0,10,500\nb,0,10,500\n";

	CHECK(fr_trace_from_rows(&tr, 1, names, t, NULL, err, sizeof(err)) == 0);
	CHECK(fr_faults_parse("f.csv", csv, strlen(csv), &tr, &f, err, sizeof(err)) < 0);
	CHECK_STR(err, "f.csv:3: source 'b' is not in the trace");
	csv = "source,from,to,status\na,10,10,500\n";
	CHECK(fr_faults_parse("f.csv", csv, strlen(csv), &tr, &f, err, sizeof(err)) < 0);
	CHECK_STR(err, "f.csv:2: the window ends before it begins (to <= from)");
	csv = "source,from,to\n";
	CHECK(fr_faults_parse("f.csv", csv, strlen(csv), &tr, &f, err, sizeof(err)) < 0);
	CHECK_STR(err, "f.csv:1: header lacks a 'status' column");
	fr_trace_free(&tr);
}

int
main(void)
{
	RUN(without_faults_every_fetch_answers);
	RUN(retry_after_holds_the_source_and_its_host);
	RUN(a_fault_of_n_times_fails_n_fetches);
	RUN(a_long_retry_after_is_capped_at_a_day);
	RUN(bad_rows_are_named);
	return TEST_DONE();
}
