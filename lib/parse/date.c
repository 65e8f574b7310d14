/* date.c - feed dates: one scanner for the forms that start with digits
 * (ISO 8601 / RFC 3339 / W3CDTF and their short, ordinal and Korean forms) and
 * one for the forms that start with words (RFC 822 and its relatives: RFC 850,
 * asctime, JavaScript's Date.toString, Perforce, Greek). The forms are
 * feedparser's (feedparser/datetimes/); every field is range-checked, and
 * anything left over makes the date unreadable. */
#include "parse/date.h"

#include "core/timefmt.h"

#include <stdlib.h>
#include <string.h>

/* 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z */
#define MIN_T (-62135596800LL)
#define MAX_T 253402300799LL

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

/* A letter of a word: ASCII letters and any byte of a multi-byte UTF-8
 * sequence (Greek and Hungarian names). */
static int
is_wordbyte(char c)
{
	return is_alpha(c) || (unsigned char)c >= 0x80;
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

static int
at_digit(const struct cur *c)
{
	return c->p < c->e && is_digit(*c->p);
}

/* The number of digits starting at the cursor. */
static size_t
digit_run(const struct cur *c)
{
	const char *p = c->p;

	while (p < c->e && is_digit(*p))
		p++;
	return (size_t)(p - c->p);
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

/* A word (see is_wordbyte), ASCII lower-cased into buf (at most cap-1
 * bytes kept; longer words are returned truncated and flagged by a length
 * >= cap). */
static size_t
word(struct cur *c, char *buf, size_t cap)
{
	size_t n = 0;

	while (c->p < c->e && is_wordbyte(*c->p)) {
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

/* Accepts the bytes of lit (a UTF-8 word such as a Korean marker). */
static int
accept_lit(struct cur *c, const char *lit)
{
	size_t n = strlen(lit);

	if ((size_t)(c->e - c->p) >= n && !memcmp(c->p, lit, n)) {
		c->p += n;
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

/* Turns day-of-year ord of year y into month and day. */
static int
from_ordinal(long y, long ord, long *mo, long *d)
{
	if (ord < 1 || ord > (leap(y) ? 366 : 365))
		return -1;
	for (*mo = 1; ord > days_in_month(y, *mo); (*mo)++)
		ord -= days_in_month(y, *mo);
	*d = ord;
	return 0;
}

/* Checks the fields and sets *out. off_s is the zone's offset east of UTC.
 * The instant must lie in years 1-9999 (UTC), as a Python datetime must. */
static int
assemble(long y, long mo, long d, long h, long mi, long sec, long off_s, int64_t *out)
{
	int64_t t;

	if (y < 1 || y > 9999 || mo < 1 || mo > 12 || d < 1 || d > days_in_month(y, mo))
		return -1;
	if (h < 0 || h > 23 || mi < 0 || mi > 59 || sec < 0 || sec > 60)
		return -1;
	if (off_s <= -24 * 3600 || off_s >= 24 * 3600)
		return -1;
	t = (int64_t)fr_days_from_civil(y, (unsigned)mo, (unsigned)d) * 86400 + h * 3600 + mi * 60 +
	    sec - off_s;
	if (t < MIN_T || t > MAX_T)
		return -1;
	*out = t;
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

/* Named zones. Ambiguous names (IST, the military letters but Z, whose signs
 * RFC 1123 calls unreliable) are left out on purpose: a wrong zone is a
 * guess. CST is North American Central, as in RFC 822; AT, ET, CT, MT and PT
 * are the North American zones without S/D, read as standard time, as
 * feedparser reads them. NOTE: keep sorted (bsearch; test_date checks). */
static const struct zone {
	const char *name;
	int off_min;
} zones[] = {
	{"acdt", 630}, {"acst", 570}, {"adt", -180}, {"aedt", 660}, {"aest", 600},
	{"akdt", -480}, {"akst", -540}, {"ast", -240}, {"at", -240}, {"awst", 480},
	{"bst", 60},   {"cdt", -300}, {"cest", 120}, {"cet", 60},   {"cst", -360},
	{"ct", -360},  {"edt", -240}, {"eest", 180}, {"eet", 120},  {"est", -300},
	{"et", -300},  {"gmt", 0},    {"hkt", 480},  {"hst", -600}, {"jst", 540},
	{"kst", 540},  {"mdt", -360}, {"mest", 120}, {"met", 60},   {"msk", 180},
	{"mst", -420}, {"mt", -420},  {"nzdt", 780}, {"nzst", 720}, {"pdt", -420},
	{"pst", -480}, {"pt", -480},  {"sgt", 480},  {"uct", 0},    {"ut", 0},
	{"utc", 0},    {"west", 60},  {"wet", 0},    {"z", 0},      {"zulu", 0},
};

static int
zone_cmp(const void *key, const void *elem)
{
	return strcmp((const char *)key, ((const struct zone *)elem)->name);
}

static int
named_zone(const char *w, long *off_s)
{
	const struct zone *z =
	    bsearch(w, zones, sizeof(zones) / sizeof(zones[0]), sizeof(zones[0]), zone_cmp);

	if (!z)
		return -1;
	*off_s = (long)z->off_min * 60;
	return 0;
}

int
fr_date_zones_sorted(void)
{
	for (size_t i = 1; i < sizeof(zones) / sizeof(zones[0]); i++)
		if (strcmp(zones[i - 1].name, zones[i].name) >= 0)
			return 0;
	return 1;
}

static int
is_utc_name(const char *w)
{
	return !strcmp(w, "gmt") || !strcmp(w, "utc") || !strcmp(w, "ut") || !strcmp(w, "uct");
}

/* One zone at the cursor: numeric ("+0200", "-02:00"), named ("EST"), a UTC
 * name with an offset ("GMT+2", "UTC-05:00", JavaScript's "GMT+0200"), or the
 * tz database's "Etc/GMT" (its "Etc/GMT+5" means UTC-5, so an offset there is
 * refused rather than read with the sign feeds would expect). */
static int
zone_token(struct cur *c, long *off_s)
{
	char w[8];

	if (c->p < c->e && (*c->p == '+' || *c->p == '-'))
		return numeric_zone(c, off_s);
	if (word(c, w, sizeof(w)) >= sizeof(w))
		return -1;
	if (!strcmp(w, "etc")) {
		if (!accept(c, '/') || word(c, w, sizeof(w)) >= sizeof(w) ||
		    (!is_utc_name(w) && strcmp(w, "zulu") != 0))
			return -1;
		*off_s = 0;
		return c->p < c->e && (*c->p == '+' || *c->p == '-') ? -1 : 0;
	}
	if (named_zone(w, off_s) != 0)
		return -1;
	if (is_utc_name(w) && c->p < c->e && (*c->p == '+' || *c->p == '-'))
		return numeric_zone(c, off_s);
	return 0;
}

/* The end of input: blanks and one parenthesised comment such as "(PST)". */
static int
end(struct cur *c)
{
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

/* An optional zone, then the end. No zone means UTC. */
static int
zone_and_end(struct cur *c, long *off_s)
{
	*off_s = 0;
	skip_space(c);
	if (c->p < c->e && (*c->p == '+' || *c->p == '-' || is_alpha(*c->p)) &&
	    zone_token(c, off_s) != 0)
		return -1;
	return end(c);
}

/* Month names: English (three letters, the full name or any longer prefix
 * of it, as "Sept" or "Febr"), and the Greek and Hungarian names feedparser
 * reads (with the two Hungarian spellings it has wrong, and the right ones). */
static const struct name {
	const char *name;
	int num;
} foreign_months[] = {
	{"Ιαν", 1},       {"Φεβ", 2},    {"Μάώ", 3},      {"Μαώ", 3},         {"Απρ", 4},
	{"Μάι", 5},       {"Μαϊ", 5},    {"Μαι", 5},      {"Ιούν", 6},        {"Ιον", 6},
	{"Ιούλ", 7},      {"Ιολ", 7},    {"Αύγ", 8},      {"Αυγ", 8},         {"Σεπ", 9},
	{"Οκτ", 10},      {"Νοέ", 11},   {"Νοε", 11},     {"Δεκ", 12},        {"január", 1},
	{"februári", 2},  {"február", 2}, {"március", 3}, {"április", 4},     {"máujus", 5},
	{"május", 5},     {"június", 6}, {"július", 7},   {"augusztus", 8},   {"szeptember", 9},
	{"október", 10},  {"november", 11}, {"december", 12},
};

static long
month_of(const char *w, size_t n)
{
	static const char *const full[12] = {"january", "february", "march",     "april",
	                                     "may",     "june",     "july",      "august",
	                                     "september", "october", "november", "december"};

	for (long i = 0; i < 12; i++) {
		size_t fl = strlen(full[i]);

		if (n >= 3 && n <= fl && !strncmp(w, full[i], n))
			return i + 1;
	}
	for (size_t i = 0; i < sizeof(foreign_months) / sizeof(foreign_months[0]); i++)
		if (!strcmp(w, foreign_months[i].name))
			return foreign_months[i].num;
	return 0;
}

static int
is_weekday(const char *w, size_t n)
{
	static const char *const full[7] = {"monday", "tuesday", "wednesday", "thursday",
	                                    "friday", "saturday", "sunday"};
	static const char *const greek[7] = {"Κυρ", "Δευ", "Τρι", "Τετ", "Πεμ", "Παρ", "Σαβ"};

	for (int i = 0; i < 7; i++) {
		size_t fl = strlen(full[i]);

		if ((n == 3 || n == fl) && n <= fl && !strncmp(w, full[i], n))
			return 1;
		if (!strcmp(w, greek[i]))
			return 1;
	}
	return !strcmp(w, "tues") || !strcmp(w, "thur") || !strcmp(w, "thurs");
}

/* "h:mm[:ss[.fff]]", each field one or two digits, as feedparser's split on
 * ':' reads them. */
static int
clock_time(struct cur *c, long *h, long *mi, long *sec)
{
	long frac;

	*sec = 0;
	if (digits(c, 1, 2, h) == 0 || !accept(c, ':') || digits(c, 1, 2, mi) == 0)
		return -1;
	if (accept(c, ':')) {
		if (digits(c, 1, 2, sec) == 0)
			return -1;
		if ((accept(c, '.') || accept(c, ',')) && digits(c, 1, 64, &frac) == 0)
			return -1;
	}
	return 0;
}

/* The time part of an ISO 8601 / W3CDTF date, after its separator:
 * "hh:mm[:ss[.f]]", 1-2 digits each as W3CDTF's reader allows, an hour alone,
 * or after a basic-form date "hhmm[ss[.f]]". */
static int
iso_time(struct cur *c, int basic, long *h, long *mi, long *sec)
{
	size_t run = digit_run(c);
	long frac;

	*mi = *sec = 0;
	if (basic && (run == 4 || run == 6)) {
		digits(c, 2, 2, h);
		digits(c, 2, 2, mi);
		if (run == 6)
			digits(c, 2, 2, sec);
	} else {
		if (run < 1 || run > 2)
			return -1;
		digits(c, 1, 2, h);
		if (!accept(c, ':'))
			return 0;
		if (digits(c, 1, 2, mi) == 0)
			return -1;
		if (!accept(c, ':'))
			return 0;
		if (digits(c, 1, 2, sec) == 0)
			return -1;
	}
	if ((accept(c, '.') || accept(c, ',')) && digits(c, 1, 64, &frac) == 0)
		return -1;
	return 0;
}

/* Korean "YYYY년 MM월 DD일 hh:mm:ss" (OnBlog), Korea's time. The cursor is
 * after the year and its 년. */
static int
korean_words(struct cur *c, long y, int64_t *out)
{
	long mo, d, h, mi, sec;

	skip_space(c);
	if (digits(c, 1, 2, &mo) == 0 || !accept_lit(c, "월"))
		return -1;
	skip_space(c);
	if (digits(c, 1, 2, &d) == 0 || !accept_lit(c, "일"))
		return -1;
	skip_space(c);
	if (clock_time(c, &h, &mi, &sec) != 0)
		return -1;
	skip_space(c);
	if (c->p != c->e)
		return -1;
	return assemble(y, mo, d, h, mi, sec, 9 * 3600, out);
}

/* ISO 8601 / RFC 3339 / W3CDTF and their relatives, all starting with digits
 * or '-':
 *   YYYY-MM-DD, YYYY-M-D, YYYY-MM, YYYY, YYYY-DDD (ordinal), YYYY-0MM-DD
 *   (a month with an extra zero), YYYY-monthname-DD (Hungarian), basic
 *   YYYYMMDD and YYYYDDD; two-digit years (this century, as feedparser):
 *   YY-MM-DD, YYMMDD, YY-DDD, YYDDD, -YY-MM, -YYMM;
 * then optionally a time after 'T', 't' or blanks, and a zone; or the Korean
 * "YYYY-MM-DD 오전|오후 h:mm:ss" (Nate) and "YYYY년 MM월 DD일 hh:mm:ss" (OnBlog),
 * in Korea's time. */
static int
parse_iso(struct cur *c, unsigned flags, int64_t *out)
{
	int strict = (flags & FR_DATE_STRICT) != 0;
	long y = 0, mo = 1, d = 1, h = 0, mi = 0, sec = 0, off = 0, v = 0;
	int basic = 0, ampm = 0, has_time = 0;
	size_t run;
	char w[32];

	if (accept(c, '-')) {
		/* -YY-MM, -YYMM */
		if (strict || digits(c, 2, 2, &y) != 2)
			return -1;
		y += 2000;
		accept(c, '-');
		if (digit_run(c) != 2)
			return -1;
		digits(c, 2, 2, &mo);
		goto time;
	}
	run = digit_run(c);
	if (run == 4) {
		digits(c, 4, 4, &y);
		if (accept_lit(c, "년"))
			return korean_words(c, y, out);
		if (!accept(c, '-')) {
			if (strict)
				return -1;
			goto time; /* a bare year */
		}
		if (c->p < c->e && is_wordbyte(*c->p)) {
			size_t n = word(c, w, sizeof(w));

			if (n >= sizeof(w) || (mo = month_of(w, n)) == 0 || !accept(c, '-') ||
			    digits(c, 1, 2, &d) == 0)
				return -1;
			goto time;
		}
		run = digit_run(c);
		if (run == 3 && c->p + 3 < c->e && c->p[3] == '-' && c->p[0] == '0') {
			/* 2003-012-31: a month written with three digits */
			c->p++;
			run = 2;
		}
		if (run == 3) {
			digits(c, 3, 3, &v);
			if (strict || from_ordinal(y, v, &mo, &d) != 0)
				return -1;
			goto time;
		}
		if (run < 1 || run > 2)
			return -1;
		digits(c, 1, 2, &mo);
		if (accept(c, '-') && digits(c, 1, 2, &d) == 0)
			return -1;
		goto time;
	}
	if (strict && run != 8)
		return -1; /* two-digit years and ordinals */
	if (run == 2 && c->p + 2 < c->e && c->p[2] == '-') {
		/* YY-MM-DD, YY-DDD */
		digits(c, 2, 2, &y);
		y += 2000;
		c->p++;
		run = digit_run(c);
		if (run == 3) {
			digits(c, 3, 3, &v);
			if (from_ordinal(y, v, &mo, &d) != 0)
				return -1;
			goto time;
		}
		if (run != 2)
			return -1;
		digits(c, 2, 2, &mo);
		if (!accept(c, '-') || digit_run(c) != 2)
			return -1;
		digits(c, 2, 2, &d);
		goto time;
	}
	/* basic forms, told apart by their length */
	basic = 1;
	if (run == 8) {
		digits(c, 4, 4, &y);
		digits(c, 2, 2, &mo);
		digits(c, 2, 2, &d);
	} else if (run == 6) {
		digits(c, 2, 2, &y);
		y += 2000;
		digits(c, 2, 2, &mo);
		digits(c, 2, 2, &d);
	} else if (run == 7 || run == 5) {
		digits(c, (int)run - 3, (int)run - 3, &y);
		if (run == 5)
			y += 2000;
		digits(c, 3, 3, &v);
		if (from_ordinal(y, v, &mo, &d) != 0)
			return -1;
	} else {
		return -1;
	}
time:
	if (c->p < c->e && (*c->p == 'T' || *c->p == 't')) {
		c->p++;
		if (iso_time(c, basic, &h, &mi, &sec) != 0)
			return -1;
		has_time = 1;
	} else if (c->p < c->e && is_space(*c->p)) {
		skip_space(c);
		if (accept_lit(c, "오전"))
			ampm = 1;
		else if (accept_lit(c, "오후"))
			ampm = 2;
		if (ampm && strict)
			return -1;
		if (ampm) {
			skip_space(c);
			if (clock_time(c, &h, &mi, &sec) != 0)
				return -1;
			if (ampm == 2)
				h += 12; /* as feedparser: 오후 12 is no hour */
			skip_space(c);
			if (c->p != c->e)
				return -1;
			return assemble(y, mo, d, h, mi, sec, 9 * 3600, out);
		}
		if (at_digit(c)) {
			if (iso_time(c, 0, &h, &mi, &sec) != 0)
				return -1;
			has_time = 1;
		}
	}
	if (!has_time) {
		/* a zone needs a time: "2013-01-27-01" is not a date in zone -01 */
		skip_space(c);
		if (c->p != c->e)
			return -1;
		return assemble(y, mo, d, 0, 0, 0, 0, out);
	}
	if (c->p < c->e && (*c->p == 'Z' || *c->p == 'z') &&
	    (c->p + 1 == c->e || !is_alpha(c->p[1]))) {
		c->p++;
		skip_space(c);
		if (c->p != c->e)
			return -1;
	} else if (zone_and_end(c, &off) != 0) {
		return -1;
	}
	return assemble(y, mo, d, h, mi, sec, off, out);
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

/* Skips blanks and at most one comma among them. */
static void
skip_sep(struct cur *c)
{
	skip_space(c);
	if (accept(c, ','))
		skip_space(c);
}

/* RFC 822 family. */
static int
parse_rfc822(struct cur *c, unsigned flags, int64_t *out)
{
	char w[32];
	size_t n;
	long y = 0, mo, d, h = 0, mi = 0, sec = 0, off = 0;
	int ny;

	skip_space(c);
	if (c->p < c->e && is_wordbyte(*c->p)) {
		const char *save = c->p;

		n = word(c, w, sizeof(w));
		if (n < sizeof(w) && is_weekday(w, n)) {
			accept(c, '.');
			skip_sep(c);
		} else {
			c->p = save;
		}
	}
	if (!(flags & FR_DATE_STRICT) && digit_run(c) == 4 && c->p + 4 < c->e && c->p[4] == '/') {
		/* Perforce "2006/09/15 08:19:53 EDT": year first, so unambiguous */
		digits(c, 4, 4, &y);
		c->p++;
		if (digits(c, 1, 2, &mo) == 0 || !accept(c, '/') || digits(c, 1, 2, &d) == 0)
			return -1;
		skip_space(c);
		if (at_digit(c) && clock_time(c, &h, &mi, &sec) != 0)
			return -1;
		if (zone_and_end(c, &off) != 0)
			return -1;
		return assemble(y, mo, d, h, mi, sec, off, out);
	}
	if (c->p < c->e && is_wordbyte(*c->p)) {
		/* Month first: asctime "Nov  6 08:49:37 1994", with a zone "Jul 15
		 * 01:16:00 +0000 2012", JavaScript "Aug 30 2012 17:26:16 GMT+0200
		 * (CEST)", "July 6, 2014 12:56:00 +0000". */
		n = word(c, w, sizeof(w));
		if (n >= sizeof(w) || (mo = month_of(w, n)) == 0)
			return -1;
		accept(c, '.');
		skip_sep(c);
		if (digits(c, 1, 2, &d) == 0)
			return -1;
		skip_sep(c);
		n = digit_run(c);
		if (n == 4 || (n == 2 && (c->p + 2 == c->e || c->p[2] != ':'))) {
			ny = digits(c, 2, 4, &y);
			y = full_year(y, ny);
			skip_space(c);
			if (at_digit(c) && clock_time(c, &h, &mi, &sec) != 0)
				return -1;
			if (zone_and_end(c, &off) != 0)
				return -1;
		} else {
			if (clock_time(c, &h, &mi, &sec) != 0)
				return -1;
			skip_space(c);
			if (!at_digit(c) && zone_token(c, &off) != 0)
				return -1;
			skip_space(c);
			if ((ny = digits(c, 4, 4, &y)) != 4 || end(c) != 0)
				return -1;
		}
		return assemble(y, mo, d, h, mi, sec, off, out);
	}
	/* "06 Jul 2014 12:56:00 GMT", "6-Jul-14 12:56 +0200", "13 Feb, 2012" */
	if (digits(c, 1, 2, &d) == 0)
		return -1;
	if (!accept(c, '-'))
		skip_space(c);
	n = word(c, w, sizeof(w));
	if (n == 0 || n >= sizeof(w) || (mo = month_of(w, n)) == 0)
		return -1;
	accept(c, '.');
	if (!accept(c, '-'))
		skip_sep(c);
	ny = digits(c, 2, 4, &y);
	if (ny == 0)
		return -1;
	y = full_year(y, ny);
	skip_space(c);
	if (at_digit(c) && clock_time(c, &h, &mi, &sec) != 0)
		return -1;
	if (zone_and_end(c, &off) != 0)
		return -1;
	return assemble(y, mo, d, h, mi, sec, off, out);
}

int
fr_date_parse(const char *s, size_t len, int64_t *out_s)
{
	return fr_date_parse_ex(s, len, 0, out_s);
}

int
fr_date_parse_ex(const char *s, size_t len, unsigned flags, int64_t *out_s)
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
	/* The two scanners read disjoint shapes (the ISO one needs a digit run
	 * of a date's length or a '-' where the RFC 822 one needs a month's
	 * name or a '/'), so trying both in turn guesses nothing. */
	if ((is_digit(*c.p) || *c.p == '-') && parse_iso(&iso, flags, &t) == 0) {
		*out_s = t;
		return 0;
	}
	if (parse_rfc822(&c, flags, &t) != 0)
		return -1;
	*out_s = t;
	return 0;
}
