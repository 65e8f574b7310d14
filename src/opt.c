/* opt.c - the table-driven option parser and help printer (opt.h). One
 * place for the messages, so every command says the same thing alike. */
#include "opt.h"

#include "config.h"
#include "suggest.h"

#include "sched/ratelimit.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define MAX_NAMES 256

/* "freshet CMD: ..." or, for text from the config file (where is its
 * FILE:LINE), "freshet: FILE:LINE: ...". */
static void
say(const char *cmd, const char *where, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void
say(const char *cmd, const char *where, const char *fmt, ...)
{
	va_list ap;

	if (where)
		fprintf(stderr, "freshet: %s: ", where);
	else
		fprintf(stderr, "freshet %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* Does word (len bytes) name o, by its name or one of its old names? */
static int
names_opt(const struct opt *o, const char *word, size_t len)
{
	const char *p;

	if (strlen(o->name) == len && !strncmp(o->name, word, len))
		return 1;
	for (p = o->aliases; p && *p;) {
		size_t n = strcspn(p, " ");

		if (n == len && !strncmp(p, word, len))
			return 1;
		p += n;
		p += strspn(p, " ");
	}
	return 0;
}

static const char *
kind_arg(const struct opt *o, char *buf, size_t len)
{
	if (o->arg)
		return o->arg;
	switch (o->kind) {
	case OPT_UINT:
		return "N";
	case OPT_DOUBLE:
		return "X";
	case OPT_DURATION:
		return "D";
	case OPT_ENUM: {
		size_t used = 0;

		buf[0] = 0;
		for (size_t k = 0; o->choices && o->choices[k]; k++) {
			int w = snprintf(buf + used, len - used, "%s%s", k ? "|" : "", o->choices[k]);
			if (w < 0 || (size_t)w >= len - used)
				break;
			used += (size_t)w;
		}
		return buf;
	}
	default:
		return "VALUE";
	}
}

/* A number bound as text: 1, 0.5, 10000. */
static void
fmt_bound(char *buf, size_t len, double v)
{
	snprintf(buf, len, "%.10g", v);
}

/* What a bad value of o is told it wants. */
static const char *
kind_want(const struct opt *o, char *buf, size_t len)
{
	char lo[32], hi[32];
	int has_max = !(o->flags & OPT_NO_MAX) && o->max > o->min;
	const char *rel = o->flags & OPT_GT_MIN ? ">" : ">=";

	if (o->want)
		return o->want;
	fmt_bound(lo, sizeof(lo), o->min);
	fmt_bound(hi, sizeof(hi), o->max);
	switch (o->kind) {
	case OPT_UINT:
	case OPT_DOUBLE:
	case OPT_DURATION: {
		/* "a whole number 1..100", "a number from 0 to 1", "a duration
		 * from 1 to 60 seconds, like 15s or 2m"; unbounded: "a number >= 0". */
		int dur = o->kind == OPT_DURATION;
		const char *what = dur ? "a duration" : "a number";
		const char *like = dur ? ", like 15s or 2m" : "";

		if (o->kind == OPT_UINT)
			what = "a whole number";
		if (!has_max)
			snprintf(buf, len, "%s %s %s%s", what, rel, lo, like);
		else if (o->kind == OPT_UINT)
			snprintf(buf, len, "%s %s..%s", what, lo, hi);
		else
			snprintf(buf, len, "%s from %s to %s%s%s", what, lo, hi,
				 dur ? " seconds" : "", like);
		return buf;
	}
	case OPT_ENUM: {
		size_t used = 0, n = 0;

		while (o->choices && o->choices[n])
			n++;
		buf[0] = 0;
		for (size_t k = 0; k < n; k++) {
			int w = snprintf(buf + used, len - used, "%s%s",
					 k == 0 ? "" : k + 1 == n ? " or " : ", ", o->choices[k]);
			if (w < 0 || (size_t)w >= len - used)
				break;
			used += (size_t)w;
		}
		return buf;
	}
	default:
		return "a value";
	}
}

/* The option name as shown in a message: "--gap" as typed on the command
 * line; "gap" (the key) from the config file. */
static void
shown_name(char *buf, size_t len, const char *typed, size_t typed_len, const char *where)
{
	if (where) {
		while (typed_len && *typed == '-') {
			typed++;
			typed_len--;
		}
	}
	snprintf(buf, len, "%.*s", (int)(typed_len < len ? typed_len : len - 1), typed);
}

int
opt_bad_value(const char *cmd, const char *opt_name, const char *want, const char *val)
{
	const char *where = config_origin(val);
	char name[160];

	shown_name(name, sizeof(name), opt_name, strlen(opt_name), where);
	say(cmd, where, "%s wants %s, not '%s'", name, want, val);
	return -1;
}

static int
in_bounds(const struct opt *o, double v)
{
	if (o->flags & OPT_GT_MIN ? !(v > o->min) : !(v >= o->min))
		return 0;
	if (!(o->flags & OPT_NO_MAX) && o->max > o->min && v > o->max)
		return 0;
	return 1;
}

/* Converts val by o's kind into o->dest. Returns 0, -1 on a bad value
 * (not yet reported), or what an OPT_CALL handler returned: -2 (bad usage,
 * reported: OPT_CALL's -1) or -3 (a failure, reported). */
static int
store(const struct opt *o, const char *val)
{
	char *end;

	switch (o->kind) {
	case OPT_FLAG:
		*(int *)o->dest = 1;
		return 0;
	case OPT_STRING:
	case OPT_OPTVAL:
		*(const char **)o->dest = val;
		return 0;
	case OPT_UINT: {
		unsigned long long v;

		if (!isdigit((unsigned char)val[0]))
			return -1;
		errno = 0;
		v = strtoull(val, &end, 10);
		if (*end || errno || !in_bounds(o, (double)v))
			return -1;
		*(uint64_t *)o->dest = v;
		return 0;
	}
	case OPT_DOUBLE: {
		double v;

		if (!*val || isspace((unsigned char)val[0]))
			return -1;
		errno = 0;
		v = strtod(val, &end);
		if (*end || errno || !isfinite(v) || !in_bounds(o, v))
			return -1;
		*(double *)o->dest = v;
		return 0;
	}
	case OPT_DURATION: {
		double v;

		if (fr_duration_parse(val, &v) < 0 || !in_bounds(o, v))
			return -1;
		*(double *)o->dest = v;
		return 0;
	}
	case OPT_ENUM:
		for (size_t k = 0; o->choices && o->choices[k]; k++) {
			if (!strcmp(o->choices[k], val)) {
				*(int *)o->dest = o->values ? o->values[k] : (int)k;
				return 0;
			}
		}
		return -1;
	case OPT_CALL:
		switch (o->take(o->ctx, o, val)) {
		case 0:
			return 0;
		case -1:
			return -2;
		default:
			return -3;
		}
	case OPT_END:
		break;
	}
	return -1;
}

static int
takes_value(const struct opt *o)
{
	return o->kind != OPT_FLAG && o->kind != OPT_OPTVAL;
}

/* Reports the unknown option of argument a (the word is its name part). */
static void
unknown(const struct opt_cmd *c, const char *a, const char *word, size_t len)
{
	const char *names[MAX_NAMES], *near;
	const char *where = config_origin(a);
	char w[128];
	size_t n = 0;

	while (len && *word == '-') {
		word++;
		len--;
	}
	snprintf(w, sizeof(w), "%.*s", (int)(len < sizeof(w) ? len : sizeof(w) - 1), word);
	for (const struct opt *o = c->opts; o->kind != OPT_END && n < MAX_NAMES; o++)
		if (!(o->flags & OPT_HIDDEN))
			names[n++] = o->name;
	if (n < MAX_NAMES && !where)
		names[n++] = "help";
	near = cli_suggest(w, names, n);
	if (where)
		say(c->name, where, "unknown key '%s' in [%s]%s%s%s", w, c->name,
		    near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
	else if (near)
		say(c->name, NULL, "unknown option '%s' (did you mean --%s? try --help)", a, near);
	else
		say(c->name, NULL, "unknown option '%s' (try --help)", a);
}

static int
is_help(const char *a)
{
	return !strcmp(a, "--help") || !strcmp(a, "-h");
}

int
opt_parse(const struct opt_cmd *c, int argc, char **argv)
{
	const struct opt *o;
	char buf[256];
	int rc;

	/* --help wins wherever it stands. */
	for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
		if (is_help(argv[i])) {
			opt_help(c, stdout);
			return OPT_HELP_SHOWN;
		}
	}
	for (o = c->opts; o->kind != OPT_END; o++) {
		if (o->seen)
			*o->seen = 0;
		if (o->def && store(o, o->def) != 0) {
			/* A table's own default that its kind refuses: a bug. */
			say(c->name, NULL, "internal error: bad default '%s' of --%s", o->def,
			    o->name);
			return OPT_USAGE;
		}
	}
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *val = NULL, *word;
		const char *where = config_origin(a);
		size_t len;
		char name[160];

		if (!strcmp(a, "--")) {
			for (i++; i < argc; i++) {
				if (!c->positional) {
					say(c->name, NULL, "unexpected argument '%s' (try --help)", argv[i]);
					return OPT_USAGE;
				}
				if ((rc = c->positional(c->ctx, argv[i])) < 0)
					return rc == -1 ? OPT_USAGE : OPT_FAILED;
			}
			break;
		}
		if (a[0] != '-' || a[1] == '\0') {
			if (!c->positional) {
				say(c->name, where, "unexpected argument '%s' (try --help)", a);
				return OPT_USAGE;
			}
			if ((rc = c->positional(c->ctx, a)) < 0)
				return rc == -1 ? OPT_USAGE : OPT_FAILED;
			continue;
		}
		o = NULL;
		if (a[1] == '-') {
			word = a + 2;
			len = strcspn(word, "=");
			if (word[len] == '=')
				val = word + len + 1;
			for (const struct opt *p = c->opts; p->kind != OPT_END && !o; p++)
				if (names_opt(p, word, len))
					o = p;
		} else {
			word = a + 1;
			len = 1;
			if (a[2] != '\0')
				val = a + 2; /* -xVALUE */
			for (const struct opt *p = c->opts; p->kind != OPT_END && !o; p++)
				if (p->short_name && p->short_name == a[1])
					o = p;
		}
		if (!o) {
			unknown(c, a, a, a[1] == '-' ? (size_t)(word - a) + len : strlen(a));
			return OPT_USAGE;
		}
		shown_name(name, sizeof(name), a, (size_t)(word - a) + len, where);
		if (o->kind == OPT_FLAG && val) {
			say(c->name, where, "%s takes no value, not '%s'", name, val);
			return OPT_USAGE;
		}
		if (o->kind == OPT_OPTVAL && !val) {
			val = "";
			if (i + 1 < argc && (argv[i + 1][0] != '-' || !strcmp(argv[i + 1], "-")))
				val = argv[++i];
		}
		if (takes_value(o) && !val) {
			if (i + 1 >= argc) {
				say(c->name, where, "%s needs a value (try --help)", name);
				return OPT_USAGE;
			}
			val = argv[++i];
		}
		if (o->seen)
			*o->seen = 1;
		rc = store(o, val);
		if (rc == -2)
			return OPT_USAGE;
		if (rc == -3)
			return OPT_FAILED;
		if (rc < 0) {
			const char *vw = config_origin(val);

			shown_name(name, sizeof(name), a, (size_t)(word - a) + len, vw ? vw : where);
			say(c->name, vw ? vw : where, "%s wants %s, not '%s'", name,
			    kind_want(o, buf, sizeof(buf)), val);
			return OPT_USAGE;
		}
	}
	return 0;
}

int
opt_exit(int rc)
{
	return rc == OPT_HELP_SHOWN || rc == 0 ? 0 : rc == OPT_FAILED ? 1 : 2;
}

/* ---- help ---- */

#define WIDTH 79
#define TERM_COL 2  /* where an option's name starts */
#define TEXT_COL 24 /* where its help starts */

/* Writes text wrapped to WIDTH, the first line from column col (already
 * written), the others indented by indent. '\n' in text breaks a line;
 * blanks after it indent that line and its continuations further. */
static void
wrap(FILE *f, const char *text, int col, int indent)
{
	const char *p = text;

	for (;;) {
		size_t seg = strcspn(p, "\n");
		const char *q = p, *e = p + seg;
		int sub, at_start = 1;

		while (q < e && *q == ' ')
			q++;
		fprintf(f, "%*s", (int)(q - p), "");
		col += (int)(q - p);
		sub = indent + (int)(q - p);
		while (q < e) {
			size_t n = 0;

			while (q + n < e && q[n] != ' ')
				n++;
			if (!at_start && col + 1 + (int)n > WIDTH) {
				fprintf(f, "\n%*s", sub, "");
				col = sub;
				at_start = 1;
			}
			if (!at_start) {
				fputc(' ', f);
				col++;
			}
			fwrite(q, 1, n, f);
			col += (int)n;
			at_start = 0;
			q += n;
			while (q < e && *q == ' ')
				q++;
		}
		p = e;
		if (!*p)
			break;
		p++;
		fprintf(f, "\n%*s", indent, "");
		col = indent;
	}
	fputc('\n', f);
}

static void
print_opt(FILE *f, const struct opt *o)
{
	char term[160], abuf[160], text[2048];
	int n;

	if (o->short_name)
		n = snprintf(term, sizeof(term), "-%c, --%s", o->short_name, o->name);
	else
		n = snprintf(term, sizeof(term), "--%s", o->name);
	if (takes_value(o) && n > 0 && (size_t)n < sizeof(term))
		snprintf(term + n, sizeof(term) - (size_t)n, " %s", kind_arg(o, abuf, sizeof(abuf)));
	else if (o->kind == OPT_OPTVAL && n > 0 && (size_t)n < sizeof(term))
		snprintf(term + n, sizeof(term) - (size_t)n, " [%s]", o->arg ? o->arg : "VALUE");
	if (o->def)
		snprintf(text, sizeof(text), "%s (default %s)", o->help ? o->help : "", o->def);
	else
		snprintf(text, sizeof(text), "%s", o->help ? o->help : "");
	fprintf(f, "%*s%s", TERM_COL, "", term);
	n = TERM_COL + (int)strlen(term);
	if (n + 2 > TEXT_COL) {
		fprintf(f, "\n%*s", TEXT_COL, "");
	} else {
		fprintf(f, "%*s", TEXT_COL - n, "");
	}
	wrap(f, text, TEXT_COL, TEXT_COL);
}

void
opt_help(const struct opt_cmd *c, FILE *f)
{
	fputs(c->usage, f);
	if (c->about)
		fprintf(f, "\n%s", c->about);
	fprintf(f, "\noptions:\n");
	fprintf(f, "  -h, --help%*sshow this help\n", TEXT_COL - 12, "");
	for (const struct opt *o = c->opts; o->kind != OPT_END; o++) {
		if (o->flags & OPT_HIDDEN)
			continue;
		if (o->section)
			fprintf(f, "\n%s:\n", o->section);
		print_opt(f, o);
	}
	if (c->more)
		fprintf(f, "\n%s", c->more);
	if (c->examples)
		fprintf(f, "\nExamples:\n%s", c->examples);
	if (c->footer)
		fprintf(f, "\n%s", c->footer);
}

const char *const opt_mode_choices[] = {"burst", "paced", NULL};

int
opt_list_add(void *ctx, const char *arg)
{
	struct opt_list *l = ctx;

	if (l->n == l->cap) {
		size_t nc = l->cap ? 2 * l->cap : 16;
		const char **nv = realloc(l->v, nc * sizeof(*nv));

		if (!nv) {
			fprintf(stderr, "freshet: out of memory\n");
			return -2;
		}
		l->v = nv;
		l->cap = nc;
	}
	l->v[l->n++] = arg;
	return 0;
}

int
opt_list_take(void *ctx, const struct opt *o, const char *val)
{
	(void)o;
	return opt_list_add(ctx, val);
}

void
opt_list_free(struct opt_list *l)
{
	free(l->v);
	l->v = NULL;
	l->n = l->cap = 0;
}
