/* cmd_parse.c - PLACEHOLDER, replaced by its owner this session. */
#include "cmd.h"

int
cmd_parse(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	cli_err("parse", "not built yet");
	return EXIT_FAIL;
}
