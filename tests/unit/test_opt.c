/* test_opt.c - the CLI's table-driven option parser (src/opt.h): long and
 * short options, "--opt=value" and "--opt value", hidden old names, the
 * defaults applied first and a later option winning, every kind's values
 * and range errors with their messages, "did you mean", missing values,
 * unknown options, positionals and "--", --help anywhere, the help text,
 * and options from the config file named by FILE:LINE (src/config.h). */
#include "config.h"
#include "opt.h"

#include "test.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- a command with one option of each kind ---- */

static int verbose, secret, mode, seen_limit;
static const char *name, *color;
static uint64_t limit;
static double ratio, gap, timeout;
static struct opt_list tags, pos;

static const char *const shapes[] = {"circle", "square", "star", NULL};
static const int shape_values[] = {10, 20, 30};
static int shape;

/* OPT_CALL: "bad" is bad usage (-1), "io" a failure (-2). */
static int
take_check(void *ctx, const struct opt *o, const char *val)
{
	(void)ctx;
	(void)o;
	if (!strcmp(val, "bad")) {
		fprintf(stderr, "freshet test: --check: bad\n");
		return -1;
	}
	if (!strcmp(val, "io")) {
		fprintf(stderr, "freshet test: --check: cannot read io\n");
		return -2;
	}
	return 0;
}

static const struct opt OPTS[] = {
    {.name = "verbose", .short_name = 'v', .kind = OPT_FLAG, .dest = &verbose, .help = "say more"},
    {.name = "name",
     .short_name = 'n',
     .kind = OPT_STRING,
     .arg = "NAME",
     .dest = &name,
     .help = "a name"},
    {.name = "limit",
     .kind = OPT_UINT,
     .def = "10",
     .dest = &limit,
     .min = 1,
     .max = 100,
     .seen = &seen_limit,
     .help = "how many"},
    {.name = "ratio",
     .kind = OPT_DOUBLE,
     .def = "0.5",
     .dest = &ratio,
     .min = 0,
     .max = 1,
     .help = "a share"},
    OPT_GAP(&gap, "1s", 0),
    OPT_MODE(&mode, "paced", "how a window's calls are spent"),
    {.name = "shape",
     .kind = OPT_ENUM,
     .choices = shapes,
     .values = shape_values,
     .def = "square",
     .dest = &shape,
     .section = "Drawing",
     .help = "a long help text that goes on and on about shapes so that it has to be "
             "wrapped over more than one line of the help, at seventy-nine columns"},
    {.name = "timeout",
     .kind = OPT_DURATION,
     .def = "30s",
     .dest = &timeout,
     .flags = OPT_GT_MIN | OPT_NO_MAX,
     .help = "per transfer"},
    {.name = "color", .kind = OPT_OPTVAL, .arg = "WHEN", .dest = &color, .help = "colour"},
    {.name = "tag",
     .kind = OPT_CALL,
     .arg = "T",
     .take = opt_list_take,
     .ctx = &tags,
     .help = "repeatable"},
    {.name = "check", .kind = OPT_CALL, .take = take_check, .help = "checked by a handler"},
    {.name = "secret", .kind = OPT_FLAG, .dest = &secret, .flags = OPT_HIDDEN, .help = "not shown"},
    OPT_TABLE_END,
};

static const struct opt_cmd CMD = {
    .name = "test",
    .usage = "usage: freshet test [options] [ARG...]\n",
    .about = "A command of the unit test.\n",
    .opts = OPTS,
    .examples = "  freshet test --limit 3    three\n",
    .footer = "Exit status: 0, 1 or 2.\n",
    .positional = opt_list_add,
    .ctx = &pos,
};

/* The same options, no positional arguments. */
static const struct opt_cmd CMD_NOPOS = {
    .name = "nopos", .usage = "usage: freshet nopos\n", .opts = OPTS};

/* ---- running opt_parse with stdout and stderr captured ---- */

static char out[16384], err[4096];

/* Reads what fd 'fd' got since capture began into buf; restores fd. */
static void
capture_end(FILE *tmp, int fd, int saved, char *buf, size_t cap)
{
	size_t n;

	fflush(fd == 1 ? stdout : stderr);
	dup2(saved, fd);
	close(saved);
	rewind(tmp);
	n = fread(buf, 1, cap - 1, tmp);
	buf[n] = '\0';
	fclose(tmp);
}

static int
capture_begin(FILE **tmp, int fd)
{
	int saved;

	fflush(fd == 1 ? stdout : stderr);
	*tmp = tmpfile();
	saved = dup(fd);
	if (!*tmp || saved < 0 || dup2(fileno(*tmp), fd) < 0) {
		fprintf(stderr, "test_opt: cannot capture fd %d\n", fd);
		exit(1);
	}
	return saved;
}

static void
reset(void)
{
	verbose = secret = mode = seen_limit = shape = 0;
	name = color = NULL;
	limit = 0;
	ratio = gap = timeout = -1;
	opt_list_free(&tags);
	opt_list_free(&pos);
}

/* Parses "freshet CMD ARGS..." (NULL-terminated) by c; out and err hold
 * what it printed. Returns opt_parse's result. */
static int
parse_argv(const struct opt_cmd *c, int argc, char **argv)
{
	FILE *to, *te;
	int so = capture_begin(&to, 1), se = capture_begin(&te, 2);
	int rc = opt_parse(c, argc, argv);

	capture_end(te, 2, se, err, sizeof(err));
	capture_end(to, 1, so, out, sizeof(out));
	return rc;
}

static int
parse_c(const struct opt_cmd *c, const char *const *args)
{
	char *argv[32];
	int argc = 0;

	reset();
	argv[argc++] = (char *)c->name;
	while (*args && argc < 31)
		argv[argc++] = (char *)*args++;
	argv[argc] = NULL;
	return parse_argv(c, argc, argv);
}

#define PARSE(...) parse_c(&CMD, (const char *const[]){__VA_ARGS__, NULL})
#define PARSE0() parse_c(&CMD, (const char *const[]){NULL})

/* The one line of err equals want (with its newline). */
#define CHECK_ERR(want) CHECK_STR(err, want "\n")

/* ---- the tests ---- */

static void
test_defaults_before_argv(void)
{
	CHECK(PARSE0() == 0);
	CHECK(limit == 10);
	CHECK_NEAR(ratio, 0.5, 0);
	CHECK_NEAR(gap, 1, 0);
	CHECK(mode == 1); /* paced: choices burst, paced */
	CHECK(shape == 20);
	CHECK_NEAR(timeout, 30, 0);
	CHECK(verbose == 0 && name == NULL && color == NULL && secret == 0);
	CHECK(seen_limit == 0);
	CHECK_STR(err, "");
	CHECK_STR(out, "");
}

static void
test_long_and_short_forms(void)
{
	CHECK(PARSE("--limit", "20", "--ratio=0.25", "-v", "-n", "ann") == 0);
	CHECK(limit == 20);
	CHECK_NEAR(ratio, 0.25, 0);
	CHECK(verbose == 1);
	CHECK_STR(name, "ann");
	CHECK(seen_limit == 1);

	CHECK(PARSE("--limit=30", "--verbose", "--name", "bob") == 0);
	CHECK(limit == 30 && verbose == 1);
	CHECK_STR(name, "bob");

	/* -xVALUE, and a value that starts with '-' after a long option. */
	CHECK(PARSE("-ncarl", "--ratio", "0") == 0);
	CHECK_STR(name, "carl");
	CHECK_NEAR(ratio, 0, 0);
	CHECK(PARSE("--name", "-dash-") == 0);
	CHECK_STR(name, "-dash-");
	/* --name= gives the empty string. */
	CHECK(PARSE("--name=") == 0);
	CHECK_STR(name, "");
}

static void
test_later_option_wins(void)
{
	CHECK(PARSE("--limit", "5", "--limit=7") == 0);
	CHECK(limit == 7);
	CHECK(PARSE("--gap", "2", "--host-gap", "3") == 0);
	CHECK_NEAR(gap, 3, 0);
}

static void
test_hidden_aliases(void)
{
	CHECK(PARSE("--host-gap", "3") == 0);
	CHECK_NEAR(gap, 3, 0);
	CHECK(PARSE("--politeness=2m") == 0);
	CHECK_NEAR(gap, 120, 0);
	CHECK(PARSE("--gap", "1h") == 0);
	CHECK_NEAR(gap, 3600, 0);
	/* A hidden option parses, but is neither in --help nor suggested. */
	CHECK(PARSE("--secret") == 0);
	CHECK(secret == 1);
	CHECK(PARSE("--secre") == OPT_USAGE);
	CHECK_ERR("freshet test: unknown option '--secre' (try --help)");
	/* A bad value of an old name is told by the name as typed. */
	CHECK(PARSE("--host-gap", "x") == OPT_USAGE);
	CHECK_ERR("freshet test: --host-gap wants a duration >= 0, like 15s or 2m, not 'x'");
	/* Only whole names: a prefix of an alias is not it. */
	CHECK(PARSE("--host", "3") == OPT_USAGE);
}

static void
test_did_you_mean(void)
{
	CHECK(PARSE("--limt", "3") == OPT_USAGE);
	CHECK_ERR("freshet test: unknown option '--limt' (did you mean --limit? try --help)");
	CHECK(PARSE("--ratoi=1") == OPT_USAGE); /* two neighbours swapped */
	CHECK_ERR("freshet test: unknown option '--ratoi=1' (did you mean --ratio? try --help)");
	CHECK(PARSE("--hlep") == OPT_USAGE);
	CHECK_ERR("freshet test: unknown option '--hlep' (did you mean --help? try --help)");
	/* A far miss gets no suggestion. */
	CHECK(PARSE("--zzzzzzzz") == OPT_USAGE);
	CHECK_ERR("freshet test: unknown option '--zzzzzzzz' (try --help)");
	CHECK(PARSE("-z") == OPT_USAGE);
	CHECK_ERR("freshet test: unknown option '-z' (try --help)");
	/* Nothing after the unknown option is taken. */
	CHECK(PARSE("--limt", "3", "--limit", "4") == OPT_USAGE);
	CHECK(limit == 10);
}

static void
test_missing_value(void)
{
	CHECK(PARSE("--limit") == OPT_USAGE);
	CHECK_ERR("freshet test: --limit needs a value (try --help)");
	CHECK(opt_exit(OPT_USAGE) == 2);
	CHECK(PARSE("-v", "-n") == OPT_USAGE);
	CHECK_ERR("freshet test: -n needs a value (try --help)");
	CHECK(PARSE("--politeness") == OPT_USAGE);
	CHECK_ERR("freshet test: --politeness needs a value (try --help)");
	/* A flag takes none. */
	CHECK(PARSE("--verbose=1") == OPT_USAGE);
	CHECK_ERR("freshet test: --verbose takes no value, not '1'");
}

static void
test_numbers_and_ranges(void)
{
	const char *bad_uint[] = {
	    "0", "101", "-3", "+3", " 3", "3x", "", "1.5", "99999999999999999999999", NULL};

	CHECK(PARSE("--limit", "1") == 0 && limit == 1);
	CHECK(PARSE("--limit", "100") == 0 && limit == 100);
	for (size_t k = 0; bad_uint[k]; k++) {
		char want[128];

		CHECK(PARSE("--limit", bad_uint[k]) == OPT_USAGE);
		snprintf(want, sizeof(want),
		         "freshet test: --limit wants a whole number 1..100, not '%s'\n",
		         bad_uint[k]);
		CHECK_STR(err, want);
		CHECK(limit == 10); /* the default stays */
	}

	CHECK(PARSE("--ratio", "1") == 0);
	CHECK_NEAR(ratio, 1, 0);
	CHECK(PARSE("--ratio", "1.5") == OPT_USAGE);
	CHECK_ERR("freshet test: --ratio wants a number from 0 to 1, not '1.5'");
	CHECK(PARSE("--ratio=-0.1") == OPT_USAGE);
	CHECK(PARSE("--ratio", "nan") == OPT_USAGE);
	CHECK(PARSE("--ratio", "inf") == OPT_USAGE);
	CHECK(PARSE("--ratio", "") == OPT_USAGE);
	CHECK(PARSE("--ratio", "0.5x") == OPT_USAGE);

	/* > min: 0 is refused, anything above it taken; no upper bound. */
	CHECK(PARSE("--timeout", "0") == OPT_USAGE);
	CHECK_ERR("freshet test: --timeout wants a duration > 0, like 15s or 2m, not '0'");
	CHECK(PARSE("--timeout", "0.5") == 0);
	CHECK_NEAR(timeout, 0.5, 0);
	CHECK(PARSE("--timeout", "2w") == 0);
	CHECK_NEAR(timeout, 14 * 86400, 0);
	CHECK(PARSE("--timeout", "5q") == OPT_USAGE);
}

/* Each numeric kind's message, bounded and not. */
static void
test_range_messages(void)
{
	static uint64_t u;
	static double d, t;
	static const struct opt o[] = {
	    {.name = "u", .kind = OPT_UINT, .dest = &u, .flags = OPT_NO_MAX},
	    {.name = "d", .kind = OPT_DOUBLE, .dest = &d, .flags = OPT_GT_MIN | OPT_NO_MAX},
	    {.name = "t", .kind = OPT_DURATION, .dest = &t, .min = 1, .max = 60},
	    {.name = "w", .kind = OPT_UINT, .dest = &u, .want = "a port number"},
	    OPT_TABLE_END};
	static const struct opt_cmd c = {.name = "r", .usage = "usage\n", .opts = o};

	CHECK(parse_c(&c, (const char *const[]){"--u", "-1", NULL}) == OPT_USAGE);
	CHECK_ERR("freshet r: --u wants a whole number >= 0, not '-1'");
	CHECK(parse_c(&c, (const char *const[]){"--u", "18446744073709551615", NULL}) == 0);
	CHECK(u == UINT64_MAX);
	CHECK(parse_c(&c, (const char *const[]){"--d", "0", NULL}) == OPT_USAGE);
	CHECK_ERR("freshet r: --d wants a number > 0, not '0'");
	CHECK(parse_c(&c, (const char *const[]){"--d", "1e300", NULL}) == 0);
	CHECK(parse_c(&c, (const char *const[]){"--t", "2m", NULL}) == OPT_USAGE);
	CHECK_ERR("freshet r: --t wants a duration from 1 to 60 seconds, like 15s or 2m, not '2m'");
	CHECK(parse_c(&c, (const char *const[]){"--t", "1m", NULL}) == 0);
	CHECK_NEAR(t, 60, 0);
	CHECK(parse_c(&c, (const char *const[]){"--w", "x", NULL}) == OPT_USAGE);
	CHECK_ERR("freshet r: --w wants a port number, not 'x'");
}

static void
test_enums(void)
{
	CHECK(PARSE("--mode", "burst") == 0 && mode == 0);
	CHECK(PARSE("--mode=paced") == 0 && mode == 1);
	CHECK(PARSE("--mode", "fast") == OPT_USAGE);
	CHECK_ERR("freshet test: --mode wants burst or paced, not 'fast'");
	CHECK(PARSE("--shape", "star") == 0 && shape == 30);
	CHECK(PARSE("--shape", "Star") == OPT_USAGE);
	CHECK_ERR("freshet test: --shape wants circle, square or star, not 'Star'");
}

static void
test_optional_value(void)
{
	CHECK(PARSE("--color") == 0);
	CHECK_STR(color, "");
	CHECK(PARSE("--color", "never") == 0);
	CHECK_STR(color, "never");
	CHECK(PARSE("--color=auto") == 0);
	CHECK_STR(color, "auto");
	/* An option after it is not its value; '-' is. */
	CHECK(PARSE("--color", "--verbose") == 0);
	CHECK_STR(color, "");
	CHECK(verbose == 1);
	CHECK(PARSE("--color", "-") == 0);
	CHECK_STR(color, "-");
	CHECK(pos.n == 0);
}

static void
test_handlers_and_positionals(void)
{
	CHECK(PARSE("a", "--tag", "x", "-", "--tag=y", "b") == 0);
	CHECK(tags.n == 2 && !strcmp(tags.v[0], "x") && !strcmp(tags.v[1], "y"));
	CHECK(pos.n == 3 && !strcmp(pos.v[0], "a") && !strcmp(pos.v[1], "-") &&
	      !strcmp(pos.v[2], "b"));
	/* After "--", everything is an argument, --help too. */
	CHECK(PARSE("--limit", "4", "--", "--limit", "-v", "--help") == 0);
	CHECK(limit == 4 && verbose == 0);
	CHECK(pos.n == 3 && !strcmp(pos.v[0], "--limit") && !strcmp(pos.v[2], "--help"));
	CHECK_STR(out, "");

	/* A handler's bad usage is exit 2, its failure exit 1. */
	CHECK(PARSE("--check", "ok") == 0);
	CHECK(PARSE("--check", "bad") == OPT_USAGE);
	CHECK_ERR("freshet test: --check: bad");
	CHECK(PARSE("--check=io") == OPT_FAILED);
	CHECK_ERR("freshet test: --check: cannot read io");
	CHECK(opt_exit(OPT_FAILED) == 1);
	CHECK(opt_exit(0) == 0);

	/* A command that takes no arguments. */
	CHECK(parse_c(&CMD_NOPOS, (const char *const[]){"-v", "x", NULL}) == OPT_USAGE);
	CHECK_ERR("freshet nopos: unexpected argument 'x' (try --help)");
	CHECK(parse_c(&CMD_NOPOS, (const char *const[]){"--", "y", NULL}) == OPT_USAGE);
	CHECK_ERR("freshet nopos: unexpected argument 'y' (try --help)");
}

static void
test_help(void)
{
	const char *p;
	size_t longest = 0;

	/* --help wins wherever it stands, before any value is checked. */
	CHECK(PARSE("--limit", "0", "--help") == OPT_HELP_SHOWN);
	CHECK(opt_exit(OPT_HELP_SHOWN) == 0);
	CHECK_STR(err, "");
	CHECK(!strncmp(out, "usage: freshet test [options] [ARG...]\n", 39));
	CHECK(strstr(out, "\nA command of the unit test.\n") != NULL);
	CHECK(strstr(out, "\noptions:\n  -h, --help            show this help\n") != NULL);
	CHECK(strstr(out, "  -v, --verbose         say more\n") != NULL);
	CHECK(strstr(out, "  -n, --name NAME       a name\n") != NULL);
	CHECK(strstr(out, "  --limit N             how many (default 10)\n") != NULL);
	CHECK(strstr(out,
	             "  --mode burst|paced    how a window's calls are spent (default paced)\n") !=
	      NULL);
	CHECK(strstr(out, "  --color [WHEN]        colour\n") != NULL);
	CHECK(strstr(out, "\nDrawing:\n  --shape circle|square|star\n") != NULL);
	CHECK(strstr(out, "\nExamples:\n  freshet test --limit 3    three\n") != NULL);
	CHECK(strstr(out, "\nExit status: 0, 1 or 2.\n") != NULL);
	/* Hidden: neither the option nor the old names. */
	CHECK(strstr(out, "secret") == NULL);
	CHECK(strstr(out, "host-gap") == NULL && strstr(out, "politeness") == NULL);
	/* Wrapped at 79 columns, continuations at column 24. */
	for (p = out; *p;) {
		size_t n = strcspn(p, "\n");

		if (n > longest)
			longest = n;
		p += n + (p[n] == '\n');
	}
	CHECK(longest <= 79);
	p = strstr(out, "--shape circle|square|star\n");
	CHECK(p != NULL);
	if (p) {
		p = strchr(p, '\n') + 1;
		CHECK(!strncmp(p, "                        a long help text", 40));
		p = strchr(p, '\n') + 1;
		CHECK(strspn(p, " ") == 24 && p[24] != '\n');
	}
	CHECK(PARSE("-h") == OPT_HELP_SHOWN);

	/* opt_help prints the same text. */
	{
		char again[sizeof(out)];
		FILE *f = tmpfile();
		size_t n;

		CHECK(PARSE("--help") == OPT_HELP_SHOWN);
		CHECK(f != NULL);
		if (f) {
			opt_help(&CMD, f);
			rewind(f);
			n = fread(again, 1, sizeof(again) - 1, f);
			again[n] = '\0';
			fclose(f);
			CHECK_STR(again, out);
		}
	}
}

static void
test_bad_default_is_reported(void)
{
	static uint64_t v;
	static const struct opt bad[] = {
	    {.name = "n", .kind = OPT_UINT, .def = "ten", .dest = &v, .min = 0, .max = 5},
	    OPT_TABLE_END};
	static const struct opt_cmd c = {.name = "bad", .usage = "usage\n", .opts = bad};

	CHECK(parse_c(&c, (const char *const[]){NULL}) == OPT_USAGE);
	CHECK_ERR("freshet bad: internal error: bad default 'ten' of --n");
}

static void
test_bad_value_helper(void)
{
	FILE *te;
	int se = capture_begin(&te, 2);
	int rc = opt_bad_value("test", "--budget", "N/W like 60/1h", "abc");

	capture_end(te, 2, se, err, sizeof(err));
	CHECK(rc == -1);
	CHECK_ERR("freshet test: --budget wants N/W like 60/1h, not 'abc'");
}

/* Writes text to a new temporary config file; its path into path. */
static int
write_config(char *path, size_t len, const char *text)
{
	const char *dir = getenv("TMPDIR");
	FILE *f;
	int fd;

	snprintf(path, len, "%s/test_opt.XXXXXX", dir && *dir ? dir : "/tmp");
	fd = mkstemp(path);
	if (fd < 0)
		return -1;
	f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		return -1;
	}
	fputs(text, f);
	return fclose(f);
}

/* The vector of the last parse_with_config: what it parsed points into it,
 * so it lives until the next one. */
static char **cfg_v;
static int cfg_vc;

static void
cfg_free(void)
{
	if (cfg_v)
		config_free_argv(cfg_vc, cfg_v, NULL);
	cfg_v = NULL;
	cfg_vc = 0;
}

/* Applies the config text to "freshet test ARGS..." and parses the result.
 * Returns opt_parse's result, or -1 when config_apply refused the file
 * (its message in err). */
static int
parse_with_config(const char *text, const char *const *args, char *path, size_t len)
{
	char *argv[16];
	int argc = 0, rc;
	FILE *te;
	int se;

	cfg_free();
	if (write_config(path, len, text) != 0) {
		fprintf(stderr, "test_opt: cannot write a config file\n");
		exit(1);
	}
	setenv("FRESHET_CONFIG", path, 1);
	argv[argc++] = (char *)"test";
	while (*args && argc < 15)
		argv[argc++] = (char *)*args++;
	argv[argc] = NULL;
	se = capture_begin(&te, 2);
	rc = config_apply("test", argc, argv, &cfg_vc, &cfg_v);
	capture_end(te, 2, se, err, sizeof(err));
	if (rc != 0) {
		cfg_v = NULL;
		rc = -1;
	} else {
		reset();
		rc = parse_argv(&CMD, cfg_vc, cfg_v);
	}
	unsetenv("FRESHET_CONFIG");
	unlink(path);
	return rc;
}

static void
test_config_file(void)
{
	char path[512], want[1024];

	/* Options from the file come first: the command line wins. */
	CHECK(parse_with_config("# c\n[test]\nlimit = 5\nverbose = true\nsecret = false\n"
	                        "tag = a\ntag = b\n[other]\nlimit = 99\n",
	                        (const char *const[]){"--tag", "c", "--ratio", "0.75", NULL}, path,
	                        sizeof(path)) == 0);
	CHECK(limit == 5 && verbose == 1 && secret == 0);
	CHECK_NEAR(ratio, 0.75, 0);
	CHECK(tags.n == 3 && !strcmp(tags.v[0], "a") && !strcmp(tags.v[2], "c"));
	CHECK(parse_with_config("[test]\nlimit = 5\n", (const char *const[]){"--limit", "6", NULL},
	                        path, sizeof(path)) == 0);
	CHECK(limit == 6);
	/* An old name in the file is the option too. */
	CHECK(parse_with_config("[test]\nhost-gap = 4s\n", (const char *const[]){NULL}, path,
	                        sizeof(path)) == 0);
	CHECK_NEAR(gap, 4, 0);

	/* A typo in the file is named by FILE:LINE, not blamed on the
	 * command line. */
	CHECK(parse_with_config("# c\n[test]\nlimitt = 3\n", (const char *const[]){NULL}, path,
	                        sizeof(path)) == OPT_USAGE);
	snprintf(want, sizeof(want),
	         "freshet: %s:3: unknown key 'limitt' in [test] (did you mean 'limit'?)\n", path);
	CHECK_STR(err, want);
	CHECK(parse_with_config("[test]\nqqqqqqqq = 3\n", (const char *const[]){NULL}, path,
	                        sizeof(path)) == OPT_USAGE);
	snprintf(want, sizeof(want), "freshet: %s:2: unknown key 'qqqqqqqq' in [test]\n", path);
	CHECK_STR(err, want);

	/* A bad value: the key as written there, and its line. */
	CHECK(parse_with_config("[test]\n\nlimit = 0\n", (const char *const[]){NULL}, path,
	                        sizeof(path)) == OPT_USAGE);
	snprintf(want, sizeof(want), "freshet: %s:3: limit wants a whole number 1..100, not '0'\n",
	         path);
	CHECK_STR(err, want);
	CHECK(parse_with_config("[test]\nverbose = yes\n", (const char *const[]){NULL}, path,
	                        sizeof(path)) == OPT_USAGE);
	snprintf(want, sizeof(want), "freshet: %s:2: verbose takes no value, not 'yes'\n", path);
	CHECK_STR(err, want);
	cfg_free();
	/* opt_bad_value names the file's line for a value that came from it. */
	{
		char *argv[] = {(char *)"test", NULL}, **v = NULL;
		int vc = 0;
		FILE *te;
		int se;

		CHECK(write_config(path, sizeof(path), "[test]\nname = zed\n") == 0);
		setenv("FRESHET_CONFIG", path, 1);
		se = capture_begin(&te, 2);
		CHECK(config_apply("test", 1, argv, &vc, &v) == 0);
		CHECK(vc == 2);
		if (vc == 2) {
			CHECK(opt_bad_value("test", "--name", "a better name", v[1] + 7) == -1);
			CHECK(opt_bad_value("test", "--name", "a better name", "cmdline") == -1);
			config_free_argv(vc, v, argv);
		}
		capture_end(te, 2, se, err, sizeof(err));
		unsetenv("FRESHET_CONFIG");
		unlink(path);
		snprintf(want, sizeof(want),
		         "freshet: %s:2: name wants a better name, not 'zed'\n"
		         "freshet test: --name wants a better name, not 'cmdline'\n",
		         path);
		CHECK_STR(err, want);
	}

	/* The file itself malformed: config_apply names FILE:LINE. */
	CHECK(parse_with_config("[test]\nlimit 3\n", (const char *const[]){NULL}, path,
	                        sizeof(path)) == -1);
	snprintf(want, sizeof(want), "freshet: %s:2: expected key = value\n", path);
	CHECK_STR(err, want);
	CHECK(parse_with_config("limit = 3\n", (const char *const[]){NULL}, path, sizeof(path)) ==
	      -1);
	snprintf(want, sizeof(want),
	         "freshet: %s:1: 'limit' outside a [command] section (only db may be)\n", path);
	CHECK_STR(err, want);
	cfg_free();
}

int
main(void)
{
	RUN(test_defaults_before_argv);
	RUN(test_long_and_short_forms);
	RUN(test_later_option_wins);
	RUN(test_hidden_aliases);
	RUN(test_did_you_mean);
	RUN(test_missing_value);
	RUN(test_numbers_and_ranges);
	RUN(test_range_messages);
	RUN(test_enums);
	RUN(test_optional_value);
	RUN(test_handlers_and_positionals);
	RUN(test_help);
	RUN(test_bad_default_is_reported);
	RUN(test_bad_value_helper);
	RUN(test_config_file);
	reset();
	return TEST_DONE();
}
