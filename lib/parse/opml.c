/* opml.c - OPML feed lists: a DOM walk over libxml2's tree for reading (lists
 * are small), hand-written escaping for writing (no libxml2 types leak). */
#include "parse/opml.h"

#include "core/err.h"
#include "core/utf8.h"

#include <libxml/parser.h>
#include <libxml/tree.h>

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct walk {
	char first_err[256]; /* libxml2's first error (the last is often a consequence) */
	int first_line;
	const char *label;
	int (*each)(void *arg, const struct fr_opml_outline *o);
	void *arg;
	char *err;
	size_t errlen;
};

static int
is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Trims blanks in place; returns the start. */
static char *
trim(char *s)
{
	size_t n;

	while (is_blank(*s))
		s++;
	n = strlen(s);
	while (n > 0 && is_blank(s[n - 1]))
		s[--n] = '\0';
	return s;
}

static xmlAttrPtr
find_attr(xmlNodePtr node, const char *name)
{
	for (xmlAttrPtr a = node->properties; a; a = a->next)
		if (a->name && xmlStrcasecmp(a->name, (const xmlChar *)name) == 0)
			return a;
	return NULL;
}

/* The value of attribute name of node as a malloc'd string in *out (NULL
 * when absent). The value is the concatenation of its text children: an
 * entity reference child (a custom entity, left unexpanded because we never
 * ask for substitution) is an error rather than being expanded here. */
static int
attr_text(struct walk *w, xmlNodePtr node, const char *name, char **out)
{
	xmlAttrPtr a = find_attr(node, name);
	size_t len = 0, cap = 0;
	char *buf = NULL;

	*out = NULL;
	if (!a)
		return 0;
	for (xmlNodePtr t = a->children; t; t = t->next) {
		size_t k;

		if (t->type == XML_ENTITY_REF_NODE) {
			free(buf);
			return fr_errf(w->err, w->errlen,
			               "%s:%ld: attribute %s uses the entity '&%s;', which is not "
			               "expanded (no custom entities)",
			               w->label, xmlGetLineNo(node), name,
			               t->name ? (const char *)t->name : "?");
		}
		if (t->type != XML_TEXT_NODE || !t->content)
			continue;
		k = strlen((const char *)t->content);
		if (len + k + 1 > cap) {
			size_t ncap = (len + k + 1) * 2;
			char *nb = realloc(buf, ncap);

			if (!nb) {
				free(buf);
				return fr_errf(w->err, w->errlen, "%s: out of memory", w->label);
			}
			buf = nb;
			cap = ncap;
		}
		memcpy(buf + len, t->content, k);
		len += k;
	}
	if (!buf) {
		buf = malloc(1);
		if (!buf)
			return fr_errf(w->err, w->errlen, "%s: out of memory", w->label);
	}
	buf[len] = '\0';
	*out = buf;
	return 0;
}

static int
is_outline(xmlNodePtr n)
{
	return n->type == XML_ELEMENT_NODE && n->name &&
	       xmlStrcasecmp(n->name, (const xmlChar *)"outline") == 0;
}

/* Walks the outlines under parent; folder is the title of the nearest
 * enclosing outline (NULL at the top). */
static int
walk_outlines(struct walk *w, xmlNodePtr parent, const char *folder)
{
	for (xmlNodePtr n = parent->children; n; n = n->next) {
		char *url = NULL, *html = NULL, *title = NULL, *text = NULL, *cat = NULL;
		const char *name;
		int rc = -1;

		if (!is_outline(n))
			continue;
		if (attr_text(w, n, "xmlUrl", &url) < 0 || attr_text(w, n, "htmlUrl", &html) < 0 ||
		    attr_text(w, n, "title", &title) < 0 || attr_text(w, n, "text", &text) < 0 ||
		    attr_text(w, n, "category", &cat) < 0)
			goto out;
		if (title && !*trim(title)) {
			free(title);
			title = NULL;
		}
		if (text && !*trim(text)) {
			free(text);
			text = NULL;
		}
		name = title ? trim(title) : text ? trim(text) : NULL;
		if (url) {
			struct fr_opml_outline o;
			const char *c = folder;

			if (!c && cat && *trim(cat))
				c = trim(cat);
			o.xml_url = trim(url);
			o.html_url = html && *trim(html) ? trim(html) : NULL;
			o.title = name;
			o.category = c;
			o.line = xmlGetLineNo(n);
			if (w->each(w->arg, &o) != 0) {
				fr_errf(w->err, w->errlen, "%s:%ld: stopped by the caller",
				        w->label, o.line);
				goto out;
			}
		}
		if (n->children && walk_outlines(w, n, name ? name : folder) < 0)
			goto out;
		rc = 0;
	out:
		free(url);
		free(html);
		free(title);
		free(text);
		free(cat);
		if (rc < 0)
			return -1;
	}
	return 0;
}

/* libxml2's structured error hook: keeps the first error. */
static void
keep_first_error(void *user, xmlErrorPtr e)
{
	xmlParserCtxtPtr ctxt = user;
	struct walk *w = ctxt ? ctxt->_private : NULL;

	if (!w || !e || w->first_err[0] || e->level < XML_ERR_ERROR)
		return;
	snprintf(w->first_err, sizeof(w->first_err), "%s",
	         e->message ? e->message : "not well-formed XML");
	w->first_line = e->line;
}

int
fr_opml_parse(const char *buf, size_t len, const char *label,
              int (*each)(void *arg, const struct fr_opml_outline *o), void *arg, char *err,
              size_t errlen)
{
	/* No XML_PARSE_NOENT (entity substitution) and no XML_PARSE_DTDLOAD:
	 * entities stay references; NONET forbids fetching anything. */
	const int opts = XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING |
	                 XML_PARSE_BIG_LINES | XML_PARSE_NOCDATA;
	struct walk w = {.label = label ? label : "opml",
	                 .each = each,
	                 .arg = arg,
	                 .err = err,
	                 .errlen = errlen};
	xmlParserCtxtPtr ctxt;
	xmlDocPtr doc;
	xmlNodePtr root, body = NULL;
	int rc = -1;

	if (len > INT_MAX)
		return fr_errf(err, errlen, "%s: document is larger than 2 GiB", w.label);
	xmlInitParser();
	ctxt = xmlNewParserCtxt();
	if (!ctxt)
		return fr_errf(err, errlen, "%s: out of memory", w.label);
	ctxt->_private = &w;
	ctxt->sax->serror = keep_first_error; /* called with ctxt->userData, the context */
	doc = xmlCtxtReadMemory(ctxt, buf, (int)len, w.label, NULL, opts);
	if (!doc || !ctxt->wellFormed) {
		xmlErrorPtr e = xmlCtxtGetLastError(ctxt);
		char msg[256];
		int line = w.first_err[0] ? w.first_line : e ? e->line : 0;
		size_t k;

		snprintf(msg, sizeof(msg), "%s",
		         w.first_err[0]    ? w.first_err
		         : e && e->message ? e->message
		                           : "not well-formed XML");
		k = strlen(msg);
		while (k > 0 && is_blank(msg[k - 1]))
			msg[--k] = '\0';
		fr_errf(err, errlen, "%s:%d: %s", w.label, line, msg);
		goto out;
	}
	root = xmlDocGetRootElement(doc);
	if (!root || !root->name || xmlStrcmp(root->name, (const xmlChar *)"opml") != 0) {
		fr_errf(err, errlen, "%s:%ld: not an OPML document (the root element is <%s>)",
		        w.label, root ? xmlGetLineNo(root) : 0L,
		        root && root->name ? (const char *)root->name : "none");
		goto out;
	}
	for (xmlNodePtr n = root->children; n; n = n->next)
		if (n->type == XML_ELEMENT_NODE &&
		    xmlStrcasecmp(n->name, (const xmlChar *)"body") == 0)
			body = n;
	if (!body) {
		fr_errf(err, errlen, "%s:%ld: OPML document without a <body>", w.label,
		        xmlGetLineNo(root));
		goto out;
	}
	rc = walk_outlines(&w, body, NULL);
out:
	xmlFreeDoc(doc);
	xmlFreeParserCtxt(ctxt);
	return rc;
}

/* ---- writing ---- */

/* Length of the valid UTF-8 sequence at s (1-4), or 0 when invalid or
 * U+FFFE / U+FFFF (no XML characters). */
static size_t
utf8_len(const unsigned char *s)
{
	size_t n = fr_utf8_len(s);

	if (n == 3 && s[0] == 0xEF && s[1] == 0xBF && (s[2] == 0xBE || s[2] == 0xBF))
		return 0;
	return n;
}

/* The entity for c in an attribute value, or NULL when c stands as it is. */
static const char *
attr_escape(unsigned char c)
{
	switch (c) {
	case '&':
		return "&amp;";
	case '<':
		return "&lt;";
	case '>':
		return "&gt;";
	case '"':
		return "&quot;";
	case '\t':
		return "&#9;";
	case '\n':
		return "&#10;";
	case '\r':
		return "&#13;";
	default:
		return NULL;
	}
}

/* Writes s as an attribute value (without the quotes). */
static void
put_attr(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		const char *e = attr_escape(*p);
		size_t k;

		if (e) {
			fputs(e, f);
			p++;
			continue;
		}
		if (*p < 0x20 || *p == 0x7F) { /* C0 controls are not XML 1.0; DEL is noise */
			p++;
			continue;
		}
		k = utf8_len(p);
		if (k == 0) {
			fputs("\xEF\xBF\xBD", f); /* U+FFFD */
			p++;
			continue;
		}
		if (k == 2 && p[0] == 0xC2 && p[1] < 0xA0) { /* C1 controls: U+009B is CSI */
			p += 2;
			continue;
		}
		fwrite(p, 1, k, f);
		p += k;
	}
}

static void
put_feed(FILE *f, const struct fr_opml_outline *o, const char *indent)
{
	const char *text = o->title && *o->title ? o->title : o->xml_url;

	fprintf(f, "%s<outline type=\"rss\" text=\"", indent);
	put_attr(f, text);
	if (o->title && *o->title) {
		fputs("\" title=\"", f);
		put_attr(f, o->title);
	}
	fputs("\" xmlUrl=\"", f);
	put_attr(f, o->xml_url);
	if (o->html_url && *o->html_url) {
		fputs("\" htmlUrl=\"", f);
		put_attr(f, o->html_url);
	}
	fputs("\"/>\n", f);
}

struct byidx {
	const struct fr_opml_outline *o;
	size_t i;
};

/* Uncategorised first, then by category name; given order within each. */
static int
cmp_cat(const void *pa, const void *pb)
{
	const struct byidx *a = pa, *b = pb;
	const char *ca = a->o->category && *a->o->category ? a->o->category : NULL;
	const char *cb = b->o->category && *b->o->category ? b->o->category : NULL;
	int c;

	if (!ca != !cb)
		return ca ? 1 : -1;
	c = ca ? strcmp(ca, cb) : 0;
	if (c)
		return c;
	return a->i < b->i ? -1 : a->i > b->i;
}

int
fr_opml_write(FILE *f, const char *title, const struct fr_opml_outline *o, size_t n)
{
	struct byidx *ix = NULL;
	size_t m = 0;
	const char *open_cat = NULL;

	if (n) {
		ix = malloc(n * sizeof(*ix));
		if (!ix) {
			errno = ENOMEM;
			return -1;
		}
	}
	for (size_t i = 0; i < n; i++)
		if (o[i].xml_url) {
			ix[m].o = &o[i];
			ix[m].i = i;
			m++;
		}
	if (m > 1)
		qsort(ix, m, sizeof(*ix), cmp_cat);

	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<opml version=\"2.0\">\n  <head>\n"
	      "    <title>",
	      f);
	put_attr(f, title ? title : "freshet sources");
	fputs("</title>\n  </head>\n  <body>\n", f);
	for (size_t j = 0; j < m; j++) {
		const char *c = ix[j].o->category && *ix[j].o->category ? ix[j].o->category : NULL;

		if (open_cat && (!c || strcmp(c, open_cat) != 0)) {
			fputs("    </outline>\n", f);
			open_cat = NULL;
		}
		if (c && !open_cat) {
			fputs("    <outline text=\"", f);
			put_attr(f, c);
			fputs("\" title=\"", f);
			put_attr(f, c);
			fputs("\">\n", f);
			open_cat = c;
		}
		put_feed(f, ix[j].o, c ? "      " : "    ");
	}
	if (open_cat)
		fputs("    </outline>\n", f);
	fputs("  </body>\n</opml>\n", f);
	free(ix);
	if (ferror(f))
		return -1;
	return 0;
}
