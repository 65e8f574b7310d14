/* bench_parse.c - feed parse speed against sfeed(1) on the same bytes,
 * process against process: `freshet parse FILE --format tsv` and `sfeed <
 * FILE`, each a whole process from fork to exit, output read through a
 * pipe, wall and CPU time (getrusage of the child). Inputs: a 15 MB RSS
 * 2.0 file and a 15 MB Atom file, each a real feed of ../shared/data/feeds
 * with its items repeated; the concatenated small files of
 * ../shared/data/feeds and ../shared/data/feedparser-tests; stdin ('-')
 * from the RSS file and through a pipe; one process per small file for
 * both. Then hostile shapes (time and peak RSS of the freshet process);
 * last, labelled as not the same work, the library call on a buffer in
 * memory. Best of REPS runs each; a ratio is sfeed's time over freshet's
 * (>= 1.0: freshet at least as fast). `bench_parse hostile` runs the
 * hostile shapes alone. The inputs are written to files and
 * freed before any child runs, so that a child's peak RSS is its own. */
#include "bench.h"

#include "core/err.h"
#include "parse/feed.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define REPS 3
#define SFEED "/usr/bin/sfeed"

struct doc {
	char *buf;
	size_t len;
	char *path; /* the file it came from, or NULL */
};

struct corpus {
	struct doc *docs;
	size_t n, cap, bytes;
};

static int
add_doc(struct corpus *c, char *buf, size_t len)
{
	if (c->n == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 256;
		struct doc *p = realloc(c->docs, cap * sizeof(*p));

		if (!p)
			return -1;
		c->docs = p;
		c->cap = cap;
	}
	c->docs[c->n].buf = buf;
	c->docs[c->n].len = len;
	c->docs[c->n].path = NULL;
	c->n++;
	c->bytes += len;
	return 0;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every *.xml under dir, in sorted order. */
static void
load_dir(struct corpus *c, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, cap = 0;

	if (!d)
		return;
	while ((e = readdir(d)) != NULL) {
		size_t sz;

		if (e->d_name[0] == '.')
			continue;
		if (n == cap) {
			char **p = realloc(names, (cap = cap ? cap * 2 : 64) * sizeof(*names));

			if (!p)
				break;
			names = p;
		}
		sz = strlen(dir) + strlen(e->d_name) + 2;
		names[n] = malloc(sz);
		if (!names[n])
			break;
		snprintf(names[n], sz, "%s/%s", dir, e->d_name);
		n++;
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), cmp_str);
	for (size_t i = 0; i < n; i++) {
		struct stat st;
		size_t k = strlen(names[i]);

		if (stat(names[i], &st) == 0 && S_ISDIR(st.st_mode)) {
			load_dir(c, names[i]);
		} else if (k > 4 && !strcmp(names[i] + k - 4, ".xml") && st.st_size > 0) {
			FILE *f = fopen(names[i], "rb");
			char *buf = malloc((size_t)st.st_size);

			if (f && buf && fread(buf, 1, (size_t)st.st_size, f) == (size_t)st.st_size &&
			    add_doc(c, buf, (size_t)st.st_size) == 0) {
				c->docs[c->n - 1].path = names[i];
				names[i] = NULL;
			} else {
				free(buf);
			}
			if (f)
				fclose(f);
		}
		free(names[i]);
	}
	free(names);
}

/* A real feed's items repeated up to target bytes: the bytes before its
 * first <tag> item, then the span from the first item to the end of the
 * last, again and again, then the rest. NULL when the file cannot be read
 * or has no such item. */
static char *
repeat_items(const char *path, const char *tag, size_t target, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char open[32], close[32], *src = NULL, *out = NULL;
	const char *first, *last, *p;
	size_t n = 0, cap = 0, got;

	if (!f)
		return NULL;
	for (;;) {
		if (n + 65536 > cap) {
			char *q = realloc(src, (cap = cap ? cap * 2 : 1 << 20) + 1);

			if (!q)
				break;
			src = q;
		}
		got = fread(src + n, 1, cap - n, f);
		n += got;
		if (got == 0)
			break;
	}
	fclose(f);
	if (!src)
		return NULL;
	src[n] = '\0';
	snprintf(open, sizeof(open), "<%s>", tag);
	snprintf(close, sizeof(close), "</%s>", tag);
	first = strstr(src, open);
	last = NULL;
	for (p = first; p && (p = strstr(p, close)) != NULL; p++)
		last = p;
	if (first && last && (out = malloc(target + n + 1)) != NULL) {
		size_t head = (size_t)(first - src), span = (size_t)(last + strlen(close) - first), w;

		memcpy(out, src, head);
		w = head;
		while (w + span + (n - head - span) < target) {
			memcpy(out + w, first, span);
			w += span;
		}
		memcpy(out + w, first + span, n - head - span);
		*len = w + n - head - span;
	}
	free(src);
	return out;
}

/* freshet's library call over every doc once; returns seconds. */
static double
run_lib(const struct corpus *c, size_t *items)
{
	struct fr_feed_opts o = {.max_items = SIZE_MAX};
	double t0 = bench_now();

	*items = 0;
	for (size_t i = 0; i < c->n; i++) {
		struct fr_feed *f = NULL;
		char err[FR_ERRLEN];

		o.max_bytes = c->docs[i].len + 1;
		if (fr_feed_parse(c->docs[i].buf, c->docs[i].len, &o, &f, err, sizeof(err)) == 0)
			*items += f->n_items;
		fr_feed_free(f);
	}
	return bench_now() - t0;
}

static int
write_file(const char *path, const char *buf, size_t len)
{
	FILE *f = fopen(path, "wb");

	if (!f)
		return -1;
	if (fwrite(buf, 1, len, f) != len) {
		fclose(f);
		return -1;
	}
	return fclose(f);
}

static int
write_concat(const struct corpus *c, const char *path)
{
	FILE *f = fopen(path, "wb");

	if (!f)
		return -1;
	for (size_t i = 0; i < c->n; i++)
		if (fwrite(c->docs[i].buf, 1, c->docs[i].len, f) != c->docs[i].len) {
			fclose(f);
			return -1;
		}
	return fclose(f);
}

/* One process's figures. */
struct run {
	double wall_s, cpu_s; /* fork to exit; user + system of the child */
	long maxrss_kb;       /* the child's peak resident set */
	size_t lines;         /* lines it wrote */
	int ok;
};

/* Runs argv with stdin from in_path (NULL: /dev/null), or, when feed_path
 * is set, from a pipe that this process fills from that file; stdout is
 * read through a pipe and its lines counted, stderr goes to /dev/null. */
static struct run
run_proc(char *const argv[], const char *in_path, const char *feed_path)
{
	struct run r = {0};
	int in = -1, p[2], q[2] = {-1, -1}, status;
	pid_t pid;
	char buf[1 << 16];
	ssize_t got;
	double t0;
	struct rusage ru;
	FILE *feed = NULL;

	if (feed_path) {
		if (pipe(q) != 0 || (feed = fopen(feed_path, "rb")) == NULL)
			return r;
		in = q[0];
	} else {
		in = open(in_path ? in_path : "/dev/null", O_RDONLY);
	}
	if (in < 0 || pipe(p) != 0)
		return r;
	t0 = bench_now();
	pid = fork();
	if (pid < 0)
		return r;
	if (pid == 0) {
		int dn = open("/dev/null", O_WRONLY);

		dup2(in, 0);
		dup2(p[1], 1);
		if (dn >= 0)
			dup2(dn, 2);
		close(p[0]);
		if (q[1] >= 0)
			close(q[1]);
		execv(argv[0], argv);
		_exit(127);
	}
	close(in);
	close(p[1]);
	if (feed) {
		/* the whole file into the pipe, reading the output between
		 * writes would need poll(); the output is drained after, so
		 * the child's stdout pipe must not fill: its output goes on
		 * through a second child */
		pid_t w = fork();

		if (w == 0) {
			size_t n;

			close(p[0]);
			while ((n = fread(buf, 1, sizeof(buf), feed)) > 0)
				if (write(q[1], buf, n) != (ssize_t)n)
					break;
			_exit(0);
		}
		close(q[1]);
		fclose(feed);
		while ((got = read(p[0], buf, sizeof(buf))) > 0)
			for (ssize_t i = 0; i < got; i++)
				r.lines += buf[i] == '\n';
		waitpid(w, NULL, 0);
	} else {
		while ((got = read(p[0], buf, sizeof(buf))) > 0)
			for (ssize_t i = 0; i < got; i++)
				r.lines += buf[i] == '\n';
	}
	close(p[0]);
	if (wait4(pid, &status, 0, &ru) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) == 127)
		return r;
	r.wall_s = bench_now() - t0;
	r.cpu_s = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 + (double)ru.ru_stime.tv_sec +
	          ru.ru_stime.tv_usec * 1e-6;
	r.maxrss_kb = ru.ru_maxrss;
	r.ok = 1;
	return r;
}

/* The best (least wall time) of REPS runs. */
static struct run
best_of(char *const argv[], const char *in_path, const char *feed_path)
{
	struct run best = {0};

	for (int i = 0; i < REPS; i++) {
		struct run r = run_proc(argv, in_path, feed_path);

		if (r.ok && (!best.ok || r.wall_s < best.wall_s))
			best = r;
	}
	return best;
}

static char freshet_bin[4096];

/* build/bench/bench_parse -> build/freshet */
static int
find_freshet(void)
{
	ssize_t n = readlink("/proc/self/exe", freshet_bin, sizeof(freshet_bin) - 32);
	char *slash;

	if (n <= 0)
		return -1;
	freshet_bin[n] = '\0';
	slash = strrchr(freshet_bin, '/');
	if (!slash)
		return -1;
	*slash = '\0';
	slash = strrchr(freshet_bin, '/');
	if (!slash)
		return -1;
	snprintf(slash, sizeof(freshet_bin) - (size_t)(slash - freshet_bin), "/freshet");
	return access(freshet_bin, X_OK);
}

static void
print_pair(const char *name, size_t bytes, struct run f, struct run s)
{
	printf("bench_parse: %-11s %6.2f MB  freshet %7.1f MB/s wall, %6.3f s CPU, %4ld MB peak, %6zu lines",
	       name, bytes / 1e6, f.ok ? bytes / 1e6 / f.wall_s : 0.0, f.cpu_s, f.maxrss_kb / 1024, f.lines);
	if (!s.ok) {
		printf("  sfeed: not run (%s missing?)\n", SFEED);
		return;
	}
	printf("  | sfeed %7.1f MB/s wall, %6.3f s CPU, %4ld MB peak, %6zu lines  | ratio %.2fx wall, %.2fx CPU\n",
	       bytes / 1e6 / s.wall_s, s.cpu_s, s.maxrss_kb / 1024, s.lines, s.wall_s / f.wall_s,
	       f.cpu_s > 0 ? s.cpu_s / f.cpu_s : 0.0);
}

/* One file, process against process; feed_pipe: freshet reads '-' (from
 * the file, or through a pipe when 2). */
static void
proc_line(const char *name, const char *path, size_t bytes, int stdin_mode)
{
	char *fa[] = {freshet_bin, "parse", (char *)path, "--format", "tsv", "--max-items", "0", NULL};
	char *fs[] = {freshet_bin, "parse", "-", "--format", "tsv", "--max-items", "0", NULL};
	char *sa[] = {SFEED, NULL};
	struct run f, s = {0};

	if (stdin_mode == 0)
		f = best_of(fa, NULL, NULL);
	else
		f = best_of(fs, stdin_mode == 1 ? path : NULL, stdin_mode == 2 ? path : NULL);
	if (access(SFEED, X_OK) == 0)
		s = best_of(sa, stdin_mode == 2 ? NULL : path, stdin_mode == 2 ? path : NULL);
	print_pair(name, bytes, f, s);
}

/* Time and peak RSS of one `freshet parse FILE --format json` process on
 * the shape in b[0..n), scaled to 15 MB of input when smaller. */
static void
hostile_line(const char *what, const char *tmp, const char *b, size_t n)
{
	char *fa[] = {freshet_bin, "parse", (char *)tmp, "--format", "json", NULL};
	struct run r;
	double scale;

	if (write_file(tmp, b, n) != 0)
		return;
	r = run_proc(fa, NULL, NULL);
	if (!r.ok) {
		printf("bench_parse: hostile %s: did not run\n", what);
		return;
	}
	/* the target: 1 s and 200 MB per 15 MB of input (at least 1 s and
	 * 200 MB for a smaller one); judged on CPU time, which a loaded
	 * machine stretches less than wall time */
	scale = (double)n / (15u << 20) > 1 ? (double)n / (15u << 20) : 1;
	printf("bench_parse: hostile %-42s %5.1f MB: %5.2f s wall, %5.2f s CPU, %4ld MB peak"
	       "  (target %.1f s CPU, %.0f MB: %s)\n",
	       what, n / 1e6, r.wall_s, r.cpu_s, r.maxrss_kb / 1024, scale, 200 * scale,
	       r.cpu_s <= scale && r.maxrss_kb / 1024.0 <= 200 * scale ? "met" : "NOT met");
}

/* Hostile shapes. */
static void
hostile(const char *tmp)
{
	size_t cap = 40u << 20, n = 0;
	char *b = malloc(cap);

	if (!b)
		return;
	n = (size_t)snprintf(b, cap, "<rss version=\"2.0\"><channel><title>t</title><item><title>x</title><link ");
	for (unsigned i = 0; i < 200000; i++)
		n += (size_t)snprintf(b + n, cap - n, "a%u=\"v\" ", i);
	n += (size_t)snprintf(b + n, cap - n, ">http://x/</link></item></channel></rss>\n");
	hostile_line("200,000 attributes on one element", tmp, b, n);
	/* the attribute cap's worst case: every element at the cap */
	n = (size_t)snprintf(b, cap, "<rss version=\"2.0\"><channel><title>t</title>");
	while (n + 8192 < (15u << 20)) {
		n += (size_t)snprintf(b + n, cap - n, "<item><link ");
		for (unsigned i = 0; i < 300; i++)
			n += (size_t)snprintf(b + n, cap - n, "a%u=\"v\" ", i);
		n += (size_t)snprintf(b + n, cap - n, ">http://x/</link></item>");
	}
	n += (size_t)snprintf(b + n, cap - n, "</channel></rss>\n");
	hostile_line("elements of 300 attributes, 15 MB of them", tmp, b, n);
	n = (size_t)snprintf(b, cap, "<rss version=\"2.0\"><channel><title>t</title>");
	for (unsigned i = 0; i < 1000000 && n + 64 < cap; i++)
		n += (size_t)snprintf(b + n, cap - n, "<item><guid>%u</guid></item>", i);
	n += (size_t)snprintf(b + n, cap - n, "</channel></rss>\n");
	hostile_line("1,000,000 items (cap 10,000 kept)", tmp, b, n);
	n = (size_t)snprintf(b, cap, "<!DOCTYPE rss [<!ENTITY e \"entity text\">]><rss version=\"2.0\"><channel>"
	                             "<title>t</title><item><title>");
	for (unsigned i = 0; i < 100000; i++)
		n += (size_t)snprintf(b + n, cap - n, "&e; ");
	n += (size_t)snprintf(b + n, cap - n, "</title></item></channel></rss>\n");
	hostile_line("100,000 entity references", tmp, b, n);
	unlink(tmp);
	free(b);
}

/* One process per small file, for both; the files are in dir as f0.xml,
 * f1.xml, ... */
static void
per_file(size_t n, const char *dir)
{
	char path[4096];
	char *fa[] = {freshet_bin, "parse", path, "--format", "tsv", NULL};
	char *sa[] = {SFEED, NULL};
	double tf = 0, ts = 0, cf = 0, cs = 0;
	size_t lf = 0, ls = 0;
	int have_sfeed = access(SFEED, X_OK) == 0;

	for (size_t i = 0; i < n; i++) {
		struct run r;

		snprintf(path, sizeof(path), "%s/f%zu.xml", dir, i);
		r = run_proc(fa, NULL, NULL);
		tf += r.wall_s;
		cf += r.cpu_s;
		lf += r.lines;
		if (have_sfeed) {
			r = run_proc(sa, path, NULL);
			ts += r.wall_s;
			cs += r.cpu_s;
			ls += r.lines;
		}
	}
	printf("bench_parse: per-file    %zu files, one process each: freshet %.2f ms/file wall, %.2f ms CPU (%zu lines)",
	       n, 1e3 * tf / (double)n, 1e3 * cf / (double)n, lf);
	if (have_sfeed)
		printf("  | sfeed %.2f ms/file wall, %.2f ms CPU (%zu lines)  | ratio %.2fx wall, %.2fx CPU\n",
		       1e3 * ts / (double)n, 1e3 * cs / (double)n, ls, ts / tf, cf > 0 ? cs / cf : 0.0);
	else
		printf("\n");
}

/* Many files in one freshet process against one sfeed process per file. */
static void
many_files(size_t n, const char *dir, size_t bytes)
{
	char **fa = calloc(n + 6, sizeof(*fa));
	char path[4096];
	char *sa[] = {SFEED, NULL};
	struct run f = {0}, s = {0};

	if (!fa)
		return;
	fa[0] = freshet_bin;
	fa[1] = "parse";
	fa[2] = "--format";
	fa[3] = "tsv";
	for (size_t i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/f%zu.xml", dir, i);
		fa[4 + i] = strdup(path);
	}
	f = best_of(fa, NULL, NULL);
	if (access(SFEED, X_OK) == 0) {
		s.ok = 1;
		for (size_t i = 0; i < n; i++) {
			struct run r;

			snprintf(path, sizeof(path), "%s/f%zu.xml", dir, i);
			r = run_proc(sa, path, NULL);
			s.wall_s += r.wall_s;
			s.cpu_s += r.cpu_s;
			s.lines += r.lines;
			s.ok &= r.ok;
			if (r.maxrss_kb > s.maxrss_kb)
				s.maxrss_kb = r.maxrss_kb;
		}
	}
	printf("bench_parse: (the same %zu files, freshet in one process with all of them, sfeed one process each)\n", n);
	print_pair("many-files", bytes, f, s);
	for (size_t i = 0; i < n; i++)
		free(fa[4 + i]);
	free(fa);
}

/* The small files: freshet given them all in one process (`freshet parse
 * F1 F2 ... --format tsv`), sfeed their concatenation on stdin: the same
 * bytes, one process each. */
static void
small_cat(const struct corpus *c, const char *cat, size_t bytes)
{
	char **fa = calloc(c->n + 8, sizeof(*fa));
	char *sa[] = {SFEED, NULL};
	struct run f, s = {0};
	size_t k = 0;

	if (!fa)
		return;
	fa[k++] = freshet_bin;
	fa[k++] = "parse";
	fa[k++] = "--format";
	fa[k++] = "tsv";
	fa[k++] = "--max-items";
	fa[k++] = "0";
	for (size_t i = 0; i < c->n; i++)
		if (c->docs[i].path)
			fa[k++] = c->docs[i].path;
	f = best_of(fa, NULL, NULL);
	if (access(SFEED, X_OK) == 0)
		s = best_of(sa, cat, NULL);
	print_pair("small-cat", bytes, f, s);
	free(fa);
}

/* `bench_parse hostile`: the hostile shapes only. */
static int
hostile_only(void)
{
	char tmp[] = "/tmp/bench_parse_tmp.XXXXXX";
	int fd = mkstemp(tmp);

	if (fd < 0 || find_freshet() != 0) {
		fprintf(stderr, "bench_parse: no temp file or no freshet binary (%s)\n", freshet_bin);
		return 1;
	}
	close(fd);
	hostile(tmp);
	return 0;
}

static int
full_run(void)
{
	struct corpus shared = {0}, big = {0};
	char rss[] = "/tmp/bench_parse_rss.XXXXXX", atom[] = "/tmp/bench_parse_atom.XXXXXX";
	char cat[] = "/tmp/bench_parse_cat.XXXXXX", tmp[] = "/tmp/bench_parse_tmp.XXXXXX";
	char tmpdir[] = "/tmp/bench_parse_d.XXXXXX";
	int fds[4] = {mkstemp(rss), mkstemp(atom), mkstemp(cat), mkstemp(tmp)};
	size_t glen = 0, alen = 0, n_files, small_bytes, files_bytes = 0, items = 0;
	char *g = repeat_items(FR_SHARED "/data/feeds/feed-rs/fixture/rss2/rss_2.0_cloudflare.xml", "item",
	                       15u << 20, &glen);
	char *at = repeat_items(FR_SHARED "/data/feeds/feed-rs/fixture/atom/atom_mediarss_reddit_1.xml", "entry",
	                        15u << 20, &alen);
	double t;

	for (int i = 0; i < 4; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	if (fds[0] < 0 || fds[1] < 0 || fds[2] < 0 || fds[3] < 0 || !g || !at || !mkdtemp(tmpdir)) {
		fprintf(stderr, "bench_parse: cannot set up (temp files, memory, or the feeds under %s/data/feeds)\n",
		        FR_SHARED);
		return 1;
	}
	if (find_freshet() != 0) {
		fprintf(stderr, "bench_parse: no freshet binary beside the bench directory (%s)\n", freshet_bin);
		return 1;
	}
	load_dir(&shared, FR_SHARED "/data/feeds");
	load_dir(&shared, FR_SHARED "/data/feedparser-tests");
	if (shared.n == 0)
		fprintf(stderr, "bench_parse: no XML under %s/data\n", FR_SHARED);
	/* every input to a file, and out of this process's memory */
	if (write_file(rss, g, glen) != 0 || write_file(atom, at, alen) != 0 || write_concat(&shared, cat) != 0) {
		fprintf(stderr, "bench_parse: cannot write the inputs to /tmp\n");
		return 1;
	}
	free(g);
	free(at);
	n_files = shared.n < 300 ? shared.n : 300;
	for (size_t i = 0; i < n_files; i++) {
		char path[4096];

		snprintf(path, sizeof(path), "%s/f%zu.xml", tmpdir, i);
		if (write_file(path, shared.docs[i].buf, shared.docs[i].len) != 0)
			n_files = i;
		files_bytes += shared.docs[i].len;
	}
	small_bytes = shared.bytes;
	for (size_t i = 0; i < shared.n; i++) {
		free(shared.docs[i].buf);
		shared.docs[i].buf = NULL;
	}
	printf("bench_parse: process against process: `%s parse FILE --format tsv --max-items 0` vs `%s < FILE`,\n"
	       "bench_parse: output through a pipe, best of %d by wall time; RSS: rss_2.0_cloudflare.xml's items\n"
	       "bench_parse: repeated, Atom: atom_mediarss_reddit_1.xml's; small-cat: %zu files of %s/data/feeds\n"
	       "bench_parse: and feedparser-tests, all given to one freshet process, concatenated on sfeed's stdin\n",
	       freshet_bin, SFEED, REPS, shared.n, FR_SHARED);
	proc_line("rss-15MB", rss, glen, 0);
	proc_line("atom-15MB", atom, alen, 0);
	small_cat(&shared, cat, small_bytes);
	proc_line("rss-stdin", rss, glen, 1);
	proc_line("rss-pipe", rss, glen, 2);
	per_file(n_files, tmpdir);
	many_files(n_files, tmpdir, files_bytes);
	for (size_t i = 0; i < n_files; i++) {
		char path[4096];

		snprintf(path, sizeof(path), "%s/f%zu.xml", tmpdir, i);
		unlink(path);
	}
	rmdir(tmpdir);
	unlink(atom);
	unlink(cat);
	hostile(tmp);
	/* last: the library call, in this process */
	g = repeat_items(FR_SHARED "/data/feeds/feed-rs/fixture/rss2/rss_2.0_cloudflare.xml", "item", 15u << 20,
	                 &glen);
	unlink(rss);
	if (g && add_doc(&big, g, glen) == 0) {
		t = run_lib(&big, &items);
		printf("bench_parse: (second figure, not the same work: the library call fr_feed_parse on the RSS "
		       "file in memory) %.1f MB/s, %zu items\n",
		       glen / 1e6 / t, items);
	}
	free(g);
	free(big.docs);
	for (size_t i = 0; i < shared.n; i++)
		free(shared.docs[i].path);
	free(shared.docs);
	return 0;
}

int
main(int argc, char **argv)
{
	if (argc == 1)
		return full_run();
	if (argc == 2 && !strcmp(argv[1], "hostile"))
		return hostile_only();
	fprintf(stderr, "usage: bench_parse [hostile]\n");
	return 2;
}
