/* limit.h - an API's rate limit as its responses tell it: X-RateLimit-*,
 * the IETF RateLimit / RateLimit-Policy fields (older and newer drafts),
 * the Graph API's usage percentages, Retry-After and the error bodies that
 * mean "slow down", learned into one state that says whether a call may be
 * spent now and until when to wait. Pure: the caller passes now. */
#ifndef FR_API_LIMIT_H
#define FR_API_LIMIT_H

#include <stddef.h>

/* Bits of fr_api_limit.seen: what was learned. */
#define FR_API_SEEN_XRATELIMIT 1u /* X-RateLimit-* (or X-Rate-Limit-*) */
#define FR_API_SEEN_IETF 2u       /* RateLimit, RateLimit-Policy, RateLimit-Limit/Remaining/Reset */
#define FR_API_SEEN_USAGE 4u      /* X-App-Usage, X-Business-Use-Case-Usage, X-Ad-Account-Usage */
#define FR_API_SEEN_RETRY 8u      /* Retry-After */
#define FR_API_SEEN_BODY 16u      /* a status or error body that means slow down */

/* Defaults of the knobs. */
#define FR_API_CAP_S_DEFAULT 86400.0 /* the crawler's Retry-After cap (1 day) */
#define FR_API_DEFAULT_WAIT_S_DEFAULT 60.0
/* The longest wait after repeated slow-down answers with no time given: the
 * Graph API's usage window (its percentages cover the last hour). */
#define FR_API_BACKOFF_MAX_S 3600.0

#define FR_API_MAX_POLICIES 4

/* What is known of the budget. A value of -1 is unknown. */
struct fr_api_limit {
	double limit;        /* calls per window */
	double remaining;    /* calls left in the window (after the calls spent since) */
	double reset_at_s;   /* Unix time the window resets (calls back to limit) */
	double window_s;     /* the window's length */
	double usage_pct;    /* the highest usage percentage (Graph), 0-100 and over */
	double hold_until_s; /* no call before this (Retry-After, a slow-down body) */
	double learned_s;    /* when a response last told anything */
	double used;         /* calls used in the window (Reddit's X-Ratelimit-Used) */
	double expect_reset_s; /* the caller's estimate of when a call frees up, or -1
	                          (fr_api_limit_expect_reset) */
	unsigned seen;       /* FR_API_SEEN_* bits */
	unsigned refusals;   /* slow-down answers since the last call let through */
	int zero_by_refusal; /* remaining is 0 because of a slow-down answer, not a count */
	int expect_wrong;    /* a slow-down answer came with an estimate set: not used again */
	/* Knobs (set by fr_api_limit_init, may be changed after): */
	double cap_s;          /* Retry-After and reset times at most this far after now */
	double default_wait_s; /* the wait when none are left and no time was given */
	/* Internal: the IETF policies of the last RateLimit-Policy field, and
	 * the policy the last RateLimit field spoke of. */
	struct {
		char name[32];
		double quota, window_s;
	} pol[FR_API_MAX_POLICIES];
	unsigned n_pol;
	char cur_pol[32];
	int limit_told; /* a limit header was read (else limit = used + remaining) */
};

/* Everything unknown, knobs at their defaults. */
void fr_api_limit_init(struct fr_api_limit *l);

/* Learns from one response header (name case-insensitive; value as sent).
 * Returns 1 when the header was one of those this reads and its value was
 * understood, 0 otherwise (nothing changed). */
int fr_api_limit_header(struct fr_api_limit *l, const char *name, const char *value, double now_s);

/* Learns from a header block (lines "Name: value", CRLF or LF; a status line
 * and lines without a colon are skipped). Returns the number of headers
 * used. */
int fr_api_limit_headers(struct fr_api_limit *l, const char *block, size_t len, double now_s);

/* Why a response means slow down (fr_api_limit_response's result). */
enum fr_api_slow {
	FR_API_SLOW_NONE = 0,
	FR_API_SLOW_STATUS, /* HTTP 429 (Mastodon's and Reddit's bodies) */
	FR_API_SLOW_GRAPH,  /* a Graph error code 4, 17, 32, 613 or 80000-80014 */
	FR_API_SLOW_USAGE   /* a usage header at 100% */
};

/* Learns from a response's status and body (after its headers): a 429, or a
 * Graph API error code of throttling, means none are left: remaining 0 and
 * a hold until the reset time, else the Retry-After already learned, else
 * now + the back-off wait: default_wait_s (or window_s when known),
 * doubling with each slow-down answer in a row, up to FR_API_BACKOFF_MAX_S.
 * The slow-down ends when a later call is let through (a 2xx or 304
 * answer) or a usage header says under 100%: remaining is unknown again
 * (the Graph API's percentages carry no count), the back-off starts over.
 * Returns the reason (FR_API_SLOW_NONE when the response says nothing of
 * the limit); when code is not NULL sets *code to the API's error code (0
 * none). body may be NULL. */
enum fr_api_slow fr_api_limit_response(struct fr_api_limit *l, int status, const char *body,
                                       size_t len, double now_s, long *code);

/* Records one call spent at now (remaining goes down by one). */
void fr_api_limit_spend(struct fr_api_limit *l, double now_s);

/* The caller's estimate of when a call frees up, for when the API says
 * none are left (usage at 100%) without a time: the next slot of the
 * caller's own rate limiter, set to the API's budget. Never used again
 * once a slow-down answer came while it was set (it proved wrong); t < 0
 * forgets it. */
void fr_api_limit_expect_reset(struct fr_api_limit *l, double t);

/* The earliest instant >= now at which a call may be spent: now when one
 * may, else the end of a hold or the window's reset. Never now when the API
 * said none are left and its reset has not passed; with none left and no
 * reset time known (and no hold set by that answer): the caller's estimate
 * (fr_api_limit_expect_reset) when it has not proved wrong, else
 * learned_s + the back-off wait (above). */
double fr_api_limit_next(const struct fr_api_limit *l, double now_s);

/* 1 when a call may be spent at now, else 0 with *until_s (may be NULL)
 * set to fr_api_limit_next. */
int fr_api_limit_may_call(const struct fr_api_limit *l, double now_s, double *until_s);

/* The budget a scheduler group can take: N calls per W seconds, when the
 * limit and the window are known (from RateLimit-Policy or RateLimit-Limit's
 * w=). Returns 0 and sets both, or -1. */
int fr_api_limit_budget(const struct fr_api_limit *l, double *calls, double *window_s);

#endif
