/* sfeed.h - lines in sfeed's TAB-separated format (sfeed(5)), so that
 * sfeed_plain, sfeed_curses, sfeed_mbox and sfeed_html read what freshet
 * writes. */
#ifndef FR_CLI_SFEED_H
#define FR_CLI_SFEED_H

#include <stdint.h>
#include <stdio.h>

/* One item. Strings may be NULL (an empty field); invalid UTF-8 is replaced
 * by U+FFFD. */
struct sfeed_item {
	int64_t time_s; /* INT64_MIN: unknown (an empty timestamp) */
	const char *title, *link, *content, *content_type, *id, *author, *enclosure;
	const char *const *categories; /* n_categories of them, joined by '|' */
	size_t n_categories;
};

/* Writes it as one line of nine fields: timestamp, title, link, content,
 * content-type ("html" or "plain" when there is content, else empty), id,
 * author, enclosure, category. As sfeed(5) says: in title, id, author,
 * link, enclosure and category each whitespace character becomes a space;
 * in content TAB, newline and '\' are escaped as \t, \n and \\ and other
 * whitespace but space is removed; control characters (C0, DEL and C1) are
 * removed everywhere; '|' inside one category becomes a space. */
void sfeed_write(FILE *out, const struct sfeed_item *it);

#endif
