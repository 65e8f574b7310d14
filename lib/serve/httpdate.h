/* httpdate.h - writing HTTP dates (RFC 9110 IMF-fixdate, "Sun, 06 Nov 1994
 * 08:49:37 GMT") for Last-Modified, Retry-After and RSS pubDate. Reading
 * them is net/httpdate.h's fr_http_date_parse. */
#ifndef FR_SERVE_HTTPDATE_H
#define FR_SERVE_HTTPDATE_H

#include <stddef.h>
#include <stdint.h>

/* Buffer size that always fits a formatted date. */
#define FR_HTTPDATE_LEN 32

/* Writes t_s (Unix seconds, UTC) as IMF-fixdate into buf (len bytes, at
 * least FR_HTTPDATE_LEN for years 0-9999; always NUL-terminated; a time
 * outside those years is written "invalid-time"). The form is also a valid
 * RFC 822 date, as RSS wants. Returns buf. */
char *fr_serve_httpdate_format(int64_t t_s, char *buf, size_t len);

#endif
