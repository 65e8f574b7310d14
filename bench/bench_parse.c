/* bench_parse.c - feed parse throughput against sfeed(1) on the same bytes:
 * the XML feeds of ../shared/data/feeds (each file parsed on its own by
 * freshet; one concatenated stream for sfeed, which reads any sequence of
 * elements, so it pays no per-file process cost) and a generated 12 MB RSS
 * 2.0 feed. Best of REPS runs each; the ratio is sfeed's time over
 * freshet's (>= 1.0: freshet at least as fast). */
#include "bench.h"

#include "core/err.h"
#include "parse/feed.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define REPS 5
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

int
main(void)
{
	struct corpus shared = {0}, big = {0};
	char tmp[] = "/tmp/bench_parse.XXXXXX";
	int fd = mkstemp(tmp);
	size_t glen = 0;
	char *g = generate(12u << 20, &glen);
	double t_fr = 0, t_sf = 0;

	if (fd < 0 || !g) {
		fprintf(stderr, "bench_parse: cannot set up (temp file or memory)\n");
		return 1;
	}
	close(fd);
	load_dir(&shared, FR_SHARED "/data/feeds");
	if (shared.n == 0)
		fprintf(stderr, "bench_parse: no XML under %s/data/feeds\n", FR_SHARED);
	add_doc(&big, g, glen);
	compare("shared", &shared, tmp, &t_fr, &t_sf);
	compare("large", &big, tmp, &t_fr, &t_sf);
	if (t_fr > 0 && t_sf > 0)
		printf("bench_parse: all     ratio %.2fx (sfeed time / freshet time on the same bytes; "
		       "target >= 1.0)\n",
		       t_sf / t_fr);
	for (size_t i = 0; i < shared.n; i++)
		free(shared.docs[i].buf);
	free(shared.docs);
	free(g);
	free(big.docs);
	return 0;
}
