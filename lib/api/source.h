/* source.h - what the store keeps of a JSON API source (its kind_state):
 * the mapping spec, where its token is read at run time (an environment
 * variable's name or a file's path, never the token), a page limit, and
 * what the API last said of its rate limit. One small text form, read
 * and written here. Pure: bytes in, struct out. */
#ifndef FR_API_SOURCE_H
#define FR_API_SOURCE_H

#include "api/limit.h"

#include <stddef.h>

#define FR_API_PAGES_DEFAULT 10 /* pages followed per fetch at most */
#define FR_API_PAGES_MAX 1000
#define FR_API_SOURCE_MAX_BYTES (FR_API_SPEC_MAX_BYTES + 8192u)

struct fr_api_source {
	char *spec;       /* the spec's text (api/spec.h), never NULL once read */
	char *token_env;  /* the environment variable holding the token, or NULL */
	char *token_file; /* the file whose first line is the token, or NULL */
	int max_pages;    /* pages followed per fetch, 1..FR_API_PAGES_MAX */
	/* What the API last said (fr_api_limit's figures; -1 unknown). */
	double limit, remaining, reset_at_s, window_s, usage_pct, hold_until_s, learned_s;
};

/* Zeroes s with max_pages at its default and every figure unknown. */
void fr_api_source_init(struct fr_api_source *s);
/* Frees what s owns and zeroes it (as fr_api_source_init). */
void fr_api_source_clear(struct fr_api_source *s);

/* Reads the stored form from text[0..len) (as fr_api_source_format wrote
 * it) into *out (initialised first; clear it after). The spec is checked
 * by fr_api_spec_parse. Returns 0, or -1 with err set ("api source: line
 * 3: ...") and *out cleared. */
int fr_api_source_parse(const char *text, size_t len, struct fr_api_source *out, char *err,
			size_t errlen);

/* The stored form of s: lines "key = value" ("token-env", "token-file",
 * "pages", "said"), then "spec:" and the spec's text to the end. malloc'd
 * (caller frees), *len its length; NULL on out of memory or when a value
 * holds a new line. */
char *fr_api_source_format(const struct fr_api_source *s, size_t *len);

/* Copies what l says into s's figures, and back. */
void fr_api_source_said(struct fr_api_source *s, const struct fr_api_limit *l);
void fr_api_source_restore(const struct fr_api_source *s, struct fr_api_limit *l);

/* Which limit state s shares: sources whose keys are equal spend one
 * token's (one application's) calls. "env:VAR", "file:PATH", or "host:" +
 * host when the source has no token. Writes it to buf (cut to len - 1)
 * and returns buf. */
char *fr_api_source_key(const struct fr_api_source *s, const char *host, char *buf, size_t len);

#endif
