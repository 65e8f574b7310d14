/* fuzz_ctx.c - libFuzzer harness for each policy's saved context
 * (fr_policy_ops.ctx_load, lib/sched/policy.h), which the live crawler reads
 * back from the store at start. For every registered policy that has one:
 * created with its defaults, the input loaded; a refusal must leave the
 * context working as created, an acceptance must save back to the same
 * length; then sources are initialised, fetched (items, 304s, errors) and
 * asked for urgency, due times, rates and rhythms, which must never be NaN.
 * Without FR_LIBFUZZER, replay.c's main replays the seeds. */
#include "sched/params.h"
#include "sched/policy.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define REQUIRE(c)                                                                                 \
	do {                                                                                       \
		if (!(c)) {                                                                        \
			fprintf(stderr, "fuzz_ctx: broken promise: %s (%s:%d)\n", #c, __FILE__,   \
			        __LINE__);                                                         \
			abort();                                                                   \
		}                                                                                  \
	} while (0)

#define START 1700000000.0

static void
exercise(const struct fr_policy_ops *ops, void *ctx)
{
	size_t ss = ops->state_size(ctx);
	unsigned char *st = calloc(1, ss ? ss : 1);
	double pub[3], now = START;

	if (!st)
		return;
	ops->init(ctx, st, 0, now);
	for (int i = 0; i < 6; i++) {
		struct fr_fetch f = {0};
		double u, d;

		now += 3600 * (i + 1);
		pub[0] = now - 600;
		pub[1] = now - 1800;
		pub[2] = NAN;
		f.now_s = now;
		f.status = i % 3 == 0 ? FR_FETCH_OK : i % 3 == 1 ? FR_FETCH_NOT_MODIFIED : FR_FETCH_ERROR;
		f.n_items = f.status == FR_FETCH_OK ? 3 : 0;
		f.published_s = pub;
		ops->fetched(ctx, st, &f);
		if (ops->urgency) {
			u = ops->urgency(ctx, st, now + 60);
			REQUIRE(!isnan(u));
		}
		d = ops->due(ctx, st, now, ops->theta0 > 0 ? ops->theta0 : 1);
		REQUIRE(!isnan(d));
		if (ops->rate)
			REQUIRE(!isnan(ops->rate(ctx, st, now)));
		if (ops->rhythm) {
			double r[24];

			ops->rhythm(ctx, st, r);
			for (int h = 0; h < 24; h++)
				REQUIRE(!isnan(r[h]));
		}
	}
	free(st);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct fr_policy_ops *ops;
	uint32_t group[3] = {0, 0, 0};
	double w[3] = {1, 1, 1};
	struct fr_policy_env env = {.n_sources = 3,
	                            .weight = w,
	                            .group = group,
	                            .start_s = START,
	                            .calls_per_s = 0.1,
	                            .seed = 1};

	for (size_t i = 0; (ops = fr_policy_at(i)) != NULL; i++) {
		struct fr_params p;
		char err[256];
		void *ctx = NULL;
		int rc;

		if (!ops->ctx_load)
			continue;
		if (fr_params_parse(&p, ops->name, err, sizeof(err)) != 0 ||
		    ops->create(&ctx, &p, &env, err, sizeof(err)) != 0)
			continue;
		err[0] = '\0';
		rc = ops->ctx_load(ctx, data, size, err, sizeof(err));
		REQUIRE(rc == 0 || rc == -1);
		/* a refusal says why */
		REQUIRE(rc == 0 || (err[0] != '\0' && strlen(err) < sizeof(err)));
		if (rc == 0 && ops->ctx_save)
			REQUIRE(ops->ctx_save(ctx, NULL, 0) == size);
		exercise(ops, ctx);
		ops->destroy(ctx);
	}
	return 0;
}
