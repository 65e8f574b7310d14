/* rng.h - a small deterministic random generator (xoshiro256**, seeded by
 * splitmix64). Same seed, same sequence, on every machine. */
#ifndef FR_CORE_RNG_H
#define FR_CORE_RNG_H

#include <stdint.h>

struct fr_rng {
	uint64_t s[4];
};

void fr_rng_seed(struct fr_rng *r, uint64_t seed);
uint64_t fr_rng_u64(struct fr_rng *r);
/* Uniform in the open interval (0, 1). */
double fr_rng_uniform(struct fr_rng *r);
/* Uniform integer in [0, n); n > 0. */
uint64_t fr_rng_below(struct fr_rng *r, uint64_t n);
/* Exponential with the given mean. */
double fr_rng_exp(struct fr_rng *r, double mean);
/* Standard normal (Box-Muller; one value per call). */
double fr_rng_normal(struct fr_rng *r);
/* Poisson with the given mean (inversion for small means, normal approx. with
 * continuity correction above 500). */
uint64_t fr_rng_poisson(struct fr_rng *r, double mean);

#endif
