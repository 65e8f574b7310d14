/* test_report.c - the HTML report: one self-contained page with the five
 * figures, sized SVGs, escaped labels, gaps for empty weeks, no NaN in the
 * output, write errors reported, and fast on a million delays. Given a path
 * (test_report PAGE.html) it writes a sample page there instead, for the
 * browser check in tests/e2e/report.sh. */
#include "test.h"

#include "core/rng.h"
#include "sim/report.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define T0 1349049600.0 /* 2012-10-01T00:00:00Z, a Monday */
#define HOUR 3600.0
#define DAY 86400.0
#define WEEK 604800.0

static const char *const figure_ids[] = {"fig-table", "fig-weekly-delay", "fig-weekly-fetched",
					 "fig-cdf", "fig-rhythm"};

/* Writes the report to a temporary file and returns its text (caller frees),
 * or NULL; *rc is fr_report_html's result. */
static char *
render(const struct fr_report *r, int *rc, char *err, size_t errlen)
{
	FILE *f = tmpfile();
	if (!f)
		return NULL;
	*rc = fr_report_html(f, r, err, errlen);
	long n = ftell(f);
	char *buf = n >= 0 ? malloc((size_t)n + 1) : NULL;
	rewind(f);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	if (buf)
		buf[n] = '\0';
	fclose(f);
	return buf;
}

static size_t
count(const char *s, const char *needle)
{
	size_t n = 0;
	for (const char *p = strstr(s, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

/* The text of <figure id="ID"> up to its </figure>, copied (caller frees). */
static char *
figure(const char *page, const char *id)
{
	char open[64];
	snprintf(open, sizeof(open), "<figure id=\"%s\">", id);
	const char *a = strstr(page, open);
	const char *b = a ? strstr(a, "</figure>") : NULL;
	if (!b)
		return NULL;
	char *s = malloc((size_t)(b - a) + 1);
	if (s) {
		memcpy(s, a, (size_t)(b - a));
		s[b - a] = '\0';
	}
	return s;
}

/* The d attribute of the first path of series NAME in text, copied. */
static char *
series_d(const char *text, const char *name)
{
	char key[64];
	snprintf(key, sizeof(key), "data-series=\"%s\"", name);
	const char *a = text ? strstr(text, key) : NULL;
	const char *d = a ? strstr(a, " d=\"") : NULL;
	const char *e = d ? strchr(d + 4, '"') : NULL;
	if (!e)
		return NULL;
	char *s = malloc((size_t)(e - d - 4) + 1);
	if (s) {
		memcpy(s, d + 4, (size_t)(e - d - 4));
		s[e - d - 4] = '\0';
	}
	return s;
}

/* A word that reads as a non-finite number: nan, inf, infinity (any case). */
static int
has_nonfinite_word(const char *s)
{
	while (*s) {
		if (!isalpha((unsigned char)*s)) {
			s++;
			continue;
		}
		char w[16];
		size_t n = 0;
		for (; isalpha((unsigned char)*s); s++)
			if (n + 1 < sizeof(w))
				w[n++] = (char)tolower((unsigned char)*s);
		w[n] = '\0';
		if (!strcmp(w, "nan") || !strcmp(w, "inf") || !strcmp(w, "infinity"))
			return 1;
	}
	return 0;
}

/* ---- the small hand-made report: two runs over three weeks ---- */

struct sample {
	struct fr_metrics m[8];
	struct fr_report_run runs[8];
	double rhythm[8][4 * 24];
	double true_rhythm[4 * 24];
	const char *names[4];
	struct fr_report rep;
};

/* Run 0 fetches every item 10 minutes after publication; run 1 (the label
 * needing escapes) fetches nothing published in week 1, so its mean delay
 * per week has a gap there. */
static void
small_sample(struct sample *s)
{
	static const double pub[] = {HOUR, 2 * DAY, 8 * DAY, 9 * DAY, 15 * DAY, 16 * DAY};
	memset(s, 0, sizeof(*s));
	for (int r = 0; r < 2; r++) {
		struct fr_metrics *m = &s->m[r];
		CHECK(fr_metrics_init(m, T0, T0 + 3 * WEEK) == 0);
		for (size_t i = 0; i < sizeof(pub) / sizeof(pub[0]); i++) {
			double t = T0 + pub[i];
			fr_metrics_published(m, t);
			if (r == 1 && pub[i] >= WEEK && pub[i] < 2 * WEEK) {
				fr_metrics_request(m, t + 300, 0);
				continue;
			}
			double delay = r == 0 ? 600 : 60 * (double)(i + 1);
			fr_metrics_request(m, t + delay, 1);
			CHECK(fr_metrics_fetched(m, t, t + delay) == 0);
		}
		CHECK(fr_metrics_finish(m) == 0);
		s->runs[r].m = m;
		s->runs[r].budget_needed = r == 0 ? NAN : INFINITY;
		s->runs[r].has_rhythm = r == 1;
		s->runs[r].rhythm = s->rhythm[r];
	}
	s->runs[0].label = "round-robin";
	s->runs[1].label = "air<&>\"balloon";
	for (int k = 0; k < 2 * 24; k++) {
		s->rhythm[1][k] = 1 + 0.5 * sin(k * 0.26);
		s->true_rhythm[k] = 2 + sin(k * 0.26);
	}
	s->names[0] = "src<1>";
	s->names[1] = "b&b";
	s->rep = (struct fr_report){
		.title = "freshet simulate: <test> & co",
		.input_desc = "hand-made metrics, 6 items",
		.budget_desc = "1 calls / 10 s (burst)",
		.window_s = 600,
		.target_delay_s = 600,
		.target_desc = "round robin's mean delay",
		.n_runs = 2,
		.runs = s->runs,
		.n_rhythm = 2,
		.rhythm_names = s->names,
		.true_rhythm = s->true_rhythm,
	};
}

static void
sample_free(struct sample *s)
{
	for (size_t i = 0; i < sizeof(s->m) / sizeof(s->m[0]); i++)
		if (s->m[i].weeks)
			fr_metrics_free(&s->m[i]);
}

static void
page_is_self_contained_with_five_figures(void)
{
	struct sample s;
	char err[256] = "";
	int rc = -1;

	small_sample(&s);
	char *page = render(&s.rep, &rc, err, sizeof(err));
	CHECK(page != NULL);
	CHECK(rc == 0);
	if (!page) {
		sample_free(&s);
		return;
	}
	CHECK(!strncmp(page, "<!DOCTYPE html>", 15));
	CHECK(strstr(page, "<style>") != NULL);
	CHECK(strstr(page, "</html>") != NULL);
	for (size_t i = 0; i < sizeof(figure_ids) / sizeof(figure_ids[0]); i++) {
		char id[64];
		snprintf(id, sizeof(id), "<figure id=\"%s\">", figure_ids[i]);
		CHECK(count(page, id) == 1);
	}
	/* One svg per chart: weekly delay, weekly fetched, CDF, and one per
	 * rhythm source; each sized, with a viewBox and a title. */
	CHECK(count(page, "<svg") == 3 + 2);
	for (const char *p = strstr(page, "<svg"); p; p = strstr(p + 1, "<svg")) {
		const char *end = strchr(p, '>');
		CHECK(end != NULL);
		if (!end)
			break;
		size_t n = (size_t)(end - p);
		char tag[512];
		snprintf(tag, sizeof(tag), "%.*s", (int)(n < sizeof(tag) - 1 ? n : sizeof(tag) - 1), p);
		CHECK(strstr(tag, " width=\"") != NULL);
		CHECK(strstr(tag, " height=\"") != NULL);
		CHECK(strstr(tag, " viewBox=\"0 0 ") != NULL);
		CHECK(!strncmp(end, "><title>", 8));
	}
	/* Nothing external: the only URL is the SVG namespace. */
	for (const char *p = strstr(page, "http"); p; p = strstr(p + 1, "http"))
		CHECK(!strncmp(p, "http://www.w3.org/2000/svg\"", 27));
	CHECK(strstr(page, "<script") == NULL && strstr(page, "<SCRIPT") == NULL);
	CHECK(strstr(page, "<link") == NULL);
	CHECK(strstr(page, "<img") == NULL);
	CHECK(strstr(page, "url(") == NULL);
	CHECK(strstr(page, "@import") == NULL);
	CHECK(strstr(page, " src=") == NULL);
	CHECK(strstr(page, "href") == NULL);
	/* Legends and the rhythm's true line. */
	CHECK(count(page, "class=\"legend\"") == 3 + 2);
	char *rh = figure(page, "fig-rhythm");
	CHECK(rh && count(rh, "data-series=\"true\"") == 2);
	CHECK(rh && count(rh, "data-series=\"1\"") == 2); /* the run with a rhythm */
	CHECK(rh && !strstr(rh, "data-series=\"0\""));      /* the one without */
	free(rh);
	free(page);
	sample_free(&s);
}

static void
labels_and_titles_are_escaped(void)
{
	struct sample s;
	char err[256];
	int rc = -1;

	small_sample(&s);
	char *page = render(&s.rep, &rc, err, sizeof(err));
	CHECK(page && rc == 0);
	if (page) {
		CHECK(strstr(page, "air<&>\"balloon") == NULL);
		CHECK(strstr(page, "air&lt;&amp;&gt;&quot;balloon") != NULL);
		CHECK(strstr(page, "<test>") == NULL);
		CHECK(strstr(page, "freshet simulate: &lt;test&gt; &amp; co") != NULL);
		CHECK(strstr(page, "src&lt;1&gt;") != NULL && strstr(page, "src<1>") == NULL);
		CHECK(strstr(page, "b&amp;b") != NULL);
	}
	free(page);
	sample_free(&s);
}

static void
empty_week_is_a_gap_and_no_nan_is_written(void)
{
	struct sample s;
	char err[256];
	int rc = -1;

	small_sample(&s);
	char *page = render(&s.rep, &rc, err, sizeof(err));
	CHECK(page && rc == 0);
	char *wd = page ? figure(page, "fig-weekly-delay") : NULL;
	char *d0 = series_d(wd, "0"), *d1 = series_d(wd, "1");
	CHECK(d0 && d1);
	if (d0 && d1) {
		/* Run 0: one segment through three weeks. Run 1: week 1 is
		 * NaN, so weeks 0 and 2 are two single-point segments. */
		CHECK(count(d0, "M") == 1 && count(d0, "L") == 2);
		CHECK(count(d1, "M") == 2 && count(d1, "L") == 0);
	}
	/* Items fetched per week has no gap: week 1 is 0 items, not NaN. */
	char *wf = page ? figure(page, "fig-weekly-fetched") : NULL;
	char *f1 = series_d(wf, "1");
	CHECK(f1 && count(f1, "M") == 1);
	CHECK(wf && strstr(wf, "data-series=\"published\"") != NULL);
	if (page)
		CHECK(!has_nonfinite_word(page));
	/* The checker itself. */
	CHECK(has_nonfinite_word("x=\"1\" y=\"-nan\"") && has_nonfinite_word("d=\"M inf"));
	CHECK(!has_nonfinite_word("information, finance"));
	free(f1);
	free(wf);
	free(d0);
	free(d1);
	free(wd);
	free(page);
	sample_free(&s);
}

static void
budget_column_only_with_a_target(void)
{
	struct sample s;
	char err[256];
	int rc = -1;

	small_sample(&s);
	char *page = render(&s.rep, &rc, err, sizeof(err));
	char *t = page ? figure(page, "fig-table") : NULL;
	CHECK(t && strstr(t, "budget needed") != NULL);
	CHECK(t && count(t, "<td>unreachable</td>") == 1); /* INFINITY */
	CHECK(t && strstr(t, "<td>-</td><td>1.000</td>") != NULL); /* NAN, then vs first */
	free(t);
	free(page);
	s.rep.target_delay_s = NAN;
	page = render(&s.rep, &rc, err, sizeof(err));
	t = page ? figure(page, "fig-table") : NULL;
	CHECK(t && strstr(t, "budget needed") == NULL && strstr(t, "unreachable") == NULL);
	/* Coverage 4/6 for run 1, and the counts. */
	CHECK(t && strstr(t, "<td>66.67%</td>") != NULL);
	free(t);
	free(page);
	sample_free(&s);
}

static void
no_runs_still_has_every_figure(void)
{
	struct fr_report rep = {.title = "empty", .target_delay_s = NAN};
	char err[256];
	int rc = -1;

	char *page = render(&rep, &rc, err, sizeof(err));
	CHECK(page && rc == 0);
	for (size_t i = 0; page && i < sizeof(figure_ids) / sizeof(figure_ids[0]); i++) {
		char id[64];
		snprintf(id, sizeof(id), "<figure id=\"%s\">", figure_ids[i]);
		CHECK(strstr(page, id) != NULL);
	}
	CHECK(page && !has_nonfinite_word(page));
	free(page);
}

static void
write_error_is_reported(void)
{
	struct sample s;
	char err[256] = "";
	FILE *f = fopen("/dev/full", "w");

	if (!f) {
		fprintf(stderr, "  (no /dev/full: write error not checked)\n");
		return;
	}
	small_sample(&s);
	CHECK(fr_report_html(f, &s.rep, err, sizeof(err)) == -1);
	CHECK(strstr(err, "write error") != NULL);
	fclose(f);
	/* A stream open for reading only fails at the first write. */
	FILE *ro = fopen("/dev/null", "r");
	if (ro) {
		err[0] = '\0';
		CHECK(fr_report_html(ro, &s.rep, err, sizeof(err)) == -1);
		CHECK(strstr(err, "write error") != NULL);
		fclose(ro);
	}
	sample_free(&s);
}

static double
now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The CDF comes from a histogram of every delay: 1.1 M delays for 4 and
 * for 15 runs (sharing one set of metrics) stay well under a second. */
static void
million_delays_are_fast(void)
{
	struct fr_metrics m;
	struct fr_rng rng;
	struct fr_report_run runs[15];
	char err[256];
	const size_t n = 1100000;
	int bad = 0;

	CHECK(fr_metrics_init(&m, T0, T0 + 26 * WEEK) == 0);
	fr_rng_seed(&rng, 42);
	for (size_t i = 0; i < n + n / 10; i++) {
		double pub = T0 + (double)i * (26 * WEEK) / (double)(n + n / 10);
		fr_metrics_published(&m, pub);
		if (i % 11 == 10)
			continue;
		double delay = fr_rng_exp(&rng, 1800);
		fr_metrics_request(&m, pub + delay, 1);
		bad |= fr_metrics_fetched(&m, pub, pub + delay) != 0;
	}
	CHECK(!bad);
	CHECK(m.fetched == n);
	CHECK(fr_metrics_finish(&m) == 0);
	for (int i = 0; i < 15; i++)
		runs[i] = (struct fr_report_run){"policy", &m, NAN, 0, NULL};
	struct fr_report rep = {.title = "large", .target_delay_s = NAN, .runs = runs};
	for (int k = 0; k < 2; k++) {
		FILE *f = fopen("/dev/null", "w");
		CHECK(f != NULL);
		if (!f)
			break;
		rep.n_runs = k == 0 ? 4 : 15;
		double t = now_s();
		CHECK(fr_report_html(f, &rep, err, sizeof(err)) == 0);
		t = now_s() - t;
		fclose(f);
		fprintf(stderr, "  report of %zu runs x 1.1 M delays: %.3f s\n", rep.n_runs, t);
		/* Printed, not checked: a unit test does not time (bench/ does). */
	}
	fr_metrics_free(&m);
}

/* ---- the sample page for the browser check ---- */

/* Five runs over twelve weeks of a synthetic trace: the usual three
 * policies, one whose label needs escaping and one that misses a week. */
static int
write_sample_page(const char *path)
{
	static const struct {
		const char *label;
		double mean_delay_s, miss, budget;
		int rhythm;
	} pol[] = {
		{"round-robin", 2400, 0.002, 600, 0},
		{"buzzwise:k=3000", 1500, 0.004, 410, 0},
		{"air-balloon:inertia=960", 900, 0.003, 262.5, 1},
		{"air-balloon:inertia=<240> & \"fast\"", 1100, 0.02, INFINITY, 1},
		{"nutch:interval=1d", 5200, 0.03, NAN, 0},
	};
	enum { NP = sizeof(pol) / sizeof(pol[0]), NS = 3 };
	static const char *const names[NS] = {"askreddit", "science & <tech>", "worldnews"};
	static const double peak_h[NS] = {15, 19, 8}, amp[NS] = {0.6, 0.9, 0.4};
	static struct sample s;
	const double span = 12 * WEEK, n_items = 30000;
	struct fr_rng rng;
	char err[256];

	memset(&s, 0, sizeof(s));
	for (int p = 0; p < NP; p++) {
		struct fr_metrics *m = &s.m[p];
		if (fr_metrics_init(m, T0, T0 + span) < 0)
			return 1;
		fr_rng_seed(&rng, 7); /* the same trace for every policy */
		struct fr_rng d;
		fr_rng_seed(&d, 100 + (uint64_t)p);
		for (int i = 0; i < n_items; i++) {
			/* More items on weekdays and in the afternoon (UTC). */
			double t;
			do
				t = T0 + span * fr_rng_uniform(&rng);
			while (fr_rng_uniform(&rng) > (fmod(t - T0, WEEK) < 5 * DAY ? 1.0 : 0.7) *
							  (0.6 + 0.4 * sin(2 * M_PI * fmod(t, DAY) / DAY)));
			fr_metrics_published(m, t);
			double week = floor((t - T0) / WEEK);
			double delay = fr_rng_exp(&d, pol[p].mean_delay_s *
							    (1 + 0.25 * sin(week * 0.9 + p)));
			if (fr_rng_uniform(&d) < pol[p].miss || t + delay >= T0 + span ||
			    (p == 4 && week == 6))
				continue;
			fr_metrics_request(m, t + delay, 1);
			if (fr_metrics_fetched(m, t, t + delay) < 0)
				return 1;
		}
		/* Empty calls, by the policy's waste. */
		for (int i = 0; i < (int)(n_items * (0.2 + 0.3 * p)); i++)
			fr_metrics_request(m, T0 + span * fr_rng_uniform(&d), 0);
		if (fr_metrics_finish(m) < 0)
			return 1;
		s.runs[p] = (struct fr_report_run){pol[p].label, m, pol[p].budget, pol[p].rhythm,
						   s.rhythm[p]};
		for (int k = 0; k < NS; k++)
			for (int h = 0; h < 24; h++)
				s.rhythm[p][k * 24 + h] =
					1 + amp[k] * (1 - 0.2 * p) *
						    cos(2 * M_PI * (h + 0.5 - peak_h[k] - 0.7 * p) / 24) +
					0.08 * fr_rng_normal(&d);
	}
	for (int k = 0; k < NS; k++)
		for (int h = 0; h < 24; h++)
			s.true_rhythm[k * 24 + h] =
				1 + amp[k] * cos(2 * M_PI * (h + 0.5 - peak_h[k]) / 24);
	s.rep = (struct fr_report){
		.title = "freshet simulate: world build/demo-world",
		.input_desc = "synthetic sample: 30,000 items, 2012-10-01 .. 2012-12-24 (12 weeks)",
		.budget_desc = "600 calls / 600 s (burst)",
		.window_s = 600,
		.target_delay_s = s.m[0].delay_mean_s,
		.target_desc = "round robin's mean delay at 600/10m",
		.n_runs = NP,
		.runs = s.runs,
		.n_rhythm = NS,
		.rhythm_names = names,
		.true_rhythm = s.true_rhythm,
	};
	FILE *f = fopen(path, "w");
	if (!f) {
		perror(path);
		sample_free(&s);
		return 1;
	}
	int rc = fr_report_html(f, &s.rep, err, sizeof(err));
	if (fclose(f) != 0 && rc == 0) {
		rc = -1;
		snprintf(err, sizeof(err), "close failed");
	}
	if (rc < 0)
		fprintf(stderr, "%s: %s\n", path, err);
	sample_free(&s);
	return rc < 0;
}

int
main(int argc, char **argv)
{
	if (argc > 1)
		return write_sample_page(argv[1]);
	RUN(page_is_self_contained_with_five_figures);
	RUN(labels_and_titles_are_escaped);
	RUN(empty_week_is_a_gap_and_no_nan_is_written);
	RUN(budget_column_only_with_a_target);
	RUN(no_runs_still_has_every_figure);
	RUN(write_error_is_reported);
	RUN(million_delays_are_fast);
	return TEST_DONE();
}
