/* lib/lang - the language a text is written in, detected from the text.
 *
 * Feeds and pages declare a language (RSS <language>, xml:lang, <html
 * lang>), often wrongly or not at all; this part reads the text itself
 * with Google's Compact Language Detector 2 (Debian's libcld2), chosen over
 * libexttextcat by measurement (research/language-detection.md: on 74
 * languages, 90.0% against 79.7% right on 60-character snippets, 96.7%
 * against 87.8% on 1,000, and 9 times the speed).
 *
 * Pure: no I/O, no global state besides CLD2's read-only tables, safe from
 * any thread. Any bytes are accepted: invalid UTF-8 (lib/core/utf8.h) and
 * control characters are read as spaces, a text longer than
 * FR_LANG_MAX_BYTES (HTML: FR_LANG_MAX_HTML_BYTES) is judged by its first
 * part. */
#ifndef FR_LANG_H
#define FR_LANG_H

#include <stddef.h>

/* Bytes read of a longer text: CLD2 is sure long before this (a few
 * hundred letters), and extraction keeps its speed (docs/extract.md). */
#define FR_LANG_MAX_BYTES 4096
/* Bytes read of HTML: tags and entities take a share of them. */
#define FR_LANG_MAX_HTML_BYTES 16384

struct fr_lang_guess {
	/* BCP 47: a primary language subtag ("en", "de", "pt", "he", "id"),
	 * with a script subtag where the script tells the written language
	 * ("zh-Hant", "sr-Latn"); "" when nothing was detected. */
	char code[16];
	int percent;  /* share of the text's letters in that language, 0..100 */
	int reliable; /* 1: well ahead of the second guess for this length */
	int text_bytes; /* letters the detector scored (short texts say little) */
};

/* Detects the language of len bytes of text (plain text, not HTML).
 * Returns 1 and fills out when a language is detected reliably; returns 0
 * and sets out->code to "" when not (too short, mixed, unknown, no
 * letters). out is filled in either case (percent, text_bytes). */
int fr_lang_detect(const char *text, size_t len, struct fr_lang_guess *out);

/* One piece of a text to judge (fr_lang_detect_parts); borrowed. html:
 * markup, whose tags are skipped (with the contents of <script> and
 * <style>) and entities read as the characters they stand for, by CLD2;
 * 0: plain text. */
struct fr_lang_part {
	const char *s; /* NULL: left out */
	size_t len;
	int html;
};

/* fr_lang_detect on the n parts joined by newlines, read from one copy
 * (at most FR_LANG_MAX_HTML_BYTES in all when a part is HTML, else
 * FR_LANG_MAX_BYTES; a part is cut where the room ends). Same results. */
int fr_lang_detect_parts(const struct fr_lang_part *parts, size_t n, struct fr_lang_guess *out);

/* The language of a stored item: its title (plain text, may be NULL) and
 * body (HTML, the content else the summary; may be NULL), as
 * fr_lang_detect_parts. */
int fr_lang_detect_item(const char *title, const char *body_html, struct fr_lang_guess *out);

/* The primary language subtag of a declared tag, lower case, in out (at
 * most outlen - 1 bytes): "en-US" -> "en", "pt_BR" -> "pt", "iw" -> "he",
 * "EN" -> "en". "" when tag is NULL or holds no letters-only subtag of 2 to
 * 8 letters first. Used to compare a declared language with a detected one. */
void fr_lang_primary(const char *tag, char *out, size_t outlen);

#endif
