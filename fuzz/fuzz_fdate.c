/* fuzz_fdate.c - libFuzzer harness for forum date detection
 * (lib/forum/fdate.h): the input is scanned as text by a page that knows its
 * locale (de, Europe/Berlin) and by one that tries every default locale;
 * matches must lie inside the input, in order, without overlap, with times
 * in years 1900-2200; scanning is deterministic, a smaller output array
 * changes nothing but what is written, and a blank on each side only shifts
 * the spans. Each line is also read as an attribute value and the lines
 * decide a page's numeric order. Without FR_LIBFUZZER, replay.c's main
 * replays the seeds. */
#include "forum/fdate.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define REQUIRE(c)                                                                                 \
	do {                                                                                       \
		if (!(c)) {                                                                        \
			fprintf(stderr, "fuzz_fdate: broken promise: %s (%s:%d)\n", #c, __FILE__, \
			        __LINE__);                                                         \
			abort();                                                                   \
		}                                                                                  \
	} while (0)

#define MAXM 256
#define T_MIN (-2208988800LL - 2 * 86400)   /* 1900-01-01, with a zone's slack */
#define T_MAX (7258118400LL + 400LL * 86400) /* 2200-01-01, with the future limit */

static struct fr_fdate *fd;
static struct fr_fdate_page *known, *all;

static void
setup(void)
{
	struct fr_fdate_page_opts o = {0};
	char err[512];

	if (fd)
		return;
	if (fr_fdate_new(&fd) != 0)
		abort();
	o.now_s = 1710504000; /* 2024-03-15T12:00:00Z */
	o.has_now = 1;
	o.zone = "Europe/Berlin";
	o.locales = "de,en";
	if (fr_fdate_page_new(fd, &o, &known, err, sizeof(err)) != 0) {
		fprintf(stderr, "fuzz_fdate: %s\n", err);
		abort();
	}
	o.locales = NULL;
	o.zone = NULL;
	if (fr_fdate_page_new(fd, &o, &all, err, sizeof(err)) != 0) {
		fprintf(stderr, "fuzz_fdate: %s\n", err);
		abort();
	}
}

static void
check(struct fr_fdate_page *pg, const char *s, size_t n)
{
	static struct fr_fdate_match a[MAXM], b[MAXM], c[MAXM];
	size_t ka = fr_fdate_scan(pg, s, n, a, MAXM), kb, kc, i;
	char *padded = malloc(n + 2);

	kb = fr_fdate_scan(pg, s, n, b, 1);
	REQUIRE(ka == kb);
	REQUIRE(fr_fdate_scan(pg, s, n, NULL, 0) == ka);
	if (ka > 0)
		REQUIRE(memcmp(&a[0], &b[0], sizeof(a[0])) == 0);
	for (i = 0; i < ka && i < MAXM; i++) {
		REQUIRE(a[i].begin < a[i].end && a[i].end <= n);
		REQUIRE(i == 0 || a[i].begin >= a[i - 1].end);
		REQUIRE(a[i].t_s >= T_MIN && a[i].t_s <= T_MAX);
		REQUIRE((unsigned)a[i].gran <= FR_FDATE_YEAR);
		REQUIRE(!(a[i].flags & FR_FDATE_NUMERIC) || a[i].order != FR_FDATE_ORDER_NONE);
	}
	if (!padded)
		return;
	padded[0] = ' ';
	if (n)
		memcpy(padded + 1, s, n);
	padded[n + 1] = ' ';
	kc = fr_fdate_scan(pg, padded, n + 2, c, MAXM);
	REQUIRE(kc == ka);
	for (i = 0; i < ka && i < MAXM; i++) {
		REQUIRE(c[i].begin == a[i].begin + 1 && c[i].end == a[i].end + 1);
		REQUIRE(c[i].t_s == a[i].t_s && c[i].gran == a[i].gran);
	}
	free(padded);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *copy = malloc(size ? size : 1);
	const char *lines[64];
	size_t lens[64], nl = 0, p = 0;
	enum fr_fdate_order o;

	if (!copy)
		return 0;
	setup();
	if (size)
		memcpy(copy, data, size);
	check(known, copy, size);
	check(all, copy, size);
	/* lines as attribute values and as the texts of one page */
	while (p < size && nl < 64) {
		size_t e = p;
		struct fr_fdate_match m;

		while (e < size && copy[e] != '\n')
			e++;
		lines[nl] = copy + p;
		lens[nl++] = e - p;
		memset(&m, 0, sizeof(m));
		if (fr_fdate_parse_attr(known, copy + p, e - p, &m) == 0) {
			REQUIRE(m.begin <= m.end && m.end <= e - p);
		}
		p = e + 1;
	}
	fr_fdate_page_decide_order(known, lines, lens, nl, &o);
	REQUIRE((unsigned)o <= FR_FDATE_YMD);
	fr_fdate_page_set_order(known, FR_FDATE_ORDER_NONE);
	free(copy);
	return 0;
}
