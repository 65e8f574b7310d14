/* fuzz_trace.c - libFuzzer harness for the trace loader (lib/sim/trace.h):
 * the input is loaded as a trace, as a trace with a sources file and as a
 * sources file, and every loaded trace is checked against the header's
 * promises. Without FR_LIBFUZZER, replay.c's main replays the seed corpus. */
#include "core/err.h"
#include "sim/trace.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* An input holding this line is split there: the part before is a sources
 * file, the part after a trace. */
static const char SPLIT[] = "\n=====\n";

/* A fixed trace and sources file for the halves the input does not give. */
static const char FIXED_TRACE[] = "source,time\na,1\nb,2012-01-01T00:00:00Z\na,0\n";
static const char FIXED_SOURCES[] = "source,host,group,weight\na,h,g,1\nb,h,default,2\nc,x,g,0\n";

/* Scratch files, made once per process and removed at exit. The loader only
 * reads paths, so each input is written to one of them. */
static char dir_path[4096], trace_path[4200], sources_path[4200];
static char fixed_trace_path[4200], fixed_sources_path[4200];

static void
cleanup(void)
{
	if (!dir_path[0])
		return;
	unlink(trace_path);
	unlink(sources_path);
	unlink(fixed_trace_path);
	unlink(fixed_sources_path);
	rmdir(dir_path);
}

static void
die(const char *what)
{
	fprintf(stderr, "fuzz_trace: %s: %s\n", what, strerror(errno));
	abort();
}

static void
put_file(const char *path, const void *data, size_t size)
{
	FILE *f = fopen(path, "wb");

	if (!f)
		die(path);
	if ((size && fwrite(data, 1, size, f) != size) || fclose(f) != 0)
		die(path);
}

static void
setup(void)
{
	const char *tmp = getenv("TMPDIR");

	if (dir_path[0])
		return;
	snprintf(dir_path, sizeof(dir_path), "%s/fuzz_trace.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir_path))
		die(dir_path);
	snprintf(trace_path, sizeof(trace_path), "%s/trace.csv", dir_path);
	snprintf(sources_path, sizeof(sources_path), "%s/sources.csv", dir_path);
	snprintf(fixed_trace_path, sizeof(fixed_trace_path), "%s/fixed_trace.csv", dir_path);
	snprintf(fixed_sources_path, sizeof(fixed_sources_path), "%s/fixed_sources.csv", dir_path);
	put_file(fixed_trace_path, FIXED_TRACE, sizeof(FIXED_TRACE) - 1);
	put_file(fixed_sources_path, FIXED_SOURCES, sizeof(FIXED_SOURCES) - 1);
	atexit(cleanup);
}

#define REQUIRE(c)                                                                                 \
	do {                                                                                       \
		if (!(c)) {                                                                        \
			fprintf(stderr, "fuzz_trace: broken promise: %s (%s:%d)\n", #c, __FILE__, \
			        __LINE__);                                                         \
			abort();                                                                   \
		}                                                                                  \
	} while (0)

/* What trace.h promises of a loaded trace. */
static void
check_trace(const struct fr_trace *tr)
{
	int any = 0;

	REQUIRE(tr->sources && tr->hosts && tr->groups);
	REQUIRE(tr->first && tr->item_time_s);
	REQUIRE(tr->first[0] == 0 && tr->first[tr->n_sources] == tr->n_items);
	for (uint32_t s = 0; s < tr->n_sources; s++) {
		const char *name = fr_trace_source_name(tr, s);

		REQUIRE(name && name[0]);
		REQUIRE(tr->host && tr->group && tr->weight);
		REQUIRE(isfinite(tr->weight[s]) && tr->weight[s] >= 0);
		REQUIRE(tr->first[s] <= tr->first[s + 1]);
		for (size_t i = tr->first[s]; i < tr->first[s + 1]; i++) {
			double t = tr->item_time_s[i];

			REQUIRE(isfinite(t));
			REQUIRE(i == tr->first[s] || tr->item_time_s[i - 1] <= t);
			REQUIRE(t >= tr->start_s && t <= tr->end_s);
			if (tr->item_weight)
				REQUIRE(isfinite(tr->item_weight[i]) && tr->item_weight[i] >= 0);
			any = 1;
		}
	}
	if (!any)
		REQUIRE(tr->start_s == 0 && tr->end_s == 0);
}

/* Loads and, on success, checks and frees. On failure the trace must be left
 * zeroed and the message name the file. */
static void
load(const char *path, const char *spath)
{
	struct fr_trace tr, zero;
	char err[FR_ERRLEN];

	memset(&tr, 0xA5, sizeof(tr)); /* the loader must not rely on a zeroed struct */
	memset(&zero, 0, sizeof(zero));
	err[0] = '\0';
	if (fr_trace_load(&tr, path, spath, err, sizeof(err)) == 0) {
		check_trace(&tr);
		fr_trace_free(&tr);
		REQUIRE(memcmp(&tr, &zero, sizeof(tr)) == 0);
		fr_trace_free(&tr); /* a zeroed trace may be freed again */
		return;
	}
	REQUIRE(err[0] != '\0');
	REQUIRE(strstr(err, path) == err || (spath && strstr(err, spath) == err));
	REQUIRE(memcmp(&tr, &zero, sizeof(tr)) == 0);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *cut = NULL;

	setup();
	/* 1. The input as a trace. */
	put_file(trace_path, data, size);
	load(trace_path, NULL);
	/* 2. With a sources file: split at SPLIT, else the fixed sources file. */
	for (size_t i = 0; i + sizeof(SPLIT) - 1 <= size; i++) {
		if (memcmp(data + i, SPLIT, sizeof(SPLIT) - 1) == 0) {
			cut = data + i;
			break;
		}
	}
	if (cut) {
		size_t head = (size_t)(cut - data) + 1; /* keep the newline ending the sources */
		size_t skip = (size_t)(cut - data) + sizeof(SPLIT) - 1;

		put_file(sources_path, data, head);
		put_file(trace_path, data + skip, size - skip);
		load(trace_path, sources_path);
	} else {
		load(trace_path, fixed_sources_path);
		/* 3. The input as a sources file for a fixed trace. */
		put_file(sources_path, data, size);
		load(fixed_trace_path, sources_path);
	}
	return 0;
}
