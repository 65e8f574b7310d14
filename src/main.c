/* main.c - the freshet command: dispatches to one cmd_<name>.c per subcommand. */
#include "cmd.h"
#include "config.h"
#include "suggest.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

struct sub {
	const char *name;
	int (*fn)(int, char **);
	const char *summary;
};

/* NOTE: keep in the order shown by --help. */
static const struct sub subs[] = {
	{"run", cmd_run, "crawl the sources in the store: fetch, parse, store new items (the daemon)"},
	{"add", cmd_add, "subscribe to feeds: URLs, a list file or an OPML file"},
	{"remove", cmd_remove, "unsubscribe sources (their items stay unless --purge)"},
	{"sources", cmd_sources, "list the sources: state, last fetch, last error, learned rate, next due"},
	{"items", cmd_items, "print stored items as JSON Lines, CSV or a table"},
	{"export", cmd_export, "export the sources as OPML"},
	{"discover", cmd_discover, "find the feeds of sites (autodiscovery, links, well-known paths)"},
	{"parse", cmd_parse, "parse a feed file or URL and print it (feedparser's field names)"},
	{"extract", cmd_extract, "extract an article page's main text and metadata (readability's JSON)"},
	{"serve", cmd_serve, "serve a synthetic world as feeds over HTTP on loopback"},
	{"plan", cmd_plan, "plan revisit frequencies for changing pages (CHO, OPT_POLITE, bounds)"},
	{"simulate", cmd_simulate, "replay a trace against scheduling policies and compare them"},
	{"tune", cmd_tune, "search a policy parameter that minimises mean delay (golden section)"},
	{"world", cmd_world, "generate a synthetic world (trace, sources, true intensities)"},
};

void
cli_err(const char *sub, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "freshet %s: ", sub);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* The unknown option a of sub, among the n names it knows. */
static int
unknown_option(const char *sub, const char *a, const char *const *names, size_t n)
{
	char word[128];
	size_t len = strcspn(a, "=");
	const char *near, *origin = config_origin(a);

	snprintf(word, sizeof(word), "%.*s", (int)(len < sizeof(word) ? len : sizeof(word) - 1), a);
	near = cli_suggest(word, names, n);
	if (origin)
		fprintf(stderr, "freshet: %s: unknown option '%s' for [%s]%s%s%s\n", origin,
			word[0] == '-' && word[1] == '-' ? word + 2 : word, sub,
			near ? " (did you mean " : "", near ? near + 2 : "", near ? "?)" : "");
	else if (near)
		cli_err(sub, "unknown option '%s' (did you mean %s? try --help)", a, near);
	else
		cli_err(sub, "unknown option '%s' (try --help)", a);
	return EXIT_USAGE;
}

int
cli_unknown_option(const char *sub, const char *arg, const char *usage)
{
	const char *names[128];
	char buf[4096];
	size_t n = 0, used = 0;

	/* Every distinct --word of the usage text. */
	for (const char *p = usage; (p = strstr(p, "--")) && n < 128; p += 2) {
		size_t len = 2 + strspn(p + 2, "abcdefghijklmnopqrstuvwxyz0123456789-");
		int seen = 0;

		if (len < 3 || used + len + 1 > sizeof(buf))
			continue;
		memcpy(buf + used, p, len);
		buf[used + len] = 0;
		for (size_t k = 0; k < n && !seen; k++)
			seen = !strcmp(names[k], buf + used);
		if (!seen) {
			names[n++] = buf + used;
			used += len + 1;
		}
	}
	return unknown_option(sub, arg, names, n);
}

int
cli_take_option(const char *sub, const char *const *names, const char **const *slots, size_t n,
		int argc, char **argv, int *i)
{
	const char *a = argv[*i], *val;
	size_t k;

	for (k = 0; k < n; k++) {
		size_t len = strlen(names[k]);
		if (!strncmp(a, names[k], len) && (a[len] == '\0' || a[len] == '='))
			break;
	}
	if (k == n)
		return unknown_option(sub, a, names, n);
	val = strchr(a, '=');
	if (val) {
		val++;
	} else if (*i + 1 < argc) {
		val = argv[++*i];
	} else {
		cli_err(sub, "%s needs a value (try --help)", names[k]);
		return EXIT_USAGE;
	}
	*slots[k] = val;
	return 0;
}

static void
usage(FILE *f)
{
	fprintf(f, "usage: freshet <command> [options]\n\n"
		   "An incremental crawler for fresh content.\n\ncommands:\n");
	for (size_t i = 0; i < sizeof(subs) / sizeof(subs[0]); i++)
		fprintf(f, "  %-10s %s\n", subs[i].name, subs[i].summary);
	fprintf(f, "\n'freshet help <command>' (or 'freshet <command> --help') describes a "
		   "command;\n'freshet --version' prints the version.\n");
}

#define N_SUBS (sizeof(subs) / sizeof(subs[0]))

/* The subcommand called name, or NULL. */
static const struct sub *
find_sub(const char *name)
{
	for (size_t i = 0; i < N_SUBS; i++)
		if (!strcmp(name, subs[i].name))
			return &subs[i];
	return NULL;
}

/* "unknown command" in one line, with the nearest command when it looks
 * like a typo of one. */
static int
unknown_command(const char *name)
{
	const char *names[N_SUBS];

	for (size_t i = 0; i < N_SUBS; i++)
		names[i] = subs[i].name;
	const char *near = cli_suggest(name, names, N_SUBS);
	if (near)
		fprintf(stderr, "freshet: unknown command '%s' (did you mean '%s'? 'freshet --help' "
				"lists the commands)\n", name, near);
	else
		fprintf(stderr, "freshet: unknown command '%s' ('freshet --help' lists the commands)\n",
			name);
	return EXIT_USAGE;
}

int
main(int argc, char **argv)
{
	const struct sub *sub;

	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    (!strcmp(argv[1], "help") && argc == 2)) {
		usage(stdout);
		return EXIT_OK;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V") ||
	    !strcmp(argv[1], "version")) {
		printf("freshet %s\n", FRESHET_VERSION);
		return EXIT_OK;
	}
	if (!strcmp(argv[1], "help")) {
		/* freshet help CMD: CMD's own --help. */
		char help[] = "--help";
		char *sub_argv[] = {argv[2], help, NULL};

		if (argc > 3) {
			fprintf(stderr, "freshet help: one command at a time ('freshet help CMD')\n");
			return EXIT_USAGE;
		}
		if (!(sub = find_sub(argv[2])))
			return unknown_command(argv[2]);
		return sub->fn(2, sub_argv);
	}
	if (!(sub = find_sub(argv[1])))
		return unknown_command(argv[1]);
	int sub_argc, rc;
	char **sub_argv;

	/* Options from the config file first, so flags override. */
	if ((rc = config_apply(sub->name, argc - 1, argv + 1, &sub_argc, &sub_argv)) != 0)
		return rc;
	rc = sub->fn(sub_argc, sub_argv);
	config_free_argv(sub_argc, sub_argv, argv + 1);
	return rc;
}
