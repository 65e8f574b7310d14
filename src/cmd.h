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

/* Prints "freshet SUB: message" to stderr. */
void cli_err(const char *sub, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
