/* cmd_add.c - `freshet add`: subscribe to sources given as URLs, a list
 * file (one URL a line) or an OPML file; addresses normalised, duplicates
 * counted, bad lines named by file:line while the rest goes on. */
#include "cmd.h"
#include "dbopt.h"
#include "opt.h"

#include "api/scrub.h"
#include "api/source.h"
#include "api/spec.h"
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
    "usage: freshet add [URL...] [--file LIST] [--opml FILE] [--kind feed|forum|api]\n"
    "                   [--group G] [--allow-private] [--db PATH]\n"
    "       freshet add --kind api URL... (--preset P | --spec TEXT | --spec-file F)\n"
    "                   [--token-env VAR | --token-file PATH] [--pages N] [--group G]\n";

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
    "that resolve to such addresses (see docs/crawl.md).\n"
    "\n"
    "--kind api: JSON API sources (docs/api.md). The response's items are found\n"
    "with a mapping spec: a preset (graph, mastodon, reddit, jsonapi) or a spec's\n"
    "text (\"preset=graph; text=story\"). The token is read when 'run' starts, from\n"
    "the environment variable or the file named here: the store keeps only the\n"
    "name, never the token; it is sent as 'Authorization: Bearer' to the source's\n"
    "own host alone. An address holding access_token= is refused. Sources\n"
    "sharing a token share its rate limit: give them one --group.\n";

static const char EXAMPLES[] =
    "  freshet add https://example.org/feed.xml\n"
    "  freshet add --opml subscriptions.opml     a feed reader's export\n"
    "  freshet add --file apis.txt --group api   sources of one rate-limit group\n"
    "  freshet add --kind api --preset graph --token-env FB_TOKEN --group fb \\\n"
    "      https://graph.facebook.com/v19.0/PAGE/posts\n";

#define OPML_MAX (64u << 20) /* bytes of an OPML file read at most */

struct adder {
	struct fr_store *st;
	const char *kind, *grp;
	const char *api_state; /* kind api: the stored settings (api/source.h) */
	size_t api_state_len;
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
	if (a->api_state) {
		char *clean = fr_api_url_strip(url);

		if (!clean || strcmp(clean, url) != 0) {
			cli_err("add", "%s: refused: an API address must not carry a secret "
			        "(access_token=, client_secret=, appsecret_proof=): give the token "
			        "with --token-env or --token-file", where);
			a->bad++;
			free(clean);
			free(url);
			return;
		}
		free(clean);
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
	if (a->api_state) {
		struct fr_store_source s;

		if (fr_store_get_source(a->st, id, &s, err, sizeof(err)) == 0) {
			s.kind_state = malloc(a->api_state_len);
			if (s.kind_state) {
				memcpy(s.kind_state, a->api_state, a->api_state_len);
				s.kind_state_len = a->api_state_len;
			}
			if (!s.kind_state || fr_store_put_source(a->st, &s, err, sizeof(err)) < 0) {
				cli_err("add", "%s: API settings not kept: %s", where,
				        s.kind_state ? err : "out of memory");
				a->bad++;
			}
			fr_store_source_clear(&s);
		} else {
			cli_err("add", "%s: API settings not kept: %s", where, err);
			a->bad++;
		}
	}
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
	static const char *const KINDS[] = {"feed", "forum", "api", NULL};
	const char *db = NULL, *grp = NULL;
	const char *preset = NULL, *spec_text = NULL, *spec_file = NULL, *token_env = NULL,
		   *token_file = NULL;
	uint64_t pages = FR_API_PAGES_DEFAULT;
	char *spec_buf = NULL, *state = NULL;
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
	     .dest = &kind_k, .help = "feed, forum or api (a JSON API: docs/api.md)"},
	    {.name = "preset", .kind = OPT_STRING, .arg = "P", .dest = &preset,
	     .help = "--kind api: the mapping preset: graph, mastodon, reddit or jsonapi"},
	    {.name = "spec", .kind = OPT_STRING, .arg = "TEXT", .dest = &spec_text,
	     .help = "--kind api: a mapping spec's text (\"preset=graph; text=story\")"},
	    {.name = "spec-file", .kind = OPT_STRING, .arg = "FILE", .dest = &spec_file,
	     .help = "--kind api: a mapping spec read from FILE"},
	    {.name = "token-env", .kind = OPT_STRING, .arg = "VAR", .dest = &token_env,
	     .help = "--kind api: the token is in environment variable VAR when 'run' starts"},
	    {.name = "token-file", .kind = OPT_STRING, .arg = "PATH", .dest = &token_file,
	     .help = "--kind api: the token is the first line of PATH when 'run' starts"},
	    {.name = "pages", .kind = OPT_UINT, .arg = "N", .dest = &pages, .min = 1,
	     .max = FR_API_PAGES_MAX,
	     .help = "--kind api: pages followed per fetch at most (default 10)"},
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
	if (!strcmp(kind, "api")) {
		struct fr_api_source src;
		struct fr_api_spec *sp;
		int given = !!preset + !!spec_text + !!spec_file;
		size_t len = 0;

		if (given != 1) {
			cli_err("add", "--kind api wants one of --preset, --spec or --spec-file");
			rc = EXIT_USAGE;
			goto out;
		}
		if (token_env && token_file) {
			cli_err("add", "--token-env and --token-file: give one");
			rc = EXIT_USAGE;
			goto out;
		}
		if ((token_env && (!*token_env || strpbrk(token_env, "=\r\n"))) ||
		    (token_file && (!*token_file || strpbrk(token_file, "\r\n")))) {
			cli_err("add", "%s: a name, without '=' or a line break",
			        token_env ? "--token-env wants an environment variable's name"
			                  : "--token-file wants a path");
			rc = EXIT_USAGE;
			goto out;
		}
		if (spec_file) {
			if (!(spec_buf = slurp(spec_file, FR_API_SPEC_MAX_BYTES, &len))) {
				rc = EXIT_USAGE;
				goto out;
			}
			spec_text = spec_buf;
		} else if (preset) {
			spec_text = preset;
		}
		if (fr_api_spec_parse(spec_text, strlen(spec_text), &sp, err, sizeof(err)) < 0) {
			cli_err("add", "%s%s%s", spec_file ? spec_file : "", spec_file ? ": " : "", err);
			rc = EXIT_USAGE;
			goto out;
		}
		fr_api_spec_free(sp);
		fr_api_source_init(&src);
		src.spec = (char *)spec_text;
		src.token_env = (char *)token_env;
		src.token_file = (char *)token_file;
		src.max_pages = (int)pages;
		state = fr_api_source_format(&src, &a.api_state_len);
		if (!state) {
			cli_err("add", "out of memory");
			rc = EXIT_FAIL;
			goto out;
		}
		a.api_state = state;
	} else if (preset || spec_text || spec_file || token_env || token_file) {
		cli_err("add", "--preset, --spec, --spec-file, --token-env and --token-file are for --kind api");
		rc = EXIT_USAGE;
		goto out;
	}
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
	free(spec_buf);
	free(state);
	return rc;
}
