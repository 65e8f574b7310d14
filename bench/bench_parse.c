/* bench_parse.c - feed parse throughput against sfeed(1) on the same bytes,
 * process against process: `freshet parse FILE --format tsv` and `sfeed <
 * FILE`, each a whole process from fork to exit, output read through a
 * pipe, on a generated 15 MB RSS 2.0 feed, a 15 MB Atom feed and the
 * concatenated small-file corpus (../shared/data/feeds and
 * ../shared/data/feedparser-tests); then one process per small file for
 * both; then hostile shapes (time and peak RSS of the freshet process);
 * last, labelled, the library call on a buffer in memory. Best of REPS
 * runs each; a ratio is sfeed's time over freshet's (>= 1.0: freshet at
 * least as fast). */
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

			if (f && buf && fread(buf, 1, (size_t)st.st_size, f) == (size_t)st.st_size)
				add_doc(c, buf, (size_t)st.st_size);
			else
				free(buf);
			if (f)
				fclose(f);
		}
		free(names[i]);
	}
	free(names);
}

/* A big RSS 2.0 feed as real ones look: escaped HTML descriptions,
 * content:encoded in CDATA, categories, an enclosure. */
static char *
generate(size_t target, size_t *len)
{
	size_t cap = target + 65536, n = 0;
	char *b = malloc(cap);
	unsigned item = 0;

	if (!b)
		return NULL;
	n += (size_t)snprintf(b + n, cap - n,
	                      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<rss version=\"2.0\" "
	                      "xmlns:content=\"http://purl.org/rss/1.0/modules/content/\" "
	                      "xmlns:dc=\"http://purl.org/dc/elements/1.1/\">\n<channel>\n"
	                      "<title>Generated &amp; large</title>\n<link>https://example.org/</link>\n"
	                      "<description>A generated feed for the parse benchmark</description>\n");
	while (n + 4096 < target) {
		item++;
		n += (size_t)snprintf(
		    b + n, cap - n,
		    "<item>\n<title>Item %u: caf&#233; &amp; cr&#232;me, a title of some length</title>\n"
		    "<link>https://example.org/posts/%u</link>\n<guid isPermaLink=\"false\">urn:post:%u</guid>\n"
		    "<pubDate>Sun, %02u Jul 2014 %02u:%02u:00 +0200</pubDate>\n<dc:creator>Writer %u</dc:creator>\n"
		    "<category>news</category><category>topic-%u</category>\n"
		    "<description>&lt;p&gt;Summary of item %u with &lt;a href=\"/x/%u\"&gt;a link&lt;/a&gt; "
		    "and some more words to make it look like a real summary of a real article, which "
		    "is usually a couple of sentences long.&lt;/p&gt;</description>\n"
		    "<content:encoded><![CDATA[<p>Body of item %u. Lorem ipsum dolor sit amet, consectetur "
		    "adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua.</p>"
		    "<p>Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip ex "
		    "ea commodo consequat. <img src=\"https://cdn.example.org/%u.jpg\" alt=\"\"/></p><p>Duis aute "
		    "irure dolor in reprehenderit in voluptate velit esse cillum dolore eu fugiat nulla "
		    "pariatur. Excepteur sint occaecat cupidatat non proident, sunt in culpa qui officia "
		    "deserunt mollit anim id est laborum.</p>]]></content:encoded>\n"
		    "<enclosure url=\"https://cdn.example.org/%u.mp3\" length=\"%u\" type=\"audio/mpeg\"/>\n"
		    "</item>\n",
		    item, item, item, 1 + item % 28, item % 24, item % 60, item % 97, item % 50, item, item,
		    item, item, item, 1000 + item);
	}
	n += (size_t)snprintf(b + n, cap - n, "</channel>\n</rss>\n");
	*len = n;
	return b;
}

/* freshet over every doc once; returns seconds, sets *items. */
static double
run_freshet(const struct corpus *c, size_t *items, size_t *failed)
{
	struct fr_feed_opts o = {.max_bytes = 64u << 20};
	double t0 = bench_now();

	*items = *failed = 0;
	for (size_t i = 0; i < c->n; i++) {
		struct fr_feed *f = NULL;
		char err[FR_ERRLEN];

		if (fr_feed_parse(c->docs[i].buf, c->docs[i].len, &o, &f, err, sizeof(err)) == 0)
			*items += f->n_items;
		else
			(*failed)++;
		fr_feed_free(f);
	}
	return bench_now() - t0;
}

/* sfeed reading path on stdin, its output counted through a pipe; returns
 * seconds (process start to exit), or -1. */
static double
run_sfeed(const char *path, size_t *lines)
{
	int fd = open(path, O_RDONLY), p[2];
	pid_t pid;
	char buf[1 << 16];
	ssize_t got;
	int status;
	double t0;

	*lines = 0;
	if (fd < 0 || pipe(p) != 0)
		return -1;
	t0 = bench_now();
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		dup2(fd, 0);
		dup2(p[1], 1);
		close(p[0]);
		execl(SFEED, "sfeed", (char *)NULL);
		_exit(127);
	}
	close(fd);
	close(p[1]);
	while ((got = read(p[0], buf, sizeof(buf))) > 0)
		for (ssize_t i = 0; i < got; i++)
			*lines += buf[i] == '\n';
	close(p[0]);
	waitpid(pid, &status, 0);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return -1;
	return bench_now() - t0;
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

/* Best-of-REPS for both; prints one line; returns the ratio (or 0). */
static double
compare(const char *name, const struct corpus *c, const char *tmp, double *t_fr, double *t_sf)
{
	double best_fr = 1e9, best_sf = 1e9;
	size_t items = 0, failed = 0, lines = 0;
	int have_sfeed = access(SFEED, X_OK) == 0;

	for (int r = 0; r < REPS; r++) {
		double t = run_freshet(c, &items, &failed);

		if (t < best_fr)
			best_fr = t;
	}
	if (have_sfeed && write_concat(c, tmp) == 0) {
		for (int r = 0; r < REPS; r++) {
			double t = run_sfeed(tmp, &lines);

			if (t < 0) {
				have_sfeed = 0;
				break;
			}
			if (t < best_sf)
				best_sf = t;
		}
	} else {
		have_sfeed = 0;
	}
	unlink(tmp);
	printf("bench_parse: %-7s %5zu docs %6.2f MB  freshet %7.1f MB/s (%zu items, %zu not feeds)", name,
	       c->n, c->bytes / 1e6, c->bytes / 1e6 / best_fr, items, failed);
	if (!have_sfeed) {
		printf("  sfeed: not run (%s missing?)\n", SFEED);
		return 0;
	}
	printf("  sfeed %7.1f MB/s (%zu items)  ratio %.2fx\n", c->bytes / 1e6 / best_sf, lines,
	       best_sf / best_fr);
	*t_fr += best_fr;
	*t_sf += best_sf;
	return best_sf / best_fr;
}

/* Runs argv with stdin from in_path (NULL: /dev/null), stdout counted in
 * lines through a pipe; returns wall seconds (fork to exit) or -1 when it
 * fails; *maxrss_kb its peak resident set. */
static double
run_proc(char *const argv[], const char *in_path, size_t *lines, long *maxrss_kb)
{
	int fd = open(in_path ? in_path : "/dev/null", O_RDONLY), p[2], status;
	pid_t pid;
	char buf[1 << 16];
	ssize_t got;
	double t0;
	struct rusage ru;

	*lines = 0;
	if (fd < 0 || pipe(p) != 0)
		return -1;
	t0 = bench_now();
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int dn = open("/dev/null", O_WRONLY);

		dup2(fd, 0);
		dup2(p[1], 1);
		if (dn >= 0)
			dup2(dn, 2);
		close(p[0]);
		execv(argv[0], argv);
		_exit(127);
	}
	close(fd);
	close(p[1]);
	while ((got = read(p[0], buf, sizeof(buf))) > 0)
		for (ssize_t i = 0; i < got; i++)
			*lines += buf[i] == '\n';
	close(p[0]);
	if (wait4(pid, &status, 0, &ru) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) == 127)
		return -1;
	if (maxrss_kb)
		*maxrss_kb = ru.ru_maxrss;
	return bench_now() - t0;
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
	strcpy(slash, "/freshet");
	return access(freshet_bin, X_OK);
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

/* One file, process against process. */
static void
proc_line(const char *name, const char *path, size_t bytes)
{
	char *fa[] = {freshet_bin, "parse", (char *)path, "--format", "tsv", "--max-items", "0", NULL};
	char *sa[] = {SFEED, NULL};
	double bf = 1e9, bs = 1e9;
	size_t lf = 0, ls = 0;
	long rss_f = 0, rss_s = 0;
	int have_sfeed = access(SFEED, X_OK) == 0;

	for (int r = 0; r < REPS; r++) {
		double t = run_proc(fa, NULL, &lf, &rss_f);

		if (t >= 0 && t < bf)
			bf = t;
		if (have_sfeed) {
			t = run_proc(sa, path, &ls, &rss_s);
			if (t >= 0 && t < bs)
				bs = t;
		}
	}
	printf("bench_parse: %-9s %7.2f MB  freshet process %7.1f MB/s (%zu items, %ld MB peak)", name,
	       bytes / 1e6, bytes / 1e6 / bf, lf, rss_f / 1024);
	if (have_sfeed && bs < 1e9)
		printf("  sfeed process %7.1f MB/s (%zu items, %ld MB peak)  ratio %.2fx\n", bytes / 1e6 / bs, ls,
		       rss_s / 1024, bs / bf);
	else
		printf("  sfeed: not run (%s missing?)\n", SFEED);
}

/* A 15 MB Atom 1.0 feed. */
static char *
generate_atom(size_t target, size_t *len)
{
	size_t cap = target + 65536, n = 0;
	char *b = malloc(cap);
	unsigned item = 0;

	if (!b)
		return NULL;
	n += (size_t)snprintf(b + n, cap - n,
	                      "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\">\n"
	                      "<title>Generated Atom</title><id>urn:gen</id><updated>2014-07-06T12:56:00Z</updated>\n"
	                      "<link rel=\"alternate\" href=\"https://example.org/\"/>\n");
	while (n + 4096 < target) {
		item++;
		n += (size_t)snprintf(
		    b + n, cap - n,
		    "<entry><title type=\"html\">Entry %u: caf&#233; &amp;amp; cr&#232;me</title>\n"
		    "<link rel=\"alternate\" type=\"text/html\" href=\"https://example.org/e/%u?a=1&amp;b=2\"/>\n"
		    "<id>tag:example.org,2014:%u</id><updated>2014-07-%02uT%02u:%02u:00Z</updated>\n"
		    "<author><name>Writer %u</name></author><category term=\"topic-%u\"/>\n"
		    "<summary type=\"html\">&lt;p&gt;Summary of entry %u with &lt;a href=\"/x/%u\"&gt;a link&lt;/a&gt; "
		    "and more words, as real summaries have.&lt;/p&gt;</summary>\n"
		    "<content type=\"xhtml\"><div xmlns=\"http://www.w3.org/1999/xhtml\"><p>Body of entry %u. Lorem "
		    "ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore "
		    "et dolore magna aliqua.</p><p>Ut enim ad minim veniam, quis nostrud exercitation ullamco "
		    "laboris nisi ut aliquip ex ea commodo consequat. <img src=\"https://cdn.example.org/%u.jpg\" "
		    "alt=\"\"/></p></div></content></entry>\n",
		    item, item, item, 1 + item % 28, item % 24, item % 60, item % 97, item % 50, item, item, item,
		    item);
	}
	n += (size_t)snprintf(b + n, cap - n, "</feed>\n");
	*len = n;
	return b;
}

/* Hostile shapes, each about 15 MB or less: time and peak RSS of one
 * `freshet parse FILE --format json` process. */
static void
hostile(const char *tmp)
{
	size_t cap = 32u << 20, n = 0, lines;
	char *b = malloc(cap);
	long rss = 0;
	char *fa[] = {freshet_bin, "parse", (char *)tmp, "--format", "json", NULL};
	double t;

	if (!b)
		return;
	/* 200,000 attributes on one element */
	n = (size_t)snprintf(b, cap, "<rss version=\"2.0\"><channel><title>t</title><item><title>x</title><link ");
	for (unsigned i = 0; i < 200000; i++)
		n += (size_t)snprintf(b + n, cap - n, "a%u=\"v\" ", i);
	n += (size_t)snprintf(b + n, cap - n, ">http://x/</link></item></channel></rss>\n");
	if (write_file(tmp, b, n) == 0 && (t = run_proc(fa, NULL, &lines, &rss)) >= 0)
		printf("bench_parse: hostile 200,000 attributes on one element (%.1f MB): %.2f s, %ld MB peak\n",
		       n / 1e6, t, rss / 1024);
	/* 1,000,000 items */
	n = (size_t)snprintf(b, cap, "<rss version=\"2.0\"><channel><title>t</title>");
	for (unsigned i = 0; i < 1000000 && n + 64 < cap; i++)
		n += (size_t)snprintf(b + n, cap - n, "<item><guid>%u</guid></item>", i);
	n += (size_t)snprintf(b + n, cap - n, "</channel></rss>\n");
	if (write_file(tmp, b, n) == 0 && (t = run_proc(fa, NULL, &lines, &rss)) >= 0)
		printf("bench_parse: hostile 1,000,000 items (%.1f MB, cap 10,000 kept): %.2f s, %ld MB peak\n",
		       n / 1e6, t, rss / 1024);
	/* 100,000 internal entity references */
	n = (size_t)snprintf(b, cap, "<!DOCTYPE rss [<!ENTITY e \"entity text\">]><rss version=\"2.0\"><channel><title>t</title><item><title>");
	for (unsigned i = 0; i < 100000; i++)
		n += (size_t)snprintf(b + n, cap - n, "&e; ");
	n += (size_t)snprintf(b + n, cap - n, "</title></item></channel></rss>\n");
	if (write_file(tmp, b, n) == 0 && (t = run_proc(fa, NULL, &lines, &rss)) >= 0)
		printf("bench_parse: hostile 100,000 entity references (%.1f MB): %.2f s, %ld MB peak\n", n / 1e6, t,
		       rss / 1024);
	unlink(tmp);
	free(b);
}

/* One process per small file, for both. */
static void
per_file(const struct corpus *c, const char *tmpdir)
{
	char path[4096];
	char *fa[] = {freshet_bin, "parse", path, "--format", "tsv", NULL};
	char *sa[] = {SFEED, NULL};
	double tf = 0, ts = 0;
	size_t lines, n = c->n < 300 ? c->n : 300, lf = 0, ls = 0;
	int have_sfeed = access(SFEED, X_OK) == 0;

	for (size_t i = 0; i < n; i++) {
		double t;

		snprintf(path, sizeof(path), "%s/f%zu.xml", tmpdir, i);
		if (write_file(path, c->docs[i].buf, c->docs[i].len) != 0)
			return;
		t = run_proc(fa, NULL, &lines, NULL);
		if (t >= 0)
			tf += t;
		lf += lines;
		if (have_sfeed && (t = run_proc(sa, path, &lines, NULL)) >= 0)
			ts += t;
		ls += lines;
		unlink(path);
	}
	printf("bench_parse: per-file  %zu files, one process each: freshet %.2f ms/file (%zu items)", n,
	       1e3 * tf / (double)n, lf);
	if (have_sfeed)
		printf("  sfeed %.2f ms/file (%zu items)  ratio %.2fx\n", 1e3 * ts / (double)n, ls, ts / tf);
	else
		printf("\n");
}

int
main(void)
{
	struct corpus shared = {0}, big = {0};
	char tmp[] = "/tmp/bench_parse.XXXXXX";
	char tmpdir[] = "/tmp/bench_parse_d.XXXXXX";
	int fd = mkstemp(tmp);
	size_t glen = 0, alen = 0;
	char *g = generate(15u << 20, &glen), *at = generate_atom(15u << 20, &alen);
	double t_fr = 0, t_sf = 0;

	if (fd < 0 || !g || !at || !mkdtemp(tmpdir)) {
		fprintf(stderr, "bench_parse: cannot set up (temp file or memory)\n");
		return 1;
	}
	close(fd);
	if (find_freshet() != 0) {
		fprintf(stderr, "bench_parse: no freshet binary beside the bench directory (%s)\n", freshet_bin);
		return 1;
	}
	load_dir(&shared, FR_SHARED "/data/feeds");
	load_dir(&shared, FR_SHARED "/data/feedparser-tests");
	if (shared.n == 0)
		fprintf(stderr, "bench_parse: no XML under %s/data\n", FR_SHARED);
	printf("bench_parse: process against process (%s parse FILE --format tsv vs %s < FILE), best of %d\n",
	       freshet_bin, SFEED, REPS);
	if (write_file(tmp, g, glen) == 0)
		proc_line("rss-15MB", tmp, glen);
	if (write_file(tmp, at, alen) == 0)
		proc_line("atom-15MB", tmp, alen);
	if (write_concat(&shared, tmp) == 0)
		proc_line("small-cat", tmp, shared.bytes);
	unlink(tmp);
	per_file(&shared, tmpdir);
	rmdir(tmpdir);
	hostile(tmp);
	add_doc(&big, g, glen);
	printf("bench_parse: (second figure, not the same work: library call fr_feed_parse on a buffer in "
	       "memory, against sfeed's whole process)\n");
	compare("lib-rss", &big, tmp, &t_fr, &t_sf);
	for (size_t i = 0; i < shared.n; i++)
		free(shared.docs[i].buf);
	free(shared.docs);
	free(g);
	free(at);
	free(big.docs);
	return 0;
}
