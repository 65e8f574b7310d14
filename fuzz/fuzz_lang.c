/* fuzz_lang.c - libFuzzer harness for language detection (lib/lang/lang.h):
 * any bytes, any length. Detection must not crash or read out of bounds
 * (CLD2 reads ahead; the padded copy must hold it), a detected code is a
 * short BCP 47 tag of letters and '-', and the figures stay in range.
 * The input is also read as HTML (CLD2's own tag and entity scanner, the
 * path of stored items: fr_lang_detect_parts with a plain title beside it).
 * fr_lang_primary takes the input as a tag. Without FR_LIBFUZZER, replay.c's
 * main replays the seeds. */
#include "lang/lang.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define REQUIRE(c)                                                                                 \
	do {                                                                                       \
		if (!(c)) {                                                                        \
			fprintf(stderr, "fuzz_lang: broken promise: %s (%s:%d)\n", #c, __FILE__,  \
			        __LINE__);                                                         \
			abort();                                                                   \
		}                                                                                  \
	} while (0)

static int
tag_shape(const char *c)
{
	size_t n = strlen(c);

	if (n < 2 || n >= 16)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!((c[i] >= 'a' && c[i] <= 'z') || (c[i] >= 'A' && c[i] <= 'Z') || c[i] == '-'))
			return 0;
	return 1;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* an exact-size copy, so ASan sees any read past the end */
	char *text = malloc(size ? size : 1);
	char *tag = malloc(size + 1);
	struct fr_lang_guess g;
	char prim[16];
	int ok;

	if (!text || !tag) {
		free(text);
		free(tag);
		return 0;
	}
	memcpy(text, data, size);
	ok = fr_lang_detect(text, size, &g);
	REQUIRE(ok == 0 || ok == 1);
	REQUIRE(g.percent >= 0 && g.percent <= 100);
	REQUIRE(g.text_bytes >= 0);
	if (ok) {
		REQUIRE(tag_shape(g.code));
		REQUIRE(g.reliable == 1);
	} else {
		REQUIRE(g.code[0] == '\0');
	}
	{
		/* an HTML part and a plain part, split where the input says */
		size_t cut = size ? data[0] % (size + 1) : 0;
		struct fr_lang_part p[2] = {{text, cut, 0}, {text + cut, size - cut, 1}};

		ok = fr_lang_detect_parts(p, 2, &g);
		REQUIRE(ok == 0 || ok == 1);
		REQUIRE(g.percent >= 0 && g.percent <= 100);
		REQUIRE(ok ? tag_shape(g.code) && g.reliable == 1 : g.code[0] == '\0');
	}
	memcpy(tag, data, size);
	tag[size] = '\0';
	fr_lang_primary(tag, prim, sizeof(prim));
	REQUIRE(strlen(prim) < sizeof(prim));
	if (prim[0])
		REQUIRE(tag_shape(prim));
	free(text);
	free(tag);
	return 0;
}
