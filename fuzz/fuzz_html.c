/* fuzz_html.c - libFuzzer harness for discovery's HTML reader
 * (lib/discover/html.h): any bytes scan without crashing; every link handed
 * out is an absolute http(s) URL without a fragment, flagged for a reason,
 * with autodiscovery links first; the rules agree with the flags. Without
 * FR_LIBFUZZER, replay.c's main replays the seeds. */
#include "discover/html.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define REQUIRE(c)                                                                                 \
	do {                                                                                       \
		if (!(c)) {                                                                        \
			fprintf(stderr, "fuzz_html: broken promise: %s (%s:%d)\n", #c, __FILE__,  \
			        __LINE__);                                                         \
			abort();                                                                   \
		}                                                                                  \
	} while (0)

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fr_html_page p;
	char err[512];
	const char *ct = size && data[0] & 1 ? "text/html; charset=iso-8859-1" : NULL;

	if (fr_html_scan((const char *)data, size, "https://www.example.com/dir/page.html", ct, 200,
	                 &p, err, sizeof(err)) < 0) {
		REQUIRE(err[0] != '\0');
		return 0;
	}
	REQUIRE(p.base != NULL);
	REQUIRE(p.n_feed_links <= p.n_links);
	for (size_t i = 0; i < p.n_links; i++) {
		const struct fr_html_link *l = &p.links[i];

		REQUIRE(l->url && (!strncmp(l->url, "http://", 7) || !strncmp(l->url, "https://", 8)));
		REQUIRE(!strchr(l->url, '#'));
		REQUIRE(l->flags != 0);
		REQUIRE(!!(l->flags & FR_HTML_FEED_LINK) == (i < p.n_feed_links));
		if (l->flags & FR_HTML_FEEDLIKE)
			REQUIRE(l->flags & FR_HTML_FOLLOW);
		for (size_t j = 0; j < i; j++)
			REQUIRE(strcmp(p.links[j].url, l->url) != 0);
	}
	REQUIRE(p.n_links <= 200 + p.n_feed_links);
	(void)fr_html_sniff((const char *)data, size);
	fr_html_page_clear(&p);
	return 0;
}
