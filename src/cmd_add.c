/* cmd_add.c - `freshet add`: subscribe to sources given as URLs, a list
 * file (one URL a line) or an OPML file; addresses normalised, duplicates
 * counted, bad lines named by file:line while the rest goes on. */
#include "cmd.h"
#include "dbopt.h"
#include "opt.h"

#include "core/err.h"
#include "core/lines.h"
#include "net/addrpolicy.h"
#include "url/url.h"
#include "parse/opml.h"
#include "store/store.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char USAGE[] =
    "usage: freshet add [URL...] [--file LIST] [--opml FILE] [--kind feed|forum]\n"
    "                   [--group G] [--allow-private] [--db PATH]\n";

static const char ABOUT[] =
    "Subscribes to sources: each URL, each line of LIST, each feed outline (an\n"
    "outline with xmlUrl) of an OPML 1.0/2.0 file, whose folders become the\n"
    "sources' categories. Addresses are normalised (scheme and host in lower case,\n"
    "default port, dot segments and fragment dropped); http and https, and a\n"
    "trailing '/', count as the same address. A source already there is left as\n"
    "it is (a removed one comes back). Prints \"added N, already present M\".\n"
    "A bad line names FILE:LINE and the rest is added all the same (exit 1).\n"
    "\n"
    "LIST: one absolute http(s) URL a line (gzip accepted); blank lines and lines\n"
    "starting with '#' are skipped; blanks around a URL are ignored.\n"
    "\n"
    "An address whose host is a loopback, private, link-local or other internal\n"
    "address literal (127.0.0.1, 10.0.0.1, 169.254.169.254, [::1], localhost) is\n"
    "refused unless --allow-private is given; 'freshet run' also refuses names\n"
    "that resolve to such addresses (see docs/crawl.md).\n";

static const char EXAMPLES[] =
    "  freshet add https://example.org/feed.xml\n"
    "  freshet add --opml subscriptions.opml     a feed reader's export\n"
    "  freshet add --file apis.txt --group api   sources of one rate-limit group\n";

#define OPML_MAX (64u << 20) /* bytes of an OPML file read at most */

struct adder {
	struct fr_store *st;
	const char *kind, *grp;
	int allow_private;
	unsigned long added, present, bad;
};

/* Adds one address. where names it for messages ("list.txt:3", "argument 2"). */
static void
add_one(struct adder *a, const char *where, const char *raw, const char *title,
        const char *site_url, const char *category)
{
	char err[FR_ERRLEN];
	char *url;
	int64_t id;
	int existed;

	if (!*raw) {
		cli_err("add", "%s: empty address", where);
		a->bad++;
		return;
	}
	url = fr_url_normalize(raw, 0, err, sizeof(err));
	if (!url) {
		cli_err("add", "%s: %s", where, err);
		a->bad++;
		return;
	}
	const char *why = a->allow_private ? NULL : fr_url_forbidden(url);
	if (why) {
		cli_err("add", "%s: %s: refused: its host is a %s address (--allow-private "
		        "accepts it)", where, url, why);
		a->bad++;
		free(url);
		return;
	}
	if (fr_store_add_source(a->st, url, a->kind, a->grp, title, site_url, &id, &existed, err,
	                        sizeof(err)) < 0) {
		cli_err("add", "%s: %s", where, err);
		a->bad++;
		free(url);
		return;
	}
	free(url);
	if (existed) {
		a->present++;
		return;
	}
	a->added++;
	if (category && *category) {
		struct fr_store_source s;

		if (fr_store_get_source(a->st, id, &s, err, sizeof(err)) == 0) {
			s.category = strdup(category);
			if (!s.category || fr_store_put_source(a->st, &s, err, sizeof(err)) < 0)
				cli_err("add", "%s: category not kept: %s", where,
				        s.category ? err : "out of memory");
			fr_store_source_clear(&s);
		} else {
			cli_err("add", "%s: category not kept: %s", where, err);
		}
	}
}

static char *
trim(char *s)
{
	size_t n;

	while (*s == ' ' || *s == '\t')
		s++;
	n = strlen(s);
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		s[--n] = '\0';
	return s;
}

/* Returns 0, or -1 when the file cannot be read at all (message printed). */
static int
add_list(struct adder *a, const char *path)
{
	struct fr_lines r;
	char err[FR_ERRLEN], where[1024];
	char *line;
	size_t len;
	int rc;

	if (fr_lines_open(&r, path, err, sizeof(err)) < 0) {
		cli_err("add", "%s", err);
		fr_lines_close(&r);
		return -1;
	}
	for (;;) {
		char *u;

		rc = fr_lines_next(&r, &line, &len, err, sizeof(err));
		if (rc != 1)
			break;
		u = trim(line);

		if (!*u || *u == '#')
			continue;
		snprintf(where, sizeof(where), "%s:%lu", path, r.line);
		add_one(a, where, u, NULL, NULL, NULL);
	}
	if (rc < 0)
		cli_err("add", "%s", err);
	fr_lines_close(&r);
	return rc < 0 ? -1 : 0;
}

struct opml_arg {
	struct adder *a;
	const char *path;
};

static int
opml_each(void *arg, const struct fr_opml_outline *o)
{
	struct opml_arg *oa = arg;
	char where[1024];

	snprintf(where, sizeof(where), "%s:%ld", oa->path, o->line);
	/* A text that is only the address (as export writes for a source
	 * without a title) is no title. */
	add_one(oa->a, where, o->xml_url,
	        o->title && strcmp(o->title, o->xml_url) ? o->title : NULL, o->html_url,
	        o->category);
	return 0;
}

/* Reads a whole file of at most max bytes. Returns a malloc'd buffer (one
 * byte longer, NUL-terminated) or NULL after printing why. */
static char *
slurp(const char *path, size_t max, size_t *len)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 1 << 16, n = 0;
	char *buf = NULL;

	if (!f) {
		cli_err("add", "%s: cannot open: %s", path, strerror(errno));
		return NULL;
	}
	for (;;) {
		char *nb;
		size_t got;

		if (n + 1 >= cap || !buf) {
			if (buf)
				cap *= 2;
			nb = realloc(buf, cap);
			if (!nb) {
				cli_err("add", "%s: out of memory", path);
				goto fail;
			}
			buf = nb;
		}
		got = fread(buf + n, 1, cap - n - 1, f);
		n += got;
		if (n > max) {
			cli_err("add", "%s: larger than %u MiB", path, (unsigned)(max >> 20));
			goto fail;
		}
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		cli_err("add", "%s: read error: %s", path, strerror(errno));
		goto fail;
	}
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
fail:
	fclose(f);
	free(buf);
	return NULL;
}

static int
add_opml(struct adder *a, const char *path)
{
	struct opml_arg oa = {a, path};
	char err[FR_ERRLEN];
	size_t len;
	char *buf = slurp(path, OPML_MAX, &len);
	int rc;

	if (!buf)
		return -1;
	rc = fr_opml_parse(buf, len, path, opml_each, &oa, err, sizeof(err));
	if (rc < 0)
		cli_err("add", "%s", err);
	free(buf);
	return rc;
}

/* The inputs in the order given: URLs ('U'), lists ('F'), OPML files ('O'). */
struct inputs {
	const char **v;
	char *kinds;
	size_t n;
};

static int
take_url(void *ctx, const char *arg)
{
	struct inputs *in = ctx;

	in->kinds[in->n] = 'U';
	in->v[in->n++] = arg;
	return 0;
}

/* --file LIST, --opml FILE */
static int
take_input(void *ctx, const struct opt *o, const char *val)
{
	struct inputs *in = ctx;

	in->kinds[in->n] = !strcmp(o->name, "file") ? 'F' : 'O';
	in->v[in->n++] = val;
	return 0;
}

int
cmd_add(int argc, char **argv)
{
	static const char *const KINDS[] = {"feed", "forum", NULL};
	const char *db = NULL, *grp = NULL;
	struct inputs in = {0};
	struct adder a = {0};
	char err[FR_ERRLEN], where[64];
	int failed = 0, rc, kind_k = 0;

	/* At most one input per argument. */
	in.v = calloc((size_t)argc + 1, sizeof(*in.v));
	in.kinds = calloc((size_t)argc + 1, 1);
	if (!in.v || !in.kinds) {
		cli_err("add", "out of memory");
		free(in.v);
		free(in.kinds);
		return EXIT_FAIL;
	}
	const struct opt opts[] = {
	    {.name = "file", .kind = OPT_CALL, .arg = "LIST", .take = take_input, .ctx = &in,
	     .help = "add the URLs listed in LIST (may be repeated)"},
	    {.name = "opml", .kind = OPT_CALL, .arg = "FILE", .take = take_input, .ctx = &in,
	     .help = "add the feeds of an OPML file (may be repeated)"},
	    {.name = "kind", .kind = OPT_ENUM, .arg = "K", .choices = KINDS, .def = "feed",
	     .dest = &kind_k, .help = "feed or forum"},
	    {.name = "group", .kind = OPT_STRING, .arg = "G", .dest = &grp,
	     .help = "rate-limit group of the new sources (default: default)"},
	    {.name = "allow-private", .kind = OPT_FLAG, .dest = &a.allow_private,
	     .help = "accept internal addresses (your own network's servers)"},
	    OPT_DB(&db),
	    OPT_TABLE_END};
	const struct opt_cmd cmd = {.name = "add", .usage = USAGE, .about = ABOUT, .opts = opts,
				    .examples = EXAMPLES, .positional = take_url, .ctx = &in};
	const char *kind;

	if ((rc = opt_parse(&cmd, argc, argv)) != 0) {
		rc = opt_exit(rc);
		goto out;
	}
	kind = KINDS[kind_k];
	if (grp && !*grp) {
		cli_err("add", "--group needs a name");
		rc = EXIT_USAGE;
		goto out;
	}
	if (in.n == 0) {
		cli_err("add",
		        "nothing to add: give URLs, --file LIST or --opml FILE (try --help)");
		rc = EXIT_USAGE;
		goto out;
	}
	a.st = dbopt_open("add", db);
	if (!a.st) {
		rc = EXIT_FAIL;
		goto out;
	}
	a.kind = kind;
	a.grp = grp;
	/* One transaction for the lot: a long OPML list commits once. */
	if (fr_store_begin(a.st, err, sizeof(err)) < 0) {
		cli_err("add", "%s", err);
		fr_store_close(a.st);
		rc = EXIT_FAIL;
		goto out;
	}
	for (size_t k = 0, n_url = 0; k < in.n; k++) {
		if (in.kinds[k] == 'U') {
			n_url++;
			snprintf(where, sizeof(where), "argument %zu", n_url);
			add_one(&a, where, in.v[k], NULL, NULL, NULL);
		} else if (in.kinds[k] == 'F') {
			failed |= add_list(&a, in.v[k]) < 0;
		} else {
			failed |= add_opml(&a, in.v[k]) < 0;
		}
	}
	if (fr_store_end(a.st, 1, err, sizeof(err)) < 0) {
		cli_err("add", "%s", err);
		fr_store_close(a.st);
		rc = EXIT_FAIL;
		goto out;
	}
	fr_store_close(a.st);
	fprintf(stderr, "freshet add: added %lu, already present %lu", a.added, a.present);
	if (a.bad)
		fprintf(stderr, ", %lu bad", a.bad);
	char shown[1024];
	fprintf(stderr, " (%s)\n", fr_store_display_name(dbopt_path(db), shown, sizeof(shown)));
	rc = failed || a.bad ? EXIT_FAIL : EXIT_OK;
out:
	free(in.v);
	free(in.kinds);
	return rc;
}
