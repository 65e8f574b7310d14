/* cmd.h - the subcommands of the freshet CLI. Each takes the arguments after
 * its name (argv[0] is the subcommand name) and returns the exit code:
 * 0 ok, 1 failure, 2 bad usage. Each prints its --help on stdout. */
#ifndef FR_CMD_H
#define FR_CMD_H

#include <stddef.h>

int cmd_world(int argc, char **argv);
int cmd_simulate(int argc, char **argv);
int cmd_tune(int argc, char **argv);
int cmd_plan(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_add(int argc, char **argv);
int cmd_remove(int argc, char **argv);
int cmd_sources(int argc, char **argv);
int cmd_items(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_parse(int argc, char **argv);
int cmd_serve(int argc, char **argv);
int cmd_discover(int argc, char **argv);
int cmd_extract(int argc, char **argv);

/* Exit codes. */
#define EXIT_OK 0
#define EXIT_FAIL 1
#define EXIT_USAGE 2

/* Takes the option argv[*i] when it is one of names[0..n) as "--x VALUE"
 * or "--x=VALUE": stores the value in *slots[k] (borrowed from argv) and
 * moves *i past it. Returns 0; or prints "freshet SUB: ..." and returns
 * EXIT_USAGE for an unknown argument or a missing value. */
int cli_take_option(const char *sub, const char *const *names, const char **const *slots,
		    size_t n, int argc, char **argv, int *i);

/* Reports the unknown option arg of command sub and returns EXIT_USAGE: "freshet
 * SUB: unknown option '--x' (did you mean --y? try --help)", the nearest of
 * the options usage names (every --word in it) when arg looks like a typo
 * of one; an option the config file set is named by its FILE:LINE instead. */
int cli_unknown_option(const char *sub, const char *arg, const char *usage);

/* Prints "freshet SUB: message" to stderr. */
void cli_err(const char *sub, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
