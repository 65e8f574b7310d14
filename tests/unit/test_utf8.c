/* test_utf8.c - the UTF-8 sequence check and repair (core/utf8) on byte
 * strings worked by hand. */
#include "test.h"

#include "core/utf8.h"

#include <stdlib.h>

static size_t
len(const char *s)
{
	return fr_utf8_len((const unsigned char *)s);
}

static void
utf8_len_by_hand(void)
{
	CHECK(len("a") == 1);
	CHECK(len("\xC3\xA9") == 2);         /* é */
	CHECK(len("\xE2\x82\xAC") == 3);     /* € */
	CHECK(len("\xF0\x9F\x98\x80") == 4); /* U+1F600 */
	CHECK(len("\xC0\xAF") == 0);         /* overlong '/' */
	CHECK(len("\xE0\x80\xAF") == 0);     /* overlong, 3 bytes */
	CHECK(len("\xED\xA0\x80") == 0);     /* surrogate U+D800 */
	CHECK(len("\xF4\x90\x80\x80") == 0); /* above U+10FFFF */
	CHECK(len("\xC3") == 0);             /* cut at the NUL */
	CHECK(len("\x80") == 0);             /* a lone continuation byte */
}

static void
utf8_fix_by_hand(void)
{
	char *out = (char *)1;

	CHECK(fr_utf8_fix("caf\xC3\xA9 \xE2\x82\xAC", &out) == 0);
	CHECK(out == NULL); /* valid: nothing to repair */
	CHECK(fr_utf8_fix("", &out) == 0 && out == NULL);
	/* Each byte that starts no valid sequence becomes U+FFFD; the valid
	 * sequences around them stay. */
	CHECK(fr_utf8_fix("caf\xE9", &out) == 0);
	CHECK_STR(out, "caf\xEF\xBF\xBD");
	free(out);
	CHECK(fr_utf8_fix("\xC0\xAF-\xC3\xA9-\xFF", &out) == 0);
	CHECK_STR(out, "\xEF\xBF\xBD\xEF\xBF\xBD-\xC3\xA9-\xEF\xBF\xBD");
	free(out);
}

int
main(void)
{
	RUN(utf8_len_by_hand);
	RUN(utf8_fix_by_hand);
	return TEST_DONE();
}
