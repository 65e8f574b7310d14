/* date.h - the dates found in feeds: RFC 822/1123 with the deviations real
 * feeds carry, RFC 850 and asctime, and RFC 3339 / ISO 8601 / W3CDTF. What
 * cannot be read exactly is refused, never guessed. */
#ifndef FR_PARSE_DATE_H
#define FR_PARSE_DATE_H

#include <stddef.h>
#include <stdint.h>

/* Parses the len bytes at s (not necessarily NUL-terminated; blanks around
 * are ignored) as a feed date. Returns 0 and sets *out_s (Unix seconds, UTC;
 * fractions of a second dropped), or -1 leaving *out_s alone when the text is
 * not a date this parser can read exactly.
 *
 * Accepted (see docs/parse.md for the full table):
 *   RFC 822/1123 "Sun, 06 Jul 2014 12:56:00 GMT", and with: no weekday, a
 *   wrong weekday (ignored), a full weekday or month name, no comma, 1-digit
 *   day, no seconds, 2-digit year (00-49 -> 20xx, 50-99 -> 19xx, RFC 2822
 *   4.3), 3-digit year (+1900), '-' between day, month and year (RFC 850),
 *   numeric zones "+0200" "+02:00" "+02", "GMT+2", named zones (UT, UTC, GMT,
 *   Z, the North American zones and a table of unambiguous others), no zone
 *   (UTC); asctime "Sun Nov  6 08:49:37 1994".
 *   ISO 8601 / RFC 3339 / W3CDTF: "2014-07-06", "2014-07", "2014-07-06T12:56Z",
 *   "2014-07-06T12:56:00.5+02:00", 't' or ' ' as separator, zone "+0200" or
 *   "+02", no zone (UTC), a trailing " UTC"/" GMT"; basic form
 *   "20140706T125600Z".
 * Refused: a bare year, ambiguous zone names (IST, military letters other
 * than Z), out-of-range fields (Feb 30, hour 25), trailing garbage. */
int fr_date_parse(const char *s, size_t len, int64_t *out_s);

#endif
