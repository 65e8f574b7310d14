/* extract.h - an article page's main content and metadata, in the manner of
 * Mozilla's Readability: the page parsed with libxml2's HTML parser (recovery
 * mode, no network), paragraphs scored by text and link density, the best
 * container and its kin kept and cleaned, the page's own metadata (JSON-LD,
 * Open Graph, meta tags, <title>) read beside it (docs/extract.md). */
#ifndef FR_EXTRACT_EXTRACT_H
#define FR_EXTRACT_EXTRACT_H

#include <stddef.h>

/* Default cap on the page's size (bytes); larger pages are refused. */
#define FR_EXTRACT_MAX_BYTES_DEFAULT (16u << 20)

struct fr_extract_opts {
	const char *url;          /* the page's URL, to resolve relative links; NULL: none */
	const char *content_type; /* HTTP Content-Type (its charset), or NULL: the page says */
	size_t max_bytes;         /* 0: FR_EXTRACT_MAX_BYTES_DEFAULT */
	size_t char_threshold;    /* text shorter than this retries with looser rules; 0: 500 */
};

/* The result, with Readability's fields. Strings are malloc'd UTF-8, NULL
 * when the page gives none (content and text are never NULL: "" when no
 * main content was found). */
struct fr_article {
	char *title;          /* never NULL: "" when the page has none */
	char *byline;
	char *lang;           /* <html lang> as written */
	/* the language the title and main text are written in (BCP 47, lib/lang),
	 * "" when not detected reliably (too short, mixed); may differ from lang */
	char lang_detected[16];
	char *excerpt;        /* the page's description, else the first paragraph */
	char *site_name;
	char *published_time; /* as the page writes it (JSON-LD or meta) */
	char *content;        /* the main content as sanitised HTML, links absolute */
	char *text;           /* the main content as plain text, blank lines between blocks */
	size_t length;        /* characters (code points) of text */
};

/* Extracts html[0..len). Returns 0 and sets *out (free with
 * fr_article_free), or -1 with err set (too large, out of memory, not
 * parseable at all) and *out NULL. A page with no article is not an
 * error: content and text are then empty. */
int fr_extract(const char *html, size_t len, const struct fr_extract_opts *opts,
               struct fr_article **out, char *err, size_t errlen);

void fr_article_free(struct fr_article *a);

#endif
