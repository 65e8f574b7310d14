/* test_timefmt.c - Unix seconds and RFC 3339 parsing, range checks, the
 * civil calendar and formatting. */
#include "core/timefmt.h"

#include "test.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Parses a C string from an exactly sized heap copy, so a sanitizer build
 * catches any read past the n bytes; returns the status, sets *t and *why. */
static int
parse(const char *s, double *t, const char **why)
{
	size_t n = strlen(s);
	char *copy = malloc(n ? n : 1);
	int rc;

	if (!copy)
		return -2;
	memcpy(copy, s, n);
	*why = NULL;
	rc = fr_time_parse(copy, n, t, why);
	free(copy);
	return rc;
}

/* Parsing s must fail with a reason containing want, leaving *t alone. */
static void
check_rejects(const char *s, const char *want)
{
	double t = 12345;
	const char *why;
	int rc = parse(s, &t, &why);

	CHECK(rc == -1);
	CHECK(t == 12345);
	CHECK(why && strstr(why, want));
	if (rc != -1 || !why || !strstr(why, want))
		fprintf(stderr, "  input '%s': rc %d, why '%s', want '%s'\n", s, rc,
		        why ? why : "(null)", want);
}

static double
parsed(const char *s)
{
	double t = NAN;
	const char *why;

	if (parse(s, &t, &why) != 0)
		fprintf(stderr, "  input '%s' rejected: %s\n", s, why);
	return t;
}

static void
days_from_civil_matches_known_dates(void)
{
	CHECK(fr_days_from_civil(1970, 1, 1) == 0);
	CHECK(fr_days_from_civil(1969, 12, 31) == -1);
	CHECK(fr_days_from_civil(2000, 3, 1) == 11017);
	CHECK(fr_days_from_civil(2000, 2, 29) == 11016);
	CHECK(fr_days_from_civil(2012, 1, 1) == 15340);  /* 1325376000 / 86400 */
	CHECK(fr_days_from_civil(2012, 10, 1) == 15614); /* 1349049600 / 86400 */
	CHECK(fr_days_from_civil(0, 3, 1) == -719468);
	CHECK(fr_days_from_civil(1900, 3, 1) - fr_days_from_civil(1900, 2, 28) == 1);
	CHECK(fr_days_from_civil(2000, 3, 1) - fr_days_from_civil(2000, 2, 28) == 2);
	CHECK(fr_days_from_civil(-1, 12, 31) == fr_days_from_civil(0, 1, 1) - 1);
}

static void
unix_seconds_integer_and_decimal(void)
{
	CHECK(parsed("0") == 0);
	CHECK(parsed("1325376011") == 1325376011.0);
	CHECK(parsed("-5") == -5.0);
	CHECK(parsed("1325376011.25") == 1325376011.25);
	CHECK_NEAR(parsed("0.000001"), 1e-6, 1e-12);
	CHECK(parsed("999999999999999") == 999999999999999.0);
	/* only n bytes are read: no NUL terminator needed */
	{
		double t = 0;
		CHECK(fr_time_parse("1325376011,54", 10, &t, NULL) == 0);
		CHECK(t == 1325376011.0);
	}
}

static void
rfc3339_utc_offsets_and_fractions(void)
{
	CHECK(parsed("1970-01-01T00:00:00Z") == 0);
	CHECK(parsed("2012-10-01T00:00:00Z") == 1349049600.0);
	CHECK(parsed("2012-10-01t00:00:00z") == 1349049600.0);
	CHECK(parsed("2012-10-01 00:00:00+02:00") == 1349049600.0 - 7200);
	CHECK(parsed("2012-09-30T23:30:00-00:30") == 1349049600.0);
	CHECK(parsed("2012-10-01T05:45:00+05:45") == 1349049600.0);
	CHECK(parsed("2012-10-01T00:00:00-00:00") == 1349049600.0);
	CHECK(parsed("2012-10-01T00:00:00.5Z") == 1349049600.5);
	CHECK(parsed("2012-10-01T00:00:00.25+01:00") == 1349049600.25 - 3600);
	CHECK_NEAR(parsed("2012-10-01T00:00:00.123456789Z"), 1349049600.123456789, 1e-6);
	CHECK_NEAR(parsed("2012-10-01T00:00:00.1234567890123456789012Z"), 1349049600.123456789,
	           1e-6);
	CHECK(parsed("2012-02-29T12:00:00Z") == 1330516800.0);
	CHECK(parsed("2000-02-29T00:00:00Z") == 951782400.0);
	/* a leap second is the next minute's first */
	CHECK(parsed("2016-12-31T23:59:60Z") == 1483228800.0);
	CHECK(parsed("2012-10-01T00:00:00+23:59") == 1349049600.0 - 86340);
	CHECK(parsed("1969-12-31T23:59:59Z") == -1.0);
	CHECK(parsed("0001-01-01T00:00:00Z") == -62135596800.0);
}

static void
rejects_out_of_range_fields(void)
{
	check_rejects("2012-13-01T00:00:00Z", "month outside 1-12");
	check_rejects("2012-00-01T00:00:00Z", "month outside 1-12");
	check_rejects("2012-01-00T00:00:00Z", "day outside its month");
	check_rejects("2012-04-31T00:00:00Z", "day outside its month");
	check_rejects("2013-02-29T00:00:00Z", "day outside its month");
	check_rejects("1900-02-29T00:00:00Z", "day outside its month");
	check_rejects("2012-01-32T00:00:00Z", "day outside its month");
	check_rejects("2012-01-01T24:00:00Z", "hour outside 0-23");
	check_rejects("2012-01-01T00:60:00Z", "minute outside 0-59");
	check_rejects("2012-01-01T00:00:61Z", "second outside 0-60");
	check_rejects("2012-01-01T00:00:00+24:00", "offset beyond +-23:59");
	check_rejects("2012-01-01T00:00:00-00:60", "offset beyond +-23:59");
}

static void
rejects_malformed_input(void)
{
	const char *neither = "is neither Unix seconds nor RFC 3339";

	check_rejects("", "is empty");
	check_rejects("abc", neither);
	check_rejects(" 5", neither);
	check_rejects("5 ", neither);
	check_rejects("+5", neither);
	check_rejects("-", neither);
	check_rejects("1e9", neither);
	check_rejects("1.", neither);
	check_rejects(".5", neither);
	check_rejects("1.2.3", neither);
	check_rejects("nan", neither);
	check_rejects("inf", neither);
	check_rejects("0x10", neither);
	check_rejects("1234567890123456", "too many digits");
	check_rejects("2012-10-01", neither);
	check_rejects("2012-10-01T00:00:00", "lacks a UTC offset");
	check_rejects("2012-10-01T00:00Z", neither);
	check_rejects("2012-10-01X00:00:00Z", neither);
	check_rejects("2012-1-01T00:00:00Z", neither);
	check_rejects("2012-10-01T00:00:00.Z", neither);
	check_rejects("2012-10-01T00:00:00+0200", neither);
	check_rejects("2012-10-01T00:00:00+02:00x", neither);
	check_rejects("2012-10-01T00:00:00ZZ", neither);
	check_rejects("2012-10-01T0a:00:00Z", neither);
	check_rejects("12345-10-01T00:00:00Z", neither);
}

static void
format_is_rfc3339_utc_seconds(void)
{
	char buf[32];

	CHECK_STR(fr_time_format(0, buf, sizeof(buf)), "1970-01-01T00:00:00Z");
	CHECK_STR(fr_time_format(1349049600, buf, sizeof(buf)), "2012-10-01T00:00:00Z");
	CHECK_STR(fr_time_format(1349049600.999, buf, sizeof(buf)), "2012-10-01T00:00:00Z");
	CHECK_STR(fr_time_format(1330516800 + 3723, buf, sizeof(buf)), "2012-02-29T13:02:03Z");
	CHECK_STR(fr_time_format(-1, buf, sizeof(buf)), "1969-12-31T23:59:59Z");
	CHECK_STR(fr_time_format(-0.5, buf, sizeof(buf)), "1969-12-31T23:59:59Z");
	CHECK_STR(fr_time_format(253402300799.0, buf, sizeof(buf)), "9999-12-31T23:59:59Z");
	CHECK_STR(fr_time_format(NAN, buf, sizeof(buf)), "invalid-time");
	CHECK_STR(fr_time_format(INFINITY, buf, sizeof(buf)), "invalid-time");
	/* exactly 21 bytes is enough; fewer truncates but stays terminated */
	CHECK_STR(fr_time_format(0, buf, 21), "1970-01-01T00:00:00Z");
	CHECK_STR(fr_time_format(0, buf, 5), "1970");
}

/* Every day from year 1 to 9999 formats and parses back to itself. */
static void
format_then_parse_round_trips(void)
{
	long lo = fr_days_from_civil(1, 1, 1), hi = fr_days_from_civil(9999, 12, 31);
	long bad = 0;
	char buf[32];

	for (long d = lo; d <= hi; d++) {
		long sec = ((d * 7919) % 86400 + 86400) % 86400; /* some time of day */
		double t = (double)d * 86400 + (double)sec, back = NAN;

		fr_time_format(t, buf, sizeof(buf));
		if (fr_time_parse(buf, strlen(buf), &back, NULL) != 0 || back != t) {
			if (bad++ < 5)
				fprintf(stderr, "  day %ld: %.0f -> %s -> %.0f\n", d, t, buf, back);
		}
	}
	CHECK(bad == 0);
}

int
main(void)
{
	RUN(days_from_civil_matches_known_dates);
	RUN(unix_seconds_integer_and_decimal);
	RUN(rfc3339_utc_offsets_and_fractions);
	RUN(rejects_out_of_range_fields);
	RUN(rejects_malformed_input);
	RUN(format_is_rfc3339_utc_seconds);
	RUN(format_then_parse_round_trips);
	return TEST_DONE();
}
