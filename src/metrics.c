/* metrics.c - /metrics and /health for `run --listen` (see metrics.h). */
#include "metrics.h"
#include "websub_http.h"

#include "core/err.h"
#include "core/timefmt.h"

#include <arpa/inet.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

/* /health answers 503 when the loop has not reported for this long (it
 * reports every second while it runs). */
#define HEALTH_STALE_S 30.0

struct metrics {
	struct MHD_Daemon *d;
	uint16_t port;
	char *token;
	pthread_mutex_t mu;
	struct fr_crawl_stats st;
	double updated_s; /* wall clock of the last update, 0: none yet */
	int done;
	struct fr_websub *ws; /* --callback-base: WebSub callbacks served too (under mu) */
};

static void
metric(FILE *b, const char *name, const char *type, const char *help)
{
	fprintf(b, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

char *
metrics_text(const struct fr_crawl_stats *st, double now_s, double updated_s)
{
	double lag = st->next_due_s > 0 && st->now_s > st->next_due_s ? st->now_s - st->next_due_s
								       : 0;
	char *text = NULL;
	size_t len = 0;
	FILE *b = open_memstream(&text, &len);

	if (!b)
		return NULL;

	(void)now_s;
	metric(b, "freshet_up", "gauge", "1 while the crawl runs.");
	fprintf(b, "freshet_up 1\n");
	metric(b, "freshet_fetches_total", "counter",
	       "Fetches of sources finished, by outcome (a 304 is not_modified).");
	fprintf(b, "freshet_fetches_total{outcome=\"ok\"} %llu\n", (unsigned long long)st->ok);
	fprintf(b, "freshet_fetches_total{outcome=\"not_modified\"} %llu\n",
	    (unsigned long long)st->not_modified);
	fprintf(b, "freshet_fetches_total{outcome=\"error\"} %llu\n", (unsigned long long)st->errors);
	metric(b, "freshet_new_items_total", "counter", "Items stored for the first time.");
	fprintf(b, "freshet_new_items_total %llu\n", (unsigned long long)st->new_items);
	metric(b, "freshet_updated_items_total", "counter", "Stored items whose content changed.");
	fprintf(b, "freshet_updated_items_total %llu\n", (unsigned long long)st->updated_items);
	metric(b, "freshet_item_delay_seconds", "summary",
	       "Delay from an item's publication time to its discovery, over new items with one.");
	fprintf(b, "freshet_item_delay_seconds_sum %.3f\n", st->delay_sum_s);
	fprintf(b, "freshet_item_delay_seconds_count %llu\n", (unsigned long long)st->with_delay);
	metric(b, "freshet_robots_fetches_total", "counter", "robots.txt requests.");
	fprintf(b, "freshet_robots_fetches_total %llu\n", (unsigned long long)st->robots_fetches);
	metric(b, "freshet_robots_denied_total", "counter", "Fetches robots.txt disallowed.");
	fprintf(b, "freshet_robots_denied_total %llu\n", (unsigned long long)st->robots_denied);
	metric(b, "freshet_throttled_total", "counter", "429 and 503 answers (the host paused).");
	fprintf(b, "freshet_throttled_total %llu\n", (unsigned long long)st->throttled);
	metric(b, "freshet_wire_bytes_total", "counter", "Bytes received on the wire.");
	fprintf(b, "freshet_wire_bytes_total %llu\n", (unsigned long long)st->bytes);
	metric(b, "freshet_not_stored_total", "counter",
	       "Fetches that ended but could not be stored (the store failed).");
	fprintf(b, "freshet_not_stored_total %llu\n", (unsigned long long)st->not_stored);
	metric(b, "freshet_worker_waits_total", "counter",
	       "Several workers on one store: choices held back, by reason.");
	fprintf(b, "freshet_worker_waits_total{reason=\"lease_held\"} %llu\n",
	    (unsigned long long)st->lease_held);
	fprintf(b, "freshet_worker_waits_total{reason=\"fetched_elsewhere\"} %llu\n",
	    (unsigned long long)st->fetched_elsewhere);
	fprintf(b, "freshet_worker_waits_total{reason=\"other_share\"} %llu\n",
	    (unsigned long long)st->passed);
	fprintf(b, "freshet_worker_waits_total{reason=\"host_held\"} %llu\n",
	    (unsigned long long)st->host_held);
	metric(b, "freshet_transfers_in_flight", "gauge", "Requests under way.");
	fprintf(b, "freshet_transfers_in_flight %zu\n", st->running);
	metric(b, "freshet_sources", "gauge", "Sources this crawl schedules.");
	fprintf(b, "freshet_sources %zu\n", st->sources);
	metric(b, "freshet_hosts", "gauge", "Their hosts.");
	fprintf(b, "freshet_hosts %zu\n", st->hosts);
	metric(b, "freshet_hosts_paused", "gauge", "Hosts a 429 or 503 paused, the pause running.");
	fprintf(b, "freshet_hosts_paused %zu\n", st->hosts_paused);
	metric(b, "freshet_scheduler_lag_seconds", "gauge",
	       "How far behind its time the next due fetch is (0: on time).");
	fprintf(b, "freshet_scheduler_lag_seconds %.3f\n", lag);
	metric(b, "freshet_start_time_seconds", "gauge", "When the crawl started (Unix seconds).");
	fprintf(b, "freshet_start_time_seconds %.3f\n", st->started_s);
	metric(b, "freshet_last_progress_time_seconds", "gauge",
	       "When the crawl loop last reported (Unix seconds).");
	fprintf(b, "freshet_last_progress_time_seconds %.3f\n", updated_s);
	if (ferror(b)) {
		fclose(b);
		free(text);
		return NULL;
	}
	if (fclose(b) != 0) {
		free(text);
		return NULL;
	}
	return text;
}

static enum MHD_Result
reply(struct MHD_Connection *conn, unsigned status, const char *type, char *body, int owned)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(
	    strlen(body), body, owned ? MHD_RESPMEM_MUST_FREE : MHD_RESPMEM_PERSISTENT);
	enum MHD_Result ret;

	if (!r) {
		if (owned)
			free(body);
		return MHD_NO;
	}
	MHD_add_response_header(r, "Content-Type", type);
	MHD_add_response_header(r, "Cache-Control", "no-store");
	if (status == MHD_HTTP_UNAUTHORIZED)
		MHD_add_response_header(r, "WWW-Authenticate", "Bearer");
	ret = MHD_queue_response(conn, status, r);
	MHD_destroy_response(r);
	return ret;
}

/* Compares in time independent of where the strings differ. */
static int
same_secret(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	unsigned char d = la != lb;

	for (size_t i = 0; i < la; i++)
		d |= (unsigned char)(a[i] ^ b[i % (lb ? lb : 1)]);
	return d == 0;
}

static enum MHD_Result
on_request(void *cls, struct MHD_Connection *conn, const char *url, const char *method,
	   const char *version, const char *upload, size_t *upload_len, void **state)
{
	struct metrics *m = cls;
	struct fr_crawl_stats st;
	double updated, now = fr_time_now();
	int done;

	(void)version;
	if (!*state) { /* the headers; the body (none expected) comes next */
		struct fr_websub *ws;

		pthread_mutex_lock(&m->mu);
		ws = m->ws;
		pthread_mutex_unlock(&m->mu);
		/* A WebSub callback (websub_http.h): no token, its own rules. */
		*state = ws ? (void *)websub_http_begin(ws, url) : NULL;
		if (!*state)
			*state = m;
		return MHD_YES;
	}
	if (*state != m)
		return websub_http_step(*state, conn, method, upload, upload_len);
	if (*upload_len) { /* a body is ignored */
		*upload_len = 0;
		return MHD_YES;
	}
	if (strcmp(method, "GET") && strcmp(method, "HEAD"))
		return reply(conn, MHD_HTTP_METHOD_NOT_ALLOWED, "text/plain",
			     "only GET and HEAD\n", 0);
	if (m->token) {
		const char *a = MHD_lookup_connection_value(conn, MHD_HEADER_KIND,
							    MHD_HTTP_HEADER_AUTHORIZATION);

		if (!a || strncmp(a, "Bearer ", 7) || !same_secret(a + 7, m->token))
			return reply(conn, MHD_HTTP_UNAUTHORIZED, "text/plain",
				     "a token is needed (Authorization: Bearer TOKEN)\n", 0);
	}
	pthread_mutex_lock(&m->mu);
	st = m->st;
	updated = m->updated_s;
	done = m->done;
	pthread_mutex_unlock(&m->mu);
	if (!strcmp(url, "/metrics")) {
		char *t = metrics_text(&st, now, updated);

		if (!t)
			return reply(conn, MHD_HTTP_INTERNAL_SERVER_ERROR, "text/plain",
				     "out of memory\n", 0);
		return reply(conn, MHD_HTTP_OK, "text/plain; version=0.0.4; charset=utf-8", t, 1);
	}
	if (!strcmp(url, "/health")) {
		char body[512];
		const char *status = done                                  ? "stopped"
				     : updated <= 0                        ? "starting"
				     : now - updated > HEALTH_STALE_S      ? "stalled"
								           : "ok";
		int ok = !strcmp(status, "ok") || !strcmp(status, "starting");

		snprintf(body, sizeof(body),
			 "{\"status\":\"%s\",\"last_progress_age_s\":%.3f,\"in_flight\":%zu,"
			 "\"fetches\":%llu,\"errors\":%llu,\"hosts_paused\":%zu}\n",
			 status, updated > 0 ? now - updated : -1.0, st.running,
			 (unsigned long long)st.fetches, (unsigned long long)st.errors,
			 st.hosts_paused);
		char *copy = strdup(body);
		if (!copy)
			return MHD_NO;
		return reply(conn, ok ? MHD_HTTP_OK : MHD_HTTP_SERVICE_UNAVAILABLE,
			     "application/json", copy, 1);
	}
	return reply(conn, MHD_HTTP_NOT_FOUND, "text/plain", "not found: /metrics, /health\n", 0);
}

static void
on_completed(void *cls, struct MHD_Connection *conn, void **state,
	     enum MHD_RequestTerminationCode why)
{
	(void)conn;
	(void)why;
	if (*state && *state != cls)
		websub_http_free(*state);
	*state = NULL;
}

void
metrics_set_websub(struct metrics *m, struct fr_websub *ws)
{
	pthread_mutex_lock(&m->mu);
	m->ws = ws;
	pthread_mutex_unlock(&m->mu);
}

/* ADDR: PORT, HOST:PORT, [V6]:PORT. */
static int
parse_addr(const char *addr, struct sockaddr_storage *ss, socklen_t *len, int *loopback,
	   char *err, size_t errlen)
{
	char host[128];
	const char *port = addr, *colon;
	unsigned long p;
	char *end;

	memset(ss, 0, sizeof(*ss));
	host[0] = 0;
	if (addr[0] == '[') {
		const char *rb = strchr(addr, ']');

		if (!rb || rb[1] != ':' || (size_t)(rb - addr - 1) >= sizeof(host))
			return fr_errf(err, errlen, "--listen '%s': wants [IPV6]:PORT", addr);
		memcpy(host, addr + 1, (size_t)(rb - addr - 1));
		host[rb - addr - 1] = 0;
		port = rb + 2;
	} else if ((colon = strrchr(addr, ':'))) {
		if ((size_t)(colon - addr) >= sizeof(host) || strchr(addr, ':') != colon)
			return fr_errf(err, errlen,
				       "--listen '%s': wants PORT, HOST:PORT or [IPV6]:PORT", addr);
		memcpy(host, addr, (size_t)(colon - addr));
		host[colon - addr] = 0;
		port = colon + 1;
	}
	p = strtoul(port, &end, 10);
	if (!*port || *end || p > 65535)
		return fr_errf(err, errlen, "--listen '%s': the port must be 0 to 65535", addr);
	if (!host[0] || !strcmp(host, "localhost"))
		strcpy(host, "127.0.0.1");
	struct sockaddr_in *v4 = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)ss;
	if (inet_pton(AF_INET, host, &v4->sin_addr) == 1) {
		v4->sin_family = AF_INET;
		v4->sin_port = htons((uint16_t)p);
		*len = sizeof(*v4);
		*loopback = (ntohl(v4->sin_addr.s_addr) >> 24) == 127;
	} else if (inet_pton(AF_INET6, host, &v6->sin6_addr) == 1) {
		v6->sin6_family = AF_INET6;
		v6->sin6_port = htons((uint16_t)p);
		*len = sizeof(*v6);
		*loopback = IN6_IS_ADDR_LOOPBACK(&v6->sin6_addr);
	} else {
		return fr_errf(err, errlen, "--listen '%s': '%s' is not an IP address", addr, host);
	}
	return 0;
}

struct metrics *
metrics_start(const char *addr, const char *token, char *err, size_t errlen)
{
	struct sockaddr_storage ss;
	socklen_t sl = 0;
	int loopback = 0;
	struct metrics *m;
	const union MHD_DaemonInfo *info;

	if (parse_addr(addr, &ss, &sl, &loopback, err, errlen) < 0)
		return NULL;
	if (!loopback && (!token || !*token)) {
		fr_errf(err, errlen,
			"--listen %s: not a loopback address, so a token is needed (--listen-token, "
			"or FRESHET_LISTEN_TOKEN)",
			addr);
		return NULL;
	}
	if (!(m = calloc(1, sizeof(*m)))) {
		fr_errf(err, errlen, "out of memory");
		return NULL;
	}
	pthread_mutex_init(&m->mu, NULL);
	if (token && *token && !(m->token = strdup(token))) {
		metrics_stop(m);
		fr_errf(err, errlen, "out of memory");
		return NULL;
	}
	m->d = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL |
				    (ss.ss_family == AF_INET6 ? MHD_USE_IPv6 : 0),
				0, NULL, NULL, on_request, m, MHD_OPTION_SOCK_ADDR,
				(struct sockaddr *)&ss, MHD_OPTION_CONNECTION_LIMIT, (unsigned)64,
				MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)10,
				MHD_OPTION_NOTIFY_COMPLETED, on_completed, m, MHD_OPTION_END);
	if (!m->d) {
		fr_errf(err, errlen, "--listen %s: cannot listen there (in use, or not this "
				     "machine's address)",
			addr);
		metrics_stop(m);
		return NULL;
	}
	info = MHD_get_daemon_info(m->d, MHD_DAEMON_INFO_BIND_PORT);
	m->port = info ? info->port : 0;
	return m;
}

uint16_t
metrics_port(const struct metrics *m)
{
	return m->port;
}

void
metrics_update(struct metrics *m, const struct fr_crawl_stats *st, int done)
{
	pthread_mutex_lock(&m->mu);
	m->st = *st;
	m->updated_s = fr_time_now();
	m->done = done;
	pthread_mutex_unlock(&m->mu);
}

void
metrics_stop(struct metrics *m)
{
	if (!m)
		return;
	if (m->d)
		MHD_stop_daemon(m->d);
	pthread_mutex_destroy(&m->mu);
	free(m->token);
	free(m);
}
