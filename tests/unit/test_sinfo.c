/* test_sinfo.c - the SInFo engine on in-process synthetic forums: phase 1
 * learns the entry, sorts and patterns and reads every post; phase 2 cycles
 * find the new posts (counted against the forum world's own timeline) with
 * few pages and none twice; the state survives save/load; FoCUS re-crawls;
 * bad answers (404s, garbage, a damaged state) are errors, not crashes. */
#include "forum/fdate.h"
#include "forum/sinfo.h"
#include "testkit/clock.h"
#include "testkit/forums.h"
#include "testkit/server.h"

#include "test.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define T0 1709294400.0 /* 2024-03-01T12:00:00Z */

static struct fr_serve_clock clk = {T0, T0 + 400 * 86400.0, 1, T0};
static struct fr_fdate *fd;

/* Fetches url from the world at forum time t; feeds the cycle. Returns
 * the body length. */
static size_t
answer(struct fr_tk_forums *w, struct fr_sinfo_cycle *cy, const char *url, double t)
{
	char host[128] = "", path[1024] = "/", query[1024] = "";
	const char *p = strstr(url, "://");
	struct fr_serve_req req;
	struct fr_serve_resp resp;

	p = p ? p + 3 : url;
	size_t hl = strcspn(p, "/:");
	snprintf(host, sizeof(host), "%.*s", (int)hl, p);
	p += hl;
	p += strcspn(p, "/");
	size_t pl = strcspn(p, "?#");
	snprintf(path, sizeof(path), "%.*s", (int)(pl ? pl : 1), pl ? p : "/");
	if (p[pl] == '?')
		snprintf(query, sizeof(query), "%.*s", (int)strcspn(p + pl + 1, "#"), p + pl + 1);
	memset(&req, 0, sizeof(req));
	memset(&resp, 0, sizeof(resp));
	resp.last_modified_s = -1;
	req.host_name = host;
	req.path = path;
	req.query = query;
	req.wall_s = t;
	if (fr_tk_forums_handle(w, &req, &resp) < 0) {
		fr_sinfo_cycle_feed(cy, 0, NULL, 0, t);
		return 0;
	}
	fr_sinfo_cycle_feed(cy, resp.status, resp.body, resp.len, t);
	size_t len = resp.len;
	if (resp.release)
		resp.release(resp.release_cls);
	return len;
}

/* Runs one cycle at t (a fetch a second); returns the new posts. */
static size_t
cycle(struct fr_tk_forums *w, struct fr_sinfo *f, enum fr_sinfo_mode mode, double t,
      struct fr_sinfo_cycle_stats *st, int *phase)
{
	struct fr_sinfo_opts o = {.mode = mode, .dates = fd};
	struct fr_sinfo_cycle *cy;
	char err[256];
	const char *url;
	size_t n = 0;

	CHECK(fr_sinfo_cycle_begin(f, &o, t, &cy, err, sizeof(err)) == 0);
	while ((url = fr_sinfo_cycle_next(cy)) != NULL) {
		answer(w, cy, url, t);
		t += 1;
	}
	fr_sinfo_cycle_stats(cy, st);
	*phase = st->phase;
	/* No post of the cycle twice. */
	const struct fr_sinfo_post *p = fr_sinfo_cycle_posts(cy, &n);
	size_t dup = 0;
	for (size_t i = 0; i < n && i < 3000; i++)
		for (size_t j = i + 1; j < n && j < 3000; j++)
			dup += strcmp(p[i].id, p[j].id) == 0;
	CHECK(dup == 0);
	fr_sinfo_cycle_end(cy, 1);
	return n;
}

/* Posts the world holds for host at t (its truth). */
static size_t
truth_posts(struct fr_tk_forums *w, const char *host, double t)
{
	char *buf = NULL, err[256];
	size_t len = 0, rows = 0, n = 0;
	FILE *m = open_memstream(&buf, &len);

	CHECK(m != NULL);
	if (!m)
		return 0;
	CHECK(fr_tk_forums_write_truth(w, m, t, &rows, "truth", err, sizeof(err)) == 0);
	fclose(m);
	size_t hl = strlen(host);
	for (char *line = buf; line && *line;) {
		char *nl = strchr(line, '\n');
		if (strncmp(line, host, hl) == 0 && line[hl] == '\t')
			n++;
		line = nl ? nl + 1 : NULL;
	}
	free(buf);
	return n;
}

/* Forum k over a phase 1 and three daily phase 2 cycles: every post found
 * (at most a handful late or missed), sorts right, few pages. */
static void
forum_cycles(uint32_t k, enum fr_sinfo_sort isort, enum fr_sinfo_sort tsort)
{
	struct fr_tk_forums_config cfg = {.n_forums = 14, .seed = 7, .clock = &clk};
	char err[256], url[FR_TK_FORUMS_URL_MAX], host[32];
	struct fr_tk_forums *w = fr_tk_forums_new(&cfg, err, sizeof(err));
	struct fr_sinfo *f;
	struct fr_sinfo_cycle_stats st;
	int phase;

	CHECK(w != NULL);
	if (!w)
		return;
	snprintf(host, sizeof(host), "forum%u.test", k);
	fr_tk_forums_entry_url(k, url, sizeof(url));
	CHECK(fr_sinfo_new(url, &f, err, sizeof(err)) == 0);

	size_t total = cycle(w, f, FR_SINFO_INCREMENTAL, T0, &st, &phase);
	size_t p1_pages = st.pages, total1 = total;
	CHECK(phase == 1);
	CHECK(fr_sinfo_index_sort(f) == isort);
	CHECK(fr_sinfo_thread_sort(f) == tsort);
	CHECK(fr_sinfo_n_boards(f) >= 3);
	/* The crawl takes a second a page: posts of that while may be in. */
	size_t truth1 = truth_posts(w, host, T0), truth1e = truth_posts(w, host, T0 + (double)p1_pages);
	CHECK(total1 <= truth1e && total1 * 1000 >= truth1 * 995);

	/* Through a save and a load, as the store keeps it. */
	void *blob;
	size_t blen;
	CHECK(fr_sinfo_save(f, &blob, &blen) == 0);
	fr_sinfo_free(f);
	CHECK(fr_sinfo_load(blob, blen, &f, err, sizeof(err)) == 0);
	free(blob);

	size_t p2_pages = 0, p2_new = 0;
	for (int d = 1; d <= 3; d++) {
		total += cycle(w, f, FR_SINFO_INCREMENTAL, T0 + d * 86400.0, &st, &phase);
		CHECK(phase == 2);
		p2_pages += st.pages;
		p2_new += st.pages_new;
	}
	size_t truth4 = truth_posts(w, host, T0 + 3 * 86400.0);
	fprintf(stderr, "  forum%u: phase 1 %zu pages, %zu posts (%zu at its start); phase 2 %zu "
			"pages (%zu with news); %zu posts of %zu after 3 days\n",
		k, p1_pages, total1, truth1, p2_pages, p2_new, total, truth4);
	CHECK(total <= truth4 + 5);
	CHECK(total * 1000 >= truth4 * 995);
	/* A daily cycle asks a small share of the pages, most with news. */
	CHECK(p2_pages * 10 < p1_pages * 3);
	/* (A quiet forum's cycle still asks its entry page.) */
	CHECK(p2_new * 100 >= p2_pages * 85 || p2_pages - p2_new <= 3);

	char *d = fr_sinfo_describe(f);
	CHECK(d && strstr(d, "entry http://") && strstr(d, "thread-pagination"));
	free(d);
	fr_sinfo_free(f);
	fr_tk_forums_free(w);
}

static void
lad_asc_xenforo_busy(void)
{
	forum_cycles(3, FR_SINFO_LAD, FR_SINFO_ASC);
}

static void
crd_dsc_vbulletin_last_dates(void)
{
	forum_cycles(8, FR_SINFO_CRD, FR_SINFO_DSC);
}

static void
crd_dsc_custom_counts_only(void)
{
	/* Rows show creation dates only: news from the reply counts. */
	forum_cycles(5, FR_SINFO_CRD, FR_SINFO_DSC);
}

/* A state written by an earlier version (FSINFO3: no board counts, no
 * pages of recent posts; made by commit e24ab07's engine after phase 1 on
 * forum 5, seed 7, at T0) loads, and its phase 2 goes on finding every post
 * (the board counts are learnt again only by a new phase 1: without them
 * the walk does as before). */
static void
an_older_state_goes_on(void)
{
	struct fr_tk_forums_config cfg = {.n_forums = 14, .seed = 7, .clock = &clk};
	char err[256], path[512];
	struct fr_tk_forums *w = fr_tk_forums_new(&cfg, err, sizeof(err));
	struct fr_sinfo *f = NULL;
	struct fr_sinfo_cycle_stats st;
	int phase;

	CHECK(w != NULL);
	snprintf(path, sizeof(path), "%s/forums/sinfo-fsinfo3-forum5-seed7.bin", FR_TEST_DATA);
	FILE *in = fopen(path, "rb");
	CHECK(in != NULL);
	if (!w || !in) {
		if (in)
			fclose(in);
		fr_tk_forums_free(w);
		return;
	}
	char *blob = malloc(1 << 20);
	size_t len = blob ? fread(blob, 1, 1 << 20, in) : 0;
	fclose(in);
	CHECK(len > 8 && memcmp(blob, "FSINFO3", 7) == 0);
	CHECK(fr_sinfo_load(blob, len, &f, err, sizeof(err)) == 0);
	free(blob);
	if (!f) {
		fr_tk_forums_free(w);
		return;
	}
	size_t total = 290; /* what phase 1 found */
	for (int d = 1; d <= 3; d++) {
		total += cycle(w, f, FR_SINFO_INCREMENTAL, T0 + d * 86400.0, &st, &phase);
		CHECK(phase == 2);
	}
	size_t truth = truth_posts(w, "forum5.test", T0 + 3 * 86400.0);
	fprintf(stderr, "  forum5 from an FSINFO3 state: %zu posts of %zu after 3 days\n", total,
		truth);
	CHECK(total <= truth + 5 && total * 1000 >= truth * 995);
	/* Saved again, it is the current format. */
	void *b2;
	size_t l2;
	CHECK(fr_sinfo_save(f, &b2, &l2) == 0);
	CHECK(l2 > 8 && memcmp(b2, "FSINFO5", 7) == 0);
	free(b2);
	fr_sinfo_free(f);
	fr_tk_forums_free(w);
}

static void
focus_recrawls_everything(void)
{
	struct fr_tk_forums_config cfg = {.n_forums = 14, .seed = 7, .clock = &clk};
	char err[256], url[FR_TK_FORUMS_URL_MAX];
	struct fr_tk_forums *w = fr_tk_forums_new(&cfg, err, sizeof(err));
	struct fr_sinfo *f;
	struct fr_sinfo_cycle_stats st1, st2;
	int phase;

	CHECK(w != NULL);
	if (!w)
		return;
	fr_tk_forums_entry_url(7, url, sizeof(url));
	CHECK(fr_sinfo_new(url, &f, err, sizeof(err)) == 0);
	cycle(w, f, FR_SINFO_FOCUS, T0, &st1, &phase);
	cycle(w, f, FR_SINFO_FOCUS, T0 + 86400, &st2, &phase);
	CHECK(phase == 2);
	/* Every page again, a day's posts new at most. */
	CHECK(st2.pages * 10 >= st1.pages * 9);
	CHECK(st2.pages_new * 5 < st2.pages);
	fr_sinfo_free(f);
	fr_tk_forums_free(w);
}

static void
bad_answers_are_errors(void)
{
	struct fr_sinfo *f;
	struct fr_sinfo_opts o = {.mode = FR_SINFO_INCREMENTAL, .dates = fd};
	struct fr_sinfo_cycle *cy;
	struct fr_sinfo_cycle_stats st;
	char err[256];
	const char *url;
	int n = 0;

	CHECK(fr_sinfo_new("ftp://x/", &f, err, sizeof(err)) < 0);
	CHECK(strstr(err, "ftp://x/") != NULL);
	CHECK(fr_sinfo_new("http://forum.example/board/", &f, err, sizeof(err)) == 0);
	CHECK(fr_sinfo_cycle_begin(f, &o, T0, &cy, err, sizeof(err)) == 0);
	while ((url = fr_sinfo_cycle_next(cy)) != NULL && n++ < 20) {
		if (n == 1)
			fr_sinfo_cycle_feed(cy, 404, "gone", 4, T0);
		else
			fr_sinfo_cycle_feed(cy, 200, "\x01\x02<html><<<<", 11, T0);
	}
	fr_sinfo_cycle_stats(cy, &st);
	CHECK(st.pages >= 1 && st.errors >= 1);
	CHECK(strstr(fr_sinfo_cycle_errors(cy), "http://forum.example/board/: HTTP status 404") !=
	      NULL);
	fr_sinfo_cycle_end(cy, 1);
	/* Nothing learnt: the next cycle is phase 1 again. */
	CHECK(fr_sinfo_cycle_begin(f, &o, T0, &cy, err, sizeof(err)) == 0);
	fr_sinfo_cycle_stats(cy, &st);
	CHECK(st.phase == 1);
	fr_sinfo_cycle_end(cy, 0);

	/* A damaged state. */
	void *blob;
	size_t len;
	struct fr_sinfo *g;
	CHECK(fr_sinfo_save(f, &blob, &len) == 0);
	CHECK(fr_sinfo_load(blob, len / 2, &g, err, sizeof(err)) < 0);
	CHECK(strstr(err, "truncated") != NULL);
	CHECK(fr_sinfo_load("nonsense", 8, &g, err, sizeof(err)) < 0);
	CHECK(fr_sinfo_load(blob, len, &g, err, sizeof(err)) == 0);
	fr_sinfo_free(g);
	free(blob);
	fr_sinfo_free(f);
}

int
main(void)
{
	if (fr_fdate_new(&fd) < 0)
		return 1;
	RUN(lad_asc_xenforo_busy);
	RUN(crd_dsc_vbulletin_last_dates);
	RUN(crd_dsc_custom_counts_only);
	RUN(an_older_state_goes_on);
	RUN(focus_recrawls_everything);
	RUN(bad_answers_are_errors);
	fr_fdate_free(fd);
	return TEST_DONE();
}
