/* sites.c - the manifest web of `freshet serve --sites` (see sites.h): the
 * manifest is read whole at start, every body made then, and a request is
 * one hash lookup on host + path + query. */
#include "testkit/sites.h"

#include "core/err.h"
#include "core/hex.h"
#include "core/lines.h"
#include "core/strmap.h"
#include "testkit/feedgen.h"
#include "testkit/server.h"
#include "testkit/text.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define KEY_MAX 8192 /* bytes of a match key */

struct entry {
	int status;
	char *ctype;    /* owned */
	char *body;     /* owned, NUL-terminated */
	size_t len;
	char *location; /* owned, for 3xx; else NULL */
	char etag[24];  /* "\"<16 hex>\"" for 200s, else "" */
	unsigned long line;
};

struct fr_sites {
	struct fr_strmap *keys; /* key -> index in entries */
	struct entry *entries;
	size_t n, cap;
};

static const char NOT_FOUND[] = "not found\n";

int
fr_sites_url_key(const char *url, char *buf, size_t len, const char **why)
{
	const char *p = url, *host, *hend, *path, *q, *qend;
	size_t n = 0;

	if (!strncasecmp(p, "http://", 7))
		p += 7;
	else if (!strncasecmp(p, "https://", 8))
		p += 8;
	else {
		*why = "is not an http:// or https:// URL";
		return -1;
	}
	host = p;
	hend = host + strcspn(host, "/?#");
	if (memchr(host, '@', (size_t)(hend - host))) {
		*why = "has user info (not supported)";
		return -1;
	}
	path = hend;
	{
		/* The port, if any, is dropped: the server sees only the name. */
		const char *colon = memchr(host, ':', (size_t)(hend - host));

		if (host < hend && *host == '[') {
			const char *rb = memchr(host, ']', (size_t)(hend - host));
			colon = rb ? memchr(rb, ':', (size_t)(hend - rb)) : NULL;
		}
		if (colon) {
			for (const char *d = colon + 1; d < hend; d++) {
				if (*d < '0' || *d > '9') {
					*why = "has a bad port";
					return -1;
				}
			}
			hend = colon;
		}
	}
	if (hend > host && hend[-1] == '.')
		hend--;
	if (hend == host) {
		*why = "has no host";
		return -1;
	}
	for (const char *h = host; h < hend; h++) {
		unsigned char c = (unsigned char)*h;

		if (c <= ' ' || c == 0x7f) {
			*why = "has a blank or control byte in its host";
			return -1;
		}
		if (n + 1 >= len)
			goto too_long;
		buf[n++] = (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : (char)c;
	}
	q = path + strcspn(path, "?#");
	if (q == path) {
		if (n + 1 >= len)
			goto too_long;
		buf[n++] = '/';
	}
	for (const char *s = path; s < q; s++) {
		unsigned char c = (unsigned char)*s;
		int hi, lo;

		if (c <= ' ' || c == 0x7f) {
			*why = "has a blank or control byte (percent-encode it)";
			return -1;
		}
		if (c == '%' && s + 2 < q && (hi = fr_hex_digit(s[1])) >= 0 &&
		    (lo = fr_hex_digit(s[2])) >= 0) {
			c = (unsigned char)(hi * 16 + lo);
			s += 2;
		}
		if (n + 1 >= len)
			goto too_long;
		buf[n++] = (char)c;
	}
	if (*q == '?') {
		q++;
		qend = q + strcspn(q, "#");
		if (qend > q) {
			if (n + 1 + (size_t)(qend - q) >= len)
				goto too_long;
			buf[n++] = '?';
			for (; q < qend; q++) {
				if ((unsigned char)*q <= ' ' || *q == 0x7f) {
					*why = "has a blank or control byte (percent-encode it)";
					return -1;
				}
				buf[n++] = *q;
			}
		}
	}
	buf[n] = '\0';
	return 0;
too_long:
	*why = "is too long";
	return -1;
}

void
fr_sites_free(struct fr_sites *w)
{
	if (!w)
		return;
	for (size_t i = 0; i < w->n; i++) {
		free(w->entries[i].ctype);
		free(w->entries[i].body);
		free(w->entries[i].location);
	}
	free(w->entries);
	fr_strmap_free(w->keys);
	free(w);
}

size_t
fr_sites_count(const struct fr_sites *w)
{
	return w->n;
}

/* FNV-1a, 64 bits: an ETag that changes when the body does. */
static uint64_t
fnv1a(const char *p, size_t n)
{
	uint64_t h = 14695981039346656037ull;

	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)p[i];
		h *= 1099511628211ull;
	}
	return h;
}

/* Reads a whole file of at most FR_SITES_FILE_MAX bytes. Returns 0 with a
 * malloc'd NUL-terminated body, or -1 with *why (a static string or
 * strerror's). */
static int
read_file(const char *path, char **out, size_t *len, const char **why)
{
	FILE *f = fopen(path, "rb");
	struct stat sb;
	char *p;
	size_t n;

	if (!f) {
		*why = strerror(errno);
		return -1;
	}
	if (fstat(fileno(f), &sb) != 0 || !S_ISREG(sb.st_mode)) {
		*why = "not a regular file";
		fclose(f);
		return -1;
	}
	if ((uint64_t)sb.st_size > FR_SITES_FILE_MAX) {
		*why = "larger than 16 MiB";
		fclose(f);
		return -1;
	}
	p = malloc((size_t)sb.st_size + 1);
	if (!p) {
		*why = "out of memory";
		fclose(f);
		return -1;
	}
	n = fread(p, 1, (size_t)sb.st_size + 1, f);
	if (ferror(f) || n > (size_t)sb.st_size) {
		*why = ferror(f) ? "read error" : "grew while read";
		free(p);
		fclose(f);
		return -1;
	}
	fclose(f);
	p[n] = '\0';
	*out = p;
	*len = n;
	return 0;
}

/* A small feed of format fmt at url, "Feed at URL", three items. */
static char *
make_feed(enum fr_feedgen_format fmt, const char *url, size_t *len)
{
	struct fr_feedgen_item items[3];
	char title[600], home[600], ids[3][700], links[3][700], ititles[3][64];
	struct fr_feedgen f;
	struct fr_text t = {0};
	const char *hstart = strstr(url, "://");
	size_t hlen;

	hstart = hstart ? hstart + 3 : url;
	hlen = strcspn(hstart, "/?#");
	snprintf(home, sizeof(home), "%.*s%.*s/", (int)(hstart - url), url, (int)hlen, hstart);
	snprintf(title, sizeof(title), "Feed at %s", url);
	for (int i = 0; i < 3; i++) {
		snprintf(ids[i], sizeof(ids[i]), "%s#item-%d", url, 3 - i);
		snprintf(links[i], sizeof(links[i]), "%sitem-%d.html", home, 3 - i);
		snprintf(ititles[i], sizeof(ititles[i]), "Item %d", 3 - i);
		items[i].id = ids[i];
		items[i].title = ititles[i];
		items[i].link = links[i];
		items[i].summary = ititles[i];
		/* 2024-01-01T00:00:00Z and a day apart, newest first. */
		items[i].published_s = 1704067200 + (int64_t)(2 - i) * 86400;
	}
	memset(&f, 0, sizeof(f));
	f.format = fmt;
	f.title = title;
	f.feed_url = url;
	f.home_url = home;
	f.items = items;
	f.n_items = 3;
	fr_feedgen_render(&f, &t);
	return fr_text_take(&t, len);
}

/* The literal of text:, with \n, \t and \\ unescaped. */
static char *
unescape_text(const char *s, size_t *len)
{
	char *out = malloc(strlen(s) + 1);
	size_t n = 0;

	if (!out)
		return NULL;
	for (; *s; s++) {
		if (*s == '\\' && (s[1] == 'n' || s[1] == 't' || s[1] == '\\')) {
			s++;
			out[n++] = *s == 'n' ? '\n' : *s == 't' ? '\t' : '\\';
		} else {
			out[n++] = *s;
		}
	}
	out[n] = '\0';
	*len = n;
	return out;
}

/* Trims blanks at both ends, in place. */
static char *
trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	*e = '\0';
	return s;
}

static int
valid_type(const char *t)
{
	const char *slash = strchr(t, '/');

	if (!slash || slash == t || !slash[1] || slash[1] == ';' || slash[1] == ' ')
		return 0;
	for (; *t; t++)
		if ((unsigned char)*t < 0x20 || *t == 0x7f)
			return 0;
	return 1;
}

static int
parse_code(const char *s, int lo, int hi, int *out, const char **end)
{
	int v = 0, n = 0;

	while (s[n] >= '0' && s[n] <= '9' && n < 4)
		v = v * 10 + (s[n++] - '0');
	if (n != 3 || v < lo || v > hi)
		return -1;
	*out = v;
	*end = s + n;
	return 0;
}

static const char *
reason(int code)
{
	switch (code) {
	case 301:
		return "Moved Permanently";
	case 302:
		return "Found";
	case 303:
		return "See Other";
	case 307:
		return "Temporary Redirect";
	case 308:
		return "Permanent Redirect";
	case 404:
		return "Not Found";
	case 410:
		return "Gone";
	case 500:
		return "Internal Server Error";
	default:
		return "";
	}
}

/* Fills e from TYPE and SOURCE of the line at url. Returns 0, or -1 with
 * the reason in msg. */
static int
make_entry(struct entry *e, const char *url, const char *type, char *src, const char *dir,
           char *msg, size_t msglen)
{
	const char *why;

	if (!valid_type(type)) {
		fr_errf(msg, msglen, "TYPE '%s' is not a content type (type/subtype)", type);
		return -1;
	}
	e->ctype = strdup(type);
	if (!e->ctype)
		goto oom;
	if (!strncmp(src, "file:", 5)) {
		const char *fp = trim(src + 5);
		char full[4096];

		if (!*fp) {
			fr_errf(msg, msglen, "file: wants a path");
			return -1;
		}
		if (fp[0] == '/' || !dir)
			snprintf(full, sizeof(full), "%s", fp);
		else if ((size_t)snprintf(full, sizeof(full), "%s/%s", dir, fp) >= sizeof(full)) {
			fr_errf(msg, msglen, "file:%s: path too long", fp);
			return -1;
		}
		if (read_file(full, &e->body, &e->len, &why) < 0) {
			fr_errf(msg, msglen, "file:%s: cannot read %s: %s", fp, full, why);
			return -1;
		}
		e->status = 200;
	} else if (!strncmp(src, "feed:", 5)) {
		const char *name = trim(src + 5);
		enum fr_feedgen_format fmt;

		if (fr_feedgen_format_parse(name, strlen(name), &fmt) < 0) {
			fr_errf(msg, msglen, "feed:%s: the format is rss, atom, json or rdf", name);
			return -1;
		}
		e->body = make_feed(fmt, url, &e->len);
		if (!e->body)
			goto oom;
		e->status = 200;
	} else if (!strncmp(src, "status:", 7)) {
		const char *end;
		char line[64];

		if (parse_code(trim(src + 7), 400, 599, &e->status, &end) < 0 || *end) {
			fr_errf(msg, msglen, "status:%s: the status is 400..599", src + 7);
			return -1;
		}
		snprintf(line, sizeof(line), "%d %s\n", e->status, reason(e->status));
		e->body = strdup(line);
		if (!e->body)
			goto oom;
		e->len = strlen(line);
	} else if (!strncmp(src, "redirect:", 9)) {
		const char *end, *target;
		char *t = trim(src + 9);

		if (parse_code(t, 301, 308, &e->status, &end) < 0 || *end != ':' ||
		    (e->status > 303 && e->status < 307)) {
			fr_errf(msg, msglen,
			        "redirect:%s: wants redirect:CODE:TARGET, CODE 301, 302, 303, 307 "
			        "or 308",
			        t);
			return -1;
		}
		target = end + 1;
		if (!*target || strpbrk(target, " \t")) {
			fr_errf(msg, msglen, "redirect: TARGET '%s' is empty or has blanks", target);
			return -1;
		}
		if (strlen(target) >= sizeof(((struct fr_serve_resp *)0)->location)) {
			fr_errf(msg, msglen, "redirect: TARGET is too long");
			return -1;
		}
		e->location = strdup(target);
		if (!e->location)
			goto oom;
		{
			struct fr_text tx = {0};

			fr_text_printf(&tx, "%d %s: %s\n", e->status, reason(e->status), target);
			e->body = fr_text_take(&tx, &e->len);
			if (!e->body)
				goto oom;
		}
	} else if (!strncmp(src, "text:", 5)) {
		e->body = unescape_text(src + 5, &e->len);
		if (!e->body)
			goto oom;
		e->status = 200;
	} else {
		fr_errf(msg, msglen,
		        "SOURCE '%.40s' is none of file:PATH, feed:FORMAT, status:CODE, "
		        "redirect:CODE:TARGET, text:LITERAL",
		        src);
		return -1;
	}
	if (e->status == 200)
		snprintf(e->etag, sizeof(e->etag), "\"%016llx\"",
		         (unsigned long long)fnv1a(e->body, e->len));
	return 0;
oom:
	fr_errf(msg, msglen, "out of memory");
	return -1;
}

/* Parses one non-comment line into w. Returns 0, or -1 with err set. */
static int
add_line(struct fr_sites *w, char *line, unsigned long lineno, const char *path, const char *dir,
         char *err, size_t errlen)
{
	char *tab1 = strchr(line, '\t'), *tab2, *url, *type, *src;
	char key[KEY_MAX], msg[FR_ERRLEN];
	const char *why;
	struct entry e;
	uint32_t id;
	int added;

	tab2 = tab1 ? strchr(tab1 + 1, '\t') : NULL;
	if (!tab2)
		return fr_errf(err, errlen, "%s:%lu: wants URL<TAB>TYPE<TAB>SOURCE (%s tab)",
		               path, lineno, tab1 ? "one" : "no");
	*tab1 = *tab2 = '\0';
	url = trim(line);
	type = trim(tab1 + 1);
	src = tab2 + 1;
	if (strncmp(src, "text:", 5) != 0)
		src = trim(src);
	if (fr_sites_url_key(url, key, sizeof(key), &why) < 0)
		return fr_errf(err, errlen, "%s:%lu: URL '%.200s' %s", path, lineno, url, why);
	if (fr_strmap_find(w->keys, key, strlen(key), &id))
		return fr_errf(err, errlen, "%s:%lu: URL '%.200s' is already listed on line %lu",
		               path, lineno, url, w->entries[id].line);
	memset(&e, 0, sizeof(e));
	e.line = lineno;
	if (make_entry(&e, url, type, src, dir, msg, sizeof(msg)) < 0) {
		free(e.ctype);
		free(e.body);
		free(e.location);
		return fr_errf(err, errlen, "%s:%lu: %s", path, lineno, msg);
	}
	if (w->n == w->cap) {
		size_t cap = w->cap ? w->cap * 2 : 64;
		struct entry *p = realloc(w->entries, cap * sizeof(*p));

		if (!p)
			goto oom;
		w->entries = p;
		w->cap = cap;
	}
	if (fr_strmap_intern(w->keys, key, strlen(key), &id, &added) < 0)
		goto oom;
	w->entries[w->n++] = e;
	return 0;
oom:
	free(e.ctype);
	free(e.body);
	free(e.location);
	return fr_errf(err, errlen, "%s:%lu: out of memory", path, lineno);
}

struct fr_sites *
fr_sites_load(const char *path, char *err, size_t errlen)
{
	struct fr_sites *w = calloc(1, sizeof(*w));
	struct fr_lines r;
	char *line, *dir;
	const char *slash;
	size_t len;
	int rc;

	if (!w || !(w->keys = fr_strmap_new())) {
		free(w);
		fr_errf(err, errlen, "%s: out of memory", path);
		return NULL;
	}
	/* Relative file: paths are relative to the manifest's directory. */
	slash = strrchr(path, '/');
	if (!slash)
		dir = strdup(".");
	else if (slash == path)
		dir = strdup("/");
	else
		dir = strndup(path, (size_t)(slash - path));
	if (!dir) {
		fr_sites_free(w);
		fr_errf(err, errlen, "%s: out of memory", path);
		return NULL;
	}
	if (fr_lines_open(&r, path, err, errlen) < 0) {
		fr_lines_close(&r);
		free(dir);
		fr_sites_free(w);
		return NULL;
	}
	while ((rc = fr_lines_next(&r, &line, &len, err, errlen)) == 1) {
		const char *p = line;

		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p || *p == '#')
			continue;
		if (strlen(line) != len) {
			fr_errf(err, errlen, "%s:%lu: a NUL byte in the line", path, r.line);
			rc = -1;
			break;
		}
		if (add_line(w, line, r.line, path, dir, err, errlen) < 0) {
			rc = -1;
			break;
		}
	}
	fr_lines_close(&r);
	free(dir);
	if (rc < 0) {
		fr_sites_free(w);
		return NULL;
	}
	if (w->n == 0) {
		fr_errf(err, errlen, "%s: lists no URL", path);
		fr_sites_free(w);
		return NULL;
	}
	return w;
}

int
fr_sites_handle(void *ctx, const struct fr_serve_req *req, struct fr_serve_resp *resp)
{
	const struct fr_sites *w = ctx;
	char key[KEY_MAX];
	int n;
	uint32_t id;

	n = snprintf(key, sizeof(key), "%s%s%s%s", req->host_name, req->path,
	             req->query[0] ? "?" : "", req->query);
	if (n < 0 || (size_t)n >= sizeof(key) || !fr_strmap_find(w->keys, key, (size_t)n, &id)) {
		resp->status = 404;
		resp->content_type = "text/plain; charset=utf-8";
		resp->body = NOT_FOUND;
		resp->len = sizeof(NOT_FOUND) - 1;
		return 0;
	}
	{
		const struct entry *e = &w->entries[id];

		resp->status = e->status;
		resp->content_type = e->ctype;
		resp->body = e->body;
		resp->len = e->len;
		memcpy(resp->etag, e->etag, sizeof(e->etag));
		if (e->location)
			snprintf(resp->location, sizeof(resp->location), "%s", e->location);
	}
	return 0;
}
