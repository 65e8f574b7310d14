/* cmd_export.c - `freshet export --opml`: the active sources as an OPML 2.0
 * file, grouped under their categories, for feed readers and `add --opml`. */
#include "cmd.h"
#include "dbopt.h"
#include "opt.h"

#include "core/err.h"
#include "parse/opml.h"
#include "store/store.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char USAGE[] = "usage: freshet export --opml [FILE] [--db PATH]\n";

static const char ABOUT[] =
    "Writes the active sources as an OPML 2.0 document to FILE, or to standard\n"
    "output when FILE is absent or '-'. Sources with a category (an OPML folder\n"
    "they were imported from) are grouped under it; each feed carries its title\n"
    "and site address when known. 'freshet add --opml FILE' reads it back. A FILE\n"
    "is written beside itself and renamed into place, so a failure leaves the old\n"
    "one.\n";

static const char EXAMPLES[] =
    "  freshet export --opml feeds.opml\n"
    "  freshet export --opml | xmllint --format -\n";

/* The output file named by an argument (export FILE --opml). */
static int
take_file(void *ctx, const char *arg)
{
	const char **out = ctx;

	if (*out) {
		cli_err("export", "one output file at most, not '%s' too (try --help)", arg);
		return -1;
	}
	*out = arg;
	return 0;
}

/* Writes the document to f. Returns 0 or -1 (message printed). */
static int
write_opml(struct fr_store *st, FILE *f, const char *name)
{
	struct fr_store_source *v = NULL;
	struct fr_opml_outline *o;
	char err[FR_ERRLEN];
	size_t n = 0;
	int rc;

	if (fr_store_load_sources(st, &v, &n, err, sizeof(err)) < 0) {
		cli_err("export", "%s", err);
		return -1;
	}
	o = calloc(n ? n : 1, sizeof(*o));
	if (!o) {
		cli_err("export", "out of memory");
		fr_store_sources_free(v, n);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		o[i].xml_url = v[i].url;
		o[i].html_url = v[i].site_url;
		o[i].title = v[i].title;
		o[i].category = v[i].category;
	}
	rc = fr_opml_write(f, "freshet sources", o, n);
	if (rc == 0 && fflush(f) != 0)
		rc = -1;
	if (rc < 0)
		cli_err("export", "%s: write error: %s", name, strerror(errno));
	free(o);
	fr_store_sources_free(v, n);
	return rc;
}

int
cmd_export(int argc, char **argv)
{
	const char *db = NULL, *out = NULL, *opml_file = NULL;
	int opml = 0, rc;
	struct fr_store *st;
	const struct opt opts[] = {
	    {.name = "opml", .kind = OPT_OPTVAL, .arg = "FILE", .dest = &opml_file, .seen = &opml,
	     .help = "OPML output (the only format so far; required)"},
	    OPT_DB(&db),
	    OPT_TABLE_END};
	const struct opt_cmd cmd = {.name = "export", .usage = USAGE, .about = ABOUT,
				    .opts = opts, .examples = EXAMPLES, .positional = take_file,
				    .ctx = &out};

	if ((rc = opt_parse(&cmd, argc, argv)) != 0)
		return opt_exit(rc);
	if (opml_file && *opml_file && take_file(&out, opml_file) < 0)
		return EXIT_USAGE;
	if (!opml) {
		cli_err("export", "say the format: --opml (try --help)");
		return EXIT_USAGE;
	}
	st = dbopt_open_flags("export", db, FR_STORE_READ_ONLY);
	if (!st)
		return EXIT_FAIL;
	if (!out || !strcmp(out, "-")) {
		rc = write_opml(st, stdout, "standard output");
	} else {
		size_t len = strlen(out) + 16;
		char *tmp = malloc(len);
		FILE *f = NULL;

		rc = -1;
		if (!tmp) {
			cli_err("export", "out of memory");
		} else {
			snprintf(tmp, len, "%s.tmp%ld", out, (long)getpid());
			f = fopen(tmp, "wb");
			if (!f)
				cli_err("export", "%s: cannot create: %s", tmp, strerror(errno));
		}
		if (f) {
			rc = write_opml(st, f, out);
			if (fclose(f) != 0 && rc == 0) {
				cli_err("export", "%s: write error: %s", out, strerror(errno));
				rc = -1;
			}
			if (rc == 0 && rename(tmp, out) != 0) {
				cli_err("export", "%s: cannot rename %s into place: %s", out, tmp,
				        strerror(errno));
				rc = -1;
			}
			if (rc < 0)
				unlink(tmp);
		}
		free(tmp);
	}
	fr_store_close(st);
	return rc < 0 ? EXIT_FAIL : EXIT_OK;
}
