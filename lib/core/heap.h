/* heap.h - an indexed min-heap of dense ids (0..cap-1) keyed by a double,
 * with ties broken by a second key and then by id. Each id is in the heap at
 * most once; its key can be changed in O(log n). A lazy mode serves callers
 * that change a large share of the entries between two looks at the order. */
#ifndef FR_CORE_HEAP_H
#define FR_CORE_HEAP_H

#include <stddef.h>
#include <stdint.h>

struct fr_heap;

/* Returns a heap for ids below cap, or NULL on out-of-memory. Caller frees
 * with fr_heap_free. */
struct fr_heap *fr_heap_new(uint32_t cap);
void fr_heap_free(struct fr_heap *h);

size_t fr_heap_len(const struct fr_heap *h);
int fr_heap_contains(const struct fr_heap *h, uint32_t id);
/* Inserts id, or moves it if already present. Order: key, then tie, then id. */
void fr_heap_set(struct fr_heap *h, uint32_t id, double key, double tie);
void fr_heap_remove(struct fr_heap *h, uint32_t id);
/* The smallest entry without removing it; returns 0 when empty. */
int fr_heap_peek(struct fr_heap *h, uint32_t *id, double *key);
/* Removes and returns the smallest entry; returns 0 when empty. */
int fr_heap_pop(struct fr_heap *h, uint32_t *id, double *key);
/* Writes to out (at most cap) the ids whose key is <= max_key, without
 * changing the heap: O(number found), in no particular order; or, while the
 * order is broken (lazy mode), O(cap), in id order. stack must have room for
 * len entries. Returns how many were written. */
size_t fr_heap_collect(const struct fr_heap *h, double max_key, uint32_t *out, size_t cap,
		       uint32_t *stack);
/* Changes the key of an id in the heap without restoring the heap order; the
 * next operation that needs the order restores it, in O(n) (Floyd), once
 * for a series of these. */
void fr_heap_rekey(struct fr_heap *h, uint32_t id, double key, double tie);
/* Lazy mode (lazy = 1): set and remove cost O(1) and leave the order broken;
 * peek and pop restore it first, in O(n), and collect scans every entry.
 * For a caller that changes many entries between two collects (a burst of
 * fetches that takes a large share of the heap). lazy = 0 restores the order
 * and returns to O(log n) operations. */
void fr_heap_set_lazy(struct fr_heap *h, int lazy);
/* Key of an id that is in the heap. */
double fr_heap_key(const struct fr_heap *h, uint32_t id);

#endif
