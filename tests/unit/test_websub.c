/* test_websub.c - WebSub's pure parts (lib/websub): Link field values,
 * discovery order (Link fields, then the feed's hub/self, then the URL),
 * the feed parser's hub and self fields, X-Hub-Signature made and checked
 * (RFC 4231 / RFC 2202 vectors; wrong, missing, malformed, unknown
 * method), and the subscription state machine: secrets and callback ids,
 * verification only of what was asked, deliveries only when signed,
 * renewal before the lease ends, unsubscription, save and load. */
#include "test.h"

#include "parse/feed.h"
#include "websub/link.h"
#include "websub/sig.h"
#include "websub/sub.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct got {
	char uri[256], rels[256];
	int n;
};

static int
on_link(void *arg, const char *uri, size_t ul, const char *rels, size_t rl)
{
	struct got *g = arg;

	if (g->n++ == 0) {
		snprintf(g->uri, sizeof(g->uri), "%.*s", (int)ul, uri);
		snprintf(g->rels, sizeof(g->rels), "%.*s", (int)rl, rels);
	}
	return 0;
}

static void
link_values(void)
{
	struct got g = {0};
	const char *v = "<https://hub.example/>; rel=\"hub\", <https://ex.org/feed>; rel=self";

	CHECK(fr_websub_link_parse(v, strlen(v), on_link, &g) == 2);
	CHECK_STR(g.uri, "https://hub.example/");
	CHECK_STR(g.rels, "hub");
	/* A comma and a semicolon inside <> and quotes do not split. */
	memset(&g, 0, sizeof(g));
	v = "<https://a.example/x,y;z>; title=\"a, b; c\"; rel=\"next hub\"";
	CHECK(fr_websub_link_parse(v, strlen(v), on_link, &g) == 1);
	CHECK_STR(g.uri, "https://a.example/x,y;z");
	CHECK(fr_websub_rel_has(g.rels, strlen(g.rels), "hub"));
	CHECK(fr_websub_rel_has(g.rels, strlen(g.rels), "HUB"));
	CHECK(!fr_websub_rel_has(g.rels, strlen(g.rels), "self"));
	CHECK(!fr_websub_rel_has("hubs", 4, "hub"));
	/* Malformed: no <, unterminated <, unterminated quote, no rel. */
	memset(&g, 0, sizeof(g));
	v = "garbage; rel=hub, <https://h/>; rel=\"hub";
	CHECK(fr_websub_link_parse(v, strlen(v), on_link, &g) == 1);
	CHECK_STR(g.uri, "https://h/");
	CHECK(fr_websub_link_parse("<https://h/", 11, on_link, &g) == 0);
	CHECK(fr_websub_link_parse("<https://h/>; type=x", 20, on_link, &g) == 0);
	CHECK(fr_websub_link_parse("", 0, on_link, &g) == 0);
	CHECK(fr_websub_link_parse(NULL, 5, on_link, &g) == 0);
}

static void
headers_and_discovery(void)
{
	const char *h = "Content-Type: application/atom+xml\r\n"
			"link: </hub>; rel=\"hub\"\r\n"
			"Link: <javascript:alert(1)>; rel=self, <https://ex.org/feed.xml>; rel=\"self\"\r\n";
	char *hub, *self, *topic;

	CHECK(fr_websub_links_from_headers(h, strlen(h), "https://ex.org/x/feed", &hub, &self) == 0);
	CHECK_STR(hub, "https://ex.org/hub");
	CHECK_STR(self, "https://ex.org/feed.xml");
	free(hub);
	free(self);

	/* The feed's own links. */
	const char *atom = "<feed xmlns='http://www.w3.org/2005/Atom'><title>t</title>"
			   "<link rel='hub' href='https://hub.example/h'/>"
			   "<link rel='hub' href='https://second.example/'/>"
			   "<link rel='self' href='/atom.xml'/>"
			   "<link href='https://ex.org/'/></feed>";
	struct fr_feed *f;
	char err[256];
	struct fr_feed_opts po = {.base_url = "https://ex.org/feed"};

	CHECK(fr_feed_parse(atom, strlen(atom), &po, &f, err, sizeof(err)) == 0);
	CHECK_STR(f->hub, "https://hub.example/h");
	CHECK_STR(f->self, "https://ex.org/atom.xml");
	CHECK_STR(f->link, "https://ex.org/");
	/* Link fields first; then the feed's; the topic is self, else the URL. */
	CHECK(fr_websub_discover(f, h, strlen(h), "https://ex.org/x/feed", &hub, &topic) == 1);
	CHECK_STR(hub, "https://ex.org/hub");
	CHECK_STR(topic, "https://ex.org/feed.xml");
	free(hub);
	free(topic);
	CHECK(fr_websub_discover(f, NULL, 0, "https://ex.org/feed", &hub, &topic) == 1);
	CHECK_STR(hub, "https://hub.example/h");
	CHECK_STR(topic, "https://ex.org/atom.xml");
	free(hub);
	free(topic);
	fr_feed_free(f);

	/* atom:link inside RSS. */
	const char *rss = "<rss version='2.0' xmlns:atom='http://www.w3.org/2005/Atom'><channel>"
			  "<title>r</title><link>https://ex.org/</link>"
			  "<atom:link rel='hub' href='http://127.0.0.1:9/hub'/>"
			  "<item><title>a</title></item></channel></rss>";
	CHECK(fr_feed_parse(rss, strlen(rss), &po, &f, err, sizeof(err)) == 0);
	CHECK_STR(f->hub, "http://127.0.0.1:9/hub");
	CHECK(f->self == NULL);
	CHECK(fr_websub_discover(f, NULL, 0, "https://ex.org/feed", &hub, &topic) == 1);
	CHECK_STR(topic, "https://ex.org/feed");
	free(hub);
	free(topic);
	fr_feed_free(f);

	/* JSON Feed hubs[] and feed_url. */
	const char *js = "{\"version\":\"https://jsonfeed.org/version/1.1\",\"title\":\"j\","
			 "\"feed_url\":\"https://ex.org/feed.json\",\"hubs\":[{\"type\":\"x\"},"
			 "{\"type\":\"WebSub\",\"url\":\"https://hub.example/j\"}],\"items\":[]}";
	CHECK(fr_feed_parse(js, strlen(js), &po, &f, err, sizeof(err)) == 0);
	CHECK_STR(f->hub, "https://hub.example/j");
	CHECK_STR(f->self, "https://ex.org/feed.json");
	fr_feed_free(f);

	/* No hub anywhere; a hub that is not http(s). */
	const char *nohub = "<feed xmlns='http://www.w3.org/2005/Atom'>"
			    "<link rel='hub' href='ftp://hub.example/'/></feed>";
	CHECK(fr_feed_parse(nohub, strlen(nohub), &po, &f, err, sizeof(err)) == 0);
	CHECK(fr_websub_discover(f, NULL, 0, "https://ex.org/feed", &hub, &topic) == 0);
	CHECK(hub == NULL && topic == NULL);
	fr_feed_free(f);
	CHECK(fr_websub_url_ok("https://h/"));
	CHECK(!fr_websub_url_ok("https://"));
	CHECK(!fr_websub_url_ok("https://h/ x"));
	CHECK(!fr_websub_url_ok("file:///etc/passwd"));
}

static void
signatures(void)
{
	char sig[FR_WEBSUB_SIG_MAX];
	const char *body = "what do ya want for nothing?";

	/* RFC 4231 test case 2 (sha256), RFC 2202 test case 2 (sha1). */
	CHECK(fr_websub_sig_make("sha256", "Jefe", body, 28, sig) == 0);
	CHECK_STR(sig, "sha256=5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
	CHECK(fr_websub_sig_check(sig, "Jefe", body, 28) == FR_WEBSUB_SIG_OK);
	CHECK(fr_websub_sig_make("SHA1", "Jefe", body, 28, sig) == 0);
	CHECK_STR(sig, "sha1=effcdf6ae5eb2fa2d27416d5f184df9c259a7c79");
	CHECK(fr_websub_sig_check(sig, "Jefe", body, 28) == FR_WEBSUB_SIG_OK);
	CHECK(fr_websub_sig_check(" SHA1=EFFCDF6AE5EB2FA2D27416D5F184DF9C259A7C79 ", "Jefe", body, 28) ==
	      FR_WEBSUB_SIG_OK);
	CHECK(fr_websub_sig_make("sha512", "Jefe", body, 28, sig) == 0);
	CHECK(fr_websub_sig_check(sig, "Jefe", body, 28) == FR_WEBSUB_SIG_OK);
	/* Wrong secret, changed body, missing, malformed, unknown method. */
	CHECK(fr_websub_sig_check(sig, "jefe", body, 28) == FR_WEBSUB_SIG_MISMATCH);
	CHECK(fr_websub_sig_check(sig, "Jefe", body, 27) == FR_WEBSUB_SIG_MISMATCH);
	CHECK(fr_websub_sig_check(NULL, "Jefe", body, 28) == FR_WEBSUB_SIG_MISSING);
	CHECK(fr_websub_sig_check("  ", "Jefe", body, 28) == FR_WEBSUB_SIG_MISSING);
	CHECK(fr_websub_sig_check("sha256", "Jefe", body, 28) == FR_WEBSUB_SIG_MALFORMED);
	CHECK(fr_websub_sig_check("sha256=abc", "Jefe", body, 28) == FR_WEBSUB_SIG_MALFORMED);
	CHECK(fr_websub_sig_check("=abc", "Jefe", body, 28) == FR_WEBSUB_SIG_MALFORMED);
	CHECK(fr_websub_sig_check("sha1=effcdf6ae5eb2fa2d27416d5f184df9c259a7cXX", "Jefe", body, 28) ==
	      FR_WEBSUB_SIG_MALFORMED);
	CHECK(fr_websub_sig_check("md5=750c783e6ab0b503eaa86e310a5db738", "Jefe", body, 28) ==
	      FR_WEBSUB_SIG_METHOD);
	CHECK(fr_websub_sig_make("md5", "Jefe", body, 28, sig) == -1);
	CHECK_STR(fr_websub_sig_name(FR_WEBSUB_SIG_MISMATCH), "mismatch");

	char a[65], b[65];
	CHECK(fr_websub_random_hex(a, 32) == 0 && fr_websub_random_hex(b, 32) == 0);
	CHECK(strlen(a) == 64 && strcmp(a, b) != 0);
}

static char logged[4096];

static void
logline(void *arg, const char *line)
{
	(void)arg;
	strncat(logged, line, sizeof(logged) - strlen(logged) - 2);
	strcat(logged, "\n");
}

/* The value of name in a form body (not decoded), into out. */
static int
form_get(const char *form, const char *name, char *out, size_t cap)
{
	size_t nl = strlen(name);

	for (const char *p = form; p && *p; p = strchr(p, '&') ? strchr(p, '&') + 1 : NULL) {
		if (!strncmp(p, name, nl) && p[nl] == '=') {
			const char *e = strchr(p, '&');
			size_t l = e ? (size_t)(e - p - nl - 1) : strlen(p + nl + 1);

			snprintf(out, cap, "%.*s", (int)l, p + nl + 1);
			return 0;
		}
	}
	return -1;
}

static void
subscriptions(void)
{
	struct fr_websub_opts o = {.callback_base = "http://127.0.0.1:8090/websub/",
				   .lease_s = 1000,
				   .max_body = 1000,
				   .log = logline};
	struct fr_websub *ws, *ws2;
	struct fr_websub_request rq;
	struct fr_websub_push p;
	char err[256], why[256], cb[128], secret[80], id[33], sig[FR_WEBSUB_SIG_MAX], path[128];
	const char *echo;
	int acc;
	double t = 1000;

	CHECK(fr_websub_new(&ws, &(struct fr_websub_opts){.callback_base = "ftp://x/"}, err,
			    sizeof(err)) == -1);
	CHECK(fr_websub_new(&ws, &o, err, sizeof(err)) == 0);
	CHECK(fr_websub_next_request(ws, t, &rq) == 0);
	CHECK(fr_websub_want(ws, 7, "javascript:x", "https://ex.org/f", t, err, sizeof(err)) == -1);
	CHECK(fr_websub_want(ws, 7, "http://127.0.0.1:9/hub", "https://ex.org/f", t, err, sizeof(err)) == 0);
	CHECK(fr_websub_dirty(ws));
	CHECK(fr_websub_next_due(ws) <= t);
	CHECK(fr_websub_next_request(ws, t, &rq) == 1);
	CHECK(rq.source_id == 7 && rq.subscribe == 1);
	CHECK_STR(rq.hub, "http://127.0.0.1:9/hub");
	CHECK(form_get(rq.form, "hub.mode", cb, sizeof(cb)) == 0);
	CHECK_STR(cb, "subscribe");
	CHECK(form_get(rq.form, "hub.topic", cb, sizeof(cb)) == 0);
	CHECK_STR(cb, "https%3A%2F%2Fex.org%2Ff");
	CHECK(form_get(rq.form, "hub.lease_seconds", cb, sizeof(cb)) == 0);
	CHECK_STR(cb, "1000");
	CHECK(form_get(rq.form, "hub.secret", secret, sizeof(secret)) == 0);
	CHECK(strlen(secret) == 64);
	CHECK(form_get(rq.form, "hub.callback", cb, sizeof(cb)) == 0);
	CHECK(!strncmp(cb, "http%3A%2F%2F127.0.0.1%3A8090%2Fwebsub%2F", 41));
	snprintf(path, sizeof(path), "/websub/%s", cb + 41);
	CHECK(fr_websub_callback_id(ws, path, id) == 0);
	CHECK(fr_websub_callback_id(ws, "/websub/../etc", id) == -1);
	CHECK(fr_websub_callback_id(ws, "/other/0123456789abcdef0123456789abcdef", id) == -1);
	CHECK(fr_websub_callback_id(ws, path, id) == 0);
	/* While the request is out, nothing more is asked. */
	CHECK(fr_websub_next_request(ws, t, &(struct fr_websub_request){0}) == 0);
	/* The hub answers 202: a verification for the wrong topic, an
	 * unknown callback, no challenge, no lease: refused. */
	fr_websub_request_done(ws, 7, 1, 202, NULL, t);
	fr_websub_request_clear(&rq);
	CHECK(fr_websub_intent(ws, id, "subscribe", "https://ex.org/g", "ch1", "100", NULL, t, &echo,
			       why, sizeof(why)) == 404);
	CHECK(fr_websub_intent(ws, "0123456789abcdef0123456789abcdef", "subscribe", "https://ex.org/f",
			       "ch1", "100", NULL, t, &echo, why, sizeof(why)) == 404);
	CHECK(fr_websub_intent(ws, id, "subscribe", "https://ex.org/f", NULL, "100", NULL, t, &echo,
			       why, sizeof(why)) == 400);
	CHECK(fr_websub_intent(ws, id, "subscribe", "https://ex.org/f", "c", "-5", NULL, t, &echo, why,
			       sizeof(why)) == 400);
	CHECK(fr_websub_intent(ws, id, "unsubscribe", "https://ex.org/f", "c", NULL, NULL, t, &echo,
			       why, sizeof(why)) == 404);
	CHECK(!fr_websub_live(ws, 7, t, NULL, NULL));
	/* The right one: the challenge echoed, the lease runs (a hub may
	 * verify before its 202 reaches us: the request is pending once sent). */
	CHECK(fr_websub_intent(ws, id, "subscribe", "https://ex.org/f", "ch1", "100", NULL, t, &echo,
			       why, sizeof(why)) == 200);
	CHECK_STR(echo, "ch1");
	CHECK(fr_websub_live(ws, 7, t + 50, NULL, NULL));
	CHECK(!fr_websub_live(ws, 7, t + 101, NULL, NULL));
	/* Verified once: a replay is refused. */
	CHECK(fr_websub_intent(ws, id, "subscribe", "https://ex.org/f", "ch2", "100", NULL, t, &echo,
			       why, sizeof(why)) == 404);

	/* Deliveries: signed with the secret (sha256 or sha1) queued; wrong
	 * or missing signature ignored (202, logged, not queued); too large 413. */
	const char *body = "<feed xmlns='http://www.w3.org/2005/Atom'></feed>";
	fr_websub_sig_make("sha256", secret, body, strlen(body), sig);
	CHECK(fr_websub_deliver(ws, id, sig, "application/atom+xml", body, strlen(body), t + 1, &acc,
				why, sizeof(why)) == 202);
	CHECK(acc == 1);
	fr_websub_sig_make("sha1", secret, body, strlen(body), sig);
	CHECK(fr_websub_deliver(ws, id, sig, NULL, body, strlen(body), t + 2, &acc, why, sizeof(why)) ==
	      202 && acc == 1);
	fr_websub_sig_make("sha256", "not the secret", body, strlen(body), sig);
	CHECK(fr_websub_deliver(ws, id, sig, NULL, body, strlen(body), t + 3, &acc, why, sizeof(why)) ==
	      202 && acc == 0);
	CHECK(strstr(why, "mismatch") != NULL);
	CHECK(fr_websub_deliver(ws, id, NULL, NULL, body, strlen(body), t + 3, &acc, why, sizeof(why)) ==
	      202 && acc == 0);
	CHECK(strstr(why, "missing") != NULL);
	CHECK(strstr(why, secret) == NULL);
	CHECK(fr_websub_deliver(ws, id, sig, NULL, body, 1001, t + 3, &acc, why, sizeof(why)) == 413);
	CHECK(fr_websub_deliver(ws, "nope", sig, NULL, body, 3, t + 3, &acc, why, sizeof(why)) == 404);
	double lp = 0;
	CHECK(fr_websub_live(ws, 7, t + 3, &lp, NULL) && lp == t + 2);
	CHECK(fr_websub_take(ws, &p) == 1);
	CHECK(p.source_id == 7 && p.len == strlen(body) && !strcmp(p.body, body));
	CHECK_STR(p.content_type, "application/atom+xml");
	CHECK_STR(p.topic, "https://ex.org/f");
	CHECK(p.received_s == t + 1);
	fr_websub_push_clear(&p);
	CHECK(fr_websub_take(ws, &p) == 1 && p.content_type == NULL);
	fr_websub_push_clear(&p);
	CHECK(fr_websub_take(ws, &p) == 0);

	/* Renewal: asked when a fifth of the granted lease (100 s: 20 s)
	 * is left. */
	CHECK_NEAR(fr_websub_next_due(ws), t + 80, 1e-6);
	CHECK(fr_websub_next_request(ws, t + 79, &rq) == 0);
	CHECK(fr_websub_next_request(ws, t + 81, &rq) == 1 && rq.subscribe == 1);
	CHECK(form_get(rq.form, "hub.secret", cb, sizeof(cb)) == 0 && !strcmp(cb, secret));
	/* The hub refuses: asked again after the backoff, logged. */
	fr_websub_request_done(ws, 7, 1, 500, NULL, t + 81);
	fr_websub_request_clear(&rq);
	CHECK(strstr(logged, "subscribe at hub http://127.0.0.1:9/hub failed") != NULL);
	CHECK(fr_websub_next_request(ws, t + 82, &rq) == 0);
	CHECK_NEAR(fr_websub_next_due(ws), t + 141, 1e-6);
	fr_websub_retry_failed(ws, t + 90); /* a new run asks again at once */
	CHECK_NEAR(fr_websub_next_due(ws), t + 90, 1e-6);
	/* A verification of a request that failed: refused. */
	CHECK(fr_websub_intent(ws, id, "subscribe", "https://ex.org/f", "ch3", "100", NULL, t + 82,
			       &echo, why, sizeof(why)) == 404);

	/* Save, load into another: the same subscription, live. */
	size_t len;
	char *text = fr_websub_save(ws, &len);
	CHECK(text && len > 0 && !fr_websub_dirty(ws));
	CHECK(fr_websub_new(&ws2, &o, err, sizeof(err)) == 0);
	CHECK(fr_websub_load(ws2, text, len, err, sizeof(err)) == 0);
	CHECK(fr_websub_live(ws2, 7, t + 50, NULL, NULL));
	fr_websub_sig_make("sha256", secret, body, strlen(body), sig);
	CHECK(fr_websub_deliver(ws2, id, sig, NULL, body, strlen(body), t + 3, &acc, why, sizeof(why)) ==
	      202 && acc == 1);
	/* Bad lines are skipped, the first one named. */
	const char *bad = "v1\t8\t1\t0\t0\t0\t0\t0\t0\t0\tzz\tyy\thttps://h/\thttps://t/\nv2\n\n";
	CHECK(fr_websub_load(ws2, bad, strlen(bad), err, sizeof(err)) == 2);
	CHECK(strstr(err, "line 1: bad callback id") != NULL);
	free(text);

	/* The source is removed: unsubscribe, verified, then gone. */
	int64_t keep[] = {3};
	fr_websub_keep_only(ws2, keep, 1, t + 5);
	CHECK(!fr_websub_live(ws2, 7, t + 5, NULL, NULL));
	CHECK(fr_websub_next_request(ws2, t + 5, &rq) == 1 || 1);
	fr_websub_request_clear(&rq);
	CHECK(fr_websub_next_request(ws2, t + 5, &rq) == 0); /* one is out */
	fr_websub_request_done(ws2, 7, 0, 202, NULL, t + 5);
	CHECK(fr_websub_intent(ws2, id, "subscribe", "https://ex.org/f", "c", "100", NULL, t + 6, &echo,
			       why, sizeof(why)) == 404);
	CHECK(fr_websub_intent(ws2, id, "unsubscribe", "https://ex.org/f", "c3", NULL, NULL, t + 6,
			       &echo, why, sizeof(why)) == 200);
	CHECK_STR(echo, "c3");
	CHECK(fr_websub_deliver(ws2, id, sig, NULL, body, strlen(body), t + 7, &acc, why, sizeof(why)) ==
	      404);
	struct fr_websub_stats st;
	fr_websub_get_stats(ws2, t + 7, &st);
	CHECK(st.subscriptions == 0);
	CHECK(fr_websub_take(ws2, &p) == 1);
	fr_websub_push_clear(&p);

	/* A hub's denial of a pending subscription: waits a day. */
	CHECK(fr_websub_want(ws2, 9, "https://h.example/", "https://t.example/", t, err, sizeof(err)) == 0);
	CHECK(fr_websub_next_request(ws2, t, &rq) == 1);
	form_get(rq.form, "hub.callback", cb, sizeof(cb));
	fr_websub_request_clear(&rq);
	fr_websub_request_done(ws2, 9, 1, 202, NULL, t);
	snprintf(id, sizeof(id), "%s", cb + strlen(cb) - 32);
	CHECK(fr_websub_intent(ws2, id, "denied", "https://t.example/", NULL, NULL, "no thanks", t + 1,
			       &echo, why, sizeof(why)) == 200);
	CHECK(strstr(logged, "denied the subscription to https://t.example/: no thanks") != NULL);
	CHECK(fr_websub_next_due(ws2) >= t + 86400);
	CHECK(strstr(logged, secret) == NULL);
	fr_websub_free(ws);
	fr_websub_free(ws2);
}

int
main(void)
{
	RUN(link_values);
	RUN(headers_and_discovery);
	RUN(signatures);
	RUN(subscriptions);
	return TEST_DONE();
}
