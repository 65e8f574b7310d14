/* config.h - the config file: defaults for any command's options, read
 * before the command line so that flags override them (docs/crawl.md). */
#ifndef FR_CONFIG_H
#define FR_CONFIG_H

/* Builds the argument vector command `sub` runs with: argv[0], then the
 * options the config file sets for sub, then argv[1..]. The file is
 * $FRESHET_CONFIG, else ./freshet.conf, else
 * ${XDG_CONFIG_HOME:-$HOME/.config}/freshet/config, whichever exists first
 * (none is fine). Returns 0 and sets *out_argc and *out_argv (free with
 * config_free_argv; argv's own strings are borrowed), or prints
 * "freshet: FILE:LINE: reason" and returns 2. */
int config_apply(const char *sub, int argc, char **argv, int *out_argc, char ***out_argv);
void config_free_argv(int argc, char **argv, char **orig);

/* "FILE:LINE" of the config file line that put the option p points into
 * (an argument of the vector config_apply built, or its value after '=')
 * on the command line, or NULL when it came from the command line itself. */
const char *config_origin(const char *p);

#endif
