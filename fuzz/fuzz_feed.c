/* fuzz_feed.c - libFuzzer harness for the feed parser (lib/parse/feed.h):
 * each input is parsed with the defaults, with a base URL and an HTTP
 * charset, with small limits, and with feedparser's result model, and every result is checked against the
 * header's promises (text is UTF-8 whatever the input); the summary_if_no_content parse must give the
 * same items but for the summaries it leaves out; the streamed result (`parse --format json`) must be, byte
 * for byte, the model as json-c writes it. Without FR_LIBFUZZER, replay.c's main replays the
 * seeds (fuzz/corpus/feed and the folders of ../shared in feed.shared). */
#include "core/err.h"
#include "parse/feed.h"

#include <json-c/json.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define REQUIRE(c)                                                                                 \
	do {                                                                                       \
		if (!(c)) {                                                                        \
			fprintf(stderr, "fuzz_feed: broken promise: %s (%s:%d)\n", #c, __FILE__,  \
			        __LINE__);                                                         \
			abort();                                                                   \
		}                                                                                  \
	} while (0)

/* Well-formed UTF-8 (what the parser promises for XML input). */
static int
utf8_ok(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		int k = *p < 0x80 ? 0 : (*p & 0xE0) == 0xC0 ? 1 : (*p & 0xF0) == 0xE0 ? 2 : (*p & 0xF8) == 0xF0 ? 3 : -1;

		if (k < 0)
			return 0;
		p++;
		for (int i = 0; i < k; i++, p++)
			if ((*p & 0xC0) != 0x80)
				return 0;
	}
	return 1;
}

static void
check_str(const char *s, int utf8)
{
	if (s && utf8)
		REQUIRE(utf8_ok(s));
}

static void
check_date(int64_t t)
{
	/* Years 1000-9999 with a zone of under a day either way. */
	REQUIRE(t == FR_DATE_NONE || (t >= -62135596800LL && t <= 253402300799LL));
}

static void
check_feed(const struct fr_feed *f)
{
	int utf8 = 1;

	REQUIRE(f->version && f->encoding);
	REQUIRE(!f->bozo || f->bozo_exception);
	REQUIRE(f->bozo || !f->bozo_exception);
	REQUIRE(f->ttl_s >= -1 && f->update_period_s >= -1);
	REQUIRE(f->n_items == 0 || f->items);
	/* feedparser's result model, when asked for: well-formed UTF-8 */
	REQUIRE(!f->fp_feed == !f->fp_entries);
	if (f->fp_feed) {
		REQUIRE(utf8_ok(json_object_to_json_string_ext(f->fp_feed, JSON_C_TO_STRING_PLAIN)));
		REQUIRE(utf8_ok(json_object_to_json_string_ext(f->fp_entries, JSON_C_TO_STRING_PLAIN)));
	}
	check_date(f->updated_s);
	check_str(f->title, utf8);
	check_str(f->link, utf8);
	check_str(f->subtitle, utf8);
	for (size_t i = 0; i < f->n_items; i++) {
		const struct fr_feed_item *it = &f->items[i];

		REQUIRE(it->id && it->id[0]);
		check_str(it->id, utf8);
		check_str(it->title, utf8);
		check_str(it->link, utf8);
		check_str(it->summary, utf8);
		check_str(it->content, utf8);
		check_str(it->author, utf8);
		check_date(it->published_s);
		check_date(it->updated_s);
		REQUIRE(it->n_comments >= -1);
		REQUIRE(it->n_tags == 0 || it->tags);
		for (size_t k = 0; k < it->n_tags; k++)
			REQUIRE(it->tags[k] && it->tags[k][0]);
		for (size_t k = 0; k < it->n_enclosures; k++) {
			REQUIRE(it->enclosures[k].url && it->enclosures[k].url[0]);
			REQUIRE(it->enclosures[k].length >= -1);
		}
	}
}

static void
one(const uint8_t *data, size_t size, const struct fr_feed_opts *o)
{
	struct fr_feed *f = (struct fr_feed *)&f; /* must be set to NULL on failure */
	char err[FR_ERRLEN];

	err[0] = '\0';
	if (fr_feed_parse((const char *)data, size, o, &f, err, sizeof(err)) == 0) {
		REQUIRE(f != NULL);
		check_feed(f);
		fr_feed_free(f);
	} else {
		REQUIRE(f == NULL);
		REQUIRE(err[0] != '\0');
	}
}

static int
same_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

/* summary_if_no_content (what `parse --format tsv` asks for) gives the
 * same feed, but for the summaries of items that have content (NULL). */
static void
lazy_same(const uint8_t *data, size_t size)
{
	struct fr_feed_opts lazy = {.summary_if_no_content = 1};
	struct fr_feed *f = NULL, *g = NULL;
	char err[FR_ERRLEN];
	int rf = fr_feed_parse((const char *)data, size, NULL, &f, err, sizeof(err));
	int rg = fr_feed_parse((const char *)data, size, &lazy, &g, err, sizeof(err));

	REQUIRE(rf == rg);
	if (rf == 0) {
		REQUIRE(f->n_items == g->n_items && f->bozo == g->bozo);
		for (size_t i = 0; i < f->n_items; i++) {
			const struct fr_feed_item *a = &f->items[i], *b = &g->items[i];

			REQUIRE(same_str(a->id, b->id) && same_str(a->title, b->title));
			REQUIRE(same_str(a->link, b->link) && same_str(a->content, b->content));
			REQUIRE(same_str(b->summary, a->content ? NULL : a->summary));
		}
	}
	fr_feed_free(f);
	fr_feed_free(g);
}

/* fr_feed_fp_write's text of f, malloc'd (NULL when it failed). */
static char *
written(const struct fr_feed *f, int flags, const char *file)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int rc;

	REQUIRE(m != NULL);
	rc = fr_feed_fp_write(f, m, flags, file);
	fclose(m);
	if (rc != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* fp_stream (what `parse --format json` asks for) writes what json-c
 * writes for the whole model, in both of parse's layouts, under the cap. */
static void
streamed_same(const uint8_t *data, size_t size, int flags)
{
	struct fr_feed_opts mo = {.fp_result = 1, .max_items = 2};
	struct fr_feed_opts so = {.fp_result = 1, .max_items = 2, .fp_stream = 1, .fp_json_flags = flags};
	struct fr_feed *f = NULL, *g = NULL;
	char err[FR_ERRLEN];
	int rf = fr_feed_parse((const char *)data, size, &mo, &f, err, sizeof(err));
	int rg = fr_feed_parse((const char *)data, size, &so, &g, err, sizeof(err));

	REQUIRE(rf == rg);
	if (rf == 0 && f->fp_feed) {
		struct json_object *root = json_object_new_object();
		char *a, *b;

		REQUIRE(g->fp_feed && !g->fp_entries);
		json_object_object_add(root, "bozo", json_object_new_boolean(f->bozo));
		if (f->bozo_exception)
			json_object_object_add(root, "bozo_exception", json_object_new_string(f->bozo_exception));
		json_object_object_add(root, "encoding", json_object_new_string(f->encoding));
		json_object_object_add(root, "version", json_object_new_string(f->version));
		json_object_object_add(root, "feed", json_object_get(f->fp_feed));
		json_object_object_add(root, "entries", json_object_get(f->fp_entries));
		json_object_object_add(root, "file", json_object_new_string("x"));
		a = written(g, flags, "x");
		b = written(f, flags, "x");
		REQUIRE(a && b);
		REQUIRE(!strcmp(a, json_object_to_json_string_ext(root, flags)));
		REQUIRE(!strcmp(b, a));
		free(a);
		free(b);
		json_object_put(root);
	} else if (rf == 0) {
		REQUIRE(!g->fp_feed && !g->fp_n_entries);
	}
	fr_feed_free(f);
	fr_feed_free(g);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* An exact-size copy, so that a read past size is caught. */
	uint8_t *copy = malloc(size ? size : 1);
	struct fr_feed_opts based = {.base_url = "http://example.org/a/feed.xml",
	                             .content_type = "application/xml; charset=windows-1252",
	                             .fp_result = 1};
	struct fr_feed_opts model = {.fp_result = 1, .max_items = 3};
	struct fr_feed_opts small = {.max_depth = 8, .max_bytes = 4096};

	if (!copy)
		return 0;
	if (size)
		memcpy(copy, data, size);
	one(copy, size, NULL);
	one(copy, size, &based);
	one(copy, size, &small);
	one(copy, size, &model);
	lazy_same(copy, size);
	streamed_same(copy, size, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
	                              JSON_C_TO_STRING_NOSLASHESCAPE);
	streamed_same(copy, size, JSON_C_TO_STRING_PLAIN);
	(void)fr_feed_sniff((const char *)copy, size);
	free(copy);
	return 0;
}
