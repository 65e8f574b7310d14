/* cmd_serve.c - PLACEHOLDER, replaced by its owner this session. */
#include "cmd.h"

int
cmd_serve(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	cli_err("serve", "not built yet");
	return EXIT_FAIL;
}
