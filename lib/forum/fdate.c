/* fdate.c - date detection in the free text of forum pages: a tokenizer whose
 * words come from the ICU-learnt trie (fdate_vocab.c), a small grammar over
 * the tokens (numeric, month-name, CJK-mark, ISO, relative forms, with an
 * optional time and zone), and normalisation to Unix time in the page's
 * zone. Why a grammar over learnt words rather than ICU's udat_parse per
 * pattern: one pass finds dates of every locale and pattern at once, in
 * running text, 14x faster than ICU's udat_parse given the one right pattern
 * and 33x faster than trying each pattern in turn (bench/bench_fdate.c). */
#include "forum/fdate.h"

#include "core/err.h"
#include "core/timefmt.h"
#include "forum/fdate_vocab.h"
#include "parse/date.h"

#include <unicode/uchar.h>
#include <unicode/ucal.h>
#include <unicode/ustring.h>

#include <stdlib.h>
#include <string.h>

struct fr_fdate {
	struct fr_fdv v;
};

/* Kinds are bits of a token's uint32_t mask. */
_Static_assert(FR_FDV_NKINDS <= 32, "fr_fdv_kind must fit a 32-bit mask");

/* ---- tokens ---- */

enum ttype { T_NUM, T_NAME, T_PUNCT, T_WORD, T_OTHER };

struct tok {
	uint32_t b, e;   /* byte span */
	uint8_t type;
	uint8_t sp;      /* blank before it */
	uint8_t ndig;    /* T_NUM: digits (saturates at 255) */
	uint8_t ch;      /* T_PUNCT: the character ('~' for dashes) */
	uint8_t letter;  /* ends in a letter of a spaced script (T_WORD, T_NAME) */
	uint8_t cjk;     /* T_WORD: a CJK letter */
	uint32_t kinds;  /* T_NAME: bit k set when a meaning of kind k is in the page's locales */
	int32_t head;    /* T_NAME: first meaning */
	int64_t num;     /* T_NUM: value, saturating at 1e15 */
};

#define TRAILING_DOT 0x100u /* struct dt flags: "25.11." closed by a dot */
#define T_FIRST (-2208988800LL) /* 1900-01-01: no date before it is read */
#define T_LAST 7258118399LL     /* 2199-12-31T23:59:59Z */
#define FUTURE_DEFAULT_S (400 * 86400) /* events a year ahead; "2.6.32" is no date */
#define TOK_WINDOW 4096 /* tokens per window of a long text */
#define TOK_LOOKAHEAD 64 /* tokens a match may reach past its start window */

struct fr_fdate_page {
	struct fr_fdate *fd;
	uint32_t locs;       /* locale bits the page may use */
	int main_loc;        /* index of the page's own locale, -1 none */
	UCalendar *cal;      /* NULL: UTC */
	int64_t now_s;
	int has_now;
	int64_t max_future_s;
	int now_y, now_m, now_d; /* local date of now */
	enum fr_fdate_order order;
	struct tok *tok;     /* TOK_WINDOW + TOK_LOOKAHEAD */
	/* fr_fdate_page_decide_order: counts of numeric dates valid per order */
	int y_dot;           /* a page locale writes "2019." */
	int collecting;
	size_t n_numeric;
	size_t valid_count[4];
};

static int
kind_bit(int k)
{
	return (int)(1u << k);
}

static int
has(const struct tok *t, int kind)
{
	return t->type == T_NAME && (t->kinds & (uint32_t)kind_bit(kind));
}

/* The first meaning of kind in the page's locales; *val is set. */
static int
meaning(const struct fr_fdate_page *pg, const struct tok *t, int kind, int32_t *val)
{
	const struct fr_fdv *v = &pg->fd->v;
	int32_t m;

	if (t->type != T_NAME)
		return 0;
	for (m = t->head; m >= 0; m = v->mean[m].next) {
		if (v->mean[m].kind == kind && (v->mean[m].locs & pg->locs)) {
			*val = v->mean[m].val;
			return 1;
		}
	}
	return 0;
}

/* The hours a day-period word stands for, over all its meanings. */
static int32_t
period_mask(const struct fr_fdate_page *pg, const struct tok *t)
{
	const struct fr_fdv *v = &pg->fd->v;
	int32_t m, mask = 0;

	for (m = t->head; m >= 0; m = v->mean[m].next)
		if (v->mean[m].kind == FR_FDV_PERIOD && (v->mean[m].locs & pg->locs))
			mask |= v->mean[m].val;
	return mask;
}

static int
is_ascii_alpha(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* Maps a non-ASCII character to an ASCII punctuation code, or 0. */
static uint8_t
punct_of(int32_t c)
{
	switch (c) {
	case 0x2010: case 0x2011: case 0x2012: case 0x2013: case 0x2014: case 0x2212:
		return '~';
	case 0xFF08:
		return '(';
	case 0xFF09:
		return ')';
	case 0xFF0C: case 0x3001:
		return ',';
	case 0xFF0F:
		return '/';
	case 0xFF1A:
		return ':';
	case 0x2018: case 0x2019:
		return '\'';
	case 0x3002: case 0xFF0E:
		return '.';
	default:
		return 0;
	}
}

static int
is_blank_cp(int32_t c)
{
	return c == 0xA0 || (c >= 0x2000 && c <= 0x200A) || c == 0x202F || c == 0x205F ||
	       c == 0x3000 || c == 0x1680 || c == 0x85;
}

static int
is_ignorable_cp(int32_t c)
{
	return (c >= 0x200B && c <= 0x200F) || c == 0xFEFF || c == 0xAD || c == 0x2060 || c == 0x061C;
}

static int
fullwidth_digit(int32_t c)
{
	return c >= 0xFF10 && c <= 0xFF19 ? (int)(c - 0xFF10) : -1;
}

static int
fullwidth_at(const char *s, size_t len, size_t p)
{
	int32_t cp;

	return p + 2 < len && fullwidth_digit((fr_fdv_utf8(s, len, p, &cp), cp)) >= 0;
}

/* Reads a run of ASCII and fullwidth digits at s[p] into t (value
 * saturating at 1e15, digit count at 255); returns where it ends. */
static size_t
read_number(const char *s, size_t len, size_t p, struct tok *t)
{
	int64_t val = 0;
	unsigned nd = 0;

	for (;;) {
		int dg = -1;

		if (p < len && s[p] >= '0' && s[p] <= '9') {
			dg = s[p] - '0';
			p++;
		} else if (p < len && (unsigned char)s[p] == 0xEF && fullwidth_at(s, len, p)) {
			int32_t cp;

			fr_fdv_utf8(s, len, p, &cp);
			dg = fullwidth_digit(cp);
			p += 3;
		}
		if (dg < 0)
			break;
		if (val < 1000000000000000LL)
			val = val * 10 + dg;
		if (nd < 255)
			nd++;
	}
	t->type = T_NUM;
	t->num = val;
	t->ndig = (uint8_t)nd;
	t->e = (uint32_t)p;
	return p;
}

/* Tokenizes s[pos..len) into at most max tokens. Returns the count; *next is
 * where tokenizing stopped. */
static size_t
tokenize(struct fr_fdate_page *pg, const char *s, size_t len, size_t pos, struct tok *out,
         size_t max, size_t *next)
{
	const struct fr_fdv *v = &pg->fd->v;
	size_t n = 0, p = pos;
	int sp = 1;

	while (p < len && n < max) {
		unsigned char c = (unsigned char)s[p];
		struct tok *t = &out[n];
		int32_t cp;
		size_t cl;

		if (c == ' ' || (c >= '\t' && c <= '\r')) {
			sp = 1;
			p++;
			continue;
		}
		memset(t, 0, sizeof(*t));
		t->b = (uint32_t)p;
		t->sp = (uint8_t)sp;
		t->head = -1;
		if ((c >= '0' && c <= '9') || (c == 0xEF && fullwidth_at(s, len, p))) {
			p = read_number(s, len, p, t);
			n++;
			sp = 0;
			/* a glued suffix that is not a letter (":a", ".º") */
			if (p < len && !is_ascii_alpha((unsigned char)s[p]) && (unsigned char)s[p] < 0x80 &&
			    fr_fdv_may_start(v, (unsigned char)s[p]) && n < max) {
				int32_t head;
				size_t m = fr_fdv_lookup(v, s, len, p, pg->locs, &head);

				if (m > 0) {
					int32_t mm;
					uint32_t kinds = 0;

					for (mm = head; mm >= 0; mm = v->mean[mm].next)
						if (v->mean[mm].locs & pg->locs)
							kinds |= 1u << v->mean[mm].kind;
					if (kinds == (1u << FR_FDV_ORD)) {
						t = &out[n++];
						memset(t, 0, sizeof(*t));
						t->b = (uint32_t)p;
						t->e = (uint32_t)(p + m);
						t->type = T_NAME;
						t->kinds = kinds;
						t->head = head;
						p += m;
					}
				}
			}
			continue;
		}
		cl = fr_fdv_utf8(s, len, p, &cp);
		if (c >= 0x80) {
			if (is_blank_cp(cp)) {
				sp = 1;
				p += cl;
				continue;
			}
			if (is_ignorable_cp(cp)) {
				p += cl;
				continue;
			}
		}
		/* a learnt word? */
		if (c >= 0x80 || (is_ascii_alpha(c) && fr_fdv_may_start(v, c | 0x20))) {
			int32_t head;
			size_t m = fr_fdv_lookup(v, s, len, p, pg->locs, &head);

			if (m > 0) {
				int32_t mm, last;
				uint32_t kinds = 0;
				size_t q = p + m - 1;

				for (mm = head; mm >= 0; mm = v->mean[mm].next)
					if (v->mean[mm].locs & pg->locs)
						kinds |= 1u << v->mean[mm].kind;
				while (q > p && ((unsigned char)s[q] & 0xC0) == 0x80)
					q--;
				fr_fdv_utf8(s, len, q, &last);
				t->type = T_NAME;
				t->kinds = kinds;
				t->head = head;
				t->e = (uint32_t)(p + m);
				t->letter = (uint8_t)(last < 0x80 ? is_ascii_alpha((unsigned char)last)
				                                  : u_isalpha(last) && !fr_fdv_is_cjk(last));
				p += m;
				n++;
				sp = 0;
				continue;
			}
		}
		if (c < 0x80 && !is_ascii_alpha(c)) {
			t->type = T_PUNCT;
			t->ch = c;
			t->e = (uint32_t)(p + 1);
			p++;
			n++;
			sp = 0;
			continue;
		}
		if (c >= 0x80 && punct_of(cp)) {
			t->type = T_PUNCT;
			t->ch = punct_of(cp);
			t->e = (uint32_t)(p + cl);
			p += cl;
			n++;
			sp = 0;
			continue;
		}
		if (c < 0x80 || (u_isalpha(cp) && !fr_fdv_is_cjk(cp))) {
			/* a word of a spaced script, letters and combining marks */
			t->type = T_WORD;
			while (p < len) {
				unsigned char d = (unsigned char)s[p];

				if (d < 0x80) {
					if (!is_ascii_alpha(d))
						break;
					p++;
					continue;
				}
				cl = fr_fdv_utf8(s, len, p, &cp);
				if (!((u_isalpha(cp) && !fr_fdv_is_cjk(cp)) ||
				      (U_GET_GC_MASK(cp) & U_GC_M_MASK)))
					break;
				p += cl;
			}
			t->letter = 1;
			t->e = (uint32_t)p;
			n++;
			sp = 0;
			continue;
		}
		t->type = fr_fdv_is_cjk(cp) ? T_WORD : T_OTHER;
		t->cjk = (uint8_t)(t->type == T_WORD);
		t->e = (uint32_t)(p + cl);
		p += cl;
		n++;
		sp = 0;
	}
	*next = p;
	return n;
}

/* ---- calendar arithmetic ---- */

static int
leap(long y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

static int
days_in_month(long y, int m)
{
	static const int dim[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};

	return m == 2 && leap(y) ? 29 : dim[m - 1];
}

static void
civil_from_days(int64_t z, int *y, int *m, int *d)
{
	int64_t era, yoe, doy, mp;
	unsigned doe;

	z += 719468;
	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = (unsigned)(z - era * 146097);
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	*d = (int)(doy - (153 * mp + 2) / 5 + 1);
	*m = (int)(mp < 10 ? mp + 3 : mp - 9);
	*y = (int)(yoe + era * 400 + (*m <= 2));
}

static int64_t
floor_div(int64_t a, int64_t b)
{
	return a >= 0 ? a / b : -((-a + b - 1) / b);
}

/* Local civil time in the page's zone (or at a fixed offset when has_off)
 * to Unix seconds. */
static int64_t
to_utc(struct fr_fdate_page *pg, int y, int m, int d, int h, int mi, int s, int has_off,
       int32_t off_s)
{
	int64_t t = (int64_t)fr_days_from_civil(y, (unsigned)m, (unsigned)d) * 86400 + h * 3600 +
	            mi * 60 + s;

	if (has_off)
		return t - off_s;
	if (pg->cal) {
		UErrorCode e = U_ZERO_ERROR;
		UDate ms;

		ucal_clear(pg->cal);
		ucal_setDateTime(pg->cal, y, m - 1, d, h, mi, s, &e);
		ms = ucal_getMillis(pg->cal, &e);
		if (U_SUCCESS(e))
			return (int64_t)floor_div((int64_t)ms, 1000);
	}
	return t;
}

/* Local civil time of Unix time t in the page's zone. */
static void
to_local(struct fr_fdate_page *pg, int64_t t, int *y, int *m, int *d, int *h, int *mi, int *s)
{
	int64_t off = 0, day;

	if (pg->cal) {
		UErrorCode e = U_ZERO_ERROR;

		ucal_setMillis(pg->cal, (UDate)t * 1000.0, &e);
		off = (int64_t)(ucal_get(pg->cal, UCAL_ZONE_OFFSET, &e) +
		                ucal_get(pg->cal, UCAL_DST_OFFSET, &e)) /
		      1000;
		if (U_FAILURE(e))
			off = 0;
	}
	t += off;
	day = floor_div(t, 86400);
	civil_from_days(day, y, m, d);
	t -= day * 86400;
	*h = (int)(t / 3600);
	*mi = (int)(t / 60 % 60);
	*s = (int)(t % 60);
}

/* ---- the grammar ---- */

struct dt {
	int y, m, d;     /* y 0: none given */
	int y2;          /* year given with two digits (y is then 0-99) */
	int h, mi, s;    /* h -1: no time */
	int has_s, hour_only;
	int has_off;
	int32_t off_s;
	int numeric;     /* a, b, c pending an order */
	int64_t na, nb, nc;
	int la, lb, lc;
	int two_part;    /* numeric day and month only */
	int m_derived;   /* the month name is a prefix of a CLDR name ("Sept") */
	char sep;        /* of a numeric date, 0 for blanks */
	int spaced;      /* a blank after each separator ("25. 11. 2019") */
	enum fr_fdate_order order;
	unsigned flags;
	/* relative */
	int rel;         /* 1: N units ago; 2: day word */
	int rel_unit;
	int64_t rel_n;
	int rel_day;
};

struct ctx {
	struct fr_fdate_page *pg;
	const char *s;
	const struct tok *t;
	size_t n;
};

static const struct tok *
at(const struct ctx *c, size_t i)
{
	return i < c->n ? &c->t[i] : NULL;
}

static int
punct(const struct ctx *c, size_t i, char ch)
{
	const struct tok *t = at(c, i);

	return t && t->type == T_PUNCT && t->ch == (uint8_t)ch;
}

static int
glued(const struct ctx *c, size_t i)
{
	const struct tok *t = at(c, i);

	return t && !t->sp;
}

static int
num(const struct ctx *c, size_t i, int min_dig, int max_dig)
{
	const struct tok *t = at(c, i);

	return t && t->type == T_NUM && t->ndig >= min_dig && t->ndig <= max_dig;
}

static int
name(const struct ctx *c, size_t i, int kind)
{
	const struct tok *t = at(c, i);

	return t && has(t, kind);
}

/* One raw ASCII letter token ("T" of ISO 8601, "Z"). */
static int
letter_tok(const struct ctx *c, size_t i, char up)
{
	const struct tok *t = at(c, i);

	return t && (t->type == T_WORD || t->type == T_NAME) && t->e == t->b + 1 &&
	       (c->s[t->b] == up || c->s[t->b] == up + 32);
}

/* Glue words and a comma between parts: ", ", " at ", " um ", " - ". */
static size_t
skip_glue(const struct ctx *c, size_t i, int allow_dash)
{
	int words = 0;

	if (punct(c, i, ',') && glued(c, i))
		i++;
	else if (allow_dash && (punct(c, i, '-') || punct(c, i, '~') || punct(c, i, '|')) &&
	         !glued(c, i))
		i++;
	while (words < 3 && name(c, i, FR_FDV_FILL)) {
		i++;
		words++;
		if (punct(c, i, '.') && glued(c, i))
			i++;
	}
	if (punct(c, i, ','))
		i++;
	return i;
}

/* A zone after a time: a UTC name, a prefix with an offset ("GMT+3",
 * "UTC+02:00"), "Z", or a numeric offset "+0200" / "+02:00". */
static size_t
parse_zone(const struct ctx *c, size_t i, struct dt *d)
{
	size_t j = i;
	int sign;
	int64_t hh, mm = 0;

	if (letter_tok(c, i, 'Z') && glued(c, i)) {
		d->has_off = 1;
		d->off_s = 0;
		return i + 1;
	}
	if ((punct(c, i, '(') && name(c, i + 1, FR_FDV_TZUTC) && punct(c, i + 2, ')')) ||
	    (punct(c, i, '[') && name(c, i + 1, FR_FDV_TZUTC) && punct(c, i + 2, ']'))) {
		d->has_off = 1;
		d->off_s = 0;
		return i + 3;
	}
	if (name(c, i, FR_FDV_TZPFX) || name(c, i, FR_FDV_TZUTC)) {
		j = i + 1;
		if ((punct(c, j, '+') || punct(c, j, '-') || punct(c, j, '~')) && glued(c, j) &&
		    num(c, j + 1, 1, 4) && glued(c, j + 1))
			goto offset;
		if (name(c, i, FR_FDV_TZUTC)) {
			d->has_off = 1;
			d->off_s = 0;
			return i + 1;
		}
		return i;
	}
	if ((punct(c, j, '+') || punct(c, j, '-') || punct(c, j, '~')) && num(c, j + 1, 2, 4) &&
	    glued(c, j + 1) && (c->t[j + 1].ndig == 4 || (punct(c, j + 2, ':') && num(c, j + 3, 2, 2))))
		goto offset;
	return i;
offset:
	sign = punct(c, j, '+') ? 1 : -1;
	hh = c->t[j + 1].num;
	if (c->t[j + 1].ndig >= 3) {
		mm = hh % 100;
		hh /= 100;
		j += 2;
	} else if (punct(c, j + 2, ':') && glued(c, j + 2) && num(c, j + 3, 2, 2) && glued(c, j + 3)) {
		mm = c->t[j + 3].num;
		j += 4;
	} else {
		j += 2;
	}
	if (hh > 14 || mm > 59)
		return i;
	d->has_off = 1;
	d->off_s = (int32_t)(sign * (hh * 3600 + mm * 60));
	return j;
}

/* Applies a day-period word's hours to a 12-hour clock reading. */
static int
apply_period(int h, int32_t mask)
{
	int a = h % 12, b = a + 12;

	if (!mask)
		return h;
	if (h < 0 || h > 23)
		return -1;
	if (h > 12)
		return mask & (1 << h) ? h : -1;
	if (mask & (1 << b) && !(mask & (1 << a)))
		return b;
	if (mask & (1 << a))
		return a;
	return -1;
}

/* A time: "14:03", "2:03:10 PM", "오후 2:03", "下午2:03", "14時03分10秒",
 * "2시 3분", then a closing word ("Uhr", "ч.") and a zone. */
static size_t
parse_time(const struct ctx *c, size_t i, struct dt *d)
{
	size_t j = i;
	int32_t pmask = 0;
	int64_t h, mi, s = 0;
	int has_s = 0, hour_only = 0;

	if (name(c, j, FR_FDV_TZUTC) || name(c, j, FR_FDV_TZPFX)) {
		/* a zone first: "UTC 14:42:18" (zh "zzzz HH:mm:ss") */
		size_t z = parse_zone(c, j, d);

		if (z == j || !num(c, z, 1, 2))
			return 0;
		j = z;
	}
	if (name(c, j, FR_FDV_PERIOD) && num(c, j + 1, 1, 2)) {
		pmask = period_mask(c->pg, &c->t[j]);
		j++;
	}
	if (!num(c, j, 1, 2))
		return 0;
	h = c->t[j].num;
	if (punct(c, j + 1, ':') && glued(c, j + 1) && num(c, j + 2, 2, 2) && glued(c, j + 2)) {
		mi = c->t[j + 2].num;
		j += 3;
		if (punct(c, j, ':') && glued(c, j) && num(c, j + 1, 2, 2) && glued(c, j + 1)) {
			s = c->t[j + 1].num;
			has_s = 1;
			j += 2;
			if ((punct(c, j, '.') || punct(c, j, ',')) && glued(c, j) && num(c, j + 1, 1, 9) &&
			    glued(c, j + 1))
				j += 2; /* fractions of a second are dropped */
		}
	} else if (letter_tok(c, j + 1, 'H') && glued(c, j + 1) && num(c, j + 2, 2, 2) &&
		   glued(c, j + 2)) {
		/* "19h30", "10h15" (French, Portuguese): an h between the
		 * hour and its minutes, glued */
		mi = c->t[j + 2].num;
		j += 3;
	} else if (name(c, j + 1, FR_FDV_HMARK)) {
		j += 2;
		if (num(c, j, 1, 2) && name(c, j + 1, FR_FDV_MINMARK)) {
			mi = c->t[j].num;
			j += 2;
			if (num(c, j, 1, 2) && name(c, j + 1, FR_FDV_SMARK)) {
				s = c->t[j].num;
				has_s = 1;
				j += 2;
			}
		} else {
			mi = 0;
			hour_only = 1;
		}
	} else {
		return 0;
	}
	/* after the digits: a period word and a closing word, in either
	 * order ("2:03 PM", "14:51 Uhr", "1:53 ч. сл.об.") */
	{
		int tail = 0, round;

		for (round = 0; round < 2; round++) {
			if (!pmask && name(c, j, FR_FDV_PERIOD)) {
				int32_t m = period_mask(c->pg, &c->t[j]);

				if (apply_period((int)h, m) >= 0) {
					pmask = m;
					j++;
					if (punct(c, j, '.') && glued(c, j))
						j++;
					continue;
				}
			}
			if (!tail && (name(c, j, FR_FDV_TAIL) || name(c, j, FR_FDV_HMARK))) {
				tail = 1;
				j++;
				if (punct(c, j, '.') && glued(c, j))
					j++;
			}
		}
	}
	if (pmask) {
		int hh = apply_period((int)h, pmask);

		if (hh < 0)
			return 0;
		h = hh;
	}
	if (h > 24 || mi > 59 || s > 60 || (h == 24 && (mi || s)))
		return 0;
	d->h = (int)h;
	d->mi = (int)mi;
	d->s = (int)s;
	d->has_s = has_s;
	d->hour_only = hour_only;
	return parse_zone(c, j, d);
}

/* A year after a month name and day: "2019", "'98", "99". Not an hour
 * ("Nov 25 10:15") and not the start of a longer number. */
static size_t
parse_year(const struct ctx *c, size_t i, struct dt *d)
{
	size_t j = i;
	int apos = 0;

	if (punct(c, j, '\'') && num(c, j + 1, 2, 2) && glued(c, j + 1)) {
		apos = 1;
		j++;
	}
	if (!num(c, j, 2, 4) || c->t[j].ndig == 3)
		return 0;
	if (punct(c, j + 1, ':') && glued(c, j + 1))
		return 0;
	if ((punct(c, j + 1, '.') || punct(c, j + 1, ',')) && glued(c, j + 1) && num(c, j + 2, 1, 9) &&
	    glued(c, j + 2))
		return 0;
	if (c->t[j].ndig == 2 && !apos && name(c, j + 1, FR_FDV_HMARK))
		return 0;
	d->y = (int)c->t[j].num;
	d->y2 = c->t[j].ndig == 2;
	return j + 1;
}

/* A day number: 1-2 digits, an ordinal suffix or a dot. */
static size_t
parse_day(const struct ctx *c, size_t i, struct dt *d)
{
	size_t j = i;

	if (!num(c, j, 1, 2) || c->t[j].num < 1 || c->t[j].num > 31)
		return 0;
	if (punct(c, j + 1, ':') && glued(c, j + 1))
		return 0;
	d->d = (int)c->t[j].num;
	j++;
	if (name(c, j, FR_FDV_ORD) && glued(c, j))
		j++;
	else if (name(c, j, FR_FDV_DMARK) && glued(c, j))
		j++;
	if (punct(c, j, '.') && glued(c, j) && !(num(c, j + 1, 1, 9) && glued(c, j + 1)))
		j++;
	return j;
}

/* A month name, its dot, and glue ("de") after it. */
static size_t
parse_month(const struct ctx *c, size_t i, struct dt *d)
{
	const struct fr_fdv *v = &c->pg->fd->v;
	int32_t m, best = -1;

	if (!name(c, i, FR_FDV_MONTH))
		return 0;
	/* a CLDR name before a prefix of one */
	for (m = c->t[i].head; m >= 0; m = v->mean[m].next)
		if (v->mean[m].kind == FR_FDV_MONTH && (v->mean[m].locs & c->pg->locs) &&
		    (best < 0 || (best & FR_FDV_DERIVED)))
			best = v->mean[m].val;
	d->m = (int)(best & 0xFF);
	d->m_derived = (best & FR_FDV_DERIVED) != 0;
	i++;
	if (punct(c, i, '.') && glued(c, i))
		i++;
	return i;
}

/* Whether a time starts at i ("12:08"). */
static int
time_at(const struct ctx *c, size_t i)
{
	return num(c, i, 1, 2) && punct(c, i + 1, ':') && glued(c, i + 1) && num(c, i + 2, 2, 2);
}

/* Separators between the parts of a date with a month name. */
static size_t
skip_sep(const struct ctx *c, size_t i)
{
	if (punct(c, i, '-') || punct(c, i, '/') || punct(c, i, '.') || punct(c, i, ',') ||
	    punct(c, i, '\\'))
		i++;
	while (name(c, i, FR_FDV_FILL) && !name(c, i, FR_FDV_MONTH))
		i++;
	return i;
}

/* A weekday name with its dot and comma; *wd gets it. */
static size_t
parse_weekday(const struct ctx *c, size_t i)
{
	int32_t w;

	if (!at(c, i) || !meaning(c->pg, &c->t[i], FR_FDV_WDAY, &w))
		return 0;
	i++;
	if (punct(c, i, '.') && glued(c, i))
		i++;
	if (punct(c, i, ','))
		i++;
	return i;
}

/* The dot some locales put after a year ("2019." sr), when no number is
 * glued to it. */
static size_t
year_dot(const struct ctx *c, size_t j)
{
	if (c->pg->y_dot && punct(c, j, '.') && glued(c, j) && !(num(c, j + 1, 1, 9) && glued(c, j + 1)))
		return j + 1;
	return j;
}

/* Month-name dates, from a month name or a day or a year at i. */
static size_t
parse_named(const struct ctx *c, size_t i, struct dt *d)
{
	size_t j, k;
	struct dt save = *d;

	/* MON [WD] DAY [, YEAR]: "Nov 25, 2019", "Jan. 21/99", "Feb-Tue-23-99" */
	j = parse_month(c, i, d);
	if (j != 0) {
		size_t j2 = skip_sep(c, j);

		k = parse_weekday(c, j2);
		if (k)
			j2 = skip_sep(c, k);
		k = parse_day(c, j2, d);
		if (k) {
			size_t y = parse_year(c, skip_sep(c, k), d);

			if (y)
				return year_dot(c, y);
			if ((num(c, k, 1, 9) && !time_at(c, k)) ||
			    (punct(c, k, ',') && num(c, k + 1, 1, 9) && !time_at(c, k + 1)))
				goto fail;
			if (d->m_derived && !punct(c, j - 1, '.'))
				goto fail;
			d->y = 0; /* "December 13." */
			return k;
		}
		goto fail;
	}
	/* DAY [sep] MON [sep] [YEAR]: "25 November 2019", "25. Nov. 2019",
	 * "25-Nov-2019", "25 de noviembre de 2019", "1er janvier 2020" */
	j = parse_day(c, i, d);
	if (j != 0) {
		j = skip_sep(c, j);
		k = parse_month(c, j, d);
		if (!k)
			goto fail;
		j = skip_sep(c, k);
		{
			size_t y = parse_year(c, j, d);

			if (y)
				return year_dot(c, y);
		}
		if (num(c, k, 1, 9) && !time_at(c, k))
			goto fail;
		if (d->m_derived && !punct(c, k - 1, '.'))
			goto fail; /* "top 10 list" */
		d->y = 0; /* "15 July" */
		return k;
	}
	/* YEAR [sep] MON [sep] DAY: "2009-December-11", "2016January05" */
	if (num(c, i, 4, 4) && !(punct(c, i + 1, ':') && glued(c, i + 1))) {
		d->y = (int)c->t[i].num;
		j = skip_sep(c, i + 1);
		k = parse_month(c, j, d);
		if (!k)
			goto fail;
		k = parse_day(c, skip_sep(c, k), d);
		if (!k)
			goto fail;
		return k;
	}
fail:
	*d = save;
	return 0;
}

/* CJK dates with marks: "2019年11月25日", "2019년 11월 25일", "11月25日". */
static size_t
parse_marked(const struct ctx *c, size_t i, struct dt *d)
{
	size_t j = i;
	struct dt save = *d;

	if (num(c, j, 2, 4) && name(c, j + 1, FR_FDV_YMARK)) {
		d->y = (int)c->t[j].num;
		d->y2 = c->t[j].ndig == 2;
		j += 2;
	}
	if (num(c, j, 1, 2) && name(c, j + 1, FR_FDV_MMARK) && glued(c, j + 1)) {
		d->m = (int)c->t[j].num;
		j += 2;
	} else {
		*d = save;
		return 0;
	}
	if (num(c, j, 1, 2) && name(c, j + 1, FR_FDV_DMARK) && glued(c, j + 1)) {
		d->d = (int)c->t[j].num;
		return j + 2;
	}
	*d = save;
	return 0;
}

/* All-numeric dates: "25.11.2019", "11/25/19", "2019-11-25", "25. 11. 2019",
 * "2019. 11. 25.", "05 02 1999"; with a time or the locale's Md pattern,
 * "25.11." and "05.01 14:54". The order is settled later. */
static size_t
parse_numeric(const struct ctx *c, size_t i, struct dt *d)
{
	size_t j;
	char sep;
	int spaced;

	if (!num(c, i, 1, 4) || c->t[i].ndig == 3)
		return 0;
	if (punct(c, i + 1, '.') || punct(c, i + 1, '/') || punct(c, i + 1, '-') ||
	    punct(c, i + 1, '\\')) {
		if (!glued(c, i + 1))
			return 0;
		sep = (char)c->t[i + 1].ch;
		spaced = !glued(c, i + 2);
		if (spaced && sep != '.')
			return 0;
		if (!num(c, i + 2, 1, 2))
			return 0;
		j = i + 3;
		if (punct(c, j, sep) && glued(c, j) && num(c, j + 1, 1, 4) && c->t[j + 1].ndig != 3 &&
		    glued(c, j + 1) == !spaced && !time_at(c, j + 1)) {
			d->numeric = 1;
			d->sep = sep;
			d->spaced = spaced;
			d->na = c->t[i].num;
			d->nb = c->t[i + 2].num;
			d->nc = c->t[j + 1].num;
			d->la = c->t[i].ndig;
			d->lb = c->t[i + 2].ndig;
			d->lc = c->t[j + 1].ndig;
			if (d->la == 4 && d->lc == 4)
				return 0;
			/* "2.4.10" is a version far more often than a date: one-digit day
			 * and month with a two-digit year need the closing dot ("5.3.24." sr) */
			if (sep == '.' && !spaced && d->la == 1 && d->lb == 1 && d->lc == 2 &&
			    !(punct(c, j + 2, '.') && glued(c, j + 2)))
				return 0;
			j += 2;
			/* a longer chain is a version or an address, not a date */
			if ((punct(c, j, sep) || punct(c, j, '.')) && glued(c, j) && num(c, j + 1, 1, 9) &&
			    glued(c, j + 1))
				return 0;
			if (sep == '.' && punct(c, j, '.') && glued(c, j))
				j++;
			return j;
		}
		/* two parts: day and month */
		if (c->t[i].ndig > 2)
			return 0;
		if (punct(c, j, sep) && glued(c, j) && num(c, j + 1, 1, 9) && glued(c, j + 1))
			return 0;
		d->numeric = 1;
		d->two_part = 1;
		d->sep = sep;
		d->na = c->t[i].num;
		d->nb = c->t[i + 2].num;
		d->la = c->t[i].ndig;
		d->lb = c->t[i + 2].ndig;
		if (sep == '.' && punct(c, j, '.') && glued(c, j)) {
			d->flags |= TRAILING_DOT;
			j++;
		}
		return j;
	}
	/* blanks only: every part of 2 digits, or a year of 4 at one end */
	if (num(c, i + 1, 2, 4) && num(c, i + 2, 2, 4) && !glued(c, i + 1) && !glued(c, i + 2) &&
	    (c->t[i].ndig == 2 || c->t[i].ndig == 4) && c->t[i + 1].ndig == 2 &&
	    (c->t[i + 2].ndig == 2 || c->t[i + 2].ndig == 4) &&
	    !(c->t[i].ndig == 4 && c->t[i + 2].ndig == 4)) {
		/* a longer run of numbers is a phone number or a table row, not a
		 * date ("06 12 34 56 78"); "#4" before the date is not part of it */
		if ((num(c, i + 3, 1, 9) && !glued(c, i + 3)) ||
		    (i > 0 && num(c, i - 1, 1, 9) && (c->t[i - 1].sp || i == 1)))
			return 0;
		if (punct(c, i + 3, ':') || punct(c, i + 3, '.') || punct(c, i + 3, ','))
			if (glued(c, i + 3) && num(c, i + 4, 1, 9))
				return 0;
		d->numeric = 1;
		d->na = c->t[i].num;
		d->nb = c->t[i + 1].num;
		d->nc = c->t[i + 2].num;
		d->la = c->t[i].ndig;
		d->lb = c->t[i + 1].ndig;
		d->lc = c->t[i + 2].ndig;
		return i + 3;
	}
	return 0;
}

/* ---- normalisation ---- */

static int
year_of(const struct fr_fdate_page *pg, int y, int two)
{
	if (!two)
		return y;
	if (pg->has_now) {
		/* ICU's window: 80 years back, 20 ahead */
		int lo = pg->now_y - 79;

		return lo + ((y - lo) % 100 + 100) % 100;
	}
	return y < 50 ? 2000 + y : 1900 + y;
}

static int
date_ok(int y, int m, int d)
{
	return y >= 1900 && y <= 2199 && m >= 1 && m <= 12 && d >= 1 && d <= days_in_month(y, m);
}

/* Whether a day is not after now (a day of slack for zones): post dates
 * are in the past, which decides between readings of "03.12.19". */
static int
not_future(const struct fr_fdate_page *pg, int y, int m, int d)
{
	return !pg->has_now ||
	       (int64_t)fr_days_from_civil(y, (unsigned)m, (unsigned)d) * 86400 <= pg->now_s + 2 * 86400;
}

static enum fr_fdate_order
locale_default(const struct fr_fdate_page *pg)
{
	return pg->main_loc >= 0 ? pg->fd->v.loc[pg->main_loc].order : FR_FDATE_DMY;
}

/* Whether a numeric date is written as the page locale's own Y M D
 * pattern (separator and spacing): then "06. 4. 3." (ko yy. M. d.) is a date. */
static int
ymd_style(const struct fr_fdate_page *pg, const struct dt *d)
{
	const struct fr_fdv_locale *L = pg->main_loc >= 0 ? &pg->fd->v.loc[pg->main_loc] : NULL;

	return L && L->order == FR_FDATE_YMD && L->ymd_sep == d->sep && L->ymd_spaced == d->spaced;
}

/* Reads a numeric triple in order o; 0 when impossible. */
static int
numeric_as(const struct fr_fdate_page *pg, const struct dt *d, enum fr_fdate_order o, int *y,
           int *m, int *dd)
{
	int64_t a = d->na, b = d->nb, cc = d->nc;
	int la = d->la, lb = d->lb, lc = d->lc;

	if (d->two_part) {
		if (o == FR_FDATE_YMD)
			return 0;
		*m = (int)(o == FR_FDATE_MDY ? a : b);
		*dd = (int)(o == FR_FDATE_MDY ? b : a);
		*y = 0;
		return *m >= 1 && *m <= 12 && *dd >= 1 && *dd <= 31 &&
		       *dd <= days_in_month(2000, *m); /* Feb 29 allowed without a year */
	}
	if (o == FR_FDATE_YMD) {
		/* a two-digit year only with two-digit month and day ("16 10 12"),
		 * not "13.1.1", unless the locale writes years first ("06. 4. 3." ko) */
		if (!(la == 4 || (la == 2 && ((lb == 2 && lc == 2) || ymd_style(pg, d)))) || lb > 2 ||
		    lc > 2)
			return 0;
		*y = year_of(pg, (int)a, la == 2);
		*m = (int)b;
		*dd = (int)cc;
	} else {
		if (la > 2 || lb > 2 || !(lc == 2 || lc == 4))
			return 0;
		*y = year_of(pg, (int)cc, lc == 2);
		*m = (int)(o == FR_FDATE_DMY ? b : a);
		*dd = (int)(o == FR_FDATE_DMY ? a : b);
	}
	return date_ok(*y, *m, *dd);
}

/* Settles the order of a numeric date: the page's order where the date is
 * possible in it; else among the possible orders those not in the future,
 * the only one, else the locale's default, else D M Y before M D Y; a date
 * possible only in the future keeps its future reading (events). */
static int
settle_numeric(struct fr_fdate_page *pg, struct dt *d)
{
	static const enum fr_fdate_order all[3] = {FR_FDATE_DMY, FR_FDATE_MDY, FR_FDATE_YMD};
	int ok[4] = {0}, past[4] = {0}, n_ok = 0, n_past = 0, n_struct = 0, y, m, dd, k;
	int *set;
	enum fr_fdate_order pick = FR_FDATE_ORDER_NONE, def = locale_default(pg);

	/* a day and month alone: the order of the locale's Md pattern ("M/d"
	 * zh, whose y/M/d says nothing of them) */
	if (d->two_part && pg->main_loc >= 0 && pg->fd->v.loc[pg->main_loc].md_sep)
		def = pg->fd->v.loc[pg->main_loc].md_month_first ? FR_FDATE_MDY : FR_FDATE_DMY;

	for (k = 0; k < 3; k++) {
		int la = d->la, lc = d->lc;
		enum fr_fdate_order o = all[k];

		if (o == FR_FDATE_YMD ? (la == 4 || la == 2) && !d->two_part
		                      : la <= 2 && (d->two_part || lc == 2 || lc == 4))
			n_struct++;
		ok[o] = numeric_as(pg, d, o, &y, &m, &dd);
		past[o] = ok[o] && (d->two_part || not_future(pg, y, m, dd));
		n_ok += ok[o];
		n_past += past[o];
	}
	if (pg->collecting && n_struct >= 2) {
		pg->n_numeric++;
		for (k = 0; k < 3; k++)
			pg->valid_count[all[k]] += (size_t)past[all[k]];
	}
	if (n_ok == 0)
		return 0;
	set = n_past ? past : ok;
	if (pg->order != FR_FDATE_ORDER_NONE && ok[pg->order])
		pick = pg->order;
	else if ((n_past ? n_past : n_ok) == 1)
		pick = set[FR_FDATE_DMY] ? FR_FDATE_DMY : set[FR_FDATE_MDY] ? FR_FDATE_MDY : FR_FDATE_YMD;
	else if (set[def])
		pick = def;
	else
		pick = set[FR_FDATE_DMY] ? FR_FDATE_DMY : FR_FDATE_MDY;
	numeric_as(pg, d, pick, &y, &m, &dd);
	d->y = y;
	d->y2 = 0;
	d->m = m;
	d->d = dd;
	d->order = pick;
	d->flags |= FR_FDATE_NUMERIC;
	if (n_ok > 1)
		d->flags |= FR_FDATE_GUESSED;
	return 1;
}

/* Fills a match from a parsed date; 0 when it is not a real date. */
static int
finish(struct fr_fdate_page *pg, struct dt *d, struct fr_fdate_match *out)
{
	int64_t t;
	int y, h = d->h < 0 ? 0 : d->h;

	memset(out, 0, sizeof(*out));
	if (d->rel == 1) {
		static const int64_t unit_s[] = {1, 60, 3600, 86400, 7 * 86400};
		static const enum fr_fdate_gran g[] = {FR_FDATE_SECOND, FR_FDATE_MINUTE, FR_FDATE_HOUR,
		                                       FR_FDATE_DAY, FR_FDATE_WEEK, FR_FDATE_MONTH,
		                                       FR_FDATE_YEAR};

		if (!pg->has_now || d->rel_n > 100000)
			return 0;
		if (d->rel_unit < FR_FDV_DAY || d->rel_unit == FR_FDV_WEEK) {
			t = pg->now_s - d->rel_n * unit_s[d->rel_unit];
		} else if (d->rel_unit == FR_FDV_DAY) {
			/* a day: the local midnight starting it */
			int ry, rm, rd;
			int64_t day = fr_days_from_civil(pg->now_y, (unsigned)pg->now_m,
			                                 (unsigned)pg->now_d) -
			              d->rel_n;

			civil_from_days(day, &ry, &rm, &rd);
			t = to_utc(pg, ry, rm, rd, 0, 0, 0, 0, 0);
		} else {
			int ly, lm, ld, lh, lmi, ls;
			int64_t months = d->rel_unit == FR_FDV_MON ? d->rel_n : d->rel_n * 12;
			int64_t idx;

			to_local(pg, pg->now_s, &ly, &lm, &ld, &lh, &lmi, &ls);
			idx = (int64_t)ly * 12 + (lm - 1) - months;
			ly = (int)floor_div(idx, 12);
			lm = (int)(idx - (int64_t)ly * 12) + 1;
			if (ly < 1900)
				return 0;
			if (ld > days_in_month(ly, lm))
				ld = days_in_month(ly, lm);
			t = to_utc(pg, ly, lm, ld, lh, lmi, ls, 0, 0);
		}
		if (t < T_FIRST || t > T_LAST)
			return 0; /* "20193 weeks ago" */
		out->t_s = t;
		out->gran = g[d->rel_unit];
		out->flags = FR_FDATE_RELATIVE;
		return 1;
	}
	if (d->rel == 2) {
		int64_t day;
		int ry, rm, rd;

		if (!pg->has_now)
			return 0;
		day = fr_days_from_civil(pg->now_y, (unsigned)pg->now_m, (unsigned)pg->now_d) + d->rel_day;
		civil_from_days(day, &ry, &rm, &rd);
		d->y = ry;
		d->m = rm;
		d->d = rd;
		d->flags |= FR_FDATE_RELATIVE;
	} else if (d->numeric) {
		if (!settle_numeric(pg, d))
			return 0;
		if (d->two_part) {
			d->y = 0;
			d->flags |= FR_FDATE_NO_YEAR;
		}
	}
	if (d->m < 1 || d->m > 12 || d->d < 1)
		return 0;
	if (d->y == 0) {
		/* no year: the latest that is not after now */
		int64_t lim;

		if (!pg->has_now || d->d > days_in_month(2000, d->m))
			return 0;
		lim = pg->now_s + 86400;
		for (y = pg->now_y + 1; y >= pg->now_y - 1; y--) {
			if (d->d > days_in_month(y, d->m))
				continue;
			t = to_utc(pg, y, d->m, d->d, h, d->mi, d->s, d->has_off, d->off_s);
			if (t <= lim)
				break;
		}
		if (y < pg->now_y - 1)
			return 0;
		d->y = y;
		d->flags |= FR_FDATE_NO_YEAR;
	} else {
		y = year_of(pg, d->y, d->y2);
		if (!date_ok(y, d->m, d->d))
			return 0;
		d->y = y;
	}
	t = to_utc(pg, d->y, d->m, d->d, h, d->h < 0 ? 0 : d->mi, d->h < 0 ? 0 : d->s, d->has_off,
	           d->off_s);
	if (pg->has_now && pg->max_future_s >= 0 && !(d->flags & FR_FDATE_RELATIVE) &&
	    t > pg->now_s + pg->max_future_s)
		return 0;
	out->t_s = t;
	out->gran = d->h < 0 ? FR_FDATE_DAY
	            : d->hour_only ? FR_FDATE_HOUR
	            : d->has_s     ? FR_FDATE_SECOND
	                           : FR_FDATE_MINUTE;
	out->flags = d->flags & 0xFFu;
	if (d->has_off)
		out->flags |= FR_FDATE_ZONE;
	out->order = d->numeric ? d->order : FR_FDATE_ORDER_NONE;
	return 1;
}

/* "3 weeks ago", "hace 3 semanas", "3周前", "il y a 3 jours". */
static size_t
parse_relative_num(const struct ctx *c, size_t i, struct dt *d)
{
	const struct fr_fdv *v = &c->pg->fd->v;
	size_t j = i;
	int32_t pid = 0, m;

	if (name(c, j, FR_FDV_RELPRE)) {
		meaning(c->pg, &c->t[j], FR_FDV_RELPRE, &pid);
		j++;
		if (punct(c, j, '.') && glued(c, j))
			j++; /* "пр. 3 мин." */
	}
	if (!num(c, j, 1, 6) || !name(c, j + 1, FR_FDV_RELSUF))
		return 0;
	for (m = c->t[j + 1].head; m >= 0; m = v->mean[m].next) {
		if (v->mean[m].kind != FR_FDV_RELSUF || !(v->mean[m].locs & c->pg->locs))
			continue;
		if ((v->mean[m].val >> 4) != pid) {
			/* the prefix may be any of the word's prefixes */
			if (!(pid && name(c, i, FR_FDV_RELPRE)))
				continue;
			{
				int32_t pm, found = 0;

				for (pm = c->t[i].head; pm >= 0; pm = v->mean[pm].next)
					if (v->mean[pm].kind == FR_FDV_RELPRE &&
					    v->mean[pm].val == (v->mean[m].val >> 4) &&
					    (v->mean[pm].locs & c->pg->locs))
						found = 1;
				if (!found)
					continue;
			}
		}
		d->rel = 1;
		d->rel_unit = v->mean[m].val & 15;
		d->rel_n = c->t[j].num;
		j += 2;
		if (punct(c, j, '.') && glued(c, j) && !(num(c, j + 1, 1, 9) && glued(c, j + 1)))
			j++; /* "vor 2 Std." */
		return j;
	}
	return 0;
}

/* The time after a date: glue, "T", then a time. */
static size_t
parse_after_date(const struct ctx *c, size_t j, struct dt *d)
{
	size_t k;
	struct dt save = *d;

	if (letter_tok(c, j, 'T') && glued(c, j) && glued(c, j + 1)) {
		k = parse_time(c, j + 1, d);
		if (k)
			return k;
		*d = save;
	}
	k = parse_time(c, skip_glue(c, j, 1), d);
	if (k)
		return k;
	*d = save;
	/* A connector CLDR lacks ("Hoy a las 10:15": Spanish has no atTime
	 * pattern): after a day word, up to two short words, then a time with
	 * its colon. */
	if (d->rel != 2)
		return j;
	size_t w = j, words = 0;
	while (words < 2 && at(c, w) && (at(c, w)->type == T_WORD || at(c, w)->type == T_NAME) &&
	       at(c, w)->letter && at(c, w)->e - at(c, w)->b <= 4 && !name(c, w, FR_FDV_MONTH)) {
		w++;
		words++;
	}
	if (words && time_at(c, w)) {
		k = parse_time(c, w, d);
		if (k)
			return k;
		*d = save;
	}
	return j;
}

/* A date at i (after skipping a weekday when skip_wd), with a closing
 * word, a weekday after it and a time. Returns the end, 0 when none. */
static size_t
parse_date_from(const struct ctx *c, size_t i, int skip_wd, struct dt *d)
{
	size_t s0 = i, j, k;

	memset(d, 0, sizeof(*d));
	d->h = -1;
	if (skip_wd) {
		s0 = parse_weekday(c, i);
		if (!s0)
			return 0;
	}
	k = parse_marked(c, s0, d);
	if (!k)
		k = parse_named(c, s0, d);
	if (!k)
		k = parse_numeric(c, s0, d);
	if (!k)
		return 0;
	/* a weekday after it: "2019年11月25日星期一", "25.11.2019 (Mo)" */
	j = k;
	if (name(c, j, FR_FDV_TAIL) || name(c, j, FR_FDV_YMARK)) {
		j++;
		if (punct(c, j, '.') && glued(c, j))
			j++;
		k = j;
	}
	if (punct(c, j, '(') && parse_weekday(c, j + 1) && punct(c, parse_weekday(c, j + 1), ')')) {
		k = parse_weekday(c, j + 1) + 1;
	} else {
		size_t w = parse_weekday(c, punct(c, j, ',') ? j + 1 : j);

		if (w && !name(c, j, FR_FDV_MONTH))
			k = w;
	}
	j = parse_after_date(c, k, d);
	if (j == k) {
		/* no time: give back a comma the weekday took */
		while (k > i + 1 && punct(c, k - 1, ','))
			k--;
		j = k;
	}
	if (d->numeric && d->two_part && d->h < 0) {
		/* a day and month alone only as the locale's Md pattern writes
		 * them: "25.11." (de d.M.), "23.01" (bg d.MM, a two-digit month) */
		const struct fr_fdate_page *pg = c->pg;
		const struct fr_fdv_locale *L = pg->main_loc >= 0 ? &pg->fd->v.loc[pg->main_loc] : NULL;

		if (!L || L->md_sep != d->sep)
			return 0;
		/* or a part written with a leading zero ("7/04" zh M/d): no
		 * fraction or score is written so */
		int zero = (d->la == 2 && d->na < 10) || (d->lb == 2 && d->nb < 10);

		if (L->md_trailing_dot ? !(d->flags & TRAILING_DOT)
		                       : !zero && (!L->md_mm || (L->md_month_first ? d->la : d->lb) != 2))
			return 0;
	}
	return j;
}

/* A date at token i, with what may come before and after it. */
static size_t
parse_at(const struct ctx *c, size_t i, struct dt *d)
{
	size_t j, k;
	int pass;

	memset(d, 0, sizeof(*d));
	d->h = -1;
	/* relative */
	j = parse_relative_num(c, i, d);
	if (j != 0)
		return j;
	if (name(c, i, FR_FDV_RELDAY)) {
		int32_t off = 0;

		meaning(c->pg, &c->t[i], FR_FDV_RELDAY, &off);
		d->rel = 2;
		d->rel_day = off;
		j = i + 1;
		if (punct(c, j, '.') && glued(c, j))
			j++; /* "wcz., 10:33" */
		/* "heute morgen": a second day word is the part of the day */
		if (name(c, j, FR_FDV_RELDAY) && !name(c, j, FR_FDV_FILL))
			j++;
		return parse_after_date(c, j, d);
	}
	/* a time first: "14:03, 25.11.2019", "10:15 PM - Nov 25, 2019" */
	j = parse_time(c, i, d);
	if (j != 0) {
		struct dt t = *d;
		size_t g = skip_glue(c, j, 1);

		memset(d, 0, sizeof(*d));
		d->h = -1;
		k = parse_marked(c, g, d);
		if (!k)
			k = parse_named(c, g, d);
		if (!k) {
			size_t w = parse_weekday(c, g);

			if (w)
				k = parse_named(c, w, d);
		}
		if (!k)
			k = parse_numeric(c, g, d);
		if (k && !(d->numeric && d->two_part)) {
			d->h = t.h;
			d->mi = t.mi;
			d->s = t.s;
			d->has_s = t.has_s;
			d->hour_only = t.hour_only;
			d->has_off = t.has_off;
			d->off_s = t.off_s;
			return k;
		}
		memset(d, 0, sizeof(*d));
		d->h = -1;
	}
	/* the date; a leading weekday is tried both as a weekday and not (es
	 * "mar" is martes and marzo): the longer reading wins */
	{
		struct dt best;
		size_t best_end = 0;

		for (pass = 0; pass < 2; pass++) {
			struct dt cand;
			size_t e = parse_date_from(c, i, pass, &cand);

			if (e > best_end) {
				best_end = e;
				best = cand;
			}
		}
		if (best_end)
			*d = best;
		return best_end;
	}
}

/* Whether a date may start at token i (not inside a word or a number). */
static int
left_ok(const struct ctx *c, size_t i)
{
	const struct tok *t = &c->t[i], *p;

	if (i == 0 || t->sp)
		return 1;
	p = &c->t[i - 1];
	if (p->type == T_NUM)
		return 0;
	if ((p->type == T_WORD || p->type == T_NAME) && p->letter)
		return 0;
	if (p->type == T_PUNCT) {
		if (p->ch == '#' || p->ch == '$' || p->ch == '@' || p->ch == '_' || p->ch == '+' ||
		    p->ch == '=' || p->ch == '&' || p->ch == '%')
			return 0;
		if ((p->ch == '.' || p->ch == ',' || p->ch == '-' || p->ch == '/' || p->ch == ':' ||
		     p->ch == '\\' || p->ch == '~') &&
		    i >= 2 && !p->sp && c->t[i - 2].type == T_NUM)
			return 0;
		if (p->ch == '-' && t->type == T_NUM)
			return 0; /* a negative number */
	}
	return 1;
}

/* Whether a date may end before token e. */
static int
right_ok(const struct ctx *c, size_t e)
{
	const struct tok *t = at(c, e);

	if (!t || t->sp)
		return 1;
	if (t->type == T_NUM)
		return 0;
	if ((t->type == T_WORD || t->type == T_NAME) && !t->cjk && e > 0 && c->t[e - 1].type == T_NUM &&
	    (c->s[t->b] & 0x80) == 0)
		return 0; /* "2019x" */
	if (t->type == T_PUNCT && (t->ch == '.' || t->ch == ',' || t->ch == '-' || t->ch == '/' ||
	                           t->ch == ':' || t->ch == '\\') &&
	    num(c, e + 1, 1, 9) && glued(c, e + 1))
		return 0;
	if (t->type == T_PUNCT && (t->ch == '%' || t->ch == '$'))
		return 0;
	return 1;
}

static int
may_start(const struct tok *t)
{
	return t->type == T_NUM ||
	       (t->type == T_NAME &&
	        (t->kinds & (uint32_t)(kind_bit(FR_FDV_MONTH) | kind_bit(FR_FDV_WDAY) |
	                               kind_bit(FR_FDV_RELDAY) | kind_bit(FR_FDV_RELPRE) |
	                               kind_bit(FR_FDV_PERIOD))));
}

/* Scans tokens [0, limit) for starts (tokens up to n are lookahead);
 * returns the token index where the next window must start. */
static size_t
scan_tokens(const struct ctx *c, size_t limit, struct fr_fdate_match *out, size_t max, size_t *found)
{
	size_t i = 0;

	while (i < limit) {
		struct dt d;
		size_t e;
		struct fr_fdate_match m;

		if (!may_start(&c->t[i]) || !left_ok(c, i)) {
			i++;
			continue;
		}
		e = parse_at(c, i, &d);
		if (e > i && right_ok(c, e) && finish(c->pg, &d, &m)) {
			m.begin = c->t[i].b;
			m.end = c->t[e - 1].e;
			if (*found < max && out)
				out[*found] = m;
			(*found)++;
			i = e;
			continue;
		}
		i++;
	}
	return i;
}

size_t
fr_fdate_scan(struct fr_fdate_page *pg, const char *text, size_t len, struct fr_fdate_match *out,
              size_t max)
{
	size_t pos = 0, found = 0;

	if (!text)
		return 0;
	while (pos < len) {
		size_t next, n, limit, stop;
		struct ctx c;

		n = tokenize(pg, text, len, pos, pg->tok, TOK_WINDOW + TOK_LOOKAHEAD, &next);
		if (n == 0)
			break;
		c.pg = pg;
		c.s = text;
		c.t = pg->tok;
		c.n = n;
		limit = n <= TOK_WINDOW || next >= len ? n : TOK_WINDOW;
		stop = scan_tokens(&c, limit, out, max, &found);
		if (stop >= n)
			break;
		pos = pg->tok[stop].b;
		if (stop == 0)
			break;
	}
	return found;
}

/* ---- pages ---- */

int
fr_fdate_new(struct fr_fdate **out)
{
	struct fr_fdate *fd = calloc(1, sizeof(*fd));

	*out = NULL;
	if (!fd)
		return -1;
	if (fr_fdv_init(&fd->v) < 0) {
		free(fd);
		return -1;
	}
	*out = fd;
	return 0;
}

void
fr_fdate_free(struct fr_fdate *fd)
{
	if (!fd)
		return;
	fr_fdv_free(&fd->v);
	free(fd);
}

/* Learns each locale of a comma-separated list; sets *mask and *first. */
static int
load_list(struct fr_fdate *fd, const char *list, uint32_t *mask, int *first, char *err,
          size_t errlen)
{
	const char *p = list;

	*mask = 0;
	*first = -1;
	while (*p) {
		char id[64];
		size_t n = 0;
		int idx;

		while (*p == ',' || *p == ' ')
			p++;
		while (p[n] && p[n] != ',' && p[n] != ' ')
			n++;
		if (n == 0)
			break;
		if (n >= sizeof(id))
			return fr_errf(err, errlen, "locale '%.*s': not a locale ID", (int)n, p);
		memcpy(id, p, n);
		id[n] = '\0';
		idx = fr_fdv_locale(&fd->v, id, err, errlen);
		if (idx < 0)
			return -1;
		*mask |= 1u << idx;
		if (*first < 0)
			*first = idx;
		p += n;
	}
	return 0;
}

int
fr_fdate_load(struct fr_fdate *fd, const char *locales, char *err, size_t errlen)
{
	uint32_t mask;
	int first;

	return load_list(fd, locales ? locales : FR_FDATE_DEFAULT_LOCALES, &mask, &first, err, errlen);
}

enum fr_fdate_order
fr_fdate_locale_order(struct fr_fdate *fd, const char *locale)
{
	int idx = fr_fdv_locale(&fd->v, locale, NULL, 0);

	return idx < 0 ? FR_FDATE_ORDER_NONE : fd->v.loc[idx].order;
}

int
fr_fdate_page_new(struct fr_fdate *fd, const struct fr_fdate_page_opts *opts,
                  struct fr_fdate_page **out, char *err, size_t errlen)
{
	struct fr_fdate_page *pg;
	const char *list = opts && opts->locales && *opts->locales ? opts->locales : NULL;
	int first;

	*out = NULL;
	pg = calloc(1, sizeof(*pg));
	if (!pg)
		return fr_errf(err, errlen, "out of memory");
	pg->fd = fd;
	pg->tok = malloc((TOK_WINDOW + TOK_LOOKAHEAD) * sizeof(*pg->tok));
	if (!pg->tok) {
		free(pg);
		return fr_errf(err, errlen, "out of memory");
	}
	if (load_list(fd, list ? list : FR_FDATE_DEFAULT_LOCALES, &pg->locs, &first, err, errlen) < 0)
		goto fail;
	pg->main_loc = list ? first : -1;
	{
		size_t i;

		for (i = 0; i < fd->v.n_loc; i++)
			if ((pg->locs >> i) & 1u)
				pg->y_dot |= fd->v.loc[i].y_dot;
	}
	if (opts && opts->zone && *opts->zone && strcmp(opts->zone, "UTC") != 0 &&
	    strcmp(opts->zone, "Etc/UTC") != 0) {
		UChar z[128];
		UChar canon[128];
		UBool sys = 0;
		UErrorCode e = U_ZERO_ERROR;
		int32_t zn;

		u_strFromUTF8(z, 128, &zn, opts->zone, -1, &e);
		if (U_SUCCESS(e) && zn < 128)
			ucal_getCanonicalTimeZoneID(z, zn, canon, 128, &sys, &e);
		if (U_FAILURE(e) || !sys) {
			fr_errf(err, errlen, "zone '%s' unknown", opts->zone);
			goto fail;
		}
		pg->cal = ucal_open(z, zn, "en", UCAL_GREGORIAN, &e);
		if (U_FAILURE(e)) {
			fr_errf(err, errlen, "zone '%s': %s", opts->zone, u_errorName(e));
			goto fail;
		}
		/* proleptic Gregorian: no Julian switch in 1582 */
		ucal_setGregorianChange(pg->cal, -8.64e15, &e);
	}
	if (opts) {
		pg->has_now = opts->has_now;
		pg->now_s = opts->now_s;
		pg->max_future_s = opts->max_future_s == 0 ? FUTURE_DEFAULT_S : opts->max_future_s;
		pg->order = opts->order;
	} else {
		pg->max_future_s = FUTURE_DEFAULT_S;
	}
	if (pg->has_now) {
		int h, mi, s;

		to_local(pg, pg->now_s, &pg->now_y, &pg->now_m, &pg->now_d, &h, &mi, &s);
	}
	*out = pg;
	return 0;
fail:
	fr_fdate_page_free(pg);
	return -1;
}

void
fr_fdate_page_free(struct fr_fdate_page *pg)
{
	if (!pg)
		return;
	if (pg->cal)
		ucal_close(pg->cal);
	free(pg->tok);
	free(pg);
}

void
fr_fdate_page_set_order(struct fr_fdate_page *pg, enum fr_fdate_order order)
{
	pg->order = order;
}

void
fr_fdate_page_set_now(struct fr_fdate_page *pg, int64_t now_s)
{
	int h, mi, s;

	pg->now_s = now_s;
	pg->has_now = 1;
	to_local(pg, now_s, &pg->now_y, &pg->now_m, &pg->now_d, &h, &mi, &s);
}

size_t
fr_fdate_page_decide_order(struct fr_fdate_page *pg, const char *const *texts, const size_t *lens,
                           size_t n, enum fr_fdate_order *out)
{
	static const enum fr_fdate_order pref[3] = {FR_FDATE_DMY, FR_FDATE_MDY, FR_FDATE_YMD};
	enum fr_fdate_order keep = pg->order, best = FR_FDATE_ORDER_NONE, def = locale_default(pg);
	size_t i, seen, best_n = 0;
	int k;

	pg->order = FR_FDATE_ORDER_NONE;
	pg->collecting = 1;
	pg->n_numeric = 0;
	memset(pg->valid_count, 0, sizeof(pg->valid_count));
	for (i = 0; i < n; i++)
		if (texts[i])
			fr_fdate_scan(pg, texts[i], lens[i], NULL, 0);
	pg->collecting = 0;
	seen = pg->n_numeric;
	for (k = 0; k < 3; k++) {
		size_t cnt = pg->valid_count[pref[k]];

		if (cnt > best_n || (cnt == best_n && cnt > 0 && pref[k] == def)) {
			best = pref[k];
			best_n = cnt;
		}
	}
	pg->order = seen ? best : keep;
	if (out)
		*out = seen ? best : FR_FDATE_ORDER_NONE;
	return seen;
}

/* ---- attributes ---- */

static int
all_digits(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return 0;
	return n > 0;
}

static int
parse_attr(struct fr_fdate_page *pg, const char *s, size_t len, struct fr_fdate_match *out)
{
	size_t a = 0, b = len, i, dot;
	int64_t t;
	struct fr_fdate_match m;

	if (!s)
		return -1;
	while (a < b && (s[a] == ' ' || (s[a] >= '\t' && s[a] <= '\r')))
		a++;
	while (b > a && (s[b - 1] == ' ' || (s[b - 1] >= '\t' && s[b - 1] <= '\r')))
		b--;
	if (a == b)
		return -1;
	memset(&m, 0, sizeof(m));
	m.begin = a;
	m.end = b;
	/* Unix seconds or milliseconds */
	for (dot = a; dot < b && s[dot] != '.'; dot++)
		;
	if (all_digits(s + a, dot - a) && (dot == b || all_digits(s + dot + 1, b - dot - 1))) {
		size_t nd = dot - a;
		int64_t v = 0;

		if (nd < 9 || nd > 14)
			return -1;
		for (i = a; i < dot; i++)
			v = v * 10 + (s[i] - '0');
		if (nd >= 12)
			v /= 1000;
		m.t_s = v;
		m.gran = FR_FDATE_SECOND;
		*out = m;
		return 0;
	}
	/* ISO 8601 / RFC 3339 / RFC 822 through the feed date parser */
	if (fr_date_parse_ex(s + a, b - a, FR_DATE_STRICT, &t) == 0) {
		int iso = b - a >= 10 && s[a + 4] == '-' && all_digits(s + a, 4);
		int has_time = 0, has_zone = 0, has_sec = 0;

		if (iso && b - a > 10 && (s[a + 10] == 'T' || s[a + 10] == 't' || s[a + 10] == ' ')) {
			size_t q = a + 11;

			has_time = 1;
			while (q < b && ((s[q] >= '0' && s[q] <= '9') || s[q] == ':'))
				has_sec |= s[q++] == ':' && q > a + 14;
			for (; q < b; q++)
				if (s[q] == 'Z' || s[q] == 'z' || s[q] == '+' || s[q] == '-')
					has_zone = 1;
		}
		if (!iso) {
			m.t_s = t;
			m.gran = FR_FDATE_SECOND;
			m.flags = FR_FDATE_ZONE;
			*out = m;
			return 0;
		}
		if (!has_time) {
			int y, mo, d, h, mi, sec;

			to_local(&(struct fr_fdate_page){0}, t, &y, &mo, &d, &h, &mi, &sec);
			m.t_s = to_utc(pg, y, mo, d, 0, 0, 0, 0, 0);
			m.gran = FR_FDATE_DAY;
		} else if (!has_zone) {
			int y, mo, d, h, mi, sec;

			to_local(&(struct fr_fdate_page){0}, t, &y, &mo, &d, &h, &mi, &sec);
			m.t_s = to_utc(pg, y, mo, d, h, mi, sec, 0, 0);
			m.gran = has_sec ? FR_FDATE_SECOND : FR_FDATE_MINUTE;
		} else {
			m.t_s = t;
			m.gran = has_sec ? FR_FDATE_SECOND : FR_FDATE_MINUTE;
			m.flags = FR_FDATE_ZONE;
		}
		*out = m;
		return 0;
	}
	/* a human date filling the value */
	{
		struct fr_fdate_match hm;

		if (fr_fdate_scan(pg, s + a, b - a, &hm, 1) == 1 && hm.begin == 0) {
			size_t end = hm.end;

			while (end < b - a && (s[a + end] == '.' || s[a + end] == ' ' || s[a + end] == ')'))
				end++;
			if (end == b - a) {
				hm.begin = a;
				hm.end = b;
				*out = hm;
				return 0;
			}
		}
	}
	return -1;
}

/* A machine-readable value is held to the same range as a date read from
 * text: 1900 to 2199, and no further ahead of now than the page allows
 * (a stray datetime="4052-09-19" or a 14-digit counter is no post date). */
int
fr_fdate_parse_attr(struct fr_fdate_page *pg, const char *s, size_t len,
                    struct fr_fdate_match *out)
{
	struct fr_fdate_match m;

	if (parse_attr(pg, s, len, &m) != 0)
		return -1;
	if (m.t_s < T_FIRST || m.t_s > T_LAST)
		return -1;
	if (pg->has_now && pg->max_future_s >= 0 && !(m.flags & FR_FDATE_RELATIVE) &&
	    m.t_s > pg->now_s + pg->max_future_s)
		return -1;
	*out = m;
	return 0;
}

int
fr_fdate_element(struct fr_fdate_page *pg, const char *text, size_t len,
                 const char *const *attrs, const size_t *lens, size_t n,
                 struct fr_fdate_match *out)
{
	struct fr_fdate_match tm, am;
	int have_text = text && fr_fdate_scan(pg, text, len, &tm, 1) >= 1;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!attrs || !attrs[i])
			continue;
		if (fr_fdate_parse_attr(pg, attrs[i], lens[i], &am) == 0) {
			am.begin = have_text ? tm.begin : 0;
			am.end = have_text ? tm.end : 0;
			am.flags |= FR_FDATE_FROM_ATTR;
			*out = am;
			return 0;
		}
	}
	if (!have_text)
		return -1;
	*out = tm;
	return 0;
}

const char *
fr_fdate_gran_name(enum fr_fdate_gran g)
{
	static const char *names[] = {"second", "minute", "hour", "day", "week", "month", "year"};

	return (unsigned)g < 7 ? names[g] : "?";
}

const char *
fr_fdate_order_name(enum fr_fdate_order o)
{
	switch (o) {
	case FR_FDATE_DMY:
		return "DMY";
	case FR_FDATE_MDY:
		return "MDY";
	case FR_FDATE_YMD:
		return "YMD";
	default:
		return "none";
	}
}
