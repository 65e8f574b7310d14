/* httpdate.c - HTTP dates read through curl_getdate and written without the
 * locale-dependent strftime, and the two header values (Retry-After,
 * Cache-Control) whose times the crawl loop schedules by. */
#include "net/httpdate.h"

#include <curl/curl.h>
#include <stdio.h>
#include <stddef.h>
#include <string.h>
#include <time.h>

#define TEN_YEARS_S (10.0 * 365 * 86400)

static int
is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static int
lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

int
fr_http_date_parse(const char *s, double *out_s)
{
	time_t t;

	if (!s)
		return -1;
	while (is_blank(*s))
		s++;
	if (!*s)
		return -1;
	t = curl_getdate(s, NULL);
	if (t == (time_t)-1)
		return -1;
	*out_s = (double)t;
	return 0;
}

double
fr_http_retry_after(const char *value, double now_s)
{
	const char *p = value;
	double secs = 0, at;

	if (!p)
		return -1;
	while (is_blank(*p))
		p++;
	if (*p >= '0' && *p <= '9') {
		while (*p >= '0' && *p <= '9') {
			if (secs < TEN_YEARS_S)
				secs = secs * 10 + (*p - '0');
			p++;
		}
		while (is_blank(*p))
			p++;
		if (*p) /* "120abc", or a date starting with a digit ("06 Nov 1994 ...") */
			return fr_http_date_parse(value, &at) == 0 ? at : -1;
		if (secs > TEN_YEARS_S)
			secs = TEN_YEARS_S;
		return now_s + secs;
	}
	return fr_http_date_parse(p, &at) == 0 ? at : -1;
}

/* Whether the directive name at s (n bytes) is name, ignoring case. */
static int
name_is(const char *s, size_t n, const char *name)
{
	if (strlen(name) != n)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (lower((unsigned char)s[i]) != name[i])
			return 0;
	return 1;
}

void
fr_http_cache_control(const char *value, double *max_age_s, int *no_store)
{
	const char *p = value;
	double age = -1;
	int seen_age = 0, ns = 0;

	while (p && *p) {
		const char *name, *val = NULL;
		size_t nlen, vlen = 0;

		while (is_blank(*p) || *p == ',')
			p++;
		if (!*p)
			break;
		name = p;
		while (*p && *p != '=' && *p != ',' && !is_blank(*p))
			p++;
		nlen = (size_t)(p - name);
		while (is_blank(*p))
			p++;
		if (*p == '=') {
			p++;
			while (is_blank(*p))
				p++;
			if (*p == '"') {
				val = ++p;
				while (*p && *p != '"') {
					if (*p == '\\' && p[1])
						p++;
					p++;
				}
				vlen = (size_t)(p - val);
				if (*p == '"')
					p++;
			} else {
				val = p;
				while (*p && *p != ',' && !is_blank(*p))
					p++;
				vlen = (size_t)(p - val);
			}
		}
		/* Skip whatever is left of this directive. */
		while (*p && *p != ',')
			p++;
		if (name_is(name, nlen, "max-age") && !seen_age) {
			double v = 0;
			size_t i;

			seen_age = 1;
			for (i = 0; val && i < vlen && val[i] >= '0' && val[i] <= '9'; i++)
				if (v < TEN_YEARS_S)
					v = v * 10 + (val[i] - '0');
			/* RFC 9111 wants the token form; a quoted number is accepted. */
			if (val && vlen > 0 && i == vlen)
				age = v > TEN_YEARS_S ? TEN_YEARS_S : v;
		} else if (name_is(name, nlen, "no-store") || name_is(name, nlen, "no-cache")) {
			ns = 1;
		}
	}
	if (max_age_s)
		*max_age_s = age;
	if (no_store)
		*no_store = ns;
}

static const char WDAY[7][4] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
static const char MONTH[12][4] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                  "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};

char *
fr_http_date_format(int64_t t_s, char *buf, size_t len)
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
