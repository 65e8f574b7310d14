/* feed.c - the feed parser's entry points and the steps both front ends
 * share: the builder with field precedence, item identity, link and HTML
 * entity handling, and the cheap sniffing used by discovery. */
#include "parse/feed.h"

#include "core/err.h"
#include "url/url.h"
#include "parse/date.h"
#include "parse/feed_internal.h"
#include "parse/sha1.h"

#include <json-c/json.h>
#include <libxml/HTMLparser.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- buffers ---- */

static int
fb_grow(struct fb_buf *b, size_t extra)
{
	size_t want = b->n + extra + 1, cap;
	char *p;

	if (want <= b->cap)
		return 0;
	if ((b->max && want > b->max + 1) || want < b->n)
		return -1;
	cap = b->cap ? b->cap : 64;
	while (cap < want)
		cap *= 2;
	if (b->max && cap > b->max + 1)
		cap = b->max + 1;
	p = realloc(b->p, cap);
	if (!p)
		return -1;
	b->p = p;
	b->cap = cap;
	return 0;
}

int
fr_fb_add(struct fb_buf *b, const char *s, size_t n)
{
	if (fb_grow(b, n) != 0)
		return -1;
	memcpy(b->p + b->n, s, n);
	b->n += n;
	b->p[b->n] = '\0';
	return 0;
}

int
fr_fb_addc(struct fb_buf *b, char c)
{
	return fr_fb_add(b, &c, 1);
}

int
fr_fb_add_escaped(struct fb_buf *b, const char *s, size_t n, int quot)
{
	size_t run = 0;

	for (size_t i = 0; i < n; i++) {
		const char *rep = NULL;

		switch (s[i]) {
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
			rep = quot ? "&quot;" : NULL;
			break;
		default:
			break;
		}
		if (!rep)
			continue;
		if (fr_fb_add(b, s + run, i - run) != 0 || fr_fb_add(b, rep, strlen(rep)) != 0)
			return -1;
		run = i + 1;
	}
	return fr_fb_add(b, s + run, n - run);
}

char *
fr_fb_take(struct fb_buf *b)
{
	char *s = b->n ? b->p : NULL;

	if (!s)
		free(b->p);
	b->p = NULL;
	b->n = b->cap = 0;
	return s;
}

void
fr_fb_reset(struct fb_buf *b)
{
	b->n = 0;
	if (b->p)
		b->p[0] = '\0';
}

void
fr_fb_free(struct fb_buf *b)
{
	free(b->p);
	b->p = NULL;
	b->n = b->cap = 0;
}

/* ---- small text helpers ---- */

static int
is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

char *
fr_feed_trim(char *s)
{
	size_t n, i = 0;

	if (!s)
		return s;
	n = strlen(s);
	while (n && is_blank(s[n - 1]))
		n--;
	while (i < n && is_blank(s[i]))
		i++;
	if (i)
		memmove(s, s + i, n - i);
	s[n - i] = '\0';
	return s;
}

size_t
fr_feed_utf8(uint32_t cp, char *o)
{
	if (cp == 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
		cp = 0xFFFD;
	if (cp < 0x80) {
		o[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (char)(0xC0 | (cp >> 6));
		o[1] = (char)(0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = (char)(0xE0 | (cp >> 12));
		o[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		o[2] = (char)(0x80 | (cp & 0x3F));
		return 3;
	}
	o[0] = (char)(0xF0 | (cp >> 18));
	o[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
	o[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
	o[3] = (char)(0x80 | (cp & 0x3F));
	return 4;
}

const char *
fr_feed_html_entity(const char *name, size_t n, char *utf8, size_t cap)
{
	char tmp[16];
	const htmlEntityDesc *d;
	size_t k;

	if (n == 0 || n >= sizeof(tmp) || cap < 5)
		return NULL;
	memcpy(tmp, name, n);
	tmp[n] = '\0';
	if (!strcmp(tmp, "apos")) {
		utf8[0] = '\'';
		utf8[1] = '\0';
		return utf8;
	}
	d = htmlEntityLookup((const xmlChar *)tmp);
	if (!d)
		return NULL;
	k = fr_feed_utf8(d->value, utf8);
	utf8[k] = '\0';
	return utf8;
}

void
fr_feed_html_unescape(char *s)
{
	char *r, *w;

	if (!s || !strchr(s, '&'))
		return;
	for (r = w = s; *r;) {
		char *semi;
		size_t n;

		if (*r != '&') {
			*w++ = *r++;
			continue;
		}
		semi = r + 1;
		while (*semi && *semi != ';' && *semi != '&' && *semi != '<' && !is_blank(*semi) &&
		       semi - r < 12)
			semi++;
		if (*semi != ';') {
			*w++ = *r++;
			continue;
		}
		n = (size_t)(semi - r - 1);
		if (n >= 2 && r[1] == '#') {
			uint32_t cp = 0;
			int hex = r[2] == 'x' || r[2] == 'X', ok = 1;
			const char *p = r + (hex ? 3 : 2);

			if (p == semi)
				ok = 0;
			for (; ok && p < semi; p++) {
				int v;

				if (*p >= '0' && *p <= '9')
					v = *p - '0';
				else if (hex && *p >= 'a' && *p <= 'f')
					v = *p - 'a' + 10;
				else if (hex && *p >= 'A' && *p <= 'F')
					v = *p - 'A' + 10;
				else {
					ok = 0;
					break;
				}
				cp = cp * (hex ? 16 : 10) + (uint32_t)v;
				if (cp > 0x10FFFF)
					cp = 0x110000;
			}
			if (ok) {
				w += fr_feed_utf8(cp, w);
				r = semi + 1;
				continue;
			}
		} else {
			char u[8];

			if (fr_feed_html_entity(r + 1, n, u, sizeof(u))) {
				size_t k = strlen(u);

				memcpy(w, u, k);
				w += k;
				r = semi + 1;
				continue;
			}
		}
		*w++ = *r++;
	}
	*w = '\0';
}

static int is_url_absolute(const char *s, size_t n);

char *
fr_feed_resolve(const char *base, const char *ref)
{
	char err[FR_ERRLEN];
	char *out;

	if (!ref)
		return NULL;
	while (is_blank(*ref))
		ref++;
	if (is_url_absolute(ref, strlen(ref))) {
		/* Absolute links are kept as the feed gave them. */
		out = strdup(ref);
		return out ? fr_feed_trim(out) : NULL;
	}
	out = fr_url_resolve(base && *base ? base : NULL, ref, err, sizeof(err));
	if (!out) {
		out = strdup(ref);
		fr_feed_trim(out);
	}
	return out;
}

static int
is_url_absolute(const char *s, size_t n)
{
	size_t i = 0;

	if (n >= 2 && s[0] == '/' && s[1] == '/')
		return 0; /* protocol-relative: resolve it */
	while (i < n && ((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
	                 (i && ((s[i] >= '0' && s[i] <= '9') || s[i] == '+' || s[i] == '-' ||
	                        s[i] == '.'))))
		i++;
	return i > 0 && i < n && s[i] == ':';
}

char *
fr_feed_resolve_html(char *html, const char *base)
{
	struct fb_buf out = {0};
	const char *p, *copied;

	if (!html || !base || !*base || (!strstr(html, "href") && !strstr(html, "src") &&
	                                 !strstr(html, "HREF") && !strstr(html, "SRC")))
		return html;
	p = copied = html;
	while ((p = strchr(p, '<')) != NULL) {
		p++;
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')))
			continue;
		while (*p && *p != '>' && !is_blank(*p))
			p++;
		/* attributes */
		while (*p && *p != '>') {
			const char *name, *val;
			size_t nn, vn;
			char q = 0;

			while (is_blank(*p) || *p == '/')
				p++;
			name = p;
			while (*p && *p != '=' && *p != '>' && !is_blank(*p) && *p != '/')
				p++;
			nn = (size_t)(p - name);
			while (is_blank(*p))
				p++;
			if (*p != '=') {
				if (nn == 0 && *p && *p != '>')
					p++;
				continue;
			}
			p++;
			while (is_blank(*p))
				p++;
			if (*p == '"' || *p == '\'')
				q = *p++;
			val = p;
			while (*p && (q ? *p != q : (!is_blank(*p) && *p != '>')))
				p++;
			vn = (size_t)(p - val);
			if (q && *p == q)
				p++;
			if (((nn == 4 && !strncasecmp(name, "href", 4)) ||
			     (nn == 3 && !strncasecmp(name, "src", 3))) &&
			    vn && val[0] != '#' && !is_url_absolute(val, vn)) {
				char *ref = strndup(val, vn), *abs = NULL;

				if (ref) {
					fr_feed_html_unescape(ref);
					abs = fr_feed_resolve(base, ref);
				}
				if (!ref || !abs || fr_fb_add(&out, copied, (size_t)(val - copied)) != 0 ||
				    fr_fb_add_escaped(&out, abs, strlen(abs), 1) != 0) {
					free(ref);
					free(abs);
					fr_fb_free(&out);
					return html;
				}
				free(ref);
				free(abs);
				copied = val + vn;
			}
		}
	}
	if (!out.p)
		return html;
	if (fr_fb_add(&out, copied, strlen(copied)) != 0) {
		fr_fb_free(&out);
		return html;
	}
	return fr_fb_take(&out);
}

int
fr_feed_utf8_valid(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s, *e = p + n;

	while (p < e) {
		unsigned c = *p;
		size_t k;
		uint32_t cp;

		if (c < 0x80) {
			p++;
			continue;
		}
		if (c >= 0xC2 && c <= 0xDF)
			k = 1, cp = c & 0x1F;
		else if (c >= 0xE0 && c <= 0xEF)
			k = 2, cp = c & 0x0F;
		else if (c >= 0xF0 && c <= 0xF4)
			k = 3, cp = c & 0x07;
		else
			return 0;
		if ((size_t)(e - p) <= k)
			return 0;
		for (size_t i = 1; i <= k; i++) {
			if ((p[i] & 0xC0) != 0x80)
				return 0;
			cp = (cp << 6) | (p[i] & 0x3F);
		}
		if ((k == 2 && cp < 0x800) || (k == 3 && (cp < 0x10000 || cp > 0x10FFFF)) ||
		    (cp >= 0xD800 && cp <= 0xDFFF))
			return 0;
		p += k + 1;
	}
	return 1;
}

char *
fr_feed_base64(const char *s, size_t n)
{
	char *out = malloc(n / 4 * 3 + 4), *w = out;
	uint32_t acc = 0;
	int bits = 0, pad = 0;

	if (!out)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		int v;

		if (is_blank(c))
			continue;
		if (c == '=') {
			pad++;
			continue;
		}
		if (pad)
			goto bad;
		if (c >= 'A' && c <= 'Z')
			v = c - 'A';
		else if (c >= 'a' && c <= 'z')
			v = c - 'a' + 26;
		else if (c >= '0' && c <= '9')
			v = c - '0' + 52;
		else if (c == '+' || c == '-')
			v = 62;
		else if (c == '/' || c == '_')
			v = 63;
		else
			goto bad;
		acc = (acc << 6) | (uint32_t)v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			*w++ = (char)((acc >> bits) & 0xFF);
		}
	}
	if (pad > 2)
		goto bad;
	*w = '\0';
	if (memchr(out, '\0', (size_t)(w - out)))
		goto bad; /* binary, not text */
	return out;
bad:
	free(out);
	return NULL;
}

/* Whether s (at '&') starts a character or entity reference. */
static int
is_reference(const char *s, size_t n)
{
	size_t i = 1;

	if (n > 2 && s[1] == '#') {
		int hex = s[2] == 'x' || s[2] == 'X';
		size_t start;

		i = hex ? 3 : 2;
		start = i;
		while (i < n && i < 16 &&
		       ((s[i] >= '0' && s[i] <= '9') ||
		        (hex && ((s[i] >= 'a' && s[i] <= 'f') || (s[i] >= 'A' && s[i] <= 'F')))))
			i++;
		return i > start && i < n && s[i] == ';';
	}
	if (i >= n || !((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') || s[i] == '_' ||
	                s[i] == ':' || (unsigned char)s[i] >= 0x80))
		return 0;
	while (i < n && i < 64 &&
	       ((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
	        (s[i] >= '0' && s[i] <= '9') || s[i] == '_' || s[i] == ':' || s[i] == '.' ||
	        s[i] == '-' || (unsigned char)s[i] >= 0x80))
		i++;
	return i < n && s[i] == ';';
}

/* The first n-byte needle in hay[0..hn), or NULL (memmem is a GNU
 * extension). */
static const char *
find_seq(const char *hay, size_t hn, const char *needle, size_t n)
{
	const char *p = hay, *e = hay + hn;

	while (n && (size_t)(e - p) >= n && (p = memchr(p, needle[0], (size_t)(e - p - n + 1))) != NULL) {
		if (!memcmp(p, needle, n))
			return p;
		p++;
	}
	return NULL;
}

/* End (one past) of the comment, CDATA section or processing instruction
 * starting at buf[k] == '<', or 0 when none starts there. */
static size_t
construct_end(const char *buf, size_t len, size_t k)
{
	static const struct {
		const char *open, *close;
	} cs[] = {{"<![CDATA[", "]]>"}, {"<!--", "-->"}, {"<?", "?>"}};

	for (size_t i = 0; i < sizeof(cs) / sizeof(cs[0]); i++) {
		size_t on = strlen(cs[i].open), cn = strlen(cs[i].close);
		const char *e;

		if (len - k < on || memcmp(buf + k, cs[i].open, on))
			continue;
		e = find_seq(buf + k + on, len - k - on, cs[i].close, cn);
		return e ? (size_t)(e - buf) + cn : len;
	}
	return 0;
}

/* The code point of the HTML entity named by the reference at s ('&'),
 * or 0 when it is an XML predefined entity or no HTML entity. */
static uint32_t
html_entity_ref(const char *s, size_t n)
{
	char name[16];
	size_t k = 0;
	const htmlEntityDesc *d;

	if (n < 2 || s[1] == '#')
		return 0;
	/* XML's own five, the common case, without a copy */
	if ((n >= 4 && (!memcmp(s + 1, "lt;", 3) || !memcmp(s + 1, "gt;", 3))) ||
	    (n >= 5 && !memcmp(s + 1, "amp;", 4)) ||
	    (n >= 6 && (!memcmp(s + 1, "quot;", 5) || !memcmp(s + 1, "apos;", 5))))
		return 0;
	while (k + 1 < n && s[k + 1] != ';' && k < sizeof(name) - 1) {
		name[k] = s[k + 1];
		k++;
	}
	if (k + 1 >= n || s[k + 1] != ';')
		return 0;
	name[k] = '\0';
	if (!strcmp(name, "amp") || !strcmp(name, "lt") || !strcmp(name, "gt") ||
	    !strcmp(name, "quot") || !strcmp(name, "apos"))
		return 0;
	d = htmlEntityLookup((const xmlChar *)name);
	return d ? d->value : 0;
}

/* Whether buf[j] lies in a comment, CDATA section, PI or the DOCTYPE;
 * *pos and *skip_until carry the scan between calls (j only grows). */
static int
in_construct(const char *buf, size_t len, size_t j, size_t *pos, size_t *skip_until,
             size_t dt_start, size_t dt_end)
{
	if (j < *skip_until)
		return 1;
	if (j >= dt_start && j < dt_end)
		return 1;
	while (*pos < j) {
		const char *lt = memchr(buf + *pos, '<', j - *pos);
		size_t k, end;

		if (!lt) {
			*pos = j;
			break;
		}
		k = (size_t)(lt - buf);
		end = k == dt_start ? dt_end : construct_end(buf, len, k);
		if (!end) {
			*pos = k + 1;
			continue;
		}
		*pos = end;
		if (end > j) {
			*skip_until = end;
			return 1;
		}
	}
	return 0;
}

/* Internal general entities declared in the DOCTYPE. */
#define ENT_MAX_DECLS 1024
#define ENT_MAX_DEPTH 8

struct ent_decl {
	const char *name, *val; /* into the document */
	size_t nn, vn;
	int external;           /* SYSTEM/PUBLIC: never read */
};

struct ent_table {
	struct ent_decl d[ENT_MAX_DECLS];
	size_t n;
};

static int
is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Finds the DOCTYPE before the root element: its span [*s, *e), and the
 * internal general entities it declares into t. 0 when there is none. */
static int
read_doctype(const char *buf, size_t len, size_t *s, size_t *e, struct ent_table *t)
{
	size_t i = 0, k;

	t->n = 0;
	for (;;) {
		const char *lt = memchr(buf + i, '<', len - i);
		size_t end;

		if (!lt)
			return 0;
		k = (size_t)(lt - buf);
		if (len - k >= 9 && !memcmp(buf + k, "<!DOCTYPE", 9))
			break;
		end = construct_end(buf, len, k);
		if (!end)
			return 0; /* an element: no DOCTYPE */
		i = end;
	}
	*s = i = k;
	/* up to '[' or '>' */
	while (i < len && buf[i] != '[' && buf[i] != '>')
		i++;
	if (i < len && buf[i] == '[') {
		i++;
		while (i < len && buf[i] != ']') {
			size_t end;

			if (buf[i] == '<' && (end = construct_end(buf, len, i)) != 0) {
				i = end;
				continue;
			}
			if (len - i > 9 && !memcmp(buf + i, "<!ENTITY", 8) && is_space(buf[i + 8])) {
				struct ent_decl d = {0};
				size_t p = i + 8;
				char q;

				while (p < len && is_space(buf[p]))
					p++;
				if (p < len && buf[p] == '%') { /* parameter entity: not ours */
					d.external = -1;
					p++;
					while (p < len && is_space(buf[p]))
						p++;
				}
				d.name = buf + p;
				while (p < len && !is_space(buf[p]) && buf[p] != '>' && buf[p] != '"' &&
				       buf[p] != '\'')
					p++;
				d.nn = (size_t)(buf + p - d.name);
				while (p < len && is_space(buf[p]))
					p++;
				if (p < len && (buf[p] == '"' || buf[p] == '\'')) {
					q = buf[p++];
					d.val = buf + p;
					while (p < len && buf[p] != q)
						p++;
					d.vn = (size_t)(buf + p - d.val);
					if (p < len)
						p++;
				} else if (d.external == 0) {
					d.external = 1;
				}
				while (p < len && buf[p] != '>') {
					if (buf[p] == '"' || buf[p] == '\'') {
						const char *c = memchr(buf + p + 1, buf[p], len - p - 1);

						p = c ? (size_t)(c - buf) : len;
					}
					p++;
				}
				if (d.external >= 0 && d.nn && t->n < ENT_MAX_DECLS)
					t->d[t->n++] = d;
				i = p < len ? p + 1 : len;
				continue;
			}
			if (buf[i] == '"' || buf[i] == '\'') {
				const char *c = memchr(buf + i + 1, buf[i], len - i - 1);

				i = c ? (size_t)(c - buf) + 1 : len;
				continue;
			}
			i++;
		}
		if (i < len)
			i++;
		while (i < len && buf[i] != '>')
			i++;
	}
	*e = i < len ? i + 1 : len;
	return 1;
}

/* Whether an entity's value holds no entity reference (character
 * references such as &#179; are fine). */
static int
flat_value(const struct ent_decl *d)
{
	for (size_t i = 0; i < d->vn; i++)
		if (d->val[i] == '&' && !(i + 1 < d->vn && d->val[i + 1] == '#'))
			return 0;
	return 1;
}

static const struct ent_decl *
ent_find(const struct ent_table *t, const char *name, size_t n)
{
	/* The first declaration binds (XML 1.0, 4.2). */
	for (size_t i = 0; i < t->n; i++)
		if (t->d[i].nn == n && !memcmp(t->d[i].name, name, n))
			return &t->d[i];
	return NULL;
}

struct fix_ctx {
	struct fb_buf o;
	const struct ent_table *t;
	size_t budget; /* bytes entity expansion may still add */
	struct feed_fix_info *info;
	const char *doc;
};

static int fix_span(struct fix_ctx *c, const char *buf, size_t len, int depth, int top);

static unsigned long
line_of(const char *doc, const char *p)
{
	unsigned long nl = 1;

	for (const char *q = doc; (q = memchr(q, '\n', (size_t)(p - q))) != NULL; q++)
		nl++;
	return nl;
}

/* Copies buf[0..len) into c->o with its references prepared; top is the
 * document itself (comments, CDATA and the DOCTYPE are skipped there). */
static int
fix_span(struct fix_ctx *c, const char *buf, size_t len, int depth, int top)
{
	size_t i = 0, pos = 0, skip_until = 0, copied = 0;
	size_t dt_s = (size_t)-1, dt_e = (size_t)-1;

	if (top && c->info->doctype_end) {
		dt_s = c->info->doctype_start;
		dt_e = c->info->doctype_end;
	}
	while (i < len) {
		const char *amp = memchr(buf + i, '&', len - i);
		size_t j, skip = 0;
		uint32_t cp = 0;
		char rep[16];
		const struct ent_decl *d = NULL;
		int undef = 0;

		if (!amp)
			break;
		j = (size_t)(amp - buf);
		i = j + 1;
		if (is_reference(amp, len - j)) {
			const char *semi = memchr(amp, ';', len - j);

			skip = (size_t)(semi - amp) + 1;
			if (amp[1] == '#') {
				/* &#0; and other characters XML forbids: U+FFFD */
				unsigned long v = amp[2] == 'x' || amp[2] == 'X'
				                      ? strtoul(amp + 3, NULL, 16)
				                      : strtoul(amp + 2, NULL, 10);

				if (!((v < 0x20 && v != 9 && v != 10 && v != 13) || (v >= 0xD800 && v < 0xE000) ||
				      v == 0xFFFE || v == 0xFFFF || v > 0x10FFFF))
					continue;
				cp = 0xFFFD;
				if (top && !c->info->nul_line)
					c->info->nul_line = line_of(c->doc, amp);
			} else if ((cp = html_entity_ref(amp, len - j)) == 0) {
				size_t nn = skip - 2;

				if ((nn == 3 && !memcmp(amp + 1, "amp", 3)) || (nn == 2 && !memcmp(amp + 1, "lt", 2)) ||
				    (nn == 2 && !memcmp(amp + 1, "gt", 2)) || (nn == 4 && !memcmp(amp + 1, "quot", 4)) ||
				    (nn == 4 && !memcmp(amp + 1, "apos", 4)))
					continue;
				d = ent_find(c->t, amp + 1, nn);
				if (!d || d->external || !flat_value(d)) {
					undef = 1;
					d = NULL;
				}
			}
		}
		if (top && in_construct(buf, len, j, &pos, &skip_until, dt_s, dt_e))
			continue;
		if (fr_fb_add(&c->o, buf + copied, j - copied) != 0)
			return -1;
		if (d && !d->external) {
			/* an internal entity: its text, within the budget. As
			 * feedparser, only a value without entity references
			 * (character references allowed) is expanded; nested
			 * ones (billion laughs) stay as text, above. */
			if (depth >= ENT_MAX_DEPTH || d->vn > c->budget) {
				if (!c->info->cut_line)
					c->info->cut_line = top ? line_of(c->doc, amp) : 1;
			} else {
				c->budget -= d->vn;
				c->info->n_expanded++;
				if (fix_span(c, d->val, d->vn, depth + 1, 0) != 0)
					return -1;
			}
		} else if (undef) {
			/* kept as the text it is: "&doesnotexist;" */
			if (top && !c->info->undef_line)
				c->info->undef_line = line_of(c->doc, amp);
			if (!c->info->undef_name[0])
				snprintf(c->info->undef_name, sizeof(c->info->undef_name), "%.*s",
				         (int)(skip - 2), amp + 1);
			if (fr_fb_add(&c->o, "&amp;", 5) != 0 || fr_fb_add(&c->o, amp + 1, skip - 1) != 0)
				return -1;
		} else if (cp) {
			/* "&nbsp;" -> "&#160;": libxml2 reads it in text and
			 * attributes alike, and nothing is declared. */
			snprintf(rep, sizeof(rep), "&#%u;", (unsigned)cp);
			if (fr_fb_add(&c->o, rep, strlen(rep)) != 0)
				return -1;
		} else {
			if (top && !c->info->bare_line)
				c->info->bare_line = line_of(c->doc, amp);
			if (fr_fb_add(&c->o, "&amp;", 5) != 0)
				return -1;
			skip = 1;
		}
		copied = j + skip;
		i = copied;
	}
	if (!top || c->o.p || copied)
		return fr_fb_add(&c->o, buf + copied, len - copied);
	return 0;
}

/* ---- attribute cap ----
 * libxml2 2.9 checks each attribute of a start tag against all the ones
 * before it (quadratic: 200,000 attributes on one element took 25 s).
 * Start tags with more than FR_FEED_MAX_ATTRS attributes lose the rest
 * before libxml2 reads them. */

static int
name_byte(unsigned char c)
{
	return c != '=' && c != '>' && c != '/' && c != '<' && !is_space((char)c);
}

/* At buf[k] == '<' opening an element: the end (one past '>', or len) of
 * its start tag, and in *cut the end of its FR_FEED_MAX_ATTRS-th attribute
 * when it has more (else 0). */
static size_t
start_tag_end(const char *buf, size_t len, size_t k, size_t *cut)
{
	size_t i = k + 1, n = 0, c = 0, end;

	while (i < len && name_byte((unsigned char)buf[i]))
		i++;
	for (;;) {
		while (i < len && is_space(buf[i]))
			i++;
		if (i >= len) {
			end = len;
			break;
		}
		if (buf[i] == '>') {
			end = i + 1;
			break;
		}
		if (buf[i] == '<') {
			end = i; /* ill-formed: the next tag starts */
			break;
		}
		if (buf[i] == '/') {
			i++;
			continue;
		}
		while (i < len && name_byte((unsigned char)buf[i]))
			i++;
		while (i < len && is_space(buf[i]))
			i++;
		if (i < len && buf[i] == '=') {
			i++;
			while (i < len && is_space(buf[i]))
				i++;
			if (i < len && (buf[i] == '"' || buf[i] == '\'')) {
				const char *q = memchr(buf + i + 1, buf[i], len - i - 1);

				i = q ? (size_t)(q - buf) + 1 : len;
			} else {
				while (i < len && buf[i] != '>' && !is_space(buf[i]))
					i++;
			}
		}
		if (++n == FR_FEED_MAX_ATTRS)
			c = i;
	}
	*cut = n > FR_FEED_MAX_ATTRS ? c : 0;
	return end;
}

int
fr_feed_cap_attributes(const char *buf, size_t len, char **out, size_t *out_len, unsigned long *line)
{
	struct fb_buf o = {0};
	size_t i = 0, copied = 0;

	*out = NULL;
	*line = 0;
	while (i < len) {
		const char *lt = memchr(buf + i, '<', len - i);
		size_t k, end, cut;

		if (!lt)
			break;
		k = (size_t)(lt - buf);
		if (k + 1 < len && buf[k + 1] == '!' && len - k >= 9 && !memcmp(buf + k, "<!DOCTYPE", 9)) {
			size_t s, e;
			struct ent_table *t = calloc(1, sizeof(*t));

			if (!t) {
				fr_fb_free(&o);
				return -1;
			}
			end = read_doctype(buf + k, len - k, &s, &e, t) ? k + e : k + 1;
			free(t);
			i = end;
			continue;
		}
		end = construct_end(buf, len, k);
		if (end) {
			i = end;
			continue;
		}
		if (k + 1 >= len || buf[k + 1] == '/' || buf[k + 1] == '!') {
			i = k + 1;
			continue;
		}
		end = start_tag_end(buf, len, k, &cut);
		if (cut && end > cut) {
			size_t tail = end;

			/* the tag's "/>" or ">" kept */
			if (buf[end - 1] == '>')
				tail = end - 1 > cut && buf[end - 2] == '/' ? end - 2 : end - 1;
			if (!*line)
				*line = line_of(buf, buf + k);
			if (fr_fb_add(&o, buf + copied, cut - copied) != 0) {
				fr_fb_free(&o);
				return -1;
			}
			copied = tail;
		}
		i = end > k ? end : k + 1;
	}
	if (!o.p)
		return 0;
	if (fr_fb_add(&o, buf + copied, len - copied) != 0) {
		fr_fb_free(&o);
		return -1;
	}
	*out_len = o.n;
	*out = fr_fb_take(&o);
	return 1;
}

int
fr_feed_fix_references(const char *buf, size_t len, char **out, size_t *out_len,
                    struct feed_fix_info *info)
{
	struct fix_ctx c;
	struct ent_table *t = calloc(1, sizeof(*t));
	int rc;

	*out = NULL;
	memset(info, 0, sizeof(*info));
	if (!t)
		return -1;
	memset(&c, 0, sizeof(c));
	if (read_doctype(buf, len, &info->doctype_start, &info->doctype_end, t) == 0)
		info->doctype_start = info->doctype_end = 0;
	c.t = t;
	c.info = info;
	c.doc = buf;
	/* Expansion adds at most 4 times the document, or 8 MiB. */
	c.budget = len < (2u << 20) ? (8u << 20) : 4 * len;
	rc = fix_span(&c, buf, len, 0, 1);
	free(t);
	if (rc != 0) {
		fr_fb_free(&c.o);
		return -1;
	}
	if (!c.o.p)
		return 0;
	*out_len = c.o.n;
	*out = fr_fb_take(&c.o);
	return 1;
}

/* ---- the builder ---- */

int
fr_feedb_init(struct feedb *b, const struct fr_feed_opts *o)
{
	memset(b, 0, sizeof(*b));
	b->f = calloc(1, sizeof(*b->f));
	if (!b->f)
		return -1;
	b->f->updated_s = FR_DATE_NONE;
	b->f->ttl_s = -1;
	b->f->update_period_s = -1;
	memset(b->frank, RANK_NONE, sizeof(b->frank));
	b->base_url = o ? o->base_url : NULL;
	b->max_bytes = o && o->max_bytes ? o->max_bytes : FR_FEED_MAX_BYTES_DEFAULT;
	b->max_items = o && o->max_items ? o->max_items : FR_FEED_MAX_ITEMS_DEFAULT;
	b->fp_result = o ? o->fp_result : 0;
	b->fp_stream_flags = o && o->fp_result && o->fp_stream ? o->fp_json_flags : -1;
	b->lazy_summary = o ? o->summary_if_no_content : 0;
	return 0;
}

static void item_free(struct fr_feed_item *it);

struct item_rank {
	int64_t t;
	size_t i;
};

static int
cmp_newest(const void *a, const void *b)
{
	const struct item_rank *x = a, *y = b;

	if (x->t != y->t)
		return x->t > y->t ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

static int
cmp_index(const void *a, const void *b)
{
	const struct item_rank *x = a, *y = b;

	return x->i < y->i ? -1 : x->i > y->i;
}

/* Keeps the newest max_items of the closed items, in document order. */
static void
prune_items(struct feedb *b)
{
	struct fr_feed *f = b->f;
	size_t n = f->n_items, keep = b->max_items;
	struct item_rank *r;
	struct fr_feed_item *kept;

	if (n <= keep)
		return;
	r = malloc(n * sizeof(*r));
	kept = r ? malloc(keep * sizeof(*kept)) : NULL;
	if (!kept) {
		free(r);
		b->oom = 1;
		return;
	}
	for (size_t i = 0; i < n; i++) {
		const struct fr_feed_item *it = &f->items[i];

		r[i].t = it->published_s != FR_DATE_NONE ? it->published_s : it->updated_s;
		r[i].i = i;
	}
	qsort(r, n, sizeof(*r), cmp_newest);
	for (size_t i = keep; i < n; i++)
		item_free(&f->items[r[i].i]);
	qsort(r, keep, sizeof(*r), cmp_index);
	for (size_t i = 0; i < keep; i++)
		kept[i] = f->items[r[i].i];
	memcpy(f->items, kept, keep * sizeof(*kept));
	f->n_items_cut += n - keep;
	f->n_items = keep;
	free(kept);
	free(r);
}

static int
is_http_url(const char *s)
{
	return s && (!strncasecmp(s, "http://", 7) || !strncasecmp(s, "https://", 8));
}

void
fr_feedb_item_end(struct feedb *b)
{
	struct fr_feed_item *it = b->cur;

	if (!it)
		return;
	if (b->on_item_end)
		b->on_item_end(b->on_item_end_ctx);
	/* An RSS guid that is a permalink is the link when there is none. */
	if (!it->link && it->id && b->guid_permalink && is_http_url(it->id)) {
		it->link = strdup(it->id);
		if (!it->link)
			b->oom = 1;
	}
	b->cur = NULL;
}

int
fr_feedb_item_begin(struct feedb *b)
{
	struct fr_feed *f = b->f;
	struct fr_feed_item *it;

	fr_feedb_item_end(b);
	/* Over the cap: prune to it each time the count doubles it, so
	 * memory stays within twice the cap and time stays linear. */
	if (b->max_items != SIZE_MAX && f->n_items >= 2 * b->max_items)
		prune_items(b);
	if (f->n_items == b->cap_items) {
		size_t cap = b->cap_items ? b->cap_items * 2 : 16;
		struct fr_feed_item *p = realloc(f->items, cap * sizeof(*p));

		if (!p) {
			b->oom = 1;
			return -1;
		}
		f->items = p;
		b->cap_items = cap;
	}
	it = &f->items[f->n_items++];
	memset(it, 0, sizeof(*it));
	it->published_s = it->updated_s = FR_DATE_NONE;
	it->n_comments = -1;
	memset(b->irank, RANK_NONE, sizeof(b->irank));
	b->guid_permalink = 1;
	b->cap_tags = b->cap_enc = 0;
	b->cur = it;
	return 0;
}

static char **
item_slot(struct fr_feed_item *it, int field)
{
	switch (field) {
	case IF_TITLE:
		return &it->title;
	case IF_LINK:
		return &it->link;
	case IF_AUTHOR:
		return &it->author;
	case IF_SUMMARY:
		return &it->summary;
	case IF_CONTENT:
		return &it->content;
	case IF_ID:
		return &it->id;
	case IF_COMMENTS:
		return &it->comments_url;
	default:
		return NULL;
	}
}

static char **
feed_slot(struct fr_feed *f, int field)
{
	switch (field) {
	case FF_TITLE:
		return &f->title;
	case FF_LINK:
		return &f->link;
	case FF_SUBTITLE:
		return &f->subtitle;
	case FF_LANGUAGE:
		return &f->language;
	case FF_AUTHOR:
		return &f->author;
	case FF_RIGHTS:
		return &f->rights;
	case FF_INFO:
		return &f->info;
	default:
		return NULL;
	}
}

static void
set_ranked(char **slot, unsigned char *rank, char *v, int r)
{
	if (!slot || !v || !*v || (*slot && r >= *rank)) {
		free(v);
		return;
	}
	free(*slot);
	*slot = v;
	*rank = (unsigned char)r;
}

void
fr_feedb_item_str(struct feedb *b, int field, char *v, int rank)
{
	if (!b->cur) {
		free(v);
		return;
	}
	set_ranked(item_slot(b->cur, field), &b->irank[field], v, rank);
}

void
fr_feedb_feed_str(struct feedb *b, int field, char *v, int rank)
{
	set_ranked(feed_slot(b->f, field), &b->frank[field], v, rank);
}

void
fr_feedb_item_date(struct feedb *b, int field, const char *s, size_t n, int rank)
{
	int64_t t;
	int64_t *slot;

	if (!b->cur || (field != IF_PUB && field != IF_UPD))
		return;
	slot = field == IF_PUB ? &b->cur->published_s : &b->cur->updated_s;
	if (*slot != FR_DATE_NONE && rank >= b->irank[field])
		return;
	if (fr_date_parse(s, n, &t) != 0)
		return;
	*slot = t;
	b->irank[field] = (unsigned char)rank;
}

void
fr_feedb_feed_date(struct feedb *b, const char *s, size_t n, int rank)
{
	int64_t t;

	if (b->f->updated_s != FR_DATE_NONE && rank >= b->frank[FF_UPDATED])
		return;
	if (fr_date_parse(s, n, &t) != 0)
		return;
	b->f->updated_s = t;
	b->frank[FF_UPDATED] = (unsigned char)rank;
}

void
fr_feedb_item_tag(struct feedb *b, char *v)
{
	struct fr_feed_item *it = b->cur;

	if (!it || !v || !*fr_feed_trim(v)) {
		free(v);
		return;
	}
	for (size_t i = 0; i < it->n_tags; i++) {
		if (!strcmp(it->tags[i], v)) {
			free(v);
			return;
		}
	}
	if (it->n_tags == b->cap_tags) {
		size_t cap = b->cap_tags ? b->cap_tags * 2 : 4;
		char **p = realloc(it->tags, cap * sizeof(*p));

		if (!p) {
			free(v);
			b->oom = 1;
			return;
		}
		it->tags = p;
		b->cap_tags = cap;
	}
	it->tags[it->n_tags++] = v;
}

void
fr_feedb_item_enclosure(struct feedb *b, char *url, char *type, int64_t length)
{
	struct fr_feed_item *it = b->cur;

	if (!it || !url || !*url) {
		free(url);
		free(type);
		return;
	}
	for (size_t i = 0; i < it->n_enclosures; i++) {
		if (!strcmp(it->enclosures[i].url, url)) {
			free(url);
			free(type);
			return;
		}
	}
	if (it->n_enclosures == b->cap_enc) {
		size_t cap = b->cap_enc ? b->cap_enc * 2 : 2;
		struct fr_feed_enclosure *p = realloc(it->enclosures, cap * sizeof(*p));

		if (!p) {
			free(url);
			free(type);
			b->oom = 1;
			return;
		}
		it->enclosures = p;
		b->cap_enc = cap;
	}
	it->enclosures[it->n_enclosures].url = url;
	it->enclosures[it->n_enclosures].type = type && *type ? type : NULL;
	if (type && !*type)
		free(type);
	it->enclosures[it->n_enclosures].length = length;
	it->n_enclosures++;
}

void
fr_feedb_bozo(struct feedb *b, const char *fmt, ...)
{
	char msg[FR_ERRLEN];
	va_list ap;

	if (b->f->bozo)
		return;
	b->f->bozo = 1;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	b->f->bozo_exception = strdup(msg);
	if (!b->f->bozo_exception)
		b->oom = 1;
}

/* s as well-formed UTF-8: each invalid byte becomes U+FFFD. Returns s
 * when it already is, else a new string (s freed); NULL on out of memory
 * (s freed). */
char *
fr_feed_utf8_fix(char *s)
{
	size_t n, k = 0;
	char *out, *w;
	const unsigned char *p;

	if (!s)
		return s;
	n = strlen(s);
	if (fr_feed_utf8_valid(s, n))
		return s;
	out = malloc(3 * n + 1);
	if (!out) {
		free(s);
		return NULL;
	}
	w = out;
	p = (const unsigned char *)s;
	while (k < n) {
		size_t len = 1;

		if (p[k] < 0x80) {
			*w++ = (char)p[k++];
			continue;
		}
		/* the longest valid sequence starting here, if any */
		for (size_t l = 2; l <= 4 && k + l <= n; l++) {
			if (fr_feed_utf8_valid(s + k, l)) {
				len = l;
				break;
			}
		}
		if (len > 1) {
			memcpy(w, s + k, len);
			w += len;
		} else {
			w += fr_feed_utf8(0xFFFD, w);
		}
		k += len;
	}
	*w = '\0';
	free(s);
	return out;
}

/* Every string of f as well-formed UTF-8 (after recovery or from JSON,
 * where the parsers do not promise it). */
static void
sanitize_all(struct feedb *b)
{
	struct fr_feed *f = b->f;
	char **feed_strs[] = {&f->title, &f->link, &f->subtitle, &f->language, &f->author};

	for (size_t i = 0; i < sizeof(feed_strs) / sizeof(feed_strs[0]); i++)
		if (*feed_strs[i] && !(*feed_strs[i] = fr_feed_utf8_fix(*feed_strs[i])))
			b->oom = 1;
	for (size_t i = 0; i < f->n_items; i++) {
		struct fr_feed_item *it = &f->items[i];
		char **strs[] = {&it->id, &it->link, &it->title, &it->author, &it->summary, &it->content,
		                 &it->comments_url};

		for (size_t k = 0; k < sizeof(strs) / sizeof(strs[0]); k++)
			if (*strs[k] && !(*strs[k] = fr_feed_utf8_fix(*strs[k])))
				b->oom = 1;
		for (size_t k = 0; k < it->n_tags; k++)
			if (!(it->tags[k] = fr_feed_utf8_fix(it->tags[k]))) {
				b->oom = 1;
				it->tags[k] = strdup("");
			}
		for (size_t k = 0; k < it->n_enclosures; k++) {
			struct fr_feed_enclosure *e = &it->enclosures[k];

			if (!(e->url = fr_feed_utf8_fix(e->url))) {
				b->oom = 1;
				e->url = strdup("");
			}
			if (e->type && !(e->type = fr_feed_utf8_fix(e->type)))
				b->oom = 1;
		}
	}
}

/* "sha1:" + hex of title "\n" content (or summary). */
static char *
hash_id(const struct fr_feed_item *it)
{
	const char *t = it->title ? it->title : "";
	const char *c = it->content ? it->content : it->summary ? it->summary : "";
	size_t tn = strlen(t), cn = strlen(c);
	char *data = malloc(tn + cn + 2), *id;
	char hex[41];

	if (!data)
		return NULL;
	memcpy(data, t, tn);
	data[tn] = '\n';
	memcpy(data + tn + 1, c, cn + 1);
	fr_sha1_hex(data, tn + 1 + cn, hex);
	free(data);
	id = malloc(5 + 41);
	if (id) {
		memcpy(id, "sha1:", 5);
		memcpy(id + 5, hex, 41);
	}
	return id;
}

/* Whether a link's scheme runs code or carries its own content. */
static int
unsafe_scheme(const char *u)
{
	char s[16];
	size_t n = 0;

	if (!u)
		return 0;
	/* browsers skip blanks and control characters, and ignore tabs and
	 * newlines inside the scheme */
	for (; *u && n < sizeof(s) - 1 && *u != ':'; u++) {
		unsigned char c = (unsigned char)*u;

		if (c <= 0x20)
			continue;
		s[n++] = (char)(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
	}
	if (*u != ':')
		return 0;
	s[n] = '\0';
	return !strcmp(s, "javascript") || !strcmp(s, "data") || !strcmp(s, "vbscript");
}

static void
refuse(struct fr_feed *f, struct fr_feed_item *it, char **slot)
{
	if (!*slot || !unsafe_scheme(*slot))
		return;
	f->n_links_refused++;
	if (!it->refused_link) {
		it->refused_link = *slot;
	} else {
		free(*slot);
	}
	*slot = NULL;
}

/* javascript:, data: and vbscript: links are never an item's link,
 * comments link or enclosure: kept aside in refused_link. */
static void
refuse_links(struct fr_feed *f, struct fr_feed_item *it)
{
	size_t w = 0;

	refuse(f, it, &it->link);
	refuse(f, it, &it->comments_url);
	for (size_t k = 0; k < it->n_enclosures; k++) {
		refuse(f, it, &it->enclosures[k].url);
		if (!it->enclosures[k].url) {
			free(it->enclosures[k].type);
			continue;
		}
		it->enclosures[w++] = it->enclosures[k];
	}
	it->n_enclosures = w;
}

void
fr_feedb_finish(struct feedb *b)
{
	struct fr_feed *f = b->f;

	fr_feedb_item_end(b);
	if (b->max_items != SIZE_MAX)
		prune_items(b);
	/* summary_if_no_content: the XML front end did not make them; JSON
	 * Feed's are dropped here */
	for (size_t i = 0; b->lazy_summary && i < f->n_items; i++)
		if (f->items[i].content && f->items[i].summary) {
			free(f->items[i].summary);
			f->items[i].summary = NULL;
		}
	/* libxml2 delivers UTF-8 for a well-formed document; after an error
	 * its recovery can pass raw bytes on (an encoding switch), and json-c
	 * does not check strings. */
	if (f->bozo || (f->version && !strncmp(f->version, "json", 4)))
		sanitize_all(b);
	fr_feed_trim(f->title);
	fr_feed_trim(f->link);
	if (unsafe_scheme(f->link)) {
		free(f->link);
		f->link = NULL;
		f->n_links_refused++;
	}
	fr_feed_trim(f->subtitle);
	fr_feed_trim(f->language);
	fr_feed_trim(f->author);
	for (size_t i = 0; i < f->n_items; i++) {
		struct fr_feed_item *it = &f->items[i];

		fr_feed_trim(it->id);
		fr_feed_trim(it->title);
		fr_feed_trim(it->author);
		fr_feed_trim(it->summary);
		fr_feed_trim(it->content);
		if (it->id && !*it->id) {
			free(it->id);
			it->id = NULL;
		}
		refuse_links(f, it);
		if (!it->id && it->link && *it->link)
			it->id = strdup(it->link);
		if (!it->id)
			it->id = hash_id(it);
		if (!it->id)
			b->oom = 1;
	}
	if (!f->encoding)
		f->encoding = strdup("utf-8");
	if (!f->version)
		f->version = strdup("");
	if (!f->encoding || !f->version)
		b->oom = 1;
}

void
fr_feedb_abort(struct feedb *b)
{
	fr_feed_free(b->f);
	b->f = NULL;
	b->cur = NULL;
}

/* ---- public ---- */

static void
item_free(struct fr_feed_item *it)
{
	free(it->id);
	free(it->link);
	free(it->title);
	free(it->author);
	free(it->summary);
	free(it->content);
	free(it->comments_url);
	free(it->refused_link);
	for (size_t k = 0; k < it->n_tags; k++)
		free(it->tags[k]);
	free(it->tags);
	for (size_t k = 0; k < it->n_enclosures; k++) {
		free(it->enclosures[k].url);
		free(it->enclosures[k].type);
	}
	free(it->enclosures);
}

void
fr_feed_free(struct fr_feed *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->n_items; i++)
		item_free(&f->items[i]);
	free(f->items);
	free(f->version);
	free(f->title);
	free(f->link);
	free(f->subtitle);
	free(f->language);
	free(f->encoding);
	free(f->author);
	free(f->hub);
	free(f->self);
	free(f->rights);
	free(f->info);
	free(f->bozo_exception);
	json_object_put(f->fp_feed);
	json_object_put(f->fp_entries);
	for (size_t i = 0; f->fp_entry_texts && i < f->fp_n_entries; i++)
		free(f->fp_entry_texts[i]);
	free(f->fp_entry_texts);
	free(f);
}

/* The first byte that is not a UTF-8 BOM or a blank. */
static size_t
skip_bom_blanks(const char *buf, size_t len)
{
	size_t i = 0;

	if (len >= 3 && (unsigned char)buf[0] == 0xEF && (unsigned char)buf[1] == 0xBB &&
	    (unsigned char)buf[2] == 0xBF)
		i = 3;
	while (i < len && is_blank(buf[i]))
		i++;
	return i;
}

int
fr_feed_parse(const char *buf, size_t len, const struct fr_feed_opts *opts, struct fr_feed **out,
              char *err, size_t errlen)
{
	struct feedb b;
	size_t max_bytes = opts && opts->max_bytes ? opts->max_bytes : FR_FEED_MAX_BYTES_DEFAULT;
	unsigned max_depth = opts && opts->max_depth ? opts->max_depth : FR_FEED_MAX_DEPTH_DEFAULT;
	size_t i;
	int rc;

	*out = NULL;
	if (!buf && len)
		return fr_errf(err, errlen, "not a feed: no data");
	if (len > max_bytes)
		return fr_errf(err, errlen, "feed is %zu bytes, over the limit of %zu", len, max_bytes);
	i = skip_bom_blanks(buf, len);
	if (i == len)
		return fr_errf(err, errlen, "not a feed: empty document");
	if (buf[i] != '<' && buf[i] != '{' && buf[i] != '[' && buf[i] != '\0' &&
	    !(len >= 2 && (((unsigned char)buf[0] == 0xFE && (unsigned char)buf[1] == 0xFF) ||
	                   ((unsigned char)buf[0] == 0xFF && (unsigned char)buf[1] == 0xFE)))) {
		/* Neither XML (in any encoding libxml2 sniffs) nor JSON: say
		 * what it looks like rather than the XML parser's complaint. */
		size_t n = len - i < 512 ? len - i : 512, ctl = 0;
		const unsigned char *u = (const unsigned char *)buf + i;

		for (size_t k = 0; k < n; k++)
			ctl += u[k] < 0x20 && u[k] != '\t' && u[k] != '\n' && u[k] != '\r';
		if (ctl)
			return fr_errf(err, errlen,
			               "not a feed: binary data at byte %zu (starts %02x %02x %02x %02x), not XML or JSON",
			               i, u[0], n > 1 ? u[1] : 0, n > 2 ? u[2] : 0, n > 3 ? u[3] : 0);
		return fr_errf(err, errlen, "not a feed: text at byte %zu that starts neither XML ('<') nor JSON ('{'): \"%.*s\"",
		               i, (int)(n < 24 ? n : 24), (const char *)u);
	}
	if (fr_feedb_init(&b, opts) != 0)
		return fr_errf(err, errlen, "out of memory");
	if (buf[i] == '{' || buf[i] == '[')
		rc = fr_feed_parse_json(&b, buf + i, len - i, max_depth, err, errlen);
	else
		rc = fr_feed_parse_xml(&b, buf, len, opts, err, errlen);
	if (rc == 0) {
		fr_feedb_finish(&b);
		if (b.oom)
			rc = fr_errf(err, errlen, "out of memory");
	}
	if (rc != 0) {
		fr_feedb_abort(&b);
		return -1;
	}
	*out = b.f;
	return 0;
}

/* Skips "<?...?>", "<!--...-->" and "<!DOCTYPE ...[...]>" from p; returns the
 * position of the first element's '<', or NULL. */
static const char *
first_element(const char *p, const char *e)
{
	while (p < e) {
		while (p < e && is_blank(*p))
			p++;
		if (p >= e || *p != '<')
			return NULL;
		if (e - p >= 2 && p[1] == '?') {
			const char *q = p + 2;

			while (q + 1 < e && !(q[0] == '?' && q[1] == '>'))
				q++;
			p = q + 2;
		} else if (e - p >= 4 && !memcmp(p, "<!--", 4)) {
			const char *q = p + 4;

			while (q + 2 < e && memcmp(q, "-->", 3))
				q++;
			p = q + 3;
		} else if (e - p >= 2 && p[1] == '!') {
			int depth = 0;
			const char *q = p + 2;

			for (; q < e; q++) {
				if (*q == '[')
					depth++;
				else if (*q == ']')
					depth--;
				else if (*q == '>' && depth <= 0)
					break;
			}
			p = q + 1;
		} else {
			return p;
		}
	}
	return NULL;
}

int
fr_feed_sniff(const char *buf, size_t len)
{
	size_t i;
	const char *p, *e = buf + len, *name;
	size_t n;

	if (!buf || !len)
		return 0;
	if (len >= 2 && (((unsigned char)buf[0] == 0xFE && (unsigned char)buf[1] == 0xFF) ||
	                 ((unsigned char)buf[0] == 0xFF && (unsigned char)buf[1] == 0xFE) ||
	                 buf[0] == '\0' || buf[1] == '\0')) {
		/* UTF-16/32: let libxml2 decode it. */
		struct fr_feed *f = NULL;
		char err[FR_ERRLEN];
		int ok = fr_feed_parse(buf, len, NULL, &f, err, sizeof(err)) == 0;

		fr_feed_free(f);
		return ok;
	}
	i = skip_bom_blanks(buf, len);
	if (i < len && buf[i] == '{') {
		size_t lim = len - i < 8192 ? len - i : 8192;

		for (size_t k = i; k + 20 <= i + lim; k++)
			if (!memcmp(buf + k, "jsonfeed.org/version", 20))
				return 1;
		return 0;
	}
	p = first_element(buf + i, e);
	if (!p)
		return 0;
	name = ++p;
	while (p < e && !is_blank(*p) && *p != '>' && *p != '/')
		p++;
	n = (size_t)(p - name);
	for (size_t k = 0; k < n; k++) {
		if (name[k] == ':') {
			name += k + 1;
			n -= k + 1;
			break;
		}
	}
	return (n == 3 && !memcmp(name, "rss", 3)) || (n == 3 && !memcmp(name, "RDF", 3)) ||
	       (n == 4 && !memcmp(name, "feed", 4)) || (n == 7 && !memcmp(name, "channel", 7));
}
