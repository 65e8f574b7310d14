/* fuzz_date.c - libFuzzer harness for the feed date parser
 * (lib/parse/date.h): a date that parses lies in years 1-9999 (UTC),
 * parsing is deterministic, surrounding blanks change nothing, and the
 * strict reading (FR_DATE_STRICT) accepts a subset with the same answers. Without FR_LIBFUZZER, replay.c's main replays the seeds. */
#include "parse/date.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define REQUIRE(c)                                                                                 \
	do {                                                                                       \
		if (!(c)) {                                                                        \
			fprintf(stderr, "fuzz_date: broken promise: %s (%s:%d)\n", #c, __FILE__,  \
			        __LINE__);                                                         \
			abort();                                                                   \
		}                                                                                  \
	} while (0)

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *copy = malloc(size ? size : 1), *padded = malloc(size + 2);
	int64_t a = 7, b = 8, c = 9;
	int ra, rb, rc;

	if (!copy || !padded) {
		free(copy);
		free(padded);
		return 0;
	}
	copy[0] = '\0';
	if (size)
		memcpy(copy, data, size);
	ra = fr_date_parse(copy, size, &a);
	rb = fr_date_parse(copy, size, &b);
	padded[0] = ' ';
	if (size)
		memcpy(padded + 1, data, size);
	padded[size + 1] = '\n';
	rc = fr_date_parse(padded, size + 2, &c);
	{
		int64_t st = 5;
		int rs = fr_date_parse_ex(copy, size, FR_DATE_STRICT, &st);

		/* the strict reading is a subset with the same answers */
		REQUIRE(rs == 0 || rs == -1);
		REQUIRE(rs == -1 ? st == 5 : ra == 0 && st == a);
	}
	REQUIRE(ra == 0 || ra == -1);
	REQUIRE(ra == rb && ra == rc);
	if (ra == 0) {
		REQUIRE(a == b && a == c);
		REQUIRE(a >= -62135596800LL && a <= 253402300799LL);
	} else {
		REQUIRE(a == 7 && b == 8 && c == 9);
	}
	free(copy);
	free(padded);
	return 0;
}
