/* api.h - a world's sources served as a rate-limited JSON API for `freshet
 * serve --world DIR --api graph|mastodon|reddit`: each source one endpoint
 * in the API's own shape (Graph page posts, Mastodon account statuses,
 * Reddit listings), newest first with the API's pagination, items visible
 * once the serve clock reaches them; per-token calls counted in fixed
 * windows of world time, with the API's usage headers and its error bodies
 * past the limit. NOTE: keep docs/serve.md ("A JSON API") in sync. */
#ifndef FR_TESTKIT_API_H
#define FR_TESTKIT_API_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct fr_trace;
struct fr_serve_clock;
struct fr_serve_req;
struct fr_serve_resp;

enum fr_tk_api_kind { FR_TK_API_GRAPH, FR_TK_API_MASTODON, FR_TK_API_REDDIT, FR_TK_API_N };

/* "graph", "mastodon", "reddit". */
const char *fr_tk_api_kind_name(enum fr_tk_api_kind k);
/* Sets *k from a name above; returns 0, or -1 when unknown. */
int fr_tk_api_kind_parse(const char *name, enum fr_tk_api_kind *k);

/* Distinct tokens counted when any token is accepted; more are refused as
 * unknown. */
#define FR_TK_API_MAX_TOKENS 10000u

struct fr_tk_api_config {
	const struct fr_trace *tr;          /* borrowed; outlives the API */
	const struct fr_serve_clock *clock; /* borrowed, wall0_s set */
	enum fr_tk_api_kind kind;
	/* Each token may make limit_n calls per fixed window of limit_window_s
	 * seconds of world time (windows start at multiples of the window since
	 * the epoch, as Mastodon's and Reddit's do); limit_n 0: no limit (no
	 * usage headers). */
	unsigned limit_n;
	double limit_window_s;
	/* The accepted tokens (borrowed), their order giving their index in the
	 * log; n_tokens 0: any non-empty token, indexed in order of first use. */
	const char *const *tokens;
	size_t n_tokens;
	int graph_code;   /* the Graph error code past the limit: 4 (default), 17, 32, 613 */
	const char *host; /* NULL: "<kind>.freshet.test"; borrowed */
};

/* Sets kind graph, 600 calls per 600 s, any token, code 4. */
void fr_tk_api_config_defaults(struct fr_tk_api_config *c);

struct fr_tk_api;

/* Builds the API over cfg->tr. Returns NULL with err set on a bad config
 * or out of memory. Free with fr_tk_api_free. */
struct fr_tk_api *fr_tk_api_new(const struct fr_tk_api_config *cfg, char *err, size_t errlen);
void fr_tk_api_free(struct fr_tk_api *a);

/* The log columns the handler fills (struct fr_serve_config's log_extra):
 * "token\tlimited". */
#define FR_TK_API_LOG_COLUMNS "token\tlimited"

/* The handler (struct fr_serve_handler's handle, ctx = the API), for the
 * server's any-host mode; thread-safe. Every answer but /robots.txt and the
 * listing at / (JSON: the API, its limit, every source's URL) needs a
 * token (Authorization: Bearer, or Graph's access_token= parameter) and
 * counts as a call of it; see docs/serve.md. */
int fr_tk_api_handle(void *ctx, const struct fr_serve_req *req, struct fr_serve_resp *resp);

/* The endpoint of source s ("http://graph.freshet.test/s0001/posts", the
 * name percent-encoded) into buf; returns buf. */
char *fr_tk_api_url(const struct fr_tk_api *a, uint32_t s, char *buf, size_t len);

/* Writes every source's endpoint URL, one a line, in source order. Returns
 * 0, or -1 with err set on a write error (name names the file). */
int fr_tk_api_write_list(const struct fr_tk_api *a, FILE *out, const char *name, char *err,
                         size_t errlen);

/* Writes the truth CSV `source,url,id,published_s`: every item visible at
 * trace time t_end_s (all of them can be reached by paging), by source
 * then item, id as the API's preset reads it (Graph id, Mastodon id,
 * Reddit fullname), published_s the wall-equivalent time the API shows
 * (whole seconds). *rows (may be NULL) gets the count. Returns 0, or -1
 * with err set. */
int fr_tk_api_write_truth(const struct fr_tk_api *a, FILE *out, const char *name, double t_end_s,
                          size_t *rows, char *err, size_t errlen);

/* Counts since the start. */
struct fr_tk_api_stats {
	uint64_t calls;        /* answers to a valid token within its limit (any status) */
	uint64_t refused;      /* calls refused for the limit */
	uint64_t unauthorized; /* no token, or an unknown one */
	uint64_t tokens;       /* distinct tokens seen */
};
void fr_tk_api_get_stats(struct fr_tk_api *a, struct fr_tk_api_stats *st);

#endif
