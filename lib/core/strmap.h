/* strmap.h - interning of names: maps byte strings to dense ids 0..n-1 in
 * first-seen order, and back. Open addressing, grows by doubling. */
#ifndef FR_CORE_STRMAP_H
#define FR_CORE_STRMAP_H

#include <stddef.h>
#include <stdint.h>

struct fr_strmap;

/* Returns an empty map or NULL on out-of-memory. Caller frees with
 * fr_strmap_free. */
struct fr_strmap *fr_strmap_new(void);
void fr_strmap_free(struct fr_strmap *m);

/* Id of the n bytes at s, adding a copy of them if new. Sets *added to 1 when
 * the name is new, else 0 (added may be NULL). Returns 0, or -1 on
 * out-of-memory (the map is unchanged). Names are compared as bytes; a name
 * with a NUL inside is kept whole but fr_strmap_name shows it cut there. */
int fr_strmap_intern(struct fr_strmap *m, const char *s, size_t n, uint32_t *id, int *added);
/* Id of s if present: returns 1 and sets *id, else 0. */
int fr_strmap_find(const struct fr_strmap *m, const char *s, size_t n, uint32_t *id);
size_t fr_strmap_len(const struct fr_strmap *m);
/* Returns a borrowed NUL-terminated name, valid until the map is freed (names
 * never move as the map grows), or NULL when id is not below the length. */
const char *fr_strmap_name(const struct fr_strmap *m, uint32_t id);

#endif
