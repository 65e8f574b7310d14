/* cmd_items.c - PLACEHOLDER, replaced by its owner this session. */
#include "cmd.h"

int
cmd_items(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	cli_err("items", "not built yet");
	return EXIT_FAIL;
}
