/* pages.h - the pages file that `freshet plan` reads: CSV
 * `page,server,lambda_per_day[,weight]` (what `freshet world --kind pages`
 * writes as pages.csv), loaded into a struct fr_pages with rates per second. */
#ifndef FR_PLAN_PAGES_H
#define FR_PLAN_PAGES_H

#include <stddef.h>
#include <stdint.h>

#include "plan/alloc.h"

struct fr_strmap;

/* A loaded pages file. Page i is the file's i-th data row. */
struct fr_plan_pages {
	struct fr_pages pages;     /* borrows the arrays below; lambda per second */
	double *lambda_per_day;    /* [n] as in the file */
	double *lambda_per_s;      /* [n] lambda_per_day / 86400 */
	double *weight;            /* [n], or NULL when the file has no weight column */
	uint32_t *server;          /* [n] server id, in order of first appearance */
	struct fr_strmap *names;   /* page name <-> page index */
	struct fr_strmap *servers; /* server name <-> server id */
};

/* Loads PATH (plain or gzip, told by its magic bytes). Header rules: the
 * first line names the columns, in any order: `page`, `server` and the change
 * rate are required, `weight` is optional; the rate column is
 * `lambda_per_day`, or its synonyms `lambda` or `changes_per_day` (all three
 * in changes per day; at most one of them). Unknown or repeated columns are
 * errors. Every row has every column: page names are unique and non-empty,
 * server names non-empty, rates finite and > 0, weights finite and >= 0.
 * Quoted fields ("a,b", "" escapes) are accepted but cannot span lines;
 * CRLF, a UTF-8 byte order mark and a missing final newline are accepted;
 * blank lines are errors, except a final newline; lines are at most 64 KiB.
 *
 * On a bad row returns -1 with err set to "PATH:LINE: reason" (e.g.
 * "p.csv:7: lambda_per_day '-1' is not > 0", "p.csv:3: page 'a' repeats
 * line 2", "p.csv:1: header lacks a 'server' column") and *pp zeroed;
 * nothing is skipped silently. On success returns 0; free with
 * fr_plan_pages_free. A file with a header and no rows loads as 0 pages. */
int fr_plan_pages_load(struct fr_plan_pages *pp, const char *path, char *err, size_t errlen);

/* Frees what pp holds and zeroes it; a zeroed value may be freed again. */
void fr_plan_pages_free(struct fr_plan_pages *pp);

/* Names of page i and server s: borrowed, valid until fr_plan_pages_free. */
const char *fr_plan_pages_page(const struct fr_plan_pages *pp, size_t i);
const char *fr_plan_pages_server(const struct fr_plan_pages *pp, uint32_t s);

#endif
