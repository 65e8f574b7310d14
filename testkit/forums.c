/* forums.c - the world of synthetic forums of `freshet serve --forums` (see
 * forums.h): the structure table, forum k's host, the request handler, the
 * truth, the entry list and the structure description. Forums are set up on
 * their first use; their timelines grow with the clock. */
#include "testkit/forums.h"

#include "core/err.h"
#include "testkit/clock.h"
#include "testkit/forum_gen.h"
#include "testkit/forum_html.h"
#include "testkit/forum_url.h"
#include "testkit/server.h"
#include "testkit/text.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* NOTE: keep in sync with the table in forums.h and docs/serve.md. */
static const struct fr_tk_forum_profile PROFILES[FR_TK_FORUMS_N_PROFILES] = {
    {FR_TK_FORUM_PHPBB, FR_TK_FORUM_EN, FR_TK_FORUM_DS_EN_PHPBB, FR_TK_FORUM_REL_NONE,
     FR_TK_FORUM_ATTR_NONE, FR_TK_FORUM_LAD, FR_TK_FORUM_ASC, FR_TK_FORUM_IDATES_BOTH, 1, 2, 25, 10,
     0, FR_TK_FORUM_SESS_SID, 0, 1, FR_TK_FORUM_Q_BLOCKQUOTE, 0},
    {FR_TK_FORUM_VBULLETIN, FR_TK_FORUM_DE, FR_TK_FORUM_DS_NUM_DOT, FR_TK_FORUM_REL_DAY,
     FR_TK_FORUM_ATTR_NONE, FR_TK_FORUM_LAD, FR_TK_FORUM_ASC, FR_TK_FORUM_IDATES_LAST, 1, 1, 20, 15,
     0, FR_TK_FORUM_SESS_S, 1, 1, FR_TK_FORUM_Q_BOX, 0},
    {FR_TK_FORUM_SMF, FR_TK_FORUM_EN, FR_TK_FORUM_DS_EN_LONG, FR_TK_FORUM_REL_DAY,
     FR_TK_FORUM_ATTR_NONE, FR_TK_FORUM_LAD, FR_TK_FORUM_ASC, FR_TK_FORUM_IDATES_LAST, 1, 2, 20, 15,
     0, FR_TK_FORUM_SESS_PHP, 0, 0, FR_TK_FORUM_Q_HEADER, 0},
    {FR_TK_FORUM_XENFORO, FR_TK_FORUM_EN, FR_TK_FORUM_DS_EN_SHORT, FR_TK_FORUM_REL_AGO,
     FR_TK_FORUM_ATTR_TIME, FR_TK_FORUM_LAD, FR_TK_FORUM_ASC, FR_TK_FORUM_IDATES_BOTH, 1, 1, 20, 15,
     0, FR_TK_FORUM_SESS_NONE, 2, 0, FR_TK_FORUM_Q_BLOCKQUOTE, 0},
    {FR_TK_FORUM_DISCUZ, FR_TK_FORUM_ZH, FR_TK_FORUM_DS_NUM_YMD, FR_TK_FORUM_REL_AGO,
     FR_TK_FORUM_ATTR_TITLE, FR_TK_FORUM_LAD, FR_TK_FORUM_ASC, FR_TK_FORUM_IDATES_BOTH, 1, 3, 20,
     10, 0, FR_TK_FORUM_SESS_NONE, 0, 0, FR_TK_FORUM_Q_BLOCKQUOTE, 1},
    {FR_TK_FORUM_CUSTOM, FR_TK_FORUM_RU, FR_TK_FORUM_DS_TEXT, FR_TK_FORUM_REL_NONE,
     FR_TK_FORUM_ATTR_NONE, FR_TK_FORUM_CRD, FR_TK_FORUM_DSC, FR_TK_FORUM_IDATES_CREATED, 0, 1, 25,
     10, 0, FR_TK_FORUM_SESS_NONE, 2, 0, FR_TK_FORUM_Q_TABLE, 0},
    {FR_TK_FORUM_THREADED, FR_TK_FORUM_NL, FR_TK_FORUM_DS_TEXT, FR_TK_FORUM_REL_AGO,
     FR_TK_FORUM_ATTR_TIME, FR_TK_FORUM_CRD, FR_TK_FORUM_ASC, FR_TK_FORUM_IDATES_CREATED, 0, 0, 25,
     15, 1, FR_TK_FORUM_SESS_NONE, 0, 0, FR_TK_FORUM_Q_BLOCKQUOTE, 0},
    {FR_TK_FORUM_PHPBB, FR_TK_FORUM_FR, FR_TK_FORUM_DS_TEXT, FR_TK_FORUM_REL_NONE,
     FR_TK_FORUM_ATTR_TIME, FR_TK_FORUM_CRD, FR_TK_FORUM_ASC, FR_TK_FORUM_IDATES_BOTH, 0, 1, 25, 10,
     0, FR_TK_FORUM_SESS_NONE, 2, 1, FR_TK_FORUM_Q_BLOCKQUOTE, 0},
    {FR_TK_FORUM_VBULLETIN, FR_TK_FORUM_EN, FR_TK_FORUM_DS_NUM_MDY, FR_TK_FORUM_REL_NONE,
     FR_TK_FORUM_ATTR_NONE, FR_TK_FORUM_CRD, FR_TK_FORUM_DSC, FR_TK_FORUM_IDATES_LAST, 1, 2, 20, 12,
     0, FR_TK_FORUM_SESS_S, 1, 1, FR_TK_FORUM_Q_TABLE, 0},
    {FR_TK_FORUM_SMF, FR_TK_FORUM_ES, FR_TK_FORUM_DS_NUM_DMY, FR_TK_FORUM_REL_DAY,
     FR_TK_FORUM_ATTR_NONE, FR_TK_FORUM_LAD, FR_TK_FORUM_DSC, FR_TK_FORUM_IDATES_LAST, 1, 0, 20, 15,
     0, FR_TK_FORUM_SESS_NONE, 1, 0, FR_TK_FORUM_Q_HEADER, 1},
    {FR_TK_FORUM_XENFORO, FR_TK_FORUM_DE, FR_TK_FORUM_DS_TEXT, FR_TK_FORUM_REL_AGO,
     FR_TK_FORUM_ATTR_TIME, FR_TK_FORUM_CRD, FR_TK_FORUM_ASC, FR_TK_FORUM_IDATES_BOTH, 1, 2, 20, 15,
     0, FR_TK_FORUM_SESS_NONE, 0, 0, FR_TK_FORUM_Q_BLOCKQUOTE, 0},
    {FR_TK_FORUM_DISCUZ, FR_TK_FORUM_TR, FR_TK_FORUM_DS_TEXT, FR_TK_FORUM_REL_NONE,
     FR_TK_FORUM_ATTR_NONE, FR_TK_FORUM_CRD, FR_TK_FORUM_DSC, FR_TK_FORUM_IDATES_BOTH, 0, 1, 20, 10,
     0, FR_TK_FORUM_SESS_NONE, 1, 0, FR_TK_FORUM_Q_BLOCKQUOTE, 0},
    {FR_TK_FORUM_CUSTOM, FR_TK_FORUM_PL, FR_TK_FORUM_DS_TEXT, FR_TK_FORUM_REL_NONE,
     FR_TK_FORUM_ATTR_DATA, FR_TK_FORUM_LAD, FR_TK_FORUM_ASC, FR_TK_FORUM_IDATES_CREATED, 0, 3, 25,
     12, 0, FR_TK_FORUM_SESS_NONE, 2, 0, FR_TK_FORUM_Q_BOX, 0},
    {FR_TK_FORUM_THREADED, FR_TK_FORUM_DE, FR_TK_FORUM_DS_NUM_DOT2, FR_TK_FORUM_REL_AGO,
     FR_TK_FORUM_ATTR_NONE, FR_TK_FORUM_LAD, FR_TK_FORUM_DSC, FR_TK_FORUM_IDATES_LAST, 1, 1, 22, 12,
     1, FR_TK_FORUM_SESS_NONE, 0, 0, FR_TK_FORUM_Q_BLOCKQUOTE, 0},
};

static const char *const SW_NAMES[FR_TK_FORUM_N_SW] = {"phpbb",  "vbulletin", "smf",     "xenforo",
                                                    "discuz", "custom",    "threaded"};

void
fr_tk_forums_profile(uint32_t k, struct fr_tk_forum_profile *out)
{
	*out = PROFILES[k % FR_TK_FORUMS_N_PROFILES];
}

enum fr_tk_forum_pag
fr_tk_forums_pagination(enum fr_tk_forum_sw sw)
{
	switch (sw) {
	case FR_TK_FORUM_PHPBB:
		return FR_TK_FORUM_PAG_PARAM_OFFSET;
	case FR_TK_FORUM_SMF:
		return FR_TK_FORUM_PAG_OFFSET;
	case FR_TK_FORUM_VBULLETIN:
	case FR_TK_FORUM_THREADED:
		return FR_TK_FORUM_PAG_PARAM_PAGE;
	default:
		return FR_TK_FORUM_PAG_PATH;
	}
}

const char *
fr_tk_forums_sw_name(enum fr_tk_forum_sw sw)
{
	return (unsigned)sw < FR_TK_FORUM_N_SW ? SW_NAMES[sw] : "?";
}

const char *
fr_tk_forums_isort_name(enum fr_tk_forum_isort s)
{
	return s == FR_TK_FORUM_CRD ? "CRD" : "LAD";
}

const char *
fr_tk_forums_tsort_name(enum fr_tk_forum_tsort s)
{
	return s == FR_TK_FORUM_ASC ? "ASC" : "DSC";
}

const char *
fr_tk_forums_pag_name(enum fr_tk_forum_pag p)
{
	static const char *const N[] = {"param-offset", "param-page", "offset", "path"};

	return (unsigned)p < 4 ? N[p] : "?";
}

const char *
fr_tk_forums_idates_name(enum fr_tk_forum_idates d)
{
	return d == FR_TK_FORUM_IDATES_BOTH      ? "both"
	       : d == FR_TK_FORUM_IDATES_CREATED ? "created"
	                                      : "last";
}

const char *
fr_tk_forums_attr_name(enum fr_tk_forum_attr a)
{
	static const char *const N[] = {"none", "time", "title", "data"};

	return (unsigned)a < 4 ? N[a] : "?";
}

char *
fr_tk_forums_entry_url(uint32_t k, char *buf, size_t len)
{
	char path[FR_TK_FORUMS_URL_MAX];

	snprintf(buf, len, "http://forum%u.test%s", (unsigned)k,
	         fr_tk_forum_url_entry(PROFILES[k % FR_TK_FORUMS_N_PROFILES].sw, path));
	return buf;
}

uint64_t
fr_tk_forums_text_hash(const char *text, size_t len)
{
	uint64_t h = 14695981039346656037ull;

	for (size_t i = 0; i < len; i++) {
		h ^= (unsigned char)text[i];
		h *= 1099511628211ull;
	}
	return h;
}

/* ---- the world ---- */

struct fr_tk_forums {
	struct fr_tk_forums_config cfg;
	pthread_mutex_t make; /* held while a forum is set up */
	_Atomic(struct fr_tk_forum *) *forum;
};

struct fr_tk_forums *
fr_tk_forums_new(const struct fr_tk_forums_config *cfg, char *err, size_t errlen)
{
	struct fr_tk_forums *w;

	if (cfg->n_forums == 0 || cfg->n_forums > FR_TK_FORUMS_MAX) {
		fr_errf(err, errlen, "forums: the number of forums must be 1..%u, not %u",
		        FR_TK_FORUMS_MAX, (unsigned)cfg->n_forums);
		return NULL;
	}
	if (!cfg->clock || !(cfg->clock->speed > 0)) {
		fr_errf(err, errlen, "forums: a clock with a positive speed is needed");
		return NULL;
	}
	w = calloc(1, sizeof(*w));
	if (w)
		w->forum = malloc(cfg->n_forums * sizeof(*w->forum));
	if (!w || !w->forum || pthread_mutex_init(&w->make, NULL) != 0) {
		if (w)
			free(w->forum);
		free(w);
		fr_errf(err, errlen, "forums: out of memory");
		return NULL;
	}
	for (uint32_t k = 0; k < cfg->n_forums; k++)
		atomic_init(&w->forum[k], NULL);
	w->cfg = *cfg;
	return w;
}

void
fr_tk_forums_free(struct fr_tk_forums *w)
{
	if (!w)
		return;
	for (uint32_t k = 0; k < w->cfg.n_forums; k++) {
		struct fr_tk_forum *f = atomic_load(&w->forum[k]);

		if (f) {
			fr_tk_forum_gen_free(f);
			free(f);
		}
	}
	pthread_mutex_destroy(&w->make);
	free(w->forum);
	free(w);
}

uint32_t
fr_tk_forums_n(const struct fr_tk_forums *w)
{
	return w->cfg.n_forums;
}

/* Forum k, set up on first use; NULL on out of memory. */
static struct fr_tk_forum *
forum(struct fr_tk_forums *w, uint32_t k)
{
	struct fr_tk_forum *f = atomic_load_explicit(&w->forum[k], memory_order_acquire);

	if (f)
		return f;
	pthread_mutex_lock(&w->make);
	f = atomic_load_explicit(&w->forum[k], memory_order_acquire);
	if (!f) {
		f = malloc(sizeof(*f));
		if (f && fr_tk_forum_gen_init(f, w->cfg.seed, k, w->cfg.clock->start_s) < 0) {
			free(f);
			f = NULL;
		}
		if (f)
			atomic_store_explicit(&w->forum[k], f, memory_order_release);
	}
	pthread_mutex_unlock(&w->make);
	return f;
}

/* How far past the clock a timeline is generated when it must grow: a few
 * wall seconds' worth, at least half an hour of forum time. */
static double
ahead_s(const struct fr_tk_forums *w)
{
	double a = 5 * w->cfg.clock->speed;

	return a > 1800 ? a : 1800;
}

/* "forum<k>.test" with k < n (no leading zeros): 1 and *k, else 0. */
static int
match_host(const char *h, uint32_t n, uint32_t *k)
{
	uint64_t v = 0;
	const char *p;

	if (strncmp(h, "forum", 5) != 0)
		return 0;
	p = h + 5;
	if (*p < '0' || *p > '9' || (*p == '0' && p[1] >= '0' && p[1] <= '9'))
		return 0;
	for (; *p >= '0' && *p <= '9'; p++) {
		v = v * 10 + (uint64_t)(*p - '0');
		if (v >= n)
			return 0;
	}
	if (strcmp(p, ".test") != 0)
		return 0;
	*k = (uint32_t)v;
	return 1;
}

int
fr_tk_forums_handle(void *ctx, const struct fr_serve_req *req, struct fr_serve_resp *resp)
{
	static const char UNKNOWN[] = "unknown host\n";
	struct fr_tk_forums *w = ctx;
	struct fr_tk_forum *f;
	struct fr_tk_furl u;
	double now;
	uint32_t k;
	int rc;

	if (!match_host(req->host_name, w->cfg.n_forums, &k)) {
		resp->status = 404;
		resp->content_type = "text/plain; charset=utf-8";
		resp->body = UNKNOWN;
		resp->len = sizeof(UNKNOWN) - 1;
		return 0;
	}
	f = forum(w, k);
	if (!f)
		return -1;
	now = fr_serve_clock_trace(w->cfg.clock, req->wall_s);
	fr_tk_forum_url_parse(f, req->path, req->query, &u);
	if (fr_tk_forum_gen_read_begin(f, now, ahead_s(w)) < 0)
		return -1;
	rc = fr_tk_forum_html_answer(f, req->host_name, &u, now, resp);
	fr_tk_forum_gen_read_end(f);
	return rc;
}

/* ---- files ---- */

int
fr_tk_forums_write_truth(struct fr_tk_forums *w, FILE *out, double t_s, size_t *rows,
                         const char *name, char *err, size_t errlen)
{
	size_t count = 0;

	fputs("host\tthread_id\tthread_url\tpost_no\tpost_id\tauthor\tpublished_s\ttext_hash\t"
	      "sticky_thread\tpinned_post\tparent_no\n",
	      out);
	for (uint32_t k = 0; k < w->cfg.n_forums; k++) {
		struct fr_tk_forum *f = forum(w, k);
		int64_t now = (int64_t)t_s;
		size_t n_th;

		if (!f || fr_tk_forum_gen_read_begin(f, t_s, ahead_s(w)) < 0)
			return fr_errf(err, errlen, "%s: out of memory", name);
		n_th = fr_tk_forum_gen_threads_at(f, now);
		for (size_t i = 0; i < n_th; i++) {
			const struct fr_tk_fthread *th = &f->th[i];
			uint32_t n = fr_tk_forum_gen_posts_at(th, now);
			char url[FR_TK_FORUMS_URL_MAX];

			fr_tk_forum_url_thread(f, i, 1, url);
			for (uint32_t j = 0; j < n; j++) {
				struct fr_text t = {0};
				char author[64];
				int pinned =
				    !f->prof.nested && f->prof.tsort == FR_TK_FORUM_DSC && j == 0;

				fr_tk_forum_gen_post_text(f, i, j, &t);
				if (t.bad) {
					fr_text_free(&t);
					fr_tk_forum_gen_read_end(f);
					return fr_errf(err, errlen, "%s: out of memory", name);
				}
				fprintf(
				    out,
				    "forum%u.test\t%u\thttp://forum%u.test%s\t%u\t%u\t%s\t%lld\t"
				    "%016llx\t%d\t%d\t%ld\n",
				    (unsigned)k, (unsigned)th->id, (unsigned)k, url, (unsigned)j,
				    (unsigned)th->pid[j],
				    fr_tk_forum_gen_member_name(f, th->author[j], author,
				                                sizeof(author)),
				    (long long)th->t[j],
				    (unsigned long long)fr_tk_forums_text_hash(t.p ? t.p : "",
				                                               t.len),
				    th->sticky, pinned,
				    th->parent && j > 0 ? (long)th->parent[j] : -1L);
				fr_text_free(&t);
				count++;
			}
		}
		fr_tk_forum_gen_read_end(f);
	}
	if (rows)
		*rows = count;
	if (fflush(out) != 0 || ferror(out))
		return fr_errf(err, errlen, "%s: write error", name);
	return 0;
}

int
fr_tk_forums_write_list(const struct fr_tk_forums *w, FILE *out, const char *name, char *err,
                     size_t errlen)
{
	char url[FR_TK_FORUMS_URL_MAX];

	for (uint32_t k = 0; k < w->cfg.n_forums; k++)
		fprintf(out, "%s\n", fr_tk_forums_entry_url(k, url, sizeof(url)));
	if (fflush(out) != 0 || ferror(out))
		return fr_errf(err, errlen, "%s: write error", name);
	return 0;
}

int
fr_tk_forums_write_describe(struct fr_tk_forums *w, FILE *out, const char *name, char *err,
                            size_t errlen)
{
	char url[FR_TK_FORUMS_URL_MAX];

	fputs("host\tentry_url\tsoftware\tindex_sort\tthread_sort\tpagination\tlang\tdate_style\t"
	      "relative\tattr\tindex_dates\tlast_activity_links\tstickies\tthreads_per_page\t"
	      "posts_per_page\tnested\tbusy\tthreads_per_day\tboards\tborn_s\n",
	      out);
	for (uint32_t k = 0; k < w->cfg.n_forums; k++) {
		struct fr_tk_forum *f = forum(w, k);
		const struct fr_tk_forum_profile *p;

		if (!f)
			return fr_errf(err, errlen, "%s: out of memory", name);
		p = &f->prof;
		fprintf(out,
		        "forum%u.test\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\t%u\t%u\t%u\t%d\t"
		        "%d\t%.3f\t%u\t%lld\n",
		        (unsigned)k, fr_tk_forums_entry_url(k, url, sizeof(url)),
		        fr_tk_forums_sw_name(p->sw), fr_tk_forums_isort_name(p->isort),
		        fr_tk_forums_tsort_name(p->tsort),
		        fr_tk_forums_pag_name(fr_tk_forums_pagination(p->sw)),
		        fr_tk_forum_lang_ui(p->lang)->code, fr_tk_forum_lang_dstyle_name(p->dstyle),
		        fr_tk_forum_lang_rel_name(p->rel), fr_tk_forums_attr_name(p->attr),
		        fr_tk_forums_idates_name(p->idates), p->la_links, p->stickies,
		        p->threads_pp, p->posts_pp, p->nested, f->busy, f->threads_per_day,
		        f->n_boards, (long long)f->birth_s);
	}
	if (fflush(out) != 0 || ferror(out))
		return fr_errf(err, errlen, "%s: write error", name);
	return 0;
}
