/* cmd_extract.c - `freshet extract`: one article page (a file, stdin or a
 * URL) through the main-content extractor, printed as JSON with
 * Readability's field names. */
#include "cmd.h"
#include "opt.h"

#include "core/err.h"
#include "extract/extract.h"
#include "net/fetch.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char USAGE[] =
    "usage: freshet extract FILE|URL|- [--base URL] [--text] [--allow-private]\n";

static const char ABOUT[] =
    "Finds the main content of an article page and its metadata, in the manner\n"
    "of Mozilla's Readability, and prints one JSON object with Readability's\n"
    "field names:\n"
    "  title, byline, lang, excerpt, siteName, publishedTime (null when the page\n"
    "  gives none), content (the main content as sanitised HTML, links absolute),\n"
    "  textContent (as plain text, blank lines between blocks), length (characters\n"
    "  of textContent); and beside lang, which the page declares, langDetected:\n"
    "  the language its title and text are written in (BCP 47, null when not\n"
    "  detected reliably).\n"
    "'-' reads stdin; an http:// or https:// URL is fetched first (its\n"
    "Content-Type charset and final URL are used; 16 MiB at most).\n";

static const char EXAMPLES[] =
    "  freshet extract page.html | jq -r .textContent\n"
    "  curl -s https://example.org/post | freshet extract - --base https://example.org/post\n";

static const char FOOTER[] =
    "Exit status: 0 extracted (also when no main content was found: content is\n"
    "then empty), 1 the input cannot be read, fetched or parsed, 2 bad usage.\n";

/* The one page: a second is bad usage. */
static int
take_input(void *ctx, const char *arg)
{
	const char **input = ctx;

	if (*input) {
		cli_err("extract", "one page at a time (try --help)");
		return -1;
	}
	*input = arg;
	return 0;
}

/* Reads path ("-": stdin) whole, up to max bytes. */
static int
read_all(const char *path, size_t max, char **out, size_t *len)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	size_t cap = 1 << 16, n = 0;
	char *buf;

	if (!f) {
		cli_err("extract", "%s: cannot open: %s", path, strerror(errno));
		return -1;
	}
	if (!(buf = malloc(cap)))
		goto oom;
	for (;;) {
		size_t got;

		if (n == cap) {
			char *p;

			if (cap > max) {
				cli_err("extract", "%s: larger than %zu bytes", path, max);
				goto fail;
			}
			if (!(p = realloc(buf, cap * 2)))
				goto oom;
			buf = p;
			cap *= 2;
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (got == 0) {
			if (ferror(f)) {
				cli_err("extract", "%s: read error: %s", path, strerror(errno));
				goto fail;
			}
			break;
		}
	}
	if (f != stdin)
		fclose(f);
	*out = buf;
	*len = n;
	return 0;
oom:
	cli_err("extract", "%s: out of memory", path);
fail:
	free(buf);
	if (f != stdin)
		fclose(f);
	return -1;
}

static void
add(struct json_object *o, const char *key, const char *v)
{
	json_object_object_add(o, key, v ? json_object_new_string(v) : NULL);
}

static int
is_url(const char *s)
{
	return !strncasecmp(s, "http://", 7) || !strncasecmp(s, "https://", 8);
}

int
cmd_extract(int argc, char **argv)
{
	const char *input = NULL, *base = NULL;
	struct fr_extract_opts eo;
	struct fr_response res;
	struct fr_article *art = NULL;
	char err[FR_ERRLEN], *buf = NULL;
	const char *body;
	size_t len = 0;
	int text_only = 0, allow_private = 0, fetched = 0, rc = EXIT_FAIL;

	const struct opt opts[] = {
	    {.name = "base", .kind = OPT_STRING, .arg = "URL", .dest = &base,
	     .help = "resolve relative links against URL (default: the page's URL when fetched, "
		     "else none)"},
	    {.name = "text", .kind = OPT_FLAG, .dest = &text_only,
	     .help = "print textContent alone, as plain text"},
	    OPT_ALLOW_PRIVATE(&allow_private),
	    OPT_TABLE_END};
	const struct opt_cmd cmd = {.name = "extract", .usage = USAGE, .about = ABOUT, .opts = opts,
				    .examples = EXAMPLES, .footer = FOOTER,
				    .positional = take_input, .ctx = &input};
	int prc = opt_parse(&cmd, argc, argv);

	if (prc)
		return opt_exit(prc);
	if (!input) {
		cli_err("extract", "no page given (try --help)");
		return EXIT_USAGE;
	}
	memset(&eo, 0, sizeof(eo));
	memset(&res, 0, sizeof(res));
	eo.url = base;
	if (is_url(input)) {
		struct fr_fetch_opts fo;

		fr_fetch_opts_init(&fo);
		fo.max_body = FR_EXTRACT_MAX_BYTES_DEFAULT;
		fo.allow_private = allow_private;
		fo.accept = "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5";
		if (fr_http_get(input, &fo, &res) != 0) {
			cli_err("extract", "%s: %s", input, res.err[0] ? res.err : "cannot start the request");
			return EXIT_FAIL;
		}
		fetched = 1;
		if (res.outcome != FR_NET_OK) {
			cli_err("extract", "%s: %s: %s", input, fr_net_outcome_name(res.outcome),
			        res.err[0] ? res.err : "no body");
			goto done;
		}
		if (!base)
			eo.url = res.effective_url ? res.effective_url : input;
		eo.content_type = res.content_type;
		body = res.body ? res.body : "";
		len = res.len;
	} else {
		if (read_all(input, FR_EXTRACT_MAX_BYTES_DEFAULT, &buf, &len) != 0)
			goto done;
		body = buf;
	}
	if (fr_extract(body, len, &eo, &art, err, sizeof(err)) != 0) {
		cli_err("extract", "%s: %s", input, err);
		goto done;
	}
	if (text_only) {
		fputs(art->text, stdout);
		if (art->text[0])
			fputc('\n', stdout);
	} else {
		struct json_object *o = json_object_new_object();

		add(o, "title", art->title);
		add(o, "byline", art->byline);
		add(o, "lang", art->lang);
		add(o, "langDetected", art->lang_detected[0] ? art->lang_detected : NULL);
		add(o, "excerpt", art->excerpt);
		add(o, "siteName", art->site_name);
		add(o, "publishedTime", art->published_time);
		add(o, "content", art->content);
		add(o, "textContent", art->text);
		json_object_object_add(o, "length", json_object_new_int64((int64_t)art->length));
		puts(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
		                                           JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(o);
	}
	if (fflush(stdout) != 0) {
		cli_err("extract", "cannot write the output: %s", strerror(errno));
		goto done;
	}
	rc = EXIT_OK;
done:
	fr_article_free(art);
	free(buf);
	if (fetched)
		fr_response_clear(&res);
	return rc;
}
