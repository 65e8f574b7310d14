/* bench.h - what the benchmarks share: the monotonic and processor clocks,
 * and running a shell command with a message when it fails. Header-only:
 * every bench is one executable. */
#ifndef FR_BENCH_H
#define FR_BENCH_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* Seconds on the monotonic clock. */
static inline double
bench_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Processor seconds of this process (all its threads): on a shared
 * machine, steadier than the wall clock. */
static inline double
bench_cpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Runs cmd with system(3); on a non-zero status prints "NAME: failed
 * (STATUS): CMD" on stderr. Returns the status. */
static inline int
bench_sh(const char *name, const char *cmd)
{
	int rc = system(cmd);

	if (rc != 0)
		fprintf(stderr, "%s: failed (%d): %s\n", name, rc, cmd);
	return rc;
}

#endif
