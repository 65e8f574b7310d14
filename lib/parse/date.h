/* date.h - the dates found in feeds: RFC 822/1123 with the deviations real
 * feeds carry, RFC 850 and asctime, and RFC 3339 / ISO 8601 / W3CDTF. What
 * cannot be read exactly is refused, never guessed. */
#ifndef FR_PARSE_DATE_H
#define FR_PARSE_DATE_H

#include <stddef.h>
#include <stdint.h>

/* Parses the len bytes at s (not necessarily NUL-terminated; blanks around
 * are ignored) as a feed date. Returns 0 and sets *out_s (Unix seconds, UTC;
 * fractions of a second dropped; always within years 1-9999), or -1 leaving
 * *out_s alone when the text is not a date this parser can read exactly.
 *
 * The forms are those feedparser reads (its datetimes/ handlers), with its
 * results; docs/parse.md has the full table and the deliberate differences.
 *   RFC 822/1123 "Sun, 06 Jul 2014 12:56:00 GMT", and with: no weekday, a
 *   wrong weekday (ignored), a full or Greek weekday, a month's full name or
 *   any prefix of it from three letters ("Sept"), a Greek or Hungarian month,
 *   no comma, a comma without a space ("Fri,24 Nov") or after the month
 *   ("13 Feb, 2012"), 1-digit day, 1-digit time fields, no seconds, no time,
 *   2-digit year (00-49 -> 20xx, 50-99 -> 19xx, RFC 2822 4.3), 3-digit year
 *   (+1900), '-' between day, month and year (RFC 850), numeric zones "+0200"
 *   "+02:00" "+02", "GMT+2", "GMT-01:01", "Etc/GMT", named zones (UT, UTC,
 *   GMT, Z, the North American zones with and without S/D, a table of
 *   unambiguous others), no zone (UTC), a trailing "(comment)".
 *   Month first: asctime "Sun Nov  6 08:49:37 1994", with a zone before the
 *   year "Sun Jul 15 01:16:00 +0000 2012", JavaScript's Date.toString "Thu
 *   Aug 30 2012 17:26:16 GMT+0200 (CEST)", "July 6, 2014 12:56 GMT".
 *   Perforce "Fri, 2006/09/15 08:19:53 EDT".
 *   ISO 8601 / RFC 3339 / W3CDTF: "2014-07-06", "2014-7-6", "2014-07",
 *   "2014", "2014-187" (ordinal), "2003-012-31", "20140706", "2014187", and
 *   with two-digit years of this century "03-12-31", "031231", "03-335",
 *   "03335", "-03-12", "-0312"; then "T12:56Z", "T12:56:00.5+02:00", "T9:15",
 *   "T12" ('t' or blanks as separator; after a basic date "T125600"), zone
 *   "+0200", "+02", a named zone, or none (UTC).
 *   Hungarian "2004-július-13T9:15-05:00"; Korean "2004-05-25 오후 11:23:17"
 *   and "2004년 05월 28일 01:31:15" (Korea's time, +09:00).
 * Refused: ambiguous zone names (IST, military letters other than Z),
 * out-of-range fields (Feb 30, hour 25), a zone after a date with no time,
 * trailing garbage. */
int fr_date_parse(const char *s, size_t len, int64_t *out_s);

/* Flags of fr_date_parse_ex. FR_DATE_STRICT reads only the forms whose
 * order of fields cannot be mistaken outside a feed's date element: no
 * two-digit-year or ordinal ISO forms ("03-12-31" may be day-month-year in a
 * page's text), no bare year, no "YYYY/MM/DD" (Perforce), no Korean AM/PM. */
#define FR_DATE_STRICT 1u

/* fr_date_parse with flags (0 is fr_date_parse). */
int fr_date_parse_ex(const char *s, size_t len, unsigned flags, int64_t *out_s);

/* For the tests: 1 when the named-zone table is sorted (it is searched with
 * bsearch), else 0. */
int fr_date_zones_sorted(void);

#endif
