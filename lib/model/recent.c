/* recent.c - insertion into a short sorted array. */
#include "model/recent.h"

void
fr_recent_add(float *pub, uint8_t *n, int cap, float t)
{
	int i;

	if (*n == cap) {
		if (!(t > pub[0]))
			return;
		for (i = 1; i < cap; i++)
			pub[i - 1] = pub[i];
		(*n)--;
	}
	for (i = *n; i > 0 && pub[i - 1] > t; i--)
		pub[i] = pub[i - 1];
	pub[i] = t;
	(*n)++;
}
