/* test_hold.c - the holds a fetch's outcome puts on its source and its
 * host (lib/sched/hold.h), each rule with its figures: the error backoff
 * doubling to its cap with its jitter, a 429/503's pause (Retry-After
 * honoured, capped, ignored; without it one backoff step), publisher hints
 * as lower bounds (capped), a stored row's holds, --once's limit. */
#include "sched/hold.h"
#include "test.h"

#include <math.h>

static struct fr_hold_opts
defaults(void)
{
	struct fr_hold_opts o;

	fr_hold_opts_init(&o);
	return o;
}

static void
defaults_are_the_crawlers(void)
{
	struct fr_hold_opts o = defaults();

	CHECK(o.backoff_base_s == 60);
	CHECK(o.backoff_cap_s == 86400);
	CHECK(o.retry_after == 1);
	CHECK(o.retry_after_cap_s == 86400);
	CHECK(o.hints == 1);
	CHECK(o.hint_cap_s == 86400);
	CHECK(FR_HOLD_ONCE_WAIT_S == 300);
}

static void
backoff_doubles_per_error_up_to_its_cap(void)
{
	struct fr_hold_opts o = defaults();

	/* u = 0.5: the jitter's middle, a factor of exactly 1. */
	CHECK(fr_hold_backoff_s(&o, 1, 0.5) == 60);
	CHECK(fr_hold_backoff_s(&o, 2, 0.5) == 120);
	CHECK(fr_hold_backoff_s(&o, 3, 0.5) == 240);
	CHECK(fr_hold_backoff_s(&o, 11, 0.5) == 61440);
	/* 60 * 2^11 = 122880 is over the cap: the cap. */
	CHECK(fr_hold_backoff_s(&o, 12, 0.5) == 86400);
	CHECK(fr_hold_backoff_s(&o, 1000, 0.5) == 86400);
	/* The jitter: 0.75 .. 1.25 of the step, the cap's too. */
	CHECK(fr_hold_backoff_s(&o, 1, 0) == 45);
	CHECK_NEAR(fr_hold_backoff_s(&o, 1, 0.999999), 75, 1e-4);
	CHECK(fr_hold_backoff_s(&o, 50, 0) == 64800);
	CHECK_NEAR(fr_hold_backoff_s(&o, 50, 0.999999), 108000, 0.1);
	/* 0 or 1 error: the base. */
	CHECK(fr_hold_backoff_s(&o, 0, 0.5) == 60);
	/* --backoff 1s/2s */
	o.backoff_base_s = 1;
	o.backoff_cap_s = 2;
	CHECK(fr_hold_backoff_s(&o, 5, 0.5) == 2);
}

static void
hints_take_the_longest_capped(void)
{
	struct fr_hold_opts o = defaults();
	struct fr_hold_hints none = {-1, -1, -1}, h = {3600, 1800, 600};
	struct fr_hold_hints week = {-1, 7 * 86400, -1};

	CHECK(fr_hold_hint_s(&o, &none) == 0);
	CHECK(fr_hold_hint_s(&o, &h) == 3600);
	CHECK(fr_hold_hint_s(&o, &week) == 86400);
	h.max_age_s = 7200;
	CHECK(fr_hold_hint_s(&o, &h) == 7200);
}

static void
lifetime_is_max_age_else_expires_minus_date(void)
{
	double now = 1e9;

	CHECK(fr_hold_lifetime_s(-1, -1, -1, now) == -1);
	CHECK(fr_hold_lifetime_s(300, now + 9000, now, now) == 300);  /* max-age wins */
	CHECK(fr_hold_lifetime_s(0, now + 9000, now, now) == -1);     /* even when 0 */
	CHECK(fr_hold_lifetime_s(-1, now + 900, now - 100, now) == 1000); /* the server's Date */
	CHECK(fr_hold_lifetime_s(-1, now + 900, -1, now) == 900);     /* no Date: our clock */
	CHECK(fr_hold_lifetime_s(-1, now - 5, now, now) == -1);       /* already expired */
	CHECK(fr_hold_lifetime_s(-1, now, now, now) == -1);
}

static void
pause_follows_retry_after_within_its_cap(void)
{
	struct fr_hold_opts o = defaults();
	double now = 1e9;

	/* Not a 429 or 503: no pause. */
	CHECK(fr_hold_pause_until(&o, 500, now + 100, now, 0.5) == 0);
	CHECK(fr_hold_pause_until(&o, 200, -1, now, 0.5) == 0);
	/* Retry-After given: until then. */
	CHECK(fr_hold_pause_until(&o, 429, now + 120, now, 0.5) == now + 120);
	CHECK(fr_hold_pause_until(&o, 503, now + 5, now, 0.5) == now + 5);
	/* A long one pauses at most a day (99999999 s, 27 digits, year 9999). */
	CHECK(fr_hold_pause_until(&o, 503, now + 99999999, now, 0.5) == now + 86400);
	CHECK(fr_hold_pause_until(&o, 429, INFINITY, now, 0.5) == now + 86400);
	CHECK(fr_hold_pause_until(&o, 429, 253402300799.0, now, 0.5) == now + 86400);
	/* Without it: the first backoff step, with its jitter. */
	CHECK(fr_hold_pause_until(&o, 429, -1, now, 0.5) == now + 60);
	CHECK(fr_hold_pause_until(&o, 503, 0, now, 0) == now + 45);
	/* --retry-after ignore: the backoff step. */
	o.retry_after = 0;
	CHECK(fr_hold_pause_until(&o, 429, now + 3600, now, 0.5) == now + 60);
	/* A smaller cap. */
	o.retry_after = 1;
	o.retry_after_cap_s = 600;
	CHECK(fr_hold_pause_until(&o, 429, now + 3600, now, 0.5) == now + 600);
	/* A date already past: an end before now (the caller pauses nothing). */
	CHECK(fr_hold_pause_until(&o, 429, now - 10, now, 0.5) == now - 10);
}

static void
after_fetch_success_clears_and_hints_bound(void)
{
	struct fr_hold_opts o = defaults();
	struct fr_hold h;
	double now = 1e9;
	struct fr_hold_outcome ok = {.status = 200, .retry_after_at_s = -1, .err_count = 4,
				     .hints = {1800, -1, 600}};

	fr_hold_after_fetch(&o, &ok, now, &h);
	CHECK(h.err_count == 0);
	CHECK(h.backoff_until_s == 0);
	CHECK(h.host_until_s == 0);
	CHECK(h.source_until_s == now + 1800);
	/* --hints record: no bound. */
	o.hints = 0;
	fr_hold_after_fetch(&o, &ok, now, &h);
	CHECK(h.source_until_s == -INFINITY);
	/* No hint: no hold. */
	o.hints = 1;
	ok.hints = (struct fr_hold_hints){-1, -1, -1};
	fr_hold_after_fetch(&o, &ok, now, &h);
	CHECK(h.source_until_s == -INFINITY);
	/* A 304 keeps the hints it is given. */
	ok.status = 304;
	ok.hints = (struct fr_hold_hints){-1, 172800, -1};
	fr_hold_after_fetch(&o, &ok, now, &h);
	CHECK(h.source_until_s == now + 86400);
}

static void
after_fetch_error_backs_off(void)
{
	struct fr_hold_opts o = defaults();
	struct fr_hold h;
	double now = 1e9;
	struct fr_hold_outcome e = {.error = 1, .status = 500, .retry_after_at_s = -1,
				    .hints = {3600, -1, -1}, .u_error = 0.5};

	fr_hold_after_fetch(&o, &e, now, &h);
	CHECK(h.err_count == 1);
	CHECK(h.backoff_until_s == now + 60);
	CHECK(h.host_until_s == 0);
	/* The backoff, not the hint, holds a failing source. */
	CHECK(h.source_until_s == now + 60);
	e.err_count = 2; /* the third error in a row */
	fr_hold_after_fetch(&o, &e, now, &h);
	CHECK(h.err_count == 3);
	CHECK(h.backoff_until_s == now + 240);
	/* A timeout: no status. */
	e.status = 0;
	e.err_count = 0;
	e.u_error = 0;
	fr_hold_after_fetch(&o, &e, now, &h);
	CHECK(h.backoff_until_s == now + 45);
	CHECK(h.host_until_s == 0);
}

static void
after_fetch_429_pauses_the_host(void)
{
	struct fr_hold_opts o = defaults();
	struct fr_hold h;
	double now = 1e9;
	struct fr_hold_outcome t = {.error = 1, .status = 429, .retry_after_at_s = now + 3600,
				    .hints = {-1, -1, -1}, .u_error = 0.5, .u_pause = 0.5};

	/* Retry-After longer than the backoff: the source's backoff is the
	 * pause, so that a restart reads it back as the host's. */
	fr_hold_after_fetch(&o, &t, now, &h);
	CHECK(h.err_count == 1);
	CHECK(h.host_until_s == now + 3600);
	CHECK(h.backoff_until_s == now + 3600);
	CHECK(h.source_until_s == now + 3600);
	/* Shorter than the backoff: the backoff stays the source's. */
	t.retry_after_at_s = now + 10;
	fr_hold_after_fetch(&o, &t, now, &h);
	CHECK(h.host_until_s == now + 10);
	CHECK(h.backoff_until_s == now + 60);
	/* A day at most. */
	t.retry_after_at_s = now + 99999999;
	fr_hold_after_fetch(&o, &t, now, &h);
	CHECK(h.host_until_s == now + 86400);
	CHECK(h.backoff_until_s == now + 86400);
	/* 503 without Retry-After: a backoff step, drawn with its own jitter. */
	t.status = 503;
	t.retry_after_at_s = -1;
	t.u_pause = 0;
	fr_hold_after_fetch(&o, &t, now, &h);
	CHECK(h.host_until_s == now + 45);
	CHECK(h.backoff_until_s == now + 60);
	/* A Retry-After in the past: no pause at all. */
	t.retry_after_at_s = now - 5;
	fr_hold_after_fetch(&o, &t, now, &h);
	CHECK(h.host_until_s == 0);
	CHECK(h.backoff_until_s == now + 60);
}

static void
forum_page_takes_retry_after_only_within_the_cap(void)
{
	struct fr_hold_opts o = defaults();
	double now = 1e9;

	CHECK(fr_hold_forum_page(&o, -1, now, 0.5) == now + 60);
	CHECK(fr_hold_forum_page(&o, now + 600, now, 0.5) == now + 600);
	/* Sooner than the backoff step: the step. */
	CHECK(fr_hold_forum_page(&o, now + 30, now, 0.5) == now + 60);
	/* Beyond the cap: not honoured, the step stands (unlike a feed's). */
	CHECK(fr_hold_forum_page(&o, now + 86400 * 2, now, 0.5) == now + 60);
	o.retry_after = 0;
	CHECK(fr_hold_forum_page(&o, now + 600, now, 0.5) == now + 60);
}

static void
stored_rows_hold_as_they_were_left(void)
{
	struct fr_hold_opts o = defaults();
	struct fr_hold_hints none = {-1, -1, -1}, h = {-1, -1, 900};
	double now = 1e9;

	/* In error backoff: until its end. */
	CHECK(fr_hold_from_row(&o, 2, now + 100, now - 50, &h, now) == now + 100);
	/* A backoff run out: nothing (errors still counted, hints not used). */
	CHECK(fr_hold_from_row(&o, 2, now - 1, now - 50, &h, now) == -INFINITY);
	/* Fine: its last fetch + the hint. */
	CHECK(fr_hold_from_row(&o, 0, 0, now - 50, &h, now) == now + 850);
	CHECK(fr_hold_from_row(&o, 0, 0, now - 50, &none, now) == -INFINITY);
	o.hints = 0;
	CHECK(fr_hold_from_row(&o, 0, 0, now - 50, &h, now) == -INFINITY);
	/* The host's pause comes back from a 429/503 row still in backoff. */
	CHECK(fr_hold_row_pauses_host(1, 429, now + 10, now));
	CHECK(fr_hold_row_pauses_host(3, 503, now + 10, now));
	CHECK(!fr_hold_row_pauses_host(1, 500, now + 10, now));
	CHECK(!fr_hold_row_pauses_host(1, 429, now, now));
	CHECK(!fr_hold_row_pauses_host(0, 429, now + 10, now));
}

static void
once_waits_five_minutes_at_most(void)
{
	double now = 1e9;

	CHECK(!fr_hold_once_beyond(now + 300, now));
	CHECK(fr_hold_once_beyond(now + 300.5, now));
	CHECK(fr_hold_once_beyond(now + 86400, now));
	CHECK(!fr_hold_once_beyond(-INFINITY, now));
	/* A day's Retry-After beyond --once's pass; a minute's within it. */
	struct fr_hold_opts o = defaults();
	CHECK(fr_hold_once_beyond(fr_hold_pause_until(&o, 429, now + 99999999, now, 0.5), now));
	CHECK(!fr_hold_once_beyond(fr_hold_pause_until(&o, 503, now + 60, now, 0.5), now));
	/* The 9th error in a row backs off beyond it (60 * 2^8 = 15360 s,
	 * 11520 s at the least jitter); the 3rd not (240 s, 300 at most). */
	CHECK(fr_hold_once_beyond(now + fr_hold_backoff_s(&o, 9, 0), now));
	CHECK(!fr_hold_once_beyond(now + fr_hold_backoff_s(&o, 3, 0.999999), now));
}

int
main(void)
{
	RUN(defaults_are_the_crawlers);
	RUN(backoff_doubles_per_error_up_to_its_cap);
	RUN(hints_take_the_longest_capped);
	RUN(lifetime_is_max_age_else_expires_minus_date);
	RUN(pause_follows_retry_after_within_its_cap);
	RUN(after_fetch_success_clears_and_hints_bound);
	RUN(after_fetch_error_backs_off);
	RUN(after_fetch_429_pauses_the_host);
	RUN(forum_page_takes_retry_after_only_within_the_cap);
	RUN(stored_rows_hold_as_they_were_left);
	RUN(once_waits_five_minutes_at_most);
	return TEST_DONE();
}
