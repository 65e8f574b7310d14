/* fpx.c - feedparser's result model (its _FeedParserMixin and namespace
 * handlers, feedparser 6.0.10, BSD) driven by the XML front end's SAX
 * events: the feed and entries dictionaries `parse --format json` prints,
 * built as json-c objects with feedparser's rules, field by field. */
#include "core/utf8.h"
#include "parse/date.h"
#include "parse/feed_internal.h"

#include <json-c/json.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct json_object jo;

/* ---- namespaces (mixin.namespaces, lower-cased) ---- */

static const struct {
	const char *uri, *prefix;
} fp_namespaces[] = {
    /* NOTE: keep sorted (bsearch) */
    {"", ""},
    {"http://backend.userland.com/blogchannelmodule", "blogChannel"},
    {"http://backend.userland.com/creativecommonsrssmodule", "creativeCommons"},
    {"http://backend.userland.com/rss", ""},
    {"http://blogs.law.harvard.edu/tech/rss", ""},
    {"http://creativecommons.org/ns#license", "cc"},
    {"http://cyber.law.harvard.edu/rss/creativecommonsrssmodule.html", "creativeCommons"},
    {"http://example.com/dtds/podcast-1.0.dtd", "itunes"},
    {"http://example.com/necho", ""},
    {"http://example.com/newformat#", ""},
    {"http://freshmeat.net/rss/fm/", "fm"},
    {"http://hacks.benhammersley.com/rss/streaming/", "str"},
    {"http://madskills.com/public/xml/rss/module/pingback/", "pingback"},
    {"http://madskills.com/public/xml/rss/module/trackback/", "trackback"},
    {"http://media.tangent.org/rss/1.0/", "audio"},
    {"http://my.netscape.com/rdf/simple/0.9/", ""},
    {"http://my.theinfo.org/changed/1.0/rss/", "cp"},
    {"http://podlove.org/simple-chapters", "psc"},
    {"http://postneo.com/icbm/", "icbm"},
    {"http://prismstandard.org/namespaces/1.2/basic/", "prism"},
    {"http://purl.org/atom/ns#", ""},
    {"http://purl.org/dc/elements/1.1/", "dc"},
    {"http://purl.org/dc/terms/", "dcterms"},
    {"http://purl.org/echo/", ""},
    {"http://purl.org/pie/", ""},
    {"http://purl.org/rss/1.0/", ""},
    {"http://purl.org/rss/1.0/modules/aggregation/", "ag"},
    {"http://purl.org/rss/1.0/modules/annotate/", "annotate"},
    {"http://purl.org/rss/1.0/modules/company", "co"},
    {"http://purl.org/rss/1.0/modules/content/", "content"},
    {"http://purl.org/rss/1.0/modules/email/", "email"},
    {"http://purl.org/rss/1.0/modules/event/", "ev"},
    {"http://purl.org/rss/1.0/modules/image/", "image"},
    {"http://purl.org/rss/1.0/modules/link/", "l"},
    {"http://purl.org/rss/1.0/modules/reference/", "ref"},
    {"http://purl.org/rss/1.0/modules/richequiv/", "reqv"},
    {"http://purl.org/rss/1.0/modules/rss091#", ""},
    {"http://purl.org/rss/1.0/modules/search/", "search"},
    {"http://purl.org/rss/1.0/modules/servicestatus/", "ss"},
    {"http://purl.org/rss/1.0/modules/slash/", "slash"},
    {"http://purl.org/rss/1.0/modules/subscription/", "sub"},
    {"http://purl.org/rss/1.0/modules/syndication/", "sy"},
    {"http://purl.org/rss/1.0/modules/taxonomy/", "taxo"},
    {"http://purl.org/rss/1.0/modules/textinput/", "ti"},
    {"http://purl.org/rss/1.0/modules/threading/", "thr"},
    {"http://purl.org/rss/1.0/modules/wiki/", "wiki"},
    {"http://rssnamespace.org/feedburner/ext/1.0", "feedburner"},
    {"http://schemas.pocketsoap.com/rss/mydescmodule/", "szf"},
    {"http://schemas.xmlsoap.org/soap/envelope/", "soap"},
    {"http://search.yahoo.com/mrss", "media"},
    {"http://search.yahoo.com/mrss/", "media"},
    {"http://web.resource.org/cc/", "cc"},
    {"http://webns.net/mvcb/", "admin"},
    {"http://wellformedweb.org/commentapi/", "wfw"},
    {"http://www.georss.org/georss", "georss"},
    {"http://www.itunes.com/dtds/podcast-1.0.dtd", "itunes"},
    {"http://www.opengis.net/gml", "gml"},
    {"http://www.w3.org/1999/02/22-rdf-syntax-ns#", "rdf"},
    {"http://www.w3.org/1999/xhtml", "xhtml"},
    {"http://www.w3.org/1999/xlink", "xlink"},
    {"http://www.w3.org/2000/01/rdf-schema#", "rdfs"},
    {"http://www.w3.org/2003/01/geo/wgs84_pos#", "geo"},
    {"http://www.w3.org/2005/atom", ""},
    {"http://www.w3.org/xml/1998/namespace", "xml"},
    {"http://xmlns.com/foaf/0.1/", "foaf"},
    {"uri/of/echo/namespace#", ""},
};

static int
cmp_ns(const void *k, const void *e)
{
	return strcmp(k, *(const char *const *)e);
}

const char *
fr_fpx_ns_prefix(const char *uri)
{
	char low[256];
	size_t n = strlen(uri);
	const void *hit;

	if (n >= sizeof(low))
		return NULL;
	for (size_t i = 0; i <= n; i++)
		low[i] = (char)(uri[i] >= 'A' && uri[i] <= 'Z' ? uri[i] - 'A' + 'a' : uri[i]);
	if (strstr(low, "backend.userland.com/rss"))
		return "";
	hit = bsearch(low, fp_namespaces, sizeof(fp_namespaces) / sizeof(fp_namespaces[0]),
	              sizeof(fp_namespaces[0]), cmp_ns);
	return hit ? ((const char *const *)hit)[1] : NULL;
}

int
fr_fpx_ns_sorted(void)
{
	for (size_t i = 1; i < sizeof(fp_namespaces) / sizeof(fp_namespaces[0]); i++)
		if (strcmp(fp_namespaces[i - 1].uri, fp_namespaces[i].uri) >= 0)
			return 0;
	return 1;
}

/* ---- state ---- */

struct piece_list {
	char **p;
	size_t n, cap;
};

struct elem {
	char *name;
	int expecting;
	struct piece_list pieces;
	char *replaced; /* elementstack[-1][-1] = value (_cdf_common) */
};

struct cparams {
	int active;
	char *type, *language, *base, *src;
	int has_language; /* language may be None */
	int base64;
};

struct depthmap {
	char *key;
	int depth;
};

/* A closed entry kept under the item cap: its time (entry_time), its
 * index in document order, and its model or, when streaming, its text. */
struct kept {
	int64_t t;
	size_t i;
	jo *e;
	char *s;
	size_t n;
};

struct fpx {
	struct fr_san *san; /* the HTML sanitiser's reused parser */
	jo *feed, *sourcedata;
	/* The open entry (feedparser's entries[-1] while inentry), owned
	 * here until it is committed: when it closes or the next one opens
	 * (nothing can change it after that). */
	jo *cur_entry;
	/* The committed entries, their models or, when streaming
	 * (stream_flags >= 0), their texts (serialised with stream_flags):
	 * with no cap all of them in document order, under the cap the
	 * max_items best-ranked so far as a heap (its root the worst ranked:
	 * the next to go). entries: the models in order, at the end. */
	jo *entries;
	int stream_flags;
	struct kept *heap;
	size_t n_heap, cap_heap;
	size_t n_seen; /* entries committed so far */
	const char *base_url;
	char *version;
	int infeed, inentry, incontent, intextinput, inimage, inauthor, incontributor, inpublisher,
	    insource;
	int guidislink, has_content, svg_ok, depth, title_depth, psc_flag;
	int ingeometry; /* 0, 1 point, 2 linestring, 3 polygon */
	const char *summary_key;
	struct cparams cp;
	struct elem *stack;
	size_t n_stack, cap_stack;
	char **basestack, **langstack;
	size_t n_base, n_lang, cap_base, cap_lang;
	char *baseuri, *lang;
	struct depthmap *dm;
	size_t n_dm, cap_dm;
	char *nsmap_prefix[32], *nsmap_val[32];
	size_t n_nsmap;
	size_t max_items;
	regex_t email_re;
	int re_ok;
	int oom;
};

static char *
xstrdup(struct fpx *p, const char *s)
{
	char *r;

	if (!s)
		return NULL;
	r = strdup(s);
	if (!r)
		p->oom = 1;
	return r;
}

/* snprintf(out, cap, "%s", s) without the format: as much of s as fits. */
static void
copy_str(char *out, size_t cap, const char *s)
{
	size_t n = strlen(s);

	if (!cap)
		return;
	if (n >= cap)
		n = cap - 1;
	memcpy(out, s, n);
	out[n] = '\0';
}

/* ---- FeedParserDict over json-c ---- */

static const char *
canon_key(const char *k)
{
	static const char *const map[][2] = {
	    {"channel", "feed"},          {"items", "entries"},
	    {"guid", "id"},               {"date", "updated"},
	    {"date_parsed", "updated_parsed"}, {"description", "summary"},
	    {"description_detail", "summary_detail"}, {"url", "href"},
	    {"modified", "updated"},      {"modified_parsed", "updated_parsed"},
	    {"issued", "published"},      {"issued_parsed", "published_parsed"},
	    {"copyright", "rights"},      {"copyright_detail", "rights_detail"},
	    {"tagline", "subtitle"},      {"tagline_detail", "subtitle_detail"},
	};

	/* most keys are no alias: their first letter says so */
	switch (k[0]) {
	case 'c':
	case 'd':
	case 'g':
	case 'i':
	case 'm':
	case 't':
	case 'u':
		break;
	default:
		return k;
	}
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (map[i][0][0] == k[0] && !strcmp(k, map[i][0]))
			return map[i][1];
	return k;
}

/* d[k] for a FeedParserDict (aliases resolved), borrowed, or NULL. */
static jo *
fpd_get(jo *d, const char *k)
{
	jo *v;

	if (!d || !json_object_is_type(d, json_type_object))
		return NULL;
	if (k[0] == 'd' && !strcmp(k, "description")) {
		if (json_object_object_get_ex(d, "summary", &v))
			return v;
		if (json_object_object_get_ex(d, "subtitle", &v))
			return v;
	} else if (k[0] == 'd' && !strcmp(k, "description_detail")) {
		if (json_object_object_get_ex(d, "summary_detail", &v))
			return v;
		if (json_object_object_get_ex(d, "subtitle_detail", &v))
			return v;
	} else {
		const char *c = canon_key(k);

		if (json_object_object_get_ex(d, c, &v))
			return v;
		if (c == k)
			return NULL;
	}
	if (json_object_object_get_ex(d, k, &v))
		return v;
	return NULL;
}

static int
fpd_has(jo *d, const char *k)
{
	jo *v;

	if (!d || !json_object_is_type(d, json_type_object))
		return 0;
	if (!strcmp(k, "updated") || !strcmp(k, "updated_parsed"))
		return json_object_object_get_ex(d, k, &v);
	return fpd_get(d, k) != NULL || json_object_object_get_ex(d, k, &v);
}

/* Every string of the model is valid UTF-8 whatever the input held (a
 * recovered encoding error can leave stray bytes in a value or a name):
 * a byte that starts no valid sequence becomes U+FFFD. */
static jo *
jstr(const char *s)
{
	char *fix = NULL;
	jo *o;

	if (!s || fr_utf8_fix(s, &fix) < 0)
		return NULL;
	o = json_object_new_string(fix ? fix : s);
	free(fix);
	return o;
}

/* json_object_object_add with the key repaired as jstr repairs values. */
static void
obj_add(jo *d, const char *k, jo *v)
{
	char *fix = NULL;

	if (fr_utf8_fix(k, &fix) < 0) {
		json_object_put(v);
		return;
	}
	json_object_object_add(d, fix ? fix : k, v);
	free(fix);
}

/* d[k] = v (takes v), aliases mapped to their canonical key. */
static void
fpd_set(jo *d, const char *k, jo *v)
{
	/* a field of a name feedparser fills (author_detail, links, ...) may
	 * hold text an element of that name gave: nothing is set in it */
	if (!d || !json_object_is_type(d, json_type_object)) {
		json_object_put(v);
		return;
	}
	obj_add(d, canon_key(k), v);
}

/* A plain dict's d[k] = v (no alias). */
static void
raw_set(jo *d, const char *k, jo *v)
{
	if (!d || !json_object_is_type(d, json_type_object)) {
		json_object_put(v);
		return;
	}
	obj_add(d, k, v);
}


/* d.setdefault(k, v): returns the value in d (borrowed); takes v. */
static jo *
fpd_setdefault(jo *d, const char *k, jo *v)
{
	jo *cur = fpd_get(d, k);

	if (cur && fpd_has(d, k)) {
		json_object_put(v);
		return cur;
	}
	fpd_set(d, k, v);
	return fpd_get(d, k);
}

static const char *
fpd_str(jo *d, const char *k)
{
	jo *v = fpd_get(d, k);

	return v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
}

static jo *
arr_last(jo *a)
{
	size_t n;

	if (!a || !json_object_is_type(a, json_type_array))
		return NULL;
	n = json_object_array_length(a);
	return n ? json_object_array_get_idx(a, n - 1) : NULL;
}

/* ---- attributes ---- */

struct attrs {
	const char *const *kv; /* key, value pairs */
	size_t n;
};

static const char *
attr_get(const struct attrs *a, const char *k)
{
	for (size_t i = a->n; i-- > 0;)
		if (!strcmp(a->kv[2 * i], k))
			return a->kv[2 * i + 1];
	return NULL;
}

/* The attributes as a dict, later duplicates winning in place (the front
 * end gives keys and values as well-formed UTF-8). */
static jo *
attrs_dict(const struct attrs *a)
{
	jo *d = json_object_new_object();

	for (size_t i = 0; d && i < a->n; i++)
		json_object_object_add(d, a->kv[2 * i], json_object_new_string(a->kv[2 * i + 1]));
	return d;
}

/* ---- the element stack ---- */

static void
pieces_free(struct piece_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->p[i]);
	free(l->p);
	l->p = NULL;
	l->n = l->cap = 0;
}

static void
piece_add(struct fpx *p, struct piece_list *l, const char *s, size_t n)
{
	char *c;

	if (l->n == l->cap) {
		size_t nc = l->cap ? l->cap * 2 : 4;
		char **np = realloc(l->p, nc * sizeof(*np));

		if (!np) {
			p->oom = 1;
			return;
		}
		l->p = np;
		l->cap = nc;
	}
	c = malloc(n + 1);
	if (!c) {
		p->oom = 1;
		return;
	}
	memcpy(c, s, n);
	c[n] = '\0';
	l->p[l->n++] = c;
}

static void
push(struct fpx *p, const char *name, int expecting)
{
	struct elem *e;

	if (p->n_stack == p->cap_stack) {
		size_t nc = p->cap_stack ? p->cap_stack * 2 : 16;
		struct elem *ns = realloc(p->stack, nc * sizeof(*ns));

		if (!ns) {
			p->oom = 1;
			return;
		}
		p->stack = ns;
		p->cap_stack = nc;
	}
	e = &p->stack[p->n_stack];
	memset(e, 0, sizeof(*e));
	e->name = xstrdup(p, name);
	if (!e->name)
		return;
	e->expecting = expecting;
	p->n_stack++;
}

static void
elem_free(struct elem *e)
{
	free(e->name);
	free(e->replaced);
	pieces_free(&e->pieces);
}

static struct elem *
top(struct fpx *p)
{
	return p->n_stack ? &p->stack[p->n_stack - 1] : NULL;
}

static void
handle_data(struct fpx *p, const char *s, size_t n, int escape)
{
	struct elem *e = top(p);

	if (!e)
		return;
	if (escape && p->cp.active && p->cp.type && !strcmp(p->cp.type, "application/xhtml+xml")) {
		struct fb_buf b = {0};

		if (fr_fb_add_escaped(&b, s, n, 0) != 0) {
			fr_fb_free(&b);
			p->oom = 1;
			return;
		}
		piece_add(p, &e->pieces, b.p ? b.p : "", b.n);
		fr_fb_free(&b);
		return;
	}
	piece_add(p, &e->pieces, s, n);
}

void
fr_fpx_text(struct fpx *p, const char *s, size_t n)
{
	if (p)
		handle_data(p, s, n, 1);
}

/* ---- contentparams ---- */

static void
cp_clear(struct cparams *c)
{
	free(c->type);
	free(c->language);
	free(c->base);
	free(c->src);
	memset(c, 0, sizeof(*c));
}

static jo *
cp_dict(struct cparams *c, const char *value)
{
	jo *d = json_object_new_object();

	if (!d)
		return NULL;
	if (c->type)
		json_object_object_add(d, "type", jstr(c->type));
	if (c->has_language)
		json_object_object_add(d, "language", jstr(c->language));
	if (c->base)
		json_object_object_add(d, "base", jstr(c->base));
	if (c->src)
		json_object_object_add(d, "src", jstr(c->src));
	json_object_object_add(d, "value", jstr(value));
	return d;
}

static char *
map_content_type(struct fpx *p, const char *t)
{
	char *r;

	if (!t)
		return NULL;
	r = xstrdup(p, t);
	if (!r)
		return NULL;
	for (char *q = r; *q; q++)
		if (*q >= 'A' && *q <= 'Z')
			*q = (char)(*q - 'A' + 'a');
	if (!strcmp(r, "text") || !strcmp(r, "plain")) {
		free(r);
		return xstrdup(p, "text/plain");
	}
	if (!strcmp(r, "html")) {
		free(r);
		return xstrdup(p, "text/html");
	}
	if (!strcmp(r, "xhtml")) {
		free(r);
		return xstrdup(p, "application/xhtml+xml");
	}
	return r;
}

static int
is_html_type(const char *t)
{
	return t && (!strcmp(t, "text/html") || !strcmp(t, "application/xhtml+xml"));
}

/* ---- context ---- */

static jo *
get_context(struct fpx *p)
{
	jo *v;

	if (p->insource)
		return p->sourcedata;
	if (p->inimage && (v = fpd_get(p->feed, "image")) && json_object_is_type(v, json_type_object))
		return v;
	if (p->intextinput) {
		v = fpd_get(p->feed, "textinput");
		if (!v || !json_object_is_type(v, json_type_object)) {
			fpd_set(p->feed, "textinput", json_object_new_object());
			v = fpd_get(p->feed, "textinput");
		}
		return v;
	}
	if (p->inentry && p->cur_entry)
		return p->cur_entry;
	return p->feed;
}

static void
save(struct fpx *p, const char *k, jo *v, int overwrite)
{
	jo *c = get_context(p);

	if (overwrite)
		fpd_set(c, k, v);
	else
		fpd_setdefault(c, k, v);
}

static jo *
parsed_date(const char *s)
{
	int64_t t;

	if (!s || fr_date_parse(s, strlen(s), &t) != 0)
		return NULL;
	return json_object_new_int64(t);
}

/* ---- text helpers ---- */

static char *
strip_dup(struct fpx *p, const char *s)
{
	const char *e;
	char *r;

	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r' || *s == '\f' || *s == '\v')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' || e[-1] == '\r' ||
	                 e[-1] == '\f' || e[-1] == '\v'))
		e--;
	r = malloc((size_t)(e - s) + 1);
	if (!r) {
		p->oom = 1;
		return NULL;
	}
	memcpy(r, s, (size_t)(e - s));
	r[e - s] = '\0';
	return r;
}

static int
blank_str(const char *s)
{
	for (; *s; s++)
		if (!(*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r' || *s == '\f' || *s == '\v'))
			return 0;
	return 1;
}

static int
word_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
	       (unsigned char)c >= 0x80;
}

/* feedparser's looks_like_html. */
static int
looks_like_html(const char *s)
{
	int cue = 0;

	for (const char *q = s; *q && !cue; q++) {
		if (q[0] == '<' && q[1] == '/') {
			const char *r = q + 2;

			while (word_char(*r))
				r++;
			if (r > q + 2 && *r == '>')
				cue = 1;
		} else if (q[0] == '&') {
			const char *r = q + 1;

			if (*r == '#')
				r++;
			while (word_char(*r))
				r++;
			if (r > q + 1 && *r == ';' && !(r == q + 2 && q[1] == '#'))
				cue = 1;
		}
	}
	if (!cue)
		return 0;
	for (const char *q = strchr(s, '<'); q; q = strchr(q + 1, '<')) {
		const char *r = q + 1;
		char name[64];
		size_t n = 0;

		if (*r == '/')
			r++;
		while (word_char(*r)) {
			if (n < sizeof(name) - 1)
				name[n++] = (char)(*r >= 'A' && *r <= 'Z' ? *r - 'A' + 'a' : *r);
			r++;
		}
		name[n] = '\0';
		if (n && !fr_feed_html_element_ok(name))
			return 0;
	}
	for (const char *q = strchr(s, '&'); q; q = strchr(q + 1, '&')) {
		const char *r = q + 1;
		char tmp[8];

		while (word_char(*r))
			r++;
		if (r > q + 1 && *r == ';') {
			size_t n = (size_t)(r - q - 1);

			if (!fr_feed_html_entity(q + 1, n, tmp, sizeof(tmp)) &&
			    !(n == 2 && (!strncmp(q + 1, "lt", 2) || !strncmp(q + 1, "gt", 2))) &&
			    !(n == 3 && !strncmp(q + 1, "amp", 3)) && !(n == 4 && !strncmp(q + 1, "quot", 4)))
				return 0;
		}
	}
	return 1;
}

/* Decodes one UTF-8 sequence; returns its length (1 for an invalid byte). */
static size_t
utf8_dec(const unsigned char *s, uint32_t *cp)
{
	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if ((s[0] & 0xE0) == 0xC0 && (s[1] & 0xC0) == 0x80) {
		*cp = (uint32_t)(s[0] & 0x1F) << 6 | (s[1] & 0x3F);
		return 2;
	}
	if ((s[0] & 0xF0) == 0xE0 && (s[1] & 0xC0) == 0x80 && (s[2] & 0xC0) == 0x80) {
		*cp = (uint32_t)(s[0] & 0x0F) << 12 | (uint32_t)(s[1] & 0x3F) << 6 | (s[2] & 0x3F);
		return 3;
	}
	if ((s[0] & 0xF8) == 0xF0 && (s[1] & 0xC0) == 0x80 && (s[2] & 0xC0) == 0x80 &&
	    (s[3] & 0xC0) == 0x80) {
		*cp = (uint32_t)(s[0] & 0x07) << 18 | (uint32_t)(s[1] & 0x3F) << 12 |
		      (uint32_t)(s[2] & 0x3F) << 6 | (s[3] & 0x3F);
		return 4;
	}
	*cp = 0xFFFD;
	return 1;
}

static const uint16_t cp1252[32] = {
    0x20AC, 0,      0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160,
    0x2039, 0x0152, 0,      0x017D, 0,      0,      0x2018, 0x2019, 0x201C, 0x201D, 0x2022,
    0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0,      0x017E, 0x0178};

/* feedparser's last steps on every value: text that is UTF-8 read as
 * Latin-1 is read again as UTF-8; C1 controls become their windows-1252
 * characters. In place or a new string (s freed). */
static char *
repair_text(struct fpx *p, char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	int high = 0, latin1 = 1, c1 = 0;
	size_t n = strlen(s);

	for (size_t i = 0; i < n;) {
		uint32_t cp;
		size_t k = utf8_dec(u + i, &cp);

		if (cp >= 0x80)
			high = 1;
		if (cp > 0xFF)
			latin1 = 0;
		if (cp >= 0x80 && cp <= 0x9F)
			c1 = 1;
		i += k;
	}
	if (high && latin1) {
		char *b = malloc(n + 1);
		size_t w = 0;

		if (!b) {
			p->oom = 1;
			return s;
		}
		for (size_t i = 0; i < n;) {
			uint32_t cp;

			i += utf8_dec(u + i, &cp);
			b[w++] = (char)cp;
		}
		b[w] = '\0';
		if (fr_feed_utf8_valid(b, w)) {
			free(s);
			s = b;
			u = (const unsigned char *)s;
			n = w;
			c1 = 0;
			for (size_t i = 0; i < n;) {
				uint32_t cp;

				i += utf8_dec(u + i, &cp);
				if (cp >= 0x80 && cp <= 0x9F)
					c1 = 1;
			}
		} else {
			free(b);
		}
	}
	if (c1) {
		struct fb_buf o = {0};

		for (size_t i = 0; i < n;) {
			uint32_t cp;
			size_t k = utf8_dec(u + i, &cp);
			char tmp[4];

			if (cp >= 0x80 && cp <= 0x9F && cp1252[cp - 0x80]) {
				size_t m = fr_feed_utf8(cp1252[cp - 0x80], tmp);

				if (fr_fb_add(&o, tmp, m) != 0)
					p->oom = 1;
			} else if (fr_fb_add(&o, s + i, k) != 0) {
				p->oom = 1;
			}
			i += k;
		}
		if (o.p) {
			free(s);
			s = o.p;
		}
	}
	return s;
}

/* urljoin(base, uri), as feedparser's _urljoin (no base: uri). */
static char *
urljoin(struct fpx *p, const char *base, const char *uri)
{
	char *r;

	if (!base || !*base)
		return xstrdup(p, uri);
	if (!uri || !*uri)
		return xstrdup(p, base);
	r = fr_feed_resolve(base, uri);
	if (!r)
		p->oom = 1;
	return r;
}

static int
scheme_acceptable(const char *u)
{
	return fr_feed_uri_scheme_ok(u);
}

/* make_safe_absolute_uri(base, rel) */
static char *
safe_abs(struct fpx *p, const char *base, const char *rel)
{
	char *r;

	if (!base || !*base)
		return xstrdup(p, rel ? rel : "");
	if (!rel || !*rel)
		return xstrdup(p, scheme_acceptable(base) ? base : "");
	r = urljoin(p, base, rel);
	if (r && !scheme_acceptable(r)) {
		free(r);
		return xstrdup(p, "");
	}
	return r;
}

static int
in_set(const char *s, const char *const *set)
{
	for (; *set; set++)
		if (**set == *s && !strcmp(s, *set))
			return 1;
	return 0;
}

static const char *const can_be_relative_uri[] = {"comments", "docs", "href", "icon", "id", "link",
                                                  "logo", "url", "wfw_comment", "wfw_commentrss",
                                                  NULL};
static const char *const can_contain_markup[] = {"content", "copyright", "description", "info",
                                                 "rights", "subtitle", "summary", "tagline",
                                                 "title", NULL};

/* HTML of a field: relative URIs resolved and sanitised (feedparser's
 * resolve_relative_uris and _sanitize_html). Takes s. */
static char *
clean_html(struct fpx *p, char *s)
{
	char *r;

	if (!strchr(s, '<') && !strchr(s, '&')) {
		/* nothing to clean: stripped, CRLF as LF */
		size_t w = 0, n = strlen(s), a = 0;

		while (a < n && (s[a] == ' ' || s[a] == '\t' || s[a] == '\n' || s[a] == '\r'))
			a++;
		while (n > a && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' || s[n - 1] == '\r'))
			n--;
		for (size_t i = a; i < n; i++) {
			if (s[i] == '\r' && i + 1 < n && s[i + 1] == '\n')
				continue;
			s[w++] = s[i];
		}
		s[w] = '\0';
		return s;
	}
	r = fr_feed_sanitize_html_r(&p->san, s, strlen(s), p->baseuri, 1 | FEED_SAN_KEEPREFS);
	free(s);
	if (!r)
		p->oom = 1;
	return r;
}

/* ---- pop: feedparser's _FeedParserMixin.pop ---- */

static int dm_get(struct fpx *p, const char *k);
static void dm_set(struct fpx *p, const char *k, int depth);

/* Returns the element's text (malloc'd) or NULL when the top of the stack
 * is not element. */
static char *
pop_ex(struct fpx *p, const char *element, int strip)
{
	struct elem e;
	struct fb_buf out = {0};
	char *output;
	size_t a, b;
	char el[64];

	if (!p->n_stack || strcmp(top(p)->name, element))
		return NULL;
	e = p->stack[--p->n_stack];
	copy_str(el, sizeof(el), element);
	if (e.replaced) {
		output = e.replaced;
		e.replaced = NULL;
	} else {
		a = 0;
		b = e.pieces.n;
		if (p->version && !strcmp(p->version, "atom10") && p->cp.active && p->cp.type &&
		    !strcmp(p->cp.type, "application/xhtml+xml")) {
			while (b - a > 1 && blank_str(e.pieces.p[b - 1]))
				b--;
			while (b - a > 1 && blank_str(e.pieces.p[a]))
				a++;
			if (b > a && (!strcmp(e.pieces.p[a], "<div>") || !strncmp(e.pieces.p[a], "<div ", 5)) &&
			    !strcmp(e.pieces.p[b - 1], "</div>")) {
				int depth = 0, broke = 0;

				for (size_t i = a; i < b - 1; i++) {
					const char *pc = e.pieces.p[i];
					size_t pn = strlen(pc);

					if (!strncmp(pc, "</", 2)) {
						depth--;
						if (depth == 0) {
							broke = 1;
							break;
						}
					} else if (pc[0] == '<' && !(pn >= 2 && !strcmp(pc + pn - 2, "/>"))) {
						depth++;
					}
				}
				if (!broke) {
					a++;
					b--;
				}
			}
		}
		for (size_t i = a; i < b; i++)
			if (fr_fb_add(&out, e.pieces.p[i], strlen(e.pieces.p[i])) != 0)
				p->oom = 1;
		output = out.p ? out.p : xstrdup(p, "");
	}
	elem_free(&e);
	if (!output)
		return NULL;
	if (strip) {
		char *t = strip_dup(p, output);

		free(output);
		output = t;
		if (!output)
			return NULL;
	}
	if (!e.expecting)
		return output;
	if (p->cp.active && p->cp.base64) {
		char *d = fr_feed_base64(output, strlen(output));

		if (d && fr_feed_utf8_valid(d, strlen(d))) {
			free(output);
			output = d;
		} else {
			free(d);
		}
	}
	if (in_set(el, can_be_relative_uri) && *output && (strcmp(el, "id") || p->guidislink)) {
		char *r = urljoin(p, p->baseuri, output);

		if (r) {
			free(output);
			output = r;
		}
	}
	if (!(p->version && !strncmp(p->version, "atom", 4)) && p->cp.active && p->cp.type &&
	    !strcmp(p->cp.type, "text/plain") && looks_like_html(output)) {
		free(p->cp.type);
		p->cp.type = xstrdup(p, "text/html");
	}
	p->cp.base64 = 0;
	{
		const char *t = p->cp.active && p->cp.type ? p->cp.type : "text/html";
		char *mt = map_content_type(p, t);
		int htmlish = is_html_type(mt);

		free(mt);
		if (htmlish && in_set(el, can_contain_markup)) {
			output = clean_html(p, output);
			if (!output)
				return NULL;
		}
	}
	output = repair_text(p, output);
	if (!strcmp(el, "category") || !strcmp(el, "tags") || !strcmp(el, "itunes_keywords"))
		return output;
	if (!strcmp(el, "title") && p->title_depth > -1 && p->title_depth <= p->depth)
		return output;
	if (p->inentry && !p->insource) {
		jo *entry = p->cur_entry;

		if (!entry)
			return output;
		if (!strcmp(el, "content")) {
			jo *list = fpd_setdefault(entry, "content", json_object_new_array());

			if (list && json_object_is_type(list, json_type_array))
				json_object_array_add(list, cp_dict(&p->cp, output));
		} else if (!strcmp(el, "link")) {
			if (!p->inimage) {
				/* "?a=1&amp;b=2" and "&b;=2" back to "&b=2" */
				char *w = output, *r = output;
				jo *links, *last;

				while (*r) {
					if (!strncmp(r, "&amp;", 5)) {
						*w++ = '&';
						r += 5;
					} else {
						*w++ = *r++;
					}
				}
				*w = '\0';
				for (r = w = output; *r;) {
					if (*r == '&' && word_char(r[1])) {
						const char *q = r + 1;

						while (word_char(*q) && (unsigned char)*q < 0x80)
							q++;
						if (*q == ';' && q > r + 1) {
							size_t n = (size_t)(q - r);

							memmove(w, r, n);
							w += n;
							r = (char *)q + 1;
							continue;
						}
					}
					*w++ = *r++;
				}
				*w = '\0';
				fpd_set(entry, "link", jstr(output));
				links = fpd_get(entry, "links");
				last = arr_last(links);
				if (*output && last)
					fpd_set(last, "href", jstr(output));
			}
		} else {
			const char *key = !strcmp(el, "description") ? "summary" : el;
			int old = dm_get(p, key);
			char dk[80];

			if (old < 0 || p->depth <= old) {
				dm_set(p, key, p->depth);
				fpd_set(entry, key, jstr(output));
			}
			if (p->incontent) {
				snprintf(dk, sizeof(dk), "%s_detail", key);
				fpd_set(entry, dk, cp_dict(&p->cp, output));
			}
		}
	} else if (p->infeed || p->insource) {
		jo *ctx = get_context(p);
		const char *key = !strcmp(el, "description") ? "subtitle" : el;

		fpd_set(ctx, key, jstr(output));
		if (!strcmp(key, "link")) {
			char *w = output, *r = output;
			jo *last;

			while (*r) {
				if (*r == '&' && word_char(r[1])) {
					const char *q = r + 1;

					while (word_char(*q) && (unsigned char)*q < 0x80)
						q++;
					if (*q == ';' && q > r + 1) {
						size_t n = (size_t)(q - r);

						memmove(w, r, n);
						w += n;
						r = (char *)q + 1;
						continue;
					}
				}
				*w++ = *r++;
			}
			*w = '\0';
			fpd_set(ctx, "link", jstr(output));
			last = arr_last(fpd_get(ctx, "links"));
			if (last)
				fpd_set(last, "href", jstr(output));
		} else if (p->incontent) {
			char dk[80];

			snprintf(dk, sizeof(dk), "%s_detail", key);
			fpd_set(ctx, dk, cp_dict(&p->cp, output));
		}
	}
	return output;
}

static char *
pop(struct fpx *p, const char *element)
{
	return pop_ex(p, element, 1);
}

static void
pop_free(struct fpx *p, const char *element)
{
	free(pop(p, element));
}

static int
dm_get(struct fpx *p, const char *k)
{
	for (size_t i = 0; i < p->n_dm; i++)
		if (!strcmp(p->dm[i].key, k))
			return p->dm[i].depth;
	return -1;
}

static void
dm_set(struct fpx *p, const char *k, int depth)
{
	for (size_t i = 0; i < p->n_dm; i++)
		if (!strcmp(p->dm[i].key, k)) {
			p->dm[i].depth = depth;
			return;
		}
	if (p->n_dm == p->cap_dm) {
		size_t nc = p->cap_dm ? p->cap_dm * 2 : 8;
		struct depthmap *n = realloc(p->dm, nc * sizeof(*n));

		if (!n) {
			p->oom = 1;
			return;
		}
		p->dm = n;
		p->cap_dm = nc;
	}
	p->dm[p->n_dm].key = xstrdup(p, k);
	if (!p->dm[p->n_dm].key)
		return;
	p->dm[p->n_dm++].depth = depth;
}

static void
dm_clear(struct fpx *p)
{
	for (size_t i = 0; i < p->n_dm; i++)
		free(p->dm[i].key);
	p->n_dm = 0;
}

static void
push_content(struct fpx *p, const char *tag, const struct attrs *a, const char *deftype,
             int expecting)
{
	const char *t = attr_get(a, "type");
	const char *mode = attr_get(a, "mode");

	p->incontent++;
	cp_clear(&p->cp);
	p->cp.active = 1;
	p->cp.type = map_content_type(p, t ? t : deftype);
	if (p->lang)
		for (char *q = p->lang; *q; q++)
			if (*q == '_')
				*q = '-';
	p->cp.has_language = 1;
	p->cp.language = xstrdup(p, p->lang);
	p->cp.base = xstrdup(p, p->baseuri ? p->baseuri : "");
	if (mode && !strcmp(mode, "base64"))
		p->cp.base64 = 1;
	else if (!p->cp.type || !strncmp(p->cp.type, "text/", 5))
		p->cp.base64 = 0;
	else {
		size_t n = strlen(p->cp.type);

		p->cp.base64 = !(n >= 4 && (!strcmp(p->cp.type + n - 4, "+xml") ||
		                            !strcmp(p->cp.type + n - 4, "/xml")));
	}
	push(p, tag, expecting);
}

static char *
pop_content(struct fpx *p, const char *tag)
{
	char *v = pop(p, tag);

	p->incontent--;
	cp_clear(&p->cp);
	return v;
}

/* ---- authors ---- */

static void
sync_author_detail(struct fpx *p, const char *key)
{
	jo *ctx = get_context(p), *list, *detail, *fresh = NULL;
	char ks[64], kd[64];

	snprintf(ks, sizeof(ks), "%ss", key);
	snprintf(kd, sizeof(kd), "%s_detail", key);
	list = fpd_get(ctx, ks);
	detail = arr_last(list);
	if (detail && json_object_object_length(detail)) {
		const char *name = fpd_str(detail, "name"), *email = fpd_str(detail, "email");

		if (name && *name && email && *email) {
			size_t n = strlen(name) + strlen(email) + 4;
			char *s = malloc(n);

			if (!s) {
				p->oom = 1;
				return;
			}
			snprintf(s, n, "%s (%s)", name, email);
			fpd_set(ctx, key, jstr(s));
			free(s);
		} else if (name && *name) {
			fpd_set(ctx, key, jstr(name));
		} else if (email && *email) {
			fpd_set(ctx, key, jstr(email));
		}
		return;
	}
	{
		const char *author0 = fpd_str(ctx, key);
		char *author, *email = NULL;
		regmatch_t m[1];

		if (!author0 || !*author0)
			return;
		if (!detail) {
			fresh = json_object_new_object();
			detail = fresh;
		}
		author = xstrdup(p, author0);
		if (!author) {
			json_object_put(fresh);
			return;
		}
		if (p->re_ok && regexec(&p->email_re, author, 1, m, 0) == 0) {
			size_t en = (size_t)(m[0].rm_eo - m[0].rm_so);
			static const char *const junk[] = {"()", "<>", "&lt;&gt;"};

			email = malloc(en + 1);
			if (!email) {
				p->oom = 1;
				free(author);
				json_object_put(fresh);
				return;
			}
			memcpy(email, author + m[0].rm_so, en);
			email[en] = '\0';
			/* author.replace(email, '') and the empty brackets */
			for (char *q; (q = strstr(author, email)) != NULL;)
				memmove(q, q + en, strlen(q + en) + 1);
			for (size_t j = 0; j < 3; j++) {
				size_t jn = strlen(junk[j]);

				for (char *q; (q = strstr(author, junk[j])) != NULL;)
					memmove(q, q + jn, strlen(q + jn) + 1);
			}
			{
				char *t = strip_dup(p, author);

				free(author);
				author = t;
			}
			if (author && author[0] == '(')
				memmove(author, author + 1, strlen(author));
			if (author && *author && author[strlen(author) - 1] == ')')
				author[strlen(author) - 1] = '\0';
			if (author) {
				char *t = strip_dup(p, author);

				free(author);
				author = t;
			}
		}
		if ((author && *author) || email) {
			jo *d;

			if (fresh) {
				fpd_setdefault(ctx, kd, fresh);
				fresh = NULL;
			} else {
				fpd_setdefault(ctx, kd, json_object_get(detail));
			}
			d = detail;
			if (author && *author)
				fpd_set(d, "name", jstr(author));
			if (email)
				fpd_set(d, "email", jstr(email));
		}
		json_object_put(fresh);
		free(author);
		free(email);
	}
}

static void
save_author(struct fpx *p, const char *key, const char *value, const char *prefix)
{
	jo *ctx = get_context(p), *d, *list;
	char kd[64];

	snprintf(kd, sizeof(kd), "%s_detail", prefix);
	d = fpd_setdefault(ctx, kd, json_object_new_object());
	fpd_set(d, key, jstr(value));
	sync_author_detail(p, "author");
	ctx = get_context(p);
	list = fpd_get(ctx, "authors");
	if (list && !json_object_is_type(list, json_type_array))
		return;
	if (!list) {
		list = json_object_new_array();
		json_object_array_add(list, json_object_new_object());
		fpd_set(ctx, "authors", list);
	}
	if (arr_last(list))
		fpd_set(arr_last(list), key, jstr(value));
}

static void
save_contributor(struct fpx *p, const char *key, const char *value)
{
	jo *ctx = get_context(p), *list = fpd_get(ctx, "contributors");

	if (list && !json_object_is_type(list, json_type_array))
		return;
	if (!list) {
		list = json_object_new_array();
		json_object_array_add(list, json_object_new_object());
		fpd_set(ctx, "contributors", list);
	}
	if (arr_last(list))
		fpd_set(arr_last(list), key, jstr(value));
}

/* ---- tags ---- */

static void
add_tag(struct fpx *p, const char *term, const char *scheme, const char *label)
{
	jo *ctx = get_context(p), *tags, *v;
	size_t n;

	tags = fpd_setdefault(ctx, "tags", json_object_new_array());
	if ((!term || !*term) && (!scheme || !*scheme) && (!label || !*label))
		return;
	if (!tags || !json_object_is_type(tags, json_type_array))
		return;
	v = json_object_new_object();
	json_object_object_add(v, "term", jstr(term));
	json_object_object_add(v, "scheme", jstr(scheme));
	json_object_object_add(v, "label", jstr(label));
	n = json_object_array_length(tags);
	for (size_t i = 0; i < n; i++)
		if (json_object_equal(json_object_array_get_idx(tags, i), v)) {
			json_object_put(v);
			return;
		}
	json_object_array_add(tags, v);
}

static void
end_category(struct fpx *p)
{
	char *value = pop(p, "category");
	jo *ctx, *tags, *last;

	if (!value || !*value) {
		free(value);
		return;
	}
	ctx = get_context(p);
	tags = fpd_get(ctx, "tags");
	last = arr_last(tags);
	if (last && !fpd_str(last, "term"))
		fpd_set(last, "term", jstr(value));
	else if (last && !*fpd_str(last, "term"))
		fpd_set(last, "term", jstr(value));
	else
		add_tag(p, value, NULL, NULL);
	free(value);
}

static void
split_tags(struct fpx *p, char *v, const char *scheme)
{
	char *save = NULL;

	if (!v)
		return;
	for (char *t = strtok_r(v, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		char *s = strip_dup(p, t);

		if (s && *s)
			add_tag(p, s, scheme, NULL);
		free(s);
	}
}

/* ---- georss ---- */

static jo *
coords(const char *v, int swap, int dims, size_t *count)
{
	jo *list = json_object_new_array();
	double vals[3];
	int k = 0, want = dims == 3 ? 3 : 2;
	char *s = strdup(v ? v : ""), *save = NULL;

	*count = 0;
	if (!s || !list) {
		free(s);
		json_object_put(list);
		return NULL;
	}
	for (char *q = s; *q; q++)
		if (*q == ',')
			*q = ' ';
	for (char *t = strtok_r(s, " \t\r\n", &save); t; t = strtok_r(NULL, " \t\r\n", &save)) {
		char *end;
		double d = strtod(t, &end);

		if (*end) {
			json_object_put(list);
			free(s);
			return NULL;
		}
		vals[k++] = d;
		if (k == want) {
			jo *pt = json_object_new_array();

			json_object_array_add(pt, json_object_new_double(swap ? vals[1] : vals[0]));
			json_object_array_add(pt, json_object_new_double(swap ? vals[0] : vals[1]));
			if (want == 3)
				json_object_array_add(pt, json_object_new_double(vals[2]));
			json_object_array_add(list, pt);
			(*count)++;
			k = 0;
		}
	}
	free(s);
	return list;
}

static void
save_where(struct fpx *p, const char *type, jo *coordinates)
{
	jo *ctx = get_context(p), *w = fpd_get(ctx, "where");

	if (!w || !json_object_is_type(w, json_type_object)) {
		fpd_set(ctx, "where", json_object_new_object());
		w = fpd_get(ctx, "where");
	}
	json_object_object_add(w, "type", jstr(type));
	json_object_object_add(w, "coordinates", coordinates);
}

static void
georss_end(struct fpx *p, const char *kind)
{
	char *v = pop(p, "geometry");
	size_t n = 0;
	jo *c;

	if (!v)
		return;
	c = coords(v, 1, 2, &n);
	free(v);
	if (!c)
		return;
	if (!strcmp(kind, "point")) {
		jo *first = n ? json_object_get(json_object_array_get_idx(c, 0)) : NULL;

		json_object_put(c);
		if (first)
			save_where(p, "Point", first);
	} else if (!strcmp(kind, "line")) {
		save_where(p, "LineString", c);
	} else if (!strcmp(kind, "polygon")) {
		jo *ring;

		if (n < 4) {
			json_object_put(c);
			return;
		}
		ring = json_object_new_array();
		json_object_array_add(ring, c);
		save_where(p, "Polygon", ring);
	} else {
		save_where(p, "Box", c);
	}
}

/* ---- element handlers ---- */

enum h {
	H_NONE,
	H_ABSTRACT, H_AUTHOR, H_BODY, H_CATEGORY,
	H_CC_LICENSE, H_CHANNEL, H_CONTENT, H_CONTENT_ENCODED, H_CONTRIBUTOR, H_CREATED,
	H_CREATIVECOMMONS_LICENSE, H_DC_CONTRIBUTOR, H_DCTERMS_VALID, H_DESCRIPTION, H_EMAIL,
	H_ENCLOSURE, H_ENTRY, H_EXPIRATIONDATE, H_FEED, H_GENERATOR, H_GEORSS_BOX, H_GEORSS_LINE,
	H_GEORSS_POINT, H_GEORSS_POLYGON, H_GUID, H_HEIGHT, H_IMAGE, H_INFO, H_ITUNES_BLOCK,
	H_ITUNES_CATEGORY, H_ITUNES_EXPLICIT, H_ITUNES_IMAGE, H_ITUNES_KEYWORDS, H_ITUNES_OWNER,
	H_LANGUAGE, H_LINK, H_MEDIA_CATEGORY, H_MEDIA_CONTENT, H_MEDIA_CREDIT, H_MEDIA_GROUP,
	H_MEDIA_KEYWORDS, H_MEDIA_LICENSE, H_MEDIA_PLAYER, H_MEDIA_RATING, H_MEDIA_RESTRICTION,
	H_MEDIA_THUMBNAIL, H_MEDIA_TITLE, H_NAME, H_NEWLOCATION, H_PSC_CHAPTER, H_PSC_CHAPTERS,
	H_PUBLISHED, H_RIGHTS, H_RSS, H_SOURCE, H_SUBTITLE, H_SUMMARY, H_TAGS, H_TEXTINPUT,
	H_TITLE, H_UPDATED, H_URL, H_WEBMASTER, H_WHERE, H_WIDTH,
};

/* Start and end handlers by feedparser's method name suffix.
 * NOTE: keep sorted (bsearch); start/end: which of _start_X/_end_X exist. */
static const struct handler {
	const char *name;
	unsigned char h, start, end;
} handlers[] = {
    {"abstract", H_ABSTRACT, 1, 1},
    {"author", H_AUTHOR, 1, 1},
    {"body", H_BODY, 1, 1},
    {"category", H_CATEGORY, 1, 1},
    {"cc_license", H_CC_LICENSE, 1, 0},
    {"channel", H_CHANNEL, 1, 1},
    {"content", H_CONTENT, 1, 1},
    {"content_encoded", H_CONTENT_ENCODED, 1, 1},
    {"contributor", H_CONTRIBUTOR, 1, 1},
    {"copyright", H_RIGHTS, 1, 1},
    {"created", H_CREATED, 1, 1},
    {"creativecommons_license", H_CREATIVECOMMONS_LICENSE, 1, 1},
    {"dc_author", H_AUTHOR, 1, 1},
    {"dc_contributor", H_DC_CONTRIBUTOR, 1, 1},
    {"dc_creator", H_AUTHOR, 1, 1},
    {"dc_date", H_UPDATED, 1, 1},
    {"dc_description", H_DESCRIPTION, 1, 1},
    {"dc_language", H_LANGUAGE, 1, 1},
    {"dc_publisher", H_WEBMASTER, 1, 1},
    {"dc_rights", H_RIGHTS, 1, 1},
    {"dc_subject", H_CATEGORY, 1, 1},
    {"dc_title", H_TITLE, 1, 1},
    {"dcterms_created", H_CREATED, 1, 1},
    {"dcterms_issued", H_PUBLISHED, 1, 1},
    {"dcterms_modified", H_UPDATED, 1, 1},
    {"dcterms_valid", H_DCTERMS_VALID, 1, 1},
    {"description", H_DESCRIPTION, 1, 1},
    {"email", H_EMAIL, 1, 1},
    {"enclosure", H_ENCLOSURE, 1, 0},
    {"entry", H_ENTRY, 1, 1},
    {"expirationdate", H_EXPIRATIONDATE, 1, 1},
    {"feed", H_FEED, 1, 1},
    {"feedburner_browserfriendly", H_INFO, 1, 1},
    {"fullitem", H_CONTENT_ENCODED, 1, 1},
    {"generator", H_GENERATOR, 1, 1},
    {"georss_box", H_GEORSS_BOX, 1, 1},
    {"georss_line", H_GEORSS_LINE, 1, 1},
    {"georss_point", H_GEORSS_POINT, 1, 1},
    {"georss_polygon", H_GEORSS_POLYGON, 1, 1},
    {"georss_where", H_WHERE, 1, 1},
    {"guid", H_GUID, 1, 1},
    {"height", H_HEIGHT, 1, 1},
    {"homepage", H_URL, 1, 1},
    {"id", H_GUID, 1, 1},
    {"image", H_IMAGE, 1, 1},
    {"info", H_INFO, 1, 1},
    {"issued", H_PUBLISHED, 1, 1},
    {"item", H_ENTRY, 1, 1},
    {"itunes_author", H_AUTHOR, 1, 1},
    {"itunes_block", H_ITUNES_BLOCK, 0, 1},
    {"itunes_category", H_ITUNES_CATEGORY, 1, 1},
    {"itunes_email", H_EMAIL, 1, 1},
    {"itunes_explicit", H_ITUNES_EXPLICIT, 0, 1},
    {"itunes_image", H_ITUNES_IMAGE, 1, 0},
    {"itunes_keywords", H_ITUNES_KEYWORDS, 0, 1},
    {"itunes_link", H_ITUNES_IMAGE, 1, 0},
    {"itunes_name", H_NAME, 1, 1},
    {"itunes_owner", H_ITUNES_OWNER, 1, 1},
    {"itunes_subtitle", H_SUBTITLE, 1, 1},
    {"itunes_summary", H_SUMMARY, 1, 1},
    {"keywords", H_CATEGORY, 1, 1},
    {"language", H_LANGUAGE, 1, 1},
    {"lastbuilddate", H_UPDATED, 1, 1},
    {"link", H_LINK, 1, 1},
    {"managingeditor", H_AUTHOR, 1, 1},
    {"media_category", H_MEDIA_CATEGORY, 1, 1},
    {"media_content", H_MEDIA_CONTENT, 1, 0},
    {"media_credit", H_MEDIA_CREDIT, 1, 1},
    {"media_description", H_DESCRIPTION, 1, 1},
    {"media_group", H_MEDIA_GROUP, 1, 0},
    {"media_keywords", H_MEDIA_KEYWORDS, 0, 1},
    {"media_license", H_MEDIA_LICENSE, 1, 1},
    {"media_player", H_MEDIA_PLAYER, 1, 1},
    {"media_rating", H_MEDIA_RATING, 1, 1},
    {"media_restriction", H_MEDIA_RESTRICTION, 1, 1},
    {"media_thumbnail", H_MEDIA_THUMBNAIL, 1, 1},
    {"media_title", H_MEDIA_TITLE, 1, 1},
    {"modified", H_UPDATED, 1, 1},
    {"name", H_NAME, 1, 1},
    {"newlocation", H_NEWLOCATION, 1, 1},
    {"psc_chapter", H_PSC_CHAPTER, 1, 0},
    {"psc_chapters", H_PSC_CHAPTERS, 1, 1},
    {"pubdate", H_PUBLISHED, 1, 1},
    {"published", H_PUBLISHED, 1, 1},
    {"rights", H_RIGHTS, 1, 1},
    {"rss", H_RSS, 1, 0},
    {"source", H_SOURCE, 1, 1},
    {"subtitle", H_SUBTITLE, 1, 1},
    {"summary", H_SUMMARY, 1, 1},
    {"tagline", H_SUBTITLE, 1, 1},
    {"tags", H_TAGS, 1, 1},
    {"textinput", H_TEXTINPUT, 1, 1},
    {"title", H_TITLE, 1, 1},
    {"updated", H_UPDATED, 1, 1},
    {"uri", H_URL, 1, 1},
    {"url", H_URL, 1, 1},
    {"webmaster", H_WEBMASTER, 1, 1},
    {"where", H_WHERE, 1, 1},
    {"width", H_WIDTH, 1, 1},
    {"xhtml_body", H_BODY, 1, 1},
};

static int
cmp_handler(const void *k, const void *e)
{
	const unsigned char *a = k, *b = (const unsigned char *)((const struct handler *)e)->name;

	/* most probes differ in their first letter: no call for those */
	if (a[0] != b[0])
		return a[0] - b[0];
	return strcmp(k, ((const struct handler *)e)->name);
}

static const struct handler *
find_handler(const char *name)
{
	return bsearch(name, handlers, sizeof(handlers) / sizeof(handlers[0]), sizeof(handlers[0]),
	               cmp_handler);
}

int
fr_fpx_handlers_sorted(void)
{
	for (size_t i = 1; i < sizeof(handlers) / sizeof(handlers[0]); i++)
		if (strcmp(handlers[i - 1].name, handlers[i].name) >= 0)
			return 0;
	return 1;
}

static void start_h(struct fpx *p, int h, struct attrs *a, const char *name);
static void commit_entry(struct fpx *p);
static void end_h(struct fpx *p, int h);

static void
start_link(struct fpx *p, const struct attrs *a)
{
	jo *d = attrs_dict(a), *ctx, *links, *v;
	const char *rel, *href;
	int expecting = p->infeed || p->inentry || p->insource;

	if (!d) {
		p->oom = 1;
		return;
	}
	if (!json_object_object_get_ex(d, "rel", &v))
		json_object_object_add(d, "rel", jstr("alternate"));
	rel = json_object_get_string(json_object_object_get(d, "rel"));
	if (!json_object_object_get_ex(d, "type", &v))
		json_object_object_add(d, "type", jstr(
		                                      !strcmp(rel, "self") ? "application/atom+xml" : "text/html"));
	ctx = get_context(p);
	/* _enforce_href: url, uri, href -> href */
	{
		jo *h = NULL;

		if (json_object_object_get_ex(d, "url", &v))
			h = v;
		else if (json_object_object_get_ex(d, "uri", &v))
			h = v;
		else if (json_object_object_get_ex(d, "href", &v))
			h = v;
		if (h && *json_object_get_string(h)) {
			char *hs = xstrdup(p, json_object_get_string(h));

			json_object_object_del(d, "url");
			json_object_object_del(d, "uri");
			if (hs)
				json_object_object_add(d, "href", jstr(hs));
			free(hs);
		}
	}
	href = json_object_object_get_ex(d, "href", &v) ? json_object_get_string(v) : NULL;
	if (href) {
		char *r = urljoin(p, p->baseuri, href);

		if (r) {
			json_object_object_add(d, "href", jstr(r));
			free(r);
		}
		href = json_object_get_string(json_object_object_get(d, "href"));
	}
	links = fpd_setdefault(ctx, "links", json_object_new_array());
	if (!(p->inentry && p->inimage) && links && json_object_is_type(links, json_type_array)) {
		json_object_array_add(links, json_object_get(d));
	}
	if (href) {
		const char *type = json_object_get_string(json_object_object_get(d, "type"));
		char *mt = map_content_type(p, type);

		if (!strcmp(json_object_get_string(json_object_object_get(d, "rel")), "alternate") &&
		    is_html_type(mt))
			fpd_set(ctx, "link", jstr(href));
		free(mt);
	} else {
		push(p, "link", expecting);
	}
	json_object_put(d);
}

static void
start_author(struct fpx *p)
{
	jo *ctx, *list;

	p->inauthor = 1;
	push(p, "author", 1);
	ctx = get_context(p);
	list = fpd_setdefault(ctx, "authors", json_object_new_array());
	if (list && json_object_is_type(list, json_type_array))
		json_object_array_add(list, json_object_new_object());
}

static void
start_category(struct fpx *p, const struct attrs *a)
{
	const char *scheme = attr_get(a, "scheme");

	if (!scheme)
		scheme = attr_get(a, "domain");
	add_tag(p, attr_get(a, "term"), scheme, attr_get(a, "label"));
	push(p, "category", 1);
}

static void
start_description(struct fpx *p, const struct attrs *a, const char *deftype)
{
	jo *ctx = get_context(p);

	if (fpd_has(ctx, "summary") && !p->has_content) {
		p->summary_key = "content";
		start_h(p, H_CONTENT, (struct attrs *)a, "content");
	} else {
		push_content(p, "description", a, deftype, p->infeed || p->inentry || p->insource);
	}
}

static void
end_description(struct fpx *p)
{
	if (p->summary_key && !strcmp(p->summary_key, "content"))
		end_h(p, H_CONTENT);
	else
		free(pop_content(p, "description"));
	p->summary_key = NULL;
}

static void
cdf_common(struct fpx *p, const struct attrs *a)
{
	const char *v;

	if ((v = attr_get(a, "lastmod")) != NULL) {
		struct attrs none = {NULL, 0};

		start_h(p, H_UPDATED, &none, "modified");
		if (top(p)) {
			free(top(p)->replaced);
			top(p)->replaced = xstrdup(p, v);
		}
		end_h(p, H_UPDATED);
	}
	if ((v = attr_get(a, "href")) != NULL) {
		struct attrs none = {NULL, 0};

		start_h(p, H_LINK, &none, "link");
		if (top(p)) {
			free(top(p)->replaced);
			top(p)->replaced = xstrdup(p, v);
		}
		end_h(p, H_LINK);
	}
}

static void
start_media_dict(struct fpx *p, const char *key, const struct attrs *a, const char *pushname)
{
	jo *ctx = get_context(p);

	fpd_setdefault(ctx, key, attrs_dict(a));
	push(p, pushname, 1);
}

static void
end_media_dict(struct fpx *p, const char *key, const char *popname)
{
	char *v = pop(p, popname);
	jo *ctx = get_context(p), *d;

	if (v && !blank_str(v)) {
		d = fpd_get(ctx, key);
		if (d && json_object_is_type(d, json_type_object)) {
			if (!strcmp(key, "media_restriction")) {
				jo *l = json_object_new_array();
				char *save = NULL;
				size_t n = strlen(v);

				/* [cc.strip().lower() for cc in s.split(' ')] */
				for (size_t i = 0; i <= n;) {
					size_t j = i;
					char *s;

					while (j < n && v[j] != ' ')
						j++;
					s = malloc(j - i + 1);
					if (s) {
						memcpy(s, v + i, j - i);
						s[j - i] = '\0';
						{
							char *t = strip_dup(p, s);

							if (t) {
								for (char *q = t; *q; q++)
									if (*q >= 'A' && *q <= 'Z')
										*q = (char)(*q - 'A' + 'a');
								json_object_array_add(l, jstr(t));
							}
							free(t);
						}
						free(s);
					}
					i = j + 1;
				}
				(void)save;
				raw_set(d, "content", l);
			} else {
				raw_set(d, "content", jstr(v));
			}
		}
	}
	free(v);
}

static void
start_h(struct fpx *p, int h, struct attrs *a, const char *name)
{
	jo *ctx;
	const char *v;

	switch (h) {
	case H_RSS: {
		if (!p->version || strncmp(p->version, "rss", 3)) {
			const char *av = attr_get(a, "version");
			const char *ver = "rss";

			if (av && !strcmp(av, "0.91"))
				ver = "rss091u";
			else if (av && !strcmp(av, "0.92"))
				ver = "rss092";
			else if (av && !strcmp(av, "0.93"))
				ver = "rss093";
			else if (av && !strcmp(av, "0.94"))
				ver = "rss094";
			else if (av && !strncmp(av, "2.", 2))
				ver = "rss20";
			free(p->version);
			p->version = xstrdup(p, ver);
		}
		break;
	}
	case H_CHANNEL:
		p->infeed = 1;
		cdf_common(p, a);
		break;
	case H_FEED:
		p->infeed = 1;
		if (!p->version) {
			const char *av = attr_get(a, "version");
			const char *ver = "atom";

			if (av && !strcmp(av, "0.1"))
				ver = "atom01";
			else if (av && !strcmp(av, "0.2"))
				ver = "atom02";
			else if (av && !strcmp(av, "0.3"))
				ver = "atom03";
			p->version = xstrdup(p, ver);
		}
		break;
	case H_IMAGE:
		ctx = get_context(p);
		if (!p->inentry)
			fpd_setdefault(ctx, "image", json_object_new_object());
		p->inimage = 1;
		p->title_depth = -1;
		push(p, "image", 0);
		break;
	case H_TEXTINPUT:
		ctx = get_context(p);
		fpd_setdefault(ctx, "textinput", json_object_new_object());
		p->intextinput = 1;
		p->title_depth = -1;
		push(p, "textinput", 0);
		break;
	case H_AUTHOR:
		start_author(p);
		break;
	case H_CONTRIBUTOR: {
		jo *l;

		p->incontributor = 1;
		ctx = get_context(p);
		l = fpd_setdefault(ctx, "contributors", json_object_new_array());
		if (l && json_object_is_type(l, json_type_array))
			json_object_array_add(l, json_object_new_object());
		push(p, "contributor", 0);
		break;
	}
	case H_DC_CONTRIBUTOR: {
		jo *l;

		p->incontributor = 1;
		ctx = get_context(p);
		l = fpd_setdefault(ctx, "contributors", json_object_new_array());
		if (l && json_object_is_type(l, json_type_array))
			json_object_array_add(l, json_object_new_object());
		push(p, "name", 0);
		break;
	}
	case H_NAME:
		push(p, "name", 0);
		break;
	case H_WIDTH:
		push(p, "width", 0);
		break;
	case H_HEIGHT:
		push(p, "height", 0);
		break;
	case H_URL:
		push(p, "href", 1);
		break;
	case H_EMAIL:
		push(p, "email", 0);
		break;
	case H_SUBTITLE:
		push_content(p, "subtitle", a, "text/plain", 1);
		break;
	case H_RIGHTS:
		push_content(p, "rights", a, "text/plain", 1);
		break;
	case H_ENTRY: {
		jo *e = json_object_new_object();

		/* an entry opened inside an entry: the outer one can no longer
		 * change (feedparser's entries[-1] is the new one) */
		commit_entry(p);
		p->cur_entry = e;
		if (!e)
			p->oom = 1;
		dm_clear(p);
		push(p, "item", 0);
		p->inentry = 1;
		p->guidislink = 0;
		p->title_depth = -1;
		v = attr_get(a, "rdf:about");
		if (v)
			fpd_set(get_context(p), "id", jstr(v));
		cdf_common(p, a);
		break;
	}
	case H_LANGUAGE:
		push(p, "language", 1);
		break;
	case H_WEBMASTER:
		push(p, "publisher", 1);
		break;
	case H_PUBLISHED:
		push(p, "published", 1);
		break;
	case H_UPDATED:
		push(p, "updated", 1);
		break;
	case H_CREATED:
		push(p, "created", 1);
		break;
	case H_EXPIRATIONDATE:
		push(p, "expired", 1);
		break;
	case H_CATEGORY:
		start_category(p, a);
		break;
	case H_LINK:
		start_link(p, a);
		break;
	case H_GUID:
		v = attr_get(a, "ispermalink");
		p->guidislink = !v || !strcmp(v, "true");
		push(p, "id", 1);
		break;
	case H_TITLE:
		if (p->svg_ok)
			return; /* handled as inline markup by the caller */
		push_content(p, "title", a, "text/plain", p->infeed || p->inentry || p->insource);
		break;
	case H_MEDIA_TITLE:
		push_content(p, "title", a, "text/plain", p->infeed || p->inentry || p->insource);
		break;
	case H_DESCRIPTION:
		start_description(p, a, "text/html");
		break;
	case H_ABSTRACT:
		push_content(p, "description", a, "text/plain", p->infeed || p->inentry || p->insource);
		break;
	case H_INFO:
		push_content(p, "info", a, "text/plain", 1);
		break;
	case H_GENERATOR: {
		jo *d = attrs_dict(a);
		jo *hv;

		if (a->n) {
			const char *href = attr_get(a, "url");

			if (!href)
				href = attr_get(a, "uri");
			if (!href)
				href = attr_get(a, "href");
			if (href && *href) {
				char *r = urljoin(p, p->baseuri, href);

				json_object_object_del(d, "url");
				json_object_object_del(d, "uri");
				if (r)
					json_object_object_add(d, "href", jstr(r));
				free(r);
			} else if (json_object_object_get_ex(d, "href", &hv)) {
				(void)hv;
			}
		}
		fpd_set(get_context(p), "generator_detail", d);
		push(p, "generator", 1);
		break;
	}
	case H_SUMMARY:
		ctx = get_context(p);
		if (fpd_has(ctx, "summary") && !p->has_content) {
			p->summary_key = "content";
			start_h(p, H_CONTENT, a, "content");
		} else {
			p->summary_key = "summary";
			push_content(p, "summary", a, "text/plain", 1);
		}
		break;
	case H_ENCLOSURE: {
		jo *d = attrs_dict(a), *l;
		const char *href = attr_get(a, "url");

		if (!href)
			href = attr_get(a, "uri");
		if (!href)
			href = attr_get(a, "href");
		if (href && *href) {
			char *hs = xstrdup(p, href);

			json_object_object_del(d, "url");
			json_object_object_del(d, "uri");
			if (hs)
				json_object_object_add(d, "href", jstr(hs));
			free(hs);
		}
		json_object_object_add(d, "rel", jstr("enclosure"));
		l = fpd_setdefault(get_context(p), "links", json_object_new_array());
		if (l && json_object_is_type(l, json_type_array))
			json_object_array_add(l, d);
		else
			json_object_put(d);
		break;
	}
	case H_SOURCE:
		v = attr_get(a, "url");
		if (v)
			fpd_set(p->sourcedata, "href", jstr(v));
		push(p, "source", 1);
		p->insource = 1;
		p->title_depth = -1;
		break;
	case H_CONTENT:
		p->has_content = 1;
		push_content(p, "content", a, "text/plain", 1);
		v = attr_get(a, "src");
		if (v && *v) {
			free(p->cp.src);
			p->cp.src = xstrdup(p, v);
		}
		push(p, "content", 1);
		break;
	case H_BODY:
		push_content(p, "content", a, "application/xhtml+xml", 1);
		break;
	case H_CONTENT_ENCODED:
		p->has_content = 1;
		push_content(p, "content", a, "text/html", 1);
		break;
	case H_NEWLOCATION:
		push(p, "newlocation", 1);
		break;
	case H_TAGS:
		push(p, "tags", 1);
		break;
	case H_DCTERMS_VALID:
		push(p, "validity", 1);
		break;
	case H_ITUNES_OWNER:
		p->inpublisher = 1;
		push(p, "publisher", 0);
		break;
	case H_ITUNES_CATEGORY:
		add_tag(p, attr_get(a, "text"), "http://www.itunes.com/", NULL);
		push(p, "category", 1);
		break;
	case H_ITUNES_IMAGE: {
		const char *href = attr_get(a, "href");

		push(p, "itunes_image", 0);
		if (!href || !*href)
			href = attr_get(a, "url");
		if (href && *href) {
			jo *d = json_object_new_object();

			fpd_set(d, "href", jstr(href));
			fpd_set(get_context(p), "image", d);
		}
		break;
	}
	case H_MEDIA_CATEGORY: {
		/* attrs_d.setdefault('scheme', mrss category schema) */
		const char **kv = malloc((a->n + 1) * 2 * sizeof(*kv));
		struct attrs b;

		if (!kv) {
			p->oom = 1;
			break;
		}
		if (a->n) /* a->kv is NULL on an element without attributes */
			memcpy(kv, a->kv, a->n * 2 * sizeof(*kv));
		b.kv = kv;
		b.n = a->n;
		if (!attr_get(a, "scheme")) {
			kv[2 * a->n] = "scheme";
			kv[2 * a->n + 1] = "http://search.yahoo.com/mrss/category_schema";
			b.n++;
		}
		start_category(p, &b);
		free(kv);
		break;
	}
	case H_MEDIA_GROUP:
		break;
	case H_MEDIA_RATING:
		start_media_dict(p, "media_rating", a, "rating");
		break;
	case H_MEDIA_RESTRICTION:
		start_media_dict(p, "media_restriction", a, "restriction");
		break;
	case H_MEDIA_LICENSE:
		start_media_dict(p, "media_license", a, "license");
		break;
	case H_MEDIA_CREDIT: {
		jo *l = fpd_setdefault(get_context(p), "media_credit", json_object_new_array());

		if (l && json_object_is_type(l, json_type_array))
			json_object_array_add(l, attrs_dict(a));
		push(p, "credit", 1);
		break;
	}
	case H_MEDIA_CONTENT: {
		jo *l = fpd_setdefault(get_context(p), "media_content", json_object_new_array());

		if (l && json_object_is_type(l, json_type_array))
			json_object_array_add(l, attrs_dict(a));
		break;
	}
	case H_MEDIA_THUMBNAIL: {
		jo *l = fpd_setdefault(get_context(p), "media_thumbnail", json_object_new_array());

		push(p, "url", 1);
		if (l && json_object_is_type(l, json_type_array))
			json_object_array_add(l, attrs_dict(a));
		break;
	}
	case H_MEDIA_PLAYER:
		push(p, "media_player", 0);
		fpd_set(get_context(p), "media_player", attrs_dict(a));
		break;
	case H_CC_LICENSE: {
		jo *d = json_object_new_object(), *l;

		v = attr_get(a, "rdf:resource");
		fpd_set(d, "rel", jstr("license"));
		if (v && *v)
			fpd_set(d, "href", jstr(v));
		l = fpd_setdefault(get_context(p), "links", json_object_new_array());
		if (l && json_object_is_type(l, json_type_array))
			json_object_array_add(l, d);
		else
			json_object_put(d);
		break;
	}
	case H_CREATIVECOMMONS_LICENSE:
		push(p, "license", 1);
		break;
	case H_PSC_CHAPTERS:
		ctx = get_context(p);
		if (!fpd_has(ctx, "psc_chapters")) {
			jo *d = attrs_dict(a);

			p->psc_flag = 1;
			json_object_object_add(d, "chapters", json_object_new_array());
			fpd_set(ctx, "psc_chapters", d);
		}
		break;
	case H_PSC_CHAPTER:
		if (p->psc_flag) {
			jo *c = fpd_get(get_context(p), "psc_chapters"), *l;

			l = c ? fpd_get(c, "chapters") : NULL;
			if (l && json_object_is_type(l, json_type_array))
				json_object_array_add(l, attrs_dict(a));
		}
		break;
	case H_GEORSS_POINT:
	case H_GEORSS_LINE:
	case H_GEORSS_POLYGON:
	case H_GEORSS_BOX:
		push(p, "geometry", 0);
		fpd_set(get_context(p), "where", json_object_new_object());
		break;
	case H_WHERE:
		push(p, "where", 0);
		fpd_set(get_context(p), "where", json_object_new_object());
		break;
	default:
		(void)name;
		break;
	}
}

static void
end_h(struct fpx *p, int h)
{
	char *v;
	jo *ctx;

	switch (h) {
	case H_CHANNEL:
	case H_FEED:
		p->infeed = 0;
		break;
	case H_IMAGE:
		pop_free(p, "image");
		p->inimage = 0;
		break;
	case H_TEXTINPUT:
		pop_free(p, "textinput");
		p->intextinput = 0;
		break;
	case H_AUTHOR:
		pop_free(p, "author");
		p->inauthor = 0;
		sync_author_detail(p, "author");
		break;
	case H_CONTRIBUTOR:
		pop_free(p, "contributor");
		p->incontributor = 0;
		break;
	case H_DC_CONTRIBUTOR:
		end_h(p, H_NAME);
		p->incontributor = 0;
		break;
	case H_NAME:
		v = pop(p, "name");
		if (p->inpublisher)
			save_author(p, "name", v, "publisher");
		else if (p->inauthor)
			save_author(p, "name", v, "author");
		else if (p->incontributor)
			save_contributor(p, "name", v);
		else if (p->intextinput)
			fpd_set(get_context(p), "name", jstr(v));
		free(v);
		break;
	case H_WIDTH:
	case H_HEIGHT: {
		const char *k = h == H_WIDTH ? "width" : "height";
		char *end;
		long long n;

		v = pop(p, k);
		n = v && *v ? strtoll(v, &end, 10) : 0;
		if (!v || !*v || *end)
			n = 0;
		if (p->inimage)
			fpd_set(get_context(p), k, json_object_new_int64(n));
		free(v);
		break;
	}
	case H_URL:
		v = pop(p, "href");
		if (p->inauthor)
			save_author(p, "href", v, "author");
		else if (p->incontributor)
			save_contributor(p, "href", v);
		free(v);
		break;
	case H_EMAIL:
		v = pop(p, "email");
		if (p->inpublisher)
			save_author(p, "email", v, "publisher");
		else if (p->inauthor)
			save_author(p, "email", v, "author");
		else if (p->incontributor)
			save_contributor(p, "email", v);
		free(v);
		break;
	case H_SUBTITLE:
		free(pop_content(p, "subtitle"));
		break;
	case H_RIGHTS:
		free(pop_content(p, "rights"));
		break;
	case H_ENTRY:
		pop_free(p, "item");
		p->inentry = 0;
		p->has_content = 0;
		commit_entry(p);
		break;
	case H_LANGUAGE:
		v = pop(p, "language");
		free(p->lang);
		p->lang = v;
		break;
	case H_WEBMASTER:
		pop_free(p, "publisher");
		sync_author_detail(p, "publisher");
		break;
	case H_PUBLISHED:
		v = pop(p, "published");
		save(p, "published_parsed", parsed_date(v), 1);
		free(v);
		break;
	case H_UPDATED:
		v = pop(p, "updated");
		save(p, "updated_parsed", parsed_date(v), 1);
		free(v);
		break;
	case H_CREATED:
		v = pop(p, "created");
		save(p, "created_parsed", parsed_date(v), 1);
		free(v);
		break;
	case H_EXPIRATIONDATE:
		v = pop(p, "expired");
		save(p, "expired_parsed", parsed_date(v), 1);
		free(v);
		break;
	case H_CATEGORY:
	case H_ITUNES_CATEGORY:
	case H_MEDIA_CATEGORY:
		end_category(p);
		break;
	case H_LINK:
		pop_free(p, "link");
		break;
	case H_GUID: {
		jo *c;

		v = pop(p, "id");
		c = get_context(p);
		save(p, "guidislink", json_object_new_boolean(p->guidislink && !fpd_has(c, "link")), 0);
		if (p->guidislink)
			save(p, "link", jstr(v), 0);
		free(v);
		break;
	}
	case H_TITLE:
		if (p->svg_ok)
			break;
		v = pop_content(p, "title");
		if (v && *v)
			p->title_depth = p->depth;
		free(v);
		break;
	case H_MEDIA_TITLE: {
		int td = p->title_depth;

		v = pop_content(p, "title");
		free(v);
		p->title_depth = td;
		break;
	}
	case H_DESCRIPTION:
	case H_ABSTRACT:
		end_description(p);
		break;
	case H_INFO:
		free(pop_content(p, "info"));
		break;
	case H_GENERATOR: {
		jo *d;

		v = pop(p, "generator");
		ctx = get_context(p);
		d = fpd_get(ctx, "generator_detail");
		if (d && json_object_is_type(d, json_type_object))
			fpd_set(d, "name", jstr(v));
		free(v);
		break;
	}
	case H_SUMMARY:
		if (p->summary_key && !strcmp(p->summary_key, "content"))
			end_h(p, H_CONTENT);
		else
			free(pop_content(p, p->summary_key ? p->summary_key : "summary"));
		p->summary_key = NULL;
		break;
	case H_SOURCE: {
		jo *copy = NULL;

		p->insource = 0;
		v = pop(p, "source");
		if (v && *v)
			fpd_set(p->sourcedata, "title", jstr(v));
		free(v);
		json_object_deep_copy(p->sourcedata, &copy, NULL);
		fpd_set(get_context(p), "source", copy);
		json_object_put(p->sourcedata);
		p->sourcedata = json_object_new_object();
		break;
	}
	case H_CONTENT:
	case H_BODY:
	case H_CONTENT_ENCODED: {
		char *mt = map_content_type(p, p->cp.type);
		int copy = mt && (!strcmp(mt, "text/plain") || is_html_type(mt));

		free(mt);
		v = pop_content(p, "content");
		if (copy)
			save(p, "summary", jstr(v), 0);
		free(v);
		break;
	}
	case H_NEWLOCATION:
		v = pop(p, "newlocation");
		ctx = get_context(p);
		if (ctx == p->feed && v) {
			char *s = strip_dup(p, v), *r = s ? safe_abs(p, p->baseuri, s) : NULL;

			fpd_set(ctx, "newlocation", jstr(r));
			free(s);
			free(r);
		}
		free(v);
		break;
	case H_TAGS:
		v = pop(p, "tags");
		split_tags(p, v, NULL);
		free(v);
		break;
	case H_DCTERMS_VALID: {
		char *save_p = NULL;

		v = pop(p, "validity");
		if (!v)
			break;
		for (char *t = strtok_r(v, ";", &save_p); t; t = strtok_r(NULL, ";", &save_p)) {
			char *eq = strchr(t, '=');

			if (!eq)
				continue;
			*eq = '\0';
			if (!strcmp(t, "start") || !strcmp(t, "end")) {
				char k[32];

				snprintf(k, sizeof(k), "validity_%s", t);
				save(p, k, jstr(eq + 1), 1);
				snprintf(k, sizeof(k), "validity_%s_parsed", t);
				save(p, k, parsed_date(eq + 1), 1);
			}
		}
		free(v);
		break;
	}
	case H_ITUNES_OWNER:
		pop_free(p, "publisher");
		p->inpublisher = 0;
		sync_author_detail(p, "publisher");
		break;
	case H_ITUNES_KEYWORDS:
		v = pop(p, "itunes_keywords");
		split_tags(p, v, "http://www.itunes.com/");
		free(v);
		break;
	case H_MEDIA_KEYWORDS:
		v = pop(p, "media_keywords");
		split_tags(p, v, NULL);
		free(v);
		break;
	case H_ITUNES_BLOCK:
		v = pop_ex(p, "itunes_block", 0);
		fpd_set(get_context(p), "itunes_block",
		       json_object_new_int(v && (!strcmp(v, "yes") || !strcmp(v, "Yes"))));
		free(v);
		break;
	case H_ITUNES_EXPLICIT:
		v = pop_ex(p, "itunes_explicit", 0);
		fpd_set(get_context(p), "itunes_explicit",
		       v && !strcmp(v, "yes")     ? json_object_new_boolean(1)
		       : v && !strcmp(v, "clean") ? json_object_new_boolean(0)
		                                  : NULL);
		free(v);
		break;
	case H_MEDIA_RATING:
		end_media_dict(p, "media_rating", "rating");
		break;
	case H_MEDIA_RESTRICTION:
		end_media_dict(p, "media_restriction", "restriction");
		break;
	case H_MEDIA_LICENSE:
		end_media_dict(p, "media_license", "license");
		break;
	case H_MEDIA_CREDIT: {
		jo *last;

		v = pop(p, "credit");
		if (v && !blank_str(v)) {
			last = arr_last(fpd_get(get_context(p), "media_credit"));
			if (last)
				raw_set(last, "content", jstr(v));
		}
		free(v);
		break;
	}
	case H_MEDIA_THUMBNAIL: {
		jo *last, *tmp;

		v = pop(p, "url");
		if (v && !blank_str(v)) {
			last = arr_last(fpd_get(get_context(p), "media_thumbnail"));
			if (last && !json_object_object_get_ex(last, "url", &tmp))
				raw_set(last, "url", jstr(v));
		}
		free(v);
		break;
	}
	case H_MEDIA_PLAYER: {
		jo *d;

		v = pop(p, "media_player");
		d = fpd_get(get_context(p), "media_player");
		if (d && json_object_is_type(d, json_type_object))
			raw_set(d, "content", jstr(v));
		free(v);
		break;
	}
	case H_CREATIVECOMMONS_LICENSE: {
		jo *d = json_object_new_object(), *l;

		v = pop(p, "license");
		ctx = get_context(p);
		fpd_set(d, "rel", jstr("license"));
		if (v && *v)
			fpd_set(d, "href", jstr(v));
		l = fpd_setdefault(ctx, "links", json_object_new_array());
		if (l && json_object_is_type(l, json_type_array))
			json_object_array_add(l, d);
		else
			json_object_put(d);
		if (json_object_is_type(ctx, json_type_object))
			json_object_object_del(ctx, "license");
		free(v);
		break;
	}
	case H_PSC_CHAPTERS:
		p->psc_flag = 0;
		break;
	case H_GEORSS_POINT:
		georss_end(p, "point");
		break;
	case H_GEORSS_LINE:
		georss_end(p, "line");
		break;
	case H_GEORSS_POLYGON:
		georss_end(p, "polygon");
		break;
	case H_GEORSS_BOX:
		georss_end(p, "box");
		break;
	case H_WHERE:
		pop_free(p, "where");
		break;
	default:
		break;
	}
}

/* ---- xml:base, xml:lang, namespaces ---- */

static void
strv_push(struct fpx *p, char ***v, size_t *n, size_t *cap, const char *s)
{
	if (*n == *cap) {
		size_t nc = *cap ? *cap * 2 : 16;
		char **nv = realloc(*v, nc * sizeof(*nv));

		if (!nv) {
			p->oom = 1;
			return;
		}
		*v = nv;
		*cap = nc;
	}
	(*v)[(*n)++] = s ? xstrdup(p, s) : NULL;
}

void
fr_fpx_ns(struct fpx *p, const char *prefix, const char *uri)
{
	const char *m;

	if (!p || !uri || !*uri)
		return;
	if (!p->version) {
		char low[128];
		size_t n = strlen(uri);

		if (n < sizeof(low)) {
			for (size_t i = 0; i <= n; i++)
				low[i] = (char)(uri[i] >= 'A' && uri[i] <= 'Z' ? uri[i] - 'A' + 'a' : uri[i]);
			if (!prefix && !strcmp(low, "http://my.netscape.com/rdf/simple/0.9/"))
				p->version = xstrdup(p, "rss090");
			else if (!strcmp(low, "http://purl.org/rss/1.0/"))
				p->version = xstrdup(p, "rss10");
			else if (!strcmp(low, "http://www.w3.org/2005/atom"))
				p->version = xstrdup(p, "atom10");
		}
	}
	m = fr_fpx_ns_prefix(uri);
	if (m && prefix && p->n_nsmap < 32) {
		p->nsmap_prefix[p->n_nsmap] = xstrdup(p, prefix);
		p->nsmap_val[p->n_nsmap] = xstrdup(p, m);
		p->n_nsmap++;
	}
}

static const char *
nsmap(struct fpx *p, const char *prefix)
{
	for (size_t i = p->n_nsmap; i-- > 0;)
		if (p->nsmap_prefix[i] && !strcmp(p->nsmap_prefix[i], prefix))
			return p->nsmap_val[i];
	return prefix;
}

/* "prefix:local" -> feedparser's method suffix "prefix_local" (prefix
 * mapped), or "local". */
static void
method_name(struct fpx *p, const char *tag, char *out, size_t cap)
{
	const char *colon = strchr(tag, ':');

	if (colon) {
		char pre[64];
		size_t n = (size_t)(colon - tag);
		const char *m;

		if (n >= sizeof(pre))
			n = sizeof(pre) - 1;
		memcpy(pre, tag, n);
		pre[n] = '\0';
		m = nsmap(p, pre);
		if (*m) {
			size_t k;

			for (k = 0; m[k] && k < 63 && k + 1 < cap; k++)
				out[k] = (char)(m[k] >= 'A' && m[k] <= 'Z' ? m[k] - 'A' + 'a' : m[k]);
			if (k + 1 < cap)
				out[k++] = '_';
			copy_str(out + k, cap - k, colon + 1);
		} else {
			copy_str(out, cap, colon + 1);
		}
	} else {
		copy_str(out, cap, tag);
	}
}

static int
no_prefix(const char *tag)
{
	return strchr(tag, ':') == NULL;
}

static void
strattrs(struct fpx *p, struct fb_buf *b, const struct attrs *a)
{
	for (size_t i = 0; i < a->n; i++) {
		const char *k = a->kv[2 * i];
		int dup = 0;

		for (size_t j = i + 1; j < a->n; j++)
			if (!strcmp(a->kv[2 * j], k))
				dup = 1;
		if (dup)
			continue;
		if (fr_fb_addc(b, ' ') || fr_fb_add(b, k, strlen(k)) || fr_fb_add(b, "=\"", 2) ||
		    fr_fb_add_escaped(b, a->kv[2 * i + 1], strlen(a->kv[2 * i + 1]), 1) || fr_fb_addc(b, '"'))
			p->oom = 1;
	}
}

void
fr_fpx_start(struct fpx *p, const char *tag, const char *const *kv, size_t n)
{
	struct attrs a = {kv, n};
	const char *xb, *lang;
	char mname[160];
	const struct handler *h;

	if (!p)
		return;
	p->depth++;
	xb = attr_get(&a, "xml:base");
	if (!xb)
		xb = attr_get(&a, "base");
	if (p->baseuri && *p->baseuri) {
		char *r = xb ? safe_abs(p, p->baseuri, xb) : NULL;

		if (r && *r) {
			free(p->baseuri);
			p->baseuri = r;
		} else {
			free(r);
		}
	} else if (xb) {
		char *r = urljoin(p, p->baseuri, xb);

		free(p->baseuri);
		p->baseuri = r;
	}
	lang = attr_get(&a, "xml:lang");
	if (!lang)
		lang = attr_get(&a, "lang");
	{
		char *nl;

		if (lang && !*lang)
			nl = NULL;
		else if (!lang)
			nl = xstrdup(p, p->lang);
		else
			nl = xstrdup(p, lang);
		if (nl && (!strcmp(tag, "feed") || !strcmp(tag, "rss"))) {
			char *fl = xstrdup(p, nl);

			if (fl) {
				for (char *q = fl; *q; q++)
					if (*q == '_')
						*q = '-';
				fpd_set(p->feed, "language", jstr(fl));
			}
			free(fl);
		}
		free(p->lang);
		p->lang = nl;
	}
	strv_push(p, &p->basestack, &p->n_base, &p->cap_base, p->baseuri);
	strv_push(p, &p->langstack, &p->n_lang, &p->cap_lang, p->lang);

	/* inline content */
	if (p->incontent && p->cp.active) {
		const char *t = p->cp.type ? p->cp.type : "xml";
		size_t tn = strlen(t);

		if (!(tn >= 3 && !strcmp(t + tn - 3, "xml"))) {
			if (!strcmp(tag, "xhtml:div") || !strcmp(tag, "div"))
				return;
			free(p->cp.type);
			p->cp.type = xstrdup(p, "application/xhtml+xml");
		}
	}
	if (p->incontent && p->cp.active && p->cp.type &&
	    !strcmp(p->cp.type, "application/xhtml+xml")) {
		const char *local = strchr(tag, ':') ? strchr(tag, ':') + 1 : tag;
		struct fb_buf b = {0};

		if (!strcmp(local, "svg"))
			p->svg_ok++;
		if (fr_fb_addc(&b, '<') || fr_fb_add(&b, local, strlen(local)))
			p->oom = 1;
		strattrs(p, &b, &a);
		if (fr_fb_addc(&b, '>'))
			p->oom = 1;
		if (b.p)
			handle_data(p, b.p, b.n, 0);
		fr_fb_free(&b);
		return;
	}
	if (no_prefix(tag) && strcmp(tag, "title") && strcmp(tag, "link") &&
	    strcmp(tag, "description") && strcmp(tag, "name"))
		p->intextinput = 0;
	if (no_prefix(tag) && strcmp(tag, "title") && strcmp(tag, "link") &&
	    strcmp(tag, "description") && strcmp(tag, "url") && strcmp(tag, "href") &&
	    strcmp(tag, "width") && strcmp(tag, "height"))
		p->inimage = 0;
	method_name(p, tag, mname, sizeof(mname));
	h = find_handler(mname);
	if (h && h->start) {
		if (h->h == H_TITLE && p->svg_ok) {
			/* _start_title in SVG: unknown_starttag again (inline) */
			push(p, "title", 1);
			return;
		}
		start_h(p, h->h, &a, mname);
		return;
	}
	if (!n) {
		push(p, mname, 1);
	} else {
		fpd_set(get_context(p), mname, attrs_dict(&a));
	}
}

void
fr_fpx_end(struct fpx *p, const char *tag)
{
	char mname[160];
	const struct handler *h;
	const char *local = strchr(tag, ':') ? strchr(tag, ':') + 1 : tag;

	if (!p)
		return;
	method_name(p, tag, mname, sizeof(mname));
	if (!strcmp(local, "svg") && p->svg_ok)
		p->svg_ok--;
	h = find_handler(mname);
	if (h && h->end && !p->svg_ok)
		end_h(p, h->h);
	else
		pop_free(p, mname);
	if (p->incontent && p->cp.active) {
		const char *t = p->cp.type ? p->cp.type : "xml";
		size_t tn = strlen(t);

		if (!(tn >= 3 && !strcmp(t + tn - 3, "xml"))) {
			if (!strcmp(tag, "xhtml:div") || !strcmp(tag, "div"))
				return;
			free(p->cp.type);
			p->cp.type = xstrdup(p, "application/xhtml+xml");
		}
	}
	if (p->incontent && p->cp.active && p->cp.type &&
	    !strcmp(p->cp.type, "application/xhtml+xml")) {
		char b[160];
		int k = snprintf(b, sizeof(b), "</%s>", local);

		if (k > 0 && (size_t)k < sizeof(b))
			handle_data(p, b, (size_t)k, 0);
	}
	if (p->n_base) {
		free(p->basestack[--p->n_base]);
		if (p->n_base && p->basestack[p->n_base - 1] && *p->basestack[p->n_base - 1]) {
			free(p->baseuri);
			p->baseuri = xstrdup(p, p->basestack[p->n_base - 1]);
		}
	}
	if (p->n_lang) {
		free(p->langstack[--p->n_lang]);
		if (p->n_lang) {
			free(p->lang);
			p->lang = xstrdup(p, p->langstack[p->n_lang - 1]);
		}
	}
	p->depth--;
}

/* ---- the item cap (as the feed's: the newest kept, document order) ---- */

static int64_t
entry_time(jo *e)
{
	jo *v = fpd_get(e, "published_parsed");

	if (!v || !json_object_is_type(v, json_type_int))
		v = fpd_get(e, "updated_parsed");
	if (!v || !json_object_is_type(v, json_type_int))
		return INT64_MIN;
	return json_object_get_int64(v);
}

/* Whether a ranks after b: older, or as old and later in the document. */
static int
ranks_after(const struct kept *a, const struct kept *b)
{
	if (a->t != b->t)
		return a->t < b->t;
	return a->i > b->i;
}

static void
kept_free(struct kept *k)
{
	json_object_put(k->e);
	free(k->s);
	k->e = NULL;
	k->s = NULL;
}

/* The entry's text (level 0, p->stream_flags) into k->s, the model freed.
 * 0, or -1 on out of memory. */
static int
kept_serialise(struct fpx *p, struct kept *k)
{
	size_t n = 0;
	const char *t = json_object_to_json_string_length(k->e, p->stream_flags, &n);

	if (!t || !(k->s = malloc(n + 1))) {
		p->oom = 1;
		return -1;
	}
	memcpy(k->s, t, n + 1);
	k->n = n;
	json_object_put(k->e);
	k->e = NULL;
	return 0;
}

static void
sift_down(struct kept *h, size_t n, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, w = i;
		struct kept t;

		if (l < n && ranks_after(&h[l], &h[w]))
			w = l;
		if (l + 1 < n && ranks_after(&h[l + 1], &h[w]))
			w = l + 1;
		if (w == i)
			return;
		t = h[i];
		h[i] = h[w];
		h[w] = t;
		i = w;
	}
}

static void
sift_up(struct kept *h, size_t i)
{
	while (i > 0) {
		size_t up = (i - 1) / 2;
		struct kept t;

		if (!ranks_after(&h[i], &h[up]))
			return;
		t = h[i];
		h[i] = h[up];
		h[up] = t;
		i = up;
	}
}

/* The open entry is complete: it is kept (its text only, when
 * streaming), and under the cap only while it ranks among the max_items
 * newest so far, the worst kept one then dropped. So no more than
 * max_items entries are ever held, whatever the feed's length, and the
 * ones kept are those a sort of all of them would keep: newest first (by
 * published, else updated; undated last), document order breaking ties. */
static void
commit_entry(struct fpx *p)
{
	struct kept k = {0};

	if (!p->cur_entry)
		return;
	k.e = p->cur_entry;
	p->cur_entry = NULL;
	k.i = p->n_seen++;
	k.t = p->max_items ? entry_time(k.e) : 0;
	if (p->max_items && p->n_heap == p->max_items) {
		if (!ranks_after(&p->heap[0], &k)) {
			json_object_put(k.e);
			return;
		}
		if (p->stream_flags >= 0 && kept_serialise(p, &k) != 0) {
			kept_free(&k);
			return;
		}
		kept_free(&p->heap[0]);
		p->heap[0] = k;
		sift_down(p->heap, p->n_heap, 0);
		return;
	}
	if (p->n_heap == p->cap_heap) {
		size_t nc = p->cap_heap ? 2 * p->cap_heap : 64;
		struct kept *nh;

		if (p->max_items && nc > p->max_items)
			nc = p->max_items;
		nh = nc > p->cap_heap && nc < SIZE_MAX / sizeof(*nh) ? realloc(p->heap, nc * sizeof(*nh))
		                                                       : NULL;
		if (!nh) {
			json_object_put(k.e);
			p->oom = 1;
			return;
		}
		p->heap = nh;
		p->cap_heap = nc;
	}
	if (p->stream_flags >= 0 && kept_serialise(p, &k) != 0) {
		kept_free(&k);
		return;
	}
	p->heap[p->n_heap] = k;
	/* with no cap the list stays in document order, no heap */
	if (p->max_items)
		sift_up(p->heap, p->n_heap);
	p->n_heap++;
}

static int
cmp_index(const void *a, const void *b)
{
	const struct kept *x = a, *y = b;

	return x->i < y->i ? -1 : x->i > y->i;
}

/* The open entry committed, the kept ones in document order; their models
 * (not streaming) moved onto entries. */
static void
flush_kept(struct fpx *p)
{
	commit_entry(p);
	if (p->max_items && p->n_heap > 1)
		qsort(p->heap, p->n_heap, sizeof(*p->heap), cmp_index);
	if (p->stream_flags >= 0)
		return;
	for (size_t k = 0; k < p->n_heap; k++) {
		struct kept *e = &p->heap[k];

		if (e->e && json_object_array_add(p->entries, e->e) == 0)
			e->e = NULL;
		else
			p->oom = 1;
		kept_free(e);
	}
	p->n_heap = 0;
}

/* ---- life ---- */

struct fpx *
fr_fpx_new(const char *base_url, size_t max_items, int stream_flags)
{
	struct fpx *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->max_items = max_items;
	p->stream_flags = stream_flags < 0 ? -1 : stream_flags;
	p->feed = json_object_new_object();
	p->entries = json_object_new_array();
	p->sourcedata = json_object_new_object();
	p->title_depth = -1;
	p->baseuri = base_url && *base_url ? strdup(base_url) : NULL;
	p->re_ok = regcomp(&p->email_re,
	                   "(([a-zA-Z0-9_.+-]+)@((\\[[0-9]{1,3}\\.[0-9]{1,3}\\.[0-9]{1,3}\\.)|"
	                   "(([a-zA-Z0-9-]+\\.)+))([a-zA-Z]{2,4}|[0-9]{1,3})(\\]?))"
	                   "(\\?subject=[^[:space:]]+)?",
	                   REG_EXTENDED) == 0;
	if (!p->feed || !p->entries || !p->sourcedata) {
		fr_fpx_free(p);
		return NULL;
	}
	return p;
}

int
fr_fpx_oom(const struct fpx *p)
{
	return p && p->oom;
}

jo *
fr_fpx_take(struct fpx *p, int feed)
{
	jo *r;

	if (!p)
		return NULL;
	if (feed) {
		r = p->feed;
		p->feed = NULL;
	} else {
		if (p->stream_flags >= 0)
			return NULL;
		flush_kept(p);
		r = p->entries;
		p->entries = NULL;
	}
	return r;
}

char **
fr_fpx_take_texts(struct fpx *p, size_t *n)
{
	char **r;

	*n = 0;
	if (!p || p->stream_flags < 0)
		return NULL;
	flush_kept(p);
	if (!p->n_heap)
		return NULL;
	r = malloc(p->n_heap * sizeof(*r));
	if (!r) {
		p->oom = 1;
		return NULL;
	}
	for (size_t k = 0; k < p->n_heap; k++) {
		r[k] = p->heap[k].s;
		p->heap[k].s = NULL;
	}
	*n = p->n_heap;
	p->n_heap = 0;
	return r;
}

void
fr_fpx_free(struct fpx *p)
{
	if (!p)
		return;
	fr_feed_san_free(p->san);
	for (size_t i = 0; i < p->n_heap; i++)
		kept_free(&p->heap[i]);
	free(p->heap);
	json_object_put(p->cur_entry);
	json_object_put(p->feed);
	json_object_put(p->entries);
	json_object_put(p->sourcedata);
	free(p->version);
	cp_clear(&p->cp);
	for (size_t i = 0; i < p->n_stack; i++)
		elem_free(&p->stack[i]);
	free(p->stack);
	for (size_t i = 0; i < p->n_base; i++)
		free(p->basestack[i]);
	free(p->basestack);
	for (size_t i = 0; i < p->n_lang; i++)
		free(p->langstack[i]);
	free(p->langstack);
	free(p->baseuri);
	free(p->lang);
	dm_clear(p);
	free(p->dm);
	for (size_t i = 0; i < p->n_nsmap; i++) {
		free(p->nsmap_prefix[i]);
		free(p->nsmap_val[i]);
	}
	if (p->re_ok)
		regfree(&p->email_re);
	free(p);
}

/* ---- the result, written without building it (fr_feed_fp_write) ---- */

/* s[0..n) as json-c writes a value nested `level` deep: with PRETTY, two
 * spaces more per level after each newline (json-c escapes the newlines
 * of strings, so each one is its layout's). */
static void
put_nested(FILE *out, const char *s, size_t n, unsigned level, int pretty)
{
	static const char ind[] = "        ";
	const char *nl;

	while (pretty && (nl = memchr(s, '\n', n)) != NULL) {
		size_t k = (size_t)(nl - s) + 1;

		fwrite(s, 1, k, out);
		fwrite(ind, 1, 2 * level, out);
		s += k;
		n -= k;
	}
	fwrite(s, 1, n, out);
}

/* One key of the root object: the separator, the key, the value's text at
 * level 1 (json-c's object layout). */
static void
put_key(FILE *out, int *first, const char *key, int pretty)
{
	if (!*first)
		fputc(',', out);
	*first = 0;
	if (pretty)
		fputs("\n  ", out);
	fprintf(out, "\"%s\"%s", key, pretty ? ": " : ":");
}

static int
put_value(FILE *out, jo *v, int flags, int pretty)
{
	size_t n = 0;
	const char *t = v ? json_object_to_json_string_length(v, flags, &n) : "null";

	if (!t)
		return -1;
	if (!v)
		n = 4;
	put_nested(out, t, n, 1, pretty);
	return 0;
}

/* A string or boolean value of the root, made and written. */
static int
put_scalar(FILE *out, int *first, const char *key, jo *v, int flags, int pretty)
{
	int rc;

	if (!v)
		return -1;
	put_key(out, first, key, pretty);
	rc = put_value(out, v, flags, pretty);
	json_object_put(v);
	return rc;
}

int
fr_feed_fp_write(const struct fr_feed *f, FILE *out, int flags, const char *file)
{
	const int known = JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE;
	int pretty = (flags & JSON_C_TO_STRING_PRETTY) != 0, first = 1, rc = 0;
	size_t n_entries;

	/* json-c's other layouts (SPACED alone, tabs) are not written here */
	if (!f || !f->fp_feed || (flags & ~known) ||
	    pretty != ((flags & JSON_C_TO_STRING_SPACED) != 0))
		return -1;
	if (!f->fp_entries && f->fp_n_entries && !f->fp_entry_texts)
		return -1;
	fputc('{', out);
	rc |= put_scalar(out, &first, "bozo", json_object_new_boolean(f->bozo), flags, pretty);
	if (f->bozo_exception)
		rc |= put_scalar(out, &first, "bozo_exception", json_object_new_string(f->bozo_exception),
		                 flags, pretty);
	if (f->encoding)
		rc |= put_scalar(out, &first, "encoding", json_object_new_string(f->encoding), flags, pretty);
	if (f->version)
		rc |= put_scalar(out, &first, "version", json_object_new_string(f->version), flags, pretty);
	put_key(out, &first, "feed", pretty);
	rc |= put_value(out, f->fp_feed, flags, pretty);
	put_key(out, &first, "entries", pretty);
	fputc('[', out);
	n_entries = f->fp_entries ? json_object_array_length(f->fp_entries) : f->fp_n_entries;
	for (size_t k = 0; k < n_entries; k++) {
		const char *t;
		size_t n;

		if (k)
			fputc(',', out);
		if (pretty)
			fputs("\n    ", out);
		if (f->fp_entries) {
			jo *e = json_object_array_get_idx(f->fp_entries, k);

			t = e ? json_object_to_json_string_length(e, flags, &n) : "null";
			if (!t)
				return -1;
			if (!e)
				n = 4;
		} else {
			t = f->fp_entry_texts[k];
			if (!t)
				return -1;
			n = strlen(t);
		}
		put_nested(out, t, n, 2, pretty);
	}
	/* "[\n  ]" when empty, "...last\n  ]" else */
	if (pretty)
		fputs("\n  ", out);
	fputc(']', out);
	if (file)
		rc |= put_scalar(out, &first, "file", json_object_new_string(file), flags, pretty);
	if (pretty)
		fputc('\n', out);
	fputc('}', out);
	return rc || ferror(out) ? -1 : 0;
}
