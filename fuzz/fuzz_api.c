/* fuzz_api.c - libFuzzer harness for the JSON API parts (lib/api/): the input
 * is read as a spec text, as a response body through every preset, and,
 * when it holds a line "=====", as a spec (before) and a body (after); as a
 * header block and a slow-down body for the rate-limit state; and its first
 * line is a token to scrub from it. Promises: a spec that parses formats to
 * a text that parses back to the same text; a refusal says "api spec: ";
 * mapped items have ids, UTF-8 strings, http(s) links and dates in years
 * 1-9999; a refused body says "api response: " and leaves no feed; limit
 * figures are -1 or finite, times within the cap, the next call never
 * before now and never now when none are left; a scrubbed string holds no
 * token. Without FR_LIBFUZZER, replay.c's main replays the seeds. */
#include "api/limit.h"
#include "api/map.h"
#include "api/scrub.h"
#include "api/spec.h"
#include "core/err.h"
#include "core/utf8.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define REQUIRE(c)                                                                                 \
	do {                                                                                       \
		if (!(c)) {                                                                        \
			fprintf(stderr, "fuzz_api: broken promise: %s (%s:%d)\n", #c, __FILE__,   \
			        __LINE__);                                                         \
			abort();                                                                   \
		}                                                                                  \
	} while (0)

#define NOW 1700000000.0

static int
utf8_ok(const char *s)
{
	char *fixed = NULL;
	int rc = fr_utf8_fix(s, &fixed);

	free(fixed);
	return rc == 0 && fixed == NULL;
}

static int
is_http(const char *s)
{
	return !strncasecmp(s, "http://", 7) || !strncasecmp(s, "https://", 8);
}

static void
check_spec(const char *text, size_t len)
{
	struct fr_api_spec *s = (struct fr_api_spec *)1, *s2 = NULL;
	char err[FR_ERRLEN] = "";
	char *f1, *f2;

	if (fr_api_spec_parse(text, len, &s, err, sizeof(err)) != 0) {
		REQUIRE(s == NULL);
		REQUIRE(!strncmp(err, "api spec: ", 10));
		return;
	}
	REQUIRE(s != NULL);
	f1 = fr_api_spec_format(s);
	REQUIRE(f1 != NULL);
	if (fr_api_spec_parse(f1, strlen(f1), &s2, err, sizeof(err)) != 0) {
		fprintf(stderr, "fuzz_api: the canonical form does not parse back: %s\n---\n%s---\n", err, f1);
		abort();
	}
	f2 = fr_api_spec_format(s2);
	REQUIRE(f2 && !strcmp(f1, f2));
	free(f1);
	free(f2);
	fr_api_spec_free(s2);
	fr_api_spec_free(s);
}

static void
check_page(const struct fr_api_page *pg)
{
	const struct fr_feed *f = pg->feed;

	REQUIRE(f != NULL);
	REQUIRE(f->n_items <= pg->n_entries);
	REQUIRE(pg->n_skipped <= pg->n_entries);
	REQUIRE(!pg->next_url || (is_http(pg->next_url) && utf8_ok(pg->next_url)));
	REQUIRE(!pg->cursor || utf8_ok(pg->cursor));
	for (size_t i = 0; i < f->n_items; i++) {
		const struct fr_feed_item *it = &f->items[i];
		const char *strs[] = {it->link, it->title, it->author, it->summary, it->content, it->refused_link};

		REQUIRE(it->id && *it->id && utf8_ok(it->id));
		for (size_t k = 0; k < sizeof(strs) / sizeof(strs[0]); k++)
			REQUIRE(!strs[k] || utf8_ok(strs[k]));
		REQUIRE(!it->link || is_http(it->link));
		REQUIRE(it->published_s == FR_DATE_NONE ||
		        (it->published_s >= -62135596800LL && it->published_s <= 253402300799LL));
		REQUIRE(it->updated_s == FR_DATE_NONE ||
		        (it->updated_s >= -62135596800LL && it->updated_s <= 253402300799LL));
	}
}

static void
map_with(const struct fr_api_spec *s, const char *body, size_t len, const char *link)
{
	struct fr_api_map_opts o = {.url = "https://api.example.org/v1/items?limit=10", .link_header = link};
	struct fr_api_page pg;
	char err[FR_ERRLEN] = "";

	if (fr_api_map(s, body, len, &o, &pg, err, sizeof(err)) != 0) {
		REQUIRE(pg.feed == NULL && pg.next_url == NULL && pg.cursor == NULL);
		REQUIRE(!strncmp(err, "api response: ", 14));
		return;
	}
	check_page(&pg);
	fr_api_page_free(&pg);
	/* small caps */
	o.max_items = 2;
	o.max_depth = 4;
	if (fr_api_map(s, body, len, &o, &pg, err, sizeof(err)) == 0) {
		check_page(&pg);
		REQUIRE(pg.feed->n_items <= 2);
		fr_api_page_free(&pg);
	}
}

static void
check_figure(double v)
{
	REQUIRE(v == -1 || (isfinite(v) && v >= 0));
}

static void
check_limit(const struct fr_api_limit *l)
{
	double t;

	check_figure(l->limit);
	check_figure(l->remaining);
	check_figure(l->window_s);
	check_figure(l->usage_pct);
	REQUIRE(l->reset_at_s == -1 || (isfinite(l->reset_at_s) && l->reset_at_s <= NOW + l->cap_s + 1));
	REQUIRE(l->hold_until_s == -1 || (isfinite(l->hold_until_s) && l->hold_until_s <= NOW + l->cap_s + 1));
	t = fr_api_limit_next(l, NOW);
	REQUIRE(isfinite(t) && t >= NOW);
	REQUIRE(fr_api_limit_may_call(l, NOW, NULL) == (t <= NOW));
	/* none left, and no reset that has passed: no call now */
	if (((l->remaining >= 0 && l->remaining < 1) || l->usage_pct >= 100) &&
	    !(l->reset_at_s >= 0 && l->reset_at_s <= NOW))
		REQUIRE(t > NOW);
}

static void
check_limits(const char *text, size_t len)
{
	struct fr_api_limit l;
	enum fr_api_slow why;

	fr_api_limit_init(&l);
	fr_api_limit_headers(&l, text, len, NOW);
	check_limit(&l);
	why = fr_api_limit_response(&l, 400, text, len, NOW, NULL);
	check_limit(&l);
	if (why == FR_API_SLOW_GRAPH)
		REQUIRE(!fr_api_limit_may_call(&l, NOW, NULL));
	fr_api_limit_init(&l);
	fr_api_limit_headers(&l, text, len, NOW);
	REQUIRE(fr_api_limit_response(&l, 429, text, len, NOW, NULL) != FR_API_SLOW_NONE);
	check_limit(&l);
	REQUIRE(!fr_api_limit_may_call(&l, NOW, NULL));
	for (int i = 0; i < 3; i++) {
		double t = fr_api_limit_next(&l, NOW);

		fr_api_limit_spend(&l, t);
		REQUIRE(isfinite(fr_api_limit_next(&l, t)));
	}
}

static void
check_scrub(const char *text)
{
	char token[33];
	size_t n = strcspn(text, "\n");
	char *s;

	if (n >= sizeof(token))
		n = sizeof(token) - 1;
	memcpy(token, text, n);
	token[n] = '\0';
	s = fr_api_scrub(text, token);
	REQUIRE(s != NULL);
	if (*token && !strchr(token, '*'))
		REQUIRE(strstr(s, token) == NULL);
	free(s);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	static const char *const presets[] = {"graph", "mastodon", "reddit", "jsonapi"};
	const char *sep, *nl;
	char *link = NULL;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	check_spec(text, size);
	/* the first line doubles as a Link header */
	nl = memchr(text, '\n', size);
	if (nl && (size_t)(nl - text) < 4096) {
		link = malloc((size_t)(nl - text) + 1);
		if (link) {
			memcpy(link, text, (size_t)(nl - text));
			link[nl - text] = '\0';
		}
	}
	for (size_t i = 0; i < sizeof(presets) / sizeof(presets[0]); i++) {
		struct fr_api_spec *s = NULL;

		REQUIRE(fr_api_spec_parse(presets[i], strlen(presets[i]), &s, NULL, 0) == 0);
		map_with(s, text, size, link);
		fr_api_spec_free(s);
	}
	sep = strstr(text, "\n=====\n");
	if (sep) {
		struct fr_api_spec *s = NULL;
		size_t sl = (size_t)(sep - text);

		check_spec(text, sl);
		if (fr_api_spec_parse(text, sl, &s, NULL, 0) == 0) {
			map_with(s, sep + 7, size - sl - 7, link);
			fr_api_spec_free(s);
		}
	}
	check_limits(text, size);
	check_scrub(text);
	free(link);
	free(text);
	return 0;
}
