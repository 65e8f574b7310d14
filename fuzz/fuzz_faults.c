/* fuzz_faults.c - libFuzzer harness for the faults file of `simulate
 * --faults` (lib/sim/faults.h): the input is parsed against a fixed trace
 * and checked against the header's promises (every fault names a source of
 * the trace, a window with to > from, a status 0 or 100..599, a finite
 * Retry-After >= 0; a failure leaves nothing and says where); each parsed
 * file is then replayed by a short simulation. Without FR_LIBFUZZER,
 * replay.c's main replays the seed corpus. */
#include "core/err.h"
#include "sim/faults.h"
#include "sim/sim.h"
#include "sim/trace.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define REQUIRE(c)                                                                                 \
	do {                                                                                       \
		if (!(c)) {                                                                        \
			fprintf(stderr, "fuzz_faults: broken promise: %s (%s:%d)\n", #c, __FILE__, \
				__LINE__);                                                         \
			abort();                                                                   \
		}                                                                                  \
	} while (0)

static struct fr_trace tr;
static int have_trace;

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fr_faults f;
	char err[FR_ERRLEN];

	if (!have_trace) {
		const char *names[] = {"a", "b", "c", "a", "b"};
		const double t[] = {1000, 2000, 3000, 4000, 90000};

		REQUIRE(fr_trace_from_rows(&tr, 5, names, t, NULL, err, sizeof(err)) == 0);
		have_trace = 1;
	}
	if (fr_faults_parse("in.csv", (const char *)data, size, &tr, &f, err, sizeof(err)) < 0) {
		REQUIRE(f.v == NULL && f.n == 0);
		REQUIRE(strncmp(err, "in.csv", 6) == 0);
		return 0;
	}
	for (size_t k = 0; k < f.n; k++) {
		const struct fr_fault *x = &f.v[k];

		REQUIRE(x->source < tr.n_sources);
		REQUIRE(isfinite(x->from_s) && isfinite(x->to_s) && x->to_s > x->from_s);
		REQUIRE(x->status == 0 || (x->status >= 100 && x->status <= 599));
		REQUIRE(isfinite(x->retry_after_s) && x->retry_after_s >= 0);
	}
	/* A short run with them: no fault may stop it or break its counts. */
	struct fr_sim_config c = {0};
	struct fr_metrics m;
	c.start_s = 0;
	c.end_s = 86400;
	c.calls = 10;
	c.window_s = 600;
	c.host_gap_s = 1;
	c.seed = 1;
	c.faults = &f;
	if (fr_sim_run(&tr, "round-robin", &c, &m, NULL, err, sizeof(err)) == 0) {
		REQUIRE(m.failed_requests <= m.requests);
		REQUIRE(m.fetched <= m.items);
		fr_metrics_free(&m);
	}
	fr_faults_free(&f);
	return 0;
}
