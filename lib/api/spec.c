/* spec.c - the text form of an API mapping spec and the built-in presets:
 * entries "key=value", paths as JSON Pointers or dotted paths, every error
 * named with its line and column. */
#include "api/spec_internal.h"

#include "core/err.h"
#include "url/url.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The built-in presets, in the same text form a config file uses.
 * NOTE: keep PRESET_NAMES in the order of PRESETS. */
static const struct {
	const char *name, *text;
} PRESETS[] = {
    /* Graph API page posts, GET /PAGE/posts (developers.facebook.com/docs/graph-api). */
    {"graph", "list=data[]\n"
              "id=id\n"
              "time=created_time\n"
              "updated=updated_time\n"
              "link=permalink_url\n"
              "author=from.name\n"
              "text=message|story\n"
              "text_format=text\n"
              "next=paging.next\n"
              "cursor=paging.cursors.after\n"
              "cursor_param=after\n"},
    /* Mastodon statuses: GET /api/v1/accounts/:id/statuses and
     * /api/v1/timelines/tag/:hashtag (docs.joinmastodon.org), newest first;
     * the next (older) page is the Link header's rel="next", else max_id. */
    {"mastodon", "list=[]\n"
                 "id=id\n"
                 "time=created_at\n"
                 "updated=edited_at\n"
                 "title=spoiler_text\n"
                 "link=url|uri\n"
                 "author=account.acct\n"
                 "text=content\n"
                 "text_format=html\n"
                 "next=@link\n"
                 "cursor=@last_id\n"
                 "cursor_param=max_id\n"},
    /* Reddit listings, GET /r/NAME/new.json: text is HTML-escaped once
     * (without raw_json=1), permalinks are relative to www.reddit.com. */
    {"reddit", "list=data.children[].data\n"
               "id=name|id\n"
               "time=created_utc\n"
               "title=title\n"
               "title_format=entities\n"
               "link=permalink|url\n"
               "link_base=https://www.reddit.com/\n"
               "author=author\n"
               "text=selftext\n"
               "text_format=entities\n"
               "cursor=data.after\n"
               "cursor_param=after\n"},
    /* A JSON:API document (jsonapi.org): resources in data[], their fields
     * under attributes, the next page in links.next. */
    {"jsonapi", "list=data[]\n"
                "id=id\n"
                "time=attributes.created_at|attributes.createdAt|attributes.published_at|"
                "attributes.created|attributes.date\n"
                "updated=attributes.updated_at|attributes.updatedAt\n"
                "title=attributes.title|attributes.name\n"
                "link=attributes.url|links.self\n"
                "author=attributes.author|attributes.author_name\n"
                "text=attributes.body|attributes.content|attributes.text|attributes.description\n"
                "text_format=html\n"
                "next=links.next\n"},
};

static const char *const PRESET_NAMES[] = {"graph", "mastodon", "reddit", "jsonapi", NULL};

/* The keys of fields, by enum fr_api_field. */
static const char *const FIELD_KEYS[FR_API_NFIELDS] = {
    "id", "time", "updated", "title", "link", "author", "text", "summary", "next", "cursor",
};

const char *
fr_api_preset_text(const char *name)
{
	for (size_t i = 0; name && i < sizeof(PRESETS) / sizeof(PRESETS[0]); i++)
		if (!strcmp(PRESETS[i].name, name))
			return PRESETS[i].text;
	return NULL;
}

const char *const *
fr_api_preset_names(void)
{
	return PRESET_NAMES;
}

static void
path_clear(struct api_path *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->seg[i]);
	free(p->seg);
	memset(p, 0, sizeof(*p));
}

static void
alts_clear(struct api_alts *a)
{
	for (size_t i = 0; i < a->n; i++)
		path_clear(&a->alt[i]);
	a->n = 0;
}

void
fr_api_spec_free(struct fr_api_spec *s)
{
	if (!s)
		return;
	free(s->name);
	path_clear(&s->list);
	path_clear(&s->item);
	for (int i = 0; i < FR_API_NFIELDS; i++)
		alts_clear(&s->f[i]);
	free(s->link_base);
	free(s->cursor_param);
	free(s);
}

const char *
fr_api_spec_name(const struct fr_api_spec *s)
{
	return s->name;
}

/* ---- the reader ---- */

struct rd {
	const char *text; /* the whole text, for line:column */
	size_t len;
	char *err;
	size_t errlen;
	int depth;          /* 1 inside a preset's text */
	const char *preset; /* the preset being read, for its errors */
};

/* Line and column (1-based, in bytes) of offset off. */
static void
line_col(const struct rd *r, size_t off, unsigned long *line, unsigned long *col)
{
	unsigned long l = 1, c = 1;

	for (size_t i = 0; i < off && i < r->len; i++) {
		if (r->text[i] == '\n') {
			l++;
			c = 1;
		} else {
			c++;
		}
	}
	*line = l;
	*col = c;
}

static int fail(struct rd *r, size_t off, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int
fail(struct rd *r, size_t off, const char *fmt, ...)
{
	char msg[FR_ERRLEN];
	unsigned long line, col;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	line_col(r, off, &line, &col);
	if (r->preset)
		return fr_errf(r->err, r->errlen, "api spec: preset '%s': %s at %lu:%lu", r->preset,
		               msg, line, col);
	return fr_errf(r->err, r->errlen, "api spec: %s at %lu:%lu", msg, line, col);
}

static int
oom(struct rd *r)
{
	return fr_errf(r->err, r->errlen, "api spec: out of memory");
}

static int
push_seg(struct rd *r, struct api_path *p, const char *s, size_t n, size_t off)
{
	char **g;

	if (p->n >= FR_API_SPEC_MAX_DEPTH)
		return fail(r, off, "path deeper than %u keys", FR_API_SPEC_MAX_DEPTH);
	g = realloc(p->seg, (p->n + 1) * sizeof(*g));
	if (!g)
		return oom(r);
	p->seg = g;
	if (!(g[p->n] = malloc(n + 1)))
		return oom(r);
	memcpy(g[p->n], s, n);
	g[p->n][n] = '\0';
	p->n++;
	return 0;
}

/* A JSON Pointer v[0..n) (v[0] == '/'), at text offset off. */
static int
read_pointer(struct rd *r, const char *v, size_t n, size_t off, struct api_path *p)
{
	size_t i = 1;

	while (i <= n) {
		char buf[1024];
		size_t k = 0, start = i;

		while (i < n && v[i] != '/') {
			char c = v[i];

			if (c == '~') {
				if (i + 1 >= n || (v[i + 1] != '0' && v[i + 1] != '1'))
					return fail(r, off + i,
					            "JSON Pointer escape '~%.*s' is not ~0 or ~1",
					            i + 1 < n ? 1 : 0, v + i + 1);
				c = v[i + 1] == '0' ? '~' : '/';
				i++;
			}
			if (k >= sizeof(buf) - 1)
				return fail(r, off + start,
				            "JSON Pointer key longer than %zu bytes",
				            sizeof(buf) - 1);
			buf[k++] = c;
			i++;
		}
		if (push_seg(r, p, buf, k, off + start) != 0)
			return -1;
		i++; /* past the '/' (or the end) */
	}
	return 0;
}

static int
name_byte(char c)
{
	return c != '.' && c != '[' && c != ']' && c != '|' && (unsigned char)c >= 0x20 &&
	       c != 0x7f;
}

/* A dotted path v[0..n): "a.b[0].c", "data[]", "data.children[].data",
 * "[]", "." (the root). With iter (the list), one "[]" splits it into the
 * list path and the per-entry item path (*has_iter set). */
static int
read_dotted(struct rd *r, const char *v, size_t n, size_t off, struct api_path *p,
            struct api_path *item, int *has_iter)
{
	size_t i = 0;
	struct api_path *cur = p;
	int need_name = 1; /* at the start, or after '.' */

	if (n == 1 && v[0] == '.')
		return 0;
	while (i < n) {
		if (v[i] == '[') {
			size_t s = i + 1, e = s;

			while (e < n && v[e] >= '0' && v[e] <= '9')
				e++;
			if (e >= n || v[e] != ']')
				return fail(r, off + i,
				            "'[' without a number and ']' in path '%.*s'", (int)n,
				            v);
			if (e == s) {
				if (!item)
					return fail(r, off + i,
					            "'[]' in path '%.*s' (only 'list' iterates)",
					            (int)n, v);
				if (cur == item)
					return fail(r, off + i, "a second '[]' in path '%.*s'",
					            (int)n, v);
				cur = item;
				*has_iter = 1;
			} else if (push_seg(r, cur, v + s, e - s, off + s) != 0) {
				return -1;
			}
			i = e + 1;
			need_name = 0;
			if (i < n && v[i] != '.' && v[i] != '[')
				return fail(r, off + i,
				            "'.' or '[' expected after ']' in path '%.*s'", (int)n,
				            v);
			continue;
		}
		if (v[i] == '.') {
			if (need_name)
				return fail(r, off + i, "empty key in path '%.*s'", (int)n, v);
			i++;
			need_name = 1;
			if (i == n)
				return fail(r, off + i - 1, "path '%.*s' ends with '.'", (int)n, v);
			continue;
		}
		if (!name_byte(v[i]))
			return fail(r, off + i, "byte 0x%02x not allowed in path '%.*s'",
			            (unsigned char)v[i], (int)n, v);
		if (!need_name)
			return fail(r, off + i, "'.' expected in path '%.*s'", (int)n, v);
		{
			size_t s = i;

			while (i < n && name_byte(v[i]))
				i++;
			if (push_seg(r, cur, v + s, i - s, off + s) != 0)
				return -1;
			need_name = 0;
		}
	}
	return 0;
}

/* One path alternative v[0..n) of the field key (fld: enum, or -1 for list
 * and item). */
static int
read_path(struct rd *r, int fld, const char *v, size_t n, size_t off, struct api_path *p,
          struct api_path *item, int *has_iter)
{
	if (n > 0 && v[0] == '@') {
		if (fld == FR_API_NEXT && n == 5 && !memcmp(v, "@link", 5)) {
			p->kind = API_AT_LINK;
			return 0;
		}
		if (fld == FR_API_CURSOR && n == 8 && !memcmp(v, "@last_id", 8)) {
			p->kind = API_AT_LAST_ID;
			return 0;
		}
		return fail(r, off,
		            "'%.*s' is not a path here (next may be @link, cursor @last_id)",
		            (int)n, v);
	}
	if (n > 0 && v[0] == '/')
		return read_pointer(r, v, n, off, p);
	if (n == 0) {
		if (fld >= 0)
			return fail(r, off, "empty path (use '-' for none)");
		return 0; /* an empty JSON Pointer: the whole document */
	}
	return read_dotted(r, v, n, off, p, item, has_iter);
}

static int
is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

static int
key_is(const char *k, size_t n, const char *name)
{
	return strlen(name) == n && !memcmp(k, name, n);
}

static int
set_str(struct rd *r, char **slot, const char *v, size_t n)
{
	char *s = malloc(n + 1);

	if (!s)
		return oom(r);
	memcpy(s, v, n);
	s[n] = '\0';
	free(*slot);
	*slot = s;
	return 0;
}

static int read_text(struct rd *r, struct fr_api_spec *s, const char *text, size_t len);

static int
read_format(struct rd *r, const char *k, size_t kn, const char *v, size_t n, size_t off,
            enum fr_api_format *fmt)
{
	if (key_is(v, n, "text"))
		*fmt = FR_API_FMT_TEXT;
	else if (key_is(v, n, "html"))
		*fmt = FR_API_FMT_HTML;
	else if (key_is(v, n, "entities"))
		*fmt = FR_API_FMT_ENTITIES;
	else
		return fail(r, off, "%.*s '%.*s' is not text, html or entities", (int)kn, k, (int)n,
		            v);
	return 0;
}

static int
read_preset(struct rd *r, struct fr_api_spec *s, const char *v, size_t n, size_t off)
{
	const char *text = NULL, *name = NULL;
	struct rd sub;

	for (size_t i = 0; i < sizeof(PRESETS) / sizeof(PRESETS[0]); i++)
		if (key_is(v, n, PRESETS[i].name)) {
			name = PRESETS[i].name;
			text = PRESETS[i].text;
		}
	if (!text)
		return fail(r, off, "preset '%.*s' unknown (graph, mastodon, reddit, jsonapi)",
		            (int)(n > 64 ? 64 : n), v);
	sub = *r;
	sub.text = text;
	sub.len = strlen(text);
	sub.depth = 1;
	sub.preset = name;
	if (read_text(&sub, s, text, sub.len) != 0)
		return -1;
	return set_str(r, &s->name, name, strlen(name));
}

/* One entry: key k[0..kn) at koff, value v[0..vn) at voff (both trimmed). */
static int
read_entry(struct rd *r, struct fr_api_spec *s, const char *k, size_t kn, size_t koff,
           const char *v, size_t vn, size_t voff, int first)
{
	if (key_is(k, kn, "preset")) {
		if (!first || r->depth)
			return fail(r, koff, "'preset' must be the first entry");
		return read_preset(r, s, v, vn, voff);
	}
	if (key_is(k, kn, "name")) {
		if (vn == 0)
			return fail(r, voff, "empty name");
		return set_str(r, &s->name, v, vn);
	}
	if (key_is(k, kn, "list") || key_is(k, kn, "item")) {
		int is_list = k[0] == 'l', has_iter = 0;
		struct api_path p = {0}, it = {0};

		if (read_path(r, -1, v, vn, voff, &p, is_list ? &it : NULL, &has_iter) != 0) {
			path_clear(&p);
			path_clear(&it);
			return -1;
		}
		if (is_list) {
			path_clear(&s->list);
			s->list = p;
			s->has_list = 1;
			/* "data.children[].data": the part after [] is the item path */
			if (has_iter || it.n) {
				path_clear(&s->item);
				s->item = it;
			} else {
				path_clear(&it);
			}
		} else {
			path_clear(&s->item);
			s->item = p;
		}
		return 0;
	}
	for (int f = 0; f < FR_API_NFIELDS; f++) {
		struct api_alts a = {0};
		size_t i = 0;

		if (!key_is(k, kn, FIELD_KEYS[f]))
			continue;
		if (vn == 1 && v[0] == '-') {
			alts_clear(&s->f[f]);
			return 0;
		}
		while (i <= vn) {
			size_t e = i, s0, e0;

			while (e < vn && v[e] != '|')
				e++;
			s0 = i;
			e0 = e;
			while (s0 < e0 && is_blank(v[s0]))
				s0++;
			while (e0 > s0 && is_blank(v[e0 - 1]))
				e0--;
			if (a.n >= FR_API_SPEC_MAX_ALTS) {
				alts_clear(&a);
				return fail(r, voff + i, "more than %u alternatives",
				            FR_API_SPEC_MAX_ALTS);
			}
			if (read_path(r, f, v + s0, e0 - s0, voff + s0, &a.alt[a.n], NULL, NULL) !=
			    0) {
				a.n++;
				alts_clear(&a);
				return -1;
			}
			a.n++;
			i = e + 1;
		}
		alts_clear(&s->f[f]);
		s->f[f] = a;
		return 0;
	}
	if (key_is(k, kn, "title_format"))
		return read_format(r, k, kn, v, vn, voff, &s->title_fmt);
	if (key_is(k, kn, "text_format"))
		return read_format(r, k, kn, v, vn, voff, &s->text_fmt);
	if (key_is(k, kn, "summary_format"))
		return read_format(r, k, kn, v, vn, voff, &s->summary_fmt);
	if (key_is(k, kn, "time_unit")) {
		if (key_is(v, vn, "s"))
			s->time_ms = 0;
		else if (key_is(v, vn, "ms"))
			s->time_ms = 1;
		else
			return fail(r, voff, "time_unit '%.*s' is not s or ms", (int)vn, v);
		return 0;
	}
	if (key_is(k, kn, "link_base")) {
		char e[FR_ERRLEN], *u, *tmp = NULL;

		if (vn == 1 && v[0] == '-') {
			free(s->link_base);
			s->link_base = NULL;
			return 0;
		}
		if (set_str(r, &tmp, v, vn) != 0)
			return -1;
		u = fr_url_resolve(NULL, tmp, e, sizeof(e));
		if (!u || (strncasecmp(u, "http://", 7) && strncasecmp(u, "https://", 8))) {
			free(u);
			free(tmp);
			return fail(r, voff, "link_base '%.*s' is not an absolute http(s) URL",
			            (int)(vn > 200 ? 200 : vn), v);
		}
		free(u);
		free(s->link_base);
		s->link_base = tmp;
		return 0;
	}
	if (key_is(k, kn, "cursor_param")) {
		if (vn == 1 && v[0] == '-') {
			free(s->cursor_param);
			s->cursor_param = NULL;
			return 0;
		}
		if (vn == 0)
			return fail(r, voff, "empty cursor_param");
		for (size_t i = 0; i < vn; i++) {
			char c = v[i];

			if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			      (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.' ||
			      c == '~'))
				return fail(r, voff + i, "byte 0x%02x not allowed in cursor_param",
				            (unsigned char)c);
		}
		return set_str(r, &s->cursor_param, v, vn);
	}
	return fail(r, koff, "key '%.*s' unknown", (int)(kn > 64 ? 64 : kn), k);
}

static int
read_text(struct rd *r, struct fr_api_spec *s, const char *text, size_t len)
{
	size_t i = 0;
	int first = 1;

	while (i < len) {
		size_t ks, ke, vs, ve, e;

		while (i < len && (is_blank(text[i]) || text[i] == '\n' || text[i] == ';'))
			i++;
		if (i >= len)
			break;
		if (text[i] == '#') {
			while (i < len && text[i] != '\n')
				i++;
			continue;
		}
		if (text[i] == '\0')
			return fail(r, i, "NUL byte");
		e = i;
		while (e < len && text[e] != '\n' && text[e] != ';')
			e++;
		ks = i;
		ke = ks;
		while (ke < e && text[ke] != '=')
			ke++;
		if (ke == e)
			return fail(r, ks, "'=' expected after '%.*s'",
			            (int)((e - ks) > 64 ? 64 : e - ks), text + ks);
		vs = ke + 1;
		while (ke > ks && is_blank(text[ke - 1]))
			ke--;
		if (ke == ks)
			return fail(r, ks, "key expected before '='");
		while (vs < e && is_blank(text[vs]))
			vs++;
		ve = e;
		while (ve > vs && is_blank(text[ve - 1]))
			ve--;
		for (size_t k = vs; k < ve; k++)
			if (text[k] == '\0')
				return fail(r, k, "NUL byte");
		if (read_entry(r, s, text + ks, ke - ks, ks, text + vs, ve - vs, vs, first) != 0)
			return -1;
		first = 0;
		i = e;
	}
	return 0;
}

int
fr_api_spec_parse(const char *text, size_t len, struct fr_api_spec **out, char *err, size_t errlen)
{
	struct fr_api_spec *s;
	struct rd r = {text, len, err, errlen, 0, NULL};
	size_t a = 0, b = len;
	int rc = -1;

	*out = NULL;
	if (!text && len)
		return fr_errf(err, errlen, "api spec: no text");
	if (len > FR_API_SPEC_MAX_BYTES)
		return fr_errf(err, errlen, "api spec: %zu bytes, over the limit of %u", len,
		               FR_API_SPEC_MAX_BYTES);
	if (!(s = calloc(1, sizeof(*s))))
		return fr_errf(err, errlen, "api spec: out of memory");
	while (a < b && (is_blank(text[a]) || text[a] == '\n'))
		a++;
	while (b > a && (is_blank(text[b - 1]) || text[b - 1] == '\n'))
		b--;
	if (a == b) {
		fr_errf(err, errlen, "api spec: empty");
		goto out;
	}
	/* One bare word: a preset's name. */
	if (!memchr(text + a, '=', b - a) && !memchr(text + a, ';', b - a) &&
	    !memchr(text + a, '\n', b - a) && text[a] != '#') {
		if (read_preset(&r, s, text + a, b - a, a) != 0)
			goto out;
	} else if (read_text(&r, s, text, len) != 0) {
		goto out;
	}
	if (!s->has_list) {
		fr_errf(err, errlen, "api spec: no 'list' (where the items are)");
		goto out;
	}
	if (!s->f[FR_API_ID].n && !s->f[FR_API_LINK].n && !s->f[FR_API_TITLE].n &&
	    !s->f[FR_API_TEXT].n) {
		fr_errf(err, errlen, "api spec: no item field (id, link, title or text)");
		goto out;
	}
	if (s->f[FR_API_CURSOR].n && !s->cursor_param) {
		fr_errf(
		    err, errlen,
		    "api spec: 'cursor' needs 'cursor_param' (the query parameter it goes into)");
		goto out;
	}
	if (!s->name && !(s->name = strdup("custom"))) {
		fr_errf(err, errlen, "api spec: out of memory");
		goto out;
	}
	*out = s;
	s = NULL;
	rc = 0;
out:
	fr_api_spec_free(s);
	return rc;
}

/* ---- the writer ---- */

struct wbuf {
	char *p;
	size_t n, cap;
	int oom;
};

static void
wadd(struct wbuf *w, const char *s, size_t n)
{
	if (w->oom)
		return;
	if (w->n + n + 1 > w->cap) {
		size_t cap = w->cap ? w->cap : 256;
		char *p;

		while (cap < w->n + n + 1)
			cap *= 2;
		if (!(p = realloc(w->p, cap))) {
			w->oom = 1;
			return;
		}
		w->p = p;
		w->cap = cap;
	}
	memcpy(w->p + w->n, s, n);
	w->n += n;
	w->p[w->n] = '\0';
}

static void
wstr(struct wbuf *w, const char *s)
{
	wadd(w, s, strlen(s));
}

static void
wpath(struct wbuf *w, const struct api_path *p)
{
	if (p->kind == API_AT_LINK) {
		wstr(w, "@link");
		return;
	}
	if (p->kind == API_AT_LAST_ID) {
		wstr(w, "@last_id");
		return;
	}
	if (!p->n) {
		wstr(w, "."); /* the node itself (the root for the list) */
		return;
	}
	for (size_t i = 0; i < p->n; i++) {
		wadd(w, "/", 1);
		for (const char *c = p->seg[i]; *c; c++) {
			if (*c == '~')
				wadd(w, "~0", 2);
			else if (*c == '/')
				wadd(w, "~1", 2);
			else
				wadd(w, c, 1);
		}
	}
}

static const char *
fmt_name(enum fr_api_format f)
{
	return f == FR_API_FMT_HTML ? "html" : f == FR_API_FMT_ENTITIES ? "entities" : "text";
}

char *
fr_api_spec_format(const struct fr_api_spec *s)
{
	struct wbuf w = {0};

	wstr(&w, "name=");
	wstr(&w, s->name);
	wstr(&w, "\nlist=");
	wpath(&w, &s->list);
	wstr(&w, "\n");
	if (s->item.n) {
		wstr(&w, "item=");
		wpath(&w, &s->item);
		wstr(&w, "\n");
	}
	for (int f = 0; f < FR_API_NFIELDS; f++) {
		if (!s->f[f].n)
			continue;
		wstr(&w, FIELD_KEYS[f]);
		wstr(&w, "=");
		for (size_t i = 0; i < s->f[f].n; i++) {
			if (i)
				wstr(&w, "|");
			wpath(&w, &s->f[f].alt[i]);
		}
		wstr(&w, "\n");
	}
	wstr(&w, "title_format=");
	wstr(&w, fmt_name(s->title_fmt));
	wstr(&w, "\ntext_format=");
	wstr(&w, fmt_name(s->text_fmt));
	wstr(&w, "\nsummary_format=");
	wstr(&w, fmt_name(s->summary_fmt));
	wstr(&w, s->time_ms ? "\ntime_unit=ms\n" : "\ntime_unit=s\n");
	if (s->link_base) {
		wstr(&w, "link_base=");
		wstr(&w, s->link_base);
		wstr(&w, "\n");
	}
	if (s->cursor_param) {
		wstr(&w, "cursor_param=");
		wstr(&w, s->cursor_param);
		wstr(&w, "\n");
	}
	if (w.oom) {
		free(w.p);
		return NULL;
	}
	return w.p;
}
