/* airballoon.h - the air-balloon policy's arithmetic, exposed for tests:
 * 24 hourly activity buckets heated by fetched items, cooled exponentially,
 * and integrated piecewise-linearly (notes-airballoon.md). Hours are hours of
 * the day in UTC shifted by the policy's tz parameter. */
#ifndef FR_POLICY_AIRBALLOON_H
#define FR_POLICY_AIRBALLOON_H

/* Multiplies every bucket by exp(-dt_h / inertia_h), never below floor. */
void fr_ab_cool(double a[24], double dt_h, double inertia_h, double floor);

/* Adds an item created at created_s and fetched at now_s: with
 * e = exp(-(now - created) / inertia) and frac the position within its hour,
 * a[hh] += e * (1 - frac), a[hh + 1] += e * frac. */
void fr_ab_heat(double a[24], double created_s, double now_s, double inertia_h);

/* Area (activity x hours) under the piecewise-linear curve through the
 * buckets (bucket h at minute 0 of hour h) from from_s to to_s. */
double fr_ab_area(const double a[24], double from_s, double to_s);

/* The instant t >= from_s at which fr_ab_area(a, from_s, t) reaches need
 * (need >= 0; buckets > 0). */
double fr_ab_solve(const double a[24], double from_s, double need);

#endif
