/* ex_internal.h - what the extractor's files share: small DOM helpers over
 * libxml2's tree and the metadata reader. Not for other parts. */
#ifndef FR_EXTRACT_EX_INTERNAL_H
#define FR_EXTRACT_EX_INTERNAL_H

#include <libxml/HTMLparser.h>
#include <libxml/HTMLtree.h>
#include <libxml/tree.h>
#include <stddef.h>

/* Whether n is an element called name (lower case). */
int fr_ex_is(const xmlNode *n, const char *name);
/* The value of attribute name of element n, borrowed (valid while n lives),
 * or NULL. */
const char *fr_ex_attr(const xmlNode *n, const char *name);
/* The next node of a depth-first walk from n, not entering n's children
 * when skip_children, staying under root; NULL at the end. */
xmlNode *fr_ex_next(xmlNode *n, const xmlNode *root, int skip_children);
/* The first element under n (n included) called name, or NULL. */
xmlNode *fr_ex_find(xmlNode *n, const char *name);
/* n's text (textContent), blanks collapsed to one space and trimmed, as a
 * malloc'd string; NULL on out of memory. */
char *fr_ex_text(const xmlNode *n);
/* Strings: trimmed and blanks collapsed, in place; returns s. */
char *fr_ex_squash(char *s);
/* Decodes &amp; &lt; &gt; &quot; &apos; and numeric references in place. */
void fr_ex_unescape(char *s);
/* Code points of UTF-8 s. */
size_t fr_ex_utf8_len(const char *s);
/* Words of s as Readability counts them (s.split(/\s+/).length). */
size_t fr_ex_word_count(const char *s);
/* Readability's _textSimilarity of a and b in [0, 1]. */
double fr_ex_similarity(const char *a, const char *b);

/* The page's metadata, as Readability's _getArticleMetadata reads it;
 * malloc'd strings or NULL. */
struct fr_ex_meta {
	char *title, *byline, *excerpt, *site_name, *published_time, *lang;
};
/* Reads doc's metadata into m (zeroed first). Returns 0, -1 on out of memory. */
int fr_ex_meta_read(xmlDoc *doc, struct fr_ex_meta *m);
void fr_ex_meta_clear(struct fr_ex_meta *m);
/* The page title from <title> with site-name parts cut, as Readability's
 * _getArticleTitle; malloc'd, "" when there is none; NULL on out of memory. */
char *fr_ex_doc_title(xmlDoc *doc);

#endif
