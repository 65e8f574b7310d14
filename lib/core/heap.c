/* heap.c - indexed 4-ary min-heap, stored as parallel arrays so that the
 * four children's keys sit in one cache line and the smallest is picked
 * without branches (a heap's child comparisons are unpredictable, and
 * mispredictions, not memory, dominate its cost). pos[id] is the slot of id,
 * or UINT32_MAX. In lazy mode the arrays are a plain unordered list until
 * the order is asked for (dirty says it is broken). */
#include "core/heap.h"

#include <stdlib.h>

struct fr_heap {
	double *key;
	double *tie;
	uint32_t *id;
	uint32_t *pos;
	uint32_t len, cap;
	int lazy;  /* fr_heap_set_lazy */
	int dirty; /* the heap order may be broken: restore before using it */
};

struct fr_heap *
fr_heap_new(uint32_t cap)
{
	struct fr_heap *h = calloc(1, sizeof(*h));
	size_t n = cap ? cap : 1;

	if (!h)
		return NULL;
	/* Zeroed: a lazy collect reads key[0] even when the heap is empty. */
	h->key = calloc(n, sizeof(*h->key));
	h->tie = malloc(n * sizeof(*h->tie));
	h->id = malloc(n * sizeof(*h->id));
	h->pos = malloc(n * sizeof(*h->pos));
	if (!h->key || !h->tie || !h->id || !h->pos) {
		fr_heap_free(h);
		return NULL;
	}
	for (uint32_t i = 0; i < cap; i++)
		h->pos[i] = UINT32_MAX;
	h->cap = cap;
	return h;
}

void
fr_heap_free(struct fr_heap *h)
{
	if (!h)
		return;
	free(h->key);
	free(h->tie);
	free(h->id);
	free(h->pos);
	free(h);
}

size_t
fr_heap_len(const struct fr_heap *h)
{
	return h->len;
}

int
fr_heap_contains(const struct fr_heap *h, uint32_t id)
{
	return id < h->cap && h->pos[id] != UINT32_MAX;
}

/* Whether (k1, t1, i1) orders before (k2, t2, i2); 0 or 1, without branches. */
static inline int
before(double k1, double t1, uint32_t i1, double k2, double t2, uint32_t i2)
{
	return (k1 < k2) | ((k1 == k2) & ((t1 < t2) | ((t1 == t2) & (i1 < i2))));
}

static inline void
put(struct fr_heap *h, uint32_t slot, double k, double t, uint32_t id)
{
	h->key[slot] = k;
	h->tie[slot] = t;
	h->id[slot] = id;
	h->pos[id] = slot;
}

static void
sift_up(struct fr_heap *h, uint32_t i, double k, double t, uint32_t id)
{
	while (i > 0) {
		uint32_t p = (i - 1) / 4;
		if (!before(k, t, id, h->key[p], h->tie[p], h->id[p]))
			break;
		put(h, i, h->key[p], h->tie[p], h->id[p]);
		i = p;
	}
	put(h, i, k, t, id);
}

static void
sift_down(struct fr_heap *h, uint32_t i, double k, double t, uint32_t id)
{
	for (;;) {
		uint32_t c = 4 * i + 1;
		if (c >= h->len)
			break;
		uint32_t m = c, end = c + 4 < h->len ? c + 4 : h->len;
		double mk = h->key[c], mt = h->tie[c];
		uint32_t mi = h->id[c];
		for (uint32_t j = c + 1; j < end; j++) {
			int b = before(h->key[j], h->tie[j], h->id[j], mk, mt, mi);
			m = b ? j : m;
			mk = b ? h->key[j] : mk;
			mt = b ? h->tie[j] : mt;
			mi = b ? h->id[j] : mi;
		}
		if (!before(mk, mt, mi, k, t, id))
			break;
		put(h, i, mk, mt, mi);
		i = m;
	}
	put(h, i, k, t, id);
}

static void heapify(struct fr_heap *h);

/* Restores the order before an operation that relies on it. */
static inline void
ordered(struct fr_heap *h)
{
	if (h->dirty)
		heapify(h);
}

void
fr_heap_set(struct fr_heap *h, uint32_t id, double key, double tie)
{
	uint32_t i = h->pos[id];

	if (h->lazy) {
		put(h, i == UINT32_MAX ? h->len++ : i, key, tie, id);
		h->dirty = 1;
		return;
	}
	ordered(h);
	i = h->pos[id];
	if (i == UINT32_MAX) {
		sift_up(h, h->len++, key, tie, id);
		return;
	}
	if (before(key, tie, id, h->key[i], h->tie[i], id))
		sift_up(h, i, key, tie, id);
	else
		sift_down(h, i, key, tie, id);
}

void
fr_heap_remove(struct fr_heap *h, uint32_t id)
{
	uint32_t i = h->pos[id];

	if (i == UINT32_MAX)
		return;
	if (!h->lazy) {
		ordered(h);
		i = h->pos[id];
	}
	h->pos[id] = UINT32_MAX;
	if (--h->len == i)
		return;
	/* Refill slot i with the last entry, moving it up or down (lazy:
	 * leaving it there). */
	uint32_t last = h->len;
	double k = h->key[last], t = h->tie[last];
	uint32_t lid = h->id[last];
	if (h->lazy) {
		put(h, i, k, t, lid);
		h->dirty = 1;
	} else if (i > 0 &&
		   before(k, t, lid, h->key[(i - 1) / 4], h->tie[(i - 1) / 4], h->id[(i - 1) / 4]))
		sift_up(h, i, k, t, lid);
	else
		sift_down(h, i, k, t, lid);
}

int
fr_heap_peek(struct fr_heap *h, uint32_t *id, double *key)
{
	if (h->len == 0)
		return 0;
	ordered(h);
	*id = h->id[0];
	if (key)
		*key = h->key[0];
	return 1;
}

int
fr_heap_pop(struct fr_heap *h, uint32_t *id, double *key)
{
	if (!fr_heap_peek(h, id, key))
		return 0;
	fr_heap_remove(h, *id);
	return 1;
}

double
fr_heap_key(const struct fr_heap *h, uint32_t id)
{
	return h->key[h->pos[id]];
}

size_t
fr_heap_collect(const struct fr_heap *h, double max_key, uint32_t *out, size_t cap,
		uint32_t *stack)
{
	size_t n = 0, top = 0;

	if (h->dirty) {
		/* Every id, in id order (callers that read data indexed by id
		 * then walk it forward, which the hardware prefetches), without a
		 * branch to mispredict: out[n] is written always and kept when
		 * the id is in and its key qualifies. */
		for (uint32_t id = 0; id < h->cap && n < cap; id++) {
			uint32_t i = h->pos[id];
			out[n] = id;
			n += i != UINT32_MAX && h->key[i < h->len ? i : 0] <= max_key;
		}
		return n;
	}
	if (h->len == 0 || h->key[0] > max_key)
		return 0;
	stack[top++] = 0;
	while (top > 0 && n < cap) {
		uint32_t i = stack[--top];
		out[n++] = h->id[i];
		uint32_t c = 4 * i + 1, end = c + 4 < h->len ? c + 4 : h->len;
		for (; c < end; c++)
			if (h->key[c] <= max_key)
				stack[top++] = c;
	}
	return n;
}

void
fr_heap_rekey(struct fr_heap *h, uint32_t id, double key, double tie)
{
	uint32_t i = h->pos[id];
	h->key[i] = key;
	h->tie[i] = tie;
	h->dirty = 1;
}

/* Floyd: sift down every inner slot, last first. */
static void
heapify(struct fr_heap *h)
{
	h->dirty = 0;
	if (h->len < 2)
		return;
	for (uint32_t i = (h->len - 2) / 4 + 1; i-- > 0;)
		sift_down(h, i, h->key[i], h->tie[i], h->id[i]);
}

void
fr_heap_set_lazy(struct fr_heap *h, int lazy)
{
	h->lazy = lazy;
	if (!lazy)
		ordered(h);
}
