/* cmd_remove.c - `freshet remove`: unsubscribe sources by id or address;
 * their items and fetch log stay for history unless --purge. */
#include "cmd.h"
#include "dbopt.h"
#include "opt.h"

#include "core/err.h"
#include "store/store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char USAGE[] = "usage: freshet remove ID|URL... [--purge] [--db PATH]\n";

static const char ABOUT[] =
    "Unsubscribes sources, named by id (as 'freshet sources' shows) or by address\n"
    "(http or https, with or without a trailing '/'). A removed source is no longer\n"
    "crawled, listed or exported, but keeps its items and fetch log, and 'freshet\n"
    "add' brings it back. A name that matches no source is reported and the rest\n"
    "are removed all the same (exit 1).\n";

static const char EXAMPLES[] =
    "  freshet remove 12 https://example.org/feed.xml\n"
    "  freshet remove 12 --purge                 also delete its items\n";

int
cmd_remove(int argc, char **argv)
{
	const char *db = NULL;
	struct opt_list names = {0};
	int purge = 0, prc;
	unsigned long removed = 0, bad = 0;
	struct fr_store *st;
	char err[FR_ERRLEN];
	const struct opt opts[] = {
	    {.name = "purge", .kind = OPT_FLAG, .dest = &purge,
	     .help = "delete the sources with their items and fetch log"},
	    OPT_DB(&db),
	    OPT_TABLE_END};
	const struct opt_cmd cmd = {.name = "remove", .usage = USAGE, .about = ABOUT,
				    .opts = opts, .examples = EXAMPLES,
				    .positional = opt_list_add, .ctx = &names};

	if ((prc = opt_parse(&cmd, argc, argv)) != 0) {
		opt_list_free(&names);
		return opt_exit(prc);
	}
	if (names.n == 0) {
		cli_err("remove", "name the sources to remove, by id or address (try --help)");
		return EXIT_USAGE;
	}
	st = dbopt_open("remove", db);
	if (!st) {
		opt_list_free(&names);
		return EXIT_FAIL;
	}
	for (size_t k = 0; k < names.n; k++) {
		const char *a = names.v[k];
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
	opt_list_free(&names);
	fprintf(stderr, "freshet remove: %s %lu", purge ? "purged" : "removed", removed);
	if (bad)
		fprintf(stderr, ", %lu not removed", bad);
	fputc('\n', stderr);
	return bad ? EXIT_FAIL : EXIT_OK;
}
