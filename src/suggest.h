/* suggest.h - "did you mean": the closest of a list of names to a word
 * someone typed (a command, an option), for error messages. */
#ifndef FR_CLI_SUGGEST_H
#define FR_CLI_SUGGEST_H

#include <stddef.h>

/* The name among names[0..n-1] nearest to word by edit distance (insert,
 * delete, substitute, swap two neighbours), when near enough to be a typo
 * of it: at most 1 edit for names up to 4 bytes, 2 up to 8, else 3; ties go
 * to the earlier name. Also a name that word is a prefix of, when only one
 * is ("sim" -> "simulate"). NULL when none is near. Compares bytes. */
const char *cli_suggest(const char *word, const char *const *names, size_t n);

#endif
