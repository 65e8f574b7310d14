/* fetchq.h - the fetcher (net/fetch) on a thread of its own: the crawl loop
 * submits requests and takes finished responses back, while the transfers
 * (libcurl's work, most of a fast crawl's) run beside its parsing, storing
 * and scheduling. Same shape as the fetcher's own API: submit, poll,
 * running. Used from one thread (the loop's); the fetcher is only ever
 * touched by the queue's thread. */
#ifndef FR_FETCHQ_H
#define FR_FETCHQ_H

#include <stddef.h>

#include "net/fetch.h"

struct fr_fetchq;

/* Starts the thread. Takes ownership of f (also on failure). max_running
 * > 0: at most that many transfers are handed to the fetcher at once; the
 * requests beyond wait here, in order, and each starts (and its response's
 * started_s is taken) as soon as a transfer ends, without waiting for the
 * caller. 0: every request goes to the fetcher at once. Returns 0 and *out
 * (free with fr_fetchq_free), or -1 with err set. */
int fr_fetchq_new(struct fr_fetchq **out, struct fr_fetcher *f, size_t max_running, char *err,
		  size_t errlen);
/* Asks the thread to end without waiting for it: the transfers still
 * running are aborted (their responses dropped) and the fetcher is freed
 * (its connections closed) there, while the caller goes on with other
 * work. Responses handed over before may still be taken with
 * fr_fetchq_poll; no new one comes. NULL is fine. */
void fr_fetchq_stop(struct fr_fetchq *q);
/* Stops the thread (fr_fetchq_stop), waits for it, and frees the queue.
 * NULL is fine. */
void fr_fetchq_free(struct fr_fetchq *q);

/* Hands a request to the fetcher's thread (req and its strings are copied).
 * A request the fetcher refuses (out of memory) comes back as a response
 * with outcome FR_NET_OTHER and err set. Returns 0, or -1 with err set
 * when out of memory here. */
int fr_fetchq_submit(struct fr_fetchq *q, const struct fr_request *req, char *err, size_t errlen);
/* The same with x (fetch.h; may be NULL), copied too. */
int fr_fetchq_submit_ex(struct fr_fetchq *q, const struct fr_request *req,
			const struct fr_request_extra *x, char *err, size_t errlen);

/* Calls done for each finished transfer taken back, in the order they
 * finished, with a response borrowed for the call; when none is ready,
 * first waits up to timeout_ms for one. done may submit. Returns how many
 * were taken, or -1 when the fetcher failed (libcurl multi; then nothing
 * more will come back). */
int fr_fetchq_poll(struct fr_fetchq *q, int timeout_ms,
		   void (*done)(void *arg, const struct fr_response *res), void *arg);

/* Requests submitted whose response has not been taken back yet. */
size_t fr_fetchq_running(const struct fr_fetchq *q);

#endif
