/* heap.c - indexed binary heap. pos[id] is the slot of id, or UINT32_MAX. */
#include "core/heap.h"

#include <stdlib.h>

struct entry {
	double key;
	double tie;
	uint32_t id;
};

struct fr_heap {
	struct entry *e;
	uint32_t *pos;
	uint32_t len, cap;
};

struct fr_heap *
fr_heap_new(uint32_t cap)
{
	struct fr_heap *h = calloc(1, sizeof(*h));

	if (!h)
		return NULL;
	h->e = malloc((cap ? cap : 1) * sizeof(*h->e));
	h->pos = malloc((cap ? cap : 1) * sizeof(*h->pos));
	if (!h->e || !h->pos) {
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
	free(h->e);
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

static int
less(const struct entry *a, const struct entry *b)
{
	if (a->key != b->key)
		return a->key < b->key;
	if (a->tie != b->tie)
		return a->tie < b->tie;
	return a->id < b->id;
}

static void
place(struct fr_heap *h, uint32_t i, struct entry en)
{
	h->e[i] = en;
	h->pos[en.id] = i;
}

static void
sift_up(struct fr_heap *h, uint32_t i)
{
	struct entry en = h->e[i];

	while (i > 0) {
		uint32_t parent = (i - 1) / 2;
		if (!less(&en, &h->e[parent]))
			break;
		place(h, i, h->e[parent]);
		i = parent;
	}
	place(h, i, en);
}

static void
sift_down(struct fr_heap *h, uint32_t i)
{
	struct entry en = h->e[i];

	for (;;) {
		uint32_t c = 2 * i + 1;
		if (c >= h->len)
			break;
		if (c + 1 < h->len && less(&h->e[c + 1], &h->e[c]))
			c++;
		if (!less(&h->e[c], &en))
			break;
		place(h, i, h->e[c]);
		i = c;
	}
	place(h, i, en);
}

void
fr_heap_set(struct fr_heap *h, uint32_t id, double key, double tie)
{
	struct entry en = {key, tie, id};
	uint32_t i = h->pos[id];

	if (i == UINT32_MAX) {
		i = h->len++;
		place(h, i, en);
		sift_up(h, i);
		return;
	}
	int up = less(&en, &h->e[i]);
	h->e[i] = en;
	if (up)
		sift_up(h, i);
	else
		sift_down(h, i);
}

void
fr_heap_remove(struct fr_heap *h, uint32_t id)
{
	uint32_t i = h->pos[id];

	if (i == UINT32_MAX)
		return;
	h->pos[id] = UINT32_MAX;
	if (--h->len == i)
		return;
	struct entry last = h->e[h->len];
	place(h, i, last);
	sift_up(h, i);
	sift_down(h, h->pos[last.id]);
}

int
fr_heap_peek(const struct fr_heap *h, uint32_t *id, double *key)
{
	if (h->len == 0)
		return 0;
	*id = h->e[0].id;
	if (key)
		*key = h->e[0].key;
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
	return h->e[h->pos[id]].key;
}
