/* sanitize.c - HTML fragments made safe and absolute, as feedparser does:
 * parsed by libxml2's HTML parser (a real parser, not string surgery),
 * then written back with feedparser's allow-lists of elements, attributes,
 * CSS properties and URI schemes (sanitize_lists.h), relative URIs
 * resolved against the base in force. */
#include "parse/feed_internal.h"
#include "parse/sanitize_lists.h"

#include <libxml/HTMLparser.h>
#include <libxml/tree.h>
#include <ctype.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define N(a) (sizeof(a) / sizeof((a)[0]))

static int
cmp_str(const void *k, const void *e)
{
	return strcmp((const char *)k, *(const char *const *)e);
}

static int
in_list(const char *const *list, size_t n, const char *s)
{
	return bsearch(s, list, n, sizeof(*list), cmp_str) != NULL;
}

/* The list's own spelling of s, matched without case (SVG's camelCase),
 * or NULL. */
static const char *
in_list_case(const char *const *list, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (!strcasecmp(list[i], s))
			return list[i];
	return NULL;
}

/* Whether the URI (absolute or relative) has no scheme or an acceptable one. */
static int
scheme_ok(const char *uri)
{
	const char *p = uri, *c;
	char scheme[16];
	size_t n;

	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	c = strchr(p, ':');
	if (!c)
		return 1;
	for (const char *q = p; q < c; q++)
		if (!((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') || (*q >= '0' && *q <= '9') ||
		      *q == '+' || *q == '-' || *q == '.'))
			return 1; /* no scheme: a ':' later in a relative path */
	n = (size_t)(c - p);
	if (n == 0 || n >= sizeof(scheme))
		return 0;
	memcpy(scheme, p, n);
	scheme[n] = '\0';
	return in_list(san_uri_schemes, N(san_uri_schemes), scheme);
}

int
fr_feed_html_element_ok(const char *name)
{
	return in_list(san_elements, N(san_elements), name);
}

int
fr_feed_uri_scheme_ok(const char *uri)
{
	return uri && scheme_ok(uri);
}

/* make_safe_absolute_uri(base, rel): rel resolved, "" when its scheme is
 * not acceptable. A malloc'd string or NULL on out of memory. */
static char *
safe_uri(const char *base, const char *rel)
{
	char *r;

	while (*rel == ' ' || *rel == '\t' || *rel == '\n' || *rel == '\r')
		rel++;
	r = base && *base ? fr_feed_resolve(base, rel) : strdup(rel);
	if (r && !scheme_ok(r)) {
		free(r);
		r = strdup("");
	}
	if (r) {
		size_t n = strlen(r);

		while (n && (r[n - 1] == ' ' || r[n - 1] == '\t' || r[n - 1] == '\n' || r[n - 1] == '\r'))
			r[--n] = '\0';
	}
	return r;
}

/* ---- CSS (feedparser's sanitize_style) ---- */

static regex_t re_gauntlet, re_css_value;
static int re_ready;

static void
re_init(void)
{
	if (re_ready)
		return;
	regcomp(&re_gauntlet,
	        "^([:,;#%.[:space:]a-zA-Z0-9!]|[[:alnum:]_]-[[:alnum:]_]|'[[:space:][:alnum:]_]+'|"
	        "\"[[:space:][:alnum:]_]+\"|\\([0-9,[:space:]]+\\))*$",
	        REG_EXTENDED | REG_NOSUB);
	regcomp(&re_css_value,
	        "^(#[0-9a-f]+|rgb\\([0-9]+%?,[0-9]*%?,?[0-9]*%?\\)?|"
	        "[0-9]{0,2}\\.?[0-9]{0,2}(cm|em|ex|in|mm|pc|pt|px|%|,|\\))?)$",
	        REG_EXTENDED | REG_NOSUB);
	re_ready = 1;
}

static int
css_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

static int
css_word(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
	       c == '-' || (unsigned char)c >= 0x80;
}

/* The style with only allowed declarations ("" when none or suspect). */
static char *
sanitize_style(const char *in, int svg)
{
	struct fb_buf s = {0}, o = {0};
	const char *p;
	size_t i;

	re_init();
	s.max = o.max = 0;
	if (strlen(in) > 8192)
		return strdup("");
	/* url(...) is never allowed */
	for (p = in; *p;) {
		if (!strncasecmp(p, "url", 3)) {
			const char *q = p + 3, *v;

			while (css_space(*q))
				q++;
			if (*q == '(') {
				q++;
				while (css_space(*q))
					q++;
				v = q;
				while (*q && !css_space(*q) && *q != ')')
					q++;
				while (css_space(*q))
					q++;
				if (q > v && *q == ')') {
					q++;
					while (css_space(*q))
						q++;
					fr_fb_addc(&s, ' ');
					p = q;
					continue;
				}
			}
		}
		fr_fb_addc(&s, *p++);
	}
	if (!s.p) {
		free(s.p);
		return strdup("");
	}
	if (regexec(&re_gauntlet, s.p, 0, NULL, 0) != 0)
		goto empty;
	/* nothing but "prop: value;" declarations */
	for (i = 0; s.p[i];) {
		size_t j = i, k;

		while (css_space(s.p[j]))
			j++;
		if (!s.p[j])
			break;
		k = j;
		while (css_word(s.p[k]))
			k++;
		if (k == j)
			goto empty;
		while (css_space(s.p[k]))
			k++;
		if (s.p[k] != ':')
			goto empty;
		k++;
		while (s.p[k] && s.p[k] != ':' && s.p[k] != ';')
			k++;
		if (s.p[k] == ':')
			goto empty;
		if (s.p[k] == ';')
			k++;
		i = k;
	}
	for (i = 0; s.p[i];) {
		size_t ps, pe, vs, ve;
		char prop[64];

		while (s.p[i] && !css_word(s.p[i]))
			i++;
		if (!s.p[i])
			break;
		ps = i;
		while (css_word(s.p[i]))
			i++;
		pe = i;
		while (css_space(s.p[i]))
			i++;
		if (s.p[i] != ':')
			continue;
		i++;
		while (css_space(s.p[i]))
			i++;
		vs = i;
		while (s.p[i] && s.p[i] != ':' && s.p[i] != ';')
			i++;
		ve = i;
		if (ve == vs || pe - ps >= sizeof(prop))
			continue;
		for (size_t k = 0; k < pe - ps; k++) {
			char c = s.p[ps + k];

			prop[k] = (char)(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
		}
		prop[pe - ps] = '\0';
		{
			int ok = 0;
			char *dash = strchr(prop, '-');
			size_t plen = dash ? (size_t)(dash - prop) : strlen(prop);

			if (in_list(san_css_properties, N(san_css_properties), prop)) {
				ok = 1;
			} else if ((plen == 10 && !strncmp(prop, "background", 10)) ||
			           (plen == 6 && (!strncmp(prop, "border", 6) || !strncmp(prop, "margin", 6))) ||
			           (plen == 7 && !strncmp(prop, "padding", 7))) {
				char *val = strndup(s.p + vs, ve - vs), *save = NULL;

				ok = 1;
				for (char *t = val ? strtok_r(val, " \t\n\r\f\v", &save) : NULL; t;
				     t = strtok_r(NULL, " \t\n\r\f\v", &save))
					if (!in_list(san_css_keywords, N(san_css_keywords), t) &&
					    regexec(&re_css_value, t, 0, NULL, 0) != 0) {
						ok = 0;
						break;
					}
				if (!val)
					ok = 0;
				free(val);
			} else if (svg && in_list(san_svg_properties, N(san_svg_properties), prop)) {
				ok = 1;
			}
			if (ok) {
				if (o.n)
					fr_fb_addc(&o, ' ');
				fr_fb_add(&o, s.p + ps, pe - ps);
				fr_fb_add(&o, ": ", 2);
				fr_fb_add(&o, s.p + vs, ve - vs);
				fr_fb_addc(&o, ';');
			}
		}
	}
	fr_fb_free(&s);
	return o.p ? fr_fb_take(&o) : strdup("");
empty:
	fr_fb_free(&s);
	fr_fb_free(&o);
	return strdup("");
}

/* ---- the walk ---- */

struct san {
	struct fb_buf o;
	const char *base;
	int sanitize;
	int keeprefs; /* FEED_SAN_KEEPREFS */
	int mathml, svg;
	int oom;
};

struct attr {
	char *name; /* lower case, or the list's spelling */
	char *value;
};

static int
cmp_attr(const void *a, const void *b)
{
	const struct attr *x = a, *y = b;

	return strcmp(x->name ? x->name : "", y->name ? y->name : "");
}

static void
add_escaped_text(struct san *s, const char *t, int attr)
{
	if (fr_fb_add_escaped(&s->o, t, strlen(t), attr) != 0)
		s->oom = 1;
}

static void
put(struct san *s, const char *t)
{
	if (fr_fb_add(&s->o, t, strlen(t)) != 0)
		s->oom = 1;
}

/* ---- references kept as written (FEED_SAN_KEEPREFS) ----
 * Before libxml2 reads the fragment, the '&' of each reference becomes
 * SENTINEL (a noncharacter, U+FDD0), so that the parser hands the
 * reference on as text; the writer puts it back as feedparser writes it. */

#define SENTINEL "\xEF\xB7\x90"
#define SENTINEL_LEN 3

/* sgmllib's reference at s[0..n) ('&' first): "&#38;", "&#x26;", "&amp;",
 * also without the ';' when another character ends it ("&A session").
 * Returns the length of '&' and the name (without the ';'), 0 if none. */
static size_t
ref_len(const char *s, size_t n)
{
	size_t i = 1;

	if (n < 3 || s[0] != '&')
		return 0;
	if (s[1] == '#') {
		i = 2;
		if (s[i] == 'x' || s[i] == 'X') {
			i++;
			while (i < n && isxdigit((unsigned char)s[i]))
				i++;
			if (i == 3 || i >= n)
				return 0;
		} else {
			while (i < n && s[i] >= '0' && s[i] <= '9')
				i++;
			/* the character after the digits ends the reference,
			 * unless it is a hex digit */
			if (i == 2 || i >= n || isxdigit((unsigned char)s[i]))
				return 0;
		}
		return i;
	}
	if (!isalpha((unsigned char)s[1]))
		return 0;
	while (i < n && (isalnum((unsigned char)s[i]) || s[i] == '-' || s[i] == '.'))
		i++;
	return i < n && i < 40 ? i : 0;
}

static int
protect_refs(const char *html, size_t len, struct fb_buf *in)
{
	size_t from = 0;

	for (size_t i = 0; i < len; i++) {
		size_t k;

		if (html[i] != '&')
			continue;
		if (len - i >= 5 && (!memcmp(html + i, "&#39;", 5) || !memcmp(html + i, "&#34;", 5))) {
			if (fr_fb_add(in, html + from, i - from) || fr_fb_addc(in, html[i + 3] == '9' ? '\'' : '"'))
				return -1;
			from = i + 5;
			i += 4;
			continue;
		}
		k = ref_len(html + i, len - i);
		if (!k)
			continue;
		if (fr_fb_add(in, html + from, i - from) || fr_fb_add(in, SENTINEL, SENTINEL_LEN))
			return -1;
		from = i + 1;
		i += k - 1;
	}
	return fr_fb_add(in, html + from, len - from);
}

static const uint16_t c1_1252[32] = {
    0x20AC, 0,      0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160,
    0x2039, 0x0152, 0,      0x017D, 0,      0,      0x2018, 0x2019, 0x201C, 0x201D, 0x2022,
    0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0,      0x017E, 0x0178};

/* Writes the reference whose name follows a SENTINEL at t (t[0..n) holds
 * "#38;", "amp;" or "A session"), as feedparser's _BaseHTMLProcessor
 * writes it, or as its character when decode; returns the bytes used. */
static size_t
put_ref(struct san *s, const char *t, size_t n, int decode)
{
	char tmp[64], u[8];
	size_t k = 0, used;

	if (n && t[0] == '#') {
		int hex = n > 1 && (t[1] == 'x' || t[1] == 'X');

		k = 1 + (size_t)hex;
		while (k < n && (hex ? isxdigit((unsigned char)t[k]) : (t[k] >= '0' && t[k] <= '9')))
			k++;
	} else {
		while (k < n && (isalnum((unsigned char)t[k]) || t[k] == '-' || t[k] == '.'))
			k++;
	}
	if (k == 0 || k >= sizeof(tmp) - 1)
		return 0;
	memcpy(tmp, t, k);
	tmp[k] = '\0';
	used = k + (k < n && t[k] == ';');
	if (tmp[0] == '#') {
		unsigned long v;
		int hex = tmp[1] == 'x' || tmp[1] == 'X';

		for (char *p = tmp; *p; p++)
			*p = (char)tolower((unsigned char)*p);
		v = strtoul(tmp + 1 + hex, NULL, hex ? 16 : 10);
		if (decode) {
			size_t m = fr_feed_utf8(v > 0x10FFFF || v == 0 ? 0xFFFD : (uint32_t)v, u);

			u[m] = '\0';
			add_escaped_text(s, u, 1);
		} else if (v >= 0x80 && v <= 0x9F && c1_1252[v - 0x80]) {
			char b[16];

			snprintf(b, sizeof(b), "&#x%x;", c1_1252[v - 0x80]);
			put(s, b);
		} else {
			put(s, "&");
			put(s, tmp);
			put(s, ";");
		}
		return used;
	}
	if (fr_feed_html_entity(tmp, k, u, sizeof(u))) {
		if (decode) {
			add_escaped_text(s, u, 1);
		} else {
			put(s, "&");
			put(s, tmp);
			put(s, ";");
		}
	} else {
		put(s, "&amp;");
		put(s, tmp);
		if (decode && used > k)
			put(s, ";");
	}
	return used;
}

/* The character a protected reference stands for, unescaped ("&name"
 * when it names none); returns the bytes of t used. */
static size_t
put_ref_raw(struct san *s, const char *t, size_t n)
{
	char tmp[64], u[8];
	size_t k = 0, used;

	if (n && t[0] == '#') {
		int hex = n > 1 && (t[1] == 'x' || t[1] == 'X');

		k = 1 + (size_t)hex;
		while (k < n && (hex ? isxdigit((unsigned char)t[k]) : (t[k] >= '0' && t[k] <= '9')))
			k++;
	} else {
		while (k < n && (isalnum((unsigned char)t[k]) || t[k] == '-' || t[k] == '.'))
			k++;
	}
	if (k == 0 || k >= sizeof(tmp) - 1) {
		put(s, "&");
		return 0;
	}
	memcpy(tmp, t, k);
	tmp[k] = '\0';
	used = k + (k < n && t[k] == ';');
	if (tmp[0] == '#') {
		int hex = tmp[1] == 'x' || tmp[1] == 'X';
		unsigned long v = strtoul(tmp + 1 + hex, NULL, hex ? 16 : 10);
		size_t m = fr_feed_utf8(v > 0x10FFFF || v == 0 ? 0xFFFD : (uint32_t)v, u);

		u[m] = '\0';
		put(s, u);
	} else if (fr_feed_html_entity(tmp, k, u, sizeof(u))) {
		put(s, u);
	} else {
		put(s, "&");
		if (fr_fb_add(&s->o, t, used))
			s->oom = 1;
	}
	return used;
}

/* Text (or a comment) with its protected references written back; only
 * '<' escaped (attr: as an attribute value, references decoded). */
static void
put_kept(struct san *s, const char *t, int attr, int comment)
{
	size_t n = strlen(t), from = 0;

	for (size_t i = 0; i < n; i++) {
		const char *rep = NULL;

		if (!memcmp(t + i, SENTINEL, SENTINEL_LEN <= n - i ? SENTINEL_LEN : n - i) &&
		    n - i >= SENTINEL_LEN) {
			size_t used;

			if (fr_fb_add(&s->o, t + from, i - from))
				s->oom = 1;
			used = put_ref(s, t + i + SENTINEL_LEN, n - i - SENTINEL_LEN, attr);
			if (!used)
				put(s, attr ? "&amp;" : "&");
			i += SENTINEL_LEN + used - 1;
			from = i + 1;
			continue;
		}
		if (comment)
			continue;
		if (t[i] == '<')
			rep = "&lt;";
		else if (attr && t[i] == '>')
			rep = "&gt;";
		else if (attr && t[i] == '"')
			rep = "&quot;";
		else if (attr && t[i] == '&')
			rep = "&amp;";
		if (rep) {
			if (fr_fb_add(&s->o, t + from, i - from))
				s->oom = 1;
			put(s, rep);
			from = i + 1;
		}
	}
	if (fr_fb_add(&s->o, t + from, n - from))
		s->oom = 1;
}

/* A copy of v with its protected references decoded (attribute values,
 * which are read as URIs and CSS, not only written). */
static char *
decode_kept(const char *v)
{
	struct san tmp;
	size_t n = strlen(v), from = 0;

	memset(&tmp, 0, sizeof(tmp));
	for (size_t i = 0; i + SENTINEL_LEN <= n; i++) {
		size_t used;

		if (memcmp(v + i, SENTINEL, SENTINEL_LEN))
			continue;
		if (fr_fb_add(&tmp.o, v + from, i - from))
			tmp.oom = 1;
		/* decoded as text, not escaped: the caller escapes */
		used = put_ref_raw(&tmp, v + i + SENTINEL_LEN, n - i - SENTINEL_LEN);
		i += SENTINEL_LEN + used - 1;
		from = i + 1;
	}
	if (fr_fb_add(&tmp.o, v + from, n - from))
		tmp.oom = 1;
	if (tmp.oom) {
		fr_fb_free(&tmp.o);
		return NULL;
	}
	return tmp.o.p ? tmp.o.p : strdup("");
}

static int
is_relative_uri_attr(const char *tag, const char *attr)
{
	char key[80];
	size_t tn = strlen(tag), an = strlen(attr);

	if (tn + an + 2 > sizeof(key))
		return 0;
	memcpy(key, tag, tn);
	key[tn] = ' ';
	memcpy(key + tn + 1, attr, an + 1);
	return in_list(san_relative_uris, N(san_relative_uris), key);
}

/* Attributes that hold a URI on some element. feedparser checks the scheme
 * of href only (src where it resolves it, san_relative_uris); sanitising,
 * freshet checks every one of them on every element, so that no
 * javascript: or vbscript: survives where a browser or a later tool might
 * follow it (`<div src="vbscript:...">`, found by fuzz_extract). */
static int
is_uri_attr(const char *attr)
{
	static const char *const uri_attrs[] = {
		"action", "background", "cite", "codebase", "data", "dynsrc", "formaction",
		"href", "longdesc", "lowsrc", "poster", "src", "xlink:href",
	};

	for (size_t i = 0; i < sizeof(uri_attrs) / sizeof(uri_attrs[0]); i++)
		if (!strcmp(attr, uri_attrs[i]))
			return 1;
	return 0;
}

static void walk(struct san *s, xmlNodePtr n);

static void
element(struct san *s, xmlNodePtr n)
{
	const char *tag = (const char *)n->name;
	const char *out_tag = tag;
	const char *const *alist = san_attributes;
	size_t alist_n = N(san_attributes);
	int svg_attrs = 0, entered_math = 0, entered_svg = 0, keep = 1, drop_content = 0;
	struct attr *attrs = NULL;
	size_t na = 0, cap = 0;

	if (s->sanitize) {
		int acceptable = in_list(san_elements, N(san_elements), tag);

		if (!acceptable || s->svg) {
			const char *xmlns = NULL;

			for (xmlAttrPtr a = n->properties; a; a = a->next)
				if (!strcasecmp((const char *)a->name, "xmlns") && a->children &&
				    a->children->content)
					xmlns = (const char *)a->children->content;
			if (in_list(san_drop_with_content, N(san_drop_with_content), tag))
				drop_content = 1;
			/* inline MathML and SVG in HTML carry their namespace implicitly */
			if (!strcmp(tag, "math") && (!xmlns || !strcmp(xmlns, "http://www.w3.org/1998/Math/MathML"))) {
				s->mathml++;
				entered_math = 1;
			}
			if (!strcmp(tag, "svg") && (!xmlns || !strcmp(xmlns, "http://www.w3.org/2000/svg"))) {
				s->svg++;
				entered_svg = 1;
			}
			if (s->mathml && in_list(san_mathml_elements, N(san_mathml_elements), tag)) {
				alist = san_mathml_attributes;
				alist_n = N(san_mathml_attributes);
			} else if (s->svg && in_list_case(san_svg_elements, N(san_svg_elements), tag)) {
				out_tag = in_list_case(san_svg_elements, N(san_svg_elements), tag);
				svg_attrs = 1;
			} else if (!acceptable) {
				keep = 0;
			}
		}
	}
	if (drop_content)
		goto done;
	if (keep) {
		for (xmlAttrPtr a = n->properties; a; a = a->next) {
			const char *name = (const char *)a->name;
			char *v = a->children ? (char *)xmlNodeListGetString(n->doc, a->children, 1) : NULL;
			char full[128];
			const char *keyname = name;
			size_t k;

			if (a->ns && a->ns->prefix) {
				snprintf(full, sizeof(full), "%s:%s", (const char *)a->ns->prefix, name);
				keyname = full;
			}
			if (!v)
				v = (char *)xmlStrdup((const xmlChar *)name); /* <td nowrap> */
			if (v && s->keeprefs && strstr(v, SENTINEL)) {
				char *d = decode_kept(v);

				xmlFree(v);
				v = d ? (char *)xmlStrdup((const xmlChar *)d) : NULL;
				free(d);
			}
			if (!v) {
				s->oom = 1;
				continue;
			}
			if (s->sanitize) {
				const char *canon = NULL;

				if (svg_attrs)
					canon = in_list_case(san_svg_attributes, N(san_svg_attributes), keyname);
				else if (in_list(alist, alist_n, keyname))
					canon = alist == san_attributes
					            ? *(const char *const *)bsearch(keyname, alist, alist_n,
					                                            sizeof(*alist), cmp_str)
					            : keyname;
				if (!canon) {
					xmlFree(v);
					continue;
				}
				keyname = canon;
			} else {
				for (char *p = full; keyname == full && *p; p++)
					if (*p >= 'A' && *p <= 'Z')
						*p = (char)(*p - 'A' + 'a');
			}
			/* later duplicates win, as in a dict */
			for (k = 0; k < na; k++)
				if (!strcasecmp(attrs[k].name, keyname))
					break;
			if (k == na) {
				if (na == cap) {
					size_t nc = cap ? cap * 2 : 8;
					struct attr *p = realloc(attrs, nc * sizeof(*p));

					if (!p) {
						xmlFree(v);
						s->oom = 1;
						break;
					}
					attrs = p;
					cap = nc;
				}
				attrs[na].value = NULL;
				attrs[na].name = NULL;
				na++;
			} else {
				free(attrs[k].value);
				free(attrs[k].name);
			}
			attrs[k].name = strdup(keyname);
			attrs[k].value = strdup(v);
			xmlFree(v);
			if (!attrs[k].value || !attrs[k].name) {
				free(attrs[k].value);
				free(attrs[k].name);
				attrs[k].value = attrs[k].name = NULL;
				s->oom = 1;
			}
		}
		for (size_t k = 0; k < na; k++) {
			char *v = attrs[k].value, *nv = NULL;

			if (!v || !attrs[k].name)
				continue;
			if (!strcmp(attrs[k].name, "rel") || !strcmp(attrs[k].name, "type"))
				for (char *p = v; *p; p++)
					if (*p >= 'A' && *p <= 'Z')
						*p = (char)(*p - 'A' + 'a');
			if (is_relative_uri_attr(tag, attrs[k].name))
				nv = safe_uri(s->base, v);
			else if (s->sanitize && is_uri_attr(attrs[k].name))
				nv = scheme_ok(v) ? strdup(v) : strdup("");
			else if (s->sanitize && !strcmp(attrs[k].name, "style"))
				nv = sanitize_style(v, s->svg > 0);
			if (nv) {
				free(attrs[k].value);
				attrs[k].value = nv;
			}
		}
		if (na)
			qsort(attrs, na, sizeof(*attrs), cmp_attr);
		put(s, "<");
		put(s, out_tag);
		for (size_t k = 0; k < na; k++) {
			if (!attrs[k].value || !attrs[k].name || (!strcmp(attrs[k].name, "style") && s->sanitize && !*attrs[k].value))
				continue;
			put(s, " ");
			put(s, attrs[k].name);
			put(s, "=\"");
			add_escaped_text(s, attrs[k].value, 1);
			put(s, "\"");
		}
		if (in_list(san_void_elements, N(san_void_elements), tag)) {
			put(s, " />");
			goto done;
		}
		put(s, ">");
	}
	walk(s, n->children);
	if (keep) {
		put(s, "</");
		put(s, out_tag);
		put(s, ">");
	}
done:
	if (entered_math)
		s->mathml--;
	if (entered_svg)
		s->svg--;
	for (size_t k = 0; k < na; k++) {
		free(attrs[k].value);
		free(attrs[k].name);
	}
	free(attrs);
}

static void
walk(struct san *s, xmlNodePtr n)
{
	for (; n && !s->oom; n = n->next) {
		switch (n->type) {
		case XML_ELEMENT_NODE:
			element(s, n);
			break;
		case XML_TEXT_NODE:
		case XML_CDATA_SECTION_NODE:
			if (n->content && s->keeprefs)
				put_kept(s, (const char *)n->content, 0, 0);
			else if (n->content)
				add_escaped_text(s, (const char *)n->content, 0);
			break;
		case XML_COMMENT_NODE:
			/* kept, as feedparser keeps them, but for IE's
			 * conditional comments, which old browsers run */
			if (n->content && !(s->sanitize && strstr((const char *)n->content, "[if"))) {
				put(s, "<!--");
				if (s->keeprefs)
					put_kept(s, (const char *)n->content, 0, 1);
				else
					put(s, (const char *)n->content);
				put(s, "-->");
			}
			break;
		default:
			break;
		}
	}
}

/* A reusable HTML parser context: making one (with its dictionary) per
 * fragment cost about a sixth of a typical feed's parse. */
#define HTML_OPTS                                                                                  \
	(HTML_PARSE_RECOVER | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING | HTML_PARSE_NONET |               \
	 HTML_PARSE_NODEFDTD)

struct fr_san {
	htmlParserCtxtPtr hc;
};

void
fr_feed_san_free(struct fr_san *san)
{
	if (!san)
		return;
	if (san->hc)
		htmlFreeParserCtxt(san->hc);
	free(san);
}

char *
fr_feed_sanitize_html(const char *html, size_t len, const char *base, int sanitize)
{
	return fr_feed_sanitize_html_r(NULL, html, len, base, sanitize);
}

char *
fr_feed_sanitize_html_r(struct fr_san **san, const char *html, size_t len, const char *base, int sanitize)
{
	struct san s;
	struct fb_buf in = {0};
	htmlDocPtr doc;
	xmlNodePtr root, body = NULL;
	char *out;
	size_t a, b;

	memset(&s, 0, sizeof(s));
	s.o.max = 0;
	s.base = base;
	s.sanitize = sanitize & 1;
	s.keeprefs = (sanitize & FEED_SAN_KEEPREFS) != 0;
	in.max = 0;
	/* In <body>, text at the start is not wrapped in an implied <p>. */
	if (fr_fb_add(&in, "<body>", 6) != 0 ||
	    (s.keeprefs ? protect_refs(html, len, &in) : fr_fb_add(&in, html, len)) != 0 ||
	    in.n > INT32_MAX) {
		fr_fb_free(&in);
		return NULL;
	}
	if (san && !*san && (*san = calloc(1, sizeof(**san))) != NULL)
		(*san)->hc = htmlNewParserCtxt();
	if (san && *san && (*san)->hc)
		doc = htmlCtxtReadMemory((*san)->hc, in.p, (int)in.n, NULL, "UTF-8", HTML_OPTS);
	else
		doc = htmlReadMemory(in.p, (int)in.n, NULL, "UTF-8", HTML_OPTS);
	fr_fb_free(&in);
	if (!doc)
		return strdup("");
	root = xmlDocGetRootElement(doc);
	if (root) {
		for (xmlNodePtr c = root->children; c; c = c->next)
			if (c->type == XML_ELEMENT_NODE && !strcmp((const char *)c->name, "body"))
				body = c;
		if (body) {
			/* what came before <body> (a <head> written in the
			 * fragment) is dropped; what came after is kept */
			walk(&s, body->children);
			for (xmlNodePtr c = body->next; c && !s.oom; c = c->next) {
				xmlNodePtr next = c->next;

				c->next = NULL;
				walk(&s, c);
				c->next = next;
			}
		} else {
			walk(&s, root->children);
		}
	}
	xmlFreeDoc(doc);
	if (s.oom) {
		fr_fb_free(&s.o);
		return NULL;
	}
	if (!s.o.p)
		return strdup("");
	/* trimmed, CRLF as LF */
	out = s.o.p;
	a = 0;
	b = s.o.n;
	while (a < b && (out[a] == ' ' || out[a] == '\t' || out[a] == '\n' || out[a] == '\r'))
		a++;
	while (b > a && (out[b - 1] == ' ' || out[b - 1] == '\t' || out[b - 1] == '\n' ||
	                 out[b - 1] == '\r'))
		b--;
	{
		size_t w = 0;

		for (size_t i = a; i < b; i++) {
			if (out[i] == '\r' && i + 1 < b && out[i + 1] == '\n')
				continue;
			out[w++] = out[i];
		}
		out[w] = '\0';
	}
	return out;
}
