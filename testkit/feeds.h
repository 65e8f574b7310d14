/* feeds.h - what `freshet serve` serves for a trace: every source as an RSS
 * 2.0, Atom 1.0 or JSON Feed 1.1 feed on a virtual host, showing the items
 * whose trace time has come on the serve clock; plus the feed list (OPML)
 * and the truth file (every item a crawler could have seen). */
#ifndef FR_TESTKIT_FEEDS_H
#define FR_TESTKIT_FEEDS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct fr_trace;
struct fr_serve_clock;
struct fr_serve_req;
struct fr_serve_resp;

enum fr_serve_format { FR_SERVE_RSS, FR_SERVE_ATOM, FR_SERVE_JSON, FR_SERVE_N_FORMATS };

/* File extension of a format ("rss", "atom", "json"). */
const char *fr_serve_format_ext(enum fr_serve_format f);

struct fr_serve_feeds_config {
	const struct fr_trace *tr;          /* borrowed; outlives the feeds */
	const struct fr_serve_clock *clock; /* borrowed, wall0_s already set */
	uint32_t n_hosts;                   /* 0: the trace's hosts when it has fewer hosts than
	                                       sources, else max(1, sources / 10) */
	unsigned window;                    /* items per feed, newest first: 25 */
	enum fr_serve_format formats[FR_SERVE_N_FORMATS]; /* source s gets */
	unsigned n_formats; /*   formats[s % n_formats]; 0: rss, atom, json */
	int misbehave;      /* as the server's: ill-formed XML on FR_SERVE_HOST_ILLFORMED
	                       hosts, huge feeds listed in the OPML */
	const char *domain; /* borrowed: "freshet.test" */
};

/* Sets window 25, all three formats, misbehave 1, domain "freshet.test". */
void fr_serve_feeds_config_defaults(struct fr_serve_feeds_config *c);

struct fr_serve_feeds;

/* Builds the feeds of cfg->tr: hosts, formats, Last-Modified times (from
 * the clock, which must not change afterwards). Returns NULL with err set on
 * out-of-memory or a bad config. Free with fr_serve_feeds_free. */
struct fr_serve_feeds *fr_serve_feeds_new(const struct fr_serve_feeds_config *cfg, char *err,
                                          size_t errlen);
void fr_serve_feeds_free(struct fr_serve_feeds *f);

uint32_t fr_serve_feeds_n_hosts(const struct fr_serve_feeds *f);
/* Host index and format of source s. */
uint32_t fr_serve_feeds_host(const struct fr_serve_feeds *f, uint32_t s);
enum fr_serve_format fr_serve_feeds_format(const struct fr_serve_feeds *f, uint32_t s);

/* URL of source s's feed as listed in the OPML
 * ("http://h<k>.<domain>/feeds/<source>.<ext>", the source name
 * percent-encoded) into buf; returns buf. */
char *fr_serve_feeds_url(const struct fr_serve_feeds *f, uint32_t s, char *buf, size_t len);

/* The handler (struct fr_serve_handler's handle, ctx = the feeds):
 *   /                      an HTML page linking the host's feeds
 *   /feeds/<source>.<ext>  the feed (404 if the source is on another host or
 *                          in another format); ETag and Last-Modified set
 *   /items/<source>/<k>    a small HTML page for a visible item
 * anything else is 404. Thread-safe. */
int fr_serve_feeds_handle(void *ctx, const struct fr_serve_req *req, struct fr_serve_resp *resp);

/* Number of items of source s visible at trace time t_s. */
size_t fr_serve_feeds_visible(const struct fr_serve_feeds *f, uint32_t s, double t_s);

/* For the WebSub hub (hub.h): appends source s's feed holding only its
 * items [from, count) (newest first, at most the window) to b; returns
 * its content type (static). */
struct fr_text;
const char *fr_serve_feeds_render_new(const struct fr_serve_feeds *f, uint32_t s, size_t from,
				      size_t count, struct fr_text *b);

/* Writes the OPML list (parse/opml.h's writer) of every feed, in source
 * order, then, with misbehaviour on, the huge feeds of FR_SERVE_HOST_HUGE
 * hosts in a folder "huge". Returns 0, or -1 with err set on a write error
 * or out-of-memory (name is the file's name, for the message). */
int fr_serve_feeds_write_opml(const struct fr_serve_feeds *f, FILE *out, const char *name,
                              char *err, size_t errlen);

/* Writes the truth CSV `source,feed_url,id,published_s` to out: for every
 * source, the last `window` items visible at the clock's start and every
 * item with start < t <= t_end_s, by source then item; published_s is the
 * item's wall-equivalent time in seconds with milliseconds, as the feed
 * shows it. Huge feeds are not in it. Returns the rows written (through
 * *rows, may be NULL) and 0, or -1 with err set on a write error. */
int fr_serve_feeds_write_truth(const struct fr_serve_feeds *f, FILE *out, const char *name,
                               double t_end_s, size_t *rows, char *err, size_t errlen);

#endif
