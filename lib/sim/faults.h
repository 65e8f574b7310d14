/* faults.h - outcomes injected into a simulation (`simulate --faults`): a
 * source answering an error (503 or 429 with a Retry-After, 500, no answer
 * at all) during a window of time, or for its first N fetches in it. The
 * simulator applies the live crawler's holds to them (sched/hold.h), so
 * that a policy's response to errors can be compared offline. */
#ifndef FR_SIM_FAULTS_H
#define FR_SIM_FAULTS_H

#include <stddef.h>
#include <stdint.h>

struct fr_trace;

struct fr_fault {
	uint32_t source;      /* the trace's source id */
	double from_s, to_s;  /* fetches at times in [from_s, to_s) fail */
	long status;          /* the HTTP status answered; 0: no answer (a timeout) */
	double retry_after_s; /* > 0: Retry-After, in seconds after the fetch; 0: none */
	uint32_t times;       /* > 0: only the first this many fetches in the window fail */
};

struct fr_faults {
	struct fr_fault *v; /* in file order */
	size_t n;
};

/* Reads a faults file: CSV with a header naming the columns source, from,
 * to, status (required), retry_after and times (optional), in any order.
 * source is a source name of tr; from and to are Unix seconds or RFC 3339
 * (to > from); status is 0 or 100..599; retry_after seconds >= 0; times a
 * count >= 0 (0: every fetch in the window). name is the file's name for
 * errors ("NAME:LINE: reason"). buf[0..len) need not be NUL-terminated.
 * Returns 0 and fills *out (free with fr_faults_free), or -1 with err set
 * and *out empty. */
int fr_faults_parse(const char *name, const char *buf, size_t len, const struct fr_trace *tr,
		    struct fr_faults *out, char *err, size_t errlen);
/* The same from the file at path (at most 16 MiB). */
int fr_faults_read(const char *path, const struct fr_trace *tr, struct fr_faults *out, char *err,
		   size_t errlen);
void fr_faults_free(struct fr_faults *f);

/* The fault source src meets at t, given how many fetches of it each
 * fault has failed so far (used[k] for f->v[k]); NULL when the fetch goes
 * well. The first fault in file order that applies wins. Returns its
 * index in *k. */
const struct fr_fault *fr_faults_at(const struct fr_faults *f, const uint32_t *used, uint32_t src,
				    double t, size_t *k);

#endif
