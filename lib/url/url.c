/* url.c - URL resolution and normalisation over libcurl's URL API
 * (curl_url). Strings libcurl returns are copied to malloc'd memory so that
 * callers free them with free, never curl_free. */
#include "url/url.h"

#include "core/err.h"

#include <ctype.h>
#include <curl/curl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Parse flags: feeds link to schemes libcurl does not fetch (mailto:, tag:),
 * and to paths with raw spaces. */
#define PARSE_FLAGS (CURLU_NON_SUPPORT_SCHEME | CURLU_ALLOW_SPACE | CURLU_URLENCODE)

static int
is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f';
}

/* A malloc'd copy of s without blanks around it. */
static char *
trimmed(const char *s)
{
	size_t n;
	char *out;

	while (*s && is_blank(*s))
		s++;
	n = strlen(s);
	while (n && is_blank(s[n - 1]))
		n--;
	out = malloc(n + 1);
	if (!out)
		return NULL;
	memcpy(out, s, n);
	out[n] = '\0';
	return out;
}

/* A malloc'd copy of a curl string, which is freed. */
static char *
from_curl(char *s)
{
	char *out;

	if (!s)
		return NULL;
	out = strdup(s);
	curl_free(s);
	return out;
}

static char *
get_url(CURLU *h, unsigned flags, const char *what, char *err, size_t errlen)
{
	char *s = NULL;
	CURLUcode rc = curl_url_get(h, CURLUPART_URL, &s, flags);
	char *out;

	if (rc != CURLUE_OK) {
		fr_errf(err, errlen, "url '%s': %s", what, curl_url_strerror(rc));
		return NULL;
	}
	out = from_curl(s);
	if (!out)
		fr_errf(err, errlen, "url '%s': out of memory", what);
	return out;
}

/* Whether s starts with a scheme and ':' but no "//" after it: an absolute
 * URI without authority (mailto:, tag:, urn:), which curl_url does not
 * parse and which resolves to itself. */
static int
is_opaque_absolute(const char *s)
{
	const char *p = s;

	if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')))
		return 0;
	while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
	       *p == '+' || *p == '-' || *p == '.')
		p++;
	return *p == ':' && strncmp(p + 1, "//", 2) != 0;
}

/* base (a parsed absolute URL in h) with its fragment replaced by frag
 * ("#..."): RFC 3986 5.2.2 keeps path and query for a fragment-only ref. */
static char *
with_fragment(CURLU *h, const char *frag, char *err, size_t errlen)
{
	char *s = NULL, *out;
	size_t n, fn = strlen(frag);

	curl_url_set(h, CURLUPART_FRAGMENT, NULL, 0);
	if (curl_url_get(h, CURLUPART_URL, &s, 0) != CURLUE_OK || !s) {
		fr_errf(err, errlen, "url '%s': cannot rebuild the base", frag);
		return NULL;
	}
	n = strlen(s);
	out = malloc(n + fn + 1);
	if (out) {
		memcpy(out, s, n);
		memcpy(out + n, frag, fn + 1);
	} else {
		fr_errf(err, errlen, "url '%s': out of memory", frag);
	}
	curl_free(s);
	return out;
}

char *
fr_url_resolve(const char *base, const char *ref, char *err, size_t errlen)
{
	CURLU *h = NULL;
	char *b = NULL, *r = NULL, *out = NULL;
	CURLUcode rc;

	if (!ref) {
		fr_errf(err, errlen, "url: no reference given");
		return NULL;
	}
	r = trimmed(ref);
	b = base ? trimmed(base) : NULL;
	h = curl_url();
	if (!r || (base && !b) || !h) {
		fr_errf(err, errlen, "url '%s': out of memory", ref);
		goto done;
	}
	if (b && *b) {
		rc = curl_url_set(h, CURLUPART_URL, b, PARSE_FLAGS);
		if (rc != CURLUE_OK) {
			fr_errf(err, errlen, "base url '%s': %s", b, curl_url_strerror(rc));
			goto done;
		}
		if (!*r) {
			/* RFC 3986 5.2.2: an empty reference is the base without
			 * its fragment. */
			curl_url_set(h, CURLUPART_FRAGMENT, NULL, 0);
			out = get_url(h, 0, b, err, errlen);
			goto done;
		}
		if (*r == '#') {
			out = with_fragment(h, r, err, errlen);
			goto done;
		}
	} else if (!*r) {
		fr_errf(err, errlen, "url '': empty, and no base to resolve it against");
		goto done;
	}
	if (is_opaque_absolute(r)) {
		out = r;
		r = NULL;
		goto done;
	}
	rc = curl_url_set(h, CURLUPART_URL, r, PARSE_FLAGS);
	if (rc != CURLUE_OK) {
		if (!(b && *b) && (rc == CURLUE_BAD_SCHEME || rc == CURLUE_MALFORMED_INPUT ||
		                   rc == CURLUE_NO_SCHEME))
			fr_errf(err, errlen, "url '%s': relative, and no base to resolve it against", r);
		else
			fr_errf(err, errlen, "url '%s': %s", r, curl_url_strerror(rc));
		goto done;
	}
	out = get_url(h, 0, r, err, errlen);
done:
	curl_url_cleanup(h);
	free(b);
	free(r);
	return out;
}

static void
lower_in_place(char *s)
{
	for (; *s; s++)
		if (*s >= 'A' && *s <= 'Z')
			*s = (char)(*s - 'A' + 'a');
}

/* Session-id parameter names, compared case-insensitively; utm_* is a prefix. */
static int
is_session_param(const char *name, size_t n)
{
	static const char *const names[] = {"phpsessid", "jsessionid", "sid", "sessionid",
	                                    "session_id", "aspsessionid", "cfid", "cftoken"};

	if (n >= 4 && strncasecmp(name, "utm_", 4) == 0)
		return 1;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strlen(names[i]) == n && strncasecmp(name, names[i], n) == 0)
			return 1;
	return 0;
}

struct param {
	const char *s;
	size_t n;
	size_t order;
};

static int
cmp_param(const void *a, const void *b)
{
	const struct param *x = a, *y = b;
	size_t n = x->n < y->n ? x->n : y->n;
	int c = memcmp(x->s, y->s, n);

	if (c)
		return c;
	if (x->n != y->n)
		return x->n < y->n ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* The query as curl writes it: bytes outside printable ASCII (and space)
 * percent-encoded, escapes in lower case. Sorting this form, not the raw
 * one, keeps normalisation idempotent. malloc'd, or NULL. */
static char *
encode_query(const char *q)
{
	static const char hex[] = "0123456789abcdef";
	size_t n = strlen(q);
	char *out = malloc(3 * n + 1), *w = out;

	if (!out)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)q[i];

		if (c == '%' && i + 2 < n && isxdigit((unsigned char)q[i + 1]) &&
		    isxdigit((unsigned char)q[i + 2])) {
			*w++ = '%';
			*w++ = (char)tolower((unsigned char)q[i + 1]);
			*w++ = (char)tolower((unsigned char)q[i + 2]);
			i += 2;
		} else if (c <= 0x20 || c >= 0x7f) {
			*w++ = '%';
			*w++ = hex[c >> 4];
			*w++ = hex[c & 15];
		} else {
			*w++ = (char)c;
		}
	}
	*w = '\0';
	return out;
}

/* Rewrites query q (without '?') per flags into a malloc'd string (possibly
 * empty), or NULL on out of memory. */
static char *
rewrite_query(const char *raw, unsigned flags)
{
	char *q = encode_query(raw);
	size_t len, np = 0, cap = 1;
	struct param *ps;
	char *out, *w;

	if (!q)
		return NULL;
	len = strlen(q);

	for (size_t i = 0; i < len; i++)
		if (q[i] == '&')
			cap++;
	ps = malloc(cap * sizeof(*ps));
	out = malloc(len + 1);
	if (!ps || !out) {
		free(ps);
		free(out);
		free(q);
		return NULL;
	}
	for (const char *p = q; p <= q + len;) {
		const char *amp = memchr(p, '&', (size_t)(q + len - p));
		const char *end = amp ? amp : q + len;
		size_t n = (size_t)(end - p);
		const char *eq = memchr(p, '=', n);
		size_t name_n = eq ? (size_t)(eq - p) : n;

		if (n && !((flags & FR_URL_STRIP_SESSION) && is_session_param(p, name_n))) {
			ps[np].s = p;
			ps[np].n = n;
			ps[np].order = np;
			np++;
		}
		p = end + 1;
	}
	if ((flags & FR_URL_SORT_QUERY) && np > 1)
		qsort(ps, np, sizeof(*ps), cmp_param);
	w = out;
	for (size_t i = 0; i < np; i++) {
		if (i)
			*w++ = '&';
		memcpy(w, ps[i].s, ps[i].n);
		w += ps[i].n;
	}
	*w = '\0';
	free(ps);
	free(q);
	return out;
}

/* Removes ";jsessionid=..." (up to the next '/' or ';') from a path. */
static void
strip_path_session(char *path)
{
	char *p = path;

	while ((p = strchr(p, ';')) != NULL) {
		if (strncasecmp(p + 1, "jsessionid=", 11) == 0) {
			char *end = p + 1;

			while (*end && *end != '/' && *end != ';')
				end++;
			memmove(p, end, strlen(end) + 1);
		} else {
			p++;
		}
	}
}

/* One pass of fr_url_normalize. */
static char *
normalize_once(const char *url, unsigned flags, char *err, size_t errlen)
{
	CURLU *h = curl_url();
	char *u = url ? trimmed(url) : NULL;
	char *part = NULL, *q = NULL, *out = NULL;
	CURLUcode rc;
	int again = 0;

	if (!url) {
		fr_errf(err, errlen, "url: none given");
		goto done;
	}
	if (!h || !u) {
		fr_errf(err, errlen, "url '%s': out of memory", url);
		goto done;
	}
	rc = curl_url_set(h, CURLUPART_URL, u, PARSE_FLAGS);
	if (rc != CURLUE_OK) {
		fr_errf(err, errlen, "url '%s': %s", u, curl_url_strerror(rc));
		goto done;
	}
	if (curl_url_get(h, CURLUPART_SCHEME, &part, 0) == CURLUE_OK && part) {
		lower_in_place(part);
		curl_url_set(h, CURLUPART_SCHEME, part, CURLU_NON_SUPPORT_SCHEME);
		curl_free(part);
		part = NULL;
	}
	if (curl_url_get(h, CURLUPART_HOST, &part, 0) == CURLUE_OK && part) {
		lower_in_place(part);
		rc = curl_url_set(h, CURLUPART_HOST, part, 0);
		curl_free(part);
		part = NULL;
		if (rc != CURLUE_OK) {
			fr_errf(err, errlen, "url '%s': host: %s", u, curl_url_strerror(rc));
			goto done;
		}
	}
	curl_url_set(h, CURLUPART_FRAGMENT, NULL, 0);
	if (curl_url_get(h, CURLUPART_PATH, &part, 0) == CURLUE_OK && part) {
		char *p = strdup(part);

		curl_free(part);
		part = NULL;
		if (!p) {
			fr_errf(err, errlen, "url '%s': out of memory", u);
			goto done;
		}
		if (flags & FR_URL_STRIP_SESSION) {
			size_t before = strlen(p);

			strip_path_session(p);
			/* "/a/.;jsessionid=x/b" leaves a dot segment to remove */
			again = strlen(p) != before;
		}
		curl_url_set(h, CURLUPART_PATH, *p ? p : "/", 0);
		free(p);
	}
	if (curl_url_get(h, CURLUPART_QUERY, &part, 0) == CURLUE_OK && part) {
		q = rewrite_query(part, flags);
		curl_free(part);
		part = NULL;
		if (!q) {
			fr_errf(err, errlen, "url '%s': out of memory", u);
			goto done;
		}
		curl_url_set(h, CURLUPART_QUERY, *q ? q : NULL, 0);
	}
	out = get_url(h, CURLU_NO_DEFAULT_PORT, u, err, errlen);
	if (out && again) {
		char *o2 = normalize_once(out, flags, err, errlen);

		free(out);
		out = o2;
	}
done:
	free(q);
	free(u);
	curl_url_cleanup(h);
	return out;
}

/* The normal form is a fixed point: curl_url takes "h:/%30" as host "%30",
 * decodes it to "0" and writes "h://0/", which parses again as the IPv4
 * address 0.0.0.0. A pass that changes the form is repeated (at most
 * three times) so that normalising twice gives what normalising once did.
 * A pass that leaves its input as it was has reached the fixed point (the
 * pass is deterministic), the common case of a URL already in normal form. */
char *
fr_url_normalize(const char *url, unsigned flags, char *err, size_t errlen)
{
	char *out = normalize_once(url, flags, err, errlen);

	if (out && !strcmp(out, url))
		return out;
	for (int i = 0; out && i < 3; i++) {
		char e2[FR_ERRLEN];
		char *o2 = normalize_once(out, flags, e2, sizeof(e2));

		if (!o2 || !strcmp(o2, out)) {
			free(o2);
			break;
		}
		free(out);
		out = o2;
	}
	return out;
}

char *
fr_url_host(const char *url)
{
	CURLU *h;
	char *part = NULL, *out = NULL;

	if (!url)
		return NULL;
	h = curl_url();
	if (!h)
		return NULL;
	if (curl_url_set(h, CURLUPART_URL, url, PARSE_FLAGS) == CURLUE_OK &&
	    curl_url_get(h, CURLUPART_HOST, &part, 0) == CURLUE_OK && part && *part) {
		out = strdup(part);
		if (out)
			lower_in_place(out);
	}
	curl_free(part);
	curl_url_cleanup(h);
	return out;
}

char *
fr_url_path_query(const char *url)
{
	CURLU *h;
	char *path = NULL, *query = NULL, *out = NULL;

	if (!url)
		return NULL;
	h = curl_url();
	if (!h)
		return NULL;
	if (curl_url_set(h, CURLUPART_URL, url, PARSE_FLAGS) == CURLUE_OK &&
	    curl_url_get(h, CURLUPART_PATH, &path, 0) == CURLUE_OK) {
		const char *p = path && *path ? path : "/";
		size_t pn = strlen(p), qn;

		if (curl_url_get(h, CURLUPART_QUERY, &query, 0) != CURLUE_OK)
			query = NULL;
		qn = query ? strlen(query) + 1 : 0;
		out = malloc(pn + qn + 1);
		if (out) {
			memcpy(out, p, pn);
			if (query) {
				out[pn] = '?';
				memcpy(out + pn + 1, query, qn - 1);
			}
			out[pn + qn] = '\0';
		}
	}
	curl_free(path);
	curl_free(query);
	curl_url_cleanup(h);
	return out;
}
