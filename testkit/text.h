/* text.h - a growable text buffer with a maximum size, for the bodies that
 * `freshet serve` builds (feeds, webs, forums): append, printf, XML and JSON
 * escaping. Running out of memory or over the cap voids the text. */
#ifndef FR_TESTKIT_TEXT_H
#define FR_TESTKIT_TEXT_H

#include <stddef.h>

struct fr_text {
	char *p;    /* NUL-terminated when len > 0; NULL before the first append */
	size_t len; /* bytes, without the NUL */
	size_t cap; /* bytes allocated */
	size_t max; /* largest len allowed; 0: FR_TEXT_MAX_DEFAULT */
	int bad;    /* 1: out of memory or over max; appends are then ignored */
};

#define FR_TEXT_MAX_DEFAULT (16u << 20) /* 16 MiB */

/* A zeroed struct fr_text is an empty text with the default cap. */

/* Appends n bytes of s. */
void fr_text_add(struct fr_text *t, const char *s, size_t n);
/* Appends the string s. */
void fr_text_puts(struct fr_text *t, const char *s);
/* Appends printf-formatted text. */
void fr_text_printf(struct fr_text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Appends s escaped for XML and HTML text and attribute values (& < > " '). */
void fr_text_xml(struct fr_text *t, const char *s);
/* Appends s escaped for inside a JSON string (no quotes added). */
void fr_text_json(struct fr_text *t, const char *s);

/* Gives away the text: returns a malloc'd NUL-terminated string (caller
 * frees with free) and its length in *len, and leaves t empty; returns NULL
 * (t emptied too) when the text is void (t->bad). An empty good text gives
 * an allocated "". */
char *fr_text_take(struct fr_text *t, size_t *len);

/* Frees the text and leaves t empty (max kept). */
void fr_text_free(struct fr_text *t);

#endif
