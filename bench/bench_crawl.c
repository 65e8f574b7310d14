/* bench_crawl.c - crawl throughput: `freshet run --once` fetching, parsing
 * and storing N feeds from a loopback `freshet serve`, against
 * `curl --parallel --parallel-max 64` fetching the same URLs to /dev/null in
 * the same run (issue 6's target: at least 0.8x curl's feeds per second).
 * Both ask every host as fast as they can (no politeness gap, no robots.txt)
 * with 64 transfers in flight; freshet starts from an empty store each round,
 * so every feed is a full 200 that is parsed and whose items are stored.
 * Usage: bench_crawl [N_FEEDS] (default 2000), run from the build tree. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define ROUNDS 3

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int
sh(const char *cmd)
{
	int rc = system(cmd);

	if (rc != 0)
		fprintf(stderr, "bench_crawl: failed (%d): %s\n", rc, cmd);
	return rc;
}

/* Runs cmd ROUNDS times (after setup, untimed, before each) and returns the
 * best wall time, or -1. */
static double
best_of(const char *setup, const char *cmd)
{
	double best = -1;

	for (int r = 0; r < ROUNDS; r++) {
		if (setup && sh(setup) != 0)
			return -1;
		double t0 = now_s();
		if (sh(cmd) != 0)
			return -1;
		double t = now_s() - t0;
		if (best < 0 || t < best)
			best = t;
	}
	return best;
}

int
main(int argc, char **argv)
{
	char exe[4096], dir[] = "/tmp/bench_crawl.XXXXXX", cmd[16384], setup[8192];
	const char *slash = strrchr(argv[0], '/');
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 2000;
	FILE *f;
	int port = 0;
	pid_t srv;

	if (n < 10 || n > 1000000) {
		fprintf(stderr, "usage: bench_crawl [N_FEEDS >= 10]\n");
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
	if (sh(cmd) != 0)
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
	if (sh(cmd) != 0)
		goto fail;

	snprintf(cmd, sizeof(cmd),
		 "curl -s --compressed --parallel --parallel-max 64 --connect-to ::127.0.0.1:%d "
		 "-K %s/curl.cfg",
		 port, dir);
	double t_curl = best_of(NULL, cmd);
	snprintf(setup, sizeof(setup),
		 "rm -f %s/b.db %s/b.db-wal %s/b.db-shm && '%s' add --db %s/b.db --file %s/urls "
		 ">/dev/null",
		 dir, dir, dir, exe, dir, dir);
	snprintf(cmd, sizeof(cmd),
		 "'%s' run --db %s/b.db --once --gap 0 --no-robots --transfers 64 --quiet "
		 "--connect-to ::127.0.0.1:%d >%s/run.out 2>%s/run.err",
		 exe, dir, port, dir, dir);
	double t_run = best_of(setup, cmd);
	if (t_curl <= 0 || t_run <= 0)
		goto fail;
	printf("crawl throughput, %ld feeds from a loopback freshet serve, best of %d:\n", n, ROUNDS);
	printf("  curl --parallel --parallel-max 64 (fetch to /dev/null)  %7.3f s  %8.0f feeds/s\n",
	       t_curl, n / t_curl);
	printf("  freshet run --once (fetch, parse, store)                 %7.3f s  %8.0f feeds/s\n",
	       t_run, n / t_run);
	printf("  ratio freshet/curl = %.2f (target >= 0.80): %s\n", t_curl / t_run,
	       t_curl / t_run >= 0.8 ? "MET" : "MISSED");
	snprintf(cmd, sizeof(cmd), "cat %s/run.out", dir);
	sh(cmd);
	kill(srv, SIGTERM);
	waitpid(srv, NULL, 0);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	sh(cmd);
	return 0;
fail:
	kill(srv, SIGTERM);
	waitpid(srv, NULL, 0);
	return 1;
}
