/* html.c - feed links and crawl links of an HTML page (html.h). */
#include "discover/html.h"

#include "core/err.h"
#include "core/strmap.h"
#include "url/url.h"

#include <libxml/HTMLparser.h>
#include <libxml/tree.h>

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_LINKS_DEFAULT 10000
#define MAX_TEXT 256 /* bytes of anchor text or title kept */

/* The type attribute in lower case without parameters, into buf. */
static void
bare_type(const char *type, char *buf, size_t len)
{
	size_t n = 0;

	while (*type == ' ' || *type == '\t')
		type++;
	for (; *type && *type != ';' && *type != ' ' && n + 1 < len; type++)
		buf[n++] = (char)tolower((unsigned char)*type);
	buf[n] = '\0';
}

/* First case-insensitive occurrence of the ASCII word w in s, or NULL. */
static const char *
ci_find(const char *s, const char *w)
{
	size_t wl = strlen(w);

	for (; *s; s++)
		if (!strncasecmp(s, w, wl))
			return s;
	return NULL;
}

/* Whether the space-separated list rel holds token (case-insensitive). */
static int
has_token(const char *rel, const char *token)
{
	size_t tl = strlen(token);

	while (*rel) {
		size_t n;

		while (*rel && isspace((unsigned char)*rel))
			rel++;
		n = 0;
		while (rel[n] && !isspace((unsigned char)rel[n]))
			n++;
		if (n == tl && !strncasecmp(rel, token, n))
			return 1;
		rel += n;
	}
	return 0;
}

/* Whether s holds word as a word of its own (see fr_html_is_feedlike);
 * prefix_ok lets it close a longer word, plural_ok lets an 's' follow. */
static int
has_word(const char *s, const char *word, int prefix_ok, int plural_ok)
{
	size_t wl = strlen(word);

	for (const char *p = s; (p = ci_find(p, word)) != NULL; p++) {
		const char *e = p + wl;

		if (!prefix_ok && p > s && isalpha((unsigned char)p[-1]))
			continue;
		if (plural_ok && (*e == 's' || *e == 'S'))
			e++;
		if (isalpha((unsigned char)*e))
			continue;
		return 1;
	}
	return 0;
}

static int
names_feed(const char *s)
{
	return has_word(s, "rss", 0, 0) || has_word(s, "atom", 0, 0) || has_word(s, "xml", 0, 0) ||
	       has_word(s, "feed", 0, 1);
}

int
fr_html_is_feed_link(const char *rel, const char *type, const char *title)
{
	static const char *const types[] = {
	    "application/rss+xml",   "application/atom+xml",   "application/rdf+xml",
	    "application/feed+json", "application/x-rss+xml", "application/x-atom+xml",
	    "application/rss+json"};
	char t[64];

	if (!rel || !type || (!has_token(rel, "alternate") && !has_token(rel, "feed")))
		return 0;
	bare_type(type, t, sizeof(t));
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (!strcmp(t, types[i]))
			return 1;
	if (!strcmp(t, "application/json"))
		return title && (has_word(title, "feed", 1, 1) || has_word(title, "rss", 0, 0) ||
		                 has_word(title, "atom", 0, 0));
	return 0;
}

int
fr_html_is_feedlike(const char *href, const char *text)
{
	if (href) {
		const char *p = strstr(href, "://");
		if (p)
			href = p + 3;
		if (names_feed(href))
			return 1;
	}
	return text && names_feed(text);
}

int
fr_html_sniff(const char *buf, size_t len)
{
	size_t n = len < 1024 ? len : 1024;

	for (size_t i = 0; i + 5 <= n; i++) {
		if (buf[i] != '<')
			continue;
		if ((i + 14 <= n && !strncasecmp(buf + i, "<!doctype html", 14)) ||
		    !strncasecmp(buf + i, "<html", 5) || !strncasecmp(buf + i, "<head", 5) ||
		    !strncasecmp(buf + i, "<body", 5))
			return 1;
	}
	return 0;
}

/* Text of n with blanks collapsed, at most MAX_TEXT bytes, or NULL when empty. */
static char *
collapse(const char *s)
{
	char *out;
	size_t n = 0;
	int blank = 0;

	if (!s)
		return NULL;
	out = malloc(MAX_TEXT + 1);
	if (!out)
		return NULL;
	for (; *s && n < MAX_TEXT; s++) {
		if (isspace((unsigned char)*s)) {
			blank = n > 0;
			continue;
		}
		if (blank && n + 1 < MAX_TEXT)
			out[n++] = ' ';
		blank = 0;
		out[n++] = *s;
	}
	/* do not end inside a UTF-8 sequence */
	while (n > 0 && n == MAX_TEXT && ((unsigned char)out[n - 1] & 0xC0) == 0x80)
		n--;
	if (n > 0 && n == MAX_TEXT && ((unsigned char)out[n - 1] & 0xC0) == 0xC0)
		n--;
	out[n] = '\0';
	if (!n) {
		free(out);
		return NULL;
	}
	return out;
}

static char *
attr(xmlNode *n, const char *name)
{
	for (xmlAttr *a = n->properties; a; a = a->next) {
		if (a->name && !strcasecmp((const char *)a->name, name)) {
			xmlChar *v = xmlNodeGetContent((xmlNode *)a);
			char *s = v ? strdup((const char *)v) : NULL;
			xmlFree(v);
			return s;
		}
	}
	return NULL;
}

/* Next node in document order, or NULL. */
static xmlNode *
next_node(xmlNode *n)
{
	if (n->children && n->type == XML_ELEMENT_NODE)
		return n->children;
	while (n) {
		if (n->next)
			return n->next;
		n = n->parent;
		if (n && n->type == XML_HTML_DOCUMENT_NODE)
			return NULL;
	}
	return NULL;
}

static int
skip_href(const char *h)
{
	while (isspace((unsigned char)*h))
		h++;
	return !*h || *h == '#' || !strncasecmp(h, "javascript:", 11) ||
	       !strncasecmp(h, "mailto:", 7) || !strncasecmp(h, "data:", 5) ||
	       !strncasecmp(h, "tel:", 4) || !strncasecmp(h, "about:", 6);
}

struct scan {
	struct fr_html_page *p;
	struct fr_strmap *seen;
	size_t cap, max;
	int oom;
};

/* Adds (or merges into) the link to href; takes title. */
static void
add_link(struct scan *sc, const char *href, char *title, const char *type, unsigned flags)
{
	char err[FR_ERRLEN], *url, *hash;
	uint32_t id;
	int added;
	struct fr_html_link *l;

	if (sc->oom || skip_href(href)) {
		free(title);
		return;
	}
	url = fr_url_resolve(sc->p->base, href, err, sizeof(err));
	if (!url || (strncasecmp(url, "http://", 7) && strncasecmp(url, "https://", 8))) {
		free(url);
		free(title);
		return;
	}
	hash = strchr(url, '#');
	if (hash)
		*hash = '\0';
	if (fr_strmap_find(sc->seen, url, strlen(url), &id)) {
		l = &sc->p->links[id];
		l->flags |= flags;
		if (!l->title)
			l->title = title;
		else
			free(title);
		if (!l->type && type)
			l->type = strdup(type);
		free(url);
		return;
	}
	if (sc->p->n_links >= sc->max && !(flags & FR_HTML_FEED_LINK)) {
		free(url); /* full: only autodiscovery links still come in */
		free(title);
		return;
	}
	if (sc->p->n_links == sc->cap) {
		size_t nc = sc->cap ? sc->cap * 2 : 64;
		struct fr_html_link *nl = realloc(sc->p->links, nc * sizeof(*nl));
		if (!nl) {
			sc->oom = 1;
			free(url);
			free(title);
			return;
		}
		sc->p->links = nl;
		sc->cap = nc;
	}
	if (fr_strmap_intern(sc->seen, url, strlen(url), &id, &added) < 0) {
		sc->oom = 1;
		free(url);
		free(title);
		return;
	}
	l = &sc->p->links[sc->p->n_links++]; /* id == n_links - 1: both dense */
	l->url = url;
	l->title = title;
	l->type = type ? strdup(type) : NULL;
	l->flags = flags;
}

static int
is_el(xmlNode *n, const char *name)
{
	return n->type == XML_ELEMENT_NODE && n->name && !strcasecmp((const char *)n->name, name);
}

static void
scan_link(struct scan *sc, xmlNode *n)
{
	char *rel = attr(n, "rel"), *type = attr(n, "type"), *title = attr(n, "title");
	char *href = attr(n, "href");
	char t[64];

	if (href && fr_html_is_feed_link(rel, type, title)) {
		bare_type(type, t, sizeof(t));
		add_link(sc, href, collapse(title), t, FR_HTML_FEED_LINK);
	}
	free(rel);
	free(type);
	free(title);
	free(href);
}

static void
scan_anchor(struct scan *sc, xmlNode *n, const char *href_attr)
{
	char *href = attr(n, href_attr), *type, *text = NULL;
	unsigned flags = FR_HTML_FOLLOW;
	char t[64] = "";

	if (!href)
		return;
	if (n->children) {
		xmlChar *c = xmlNodeGetContent(n);
		text = collapse((const char *)c);
		xmlFree(c);
	}
	if (!text) {
		char *ttl = attr(n, "title");
		text = collapse(ttl);
		free(ttl);
	}
	type = attr(n, "type");
	if (type)
		bare_type(type, t, sizeof(t));
	if (fr_html_is_feedlike(href, text) ||
	    (type && fr_html_is_feed_link("alternate", type, text)))
		flags |= FR_HTML_FEEDLIKE;
	add_link(sc, href, text, t[0] ? t : NULL, flags);
	free(type);
	free(href);
}

/* Moves the autodiscovery links to the front, keeping page order. */
static void
feed_links_first(struct fr_html_page *p)
{
	size_t k = 0;

	for (size_t i = 0; i < p->n_links; i++) {
		if (p->links[i].flags & FR_HTML_FEED_LINK) {
			struct fr_html_link l = p->links[i];
			memmove(&p->links[k + 1], &p->links[k], (i - k) * sizeof(l));
			p->links[k++] = l;
		}
	}
	p->n_feed_links = k;
}

static void
charset_of(const char *content_type, char *buf, size_t len)
{
	const char *c;
	size_t n = 0;

	buf[0] = '\0';
	if (!content_type || !(c = ci_find(content_type, "charset=")))
		return;
	c += 8;
	if (*c == '"' || *c == '\'')
		c++;
	while (*c && *c != ';' && *c != '"' && *c != '\'' && !isspace((unsigned char)*c) &&
	       n + 1 < len)
		buf[n++] = *c++;
	buf[n] = '\0';
}

int
fr_html_scan(const char *buf, size_t len, const char *page_url, const char *content_type,
             size_t max_links, struct fr_html_page *out, char *err, size_t errlen)
{
	struct scan sc = {out, NULL, 0, max_links ? max_links : MAX_LINKS_DEFAULT, 0};
	char cs[64];
	htmlDocPtr doc;
	xmlNode *root, *n;

	memset(out, 0, sizeof(*out));
	if (len > (size_t)0x7fffffff)
		return fr_errf(err, errlen, "%s: page too large to scan", page_url);
	charset_of(content_type, cs, sizeof(cs));
	doc = htmlReadMemory(buf, (int)len, page_url, cs[0] ? cs : NULL,
	                     HTML_PARSE_RECOVER | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING |
	                         HTML_PARSE_NONET | HTML_PARSE_COMPACT);
	if (!doc && cs[0]) /* an unknown charset name: let the page say */
		doc = htmlReadMemory(buf, (int)len, page_url, NULL,
		                     HTML_PARSE_RECOVER | HTML_PARSE_NOERROR |
		                         HTML_PARSE_NOWARNING | HTML_PARSE_NONET |
		                         HTML_PARSE_COMPACT);
	if (!doc || !(root = xmlDocGetRootElement(doc))) {
		if (doc)
			xmlFreeDoc(doc);
		return fr_errf(err, errlen, "%s: not readable as HTML", page_url);
	}
	/* First pass: <base href> and <title>. */
	for (n = root; n; n = next_node(n)) {
		if (!out->base && is_el(n, "base")) {
			char *h = attr(n, "href");
			if (h && !skip_href(h))
				out->base = fr_url_resolve(page_url, h, NULL, 0);
			free(h);
		} else if (!out->title && is_el(n, "title")) {
			xmlChar *c = xmlNodeGetContent(n);
			out->title = collapse((const char *)c);
			xmlFree(c);
		}
		if (out->base && out->title)
			break;
	}
	if (!out->base)
		out->base = strdup(page_url);
	sc.seen = fr_strmap_new();
	if (!out->base || !sc.seen) {
		xmlFreeDoc(doc);
		fr_strmap_free(sc.seen);
		fr_html_page_clear(out);
		return fr_errf(err, errlen, "%s: out of memory", page_url);
	}
	for (n = root; n && sc.oom != 1; n = next_node(n)) {
		if (n->type != XML_ELEMENT_NODE)
			continue;
		if (is_el(n, "link"))
			scan_link(&sc, n);
		else if (is_el(n, "a") || is_el(n, "area"))
			scan_anchor(&sc, n, "href");
		else if (is_el(n, "frame") || is_el(n, "iframe"))
			scan_anchor(&sc, n, "src");
	}
	xmlFreeDoc(doc);
	fr_strmap_free(sc.seen);
	if (sc.oom == 1) {
		fr_html_page_clear(out);
		return fr_errf(err, errlen, "%s: out of memory", page_url);
	}
	feed_links_first(out);
	return 0;
}

void
fr_html_page_clear(struct fr_html_page *p)
{
	for (size_t i = 0; i < p->n_links; i++) {
		free(p->links[i].url);
		free(p->links[i].title);
		free(p->links[i].type);
	}
	free(p->links);
	free(p->title);
	free(p->base);
	memset(p, 0, sizeof(*p));
}
