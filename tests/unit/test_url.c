/* test_url.c - lib/url/url.h: RFC 3986's resolution examples (section 5.4),
 * feed-style references (blanks, spaces, protocol-relative, other schemes),
 * normalisation with and without session stripping and query sorting, and
 * the host and path+query helpers used for politeness and robots.txt. */
#include "url/url.h"

#include "core/err.h"
#include "test.h"

#include <stdlib.h>
#include <string.h>

static void
check_resolve(const char *base, const char *ref, const char *want)
{
	char err[FR_ERRLEN] = "";
	char *got = fr_url_resolve(base, ref, err, sizeof(err));

	CHECK_STR(got, want);
	if (!got || strcmp(got, want))
		fprintf(stderr, "  resolve('%s', '%s'): err '%s'\n", base ? base : "(null)", ref, err);
	free(got);
}

/* RFC 3986 section 5.4.1 and 5.4.2, base "http://a/b/c/d;p?q". */
static void
test_rfc3986_examples(void)
{
	static const char *const rows[][2] = {
		{"g:h", "g:h"},
		{"g", "http://a/b/c/g"},
		{"./g", "http://a/b/c/g"},
		{"g/", "http://a/b/c/g/"},
		{"/g", "http://a/g"},
		{"//g", "http://g/"},
		{"?y", "http://a/b/c/d;p?y"},
		{"g?y", "http://a/b/c/g?y"},
		{"#s", "http://a/b/c/d;p?q#s"},
		{"g#s", "http://a/b/c/g#s"},
		{"g?y#s", "http://a/b/c/g?y#s"},
		{";x", "http://a/b/c/;x"},
		{"g;x", "http://a/b/c/g;x"},
		{"", "http://a/b/c/d;p?q"},
		{".", "http://a/b/c/"},
		{"./", "http://a/b/c/"},
		{"..", "http://a/b/"},
		{"../", "http://a/b/"},
		{"../g", "http://a/b/g"},
		{"../..", "http://a/"},
		{"../../", "http://a/"},
		{"../../g", "http://a/g"},
		/* abnormal examples, 5.4.2 */
		{"../../../g", "http://a/g"},
		{"../../../../g", "http://a/g"},
		{"/./g", "http://a/g"},
		{"/../g", "http://a/g"},
		{"g.", "http://a/b/c/g."},
		{".g", "http://a/b/c/.g"},
		{"g..", "http://a/b/c/g.."},
		{"..g", "http://a/b/c/..g"},
		{"./../g", "http://a/b/g"},
		{"./g/.", "http://a/b/c/g/"},
		{"g/./h", "http://a/b/c/g/h"},
		{"g/../h", "http://a/b/c/h"},
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		check_resolve("http://a/b/c/d;p?q", rows[i][0], rows[i][1]);
}

/* What feeds put in links. */
static void
test_feed_references(void)
{
	check_resolve("http://example.org/feed/", "  /item/1\n", "http://example.org/item/1");
	check_resolve("https://example.org/a/b", "c d.html", "https://example.org/a/c%20d.html");
	check_resolve("https://example.org/a/", "//cdn.example.net/x.mp3",
	              "https://cdn.example.net/x.mp3");
	check_resolve("http://example.org/", "mailto:me@example.org", "mailto:me@example.org");
	check_resolve(NULL, "http://example.org/x", "http://example.org/x");
	check_resolve("", "http://example.org/x", "http://example.org/x");
	check_resolve("http://example.com/parent/", "test.html", "http://example.com/parent/test.html");
}

static void
test_resolve_errors(void)
{
	char err[FR_ERRLEN] = "";
	char *got = fr_url_resolve(NULL, "/relative/path", err, sizeof(err));

	CHECK(got == NULL);
	CHECK(strstr(err, "/relative/path") != NULL);
	CHECK(strstr(err, "no base") != NULL);
	free(got);
	err[0] = '\0';
	got = fr_url_resolve("not a base", "x", err, sizeof(err));
	CHECK(got == NULL);
	CHECK(strstr(err, "base url 'not a base'") != NULL);
	free(got);
	got = fr_url_resolve(NULL, NULL, err, sizeof(err));
	CHECK(got == NULL);
}

static void
check_norm(const char *url, unsigned flags, const char *want)
{
	char err[FR_ERRLEN] = "";
	char *got = fr_url_normalize(url, flags, err, sizeof(err));

	CHECK_STR(got, want);
	if (!got || strcmp(got, want))
		fprintf(stderr, "  normalize('%s', %u): err '%s'\n", url, flags, err);
	free(got);
}

static void
test_normalize(void)
{
	const unsigned all = FR_URL_STRIP_SESSION | FR_URL_SORT_QUERY;

	check_norm("HTTP://Example.ORG:80/a/./b/../c#frag", 0, "http://example.org/a/c");
	check_norm("https://example.org:443", 0, "https://example.org/");
	check_norm("https://example.org:8443/x", 0, "https://example.org:8443/x");
	check_norm("http://example.org/p?b=2&a=1", 0, "http://example.org/p?b=2&a=1");
	check_norm("http://example.org/p?b=2&a=1&a=0", FR_URL_SORT_QUERY,
	           "http://example.org/p?a=0&a=1&b=2");
	check_norm("http://example.org/p?PHPSESSID=abc&x=1&utm_source=rss&SID=9", FR_URL_STRIP_SESSION,
	           "http://example.org/p?x=1");
	check_norm("http://example.org/p?utm_medium=feed&sessionid=1", all, "http://example.org/p");
	check_norm("http://example.org/a;jsessionid=0AB12/b?z=1&y=2", all, "http://example.org/a/b?y=2&z=1");
	/* Stripping can leave a dot segment: it goes too (found by fuzzing). */
	check_norm("https://E./b/.;jsessionid=ABC/b?a=0", FR_URL_STRIP_SESSION, "https://e./b/b?a=0");
	/* A parameter merely starting like a session name stays. */
	check_norm("http://example.org/?side=l&sidebar=1", FR_URL_STRIP_SESSION,
	           "http://example.org/?side=l&sidebar=1");
}

static void
test_normalize_errors(void)
{
	char err[FR_ERRLEN] = "";
	char *got = fr_url_normalize("no scheme here", 0, err, sizeof(err));

	CHECK(got == NULL);
	CHECK(strstr(err, "no scheme here") != NULL);
	free(got);
}

static void
test_host_and_path(void)
{
	char *s;

	s = fr_url_host("https://WWW.Example.ORG:8080/a?b");
	CHECK_STR(s, "www.example.org");
	free(s);
	s = fr_url_host("http://[::1]:8080/");
	CHECK_STR(s, "[::1]");
	free(s);
	CHECK(fr_url_host("/just/a/path") == NULL);
	CHECK(fr_url_host(NULL) == NULL);
	s = fr_url_path_query("https://example.org/a/b?x=1#frag");
	CHECK_STR(s, "/a/b?x=1");
	free(s);
	s = fr_url_path_query("https://example.org");
	CHECK_STR(s, "/");
	free(s);
	s = fr_url_path_query("https://example.org?q");
	CHECK_STR(s, "/?q");
	free(s);
	CHECK(fr_url_path_query("::") == NULL);
}

int
main(void)
{
	RUN(test_rfc3986_examples);
	RUN(test_feed_references);
	RUN(test_resolve_errors);
	RUN(test_normalize);
	RUN(test_normalize_errors);
	RUN(test_host_and_path);
	return TEST_DONE();
}
