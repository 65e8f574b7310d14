/* cmd_run.c - `freshet run`: the crawl daemon over the sources in the store
 * (lib/crawl.h). Stops gracefully on SIGINT/SIGTERM: transfers in flight
 * finish and are committed. */
#include "cmd.h"
#include "dbopt.h"
#include "metrics.h"
#include "opt.h"
#include "runopts.h"

#include "core/err.h"
#include "core/timefmt.h"
#include "crawl.h"
#include "net/addrpolicy.h"
#include "sink/sink.h"
#include "store/store.h"
#include "websub/sub.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char USAGE[] =
    "usage: freshet run [--db PATH] [--once] [--duration T] [--policy SPEC]\n"
    "                   [--budget N/W] [--group NAME=N/W]... [--mode paced|burst]\n"
    "                   [--gap D] [--connect-to HOST:PORT:CONNECT-TO-HOST:PORT]...\n"
    "                   [other options below]\n";

static const char ABOUT[] =
    "Crawls the sources in the store: the policy learns when each one publishes\n"
    "and the scheduler spends the budget where new items are most likely, under\n"
    "each host's politeness gap and each group's rate limit. New items, the\n"
    "sources' learned state, validators and errors of a fetch are committed\n"
    "together, with the other fetches that ended within --commit-every.\n"
    "SIGINT or SIGTERM stops it: transfers in flight finish and are stored.\n"
    "Options may also come from the config file (docs/crawl.md, \"The config\n"
    "file\"): `key = value` lines under [run], flags override them.\n";

static const char MORE[] =
    "A sink (docs/items.md) reads the items from the store after its cursor (the\n"
    "last seq it delivered, kept in the store): every item at least once, in seq\n"
    "order, also across a crash or kill -9 (a batch cut short is given again:\n"
    "deduplicate on seq). A new sink starts with the items stored from then on.\n"
    "It runs beside the crawl and never holds it up; a dead sink's backlog waits\n"
    "in the store.\n";

static const char EXAMPLES[] =
    "  freshet run --budget 600/10m                 crawl until stopped\n"
    "  freshet run --once --quiet                   every source once, for cron\n"
    "  freshet run --listen 127.0.0.1:9464          with /metrics and /health\n"
    "  freshet run --exec 'jq -c .title >>titles'   each new item to a program\n";

static const char FOOTER[] =
    "Exit status: 0 when something was fetched (or nothing was due), 1 when every\n"
    "fetch tried failed or was skipped, or the run could not go on (the store\n"
    "failing), 2 bad usage.\n";

static volatile sig_atomic_t stop_flag;

static void
on_signal(int sig)
{
	(void)sig;
	stop_flag = 1;
}

struct ui {
	int tty, quiet;
	int line_shown;
	struct metrics *metrics; /* --listen, else NULL */
	double next_summary_s;  /* not a terminal: the next minute's summary line */
};

static void
ui_progress(void *arg, const struct fr_crawl_stats *st)
{
	struct ui *u = arg;
	char a[32], b[32];

	if (u->metrics)
		metrics_update(u->metrics, st, 0);
	if (!u->tty && !u->quiet) {
		/* A log, not a terminal: one summary line a minute. */
		char t[40];

		if (u->next_summary_s == 0)
			u->next_summary_s = st->started_s + 60;
		if (st->now_s < u->next_summary_s)
			return;
		u->next_summary_s += 60 * (1 + (double)(long)((st->now_s - u->next_summary_s) / 60));
		fprintf(stderr,
			"freshet run: %s: %.0f s: fetched %s (304: %llu, errors %llu), new items %s, "
			"in flight %zu, hosts paused %zu\n",
			fr_time_format(st->now_s, t, sizeof(t)), st->now_s - st->started_s,
			fmt_count(st->fetches, a, sizeof(a)), (unsigned long long)st->not_modified,
			(unsigned long long)st->errors, fmt_count(st->new_items, b, sizeof(b)),
			st->running, st->hosts_paused);
		return;
	}
	if (!u->tty || u->quiet)
		return;
	fprintf(stderr,
		"\r%5.0fs  fetched %s (304: %llu, errors %llu)  new items %s  in flight %zu   ",
		st->now_s - st->started_s, fmt_count(st->fetches, a, sizeof(a)),
		(unsigned long long)st->not_modified, (unsigned long long)st->errors,
		fmt_count(st->new_items, b, sizeof(b)), st->running);
	u->line_shown = 1;
}

static void
ui_log(void *arg, const char *line)
{
	struct ui *u = arg;

	if (u->quiet && !strstr(line, "store"))
		return;
	if (u->line_shown) {
		fputc('\n', stderr);
		u->line_shown = 0;
	}
	fprintf(stderr, "freshet run: %s\n", line);
}

/* --listen: the token from $FRESHET_LISTEN_TOKEN or the first line of
 * --listen-token-file (never from the command line, which ps shows). */
static int
start_listen(struct ui *u, const char *addr, const char *token_file)
{
	char err[FR_ERRLEN], tok[512] = "";
	const char *env = getenv("FRESHET_LISTEN_TOKEN");

	if (token_file) {
		FILE *f = fopen(token_file, "r");

		if (!f || !fgets(tok, sizeof(tok), f)) {
			cli_err("run", "--listen-token-file %s: %s", token_file,
				f ? "empty" : strerror(errno));
			if (f)
				fclose(f);
			return -1;
		}
		fclose(f);
		tok[strcspn(tok, "\r\n")] = 0;
		if (!tok[0]) {
			cli_err("run", "--listen-token-file %s: the first line is empty", token_file);
			return -1;
		}
	} else if (env && *env) {
		snprintf(tok, sizeof(tok), "%s", env);
	}
	if (!(u->metrics = metrics_start(addr, tok[0] ? tok : NULL, err, sizeof(err)))) {
		cli_err("run", "%s", err);
		return -1;
	}
	fprintf(stderr, "freshet run: metrics on port %u: /metrics and /health\n",
		(unsigned)metrics_port(u->metrics));
	return 0;
}

/* WebSub's lines come from the loop and the server's threads: one
 * fprintf each. */
static void
websub_log(void *arg, const char *line)
{
	(void)arg;
	fprintf(stderr, "freshet run: %s\n", line);
}

/* --callback-base: the subscriber, its callbacks served by --listen. A
 * base that is only a path is taken on the listen address and port. */
static int
websub_start(struct ui *u, const char *listen, const char *base, double lease_s, size_t max_body,
	     char *buf, size_t cap, struct fr_websub **out)
{
	char err[FR_ERRLEN];
	struct fr_websub_opts wo = {.lease_s = lease_s, .max_body = max_body, .log = websub_log};

	if (base[0] == '/') {
		const char *colon = strrchr(listen, ':');
		int has_host = colon && colon != listen && (listen[0] != '[' || colon[-1] == ']');

		if (!has_host)
			snprintf(buf, cap, "http://127.0.0.1:%u%s", (unsigned)metrics_port(u->metrics), base);
		else
			snprintf(buf, cap, "http://%.*s:%u%s", (int)(colon - listen), listen,
				 (unsigned)metrics_port(u->metrics), base);
		base = buf;
	}
	wo.callback_base = base;
	if (fr_websub_new(out, &wo, err, sizeof(err)) < 0) {
		cli_err("run", "--callback-base: %s", err);
		return -1;
	}
	metrics_set_websub(u->metrics, *out);
	fprintf(stderr, "freshet run: WebSub callbacks at %s/ID\n", base);
	return 0;
}

#define MAX_GROUPS 64
#define MAX_CONNECT_TO 64
#define MAX_SINKS 16

/* Sinks' lines come from their own threads: one fprintf each. */
static void
sink_log(void *arg, const char *line)
{
	(void)arg;
	fprintf(stderr, "freshet run: %s\n", line);
}

/* What the repeatable options of run fill. */
struct run_lists {
	struct fr_crawl_opts *o;
	struct fr_crawl_group groups[MAX_GROUPS];
	char group_names[MAX_GROUPS][128];
	const char *connect_to[MAX_CONNECT_TO];
	struct fr_sink_config sinks[MAX_SINKS];
	size_t n_sinks;
};

/* --group NAME=N/W */
static int
take_group(void *ctx, const struct opt *opt, const char *v)
{
	struct run_lists *l = ctx;
	struct fr_crawl_opts *o = l->o;
	const char *eq = strchr(v, '=');
	struct fr_crawl_group *g = &l->groups[o->n_groups];
	char err[FR_ERRLEN];

	(void)opt;
	if (!eq || eq == v || (size_t)(eq - v) >= sizeof(l->group_names[0]) ||
	    o->n_groups >= MAX_GROUPS)
		return opt_bad_value("run", "--group", "NAME=N/W, e.g. api=600/10m", v);
	memcpy(l->group_names[o->n_groups], v, (size_t)(eq - v));
	l->group_names[o->n_groups][eq - v] = 0;
	if (fr_budget_parse(eq + 1, &g->calls, &g->window_s, err, sizeof(err)) < 0) {
		cli_err("run", "--group %s: %s", v, err);
		return -1;
	}
	g->name = l->group_names[o->n_groups];
	o->n_groups++;
	o->groups = l->groups;
	return 0;
}

static int
take_connect_to(void *ctx, const struct opt *opt, const char *v)
{
	struct run_lists *l = ctx;
	char err[FR_ERRLEN];

	(void)opt;
	if (l->o->fetch.n_connect_to >= MAX_CONNECT_TO) {
		cli_err("run", "at most %d --connect-to", MAX_CONNECT_TO);
		return -1;
	}
	if (fr_connect_to_check(v, err, sizeof(err)) < 0) {
		cli_err("run", "--connect-to: %s", err);
		return -1;
	}
	l->connect_to[l->o->fetch.n_connect_to++] = v;
	return 0;
}

/* --exec CMD, --webhook URL */
static int
take_sink(void *ctx, const struct opt *opt, const char *v)
{
	struct run_lists *l = ctx;
	int exec = !strcmp(opt->name, "exec");

	if (l->n_sinks >= MAX_SINKS) {
		cli_err("run", "at most %d sinks (--exec, --webhook)", MAX_SINKS);
		return -1;
	}
	if (!*v) {
		cli_err("run", "--%s wants a %s", opt->name, exec ? "command" : "URL");
		return -1;
	}
	memset(&l->sinks[l->n_sinks], 0, sizeof(l->sinks[0]));
	l->sinks[l->n_sinks].kind = exec ? FR_SINK_EXEC : FR_SINK_WEBHOOK;
	l->sinks[l->n_sinks].target = v;
	l->n_sinks++;
	return 0;
}

/* BASE/CAP durations with 0 < BASE <= CAP (--backoff, --sink-backoff). */
static int
parse_backoff(const char *name, const char *v, const char *example, double *base_s,
	      double *cap_s)
{
	char base[64], want[96];
	const char *slash = strchr(v, '/');

	snprintf(want, sizeof(want), "BASE/CAP with 0 < BASE <= CAP, e.g. %s", example);
	if (!slash || (size_t)(slash - v) >= sizeof(base))
		return opt_bad_value("run", name, want, v);
	memcpy(base, v, (size_t)(slash - v));
	base[slash - v] = 0;
	if (fr_duration_parse(base, base_s) < 0 || fr_duration_parse(slash + 1, cap_s) < 0 ||
	    !(*base_s > 0) || *cap_s < *base_s)
		return opt_bad_value("run", name, want, v);
	return 0;
}

int
cmd_run(int argc, char **argv)
{
	static const char *const RETRY_AFTER[] = {"honour", "honor", "ignore", NULL};
	static const int RETRY_AFTER_V[] = {1, 1, 0};
	static const char *const HINTS[] = {"bound", "record", NULL};
	static const int HINTS_V[] = {1, 0};
	struct fr_crawl_opts o;
	static struct run_lists l;
	const char *db_arg = NULL, *request_log = NULL, *listen = NULL, *token_file = NULL;
	const char *budget = NULL, *backoff = NULL, *sink_backoff = NULL;
	const char *callback_base = NULL;
	double push_lease_s = FR_WEBSUB_LEASE_S;
	uint64_t push_max_body = FR_WEBSUB_MAX_BODY;
	struct fr_websub *ws = NULL;
	char cbase[1200];
	struct ui u = {isatty(STDERR_FILENO), 0, 0, NULL, 0};
	char err[FR_ERRLEN];
	struct fr_store *st = NULL;
	struct fr_crawl_stats stats;
	struct fr_sink *sink_h[MAX_SINKS] = {NULL};
	struct fr_sink_config *sinks = l.sinks;
	size_t n_sinks, sink_batch = 0;
	const char *webhook_secret = getenv("FRESHET_WEBHOOK_SECRET");
	double sink_base_s = 0, sink_cap_s = 0;
	uint64_t redirect_after, max_body, transfers, seed, sink_batch_u = 0;
	int no_robots = 0, prc;

	fr_crawl_opts_init(&o);
	memset(&l, 0, sizeof(l));
	l.o = &o;
	o.fetch.connect_to = l.connect_to;
	/* FRESHET_CLOCK_FILE: run on a world's clock that this run moves
	 * (crawl.h, clock_file; `freshet serve` reads the same file). */
	if (getenv("FRESHET_CLOCK_FILE") && *getenv("FRESHET_CLOCK_FILE"))
		o.clock_file = getenv("FRESHET_CLOCK_FILE");
	const struct opt opts[] = {
	    OPT_DB(&db_arg),
	    {.name = "worker", .kind = OPT_STRING, .arg = "NAME", .dest = &o.worker,
	     .help = "this worker's name when several share a PostgreSQL store (each claims a "
		     "source before fetching it; default HOST:PID)"},
	    {.name = "once", .kind = OPT_FLAG, .dest = &o.once,
	     .help = "fetch every source once (politely), then exit; a source whose host is "
		     "paused (Retry-After) or whose error backoff runs more than 5 minutes on is "
		     "skipped and reported"},
	    {.name = "duration", .kind = OPT_DURATION, .arg = "T", .dest = &o.duration_s,
	     .flags = OPT_GT_MIN | OPT_NO_MAX, .want = "a duration like 90s or 2h",
	     .help = "stop after T (e.g. 90s, 10m, 2h; default: run until stopped); transfers "
		     "still in flight then are aborted, fetched next run"},
	    {.name = "policy", .kind = OPT_STRING, .arg = "SPEC", .def = "freshet", .dest = &o.policy,
	     .help = "scheduling policy, as in 'freshet simulate'"},
	    {.name = "budget", .kind = OPT_STRING, .arg = "N/W", .dest = &budget,
	     .help = "the default group's budget, e.g. 600/10m (default: one fetch per source "
		     "per 30 minutes on average)"},
	    {.name = "group", .kind = OPT_CALL, .arg = "NAME=N/W", .take = take_group, .ctx = &l,
	     .help = "the budget of the sources added with --group NAME (an API); repeatable"},
	    OPT_MODE(&o.mode, "paced",
		     "paced spreads calls evenly; burst spends a window's calls at once, as the "
		     "air-balloon seed did (and 'freshet simulate' does by default)"),
	    OPT_GAP(&o.host_gap_s, "1", 0),
	    OPT_MAX_CRAWL_DELAY(&o.max_crawl_delay_s, "60",
				"robots.txt Crawl-delay honoured up to D ('freshet discover', a "
				"short visit, waits up to 30 s)"),
	    OPT_NO_ROBOTS(&no_robots),
	    {.name = "retry-after", .kind = OPT_ENUM, .arg = "honour|ignore", .choices = RETRY_AFTER,
	     .values = RETRY_AFTER_V, .def = "honour", .dest = &o.retry_after,
	     .want = "honour or ignore",
	     .help = "Retry-After on 429/503 pauses the whole host (ignore: the host is paused by "
		     "the error backoff instead)"},
	    {.name = "hints", .kind = OPT_ENUM, .arg = "bound|record", .choices = HINTS,
	     .values = HINTS_V, .def = "bound", .dest = &o.hints,
	     .help = "publisher hints (RSS ttl, sy:updatePeriod, Cache-Control max-age) as lower "
		     "bounds on a source's interval, or only recorded"},
	    {.name = "backoff", .kind = OPT_STRING, .arg = "BASE/CAP", .def = "60s/1d",
	     .dest = &backoff,
	     .help = "error backoff: BASE doubling per error up to CAP, with jitter"},
	    {.name = "redirect-after", .kind = OPT_UINT, .def = "3", .dest = &redirect_after,
	     .min = 1, .max = 1000, .help = "adopt a permanent redirect after N fetches"},
	    OPT_CONNECT_TO(take_connect_to, &l),
	    OPT_ALLOW_PRIVATE(&o.fetch.allow_private),
	    OPT_USER_AGENT(&o.fetch.user_agent),
	    OPT_CONTACT(&o.fetch.contact_url),
	    OPT_TIMEOUT(&o.fetch.timeout_s, "30"),
	    {.name = "connect-timeout", .kind = OPT_DURATION, .arg = "D", .def = "10",
	     .dest = &o.fetch.connect_timeout_s, .flags = OPT_GT_MIN | OPT_NO_MAX,
	     .help = "time to connect"},
	    {.name = "max-body", .kind = OPT_UINT, .arg = "BYTES", .def = "16777216",
	     .dest = &max_body, .min = 1024, .max = 1e12, .help = "largest body accepted"},
	    {.name = "transfers", .kind = OPT_UINT, .def = "64", .dest = &transfers, .min = 1,
	     .max = 10000, .help = "concurrent transfers"},
	    {.name = "commit-every", .kind = OPT_DURATION, .arg = "D", .def = "0.25",
	     .dest = &o.commit_interval_s, .min = 0, .max = 60,
	     .help = "fetches ending within D share one transaction (a crash loses at most that "
		     "much work, which the next run fetches again); 0: one transaction per "
		     "fetch"},
	    OPT_SEED(&seed, "1", "jitter seed"),
	    {.name = "request-log", .kind = OPT_STRING, .arg = "FILE", .dest = &request_log,
	     .help = "append one TSV line per request as it ends: the time it was sent, seconds "
		     "taken, status, outcome, redirects, URL, effective URL (docs/crawl.md)"},
	    OPT_QUIET(&u.quiet, "only errors: no status line (on a terminal) and no summary line a "
				"minute (when standard error is not a terminal)"),
	    {.name = "listen", .kind = OPT_STRING, .arg = "ADDR", .dest = &listen,
	     .help = "serve /metrics (Prometheus text format) and /health on ADDR, one of "
		     "PORT, HOST:PORT or [IPV6]:PORT (host default 127.0.0.1; port 0: any free "
		     "one, named on standard error). Not loopback: needs a token, from "
		     "$FRESHET_LISTEN_TOKEN or --listen-token-file"},
	    {.name = "callback-base", .kind = OPT_STRING, .arg = "URL", .dest = &callback_base,
	     .section = "WebSub push (docs/websub.md)",
	     .help = "subscribe to the hubs the feeds name (Link header, rel=hub) with callbacks "
		     "URL/ID served on --listen (needed) for hubs to call; a URL that is only a path "
		     "(/websub) is taken on the --listen address itself"},
	    {.name = "push-check", .kind = OPT_DOUBLE, .arg = "N", .def = "10", .dest = &o.push_check,
	     .min = 1, .max = 1e6,
	     .help = "a source whose lease runs is polled only as a check, held N times the "
		     "average gap between two polls of a source"},
	    {.name = "push-lease", .kind = OPT_DURATION, .arg = "D", .def = "10d",
	     .dest = &push_lease_s, .flags = OPT_GT_MIN | OPT_NO_MAX,
	     .help = "the lease asked of hubs (renewed when a fifth of it is left)"},
	    {.name = "push-max-body", .kind = OPT_UINT, .arg = "BYTES", .def = "4194304",
	     .dest = &push_max_body, .min = 1024, .max = 1e9,
	     .help = "largest pushed body accepted (413 beyond)"},
	    {.name = "listen-token-file", .kind = OPT_STRING, .arg = "FILE", .dest = &token_file,
	     .help = "the token (first line of FILE) that requests to --listen must carry as "
		     "'Authorization: Bearer TOKEN'"},
	    {.name = "exec", .kind = OPT_CALL, .arg = "CMD", .take = take_sink, .ctx = &l,
	     .section = "sinks (new items to programs)",
	     .help = "run CMD (by /bin/sh -c) with each batch of new items on its standard input "
		     "as JSON Lines (the fields of 'freshet items', seq last); exit 0 takes the "
		     "batch, else it is given again after a backoff; repeatable"},
	    {.name = "webhook", .kind = OPT_CALL, .arg = "URL", .take = take_sink, .ctx = &l,
	     .help = "POST each batch as JSON {sink, first_seq, last_seq, items: [...]} to URL; "
		     "a 2xx takes it, else it is sent again after a backoff; repeatable. Only URL "
		     "is asked (no redirect is followed)"},
	    {.name = "webhook-secret", .kind = OPT_STRING, .arg = "S", .dest = &webhook_secret,
	     .help = "sign each POST: header X-Freshet-Signature-256: sha256=HMAC-SHA256(S, body) "
		     "in hex (default $FRESHET_WEBHOOK_SECRET)"},
	    {.name = "sink-backoff", .kind = OPT_STRING, .arg = "BASE/CAP", .def = "1s/5m",
	     .dest = &sink_backoff, .help = "wait after a failed delivery, doubling"},
	    {.name = "sink-batch", .kind = OPT_UINT, .def = "100", .dest = &sink_batch_u,
	     .min = 1, .max = 100000, .help = "items per batch at most"},
	    OPT_TABLE_END};
	const struct opt_cmd cmd = {.name = "run", .usage = USAGE, .about = ABOUT, .opts = opts,
				    .more = MORE, .examples = EXAMPLES, .footer = FOOTER};

	if ((prc = opt_parse(&cmd, argc, argv)) != 0)
		return opt_exit(prc);
	if (o.worker && (!*o.worker || strlen(o.worker) > 200)) {
		cli_err("run", "--worker wants a name of 1 to 200 bytes");
		return EXIT_USAGE;
	}
	if (callback_base && (!listen || o.once)) {
		cli_err("run", "--callback-base needs --listen (the hubs call there) and a running "
			       "crawl (not --once)");
		return EXIT_USAGE;
	}
	if (budget && fr_budget_parse(budget, &o.calls, &o.window_s, err, sizeof(err)) < 0) {
		cli_err("run", "--budget: %s", err);
		return EXIT_USAGE;
	}
	if (parse_backoff("--backoff", backoff, "60s/1d", &o.backoff_base_s, &o.backoff_cap_s) < 0 ||
	    parse_backoff("--sink-backoff", sink_backoff, "1s/5m", &sink_base_s, &sink_cap_s) < 0)
		return EXIT_USAGE;
	o.robots = !no_robots;
	o.redirect_after = (int)redirect_after;
	o.fetch.max_body = (size_t)max_body;
	o.fetch.max_total = (int)transfers;
	o.seed = seed;
	sink_batch = (size_t)sink_batch_u;
	n_sinks = l.n_sinks;

	FILE *rlog = NULL;
	if (request_log) {
		if (!(rlog = fopen(request_log, "a"))) {
			cli_err("run", "--request-log %s: %s", request_log, strerror(errno));
			return EXIT_FAIL;
		}
		setvbuf(rlog, NULL, _IOLBF, 0); /* whole lines, even if killed */
		o.fetch.request_log = rlog;
	}
	const char *db = dbopt_path(db_arg);
	if (fr_store_open_flags(&st, db, FR_STORE_CRAWLER, err, sizeof(err)) < 0) {
		cli_err("run", "%s", err);
		if (rlog)
			fclose(rlog);
		return EXIT_FAIL;
	}
	if (listen && start_listen(&u, listen, token_file) < 0) {
		fr_store_close(st);
		if (rlog)
			fclose(rlog);
		return EXIT_FAIL;
	}
	if (callback_base && websub_start(&u, listen, callback_base, push_lease_s,
					  (size_t)push_max_body, cbase, sizeof(cbase), &ws) < 0) {
		metrics_stop(u.metrics);
		fr_store_close(st);
		if (rlog)
			fclose(rlog);
		return EXIT_FAIL;
	}
	o.websub = ws;
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	o.stop = &stop_flag;
	o.progress = ui_progress;
	o.log = ui_log;
	o.arg = &u;
	for (size_t k = 0; k < n_sinks; k++) {
		sinks[k].secret = sinks[k].kind == FR_SINK_WEBHOOK ? webhook_secret : NULL;
		sinks[k].batch_max = sink_batch;
		sinks[k].backoff_base_s = sink_base_s;
		sinks[k].backoff_cap_s = sink_cap_s;
		sinks[k].log = sink_log;
		if (fr_sink_start(&sink_h[k], db, &sinks[k], err, sizeof(err)) < 0) {
			cli_err("run", "%s %s: %s", sinks[k].kind == FR_SINK_EXEC ? "--exec" : "--webhook",
				sinks[k].target, err);
			for (size_t j = 0; j < k; j++)
				fr_sink_stop(sink_h[j], 0);
			fr_store_close(st);
			if (rlog)
				fclose(rlog);
			return EXIT_FAIL;
		}
	}

	int rc = fr_crawl_run(st, &o, &stats, err, sizeof(err));
	if (u.line_shown)
		fputc('\n', stderr);
	/* What the run stored goes out before the end, for a few seconds at
	 * most; the rest waits in the store for the next run. */
	for (size_t k = 0; k < n_sinks; k++)
		fr_sink_stop(sink_h[k], stop_flag ? 2 : 5);
	if (u.metrics) {
		metrics_update(u.metrics, &stats, 1);
		metrics_stop(u.metrics);
	}
	fr_websub_free(ws); /* after the server that used it */
	fr_store_close(st);
	if (rlog && fclose(rlog) != 0)
		cli_err("run", "--request-log %s: %s", request_log, strerror(errno));
	if (rc < 0) {
		cli_err("run", "%s", err);
		return EXIT_FAIL;
	}
	char a1[32], a2[32];
	printf("%s fetch%s of %zu source%s in %.1f s: %llu ok, %llu not modified, "
	       "%llu error%s; %s new item%s",
	       fmt_count(stats.fetches, a1, sizeof(a1)), stats.fetches == 1 ? "" : "es",
	       stats.sources, stats.sources == 1 ? "" : "s", stats.now_s - stats.started_s,
	       (unsigned long long)stats.ok, (unsigned long long)stats.not_modified,
	       (unsigned long long)stats.errors, stats.errors == 1 ? "" : "s",
	       fmt_count(stats.new_items, a2, sizeof(a2)), stats.new_items == 1 ? "" : "s");
	if (stats.with_delay)
		printf(", found %.1f s after publication on average",
		       stats.delay_sum_s / (double)stats.with_delay);
	if (stats.skipped)
		printf("; %llu skipped (host paused or backoff beyond this pass)",
		       (unsigned long long)stats.skipped);
	if (stats.aborted)
		printf("; %llu aborted at the end of --duration", (unsigned long long)stats.aborted);
	/* Exit 1 when something was tried and nothing could be fetched. */
	int none = stats.ok + stats.not_modified == 0 && (stats.fetches > 0 || stats.skipped > 0);
	if (none)
		printf("; nothing could be fetched");
	printf("\n");
	return none ? EXIT_FAIL : EXIT_OK;
}
