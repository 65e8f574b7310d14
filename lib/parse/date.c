/* date.c - feed dates: one small scanner for ISO 8601 / RFC 3339 / W3CDTF and
 * one for RFC 822 and its relatives (RFC 850, asctime, common deviations).
 * Every field is range-checked; anything left over makes the date unreadable. */
#include "parse/date.h"

#include "core/timefmt.h"

#include <string.h>

struct cur {
	const char *p, *e;
};

static int
is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static int
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int
is_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static char
lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

static void
skip_space(struct cur *c)
{
	while (c->p < c->e && is_space(*c->p))
		c->p++;
}

/* Reads between min and max digits; returns how many were read (0 if fewer
 * than min, leaving the cursor alone). */
static int
digits(struct cur *c, int min, int max, long *out)
{
	const char *p = c->p;
	long v = 0;
	int n = 0;

	while (p < c->e && n < max && is_digit(*p)) {
		if (v < 100000000000000L) /* long digit runs (fractions) saturate */
			v = v * 10 + (*p - '0');
		p++;
		n++;
	}
	if (n < min)
		return 0;
	c->p = p;
	*out = v;
	return n;
}

/* A run of letters, lower-cased into buf (at most cap-1 kept; longer words
 * are returned truncated and flagged by a length >= cap). */
static size_t
word(struct cur *c, char *buf, size_t cap)
{
	size_t n = 0;

	while (c->p < c->e && is_alpha(*c->p)) {
		if (n + 1 < cap)
			buf[n] = lower(*c->p);
		n++;
		c->p++;
	}
	buf[n < cap ? n : cap - 1] = '\0';
	return n;
}

static int
accept(struct cur *c, char ch)
{
	if (c->p < c->e && *c->p == ch) {
		c->p++;
		return 1;
	}
	return 0;
}

static int
leap(long y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

static int
days_in_month(long y, long m)
{
	static const int dim[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};

	return m == 2 && leap(y) ? 29 : dim[m - 1];
}

/* Checks the fields and sets *out. off_s is the zone's offset east of UTC. */
static int
assemble(long y, long mo, long d, long h, long mi, long sec, long off_s, int64_t *out)
{
	if (y < 1000 || y > 9999 || mo < 1 || mo > 12 || d < 1 || d > days_in_month(y, mo))
		return -1;
	if (h < 0 || h > 23 || mi < 0 || mi > 59 || sec < 0 || sec > 60)
		return -1;
	if (off_s <= -24 * 3600 || off_s >= 24 * 3600)
		return -1;
	*out = (int64_t)fr_days_from_civil(y, (unsigned)mo, (unsigned)d) * 86400 + h * 3600 +
	       mi * 60 + sec - off_s;
	return 0;
}

/* "+hh:mm", "+hhmm", "+hh" or "+h" after the sign; sets *off_s. */
static int
numeric_zone(struct cur *c, long *off_s)
{
	int sign = 1;
	long hh, mm = 0;
	int n;

	if (accept(c, '-'))
		sign = -1;
	else if (!accept(c, '+'))
		return -1;
	n = digits(c, 1, 4, &hh);
	if (n == 4) {
		mm = hh % 100;
		hh /= 100;
	} else if (n == 3 || n == 0) {
		return -1;
	} else if (accept(c, ':')) {
		if (digits(c, 2, 2, &mm) != 2)
			return -1;
	}
	if (hh > 23 || mm > 59)
		return -1;
	*off_s = sign * (hh * 3600 + mm * 60);
	return 0;
}

/* Named zones. Ambiguous names (IST, the military letters but Z) are left
 * out on purpose: a wrong zone is a guess. CST is North American Central,
 * as in RFC 822. Sorted by name for the reader. */
static const struct zone {
	const char *name;
	int off_min;
} zones[] = {
	{"acdt", 630}, {"acst", 570}, {"aedt", 660}, {"aest", 600}, {"akdt", -480},
	{"akst", -540}, {"awst", 480}, {"bst", 60}, {"cdt", -300}, {"cest", 120},
	{"cet", 60}, {"cst", -360}, {"edt", -240}, {"eest", 180}, {"eet", 120},
	{"est", -300}, {"gmt", 0}, {"hkt", 480}, {"hst", -600}, {"jst", 540},
	{"kst", 540}, {"mdt", -360}, {"mest", 120}, {"met", 60}, {"msk", 180},
	{"mst", -420}, {"nzdt", 780}, {"nzst", 720}, {"pdt", -420}, {"pst", -480},
	{"sgt", 480}, {"ut", 0}, {"utc", 0}, {"west", 60}, {"wet", 0}, {"z", 0},
};

static int
named_zone(const char *w, long *off_s)
{
	for (size_t i = 0; i < sizeof(zones) / sizeof(zones[0]); i++) {
		if (!strcmp(w, zones[i].name)) {
			*off_s = (long)zones[i].off_min * 60;
			return 0;
		}
	}
	return -1;
}

/* An optional zone, then the end of input (blanks and one parenthesised
 * comment such as "(PST)" allowed). No zone means UTC. */
static int
zone_and_end(struct cur *c, long *off_s)
{
	char w[8];

	*off_s = 0;
	skip_space(c);
	if (c->p < c->e && (*c->p == '+' || *c->p == '-')) {
		if (numeric_zone(c, off_s) != 0)
			return -1;
	} else if (c->p < c->e && is_alpha(*c->p)) {
		if (word(c, w, sizeof(w)) >= sizeof(w) || named_zone(w, off_s) != 0)
			return -1;
		/* "GMT+2", "UTC-05:00" */
		if ((!strcmp(w, "gmt") || !strcmp(w, "utc") || !strcmp(w, "ut")) && c->p < c->e &&
		    (*c->p == '+' || *c->p == '-') && numeric_zone(c, off_s) != 0)
			return -1;
	}
	skip_space(c);
	if (accept(c, '(')) {
		while (c->p < c->e && *c->p != ')' && *c->p != '(')
			c->p++;
		if (!accept(c, ')'))
			return -1;
		skip_space(c);
	}
	return c->p == c->e ? 0 : -1;
}

/* ISO 8601 / RFC 3339 / W3CDTF. The cursor is at four digits. */
static int
parse_iso(struct cur *c, int64_t *out)
{
	long y, mo, d = 1, h = 0, mi = 0, sec = 0, off = 0, frac;
	int basic = 0;

	if (digits(c, 4, 4, &y) != 4)
		return -1;
	if (accept(c, '-')) {
		if (digits(c, 2, 2, &mo) != 2)
			return -1;
		if (accept(c, '-') && digits(c, 2, 2, &d) != 2)
			return -1;
	} else {
		/* Basic form: YYYYMMDD. A bare year is refused. */
		if (digits(c, 2, 2, &mo) != 2 || digits(c, 2, 2, &d) != 2)
			return -1;
		basic = 1;
	}
	if (c->p < c->e && (*c->p == 'T' || *c->p == 't' ||
	                    (*c->p == ' ' && c->p + 1 < c->e && is_digit(c->p[1])))) {
		c->p++;
		if (digits(c, 2, 2, &h) != 2)
			return -1;
		if (!accept(c, ':') && !basic)
			return -1;
		if (digits(c, 2, 2, &mi) != 2)
			return -1;
		if (accept(c, ':') || (basic && c->p < c->e && is_digit(*c->p))) {
			if (digits(c, 2, 2, &sec) != 2)
				return -1;
			if ((accept(c, '.') || accept(c, ',')) && digits(c, 1, 64, &frac) == 0)
				return -1;
		}
		if (c->p < c->e && (*c->p == 'Z' || *c->p == 'z')) {
			c->p++;
			skip_space(c);
			if (c->p != c->e)
				return -1;
		} else if (zone_and_end(c, &off) != 0) {
			return -1;
		}
	} else {
		skip_space(c);
		if (c->p != c->e)
			return -1;
	}
	return assemble(y, mo, d, h, mi, sec, off, out);
}

/* Month names: three-letter abbreviations, full names and "sept". */
static long
month_of(const char *w, size_t n)
{
	static const char *const full[12] = {"january", "february", "march",     "april",
	                                     "may",     "june",     "july",      "august",
	                                     "september", "october", "november", "december"};

	if (n == 4 && !strcmp(w, "sept"))
		return 9;
	for (long i = 0; i < 12; i++) {
		size_t fl = strlen(full[i]);

		if ((n == 3 || n == fl) && !strncmp(w, full[i], n) && n <= fl)
			return i + 1;
	}
	return 0;
}

static int
is_weekday(const char *w, size_t n)
{
	static const char *const full[7] = {"monday", "tuesday", "wednesday", "thursday",
	                                    "friday", "saturday", "sunday"};

	for (int i = 0; i < 7; i++) {
		size_t fl = strlen(full[i]);

		if ((n == 3 || n == fl) && n <= fl && !strncmp(w, full[i], n))
			return 1;
	}
	return !strcmp(w, "tues") || !strcmp(w, "thur") || !strcmp(w, "thurs");
}

/* "hh:mm[:ss]" */
static int
clock_time(struct cur *c, long *h, long *mi, long *sec)
{
	long frac;

	*sec = 0;
	if (digits(c, 1, 2, h) == 0 || !accept(c, ':') || digits(c, 2, 2, mi) != 2)
		return -1;
	if (accept(c, ':')) {
		if (digits(c, 2, 2, sec) != 2)
			return -1;
		if (accept(c, '.') && digits(c, 1, 64, &frac) == 0)
			return -1;
	}
	return 0;
}

static long
full_year(long y, int ndigits)
{
	if (ndigits == 2)
		return y < 50 ? 2000 + y : 1900 + y;
	if (ndigits == 3)
		return 1900 + y;
	return y;
}

/* RFC 822 family. */
static int
parse_rfc822(struct cur *c, int64_t *out)
{
	char w[16];
	size_t n;
	long y, mo, d, h = 0, mi = 0, sec = 0, off = 0;
	int ny;

	skip_space(c);
	if (c->p < c->e && is_alpha(*c->p)) {
		const char *save = c->p;

		n = word(c, w, sizeof(w));
		if (n < sizeof(w) && is_weekday(w, n)) {
			accept(c, '.');
			skip_space(c);
			accept(c, ',');
			skip_space(c);
		} else {
			c->p = save;
		}
	}
	if (c->p < c->e && is_alpha(*c->p)) {
		/* asctime "Nov  6 08:49:37 1994" or "July 6, 2014 12:56:00 +0000" */
		n = word(c, w, sizeof(w));
		if (n >= sizeof(w) || (mo = month_of(w, n)) == 0)
			return -1;
		accept(c, '.');
		skip_space(c);
		if (digits(c, 1, 2, &d) == 0)
			return -1;
		skip_space(c);
		if (accept(c, ',')) {
			skip_space(c);
			if ((ny = digits(c, 4, 4, &y)) != 4)
				return -1;
			skip_space(c);
			if (c->p < c->e && is_digit(*c->p) && clock_time(c, &h, &mi, &sec) != 0)
				return -1;
		} else {
			if (clock_time(c, &h, &mi, &sec) != 0)
				return -1;
			skip_space(c);
			if ((ny = digits(c, 4, 4, &y)) != 4)
				return -1;
		}
		if (zone_and_end(c, &off) != 0)
			return -1;
		return assemble(y, mo, d, h, mi, sec, off, out);
	}
	/* "06 Jul 2014 12:56:00 GMT", "6-Jul-14 12:56 +0200" */
	if (digits(c, 1, 2, &d) == 0)
		return -1;
	if (!accept(c, '-'))
		skip_space(c);
	n = word(c, w, sizeof(w));
	if (n == 0 || n >= sizeof(w) || (mo = month_of(w, n)) == 0)
		return -1;
	accept(c, '.');
	if (!accept(c, '-'))
		skip_space(c);
	ny = digits(c, 2, 4, &y);
	if (ny == 0)
		return -1;
	y = full_year(y, ny);
	skip_space(c);
	if (c->p < c->e && is_digit(*c->p) && clock_time(c, &h, &mi, &sec) != 0)
		return -1;
	if (zone_and_end(c, &off) != 0)
		return -1;
	return assemble(y, mo, d, h, mi, sec, off, out);
}

int
fr_date_parse(const char *s, size_t len, int64_t *out_s)
{
	struct cur c = {s, s + len};
	struct cur iso;
	int64_t t;

	if (!s)
		return -1;
	skip_space(&c);
	while (c.e > c.p && is_space(c.e[-1]))
		c.e--;
	if (c.p == c.e)
		return -1;
	iso = c;
	if (c.e - c.p >= 5 && is_digit(c.p[0]) && is_digit(c.p[1]) && is_digit(c.p[2]) &&
	    is_digit(c.p[3]) && (c.p[4] == '-' || is_digit(c.p[4]))) {
		if (parse_iso(&iso, &t) != 0)
			return -1;
	} else if (parse_rfc822(&c, &t) != 0) {
		return -1;
	}
	*out_s = t;
	return 0;
}
