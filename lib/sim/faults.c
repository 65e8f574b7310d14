/* faults.c - the faults file of `simulate --faults` (faults.h). */
#include "sim/faults.h"

#include "core/err.h"
#include "core/lines.h"
#include "core/strmap.h"
#include "core/timefmt.h"
#include "sim/trace.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FILE (16u << 20)
#define MAX_LINE 4096

enum { C_SOURCE, C_FROM, C_TO, C_STATUS, C_RETRY, C_TIMES, N_C };
static const char *const col_name[N_C] = {"source", "from", "to", "status", "retry_after",
					  "times"};
#define COLS "source, from, to, status, retry_after, times"

void
fr_faults_free(struct fr_faults *f)
{
	if (!f)
		return;
	free(f->v);
	f->v = NULL;
	f->n = 0;
}

/* A whole number in [lo, hi] (digits only). */
static int
parse_count(const struct fr_field *f, double lo, double hi, double *out)
{
	double v = 0;

	if (f->n == 0 || f->n > 15)
		return -1;
	for (size_t i = 0; i < f->n; i++) {
		if (f->s[i] < '0' || f->s[i] > '9')
			return -1;
		v = v * 10 + (f->s[i] - '0');
	}
	if (v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

/* Seconds >= 0, finite: a number as strtod reads it, whole field. */
static int
parse_seconds(const struct fr_field *f, double *out)
{
	char *end;
	double v;

	if (f->n == 0 || f->s[0] == ' ' || f->s[0] == '\t')
		return -1;
	errno = 0;
	v = strtod(f->s, &end);
	if (end != f->s + f->n || errno || !isfinite(v) || v < 0 || v > 1e10)
		return -1;
	*out = v;
	return 0;
}

static int
parse_line(const char *name, unsigned long ln, char *line, size_t len, const int *pos, int ncols,
	   const struct fr_trace *tr, struct fr_fault *out, char *err, size_t errlen)
{
	struct fr_field f[N_C + 1];
	const char *why;
	long nf = fr_csv_split(line, len, f, N_C + 1, &why);
	double v;

	if (nf < 0)
		return fr_errf(err, errlen, "%s:%lu: %s", name, ln, why);
	if (nf != ncols)
		return fr_errf(err, errlen, "%s:%lu: expected %d fields, found %ld", name, ln, ncols,
			       nf);
	memset(out, 0, sizeof(*out));
	const struct fr_field *s = &f[pos[C_SOURCE]];
	if (fr_strmap_find(tr->sources, s->s, s->n, &out->source) != 1)
		return fr_errf(err, errlen, "%s:%lu: source '%.*s' is not in the trace", name, ln,
			       (int)(s->n > 80 ? 80 : s->n), s->s);
	if (fr_time_parse(f[pos[C_FROM]].s, f[pos[C_FROM]].n, &out->from_s, &why) != 0)
		return fr_errf(err, errlen, "%s:%lu: from '%.*s' %s", name, ln,
			       (int)(f[pos[C_FROM]].n > 40 ? 40 : f[pos[C_FROM]].n), f[pos[C_FROM]].s,
			       why);
	if (fr_time_parse(f[pos[C_TO]].s, f[pos[C_TO]].n, &out->to_s, &why) != 0)
		return fr_errf(err, errlen, "%s:%lu: to '%.*s' %s", name, ln,
			       (int)(f[pos[C_TO]].n > 40 ? 40 : f[pos[C_TO]].n), f[pos[C_TO]].s, why);
	if (!(out->to_s > out->from_s))
		return fr_errf(err, errlen, "%s:%lu: the window ends before it begins (to <= from)",
			       name, ln);
	if (parse_count(&f[pos[C_STATUS]], 0, 599, &v) < 0 || (v > 0 && v < 100))
		return fr_errf(err, errlen, "%s:%lu: status '%.*s' is neither 0 (no answer) nor "
			       "an HTTP status 100..599", name, ln,
			       (int)(f[pos[C_STATUS]].n > 20 ? 20 : f[pos[C_STATUS]].n),
			       f[pos[C_STATUS]].s);
	out->status = (long)v;
	if (pos[C_RETRY] >= 0 && f[pos[C_RETRY]].n > 0 &&
	    parse_seconds(&f[pos[C_RETRY]], &out->retry_after_s) < 0)
		return fr_errf(err, errlen, "%s:%lu: retry_after '%.*s' is not seconds >= 0", name,
			       ln, (int)(f[pos[C_RETRY]].n > 20 ? 20 : f[pos[C_RETRY]].n),
			       f[pos[C_RETRY]].s);
	if (pos[C_TIMES] >= 0 && f[pos[C_TIMES]].n > 0) {
		if (parse_count(&f[pos[C_TIMES]], 0, 4e9, &v) < 0)
			return fr_errf(err, errlen, "%s:%lu: times '%.*s' is not a count", name, ln,
				       (int)(f[pos[C_TIMES]].n > 20 ? 20 : f[pos[C_TIMES]].n),
				       f[pos[C_TIMES]].s);
		out->times = (uint32_t)v;
	}
	return 0;
}

int
fr_faults_parse(const char *name, const char *buf, size_t len, const struct fr_trace *tr,
		struct fr_faults *out, char *err, size_t errlen)
{
	char line[MAX_LINE + 1];
	int pos[N_C], ncols = 0;
	unsigned long ln = 0;
	size_t p = 0, cap = 0;

	out->v = NULL;
	out->n = 0;
	while (p < len) {
		const char *nl = memchr(buf + p, '\n', len - p);
		size_t e = nl ? (size_t)(nl - buf) : len, n = e - p;

		ln++;
		if (n > 0 && buf[p + n - 1] == '\r')
			n--;
		if (n > MAX_LINE) {
			fr_errf(err, errlen, "%s:%lu: line longer than %u bytes", name, ln, MAX_LINE);
			goto fail;
		}
		memcpy(line, buf + p, n);
		line[n] = 0;
		p = nl ? e + 1 : len;
		if (memchr(line, 0, n)) {
			fr_errf(err, errlen, "%s:%lu: a NUL byte", name, ln);
			goto fail;
		}
		if (ln == 1) {
			struct fr_field f[N_C + 1];
			const char *why;
			char *h = line;
			size_t hn = n;

			if (hn >= 3 && !memcmp(h, "\xEF\xBB\xBF", 3)) {
				h += 3;
				hn -= 3;
			}
			long nf = fr_csv_split(h, hn, f, N_C + 1, &why);
			if (nf < 0) {
				fr_errf(err, errlen, "%s:1: %s", name, why);
				goto fail;
			}
			if (nf > N_C) {
				fr_errf(err, errlen, "%s:1: header has %ld columns; known are %s", name,
					nf, COLS);
				goto fail;
			}
			for (int c = 0; c < N_C; c++)
				pos[c] = -1;
			for (int i = 0; i < (int)nf; i++) {
				int c = 0;

				while (c < N_C && strcmp(f[i].s, col_name[c]))
					c++;
				if (c == N_C) {
					fr_errf(err, errlen, "%s:1: unknown column '%.*s'; known are %s",
						name, (int)(f[i].n > 40 ? 40 : f[i].n), f[i].s, COLS);
					goto fail;
				}
				if (pos[c] >= 0) {
					fr_errf(err, errlen, "%s:1: duplicate column '%s'", name,
						col_name[c]);
					goto fail;
				}
				pos[c] = i;
			}
			for (int c = 0; c <= C_STATUS; c++)
				if (pos[c] < 0) {
					fr_errf(err, errlen, "%s:1: header lacks a '%s' column", name,
						col_name[c]);
					goto fail;
				}
			ncols = (int)nf;
			continue;
		}
		if (n == 0) {
			fr_errf(err, errlen, "%s:%lu: blank line", name, ln);
			goto fail;
		}
		if (out->n == cap) {
			size_t nc = cap ? 2 * cap : 16;
			struct fr_fault *v = realloc(out->v, nc * sizeof(*v));

			if (!v) {
				fr_errf(err, errlen, "%s: out of memory", name);
				goto fail;
			}
			out->v = v;
			cap = nc;
		}
		if (parse_line(name, ln, line, n, pos, ncols, tr, &out->v[out->n], err, errlen) < 0)
			goto fail;
		out->n++;
	}
	if (ln == 0)
		return fr_errf(err, errlen, "%s: file is empty; expected a header line (%s)", name,
			       COLS);
	return 0;
fail:
	fr_faults_free(out);
	return -1;
}

int
fr_faults_read(const char *path, const struct fr_trace *tr, struct fr_faults *out, char *err,
	       size_t errlen)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	size_t n;
	int rc;

	out->v = NULL;
	out->n = 0;
	if (!f)
		return fr_errf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
	if (!(buf = malloc(MAX_FILE + 1))) {
		fclose(f);
		return fr_errf(err, errlen, "%s: out of memory", path);
	}
	n = fread(buf, 1, MAX_FILE + 1, f);
	if (ferror(f)) {
		rc = fr_errf(err, errlen, "%s: read error", path);
	} else if (n > MAX_FILE) {
		rc = fr_errf(err, errlen, "%s: larger than %u MiB", path, MAX_FILE >> 20);
	} else {
		rc = fr_faults_parse(path, buf, n, tr, out, err, errlen);
	}
	fclose(f);
	free(buf);
	return rc;
}

const struct fr_fault *
fr_faults_at(const struct fr_faults *f, const uint32_t *used, uint32_t src, double t, size_t *k)
{
	for (size_t j = 0; f && j < f->n; j++) {
		const struct fr_fault *x = &f->v[j];

		if (x->source != src || !(t >= x->from_s && t < x->to_s))
			continue;
		if (x->times && used[j] >= x->times)
			continue;
		*k = j;
		return x;
	}
	return NULL;
}
