/* test_date.c - the feed date parser (lib/parse/date.h): a table of dates
 * real feeds carry, one row per accepted form and deviation, and a table of
 * texts that must be refused rather than guessed. */
#include "parse/date.h"

#include "test.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Parses a C string from an exactly sized heap copy, so a sanitizer build
 * catches any read past len. */
static int
parse(const char *s, int64_t *t)
{
	size_t n = strlen(s);
	char *copy = malloc(n ? n : 1);
	int rc;

	if (!copy)
		return -2;
	memcpy(copy, s, n);
	rc = fr_date_parse(copy, n, t);
	free(copy);
	return rc;
}

/* 2014-07-06T12:56:00Z, the reference instant of most rows. */
#define T0 1404651360

static const struct good {
	const char *text;
	int64_t want;
} goods[] = {
	/* RFC 822 / 1123 */
	{"Sun, 06 Jul 2014 12:56:00 GMT", T0},
	{"Sun, 06 Jul 2014 12:56:00 +0000", T0},
	{"Sun, 06 Jul 2014 14:56:00 +0200", T0},
	{"Sun, 06 Jul 2014 08:56:00 -0400", T0},
	{"Sun, 06 Jul 2014 14:56:00 +02:00", T0},
	{"Sun, 06 Jul 2014 14:56:00 +02", T0},
	{"Sun, 06 Jul 2014 14:56:00 +2", T0},
	{"Sun, 06 Jul 2014 12:56:00 UT", T0},
	{"Sun, 06 Jul 2014 12:56:00 UTC", T0},
	{"Sun, 06 Jul 2014 12:56:00 Z", T0},
	/* named zones */
	{"Sun, 06 Jul 2014 08:56:00 EDT", T0},
	{"Sun, 06 Jul 2014 07:56:00 EST", T0},
	{"Sun, 06 Jul 2014 05:56:00 PDT", T0},
	{"Sun, 06 Jul 2014 04:56:00 PST", T0},
	{"Sun, 06 Jul 2014 06:56:00 CST", T0},
	{"Sun, 06 Jul 2014 14:56:00 CEST", T0},
	{"Sun, 06 Jul 2014 21:56:00 JST", T0},
	{"Sun, 06 Jul 2014 14:56:00 GMT+2", T0},
	{"Sun, 06 Jul 2014 12:56:00 +0000 (UTC)", T0},
	/* missing weekday, wrong weekday, no comma, full names */
	{"06 Jul 2014 12:56:00 GMT", T0},
	{"Mon, 06 Jul 2014 12:56:00 GMT", T0},
	{"Sun 06 Jul 2014 12:56:00 GMT", T0},
	{"Sunday, 06 July 2014 12:56:00 GMT", T0},
	{"sun, 06 jul 2014 12:56:00 gmt", T0},
	{"Sun, 6 Jul 2014 12:56:00 GMT", T0},
	{"Sun, 06 Jul 2014 12:56 GMT", T0},
	{"Sat, 06 Sept 2014 12:56:00 GMT", 1410008160},
	{"  Sun, 06 Jul 2014 12:56:00 GMT\n", T0},
	/* 2- and 3-digit years (RFC 2822 4.3) */
	{"Sun, 06 Jul 14 12:56:00 GMT", T0},
	{"Thu, 01 Jan 70 00:00:00 GMT", 0},
	{"Fri, 31 Dec 99 23:59:59 GMT", 946684799},
	{"Sat, 01 Jan 100 00:00:00 GMT", 946684800},
	/* no zone: UTC */
	{"Sun, 06 Jul 2014 12:56:00", T0},
	{"06 Jul 2014", T0 - (12 * 3600 + 56 * 60)},
	/* RFC 850 and asctime */
	{"Sunday, 06-Jul-14 12:56:00 GMT", T0},
	{"Sun Jul  6 12:56:00 2014", T0},
	{"July 6, 2014 12:56:00 GMT", T0},
	/* leap second counts as the next minute's first */
	{"Wed, 31 Dec 2008 23:59:60 GMT", 1230768000},
	/* RFC 3339 / ISO 8601 / W3CDTF */
	{"2014-07-06T12:56:00Z", T0},
	{"2014-07-06T12:56:00.123Z", T0},
	{"2014-07-06T14:56:00+02:00", T0},
	{"2014-07-06T08:56:00-04:00", T0},
	{"2014-07-06T14:56:00+0200", T0},
	{"2014-07-06T14:56:00+02", T0},
	{"2014-07-06t12:56:00z", T0},
	{"2014-07-06 12:56:00Z", T0},
	{"2014-07-06 12:56:00", T0},
	{"2014-07-06 12:56:00 UTC", T0},
	{"2014-07-06T12:56Z", T0},
	{"2014-07-06T12:56:00", T0},
	{"2014-07-06", T0 - (12 * 3600 + 56 * 60)},
	{"2014-07", 1404172800},
	{"20140706T125600Z", T0},
	{"2016-02-29T00:00:00Z", 1456704000},
	{"1969-12-31T23:59:59Z", -1},
};

static const char *const bads[] = {
	"",
	"   ",
	"yesterday",
	"2014",                              /* a bare year is too coarse */
	"2014-13-01",                        /* month 13 */
	"2015-02-29",                        /* not a leap year */
	"2014-07-06T25:00:00Z",              /* hour 25 */
	"2014-07-06T12:60:00Z",              /* minute 60 */
	"2014-07-06T12:56:00+25:00",         /* zone out of range */
	"2014-07-06T12:56:00Zjunk",          /* trailing garbage */
	"2014-7-6",                          /* one-digit fields */
	"Sun, 32 Jul 2014 12:56:00 GMT",     /* day 32 */
	"Sun, 06 Foo 2014 12:56:00 GMT",     /* no such month */
	"Sun, 06 Jul 2014 12:56:00 IST",     /* ambiguous zone */
	"Sun, 06 Jul 2014 12:56:00 A",       /* military zone */
	"Sun, 06 Jul 2014 12:56:00 GMT xyz", /* trailing garbage */
	"Sun, 06 Jul 2014 12:56:00 +200",    /* three-digit numeric zone */
	"Funday, 06 Jul 2014 12:56:00 GMT",  /* not a weekday */
	"Sun, 06 Jul 2014 1256 GMT",         /* no colon */
	"06/07/2014",                        /* day/month order unknowable */
	"1404651360",                        /* Unix seconds are not a feed date */
	"Sun, 06 Jul 2014 12:56:00 (GMT",    /* unclosed comment */
};

static void
test_accepted_forms(void)
{
	for (size_t i = 0; i < sizeof(goods) / sizeof(goods[0]); i++) {
		int64_t t = 42;
		int rc = parse(goods[i].text, &t);

		CHECK(rc == 0);
		CHECK(t == goods[i].want);
		if (rc != 0 || t != goods[i].want)
			fprintf(stderr, "  date '%s': rc %d, got %lld, want %lld\n", goods[i].text, rc,
			        (long long)t, (long long)goods[i].want);
	}
}

static void
test_refused_forms(void)
{
	for (size_t i = 0; i < sizeof(bads) / sizeof(bads[0]); i++) {
		int64_t t = 42;
		int rc = parse(bads[i], &t);

		CHECK(rc == -1);
		CHECK(t == 42);
		if (rc != -1)
			fprintf(stderr, "  date '%s' was accepted as %lld\n", bads[i], (long long)t);
	}
}

/* The length bounds the text: a NUL-free buffer is read only up to len. */
static void
test_length_bounds_input(void)
{
	const char buf[] = "2014-07-06T12:56:00Zgarbage";
	int64_t t = 0;

	CHECK(fr_date_parse(buf, 20, &t) == 0);
	CHECK(t == T0);
	CHECK(fr_date_parse(buf, 21, &t) == -1);
	CHECK(fr_date_parse(NULL, 0, &t) == -1);
}

int
main(void)
{
	RUN(test_accepted_forms);
	RUN(test_refused_forms);
	RUN(test_length_bounds_input);
	CHECK(sizeof(goods) / sizeof(goods[0]) + sizeof(bads) / sizeof(bads[0]) >= 40);
	return TEST_DONE();
}
