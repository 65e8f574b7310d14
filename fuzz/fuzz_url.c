/* fuzz_url.c - libFuzzer harness for the URL code (lib/url/url.h): the
 * input's first line is a base URL, the rest a reference. Resolution,
 * normalisation (with every flag), host and path+query must not crash, a
 * failure must say why, and normalising is idempotent. Without
 * FR_LIBFUZZER, replay.c's main replays the seeds. */
#include "core/err.h"
#include "url/url.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define REQUIRE(c)                                                                                 \
	do {                                                                                       \
		if (!(c)) {                                                                        \
			fprintf(stderr, "fuzz_url: broken promise: %s (%s:%d)\n", #c, __FILE__,   \
			        __LINE__);                                                         \
			abort();                                                                   \
		}                                                                                  \
	} while (0)

static void
exercise(const char *url)
{
	char err[FR_ERRLEN];
	char *n, *n2, *h, *pq;

	for (unsigned flags = 0; flags < 4; flags++) {
		err[0] = '\0';
		n = fr_url_normalize(url, flags, err, sizeof(err));
		if (!n) {
			REQUIRE(err[0] != '\0');
			continue;
		}
		REQUIRE(n[0] != '\0');
		n2 = fr_url_normalize(n, flags, err, sizeof(err));
		REQUIRE(n2 != NULL);
		if (strcmp(n, n2) != 0) {
			fprintf(stderr, "fuzz_url: normalize not idempotent: '%s' -> '%s' -> '%s'\n", url, n, n2);
			abort();
		}
		free(n2);
		free(n);
	}
	h = fr_url_host(url);
	if (h)
		REQUIRE(h[0] != '\0');
	free(h);
	pq = fr_url_path_query(url);
	if (pq)
		REQUIRE(pq[0] == '/');
	free(pq);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1), *nl, *ref, *out;
	char err[FR_ERRLEN];

	if (!s)
		return 0;
	if (size)
		memcpy(s, data, size);
	s[size] = '\0'; /* an embedded NUL just ends the text early */
	nl = strchr(s, '\n');
	if (nl) {
		*nl = '\0';
		ref = nl + 1;
	} else {
		ref = s;
	}
	err[0] = '\0';
	out = fr_url_resolve(nl ? s : NULL, ref, err, sizeof(err));
	if (out) {
		REQUIRE(out[0] != '\0');
		exercise(out);
		free(out);
	} else {
		REQUIRE(err[0] != '\0');
	}
	exercise(s);
	free(s);
	return 0;
}
