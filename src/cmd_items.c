/* cmd_items.c - `freshet items`: the stored items, oldest first, as JSON
 * Lines (feedparser's field names), CSV or a table. */
#include "cmd.h"
#include "dbopt.h"
#include "sfeed.h"

#include "core/err.h"
#include "core/timefmt.h"
#include "store/store.h"

#include <json-c/json.h>

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char USAGE[] =
    "usage: freshet items [--since TIME] [--source ID|URL] [--format jsonl|csv|table|sfeed]\n"
    "                     [--limit N] [--db PATH]\n"
    "\n"
    "Prints the stored items, oldest first by the time freshet first saw them.\n"
    "TIME is RFC 3339 (2024-05-01T00:00:00Z), Unix seconds, or an age: a number\n"
    "and s, m, h, d or w (90m, 2h, 3d, 1.5w) before now. Times printed are RFC 3339,\n"
    "UTC.\n"
    "\n"
    "formats:\n"
    "  jsonl   one JSON object a line (default), with feedparser's names: id,\n"
    "          source, source_id, link, title, author, published, updated,\n"
    "          first_seen, summary, content, enclosure {href, type, length}; a field\n"
    "          the item lacks is left out\n"
    "  csv     id,source,link,title,author,published,updated,first_seen,summary,\n"
    "          content,enclosure_url,enclosure_type,enclosure_length with a header,\n"
    "          RFC 4180 quoting\n"
    "  table   first seen, source id, title and link, for reading\n"
    "  sfeed   sfeed's TAB-separated lines (sfeed(5)): timestamp (published, else\n"
    "          updated), title, link, content (else summary), html, id, author,\n"
    "          enclosure, category; read by sfeed_plain, sfeed_curses, sfeed_mbox,\n"
    "          sfeed_html (e.g. freshet items --format sfeed | sfeed_plain)\n"
    "\n"
    "options:\n"
    "  --since TIME      items first seen at or after TIME\n"
    "  --source S        items of one source, by id or address\n"
    "  --format F        jsonl, csv, table or sfeed\n"
    "  --limit N         at most N items\n" DBOPT_HELP "  --help            show this help\n";

enum format { F_JSONL, F_CSV, F_TABLE, F_SFEED };

/* TIME: RFC 3339, Unix seconds, or an age before now ("2h"). Returns 0 and
 * *out, or -1 with *why (a predicate for "time 'x' ..."). */
static int
parse_since(const char *s, double now, double *out, const char **why)
{
	static const struct {
		char unit;
		double s;
	} units[] = {{'s', 1}, {'m', 60}, {'h', 3600}, {'d', 86400}, {'w', 7 * 86400}};
	size_t n = strlen(s);

	if (n >= 2 && strchr("smhdw", s[n - 1]) && s[0] >= '0' && s[0] <= '9') {
		char *end;
		double v;

		errno = 0;
		v = strtod(s, &end);
		if (end == s + n - 1 && errno == 0 && isfinite(v) && v >= 0) {
			for (size_t k = 0; k < sizeof(units) / sizeof(units[0]); k++)
				if (units[k].unit == s[n - 1])
					*out = now - v * units[k].s;
			return 0;
		}
	}
	if (fr_time_parse(s, n, out, why) < 0) {
		if (*why && strstr(*why, "neither"))
			*why = "is neither RFC 3339, Unix seconds nor an age like 2h or 3d";
		return -1;
	}
	return 0;
}

struct out {
	enum format fmt;
	size_t n;
};

static const char *
time_str(int64_t t, char *buf, size_t len)
{
	return t == INT64_MIN ? NULL : fr_time_format((double)t, buf, len);
}

static void
json_put_str(json_object *o, const char *key, const char *v)
{
	char *tmp;
	const char *s;

	if (!v)
		return; /* feedparser leaves out what an entry lacks */
	s = dbopt_utf8(v, &tmp);
	json_object_object_add(o, key, json_object_new_string(s));
	free(tmp);
}

static void
print_jsonl(const struct fr_store_item_row *r)
{
	const struct fr_store_item *it = &r->it;
	json_object *o = json_object_new_object();
	char t[32];

	json_put_str(o, "id", it->id);
	json_put_str(o, "source", r->source_url);
	json_object_object_add(o, "source_id", json_object_new_int64(r->source_id));
	json_put_str(o, "link", it->url);
	json_put_str(o, "title", it->title);
	json_put_str(o, "author", it->author);
	json_put_str(o, "published", time_str(it->published_s, t, sizeof(t)));
	json_put_str(o, "updated", time_str(it->updated_s, t, sizeof(t)));
	json_put_str(o, "first_seen", fr_time_format(r->first_seen_s, t, sizeof(t)));
	json_put_str(o, "summary", it->summary);
	json_put_str(o, "content", it->content);
	if (it->enclosure_url) {
		json_object *e = json_object_new_object();

		json_put_str(e, "href", it->enclosure_url);
		json_put_str(e, "type", it->enclosure_type);
		if (it->enclosure_length >= 0)
			json_object_object_add(e, "length",
			                       json_object_new_int64(it->enclosure_length));
		json_object_object_add(o, "enclosure", e);
	}
	dbopt_json_print(stdout, o);
	json_object_put(o);
}

static const char CSV_HEADER[] = "id,source,link,title,author,published,updated,first_seen,"
                                 "summary,content,enclosure_url,enclosure_type,enclosure_length\n";

static void
print_csv(const struct fr_store_item_row *r)
{
	const struct fr_store_item *it = &r->it;
	char t1[32], t2[32], t3[32];
	const char *f[] = {it->id,
	                   r->source_url,
	                   it->url,
	                   it->title,
	                   it->author,
	                   time_str(it->published_s, t1, sizeof(t1)),
	                   time_str(it->updated_s, t2, sizeof(t2)),
	                   fr_time_format(r->first_seen_s, t3, sizeof(t3)),
	                   it->summary,
	                   it->content,
	                   it->enclosure_url,
	                   it->enclosure_type};

	for (size_t k = 0; k < sizeof(f) / sizeof(f[0]); k++) {
		dbopt_csv_field(stdout, f[k]);
		putchar(',');
	}
	if (it->enclosure_length >= 0)
		printf("%lld", (long long)it->enclosure_length);
	putchar('\n');
}

#define TITLE_W 60

static void
print_table_row(const struct fr_store_item_row *r)
{
	char t[32];

	printf("%-20s  %6lld  ", fr_time_format(r->first_seen_s, t, sizeof(t)),
	       (long long)r->source_id);
	dbopt_cell(stdout, r->it.title ? r->it.title : "(no title)", TITLE_W, 1);
	fputs("  ", stdout);
	dbopt_cell(stdout, r->it.url ? r->it.url : r->it.id, 200, 0);
	putchar('\n');
}

static void
print_sfeed(const struct fr_store_item_row *r)
{
	const struct fr_store_item *it = &r->it;
	struct sfeed_item sf = {
	    .time_s = it->published_s != INT64_MIN ? it->published_s : it->updated_s,
	    .title = it->title,
	    .link = it->url,
	    .content = it->content ? it->content : it->summary,
	    .content_type = "html",
	    .id = it->id,
	    .author = it->author,
	    .enclosure = it->enclosure_url,
	};

	sfeed_write(stdout, &sf);
}

static int
each(void *arg, const struct fr_store_item_row *r)
{
	struct out *o = arg;

	if (o->fmt == F_JSONL)
		print_jsonl(r);
	else if (o->fmt == F_CSV)
		print_csv(r);
	else if (o->fmt == F_SFEED)
		print_sfeed(r);
	else
		print_table_row(r);
	o->n++;
	/* A closed pipe (| head) ends the listing. */
	return ferror(stdout) ? 1 : 0;
}

int
cmd_items(int argc, char **argv)
{
	const char *db = NULL, *since = NULL, *source = NULL, *format = "jsonl", *limit = NULL;
	const char *val, *why = NULL;
	struct out o = {F_JSONL, 0};
	struct fr_store *st;
	char err[FR_ERRLEN];
	double since_s = 0;
	int64_t source_id = 0;
	size_t max = 0;
	int rc;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *names[] = {"--db", "--since", "--source", "--format", "--limit"};
		const char **slots[] = {&db, &since, &source, &format, &limit};
		size_t k;

		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			fputs(USAGE, stdout);
			return EXIT_OK;
		}
		for (k = 0, rc = 0; k < sizeof(names) / sizeof(names[0]); k++) {
			rc = dbopt_value("items", names[k], argc, argv, &i, &val);
			if (rc != 0)
				break;
		}
		if (rc < 0)
			return EXIT_USAGE;
		if (rc == 0) {
			return cli_unknown_option("items", a, USAGE);
		}
		*slots[k] = val;
	}
	if (!strcmp(format, "jsonl")) {
		o.fmt = F_JSONL;
	} else if (!strcmp(format, "csv")) {
		o.fmt = F_CSV;
	} else if (!strcmp(format, "table")) {
		o.fmt = F_TABLE;
	} else if (!strcmp(format, "sfeed")) {
		o.fmt = F_SFEED;
	} else {
		cli_err("items", "unknown format '%s' (jsonl, csv, table or sfeed)", format);
		return EXIT_USAGE;
	}
	if (since && parse_since(since, (double)time(NULL), &since_s, &why) < 0) {
		cli_err("items", "--since: time '%s' %s", since, why ? why : "is not a time");
		return EXIT_USAGE;
	}
	if (since && since_s == 0)
		since_s = 1e-9; /* 0 means "all" to the store; the epoch itself is near enough */
	if (limit) {
		char *end;
		unsigned long long v;

		errno = 0;
		v = strtoull(limit, &end, 10);
		if (!*limit || *limit == '-' || *end || errno || v == 0) {
			cli_err("items", "--limit wants a whole number >= 1, not '%s'", limit);
			return EXIT_USAGE;
		}
		max = (size_t)v;
	}
	st = dbopt_open_flags("items", db, FR_STORE_READ_ONLY);
	if (!st)
		return EXIT_FAIL;
	if (source && fr_store_find_source(st, source, &source_id) < 0) {
		char shown[1024];
		cli_err("items", "--source: no source '%s' in %s", source,
			fr_store_display_name(dbopt_path(db), shown, sizeof(shown)));
		fr_store_close(st);
		return EXIT_FAIL;
	}
	if (o.fmt == F_CSV)
		fputs(CSV_HEADER, stdout);
	else if (o.fmt == F_TABLE)
		printf("%-20s  %6s  %-*s  %s\n", "FIRST SEEN", "SOURCE", TITLE_W, "TITLE", "LINK");
	rc = fr_store_each_item(st, since_s, source_id, max, each, &o, err, sizeof(err));
	fr_store_close(st);
	if (rc < 0) {
		cli_err("items", "%s", err);
		return EXIT_FAIL;
	}
	if (fflush(stdout) != 0 || ferror(stdout)) {
		cli_err("items", "write error on standard output");
		return EXIT_FAIL;
	}
	return EXIT_OK;
}
