/* fuzz_extract.c - libFuzzer harness for the main-content extractor
 * (lib/extract/extract.h): any bytes extract without crashing, or fail with
 * a reason; an article always has a title, content and text (maybe empty),
 * length counts the text's code points, the text is UTF-8 without NUL, and
 * the content carries no script and no javascript: value in a tag. Run with the
 * default rules and with retries off (a threshold of one character). Without
 * FR_LIBFUZZER, replay.c's main replays the seeds. */
#include "extract/extract.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define REQUIRE(c)                                                                                 \
	do {                                                                                       \
		if (!(c)) {                                                                        \
			fprintf(stderr, "fuzz_extract: broken promise: %s (%s:%d)\n", #c, __FILE__, \
			        __LINE__);                                                         \
			abort();                                                                   \
		}                                                                                  \
	} while (0)

/* Code points of s when it is well-formed UTF-8, else (size_t)-1. */
static size_t
utf8_points(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = 0;

	while (*p) {
		size_t k = *p < 0x80 ? 0 : (*p & 0xe0) == 0xc0 ? 1 : (*p & 0xf0) == 0xe0 ? 2
		                                                   : (*p & 0xf8) == 0xf0 ? 3 : 9;
		if (k == 9)
			return (size_t)-1;
		for (size_t i = 1; i <= k; i++)
			if ((p[i] & 0xc0) != 0x80)
				return (size_t)-1;
		p += k + 1;
		n++;
	}
	return n;
}

/* Whether s holds needle (lower case), whatever the case. */
static int
has_ci(const char *s, const char *needle)
{
	size_t n = strlen(needle);

	for (; *s; s++)
		if (!strncasecmp(s, needle, n))
			return 1;
	return 0;
}

/* Whether a tag of the HTML html (every '<' starts one: text has its '<'
 * escaped) holds a javascript: value. */
static int
js_in_tag(const char *html)
{
	for (const char *lt = strchr(html, '<'); lt; lt = strchr(lt + 1, '<')) {
		const char *gt = strchr(lt, '>');
		size_t n = gt ? (size_t)(gt - lt) : strlen(lt);

		for (size_t i = 0; i + 11 <= n; i++)
			if (!strncasecmp(lt + i, "javascript:", 11))
				return 1;
	}
	return 0;
}

static void
one(const uint8_t *data, size_t size, size_t threshold, const char *ct)
{
	struct fr_extract_opts o = {0};
	struct fr_article *a = NULL;
	char err[512] = "";

	o.url = "https://www.example.com/dir/page.html";
	o.content_type = ct;
	o.char_threshold = threshold;
	if (fr_extract((const char *)data, size, &o, &a, err, sizeof(err)) != 0) {
		REQUIRE(a == NULL);
		REQUIRE(err[0] != '\0');
		return;
	}
	REQUIRE(a && a->title && a->content && a->text);
	REQUIRE(utf8_points(a->text) == a->length);
	REQUIRE(utf8_points(a->title) != (size_t)-1);
	REQUIRE(!a->text[0] == !a->content[0]);
	REQUIRE(!has_ci(a->content, "<script"));
	REQUIRE(!js_in_tag(a->content));
	fr_article_free(a);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *ct = size && data[0] & 1 ? "text/html; charset=iso-8859-1" : NULL;

	one(data, size, 0, ct);
	one(data, size, 1, NULL);
	return 0;
}
