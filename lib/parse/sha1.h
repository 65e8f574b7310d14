/* sha1.h - SHA-1 as 40 hex digits: the identity of items that carry no id
 * of their own (feed items without guid or link, forum posts). Not for
 * security: only a stable, well-known digest. */
#ifndef FR_PARSE_SHA1_H
#define FR_PARSE_SHA1_H

#include <stddef.h>

/* Writes the SHA-1 of data as 40 lower-case hex digits and a NUL. */
void fr_sha1_hex(const void *data, size_t n, char out[41]);

#endif
