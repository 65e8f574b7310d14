/* fdate_vocab.c - learns the words of dates of a locale from CLDR through
 * ICU's C API (date symbols, date/time patterns and skeletons, day periods,
 * relative-time formats, ordinals, zone names) and keeps them in one trie of
 * case-folded UTF-8 keys shared by every locale. */
#include "forum/fdate_vocab.h"

#include "core/err.h"

#include <unicode/uchar.h>
#include <unicode/udat.h>
#include <unicode/udatpg.h>
#include <unicode/uloc.h>
#include <unicode/unum.h>
#include <unicode/ureldatefmt.h>
#include <unicode/ustring.h>

#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct fr_fdv_node {
	uint32_t child;   /* first child, 0 = none (the root is never a child) */
	uint32_t sibling; /* next sibling, sorted by byte; 0 = none */
	int32_t head;     /* first meaning, -1 = none */
	uint8_t byte;
	uint8_t bound; /* the key ends in a letter of a spaced script */
};

#define KEY_MAX 128 /* bytes of a folded key; longer words are not learnt */

/* ---- UTF-8 and folding ---- */

size_t
fr_fdv_utf8(const char *s, size_t len, size_t pos, int32_t *cp)
{
	const unsigned char *p = (const unsigned char *)s + pos;
	size_t left = len - pos, n, i;
	int32_t c;

	if (p[0] < 0x80) {
		*cp = p[0];
		return 1;
	}
	if (p[0] >= 0xC2 && p[0] <= 0xDF) {
		n = 2;
		c = p[0] & 0x1F;
	} else if (p[0] >= 0xE0 && p[0] <= 0xEF) {
		n = 3;
		c = p[0] & 0x0F;
	} else if (p[0] >= 0xF0 && p[0] <= 0xF4) {
		n = 4;
		c = p[0] & 0x07;
	} else {
		*cp = 0xFFFD;
		return 1;
	}
	if (n > left) {
		*cp = 0xFFFD;
		return 1;
	}
	for (i = 1; i < n; i++) {
		if ((p[i] & 0xC0) != 0x80) {
			*cp = 0xFFFD;
			return 1;
		}
		c = (c << 6) | (p[i] & 0x3F);
	}
	if ((n == 3 && (c < 0x800 || (c >= 0xD800 && c <= 0xDFFF))) || (n == 4 && (c < 0x10000 || c > 0x10FFFF))) {
		*cp = 0xFFFD;
		return 1;
	}
	*cp = c;
	return n;
}

static size_t
put_utf8(int32_t c, char *out)
{
	if (c < 0x80) {
		out[0] = (char)c;
		return 1;
	}
	if (c < 0x800) {
		out[0] = (char)(0xC0 | (c >> 6));
		out[1] = (char)(0x80 | (c & 0x3F));
		return 2;
	}
	if (c < 0x10000) {
		out[0] = (char)(0xE0 | (c >> 12));
		out[1] = (char)(0x80 | ((c >> 6) & 0x3F));
		out[2] = (char)(0x80 | (c & 0x3F));
		return 3;
	}
	out[0] = (char)(0xF0 | (c >> 18));
	out[1] = (char)(0x80 | ((c >> 12) & 0x3F));
	out[2] = (char)(0x80 | ((c >> 6) & 0x3F));
	out[3] = (char)(0x80 | (c & 0x3F));
	return 4;
}

int
fr_fdv_is_cjk(int32_t cp)
{
	return (cp >= 0x2E80 && cp <= 0x9FFF) || (cp >= 0xAC00 && cp <= 0xD7AF) ||
	       (cp >= 0x1100 && cp <= 0x11FF) || (cp >= 0xF900 && cp <= 0xFAFF) ||
	       (cp >= 0x20000 && cp <= 0x2FFFF);
}

/* Blanks of any width read as one space; marks of direction and zero-width
 * characters are skipped. Returns 1 blank, 2 skip, 0 other. */
static int
blank_class(int32_t c)
{
	if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' || c == 0xA0 ||
	    (c >= 0x2000 && c <= 0x200A) || c == 0x202F || c == 0x205F || c == 0x3000 || c == 0x1680)
		return 1;
	if ((c >= 0x200B && c <= 0x200F) || c == 0xFEFF || c == 0xAD || c == 0x2060 || c == 0x061C)
		return 2;
	return 0;
}

/* Simple case folding, the same for keys and text. */
static int32_t
fold(int32_t c)
{
	if (c < 0x80)
		return c >= 'A' && c <= 'Z' ? c + 32 : c;
	return (int32_t)u_foldCase((UChar32)c, U_FOLD_CASE_DEFAULT);
}

static int
is_spaced_letter(int32_t c)
{
	if (c < 0x80)
		return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
	return u_isalpha((UChar32)c) && !fr_fdv_is_cjk(c);
}

/* Folds the n UTF-16 units at u into a key: case-folded, blanks as single
 * spaces, trimmed, without trailing dots. Returns its length, 0 if empty or
 * too long. */
static size_t
make_key(const UChar *u, int32_t n, char *out)
{
	size_t k = 0;
	int32_t i = 0;
	int space = 0;

	while (i < n) {
		UChar32 c;
		int b;

		U16_NEXT(u, i, n, c);
		b = blank_class(c);
		if (b == 2)
			continue;
		if (b == 1) {
			space = k > 0;
			continue;
		}
		if (k + 5 >= KEY_MAX)
			return 0;
		if (space) {
			out[k++] = ' ';
			space = 0;
		}
		k += put_utf8(fold(c), out + k);
	}
	while (k > 0 && out[k - 1] == '.')
		k--;
	while (k > 0 && out[k - 1] == ' ')
		k--;
	out[k] = '\0';
	return k;
}

/* ---- the trie ---- */

static int
grow(void **p, size_t *cap, size_t need, size_t size)
{
	size_t c = *cap ? *cap : 64;
	void *q;

	if (need <= *cap)
		return 0;
	while (c < need)
		c *= 2;
	q = realloc(*p, c * size);
	if (!q)
		return -1;
	*p = q;
	*cap = c;
	return 0;
}

static int32_t
new_node(struct fr_fdv *v, uint8_t byte)
{
	struct fr_fdv_node *nd;

	if (grow((void **)&v->nodes, &v->cap_nodes, v->n_nodes + 1, sizeof(*v->nodes)) < 0)
		return -1;
	nd = &v->nodes[v->n_nodes];
	memset(nd, 0, sizeof(*nd));
	nd->head = -1;
	nd->byte = byte;
	return (int32_t)v->n_nodes++;
}

int
fr_fdv_init(struct fr_fdv *v)
{
	memset(v, 0, sizeof(*v));
	return new_node(v, 0) < 0 ? -1 : 0;
}

void
fr_fdv_free(struct fr_fdv *v)
{
	size_t i;

	free(v->nodes);
	free(v->mean);
	for (i = 0; i < v->n_prefixes; i++)
		free(v->prefixes[i]);
	free(v->prefixes);
	memset(v, 0, sizeof(*v));
}

/* The child of node for byte b, created when create is set. 0 when absent
 * (or out of memory, then *oom is set). */
static uint32_t
child(struct fr_fdv *v, uint32_t node, uint8_t b, int create, int *oom)
{
	uint32_t prev = 0, cur;
	int32_t nn;

	if (node == 0) {
		if (v->root[b] || !create)
			return v->root[b];
		nn = new_node(v, b);
		if (nn < 0) {
			*oom = 1;
			return 0;
		}
		v->root[b] = (uint32_t)nn;
		return (uint32_t)nn;
	}
	cur = v->nodes[node].child;
	while (cur && v->nodes[cur].byte < b) {
		prev = cur;
		cur = v->nodes[cur].sibling;
	}
	if (cur && v->nodes[cur].byte == b)
		return cur;
	if (!create)
		return 0;
	nn = new_node(v, b);
	if (nn < 0) {
		*oom = 1;
		return 0;
	}
	v->nodes[nn].sibling = cur;
	if (prev)
		v->nodes[prev].sibling = (uint32_t)nn;
	else
		v->nodes[node].child = (uint32_t)nn;
	return (uint32_t)nn;
}

/* Adds meaning (kind, val) in locale bit loc to the folded key. */
static int
add_key(struct fr_fdv *v, const char *key, size_t len, int kind, int32_t val, int loc)
{
	uint32_t node = 0;
	size_t i;
	int32_t m;
	int oom = 0;
	int32_t last;

	if (len == 0)
		return 0;
	for (i = 0; i < len; i++) {
		node = child(v, node, (uint8_t)key[i], 1, &oom);
		if (oom)
			return -1;
	}
	/* the last character decides whether a boundary must follow */
	{
		size_t p = len - 1;
		while (p > 0 && ((unsigned char)key[p] & 0xC0) == 0x80)
			p--;
		fr_fdv_utf8(key, len, p, &last);
		v->nodes[node].bound = (uint8_t)is_spaced_letter(last);
	}
	for (m = v->nodes[node].head; m >= 0; m = v->mean[m].next) {
		if (v->mean[m].kind == kind && v->mean[m].val == val) {
			v->mean[m].locs |= 1u << loc;
			return 0;
		}
	}
	if (grow((void **)&v->mean, &v->cap_mean, v->n_mean + 1, sizeof(*v->mean)) < 0)
		return -1;
	m = (int32_t)v->n_mean++;
	v->mean[m].kind = (uint8_t)kind;
	v->mean[m].val = val;
	v->mean[m].locs = 1u << loc;
	v->mean[m].next = v->nodes[node].head;
	v->nodes[node].head = m;
	v->first_byte[(uint8_t)key[0] >> 5] |= 1u << ((uint8_t)key[0] & 31);
	return 0;
}

/* Adds a key and its spelling variants: an ASCII apostrophe for U+2019
 * ("aujourd'hui"), dots without the space after them ("p.m." for "p. m."). */
static int
add_variants(struct fr_fdv *v, const char *key, size_t len, int kind, int32_t val, int loc)
{
	char alt[KEY_MAX];
	size_t i, k;

	if (add_key(v, key, len, kind, val, loc) < 0)
		return -1;
	for (i = k = 0; i < len; i++) {
		if (i + 2 < len && (unsigned char)key[i] == 0xE2 && (unsigned char)key[i + 1] == 0x80 &&
		    (unsigned char)key[i + 2] == 0x99) {
			alt[k++] = '\'';
			i += 2;
		} else {
			alt[k++] = key[i];
		}
	}
	if (k != len && add_key(v, alt, k, kind, val, loc) < 0)
		return -1;
	for (i = k = 0; i < len; i++) {
		alt[k++] = key[i];
		if (key[i] == '.' && i + 1 < len && key[i + 1] == ' ')
			i++;
	}
	if (k != len && add_key(v, alt, k, kind, val, loc) < 0)
		return -1;
	return 0;
}

/* Adds a word as ICU gave it (n UTF-16 units), in the folded form and in the
 * fold of its locale-specific upper case (Turkish "KASIM" folds to "kasim",
 * not "kasım"). */
static int
add_word(struct fr_fdv *v, const char *locid, const UChar *u, int32_t n, int kind, int32_t val,
         int loc)
{
	char key[KEY_MAX];
	UChar up[KEY_MAX];
	UErrorCode e = U_ZERO_ERROR;
	size_t len = make_key(u, n, key);
	int32_t un;

	if (len == 0)
		return 0;
	if (add_variants(v, key, len, kind, val, loc) < 0)
		return -1;
	un = u_strToUpper(up, KEY_MAX, u, n, locid, &e);
	if (U_SUCCESS(e) && un < KEY_MAX) {
		char k2[KEY_MAX];
		size_t l2 = make_key(up, un, k2);

		if (l2 && (l2 != len || memcmp(k2, key, len) != 0))
			return add_variants(v, k2, l2, kind, val, loc);
	}
	return 0;
}

size_t
fr_fdv_lookup(const struct fr_fdv *v, const char *s, size_t len, size_t pos, uint32_t locs,
              int32_t *head)
{
	uint32_t node = 0;
	size_t p = pos, best = 0;
	int pending_space = 0;

	*head = -1;
	while (p < len) {
		int32_t c;
		size_t cl = fr_fdv_utf8(s, len, p, &c);
		char buf[4];
		size_t bl, i;
		int b = c < 0x80 && c != ' ' && (c < '\t' || c > '\r') ? 0 : blank_class(c);

		if (b == 2) {
			p += cl;
			continue;
		}
		if (b == 1) {
			if (node == 0)
				break;
			pending_space = 1;
			p += cl;
			continue;
		}
		if (pending_space) {
			node = child((struct fr_fdv *)v, node, ' ', 0, NULL);
			pending_space = 0;
			if (!node)
				break;
		}
		bl = put_utf8(fold(c), buf);
		for (i = 0; i < bl && node != UINT32_MAX; i++) {
			uint32_t nx = child((struct fr_fdv *)v, node, (uint8_t)buf[i], 0, NULL);
			node = nx ? nx : UINT32_MAX;
		}
		if (node == UINT32_MAX)
			break;
		p += cl;
		if (v->nodes[node].head >= 0) {
			int32_t m, ok = -1;

			for (m = v->nodes[node].head; m >= 0; m = v->mean[m].next) {
				if (v->mean[m].locs & locs) {
					ok = m;
					break;
				}
			}
			if (ok >= 0) {
				int fine = 1;

				if (v->nodes[node].bound && p < len) {
					int32_t nc;

					fr_fdv_utf8(s, len, p, &nc);
					fine = !(nc < 0x80 ? is_spaced_letter(nc) : u_isalpha((UChar32)nc) && !fr_fdv_is_cjk(nc));
				}
				if (fine) {
					best = p - pos;
					*head = v->nodes[node].head;
				}
			}
		}
	}
	return best;
}

/* ---- learning a locale ---- */

/* A word with the hours it stands for (day periods are gathered before
 * they are added: one word covers several hours). */
struct period {
	UChar w[48];
	int32_t n;
	int32_t mask;
};

struct learn {
	struct fr_fdv *v;
	const char *id;
	int loc;
	struct period per[64];
	size_t n_per;
};

static void
note_period(struct learn *l, const UChar *w, int32_t n, int32_t hours)
{
	size_t i;

	if (n <= 0 || n >= 48)
		return;
	for (i = 0; i < l->n_per; i++) {
		if (l->per[i].n == n && memcmp(l->per[i].w, w, (size_t)n * sizeof(UChar)) == 0) {
			l->per[i].mask |= hours;
			return;
		}
	}
	if (l->n_per == sizeof(l->per) / sizeof(l->per[0]))
		return;
	memcpy(l->per[l->n_per].w, w, (size_t)n * sizeof(UChar));
	l->per[l->n_per].n = n;
	l->per[l->n_per].mask = hours;
	l->n_per++;
}

static int
has_digit(const UChar *u, int32_t n)
{
	int32_t i;

	for (i = 0; i < n; i++)
		if (u[i] >= '0' && u[i] <= '9')
			return 1;
	return 0;
}

/* Candidate month and weekday names of one locale, checked for clashes
 * before they go in the trie. */
struct cand {
	char key[KEY_MAX];
	size_t len;
	uint8_t kind;
	int8_t val;
	uint8_t derived;
};

struct cands {
	struct cand *c;
	size_t n, cap;
};

static int
cand_add(struct cands *cs, const char *key, size_t len, int kind, int val, int derived)
{
	if (len == 0)
		return 0;
	if (grow((void **)&cs->c, &cs->cap, cs->n + 1, sizeof(*cs->c)) < 0)
		return -1;
	memcpy(cs->c[cs->n].key, key, len + 1);
	cs->c[cs->n].len = len;
	cs->c[cs->n].kind = (uint8_t)kind;
	cs->c[cs->n].val = (int8_t)val;
	cs->c[cs->n].derived = (uint8_t)derived;
	cs->n++;
	return 0;
}

/* Full names also give their first 3 and 4 letters ("Sept", "Mär", "Dez"
 * as people write them), unless that prefix would mean something else in
 * the same locale (fr "mar" is mardi's abbreviation, so "mars" gives none). */
static int
cand_add_prefixes(struct cands *cs, const char *key, size_t len, int kind, int val)
{
	size_t p = 0, ncp = 0, cut[6] = {0};
	int32_t c;

	fr_fdv_utf8(key, len, 0, &c);
	if (!is_spaced_letter(c))
		return 0;
	while (p < len && ncp < 5) {
		p += fr_fdv_utf8(key, len, p, &c);
		if (!is_spaced_letter(c))
			return 0;
		cut[++ncp] = p;
	}
	if (ncp < 5)
		return 0; /* names of 4 letters or fewer are their own abbreviation */
	/* weekdays only by four letters ("Tues", "Thur"): three are often words ("mit") */
	if (kind == FR_FDV_MONTH) {
		if (cand_add(cs, key, cut[3], kind, val, 1) < 0)
			return -1;
		cs->c[cs->n - 1].key[cut[3]] = '\0';
	}
	if (cand_add(cs, key, cut[4], kind, val, 1) < 0)
		return -1;
	cs->c[cs->n - 1].key[cut[4]] = '\0';
	return 0;
}

static int
learn_names(struct learn *l, UDateFormat *f)
{
	static const UDateFormatSymbolType months[] = {UDAT_MONTHS, UDAT_SHORT_MONTHS,
	                                               UDAT_STANDALONE_MONTHS,
	                                               UDAT_STANDALONE_SHORT_MONTHS};
	static const UDateFormatSymbolType wdays[] = {UDAT_WEEKDAYS, UDAT_SHORT_WEEKDAYS,
	                                              UDAT_STANDALONE_WEEKDAYS,
	                                              UDAT_STANDALONE_SHORT_WEEKDAYS};
	struct cands cs = {0};
	size_t t, i, j;
	int rc = -1;

	for (t = 0; t < 8; t++) {
		UDateFormatSymbolType ty = t < 4 ? months[t] : wdays[t - 4];
		int kind = t < 4 ? FR_FDV_MONTH : FR_FDV_WDAY;
		int full = t == 0 || t == 2 || t == 4 || t == 6;
		int32_t cnt = udat_countSymbols(f, ty), k;

		for (k = 0; k < cnt && k < 13; k++) {
			UChar u[KEY_MAX];
			UErrorCode e = U_ZERO_ERROR;
			int32_t n = udat_getSymbols(f, ty, k, u, KEY_MAX, &e);
			char key[KEY_MAX];
			size_t len;
			int val = kind == FR_FDV_MONTH ? k + 1 : k;

			if (U_FAILURE(e) || n <= 0 || n >= KEY_MAX || val < 1)
				continue;
			if (has_digit(u, n)) {
				/* "11月", "11월": the letters after the digits mark a numeric month */
				int32_t a = 0;

				while (a < n && !(u[a] >= '0' && u[a] <= '9'))
					a++;
				while (a < n && u[a] >= '0' && u[a] <= '9')
					a++;
				if (a < n && add_word(l->v, l->id, u + a, n - a, FR_FDV_MMARK, 0, l->loc) < 0)
					goto out;
				continue;
			}
			len = make_key(u, n, key);
			if (cand_add(&cs, key, len, kind, val, 0) < 0)
				goto out;
			if (full && cand_add_prefixes(&cs, key, len, kind, val) < 0)
				goto out;
			/* the locale's upper case, folded, as a variant */
			{
				UChar up[KEY_MAX];
				UErrorCode e2 = U_ZERO_ERROR;
				int32_t un = u_strToUpper(up, KEY_MAX, u, n, l->id, &e2);

				if (U_SUCCESS(e2) && un < KEY_MAX) {
					char k2[KEY_MAX];
					size_t l2 = make_key(up, un, k2);

					if (l2 && (l2 != len || memcmp(k2, key, len) != 0)) {
						if (cand_add(&cs, k2, l2, kind, val, 0) < 0)
							goto out;
						if (full && cand_add_prefixes(&cs, k2, l2, kind, val) < 0)
							goto out;
					}
				}
			}
		}
	}
	for (i = 0; i < cs.n; i++) {
		struct cand *a = &cs.c[i];
		int clash = 0;

		if (a->derived) {
			for (j = 0; j < cs.n && !clash; j++) {
				struct cand *b = &cs.c[j];

				clash = j != i && b->len == a->len && memcmp(b->key, a->key, a->len) == 0 &&
				        (b->kind != a->kind || b->val != a->val);
			}
		}
		if (!clash && add_variants(l->v, a->key, a->len, a->kind,
		                           a->val | (a->derived && a->kind == FR_FDV_MONTH ? FR_FDV_DERIVED : 0),
		                           l->loc) < 0)
			goto out;
	}
	/* AM and PM */
	for (i = 0; i < 2; i++) {
		UChar u[KEY_MAX];
		UErrorCode e = U_ZERO_ERROR;
		int32_t n = udat_getSymbols(f, UDAT_AM_PMS, (int32_t)i, u, KEY_MAX, &e);

		if (U_SUCCESS(e) && n > 0 && n < KEY_MAX)
			note_period(l, u, n, i == 0 ? 0x000FFF : 0xFFF000);
	}
	rc = 0;
out:
	free(cs.c);
	return rc;
}

/* Day periods ("nachm.", "晚上", "in the evening"): which hours each word
 * covers, by formatting every hour with patterns B and b. */
static void
learn_day_periods(struct learn *l)
{
	/* with a time: ICU picks the period of the whole time ("12:21 по подне") */
	static const UChar *pats[] = {u"h:mm B", u"h:mm BBBB", u"h:mm b"};
	size_t p;

	for (p = 0; p < 3; p++) {
		UErrorCode e = U_ZERO_ERROR;
		UDateFormat *f = udat_open(UDAT_PATTERN, UDAT_PATTERN, l->id, u"UTC", -1, pats[p], -1, &e);
		int h;

		if (U_FAILURE(e))
			continue;
		for (h = 0; h < 24 * 4; h++) {
			/* four minutes of each hour: noon may be 12:00 only */
			static const int mins[4] = {0, 1, 20, 59};
			UChar o[64];
			UErrorCode e2 = U_ZERO_ERROR;
			int32_t n = udat_format(f, ((h / 4) * 3600.0 + mins[h % 4] * 60) * 1000.0, o, 64,
			                        NULL, &e2);

			if (U_SUCCESS(e2) && n > 0 && n < 64) {
				int32_t a = 0;

				/* the words after "h:mm " */
				while (a < n && ((o[a] >= '0' && o[a] <= '9') || o[a] == ':' ||
				                 blank_class(o[a]) == 1))
					a++;
				if (a < n && !has_digit(o + a, n - a))
					note_period(l, o + a, n - a, 1 << (h / 4));
			}
		}
		udat_close(f);
	}
}

static int
flush_periods(struct learn *l)
{
	size_t i;

	for (i = 0; i < l->n_per; i++)
		if (add_word(l->v, l->id, l->per[i].w, l->per[i].n, FR_FDV_PERIOD, l->per[i].mask,
		             l->loc) < 0)
			return -1;
	return 0;
}

static int
is_field_letter(UChar c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static int
is_edge_punct(UChar c)
{
	return c == '.' || c == ',' || c == '/' || c == '-' || c == '(' || c == ')' || c == '[' ||
	       c == ']' || c == ':' || c == '\'' || c == 0x2019 || c == 0xFF08 || c == 0xFF09 ||
	       c == 0x3001 || c == 0xFF0C;
}

/* One literal of a pattern, between fields prev and next (0 at an end);
 * glued: no blank between it and prev. */
static int
learn_literal(struct learn *l, const UChar *s, int32_t n, UChar prev, int prev_numeric, UChar next)
{
	int32_t i = 0;
	int first = 1;

	while (i < n) {
		int32_t a, b;
		int glued;

		glued = first && i == 0;
		while (i < n && blank_class(s[i]) != 0) {
			i++;
			glued = 0;
		}
		a = i;
		while (i < n && blank_class(s[i]) == 0)
			i++;
		b = i;
		while (a < b && is_edge_punct(s[a])) {
			a++;
			glued = 0;
		}
		while (b > a && is_edge_punct(s[b - 1]))
			b--;
		if (a < b) {
			int kind = next ? FR_FDV_FILL : FR_FDV_TAIL;
			int32_t k;
			int letters = 0;

			for (k = a; k < b; k++)
				letters |= u_isalpha(s[k]);
			if (!letters)
				continue;
			if (first && glued) {
				if (prev == 'y')
					kind = FR_FDV_YMARK;
				else if (prev == 'M' && prev_numeric)
					kind = FR_FDV_MMARK;
				else if (prev == 'd')
					kind = FR_FDV_DMARK;
				else if (prev == 'H' || prev == 'h' || prev == 'K' || prev == 'k')
					kind = FR_FDV_HMARK;
				else if (prev == 'm')
					kind = FR_FDV_MINMARK;
				else if (prev == 's')
					kind = FR_FDV_SMARK;
			}
			if (add_word(l->v, l->id, s + a, b - a, kind, 0, l->loc) < 0)
				return -1;
		}
		first = 0;
	}
	return 0;
}

/* Walks a CLDR pattern: fields are runs of ASCII letters, literals the rest
 * ('quoted' text included). */
static int
learn_pattern(struct learn *l, const UChar *p, int32_t n)
{
	UChar lit[256];
	int32_t nl = 0, i = 0;
	UChar prev = 0;
	int prev_numeric = 0;

	while (i <= n) {
		if (i == n || is_field_letter(p[i])) {
			UChar f = i < n ? p[i] : 0;
			int32_t run = 0;

			while (i < n && p[i] == f) {
				i++;
				run++;
			}
			if (nl > 0 && learn_literal(l, lit, nl, prev, prev_numeric, f) < 0)
				return -1;
			nl = 0;
			if (f == 0)
				break;
			prev = f;
			prev_numeric = run <= 2;
			continue;
		}
		if (p[i] == '\'') {
			i++;
			if (i < n && p[i] == '\'') {
				if (nl < 255)
					lit[nl++] = '\'';
				i++;
				continue;
			}
			while (i < n && p[i] != '\'') {
				if (nl < 255)
					lit[nl++] = p[i];
				i++;
			}
			i++;
			continue;
		}
		if (nl < 255)
			lit[nl++] = p[i];
		i++;
	}
	return 0;
}

static int32_t
best_pattern(UDateTimePatternGenerator *g, const char *skel, UChar *out, int32_t cap)
{
	UChar s[32];
	UErrorCode e = U_ZERO_ERROR;
	int32_t n;

	u_uastrncpy(s, skel, 31);
	s[31] = 0;
	n = udatpg_getBestPattern(g, s, -1, out, cap, &e);
	return U_SUCCESS(e) && n < cap ? n : 0;
}

/* Field order of a numeric pattern ("d.M.y" -> DMY), and for Md its
 * separator and whether a dot closes it. */
static void
learn_order(struct fr_fdv_locale *L, UDateTimePatternGenerator *g)
{
	UChar p[128];
	int32_t n = best_pattern(g, "yMd", p, 128), i;
	int pos_y = -1, pos_m = -1, pos_d = -1, k = 0;

	for (i = 0; i < n; i++) {
		if (p[i] == '\'') {
			for (i++; i < n && p[i] != '\''; i++)
				;
			continue;
		}
		if ((p[i] == 'y' || p[i] == 'M' || p[i] == 'd') && (i == 0 || p[i - 1] != p[i])) {
			if (p[i] == 'y')
				pos_y = k++;
			else if (p[i] == 'M')
				pos_m = k++;
			else
				pos_d = k++;
		}
	}
	for (i = 1; i + 1 < n; i++) {
		if (!is_field_letter(p[i]) && p[i] != ' ' && p[i] != '\'' && is_field_letter(p[i - 1])) {
			L->ymd_sep = p[i] < 0x80 ? (char)p[i] : 0;
			L->ymd_spaced = p[i + 1] == ' ';
			break;
		}
	}
	if (pos_y == 0)
		L->order = FR_FDATE_YMD;
	else if (pos_m >= 0 && pos_d >= 0)
		L->order = pos_m < pos_d ? FR_FDATE_MDY : FR_FDATE_DMY;
	n = best_pattern(g, "Md", p, 128);
	L->md_sep = 0;
	L->md_month_first = 0;
	L->md_trailing_dot = 0;
	for (i = 0; i < n; i++) {
		if (p[i] == 'M' && L->md_sep == 0)
			L->md_month_first = 1;
		if (!is_field_letter(p[i]) && p[i] != ' ' && L->md_sep == 0 && i > 0 && i + 1 < n)
			L->md_sep = p[i] < 0x80 ? (char)p[i] : 0;
	}
	while (n > 0 && p[n - 1] == ' ')
		n--;
	L->md_trailing_dot = n > 0 && p[n - 1] == '.';
	for (i = 0; i + 1 < n; i++)
		if (p[i] == 'M' && p[i + 1] == 'M')
			L->md_mm = 1;
	n = best_pattern(g, "yMMMd", p, 128);
	for (i = 0; i + 1 < n; i++)
		if (p[i] == 'y' && p[i + 1] == '.')
			L->y_dot = 1;
}

static int
learn_patterns(struct learn *l, struct fr_fdv_locale *L)
{
	static const char *skels[] = {"yMMMd", "yMMMMd", "yMMMEd", "yMMMMEEEEd", "yMd", "yyMd",
	                              "MMMd", "MMMMd", "Md", "MEd", "MMMEd", "MMMMEEEEd", "jm",
	                              "jms", "hm", "hms", "Hm", "Hms", "H", "h", "j", "yMMMdjm",
	                              "yMMMMdjms", "yMdjm", "yMdjms", "Bhm", "EEEEd", "d", "yMEd",
	                              "yMMMMEEEEdjm", "yMMMEdjm", "MMMdjm", "Mdjm"};
	static const UDateFormatStyle st[] = {UDAT_FULL, UDAT_LONG, UDAT_MEDIUM, UDAT_SHORT, UDAT_NONE};
	UErrorCode e = U_ZERO_ERROR;
	UDateTimePatternGenerator *g = udatpg_open(l->id, &e);
	UChar p[256];
	size_t i, j;
	int rc = -1;

	if (U_FAILURE(e))
		return 0;
	for (i = 0; i < sizeof(skels) / sizeof(skels[0]); i++) {
		int32_t n = best_pattern(g, skels[i], p, 256);

		if (n > 0 && learn_pattern(l, p, n) < 0)
			goto out;
	}
	for (i = 0; i < 5; i++) {
		for (j = 0; j < 5; j++) {
			UErrorCode e2 = U_ZERO_ERROR;
			UDateFormat *f;
			int32_t n;

			if (i == 4 && j == 4)
				continue;
			f = udat_open(st[j], st[i], l->id, u"UTC", -1, NULL, 0, &e2);
			if (U_FAILURE(e2))
				continue;
			n = udat_toPattern(f, 0, p, 256, &e2);
			udat_close(f);
			if (U_SUCCESS(e2) && n < 256 && learn_pattern(l, p, n) < 0)
				goto out;
		}
	}
	learn_order(L, g);
	rc = 0;
out:
	udatpg_close(g);
	return rc;
}

static int
prefix_id(struct fr_fdv *v, const char *key)
{
	size_t i;

	for (i = 0; i < v->n_prefixes; i++)
		if (strcmp(v->prefixes[i], key) == 0)
			return (int)i + 1;
	if (v->n_prefixes >= 4000)
		return -1;
	if (grow((void **)&v->prefixes, &v->cap_prefixes, v->n_prefixes + 1, sizeof(char *)) < 0)
		return -1;
	v->prefixes[v->n_prefixes] = strdup(key);
	if (!v->prefixes[v->n_prefixes])
		return -1;
	return (int)++v->n_prefixes;
}

/* "3 weeks ago", "hace 3 semanas", "3주 전": each unit formatted for several
 * numbers (to meet every plural form) in the long, short and narrow widths;
 * the text around the number is the template. "yesterday", "today". */
static int
learn_relative(struct learn *l)
{
	static const URelativeDateTimeUnit units[FR_FDV_NUNITS] = {
		UDAT_REL_UNIT_SECOND, UDAT_REL_UNIT_MINUTE, UDAT_REL_UNIT_HOUR, UDAT_REL_UNIT_DAY,
		UDAT_REL_UNIT_WEEK, UDAT_REL_UNIT_MONTH, UDAT_REL_UNIT_YEAR};
	static const UDateRelativeDateTimeFormatterStyle widths[] = {
		UDAT_STYLE_LONG, UDAT_STYLE_SHORT, UDAT_STYLE_NARROW};
	static const int nums[] = {1, 2, 3, 4, 5, 7, 11, 12, 21, 22, 25, 101};
	size_t w, u, k;

	for (w = 0; w < 3; w++) {
		UErrorCode e = U_ZERO_ERROR;
		URelativeDateTimeFormatter *r =
			ureldatefmt_open(l->id, NULL, widths[w], UDISPCTX_CAPITALIZATION_NONE, &e);

		if (U_FAILURE(e))
			continue;
		for (u = 0; u < FR_FDV_NUNITS; u++) {
			for (k = 0; k < sizeof(nums) / sizeof(nums[0]); k++) {
				UChar o[128], num[8];
				UErrorCode e2 = U_ZERO_ERROR;
				int32_t n = ureldatefmt_formatNumeric(r, -nums[k], units[u], o, 128, &e2);
				int32_t nn, a, b, i;
				char pk[KEY_MAX], sk[KEY_MAX];
				size_t pl, sl;
				int pid = 0;

				if (U_FAILURE(e2) || n >= 128)
					continue;
				{
					char tmp[8];
					int t = nums[k], m = 0;

					while (t > 0) {
						tmp[m++] = (char)('0' + t % 10);
						t /= 10;
					}
					for (nn = 0; nn < m; nn++)
						num[nn] = (UChar)tmp[m - 1 - nn];
				}
				for (a = 0; a + nn <= n; a++)
					if (memcmp(o + a, num, (size_t)nn * sizeof(UChar)) == 0 &&
					    (a == 0 || !(o[a - 1] >= '0' && o[a - 1] <= '9')) &&
					    (a + nn == n || !(o[a + nn] >= '0' && o[a + nn] <= '9')))
						break;
				if (a + nn > n)
					continue;
				b = a + nn;
				for (i = 0; i < a; i++)
					if (o[i] == '-' || o[i] == 0x2212 || o[i] == '+')
						break;
				if (i < a)
					continue; /* "-3 ч": a signed number, not a phrase */
				pl = make_key(o, a, pk);
				sl = make_key(o + b, n - b, sk);
				if (sl == 0)
					continue;
				if (pl > 0) {
					pid = prefix_id(l->v, pk);
					if (pid < 0 || add_variants(l->v, pk, pl, FR_FDV_RELPRE, pid, l->loc) < 0) {
						ureldatefmt_close(r);
						return -1;
					}
				}
				if (add_variants(l->v, sk, sl, FR_FDV_RELSUF, (int32_t)u | pid << 4, l->loc) < 0) {
					ureldatefmt_close(r);
					return -1;
				}
			}
		}
		for (k = 0; k < 5; k++) {
			UChar o[128];
			UErrorCode e2 = U_ZERO_ERROR;
			int d = (int)k - 2;
			int32_t n = ureldatefmt_format(r, d, UDAT_REL_UNIT_DAY, o, 128, &e2);

			if (U_SUCCESS(e2) && n < 128 && !has_digit(o, n) &&
			    add_word(l->v, l->id, o, n, FR_FDV_RELDAY, d, l->loc) < 0) {
				ureldatefmt_close(r);
				return -1;
			}
		}
		ureldatefmt_close(r);
	}
	return 0;
}

/* Ordinal suffixes of day numbers: "1st", "1er", "2e", "1.º", "3:e". */
static int
learn_ordinals(struct learn *l)
{
	UErrorCode e = U_ZERO_ERROR;
	UNumberFormat *nf = unum_open(UNUM_ORDINAL, NULL, 0, l->id, NULL, &e);
	int d;

	if (U_FAILURE(e))
		return 0;
	for (d = 1; d <= 31; d++) {
		UChar o[32];
		UErrorCode e2 = U_ZERO_ERROR;
		int32_t n = unum_format(nf, d, o, 32, NULL, &e2), a = 0, k, letters = 0;

		if (U_FAILURE(e2) || n >= 32 || n == 0 || !(o[0] >= '0' && o[0] <= '9'))
			continue; /* "第1": a prefix, not a suffix */
		while (a < n && o[a] >= '0' && o[a] <= '9')
			a++;
		for (k = a; k < n; k++)
			letters |= u_isalpha(o[k]) || o[k] == 0xBA || o[k] == 0xAA;
		if (letters && add_word(l->v, l->id, o + a, n - a, FR_FDV_ORD, 0, l->loc) < 0) {
			unum_close(nf);
			return -1;
		}
	}
	unum_close(nf);
	return 0;
}

/* The zone UTC by name ("UTC", "GMT", "Koordinierte Weltzeit") and the word
 * before an offset ("GMT" of "GMT+3", "Гринуич" of "Гринуич+3"). */
static int
learn_zones(struct learn *l)
{
	static const UChar *pats[] = {u"z", u"zzzz", u"O", u"OOOO", u"v", u"vvvv"};
	size_t i;

	for (i = 0; i < 6; i++) {
		int z;

		for (z = 0; z < 2; z++) {
			UErrorCode e = U_ZERO_ERROR;
			UDateFormat *f = udat_open(UDAT_PATTERN, UDAT_PATTERN, l->id,
			                           z ? u"Etc/GMT-3" : u"UTC", -1, pats[i], -1, &e);
			UChar o[96];
			int32_t n, a = 0;

			if (U_FAILURE(e))
				continue;
			n = udat_format(f, 0.0, o, 96, NULL, &e);
			udat_close(f);
			if (U_FAILURE(e) || n >= 96 || n == 0)
				continue;
			if (!z) {
				if (!has_digit(o, n) &&
				    add_word(l->v, l->id, o, n, FR_FDV_TZUTC, 0, l->loc) < 0)
					return -1;
				continue;
			}
			while (a < n && o[a] != '+' && o[a] != 0x2212 && o[a] != '-')
				a++;
			if (a > 0 && a < n && add_word(l->v, l->id, o, a, FR_FDV_TZPFX, 0, l->loc) < 0)
				return -1;
		}
	}
	return 0;
}

static int
learn_locale(struct fr_fdv *v, int idx, const char *id, const char *name, char *err,
             size_t errlen)
{
	UErrorCode e = U_ZERO_ERROR;
	UDateFormat *f = udat_open(UDAT_MEDIUM, UDAT_MEDIUM, id, u"UTC", -1, NULL, 0, &e);
	struct learn *l;
	char want[16], got[16];
	const char *valid;
	int rc = -1;

	if (U_FAILURE(e))
		return fr_errf(err, errlen, "locale '%s': ICU cannot open it (%s)", name, u_errorName(e));
	valid = udat_getLocaleByType(f, ULOC_VALID_LOCALE, &e);
	uloc_getLanguage(id, want, sizeof(want), &e);
	if (U_SUCCESS(e) && valid)
		uloc_getLanguage(valid, got, sizeof(got), &e);
	if (U_FAILURE(e) || !valid || strcmp(want, got) != 0 || want[0] == '\0') {
		udat_close(f);
		return fr_errf(err, errlen, "locale '%s': no ICU data for it", name);
	}
	l = calloc(1, sizeof(*l));
	if (!l) {
		udat_close(f);
		return fr_errf(err, errlen, "locale '%s': out of memory", name);
	}
	l->v = v;
	l->id = id;
	l->loc = idx;
	v->loc[idx].order = FR_FDATE_DMY;
	if (learn_names(l, f) < 0)
		goto out;
	learn_day_periods(l);
	if (flush_periods(l) < 0 || learn_patterns(l, &v->loc[idx]) < 0 || learn_relative(l) < 0 ||
	    learn_ordinals(l) < 0 || learn_zones(l) < 0)
		goto out;
	rc = 0;
out:
	if (rc < 0)
		fr_errf(err, errlen, "locale '%s': out of memory", name);
	free(l);
	udat_close(f);
	return rc;
}

static int
all_of(const char *s, size_t n, int digits, int letters)
{
	for (size_t i = 0; i < n; i++) {
		int d = s[i] >= '0' && s[i] <= '9';
		int a = (s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z');

		if (!((digits && d) || (letters && a)))
			return 0;
	}
	return 1;
}

/* Whether id has the shape of a BCP 47 language tag or an ICU locale ID
 * without keywords, subtags split by '-' or '_': a language of 2-3
 * letters, then an optional script (4 letters), an optional region (2
 * letters or 3 digits) and variants (5-8 letters or digits, or a digit and
 * 3 more), at most FR_FDV_LOCALE_MAX bytes in all. ICU itself is not
 * asked before this holds: some of its constructors crash on a language of
 * 12 letters. */
int
fr_fdv_locale_shape(const char *id)
{
	size_t n = strlen(id), at = 0, part = 0;

	if (n < 2 || n > FR_FDV_LOCALE_MAX)
		return 0;
	while (at <= n) {
		size_t k = strcspn(id + at, "-_");
		const char *t = id + at;

		if (k == 0)
			return 0;
		if (part == 0) {
			if (k < 2 || k > 3 || !all_of(t, k, 0, 1))
				return 0;
			part = 1;
		} else if (part <= 1 && k == 4 && all_of(t, k, 0, 1)) {
			part = 2; /* script */
		} else if (part <= 2 && ((k == 2 && all_of(t, k, 0, 1)) || (k == 3 && all_of(t, k, 1, 0)))) {
			part = 3; /* region */
		} else if ((k >= 5 && k <= 8 && all_of(t, k, 1, 1)) ||
		           (k == 4 && t[0] >= '0' && t[0] <= '9' && all_of(t, k, 1, 1))) {
			part = 4; /* variant */
		} else {
			return 0;
		}
		at += k + 1;
	}
	return 1;
}

/* The ICU locale ID of a tag of valid shape, as ICU's own BCP 47 reader
 * spells it: it must read the whole tag without error and find the same
 * language. Returns 0, or -1 with err set. */
static int
icu_id(const char *id, char *out, size_t cap, char *err, size_t errlen)
{
	char tag[FR_FDV_LOCALE_MAX + 1], lang[8];
	size_t n = strlen(id), i;
	int32_t parsed = 0, len;
	UErrorCode e = U_ZERO_ERROR;

	for (i = 0; i <= n; i++)
		tag[i] = id[i] == '_' ? '-' : id[i];
	len = uloc_forLanguageTag(tag, out, (int32_t)cap, &parsed, &e);
	if (U_FAILURE(e) || e == U_STRING_NOT_TERMINATED_WARNING || len <= 0 ||
	    (size_t)len >= cap || parsed != (int32_t)n)
		return fr_errf(err, errlen, "locale '%s': not a language tag ICU reads (%s)", id,
		               u_errorName(e));
	len = uloc_getLanguage(out, lang, sizeof(lang), &e);
	if (U_FAILURE(e) || e == U_STRING_NOT_TERMINATED_WARNING || len < 2 || len > 3 ||
	    strncasecmp(lang, id, (size_t)len) != 0)
		return fr_errf(err, errlen, "locale '%s': not a language tag ICU reads", id);
	return 0;
}

int
fr_fdv_locale(struct fr_fdv *v, const char *id, char *err, size_t errlen)
{
	char icu[64];
	size_t i, n = strlen(id);

	for (i = 0; i < v->n_loc; i++)
		if (strcmp(v->loc[i].id, id) == 0)
			return (int)i;
	if (n >= sizeof(v->loc[0].id) || !fr_fdv_locale_shape(id))
		return fr_errf(err, errlen, "locale '%.*s': not a locale ID (a language tag such as "
		               "'de', 'pt-BR' or 'zh_Hant' expected)",
		               (int)(n > 40 ? 40 : n), id);
	if (icu_id(id, icu, sizeof(icu), err, errlen) < 0)
		return -1;
	if (v->n_loc >= FR_FDATE_MAX_LOCALES)
		return fr_errf(err, errlen, "locale '%s': more than %d locales in one detector", id,
		               FR_FDATE_MAX_LOCALES);
	memset(&v->loc[v->n_loc], 0, sizeof(v->loc[0]));
	memcpy(v->loc[v->n_loc].id, id, n + 1);
	if (learn_locale(v, (int)v->n_loc, icu, id, err, errlen) < 0)
		return -1;
	return (int)v->n_loc++;
}
