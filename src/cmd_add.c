/* cmd_add.c - `freshet add`: subscribe to sources given as URLs, a list
 * file (one URL a line) or an OPML file; addresses normalised, duplicates
 * counted, bad lines named by file:line while the rest goes on. */
#include "cmd.h"
#include "dbopt.h"

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
    "                   [--group G] [--allow-private] [--db PATH]\n"
    "\n"
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
    "options:\n"
    "  --file LIST       add the URLs listed in LIST (may be repeated)\n"
    "  --opml FILE       add the feeds of an OPML file (may be repeated)\n"
    "  --kind K          feed (default) or forum\n"
    "  --group G         rate-limit group of the new sources (default: default)\n"
    "  --allow-private   accept internal addresses (your own network's servers)\n" DBOPT_HELP
    "  --help            show this help\n";

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

int
cmd_add(int argc, char **argv)
{
	const char *db = NULL, *kind = "feed", *grp = NULL, *val;
	const char **inputs; /* "U" url, "F" list, "O" opml: kinds[] parallel */
	char *kinds;
	size_t n_in = 0;
	struct adder a = {0};
	char err[FR_ERRLEN], where[64];
	int failed = 0, rc;

	inputs = calloc((size_t)argc + 1, sizeof(*inputs));
	kinds = calloc((size_t)argc + 1, 1);
	if (!inputs || !kinds) {
		cli_err("add", "out of memory");
		free(inputs);
		free(kinds);
		return EXIT_FAIL;
	}
	for (int i = 1; i < argc; i++) {
		static const char *const OPTS[] = {"--db", "--file", "--opml", "--kind", "--group"};
		const char *arg = argv[i];
		size_t k;

		if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
			fputs(USAGE, stdout);
			rc = EXIT_OK;
			goto out;
		}
		if (!strcmp(arg, "--allow-private")) {
			a.allow_private = 1;
			continue;
		}
		/* NOTE: OPTS and the switch below go together. */
		for (k = 0, rc = 0; k < sizeof(OPTS) / sizeof(OPTS[0]); k++) {
			rc = dbopt_value("add", OPTS[k], argc, argv, &i, &val);
			if (rc != 0)
				break;
		}
		if (rc > 0) {
			switch (k) {
			case 0:
				db = val;
				break;
			case 1:
			case 2:
				kinds[n_in] = k == 1 ? 'F' : 'O';
				inputs[n_in++] = val;
				break;
			case 3:
				kind = val;
				break;
			default:
				grp = val;
				break;
			}
		} else if (rc == 0 && arg[0] == '-' && arg[1] != '\0') {
			cli_unknown_option("add", arg, USAGE);
			rc = EXIT_USAGE;
			goto out;
		} else if (rc == 0) {
			kinds[n_in] = 'U';
			inputs[n_in++] = arg;
		}
		if (rc < 0) {
			rc = EXIT_USAGE;
			goto out;
		}
	}
	if (strcmp(kind, "feed") != 0 && strcmp(kind, "forum") != 0) {
		cli_err("add", "unknown kind '%s' (feed or forum)", kind);
		rc = EXIT_USAGE;
		goto out;
	}
	if (grp && !*grp) {
		cli_err("add", "--group needs a name");
		rc = EXIT_USAGE;
		goto out;
	}
	if (n_in == 0) {
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
	for (size_t k = 0, n_url = 0; k < n_in; k++) {
		if (kinds[k] == 'U') {
			n_url++;
			snprintf(where, sizeof(where), "argument %zu", n_url);
			add_one(&a, where, inputs[k], NULL, NULL, NULL);
		} else if (kinds[k] == 'F') {
			failed |= add_list(&a, inputs[k]) < 0;
		} else {
			failed |= add_opml(&a, inputs[k]) < 0;
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
	free(inputs);
	free(kinds);
	return rc;
}
