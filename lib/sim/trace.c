/* trace.c - loading publication traces. Rows are read in 1 MiB chunks,
 * split in place without per-row allocation, collected as (source id, time,
 * weight), then counting-sorted by source and stably sorted by time within
 * each source. */
#include "sim/trace.h"

#include "core/err.h"
#include "core/lines.h"
#include "core/strmap.h"
#include "core/timefmt.h"

#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ROWS ((size_t)1 << 30)
#define MAX_COLS 4  /* every file kind knows at most 4 columns */
#define SHOW_CAP 80 /* bytes of a bad value quoted in an error */

/* A bad value, quoted in an error message: at most SHOW_CAP bytes. */
#define SHOW(f) (int)((f).n > SHOW_CAP ? SHOW_CAP : (f).n), (f).s, ((f).n > SHOW_CAP ? "..." : "")

/* The columns a file may have. NOTE: keep in sync with trace_cols and
 * sources_cols below. */
enum col { COL_SOURCE, COL_TIME, COL_WEIGHT, COL_URL, COL_HOST, COL_GROUP, N_COL };
static const char *const col_name[N_COL] = {"source", "time", "weight", "url", "host", "group"};

struct colset {
	enum col col[MAX_COLS]; /* allowed columns, required ones first */
	int n_allowed, n_required;
	const char *list; /* for messages */
};
static const struct colset trace_cols = {
    {COL_SOURCE, COL_TIME, COL_WEIGHT, COL_URL}, 4, 2, "source, time, weight, url"};
static const struct colset sources_cols = {
    {COL_SOURCE, COL_HOST, COL_GROUP, COL_WEIGHT}, 4, 1, "source, host, group, weight"};

struct header {
	int ncols;
	int pos[N_COL]; /* field index of each column, -1 when absent */
};

static int
read_header(struct fr_lines *r, const struct colset *cs, struct header *h, char *err, size_t errlen)
{
	struct fr_field f[MAX_COLS];
	const char *why;
	char *line;
	size_t len;
	long nf;
	int rc = fr_lines_next(r, &line, &len, err, errlen);

	if (rc < 0)
		return -1;
	if (rc == 0)
		return fr_errf(err, errlen, "%s:1: file is empty; expected a header line (%s)",
		               r->path, cs->list);
	nf = fr_csv_split(line, len, f, MAX_COLS, &why);
	if (nf < 0)
		return fr_errf(err, errlen, "%s:1: %s", r->path, why);
	if (nf > cs->n_allowed)
		return fr_errf(err, errlen, "%s:1: header has %ld columns; known are %s", r->path,
		               nf, cs->list);
	for (int c = 0; c < N_COL; c++)
		h->pos[c] = -1;
	h->ncols = (int)nf;
	for (int i = 0; i < (int)nf; i++) {
		int c = -1;

		for (int j = 0; j < cs->n_allowed; j++) {
			if (strcmp(f[i].s, col_name[cs->col[j]]) == 0)
				c = (int)cs->col[j];
		}
		if (c < 0)
			return fr_errf(err, errlen, "%s:1: unknown column '%.*s%s'; known are %s",
			               r->path, SHOW(f[i]), cs->list);
		if (h->pos[c] >= 0)
			return fr_errf(err, errlen, "%s:1: duplicate column '%s'", r->path,
			               col_name[c]);
		h->pos[c] = i;
	}
	for (int j = 0; j < cs->n_required; j++) {
		if (h->pos[cs->col[j]] < 0)
			return fr_errf(err, errlen, "%s:1: header lacks a '%s' column", r->path,
			               col_name[cs->col[j]]);
	}
	return 0;
}

/* Next data row split into exactly h->ncols fields. Returns 1, 0 at the end,
 * -1 with err set (blank line, bad quoting, wrong field count). */
static int
read_row(struct fr_lines *r, const struct header *h, struct fr_field *f, char *err, size_t errlen)
{
	const char *why;
	char *line;
	size_t len;
	long nf;
	int rc = fr_lines_next(r, &line, &len, err, errlen);

	if (rc <= 0)
		return rc;
	if (len == 0)
		return fr_errf(err, errlen, "%s:%lu: blank line", r->path, r->line);
	nf = fr_csv_split(line, len, f, MAX_COLS, &why);
	if (nf < 0)
		return fr_errf(err, errlen, "%s:%lu: %s", r->path, r->line, why);
	if (nf != h->ncols)
		return fr_errf(err, errlen, "%s:%lu: expected %d field%s, found %ld", r->path,
		               r->line, h->ncols, h->ncols == 1 ? "" : "s", nf);
	return 1;
}

/* A weight: a finite, non-negative number that fits a float. Returns 0, or
 * -1 with *why set to a predicate for "weight 'x' ...". */
static int
parse_weight(const struct fr_field *f, double *out, const char **why)
{
	double v = 0;
	char *endp;

	if (f->n == 0) {
		*why = "is missing";
		return -1;
	}
	if (f->n <= 9) { /* plain counts, as in most traces: no strtod */
		size_t i = 0;

		while (i < f->n && f->s[i] >= '0' && f->s[i] <= '9')
			v = v * 10 + (f->s[i++] - '0');
		if (i == f->n) {
			*out = v;
			return 0;
		}
	}
	/* strtod skips leading blanks and reads hex; neither is a weight here. */
	if (isspace((unsigned char)f->s[0]) || memchr(f->s, 'x', f->n) || memchr(f->s, 'X', f->n)) {
		*why = "is not a number";
		return -1;
	}
	v = strtod(f->s, &endp);
	if (endp != f->s + f->n) {
		*why = "is not a number";
		return -1;
	}
	if (isnan(v)) {
		*why = "is NaN, not a number";
		return -1;
	}
	if (isinf(v)) {
		*why = v < 0 ? "is negative" : "is infinite";
		return -1;
	}
	if (v < 0) {
		*why = "is negative";
		return -1;
	}
	if (v > FLT_MAX) {
		*why = "is too large";
		return -1;
	}
	*out = v;
	return 0;
}

/* ---- collected rows ---- */

struct rows {
	size_t n, cap;
	uint32_t *src;
	double *t;
	float *w; /* NULL when the trace has no weights */
};

static void *
resize(void *p, size_t n, size_t elem)
{
	if (n > SIZE_MAX / elem)
		return NULL;
	return realloc(p, n * elem);
}

static int
rows_push(struct rows *rw, uint32_t src, double t, float w, int has_w)
{
	if (rw->n == rw->cap) {
		size_t cap = rw->cap ? rw->cap * 2 : 65536;
		void *p;

		p = resize(rw->src, cap, sizeof(*rw->src));
		if (!p)
			return -1;
		rw->src = p;
		p = resize(rw->t, cap, sizeof(*rw->t));
		if (!p)
			return -1;
		rw->t = p;
		if (has_w) {
			p = resize(rw->w, cap, sizeof(*rw->w));
			if (!p)
				return -1;
			rw->w = p;
		}
		rw->cap = cap;
	}
	rw->src[rw->n] = src;
	rw->t[rw->n] = t;
	if (has_w)
		rw->w[rw->n] = w;
	rw->n++;
	return 0;
}

static void
rows_free(struct rows *rw)
{
	free(rw->src);
	free(rw->t);
	free(rw->w);
	memset(rw, 0, sizeof(*rw));
}

/* ---- per-source arrays ---- */

static int
trace_init(struct fr_trace *tr)
{
	uint32_t id;

	memset(tr, 0, sizeof(*tr));
	tr->sources = fr_strmap_new();
	tr->hosts = fr_strmap_new();
	tr->groups = fr_strmap_new();
	if (!tr->sources || !tr->hosts || !tr->groups)
		return -1;
	/* Group 0 is "default" whatever the sources file says. */
	return fr_strmap_intern(tr->groups, "default", 7, &id, NULL);
}

/* Grows host, group and weight to hold n sources. */
static int
sources_reserve(struct fr_trace *tr, size_t *cap, size_t n)
{
	size_t c = *cap ? *cap : 256;
	void *p;

	if (n <= *cap)
		return 0;
	while (c < n)
		c *= 2;
	p = resize(tr->host, c, sizeof(*tr->host));
	if (!p)
		return -1;
	tr->host = p;
	p = resize(tr->group, c, sizeof(*tr->group));
	if (!p)
		return -1;
	tr->group = p;
	p = resize(tr->weight, c, sizeof(*tr->weight));
	if (!p)
		return -1;
	tr->weight = p;
	*cap = c;
	return 0;
}

/* Source names as bytes, for qsort. strcmp compares as unsigned char, and
 * names hold no NUL (the loaders refuse one), so this is byte order. */
static int
name_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Without a sources file ids are given by name (byte order), so that any
 * order of the same rows gives the same ids: round robin's cycle and the
 * policies' ties follow ids. Rebuilds tr->sources in that order and maps
 * the collected rows' ids to it. Returns 0, or -1 on out-of-memory (tr and
 * rw unchanged). */
static int
number_by_name(struct fr_trace *tr, struct rows *rw)
{
	size_t n = fr_strmap_len(tr->sources), i;
	const char **name = NULL;
	uint32_t *new_id = NULL, id;
	struct fr_strmap *sorted = NULL;
	int rc = -1;

	if (n < 2)
		return 0;
	name = malloc(n * sizeof(*name));
	new_id = malloc(n * sizeof(*new_id));
	sorted = fr_strmap_new();
	if (!name || !new_id || !sorted)
		goto out;
	for (i = 0; i < n; i++)
		name[i] = fr_strmap_name(tr->sources, (uint32_t)i);
	qsort(name, n, sizeof(*name), name_cmp);
	for (i = 0; i < n; i++) {
		/* Names are distinct, so the new map hands out ids 0, 1, ... */
		if (fr_strmap_intern(sorted, name[i], strlen(name[i]), &id, NULL) != 0)
			goto out;
	}
	for (i = 0; i < n; i++) {
		const char *s = fr_strmap_name(tr->sources, (uint32_t)i);

		fr_strmap_find(sorted, s, strlen(s), &new_id[i]);
	}
	for (i = 0; i < rw->n; i++)
		rw->src[i] = new_id[rw->src[i]];
	fr_strmap_free(tr->sources);
	tr->sources = sorted;
	sorted = NULL;
	rc = 0;
out:
	fr_strmap_free(sorted);
	free(name);
	free(new_id);
	return rc;
}

/* Without a sources file: each source its own host, group "default",
 * weight 1. */
static int
default_sources(struct fr_trace *tr)
{
	size_t n = fr_strmap_len(tr->sources), cap = 0;

	if (sources_reserve(tr, &cap, n ? n : 1) != 0)
		return -1;
	for (uint32_t s = 0; s < n; s++) {
		const char *name = fr_strmap_name(tr->sources, s);

		if (fr_strmap_intern(tr->hosts, name, strlen(name), &tr->host[s], NULL) != 0)
			return -1;
		tr->group[s] = 0;
		tr->weight[s] = 1;
	}
	return 0;
}

static void
insertion_sort(double *t, float *w, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		double x = t[i];
		float y = w ? w[i] : 0;
		size_t j = i;

		for (; j > 0 && t[j - 1] > x; j--) {
			t[j] = t[j - 1];
			if (w)
				w[j] = w[j - 1];
		}
		t[j] = x;
		if (w)
			w[j] = y;
	}
}

/* Stable bottom-up merge sort of t (and w alongside) using scratch tt, ww.
 * qsort is neither stable nor free of a call per comparison. */
static void
merge_sort(double *t, float *w, size_t n, double *tt, float *ww)
{
	double *a = t, *b = tt;
	float *aw = w, *bw = ww;

	for (size_t width = 1; width < n; width *= 2) {
		for (size_t lo = 0; lo < n; lo += 2 * width) {
			size_t mid = lo + width < n ? lo + width : n;
			size_t hi = lo + 2 * width < n ? lo + 2 * width : n;
			size_t i = lo, j = mid, k = lo;

			while (i < mid && j < hi) {
				size_t from = a[j] < a[i] ? j++ : i++; /* ties: left first */

				b[k] = a[from];
				if (w)
					bw[k] = aw[from];
				k++;
			}
			for (; i < mid; i++, k++) {
				b[k] = a[i];
				if (w)
					bw[k] = aw[i];
			}
			for (; j < hi; j++, k++) {
				b[k] = a[j];
				if (w)
					bw[k] = aw[j];
			}
		}
		double *td = a;
		float *tw = aw;

		a = b;
		b = td;
		aw = bw;
		bw = tw;
	}
	if (a != t) {
		memcpy(t, a, n * sizeof(*t));
		if (w)
			memcpy(w, aw, n * sizeof(*w));
	}
}

/* Groups the rows by source (a counting sort keeps row order) and sorts each
 * source's items by time, stably. Takes nothing; rw stays the caller's. */
static int
build(struct fr_trace *tr, const struct rows *rw)
{
	size_t ns, n = rw->n, *cursor, longest = 0;
	double *tt = NULL;
	float *ww = NULL;
	int rc = -1;

	ns = fr_strmap_len(tr->sources);
	tr->n_sources = (uint32_t)ns;
	tr->n_items = n;
	tr->first = calloc(ns + 1, sizeof(*tr->first));
	tr->item_time_s = malloc((n ? n : 1) * sizeof(*tr->item_time_s));
	if (rw->w)
		tr->item_weight = malloc((n ? n : 1) * sizeof(*tr->item_weight));
	cursor = malloc((ns ? ns : 1) * sizeof(*cursor));
	if (!tr->first || !tr->item_time_s || (rw->w && !tr->item_weight) || !cursor)
		goto out;

	for (size_t i = 0; i < n; i++)
		tr->first[rw->src[i] + 1]++;
	for (size_t s = 0; s < ns; s++) {
		size_t len = tr->first[s + 1];

		if (len > longest)
			longest = len;
		tr->first[s + 1] += tr->first[s];
		cursor[s] = tr->first[s];
	}
	for (size_t i = 0; i < n; i++) {
		size_t at = cursor[rw->src[i]]++;

		tr->item_time_s[at] = rw->t[i];
		if (rw->w)
			tr->item_weight[at] = rw->w[i];
	}

	for (size_t s = 0; s < ns; s++) {
		size_t lo = tr->first[s], len = tr->first[s + 1] - lo, descents = 0;
		double *t = tr->item_time_s + lo;
		float *w = tr->item_weight ? tr->item_weight + lo : NULL;

		for (size_t i = 1; i < len; i++)
			descents += t[i] < t[i - 1];
		if (descents == 0)
			continue;
		/* A few stragglers: insertion sort moves only them. */
		if (descents <= 8 || len <= 32) {
			insertion_sort(t, w, len);
			continue;
		}
		if (!tt) {
			tt = malloc(longest * sizeof(*tt));
			ww = malloc(longest * sizeof(*ww));
			if (!tt || !ww)
				goto out;
		}
		merge_sort(t, w, len, tt, ww);
	}

	tr->start_s = tr->end_s = 0;
	for (size_t s = 0, any = 0; s < ns; s++) {
		size_t lo = tr->first[s], hi = tr->first[s + 1];

		if (lo == hi)
			continue;
		if (!any || tr->item_time_s[lo] < tr->start_s)
			tr->start_s = tr->item_time_s[lo];
		if (!any || tr->item_time_s[hi - 1] > tr->end_s)
			tr->end_s = tr->item_time_s[hi - 1];
		any = 1;
	}
	rc = 0;
out:
	free(cursor);
	free(tt);
	free(ww);
	return rc;
}

/* ---- files ---- */

static int
load_sources(struct fr_trace *tr, const char *path, char *err, size_t errlen)
{
	struct fr_lines r;
	struct header h;
	struct fr_field f[MAX_COLS];
	size_t cap = 0;
	int rc;

	if (fr_lines_open(&r, path, err, errlen) != 0)
		return -1;
	if (read_header(&r, &sources_cols, &h, err, errlen) != 0)
		goto fail;
	for (;;) {
		const struct fr_field *src = &f[h.pos[COL_SOURCE]], *hf;
		const char *why;
		uint32_t id;
		int added;
		double w = 1;

		rc = read_row(&r, &h, f, err, errlen);
		if (rc != 1)
			break;
		if (src->n == 0 || memchr(src->s, '\0', src->n)) {
			fr_errf(err, errlen, "%s:%lu: missing source", path, r.line);
			goto fail;
		}
		if (fr_strmap_intern(tr->sources, src->s, src->n, &id, &added) != 0 ||
		    sources_reserve(tr, &cap, (size_t)id + 1) != 0)
			goto oom;
		if (!added) {
			fr_errf(err, errlen, "%s:%lu: duplicate source '%.*s%s'", path, r.line,
			        SHOW(*src));
			goto fail;
		}
		/* Without a host column a source is its own host, as without the file. */
		hf = h.pos[COL_HOST] >= 0 ? &f[h.pos[COL_HOST]] : src;
		if (hf->n == 0) {
			fr_errf(err, errlen, "%s:%lu: missing host", path, r.line);
			goto fail;
		}
		if (fr_strmap_intern(tr->hosts, hf->s, hf->n, &tr->host[id], NULL) != 0)
			goto oom;
		tr->group[id] = 0;
		if (h.pos[COL_GROUP] >= 0) {
			const struct fr_field *gf = &f[h.pos[COL_GROUP]];

			if (gf->n == 0) {
				fr_errf(err, errlen, "%s:%lu: missing group", path, r.line);
				goto fail;
			}
			if (fr_strmap_intern(tr->groups, gf->s, gf->n, &tr->group[id], NULL) != 0)
				goto oom;
		}
		if (h.pos[COL_WEIGHT] >= 0 && parse_weight(&f[h.pos[COL_WEIGHT]], &w, &why) != 0) {
			fr_errf(err, errlen, "%s:%lu: weight '%.*s%s' %s", path, r.line,
			        SHOW(f[h.pos[COL_WEIGHT]]), why);
			goto fail;
		}
		tr->weight[id] = w;
	}
	if (rc < 0)
		goto fail;
	if (sources_reserve(tr, &cap, 1) != 0) /* arrays exist even when empty */
		goto oom;
	fr_lines_close(&r);
	return 0;
oom:
	fr_errf(err, errlen, "%s:%lu: out of memory", path, r.line);
fail:
	fr_lines_close(&r);
	return -1;
}

static int
load_rows(struct fr_trace *tr, struct rows *rw, const char *path, const char *sources_path,
          char *err, size_t errlen)
{
	struct fr_lines r;
	struct header h;
	struct fr_field f[MAX_COLS];
	int rc, has_w;

	if (fr_lines_open(&r, path, err, errlen) != 0)
		return -1;
	if (read_header(&r, &trace_cols, &h, err, errlen) != 0)
		goto fail;
	has_w = h.pos[COL_WEIGHT] >= 0;
	if (has_w) {
		rw->w = malloc(sizeof(*rw->w)); /* marks a weighted trace even with no rows */
		if (!rw->w)
			goto oom;
	}
	for (;;) {
		const struct fr_field *src = &f[h.pos[COL_SOURCE]], *tf = &f[h.pos[COL_TIME]];
		const char *why;
		uint32_t id;
		double t, w = 1;

		rc = read_row(&r, &h, f, err, errlen);
		if (rc != 1)
			break;
		if (src->n == 0 || memchr(src->s, '\0', src->n)) {
			fr_errf(err, errlen, "%s:%lu: missing source", path, r.line);
			goto fail;
		}
		if (sources_path) {
			if (!fr_strmap_find(tr->sources, src->s, src->n, &id)) {
				fr_errf(err, errlen, "%s:%lu: source '%.*s%s' is not in %s", path,
				        r.line, SHOW(*src), sources_path);
				goto fail;
			}
		} else if (fr_strmap_intern(tr->sources, src->s, src->n, &id, NULL) != 0) {
			goto oom;
		}
		if (fr_time_parse(tf->s, tf->n, &t, &why) != 0) {
			fr_errf(err, errlen, "%s:%lu: time '%.*s%s' %s", path, r.line, SHOW(*tf),
			        why);
			goto fail;
		}
		if (has_w && parse_weight(&f[h.pos[COL_WEIGHT]], &w, &why) != 0) {
			fr_errf(err, errlen, "%s:%lu: weight '%.*s%s' %s", path, r.line,
			        SHOW(f[h.pos[COL_WEIGHT]]), why);
			goto fail;
		}
		if (rw->n == MAX_ROWS) {
			fr_errf(err, errlen, "%s:%lu: more than %zu rows", path, r.line, MAX_ROWS);
			goto fail;
		}
		if (rows_push(rw, id, t, (float)w, has_w) != 0)
			goto oom;
	}
	if (rc < 0)
		goto fail;
	fr_lines_close(&r);
	return 0;
oom:
	fr_errf(err, errlen, "%s:%lu: out of memory", path, r.line);
fail:
	fr_lines_close(&r);
	return -1;
}

int
fr_trace_load(struct fr_trace *tr, const char *trace_path, const char *sources_path, char *err,
              size_t errlen)
{
	struct rows rw = {0};

	if (trace_init(tr) != 0) {
		fr_errf(err, errlen, "%s: out of memory", trace_path);
		goto fail;
	}
	if (sources_path && load_sources(tr, sources_path, err, errlen) != 0)
		goto fail;
	if (load_rows(tr, &rw, trace_path, sources_path, err, errlen) != 0)
		goto fail;
	if ((!sources_path && (number_by_name(tr, &rw) != 0 || default_sources(tr) != 0)) ||
	    build(tr, &rw) != 0) {
		fr_errf(err, errlen, "%s: out of memory", trace_path);
		goto fail;
	}
	rows_free(&rw);
	return 0;
fail:
	rows_free(&rw);
	fr_trace_free(tr);
	return -1;
}

int
fr_trace_from_rows(struct fr_trace *tr, size_t n, const char *const *source, const double *time_s,
                   const float *weight, char *err, size_t errlen)
{
	struct rows rw = {0};
	int has_w = 0;

	if (trace_init(tr) != 0)
		goto oom;
	/* Item weights exist when at least one row gives one. */
	for (size_t i = 0; weight && i < n && !has_w; i++)
		has_w = !isnan(weight[i]);
	if (n > MAX_ROWS) {
		fr_errf(err, errlen, "more than %zu rows", MAX_ROWS);
		goto fail;
	}
	if (has_w) {
		rw.w = malloc(sizeof(*rw.w));
		if (!rw.w)
			goto oom;
	}
	for (size_t i = 0; i < n; i++) {
		uint32_t id;
		float w = 1;

		if (!source[i] || !source[i][0]) {
			fr_errf(err, errlen, "rows[%zu]: missing source", i);
			goto fail;
		}
		if (!isfinite(time_s[i])) {
			fr_errf(err, errlen, "rows[%zu]: time is not finite", i);
			goto fail;
		}
		if (has_w && !isnan(weight[i])) {
			w = weight[i];
			if (!isfinite(w) || w < 0) {
				fr_errf(err, errlen, "rows[%zu]: weight %g is negative or infinite",
				        i, (double)w);
				goto fail;
			}
		}
		if (fr_strmap_intern(tr->sources, source[i], strlen(source[i]), &id, NULL) != 0 ||
		    rows_push(&rw, id, time_s[i], w, has_w) != 0)
			goto oom;
	}
	if (number_by_name(tr, &rw) != 0 || default_sources(tr) != 0 || build(tr, &rw) != 0)
		goto oom;
	rows_free(&rw);
	return 0;
oom:
	fr_errf(err, errlen, "trace rows: out of memory");
fail:
	rows_free(&rw);
	fr_trace_free(tr);
	return -1;
}

void
fr_trace_free(struct fr_trace *tr)
{
	if (!tr)
		return;
	fr_strmap_free(tr->sources);
	fr_strmap_free(tr->hosts);
	fr_strmap_free(tr->groups);
	free(tr->host);
	free(tr->group);
	free(tr->weight);
	free(tr->first);
	free(tr->item_time_s);
	free(tr->item_weight);
	memset(tr, 0, sizeof(*tr));
}

const char *
fr_trace_source_name(const struct fr_trace *tr, uint32_t s)
{
	return fr_strmap_name(tr->sources, s);
}
