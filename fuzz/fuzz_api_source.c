/* fuzz_api_source.c - libFuzzer harness for an API source's stored settings
 * (lib/api/source.c, fr_api_source_parse: the kind_state a store holds,
 * which a damaged or hostile store may hold anything in). Promises: a
 * refusal says "api source: " and leaves the struct cleared; what parses has
 * a spec that parses (api/spec.h), a page limit in 1..FR_API_PAGES_MAX and
 * figures that are finite and >= -1, and formats (never NULL) to a text
 * that parses back and formats again to the same bytes; the figures restored
 * into a limit state give a finite next call, never before now; the state's
 * key fits its buffer. Without FR_LIBFUZZER, replay.c's main replays the
 * seeds. */
#include "api/limit.h"
#include "api/source.h"
#include "api/spec.h"
#include "core/err.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define REQUIRE(c)                                                                                 \
	do {                                                                                       \
		if (!(c)) {                                                                        \
			fprintf(stderr, "fuzz_api_source: broken promise: %s (%s:%d)\n", #c,       \
			        __FILE__, __LINE__);                                               \
			abort();                                                                   \
		}                                                                                  \
	} while (0)

#define NOW 1700000000.0

static void
check_figure(double v)
{
	REQUIRE(isfinite(v) && v >= -1);
}

static void
check_parsed(const struct fr_api_source *s)
{
	struct fr_api_spec *sp = NULL;
	double f[] = {s->limit,     s->remaining,    s->reset_at_s, s->window_s,
	              s->usage_pct, s->hold_until_s, s->learned_s};

	REQUIRE(s->spec != NULL);
	REQUIRE(fr_api_spec_parse(s->spec, strlen(s->spec), &sp, NULL, 0) == 0);
	fr_api_spec_free(sp);
	REQUIRE(s->max_pages >= 1 && s->max_pages <= FR_API_PAGES_MAX);
	REQUIRE(!s->token_env || *s->token_env);
	REQUIRE(!s->token_file || *s->token_file);
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		check_figure(f[i]);
}

static void
check_cleared(const struct fr_api_source *s)
{
	REQUIRE(!s->spec && !s->token_env && !s->token_file);
	REQUIRE(s->max_pages == FR_API_PAGES_DEFAULT && s->learned_s == -1);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fr_api_source a, b;
	char err[FR_ERRLEN] = "", key[1200];
	char *f1, *f2;
	size_t n1 = 0, n2 = 0;
	struct fr_api_limit l;
	double t;

	if (fr_api_source_parse((const char *)data, size, &a, err, sizeof(err)) != 0) {
		REQUIRE(!strncmp(err, "api source: ", 12));
		check_cleared(&a);
		return 0;
	}
	check_parsed(&a);
	/* what the store would write back after a fetch */
	f1 = fr_api_source_format(&a, &n1);
	REQUIRE(f1 != NULL);
	if (fr_api_source_parse(f1, n1, &b, err, sizeof(err)) != 0) {
		fprintf(stderr, "fuzz_api_source: the written form does not read back: %s\n---\n%.*s\n---\n",
		        err, (int)n1, f1);
		abort();
	}
	check_parsed(&b);
	f2 = fr_api_source_format(&b, &n2);
	REQUIRE(f2 != NULL && n1 == n2 && !memcmp(f1, f2, n1));
	REQUIRE(b.max_pages == a.max_pages);
	REQUIRE(!strcmp(a.spec, b.spec));
	/* the figures as the crawler restores them */
	fr_api_limit_init(&l);
	fr_api_source_restore(&b, &l);
	t = fr_api_limit_next(&l, NOW);
	REQUIRE(isfinite(t) && t >= NOW);
	fr_api_limit_spend(&l, t);
	REQUIRE(isfinite(fr_api_limit_next(&l, t)));
	fr_api_source_key(&b, "api.example.org", key, sizeof(key));
	REQUIRE(strlen(key) < sizeof(key));
	free(f1);
	free(f2);
	fr_api_source_clear(&a);
	fr_api_source_clear(&b);
	return 0;
}
