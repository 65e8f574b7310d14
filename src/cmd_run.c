/* cmd_run.c - PLACEHOLDER, replaced by its owner this session. */
#include "cmd.h"

int
cmd_run(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	cli_err("run", "not built yet");
	return EXIT_FAIL;
}
