/* fuzz_fpage.c - libFuzzer harness for forum page analysis
 * (lib/forum/page.h): any bytes parse without crashing, as a page fetched
 * "now" by a detector that knows every default locale; every link is an
 * absolute http(s) URL without a fragment, in a group numbered in order of
 * first use, and in the record that holds it; records hold their own links,
 * a thread's posts have text, an index row's title is one of its links, and
 * the dates are in range; a second parse gives the same page. Without
 * FR_LIBFUZZER, replay.c's main replays the seeds. */
#include "forum/fdate.h"
#include "forum/page.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define REQUIRE(c)                                                                                 \
	do {                                                                                       \
		if (!(c)) {                                                                        \
			fprintf(stderr, "fuzz_fpage: broken promise: %s (%s:%d)\n", #c, __FILE__,  \
			        __LINE__);                                                         \
			abort();                                                                   \
		}                                                                                  \
	} while (0)

#define NOW 1790000000                               /* 2026-09-21T14:13:20Z */
#define T_MIN (-2208988800LL - 2 * 86400)            /* 1900-01-01, with a zone's slack */
#define T_MAX (7258118400LL + 400LL * 86400 + 86400) /* 2200-01-01, with the future limit */

static struct fr_fdate *fd;

static void
check(const struct fr_fpage *p)
{
	uint32_t groups = 0;

	REQUIRE(p->kind == FR_FPAGE_OTHER || p->kind == FR_FPAGE_INDEX ||
	        p->kind == FR_FPAGE_THREAD);
	REQUIRE(p->url != NULL);
	REQUIRE(p->kind != FR_FPAGE_OTHER || p->n_recs == 0);
	REQUIRE(p->n_date_cols <= 2 && p->n_lead_out_of_order <= 1);
	for (size_t i = 0; i < p->n_links; i++) {
		const struct fr_fpage_link *l = &p->links[i];

		REQUIRE(l->url &&
		        (!strncmp(l->url, "http://", 7) || !strncmp(l->url, "https://", 8)));
		REQUIRE(!strchr(l->url, '#'));
		REQUIRE(l->text != NULL);
		REQUIRE(l->group <= groups);
		if (l->group == groups)
			groups++;
		REQUIRE(l->record >= -1 && (l->record < 0 || (size_t)l->record < p->n_recs));
		if (l->record >= 0) {
			const struct fr_fpage_record *r = &p->recs[l->record];

			REQUIRE(i >= r->first_link && i < r->first_link + r->n_links);
		}
	}
	for (size_t i = 0; i < p->n_recs; i++) {
		const struct fr_fpage_record *r = &p->recs[i];

		REQUIRE(r->first_link + r->n_links <= p->n_links);
		for (uint32_t l = r->first_link; l < r->first_link + r->n_links; l++)
			REQUIRE(p->links[l].record == (int32_t)i);
		REQUIRE(r->date_s == FR_FPAGE_NO_DATE ||
		        (r->date_s >= T_MIN && r->date_s <= T_MAX));
		REQUIRE(r->date_gran <= FR_FDATE_YEAR);
		if (p->kind == FR_FPAGE_THREAD) {
			REQUIRE(r->text && r->text[0]);
			REQUIRE(r->date_s != FR_FPAGE_NO_DATE);
			REQUIRE(r->title_link == -1);
		} else {
			REQUIRE(!r->text && !r->author);
			REQUIRE(r->title_link >= -1 &&
			        (r->title_link < 0 || (size_t)r->title_link < p->n_links));
			REQUIRE(r->created_s == FR_FPAGE_NO_DATE || r->last_s == FR_FPAGE_NO_DATE ||
			        r->created_s <= r->last_s);
		}
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fr_fpage_opts o;
	struct fr_fpage *p = NULL, *q = NULL;
	char err[512];

	if (!fd && fr_fdate_new(&fd) != 0)
		abort();
	memset(&o, 0, sizeof(o));
	o.dates = fd;
	o.now_s = NOW;
	o.zone = size && data[0] & 1 ? "Europe/Berlin" : NULL;
	if (fr_fpage_parse((const char *)data, size, "https://forum.example.org/t/1?page=2", &o, &p,
	                   err, sizeof(err)) != 0) {
		REQUIRE(err[0] != '\0' && p == NULL);
		return 0;
	}
	check(p);
	/* the same bytes, the same page */
	REQUIRE(fr_fpage_parse((const char *)data, size, "https://forum.example.org/t/1?page=2", &o,
	                       &q, err, sizeof(err)) == 0);
	REQUIRE(q->kind == p->kind && q->n_recs == p->n_recs && q->n_links == p->n_links);
	for (size_t i = 0; i < p->n_recs; i++)
		REQUIRE(p->recs[i].date_s == q->recs[i].date_s);
	fr_fpage_free(p);
	fr_fpage_free(q);
	return 0;
}
