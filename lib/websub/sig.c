/* sig.c - X-Hub-Signature over nettle's HMAC, and the random source for
 * secrets and callback ids. */
#include "websub/sig.h"

#include "core/hex.h"

#include <errno.h>
#include <nettle/hmac.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>

const char *
fr_websub_sig_name(enum fr_websub_sig s)
{
	switch (s) {
	case FR_WEBSUB_SIG_OK:
		return "ok";
	case FR_WEBSUB_SIG_MISSING:
		return "missing";
	case FR_WEBSUB_SIG_MALFORMED:
		return "malformed";
	case FR_WEBSUB_SIG_METHOD:
		return "unknown method";
	case FR_WEBSUB_SIG_MISMATCH:
		return "mismatch";
	}
	return "?";
}

/* The HMAC of body under secret with method into d; its size, or 0 for an
 * unknown method. */
static size_t
hmac(const char *method, size_t mlen, const char *secret, const void *body, size_t len,
     uint8_t *d)
{
	size_t kl = strlen(secret);

	if (mlen == 4 && !strncasecmp(method, "sha1", 4)) {
		struct hmac_sha1_ctx c;

		hmac_sha1_set_key(&c, kl, (const uint8_t *)secret);
		hmac_sha1_update(&c, len, body);
		hmac_sha1_digest(&c, SHA1_DIGEST_SIZE, d);
		return SHA1_DIGEST_SIZE;
	}
	if (mlen == 6 && !strncasecmp(method, "sha256", 6)) {
		struct hmac_sha256_ctx c;

		hmac_sha256_set_key(&c, kl, (const uint8_t *)secret);
		hmac_sha256_update(&c, len, body);
		hmac_sha256_digest(&c, SHA256_DIGEST_SIZE, d);
		return SHA256_DIGEST_SIZE;
	}
	if (mlen == 6 && !strncasecmp(method, "sha384", 6)) {
		struct hmac_sha384_ctx c;

		hmac_sha384_set_key(&c, kl, (const uint8_t *)secret);
		hmac_sha384_update(&c, len, body);
		hmac_sha384_digest(&c, SHA384_DIGEST_SIZE, d);
		return SHA384_DIGEST_SIZE;
	}
	if (mlen == 6 && !strncasecmp(method, "sha512", 6)) {
		struct hmac_sha512_ctx c;

		hmac_sha512_set_key(&c, kl, (const uint8_t *)secret);
		hmac_sha512_update(&c, len, body);
		hmac_sha512_digest(&c, SHA512_DIGEST_SIZE, d);
		return SHA512_DIGEST_SIZE;
	}
	return 0;
}

enum fr_websub_sig
fr_websub_sig_check(const char *header, const char *secret, const void *body, size_t len)
{
	uint8_t want[SHA512_DIGEST_SIZE], got[SHA512_DIGEST_SIZE];
	const char *eq, *hex, *end;
	size_t dl, hl;
	unsigned diff = 0;

	if (!header)
		return FR_WEBSUB_SIG_MISSING;
	while (*header == ' ' || *header == '\t')
		header++;
	if (!*header)
		return FR_WEBSUB_SIG_MISSING;
	end = header + strlen(header);
	while (end > header && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	if (!(eq = memchr(header, '=', (size_t)(end - header))) || eq == header)
		return FR_WEBSUB_SIG_MALFORMED;
	dl = hmac(header, (size_t)(eq - header), secret ? secret : "", body, len, want);
	if (!dl)
		return FR_WEBSUB_SIG_METHOD;
	hex = eq + 1;
	hl = (size_t)(end - hex);
	if (hl != 2 * dl)
		return FR_WEBSUB_SIG_MALFORMED;
	for (size_t i = 0; i < dl; i++) {
		int a = fr_hex_digit((unsigned char)hex[2 * i]), b = fr_hex_digit((unsigned char)hex[2 * i + 1]);

		if (a < 0 || b < 0)
			return FR_WEBSUB_SIG_MALFORMED;
		got[i] = (uint8_t)(a << 4 | b);
	}
	/* Constant time: every byte is compared whatever the first differing one. */
	for (size_t i = 0; i < dl; i++)
		diff |= (unsigned)(got[i] ^ want[i]);
	return diff ? FR_WEBSUB_SIG_MISMATCH : FR_WEBSUB_SIG_OK;
}

int
fr_websub_sig_make(const char *method, const char *secret, const void *body, size_t len, char *out)
{
	static const char hx[] = "0123456789abcdef";
	uint8_t d[SHA512_DIGEST_SIZE];
	size_t ml = strlen(method), dl = ml < 8 ? hmac(method, ml, secret, body, len, d) : 0, k;

	out[0] = '\0';
	if (!dl)
		return -1;
	for (k = 0; k < ml; k++)
		out[k] = (char)(method[k] >= 'A' && method[k] <= 'Z' ? method[k] + 32 : method[k]);
	out[k++] = '=';
	for (size_t i = 0; i < dl; i++) {
		out[k++] = hx[d[i] >> 4];
		out[k++] = hx[d[i] & 15];
	}
	out[k] = '\0';
	return 0;
}

int
fr_websub_random(void *buf, size_t n)
{
	uint8_t *p = buf;

	while (n > 0) {
		ssize_t r = getrandom(p, n, 0);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += r;
		n -= (size_t)r;
	}
	return 0;
}

int
fr_websub_random_hex(char *out, size_t n)
{
	static const char hx[] = "0123456789abcdef";
	uint8_t b[64];

	out[0] = '\0';
	if (n > sizeof(b) || fr_websub_random(b, n) < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		out[2 * i] = hx[b[i] >> 4];
		out[2 * i + 1] = hx[b[i] & 15];
	}
	out[2 * n] = '\0';
	memset(b, 0, sizeof(b));
	return 0;
}
