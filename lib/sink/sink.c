/* sink.c - the sinks of sink.h: one thread per sink reads batches after its
 * cursor from the store, hands them to a child process or an HTTP POST, and
 * moves the cursor in the store once a batch is delivered. */
#define _GNU_SOURCE
#include "sink/sink.h"

#include "core/err.h"
#include "core/timefmt.h"
#include "core/utf8.h"
#include "store/store.h"

#include <curl/curl.h>
#include <json-c/json.h>
#include <nettle/hmac.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

struct fr_sink {
	struct fr_sink_config cfg; /* strings below are owned copies */
	char *target, *name, *secret, *key;
	struct fr_store *st;
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int stopping;         /* fr_sink_stop was called */
	double drain_until;   /* monotonic: when stopping, deliver until then */
	struct fr_sink_stats stats;
	CURL *curl;           /* webhook: kept for connection reuse */
	struct curl_slist *headers;
};

/* A batch: items encoded one JSON object each. */
struct batch {
	char **lines;
	size_t n, cap;
	int64_t first, last;
	int oom;
};

static double
mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void
say(struct fr_sink *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
say(struct fr_sink *s, const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	if (!s->cfg.log)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	s->cfg.log(s->cfg.log_arg, line);
}

/* Stop now: asked to stop and the drain time is over. */
static int
must_end(struct fr_sink *s)
{
	int r;

	pthread_mutex_lock(&s->mu);
	r = s->stopping && mono_s() >= s->drain_until;
	pthread_mutex_unlock(&s->mu);
	return r;
}

static int
is_stopping(struct fr_sink *s)
{
	int r;

	pthread_mutex_lock(&s->mu);
	r = s->stopping;
	pthread_mutex_unlock(&s->mu);
	return r;
}

/* Waits t seconds, or less when fr_sink_stop is called. */
static void
nap(struct fr_sink *s, double t)
{
	struct timespec ts;
	double until;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	until = (double)ts.tv_sec + ts.tv_nsec / 1e9 + t;
	ts.tv_sec = (time_t)until;
	ts.tv_nsec = (long)((until - (double)ts.tv_sec) * 1e9);
	pthread_mutex_lock(&s->mu);
	while (!s->stopping) {
		if (pthread_cond_timedwait(&s->cv, &s->mu, &ts) == ETIMEDOUT)
			break;
	}
	pthread_mutex_unlock(&s->mu);
}

/* ---- the items as JSON ---- */

static void
put_str(json_object *o, const char *key, const char *v)
{
	char *fixed = NULL;

	if (!v)
		return;
	if (fr_utf8_fix(v, &fixed) < 0)
		return;
	json_object_object_add(o, key, json_object_new_string(fixed ? fixed : v));
	free(fixed);
}

static void
put_time(json_object *o, const char *key, double t)
{
	char buf[40];

	put_str(o, key, fr_time_format(t, buf, sizeof(buf)));
}

/* The fields of `freshet items --format jsonl` (feedparser's names, seq
 * last). Returns a malloc'd string, NULL out of memory. */
static char *
item_json(const struct fr_store_item_row *r)
{
	const struct fr_store_item *it = &r->it;
	json_object *o = json_object_new_object();
	char *out;

	if (!o)
		return NULL;
	put_str(o, "id", it->id);
	put_str(o, "source", r->source_url);
	json_object_object_add(o, "source_id", json_object_new_int64(r->source_id));
	put_str(o, "link", it->url);
	put_str(o, "title", it->title);
	put_str(o, "author", it->author);
	if (it->published_s != INT64_MIN)
		put_time(o, "published", (double)it->published_s);
	if (it->updated_s != INT64_MIN)
		put_time(o, "updated", (double)it->updated_s);
	put_time(o, "first_seen", r->first_seen_s);
	put_str(o, "summary", it->summary);
	put_str(o, "content", it->content);
	put_str(o, "language", it->lang);
	put_str(o, "language_detected", it->lang_detected);
	if (it->enclosure_url) {
		json_object *e = json_object_new_object();

		put_str(e, "href", it->enclosure_url);
		put_str(e, "type", it->enclosure_type);
		if (it->enclosure_length >= 0)
			json_object_object_add(e, "length",
			                       json_object_new_int64(it->enclosure_length));
		json_object_object_add(o, "enclosure", e);
	}
	json_object_object_add(o, "seq", json_object_new_int64(r->seq));
	out = strdup(json_object_to_json_string_ext(
	    o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(o);
	return out;
}

static int
collect(void *arg, const struct fr_store_item_row *r)
{
	struct batch *b = arg;
	char *line;

	if (b->n == b->cap) {
		size_t cap = b->cap ? 2 * b->cap : 64;
		char **l = realloc(b->lines, cap * sizeof(*l));

		if (!l) {
			b->oom = 1;
			return 1;
		}
		b->lines = l;
		b->cap = cap;
	}
	line = item_json(r);
	if (!line) {
		b->oom = 1;
		return 1;
	}
	if (b->n == 0)
		b->first = r->seq;
	b->last = r->seq;
	b->lines[b->n++] = line;
	return 0;
}

static void
batch_clear(struct batch *b)
{
	for (size_t i = 0; i < b->n; i++)
		free(b->lines[i]);
	free(b->lines);
	memset(b, 0, sizeof(*b));
}

/* The body: JSON Lines (exec), or {"sink", "first_seq", "last_seq",
 * "items": [...]} (webhook). Returns a malloc'd string and *len, or NULL. */
static char *
batch_body(const struct fr_sink *s, const struct batch *b, size_t *len)
{
	size_t n = 0, at = 0;
	json_object *name = json_object_new_string(s->name);
	const char *qname = json_object_to_json_string_ext(name, JSON_C_TO_STRING_PLAIN);
	char head[160 + 64];
	char *out;

	for (size_t i = 0; i < b->n; i++)
		n += strlen(b->lines[i]) + 1;
	n += strlen(qname) + sizeof(head) + 8;
	out = malloc(n);
	if (!out) {
		json_object_put(name);
		return NULL;
	}
	if (s->cfg.kind == FR_SINK_WEBHOOK) {
		at = (size_t)snprintf(out, n, "{\"sink\":%s,\"first_seq\":%lld,\"last_seq\":%lld,"
		                              "\"items\":[",
		                      qname, (long long)b->first, (long long)b->last);
	}
	json_object_put(name);
	for (size_t i = 0; i < b->n; i++) {
		size_t l = strlen(b->lines[i]);

		if (s->cfg.kind == FR_SINK_WEBHOOK && i > 0)
			out[at++] = ',';
		memcpy(out + at, b->lines[i], l);
		at += l;
		if (s->cfg.kind == FR_SINK_EXEC)
			out[at++] = '\n';
	}
	if (s->cfg.kind == FR_SINK_WEBHOOK) {
		memcpy(out + at, "]}", 2);
		at += 2;
	}
	out[at] = '\0';
	*len = at;
	return out;
}

/* ---- exec ---- */

/* Runs the command with body on its standard input. 0 when it exits 0,
 * else -1 with why. The child gets FRESHET_SINK, FRESHET_FIRST_SEQ and
 * FRESHET_LAST_SEQ in its environment. */
static int
deliver_exec(struct fr_sink *s, const struct batch *b, const char *body, size_t len, char *why,
             size_t wlen)
{
	char e_name[512], e_first[64], e_last[64];
	char *argv[] = {"sh", "-c", s->target, NULL};
	char **envp;
	size_t n_env = 0, off = 0;
	int pfd[2], status = 0, done = 0;
	double deadline = mono_s() + s->cfg.timeout_s;
	long maxfd = sysconf(_SC_OPEN_MAX);
	pid_t pid;

	if (maxfd < 0 || maxfd > 65536)
		maxfd = 65536;
	while (environ && environ[n_env])
		n_env++;
	envp = malloc((n_env + 4) * sizeof(*envp));
	if (!envp)
		return fr_errf(why, wlen, "out of memory");
	snprintf(e_name, sizeof(e_name), "FRESHET_SINK=%s", s->name);
	snprintf(e_first, sizeof(e_first), "FRESHET_FIRST_SEQ=%lld", (long long)b->first);
	snprintf(e_last, sizeof(e_last), "FRESHET_LAST_SEQ=%lld", (long long)b->last);
	{
		size_t k = 0;

		for (size_t i = 0; i < n_env; i++)
			if (strncmp(environ[i], "FRESHET_SINK=", 13) &&
			    strncmp(environ[i], "FRESHET_FIRST_SEQ=", 18) &&
			    strncmp(environ[i], "FRESHET_LAST_SEQ=", 17))
				envp[k++] = environ[i];
		envp[k++] = e_name;
		envp[k++] = e_first;
		envp[k++] = e_last;
		envp[k] = NULL;
	}
	if (pipe2(pfd, O_CLOEXEC) < 0) {
		free(envp);
		return fr_errf(why, wlen, "pipe: %s", strerror(errno));
	}
	pid = fork();
	if (pid < 0) {
		close(pfd[0]);
		close(pfd[1]);
		free(envp);
		return fr_errf(why, wlen, "fork: %s", strerror(errno));
	}
	if (pid == 0) {
		/* Only async-signal-safe calls from here. */
		sigset_t none;
		struct sigaction dfl;

		sigemptyset(&none);
		memset(&dfl, 0, sizeof(dfl));
		dfl.sa_handler = SIG_DFL;
		sigaction(SIGPIPE, &dfl, NULL);
		sigaction(SIGINT, &dfl, NULL);
		sigaction(SIGTERM, &dfl, NULL);
		sigprocmask(SIG_SETMASK, &none, NULL);
		if (dup2(pfd[0], 0) < 0)
			_exit(126);
		for (long fd = 3; fd < maxfd; fd++)
			close((int)fd);
		execve("/bin/sh", argv, envp);
		_exit(127);
	}
	free(envp);
	close(pfd[0]);
	fcntl(pfd[1], F_SETFL, O_NONBLOCK);
	/* Write the batch while the child reads; it may end without reading
	 * all (then what it did not read is its business: its exit status
	 * says whether the batch was taken). */
	while (off < len) {
		struct pollfd p = {pfd[1], POLLOUT, 0};
		ssize_t w;

		if (mono_s() >= deadline || must_end(s))
			break;
		if (waitpid(pid, &status, WNOHANG) == pid) {
			done = 1;
			break;
		}
		if (poll(&p, 1, 100) <= 0)
			continue;
		w = write(pfd[1], body + off, len - off);
		if (w < 0) {
			if (errno == EAGAIN || errno == EINTR)
				continue;
			break; /* EPIPE: the child closed its input */
		}
		off += (size_t)w;
	}
	close(pfd[1]);
	while (!done) {
		pid_t r = waitpid(pid, &status, WNOHANG);

		if (r == pid) {
			done = 1;
			break;
		}
		if (r < 0 && errno != EINTR)
			break;
		if (mono_s() >= deadline || must_end(s)) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			return fr_errf(why, wlen, "'%s' %s and was killed", s->target,
			               must_end(s) ? "was still running at the end"
			                           : "ran past the timeout");
		}
		struct timespec ts = {0, 20 * 1000 * 1000};
		nanosleep(&ts, NULL);
	}
	if (!done)
		return fr_errf(why, wlen, "'%s': waitpid: %s", s->target, strerror(errno));
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	if (WIFEXITED(status))
		return fr_errf(why, wlen, "'%s' exited %d", s->target, WEXITSTATUS(status));
	return fr_errf(why, wlen, "'%s' was killed by signal %d", s->target,
	               WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

/* ---- webhook ---- */

void
fr_sink_signature(const char *key, const void *body, size_t len, char out[72])
{
	struct hmac_sha256_ctx ctx;
	uint8_t d[SHA256_DIGEST_SIZE];
	static const char hex[] = "0123456789abcdef";

	hmac_sha256_set_key(&ctx, strlen(key), (const uint8_t *)key);
	hmac_sha256_update(&ctx, len, body);
	hmac_sha256_digest(&ctx, sizeof(d), d);
	memcpy(out, "sha256=", 7);
	for (size_t i = 0; i < sizeof(d); i++) {
		out[7 + 2 * i] = hex[d[i] >> 4];
		out[7 + 2 * i + 1] = hex[d[i] & 15];
	}
	out[7 + 2 * sizeof(d)] = '\0';
}

static size_t
discard(char *p, size_t size, size_t n, void *arg)
{
	size_t *got = arg;

	(void)p;
	*got += size * n;
	return *got > (1 << 20) ? 0 : size * n; /* a reply is not read: 1 MiB at most */
}

static int
progress(void *arg, curl_off_t a, curl_off_t b, curl_off_t c, curl_off_t d)
{
	(void)a;
	(void)b;
	(void)c;
	(void)d;
	return must_end(arg); /* non-zero aborts the transfer */
}

static int
deliver_webhook(struct fr_sink *s, const struct batch *b, const char *body, size_t len,
                char *why, size_t wlen)
{
	struct curl_slist *h = NULL, *h2;
	char line[128], sig[72];
	size_t got = 0;
	long status = 0;
	CURLcode rc;

	h = curl_slist_append(h, "Content-Type: application/json");
	snprintf(line, sizeof(line), "X-Freshet-Seq: %lld-%lld", (long long)b->first,
	         (long long)b->last);
	if (h && (h2 = curl_slist_append(h, line)))
		h = h2;
	if (h && s->secret) {
		fr_sink_signature(s->secret, body, len, sig);
		snprintf(line, sizeof(line), "X-Freshet-Signature-256: %s", sig);
		if ((h2 = curl_slist_append(h, line)))
			h = h2;
	}
	if (!h)
		return fr_errf(why, wlen, "out of memory");
	curl_easy_setopt(s->curl, CURLOPT_HTTPHEADER, h);
	curl_easy_setopt(s->curl, CURLOPT_POSTFIELDS, body);
	curl_easy_setopt(s->curl, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)len);
	curl_easy_setopt(s->curl, CURLOPT_WRITEDATA, &got);
	curl_easy_setopt(s->curl, CURLOPT_XFERINFODATA, s);
	rc = curl_easy_perform(s->curl);
	curl_easy_setopt(s->curl, CURLOPT_HTTPHEADER, NULL);
	curl_slist_free_all(h);
	if (rc != CURLE_OK)
		return fr_errf(why, wlen, "POST %s: %s", s->target,
		               rc == CURLE_ABORTED_BY_CALLBACK ? "cut at the end"
		                                               : curl_easy_strerror(rc));
	curl_easy_getinfo(s->curl, CURLINFO_RESPONSE_CODE, &status);
	if (status < 200 || status > 299)
		return fr_errf(why, wlen, "POST %s: HTTP %ld", s->target, status);
	return 0;
}

static int
webhook_init(struct fr_sink *s, char *err, size_t errlen)
{
	CURLU *u = curl_url();
	char *scheme = NULL;
	int ok;

	if (!u)
		return fr_errf(err, errlen, "out of memory");
	ok = curl_url_set(u, CURLUPART_URL, s->target, 0) == CURLUE_OK &&
	     curl_url_get(u, CURLUPART_SCHEME, &scheme, 0) == CURLUE_OK &&
	     (!strcmp(scheme, "http") || !strcmp(scheme, "https"));
	curl_free(scheme);
	curl_url_cleanup(u);
	if (!ok)
		return fr_errf(err, errlen, "webhook '%s': not an absolute http(s) URL", s->target);
	s->curl = curl_easy_init();
	if (!s->curl)
		return fr_errf(err, errlen, "webhook '%s': curl_easy_init failed", s->target);
	curl_easy_setopt(s->curl, CURLOPT_URL, s->target);
	/* The configured URL only: no redirect is followed. */
	curl_easy_setopt(s->curl, CURLOPT_FOLLOWLOCATION, 0L);
	curl_easy_setopt(s->curl, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(s->curl, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(s->curl, CURLOPT_TIMEOUT_MS, (long)(s->cfg.timeout_s * 1000));
	curl_easy_setopt(s->curl, CURLOPT_CONNECTTIMEOUT_MS,
	                 (long)(s->cfg.timeout_s < 10 ? s->cfg.timeout_s * 1000 : 10000));
	curl_easy_setopt(s->curl, CURLOPT_USERAGENT, "freshet-sink/0.1");
	curl_easy_setopt(s->curl, CURLOPT_WRITEFUNCTION, discard);
	curl_easy_setopt(s->curl, CURLOPT_NOPROGRESS, 0L);
	curl_easy_setopt(s->curl, CURLOPT_XFERINFOFUNCTION, progress);
	return 0;
}

/* ---- the loop ---- */

static int
save_cursor(struct fr_sink *s, int64_t seq, char *err, size_t errlen)
{
	char v[32];
	int n = snprintf(v, sizeof(v), "%lld", (long long)seq);

	return fr_store_meta_put(s->st, s->key, v, (size_t)n, err, errlen);
}

static void *
loop(void *arg)
{
	struct fr_sink *s = arg;
	char why[FR_ERRLEN];
	unsigned fails = 0;
	sigset_t pipe_set;

	/* A command that does not read its input: EPIPE, not a signal. */
	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &pipe_set, NULL);
	for (;;) {
		struct fr_store_item_query q = {0};
		struct batch b = {0};
		char *body;
		size_t len;
		int rc;

		if (must_end(s))
			break;
		q.after_seq = s->stats.cursor;
		q.limit = s->cfg.batch_max;
		if (fr_store_items(s->st, &q, collect, &b, why, sizeof(why)) < 0 || b.oom) {
			batch_clear(&b);
			if (is_stopping(s))
				break;
			say(s, "sink %s: reading the store: %s", s->name,
			    b.oom ? "out of memory" : why);
			nap(s, s->cfg.poll_s * 4);
			continue;
		}
		if (b.n == 0) {
			batch_clear(&b);
			if (is_stopping(s))
				break; /* all delivered */
			nap(s, s->cfg.poll_s);
			continue;
		}
		body = batch_body(s, &b, &len);
		if (!body) {
			batch_clear(&b);
			nap(s, s->cfg.poll_s);
			continue;
		}
		if (s->cfg.kind == FR_SINK_EXEC)
			rc = deliver_exec(s, &b, body, len, why, sizeof(why));
		else
			rc = deliver_webhook(s, &b, body, len, why, sizeof(why));
		free(body);
		if (rc == 0) {
			char e2[FR_ERRLEN];

			pthread_mutex_lock(&s->mu);
			s->stats.cursor = b.last;
			s->stats.items += b.n;
			s->stats.batches++;
			pthread_mutex_unlock(&s->mu);
			if (fails)
				say(s, "sink %s: delivered again (seq %lld-%lld) after %u failure%s",
				    s->name, (long long)b.first, (long long)b.last, fails,
				    fails == 1 ? "" : "s");
			fails = 0;
			/* Not saved: the batch is delivered again after a restart. */
			if (save_cursor(s, b.last, e2, sizeof(e2)) < 0)
				say(s, "sink %s: keeping the cursor %lld: %s", s->name,
				    (long long)b.last, e2);
		} else {
			double wait = s->cfg.backoff_base_s;

			pthread_mutex_lock(&s->mu);
			s->stats.failures++;
			pthread_mutex_unlock(&s->mu);
			for (unsigned k = 0; k < fails && wait < s->cfg.backoff_cap_s; k++)
				wait *= 2;
			if (wait > s->cfg.backoff_cap_s)
				wait = s->cfg.backoff_cap_s;
			fails++;
			if (is_stopping(s)) {
				batch_clear(&b);
				break;
			}
			say(s, "sink %s: seq %lld-%lld (%zu item%s) not delivered: %s; again in %.3g s",
			    s->name, (long long)b.first, (long long)b.last, b.n, b.n == 1 ? "" : "s",
			    why, wait);
			nap(s, wait);
		}
		batch_clear(&b);
	}
	return NULL;
}

static void
sink_free(struct fr_sink *s)
{
	if (!s)
		return;
	if (s->curl)
		curl_easy_cleanup(s->curl);
	fr_store_close(s->st);
	free(s->target);
	free(s->name);
	free(s->secret);
	free(s->key);
	pthread_mutex_destroy(&s->mu);
	pthread_cond_destroy(&s->cv);
	free(s);
}

int
fr_sink_start(struct fr_sink **out, const char *db, const struct fr_sink_config *cfg, char *err,
              size_t errlen)
{
	struct fr_sink *s;
	pthread_condattr_t ca;
	void *buf = NULL;
	size_t len = 0;
	const char *kind = cfg->kind == FR_SINK_EXEC ? "exec" : "webhook";

	*out = NULL;
	if (!cfg->target || !*cfg->target)
		return fr_errf(err, errlen, "%s: nothing to deliver to", kind);
	s = calloc(1, sizeof(*s));
	if (!s)
		return fr_errf(err, errlen, "out of memory");
	pthread_mutex_init(&s->mu, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&s->cv, &ca);
	pthread_condattr_destroy(&ca);
	s->cfg = *cfg;
	if (!s->cfg.batch_max)
		s->cfg.batch_max = 100;
	if (!(s->cfg.backoff_base_s > 0))
		s->cfg.backoff_base_s = 1;
	if (!(s->cfg.backoff_cap_s > 0))
		s->cfg.backoff_cap_s = 300;
	if (s->cfg.backoff_cap_s < s->cfg.backoff_base_s)
		s->cfg.backoff_cap_s = s->cfg.backoff_base_s;
	if (!(s->cfg.timeout_s > 0))
		s->cfg.timeout_s = 30;
	if (!(s->cfg.poll_s > 0))
		s->cfg.poll_s = 0.5;
	s->target = strdup(cfg->target);
	if (cfg->name) {
		s->name = strdup(cfg->name);
	} else if (s->target) {
		size_t n = strlen(kind) + strlen(s->target) + 2;

		if ((s->name = malloc(n)))
			snprintf(s->name, n, "%s:%s", kind, s->target);
	}
	s->secret = cfg->secret && *cfg->secret ? strdup(cfg->secret) : NULL;
	if (s->name && (s->key = malloc(strlen(s->name) + 6)))
		snprintf(s->key, strlen(s->name) + 6, "sink:%s", s->name);
	if (!s->target || !s->name || !s->key || (cfg->secret && *cfg->secret && !s->secret)) {
		sink_free(s);
		return fr_errf(err, errlen, "out of memory");
	}
	s->cfg.target = s->target;
	s->cfg.name = s->name;
	s->cfg.secret = s->secret;
	if (cfg->kind == FR_SINK_WEBHOOK) {
		curl_global_init(CURL_GLOBAL_DEFAULT);
		if (webhook_init(s, err, errlen) < 0) {
			sink_free(s);
			return -1;
		}
	}
	if (fr_store_open(&s->st, db, err, errlen) < 0) {
		sink_free(s);
		return -1;
	}
	/* The cursor: stored, else the last item stored now, recorded. */
	if (fr_store_meta_get(s->st, s->key, &buf, &len) < 0) {
		sink_free(s);
		return fr_errf(err, errlen, "sink %s: cannot read its cursor", s->name);
	}
	if (buf) {
		char v[32], *end;
		long long c;

		snprintf(v, sizeof(v), "%.*s", (int)(len < 31 ? len : 31), (char *)buf);
		free(buf);
		errno = 0;
		c = strtoll(v, &end, 10);
		if (end == v || *end || errno || c < 0) {
			sink_free(s);
			return fr_errf(err, errlen, "sink %s: its cursor in the store (meta %s) is "
			                            "'%s', not a seq",
			                s->name, s->key, v);
		}
		s->stats.cursor = c;
	} else {
		if (fr_store_last_seq(s->st, &s->stats.cursor, err, errlen) < 0 ||
		    save_cursor(s, s->stats.cursor, err, errlen) < 0) {
			sink_free(s);
			return -1;
		}
	}
	if (pthread_create(&s->thread, NULL, loop, s) != 0) {
		sink_free(s);
		return fr_errf(err, errlen, "sink: cannot start a thread");
	}
	*out = s;
	return 0;
}

void
fr_sink_stop(struct fr_sink *s, double drain_s)
{
	if (!s)
		return;
	pthread_mutex_lock(&s->mu);
	s->stopping = 1;
	s->drain_until = mono_s() + (drain_s > 0 ? drain_s : 0);
	pthread_cond_broadcast(&s->cv);
	pthread_mutex_unlock(&s->mu);
	pthread_join(s->thread, NULL);
	sink_free(s);
}

void
fr_sink_get_stats(struct fr_sink *s, struct fr_sink_stats *out)
{
	pthread_mutex_lock(&s->mu);
	*out = s->stats;
	pthread_mutex_unlock(&s->mu);
}
