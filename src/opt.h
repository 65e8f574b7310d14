/* opt.h - the one command-line parser of the freshet CLI: each command
 * states its options once, in a table (name, hidden old names, the kind of
 * value, its default, help text, where the value goes), and the same table
 * parses argv, checks values, prints --help (and so the man pages) and
 * names the options a typo is near. */
#ifndef FR_OPT_H
#define FR_OPT_H

#include <stdint.h>
#include <stdio.h>

enum opt_kind {
	OPT_END = 0, /* ends a table */
	OPT_FLAG,    /* no value: *(int *)dest = 1 */
	OPT_STRING,  /* *(const char **)dest = the value (borrowed from argv) */
	OPT_UINT,    /* a whole number, digits only, in [min, max]: *(uint64_t *)dest */
	OPT_DOUBLE,  /* a finite number in [min, max]: *(double *)dest */
	OPT_DURATION, /* seconds, or a number with s, m, h, d or w: *(double *)dest */
	OPT_ENUM,    /* one of choices: *(int *)dest = values[k], or k without values */
	OPT_CALL,    /* each value to take(ctx, opt, value): repeatable options */
	OPT_OPTVAL,  /* a flag with an optional value: the next argument unless it
		      * is an option ('-' counts as a value); *(const char **)dest,
		      * "" when given without one */
};

/* Flags of an option. */
#define OPT_HIDDEN 1u   /* parsed but left out of --help (and of suggestions) */
#define OPT_GT_MIN 2u   /* the value must be > min, not >= min */
#define OPT_NO_MAX 4u   /* no upper bound (max is ignored) */

struct opt;
/* OPT_CALL: takes one value. Returns 0; -1 after printing why the value
 * is bad (bad usage); -2 after printing why it failed otherwise (a file
 * that cannot be read, out of memory). */
typedef int (*opt_take_fn)(void *ctx, const struct opt *o, const char *val);

struct opt {
	const char *name;    /* long name, without "--" */
	char short_name;     /* -x, or 0 */
	const char *aliases; /* hidden old names, blank-separated, or NULL */
	enum opt_kind kind;
	const char *arg;     /* the value's name in --help ("N/W"); NULL: from the kind */
	const char *def;     /* the default as it would be typed, applied before argv is
			      * read and shown in --help as "(default DEF)"; NULL: none */
	const char *help;    /* help text (wrapped when printed; '\n' breaks a line) */
	void *dest;
	double min, max;             /* OPT_UINT, OPT_DOUBLE, OPT_DURATION bounds */
	const char *const *choices;  /* OPT_ENUM: NULL-terminated names */
	const int *values;           /* OPT_ENUM: the value of each choice, or NULL */
	opt_take_fn take;            /* OPT_CALL */
	void *ctx;                   /* OPT_CALL */
	const char *want;  /* the "wants ..." of a bad value message; NULL: from the kind */
	const char *section; /* a help heading printed before this option */
	int *seen;           /* set to 1 when the option is given, or NULL */
	unsigned flags;
};

/* A command: its usage, its text and its options, for parsing and --help.
 * The help is: usage, about, "options:" and the table, more, "Examples:"
 * and examples, footer. */
struct opt_cmd {
	const char *name;  /* "run": messages say "freshet run: ..." */
	const char *usage; /* "usage: freshet run [...]\n" lines */
	const char *about; /* paragraphs after the usage, or NULL */
	const struct opt *opts;
	const char *more;     /* text after the options (other sections), or NULL */
	const char *examples; /* lines "  freshet run ...   what it does\n" */
	const char *footer;   /* last paragraph (exit status), or NULL */
	/* Each argument that is not an option, in order; NULL: none is allowed.
	 * Returns 0, -1 (bad usage) or -2 (a failure) after printing why. */
	int (*positional)(void *ctx, const char *arg);
	void *ctx;
};

/* What opt_parse returns besides 0. */
#define OPT_HELP_SHOWN 1 /* --help or -h was given: help printed, exit 0 */
#define OPT_USAGE 2      /* bad usage, message printed: exit 2 */
#define OPT_FAILED 3     /* a positional or OPT_CALL handler failed (-2): exit 1 */

/* Parses argv[1..argc) (argv[0] is the command name) by c's table: first
 * every default, then each argument in order, so a later one wins (the
 * config file's options come first: the command line overrides them). Takes
 * "--name VALUE", "--name=VALUE", "-x VALUE", an old name of the option
 * ("--host-gap") as its new one, and "--" before arguments that start with
 * '-'. --help or -h anywhere prints the help on stdout. Messages go to
 * stderr as "freshet CMD: ...", or "freshet: FILE:LINE: ..." for an option
 * from the config file:
 *   unknown option '--bugdet' (did you mean --budget? try --help)
 *   --gap needs a value (try --help)
 *   --gap wants a duration >= 0 like 15s or 2m, not 'x'
 *   unexpected argument 'x' (try --help)
 * Returns 0, OPT_HELP_SHOWN, OPT_USAGE or OPT_FAILED. */
int opt_parse(const struct opt_cmd *c, int argc, char **argv);

/* Maps opt_parse's result to an exit code: 0 for 0 and OPT_HELP_SHOWN (the
 * caller returns it when rc != 0), 2 for usage, 1 for a failure. */
int opt_exit(int rc);

/* Prints c's help to f. */
void opt_help(const struct opt_cmd *c, FILE *f);

/* Prints "freshet CMD: OPT wants WANT, not 'VAL'" (or by the config
 * file's FILE:LINE when val came from it) and returns -1: for the checks a
 * command makes of a value itself. opt_name is as typed, e.g. "--budget". */
int opt_bad_value(const char *cmd, const char *opt_name, const char *want, const char *val);


/* A growing list of borrowed strings (arguments, repeated option values). */
struct opt_list {
	const char **v;
	size_t n, cap;
};
/* Appends arg to the struct opt_list ctx: a positional handler. Returns 0,
 * or -2 after "freshet: out of memory". */
int opt_list_add(void *ctx, const char *arg);
/* The same as an OPT_CALL handler (ctx: the list). */
int opt_list_take(void *ctx, const struct opt *o, const char *val);
void opt_list_free(struct opt_list *l);

/* ---- options that several commands share: one name, one meaning ---- */

/* burst, paced (in the order of enum fr_rl_mode). */
extern const char *const opt_mode_choices[];

#define OPT_DB(d)                                                                                  \
	{.name = "db", .kind = OPT_STRING, .arg = "PATH", .dest = (d),                             \
	 .help = "the store (default: $FRESHET_DB when set, else ./freshet.db)"}
/* The least time between two requests to one host. Old names: --host-gap
 * (simulate, tune), --politeness (plan). */
#define OPT_GAP(d, def_, flags_)                                                                   \
	{.name = "gap", .aliases = "host-gap politeness", .kind = OPT_DURATION, .arg = "D",         \
	 .def = (def_), .dest = (d), .flags = (flags_) | OPT_NO_MAX,                               \
	 .help = "least time between two requests to one host: seconds, or a number with s, m, " \
		 "h or d (15s, 2m)"}
/* How a rate-limit window's calls are spent; int dest (enum fr_rl_mode). */
#define OPT_MODE(d, def_, help_)                                                                   \
	{.name = "mode", .kind = OPT_ENUM, .choices = opt_mode_choices, .def = (def_),              \
	 .dest = (d), .help = (help_)}
#define OPT_MAX_CRAWL_DELAY(d, def_, help_)                                                        \
	{.name = "max-crawl-delay", .kind = OPT_DURATION, .arg = "D", .def = (def_), .dest = (d),   \
	 .flags = OPT_NO_MAX, .help = (help_)}
#define OPT_CONNECT_TO(take_, ctx_)                                                                \
	{.name = "connect-to", .kind = OPT_CALL, .arg = "SPEC", .take = (take_), .ctx = (ctx_),     \
	 .help = "curl's CONNECT_TO: '::127.0.0.1:8080' sends every host to 127.0.0.1:8080 (a "     \
		 "test world, split DNS); repeatable. The hosts it names may be reached at "        \
		 "internal addresses"}
#define OPT_ALLOW_PRIVATE(d)                                                                       \
	{.name = "allow-private", .kind = OPT_FLAG, .dest = (d),                                    \
	 .help = "connect to loopback, private, link-local and other internal addresses "          \
		 "(refused by default, also after a redirect)"}
#define OPT_NO_ROBOTS(d)                                                                           \
	{.name = "no-robots", .kind = OPT_FLAG, .dest = (d),                                        \
	 .help = "ignore robots.txt (only for your own servers)"}
#define OPT_USER_AGENT(d)                                                                          \
	{.name = "user-agent", .kind = OPT_STRING, .arg = "UA", .dest = (d),                        \
	 .help = "User-Agent (default 'freshet/0.1 (+CONTACT)')"}
#define OPT_CONTACT(d)                                                                             \
	{.name = "contact", .kind = OPT_STRING, .arg = "URL", .dest = (d),                          \
	 .help = "the contact URL named in the default User-Agent"}
#define OPT_TIMEOUT(d, def_)                                                                       \
	{.name = "timeout", .kind = OPT_DURATION, .arg = "D", .def = (def_), .dest = (d),           \
	 .flags = OPT_GT_MIN | OPT_NO_MAX, .help = "total time per transfer"}
#define OPT_SEED(d, def_, help_)                                                                   \
	{.name = "seed", .kind = OPT_UINT, .arg = "S", .def = (def_), .dest = (d),                  \
	 .flags = OPT_NO_MAX, .want = "a whole number >= 0", .help = (help_)}
#define OPT_QUIET(d, help_) {.name = "quiet", .kind = OPT_FLAG, .dest = (d), .help = (help_)}
#define OPT_TABLE_END {.kind = OPT_END}

#endif
