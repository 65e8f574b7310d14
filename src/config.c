/* config.c - the config file (config.h). Lines are `key = value`; a line
 * `[command]` starts the section of that command; keys before any section
 * are `db` (for every command that takes --db) and nothing else. A value
 * `true` gives a bare flag (`once = true` -> --once), `false` none; other
 * values are passed as `--key=value`, so that a value is never taken for
 * an argument of its own. Repeated keys repeat the option. The command's
 * option table (opt.c) checks keys and values, naming FILE:LINE. */
#include "config.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Commands that take --db, for a top-level `db = PATH`. */
static const char *const DB_COMMANDS[] = {"run",   "add",    "remove", "sources",
					  "items", "export", "discover", NULL};

static int
takes_db(const char *sub)
{
	for (size_t i = 0; DB_COMMANDS[i]; i++)
		if (!strcmp(DB_COMMANDS[i], sub))
			return 1;
	return 0;
}

static char *
trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = 0;
	return s;
}

static FILE *
open_config(char *path, size_t len)
{
	const char *env = getenv("FRESHET_CONFIG");
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
	FILE *f;

	if (env && *env) {
		snprintf(path, len, "%s", env);
		f = fopen(path, "r");
		if (!f)
			fprintf(stderr, "freshet: %s (FRESHET_CONFIG): cannot read it\n", path);
		return f ? f : (FILE *)-1;
	}
	snprintf(path, len, "freshet.conf");
	if ((f = fopen(path, "r")))
		return f;
	if (xdg && *xdg)
		snprintf(path, len, "%s/freshet/config", xdg);
	else if (home && *home)
		snprintf(path, len, "%s/.config/freshet/config", home);
	else
		return NULL;
	return fopen(path, "r");
}

/* Where each option the config file put on a command line came from, so
 * that an unknown one is named by FILE:LINE (config_origin). */
#define MAX_ORIGINS 256
static struct {
	const char *arg; /* the copy in the vector built by config_apply */
	char where[4200];
} origins[MAX_ORIGINS];
static int n_origins;

const char *
config_origin(const char *p)
{
	uintptr_t u = (uintptr_t)p;

	for (int k = 0; p && k < n_origins; k++) {
		uintptr_t a = (uintptr_t)origins[k].arg;

		if (u >= a && u <= a + strlen(origins[k].arg))
			return origins[k].where;
	}
	return NULL;
}

/* Appends a copy of s to the growing vector. */
static int
push(char ***v, int *n, int *cap, const char *s)
{
	if (*n + 1 >= *cap) {
		int nc = *cap ? *cap * 2 : 16;
		char **p = realloc(*v, (size_t)nc * sizeof(**v));
		if (!p)
			return -1;
		*v = p;
		*cap = nc;
	}
	if (!((*v)[(*n)++] = strdup(s)))
		return -1;
	(*v)[*n] = NULL;
	return 0;
}

int
config_apply(const char *sub, int argc, char **argv, int *out_argc, char ***out_argv)
{
	char path[4096], line[4096], section[64] = "";
	char **v = NULL;
	int n = 0, cap = 0, lineno = 0, rc = 0;
	FILE *f = open_config(path, sizeof(path));

	if (f == (FILE *)-1)
		return 2;
	if (push(&v, &n, &cap, argv[0]) < 0)
		goto oom;
	while (f && fgets(line, sizeof(line), f)) {
		char *s, *eq, *key, *val, opt[4200];

		lineno++;
		if (!strchr(line, '\n') && !feof(f)) {
			fprintf(stderr, "freshet: %s:%d: line too long\n", path, lineno);
			rc = 2;
			break;
		}
		s = trim(line);
		if (!*s || *s == '#' || *s == ';')
			continue;
		if (*s == '[') {
			char *e = strchr(s, ']');
			if (!e || e[1] || e - s - 1 <= 0 || (size_t)(e - s - 1) >= sizeof(section)) {
				fprintf(stderr, "freshet: %s:%d: a section is [command]\n", path, lineno);
				rc = 2;
				break;
			}
			*e = 0;
			snprintf(section, sizeof(section), "%s", trim(s + 1));
			continue;
		}
		if (!(eq = strchr(s, '='))) {
			fprintf(stderr, "freshet: %s:%d: expected key = value\n", path, lineno);
			rc = 2;
			break;
		}
		*eq = 0;
		key = trim(s);
		val = trim(eq + 1);
		if (!*key || strlen(key) > 120 || strspn(key, "abcdefghijklmnopqrstuvwxyz0123456789-") !=
							  strlen(key)) {
			fprintf(stderr, "freshet: %s:%d: bad key '%s' (an option name without --)\n",
				path, lineno, key);
			rc = 2;
			break;
		}
		if (!section[0]) {
			if (strcmp(key, "db") != 0) {
				fprintf(stderr,
					"freshet: %s:%d: '%s' outside a [command] section (only db may be)\n",
					path, lineno, key);
				rc = 2;
				break;
			}
			if (!takes_db(sub))
				continue;
		} else if (strcmp(section, sub) != 0) {
			continue;
		}
		if (!strcmp(val, "false"))
			continue;
		if (!strcmp(val, "true"))
			snprintf(opt, sizeof(opt), "--%s", key);
		else if (snprintf(opt, sizeof(opt), "--%s=%s", key, val) >= (int)sizeof(opt)) {
			fprintf(stderr, "freshet: %s:%d: value too long\n", path, lineno);
			rc = 2;
			break;
		}
		if (push(&v, &n, &cap, opt) < 0)
			goto oom;
		if (n_origins < MAX_ORIGINS) {
			origins[n_origins].arg = v[n - 1];
			snprintf(origins[n_origins].where, sizeof(origins[0].where), "%s:%d", path,
				 lineno);
			n_origins++;
		}
	}
	if (f)
		fclose(f);
	if (rc) {
		config_free_argv(n, v, argv);
		return rc;
	}
	/* The command line after the config's options: flags override. */
	for (int i = 1; i < argc; i++)
		if (push(&v, &n, &cap, argv[i]) < 0)
			goto oom;
	*out_argc = n;
	*out_argv = v;
	return 0;
oom:
	if (f)
		fclose(f);
	fprintf(stderr, "freshet: out of memory reading the config file\n");
	config_free_argv(n, v, argv);
	return 2;
}

void
config_free_argv(int argc, char **argv, char **orig)
{
	(void)orig;
	n_origins = 0;
	for (int i = 0; i < argc; i++)
		free(argv[i]);
	free(argv);
}
