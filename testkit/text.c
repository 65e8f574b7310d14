/* text.c - a capped growable text buffer (see text.h). */
#include "testkit/text.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void
fr_text_add(struct fr_text *t, const char *s, size_t n)
{
	size_t max = t->max ? t->max : FR_TEXT_MAX_DEFAULT;

	if (t->bad)
		return;
	if (n > max - t->len) {
		t->bad = 1;
		return;
	}
	if (t->len + n + 1 > t->cap) {
		size_t cap = t->cap ? t->cap : 1024;
		char *p;

		while (cap < t->len + n + 1)
			cap *= 2;
		if (cap > max + 1)
			cap = max + 1;
		p = realloc(t->p, cap);
		if (!p) {
			t->bad = 1;
			return;
		}
		t->p = p;
		t->cap = cap;
	}
	if (n)
		memcpy(t->p + t->len, s, n);
	t->len += n;
	t->p[t->len] = '\0';
}

void
fr_text_puts(struct fr_text *t, const char *s)
{
	fr_text_add(t, s, strlen(s));
}

void
fr_text_printf(struct fr_text *t, const char *fmt, ...)
{
	char tmp[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n < 0) {
		t->bad = 1;
		return;
	}
	if ((size_t)n < sizeof(tmp)) {
		fr_text_add(t, tmp, (size_t)n);
		return;
	}
	{
		char *big = malloc((size_t)n + 1);

		if (!big) {
			t->bad = 1;
			return;
		}
		va_start(ap, fmt);
		vsnprintf(big, (size_t)n + 1, fmt, ap);
		va_end(ap);
		fr_text_add(t, big, (size_t)n);
		free(big);
	}
}

void
fr_text_xml(struct fr_text *t, const char *s)
{
	const char *run = s;

	for (; *s; s++) {
		const char *rep;

		switch (*s) {
		case '&':
			rep = "&amp;";
			break;
		case '<':
			rep = "&lt;";
			break;
		case '>':
			rep = "&gt;";
			break;
		case '"':
			rep = "&quot;";
			break;
		case '\'':
			rep = "&#39;";
			break;
		default:
			continue;
		}
		fr_text_add(t, run, (size_t)(s - run));
		fr_text_puts(t, rep);
		run = s + 1;
	}
	fr_text_add(t, run, (size_t)(s - run));
}

void
fr_text_json(struct fr_text *t, const char *s)
{
	const char *run = s;

	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		char esc[8];

		if (c != '"' && c != '\\' && c >= 0x20)
			continue;
		fr_text_add(t, run, (size_t)(s - run));
		if (c == '"' || c == '\\') {
			esc[0] = '\\';
			esc[1] = (char)c;
			fr_text_add(t, esc, 2);
		} else {
			snprintf(esc, sizeof(esc), "\\u%04x", c);
			fr_text_add(t, esc, 6);
		}
		run = s + 1;
	}
	fr_text_add(t, run, (size_t)(s - run));
}

char *
fr_text_take(struct fr_text *t, size_t *len)
{
	char *p;

	if (!t->bad && !t->p)
		fr_text_add(t, "", 0);
	if (t->bad) {
		fr_text_free(t);
		return NULL;
	}
	p = t->p;
	*len = t->len;
	t->p = NULL;
	t->len = t->cap = 0;
	return p;
}

void
fr_text_free(struct fr_text *t)
{
	free(t->p);
	t->p = NULL;
	t->len = t->cap = 0;
	t->bad = 0;
}
