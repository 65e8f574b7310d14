/* test.h - a tiny test harness: CHECK macros, named test functions, one
 * summary line per executable, test_slurp for data files, test_fields for
 * their tab-separated lines. Each test file
 * defines main() with RUN(). */
#ifndef FR_TEST_H
#define FR_TEST_H

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
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

/* Reads the whole file at path into a malloc'd buffer with a '\0' after
 * its *len bytes (len may be NULL). When it cannot, prints "PATH: cannot
 * read: WHY", counts a failed check and returns NULL. Caller frees. */
static inline char *
test_slurp(const char *path, size_t *len)
{
	FILE *f;
	char *buf = NULL;
	long n;

	errno = 0;
	f = fopen(path, "rb");
	if (!f || fseek(f, 0, SEEK_END) != 0)
		goto fail;
	n = ftell(f);
	if (n < 0 || fseek(f, 0, SEEK_SET) != 0)
		goto fail;
	buf = malloc((size_t)n + 1);
	if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n)
		goto fail;
	fclose(f);
	buf[n] = '\0';
	if (len)
		*len = (size_t)n;
	return buf;
fail:
	fr_test_checks++;
	fr_test_failures++;
	fprintf(stderr, "%s: cannot read: %s\n", path, errno ? strerror(errno) : "short read");
	free(buf);
	if (f)
		fclose(f);
	return NULL;
}

/* Splits line at tabs into at most max fields, pointers into line (which
 * is changed: the tabs and the line's end become NULs). Returns how many. */
static inline size_t
test_fields(char *line, char **f, size_t max)
{
	size_t n = 0;

	line[strcspn(line, "\r\n")] = '\0';
	while (n < max) {
		f[n++] = line;
		line = strchr(line, '\t');
		if (!line)
			break;
		*line++ = '\0';
	}
	return n;
}

#endif
