/* source.c - an API source's stored settings (source.h): a few "key =
 * value" lines, then the spec's text after "spec:". */
#include "api/source.h"

#include "api/spec.h"
#include "core/err.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void
fr_api_source_init(struct fr_api_source *s)
{
	memset(s, 0, sizeof(*s));
	s->max_pages = FR_API_PAGES_DEFAULT;
	s->limit = s->remaining = s->reset_at_s = s->window_s = -1;
	s->usage_pct = s->hold_until_s = s->learned_s = -1;
}

void
fr_api_source_clear(struct fr_api_source *s)
{
	free(s->spec);
	free(s->token_env);
	free(s->token_file);
	fr_api_source_init(s);
}

static char *
dupn(const char *p, size_t n)
{
	char *d = malloc(n + 1);

	if (d) {
		memcpy(d, p, n);
		d[n] = 0;
	}
	return d;
}

static int
is_blank(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\r';
}

int
fr_api_source_parse(const char *text, size_t len, struct fr_api_source *out, char *err,
		    size_t errlen)
{
	size_t pos = 0, line = 0;

	fr_api_source_init(out);
	if (!text || len > FR_API_SOURCE_MAX_BYTES)
		return fr_errf(err, errlen, "api source: %s", text ? "too long" : "no settings");
	while (pos < len) {
		const char *p = text + pos, *nl = memchr(p, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - p) : len - pos, kn, vs, vn;

		line++;
		pos += n + (nl ? 1 : 0);
		while (n > 0 && is_blank(p[n - 1]))
			n--;
		while (n > 0 && is_blank(*p))
			p++, n--;
		if (n == 0 || *p == '#')
			continue;
		if (n == 5 && !memcmp(p, "spec:", 5)) {
			struct fr_api_spec *sp;
			char e[512];

			if (fr_api_spec_parse(text + pos, len - pos, &sp, e, sizeof(e)) < 0) {
				fr_errf(err, errlen, "api source: spec: %s", e);
				goto fail;
			}
			fr_api_spec_free(sp);
			if (memchr(text + pos, 0, len - pos)) {
				fr_errf(err, errlen, "api source: a NUL byte in the spec");
				goto fail;
			}
			if (!(out->spec = dupn(text + pos, len - pos)))
				goto oom;
			return 0;
		}
		for (kn = 0; kn < n && p[kn] != '=' && !is_blank(p[kn]); kn++)
			;
		for (vs = kn; vs < n && is_blank(p[vs]); vs++)
			;
		if (vs >= n || p[vs] != '=') {
			fr_errf(err, errlen, "api source: line %zu: expected 'key = value'", line);
			goto fail;
		}
		for (vs++; vs < n && is_blank(p[vs]); vs++)
			;
		vn = n - vs;
		if (memchr(p + vs, 0, vn)) {
			fr_errf(err, errlen, "api source: line %zu: a NUL byte", line);
			goto fail;
		}
		if ((kn == 9 && !memcmp(p, "token-env", 9)) || (kn == 10 && !memcmp(p, "token-file", 10))) {
			char **dst = kn == 9 ? &out->token_env : &out->token_file;

			if (vn == 0 || *dst) {
				fr_errf(err, errlen, "api source: line %zu: %.*s %s", line, (int)kn, p,
					vn ? "given twice" : "is empty");
				goto fail;
			}
			/* (a control character: a name or path no one gives, and
			 * one fr_api_source_format could not write back) */
			for (size_t k = vs; k < n; k++)
				if ((unsigned char)p[k] < 0x20 && p[k] != '\t') {
					fr_errf(err, errlen,
						"api source: line %zu: %.*s holds a control character",
						line, (int)kn, p);
					goto fail;
				}
			if (!(*dst = dupn(p + vs, vn)))
				goto oom;
		} else if (kn == 5 && !memcmp(p, "pages", 5)) {
			char b[32], *end;
			long v;

			if (vn == 0 || vn >= sizeof(b))
				goto bad_pages;
			memcpy(b, p + vs, vn);
			b[vn] = 0;
			errno = 0;
			v = strtol(b, &end, 10);
			if (errno || *end || v < 1 || v > FR_API_PAGES_MAX)
				goto bad_pages;
			out->max_pages = (int)v;
		} else if (kn == 4 && !memcmp(p, "said", 4)) {
			double *f[] = {&out->limit,     &out->remaining,    &out->reset_at_s,
				       &out->window_s,  &out->usage_pct,    &out->hold_until_s,
				       &out->learned_s};
			char b[512], *q = b, *end;

			if (vn >= sizeof(b)) {
				fr_errf(err, errlen, "api source: line %zu: said: too long", line);
				goto fail;
			}
			memcpy(b, p + vs, vn);
			b[vn] = 0;
			for (size_t k = 0; k < sizeof(f) / sizeof(f[0]); k++) {
				double v = strtod(q, &end);

				if (end == q || !isfinite(v) || v < -1) {
					fr_errf(err, errlen, "api source: line %zu: said wants 7 numbers",
						line);
					goto fail;
				}
				*f[k] = v;
				q = end;
			}
			while (is_blank(*q))
				q++;
			if (*q) {
				fr_errf(err, errlen, "api source: line %zu: said wants 7 numbers", line);
				goto fail;
			}
		} else {
			fr_errf(err, errlen, "api source: line %zu: key '%.*s' unknown", line,
				(int)(kn > 40 ? 40 : kn), p);
			goto fail;
		}
		continue;
	bad_pages:
		fr_errf(err, errlen, "api source: line %zu: pages wants 1 to %d", line,
			FR_API_PAGES_MAX);
		goto fail;
	}
	fr_errf(err, errlen, "api source: no 'spec:'");
	goto fail;
oom:
	fr_errf(err, errlen, "api source: out of memory");
fail:
	fr_api_source_clear(out);
	return -1;
}

char *
fr_api_source_format(const struct fr_api_source *s, size_t *len)
{
	const char *vals[] = {s->token_env, s->token_file};
	size_t cap = (s->spec ? strlen(s->spec) : 0) + 512;
	char *buf, *at;
	int n;

	for (size_t k = 0; k < 2; k++) {
		if (vals[k] && (strchr(vals[k], '\n') || strchr(vals[k], '\r') || !vals[k][0]))
			return NULL;
		cap += vals[k] ? strlen(vals[k]) : 0;
	}
	if (!s->spec || !(buf = malloc(cap)))
		return NULL;
	at = buf;
	if (s->token_env)
		at += snprintf(at, cap - (size_t)(at - buf), "token-env = %s\n", s->token_env);
	if (s->token_file)
		at += snprintf(at, cap - (size_t)(at - buf), "token-file = %s\n", s->token_file);
	at += snprintf(at, cap - (size_t)(at - buf), "pages = %d\n", s->max_pages);
	if (s->learned_s >= 0)
		at += snprintf(at, cap - (size_t)(at - buf), "said = %.17g %.17g %.17g %.17g %.17g %.17g %.17g\n",
			       s->limit, s->remaining, s->reset_at_s, s->window_s, s->usage_pct,
			       s->hold_until_s, s->learned_s);
	n = snprintf(at, cap - (size_t)(at - buf), "spec:\n%s", s->spec);
	at += n;
	*len = (size_t)(at - buf);
	return buf;
}

static double
known(double v)
{
	return isfinite(v) && v >= 0 ? v : -1;
}

void
fr_api_source_said(struct fr_api_source *s, const struct fr_api_limit *l)
{
	s->limit = known(l->limit);
	s->remaining = known(l->remaining);
	s->reset_at_s = known(l->reset_at_s);
	s->window_s = known(l->window_s);
	s->usage_pct = known(l->usage_pct);
	s->hold_until_s = known(l->hold_until_s);
	s->learned_s = known(l->learned_s);
}

void
fr_api_source_restore(const struct fr_api_source *s, struct fr_api_limit *l)
{
	if (!(s->learned_s >= 0))
		return;
	l->limit = s->limit;
	l->remaining = s->remaining;
	l->reset_at_s = s->reset_at_s;
	l->window_s = s->window_s;
	l->usage_pct = s->usage_pct;
	l->hold_until_s = s->hold_until_s;
	l->learned_s = s->learned_s;
}

char *
fr_api_source_key(const struct fr_api_source *s, const char *host, char *buf, size_t len)
{
	if (s->token_env)
		snprintf(buf, len, "env:%s", s->token_env);
	else if (s->token_file)
		snprintf(buf, len, "file:%s", s->token_file);
	else
		snprintf(buf, len, "host:%s", host ? host : "");
	return buf;
}
