/* lib/lang/lang.c - input hygiene and codes around CLD2 (cld2.cc). */
#include "lang/lang.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/utf8.h"

int fr_lang_cld2(const char *utf8, int len, int plain, char *code, int codelen, int *percent,
                 int *text_bytes, int *reliable);

/* CLD2 reads interchange-valid UTF-8 only (it stops at the first sequence
 * that is not). In place over s[0..n), which zero bytes follow (so
 * fr_utf8_len's look-ahead stops at the end): each byte that starts no
 * valid sequence (lib/core/utf8.h) becomes a space, and so does each
 * control but tab, newline and return, each C1 control and each
 * noncharacter (all their bytes). */
static void
blank_invalid(unsigned char *s, size_t n)
{
	size_t i = 0;

	while (i < n) {
		size_t k = fr_utf8_len(s + i);
		unsigned cp;

		if (!k || k > n - i) {
			s[i++] = ' ';
			continue;
		}
		cp = k == 1 ? s[i] : s[i] & (0x7fu >> k);
		for (size_t j = 1; j < k; j++)
			cp = cp << 6 | (s[i + j] & 0x3f);
		if ((cp < 0x20 && cp != '\t' && cp != '\n' && cp != '\r') || cp == 0x7f ||
		    (cp >= 0x80 && cp <= 0x9f) || (cp >= 0xfdd0 && cp <= 0xfdef) ||
		    (cp & 0xfffe) == 0xfffe)
			memset(s + i, ' ', k);
		i += k;
	}
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
fr_lang_detect_parts(const struct fr_lang_part *parts, size_t n, struct fr_lang_guess *out)
{
	char code[16];
	char *buf;
	size_t cap = FR_LANG_MAX_BYTES, o = 0;
	int ok, html = 0;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < n; i++)
		if (parts[i].s && parts[i].len && parts[i].html)
			html = 1;
	if (html)
		cap = FR_LANG_MAX_HTML_BYTES;
	/* The one copy: the parts joined, invalid bytes blanked, and zero
	 * padding past the end (CLD2 reads whole words ahead). */
	buf = malloc(cap + 32);
	if (!buf)
		return 0;
	for (size_t i = 0; i < n && o < cap; i++) {
		const struct fr_lang_part *p = &parts[i];
		size_t take;

		if (!p->s || !p->len)
			continue;
		if (o)
			buf[o++] = '\n';
		take = p->len < cap - o ? p->len : cap - o;
		memcpy(buf + o, p->s, take);
		/* plain text among markup: no '<' or '&' to be read as a tag
		 * or an entity */
		if (html && !p->html)
			for (size_t j = o; j < o + take; j++)
				if (buf[j] == '<' || buf[j] == '&')
					buf[j] = ' ';
		o += take;
	}
	memset(buf + o, 0, 32);
	blank_invalid((unsigned char *)buf, o);
	ok = o && fr_lang_cld2(buf, (int)o, !html, code, (int)sizeof(code), &out->percent,
	                       &out->text_bytes, &out->reliable);
	free(buf);
	if (!ok || !out->reliable) {
		out->code[0] = '\0';
		return 0;
	}
	snprintf(out->code, sizeof(out->code), "%s", bcp47(code));
	return 1;
}

int
fr_lang_detect(const char *text, size_t len, struct fr_lang_guess *out)
{
	struct fr_lang_part p = {text, text ? len : 0, 0};

	return fr_lang_detect_parts(&p, 1, out);
}

int
fr_lang_detect_item(const char *title, const char *body_html, struct fr_lang_guess *out)
{
	struct fr_lang_part p[2] = {
	    {title, title ? strnlen(title, FR_LANG_MAX_BYTES) : 0, 0},
	    {body_html, body_html ? strnlen(body_html, FR_LANG_MAX_HTML_BYTES) : 0, 1},
	};

	return fr_lang_detect_parts(p, 2, out);
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
