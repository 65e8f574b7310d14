/* web.c - the generated web of `freshet serve --web` (see web.h for the
 * shapes). Nothing is stored per site: every answer is rendered from (seed,
 * site, page), so a web of a million sites costs no memory, and the same
 * seed gives the same bytes. */
#include "testkit/web.h"

#include "core/err.h"
#include "core/rng.h"
#include "core/timefmt.h"
#include "testkit/feedgen.h"
#include "testkit/server.h"
#include "testkit/text.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define N_POSTS 5
#define HTML_TYPE "text/html; charset=utf-8"
#define PAGE_MAX (1u << 20) /* cap of one rendered answer */
#define MAX_YEAR 999999999u

struct fr_web {
	struct fr_web_config cfg;
	atomic_uint_fast64_t sessions; /* session ids handed out */
};

/* ---- the sites' feeds ---- */

/* One feed of a site: on its www host, or on its CDN host (shape 5). */
struct feedspec {
	const char *name;
	int cdn;
	char path[48];
	enum fr_feedgen_format fmt;
	const char *ctype; /* NULL: the format's */
};

/* The feeds site k should be found to have. NOTE: keep web.h in sync. */
static size_t
site_feedspecs(uint32_t k, struct feedspec out[FR_WEB_MAX_SITE_FEEDS])
{
	struct feedspec *f = out;

	memset(out, 0, FR_WEB_MAX_SITE_FEEDS * sizeof(*out));
	switch (k % FR_WEB_SHAPES) {
	case 0:
		*f++ = (struct feedspec){"main", 0, "/feed/", FR_FEEDGEN_RSS, NULL};
		break;
	case 1:
		*f++ = (struct feedspec){"atom", 0, "/atom.xml", FR_FEEDGEN_ATOM, NULL};
		*f++ = (struct feedspec){"comments", 0, "/comments/feed/", FR_FEEDGEN_RSS, NULL};
		break;
	case 2:
		*f++ = (struct feedspec){"rss", 0, "/rss",
		                         (k / 10) % 2 ? FR_FEEDGEN_RDF : FR_FEEDGEN_RSS, NULL};
		break;
	case 3:
		*f++ = (struct feedspec){"blog", 0, "/blog/rss.xml", FR_FEEDGEN_RSS,
		                         "text/xml; charset=utf-8"};
		break;
	case 4:
		*f++ = (struct feedspec){"wellknown", 0, "/feed", FR_FEEDGEN_ATOM, NULL};
		break;
	case 5:
		*f = (struct feedspec){"cdn", 1, "", FR_FEEDGEN_RSS, NULL};
		snprintf(f->path, sizeof(f->path), "/site%u/main.xml", (unsigned)k);
		f++;
		break;
	case 6:
		*f++ = (struct feedspec){"json", 0, "/feed.json", FR_FEEDGEN_JSON, NULL};
		break;
	case 7:
		*f++ = (struct feedspec){"blog", 0, "/blog/feed.xml", FR_FEEDGEN_ATOM, NULL};
		break;
	case 9:
		*f++ = (struct feedspec){"index", 0, "/index.xml", FR_FEEDGEN_RSS, NULL};
		break;
	default: /* 8: none */
		break;
	}
	return (size_t)(f - out);
}

static void
spec_url(uint32_t k, const struct feedspec *f, char *buf, size_t len)
{
	if (f->cdn)
		snprintf(buf, len, "http://feeds.cdn%u.test%s", (unsigned)k, f->path);
	else
		snprintf(buf, len, "http://www.site%u.test%s", (unsigned)k, f->path);
}

char *
fr_web_site_url(uint32_t k, char *buf, size_t len)
{
	snprintf(buf, len, "http://%ssite%u.test/", k % 7 == 3 ? "" : "www.", (unsigned)k);
	return buf;
}

size_t
fr_web_site_feeds(uint32_t k, char urls[FR_WEB_MAX_SITE_FEEDS][FR_WEB_URL_MAX])
{
	struct feedspec specs[FR_WEB_MAX_SITE_FEEDS];
	size_t n = site_feedspecs(k, specs);

	for (size_t i = 0; i < n; i++)
		spec_url(k, &specs[i], urls[i], FR_WEB_URL_MAX);
	return n;
}

/* ---- life ---- */

struct fr_web *
fr_web_new(const struct fr_web_config *cfg, char *err, size_t errlen)
{
	struct fr_web *w;

	if (cfg->n_sites == 0 || cfg->n_sites > FR_WEB_MAX_SITES) {
		fr_errf(err, errlen, "web: the number of sites must be 1..%u, not %u",
		        FR_WEB_MAX_SITES, (unsigned)cfg->n_sites);
		return NULL;
	}
	w = calloc(1, sizeof(*w));
	if (!w) {
		fr_errf(err, errlen, "web: out of memory");
		return NULL;
	}
	w->cfg = *cfg;
	atomic_init(&w->sessions, 0);
	return w;
}

void
fr_web_free(struct fr_web *w)
{
	free(w);
}

uint32_t
fr_web_n_sites(const struct fr_web *w)
{
	return w->cfg.n_sites;
}

/* ---- words ---- */

static const char *const WORDS[] = {
    "river",   "morning", "garden",  "letter",   "harbour",  "winter",  "lantern", "orchard",
    "quiet",   "bright",  "railway", "kitchen",  "market",   "meadow",  "silver",  "window",
    "forest",  "village", "copper",  "evening",  "island",   "journey", "library", "mountain",
    "paper",   "signal",  "station", "summer",   "thunder",  "valley",  "weather", "wooden",
    "autumn",  "bridge",  "candle",  "distant",  "engine",   "festival", "gentle", "hollow",
    "kettle",  "ladder",  "mirror",  "notebook", "ocean",    "pepper",  "rooftop", "saddle",
    "tide",    "umbrella", "velvet", "whistle",  "yellow",   "harvest", "compass", "feather",
    "granite", "horizon", "meridian", "pebble",  "sparrow",  "timber",  "voyage",  "workshop"};
#define N_WORDS (sizeof(WORDS) / sizeof(WORDS[0]))

static void
seed_rng(struct fr_rng *r, const struct fr_web *w, uint32_t k, uint64_t what)
{
	fr_rng_seed(r, w->cfg.seed ^ ((uint64_t)k * 0x9E3779B97F4A7C15ull) ^
	                   (what * 0xC2B2AE3D27D4EB4Full));
}

/* n words from r, the first (or every, when title) capitalised. */
static void
words(struct fr_text *t, struct fr_rng *r, unsigned n, int title)
{
	for (unsigned i = 0; i < n; i++) {
		const char *wd = WORDS[fr_rng_below(r, N_WORDS)];
		char cap[2] = {wd[0], '\0'};

		if (i)
			fr_text_puts(t, " ");
		if (i == 0 || title) {
			cap[0] = (char)(wd[0] - 'a' + 'A');
			fr_text_puts(t, cap);
			fr_text_puts(t, wd + 1);
		} else {
			fr_text_puts(t, wd);
		}
	}
}

/* A title of 2-5 words for (k, what) into buf. */
static char *
title_of(const struct fr_web *w, uint32_t k, uint64_t what, char *buf, size_t len)
{
	struct fr_text t = {0};
	struct fr_rng r;
	char *s;
	size_t n;

	seed_rng(&r, w, k, what);
	words(&t, &r, 2 + (unsigned)fr_rng_below(&r, 4), 1);
	s = fr_text_take(&t, &n);
	snprintf(buf, len, "%s", s ? s : "Untitled");
	free(s);
	return buf;
}

enum { WHAT_SITE = 1, WHAT_DATES = 2, WHAT_POST = 100, WHAT_PAGE = 1000 };

static char *
site_title(const struct fr_web *w, uint32_t k, char *buf, size_t len)
{
	return title_of(w, k, WHAT_SITE, buf, len);
}

static char *
post_title(const struct fr_web *w, uint32_t k, unsigned i, char *buf, size_t len)
{
	return title_of(w, k, WHAT_POST + i, buf, len);
}

/* Publication time of post i (1..N_POSTS; later posts are newer). */
static int64_t
post_time(const struct fr_web *w, uint32_t k, unsigned i)
{
	struct fr_rng r;
	int64_t t;

	seed_rng(&r, w, k, WHAT_DATES);
	t = 1704067200 + (int64_t)fr_rng_below(&r, 200 * 86400); /* 2024-01-01 + up to 200 d */
	for (unsigned j = 1; j <= i; j++)
		t += 86400 + (int64_t)fr_rng_below(&r, 4 * 86400);
	return t;
}

/* A paragraph of 3-5 sentences. */
static void
paragraph(struct fr_text *t, struct fr_rng *r)
{
	unsigned n = 3 + (unsigned)fr_rng_below(r, 3);

	fr_text_puts(t, "<p>");
	for (unsigned i = 0; i < n; i++) {
		if (i)
			fr_text_puts(t, " ");
		words(t, r, 6 + (unsigned)fr_rng_below(r, 7), 0);
		fr_text_puts(t, ".");
	}
	fr_text_puts(t, "</p>\n");
}

/* ---- answers ---- */

static uint64_t
fnv1a(const char *p, size_t n)
{
	uint64_t h = 14695981039346656037ull;

	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)p[i];
		h *= 1099511628211ull;
	}
	return h;
}

/* Gives resp the text t (taken) with status and ctype; ETag from the body. */
static int
give(struct fr_text *t, int status, const char *ctype, struct fr_serve_resp *resp)
{
	size_t len;
	char *body = fr_text_take(t, &len);

	if (!body)
		return -1;
	resp->status = status;
	resp->content_type = ctype;
	resp->body = body;
	resp->len = len;
	resp->release = free;
	resp->release_cls = body;
	if (status == 200)
		snprintf(resp->etag, sizeof(resp->etag), "\"%016llx\"",
		         (unsigned long long)fnv1a(body, len));
	return 0;
}

static void
set_static(struct fr_serve_resp *resp, int status, const char *ctype, const char *body)
{
	resp->status = status;
	resp->content_type = ctype;
	resp->body = body;
	resp->len = strlen(body);
}

static const char ROBOTS[] = "User-agent: *\nDisallow: /private/\n";
static const char NOT_FOUND_HTML[] =
    "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
    "<title>Not found</title>\n</head>\n<body>\n<h1>Not found</h1>\n"
    "<p>There is no such page here. <a href=\"/\">Home</a></p>\n</body>\n</html>\n";

static int
not_found(struct fr_serve_resp *resp)
{
	set_static(resp, 404, HTML_TYPE, NOT_FOUND_HTML);
	return 0;
}

/* A fresh session id: 32 hex digits, upper case for Java's. Changes on
 * every call (a counter through the seeded generator). */
static void
session_id(struct fr_web *w, int upper, char buf[33])
{
	uint64_t c = atomic_fetch_add(&w->sessions, 1);
	struct fr_rng r;

	fr_rng_seed(&r, w->cfg.seed ^ 0x5E55101Dull ^ (c * 0x9E3779B97F4A7C15ull));
	snprintf(buf, 33, upper ? "%016llX%016llX" : "%016llx%016llx",
	         (unsigned long long)fr_rng_u64(&r), (unsigned long long)fr_rng_u64(&r));
}

/* Link target of page path on site k: on trap sites (shape 9) with a fresh
 * session id, as ?PHPSESSID= or (alternately by post) ;jsessionid=. */
static void
href(struct fr_text *t, struct fr_web *w, uint32_t k, const char *path, int java)
{
	char sid[33];

	fr_text_puts(t, path);
	if (k % FR_WEB_SHAPES != 9)
		return;
	session_id(w, java, sid);
	fr_text_printf(t, java ? ";jsessionid=%s" : "?PHPSESSID=%s", sid);
}

static void
link_post(struct fr_text *t, struct fr_web *w, uint32_t k, unsigned i, const char *text)
{
	char p[32];

	snprintf(p, sizeof(p), "/post/%u.html", i);
	fr_text_puts(t, "<a href=\"");
	href(t, w, k, p, i % 2 == 0);
	fr_text_puts(t, "\">");
	fr_text_xml(t, text);
	fr_text_puts(t, "</a>");
}

/* <!DOCTYPE ...> up to the end of <title>, with the common head links. */
static void
page_start(struct fr_text *t, const char *title)
{
	fr_text_puts(t, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	                "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	                "<title>");
	fr_text_xml(t, title);
	fr_text_puts(t, "</title>\n<link rel=\"stylesheet\" href=\"/assets/site.css\">\n"
	                "<link rel=\"icon\" href=\"/favicon.ico\">\n");
}

/* </head>, the header with the site's name and its navigation. */
static void
page_header(struct fr_text *t, struct fr_web *w, uint32_t k, const char *site)
{
	unsigned shape = k % FR_WEB_SHAPES;

	fr_text_puts(t, "</head>\n<body>\n<header>\n<h1><a href=\"");
	href(t, w, k, "/", 0);
	fr_text_puts(t, "\">");
	fr_text_xml(t, site);
	fr_text_puts(t, "</a></h1>\n<nav><a href=\"");
	href(t, w, k, "/", 0);
	fr_text_puts(t, "\">Home</a> | ");
	link_post(t, w, k, N_POSTS, "Latest");
	if (shape == 7)
		fr_text_puts(t, " | <a href=\"/blog/\">Blog</a>");
	if (shape == 9)
		fr_text_puts(t, " | <a href=\"/calendar?y=2024&amp;m=01\">Calendar</a>"
		                " | <a href=\"/a/\">Archive</a>");
	fr_text_puts(t, "</nav>\n</header>\n");
}

static void
page_end(struct fr_text *t, const char *site, const char *extra)
{
	fr_text_puts(t, "<footer>\n<p>&copy; 2024 ");
	fr_text_xml(t, site);
	fr_text_puts(t, ". All rights reserved.");
	if (extra)
		fr_text_puts(t, extra);
	fr_text_puts(t, "</p>\n</footer>\n</body>\n</html>\n");
}

/* An autodiscovery <link>. */
static void
alt_link(struct fr_text *t, const char *type, const char *title, const char *hrefv)
{
	fr_text_printf(t, "<link rel=\"alternate\" type=\"%s\"", type);
	if (title) {
		fr_text_puts(t, " title=\"");
		fr_text_xml(t, title);
		fr_text_puts(t, "\"");
	}
	fr_text_puts(t, " href=\"");
	fr_text_xml(t, hrefv);
	fr_text_puts(t, "\">\n");
}

static int
home_page(struct fr_web *w, uint32_t k, struct fr_serve_resp *resp)
{
	unsigned shape = k % FR_WEB_SHAPES;
	struct fr_text t = {NULL, 0, 0, PAGE_MAX, 0};
	struct feedspec specs[FR_WEB_MAX_SITE_FEEDS];
	char site[128], title[160], url[FR_WEB_URL_MAX], ft[160];
	struct fr_rng r;
	const char *footer = NULL;

	site_feedspecs(k, specs);
	site_title(w, k, site, sizeof(site));
	snprintf(title, sizeof(title), "%s | site%u", site, (unsigned)k);
	snprintf(ft, sizeof(ft), "site%u feed", (unsigned)k);
	page_start(&t, title);
	switch (shape) {
	case 0:
	case 9:
		alt_link(&t, "application/rss+xml", ft, specs[0].path);
		break;
	case 1:
		alt_link(&t, "application/atom+xml", ft, "atom.xml");
		spec_url(k, &specs[1], url, sizeof(url));
		fr_text_printf(&t,
		               "<LINK REL=\"ALTERNATE\" TYPE=\"APPLICATION/RSS+XML\" "
		               "TITLE=\"site%u comments\" HREF=\"%s\">\n",
		               (unsigned)k, url);
		break;
	case 5:
		spec_url(k, &specs[0], url, sizeof(url));
		alt_link(&t, "application/rss+xml", ft, url);
		break;
	case 6:
		alt_link(&t, "application/feed+json", ft, "/feed.json");
		alt_link(&t, "application/json", NULL, "/wp-json/wp/v2/posts/1");
		snprintf(url, sizeof(url),
		         "/wp-json/oembed/1.0/embed?url=http%%3A%%2F%%2Fwww.site%u.test%%2F",
		         (unsigned)k);
		alt_link(&t, "application/json+oembed", NULL, url);
		break;
	default:
		break;
	}
	page_header(&t, w, k, site);
	fr_text_puts(&t, "<main>\n");
	seed_rng(&r, w, k, WHAT_PAGE);
	paragraph(&t, &r);
	paragraph(&t, &r);
	if (shape == 2) {
		snprintf(url, sizeof(url), "//www.site%u.test/rss", (unsigned)k);
		alt_link(&t, fr_feedgen_mime(specs[0].fmt), ft, url);
	}
	fr_text_puts(&t, "<h2>Recent posts</h2>\n<ul>\n");
	for (unsigned i = N_POSTS; i >= 1; i--) {
		char pt[160];

		fr_text_puts(&t, "<li>");
		link_post(&t, w, k, i, post_title(w, k, i, pt, sizeof(pt)));
		fr_text_puts(&t, "</li>\n");
	}
	fr_text_puts(&t, "</ul>\n<p>Members can follow <a href=\"/private/feed.xml\">the "
	                 "members' feed</a>.</p>\n</main>\n");
	if (shape == 3)
		footer = " <a href=\"/blog/rss.xml\">RSS</a> &middot; "
		         "<a href=\"/rss-help.html\">About RSS</a>";
	else if (shape == 8)
		footer = " <a href=\"/feeds/\">Feeds</a>";
	page_end(&t, site, footer);
	return give(&t, 200, HTML_TYPE, resp);
}

static int
post_page(struct fr_web *w, uint32_t k, unsigned i, struct fr_serve_resp *resp)
{
	struct fr_text t = {NULL, 0, 0, PAGE_MAX, 0};
	char site[128], pt[160], title[300], o1[160], o2[160], d[40];
	unsigned j = i % N_POSTS + 1, l = j % N_POSTS + 1;
	uint32_t next = (k + 1) % w->cfg.n_sites;
	struct fr_rng r;

	site_title(w, k, site, sizeof(site));
	post_title(w, k, i, pt, sizeof(pt));
	snprintf(title, sizeof(title), "%s | %s", pt, site);
	page_start(&t, title);
	page_header(&t, w, k, site);
	fr_text_puts(&t, "<main>\n<article>\n<h2>");
	fr_text_xml(&t, pt);
	fr_text_printf(&t, "</h2>\n<p class=\"meta\">Published <time>%s</time></p>\n",
	               fr_time_format((double)post_time(w, k, i), d, sizeof(d)));
	seed_rng(&r, w, k, WHAT_PAGE + i);
	paragraph(&t, &r);
	paragraph(&t, &r);
	paragraph(&t, &r);
	fr_text_puts(&t, "<p>Read also ");
	link_post(&t, w, k, j, post_title(w, k, j, o1, sizeof(o1)));
	fr_text_puts(&t, " and ");
	link_post(&t, w, k, l, post_title(w, k, l, o2, sizeof(o2)));
	fr_text_puts(&t, ".</p>\n<p>Back <a href=\"");
	href(&t, w, k, "/", 0);
	fr_text_printf(&t,
	               "\">home</a>. A friend writes at <a href=\"http://www.site%u.test/\">"
	               "www.site%u.test</a>.</p>\n</article>\n</main>\n",
	               (unsigned)next, (unsigned)next);
	page_end(&t, site, NULL);
	return give(&t, 200, HTML_TYPE, resp);
}

/* A small HTML page: a title, a paragraph of text, and extra HTML. */
static int
simple_page(struct fr_web *w, uint32_t k, const char *name, const char *head, const char *extra,
            uint64_t what, struct fr_serve_resp *resp)
{
	struct fr_text t = {NULL, 0, 0, PAGE_MAX, 0};
	char site[128], title[300];
	struct fr_rng r;

	site_title(w, k, site, sizeof(site));
	snprintf(title, sizeof(title), "%s | %s", name, site);
	page_start(&t, title);
	if (head)
		fr_text_puts(&t, head);
	page_header(&t, w, k, site);
	fr_text_puts(&t, "<main>\n<h2>");
	fr_text_xml(&t, name);
	fr_text_puts(&t, "</h2>\n");
	seed_rng(&r, w, k, what);
	paragraph(&t, &r);
	if (extra)
		fr_text_puts(&t, extra);
	fr_text_puts(&t, "</main>\n");
	page_end(&t, site, NULL);
	return give(&t, 200, HTML_TYPE, resp);
}

static const char *
month_name(unsigned m)
{
	static const char *const M[] = {"January", "February", "March",     "April",
	                                "May",     "June",     "July",      "August",
	                                "September", "October", "November", "December"};
	return M[m - 1];
}

/* "y=YYYY&m=MM" (y 1..MAX_YEAR without leading zeros, m 01..12). */
static int
parse_calendar(const char *q, unsigned *y, unsigned *m)
{
	unsigned long v = 0;
	const char *p = q;

	if (strncmp(p, "y=", 2) != 0)
		return -1;
	p += 2;
	if (*p < '1' || *p > '9')
		return -1;
	for (; *p >= '0' && *p <= '9'; p++) {
		v = v * 10 + (unsigned long)(*p - '0');
		if (v > MAX_YEAR)
			return -1;
	}
	if (strncmp(p, "&m=", 3) != 0)
		return -1;
	p += 3;
	if (p[0] < '0' || p[0] > '1' || p[1] < '0' || p[1] > '9' || p[2])
		return -1;
	*m = (unsigned)((p[0] - '0') * 10 + (p[1] - '0'));
	if (*m < 1 || *m > 12)
		return -1;
	*y = (unsigned)v;
	return 0;
}

static int
calendar_page(struct fr_web *w, uint32_t k, unsigned y, unsigned m, struct fr_serve_resp *resp)
{
	char name[64], extra[512];
	unsigned py = m == 1 ? y - 1 : y, pm = m == 1 ? 12 : m - 1;
	unsigned ny = m == 12 ? y + 1 : y, nm = m == 12 ? 1 : m + 1;
	size_t n;

	snprintf(name, sizeof(name), "Calendar: %s %u", month_name(m), y);
	n = 0;
	extra[0] = '\0';
	if (py >= 1)
		n += (size_t)snprintf(extra + n, sizeof(extra) - n,
		                      "<p><a href=\"/calendar?y=%u&amp;m=%02u\">&laquo; %s %u</a>",
		                      py, pm, month_name(pm), py);
	else
		n += (size_t)snprintf(extra + n, sizeof(extra) - n, "<p>");
	if (ny <= MAX_YEAR)
		snprintf(extra + n, sizeof(extra) - n,
		         " <a href=\"/calendar?y=%u&amp;m=%02u\">%s %u &raquo;</a></p>\n", ny, nm,
		         month_name(nm), ny);
	else
		snprintf(extra + n, sizeof(extra) - n, "</p>\n");
	return simple_page(w, k, name, NULL, extra, WHAT_PAGE + 100 + m, resp);
}

/* The endless path /a/a/.../: depth d links depth d + 1. */
static int
trap_page(struct fr_web *w, uint32_t k, const char *path, struct fr_serve_resp *resp)
{
	struct fr_text extra = {NULL, 0, 0, PAGE_MAX, 0};
	char name[64];
	size_t len;
	char *x;
	int rc;

	snprintf(name, sizeof(name), "Archive, level %zu", strlen(path) / 2);
	fr_text_puts(&extra, "<p><a href=\"");
	fr_text_xml(&extra, path);
	fr_text_puts(&extra, "a/\">Older</a></p>\n");
	x = fr_text_take(&extra, &len);
	if (!x)
		return -1;
	rc = simple_page(w, k, name, NULL, x, WHAT_PAGE + 200, resp);
	free(x);
	return rc;
}

static int
is_trap_path(const char *p)
{
	if (strncmp(p, "/a/", 3) != 0)
		return 0;
	for (p += 3; *p; p += 2)
		if (p[0] != 'a' || p[1] != '/')
			return 0;
	return 1;
}

/* A feed of site k. kind: 0 a post feed (name, items are the posts), 1 the
 * comments feed, 2 the private feed, 3 the CDN's other feed. */
static int
feed_answer(struct fr_web *w, uint32_t k, const char *name, const char *url,
            enum fr_feedgen_format fmt, const char *ctype, int kind,
            struct fr_serve_resp *resp)
{
	struct fr_feedgen_item items[N_POSTS];
	char titles[N_POSTS][200], links[N_POSTS][FR_WEB_URL_MAX], ids[N_POSTS][FR_WEB_URL_MAX + 32];
	char summaries[N_POSTS][320], ftitle[96], home[48], desc[160];
	struct fr_text t = {NULL, 0, 0, PAGE_MAX, 0};
	struct fr_feedgen f;

	snprintf(ftitle, sizeof(ftitle), "site%u feed %s", (unsigned)k, name);
	snprintf(home, sizeof(home), "http://www.site%u.test/", (unsigned)k);
	snprintf(desc, sizeof(desc), "The %s feed of site%u (freshet serve --web)", name,
	         (unsigned)k);
	for (unsigned n = 0; n < N_POSTS; n++) {
		unsigned i = N_POSTS - n; /* newest first */
		char pt[160];

		post_title(w, k, i, pt, sizeof(pt));
		switch (kind) {
		case 1:
			snprintf(titles[n], sizeof(titles[n]), "Comment on %s", pt);
			snprintf(links[n], sizeof(links[n]), "%spost/%u.html#comment-%u", home, i, i);
			break;
		case 2:
			snprintf(titles[n], sizeof(titles[n]), "Members only: %s", pt);
			snprintf(links[n], sizeof(links[n]), "%sprivate/%u.html", home, i);
			break;
		case 3:
			snprintf(titles[n], sizeof(titles[n]), "CDN notice %u", i);
			snprintf(links[n], sizeof(links[n]), "http://feeds.cdn%u.test/other/%u.html",
			         (unsigned)k, i);
			break;
		default:
			snprintf(titles[n], sizeof(titles[n]), "%s", pt);
			snprintf(links[n], sizeof(links[n]), "%spost/%u.html", home, i);
			break;
		}
		snprintf(ids[n], sizeof(ids[n]), "%s#%s", links[n], name);
		snprintf(summaries[n], sizeof(summaries[n]), "%.200s, in the %.40s feed of site%u.",
		         titles[n], name, (unsigned)k);
		items[n].id = ids[n];
		items[n].title = titles[n];
		items[n].link = links[n];
		items[n].summary = summaries[n];
		items[n].published_s = post_time(w, k, i);
	}
	memset(&f, 0, sizeof(f));
	f.format = fmt;
	f.title = ftitle;
	f.feed_url = url;
	f.home_url = home;
	f.description = desc;
	f.items = items;
	f.n_items = N_POSTS;
	fr_feedgen_render(&f, &t);
	if (give(&t, 200, ctype ? ctype : fr_feedgen_content_type(fmt), resp) < 0)
		return -1;
	resp->last_modified_s = items[0].published_s;
	return 0;
}

/* Percent-encodes a decoded path for a Location header. */
static void
enc_path(const char *p, char *buf, size_t len)
{
	static const char keep[] = "/-._~!$&'()*+,;=:@";
	size_t n = 0;

	for (; *p && n + 4 < len; p++) {
		unsigned char c = (unsigned char)*p;

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		    (c && strchr(keep, c)))
			buf[n++] = (char)c;
		else
			n += (size_t)snprintf(buf + n, len - n, "%%%02X", c);
	}
	buf[n] = '\0';
}

/* "<prefix><k>.test" with k < n (no leading zeros): 1 and *k, else 0. */
static int
match_host(const char *h, const char *prefix, uint32_t n, uint32_t *k)
{
	size_t pl = strlen(prefix);
	uint64_t v = 0;
	const char *p;

	if (strncmp(h, prefix, pl) != 0)
		return 0;
	p = h + pl;
	if (*p < '0' || *p > '9' || (*p == '0' && p[1] >= '0' && p[1] <= '9'))
		return 0;
	for (; *p >= '0' && *p <= '9'; p++) {
		v = v * 10 + (uint64_t)(*p - '0');
		if (v >= n)
			return 0;
	}
	if (strcmp(p, ".test") != 0)
		return 0;
	*k = (uint32_t)v;
	return 1;
}

static int
www_answer(struct fr_web *w, uint32_t k, const char *path, const char *query,
           struct fr_serve_resp *resp)
{
	unsigned shape = k % FR_WEB_SHAPES, i;
	struct feedspec specs[FR_WEB_MAX_SITE_FEEDS];
	size_t n_specs = site_feedspecs(k, specs);
	char url[FR_WEB_URL_MAX + 64], own[512];

	if (shape == 9) {
		/* Session ids: served whatever they are. */
		const char *js = strstr(path, ";jsessionid=");

		if (js && (size_t)(js - path) < sizeof(own)) {
			size_t n = (size_t)(js - path);
			const char *rest = strchr(js, '/');

			memcpy(own, path, n);
			snprintf(own + n, sizeof(own) - n, "%s", rest ? rest : "");
			path = own;
		}
		if (!strncmp(query, "PHPSESSID=", 10) && !strchr(query, '&'))
			query = "";
	}
	if (query[0]) {
		unsigned y, m;

		if (shape == 9 && !strcmp(path, "/calendar") && parse_calendar(query, &y, &m) == 0)
			return calendar_page(w, k, y, m, resp);
		if (shape == 6 && !strcmp(path, "/wp-json/oembed/1.0/embed") &&
		    !strncmp(query, "url=", 4)) {
			struct fr_text t = {NULL, 0, 0, PAGE_MAX, 0};
			char site[128];

			site_title(w, k, site, sizeof(site));
			fr_text_puts(&t, "{\"version\":\"1.0\",\"type\":\"rich\",\"provider_name\":\"");
			fr_text_json(&t, site);
			fr_text_printf(&t,
			               "\",\"provider_url\":\"http://www.site%u.test/\",\"title\":\"",
			               (unsigned)k);
			fr_text_json(&t, site);
			fr_text_puts(&t, "\",\"width\":600,\"height\":338,\"html\":\"<blockquote>");
			fr_text_json(&t, site);
			fr_text_puts(&t, "</blockquote>\"}\n");
			return give(&t, 200, "application/json; charset=utf-8", resp);
		}
		return not_found(resp);
	}
	if (!strcmp(path, "/robots.txt")) {
		set_static(resp, 200, "text/plain; charset=utf-8", ROBOTS);
		return 0;
	}
	if (!strcmp(path, "/"))
		return home_page(w, k, resp);
	if (sscanf(path, "/post/%u.html", &i) == 1 && i >= 1 && i <= N_POSTS) {
		char want[32];

		snprintf(want, sizeof(want), "/post/%u.html", i);
		if (!strcmp(path, want))
			return post_page(w, k, i, resp);
	}
	if (!strcmp(path, "/private/feed.xml")) {
		snprintf(url, sizeof(url), "http://www.site%u.test/private/feed.xml", (unsigned)k);
		return feed_answer(w, k, "private", url, FR_FEEDGEN_RSS, NULL, 2, resp);
	}
	for (size_t s = 0; s < n_specs; s++) {
		if (!specs[s].cdn && !strcmp(path, specs[s].path)) {
			spec_url(k, &specs[s], url, sizeof(url));
			return feed_answer(w, k, specs[s].name, url, specs[s].fmt, specs[s].ctype,
			                   !strcmp(specs[s].name, "comments"), resp);
		}
	}
	switch (shape) {
	case 3:
		if (!strcmp(path, "/rss-help.html"))
			return simple_page(w, k, "What is RSS?", NULL,
			                   "<p>RSS lets you follow a site in a feed reader. Look "
			                   "for the RSS link at the bottom of the home page.</p>\n",
			                   WHAT_PAGE + 300, resp);
		break;
	case 6:
		if (!strcmp(path, "/wp-json/wp/v2/posts/1")) {
			struct fr_text t = {NULL, 0, 0, PAGE_MAX, 0};
			char pt[160], d[40];

			post_title(w, k, 1, pt, sizeof(pt));
			fr_text_printf(&t, "{\"id\":1,\"date\":\"%s\",\"slug\":\"post-1\",",
			               fr_time_format((double)post_time(w, k, 1), d, sizeof(d)));
			fr_text_printf(&t,
			               "\"link\":\"http://www.site%u.test/post/1.html\","
			               "\"title\":{\"rendered\":\"",
			               (unsigned)k);
			fr_text_json(&t, pt);
			fr_text_puts(&t, "\"},\"content\":{\"rendered\":\"<p>");
			fr_text_json(&t, pt);
			fr_text_puts(&t, "</p>\"}}\n");
			return give(&t, 200, "application/json; charset=utf-8", resp);
		}
		break;
	case 7:
		if (!strcmp(path, "/blog/")) {
			struct fr_text x = {NULL, 0, 0, PAGE_MAX, 0};
			char head[256], pt[160];
			size_t len;
			char *xs;
			int rc;

			snprintf(head, sizeof(head),
			         "<base href=\"/blog/\">\n<link rel=\"alternate\" "
			         "type=\"application/atom+xml\" title=\"site%u blog\" "
			         "href=\"feed.xml\">\n",
			         (unsigned)k);
			fr_text_puts(&x, "<ul>\n");
			for (unsigned p = N_POSTS; p >= 1; p--)
				fr_text_printf(&x, "<li><a href=\"../post/%u.html\">%s</a></li>\n", p,
				               post_title(w, k, p, pt, sizeof(pt)));
			fr_text_puts(&x, "</ul>\n");
			xs = fr_text_take(&x, &len);
			if (!xs)
				return -1;
			rc = simple_page(w, k, "Blog", head, xs, WHAT_PAGE + 400, resp);
			free(xs);
			return rc;
		}
		break;
	case 8:
		if (!strcmp(path, "/feeds/"))
			return simple_page(w, k, "Feeds", NULL,
			                   "<p>We do not publish feeds. Subscribe to our newsletter "
			                   "instead.</p>\n",
			                   WHAT_PAGE + 500, resp);
		break;
	case 9:
		if (is_trap_path(path))
			return trap_page(w, k, path, resp);
		break;
	default:
		break;
	}
	return not_found(resp);
}

static int
cdn_answer(struct fr_web *w, uint32_t k, const char *path, const char *query,
           struct fr_serve_resp *resp)
{
	struct feedspec specs[FR_WEB_MAX_SITE_FEEDS];
	char url[FR_WEB_URL_MAX];

	site_feedspecs(k, specs);
	if (query[0])
		return not_found(resp);
	if (!strcmp(path, specs[0].path)) {
		spec_url(k, &specs[0], url, sizeof(url));
		return feed_answer(w, k, specs[0].name, url, specs[0].fmt, NULL, 0, resp);
	}
	if (!strcmp(path, "/other/feed.xml")) {
		snprintf(url, sizeof(url), "http://feeds.cdn%u.test/other/feed.xml", (unsigned)k);
		return feed_answer(w, k, "cdn-other", url, FR_FEEDGEN_RSS, NULL, 3, resp);
	}
	if (!strcmp(path, "/")) {
		struct fr_text t = {NULL, 0, 0, PAGE_MAX, 0};

		page_start(&t, "Feed delivery network");
		fr_text_puts(&t, "<link rel=\"alternate\" type=\"application/rss+xml\" "
		                 "title=\"Network notices\" href=\"/other/feed.xml\">\n</head>\n"
		                 "<body>\n<h1>Feed delivery network</h1>\n<p>This host serves "
		                 "feeds for its customers. See <a href=\"/other/feed.xml\">our "
		                 "notices feed</a>, the <a href=\"/status/\">status page</a> or "
		                 "<a href=\"http://www.example.test/\">our company</a>.</p>\n"
		                 "</body>\n</html>\n");
		return give(&t, 200, HTML_TYPE, resp);
	}
	return not_found(resp);
}

int
fr_web_handle(void *ctx, const struct fr_serve_req *req, struct fr_serve_resp *resp)
{
	struct fr_web *w = ctx;
	const char *h = req->host_name;
	uint32_t k, n = w->cfg.n_sites;

	if (!strncmp(h, "www.", 4) && match_host(h + 4, "site", n, &k))
		return www_answer(w, k, req->path, req->query, resp);
	if (match_host(h, "site", n, &k) && k % 7 == 3) {
		char p[256];

		if (!strcmp(req->path, "/robots.txt") && !req->query[0]) {
			set_static(resp, 200, "text/plain; charset=utf-8", ROBOTS);
			return 0;
		}
		enc_path(req->path, p, sizeof(p));
		snprintf(resp->location, sizeof(resp->location), "http://www.site%u.test%.255s%s%.200s",
		         (unsigned)k, p, req->query[0] ? "?" : "", req->query);
		set_static(resp, 301, HTML_TYPE,
		           "<!DOCTYPE html>\n<html><head><title>Moved</title></head><body>"
		           "<p>Moved permanently.</p></body></html>\n");
		return 0;
	}
	if (!strncmp(h, "feeds.", 6) && match_host(h + 6, "cdn", n, &k) &&
	    k % FR_WEB_SHAPES == 5)
		return cdn_answer(w, k, req->path, req->query, resp);
	set_static(resp, 404, "text/plain; charset=utf-8", "unknown host\n");
	return 0;
}

/* ---- truth ---- */

int
fr_web_write_truth(const struct fr_web *w, FILE *out, const char *name, char *err,
                   size_t errlen)
{
	char site[FR_WEB_URL_MAX], urls[FR_WEB_MAX_SITE_FEEDS][FR_WEB_URL_MAX];

	fputs("site_url\tfeed_url\n", out);
	for (uint32_t k = 0; k < w->cfg.n_sites; k++) {
		size_t n = fr_web_site_feeds(k, urls);

		fr_web_site_url(k, site, sizeof(site));
		if (n == 0)
			fprintf(out, "%s\t\n", site);
		for (size_t i = 0; i < n; i++)
			fprintf(out, "%s\t%s\n", site, urls[i]);
	}
	if (fflush(out) != 0 || ferror(out))
		return fr_errf(err, errlen, "%s: write error", name);
	return 0;
}

int
fr_web_write_sites(const struct fr_web *w, FILE *out, const char *name, char *err,
                   size_t errlen)
{
	char site[FR_WEB_URL_MAX];

	for (uint32_t k = 0; k < w->cfg.n_sites; k++)
		fprintf(out, "%s\n", fr_web_site_url(k, site, sizeof(site)));
	if (fflush(out) != 0 || ferror(out))
		return fr_errf(err, errlen, "%s: write error", name);
	return 0;
}
