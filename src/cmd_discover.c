/* cmd_discover.c - `freshet discover`: finds the feeds of sites and prints
 * them (table or JSON Lines), optionally subscribing to them. */
#include "cmd.h"
#include "dbopt.h"
#include "opt.h"
#include "runopts.h"

#include "core/err.h"
#include "core/lines.h"
#include "discover/discover.h"
#include "net/addrpolicy.h"
#include "url/url.h"
#include "sched/ratelimit.h"
#include "store/store.h"

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char USAGE[] =
    "usage: freshet discover SITE... [--file LIST] [--add] [--max-pages N]\n"
    "                        [--max-time T] [--depth D] [--format table|jsonl]\n"
    "                        [--connect-to SPEC]... [other options below]\n";

static const char ABOUT[] =
    "Finds the feeds of sites. Each site is crawled breadth first inside its\n"
    "registrable domain (public suffix list), politely (robots.txt, a gap per\n"
    "host), many sites at once. It looks for autodiscovery links (<link\n"
    "rel=\"alternate\"> of RSS, Atom, RDF or JSON Feed type, in <head> or <body>),\n"
    "pages that are themselves feeds, <a> links that look like feeds, and, when\n"
    "nothing is found, well-known paths (/feed, /rss, /atom.xml, /index.xml, ...).\n"
    "Every candidate is fetched and parsed: only real feeds are printed, one line\n"
    "each: feed URL, title, format, item count, site. A feed hosted elsewhere but\n"
    "linked from the site is found; links outside the domain are not followed.\n"
    "Trap limits: pages, depth, time and distinct query strings per path per site;\n"
    "session ids are stripped and query parameters sorted before de-duplication.\n"
    "\n"
    "SITE: a URL (http://example.com/) or a bare host (example.com).\n";

static const char EXAMPLES[] =
    "  freshet discover example.org              the feeds of one site\n"
    "  freshet discover --file sites.txt --add   subscribe to the feeds of many\n"
    "  freshet discover example.org --format jsonl | jq -r .feed\n";

static const char FOOTER[] =
    "Exit status: 0 when every site was read, 1 when a site was unreachable or\n"
    "failed (every answer an error: named on stderr) or a\n"
    "line of LIST was bad (the others are done all the same), 2 on bad usage.\n";

#define MAX_CONNECT_TO 64

static volatile sig_atomic_t stop_flag;

static void
on_signal(int sig)
{
	(void)sig;
	stop_flag = 1;
}

struct out {
	int jsonl, quiet;
	struct fr_store *st; /* --add */
	const char *grp;
	unsigned long sites, feeds, no_feed, unreachable, added, present, add_failed;
	int table_head;
};

static void
add_feed(struct out *o, const struct fr_discover_site *s, const struct fr_discovered_feed *fd)
{
	char err[FR_ERRLEN], *url;
	int64_t id;
	int existed;

	url = fr_url_normalize(fd->url, 0, err, sizeof(err));
	if (!url || fr_store_add_source(o->st, url, "feed", o->grp, fd->title, s->url, &id,
	                                &existed, err, sizeof(err)) < 0) {
		cli_err("discover", "%s: not added: %s", fd->url, err);
		o->add_failed++;
	} else if (existed) {
		o->present++;
	} else {
		o->added++;
	}
	free(url);
}

/* "; stopped by the page limit (12 links left), ..." when a limit cut the
 * walk short, else "". */
static void
limits_text(const struct fr_discover_site *s, char *buf, size_t cap)
{
	size_t n = 0;
	const struct {
		size_t v;
		const char *what;
	} l[] = {{s->limit_pages, "the page limit (--max-pages)"},
	         {s->limit_depth, "the depth limit (--depth)"},
	         {s->limit_queries, "the query limit (--max-queries) or a looping path"},
	         {s->limit_candidates, "the candidate limit (--max-candidates)"}};

	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(l) / sizeof(l[0]); i++) {
		int w;

		if (!l[i].v)
			continue;
		w = snprintf(buf + n, cap - n, "%s%s: %zu links not followed", n ? ", " : "; stopped by ",
		             l[i].what, l[i].v);
		if (w < 0 || (size_t)w >= cap - n)
			return;
		n += (size_t)w;
	}
}

static void
on_site(void *arg, const struct fr_discover_site *s)
{
	struct out *o = arg;
	char lim[512];

	o->sites++;
	limits_text(s, lim, sizeof(lim));
	if ((s->end == FR_END_UNREACHABLE || s->end == FR_END_FAILED) && s->n_feeds == 0) {
		o->unreachable++;
		cli_err("discover", "%s: %s: %s", s->url, fr_discover_end_name(s->end),
		        s->error ? s->error : "no answer");
	} else if (s->n_feeds == 0) {
		o->no_feed++;
		if (!o->quiet)
			cli_err("discover", "%s: no feed found (%zu pages, %zu candidates, %zu probes%s%s)",
			        s->url, s->pages, s->candidates, s->probes,
			        s->end == FR_END_TIME ? "; time ran out" : "", lim);
	} else if (!o->quiet && s->end == FR_END_TIME) {
		cli_err("discover", "%s: time ran out after %zu pages%s", s->url, s->pages, lim);
	} else if (!o->quiet && lim[0]) {
		cli_err("discover", "%s: %zu feeds (%zu pages%s)", s->url, s->n_feeds, s->pages, lim);
	}
	if (!o->quiet && s->note && s->end != FR_END_FAILED)
		cli_err("discover", "%s: %s", s->url, s->note);
	for (size_t i = 0; i < s->n_feeds; i++) {
		const struct fr_discovered_feed *fd = &s->feeds[i];

		o->feeds++;
		if (o->jsonl) {
			json_object *j = json_object_new_object();

			dbopt_json_str(j, "feed", fd->url);
			dbopt_json_str(j, "title", fd->title);
			dbopt_json_str(j, "format", fd->format);
			json_object_object_add(j, "items", json_object_new_int64((int64_t)fd->n_items));
			dbopt_json_str(j, "site", s->url);
			dbopt_json_str(j, "via", fr_discover_via_name(fd->via));
			dbopt_json_str(j, "found_on", fd->found_on);
			dbopt_json_print(stdout, j); /* C1 and DEL escaped too */
			json_object_put(j);
		} else {
			if (!o->table_head) {
				printf("%-56s %-32s %-7s %5s  %s\n", "FEED", "TITLE", "FORMAT", "ITEMS",
				       "SITE");
				o->table_head = 1;
			}
			dbopt_cell(stdout, fd->url, 56, 1);
			fputc(' ', stdout);
			dbopt_cell(stdout, fd->title ? fd->title : "-", 32, 1);
			printf(" %-7s %5zu  ", fd->format, fd->n_items);
			dbopt_cell(stdout, s->url, 60, 0);
			fputc('\n', stdout);
		}
		if (o->st)
			add_feed(o, s, fd);
	}
	fflush(stdout);
}

struct list {
	char **v;
	size_t n, cap;
};

static int
list_add(struct list *l, const char *s)
{
	if (l->n == l->cap) {
		size_t nc = l->cap ? l->cap * 2 : 64;
		char **nv = realloc(l->v, nc * sizeof(*nv));
		if (!nv)
			return -1;
		l->v = nv;
		l->cap = nc;
	}
	if (!(l->v[l->n] = strdup(s)))
		return -1;
	l->n++;
	return 0;
}

/* Reads a site list; bad lines are named and counted in *bad. */
static int
read_list(struct list *l, const char *path, unsigned long *bad)
{
	struct fr_lines r;
	char err[FR_ERRLEN], *line;
	size_t len;
	int rc;

	if (fr_lines_open(&r, path, err, sizeof(err)) < 0) {
		cli_err("discover", "%s", err);
		fr_lines_close(&r);
		return -1;
	}
	while ((rc = fr_lines_next(&r, &line, &len, err, sizeof(err))) == 1) {
		char *s = line, *e;

		while (*s == ' ' || *s == '\t')
			s++;
		e = s + strlen(s);
		while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
			*--e = '\0';
		if (!*s || *s == '#')
			continue;
		if (strchr(s, ' ') || strchr(s, '\t')) {
			cli_err("discover", "%s:%lu: not one address: '%s'", path, r.line, s);
			(*bad)++;
			continue;
		}
		if (list_add(l, s) < 0) {
			cli_err("discover", "out of memory");
			fr_lines_close(&r);
			return -1;
		}
	}
	if (rc < 0)
		cli_err("discover", "%s", err);
	fr_lines_close(&r);
	return rc < 0 ? -1 : 0;
}

/* The sites named by arguments and --file lists. */
struct sites_arg {
	struct list *sites;
	unsigned long *bad;
};

static int
take_site(void *ctx, const char *arg)
{
	struct sites_arg *sa = ctx;

	if (list_add(sa->sites, arg) < 0) {
		cli_err("discover", "out of memory");
		return -2;
	}
	return 0;
}

static int
take_file(void *ctx, const struct opt *o, const char *path)
{
	struct sites_arg *sa = ctx;

	(void)o;
	return read_list(sa->sites, path, sa->bad) < 0 ? -2 : 0;
}

static int
take_connect_to(void *ctx, const struct opt *o, const char *v)
{
	struct fr_discover_opts *d = ctx;
	char err[FR_ERRLEN];

	(void)o;
	if (d->fetch.n_connect_to >= MAX_CONNECT_TO) {
		cli_err("discover", "at most %d --connect-to", MAX_CONNECT_TO);
		return -1;
	}
	if (fr_connect_to_check(v, err, sizeof(err)) < 0) {
		cli_err("discover", "--connect-to: %s", err);
		return -1;
	}
	((const char **)d->fetch.connect_to)[d->fetch.n_connect_to++] = v;
	return 0;
}

/* A count option of discover: a whole number >= lo (at most 10^8). */
#define COUNT_OPT(name_, dest_, lo_, def_, help_)                                                   \
	{.name = (name_), .kind = OPT_UINT, .def = (def_), .dest = (dest_), .min = (lo_),          \
	 .max = 1e8, .want = "a whole number >= " #lo_, .help = (help_)}

int
cmd_discover(int argc, char **argv)
{
	struct fr_discover_opts o;
	struct list sites = {0};
	const char *connect_to[MAX_CONNECT_TO];
	const char *db_arg = NULL, *format = "table";
	struct out out = {0};
	unsigned long bad = 0;
	int add = 0, rc = EXIT_OK;
	char err[FR_ERRLEN];

	fr_discover_opts_init(&o);
	o.fetch.connect_to = connect_to;
	out.grp = "default";
	{
		static const char *const FORMATS[] = {"table", "jsonl", NULL};
		struct sites_arg sa = {&sites, &bad};
		uint64_t max_pages, max_cands, max_queries, max_feeds, max_probes, max_active,
		    transfers, depth;
		int fmt, no_robots = 0;
		const struct opt opts[] = {
		    {.name = "file", .kind = OPT_CALL, .arg = "LIST", .take = take_file, .ctx = &sa,
		     .help = "sites, one a line (blank and '#' lines skipped; repeatable)"},
		    {.name = "add", .kind = OPT_FLAG, .dest = &add,
		     .help = "subscribe to the feeds found (deduplicated against the store, across "
			     "http/https and a trailing '/')"},
		    {.name = "group", .kind = OPT_STRING, .arg = "G", .def = "default",
		     .dest = &out.grp, .help = "rate-limit group of the sources added"},
		    COUNT_OPT("max-pages", &max_pages, 1, "50", "HTML pages per site"),
		    {.name = "max-time", .kind = OPT_DURATION, .arg = "T", .def = "60s",
		     .dest = &o.max_time_s, .flags = OPT_GT_MIN | OPT_NO_MAX,
		     .want = "a duration like 30s or 2m", .help = "time per site, e.g. 30s, 2m"},
		    COUNT_OPT("depth", &depth, 0, "3", "link depth from the site URL"),
		    COUNT_OPT("max-queries", &max_queries, 1, "5",
			      "distinct query strings per path per site"),
		    COUNT_OPT("max-candidates", &max_cands, 1, "50", "feed candidates fetched per site"),
		    COUNT_OPT("max-probes", &max_probes, 0, "10",
			      "well-known paths probed when nothing is found (0 probes none)"),
		    COUNT_OPT("max-feeds", &max_feeds, 1, "200", "stop a site after N feeds"),
		    {.name = "format", .kind = OPT_ENUM, .arg = "F", .choices = FORMATS,
		     .def = "table", .dest = &fmt, .help = "table or jsonl"},
		    OPT_GAP(&o.gap_s, "1", 0),
		    OPT_MAX_CRAWL_DELAY(&o.max_crawl_delay_s, "30",
					"robots.txt Crawl-delay honoured up to D (discovery is a "
					"short visit; 'freshet run' waits up to 60 s)"),
		    OPT_NO_ROBOTS(&no_robots),
		    OPT_CONNECT_TO(take_connect_to, &o),
		    OPT_ALLOW_PRIVATE(&o.fetch.allow_private),
		    {.name = "cacert", .kind = OPT_STRING, .arg = "FILE", .dest = &o.fetch.cainfo,
		     .help = "trust the CA certificates in FILE (PEM) instead of the system's: a "
			     "private CA, or a test server's own"},
		    OPT_USER_AGENT(&o.fetch.user_agent),
		    OPT_CONTACT(&o.fetch.contact_url),
		    OPT_TIMEOUT(&o.fetch.timeout_s, "30"),
		    COUNT_OPT("transfers", &transfers, 1, "64",
			      "concurrent transfers at most (at most 10000); fewer while transfers "
			      "time out (halved), growing back as answers come"),
		    COUNT_OPT("sites-at-once", &max_active, 1, "1024",
			      "sites crawled at once at most; a site starts when a transfer is "
			      "free, and its --max-time runs from its first request"),
		    OPT_QUIET(&out.quiet, "no per-site messages on stderr, only errors"),
		    OPT_DB(&db_arg),
		    OPT_TABLE_END};
		const struct opt_cmd cmd = {.name = "discover", .usage = USAGE, .about = ABOUT,
					    .opts = opts, .examples = EXAMPLES, .footer = FOOTER,
					    .positional = take_site, .ctx = &sa};
		int prc = opt_parse(&cmd, argc, argv);

		if (prc) {
			rc = opt_exit(prc);
			goto done;
		}
		o.max_pages = (size_t)max_pages;
		o.max_candidates = (size_t)max_cands;
		o.max_queries = (size_t)max_queries;
		o.max_feeds = (size_t)max_feeds;
		o.max_probes = (int)(max_probes > 1000 ? 1000 : max_probes);
		o.max_active = (size_t)max_active;
		o.fetch.max_total = (int)(transfers > 10000 ? 10000 : transfers);
		o.max_depth = (int)(depth > 1000 ? 1000 : depth);
		/* 0 would mean the library's default: honour no delay at all. */
		if (!(o.max_crawl_delay_s > 0))
			o.max_crawl_delay_s = 1e-9;
		o.robots = !no_robots;
		format = FORMATS[fmt];
	}
	if (sites.n == 0) {
		cli_err("discover", "no site given (see --help)");
		rc = bad ? EXIT_FAIL : EXIT_USAGE;
		goto done;
	}
	out.jsonl = !strcmp(format, "jsonl");
	if (add && !(out.st = dbopt_open("discover", db_arg))) {
		rc = EXIT_FAIL;
		goto done;
	}
	{
		struct sigaction sa;

		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_signal;
		sigemptyset(&sa.sa_mask);
		sigaction(SIGINT, &sa, NULL);
		sigaction(SIGTERM, &sa, NULL);
	}
	if (fr_discover_run((const char *const *)sites.v, sites.n, &o, on_site, &out, &stop_flag,
	                    err, sizeof(err)) < 0) {
		cli_err("discover", "%s", err);
		rc = EXIT_FAIL;
	}
	if (!out.quiet || out.unreachable)
		fprintf(stderr,
		        "freshet discover: %lu sites: %lu feeds; %lu sites without a feed, %lu "
		        "unreachable\n",
		        out.sites, out.feeds, out.no_feed, out.unreachable);
	if (out.st)
		fprintf(stderr, "freshet discover: added %lu, already present %lu%s\n", out.added,
		        out.present, out.add_failed ? " (some failed, see above)" : "");
	if (rc == EXIT_OK && (out.unreachable || bad || out.add_failed))
		rc = EXIT_FAIL;
done:
	if (out.st)
		fr_store_close(out.st);
	for (size_t i = 0; i < sites.n; i++)
		free(sites.v[i]);
	free(sites.v);
	return rc;
}
