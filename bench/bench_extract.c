/* bench_extract.c - main-content extraction throughput on one core: MB/s of
 * HTML through fr_extract (parse, metadata, scoring, cleaning, sanitised
 * HTML and plain text out) over the pages of
 * ../shared/data/articles/readability (or the folders given: every
 * source.html below them), beside the named baseline, libxml2's HTML parse
 * alone (htmlReadMemory with the extractor's options, then xmlFreeDoc) on
 * the same bytes in the same run. Processor time of this process, best of
 * ROUNDS passes for each. The ratio is extraction's speed over the parse's:
 * the share of the parser's speed that extraction keeps. Target (issue 29):
 * at least 50 MB/s.
 * Usage: bench_extract [--rounds N] [DIR...], from the build tree. */
#include "bench.h"

#include "extract/extract.h"

#include <dirent.h>
#include <libxml/HTMLparser.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct page {
	char *path, *buf;
	size_t len;
};

static struct page *pages;
static size_t n_pages, cap_pages, total_bytes;

static int
load(const char *path)
{
	FILE *f = fopen(path, "rb");
	struct stat st;
	char *buf;

	if (!f || fstat(fileno(f), &st) != 0) {
		fprintf(stderr, "bench_extract: %s: cannot open\n", path);
		if (f)
			fclose(f);
		return -1;
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf || fread(buf, 1, (size_t)st.st_size, f) != (size_t)st.st_size) {
		fprintf(stderr, "bench_extract: %s: cannot read\n", path);
		free(buf);
		fclose(f);
		return -1;
	}
	fclose(f);
	if (n_pages == cap_pages) {
		cap_pages = cap_pages ? cap_pages * 2 : 64;
		pages = realloc(pages, cap_pages * sizeof(*pages));
		if (!pages)
			return -1;
	}
	pages[n_pages].path = strdup(path);
	pages[n_pages].buf = buf;
	pages[n_pages].len = (size_t)st.st_size;
	total_bytes += (size_t)st.st_size;
	n_pages++;
	return 0;
}

static int
cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every source.html under dir, in name order. */
static int
scan(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0;
	int rc = 0;

	if (!d) {
		fprintf(stderr, "bench_extract: %s: cannot open the folder\n", dir);
		return -1;
	}
	while ((e = readdir(d)))
		if (e->d_name[0] != '.') {
			names = realloc(names, (n + 1) * sizeof(*names));
			names[n++] = strdup(e->d_name);
		}
	closedir(d);
	qsort(names, n, sizeof(*names), cmp_name);
	for (size_t i = 0; i < n; i++) {
		char p[4096];
		struct stat st;

		snprintf(p, sizeof(p), "%s/%s", dir, names[i]);
		if (stat(p, &st) == 0 && S_ISDIR(st.st_mode))
			rc |= scan(p);
		else if (!strcmp(names[i], "source.html"))
			rc |= load(p);
		free(names[i]);
	}
	free(names);
	return rc;
}

static volatile size_t sink;

static double
pass_parse(void)
{
	double t0 = bench_cpu();

	for (size_t i = 0; i < n_pages; i++) {
		htmlDocPtr doc = htmlReadMemory(pages[i].buf, (int)pages[i].len, NULL, NULL,
		                                HTML_PARSE_RECOVER | HTML_PARSE_NOERROR |
		                                    HTML_PARSE_NOWARNING | HTML_PARSE_NONET |
		                                    HTML_PARSE_COMPACT);
		sink += doc != NULL;
		xmlFreeDoc(doc);
	}
	return bench_cpu() - t0;
}

static double
pass_extract(size_t *chars)
{
	double t0 = bench_cpu();

	*chars = 0;
	for (size_t i = 0; i < n_pages; i++) {
		struct fr_article *a = NULL;
		char err[256];

		if (fr_extract(pages[i].buf, pages[i].len, NULL, &a, err, sizeof(err)) != 0) {
			fprintf(stderr, "bench_extract: %s: %s\n", pages[i].path, err);
			continue;
		}
		*chars += a->length;
		fr_article_free(a);
	}
	return bench_cpu() - t0;
}

int
main(int argc, char **argv)
{
	int rounds = 5, n_dirs = 0;
	double best_parse = 1e30, best_extract = 1e30, mb;
	size_t chars = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--rounds") && i + 1 < argc) {
			rounds = atoi(argv[++i]);
			if (rounds < 1)
				rounds = 1;
		} else {
			if (scan(argv[i]))
				return 1;
			n_dirs++;
		}
	}
	if (!n_dirs && scan(FR_SHARED "/data/articles/readability"))
		return 1;
	if (!n_pages) {
		fprintf(stderr, "bench_extract: no source.html found\n");
		return 1;
	}
	mb = (double)total_bytes / 1e6;
	printf("bench_extract: %zu pages, %.2f MB of HTML, best of %d passes, processor time, one core\n",
	       n_pages, mb, rounds);
	/* a warm-up pass of each */
	pass_parse();
	pass_extract(&chars);
	for (int r = 0; r < rounds; r++) {
		double p = pass_parse(), e = pass_extract(&chars);

		if (p < best_parse)
			best_parse = p;
		if (e < best_extract)
			best_extract = e;
	}
	printf("%-36s %8.3f s %8.1f MB/s\n", "baseline: libxml2 HTML parse alone", best_parse,
	       mb / best_parse);
	printf("%-36s %8.3f s %8.1f MB/s\n", "fr_extract (parse + extraction)", best_extract,
	       mb / best_extract);
	printf("ratio extract/parse speed: %.2f (extraction keeps %.0f%% of the parser's speed)\n",
	       best_parse / best_extract, 100.0 * best_parse / best_extract);
	printf("text out: %zu characters; target 50 MB/s: %s\n", chars,
	       mb / best_extract >= 50.0 ? "met" : "NOT met");
	for (size_t i = 0; i < n_pages; i++) {
		free(pages[i].path);
		free(pages[i].buf);
	}
	free(pages);
	return 0;
}
