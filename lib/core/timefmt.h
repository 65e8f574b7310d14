/* timefmt.h - timestamps in traces and output: integer or decimal Unix
 * seconds, and RFC 3339 (a profile of ISO 8601). Times are double seconds
 * since the Unix epoch, UTC. */
#ifndef FR_CORE_TIMEFMT_H
#define FR_CORE_TIMEFMT_H

#include <stddef.h>

/* Parses the n bytes at s (not necessarily NUL-terminated) as either Unix
 * seconds ("1325376011", "-5", "1325376011.25"; at most 15 integer digits,
 * no exponent) or RFC 3339 ("2012-10-01T00:00:00Z", "2012-10-01
 * 00:00:00+02:00", fractional seconds allowed; 't'/'z' accepted in lower
 * case; the UTC offset is required). Fields are range-checked: month 1-12,
 * day within its month (leap years counted), hour 0-23, minute 0-59,
 * second 0-60 (a leap second counts as the next minute's first), offset
 * within +-23:59. Surrounding blanks are not allowed. Returns 0 and sets
 * *out_s, or -1 (and leaves *out_s alone) with a short reason in *why (a
 * static string) when why is not NULL. The reason reads as a predicate to
 * print after the quoted input: "time '%s' %s" gives e.g. "time 'abc' is
 * neither Unix seconds nor RFC 3339". */
int fr_time_parse(const char *s, size_t n, double *out_s, const char **why);

/* The wall clock now, in Unix seconds (for the live crawler, the fetcher,
 * the store and discovery; the scheduler and policies never read it). */
double fr_time_now(void);

/* Writes t as RFC 3339 UTC with second precision ("2012-10-01T00:00:00Z";
 * fractions are dropped, rounding toward the past) into buf (at least 21
 * bytes for years 0-9999; always NUL-terminated, truncated if short). A NaN,
 * infinite or absurd (|t| > 1e15) time is written as "invalid-time".
 * Returns buf. */
char *fr_time_format(double t_s, char *buf, size_t len);

/* Days since 1970-01-01 (negative before it) of a proleptic Gregorian date
 * (any year; m 1-12 and d 1-31 are not checked here). */
long fr_days_from_civil(long y, unsigned m, unsigned d);

#endif
