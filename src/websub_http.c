/* websub_http.c - the WebSub callbacks over libmicrohttpd (websub_http.h).
 * Everything a hub sends is hostile: the body is capped while it arrives,
 * every refusal is logged on stderr naming the callback's source. */
#include "websub_http.h"

#include "core/timefmt.h"
#include "websub/sub.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct websub_conn {
	struct fr_websub *ws;
	char id[33];
	char *body;
	size_t len, cap;
	int too_large;
};

struct websub_conn *
websub_http_begin(struct fr_websub *ws, const char *url)
{
	struct websub_conn *w;
	char id[33];

	if (!ws || fr_websub_callback_id(ws, url, id) < 0)
		return NULL;
	if (!(w = calloc(1, sizeof(*w))))
		return NULL;
	w->ws = ws;
	memcpy(w->id, id, sizeof(id));
	return w;
}

void
websub_http_free(struct websub_conn *w)
{
	if (!w)
		return;
	free(w->body);
	free(w);
}

static enum MHD_Result
answer(struct MHD_Connection *conn, unsigned status, const char *body)
{
	struct MHD_Response *r =
	    MHD_create_response_from_buffer(strlen(body), (void *)body, MHD_RESPMEM_MUST_COPY);
	enum MHD_Result ret;

	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, "Content-Type", "text/plain");
	MHD_add_response_header(r, "Cache-Control", "no-store");
	ret = MHD_queue_response(conn, status, r);
	MHD_destroy_response(r);
	return ret;
}

static const char *
get(struct MHD_Connection *conn, const char *name)
{
	return MHD_lookup_connection_value(conn, MHD_GET_ARGUMENT_KIND, name);
}

enum MHD_Result
websub_http_step(struct websub_conn *w, struct MHD_Connection *conn, const char *method,
		 const char *upload, size_t *upload_len)
{
	char why[512], line[700];
	double now = fr_time_now();

	if (*upload_len) {
		size_t n = *upload_len, max = fr_websub_max_body(w->ws);

		*upload_len = 0;
		if (w->too_large || w->len + n > max) {
			w->too_large = 1;
			return MHD_YES;
		}
		if (w->len + n + 1 > w->cap) {
			size_t nc = w->cap ? w->cap : 16384;
			char *nb;

			while (nc < w->len + n + 1)
				nc *= 2;
			if (!(nb = realloc(w->body, nc))) {
				w->too_large = 1;
				return MHD_YES;
			}
			w->body = nb;
			w->cap = nc;
		}
		memcpy(w->body + w->len, upload, n);
		w->len += n;
		return MHD_YES;
	}
	if (!strcmp(method, "GET")) {
		const char *echo = NULL;
		int code = fr_websub_intent(w->ws, w->id, get(conn, "hub.mode"), get(conn, "hub.topic"),
					    get(conn, "hub.challenge"), get(conn, "hub.lease_seconds"),
					    get(conn, "hub.reason"), now, &echo, why, sizeof(why));

		if (code == 200)
			return answer(conn, 200, echo ? echo : "");
		snprintf(line, sizeof(line), "freshet run: websub: callback %.8s...: verification "
					     "refused (%d): %s\n", w->id, code, why);
		fputs(line, stderr);
		return answer(conn, (unsigned)code, "refused\n");
	}
	if (!strcmp(method, "POST")) {
		int acc = 0, code;

		if (w->too_large) {
			snprintf(line, sizeof(line), "freshet run: websub: callback %.8s...: a delivery over "
						     "%zu bytes refused (413)\n",
				 w->id, fr_websub_max_body(w->ws));
			fputs(line, stderr);
			return answer(conn, 413, "too large\n");
		}
		code = fr_websub_deliver(
		    w->ws, w->id, MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "X-Hub-Signature"),
		    MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_TYPE),
		    w->body ? w->body : "", w->len, now, &acc, why, sizeof(why));
		if (!acc) {
			snprintf(line, sizeof(line), "freshet run: websub: callback %.8s...: delivery of %zu "
						     "bytes refused (%d): %s\n",
				 w->id, w->len, code, why);
			fputs(line, stderr);
		}
		return answer(conn, (unsigned)code, acc ? "accepted\n" : "refused\n");
	}
	return answer(conn, 405, "GET (verification) or POST (delivery) only\n");
}
