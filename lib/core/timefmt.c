/* timefmt.c - Unix seconds and RFC 3339 timestamps, parsed by hand (no
 * locale, no timegm, no NUL terminator needed) so the trace loader can call it
 * on a field in place for every row. */
#include "core/timefmt.h"

#include <time.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>

/* NOTE: callers print these after the quoted input ("time 'x' is neither ..."),
 * so each reads as a predicate. */
static const char WHY_EMPTY[] = "is empty";
static const char WHY_NEITHER[] = "is neither Unix seconds nor RFC 3339";
static const char WHY_DIGITS[] = "has too many digits for Unix seconds";
static const char WHY_MONTH[] = "has a month outside 1-12";
static const char WHY_DAY[] = "has a day outside its month";
static const char WHY_HOUR[] = "has an hour outside 0-23";
static const char WHY_MINUTE[] = "has a minute outside 0-59";
static const char WHY_SECOND[] = "has a second outside 0-60";
static const char WHY_OFFSET[] = "has a UTC offset beyond +-23:59";
static const char WHY_ZONE[] = "lacks a UTC offset ('Z' or '+HH:MM')";

static int
fail(const char **why, const char *reason)
{
	if (why)
		*why = reason;
	return -1;
}

static int
isdig(char c)
{
	return c >= '0' && c <= '9';
}

/* Value of the k digits at s, or -1 if any is not a digit. */
static long
digits(const char *s, size_t k)
{
	long v = 0;

	for (size_t i = 0; i < k; i++) {
		if (!isdig(s[i]))
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

/* The fraction ".ddd" at s[0..n): its value in [0, 1). Digits past the
 * 18th cannot change a double and are only checked. */
static double
fraction(const char *s, size_t n)
{
	uint64_t num = 0, den = 1;

	for (size_t i = 1; i < n; i++) {
		if (i <= 18) {
			num = num * 10 + (uint64_t)(s[i] - '0');
			den *= 10;
		}
	}
	return (double)num / (double)den;
}

/* Length of the digit run at s[0..n). */
static size_t
digit_run(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n && isdig(s[i]))
		i++;
	return i;
}

static int
is_leap(long y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

static unsigned
days_in_month(long y, unsigned m)
{
	static const unsigned char dim[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};

	return m == 2 && is_leap(y) ? 29 : dim[m - 1];
}

/* "-5", "1325376011", "1325376011.25": optional minus, digits, optional
 * '.' followed by at least one digit. */
static int
parse_unix(const char *s, size_t n, double *out_s, const char **why)
{
	size_t i = 0, k;
	int neg = 0;
	int64_t v = 0;
	double t;

	if (s[0] == '-') {
		neg = 1;
		i = 1;
	}
	k = digit_run(s + i, n - i);
	if (k == 0)
		return fail(why, WHY_NEITHER);
	if (k > 15) /* beyond 2^53: no longer exact, and no plausible time */
		return fail(why, WHY_DIGITS);
	for (size_t j = 0; j < k; j++)
		v = v * 10 + (s[i + j] - '0');
	i += k;
	t = (double)v;
	if (i < n) {
		size_t f;

		if (s[i] != '.')
			return fail(why, WHY_NEITHER);
		f = digit_run(s + i + 1, n - i - 1);
		if (f == 0 || i + 1 + f != n)
			return fail(why, WHY_NEITHER);
		t += fraction(s + i, n - i);
	}
	*out_s = neg ? -t : t;
	return 0;
}

/* YYYY-MM-DD[Tt ]HH:MM:SS[.frac](Z|z|+HH:MM|-HH:MM) */
static int
parse_rfc3339(const char *s, size_t n, double *out_s, const char **why)
{
	long y, mo, d, h, mi, sec, oh = 0, om = 0;
	double frac = 0;
	size_t i;
	int sign = 0;

	if (n < 19 || s[4] != '-' || s[7] != '-' || s[13] != ':' || s[16] != ':')
		return fail(why, WHY_NEITHER);
	if (s[10] != 'T' && s[10] != 't' && s[10] != ' ')
		return fail(why, WHY_NEITHER);
	y = digits(s, 4);
	mo = digits(s + 5, 2);
	d = digits(s + 8, 2);
	h = digits(s + 11, 2);
	mi = digits(s + 14, 2);
	sec = digits(s + 17, 2);
	if (y < 0 || mo < 0 || d < 0 || h < 0 || mi < 0 || sec < 0)
		return fail(why, WHY_NEITHER);

	i = 19;
	if (i < n && s[i] == '.') {
		size_t f = digit_run(s + i + 1, n - i - 1);

		if (f == 0)
			return fail(why, WHY_NEITHER);
		frac = fraction(s + i, f + 1);
		i += 1 + f;
	}
	if (i == n - 1 && (s[i] == 'Z' || s[i] == 'z')) {
		/* UTC */
	} else if (i + 6 == n && (s[i] == '+' || s[i] == '-') && s[i + 3] == ':') {
		sign = s[i] == '-' ? -1 : 1;
		oh = digits(s + i + 1, 2);
		om = digits(s + i + 4, 2);
		if (oh < 0 || om < 0)
			return fail(why, WHY_NEITHER);
	} else if (i == n) {
		return fail(why, WHY_ZONE);
	} else {
		return fail(why, WHY_NEITHER);
	}

	if (mo < 1 || mo > 12)
		return fail(why, WHY_MONTH);
	if (d < 1 || (unsigned)d > days_in_month(y, (unsigned)mo))
		return fail(why, WHY_DAY);
	if (h > 23)
		return fail(why, WHY_HOUR);
	if (mi > 59)
		return fail(why, WHY_MINUTE);
	if (sec > 60) /* 60: a leap second, counted as the next minute's first */
		return fail(why, WHY_SECOND);
	if (oh > 23 || om > 59)
		return fail(why, WHY_OFFSET);

	*out_s = (double)fr_days_from_civil(y, (unsigned)mo, (unsigned)d) * 86400.0 +
	         (double)(h * 3600 + mi * 60 + sec) + frac - (double)(sign * (oh * 3600 + om * 60));
	return 0;
}

int
fr_time_parse(const char *s, size_t n, double *out_s, const char **why)
{
	if (n == 0)
		return fail(why, WHY_EMPTY);
	/* Four digits then '-' can only be a date: Unix seconds have no inner '-'. */
	if (n >= 5 && s[4] == '-' && digits(s, 4) >= 0)
		return parse_rfc3339(s, n, out_s, why);
	return parse_unix(s, n, out_s, why);
}

/* Howard Hinnant's civil_from_days, the inverse of fr_days_from_civil. */
static void
civil_from_days(long z, long *y, unsigned *m, unsigned *d)
{
	long era, yy;
	unsigned doe, yoe, doy, mp;

	z += 719468;
	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = (unsigned)(z - era * 146097);
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	yy = (long)yoe + era * 400;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	*d = doy - (153 * mp + 2) / 5 + 1;
	*m = mp < 10 ? mp + 3 : mp - 9;
	*y = yy + (*m <= 2);
}

char *
fr_time_format(double t_s, char *buf, size_t len)
{
	long y, days, secs;
	unsigned m, d;
	double t;

	if (!buf || len == 0)
		return buf;
	/* Beyond +-1e15 s (some 30 million years) the calendar is meaningless. */
	if (!isfinite(t_s) || fabs(t_s) > 1e15) {
		snprintf(buf, len, "%s", "invalid-time");
		return buf;
	}
	t = floor(t_s);
	days = (long)floor(t / 86400.0);
	secs = (long)(t - (double)days * 86400.0);
	civil_from_days(days, &y, &m, &d);
	snprintf(buf, len, "%04ld-%02u-%02uT%02ld:%02ld:%02ldZ", y, m, d, secs / 3600,
	         secs / 60 % 60, secs % 60);
	return buf;
}

/* Howard Hinnant's days_from_civil: shifts the year to start in March so the
 * leap day falls last, then counts whole 400-year eras. */
long
fr_days_from_civil(long y, unsigned m, unsigned d)
{
	long era;
	unsigned yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = (unsigned)(y - era * 400);
	doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + (long)doe - 719468;
}

double
fr_time_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
