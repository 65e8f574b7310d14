/* scrub.c - credentials out of strings, in one pass: at each byte, a secret
 * parameter's value, the token or its percent-encoded form is replaced
 * (and a tail of four bytes or more that begins the token: a string cut
 * short); anything else is copied. */
#include "api/scrub.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* NOTE: names in lower case; matched without regard to case. */
static const char *const SECRET_PARAMS[] = {"access_token=", "client_secret=", "appsecret_proof="};

static int
unreserved(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '-' || c == '.' || c == '_' || c == '~';
}

/* token percent-encoded (malloc'd), or NULL when it needs no encoding or on
 * out of memory (the plain form is still scrubbed). */
static char *
encoded(const char *token)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t n = strlen(token), w = 0, k = 0;
	char *e;

	for (size_t i = 0; i < n; i++)
		k += !unreserved((unsigned char)token[i]);
	if (!k || !(e = malloc(n + 2 * k + 1)))
		return NULL;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)token[i];

		if (unreserved(c)) {
			e[w++] = (char)c;
		} else {
			e[w++] = '%';
			e[w++] = hex[c >> 4];
			e[w++] = hex[c & 15];
		}
	}
	e[w] = '\0';
	return e;
}

static int
value_end(char c)
{
	return !c || c == '&' || c == '#' || c == ' ' || c == '\t' || c == '\n' || c == '\r' ||
	       c == '"' || c == '\'' || c == '<' || c == '>' || c == ',' || c == ';';
}

char *
fr_api_scrub(const char *s, const char *token)
{
	size_t n, tn = token ? strlen(token) : 0, en, w = 0, cap, val_start = 0, val_end = 0;
	char *enc, *out;

	if (!s)
		return NULL;
	n = strlen(s);
	enc = tn ? encoded(token) : NULL;
	en = enc ? strlen(enc) : 0;
	/* each replaced piece is at least one byte long and becomes 3 */
	cap = 3 * n + 1;
	if (!(out = malloc(cap))) {
		free(enc);
		return NULL;
	}
	for (size_t i = 0; i < n;) {
		size_t k;

		/* a secret parameter's value: its name goes on through the token
		 * check below (a one-letter token may be in it), its value is
		 * replaced when the scan reaches it */
		if (i >= val_start && i < val_end) {
			memcpy(out + w, FR_API_SCRUBBED, 3);
			w += 3;
			i = val_end;
			continue;
		}
		for (k = 0; i >= val_end && k < sizeof(SECRET_PARAMS) / sizeof(SECRET_PARAMS[0]); k++) {
			size_t pn = strlen(SECRET_PARAMS[k]);

			if ((i == 0 || !unreserved((unsigned char)s[i - 1])) &&
			    !strncasecmp(s + i, SECRET_PARAMS[k], pn) && !value_end(s[i + pn])) {
				val_start = i + pn;
				for (val_end = val_start; !value_end(s[val_end]); val_end++)
					;
				break;
			}
		}
		if (tn && !strncmp(s + i, token, tn)) {
			memcpy(out + w, FR_API_SCRUBBED, 3);
			w += 3;
			i += tn;
			continue;
		}
		/* a string cut short (an error buffer) may end in part of it */
		if (tn && n - i < tn && n - i >= 4 && !strncmp(s + i, token, n - i)) {
			memcpy(out + w, FR_API_SCRUBBED, 3);
			w += 3;
			break;
		}
		if (en && !strncasecmp(s + i, enc, en)) {
			memcpy(out + w, FR_API_SCRUBBED, 3);
			w += 3;
			i += en;
			continue;
		}
		out[w++] = s[i++];
	}
	out[w] = '\0';
	free(enc);
	return out;
}

void
fr_api_scrub_buf(char *buf, size_t cap, const char *token)
{
	char *s;
	size_t n;

	if (!buf || !cap)
		return;
	buf[cap - 1] = '\0';
	if (!(s = fr_api_scrub(buf, token))) {
		/* out of memory: say nothing rather than the secret */
		buf[0] = '\0';
		return;
	}
	n = strlen(s);
	if (n >= cap)
		n = cap - 1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	free(s);
}

char *
fr_api_url_strip(const char *url)
{
	const char *q, *frag;
	size_t n, w;
	char *out;

	if (!url)
		return NULL;
	n = strlen(url);
	if (!(out = malloc(n + 1)))
		return NULL;
	q = strchr(url, '?');
	frag = strchr(url, '#');
	if (!q || (frag && frag < q)) {
		memcpy(out, url, n + 1);
		return out;
	}
	w = (size_t)(q - url);
	memcpy(out, url, w);
	const char *end = frag ? frag : url + n;
	int first = 1;
	for (const char *p = q + 1; p < end;) {
		const char *amp = memchr(p, '&', (size_t)(end - p));
		const char *pe = amp ? amp : end;
		int secret = 0;

		for (size_t k = 0; k < sizeof(SECRET_PARAMS) / sizeof(SECRET_PARAMS[0]); k++) {
			size_t pn = strlen(SECRET_PARAMS[k]);

			/* the name alone ("access_token" without '=') too */
			if (((size_t)(pe - p) >= pn && !strncasecmp(p, SECRET_PARAMS[k], pn)) ||
			    ((size_t)(pe - p) == pn - 1 && !strncasecmp(p, SECRET_PARAMS[k], pn - 1)))
				secret = 1;
		}
		if (!secret && pe > p) {
			out[w++] = first ? '?' : '&';
			memcpy(out + w, p, (size_t)(pe - p));
			w += (size_t)(pe - p);
			first = 0;
		}
		p = amp ? amp + 1 : end;
	}
	memcpy(out + w, end, strlen(end));
	w += strlen(end);
	out[w] = '\0';
	return out;
}
