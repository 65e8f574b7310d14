/* test_html.c - discovery's HTML reading: the feed-link and feed-like rules,
 * <base href>, relative and protocol-relative links, and the extraction on
 * the real pages of ../shared/data/discovery/readability against the
 * hand-labelled truth in tests/data/discovery/readability.tsv (precision
 * and recall printed). */
#include "test.h"

#include "discover/discover.h"
#include "discover/html.h"
#include "url/url.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void
test_rules(void)
{
	CHECK(fr_html_is_feed_link("alternate", "application/rss+xml", NULL));
	CHECK(fr_html_is_feed_link("ALTERNATE", "Application/Atom+XML; charset=utf-8", NULL));
	CHECK(fr_html_is_feed_link("alternate nofollow", "application/rdf+xml", NULL));
	CHECK(fr_html_is_feed_link("alternate", "application/feed+json", NULL));
	CHECK(fr_html_is_feed_link("alternate", "application/json", "JSON Feed"));
	CHECK(!fr_html_is_feed_link("alternate", "application/json", NULL));
	CHECK(!fr_html_is_feed_link("alternate", "application/json", "Post 997"));
	CHECK(!fr_html_is_feed_link("alternate", "application/json+oembed", "x feed"));
	CHECK(!fr_html_is_feed_link("service.post", "application/atom+xml", "Atom"));
	CHECK(!fr_html_is_feed_link("stylesheet", "text/css", NULL));
	CHECK(!fr_html_is_feed_link(NULL, "application/rss+xml", NULL));
	CHECK(!fr_html_is_feed_link("alternate", NULL, NULL));

	CHECK(fr_html_is_feedlike("/rss.xml", NULL));
	CHECK(fr_html_is_feedlike("http://feeds.feedburner.com/x", NULL));
	CHECK(fr_html_is_feedlike("/blog/atom", NULL));
	CHECK(fr_html_is_feedlike("/a", "Subscribe via RSS"));
	CHECK(fr_html_is_feedlike("/rss2/", NULL));
	CHECK(fr_html_is_feedlike("/?feed=rss2", NULL));
	CHECK(!fr_html_is_feedlike("/feedback", "Send feedback"));
	CHECK(!fr_html_is_feedlike("http://www.buzzfeed.com/tech", "BuzzFeed"));
	CHECK(!fr_html_is_feedlike("/atomic-habits", "Atomic"));
	CHECK(!fr_html_is_feedlike("/about", "About us"));
	CHECK(!fr_html_is_feedlike("https://rssi.example/x", NULL));
}

static void
test_scan(void)
{
	static const char page[] =
	    "<!DOCTYPE html><html><head><title> My  site </title>"
	    "<base href=\"/sub/\">"
	    "<link rel=\"alternate\" type=\"application/rss+xml\" title=\"Main\" href=\"feed.xml\">"
	    "<link rel=\"stylesheet\" href=\"s.css\">"
	    "</head><body>"
	    "<a href=\"#top\">top</a><a href=\"javascript:void(0)\">js</a>"
	    "<a href=\"mailto:a@b\">mail</a>"
	    "<a href=\"/about#team\">About</a><a href=\"/about\">About again</a>"
	    "<a href=\"//cdn.example.org/rss\">RSS</a>"
	    "<link rel=\"alternate\" type=\"application/atom+xml\" href=\"https://other.example/atom\">"
	    "<iframe src=\"/frame.html\"></iframe>"
	    "</body></html>";
	struct fr_html_page p;
	char err[512];
	int saw_about = 0, saw_cdn = 0, saw_frame = 0;

	CHECK(fr_html_scan(page, strlen(page), "https://www.example.com/a/b.html", NULL, 0, &p, err,
	                   sizeof(err)) == 0);
	CHECK_STR(p.title, "My site");
	CHECK_STR(p.base, "https://www.example.com/sub/");
	CHECK(p.n_feed_links == 2);
	if (p.n_feed_links == 2) {
		CHECK_STR(p.links[0].url, "https://www.example.com/sub/feed.xml");
		CHECK_STR(p.links[0].title, "Main");
		CHECK_STR(p.links[0].type, "application/rss+xml");
		CHECK_STR(p.links[1].url, "https://other.example/atom");
	}
	for (size_t i = 0; i < p.n_links; i++) {
		const struct fr_html_link *l = &p.links[i];
		CHECK(!strstr(l->url, "javascript") && !strstr(l->url, "mailto") &&
		      !strchr(l->url, '#'));
		if (!strcmp(l->url, "https://www.example.com/about")) {
			saw_about++;
			CHECK(l->flags == FR_HTML_FOLLOW);
		}
		if (!strcmp(l->url, "https://cdn.example.org/rss")) {
			saw_cdn++;
			CHECK(l->flags == (FR_HTML_FOLLOW | FR_HTML_FEEDLIKE));
		}
		if (!strcmp(l->url, "https://www.example.com/frame.html"))
			saw_frame++;
		CHECK(!strstr(l->url, "s.css"));
	}
	CHECK(saw_about == 1); /* one entry for /about and /about#team */
	CHECK(saw_cdn == 1);
	CHECK(saw_frame == 1);
	fr_html_page_clear(&p);

	/* Latin-1 declared by HTTP: the title comes out as UTF-8. */
	{
		static const char l1[] = "<html><head><title>Caf\xe9</title></head></html>";
		CHECK(fr_html_scan(l1, strlen(l1), "http://x.example/", "text/html; charset=ISO-8859-1",
		                   0, &p, err, sizeof(err)) == 0);
		CHECK_STR(p.title, "Caf\xc3\xa9");
		fr_html_page_clear(&p);
	}
	/* Not HTML at all still scans to nothing rather than failing hard. */
	CHECK(fr_html_sniff("<!DOCTYPE html><html>", 21));
	CHECK(fr_html_sniff("\n  <html lang=en>", 17));
	CHECK(!fr_html_sniff("<?xml version=\"1.0\"?><rss>", 26));
	CHECK(!fr_html_sniff("{\"version\":\"https://jsonfeed.org/version/1.1\"}", 46));
}

static void
test_domain(void)
{
	char *d;

	d = fr_registrable_domain("www.bbc.co.uk");
	CHECK_STR(d, "bbc.co.uk");
	free(d);
	d = fr_registrable_domain("a.b.site3.test");
	CHECK_STR(d, "site3.test");
	free(d);
	d = fr_registrable_domain("127.0.0.1");
	CHECK_STR(d, "127.0.0.1");
	free(d);
	d = fr_registrable_domain("localhost");
	CHECK_STR(d, "localhost");
	free(d);
	d = fr_registrable_domain("siliconexposed.blogspot.com"); /* a private suffix */
	CHECK_STR(d, "siliconexposed.blogspot.com");
	free(d);
}

/* ---- the readability pages ---------------------------------------------- */

#define MAXROWS 512

struct row {
	char kind[16], file[128], url[2048], how[16];
};

static char *
norm(const char *u)
{
	char err[512];
	return fr_url_normalize(u, 0, err, sizeof(err));
}

static char *
read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *b;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	b = malloc((size_t)n + 1);
	if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
		free(b);
		b = NULL;
	}
	fclose(f);
	if (b) {
		b[n] = '\0';
		*len = (size_t)n;
	}
	return b;
}

static int
in_list(char **v, size_t n, const char *u)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i], u))
			return 1;
	return 0;
}

static void
test_readability(void)
{
	static struct row rows[MAXROWS];
	size_t n = 0;
	FILE *f = fopen(FR_TEST_DATA "/discovery/readability.tsv", "r");
	char line[4096];
	/* autodiscovery: links found vs truth link rows; candidates (links and
	 * feed-like anchors) vs all truth feeds */
	size_t tp_link = 0, n_link_found = 0, n_link_truth = 0;
	size_t cand_hit = 0, n_feed_truth = 0, notfeed_as_link = 0, pages = 0;

	CHECK(f != NULL);
	if (!f)
		return;
	while (fgets(line, sizeof(line), f) && n < MAXROWS) {
		struct row *r = &rows[n];
		char *save = NULL, *k, *fl, *u, *h;

		line[strcspn(line, "\r\n")] = '\0';
		if (!line[0] || line[0] == '#')
			continue;
		k = strtok_r(line, "\t", &save);
		fl = strtok_r(NULL, "\t", &save);
		u = strtok_r(NULL, "\t", &save);
		h = strtok_r(NULL, "\t", &save);
		if (!k || !fl || !u)
			continue;
		snprintf(r->kind, sizeof(r->kind), "%s", k);
		snprintf(r->file, sizeof(r->file), "%s", fl);
		snprintf(r->url, sizeof(r->url), "%s", u);
		snprintf(r->how, sizeof(r->how), "%s", h ? h : "");
		n++;
	}
	fclose(f);
	CHECK(n > 100);
	for (size_t i = 0; i < n; i++) {
		char path[1024], err[512], *buf, *links[2048], *cands[2048];
		size_t len, nl = 0, nc = 0;
		struct fr_html_page p;

		if (strcmp(rows[i].kind, "page"))
			continue;
		pages++;
		snprintf(path, sizeof(path), FR_SHARED "/data/discovery/readability/%s", rows[i].file);
		buf = read_file(path, &len);
		CHECK(buf != NULL);
		if (!buf)
			continue;
		if (fr_html_scan(buf, len, rows[i].url, "text/html", 0, &p, err, sizeof(err)) < 0) {
			fprintf(stderr, "%s: %s\n", rows[i].file, err);
			CHECK(0);
			free(buf);
			continue;
		}
		for (size_t j = 0; j < p.n_links; j++) {
			char *u = norm(p.links[j].url);
			if (!u)
				continue;
			if ((p.links[j].flags & FR_HTML_FEED_LINK) && nl < 2048)
				links[nl++] = strdup(u);
			if ((p.links[j].flags & (FR_HTML_FEED_LINK | FR_HTML_FEEDLIKE)) && nc < 2048)
				cands[nc++] = strdup(u);
			free(u);
		}
		n_link_found += nl;
		for (size_t j = 0; j < n; j++) {
			char *u;
			int is_link;

			if (strcmp(rows[j].file, rows[i].file) || !strcmp(rows[j].kind, "page"))
				continue;
			u = norm(rows[j].url);
			if (!u)
				continue;
			is_link = !strcmp(rows[j].how, "link") || !strcmp(rows[j].how, "both");
			if (!strcmp(rows[j].kind, "feed")) {
				n_feed_truth++;
				if (in_list(cands, nc, u))
					cand_hit++;
				else
					fprintf(stderr, "  %s: feed %s not among the candidates\n",
					        rows[i].file, u);
				if (is_link) {
					n_link_truth++;
					if (in_list(links, nl, u))
						tp_link++;
					else
						fprintf(stderr, "  %s: autodiscovery link %s missed\n",
						        rows[i].file, u);
				}
			} else if (!strcmp(rows[j].kind, "notfeed") && in_list(links, nl, u)) {
				notfeed_as_link++;
				fprintf(stderr, "  %s: %s taken for a feed link\n", rows[i].file, u);
			}
			free(u);
		}
		for (size_t j = 0; j < nl; j++)
			free(links[j]);
		for (size_t j = 0; j < nc; j++)
			free(cands[j]);
		fr_html_page_clear(&p);
		free(buf);
	}
	fprintf(stderr,
	        "readability, %zu pages: autodiscovery links precision %.3f (%zu/%zu), recall %.3f "
	        "(%zu/%zu); feeds among the candidates %zu/%zu\n",
	        pages, n_link_found ? (double)tp_link / (double)n_link_found : 0.0, tp_link,
	        n_link_found, n_link_truth ? (double)tp_link / (double)n_link_truth : 0.0, tp_link,
	        n_link_truth, cand_hit, n_feed_truth);
	CHECK(pages >= 38);
	CHECK(tp_link == n_link_truth);
	CHECK(tp_link == n_link_found);
	CHECK(cand_hit == n_feed_truth);
	CHECK(notfeed_as_link == 0);
}

int
main(void)
{
	RUN(test_rules);
	RUN(test_scan);
	RUN(test_domain);
	RUN(test_readability);
	return TEST_DONE();
}
