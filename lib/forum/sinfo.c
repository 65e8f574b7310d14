/* sinfo.c - SInFo's two phases over forum/page.h and forum/furl.h (see
 * sinfo.h): the forum's state, its serialisation, and crawl cycles as a
 * queue of page tasks the caller fetches one at a time. */
#include "forum/sinfo.h"

#include "core/strmap.h"
#include "forum/fdate.h"
#include "forum/furl.h"
#include "forum/page.h"
#include "url/url.h"
#include "parse/sha1.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RECENT_IDS 32          /* post ids kept per thread: ties at the boundary */
#define MAX_ERRORS_TEXT 65536  /* bytes of error lines kept per cycle */
#define MAX_PROBES 8           /* entry page candidates tried */
#define NO_DATE FR_FPAGE_NO_DATE
#define ALIVE_Q 0.995
#define NESTED 2               /* thread flag: replies sit under their parents */
#define JUMP_P 0.7             /* chance of news that makes an old index page worth a request */
#define OWED_CYCLES 4          /* cycles a board's unfound posts are searched for */
#define NESTED_DRY 4           /* dry pages in a row a nested thread's walk allows (and 2 per
                                  post missing) */

struct thread {
	const char *url; /* base URL: the first page, normalised (tmap's copy) */
	char *title; /* NULL when not known */
	char *last_url; /* its last page as last seen, or NULL */
	int32_t board;
	int sticky;          /* bit 0: pinned on its board; bit 1: a nested (tree) thread */
	int64_t first_post_s, last_post_s; /* NO_DATE: none known */
	uint32_t n_posts;
	double last_crawl_s; /* when its state was last known: read, or its row seen without news */
	/* The newest posts seen (by date): their content keys, a bounded set. */
	uint64_t ids[RECENT_IDS];
	int64_t id_dates[RECENT_IDS];
	uint16_t id_pages[RECENT_IDS]; /* the page each was read on (0 not known) */
	uint32_t n_ids;
	uint32_t n_pages; /* the highest page number its pagers showed (0 not known) */
};

struct board {
	const char *url; /* bmap's copy */
	double last_crawl_s;
	/* What the entry page's count of the board's posts (or replies) said
	 * when last read, -1 not known; posts it counted and no walk found
	 * yet, and for how many cycles they have been looked for. */
	int64_t count, owed;
	uint32_t owed_age;
	/* Posts collected past what their row counted (they came between the
	 * row and the thread being read): the next reading of the count holds
	 * them, and no row will account for them again. */
	int64_t prepaid;
};

struct fr_sinfo {
	char *start_url;
	char *entry;
	int learned;   /* phase 1 done */
	int relearn;   /* the structure no longer fits: phase 1 again */
	enum fr_sinfo_sort isort, tsort;
	int col_created; /* index pages with one date column: 1 it is the creation, 0 the
	                    last activity, -1 not known */
	int idx_fr, thr_fr; /* the pagers' number positions from the right, -1 not known */
	int64_t horizon_s;  /* how long after its first post a thread still gets replies (99th
	                       percentile of phase 1's threads; 0 not known) */
	int count_col;      /* index rows: which of their lone numbers counts the thread's
	                       posts (-1 none), and count_off: 1 when it counts replies */
	int count_off;
	int bcount_col;     /* entry rows: which number counts the board's posts (-1 none), */
	int bcount_rep;     /* and bcount_rep: 1 when it counts replies */
	int64_t alive_s;    /* a thread whose last post is older than this is taken for quiet
	                       (a high percentile of the gaps between a thread's posts) */
	char *pat[4];       /* index, index-pagination, thread, thread-pagination shapes */
	struct board *boards;
	size_t n_boards, cap_boards;
	struct thread *threads;
	size_t n_threads, cap_threads;
	struct fr_strmap *bmap, *tmap; /* url -> index (ids are indices) */
};

/* ---- the forum ------------------------------------------------------------- */

static char *
xstrdup(const char *s)
{
	return s ? strdup(s) : NULL;
}

static struct fr_sinfo *
forum_alloc(void)
{
	struct fr_sinfo *f = calloc(1, sizeof(*f));

	if (!f)
		return NULL;
	f->bmap = fr_strmap_new();
	f->tmap = fr_strmap_new();
	if (!f->bmap || !f->tmap) {
		fr_strmap_free(f->bmap);
		fr_strmap_free(f->tmap);
		free(f);
		return NULL;
	}
	f->col_created = -1;
	f->idx_fr = f->thr_fr = -1;
	f->count_col = -1;
	f->bcount_col = -1;
	return f;
}

void
fr_sinfo_free(struct fr_sinfo *f)
{
	if (!f)
		return;
	free(f->start_url);
	free(f->entry);
	for (int i = 0; i < 4; i++)
		free(f->pat[i]);
	free(f->boards);
	for (size_t i = 0; i < f->n_threads; i++) {
		free(f->threads[i].title);
		free(f->threads[i].last_url);
	}
	free(f->threads);
	fr_strmap_free(f->bmap);
	fr_strmap_free(f->tmap);
	free(f);
}

/* A URL as the forum's state keys it: normalised, session ids and the
 * fragment dropped. malloc'd, or NULL. */
static char *
norm(const char *url)
{
	char e[128];

	return fr_url_normalize(url, FR_URL_STRIP_SESSION, e, sizeof(e));
}

int
fr_sinfo_new(const char *url, struct fr_sinfo **out, char *err, size_t errlen)
{
	char e[256];
	char *u = fr_url_normalize(url, FR_URL_STRIP_SESSION, e, sizeof(e));

	if (!u) {
		snprintf(err, errlen, "forum '%s': %s", url, e);
		return -1;
	}
	if (strncmp(u, "http://", 7) != 0 && strncmp(u, "https://", 8) != 0) {
		snprintf(err, errlen, "forum '%s': not an http(s) URL", url);
		free(u);
		return -1;
	}
	struct fr_sinfo *f = forum_alloc();
	if (!f) {
		free(u);
		snprintf(err, errlen, "forum '%s': out of memory", url);
		return -1;
	}
	f->start_url = u;
	*out = f;
	return 0;
}

static int32_t
board_find(const struct fr_sinfo *f, const char *url)
{
	uint32_t id;

	return fr_strmap_find(f->bmap, url, strlen(url), &id) == 1 ? (int32_t)id : -1;
}

static int32_t
thread_find(const struct fr_sinfo *f, const char *url)
{
	uint32_t id;

	return fr_strmap_find(f->tmap, url, strlen(url), &id) == 1 ? (int32_t)id : -1;
}

/* Makes room for one more element of size in *arr (n used, *cap room).
 * Returns 0, or -1 on out of memory. */
static int
room(void **arr, size_t n, size_t *cap, size_t size, size_t first)
{
	if (n < *cap)
		return 0;
	size_t c = *cap ? *cap * 2 : first;
	void *p = realloc(*arr, c * size);
	if (!p)
		return -1;
	*arr = p;
	*cap = c;
	return 0;
}

/* Interns url in map: its id, and *added when new. The room for a new
 * element is made first, so the map and the array never disagree. The
 * element's url is the map's own copy (valid while the map lives). */
static int32_t
intern(struct fr_strmap *map, const char *url, void **arr, size_t n, size_t *cap, size_t size,
       int *added, const char **name)
{
	uint32_t id;

	if (room(arr, n, cap, size, 16) < 0 ||
	    fr_strmap_intern(map, url, strlen(url), &id, added) < 0)
		return -1;
	*name = fr_strmap_name(map, id);
	return (int32_t)id;
}

static int32_t
board_add(struct fr_sinfo *f, const char *url)
{
	int added;
	const char *name;
	int32_t id = intern(f->bmap, url, (void **)&f->boards, f->n_boards, &f->cap_boards,
			    sizeof(*f->boards), &added, &name);

	if (id < 0 || !added)
		return id;
	struct board *b = &f->boards[f->n_boards++];
	memset(b, 0, sizeof(*b));
	b->url = name;
	b->count = -1;
	return id;
}

static int32_t
thread_add(struct fr_sinfo *f, const char *url, int32_t board, const char *title)
{
	int added;
	const char *name;
	int32_t id = intern(f->tmap, url, (void **)&f->threads, f->n_threads, &f->cap_threads,
			    sizeof(*f->threads), &added, &name);

	if (id < 0 || !added)
		return id;
	struct thread *t = &f->threads[f->n_threads++];
	memset(t, 0, sizeof(*t));
	t->url = name;
	t->board = board;
	t->first_post_s = t->last_post_s = NO_DATE;
	if (title && title[0])
		t->title = strdup(title);
	return id;
}

static int
ring_has(const struct thread *t, uint64_t id)
{
	for (uint32_t i = 0; i < t->n_ids; i++)
		if (t->ids[i] == id)
			return 1;
	return 0;
}

/* Whether a post of this date, if it had been seen, would be in the ring:
 * the ring holds every post seen, or the date is past its oldest. */
static int
ring_covers(const struct thread *t, int64_t date)
{
	if (t->n_ids < RECENT_IDS)
		return 1;
	int64_t oldest = t->id_dates[0];
	for (uint32_t i = 1; i < RECENT_IDS; i++)
		if (t->id_dates[i] < oldest)
			oldest = t->id_dates[i];
	return date > oldest;
}

/* Keeps id among the thread's newest posts: when full, it replaces the
 * oldest one (a full crawl of a DSC thread reads the newest first). */
static void
ring_add(struct thread *t, uint64_t id, int64_t date, int64_t page)
{
	uint16_t pg = page > 0 && page <= UINT16_MAX ? (uint16_t)page : 0;

	for (uint32_t i = 0; i < t->n_ids; i++)
		if (t->ids[i] == id) {
			t->id_pages[i] = pg ? pg : t->id_pages[i]; /* where it is now */
			return;
		}
	if (t->n_ids < RECENT_IDS) {
		t->ids[t->n_ids] = id;
		t->id_dates[t->n_ids] = date;
		t->id_pages[t->n_ids] = pg;
		t->n_ids++;
		return;
	}
	uint32_t old = 0;
	for (uint32_t i = 1; i < RECENT_IDS; i++)
		if (t->id_dates[i] < t->id_dates[old])
			old = i;
	if (date >= t->id_dates[old]) {
		t->ids[old] = id;
		t->id_dates[old] = date;
		t->id_pages[old] = pg;
	}
}

enum fr_sinfo_sort
fr_sinfo_index_sort(const struct fr_sinfo *f)
{
	return f->isort;
}

enum fr_sinfo_sort
fr_sinfo_thread_sort(const struct fr_sinfo *f)
{
	return f->tsort;
}

const char *
fr_sinfo_sort_name(enum fr_sinfo_sort s)
{
	switch (s) {
	case FR_SINFO_CRD: return "CRD";
	case FR_SINFO_LAD: return "LAD";
	case FR_SINFO_ASC: return "ASC";
	case FR_SINFO_DSC: return "DSC";
	default: return "unknown";
	}
}

const char *
fr_sinfo_entry(const struct fr_sinfo *f)
{
	return f->entry;
}

size_t
fr_sinfo_n_boards(const struct fr_sinfo *f)
{
	return f->n_boards;
}

size_t
fr_sinfo_n_threads(const struct fr_sinfo *f)
{
	return f->n_threads;
}

char *
fr_sinfo_describe(const struct fr_sinfo *f)
{
	static const char *const names[4] = {"index", "index-pagination", "thread",
					     "thread-pagination"};
	size_t cap = 1024;
	for (int i = 0; i < 4; i++)
		cap += f->pat[i] ? strlen(f->pat[i]) : 0;
	cap += f->entry ? strlen(f->entry) : 0;
	char *s = malloc(cap);
	if (!s)
		return NULL;
	size_t o = (size_t)snprintf(s, cap, "entry %s\nindex-sort %s\nthread-sort %s\n",
				    f->entry ? f->entry : "-", fr_sinfo_sort_name(f->isort),
				    fr_sinfo_sort_name(f->tsort));
	for (int i = 0; i < 4 && o < cap; i++)
		o += (size_t)snprintf(s + o, cap - o, "%s %s\n", names[i], f->pat[i] ? f->pat[i] : "-");
	if (o < cap)
		snprintf(s + o, cap - o, "boards %zu\nthreads %zu\n", f->n_boards, f->n_threads);
	return s;
}

/* ---- serialisation ------------------------------------------------------- */

#define MAGIC "FSINFO5"
#define MAGIC4 "FSINFO4" /* read too: no pages of recent posts */
#define MAGIC3 "FSINFO3" /* read too: no board counts either */

struct wbuf {
	unsigned char *p;
	size_t n, cap;
	int oom;
};

static void
put(struct wbuf *w, const void *d, size_t n)
{
	if (w->oom)
		return;
	if (w->n + n > w->cap) {
		size_t cap = w->cap ? w->cap : 4096;
		while (cap < w->n + n)
			cap *= 2;
		unsigned char *p = realloc(w->p, cap);
		if (!p) {
			w->oom = 1;
			return;
		}
		w->p = p;
		w->cap = cap;
	}
	memcpy(w->p + w->n, d, n);
	w->n += n;
}

static void
put_u32(struct wbuf *w, uint32_t v)
{
	unsigned char b[4] = {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16),
			      (unsigned char)(v >> 24)};
	put(w, b, 4);
}

static void
put_u64(struct wbuf *w, uint64_t v)
{
	put_u32(w, (uint32_t)v);
	put_u32(w, (uint32_t)(v >> 32));
}

static void
put_f64(struct wbuf *w, double d)
{
	uint64_t v;
	memcpy(&v, &d, 8);
	put_u64(w, v);
}

static void
put_str(struct wbuf *w, const char *s)
{
	if (!s) {
		put_u32(w, UINT32_MAX);
		return;
	}
	size_t l = strlen(s);
	put_u32(w, (uint32_t)l);
	put(w, s, l);
}

int
fr_sinfo_save(const struct fr_sinfo *f, void **blob, size_t *len)
{
	struct wbuf w = {0};

	put(&w, MAGIC, 8);
	put_str(&w, f->start_url);
	put_str(&w, f->entry);
	put_u32(&w, (uint32_t)f->learned);
	put_u32(&w, (uint32_t)f->relearn);
	put_u32(&w, (uint32_t)f->isort);
	put_u32(&w, (uint32_t)f->tsort);
	put_u32(&w, (uint32_t)f->col_created + 1u);
	put_u32(&w, (uint32_t)f->idx_fr + 1u);
	put_u32(&w, (uint32_t)f->thr_fr + 1u);
	put_u64(&w, (uint64_t)f->horizon_s);
	put_u64(&w, (uint64_t)f->alive_s);
	put_u32(&w, (uint32_t)f->count_col + 1u);
	put_u32(&w, (uint32_t)f->count_off);
	put_u32(&w, (uint32_t)f->bcount_col + 1u);
	put_u32(&w, (uint32_t)f->bcount_rep);
	for (int i = 0; i < 4; i++)
		put_str(&w, f->pat[i]);
	put_u32(&w, (uint32_t)f->n_boards);
	for (size_t i = 0; i < f->n_boards; i++) {
		put_str(&w, f->boards[i].url);
		put_f64(&w, f->boards[i].last_crawl_s);
		put_u64(&w, (uint64_t)f->boards[i].count);
		put_u64(&w, (uint64_t)f->boards[i].owed);
		put_u32(&w, f->boards[i].owed_age);
		put_u64(&w, (uint64_t)f->boards[i].prepaid);
	}
	put_u32(&w, (uint32_t)f->n_threads);
	for (size_t i = 0; i < f->n_threads; i++) {
		const struct thread *t = &f->threads[i];
		put_str(&w, t->url);
		put_str(&w, t->title);
		put_str(&w, t->last_url);
		put_u32(&w, (uint32_t)t->board);
		put_u32(&w, (uint32_t)t->sticky);
		put_u64(&w, (uint64_t)t->first_post_s);
		put_u64(&w, (uint64_t)t->last_post_s);
		put_u32(&w, t->n_posts);
		put_f64(&w, t->last_crawl_s);
		put_u32(&w, t->n_pages);
		put_u32(&w, t->n_ids);
		for (uint32_t k = 0; k < t->n_ids; k++) {
			put_u64(&w, t->ids[k]);
			put_u64(&w, (uint64_t)t->id_dates[k]);
			put_u32(&w, t->id_pages[k]);
		}
	}
	if (w.oom) {
		free(w.p);
		return -1;
	}
	*blob = w.p;
	*len = w.n;
	return 0;
}

struct rbuf {
	const unsigned char *p;
	size_t n, off;
	int bad;
};

static int
get(struct rbuf *r, void *d, size_t n)
{
	if (r->bad || r->n - r->off < n) {
		r->bad = 1;
		memset(d, 0, n);
		return -1;
	}
	memcpy(d, r->p + r->off, n);
	r->off += n;
	return 0;
}

static uint32_t
get_u32(struct rbuf *r)
{
	unsigned char b[4];
	get(r, b, 4);
	return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static uint64_t
get_u64(struct rbuf *r)
{
	uint64_t lo = get_u32(r);
	return lo | (uint64_t)get_u32(r) << 32;
}

static double
get_f64(struct rbuf *r)
{
	uint64_t v = get_u64(r);
	double d;
	memcpy(&d, &v, 8);
	return d;
}

/* A malloc'd string, or NULL (absent, or bad: r->bad says). */
static char *
get_str(struct rbuf *r)
{
	uint32_t l = get_u32(r);
	if (r->bad || l == UINT32_MAX)
		return NULL;
	if (r->n - r->off < l) {
		r->bad = 1;
		return NULL;
	}
	char *s = malloc((size_t)l + 1);
	if (!s) {
		r->bad = 1;
		return NULL;
	}
	memcpy(s, r->p + r->off, l);
	s[l] = 0;
	r->off += l;
	return s;
}

/* Whether s, an address read from a saved state, is one the crawler may
 * fetch: absolute http(s) (NULL is fine where optional). */
static int
web_url(const char *s, int optional)
{
	if (!s)
		return optional;
	return !strncmp(s, "http://", 7) || !strncmp(s, "https://", 8);
}

int
fr_sinfo_load(const void *blob, size_t len, struct fr_sinfo **out, char *err, size_t errlen)
{
	struct rbuf r = {blob, len, 0, 0};
	char magic[8];
	struct fr_sinfo *f;

	*out = NULL;
	int v3 = get(&r, magic, 8) == 0 && memcmp(magic, MAGIC3, 8) == 0;
	int v4 = !r.bad && memcmp(magic, MAGIC4, 8) == 0;
	if (!v3 && !v4 && (r.bad || memcmp(magic, MAGIC, 8) != 0)) {
		snprintf(err, errlen, "forum state: not a SInFo state (or a newer version)");
		return -1;
	}
	if (!(f = forum_alloc())) {
		snprintf(err, errlen, "forum state: out of memory");
		return -1;
	}
	f->start_url = get_str(&r);
	f->entry = get_str(&r);
	f->learned = (int)get_u32(&r);
	f->relearn = (int)get_u32(&r);
	f->isort = (enum fr_sinfo_sort)get_u32(&r);
	f->tsort = (enum fr_sinfo_sort)get_u32(&r);
	f->col_created = (int)(int32_t)(get_u32(&r) - 1u);
	f->idx_fr = (int)(int32_t)(get_u32(&r) - 1u);
	f->thr_fr = (int)(int32_t)(get_u32(&r) - 1u);
	f->horizon_s = (int64_t)get_u64(&r);
	f->alive_s = (int64_t)get_u64(&r);
	f->count_col = (int)(int32_t)(get_u32(&r) - 1u);
	f->count_off = (int)get_u32(&r);
	if (!v3) {
		f->bcount_col = (int)(int32_t)(get_u32(&r) - 1u);
		f->bcount_rep = (int)get_u32(&r);
	}
	/* Column and position numbers are small (-1: not known); flags 0 or 1.
	 * Anything else is a damaged state, not a forum's. */
	if (f->col_created < -1 || f->col_created > 1 || f->idx_fr < -1 || f->idx_fr > 64 ||
	    f->thr_fr < -1 || f->thr_fr > 64 || f->count_col < -1 || f->count_col > 1024 ||
	    f->bcount_col < -1 || f->bcount_col > 1024 || (unsigned)f->count_off > 1 ||
	    (unsigned)f->bcount_rep > 1 || f->horizon_s < 0 || f->alive_s < 0)
		r.bad = 1;
	for (int i = 0; i < 4; i++)
		f->pat[i] = get_str(&r);
	uint32_t nb = get_u32(&r);
	for (uint32_t i = 0; i < nb && !r.bad; i++) {
		char *u = get_str(&r);
		double lc = get_f64(&r);
		int32_t b = web_url(u, 0) ? board_add(f, u) : -1;
		free(u);
		if (b < 0 || (uint32_t)b != i) {
			r.bad = 1;
			break;
		}
		f->boards[b].last_crawl_s = lc;
		if (!v3) {
			f->boards[b].count = (int64_t)get_u64(&r);
			f->boards[b].owed = (int64_t)get_u64(&r);
			f->boards[b].owed_age = get_u32(&r);
			if (!v4)
				f->boards[b].prepaid = (int64_t)get_u64(&r);
		}
	}
	uint32_t nt = get_u32(&r);
	for (uint32_t i = 0; i < nt && !r.bad; i++) {
		char *u = get_str(&r), *title = get_str(&r), *last = get_str(&r);
		int32_t t = web_url(u, 0) && web_url(last, 1) ? thread_add(f, u, 0, title) : -1;
		free(u);
		free(title);
		if (t < 0 || (uint32_t)t != i) {
			free(last);
			r.bad = 1;
			break;
		}
		struct thread *th = &f->threads[t];
		th->last_url = last;
		th->board = (int32_t)get_u32(&r);
		th->sticky = (int)get_u32(&r);
		th->first_post_s = (int64_t)get_u64(&r);
		th->last_post_s = (int64_t)get_u64(&r);
		th->n_posts = get_u32(&r);
		th->last_crawl_s = get_f64(&r);
		th->n_pages = v3 || v4 ? 0 : get_u32(&r);
		th->n_ids = get_u32(&r);
		if (th->n_ids > RECENT_IDS) {
			r.bad = 1;
			break;
		}
		for (uint32_t k = 0; k < th->n_ids; k++) {
			th->ids[k] = get_u64(&r);
			th->id_dates[k] = (int64_t)get_u64(&r);
			uint32_t pg = v3 || v4 ? 0 : get_u32(&r);
			th->id_pages[k] = pg <= UINT16_MAX ? (uint16_t)pg : 0;
		}
	}
	if (r.bad || !web_url(f->start_url, 0) || !web_url(f->entry, 1) || f->isort > FR_SINFO_DSC ||
	    f->tsort > FR_SINFO_DSC) {
		snprintf(err, errlen, "forum state: truncated or damaged (at byte %zu of %zu)", r.off,
			 len);
		fr_sinfo_free(f);
		return -1;
	}
	*out = f;
	return 0;
}

/* ---- cycles ---------------------------------------------------------------- */

enum task_kind {
	T_START,   /* phase 1: the page given */
	T_PROBE,   /* phase 1: an entry page candidate */
	T_INDEX,   /* an index page of a board (board -1: the entry's board list) */
	T_LINK,    /* phase 1 / FoCUS: a row's link, to classify (an index or a thread) */
	T_THREAD,  /* a thread page */
	T_RESUME,  /* no fetch: an index page's rows waiting on a thread (LAD, undated) */
	T_ENTRY    /* phase 2: the entry page, for the boards with news */
};

enum dir {
	D_FULL,       /* every page, from the first, forward */
	D_NEXT,       /* DSC: forward until an old post */
	D_PREV,       /* ASC: backward until an old post */
	D_FIRST_LAST  /* ASC without a last-activity URL: page 1, then last, then back */
};

struct row {
	int32_t thread;  /* known thread, or -1 */
	char *url;       /* the title link, normalised */
	char *title;
	char *la;        /* last-activity URL, or NULL */
	int64_t last_s;  /* the row's last-activity date, NO_DATE unknown */
	int64_t created_s; /* its creation date (shown, or its thread's first post), or NO_DATE */
	int64_t posts;     /* the posts its count column shows, or -1 */
	int64_t slack_s;
	int sticky;
};

struct task {
	enum task_kind kind;
	char *url;
	int32_t board, thread;
	enum dir dir;
	int gate;          /* T_THREAD: an index walk waits on it (a T_RESUME follows) */
	int64_t since;     /* T_THREAD: the thread's newest post known when its collect began
	                      (posts after it are new; NO_DATE: every post not seen is) */
	int64_t want;      /* T_THREAD: the posts its index row counts (-1 not known): the
	                      collect goes on until it has them, and stops there */
	int dry;           /* T_THREAD: pages in a row without a new post */
	struct row *rows;  /* T_RESUME: the rows left */
	size_t n_rows, next_row;
	int last_qualified;
	int64_t last_created; /* the creation date of the last row walked */
	char *index_next;  /* T_RESUME: the board's next index page, or NULL */
};

/* An index page seen in phase 1, for the sort votes. */
struct ipage {
	char *url;
	int32_t board; /* the board it lists, -1 none (the entry: boards as rows) */
	unsigned n_cols;
	size_t n;
	char **row_url;  /* the rows' title links (phase 1 knows their kind only later) */
	int32_t *thread; /* resolved when the sorts are decided */
	int64_t *created, *last, *date;
	unsigned *gran;
	int64_t (*nums)[FR_FPAGE_MAX_NUMS];
	unsigned *n_nums;
};

/* A board's walk in a phase 2 cycle (CRD boards): what its first page
 * showed, for the jumps to old threads at the end. */
struct bwalk {
	struct fr_furl_pager pg; /* the first page's pager (pg.n 0: none) */
	size_t per_page;         /* non-sticky rows of the first page */
	uint32_t fresh;          /* new threads met on its pages this cycle */
	int dated;               /* rows show last activity or a count */
	int started, jumped;
	/* Where the entry page counts the board's posts: how many are new
	 * (-1 not known), how many the rows walked so far account for, and
	 * the old index pages searched for the rest. */
	int64_t want, acc;
	int search_closed;
};

struct post_store {
	struct fr_sinfo_post *v;
	size_t n, cap;
};

struct fr_sinfo_cycle {
	struct fr_sinfo *f;
	const struct fr_sinfo_opts *o;
	double now_s;
	int phase;
	int focus;
	void *undo;
	size_t undo_len;
	struct task *q; /* a deque: q[qh .. qh + qn) */
	size_t qh, qn, qcap;
	struct task cur;
	int have_cur;
	struct fr_strmap *seen; /* URLs fetched or queued this cycle */
	struct post_store posts;
	struct fr_sinfo_vote *votes;
	size_t n_votes, cap_votes;
	char **vote_urls;
	struct ipage *ipages;
	size_t n_ipages, cap_ipages;
	uint32_t *new_in; /* new posts per thread this cycle (grown with threads) */
	size_t cap_new_in;
	size_t max_pages;
	struct fr_sinfo_cycle_stats st;
	char *errs;
	size_t errs_len;
	int probes;
	char *probe_urls[MAX_PROBES];
	int n_probe_urls;
	int start_is_index;
	size_t threads_before; /* threads known when the cycle began */
	struct bwalk *bw;      /* per board (phase 2) */
	size_t n_bw;
	unsigned char *row_seen; /* per thread known at the start: its row was read */
	int settled;
	int oom;
};

static void
cerr(struct fr_sinfo_cycle *c, const char *url, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void
cerr(struct fr_sinfo_cycle *c, const char *url, const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	int n = snprintf(line, sizeof(line), "%s: ", url ? url : "?");

	va_start(ap, fmt);
	vsnprintf(line + n, sizeof(line) - (size_t)n, fmt, ap);
	va_end(ap);
	size_t l = strlen(line);
	if (c->errs_len + l + 2 > MAX_ERRORS_TEXT)
		return;
	char *e = realloc(c->errs, c->errs_len + l + 2);
	if (!e)
		return;
	c->errs = e;
	memcpy(c->errs + c->errs_len, line, l);
	c->errs_len += l;
	c->errs[c->errs_len++] = '\n';
	c->errs[c->errs_len] = 0;
}

static void
task_clear(struct task *t)
{
	free(t->url);
	for (size_t i = 0; i < t->n_rows; i++) {
		free(t->rows[i].url);
		free(t->rows[i].title);
		free(t->rows[i].la);
	}
	free(t->rows);
	free(t->index_next);
	memset(t, 0, sizeof(*t));
}

static int
q_grow(struct fr_sinfo_cycle *c)
{
	if (c->qh + c->qn < c->qcap && c->qh > 0)
		return 0;
	if (c->qh > 0) {
		memmove(c->q, c->q + c->qh, c->qn * sizeof(*c->q));
		c->qh = 0;
		if (c->qn < c->qcap)
			return 0;
	}
	size_t cap = c->qcap ? c->qcap * 2 : 64;
	struct task *q = realloc(c->q, cap * sizeof(*q));
	if (!q)
		return -1;
	c->q = q;
	c->qcap = cap;
	return 0;
}

/* Queues t (taking what it owns) at the back, or at the front. */
static int
q_push(struct fr_sinfo_cycle *c, struct task *t, int front)
{
	if (c->qh + c->qn >= c->qcap || (front && c->qh == 0)) {
		if (q_grow(c) < 0)
			goto oom;
		if (front && c->qh == 0) {
			if (c->qn == c->qcap && q_grow(c) < 0)
				goto oom;
			memmove(c->q + 1, c->q, c->qn * sizeof(*c->q));
			c->qh = 1;
		}
	}
	if (front) {
		c->q[--c->qh] = *t;
	} else {
		c->q[c->qh + c->qn] = *t;
	}
	c->qn++;
	memset(t, 0, sizeof(*t));
	return 0;
oom:
	c->oom = 1;
	task_clear(t);
	return -1;
}

/* Queues a fetch of url (not yet seen this cycle). Returns 1 queued, 0
 * already seen, -1 out of memory. */
static int
enqueue(struct fr_sinfo_cycle *c, enum task_kind kind, const char *url, int32_t board,
	int32_t thread, enum dir dir, int front)
{
	uint32_t id;
	int added;

	if (!url)
		return 0;
	if (fr_strmap_intern(c->seen, url, strlen(url), &id, &added) < 0) {
		c->oom = 1;
		return -1;
	}
	if (!added)
		return 0;
	struct task t = {.kind = kind, .board = board, .thread = thread, .dir = dir};
	if (!(t.url = strdup(url))) {
		c->oom = 1;
		return -1;
	}
	return q_push(c, &t, front) < 0 ? -1 : 1;
}

/* Queues a page of thread `thread`, whose collect counts posts after since
 * as new. */
static int
enqueue_thread(struct fr_sinfo_cycle *c, const char *url, int32_t board, int32_t thread,
	       enum dir dir, int front, int64_t since)
{
	int rc = enqueue(c, T_THREAD, url, board, thread, dir, front);

	if (rc > 0) {
		struct task *t = &c->q[front ? c->qh : c->qh + c->qn - 1];
		t->since = since;
		t->want = -1;
	}
	return rc;
}

/* The task just queued by enqueue_thread at the front or back. */
static struct task *
queued(struct fr_sinfo_cycle *c, int front)
{
	return &c->q[front ? c->qh : c->qh + c->qn - 1];
}

static int
new_in_grow(struct fr_sinfo_cycle *c)
{
	if (c->f->n_threads <= c->cap_new_in)
		return 0;
	size_t cap = c->cap_new_in ? c->cap_new_in : 64;
	while (cap < c->f->n_threads)
		cap *= 2;
	uint32_t *p = realloc(c->new_in, cap * sizeof(*p));
	if (!p)
		return -1;
	memset(p + c->cap_new_in, 0, (cap - c->cap_new_in) * sizeof(*p));
	c->new_in = p;
	c->cap_new_in = cap;
	return 0;
}

static int
has_keyword(const char *url)
{
	static const char *const kw[] = {"forum", "board", "community", "bbs", "discus"};
	char *pq = fr_url_path_query(url);
	int hit = 0;

	if (!pq)
		return 0;
	for (char *p = pq; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	for (size_t i = 0; i < sizeof(kw) / sizeof(kw[0]); i++)
		if (strstr(pq, kw[i]))
			hit = 1;
	for (char *p = pq; *p; p++)
		if (isdigit((unsigned char)*p) || *p == '?')
			hit = 0;
	free(pq);
	return hit;
}

static int
same_host(const char *a, const char *b)
{
	char *ha = fr_url_host(a), *hb = fr_url_host(b);
	int same = ha && hb && strcmp(ha, hb) == 0;

	free(ha);
	free(hb);
	return same;
}

int
fr_sinfo_cycle_begin(struct fr_sinfo *f, const struct fr_sinfo_opts *o, double now_s,
                     struct fr_sinfo_cycle **out, char *err, size_t errlen)
{
	struct fr_sinfo_cycle *c = calloc(1, sizeof(*c));

	if (!c || !(c->seen = fr_strmap_new()))
		goto oom;
	c->f = f;
	c->o = o;
	c->now_s = now_s;
	c->max_pages = o->max_pages ? o->max_pages : 20000;
	c->focus = o->mode == FR_SINFO_FOCUS;
	c->phase = (!f->learned || f->relearn) ? 1 : 2;
	c->threads_before = f->n_threads;
	c->st.phase = c->phase;
	if (fr_sinfo_save(f, &c->undo, &c->undo_len) < 0)
		goto oom;
	c->n_bw = f->n_boards;
	c->bw = calloc(f->n_boards + 1, sizeof(*c->bw));
	c->row_seen = calloc(f->n_threads + 1, 1);
	if (!c->bw || !c->row_seen)
		goto oom;
	for (size_t b = 0; b < c->n_bw; b++)
		c->bw[b].want = -1;
	if (c->phase == 1) {
		if (enqueue(c, T_START, f->start_url, -1, -1, D_FULL, 0) < 0)
			goto oom;
	} else if (c->focus) {
		/* The baseline re-crawls everything its patterns reach. */
		if (enqueue(c, T_INDEX, f->entry, -1, -1, D_FULL, 0) < 0)
			goto oom;
	} else if (f->entry && board_find(f, f->entry) < 0) {
		/* The entry's rows say which boards have news. */
		if (enqueue(c, T_ENTRY, f->entry, -1, -1, D_FULL, 0) < 0)
			goto oom;
	} else {
		for (size_t b = 0; b < f->n_boards; b++)
			if (enqueue(c, T_INDEX, f->boards[b].url, (int32_t)b, -1, D_FULL, 0) < 0)
				goto oom;
	}
	*out = c;
	return 0;
oom:
	snprintf(err, errlen, "forum %s: out of memory", f->start_url);
	if (c) {
		fr_strmap_free(c->seen);
		free(c->undo);
		free(c->q);
		free(c->bw);
		free(c->row_seen);
		free(c);
	}
	return -1;
}

/* ---- posts --------------------------------------------------------------- */

static int64_t
gran_s(unsigned gran)
{
	switch (gran) {
	case FR_FDATE_SECOND: return 0;
	case FR_FDATE_MINUTE: return 60;
	case FR_FDATE_HOUR: return 3600;
	case FR_FDATE_DAY: return 86400;
	case FR_FDATE_WEEK: return 7 * 86400;
	case FR_FDATE_MONTH: return 31 * 86400;
	default: return 366 * 86400;
	}
}

/* The slack of a date: its precision, and for a relative date read
 * without an exact attribute ("3 hours ago", the age floored) one unit
 * more. */
static int64_t
slack_of(unsigned gran, unsigned flags)
{
	int64_t s = gran_s(gran);

	if ((flags & FR_FDATE_RELATIVE) && !(flags & FR_FDATE_FROM_ATTR))
		s *= 2;
	return s;
}

/* The post's id: SHA-1 of its date, author and text. A relative date read
 * without an exact attribute changes from one visit to the next ("2 hours
 * ago", then "1 day ago"), so it enters the id as "~". */
static void
post_id(const struct fr_fpage_record *r, char hex[41])
{
	char date[32];
	const char *a = r->author ? r->author : "", *t = r->text ? r->text : "";

	if ((r->date_flags & FR_FDATE_RELATIVE) && !(r->date_flags & FR_FDATE_FROM_ATTR))
		snprintf(date, sizeof(date), "~");
	else if (r->date_s == NO_DATE)
		snprintf(date, sizeof(date), "-");
	else
		snprintf(date, sizeof(date), "%lld", (long long)(r->date_s / 60 * 60));
	size_t ld = strlen(date), la = strlen(a), lt = strlen(t);
	char *buf = malloc(ld + la + lt + 3);
	if (!buf) {
		snprintf(hex, 41, "%040d", 0);
		return;
	}
	memcpy(buf, date, ld);
	buf[ld] = '\n';
	memcpy(buf + ld + 1, a, la);
	buf[ld + 1 + la] = '\n';
	memcpy(buf + ld + la + 2, t, lt);
	fr_sha1_hex(buf, ld + la + lt + 2, hex);
	free(buf);
}

/* What the thread's ring of recent posts keeps: the author and the text
 * (a post's shown date may change between visits: "Gestern, 20:01", then
 * "29.02.2024, 20:01"; "2 hours ago", then "1 day ago"). */
static uint64_t
content_key(const struct fr_fpage_record *r)
{
	uint64_t h = 1469598103934665603ULL;
	const char *parts[2] = {r->author ? r->author : "", r->text ? r->text : ""};

	for (int k = 0; k < 2; k++) {
		for (const unsigned char *q = (const unsigned char *)parts[k]; *q; q++) {
			h ^= *q;
			h *= 1099511628211ULL;
		}
		h ^= 0xff;
		h *= 1099511628211ULL;
	}
	return h;
}

static int
post_push(struct fr_sinfo_cycle *c, const struct fr_fpage_record *r, const char hex[41],
	  const struct thread *t, const char *page_url, int new_thread)
{
	struct post_store *ps = &c->posts;

	if (ps->n == ps->cap) {
		size_t cap = ps->cap ? ps->cap * 2 : 256;
		struct fr_sinfo_post *v = realloc(ps->v, cap * sizeof(*v));
		if (!v)
			return -1;
		ps->v = v;
		ps->cap = cap;
	}
	struct fr_sinfo_post *p = &ps->v[ps->n];
	memset(p, 0, sizeof(*p));
	memcpy(p->id, hex, 41);
	p->thread_url = t->url;
	p->thread_title = t->title;
	p->page_url = strdup(page_url);
	p->author = xstrdup(r->author);
	p->text = xstrdup(r->text ? r->text : "");
	if (!p->page_url || !p->text || (r->author && !p->author)) {
		free((char *)p->page_url);
		free((char *)p->author);
		free((char *)p->text);
		return -1;
	}
	p->published_s = r->date_s;
	p->gran = r->date_gran;
	p->new_thread = new_thread;
	ps->n++;
	return 0;
}

static void
vote_add(struct fr_sinfo_cycle *c, const char *url, int is_thread, enum fr_sinfo_sort s)
{
	if (c->n_votes == c->cap_votes) {
		size_t cap = c->cap_votes ? c->cap_votes * 2 : 64;
		struct fr_sinfo_vote *v = realloc(c->votes, cap * sizeof(*v));
		char **u = realloc(c->vote_urls, cap * sizeof(*u));
		if (v)
			c->votes = v;
		if (u)
			c->vote_urls = u;
		if (!v || !u) {
			c->oom = 1;
			return;
		}
		c->cap_votes = cap;
	}
	char *d = strdup(url);
	if (!d) {
		c->oom = 1;
		return;
	}
	c->vote_urls[c->n_votes] = d;
	c->votes[c->n_votes].url = d;
	c->votes[c->n_votes].is_thread = is_thread;
	c->votes[c->n_votes].sort = s;
	c->n_votes++;
}

/* Alg. 6: a thread page's own order, by the majority of its consecutive
 * pairs (per depth in nested lists; the leading out-of-order post left
 * out). */
static enum fr_sinfo_sort
thread_page_sort(const struct fr_fpage *p)
{
	size_t asc = 0, desc = 0, dated = 0;
	unsigned top = UINT32_MAX;
	int64_t prev = NO_DATE;

	/* Nested lists show replies under their parents (oldest first,
	 * whatever the thread's order): the order is the top level's. */
	for (size_t i = p->n_lead_out_of_order; i < p->n_recs; i++)
		if (p->recs[i].date_s != NO_DATE && p->recs[i].depth < top)
			top = p->recs[i].depth;
	/* The first post is left out too: a pinned opening post need not be
	 * out of order to be pinned ("with 2 posts, one may be sticky"). */
	size_t from = p->n_lead_out_of_order ? p->n_lead_out_of_order : 1;
	for (size_t i = from; i < p->n_recs; i++) {
		const struct fr_fpage_record *r = &p->recs[i];
		if (r->date_s == NO_DATE || r->depth != top)
			continue;
		dated++;
		if (prev != NO_DATE) {
			if (r->date_s > prev)
				asc++;
			else if (r->date_s < prev)
				desc++;
		}
		prev = r->date_s;
	}
	if (dated < 3 || asc == desc)
		return FR_SINFO_SORT_UNKNOWN;
	return asc > desc ? FR_SINFO_ASC : FR_SINFO_DSC;
}

/* The pager of a page (Alg. 4 over the links outside its records), the
 * position of its number learnt into *fr and its shape into *pat the
 * first time: 1 and *pg (free with fr_furl_pager_free), 0 none, -1 out of
 * memory. */
static int
page_pager(struct fr_sinfo_cycle *c, const struct fr_fpage *p, int *fr, char **pat,
	   struct fr_furl_pager *pg)
{
	const char **urls = malloc((p->n_links + 1) * sizeof(*urls));
	size_t nu = 0;

	if (!urls) {
		c->oom = 1;
		return -1;
	}
	for (size_t i = 0; i < p->n_links; i++)
		if (p->links[i].record < 0)
			urls[nu++] = p->links[i].url;
	char *self = norm(p->url);
	int has = self ? fr_furl_pager_find(self, urls, nu, *fr, pg) : -1;
	free(urls);
	free(self);
	if (has < 0)
		c->oom = 1;
	if (has > 0) {
		if (*fr < 0)
			*fr = pg->from_right;
		if (!*pat && pg->n > 1)
			*pat = fr_furl_shape(fr_furl_pager_last(pg));
	}
	return has;
}

static int
index_pager(struct fr_sinfo_cycle *c, const struct fr_fpage *p, struct fr_furl_pager *pg)
{
	return page_pager(c, p, &c->f->idx_fr, &c->f->pat[1], pg);
}

static int
cmp_date_page_desc(const void *a, const void *b)
{
	int64_t x = ((const int64_t *)a)[0], y = ((const int64_t *)b)[0];
	return (x < y) - (x > y);
}

/* The next page of a nested thread to read for replies still missing
 * (malloc'd, normalised; NULL when every page was read this cycle). The
 * walk began on the page of the thread's newest post when its row links
 * it. Then: the end where new top-level comments go; then, as replies go
 * mostly to recent comments and land right after them, the pages the
 * newest known posts were read on, newest first, each with the page after
 * it (what is inserted pushes the rest on); then every other page, from
 * the end where new comments go. */
static char *
nested_next(struct fr_sinfo_cycle *c, const struct thread *t, const struct fr_furl_pager *pg)
{
	int64_t last = fr_furl_pager_k(pg, pg->n ? pg->n - 1 : 0), order[RECENT_IDS][2];
	if ((int64_t)t->n_pages > last)
		last = t->n_pages; /* pagers that show only their neighbours */
	size_t n = 0;

	if (last < 1)
		return NULL;
	for (uint32_t i = 0; i < t->n_ids; i++)
		if (t->id_pages[i] > 0) {
			order[n][0] = t->id_dates[i];
			order[n][1] = t->id_pages[i];
			n++;
		}
	qsort(order, n, sizeof(*order), cmp_date_page_desc);
	int dsc = c->f->tsort == FR_SINFO_DSC;
	int64_t m = 2 * (int64_t)n;
	for (int64_t step = -1; step < m + last; step++) {
		int64_t k = step < 0 ? (dsc ? 1 : last)
			    : step < m ? order[step / 2][1] + step % 2
			    : dsc      ? step - m + 1
				       : last - (step - m);
		if (k < 1 || k > last)
			continue;
		char *u = fr_furl_pager_url(pg, k);
		char *nu = u ? norm(u) : NULL;
		free(u);
		uint32_t id;
		if (nu && fr_strmap_find(c->seen, nu, strlen(nu), &id) == 0)
			return nu;
		free(nu);
	}
	return NULL;
}

/* Reads a thread page: new posts, the thread's state, the way on. */
static void
on_thread(struct fr_sinfo_cycle *c, struct task *tk, struct fr_fpage *p, size_t body_len)
{
	struct fr_sinfo *f = c->f;
	struct thread *t = &f->threads[tk->thread];
	int new_thread = (size_t)tk->thread >= c->threads_before;
	size_t n_new = 0;
	int has_old = 0;

	if (p->kind != FR_FPAGE_THREAD || p->n_recs == 0) {
		/* One odd page is skipped; the structure is learnt again only
		 * when a board's index page no longer reads as one. */
		cerr(c, tk->url, "not a thread page (read as %s, %zu records)",
		     fr_fpage_kind_name(p->kind), p->n_recs);
		return;
	}
	if (new_in_grow(c) < 0) {
		c->oom = 1;
		return;
	}
	/* The pager first: the page's number goes with the posts it shows. */
	struct fr_furl_pager pg;
	int has = page_pager(c, p, &f->thr_fr, &f->pat[3], &pg);
	if (has < 0)
		return;
	int64_t page_k = has ? fr_furl_pager_k(&pg, pg.cur) : 1;
	if (has && fr_furl_pager_k(&pg, pg.n - 1) > (int64_t)t->n_pages)
		t->n_pages = (uint32_t)fr_furl_pager_k(&pg, pg.n - 1);
	int64_t last_known = tk->since;
	for (size_t i = 0; i < p->n_recs; i++) {
		const struct fr_fpage_record *r = &p->recs[i];
		char hex[41];
		post_id(r, hex);
		uint64_t id = content_key(r);
		int is_new;
		if (ring_has(t, id)) {
			ring_add(t, id, r->date_s, page_k); /* where it is now */
			is_new = 0;
		}
		else if (new_thread || last_known == NO_DATE || r->date_s == NO_DATE)
			is_new = 1;
		else if (t->sticky & NESTED)
			/* A reply deep in the tree may be older than the newest
			 * post known and still unseen: new when the ring of the
			 * newest posts would hold it. */
			is_new = ring_covers(t, r->date_s);
		else
			is_new = r->date_s >= last_known - slack_of(r->date_gran, r->date_flags);
		/* A known post outside the pinned lead is the stop signal. */
		if (!is_new && i >= p->n_lead_out_of_order)
			has_old = 1;
		if (!is_new)
			continue;
		if (post_push(c, r, hex, t, p->url, new_thread) < 0) {
			c->oom = 1;
			fr_furl_pager_free(&pg);
			return;
		}
		ring_add(t, id, r->date_s, page_k);
		n_new++;
		t->n_posts++;
		if (r->date_s != NO_DATE) {
			if (t->last_post_s == NO_DATE || r->date_s > t->last_post_s)
				t->last_post_s = r->date_s;
			if (t->first_post_s == NO_DATE || r->date_s < t->first_post_s)
				t->first_post_s = r->date_s;
		}
	}
	c->new_in[tk->thread] += (uint32_t)n_new;
	c->st.new_posts += n_new;
	if (n_new) {
		c->st.pages_new++;
		c->st.bytes_new += body_len;
	}
	t->last_crawl_s = c->now_s;
	/* Alg. 6 decides on pages with enough posts; the others cast no
	 * vote (the forum's majority covers them). */
	enum fr_sinfo_sort vs = thread_page_sort(p);
	if (vs != FR_SINFO_SORT_UNKNOWN)
		vote_add(c, p->url, 1, vs);

	/* The way on, by the pager's specific numbers. */
	if (has == 0) {
		free(t->last_url);
		t->last_url = norm(p->url);
		return;
	}
	free(t->last_url);
	t->last_url = xstrdup(fr_furl_pager_last(&pg));
	const char *go = NULL;
	enum dir d = tk->dir;
	switch (tk->dir) {
	case D_FULL:
		go = fr_furl_pager_next(&pg);
		break;
	case D_NEXT:
		go = has_old ? NULL : fr_furl_pager_next(&pg);
		break;
	case D_PREV:
		go = has_old ? NULL : fr_furl_pager_prev(&pg);
		break;
	case D_FIRST_LAST:
		/* Page 1 read; with more pages, the newest are at the end. */
		if (pg.cur + 1 < pg.n) {
			go = fr_furl_pager_last(&pg);
			d = D_PREV;
		}
		break;
	}
	/* The row's count says how many posts to expect: the collect stops
	 * once it has them (no page read only to see an old post), and goes
	 * on past old posts while some are missing (replies to old comments
	 * in nested threads), giving up after two pages with nothing new. */
	int dry = n_new ? 0 : tk->dry + 1, nested = 0;
	for (size_t i = 0; i < p->n_recs; i++)
		nested |= p->recs[i].depth > 0;
	if (nested)
		t->sticky |= NESTED;
	nested = (t->sticky & NESTED) != 0;
	char *planned = NULL;
	if (nested && tk->want >= 0 && tk->dir != D_FULL && (int64_t)t->n_posts < tk->want) {
		/* In a nested thread a reply sits under its parent, on any
		 * page: the walk goes on until the count is met, by the pages
		 * most likely to hold the missing replies first. */
		/* It gives up after 4 pages in a row without a new post, and
		 * 2 more per post missing: a long thread is not read whole
		 * for one reply. */
		int64_t missing = tk->want - (int64_t)t->n_posts;
		planned = dry < NESTED_DRY + 2 * missing ? nested_next(c, t, &pg) : NULL;
		go = planned;
	} else if (tk->want >= 0 && tk->dir != D_FULL) {
		if ((int64_t)t->n_posts >= tk->want)
			go = NULL;
		else if (!go && dry < 2)
			go = tk->dir == D_NEXT ? fr_furl_pager_next(&pg)
			     : tk->dir == D_PREV ? fr_furl_pager_prev(&pg)
						 : NULL;
	} else if (tk->want >= 0 && (int64_t)t->n_posts >= tk->want && tk->since != NO_DATE) {
		go = NULL;
	}
	/* A backward walk that began at a last page known from before finds
	 * the thread grown: its newer pages are read too. */
	if (!planned && tk->dir == D_PREV && pg.cur + 1 < pg.n &&
	    c->st.pages + c->qn < c->max_pages) {
		char *l = norm(fr_furl_pager_last(&pg));
		if (l && enqueue_thread(c, l, tk->board, tk->thread, D_PREV, 1, tk->since) > 0) {
			queued(c, 1)->want = tk->want;
			queued(c, 1)->dry = 0;
		}
		free(l);
	}
	/* A walk that ran out of pages short of its count takes the count
	 * for known (posts hidden or deleted): it is not walked again for
	 * them. */
	if (!go && tk->want > (int64_t)t->n_posts)
		t->n_posts = (uint32_t)tk->want;
	/* More than the row counted: posts that came since it was read. */
	if (!go && tk->want >= 0 && (int64_t)t->n_posts > tk->want && t->board >= 0 &&
	    (size_t)t->board < f->n_boards && f->bcount_col >= 0)
		f->boards[t->board].prepaid += (int64_t)t->n_posts - tk->want;
	if (go && c->st.pages + c->qn < c->max_pages) {
		char *g = norm(go);
		if (g && enqueue_thread(c, g, tk->board, tk->thread, d, 1, tk->since) > 0) {
			queued(c, 1)->want = tk->want;
			queued(c, 1)->dry = dry;
		}
		free(g);
	}
	free(planned);
	fr_furl_pager_free(&pg);
}

/* ---- index pages --------------------------------------------------------- */

static void
ipage_free(struct ipage *ip)
{
	for (size_t i = 0; ip->row_url && i < ip->n; i++)
		free(ip->row_url[i]);
	free(ip->row_url);
	free(ip->url);
	free(ip->thread);
	free(ip->created);
	free(ip->last);
	free(ip->date);
	free(ip->gran);
	free(ip->nums);
	free(ip->n_nums);
}

static char *row_url(const struct fr_fpage *p, const struct fr_fpage_record *r);

static int
ipage_add(struct fr_sinfo_cycle *c, const struct fr_fpage *p)
{
	if (c->n_ipages == c->cap_ipages) {
		size_t cap = c->cap_ipages ? c->cap_ipages * 2 : 32;
		struct ipage *v = realloc(c->ipages, cap * sizeof(*v));
		if (!v)
			return -1;
		c->ipages = v;
		c->cap_ipages = cap;
	}
	struct ipage *ip = &c->ipages[c->n_ipages];
	memset(ip, 0, sizeof(*ip));
	ip->url = strdup(p->url);
	ip->n = p->n_recs;
	ip->n_cols = p->n_date_cols;
	ip->row_url = calloc(p->n_recs + 1, sizeof(*ip->row_url));
	ip->thread = malloc((p->n_recs + 1) * sizeof(*ip->thread));
	ip->created = malloc((p->n_recs + 1) * sizeof(int64_t));
	ip->last = malloc((p->n_recs + 1) * sizeof(int64_t));
	ip->date = malloc((p->n_recs + 1) * sizeof(int64_t));
	ip->gran = malloc((p->n_recs + 1) * sizeof(unsigned));
	ip->nums = malloc((p->n_recs + 1) * sizeof(*ip->nums));
	ip->n_nums = malloc((p->n_recs + 1) * sizeof(unsigned));
	if (!ip->url || !ip->row_url || !ip->thread || !ip->created || !ip->last || !ip->date ||
	    !ip->gran || !ip->nums || !ip->n_nums) {
		ip->n = 0;
		ipage_free(ip);
		return -1;
	}
	for (size_t i = 0; i < p->n_recs; i++) {
		ip->row_url[i] = row_url(p, &p->recs[i]);
		ip->thread[i] = -1;
		ip->created[i] = p->recs[i].created_s;
		ip->last[i] = p->recs[i].last_s;
		ip->date[i] = p->recs[i].date_s;
		ip->gran[i] = p->recs[i].date_gran;
		memcpy(ip->nums[i], p->recs[i].nums, sizeof(ip->nums[i]));
		ip->n_nums[i] = p->recs[i].n_nums;
	}
	c->n_ipages++;
	return 0;
}

/* The row's title URL, normalised (malloc'd), or NULL. */
static char *
row_url(const struct fr_fpage *p, const struct fr_fpage_record *r)
{
	if (r->title_link < 0 || (size_t)r->title_link >= p->n_links)
		return NULL;
	return norm(p->links[r->title_link].url);
}

/* The row's last-activity date as the forum's learnt columns give it. */
static int64_t
row_last(const struct fr_sinfo *f, const struct fr_fpage *p, const struct fr_fpage_record *r)
{
	if (p->n_date_cols >= 2)
		return r->last_s;
	if (p->n_date_cols == 1 && f->col_created == 0)
		return r->date_s;
	return NO_DATE;
}

static void walk_rows(struct fr_sinfo_cycle *c, struct task *tk);

/* The board's next index page from p's pager (normalised, malloc'd), or
 * NULL. */
static char *
index_next(struct fr_sinfo_cycle *c, const struct fr_fpage *p)
{
	struct fr_furl_pager pg;
	char *next = NULL;

	if (index_pager(c, p, &pg) <= 0)
		return NULL;
	const char *n = fr_furl_pager_next(&pg);
	if (n)
		next = norm(n);
	fr_furl_pager_free(&pg);
	return next;
}

static int
cmp_first_desc(const void *a, const void *b)
{
	int64_t x = ((const int64_t *)a)[0], y = ((const int64_t *)b)[0];
	return (x < y) - (x > y);
}

/* The mean gap between the newest posts a thread keeps, or 0. */
static int64_t
mean_gap(const struct thread *th)
{
	int64_t lo = INT64_MAX, hi = INT64_MIN;
	uint32_t n = 0;

	for (uint32_t i = 0; i < th->n_ids; i++) {
		if (th->id_dates[i] == NO_DATE)
			continue;
		n++;
		if (th->id_dates[i] < lo)
			lo = th->id_dates[i];
		if (th->id_dates[i] > hi)
			hi = th->id_dates[i];
	}
	return n >= 2 ? (hi - lo) / (n - 1) : 0;
}

/* When thread th was last known (read, or its row seen without news). */
static double
known_at(const struct thread *th, double now_s)
{
	return th->last_crawl_s > 0 ? th->last_crawl_s : now_s;
}

/* A thread's expected gap between posts now: its mean gap, or its silence
 * when that is longer (threads slow down as they age); a minute at least. */
static double
thread_gap(const struct thread *th, double now_s)
{
	double gap = (double)mean_gap(th), silence = known_at(th, now_s) - (double)th->last_post_s;

	if (silence > gap)
		gap = silence;
	return gap < 60 ? 60 : gap;
}

/* A thread's rate of posts now, per second. */
static double
thread_rate(const struct thread *th, double now_s)
{
	return 1 / thread_gap(th, now_s);
}

/* The chance that thread th got a post between when it was last known and
 * now: a Poisson process at its rate. */
static double
news_chance(const struct thread *th, double now_s)
{
	return 1 - exp(-(now_s - known_at(th, now_s)) / thread_gap(th, now_s));
}

/* Whether thread th was alive when last known: a post within alive_s of
 * then (posts since are what is looked for: a month between cycles, as in
 * the thesis, is longer than threads stay quiet). */
static int
alive_when_known(const struct thread *th, double now_s, int64_t alive_s)
{
	return th->last_post_s != NO_DATE &&
	       th->last_post_s >= (int64_t)known_at(th, now_s) - alive_s;
}

/* The board's threads before this cycle (stickies and undated left out) as
 * (first post, thread) pairs, newest first: rank r sits on index page
 * (r + new threads) / per_page + 1 of a CRD board. malloc'd, *n of them;
 * NULL (c->oom set) when out of memory. */
static int64_t (*board_by_creation(struct fr_sinfo_cycle *c, int32_t b, size_t *n))[2]
{
	int64_t(*rank)[2] = malloc((c->threads_before + 1) * sizeof(*rank));

	*n = 0;
	if (!rank) {
		c->oom = 1;
		return NULL;
	}
	for (size_t t = 0; t < c->threads_before; t++) {
		const struct thread *th = &c->f->threads[t];
		if (th->board == b && !(th->sticky & 1) && th->first_post_s != NO_DATE) {
			rank[*n][0] = th->first_post_s;
			rank[*n][1] = (int64_t)t;
			(*n)++;
		}
	}
	qsort(rank, *n, sizeof(*rank), cmp_first_desc);
	return rank;
}

/* Asks index page k of board b when the chances of news on it reach
 * JUMP_P. */
static void
flush_jump(struct fr_sinfo_cycle *c, struct bwalk *w, int32_t b, int64_t k, double p)
{
	if (k < 1 || p < JUMP_P)
		return;
	char *u = fr_furl_pager_url(&w->pg, k);
	char *nu = u ? norm(u) : NULL;
	if (nu)
		enqueue(c, T_INDEX, nu, b, -1, D_FULL, 0);
	free(u);
	free(nu);
}

/* How known thread t is read for news (Alg. 8): DSC from page 1 forward;
 * ASC back from the row's last-activity URL la (NULL: none), or without
 * one forward from the last page known (else page 1, then the last).
 * *start: the page to begin at, a borrowed pointer (la, or t's). */
static enum dir
news_dir(const struct fr_sinfo *f, const struct thread *t, const char *la, const char **start)
{
	enum dir d = f->tsort == FR_SINFO_DSC ? D_NEXT
		     : la                     ? D_PREV
		     : t->last_url            ? D_FULL
					      : D_FIRST_LAST;

	*start = d == D_PREV ? la : d == D_FULL ? t->last_url : t->url;
	return d;
}

/* CRD boards, once the walk has passed the new threads: old threads still
 * alive when last known (a post within the forum's alive window) do not
 * rise to the top when they get replies. Where rows show last activity or
 * a count, the index page each one sits on is fetched: its number is the
 * thread's rank by creation behind the new threads, its URL made from the
 * pager's template and step (navigation by specific number); one page
 * serves every alive thread on it. Otherwise the thread itself is read. */
static void crd_search(struct fr_sinfo_cycle *c, int32_t b);

static void
crd_alive(struct fr_sinfo_cycle *c, int32_t b)
{
	struct fr_sinfo *f = c->f;
	struct bwalk *w = &c->bw[b];
	size_t n = 0;
	int64_t alive_s = f->alive_s > 0 ? f->alive_s : 7 * 86400;

	int64_t jump_k = 0;
	double jump_p = 0;

	if (w->jumped || !w->started || w->per_page == 0)
		return;
	if (w->want >= 0 && f->count_col >= 0 && w->dated && w->pg.n) {
		crd_search(c, b);
		return;
	}
	w->jumped = 1;
	int64_t(*rank)[2] = board_by_creation(c, b, &n);
	if (!rank)
		return;
	for (size_t r = 0; r < n; r++) {
		size_t t = (size_t)rank[r][1];
		const struct thread *th = &f->threads[t];
		if (c->row_seen[t] || !alive_when_known(th, c->now_s, alive_s))
			continue;
		if (w->dated && w->pg.n) {
			/* The page is asked once the chances that one of its
			 * alive threads has news add up (a thread left out
			 * stays alive: its chance grows with the time since
			 * it was last known, so it is asked later, not lost). */
			int64_t k = (int64_t)((r + w->fresh) / w->per_page) + 1;
			if (k != jump_k) {
				flush_jump(c, w, b, jump_k, jump_p);
				jump_k = k;
				jump_p = 0;
			}
			jump_p += news_chance(th, c->now_s);
		} else if (!w->dated) {
			const char *start;
			enum dir d = news_dir(f, th, NULL, &start);
			enqueue_thread(c, start, b, (int32_t)t, d, 0, th->last_post_s);
		}
	}
	flush_jump(c, w, b, jump_k, jump_p);
	free(rank);
}

static int
cmp_page_p(const void *a, const void *b)
{
	const double *x = a, *y = b;
	double px = x[1] > x[2] ? x[1] : x[2], py = y[1] > y[2] ? y[1] : y[2];
	return (px < py) - (px > py);
}

/* CRD boards whose posts the entry page counts (and whose rows count
 * theirs): the walk's rows account for some of the posts the board
 * gained; the rest are replies to older threads, on its older index pages.
 * When the books balance, no old page is read at all. Otherwise the pages
 * are read one at a time (this runs again when each has been walked),
 * the likeliest first, while one is likely enough (JUMP_P) by either of
 * two chances: that of crd_alive (its alive threads' news), or that one of
 * the missing posts is on it, the missing posts having gone to the unseen
 * threads in proportion to their rates (every thread counts there, the
 * quiet ones with their small rate: a thread revived after a long silence
 * is found so). What is still missing then is owed: looked for again next
 * cycle (the pages' threads, seen now, weigh less then), for OWED_CYCLES
 * cycles. */
static void
crd_search(struct fr_sinfo_cycle *c, int32_t b)
{
	struct fr_sinfo *f = c->f;
	struct bwalk *w = &c->bw[b];
	struct board *bd = &f->boards[b];
	int64_t missing = w->want - w->acc;
	int64_t alive_s = f->alive_s > 0 ? f->alive_s : 7 * 86400;

	if (missing <= 0 || w->search_closed) {
		w->jumped = 1; /* the books are closed for this cycle */
		if (missing > 0) {
			bd->owed_age = bd->owed > 0 ? bd->owed_age + 1 : 0;
			bd->owed = missing;
		} else {
			bd->owed = 0;
			bd->owed_age = 0;
			/* Posts that came after the count was read: the next
			 * reading holds them, and they are known. */
			bd->count += -missing;
		}
		return;
	}
	size_t n;
	int64_t(*rank)[2] = board_by_creation(c, b, &n);
	size_t n_pages = (c->threads_before + w->fresh) / w->per_page + 2;
	double(*pages)[3] = rank ? calloc(n_pages, sizeof(*pages)) : NULL;
	if (!rank || !pages) {
		free(rank);
		c->oom = 1;
		return;
	}
	for (size_t k = 0; k < n_pages; k++)
		pages[k][0] = (double)k + 1;
	double total = 0;
	for (size_t r = 0; r < n; r++) {
		const struct thread *th = &f->threads[rank[r][1]];
		size_t k = (r + w->fresh) / w->per_page;
		if (!c->row_seen[rank[r][1]] && th->last_post_s != NO_DATE && k < n_pages) {
			double rate = thread_rate(th, c->now_s);
			pages[k][1] += rate;
			/* As crd_alive would: threads alive when last known. */
			if (alive_when_known(th, c->now_s, alive_s))
				pages[k][2] += news_chance(th, c->now_s);
			total += rate;
		}
	}
	/* The missing posts went to the unseen threads in proportion to
	 * their rates: the chance that page k holds one of them. */
	for (size_t k = 0; k < n_pages && total > 0; k++)
		pages[k][1] = 1 - pow(1 - pages[k][1] / total, (double)missing);
	qsort(pages, n_pages, sizeof(*pages), cmp_page_p);
	int queued_one = 0;
	for (size_t i = 0; i < n_pages && !queued_one; i++) {
		if (pages[i][1] < JUMP_P && pages[i][2] < JUMP_P)
			continue;
		char *u = fr_furl_pager_url(&w->pg, (int64_t)pages[i][0]);
		char *nu = u ? norm(u) : NULL;
		if (nu && enqueue(c, T_INDEX, nu, b, -1, D_FULL, 0) > 0)
			queued_one = 1;
		free(u);
		free(nu);
	}
	free(rank);
	free(pages);
	if (queued_one)
		return;
	w->search_closed = 1; /* nothing left to search: close the books */
	crd_search(c, b);
}

/* Phase 1 and FoCUS: an index page's rows are followed whatever they are
 * (fetched to be classified), and every page of the board. */
static void
on_index_full(struct fr_sinfo_cycle *c, struct task *tk, struct fr_fpage *p, size_t body_len)
{
	struct fr_sinfo *f = c->f;
	int32_t *th = malloc((p->n_recs + 1) * sizeof(*th));
	size_t fresh = 0;

	if (!th) {
		c->oom = 1;
		return;
	}
	for (size_t i = 0; i < p->n_recs; i++) {
		char *u = row_url(p, &p->recs[i]);
		th[i] = -1;
		if (!u || !same_host(u, p->url)) {
			free(u);
			continue;
		}
		int32_t t = thread_find(f, u);
		th[i] = t;
		if (t >= 0) {
			/* Known: with FoCUS, re-crawled in full. */
			struct thread *tt = &f->threads[t];
			if (!tt->title && p->links[p->recs[i].title_link].text[0])
				tt->title = xstrdup(p->links[p->recs[i].title_link].text);
			int64_t last = row_last(f, p, &p->recs[i]);
			if (last != NO_DATE && tt->last_post_s != NO_DATE &&
			    last > tt->last_post_s + slack_of(p->recs[i].date_gran, p->recs[i].date_flags))
				fresh++;
			if (c->focus && c->phase == 2)
				enqueue_thread(c, u, tk->board, t, D_FULL, 0, tt->last_post_s);
		} else if (board_find(f, u) >= 0) {
			if (c->focus && c->phase == 2)
				enqueue(c, T_INDEX, u, board_find(f, u), -1, D_FULL, 0);
		} else {
			if (enqueue(c, T_LINK, u, tk->board, -1, D_FULL, 0) > 0) {
				/* The row's title, for when it leads to a thread. */
				struct task *q = queued(c, 0);
				q->rows = calloc(1, sizeof(*q->rows));
				if (q->rows) {
					q->rows->title = xstrdup(p->links[p->recs[i].title_link].text);
					q->n_rows = 1;
				}
				fresh++;
			}
		}
		free(u);
	}
	if (c->phase == 1 && ipage_add(c, p) < 0)
		c->oom = 1;
	else if (c->phase == 1)
		c->ipages[c->n_ipages - 1].board = tk->board;
	free(th);
	if (fresh) {
		c->st.pages_new++;
		c->st.bytes_new += body_len;
	}
	if (tk->board >= 0)
		f->boards[tk->board].last_crawl_s = c->now_s;
	char *next = index_next(c, p);
	if (next) {
		enqueue(c, T_INDEX, next, tk->board, -1, D_FULL, 0);
		free(next);
	}
}

/* Whether an index row shows news in known thread t: a count is exact, so
 * more posts than known is news (with or without a date); a date read
 * coarsely ("23 hours ago") is only news past its slack. */
static int
row_news(const struct thread *t, const struct row *rw)
{
	if (rw->posts > (int64_t)t->n_posts)
		return 1;
	return rw->last_s != NO_DATE &&
	       (t->last_post_s == NO_DATE || rw->last_s > t->last_post_s + rw->slack_s);
}

/* Phase 2 (Alg. 7): the rows of a board's index page, from tk->next_row. */
static void
walk_rows(struct fr_sinfo_cycle *c, struct task *tk)
{
	struct fr_sinfo *f = c->f;

	while (tk->next_row < tk->n_rows) {
		struct row *rw = &tk->rows[tk->next_row++];
		int qualifies = 0;

		if (rw->thread < 0) {
			int32_t t = thread_add(f, rw->url, tk->board, rw->title);
			if (t < 0) {
				c->oom = 1;
				return;
			}
			rw->thread = t;
			c->st.new_threads++;
			if ((size_t)tk->board < c->n_bw) {
				c->bw[tk->board].fresh++;
				if (rw->posts > 0)
					c->bw[tk->board].acc += rw->posts - f->bcount_rep;
			}
			enqueue_thread(c, rw->url, tk->board, t, D_FULL, 0, NO_DATE);
			qualifies = 1;
		} else {
			struct thread *t = &f->threads[rw->thread];
			if ((size_t)rw->thread < c->threads_before)
				c->row_seen[rw->thread] = 1;
			const char *start;
			enum dir d = news_dir(f, t, rw->la, &start);
			/* A nested thread's new replies may sit on any page: with
			 * a count to stop at, it is read from page 1 on. */
			if ((t->sticky & NESTED) && rw->posts >= 0) {
				/* (The newest post's page when the row links it, else
				 * newest top-level first, or from the end back.) */
				d = f->tsort == FR_SINFO_DSC || !t->last_url ? D_NEXT : D_PREV;
				start = rw->la ? rw->la : d == D_NEXT ? t->url : t->last_url;
			}
			if (rw->last_s != NO_DATE || rw->posts >= 0) {
				int more = rw->posts > (int64_t)t->n_posts;
				qualifies = row_news(t, rw);
				if (more && (size_t)tk->board < c->n_bw)
					c->bw[tk->board].acc += rw->posts - (int64_t)t->n_posts;
				if (!qualifies)
					t->last_crawl_s = c->now_s; /* known quiet till now */
				if (qualifies && enqueue_thread(c, start, tk->board, rw->thread, d, 0,
								t->last_post_s) > 0)
					queued(c, 0)->want = rw->posts;
			} else if (f->isort == FR_SINFO_LAD) {
				/* Undated rows of a LAD board: the thread itself
				 * says whether it has news, and the walk waits for
				 * it (stickies excepted: they never stop it). */
				if (enqueue_thread(c, start, tk->board, rw->thread, d, 1,
						   t->last_post_s) <= 0)
					continue;
				if (rw->sticky)
					continue;
				/* Behind the thread's first page (and every page it
				 * leads to, which go to the front) comes the rest of
				 * this walk. */
				struct task th = c->q[c->qh];
				c->qh++;
				c->qn--;
				struct task rest = {.kind = T_RESUME,
						    .last_created = tk->last_created,
						    .board = tk->board,
						    .thread = rw->thread,
						    .rows = tk->rows,
						    .n_rows = tk->n_rows,
						    .next_row = tk->next_row,
						    .last_qualified = 1,
						    .index_next = tk->index_next};
				tk->rows = NULL;
				tk->n_rows = tk->next_row = 0;
				tk->index_next = NULL;
				q_push(c, &rest, 1);
				q_push(c, &th, 1);
				return;
			}
		}
		tk->last_qualified = qualifies || rw->sticky;
		if (!rw->sticky)
			tk->last_created = rw->created_s;
	}
	int go_on = tk->last_qualified;
	if (go_on && tk->index_next && c->st.pages + c->qn < c->max_pages &&
	    enqueue(c, T_INDEX, tk->index_next, tk->board, -1, D_FULL, 1) > 0)
		return;
	/* The walk ends here: CRD boards' older threads with news. */
	if (f->isort == FR_SINFO_CRD && tk->board >= 0 && (size_t)tk->board < c->n_bw)
		crd_alive(c, tk->board);
}

static void
on_index_incremental(struct fr_sinfo_cycle *c, struct task *tk, struct fr_fpage *p,
		     size_t body_len)
{
	struct fr_sinfo *f = c->f;

	if (p->kind != FR_FPAGE_INDEX || p->n_recs == 0) {
		cerr(c, tk->url, "not an index page any more (read as %s, %zu rows): phase 1 again "
			      "next cycle", fr_fpage_kind_name(p->kind), p->n_recs);
		f->relearn = 1;
		return;
	}
	tk->rows = calloc(p->n_recs, sizeof(*tk->rows));
	if (!tk->rows) {
		c->oom = 1;
		return;
	}
	size_t news = 0;
	for (size_t i = 0; i < p->n_recs; i++) {
		const struct fr_fpage_record *r = &p->recs[i];
		char *u = row_url(p, r);
		if (!u)
			continue;
		if (board_find(f, u) >= 0 || !same_host(u, p->url)) {
			free(u);
			continue;
		}
		struct row *rw = &tk->rows[tk->n_rows++];
		rw->url = u;
		rw->title = xstrdup(p->links[r->title_link].text);
		rw->thread = thread_find(f, u);
		rw->last_s = row_last(f, p, r);
		rw->created_s = p->n_date_cols >= 2                        ? r->created_s
				: p->n_date_cols == 1 && f->col_created == 1 ? r->date_s
				: rw->thread >= 0 ? f->threads[rw->thread].first_post_s
						  : NO_DATE;
		rw->slack_s = slack_of(r->date_gran, r->date_flags);
		rw->sticky = rw->thread >= 0 && (f->threads[rw->thread].sticky & 1);
		rw->posts = f->count_col >= 0 && (unsigned)f->count_col < r->n_nums
				    ? r->nums[f->count_col] + f->count_off
				    : -1;
		const char **urls = malloc((r->n_links + 1) * sizeof(*urls));
		if (urls) {
			for (uint32_t k = 0; k < r->n_links; k++)
				urls[k] = p->links[r->first_link + k].url;
			const char *la = fr_furl_last_activity(p->links[r->title_link].url, urls,
							       r->n_links);
			if (la)
				rw->la = norm(la);
			free(urls);
		}
		if (rw->thread < 0 || row_news(&f->threads[rw->thread], rw))
			news++;
	}
	if (news) {
		c->st.pages_new++;
		c->st.bytes_new += body_len;
	}
	tk->index_next = index_next(c, p);
	if (f->isort == FR_SINFO_CRD && (size_t)tk->board < c->n_bw && !c->bw[tk->board].started) {
		struct bwalk *w = &c->bw[tk->board];
		w->started = 1;
		w->dated = p->n_date_cols >= 2 || (p->n_date_cols == 1 && f->col_created == 0) ||
			   f->count_col >= 0;
		for (size_t i = 0; i < tk->n_rows; i++)
			w->per_page += !tk->rows[i].sticky;
		if (index_pager(c, p, &w->pg) <= 0)
			memset(&w->pg, 0, sizeof(w->pg));
	}
	tk->next_row = 0;
	tk->last_qualified = 0;
	tk->last_created = NO_DATE;
	f->boards[tk->board].last_crawl_s = c->now_s;
	walk_rows(c, tk);
}

/* Whether url is shaped as a known board's address: the same shape
 * (digits and slugs aside), or one number apart. */
static int
like_a_board(const struct fr_sinfo *f, const char *url)
{
	char *shape = fr_furl_shape(url);
	int like = 0;

	for (size_t b = 0; b < f->n_boards && !like; b++) {
		struct fr_furl_num n;
		char *bs = shape ? fr_furl_shape(f->boards[b].url) : NULL;
		like = (bs && strcmp(bs, shape) == 0) || fr_furl_diff1(url, f->boards[b].url, &n);
		free(bs);
	}
	free(shape);
	return like;
}

/* Phase 2: the entry page lists the boards with their last activity; only
 * boards with news are walked (all of them when the rows show no date, or
 * the page cannot be read). */
static void
on_entry(struct fr_sinfo_cycle *c, struct fr_fpage *p, size_t body_len)
{
	struct fr_sinfo *f = c->f;
	unsigned char *listed = calloc(f->n_boards + 1, 1);
	int64_t *newest = malloc((f->n_boards + 1) * sizeof(*newest));
	size_t news = 0;

	if (!listed || !newest) {
		free(listed);
		free(newest);
		c->oom = 1;
		return;
	}
	for (size_t b = 0; b < f->n_boards; b++)
		newest[b] = NO_DATE;
	for (size_t t = 0; t < f->n_threads; t++) {
		const struct thread *th = &f->threads[t];
		if (th->board >= 0 && (size_t)th->board < f->n_boards && th->last_post_s != NO_DATE &&
		    th->last_post_s > newest[th->board])
			newest[th->board] = th->last_post_s;
	}
	for (size_t i = 0; p && p->kind == FR_FPAGE_INDEX && i < p->n_recs; i++) {
		const struct fr_fpage_record *r = &p->recs[i];
		char *u = row_url(p, r);
		int32_t b = u ? board_find(f, u) : -1;
		if (b < 0 && u && same_host(u, p->url) && like_a_board(f, u))
			/* A board opened since phase 1: read it (on_link adds it
			 * when it reads as an index, and its threads as new). */
			enqueue(c, T_LINK, u, -1, -1, D_FULL, 0);
		free(u);
		if (b < 0)
			continue;
		int64_t last = p->n_date_cols >= 2 ? r->last_s : r->date_s;
		/* The board's count of posts, where it shows one, is exact:
		 * what it gained is what the walk looks for (with what earlier
		 * walks did not find). */
		int counted = 0;
		struct board *bd = &f->boards[b];
		if (f->bcount_col >= 0 && (unsigned)f->bcount_col < r->n_nums) {
			int64_t now = r->nums[f->bcount_col];
			if (bd->count >= 0 && (size_t)b < c->n_bw) {
				int64_t gained = now > bd->count ? now - bd->count : 0;
				gained = gained > bd->prepaid ? gained - bd->prepaid : 0;
				bd->prepaid = 0;
				if (bd->owed_age >= OWED_CYCLES)
					bd->owed = 0;
				c->bw[b].want = gained + bd->owed;
				counted = c->bw[b].want > 0;
			}
			bd->count = now;
		}
		if (counted || last == NO_DATE || newest[b] == NO_DATE ||
		    last > newest[b] + slack_of(r->date_gran, r->date_flags)) {
			enqueue(c, T_INDEX, f->boards[b].url, b, -1, D_FULL, 0);
			news++;
		}
		listed[b] = 1;
	}
	for (size_t b = 0; b < f->n_boards; b++)
		if (!listed[b])
			enqueue(c, T_INDEX, f->boards[b].url, (int32_t)b, -1, D_FULL, 0);
	if (news) {
		c->st.pages_new++;
		c->st.bytes_new += body_len;
	}
	free(listed);
	free(newest);
}

/* ---- phase 1 ------------------------------------------------------------- */

static void
set_entry(struct fr_sinfo_cycle *c, const char *url)
{
	free(c->f->entry);
	c->f->entry = xstrdup(url);
	if (!c->f->entry)
		c->oom = 1;
}

static void
on_start(struct fr_sinfo_cycle *c, struct task *tk, struct fr_fpage *p, size_t body_len)
{
	char *pq = fr_url_path_query(p->url);
	int root = pq && strcmp(pq, "/") == 0;

	free(pq);
	c->start_is_index = p->kind == FR_FPAGE_INDEX;
	if (p->kind == FR_FPAGE_INDEX && (root || has_keyword(p->url))) {
		set_entry(c, tk->url);
		on_index_full(c, tk, p, body_len);
		return;
	}
	/* The entry: a link to a forum-looking address, else the site's home. */
	for (size_t i = 0; i < p->n_links && c->n_probe_urls < MAX_PROBES - 1; i++) {
		const char *u = p->links[i].url;
		if (!same_host(u, p->url) || !has_keyword(u))
			continue;
		char *n = norm(u);
		int dup = !n;
		for (int k = 0; n && k < c->n_probe_urls; k++)
			dup |= strcmp(c->probe_urls[k], n) == 0;
		if (dup) {
			free(n);
			continue;
		}
		c->probe_urls[c->n_probe_urls++] = n;
	}
	/* Shortest first: the forum's root before its boards. */
	for (int i = 1; i < c->n_probe_urls; i++)
		for (int k = i; k > 0 && strlen(c->probe_urls[k]) < strlen(c->probe_urls[k - 1]); k--) {
			char *t = c->probe_urls[k];
			c->probe_urls[k] = c->probe_urls[k - 1];
			c->probe_urls[k - 1] = t;
		}
	char *home = fr_url_resolve(p->url, "/", NULL, 0);
	if (home) {
		char *n = norm(home);
		free(home);
		if (n)
			c->probe_urls[c->n_probe_urls++] = n;
	}
	c->probes = 0;
	while (c->probes < c->n_probe_urls) {
		if (enqueue(c, T_PROBE, c->probe_urls[c->probes], -1, -1, D_FULL, 1) > 0)
			return;
		c->probes++;
	}
	if (p->kind == FR_FPAGE_INDEX) {
		set_entry(c, tk->url);
		on_index_full(c, tk, p, body_len);
	} else {
		cerr(c, tk->url, "no forum index page found from here");
	}
}

static void
on_probe(struct fr_sinfo_cycle *c, struct task *tk, struct fr_fpage *p, size_t body_len)
{
	if (p && p->kind == FR_FPAGE_INDEX) {
		set_entry(c, tk->url);
		on_index_full(c, tk, p, body_len);
		return;
	}
	while (++c->probes < c->n_probe_urls)
		if (enqueue(c, T_PROBE, c->probe_urls[c->probes], -1, -1, D_FULL, 1) > 0)
			return;
	if (c->start_is_index) {
		/* Fetch the start page again as the entry. */
		struct fr_strmap *s = fr_strmap_new();
		if (s) {
			fr_strmap_free(c->seen);
			c->seen = s;
			set_entry(c, c->f->start_url);
			enqueue(c, T_INDEX, c->f->start_url, -1, -1, D_FULL, 1);
			return;
		}
	}
	cerr(c, c->f->start_url, "no forum index page found from here");
}

/* A row's link: a board (an index page) or a thread. */
static void
on_link(struct fr_sinfo_cycle *c, struct task *tk, struct fr_fpage *p, size_t body_len)
{
	struct fr_sinfo *f = c->f;

	/* Phase 2 follows links only from the entry page, for new boards. */
	if (c->phase == 2 && tk->board < 0 && p->kind != FR_FPAGE_INDEX)
		return;
	if (p->kind == FR_FPAGE_INDEX) {
		int32_t b = board_add(f, tk->url);
		if (b < 0) {
			c->oom = 1;
			return;
		}
		if (!f->pat[0])
			f->pat[0] = fr_furl_shape(tk->url);
		tk->board = b;
		on_index_full(c, tk, p, body_len);
	} else if (p->kind == FR_FPAGE_THREAD) {
		const char *title = tk->n_rows ? tk->rows[0].title : NULL;
		int32_t t = thread_add(f, tk->url, tk->board, title);
		if (t < 0) {
			c->oom = 1;
			return;
		}
		if (!f->pat[2])
			f->pat[2] = fr_furl_shape(tk->url);
		if (c->phase == 2)
			c->st.new_threads++;
		tk->thread = t;
		tk->dir = D_FULL;
		tk->since = NO_DATE;
		on_thread(c, tk, p, body_len);
	}
}

/* Per-page sort votes of phase 1's index pages (Alg. 5), the forum's
 * majority, the one-column type, and the stickies. */
/* How often a column's dated values rise from one row to the next (a
 * descending column: never, but after its leading stickies), and after
 * which row the last rise is (*lead, the stickies' count when the rises
 * are all at the top). */
static size_t
rises(const int64_t *v, size_t n, size_t *lead)
{
	size_t r = 0, last_rise = 0;
	int64_t prev = NO_DATE;

	for (size_t k = 0; k < n; k++) {
		if (v[k] == NO_DATE)
			continue;
		if (prev != NO_DATE && v[k] > prev) {
			r++;
			last_rise = k;
		}
		prev = v[k];
	}
	*lead = last_rise;
	return r;
}

static int
cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/* The row number that counts, by its tally hit[j][v] (column j of a row's
 * numbers, v 0 or 1: the variant matched): the (j, v) with the most hits,
 * the first on a tie, into *col and *v; left as they are when nothing
 * hit. Returns its hits. */
static size_t
most_hits(size_t hit[FR_FPAGE_MAX_NUMS][2], int *col, int *v)
{
	size_t best = 0;

	for (int j = 0; j < FR_FPAGE_MAX_NUMS; j++)
		for (int k = 0; k < 2; k++)
			if (hit[j][k] > best) {
				best = hit[j][k];
				*col = j;
				*v = k;
			}
	return best;
}

/* The boards' post count on the pages that list them (the entry): the
 * row number equal to the posts (or the replies) of the board's threads,
 * within what arrived while phase 1 crawled, in nearly every row. Each
 * board's count starts from that reading. */
static void
board_counts(struct fr_sinfo_cycle *c)
{
	struct fr_sinfo *f = c->f;
	size_t nb = f->n_boards, hit[FR_FPAGE_MAX_NUMS][2] = {{0}}, rows = 0;
	int64_t *posts = calloc(nb + 1, sizeof(*posts)), *threads = calloc(nb + 1, sizeof(*threads));
	int32_t *row_ip = malloc((nb + 1) * sizeof(*row_ip)), *row_k = malloc((nb + 1) * sizeof(*row_k));

	f->bcount_col = -1;
	if (!posts || !threads || !row_ip || !row_k) {
		c->oom = 1;
		goto done;
	}
	for (size_t t = 0; t < f->n_threads; t++) {
		const struct thread *th = &f->threads[t];
		if (th->board >= 0 && (size_t)th->board < nb) {
			posts[th->board] += th->n_posts;
			threads[th->board]++;
		}
	}
	/* Each board's first row met (the entry is read first). */
	for (size_t b = 0; b < nb; b++)
		row_ip[b] = -1;
	for (size_t i = 0; i < c->n_ipages; i++) {
		const struct ipage *ip = &c->ipages[i];
		for (size_t k = 0; k < ip->n; k++) {
			int32_t b = ip->row_url[k] ? board_find(f, ip->row_url[k]) : -1;
			if (b < 0 || row_ip[b] >= 0)
				continue;
			row_ip[b] = (int32_t)i;
			row_k[b] = (int32_t)k;
			rows++;
			for (unsigned j = 0; j < ip->n_nums[k]; j++)
				for (int rep = 0; rep < 2; rep++) {
					int64_t want = posts[b] - rep * threads[b];
					int64_t got = ip->nums[k][j];
					if (got <= want && want - got <= 1 + want / 50)
						hit[j][rep]++;
				}
		}
	}
	size_t best = most_hits(hit, &f->bcount_col, &f->bcount_rep);
	if (rows < 2 || best * 10 < rows * 8) {
		f->bcount_col = -1;
		goto done;
	}
	for (size_t b = 0; b < nb; b++) {
		f->boards[b].count = -1;
		f->boards[b].owed = 0;
		f->boards[b].owed_age = 0;
		if (row_ip[b] < 0)
			continue;
		const struct ipage *ip = &c->ipages[row_ip[b]];
		if ((unsigned)f->bcount_col >= ip->n_nums[row_k[b]])
			continue;
		/* What phase 1 collected after the reading is known too. */
		int64_t known = posts[b] - f->bcount_rep * threads[b];
		int64_t got = ip->nums[row_k[b]][f->bcount_col];
		f->boards[b].count = got > known ? got : known;
	}
done:
	free(posts);
	free(threads);
	free(row_ip);
	free(row_k);
}

static void
decide_sorts(struct fr_sinfo_cycle *c)
{
	struct fr_sinfo *f = c->f;
	size_t crd = 0, lad = 0, col_cr = 0, col_last = 0, asc = 0, dsc = 0;

	for (size_t i = 0; i < c->n_ipages; i++)
		for (size_t k = 0; k < c->ipages[i].n; k++)
			c->ipages[i].thread[k] =
			    c->ipages[i].row_url[k] ? thread_find(f, c->ipages[i].row_url[k]) : -1;
	/* The reply count: the row number equal to its thread's posts (or
	 * replies) in nearly every row. */
	{
		size_t hit[FR_FPAGE_MAX_NUMS][2] = {{0}}, rows = 0;
		for (size_t i = 0; i < c->n_ipages; i++) {
			const struct ipage *ip = &c->ipages[i];
			for (size_t k = 0; k < ip->n && ip->board >= 0; k++) {
				if (ip->thread[k] < 0)
					continue;
				const struct thread *t = &f->threads[ip->thread[k]];
				rows++;
				for (unsigned j = 0; j < ip->n_nums[k]; j++)
					for (int off = 0; off < 2; off++)
						if (ip->nums[k][j] + off == (int64_t)t->n_posts)
							hit[j][off]++;
			}
		}
		size_t best = most_hits(hit, &f->count_col, &f->count_off);
		if (rows < 5 || best * 10 < rows * 9)
			f->count_col = -1;
	}
	board_counts(c);
	/* The one-column type: the row date against its thread's first post. */
	for (size_t i = 0; i < c->n_ipages; i++) {
		const struct ipage *ip = &c->ipages[i];
		if (ip->n_cols != 1 || ip->board < 0)
			continue;
		for (size_t k = 0; k < ip->n; k++) {
			if (ip->thread[k] < 0 || ip->date[k] == NO_DATE)
				continue;
			const struct thread *t = &f->threads[ip->thread[k]];
			int64_t tol = gran_s(ip->gran[k]) + 60;
			if (t->first_post_s != NO_DATE && llabs(ip->date[k] - t->first_post_s) < tol &&
			    !(t->last_post_s != NO_DATE && t->last_post_s != t->first_post_s &&
			      llabs(ip->date[k] - t->last_post_s) < tol))
				col_cr++;
			else if (t->last_post_s != NO_DATE && llabs(ip->date[k] - t->last_post_s) < tol)
				col_last++;
		}
	}
	if (col_cr || col_last)
		f->col_created = col_cr >= col_last;
	for (size_t i = 0; i < c->n_ipages; i++) {
		const struct ipage *ip = &c->ipages[i];
		if (ip->board < 0)
			continue;
		int64_t *cr = malloc((ip->n + 1) * sizeof(*cr)), *la = malloc((ip->n + 1) * sizeof(*la));
		size_t n = 0;
		if (!cr || !la) {
			free(cr);
			free(la);
			c->oom = 1;
			return;
		}
		for (size_t k = 0; k < ip->n; k++) {
			if (ip->thread[k] < 0)
				continue;
			const struct thread *t = &f->threads[ip->thread[k]];
			int64_t vc = NO_DATE, vl = NO_DATE;
			if (ip->n_cols >= 2) {
				vc = ip->created[k];
				vl = ip->last[k];
			} else if (ip->n_cols == 1 && f->col_created >= 0) {
				if (f->col_created)
					vc = ip->date[k];
				else
					vl = ip->date[k];
			}
			/* What the row does not show, its thread does. */
			if (vc == NO_DATE)
				vc = t->first_post_s;
			if (vl == NO_DATE)
				vl = t->last_post_s;
			cr[n] = vc;
			la[n] = vl;
			n++;
		}
		size_t lc, ll;
		size_t rc = rises(cr, n, &lc), rl = rises(la, n, &ll);
		enum fr_sinfo_sort v = FR_SINFO_SORT_UNKNOWN;
		/* A page whose rows are sorted both ways (quiet threads: created
		 * and last activity in the same order), or with under 3 rows,
		 * cannot tell: it casts no vote (the forum's majority decides). */
		if (n >= 3 && rc != rl)
			v = rc < rl ? FR_SINFO_CRD : FR_SINFO_LAD;
		if (v != FR_SINFO_SORT_UNKNOWN)
			vote_add(c, ip->url, 0, v);
		if (v == FR_SINFO_CRD)
			crd++;
		else if (v == FR_SINFO_LAD)
			lad++;
		/* Stickies: the rows before the key column's last rise, when
		 * its rises are all at the top. */
		size_t r = v == FR_SINFO_CRD ? rc : rl, lead = v == FR_SINFO_CRD ? lc : ll;
		if (v != FR_SINFO_SORT_UNKNOWN && r > 0 && r <= lead && lead <= n / 2)
			for (size_t k = 0, m = 0; k < ip->n && m < lead; k++) {
				if (ip->thread[k] < 0)
					continue;
				f->threads[ip->thread[k]].sticky |= 1;
				m++;
			}
		free(cr);
		free(la);
	}
	for (size_t i = 0; i < c->n_votes; i++) {
		if (!c->votes[i].is_thread)
			continue;
		asc += c->votes[i].sort == FR_SINFO_ASC;
		dsc += c->votes[i].sort == FR_SINFO_DSC;
	}
	if (crd != lad)
		f->isort = crd > lad ? FR_SINFO_CRD : FR_SINFO_LAD;
	else if (f->col_created >= 0)
		/* No page could tell: Alg. 5 on the shown column. */
		f->isort = f->col_created ? FR_SINFO_CRD : FR_SINFO_LAD;
	/* The horizon: how long threads keep getting replies. */
	int64_t *span = malloc((f->n_threads + 1) * sizeof(*span));
	size_t ns = 0;
	if (span) {
		for (size_t t = 0; t < f->n_threads; t++) {
			const struct thread *th = &f->threads[t];
			if (!(th->sticky & 1) && th->first_post_s != NO_DATE && th->last_post_s != NO_DATE)
				span[ns++] = th->last_post_s - th->first_post_s;
		}
		if (ns) {
			qsort(span, ns, sizeof(*span), cmp_i64);
			f->horizon_s = span[(size_t)((double)(ns - 1) * 0.99)];
			if (f->horizon_s < 86400)
				f->horizon_s = 86400;
		}
		free(span);
	}
	/* Quiet threads: gaps between consecutive posts (the newest ones each
	 * thread keeps), their ALIVE_Q quantile. */
	size_t ng = 0, cap = 0;
	int64_t *gaps = NULL;
	for (size_t t = 0; t < f->n_threads; t++) {
		const struct thread *th = &f->threads[t];
		if ((th->sticky & 1) || th->n_ids < 2)
			continue;
		int64_t d[RECENT_IDS];
		memcpy(d, th->id_dates, th->n_ids * sizeof(*d));
		qsort(d, th->n_ids, sizeof(*d), cmp_i64);
		if (ng + th->n_ids > cap) {
			cap = (ng + th->n_ids) * 2;
			int64_t *g = realloc(gaps, cap * sizeof(*g));
			if (!g)
				break;
			gaps = g;
		}
		for (uint32_t k = 1; k < th->n_ids; k++)
			if (d[k] != NO_DATE && d[k - 1] != NO_DATE)
				gaps[ng++] = d[k] - d[k - 1];
	}
	if (ng) {
		qsort(gaps, ng, sizeof(*gaps), cmp_i64);
		f->alive_s = gaps[(size_t)((double)(ng - 1) * ALIVE_Q)];
		if (f->alive_s < 86400)
			f->alive_s = 86400;
	}
	free(gaps);
	if (asc != dsc)
		f->tsort = asc > dsc ? FR_SINFO_ASC : FR_SINFO_DSC;
}

/* Threads listed on the entry page itself: the entry is their board. */
static void
entry_board(struct fr_sinfo_cycle *c)
{
	struct fr_sinfo *f = c->f;
	int32_t b = -1;

	for (size_t i = 0; i < f->n_threads; i++) {
		if (f->threads[i].board >= 0 || !f->entry)
			continue;
		if (b < 0 && (b = board_add(f, f->entry)) < 0) {
			c->oom = 1;
			return;
		}
		f->threads[i].board = b;
	}
}

/* ---- the loop -------------------------------------------------------------- */

const char *
fr_sinfo_cycle_next(struct fr_sinfo_cycle *c)
{
	if (c->have_cur) {
		/* Not answered: dropped. */
		task_clear(&c->cur);
		c->have_cur = 0;
	}
	while (c->qn > 0 && !c->oom) {
		struct task t = c->q[c->qh++];
		c->qn--;
		if (t.kind == T_RESUME) {
			/* The walk goes on only if the thread it waited on had
			 * news. */
			if (c->new_in && (size_t)t.thread < c->cap_new_in && c->new_in[t.thread] > 0)
				walk_rows(c, &t);
			task_clear(&t);
			continue;
		}
		if (c->st.pages >= c->max_pages) {
			task_clear(&t);
			continue;
		}
		c->cur = t;
		c->have_cur = 1;
		return c->cur.url;
	}
	return NULL;
}

void
fr_sinfo_cycle_feed(struct fr_sinfo_cycle *c, long status, const char *body, size_t len,
                    double fetched_s)
{
	struct fr_fpage *p = NULL;
	char e[512];

	if (!c->have_cur)
		return;
	struct task tk = c->cur;
	c->have_cur = 0;
	memset(&c->cur, 0, sizeof(c->cur));
	c->st.pages++;
	c->st.bytes += len;
	if (status != 200 || !body) {
		c->st.errors++;
		cerr(c, tk.url, "HTTP status %ld", status);
		if (tk.kind == T_PROBE)
			on_probe(c, &tk, NULL, 0);
		if (tk.kind == T_ENTRY)
			on_entry(c, NULL, 0);
		task_clear(&tk);
		return;
	}
	struct fr_fpage_opts po = {.dates = c->o->dates,
				   .locales = c->o->locales,
				   .zone = c->o->zone,
				   .now_s = (int64_t)fetched_s,
				   .max_bytes = c->o->max_bytes};
	if (fr_fpage_parse(body, len, tk.url, &po, &p, e, sizeof(e)) < 0) {
		c->st.errors++;
		cerr(c, tk.url, "%s", e);
		if (tk.kind == T_PROBE)
			on_probe(c, &tk, NULL, 0);
		if (tk.kind == T_ENTRY)
			on_entry(c, NULL, 0);
		task_clear(&tk);
		return;
	}
	switch (tk.kind) {
	case T_START:
		on_start(c, &tk, p, len);
		break;
	case T_PROBE:
		on_probe(c, &tk, p, len);
		break;
	case T_LINK:
		on_link(c, &tk, p, len);
		break;
	case T_INDEX:
		if (c->phase == 1 || c->focus || tk.board < 0)
			on_index_full(c, &tk, p, len);
		else
			on_index_incremental(c, &tk, p, len);
		break;
	case T_THREAD:
		on_thread(c, &tk, p, len);
		break;
	case T_ENTRY:
		on_entry(c, p, len);
		break;
	case T_RESUME:
		break;
	}
	fr_fpage_free(p);
	task_clear(&tk);
}

const struct fr_sinfo_post *
fr_sinfo_cycle_posts(const struct fr_sinfo_cycle *c, size_t *n)
{
	*n = c->posts.n;
	return c->posts.v;
}

const struct fr_sinfo_vote *
fr_sinfo_cycle_votes(const struct fr_sinfo_cycle *c, size_t *n)
{
	*n = c->n_votes;
	return c->votes;
}

void
fr_sinfo_cycle_stats(const struct fr_sinfo_cycle *c, struct fr_sinfo_cycle_stats *out)
{
	*out = c->st;
}

const char *
fr_sinfo_cycle_errors(const struct fr_sinfo_cycle *c)
{
	return c->errs ? c->errs : "";
}

/* Restores f from the snapshot taken at the start. */
static void
restore(struct fr_sinfo_cycle *c)
{
	struct fr_sinfo *g;
	char e[256];

	if (!c->undo || fr_sinfo_load(c->undo, c->undo_len, &g, e, sizeof(e)) < 0)
		return;
	struct fr_sinfo tmp = *c->f;
	*c->f = *g;
	*g = tmp;
	fr_sinfo_free(g);
}

void
fr_sinfo_cycle_settle(struct fr_sinfo_cycle *c)
{
	if (c->settled || c->oom)
		return;
	c->settled = 1;
	if (c->phase != 1)
		return;
	entry_board(c);
	decide_sorts(c);
	if (c->f->entry && c->f->n_boards + c->f->n_threads > 0) {
		c->f->learned = 1;
		c->f->relearn = 0;
	}
}

void
fr_sinfo_cycle_end(struct fr_sinfo_cycle *c, int commit)
{
	if (!c)
		return;
	if (commit)
		fr_sinfo_cycle_settle(c);
	if (!commit || c->oom)
		restore(c);
	/* Posts point at thread URLs and titles of f: those survive until
	 * here, and the posts die with the cycle. */
	for (size_t i = 0; i < c->posts.n; i++) {
		free((char *)c->posts.v[i].page_url);
		free((char *)c->posts.v[i].author);
		free((char *)c->posts.v[i].text);
	}
	free(c->posts.v);
	for (size_t i = 0; i < c->n_votes; i++)
		free(c->vote_urls[i]);
	free(c->vote_urls);
	free(c->votes);
	for (size_t i = 0; i < c->n_ipages; i++)
		ipage_free(&c->ipages[i]);
	free(c->ipages);
	for (size_t i = 0; i < c->qn; i++)
		task_clear(&c->q[c->qh + i]);
	free(c->q);
	if (c->have_cur)
		task_clear(&c->cur);
	for (int i = 0; i < c->n_probe_urls; i++)
		free(c->probe_urls[i]);
	fr_strmap_free(c->seen);
	for (size_t i = 0; i < c->n_bw; i++)
		fr_furl_pager_free(&c->bw[i].pg);
	free(c->bw);
	free(c->row_seen);
	free(c->new_in);
	free(c->undo);
	free(c->errs);
	free(c);
}
