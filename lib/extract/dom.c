/* dom.c - small helpers over libxml2's HTML tree for the extractor: names,
 * attributes without copies, a depth-first walk, text with blanks collapsed. */
#include "extract/ex_internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int
fr_ex_is(const xmlNode *n, const char *name)
{
	return n && n->type == XML_ELEMENT_NODE && n->name && n->name[0] == (xmlChar)name[0] &&
	       !strcmp((const char *)n->name, name);
}

const char *
fr_ex_attr(const xmlNode *n, const char *name)
{
	if (!n || n->type != XML_ELEMENT_NODE)
		return NULL;
	for (const xmlAttr *a = n->properties; a; a = a->next) {
		if (!a->name || strcmp((const char *)a->name, name))
			continue;
		if (!a->children)
			return "";
		if (a->children->type == XML_TEXT_NODE && !a->children->next)
			return a->children->content ? (const char *)a->children->content : "";
		return ""; /* entity references in attributes: HTML parsing leaves none */
	}
	return NULL;
}

xmlNode *
fr_ex_next(xmlNode *n, const xmlNode *root, int skip_children)
{
	if (!skip_children && n->children && n->type == XML_ELEMENT_NODE)
		return n->children;
	while (n && n != root) {
		if (n->next)
			return n->next;
		n = n->parent;
	}
	return NULL;
}

xmlNode *
fr_ex_find(xmlNode *n, const char *name)
{
	for (xmlNode *c = n; c; c = fr_ex_next(c, n, 0))
		if (fr_ex_is(c, name))
			return c;
	return NULL;
}

struct tbuf {
	char *p;
	size_t n, cap;
	int space, oom;
};

static void
tput(struct tbuf *b, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f') {
			b->space = b->n > 0;
			continue;
		}
		if (b->n + 3 > b->cap) {
			size_t cap = b->cap ? b->cap * 2 : 256;
			char *p = realloc(b->p, cap);

			if (!p) {
				b->oom = 1;
				return;
			}
			b->p = p;
			b->cap = cap;
		}
		if (b->space) {
			b->p[b->n++] = ' ';
			b->space = 0;
		}
		b->p[b->n++] = (char)c;
	}
}

char *
fr_ex_text(const xmlNode *n)
{
	struct tbuf b = {0};

	for (const xmlNode *c = n; c && !b.oom; c = fr_ex_next((xmlNode *)c, n, 0))
		if ((c->type == XML_TEXT_NODE || c->type == XML_CDATA_SECTION_NODE) && c->content)
			tput(&b, (const char *)c->content);
	if (b.oom) {
		free(b.p);
		return NULL;
	}
	if (!b.p)
		return strdup("");
	b.p[b.n] = '\0';
	return b.p;
}

char *
fr_ex_squash(char *s)
{
	size_t w = 0;
	int space = 0;

	for (size_t i = 0; s[i]; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
			space = w > 0;
			continue;
		}
		if (c == 0xc2 && (unsigned char)s[i + 1] == 0xa0) { /* no-break space */
			space = w > 0;
			i++;
			continue;
		}
		if (space)
			s[w++] = ' ';
		space = 0;
		s[w++] = (char)c;
	}
	s[w] = '\0';
	return s;
}

static size_t
put_utf8(char *o, uint32_t cp)
{
	if (cp == 0 || cp > 0x10ffff || (cp >= 0xd800 && cp < 0xe000))
		cp = 0xfffd;
	if (cp < 0x80) {
		o[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (char)(0xc0 | (cp >> 6));
		o[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = (char)(0xe0 | (cp >> 12));
		o[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		o[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	o[0] = (char)(0xf0 | (cp >> 18));
	o[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	o[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	o[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

void
fr_ex_unescape(char *s)
{
	static const struct {
		const char *name;
		char c;
	} named[] = {{"amp;", '&'}, {"lt;", '<'}, {"gt;", '>'}, {"quot;", '"'}, {"apos;", '\''}};
	size_t w = 0;

	for (size_t i = 0; s[i];) {
		if (s[i] == '&') {
			size_t k;

			for (k = 0; k < sizeof(named) / sizeof(named[0]); k++) {
				size_t l = strlen(named[k].name);

				if (!strncmp(s + i + 1, named[k].name, l)) {
					s[w++] = named[k].c;
					i += 1 + l;
					break;
				}
			}
			if (k < sizeof(named) / sizeof(named[0]))
				continue;
			if (s[i + 1] == '#') {
				size_t j = i + 2;
				int hex = s[j] == 'x' || s[j] == 'X';
				uint32_t cp = 0;
				size_t digits = 0;

				j += (size_t)hex;
				for (;; j++, digits++) {
					char c = s[j];
					uint32_t d;

					if (c >= '0' && c <= '9')
						d = (uint32_t)(c - '0');
					else if (hex && c >= 'a' && c <= 'f')
						d = (uint32_t)(c - 'a' + 10);
					else if (hex && c >= 'A' && c <= 'F')
						d = (uint32_t)(c - 'A' + 10);
					else
						break;
					if (cp < 0x110000)
						cp = cp * (hex ? 16u : 10u) + d;
				}
				if (digits && s[j] == ';' && j + 1 - i >= 4) {
					/* the output (at most 4 bytes) never outruns the input */
					w += put_utf8(s + w, cp);
					i = j + 1;
					continue;
				}
			}
		}
		s[w++] = s[i++];
	}
	s[w] = '\0';
}

size_t
fr_ex_utf8_len(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

static int
is_ws(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

size_t
fr_ex_word_count(const char *s)
{
	size_t n = 1;

	for (size_t i = 0; s[i]; i++)
		if (is_ws(s[i]) && (i == 0 || !is_ws(s[i - 1])))
			n++;
	return n;
}

/* Lower-case tokens of s split at non-word characters (\W+: not ASCII
 * letter, digit or '_'), joined by single spaces into out. Returns the
 * number of tokens; out holds at most cap bytes. */
static size_t
tokens(const char *s, char *out, size_t cap, size_t *out_len)
{
	size_t n = 0, w = 0;
	int in = 0;

	for (; *s && w + 2 < cap; s++) {
		char c = *s;
		int word = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		           c == '_';

		if (!word) {
			in = 0;
			continue;
		}
		if (!in) {
			if (n)
				out[w++] = ' ';
			n++;
			in = 1;
		}
		out[w++] = (char)(c >= 'A' && c <= 'Z' ? c + 32 : c);
	}
	out[w] = '\0';
	*out_len = w;
	return n;
}

double
fr_ex_similarity(const char *a, const char *b)
{
	char ta[1024], tb[1024];
	size_t la, lb, uniq = 0, nuniq = 0;

	tokens(a, ta, sizeof(ta), &la);
	if (!tokens(b, tb, sizeof(tb), &lb) || !la)
		return 0;
	/* tokens of b not among a's, their joined length */
	for (char *p = tb; *p;) {
		size_t l = strcspn(p, " ");
		int found = 0;

		for (char *q = ta; *q && !found;) {
			size_t m = strcspn(q, " ");

			found = m == l && !memcmp(p, q, l);
			q += m;
			q += *q == ' ';
		}
		if (!found) {
			uniq += l;
			nuniq++;
		}
		p += l;
		p += *p == ' ';
	}
	if (nuniq > 1)
		uniq += nuniq - 1;
	return 1.0 - (double)uniq / (double)lb;
}
