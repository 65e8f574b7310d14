/* sinfo-fsinfo3-gen.c - how sinfo-fsinfo3-forum5-seed7.bin was made (not built by
 * CMake). Build it with commit e24ab07's lib/forum/sinfo.{c,h} (state format
 * FSINFO3) in place of the current ones, against the current libfreshet:
 *   git show e24ab07:lib/forum/sinfo.c > /tmp/v3/sinfo.c
 *   git show e24ab07:lib/forum/sinfo.h > /tmp/v3/forum/sinfo.h
 *   gcc -I /tmp/v3 -I lib -o gen tests/data/forums/sinfo-fsinfo3-gen.c /tmp/v3/sinfo.c \
 *       build/libfreshet.a $(pkg-config --libs libxml-2.0 libcurl sqlite3 icu-i18n icu-uc \
 *       libpsl json-c libmicrohttpd libpq) -lz -lm -lpthread
 *   ./gen 5 tests/data/forums/sinfo-fsinfo3-forum5-seed7.bin
 */
#include "forum/fdate.h"
#include "forum/sinfo.h"
#include "testkit/clock.h"
#include "testkit/forums.h"
#include "testkit/server.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define T0 1709294400.0
static struct fr_serve_clock clk = {T0, T0 + 400 * 86400.0, 1, T0};
static void answer(struct fr_tk_forums *w, struct fr_sinfo_cycle *cy, const char *url, double t) {
	char host[128] = "", path[1024] = "/", query[1024] = "";
	const char *p = strstr(url, "://");
	struct fr_serve_req req; struct fr_serve_resp resp;
	p = p ? p + 3 : url;
	size_t hl = strcspn(p, "/:");
	snprintf(host, sizeof(host), "%.*s", (int)hl, p);
	p += hl; p += strcspn(p, "/");
	size_t pl = strcspn(p, "?#");
	snprintf(path, sizeof(path), "%.*s", (int)(pl ? pl : 1), pl ? p : "/");
	if (p[pl] == '?') snprintf(query, sizeof(query), "%.*s", (int)strcspn(p + pl + 1, "#"), p + pl + 1);
	memset(&req, 0, sizeof(req)); memset(&resp, 0, sizeof(resp)); resp.last_modified_s = -1;
	req.host_name = host; req.path = path; req.query = query; req.wall_s = t;
	if (fr_tk_forums_handle(w, &req, &resp) < 0) {
		fr_sinfo_cycle_feed(cy, 0, NULL, 0, t);
		return;
	}
	fr_sinfo_cycle_feed(cy, resp.status, resp.body, resp.len, t);
	if (resp.release) resp.release(resp.release_cls);
}
int main(int argc, char **argv) {
	struct fr_tk_forums_config cfg = {.n_forums = 14, .seed = 7, .clock = &clk};
	char err[256], url[FR_TK_FORUMS_URL_MAX];
	struct fr_tk_forums *w = fr_tk_forums_new(&cfg, err, sizeof(err));
	struct fr_fdate *fd; fr_fdate_new(&fd);
	struct fr_sinfo *f; struct fr_sinfo_cycle *cy;
	fr_tk_forums_entry_url(atoi(argv[1]), url, sizeof(url));
	fr_sinfo_new(url, &f, err, sizeof(err));
	struct fr_sinfo_opts o = {.mode = FR_SINFO_INCREMENTAL, .dates = fd};
	double t = T0; const char *u;
	fr_sinfo_cycle_begin(f, &o, t, &cy, err, sizeof(err));
	while ((u = fr_sinfo_cycle_next(cy)) != NULL) { answer(w, cy, u, t); t += 1; }
	size_t n; fr_sinfo_cycle_posts(cy, &n);
	fr_sinfo_cycle_end(cy, 1);
	void *blob; size_t len; fr_sinfo_save(f, &blob, &len);
	FILE *out = fopen(argv[2], "wb"); fwrite(blob, 1, len, out); fclose(out);
	fprintf(stderr, "%zu posts, %zu bytes, magic %.7s\n", n, len, (char *)blob);
	return 0;
}
