/* bench_fdate.c - forum date detection throughput (lib/forum/fdate.h) on one
 * core, against the target of 100,000 date strings per second (issue 8) and
 * against ICU's own parser on the same strings, measured in the same run:
 *   - medium: every locale's CLDR medium date+time strings; baseline
 *     udat_parse with that locale's medium pattern (the one that wrote them;
 *     the strings handed to ICU already in UTF-16, which favours it);
 *   - mixed: every locale x every style, skeleton and relative form, bare and
 *     in a line of text; baseline udat_parse trying each of the locale's
 *     patterns in turn until one reads the whole string (what a detector
 *     built on ICU's parser would have to do).
 * Best of REPS runs each. Usage: bench_fdate [strings per locale, default 2000] */
#include "bench.h"

#include "forum/fdate.h"

#include <unicode/udat.h>
#include <unicode/udatpg.h>
#include <unicode/ureldatefmt.h>
#include <unicode/ustring.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define REPS 3
#define TARGET 100000.0

static const char *const locales[] = {"en", "ru", "tr", "es", "ro", "fr", "de",
                                      "nl", "it", "cs", "bg", "pl", "sv", "zh_Hans",
                                      "zh_Hant", "ko", "ja", "sr", "sr_Latn"};
#define N_LOC (sizeof(locales) / sizeof(locales[0]))

static const char *const skeletons[] = {"yMMMd", "yMMMMd", "yMMMEd", "yMMMMEEEEd", "yMd",
                                        "yMMdd", "yMMMdjm", "yMMMMdjms", "yMdjm", "yMdjms",
                                        "yMMMEdjm", "yMMMMdhm", "yMMMMEEEEdjm"};
#define N_SKEL (sizeof(skeletons) / sizeof(skeletons[0]))
#define N_PAT (8 + N_SKEL) /* 4 date styles, 4 date+time styles, skeletons */

struct str {
	char *s;
	size_t len;
	UChar *u;
	int32_t ulen;
	int loc;
};

struct set {
	struct str *v;
	size_t n, cap;
};

static uint64_t rng = 0x9E3779B97F4A7C15ULL;

static uint64_t
next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static int
add(struct set *s, const UChar *u, int32_t n, int loc, const char *prefix, const char *suffix)
{
	char buf[512];
	int32_t len;
	UErrorCode e = U_ZERO_ERROR;
	size_t pl = strlen(prefix), sl = strlen(suffix);
	struct str *x;

	u_strToUTF8(buf + pl, (int32_t)(sizeof(buf) - pl - sl - 1), &len, u, n, &e);
	if (U_FAILURE(e))
		return 0;
	memcpy(buf, prefix, pl);
	memcpy(buf + pl + len, suffix, sl + 1);
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 4096;
		struct str *v = realloc(s->v, cap * sizeof(*v));

		if (!v)
			return -1;
		s->v = v;
		s->cap = cap;
	}
	x = &s->v[s->n];
	x->len = pl + (size_t)len + sl;
	x->s = malloc(x->len + 1);
	x->u = malloc(((size_t)n + 1) * sizeof(UChar));
	if (!x->s || !x->u) {
		free(x->s);
		free(x->u);
		return -1;
	}
	memcpy(x->s, buf, x->len + 1);
	memcpy(x->u, u, (size_t)n * sizeof(UChar));
	x->u[n] = 0;
	x->ulen = n;
	x->loc = loc;
	s->n++;
	return 0;
}

/* The locale's patterns, formatters for them. */
static UDateFormat *fmts[N_LOC][N_PAT];
static UDateFormat *medium[N_LOC];

static int
open_formats(void)
{
	static const UDateFormatStyle ds[] = {UDAT_FULL, UDAT_LONG, UDAT_MEDIUM, UDAT_SHORT};
	size_t l, p;

	for (l = 0; l < N_LOC; l++) {
		UErrorCode e = U_ZERO_ERROR;
		UDateTimePatternGenerator *g = udatpg_open(locales[l], &e);

		if (U_FAILURE(e))
			return -1;
		for (p = 0; p < N_PAT; p++) {
			UErrorCode e2 = U_ZERO_ERROR;

			if (p < 8) {
				fmts[l][p] = udat_open(p < 4 ? UDAT_NONE : UDAT_SHORT, ds[p % 4], locales[l],
				                       u"UTC", -1, NULL, 0, &e2);
			} else {
				UChar sk[32], pat[128];
				int32_t n;

				u_uastrcpy(sk, skeletons[p - 8]);
				n = udatpg_getBestPattern(g, sk, -1, pat, 128, &e2);
				fmts[l][p] = udat_open(UDAT_PATTERN, UDAT_PATTERN, locales[l], u"UTC", -1, pat,
				                       n, &e2);
			}
			if (U_FAILURE(e2))
				return -1;
		}
		udatpg_close(g);
		e = U_ZERO_ERROR;
		medium[l] = udat_open(UDAT_MEDIUM, UDAT_MEDIUM, locales[l], u"UTC", -1, NULL, 0, &e);
		if (U_FAILURE(e))
			return -1;
	}
	return 0;
}

static int
build(struct set *med, struct set *mix, size_t per_loc, int64_t now)
{
	static const char *const pre[] = {"", "Posted by bob on ", "", "Last post: "};
	static const char *const suf[] = {"", " in General", "", " by anna"};
	static const URelativeDateTimeUnit units[] = {UDAT_REL_UNIT_MINUTE, UDAT_REL_UNIT_HOUR,
	                                              UDAT_REL_UNIT_DAY, UDAT_REL_UNIT_WEEK};
	size_t l, k;

	for (l = 0; l < N_LOC; l++) {
		UErrorCode e = U_ZERO_ERROR;
		URelativeDateTimeFormatter *r =
			ureldatefmt_open(locales[l], NULL, UDAT_STYLE_LONG, UDISPCTX_CAPITALIZATION_NONE, &e);

		if (U_FAILURE(e))
			return -1;
		for (k = 0; k < per_loc; k++) {
			UDate t = (UDate)(now - 86400 * 2 - (int64_t)(next_rand() % (20ULL * 365 * 86400))) *
			          1000.0;
			UChar out[256];
			UErrorCode e2 = U_ZERO_ERROR;
			int32_t n = udat_format(medium[l], t, out, 256, NULL, &e2);
			size_t c = next_rand() % 4;

			if (U_FAILURE(e2) || add(med, out, n, (int)l, "", "") < 0)
				return -1;
			e2 = U_ZERO_ERROR;
			if (k % 10 == 9) {
				n = ureldatefmt_formatNumeric(r, -(double)(next_rand() % 20 + 1),
				                              units[next_rand() % 4], out, 256, &e2);
			} else {
				n = udat_format(fmts[l][next_rand() % N_PAT], t, out, 256, NULL, &e2);
			}
			if (U_FAILURE(e2) || add(mix, out, n, (int)l, pre[c], suf[c]) < 0)
				return -1;
		}
		ureldatefmt_close(r);
	}
	return 0;
}

/* fdate over a set, one page per locale (the page's language known) or one
 * page for all (locales NULL). Returns strings per second; *found counts
 * the strings with a date. */
static double
run_fdate(struct fr_fdate *fd, const struct set *s, int known, const char *zone, int64_t now,
          size_t *found)
{
	struct fr_fdate_page *pages[N_LOC] = {0}, *all = NULL;
	double best = 0;
	size_t l, i;
	int rep;
	char err[512];

	for (l = 0; l < N_LOC; l++) {
		struct fr_fdate_page_opts o = {0};

		o.locales = known ? locales[l] : NULL;
		o.zone = zone;
		o.now_s = now;
		o.has_now = 1;
		if (fr_fdate_page_new(fd, &o, known ? &pages[l] : &all, err, sizeof(err)) != 0) {
			fprintf(stderr, "bench_fdate: %s\n", err);
			return 0;
		}
		if (!known)
			break;
	}
	for (rep = 0; rep < REPS; rep++) {
		double t0 = bench_now(), dt;
		size_t hits = 0;

		for (i = 0; i < s->n; i++) {
			struct fr_fdate_match m[4];

			hits += fr_fdate_scan(known ? pages[s->v[i].loc] : all, s->v[i].s, s->v[i].len, m,
			                      4) > 0;
		}
		dt = bench_now() - t0;
		if (dt > 0 && (double)s->n / dt > best)
			best = (double)s->n / dt;
		*found = hits;
	}
	for (l = 0; l < N_LOC; l++)
		fr_fdate_page_free(pages[l]);
	fr_fdate_page_free(all);
	return best;
}

/* ICU: udat_parse with the medium pattern (parsed: the whole string read). */
static double
run_icu_medium(const struct set *s, size_t *found)
{
	double best = 0;
	int rep;

	for (rep = 0; rep < REPS; rep++) {
		double t0 = bench_now(), dt;
		size_t i, hits = 0;

		for (i = 0; i < s->n; i++) {
			UErrorCode e = U_ZERO_ERROR;
			int32_t pos = 0;

			udat_parse(medium[s->v[i].loc], s->v[i].u, s->v[i].ulen, &pos, &e);
			hits += U_SUCCESS(e) && pos == s->v[i].ulen;
		}
		dt = bench_now() - t0;
		if (dt > 0 && (double)s->n / dt > best)
			best = (double)s->n / dt;
		*found = hits;
	}
	return best;
}

/* ICU trying every pattern of the locale until one reads the whole string. */
static double
run_icu_all(const struct set *s, size_t max, size_t *found, size_t *tried)
{
	double best = 0;
	size_t n = s->n < max ? s->n : max;
	int rep;

	for (rep = 0; rep < REPS; rep++) {
		double t0 = bench_now(), dt;
		size_t i, hits = 0;

		for (i = 0; i < n; i++) {
			size_t p;

			for (p = 0; p < N_PAT; p++) {
				UErrorCode e = U_ZERO_ERROR;
				int32_t pos = 0;

				udat_parse(fmts[s->v[i].loc][p], s->v[i].u, s->v[i].ulen, &pos, &e);
				if (U_SUCCESS(e) && pos == s->v[i].ulen) {
					hits++;
					break;
				}
			}
		}
		dt = bench_now() - t0;
		if (dt > 0 && (double)n / dt > best)
			best = (double)n / dt;
		*found = hits;
	}
	*tried = n;
	return best;
}

static void
free_set(struct set *s)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		free(s->v[i].s);
		free(s->v[i].u);
	}
	free(s->v);
}

int
main(int argc, char **argv)
{
	size_t per_loc = argc > 1 ? strtoul(argv[1], NULL, 10) : 2000, l, p;
	int64_t now = 1710504000; /* 2024-03-15T12:00:00Z */
	struct set med = {0}, mix = {0};
	struct fr_fdate *fd = NULL;
	char err[512];
	double t0, f_med, f_mix, f_all, f_zone, i_med, i_all;
	size_t h_med, h_mix, h_all, h_zone, hi_med, hi_all, tried;

	if (per_loc == 0 || open_formats() < 0 || build(&med, &mix, per_loc, now) < 0 ||
	    fr_fdate_new(&fd) != 0) {
		fprintf(stderr, "bench_fdate: setup failed\n");
		return 1;
	}
	t0 = bench_now();
	if (fr_fdate_load(fd, NULL, err, sizeof(err)) != 0) {
		fprintf(stderr, "bench_fdate: %s\n", err);
		return 1;
	}
	printf("bench_fdate: %zu locales, %zu strings per set, learning the vocabulary from ICU: "
	       "%.1f ms (once per detector)\n",
	       N_LOC, med.n, (bench_now() - t0) * 1e3);
	f_med = run_fdate(fd, &med, 1, NULL, now, &h_med);
	i_med = run_icu_medium(&med, &hi_med);
	f_mix = run_fdate(fd, &mix, 1, NULL, now, &h_mix);
	f_all = run_fdate(fd, &mix, 0, NULL, now, &h_all);
	f_zone = run_fdate(fd, &mix, 1, "Europe/Berlin", now, &h_zone);
	i_all = run_icu_all(&mix, mix.n / 4, &hi_all, &tried);
	printf("%-44s %12s %10s %12s %12s\n", "set / parser", "strings/s", "found", "vs target",
	       "vs baseline");
	printf("%-44s %12.0f %5zu/%-5zu %11.2fx %12s\n", "medium: fdate (page locale known)", f_med,
	       h_med, med.n, f_med / TARGET, "");
	printf("%-44s %12.0f %5zu/%-5zu %11.2fx %12s\n", "medium: ICU udat_parse, medium pattern",
	       i_med, hi_med, med.n, i_med / TARGET, "baseline");
	printf("%-44s %12s %10s %12s %11.2fx\n", "medium: fdate / ICU", "", "", "", f_med / i_med);
	printf("%-44s %12.0f %5zu/%-5zu %11.2fx %11.2fx\n", "mixed: fdate (page locale known)", f_mix,
	       h_mix, mix.n, f_mix / TARGET, f_mix / i_all);
	printf("%-44s %12.0f %5zu/%-5zu %11.2fx %11.2fx\n", "mixed: fdate (all 19 locales at once)",
	       f_all, h_all, mix.n, f_all / TARGET, f_all / i_all);
	printf("%-44s %12.0f %5zu/%-5zu %11.2fx %11.2fx\n", "mixed: fdate, page zone Europe/Berlin",
	       f_zone, h_zone, mix.n, f_zone / TARGET, f_zone / i_all);
	printf("%-44s %12.0f %5zu/%-5zu %11.2fx %12s\n", "mixed: ICU udat_parse, each pattern in turn",
	       i_all, hi_all, tried, i_all / TARGET, "baseline");
	printf("target %.0f strings/s: %s\n", TARGET,
	       f_mix >= TARGET && f_med >= TARGET && f_all >= TARGET && f_zone >= TARGET ? "met"
	                                                                             : "MISSED");
	for (l = 0; l < N_LOC; l++) {
		for (p = 0; p < N_PAT; p++)
			udat_close(fmts[l][p]);
		udat_close(medium[l]);
	}
	free_set(&med);
	free_set(&mix);
	fr_fdate_free(fd);
	return 0;
}
