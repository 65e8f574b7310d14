/* sinfo.h - incremental forum crawling (SInFo, issue 8): one forum's
 * learned structure and crawl state, and its crawl cycles. A cycle is a
 * sequence of page fetches the caller performs: the engine says which URL
 * to fetch next, the caller fetches it (when and how is its business:
 * politeness, robots.txt, the wire) and feeds the answer back. No I/O and
 * no clock here, so the live crawler (lib/crawl/forum.c) and the benchmark
 * (bench_forums, in-process forums) run the same code.
 *
 * The first cycle is phase 1: find the entry page from the URL given,
 * classify pages (forum/page.h), learn the URL patterns, crawl the forum in
 * full (every index and thread page the patterns reach), and detect the
 * index sort (CRD/LAD) and thread sort (ASC/DSC) by majority over the pages
 * seen. Every later cycle is phase 2: Thread Discovery (Alg. 7) over each
 * board's index pages, then Post Collect (Alg. 8) for each thread with
 * news, navigating by the URLs' specific numbers (forum/furl.h). When the
 * structure no longer fits (index pages without rows, pagers gone), the
 * next cycle runs phase 1 again, keeping the threads and posts known. */
#ifndef FR_FORUM_SINFO_H
#define FR_FORUM_SINFO_H

#include <stddef.h>
#include <stdint.h>

struct fr_fdate;

/* One forum's state: what phase 1 learnt (entry, patterns, sorts) and, per
 * board and thread (by base URL), when it was last crawled and how far. */
struct fr_sinfo;

enum fr_sinfo_mode {
	FR_SINFO_INCREMENTAL, /* SInFo */
	FR_SINFO_FOCUS        /* the FoCUS-like baseline: every cycle re-crawls every
	                         page that matches an index or thread pattern */
};

enum fr_sinfo_sort { FR_SINFO_SORT_UNKNOWN, FR_SINFO_CRD, FR_SINFO_LAD, FR_SINFO_ASC, FR_SINFO_DSC };

struct fr_sinfo_opts {
	enum fr_sinfo_mode mode;
	struct fr_fdate *dates; /* borrowed date detector, outlives the cycle */
	const char *locales;    /* as fr_fpage_opts (NULL: the pages' own lang, then all) */
	const char *zone;       /* Olson zone of the forum's times (NULL: UTC) */
	size_t max_pages;       /* pages per cycle at most (0: 20,000) */
	size_t max_bytes;       /* body cap per page (0: 16 MiB) */
};

/* A new forum from any URL of it (absolute http(s)). Returns 0 and *out
 * (free with fr_sinfo_free), or -1 with err set. */
int fr_sinfo_new(const char *url, struct fr_sinfo **out, char *err, size_t errlen);
void fr_sinfo_free(struct fr_sinfo *f);

/* Serialises f (a versioned binary blob, for the store). Returns 0 and a
 * malloc'd *blob (caller frees), or -1 on out of memory. */
int fr_sinfo_save(const struct fr_sinfo *f, void **blob, size_t *len);
/* Restores a forum saved by fr_sinfo_save. Returns 0 and *out, or -1 with
 * err set (a truncated or foreign blob) and *out NULL. */
int fr_sinfo_load(const void *blob, size_t len, struct fr_sinfo **out, char *err, size_t errlen);

/* What phase 1 learnt (UNKNOWN before). */
enum fr_sinfo_sort fr_sinfo_index_sort(const struct fr_sinfo *f);
enum fr_sinfo_sort fr_sinfo_thread_sort(const struct fr_sinfo *f);
const char *fr_sinfo_sort_name(enum fr_sinfo_sort s); /* "CRD", ..., "unknown" */
/* The entry URL (NULL before phase 1), boards and threads known. */
const char *fr_sinfo_entry(const struct fr_sinfo *f);
size_t fr_sinfo_n_boards(const struct fr_sinfo *f);
size_t fr_sinfo_n_threads(const struct fr_sinfo *f);
/* The learned URL patterns as text (one per line: "index ...", "index-pagination
 * ...", "thread ...", "thread-pagination ..."), malloc'd, caller frees. */
char *fr_sinfo_describe(const struct fr_sinfo *f);

/* Per-page sort votes of phase 1 (for the benchmark's sort-detection
 * figure): each index page and each thread page of >= 3 posts that phase 1
 * (or, with FR_SINFO_INCREMENTAL, any cycle) decided on its own. */
struct fr_sinfo_vote {
	const char *url;            /* borrowed, valid while the cycle lives */
	int is_thread;              /* 1: a thread page, 0: an index page */
	enum fr_sinfo_sort sort;    /* the page's own decision (UNKNOWN: undecided) */
};

/* One post found new in a cycle. Borrowed strings, valid while the cycle
 * lives. */
struct fr_sinfo_post {
	char id[41];              /* hex SHA-1 of (date, author, text): the item id */
	const char *thread_url;   /* the thread's base URL (its first page) */
	const char *thread_title; /* NULL when not known */
	const char *page_url;     /* the page it was read on */
	const char *author;       /* NULL when not found */
	const char *text;
	int64_t published_s;      /* the post's date */
	unsigned gran;            /* enum fr_fdate_gran of published_s */
	int new_thread;           /* 1: the thread was new in this cycle */
};

struct fr_sinfo_cycle_stats {
	int phase;             /* 1 or 2 */
	size_t pages;          /* fetched (answers fed) */
	size_t pages_new;      /* of them, pages that carried new content (a new post, or a
	                          row of a thread that is new or has news) */
	size_t errors;         /* pages that could not be fetched or read */
	uint64_t bytes;        /* body bytes fed */
	uint64_t bytes_new;    /* body bytes of pages_new */
	size_t new_threads, new_posts;
};

/* One crawl cycle of f at time now_s (the time its pages are fetched,
 * about). Borrows f and o (they outlive the cycle). Returns 0 and *out, or
 * -1 with err set. */
struct fr_sinfo_cycle;
int fr_sinfo_cycle_begin(struct fr_sinfo *f, const struct fr_sinfo_opts *o, double now_s,
                         struct fr_sinfo_cycle **out, char *err, size_t errlen);

/* The next URL to fetch (borrowed, valid until the next call), or NULL
 * when the cycle is over. Each URL returned must be answered with
 * fr_sinfo_cycle_feed before next is called again. */
const char *fr_sinfo_cycle_next(struct fr_sinfo_cycle *c);

/* The answer to the URL next returned: status (200 ok; anything else, or
 * body NULL, is a failed page: counted and skipped, the crawl goes on),
 * the body, and when it was fetched. A page that cannot be read is
 * counted and skipped too; its error is kept (fr_sinfo_cycle_errors). */
void fr_sinfo_cycle_feed(struct fr_sinfo_cycle *c, long status, const char *body, size_t len,
                         double fetched_s);

/* The posts found new so far, in the order found. */
const struct fr_sinfo_post *fr_sinfo_cycle_posts(const struct fr_sinfo_cycle *c, size_t *n);
/* Page votes so far. */
const struct fr_sinfo_vote *fr_sinfo_cycle_votes(const struct fr_sinfo_cycle *c, size_t *n);
/* The figures so far. */
void fr_sinfo_cycle_stats(const struct fr_sinfo_cycle *c, struct fr_sinfo_cycle_stats *out);
/* Errors so far, one line each ("URL: reason"), or "" (borrowed). */
const char *fr_sinfo_cycle_errors(const struct fr_sinfo_cycle *c);

/* Folds what the cycle learnt into f now (phase 1: the sorts, the
 * stickies, the entry's board; f is marked learnt), keeping the cycle and
 * its posts alive: so f can be saved and stored together with the posts
 * before the cycle ends. fr_sinfo_cycle_end(c, 1) does it when not done;
 * fr_sinfo_cycle_end(c, 0) still puts f back as it was. */
void fr_sinfo_cycle_settle(struct fr_sinfo_cycle *c);

/* Ends the cycle. commit 1: f takes what the cycle learnt (threads and
 * boards, their last crawl times, the patterns and sorts of phase 1), as
 * a crawl that stored the posts must; 0: f is left as it was (the posts
 * were not stored). Frees c. */
void fr_sinfo_cycle_end(struct fr_sinfo_cycle *c, int commit);

#endif
