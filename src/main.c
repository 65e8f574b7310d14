/* main.c - the freshet command: dispatches to one cmd_<name>.c per subcommand. */
#include "cmd.h"
#include "config.h"

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
	if (k == n) {
		cli_err(sub, "unknown argument '%s' (try --help)", a);
		return EXIT_USAGE;
	}
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
	fprintf(f, "\n'freshet <command> --help' describes a command.\n");
}

int
main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return EXIT_OK;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("freshet 0.1.0\n");
		return EXIT_OK;
	}
	for (size_t i = 0; i < sizeof(subs) / sizeof(subs[0]); i++) {
		int sub_argc, rc;
		char **sub_argv;

		if (strcmp(argv[1], subs[i].name) != 0)
			continue;
		/* Options from the config file first, so flags override. */
		if ((rc = config_apply(subs[i].name, argc - 1, argv + 1, &sub_argc, &sub_argv)) != 0)
			return rc;
		rc = subs[i].fn(sub_argc, sub_argv);
		config_free_argv(sub_argc, sub_argv, argv + 1);
		return rc;
	}
	fprintf(stderr, "freshet: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return EXIT_USAGE;
}
