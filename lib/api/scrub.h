/* scrub.h - an API credential kept out of what is printed, logged or stored:
 * the token, as given and percent-encoded, and the values of the query
 * parameters that carry secrets (access_token=, client_secret=,
 * appsecret_proof=) replaced by "***". */
#ifndef FR_API_SCRUB_H
#define FR_API_SCRUB_H

#include <stddef.h>

#define FR_API_SCRUBBED "***"

/* A copy of s with token (may be NULL or empty: then only the parameters)
 * and the secret parameters' values replaced by "***". malloc'd (caller
 * frees), NULL on out of memory or when s is NULL. */
char *fr_api_scrub(const char *s, const char *token);

/* The same in place in buf (cap bytes, NUL-terminated; an error buffer): a
 * result longer than cap - 1 is cut, never a token half-kept. */
void fr_api_scrub_buf(char *buf, size_t cap, const char *token);

/* url without the query parameters that carry secrets (access_token,
 * client_secret, appsecret_proof: a Graph API paging.next link carries the
 * access token), the rest as it was. malloc'd (caller frees), NULL on out
 * of memory or when url is NULL. */
char *fr_api_url_strip(const char *url);

#endif
