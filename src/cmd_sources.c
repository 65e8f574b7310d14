/* cmd_sources.c - `freshet sources`: the subscribed sources with their
 * crawl state, as an aligned table, JSON Lines or CSV. */
#include "cmd.h"
#include "dbopt.h"
#include "opt.h"

#include "api/source.h"
#include "api/spec.h"
#include "core/err.h"
#include "core/timefmt.h"
#include "store/store.h"

#include <json-c/json.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char USAGE[] = "usage: freshet sources [--format table|jsonl|csv] [--all] [--db PATH]\n";

static const char ABOUT[] =
    "Lists the sources in the store, by id: address, state, last fetch, last error,\n"
    "learned publishing rate per day, next due time and items stored. The state\n"
    "is one of: never fetched; backing off until TIME (after errors); error N (N\n"
    "errors in a row); redirected (a permanent redirect seen, not yet adopted);\n"
    "ok; removed (with --all). Times are RFC 3339, UTC.\n";

static const char MORE[] =
    "formats:\n"
    "  table   aligned columns for reading (default)\n"
    "  jsonl   one JSON object a line: id, url, kind, group, host, title, category,\n"
    "          state, last_fetch, last_status, last_error, last_error_time, errors,\n"
    "          backoff_until, redirect_url, rate_per_day, next_due, items, added,\n"
    "          active (null when unknown)\n"
    "          and for an API source (--kind api) \"api\": spec (the preset's or\n"
    "          spec's name), token (where it is read: env:VAR or file:PATH, never\n"
    "          the token), pages, and what the API last said: limit, remaining,\n"
    "          reset, window, usage_pct, hold_until, said_at (null when unknown)\n"
    "  csv     the same columns, with a header, RFC 4180 quoting; the api object's\n"
    "          fields as columns api_spec, api_token, api_pages, api_limit,\n"
    "          api_remaining, api_reset, api_window, api_usage_pct, api_hold_until,\n"
    "          api_said_at (empty for other sources; api_error when the settings\n"
    "          cannot be read)\n"
    "The table lists the API sources again below it, with the same facts.\n";

static const char EXAMPLES[] =
    "  freshet sources                           the table\n"
    "  freshet sources --format jsonl | jq -r 'select(.errors > 0) | .url'\n";

/* The state column. buf holds the "backing off until" text. */
static const char *
state_of(const struct fr_store_source *s, double now, char *buf, size_t len)
{
	char t[32];

	if (!s->active)
		return "removed";
	if (s->last_fetch_s == 0)
		return "never fetched";
	if (s->backoff_until_s > now) {
		snprintf(buf, len, "backing off until %s",
		         fr_time_format(s->backoff_until_s, t, sizeof(t)));
		return buf;
	}
	if (s->err_count > 0) {
		snprintf(buf, len, "error %d", s->err_count);
		return buf;
	}
	if (s->redirect_url)
		return "redirected";
	return "ok";
}

/* A time as RFC 3339, or NULL for 0 (never). */
static const char *
time_or_null(double t, char *buf, size_t len)
{
	return t != 0 ? fr_time_format(t, buf, len) : NULL;
}

/* An API source's settings (kind_state), or -1 when it is not one or they
 * cannot be read (err says why). */
static int
api_of(const struct fr_store_source *s, struct fr_api_source *a, char *name, size_t nlen,
       char *err, size_t errlen)
{
	struct fr_api_spec *sp;

	if (!s->kind || strcmp(s->kind, "api") != 0) {
		fr_api_source_init(a);
		err[0] = 0;
		return -1;
	}
	if (fr_api_source_parse(s->kind_state, s->kind_state_len, a, err, errlen) < 0)
		return -1;
	if (fr_api_spec_parse(a->spec, strlen(a->spec), &sp, err, errlen) < 0) {
		fr_api_source_clear(a);
		return -1;
	}
	snprintf(name, nlen, "%s", fr_api_spec_name(sp));
	fr_api_spec_free(sp);
	return 0;
}

static json_object *
num_or_null(double v)
{
	return v >= 0 ? json_object_new_double(v) : NULL;
}

static void
add_api_json(json_object *o, const struct fr_store_source *s)
{
	struct fr_api_source a;
	char name[128], err[512], t[32], tok[1100];
	json_object *j;

	if (api_of(s, &a, name, sizeof(name), err, sizeof(err)) < 0) {
		if (err[0]) {
			j = json_object_new_object();
			dbopt_json_str(j, "error", err);
			json_object_object_add(o, "api", j);
		}
		return;
	}
	j = json_object_new_object();
	dbopt_json_str(j, "spec", name);
	dbopt_json_str(j, "token", a.token_env || a.token_file ? fr_api_source_key(&a, NULL, tok, sizeof(tok)) : NULL);
	json_object_object_add(j, "pages", json_object_new_int(a.max_pages));
	json_object_object_add(j, "limit", num_or_null(a.limit));
	json_object_object_add(j, "remaining", num_or_null(a.remaining));
	dbopt_json_str(j, "reset", a.reset_at_s > 0 ? fr_time_format(a.reset_at_s, t, sizeof(t)) : NULL);
	json_object_object_add(j, "window", num_or_null(a.window_s));
	json_object_object_add(j, "usage_pct", num_or_null(a.usage_pct));
	dbopt_json_str(j, "hold_until", a.hold_until_s > 0 ? fr_time_format(a.hold_until_s, t, sizeof(t)) : NULL);
	dbopt_json_str(j, "said_at", a.learned_s > 0 ? fr_time_format(a.learned_s, t, sizeof(t)) : NULL);
	json_object_object_add(o, "api", j);
	fr_api_source_clear(&a);
}

/* Below the table: each API source's spec, group, token's place and what
 * its API last said. */
static void
print_api_lines(const struct fr_store_source *v, size_t n)
{
	int head = 0;

	for (size_t i = 0; i < n; i++) {
		struct fr_api_source a;
		char name[128], err[512], t[32], tok[1100];

		if (api_of(&v[i], &a, name, sizeof(name), err, sizeof(err)) < 0) {
			if (err[0])
				printf("%s%lld  %s\n", head++ ? "" : "\nAPI sources:\n", (long long)v[i].id, err);
			continue;
		}
		printf("%s%lld  spec %s  group %s  token %s  pages %d", head++ ? "" : "\nAPI sources:\n",
		       (long long)v[i].id, name, v[i].grp ? v[i].grp : "default",
		       a.token_env || a.token_file ? fr_api_source_key(&a, NULL, tok, sizeof(tok)) : "none",
		       a.max_pages);
		if (a.learned_s > 0) {
			printf("  API said at %s:", fr_time_format(a.learned_s, t, sizeof(t)));
			if (a.remaining >= 0)
				printf(" %.0f", a.remaining);
			else
				printf(" ?");
			if (a.limit >= 0)
				printf(" of %.0f", a.limit);
			printf(" calls left");
			if (a.window_s > 0)
				printf(" (window %.0f s)", a.window_s);
			if (a.usage_pct >= 0)
				printf(", usage %.0f%%", a.usage_pct);
			if (a.reset_at_s > 0)
				printf(", reset %s", fr_time_format(a.reset_at_s, t, sizeof(t)));
			if (a.hold_until_s > 0)
				printf(", no call before %s", fr_time_format(a.hold_until_s, t, sizeof(t)));
		} else {
			printf("  API said nothing yet");
		}
		putchar('\n');
		fr_api_source_clear(&a);
	}
}

static void
print_jsonl(const struct fr_store_source *s, const char *state)
{
	json_object *o = json_object_new_object();
	char t[32];

	json_object_object_add(o, "id", json_object_new_int64(s->id));
	dbopt_json_str(o, "url", s->url);
	dbopt_json_str(o, "kind", s->kind);
	dbopt_json_str(o, "group", s->grp);
	dbopt_json_str(o, "host", s->host);
	dbopt_json_str(o, "title", s->title);
	dbopt_json_str(o, "category", s->category);
	dbopt_json_str(o, "state", state);
	dbopt_json_str(o, "last_fetch", time_or_null(s->last_fetch_s, t, sizeof(t)));
	json_object_object_add(o, "last_status",
	                       s->last_status ? json_object_new_int64(s->last_status) : NULL);
	dbopt_json_str(o, "last_error", s->last_error);
	dbopt_json_str(o, "last_error_time", time_or_null(s->last_error_s, t, sizeof(t)));
	json_object_object_add(o, "errors", json_object_new_int(s->err_count));
	dbopt_json_str(o, "backoff_until", time_or_null(s->backoff_until_s, t, sizeof(t)));
	dbopt_json_str(o, "redirect_url", s->redirect_url);
	json_object_object_add(o, "rate_per_day",
	                       s->rate_per_day > 0 ? json_object_new_double(s->rate_per_day)
	                                           : NULL);
	dbopt_json_str(o, "next_due", time_or_null(s->next_due_s, t, sizeof(t)));
	json_object_object_add(o, "items", json_object_new_int64(s->n_items));
	dbopt_json_str(o, "added", time_or_null(s->added_s, t, sizeof(t)));
	json_object_object_add(o, "active", json_object_new_boolean(s->active));
	add_api_json(o, s);
	dbopt_json_print(stdout, o);
	json_object_put(o);
}

static const char CSV_HEADER[] =
    "id,url,kind,group,host,title,category,state,last_fetch,last_status,last_error,"
    "last_error_time,errors,backoff_until,redirect_url,rate_per_day,next_due,items,added,"
    "active,api_spec,api_token,api_pages,api_limit,api_remaining,api_reset,api_window,"
    "api_usage_pct,api_hold_until,api_said_at,api_error\n";

/* ,NUMBER or , (unknown). */
static void
csv_num(double v)
{
	if (v >= 0)
		printf(",%.17g", v);
	else
		putchar(',');
}

/* ,TIME or , (unknown). */
static void
csv_time(double v)
{
	char t[32];

	putchar(',');
	if (v > 0)
		dbopt_csv_field(stdout, fr_time_format(v, t, sizeof(t)));
}

/* The api_ columns: an API source's spec name, where its token is read
 * (never the token), pages and what its API last said. */
static void
csv_api(const struct fr_store_source *s)
{
	struct fr_api_source a;
	char name[128], err[512], tok[1100];

	if (api_of(s, &a, name, sizeof(name), err, sizeof(err)) < 0) {
		fputs(",,,,,,,,,,,", stdout);
		if (err[0])
			dbopt_csv_field(stdout, err);
		return;
	}
	putchar(',');
	dbopt_csv_field(stdout, name);
	putchar(',');
	if (a.token_env || a.token_file)
		dbopt_csv_field(stdout, fr_api_source_key(&a, NULL, tok, sizeof(tok)));
	printf(",%d", a.max_pages);
	csv_num(a.limit);
	csv_num(a.remaining);
	csv_time(a.reset_at_s);
	csv_num(a.window_s);
	csv_num(a.usage_pct);
	csv_time(a.hold_until_s);
	csv_time(a.learned_s);
	putchar(',');
	fr_api_source_clear(&a);
}

static void
print_csv(const struct fr_store_source *s, const char *state)
{
	const char *strs[] = {s->url, s->kind, s->grp, s->host, s->title, s->category, state};
	char t[32];

	printf("%lld", (long long)s->id);
	for (size_t k = 0; k < sizeof(strs) / sizeof(strs[0]); k++) {
		putchar(',');
		dbopt_csv_field(stdout, strs[k]);
	}
	putchar(',');
	dbopt_csv_field(stdout, time_or_null(s->last_fetch_s, t, sizeof(t)));
	if (s->last_status)
		printf(",%ld,", s->last_status);
	else
		fputs(",,", stdout);
	dbopt_csv_field(stdout, s->last_error);
	putchar(',');
	dbopt_csv_field(stdout, time_or_null(s->last_error_s, t, sizeof(t)));
	printf(",%d,", s->err_count);
	dbopt_csv_field(stdout, time_or_null(s->backoff_until_s, t, sizeof(t)));
	putchar(',');
	dbopt_csv_field(stdout, s->redirect_url);
	if (s->rate_per_day > 0)
		printf(",%.6g,", s->rate_per_day);
	else
		fputs(",,", stdout);
	dbopt_csv_field(stdout, time_or_null(s->next_due_s, t, sizeof(t)));
	printf(",%lld,", (long long)s->n_items);
	dbopt_csv_field(stdout, time_or_null(s->added_s, t, sizeof(t)));
	printf(",%d", s->active);
	csv_api(s);
	putchar('\n');
}

enum { C_ID, C_STATE, C_FETCH, C_RATE, C_DUE, C_ITEMS, C_URL, C_ERROR, N_COL };

static const char *const HEAD[N_COL] = {"ID",       "STATE", "LAST FETCH", "RATE/DAY",
                                        "NEXT DUE", "ITEMS", "ADDRESS",    "LAST ERROR"};

/* The cells of one row, in bufs. */
static void
table_cells(const struct fr_store_source *s, double now, char bufs[N_COL][96],
            const char *cell[N_COL])
{
	char t[32];

	snprintf(bufs[C_ID], 96, "%lld", (long long)s->id);
	cell[C_ID] = bufs[C_ID];
	cell[C_STATE] = state_of(s, now, bufs[C_STATE], 96);
	cell[C_FETCH] = s->last_fetch_s ? fr_time_format(s->last_fetch_s, bufs[C_FETCH], 96) : "-";
	if (s->rate_per_day > 0)
		snprintf(bufs[C_RATE], 96, "%.2f", s->rate_per_day);
	else
		snprintf(bufs[C_RATE], 96, "-");
	cell[C_RATE] = bufs[C_RATE];
	cell[C_DUE] = s->next_due_s ? fr_time_format(s->next_due_s, t, sizeof(t)) : "-";
	snprintf(bufs[C_DUE], 96, "%s", cell[C_DUE]);
	cell[C_DUE] = bufs[C_DUE];
	snprintf(bufs[C_ITEMS], 96, "%lld", (long long)s->n_items);
	cell[C_ITEMS] = bufs[C_ITEMS];
	cell[C_URL] = s->url ? s->url : "";
	cell[C_ERROR] = s->err_count > 0 || s->last_error_s > s->last_ok_s
	                    ? (s->last_error ? s->last_error : "")
	                    : "";
}

#define URL_MAX 70   /* characters of an address shown in the table */
#define ERROR_MAX 60 /* characters of an error shown */

static void
print_table(const struct fr_store_source *v, size_t n, double now)
{
	size_t w[N_COL];
	char bufs[N_COL][96];
	const char *cell[N_COL];

	for (int c = 0; c < N_COL; c++)
		w[c] = strlen(HEAD[c]);
	for (size_t i = 0; i < n; i++) {
		table_cells(&v[i], now, bufs, cell);
		for (int c = 0; c < N_COL - 1; c++) {
			size_t k = strlen(cell[c]);

			if (c == C_URL && k > URL_MAX)
				k = URL_MAX;
			if (k > w[c])
				w[c] = k;
		}
	}
	for (int c = 0; c < N_COL; c++) {
		dbopt_cell(stdout, HEAD[c], w[c], c < N_COL - 1);
		fputs(c < N_COL - 1 ? "  " : "\n", stdout);
	}
	for (size_t i = 0; i < n; i++) {
		table_cells(&v[i], now, bufs, cell);
		for (int c = 0; c < N_COL; c++) {
			int right = c == C_ID || c == C_RATE || c == C_ITEMS;

			if (right)
				printf("%*s", (int)w[c], cell[c]);
			else
				dbopt_cell(stdout, cell[c], c == C_ERROR ? ERROR_MAX : w[c],
				           c < N_COL - 1);
			fputs(c < N_COL - 1 ? "  " : "\n", stdout);
		}
	}
}

int
cmd_sources(int argc, char **argv)
{
	static const char *const FORMATS[] = {"table", "jsonl", "csv", NULL};
	const char *db = NULL, *format;
	struct fr_store_source *v = NULL;
	struct fr_store *st;
	char err[FR_ERRLEN], buf[96];
	size_t n = 0;
	int all = 0, fmt, rc;
	double now = (double)time(NULL);
	const struct opt opts[] = {
	    {.name = "format", .kind = OPT_ENUM, .arg = "F", .choices = FORMATS, .def = "table",
	     .dest = &fmt, .help = "table, jsonl or csv"},
	    {.name = "all", .kind = OPT_FLAG, .dest = &all, .help = "include removed sources"},
	    OPT_DB(&db),
	    OPT_TABLE_END};
	const struct opt_cmd cmd = {.name = "sources", .usage = USAGE, .about = ABOUT,
				    .opts = opts, .more = MORE, .examples = EXAMPLES};

	if ((rc = opt_parse(&cmd, argc, argv)) != 0)
		return opt_exit(rc);
	format = FORMATS[fmt];
	st = dbopt_open_flags("sources", db, FR_STORE_READ_ONLY);
	if (!st)
		return EXIT_FAIL;
	rc = all ? fr_store_load_all_sources(st, &v, &n, err, sizeof(err))
	         : fr_store_load_sources(st, &v, &n, err, sizeof(err));
	fr_store_close(st);
	if (rc < 0) {
		cli_err("sources", "%s", err);
		return EXIT_FAIL;
	}
	if (!strcmp(format, "table")) {
		print_table(v, n, now);
		print_api_lines(v, n);
	} else if (!strcmp(format, "csv")) {
		fputs(CSV_HEADER, stdout);
		for (size_t i = 0; i < n; i++)
			print_csv(&v[i], state_of(&v[i], now, buf, sizeof(buf)));
	} else {
		for (size_t i = 0; i < n; i++)
			print_jsonl(&v[i], state_of(&v[i], now, buf, sizeof(buf)));
	}
	fr_store_sources_free(v, n);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		cli_err("sources", "write error on standard output");
		return EXIT_FAIL;
	}
	return EXIT_OK;
}
