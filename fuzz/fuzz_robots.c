/* fuzz_robots.c - libFuzzer harness for the robots.txt parser and matcher
 * (lib/net/robots.h): the input is parsed as robots.txt for two crawlers and
 * checked against the header's promises; its first two lines are also used
 * as a Disallow pattern and a path, and the matcher's answer is compared
 * with a slow reference (normalise both, then dynamic programming). Without
 * FR_LIBFUZZER, replay.c's main replays the seed corpus. */
#include "core/hex.h"
#include "net/robots.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define REQUIRE(c)                                                                                 \
	do {                                                                                       \
		if (!(c)) {                                                                        \
			fprintf(stderr, "fuzz_robots: broken promise: %s (%s:%d)\n", #c, __FILE__, \
			        __LINE__);                                                         \
			abort();                                                                   \
		}                                                                                  \
	} while (0)

#define MAX_REF 256 /* the reference matcher only sees short patterns and paths */

static const char *const PATHS[] = {
	"/", "/robots.txt", "/robots.txt?x", "/a", "/a/b.gif", "/example/page.html",
	"/%E3%83%84", "/?q=1", "/private/x", "/a%2Fb", "/fish.php", "",
};

/* RFC 9309 2.2.2 as the header states it, written again independently. */
static size_t
ref_norm(const char *s, size_t n, char *out)
{
	size_t o = 0;

	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '%' && i + 2 < n && fr_hex_digit(s[i + 1]) >= 0 && fr_hex_digit(s[i + 2]) >= 0) {
			int v = fr_hex_digit(s[i + 1]) * 16 + fr_hex_digit(s[i + 2]);

			if ((v >= 'a' && v <= 'z') || (v >= 'A' && v <= 'Z') || (v >= '0' && v <= '9') ||
			    v == '-' || v == '.' || v == '_' || v == '~') {
				out[o++] = (char)v;
			} else {
				o += (size_t)snprintf(out + o, 4, "%%%02X", v);
			}
			i += 2;
		} else if (c == '%' || c <= 0x20 || c >= 0x7f) {
			o += (size_t)snprintf(out + o, 4, "%%%02X", c);
		} else {
			out[o++] = (char)c;
		}
	}
	out[o] = '\0';
	return o;
}

/* Whether pattern p (a final '$' anchors; '*' any run) matches a prefix of
 * s, by dynamic programming over (pattern position, text position). */
static int
ref_match(const char *p, size_t m, const char *s, size_t n)
{
	int anchored = m > 0 && p[m - 1] == '$';
	static unsigned char ok[MAX_REF * 3 + 2][MAX_REF * 3 + 4];

	if (anchored)
		m--;
	/* ok[i][j]: p[0..i) matches s[0..j). */
	memset(ok[0], 0, n + 1);
	ok[0][0] = 1;
	for (size_t i = 1; i <= m; i++) {
		for (size_t j = 0; j <= n; j++) {
			if (p[i - 1] == '*')
				ok[i][j] = ok[i - 1][j] || (j > 0 && ok[i][j - 1]);
			else
				ok[i][j] = j > 0 && ok[i - 1][j - 1] && p[i - 1] == s[j - 1];
		}
	}
	if (anchored)
		return ok[m][n];
	for (size_t j = 0; j <= n; j++)
		if (ok[m][j])
			return 1;
	return 0;
}

static void
check_rules(const struct fr_robots *r, const uint8_t *data, size_t size)
{
	double d = fr_robots_crawl_delay_s(r);

	REQUIRE(r != NULL);
	REQUIRE(d == -1 || (d >= 0 && d <= 1e6));
	REQUIRE(fr_robots_allowed(r, "/robots.txt") == 1);
	REQUIRE(fr_robots_n_sitemaps(r) <= 64);
	for (size_t i = 0; i < fr_robots_n_sitemaps(r); i++)
		REQUIRE(fr_robots_sitemap(r, i) && fr_robots_sitemap(r, i)[0]);
	REQUIRE(fr_robots_sitemap(r, fr_robots_n_sitemaps(r)) == NULL);
	for (size_t i = 0; i < sizeof(PATHS) / sizeof(PATHS[0]); i++) {
		int a = fr_robots_allowed(r, PATHS[i]);

		REQUIRE(a == 0 || a == 1);
		REQUIRE(a == fr_robots_allowed(r, PATHS[i])); /* no hidden state */
	}
	/* Each line of the input, cut at its first blank, as a path. */
	for (size_t i = 0; i < size;) {
		size_t n = 0;
		char path[256];

		while (i + n < size && data[i + n] != '\n' && n < sizeof(path) - 1)
			n++;
		memcpy(path, data + i, n);
		path[n] = '\0';
		REQUIRE(fr_robots_allowed(r, path) <= 1);
		i += n + 1;
	}
}

/* The first two lines as a Disallow pattern and a path, against the reference. */
static void
check_against_reference(const uint8_t *data, size_t size)
{
	static char text[MAX_REF + 64], pat[MAX_REF + 1], path[MAX_REF + 2];
	static char np[MAX_REF * 3 + 1], nq[MAX_REF * 3 + 4];
	size_t i = 0, pn = 0, qn = 0, k, m, n;
	struct fr_robots *r;
	int want, got;

	while (i < size && data[i] != '\n' && data[i] != '\r' && data[i] != '\0' && pn < MAX_REF)
		pat[pn++] = (char)data[i++];
	if (i >= size || (data[i] != '\n' && data[i] != '\r'))
		return;
	i++;
	while (i < size && data[i] != '\n' && data[i] != '\r' && data[i] != '\0' && qn < MAX_REF)
		path[qn++] = (char)data[i++];
	path[qn] = '\0';
	/* The parser's view of the value: up to '#', without surrounding blanks. */
	for (k = 0; k < pn && pat[k] != '#'; k++)
		;
	pn = k;
	while (pn > 0 && (pat[pn - 1] == ' ' || pat[pn - 1] == '\t'))
		pn--;
	k = 0;
	while (k < pn && (pat[k] == ' ' || pat[k] == '\t'))
		k++;
	snprintf(text, sizeof(text), "User-agent: *\nDisallow: %.*s\n", (int)(pn - k), pat + k);
	r = fr_robots_parse(text, strlen(text), "x");
	REQUIRE(r != NULL);
	got = fr_robots_allowed(r, path);
	fr_robots_free(r);

	/* The path as the matcher sees it: no fragment, a leading '/'. */
	for (n = 0; n < qn && path[n] != '#'; n++)
		;
	nq[0] = '/';
	if (n > 0 && path[0] == '/')
		n = ref_norm(path, n, nq);
	else
		n = 1 + ref_norm(path, n, nq + 1);
	m = ref_norm(pat + k, pn - k, np);
	if (pn == k)
		want = 1; /* "Disallow:" with nothing: no rule */
	else if ((n == 11 || (n > 11 && nq[11] == '?')) && memcmp(nq, "/robots.txt", 11) == 0)
		want = 1;
	else
		want = !ref_match(np, m, nq, n);
	if (got != want) {
		fprintf(stderr, "fuzz_robots: pattern \"%s\" path \"%s\": allowed %d, reference %d\n",
			np, nq, got, want);
		abort();
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fr_robots *a = fr_robots_parse((const char *)data, size, "foobot");
	struct fr_robots *b = fr_robots_parse((const char *)data, size, "freshet/0.1 (+x)");
	struct fr_robots *c = fr_robots_parse((const char *)data, size, "foobot");

	check_rules(a, data, size);
	check_rules(b, data, size);
	/* Parsing is deterministic. */
	REQUIRE(fr_robots_n_rules(a) == fr_robots_n_rules(c));
	REQUIRE(fr_robots_crawl_delay_s(a) == fr_robots_crawl_delay_s(c));
	for (size_t i = 0; i < sizeof(PATHS) / sizeof(PATHS[0]); i++)
		REQUIRE(fr_robots_allowed(a, PATHS[i]) == fr_robots_allowed(c, PATHS[i]));
	fr_robots_free(a);
	fr_robots_free(b);
	fr_robots_free(c);
	check_against_reference(data, size);
	return 0;
}
