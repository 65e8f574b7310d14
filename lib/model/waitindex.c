/* waitindex.c - U(t) piecewise: within an hour of constant rate r, starting
 * at t0 with L = integral of rate so far and U0, U(t0 + x) = U0 + L x +
 * r x^2 / 2 and L grows by r x. The burst part has a closed form. */
#include "model/waitindex.h"

#include <math.h>

void
fr_waitacc_reset(struct fr_waitacc *a, double now_s)
{
	a->at_s = now_s;
	a->lam = 0;
	a->u = 0;
	a->last_s = now_s;
}

double
fr_burst_u(const struct fr_burst *b, double last_s, double t_s)
{
	if (!b || !(b->amp > 0) || t_s <= last_s)
		return 0;
	/* integral over [s0, t] of amp e^{-(s - from)/tau} (t - s) ds with
	 * s0 = max(last, from): substitute y = t - s. */
	double s0 = last_s > b->from_s ? last_s : b->from_s;
	if (t_s <= s0)
		return 0;
	double tau = b->tau_s, d = t_s - s0;
	double e0 = exp(-(s0 - b->from_s) / tau);
	/* amp e0 * integral_0^d e^{-x/tau} (d - x) dx
	 *   = amp e0 * tau * (d - tau (1 - e^{-d/tau})) */
	return b->amp * e0 * tau * (d - tau * (1 - exp(-d / tau)));
}

static int64_t
hour_of(double t_s)
{
	return (int64_t)floor(t_s / 3600.0);
}

double
fr_waitacc_advance(struct fr_waitacc *a, double now_s, fr_hour_rate_fn rate, const void *arg,
		   const struct fr_burst *b)
{
	double t = a->at_s;

	while (t < now_s) {
		int64_t h = hour_of(t);
		double end = (double)(h + 1) * 3600.0;
		if (end <= t) /* rounding at the boundary */
			end = t + 1e-6;
		if (end > now_s)
			end = now_s;
		double r = rate(arg, h), x = end - t;
		a->u += a->lam * x + r * x * x / 2;
		a->lam += r * x;
		t = end;
	}
	if (now_s > a->at_s)
		a->at_s = now_s;
	return a->u + fr_burst_u(b, a->last_s, a->at_s);
}

double
fr_waitacc_due(const struct fr_waitacc *a, double theta, fr_hour_rate_fn rate, const void *arg,
	       const struct fr_burst *b, double horizon_s)
{
	double t = a->at_s, lam = a->lam, u = a->u, limit = a->at_s + horizon_s;

	if (u + fr_burst_u(b, a->last_s, t) >= theta)
		return t;
	while (t < limit) {
		int64_t h = hour_of(t);
		double end = (double)(h + 1) * 3600.0;
		if (end <= t)
			end = t + 1e-6;
		if (end > limit)
			end = limit;
		double r = rate(arg, h), x = end - t;
		double u_end = u + lam * x + r * x * x / 2;
		int bursty = b && b->amp > 0;
		if (!bursty && u_end >= theta) {
			/* r x^2 / 2 + lam x = theta - u, smallest x >= 0. */
			double need = theta - u, y;
			if (r * x < 1e-9 * (lam + 1e-300))
				y = lam > 0 ? need / lam : x;
			else
				y = (-lam + sqrt(lam * lam + 2 * r * need)) / r;
			return t + (y < 0 ? 0 : y > x ? x : y);
		}
		if (bursty && u_end + fr_burst_u(b, a->last_s, end) >= theta) {
			/* Within this hour. U is convex and increasing, so Newton
			 * from the right end descends monotonically to the root;
			 * U' is the integral of the rate so far. */
			double y = x;
			for (int i = 0; i < 30; i++) {
				double ty = t + y;
				double uy = u + lam * y + r * y * y / 2 + fr_burst_u(b, a->last_s, ty);
				double s0 = a->last_s > b->from_s ? a->last_s : b->from_s;
				double du = lam + r * y;
				if (ty > s0)
					du += b->amp * b->tau_s * exp(-(s0 - b->from_s) / b->tau_s) *
					      (1 - exp(-(ty - s0) / b->tau_s));
				if (!(du > 0))
					break;
				double step = (uy - theta) / du;
				y -= step;
				if (y < 0) {
					y = 0;
					break;
				}
				if (step < 1e-3)
					break;
			}
			return t + y;
		}
		u = u_end;
		lam += r * x;
		t = end;
	}
	return limit;
}
