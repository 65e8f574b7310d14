/* params.c - parsing and taking policy parameters. */
#include "sched/params.h"

#include "core/err.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int
copy_field(char *dst, size_t cap, const char *s, size_t n)
{
	if (n == 0 || n >= cap)
		return -1;
	memcpy(dst, s, n);
	dst[n] = '\0';
	return 0;
}

int
fr_params_parse(struct fr_params *p, const char *spec, char *err, size_t errlen)
{
	const char *s = spec, *colon = strchr(spec, ':');
	size_t n = colon ? (size_t)(colon - s) : strlen(s);

	memset(p, 0, sizeof(*p));
	if (copy_field(p->name, sizeof(p->name), s, n) < 0)
		return fr_errf(err, errlen, "policy '%s': bad or empty name", spec);
	while (colon) {
		s = colon + 1;
		colon = strchr(s, ':');
		n = colon ? (size_t)(colon - s) : strlen(s);
		const char *eq = memchr(s, '=', n);
		if (!eq)
			return fr_errf(err, errlen, "policy '%s': parameter '%.*s' lacks '=value'", spec,
				       (int)n, s);
		if (p->n == FR_PARAMS_MAX)
			return fr_errf(err, errlen, "policy '%s': more than %d parameters", spec,
				       FR_PARAMS_MAX);
		struct fr_param *kv = &p->kv[p->n];
		if (copy_field(kv->key, sizeof(kv->key), s, (size_t)(eq - s)) < 0 ||
		    copy_field(kv->val, sizeof(kv->val), eq + 1, n - (size_t)(eq - s) - 1) < 0)
			return fr_errf(err, errlen, "policy '%s': bad parameter '%.*s'", spec, (int)n,
				       s);
		for (int i = 0; i < p->n; i++)
			if (!strcmp(p->kv[i].key, kv->key))
				return fr_errf(err, errlen, "policy '%s': parameter '%s' given twice",
					       spec, kv->key);
		p->n++;
	}
	return 0;
}

static struct fr_param *
find(struct fr_params *p, const char *key)
{
	for (int i = 0; i < p->n; i++)
		if (!strcmp(p->kv[i].key, key))
			return &p->kv[i];
	return NULL;
}

static void
add_default(struct fr_params *p, const char *key, const char *val)
{
	if (p->n == FR_PARAMS_MAX)
		return;
	struct fr_param *kv = &p->kv[p->n++];
	snprintf(kv->key, sizeof(kv->key), "%s", key);
	snprintf(kv->val, sizeof(kv->val), "%s", val);
	kv->used = 1;
	kv->defaulted = 1;
}

int
fr_params_double(struct fr_params *p, const char *key, double def, double lo, double hi,
		 double *out, char *err, size_t errlen)
{
	struct fr_param *kv = find(p, key);
	char buf[64];

	if (!kv) {
		snprintf(buf, sizeof(buf), "%g", def);
		add_default(p, key, buf);
		*out = def;
		return 0;
	}
	kv->used = 1;
	char *end;
	errno = 0;
	double v = strtod(kv->val, &end);
	if (errno || end == kv->val || *end || !isfinite(v))
		return fr_errf(err, errlen, "policy '%s': %s='%s' is not a number", p->name, key,
			       kv->val);
	if (v < lo || v > hi)
		return fr_errf(err, errlen, "policy '%s': %s=%g is outside [%g, %g]", p->name, key,
			       v, lo, hi);
	*out = v;
	return 0;
}

const char *
fr_params_str(struct fr_params *p, const char *key, const char *def)
{
	struct fr_param *kv = find(p, key);

	if (!kv) {
		if (def)
			add_default(p, key, def);
		return def;
	}
	kv->used = 1;
	return kv->val;
}

int
fr_params_check_used(const struct fr_params *p, char *err, size_t errlen)
{
	for (int i = 0; i < p->n; i++)
		if (!p->kv[i].used)
			return fr_errf(err, errlen, "policy '%s' has no parameter '%s'", p->name,
				       p->kv[i].key);
	return 0;
}

char *
fr_params_format(const struct fr_params *p, int with_defaults, char *buf, size_t len)
{
	size_t off = (size_t)snprintf(buf, len, "%s", p->name);

	for (int i = 0; i < p->n && off < len; i++) {
		if (p->kv[i].defaulted && !with_defaults)
			continue;
		off += (size_t)snprintf(buf + off, len - off, ":%s=%s", p->kv[i].key,
					p->kv[i].val);
	}
	return buf;
}
