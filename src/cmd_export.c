/* cmd_export.c - PLACEHOLDER, replaced by its owner this session. */
#include "cmd.h"

int
cmd_export(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	cli_err("export", "not built yet");
	return EXIT_FAIL;
}
