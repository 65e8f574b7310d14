/* feed.h - the feed parser: RSS 0.90-2.0 and RSS 1.0 (RDF), Atom 0.3 and 1.0
 * (libxml2, SAX2 streaming) and JSON Feed 1.0 and 1.1 (json-c), bytes in, one
 * struct fr_feed out, no I/O. Field names follow Python's feedparser. */
#ifndef FR_PARSE_FEED_H
#define FR_PARSE_FEED_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define FR_DATE_NONE INT64_MIN /* unknown or unparseable date */

#define FR_FEED_MAX_BYTES_DEFAULT (16u << 20) /* 16 MiB */
#define FR_FEED_MAX_DEPTH_DEFAULT 256u
#define FR_FEED_MAX_ITEMS_DEFAULT 10000u

struct fr_feed_enclosure {
	char *url, *type; /* url absolute when it could be resolved; type NULL when absent */
	int64_t length;   /* bytes, -1 unknown */
};

struct fr_feed_item {
	/* Stable identity: the guid (RSS), id (Atom, JSON Feed), else the
	 * link, else "sha1:" + 40 hex digits of title "\n" content (summary
	 * when there is no content). Never NULL. */
	char *id;
	/* NULL when absent. link is absolute when a base was known; title is
	 * HTML-unescaped once (feed titles are HTML: "AT&amp;T" -> "AT&T");
	 * summary and content are HTML as the feed gave it, with relative
	 * href/src resolved; all UTF-8. */
	char *link, *title, *author, *summary, *content;
	char **tags;
	size_t n_tags;
	struct fr_feed_enclosure *enclosures;
	size_t n_enclosures;
	int64_t published_s, updated_s; /* Unix seconds or FR_DATE_NONE */
	/* Added: where the comments are (RSS <comments>, wfw:commentRss),
	 * NULL when absent; slash:comments, -1 when absent. */
	char *comments_url;
	int64_t n_comments;
	/* A link with a scheme that runs code or carries its own content
	 * (javascript:, data:, vbscript:), kept here for inspection and
	 * never as link, comments_url or an enclosure (refused). NULL none. */
	char *refused_link;
};

struct fr_feed {
	/* feedparser's: "rss090", "rss091n", "rss091u", "rss092", "rss093",
	 * "rss094", "rss20", "rss10", "rss" (no version), "atom03", "atom10",
	 * "json1", "json11". */
	char *version;
	char *title, *link, *subtitle, *language; /* NULL when absent */
	char *encoding;           /* the one used to decode, lower case ("utf-8", "windows-1252") */
	char *author;             /* added: feed author name, NULL when absent */
	/* WebSub (docs/websub.md): the first hub the feed names (Atom
	 * <link rel="hub">, atom:link inside an RSS channel, a JSON Feed's
	 * hubs[].url) and its own address (rel="self", JSON Feed feed_url),
	 * absolute; NULL when absent. */
	char *hub, *self;
	/* feedparser's rights (RSS copyright, Atom rights / 0.3 copyright,
	 * dc:rights) and info (Atom 0.3), sanitised HTML; NULL when absent */
	char *rights, *info;
	int64_t updated_s;        /* Unix seconds or FR_DATE_NONE */
	int64_t ttl_s;            /* RSS <ttl> in seconds, -1 if absent */
	int64_t update_period_s;  /* sy:updatePeriod / sy:updateFrequency in seconds, -1 if absent */
	int bozo;                 /* 1: ill-formed and recovered (or cut short by a limit) */
	char *bozo_exception;     /* the first reason, with its line: "line 3: ...", else NULL */
	struct fr_feed_item *items;
	size_t n_items;
	size_t n_items_cut;       /* items left out over opts->max_items (the oldest) */
	size_t n_links_refused;   /* links refused for their scheme (see refused_link) */
	/* With opts->fp_result, feedparser's result: the feed dict and the
	 * entries list (json-c objects, owned by the feed; docs/parse.md lists
	 * the fields), NULL otherwise or for JSON Feed. */
	struct json_object *fp_feed, *fp_entries;
	/* With opts->fp_stream instead of fp_entries: the entries as text,
	 * each serialised as it was complete (json-c, opts->fp_json_flags,
	 * at level 0), in order: fp_n_entries of them (NULL when none).
	 * fr_feed_fp_write prints them. */
	char **fp_entry_texts;
	size_t fp_n_entries;
};

struct fr_feed_opts {
	const char *base_url;     /* the feed's URL (or --base), for relative links; may be NULL */
	const char *content_type; /* HTTP Content-Type (its charset= wins over the XML declaration), may be NULL */
	size_t max_bytes;         /* 0: FR_FEED_MAX_BYTES_DEFAULT; a longer buf is refused */
	unsigned max_depth;       /* 0: FR_FEED_MAX_DEPTH_DEFAULT; deeper elements stop the parse (bozo) */
	/* 0: FR_FEED_MAX_ITEMS_DEFAULT; SIZE_MAX: no cap. Over it, the newest
	 * items are kept (by published, else updated date; undated ones count
	 * as oldest, document order breaking ties) and n_items_cut says how
	 * many were left out. Memory stays within about twice the cap. */
	size_t max_items;
	/* 1: also build feedparser's result model (fp_feed, fp_entries), for
	 * `parse --format json`; XML formats only. Costs time: off for the
	 * crawler and TSV. */
	int fp_result;
	/* 1 (with fp_result): stream the entries. Each is serialised with
	 * the json-c flags fp_json_flags (JSON_C_TO_STRING_PLAIN, or PRETTY
	 * with SPACED; NOSLASHESCAPE may be added) as soon as it is complete
	 * (or kept as a model only while it ranks under max_items), and its
	 * model freed: memory holds the feed dict, the open entry and the
	 * text, never the model of every entry. Print with fr_feed_fp_write
	 * and the same flags. */
	int fp_stream;
	int fp_json_flags;
	/* 1: an item's summary is made (sanitised) only when the item has no
	 * content, and is left NULL when it has: all `parse --format tsv`
	 * prints (sfeed's one content column). Saves a sanitiser pass per
	 * item of an XML feed that carries both. */
	int summary_if_no_content;
};

/* Parses the feed held in buf[0..len). opts may be NULL (all defaults).
 * Returns 0 and sets *out (caller frees with fr_feed_free), or -1 with err
 * set when buf is not a feed at all ("not a feed: root <html>", "not a feed:
 * line 3: ...", "not a feed: JSON at byte 12: ...") or is over the size
 * limit; *out is then NULL. Recoverable breakage (ill-formed XML that
 * libxml2's recovery reads, a wrongly declared encoding, a depth limit hit
 * after the root) returns 0 with bozo set. The XML parser has no network
 * access and expands no entity declared in the document (so no XXE and no
 * billion laughs); HTML entity names (&nbsp;) are read as characters. */
int fr_feed_parse(const char *buf, size_t len, const struct fr_feed_opts *opts, struct fr_feed **out,
                  char *err, size_t errlen);

/* Writes feedparser's result of f (which has fp_feed: opts->fp_result on
 * an XML feed) to out as one JSON object, byte for byte what json-c
 * writes with flags (JSON_C_TO_STRING_PLAIN, or PRETTY with SPACED, either
 * with NOSLASHESCAPE) for the object {"bozo", "bozo_exception",
 * "encoding", "version", "feed", "entries"[, "file"]} (absent strings
 * left out; file may be NULL), without building it: the entries come from
 * fp_entry_texts (streamed, serialised with the same flags) or
 * fp_entries. No newline after. 0, or -1 on a write error, unsupported
 * flags or no result. */
int fr_feed_fp_write(const struct fr_feed *f, FILE *out, int flags, const char *file);

/* Frees f and everything it owns. f may be NULL. */
void fr_feed_free(struct fr_feed *f);

/* Whether buf looks like a feed, from its first element (rss, rdf:RDF,
 * feed, channel) or, for JSON, a jsonfeed.org version, without a full
 * parse: 1 a feed, 0 not. For discovery. */
int fr_feed_sniff(const char *buf, size_t len);

#endif
