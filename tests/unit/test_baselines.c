/* test_baselines.c - the eight re-fetch rules of baselines.md, driven through
 * their policy ops with hand-made fetches and checked against the formulas
 * worked by hand in the comments; then each run end to end in the simulator,
 * and the registry (names resolve, unknown parameters are refused). */
#include "test.h"

#include "core/err.h"
#include "sched/params.h"
#include "sched/policy.h"
#include "sim/sim.h"
#include "sim/trace.h"

#include <stdint.h>
#include <stdlib.h>

#define MIN 60.0
#define HOUR 3600.0
#define DAY 86400.0

/* One source driven by hand through a policy's ops. */
struct drv {
	const struct fr_policy_ops *ops;
	void *ctx;
	double weight[1];
	uint32_t group[1];
	struct fr_policy_env env;
	union {
		double d;
		uint64_t u;
		unsigned char b[256];
	} st;
};

/* Creates spec's policy for one source (id s) starting at start; 0 or -1. */
static int
drv_open(struct drv *d, const char *spec, uint32_t s, double start, uint64_t seed)
{
	struct fr_params p;
	char err[FR_ERRLEN];

	memset(d, 0, sizeof(*d));
	d->weight[0] = 1;
	d->env.n_sources = s + 1;
	d->env.weight = d->weight;
	d->env.group = d->group;
	d->env.start_s = start;
	d->env.calls_per_s = 1;
	d->env.seed = seed;
	if (fr_params_parse(&p, spec, err, sizeof(err)) < 0 || !(d->ops = fr_policy_find(p.name)))
		return -1;
	if (d->ops->create(&d->ctx, &p, &d->env, err, sizeof(err)) < 0 ||
	    fr_params_check_used(&p, err, sizeof(err)) < 0) {
		fprintf(stderr, "%s: %s\n", spec, err);
		return -1;
	}
	if (d->ops->state_size(d->ctx) > sizeof(d->st))
		return -1;
	d->ops->init(d->ctx, d->st.b, s, start);
	return 0;
}

static void
drv_close(struct drv *d)
{
	if (d->ops && d->ops->destroy)
		d->ops->destroy(d->ctx);
}

static double
due(struct drv *d, double now)
{
	return d->ops->due(d->ctx, d->st.b, now, 0);
}

/* A fetch at now with n items published at pub[]; returns the next due time. */
static double
fetch(struct drv *d, double now, enum fr_fetch_status status, size_t n, const double *pub)
{
	struct fr_fetch f = {now, status, n, pub, NULL};
	d->ops->fetched(d->ctx, d->st.b, &f);
	return due(d, now);
}

/* A successful fetch that found one new item published just before. */
static double
changed(struct drv *d, double now)
{
	double pub = now - 1;
	return fetch(d, now, FR_FETCH_OK, 1, &pub);
}

static double
unchanged(struct drv *d, double now)
{
	return fetch(d, now, FR_FETCH_OK, 0, NULL);
}

static double
failed(struct drv *d, double now)
{
	return fetch(d, now, FR_FETCH_ERROR, 0, NULL);
}

/* Nutch: interval *= 0.8 when changed, *= 1.4 when not; the first fetch has
 * nothing to compare with ("unknown": interval kept). */
static void
nutch_interval_steps(void)
{
	struct drv d;
	double t = 0;

	/* Without sync_delta: 30 d -> 24 d -> 19.2 d -> 26.88 d. */
	CHECK(drv_open(&d, "nutch-adaptive:sync_delta=0", 0, 0, 1) == 0);
	CHECK_NEAR(due(&d, 0), 0, 0); /* the first fetch is at once */
	t = unchanged(&d, 0);
	CHECK_NEAR(t, 30 * DAY, 1e-6);
	CHECK_NEAR(changed(&d, t) - t, 24 * DAY, 1e-6);
	t += 24 * DAY;
	CHECK_NEAR(changed(&d, t) - t, 19.2 * DAY, 1e-6);
	t += 19.2 * DAY;
	/* A 304 is unchanged: 19.2 * 1.4 = 26.88. */
	CHECK_NEAR(fetch(&d, t, FR_FETCH_NOT_MODIFIED, 0, NULL) - t, 26.88 * DAY, 1e-6);
	drv_close(&d);

	/* With sync_delta (the default) the same fetches: a change sets the
	 * modified time to the fetch (delta 0, no shift), so 0 -> 30 -> 54 ->
	 * 73.2 d; then unchanged at 73.2 d: interval 26.88 d, delta = 73.2 - 54 =
	 * 19.2 d (< 26.88, kept), ref = 73.2 - 0.3 * 19.2 = 67.44 d, next =
	 * 67.44 + 26.88 = 94.32 d. */
	CHECK(drv_open(&d, "nutch-adaptive", 0, 0, 1) == 0);
	CHECK_NEAR(unchanged(&d, 0), 30 * DAY, 1e-6);
	CHECK_NEAR(changed(&d, 30 * DAY), 54 * DAY, 1e-6);
	CHECK_NEAR(changed(&d, 54 * DAY), 73.2 * DAY, 1e-6);
	CHECK_NEAR(unchanged(&d, 73.2 * DAY), 94.32 * DAY, 1e-6);
	drv_close(&d);

	/* delta > interval: 1 d, fetched late at 10 d unchanged: 1.4 d < delta
	 * 10 d, so interval = 10 d; ref = 10 - 3 = 7 d; next 17 d. */
	CHECK(drv_open(&d, "nutch-adaptive:interval=86400", 0, 0, 1) == 0);
	CHECK_NEAR(unchanged(&d, 0), 1 * DAY, 1e-6);
	CHECK_NEAR(unchanged(&d, 10 * DAY), 17 * DAY, 1e-6);
	drv_close(&d);

	/* The shift is at most max_interval: 5 d, max 10 d, unchanged at 100 d:
	 * interval = delta = 100 d, ref = 100 - min(30, 10) = 90 d, interval
	 * clamped to 10 d: next = 100 d (in floating point, not dropped). */
	CHECK(drv_open(&d, "nutch-adaptive:interval=432000:max_interval=864000", 0, 0, 1) == 0);
	CHECK_NEAR(unchanged(&d, 0), 5 * DAY, 1e-6);
	CHECK_NEAR(unchanged(&d, 100 * DAY), 100 * DAY, 1e-6);
	drv_close(&d);
}

static void
nutch_clamps_and_errors(void)
{
	struct drv d;

	/* 100 s -> 80 -> 64 -> 51.2, clamped to 60. */
	CHECK(drv_open(&d, "nutch-adaptive:interval=100:sync_delta=0", 0, 0, 1) == 0);
	CHECK_NEAR(unchanged(&d, 0), 100, 1e-9);
	CHECK_NEAR(changed(&d, 100), 180, 1e-9);
	CHECK_NEAR(changed(&d, 180), 244, 1e-9);
	CHECK_NEAR(changed(&d, 244), 304, 1e-9);
	drv_close(&d);

	/* 25e6 s unchanged: 35e6, clamped to 365 d = 31536000. */
	CHECK(drv_open(&d, "nutch-adaptive:interval=25000000:sync_delta=0", 0, 0, 1) == 0);
	CHECK_NEAR(unchanged(&d, 0), 25e6, 1e-6);
	CHECK_NEAR(unchanged(&d, 25e6), 25e6 + 31536000, 1e-6);
	drv_close(&d);

	/* Errors: three retries a day apart, then "gone": 30 d * 1.5 = 45 d,
	 * then 67.5 d; a success resets the retries. */
	CHECK(drv_open(&d, "nutch-adaptive:sync_delta=0", 0, 0, 1) == 0);
	double t = unchanged(&d, 0);
	for (int i = 0; i < 3; i++) {
		CHECK_NEAR(failed(&d, t) - t, DAY, 1e-6);
		t += DAY;
	}
	CHECK_NEAR(failed(&d, t) - t, 45 * DAY, 1e-6);
	t += 45 * DAY;
	CHECK_NEAR(failed(&d, t) - t, 67.5 * DAY, 1e-6);
	t += 67.5 * DAY;
	CHECK_NEAR(changed(&d, t) - t, 67.5 * 0.8 * DAY, 1e-6);
	t += 54 * DAY;
	CHECK_NEAR(failed(&d, t) - t, DAY, 1e-6);
	drv_close(&d);

	/* Gone near the max: 3e7 * 1.5 >= 31536000, so 0.9 * 31536000. */
	CHECK(drv_open(&d, "nutch-adaptive:interval=30000000:retry_max=0", 0, 0, 1) == 0);
	CHECK_NEAR(failed(&d, 0), 0.9 * 31536000, 1e-6);
	drv_close(&d);
}

/* StormCrawler: first fetch DefaultScheduler 1440 min; changed: 0.5 i + 30;
 * unchanged: 1.5 i, at most 20160; whole minutes. */
static void
stormcrawler_steps(void)
{
	struct drv d;
	double t;

	CHECK(drv_open(&d, "stormcrawler-adaptive", 0, 0, 1) == 0);
	CHECK_NEAR(due(&d, 0), 0, 0);
	t = changed(&d, 0);
	CHECK_NEAR(t, 1440 * MIN, 1e-9);
	CHECK_NEAR(changed(&d, t) - t, 750 * MIN, 1e-9); /* 0.5 * 1440 + 30 */
	t += 750 * MIN;
	CHECK_NEAR(unchanged(&d, t) - t, 1125 * MIN, 1e-9); /* 750 * 1.5 */
	t += 1125 * MIN;
	CHECK_NEAR(changed(&d, t) - t, 592 * MIN, 1e-9); /* (int)592.5 */
	t += 592 * MIN;
	/* 592 -> 888 -> 1332 -> 1998 -> 2997 -> 4495 -> 6742 -> 10113 -> 15169
	 * -> 20160 (22753 capped). */
	const double up[] = {888, 1332, 1998, 2997, 4495, 6742, 10113, 15169, 20160, 20160};
	for (size_t i = 0; i < sizeof(up) / sizeof(up[0]); i++) {
		CHECK_NEAR(unchanged(&d, t) - t, up[i] * MIN, 1e-9);
		t += up[i] * MIN;
	}
	/* Converges to the 60 min minimum from above. */
	for (int i = 0; i < 40; i++)
		t = changed(&d, t);
	CHECK_NEAR(changed(&d, t) - t, 60 * MIN, 1e-9);
	/* Error: 120 min, and the learned interval is dropped: the next fetch
	 * has nothing to compare with (1440), the one after adapts from 1440. */
	CHECK_NEAR(failed(&d, t) - t, 120 * MIN, 1e-9);
	CHECK_NEAR(changed(&d, t) - t, 1440 * MIN, 1e-9);
	CHECK_NEAR(changed(&d, t) - t, 750 * MIN, 1e-9);
	drv_close(&d);
}

/* Heritrix: 1 d first; changed / 1.5, unchanged * 1.5; [1 h, 28 d]. */
static void
heritrix_steps(void)
{
	struct drv d;
	double t;

	CHECK(drv_open(&d, "heritrix-wait", 0, 0, 1) == 0);
	CHECK_NEAR(due(&d, 0), 0, 0);
	t = changed(&d, 0);
	CHECK_NEAR(t, DAY, 1e-9);
	CHECK_NEAR(changed(&d, t) - t, 57600, 1e-6); /* 86400 / 1.5 */
	t += 57600;
	CHECK_NEAR(unchanged(&d, t) - t, 86400, 1e-6);
	t += 86400;
	/* 86400 / 1.5^k: ..., 5056.8, 3371.2 -> 3600 (1 h). */
	for (int i = 0; i < 7; i++)
		t = changed(&d, t);
	CHECK_NEAR(changed(&d, t) - t, 3600, 1e-6);
	/* Error: the wait is left as it is. */
	CHECK_NEAR(failed(&d, t) - t, 3600, 1e-6);
	/* 3600 * 1.5^k reaches 28 d = 2419200 after 17 steps and stays. */
	for (int i = 0; i < 17; i++)
		t = unchanged(&d, t);
	CHECK_NEAR(unchanged(&d, t) - t, 2419200, 1e-6);
	drv_close(&d);
}

/* Miniflux: weekly = ceil(week / mean gap) over items of the last week;
 * interval = round(10080 / weekly) min in [5, 1440]; 1440 when weekly = 0. */
static void
miniflux_weekly_count(void)
{
	struct drv d;
	double t0 = 1e9;

	/* 5 items 6 h apart, fetched at the last: gap 6 h, weekly 28, 360 min. */
	CHECK(drv_open(&d, "miniflux-entry-frequency", 0, t0, 1) == 0);
	CHECK_NEAR(due(&d, t0), t0, 0);
	double five[] = {t0, t0 + 6 * HOUR, t0 + 12 * HOUR, t0 + 18 * HOUR, t0 + 24 * HOUR};
	double t = t0 + 24 * HOUR;
	CHECK_NEAR(fetch(&d, t, FR_FETCH_OK, 5, five) - t, 360 * MIN, 1e-6);
	/* Six days later the first is still within the week (18 h fetch-to-
	 * fetch is irrelevant): same count, same interval. */
	t = t0 + 6 * DAY;
	CHECK_NEAR(unchanged(&d, t) - t, 360 * MIN, 1e-6);
	/* At t0 + 7 d + 1 s the first has left the week: 4 items, gap 6 h,
	 * still 28 a week. At t0 + 8 d 1 h, all have left: 1440. */
	t = t0 + 7 * DAY + 1;
	CHECK_NEAR(unchanged(&d, t) - t, 360 * MIN, 1e-6);
	t = t0 + 8 * DAY + HOUR;
	CHECK_NEAR(unchanged(&d, t) - t, 1440 * MIN, 1e-6);
	drv_close(&d);

	/* Gaps 5 h and 4 h: mean 4.5 h, weekly ceil(37.33) = 38, 10080 / 38 =
	 * 265.26 -> 265 min. Undated items are ignored. */
	CHECK(drv_open(&d, "miniflux-entry-frequency", 0, t0, 1) == 0);
	double three[] = {t0, NAN, t0 + 5 * HOUR, t0 + 9 * HOUR, NAN};
	t = t0 + 10 * HOUR;
	CHECK_NEAR(fetch(&d, t, FR_FETCH_OK, 5, three) - t, 265 * MIN, 1e-6);
	drv_close(&d);

	/* One item, or two at the same instant: weekly 0, 1440 min. */
	CHECK(drv_open(&d, "miniflux-entry-frequency", 0, t0, 1) == 0);
	double same[] = {t0 + 10, t0 + 10};
	CHECK_NEAR(fetch(&d, t0 + 60, FR_FETCH_OK, 1, same) - (t0 + 60), 1440 * MIN, 1e-6);
	CHECK_NEAR(fetch(&d, t0 + 60, FR_FETCH_OK, 1, same + 1) - (t0 + 60), 1440 * MIN, 1e-6);
	drv_close(&d);

	/* Every 10 min: weekly 1008, 10 min; every minute: 10080 a week, 1 min,
	 * clamped to 5. 100 items: the ring keeps the 48 latest, same gap. */
	double pub[100];
	CHECK(drv_open(&d, "miniflux-entry-frequency", 0, t0, 1) == 0);
	for (int i = 0; i < 100; i++)
		pub[i] = t0 + i * 10 * MIN;
	t = pub[99];
	CHECK_NEAR(fetch(&d, t, FR_FETCH_OK, 100, pub) - t, 10 * MIN, 1e-6);
	for (int i = 0; i < 100; i++)
		pub[i] = t + (i + 1) * MIN;
	t = pub[99];
	CHECK_NEAR(fetch(&d, t, FR_FETCH_OK, 100, pub) - t, 5 * MIN, 1e-6);
	drv_close(&d);
}

static void
miniflux_drops_after_three_errors(void)
{
	struct drv d;

	CHECK(drv_open(&d, "miniflux-entry-frequency", 0, 0, 1) == 0);
	CHECK_NEAR(failed(&d, 0), 1440 * MIN, 1e-9);
	CHECK_NEAR(failed(&d, 100), 100 + 1440 * MIN, 1e-9);
	CHECK_NEAR(unchanged(&d, 200), 200 + 1440 * MIN, 1e-9); /* resets */
	failed(&d, 300);
	failed(&d, 400);
	CHECK(isinf(failed(&d, 500)));
	drv_close(&d);
	CHECK(drv_open(&d, "miniflux-entry-frequency:error_limit=0", 0, 0, 1) == 0);
	for (int i = 0; i < 10; i++)
		failed(&d, i);
	CHECK_NEAR(failed(&d, 10), 10 + 1440 * MIN, 1e-9);
	drv_close(&d);
}

/* NewsBlur's next update after a fetch at now, in minutes, and whether it
 * lies in [total, 1.25 total] (the jitter). */
static int
newsblur_in(struct drv *d, double now, size_t n, const double *pub, double total)
{
	double m = (fetch(d, now, FR_FETCH_OK, n, pub) - now) / MIN;
	int ok = m >= total - 1e-6 && m <= 1.25 * total + 1e-6;
	if (!ok)
		fprintf(stderr, "newsblur: %.3f min not in [%g, %g]\n", m, total, 1.25 * total);
	return ok;
}

static void
newsblur_tiers(void)
{
	struct drv d;
	double pub[40], t0 = 1e9, now = t0 + 30 * DAY;

	for (int i = 0; i < 40; i++)
		pub[i] = now - (i + 0.5) * 12 * HOUR; /* newest first, 12 h apart */

	/* subs = 1 (the default). No item: spd 0 -> 720, capped at 240. */
	CHECK(drv_open(&d, "newsblur", 0, t0, 1) == 0);
	CHECK_NEAR(due(&d, t0), t0, 0);
	CHECK(newsblur_in(&d, t0, 0, NULL, 240));
	drv_close(&d);
	/* 3 items in 30 days: spd 0.1 -> 360 - 36 = 324, capped at 240. */
	CHECK(drv_open(&d, "newsblur", 0, t0, 1) == 0);
	CHECK(newsblur_in(&d, now, 3, pub, 240));
	drv_close(&d);
	/* 15 items: spd 0.5 -> 360 - 180 = 180. */
	CHECK(drv_open(&d, "newsblur", 0, t0, 1) == 0);
	CHECK(newsblur_in(&d, now, 15, pub, 180));
	drv_close(&d);
	/* 29 items: spd 29/30 -> 360 - 348 = 12. */
	CHECK(drv_open(&d, "newsblur", 0, t0, 1) == 0);
	CHECK(newsblur_in(&d, now, 29, pub, 12));
	drv_close(&d);
	/* 40 items over 20 days (the ring keeps 32, enough): spd >= 1 -> 45. */
	CHECK(drv_open(&d, "newsblur", 0, t0, 1) == 0);
	CHECK(newsblur_in(&d, now, 40, pub, 45));
	/* 40 days later none is within 30 days: spd 0 -> 720, capped at 240. */
	CHECK(newsblur_in(&d, now + 40 * DAY, 0, NULL, 240));
	drv_close(&d);

	/* subs = 5: 15 (spd >= 1), 60 - 30 = 30 (spd 0.5), 360 -> 240 (spd 0). */
	CHECK(drv_open(&d, "newsblur:subs=5", 0, t0, 1) == 0);
	CHECK(newsblur_in(&d, now, 40, pub, 15));
	drv_close(&d);
	CHECK(drv_open(&d, "newsblur:subs=5", 0, t0, 1) == 0);
	CHECK(newsblur_in(&d, now, 15, pub, 30));
	CHECK(newsblur_in(&d, now + 60 * DAY, 0, NULL, 240));
	drv_close(&d);
	/* subs >= 10 and spd >= 1: 6. */
	CHECK(drv_open(&d, "newsblur:subs=10", 0, t0, 1) == 0);
	CHECK(newsblur_in(&d, now, 40, pub, 6));
	drv_close(&d);

	/* subs = 0: spd 0 -> 1440 * max(1, months since the last item), cap
	 * 2880. Last item (pub[0]) 6 h before now: 45 days later, 45.25 / 30 =
	 * 1.5083 months -> 2172; 75 days later -> 3610 -> 2880; with no item at
	 * all, 1 month -> 1440. */
	CHECK(drv_open(&d, "newsblur:subs=0", 0, t0, 1) == 0);
	CHECK(newsblur_in(&d, t0, 0, NULL, 1440));
	CHECK(newsblur_in(&d, now, 1, pub, 360 - 360.0 / 30)); /* spd 1/30, subs <= 1 */
	CHECK(newsblur_in(&d, now + 45 * DAY, 0, NULL, 1440 * (45.25 / 30)));
	CHECK(newsblur_in(&d, now + 75 * DAY, 0, NULL, 2880));
	drv_close(&d);
}

/* The first 10 delays (minutes) of spec for source s under seed. */
static void
first_draws(const char *spec, uint32_t s, uint64_t seed, double out[10])
{
	struct drv d;

	CHECK(drv_open(&d, spec, s, 0, seed) == 0);
	for (int i = 0; i < 10; i++)
		out[i] = unchanged(&d, 0) / MIN;
	drv_close(&d);
}

static void
newsblur_errors_and_jitter(void)
{
	struct drv d, e;
	double t0 = 0;

	/* Errors multiply: 240 * 2 = 480; 100 errors: 24000 -> 7 days. */
	CHECK(drv_open(&d, "newsblur", 0, t0, 1) == 0);
	double m = (failed(&d, 0) - 0) / MIN;
	CHECK(m >= 240 && m <= 300);
	m = failed(&d, 0) / MIN;
	CHECK(m >= 480 && m <= 600);
	for (int i = 0; i < 98; i++)
		failed(&d, 0);
	m = failed(&d, 0) / MIN;
	CHECK(m >= 10080 && m <= 12600);
	m = unchanged(&d, 0) / MIN; /* a success clears them */
	CHECK(m >= 240 && m <= 300);
	drv_close(&d);

	/* Jitter: uniform over [240, 300]: over 4000 draws the extremes come
	 * near both ends and the mean near 270. The same seed and source give
	 * the same draws; another source gives others. */
	CHECK(drv_open(&d, "newsblur", 7, t0, 42) == 0);
	CHECK(drv_open(&e, "newsblur", 7, t0, 42) == 0);
	double lo = 1e9, hi = 0, sum = 0;
	int same = 1;
	for (int i = 0; i < 4000; i++) {
		double a = unchanged(&d, 0) / MIN, b = unchanged(&e, 0) / MIN;
		same &= a == b;
		lo = fmin(lo, a);
		hi = fmax(hi, a);
		sum += a;
	}
	CHECK(same);
	CHECK(lo >= 240 && lo < 241);
	CHECK(hi <= 300 && hi > 299);
	CHECK_NEAR(sum / 4000, 270, 1.5);
	drv_close(&e);
	drv_close(&d);
	/* Another source, or another seed, draws differently. */
	double base[10], other[10];
	first_draws("newsblur", 7, 42, base);
	first_draws("newsblur", 8, 42, other);
	CHECK(memcmp(base, other, sizeof(base)) != 0);
	first_draws("newsblur", 7, 43, other);
	CHECK(memcmp(base, other, sizeof(base)) != 0);
	first_draws("newsblur", 7, 42, other);
	CHECK(memcmp(base, other, sizeof(base)) == 0);
}

static void
ttrss_fixed(void)
{
	struct drv d;

	CHECK(drv_open(&d, "ttrss-fixed", 0, 0, 1) == 0);
	CHECK_NEAR(due(&d, 0), 0, 0);
	CHECK_NEAR(changed(&d, 0), 30 * MIN, 0);
	CHECK_NEAR(unchanged(&d, 100), 100 + 30 * MIN, 0);
	CHECK_NEAR(fetch(&d, 200, FR_FETCH_NOT_MODIFIED, 0, NULL), 200 + 30 * MIN, 0);
	CHECK_NEAR(failed(&d, 300), 300 + 30 * MIN, 0);
	/* Failing for 30 days since the last success (200): disabled. */
	CHECK_NEAR(failed(&d, 200 + 30 * DAY - 1), 200 + 30 * DAY - 1 + 30 * MIN, 0);
	CHECK(isinf(failed(&d, 200 + 30 * DAY)));
	drv_close(&d);
	CHECK(drv_open(&d, "ttrss-fixed:interval=15:unsuccessful_days=0", 0, 0, 1) == 0);
	CHECK_NEAR(failed(&d, 1000 * DAY), 1000 * DAY + 15 * MIN, 0);
	drv_close(&d);
}

/* Media Cloud: 360 start; nothing new: +10 (+60 after 31 idle days), at most
 * 1440; something new: back to 360 if above, else -60, at least 10. */
static void
mediacloud_overlap(void)
{
	struct drv d;
	double t = 0;

	CHECK(drv_open(&d, "mediacloud-overlap", 0, 0, 1) == 0);
	CHECK_NEAR(due(&d, 0), 0, 0);
	/* The first success adjusts nothing (rss-fetcher needs two in a row). */
	CHECK_NEAR(changed(&d, 0), 360 * MIN, 1e-9);
	t = 360 * MIN;
	CHECK_NEAR(unchanged(&d, t) - t, 370 * MIN, 1e-9);
	t += 370 * MIN;
	CHECK_NEAR(unchanged(&d, t) - t, 380 * MIN, 1e-9);
	t += 380 * MIN;
	CHECK_NEAR(changed(&d, t) - t, 360 * MIN, 1e-9); /* back to 360 */
	t += 360 * MIN;
	const double down[] = {300, 240, 180, 120, 60, 10, 10};
	for (size_t i = 0; i < sizeof(down) / sizeof(down[0]); i++) {
		CHECK_NEAR(changed(&d, t) - t, down[i] * MIN, 1e-9);
		t += down[i] * MIN;
	}
	/* Idle: the last new items were found at t0 = t - 10 min. 31.9 days
	 * later (31 whole days): +10; 32 days later: +60. */
	double t0 = t - 10 * MIN;
	CHECK_NEAR(unchanged(&d, t0 + 31.9 * DAY) - (t0 + 31.9 * DAY), 20 * MIN, 1e-9);
	CHECK_NEAR(unchanged(&d, t0 + 32 * DAY) - (t0 + 32 * DAY), 80 * MIN, 1e-9);
	t = t0 + 33 * DAY;
	for (int i = 0; i < 30; i++)
		t = unchanged(&d, t);
	CHECK_NEAR(unchanged(&d, t) - t, 1440 * MIN, 1e-9); /* capped */
	drv_close(&d);

	/* Errors: the period times the consecutive failures, at most 1 day. */
	CHECK(drv_open(&d, "mediacloud-overlap", 0, 0, 1) == 0);
	changed(&d, 0);
	CHECK_NEAR(failed(&d, 0), 360 * MIN, 1e-9);
	CHECK_NEAR(failed(&d, 0), 720 * MIN, 1e-9);
	CHECK_NEAR(failed(&d, 0), 1080 * MIN, 1e-9);
	CHECK_NEAR(failed(&d, 0), 1440 * MIN, 1e-9);
	CHECK_NEAR(failed(&d, 0), 1440 * MIN, 1e-9);
	/* A success clears them, and adjusts: something new, 360 -> 300. */
	CHECK_NEAR(changed(&d, 0), 300 * MIN, 1e-9);
	CHECK_NEAR(failed(&d, 0), 300 * MIN, 1e-9);
	drv_close(&d);
}

/* CommaFeed: mean gap / 2 in [5 min, 1 h]; stale 7/14/30 days: 1/2/4 h;
 * nothing known: 4 h; errors after 3: 1 h * (errors - 2); bounds [5 min,
 * 4 h]. */
static void
commafeed_steps(void)
{
	struct drv d;
	double t0 = 1e9, t;

	CHECK(drv_open(&d, "commafeed", 0, t0, 1) == 0);
	CHECK_NEAR(due(&d, t0), t0, 0);
	CHECK_NEAR(unchanged(&d, t0) - t0, 240 * MIN, 1e-6); /* no item */
	double one = t0 + 10;
	t = t0 + 60;
	CHECK_NEAR(fetch(&d, t, FR_FETCH_OK, 1, &one) - t, 240 * MIN, 1e-6); /* no gap yet */
	/* Items at +10 s, +30 min 10 s, +60 min 10 s: gap 30 min -> 15 min. */
	double two[] = {t0 + 10 + 30 * MIN, t0 + 10 + 60 * MIN};
	t = t0 + 61 * MIN;
	CHECK_NEAR(fetch(&d, t, FR_FETCH_OK, 2, two) - t, 15 * MIN, 1e-6);
	/* Ages of the last item (t0 + 60 min 10 s): 6.9 d keeps the gap; 7 d:
	 * 1 h; 14 d: 2 h; 30 d: 4 h. */
	double last = t0 + 10 + 60 * MIN;
	t = last + 6.9 * DAY;
	CHECK_NEAR(unchanged(&d, t) - t, 15 * MIN, 1e-6);
	t = last + 7 * DAY;
	CHECK_NEAR(unchanged(&d, t) - t, 60 * MIN, 1e-6);
	t = last + 14 * DAY - 1;
	CHECK_NEAR(unchanged(&d, t) - t, 60 * MIN, 1e-6);
	t = last + 14 * DAY;
	CHECK_NEAR(unchanged(&d, t) - t, 120 * MIN, 1e-6);
	t = last + 30 * DAY;
	CHECK_NEAR(unchanged(&d, t) - t, 240 * MIN, 1e-6);
	drv_close(&d);

	/* Gaps of 4 min -> 2 min -> 5 min; of 3 h -> 90 min -> 1 h. The 20
	 * latest items are the document: 20 an hour apart then 20 ten minutes
	 * apart give 5 min. */
	double pub[40];
	CHECK(drv_open(&d, "commafeed", 0, t0, 1) == 0);
	for (int i = 0; i < 3; i++)
		pub[i] = t0 + i * 4 * MIN;
	t = pub[2];
	CHECK_NEAR(fetch(&d, t, FR_FETCH_OK, 3, pub) - t, 5 * MIN, 1e-6);
	drv_close(&d);
	CHECK(drv_open(&d, "commafeed", 0, t0, 1) == 0);
	for (int i = 0; i < 3; i++)
		pub[i] = t0 + i * 3 * HOUR;
	t = pub[2];
	CHECK_NEAR(fetch(&d, t, FR_FETCH_OK, 3, pub) - t, 60 * MIN, 1e-6);
	for (int i = 0; i < 40; i++)
		pub[i] = t + (i < 20 ? (i + 1) * HOUR : 20 * HOUR + (i - 19) * 10 * MIN);
	t = pub[39];
	CHECK_NEAR(fetch(&d, t, FR_FETCH_OK, 40, pub) - t, 5 * MIN, 1e-6);
	/* Errors: 5, 5, then 60, 120, 180, 240, 240 min. */
	const double err_min[] = {5, 5, 60, 120, 180, 240, 240};
	for (size_t i = 0; i < sizeof(err_min) / sizeof(err_min[0]); i++)
		CHECK_NEAR(failed(&d, t) - t, err_min[i] * MIN, 1e-6);
	/* A success clears them; a further error is the first again. */
	CHECK_NEAR(unchanged(&d, t) - t, 5 * MIN, 1e-6);
	CHECK_NEAR(failed(&d, t) - t, 5 * MIN, 1e-6);
	drv_close(&d);
}

static const char *const baseline_names[] = {
	"nutch-adaptive",    "stormcrawler-adaptive", "heritrix-wait", "miniflux-entry-frequency",
	"newsblur",          "ttrss-fixed",           "mediacloud-overlap", "commafeed",
};
#define N_BASELINES (sizeof(baseline_names) / sizeof(baseline_names[0]))

static void
registry_and_parameters(void)
{
	const char *src[] = {"a"};
	double t[] = {1};
	struct fr_trace tr;
	struct fr_metrics m;
	char err[FR_ERRLEN], spec[96];
	struct fr_sim_config c = {0};

	c.start_s = 0;
	c.end_s = 100;
	c.calls = 1;
	c.window_s = 10;
	c.mode = FR_RL_PACED;
	c.seed = 1;
	CHECK(fr_trace_from_rows(&tr, 1, src, t, NULL, err, sizeof(err)) == 0);
	for (size_t i = 0; i < N_BASELINES; i++) {
		const struct fr_policy_ops *ops = fr_policy_find(baseline_names[i]);
		CHECK(ops != NULL);
		if (!ops)
			continue;
		CHECK_STR(ops->name, baseline_names[i]);
		CHECK(ops->kind == FR_POLICY_INTERVAL);
		CHECK(ops->urgency == NULL && ops->due && ops->fetched && ops->help);
		struct drv d;
		CHECK(drv_open(&d, baseline_names[i], 0, 0, 1) == 0);
		CHECK(d.ops->state_size(d.ctx) < 256);
		drv_close(&d);
		snprintf(spec, sizeof(spec), "%s:no_such_key=1", baseline_names[i]);
		CHECK(fr_sim_run(&tr, spec, &c, &m, NULL, err, sizeof(err)) < 0);
		CHECK(strstr(err, "no_such_key") != NULL);
	}
	/* Parameters are range-checked. */
	CHECK(fr_sim_run(&tr, "nutch-adaptive:dec_rate=1.5", &c, &m, NULL, err, sizeof(err)) < 0);
	CHECK(fr_sim_run(&tr, "newsblur:subs=-1", &c, &m, NULL, err, sizeof(err)) < 0);
	CHECK(fr_sim_run(&tr, "commafeed:interval=300", &c, &m, NULL, err, sizeof(err)) < 0);
	fr_trace_free(&tr);
}

/* A trace of "fast" (every 10 min) and/or "slow" (daily) over [0, days). */
static int
two_sources(struct fr_trace *tr, double days, int fast, int slow)
{
	size_t nf = fast ? (size_t)(days * 144) : 0, ns = slow ? (size_t)days : 0, n = 0;
	const char **src = malloc((nf + ns) * sizeof(*src));
	double *t = malloc((nf + ns) * sizeof(*t));
	char err[FR_ERRLEN];
	int rc = -1;

	if (src && t) {
		for (size_t i = 0; i < nf; i++, n++) {
			src[n] = "fast";
			t[n] = 300 + i * 600.0;
		}
		for (size_t i = 0; i < ns; i++, n++) {
			src[n] = "slow";
			t[n] = 43200 + i * DAY;
		}
		rc = fr_trace_from_rows(tr, n, src, t, NULL, err, sizeof(err));
	}
	free(src);
	free(t);
	return rc;
}

/* Each policy over 200 days (Nutch starts at 30 days and needs months to
 * tell a daily source from a busier one), paced at one call a minute. */
static void
end_to_end(void)
{
	const double days = 200;
	struct fr_trace both, fast, slow;
	struct fr_sim_config c = {0};
	char err[FR_ERRLEN];

	c.start_s = 0;
	c.end_s = days * DAY;
	c.calls = 1;
	c.window_s = 60;
	c.mode = FR_RL_PACED;
	c.seed = 3;
	CHECK(two_sources(&both, days, 1, 1) == 0);
	CHECK(two_sources(&fast, days, 1, 0) == 0);
	CHECK(two_sources(&slow, days, 0, 1) == 0);
	for (size_t i = 0; i < N_BASELINES; i++) {
		struct fr_metrics m, mf, ms;
		const char *name = baseline_names[i];
		int ok = fr_sim_run(&both, name, &c, &m, NULL, err, sizeof(err)) == 0;
		CHECK(ok);
		if (!ok) {
			fprintf(stderr, "%s: %s\n", name, err);
			continue;
		}
		/* Both sources were fetched, within the budget. */
		CHECK(m.requests >= 2);
		CHECK(m.requests <= (uint64_t)(days * DAY / 60) + 1);
		CHECK(m.fetched > 0 && m.coverage > 0);
		fr_metrics_free(&m);
		CHECK(fr_sim_run(&fast, name, &c, &mf, NULL, err, sizeof(err)) == 0);
		CHECK(fr_sim_run(&slow, name, &c, &ms, NULL, err, sizeof(err)) == 0);
		fprintf(stderr, "  %-26s requests: fast %6llu  daily %5llu\n", name,
			(unsigned long long)mf.requests, (unsigned long long)ms.requests);
		if (!strcmp(name, "ttrss-fixed"))
			CHECK(mf.requests == ms.requests); /* fixed: blind to the rate */
		else
			CHECK(mf.requests > ms.requests);
		fr_metrics_free(&mf);
		fr_metrics_free(&ms);
	}
	fr_trace_free(&both);
	fr_trace_free(&fast);
	fr_trace_free(&slow);
}

int
main(void)
{
	RUN(nutch_interval_steps);
	RUN(nutch_clamps_and_errors);
	RUN(stormcrawler_steps);
	RUN(heritrix_steps);
	RUN(miniflux_weekly_count);
	RUN(miniflux_drops_after_three_errors);
	RUN(newsblur_tiers);
	RUN(newsblur_errors_and_jitter);
	RUN(ttrss_fixed);
	RUN(mediacloud_overlap);
	RUN(commafeed_steps);
	RUN(registry_and_parameters);
	RUN(end_to_end);
	return TEST_DONE();
}
