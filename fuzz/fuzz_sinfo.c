/* fuzz_sinfo.c - libFuzzer harness for the forum crawler's saved state
 * (fr_sinfo_load, lib/forum/sinfo.h): any bytes load or are refused with
 * an error and no forum; a forum that loads answers every accessor, saves,
 * loads back from its own save and saves to the same bytes again, and
 * begins a cycle whose first URL is an absolute http(s) URL (then ends
 * without commit). Without FR_LIBFUZZER, replay.c's main replays the
 * seeds. */
#include "forum/fdate.h"
#include "forum/sinfo.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define REQUIRE(c)                                                                                 \
	do {                                                                                       \
		if (!(c)) {                                                                        \
			fprintf(stderr, "fuzz_sinfo: broken promise: %s (%s:%d)\n", #c, __FILE__,  \
			        __LINE__);                                                         \
			abort();                                                                   \
		}                                                                                  \
	} while (0)

#define NOW 1790000000.0

static struct fr_fdate *fd;

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fr_sinfo *f = (struct fr_sinfo *)&fd, *g = NULL;
	void *b1 = NULL, *b2 = NULL;
	size_t l1 = 0, l2 = 0;
	char err[512] = "";
	char *d;

	if (!fd && fr_fdate_new(&fd) != 0)
		abort();
	if (fr_sinfo_load(data, size, &f, err, sizeof(err)) != 0) {
		REQUIRE(err[0] != '\0' && f == NULL);
		return 0;
	}
	REQUIRE(f != NULL);
	(void)fr_sinfo_sort_name(fr_sinfo_index_sort(f));
	(void)fr_sinfo_sort_name(fr_sinfo_thread_sort(f));
	(void)fr_sinfo_n_boards(f);
	(void)fr_sinfo_n_threads(f);
	{
		const char *e = fr_sinfo_entry(f);

		REQUIRE(!e || !strncmp(e, "http://", 7) || !strncmp(e, "https://", 8));
	}
	d = fr_sinfo_describe(f);
	free(d);
	/* save, load the save, save again: the same bytes */
	REQUIRE(fr_sinfo_save(f, &b1, &l1) == 0);
	REQUIRE(fr_sinfo_load(b1, l1, &g, err, sizeof(err)) == 0);
	REQUIRE(fr_sinfo_save(g, &b2, &l2) == 0);
	REQUIRE(l1 == l2 && !memcmp(b1, b2, l1));
	REQUIRE(fr_sinfo_n_boards(g) == fr_sinfo_n_boards(f) &&
	        fr_sinfo_n_threads(g) == fr_sinfo_n_threads(f));
	free(b1);
	free(b2);
	fr_sinfo_free(g);
	/* a cycle begins on the loaded state */
	{
		struct fr_sinfo_opts o;
		struct fr_sinfo_cycle *c = NULL;

		memset(&o, 0, sizeof(o));
		o.dates = fd;
		o.max_pages = 4;
		if (fr_sinfo_cycle_begin(f, &o, NOW, &c, err, sizeof(err)) == 0) {
			const char *u = fr_sinfo_cycle_next(c);

			REQUIRE(!u || !strncmp(u, "http://", 7) || !strncmp(u, "https://", 8));
			if (u)
				fr_sinfo_cycle_feed(c, 404, NULL, 0, NOW + 1);
			fr_sinfo_cycle_end(c, 0);
		} else {
			REQUIRE(err[0] != '\0');
		}
	}
	fr_sinfo_free(f);
	return 0;
}
