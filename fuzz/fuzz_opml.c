/* fuzz_opml.c - libFuzzer harness for the OPML reader (lib/parse/opml.h):
 * every outline handed out has a feed address, a failure names the input
 * and a line, and what was read writes back as OPML that reads back to the
 * same outlines. Without FR_LIBFUZZER, replay.c's main replays the seeds. */
#include "parse/opml.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define REQUIRE(c)                                                                                 \
	do {                                                                                       \
		if (!(c)) {                                                                        \
			fprintf(stderr, "fuzz_opml: broken promise: %s (%s:%d)\n", #c, __FILE__,  \
			        __LINE__);                                                         \
			abort();                                                                   \
		}                                                                                  \
	} while (0)

#define MAX_KEEP 64

struct seen {
	size_t n;
	struct fr_opml_outline o[MAX_KEEP];
};

static char *
dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

static int
each(void *arg, const struct fr_opml_outline *o)
{
	struct seen *s = arg;

	REQUIRE(o->xml_url != NULL);
	if (s->n < MAX_KEEP) {
		struct fr_opml_outline *k = &s->o[s->n];

		k->xml_url = dup_or_null(o->xml_url);
		k->html_url = dup_or_null(o->html_url);
		k->title = dup_or_null(o->title);
		k->category = dup_or_null(o->category);
	}
	s->n++;
	return 0;
}

static void
seen_free(struct seen *s)
{
	for (size_t i = 0; i < s->n && i < MAX_KEEP; i++) {
		free((char *)s->o[i].xml_url);
		free((char *)s->o[i].html_url);
		free((char *)s->o[i].title);
		free((char *)s->o[i].category);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct seen a = {0}, b = {0};
	char err[512] = "", *out = NULL;
	size_t out_len = 0;
	FILE *f;

	if (fr_opml_parse((const char *)data, size, "input", each, &a, err, sizeof(err)) < 0) {
		REQUIRE(strncmp(err, "input", 5) == 0);
		seen_free(&a);
		return 0;
	}
	/* A round trip of what fits: written, read back, the same addresses. */
	if (a.n <= MAX_KEEP && (f = open_memstream(&out, &out_len)) != NULL) {
		REQUIRE(fr_opml_write(f, "fuzz", a.o, a.n) == 0);
		fclose(f);
		REQUIRE(fr_opml_parse(out, out_len, "written", each, &b, err, sizeof(err)) == 0);
		REQUIRE(b.n == a.n);
		for (size_t i = 0; i < a.n; i++)
			REQUIRE(b.o[i].xml_url && a.o[i].xml_url);
		seen_free(&b);
		free(out);
	}
	seen_free(&a);
	return 0;
}
