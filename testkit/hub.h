/* hub.h - a WebSub hub for `freshet serve --hub-share F` (docs/serve.md,
 * docs/websub.md): a share of the world's feeds name it (an HTTP Link
 * field rel="hub", with rel="self"); it takes subscription requests (a
 * POST form to http://h0.DOMAIN/websub/hub), verifies each subscriber's
 * intent (a GET on its callback with a challenge it must echo), and, as
 * the serve clock publishes items, POSTs each subscriber the feed holding
 * only the new items, signed (X-Hub-Signature: sha256=HMAC(secret, body)),
 * dropping a given share of deliveries on purpose. Every event is a line
 * of its log, so tests can tell what was pushed when. Test kit only. */
#ifndef FR_TESTKIT_HUB_H
#define FR_TESTKIT_HUB_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct fr_serve_feeds;
struct fr_serve_clock;
struct fr_serve_req;
struct fr_serve_resp;
struct fr_trace;

/* The hub's path on host h0. */
#define FR_TK_HUB_PATH "/websub/hub"

struct fr_tk_hub_config {
	struct fr_serve_feeds *feeds;       /* borrowed: the feeds served */
	const struct fr_trace *tr;          /* borrowed */
	const struct fr_serve_clock *clock; /* borrowed */
	const char *clock_file;             /* the server's, or NULL (fr_serve_config) */
	const char *domain;                 /* borrowed: "freshet.test" */
	double share;                       /* sources that push: floor((s+1)F) > floor(sF) */
	double drop;                        /* share of deliveries dropped, in [0, 1] */
	uint64_t seed;                      /* of the drops */
	double max_lease_s;                 /* a lease asked longer is granted this: 0 = 1 day */
	/* TSV, a header line first: wall_s event source from count status,
	 * event one of request, verified, refused, push, drop, gone; for push
	 * and drop the items [from, count) of the source (ids "NAME-k").
	 * Borrowed, may be NULL. */
	FILE *log;
};

struct fr_tk_hub;

/* A hub; its delivery thread starts at once. NULL with err set on a bad
 * config or out of memory. */
struct fr_tk_hub *fr_tk_hub_new(const struct fr_tk_hub_config *c, char *err, size_t errlen);
/* Stops the thread and frees h (NULL is fine). */
void fr_tk_hub_free(struct fr_tk_hub *h);

/* Whether source s pushes (its feed names the hub): 1 or 0. */
int fr_tk_hub_pushed(const struct fr_tk_hub *h, uint32_t s);

/* The server's handler (ctx = the hub): the hub's path on h0, else the
 * feeds' handler (fr_serve_feeds_handle), a pushed source's feed with its
 * Link field. Thread-safe. */
int fr_tk_hub_handle(void *ctx, const struct fr_serve_req *req, struct fr_serve_resp *resp);

/* Counts so far. */
struct fr_tk_hub_stats {
	uint64_t requests, verified, refused, pushes, drops, failed;
};
void fr_tk_hub_get_stats(struct fr_tk_hub *h, struct fr_tk_hub_stats *out);

#endif
