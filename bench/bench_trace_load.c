/* bench_trace_load.c - time fr_trace_load on a trace against the floor of
 * just decompressing it and counting its lines with zlib in this process
 * (what `zcat | wc -l` does), and time source-name lookups.
 *
 * usage: bench_trace_load [TRACE [SOURCES]]   (default: the shared reddit trace) */
#include "bench.h"

#include "core/err.h"
#include "core/strmap.h"
#include "sim/trace.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

#define REPEAT 5

/* The baseline: gunzip (or read) in 1 MiB chunks and count newlines. */
static long
raw_count_lines(const char *path)
{
	static char buf[1 << 20];
	gzFile gz = gzopen(path, "rb");
	long lines = 0;
	int got;

	if (!gz)
		return -1;
	gzbuffer(gz, 256 * 1024);
	for (;;) {
		const char *p = buf, *end;

		got = gzread(gz, buf, sizeof(buf));
		if (got <= 0)
			break;
		end = buf + got;

		for (;;) {
			const char *nl = memchr(p, '\n', (size_t)(end - p));

			if (!nl)
				break;
			lines++;
			p = nl + 1;
		}
	}
	gzclose(gz);
	return got < 0 ? -1 : lines;
}

/* 1.1 M lookups of 4106 distinct names, as a 1.1 M-row trace does. */
static void
bench_strmap(void)
{
	enum { NAMES = 4106, LOOKUPS = 1100000 };
	static char names[NAMES][16];
	struct fr_strmap *m = fr_strmap_new();
	uint32_t *order = malloc(LOOKUPS * sizeof(*order));
	uint64_t x = 0x9E3779B97F4A7C15u, sum = 0;
	double t0;

	if (!m || !order) {
		fprintf(stderr, "bench_trace_load: out of memory\n");
		exit(1);
	}
	for (int i = 0; i < NAMES; i++) {
		uint32_t id;

		snprintf(names[i], sizeof(names[i]), "source%04d", i);
		fr_strmap_intern(m, names[i], strlen(names[i]), &id, NULL);
	}
	for (int i = 0; i < LOOKUPS; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		order[i] = (uint32_t)(x % NAMES);
	}
	t0 = bench_now();
	for (int i = 0; i < LOOKUPS; i++) {
		const char *s = names[order[i]];
		uint32_t id = 0;

		fr_strmap_find(m, s, strlen(s), &id);
		sum += id;
	}
	t0 = bench_now() - t0;
	printf("strmap: %d lookups of %d names in %.1f ms (%.0f ns each; checksum %llu)\n", LOOKUPS,
	       NAMES, t0 * 1e3, t0 * 1e9 / LOOKUPS, (unsigned long long)sum);
	fr_strmap_free(m);
	free(order);
}

int
main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : FR_SHARED "/data/traces/reddit-2012h1.csv.gz";
	const char *sources = argc > 2 ? argv[2] : NULL;
	double best_load = 1e300, best_raw = 1e300;
	size_t rows = 0;
	uint32_t n_sources = 0;
	long lines = 0;
	char err[FR_ERRLEN];

	if (argc > 3 || (argc > 1 && argv[1][0] == '-')) {
		fprintf(stderr, "usage: bench_trace_load [TRACE [SOURCES]]\n");
		return 2;
	}
	for (int r = 0; r < REPEAT; r++) {
		struct fr_trace tr;
		double t0 = bench_now();

		lines = raw_count_lines(path);
		if (lines < 0) {
			fprintf(stderr, "bench_trace_load: cannot read %s\n", path);
			return 1;
		}
		t0 = bench_now() - t0;
		best_raw = t0 < best_raw ? t0 : best_raw;

		t0 = bench_now();
		if (fr_trace_load(&tr, path, sources, err, sizeof(err)) != 0) {
			fprintf(stderr, "bench_trace_load: %s\n", err);
			return 1;
		}
		t0 = bench_now() - t0;
		best_load = t0 < best_load ? t0 : best_load;
		rows = tr.n_items;
		n_sources = tr.n_sources;
		fr_trace_free(&tr);
	}
	printf("trace: %s (%ld lines, %u sources)\n", path, lines, n_sources);
	printf("trace_load: %zu rows in %.3f s, %.2f M rows/s (ratio %.1fx of raw gunzip+count "
	       "%.3f s; best of %d)\n",
	       rows, best_load, (double)rows / best_load / 1e6, best_load / best_raw, best_raw,
	       REPEAT);
	bench_strmap();
	return 0;
}
