/* feedgen.c - renders small feeds in four formats (see feedgen.h). Kept apart
 * from feeds.c, whose feeds come from a trace on a clock. */
#include "testkit/feedgen.h"

#include "core/timefmt.h"
#include "net/httpdate.h"
#include "testkit/text.h"

#include <string.h>

static const char *const NAMES[] = {"rss", "atom", "json", "rdf"};
static const char *const MIMES[] = {"application/rss+xml", "application/atom+xml",
                                    "application/feed+json", "application/rdf+xml"};
static const char *const CTYPES[] = {
    "application/rss+xml; charset=utf-8", "application/atom+xml; charset=utf-8",
    "application/feed+json; charset=utf-8", "application/rdf+xml; charset=utf-8"};

int
fr_feedgen_format_parse(const char *s, size_t n, enum fr_feedgen_format *out)
{
	for (size_t i = 0; i < sizeof(NAMES) / sizeof(NAMES[0]); i++) {
		if (strlen(NAMES[i]) == n && !memcmp(s, NAMES[i], n)) {
			*out = (enum fr_feedgen_format)i;
			return 0;
		}
	}
	return -1;
}

const char *
fr_feedgen_format_name(enum fr_feedgen_format f)
{
	return NAMES[f];
}

const char *
fr_feedgen_content_type(enum fr_feedgen_format f)
{
	return CTYPES[f];
}

const char *
fr_feedgen_mime(enum fr_feedgen_format f)
{
	return MIMES[f];
}

/* <tag>escaped text</tag> and a newline. */
static void
xml_elem(struct fr_text *t, const char *tag, const char *text)
{
	fr_text_printf(t, "<%s>", tag);
	fr_text_xml(t, text);
	fr_text_printf(t, "</%s>\n", tag);
}

static void
json_member(struct fr_text *t, const char *name, const char *text, int comma)
{
	fr_text_printf(t, "%s\"%s\":\"", comma ? "," : "", name);
	fr_text_json(t, text);
	fr_text_puts(t, "\"");
}

static void
render_rss(const struct fr_feedgen *f, struct fr_text *t)
{
	char date[FR_HTTPDATE_LEN];

	fr_text_puts(t, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	                "<rss version=\"2.0\" xmlns:atom=\"http://www.w3.org/2005/Atom\">\n"
	                "<channel>\n");
	xml_elem(t, "title", f->title);
	xml_elem(t, "link", f->home_url);
	xml_elem(t, "description", f->description ? f->description : f->title);
	fr_text_puts(t, "<atom:link rel=\"self\" type=\"application/rss+xml\" href=\"");
	fr_text_xml(t, f->feed_url);
	fr_text_puts(t, "\"/>\n");
	if (f->n_items)
		xml_elem(t, "lastBuildDate",
		         fr_http_date_format(f->items[0].published_s, date, sizeof(date)));
	for (size_t i = 0; i < f->n_items; i++) {
		const struct fr_feedgen_item *it = &f->items[i];

		fr_text_puts(t, "<item>\n");
		xml_elem(t, "title", it->title);
		xml_elem(t, "link", it->link);
		fr_text_puts(t, "<guid isPermaLink=\"false\">");
		fr_text_xml(t, it->id);
		fr_text_puts(t, "</guid>\n");
		xml_elem(t, "pubDate",
		         fr_http_date_format(it->published_s, date, sizeof(date)));
		if (it->summary)
			xml_elem(t, "description", it->summary);
		fr_text_puts(t, "</item>\n");
	}
	fr_text_puts(t, "</channel>\n</rss>\n");
}

static void
render_atom(const struct fr_feedgen *f, struct fr_text *t)
{
	char d[40];

	fr_text_puts(t, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	                "<feed xmlns=\"http://www.w3.org/2005/Atom\">\n");
	xml_elem(t, "title", f->title);
	xml_elem(t, "id", f->feed_url);
	fr_text_puts(t, "<link rel=\"self\" href=\"");
	fr_text_xml(t, f->feed_url);
	fr_text_puts(t, "\"/>\n<link rel=\"alternate\" type=\"text/html\" href=\"");
	fr_text_xml(t, f->home_url);
	fr_text_puts(t, "\"/>\n");
	xml_elem(t, "updated",
	         fr_time_format(f->n_items ? (double)f->items[0].published_s : 0, d, sizeof(d)));
	fr_text_puts(t, "<author><name>");
	fr_text_xml(t, f->title);
	fr_text_puts(t, "</name></author>\n");
	if (f->description)
		xml_elem(t, "subtitle", f->description);
	for (size_t i = 0; i < f->n_items; i++) {
		const struct fr_feedgen_item *it = &f->items[i];

		fr_time_format((double)it->published_s, d, sizeof(d));
		fr_text_puts(t, "<entry>\n");
		xml_elem(t, "title", it->title);
		xml_elem(t, "id", it->id);
		fr_text_puts(t, "<link rel=\"alternate\" type=\"text/html\" href=\"");
		fr_text_xml(t, it->link);
		fr_text_puts(t, "\"/>\n");
		xml_elem(t, "published", d);
		xml_elem(t, "updated", d);
		if (it->summary)
			xml_elem(t, "summary", it->summary);
		fr_text_puts(t, "</entry>\n");
	}
	fr_text_puts(t, "</feed>\n");
}

static void
render_json(const struct fr_feedgen *f, struct fr_text *t)
{
	char d[40];

	fr_text_puts(t, "{\"version\":\"https://jsonfeed.org/version/1.1\"");
	json_member(t, "title", f->title, 1);
	json_member(t, "home_page_url", f->home_url, 1);
	json_member(t, "feed_url", f->feed_url, 1);
	if (f->description)
		json_member(t, "description", f->description, 1);
	fr_text_puts(t, ",\"items\":[");
	for (size_t i = 0; i < f->n_items; i++) {
		const struct fr_feedgen_item *it = &f->items[i];

		fr_text_puts(t, i ? ",\n{" : "\n{");
		json_member(t, "id", it->id, 0);
		json_member(t, "url", it->link, 1);
		json_member(t, "title", it->title, 1);
		json_member(t, "content_text", it->summary ? it->summary : it->title, 1);
		json_member(t, "date_published",
		            fr_time_format((double)it->published_s, d, sizeof(d)), 1);
		fr_text_puts(t, "}");
	}
	fr_text_puts(t, "\n]}\n");
}

static void
render_rdf(const struct fr_feedgen *f, struct fr_text *t)
{
	char d[40];

	fr_text_puts(t, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	                "<rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\"\n"
	                "         xmlns=\"http://purl.org/rss/1.0/\"\n"
	                "         xmlns:dc=\"http://purl.org/dc/elements/1.1/\">\n"
	                "<channel rdf:about=\"");
	fr_text_xml(t, f->feed_url);
	fr_text_puts(t, "\">\n");
	xml_elem(t, "title", f->title);
	xml_elem(t, "link", f->home_url);
	xml_elem(t, "description", f->description ? f->description : f->title);
	fr_text_puts(t, "<items>\n<rdf:Seq>\n");
	for (size_t i = 0; i < f->n_items; i++) {
		fr_text_puts(t, "<rdf:li rdf:resource=\"");
		fr_text_xml(t, f->items[i].link);
		fr_text_puts(t, "\"/>\n");
	}
	fr_text_puts(t, "</rdf:Seq>\n</items>\n</channel>\n");
	for (size_t i = 0; i < f->n_items; i++) {
		const struct fr_feedgen_item *it = &f->items[i];

		fr_text_puts(t, "<item rdf:about=\"");
		fr_text_xml(t, it->link);
		fr_text_puts(t, "\">\n");
		xml_elem(t, "title", it->title);
		xml_elem(t, "link", it->link);
		if (it->summary)
			xml_elem(t, "description", it->summary);
		xml_elem(t, "dc:date", fr_time_format((double)it->published_s, d, sizeof(d)));
		fr_text_puts(t, "</item>\n");
	}
	fr_text_puts(t, "</rdf:RDF>\n");
}

void
fr_feedgen_render(const struct fr_feedgen *f, struct fr_text *out)
{
	switch (f->format) {
	case FR_FEEDGEN_RSS:
		render_rss(f, out);
		break;
	case FR_FEEDGEN_ATOM:
		render_atom(f, out);
		break;
	case FR_FEEDGEN_JSON:
		render_json(f, out);
		break;
	case FR_FEEDGEN_RDF:
		render_rdf(f, out);
		break;
	}
}
