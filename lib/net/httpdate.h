/* httpdate.h - HTTP header values that carry times: HTTP dates (RFC 9110:
 * IMF-fixdate, RFC 850, asctime, through curl_getdate) read and written,
 * Retry-After and Cache-Control. Pure functions: the caller passes now. */
#ifndef FR_NET_HTTPDATE_H
#define FR_NET_HTTPDATE_H

#include <stddef.h>
#include <stdint.h>

/* Buffer size that always fits a formatted date. */
#define FR_HTTPDATE_LEN 32

/* Writes t_s (Unix seconds, UTC) as IMF-fixdate ("Sun, 06 Nov 1994 08:49:37
 * GMT") into buf (len bytes, at least FR_HTTPDATE_LEN for years 0-9999;
 * always NUL-terminated; a time outside those years is written
 * "invalid-time"), without the locale-dependent strftime. The form is also a
 * valid RFC 822 date, as RSS wants. Returns buf. */
char *fr_http_date_format(int64_t t_s, char *buf, size_t len);

/* Parses an HTTP date ("Sun, 06 Nov 1994 08:49:37 GMT" and the obsolete
 * forms). Returns 0 and sets *out_s (Unix seconds), or -1 (*out_s untouched). */
int fr_http_date_parse(const char *s, double *out_s);

/* The absolute Unix time a Retry-After value points at: now_s + seconds for
 * delay-seconds ("120"; surrounding blanks allowed; capped at 10 years), or
 * the date for an HTTP date. Returns -1 for an empty or unparsable value. */
double fr_http_retry_after(const char *value, double now_s);

/* Reads a Cache-Control value: sets *max_age_s to the first max-age
 * directive's seconds (capped at 10 years; -1 when absent or malformed) and
 * *no_store to 1 when no-store or no-cache is present, else 0. Directive
 * names are case-insensitive; quoted values are skipped over. Either out
 * pointer may be NULL. */
void fr_http_cache_control(const char *value, double *max_age_s, int *no_store);

#endif
