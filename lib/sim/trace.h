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
	float *item_weight;  /* [n_items] item weights, or NULL when the trace has none */

	double start_s, end_s; /* earliest and latest item time (0, 0 when empty) */
};

/* Loads the trace at trace_path (gzip detected by its magic bytes, not by
 * name) and, when sources_path is not NULL, the sources file first. Sources
 * listed in the sources file but absent from the trace are kept with no
 * items. Without a sources file every source is its own host (its name) and
 * in group "default" with weight 1; with one, a trace source missing from it
 * is an error.
 *
 * Header rules: the first line names the columns; `source` and `time` are
 * required, `weight` and `url` optional, in any order; unknown columns are an
 * error. Quoted fields ("a,b", "" escapes) are accepted. Blank lines are
 * errors, except a final newline.
 *
 * On any bad row returns -1 with err set to "PATH:LINE: reason" and *tr left
 * empty (nothing partially loaded); nothing is skipped silently. On success
 * returns 0; free with fr_trace_free. */
int fr_trace_load(struct fr_trace *tr, const char *trace_path, const char *sources_path,
		  char *err, size_t errlen);

/* Builds a trace from memory (tests, generated worlds): n rows of (source
 * name, time, weight or NAN). Same semantics as loading a file without a
 * sources file. Returns 0 or -1 with err set. */
int fr_trace_from_rows(struct fr_trace *tr, size_t n, const char *const *source,
		       const double *time_s, const float *weight, char *err, size_t errlen);

void fr_trace_free(struct fr_trace *tr);

/* Name of source s (borrowed, valid until fr_trace_free). */
const char *fr_trace_source_name(const struct fr_trace *tr, uint32_t s);

#endif
