/* forum_lang.h - the languages of `freshet serve --forums`: interface words,
 * filler words for titles and posts, and dates as forum software shows
 * them (absolute in several formats, relative "3 hours ago" / "Yesterday at
 * 10:15"). Hand-written tables, on purpose independent of the ICU/CLDR data
 * the crawler's date parser (lib/forum) learns from, so the one can test the
 * other. All times are UTC. No I/O. */
#ifndef FR_TESTKIT_FORUM_LANG_H
#define FR_TESTKIT_FORUM_LANG_H

#include <stddef.h>
#include <stdint.h>

struct fr_text;

/* NOTE: keep in the order of the LANGS table in forum_lang.c. */
enum fr_tk_forum_lang {
	FR_TK_FORUM_EN,
	FR_TK_FORUM_DE,
	FR_TK_FORUM_FR,
	FR_TK_FORUM_RU,
	FR_TK_FORUM_ES,
	FR_TK_FORUM_TR,
	FR_TK_FORUM_IT,
	FR_TK_FORUM_PL,
	FR_TK_FORUM_NL,
	FR_TK_FORUM_ZH,
	FR_TK_FORUM_N_LANGS
};

/* How an absolute date is written (the example is 2019-11-25 21:15 UTC).
 * NOTE: keep in the order of DSTYLE_NAMES in forum_lang.c. */
enum fr_tk_forum_dstyle {
	FR_TK_FORUM_DS_EN_PHPBB, /* "Mon Nov 25, 2019 9:15 pm" */
	FR_TK_FORUM_DS_EN_LONG,  /* "November 25, 2019, 09:15:00 PM" */
	FR_TK_FORUM_DS_EN_SHORT, /* "Nov 25, 2019, 09:15 PM" (XenForo "Nov 25, 2019 at 9:15 PM" in
	                         title) */
	FR_TK_FORUM_DS_NUM_MDY,  /* "11-25-2019, 09:15 PM" */
	FR_TK_FORUM_DS_NUM_DMY,  /* "25/11/2019, 21:15" */
	FR_TK_FORUM_DS_NUM_DOT,  /* "25.11.2019, 21:15" */
	FR_TK_FORUM_DS_NUM_DOT2, /* "25.11.19 21:15" (two-digit year) */
	FR_TK_FORUM_DS_NUM_YMD,  /* "2019-11-25 21:15" */
	FR_TK_FORUM_DS_TEXT,     /* the language's long form: "25. November 2019 um 21:15",
	                         "25 novembre 2019 à 21h15", "25 ноября 2019, 21:15",
	                         "25 de noviembre de 2019, 21:15", "2019年11月25日 21:15" ... */
	FR_TK_FORUM_N_DSTYLES
};

/* Relative dates for recent times (otherwise the absolute style). */
enum fr_tk_forum_rel {
	FR_TK_FORUM_REL_NONE, /* always absolute */
	FR_TK_FORUM_REL_DAY,  /* "Today at 10:15 PM", "Yesterday at 10:15 PM" (same or previous
	                      UTC day): exact to the minute */
	FR_TK_FORUM_REL_AGO   /* "just now", "5 minutes ago", "3 hours ago", "2 days ago" (under
	                      7 days): floor of the age in that unit */
};

/* Interface words of one language (UTF-8, static). */
struct fr_tk_forum_ui {
	const char *code;        /* "en", "de", ...: the html lang attribute */
	const char *board_index; /* "Board index" */
	const char *forum;       /* "Forum" */
	const char *topics;      /* "Topics" */
	const char *posts;       /* "Posts" */
	const char *replies;     /* "Replies" */
	const char *views;       /* "Views" */
	const char *last_post;   /* "Last post" */
	const char *by;          /* "by" */
	const char *started_by;  /* "Started by" */
	const char *posted_on;   /* "Posted on" */
	const char *page;        /* "Page" */
	const char *of;          /* "of" */
	const char *next;        /* "Next" */
	const char *prev;        /* "Previous" */
	const char *joined;      /* "Joined" */
	const char *members;     /* "Members" */
	const char *faq;         /* "FAQ" */
	const char *search;      /* "Search" */
	const char *login;       /* "Log in" */
	const char *reg;         /* "Register" */
	const char *all_times;   /* "All times are UTC" */
	const char *now_is;      /* "It is currently" */
	const char *sticky;      /* "Sticky" */
	const char *wrote;       /* "wrote" */
	const char *profile;     /* "Profile" */
	const char *username;    /* "Username" */
	const char *password;    /* "Password" */
	const char *no_posts;    /* "No posts" */
	const char *faq_q1;      /* an FAQ question */
	const char *faq_a1;      /* its answer */
	const char *rules_title; /* sticky thread titles */
	const char *welcome_title;
	const char *announce_title;
};

/* The words of lang (never NULL). */
const struct fr_tk_forum_ui *fr_tk_forum_lang_ui(enum fr_tk_forum_lang lang);

/* Filler words of lang for titles and posts: word i % n. Chinese words are
 * joined without spaces (fr_tk_forum_lang_spaced says). */
const char *fr_tk_forum_lang_word(enum fr_tk_forum_lang lang, uint64_t i);
int fr_tk_forum_lang_spaced(enum fr_tk_forum_lang lang);

/* Names for tables: "en", ...; "en-phpbb", "en-long", "en-short", "num-mdy",
 * "num-dmy", "num-dot", "num-dot2", "num-ymd", "text"; "none", "day", "ago".
 * Static strings. */
const char *fr_tk_forum_lang_dstyle_name(enum fr_tk_forum_dstyle ds);
const char *fr_tk_forum_lang_rel_name(enum fr_tk_forum_rel rel);

/* Appends t_s (Unix seconds, UTC; shown to the minute, or to the second in
 * EN_LONG) in style ds of lang. */
void fr_tk_forum_lang_date_abs(struct fr_text *out, enum fr_tk_forum_lang lang,
                               enum fr_tk_forum_dstyle ds, int64_t t_s);

/* Appends t_s as the forum shows it at time now_s: relative (rel, when
 * recent enough; 1 is returned) or absolute (0). */
int fr_tk_forum_lang_date_shown(struct fr_text *out, enum fr_tk_forum_lang lang,
                                enum fr_tk_forum_dstyle ds, enum fr_tk_forum_rel rel, int64_t t_s,
                                double now_s);

/* Whether a and b (Unix seconds) fall in one UTC year. */
int fr_tk_forum_lang_same_year(int64_t a, int64_t b);

/* Appends t_s without its year, as forums show this year's dates: NUM_YMD
 * "11/25 21:15" (month first), NUM_DMY "25/11, 21:15"; other styles as
 * fr_tk_forum_lang_date_abs. */
void fr_tk_forum_lang_date_noyear(struct fr_text *out, enum fr_tk_forum_dstyle ds, int64_t t_s);

/* Appends t_s as RFC 3339 with a zero offset ("2019-11-25T21:15:00+00:00"),
 * XenForo's and HTML's <time datetime> form. */
void fr_tk_forum_lang_date_iso(struct fr_text *out, int64_t t_s);

#endif
