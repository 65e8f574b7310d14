/* rng.c - xoshiro256** by Blackman and Vigna (public domain), seeded with
 * splitmix64 so that any 64-bit seed gives a well-mixed state. */
#include "core/rng.h"

#include <math.h>

static uint64_t
rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static uint64_t
splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void
fr_rng_seed(struct fr_rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
}

uint64_t
fr_rng_u64(struct fr_rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

double
fr_rng_uniform(struct fr_rng *r)
{
	/* 53 random bits, shifted by half an ulp so 0 never comes out. */
	return ((double)(fr_rng_u64(r) >> 11) + 0.5) * (1.0 / 9007199254740992.0);
}

uint64_t
fr_rng_below(struct fr_rng *r, uint64_t n)
{
	/* Lemire's multiply-shift; the tiny bias is irrelevant for simulation. */
	return (uint64_t)(((unsigned __int128)fr_rng_u64(r) * n) >> 64);
}

double
fr_rng_exp(struct fr_rng *r, double mean)
{
	return -mean * log(fr_rng_uniform(r));
}

double
fr_rng_normal(struct fr_rng *r)
{
	double u1 = fr_rng_uniform(r), u2 = fr_rng_uniform(r);
	return sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}

uint64_t
fr_rng_poisson(struct fr_rng *r, double mean)
{
	if (mean <= 0)
		return 0;
	if (mean > 500) {
		double x = mean + sqrt(mean) * fr_rng_normal(r) + 0.5;
		return x < 0 ? 0 : (uint64_t)x;
	}
	/* Inversion by sequential search; stable for moderate means. */
	double u = fr_rng_uniform(r), p = exp(-mean), cum = p;
	uint64_t k = 0;
	while (u > cum && k < 10000) {
		k++;
		p *= mean / (double)k;
		cum += p;
	}
	return k;
}
