/* hold.c - the holds a fetch's outcome implies (hold.h): error backoff,
 * 429/503 pauses, publisher hints, --once's limit. */
#include "sched/hold.h"

#include <math.h>

void
fr_hold_opts_init(struct fr_hold_opts *o)
{
	o->backoff_base_s = 60;
	o->backoff_cap_s = 86400;
	o->retry_after = 1;
	o->retry_after_cap_s = 86400;
	o->hints = 1;
	o->hint_cap_s = 86400;
}

double
fr_hold_backoff_s(const struct fr_hold_opts *o, int n_errors, double u)
{
	double b = o->backoff_base_s;

	for (int k = 1; k < n_errors && b < o->backoff_cap_s; k++)
		b *= 2;
	if (b > o->backoff_cap_s)
		b = o->backoff_cap_s;
	return b * (0.75 + 0.5 * u);
}

double
fr_hold_lifetime_s(double max_age_s, double expires_at_s, double date_s, double now_s)
{
	double life;

	if (max_age_s >= 0)
		return max_age_s > 0 ? max_age_s : -1;
	if (expires_at_s <= 0)
		return -1;
	life = expires_at_s - (date_s > 0 ? date_s : now_s);
	return life > 0 ? life : -1;
}

double
fr_hold_hint_s(const struct fr_hold_opts *o, const struct fr_hold_hints *h)
{
	double x = 0;

	if (h->ttl_s > x)
		x = h->ttl_s;
	if (h->period_s > x)
		x = h->period_s;
	if (h->max_age_s > x)
		x = h->max_age_s;
	return x > o->hint_cap_s ? o->hint_cap_s : x;
}

double
fr_hold_pause_until(const struct fr_hold_opts *o, long status, double retry_after_at_s,
		    double now_s, double u)
{
	double until;

	if (status != 429 && status != 503)
		return 0;
	until = now_s + fr_hold_backoff_s(o, 1, u);
	if (o->retry_after && retry_after_at_s > 0) {
		until = retry_after_at_s;
		/* Also a NaN, an infinity, a date in year 9999. */
		if (!(until <= now_s + o->retry_after_cap_s))
			until = now_s + o->retry_after_cap_s;
	}
	return until;
}

void
fr_hold_after_fetch(const struct fr_hold_opts *o, const struct fr_hold_outcome *oc, double now_s,
		    struct fr_hold *out)
{
	double pause;

	if (!oc->error) {
		out->err_count = 0;
		out->backoff_until_s = 0;
	} else {
		out->err_count = oc->err_count + 1;
		out->backoff_until_s = now_s + fr_hold_backoff_s(o, out->err_count, oc->u_error);
	}
	out->host_until_s = 0;
	pause = fr_hold_pause_until(o, oc->status, oc->retry_after_at_s, now_s, oc->u_pause);
	if (pause > now_s) {
		out->host_until_s = pause;
		/* The pause is the source's backoff too when longer, so that a
		 * restart reads it back as the host's pause. */
		if (oc->error && pause > out->backoff_until_s)
			out->backoff_until_s = pause;
	}
	out->source_until_s = -INFINITY;
	if (oc->error)
		out->source_until_s = out->backoff_until_s;
	else if (o->hints && fr_hold_hint_s(o, &oc->hints) > 0)
		out->source_until_s = now_s + fr_hold_hint_s(o, &oc->hints);
}

double
fr_hold_forum_page(const struct fr_hold_opts *o, double retry_after_at_s, double now_s, double u)
{
	double until = now_s + fr_hold_backoff_s(o, 1, u);

	if (o->retry_after && retry_after_at_s > until &&
	    retry_after_at_s < now_s + o->retry_after_cap_s)
		until = retry_after_at_s;
	return until;
}

double
fr_hold_from_row(const struct fr_hold_opts *o, int err_count, double backoff_until_s,
		 double last_fetch_s, const struct fr_hold_hints *h, double now_s)
{
	if (err_count > 0 && backoff_until_s > now_s)
		return backoff_until_s;
	if (err_count == 0 && o->hints && fr_hold_hint_s(o, h) > 0)
		return last_fetch_s + fr_hold_hint_s(o, h);
	return -INFINITY;
}

int
fr_hold_row_pauses_host(int err_count, long last_status, double backoff_until_s, double now_s)
{
	return backoff_until_s > now_s && err_count > 0 && (last_status == 429 || last_status == 503);
}

int
fr_hold_once_beyond(double until_s, double now_s)
{
	return until_s > now_s + FR_HOLD_ONCE_WAIT_S;
}
