/* spec_internal.h - the inside of struct fr_api_spec, shared by spec.c (which
 * reads the text form) and map.c (which walks a response with it). Not for
 * callers outside lib/api. */
#ifndef FR_API_SPEC_INTERNAL_H
#define FR_API_SPEC_INTERNAL_H

#include "api/spec.h"

#include <stddef.h>

/* What a path is: a walk through the document, or a special source. */
enum api_path_kind {
	API_PATH = 0,
	API_AT_LINK,   /* "@link": the response's Link header, rel="next" (next only) */
	API_AT_LAST_ID /* "@last_id": the id of the list's last entry (cursor only) */
};

/* A path: keys from the node it starts at. On an array a key that is a
 * decimal number without leading zeros ("0", "12") is an index (RFC 6901). */
struct api_path {
	enum api_path_kind kind;
	char **seg; /* n malloc'd keys, unescaped */
	size_t n;
};

/* A field: the first alternative that gives a value wins. */
struct api_alts {
	struct api_path alt[FR_API_SPEC_MAX_ALTS];
	size_t n;
};

struct fr_api_spec {
	char *name;           /* never NULL */
	struct api_path list; /* from the document's root to the array */
	int has_list;
	struct api_path item; /* from each array entry to the item object */
	struct api_alts f[FR_API_NFIELDS];
	enum fr_api_format title_fmt, text_fmt, summary_fmt;
	int time_ms;        /* numeric times are milliseconds (else seconds) */
	char *link_base;    /* base of item links instead of the request URL, or NULL */
	char *cursor_param; /* query parameter a cursor goes into, or NULL */
};

#endif
