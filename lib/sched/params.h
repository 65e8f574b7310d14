/* params.h - policy parameters as written on the command line:
 * "name:key=value:key=value". A policy takes the keys it knows; a key nobody
 * took is an error, so typos never pass silently. */
#ifndef FR_SCHED_PARAMS_H
#define FR_SCHED_PARAMS_H

#include <stddef.h>

#define FR_PARAMS_MAX 16

struct fr_param {
	char key[32];
	char val[64];
	int used;     /* taken by a policy or the scheduler */
	int defaulted; /* not given: filled in with the default by a getter */
};

struct fr_params {
	char name[48]; /* policy name */
	int n;
	struct fr_param kv[FR_PARAMS_MAX];
};

/* Parses one policy spec "name[:k=v]...". Returns 0, or -1 with err set. */
int fr_params_parse(struct fr_params *p, const char *spec, char *err, size_t errlen);

/* Takes key as a number in [lo, hi]; absent keys get def (recorded as a
 * defaulted entry so it shows in reports). Returns 0 or -1 with err set. */
int fr_params_double(struct fr_params *p, const char *key, double def, double lo, double hi,
		     double *out, char *err, size_t errlen);

/* Takes key as a string; absent keys give def. Returns a borrowed pointer
 * valid while p lives, or def. */
const char *fr_params_str(struct fr_params *p, const char *key, const char *def);

/* Returns 0 when every given key was taken, else -1 with err naming it. */
int fr_params_check_used(const struct fr_params *p, char *err, size_t errlen);

/* Writes "name:k=v:k=v" (given keys only, or all with defaults when
 * with_defaults) into buf. Returns buf. */
char *fr_params_format(const struct fr_params *p, int with_defaults, char *buf, size_t len);

#endif
