/* sink.h - telling programs about new items: a sink reads the items stored
 * after its cursor (by seq, fr_store_items) from a store handle of its own,
 * in a thread of its own, and delivers them in batches to a command's
 * standard input (JSON Lines) or as a JSON POST to a webhook, retrying a
 * failed batch with backoff. The cursor (the last seq delivered) is kept in
 * the store, so a crash or kill -9 loses nothing: the next start resumes
 * after it, and a batch cut short is delivered again (at least once). */
#ifndef FR_SINK_SINK_H
#define FR_SINK_SINK_H

#include <stddef.h>
#include <stdint.h>

struct fr_sink;

enum fr_sink_kind {
	FR_SINK_EXEC,    /* target: a command, run by /bin/sh -c, batch on its stdin */
	FR_SINK_WEBHOOK, /* target: an http(s) URL, batch POSTed as JSON */
};

struct fr_sink_config {
	enum fr_sink_kind kind;
	const char *target;
	/* The cursor's name (meta key "sink:NAME"); NULL: "exec:CMD" or
	 * "webhook:URL", so that the same option resumes the same cursor. */
	const char *name;
	const char *secret;    /* webhook: HMAC-SHA256 key for the signature header; NULL none */
	size_t batch_max;      /* items per batch at most (0: 100) */
	double backoff_base_s; /* first wait after a failed batch, doubling (0: 1 s) */
	double backoff_cap_s;  /* longest wait (0: 300 s) */
	double timeout_s;      /* one delivery at most (0: 30 s); then it failed */
	double poll_s;         /* how often the store is asked for new items (0: 0.5 s) */
	/* Called from the sink's thread with one line (a failure, a recovery);
	 * NULL: nothing is said. */
	void (*log)(void *arg, const char *line);
	void *log_arg;
};

/* Starts a sink on the store at db (opened again, as fr_store_open: on
 * SQLite beside the crawler's handle, which holds the crawl lock). The
 * cursor is read from the store; a sink that has none yet starts after the
 * last item stored now (it tells of what comes from now on) and records
 * that at once. cfg's strings are copied. Returns 0 and *out, or -1 with
 * err set (the store, a bad URL, out of memory). */
int fr_sink_start(struct fr_sink **out, const char *db, const struct fr_sink_config *cfg,
		  char *err, size_t errlen);

/* Stops the sink: it goes on delivering what is stored for at most
 * drain_s (a batch under way is cut at that time, or at its first
 * failure), then its thread ends, its store handle is closed and s freed.
 * NULL is fine. */
void fr_sink_stop(struct fr_sink *s, double drain_s);

struct fr_sink_stats {
	int64_t cursor;             /* the last seq delivered */
	uint64_t items, batches;    /* delivered since start */
	uint64_t failures;          /* failed attempts since start */
};
void fr_sink_get_stats(struct fr_sink *s, struct fr_sink_stats *out);

/* The signature header's value for body under key: "sha256=" and the
 * lowercase hex of HMAC-SHA256(key, body). out needs 72 bytes. */
void fr_sink_signature(const char *key, const void *body, size_t len, char out[72]);

#endif
