/* websub_http.h - `run --listen ADDR --callback-base URL`: the WebSub
 * subscriber's callbacks (docs/websub.md), served by the --listen server
 * (metrics.c) beside /metrics and /health: a hub's intent verification
 * (GET with hub.mode, hub.topic, hub.challenge, hub.lease_seconds) and its
 * content distribution (a signed POST), both answered by websub/sub.h's
 * rules. Callbacks need no token (a hub has none): a callback id is 128
 * random bits and every delivery must carry the subscription's HMAC. */
#ifndef FRESHET_WEBSUB_HTTP_H
#define FRESHET_WEBSUB_HTTP_H

#include <microhttpd.h>
#include <stddef.h>

struct fr_websub;
struct websub_conn;

/* For the first call of a request (its headers): a connection state when
 * url is one of ws's callbacks, else NULL (not ours). The caller passes
 * it back on each further call and frees it with websub_http_free. */
struct websub_conn *websub_http_begin(struct fr_websub *ws, const char *url);
/* A further call of the request: the body arrives (upload_len > 0; it is
 * kept up to the cap) or, at the last call, the answer is queued. */
enum MHD_Result websub_http_step(struct websub_conn *w, struct MHD_Connection *conn,
				 const char *method, const char *upload, size_t *upload_len);
void websub_http_free(struct websub_conn *w);

#endif
