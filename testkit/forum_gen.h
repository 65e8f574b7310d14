/* forum_gen.h - the timeline of one synthetic forum of `freshet serve
 * --forums`: boards, members, threads and posts with their times, drawn
 * from (seed, forum) and generated lazily as far as the serve clock has
 * gone. Deterministic: the same (seed, forum, birth) gives the same
 * threads, posts, times, ids and authors, however the generation is cut
 * into steps. Internal to testkit/ (forums.c, forum_html*.c).
 *
 * The model. Threads arrive as a Poisson process (thinned by a daily cycle)
 * at the forum's rate from its birth; each thread is drawn whole when it
 * arrives, from a generator of its own: its board, its replies' count (none,
 * a few, a long thread, now and then a megathread), its lifetime, its reply
 * times (skewed early: created + lifetime * u^2), the authors (members who
 * had joined by then, old-timers more often) and, in nested forums, whom
 * each reply answers. Sticky threads (per board) open at birth and get a
 * reply now and then for years. Times are whole minutes. Post ids are
 * numbered forum-wide in time order (with gaps), as an auto-increment would,
 * when the clock first passes them. */
#ifndef FR_TESTKIT_FORUM_GEN_H
#define FR_TESTKIT_FORUM_GEN_H

#include "core/rng.h"
#include "testkit/forums.h"

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

struct fr_text;

#define FR_TK_FGEN_MAX_BOARDS 8
#define FR_TK_FGEN_MAX_STICKY 3

struct fr_tk_fthread {
	int64_t created;     /* = t[0] */
	uint32_t id;         /* thread id, increasing with creation */
	uint16_t board;      /* board index */
	uint8_t sticky;      /* 1: pinned on its board */
	uint32_t n;          /* posts drawn, the opening post included (some in the future) */
	uint32_t n_assigned; /* posts with an id (those with t <= the forum's assigned_until) */
	int64_t *t;          /* post times, non-decreasing; t[0] the opening post */
	uint32_t *author;    /* member index per post */
	uint32_t *parent;    /* nested forums: the post number each reply answers (0 for
	                        top-level replies); NULL otherwise */
	uint32_t *pid;       /* post ids, n_assigned of them */
};

struct fr_tk_fboard {
	uint32_t id; /* f=ID */
	char name[96];
	char slug[64];
	uint32_t *th; /* non-sticky thread indices, in creation order */
	size_t n, cap;
	uint32_t sticky[FR_TK_FGEN_MAX_STICKY];
	unsigned n_sticky;
};

struct fr_tk_forum {
	uint32_t k;
	uint64_t seed;
	struct fr_tk_forum_profile prof;
	int busy;
	double threads_per_day;
	int64_t birth_s;
	unsigned n_boards;
	struct fr_tk_fboard boards[FR_TK_FGEN_MAX_BOARDS];
	uint32_t members0; /* members at birth */
	double joins_per_day;
	uint32_t uid0; /* member m has user id uid0 + m */
	char name[96]; /* the forum's title */

	/* The timeline, extended under the write lock, read under the read lock. */
	pthread_rwlock_t lock;
	struct fr_tk_fthread *th; /* in creation order */
	size_t n_th, cap_th;
	struct fr_rng arr;     /* the thread-arrival stream */
	double next_arrival_s; /* the next candidate arrival */
	uint32_t next_tid;
	int64_t assigned_until; /* every thread created and post numbered up to here */
	uint32_t next_pid;
	struct fr_rng pid_rng; /* gaps between post ids */
	uint32_t *open;        /* threads with posts after assigned_until */
	size_t n_open, cap_open;
	int64_t *gtime; /* times of the numbered posts, in id order */
	size_t n_g, cap_g;
};

/* Sets up forum k of a world (boards, rates, members, sticky threads; no
 * timeline yet) with history from start_s minus some months. Returns 0, or
 * -1 on out of memory (f then holds nothing to free). */
int fr_tk_forum_gen_init(struct fr_tk_forum *f, uint64_t seed, uint32_t k, double start_s);

/* Frees what f holds. */
void fr_tk_forum_gen_free(struct fr_tk_forum *f);

/* Takes f's read lock with the timeline generated and numbered at least up
 * to t_s (extending it by at least ahead_s beyond when it must), or returns
 * -1 (no lock held) on out of memory. Release with fr_tk_forum_gen_read_end. */
int fr_tk_forum_gen_read_begin(struct fr_tk_forum *f, double t_s, double ahead_s);
void fr_tk_forum_gen_read_end(struct fr_tk_forum *f);

/* ---- queries, under the read lock, for a time t_s the timeline covers ---- */

/* Threads created by t_s (a prefix of f->th). */
size_t fr_tk_forum_gen_threads_at(const struct fr_tk_forum *f, int64_t t_s);

/* Posts of thread th published by t_s (0 when not yet created). */
uint32_t fr_tk_forum_gen_posts_at(const struct fr_tk_fthread *th, int64_t t_s);

/* Posts of the whole forum published by t_s. */
size_t fr_tk_forum_gen_forum_posts_at(const struct fr_tk_forum *f, int64_t t_s);

/* The thread with id tid, or NULL. */
const struct fr_tk_fthread *fr_tk_forum_gen_thread_by_id(const struct fr_tk_forum *f, uint32_t tid);

/* The index of board id bid, or -1. */
int fr_tk_forum_gen_board_by_id(const struct fr_tk_forum *f, uint32_t bid);

/* The non-sticky threads of board b visible at t_s, in index order (CRD:
 * newest creation first; LAD: newest last post first, ties by id, newest
 * first): returns how many, and a malloc'd array of thread indices in *out
 * (caller frees; NULL when none), or -1 on out of memory. */
long fr_tk_forum_gen_board_order(const struct fr_tk_forum *f, unsigned b, int64_t t_s,
                                 uint32_t **out);

/* The display order of thread th's n visible posts (n = fr_tk_forum_gen_posts_at):
 * post numbers into order[0..n) and, when depth is not NULL, their depths
 * (0 for the opening post and flat forums; nested: 1 + the parent's).
 * ASC: 0..n-1; DSC: 0 (pinned), then n-1 down to 1; nested: the tree,
 * depth-first. Returns 0, or -1 on out of memory. */
int fr_tk_forum_gen_thread_order(const struct fr_tk_forum *f, const struct fr_tk_fthread *th,
                                 uint32_t n, uint32_t *order, uint32_t *depth);

/* ---- members and words ---- */

/* Members who had joined by t_s. */
uint32_t fr_tk_forum_gen_members_at(const struct fr_tk_forum *f, int64_t t_s);

/* When member m joined. */
int64_t fr_tk_forum_gen_member_joined(const struct fr_tk_forum *f, uint32_t m);

/* Member m's name into buf (ASCII, unique in the forum); returns buf. */
char *fr_tk_forum_gen_member_name(const struct fr_tk_forum *f, uint32_t m, char *buf, size_t len);

/* Member m's post count at t_s (an estimate from its rank: the page's
 * "Posts: N"; not counted from the timeline). */
uint32_t fr_tk_forum_gen_member_posts(const struct fr_tk_forum *f, uint32_t m, int64_t t_s);

/* Thread i's title (sticky threads: the language's rules/welcome/news
 * titles) into buf; returns buf. */
char *fr_tk_forum_gen_title(const struct fr_tk_forum *f, size_t i, char *buf, size_t len);

/* An ASCII URL slug of s ("forum-rules-please-read": lower-case letters and
 * digits, runs of anything else as one '-', at most 60 bytes) into buf, or
 * fallback when s has no ASCII letter or digit; returns buf. */
char *fr_tk_forum_gen_slug(const char *s, const char *fallback, char *buf, size_t len);

/* The text of post j of thread i: paragraphs joined by "\n\n" (the truth's
 * text), appended to out. */
void fr_tk_forum_gen_post_text(const struct fr_tk_forum *f, size_t i, uint32_t j,
                               struct fr_text *out);

/* Whether post j of thread i quotes an earlier post: returns its number,
 * or -1. */
long fr_tk_forum_gen_post_quote(const struct fr_tk_forum *f, size_t i, uint32_t j);

/* Views of thread i at t_s (grows with time and replies). */
uint32_t fr_tk_forum_gen_views(const struct fr_tk_forum *f, size_t i, int64_t t_s);

#endif
