/* extract.c - the main content of an article page, after Mozilla's
 * Readability (grabArticle and prepArticle): unlikely and hidden nodes
 * dropped, paragraphs scored by length and commas and the score handed to
 * parent and grandparent, the best candidate kept with its kin, then
 * cleaned of forms, share widgets and link-heavy blocks; looser rules on
 * a retry when too little text is left. */
#include "extract/extract.h"

#include "core/err.h"
#include "core/utf8.h"
#include "extract/ex_internal.h"
#include "lang/lang.h"
#include "parse/feed_internal.h"

#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define F_STRIP_UNLIKELYS 1
#define F_WEIGHT_CLASSES 2
#define F_CLEAN_CONDITIONALLY 4
#define N_TOP 5

/* A scored node's state, hung on xmlNode._private. */
struct sc {
	double score;
	int data_table; /* for tables: 1 data, 0 layout */
};

#define POOL_BLOCK 256
struct pool {
	struct sc **blocks;
	size_t n_blocks, used; /* used: entries of the last block */
};

struct ex {
	xmlDoc *doc;
	xmlNode *body;
	int flags;
	int oom;
	struct pool pool;
	const char *title;   /* the article's title, borrowed */
	char *byline;        /* a byline found in the page */
	int remove_title_header;
	xmlNode **list;      /* scratch node lists */
	size_t n_list, cap_list;
};

/* ---- small helpers ---- */

static struct sc *
sc_new(struct ex *x)
{
	struct pool *p = &x->pool;

	if (!p->n_blocks || p->used == POOL_BLOCK) {
		struct sc **b = realloc(p->blocks, (p->n_blocks + 1) * sizeof(*b));

		if (!b)
			return NULL;
		p->blocks = b;
		if (!(b[p->n_blocks] = calloc(POOL_BLOCK, sizeof(struct sc))))
			return NULL;
		p->n_blocks++;
		p->used = 0;
	}
	return &p->blocks[p->n_blocks - 1][p->used++];
}

static void
pool_free(struct pool *p)
{
	for (size_t i = 0; i < p->n_blocks; i++)
		free(p->blocks[i]);
	free(p->blocks);
	memset(p, 0, sizeof(*p));
}

static int
is_elem(const xmlNode *n)
{
	return n && n->type == XML_ELEMENT_NODE;
}

static const char *
tag(const xmlNode *n)
{
	return (const char *)n->name;
}

static int
tag_in(const xmlNode *n, const char *const *list)
{
	const char *t;

	if (!is_elem(n))
		return 0;
	t = tag(n);
	for (; *list; list++)
		if (t[0] == (*list)[0] && !strcmp(t, *list))
			return 1;
	return 0;
}

/* The next element in document order under root (elements only). */
static xmlNode *
next_elem(xmlNode *n, const xmlNode *root, int skip_children)
{
	if (!skip_children)
		for (xmlNode *c = n->children; c; c = c->next)
			if (is_elem(c))
				return c;
	while (n && n != root) {
		for (xmlNode *s = n->next; s; s = s->next)
			if (is_elem(s))
				return s;
		n = n->parent;
	}
	return NULL;
}

static size_t
n_elem_children(const xmlNode *n)
{
	size_t k = 0;

	for (xmlNode *c = n->children; c; c = c->next)
		k += is_elem(c);
	return k;
}

static xmlNode *
first_elem_child(const xmlNode *n)
{
	for (xmlNode *c = n->children; c; c = c->next)
		if (is_elem(c))
			return c;
	return NULL;
}

static void
remove_node(xmlNode *n)
{
	xmlUnlinkNode(n);
	xmlFreeNode(n);
}

/* Links c (unlinked first) as the last child of parent, without merging
 * text nodes (xmlAddChild would, and free c). */
static void
append(xmlNode *parent, xmlNode *c)
{
	xmlUnlinkNode(c);
	c->parent = parent;
	c->prev = parent->last;
	c->next = NULL;
	if (parent->last)
		parent->last->next = c;
	else
		parent->children = c;
	parent->last = c;
}

/* Puts c (unlinked first) where old is; old is unlinked, not freed. */
static void
replace(xmlNode *old, xmlNode *c)
{
	xmlUnlinkNode(c);
	c->parent = old->parent;
	c->prev = old->prev;
	c->next = old->next;
	if (old->prev)
		old->prev->next = c;
	else if (old->parent)
		old->parent->children = c;
	if (old->next)
		old->next->prev = c;
	else if (old->parent)
		old->parent->last = c;
	old->parent = old->prev = old->next = NULL;
}

static void
rename_node(xmlNode *n, const char *name)
{
	xmlNodeSetName(n, (const xmlChar *)name);
}

static int
is_space(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

/* Text statistics of a subtree: code points of its text with blank runs
 * counted once and trimmed (Readability's getInnerText(e).length), and its
 * commas. */
struct tst {
	size_t len, commas;
	int started, space;
};

static void
tst_add(struct tst *t, const unsigned char *s)
{
	for (; *s; s++) {
		if (is_space(*s) || (s[0] == 0xc2 && s[1] == 0xa0)) {
			if (s[0] == 0xc2)
				s++;
			t->space = t->started;
			continue;
		}
		if (t->space) {
			t->len++;
			t->space = 0;
		}
		t->started = 1;
		if ((*s & 0xc0) != 0x80)
			t->len++;
		if (*s == ',')
			t->commas++;
		else if (s[0] == 0xd8 && s[1] == 0x8c) /* Arabic comma */
			t->commas++;
		else if (s[0] == 0xef && s[1] == 0xbc && s[2] == 0x8c) /* fullwidth comma */
			t->commas++;
		else if (s[0] == 0xe3 && s[1] == 0x80 && s[2] == 0x81) /* ideographic comma */
			t->commas++;
	}
}

static struct tst
text_stats(const xmlNode *n)
{
	struct tst t = {0};

	if (n->type == XML_TEXT_NODE) {
		if (n->content)
			tst_add(&t, n->content);
		return t;
	}
	for (const xmlNode *c = n->children; c; c = fr_ex_next((xmlNode *)c, n, 0))
		if (c->type == XML_TEXT_NODE && c->content)
			tst_add(&t, c->content);
	return t;
}

static size_t
text_len(const xmlNode *n)
{
	return text_stats(n).len;
}

/* Whether the subtree has any non-blank text. */
static int
has_text(const xmlNode *n)
{
	for (const xmlNode *c = n; c; c = fr_ex_next((xmlNode *)c, n, 0))
		if (c->type == XML_TEXT_NODE && c->content)
			for (const unsigned char *s = c->content; *s; s++)
				if (!is_space(*s))
					return 1;
	return 0;
}

/* Readability's link density: text in <a> (0.3 for "#..." links) over all. */
static double
link_density_len(const xmlNode *n, size_t total)
{
	double links = 0;

	if (!total)
		return 0;
	for (const xmlNode *c = n; c;) {
		if (fr_ex_is(c, "a")) {
			const char *href = fr_ex_attr(c, "href");
			double coef = href && href[0] == '#' && href[1] ? 0.3 : 1.0;

			links += (double)text_len(c) * coef;
			c = fr_ex_next((xmlNode *)c, n, 1);
			continue;
		}
		c = fr_ex_next((xmlNode *)c, n, 0);
	}
	return links / (double)total;
}

static double
link_density(const xmlNode *n)
{
	return link_density_len(n, text_len(n));
}

/* Lower-case "class id" of n into buf. */
static const char *
match_string(const xmlNode *n, char *buf, size_t cap)
{
	const char *c = fr_ex_attr(n, "class"), *id = fr_ex_attr(n, "id");
	size_t w = 0;

	if (c)
		for (; *c && w + 2 < cap; c++)
			buf[w++] = (char)tolower((unsigned char)*c);
	if (w + 2 < cap)
		buf[w++] = ' ';
	if (id)
		for (; *id && w + 1 < cap; id++)
			buf[w++] = (char)tolower((unsigned char)*id);
	buf[w] = '\0';
	return buf;
}

static int
has_any(const char *s, const char *const *words)
{
	for (; *words; words++)
		if (strstr(s, *words))
			return 1;
	return 0;
}

static const char *const UNLIKELY[] = {
    "-ad-", "ai2html", "banner", "breadcrumbs", "combx", "comment", "community", "cover-wrap",
    "disqus", "extra", "footer", "gdpr", "header", "legends", "menu", "related", "remark",
    "replies", "rss", "shoutbox", "sidebar", "skyscraper", "social", "sponsor", "supplemental",
    "ad-break", "agegate", "pagination", "pager", "popup", "yom-remote", NULL};
static const char *const MAYBE[] = {"and", "article", "body", "column", "content", "main",
                                    "mathjax", "shadow", NULL};
static const char *const POSITIVE[] = {"article", "body", "content", "entry", "hentry", "h-entry",
                                       "main", "page", "pagination", "post", "text", "blog",
                                       "story", NULL};
static const char *const NEGATIVE[] = {
    "-ad-", "hidden", "banner", "combx", "comment", "com-", "contact", "footer", "gdpr",
    "masthead", "media", "meta", "outbrain", "promo", "related", "scroll", "share", "shoutbox",
    "sidebar", "skyscraper", "sponsor", "shopping", "tags", "widget", NULL};
static const char *const BYLINE[] = {"byline", "author", "dateline", "writtenby", "p-author",
                                     NULL};

/* Whether lower-case s has the word "hid" alone (negative's ^hid$ etc.). */
static int
has_hid(const char *s)
{
	for (const char *p = s; (p = strstr(p, "hid")); p += 3)
		if ((p == s || p[-1] == ' ') && (p[3] == '\0' || p[3] == ' '))
			return 1;
	return 0;
}

static int
negative(const char *s)
{
	return has_any(s, NEGATIVE) || has_hid(s);
}

static int
class_weight(const struct ex *x, const xmlNode *n)
{
	char buf[512];
	int w = 0;
	const char *v;

	if (!(x->flags & F_WEIGHT_CLASSES))
		return 0;
	for (int k = 0; k < 2; k++) {
		size_t i = 0;

		v = fr_ex_attr(n, k ? "id" : "class");
		if (!v || !v[0])
			continue;
		for (; v[i] && i + 1 < sizeof(buf); i++)
			buf[i] = (char)tolower((unsigned char)v[i]);
		buf[i] = '\0';
		if (negative(buf))
			w -= 25;
		if (has_any(buf, POSITIVE))
			w += 25;
	}
	return w;
}

static int
has_ancestor(const xmlNode *n, const char *name, int max_depth, int data_table_only)
{
	int depth = 0;

	for (n = n->parent; is_elem(n); n = n->parent) {
		if (max_depth > 0 && depth > max_depth)
			return 0;
		if (!strcmp(tag(n), name) &&
		    (!data_table_only || (n->_private && ((struct sc *)n->_private)->data_table)))
			return 1;
		depth++;
	}
	return 0;
}

/* Readability's _isProbablyVisible. */
static int
visible(const xmlNode *n)
{
	const char *style = fr_ex_attr(n, "style"), *aria = fr_ex_attr(n, "aria-hidden");

	if (style) {
		char buf[256];
		size_t w = 0;

		for (const char *s = style; *s && w + 1 < sizeof(buf); s++)
			if (!is_space((unsigned char)*s))
				buf[w++] = (char)tolower((unsigned char)*s);
		buf[w] = '\0';
		if (strstr(buf, "display:none") || strstr(buf, "visibility:hidden"))
			return 0;
	}
	if (fr_ex_attr(n, "hidden"))
		return 0;
	if (aria && !strcmp(aria, "true")) {
		const char *c = fr_ex_attr(n, "class");

		if (!c || !strstr(c, "fallback-image"))
			return 0;
	}
	return 1;
}

static const char *const PHRASING[] = {
    "abbr", "audio", "b", "bdo", "br", "button", "cite", "code", "data", "datalist", "dfn", "em",
    "embed", "i", "img", "input", "kbd", "label", "mark", "math", "meter", "noscript", "object",
    "output", "progress", "q", "ruby", "samp", "script", "select", "small", "span", "strong",
    "sub", "sup", "textarea", "time", "var", "wbr", "canvas", "iframe", "svg", "font", NULL};

static int
phrasing(const xmlNode *n)
{
	if (n->type == XML_TEXT_NODE)
		return 1;
	if (!is_elem(n))
		return 0;
	if (tag_in(n, PHRASING))
		return 1;
	if (fr_ex_is(n, "a") || fr_ex_is(n, "del") || fr_ex_is(n, "ins")) {
		for (xmlNode *c = n->children; c; c = c->next)
			if (!phrasing(c) && c->type != XML_COMMENT_NODE)
				return 0;
		return 1;
	}
	return 0;
}

static int
whitespace_node(const xmlNode *n)
{
	if (n->type == XML_TEXT_NODE) {
		for (const unsigned char *s = n->content; s && *s; s++)
			if (!is_space(*s))
				return 0;
		return 1;
	}
	return fr_ex_is(n, "br");
}

static const char *const DIV_TO_P[] = {"blockquote", "dl", "div", "img", "ol", "p", "pre",
                                       "table", "ul", NULL};

static int
has_child_block(const xmlNode *n)
{
	for (const xmlNode *c = n->children; c; c = fr_ex_next((xmlNode *)c, n, 0))
		if (tag_in(c, DIV_TO_P))
			return 1;
	return 0;
}

/* Whether n has exactly one element child, named name, and no text. */
static int
single_tag_inside(const xmlNode *n, const char *name)
{
	const xmlNode *only = NULL;

	for (const xmlNode *c = n->children; c; c = c->next) {
		if (is_elem(c)) {
			if (only)
				return 0;
			only = c;
		} else if (c->type == XML_TEXT_NODE && !whitespace_node(c)) {
			return 0;
		}
	}
	return only && !strcmp(tag(only), name);
}

static int
without_content(const xmlNode *n)
{
	size_t brhr = 0;

	if (has_text(n))
		return 0;
	for (const xmlNode *c = n->children; c; c = fr_ex_next((xmlNode *)c, n, 0))
		brhr += fr_ex_is(c, "br") || fr_ex_is(c, "hr");
	/* Readability counts element children against all br and hr below */
	return n_elem_children(n) == 0 || n_elem_children(n) == brhr;
}

static int
list_push(struct ex *x, xmlNode *n)
{
	if (x->n_list == x->cap_list) {
		size_t cap = x->cap_list ? x->cap_list * 2 : 256;
		xmlNode **l = realloc(x->list, cap * sizeof(*l));

		if (!l) {
			x->oom = 1;
			return -1;
		}
		x->list = l;
		x->cap_list = cap;
	}
	x->list[x->n_list++] = n;
	return 0;
}

/* ---- prepDocument ---- */

static xmlNode *
new_elem(struct ex *x, const char *name)
{
	xmlNode *n = xmlNewDocNode(x->doc, NULL, (const xmlChar *)name, NULL);

	if (!n)
		x->oom = 1;
	return n;
}

/* The next sibling that is not blank text. */
static xmlNode *
next_significant(xmlNode *n)
{
	while (n && n->type == XML_TEXT_NODE && whitespace_node(n))
		n = n->next;
	return n;
}

/* Readability's _replaceBrs: two or more <br> in a row end a paragraph;
 * what follows them, up to the next such run, becomes a <p>. */
static void
replace_brs(struct ex *x, xmlNode *root)
{
	for (xmlNode *n = root; n && !x->oom;) {
		xmlNode *next, *p;
		int replaced = 0;

		if (!fr_ex_is(n, "br")) {
			n = fr_ex_next(n, root, 0);
			continue;
		}
		next = next_significant(n->next);
		while (fr_ex_is(next, "br")) {
			xmlNode *after = next_significant(next->next);

			replaced = 1;
			remove_node(next);
			next = after;
		}
		if (!replaced) {
			n = fr_ex_next(n, root, 0);
			continue;
		}
		if (!(p = new_elem(x, "p")))
			return;
		replace(n, p);
		xmlFreeNode(n);
		next = p->next;
		while (next) {
			xmlNode *sib = next->next;

			if (fr_ex_is(next, "br")) {
				xmlNode *nn = next_significant(next->next);

				if (fr_ex_is(nn, "br"))
					break;
			}
			if (!phrasing(next))
				break;
			append(p, next);
			next = sib;
		}
		while (p->last && whitespace_node(p->last))
			remove_node(p->last);
		if (fr_ex_is(p->parent, "p"))
			rename_node(p->parent, "div");
		n = fr_ex_next(p, root, 1);
	}
}

static void
prep_document(struct ex *x, xmlNode *root)
{
	for (xmlNode *n = root; n;) {
		xmlNode *next;

		if (n->type == XML_COMMENT_NODE || fr_ex_is(n, "script") || fr_ex_is(n, "noscript") ||
		    fr_ex_is(n, "style") || fr_ex_is(n, "template")) {
			next = fr_ex_next(n, root, 1);
			remove_node(n);
			n = next;
			continue;
		}
		if (fr_ex_is(n, "font"))
			rename_node(n, "span");
		n = fr_ex_next(n, root, 0);
	}
	replace_brs(x, root);
}

/* ---- grabArticle ---- */

static struct sc *
init_node(struct ex *x, xmlNode *n)
{
	struct sc *s = sc_new(x);
	const char *t = tag(n);

	if (!s) {
		x->oom = 1;
		return NULL;
	}
	s->score = 0;
	if (!strcmp(t, "div"))
		s->score += 5;
	else if (!strcmp(t, "pre") || !strcmp(t, "td") || !strcmp(t, "blockquote"))
		s->score += 3;
	else if (!strcmp(t, "address") || !strcmp(t, "ol") || !strcmp(t, "ul") || !strcmp(t, "dl") ||
	         !strcmp(t, "dd") || !strcmp(t, "dt") || !strcmp(t, "li") || !strcmp(t, "form"))
		s->score -= 3;
	else if ((t[0] == 'h' && t[1] >= '1' && t[1] <= '6' && !t[2]) || !strcmp(t, "th"))
		s->score -= 5;
	s->score += class_weight(x, n);
	n->_private = s;
	return s;
}

static double
score_of(const xmlNode *n)
{
	return n->_private ? ((struct sc *)n->_private)->score : 0;
}

static int
check_byline(struct ex *x, xmlNode *n, const char *match)
{
	const char *rel, *itemprop;
	char *t;

	if (x->byline)
		return 0;
	rel = fr_ex_attr(n, "rel");
	itemprop = fr_ex_attr(n, "itemprop");
	if (!((rel && !strcmp(rel, "author")) || (itemprop && strstr(itemprop, "author")) ||
	      has_any(match, BYLINE)))
		return 0;
	if (!(t = fr_ex_text(n))) {
		x->oom = 1;
		return 0;
	}
	if (!t[0] || fr_ex_utf8_len(t) >= 100) {
		free(t);
		return 0;
	}
	/* a descendant with itemprop "name" names the author more exactly */
	for (xmlNode *c = next_elem(n, n, 0); c; c = next_elem(c, n, 0)) {
		const char *ip = fr_ex_attr(c, "itemprop");

		if (ip && strstr(ip, "name")) {
			char *nt = fr_ex_text(c);

			if (!nt) {
				x->oom = 1;
				free(t);
				return 0;
			}
			free(t);
			t = nt;
			break;
		}
	}
	x->byline = t;
	return 1;
}

static int
header_duplicates_title(struct ex *x, xmlNode *n)
{
	char *t;
	int dup;

	if (!x->title || (!fr_ex_is(n, "h1") && !fr_ex_is(n, "h2")))
		return 0;
	if (!(t = fr_ex_text(n))) {
		x->oom = 1;
		return 0;
	}
	dup = fr_ex_similarity(x->title, t) > 0.75;
	free(t);
	return dup;
}

static const char *const UNLIKELY_ROLES[] = {"menu", "menubar", "complementary", "navigation",
                                             "alert", "alertdialog", "dialog", NULL};
static const char *const EMPTY_CHECK[] = {"div", "section", "header", "h1", "h2", "h3",
                                          "h4", "h5", "h6", NULL};
static const char *const TO_SCORE[] = {"section", "h2", "h3", "h4", "h5", "h6", "p",
                                       "td", "pre", NULL};

/* Wraps runs of phrasing content of div n in <p>s (Readability). */
static void
wrap_phrasing(struct ex *x, xmlNode *n)
{
	xmlNode *p = NULL;

	for (xmlNode *c = n->children; c && !x->oom;) {
		xmlNode *next = c->next;

		if (phrasing(c)) {
			if (p) {
				append(p, c);
			} else if (!whitespace_node(c)) {
				if (!(p = new_elem(x, "p")))
					return;
				replace(c, p);
				append(p, c);
			}
		} else if (p) {
			while (p->last && whitespace_node(p->last))
				remove_node(p->last);
			p = NULL;
		}
		c = next;
	}
	/* NOTE: a trailing paragraph keeps its trailing blanks, as Readability's */
}

/* The walk over the page: removals, then the nodes to score in x->list. */
static void
walk_page(struct ex *x, xmlNode *root)
{
	char mbuf[512];

	x->n_list = 0;
	for (xmlNode *n = root; n && !x->oom;) {
		const char *match = match_string(n, mbuf, sizeof(mbuf)), *role;
		xmlNode *next;

		if (n == root)
			goto keep;
		if (!visible(n))
			goto drop;
		role = fr_ex_attr(n, "role");
		if (role && !strcmp(role, "dialog") && fr_ex_attr(n, "aria-modal") &&
		    !strcmp(fr_ex_attr(n, "aria-modal"), "true"))
			goto drop;
		if (check_byline(x, n, match))
			goto drop;
		if (x->remove_title_header && header_duplicates_title(x, n)) {
			x->remove_title_header = 0;
			goto drop;
		}
		if (x->flags & F_STRIP_UNLIKELYS) {
			if (has_any(match, UNLIKELY) && !has_any(match, MAYBE) &&
			    !has_ancestor(n, "table", 3, 0) && !has_ancestor(n, "code", 3, 0) &&
			    !fr_ex_is(n, "body") && !fr_ex_is(n, "a"))
				goto drop;
			if (role) {
				for (const char *const *r = UNLIKELY_ROLES; *r; r++)
					if (!strcmp(role, *r))
						goto drop;
			}
		}
		if (tag_in(n, EMPTY_CHECK) && without_content(n))
			goto drop;
	keep:
		if (tag_in(n, TO_SCORE))
			list_push(x, n);
		if (fr_ex_is(n, "div")) {
			wrap_phrasing(x, n);
			if (single_tag_inside(n, "p") && link_density(n) < 0.25) {
				xmlNode *child = first_elem_child(n);

				if (n == root) {
					n = fr_ex_next(n, root, 0);
					continue;
				}
				replace(n, child);
				xmlFreeNode(n);
				n = child;
				list_push(x, n);
			} else if (!has_child_block(n)) {
				rename_node(n, "p");
				list_push(x, n);
			}
		}
		n = next_elem(n, root, 0);
		continue;
	drop:
		next = next_elem(n, root, 1);
		remove_node(n);
		n = next;
	}
}

static double
content_score(const xmlNode *n, size_t *len_out)
{
	struct tst t = text_stats(n);

	*len_out = t.len;
	return 1.0 + (double)(t.commas + 1) + fmin(floor((double)t.len / 100.0), 3.0);
}

/* Keeps the top candidates, best first. */
static void
top_insert(xmlNode **top, xmlNode *c)
{
	double s = score_of(c);

	for (int i = 0; i < N_TOP; i++) {
		if (!top[i] || s > score_of(top[i])) {
			memmove(top + i + 1, top + i, (size_t)(N_TOP - 1 - i) * sizeof(*top));
			top[i] = c;
			return;
		}
	}
}

/* Whether a is an ancestor of n. */
static int
is_ancestor(const xmlNode *a, const xmlNode *n)
{
	for (n = n->parent; n; n = n->parent)
		if (n == a)
			return 1;
	return 0;
}

static void prep_article(struct ex *x, xmlNode *art);

/* grabArticle: returns a new <div> holding the article (unlinked), or NULL. */
static xmlNode *
grab(struct ex *x)
{
	xmlNode *body = x->body, *top_c[N_TOP] = {0}, *top, *art, *parent;
	xmlNode **cands = NULL;
	size_t n_cands = 0, cap_cands = 0;
	int created = 0;

	walk_page(x, body);
	if (x->oom)
		return NULL;
	/* score the paragraphs into their ancestors */
	for (size_t i = 0; i < x->n_list && !x->oom; i++) {
		xmlNode *e = x->list[i], *a;
		size_t len;
		double cs;
		int level = 0;

		if (!is_elem(e->parent))
			continue;
		cs = content_score(e, &len);
		if (len < 25)
			continue;
		for (a = e->parent; is_elem(a) && level < 5; a = a->parent, level++) {
			if (!is_elem(a->parent))
				break; /* the root element */
			if (!a->_private) {
				if (!init_node(x, a))
					break;
				if (n_cands == cap_cands) {
					size_t cap = cap_cands ? cap_cands * 2 : 64;
					xmlNode **l = realloc(cands, cap * sizeof(*l));

					if (!l) {
						x->oom = 1;
						break;
					}
					cands = l;
					cap_cands = cap;
				}
				cands[n_cands++] = a;
			}
			((struct sc *)a->_private)->score +=
			    cs / (level == 0 ? 1.0 : level == 1 ? 2.0 : level * 3.0);
		}
	}
	for (size_t i = 0; i < n_cands && !x->oom; i++) {
		struct sc *s = cands[i]->_private;

		s->score *= 1.0 - link_density(cands[i]);
		top_insert(top_c, cands[i]);
	}
	free(cands);
	if (x->oom)
		return NULL;
	top = top_c[0];
	if (!top || fr_ex_is(top, "body")) {
		created = 1;
		if (!(top = new_elem(x, "div")))
			return NULL;
		for (xmlNode *c = body->children; c;) {
			xmlNode *next = c->next;

			append(top, c);
			c = next;
		}
		append(body, top);
		if (!init_node(x, top))
			return NULL;
	} else {
		/* a common ancestor of several near-best candidates */
		xmlNode *alts[N_TOP];
		size_t n_alts = 0;
		double top_score = score_of(top), last, threshold;

		for (int i = 1; i < N_TOP; i++)
			if (top_c[i] && top_score > 0 && score_of(top_c[i]) / top_score >= 0.75)
				alts[n_alts++] = top_c[i];
		if (n_alts >= 3) {
			for (parent = top->parent; is_elem(parent) && !fr_ex_is(parent, "body");
			     parent = parent->parent) {
				size_t k = 0;

				for (size_t i = 0; i < n_alts; i++)
					k += is_ancestor(parent, alts[i]);
				if (k >= 3) {
					top = parent;
					break;
				}
			}
		}
		if (!top->_private && !init_node(x, top))
			return NULL;
		/* climb while the parent scores better */
		last = score_of(top);
		threshold = last / 3;
		for (parent = top->parent; is_elem(parent) && !fr_ex_is(parent, "body");
		     parent = parent->parent) {
			double ps;

			if (!parent->_private)
				continue;
			ps = score_of(parent);
			if (ps < threshold)
				break;
			if (ps > last) {
				top = parent;
				break;
			}
			last = ps;
		}
		/* an only child: its parent instead */
		for (parent = top->parent; is_elem(parent) && !fr_ex_is(parent, "body") &&
		                           n_elem_children(parent) == 1;
		     parent = top->parent)
			top = parent;
		if (!top->_private && !init_node(x, top))
			return NULL;
	}
	/* the candidate and its worthy siblings */
	if (!(art = new_elem(x, "div")))
		return NULL;
	{
		double ts = score_of(top), thr = fmax(10.0, ts * 0.2);
		const char *tclass = fr_ex_attr(top, "class");
		xmlNode *sib;

		parent = top->parent;
		x->n_list = 0;
		for (sib = parent ? parent->children : top; sib; sib = sib->next)
			if (is_elem(sib) && list_push(x, sib))
				return NULL;
		if (!parent)
			x->n_list = 1;
		for (size_t i = 0; i < x->n_list; i++) {
			int keep = 0;

			sib = x->list[i];
			if (sib == top) {
				keep = 1;
			} else {
				double bonus = 0;
				const char *sc = fr_ex_attr(sib, "class");

				if (tclass && tclass[0] && sc && !strcmp(sc, tclass))
					bonus += ts * 0.2;
				if (sib->_private && score_of(sib) + bonus >= thr) {
					keep = 1;
				} else if (fr_ex_is(sib, "p")) {
					size_t len = text_len(sib);
					double ld = link_density_len(sib, len);

					if (len > 80 && ld < 0.25) {
						keep = 1;
					} else if (len < 80 && len > 0 && ld == 0) {
						char *t = fr_ex_text(sib);

						if (!t)
							x->oom = 1;
						else {
							char *d = strstr(t, ". ");
							size_t l = strlen(t);

							keep = d || (l && t[l - 1] == '.');
							free(t);
						}
					}
				}
			}
			if (keep) {
				static const char *const keep_tag[] = {"div", "article", "section", "p", NULL};

				if (!tag_in(sib, keep_tag))
					rename_node(sib, "div");
				append(art, sib);
			}
		}
	}
	(void)created;
	prep_article(x, art);
	return art;
}

/* ---- prepArticle ---- */

/* Every element under root called name, in document order, into x->list. */
static int
collect(struct ex *x, xmlNode *root, const char *name)
{
	x->n_list = 0;
	for (xmlNode *n = first_elem_child(root) ? root : NULL; n; n = next_elem(n, root, 0))
		if (n != root && !strcmp(tag(n), name) && list_push(x, n))
			return -1;
	return 0;
}

static void
mark_data_tables(struct ex *x, xmlNode *art)
{
	if (collect(x, art, "table"))
		return;
	for (size_t i = 0; i < x->n_list; i++) {
		xmlNode *t = x->list[i];
		struct sc *s = t->_private ? t->_private : init_node(x, t);
		const char *role = fr_ex_attr(t, "role"), *dt = fr_ex_attr(t, "datatable");
		size_t rows = 0, cols = 0;
		int data = -1;

		if (!s)
			return;
		if (role && !strcmp(role, "presentation"))
			data = 0;
		else if (dt && !strcmp(dt, "0"))
			data = 0;
		else if (fr_ex_attr(t, "summary"))
			data = 1;
		if (data < 0) {
			xmlNode *cap = NULL;

			for (xmlNode *c = t->children; c; c = c->next)
				if (fr_ex_is(c, "caption"))
					cap = c;
			if (cap && cap->children)
				data = 1;
		}
		if (data < 0) {
			for (xmlNode *c = next_elem(t, t, 0); c && data < 0; c = next_elem(c, t, 0)) {
				const char *n = tag(c);

				if (!strcmp(n, "col") || !strcmp(n, "colgroup") || !strcmp(n, "tfoot") ||
				    !strcmp(n, "thead") || !strcmp(n, "th"))
					data = 1;
				else if (!strcmp(n, "table"))
					data = 0;
			}
		}
		if (data < 0) {
			for (xmlNode *c = next_elem(t, t, 0); c; c = next_elem(c, t, 0)) {
				if (fr_ex_is(c, "tr")) {
					size_t k = 0;

					rows++;
					for (xmlNode *d = c->children; d; d = d->next)
						if (fr_ex_is(d, "td") || fr_ex_is(d, "th")) {
							const char *cs = fr_ex_attr(d, "colspan");
							long span = cs ? strtol(cs, NULL, 10) : 1;

							k += span > 0 && span < 1000 ? (size_t)span : 1;
						}
					if (k > cols)
						cols = k;
				}
			}
			data = rows >= 10 || cols > 4 || rows * cols > 10;
		}
		s->data_table = data;
	}
}

static const char *const VIDEO_HOSTS[] = {
    "//www.dailymotion.com", "//dailymotion.com", "//www.youtube.com", "//youtube.com",
    "//www.youtube-nocookie.com", "//youtube-nocookie.com", "//player.vimeo.com",
    "//www.player.vimeo.com", "//v.qq.com", "//www.v.qq.com", "//archive.org",
    "//www.archive.org", "//upload.wikimedia.org", "//player.twitch.tv", NULL};

static int
is_video(const xmlNode *n)
{
	for (const xmlAttr *a = n->properties; a; a = a->next) {
		const char *v = a->children && a->children->content ? (const char *)a->children->content : "";
		char buf[512];
		size_t i = 0;

		for (; v[i] && i + 1 < sizeof(buf); i++)
			buf[i] = (char)tolower((unsigned char)v[i]);
		buf[i] = '\0';
		if (has_any(buf, VIDEO_HOSTS))
			return 1;
	}
	return 0;
}

static int
is_embed(const xmlNode *n)
{
	return fr_ex_is(n, "object") || fr_ex_is(n, "embed") || fr_ex_is(n, "iframe");
}

/* _clean: every name under art removed, but video embeds. */
static void
clean_tag(struct ex *x, xmlNode *art, const char *name)
{
	if (collect(x, art, name))
		return;
	for (size_t i = x->n_list; i-- > 0;) {
		xmlNode *n = x->list[i];

		if (is_embed(n) && is_video(n))
			continue;
		remove_node(n);
	}
}

struct cstat {
	size_t p, img, li, input, embeds, text, head_text, textish_text, list_text;
	int video;
};

static const char *const TEXTISH[] = {"span", "li", "td", "blockquote", "dl", "div", "img",
                                      "ol", "p", "pre", "table", "ul", NULL};

static void
cond_stats(const xmlNode *n, struct cstat *s)
{
	memset(s, 0, sizeof(*s));
	s->text = text_len(n);
	for (xmlNode *c = next_elem((xmlNode *)n, n, 0); c; c = next_elem(c, n, 0)) {
		const char *t = tag(c);

		if (!strcmp(t, "p"))
			s->p++;
		else if (!strcmp(t, "img"))
			s->img++;
		else if (!strcmp(t, "li"))
			s->li++;
		else if (!strcmp(t, "input"))
			s->input++;
		if (is_embed(c)) {
			if (is_video(c))
				s->video = 1;
			s->embeds++;
		}
		if (t[0] == 'h' && t[1] >= '1' && t[1] <= '6' && !t[2])
			s->head_text += text_len(c);
		if (tag_in(c, TEXTISH))
			s->textish_text += text_len(c);
		if (!strcmp(t, "ul") || !strcmp(t, "ol"))
			s->list_text += text_len(c);
	}
}

static int
has_data_table_inside(const xmlNode *n)
{
	for (xmlNode *c = next_elem((xmlNode *)n, n, 0); c; c = next_elem(c, n, 0))
		if (fr_ex_is(c, "table") && c->_private && ((struct sc *)c->_private)->data_table)
			return 1;
	return 0;
}

/* Readability's _cleanConditionally's judgement on one node. */
static int
should_remove(struct ex *x, xmlNode *n, const char *name)
{
	struct cstat s;
	int is_list = !strcmp(name, "ul") || !strcmp(name, "ol"), weight, figure;
	double ld, heading_density, textish_density;
	long li;

	if (!strcmp(name, "table") && n->_private && ((struct sc *)n->_private)->data_table)
		return 0;
	if (has_ancestor(n, "table", -1, 1) || has_ancestor(n, "code", 3, 0))
		return 0;
	if (has_data_table_inside(n))
		return 0;
	weight = class_weight(x, n);
	if (weight < 0)
		return 1;
	cond_stats(n, &s);
	if (!is_list && s.text)
		is_list = (double)s.list_text / (double)s.text > 0.9;
	if (text_stats(n).commas >= 10)
		return 0;
	if (s.video)
		return 0;
	li = (long)s.li - 100;
	heading_density = s.text ? (double)s.head_text / (double)s.text : 0;
	textish_density = s.text ? (double)s.textish_text / (double)s.text : 0;
	ld = link_density_len(n, s.text);
	figure = has_ancestor(n, "figure", 3, 0);
	{
		int rm = 0;

		if (!figure && s.img > 1 && (double)s.p / (double)s.img < 0.5)
			rm = 1;
		else if (!is_list && li > (long)s.p)
			rm = 1;
		else if (s.input > s.p / 3)
			rm = 1;
		else if (!is_list && !figure && heading_density < 0.9 && s.text < 25 &&
		         (s.img == 0 || s.img > 2) && ld > 0)
			rm = 1;
		else if (!is_list && weight < 25 && ld > 0.2)
			rm = 1;
		else if (weight >= 25 && ld > 0.5)
			rm = 1;
		else if ((s.embeds == 1 && s.text < 75) || s.embeds > 1)
			rm = 1;
		else if (s.img == 0 && textish_density == 0)
			rm = 1;
		if (is_list && rm) {
			for (xmlNode *c = n->children; c; c = c->next)
				if (is_elem(c) && n_elem_children(c) > 1)
					return rm;
			if (s.img == s.li)
				return 0;
		}
		return rm;
	}
}

static void
clean_conditionally(struct ex *x, xmlNode *art, const char *name)
{
	if (!(x->flags & F_CLEAN_CONDITIONALLY))
		return;
	if (collect(x, art, name))
		return;
	/* last first: inner blocks are judged before the blocks around them */
	for (size_t i = x->n_list; i-- > 0;) {
		xmlNode *n = x->list[i];

		if (should_remove(x, n, name))
			remove_node(n);
	}
}

static const char *const SHARE[] = {"share", "sharedaddy", NULL};

/* Readability's shareElements: (\b|_)(share|sharedaddy)(\b|_). */
static int
share_match(const char *m)
{
	for (const char *const *w = SHARE; *w; w++) {
		size_t l = strlen(*w);

		for (const char *p = m; (p = strstr(p, *w)); p++) {
			char b = p == m ? ' ' : p[-1], a = p[l];

			if (!isalnum((unsigned char)b) && !isalnum((unsigned char)a))
				return 1;
		}
	}
	return 0;
}

static void
clean_share(struct ex *x, xmlNode *art)
{
	char mbuf[512];

	for (xmlNode *top = first_elem_child(art); top; top = top->next) {
		if (!is_elem(top))
			continue;
		for (xmlNode *n = next_elem(top, top, 0); n;) {
			if (share_match(match_string(n, mbuf, sizeof(mbuf))) && text_len(n) < 500) {
				xmlNode *next = next_elem(n, top, 1);

				remove_node(n);
				n = next;
				continue;
			}
			n = next_elem(n, top, 0);
		}
	}
	(void)x;
}

static void
prep_article(struct ex *x, xmlNode *art)
{
	static const char *const cleaned[] = {"object", "embed", "footer", "link", "aside",
	                                      "iframe", "input", "textarea", "select", "button",
	                                      NULL};

	mark_data_tables(x, art);
	clean_conditionally(x, art, "form");
	clean_conditionally(x, art, "fieldset");
	for (int i = 0; i < 5; i++)
		clean_tag(x, art, cleaned[i]);
	clean_share(x, art);
	for (int i = 5; cleaned[i]; i++)
		clean_tag(x, art, cleaned[i]);
	/* headers with a negative class weight */
	for (int h = 1; h <= 2; h++) {
		if (collect(x, art, h == 1 ? "h1" : "h2"))
			return;
		for (size_t i = x->n_list; i-- > 0;)
			if (class_weight(x, x->list[i]) < 0)
				remove_node(x->list[i]);
	}
	clean_conditionally(x, art, "table");
	clean_conditionally(x, art, "ul");
	clean_conditionally(x, art, "div");
	if (collect(x, art, "h1"))
		return;
	for (size_t i = 0; i < x->n_list; i++)
		rename_node(x->list[i], "h2");
	/* empty paragraphs */
	if (collect(x, art, "p"))
		return;
	for (size_t i = x->n_list; i-- > 0;) {
		xmlNode *p = x->list[i];
		int media = 0;

		for (xmlNode *c = next_elem(p, p, 0); c && !media; c = next_elem(c, p, 0))
			media = fr_ex_is(c, "img") || is_embed(c);
		if (!media && !has_text(p))
			remove_node(p);
	}
	/* <br> before a paragraph */
	if (collect(x, art, "br"))
		return;
	for (size_t i = x->n_list; i-- > 0;) {
		xmlNode *br = x->list[i], *nx = next_significant(br->next);

		if (fr_ex_is(nx, "p"))
			remove_node(br);
	}
}

/* ---- output ---- */

struct obuf {
	char *p;
	size_t n, cap;
	int oom;
};

static void
oput(struct obuf *b, const char *s, size_t n)
{
	if (b->oom)
		return;
	if (b->n + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 1024;
		char *p;

		while (cap < b->n + n + 1)
			cap *= 2;
		if (!(p = realloc(b->p, cap))) {
			b->oom = 1;
			return;
		}
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->n, s, n);
	b->n += n;
	b->p[b->n] = '\0';
}

static const char *const BLOCKS[] = {
    "p", "div", "h1", "h2", "h3", "h4", "h5", "h6", "li", "ul", "ol", "dl", "dt", "dd", "tr",
    "table", "blockquote", "pre", "section", "article", "figure", "figcaption", "hr", "header",
    "main", "address", "details", "summary", "caption", "aside", "footer", "center", NULL};

/* A break in the plain text: 1 a line, 2 a blank line. */
static void
obreak(struct obuf *b, int lines)
{
	size_t have = 0;

	if (!b->n)
		return;
	while (have < b->n && have < 2 && b->p[b->n - 1 - have] == '\n')
		have++;
	/* drop the blank run's trailing space */
	while (b->n && b->p[b->n - 1] == ' ' && !have)
		b->n--;
	for (size_t i = have; i < (size_t)lines; i++)
		oput(b, "\n", 1);
}

static void
text_out(struct obuf *b, const xmlNode *n, int pre)
{
	for (const xmlNode *c = n->children; c && !b->oom; c = c->next) {
		if (c->type == XML_TEXT_NODE || c->type == XML_CDATA_SECTION_NODE) {
			const char *s = (const char *)c->content;

			if (!s)
				continue;
			if (pre) {
				oput(b, s, strlen(s));
				continue;
			}
			for (; *s; s++) {
				if (is_space((unsigned char)*s)) {
					if (b->n && b->p[b->n - 1] != ' ' && b->p[b->n - 1] != '\n')
						oput(b, " ", 1);
					continue;
				}
				oput(b, s, 1);
			}
		} else if (is_elem(c)) {
			int block = tag_in(c, BLOCKS);

			if (fr_ex_is(c, "br")) {
				while (b->n && b->p[b->n - 1] == ' ')
					b->n--;
				oput(b, "\n", 1);
				continue;
			}
			if (block)
				obreak(b, fr_ex_is(c, "li") || fr_ex_is(c, "tr") || fr_ex_is(c, "dt") ||
				                  fr_ex_is(c, "dd") ? 1 : 2);
			else if ((fr_ex_is(c, "td") || fr_ex_is(c, "th")) && b->n &&
			         b->p[b->n - 1] != '\n' && b->p[b->n - 1] != ' ')
				oput(b, " ", 1);
			text_out(b, c, pre || fr_ex_is(c, "pre"));
			if (block)
				obreak(b, fr_ex_is(c, "li") || fr_ex_is(c, "tr") || fr_ex_is(c, "dt") ||
				                  fr_ex_is(c, "dd") ? 1 : 2);
		}
	}
}

/* The plain text of art: blocks apart by blank lines, trimmed. NULL on OOM. */
static char *
plain_text(const xmlNode *art)
{
	struct obuf b = {0};
	size_t a = 0, e;

	oput(&b, "", 0);
	text_out(&b, art, 0);
	if (b.oom) {
		free(b.p);
		return NULL;
	}
	e = b.n;
	while (a < e && is_space((unsigned char)b.p[a]))
		a++;
	while (e > a && is_space((unsigned char)b.p[e - 1]))
		e--;
	memmove(b.p, b.p + a, e - a);
	b.p[e - a] = '\0';
	/* trailing blanks of lines */
	{
		size_t w = 0;

		for (size_t i = 0; b.p[i]; i++) {
			if (b.p[i] == '\n')
				while (w && b.p[w - 1] == ' ')
					w--;
			b.p[w++] = b.p[i];
		}
		b.p[w] = '\0';
	}
	return b.p;
}

/* ---- the entry point ---- */

static void
charset_of(const char *content_type, char *buf, size_t len)
{
	const char *c = NULL;
	size_t n = 0;

	buf[0] = '\0';
	if (!content_type)
		return;
	for (const char *p = content_type; *p && !c; p++)
		if (!strncasecmp(p, "charset=", 8))
			c = p + 8;
	if (!c)
		return;
	if (*c == '"' || *c == '\'')
		c++;
	while (*c && *c != ';' && *c != '"' && *c != '\'' && !isspace((unsigned char)*c) &&
	       n + 1 < len)
		buf[n++] = *c++;
	buf[n] = '\0';
}

/* Case-insensitive: whether s[0..n) starts with the lower-case word w. */
static int
starts_ci(const char *s, size_t n, const char *w)
{
	size_t l = strlen(w);

	if (n < l)
		return 0;
	for (size_t i = 0; i < l; i++)
		if (tolower((unsigned char)s[i]) != w[i])
			return 0;
	return 1;
}

/* The index just past the '>' that ends the tag opened at s[i] ('<'), quoted
 * attribute values skipped; n when the tag never ends. */
static size_t
tag_end(const char *s, size_t n, size_t i)
{
	char prev = 0;

	for (i++; i < n; i++) {
		char c = s[i];

		if ((c == '"' || c == '\'') && prev == '=') {
			const char *q = memchr(s + i + 1, c, n - i - 1);

			if (!q)
				return n;
			i = (size_t)(q - s);
			prev = c;
			continue;
		}
		if (c == '>')
			return i + 1;
		if (!is_space((unsigned char)c))
			prev = c;
	}
	return n;
}

/* The index of the next "</name" (any case) at or after i, or n. */
static size_t
find_close(const char *s, size_t n, size_t i, const char *name)
{
	while (i < n) {
		const char *lt = memchr(s + i, '<', n - i);

		if (!lt)
			return n;
		i = (size_t)(lt - s);
		if (i + 1 < n && s[i + 1] == '/' && starts_ci(s + i + 2, n - i - 2, name))
			return i;
		i++;
	}
	return n;
}

/* The page without its <script> elements (JSON-LD kept) and <style>
 * elements, which the extractor drops anyway: a third of a modern page's
 * bytes that libxml2 would otherwise copy character by character. Raw text
 * ends at the first "</script" or "</style", as in libxml2's parser;
 * comments are copied whole, so a tag written inside one is left alone.
 * A malloc'd copy (len in *out_len), or NULL on out of memory. */
static char *
strip_raw(const char *s, size_t n, size_t *out_len)
{
	char *o = malloc(n + 1);
	size_t i = 0, w = 0;

	if (!o)
		return NULL;
	while (i < n) {
		const char *lt = memchr(s + i, '<', n - i);
		size_t j = lt ? (size_t)(lt - s) : n, e;
		const char *name = NULL;

		memcpy(o + w, s + i, j - i);
		w += j - i;
		i = j;
		if (i >= n)
			break;
		if (starts_ci(s + i, n - i, "<!--")) {
			e = n;
			for (size_t k = i + 4; k + 3 <= n;) {
				const char *d = memchr(s + k, '-', n - k);

				if (!d)
					break;
				k = (size_t)(d - s);
				if (k + 3 <= n && d[1] == '-' && d[2] == '>') {
					e = k + 3;
					break;
				}
				k++;
			}
			memcpy(o + w, s + i, e - i);
			w += e - i;
			i = e;
			continue;
		}
		if (starts_ci(s + i + 1, n - i - 1, "script"))
			name = "script";
		else if (starts_ci(s + i + 1, n - i - 1, "style"))
			name = "style";
		if (name) {
			size_t k = i + 1 + strlen(name);

			if (k < n && !is_space((unsigned char)s[k]) && s[k] != '>' && s[k] != '/')
				name = NULL;
		}
		if (!name) {
			o[w++] = s[i++];
			continue;
		}
		e = tag_end(s, n, i);
		if (name[1] == 'c') {
			int keep = 0;

			for (size_t k = i; k + 7 <= e && !keep; k++)
				keep = starts_ci(s + k, e - k, "ld+json");
			if (keep) {
				memcpy(o + w, s + i, e - i);
				w += e - i;
				i = e;
				continue;
			}
		}
		/* the element, raw text and end tag, goes */
		e = find_close(s, n, e, name);
		i = e < n ? tag_end(s, n, e) : n;
	}
	o[w] = '\0';
	*out_len = w;
	return o;
}

static xmlDoc *
parse_page(const char *html, size_t len, const struct fr_extract_opts *o)
{
	char cs[64];
	int opts = HTML_PARSE_RECOVER | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING | HTML_PARSE_NONET |
	           HTML_PARSE_COMPACT;
	xmlDoc *doc;

	charset_of(o ? o->content_type : NULL, cs, sizeof(cs));
	if (!len) {
		html = "<html></html>";
		len = 13;
	}
	doc = htmlReadMemory(html, (int)len, o ? o->url : NULL, cs[0] ? cs : NULL, opts);
	if (!doc && cs[0])
		doc = htmlReadMemory(html, (int)len, o ? o->url : NULL, NULL, opts);
	return doc;
}

static xmlNode *
find_body(xmlDoc *doc)
{
	xmlNode *root = xmlDocGetRootElement(doc);

	if (!root)
		return NULL;
	for (xmlNode *c = root->children; c; c = c->next)
		if (fr_ex_is(c, "body"))
			return c;
	return root;
}

struct attempt {
	xmlDoc *doc;
	xmlNode *art;
	size_t len;
};

/* The language of what a reader reads: the title and the main text, else
 * the excerpt when no main text was found. */
static void
detect_lang(struct fr_article *a)
{
	const char *body = a->text[0] ? a->text : a->excerpt ? a->excerpt : "";
	struct fr_lang_part p[2] = {{a->title, strlen(a->title), 0},
	                            {body, strnlen(body, FR_LANG_MAX_BYTES), 0}};
	struct fr_lang_guess g;

	a->lang_detected[0] = '\0';
	if (fr_lang_detect_parts(p, 2, &g))
		snprintf(a->lang_detected, sizeof(a->lang_detected), "%s", g.code);
}

void
fr_article_free(struct fr_article *a)
{
	if (!a)
		return;
	free(a->title);
	free(a->byline);
	free(a->lang);
	free(a->excerpt);
	free(a->site_name);
	free(a->published_time);
	free(a->content);
	free(a->text);
	free(a);
}

/* The article's HTML: serialised, then through the feed sanitiser (allowed
 * elements, attributes and URI schemes; relative links made absolute). */
static char *
content_html(xmlDoc *doc, xmlNode *art, const char *url)
{
	xmlBuffer *buf = xmlBufferCreate();
	char *out;

	if (!buf)
		return NULL;
	/* Grown by doubling: libxml2's default grows a buffer to the exact
	 * size on every append, and each growth copies it when realloc cannot
	 * extend in place (always, under ASan): quadratic in the article. */
	xmlBufferSetAllocationScheme(buf, XML_BUFFER_ALLOC_DOUBLEIT);
	xmlNodeSetName(art, (const xmlChar *)"div");
	xmlSetProp(art, (const xmlChar *)"id", (const xmlChar *)"readability-page-1");
	xmlSetProp(art, (const xmlChar *)"class", (const xmlChar *)"page");
	if (htmlNodeDump(buf, doc, art) < 0) {
		xmlBufferFree(buf);
		return NULL;
	}
	out = fr_feed_sanitize_html((const char *)xmlBufferContent(buf), (size_t)xmlBufferLength(buf),
	                            url, 1);
	xmlBufferFree(buf);
	return out;
}

int
fr_extract(const char *html, size_t len, const struct fr_extract_opts *opts,
           struct fr_article **out, char *err, size_t errlen)
{
	size_t max = opts && opts->max_bytes ? opts->max_bytes : FR_EXTRACT_MAX_BYTES_DEFAULT;
	size_t threshold = opts && opts->char_threshold ? opts->char_threshold : 500;
	struct attempt att[4];
	size_t n_att = 0, best = 0;
	struct fr_ex_meta meta;
	struct fr_article *a = NULL;
	struct ex x;
	xmlDoc *doc;
	char *page;
	size_t page_len;
	int rc = -1;

	*out = NULL;
	memset(&x, 0, sizeof(x));
	memset(&meta, 0, sizeof(meta));
	if (len > max || len > INT_MAX)
		return fr_errf(err, errlen, "page of %zu bytes over the cap of %zu", len, max);
	if (!(page = strip_raw(html, len, &page_len)))
		return fr_errf(err, errlen, "out of memory");
	if (!(doc = parse_page(page, page_len, opts))) {
		free(page);
		return fr_errf(err, errlen, "not parseable as HTML");
	}
	if (fr_ex_meta_read(doc, &meta)) {
		xmlFreeDoc(doc);
		free(page);
		return fr_errf(err, errlen, "out of memory");
	}
	x.flags = F_STRIP_UNLIKELYS | F_WEIGHT_CLASSES | F_CLEAN_CONDITIONALLY;
	x.title = meta.title;
	for (;;) {
		xmlNode *art;
		size_t tl;

		x.doc = doc;
		x.body = find_body(doc);
		x.remove_title_header = 1;
		if (!x.body) {
			art = NULL;
		} else {
			prep_document(&x, x.body);
			art = grab(&x);
		}
		if (x.oom) {
			if (art)
				xmlFreeNode(art);
			xmlFreeDoc(doc);
			fr_errf(err, errlen, "out of memory");
			goto done;
		}
		tl = art ? text_len(art) : 0;
		att[n_att].doc = doc;
		att[n_att].art = art;
		att[n_att].len = tl;
		if (tl > att[best].len)
			best = n_att;
		n_att++;
		if (tl >= threshold)
			break;
		if (x.flags & F_STRIP_UNLIKELYS)
			x.flags &= ~F_STRIP_UNLIKELYS;
		else if (x.flags & F_WEIGHT_CLASSES)
			x.flags &= ~F_WEIGHT_CLASSES;
		else if (x.flags & F_CLEAN_CONDITIONALLY)
			x.flags &= ~F_CLEAN_CONDITIONALLY;
		else
			break;
		if (!(doc = parse_page(page, page_len, opts))) {
			fr_errf(err, errlen, "not parseable as HTML");
			goto done;
		}
	}
	if (n_att && att[n_att - 1].len >= threshold)
		best = n_att - 1;
	if (!(a = calloc(1, sizeof(*a))))
		goto oom;
	a->title = meta.title;
	a->lang = meta.lang;
	a->site_name = meta.site_name;
	a->published_time = meta.published_time;
	a->excerpt = meta.excerpt;
	a->byline = meta.byline;
	memset(&meta, 0, sizeof(meta));
	if (!a->title && !(a->title = strdup(""))) /* a document without a root element */
		goto oom;
	if (!a->byline && x.byline) {
		a->byline = fr_ex_squash(x.byline);
		x.byline = NULL;
	}
	if (att[best].art && att[best].len) {
		a->text = plain_text(att[best].art);
		a->content = content_html(att[best].doc, att[best].art, opts ? opts->url : NULL);
		if (!a->excerpt) {
			xmlNode *p = fr_ex_find(att[best].art, "p");

			if (p && !(a->excerpt = fr_ex_text(p)))
				goto oom;
			if (a->excerpt && !a->excerpt[0]) {
				free(a->excerpt);
				a->excerpt = NULL;
			}
		}
	} else {
		a->text = strdup("");
		a->content = strdup("");
	}
	if (!a->text || !a->content)
		goto oom;
	{
		/* libxml2 lets a stray byte through in some malformed references:
		 * every string out is well-formed UTF-8 */
		char **fields[] = {&a->title, &a->byline, &a->lang, &a->excerpt, &a->site_name,
		                   &a->published_time, &a->content, &a->text};

		for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
			char *fixed = NULL;

			if (!*fields[i])
				continue;
			if (fr_utf8_fix(*fields[i], &fixed) != 0)
				goto oom;
			if (fixed) {
				free(*fields[i]);
				*fields[i] = fixed;
			}
		}
	}
	a->length = fr_ex_utf8_len(a->text);
	detect_lang(a);
	*out = a;
	a = NULL;
	rc = 0;
	goto done;
oom:
	fr_errf(err, errlen, "out of memory");
done:
	for (size_t i = 0; i < n_att; i++) {
		if (att[i].art)
			xmlFreeNode(att[i].art);
		xmlFreeDoc(att[i].doc);
	}
	fr_article_free(a);
	fr_ex_meta_clear(&meta);
	free(page);
	free(x.byline);
	free(x.list);
	pool_free(&x.pool);
	return rc;
}
