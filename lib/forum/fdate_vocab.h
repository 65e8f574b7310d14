/* fdate_vocab.h - internal to lib/forum/fdate*.c: the words of forum dates
 * learnt from CLDR through ICU, per locale, kept in one trie of case-folded
 * UTF-8 keys whose entries say what a word means and in which locales. */
#ifndef FR_FORUM_FDATE_VOCAB_H
#define FR_FORUM_FDATE_VOCAB_H

#include "forum/fdate.h"

#include <stddef.h>
#include <stdint.h>

/* What a word means. NOTE: keep FR_FDV_NKINDS last; kinds are bits in a
 * uint32_t mask. */
enum fr_fdv_kind {
	FR_FDV_MONTH = 1, /* val 1-12, | FR_FDV_DERIVED */
	FR_FDV_WDAY,      /* val 1-7, Sunday 1 (ICU's order) */
	FR_FDV_PERIOD,    /* AM/PM or a day period ("nachm.", "晚上"): val = mask of hours 0-23 */
	FR_FDV_RELDAY,    /* "yesterday": val = day offset (-2 to 2) */
	FR_FDV_RELPRE,    /* words before the number of "hace 3 semanas": val = prefix id */
	FR_FDV_RELSUF,    /* words after it: val = unit | prefix id << 4 (id 0: no prefix) */
	FR_FDV_FILL,      /* glue seen between fields of a pattern ("at", "de", "um", "в") */
	FR_FDV_TAIL,      /* glue seen at the end of a pattern ("г.", "Uhr", "ч.") */
	FR_FDV_YMARK,     /* glued after a year field: 年 년 */
	FR_FDV_MMARK,     /* after a numeric month: 月 월 */
	FR_FDV_DMARK,     /* after a day: 日 일 */
	FR_FDV_HMARK,     /* after an hour: 時 时 시 */
	FR_FDV_MINMARK,   /* after minutes: 分 분 */
	FR_FDV_SMARK,     /* after seconds: 秒 초 */
	FR_FDV_ORD,       /* ordinal suffix of a day number: "st", "er", "e" */
	FR_FDV_TZUTC,     /* the zone UTC by name: "UTC", "GMT", "Coordinated Universal Time" */
	FR_FDV_TZPFX,     /* before an offset: "GMT" of "GMT+3", "UTC" of "UTC+3" */
	FR_FDV_NKINDS
};

/* Set in the value of a month name that is only a prefix of a CLDR name
 * ("Sept", "list"): such a name needs a dot or a year to make a date. */
#define FR_FDV_DERIVED 0x100

/* Relative units, in FR_FDV_RELSUF values. */
enum fr_fdv_unit {
	FR_FDV_SEC,
	FR_FDV_MIN,
	FR_FDV_HOUR,
	FR_FDV_DAY,
	FR_FDV_WEEK,
	FR_FDV_MON,
	FR_FDV_YEAR,
	FR_FDV_NUNITS
};

struct fr_fdv_meaning {
	uint8_t kind;
	int32_t val;
	uint32_t locs;  /* bit i: locale i of the vocabulary */
	int32_t next;   /* index of the next meaning of the same word, -1 at the end */
};

/* What the locale's CLDR patterns say about numeric dates. */
struct fr_fdv_locale {
	char id[40];                   /* as the caller spelt it */
	enum fr_fdate_order order;     /* from the yMd skeleton's pattern */
	char md_sep;                   /* separator of the Md pattern ('.', '/', '-') or 0 */
	int md_month_first;            /* Md is M before d */
	int md_trailing_dot;           /* Md ends with '.' ("d.M." de, "d. M." cs) */
	int md_mm;                     /* Md writes the month with two digits ("dd.MM" ru) */
	int y_dot;                     /* a '.' follows the year ("25. новембар 2019." sr) */
	char ymd_sep;                  /* separator of the yMd pattern, 0 when blank */
	int ymd_spaced;                /* a blank follows it ("y. M. d." ko) */
};

struct fr_fdv_node; /* trie node, private to fdate_vocab.c */

struct fr_fdv {
	struct fr_fdv_node *nodes; /* node 0 is the root */
	size_t n_nodes, cap_nodes;
	uint32_t root[256];        /* the root's children by byte, 0 = none */
	struct fr_fdv_meaning *mean;
	size_t n_mean, cap_mean;
	char **prefixes;      /* relative-time prefixes by id - 1 (folded keys) */
	size_t n_prefixes, cap_prefixes;
	struct fr_fdv_locale loc[FR_FDATE_MAX_LOCALES];
	size_t n_loc;
	uint32_t first_byte[8]; /* bit b: some key starts with byte b */
};

/* Sets v empty. Returns 0, or -1 on out-of-memory. */
int fr_fdv_init(struct fr_fdv *v);

/* Frees what v owns (v itself is the caller's). */
void fr_fdv_free(struct fr_fdv *v);

/* The index of locale id in v, learning it from ICU first if new. Returns
 * the index (0..FR_FDATE_MAX_LOCALES-1), or -1 with err set when ICU has no
 * data for id, the table is full, or memory ran out. */
int fr_fdv_locale(struct fr_fdv *v, const char *id, char *err, size_t errlen);

/* The longest locale ID accepted (bytes). */
#define FR_FDV_LOCALE_MAX 35

/* Whether id has the shape of a language tag (BCP 47 or ICU spelling, no
 * keywords or extensions) within FR_FDV_LOCALE_MAX bytes; every locale ID
 * passes this before ICU sees it. */
int fr_fdv_locale_shape(const char *id);

/* Walks the trie from s[pos] (s holds len bytes), case-folding the text as
 * the keys were folded (blanks of any kind as one space). Returns the byte
 * length of the longest key that matches there, ends at a word boundary
 * (keys ending in a letter of a spaced script must not run on into a
 * letter) and has a meaning in locs; sets *head to its first meaning
 * index. Returns 0 when none. */
size_t fr_fdv_lookup(const struct fr_fdv *v, const char *s, size_t len, size_t pos, uint32_t locs,
                     int32_t *head);

/* Whether some key starts with byte b (a quick filter before lookups). */
static inline int
fr_fdv_may_start(const struct fr_fdv *v, unsigned char b)
{
	return (v->first_byte[b >> 5] >> (b & 31)) & 1u;
}

/* Decodes one UTF-8 character at s[pos] (len bytes in s): sets *cp (a
 * malformed byte reads as 0xFFFD) and returns its byte length (>= 1). */
size_t fr_fdv_utf8(const char *s, size_t len, size_t pos, int32_t *cp);

/* Whether cp is a letter of a script written without spaces between words
 * (Han, Hiragana, Katakana, Hangul): such letters may abut a date. */
int fr_fdv_is_cjk(int32_t cp);

#endif
