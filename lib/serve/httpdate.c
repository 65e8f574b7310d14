/* httpdate.c - IMF-fixdate, written without the C library's
 * locale-dependent strftime. */
#include "serve/httpdate.h"

#include <stdio.h>
#include <time.h>

static const char WDAY[7][4] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
static const char MONTH[12][4] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                  "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};

char *
fr_serve_httpdate_format(int64_t t_s, char *buf, size_t len)
{
	time_t t = (time_t)t_s;
	struct tm tm;

	if (len == 0)
		return buf;
	if (!gmtime_r(&t, &tm) || tm.tm_year + 1900 < 0 || tm.tm_year + 1900 > 9999) {
		snprintf(buf, len, "invalid-time");
		return buf;
	}
	snprintf(buf, len, "%s, %02d %s %04d %02d:%02d:%02d GMT", WDAY[tm.tm_wday], tm.tm_mday,
	         MONTH[tm.tm_mon], tm.tm_year + 1900, tm.tm_hour, tm.tm_min, tm.tm_sec);
	return buf;
}
