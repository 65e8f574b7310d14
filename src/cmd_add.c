/* cmd_add.c - PLACEHOLDER, replaced by its owner this session. */
#include "cmd.h"

int
cmd_add(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	cli_err("add", "not built yet");
	return EXIT_FAIL;
}
