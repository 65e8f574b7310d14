/* map.c - a JSON API response through a spec into the feed item model: json-c
 * with a depth limit reads the body, the feed parser's builder makes the
 * items (so ids, trimming and link refusal follow the feed rules), and the
 * next page comes from the body, the Link header or a cursor. */
#include "api/map.h"
#include "api/spec_internal.h"

#include "core/err.h"
#include "parse/date.h"
#include "parse/feed_internal.h"
#include "url/url.h"

#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Years 1 to 9999, as the feed date parser keeps them. */
#define TIME_MIN (-62135596800LL)
#define TIME_MAX 253402300799LL

void
fr_api_page_free(struct fr_api_page *p)
{
	if (!p)
		return;
	fr_feed_free(p->feed);
	free(p->next_url);
	free(p->cursor);
	memset(p, 0, sizeof(*p));
}

static int
is_http(const char *s)
{
	return s && (!strncasecmp(s, "http://", 7) || !strncasecmp(s, "https://", 8));
}

/* Whether s starts with a scheme ("x:"), as an absolute URL does. */
static int
has_scheme(const char *s)
{
	size_t i = 0;

	while ((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
	       (i && ((s[i] >= '0' && s[i] <= '9') || s[i] == '+' || s[i] == '-' || s[i] == '.')))
		i++;
	return i > 0 && s[i] == ':';
}

/* ---- URLs ---- */

static int
unreserved(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '-' || c == '.' || c == '_' || c == '~';
}

char *
fr_api_url_with_param(const char *url, const char *name, const char *value)
{
	size_t ulen, nlen = strlen(name), vlen = strlen(value), qs, end, w = 0;
	const char *hash, *q;
	char *out;

	if (!is_http(url))
		return NULL;
	hash = strchr(url, '#');
	ulen = hash ? (size_t)(hash - url) : strlen(url);
	q = memchr(url, '?', ulen);
	qs = q ? (size_t)(q - url) : ulen;
	/* at most: the URL, '&', the name, '=', the value 3 times over */
	if (!(out = malloc(ulen + nlen + 3 * vlen + 3)))
		return NULL;
	memcpy(out, url, qs);
	w = qs;
	out[w++] = '?';
	for (size_t i = q ? qs + 1 : ulen; i < ulen; i = end + 1) {
		size_t k;

		end = i;
		while (end < ulen && url[end] != '&')
			end++;
		for (k = i; k < end && url[k] != '='; k++)
			;
		if (end == i || (k - i == nlen && !memcmp(url + i, name, nlen)))
			continue; /* empty, or the parameter being set */
		memcpy(out + w, url + i, end - i);
		w += end - i;
		out[w++] = '&';
	}
	memcpy(out + w, name, nlen);
	w += nlen;
	out[w++] = '=';
	for (size_t i = 0; i < vlen; i++) {
		unsigned char c = (unsigned char)value[i];

		if (unreserved(c)) {
			out[w++] = (char)c;
		} else {
			static const char hex[] = "0123456789ABCDEF";

			out[w++] = '%';
			out[w++] = hex[c >> 4];
			out[w++] = hex[c & 15];
		}
	}
	out[w] = '\0';
	return out;
}

/* ref resolved against base, when the result is http(s); else NULL. */
static char *
resolve_http(const char *base, const char *ref)
{
	char err[FR_ERRLEN], *u;

	while (*ref == ' ' || *ref == '\t' || *ref == '\n' || *ref == '\r')
		ref++;
	if (!*ref)
		return NULL;
	if (has_scheme(ref)) {
		if (!is_http(ref))
			return NULL;
		base = NULL;
	} else if (!base || !*base) {
		return NULL;
	}
	u = fr_url_resolve(base, ref, err, sizeof(err));
	if (u && !is_http(u)) {
		free(u);
		u = NULL;
	}
	return u;
}

static int
lc(int c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

/* Whether the space-separated rel value v[0..n) holds "next". */
static int
rel_has_next(const char *v, size_t n)
{
	size_t i = 0;

	while (i < n) {
		size_t s;

		while (i < n && (v[i] == ' ' || v[i] == '\t'))
			i++;
		s = i;
		while (i < n && v[i] != ' ' && v[i] != '\t')
			i++;
		if (i - s == 4 && lc(v[s]) == 'n' && lc(v[s + 1]) == 'e' && lc(v[s + 2]) == 'x' &&
		    lc(v[s + 3]) == 't')
			return 1;
	}
	return 0;
}

char *
fr_api_link_next(const char *h, const char *base)
{
	const char *p = h;

	while (p && *p) {
		const char *u, *ue;
		int next = 0;

		while (*p == ' ' || *p == '\t' || *p == ',')
			p++;
		if (*p != '<') {
			/* not a link-value: skip to the next one */
			while (*p && *p != ',')
				p++;
			continue;
		}
		u = p + 1;
		if (!(ue = strchr(u, '>')))
			return NULL;
		p = ue + 1;
		for (;;) {
			const char *nm, *v;
			size_t nn, vn = 0;

			while (*p == ' ' || *p == '\t')
				p++;
			if (*p != ';')
				break;
			p++;
			while (*p == ' ' || *p == '\t')
				p++;
			nm = p;
			while (*p && *p != '=' && *p != ';' && *p != ',' && *p != ' ' && *p != '\t')
				p++;
			nn = (size_t)(p - nm);
			while (*p == ' ' || *p == '\t')
				p++;
			v = p;
			if (*p == '=') {
				p++;
				while (*p == ' ' || *p == '\t')
					p++;
				if (*p == '"') {
					v = ++p;
					while (*p && *p != '"') {
						if (*p == '\\' && p[1])
							p++;
						p++;
					}
					vn = (size_t)(p - v);
					if (*p == '"')
						p++;
				} else {
					v = p;
					while (*p && *p != ';' && *p != ',' && *p != ' ' &&
					       *p != '\t')
						p++;
					vn = (size_t)(p - v);
				}
			}
			if (nn == 3 && lc(nm[0]) == 'r' && lc(nm[1]) == 'e' && lc(nm[2]) == 'l' &&
			    rel_has_next(v, vn))
				next = 1;
		}
		if (next) {
			size_t n = (size_t)(ue - u);
			char *ref = malloc(n + 1), *out;

			if (!ref)
				return NULL;
			memcpy(ref, u, n);
			ref[n] = '\0';
			out = resolve_http(base, ref);
			free(ref);
			return out;
		}
		while (*p && *p != ',')
			p++;
	}
	return NULL;
}

/* ---- walking the document ---- */

/* Whether s is an array index (RFC 6901: "0" or digits without a leading
 * zero) below n; sets *i. */
static int
index_of(const char *s, size_t n, size_t *i)
{
	size_t v = 0;

	if (!*s || (s[0] == '0' && s[1]))
		return 0;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > (SIZE_MAX - 9) / 10)
			return 0;
		v = v * 10 + (size_t)(*s - '0');
	}
	if (v >= n)
		return 0;
	*i = v;
	return 1;
}

/* The node at p from o, or NULL when there is none or it is JSON null
 * (json-c's null is a NULL pointer): *found (may be NULL) tells them apart. */
static struct json_object *
walk_found(struct json_object *o, const struct api_path *p, int *found)
{
	int f = o != NULL;

	for (size_t k = 0; o && k < p->n; k++) {
		struct json_object *v = NULL;
		size_t i;

		f = 0;
		if (json_object_is_type(o, json_type_object)) {
			f = json_object_object_get_ex(o, p->seg[k], &v);
		} else if (json_object_is_type(o, json_type_array) &&
		           index_of(p->seg[k], json_object_array_length(o), &i)) {
			v = json_object_array_get_idx(o, i);
			f = 1;
		}
		o = v;
	}
	if (found)
		*found = f;
	return o;
}

static struct json_object *
walk(struct json_object *o, const struct api_path *p)
{
	return walk_found(o, p, NULL);
}

/* The path as a JSON Pointer, for messages (cut to the buffer). */
static const char *
pointer_text(const struct api_path *p, char *buf, size_t len)
{
	size_t w = 0;

	buf[0] = '\0';
	if (!p->n)
		return "the document's root";
	for (size_t k = 0; k < p->n && w + 1 < len; k++) {
		buf[w++] = '/';
		for (const char *c = p->seg[k]; *c && w + 3 < len; c++) {
			if (*c == '~' || *c == '/') {
				buf[w++] = '~';
				buf[w++] = *c == '~' ? '0' : '1';
			} else {
				buf[w++] = *c;
			}
		}
	}
	buf[w < len ? w : len - 1] = '\0';
	return buf;
}

/* The first alternative of a field that holds a value (not JSON null). */
static struct json_object *
first_value(const struct api_alts *a, struct json_object *item)
{
	for (size_t i = 0; i < a->n; i++) {
		struct json_object *v;

		if (a->alt[i].kind != API_PATH)
			continue;
		v = walk(item, &a->alt[i]);
		if (v && !json_object_is_type(v, json_type_null) &&
		    !(json_object_is_type(v, json_type_string) && !json_object_get_string_len(v)))
			return v;
	}
	return NULL;
}

/* A string or number's text, malloc'd; NULL for other types or out of memory. */
static char *
scalar_text(struct json_object *v)
{
	if (!v)
		return NULL;
	switch (json_object_get_type(v)) {
	case json_type_string:
		return strdup(json_object_get_string(v));
	case json_type_int: {
		char buf[32];

		snprintf(buf, sizeof(buf), "%lld", (long long)json_object_get_int64(v));
		return strdup(buf);
	}
	case json_type_double: {
		char buf[40];
		double d = json_object_get_double(v);

		if (!isfinite(d))
			return NULL;
		snprintf(buf, sizeof(buf), "%.17g", d);
		return strdup(buf);
	}
	default:
		return NULL;
	}
}

/* A link's text: a string, or an object's "href" (JSON:API 1.1). */
static const char *
link_text(struct json_object *v)
{
	struct json_object *h;

	if (v && json_object_is_type(v, json_type_object) &&
	    json_object_object_get_ex(v, "href", &h))
		v = h;
	return v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
}

/* Seconds from a number d (of seconds, or milliseconds with ms). */
static int
time_from_number(double d, int ms, int64_t *out)
{
	if (!isfinite(d))
		return -1;
	if (ms)
		d /= 1000;
	d = floor(d);
	if (d < (double)TIME_MIN || d > (double)TIME_MAX)
		return -1;
	*out = (int64_t)d;
	return 0;
}

/* A time: an ISO 8601 / RFC 3339 string (Graph's "+0000" zone too), a
 * number of Unix seconds (Reddit's float created_utc) or milliseconds, or
 * such a number as a string. */
static int
read_time(struct json_object *v, int ms, int64_t *out)
{
	const char *s;
	size_t n;
	int64_t t;

	switch (json_object_get_type(v)) {
	case json_type_int:
		if (ms)
			return time_from_number((double)json_object_get_int64(v), 1, out);
		t = json_object_get_int64(v);
		if (t < TIME_MIN || t > TIME_MAX)
			return -1;
		*out = t;
		return 0;
	case json_type_double:
		return time_from_number(json_object_get_double(v), ms, out);
	case json_type_string: {
		size_t i = 0, digits = 0;

		s = json_object_get_string(v);
		n = (size_t)json_object_get_string_len(v);
		while (i < n && (s[i] == ' ' || s[i] == '\t'))
			i++;
		if (i < n && s[i] == '-')
			i++;
		while (i < n && s[i] >= '0' && s[i] <= '9')
			i++, digits++;
		if (i < n && s[i] == '.')
			for (i++; i < n && s[i] >= '0' && s[i] <= '9'; i++)
				;
		while (i < n && (s[i] == ' ' || s[i] == '\t'))
			i++;
		/* all digits: a number (8 digits and fewer may be a basic ISO date) */
		if (i == n && digits > 8)
			return time_from_number(strtod(s, NULL), ms, out);
		return fr_date_parse(s, n, out);
	}
	default:
		return -1;
	}
}

/* ---- the mapper ---- */

struct mapper {
	const struct fr_api_spec *spec;
	const char *link_base; /* base of item links */
	struct feedb b;
	struct fr_san *san;
	struct fr_api_page *page;
	char *last_id; /* the raw id of the last entry, for @last_id */
};

/* Takes s: UTF-8 repaired, then read as fmt. NULL out of memory (or NULL s). */
static char *
as_format(struct mapper *m, char *s, enum fr_api_format fmt, const char *base)
{
	char *r;

	if (!s || !(s = fr_feed_utf8_fix(s)))
		return NULL;
	switch (fmt) {
	case FR_API_FMT_ENTITIES:
		fr_feed_html_unescape(s);
		/* a decoded reference may have been a lone surrogate */
		return fr_feed_utf8_fix(s);
	case FR_API_FMT_HTML:
		r = fr_feed_sanitize_html_r(&m->san, s, strlen(s), base, 1);
		free(s);
		return r ? fr_feed_utf8_fix(r) : NULL;
	default:
		return s;
	}
}

static void
set_text(struct mapper *m, int slot, struct json_object *item, int field, enum fr_api_format fmt,
         const char *base)
{
	struct json_object *v = first_value(&m->spec->f[field], item);
	char *s;

	if (!v || !json_object_is_type(v, json_type_string))
		return;
	if (!(s = strdup(json_object_get_string(v)))) {
		m->b.oom = 1;
		return;
	}
	if (!(s = as_format(m, s, fmt, base))) {
		m->b.oom = 1;
		return;
	}
	fr_feedb_item_str(&m->b, slot, s, 1);
}

static void
set_time(struct mapper *m, struct json_object *item, int field, int64_t *slot)
{
	struct json_object *v = first_value(&m->spec->f[field], item);
	int64_t t;

	if (!v)
		return;
	if (read_time(v, m->spec->time_ms, &t) == 0)
		*slot = t;
	else if (field == FR_API_TIME)
		m->page->n_bad_times++;
}

static void
set_link(struct mapper *m, struct json_object *item)
{
	struct fr_feed *f = m->b.f;
	struct json_object *v = first_value(&m->spec->f[FR_API_LINK], item);
	const char *s = link_text(v);
	char *u;

	if (!s)
		return;
	u = resolve_http(m->link_base, s);
	if (!u) {
		/* another scheme (javascript:, data:, ftp:) or nothing to resolve
		 * a relative link against: refused, kept for inspection */
		f->n_links_refused++;
		if (!m->b.cur->refused_link &&
		    !(m->b.cur->refused_link = fr_feed_utf8_fix(strdup(s))))
			m->b.oom = 1;
		return;
	}
	if (!(u = fr_feed_utf8_fix(u))) {
		m->b.oom = 1;
		return;
	}
	fr_feedb_item_str(&m->b, IF_LINK, u, 1);
}

static void
map_item(struct mapper *m, struct json_object *item)
{
	const struct fr_api_spec *sp = m->spec;
	struct json_object *v;
	char *s;

	if (fr_feedb_item_begin(&m->b) != 0)
		return;
	v = first_value(&sp->f[FR_API_ID], item);
	s = scalar_text(v);
	free(m->last_id);
	m->last_id = s ? strdup(s) : NULL;
	if (s && !(s = fr_feed_utf8_fix(s)))
		m->b.oom = 1;
	fr_feedb_item_str(&m->b, IF_ID, s, 1);
	set_time(m, item, FR_API_TIME, &m->b.cur->published_s);
	set_time(m, item, FR_API_UPDATED, &m->b.cur->updated_s);
	set_link(m, item);
	/* relative links inside HTML text resolve against the item's link base */
	set_text(m, IF_TITLE, item, FR_API_TITLE, sp->title_fmt, m->link_base);
	set_text(m, IF_CONTENT, item, FR_API_TEXT, sp->text_fmt, m->link_base);
	set_text(m, IF_SUMMARY, item, FR_API_SUMMARY, sp->summary_fmt, m->link_base);
	v = first_value(&sp->f[FR_API_AUTHOR], item);
	if (v && json_object_is_type(v, json_type_object)) {
		struct json_object *nm;

		v = json_object_object_get_ex(v, "name", &nm) ? nm : NULL;
	}
	if (v && json_object_is_type(v, json_type_string)) {
		s = strdup(json_object_get_string(v));
		if (!s || !(s = fr_feed_utf8_fix(s)))
			m->b.oom = 1;
		fr_feedb_item_str(&m->b, IF_AUTHOR, s, 1);
	}
	fr_feedb_item_end(&m->b);
}

/* An API's error object where the list should be, as one line in buf:
 * Graph's {"error":{"message","type","code"}}, Mastodon's {"error":"..."},
 * Reddit's {"message","error":429}, JSON:API's {"errors":[{"title"}]}.
 * Returns buf, or NULL when root is no such object. */
static const char *
error_text(struct json_object *root, char *buf, size_t len)
{
	struct json_object *e, *v;
	const char *msg = NULL, *type = NULL;
	long long code = 0;

	if (!json_object_is_type(root, json_type_object))
		return NULL;
	if (json_object_object_get_ex(root, "errors", &e) &&
	    json_object_is_type(e, json_type_array) && json_object_array_length(e) > 0)
		e = json_object_array_get_idx(e, 0);
	else if (!json_object_object_get_ex(root, "error", &e))
		return NULL;
	if (json_object_is_type(e, json_type_object)) {
		if (json_object_object_get_ex(e, "message", &v) ||
		    json_object_object_get_ex(e, "title", &v) ||
		    json_object_object_get_ex(e, "detail", &v))
			msg = json_object_get_string(v);
		if (json_object_object_get_ex(e, "type", &v))
			type = json_object_get_string(v);
		if ((json_object_object_get_ex(e, "code", &v) ||
		     json_object_object_get_ex(e, "status", &v)))
			code = json_object_get_int64(v);
	} else if (json_object_is_type(e, json_type_string)) {
		msg = json_object_get_string(e);
	} else if (json_object_is_type(e, json_type_int)) {
		code = json_object_get_int64(e);
		if (json_object_object_get_ex(root, "message", &v))
			msg = json_object_get_string(v);
	}
	if (code && type)
		snprintf(buf, len, "error %lld (%.64s): %.200s", code, type, msg ? msg : "");
	else if (code)
		snprintf(buf, len, "error %lld: %.200s", code, msg ? msg : "");
	else
		snprintf(buf, len, "error: %.200s", msg ? msg : "");
	return buf;
}

static void
find_next(struct mapper *m, struct json_object *root, const struct fr_api_map_opts *o)
{
	const struct fr_api_spec *sp = m->spec;
	struct fr_api_page *pg = m->page;

	for (size_t i = 0; i < sp->f[FR_API_NEXT].n && !pg->next_url; i++) {
		const struct api_path *p = &sp->f[FR_API_NEXT].alt[i];
		const char *s;

		if (p->kind == API_AT_LINK)
			pg->next_url =
			    o->link_header ? fr_api_link_next(o->link_header, o->url) : NULL;
		else if ((s = link_text(walk(root, p))) != NULL)
			pg->next_url = resolve_http(o->url, s);
	}
	for (size_t i = 0; i < sp->f[FR_API_CURSOR].n && !pg->cursor; i++) {
		const struct api_path *p = &sp->f[FR_API_CURSOR].alt[i];

		if (p->kind == API_AT_LAST_ID) {
			if (m->last_id && *m->last_id)
				pg->cursor = strdup(m->last_id);
		} else {
			struct json_object *v = walk(root, p);
			char *c =
			    v && !json_object_is_type(v, json_type_null) ? scalar_text(v) : NULL;

			if (c && !*c) {
				free(c);
				c = NULL;
			}
			pg->cursor = c;
		}
	}
	if (pg->cursor && !(pg->cursor = fr_feed_utf8_fix(pg->cursor)))
		m->b.oom = 1;
	if (!pg->next_url && pg->cursor && sp->cursor_param && o->url)
		pg->next_url = fr_api_url_with_param(o->url, sp->cursor_param, pg->cursor);
	if (pg->next_url && !(pg->next_url = fr_feed_utf8_fix(pg->next_url)))
		m->b.oom = 1;
	if (pg->n_entries == 0) {
		free(pg->next_url);
		pg->next_url = NULL;
	}
}

int
fr_api_map(const struct fr_api_spec *spec, const char *body, size_t len,
           const struct fr_api_map_opts *opts, struct fr_api_page *out, char *err, size_t errlen)
{
	static const struct fr_api_map_opts none;
	const struct fr_api_map_opts *o = opts ? opts : &none;
	size_t max_bytes = o->max_bytes ? o->max_bytes : FR_API_MAX_BYTES_DEFAULT;
	unsigned depth = o->max_depth ? o->max_depth : FR_API_MAX_DEPTH_DEFAULT;
	struct fr_feed_opts fo = {0};
	struct json_tokener *tok;
	struct json_object *root = NULL, *list;
	struct mapper m = {0};
	char where[256], ebuf[400];
	size_t end;
	int rc = -1, found;

	memset(out, 0, sizeof(*out));
	if (!body && len)
		return fr_errf(err, errlen, "api response: no data");
	if (len > max_bytes || len > INT32_MAX)
		return fr_errf(err, errlen, "api response: %zu bytes, over the limit of %zu", len,
		               max_bytes);
	if (!(tok = json_tokener_new_ex((int)(depth > 1024 ? 1024 : depth))))
		return fr_errf(err, errlen, "api response: out of memory");
	root = json_tokener_parse_ex(tok, body ? body : "", (int)len);
	if (!root) {
		enum json_tokener_error je = json_tokener_get_error(tok);

		fr_errf(err, errlen, "api response: JSON at byte %zu: %s",
		        json_tokener_get_parse_end(tok),
		        je == json_tokener_continue  ? "unexpected end of data"
		        : je == json_tokener_success ? "null where a document should be"
		                                     : json_tokener_error_desc(je));
		json_tokener_free(tok);
		return -1;
	}
	end = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	list = walk_found(root, &spec->list, &found);
	if (!found || (list && !json_object_is_type(list, json_type_array))) {
		const char *e = error_text(root, ebuf, sizeof(ebuf));

		if (e)
			fr_errf(err, errlen, "api response: %s", e);
		else if (!found)
			fr_errf(err, errlen, "api response: no list at %s",
			        pointer_text(&spec->list, where, sizeof(where)));
		else
			fr_errf(err, errlen, "api response: %s is a%s %s, not a list",
			        pointer_text(&spec->list, where, sizeof(where)),
			        json_object_is_type(list, json_type_object) ||
			                json_object_is_type(list, json_type_int) ||
			                json_object_is_type(list, json_type_array)
			            ? "n"
			            : "",
			        json_type_to_name(json_object_get_type(list)));
		json_object_put(root);
		return -1;
	}
	m.spec = spec;
	m.page = out;
	m.link_base = spec->link_base ? spec->link_base : o->url;
	fo.base_url = m.link_base;
	fo.max_items = o->max_items;
	if (fr_feedb_init(&m.b, &fo) != 0) {
		json_object_put(root);
		return fr_errf(err, errlen, "api response: out of memory");
	}
	{
		size_t n = strlen(spec->name);
		char *v = malloc(n + 5);

		if (v) {
			memcpy(v, "api:", 4);
			memcpy(v + 4, spec->name, n + 1);
		}
		if (!v || !(v = fr_feed_utf8_fix(v)))
			m.b.oom = 1;
		m.b.f->version = v;
	}
	while (end < len &&
	       (body[end] == ' ' || body[end] == '\n' || body[end] == '\r' || body[end] == '\t'))
		end++;
	if (end < len)
		fr_feedb_bozo(&m.b, "byte %zu: data after the JSON document", end);
	if (list) { /* an array; NULL: JSON null, an empty page */
		size_t n = json_object_array_length(list);

		out->n_entries = n;
		for (size_t i = 0; i < n && !m.b.oom; i++) {
			struct json_object *item =
			    walk(json_object_array_get_idx(list, i), &spec->item);

			if (!item || json_object_is_type(item, json_type_null) ||
			    !json_object_is_type(item, json_type_object)) {
				out->n_skipped++;
				continue;
			}
			map_item(&m, item);
		}
	}
	find_next(&m, root, o);
	fr_feedb_finish(&m.b);
	if (m.b.oom) {
		fr_errf(err, errlen, "api response: out of memory");
		fr_feedb_abort(&m.b);
		fr_api_page_free(out);
		goto done;
	}
	out->feed = m.b.f;
	rc = 0;
done:
	free(m.last_id);
	fr_feed_san_free(m.san);
	json_object_put(root);
	return rc;
}
