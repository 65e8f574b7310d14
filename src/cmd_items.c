/* cmd_items.c - `freshet items`: the stored items in the order they were
 * stored (their seq), as JSON Lines (feedparser's field names), CSV, a
 * table or sfeed's TSV; after a seq, and following new ones as they come. */
#include "cmd.h"
#include "dbopt.h"
#include "opt.h"
#include "sfeed.h"

#include "core/err.h"
#include "core/timefmt.h"
#include "store/store.h"

#include <json-c/json.h>

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char USAGE[] =
    "usage: freshet items [--after SEQ | --cursor FILE] [--follow] [--since TIME]\n"
    "                     [--source ID|URL] [--lang CODE]\n"
    "                     [--format jsonl|csv|table|sfeed] [--limit N] [--db PATH]\n"
    "       freshet items --last-seq [--db PATH]\n";

static const char ABOUT[] =
    "Prints the stored items, oldest first: in the order freshet stored them, by\n"
    "their seq, a number every item gets when it is stored and that only grows\n"
    "(in PostgreSQL with several workers too: a higher seq is never visible before\n"
    "a lower one). The new items of one fetch come oldest first (by published time,\n"
    "else in the reverse of the feed's order). TIME is RFC 3339\n"
    "(2024-05-01T00:00:00Z), Unix seconds, or an age: a number and s, m, h, d or w\n"
    "(90m, 2h, 3d, 1.5w) before now. Times printed are RFC 3339, UTC.\n"
    "\n"
    "A program that polls asks for the items after the last seq it saw: from the\n"
    "jsonl field seq, or with --cursor FILE, which keeps it in FILE for the next\n"
    "call. It gets every item once, none missed, none repeated.\n";

static const char MORE[] =
    "formats:\n"
    "  jsonl   one JSON object a line (default), with feedparser's names: id,\n"
    "          source, source_id, link, title, author, published, updated,\n"
    "          first_seen, summary, content, enclosure {href, type, length},\n"
    "          language (declared by the item or its feed: \"en\"),\n"
    "          language_detected (read from its text: \"en\", \"zh-Hant\") and seq;\n"
    "          a field the item lacks is left out\n"
    "  csv     id,source,link,title,author,published,updated,first_seen,summary,\n"
    "          content,enclosure_url,enclosure_type,enclosure_length,seq,language,\n"
    "          language_detected with a header, RFC 4180 quoting\n"
    "  table   seq, first seen, source id, language (detected, else declared),\n"
    "          title and link, for reading\n"
    "  sfeed   sfeed's TAB-separated lines (sfeed(5)): timestamp (published, else\n"
    "          updated), title, link, content (else summary), html, id, author,\n"
    "          enclosure, category; read by sfeed_plain, sfeed_curses, sfeed_mbox,\n"
    "          sfeed_html (e.g. freshet items --format sfeed | sfeed_plain)\n";

static const char EXAMPLES[] =
    "  freshet items --since 2h --format table   the last two hours, to read\n"
    "  freshet items --cursor seen.cur           each item once, for a program\n"
    "  freshet items --lang de --format table    the items written in German\n"
    "  freshet items --follow --after $(freshet items --last-seq)\n"
    "                                            the items to come, as they come\n";

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
	int64_t last_seq; /* of the last item printed */
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
	json_put_str(o, "language", it->lang);
	json_put_str(o, "language_detected", it->lang_detected);
	if (it->enclosure_url) {
		json_object *e = json_object_new_object();

		json_put_str(e, "href", it->enclosure_url);
		json_put_str(e, "type", it->enclosure_type);
		if (it->enclosure_length >= 0)
			json_object_object_add(e, "length",
			                       json_object_new_int64(it->enclosure_length));
		json_object_object_add(o, "enclosure", e);
	}
	json_object_object_add(o, "seq", json_object_new_int64(r->seq));
	dbopt_json_print(stdout, o);
	json_object_put(o);
}

static const char CSV_HEADER[] = "id,source,link,title,author,published,updated,first_seen,"
                                 "summary,content,enclosure_url,enclosure_type,enclosure_length,seq,"
                                 "language,language_detected\n";

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
	printf(",%lld,", (long long)r->seq);
	dbopt_csv_field(stdout, it->lang);
	putchar(',');
	dbopt_csv_field(stdout, it->lang_detected);
	putchar('\n');
}

#define TITLE_W 60
#define LANG_W 7 /* "zh-Hant" */

static void
print_table_row(const struct fr_store_item_row *r)
{
	char t[32];

	const char *lang = r->it.lang_detected ? r->it.lang_detected : r->it.lang;

	printf("%8lld  %-20s  %6lld  ", (long long)r->seq,
	       fr_time_format(r->first_seen_s, t, sizeof(t)), (long long)r->source_id);
	dbopt_cell(stdout, lang ? lang : "-", LANG_W, 1);
	fputs("  ", stdout);
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
	o->last_seq = r->seq;
	/* A closed pipe (| head) ends the listing. */
	return ferror(stdout) ? 1 : 0;
}

/* --follow: a signal to end on, kept by the handler. */
static volatile sig_atomic_t stop_sig;

static void
on_stop(int sig)
{
	stop_sig = sig;
}

/* The seq kept in a cursor file: 0 when the file does not exist yet.
 * Returns 0, or -1 (said why). */
static int
read_cursor(const char *path, int64_t *seq)
{
	FILE *f = fopen(path, "r");
	char buf[64], *end;
	long long v;

	*seq = 0;
	if (!f) {
		if (errno == ENOENT)
			return 0;
		cli_err("items", "--cursor: %s: %s", path, strerror(errno));
		return -1;
	}
	if (!fgets(buf, sizeof(buf), f)) {
		fclose(f);
		cli_err("items", "--cursor: %s: empty, not a seq", path);
		return -1;
	}
	fclose(f);
	errno = 0;
	v = strtoll(buf, &end, 10);
	while (*end == '\n' || *end == '\r' || *end == ' ')
		end++;
	if (end == buf || *end || errno || v < 0) {
		buf[strcspn(buf, "\r\n")] = '\0';
		cli_err("items", "--cursor: %s:1: '%s' is not a seq (a whole number >= 0)", path,
		        buf);
		return -1;
	}
	*seq = v;
	return 0;
}

/* Replaces path's content by seq, through a temporary file renamed over
 * it: a reader (or a crash) sees the old number or the new, never half. */
static int
write_cursor(const char *path, int64_t seq)
{
	char tmp[4096];
	FILE *f;
	int ok;

	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp%ld", path, (long)getpid()) >= sizeof(tmp)) {
		cli_err("items", "--cursor: %s: name too long", path);
		return -1;
	}
	f = fopen(tmp, "w");
	if (!f) {
		cli_err("items", "--cursor: %s: %s", tmp, strerror(errno));
		return -1;
	}
	fprintf(f, "%lld\n", (long long)seq);
	ok = fflush(f) == 0 && fsync(fileno(f)) == 0;
	ok = (fclose(f) == 0) && ok;
	if (!ok || rename(tmp, path) != 0) {
		cli_err("items", "--cursor: %s: %s", path, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}

/* Waits ms for new items: 1 when it is time to end instead (a stop signal,
 * or the reader of standard output gone: POLLERR on a pipe's write end). */
static int
idle(int ms)
{
	struct pollfd p = {STDOUT_FILENO, 0, 0};
	int r;

	if (stop_sig)
		return 1;
	r = poll(&p, 1, ms);
	if (stop_sig)
		return 1;
	return r > 0 && (p.revents & (POLLERR | POLLHUP | POLLNVAL));
}

#define FOLLOW_POLL_MS 500

int
cmd_items(int argc, char **argv)
{
	static const char *const FORMATS[] = {"jsonl", "csv", "table", "sfeed", NULL};
	static const int FORMAT_VALUES[] = {F_JSONL, F_CSV, F_TABLE, F_SFEED};
	const char *db = NULL, *since = NULL, *source = NULL, *lang = NULL;
	const char *after = NULL, *cursor = NULL;
	const char *why = NULL;
	struct out o = {F_JSONL, 0, 0};
	struct fr_store_item_query q = {0};
	struct fr_store *st;
	char err[FR_ERRLEN];
	double since_s = 0;
	int64_t source_id = 0;
	uint64_t limit = 0;
	size_t max = 0;
	int rc, follow = 0, last_seq = 0, quiet_end = 0, fmt = F_JSONL;
	const struct opt opts[] = {
	    {.name = "after", .kind = OPT_STRING, .arg = "SEQ", .dest = &after,
	     .help = "items stored after item SEQ (seq > SEQ); 0: all"},
	    {.name = "cursor", .kind = OPT_STRING, .arg = "FILE", .dest = &cursor,
	     .help = "start after the seq in FILE (none yet: all), and write the last seq "
		     "printed to FILE (replaced whole) after printing"},
	    {.name = "follow", .kind = OPT_FLAG, .dest = &follow,
	     .help = "after the stored items, keep printing new ones as they are stored (the "
		     "store is polled every 0.5 s), like tail -f; ends on SIGINT or SIGTERM, or "
		     "when the reader closes the pipe (exit 0)"},
	    {.name = "last-seq", .kind = OPT_FLAG, .dest = &last_seq,
	     .help = "print the highest seq stored so far and end (to start polling from now: "
		     "--after that)"},
	    {.name = "since", .kind = OPT_STRING, .arg = "TIME", .dest = &since,
	     .help = "items first seen at or after TIME"},
	    {.name = "source", .kind = OPT_STRING, .arg = "S", .dest = &source,
	     .help = "items of one source, by id or address"},
	    {.name = "lang", .kind = OPT_STRING, .arg = "CODE", .dest = &lang,
	     .help = "items in language CODE (en, pt, zh-Hant; case ignored): the language "
		     "detected from the item's text, else, when none was, the one the item or "
		     "its feed declares; a primary subtag alone also matches its longer tags "
		     "(zh: zh-Hant)"},
	    {.name = "format", .kind = OPT_ENUM, .arg = "F", .choices = FORMATS,
	     .values = FORMAT_VALUES, .def = "jsonl", .dest = &fmt,
	     .help = "jsonl, csv, table or sfeed"},
	    {.name = "limit", .kind = OPT_UINT, .dest = &limit, .min = 1, .flags = OPT_NO_MAX,
	     .help = "at most N items (with --follow: in all)"},
	    OPT_DB(&db),
	    OPT_TABLE_END};
	const struct opt_cmd cmd = {.name = "items", .usage = USAGE, .about = ABOUT, .opts = opts,
				    .more = MORE, .examples = EXAMPLES};

	if ((rc = opt_parse(&cmd, argc, argv)) != 0)
		return opt_exit(rc);
	o.fmt = (enum format)fmt;
	max = (size_t)limit;
	if (after && cursor) {
		cli_err("items", "--after and --cursor both say where to start: give one");
		return EXIT_USAGE;
	}
	if (last_seq && (after || cursor || follow || since || source || limit || lang)) {
		cli_err("items", "--last-seq takes no other option but --db");
		return EXIT_USAGE;
	}
	if (after) {
		char *end;
		long long v;

		errno = 0;
		v = strtoll(after, &end, 10);
		if (!*after || *end || errno || v < 0) {
			opt_bad_value("items", "--after", "a seq (a whole number >= 0)", after);
			return EXIT_USAGE;
		}
		q.after_seq = v;
	}
	if (lang && (!lang[0] || lang[strspn(lang, "abcdefghijklmnopqrstuvwxyz"
	                                           "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-")] ||
	             strlen(lang) > 35)) {
		opt_bad_value("items", "--lang", "a language tag (letters, digits and '-': en, zh-Hant)",
		              lang);
		return EXIT_USAGE;
	}
	if (since && parse_since(since, (double)time(NULL), &since_s, &why) < 0) {
		cli_err("items", "--since: time '%s' %s", since, why ? why : "is not a time");
		return EXIT_USAGE;
	}
	if (since && since_s == 0)
		since_s = 1e-9; /* 0 means "all" to the store; the epoch itself is near enough */
	if (cursor && read_cursor(cursor, &q.after_seq) < 0)
		return EXIT_FAIL;
	st = dbopt_open_flags("items", db, FR_STORE_READ_ONLY);
	if (!st)
		return EXIT_FAIL;
	if (last_seq) {
		int64_t v;

		rc = fr_store_last_seq(st, &v, err, sizeof(err));
		fr_store_close(st);
		if (rc < 0) {
			cli_err("items", "%s", err);
			return EXIT_FAIL;
		}
		printf("%lld\n", (long long)v);
		return fflush(stdout) == 0 ? EXIT_OK : EXIT_FAIL;
	}
	if (source && fr_store_find_source(st, source, &source_id) < 0) {
		char shown[1024];
		cli_err("items", "--source: no source '%s' in %s", source,
			fr_store_display_name(dbopt_path(db), shown, sizeof(shown)));
		fr_store_close(st);
		return EXIT_FAIL;
	}
	if (follow) {
		struct sigaction sa;

		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_stop; /* no SA_RESTART: poll returns at once */
		sigemptyset(&sa.sa_mask);
		sigaction(SIGINT, &sa, NULL);
		sigaction(SIGTERM, &sa, NULL);
		signal(SIGPIPE, SIG_IGN); /* a closed pipe is EPIPE: the end */
	}
	if (o.fmt == F_CSV)
		fputs(CSV_HEADER, stdout);
	else if (o.fmt == F_TABLE)
		printf("%8s  %-20s  %6s  %-*s  %-*s  %s\n", "SEQ", "FIRST SEEN", "SOURCE", LANG_W,
		       "LANG", TITLE_W, "TITLE", "LINK");
	q.since_s = since_s;
	q.source_id = source_id;
	q.lang = lang;
	o.last_seq = q.after_seq;
	for (;;) {
		size_t before = o.n;

		q.limit = max ? max - o.n : 0;
		rc = fr_store_items(st, &q, each, &o, err, sizeof(err));
		if (rc < 0)
			break;
		q.after_seq = o.last_seq;
		if (fflush(stdout) != 0 || ferror(stdout)) {
			quiet_end = follow && errno == EPIPE;
			rc = quiet_end ? 0 : -2;
			break;
		}
		if (cursor && o.n > before && write_cursor(cursor, o.last_seq) < 0) {
			rc = -3;
			break;
		}
		if (!follow || (max && o.n >= max) || idle(FOLLOW_POLL_MS))
			break;
	}
	fr_store_close(st);
	if (rc == -1) {
		cli_err("items", "%s", err);
		return EXIT_FAIL;
	}
	if (rc == -3)
		return EXIT_FAIL;
	if (rc == -2) {
		cli_err("items", "write error on standard output");
		return EXIT_FAIL;
	}
	return EXIT_OK;
}
