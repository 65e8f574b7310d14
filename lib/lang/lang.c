/* lib/lang/lang.c - input hygiene and codes around CLD2 (cld2.cc). */
#include "lang/lang.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int fr_lang_cld2(const char *utf8, int len, char *code, int codelen, int *percent,
                 int *text_bytes, int *reliable);

/* Length of the interchange-valid UTF-8 sequence at s (n bytes left), or 0
 * when the bytes there are not one: ill-formed, overlong, a surrogate, a
 * control other than tab/newline/return, a C1 control or a noncharacter. */
static size_t
valid_seq(const unsigned char *s, size_t n)
{
	unsigned c = s[0], cp;
	size_t k;

	if (c < 0x80)
		return (c >= 0x20 && c != 0x7f) || c == '\t' || c == '\n' || c == '\r' ? 1 : 0;
	if (c >= 0xc2 && c <= 0xdf)
		k = 2, cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		k = 3, cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		k = 4, cp = c & 0x07;
	else
		return 0;
	if (n < k)
		return 0;
	for (size_t i = 1; i < k; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((k == 3 && cp < 0x800) || (k == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0; /* overlong or beyond Unicode */
	if ((cp >= 0xd800 && cp <= 0xdfff) || (cp >= 0x80 && cp <= 0x9f) ||
	    (cp >= 0xfdd0 && cp <= 0xfdef) || (cp & 0xfffe) == 0xfffe)
		return 0;
	return k;
}

/* CLD2's name for a language -> BCP 47. CLD2 keeps some withdrawn ISO 639
 * codes and writes Chinese scripts as "zh" / "zh-Hant". */
static const char *
bcp47(const char *c)
{
	static const char *const map[][2] = {
		{"iw", "he"}, {"in", "id"}, {"ji", "yi"}, {"jw", "jv"}, {"mo", "ro"},
	};

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (!strcmp(c, map[i][0]))
			return map[i][1];
	return c;
}

int
fr_lang_detect(const char *text, size_t len, struct fr_lang_guess *out)
{
	char code[16];
	char *buf;
	size_t i = 0, o = 0;
	int ok;

	memset(out, 0, sizeof(*out));
	if (!text || !len)
		return 0;
	if (len > FR_LANG_MAX_BYTES)
		len = FR_LANG_MAX_BYTES;
	/* a copy: invalid bytes become spaces, and CLD2 gets zero padding past
	 * the end (it reads whole words ahead) */
	buf = calloc(len + 32, 1);
	if (!buf)
		return 0;
	while (i < len) {
		size_t k = valid_seq((const unsigned char *)text + i, len - i);

		if (k) {
			memcpy(buf + o, text + i, k);
			o += k;
			i += k;
		} else {
			buf[o++] = ' ';
			i++;
		}
	}
	ok = fr_lang_cld2(buf, (int)o, code, (int)sizeof(code), &out->percent, &out->text_bytes,
	                  &out->reliable);
	free(buf);
	if (!ok || !out->reliable) {
		out->code[0] = '\0';
		return 0;
	}
	snprintf(out->code, sizeof(out->code), "%s", bcp47(code));
	return 1;
}

void
fr_lang_primary(const char *tag, char *out, size_t outlen)
{
	size_t n = 0;

	if (!outlen)
		return;
	out[0] = '\0';
	if (!tag)
		return;
	while (tag[n] && ((tag[n] >= 'a' && tag[n] <= 'z') || (tag[n] >= 'A' && tag[n] <= 'Z')))
		n++;
	if (n < 2 || n > 8 || n >= outlen || (tag[n] && tag[n] != '-' && tag[n] != '_'))
		return;
	for (size_t i = 0; i < n; i++)
		out[i] = (char)(tag[i] | 0x20);
	out[n] = '\0';
	{
		const char *m = bcp47(out);

		if (m != out && strlen(m) < outlen)
			memmove(out, m, strlen(m) + 1);
	}
}
