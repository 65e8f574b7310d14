/* cmd_discover.c - `freshet discover`: finds the feeds of sites and prints
 * them (table or JSON Lines), optionally subscribing to them. */
#include "cmd.h"
#include "dbopt.h"
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
    "                        [--connect-to SPEC]... [other options below]\n"
    "\n"
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
    "SITE: a URL (http://example.com/) or a bare host (example.com).\n"
    "\n"
    "options:\n"
    "  --file LIST         sites, one a line (blank and '#' lines skipped; repeatable)\n"
    "  --add               subscribe to the feeds found (deduplicated against the\n"
    "                      store, across http/https and a trailing '/')\n"
    "  --group G           rate-limit group of the sources added (default: default)\n"
    "  --max-pages N       HTML pages per site (default 50)\n"
    "  --max-time T        time per site, e.g. 30s, 2m (default 60s)\n"
    "  --depth D           link depth from the site URL (default 3)\n"
    "  --max-queries N     distinct query strings per path per site (default 5)\n"
    "  --max-candidates N  feed candidates fetched per site (default 50)\n"
    "  --max-probes N      well-known paths probed when nothing is found (default 10;\n"
    "                      0 probes none)\n"
    "  --max-feeds N       stop a site after N feeds (default 200)\n"
    "  --format F          table (default) or jsonl\n"
    "  --gap S             minimum seconds between two requests to one host (default 1)\n"
    "  --max-crawl-delay S robots.txt Crawl-delay honoured up to S seconds (default 30)\n"
    "  --no-robots         ignore robots.txt (only for your own servers)\n"
    "  --connect-to SPEC   curl's CONNECT_TO, e.g. '::127.0.0.1:8080' (repeatable);\n"
    "                      the hosts it names may be reached at internal addresses\n"
    "  --allow-private     connect to loopback, private, link-local and other internal\n"
    "                      addresses (refused by default, also after a redirect)\n"
    "  --cacert FILE       trust the CA certificates in FILE (PEM) instead of the\n"
    "                      system's: a private CA, or a test server's own\n"
    "  --user-agent UA     User-Agent (default 'freshet/0.1 (+CONTACT)')\n"
    "  --contact URL       the contact URL named in the default User-Agent\n"
    "  --timeout S         total time per transfer (default 30)\n"
    "  --transfers N       concurrent transfers at most (default 64); fewer while\n"
    "                      transfers time out (halved), growing back as answers come\n"
    "  --sites-at-once N   sites crawled at once at most (default 1024); a site starts\n"
    "                      when a transfer is free, and its --max-time runs from its\n"
    "                      first request\n"
    "  --quiet             no per-site messages on stderr, only errors\n" DBOPT_HELP
    "  --help              show this help\n"
    "\n"
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

/* A whole number from lo to 10^8. */
static int
parse_count(const char *s, size_t lo, size_t *out)
{
	char *end;
	unsigned long long v;

	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (*end || errno || v > 100000000ULL || v < lo)
		return -1;
	*out = (size_t)v;
	return 0;
}

static int
parse_secs(const char *s, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || *end || errno || !isfinite(v) || v < 0)
		return -1;
	*out = v;
	return 0;
}

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
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v;
		size_t n;
		double d;

		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			fputs(USAGE, stdout);
			goto done;
		}
		if (a[0] != '-') {
			if (list_add(&sites, a) < 0)
				goto oom;
			continue;
		}
		if (!strcmp(a, "--add")) {
			add = 1;
			continue;
		}
		if (!strcmp(a, "--no-robots")) {
			o.robots = 0;
			continue;
		}
		if (!strcmp(a, "--allow-private")) {
			o.fetch.allow_private = 1;
			continue;
		}
		if (!strcmp(a, "--quiet")) {
			out.quiet = 1;
			continue;
		}
		if (a[1] != '-') {
			cli_unknown_option("discover", a, USAGE);
			rc = EXIT_USAGE;
			goto done;
		}
		if (!(v = runopts_value("discover", argc, argv, &i))) {
			rc = EXIT_USAGE;
			goto done;
		}
#define COUNT(field, lo)                                                                           \
	do {                                                                                       \
		if (parse_count(v, (lo), &n) < 0) {                                                 \
			cli_err("discover", "%s wants a whole number >= %d, not '%s'", a, (int)(lo), v);  \
			rc = EXIT_USAGE;                                                           \
			goto done;                                                                 \
		}                                                                                  \
		field = n;                                                                         \
	} while (0)
		if (!strcmp(a, "--file")) {
			if (read_list(&sites, v, &bad) < 0) {
				rc = EXIT_FAIL;
				goto done;
			}
		} else if (!strcmp(a, "--db")) {
			db_arg = v;
		} else if (!strcmp(a, "--group")) {
			out.grp = v;
		} else if (!strcmp(a, "--max-pages")) {
			COUNT(o.max_pages, 1);
		} else if (!strcmp(a, "--max-candidates")) {
			COUNT(o.max_candidates, 1);
		} else if (!strcmp(a, "--max-queries")) {
			COUNT(o.max_queries, 1);
		} else if (!strcmp(a, "--max-feeds")) {
			COUNT(o.max_feeds, 1);
		} else if (!strcmp(a, "--max-probes")) {
			COUNT(n, 0);
			o.max_probes = (int)(n > 1000 ? 1000 : n);
		} else if (!strcmp(a, "--sites-at-once")) {
			COUNT(o.max_active, 1);
		} else if (!strcmp(a, "--transfers")) {
			COUNT(n, 1);
			o.fetch.max_total = (int)(n > 10000 ? 10000 : n);
		} else if (!strcmp(a, "--depth")) {
			COUNT(n, 0);
			o.max_depth = (int)(n > 1000 ? 1000 : n);
		} else if (!strcmp(a, "--max-time")) {
			if (fr_duration_parse(v, &o.max_time_s) < 0 || !(o.max_time_s > 0)) {
				cli_err("discover", "--max-time wants a duration like 30s or 2m, not '%s'",
				        v);
				rc = EXIT_USAGE;
				goto done;
			}
		} else if (!strcmp(a, "--gap") || !strcmp(a, "--max-crawl-delay") ||
		           !strcmp(a, "--timeout")) {
			if (parse_secs(v, &d) < 0 || (!strcmp(a, "--timeout") && d <= 0)) {
				cli_err("discover", "%s wants seconds, not '%s'", a, v);
				rc = EXIT_USAGE;
				goto done;
			}
			if (!strcmp(a, "--gap"))
				o.gap_s = d;
			else if (!strcmp(a, "--timeout"))
				o.fetch.timeout_s = d;
			else
				o.max_crawl_delay_s = d > 0 ? d : 1e-9;
		} else if (!strcmp(a, "--format")) {
			if (strcmp(v, "table") && strcmp(v, "jsonl")) {
				cli_err("discover", "--format wants table or jsonl, not '%s'", v);
				rc = EXIT_USAGE;
				goto done;
			}
			format = v;
		} else if (!strcmp(a, "--connect-to")) {
			if (o.fetch.n_connect_to >= MAX_CONNECT_TO) {
				cli_err("discover", "at most %d --connect-to", MAX_CONNECT_TO);
				rc = EXIT_USAGE;
				goto done;
			}
			if (fr_connect_to_check(v, err, sizeof(err)) < 0) {
				cli_err("discover", "--connect-to: %s", err);
				rc = EXIT_USAGE;
				goto done;
			}
			connect_to[o.fetch.n_connect_to++] = v;
		} else if (!strcmp(a, "--cacert")) {
			o.fetch.cainfo = v;
		} else if (!strcmp(a, "--user-agent")) {
			o.fetch.user_agent = v;
		} else if (!strcmp(a, "--contact")) {
			o.fetch.contact_url = v;
		} else {
			cli_unknown_option("discover", a, USAGE);
			rc = EXIT_USAGE;
			goto done;
		}
#undef COUNT
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
oom:
	cli_err("discover", "out of memory");
	rc = EXIT_FAIL;
	goto done;
}
