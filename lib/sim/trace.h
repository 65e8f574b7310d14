/* trace.h - publication traces: CSV `source,time[,weight]` (plain or
 * gzip-compressed, any row order) and the optional sources file
 * `source,host,group,weight`. Loaded into per-source, time-sorted arrays that
 * the simulator's stub API answers from. */
#ifndef FR_SIM_TRACE_H
#define FR_SIM_TRACE_H

#include <stddef.h>
#include <stdint.h>

struct fr_strmap;

struct fr_trace {
	uint32_t n_sources;
	struct fr_strmap *sources; /* source name <-> id */
	struct fr_strmap *hosts;   /* host name <-> host id */
	struct fr_strmap *groups;  /* group name <-> group id; id 0 is "default" */
	uint32_t *host;            /* [n_sources] host id of each source */
	uint32_t *group;           /* [n_sources] rate-limit group of each source */
	double *weight;            /* [n_sources] source weight (default 1) */

	size_t n_items;
	size_t *first;       /* [n_sources + 1]: items of source s are first[s]..first[s+1]-1 */
	double *item_time_s; /* [n_items] publication times, ascending within a source */
	float *item_weight;  /* [n_items] item weights, or NULL when the trace has no
	                        weight column (set, if unused, for a weighted empty trace) */

	double start_s, end_s; /* earliest and latest item time (0, 0 when empty) */
};

/* Loads the trace at trace_path (gzip detected by its magic bytes, not by
 * name) and, when sources_path is not NULL, the sources file first. Sources
 * listed in the sources file but absent from the trace are kept with no
 * items. Without a sources file every source is its own host (its name) and
 * in group "default" with weight 1, and ids follow the names in byte order
 * (strcmp), so any order of the same rows gives the same ids; with one, ids
 * follow the sources file and a trace source missing from it is an error.
 *
 * Header rules: the first line names the columns; `source` and `time` are
 * required, `weight` and `url` optional, in any order; unknown or repeated
 * columns are an error. `url` is read and ignored. In the sources file only
 * `source` is required; `host`, `group` and `weight` default to the source's
 * own name, "default" and 1. A column that is present needs a value in every
 * row. Quoted fields ("a,b", "" escapes) are accepted but cannot span lines.
 * Blank lines are errors, except a final newline. CRLF line endings, a UTF-8
 * byte order mark and a missing final newline are accepted. Lines are at
 * most 64 KiB. Weights are finite, non-negative numbers within float range.
 *
 * On any bad row returns -1 with err set to "PATH:LINE: reason" (e.g.
 * "t.csv:17: time 'abc' is neither Unix seconds nor RFC 3339", "t.csv:5:
 * expected 2 fields, found 3", "t.csv:9: source 'y' is not in sources.csv",
 * "t.csv:1: header lacks a 'time' column") and *tr left zeroed (nothing
 * partially loaded); nothing is skipped silently. On success returns 0;
 * free with fr_trace_free. */
int fr_trace_load(struct fr_trace *tr, const char *trace_path, const char *sources_path,
		  char *err, size_t errlen);

/* Builds a trace from memory (tests, generated worlds): n rows of (source
 * name, time, weight or NAN). Same semantics as loading a file without a
 * sources file: ids follow the names in byte order, not the rows' order (a
 * caller wanting ids in its own order picks names that sort that way, like
 * fr_world_source_name's fixed-width ones). weight may be NULL; item_weight is NULL when weight is NULL
 * or all NAN, otherwise a NAN weighs 1. Copies what it needs; the arrays stay
 * the caller's. Returns 0, or -1 with err set to "rows[I]: reason" (empty
 * source, non-finite time, negative or infinite weight) and *tr zeroed. */
int fr_trace_from_rows(struct fr_trace *tr, size_t n, const char *const *source,
		       const double *time_s, const float *weight, char *err, size_t errlen);

/* Frees what tr holds and zeroes it; a zeroed trace may be freed again. */
void fr_trace_free(struct fr_trace *tr);

/* Name of source s (borrowed, valid until fr_trace_free). */
const char *fr_trace_source_name(const struct fr_trace *tr, uint32_t s);

#endif
