/* cmd_sources.c - PLACEHOLDER, replaced by its owner this session. */
#include "cmd.h"

int
cmd_sources(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	cli_err("sources", "not built yet");
	return EXIT_FAIL;
}
