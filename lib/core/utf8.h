/* utf8.h - the one UTF-8 sequence check the store, the OPML reader and the
 * CLI share. */
#ifndef FR_CORE_UTF8_H
#define FR_CORE_UTF8_H

#include <stddef.h>

/* Length of the valid UTF-8 sequence at s (1-4), or 0 when invalid:
 * overlong forms, surrogates and code points above U+10FFFF included. s
 * must be NUL-terminated (a NUL is never a continuation byte, so a cut
 * sequence stops there). */
size_t fr_utf8_len(const unsigned char *s);

#endif
