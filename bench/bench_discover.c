/* bench_discover.c - feed discovery throughput: `freshet discover` on a
 * loopback web of N generated sites (`freshet serve --web N`), in sites per
 * minute, against `curl --parallel --parallel-max 64` fetching the very URLs
 * discover fetched (from the server's request log) to /dev/null in the same
 * run: the ratio says how much of the time is discovery's own work (parsing,
 * link extraction, queueing) rather than HTTP. Run twice: politely (the
 * default 1 s gap per host and robots.txt, what a user runs) and with no gap
 * (the machinery alone). Also prints recall and precision against the web's
 * truth file. Usage: bench_discover [N_SITES] (default 1000), from the build
 * tree. */
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

/* Lines of a file, or -1. */
static long
count_lines(const char *path)
{
	FILE *f = fopen(path, "r");
	long n = 0;
	int c;

	if (!f)
		return -1;
	while ((c = fgetc(f)) != EOF)
		n += c == '\n';
	fclose(f);
	return n;
}

/* Reads one number printed by a shell command. */
static double
sh_num(const char *cmd)
{
	FILE *p = popen(cmd, "r");
	double v = -1;

	if (!p)
		return -1;
	if (fscanf(p, "%lf", &v) != 1)
		v = -1;
	pclose(p);
	return v;
}

struct run {
	double secs, recall, precision;
	long requests;
};

/* One discover run over the site list with extra options; the server log is
 * truncated first so that it holds this run's requests only. */
static int
discover(const char *freshet, const char *dir, int port, const char *extra, struct run *r)
{
	char cmd[4096];
	double t0;

	snprintf(cmd, sizeof(cmd), "wc -l <%s/serve.log", dir);
	double before = sh_num(cmd);
	t0 = bench_now();
	snprintf(cmd, sizeof(cmd),
	         "%s discover --file %s/sites.txt --connect-to ::127.0.0.1:%d --format jsonl "
	         "--quiet --max-time 120s %s >%s/found.jsonl 2>%s/discover.err",
	         freshet, dir, port, extra, dir, dir);
	if (bench_sh("bench_discover", cmd) != 0) {
		snprintf(cmd, sizeof(cmd), "tail -5 %s/discover.err >&2", dir);
		(void)system(cmd);
		return -1;
	}
	r->secs = bench_now() - t0;
	/* the URLs this run fetched, for the curl baseline */
	snprintf(cmd, sizeof(cmd),
	         "tail -n +%.0f %s/serve.log | awk -F'\\t' 'NR>1 && $3==\"GET\" {print \"http://\" $2 $4}' "
	         ">%s/urls.txt",
	         before + 1, dir, dir);
	if (bench_sh("bench_discover", cmd) != 0)
		return -1;
	snprintf(cmd, sizeof(cmd), "%s/urls.txt", dir);
	r->requests = count_lines(cmd);
	/* recall and precision against the truth (feed URLs, scheme-less) */
	snprintf(cmd, sizeof(cmd),
	         "awk -F'\\t' 'NR>1 && $2!=\"\" {sub(/^https?:\\/\\//,\"\",$2); print $2}' %s/truth.tsv | "
	         "sort -u >%s/t.txt && "
	         "sed -n 's/^{\"feed\":\"\\([^\"]*\\)\".*/\\1/p' %s/found.jsonl | "
	         "sed 's,^https\\?://,,' | sort -u >%s/f.txt",
	         dir, dir, dir, dir);
	if (bench_sh("bench_discover", cmd) != 0)
		return -1;
	snprintf(cmd, sizeof(cmd), "comm -12 %s/t.txt %s/f.txt | wc -l", dir, dir);
	double tp = sh_num(cmd);
	snprintf(cmd, sizeof(cmd), "%s/t.txt", dir);
	double nt = (double)count_lines(cmd);
	snprintf(cmd, sizeof(cmd), "%s/f.txt", dir);
	double nf = (double)count_lines(cmd);
	r->recall = nt > 0 ? tp / nt : 0;
	r->precision = nf > 0 ? tp / nf : 0;
	return 0;
}

static double
curl_same(const char *dir, int port)
{
	char cmd[2048];
	double t0;

	snprintf(cmd, sizeof(cmd),
	         "sed 's/.*/url = \"&\"\\noutput = \"\\/dev\\/null\"/' %s/urls.txt >%s/curl.cfg",
	         dir, dir);
	if (bench_sh("bench_discover", cmd) != 0)
		return -1;
	snprintf(cmd, sizeof(cmd),
	         "curl -s --compressed --parallel --parallel-max 64 --connect-to ::127.0.0.1:%d "
	         "-K %s/curl.cfg 2>/dev/null",
	         port, dir);
	t0 = bench_now();
	if (bench_sh("bench_discover", cmd) != 0)
		return -1;
	return bench_now() - t0;
}

int
main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 1000;
	const char *freshet = getenv("FRESHET") ? getenv("FRESHET") : "./freshet";
	char dir[] = "/tmp/bench_discover.XXXXXX", cmd[2048], path[1024];
	pid_t srv;
	int port = 0, rc = 1;
	struct run polite, fast;
	double t_curl_p, t_curl_f;

	if (n < 1) {
		fprintf(stderr, "usage: bench_discover [N_SITES]\n");
		return 2;
	}
	if (access(freshet, X_OK) != 0) {
		fprintf(stderr, "bench_discover: %s not found (run from the build tree, or set "
		                "FRESHET)\n",
		        freshet);
		return 2;
	}
	if (system("command -v curl >/dev/null") != 0) {
		fprintf(stderr, "bench_discover: curl is needed (the baseline)\n");
		return 2;
	}
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	srv = fork();
	if (srv == 0) {
		char nb[32], a[1024], b[1024], c[1024], d[1024];
		snprintf(nb, sizeof(nb), "%ld", n);
		snprintf(a, sizeof(a), "%s/port", dir);
		snprintf(b, sizeof(b), "%s/truth.tsv", dir);
		snprintf(c, sizeof(c), "%s/sites.txt", dir);
		snprintf(d, sizeof(d), "%s/serve.log", dir);
		execl(freshet, freshet, "serve", "--web", nb, "--port-file", a, "--truth", b,
		      "--sites-list", c, "--log", d, (char *)NULL);
		_exit(127);
	}
	snprintf(path, sizeof(path), "%s/port", dir);
	for (int i = 0; i < 400 && port <= 0; i++) {
		FILE *f = fopen(path, "r");
		if (f) {
			if (fscanf(f, "%d", &port) != 1)
				port = 0;
			fclose(f);
		}
		if (port <= 0) {
			struct timespec ts = {0, 50000000};
			nanosleep(&ts, NULL);
		}
	}
	if (port <= 0) {
		fprintf(stderr, "bench_discover: the server did not start\n");
		goto out;
	}
	printf("feed discovery on a loopback web of %ld generated sites (freshet serve --web)\n", n);
	if (discover(freshet, dir, port, "", &polite) < 0)
		goto out;
	t_curl_p = curl_same(dir, port);
	if (discover(freshet, dir, port, "--gap 0", &fast) < 0)
		goto out;
	t_curl_f = curl_same(dir, port);
	if (t_curl_p <= 0 || t_curl_f <= 0)
		goto out;
	printf("  polite (1 s gap per host, robots.txt): %7.2f s  %8.0f sites/min  %ld requests  "
	       "recall %.3f precision %.3f\n",
	       polite.secs, n / polite.secs * 60, polite.requests, polite.recall, polite.precision);
	printf("    curl --parallel --parallel-max 64, same %ld URLs, no gap: %7.2f s\n",
	       polite.requests, t_curl_p);
	printf("  no gap (--gap 0):                      %7.2f s  %8.0f sites/min  %ld requests  "
	       "recall %.3f precision %.3f\n",
	       fast.secs, n / fast.secs * 60, fast.requests, fast.recall, fast.precision);
	printf("    curl --parallel --parallel-max 64, same %ld URLs: %7.2f s\n", fast.requests,
	       t_curl_f);
	printf("  ratio discover/curl (no gap, same URLs) = %.2f\n", t_curl_f / fast.secs);
	rc = 0;
out:
	if (srv > 0) {
		kill(srv, SIGTERM);
		waitpid(srv, NULL, 0);
	}
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	(void)system(cmd);
	return rc;
}
