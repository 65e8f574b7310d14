/* suggest.c - optimal string alignment distance, bounded to short words. */
#include "suggest.h"

#include <string.h>

#define MAXW 64

static size_t
min3(size_t a, size_t b, size_t c)
{
	size_t m = a < b ? a : b;
	return m < c ? m : c;
}

/* Edit distance with adjacent swaps (optimal string alignment); words
 * longer than MAXW bytes count as far from everything. */
static size_t
distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t d[MAXW + 1][MAXW + 1];

	if (la > MAXW || lb > MAXW)
		return (size_t)-1;
	for (size_t i = 0; i <= la; i++)
		d[i][0] = i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= la; i++) {
		for (size_t j = 1; j <= lb; j++) {
			size_t cost = a[i - 1] != b[j - 1];

			d[i][j] = min3(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < d[i][j])
				d[i][j] = d[i - 2][j - 2] + 1;
		}
	}
	return d[la][lb];
}

const char *
cli_suggest(const char *word, const char *const *names, size_t n)
{
	const char *best = NULL, *prefix = NULL;
	size_t best_d = (size_t)-1, wl = strlen(word), n_prefix = 0;

	if (wl == 0)
		return NULL;
	for (size_t k = 0; k < n; k++) {
		size_t nl = strlen(names[k]);
		size_t limit = nl <= 4 ? 1 : nl <= 8 ? 2 : 3;
		size_t d = distance(word, names[k]);

		if (d <= limit && d < best_d) {
			best = names[k];
			best_d = d;
		}
		if (wl < nl && !strncmp(word, names[k], wl)) {
			prefix = names[k];
			n_prefix++;
		}
	}
	if (best)
		return best;
	return n_prefix == 1 && wl >= 2 ? prefix : NULL;
}
