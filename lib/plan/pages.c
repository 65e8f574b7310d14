/* pages.c - loading the pages file: rows read in 1 MiB chunks (plain or
 * gzip through zlib), split in place, names interned, arrays grown by
 * doubling. The error style follows sim/trace.c: PATH:LINE: reason. */
#include "plan/pages.h"

#include "core/err.h"
#include "core/lines.h"
#include "core/strmap.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PAGES ((size_t)1 << 31)
#define SHOW_CAP 80 /* bytes of a bad value quoted in an error */
#define SHOW(f) (int)((f).n > SHOW_CAP ? SHOW_CAP : (f).n), (f).s, ((f).n > SHOW_CAP ? "..." : "")

/* A finite number, no blanks, no hex. Returns 0 or -1. */
static int
parse_num(const struct fr_field *f, double *out)
{
	char *endp;
	double v;

	if (f->n == 0 || isspace((unsigned char)f->s[0]) || memchr(f->s, 'x', f->n) ||
	    memchr(f->s, 'X', f->n))
		return -1;
	v = strtod(f->s, &endp);
	if (endp != f->s + f->n || !isfinite(v))
		return -1;
	*out = v;
	return 0;
}

/* ---- header ---- */

/* NOTE: keep col_name in the order of enum col. */
enum col { COL_PAGE, COL_SERVER, COL_RATE, COL_WEIGHT, N_COL };
#define MAX_COLS N_COL

struct colname {
	const char *name;
	enum col col;
};
static const struct colname known[] = {
    {"page", COL_PAGE},   {"server", COL_SERVER},        {"lambda_per_day", COL_RATE},
    {"lambda", COL_RATE}, {"changes_per_day", COL_RATE}, {"weight", COL_WEIGHT},
};
#define KNOWN_LIST "page, server, lambda_per_day (or lambda, changes_per_day), weight"

struct header {
	int ncols;
	int pos[N_COL];
	const char *rate_name; /* as spelt in the header, for messages */
};

static int
read_header(struct fr_lines *r, struct header *h, char *err, size_t errlen)
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
		               r->path, KNOWN_LIST);
	nf = fr_csv_split(line, len, f, MAX_COLS, &why);
	if (nf < 0)
		return fr_errf(err, errlen, "%s:1: %s", r->path, why);
	if (nf > MAX_COLS)
		return fr_errf(err, errlen, "%s:1: header has %ld columns; known are %s", r->path,
		               nf, KNOWN_LIST);
	for (int c = 0; c < N_COL; c++)
		h->pos[c] = -1;
	h->ncols = (int)nf;
	for (int i = 0; i < (int)nf; i++) {
		int c = -1;
		const char *name = NULL;

		for (size_t j = 0; j < sizeof(known) / sizeof(known[0]); j++) {
			if (strcmp(f[i].s, known[j].name) == 0) {
				c = (int)known[j].col;
				name = known[j].name;
			}
		}
		if (c < 0)
			return fr_errf(err, errlen, "%s:1: unknown column '%.*s%s'; known are %s",
			               r->path, SHOW(f[i]), KNOWN_LIST);
		if (h->pos[c] >= 0)
			return fr_errf(err, errlen, "%s:1: duplicate column '%s'%s", r->path, name,
			               c == COL_RATE ? " (one change-rate column only)" : "");
		h->pos[c] = i;
		if (c == COL_RATE)
			h->rate_name = name;
	}
	if (h->pos[COL_PAGE] < 0)
		return fr_errf(err, errlen, "%s:1: header lacks a 'page' column", r->path);
	if (h->pos[COL_SERVER] < 0)
		return fr_errf(err, errlen, "%s:1: header lacks a 'server' column", r->path);
	if (h->pos[COL_RATE] < 0)
		return fr_errf(err, errlen,
		               "%s:1: header lacks a 'lambda_per_day' column (changes per day)",
		               r->path);
	return 0;
}

/* ---- loading ---- */

static int
grow(struct fr_plan_pages *pp, size_t *cap, int has_w)
{
	size_t c = *cap ? *cap * 2 : 4096;
	void *q;

	if (c > MAX_PAGES)
		return -1;
	q = realloc(pp->lambda_per_day, c * sizeof(double));
	if (!q)
		return -1;
	pp->lambda_per_day = q;
	q = realloc(pp->server, c * sizeof(uint32_t));
	if (!q)
		return -1;
	pp->server = q;
	if (has_w) {
		q = realloc(pp->weight, c * sizeof(double));
		if (!q)
			return -1;
		pp->weight = q;
	}
	*cap = c;
	return 0;
}

int
fr_plan_pages_load(struct fr_plan_pages *pp, const char *path, char *err, size_t errlen)
{
	struct fr_lines r;
	struct header h = {.ncols = 0, .rate_name = "lambda_per_day"};
	struct fr_field f[MAX_COLS];
	size_t n = 0, cap = 0;
	int rc;

	memset(pp, 0, sizeof(*pp));
	if (fr_lines_open(&r, path, err, errlen) != 0)
		return -1;
	pp->names = fr_strmap_new();
	pp->servers = fr_strmap_new();
	if (!pp->names || !pp->servers) {
		fr_errf(err, errlen, "%s: out of memory", path);
		goto fail;
	}
	if (read_header(&r, &h, err, errlen) != 0)
		goto fail;
	for (;;) {
		const char *why;
		char *line;
		size_t len;
		long nf;
		uint32_t id;
		int added;
		double v;

		rc = fr_lines_next(&r, &line, &len, err, errlen);
		if (rc < 0)
			goto fail;
		if (rc == 0)
			break;
		if (len == 0) {
			fr_errf(err, errlen, "%s:%lu: blank line", path, r.line);
			goto fail;
		}
		nf = fr_csv_split(line, len, f, MAX_COLS, &why);
		if (nf < 0) {
			fr_errf(err, errlen, "%s:%lu: %s", path, r.line, why);
			goto fail;
		}
		if (nf != h.ncols) {
			fr_errf(err, errlen, "%s:%lu: expected %d fields, found %ld", path, r.line,
			        h.ncols, nf);
			goto fail;
		}
		if (n == cap && grow(pp, &cap, h.pos[COL_WEIGHT] >= 0) != 0) {
			fr_errf(err, errlen, "%s:%lu: out of memory (or more than %zu pages)", path,
			        r.line, MAX_PAGES);
			goto fail;
		}
		{
			const struct fr_field *pg = &f[h.pos[COL_PAGE]], *sv = &f[h.pos[COL_SERVER]];

			if (pg->n == 0 || sv->n == 0) {
				fr_errf(err, errlen, "%s:%lu: %s name is empty", path, r.line,
				        pg->n == 0 ? "page" : "server");
				goto fail;
			}
			if (memchr(pg->s, '\0', pg->n) || memchr(sv->s, '\0', sv->n)) {
				fr_errf(err, errlen, "%s:%lu: a name holds a NUL byte", path,
				        r.line);
				goto fail;
			}
			if (fr_strmap_intern(pp->names, pg->s, pg->n, &id, &added) != 0) {
				fr_errf(err, errlen, "%s:%lu: out of memory", path, r.line);
				goto fail;
			}
			if (!added) {
				/* Rows are pages one to one, no blank lines: page id sits on
				 * line id + 2. */
				fr_errf(err, errlen, "%s:%lu: page '%.*s%s' repeats line %lu", path,
				        r.line, SHOW(*pg), (unsigned long)id + 2);
				goto fail;
			}
			if (fr_strmap_intern(pp->servers, sv->s, sv->n, &pp->server[n], NULL) !=
			    0) {
				fr_errf(err, errlen, "%s:%lu: out of memory", path, r.line);
				goto fail;
			}
		}
		{
			const struct fr_field *fr = &f[h.pos[COL_RATE]];

			if (parse_num(fr, &v) != 0) {
				fr_errf(err, errlen, "%s:%lu: %s '%.*s%s' is not a finite number",
				        path, r.line, h.rate_name, SHOW(*fr));
				goto fail;
			}
			if (!(v > 0)) {
				fr_errf(err, errlen,
				        "%s:%lu: %s '%.*s%s' is not > 0 (a page that never changes "
				        "needs no revisits: leave it out)",
				        path, r.line, h.rate_name, SHOW(*fr));
				goto fail;
			}
			pp->lambda_per_day[n] = v;
		}
		if (h.pos[COL_WEIGHT] >= 0) {
			const struct fr_field *fw = &f[h.pos[COL_WEIGHT]];

			if (parse_num(fw, &v) != 0) {
				fr_errf(err, errlen,
				        "%s:%lu: weight '%.*s%s' is not a finite number", path,
				        r.line, SHOW(*fw));
				goto fail;
			}
			if (v < 0) {
				fr_errf(err, errlen, "%s:%lu: weight '%.*s%s' is negative", path,
				        r.line, SHOW(*fw));
				goto fail;
			}
			pp->weight[n] = v;
		}
		n++;
	}
	fr_lines_close(&r);
	pp->lambda_per_s = malloc((n ? n : 1) * sizeof(double));
	if (!pp->lambda_per_s) {
		fr_errf(err, errlen, "%s: out of memory", path);
		fr_plan_pages_free(pp);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		pp->lambda_per_s[i] = pp->lambda_per_day[i] / 86400;
	pp->pages = (struct fr_pages){.n = n,
	                              .lambda = pp->lambda_per_s,
	                              .weight = pp->weight,
	                              .server = pp->server,
	                              .n_servers = (uint32_t)fr_strmap_len(pp->servers)};
	return 0;
fail:
	fr_lines_close(&r);
	fr_plan_pages_free(pp);
	return -1;
}

void
fr_plan_pages_free(struct fr_plan_pages *pp)
{
	free(pp->lambda_per_day);
	free(pp->lambda_per_s);
	free(pp->weight);
	free(pp->server);
	fr_strmap_free(pp->names);
	fr_strmap_free(pp->servers);
	memset(pp, 0, sizeof(*pp));
}

const char *
fr_plan_pages_page(const struct fr_plan_pages *pp, size_t i)
{
	return fr_strmap_name(pp->names, (uint32_t)i);
}

const char *
fr_plan_pages_server(const struct fr_plan_pages *pp, uint32_t s)
{
	return fr_strmap_name(pp->servers, s);
}
