/* forum_url.h - the URLs of the synthetic forums: each software's shapes of
 * entry, index (board), thread, pagination and "other" URLs (see forums.h),
 * built from a forum's timeline and parsed back from a request. Internal to
 * testkit/. */
#ifndef FR_TESTKIT_FORUM_URL_H
#define FR_TESTKIT_FORUM_URL_H

#include "testkit/forums.h"

#include <stddef.h>
#include <stdint.h>

struct fr_tk_forum;

enum fr_tk_furl_kind {
	FR_TK_FURL_NONE,    /* not a URL of this forum */
	FR_TK_FURL_ROBOTS,  /* /robots.txt */
	FR_TK_FURL_HOME,    /* a site home that is not the forum (custom, Discuz!) */
	FR_TK_FURL_ENTRY,   /* the forum's entry page (board list) */
	FR_TK_FURL_BOARD,   /* an index page */
	FR_TK_FURL_THREAD,  /* a thread page */
	FR_TK_FURL_PROFILE, /* a member's profile */
	FR_TK_FURL_FAQ,
	FR_TK_FURL_LOGIN,
	FR_TK_FURL_SEARCH
};

/* A parsed request. */
struct fr_tk_furl {
	enum fr_tk_furl_kind kind;
	uint32_t id;    /* board id, thread id, or member index (profiles; UINT32_MAX
	                   for a user id below the forum's first) */
	uint32_t page;  /* 1-based; 0 for an offset that is no page's start */
	char slug[72];  /* XenForo/custom/threaded: the board's (custom, threaded) or
	                   the thread's or board's (XenForo) slug as requested */
	char slug2[72]; /* custom/threaded threads: the thread's slug; threaded
	                   profiles: the member's name */
};

/* Parses a request's decoded path and raw query (without '?') for forum f
 * (only its profile and user-id base are read, so no lock is needed). Sets
 * out (kind NONE when it is no URL of this forum). Pages and ids are only
 * parsed: whether they exist is the caller's business. */
void fr_tk_forum_url_parse(const struct fr_tk_forum *f, const char *path, const char *query,
                   struct fr_tk_furl *out);

/* Paths (with query; no scheme or host) into buf (FR_TK_FORUMS_URL_MAX bytes),
 * unescaped (write them into HTML escaped). Each returns buf. */
char *fr_tk_forum_url_entry(enum fr_tk_forum_sw sw, char *buf);
char *fr_tk_forum_url_board(const struct fr_tk_forum *f, unsigned b, uint32_t page, char *buf);
/* Thread i (an index in f->th), page 1.. */
char *fr_tk_forum_url_thread(const struct fr_tk_forum *f, size_t i, uint32_t page, char *buf);
char *fr_tk_forum_url_profile(const struct fr_tk_forum *f, uint32_t m, char *buf);
/* kind FAQ, LOGIN or SEARCH (HOME: "/"). */
char *fr_tk_forum_url_other(enum fr_tk_forum_sw sw, enum fr_tk_furl_kind kind, char *buf);

#endif
