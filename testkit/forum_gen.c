/* forum_gen.c - the lazily generated timeline of one synthetic forum (see
 * forum_gen.h for the model). Each thread has a generator of its own, so
 * generating in steps of any size gives the same world. */
#include "testkit/forum_gen.h"

#include "testkit/text.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum {
	WHAT_SETUP = 1,
	WHAT_ARRIVALS,
	WHAT_PIDS,
	WHAT_THREAD,
	WHAT_TITLE,
	WHAT_TEXT,
	WHAT_QUOTE,
	WHAT_MEMBER,
	WHAT_VIEWS,
	WHAT_BOARD
};

static void
seed_rng(struct fr_rng *r, const struct fr_tk_forum *f, uint64_t what, uint64_t i, uint64_t j)
{
	fr_rng_seed(r, f->seed ^ ((uint64_t)(f->k + 1) * 0x9E3779B97F4A7C15ull) ^
	                   (what * 0xC2B2AE3D27D4EB4Full) ^ (i * 0x165667B19E3779F9ull) ^
	                   (j * 0xD6E8FEB86659FD93ull));
}

static int64_t
floor_min(double t)
{
	return (int64_t)floor(t / 60.0) * 60;
}

/* ---- words ---- */

static void
cap_word(struct fr_text *t, const char *w)
{
	if (w[0] >= 'a' && w[0] <= 'z') {
		char c[2] = {(char)(w[0] - 'a' + 'A'), '\0'};

		fr_text_puts(t, c);
		fr_text_puts(t, w + 1);
	} else {
		fr_text_puts(t, w);
	}
}

/* n words of f's language, the first capitalised. */
static void
words(struct fr_text *t, const struct fr_tk_forum *f, struct fr_rng *r, unsigned n)
{
	int spaced = fr_tk_forum_lang_spaced(f->prof.lang);

	for (unsigned i = 0; i < n; i++) {
		const char *w = fr_tk_forum_lang_word(f->prof.lang, fr_rng_below(r, 32));

		if (i && spaced)
			fr_text_puts(t, " ");
		if (i == 0)
			cap_word(t, w);
		else
			fr_text_puts(t, w);
	}
}

char *
fr_tk_forum_gen_slug(const char *s, const char *fallback, char *buf, size_t len)
{
	size_t n = 0;
	int dash = 0;

	if (len == 0)
		return buf;
	for (; *s && n + 2 < len && n < 60; s++) {
		char c = *s;

		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
			if (dash && n)
				buf[n++] = '-';
			buf[n++] = c;
			dash = 0;
		} else {
			dash = 1;
		}
	}
	buf[n] = '\0';
	if (n == 0)
		snprintf(buf, len, "%s", fallback);
	return buf;
}

/* ---- members ---- */

uint32_t
fr_tk_forum_gen_members_at(const struct fr_tk_forum *f, int64_t t_s)
{
	double d = (double)(t_s - f->birth_s) / 86400.0;

	if (d <= 0)
		return f->members0;
	return f->members0 + (uint32_t)floor(d * f->joins_per_day);
}

int64_t
fr_tk_forum_gen_member_joined(const struct fr_tk_forum *f, uint32_t m)
{
	if (m < f->members0)
		return f->birth_s - (int64_t)(f->members0 - m) * 86400;
	return floor_min((double)f->birth_s +
	                 (double)(m - f->members0 + 1) * 86400.0 / f->joins_per_day);
}

static const char *const NAME_WORDS[32] = {
    "river",   "garden", "harbour", "lantern", "orchard", "quiet",   "bright",   "railway",
    "market",  "meadow", "silver",  "forest",  "copper",  "island",  "mountain", "signal",
    "thunder", "valley", "engine",  "bridge",  "candle",  "compass", "falcon",   "otter",
    "badger",  "heron",  "maple",   "cedar",   "pike",    "trout",   "fox",      "wolf"};

char *
fr_tk_forum_gen_member_name(const struct fr_tk_forum *f, uint32_t m, char *buf, size_t len)
{
	struct fr_rng r;
	const char *a, *b;

	seed_rng(&r, f, WHAT_MEMBER, m, 0);
	a = NAME_WORDS[fr_rng_below(&r, 32)];
	b = NAME_WORDS[fr_rng_below(&r, 32)];
	switch (fr_rng_below(&r, 3)) {
	case 0:
		snprintf(buf, len, "%c%s%c%s%u", a[0] - 'a' + 'A', a + 1, b[0] - 'a' + 'A', b + 1,
		         (unsigned)m);
		break;
	case 1:
		snprintf(buf, len, "%s_%s%u", a, b, (unsigned)m);
		break;
	default:
		snprintf(buf, len, "%s%u", a, (unsigned)m);
		break;
	}
	return buf;
}

uint32_t
fr_tk_forum_gen_member_posts(const struct fr_tk_forum *f, uint32_t m, int64_t t_s)
{
	double days = (double)(t_s - fr_tk_forum_gen_member_joined(f, m)) / 86400.0;
	double per_day = f->threads_per_day * 6.0 / (1.0 + m) + 0.02;

	return days > 0 ? 1 + (uint32_t)(days * per_day) : 1;
}

/* ---- set-up ---- */

static int add_thread(struct fr_tk_forum *f, int64_t created, int sticky, unsigned sticky_board);

int
fr_tk_forum_gen_init(struct fr_tk_forum *f, uint64_t seed, uint32_t k, double start_s)
{
	struct fr_rng r;
	double days;
	struct fr_text t = {0};

	memset(f, 0, sizeof(*f));
	f->k = k;
	f->seed = seed;
	fr_tk_forums_profile(k, &f->prof);
	seed_rng(&r, f, WHAT_SETUP, 0, 0);
	f->busy = k % 8 == 3;
	if (f->busy) {
		f->threads_per_day = 12 + 18 * fr_rng_uniform(&r);
		days = 30 + 60 * fr_rng_uniform(&r);
	} else {
		f->threads_per_day = 0.8 * exp(0.9 * fr_rng_normal(&r));
		if (f->threads_per_day < 0.1)
			f->threads_per_day = 0.1;
		if (f->threads_per_day > 2.5)
			f->threads_per_day = 2.5;
		days = 120 + 600 * fr_rng_uniform(&r);
	}
	f->birth_s = floor_min(start_s - days * 86400);
	f->n_boards = 3 + (unsigned)fr_rng_below(&r, 3) + (f->busy ? 2 : 0);
	f->members0 = 3 + (uint32_t)fr_rng_below(&r, 10);
	f->joins_per_day = 0.4 * f->threads_per_day + 0.05;
	f->uid0 = 1 + (uint32_t)fr_rng_below(&r, 60);
	f->next_tid = 1 + (uint32_t)fr_rng_below(&r, 400);
	f->next_pid = 1 + (uint32_t)fr_rng_below(&r, 5000);
	{
		uint32_t id = (uint32_t)fr_rng_below(&r, 3);

		for (unsigned b = 0; b < f->n_boards; b++) {
			struct fr_tk_fboard *bd = &f->boards[b];
			struct fr_rng br;
			char *s;
			size_t n;
			char fb[32];

			id += 1 + (uint32_t)fr_rng_below(&r, 3);
			bd->id = id;
			seed_rng(&br, f, WHAT_BOARD, b, 0);
			words(&t, f, &br, 1 + (unsigned)fr_rng_below(&br, 3));
			s = fr_text_take(&t, &n);
			snprintf(bd->name, sizeof(bd->name), "%s", s ? s : "Board");
			free(s);
			/* Board names (and so slugs) are unique in a forum: a repeated
			 * name gets the board's id. */
			for (unsigned c = 0; c < b; c++) {
				if (!strcmp(f->boards[c].name, bd->name)) {
					size_t l = strlen(bd->name);

					snprintf(bd->name + (l < 80 ? l : 80),
					         sizeof(bd->name) - 80, " %u", (unsigned)id);
					break;
				}
			}
			snprintf(fb, sizeof(fb), "board-%u", (unsigned)id);
			fr_tk_forum_gen_slug(bd->name, fb, bd->slug, sizeof(bd->slug));
		}
	}
	{
		char *s;
		size_t n;

		words(&t, f, &r, 2);
		s = fr_text_take(&t, &n);
		snprintf(f->name, sizeof(f->name), "%s %s", s ? s : "Forum",
		         fr_tk_forum_lang_ui(f->prof.lang)->forum);
		free(s);
	}
	seed_rng(&f->arr, f, WHAT_ARRIVALS, 0, 0);
	seed_rng(&f->pid_rng, f, WHAT_PIDS, 0, 0);
	if (pthread_rwlock_init(&f->lock, NULL) != 0)
		return -1;
	f->assigned_until = f->birth_s - 60;
	/* Sticky threads open at birth, board by board. */
	for (unsigned b = 0; b < f->n_boards; b++) {
		for (unsigned s = 0; s < f->prof.stickies && s < FR_TK_FGEN_MAX_STICKY; s++) {
			if (add_thread(f, f->birth_s + (int64_t)(b * 3600 + s * 600), 1, b) < 0) {
				fr_tk_forum_gen_free(f);
				return -1;
			}
		}
	}
	f->next_arrival_s =
	    (double)f->birth_s + 86400.0 + fr_rng_exp(&f->arr, 0.7 * 86400.0 / f->threads_per_day);
	return 0;
}

void
fr_tk_forum_gen_free(struct fr_tk_forum *f)
{
	for (size_t i = 0; i < f->n_th; i++) {
		free(f->th[i].t);
		free(f->th[i].author);
		free(f->th[i].parent);
		free(f->th[i].pid);
	}
	free(f->th);
	for (unsigned b = 0; b < f->n_boards; b++)
		free(f->boards[b].th);
	free(f->open);
	free(f->gtime);
	pthread_rwlock_destroy(&f->lock);
	memset(f, 0, sizeof(*f));
}

/* ---- threads ---- */

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int
grow(void **p, size_t *cap, size_t need, size_t elem)
{
	void *q;
	size_t c;

	if (need <= *cap)
		return 0;
	c = *cap ? *cap * 2 : 16;
	while (c < need)
		c *= 2;
	q = realloc(*p, c * elem);
	if (!q)
		return -1;
	*p = q;
	*cap = c;
	return 0;
}

/* Draws thread i (= f->n_th) created at `created` and appends it. */
static int
add_thread(struct fr_tk_forum *f, int64_t created, int sticky, unsigned sticky_board)
{
	size_t i = f->n_th;
	struct fr_tk_fthread *th;
	struct fr_rng r;
	double u, life, *off = NULL;
	uint32_t replies;
	unsigned board;

	if (grow((void **)&f->th, &f->cap_th, i + 1, sizeof(*f->th)) < 0 ||
	    grow((void **)&f->open, &f->cap_open, f->n_open + 1, sizeof(*f->open)) < 0)
		return -1;
	seed_rng(&r, f, WHAT_THREAD, i, 0);
	if (sticky) {
		board = sticky_board;
		replies = (uint32_t)fr_rng_below(&r, 7);
		life = (300 + 400 * fr_rng_uniform(&r)) * 86400;
	} else {
		double w = 0, x;

		for (unsigned b = 0; b < f->n_boards; b++)
			w += 1.0 / (b + 1);
		x = fr_rng_uniform(&r) * w;
		for (board = 0; board + 1 < f->n_boards; board++) {
			x -= 1.0 / (board + 1);
			if (x < 0)
				break;
		}
		life = (0.1 + fr_rng_exp(&r, 4)) * 86400;
		u = fr_rng_uniform(&r);
		if (u < 0.15) {
			replies = 0;
		} else if (u < 0.95) {
			replies = 1 + (uint32_t)fr_rng_exp(&r, 5);
			if (replies > 60)
				replies = 60;
		} else if (u < 0.995) {
			replies = 20 + (uint32_t)fr_rng_below(&r, 80);
			life *= 5;
		} else {
			replies = 200 + (uint32_t)fr_rng_below(&r, 400);
			life = (200 + 600 * fr_rng_uniform(&r)) * 86400;
		}
	}
	th = &f->th[i];
	memset(th, 0, sizeof(*th));
	th->created = created;
	th->id = f->next_tid;
	f->next_tid += 1 + (fr_rng_below(&r, 4) == 0 ? 1 + (uint32_t)fr_rng_below(&r, 3) : 0);
	th->board = (uint16_t)board;
	th->sticky = (uint8_t)sticky;
	th->n = replies + 1;
	th->t = malloc(th->n * sizeof(*th->t));
	th->author = malloc(th->n * sizeof(*th->author));
	th->pid = malloc(th->n * sizeof(*th->pid));
	if (f->prof.nested)
		th->parent = malloc(th->n * sizeof(*th->parent));
	off = replies ? malloc(replies * sizeof(*off)) : NULL;
	if (!th->t || !th->author || !th->pid || (f->prof.nested && !th->parent) ||
	    (replies && !off)) {
		free(th->t);
		free(th->author);
		free(th->pid);
		free(th->parent);
		free(off);
		return -1;
	}
	for (uint32_t j = 0; j < replies; j++) {
		u = fr_rng_uniform(&r);
		off[j] = life * u * u;
	}
	if (replies)
		qsort(off, replies, sizeof(*off), cmp_double);
	th->t[0] = created;
	for (uint32_t j = 1; j < th->n; j++) {
		int64_t t = floor_min((double)created + off[j - 1]);

		th->t[j] = t < th->t[j - 1] ? th->t[j - 1] : t;
	}
	free(off);
	for (uint32_t j = 0; j < th->n; j++) {
		uint32_t m = fr_tk_forum_gen_members_at(f, th->t[j]);

		u = fr_rng_uniform(&r);
		th->author[j] = sticky && j == 0 ? 0 : (uint32_t)(m * pow(u, 2.2));
		if (th->author[j] >= m)
			th->author[j] = m - 1;
		if (th->parent) {
			if (j == 0 || fr_rng_uniform(&r) < 0.45) {
				th->parent[j] = 0;
			} else {
				u = fr_rng_uniform(&r);
				th->parent[j] = j - 1 - (uint32_t)((j - 1) * u * u);
			}
		}
	}
	if (!sticky) {
		struct fr_tk_fboard *bd = &f->boards[board];

		if (grow((void **)&bd->th, &bd->cap, bd->n + 1, sizeof(*bd->th)) < 0)
			goto oom;
		bd->th[bd->n++] = (uint32_t)i;
	} else if (f->boards[board].n_sticky < FR_TK_FGEN_MAX_STICKY) {
		f->boards[board].sticky[f->boards[board].n_sticky++] = (uint32_t)i;
	}
	f->open[f->n_open++] = (uint32_t)i;
	f->n_th++;
	return 0;
oom:
	free(th->t);
	free(th->author);
	free(th->pid);
	free(th->parent);
	return -1;
}

/* Share of the daily peak at time t: 0.4 at 03:00 UTC to 1 at 15:00. */
static double
daily(double t)
{
	double h = fmod(t, 86400.0) / 86400.0;

	return 0.4 + 0.6 * (0.5 + 0.5 * sin(2 * M_PI * (h - 0.375)));
}

struct pending {
	int64_t t;
	uint32_t th, j;
};

static int
cmp_pending(const void *a, const void *b)
{
	const struct pending *x = a, *y = b;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	if (x->th != y->th)
		return x->th < y->th ? -1 : 1;
	return x->j < y->j ? -1 : x->j > y->j;
}

/* Generates threads created by h and numbers the posts published by h. */
static int
extend(struct fr_tk_forum *f, int64_t h)
{
	double gap_mean = 0.7 * 86400.0 / f->threads_per_day; /* at the daily peak */
	struct pending *p = NULL;
	size_t np = 0, cap = 0, keep = 0;

	while (floor_min(f->next_arrival_s) <= h) {
		if (fr_rng_uniform(&f->arr) < daily(f->next_arrival_s) &&
		    add_thread(f, floor_min(f->next_arrival_s), 0, 0) < 0)
			return -1;
		f->next_arrival_s += fr_rng_exp(&f->arr, gap_mean);
	}
	for (size_t o = 0; o < f->n_open; o++) {
		struct fr_tk_fthread *th = &f->th[f->open[o]];

		for (uint32_t j = th->n_assigned; j < th->n && th->t[j] <= h; j++) {
			if (grow((void **)&p, &cap, np + 1, sizeof(*p)) < 0) {
				free(p);
				return -1;
			}
			p[np++] = (struct pending){th->t[j], f->open[o], j};
		}
	}
	if (grow((void **)&f->gtime, &f->cap_g, f->n_g + np, sizeof(*f->gtime)) < 0) {
		free(p);
		return -1;
	}
	if (np)
		qsort(p, np, sizeof(*p), cmp_pending);
	for (size_t q = 0; q < np; q++) {
		struct fr_tk_fthread *th = &f->th[p[q].th];

		th->pid[p[q].j] = f->next_pid;
		th->n_assigned = p[q].j + 1;
		f->next_pid += 1 + (fr_rng_below(&f->pid_rng, 6) == 0 ? 1 : 0);
		f->gtime[f->n_g++] = p[q].t;
	}
	free(p);
	for (size_t o = 0; o < f->n_open; o++)
		if (f->th[f->open[o]].n_assigned < f->th[f->open[o]].n)
			f->open[keep++] = f->open[o];
	f->n_open = keep;
	f->assigned_until = h;
	return 0;
}

int
fr_tk_forum_gen_read_begin(struct fr_tk_forum *f, double t_s, double ahead_s)
{
	for (;;) {
		int rc = 0;

		pthread_rwlock_rdlock(&f->lock);
		if ((double)f->assigned_until >= t_s)
			return 0;
		pthread_rwlock_unlock(&f->lock);
		pthread_rwlock_wrlock(&f->lock);
		if ((double)f->assigned_until < t_s)
			rc = extend(f, floor_min(t_s + (ahead_s > 60 ? ahead_s : 60)));
		pthread_rwlock_unlock(&f->lock);
		if (rc < 0)
			return -1;
	}
}

void
fr_tk_forum_gen_read_end(struct fr_tk_forum *f)
{
	pthread_rwlock_unlock(&f->lock);
}

/* ---- queries ---- */

size_t
fr_tk_forum_gen_threads_at(const struct fr_tk_forum *f, int64_t t_s)
{
	size_t lo = 0, hi = f->n_th;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (f->th[mid].created <= t_s)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

uint32_t
fr_tk_forum_gen_posts_at(const struct fr_tk_fthread *th, int64_t t_s)
{
	uint32_t lo = 0, hi = th->n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (th->t[mid] <= t_s)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

size_t
fr_tk_forum_gen_forum_posts_at(const struct fr_tk_forum *f, int64_t t_s)
{
	size_t lo = 0, hi = f->n_g;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (f->gtime[mid] <= t_s)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const struct fr_tk_fthread *
fr_tk_forum_gen_thread_by_id(const struct fr_tk_forum *f, uint32_t tid)
{
	size_t lo = 0, hi = f->n_th;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (f->th[mid].id == tid)
			return &f->th[mid];
		if (f->th[mid].id < tid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

int
fr_tk_forum_gen_board_by_id(const struct fr_tk_forum *f, uint32_t bid)
{
	for (unsigned b = 0; b < f->n_boards; b++)
		if (f->boards[b].id == bid)
			return (int)b;
	return -1;
}

struct lad_key {
	int64_t last;
	uint32_t id, idx;
};

static int
cmp_lad(const void *a, const void *b)
{
	const struct lad_key *x = a, *y = b;

	if (x->last != y->last)
		return x->last > y->last ? -1 : 1;
	return x->id > y->id ? -1 : x->id < y->id;
}

long
fr_tk_forum_gen_board_order(const struct fr_tk_forum *f, unsigned b, int64_t t_s, uint32_t **out)
{
	const struct fr_tk_fboard *bd = &f->boards[b];
	size_t lo = 0, hi = bd->n, n;
	uint32_t *o;

	*out = NULL;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (f->th[bd->th[mid]].created <= t_s)
			lo = mid + 1;
		else
			hi = mid;
	}
	n = lo;
	if (n == 0)
		return 0;
	o = malloc(n * sizeof(*o));
	if (!o)
		return -1;
	if (f->prof.isort == FR_TK_FORUM_CRD) {
		for (size_t i = 0; i < n; i++)
			o[i] = bd->th[n - 1 - i];
	} else {
		struct lad_key *key = malloc(n * sizeof(*key));

		if (!key) {
			free(o);
			return -1;
		}
		for (size_t i = 0; i < n; i++) {
			const struct fr_tk_fthread *th = &f->th[bd->th[i]];

			key[i].last = th->t[fr_tk_forum_gen_posts_at(th, t_s) - 1];
			key[i].id = th->id;
			key[i].idx = bd->th[i];
		}
		qsort(key, n, sizeof(*key), cmp_lad);
		for (size_t i = 0; i < n; i++)
			o[i] = key[i].idx;
		free(key);
	}
	*out = o;
	return (long)n;
}

int
fr_tk_forum_gen_thread_order(const struct fr_tk_forum *f, const struct fr_tk_fthread *th,
                             uint32_t n, uint32_t *order, uint32_t *depth)
{
	uint32_t *first, *next, *stack, *sdepth, top = 0, k = 0;

	if (n == 0)
		return 0;
	if (!f->prof.nested) {
		order[0] = 0;
		for (uint32_t i = 1; i < n; i++)
			order[i] = f->prof.tsort == FR_TK_FORUM_DSC ? n - i : i;
		if (depth)
			memset(depth, 0, n * sizeof(*depth));
		return 0;
	}
	first = malloc(n * sizeof(*first));
	next = malloc(n * sizeof(*next));
	stack = malloc(n * sizeof(*stack));
	sdepth = malloc(n * sizeof(*sdepth));
	if (!first || !next || !stack || !sdepth) {
		free(first);
		free(next);
		free(stack);
		free(sdepth);
		return -1;
	}
	/* Children lists, oldest first (UINT32_MAX ends a list). */
	for (uint32_t i = 0; i < n; i++)
		first[i] = next[i] = UINT32_MAX;
	for (uint32_t j = n - 1; j >= 1; j--) {
		uint32_t p = th->parent[j];

		next[j] = first[p];
		first[p] = j;
	}
	order[k] = 0;
	if (depth)
		depth[k] = 0;
	k++;
	/* Top-level replies in the thread's order, each with its subtree. The
	 * stack holds the next sibling to visit at each level. */
	if (f->prof.tsort == FR_TK_FORUM_DSC) {
		/* Reverse the top level. */
		uint32_t prev = UINT32_MAX, c = first[0];

		while (c != UINT32_MAX) {
			uint32_t nx = next[c];

			next[c] = prev;
			prev = c;
			c = nx;
		}
		first[0] = prev;
	}
	if (first[0] != UINT32_MAX) {
		stack[top] = first[0];
		sdepth[top] = 1;
		top++;
	}
	while (top > 0) {
		uint32_t c = stack[top - 1], d = sdepth[top - 1];

		top--;
		order[k] = c;
		if (depth)
			depth[k] = d;
		k++;
		if (next[c] != UINT32_MAX) {
			stack[top] = next[c];
			sdepth[top] = d;
			top++;
		}
		if (first[c] != UINT32_MAX) {
			stack[top] = first[c];
			sdepth[top] = d + 1;
			top++;
		}
	}
	free(first);
	free(next);
	free(stack);
	free(sdepth);
	return 0;
}

/* ---- words of threads and posts ---- */

char *
fr_tk_forum_gen_title(const struct fr_tk_forum *f, size_t i, char *buf, size_t len)
{
	const struct fr_tk_fthread *th = &f->th[i];
	struct fr_text t = {0};
	struct fr_rng r;
	char *s;
	size_t n;

	if (th->sticky) {
		const struct fr_tk_forum_ui *ui = fr_tk_forum_lang_ui(f->prof.lang);
		const char *titles[3] = {ui->rules_title, ui->welcome_title, ui->announce_title};

		snprintf(buf, len, "%s",
		         titles[(i % (f->prof.stickies ? f->prof.stickies : 1)) % 3]);
		return buf;
	}
	seed_rng(&r, f, WHAT_TITLE, i, 0);
	words(&t, f, &r, 3 + (unsigned)fr_rng_below(&r, 5));
	if (fr_rng_below(&r, 4) == 0)
		fr_text_puts(&t, "?");
	s = fr_text_take(&t, &n);
	snprintf(buf, len, "%s", s ? s : "Thread");
	free(s);
	return buf;
}

void
fr_tk_forum_gen_post_text(const struct fr_tk_forum *f, size_t i, uint32_t j, struct fr_text *out)
{
	struct fr_rng r;
	int spaced = fr_tk_forum_lang_spaced(f->prof.lang);
	unsigned paras;

	seed_rng(&r, f, WHAT_TEXT, i, j);
	paras = (j == 0 ? 2 : 1) + (unsigned)fr_rng_below(&r, 3);
	for (unsigned p = 0; p < paras; p++) {
		unsigned sentences = 1 + (unsigned)fr_rng_below(&r, 4);

		if (p)
			fr_text_puts(out, "\n\n");
		for (unsigned s = 0; s < sentences; s++) {
			if (s && spaced)
				fr_text_puts(out, " ");
			words(out, f, &r, 4 + (unsigned)fr_rng_below(&r, 9));
			fr_text_puts(out, spaced ? (fr_rng_below(&r, 5) ? "." : "!") : "。");
		}
	}
}

long
fr_tk_forum_gen_post_quote(const struct fr_tk_forum *f, size_t i, uint32_t j)
{
	struct fr_rng r;

	if (j < 2)
		return -1;
	seed_rng(&r, f, WHAT_QUOTE, i, j);
	if (fr_rng_uniform(&r) >= 0.12)
		return -1;
	return (long)fr_rng_below(&r, j);
}

uint32_t
fr_tk_forum_gen_views(const struct fr_tk_forum *f, size_t i, int64_t t_s)
{
	const struct fr_tk_fthread *th = &f->th[i];
	struct fr_rng r;
	uint32_t n = fr_tk_forum_gen_posts_at(th, t_s);
	double hours = (double)(t_s - th->created) / 3600.0;

	if (n == 0)
		return 0;
	seed_rng(&r, f, WHAT_VIEWS, i, 0);
	return 3 + (uint32_t)fr_rng_below(&r, 40) + n * 11 + (uint32_t)(hours > 0 ? hours / 5 : 0);
}
