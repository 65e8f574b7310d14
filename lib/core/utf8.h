/* utf8.h - the one UTF-8 sequence check and repair the store, the OPML
 * reader and the CLI share. */
#ifndef FR_CORE_UTF8_H
#define FR_CORE_UTF8_H

#include <stddef.h>

/* Length of the valid UTF-8 sequence at s (1-4), or 0 when invalid:
 * overlong forms, surrogates and code points above U+10FFFF included. s
 * must be NUL-terminated (a NUL is never a continuation byte, so a cut
 * sequence stops there). */
size_t fr_utf8_len(const unsigned char *s);

/* *out = a malloc'd copy of s with each byte that starts no valid sequence
 * replaced by U+FFFD, or NULL when s is valid UTF-8 (nothing to repair).
 * Returns 0, or -1 out of memory (*out NULL). */
int fr_utf8_fix(const char *s, char **out);

#endif
