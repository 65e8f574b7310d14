/* test_airballoon.c - the worked example of notes-airballoon.md: heating,
 * cooling and accumulated activity to the printed 3 decimals. */
#include "test.h"

#include "sched/policy/airballoon.h"

#define H 3600.0
#define M 60.0
#define I 168.0
/* 2013-06-05 08:00 UTC; the example's clock is the bucket clock. */
#define T0 1370419200.0
#define AT(h, m) (T0 + ((h) - 8) * H + (m) * M)
/* The digest prints 3 decimals of values that were themselves computed from
 * rounded inputs; allow one unit of the last printed digit. */
#define TOL 1.5e-3

static void
fill(double a[24], double v8, double v9)
{
	for (int i = 0; i < 24; i++)
		a[i] = 1.0;
	a[8] = v8;
	a[9] = v9;
}

static void
cooling_from_one(void)
{
	double a[24];

	fill(a, 1, 1);
	fr_ab_cool(a, 10.0 / 60, I, 0.01);
	CHECK_NEAR(a[8], 0.999, 5e-4);
	fill(a, 1, 1);
	fr_ab_cool(a, 20.0 / 60, I, 0.01);
	CHECK_NEAR(a[8], 0.998, 5e-4);
	/* Cooling in steps equals cooling at once. */
	double b[24];
	fill(b, 1, 1);
	fr_ab_cool(b, 10.0 / 60, I, 0.01);
	fr_ab_cool(b, 10.0 / 60, I, 0.01);
	CHECK_NEAR(a[8], b[8], 1e-12);
	/* The floor holds. */
	fill(a, 1, 1);
	fr_ab_cool(a, 1e6, I, 0.05);
	CHECK_NEAR(a[3], 0.05, 1e-12);
}

static void
heating_first_fetches(void)
{
	double a[24];

	/* 08:10, Page1 fetches its 08:05 item. */
	fill(a, 1, 1);
	fr_ab_cool(a, 10.0 / 60, I, 0.01);
	fr_ab_heat(a, AT(8, 5), AT(8, 10), I);
	CHECK_NEAR(a[8], 1.915, TOL);
	CHECK_NEAR(a[9], 1.082, TOL);
	/* The nearer hour gets the larger share. */
	CHECK(a[8] > a[9]);

	/* 08:10, Page2 fetches its 08:03 item. */
	fill(a, 1, 1);
	fr_ab_cool(a, 10.0 / 60, I, 0.01);
	fr_ab_heat(a, AT(8, 3), AT(8, 10), I);
	CHECK_NEAR(a[8], 1.948, TOL);
	CHECK_NEAR(a[9], 1.049, TOL);

	/* 08:20, Page3 fetches its 08:17 item. */
	fill(a, 1, 1);
	fr_ab_cool(a, 20.0 / 60, I, 0.01);
	CHECK_NEAR(a[8], 0.998, 5e-4);
	fr_ab_heat(a, AT(8, 17), AT(8, 20), I);
	CHECK_NEAR(a[8], 1.714, TOL);
	CHECK_NEAR(a[9], 1.281, TOL);
}

static void
heating_page1_and_page2(void)
{
	double a[24];

	/* Fetched at 08:20: items of 08:15 and 08:18. */
	fill(a, 1.913, 1.081);
	fr_ab_heat(a, AT(8, 15), AT(8, 20), I);
	CHECK_NEAR(a[8], 2.663, TOL);
	CHECK_NEAR(a[9], 1.331, TOL);
	fr_ab_heat(a, AT(8, 18), AT(8, 20), I);
	CHECK_NEAR(a[8], 3.363, TOL);
	CHECK_NEAR(a[9], 1.631, TOL);

	/* Fetched at 08:30: items of 08:22 and 08:25. */
	fill(a, 3.359, 1.630);
	fr_ab_heat(a, AT(8, 22), AT(8, 30), I);
	CHECK_NEAR(a[8], 3.993, TOL);
	CHECK_NEAR(a[9], 1.996, TOL);
	fr_ab_heat(a, AT(8, 25), AT(8, 30), I);
	CHECK_NEAR(a[8], 4.575, TOL);
	CHECK_NEAR(a[9], 2.412, TOL);

	/* Fetched at 08:40: items of 08:31 and 08:37. */
	fill(a, 4.571, 2.410);
	fr_ab_heat(a, AT(8, 31), AT(8, 40), I);
	CHECK_NEAR(a[8], 5.054, TOL);
	CHECK_NEAR(a[9], 2.926, TOL);
	fr_ab_heat(a, AT(8, 37), AT(8, 40), I);
	CHECK_NEAR(a[8], 5.437, TOL);
	CHECK_NEAR(a[9], 3.543, TOL);

	/* Page2, fetched at 08:50: its 08:32 item. */
	fill(a, 3.237, 1.743);
	fr_ab_heat(a, AT(8, 32), AT(8, 50), I);
	CHECK_NEAR(a[8], 3.703, TOL);
	CHECK_NEAR(a[9], 2.275, TOL);
}

static void
accumulated_activity(void)
{
	double a[24];

	fill(a, 1, 1);
	CHECK_NEAR(fr_ab_area(a, AT(8, 0), AT(8, 10)), 0.167, 5e-4);
	CHECK_NEAR(fr_ab_area(a, AT(8, 0), AT(8, 20)), 0.333, 5e-4);

	fill(a, 4.571, 2.410);
	CHECK_NEAR(fr_ab_area(a, AT(8, 30), AT(8, 40)), 0.552, 5e-4);

	fill(a, 5.437, 3.543);
	fr_ab_cool(a, 10.0 / 60, I, 0.01);
	CHECK_NEAR(fr_ab_area(a, AT(8, 40), AT(8, 50)), 0.669, 5e-4);

	fill(a, 3.237, 1.743);
	CHECK_NEAR(fr_ab_area(a, AT(8, 30), AT(8, 50)), 0.747, 5e-4);

	/* Across hour and day boundaries: a day's area is the bucket sum, and
	 * areas add up over adjacent intervals. */
	for (int i = 0; i < 24; i++)
		a[i] = 1 + i % 5;
	double day = 0;
	for (int i = 0; i < 24; i++)
		day += a[i];
	CHECK_NEAR(fr_ab_area(a, AT(8, 17), AT(8, 17) + 86400), day, 1e-9);
	double whole = fr_ab_area(a, AT(7, 45), AT(30, 5));
	double parts = fr_ab_area(a, AT(7, 45), AT(9, 12)) + fr_ab_area(a, AT(9, 12), AT(30, 5));
	CHECK_NEAR(whole, parts, 1e-9);
}

static void
solve_inverts_area(void)
{
	double a[24];

	for (int i = 0; i < 24; i++)
		a[i] = 0.2 + (i * 7 % 11);
	double from = AT(13, 27);
	double needs[] = {0.001, 0.3, 1.7, 10, 57.5, 200, 1000};
	for (size_t k = 0; k < sizeof(needs) / sizeof(needs[0]); k++) {
		double t = fr_ab_solve(a, from, needs[k]);
		CHECK(t >= from);
		CHECK_NEAR(fr_ab_area(a, from, t), needs[k], 1e-6 * (1 + needs[k]));
	}
}

int
main(void)
{
	RUN(cooling_from_one);
	RUN(heating_first_fetches);
	RUN(heating_page1_and_page2);
	RUN(accumulated_activity);
	RUN(solve_inverts_area);
	return TEST_DONE();
}
