/* fdate.h - dates in the free text of forum pages, in many languages: finds
 * date(/time) expressions in a text node and normalises them to Unix time.
 * Month, weekday, day-period, relative-time and glue words and the locales'
 * date patterns are learnt from CLDR through ICU, never from hand-written
 * name tables. Design and coverage: docs/forum-dates.md. */
#ifndef FR_FORUM_FDATE_H
#define FR_FORUM_FDATE_H

#include <stddef.h>
#include <stdint.h>

/* The languages of the SInFo digest (Table 6.1's 17) plus Serbian in both
 * scripts, as ICU locale IDs; what a page gets when it names no locale. */
#define FR_FDATE_DEFAULT_LOCALES                                                                   \
	"en,ru,tr,es,ro,fr,de,nl,it,cs,bg,pl,sv,zh_Hans,zh_Hant,ko,ja,sr,sr_Latn"

/* At most this many locales per detector (one bit each in a mask). */
#define FR_FDATE_MAX_LOCALES 32

/* How precise a normalised time is. */
enum fr_fdate_gran {
	FR_FDATE_SECOND,
	FR_FDATE_MINUTE,
	FR_FDATE_HOUR,
	FR_FDATE_DAY, /* t_s is the local midnight starting that day */
	FR_FDATE_WEEK,
	FR_FDATE_MONTH,
	FR_FDATE_YEAR
};

/* The order of the fields of an all-numeric date ("05/02/99"). */
enum fr_fdate_order {
	FR_FDATE_ORDER_NONE = 0, /* not numeric, or not decided */
	FR_FDATE_DMY,
	FR_FDATE_MDY,
	FR_FDATE_YMD
};

/* Flags of a match. */
#define FR_FDATE_RELATIVE 0x01u  /* "3 weeks ago", "yesterday at 10:15": resolved against now */
#define FR_FDATE_NO_YEAR 0x02u   /* "15 July": the year is the latest not after now */
#define FR_FDATE_NUMERIC 0x04u   /* all-numeric: order says which order was applied */
#define FR_FDATE_GUESSED 0x08u   /* numeric order not proven by the values (page or locale default) */
#define FR_FDATE_ZONE 0x10u      /* the text named its zone or offset ("UTC", "+02:00") */
#define FR_FDATE_FROM_ATTR 0x20u /* the time came from an HTML attribute (fr_fdate_element) */

struct fr_fdate_match {
	size_t begin, end;        /* byte span [begin, end) in the text scanned */
	int64_t t_s;              /* Unix seconds, UTC */
	enum fr_fdate_gran gran;  /* precision of t_s */
	unsigned flags;           /* FR_FDATE_* */
	enum fr_fdate_order order; /* for FR_FDATE_NUMERIC matches, else NONE */
};

/* A detector: the vocabulary of the locales used so far. Each locale's words
 * are learnt from ICU the first time a page asks for it (a few ms) and kept
 * in one case-folded trie shared by all pages. Not thread-safe: give each
 * thread its own detector. */
struct fr_fdate;

/* Settings of one page. */
struct fr_fdate_page_opts {
	/* Comma-separated ICU locale IDs the page may be written in ("de",
	 * "de,en"); the first is the page's own and gives numeric-order and
	 * 2-part-date defaults. NULL or "" means FR_FDATE_DEFAULT_LOCALES
	 * (and no locale default for numeric orders: DMY). */
	const char *locales;
	/* Olson zone the page shows local times in ("Europe/Berlin"); NULL or
	 * "" is UTC. */
	const char *zone;
	/* The time the page was fetched (Unix seconds), for relative dates,
	 * years left out, two-digit years (80 years back to 20 ahead, as
	 * ICU) and the future limits below. has_now 0: relative and
	 * year-less dates are skipped, two-digit years pivot at 1950. */
	int64_t now_s;
	int has_now;
	/* Dates later than now + max_future_s are refused ("Linux 2.6.32" is
	 * no date in 2032). 0: 400 days (announced events are kept); < 0: no
	 * limit. Separately, a numeric date that reads as past in one order
	 * and future in another takes the past reading, and a year left out
	 * is the latest that puts the date before now + 1 day. */
	int64_t max_future_s;
	/* Numeric order for this page; NONE decides per string (values,
	 * then the locale default). fr_fdate_page_decide_order sets it. */
	enum fr_fdate_order order;
};

/* The settings and scratch space of one page's scans. Borrows its detector,
 * which must outlive it. */
struct fr_fdate_page;

/* Creates an empty detector (no ICU work yet). Returns 0 and sets *out
 * (caller frees with fr_fdate_free), or -1 on out-of-memory. */
int fr_fdate_new(struct fr_fdate **out);

/* Frees fd and its vocabulary. fd may be NULL. */
void fr_fdate_free(struct fr_fdate *fd);

/* Learns the locales of a comma-separated list now instead of lazily (to
 * pay the cost up front, or before sharing fd read-only). Returns 0, or -1
 * with err naming the locale when ICU has no data for it or more than
 * FR_FDATE_MAX_LOCALES would be loaded. */
int fr_fdate_load(struct fr_fdate *fd, const char *locales, char *err, size_t errlen);

/* Creates a page context. opts may be NULL (all defaults: every default
 * locale, UTC, no now). Learns the page's locales if not yet known. Returns
 * 0 and sets *out (caller frees with fr_fdate_page_free), or -1 with err set
 * ("zone 'Mars/Olympus' unknown", "locale 'xx': no ICU data"). */
int fr_fdate_page_new(struct fr_fdate *fd, const struct fr_fdate_page_opts *opts,
                      struct fr_fdate_page **out, char *err, size_t errlen);

/* Frees pg. pg may be NULL. */
void fr_fdate_page_free(struct fr_fdate_page *pg);

/* Sets the page's numeric order (as opts.order). */
void fr_fdate_page_set_order(struct fr_fdate_page *pg, enum fr_fdate_order order);

/* Sets the time relative dates and years left out are read against (as
 * opts.now_s). "gestern" in a post's text means the day before the post:
 * a caller that knows the post's date sets it before scanning the post's
 * body, and the page's fetch time again after. */
void fr_fdate_page_set_now(struct fr_fdate_page *pg, int64_t now_s);

/* Finds the dates in text[0..len) (UTF-8; invalid bytes are skipped as
 * non-words), left to right, non-overlapping, and writes up to max of them
 * to out (out may be NULL when max is 0). Returns how many were found,
 * which may exceed max (the rest are not written). A date must stand on
 * its own: not inside a word or a longer number ("v1.2.3", "10.0.0.1",
 * "06 12 34 56 78" hold none). Times alone ("14:03") are not dates; times
 * next to a date or a relative day word are part of it. */
size_t fr_fdate_scan(struct fr_fdate_page *pg, const char *text, size_t len,
                     struct fr_fdate_match *out, size_t max);

/* Parses the value of an HTML attribute that carries a machine time:
 * `<time datetime>`, `title`, `data-time`, `data-timestamp`...: ISO 8601 /
 * RFC 3339 (no zone: the page's zone; date only: gran DAY), RFC 822, Unix
 * seconds (9-11 digits, optional fraction) or milliseconds (12-14 digits),
 * or else a human date that fills the whole value ("21. Januar 2022 um
 * 12:25"). A time before 1900, from 2200 on, or further ahead of the
 * page's now than its max_future_s is no date. Returns 0 and sets *out
 * (span = the trimmed value), or -1 leaving *out alone. */
int fr_fdate_parse_attr(struct fr_fdate_page *pg, const char *s, size_t len,
                        struct fr_fdate_match *out);

/* One date element: its text (what the page shows, e.g. "3 weeks ago") and
 * the values of its date-bearing attributes (n of them; lens[i] bytes each;
 * NULL entries skipped). The first attribute value that parses wins, at its
 * precision, flagged FR_FDATE_FROM_ATTR, with the span of the text's date
 * (or 0..0 when the text has none); otherwise the first date in the text.
 * Returns 0 and sets *out, or -1 when neither has a date. */
int fr_fdate_element(struct fr_fdate_page *pg, const char *text, size_t len,
                     const char *const *attrs, const size_t *lens, size_t n,
                     struct fr_fdate_match *out);

/* Decides the numeric order of a page from all the texts on it (n texts,
 * lens[i] bytes each): every all-numeric date in them is read under each
 * order (D M Y, M D Y, Y M D); an order under which a date is impossible
 * (a month over 12, a day past its month's end, a date after now) is ruled
 * out for that date; the order valid for the most dates wins, ties going to
 * the locale's default (from its CLDR yMd pattern), then D M Y. Sets the
 * page's order (later scans use it where it fits) and *out (NONE when the
 * page has no numeric date). Returns how many numeric dates were seen. */
size_t fr_fdate_page_decide_order(struct fr_fdate_page *pg, const char *const *texts,
                                  const size_t *lens, size_t n, enum fr_fdate_order *out);

/* The default numeric order of a locale per CLDR (its yMd pattern), learning
 * the locale if needed; NONE when ICU has no data for it. */
enum fr_fdate_order fr_fdate_locale_order(struct fr_fdate *fd, const char *locale);

/* Names, for messages and tests: "second", ..., "year"; "DMY", "MDY", "YMD",
 * "none". Static strings. */
const char *fr_fdate_gran_name(enum fr_fdate_gran g);
const char *fr_fdate_order_name(enum fr_fdate_order o);

#endif
