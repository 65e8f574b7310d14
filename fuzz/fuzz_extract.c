/* fuzz_extract.c - libFuzzer harness for the main-content extractor
 * (lib/extract/extract.h): any bytes extract without crashing, or fail with
 * a reason; an article always has a title, content and text (maybe empty),
 * length counts the text's code points, the text is UTF-8 without NUL, and
 * the content carries no script, no event handler and no javascript: or
 * vbscript: URL in a tag (a class naming the word is text). Run with the
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

/* A URL attribute's value as a browser reads its scheme: character
 * references decoded, ASCII whitespace and controls dropped, lower case;
 * into out (at most n - 1 bytes). */
static void
url_scheme_form(const char *v, size_t len, char *out, size_t n)
{
	size_t o = 0;

	for (size_t i = 0; i < len && o + 1 < n; i++) {
		unsigned long c = (unsigned char)v[i];

		if (c == '&') {
			if (i + 1 < len && v[i + 1] == '#') {
				int hex = i + 2 < len && (v[i + 2] == 'x' || v[i + 2] == 'X');
				char *end;

				c = strtoul(v + i + 2 + hex, &end, hex ? 16 : 10);
				i = (size_t)(end - v);
				if (i >= len || v[i] != ';')
					i--;
			} else if (!strncasecmp(v + i, "&colon;", 7)) {
				c = ':';
				i += 6;
			} else if (!strncasecmp(v + i, "&tab;", 5) || !strncasecmp(v + i, "&newline;", 9)) {
				i += v[i + 1] == 't' || v[i + 1] == 'T' ? 4 : 8;
				continue;
			}
		}
		if (c <= 0x20 || c == 0x7f)
			continue;
		out[o++] = (char)(c < 0x80 && c >= 'A' && c <= 'Z' ? c + 32 : c < 0x80 ? c : '?');
	}
	out[o] = '\0';
}

/* Whether a tag of the HTML html (every '<' starts one: text has its '<'
 * escaped) has an event handler (on...) or a URL attribute whose scheme is
 * javascript: or vbscript:. A class or title that merely holds the word
 * is text, not script. */
static int
unsafe_tag(const char *html)
{
	static const char *const url_attrs[] = {"href", "src", "action", "formaction", "srcset",
	                                        "poster", "background", "cite", "longdesc",
	                                        "xlink:href", "data", "codebase", "lowsrc",
	                                        "dynsrc", "manifest", "icon", NULL};

	for (const char *lt = strchr(html, '<'); lt; lt = strchr(lt + 1, '<')) {
		const char *p = lt + 1;

		p += strcspn(p, " \t\n\r\f/>"); /* the tag's name */
		while (*p && *p != '>') {
			const char *name, *val = "";
			size_t nl, vl = 0;

			p += strspn(p, " \t\n\r\f/");
			name = p;
			nl = strcspn(p, " \t\n\r\f/>=");
			p += nl;
			if (!nl)
				break;
			p += strspn(p, " \t\n\r\f");
			if (*p == '=') {
				p++;
				p += strspn(p, " \t\n\r\f");
				if (*p == '"' || *p == '\'') {
					char q = *p++;

					val = p;
					vl = strcspn(p, q == '"' ? "\"" : "'");
					p += vl;
					if (*p)
						p++;
				} else {
					val = p;
					vl = strcspn(p, " \t\n\r\f>");
					p += vl;
				}
			}
			if (nl > 2 && !strncasecmp(name, "on", 2))
				return 1;
			for (size_t k = 0; url_attrs[k]; k++) {
				char form[64];

				if (strlen(url_attrs[k]) != nl || strncasecmp(name, url_attrs[k], nl))
					continue;
				url_scheme_form(val, vl, form, sizeof(form));
				if (!strncmp(form, "javascript:", 11) || !strncmp(form, "vbscript:", 9))
					return 1;
			}
		}
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
	REQUIRE(!unsafe_tag(a->content));
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
