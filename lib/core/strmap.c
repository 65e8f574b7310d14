/* strmap.c - name interning. A slot table (linear probing, at most half full)
 * holds the hash and id of each name; the names themselves live in arena
 * blocks that never move, so fr_strmap_name pointers stay valid as the map
 * grows. */
#include "core/strmap.h"

#include <stdlib.h>
#include <string.h>

/* Arena blocks start small and double up to BLOCK_SIZE: a program may hold
 * thousands of small maps at once (discover: three per site, 1,024 sites),
 * where a first block of 64 KiB each made most of its peak memory. */
#define BLOCK_SIZE (64 * 1024)
#define FIRST_BLOCK_SIZE 256

struct slot {
	uint32_t hash;
	uint32_t id1; /* id + 1; 0 marks an empty slot */
};

struct block {
	struct block *next;
	size_t used, cap;
	char data[];
};

struct fr_strmap {
	struct slot *slots;
	uint32_t mask; /* slot count - 1; the count is a power of two */
	uint32_t len;
	uint32_t names_cap;
	const char **name;    /* [len] NUL-terminated copies in the blocks */
	uint32_t *name_len;   /* [len] */
	struct block *blocks; /* newest first */
};

/* FNV-1a, 32 bits: short names, few collisions, no setup. */
static uint32_t
hash_bytes(const char *s, size_t n)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 16777619u;
	}
	return h;
}

struct fr_strmap *
fr_strmap_new(void)
{
	struct fr_strmap *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->slots = calloc(16, sizeof(*m->slots));
	if (!m->slots) {
		free(m);
		return NULL;
	}
	m->mask = 15;
	return m;
}

void
fr_strmap_free(struct fr_strmap *m)
{
	struct block *b, *next;

	if (!m)
		return;
	for (b = m->blocks; b; b = next) {
		next = b->next;
		free(b);
	}
	free(m->slots);
	free(m->name);
	free(m->name_len);
	free(m);
}

/* Slot holding s, or the empty slot where it would go. */
static struct slot *
probe(const struct fr_strmap *m, const char *s, size_t n, uint32_t h)
{
	uint32_t i = h & m->mask;

	for (;;) {
		struct slot *sl = &m->slots[i];

		if (sl->id1 == 0)
			return sl;
		if (sl->hash == h) {
			uint32_t id = sl->id1 - 1;

			if (m->name_len[id] == n && memcmp(m->name[id], s, n) == 0)
				return sl;
		}
		i = (i + 1) & m->mask;
	}
}

static int
grow_slots(struct fr_strmap *m)
{
	uint32_t cap = (m->mask + 1) * 2;
	struct slot *old = m->slots;
	uint32_t old_cap = m->mask + 1;

	if (cap == 0) /* 2^32 slots: refuse rather than wrap */
		return -1;
	m->slots = calloc(cap, sizeof(*m->slots));
	if (!m->slots) {
		m->slots = old;
		return -1;
	}
	m->mask = cap - 1;
	for (uint32_t i = 0; i < old_cap; i++) {
		uint32_t j;

		if (old[i].id1 == 0)
			continue;
		j = old[i].hash & m->mask;
		while (m->slots[j].id1 != 0)
			j = (j + 1) & m->mask;
		m->slots[j] = old[i];
	}
	free(old);
	return 0;
}

static int
grow_names(struct fr_strmap *m)
{
	uint32_t cap = m->names_cap ? m->names_cap * 2 : 16;
	const char **name;
	uint32_t *name_len;

	name = realloc(m->name, (size_t)cap * sizeof(*name));
	if (!name)
		return -1;
	m->name = name;
	name_len = realloc(m->name_len, (size_t)cap * sizeof(*name_len));
	if (!name_len)
		return -1;
	m->name_len = name_len;
	m->names_cap = cap;
	return 0;
}

/* A NUL-terminated copy of s in the arena, or NULL on out-of-memory. */
static const char *
arena_copy(struct fr_strmap *m, const char *s, size_t n)
{
	struct block *b = m->blocks;
	char *p;

	if (!b || b->cap - b->used < n + 1) {
		size_t cap = !b ? FIRST_BLOCK_SIZE : b->cap >= BLOCK_SIZE / 2 ? BLOCK_SIZE : b->cap * 2;

		if (cap < n + 1)
			cap = n + 1;

		b = malloc(sizeof(*b) + cap);
		if (!b)
			return NULL;
		b->used = 0;
		b->cap = cap;
		b->next = m->blocks;
		m->blocks = b;
	}
	p = b->data + b->used;
	memcpy(p, s, n);
	p[n] = '\0';
	b->used += n + 1;
	return p;
}

int
fr_strmap_intern(struct fr_strmap *m, const char *s, size_t n, uint32_t *id, int *added)
{
	uint32_t h = hash_bytes(s, n);
	struct slot *sl = probe(m, s, n, h);
	const char *copy;

	if (sl->id1 != 0) {
		*id = sl->id1 - 1;
		if (added)
			*added = 0;
		return 0;
	}
	if (n > UINT32_MAX || m->len >= UINT32_MAX - 1)
		return -1;
	if (m->len == m->names_cap && grow_names(m) != 0)
		return -1;
	copy = arena_copy(m, s, n);
	if (!copy)
		return -1;
	/* Keep the table at most half full; growing moves the free slot. */
	if ((m->len + 1) * 2 > m->mask + 1) {
		if (grow_slots(m) != 0)
			return -1; /* the copy stays in the arena, unreferenced */
		sl = probe(m, s, n, h);
	}
	m->name[m->len] = copy;
	m->name_len[m->len] = (uint32_t)n;
	sl->hash = h;
	sl->id1 = m->len + 1;
	*id = m->len++;
	if (added)
		*added = 1;
	return 0;
}

int
fr_strmap_find(const struct fr_strmap *m, const char *s, size_t n, uint32_t *id)
{
	const struct slot *sl = probe(m, s, n, hash_bytes(s, n));

	if (sl->id1 == 0)
		return 0;
	*id = sl->id1 - 1;
	return 1;
}

size_t
fr_strmap_len(const struct fr_strmap *m)
{
	return m->len;
}

const char *
fr_strmap_name(const struct fr_strmap *m, uint32_t id)
{
	return id < m->len ? m->name[id] : NULL;
}
