/* metrics.h - `run --listen ADDR`: /metrics (Prometheus text format) and
 * /health over HTTP, from the crawl's progress reports.
 *
 * The crawl loop calls metrics_update with its statistics (about once a
 * second, and at the end); a libmicrohttpd thread answers scrapes from the
 * last copy, so a scrape never waits on the loop nor the loop on a scrape.
 * Read-only: nothing a request says changes the crawl.
 *
 * ADDR is HOST:PORT or PORT (127.0.0.1), HOST an IPv4 or IPv6 literal
 * ([::1]:9100); port 0 picks a free one (metrics_port tells which). An
 * address other than loopback needs a token: requests then carry
 * "Authorization: Bearer TOKEN" or get 401. */
#ifndef FRESHET_METRICS_H
#define FRESHET_METRICS_H

#include "crawl.h"

#include <stddef.h>
#include <stdint.h>

struct metrics;

/* Starts listening. token may be NULL (loopback only). Returns NULL with
 * err set (a bad address, a port in use, a public address without a
 * token). */
struct metrics *metrics_start(const char *addr, const char *token, char *err, size_t errlen);
uint16_t metrics_port(const struct metrics *m);
/* The crawl's latest statistics; done 1 once the crawl has ended. */
void metrics_update(struct metrics *m, const struct fr_crawl_stats *st, int done);
/* From now on also serves ws's WebSub callbacks (websub_http.h; no
 * token asked for them). ws is borrowed until metrics_stop, or until this
 * is called again with NULL. */
struct fr_websub;
void metrics_set_websub(struct metrics *m, struct fr_websub *ws);
/* Stops the server (waits for scrapes in progress) and frees m. */
void metrics_stop(struct metrics *m);

/* The Prometheus text exposition of st (for the test of the format and
 * for the server). Returns a malloc'd string or NULL. now_s is the wall
 * clock at the scrape. */
char *metrics_text(const struct fr_crawl_stats *st, double now_s, double updated_s);

#endif
