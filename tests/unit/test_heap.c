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

/* Lazy mode: set, remove and rekey leave the order broken; collect still
 * finds exactly the keys <= a bound, and peek, pop and leaving lazy mode
 * give the smallest entry as an ordered heap would. */
static void
lazy_mode_matches_brute_force(void)
{
	struct fr_heap *h = fr_heap_new(N);
	double key[N];
	int in[N] = {0}, seen[N];
	uint32_t out[N], stack[N];
	struct fr_rng r;

	fr_rng_seed(&r, 11);
	for (int step = 0; step < 20000; step++) {
		uint32_t id = (uint32_t)fr_rng_below(&r, N);
		int op = (int)fr_rng_below(&r, 16);
		if (op == 0)
			fr_heap_set_lazy(h, (int)fr_rng_below(&r, 2));
		if (op < 8) {
			key[id] = (double)fr_rng_below(&r, 50);
			fr_heap_set(h, id, key[id], 0);
			in[id] = 1;
		} else if (op < 10 && in[id]) {
			key[id] = (double)fr_rng_below(&r, 50);
			fr_heap_rekey(h, id, key[id], 0);
		} else if (op < 14) {
			fr_heap_remove(h, id);
			in[id] = 0;
		} else if (op == 14) {
			double bound = (double)fr_rng_below(&r, 50);
			size_t want = 0, got = fr_heap_collect(h, bound, out, N, stack);
			for (int i = 0; i < N; i++) {
				seen[i] = 0;
				want += in[i] && key[i] <= bound;
			}
			CHECK(got == want);
			for (size_t j = 0; j < got; j++) {
				CHECK(in[out[j]] && key[out[j]] <= bound && !seen[out[j]]);
				seen[out[j]] = 1;
			}
		} else {
			int best = -1;
			for (int i = 0; i < N; i++)
				if (in[i] && (best < 0 || key[i] < key[best] ||
					      (key[i] == key[best] && i < best)))
					best = i;
			uint32_t top;
			double k;
			CHECK(fr_heap_peek(h, &top, &k) == (best >= 0));
			if (best >= 0)
				CHECK(top == (uint32_t)best && k == key[best]);
		}
		size_t count = 0;
		for (int i = 0; i < N; i++)
			count += in[i];
		CHECK(fr_heap_len(h) == count);
		CHECK(fr_heap_contains(h, id) == in[id]);
		if (in[id])
			CHECK(fr_heap_key(h, id) == key[id]);
	}
	fr_heap_set_lazy(h, 0);
	double prev = -1;
	uint32_t id;
	double k;
	while (fr_heap_pop(h, &id, &k)) {
		CHECK(k >= prev);
		prev = k;
	}
	fr_heap_free(h);
}

int
main(void)
{
	RUN(random_ops_match_brute_force);
	RUN(lazy_mode_matches_brute_force);
	RUN(ties_break_by_second_key_then_id);
	return TEST_DONE();
}
