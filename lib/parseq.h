/* parseq.h - feeds parsed on a worker thread, off the crawl loop's thread:
 * the loop hands over a fetched body and goes on fetching; it takes the
 * parsed feed back, in the order the bodies went in, when it is ready.
 * The parser (parse/feed) is pure, so it runs there as it would inline. */
#ifndef FR_PARSEQ_H
#define FR_PARSEQ_H

#include <stddef.h>
#include <stdint.h>

#include "parse/feed.h"

struct fr_parseq;

/* One body to parse. The caller fills tag, body/len (NUL-terminated),
 * base_url and content_type (each malloc'd or NULL); the queue fills feed
 * (or rc = -1 and err). The job owns everything it points to, arg too
 * when free_arg is set. */
struct fr_parseq_job {
	uint64_t tag;                /* the caller's */
	void *arg;                   /* the caller's */
	void (*free_arg)(void *arg); /* frees arg with the job, or NULL */
	char *body;
	size_t len;
	char *base_url, *content_type;
	/* Results. */
	int rc;                      /* 0: feed is set; -1: err says why */
	struct fr_feed *feed;
	char err[512];
	struct fr_parseq_job *next;  /* the queue's */
};

/* Starts the worker thread. Returns 0 and *out (free with fr_parseq_free),
 * or -1 with err set (out of memory, no thread). */
int fr_parseq_new(struct fr_parseq **out, char *err, size_t errlen);
/* Stops the worker (after the job it is parsing) and frees the queue with
 * every job still in it (NULL is fine). */
void fr_parseq_free(struct fr_parseq *q);

/* Queues job for parsing. Takes ownership of job (malloc'd). */
void fr_parseq_submit(struct fr_parseq *q, struct fr_parseq_job *job);
/* The oldest parsed job, or NULL when none is ready yet; never waits.
 * Jobs come back in the order they were submitted. The caller owns it and
 * frees it with fr_parseq_job_free. */
struct fr_parseq_job *fr_parseq_take(struct fr_parseq *q);
/* Jobs submitted and not taken back yet. */
size_t fr_parseq_pending(const struct fr_parseq *q);

/* Frees a job and all it owns (the feed too, unless the caller took it and
 * set job->feed to NULL; arg with free_arg). NULL is fine. */
void fr_parseq_job_free(struct fr_parseq_job *job);

#endif
