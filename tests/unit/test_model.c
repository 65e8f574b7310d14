/* test_model.c - the rate models shared by policies: the square-root rule's
 * waiting index (model/waitindex) against closed forms and numeric integrals
 * worked by hand, and the online rate model (model/ratemodel) on sources
 * whose true rate and rhythm are known. */
#include "test.h"

#include "model/ratemodel.h"
#include "model/waitindex.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#define HOUR 3600.0
#define DAY 86400.0
/* 2012-10-01T00:00:00Z, a Monday. */
#define T0 1349049600.0

/* ---- waitindex ---------------------------------------------------------- */

static double
const_rate(const void *arg, int64_t hour)
{
	(void)hour;
	return *(const double *)arg;
}

/* r during 09:00-17:00 UTC, else 0. */
static double
office_rate(const void *arg, int64_t hour)
{
	int64_t h = hour % 24;
	return h >= 9 && h < 17 ? *(const double *)arg : 0;
}

static double
zero_rate(const void *arg, int64_t hour)
{
	(void)arg;
	(void)hour;
	return 0;
}

/* U(t) of a fresh accumulation from last to t (a copy is advanced). */
static double
u_at(const struct fr_waitacc *a, double t, fr_hour_rate_fn rate, const void *arg,
     const struct fr_burst *b)
{
	struct fr_waitacc c = *a;
	return fr_waitacc_advance(&c, t, rate, arg, b);
}

static double
rel_err(double a, double b)
{
	return fabs(a - b) / (fabs(b) > 0 ? fabs(b) : 1);
}

/* Constant r: U(t) = r (t - last)^2 / 2, however many hour boundaries lie
 * between, and however the advance is split. */
static void
waitacc_constant_rate_closed_form(void)
{
	double r = 4.0 / DAY;
	double last = T0 + 1234.5; /* mid-hour on purpose */
	struct fr_waitacc a;

	fr_waitacc_reset(&a, last);
	CHECK(a.at_s == last && a.last_s == last && a.u == 0 && a.lam == 0);
	CHECK(fr_waitacc_advance(&a, last, const_rate, &r, NULL) == 0);

	/* Within the first hour, then across 1, 5 and 170 boundaries. */
	const double dt[] = {100, 3000, 5 * HOUR + 17, 170 * HOUR + 0.25};
	for (int i = 0; i < 4; i++) {
		double want = r * dt[i] * dt[i] / 2;
		CHECK(rel_err(u_at(&a, last + dt[i], const_rate, &r, NULL), want) < 1e-12);
	}

	/* Several steps (some mid-hour, some exactly on a boundary) vs one. */
	struct fr_waitacc one, steps;
	fr_waitacc_reset(&one, last);
	fr_waitacc_reset(&steps, last);
	double end = last + 3 * DAY + 777;
	double u1 = fr_waitacc_advance(&one, end, const_rate, &r, NULL);
	double t = last, us = 0;
	const double step[] = {10, 2355.5 /* lands on T0 + 3600 */, 7200, 13, 50000, 0, 99999};
	for (int i = 0; t < end; i = (i + 1) % 7) {
		t = t + step[i] < end ? t + step[i] : end;
		us = fr_waitacc_advance(&steps, t, const_rate, &r, NULL);
		CHECK(rel_err(us, r * (t - last) * (t - last) / 2) < 1e-12);
	}
	CHECK(rel_err(u1, r * (end - last) * (end - last) / 2) < 1e-12);
	CHECK(rel_err(us, u1) < 1e-12);
	CHECK(rel_err(steps.lam, r * (end - last)) < 1e-12);
	CHECK(steps.at_s == end && one.at_s == end);

	/* Advancing to an earlier instant changes nothing. */
	CHECK(fr_waitacc_advance(&steps, end - 100, const_rate, &r, NULL) == us);
	CHECK(steps.at_s == end);
}

/* Constant r: due = last + sqrt(2 theta / r), and U(due) == theta. */
static void
waitacc_due_inverts_constant_rate(void)
{
	double r = 2.0 / DAY;
	double last = T0 + 600;
	struct fr_waitacc a;

	fr_waitacc_reset(&a, last);
	/* Answers within the first hour, a few hours ahead, and days ahead. */
	const double dt_want[] = {1200, 4 * HOUR + 321, 30 * HOUR + 5, 9 * DAY + 1};
	for (int i = 0; i < 4; i++) {
		double theta = r * dt_want[i] * dt_want[i] / 2;
		double d = fr_waitacc_due(&a, theta, const_rate, &r, NULL, 14 * DAY);
		CHECK(rel_err(d - last, dt_want[i]) < 1e-9);
		CHECK(rel_err(u_at(&a, d, const_rate, &r, NULL), theta) < 1e-6);
	}

	/* From an accumulation already advanced part of the way. */
	fr_waitacc_advance(&a, last + 5 * HOUR + 10, const_rate, &r, NULL);
	double theta = r * (20 * HOUR) * (20 * HOUR) / 2;
	double d = fr_waitacc_due(&a, theta, const_rate, &r, NULL, 14 * DAY);
	CHECK(rel_err(d - last, 20 * HOUR) < 1e-9);
	CHECK(rel_err(u_at(&a, d, const_rate, &r, NULL), theta) < 1e-6);

	/* Already reached: at_s itself. */
	CHECK(fr_waitacc_due(&a, 0, const_rate, &r, NULL, 14 * DAY) == a.at_s);
	CHECK(fr_waitacc_due(&a, a.u / 2, const_rate, &r, NULL, 14 * DAY) == a.at_s);
}

/* A rate r during 09-17 UTC only, from a fetch at 06:30 UTC on day 0:
 *   - nothing accrues before 09:00;
 *   - U(09:00 + x) = r x^2 / 2 for x <= 8 h: theta = r (2 h)^2 / 2 -> 11:00;
 *   - at 17:00 L = 8 h r, U = 32 h^2 r; then U grows by 8 h r per second
 *     until 09:00 next day: theta = 32 h^2 r + 8 h r * 4 h = 64 h^2 r -> 21:00;
 *   - at next 09:00 (16 h later) U = 32 + 128 = 160 h^2 r, L = 8 h r; then
 *     U = 160 + 8 x + x^2 / 2 (h^2 r): theta = 160 + 8*2 + 2 = 178 -> 11:00. */
static void
waitacc_due_with_idle_hours(void)
{
	double r = 1.0 / HOUR;
	double h2r = HOUR * HOUR * r;
	double last = T0 + 6.5 * HOUR;
	struct fr_waitacc a;

	fr_waitacc_reset(&a, last);
	CHECK(u_at(&a, T0 + 9 * HOUR, office_rate, &r, NULL) == 0);
	CHECK(rel_err(u_at(&a, T0 + 17 * HOUR, office_rate, &r, NULL), 32 * h2r) < 1e-12);
	CHECK(rel_err(u_at(&a, T0 + 33 * HOUR, office_rate, &r, NULL), 160 * h2r) < 1e-12);

	const struct {
		double theta_h2r, due_h;
	} want[] = {
	    {2, 11},   /* inside the first active stretch */
	    {64, 21},  /* in the idle evening: linear growth only */
	    {160, 33}, /* exactly at next 09:00 */
	    {178, 35}, /* next day 11:00 */
	    {1e-6, 9 + sqrt(2e-6)},
	};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		double theta = want[i].theta_h2r * h2r;
		double d = fr_waitacc_due(&a, theta, office_rate, &r, NULL, 14 * DAY);
		CHECK_NEAR(d, T0 + want[i].due_h * HOUR, 1e-6);
		CHECK(rel_err(u_at(&a, d, office_rate, &r, NULL), theta) < 1e-6);
	}
}

/* theta out of reach within the horizon: at_s + horizon, a lower bound. */
static void
waitacc_due_horizon_cap(void)
{
	double r = 1.0 / DAY;
	double last = T0 + 100;
	struct fr_waitacc a;

	fr_waitacc_reset(&a, last);
	fr_waitacc_advance(&a, last + 5000, const_rate, &r, NULL);
	double horizon = 2 * DAY;
	/* U(at + horizon) = r (5000 + 2 d)^2 / 2 ~ 2.1 items-days; ask for 10. */
	double theta = 10 * DAY;
	double d = fr_waitacc_due(&a, theta, const_rate, &r, NULL, horizon);
	CHECK(d == a.at_s + horizon);
	CHECK(u_at(&a, d, const_rate, &r, NULL) < theta);
	CHECK(last + sqrt(2 * theta / r) > d); /* the true instant lies beyond */

	/* A source that never publishes never reaches any positive theta. */
	fr_waitacc_reset(&a, last);
	CHECK(fr_waitacc_due(&a, 1e-9, zero_rate, NULL, NULL, horizon) == last + horizon);
	/* A horizon of an hour and a half, an answer 2 hours ahead. */
	theta = r * (2 * HOUR) * (2 * HOUR) / 2;
	CHECK(fr_waitacc_due(&a, theta, const_rate, &r, NULL, 1.5 * HOUR) == last + 1.5 * HOUR);
}

/* Trapezoid with n steps of amp e^{-(s - from)/tau} (t - s) over [max(last, from), t]. */
static double
burst_numeric(const struct fr_burst *b, double last, double t, int n)
{
	double s0 = last > b->from_s ? last : b->from_s;
	if (t <= s0)
		return 0;
	double h = (t - s0) / n, sum = 0;
	for (int i = 0; i <= n; i++) {
		double s = s0 + i * h;
		double f = b->amp * exp(-(s - b->from_s) / b->tau_s) * (t - s);
		sum += (i == 0 || i == n) ? f / 2 : f;
	}
	return sum * h;
}

static void
burst_u_matches_numeric_integral(void)
{
	const struct {
		struct fr_burst b;
		double last, t;
	} cases[] = {
	    /* last before from: integrate from from */
	    {{0.01, T0 + 1000, 900}, T0, T0 + 5000},
	    /* last after from: the burst has decayed by then */
	    {{0.01, T0, 900}, T0 + 600, T0 + 4000},
	    /* long after, many time constants */
	    {{0.002, T0, 300}, T0 + 100, T0 + 20000},
	    /* short: t just past s0 */
	    {{0.05, T0, 1800}, T0 + 10, T0 + 70},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		double exact = fr_burst_u(&cases[i].b, cases[i].last, cases[i].t);
		double num = burst_numeric(&cases[i].b, cases[i].last, cases[i].t, 200000);
		CHECK(exact > 0);
		CHECK(rel_err(exact, num) < 1e-7);
	}
	struct fr_burst b = {0.01, T0 + 1000, 900};
	/* t before the burst or before the last fetch: nothing. */
	CHECK(fr_burst_u(&b, T0, T0 + 999) == 0);
	CHECK(fr_burst_u(&b, T0 + 2000, T0 + 1500) == 0);
	/* No burst. */
	CHECK(fr_burst_u(NULL, T0, T0 + 5000) == 0);
	b.amp = 0;
	CHECK(fr_burst_u(&b, T0, T0 + 5000) == 0);
	/* Closed-form limit: far past, U -> amp tau (t - s0 - tau). */
	b = (struct fr_burst){0.01, T0, 60};
	CHECK(rel_err(fr_burst_u(&b, T0, T0 + 100000), 0.01 * 60 * (100000 - 60)) < 1e-12);

	/* The advance includes the burst, and only from the last fetch on. */
	double r = 3.0 / DAY;
	struct fr_waitacc a;
	b = (struct fr_burst){0.004, T0 - 500, 900};
	fr_waitacc_reset(&a, T0);
	double t = T0 + 7 * HOUR + 5;
	double u = fr_waitacc_advance(&a, t, const_rate, &r, &b);
	CHECK(rel_err(u, r * (t - T0) * (t - T0) / 2 + burst_numeric(&b, T0, t, 200000)) < 1e-7);
}

/* With a burst, due(theta) is the root of U(t) = theta, burst included, to
 * 1e-3 s: U(due - 1e-3) < theta <= U(due + 1e-3). */
static void
waitacc_due_with_burst(void)
{
	double r = 1.0 / DAY;
	struct fr_waitacc a;
	struct fr_burst b = {0.002, T0 + 200, 900};

	fr_waitacc_reset(&a, T0 + 200);
	/* U is in item-seconds. Thetas reached in the first hour (burst
	 * dominated), hours later (burst spent, background and its tail), and
	 * days later. */
	const double theta[] = {50, 1000, 6000, 20000, 2e5, 2e6};
	double prev = a.at_s;
	for (int i = 0; i < 6; i++) {
		double d = fr_waitacc_due(&a, theta[i], const_rate, &r, &b, 14 * DAY);
		CHECK(d > prev); /* monotone in theta */
		prev = d;
		CHECK(d < a.at_s + 14 * DAY);
		CHECK(u_at(&a, d - 1e-3, const_rate, &r, &b) < theta[i]);
		CHECK(u_at(&a, d + 1e-3, const_rate, &r, &b) >= theta[i]);
		CHECK(rel_err(u_at(&a, d, const_rate, &r, &b), theta[i]) < 1e-6);
	}
	/* Burst amp tau = 1.8 follow-ups: after an hour U = 75 (background) +
	 * 1.8 (3600 - 900 (1 - e^-4)) ~ 4967, so theta 6000 needs more. */
	CHECK(u_at(&a, a.at_s + HOUR, const_rate, &r, &b) < 6000);
	CHECK(fr_waitacc_due(&a, 6000, const_rate, &r, &b, 14 * DAY) > a.at_s + HOUR);

	/* The burst counted since the last fetch only, with idle hours around. */
	double ro = 2.0 / HOUR;
	fr_waitacc_reset(&a, T0 + 6.5 * HOUR);
	b = (struct fr_burst){0.001, T0 + 5 * HOUR, 1200};
	fr_waitacc_advance(&a, T0 + 7 * HOUR + 11, office_rate, &ro, &b);
	for (double th = 10; th < 2e6; th *= 4) {
		if (u_at(&a, a.at_s, office_rate, &ro, &b) >= th)
			continue; /* already reached: checked below */
		double d = fr_waitacc_due(&a, th, office_rate, &ro, &b, 14 * DAY);
		CHECK(u_at(&a, d - 1e-3, office_rate, &ro, &b) < th);
		CHECK(u_at(&a, d + 1e-3, office_rate, &ro, &b) >= th);
	}
	/* Already reached: at_s. */
	double u_now = u_at(&a, a.at_s, office_rate, &ro, &b);
	CHECK(u_now > 0);
	CHECK(fr_waitacc_due(&a, u_now, office_rate, &ro, &b, DAY) == a.at_s);
}

/* ---- ratemodel ----------------------------------------------------------- */

static struct fr_rateparams
params(void)
{
	struct fr_rateparams rp = {
	    .tau_s = 60 * DAY,
	    .profile_tau_s = 60 * DAY,
	    .fast_tau_s = 2 * DAY,
	    .prior_s = 1 * DAY,
	    .prior_items = 8,
	    .change_z = 3,
	    .floor_rate = 1.0 / (30 * DAY),
	};
	return rp;
}

/* One simulated source fetched every hour. */
struct feed {
	struct fr_ratemodel m;
	double last_fetch;
	int changes;
};

/* Fetches hourly from f->last_fetch to until, handing over the items that
 * item(k) (ascending, +inf past the end) places in each window. */
static void
feed_run(struct feed *f, struct fr_ratepop *pop, const struct fr_rateparams *rp, double until,
         double (*item)(const void *arg, long k), const void *arg, long *next, int censor)
{
	double pub[64];

	while (f->last_fetch + HOUR <= until + 1e-9) {
		double now = f->last_fetch + HOUR;
		unsigned n = 0;
		for (double p = item(arg, *next); p <= now && n < 64; p = item(arg, *next)) {
			if (p > f->last_fetch)
				pub[n++] = censor ? NAN : p;
			(*next)++;
		}
		f->changes += fr_ratemodel_observe(&f->m, pop, rp, f->last_fetch, now, pub, n);
		f->last_fetch = now;
	}
}

struct periodic {
	double first, period, stop; /* items at first + k period while < stop */
};

static double
periodic_item(const void *arg, long k)
{
	const struct periodic *p = arg;
	double t = p->first + (double)k * p->period;
	return t < p->stop ? t : INFINITY;
}

static double
per_day(double r)
{
	return r * DAY;
}

/* Items every 6 h exactly: ~4/day after 30 days, within 10%. */
static void
ratemodel_constant_rate_converges(void)
{
	struct fr_rateparams rp = params();
	struct fr_ratepop pop;
	struct feed f = {.last_fetch = T0};
	struct periodic src = {T0 + 1800, 6 * HOUR, INFINITY};
	long next = 0;

	fr_ratepop_init(&pop, T0, rp.tau_s);
	fr_ratemodel_init(&f.m, T0);
	feed_run(&f, &pop, &rp, T0 + 30 * DAY, periodic_item, &src, &next, 0);
	CHECK(next == 120);
	double r = per_day(fr_ratemodel_mean_rate(&f.m, &pop, &rp));
	CHECK_NEAR(r, 4, 0.4);
	/* No change declared for a steady source. */
	CHECK(f.changes == 0);
	/* The snapshot's overall rate is the mean rate; its hourly rates
	 * average to about it over a week (the profile and weekday shares have
	 * mean 1). */
	struct fr_ratesnap snap;
	fr_ratemodel_snapshot(&f.m, &pop, &rp, 1, &snap);
	CHECK(per_day(snap.r) == r);
	int64_t h0 = (int64_t)((T0 + 30 * DAY) / HOUR);
	double sum = 0;
	for (int64_t h = h0; h < h0 + 168; h++)
		sum += fr_ratesnap_rate(&snap, h);
	CHECK_NEAR(per_day(sum / 168), r, 0.1 * r);
}

static void
week_clock_known_dates(void)
{
	int d, h;

	fr_week_clock(T0, &d, &h); /* 2012-10-01 00:00 Monday */
	CHECK(d == 0 && h == 0);
	fr_week_clock(T0 + 14 * HOUR + 59 * 60 + 59, &d, &h);
	CHECK(d == 0 && h == 14);
	fr_week_clock(T0 + 6 * DAY + 23 * HOUR + 1800, &d, &h); /* Sunday 23:30 */
	CHECK(d == 6 && h == 23);
	fr_week_clock(T0 + 7 * DAY, &d, &h); /* Monday again */
	CHECK(d == 0 && h == 0);
	fr_week_clock(1356998400.0 + 12 * HOUR, &d, &h); /* 2013-01-01 12:00, a Tuesday */
	CHECK(d == 1 && h == 12);
	fr_week_clock(0, &d, &h); /* 1970-01-01, a Thursday */
	CHECK(d == 3 && h == 0);
	fr_week_clock(-1, &d, &h); /* 1969-12-31 23:59:59, a Wednesday */
	CHECK(d == 2 && h == 23);
	fr_week_clock(951782400.0 + 5 * HOUR, &d, &h); /* 2000-02-29 05:00, a Tuesday */
	CHECK(d == 1 && h == 5);
}

/* The time (days) after a stop at day 30 at which the mean rate falls
 * below frac of its value at the stop (fetches continue hourly); 0 if not
 * within max_days. Sets *before_out and *changes_out. */
static double
days_to_fall(double fast_d, double change_z, double frac, double max_days, double *before_out,
             int *changes_out)
{
	struct fr_rateparams rp = params();
	struct fr_ratepop pop;
	struct feed f = {.last_fetch = T0};
	struct periodic src = {T0 + 1800, 6 * HOUR, T0 + 30 * DAY};
	long next = 0;
	double found = 0;

	rp.fast_tau_s = fast_d * DAY;
	rp.change_z = change_z;
	fr_ratepop_init(&pop, T0, rp.tau_s);
	fr_ratemodel_init(&f.m, T0);
	feed_run(&f, &pop, &rp, T0 + 30 * DAY, periodic_item, &src, &next, 0);
	double before = fr_ratemodel_mean_rate(&f.m, &pop, &rp);
	*before_out = before;
	for (int h = 1; h <= max_days * 24; h++) {
		feed_run(&f, &pop, &rp, T0 + 30 * DAY + h * HOUR, periodic_item, &src, &next, 0);
		if (fr_ratemodel_mean_rate(&f.m, &pop, &rp) < frac * before) {
			found = h / 24.0;
			break;
		}
	}
	*changes_out = f.changes;
	return found;
}

/* 4/day for 30 days, then nothing. With the header's fast clock of 2 days
 * the blend of the two clocks brings the rate below 25% within 10 days. With
 * a 7-day fast clock (freshet's default) the Poisson test declares the stop
 * (9 days on) and the rate falls sooner than with change_z = 100.
 *
 * (A stop used to go undetected with the 2-day clock: the count was rounded
 * to the nearest whole item, which reached 0 too late. It is now floored.) */
static void
ratemodel_stop_detected(void)
{
	double before, before100, b7, b7_100;
	int ch3, ch100, ch7, ch7_100;
	double d3 = days_to_fall(2, 3, 0.25, 30, &before, &ch3);
	double d100 = days_to_fall(2, 100, 0.25, 30, &before100, &ch100);

	CHECK_NEAR(per_day(before), 4, 0.4);
	CHECK(before100 == before);
	CHECK(d3 > 0 && d3 <= 10);
	CHECK(ch100 == 0);
	CHECK(ch3 >= 1 && (d100 == 0 || d100 > d3));

	double d7 = days_to_fall(7, 3, 0.25, 30, &b7, &ch7);
	double d7_100 = days_to_fall(7, 100, 0.25, 30, &b7_100, &ch7_100);
	/* With the 7-day clock the stop is declared; the level then follows
	 * the fast clock, which still holds the week before the stop, so it
	 * falls about as fast as the blend alone: within two weeks either way. */
	CHECK(ch7 >= 1 && ch7_100 == 0);
	CHECK(d7 > 0 && d7 <= 14);
	fprintf(stderr,
	        "  stop: below 25%% after %.2f d (fast 2 d, change_z 3, %d changes), %.2f d "
	        "(change_z 100); fast 7 d: %.2f d (%d changes), %.2f d (change_z 100)\n",
	        d3, ch3, d100, d7, ch7, d7_100);
}

/* Silent 30 days, then 4/day: above 2/day within 3 days of the start. */
static void
ratemodel_start_detected(void)
{
	struct fr_rateparams rp = params();
	struct fr_ratepop pop;
	struct feed f = {.last_fetch = T0};
	struct periodic src = {T0 + 30 * DAY + 1800, 6 * HOUR, INFINITY};
	long next = 0;

	fr_ratepop_init(&pop, T0, rp.tau_s);
	fr_ratemodel_init(&f.m, T0);
	feed_run(&f, &pop, &rp, T0 + 30 * DAY, periodic_item, &src, &next, 0);
	double quiet = per_day(fr_ratemodel_mean_rate(&f.m, &pop, &rp));
	CHECK(quiet < 0.5);
	CHECK(f.changes == 0);
	double found = 0;
	for (double day = 30 + 1.0 / 24; day <= 33 + 1e-9; day += 1.0 / 24) {
		feed_run(&f, &pop, &rp, T0 + day * DAY, periodic_item, &src, &next, 0);
		if (per_day(fr_ratemodel_mean_rate(&f.m, &pop, &rp)) > 2) {
			found = day - 30;
			break;
		}
	}
	/* Found by the blend of the clocks (or by the change test) within 3
	 * days. */
	CHECK(found > 0 && found <= 3);
	fprintf(stderr, "  start: quiet %.3f/day, above 2/day %.2f days after the start\n", quiet,
	        found);
}

/* Undated items count as much as dated ones, spread over their window. */
static void
ratemodel_censored_items_count_the_same(void)
{
	struct fr_rateparams rp = params();
	struct fr_ratepop pop_d, pop_c;
	struct feed dated = {.last_fetch = T0}, cens = {.last_fetch = T0};
	struct periodic src = {T0 + 1234, 5 * HOUR + 17, INFINITY};
	long nd = 0, nc = 0;

	fr_ratepop_init(&pop_d, T0, rp.tau_s);
	fr_ratepop_init(&pop_c, T0, rp.tau_s);
	fr_ratemodel_init(&dated.m, T0);
	fr_ratemodel_init(&cens.m, T0);
	feed_run(&dated, &pop_d, &rp, T0 + 20 * DAY, periodic_item, &src, &nd, 0);
	feed_run(&cens, &pop_c, &rp, T0 + 20 * DAY, periodic_item, &src, &nc, 1);
	CHECK(nd == nc && nd > 80);
	CHECK(rel_err(cens.m.count, dated.m.count) < 1e-5);
	CHECK(rel_err(cens.m.pcount, dated.m.pcount) < 1e-5);
	CHECK(rel_err(pop_c.items, pop_d.items) < 1e-9);
	double sum = 0;
	for (int h = 0; h < 24; h++)
		sum += cens.m.hour[h];
	CHECK(rel_err(sum, cens.m.pcount) < 1e-5);

	/* By hand: one undated item in (10:00, 13:00] gives 1/3 to each of hours
	 * 10, 11, 12; in (10:30, 12:00], 1/3 to hour 10 and 2/3 to hour 11. */
	struct fr_ratemodel m;
	struct fr_ratepop pop;
	double nan1[1] = {NAN};
	fr_ratepop_init(&pop, T0, rp.tau_s);
	fr_ratemodel_init(&m, T0 + 10 * HOUR);
	fr_ratemodel_observe(&m, &pop, &rp, T0 + 10 * HOUR, T0 + 13 * HOUR, nan1, 1);
	CHECK_NEAR(m.hour[10], 1.0 / 3, 1e-6);
	CHECK_NEAR(m.hour[11], 1.0 / 3, 1e-6);
	CHECK_NEAR(m.hour[12], 1.0 / 3, 1e-6);
	CHECK_NEAR(m.hour[9] + m.hour[13], 0, 0);
	CHECK_NEAR(m.day[0], 1, 1e-6); /* all on Monday */
	CHECK_NEAR(m.count, 1, 1e-6);
	fr_ratepop_init(&pop, T0, rp.tau_s);
	fr_ratemodel_init(&m, T0 + 10.5 * HOUR);
	fr_ratemodel_observe(&m, &pop, &rp, T0 + 10.5 * HOUR, T0 + 12 * HOUR, nan1, 1);
	CHECK_NEAR(m.hour[10], 1.0 / 3, 1e-6);
	CHECK_NEAR(m.hour[11], 2.0 / 3, 1e-6);
	CHECK_NEAR(pop.items, 1, 1e-12);
	CHECK_NEAR(pop.day[0], 1, 1e-12);
	/* A window longer than a week: spread over its last 7 days only, so
	 * 1/7 per weekday and 1/24 per hour of the day. */
	fr_ratepop_init(&pop, T0, rp.tau_s);
	fr_ratemodel_init(&m, T0);
	fr_ratemodel_observe(&m, &pop, &rp, T0, T0 + 10 * DAY, nan1, 1);
	CHECK_NEAR(m.count, 1, 1e-5);
	for (int d = 0; d < 7; d++)
		CHECK_NEAR(m.day[d], 1.0 / 7, 1e-5);
	for (int h = 0; h < 24; h++)
		CHECK_NEAR(m.hour[h], 1.0 / 24, 1e-5);
}

/* One item a day at 14:xx UTC: the profile peaks at hour 14. */
struct daily {
	double first;
	const double *minutes; /* offsets within the day, seconds; n per day */
	int n;
};

static double
daily_item(const void *arg, long k)
{
	const struct daily *d = arg;
	return d->first + (double)(k / d->n) * DAY + d->minutes[k % d->n];
}

static void
ratemodel_profile_peaks_at_publishing_hour(void)
{
	struct fr_rateparams rp = params();
	struct fr_ratepop pop;
	struct feed f = {.last_fetch = T0};
	const double at[] = {14 * HOUR + 600, 14 * HOUR + 2400};
	struct daily src = {T0, at, 2};
	long next = 0;
	double prof[24];

	rp.prior_items = 8;
	fr_ratepop_init(&pop, T0, rp.tau_s);
	fr_ratemodel_init(&f.m, T0);
	feed_run(&f, &pop, &rp, T0 + 20 * DAY, daily_item, &src, &next, 0);
	CHECK(next == 40);
	fr_ratemodel_profile(&f.m, &pop, &rp, prof);
	int best = 0;
	double sum = 0;
	for (int h = 0; h < 24; h++) {
		sum += prof[h];
		if (prof[h] > prof[best])
			best = h;
	}
	CHECK(best == 14);
	CHECK_NEAR(sum / 24, 1, 1e-6); /* mean 1 */
	/* By hand: 40 items (decayed by at most 20/60 days: pcount in
	 * [40 e^{-1/3}, 40]) against 8 pseudo-items spread evenly:
	 * 24 (hour14 + 8/24) / (pcount + 8) > 24 * 28.9 / 48 ~ 14.4. */
	CHECK(prof[14] > 14);
	for (int h = 0; h < 24; h++)
		if (h != 14)
			CHECK(prof[h] < 0.5);
}

/* The shared shape: items a day at these UTC hours (minutes apart). */
static const double shape_h[] = {7, 8, 9, 9, 10, 10, 10, 11, 12, 14, 16, 19};
#define SHAPE_N ((int)(sizeof(shape_h) / sizeof(shape_h[0])))

struct shaped {
	double first;
	double shift_h;
};

static double
shaped_item(const void *arg, long k)
{
	const struct shaped *s = arg;
	/* Not wrapped: an hour past 24 falls on the next day, so times ascend. */
	double hh = shape_h[k % SHAPE_N] + s->shift_h;
	/* Within the hour: spread by k so repeated hours differ. */
	return s->first + (double)(k / SHAPE_N) * DAY + hh * HOUR + 60.0 * (double)(k % SHAPE_N) +
	       30;
}

static void
ratemodel_time_shift_is_fitted(void)
{
	enum { NPOP = 8, POP_DAYS = 45 };
	struct fr_rateparams rp = params();
	struct fr_ratepop pop;
	struct feed f[NPOP];
	struct shaped s0 = {T0, 0};
	long next[NPOP];

	fr_ratepop_init(&pop, T0, rp.tau_s);
	/* The population: 8 sources on the unshifted shape, 45 days, 12 a day:
	 * 4320 items, past the 4096 that refresh the shared shape. */
	for (int i = 0; i < NPOP; i++) {
		f[i] = (struct feed){.last_fetch = T0};
		next[i] = 0;
		fr_ratemodel_init(&f[i].m, T0);
	}
	for (int day = 1; day <= POP_DAYS; day++)
		for (int i = 0; i < NPOP; i++)
			feed_run(&f[i], &pop, &rp, T0 + day * DAY, shaped_item, &s0, &next[i], 0);
	for (int i = 0; i < NPOP; i++)
		CHECK(f[i].m.shift == 0);
	/* The shared shape peaks at hour 10 (three items of twelve). */
	int peak = 0;
	for (int h = 0; h < 24; h++)
		if (pop.prior[FR_SHARP_ONE][h] > pop.prior[FR_SHARP_ONE][peak])
			peak = h;
	CHECK(peak == 10);

	/* The prior of the shift is learned from the sources' fits: all eight
	 * sit at shift 0 for 45 days each, against a starting prior of 50
	 * source-days with half on shift 0, so shift 0 has about (8 x 45 + 25)
	 * / (8 x 45 + 50) = 0.94 of it (decay aside). */
	double p0 = exp(pop.lp_shift[11]);
	CHECK(p0 > 0.9 && p0 < 0.97);
	for (int k = 0; k < 24; k++)
		CHECK(k == 11 || pop.lp_shift[k] < pop.lp_shift[11] - 4);
	/* A new source, before its first item, borrows that prior: its
	 * profile is the shape with weight p0, the rest flat (and a second
	 * shift's sliver), so its peak hour is lower than the shape's. */
	{
		struct fr_ratemodel n0;
		double none[1];
		fr_ratemodel_init(&n0, T0 + POP_DAYS * DAY);
		fr_ratemodel_observe(&n0, &pop, &rp, T0 + POP_DAYS * DAY, T0 + POP_DAYS * DAY + HOUR,
				     none, 0);
		CHECK_NEAR(n0.w1 / 255.0, p0, 0.01);
		CHECK(n0.w1 + n0.w2 <= 255);
		double prof[24];
		rp.prior_items = 1e6; /* the prior alone */
		fr_ratemodel_profile(&n0, &pop, &rp, prof);
		rp.prior_items = params().prior_items;
		double want = 24 * (p0 * pop.prior[FR_SHARP_ONE][10] + (1 - p0) / 24);
		CHECK_NEAR(prof[10], want, 0.03 * want + 24 * (n0.w2 / 255.0));
		CHECK(prof[10] < 24 * pop.prior[FR_SHARP_ONE][10]);
	}

	/* A source 5 hours ahead of the shape: shift 5 after a few days. */
	double start = T0 + POP_DAYS * DAY;
	struct shaped s5 = {start, 5};
	struct feed g = {.last_fetch = start};
	long ng = 0;
	fr_ratemodel_init(&g.m, start);
	feed_run(&g, &pop, &rp, start + 5 * DAY, shaped_item, &s5, &ng, 0);
	CHECK(g.m.shift == 5);
	/* 60 items leave no doubt: the posterior is all on shift 5. */
	CHECK(g.m.w1 >= 250);
	/* Its profile peaks at the shape's peak moved by 5 hours. */
	double prof[24];
	fr_ratemodel_profile(&g.m, &pop, &rp, prof);
	int best = 0;
	for (int h = 0; h < 24; h++)
		if (prof[h] > prof[best])
			best = h;
	CHECK(best == 15);
	/* And 7 hours behind: shift -7. */
	struct shaped sm7 = {start, -7};
	struct feed g2 = {.last_fetch = start};
	ng = 0;
	fr_ratemodel_init(&g2.m, start);
	feed_run(&g2, &pop, &rp, start + 5 * DAY, shaped_item, &sm7, &ng, 0);
	CHECK(g2.m.shift == -7);
}

/* The shares are items per hour watched: a population that publishes
 * evenly, watched from a Monday 00:00 to a Tuesday noon, has an even
 * weekday and hourly shape at the refresh, though Monday's and the early
 * hours' counts are twice the others' and Wednesday to Sunday have none. */
static void
ratemodel_shares_by_watched_time(void)
{
	enum { NSRC = 64 };
	struct fr_rateparams rp = params();
	struct fr_ratepop pop;
	static struct feed f[NSRC];
	long next[NSRC];

	fr_ratepop_init(&pop, T0, rp.tau_s);
	for (int i = 0; i < NSRC; i++) {
		f[i] = (struct feed){.last_fetch = T0};
		next[i] = 0;
		fr_ratemodel_init(&f[i].m, T0);
	}
	/* Every 30 min, each source at its own offset: 3072 items a day, so
	 * the shape is refreshed once, about 8 h into Tuesday. */
	struct periodic src[NSRC];
	for (int i = 0; i < NSRC; i++)
		src[i] = (struct periodic){T0 + 28.0 * i + 1, 1800, INFINITY};
	for (int hr = 1; hr <= 36; hr++)
		for (int i = 0; i < NSRC; i++)
			feed_run(&f[i], &pop, &rp, T0 + hr * HOUR, periodic_item, &src[i], &next[i], 0);
	CHECK(pop.day[0] > 1.5 * pop.day[1] && pop.day[2] == 0);
	CHECK(pop.aligned[3] > 1.5 * pop.aligned[20]);
	for (int d = 0; d < 7; d++)
		CHECK_NEAR(pop.dshare[d], 1.0 / 7, 0.01 / 7);
	for (int h = 0; h < 24; h++)
		CHECK_NEAR(pop.prior[FR_SHARP_ONE][h], 1.0 / 24, 0.05 / 24);
	/* A source's hourly rates over the coming Wednesday are as even (with
	 * freshet's shrinkage: its own counts, uneven too, weigh little). */
	rp.prior_items = 1000;
	struct fr_ratesnap snap;
	fr_ratemodel_snapshot(&f[0].m, &pop, &rp, 1, &snap);
	int64_t wed = (int64_t)((T0 + 2 * DAY) / HOUR);
	double lo = INFINITY, hi = 0;
	for (int64_t h = wed; h < wed + 24; h++) {
		double r = fr_ratesnap_rate(&snap, h);
		lo = r < lo ? r : lo;
		hi = r > hi ? r : hi;
	}
	CHECK(hi < 1.35 * lo);
	CHECK_NEAR(per_day(snap.r), 48, 8);
}

/* The snapshot's hourly rate is the level times the profile
 * (fr_ratemodel_profile, through prior_share) times the weekday share, for
 * every hour of a week, and the memo of exposures and decays
 * (fr_ratecache_new) changes no value: the snapshot keeps prior_share's
 * terms, so the two must agree (NOTE in ratemodel.c). */
static void
ratemodel_snapshot_agrees_with_profile(void)
{
	struct fr_rateparams rp = params(), rc = params();
	struct fr_ratepop pop, popc;
	struct feed f = {.last_fetch = T0}, g = {.last_fetch = T0};
	struct periodic src = {T0 + 9 * HOUR + 600, DAY / 3 + 1234, INFINITY};
	long next = 0, nextc = 0;

	fr_rateparams_prepare(&rp);
	fr_rateparams_prepare(&rc);
	rc.cache = fr_ratecache_new();
	CHECK(rc.cache != NULL);
	fr_ratepop_init(&pop, T0, rp.tau_s);
	fr_ratepop_init(&popc, T0, rc.tau_s);
	fr_ratemodel_init(&f.m, T0);
	fr_ratemodel_init(&g.m, T0);
	feed_run(&f, &pop, &rp, T0 + 20 * DAY, periodic_item, &src, &next, 0);
	feed_run(&g, &popc, &rc, T0 + 20 * DAY, periodic_item, &src, &nextc, 0);
	CHECK(memcmp(&f.m, &g.m, sizeof(f.m)) == 0);
	CHECK(fr_ratemodel_mean_rate(&f.m, &pop, &rp) == fr_ratemodel_mean_rate(&g.m, &popc, &rc));
	CHECK(f.m.w1 > 0 && f.m.w2 > 0); /* a mixture of two shifts */

	double prof[24];
	struct fr_ratesnap snap, snapc;
	fr_ratemodel_profile(&f.m, &pop, &rp, prof);
	fr_ratemodel_snapshot(&f.m, &pop, &rp, 0.9, &snap);
	fr_ratemodel_snapshot(&g.m, &popc, &rc, 0.9, &snapc);
	int64_t h0 = (int64_t)floor((T0 + 20 * DAY) / HOUR);
	for (int64_t k = 0; k < 168; k++) {
		int dow, hr;
		fr_week_clock((double)(h0 + k) * HOUR, &dow, &hr);
		double D = 7 * (f.m.day[dow] + rp.prior_items * pop.dshare[dow]) /
		           (f.m.pcount + rp.prior_items);
		double want = snap.r * prof[hr] * D * 0.9;
		if (want < rp.floor_rate)
			want = rp.floor_rate;
		double got = fr_ratesnap_rate(&snap, h0 + k);
		CHECK(fabs(got - want) <= 1e-12 * want);
		CHECK(got == fr_ratesnap_rate(&snapc, h0 + k));
	}
	free(rc.cache);
}

int
main(void)
{
	RUN(waitacc_constant_rate_closed_form);
	RUN(waitacc_due_inverts_constant_rate);
	RUN(waitacc_due_with_idle_hours);
	RUN(waitacc_due_horizon_cap);
	RUN(burst_u_matches_numeric_integral);
	RUN(waitacc_due_with_burst);
	RUN(ratemodel_constant_rate_converges);
	RUN(week_clock_known_dates);
	RUN(ratemodel_stop_detected);
	RUN(ratemodel_start_detected);
	RUN(ratemodel_censored_items_count_the_same);
	RUN(ratemodel_profile_peaks_at_publishing_hour);
	RUN(ratemodel_time_shift_is_fitted);
	RUN(ratemodel_shares_by_watched_time);
	RUN(ratemodel_snapshot_agrees_with_profile);
	return TEST_DONE();
}
