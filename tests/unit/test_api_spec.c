/* test_api_spec.c - the text form of API mapping specs (lib/api/spec.h):
 * presets by name and as "preset=", overrides, both path syntaxes with RFC
 * 6901's escapes, the canonical form reading back to itself, and each
 * error with its line and column. */
#include "api/spec.h"
#include "api/spec_internal.h"
#include "core/err.h"

#include "test.h"

#include <stdlib.h>
#include <string.h>

static struct fr_api_spec *
parse(const char *text, char *err)
{
	struct fr_api_spec *s = NULL;

	err[0] = '\0';
	if (fr_api_spec_parse(text, strlen(text), &s, err, FR_ERRLEN) != 0) {
		CHECK(s == NULL);
		return NULL;
	}
	return s;
}

/* The error text gives for a bad spec, or "" when it parses. */
static const char *
error_of(const char *text, char *err)
{
	struct fr_api_spec *s = parse(text, err);

	if (s) {
		fr_api_spec_free(s);
		return "";
	}
	return err;
}

static void
test_presets_by_name(void)
{
	const char *const *names = fr_api_preset_names();
	char err[FR_ERRLEN];
	size_t n = 0;

	for (; names[n]; n++) {
		struct fr_api_spec *a = parse(names[n], err), *b;
		char text[64];

		CHECK(a != NULL);
		if (!a)
			continue;
		CHECK_STR(fr_api_spec_name(a), names[n]);
		snprintf(text, sizeof(text), "preset=%s", names[n]);
		b = parse(text, err);
		CHECK(b != NULL);
		if (b) {
			char *fa = fr_api_spec_format(a), *fb = fr_api_spec_format(b);

			CHECK_STR(fa, fb);
			free(fa);
			free(fb);
			fr_api_spec_free(b);
		}
		CHECK(fr_api_preset_text(names[n]) != NULL);
		fr_api_spec_free(a);
	}
	CHECK(n == 4);
	CHECK(fr_api_preset_text("twitter") == NULL);
}

/* parse -> format -> parse -> format gives the same text, for the presets
 * and for specs using every syntax. */
static void
test_canonical_round_trip(void)
{
	static const char *const specs[] = {
	    "graph",
	    "mastodon",
	    "reddit",
	    "jsonapi",
	    "list=/a~1b/m~0n\nid=/0/x~0y|/z\ntitle=.\ntext_format=html",
	    "list=items[]; item=node; id=key|other; time=ts; time_unit=ms; link=url; "
	    "link_base=https://example.org/x/; next=@link|meta.next; cursor=@last_id; "
	    "cursor_param=page",
	    "name=my api ; list=[] ; link=a[2].b[0] ; summary=s ; summary_format=entities",
	};
	char err[FR_ERRLEN];

	for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		struct fr_api_spec *a = parse(specs[i], err), *b;
		char *fa, *fb;

		if (!a) {
			fprintf(stderr, "spec %zu: %s\n", i, err);
			CHECK(a != NULL);
			continue;
		}
		fa = fr_api_spec_format(a);
		b = parse(fa, err);
		CHECK(b != NULL);
		fb = b ? fr_api_spec_format(b) : NULL;
		CHECK_STR(fa, fb);
		free(fa);
		free(fb);
		fr_api_spec_free(a);
		fr_api_spec_free(b);
	}
}

static void
test_paths(void)
{
	char err[FR_ERRLEN];
	struct fr_api_spec *s;

	/* dotted with [] in the middle: list path and item path */
	s = parse("list=data.children[].data; id=name|id", err);
	CHECK(s != NULL);
	if (s) {
		CHECK(s->list.n == 2 && !strcmp(s->list.seg[0], "data") &&
		      !strcmp(s->list.seg[1], "children"));
		CHECK(s->item.n == 1 && !strcmp(s->item.seg[0], "data"));
		CHECK(s->f[FR_API_ID].n == 2 && !strcmp(s->f[FR_API_ID].alt[1].seg[0], "id"));
		CHECK_STR(s->name, "custom");
		fr_api_spec_free(s);
	}
	/* RFC 6901: ~1 is '/', ~0 is '~', "~01" is "~1" (not '/') */
	s = parse("list=/a~1b/~01/; id=/x", err);
	CHECK(s != NULL);
	if (s) {
		CHECK(s->list.n == 3);
		CHECK_STR(s->list.seg[0], "a/b");
		CHECK_STR(s->list.seg[1], "~1");
		CHECK_STR(s->list.seg[2], "");
		CHECK(s->item.n == 0);
		fr_api_spec_free(s);
	}
	/* an empty pointer is the whole document; "[]" too */
	s = parse("list=\nid=id", err);
	CHECK(s != NULL && s->has_list && s->list.n == 0);
	fr_api_spec_free(s);
	s = parse("list=[]\nid=id", err);
	CHECK(s != NULL && s->has_list && s->list.n == 0);
	fr_api_spec_free(s);
	/* a[2].b: index segments are keys that read as indexes on arrays */
	s = parse("list=a[2].b\nid=id", err);
	CHECK(s != NULL && s->list.n == 3 && !strcmp(s->list.seg[1], "2"));
	fr_api_spec_free(s);
	/* specials */
	s = parse("list=[]; id=id; next=@link; cursor=@last_id; cursor_param=max_id", err);
	CHECK(s != NULL && s->f[FR_API_NEXT].alt[0].kind == API_AT_LINK &&
	      s->f[FR_API_CURSOR].alt[0].kind == API_AT_LAST_ID);
	fr_api_spec_free(s);
}

static void
test_overrides(void)
{
	char err[FR_ERRLEN];
	struct fr_api_spec *s;

	/* a preset, then keys that change it; '-' clears a field */
	s = parse("# my pages\npreset=graph\ntext=message\nlink=-\nname=pages", err);
	CHECK(s != NULL);
	if (s) {
		CHECK_STR(fr_api_spec_name(s), "pages");
		CHECK(s->f[FR_API_TEXT].n == 1);
		CHECK(s->f[FR_API_LINK].n == 0);
		CHECK(s->f[FR_API_NEXT].n == 1);
		CHECK_STR(s->cursor_param, "after");
		fr_api_spec_free(s);
	}
	/* later keys win */
	s = parse("list=a[]; id=x; id=y", err);
	CHECK(s != NULL && !strcmp(s->f[FR_API_ID].alt[0].seg[0], "y"));
	fr_api_spec_free(s);
}

static void
test_errors(void)
{
	char err[FR_ERRLEN];

	CHECK_STR(error_of("list=data[]\ntiem=created_time", err),
	          "api spec: key 'tiem' unknown at 2:1");
	CHECK_STR(error_of("list=data[]; tiem=x", err), "api spec: key 'tiem' unknown at 1:14");
	CHECK_STR(error_of("list=data[]\nid", err), "api spec: '=' expected after 'id' at 2:1");
	CHECK_STR(error_of("list=data[]\n=x", err), "api spec: key expected before '=' at 2:1");
	CHECK_STR(error_of("list=/a~2b\nid=id", err),
	          "api spec: JSON Pointer escape '~2' is not ~0 or ~1 at 1:8");
	CHECK_STR(error_of("list=/a~\nid=id", err),
	          "api spec: JSON Pointer escape '~' is not ~0 or ~1 at 1:8");
	CHECK_STR(error_of("list=a..b\nid=id", err), "api spec: empty key in path 'a..b' at 1:8");
	CHECK_STR(error_of("list=a.\nid=id", err), "api spec: path 'a.' ends with '.' at 1:7");
	CHECK_STR(error_of("list=a[x]\nid=id", err),
	          "api spec: '[' without a number and ']' in path 'a[x]' at 1:7");
	CHECK_STR(error_of("list=a[]b[]\nid=id", err),
	          "api spec: '.' or '[' expected after ']' in path 'a[]b[]' at 1:9");
	CHECK_STR(error_of("list=a[].b[]\nid=id", err),
	          "api spec: a second '[]' in path 'a[].b[]' at 1:11");
	CHECK_STR(error_of("list=a[]\nid=x[]", err),
	          "api spec: '[]' in path 'x[]' (only 'list' iterates) at 2:5");
	CHECK_STR(error_of("list=a[]\nid=", err), "api spec: empty path (use '-' for none) at 2:4");
	CHECK_STR(
	    error_of("list=a[]\nid=@link", err),
	    "api spec: '@link' is not a path here (next may be @link, cursor @last_id) at 2:4");
	CHECK_STR(error_of("list=a[]\nid=x\ntext_format=md", err),
	          "api spec: text_format 'md' is not text, html or entities at 3:13");
	CHECK_STR(error_of("list=a[]\nid=x\ntime_unit=us", err),
	          "api spec: time_unit 'us' is not s or ms at 3:11");
	CHECK_STR(error_of("list=a[]\nid=x\nlink_base=ftp://x/", err),
	          "api spec: link_base 'ftp://x/' is not an absolute http(s) URL at 3:11");
	CHECK_STR(error_of("list=a[]\nid=x\ncursor=c\ncursor_param=a b", err),
	          "api spec: byte 0x20 not allowed in cursor_param at 4:15");
	CHECK_STR(error_of("list=a[]\nid=x\ncursor=c", err),
	          "api spec: 'cursor' needs 'cursor_param' (the query parameter it goes into)");
	CHECK_STR(error_of("id=x", err), "api spec: no 'list' (where the items are)");
	CHECK_STR(error_of("list=a[]\ntime_unit=ms", err),
	          "api spec: no item field (id, link, title or text)");
	CHECK_STR(error_of("list=a[]\npreset=graph", err),
	          "api spec: 'preset' must be the first entry at 2:1");
	CHECK_STR(error_of("preset=twitter", err),
	          "api spec: preset 'twitter' unknown (graph, mastodon, reddit, jsonapi) at 1:8");
	CHECK_STR(error_of("  twitter \n", err),
	          "api spec: preset 'twitter' unknown (graph, mastodon, reddit, jsonapi) at 1:3");
	CHECK_STR(error_of("", err), "api spec: empty");
	CHECK_STR(error_of(" \n\t", err), "api spec: empty");
	CHECK_STR(error_of("list=a[]\nid=a|b|c|d|e|f|g|h|i", err),
	          "api spec: more than 8 alternatives at 2:20");
	CHECK_STR(error_of("list=a\x01[]\nid=x", err),
	          "api spec: byte 0x01 not allowed in path 'a\x01[]' at 1:7");
	{
		/* a NUL inside the text is named, not read past */
		struct fr_api_spec *s = NULL;
		static const char nul[] = "list=a[]\nid=x\0y";

		CHECK(fr_api_spec_parse(nul, sizeof(nul) - 1, &s, err, sizeof(err)) == -1 && !s);
		CHECK_STR(err, "api spec: NUL byte at 2:5");
	}
	{
		/* too long a text, too deep a path */
		size_t n = FR_API_SPEC_MAX_BYTES + 1;
		char *big = malloc(n + 1), deep[200];
		struct fr_api_spec *s = NULL;
		size_t w = 0;

		memset(big, ' ', n);
		big[n] = '\0';
		CHECK(fr_api_spec_parse(big, n, &s, err, sizeof(err)) == -1 && !s);
		CHECK_STR(err, "api spec: 65537 bytes, over the limit of 65536");
		free(big);
		w += (size_t)snprintf(deep + w, sizeof(deep) - w, "list=");
		for (int i = 0; i < 33; i++)
			w += (size_t)snprintf(deep + w, sizeof(deep) - w, "/a");
		snprintf(deep + w, sizeof(deep) - w, "\nid=x");
		CHECK_STR(error_of(deep, err), "api spec: path deeper than 32 keys at 1:71");
	}
}

int
main(void)
{
	RUN(test_presets_by_name);
	RUN(test_canonical_round_trip);
	RUN(test_paths);
	RUN(test_overrides);
	RUN(test_errors);
	return TEST_DONE();
}
