/* test_conformance.c - the feed parser against other parsers' expectations:
 * every gofeed test case with an expected .json (../shared/data/feeds/gofeed/
 * testdata) is parsed and the fields both formats share are compared (at
 * least 95% of cases must match; each mismatch is printed with its reason,
 * docs/parse.md lists them), and every feed-rs real-world fixture must parse
 * without error with the item count of its .serde.json.
 *
 * Shared fields: version, item count, feed title/link/subtitle/language/
 * updated; item title, link, id (guid), summary (description), content,
 * author, published, updated, tags (categories), enclosure URLs. Strings are
 * compared after trimming, collapsing blanks and decoding HTML character
 * references once on both sides: freshet unescapes HTML titles once
 * (docs/parse.md), gofeed keeps them as the XML gave them. Dates are
 * compared as instants. A field absent from the expectation is not compared. */
#include "core/err.h"
#include "parse/date.h"
#include "parse/feed.h"
#include "parse/feed_internal.h"
#include "test.h"

#include <dirent.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define GOFEED FR_SHARED "/data/feeds/gofeed/testdata"
#define FEEDRS FR_SHARED "/data/feeds/feed-rs/fixture"

/* Expectation dialects. */
enum { D_RSS, D_ATOM, D_JSON, D_UNIVERSAL };

struct cmp {
	int compared, failed;
	char why[1024];
};

static char *
read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
		fclose(f);
		return NULL;
	}
	buf = malloc((size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	if (buf) {
		buf[n] = '\0';
		*len = (size_t)n;
	}
	return buf;
}

/* Trimmed, blanks collapsed, HTML references decoded once; malloc'd. */
static char *
norm(const char *s)
{
	char *c = strdup(s ? s : ""), *r, *w;
	int blank = 0;

	if (!c)
		return NULL;
	fr_feed_html_unescape(c);
	for (r = w = c; *r; r++) {
		int b = *r == ' ' || *r == '\t' || *r == '\n' || *r == '\r' ||
		        ((unsigned char)r[0] == 0xC2 && (unsigned char)r[1] == 0xA0);

		if ((unsigned char)r[0] == 0xC2 && (unsigned char)r[1] == 0xA0)
			r++;
		if (b) {
			blank = 1;
			continue;
		}
		if (blank && w != c)
			*w++ = ' ';
		blank = 0;
		*w++ = *r;
	}
	*w = '\0';
	return c;
}

static void
fail_why(struct cmp *c, const char *fmt, const char *what, const char *want, const char *got)
{
	c->failed++;
	if (!c->why[0])
		snprintf(c->why, sizeof(c->why), fmt, what, want ? want : "(none)", got ? got : "(none)");
}

static void
cmp_str(struct cmp *c, const char *what, const char *want, const char *got)
{
	char *a, *b;

	if (!want)
		return;
	c->compared++;
	a = norm(want);
	b = norm(got);
	if (!a || !b || strcmp(a, b))
		fail_why(c, "%s: want '%.200s', got '%.200s'", what, a, b);
	free(a);
	free(b);
}

static void
cmp_date(struct cmp *c, const char *what, const char *want, int64_t got)
{
	int64_t t;
	char g[32];

	if (!want || !*want)
		return;
	c->compared++;
	if (fr_date_parse(want, strlen(want), &t) != 0 || t != got) {
		snprintf(g, sizeof(g), "%lld", got == FR_DATE_NONE ? -1LL : (long long)got);
		fail_why(c, "%s: want '%s', got %s", what, want, g);
	}
}

static struct json_object *
get(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	if (!o || !json_object_is_type(o, json_type_object) || !json_object_object_get_ex(o, key, &v))
		return NULL;
	return v;
}

static const char *
gets_(struct json_object *o, const char *key)
{
	struct json_object *v = get(o, key);

	return v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
}

/* Non-empty string or NULL. */
static const char *
gets(struct json_object *o, const char *key)
{
	const char *s = gets_(o, key);

	return s && *s ? s : NULL;
}

/* The href of the first alternate (or rel-less) link of an Atom links array. */
static const char *
atom_alt(struct json_object *links)
{
	size_t n = links && json_object_is_type(links, json_type_array) ? json_object_array_length(links) : 0;

	for (size_t i = 0; i < n; i++) {
		struct json_object *l = json_object_array_get_idx(links, i);
		const char *rel = gets(l, "rel");

		if (!rel || !strcmp(rel, "alternate"))
			return gets(l, "href");
	}
	return NULL;
}

/* Compares a JSON array of tags (strings, or objects with key) as a set. */
static void
cmp_tags(struct cmp *c, struct json_object *arr, const char *key, const struct fr_feed_item *it)
{
	size_t n;

	if (!arr || !json_object_is_type(arr, json_type_array))
		return;
	n = json_object_array_length(arr);
	c->compared++;
	for (size_t i = 0; i < n; i++) {
		struct json_object *t = json_object_array_get_idx(arr, i);
		const char *want = key ? gets(t, key) : json_object_get_string(t);
		int found = 0;
		char *a;

		if (!want)
			continue;
		a = norm(want);
		for (size_t k = 0; a && k < it->n_tags && !found; k++) {
			char *b = norm(it->tags[k]);

			found = b && !strcmp(a, b);
			free(b);
		}
		if (!found)
			fail_why(c, "%s: want '%s' among %s", "tags", a, it->n_tags ? "the tags" : "no tags");
		free(a);
		if (!found)
			return;
	}
}

static void
cmp_enclosures(struct cmp *c, struct json_object *arr, const char *key,
               const struct fr_feed_item *it)
{
	size_t n;

	if (!arr || !json_object_is_type(arr, json_type_array))
		return;
	n = json_object_array_length(arr);
	c->compared++;
	for (size_t i = 0; i < n; i++) {
		const char *want = gets(json_object_array_get_idx(arr, i), key);
		int found = 0;

		for (size_t k = 0; want && k < it->n_enclosures && !found; k++)
			found = !strcmp(want, it->enclosures[k].url);
		if (want && !found) {
			fail_why(c, "%s: want '%s', got %s", "enclosures", want,
			         it->n_enclosures ? it->enclosures[0].url : "none");
			return;
		}
	}
}

static const char *
person(struct json_object *o)
{
	struct json_object *a = get(o, "authors");

	if (a && json_object_is_type(a, json_type_array) && json_object_array_length(a) > 0) {
		struct json_object *p = json_object_array_get_idx(a, 0);

		return gets(p, "name") ? gets(p, "name") : gets(p, "email");
	}
	a = get(o, "author");
	if (a && json_object_is_type(a, json_type_object))
		return gets(a, "name") ? gets(a, "name") : gets(a, "email");
	return NULL;
}

/* The version freshet should report for an expected one. */
static int
version_ok(int dialect, struct json_object *exp, const char *got)
{
	const char *v = gets_(exp, "version");
	const char *type = gets(exp, "feedType");

	if (dialect == D_UNIVERSAL) {
		v = gets_(exp, "feedVersion");
		dialect = type && !strcmp(type, "atom") ? D_ATOM : type && !strcmp(type, "json") ? D_JSON : D_RSS;
	}
	if (!v)
		return 1;
	switch (dialect) {
	case D_ATOM:
		return !strcmp(v, "1.0") ? !strcmp(got, "atom10") : !strcmp(v, "0.3") ? !strcmp(got, "atom03") : 1;
	case D_JSON:
		return strstr(v, "1.1") ? !strcmp(got, "json11") : !strcmp(got, "json1");
	default:
		if (!*v)
			return !strcmp(got, "rss");
		if (!strncmp(v, "2.", 2))
			return !strcmp(got, "rss20");
		if (!strcmp(v, "0.91"))
			return !strcmp(got, "rss091u") || !strcmp(got, "rss091n");
		if (!strcmp(v, "0.92") || !strcmp(v, "0.93") || !strcmp(v, "0.94")) {
			char want[8] = "rss09";

			want[5] = v[3];
			want[6] = '\0';
			return !strcmp(got, want);
		}
		if (!strcmp(v, "1.0"))
			return !strcmp(got, "rss10");
		if (!strcmp(v, "0.90") || !strcmp(v, "0.9"))
			return !strcmp(got, "rss090");
		return 1;
	}
}

static void
compare(int d, struct json_object *exp, const struct fr_feed *f, struct cmp *c)
{
	struct json_object *items = get(exp, d == D_ATOM ? "entries" : "items");
	size_t n = items && json_object_is_type(items, json_type_array) ? json_object_array_length(items) : 0;
	char buf[64], wbuf[64];

	c->compared++;
	if (!version_ok(d, exp, f->version))
		fail_why(c, "%s: want '%s', got '%s'", "version",
		         gets_(exp, d == D_UNIVERSAL ? "feedVersion" : "version"), f->version);
	cmp_str(c, "feed title", gets(exp, "title"), f->title);
	if (d == D_ATOM)
		cmp_str(c, "feed link", atom_alt(get(exp, "links")), f->link);
	else
		cmp_str(c, "feed link", gets(exp, d == D_JSON ? "home_page_url" : "link"), f->link);
	cmp_str(c, "feed subtitle", gets(exp, d == D_ATOM ? "subtitle" : "description"), f->subtitle);
	if (d == D_RSS || d == D_UNIVERSAL)
		cmp_str(c, "feed language", gets(exp, "language"), f->language);
	if (d == D_ATOM || d == D_UNIVERSAL)
		cmp_date(c, "feed updated", gets(exp, "updatedParsed"), f->updated_s);
	if (!items)
		return;
	c->compared++;
	if (n != f->n_items) {
		snprintf(buf, sizeof(buf), "%zu", f->n_items);
		snprintf(wbuf, sizeof(wbuf), "%zu", n);
		fail_why(c, "%s: want %s, got %s", "item count", wbuf, buf);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		struct json_object *e = json_object_array_get_idx(items, i);
		const struct fr_feed_item *it = &f->items[i];
		struct json_object *ct = get(e, "content");

		cmp_str(c, "title", gets(e, "title"), it->title);
		switch (d) {
		case D_RSS:
			cmp_str(c, "link", gets(e, "link"), it->link);
			cmp_str(c, "id", gets(get(e, "guid"), "value"), it->id);
			cmp_str(c, "summary", gets(e, "description"), it->summary);
			cmp_str(c, "content", gets(e, "content"), it->content);
			cmp_date(c, "published", gets(e, "pubDateParsed"), it->published_s);
			cmp_tags(c, get(e, "categories"), "value", it);
			cmp_enclosures(c, get(e, "enclosures"), "url", it);
			break;
		case D_ATOM:
			cmp_str(c, "link", atom_alt(get(e, "links")), it->link);
			cmp_str(c, "id", gets(e, "id"), it->id);
			cmp_str(c, "summary", gets(e, "summary"), it->summary);
			if (ct && !gets(ct, "src"))
				cmp_str(c, "content", gets(ct, "value"), it->content);
			cmp_str(c, "author", person(e), it->author);
			cmp_date(c, "published", gets(e, "publishedParsed"), it->published_s);
			cmp_date(c, "updated", gets(e, "updatedParsed"), it->updated_s);
			cmp_tags(c, get(e, "categories"), "term", it);
			break;
		case D_JSON:
			cmp_str(c, "link", gets(e, "url"), it->link);
			cmp_str(c, "id", gets(e, "id"), it->id);
			cmp_str(c, "summary", gets(e, "summary"), it->summary);
			cmp_str(c, "content", gets(e, "content_html") ? gets(e, "content_html")
			                                              : gets(e, "content_text"),
			        it->content);
			cmp_str(c, "author", person(e), it->author);
			cmp_date(c, "published", gets(e, "date_published"), it->published_s);
			cmp_date(c, "updated", gets(e, "date_modified"), it->updated_s);
			cmp_tags(c, get(e, "tags"), NULL, it);
			cmp_enclosures(c, get(e, "attachments"), "url", it);
			break;
		default:
			cmp_str(c, "link", gets(e, "link"), it->link);
			cmp_str(c, "id", gets(e, "guid"), it->id);
			cmp_str(c, "summary", gets(e, "description"), it->summary);
			cmp_str(c, "content", gets(e, "content"), it->content);
			cmp_str(c, "author", person(e), it->author);
			cmp_date(c, "published", gets(e, "publishedParsed"), it->published_s);
			cmp_date(c, "updated", gets(e, "updatedParsed"), it->updated_s);
			cmp_tags(c, get(e, "categories"), NULL, it);
			cmp_enclosures(c, get(e, "enclosures"), "url", it);
			break;
		}
	}
}

struct tally {
	int cases, matched;
};

/* One case: input file, expected file, dialect. */
static void
run_case(const char *input, const char *expected, int dialect, struct tally *t)
{
	struct json_object *exp = json_object_from_file(expected);
	struct fr_feed *f = NULL;
	struct cmp c;
	char err[FR_ERRLEN];
	size_t len = 0;
	char *buf = read_all(input, &len);
	const char *rel = input + strlen(GOFEED) + 1;

	memset(&c, 0, sizeof(c));
	if (!exp || !buf) {
		fprintf(stderr, "conformance: %s: cannot read the case\n", rel);
		CHECK(exp && buf);
		goto done;
	}
	if (get(exp, "feedType"))
		dialect = D_UNIVERSAL;
	t->cases++;
	if (fr_feed_parse(buf, len, NULL, &f, err, sizeof(err)) != 0) {
		fprintf(stderr, "conformance: MISMATCH %s: parse failed: %s\n", rel, err);
		goto done;
	}
	compare(dialect, exp, f, &c);
	if (c.failed)
		fprintf(stderr, "conformance: MISMATCH %s: %s\n", rel, c.why);
	else
		t->matched++;
done:
	fr_feed_free(f);
	free(buf);
	json_object_put(exp);
}

static int
ends_with(const char *s, const char *suf)
{
	size_t n = strlen(s), k = strlen(suf);

	return n >= k && !strcmp(s + n - k, suf);
}

static int
cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every expected .json under dir (recursively, sorted). */
static void
walk(const char *dir, struct tally *t)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, cap = 0;

	if (!d)
		return;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		if (n == cap) {
			char **p = realloc(names, (cap = cap ? cap * 2 : 64) * sizeof(*names));

			if (!p)
				break;
			names = p;
		}
		size_t sz = strlen(dir) + strlen(e->d_name) + 2;

		names[n] = malloc(sz);
		if (!names[n])
			break;
		snprintf(names[n], sz, "%s/%s", dir, e->d_name);
		n++;
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), cmp_names);
	for (size_t i = 0; i < n; i++) {
		struct stat st;
		char *p = names[i];

		if (stat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
			if (!strstr(p, "/invalid") && !ends_with(p, "/universal"))
				walk(p, t);
		} else if (ends_with(p, "_expected.json")) {
			/* JSON Feed: X.json is the input, X_expected.json the expectation. */
			char in[4096];

			snprintf(in, sizeof(in), "%.*s.json", (int)(strlen(p) - 14), p);
			run_case(in, p, D_JSON, t);
		} else if (ends_with(p, ".json")) {
			char in[4096];
			struct stat s2;

			snprintf(in, sizeof(in), "%.*s.xml", (int)(strlen(p) - 5), p);
			if (stat(in, &s2) == 0)
				run_case(in, p, strstr(p, "/atom/") && !strstr(p, "/translator/") ? D_ATOM : D_RSS, t);
		}
		free(p);
	}
	free(names);
}

static void
test_gofeed_conformance(void)
{
	struct tally t = {0, 0};
	double pct;

	walk(GOFEED, &t);
	pct = t.cases ? 100.0 * t.matched / t.cases : 0;
	fprintf(stderr, "conformance: gofeed %d of %d cases match (%.1f%%)\n", t.matched, t.cases, pct);
	CHECK(t.cases >= 500);
	CHECK(pct >= 95.0);
}

/* feed-rs: every fixture with a .serde.json parses, same item count. */
static void
feedrs_dir(const char *dir, int *n_ok, int *n_all)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d)) != NULL) {
		char path[8192], src[8192];
		size_t len = 0, k = strlen(e->d_name);
		struct json_object *exp, *entries;
		struct fr_feed *f = NULL;
		char err[FR_ERRLEN];
		char *buf;
		size_t want;

		if (k < 11 || k > 1000 || strlen(dir) > 4000 || strcmp(e->d_name + k - 11, ".serde.json"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		snprintf(src, sizeof(src), "%s/%.*s.xml", dir, (int)(k - 11), e->d_name);
		buf = read_all(src, &len);
		if (!buf) {
			snprintf(src, sizeof(src), "%s/%.*s.json", dir, (int)(k - 11), e->d_name);
			buf = read_all(src, &len);
		}
		exp = json_object_from_file(path);
		(*n_all)++;
		entries = get(exp, "entries");
		want = entries ? json_object_array_length(entries) : 0;
		if (!buf || fr_feed_parse(buf, len, NULL, &f, err, sizeof(err)) != 0) {
			fprintf(stderr, "feed-rs: %s: %s\n", src, buf ? err : "cannot read");
			CHECK(!"feed-rs fixture parses");
		} else if (f->n_items != want) {
			fprintf(stderr, "feed-rs: %s: %zu items, want %zu\n", src, f->n_items, want);
			CHECK(f->n_items == want);
		} else {
			(*n_ok)++;
		}
		fr_feed_free(f);
		free(buf);
		json_object_put(exp);
	}
	closedir(d);
}

static void
test_feedrs_fixtures(void)
{
	static const char *const dirs[] = {"rss0", "rss1", "rss2", "atom", "jsonfeed"};
	int ok = 0, all = 0;

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		char d[4096];

		snprintf(d, sizeof(d), "%s/%s", FEEDRS, dirs[i]);
		feedrs_dir(d, &ok, &all);
	}
	fprintf(stderr, "conformance: feed-rs %d of %d fixtures parse with their item counts\n", ok,
	        all);
	CHECK(all >= 50);
	CHECK(ok == all);
}

int
main(void)
{
	struct stat st;

	if (stat(GOFEED, &st) != 0) {
		fprintf(stderr, "conformance: %s is missing: no shared data, nothing checked\n", GOFEED);
		return 77;
	}
	RUN(test_gofeed_conformance);
	RUN(test_feedrs_fixtures);
	return TEST_DONE();
}
