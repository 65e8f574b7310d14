/* uri.h - where the password sits in a libpq URI's userinfo: one parser
 * for store.c (hiding it from display names) and pg.c (scrubbing it from
 * messages). Internal to lib/store. */
#ifndef FR_STORE_URI_H
#define FR_STORE_URI_H

#include <stddef.h>

/* The userinfo password of uri ("scheme://user:PASSWORD@host:port/db?..."),
 * found without decoding anything: the authority runs from just after uri's
 * first "://" to the first '/', '?' or '#' after it (or the end); the
 * userinfo is the authority before its last '@' (so an '@' in a password
 * need not be percent-encoded); the password is the userinfo after its
 * first ':'. The query is not looked at.
 * Returns -1 when uri has no "://" (a key=value conninfo, a file path):
 * nothing is set. Else sets *auth_end to the end of the authority and
 * returns 1 with [*pw, *pw_end) the password (empty for "user:@") when the
 * userinfo has a ':', or 0 (no '@', or no ':' before it) with *pw and
 * *pw_end untouched. The pointers are borrowed from uri. */
int fr_store_uri_password(const char *uri, const char **pw, const char **pw_end,
                          const char **auth_end);

/* Whether the query parameter [param, param + n) (no '&' or '#' in it) is
 * "password=VALUE", the name in any case: 9 (the value's offset), or 0. */
size_t fr_store_uri_password_param(const char *param, size_t n);

#endif
