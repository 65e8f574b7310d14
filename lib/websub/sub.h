/* sub.h - the WebSub subscriber's state: one subscription per pushing
 * source (topic, hub, its own secret and callback id, what was asked of
 * the hub, the lease), the requests to send (subscribe, renew before the
 * lease ends, unsubscribe), the hub's intent verifications and signed
 * deliveries, and the queue of accepted pushes the crawl loop takes. Safe
 * to call from the loop's thread and the HTTP server's at once (one
 * mutex). No I/O: the caller sends the requests and serves the callbacks
 * (docs/websub.md). */
#ifndef FR_WEBSUB_SUB_H
#define FR_WEBSUB_SUB_H

#include <stddef.h>
#include <stdint.h>

/* Defaults (fr_websub_opts, 0 means these). */
#define FR_WEBSUB_LEASE_S 864000.0     /* lease asked: 10 days */
#define FR_WEBSUB_RETRY_S 60.0         /* a refused request asked again after this, doubling */
#define FR_WEBSUB_RETRY_CAP_S 86400.0  /* ... up to a day */
#define FR_WEBSUB_VERIFY_WAIT_S 600.0  /* a request the hub accepted but never verified: asked again */
#define FR_WEBSUB_MAX_BODY (4u << 20)  /* a pushed body over this is refused (413) */
#define FR_WEBSUB_MAX_QUEUE (64u << 20) /* pushes waiting for the loop, bytes; beyond: 503 */
#define FR_WEBSUB_MAX_LEASE_S (366.0 * 86400) /* a longer lease granted counts as this */

struct fr_websub_opts {
	/* The callbacks' base, an absolute http(s) URL without query
	 * ("http://127.0.0.1:8090/websub"): a subscription's callback is
	 * BASE/ID, ID 32 random hex digits. Copied. */
	const char *callback_base;
	double lease_s, retry_s, retry_cap_s, verify_wait_s;
	size_t max_body, max_queue;
	/* Called with a line about each notable event (a delivery refused and
	 * why, a verification refused, a hub's denial), from either thread;
	 * never with a secret in it. May be NULL. */
	void (*log)(void *arg, const char *line);
	void *arg;
};

struct fr_websub;

/* A new subscriber. Returns 0 and *out (free with fr_websub_free), or -1
 * with err set (a callback base that is not an http(s) URL, out of
 * memory). */
int fr_websub_new(struct fr_websub **out, const struct fr_websub_opts *o, char *err,
		  size_t errlen);
void fr_websub_free(struct fr_websub *ws);

/* The subscriptions as text (one line each, secrets included: for the
 * store only, never for a log), and back. fr_websub_save returns a
 * malloc'd string (caller frees) and *len, NULL on out of memory; it
 * clears the dirty mark. fr_websub_load adds the lines of text[0..len)
 * (a subscription already held for the same source is replaced); a bad
 * line is skipped, the first one's number and reason in err. Returns the
 * number of lines skipped (0: all read), or -1 on out of memory. */
char *fr_websub_save(struct fr_websub *ws, size_t *len);
int fr_websub_load(struct fr_websub *ws, const char *text, size_t len, char *err, size_t errlen);
/* 1 when the state changed since the last save. */
int fr_websub_dirty(struct fr_websub *ws);

/* The loop fetched source_id's feed and found hub and topic (link.h):
 * a subscription is wanted (made with a new secret and callback id when
 * new, or when the hub or topic changed). Returns 0, or -1 (out of memory,
 * no random source, a hub or topic that is not an http(s) URL) with err. */
int fr_websub_want(struct fr_websub *ws, int64_t source_id, const char *hub, const char *topic,
		   double now, char *err, size_t errlen);
/* Sources other than ids[0..n) (sorted ascending) are gone (removed): their
 * subscriptions are to be unsubscribed (or dropped when no lease runs). */
void fr_websub_keep_only(struct fr_websub *ws, const int64_t *ids, size_t n, double now);

/* Requests that failed before (a hub down, an address not allowed then)
 * are due again at now: a new run may have what they lacked. */
void fr_websub_retry_failed(struct fr_websub *ws, double now);

/* A request to send to a hub: POST form to hub (application/x-www-form-
 * urlencoded). Strings malloc'd: fr_websub_request_clear frees them. */
struct fr_websub_request {
	int64_t source_id;
	int subscribe; /* 1 subscribe (or renew), 0 unsubscribe */
	char *hub, *form;
};
void fr_websub_request_clear(struct fr_websub_request *rq);
/* The next request due at now: 1 with *rq filled (the subscription is
 * then marked as sending until fr_websub_request_done), 0 when none is
 * due, -1 on out of memory. */
int fr_websub_next_request(struct fr_websub *ws, double now, struct fr_websub_request *rq);
/* When the next request falls due (INFINITY: none). */
double fr_websub_next_due(struct fr_websub *ws);
/* The hub's answer to a request from fr_websub_next_request: status its
 * HTTP status (0: no answer), error why it failed (NULL when it got an
 * answer). A 2xx means the hub will verify; anything else is asked again
 * after a backoff. */
void fr_websub_request_done(struct fr_websub *ws, int64_t source_id, int subscribe, long status,
			    const char *error, double now);

/* The id of a callback path: path is the request's path, which must be
 * the callback base's path, '/', and 32 hex digits. Copies the id into
 * id (33 bytes) and returns 0, or -1 when path is no callback. */
int fr_websub_callback_id(const struct fr_websub *ws, const char *path, char id[33]);

/* The hub's intent verification (a GET on a callback): mode, topic,
 * challenge, lease_seconds and reason are the query's hub.* values (NULL
 * when absent). Answered only for a request we made and the hub has not
 * yet verified, for the same topic: subscribe (needs a challenge and a
 * lease of 1 s or more; starts the lease), unsubscribe (the subscription
 * is dropped), denied (the subscription waits a day). Returns the HTTP
 * status (200: *echo is the challenge to answer with, borrowed; 404: not
 * ours, or not asked; 400: malformed) and, when not 200, a reason in why. */
int fr_websub_intent(struct fr_websub *ws, const char *cb_id, const char *mode, const char *topic,
		     const char *challenge, const char *lease_seconds, const char *reason,
		     double now, const char **echo, char *why, size_t whylen);

/* A delivery (a POST on a callback) of body[0..len) with the X-Hub-
 * Signature value sig (may be NULL) and Content-Type ctype (may be NULL).
 * A body signed with the subscription's secret is copied into the queue
 * (202); an unknown callback is 404, a body over max_body 413, a full
 * queue 503, a subscription no longer wanted 410. A missing or wrong
 * signature is refused and logged, but answered 202 as the WebSub spec
 * asks (so a forger learns nothing); *accepted says whether it was
 * queued. why gets the reason when not accepted. */
int fr_websub_deliver(struct fr_websub *ws, const char *cb_id, const char *sig, const char *ctype,
		      const void *body, size_t len, double now, int *accepted, char *why,
		      size_t whylen);

/* The most a delivery's body may be (opts max_body). */
size_t fr_websub_max_body(const struct fr_websub *ws);

/* A push accepted, for the loop. Strings malloc'd: fr_websub_push_clear. */
struct fr_websub_push {
	int64_t source_id;
	char *body;         /* NUL-terminated after len bytes */
	size_t len;
	char *content_type; /* NULL when absent */
	char *topic;
	double received_s;
};
void fr_websub_push_clear(struct fr_websub_push *p);
/* Takes the oldest push: 1 with *p filled, 0 when none. */
int fr_websub_take(struct fr_websub *ws, struct fr_websub_push *p);

/* Whether source_id's lease runs at now: 1 or 0; *last_push_s (may be
 * NULL) gets when its latest accepted push came (0: none yet), and
 * *lease_until_s (may be NULL) when its lease ends (0: none). */
int fr_websub_live(struct fr_websub *ws, int64_t source_id, double now, double *last_push_s,
		   double *lease_until_s);

struct fr_websub_stats {
	uint64_t requests, requests_failed; /* sent to hubs, and refused or unanswered */
	uint64_t verified, verify_refused, denied;
	uint64_t pushes, pushes_refused;    /* accepted, refused (signature, size, unknown) */
	size_t subscriptions, live;
};
void fr_websub_get_stats(struct fr_websub *ws, double now, struct fr_websub_stats *out);

#endif
