/* sig.h - WebSub content signatures: X-Hub-Signature: METHOD=HEX, the
 * HMAC of the pushed body under the subscription's secret (sha1, sha256,
 * sha384 or sha512), made and checked in constant time. */
#ifndef FR_WEBSUB_SIG_H
#define FR_WEBSUB_SIG_H

#include <stddef.h>

/* What a delivery's signature check found. */
enum fr_websub_sig {
	FR_WEBSUB_SIG_OK,
	FR_WEBSUB_SIG_MISSING,   /* no X-Hub-Signature (or an empty one) */
	FR_WEBSUB_SIG_MALFORMED, /* not METHOD=HEX, or HEX of the wrong length */
	FR_WEBSUB_SIG_METHOD,    /* a method other than sha1, sha256, sha384, sha512 */
	FR_WEBSUB_SIG_MISMATCH   /* well formed, wrong: not signed with our secret */
};

/* "ok", "missing", "malformed", "unknown method", "mismatch"; static. */
const char *fr_websub_sig_name(enum fr_websub_sig s);

/* Longest signature text: "sha512=" and 128 hex digits, and NUL. */
#define FR_WEBSUB_SIG_MAX 136u

/* Checks header (the X-Hub-Signature value, may be NULL) against the HMAC
 * of body[0..len) under secret; the digests are compared in constant
 * time. Blanks around the value are ignored; the method is
 * case-insensitive, the hex either case. */
enum fr_websub_sig fr_websub_sig_check(const char *header, const char *secret, const void *body,
				       size_t len);

/* Writes "METHOD=HEX" (method "sha1", "sha256", "sha384" or "sha512") of
 * body under secret into out (at least FR_WEBSUB_SIG_MAX bytes). Returns
 * 0, or -1 for an unknown method (out then ""). */
int fr_websub_sig_make(const char *method, const char *secret, const void *body, size_t len,
		       char *out);

/* Fills buf with n bytes from the system's random source (getrandom).
 * Returns 0, or -1 when it cannot (nothing weaker is used instead). */
int fr_websub_random(void *buf, size_t n);

/* Writes 2n lower-case hex digits of n random bytes and a NUL into out
 * (2n + 1 bytes): secrets and callback ids. Returns 0 or -1 as above. */
int fr_websub_random_hex(char *out, size_t n);

#endif
