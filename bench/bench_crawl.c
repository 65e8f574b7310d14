/* bench_crawl.c - crawl throughput: `freshet run --once` fetching, parsing
 * and storing N feeds from a loopback `freshet serve`, against
 * `curl --parallel --parallel-max 64` fetching the same URLs to /dev/null in
 * the same run (issue 6's target: at least 0.8x curl's feeds per second).
 * Both ask every host as fast as they can (no politeness gap, no robots.txt)
 * with 64 transfers in flight; freshet starts from an empty store each round,
 * so every feed is a full 200 that is parsed and whose items are stored.
 * Rounds alternate (curl, freshet, curl, ...) so that a machine busy with
 * something else for a while slows both alike; the ratio is of the medians,
 * and of the best rounds.
 * Usage: bench_crawl [N_FEEDS [ROUNDS]] (default 2000 7), run from the
 * build tree. */
#include "bench.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Runs cmd once (after setup, untimed) and returns its wall time, or -1. */
static double
timed(const char *setup, const char *cmd)
{
	if (setup && bench_sh("bench_crawl", setup) != 0)
		return -1;
	double t0 = bench_now();
	if (bench_sh("bench_crawl", cmd) != 0)
		return -1;
	return bench_now() - t0;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Sorts t[0..n) and returns its median. */
static double
median(double *t, int n)
{
	qsort(t, (size_t)n, sizeof(*t), cmp_double);
	return n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
}

int
main(int argc, char **argv)
{
	char exe[4096], dir[] = "/tmp/bench_crawl.XXXXXX", cmd[16384], setup[8192];
	const char *slash = strrchr(argv[0], '/');
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 2000;
	long rounds = argc > 2 ? strtol(argv[2], NULL, 10) : 7;
	double t_curl[100], t_run[100];
	FILE *f;
	int port = 0;
	pid_t srv;

	if (n < 10 || n > 1000000 || rounds < 1 || rounds > 100) {
		fprintf(stderr, "usage: bench_crawl [N_FEEDS >= 10 [ROUNDS 1..100]]\n");
		return 2;
	}
	snprintf(exe, sizeof(exe), "%.*s/../freshet", slash ? (int)(slash - argv[0]) : 1,
		 slash ? argv[0] : ".");
	if (access(exe, X_OK) != 0) {
		fprintf(stderr, "bench_crawl: %s: not found (run from the build tree)\n", exe);
		return 1;
	}
	if (system("command -v curl >/dev/null") != 0) {
		fprintf(stderr, "bench_crawl: curl is needed (the baseline)\n");
		return 1;
	}
	if (!mkdtemp(dir)) {
		perror("bench_crawl: mkdtemp");
		return 1;
	}
	snprintf(cmd, sizeof(cmd), "'%s' world --out %s/w --sources %ld --days 3 --seed 9 2>/dev/null",
		 exe, dir, n);
	if (bench_sh("bench_crawl", cmd) != 0)
		return 1;
	/* The world's clock barely moves during the bench (speed 1): every
	 * round sees the same feeds. */
	srv = fork();
	if (srv == 0) {
		char hosts[32], wdir[4200], pf[4200];

		snprintf(hosts, sizeof(hosts), "%ld", n / 10 > 0 ? n / 10 : 1);
		snprintf(wdir, sizeof(wdir), "%s/w", dir);
		snprintf(pf, sizeof(pf), "%s/port", dir);
		if (!freopen("/dev/null", "w", stderr))
			_exit(127);
		execl(exe, exe, "serve", "--world", wdir, "--hosts", hosts, "--speed", "1",
		      "--misbehave", "off", "--api-limit", "off", "--window", "25", "--port-file",
		      pf, (char *)NULL);
		_exit(127);
	}
	for (int i = 0; i < 200 && port == 0; i++) {
		char pf[4200];

		snprintf(pf, sizeof(pf), "%s/port", dir);
		if ((f = fopen(pf, "r"))) {
			if (fscanf(f, "%d", &port) != 1)
				port = 0;
			fclose(f);
		}
		if (!port)
			usleep(50000);
	}
	if (!port) {
		fprintf(stderr, "bench_crawl: the server did not start\n");
		kill(srv, SIGTERM);
		return 1;
	}
	/* The same URLs for both: the feeds of the OPML (no huge feed: off). */
	snprintf(cmd, sizeof(cmd),
		 "grep -o 'xmlUrl=\"[^\"]*\"' %s/w/feeds.opml | cut -d'\"' -f2 >%s/urls && "
		 "sed 's/.*/url = \"&\"\\noutput = \"\\/dev\\/null\"/' %s/urls >%s/curl.cfg",
		 dir, dir, dir, dir);
	if (bench_sh("bench_crawl", cmd) != 0)
		goto fail;

	/* The store each freshet round starts from: the sources added, no item
	 * (copied, so that adding is not timed). */
	snprintf(cmd, sizeof(cmd),
		 "'%s' add --db %s/t.db --file %s/urls >/dev/null 2>&1", exe, dir, dir);
	if (bench_sh("bench_crawl", cmd) != 0)
		goto fail;
	char curl_cmd[8192], run_cmd[8192];
	snprintf(curl_cmd, sizeof(curl_cmd),
		 "curl -s --compressed --parallel --parallel-max 64 --connect-to ::127.0.0.1:%d "
		 "-K %s/curl.cfg 2>/dev/null",
		 port, dir);
	snprintf(setup, sizeof(setup),
		 "rm -f %s/b.db %s/b.db-wal %s/b.db-shm && cp %s/t.db %s/b.db", dir, dir, dir, dir,
		 dir);
	snprintf(run_cmd, sizeof(run_cmd),
		 "'%s' run --db %s/b.db --once --gap 0 --no-robots --transfers 64 --quiet "
		 "--connect-to ::127.0.0.1:%d >%s/run.out 2>%s/run.err",
		 exe, dir, port, dir, dir);
	for (int r = 0; r < rounds; r++) {
		t_curl[r] = timed(NULL, curl_cmd);
		t_run[r] = timed(setup, run_cmd);
		if (t_curl[r] <= 0 || t_run[r] <= 0)
			goto fail;
	}
	double med_curl = median(t_curl, (int)rounds), med_run = median(t_run, (int)rounds);
	double ratio = med_curl / med_run, best_ratio = t_curl[0] / t_run[0];
	printf("crawl throughput, %ld feeds from a loopback freshet serve, %ld alternating rounds:\n",
	       n, rounds);
	printf("                                                          median     best   feeds/s "
	       "(median)\n");
	printf("  curl --parallel --parallel-max 64 (fetch to /dev/null)  %6.3f s  %6.3f s  %8.0f\n",
	       med_curl, t_curl[0], n / med_curl);
	printf("  freshet run --once (fetch, parse, store)                %6.3f s  %6.3f s  %8.0f\n",
	       med_run, t_run[0], n / med_run);
	printf("  ratio freshet/curl = %.3f of the medians, %.3f of the best (target >= 0.80): "
	       "%s\n",
	       ratio, best_ratio, ratio >= 0.8 ? "MET" : "MISSED");
	fflush(stdout);
	snprintf(cmd, sizeof(cmd), "cat %s/run.out", dir);
	bench_sh("bench_crawl", cmd);
	kill(srv, SIGTERM);
	waitpid(srv, NULL, 0);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	bench_sh("bench_crawl", cmd);
	return 0;
fail:
	kill(srv, SIGTERM);
	waitpid(srv, NULL, 0);
	return 1;
}
