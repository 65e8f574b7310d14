/* bench_lang_commit.c - what detecting each item's language at commit
 * costs (docs/store.md, "Languages"): the real feeds of ../shared's
 * feed-rs fixtures (RSS, Atom, JSON Feed; news, podcasts, Reddit, YouTube)
 * parsed once, then committed into a new SQLite store, one fetch per
 * feed in groups as the crawler commits them, each feed twice: a first
 * fetch (every item new: every item detected) and a second (nothing
 * changed: nothing detected). The same commits with the crawler's
 * detection (lib/crawl/commit.c: title + content, else summary, as HTML)
 * and without (f.detect NULL), in alternating rounds so that a busy
 * machine slows both alike; CPU time (CLOCK_PROCESS_CPUTIME_ID) of the
 * commit calls only, medians and the ratio. Twice: with the C library's
 * default heap, then with the heap the CLI keeps (src/main.c: glibc's
 * trim threshold raised, without which each CLD2 call grows and shrinks
 * the heap, brk and page faults costing 30 times the detection itself).
 * Usage: bench_lang_commit [ROUNDS] (default 15), run from the build tree. */
#include "bench.h"
#include "crawl.h"

#include "lang/lang.h"
#include "parse/feed.h"
#include "store/store.h"

#include <dirent.h>
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_FEEDS 256

struct parsed {
	struct fr_feed *feed;
	struct fr_store_item *items;
	char lang[16];
};

static struct parsed feeds[MAX_FEEDS];
static size_t n_feeds, n_items;

static char *
slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *b;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	b = malloc((size_t)n + 1);
	if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
		free(b);
		b = NULL;
	}
	fclose(f);
	if (b) {
		b[n] = '\0';
		*len = (size_t)n;
	}
	return b;
}

static void
load_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d)) && n_feeds < MAX_FEEDS) {
		char path[2048], err[256];
		size_t len, nl = strlen(e->d_name);
		char *buf;
		struct fr_feed *f = NULL;

		if (e->d_name[0] == '.' || (nl > 5 && !strcmp(e->d_name + nl - 5, ".json") &&
		                            strstr(e->d_name, "serde")))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (!(buf = slurp(path, &len)))
			continue;
		if (fr_feed_parse(buf, len, NULL, &f, err, sizeof(err)) == 0 && f->n_items) {
			struct parsed *p = &feeds[n_feeds++];

			p->feed = f;
			p->items = calloc(f->n_items, sizeof(*p->items));
			for (size_t j = 0; j < f->n_items; j++) {
				const struct fr_feed_item *it = &f->items[j];

				p->items[j] = (struct fr_store_item){it->id, it->link, it->title, it->author,
				                                     it->summary, it->content, NULL, NULL,
				                                     -1, it->published_s, it->updated_s,
				                                     NULL, NULL};
			}
			fr_lang_primary(f->language, p->lang, sizeof(p->lang));
			n_items += f->n_items;
		} else
			fr_feed_free(f);
		free(buf);
	}
	closedir(d);
}

static size_t n_detected;

static int
count_detected(void *arg, const struct fr_store_item_row *r)
{
	(void)arg;
	n_detected += r->it.lang_detected != NULL;
	return 0;
}

/* One round: a new store, every feed committed twice. CPU seconds of the
 * commits. */
static double
round_cpu(const char *dir, int with, int count)
{
	char path[512], err[512];
	struct fr_store *st;
	int64_t *ids = calloc(n_feeds, sizeof(*ids));
	double cpu = 0, t;

	snprintf(path, sizeof(path), "%s/b.db", dir);
	unlink(path);
	snprintf(err, sizeof(err), "%s/b.db-wal", dir);
	unlink(err);
	if (fr_store_open(&st, path, err, sizeof(err)) < 0) {
		fprintf(stderr, "bench_lang_commit: %s\n", err);
		exit(1);
	}
	for (size_t i = 0; i < n_feeds; i++) {
		char url[64];

		snprintf(url, sizeof(url), "http://f%zu.bench.test/feed", i);
		int ex;

		fr_store_add_source(st, url, NULL, NULL, NULL, NULL, &ids[i], &ex, err, sizeof(err));
	}
	for (int pass = 0; pass < 2; pass++) {
		t = bench_cpu();
		fr_store_group_begin(st, err, sizeof(err));
		for (size_t i = 0; i < n_feeds; i++) {
			struct fr_store_fetch f = {ids[i], 1000 + pass, 0, 200, "ok", 0, NULL,
			                           feeds[i].items, feeds[i].feed->n_items,
			                           feeds[i].lang[0] ? feeds[i].lang : NULL,
			                           with ? fr_crawl_detect_lang : NULL, NULL};

			if (fr_store_commit_fetch(st, &f, NULL, NULL, NULL, NULL, NULL, err,
			                          sizeof(err)) < 0) {
				fprintf(stderr, "bench_lang_commit: %s\n", err);
				exit(1);
			}
		}
		fr_store_group_end(st, 1, err, sizeof(err));
		cpu += bench_cpu() - t;
	}
	if (count) {
		n_detected = 0;
		fr_store_items(st, NULL, count_detected, NULL, err, sizeof(err));
	}
	fr_store_close(st);
	free(ids);
	return cpu;
}

static int
cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int
main(int argc, char **argv)
{
	static const char *const sub[] = {"atom", "rss0", "rss1", "rss2", "jsonfeed", "xml"};
	int rounds = argc > 1 ? (int)strtol(argv[1], NULL, 10) : 15;
	char dir[] = "/tmp/bench_lang_commit.XXXXXX";
	double *a, *b;

	if (rounds < 1)
		rounds = 1;
	for (size_t i = 0; i < sizeof(sub) / sizeof(sub[0]); i++) {
		char d[1024];

		snprintf(d, sizeof(d), "%s/data/feeds/feed-rs/fixture/%s", FR_SHARED, sub[i]);
		load_dir(d);
	}
	if (!n_feeds || !mkdtemp(dir)) {
		fprintf(stderr, "bench_lang_commit: no feeds under %s\n", FR_SHARED);
		return 1;
	}
	a = calloc((size_t)rounds, sizeof(*a));
	b = calloc((size_t)rounds, sizeof(*b));
	round_cpu(dir, 1, 1); /* warm-up; counts what is detected */
	printf("feeds %zu, items %zu (each committed new, then unchanged), detected %zu\n",
	       n_feeds, n_items, n_detected);
	for (int heap = 0; heap < 2; heap++) {
		if (heap) {
			/* NOTE: as src/main.c sets them */
			mallopt(M_MMAP_THRESHOLD, 4 << 20);
			mallopt(M_TRIM_THRESHOLD, 8 << 20);
		}
		for (int r = 0; r < rounds; r++) {
			if (r % 2) {
				b[r] = round_cpu(dir, 1, 0);
				a[r] = round_cpu(dir, 0, 0);
			} else {
				a[r] = round_cpu(dir, 0, 0);
				b[r] = round_cpu(dir, 1, 0);
			}
		}
		qsort(a, (size_t)rounds, sizeof(*a), cmp_d);
		qsort(b, (size_t)rounds, sizeof(*b), cmp_d);
		printf("%s: commit CPU, median of %d alternating rounds:\n",
		       heap ? "the CLI's heap (src/main.c)" : "default heap", rounds);
		printf("  without detection  %8.2f ms  (%.1f us per new item)\n", a[rounds / 2] * 1e3,
		       a[rounds / 2] * 1e6 / (double)n_items);
		printf("  with detection     %8.2f ms  (%.1f us per new item)\n", b[rounds / 2] * 1e3,
		       b[rounds / 2] * 1e6 / (double)n_items);
		printf("  ratio with/without %.2f (best rounds %.2f)\n", b[rounds / 2] / a[rounds / 2],
		       b[0] / a[0]);
	}
	{
		char p[600];

		snprintf(p, sizeof(p), "%s/b.db", dir);
		unlink(p);
		snprintf(p, sizeof(p), "%s/b.db-wal", dir);
		unlink(p);
		snprintf(p, sizeof(p), "%s/b.db-shm", dir);
		unlink(p);
		rmdir(dir);
	}
	free(a);
	free(b);
	return 0;
}
