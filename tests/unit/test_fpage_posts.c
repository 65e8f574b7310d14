/* test_fpage_posts.c - every post of the real thread pages of
 * ../shared/data/forums against tests/data/forums/posts.tsv (written by
 * label_posts.py from each engine's own markup): per engine, the pages whose
 * post count is exact and the posts whose author, date and own text (quotes
 * and signatures left out, blanks ignored) are exact. Prints the table of
 * docs/forums.md; `test_fpage_posts -v` lists every miss. Then XenForo 2's
 * one-post page with a sentence added to its post (the saved post is an
 * image alone). */
#include "core/err.h"
#include "core/timefmt.h"
#include "forum/fdate.h"
#include "forum/page.h"

#include "test.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct fr_fdate *FD;
static int VERBOSE;

/* Posts exact in all four that must hold, per engine and in all (raised
 * with each fix; what the analyser reads today). */
static const struct {
	const char *engine;
	size_t all;
} FLOOR[] = {
    {"phpBB 3", 25},   {"vBulletin 3", 20}, {"vBulletin 4", 25}, {"vBulletin 5", 15},
    {"XenForo 1", 25}, {"XenForo 2", 35},   {"NodeBB", 13},      {"Discourse", 4},
    {"RuTracker", 3},  {"all", 165},
};

/* One labelled post. */
struct lpost {
	char *file, *engine, *author, *text;
	int64_t t;
};

/* Finds key (a page's file as posts.tsv names it: "DIR/FILE", trafilatura's
 * pages by their file name alone in the other tables) in column 0 (or 1)
 * of a tsv of ../tests/data/forums; copies column want into out. */
static int
lookup(const char *tsv, const char *key, int key_col, int want, char *out, size_t cap)
{
	char path[512], line[4096];
	const char *k = !strncmp(key, "trafilatura/", 12) ? key + 12 : key;
	FILE *f;
	int found = 0;

	snprintf(path, sizeof(path), "%s/forums/%s", FR_TEST_DATA, tsv);
	f = fopen(path, "r");
	CHECK(f != NULL);
	while (f && !found && fgets(line, sizeof(line), f)) {
		char *fl[8];
		size_t nf;

		if (line[0] == '#')
			continue;
		nf = test_fields(line, fl, 8);
		if ((size_t)key_col < nf && (size_t)want < nf && !strcmp(fl[key_col], k)) {
			if (key_col == 1 && strcmp(fl[0], "page"))
				continue;
			snprintf(out, cap, "%s", fl[want]);
			found = 1;
		}
	}
	if (f)
		fclose(f);
	return found ? 0 : -1;
}

/* Equal once blanks (ASCII and U+00A0) are removed from both. */
static int
same_text(const char *a, const char *b)
{
	for (;;) {
		while (*a == ' ' || *a == '\n' || *a == '\t' || *a == '\r' ||
		       ((unsigned char)a[0] == 0xC2 && (unsigned char)a[1] == 0xA0))
			a += (unsigned char)*a == 0xC2 ? 2 : 1;
		while (*b == ' ' || *b == '\n' || *b == '\t' || *b == '\r' ||
		       ((unsigned char)b[0] == 0xC2 && (unsigned char)b[1] == 0xA0))
			b += (unsigned char)*b == 0xC2 ? 2 : 1;
		if (*a != *b)
			return 0;
		if (!*a)
			return 1;
		a++;
		b++;
	}
}

/* Per engine. */
struct eng {
	char name[32];
	size_t pages, pages_count, posts, author, date, text, all;
};

static struct eng *
eng_of(struct eng *e, size_t *n, const char *name)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp(e[i].name, name))
			return &e[i];
	memset(&e[*n], 0, sizeof(e[*n]));
	snprintf(e[*n].name, sizeof(e[*n].name), "%s", name);
	return &e[(*n)++];
}

/* Reads one page and scores its n labelled posts. */
static void
score_page(const struct lpost *lp, size_t n, struct eng *e)
{
	char path[512], url[1024], loc[64], zone[64], now[64], err[FR_ERRLEN], *body;
	struct fr_fpage_opts o;
	struct fr_fpage *p = NULL;
	size_t len = 0, ok_count;
	double t = 0;

	CHECK(lookup("fpages.tsv", lp->file, 1, 2, url, sizeof(url)) == 0);
	CHECK(lookup("pages.tsv", lp->file, 0, 1, loc, sizeof(loc)) == 0);
	CHECK(lookup("pages.tsv", lp->file, 0, 2, zone, sizeof(zone)) == 0);
	CHECK(lookup("pages.tsv", lp->file, 0, 3, now, sizeof(now)) == 0);
	CHECK(fr_time_parse(now, strlen(now), &t, NULL) == 0);
	snprintf(path, sizeof(path), "%s/data/forums/%s", FR_SHARED, lp->file);
	body = test_slurp(path, &len);
	if (!body)
		return;
	memset(&o, 0, sizeof(o));
	o.dates = FD;
	o.locales = loc;
	o.zone = zone;
	o.now_s = (int64_t)t;
	if (fr_fpage_parse(body, len, url, &o, &p, err, sizeof(err)) != 0) {
		fprintf(stderr, "  %s: %s\n", lp->file, err);
		CHECK(!"the page parses");
	}
	free(body);
	e->pages++;
	e->posts += n;
	ok_count = p && p->kind == FR_FPAGE_THREAD && p->n_recs == n;
	if (!ok_count) {
		if (VERBOSE)
			fprintf(stderr, "  %s: %s with %zu records, %zu posts labelled\n", lp->file,
			        p ? fr_fpage_kind_name(p->kind) : "-", p ? p->n_recs : 0, n);
		fr_fpage_free(p);
		return;
	}
	e->pages_count++;
	for (size_t i = 0; i < n; i++) {
		const struct fr_fpage_record *r = &p->recs[i];
		int a = r->author && !strcmp(r->author, lp[i].author);
		int d = r->date_s == lp[i].t;
		int x = r->text && same_text(r->text, lp[i].text);

		e->author += a;
		e->date += d;
		e->text += x;
		e->all += a && d && x;
		if (VERBOSE && !(a && d && x))
			fprintf(stderr,
			        "  %s #%zu:%s%s%s\n    author %s (labelled %s), date %lld (%lld)\n"
			        "    text:  %.300s\n    label: %.300s\n",
			        lp->file, i, a ? "" : " author", d ? "" : " date", x ? "" : " text",
			        r->author ? r->author : "-", lp[i].author, (long long)r->date_s,
			        (long long)lp[i].t, r->text ? r->text : "-", lp[i].text);
	}
	fr_fpage_free(p);
}

static double
pct(size_t a, size_t b)
{
	return b ? 100.0 * (double)a / (double)b : 0;
}

static void
test_every_post(void)
{
	char path[512], *line = NULL;
	size_t cap = 0, n = 0, lcap = 0, ne = 0;
	struct lpost *lp = NULL;
	struct eng e[32], tot;
	FILE *f;

	snprintf(path, sizeof(path), "%s/forums/posts.tsv", FR_TEST_DATA);
	f = fopen(path, "r");
	CHECK(f != NULL);
	while (f && getline(&line, &cap, f) > 0) {
		char *fl[6];
		double t;

		if (line[0] == '#' || test_fields(line, fl, 6) != 6)
			continue;
		if (fr_time_parse(fl[4], strlen(fl[4]), &t, NULL) != 0) {
			CHECK(!"a label's time parses");
			continue;
		}
		if (n == lcap) {
			struct lpost *np = realloc(lp, (lcap ? lcap * 2 : 256) * sizeof(*lp));

			if (!np)
				break;
			lp = np;
			lcap = lcap ? lcap * 2 : 256;
		}
		lp[n].file = strdup(fl[0]);
		lp[n].engine = strdup(fl[1]);
		lp[n].author = strdup(fl[3]);
		lp[n].text = strdup(fl[5]);
		lp[n].t = (int64_t)t;
		n++;
	}
	free(line);
	if (f)
		fclose(f);
	CHECK(n >= 170);
	for (size_t i = 0; i < n;) {
		size_t j = i;

		while (j < n && !strcmp(lp[j].file, lp[i].file))
			j++;
		if (ne < 31)
			score_page(&lp[i], j - i, eng_of(e, &ne, lp[i].engine));
		i = j;
	}
	memset(&tot, 0, sizeof(tot));
	fprintf(stderr,
	        "  | engine | pages: count exact | posts | author | date | own text | all four |\n"
	        "  | --- | --- | --- | --- | --- | --- | --- |\n");
	for (size_t i = 0; i <= ne; i++) {
		const struct eng *x = i < ne ? &e[i] : &tot;

		if (i < ne) {
			tot.pages += x->pages;
			tot.pages_count += x->pages_count;
			tot.posts += x->posts;
			tot.author += x->author;
			tot.date += x->date;
			tot.text += x->text;
			tot.all += x->all;
		}
		fprintf(stderr,
		        "  | %s | %zu/%zu | %zu | %zu (%.1f%%) | %zu (%.1f%%) | %zu (%.1f%%) | %zu "
		        "(%.1f%%) |\n",
		        i < ne ? x->name : "all", x->pages_count, x->pages, x->posts, x->author,
		        pct(x->author, x->posts), x->date, pct(x->date, x->posts), x->text,
		        pct(x->text, x->posts), x->all, pct(x->all, x->posts));
	}
	/* Floors: what the analyser reads today (raise them with each fix). */
	CHECK(tot.posts == n);
	for (size_t i = 0; i < sizeof(FLOOR) / sizeof(FLOOR[0]); i++) {
		const struct eng *x = !strcmp(FLOOR[i].engine, "all") ? &tot : NULL;

		for (size_t j = 0; !x && j < ne; j++)
			if (!strcmp(e[j].name, FLOOR[i].engine))
				x = &e[j];
		CHECK(x != NULL);
		if (x && x->all < FLOOR[i].all)
			fprintf(stderr, "  %s: %zu posts exact, under the floor of %zu\n",
			        FLOOR[i].engine, x->all, FLOOR[i].all);
		CHECK(x && x->all >= FLOOR[i].all);
	}
	for (size_t i = 0; i < n; i++) {
		free(lp[i].file);
		free(lp[i].engine);
		free(lp[i].author);
		free(lp[i].text);
	}
	free(lp);
}

/* XenForo 2's thread page of one post (htmldate's): the saved post is an
 * image alone, with no text to read, so the page is other. With a sentence
 * in the post (the same page otherwise), it is a thread of that post. */
static void
test_one_post_with_text(void)
{
	char path[512], err[FR_ERRLEN], *body, *page;
	const char *at, *mark = "<div class=\"bbWrapper\">",
	                *add = "Where did my island go? It was gone this morning.<br />";
	size_t len = 0;
	struct fr_fpage_opts o;
	struct fr_fpage *p = NULL;

	snprintf(path, sizeof(path), "%s/data/forums/htmldate/1552005464.html", FR_SHARED);
	body = test_slurp(path, &len);
	if (!body)
		return;
	at = strstr(body, mark);
	CHECK(at != NULL);
	page = malloc(len + strlen(add) + 1);
	if (at && page) {
		size_t k = (size_t)(at - body) + strlen(mark);

		memcpy(page, body, k);
		memcpy(page + k, add, strlen(add));
		memcpy(page + k + strlen(add), body + k, len - k + 1);
		memset(&o, 0, sizeof(o));
		o.dates = FD;
		o.locales = "en";
		o.zone = "UTC";
		o.now_s = 1584576000; /* 2020-03-19 */
		CHECK(fr_fpage_parse(page, len + strlen(add),
		                     "https://hypixel.net/threads/what-whered-it-go.2675645/", &o,
		                     &p, err, sizeof(err)) == 0);
		CHECK(p && p->kind == FR_FPAGE_THREAD && p->n_recs == 1);
		if (p && p->n_recs == 1) {
			CHECK_STR(p->recs[0].author, "Biggie-Cheese");
			CHECK(p->recs[0].date_s == 1584548562);
			CHECK_STR(p->recs[0].text,
			          "Where did my island go? It was gone this morning.");
		}
		fr_fpage_free(p);
	}
	free(page);
	free(body);
}

int
main(int argc, char **argv)
{
	VERBOSE = argc > 1 && !strcmp(argv[1], "-v");
	if (fr_fdate_new(&FD) != 0)
		return 1;
	RUN(test_every_post);
	RUN(test_one_post_with_text);
	fr_fdate_free(FD);
	return TEST_DONE();
}
