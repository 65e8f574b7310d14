/* main.c - the freshet command: dispatches to one cmd_<name>.c per subcommand. */
#include "cmd.h"
#include "config.h"
#include "suggest.h"

#include <malloc.h>
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

static void
usage(FILE *f)
{
	fprintf(f, "usage: freshet <command> [options]\n\n"
		   "An incremental crawler for fresh content.\n\ncommands:\n");
	for (size_t i = 0; i < sizeof(subs) / sizeof(subs[0]); i++)
		fprintf(f, "  %-10s %s\n", subs[i].name, subs[i].summary);
	fprintf(f, "\n'freshet help <command>' (or 'freshet <command> --help') describes a "
		   "command;\n'freshet --version' (or -V) prints the version.\n"
		   "\nExamples:\n"
		   "  freshet add --opml feeds.opml   subscribe to a feed reader's feeds\n"
		   "  freshet run                     crawl them until stopped\n"
		   "  freshet items --since 1d        what came in the last day\n");
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

	/* The heap is kept rather than given back at each free: CLD2 (lib/lang,
	 * one call per stored item) allocates and frees about 175 KiB (four
	 * blocks) per call, and glibc's default (trim above 128 KiB) shrank
	 * and regrew the heap every call: 190 us of brk and page faults
	 * against 5 us of detection (bench/bench_lang_commit.c). Allocations under 4 MiB come
	 * from the heap, as glibc's own adjustment would have it after the first
	 * large free. NOTE: bench_lang_commit sets the same values. */
	mallopt(M_MMAP_THRESHOLD, 4 << 20);
	mallopt(M_TRIM_THRESHOLD, 8 << 20);
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
