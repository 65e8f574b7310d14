/* cmd_parse.c - `freshet parse`: parses one feed (a file, stdin or a URL)
 * and prints it as JSON with feedparser's field names, or as sfeed-style
 * TSV, one line per entry. */
#include "cmd.h"
#include "opt.h"

#include "core/err.h"
#include "core/timefmt.h"
#include "net/fetch.h"
#include "parse/feed.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdint.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char USAGE[] =
    "usage: freshet parse FILE|URL|-... [--base URL] [--format json|tsv] [--max-items N]\n"
    "                     [--allow-private]\n";

static const char ABOUT[] =
    "Parses feeds (RSS 0.90-2.0, RSS 1.0/RDF, Atom 0.3/1.0, JSON Feed 1.0/1.1)\n"
    "and prints them on stdout, in the order given, in one process. '-' reads\n"
    "stdin; an http:// or https:// URL is fetched first (its Content-Type charset\n"
    "and final URL are used). Files have no size limit. With several inputs,\n"
    "--format json writes one object per line, with \"file\" naming its input.\n"
    "\n"
    "--format json (default): one JSON object with feedparser's field names:\n"
    "  bozo, bozo_exception, encoding, version,\n"
    "  feed {title, link, subtitle, language, author, updated, updated_parsed, ttl,\n"
    "        update_period},\n"
    "  entries [{id, title, link, author, summary, content [{type, value}],\n"
    "            tags [{term}], enclosures [{href, type, length}], published,\n"
    "            published_parsed, updated, updated_parsed, comments, slash_comments}]\n"
    "  Dates are RFC 3339 UTC; *_parsed are Unix seconds. Absent fields are left out.\n"
    "--format tsv: one line per entry, as sfeed(1) writes them:\n"
    "  published (Unix seconds, or updated, or empty), title, link, content,\n"
    "  content type (html or plain), id, author, first enclosure URL, tags joined\n"
    "  by '|'; tab, newline and backslash are written \\t \\n \\\\.\n";

static const char EXAMPLES[] =
    "  freshet parse feed.xml | jq '.entries[].title'\n"
    "  freshet parse --format tsv https://example.org/feed.xml\n";

static const char FOOTER[] =
    "Exit status: 0 all parsed (also when recovered from ill-formed XML: bozo), 1\n"
    "some input not a feed or cannot be read or fetched (the others are printed),\n"
    "2 bad usage.\n";

/* An input's bytes: mapped when it is a regular file (stdin too, when it
 * is redirected from one), else read. */
struct input {
	char *buf;
	size_t len;
	int mapped;
};

static void
input_free(struct input *in)
{
	if (in->mapped)
		munmap(in->buf, in->len);
	else
		free(in->buf);
	memset(in, 0, sizeof(*in));
}

/* Reads path ("-": stdin) whole, with no size limit; 0, or -1 with the
 * error printed. */
static int
read_input(const char *path, struct input *in)
{
	int fd = strcmp(path, "-") ? open(path, O_RDONLY) : 0;
	struct stat st;
	size_t cap = 1 << 16, n = 0;
	char *buf;

	memset(in, 0, sizeof(*in));
	if (fd < 0) {
		cli_err("parse", "%s: cannot open: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
	    (uintmax_t)st.st_size < SIZE_MAX / 2) {
		int flags = MAP_PRIVATE;
		void *p;

#ifdef MAP_POPULATE
		flags |= MAP_POPULATE; /* one call, not a fault per page */
#endif
		p = mmap(NULL, (size_t)st.st_size, PROT_READ, flags, fd, 0);
		if (p != MAP_FAILED) {
			in->buf = p;
			in->len = (size_t)st.st_size;
			in->mapped = 1;
			if (fd != 0)
				close(fd);
			return 0;
		}
	}
	buf = malloc(cap);
	while (buf) {
		ssize_t got;

		if (n == cap) {
			char *p = cap < SIZE_MAX / 2 ? realloc(buf, cap * 2) : NULL;

			if (!p) {
				free(buf);
				buf = NULL;
				cli_err("parse", "%s: out of memory", path);
				break;
			}
			buf = p;
			cap *= 2;
		}
		got = read(fd, buf + n, cap - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			cli_err("parse", "%s: read error: %s", path, strerror(errno));
			free(buf);
			buf = NULL;
			break;
		}
		if (got == 0)
			break;
		n += (size_t)got;
	}
	if (fd != 0)
		close(fd);
	if (!buf)
		return -1;
	in->buf = buf;
	in->len = n;
	return 0;
}

static void
add_str(struct json_object *o, const char *key, const char *v)
{
	if (v)
		json_object_object_add(o, key, json_object_new_string(v));
}

static void
add_date(struct json_object *o, const char *key, const char *key_parsed, int64_t t)
{
	char buf[40];

	if (t == FR_DATE_NONE)
		return;
	fr_time_format((double)t, buf, sizeof(buf));
	json_object_object_add(o, key, json_object_new_string(buf));
	json_object_object_add(o, key_parsed, json_object_new_int64(t));
}

/* The result of a JSON Feed (no feedparser model: the struct's fields). */
static struct json_object *
to_json_struct(const struct fr_feed *f)
{
	struct json_object *root = json_object_new_object();
	struct json_object *feed = json_object_new_object();
	struct json_object *entries = json_object_new_array();

	json_object_object_add(root, "bozo", json_object_new_boolean(f->bozo));
	add_str(root, "bozo_exception", f->bozo_exception);
	add_str(root, "encoding", f->encoding);
	add_str(root, "version", f->version);
	add_str(feed, "title", f->title);
	add_str(feed, "link", f->link);
	add_str(feed, "subtitle", f->subtitle);
	add_str(feed, "language", f->language);
	add_str(feed, "author", f->author);
	add_str(feed, "rights", f->rights);
	add_str(feed, "info", f->info);
	add_date(feed, "updated", "updated_parsed", f->updated_s);
	if (f->ttl_s >= 0)
		json_object_object_add(feed, "ttl", json_object_new_int64(f->ttl_s / 60));
	if (f->update_period_s >= 0)
		json_object_object_add(feed, "update_period",
		                       json_object_new_int64(f->update_period_s));
	json_object_object_add(root, "feed", feed);
	for (size_t i = 0; i < f->n_items; i++) {
		const struct fr_feed_item *it = &f->items[i];
		struct json_object *e = json_object_new_object();

		add_str(e, "id", it->id);
		add_str(e, "title", it->title);
		add_str(e, "link", it->link);
		add_str(e, "author", it->author);
		/* feedparser copies HTML or text content to a missing summary */
		add_str(e, "summary", it->summary ? it->summary : it->content);
		if (it->content) {
			struct json_object *c = json_object_new_array();
			struct json_object *v = json_object_new_object();

			add_str(v, "type", "text/html");
			add_str(v, "value", it->content);
			json_object_array_add(c, v);
			json_object_object_add(e, "content", c);
		}
		if (it->n_tags) {
			struct json_object *t = json_object_new_array();

			for (size_t k = 0; k < it->n_tags; k++) {
				struct json_object *v = json_object_new_object();

				add_str(v, "term", it->tags[k]);
				json_object_array_add(t, v);
			}
			json_object_object_add(e, "tags", t);
		}
		if (it->n_enclosures) {
			struct json_object *a = json_object_new_array();

			for (size_t k = 0; k < it->n_enclosures; k++) {
				struct json_object *v = json_object_new_object();

				add_str(v, "href", it->enclosures[k].url);
				add_str(v, "type", it->enclosures[k].type);
				if (it->enclosures[k].length >= 0)
					json_object_object_add(
					    v, "length", json_object_new_int64(it->enclosures[k].length));
				json_object_array_add(a, v);
			}
			json_object_object_add(e, "enclosures", a);
		}
		add_date(e, "published", "published_parsed", it->published_s);
		add_date(e, "updated", "updated_parsed", it->updated_s);
		add_str(e, "comments", it->comments_url);
		if (it->n_comments >= 0)
			json_object_object_add(e, "slash_comments", json_object_new_int64(it->n_comments));
		json_object_array_add(entries, e);
	}
	json_object_object_add(root, "entries", entries);
	return root;
}

/* A TSV field as sfeed writes it: \t \n \\ escaped, other control bytes
 * (CR included) dropped. */
static void
tsv_field(FILE *out, const char *s)
{
	const char *run;

	if (!s)
		return;
	/* runs of ordinary bytes go out in one call */
	for (run = s; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c >= 0x20 && c != 0x7f && c != '\\')
			continue;
		if (s > run)
			fwrite(run, 1, (size_t)(s - run), out);
		run = s + 1;
		if (c == '\t')
			fputs("\\t", out);
		else if (c == '\n')
			fputs("\\n", out);
		else if (c == '\\')
			fputs("\\\\", out);
	}
	if (s > run)
		fwrite(run, 1, (size_t)(s - run), out);
}

static void
print_tsv(FILE *out, const struct fr_feed *f)
{
	for (size_t i = 0; i < f->n_items; i++) {
		const struct fr_feed_item *it = &f->items[i];
		int64_t t = it->published_s != FR_DATE_NONE ? it->published_s : it->updated_s;
		const char *content = it->content ? it->content : it->summary;

		if (t != FR_DATE_NONE)
			fprintf(out, "%lld", (long long)t);
		fputc('\t', out);
		tsv_field(out, it->title);
		fputc('\t', out);
		tsv_field(out, it->link);
		fputc('\t', out);
		tsv_field(out, content);
		fputc('\t', out);
		fputs(content ? "html" : "", out);
		fputc('\t', out);
		tsv_field(out, it->id);
		fputc('\t', out);
		tsv_field(out, it->author);
		fputc('\t', out);
		if (it->n_enclosures)
			tsv_field(out, it->enclosures[0].url);
		fputc('\t', out);
		for (size_t k = 0; k < it->n_tags; k++) {
			if (k)
				fputc('|', out);
			tsv_field(out, it->tags[k]);
		}
		fputc('\n', out);
	}
}

static int
is_url(const char *s)
{
	return !strncasecmp(s, "http://", 7) || !strncasecmp(s, "https://", 8);
}

/* Parses one input and prints it; 0 or EXIT_FAIL (the error printed). */
static int
parse_one(const char *input, const char *base, const char *format, size_t max_items, int several,
          int allow_private)
{
	struct fr_feed_opts opts;
	struct fr_response res;
	struct fr_feed *feed = NULL;
	char err[FR_ERRLEN];
	struct input in = {0};
	int fetched = 0, rc = EXIT_FAIL;
	const int json_flags = several ? JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE
	                               : JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
	                                     JSON_C_TO_STRING_NOSLASHESCAPE;

	memset(&opts, 0, sizeof(opts));
	memset(&res, 0, sizeof(res));
	opts.max_items = max_items;
	opts.fp_result = !strcmp(format, "json");
	/* the entries are serialised as they are complete, not kept as a model */
	opts.fp_stream = 1;
	opts.fp_json_flags = json_flags;
	opts.summary_if_no_content = !strcmp(format, "tsv");
	if (is_url(input)) {
		struct fr_fetch_opts fo;

		fr_fetch_opts_init(&fo);
		fo.max_body = FR_FEED_MAX_BYTES_DEFAULT;
		fo.allow_private = allow_private;
		if (fr_http_get(input, &fo, &res) != 0) {
			cli_err("parse", "%s: %s", input, res.err[0] ? res.err : "cannot start the request");
			goto done;
		}
		fetched = 1;
		if (res.outcome != FR_NET_OK) {
			cli_err("parse", "%s: %s: %s", input, fr_net_outcome_name(res.outcome),
			        res.err[0] ? res.err : "no body");
			goto done;
		}
		opts.base_url = base ? base : res.effective_url ? res.effective_url : input;
		opts.content_type = res.content_type;
		if (fr_feed_parse(res.body, res.len, &opts, &feed, err, sizeof(err)) != 0) {
			cli_err("parse", "%s: %s", input, err);
			goto done;
		}
	} else {
		/* no size limit for a file or stdin: the user chose it */
		if (read_input(input, &in) != 0)
			goto done;
		opts.base_url = base;
		opts.max_bytes = in.len + 1;
		if (fr_feed_parse(in.buf, in.len, &opts, &feed, err, sizeof(err)) != 0) {
			cli_err("parse", "%s: %s", input, err);
			goto done;
		}
	}
	if (!strcmp(format, "json") && feed->fp_feed) {
		/* feedparser's result: written as it was streamed */
		if (fr_feed_fp_write(feed, stdout, json_flags, several ? input : NULL) != 0 ||
		    putchar('\n') == EOF) {
			cli_err("parse", "%s: cannot write the result", input);
			goto done;
		}
	} else if (!strcmp(format, "json")) {
		struct json_object *j = to_json_struct(feed);

		if (several)
			json_object_object_add(j, "file", json_object_new_string(input));
		puts(json_object_to_json_string_ext(j, json_flags));
		json_object_put(j);
	} else {
		print_tsv(stdout, feed);
	}
	if (feed->bozo)
		cli_err("parse", "%s: ill-formed, recovered: %s", input,
		        feed->bozo_exception ? feed->bozo_exception : "?");
	if (feed->n_items_cut)
		cli_err("parse", "%s: %zu items over the cap of %zu: the %zu oldest left out (--max-items 0: no cap)",
		        input, feed->n_items + feed->n_items_cut, feed->n_items, feed->n_items_cut);
	if (feed->n_links_refused)
		cli_err("parse", "%s: %zu javascript:/data:/vbscript: links refused", input, feed->n_links_refused);
	rc = EXIT_OK;
done:
	fr_feed_free(feed);
	input_free(&in);
	if (fetched)
		fr_response_clear(&res);
	return rc;
}

int
cmd_parse(int argc, char **argv)
{
	static const char *const FORMATS[] = {"json", "tsv", NULL};
	const char *base = NULL, *format;
	struct opt_list inputs = {0};
	size_t max_items;
	uint64_t max_items_u;
	int rc = EXIT_OK, allow_private = 0, fmt;
	const struct opt opts[] = {
	    {.name = "base", .kind = OPT_STRING, .arg = "URL", .dest = &base,
	     .help = "resolve relative links against URL (default: the feed's URL when "
		     "fetched, else none)"},
	    {.name = "format", .kind = OPT_ENUM, .arg = "F", .choices = FORMATS, .def = "json",
	     .dest = &fmt, .help = "json or tsv"},
	    /* NOTE: "10000" is FR_FEED_MAX_ITEMS_DEFAULT, the crawler's cap. */
	    {.name = "max-items", .kind = OPT_UINT, .dest = &max_items_u, .def = "10000",
	     .flags = OPT_NO_MAX, .want = "a count (0: no cap)",
	     .help = "keep the N newest items of each feed (as the crawler; 0: no cap); the cut "
		     "is said on stderr"},
	    OPT_ALLOW_PRIVATE(&allow_private),
	    OPT_TABLE_END};
	const struct opt_cmd cmd = {.name = "parse", .usage = USAGE, .about = ABOUT, .opts = opts,
				    .examples = EXAMPLES, .footer = FOOTER,
				    .positional = opt_list_add, .ctx = &inputs};
	size_t n_inputs;

	if ((rc = opt_parse(&cmd, argc, argv)) != 0) {
		opt_list_free(&inputs);
		return opt_exit(rc);
	}
	format = FORMATS[fmt];
	max_items = max_items_u == 0 ? SIZE_MAX : (size_t)max_items_u;
	n_inputs = inputs.n;
	if (!n_inputs) {
		cli_err("parse", "a FILE, URL or - is required (try --help)");
		return EXIT_USAGE;
	}
	for (size_t i = 0; i < n_inputs; i++)
		if (parse_one(inputs.v[i], base, format, max_items, n_inputs > 1, allow_private) != EXIT_OK)
			rc = EXIT_FAIL;
	opt_list_free(&inputs);
	if (fflush(stdout) != 0)
		rc = EXIT_FAIL;
	return rc;
}
