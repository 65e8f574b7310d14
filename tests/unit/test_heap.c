/* test_heap.c - the indexed heap against a brute-force minimum. */
#include "test.h"

#include "core/heap.h"
#include "core/rng.h"

#include <stdlib.h>

#define N 300

static void
random_ops_match_brute_force(void)
{
	struct fr_heap *h = fr_heap_new(N);
	double key[N];
	int in[N] = {0};
	struct fr_rng r;

	fr_rng_seed(&r, 7);
	for (int step = 0; step < 20000; step++) {
		uint32_t id = (uint32_t)fr_rng_below(&r, N);
		int op = (int)fr_rng_below(&r, 3);
		if (op < 2) {
			key[id] = (double)fr_rng_below(&r, 50); /* many ties */
			fr_heap_set(h, id, key[id], 0);
			in[id] = 1;
		} else {
			fr_heap_remove(h, id);
			in[id] = 0;
		}
		/* The top is the smallest (key, id). */
		int best = -1;
		size_t count = 0;
		for (int i = 0; i < N; i++)
			if (in[i]) {
				count++;
				if (best < 0 || key[i] < key[best])
					best = i;
			}
		CHECK(fr_heap_len(h) == count);
		uint32_t top;
		double k;
		if (best < 0)
			CHECK(!fr_heap_peek(h, &top, &k));
		else {
			CHECK(fr_heap_peek(h, &top, &k));
			CHECK(top == (uint32_t)best);
			CHECK(k == key[best]);
		}
	}
	/* Popping drains in order. */
	double prev = -1;
	uint32_t id;
	double k;
	while (fr_heap_pop(h, &id, &k)) {
		CHECK(k >= prev);
		prev = k;
		CHECK(!fr_heap_contains(h, id));
	}
	fr_heap_free(h);
}

static void
ties_break_by_second_key_then_id(void)
{
	struct fr_heap *h = fr_heap_new(4);
	uint32_t id;

	fr_heap_set(h, 3, 1.0, 5.0);
	fr_heap_set(h, 1, 1.0, 7.0);
	fr_heap_set(h, 2, 1.0, 5.0);
	fr_heap_pop(h, &id, NULL);
	CHECK(id == 2);
	fr_heap_pop(h, &id, NULL);
	CHECK(id == 3);
	fr_heap_pop(h, &id, NULL);
	CHECK(id == 1);
	fr_heap_free(h);
}

int
main(void)
{
	RUN(random_ops_match_brute_force);
	RUN(ties_break_by_second_key_then_id);
	return TEST_DONE();
}
