/* err.h - error messages for library calls: a caller-owned buffer that a
 * failing function fills with one line naming the input and the reason. */
#ifndef FR_CORE_ERR_H
#define FR_CORE_ERR_H

#include <stddef.h>

/* Size callers should give error buffers. Longer messages are truncated. */
#define FR_ERRLEN 512

/* Formats into err (len bytes, always NUL-terminated when len > 0). err may be
 * NULL, then nothing is written. Returns -1 so callers can `return fr_errf(...)`. */
int fr_errf(char *err, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
