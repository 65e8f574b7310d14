/* sha1.c - SHA-1 (FIPS 180-4) for the identity of items that carry neither
 * guid nor link. Not for security: only a stable, well-known digest. */
#include "parse/sha1.h"

#include <stdint.h>
#include <string.h>

static uint32_t
rol(uint32_t x, int n)
{
	return (x << n) | (x >> (32 - n));
}

static void
block(uint32_t h[5], const unsigned char *p)
{
	uint32_t w[80], a, b, c, d, e;

	for (int i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		       (uint32_t)p[4 * i + 2] << 8 | (uint32_t)p[4 * i + 3];
	for (int i = 16; i < 80; i++)
		w[i] = rol(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
	a = h[0];
	b = h[1];
	c = h[2];
	d = h[3];
	e = h[4];
	for (int i = 0; i < 80; i++) {
		uint32_t f, k, t;

		if (i < 20) {
			f = (b & c) | (~b & d);
			k = 0x5A827999;
		} else if (i < 40) {
			f = b ^ c ^ d;
			k = 0x6ED9EBA1;
		} else if (i < 60) {
			f = (b & c) | (b & d) | (c & d);
			k = 0x8F1BBCDC;
		} else {
			f = b ^ c ^ d;
			k = 0xCA62C1D6;
		}
		t = rol(a, 5) + f + e + k + w[i];
		e = d;
		d = c;
		c = rol(b, 30);
		b = a;
		a = t;
	}
	h[0] += a;
	h[1] += b;
	h[2] += c;
	h[3] += d;
	h[4] += e;
}

void
fr_sha1_hex(const void *data, size_t n, char out[41])
{
	static const char hex[] = "0123456789abcdef";
	uint32_t h[5] = {0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0};
	const unsigned char *p = data;
	unsigned char tail[128];
	size_t full = n / 64 * 64, rest = n - full, tn;
	uint64_t bits = (uint64_t)n * 8;

	for (size_t i = 0; i < full; i += 64)
		block(h, p + i);
	memset(tail, 0, sizeof(tail));
	if (rest)
		memcpy(tail, p + full, rest);
	tail[rest] = 0x80;
	tn = rest + 1 + 8 <= 64 ? 64 : 128;
	for (int i = 0; i < 8; i++)
		tail[tn - 1 - i] = (unsigned char)(bits >> (8 * i));
	block(h, tail);
	if (tn == 128)
		block(h, tail + 64);
	for (int i = 0; i < 5; i++)
		for (int j = 0; j < 8; j++)
			out[i * 8 + j] = hex[(h[i] >> (28 - 4 * j)) & 0xF];
	out[40] = '\0';
}
