/* link.c - WebSub discovery: RFC 8288 Link field values, and the order the
 * WebSub spec gives (HTTP Link fields, then the feed's links). Hostile
 * input: every scan is bounded by the given length and FR_WEBSUB_LINK_MAX. */
#include "websub/link.h"

#include "parse/feed.h"
#include "url/url.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int
ows(char c)
{
	return c == ' ' || c == '\t';
}

/* Skips a quoted string starting at v[i] == '"'; returns the index after
 * its closing quote (or n when unterminated). */
static size_t
skip_quoted(const char *v, size_t n, size_t i)
{
	for (i++; i < n; i++) {
		if (v[i] == '\\' && i + 1 < n)
			i++;
		else if (v[i] == '"')
			return i + 1;
	}
	return n;
}

/* Skips to the comma ending this link value (outside <> and quotes). */
static size_t
skip_value(const char *v, size_t n, size_t i)
{
	while (i < n && v[i] != ',') {
		if (v[i] == '"')
			i = skip_quoted(v, n, i);
		else if (v[i] == '<') {
			while (i < n && v[i] != '>')
				i++;
			if (i < n)
				i++;
		} else
			i++;
	}
	return i;
}

int
fr_websub_link_parse(const char *v, size_t n,
		     int (*each)(void *arg, const char *uri, size_t uri_len, const char *rels,
				 size_t rels_len),
		     void *arg)
{
	size_t i = 0, found = 0;

	if (!v)
		return 0;
	if (n > FR_WEBSUB_LINK_MAX)
		n = FR_WEBSUB_LINK_MAX;
	while (i < n) {
		const char *uri = NULL, *rels = NULL;
		size_t ul = 0, rl = 0;

		while (i < n && (ows(v[i]) || v[i] == ','))
			i++;
		if (i >= n)
			break;
		if (v[i] != '<') {
			i = skip_value(v, n, i);
			continue;
		}
		uri = v + ++i;
		while (i < n && v[i] != '>')
			i++;
		if (i >= n)
			break; /* unterminated: nothing more to read */
		ul = (size_t)(v + i - uri);
		i++;
		/* Parameters: ; name [= token | quoted-string] */
		for (;;) {
			size_t ns, nl;

			while (i < n && ows(v[i]))
				i++;
			if (i >= n || v[i] != ';')
				break;
			i++;
			while (i < n && ows(v[i]))
				i++;
			ns = i;
			while (i < n && v[i] != '=' && v[i] != ';' && v[i] != ',' && !ows(v[i]))
				i++;
			nl = i - ns;
			while (i < n && ows(v[i]))
				i++;
			if (i < n && v[i] == '=') {
				const char *val;
				size_t vl;

				i++;
				while (i < n && ows(v[i]))
					i++;
				if (i < n && v[i] == '"') {
					size_t e = skip_quoted(v, n, i);

					val = v + i + 1;
					vl = e > i + 1 && e <= n && v[e - 1] == '"' ? e - i - 2 : n - i - 1;
					i = e;
				} else {
					val = v + i;
					while (i < n && v[i] != ';' && v[i] != ',' && !ows(v[i]))
						i++;
					vl = (size_t)(v + i - val);
				}
				/* The first rel parameter counts (RFC 8288 3.3). */
				if (nl == 3 && !strncasecmp(v + ns, "rel", 3) && !rels) {
					rels = val;
					rl = vl;
				}
			}
		}
		i = skip_value(v, n, i);
		if (rels) {
			found++;
			if (each(arg, uri, ul, rels, rl))
				break;
		}
	}
	return (int)found;
}

int
fr_websub_rel_has(const char *rels, size_t n, const char *name)
{
	size_t want = strlen(name), i = 0;

	while (i < n) {
		size_t s;

		while (i < n && (rels[i] == ' ' || rels[i] == '\t'))
			i++;
		s = i;
		while (i < n && rels[i] != ' ' && rels[i] != '\t')
			i++;
		if (i - s == want && !strncasecmp(rels + s, name, want))
			return 1;
	}
	return 0;
}

int
fr_websub_url_ok(const char *s)
{
	size_t n;

	if (!s)
		return 0;
	n = strlen(s);
	if (n > 2048 || !(strncasecmp(s, "http://", 7) == 0 || strncasecmp(s, "https://", 8) == 0))
		return 0;
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] <= ' ' || s[i] == 0x7f)
			return 0;
	return s[strncasecmp(s, "http://", 7) == 0 ? 7 : 8] != '\0';
}

struct found {
	const char *base;
	char *hub, *self;
	int oom;
};

/* A link's URI resolved, when it is an http(s) URL: malloc'd, or NULL. */
static char *
resolve(struct found *f, const char *uri, size_t ul)
{
	char *ref = malloc(ul + 1), *abs, e[256];

	if (!ref) {
		f->oom = 1;
		return NULL;
	}
	memcpy(ref, uri, ul);
	ref[ul] = '\0';
	if (memchr(ref, '\0', ul)) {
		free(ref);
		return NULL;
	}
	abs = f->base ? fr_url_resolve(f->base, ref, e, sizeof(e)) : strdup(ref);
	free(ref);
	if (abs && !fr_websub_url_ok(abs)) {
		free(abs);
		abs = NULL;
	}
	return abs;
}

static int
on_link(void *arg, const char *uri, size_t ul, const char *rels, size_t rl)
{
	struct found *f = arg;

	if (!f->hub && fr_websub_rel_has(rels, rl, "hub"))
		f->hub = resolve(f, uri, ul);
	if (!f->self && fr_websub_rel_has(rels, rl, "self"))
		f->self = resolve(f, uri, ul);
	return f->oom || (f->hub && f->self);
}

int
fr_websub_links_from_headers(const char *headers, size_t len, const char *base, char **hub,
			     char **self)
{
	struct found f = {base, NULL, NULL, 0};
	size_t i = 0;

	*hub = *self = NULL;
	while (headers && i < len && !f.oom && !(f.hub && f.self)) {
		const char *line = headers + i, *nl = memchr(line, '\n', len - i);
		size_t ll = nl ? (size_t)(nl - line) : len - i;

		i += ll + (nl != NULL);
		if (ll && line[ll - 1] == '\r')
			ll--;
		if (ll > 5 && !strncasecmp(line, "link:", 5))
			fr_websub_link_parse(line + 5, ll - 5, on_link, &f);
	}
	if (f.oom) {
		free(f.hub);
		free(f.self);
		return -1;
	}
	*hub = f.hub;
	*self = f.self;
	return 0;
}

int
fr_websub_discover(const struct fr_feed *feed, const char *headers, size_t hlen, const char *url,
		   char **hub, char **topic)
{
	char *h = NULL, *s = NULL;

	*hub = *topic = NULL;
	if (fr_websub_links_from_headers(headers, hlen, url, &h, &s) < 0)
		return -1;
	if (!h && feed && fr_websub_url_ok(feed->hub) && !(h = strdup(feed->hub)))
		goto oom;
	if (!h) {
		free(s);
		return 0;
	}
	if (!s && feed && fr_websub_url_ok(feed->self) && !(s = strdup(feed->self)))
		goto oom;
	if (!s && url && fr_websub_url_ok(url) && !(s = strdup(url)))
		goto oom;
	if (!s) {
		free(h);
		return 0;
	}
	*hub = h;
	*topic = s;
	return 1;
oom:
	free(h);
	free(s);
	return -1;
}
