/* xml.c - RSS 0.9x/2.0, RSS 1.0 (RDF) and Atom 0.3/1.0 over libxml2's SAX2
 * interface: one pass, no tree. A stack of element contexts says where we
 * are (channel, item, person, ignored subtree); the text of a field is
 * captured until its end tag, child elements serialised as markup. */
#include "core/err.h"
#include "parse/feed_internal.h"

#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Namespaces, by their URIs (see ns_of). */
enum { NS_NONE, NS_ATOM10, NS_ATOM03, NS_CONTENT, NS_DC, NS_DCTERMS, NS_MEDIA, NS_ITUNES, NS_SY,
       NS_SLASH, NS_WFW, NS_RDF, NS_XHTML, NS_RSS090, NS_OTHER };

/* Element contexts. */
enum { C_TOP, C_RSS, C_RDF, C_CHANNEL, C_ITEM, C_PERSON_FEED, C_PERSON_ITEM, C_MEDIA, C_SKIP,
       C_CAPTURE };

/* What a captured text is for. */
enum { T_NONE, T_ITEM_STR, T_ITEM_LINK, T_ITEM_GUID, T_ITEM_AUTHOR, T_ITEM_DATE, T_ITEM_PUBUPD,
       T_ITEM_TAG, T_ITEM_KEYWORDS, T_ITEM_COMMENTS_URL, T_ITEM_NCOMMENTS, T_FEED_STR, T_FEED_LINK, T_FEED_AUTHOR,
       T_FEED_DATE, T_FEED_TTL, T_SY_PERIOD, T_SY_FREQ, T_PERSON_NAME, T_PERSON_EMAIL };

/* How a captured text is encoded (Atom text constructs; RSS is K_HTML). */
enum { K_HTML, K_TEXT, K_XHTML, K_BASE64 };

struct frame {
	unsigned char ctx;
	unsigned char base_owned;
	const char *base; /* xml:base in force, or the feed URL; may be NULL */
};

struct capture {
	int active;
	int target, field, rank, kind;
	unsigned depth;       /* of the captured element */
	unsigned xhtml_div;   /* depth of the skipped xhtml wrapper div, 0 none */
	int markup;           /* child elements seen: the buffer holds markup */
	int pending_open;     /* "<tag attrs" written, '>' not yet */
	const char *base;     /* base of the captured element */
};

struct span {
	size_t off, len;
};

/* A summary put off until its item ends (see summary_if_no_content). */
struct pending_summary {
	char *raw;  /* the captured text */
	char *base; /* the base in force, copied (the frame's may be gone) */
	int kind, rank;
};

struct px {
	struct feedb *b;
	struct fr_san *san; /* the HTML sanitiser's reused parser */
	xmlParserCtxtPtr ctxt;
	xmlSAXHandler sax;
	struct frame *stack;
	unsigned depth, max_depth, cap;
	struct capture cap_;
	struct fb_buf text;
	int root_seen, not_feed, stopped, enc_error, enc_unsupported;
	char root_name[64];
	int is_atom;            /* the root is an Atom feed */
	int netscape_doctype;   /* <!DOCTYPE rss ... Netscape ...> */
	char *rss_version;      /* the rss root's version attribute */
	int64_t sy_period_s, sy_freq;
	char *first_error;
	int first_error_line;
	/* libxml2 interns namespace URIs: remember what each pointer meant. */
	const xmlChar *ns_uri[16];
	unsigned char ns_val[16];
	unsigned ns_next;
	/* CDATA sections lifted out before parsing (see lift_cdata). */
	const char *lift_src;
	struct span *lifted;
	size_t n_lifted;
	struct fpx *fp;         /* feedparser's result model, or NULL */
	/* fr_fpx_ns_prefix of the namespace URIs seen last (interned by
	 * libxml2: the pointer stands for the string) */
	const xmlChar *fp_uri[4];
	const char *fp_pre[4];
	unsigned fp_next;
	/* With b->lazy_summary: the open item's summaries as captured, made
	 * in their order when the item ends without content. */
	struct pending_summary *pend;
	size_t n_pend, cap_pend;
};

/* ---- namespaces ---- */

static const struct {
	const char *uri; /* without scheme and trailing '/' or '#', lower case */
	unsigned char ns;
} ns_table[] = {
	{"www.w3.org/2005/atom", NS_ATOM10},
	{"purl.org/atom/ns", NS_ATOM03},
	{"purl.org/rss/1.0/modules/content", NS_CONTENT},
	{"purl.org/dc/elements/1.1", NS_DC},
	{"purl.org/dc/terms", NS_DCTERMS},
	{"search.yahoo.com/mrss", NS_MEDIA},
	{"www.itunes.com/dtds/podcast-1.0.dtd", NS_ITUNES},
	{"purl.org/rss/1.0/modules/syndication", NS_SY},
	{"purl.org/rss/1.0/modules/slash", NS_SLASH},
	{"wellformedweb.org/commentapi", NS_WFW},
	{"www.w3.org/1999/02/22-rdf-syntax-ns", NS_RDF},
	{"www.w3.org/1999/xhtml", NS_XHTML},
	{"purl.org/rss/1.0", NS_NONE},
	{"my.netscape.com/rdf/simple/0.9", NS_RSS090},
	{"channel.netscape.com/rdf/simple/0.9", NS_RSS090},
	{"backend.userland.com/rss2", NS_NONE},
	{"backend.userland.com/rss", NS_NONE},
	{"blogs.law.harvard.edu/tech/rss", NS_NONE},
};

static const struct {
	const char *prefix;
	unsigned char ns;
} prefix_table[] = {
	{"atom", NS_ATOM10},  {"content", NS_CONTENT}, {"dc", NS_DC},     {"dcterms", NS_DCTERMS},
	{"media", NS_MEDIA},  {"itunes", NS_ITUNES},   {"sy", NS_SY},     {"slash", NS_SLASH},
	{"wfw", NS_WFW},      {"rdf", NS_RDF},
};

static int
ns_lookup(const char *uri)
{
	const char *p = uri, *e;
	size_t n;

	while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
		p++;
	if (!strncasecmp(p, "http://", 7))
		p += 7;
	else if (!strncasecmp(p, "https://", 8))
		p += 8;
	e = p + strlen(p);
	while (e > p && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r' || e[-1] == '\n' ||
	                 e[-1] == '/' || e[-1] == '#'))
		e--;
	n = (size_t)(e - p);
	for (size_t i = 0; i < sizeof(ns_table) / sizeof(ns_table[0]); i++)
		if (strlen(ns_table[i].uri) == n && !strncasecmp(p, ns_table[i].uri, n))
			return ns_table[i].ns;
	return NS_OTHER;
}

static int
ns_of(struct px *x, const xmlChar *uri, const xmlChar *prefix)
{
	int ns;

	if (!uri) {
		if (!prefix)
			return NS_NONE;
		for (size_t i = 0; i < sizeof(prefix_table) / sizeof(prefix_table[0]); i++)
			if (!strcmp((const char *)prefix, prefix_table[i].prefix))
				return prefix_table[i].ns;
		return NS_OTHER;
	}
	for (unsigned i = 0; i < 16; i++)
		if (x->ns_uri[i] == uri)
			return x->ns_val[i];
	ns = ns_lookup((const char *)uri);
	x->ns_uri[x->ns_next] = uri;
	x->ns_val[x->ns_next] = (unsigned char)ns;
	x->ns_next = (x->ns_next + 1) % 16;
	return ns;
}

/* ---- errors ---- */

static void
on_error(void *ud, xmlErrorPtr e)
{
	struct px *x = ud;
	size_t n;

	if (!e || e->level < XML_ERR_ERROR)
		return;
	/* A parameter entity of the DTD ("%HTMLlat1;") that is never loaded
	 * (no external DTD is read, by design) is not the document's fault. */
	if ((e->code == XML_WAR_UNDECLARED_ENTITY || e->code == XML_ERR_UNDECLARED_ENTITY) &&
	    e->message && !strncmp(e->message, "PEReference:", 12))
		return;
	if (e->code == XML_ERR_INVALID_ENCODING || e->code == XML_ERR_UNSUPPORTED_ENCODING ||
	    (e->code == XML_ERR_INVALID_CHAR && e->message && strstr(e->message, "UTF-8")))
		x->enc_error = 1;
	if (e->code == XML_ERR_UNSUPPORTED_ENCODING)
		x->enc_unsupported = 1;
	if (x->first_error || !e->message)
		return;
	x->first_error = strdup(e->message);
	if (!x->first_error) {
		x->b->oom = 1;
		return;
	}
	n = strlen(x->first_error);
	while (n && (x->first_error[n - 1] == '\n' || x->first_error[n - 1] == ' '))
		x->first_error[--n] = '\0';
	for (char *p = x->first_error; *p; p++)
		if (*p == '\n' || *p == '\r')
			*p = ' ';
	x->first_error_line = e->line;
}

/* Undoes libxml2's "not well-formed" mark after an error has been recorded:
 * in recovery mode it otherwise drops every later entity reference, even
 * &amp;. Bozo comes from on_error, not from this flag. */
static void
keep_entities(struct px *x)
{
	if (!x->ctxt->wellFormed)
		x->ctxt->wellFormed = 1;
}

static void
stop(struct px *x)
{
	x->stopped = 1;
	xmlStopParser(x->ctxt);
}

static void on_chars(void *ud, const xmlChar *s, int n);
static void lower_ascii(char *s);

/* ---- entities ---- */

static void
on_internal_subset(void *ud, const xmlChar *name, const xmlChar *external_id,
                   const xmlChar *system_id)
{
	struct px *x = ud;

	(void)name;
	if ((external_id && strstr((const char *)external_id, "Netscape")) ||
	    (system_id && strstr((const char *)system_id, "netscape")))
		x->netscape_doctype = 1;
}

/* ---- capture ---- */

static void
begin_capture(struct px *x, int target, int field, int rank, int kind)
{
	struct capture *c = &x->cap_;

	c->active = 1;
	c->target = target;
	c->field = field;
	c->rank = rank;
	c->kind = kind;
	c->depth = x->depth;
	c->xhtml_div = 0;
	c->markup = kind == K_XHTML;
	c->pending_open = 0;
	c->base = x->stack[x->depth].base;
	fr_fb_reset(&x->text);
}

/* The first child element turns the captured text into markup: what was
 * gathered as text is escaped. */
static int
to_markup(struct px *x)
{
	struct fb_buf esc = {0};

	if (x->cap_.markup)
		return 0;
	x->cap_.markup = 1;
	if (!x->text.n)
		return 0;
	esc.max = x->text.max;
	if (fr_fb_add_escaped(&esc, x->text.p, x->text.n, 0) != 0) {
		fr_fb_free(&esc);
		return -1;
	}
	fr_fb_free(&x->text);
	x->text = esc;
	return 0;
}

static void
flush_open(struct px *x)
{
	if (x->cap_.pending_open) {
		x->cap_.pending_open = 0;
		if (fr_fb_addc(&x->text, '>') != 0)
			x->b->oom = 1;
	}
}

/* An attribute's value as text: libxml2, not replacing entities, hands
 * every '&' the document escaped (&amp; or &#38;) back as "&#38;". */
static char *
attr_text(const xmlChar *v, const xmlChar *e)
{
	size_t n = (size_t)(e - v);
	char *out = malloc(n + 1), *w = out;

	if (!out)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		if (v[i] == '&' && n - i >= 5 && !memcmp(v + i, "&#38;", 5)) {
			*w++ = '&';
			i += 4;
		} else {
			*w++ = (char)v[i];
		}
	}
	*w = '\0';
	return out;
}

/* Per-attribute access: libxml2 gives 5 pointers per attribute (localname,
 * prefix, URI, value, end). */
static char *
attr_dup(const xmlChar **attrs, int n, const char *name, int want_ns_xml)
{
	for (int i = 0; i < n; i++) {
		const xmlChar **a = attrs + 5 * i;

		if (strcmp((const char *)a[0], name))
			continue;
		if (want_ns_xml != (a[2] && !strcmp((const char *)a[2],
		                                    (const char *)XML_XML_NAMESPACE)))
			continue;
		return attr_text(a[3], a[4]);
	}
	return NULL;
}

static void
serialize_start(struct px *x, const xmlChar *local, const xmlChar *prefix, int n_attrs,
                const xmlChar **attrs)
{
	struct fb_buf *t = &x->text;
	int bad = 0;

	flush_open(x);
	bad |= fr_fb_addc(t, '<');
	if (prefix) {
		bad |= fr_fb_add(t, (const char *)prefix, strlen((const char *)prefix));
		bad |= fr_fb_addc(t, ':');
	}
	bad |= fr_fb_add(t, (const char *)local, strlen((const char *)local));
	for (int i = 0; i < n_attrs; i++) {
		const xmlChar **a = attrs + 5 * i;
		char *val = attr_text(a[3], a[4]);
		const char *v = val ? val : "";
		size_t vn = strlen(v);

		bad |= fr_fb_addc(t, ' ');
		if (a[1]) {
			bad |= fr_fb_add(t, (const char *)a[1], strlen((const char *)a[1]));
			bad |= fr_fb_addc(t, ':');
		}
		bad |= fr_fb_add(t, (const char *)a[0], strlen((const char *)a[0]));
		bad |= fr_fb_add(t, "=\"", 2);
		/* Relative links inside inline XHTML resolve against xml:base. */
		if (!val)
			bad = 1;
		if ((!strcmp((const char *)a[0], "href") || !strcmp((const char *)a[0], "src")) &&
		    x->stack[x->depth].base && val) {
			char *abs = fr_feed_resolve(x->stack[x->depth].base, val);

			if (abs)
				bad |= fr_fb_add_escaped(t, abs, strlen(abs), 1);
			else
				bad |= fr_fb_add_escaped(t, v, vn, 1);
			free(abs);
		} else {
			bad |= fr_fb_add_escaped(t, v, vn, 1);
		}
		free(val);
		bad |= fr_fb_addc(t, '"');
	}
	x->cap_.pending_open = 1;
	if (bad)
		x->b->oom = 1;
}

/* "Name (email)", "email (Name)", "Name <email>" -> the name; else as is. */
static char *
person_name(char *s)
{
	char *open, *close, *lt;

	if (!s)
		return s;
	fr_feed_trim(s);
	open = strchr(s, '(');
	close = open ? strrchr(open, ')') : NULL;
	if (open && close && close[1] == '\0') {
		size_t before = (size_t)(open - s);
		int before_is_email = memchr(s, '@', before) != NULL;

		if (before_is_email) {
			size_t n = (size_t)(close - open - 1);

			memmove(s, open + 1, n);
			s[n] = '\0';
		} else {
			*open = '\0';
		}
		return fr_feed_trim(s);
	}
	lt = strchr(s, '<');
	if (lt && lt != s && strchr(lt, '@') && strchr(lt, '>')) {
		*lt = '\0';
		fr_feed_trim(s);
		if (s[0] == '"' && s[1] && s[strlen(s) - 1] == '"') {
			size_t n = strlen(s) - 2;

			memmove(s, s + 1, n);
			s[n] = '\0';
		}
	}
	return s;
}

static int64_t
parse_int(const char *s, int64_t max)
{
	int64_t v = 0;

	while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
		s++;
	if (*s < '0' || *s > '9')
		return -1;
	for (; *s >= '0' && *s <= '9'; s++) {
		v = v * 10 + (*s - '0');
		if (v > max)
			return -1;
	}
	while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
		s++;
	return *s ? -1 : v;
}

/* feedparser's lookslikehtml: a close tag or a character/entity
 * reference, every tag an allowed element. For RSS text, which may be
 * HTML or not. */
static int
looks_like_html(const char *s)
{
	const char *p;
	int cue = 0;

	for (p = s; *p; p++) {
		if (p[0] == '<' && p[1] == '/' && ((p[2] >= 'a' && p[2] <= 'z') || (p[2] >= 'A' && p[2] <= 'Z'))) {
			const char *q = p + 2;

			while ((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') || (*q >= '0' && *q <= '9') || *q == '_')
				q++;
			if (*q == '>')
				cue = 1;
		} else if (p[0] == '&') {
			const char *q = p + 1;

			if (*q == '#')
				q++;
			while ((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') || (*q >= '0' && *q <= '9') || *q == '_')
				q++;
			if (*q == ';' && q > p + 1)
				cue = 1;
		}
	}
	if (!cue)
		return 0;
	for (p = strchr(s, '<'); p; p = strchr(p + 1, '<')) {
		const char *q = p + 1;
		char name[32];
		size_t n = 0;

		if (*q == '/')
			q++;
		while (((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') || (*q >= '0' && *q <= '9') || *q == '_') &&
		       n < sizeof(name) - 1) {
			char c = *q++;

			name[n++] = (char)(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
		}
		name[n] = '\0';
		if (n && !fr_feed_html_element_ok(name))
			return 0;
	}
	return 1;
}

/* A title as freshet keeps it: plain text, HTML-unescaped once; markup in
 * it (Atom html/xhtml, or RSS text that looks like HTML) sanitised first,
 * so that no script or event attribute survives the unescaping. */
static char *
title_text(struct px *x, char *v, int kind, int atom, const char *base, struct feedb *b)
{
	if (kind == K_HTML || kind == K_XHTML) {
		if ((atom || looks_like_html(v)) && strchr(v, '<')) {
			char *r = fr_feed_sanitize_html_r(&x->san, v, strlen(v), base, 1);

			free(v);
			if (!r) {
				b->oom = 1;
				return NULL;
			}
			v = r;
		}
		fr_feed_html_unescape(v);
	}
	return v;
}

/* Text with nothing for the HTML cleaner to do: no markup, no reference,
 * no character it would escape, no CR or other control character. */
static int
plain_text(const char *s)
{
	for (const unsigned char *u = (const unsigned char *)s; *u; u++)
		if (*u == '<' || *u == '>' || *u == '&' || (*u < 0x20 && *u != '\t' && *u != '\n'))
			return 0;
	return 1;
}

/* Sets an item's summary or content from the captured text v (owned):
 * HTML, so plain text is escaped and markup parsed, sanitised and
 * resolved against base. */
static void
html_field(struct px *x, int field, char *v, int kind, const char *base, int rank)
{
	struct feedb *b = x->b;
	struct fb_buf h = {0};
	char *r;

	h.max = 0;
	if (plain_text(v)) {
		/* nothing to clean or escape: the sanitiser would give the
		 * text back trimmed */
		fr_feed_trim(v);
		fr_feedb_item_str(b, field, v, rank);
		return;
	}
	if (kind == K_TEXT) {
		if (fr_fb_add_escaped(&h, v, strlen(v), 0) != 0) {
			fr_fb_free(&h);
			b->oom = 1;
			free(v);
			return;
		}
		r = fr_fb_take(&h);
	} else {
		r = fr_feed_sanitize_html_r(&x->san, v, strlen(v), base, 1);
	}
	free(v);
	if (!r) {
		b->oom = 1;
		return;
	}
	fr_feedb_item_str(b, field, r, rank);
}

static void
defer_summary(struct px *x, char *v, int kind, const char *base, int rank)
{
	struct pending_summary *p;

	if (x->n_pend == x->cap_pend) {
		size_t nc = x->cap_pend ? 2 * x->cap_pend : 4;

		p = realloc(x->pend, nc * sizeof(*p));
		if (!p) {
			free(v);
			x->b->oom = 1;
			return;
		}
		x->pend = p;
		x->cap_pend = nc;
	}
	p = &x->pend[x->n_pend];
	p->raw = v;
	p->base = base ? strdup(base) : NULL;
	if (base && !p->base) {
		free(v);
		x->b->oom = 1;
		return;
	}
	p->kind = kind;
	p->rank = rank;
	x->n_pend++;
}

/* The open item ends: its summaries are made, in the order they came,
 * when it has no content, else dropped. */
static void
flush_summaries(void *ctx)
{
	struct px *x = ctx;
	int need = x->b->cur && !x->b->cur->content;

	for (size_t i = 0; i < x->n_pend; i++) {
		struct pending_summary *p = &x->pend[i];

		if (need)
			html_field(x, IF_SUMMARY, p->raw, p->kind, p->base, p->rank);
		else
			free(p->raw);
		free(p->base);
	}
	x->n_pend = 0;
}

static void
end_capture(struct px *x, int in_item_person)
{
	struct capture *c = &x->cap_;
	struct feedb *b = x->b;
	char *v;

	flush_open(x);
	c->active = 0;
	if (!x->text.n)
		return;
	/* An exact-size copy; the buffer stays for the next field. */
	v = malloc(x->text.n + 1);
	if (!v) {
		b->oom = 1;
		return;
	}
	memcpy(v, x->text.p, x->text.n + 1);
	if (c->kind == K_BASE64) {
		/* Binary media types are base64; an unknown type that does not
		 * decode to UTF-8 text was text after all. */
		char *d = fr_feed_base64(v, strlen(v));

		if (d && fr_feed_utf8_valid(d, strlen(d))) {
			free(v);
			v = d;
		} else {
			free(d);
		}
	}
	switch (c->target) {
	case T_ITEM_STR:
		if (c->field == IF_TITLE) {
			fr_feed_trim(v);
			v = title_text(x, v, c->kind, x->is_atom, c->base, b);
			if (!v)
				return;
		} else if (c->field == IF_SUMMARY && b->lazy_summary && b->cur) {
			defer_summary(x, v, c->kind, c->base ? c->base : b->base_url, c->rank);
			return;
		} else if (c->field == IF_SUMMARY || c->field == IF_CONTENT) {
			html_field(x, c->field, v, c->kind, c->base ? c->base : b->base_url, c->rank);
			return;
		}
		fr_feedb_item_str(b, c->field, v, c->rank);
		return;
	case T_ITEM_LINK:
		fr_feedb_item_str(b, IF_LINK, fr_feed_resolve(c->base, fr_feed_trim(v)), c->rank);
		break;
	case T_ITEM_GUID:
		fr_feed_trim(v);
		if (c->field == 1 && c->base && c->base != x->stack[0].base) {
			/* An Atom id under an xml:base resolves against it (as
			 * feedparser does); never against the feed's own URL, so
			 * that ids do not change when the feed moves. */
			char *r = fr_feed_resolve(c->base, v);

			if (r) {
				free(v);
				v = r;
			}
		}
		fr_feedb_item_str(b, IF_ID, v, c->rank);
		return;
	case T_ITEM_KEYWORDS: {
		char *save = NULL;

		for (char *t = strtok_r(v, ",", &save); t; t = strtok_r(NULL, ",", &save))
			fr_feedb_item_tag(b, strdup(t));
		break;
	}
	case T_ITEM_AUTHOR:
		fr_feedb_item_str(b, IF_AUTHOR, person_name(v), c->rank);
		return;
	case T_ITEM_DATE:
		fr_feedb_item_date(b, c->field, v, strlen(v), c->rank);
		break;
	case T_ITEM_PUBUPD:
		fr_feedb_item_date(b, IF_PUB, v, strlen(v), c->rank);
		fr_feedb_item_date(b, IF_UPD, v, strlen(v), c->rank);
		break;
	case T_ITEM_TAG:
		fr_feedb_item_tag(b, v);
		return;
	case T_ITEM_COMMENTS_URL:
		fr_feedb_item_str(b, IF_COMMENTS, fr_feed_resolve(c->base, fr_feed_trim(v)), c->rank);
		break;
	case T_ITEM_NCOMMENTS:
		if (b->cur) {
			int64_t n = parse_int(v, INT64_MAX / 10);

			if (n >= 0)
				b->cur->n_comments = n;
		}
		break;
	case T_FEED_STR:
		fr_feed_trim(v);
		if (c->field == FF_TITLE) {
			v = title_text(x, v, c->kind, x->is_atom, c->base, b);
			if (!v)
				return;
		} else if ((c->field == FF_SUBTITLE || c->field == FF_RIGHTS || c->field == FF_INFO) &&
		           c->kind != K_TEXT && strchr(v, '<')) {
			/* HTML: sanitised */
			char *r = fr_feed_sanitize_html_r(&x->san, v, strlen(v), c->base, 1);

			free(v);
			if (!r) {
				b->oom = 1;
				return;
			}
			v = r;
		}
		fr_feedb_feed_str(b, c->field, v, c->rank);
		return;
	case T_FEED_LINK:
		fr_feedb_feed_str(b, FF_LINK, fr_feed_resolve(c->base, fr_feed_trim(v)), c->rank);
		break;
	case T_FEED_AUTHOR:
		fr_feedb_feed_str(b, FF_AUTHOR, person_name(v), c->rank);
		return;
	case T_FEED_DATE:
		fr_feedb_feed_date(b, v, strlen(v), c->rank);
		break;
	case T_FEED_TTL: {
		int64_t m = parse_int(v, INT64_MAX / 600);

		if (m >= 0)
			b->f->ttl_s = m * 60;
		break;
	}
	case T_SY_PERIOD: {
		static const struct {
			const char *name;
			int64_t s;
		} periods[] = {{"hourly", 3600},      {"daily", 86400},      {"weekly", 7 * 86400},
		               {"monthly", 30 * 86400}, {"yearly", 365 * 86400}};

		fr_feed_trim(v);
		for (size_t i = 0; i < sizeof(periods) / sizeof(periods[0]); i++)
			if (!strcasecmp(v, periods[i].name))
				x->sy_period_s = periods[i].s;
		break;
	}
	case T_SY_FREQ: {
		int64_t n = parse_int(v, 1000000);

		if (n > 0)
			x->sy_freq = n;
		break;
	}
	case T_PERSON_NAME:
		if (in_item_person)
			fr_feedb_item_str(b, IF_AUTHOR, fr_feed_trim(v), c->rank);
		else
			fr_feedb_feed_str(b, FF_AUTHOR, fr_feed_trim(v), c->rank);
		return;
	case T_PERSON_EMAIL:
		if (in_item_person)
			fr_feedb_item_str(b, IF_AUTHOR, fr_feed_trim(v), c->rank);
		else
			fr_feedb_feed_str(b, FF_AUTHOR, fr_feed_trim(v), c->rank);
		return;
	default:
		break;
	}
	free(v);
}

/* The Atom text-construct kind of an element from its type and (Atom 0.3)
 * mode attributes. */
static int
atom_kind(const xmlChar **attrs, int n, int atom03)
{
	char *type = attr_dup(attrs, n, "type", 0);
	char *mode = atom03 ? attr_dup(attrs, n, "mode", 0) : NULL;
	int kind = K_TEXT;

	if (mode && !strcasecmp(mode, "base64"))
		kind = K_BASE64;
	else if (mode && !strcasecmp(mode, "escaped"))
		kind = K_HTML;
	else if (!type || !strcasecmp(type, "text") || !strcasecmp(type, "text/plain"))
		kind = atom03 && mode && !type ? K_XHTML : K_TEXT;
	else if (!strcasecmp(type, "html") || !strcasecmp(type, "text/html"))
		kind = atom03 && !mode ? K_XHTML : K_HTML;
	else if (!strcasecmp(type, "xhtml") || !strcasecmp(type, "application/xhtml+xml"))
		kind = K_XHTML;
	else if (!strncasecmp(type, "text/", 5))
		kind = K_TEXT;
	else if (strlen(type) >= 4 && (!strcasecmp(type + strlen(type) - 4, "+xml") ||
	                               !strcasecmp(type + strlen(type) - 4, "/xml")))
		kind = K_XHTML;
	else
		kind = atom03 ? K_HTML : K_BASE64;
	free(type);
	free(mode);
	return kind;
}

/* ---- element dispatch ---- */

static int
eq(const xmlChar *a, const char *b)
{
	return !strcmp((const char *)a, b);
}

static int64_t
attr_int(const xmlChar **attrs, int n, const char *name)
{
	char *s = attr_dup(attrs, n, name, 0);
	int64_t v = s ? parse_int(s, INT64_MAX / 10) : -1;

	free(s);
	return v;
}

/* <link> with attributes (Atom, or atom:link inside RSS). */
static void
atom_link(struct px *x, int in_item, const xmlChar **attrs, int n)
{
	struct feedb *b = x->b;
	char *href = attr_dup(attrs, n, "href", 0);
	char *rel = attr_dup(attrs, n, "rel", 0);
	char *type = attr_dup(attrs, n, "type", 0);
	const char *base = x->stack[x->depth].base;
	int alternate = !rel || !strcasecmp(fr_feed_trim(rel), "alternate");
	int htmlish = !type || strstr(type, "html") != NULL;

	if (!href) {
		free(rel);
		free(type);
		return;
	}
	if (in_item) {
		if (alternate)
			fr_feedb_item_str(b, IF_LINK, fr_feed_resolve(base, href), htmlish ? 2 : 3);
		else if (!strcasecmp(rel, "enclosure"))
			fr_feedb_item_enclosure(b, fr_feed_resolve(base, href), type ? strdup(type) : NULL,
			                     attr_int(attrs, n, "length"));
		else if (!strcasecmp(rel, "replies"))
			fr_feedb_item_str(b, IF_COMMENTS, fr_feed_resolve(base, href), 3);
	} else if (alternate) {
		fr_feedb_feed_str(b, FF_LINK, fr_feed_resolve(base, href), x->is_atom ? 1 : 2);
	} else if (b->f && (!strcasecmp(rel, "hub") || !strcasecmp(rel, "self"))) {
		/* WebSub: the first of each is kept. */
		char **dst = !strcasecmp(rel, "hub") ? &b->f->hub : &b->f->self;

		if (!*dst && !(*dst = fr_feed_resolve(base, href)))
			b->oom = 1;
	}
	free(href);
	free(rel);
	free(type);
}

/* An element inside an item (RSS item or Atom entry). Returns the new
 * context. */
static int
item_element(struct px *x, int ns, const xmlChar *l, const xmlChar **attrs, int n)
{
	struct feedb *b = x->b;
	int atom = ns == NS_ATOM10 || ns == NS_ATOM03;

	if (ns == NS_NONE || ns == NS_RSS090 || (atom && !x->is_atom) || (atom && x->is_atom)) {
		/* RSS core elements, and Atom's (as root or atom: inside RSS). */
		if (atom || x->is_atom) {
			int a03 = ns == NS_ATOM03;

			if (eq(l, "title"))
				begin_capture(x, T_ITEM_STR, IF_TITLE, 1, atom_kind(attrs, n, a03));
			else if (eq(l, "link"))
				atom_link(x, 1, attrs, n);
			else if (eq(l, "id"))
				begin_capture(x, T_ITEM_GUID, 1, 1, K_TEXT);
			else if (eq(l, "summary"))
				begin_capture(x, T_ITEM_STR, IF_SUMMARY, 1, atom_kind(attrs, n, a03));
			else if (eq(l, "content")) {
				char *src = attr_dup(attrs, n, "src", 0);
				int has_src = src != NULL;

				free(src);
				if (has_src)
					return C_SKIP;
				begin_capture(x, T_ITEM_STR, IF_CONTENT, 1, atom_kind(attrs, n, a03));
			} else if (eq(l, "published"))
				begin_capture(x, T_ITEM_DATE, IF_PUB, 1, K_TEXT);
			else if (eq(l, "issued"))
				begin_capture(x, T_ITEM_DATE, IF_PUB, 2, K_TEXT);
			else if (eq(l, "created"))
				begin_capture(x, T_ITEM_DATE, IF_PUB, 3, K_TEXT);
			else if (eq(l, "updated"))
				begin_capture(x, T_ITEM_DATE, IF_UPD, 1, K_TEXT);
			else if (eq(l, "modified"))
				begin_capture(x, T_ITEM_DATE, IF_UPD, 2, K_TEXT);
			else if (eq(l, "author"))
				return C_PERSON_ITEM;
			else if (eq(l, "category")) {
				char *t = attr_dup(attrs, n, "term", 0);

				if (!t || !*fr_feed_trim(t)) {
					free(t);
					t = attr_dup(attrs, n, "label", 0);
				}
				fr_feedb_item_tag(b, t);
				return C_SKIP;
			} else if (!atom) {
				goto rss_core;
			} else {
				return C_SKIP;
			}
			return x->cap_.active ? C_CAPTURE : C_SKIP;
		}
	rss_core:
		if (eq(l, "title"))
			begin_capture(x, T_ITEM_STR, IF_TITLE, 1, K_HTML);
		else if (eq(l, "link"))
			begin_capture(x, T_ITEM_LINK, 0, 1, K_TEXT);
		else if (eq(l, "guid")) {
			char *pl = attr_dup(attrs, n, "isPermaLink", 0);

			b->guid_permalink = !(pl && !strcasecmp(fr_feed_trim(pl), "false"));
			free(pl);
			begin_capture(x, T_ITEM_GUID, 0, 1, K_TEXT);
		} else if (eq(l, "description"))
			begin_capture(x, T_ITEM_STR, IF_SUMMARY, 1, K_HTML);
		else if (eq(l, "author"))
			begin_capture(x, T_ITEM_AUTHOR, 0, 2, K_TEXT);
		else if (eq(l, "category"))
			begin_capture(x, T_ITEM_TAG, 0, 1, K_TEXT);
		else if (eq(l, "pubDate"))
			begin_capture(x, T_ITEM_DATE, IF_PUB, 1, K_TEXT);
		else if (eq(l, "comments"))
			begin_capture(x, T_ITEM_COMMENTS_URL, 0, 1, K_TEXT);
		else if (eq(l, "encoded"))
			begin_capture(x, T_ITEM_STR, IF_CONTENT, 2, K_HTML);
		else if (eq(l, "body") || eq(l, "fullitem"))
			/* feedparser's body (XHTML inline) and fullitem */
			begin_capture(x, T_ITEM_STR, IF_CONTENT, 3, K_HTML);
		else if (eq(l, "enclosure")) {
			char *url = attr_dup(attrs, n, "url", 0);

			if (url)
				fr_feedb_item_enclosure(b, fr_feed_resolve(x->stack[x->depth].base, url),
				                     attr_dup(attrs, n, "type", 0),
				                     attr_int(attrs, n, "length"));
			free(url);
			return C_SKIP;
		} else
			return C_SKIP;
		return C_CAPTURE;
	}
	switch (ns) {
	case NS_CONTENT:
		if (eq(l, "encoded")) {
			begin_capture(x, T_ITEM_STR, IF_CONTENT, 1, K_HTML);
			return C_CAPTURE;
		}
		break;
	case NS_XHTML:
		if (eq(l, "body")) {
			begin_capture(x, T_ITEM_STR, IF_CONTENT, 3, K_HTML);
			return C_CAPTURE;
		}
		break;
	case NS_DC:
		if (eq(l, "creator") || eq(l, "author")) {
			begin_capture(x, T_ITEM_AUTHOR, 0, 1, K_TEXT);
			return C_CAPTURE;
		}
		if (eq(l, "date")) {
			begin_capture(x, T_ITEM_PUBUPD, 0, 3, K_TEXT);
			return C_CAPTURE;
		}
		if (eq(l, "subject")) {
			begin_capture(x, T_ITEM_TAG, 0, 1, K_TEXT);
			return C_CAPTURE;
		}
		if (eq(l, "title")) {
			begin_capture(x, T_ITEM_STR, IF_TITLE, 2, K_HTML);
			return C_CAPTURE;
		}
		if (eq(l, "description")) {
			begin_capture(x, T_ITEM_STR, IF_SUMMARY, 2, K_HTML);
			return C_CAPTURE;
		}
		if (eq(l, "identifier")) {
			begin_capture(x, T_ITEM_GUID, 0, 3, K_TEXT);
			return C_CAPTURE;
		}
		break;
	case NS_DCTERMS:
		if (eq(l, "modified")) {
			begin_capture(x, T_ITEM_DATE, IF_UPD, 2, K_TEXT);
			return C_CAPTURE;
		}
		if (eq(l, "issued") || eq(l, "created")) {
			begin_capture(x, T_ITEM_DATE, IF_PUB, 2, K_TEXT);
			return C_CAPTURE;
		}
		break;
	case NS_MEDIA:
		if (eq(l, "title")) {
			begin_capture(x, T_ITEM_STR, IF_TITLE, 3, K_TEXT);
			return C_CAPTURE;
		}
		if (eq(l, "description")) {
			begin_capture(x, T_ITEM_STR, IF_SUMMARY, 4, K_TEXT);
			return C_CAPTURE;
		}
		if (eq(l, "group") || eq(l, "content"))
			return C_MEDIA;
		if (eq(l, "keywords")) {
			begin_capture(x, T_ITEM_KEYWORDS, 0, 1, K_TEXT);
			return C_CAPTURE;
		}
		break;
	case NS_ITUNES:
		if (eq(l, "author")) {
			begin_capture(x, T_ITEM_AUTHOR, 0, 3, K_TEXT);
			return C_CAPTURE;
		}
		if (eq(l, "summary")) {
			begin_capture(x, T_ITEM_STR, IF_SUMMARY, 3, K_TEXT);
			return C_CAPTURE;
		}
		if (eq(l, "keywords")) {
			begin_capture(x, T_ITEM_KEYWORDS, 0, 1, K_TEXT);
			return C_CAPTURE;
		}
		break;
	case NS_SLASH:
		if (eq(l, "comments")) {
			begin_capture(x, T_ITEM_NCOMMENTS, 0, 1, K_TEXT);
			return C_CAPTURE;
		}
		break;
	case NS_WFW:
		if (!strcasecmp((const char *)l, "commentRss")) {
			begin_capture(x, T_ITEM_COMMENTS_URL, 0, 2, K_TEXT);
			return C_CAPTURE;
		}
		break;
	default:
		break;
	}
	return C_SKIP;
}

/* An element at feed level (RSS channel or Atom feed). */
static int
channel_element(struct px *x, int ns, const xmlChar *l, const xmlChar **attrs, int n)
{
	int atom = ns == NS_ATOM10 || ns == NS_ATOM03;

	if ((ns == NS_NONE || ns == NS_RSS090) && !x->is_atom) {
		if (eq(l, "item")) {
			if (fr_feedb_item_begin(x->b) != 0)
				stop(x);
			return C_ITEM;
		}
		if (eq(l, "title"))
			begin_capture(x, T_FEED_STR, FF_TITLE, 1, K_HTML);
		else if (eq(l, "link"))
			begin_capture(x, T_FEED_LINK, 0, 1, K_TEXT);
		else if (eq(l, "description"))
			begin_capture(x, T_FEED_STR, FF_SUBTITLE, 1, K_HTML);
		else if (eq(l, "language"))
			begin_capture(x, T_FEED_STR, FF_LANGUAGE, 1, K_TEXT);
		else if (eq(l, "lastBuildDate"))
			begin_capture(x, T_FEED_DATE, 0, 1, K_TEXT);
		else if (eq(l, "pubDate"))
			begin_capture(x, T_FEED_DATE, 0, 2, K_TEXT);
		else if (eq(l, "ttl"))
			begin_capture(x, T_FEED_TTL, 0, 1, K_TEXT);
		else if (eq(l, "managingEditor"))
			begin_capture(x, T_FEED_AUTHOR, 0, 2, K_TEXT);
		else if (eq(l, "webMaster"))
			begin_capture(x, T_FEED_AUTHOR, 0, 3, K_TEXT);
		else if (eq(l, "copyright"))
			begin_capture(x, T_FEED_STR, FF_RIGHTS, 1, K_HTML);
		else
			return C_SKIP;
		return C_CAPTURE;
	}
	if (atom || (x->is_atom && ns == NS_NONE)) {
		int a03 = ns == NS_ATOM03;

		if (eq(l, "entry")) {
			if (fr_feedb_item_begin(x->b) != 0)
				stop(x);
			return C_ITEM;
		}
		if (eq(l, "title"))
			begin_capture(x, T_FEED_STR, FF_TITLE, x->is_atom ? 1 : 2, atom_kind(attrs, n, a03));
		else if (eq(l, "subtitle") || eq(l, "tagline"))
			begin_capture(x, T_FEED_STR, FF_SUBTITLE, x->is_atom ? 1 : 2,
			              atom_kind(attrs, n, a03));
		else if (eq(l, "link")) {
			atom_link(x, 0, attrs, n);
			return C_SKIP;
		} else if (eq(l, "updated") || eq(l, "modified"))
			begin_capture(x, T_FEED_DATE, 0, 1, K_TEXT);
		else if (eq(l, "rights") || eq(l, "copyright"))
			begin_capture(x, T_FEED_STR, FF_RIGHTS, 1, atom_kind(attrs, n, a03));
		else if (eq(l, "info"))
			begin_capture(x, T_FEED_STR, FF_INFO, 1, atom_kind(attrs, n, a03));
		else if (eq(l, "author"))
			return C_PERSON_FEED;
		else
			return C_SKIP;
		return C_CAPTURE;
	}
	switch (ns) {
	case NS_DC:
		if (eq(l, "language"))
			begin_capture(x, T_FEED_STR, FF_LANGUAGE, 2, K_TEXT);
		else if (eq(l, "date"))
			begin_capture(x, T_FEED_DATE, 0, 3, K_TEXT);
		else if (eq(l, "creator"))
			begin_capture(x, T_FEED_AUTHOR, 0, 1, K_TEXT);
		else if (eq(l, "title"))
			begin_capture(x, T_FEED_STR, FF_TITLE, 2, K_HTML);
		else if (eq(l, "description"))
			begin_capture(x, T_FEED_STR, FF_SUBTITLE, 2, K_HTML);
		else if (eq(l, "rights"))
			begin_capture(x, T_FEED_STR, FF_RIGHTS, 2, K_HTML);
		else
			return C_SKIP;
		return C_CAPTURE;
	case NS_SY:
		if (eq(l, "updatePeriod"))
			begin_capture(x, T_SY_PERIOD, 0, 1, K_TEXT);
		else if (eq(l, "updateFrequency"))
			begin_capture(x, T_SY_FREQ, 0, 1, K_TEXT);
		else
			return C_SKIP;
		return C_CAPTURE;
	case NS_ITUNES:
		if (eq(l, "author"))
			begin_capture(x, T_FEED_AUTHOR, 0, 4, K_TEXT);
		else if (eq(l, "subtitle"))
			begin_capture(x, T_FEED_STR, FF_SUBTITLE, 3, K_TEXT);
		else if (eq(l, "summary"))
			begin_capture(x, T_FEED_STR, FF_SUBTITLE, 4, K_TEXT);
		else
			return C_SKIP;
		return C_CAPTURE;
	default:
		return C_SKIP;
	}
}

/* The root element: which format, or not a feed. */
static int
root_element(struct px *x, int ns, const xmlChar *l, const xmlChar **attrs, int n, int nb_ns,
             const xmlChar **nss)
{
	struct fr_feed *f = x->b->f;
	char *v;

	x->root_seen = 1;
	snprintf(x->root_name, sizeof(x->root_name), "%s", (const char *)l);
	if (eq(l, "rss") && (ns == NS_NONE || ns == NS_OTHER)) {
		x->rss_version = attr_dup(attrs, n, "version", 0);
		return C_RSS;
	}
	if (eq(l, "RDF") && ns == NS_RDF) {
		int v090 = 0;

		for (int i = 0; i < nb_ns; i++)
			if (!nss[2 * i] && nss[2 * i + 1] &&
			    ns_lookup((const char *)nss[2 * i + 1]) == NS_RSS090)
				v090 = 1;
		/* rss090 also when its elements say so */
		f->version = strdup(v090 ? "rss090" : "rss10");
		if (!f->version)
			x->b->oom = 1;
		return C_RDF;
	}
	if (eq(l, "feed") && (ns == NS_ATOM10 || ns == NS_ATOM03 || ns == NS_NONE)) {
		x->is_atom = 1;
		v = attr_dup(attrs, n, "version", 0);
		if (ns == NS_ATOM10)
			f->version = strdup("atom10");
		else if (ns == NS_ATOM03 || (v && !strcmp(fr_feed_trim(v), "0.3")))
			f->version = strdup("atom03");
		else if (v && !strcmp(v, "0.2"))
			f->version = strdup("atom02");
		else if (v && !strcmp(v, "0.1"))
			f->version = strdup("atom01");
		else
			f->version = strdup("atom");
		free(v);
		if (!f->version)
			x->b->oom = 1;
		v = attr_dup(attrs, n, "lang", 1);
		fr_feedb_feed_str(x->b, FF_LANGUAGE, v ? fr_feed_trim(v) : NULL, 3);
		return C_CHANNEL;
	}
	if (eq(l, "entry") && (ns == NS_ATOM10 || ns == NS_ATOM03)) {
		/* An Atom entry document: a feed of one entry. */
		x->is_atom = 1;
		f->version = strdup(ns == NS_ATOM10 ? "atom10" : "atom03");
		if (!f->version || fr_feedb_item_begin(x->b) != 0)
			x->b->oom = 1;
		return C_ITEM;
	}
	if (eq(l, "channel") && ns == NS_NONE) {
		f->version = strdup("rss");
		return C_CHANNEL;
	}
	if (!strcasecmp((const char *)l, "channel") && ns == NS_NONE) {
		/* Microsoft's CDF (<CHANNEL HREF=...>), read by feedparser's
		 * rules in --format json; no item of it is a feed item here */
		f->version = strdup("cdf");
		if (!f->version)
			x->b->oom = 1;
		return C_SKIP;
	}
	x->not_feed = 1;
	stop(x);
	return C_SKIP;
}

static void
rss_version(struct px *x)
{
	struct fr_feed *f = x->b->f;
	const char *v = x->rss_version ? fr_feed_trim(x->rss_version) : "";
	const char *name = "rss";

	if (f->version)
		return;
	if (!strcmp(v, "0.91"))
		name = x->netscape_doctype ? "rss091n" : "rss091u";
	else if (!strcmp(v, "0.92"))
		name = "rss092";
	else if (!strcmp(v, "0.93"))
		name = "rss093";
	else if (!strcmp(v, "0.94"))
		name = "rss094";
	else if (!strncmp(v, "2.", 2))
		name = "rss20";
	else if (!strcmp(v, "0.90"))
		name = "rss090";
	f->version = strdup(name);
	if (!f->version)
		x->b->oom = 1;
}

/* ---- feedparser's result model: its strict parser's names ---- */

/* "prefix:local" as feedparser's startElementNS names an element or an
 * attribute, in lower case, into out. */
/* fr_fpx_ns_prefix(uri), remembered per interned URI. */
static const char *
fp_ns_prefix(struct px *x, const xmlChar *uri)
{
	const char *m;

	for (unsigned i = 0; i < 4; i++)
		if (x->fp_uri[i] == uri)
			return x->fp_pre[i];
	m = fr_fpx_ns_prefix((const char *)uri);
	x->fp_uri[x->fp_next] = uri;
	x->fp_pre[x->fp_next] = m;
	x->fp_next = (x->fp_next + 1) % 4;
	return m;
}

/* "a:b" (or "b" when a is NULL or empty) lower-cased into out[cap]: as
 * much as fits. */
static void
join_lower(char *out, size_t cap, const char *a, const char *b)
{
	const char *parts[3] = {a && *a ? a : "", a && *a ? ":" : "", b};
	size_t k = 0;

	for (int i = 0; i < 3; i++)
		for (const char *s = parts[i]; *s && k + 1 < cap; s++)
			out[k++] = (char)(*s >= 'A' && *s <= 'Z' ? *s - 'A' + 'a' : *s);
	out[k] = '\0';
}

static void
fp_name(struct px *x, const xmlChar *local, const xmlChar *prefix, const xmlChar *uri, int attr,
        char *out, size_t cap)
{
	const char *m = uri ? fp_ns_prefix(x, uri) : "";

	if (!m)
		m = attr ? "" : (prefix ? (const char *)prefix : "");
	join_lower(out, cap, m, (const char *)local);
}

static void
fp_start(struct px *x, const xmlChar *l, const xmlChar *prefix, const xmlChar *uri, int nb_ns,
         const xmlChar **nss, int n, const xmlChar **attrs)
{
	char tag[160];
	char **kv = NULL;
	size_t nkv = 0;

	for (int i = 0; i < nb_ns; i++)
		fr_fpx_ns(x->fp, (const char *)nss[2 * i], (const char *)nss[2 * i + 1]);
	fp_name(x, l, prefix, uri, 0, tag, sizeof(tag));
	if (n > 0) {
		kv = calloc((size_t)n * 4, sizeof(*kv));
		if (!kv) {
			x->b->oom = 1;
			return;
		}
	}
	for (int i = 0; i < n; i++) {
		const xmlChar **a = attrs + 5 * i;
		char name[160], qname[160];
		char *v = attr_text(a[3], a[4]);

		if (!v) {
			x->b->oom = 1;
			break;
		}
		v = fr_feed_utf8_fix(v);
		if (!v) {
			x->b->oom = 1;
			break;
		}
		fp_name(x, a[0], a[1], a[2], 1, name, sizeof(name));
		join_lower(qname, sizeof(qname), (const char *)a[1], (const char *)a[0]);
		if (!strcmp(name, "rel") || !strcmp(name, "type"))
			lower_ascii(v);
		kv[2 * nkv] = fr_feed_utf8_fix(strdup(name));
		kv[2 * nkv + 1] = v;
		nkv++;
		if (strcmp(name, qname)) {
			kv[2 * nkv] = fr_feed_utf8_fix(strdup(qname));
			kv[2 * nkv + 1] = strdup(v);
			nkv++;
		}
	}
	for (size_t i = 0; i < 2 * nkv; i++)
		if (!kv[i])
			x->b->oom = 1;
	if (!fr_feed_utf8_valid(tag, strlen(tag)))
		snprintf(tag, sizeof(tag), "%s", "\xef\xbf\xbd"); /* an undecodable name */
	if (!x->b->oom)
		fr_fpx_start(x->fp, tag, (const char *const *)kv, nkv);
	for (size_t i = 0; i < 2 * nkv; i++)
		free(kv[i]);
	free(kv);
	if (fr_fpx_oom(x->fp))
		x->b->oom = 1;
}

static void
fp_end(struct px *x, const xmlChar *l, const xmlChar *prefix, const xmlChar *uri)
{
	char tag[160];

	fp_name(x, l, prefix, uri, 0, tag, sizeof(tag));
	if (!fr_feed_utf8_valid(tag, strlen(tag)))
		snprintf(tag, sizeof(tag), "%s", "\xef\xbf\xbd");
	fr_fpx_end(x->fp, tag);
}

/* ---- SAX callbacks ---- */

static int
push_frame(struct px *x, int ctx, const xmlChar **attrs, int n)
{
	struct frame *fr;
	char *xb;

	if (x->depth + 1 >= x->cap) {
		unsigned cap = x->cap * 2;
		struct frame *p = realloc(x->stack, cap * sizeof(*p));

		if (!p) {
			x->b->oom = 1;
			return -1;
		}
		x->stack = p;
		x->cap = cap;
	}
	fr = &x->stack[x->depth + 1];
	fr->ctx = (unsigned char)ctx;
	fr->base = x->stack[x->depth].base;
	fr->base_owned = 0;
	xb = n ? attr_dup(attrs, n, "base", 1) : NULL;
	if (xb) {
		char *abs = fr_feed_resolve(fr->base, xb);

		free(xb);
		if (abs) {
			fr->base = abs;
			fr->base_owned = 1;
		}
	}
	x->depth++;
	return 0;
}

static void
on_start(void *ud, const xmlChar *l, const xmlChar *prefix, const xmlChar *uri, int nb_ns,
         const xmlChar **nss, int n, int nb_def, const xmlChar **attrs)
{
	struct px *x = ud;
	int parent, ctx, ns;

	(void)nb_def;
	keep_entities(x);
	if (x->stopped)
		return;
	if (x->depth >= x->max_depth) {
		fr_feedb_bozo(x->b, "line %d: elements nested deeper than %u; parsing stopped",
		           xmlSAX2GetLineNumber(x->ctxt), x->max_depth);
		stop(x);
		return;
	}
	if (x->fp)
		fp_start(x, l, prefix, uri, nb_ns, nss, n, attrs);
	parent = x->stack[x->depth].ctx;
	if (push_frame(x, C_SKIP, attrs, n) != 0) {
		stop(x);
		return;
	}
	if (parent == C_CAPTURE) {
		struct capture *c = &x->cap_;

		x->stack[x->depth].ctx = C_CAPTURE;
		if (c->kind == K_XHTML && !c->xhtml_div && x->depth == c->depth + 1 && eq(l, "div") &&
		    ns_of(x, uri, prefix) == NS_XHTML && x->text.n == 0) {
			c->xhtml_div = x->depth;
			return;
		}
		if (to_markup(x) != 0) {
			x->b->oom = 1;
			return;
		}
		serialize_start(x, l, prefix, n, attrs);
		return;
	}
	if (parent == C_SKIP)
		return;
	ns = ns_of(x, uri, prefix);
	switch (parent) {
	case C_TOP:
		ctx = root_element(x, ns, l, attrs, n, nb_ns, nss);
		break;
	case C_RSS:
	case C_RDF:
		if (parent == C_RDF && ns == NS_RSS090 && x->b->f->version &&
		    strcmp(x->b->f->version, "rss090") != 0) {
			free(x->b->f->version);
			x->b->f->version = strdup("rss090");
			if (!x->b->f->version)
				x->b->oom = 1;
		}
		if (eq(l, "channel")) {
			ctx = C_CHANNEL;
		} else if (eq(l, "item")) {
			ctx = fr_feedb_item_begin(x->b) == 0 ? C_ITEM : C_SKIP;
			/* RSS 1.0: rdf:about names the item; a guid or
			 * dc:identifier, when given, wins */
			if (ctx == C_ITEM) {
				for (int i = 0; i < n; i++) {
					const xmlChar **a = attrs + 5 * i;
					char *v;

					if (strcmp((const char *)a[0], "about") ||
					    ns_of(x, a[2], a[1]) != NS_RDF)
						continue;
					v = attr_text(a[3], a[4]);
					if (!v)
						x->b->oom = 1;
					else
						fr_feedb_item_str(x->b, IF_ID, fr_feed_trim(v), 4);
					break;
				}
			}
		} else {
			ctx = C_SKIP;
		}
		break;
	case C_CHANNEL:
		ctx = channel_element(x, ns, l, attrs, n);
		break;
	case C_ITEM:
		ctx = item_element(x, ns, l, attrs, n);
		break;
	case C_MEDIA:
		ctx = ns == NS_MEDIA ? item_element(x, ns, l, attrs, n) : C_SKIP;
		break;
	case C_PERSON_FEED:
	case C_PERSON_ITEM:
		if (eq(l, "name"))
			begin_capture(x, T_PERSON_NAME, 0, 1, K_TEXT);
		else if (eq(l, "email"))
			begin_capture(x, T_PERSON_EMAIL, 0, 5, K_TEXT);
		ctx = x->cap_.active ? C_CAPTURE : C_SKIP;
		break;
	default:
		ctx = C_SKIP;
		break;
	}
	x->stack[x->depth].ctx = (unsigned char)ctx;
}

static void
on_end(void *ud, const xmlChar *l, const xmlChar *prefix, const xmlChar *uri)
{
	struct px *x = ud;
	struct frame *fr;
	int ctx;

	keep_entities(x);
	if (x->depth == 0)
		return;
	if (x->fp && !x->stopped)
		fp_end(x, l, prefix, uri);
	fr = &x->stack[x->depth];
	ctx = fr->ctx;
	if (ctx == C_CAPTURE && x->cap_.active) {
		struct capture *c = &x->cap_;

		if (x->depth == c->depth) {
			end_capture(x, x->stack[x->depth - 1].ctx == C_PERSON_ITEM);
		} else if (x->depth == c->xhtml_div) {
			c->xhtml_div = 0;
			flush_open(x);
		} else if (c->pending_open) {
			c->pending_open = 0;
			if (fr_fb_add(&x->text, "/>", 2) != 0)
				x->b->oom = 1;
		} else {
			int bad = fr_fb_add(&x->text, "</", 2);

			if (prefix) {
				bad |= fr_fb_add(&x->text, (const char *)prefix, strlen((const char *)prefix));
				bad |= fr_fb_addc(&x->text, ':');
			}
			bad |= fr_fb_add(&x->text, (const char *)l, strlen((const char *)l));
			bad |= fr_fb_addc(&x->text, '>');
			if (bad)
				x->b->oom = 1;
		}
	} else if (ctx == C_ITEM) {
		fr_feedb_item_end(x->b);
	}
	if (fr->base_owned)
		free((char *)fr->base);
	x->depth--;
}

static void
on_chars(void *ud, const xmlChar *s, int n)
{
	struct px *x = ud;
	int rc;

	keep_entities(x);
	if (x->fp && !x->stopped && x->depth > 0) {
		if (fr_feed_utf8_valid((const char *)s, (size_t)n)) {
			fr_fpx_text(x->fp, (const char *)s, (size_t)n);
		} else {
			char *t = strndup((const char *)s, (size_t)n);

			t = fr_feed_utf8_fix(t);
			if (t)
				fr_fpx_text(x->fp, t, strlen(t));
			else
				x->b->oom = 1;
			free(t);
		}
	}
	if (!x->cap_.active || x->stopped)
		return;
	if (x->cap_.xhtml_div && x->depth < x->cap_.xhtml_div)
		return; /* blanks around the xhtml wrapper div */
	flush_open(x);
	if (x->cap_.markup)
		rc = fr_fb_add_escaped(&x->text, (const char *)s, (size_t)n, 0);
	else
		rc = fr_fb_add(&x->text, (const char *)s, (size_t)n);
	if (rc != 0) {
		fr_feedb_bozo(x->b, "line %d: text longer than %zu bytes; parsing stopped",
		           xmlSAX2GetLineNumber(x->ctxt), x->text.max);
		stop(x);
	}
}

/* ---- CDATA lifting ----
 * libxml2 2.9 reads CDATA one character at a time, the slowest path of a
 * typical feed (content:encoded). In a UTF-8 document each CDATA section
 * whose content is valid UTF-8 without control characters is cut out
 * before parsing and replaced by a processing instruction
 * "<?fr-cdata N\n...?>" (as many newlines as the section had, so error
 * lines stay right); the PI callback hands the original bytes on as text. */

#define LIFT_PI "<?fr-cdata "

static void
on_pi(void *ud, const xmlChar *target, const xmlChar *data)
{
	struct px *x = ud;
	size_t k = 0;

	keep_entities(x);
	if (!x->lifted || strcmp((const char *)target, "fr-cdata") || !data)
		return;
	for (const xmlChar *p = data; *p >= '0' && *p <= '9'; p++)
		k = k * 10 + (size_t)(*p - '0');
	if (k < x->n_lifted)
		on_chars(x, (const xmlChar *)x->lift_src + x->lifted[k].off, (int)x->lifted[k].len);
}

/* Whether CDATA content can be handed on as it is: UTF-8, no NUL or other
 * control characters XML forbids; counts its newlines. */
static int
liftable(const char *s, size_t n, size_t *newlines)
{
	size_t nl = 0;

	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c < 0x20 && c != '\t' && c != '\r') {
			if (c != '\n')
				return 0;
			nl++;
		}
	}
	*newlines = nl;
	return fr_feed_utf8_valid(s, n);
}

/* The document's declared encoding is UTF-8 (or none is declared). */
static int
declared_utf8(const char *buf, size_t len)
{
	const char *p = buf, *e, *enc;
	size_t n = len < 256 ? len : 256;

	if (n >= 3 && !memcmp(p, "\xef\xbb\xbf", 3))
		p += 3, n -= 3;
	if (n < 5 || memcmp(p, "<?xml", 5))
		return 1;
	e = memchr(p, '>', n);
	if (!e)
		return 0;
	for (enc = p; enc + 8 < e && memcmp(enc, "encoding", 8); enc++)
		;
	if (enc + 8 >= e)
		return 1;
	enc += 8;
	while (enc < e && (*enc == ' ' || *enc == '=' || *enc == '"' || *enc == '\''))
		enc++;
	return (size_t)(e - enc) >= 5 && !strncasecmp(enc, "utf-8", 5) &&
	       (enc[5] == '"' || enc[5] == '\'');
}

/* Sets *out to a copy of buf with the liftable CDATA sections replaced,
 * and x->lifted to their spans in buf. Returns 1, 0 when nothing was
 * lifted (*out NULL), -1 on out of memory. */
static int
lift_cdata(struct px *x, const char *buf, size_t len, char **out, size_t *out_len)
{
	struct fb_buf o = {0};
	size_t pos = 0, copied = 0, cap = 0;

	*out = NULL;
	while (pos < len) {
		const char *lt = memchr(buf + pos, '<', len - pos);
		size_t k, start, end, nl;
		const char *close;

		if (!lt)
			break;
		k = (size_t)(lt - buf);
		if (len - k >= 4 && !memcmp(lt, "<!--", 4)) {
			const char *e = NULL;

			for (size_t i = k + 4; i + 3 <= len; i++)
				if (buf[i] == '-' && !memcmp(buf + i, "-->", 3)) {
					e = buf + i;
					break;
				}
			pos = e ? (size_t)(e - buf) + 3 : len;
			continue;
		}
		if (len - k < 12 || memcmp(lt, "<![CDATA[", 9)) {
			pos = k + 1;
			continue;
		}
		start = k + 9;
		close = NULL;
		for (const char *p = buf + start; (p = memchr(p, ']', (size_t)(buf + len - p))) != NULL;
		     p++) {
			if ((size_t)(buf + len - p) >= 3 && p[1] == ']' && p[2] == '>') {
				close = p;
				break;
			}
		}
		if (!close)
			break;
		end = (size_t)(close - buf);
		pos = end + 3;
		if (end - start > INT32_MAX || !liftable(buf + start, end - start, &nl))
			continue;
		if (x->n_lifted == cap) {
			size_t ncap = cap ? cap * 2 : 64;
			struct span *p = realloc(x->lifted, ncap * sizeof(*p));

			if (!p)
				goto oom;
			x->lifted = p;
			cap = ncap;
		}
		{
			char num[32];
			int nn = snprintf(num, sizeof(num), "%zu", x->n_lifted);

			if (fr_fb_add(&o, buf + copied, k - copied) != 0 ||
			    fr_fb_add(&o, LIFT_PI, sizeof(LIFT_PI) - 1) != 0 || fr_fb_add(&o, num, (size_t)nn) != 0)
				goto oom;
			for (size_t i = 0; i < nl; i++)
				if (fr_fb_addc(&o, '\n') != 0)
					goto oom;
			if (fr_fb_add(&o, "?>", 2) != 0)
				goto oom;
		}
		x->lifted[x->n_lifted].off = start;
		x->lifted[x->n_lifted].len = end - start;
		x->n_lifted++;
		copied = end + 3;
	}
	if (!x->n_lifted)
		return 0;
	if (fr_fb_add(&o, buf + copied, len - copied) != 0)
		goto oom;
	x->lift_src = buf;
	*out_len = o.n;
	*out = fr_fb_take(&o);
	return 1;
oom:
	fr_fb_free(&o);
	free(x->lifted);
	x->lifted = NULL;
	x->n_lifted = 0;
	return -1;
}

/* ---- the parse ---- */

/* The charset parameter of a Content-Type, as a malloc'd string, or NULL. */
static char *
content_type_charset(const char *ct)
{
	const char *p;
	size_t n;

	if (!ct)
		return NULL;
	for (p = ct; *p; p++) {
		if (strncasecmp(p, "charset", 7))
			continue;
		p += 7;
		while (*p == ' ')
			p++;
		if (*p != '=')
			continue;
		p++;
		while (*p == ' ' || *p == '"' || *p == '\'')
			p++;
		n = strcspn(p, "\"'; \t");
		return n ? strndup(p, n) : NULL;
	}
	return NULL;
}

static int
has_bom(const char *buf, size_t len)
{
	const unsigned char *u = (const unsigned char *)buf;

	return (len >= 3 && u[0] == 0xEF && u[1] == 0xBB && u[2] == 0xBF) ||
	       (len >= 2 && ((u[0] == 0xFE && u[1] == 0xFF) || (u[0] == 0xFF && u[1] == 0xFE)));
}

static void
lower_ascii(char *s)
{
	for (; s && *s; s++)
		if (*s >= 'A' && *s <= 'Z')
			*s = (char)(*s - 'A' + 'a');
}

/* One libxml2 pass over buf; forced names the encoding to use instead of
 * the document's own (NULL: BOM, declaration, else UTF-8). */
static int
run(struct px *x, const char *buf, size_t len, const char *forced)
{
	xmlParserCtxtPtr ctxt;
	xmlSAXHandlerPtr oldsax;
	const char *enc = NULL;

	if (len > INT32_MAX)
		return -1;
	ctxt = xmlCreateMemoryParserCtxt(buf, (int)len);
	if (!ctxt)
		return -1;
	oldsax = ctxt->sax;
	ctxt->sax = &x->sax;
	ctxt->userData = x;
	x->ctxt = ctxt;
	xmlCtxtUseOptions(ctxt, XML_PARSE_NONET | XML_PARSE_RECOVER | XML_PARSE_NOCDATA |
	                          (forced ? XML_PARSE_IGNORE_ENC : 0));
	if (forced) {
		xmlCharEncodingHandlerPtr h = xmlFindCharEncodingHandler(forced);

		if (h && xmlSwitchToEncoding(ctxt, h) == 0)
			enc = forced;
	}
	xmlParseDocument(ctxt);
	if (!enc && ctxt->input && ctxt->input->buf && ctxt->input->buf->encoder)
		enc = ctxt->input->buf->encoder->name;
	if (!enc && ctxt->encoding)
		enc = (const char *)ctxt->encoding;
	if (!enc)
		enc = "utf-8";
	free(x->b->f->encoding);
	x->b->f->encoding = strdup(enc);
	if (!x->b->f->encoding)
		x->b->oom = 1;
	lower_ascii(x->b->f->encoding);
	/* libxml2 keeps DTD entity declarations in a document of its own
	 * ("expat compatibility" in SAX mode); they are never used here. */
	if (ctxt->myDoc) {
		xmlFreeDoc(ctxt->myDoc);
		ctxt->myDoc = NULL;
	}
	ctxt->sax = oldsax;
	ctxt->userData = ctxt;
	xmlFreeParserCtxt(ctxt);
	x->ctxt = NULL;
	return 0;
}

static void
px_clear(struct px *x)
{
	while (x->depth > 0) {
		if (x->stack[x->depth].base_owned)
			free((char *)x->stack[x->depth].base);
		x->depth--;
	}
	free(x->stack);
	x->stack = NULL;
	fr_fb_free(&x->text);
	free(x->rss_version);
	x->rss_version = NULL;
	free(x->first_error);
	x->first_error = NULL;
	free(x->lifted);
	x->lifted = NULL;
	x->n_lifted = 0;
	x->lift_src = NULL;
	fr_fpx_free(x->fp);
	x->fp = NULL;
	fr_feed_san_free(x->san);
	x->san = NULL;
	for (size_t i = 0; i < x->n_pend; i++) {
		free(x->pend[i].raw);
		free(x->pend[i].base);
	}
	free(x->pend);
	x->pend = NULL;
	x->n_pend = x->cap_pend = 0;
	if (x->b && x->b->on_item_end_ctx == x) {
		x->b->on_item_end = NULL;
		x->b->on_item_end_ctx = NULL;
	}
}

static int
px_init(struct px *x, struct feedb *b, unsigned max_depth)
{
	memset(x, 0, sizeof(*x));
	x->b = b;
	x->max_depth = max_depth;
	x->cap = 32;
	x->stack = calloc(x->cap, sizeof(*x->stack));
	if (!x->stack)
		return -1;
	x->stack[0].ctx = C_TOP;
	x->stack[0].base = b->base_url && *b->base_url ? b->base_url : NULL;
	x->text.max = b->max_bytes * 6 + 64;
	x->sy_freq = 1;
	if (b->fp_result) {
		x->fp = fr_fpx_new(b->base_url, b->max_items == SIZE_MAX ? 0 : b->max_items,
		                   b->fp_stream_flags);
		if (!x->fp)
			return -1;
	}
	if (b->lazy_summary) {
		b->on_item_end = flush_summaries;
		b->on_item_end_ctx = x;
	}
	x->sax.initialized = XML_SAX2_MAGIC;
	x->sax.startElementNs = on_start;
	x->sax.endElementNs = on_end;
	x->sax.characters = on_chars;
	x->sax.cdataBlock = on_chars;
	x->sax.internalSubset = on_internal_subset;
	x->sax.processingInstruction = on_pi;
	x->sax.serror = on_error;
	return 0;
}

/* Resets the builder's feed for a second pass. */
static int
reset_feed(struct feedb *b)
{
	const char *base = b->base_url;
	size_t max = b->max_bytes, max_items = b->max_items;
	int fp_result = b->fp_result, lazy_summary = b->lazy_summary, fp_stream_flags = b->fp_stream_flags;

	fr_feed_free(b->f);
	memset(b, 0, sizeof(*b));
	b->f = calloc(1, sizeof(*b->f));
	if (!b->f)
		return -1;
	b->f->updated_s = FR_DATE_NONE;
	b->f->ttl_s = -1;
	b->f->update_period_s = -1;
	memset(b->frank, RANK_NONE, sizeof(b->frank));
	b->base_url = base;
	b->max_bytes = max;
	b->max_items = max_items;
	b->fp_result = fp_result;
	b->fp_stream_flags = fp_stream_flags;
	b->lazy_summary = lazy_summary;
	return 0;
}

/* UTF-32 with a byte order mark (which libxml2 2.9 does not read) as a
 * malloc'd UTF-8 copy; invalid code points become U+FFFD. */
static char *
utf32_to_utf8(const unsigned char *p, size_t len, int be, size_t *out_len)
{
	char *out = malloc(len + 1), *w = out; /* 4 bytes in, at most 4 out */

	if (!out)
		return NULL;
	for (size_t i = 0; i + 4 <= len; i += 4) {
		uint32_t cp = be ? (uint32_t)p[i] << 24 | (uint32_t)p[i + 1] << 16 |
		                       (uint32_t)p[i + 2] << 8 | p[i + 3]
		                 : (uint32_t)p[i + 3] << 24 | (uint32_t)p[i + 2] << 16 |
		                       (uint32_t)p[i + 1] << 8 | p[i];

		w += fr_feed_utf8(cp, w);
	}
	*w = '\0';
	*out_len = (size_t)(w - out);
	return out;
}

int
fr_feed_parse_xml(struct feedb *b, const char *buf, size_t len, const struct fr_feed_opts *o,
               char *err, size_t errlen)
{
	struct px x;
	unsigned max_depth = o && o->max_depth ? o->max_depth : FR_FEED_MAX_DEPTH_DEFAULT;
	const unsigned char *u = (const unsigned char *)buf;
	int utf32 = len >= 4 ? ((u[0] == 0 && u[1] == 0 && u[2] == 0xFE && u[3] == 0xFF) ? 2
	                        : (u[0] == 0xFF && u[1] == 0xFE && u[2] == 0 && u[3] == 0) ? 1 : 0)
	                     : 0;
	char *charset = utf32 ? strdup("utf-8")
	                : has_bom(buf, len) ? NULL : content_type_charset(o ? o->content_type : NULL);
	char *conv = NULL;
	size_t conv_len = 0;
	int rc = 0, retried = 0, ascii_compatible;
	char *fixed = NULL, *lifted = NULL;
	size_t fixed_len = 0, lifted_len = 0;
	struct feed_fix_info fi;
	char *denul = NULL;
	unsigned long nul_line = 0, attrs_line = 0;
	char *capped = NULL;
	size_t capped_len = 0;
	const char *orig = buf;
	size_t orig_len = len;

	xmlInitParser();
	if (px_init(&x, b, max_depth) != 0 || (utf32 && !charset)) {
		free(charset);
		px_clear(&x);
		return fr_errf(err, errlen, "out of memory");
	}
	/* UTF-16 without a byte order mark and without an XML declaration
	 * ("\0<r\0s..."): libxml2 sniffs only "<?"; the mark is added. */
	if (!utf32 && len >= 4 && ((u[0] == 0 && u[1] == '<' && u[2] == 0 && u[3] != 0) ||
	                           (u[0] == '<' && u[1] == 0 && u[2] != 0 && u[3] == 0))) {
		conv = malloc(len + 2);
		if (!conv) {
			rc = fr_errf(err, errlen, "out of memory");
			goto done;
		}
		conv[0] = u[0] == 0 ? (char)0xFE : (char)0xFF;
		conv[1] = u[0] == 0 ? (char)0xFF : (char)0xFE;
		memcpy(conv + 2, buf, len);
		buf = conv;
		len += 2;
		orig = buf;
		orig_len = len;
	}
	if (utf32) {
		conv = utf32_to_utf8(u + 4, len - 4, utf32 == 2, &conv_len);
		if (!conv) {
			rc = fr_errf(err, errlen, "out of memory");
			goto done;
		}
		buf = conv;
		len = conv_len;
	}
	/* Bare ampersands ("Fish & Chips") are ill-formed and libxml2's
	 * recovery drops them; HTML entity names (&nbsp;) are not XML. Both
	 * are rewritten first (not in UTF-16/32, where they stay undefined). */
	ascii_compatible = !(len >= 2 && (buf[0] == '\0' || buf[1] == '\0' ||
	                                  ((unsigned char)buf[0] == 0xFE && (unsigned char)buf[1] == 0xFF) ||
	                                  ((unsigned char)buf[0] == 0xFF && (unsigned char)buf[1] == 0xFE)));
	if (ascii_compatible && (!charset || !strcasecmp(charset, "utf-8")) &&
	    declared_utf8(buf, len)) {
		int lr = lift_cdata(&x, buf, len, &lifted, &lifted_len);

		if (lr < 0) {
			rc = fr_errf(err, errlen, "out of memory");
			goto done;
		}
		if (lr > 0) {
			buf = lifted;
			len = lifted_len;
		}
	}
	memset(&fi, 0, sizeof(fi));
	/* A NUL byte is no XML character: libxml2 stops at it and loses
	 * the rest. Each becomes U+FFFD (as a reference, whatever the
	 * encoding). */
	if (ascii_compatible && memchr(buf, '\0', len)) {
		struct fb_buf nb = {0};
		size_t from = 0;

		for (size_t k = 0; k < len; k++) {
			if (buf[k])
				continue;
			if (!nul_line) {
				nul_line = 1;
				for (size_t q = 0; q < k; q++)
					nul_line += buf[q] == '\n';
			}
			if (fr_fb_add(&nb, buf + from, k - from) != 0 || fr_fb_add(&nb, "&#65533;", 8) != 0)
				break;
			from = k + 1;
		}
		if (fr_fb_add(&nb, buf + from, len - from) != 0) {
			fr_fb_free(&nb);
			rc = fr_errf(err, errlen, "out of memory");
			goto done;
		}
		len = nb.n;
		buf = denul = fr_fb_take(&nb);
		orig = buf;
		orig_len = len;
	}
	if (ascii_compatible) {
		int cr = fr_feed_cap_attributes(buf, len, &capped, &capped_len, &attrs_line);
		int fr;

		if (cr < 0) {
			rc = fr_errf(err, errlen, "out of memory");
			goto done;
		}
		if (cr > 0) {
			buf = capped;
			len = capped_len;
		}
		fr = fr_feed_fix_references(buf, len, &fixed, &fixed_len, &fi);

		if (fr < 0) {
			rc = fr_errf(err, errlen, "out of memory");
			goto done;
		}
		if (fr > 0) {
			buf = fixed;
			len = fixed_len;
		}
	}
	if (run(&x, buf, len, charset) != 0) {
		rc = fr_errf(err, errlen, "out of memory");
		goto done;
	}
	/* An encoding libxml2 does not know ("bogus"): read it again as
	 * UTF-8 when it is valid UTF-8, else as windows-1252, and say so. */
	if (x.enc_unsupported && !x.root_seen && !charset) {
		char *why = x.first_error ? strdup(x.first_error) : NULL;
		const char *as = fr_feed_utf8_valid(buf, len) ? "utf-8" : "windows-1252";

		px_clear(&x);
		if (reset_feed(b) != 0 || px_init(&x, b, max_depth) != 0 || run(&x, buf, len, as) != 0) {
			free(why);
			rc = fr_errf(err, errlen, "out of memory");
			goto done;
		}
		fr_feedb_bozo(b, "line 1: %s; read as %s", why ? why : "unsupported encoding", as);
		free(why);
		retried = 1;
	}
	/* Declared (or taken as) UTF-8 but is not: read it again as
	 * windows-1252, the usual truth, and say so. */
	if (x.enc_error && x.root_seen && !charset && !strcmp(b->f->encoding, "utf-8")) {
		char *why = x.first_error ? strdup(x.first_error) : NULL;
		int line = x.first_error_line;

		px_clear(&x);
		/* Lifted sections were checked as UTF-8: start from the
		 * original bytes. */
		free(fixed);
		fixed = NULL;
		free(capped);
		capped = NULL;
		buf = orig;
		len = orig_len;
		if (fr_feed_cap_attributes(buf, len, &capped, &capped_len, &attrs_line) > 0) {
			buf = capped;
			len = capped_len;
		}
		if (fr_feed_fix_references(buf, len, &fixed, &fixed_len, &fi) > 0) {
			buf = fixed;
			len = fixed_len;
		}
		if (reset_feed(b) != 0 || px_init(&x, b, max_depth) != 0 ||
		    run(&x, buf, len, "windows-1252") != 0) {
			free(why);
			rc = fr_errf(err, errlen, "out of memory");
			goto done;
		}
		fr_feedb_bozo(b, "line %d: not UTF-8 as declared (%s); read as windows-1252", line,
		           why ? why : "bad byte sequence");
		free(why);
		retried = 1;
	}
	if (x.not_feed) {
		rc = fr_errf(err, errlen, "not a feed: root <%s>", x.root_name);
		goto done;
	}
	if (!x.root_seen) {
		if (x.first_error)
			rc = fr_errf(err, errlen, "not a feed: line %d: %s", x.first_error_line,
			             x.first_error);
		else
			rc = fr_errf(err, errlen, "not a feed: no root element");
		goto done;
	}
	if (nul_line)
		fr_feedb_bozo(b, "line %lu: NUL byte, read as U+FFFD", nul_line);
	if (fi.nul_line)
		fr_feedb_bozo(b, "line %lu: character reference to a character XML forbids (&#0;), read as U+FFFD",
		           fi.nul_line);
	if (fi.undef_line)
		fr_feedb_bozo(b, "line %lu: entity '&%s;' undefined, external or nested: kept as text", fi.undef_line,
		           fi.undef_name);
	if (fi.cut_line)
		fr_feedb_bozo(b, "line %lu: internal entity not expanded: nested deeper than 8 or over the expansion budget",
		           fi.cut_line);
	if (attrs_line)
		fr_feedb_bozo(b, "line %lu: element with more than %d attributes: the rest left out", attrs_line,
		              FR_FEED_MAX_ATTRS);
	if (fi.bare_line)
		fr_feedb_bozo(b, "line %lu: '&' that starts no entity or character reference, read as text",
		           fi.bare_line);
	if (x.first_error && !retried)
		fr_feedb_bozo(b, "line %d: %s", x.first_error_line, x.first_error);
	rss_version(&x);
	if (utf32) {
		free(b->f->encoding);
		b->f->encoding = strdup(utf32 == 2 ? "utf-32be" : "utf-32le");
		if (!b->f->encoding)
			b->oom = 1;
	}
	if (x.sy_period_s > 0 || x.sy_freq > 1)
		b->f->update_period_s = (x.sy_period_s > 0 ? x.sy_period_s : 86400) / x.sy_freq;
	if (x.fp) {
		b->f->fp_feed = fr_fpx_take(x.fp, 1);
		b->f->fp_entries = fr_fpx_take(x.fp, 0);
		b->f->fp_entry_texts = fr_fpx_take_texts(x.fp, &b->f->fp_n_entries);
	}
done:
	/* an item still open at the end (a cut-off feed) gets its
	 * summaries now: nothing more can come for it */
	if (x.n_pend)
		flush_summaries(&x);
	px_clear(&x);
	free(charset);
	free(fixed);
	free(capped);
	free(lifted);
	free(conv);
	free(denul);
	return rc;
}
