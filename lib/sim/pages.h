/* pages.h - synthetic repositories of pages that change (seed 002,
 * notes-politeness.md): pages on servers, a heavy-tailed number of pages per
 * server, Poisson change rates and importance weights. A page is a source
 * whose "items" are its changes; the repository doubles as a world with flat
 * profiles and constant rates, so simulate --world and the oracle-style
 * policies see the true rates through the usual intensity mechanism. */
#ifndef FR_SIM_PAGES_H
#define FR_SIM_PAGES_H

#include <stddef.h>
#include <stdint.h>

#include "sim/world.h"

struct fr_trace;
struct fr_pages;

/* Shape of a repository. fr_pages_defaults fills the defaults given here. */
struct fr_pages_params {
	uint32_t n_pages;         /* 10000 */
	uint32_t n_servers;       /* 100; at most n_pages (every server gets a page) */
	double days;              /* 30 */
	double start_s;           /* 2012-10-01T00:00:00Z = 1349049600; whole seconds */
	uint64_t seed;            /* 1 */
	double mean_rate_per_day; /* mean changes per page per day: 1 */
	double rate_sigma;        /* sigma of the lognormal change rate: 1.5 (median 0.32 a
	                           * day, 1% above 11, the fastest of 10,000 about 100) */
	double server_zipf;       /* pages per server: page i >= n_servers lands on server k
	                           * with probability proportional to (k + 1)^-server_zipf
	                           * (pages 0..n_servers-1 take one server each): 1 */
	double weight_sigma;      /* sigma of the lognormal importance (mean 1): 1 */
};

/* A repository. Every array has p.n_pages entries, owned. */
struct fr_pages_world {
	struct fr_pages_params p;
	double end_s;           /* start_s + days * 86400 */
	double *lambda_per_day; /* change rate of each page */
	double *weight;         /* importance */
	uint32_t *server;       /* server index, < p.n_servers */
	/* The same pages as a world (fr_world): page i is source i, rate
	 * lambda_per_day[i], flat day and week profiles, no follow-ups, no rate
	 * changes, starts or stops, popularity = importance. Its items are the
	 * pages' change events. */
	struct fr_world world;
};

void fr_pages_defaults(struct fr_pages_params *p);

/* Draws a repository. Each page's rate, weight and server depend only on the
 * seed, its index and p. Returns 0, or -1 with err set for invalid parameters
 * ("invalid repository: ...") or out-of-memory (then *pw is left zeroed).
 * Free with fr_pages_free. */
int fr_pages_generate(struct fr_pages_world *pw, const struct fr_pages_params *p, char *err,
                      size_t errlen);

/* Frees what pw owns and zeroes it; safe on a zeroed repository. */
void fr_pages_free(struct fr_pages_world *pw);

/* Name of server k ("h007"; as wide as the largest index needs, at least 3
 * digits) into buf; returns buf. len >= 16 always fits. Pages are named as
 * the world names its sources (fr_world_source_name: "s0042"). */
char *fr_pages_server_name(const struct fr_pages_world *pw, uint32_t k, char *buf, size_t len);

/* Draws the change events into a trace in memory: sources are the pages
 * (ids = page indices, weight = importance), hosts are the servers (host id =
 * server index), one group. Returns 0 or -1 with err set (then *tr is left
 * zeroed). Free with fr_trace_free. */
int fr_pages_trace(const struct fr_pages_world *pw, struct fr_trace *tr, char *err, size_t errlen);

/* Writes the repository to DIR (created if needed):
 *   trace.csv    source,time: the change events (a page is a source)
 *   sources.csv  source,host,group,weight: host = server, weight = importance
 *   world.csv    the pages as a world (constant rates), for --world
 *   pages.csv    page,server,lambda_per_day,weight, one row per page in index
 *                order (the exact header is FR_PAGES_HEADER)
 * Each file is written under a temporary name and renamed. pages.csv comes
 * last: its presence says the directory is a complete repository (world.csv
 * alone would describe each page as its own host). Sets *n_changes (when not
 * NULL) to the events written. Returns 0 or -1 with err naming the file. */
int fr_pages_write(const struct fr_pages_world *pw, const char *dir, size_t *n_changes, char *err,
                   size_t errlen);

#define FR_PAGES_HEADER "page,server,lambda_per_day,weight"

/* 1 when DIR holds a pages.csv (a repository written by fr_pages_write), else 0. */
int fr_pages_is_dir(const char *dir);

/* Fills *out (struct fr_pages of plan/alloc.h) with the pages of tr whose true
 * rate at t_s is positive: lambda from intensity(arg, s, t_s) (per second),
 * weight from tr->weight, server from tr->host (n_servers: the largest host
 * id + 1). idx[], when not NULL, receives each kept page's source id. The
 * caller gives lambda, weight, server and idx arrays of tr->n_sources
 * entries, which *out borrows. Pages with rate 0 never change and need no
 * revisits. Returns the number kept. */
size_t fr_pages_from_trace(const struct fr_trace *tr,
                           double (*intensity)(const void *arg, uint32_t s, double t_s),
                           const void *arg, double t_s, double *lambda, double *weight,
                           uint32_t *server, uint32_t *idx, struct fr_pages *out);

/* The two upper bounds of seed 002 on the time-averaged weighted freshness
 * with budget revisits per second and politeness gap gap_s: *unpolite =
 * value of the CHO allocation, *polite = value of the OPT_POLITE allocation
 * (the budget capped at the servers with pages / gap_s; equal to *unpolite
 * when gap_s is 0). total_weight, when > 0, is the weight of every page, the
 * ones not in p included (rate 0: always fresh, value 1), else only p's
 * pages count. Returns 0, or -1 with err set. */
int fr_pages_bounds(const struct fr_pages *p, double total_weight, double budget, double gap_s,
                    double *unpolite, double *polite, char *err, size_t errlen);

#endif
