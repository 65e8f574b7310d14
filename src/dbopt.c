/* dbopt.c - the --db option and FRESHET_DB, shared by every command that
 * touches the store. */
#include "dbopt.h"

#include "cmd.h"
#include "core/err.h"
#include "core/utf8.h"
#include "store/store.h"

#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

const char *
dbopt_path(const char *arg)
{
	const char *env;

	if (arg)
		return arg;
	env = getenv("FRESHET_DB");
	return env && *env ? env : "freshet.db";
}

struct fr_store *
dbopt_open(const char *sub, const char *arg)
{
	return dbopt_open_flags(sub, arg, 0);
}

struct fr_store *
dbopt_open_flags(const char *sub, const char *arg, unsigned flags)
{
	struct fr_store *st = NULL;
	char err[FR_ERRLEN];

	if (fr_store_open_flags(&st, dbopt_path(arg), flags, err, sizeof(err)) < 0) {
		cli_err(sub, "%s", err);
		return NULL;
	}
	return st;
}

const char *
dbopt_utf8(const char *s, char **tmp)
{
	*tmp = NULL;
	if (!s)
		return NULL;
	if (fr_utf8_fix(s, tmp) < 0)
		return "";
	return *tmp ? *tmp : s;
}

/* A C1 control (U+0080..U+009F) at p, whose UTF-8 sequence is k bytes:
 * C2 80..C2 9F. A terminal reads U+009B as CSI, like ESC [. */
static int
is_c1(const unsigned char *p, size_t k)
{
	return k == 2 && p[0] == 0xC2 && p[1] < 0xA0;
}

void
dbopt_csv_field(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t k;

	if (!s)
		return;
	if (strpbrk(s, ",\"\r\n"))
		fputc('"', f);
	for (; *p; p += k) {
		k = fr_utf8_len(p);
		if (k == 0) {
			fputs("\xEF\xBF\xBD", f); /* invalid UTF-8: U+FFFD */
			k = 1;
		} else if (*p == '\r') {
			/* CR LF and a lone CR are one line end: LF (a CR alone
			 * would let a terminal write over the line) */
			fputc('\n', f);
			if (p[1] == '\n')
				k = 2;
		} else if (*p == '"') {
			fputs("\"\"", f);
		} else if ((*p < 0x20 && *p != '\t' && *p != '\n') || *p == 0x7F || is_c1(p, k)) {
			fputs("\xEF\xBF\xBD", f); /* a control character: U+FFFD */
		} else {
			fwrite(p, 1, k, f);
		}
	}
	if (strpbrk(s, ",\"\r\n"))
		fputc('"', f);
}

void
dbopt_cell(FILE *f, const char *s, size_t width, int pad)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t chars = 0, used = 0, room, k;
	int cut;

	/* Width in characters (code points), a fair guess at columns. */
	for (const unsigned char *q = p; *q; q += k ? k : 1) {
		k = fr_utf8_len(q);
		chars++;
	}
	cut = chars > width;
	room = cut ? (width >= 3 ? width - 3 : 0) : width;
	while (*p && used < room) {
		k = fr_utf8_len(p);
		if (k == 0) {
			fputs("\xEF\xBF\xBD", f);
			k = 1;
		} else if (*p < 0x20 || *p == 0x7F || is_c1(p, k)) {
			fputc(' ', f);
		} else {
			fwrite(p, 1, k, f);
		}
		used++;
		p += k;
	}
	if (cut && width >= 3) {
		fputs("...", f);
		used += 3;
	}
	while (pad && used < width) {
		fputc(' ', f);
		used++;
	}
}

void
dbopt_json_print(FILE *f, struct json_object *o)
{
	const unsigned char *p = (const unsigned char *)json_object_to_json_string_ext(
	    o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);

	/* json-c escapes C0 (\u001b) but writes DEL and C1 as they are: both
	 * can only be inside strings here, where \u escapes mean the same. */
	for (; *p; p++) {
		if (*p == 0x7F) {
			fputs("\\u007f", f);
		} else if (p[0] == 0xC2 && p[1] >= 0x80 && p[1] < 0xA0) {
			fprintf(f, "\\u%04x", (unsigned)p[1]);
			p++;
		} else {
			fputc(*p, f);
		}
	}
	fputc('\n', f);
}

void
dbopt_json_str(struct json_object *o, const char *key, const char *s)
{
	char *tmp;
	const char *v = dbopt_utf8(s, &tmp);

	json_object_object_add(o, key, v ? json_object_new_string(v) : NULL);
	free(tmp);
}
