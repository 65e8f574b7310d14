/* cmd_remove.c - `freshet remove`: unsubscribe sources by id or address;
 * their items and fetch log stay for history unless --purge. */
#include "cmd.h"
#include "dbopt.h"

#include "core/err.h"
#include "store/store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char USAGE[] =
    "usage: freshet remove ID|URL... [--purge] [--db PATH]\n"
    "\n"
    "Unsubscribes sources, named by id (as 'freshet sources' shows) or by address\n"
    "(http or https, with or without a trailing '/'). A removed source is no longer\n"
    "crawled, listed or exported, but keeps its items and fetch log, and 'freshet\n"
    "add' brings it back. A name that matches no source is reported and the rest\n"
    "are removed all the same (exit 1).\n"
    "\n"
    "options:\n"
    "  --purge           delete the sources with their items and fetch log\n" DBOPT_HELP
    "  --help            show this help\n";

int
cmd_remove(int argc, char **argv)
{
	const char *db = NULL, *val;
	const char **names;
	int purge = 0, n_names = 0, rc;
	unsigned long removed = 0, bad = 0;
	struct fr_store *st;
	char err[FR_ERRLEN];

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(USAGE, stdout);
			return EXIT_OK;
		}
	}
	names = calloc((size_t)argc, sizeof(*names));
	if (!names) {
		cli_err("remove", "out of memory");
		return EXIT_FAIL;
	}
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--purge")) {
			purge = 1;
			continue;
		}
		rc = dbopt_value("remove", "--db", argc, argv, &i, &val);
		if (rc < 0) {
			free(names);
			return EXIT_USAGE;
		}
		if (rc > 0) {
			db = val;
			continue;
		}
		if (a[0] == '-' && a[1] != '\0') {
			cli_unknown_option("remove", a, USAGE);
			free(names);
			return EXIT_USAGE;
		}
		names[n_names++] = a;
	}
	if (n_names == 0) {
		cli_err("remove", "name the sources to remove, by id or address (try --help)");
		free(names);
		return EXIT_USAGE;
	}
	st = dbopt_open("remove", db);
	if (!st) {
		free(names);
		return EXIT_FAIL;
	}
	for (int k = 0; k < n_names; k++) {
		const char *a = names[k];
		int64_t id;

		if (fr_store_find_source(st, a, &id) < 0) {
			cli_err("remove", "no source '%s'", a);
			bad++;
			continue;
		}
		if (fr_store_remove_source(st, id, purge, err, sizeof(err)) < 0) {
			cli_err("remove", "%s: %s", a, err);
			bad++;
			continue;
		}
		removed++;
	}
	fr_store_close(st);
	free(names);
	fprintf(stderr, "freshet remove: %s %lu", purge ? "purged" : "removed", removed);
	if (bad)
		fprintf(stderr, ", %lu not removed", bad);
	fputc('\n', stderr);
	return bad ? EXIT_FAIL : EXIT_OK;
}
