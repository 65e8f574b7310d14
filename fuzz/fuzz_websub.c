/* fuzz_websub.c - libFuzzer harness for what a WebSub hub or publisher
 * sends (lib/websub): the bytes as an HTTP Link field value and a header
 * block (hub and self found are http(s) URLs), as an X-Hub-Signature
 * value, as saved subscriber state (what loads saves, loads back and
 * saves to the same bytes), and split at newlines into a callback request
 * (path, hub.mode, hub.topic, hub.challenge, hub.lease_seconds, signature,
 * body) answered by a subscriber holding one pending subscription with a
 * known secret: a 200 echoes exactly the challenge given, a delivery is
 * queued only when its signature checks. Without FR_LIBFUZZER, replay.c's
 * main replays the seeds. */
#include "websub/link.h"
#include "websub/sig.h"
#include "websub/sub.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define REQUIRE(c)                                                                                 \
	do {                                                                                       \
		if (!(c)) {                                                                        \
			fprintf(stderr, "fuzz_websub: broken promise: %s (%s:%d)\n", #c, __FILE__, \
			        __LINE__);                                                         \
			abort();                                                                   \
		}                                                                                  \
	} while (0)

#define NOW 1790000000.0
#define SECRET "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"
#define CB "0123456789abcdef0123456789abcdef"

static int
each(void *arg, const char *uri, size_t ul, const char *rels, size_t rl)
{
	const char *buf = arg;

	(void)buf;
	REQUIRE(uri && rels);
	REQUIRE(ul <= FR_WEBSUB_LINK_MAX && rl <= FR_WEBSUB_LINK_MAX);
	(void)fr_websub_rel_has(rels, rl, "hub");
	return 0;
}

static void
state_roundtrip(const char *s, size_t n)
{
	struct fr_websub_opts o = {.callback_base = "http://127.0.0.1:1/cb"};
	struct fr_websub *a, *b;
	char err[256];
	char *t1, *t2;
	size_t l1, l2;

	REQUIRE(fr_websub_new(&a, &o, err, sizeof(err)) == 0);
	REQUIRE(fr_websub_new(&b, &o, err, sizeof(err)) == 0);
	REQUIRE(fr_websub_load(a, s, n, err, sizeof(err)) >= 0);
	t1 = fr_websub_save(a, &l1);
	REQUIRE(t1);
	REQUIRE(fr_websub_load(b, t1, l1, err, sizeof(err)) == 0);
	t2 = fr_websub_save(b, &l2);
	REQUIRE(t2 && l1 == l2 && !memcmp(t1, t2, l1));
	/* Whatever loaded asks only http(s) hubs. */
	struct fr_websub_request rq;
	while (fr_websub_next_request(a, NOW, &rq) == 1) {
		REQUIRE(fr_websub_url_ok(rq.hub));
		fr_websub_request_done(a, rq.source_id, rq.subscribe, 500, NULL, NOW);
		fr_websub_request_clear(&rq);
	}
	free(t1);
	free(t2);
	fr_websub_free(a);
	fr_websub_free(b);
}

static void
request(const char *s, size_t n)
{
	struct fr_websub_opts o = {.callback_base = "http://127.0.0.1:1/cb", .max_body = 4096};
	struct fr_websub *ws;
	const char *f[7] = {0};
	char *copy = malloc(n + 1), *p, err[256], why[256], id[33];
	const char *state = "v1\t5\t1\t1\t" "1789999990.000\t0.000\t0.000\t0\t0.000\t0.000\t" CB "\t" SECRET
			    "\thttp://127.0.0.1:2/hub\thttp://127.0.0.1:3/feed\n";
	const char *echo;
	int k = 0, acc, code;

	REQUIRE(copy);
	memcpy(copy, s, n);
	copy[n] = '\0';
	for (p = copy; k < 6 && p; k++) {
		f[k] = p;
		if ((p = strchr(p, '\n')))
			*p++ = '\0';
	}
	f[6] = p ? p : "";
	REQUIRE(fr_websub_new(&ws, &o, err, sizeof(err)) == 0);
	REQUIRE(fr_websub_load(ws, state, strlen(state), err, sizeof(err)) == 0);
	if (fr_websub_callback_id(ws, f[0], id) == 0) {
		REQUIRE(strlen(id) == 32);
	} else {
		snprintf(id, sizeof(id), "%s", CB);
	}
	code = fr_websub_intent(ws, id, f[1], f[2], f[3], f[4], f[5], NOW, &echo, why, sizeof(why));
	REQUIRE(code == 200 || code == 400 || code == 404);
	if (code == 200 && f[1] && strcmp(f[1], "denied"))
		REQUIRE(echo && f[3] && !strcmp(echo, f[3]));
	size_t bl = strlen(f[6]);
	code = fr_websub_deliver(ws, id, f[5], f[4], f[6], bl, NOW, &acc, why, sizeof(why));
	REQUIRE(!acc || fr_websub_sig_check(f[5], SECRET, f[6], bl) == FR_WEBSUB_SIG_OK);
	REQUIRE(acc || why[0]);
	REQUIRE(code >= 200 && code < 600);
	struct fr_websub_push pu;
	while (fr_websub_take(ws, &pu) == 1) {
		REQUIRE(pu.source_id == 5 && pu.len == bl);
		fr_websub_push_clear(&pu);
	}
	fr_websub_free(ws);
	free(copy);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;
	char *hub, *self, *z;

	if (size > 65536)
		return 0;
	(void)fr_websub_link_parse(s, size, each, NULL);
	if (fr_websub_links_from_headers(s, size, "http://127.0.0.1/f", &hub, &self) == 0) {
		REQUIRE(!hub || fr_websub_url_ok(hub));
		REQUIRE(!self || fr_websub_url_ok(self));
		free(hub);
		free(self);
	}
	if ((z = malloc(size + 1)) != NULL) {
		memcpy(z, s, size);
		z[size] = '\0';
		enum fr_websub_sig v = fr_websub_sig_check(z, SECRET, s, size);
		REQUIRE(v <= FR_WEBSUB_SIG_MISMATCH);
		free(z);
	}
	state_roundtrip(s, size);
	request(s, size);
	return 0;
}
