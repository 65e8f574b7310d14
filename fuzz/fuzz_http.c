/* fuzz_http.c - libFuzzer harness for the parsers of HTTP response header
 * values (lib/net/httpdate.h): HTTP dates (Date, Expires, Last-Modified),
 * Retry-After and Cache-Control, on the whole input and on each of its lines
 * (a header block). Promises: a date parses to a finite time; Retry-After is
 * -1 or a finite time, for delay-seconds within ten years after now; max-age is -1 or within [0, ten years]; no_store is 0
 * or 1; and each parse is deterministic. Without FR_LIBFUZZER, replay.c's
 * main replays the seeds. */
#include "net/httpdate.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define REQUIRE(c)                                                                                 \
	do {                                                                                       \
		if (!(c)) {                                                                        \
			fprintf(stderr, "fuzz_http: broken promise: %s (%s:%d)\n", #c, __FILE__,  \
			        __LINE__);                                                         \
			abort();                                                                   \
		}                                                                                  \
	} while (0)

#define NOW 1700000000.0
#define TEN_YEARS (10 * 365.25 * 86400)

static void
check_value(const char *v)
{
	double d = 12345, d2 = 678, ra, ra2, age = 5, age2 = 6;
	int rc = fr_http_date_parse(v, &d), rc2 = fr_http_date_parse(v, &d2), ns = 7, ns2 = 8;

	REQUIRE(rc == 0 || rc == -1);
	REQUIRE(rc == rc2);
	if (rc == 0)
		REQUIRE(isfinite(d) && d == d2);
	else
		REQUIRE(d == 12345 && d2 == 678);
	ra = fr_http_retry_after(v, NOW);
	ra2 = fr_http_retry_after(v, NOW);
	REQUIRE(ra == ra2 || (isnan(ra) && isnan(ra2)));
	REQUIRE(ra == -1 || isfinite(ra));
	if (ra != -1 && strspn(v, " \t0123456789") == strlen(v)) /* delay-seconds: capped */
		REQUIRE(ra >= NOW && ra <= NOW + TEN_YEARS + 1);
	fr_http_cache_control(v, &age, &ns);
	fr_http_cache_control(v, &age2, &ns2);
	REQUIRE(age == -1 || (age >= 0 && age <= TEN_YEARS + 1));
	REQUIRE(ns == 0 || ns == 1);
	REQUIRE(age == age2 && ns == ns2);
	fr_http_cache_control(v, NULL, NULL);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	char *line, *save = NULL;

	if (!s)
		return 0;
	if (size)
		memcpy(s, data, size);
	s[size] = '\0';
	check_value(s);
	for (line = strtok_r(s, "\r\n", &save); line; line = strtok_r(NULL, "\r\n", &save)) {
		char *colon = strchr(line, ':');

		check_value(line);
		if (colon) /* "Name: value" as a header block carries it */
			check_value(colon + 1 + strspn(colon + 1, " \t"));
	}
	free(s);
	return 0;
}
