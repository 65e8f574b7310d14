/* fuzz_config.c - libFuzzer harness for the config file (src/config.h): the
 * input is written to a scratch file named by FRESHET_CONFIG and applied for
 * three commands. Promises: the result is 0 or 2; on 0 the vector starts with
 * argv[0], ends with the command line's own arguments in order, holds only
 * "--key" or "--key=VALUE" options (key: lower case, digits, '-'; VALUE:
 * anything), one argument each, and is NULL-terminated. src/config.c is compiled in (it lives in the CLI,
 * not the library). Without FR_LIBFUZZER, replay.c's main replays the seeds. */
#include "../src/config.c"

#include <stdint.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define REQUIRE(c)                                                                                 \
	do {                                                                                       \
		if (!(c)) {                                                                        \
			fprintf(stderr, "fuzz_config: broken promise: %s (%s:%d)\n", #c, __FILE__, \
			        __LINE__);                                                         \
			abort();                                                                   \
		}                                                                                  \
	} while (0)

static void
check_one(const char *sub)
{
	char a0[] = "freshet", a1[] = "--tail-arg", a2[] = "last";
	char *argv[] = {a0, a1, a2, NULL};
	char **out = NULL;
	int n = -1, rc = config_apply(sub, 3, argv, &n, &out);

	REQUIRE(rc == 0 || rc == 2);
	if (rc != 0)
		return;
	REQUIRE(n >= 3 && out && out[n] == NULL);
	REQUIRE(!strcmp(out[0], "freshet"));
	REQUIRE(!strcmp(out[n - 2], "--tail-arg") && !strcmp(out[n - 1], "last"));
	for (int i = 1; i < n - 2; i++) {
		REQUIRE(out[i] != NULL);
		size_t k = strlen(out[i]);

		size_t key = strspn(out[i] + (k > 2 ? 2 : k), "abcdefghijklmnopqrstuvwxyz0123456789-");

		/* "--key", or "--key=VALUE" with any VALUE ("--x" too) */
		REQUIRE(k > 2 && !strncmp(out[i], "--", 2) && key > 0);
		REQUIRE(out[i][2 + key] == '\0' || out[i][2 + key] == '=');
	}
	config_free_argv(n, out, argv);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *tmp = getenv("TMPDIR");
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/fuzz_config.%ld", tmp && *tmp ? tmp : "/tmp", (long)getpid());
	f = fopen(path, "wb");
	if (!f)
		return 0;
	if (size)
		fwrite(data, 1, size, f);
	fclose(f);
	setenv("FRESHET_CONFIG", path, 1);
	check_one("run");
	check_one("discover");
	check_one("parse");
	unlink(path);
	return 0;
}
