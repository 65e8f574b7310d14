/* cmd_remove.c - PLACEHOLDER, replaced by its owner this session. */
#include "cmd.h"

int
cmd_remove(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	cli_err("remove", "not built yet");
	return EXIT_FAIL;
}
