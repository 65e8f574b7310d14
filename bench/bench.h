/* bench.h - what the benchmarks share: the monotonic and processor clocks,
 * running a shell command with a message when it fails, and running one
 * measurement in a forked child that sends its result back over a pipe (so
 * that its memory and its crashes are its own). Header-only: every bench is
 * one executable. */
#ifndef FR_BENCH_H
#define FR_BENCH_H

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

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

/* ---- runs in forked children ------------------------------------------- */

/* What a child computes: fills out (size bytes, zeroed before the call) from
 * arg. Runs in the child only; its side effects stay there. */
typedef void (*bench_child_fn)(const void *arg, void *out, size_t size);

/* A child started by bench_fork and not yet collected. */
struct bench_child {
	pid_t pid;
	int fd; /* the read end of its pipe */
};

/* Results travel in one write, which a pipe keeps whole up to PIPE_BUF, so a
 * parent may wait for the child's exit before reading. */
#define BENCH_RESULT_MAX PIPE_BUF

/* Forks a child that runs fn(arg, out, size) and writes out (at most
 * BENCH_RESULT_MAX bytes) down a pipe, then exits 0 (1 if the write fails).
 * Stdio buffers are flushed first so that the child does not repeat them.
 * Returns 0 with *ch set, or -1 with errno set (nothing started). */
static inline int
bench_fork(struct bench_child *ch, bench_child_fn fn, const void *arg, size_t size)
{
	int fd[2];

	if (size > BENCH_RESULT_MAX) {
		errno = EMSGSIZE;
		return -1;
	}
	if (pipe(fd) < 0)
		return -1;
	fflush(stdout);
	fflush(stderr);
	pid_t pid = fork();
	if (pid < 0) {
		int e = errno;
		close(fd[0]);
		close(fd[1]);
		errno = e;
		return -1;
	}
	if (pid == 0) {
		unsigned char out[BENCH_RESULT_MAX];

		close(fd[0]);
		memset(out, 0, size);
		fn(arg, out, size);
		_exit(write(fd[1], out, size) == (ssize_t)size ? 0 : 1);
	}
	close(fd[1]);
	ch->pid = pid;
	ch->fd = fd[0];
	return 0;
}

/* Reads the result of child ch, which has exited with wait status status,
 * into out (size bytes, as given to bench_fork) and closes its pipe.
 * Returns 0 when the child sent all of it and exited 0; else -1 (out holds
 * what came, maybe nothing). */
static inline int
bench_collect(struct bench_child *ch, int status, void *out, size_t size)
{
	ssize_t got = read(ch->fd, out, size);

	close(ch->fd);
	ch->fd = -1;
	return got == (ssize_t)size && WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

/* bench_fork, then waits for that child and collects it; *ru (if not NULL)
 * gets the child's resource use (its own peak memory). Returns 0 or -1 as
 * bench_collect, -1 also when the child could not start or be waited for. */
static inline int
bench_run_child(bench_child_fn fn, const void *arg, void *out, size_t size, struct rusage *ru)
{
	struct bench_child ch;
	struct rusage r;
	int status;

	if (bench_fork(&ch, fn, arg, size) < 0)
		return -1;
	while (wait4(ch.pid, &status, 0, &r) < 0)
		if (errno != EINTR) {
			close(ch.fd);
			return -1;
		}
	if (ru)
		*ru = r;
	return bench_collect(&ch, status, out, size);
}

#endif
