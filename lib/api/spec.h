/* spec.h - where a JSON API response keeps its items: the item list and each
 * item's id, time, title, link, author and text, as JSON Pointers (RFC 6901)
 * or a dotted path ("data.children[].data"), read from one text form that
 * the built-in presets (graph, mastodon, reddit, jsonapi) share with custom
 * specs. docs/api.md has the syntax. Pure: text in, spec out. */
#ifndef FR_API_SPEC_H
#define FR_API_SPEC_H

#include <stddef.h>

/* Caps of the text form. */
#define FR_API_SPEC_MAX_BYTES 65536u /* a longer spec text is refused */
#define FR_API_SPEC_MAX_ALTS 8u      /* alternatives "a|b|..." of one field */
#define FR_API_SPEC_MAX_DEPTH 32u    /* segments of one path */

/* The fields of an item, in the order the text form writes them. */
enum fr_api_field {
	FR_API_ID,
	FR_API_TIME,    /* published */
	FR_API_UPDATED, /* updated */
	FR_API_TITLE,
	FR_API_LINK,
	FR_API_AUTHOR,
	FR_API_TEXT, /* the item's content */
	FR_API_SUMMARY,
	FR_API_NEXT,   /* a URL of the next page, in the response (or @link) */
	FR_API_CURSOR, /* a cursor of the next page (or @last_id) */
	FR_API_NFIELDS
};

/* How a text field's string is read. */
enum fr_api_format {
	FR_API_FMT_TEXT = 0, /* plain text, kept as it is */
	FR_API_FMT_HTML,     /* HTML, sanitised like a feed's content */
	FR_API_FMT_ENTITIES  /* plain text with HTML entities, decoded once (Reddit's) */
};

struct fr_api_spec;

/* Parses a spec from text[0..len): entries "key=value" separated by ';' or
 * new lines, '#' starting a comment line; "preset=NAME" first starts from a
 * built-in preset, which later keys override; a text that is one bare word
 * names a preset ("graph" is "preset=graph"). Returns 0 and sets *out
 * (caller frees with fr_api_spec_free), or -1 with err set ("api spec: key
 * 'tiem' unknown at 1:5", line:column of the offending text) and *out NULL. */
int fr_api_spec_parse(const char *text, size_t len, struct fr_api_spec **out, char *err,
                      size_t errlen);

/* Frees s. s may be NULL. */
void fr_api_spec_free(struct fr_api_spec *s);

/* The spec's name: the preset's ("graph"), the value of "name=", or "custom".
 * Borrowed, valid while s lives. */
const char *fr_api_spec_name(const struct fr_api_spec *s);

/* The spec in the canonical text form (one "key=value" a line, every path
 * as a JSON Pointer), which fr_api_spec_parse reads back to the same spec.
 * malloc'd (caller frees), NULL on out of memory. */
char *fr_api_spec_format(const struct fr_api_spec *s);

/* The text of the built-in preset name ("graph", "mastodon", "reddit",
 * "jsonapi"), or NULL when there is none by that name. Static storage. */
const char *fr_api_preset_text(const char *name);

/* The names of the built-in presets, NULL-terminated. Static storage. */
const char *const *fr_api_preset_names(void);

#endif
