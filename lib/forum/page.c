/* page.c - one forum page read from its DOM alone (page.h): date columns,
 * the aligned subtrees that carry them (SInFo Alg. 1 and 2), index rows by
 * their title links, posts with their author and content subtree (WeRE). */
#include "forum/page.h"

#include "core/err.h"
#include "core/strmap.h"
#include "forum/fdate.h"
#include "forum/furl.h"
#include "url/url.h"

#include <libxml/HTMLparser.h>
#include <libxml/tree.h>

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_BYTES_DEFAULT ((size_t)16 << 20)
#define MAX_DEPTH 512             /* deeper elements are left out */
#define MAX_ELEMENTS 400000       /* elements kept per page */
#define MAX_LINK_TEXT 512         /* bytes of anchor text kept */
#define MAX_POST_TEXT (256 << 10) /* bytes of a post's text kept */
#define MAX_DATES_PER_TEXT 16
#define MAX_DATE_TEXT 256 /* longer element texts are not read with their attributes */
#define MAX_RECS 2000     /* records per candidate considered */

/* Thresholds of the decisions (docs/forum-pages.md). */
#define THREAD_MIN_RATIO 1.5 /* posts: non-anchor text per anchor text byte, at least */
#define THREAD_MIN_AVG 30.0  /* posts: non-anchor bytes per record, at least */
#define SINGLE_MIN_RATIO 0.8 /* a lone post (its text follows its date): the same, at least */
#define SINGLE_NEAR_RATIO 0.5 /* ... when that text sits right by its date and author: a
                                 short reply ("Thanks, that works!") under a linked title */
#define INDEX_MAX_RATIO 3.0  /* index rows: non-anchor text per anchor text byte, below */
#define INDEX_MIN_TITLED 0.6 /* index rows: share with a title link, at least */
#define INDEX_MIN_SHARE 0.2  /* index rows: share of the page's text, at least */
#define SPREAD_KEEP 0.8      /* content: a child keeps this share of the spread */
#define TEXT_KEEP 0.7        /* content: or this share of the text */

/* One element of the body, in document order. Its subtree is [i, end). */
struct el {
	xmlNode *x;
	int32_t parent;
	uint32_t end;
	uint32_t depth;
	uint64_t sig;  /* tag and first class word with digits removed */
	uint64_t fsig; /* tag and all class words with digits removed (order-free) */
	uint64_t tag;  /* tag alone */
	uint64_t path; /* sigs from the root */
	uint32_t na;   /* visible text bytes outside links, subtree */
	uint32_t an;   /* visible text bytes inside links, subtree */
	uint32_t nh;   /* visible text bytes in table headers (th, thead), subtree */
	int32_t link;  /* index in the page's links when an <a> listed there, else -1 */
	uint8_t hidden; /* inside an element the page hides (style display:none, hidden) */
};

struct date {
	uint32_t el;
	uint32_t col; /* dense column number */
	uint64_t key; /* the column's signature */
	uint64_t lkey[2]; /* the same with the parents' tags alone (rows marked read or
	                     unread), with the element's tag alone too */
	int64_t t;
	unsigned gran, flags;
	uint32_t tlen; /* bytes of the text the date was read from */
};

/* A set of records: an element per record (its root) and, for date
 * columns, the date of each. */
struct cand {
	uint32_t *root;
	uint32_t *date; /* index into dates, or UINT32_MAX */
	size_t n;
	int kind;      /* FR_FPAGE_INDEX or FR_FPAGE_THREAD when valid, else 0 */
	double mass;   /* visible text bytes of its records */
	unsigned lead; /* thread: leading records out of order */
	unsigned *depth;
	int level;     /* columns joined by dates' lkey[level] (lkey), or -1 */
	uint64_t lkey;
};

struct ctx {
	const char *url;
	const struct fr_fpage_opts *o;
	struct fr_fdate_page *pg;
	struct fr_fpage *p;
	char *base;
	struct el *els;
	size_t n_els, cap_els;
	struct date *dates;
	size_t n_dates, cap_dates;
	const char **texts;
	size_t *tlens;
	size_t n_texts, cap_texts, cap_tlens;
	uint32_t *dpre; /* date elements before element i (n_els + 1 of them) */
	double *dtext;  /* their visible text bytes, likewise */
	size_t cap_links, cap_recs;
	uint32_t *url_n;                /* per link: links of the page with its URL */
	uint32_t *col_first, *col_next; /* per column: first date; per date: next of its column */
	uint32_t *col_n;
	size_t n_cols;
	struct fr_strmap *groups;
	size_t clock; /* the date that is the page's clock (find_clock), or SIZE_MAX */
	/* Quotes and signatures of the posts (MARK_*), per element; mpre: the
	 * text bytes of the marked subtrees before element i. */
	uint8_t *mark;
	double *mpre;
	size_t n_cand; /* records of the thread being filled */
	int oom;
};

/* Marked subtrees: a quote (with its header) or a signature, kept out of a
 * post's text and stored apart. The root of each marked subtree carries
 * the address of one of these in its xmlNode's _private. */
enum { MARK_QUOTE = 1, MARK_SIG = 2 };
static const char MARK_Q = 'q', MARK_S = 's';

/* ---- small helpers ---- */

static uint64_t
fnv(uint64_t h, const void *s, size_t n)
{
	const unsigned char *p = s;

	for (size_t i = 0; i < n; i++) {
		h ^= p[i];
		h *= 1099511628211ull;
	}
	return h;
}

#define FNV0 14695981039346656037ull

static const char *
strcasestr_(const char *h, const char *n)
{
	size_t k = strlen(n);

	for (; *h; h++)
		if (!strncasecmp(h, n, k))
			return h;
	return NULL;
}

static uint64_t
mix(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ull;
	h ^= h >> 33;
	return h;
}

static int
grow(void **p, size_t *cap, size_t need, size_t size)
{
	size_t nc;
	void *np;

	if (need <= *cap)
		return 0;
	nc = *cap ? *cap * 2 : 64;
	while (nc < need)
		nc *= 2;
	np = realloc(*p, nc * size);
	if (!np)
		return -1;
	*p = np;
	*cap = nc;
	return 0;
}

static int
is_tag(const xmlNode *x, const char *name)
{
	return x && x->type == XML_ELEMENT_NODE && x->name &&
	       !strcasecmp((const char *)x->name, name);
}

/* The value of attribute name of x, borrowed from the tree, or NULL. */
static const char *
attr(const xmlNode *x, const char *name)
{
	for (const xmlAttr *a = x->properties; a; a = a->next) {
		if (a->name && !strcasecmp((const char *)a->name, name)) {
			if (a->children && a->children->type == XML_TEXT_NODE &&
			    a->children->content && !a->children->next)
				return (const char *)a->children->content;
			return ""; /* a value in pieces (entities): taken as empty */
		}
	}
	return NULL;
}

/* Elements whose content is never page text. <noscript> is: what a
 * client without scripts is shown (Discourse's crawler view of a topic). */
static int
skipped(const xmlNode *x)
{
	static const char *const names[] = {"script",   "style", "template", "select",
	                                    "textarea", "head",  "iframe",   "object", "svg"};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (is_tag(x, names[i]))
			return 1;
	return 0;
}

/* Whether the page hides x itself: a `hidden` attribute or an inline
 * style of `display: none` (menus that pop up, edit forms). */
static int
hides(const xmlNode *x)
{
	const char *st;

	if (attr(x, "hidden"))
		return 1;
	st = attr(x, "style");
	for (; st && *st; st++) {
		const char *v;

		if (strncasecmp(st, "display", 7) != 0)
			continue;
		v = st + 7;
		while (*v == ' ')
			v++;
		if (*v++ != ':')
			continue;
		while (*v == ' ')
			v++;
		if (!strncasecmp(v, "none", 4))
			return 1;
	}
	return 0;
}

/* Visible bytes of a text: bytes that are not ASCII blanks. */
static uint32_t
visible(const char *s)
{
	uint32_t n = 0;

	for (; *s; s++)
		n += !isspace((unsigned char)*s);
	return n;
}

/* ---- text buffers ---- */

struct tbuf {
	char *p;
	size_t len, cap, max;
	int pending; /* separator owed before the next byte: 1 space, 2 line, 3 paragraph */
	int oom;
};

static void
tb_byte(struct tbuf *b, char c)
{
	if (b->oom || b->len + 1 >= b->max)
		return;
	if (grow((void **)&b->p, &b->cap, b->len + 2, 1) < 0) {
		b->oom = 1;
		return;
	}
	b->p[b->len++] = c;
	b->p[b->len] = '\0';
}

static void
tb_text(struct tbuf *b, const char *s)
{
	for (; *s; s++) {
		if (isspace((unsigned char)*s)) {
			if (b->pending < 1)
				b->pending = 1;
			continue;
		}
		if (b->len > 0 && b->pending) {
			if (b->pending == 1) {
				tb_byte(b, ' ');
			} else {
				tb_byte(b, '\n');
				if (b->pending == 3)
					tb_byte(b, '\n');
			}
		}
		b->pending = 0;
		tb_byte(b, *s);
	}
}

/* How an element breaks the text flow: 0 inline, 1 space, 2 line, 3 paragraph. */
static int
breaks(const xmlNode *x)
{
	static const char *const para[] = {
	    "p",       "div",      "blockquote", "h1",    "h2",    "h3",      "h4",      "h5",
	    "h6",      "ul",       "ol",         "table", "pre",   "section", "article", "header",
	    "footer",  "aside",    "dl",         "form",  "hr",    "figure",  "main",    "nav",
	    "address", "fieldset", "tbody",      "thead", "center"};
	static const char *const line[] = {"li", "tr", "dt", "dd", "br", "caption", "figcaption"};

	for (size_t i = 0; i < sizeof(para) / sizeof(para[0]); i++)
		if (is_tag(x, para[i]))
			return 3;
	for (size_t i = 0; i < sizeof(line) / sizeof(line[0]); i++)
		if (is_tag(x, line[i]))
			return 2;
	if (is_tag(x, "td") || is_tag(x, "th"))
		return 1;
	return 0;
}

/* Whether x has visible text of its own. */
static int
has_text(const xmlNode *x)
{
	if (x->type == XML_TEXT_NODE || x->type == XML_CDATA_SECTION_NODE)
		return x->content && visible((const char *)x->content) > 0;
	if (x->type != XML_ELEMENT_NODE || skipped(x))
		return 0;
	for (const xmlNode *c = x->children; c; c = c->next)
		if (has_text(c))
			return 1;
	return 0;
}

/* Whether x's siblings show text: a <blockquote> beside the post's text
 * is a quote; one holding all of it is the post (some forums wrap posts
 * in one). */
static int
text_beside(const xmlNode *x)
{
	for (const xmlNode *c = x->parent ? x->parent->children : NULL; c; c = c->next)
		if (c != x && has_text(c))
			return 1;
	return 0;
}

/* Owes separator s; a second <br> in a row makes a paragraph. */
static void
tb_sep(struct tbuf *b, int s, int br)
{
	if (br && b->pending == 2)
		s = 3;
	if (s > b->pending)
		b->pending = s;
}

/* Appends the text of x (its siblings too when not top); quotes
 * (<blockquote> below the top) are left out when no_quotes. */
static void
tb_node(struct tbuf *b, const xmlNode *x, int no_quotes, int top)
{
	for (const xmlNode *c = x; c; c = top ? NULL : c->next) {
		int s;

		if (c->type == XML_TEXT_NODE || c->type == XML_CDATA_SECTION_NODE) {
			if (c->content)
				tb_text(b, (const char *)c->content);
			continue;
		}
		if (c->type != XML_ELEMENT_NODE || skipped(c) ||
		    (no_quotes && !top &&
		     ((is_tag(c, "blockquote") && text_beside(c)) || c->_private == &MARK_Q ||
		      c->_private == &MARK_S)))
			continue;
		s = breaks(c);
		tb_sep(b, s, is_tag(c, "br"));
		tb_node(b, c->children, no_quotes, 0);
		if (!is_tag(c, "br"))
			tb_sep(b, s, 0);
	}
}

/* The text under x, whitespace collapsed, capped at max bytes; NULL when
 * out of memory. */
static char *
text_of(const xmlNode *x, size_t max, int flow, int no_quotes)
{
	struct tbuf b = {NULL, 0, 0, max, 0, 0};

	if (flow) {
		tb_node(&b, x, no_quotes, 1);
	} else {
		xmlChar *c = xmlNodeGetContent((xmlNode *)x);

		if (c)
			tb_text(&b, (const char *)c);
		xmlFree(c);
	}
	if (b.oom) {
		free(b.p);
		return NULL;
	}
	if (!b.p)
		return strdup("");
	/* do not end inside a UTF-8 sequence */
	if (b.len + 1 >= max) {
		while (b.len > 0 && ((unsigned char)b.p[b.len - 1] & 0xC0) == 0x80)
			b.len--;
		if (b.len > 0 && ((unsigned char)b.p[b.len - 1] & 0xC0) == 0xC0)
			b.len--;
		b.p[b.len] = '\0';
	}
	return b.p;
}

/* s with blanks collapsed, trimmed, at most max bytes; NULL when out of memory. */
static char *
collapse(const char *s, size_t max)
{
	struct tbuf b = {NULL, 0, 0, max, 0, 0};

	tb_text(&b, s);
	if (b.oom) {
		free(b.p);
		return NULL;
	}
	return b.p ? b.p : strdup("");
}

/* ---- the DOM as an array ---- */

/* The signature of x: its tag and class words with digits removed; all
 * of them (all 1), or only the first, the element's base class (modifiers
 * such as "sticky" or "pinned" follow it). */
static uint64_t
sig_of(const xmlNode *x, int all)
{
	uint64_t h = fnv(FNV0, x->name, strlen((const char *)x->name)), cls = 0;
	const char *c = attr(x, "class");

	while (c && *c && (all || !cls)) {
		uint64_t w = FNV0;
		int any = 0;

		while (*c && isspace((unsigned char)*c))
			c++;
		for (; *c && !isspace((unsigned char)*c); c++) {
			if (isdigit((unsigned char)*c))
				continue;
			w = fnv(w, c, 1);
			any = 1;
		}
		if (any)
			cls += mix(w);
	}
	return mix(h ^ mix(cls + 0x9e3779b97f4a7c15ull));
}

static uint64_t
tag_of(const xmlNode *x)
{
	return mix(fnv(FNV0, x->name, strlen((const char *)x->name)));
}

static int
skip_href(const char *h)
{
	while (isspace((unsigned char)*h))
		h++;
	return !*h || *h == '#' || !strncasecmp(h, "javascript:", 11) ||
	       !strncasecmp(h, "mailto:", 7) || !strncasecmp(h, "data:", 5) ||
	       !strncasecmp(h, "tel:", 4);
}

/* Lists the <a href> of element i. */
static void
add_link(struct ctx *c, uint32_t i)
{
	xmlNode *x = c->els[i].x;
	const char *href = attr(x, "href");
	struct fr_fpage_link *l;
	char *url, *hash, *amp;
	uint32_t gid;
	int added;

	if (!href || skip_href(href))
		return;
	url = fr_url_resolve(c->base, href, NULL, 0);
	if (!url)
		return;
	if (strncasecmp(url, "http://", 7) && strncasecmp(url, "https://", 8)) {
		free(url);
		return;
	}
	hash = strchr(url, '#');
	if (hash)
		*hash = '\0';
	/* "&amp;" left encoded by a page that escaped twice */
	while ((amp = strstr(url, "&amp;")) != NULL)
		memmove(amp + 1, amp + 5, strlen(amp + 5) + 1);
	if (grow((void **)&c->p->links, &c->cap_links, c->p->n_links + 1, sizeof(*l)) < 0) {
		free(url);
		c->oom = 1;
		return;
	}
	l = &c->p->links[c->p->n_links];
	memset(l, 0, sizeof(*l));
	l->url = url;
	l->record = -1;
	if (fr_strmap_intern(c->groups, (const char *)&c->els[i].path, sizeof(uint64_t), &gid,
	                     &added) < 0) {
		free(url);
		c->oom = 1;
		return;
	}
	l->group = gid;
	c->els[i].link = (int32_t)c->p->n_links++;
}

/* Adds x's element children (and text) under parent index pi. */
static void
build(struct ctx *c, xmlNode *first, int32_t pi, uint32_t depth, int in_a, int in_th)
{
	for (xmlNode *x = first; x && !c->oom; x = x->next) {
		if (x->type == XML_TEXT_NODE || x->type == XML_CDATA_SECTION_NODE) {
			uint32_t v;

			if (!x->content || pi < 0)
				continue;
			v = visible((const char *)x->content);
			if (!v)
				continue;
			if (in_a)
				c->els[pi].an += v;
			else
				c->els[pi].na += v;
			if (in_th)
				c->els[pi].nh += v;
			if (grow((void **)&c->texts, &c->cap_texts, c->n_texts + 1,
			         sizeof(*c->texts)) < 0 ||
			    grow((void **)&c->tlens, &c->cap_tlens, c->n_texts + 1,
			         sizeof(*c->tlens)) < 0) {
				c->oom = 1;
				return;
			}
			c->texts[c->n_texts] = (const char *)x->content;
			c->tlens[c->n_texts++] = strlen((const char *)x->content);
			continue;
		}
		if (x->type != XML_ELEMENT_NODE || !x->name || skipped(x))
			continue;
		if (depth >= MAX_DEPTH || c->n_els >= MAX_ELEMENTS)
			continue;
		if (grow((void **)&c->els, &c->cap_els, c->n_els + 1, sizeof(*c->els)) < 0) {
			c->oom = 1;
			return;
		}
		{
			uint32_t i = (uint32_t)c->n_els++;
			struct el *e = &c->els[i];
			int a = is_tag(x, "a") && attr(x, "href");

			memset(e, 0, sizeof(*e));
			e->x = x;
			e->parent = pi;
			e->depth = depth;
			e->sig = sig_of(x, 0);
			e->fsig = sig_of(x, 1);
			e->tag = tag_of(x);
			e->path = mix((pi >= 0 ? c->els[pi].path : FNV0) * 31 + e->fsig);
			e->link = -1;
			e->hidden = (pi >= 0 && c->els[pi].hidden) || hides(x);
			if (a)
				add_link(c, i);
			build(c, x->children, (int32_t)i, depth + 1, in_a || a,
			      in_th || is_tag(x, "th") || is_tag(x, "thead"));
			e = &c->els[i];
			e->end = (uint32_t)c->n_els;
			if (pi >= 0) {
				c->els[pi].na += e->na;
				c->els[pi].an += e->an;
				c->els[pi].nh += e->nh;
			}
		}
	}
}

/* Session ids out of the page's address and links, before anything
 * compares them (pagers, thread identity, groups of URLs). */
static int
strip_sessions(struct ctx *c)
{
	size_t n = c->p->n_links;
	char **u = malloc((n + 2) * sizeof(*u));

	if (!u)
		return -1;
	for (size_t i = 0; i < n; i++)
		u[i] = c->p->links[i].url;
	u[n] = c->p->url;
	u[n + 1] = c->base;
	if (fr_furl_strip_sessions(u, n + 2, c->o->session_names) < 0) {
		free(u);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		c->p->links[i].url = u[i];
	c->p->url = u[n];
	c->base = u[n + 1];
	free(u);
	return 0;
}

/* Counts each URL's links. */
static void
url_counts(struct ctx *c)
{
	struct fr_strmap *m = fr_strmap_new();
	uint32_t *ids = malloc((c->p->n_links + 1) * sizeof(*ids));

	c->url_n = calloc(c->p->n_links + 1, sizeof(*c->url_n));
	if (!m || !ids || !c->url_n) {
		c->oom = 1;
		goto done;
	}
	for (size_t i = 0; i < c->p->n_links; i++) {
		const char *u = c->p->links[i].url;
		int added;

		if (fr_strmap_intern(m, u, strlen(u), &ids[i], &added) < 0) {
			c->oom = 1;
			goto done;
		}
	}
	{
		uint32_t *n = calloc(fr_strmap_len(m) + 1, sizeof(*n));

		if (!n) {
			c->oom = 1;
			goto done;
		}
		for (size_t i = 0; i < c->p->n_links; i++)
			n[ids[i]]++;
		for (size_t i = 0; i < c->p->n_links; i++)
			c->url_n[i] = n[ids[i]];
		free(n);
	}
done:
	free(ids);
	fr_strmap_free(m);
}

/* Link texts, once the element array is final: the anchor text, or its
 * title when the anchor has none. */
static void
link_texts(struct ctx *c)
{
	for (size_t i = 0; i < c->n_els && !c->oom; i++) {
		struct fr_fpage_link *l;
		const char *t;

		if (c->els[i].link < 0)
			continue;
		l = &c->p->links[c->els[i].link];
		t = attr(c->els[i].x, "title");
		if (c->els[i].an == 0 && t)
			l->text = collapse(t, MAX_LINK_TEXT);
		else
			l->text = text_of(c->els[i].x, MAX_LINK_TEXT, 0, 0);
		if (!l->text)
			c->oom = 1;
	}
}

/* ---- dates ---- */

static void
add_date(struct ctx *c, uint32_t el, unsigned k, const struct fr_fdate_match *m, uint32_t tlen)
{
	struct date *d;
	int32_t p = c->els[el].parent, g = p >= 0 ? c->els[p].parent : -1;

	if (grow((void **)&c->dates, &c->cap_dates, c->n_dates + 1, sizeof(*c->dates)) < 0) {
		c->oom = 1;
		return;
	}
	d = &c->dates[c->n_dates++];
	d->el = el;
	d->t = m->t_s;
	d->gran = (unsigned)m->gran;
	d->flags = m->flags;
	d->tlen = tlen;
	/* The column: the element's and its two ancestors' signatures, and
	 * which date of the element it is. */
	d->key = mix(c->els[el].sig * 3 + (p >= 0 ? mix(c->els[p].sig) : 1) * 5 +
	             (g >= 0 ? mix(mix(c->els[g].tag)) : 2) + k * 0x9e3779b97f4a7c15ull);
	/* Rows marked read or unread, new or old, by a class of their own
	 * ("seen1" / "altcolor2", "thead" / "unread") are one column by tags */
	for (int l = 0; l < 2; l++)
		d->lkey[l] =
		    mix((l ? c->els[el].tag : c->els[el].sig) * 3 +
		        (p >= 0 ? mix(c->els[p].tag) : 1) * 5 + (g >= 0 ? mix(mix(c->els[g].tag)) : 2) +
		        k * 0x9e3779b97f4a7c15ull + c->els[el].depth + (uint64_t)l);
}

static const char *const DATE_ATTRS[] = {"datetime",      "data-time",     "data-timestamp",
                                         "data-date",     "data-datetime", "data-utime",
                                         "data-date-utc", "title"};
#define N_DATE_ATTRS (sizeof(DATE_ATTRS) / sizeof(DATE_ATTRS[0]))

/* A date in an attribute of element i (with the element's text when short). */
static int
attr_date(struct ctx *c, uint32_t i, struct fr_fdate_match *m)
{
	xmlNode *x = c->els[i].x;
	const char *vals[N_DATE_ATTRS];
	size_t lens[N_DATE_ATTRS], n = 0;
	int any = 0;

	for (size_t k = 0; k < N_DATE_ATTRS; k++) {
		const char *v = attr(x, DATE_ATTRS[k]);

		vals[n] = v;
		lens[n] = v ? strlen(v) : 0;
		if (v && lens[n] > 0 && lens[n] < 200 &&
		    fr_fdate_parse_attr(c->pg, v, lens[n], m) == 0)
			any = 1;
		n++;
	}
	if (!any)
		return -1;
	if (c->els[i].na + c->els[i].an <= MAX_DATE_TEXT) {
		char *t = text_of(x, MAX_DATE_TEXT * 2, 0, 0);
		int r = -1;

		if (t) {
			r = fr_fdate_element(c->pg, t, strlen(t), vals, lens, n, m);
			free(t);
		}
		if (r == 0)
			return 0;
	}
	for (size_t k = 0; k < n; k++)
		if (vals[k] && lens[k] > 0 && lens[k] < 200 &&
		    fr_fdate_parse_attr(c->pg, vals[k], lens[k], m) == 0) {
			m->flags |= FR_FDATE_FROM_ATTR;
			return 0;
		}
	return -1;
}

/* A day read without its time when glue words the detector does not
 * know stand between them ("Hoy a las 10:52"): the time of day that
 * follows within two short words joins the date. */
static void
day_time(const char *s, size_t len, struct fr_fdate_match *m)
{
	size_t p = m->end, words = 0, h = 0, mi = 0, sec = 0, nd;
	int in = 0, has_sec = 0;

	if (m->gran != FR_FDATE_DAY || (m->flags & FR_FDATE_FROM_ATTR))
		return;
	for (; p < len && p < m->end + 16 && !isdigit((unsigned char)s[p]); p++) {
		if (isspace((unsigned char)s[p]) || s[p] == ',') {
			in = 0;
		} else if (!in) {
			in = 1;
			words++;
		}
	}
	if (words > 2 || p >= len)
		return;
	for (nd = 0; p < len && isdigit((unsigned char)s[p]) && nd < 2; p++, nd++)
		h = h * 10 + (size_t)(s[p] - '0');
	/* 10:52, and French 10h52 */
	if (!nd || p + 2 >= len || (s[p] != ':' && s[p] != 'h') ||
	    !isdigit((unsigned char)s[p + 1]) || !isdigit((unsigned char)s[p + 2]))
		return;
	mi = (size_t)(s[p + 1] - '0') * 10 + (size_t)(s[p + 2] - '0');
	p += 3;
	if (p + 2 < len && s[p] == ':' && isdigit((unsigned char)s[p + 1]) &&
	    isdigit((unsigned char)s[p + 2])) {
		sec = (size_t)(s[p + 1] - '0') * 10 + (size_t)(s[p + 2] - '0');
		has_sec = 1;
		p += 3;
	}
	if (p < len && isdigit((unsigned char)s[p]))
		return;
	{
		size_t q = p;

		while (q < len && s[q] == ' ')
			q++;
		if (q + 1 < len && (s[q] == 'p' || s[q] == 'P') &&
		    (s[q + 1] == 'm' || s[q + 1] == 'M')) {
			if (h < 12)
				h += 12;
			p = q + 2;
		} else if (q + 1 < len && (s[q] == 'a' || s[q] == 'A') &&
		           (s[q + 1] == 'm' || s[q + 1] == 'M')) {
			if (h == 12)
				h = 0;
			p = q + 2;
		}
	}
	if (h > 23 || mi > 59 || sec > 59)
		return;
	m->t_s += (int64_t)(h * 3600 + mi * 60 + sec);
	m->gran = has_sec ? FR_FDATE_SECOND : FR_FDATE_MINUTE;
	m->end = p;
}

/* A day whose element ends with it and whose next sibling element shows
 * the time ("<span>28.09.19</span><span>12:44</span>"). */
static int
sibling_time(const xmlNode *x, struct fr_fdate_match *m)
{
	const xmlNode *s = x->next;
	struct fr_fdate_match t = *m;
	char *txt;

	while (s && s->type == XML_TEXT_NODE && s->content && !visible((const char *)s->content))
		s = s->next;
	if (s && (s->type == XML_TEXT_NODE || s->type == XML_CDATA_SECTION_NODE) && s->content) {
		/* "<strong>Yesterday</strong> at 03:35:44 AM": the time in the
		 * text after the day's element */
		size_t n = strlen((const char *)s->content);

		t.end = 0;
		day_time((const char *)s->content, n, &t);
		if (t.gran != FR_FDATE_DAY) {
			m->t_s = t.t_s;
			m->gran = t.gran;
			return 2;
		}
		return 0;
	}
	if (!s || s->type != XML_ELEMENT_NODE)
		return 0;
	txt = text_of(s, 32, 0, 0);
	if (!txt)
		return 0;
	t.end = 0;
	day_time(txt, strlen(txt), &t);
	if (t.gran != FR_FDATE_DAY && strspn(txt + t.end, " ") == strlen(txt + t.end)) {
		m->t_s = t.t_s;
		m->gran = t.gran;
	}
	free(txt);
	return 1;
}

static void
find_dates(struct ctx *c)
{
	uint32_t skip_end = 0;

	for (uint32_t i = 0; i < c->n_els && !c->oom; i++) {
		struct fr_fdate_match m[MAX_DATES_PER_TEXT];
		unsigned k = 0;

		if (i < skip_end)
			continue;
		if (attr_date(c, i, m) == 0) {
			if (c->els[i].na + c->els[i].an > MAX_DATE_TEXT) {
				/* a post's whole box with its date in an attribute
				 * (NodeBB's <li data-timestamp>): the date shows no
				 * text of the box, and the box's own dates are read */
				add_date(c, i, 0, m, 0);
			} else {
				add_date(c, i, 0, m, c->els[i].na + c->els[i].an);
				skip_end = c->els[i].end;
				continue;
			}
		}
		for (xmlNode *t = c->els[i].x->children; t; t = t->next) {
			size_t n, len;

			if (t->type != XML_TEXT_NODE || !t->content)
				continue;
			len = strlen((const char *)t->content);
			if (len < 4)
				continue;
			n = fr_fdate_scan(c->pg, (const char *)t->content, len, m,
			                  MAX_DATES_PER_TEXT);
			if (n > MAX_DATES_PER_TEXT)
				n = MAX_DATES_PER_TEXT;
			for (size_t j = 0; j < n; j++) {
				day_time((const char *)t->content, len, &m[j]);
				if (m[j].gran == FR_FDATE_DAY &&
				    !(m[j].flags & FR_FDATE_FROM_ATTR) &&
				    m[j].end + strspn((const char *)t->content + m[j].end,
				                      " \t\r\n,\xc2\xa0") ==
				        len)
					/* the time in the element after the day's element,
					 * or after its text ("06-15-2016,&nbsp;<span
					 * class=time>03:03 PM</span>") */
					if (sibling_time(t->next ? t : c->els[i].x, &m[j]) == 2 &&
					    !t->next && c->els[i].parent > 0 && j + 1 == n) {
						/* the day in an inline element, the time
						 * in its parent's text: the parent's date
						 * (a column with the parent's absolute
						 * dates of older posts) */
						add_date(c, (uint32_t)c->els[i].parent, 0, &m[j],
						         (uint32_t)(m[j].end - m[j].begin));
						continue;
					}
				add_date(c, i, k++, &m[j], (uint32_t)(m[j].end - m[j].begin));
			}
		}
	}
}

/* Makes the column numbers dense and chains each column's dates. */
static int
index_columns(struct ctx *c)
{
	struct fr_strmap *cols = fr_strmap_new();

	if (!cols)
		return -1;
	c->col_next = malloc((c->n_dates + 1) * sizeof(*c->col_next));
	if (!c->col_next)
		goto err;
	for (size_t i = 0; i < c->n_dates; i++) {
		uint32_t id;
		int added;

		if (fr_strmap_intern(cols, (const char *)&c->dates[i].key, sizeof(uint64_t), &id,
		                     &added) < 0)
			goto err;
		c->dates[i].col = id;
	}
	c->n_cols = fr_strmap_len(cols);
	c->col_first = malloc((c->n_cols + 1) * sizeof(*c->col_first));
	c->col_n = calloc(c->n_cols + 1, sizeof(*c->col_n));
	if (!c->col_first || !c->col_n)
		goto err;
	for (size_t k = 0; k < c->n_cols; k++)
		c->col_first[k] = UINT32_MAX;
	for (size_t i = c->n_dates; i-- > 0;) {
		uint32_t k = c->dates[i].col;

		c->col_next[i] = c->col_first[k];
		c->col_first[k] = (uint32_t)i;
		c->col_n[k]++;
	}
	fr_strmap_free(cols);
	/* prefix sums over the elements: date elements and their text */
	c->dpre = calloc(c->n_els + 1, sizeof(*c->dpre));
	c->dtext = calloc(c->n_els + 1, sizeof(*c->dtext));
	if (!c->dpre || !c->dtext)
		return -1;
	for (size_t i = 0; i < c->n_dates; i++) {
		c->dpre[c->dates[i].el + 1] = 1; /* marks, summed below */
		c->dtext[c->dates[i].el + 1] += c->dates[i].tlen;
	}
	for (size_t e = 0; e < c->n_els; e++) {
		c->dpre[e + 1] = c->dpre[e] + (c->dpre[e + 1] != 0);
		c->dtext[e + 1] += c->dtext[e];
	}
	return 0;
err:
	fr_strmap_free(cols);
	return -1;
}

/* ---- records ---- */

static int
contains(const struct ctx *c, uint32_t a, uint32_t b)
{
	return b >= a && b < c->els[a].end;
}

static uint32_t
up(const struct ctx *c, uint32_t e, uint32_t h)
{
	while (h-- > 0 && c->els[e].parent >= 0)
		e = (uint32_t)c->els[e].parent;
	return e;
}

/* How far above items[i] its extent reaches: the largest ancestor holding
 * no other item (items in document order). */
static uint32_t
extent(const struct ctx *c, const uint32_t *items, size_t n, size_t i)
{
	uint32_t e = items[i], h = 0;

	for (;;) {
		int32_t u = c->els[e].parent;

		if (u < 0 || c->els[u].parent < 0)
			break; /* never the root element */
		if (i > 0 && contains(c, (uint32_t)u, items[i - 1]))
			break;
		if (i + 1 < n && contains(c, (uint32_t)u, items[i + 1]))
			break;
		e = (uint32_t)u;
		h++;
	}
	return h;
}

/* Records of items (element indices in document order): each item's
 * ancestor at the smallest extent height. Sets roots (n of them). */
static void
roots_of(const struct ctx *c, const uint32_t *items, size_t n, uint32_t *roots)
{
	uint32_t h = UINT32_MAX;

	for (size_t i = 0; i < n; i++) {
		uint32_t x = extent(c, items, n, i);

		if (x < h)
			h = x;
	}
	for (size_t i = 0; i < n; i++)
		roots[i] = up(c, items[i], h);
}

static void
cand_free(struct cand *k)
{
	free(k->root);
	free(k->date);
	free(k->depth);
	memset(k, 0, sizeof(*k));
}

/* Visible text of the date elements in e's subtree. */
static double
date_text(const struct ctx *c, uint32_t e)
{
	return c->dtext[c->els[e].end] - c->dtext[e];
}

/* Non-anchor bytes of record r without its dates' text. */
static double
own_text(const struct ctx *c, uint32_t r)
{
	double na = (double)c->els[r].na - date_text(c, r);

	return na > 0 ? na : 0;
}

/* ---- links in records ---- */

/* Whether s has at least two letters (ASCII letters or any non-ASCII
 * character) and is not mainly a number. */
static int
wordy(const char *s)
{
	size_t letters = 0, digits = 0;

	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (isalpha(*p))
			letters++;
		else if (isdigit(*p))
			digits++;
		else if (*p >= 0xC0)
			letters++;
	}
	return letters >= 2 && letters >= digits;
}

/* Words of s with a letter in them (numbers are no words); CJK and
 * Hangul characters count one each. */
static size_t
words(const char *s)
{
	size_t n = 0, cjk = 0;
	int in = 0, letter = 0;

	for (const unsigned char *p = (const unsigned char *)s;; p++) {
		if (!*p || isspace(*p)) {
			n += in && letter;
			in = letter = 0;
			if (!*p)
				break;
			continue;
		}
		if (*p >= 0xE3 && *p <= 0xED) /* CJK and Hangul: a word each */
			cjk++;
		if (isalpha(*p) || *p >= 0xC0)
			letter = 1;
		in = 1;
	}
	return n + cjk;
}

/* Whether element e holds (or is) a date element. */
static int
has_date(const struct ctx *c, uint32_t e)
{
	return c->dpre[c->els[e].end] > c->dpre[e];
}

/* Whether the link of element e points into the page itself. */
static int
self_link(const struct ctx *c, uint32_t e)
{
	const char *href = attr(c->els[e].x, "href");
	const struct fr_fpage_link *l;

	if (!href || *href == '#')
		return 1;
	if (c->els[e].link < 0)
		return 1;
	l = &c->p->links[c->els[e].link];
	return !strcmp(l->url, c->p->url) || (c->base && !strcmp(l->url, c->base));
}

/* The title link of row r: its first link with words that is no date and
 * does not point at the page itself; -1 none. */
static int32_t
title_of(const struct ctx *c, uint32_t r)
{
	for (uint32_t e = r; e < c->els[r].end; e++) {
		const struct fr_fpage_link *l;

		/* not a link around a date (a permalink showing the time) */
		if (c->els[e].link < 0 || c->els[e].an == 0 || self_link(c, e) ||
		    2 * date_text(c, e) >= c->els[e].an + c->els[e].na)
			continue;
		l = &c->p->links[c->els[e].link];
		if (l->text && wordy(l->text))
			return c->els[e].link;
	}
	return -1;
}

/* Whether link element e may name a post's author. */
static int
author_like(const struct ctx *c, uint32_t e, uint32_t date_el)
{
	const struct fr_fpage_link *l;

	/* a link around the date is a permalink; one inside the element the
	 * date was read from ("by <a>r23</a> » 21.01.2009") may be the author */
	if (c->els[e].link < 0 || c->els[e].an == 0 || self_link(c, e) || contains(c, e, date_el) ||
	    has_date(c, e))
		return 0;
	l = &c->p->links[c->els[e].link];
	/* "r23" is a name; "#2", "1626" (a post count) and URLs are not */
	return l->text && l->text[0] && l->text[0] != '#' && strlen(l->text) <= 80 &&
	       words(l->text) >= 1 && words(l->text) <= 5 && !strstr(l->text, "://") &&
	       strncmp(l->text, "www.", 4) != 0;
}

/* Height of the lowest common ancestor of a and b above a. */
static uint32_t
lca_height(const struct ctx *c, uint32_t a, uint32_t b)
{
	uint32_t h = 0;

	while (!contains(c, a, b) && c->els[a].parent >= 0) {
		a = (uint32_t)c->els[a].parent;
		h++;
	}
	return h;
}

static int member_url(const struct ctx *c, uint32_t e);

/* The name inside an author hint that is a whole box (a schema.org Person
 * with avatar, title, join date and post count): its itemprop="name", else
 * its first link with text to a member's page, else the box itself. */
static int32_t
hint_name(const struct ctx *c, uint32_t h)
{
	int32_t link = -1;

	/* the box's own name first, however short the box ("techAPJ (Arpit
	 * Jalan)": the member's name and the full name after it) */
	for (uint32_t e = h + 1; e < c->els[h].end; e++) {
		const char *ip = attr(c->els[e].x, "itemprop");

		if (ip && !strcasecmp(ip, "name") && c->els[e].na + c->els[e].an > 0)
			return (int32_t)e;
	}
	if (c->els[h].end == h + 1 || c->els[h].na + c->els[h].an <= 40)
		return (int32_t)h;
	for (uint32_t e = h + 1; e < c->els[h].end; e++) {
		if (link < 0 && c->els[e].link >= 0 && c->els[e].an > 0 && member_url(c, e))
			link = (int32_t)e;
	}
	return link >= 0 ? link : (int32_t)h;
}

/* An element marked as the author by a widely shared hint (itemprop,
 * rel), inside record r and outside content; -1 none. */
static int32_t
author_hint(const struct ctx *c, uint32_t r, int32_t content)
{
	for (uint32_t e = r; e < c->els[r].end; e++) {
		const char *ip = attr(c->els[e].x, "itemprop"), *rel = attr(c->els[e].x, "rel");

		if (content >= 0 && contains(c, (uint32_t)content, e))
			continue;
		if ((ip && !strcasecmp(ip, "author")) || (rel && strstr(rel, "author")))
			return hint_name(c, e);
	}
	return -1;
}

/* Whether element e shows a short name in text of its own (a guest's or
 * a forum's unlinked user name): one to three words, no link, no date. */
static int
name_like(const struct ctx *c, uint32_t e)
{
	const struct el *x = &c->els[e];
	char *t;
	int ok;

	if (x->an || x->na < 2 || x->na > 40 || has_date(c, e))
		return 0;
	for (uint32_t ch = e + 1; ch < x->end; ch = c->els[ch].end)
		if (c->els[ch].na)
			return 0; /* its text is in children */
	t = text_of(x->x, 64, 0, 0);
	ok = t && wordy(t) && words(t) >= 1 && words(t) <= 3;
	/* "39 points", "level 1": counts, not names */
	for (const char *p = t; ok && *p; p += strcspn(p, " ")) {
		size_t n;

		p += strspn(p, " ");
		n = strcspn(p, " ");
		if (n && strspn(p, "0123456789.,") == n)
			ok = 0;
	}
	free(t);
	return ok;
}

/* Whether e is inside a <blockquote>. */
static int
in_quote(const struct ctx *c, uint32_t e)
{
	for (int32_t a = c->els[e].parent; a >= 0; a = c->els[a].parent)
		if (is_tag(c->els[a].x, "blockquote"))
			return 1;
	return 0;
}

/* Whether the names found in text (records without had) are names: in
 * most records, not all the same words (but for a page of a few posts,
 * all by one member). */
static int
names_vary(const struct ctx *c, const struct cand *k, const int32_t *author, const char *had)
{
	char *first = NULL;
	size_t n = 0;
	int differ = 0;

	for (size_t i = 0; i < k->n; i++) {
		char *t;

		if (had[i] || author[i] < 0)
			continue;
		n++;
		t = text_of(c->els[author[i]].x, 64, 0, 0);
		if (!first)
			first = t;
		else {
			differ |= t && strcmp(t, first) != 0;
			free(t);
		}
	}
	free(first);
	return n * 2 > k->n && (differ || (n >= 1 && k->n <= 3));
}

/* Whether link element e points at a member's page (profile): its path or
 * query names members, users, profiles or authors. */
static int
member_url(const struct ctx *c, uint32_t e)
{
	static const char *const words[] = {"member", "user", "profile", "/u/", "?u=", "&u=",
	                                    "author", "showuser", "/people/", "/~"};
	const char *u;

	if (c->els[e].link < 0)
		return 0;
	u = c->p->links[c->els[e].link].url;
	u = strstr(u, "://");
	u = u ? strchr(u + 3, '/') : NULL;
	if (!u)
		return 0;
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strcasestr_(u, words[i]))
			return 1;
	return 0;
}

/* Author modes: a link in the record, a name in the record's own text, a
 * link beside the record (in its parent or grandparent, outside other
 * records: a profile cell a broken page nests apart). */
enum { AUTHOR_LINK, AUTHOR_NAME, AUTHOR_BESIDE };

/* The candidate nearest to the date element (the lowest common ancestor)
 * before element stop (the content); -1 none. others (n of them) are the other records'
 * roots, skipped in AUTHOR_BESIDE. */
static int32_t
author_find(const struct ctx *c, uint32_t r, uint32_t date_el, uint32_t stop, int mode,
            const uint32_t *others, size_t n)
{
	int32_t best = -1;
	uint32_t bh = UINT32_MAX, from = r, to = c->els[r].end;
	int bm = 0;

	if (mode == AUTHOR_BESIDE) {
		uint32_t u = r;

		for (int i = 0; i < 2 && c->els[u].parent > 0; i++)
			u = (uint32_t)c->els[u].parent;
		from = u;
		to = c->els[u].end;
	}
	for (uint32_t e = from; e < to; e++) {
		uint32_t h;
		int skip = 0;

		if (e >= stop)
			break; /* the author comes before the post's text */
		if (mode == AUTHOR_BESIDE) {
			if (contains(c, r, e))
				continue; /* searched already */
			for (size_t j = 0; j < n && !skip; j++)
				skip = contains(c, others[j], e) || contains(c, e, others[j]);
			if (skip) {
				continue;
			}
		}
		if (mode == AUTHOR_NAME ? !name_like(c, e) : !author_like(c, e, date_el))
			continue;
		h = lca_height(c, date_el, e);
		/* a link to a member's page beats any other link (a permalink
		 * "Link", "#3", a "report" link nearer to the date) */
		if (mode != AUTHOR_NAME) {
			int m = member_url(c, e);

			if (best >= 0 && m != bm) {
				if (m < bm)
					continue;
				bh = UINT32_MAX;
			}
			bm = m;
		}
		/* equally near: the link to a profile, shown more than once */
		if (h < bh ||
		    (h == bh && best >= 0 && c->els[e].link >= 0 && c->els[best].link >= 0 &&
		     c->url_n[c->els[e].link] > c->url_n[c->els[best].link])) {
			bh = h;
			best = (int32_t)e;
		}
	}
	return best;
}

/* The link nearest to the date element in record r that may be the
 * author, outside content; among the links before the date first (a
 * quote's source link in the text may sit nearer); -1 none. */
static int32_t
author_near(const struct ctx *c, uint32_t r, uint32_t date_el, int32_t content)
{
	uint32_t stop = content >= 0 ? (uint32_t)content : UINT32_MAX;
	int32_t a = -1;

	if (content < 0)
		a = author_find(c, r, date_el, c->els[date_el].end, AUTHOR_LINK, NULL, 0);
	return a >= 0 ? a : author_find(c, r, date_el, stop, AUTHOR_LINK, NULL, 0);
}

/* The signature path of e relative to its ancestor r. */
static uint64_t
rel_path(const struct ctx *c, uint32_t r, uint32_t e)
{
	uint64_t h = FNV0;

	while (e != r && c->els[e].parent >= 0) {
		h = mix(h * 31 + c->els[e].sig);
		e = (uint32_t)c->els[e].parent;
	}
	return h;
}

/* ---- content (WeRE: the subtree with the largest spread of text) ---- */

struct pstat {
	uint64_t path, parent;
	uint64_t leaf_sig;
	double sum, sum2;
	uint32_t present, multi;
	uint32_t same; /* records where it holds all its parent's text */
	uint32_t last_rec;
	double cur; /* this record's first occurrence */
	uint32_t depth;
};

/* Score of an element as a post's content block: its text, less dates
 * and table headers. */
/* Text bytes in e's subtree that are quotes or signatures. */
static double
marked_text(const struct ctx *c, uint32_t e)
{
	if (!c->mark)
		return 0;
	if (c->mark[e])
		return (double)c->els[e].na + c->els[e].an;
	return c->mpre[c->els[e].end] - c->mpre[e];
}

static double
block_score(const struct ctx *c, uint32_t e)
{
	return (double)c->els[e].na + c->els[e].an - date_text(c, e) - c->els[e].nh -
	       marked_text(c, e);
}

/* Whether e may be (inside) the content: it holds neither the record's
 * date nor the author link. */
static int
content_ok(const struct ctx *c, uint32_t e, uint32_t date_el, int32_t author)
{
	const xmlNode *x = c->els[e].x;

	/* headings are the post's title, not what the user wrote */
	if (x->name[0] == 'h' && x->name[1] >= '1' && x->name[1] <= '6' && !x->name[2])
		return 0;
	if (c->mark && c->mark[e])
		return 0; /* a quote or a signature */
	if (c->els[e].hidden)
		return 0; /* a menu that pops up is no one's text */
	return !contains(c, e, date_el) && !(author >= 0 && contains(c, e, (uint32_t)author));
}

/* The lowest common ancestor of a and b. */
static uint32_t
lca(const struct ctx *c, uint32_t a, uint32_t b)
{
	while (!contains(c, a, b) && c->els[a].parent >= 0)
		a = (uint32_t)c->els[a].parent;
	return a;
}

/* Whether e sits with the author in a box that holds neither the date nor
 * the largest block (a member's box: rank, join date, post count). */
static int
beside_author(const struct ctx *c, uint32_t e, int32_t author, uint32_t date_el, int32_t largest)
{
	uint32_t a;

	if (author < 0 || largest < 0)
		return 0;
	a = lca(c, e, (uint32_t)author);
	return !contains(c, a, date_el) && !contains(c, a, (uint32_t)largest);
}

/* How many of x's own text nodes (its children) show a word. */
static unsigned
text_runs(const xmlNode *x)
{
	unsigned n = 0;

	for (const xmlNode *t = x->children; t; t = t->next) {
		if (t->type != XML_TEXT_NODE || !t->content)
			continue;
		for (const unsigned char *s = t->content; *s; s++)
			if (isalnum(*s) || *s >= 0x80) {
				n++;
				break;
			}
	}
	return n;
}

/* The content block of one record alone: the largest text block holding
 * neither date nor author, then down while one child keeps most of it. */
static int32_t
content_alone(const struct ctx *c, uint32_t r, uint32_t date_el, int32_t author, uint32_t from)
{
	int32_t best = -1;
	double bs = 0;

	for (int pass = 0; pass < 2; pass++) {
		double max = bs;

		for (uint32_t e = from > r ? from : r + 1; e < c->els[r].end; e++) {
			double s;

			if (!content_ok(c, e, date_el, author) || c->els[e].link >= 0)
				continue;
			s = block_score(c, e) - 2.0 * c->els[e].an;
			if (!pass && s > bs) {
				bs = s;
				best = (int32_t)e;
			} else if (pass && s > 0 && s >= 0.5 * max &&
			           !(e > (uint32_t)best && contains(c, (uint32_t)best, e)) &&
			           !beside_author(c, e, author, date_el, best)) {
				/* the first block of half the largest: a post's text
				 * comes before its signature */
				best = (int32_t)e;
				break;
			}
		}
	}
	while (best >= 0) {
		int32_t next = -1;
		double cur = block_score(c, (uint32_t)best), kids = 0, max = 0;

		for (uint32_t e = (uint32_t)best + 1; e < c->els[best].end; e = c->els[e].end) {
			double s = block_score(c, e);

			kids += s;
			if (!content_ok(c, e, date_el, author))
				cur -= s; /* a title heading does not count */
			else if (s > max)
				max = s;
		}
		/* text of its own (between children): this is the block; so is
		 * a flow of text runs between inline parts ("Год выпуска: 1971",
		 * line after line), whatever one part (a spoiler) holds */
		if (cur <= 0 || block_score(c, (uint32_t)best) - kids > 0.2 * cur ||
		    text_runs(c->els[best].x) >= 3)
			break;
		for (uint32_t e = (uint32_t)best + 1; e < c->els[best].end; e = c->els[e].end) {
			double s = block_score(c, e);

			if (content_ok(c, e, date_el, author) && s > 0 && s >= 0.5 * max) {
				next = (int32_t)e;
				break;
			}
		}
		/* into a <blockquote> only when it holds all the text (a forum
		 * that wraps posts in one); else it is a quote */
		if (next < 0 || block_score(c, (uint32_t)next) < 0.5 * cur ||
		    c->els[next].link >= 0 ||
		    (is_tag(c->els[next].x, "blockquote") && block_score(c, (uint32_t)next) < cur))
			break;
		/* not into one of a sequence of alike parts (paragraphs) */
		for (uint32_t e = (uint32_t)best + 1; e < c->els[best].end && next >= 0;
		     e = c->els[e].end)
			if (e != (uint32_t)next && c->els[e].sig == c->els[next].sig)
				next = -1;
		if (next < 0)
			break;
		best = next;
	}
	return best;
}

/* The content block of one record, after its date when there is one
 * there (a profile box before the date is no post). */
static int32_t
content_after(const struct ctx *c, uint32_t r, uint32_t date_el, int32_t author)
{
	int32_t ct = content_alone(c, r, date_el, author, c->els[date_el].end);

	return ct >= 0 ? ct : content_alone(c, r, date_el, author, 0);
}

/* Per element: which of its parent's children of its signature it is
 * (0 the first). Caller frees; NULL when out of memory. */
static uint32_t *
sibling_ranks(const struct ctx *c)
{
	struct fr_strmap *m = fr_strmap_new();
	uint32_t *rank = calloc(c->n_els + 1, sizeof(*rank)), *cnt = NULL;
	size_t cap = 0;

	if (!m || !rank)
		goto err;
	for (uint32_t e = 0; e < c->n_els; e++) {
		uint64_t key[2] = {(uint64_t)(int64_t)c->els[e].parent, c->els[e].sig};
		uint32_t id;
		int added;

		if (fr_strmap_intern(m, (const char *)key, sizeof(key), &id, &added) < 0 ||
		    grow((void **)&cnt, &cap, id + 1, sizeof(*cnt)) < 0)
			goto err;
		if (added)
			cnt[id] = 0;
		rank[e] = cnt[id]++;
	}
	fr_strmap_free(m);
	free(cnt);
	return rank;
err:
	fr_strmap_free(m);
	free(cnt);
	free(rank);
	return NULL;
}

/* e's step in a path: its signature, and with rank (sibling_ranks), which
 * of its parent's children of that signature it is (the second row's
 * cell, where the rows and cells of a record are alike). */
static uint64_t
path_step(const struct ctx *c, uint32_t e, const uint32_t *rank)
{
	return rank ? mix(c->els[e].sig * 31 + rank[e]) : c->els[e].sig;
}

/* The content element of each record (-1 none) by the path whose text
 * length varies most across records; with rank, siblings of one
 * signature are told apart by their rank. */
static int
content_paths(const struct ctx *c, const struct cand *k, const int32_t *author, int32_t *out,
              const uint32_t *rank)
{
	struct pstat *ps = NULL;
	size_t n_ps = 0, cap_ps = 0;
	struct fr_strmap *m = fr_strmap_new();
	uint64_t *rp = NULL;
	size_t cap_rp = 0;
	int32_t best = -1, alt_path;
	double bs = 0;

	if (!m)
		return -1;
	for (size_t i = 0; i < k->n; i++) {
		uint32_t r = k->root[i], de = c->dates[k->date[i]].el;
		size_t span = c->els[r].end - r;

		out[i] = -1;
		if (grow((void **)&rp, &cap_rp, span, sizeof(*rp)) < 0)
			goto err;
		rp[0] = FNV0;
		for (uint32_t e = r + 1; e < c->els[r].end; e++) {
			uint32_t pi = (uint32_t)c->els[e].parent - r, id;
			int added;
			struct pstat *s;

			rp[e - r] = mix(rp[pi] * 31 + path_step(c, e, rank));
			/* an empty element beside the text at the same path (vBulletin 3's
			 * empty box after the message) does not make the path repeat */
			if (!content_ok(c, e, de, author[i]) || block_score(c, e) <= 0)
				continue;
			if (fr_strmap_intern(m, (const char *)&rp[e - r], sizeof(uint64_t), &id,
			                     &added) < 0)
				goto err;
			if (added) {
				if (grow((void **)&ps, &cap_ps, n_ps + 1, sizeof(*ps)) < 0)
					goto err;
				s = &ps[n_ps++];
				memset(s, 0, sizeof(*s));
				s->path = rp[e - r];
				s->parent = rp[pi];
				s->leaf_sig = c->els[e].sig;
				s->last_rec = UINT32_MAX;
				s->depth = c->els[e].depth - c->els[r].depth;
			}
			s = &ps[id];
			if (s->last_rec == (uint32_t)i) {
				s->multi++;
				continue;
			}
			s->last_rec = (uint32_t)i;
			s->present++;
			s->cur = block_score(c, e);
			s->sum += s->cur;
			s->sum2 += s->cur * s->cur;
			s->same += s->cur == block_score(c, (uint32_t)c->els[e].parent);
		}
	}
	/* The widest spread, among paths in at least half of the records. */
	for (size_t j = 0; j < n_ps; j++) {
		double mean = ps[j].sum / (double)k->n,
		       var = ps[j].sum2 / (double)k->n - mean * mean;
		double sd = var > 0 ? sqrt(var) : 0;

		ps[j].cur = sd;
		if (ps[j].present * 2 < k->n || ps[j].multi > 0)
			continue;
		if (sd > bs || (sd == bs && best >= 0 && ps[j].depth < ps[best].depth)) {
			bs = sd;
			best = (int32_t)j;
		}
	}
	if (best < 0)
		goto done;
	/* Down while a child path once per record keeps most of the spread,
	 * or most of the text (a title or a signature beside the text). */
	alt_path = best;
	for (;;) {
		int32_t next = -1;
		double ns = 0;

		for (size_t j = 0; j < n_ps; j++) {
			if (ps[j].parent != ps[best].path || ps[j].multi > 0 ||
			    ps[j].present * 2 < k->n ||
			    (ps[j].cur < SPREAD_KEEP * bs &&
			     ps[j].sum < TEXT_KEEP * ps[best].sum) ||
			    ps[j].sum <= ns)
				continue;
			ns = ps[j].sum;
			next = (int32_t)j;
		}
		if (next < 0)
			break;
		best = next;
		/* a record without the path takes an element of the last level
		 * that left something out (not the paragraph that, alone in
		 * the others, held all their text) */
		if (ps[best].same < ps[best].present)
			alt_path = best;
	}
	/* Each record's element at that path, or else with its last signature. */
	for (size_t i = 0; i < k->n; i++) {
		uint32_t r = k->root[i], de = c->dates[k->date[i]].el;
		int32_t alt = -1, first = -1;
		double as = 0;

		rp[0] = FNV0;
		for (uint32_t e = r + 1; e < c->els[r].end; e++) {
			uint32_t pi = (uint32_t)c->els[e].parent - r;

			rp[e - r] = mix(rp[pi] * 31 + path_step(c, e, rank));
			if (!content_ok(c, e, de, author[i]))
				continue;
			if (rp[e - r] == ps[best].path) {
				if (first < 0)
					first = (int32_t)e;
				if (block_score(c, e) <= 0)
					continue;
				out[i] = (int32_t)e;
				break;
			}
			if (c->els[e].sig == ps[alt_path].leaf_sig && block_score(c, e) > as) {
				as = block_score(c, e);
				alt = (int32_t)e;
			}
		}
		if (out[i] < 0)
			out[i] = first >= 0 ? first : alt;
	}
done:
	free(ps);
	free(rp);
	fr_strmap_free(m);
	return 0;
err:
	free(ps);
	free(rp);
	fr_strmap_free(m);
	return -1;
}

/* ---- candidates ---- */

/* Depth of each record in a nested list: how often the signature of the
 * record's root, parent or grandparent (the repeating item: li.comment >
 * ul > li.comment) recurs above it, less one; classless <div> and <span>
 * wrappers do not count, and a page whose records are all equally deep
 * is flat. */
static void
depths(const struct ctx *c, struct cand *k)
{
	int same = 1;

	for (size_t i = 0; i < k->n; i++) {
		unsigned best = 1;
		uint32_t item = k->root[i];

		for (int up_ = 0; up_ < 3 && c->els[item].parent >= 0; up_++) {
			const xmlNode *x = c->els[item].x;
			unsigned m = 0;

			if (!((is_tag(x, "div") || is_tag(x, "span")) && !attr(x, "class"))) {
				for (int32_t a = (int32_t)item; a >= 0; a = c->els[a].parent)
					m += c->els[a].sig == c->els[item].sig;
				if (m > best)
					best = m;
			}
			item = (uint32_t)c->els[item].parent;
		}
		k->depth[i] = best - 1;
		same &= k->depth[i] == k->depth[0];
	}
	if (same)
		for (size_t i = 0; i < k->n; i++)
			k->depth[i] = 0;
}

/* Whether seq (n times) is monotone in some direction. */
static int
monotone(const int64_t *seq, size_t n)
{
	int up_ = 0, down = 0;

	for (size_t i = 1; i < n; i++) {
		if (seq[i] > seq[i - 1])
			up_ = 1;
		else if (seq[i] < seq[i - 1])
			down = 1;
	}
	return !(up_ && down);
}

/* Alg. 1: every group of sibling records sorted, but for one leading
 * record out of order at the top. Siblings share the nearest earlier
 * record less deep; records without one (their parent is on an earlier
 * page) are siblings by depth. Sets k->lead. Returns 1 when sorted. */
static int
sorted(const struct ctx *c, struct cand *k)
{
	int64_t *seq = malloc((k->n + 1) * sizeof(*seq));
	size_t *group = malloc((k->n + 1) * sizeof(*group));
	int ok = 1;

	if (!seq || !group) {
		free(seq);
		free(group);
		return -1;
	}
	for (size_t i = 0; i < k->n; i++) {
		group[i] = SIZE_MAX - k->depth[i];
		for (size_t j = i; j-- > 0;)
			if (k->depth[j] < k->depth[i]) {
				group[i] = j;
				break;
			}
	}
	k->lead = 0;
	for (size_t i = 0; i < k->n && ok; i++) {
		size_t n = 0, first = SIZE_MAX;

		for (size_t j = 0; j < k->n; j++)
			if (group[j] == group[i]) {
				if (first == SIZE_MAX)
					first = j;
				seq[n++] = c->dates[k->date[j]].t;
			}
		if (first != i || n < 2 || monotone(seq, n))
			continue;
		if (group[i] == SIZE_MAX && monotone(seq + 1, n - 1)) {
			k->lead = 1;
			continue;
		}
		ok = 0;
	}
	free(seq);
	free(group);
	return ok;
}

static int
cand_alloc(struct cand *k, size_t n)
{
	memset(k, 0, sizeof(*k));
	k->root = calloc(n + 1, sizeof(*k->root));
	k->date = calloc(n + 1, sizeof(*k->date));
	k->depth = calloc(n + 1, sizeof(*k->depth));
	if (!k->root || !k->date || !k->depth) {
		cand_free(k);
		return -1;
	}
	k->n = n;
	return 0;
}

static double
mass_of(const struct ctx *c, const struct cand *k)
{
	double m = 0;

	for (size_t i = 0; i < k->n; i++)
		m += (double)c->els[k->root[i]].na + c->els[k->root[i]].an;
	return m;
}

/* Text against links of the records: non-anchor bytes (dates left out)
 * per anchor byte, and per record. */
static void
ratios(const struct ctx *c, const struct cand *k, double *ratio, double *avg)
{
	double na = 0, an = 0;

	for (size_t i = 0; i < k->n; i++) {
		na += own_text(c, k->root[i]);
		an += c->els[k->root[i]].an;
	}
	*ratio = na / (an > 1 ? an : 1);
	*avg = k->n ? na / (double)k->n : 0;
}

/* A post's text in r: the content block after date element e, holding
 * neither e nor the author link (-1: none known), when its text has 15
 * bytes or more and min_words words; else -1. */
static int32_t
post_text(const struct ctx *c, uint32_t r, uint32_t e, int32_t author, size_t min_words)
{
	int32_t content = content_alone(c, r, e, author, c->els[e].end);
	char *t;
	int ok;

	if (content < 0)
		return -1;
	t = text_of(c->els[content].x, MAX_POST_TEXT, 1, 0);
	ok = t && strlen(t) >= 15 && words(t) >= min_words;
	free(t);
	return ok ? content : -1;
}

/* Whether nearly every record is shaped like a post: an author link by
 * its date, and a text of a few words after the date that is neither
 * (an index row's description comes before its dates). */
static int
post_shaped(const struct ctx *c, const struct cand *k)
{
	size_t ok = 0;

	for (size_t i = 0; i < k->n; i++) {
		uint32_t e = c->dates[k->date[i]].el, r = k->root[i];
		int32_t author = author_near(c, r, e, -1);
		if (author < 0)
			continue;
		ok += post_text(c, r, e, author, 3) >= 0;
	}
	return ok * 10 >= k->n * 9;
}

/* Whether the candidate's records read as posts (Alg. 1): text rather
 * than links, or short replies under linked titles shaped as posts. */
static int
as_thread(const struct ctx *c, struct cand *k)
{
	double ratio, avg;

	if (k->n < 2)
		return 0;
	ratios(c, k, &ratio, &avg);
	if (avg < THREAD_MIN_AVG || ratio < SINGLE_NEAR_RATIO ||
	    (ratio < THREAD_MIN_RATIO && !post_shaped(c, k)))
		return 0;
	depths(c, k);
	return sorted(c, k) == 1;
}

/* Index rows: the candidate's records and their siblings of the same
 * signature that have a title link (rows without dates). */
static int
extend_rows(const struct ctx *c, struct cand *k)
{
	uint32_t *more = NULL, *root, *date;
	unsigned *depth;
	size_t n_more = 0, cap_more = 0, n, a, b;

	for (size_t i = 0; i < k->n; i++) {
		int32_t p = c->els[k->root[i]].parent;
		uint64_t sig = c->els[k->root[i]].sig;

		if (p < 0 || (i > 0 && c->els[k->root[i - 1]].parent == p))
			continue;
		for (uint32_t e = (uint32_t)p + 1; e < c->els[p].end; e = c->els[e].end) {
			int dup = 0;

			if (c->els[e].sig != sig)
				continue;
			for (size_t j = 0; j < k->n && !dup; j++)
				dup = k->root[j] == e;
			if (dup || title_of(c, e) < 0)
				continue;
			if (grow((void **)&more, &cap_more, n_more + 1, sizeof(*more)) < 0) {
				free(more);
				return -1;
			}
			more[n_more++] = e;
		}
	}
	if (!n_more)
		return 0;
	n = k->n + n_more;
	root = malloc(n * sizeof(*root));
	date = malloc(n * sizeof(*date));
	depth = calloc(n + 1, sizeof(*depth));
	if (!root || !date || !depth) {
		free(root);
		free(date);
		free(depth);
		free(more);
		return -1;
	}
	/* merge in document order (both lists are in it) */
	for (size_t i = a = b = 0; i < n; i++) {
		if (b >= n_more || (a < k->n && k->root[a] < more[b])) {
			root[i] = k->root[a];
			date[i] = k->date[a++];
		} else {
			root[i] = more[b++];
			date[i] = UINT32_MAX;
		}
	}
	free(more);
	free(k->root);
	free(k->date);
	free(k->depth);
	k->root = root;
	k->date = date;
	k->depth = depth;
	k->n = n;
	return 0;
}

/* Table cells and definition terms are columns of a row, not rows. */
static int
is_cell(const xmlNode *x)
{
	return is_tag(x, "td") || is_tag(x, "th") || is_tag(x, "dd") || is_tag(x, "dt");
}

/* Whether the candidate's records read as index rows (Alg. 2). */
static int
as_index(const struct ctx *c, struct cand *k)
{
	size_t titled = 0, distinct = 0;
	int32_t *t;
	double ratio, avg;

	if (k->n < 2)
		return 0;
	if (extend_rows(c, k) < 0)
		return -1;
	ratios(c, k, &ratio, &avg);
	if (ratio >= INDEX_MAX_RATIO)
		return 0;
	t = malloc(k->n * sizeof(*t));
	if (!t)
		return -1;
	for (size_t i = 0; i < k->n; i++) {
		t[i] = title_of(c, k->root[i]);
		if (t[i] < 0)
			continue;
		titled++;
		distinct++;
		for (size_t j = 0; j < i; j++)
			if (t[j] >= 0 && !strcmp(c->p->links[t[j]].url, c->p->links[t[i]].url)) {
				distinct--;
				break;
			}
	}
	free(t);
	/* the rows are the page's matter, not a sidebar's list */
	if (mass_of(c, k) < INDEX_MIN_SHARE * ((double)c->els[0].na + c->els[0].an))
		return 0;
	return titled >= 2 && (double)titled >= INDEX_MIN_TITLED * (double)k->n &&
	       distinct * 5 >= titled * 4;
}

/* ---- the page's records ---- */

static int
add_rec(struct ctx *c, struct fr_fpage_record **out)
{
	if (grow((void **)&c->p->recs, &c->cap_recs, c->p->n_recs + 1, sizeof(**out)) < 0)
		return -1;
	*out = &c->p->recs[c->p->n_recs++];
	memset(*out, 0, sizeof(**out));
	(*out)->title_link = -1;
	(*out)->created_s = (*out)->last_s = (*out)->date_s = FR_FPAGE_NO_DATE;
	return 0;
}

/* The index rows and their date columns: the (at most two) columns with
 * a date in the most rows. */
/* A whole number standing alone in s ("4", "1,104", "1.104", "12 345"),
 * or -1. */
static int64_t
lone_number(const char *s)
{
	int64_t v = 0;
	int digits = 0, group = 0;

	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
		s++;
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		if (ch >= '0' && ch <= '9') {
			if (++digits > 12)
				return -1;
			v = v * 10 + (ch - '0');
			group++;
		} else if ((ch == ',' || ch == '.' || ch == ' ' || ch == '\'') && digits &&
			   s[1] >= '0' && s[1] <= '9' && group <= 3) {
			group = 0; /* a thousands separator */
		} else if (ch == 0xc2 && (unsigned char)s[1] == 0xa0 && digits) {
			s++; /* U+00A0 between digit groups */
			group = 0;
		} else {
			break;
		}
	}
	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
		s++;
	return digits && !*s ? v : -1;
}

/* "12 comments", "4 Replies": a number and at most two words of letters
 * (no date: "3 hours ago" is one, and is left out by the caller). Returns
 * the number, or -1. */
static int64_t
counted(const char *s)
{
	char num[32];
	size_t n = 0, words = 0;

	while (*s == ' ')
		s++;
	while (n + 1 < sizeof(num) && ((*s >= '0' && *s <= '9') || ((*s == ',' || *s == '.') &&
	                                                             s[1] >= '0' && s[1] <= '9')))
		num[n++] = *s++;
	num[n] = 0;
	if (!n || *s != ' ')
		return -1;
	while (*s) {
		while (*s == ' ')
			s++;
		if (!*s)
			break;
		const char *w = s;
		while (*s && *s != ' ') {
			if ((unsigned char)*s < 0x80 && !isalpha((unsigned char)*s))
				return -1;
			s++;
		}
		if (s > w)
			words++;
	}
	return words >= 1 && words <= 2 ? lone_number(num) : -1;
}

/* "Replies: 4", "Mesajlar: 6519", "帖数：12": at most two words, a colon
 * (or a full-width one) and a whole number. Returns the number, or -1. */
static int64_t
labelled(const char *s)
{
	size_t words = 0;

	while (*s == ' ')
		s++;
	while (*s && *s != ':' && !(s[0] == '\xef' && s[1] == '\xbc' && s[2] == '\x9a')) {
		const char *w = s;
		while (*s && *s != ' ' && *s != ':' &&
		       !(s[0] == '\xef' && s[1] == '\xbc' && s[2] == '\x9a')) {
			if ((unsigned char)*s < 0x80 && !isalpha((unsigned char)*s))
				return -1;
			s++;
		}
		if (s > w)
			words++;
		while (*s == ' ')
			s++;
	}
	if (words < 1 || words > 2 || !*s)
		return -1;
	s += *s == ':' ? 1 : 3;
	return lone_number(s);
}

/* Whether an attribute's name says it counts ("data-comments-count",
 * "data-replies"). */
static int
count_attr(const char *name)
{
	return strstr(name, "count") || strstr(name, "comment") || strstr(name, "repl") ||
	       strstr(name, "posts");
}

/* Whether the link element a is a lone number link of its parent: a count
 * shown as a link (Discuz! links the reply count to the thread), where a
 * mini pager ("1 2 3") has several. */
static int
lone_number_link(const struct ctx *c, uint32_t a)
{
	int32_t par = c->els[a].parent;
	unsigned n = 0;

	if (par < 0)
		return 0;
	for (uint32_t e = (uint32_t)par + 1; e < c->els[par].end && n < 2; e++) {
		if (!is_tag(c->els[e].x, "a"))
			continue;
		char *t = text_of(c->els[e].x, 32, 0, 0);
		n += t && lone_number(t) >= 0;
		free(t);
	}
	return n == 1;
}

/* The row's numbers: elements outside links (or a link alone in its
 * parent) whose own text is a whole number, elements (links too) whose
 * whole text is a count ("12 comments", "Replies: 4") and holds no date,
 * and counting attributes. */
static void
row_nums(const struct ctx *c, uint32_t root, struct fr_fpage_record *r)
{
	for (uint32_t e = root; e < c->els[root].end && r->n_nums < FR_FPAGE_MAX_NUMS; e++) {
		const xmlNode *x = c->els[e].x;
		int32_t link = -1;
		if (skipped(x))
			continue;
		for (const xmlAttr *a = x->properties; a && r->n_nums < FR_FPAGE_MAX_NUMS; a = a->next) {
			if (!a->name || !count_attr((const char *)a->name) || !a->children ||
			    !a->children->content)
				continue;
			int64_t v = lone_number((const char *)a->children->content);
			if (v >= 0)
				r->nums[r->n_nums++] = v;
		}
		for (int32_t a = (int32_t)e; a >= (int32_t)root; a = c->els[a].parent)
			if (is_tag(c->els[a].x, "a")) {
				link = a;
				break;
			}
		char buf[64];
		size_t n = 0;
		int too_long = 0;
		for (const xmlNode *ch = x->children; ch; ch = ch->next) {
			if (ch->type != XML_TEXT_NODE || !ch->content)
				continue;
			size_t l = strlen((const char *)ch->content);
			if (n + l >= sizeof(buf)) {
				too_long = 1;
				break;
			}
			memcpy(buf + n, ch->content, l);
			n += l;
		}
		buf[n] = 0;
		int64_t v = too_long ? -1 : lone_number(buf);
		/* A number inside a link counts only when the link stands alone
		 * in its parent (checked only for numbers: it walks the parent). */
		if (v >= 0 && link >= 0 && !lone_number_link(c, (uint32_t)link))
			v = -1;
		if (v < 0 && !too_long && !has_date(c, e) && r->n_nums < FR_FPAGE_MAX_NUMS &&
		    c->els[e].na + c->els[e].an < 48) {
			char *t = text_of(x, 64, 0, 0);
			if (t) {
				char *ct = collapse(t, 64);
				v = ct ? counted(ct) : -1;
				if (v < 0 && ct)
					v = labelled(ct);
				free(ct);
				free(t);
			}
		}
		if (v >= 0 && r->n_nums < FR_FPAGE_MAX_NUMS)
			r->nums[r->n_nums++] = v;
	}
}

static int
fill_index(struct ctx *c, const struct cand *k)
{
	uint32_t *hits = calloc(c->n_cols + 1, sizeof(*hits)), *map = NULL;
	const struct date **d = calloc(2 * k->n + 1, sizeof(*d));
	uint32_t best[2] = {UINT32_MAX, UINT32_MAX};
	size_t older[2] = {0, 0};
	int rc = -1, swap;

	if (!hits || !d || !(map = malloc((c->n_cols + 1) * sizeof(*map))))
		goto done;
	/* the class columns the records' column joined count as one */
	for (uint32_t col = 0; col < c->n_cols; col++)
		map[col] = col;
	if (k->level >= 0) {
		uint32_t first = UINT32_MAX;

		for (size_t j = 0; j < c->n_dates; j++)
			if (c->dates[j].lkey[k->level] == k->lkey) {
				if (first == UINT32_MAX)
					first = c->dates[j].col;
				map[c->dates[j].col] = first;
			}
	}
	for (size_t j = 0; j < c->n_dates; j++)
		for (size_t i = 0; i < k->n; i++)
			if (contains(c, k->root[i], c->dates[j].el)) {
				hits[map[c->dates[j].col]]++;
				break;
			}
	for (uint32_t col = 0; col < c->n_cols; col++) {
		/* a column of the rows: most of its dates in rows, in half of them */
		uint32_t all = 0;

		for (uint32_t o = 0; o < c->n_cols; o++)
			all += map[o] == col ? c->col_n[o] : 0;
		if (hits[col] * 2 < k->n || hits[col] * 5 < all * 4)
			continue;
		if (best[0] == UINT32_MAX || hits[col] > hits[best[0]]) {
			best[1] = best[0];
			best[0] = col;
		} else if (best[1] == UINT32_MAX || hits[col] > hits[best[1]]) {
			best[1] = col;
		}
	}
	c->p->n_date_cols = (best[0] != UINT32_MAX) + (best[1] != UINT32_MAX);
	for (size_t i = 0; i < k->n; i++) {
		const struct date **r = &d[2 * i];

		for (size_t j = 0; j < c->n_dates; j++)
			for (int b = 0; b < 2; b++)
				if (!r[b] && map[c->dates[j].col] == best[b] &&
				    contains(c, k->root[i], c->dates[j].el))
					r[b] = &c->dates[j];
		if (r[0] && r[1] && r[0]->t != r[1]->t)
			older[r[0]->t > r[1]->t]++;
	}
	/* With two columns, the older in most rows is the creation date:
	 * column swap is the older one. */
	swap = older[1] > older[0];
	for (size_t i = 0; i < k->n; i++) {
		struct fr_fpage_record *r;
		const struct date *cr = d[2 * i + swap], *la = d[2 * i + !swap], *shown;

		if (add_rec(c, &r) < 0)
			goto done;
		r->title_link = title_of(c, k->root[i]);
		row_nums(c, k->root[i], r);
		if (c->p->n_date_cols == 2) {
			if (cr && la && cr->t > la->t) {
				const struct date *t = cr;

				cr = la;
				la = t;
			}
			r->created_s = cr ? cr->t : FR_FPAGE_NO_DATE;
			r->last_s = la ? la->t : FR_FPAGE_NO_DATE;
			shown = la ? la : cr;
		} else {
			shown = d[2 * i];
		}
		if (shown) {
			r->date_s = shown->t;
			r->date_gran = shown->gran;
			r->date_flags = shown->flags;
		}
	}
	rc = 0;
done:
	free(hits);
	free(map);
	free(d);
	return rc;
}

/* A name without the separators a header sets around it ("bot ·",
 * "» r23", "alice:"). */
static void
trim_name(char *s)
{
	static const char *const seps[] = {"\xc2\xb7", "\xe2\x80\xa2", "\xc2\xbb", "\xc2\xab",
	                                   "\xe2\x80\x93", "\xe2\x80\x94", " ", ":", ",", "|",
	                                   "-", "/", "\xc2\xa0"};
	size_t n = strlen(s), b = 0;
	int more = 1;

	while (more) {
		more = 0;
		for (size_t i = 0; i < sizeof(seps) / sizeof(seps[0]); i++) {
			size_t k = strlen(seps[i]);

			if (n - b > k && !memcmp(s + n - k, seps[i], k)) {
				n -= k;
				more = 1;
			}
			if (n - b > k && !memcmp(s + b, seps[i], k)) {
				b += k;
				more = 1;
			}
		}
	}
	memmove(s, s + b, n - b);
	s[n - b] = '\0';
}

/* ---- quotes and signatures ---- */

static int
mark_alloc(struct ctx *c)
{
	if (c->mark)
		return 0;
	c->mark = calloc(c->n_els + 1, 1);
	c->mpre = calloc(c->n_els + 1, sizeof(*c->mpre));
	return c->mark && c->mpre ? 0 : -1;
}

/* Marks e's subtree as kind and brings the sums up to date. */
static void
mark_el(struct ctx *c, uint32_t e, int kind)
{
	for (uint32_t x = e; x < c->els[e].end; x++)
		c->mark[x] = (uint8_t)kind;
	c->els[e].x->_private = (void *)(kind == MARK_QUOTE ? &MARK_Q : &MARK_S);
	for (uint32_t x = 0; x < c->n_els; x++) {
		int32_t p = c->els[x].parent;
		int root = c->mark[x] && (p < 0 || !c->mark[p]);

		c->mpre[x + 1] = c->mpre[x] + (root ? (double)c->els[x].na + c->els[x].an : 0);
	}
}

/* Whether an attribute (class) value has a word containing "quote": the
 * name nearly every BBCode renderer gives its quote boxes. */
static int
quote_class(const xmlNode *x)
{
	const char *v = attr(x, "class");

	return v && strcasestr_(v, "quote") != NULL;
}

/* Whether element e is a short label that ends with ':' ("Quote:",
 * "KenT wrote:", "Zitat:") laid out as a block of its own. */
static int
label_el(const struct ctx *c, uint32_t e)
{
	char *t;
	size_t n;
	int ok;

	if (c->els[e].na + c->els[e].an == 0 || c->els[e].na + c->els[e].an > 80 ||
	    breaks(c->els[e].x) < 2)
		return 0;
	t = text_of(c->els[e].x, 256, 0, 0);
	n = t ? strlen(t) : 0;
	ok = n > 0 && t[n - 1] == ':';
	free(t);
	return ok;
}

/* Whether e is a quote box: a <blockquote>, a box named a quote, or a
 * block that opens with a label ending in ':' and holds the rest in one
 * box ("Quote:" over a table), with the post's text beside it. Sets *box
 * to the highest ancestor below r holding no more text than e. */
static int
quote_box(const struct ctx *c, const struct cand *k, uint32_t r, uint32_t e, uint32_t date_el,
          uint32_t *box)
{
	const xmlNode *x = c->els[e].x;
	uint32_t b = e;
	int is = 0;

	if (c->els[e].na + c->els[e].an == 0 || contains(c, e, date_el))
		return 0;
	/* a record is no quote (broken markup nests posts in posts) */
	for (size_t i = 0; i < k->n; i++)
		if (k->root[i] != r && contains(c, e, k->root[i]))
			return 0;
	if (is_tag(x, "blockquote")) {
		/* one holding all the text of its parent wraps the post */
		is = text_beside(x);
	} else if (quote_class(x)) {
		/* a box named a quote: a short header line, then the quote
		 * ("Originally Posted by X" over the message) */
		uint32_t w = e, first = UINT32_MAX;

		for (;;) {
			uint32_t only = UINT32_MAX, n = 0;

			for (uint32_t ch = w + 1; ch < c->els[w].end; ch = c->els[ch].end)
				if (c->els[ch].na + c->els[ch].an > 0) {
					n++;
					if (only == UINT32_MAX)
						only = ch;
				}
			if (n == 1 && c->els[only].na + c->els[only].an ==
			                  c->els[w].na + c->els[w].an) {
				w = only; /* a wrapper */
				continue;
			}
			if (n >= 2)
				first = only;
			break;
		}
		is = first != UINT32_MAX && c->els[first].na + c->els[first].an <= 120 &&
		     c->els[w].na + c->els[w].an >= c->els[first].na + c->els[first].an + 20;
	} else if (breaks(x) == 3) {
		/* the label first, then one box with all the rest */
		uint32_t first = UINT32_MAX, boxes = 0;

		for (uint32_t ch = e + 1; ch < c->els[e].end; ch = c->els[ch].end) {
			if (c->els[ch].na + c->els[ch].an == 0)
				continue;
			if (first == UINT32_MAX)
				first = ch;
			else
				boxes++;
		}
		is = first != UINT32_MAX && boxes == 1 && label_el(c, first) &&
		     c->els[e].na + c->els[e].an >= c->els[first].na + c->els[first].an + 20;
		/* no text of its own beside the label and the box */
		if (is) {
			uint32_t kids = 0;

			for (uint32_t ch = e + 1; ch < c->els[e].end; ch = c->els[ch].end)
				kids += c->els[ch].na + c->els[ch].an;
			is = kids == c->els[e].na + c->els[e].an;
		}
	}
	if (!is)
		return 0;
	while (c->els[b].parent > (int32_t)r &&
	       c->els[c->els[b].parent].na + c->els[c->els[b].parent].an ==
	           c->els[b].na + c->els[b].an)
		b = (uint32_t)c->els[b].parent;
	if (b == r || !text_beside(c->els[b].x))
		return 0;
	*box = b;
	return 1;
}

/* Marks the quotes of each record of k, with the short header before each
 * ("mossy rocks posted:", "Quote from: ... on ..."). */
static int
mark_quotes(struct ctx *c, const struct cand *k)
{
	if (mark_alloc(c) < 0)
		return -1;
	for (size_t i = 0; i < k->n; i++) {
		uint32_t r = k->root[i], de = c->dates[k->date[i]].el;

		for (uint32_t e = r + 1; e < c->els[r].end;) {
			uint32_t box;

			if (c->mark[e] || !quote_box(c, k, r, e, de, &box)) {
				e = c->mark[e] ? c->els[e].end : e + 1;
				continue;
			}
			mark_el(c, box, MARK_QUOTE);
			/* the header just before it: a short line of its own */
			{
				const xmlNode *h = c->els[box].x->prev;

				while (h && h->type == XML_TEXT_NODE &&
				       (!h->content || !visible((const char *)h->content)))
					h = h->prev;
				if (h && h->type == XML_ELEMENT_NODE && h->_private == NULL) {
					for (uint32_t p = (uint32_t)c->els[box].parent + 1; p < box;
					     p = c->els[p].end)
						if (c->els[p].x == h && !c->mark[p] &&
						    !contains(c, p, de) &&
						    c->els[p].na + c->els[p].an <= 160 &&
						    (label_el(c, p) || quote_class(h)))
							mark_el(c, p, MARK_QUOTE);
				}
			}
			e = c->els[box].end;
		}
	}
	return 0;
}

/* The tag path of e relative to its ancestor r (classes left out: rows
 * marked read or unread). */
static uint64_t
rel_tags(const struct ctx *c, uint32_t r, uint32_t e)
{
	uint64_t h = FNV0;

	while (e != r && c->els[e].parent >= 0) {
		h = mix(h * 31 + c->els[e].tag);
		e = (uint32_t)c->els[e].parent;
	}
	return h;
}

/* FNV of the text of e. */
static uint64_t
text_hash(const struct ctx *c, uint32_t e)
{
	char *t = text_of(c->els[e].x, 4096, 0, 0);
	uint64_t h = t ? fnv(FNV0, t, strlen(t)) : 0;

	free(t);
	return h;
}

/* Whether e lies in the author's box: under an ancestor (below r) that
 * holds the author but not the content. */
static int
in_author_box(const struct ctx *c, uint32_t r, uint32_t e, int32_t author, int32_t content)
{
	if (author < 0)
		return 0;
	for (int32_t a = c->els[e].parent; a > (int32_t)r; a = c->els[a].parent)
		if (contains(c, (uint32_t)a, (uint32_t)author) &&
		    !(content >= 0 && contains(c, (uint32_t)a, (uint32_t)content)))
			return 1;
	return contains(c, e, (uint32_t)author);
}

/* Signatures: a block after the start of a post's text, outside the
 * author's box, whose text is the same under two posts or more of one
 * member and under no post of another (a forum's chrome is under all).
 * Then, in posts of members seen once, blocks at the place (path from the
 * record) where signatures were found. When whole contents are such
 * blocks (a signature taken for the text), *content_hit is set. */
static int
mark_sigs(struct ctx *c, const struct cand *k, const int32_t *author, const int32_t *content,
          int *content_hit)
{
	struct fr_strmap *by_member = fr_strmap_new(), *by_all = fr_strmap_new(),
	                 *paths = fr_strmap_new();
	uint32_t *cnt_m = NULL, *cnt_a = NULL;
	size_t cap_m = 0, cap_a = 0;
	uint64_t *ah = calloc(k->n + 1, sizeof(*ah));
	int rc = -1;

	*content_hit = 0;
	if (!by_member || !by_all || !paths || !ah || mark_alloc(c) < 0)
		goto done;
	for (size_t i = 0; i < k->n; i++)
		ah[i] = author[i] >= 0 ? text_hash(c, (uint32_t)author[i]) : 0;
	/* two passes: count, then mark */
	for (int pass = 0; pass < 3; pass++) {
		for (size_t i = 0; i < k->n; i++) {
			uint32_t r = k->root[i], de = c->dates[k->date[i]].el;
			uint32_t from = content[i] >= 0 ? (uint32_t)content[i] : r + 1;

			if (!ah[i] && pass < 2)
				continue;
			if (pass == 2) {
				int has = 0;

				for (uint32_t e = r; e < c->els[r].end && !has; e++)
					has = c->mark[e] == MARK_SIG;
				if (has)
					continue;
			}
			for (uint32_t e = from; e < c->els[r].end;) {
				uint64_t key[3], th;
				uint32_t id;
				int added;
				double tx = (double)c->els[e].na + c->els[e].an;

				if (c->mark[e] || tx < 2 || tx > 2000 || contains(c, e, de) ||
				    (content[i] >= 0 && e != (uint32_t)content[i] &&
				     contains(c, e, (uint32_t)content[i])) ||
				    in_author_box(c, r, e, author[i], content[i]) ||
				    breaks(c->els[e].x) < 2) {
					e = c->mark[e] ? c->els[e].end : e + 1;
					continue;
				}
				key[1] = rel_tags(c, r, e);
				if (pass == 2) {
					/* a member seen once: the place signatures are at */
					int found = 0;

					if (fr_strmap_find(paths, (const char *)&key[1],
					                   sizeof(uint64_t), &id) == 1 &&
					    e != (uint32_t)content[i]) {
						mark_el(c, e, MARK_SIG);
						found = 1;
					}
					e = found ? c->els[e].end : e + 1;
					continue;
				}
				th = text_hash(c, e);
				key[0] = ah[i];
				key[2] = th;
				if (fr_strmap_intern(by_member, (const char *)key, sizeof(key), &id,
				                     &added) < 0 ||
				    grow((void **)&cnt_m, &cap_m, id + 1, sizeof(*cnt_m)) < 0)
					goto done;
				if (added)
					cnt_m[id] = 0;
				if (pass == 0) {
					cnt_m[id]++;
				} else if (cnt_m[id] >= 2) {
					uint32_t ia;

					if (fr_strmap_find(by_all, (const char *)&key[1],
					                   2 * sizeof(uint64_t), &ia) == 1 &&
					    cnt_a[ia] == cnt_m[id]) {
						if (e == (uint32_t)content[i])
							*content_hit = 1;
						mark_el(c, e, MARK_SIG);
						if (fr_strmap_intern(paths, (const char *)&key[1],
						                     sizeof(uint64_t), &ia,
						                     &added) < 0)
							goto done;
						e = c->els[e].end;
						continue;
					}
				}
				if (pass == 0) {
					if (fr_strmap_intern(by_all, (const char *)&key[1],
					                     2 * sizeof(uint64_t), &id, &added) < 0 ||
					    grow((void **)&cnt_a, &cap_a, id + 1, sizeof(*cnt_a)) < 0)
						goto done;
					if (added)
						cnt_a[id] = 0;
					cnt_a[id]++;
				}
				e++;
			}
		}
		if (pass == 1 && fr_strmap_len(paths) == 0)
			break;
	}
	rc = 0;
done:
	fr_strmap_free(by_member);
	fr_strmap_free(by_all);
	fr_strmap_free(paths);
	free(cnt_m);
	free(cnt_a);
	free(ah);
	return rc;
}

/* The text of the marked subtrees of kind in r, in document order: a
 * header and the quote right after it on lines of their own, quotes
 * apart by a blank line; NULL when none (or out of memory). */
static char *
marked_texts(const struct ctx *c, uint32_t r, int kind)
{
	struct tbuf b = {NULL, 0, 0, MAX_POST_TEXT, 0, 0};
	const xmlNode *last = NULL;

	if (!c->mark)
		return NULL;
	for (uint32_t e = r; e < c->els[r].end;) {
		int32_t p = c->els[e].parent;
		char *t;

		if (c->mark[e] != kind || (p >= 0 && c->mark[p])) {
			e++;
			continue;
		}
		t = text_of(c->els[e].x, MAX_POST_TEXT, 1, 0);
		if (!t) {
			free(b.p);
			return NULL;
		}
		if (b.len && *t) {
			const xmlNode *n = last ? last->next : NULL;

			while (n && n->type == XML_TEXT_NODE &&
			       (!n->content || !visible((const char *)n->content)))
				n = n->next;
			tb_byte(&b, '\n');
			if (n != c->els[e].x)
				tb_byte(&b, '\n');
		}
		for (const char *q = t; *q; q++)
			tb_byte(&b, *q);
		free(t);
		last = c->els[e].x;
		e = c->els[e].end;
	}
	if (b.oom || !b.len) {
		free(b.p);
		return NULL;
	}
	return b.p;
}

/* The content element of each record (-1 none): WeRE's path with three
 * records or more, else (and where the path is missing) per record. */
static int
contents(const struct ctx *c, const struct cand *k, const int32_t *author, int32_t *content)
{
	if (k->n >= 3) {
		int32_t *alt = calloc(k->n, sizeof(*alt));
		uint32_t *rank = sibling_ranks(c);
		double t0 = 0, t1 = 0;

		if (!alt || !rank || content_paths(c, k, author, content, NULL) < 0 ||
		    content_paths(c, k, author, alt, rank) < 0) {
			free(alt);
			free(rank);
			return -1;
		}
		free(rank);
		/* The records' rows or cells alike (one signature for the user's
		 * cell and the message's): the message's path repeats in every
		 * record and WeRE leaves it out. Told apart by rank, it wins
		 * when it holds far more text. */
		for (size_t i = 0; i < k->n; i++) {
			t0 += content[i] >= 0 ? block_score(c, (uint32_t)content[i]) : 0;
			t1 += alt[i] >= 0 ? block_score(c, (uint32_t)alt[i]) : 0;
		}
		if (t1 > 2 * t0)
			memcpy(content, alt, k->n * sizeof(*alt));
		free(alt);
	} else {
		for (size_t i = 0; i < k->n; i++)
			content[i] = -1;
	}
	for (size_t i = 0; i < k->n; i++)
		if (content[i] < 0)
			content[i] =
			    content_after(c, k->root[i], c->dates[k->date[i]].el, author[i]);
	return 0;
}

/* A content taken with the author's box (a short post beside its
 * profile): again, without it. */
static void
content_unboxed(const struct ctx *c, const struct cand *k, const int32_t *author,
                int32_t *content)
{
	for (size_t i = 0; i < k->n; i++)
		if (content[i] >= 0 && author[i] >= 0 &&
		    contains(c, (uint32_t)content[i], (uint32_t)author[i])) {
			int32_t ct =
			    content_after(c, k->root[i], c->dates[k->date[i]].el, author[i]);

			if (ct >= 0)
				content[i] = ct;
		}
}

/* The publication time a record states in schema.org microdata
 * (`itemprop="datePublished"`, on a <meta content> or a <time datetime>),
 * when it states one, outside quotes: where a post shows when it was last
 * edited (Discourse's `dateModified` <time>), the date column holds that.
 * Returns 0 and sets *m, or -1. */
static int
published(const struct ctx *c, uint32_t r, struct fr_fdate_match *m)
{
	int n = 0;

	for (uint32_t e = r; e < c->els[r].end; e++) {
		const char *ip = attr(c->els[e].x, "itemprop"), *v;
		struct fr_fdate_match t;

		int quoted = in_quote(c, e);

		for (int32_t a = (int32_t)e; c->mark && a >= (int32_t)r && !quoted;
		     a = c->els[a].parent)
			quoted = c->mark[a] != 0;
		if (!ip || strcasecmp(ip, "datePublished") != 0 || quoted)
			continue;
		v = attr(c->els[e].x, "content");
		if (!v)
			v = attr(c->els[e].x, "datetime");
		if (!v || !*v || strlen(v) >= 200 ||
		    fr_fdate_parse_attr(c->pg, v, strlen(v), &t) != 0)
			continue;
		if (n++ == 0)
			*m = t;
	}
	return n == 1 ? 0 : -1;
}

static int
fill_thread(struct ctx *c, const struct cand *k)
{
	int32_t *author = calloc(k->n + 1, sizeof(*author));
	int32_t *content = calloc(k->n + 1, sizeof(*content));
	char *had = calloc(k->n + 1, sizeof(*had));
	uint64_t *paths = calloc(k->n + 1, sizeof(*paths));
	int rc = -1;

	if (!author || !content || !paths || !had)
		goto done;
	c->n_cand = k->n;
	if (mark_quotes(c, k) < 0)
		goto done;
	/* A first guess at the authors, to keep them out of the content: a
	 * link before the date (one after it may be a quote's source). */
	for (size_t i = 0; i < k->n; i++)
		author[i] = author_find(c, k->root[i], c->dates[k->date[i]].el,
		                        c->els[c->dates[k->date[i]].el].end, AUTHOR_LINK, NULL, 0);
	if (contents(c, k, author, content) < 0)
		goto done;
	/* The authors: a hint, else the nearest link before the text, else a
	 * name in text, else a link beside the record; then the position most
	 * records agree on. */
	for (int mode = AUTHOR_LINK; mode <= AUTHOR_BESIDE; mode++) {
		size_t found = 0;

		if (mode == AUTHOR_LINK)
			memset(had, 0, (k->n + 1) * sizeof(*had));

		for (size_t i = 0; i < k->n; i++) {
			uint32_t de = c->dates[k->date[i]].el;
			uint32_t stop = content[i] >= 0 ? (uint32_t)content[i] : UINT32_MAX;

			if (mode == AUTHOR_LINK) {
				int32_t h = author_hint(c, k->root[i], content[i]);

				author[i] =
				    h >= 0 ? h
				           : author_find(c, k->root[i], de, stop, mode, NULL, 0);
			} else if (author[i] < 0 && (mode == AUTHOR_NAME || k->n <= 200)) {
				/* beside: quadratic in the records, for a page of posts */
				author[i] =
				    author_find(c, k->root[i], de, stop, mode, k->root, k->n);
			}
			found += author[i] >= 0 && (mode == AUTHOR_LINK || !had[i]);
		}
		if (mode != AUTHOR_LINK && !names_vary(c, k, author, had)) {
			/* a label ("Posted by", "Continue this thread"), not names:
			 * drop what this pass found */
			for (size_t i = 0; i < k->n; i++)
				if (!had[i])
					author[i] = -1;
			found = 0;
		}
		if (found * 2 > k->n)
			break;
		for (size_t i = 0; i < k->n; i++)
			had[i] = author[i] >= 0;
	}
	/* A record still without one: its content was taken too wide (a short
	 * post with its profile box); the nearest link outside quotes. */
	for (size_t i = 0; i < k->n; i++)
		if (author[i] < 0) {
			uint32_t stop = content[i] >= 0 ? c->els[content[i]].end : UINT32_MAX;
			int32_t a = author_find(c, k->root[i], c->dates[k->date[i]].el, stop,
			                        AUTHOR_LINK, NULL, 0);

			if (a >= 0 && !in_quote(c, (uint32_t)a))
				author[i] = a;
		}
	for (size_t i = 0; i < k->n; i++)
		paths[i] = author[i] >= 0 ? rel_path(c, k->root[i], (uint32_t)author[i]) : 0;
	if (k->n >= 3) {
		uint64_t win = 0;
		size_t wn = 0;

		for (size_t i = 0; i < k->n; i++) {
			size_t n = 0;

			for (size_t j = 0; j < k->n; j++)
				n += paths[i] && paths[j] == paths[i];
			if (n > wn) {
				wn = n;
				win = paths[i];
			}
		}
		for (size_t i = 0; i < k->n && win; i++) {
			uint32_t r = k->root[i];

			if (paths[i] == win)
				continue;
			for (uint32_t e = r; e < c->els[r].end; e++)
				if (rel_path(c, r, e) == win &&
				    (author_like(c, e, c->dates[k->date[i]].el) ||
				     name_like(c, e)) &&
				    !(content[i] >= 0 && contains(c, (uint32_t)content[i], e))) {
					author[i] = (int32_t)e;
					break;
				}
		}
	}
	content_unboxed(c, k, author, content);
	/* Signatures out; where one was taken for the text, the text again. */
	{
		int hit = 0;

		if (mark_sigs(c, k, author, content, &hit) < 0)
			goto done;
		if (hit) {
			if (contents(c, k, author, content) < 0)
				goto done;
			content_unboxed(c, k, author, content);
			if (mark_sigs(c, k, author, content, &hit) < 0)
				goto done;
		}
	}
	for (size_t i = 0; i < k->n; i++) {
		struct fr_fpage_record *r;
		const struct date *d = &c->dates[k->date[i]];

		if (add_rec(c, &r) < 0)
			goto done;
		r->date_s = d->t;
		r->date_gran = d->gran;
		r->date_flags = d->flags;
		{
			struct fr_fdate_match m;

			if (published(c, k->root[i], &m) == 0) {
				r->date_s = m.t_s;
				r->date_gran = m.gran;
				r->date_flags = m.flags | FR_FDATE_FROM_ATTR;
			}
		}
		r->depth = k->depth[i];
		if (author[i] >= 0) {
			const xmlNode *x = c->els[author[i]].x;

			r->author = text_of(x, MAX_LINK_TEXT, 0, 0);
			if (r->author)
				trim_name(r->author);
			if (r->author && !r->author[0]) {
				free(r->author);
				r->author = NULL;
			}
		} else {
			const char *da = NULL;

			for (int32_t a = (int32_t)k->root[i]; a >= 0 && !da; a = c->els[a].parent)
				da = attr(c->els[a].x, "data-author");
			if (da && *da)
				r->author = strdup(da);
		}
		if (content[i] >= 0) {
			r->text = text_of(c->els[content[i]].x, MAX_POST_TEXT, 1, 1);
			if (r->text && !r->text[0]) {
				free(r->text);
				r->text = text_of(c->els[content[i]].x, MAX_POST_TEXT, 1, 0);
			}
		}
		if (!r->text || !r->text[0]) {
			free(r->text);
			r->text = text_of(c->els[k->root[i]].x, MAX_POST_TEXT, 1, 0);
		}
		if (!r->text)
			goto done;
		r->quote = marked_texts(c, k->root[i], MARK_QUOTE);
		r->signature = marked_texts(c, k->root[i], MARK_SIG);
	}
	c->p->n_lead_out_of_order = k->lead;
	rc = 0;
done:
	free(author);
	free(content);
	free(paths);
	free(had);
	return rc;
}

/* Records of k with a date. */
static size_t
dated(const struct cand *k)
{
	size_t n = 0;

	for (size_t i = 0; i < k->n; i++)
		n += k->date[i] != UINT32_MAX;
	return n;
}

/* Weighs candidate k (taking it) against the best thread and index so far. */
static int
weigh(struct ctx *c, struct cand *k, struct cand *best_t, struct cand *best_i)
{
	int r;

	k->mass = mass_of(c, k);
	if (as_thread(c, k)) {
		/* The same records with later dates are the posts' dates
		 * (a member joins before posting); else the larger mass. */
		int better = !best_t->kind || k->mass > best_t->mass;

		if (best_t->kind && best_t->n == k->n &&
		    !memcmp(best_t->root, k->root, k->n * sizeof(*k->root))) {
			double a = 0;

			for (size_t i = 0; i < k->n; i++)
				a += (double)(c->dates[k->date[i]].t - c->dates[best_t->date[i]].t);
			better = a > 0;
		}
		if (better) {
			cand_free(best_t);
			k->kind = FR_FPAGE_THREAD;
			*best_t = *k;
			return 0;
		}
		cand_free(k);
		return 0;
	}
	r = as_index(c, k);
	if (r < 0) {
		cand_free(k);
		return -1;
	}
	k->mass = mass_of(c, k);
	if (r && (!best_i->kind || k->n > best_i->n ||
	          (k->n == best_i->n && (dated(k) > dated(best_i) ||
	                                 (dated(k) == dated(best_i) && k->mass > best_i->mass))))) {
		cand_free(best_i);
		k->kind = FR_FPAGE_INDEX;
		*best_i = *k;
		return 0;
	}
	cand_free(k);
	return 0;
}

/* The candidate of the dates items (indices into dates, in document
 * order, n of them); -1 out of memory. */
static int
cand_of(struct ctx *c, const uint32_t *items, size_t n, struct cand *k)
{
	uint32_t *els = malloc((n + 1) * sizeof(*els));

	if (!els || cand_alloc(k, n) < 0) {
		free(els);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		k->date[i] = items[i];
		els[i] = c->dates[items[i]].el;
	}
	roots_of(c, els, n, k->root);
	free(els);
	k->level = -1;
	return 0;
}

/* Columns split by the rows' read/unread classes, joined again: the dates
 * of one tag column (lkey) spread over several class columns, when their
 * records are siblings (one parent) and each holds one of them (two
 * columns of one row are not joined: their records would be cells of
 * different rows). */
static int
loose_cands(struct ctx *c, int level, struct cand *best_t, struct cand *best_i)
{
	struct fr_strmap *m = fr_strmap_new();
	uint32_t *grp = malloc((c->n_dates + 1) * sizeof(*grp));
	uint32_t *items = malloc((c->n_dates + 1) * sizeof(*items));
	size_t n_grp;
	int rc = -1;

	if (!m || !grp || !items)
		goto done;
	for (size_t d = 0; d < c->n_dates; d++) {
		int added;

		if (fr_strmap_intern(m, (const char *)&c->dates[d].lkey[level], sizeof(uint64_t), &grp[d],
		                     &added) < 0)
			goto done;
	}
	n_grp = fr_strmap_len(m);
	for (uint32_t g = 0; g < n_grp; g++) {
		struct cand k;
		size_t n = 0;
		int cols = 0, ok = 1;
		uint32_t col0 = UINT32_MAX;

		for (size_t d = 0; d < c->n_dates; d++) {
			if (grp[d] != g)
				continue;
			if (col0 == UINT32_MAX)
				col0 = c->dates[d].col;
			cols |= c->dates[d].col != col0;
			items[n++] = (uint32_t)d;
		}
		if (!cols || n < 2 || n > MAX_RECS)
			continue;
		if (cand_of(c, items, n, &k) < 0)
			goto done;
		for (size_t i = 1; i < n && ok; i++)
			ok = c->els[k.root[i]].parent == c->els[k.root[0]].parent &&
			     k.root[i] != k.root[i - 1];
		if (!ok) {
			cand_free(&k);
			continue;
		}
		k.level = level;
		k.lkey = c->dates[items[0]].lkey[level];
		if (weigh(c, &k, best_t, best_i) < 0)
			goto done;
	}
	rc = 0;
done:
	fr_strmap_free(m);
	free(grp);
	free(items);
	return rc;
}

/* Date columns: every column of two dates or more as a candidate. */
static int
date_cands(struct ctx *c, struct cand *best_t, struct cand *best_i)
{
	uint32_t *items = malloc((c->n_dates + 1) * sizeof(*items));

	if (!items)
		return -1;
	for (uint32_t col = 0; col < c->n_cols; col++) {
		struct cand k;
		size_t n = 0;

		if (c->col_n[col] < 2 || c->col_n[col] > MAX_RECS)
			continue;
		for (uint32_t d = c->col_first[col]; d != UINT32_MAX; d = c->col_next[d])
			items[n++] = d;
		if (cand_of(c, items, n, &k) < 0 || weigh(c, &k, best_t, best_i) < 0)
			goto err;
	}
	free(items);
	if (loose_cands(c, 0, best_t, best_i) < 0)
		return -1;
	return loose_cands(c, 1, best_t, best_i);
err:
	free(items);
	return -1;
}

/* Link columns (for index pages whose rows show no dates): links grouped
 * by their element and two ancestors' signatures. */
static int
link_cands(struct ctx *c, struct cand *best_i)
{
	struct fr_strmap *m = fr_strmap_new();
	uint32_t *col = NULL, *items = NULL, *cnt = NULL;
	size_t n_cols;
	int rc = -1;

	if (!m)
		return -1;
	col = malloc((c->n_els + 1) * sizeof(*col));
	items = malloc((c->n_els + 1) * sizeof(*items));
	if (!col || !items)
		goto done;
	for (uint32_t e = 0; e < c->n_els; e++) {
		int32_t p = c->els[e].parent, g = p >= 0 ? c->els[p].parent : -1;
		uint64_t key;
		int added;

		col[e] = UINT32_MAX;
		if (c->els[e].link < 0 || self_link(c, e) ||
		    !wordy(c->p->links[c->els[e].link].text ? c->p->links[c->els[e].link].text
		                                            : ""))
			continue;
		key = mix(c->els[e].sig * 3 + (p >= 0 ? mix(c->els[p].sig) : 1) * 5 +
		          (g >= 0 ? mix(mix(c->els[g].sig)) : 2));
		if (fr_strmap_intern(m, (const char *)&key, sizeof(key), &col[e], &added) < 0)
			goto done;
	}
	n_cols = fr_strmap_len(m);
	cnt = calloc(n_cols + 1, sizeof(*cnt));
	if (!cnt)
		goto done;
	for (uint32_t e = 0; e < c->n_els; e++)
		if (col[e] != UINT32_MAX)
			cnt[col[e]]++;
	for (uint32_t k_ = 0; k_ < n_cols; k_++) {
		struct cand k;
		size_t n = 0;
		int r;
		double rest = 0, lt = 0;

		if (cnt[k_] < 2 || cnt[k_] > MAX_RECS)
			continue;
		for (uint32_t e = 0; e < c->n_els; e++)
			if (col[e] == k_)
				items[n++] = e;
		if (cand_alloc(&k, n) < 0)
			goto done;
		for (size_t i = 0; i < n; i++)
			k.date[i] = UINT32_MAX;
		roots_of(c, items, n, k.root);
		/* rows: alike, not cells, each a small part of the page */
		for (size_t i = 0; i < n && k.n; i++)
			if (c->els[k.root[i]].sig != c->els[k.root[0]].sig ||
			    (double)c->els[k.root[i]].na + c->els[k.root[i]].an >
			        0.4 * ((double)c->els[0].na + c->els[0].an))
				k.n = 0;
		if (!k.n || is_cell(c->els[k.root[0]].x)) {
			cand_free(&k);
			continue;
		}
		/* rows hold more than the link: descriptions, counts, authors */
		for (size_t i = 0; i < n; i++) {
			lt += c->els[items[i]].an;
			rest += (double)c->els[k.root[i]].na + c->els[k.root[i]].an -
			        c->els[items[i]].an;
		}
		if (rest < 0.5 * lt) {
			cand_free(&k);
			continue;
		}
		r = as_index(c, &k);
		if (r < 0) {
			cand_free(&k);
			goto done;
		}
		k.mass = mass_of(c, &k);
		if (r && (!best_i->kind || k.n > best_i->n ||
		          (k.n == best_i->n && k.mass > best_i->mass))) {
			cand_free(best_i);
			k.kind = FR_FPAGE_INDEX;
			*best_i = k;
			continue;
		}
		cand_free(&k);
	}
	rc = 0;
done:
	free(col);
	free(items);
	free(cnt);
	fr_strmap_free(m);
	return rc;
}

/* The page's clock ("It is currently ...", "All times are UTC, now ..."):
 * the absolute date nearest to the fetch, within two minutes of it, and
 * only that one date: a post made a minute before the fetch is a post (a
 * thread of one post was read as an index of one row). A post shown at the
 * clock's very minute ties with it; the clock is then the tied date that
 * opens or closes the page's dates (a header or footer), else the last. */
static void
find_clock(struct ctx *c)
{
	int64_t best = -1;

	c->clock = SIZE_MAX;
	for (size_t d = 0; d < c->n_dates; d++) {
		int64_t t = c->dates[d].t, off = t > c->o->now_s ? t - c->o->now_s : c->o->now_s - t;
		if ((c->dates[d].flags & FR_FDATE_RELATIVE) || off > 120)
			continue;
		if (best < 0 || off < best) {
			best = off;
			c->clock = d;
		} else if (off == best && c->clock != 0) {
			c->clock = d; /* the first date keeps it; otherwise the later */
		}
	}
}

/* Whether date d reads as the page's clock. */
static int
clock_date(const struct ctx *c, size_t d)
{
	return d == c->clock;
}

/* Whether date d is a small part of its element's text: a date in prose
 * ("hier" in a title, "heute" in a post), no date of the element. */
static int
embedded(const struct ctx *c, size_t d)
{
	const struct el *e = &c->els[c->dates[d].el];

	return 3 * (double)c->dates[d].tlen < (double)e->na + e->an;
}

/* Whether date d may date a lone post or row: alone in its column, not
 * the clock, not in prose. */
static int
lone_date(const struct ctx *c, size_t d)
{
	return c->col_n[c->dates[d].col] == 1 && !clock_date(c, d) && !embedded(c, d);
}

/* The highest ancestor of date d's element that holds no date of a
 * list (a column of several), no clock and no later date, below <body>. */
static uint32_t
climb(const struct ctx *c, size_t d)
{
	uint32_t a = c->dates[d].el;

	for (;;) {
		int32_t u = c->els[a].parent;
		int later = 0;

		if (u < 0 || c->els[u].parent < 0 || is_tag(c->els[u].x, "body"))
			break;
		for (size_t j = 0; j < c->n_dates && !later; j++)
			later = contains(c, (uint32_t)u, c->dates[j].el) && !embedded(c, j) &&
			        (c->dates[j].t > c->dates[d].t + 60 ||
			         c->col_n[c->dates[j].col] > 1 || clock_date(c, j));
		if (later)
			break;
		a = (uint32_t)u;
	}
	return a;
}

/* A thread page of one post: a date alone in its column, the nearest
 * author link and the largest text block of the region around it that
 * holds no later date; the record is their common ancestor. */
static int
single_cand(struct ctx *c, struct cand *best)
{
	for (size_t d = 0; d < c->n_dates; d++) {
		uint32_t e = c->dates[d].el, top, r;
		int32_t author, content;
		struct cand k;
		double ratio, avg;

		if (!lone_date(c, d))
			continue;
		top = climb(c, d);
		author = author_near(c, top, e, -1);
		if (author < 0)
			continue;
		/* The content near both (at most two levels above them); else,
		 * an article's long text anywhere below, its header far above.
		 * A post's text follows its date; a row's description comes
		 * before its last post's. */
		content = -1;
		int far = 0;
		for (; far < 2 && content < 0; far++) {
			r = lca(c, e, (uint32_t)author);
			for (int i = 0; i < 2 && r != top && c->els[r].parent >= 0; i++)
				r = (uint32_t)c->els[r].parent;
			if (far)
				r = top;
			content = post_text(c, r, e, author, far ? 30 : 3);
		}
		if (content < 0)
			continue;
		int near = far == 1; /* found on the first pass, by date and author */
		r = lca(c, lca(c, e, (uint32_t)author), (uint32_t)content);
		if (r == top)
			continue; /* the page's whole region: its chrome, no post */
		if (cand_alloc(&k, 1) < 0)
			return -1;
		k.root[0] = r;
		k.date[0] = (uint32_t)d;
		ratios(c, &k, &ratio, &avg);
		k.mass = mass_of(c, &k);
		/* of two records one inside the other, the one with the later
		 * date (a member joins before posting); else the larger */
		if (ratio < (near ? SINGLE_NEAR_RATIO : SINGLE_MIN_RATIO) ||
		    (best->kind && ((contains(c, r, best->root[0]) || contains(c, best->root[0], r))
		                        ? c->dates[best->date[0]].t >= c->dates[d].t
		                        : best->mass >= k.mass))) {
			cand_free(&k);
			continue;
		}
		cand_free(best);
		k.kind = FR_FPAGE_THREAD;
		*best = k;
	}
	return 0;
}

/* Whether e holds a heading of the page (<h1>, <h2>) or a form. */
static int
has_heading(const struct ctx *c, uint32_t e)
{
	for (uint32_t x = e; x < c->els[e].end; x++)
		if (is_tag(c->els[x].x, "h1") || is_tag(c->els[x].x, "h2") ||
		    is_tag(c->els[x].x, "form"))
			return 1;
	return 0;
}

/* Whether the subtree of p outside the subtree of a holds a titled link. */
static int
titled_outside(const struct ctx *c, uint32_t p, uint32_t a)
{
	for (uint32_t ch = p + 1; ch < c->els[p].end; ch = c->els[ch].end) {
		if (ch == a)
			continue;
		if (contains(c, ch, a)) {
			if (titled_outside(c, ch, a))
				return 1;
		} else if (title_of(c, ch) >= 0) {
			return 1;
		}
	}
	return 0;
}

/* An index page of one row (a board's last page): the lowest ancestor
 * of the lone dates that has a title link and whose parent has no titled
 * link beside it (a list of one item, maybe with a header); it must hold
 * no page heading and be a small part of the page. */
static int
single_row(struct ctx *c, struct cand *best)
{
	uint32_t row = UINT32_MAX;
	double ratio, avg;

	for (size_t d = 0; d < c->n_dates; d++) {
		if (!lone_date(c, d))
			continue;
		if (row == UINT32_MAX)
			row = c->dates[d].el;
		while (!contains(c, row, c->dates[d].el) && c->els[row].parent >= 0)
			row = (uint32_t)c->els[row].parent;
	}
	if (row == UINT32_MAX)
		return 0;
	for (;;) {
		int32_t p = c->els[row].parent;

		if (p < 0 || is_tag(c->els[row].x, "body"))
			return 0;
		if (title_of(c, row) >= 0 && !titled_outside(c, (uint32_t)p, row))
			break;
		row = (uint32_t)p;
	}
	if (has_heading(c, row) ||
	    (double)c->els[row].na + c->els[row].an > 0.6 * ((double)c->els[0].na + c->els[0].an))
		return 0;
	if (cand_alloc(best, 1) < 0)
		return -1;
	best->root[0] = row;
	best->date[0] = UINT32_MAX;
	ratios(c, best, &ratio, &avg);
	if (ratio >= INDEX_MAX_RATIO) {
		cand_free(best);
		return 0;
	}
	best->kind = FR_FPAGE_INDEX;
	best->mass = mass_of(c, best);
	return 0;
}

/* The opening post shown apart from the replies (a submission above its
 * comments): a lone date before the first record, no later than any of
 * them, with a long text after it and before the first record. Put in
 * front of k's records. */
static int
opening_post(const struct ctx *c, struct cand *k)
{
	int64_t first_t = INT64_MAX;
	size_t best = SIZE_MAX;
	int32_t content = -1;

	for (size_t i = 0; i < k->n; i++)
		if (c->dates[k->date[i]].t < first_t)
			first_t = c->dates[k->date[i]].t;
	for (size_t d = 0; d < c->n_dates && c->dates[d].el < k->root[0]; d++) {
		uint32_t e = c->dates[d].el, top;
		int32_t author, ct;

		if (!lone_date(c, d) || c->dates[d].t > first_t + 60)
			continue;
		top = climb(c, d);
		if (contains(c, top, k->root[0]))
			continue;
		author = author_near(c, top, e, -1);
		/* (20 words take 19 bytes at least: post_text's 15 bytes
		 * ask nothing more here.) */
		ct = post_text(c, top, e, author, 20);
		if (ct < 0 || (uint32_t)ct >= k->root[0])
			continue;
		best = d;
		content = ct;
	}
	if (best == SIZE_MAX)
		return 0;
	{
		uint32_t *root = malloc((k->n + 1) * sizeof(*root));
		uint32_t *date = malloc((k->n + 1) * sizeof(*date));
		unsigned *depth = calloc(k->n + 2, sizeof(*depth));
		uint32_t e = c->dates[best].el;

		if (!root || !date || !depth) {
			free(root);
			free(date);
			free(depth);
			return -1;
		}
		root[0] = lca(c, e, (uint32_t)content);
		date[0] = (uint32_t)best;
		memcpy(root + 1, k->root, k->n * sizeof(*root));
		memcpy(date + 1, k->date, k->n * sizeof(*date));
		memcpy(depth + 1, k->depth, k->n * sizeof(*depth));
		free(k->root);
		free(k->date);
		free(k->depth);
		k->root = root;
		k->date = date;
		k->depth = depth;
		k->n++;
	}
	return 0;
}

/* Marks each link with the record holding it and each record with its links. */
static void
link_records(struct ctx *c, const struct cand *k)
{
	for (size_t i = 0; i < k->n && i < c->p->n_recs; i++) {
		uint32_t r = k->root[i], first = UINT32_MAX, n = 0;

		for (uint32_t e = r; e < c->els[r].end; e++) {
			int32_t l = c->els[e].link;

			if (l < 0 || c->p->links[l].record >= 0)
				continue;
			c->p->links[l].record = (int32_t)i;
			if (first == UINT32_MAX)
				first = (uint32_t)l;
			n++;
		}
		c->p->recs[i].first_link = first == UINT32_MAX ? 0 : first;
		c->p->recs[i].n_links = n;
	}
}

/* ---- the page ---- */

/* The locales to read the page with when the caller gives none: the
 * page's language first when ICU knows it. */
static int
page_dates(struct ctx *c, const char *lang, char *err, size_t errlen)
{
	struct fr_fdate_page_opts po;
	char list[sizeof(FR_FDATE_DEFAULT_LOCALES) + 80], id[40];
	size_t n = 0;

	memset(&po, 0, sizeof(po));
	po.zone = c->o->zone;
	po.now_s = c->o->now_s;
	po.has_now = 1;
	po.locales = c->o->locales;
	if (!c->o->locales && lang) {
		for (const char *s = lang; *s && n + 1 < sizeof(id) && !isspace((unsigned char)*s);
		     s++)
			id[n++] = *s == '-' ? '_' : *s;
		id[n] = '\0';
		for (int tries = 0; tries < 2 && n > 0; tries++) {
			snprintf(list, sizeof(list), "%s,%s", id, FR_FDATE_DEFAULT_LOCALES);
			po.locales = list;
			if (fr_fdate_page_new(c->o->dates, &po, &c->pg, NULL, 0) == 0)
				return 0;
			id[strcspn(id, "_")] = '\0'; /* "de_DE": try "de" */
		}
		po.locales = NULL;
	}
	return fr_fdate_page_new(c->o->dates, &po, &c->pg, err, errlen);
}

static int
analyse(struct ctx *c)
{
	struct cand bt, bi, bs;
	enum fr_fdate_order order;
	int rc = -1;

	memset(&bt, 0, sizeof(bt));
	memset(&bi, 0, sizeof(bi));
	memset(&bs, 0, sizeof(bs));
	fr_fdate_page_decide_order(c->pg, c->texts, c->tlens, c->n_texts, &order);
	find_dates(c);
	find_clock(c);
	if (c->oom || index_columns(c) < 0)
		goto done;
	if (date_cands(c, &bt, &bi) < 0)
		goto done;
	if (!bi.kind && link_cands(c, &bi) < 0)
		goto done;
	if (!bt.kind && single_cand(c, &bs) < 0)
		goto done;
	if (bs.kind) {
		bt = bs;
		memset(&bs, 0, sizeof(bs));
	}
	if (!bt.kind && !bi.kind && single_row(c, &bi) < 0)
		goto done;
	if (bt.kind && (!bi.kind || bt.mass >= bi.mass)) {
		if (bt.n > 1 && opening_post(c, &bt) < 0)
			goto done;
		/* a post shows some text (a lone <time> without any is none) */
		{
			size_t m = 0;

			for (size_t i = 0; i < bt.n; i++) {
				if (c->els[bt.root[i]].na + c->els[bt.root[i]].an == 0)
					continue;
				bt.root[m] = bt.root[i];
				bt.date[m] = bt.date[i];
				bt.depth[m++] = bt.depth[i];
			}
			bt.n = m;
		}
		c->p->kind = bt.n ? FR_FPAGE_THREAD : FR_FPAGE_OTHER;
		if (fill_thread(c, &bt) < 0)
			goto done;
		link_records(c, &bt);
	} else if (bi.kind) {
		c->p->kind = FR_FPAGE_INDEX;
		if (fill_index(c, &bi) < 0)
			goto done;
		link_records(c, &bi);
	}
	rc = 0;
done:
	cand_free(&bt);
	cand_free(&bi);
	cand_free(&bs);
	return rc;
}

int
fr_fpage_parse(const char *html, size_t len, const char *url, const struct fr_fpage_opts *o,
               struct fr_fpage **out, char *err, size_t errlen)
{
	struct ctx c;
	htmlDocPtr doc = NULL;
	xmlNode *root;
	size_t max = o->max_bytes ? o->max_bytes : MAX_BYTES_DEFAULT;
	char *lang = NULL;
	int rc = -1;

	*out = NULL;
	memset(&c, 0, sizeof(c));
	c.url = url;
	c.o = o;
	if (len > max || len > 0x7fffffffu)
		return fr_errf(err, errlen, "%s: body of %zu bytes over the cap of %zu", url, len,
		               max);
	if (!o->dates)
		return fr_errf(err, errlen, "%s: no date detector", url);
	c.p = calloc(1, sizeof(*c.p));
	c.groups = fr_strmap_new();
	if (!c.p || !c.groups || !(c.p->url = strdup(url)))
		goto oom;
	doc = htmlReadMemory(len ? html : "<html></html>", len ? (int)len : 13, url, NULL,
	                     HTML_PARSE_RECOVER | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING |
	                         HTML_PARSE_NONET | HTML_PARSE_COMPACT);
	root = doc ? xmlDocGetRootElement(doc) : NULL;
	/* <base href>, <title>, <html lang> */
	if (root) {
		const char *l = attr(root, "lang");

		if (l && *l && !(lang = strdup(l)))
			goto oom;
		for (xmlNode *x = root->children; x; x = x->next) {
			if (!is_tag(x, "head"))
				continue;
			for (xmlNode *h = x->children; h; h = h->next) {
				if (is_tag(h, "base") && !c.base) {
					const char *b = attr(h, "href");

					if (b && !skip_href(b))
						c.base = fr_url_resolve(url, b, NULL, 0);
				} else if (is_tag(h, "title") && !c.p->title) {
					xmlChar *t = xmlNodeGetContent(h);

					c.p->title = t ? collapse((const char *)t, 1024) : NULL;
					xmlFree(t);
					if (c.p->title && !c.p->title[0]) {
						free(c.p->title);
						c.p->title = NULL;
					}
				}
			}
		}
	}
	c.p->lang = lang;
	lang = NULL;
	if (!c.base && !(c.base = strdup(url)))
		goto oom;
	if (page_dates(&c, c.p->lang, err, errlen) < 0)
		goto fail;
	if (root) {
		/* the whole tree but <head>: <body> and whatever recovery put
		 * beside it */
		if (grow((void **)&c.els, &c.cap_els, 1, sizeof(*c.els)) < 0)
			goto oom;
		memset(&c.els[0], 0, sizeof(c.els[0]));
		c.els[0].x = root;
		c.els[0].parent = -1;
		c.els[0].sig = sig_of(root, 0);
		c.els[0].fsig = sig_of(root, 1);
		c.els[0].tag = tag_of(root);
		c.els[0].path = mix(FNV0 * 31 + c.els[0].fsig);
		c.els[0].link = -1;
		c.n_els = 1;
		build(&c, root->children, 0, 1, 0, 0);
		c.els[0].end = (uint32_t)c.n_els;
	}
	if (c.oom)
		goto oom;
	if (strip_sessions(&c) < 0)
		goto oom;
	link_texts(&c);
	url_counts(&c);
	if (c.oom)
		goto oom;
	if (analyse(&c) < 0 || c.oom)
		goto oom;
	rc = 0;
	*out = c.p;
	c.p = NULL;
	goto fail;
oom:
	fr_errf(err, errlen, "%s: out of memory", url);
fail:
	free(lang);
	fr_fpage_free(c.p);
	fr_fdate_page_free(c.pg);
	if (doc)
		xmlFreeDoc(doc);
	free(c.base);
	free(c.els);
	free(c.dates);
	free(c.texts);
	free(c.tlens);
	free(c.col_first);
	free(c.col_next);
	free(c.col_n);
	free(c.dpre);
	free(c.dtext);
	free(c.mark);
	free(c.mpre);
	free(c.url_n);
	fr_strmap_free(c.groups);
	return rc;
}

void
fr_fpage_free(struct fr_fpage *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->n_links; i++) {
		free(p->links[i].url);
		free(p->links[i].text);
	}
	for (size_t i = 0; i < p->n_recs; i++) {
		free(p->recs[i].author);
		free(p->recs[i].text);
		free(p->recs[i].quote);
		free(p->recs[i].signature);
	}
	free(p->links);
	free(p->recs);
	free(p->url);
	free(p->title);
	free(p->lang);
	free(p);
}

const char *
fr_fpage_kind_name(enum fr_fpage_kind k)
{
	switch (k) {
	case FR_FPAGE_INDEX:
		return "index";
	case FR_FPAGE_THREAD:
		return "thread";
	default:
		return "other";
	}
}
