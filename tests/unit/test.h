/* test.h - a tiny test harness: CHECK macros, named test functions, one
 * summary line per executable. Each test file defines main() with RUN(). */
#ifndef FR_TEST_H
#define FR_TEST_H

#include <math.h>
#include <stdio.h>
#include <string.h>

static int fr_test_failures;
static int fr_test_checks;

#define CHECK(cond)                                                                            \
	do {                                                                                   \
		fr_test_checks++;                                                              \
		if (!(cond)) {                                                                 \
			fr_test_failures++;                                                    \
			fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__,       \
				#cond);                                                        \
		}                                                                              \
	} while (0)

#define CHECK_NEAR(a, b, tol)                                                                  \
	do {                                                                                   \
		double fr_a_ = (double)(a), fr_b_ = (double)(b);                               \
		fr_test_checks++;                                                              \
		if (!(fabs(fr_a_ - fr_b_) <= (tol))) {                                         \
			fr_test_failures++;                                                    \
			fprintf(stderr, "%s:%d: CHECK_NEAR failed: %s = %.6f, %s = %.6f (tol %g)\n", \
				__FILE__, __LINE__, #a, fr_a_, #b, fr_b_, (double)(tol));      \
		}                                                                              \
	} while (0)

#define CHECK_STR(a, b)                                                                        \
	do {                                                                                   \
		const char *fr_a_ = (a), *fr_b_ = (b);                                         \
		fr_test_checks++;                                                              \
		if (!fr_a_ || !fr_b_ || strcmp(fr_a_, fr_b_) != 0) {                           \
			fr_test_failures++;                                                    \
			fprintf(stderr, "%s:%d: CHECK_STR failed: \"%s\" != \"%s\"\n", __FILE__, \
				__LINE__, fr_a_ ? fr_a_ : "(null)", fr_b_ ? fr_b_ : "(null)");   \
		}                                                                              \
	} while (0)

#define RUN(fn)                                                                                \
	do {                                                                                   \
		int fr_before_ = fr_test_failures;                                             \
		fn();                                                                          \
		fprintf(stderr, "%s %s\n", fr_test_failures == fr_before_ ? "ok  " : "FAIL", #fn); \
	} while (0)

#define TEST_DONE()                                                                            \
	(fprintf(stderr, "%d checks, %d failed\n", fr_test_checks, fr_test_failures),          \
	 fr_test_failures ? 1 : 0)

#endif
