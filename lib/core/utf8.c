/* utf8.c - see utf8.h. */
#include "core/utf8.h"

#include <stdlib.h>
#include <string.h>

size_t
fr_utf8_len(const unsigned char *s)
{
	unsigned c = s[0];

	if (c < 0x80)
		return 1;
	if (c >= 0xC2 && c <= 0xDF)
		return (s[1] & 0xC0) == 0x80 ? 2 : 0;
	if (c >= 0xE0 && c <= 0xEF) {
		if ((s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80)
			return 0;
		if ((c == 0xE0 && s[1] < 0xA0) || (c == 0xED && s[1] >= 0xA0))
			return 0;
		return 3;
	}
	if (c >= 0xF0 && c <= 0xF4) {
		if ((s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80 || (s[3] & 0xC0) != 0x80)
			return 0;
		if ((c == 0xF0 && s[1] < 0x90) || (c == 0xF4 && s[1] >= 0x90))
			return 0;
		return 4;
	}
	return 0;
}

int
fr_utf8_fix(const char *s, char **out)
{
	const unsigned char *p;
	size_t bad = 0, k;
	char *w;

	*out = NULL;
	for (p = (const unsigned char *)s; *p; p += k ? k : 1) {
		k = fr_utf8_len(p);
		bad += k == 0;
	}
	if (!bad)
		return 0;
	if (!(w = malloc(strlen(s) + 2 * bad + 1)))
		return -1;
	*out = w;
	for (p = (const unsigned char *)s; *p; p += k ? k : 1) {
		k = fr_utf8_len(p);
		if (k) {
			memcpy(w, p, k);
			w += k;
		} else {
			memcpy(w, "\xEF\xBF\xBD", 3);
			w += 3;
		}
	}
	*w = '\0';
	return 0;
}
