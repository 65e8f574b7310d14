/* cmd_run.c - `freshet run`: the crawl daemon over the sources in the store
 * (lib/crawl.h). Stops gracefully on SIGINT/SIGTERM: transfers in flight
 * finish and are committed. */
#include "cmd.h"
#include "dbopt.h"
#include "metrics.h"
#include "runopts.h"

#include "core/err.h"
#include "core/timefmt.h"
#include "crawl.h"
#include "net/addrpolicy.h"
#include "sink/sink.h"
#include "store/store.h"

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
    "                   [--gap S] [--connect-to HOST:PORT:CONNECT-TO-HOST:PORT]...\n"
    "                   [other options below]\n"
    "\n"
    "Crawls the sources in the store: the policy learns when each one publishes\n"
    "and the scheduler spends the budget where new items are most likely, under\n"
    "each host's politeness gap and each group's rate limit. New items, the\n"
    "sources' learned state, validators and errors of a fetch are committed\n"
    "together, with the other fetches that ended within --commit-every.\n"
    "SIGINT or SIGTERM stops it: transfers in flight finish and are stored.\n"
    "\n"
    "options:\n"
    "  --db PATH            the store (default $FRESHET_DB, else ./freshet.db)\n"
    "  --worker NAME        this worker's name when several share a PostgreSQL store\n"
    "                       (each claims a source before fetching it; default HOST:PID)\n"
    "  --once               fetch every source once (politely), then exit; a source whose\n"
    "                       host is paused (Retry-After) or whose error backoff runs\n"
    "                       more than 5 minutes on is skipped and reported\n"
    "  --duration T         stop after T (e.g. 90s, 10m, 2h; default: run until stopped);\n"
    "                       transfers still in flight then are aborted, fetched next run\n"
    "  --policy SPEC        scheduling policy, as in 'freshet simulate' (default freshet)\n"
    "  --budget N/W         the default group's budget, e.g. 600/10m (default: one fetch\n"
    "                       per source per 30 minutes on average)\n"
    "  --group NAME=N/W     the budget of the sources added with --group NAME (an API)\n"
    "  --mode paced|burst   paced spreads calls evenly (default); burst spends a window's\n"
    "                       calls at once, as the air-balloon seed did\n"
    "  --gap S              minimum seconds between two requests to one host (default 1)\n"
    "  --max-crawl-delay S  robots.txt Crawl-delay honoured up to S seconds (default 60)\n"
    "  --no-robots          ignore robots.txt (only for your own servers)\n"
    "  --retry-after honour|ignore\n"
    "                       Retry-After on 429/503 pauses the whole host (default honour;\n"
    "                       ignore: the host is paused by the error backoff instead)\n"
    "  --hints bound|record publisher hints (RSS ttl, sy:updatePeriod, Cache-Control\n"
    "                       max-age) as lower bounds on a source's interval (default), or\n"
    "                       only recorded\n"
    "  --backoff BASE/CAP   error backoff: BASE doubling per error up to CAP, with jitter\n"
    "                       (default 60s/1d)\n"
    "  --redirect-after N   adopt a permanent redirect after N fetches (default 3)\n"
    "  --connect-to SPEC    curl's CONNECT_TO: '::127.0.0.1:8080' sends every host to\n"
    "                       127.0.0.1:8080 (a test world, split DNS); repeatable. The\n"
    "                       hosts it names may be reached at internal addresses\n"
    "  --allow-private      connect to loopback, private, link-local and other internal\n"
    "                       addresses (refused by default, also after a redirect)\n"
    "  --user-agent UA      User-Agent (default 'freshet/0.1 (+CONTACT)')\n"
    "  --contact URL        the contact URL named in the default User-Agent\n"
    "  --timeout S          total time per transfer (default 30)\n"
    "  --connect-timeout S  (default 10)\n"
    "  --max-body BYTES     largest body accepted (default 16777216)\n"
    "  --transfers N        concurrent transfers (default 64)\n"
    "  --commit-every S     fetches ending within S seconds share one transaction\n"
    "                       (default 0.25; a crash loses at most that much work, which\n"
    "                       the next run fetches again); 0: one transaction per fetch\n"
    "  --seed S             jitter seed (default 1)\n"
    "  --request-log FILE   append one TSV line per request as it ends: the time it was\n"
    "                       sent, seconds taken, status, outcome, redirects, URL,\n"
    "                       effective URL (docs/crawl.md)\n"
    "  --quiet              only errors: no status line (on a terminal) and no summary\n"
    "                       line a minute (when standard error is not a terminal)\n"
    "  --listen ADDR        serve /metrics (Prometheus text format) and /health on ADDR:\n"
    "                       PORT, HOST:PORT or [IPV6]:PORT (host default 127.0.0.1; port 0:\n"
    "                       any free one, named on standard error). Not loopback: needs\n"
    "                       a token, from $FRESHET_LISTEN_TOKEN or --listen-token-file\n"
    "  --listen-token-file FILE\n"
    "                       the token (first line of FILE) that requests to --listen\n"
    "                       must carry as 'Authorization: Bearer TOKEN'\n"
    "  --help               show this help\n"
    "\n"
    "sinks (tell programs about new items; docs/items.md):\n"
    "  --exec CMD           run CMD (by /bin/sh -c) with each batch of new items on\n"
    "                       its standard input as JSON Lines (the fields of 'freshet\n"
    "                       items', seq last); exit 0 takes the batch, else it is\n"
    "                       given again after a backoff; repeatable\n"
    "  --webhook URL        POST each batch as JSON {sink, first_seq, last_seq,\n"
    "                       items: [...]} to URL; a 2xx takes it, else it is sent\n"
    "                       again after a backoff; repeatable. Only URL is asked\n"
    "                       (no redirect is followed)\n"
    "  --webhook-secret S   sign each POST: header X-Freshet-Signature-256:\n"
    "                       sha256=HMAC-SHA256(S, body) in hex (default\n"
    "                       $FRESHET_WEBHOOK_SECRET)\n"
    "  --sink-backoff BASE/CAP\n"
    "                       wait after a failed delivery, doubling (default 1s/5m)\n"
    "  --sink-batch N       items per batch at most (default 100)\n"
    "  A sink reads the items from the store after its cursor (the last seq it\n"
    "  delivered, kept in the store): every item at least once, in seq order, also\n"
    "  across a crash or kill -9 (a batch cut short is given again: deduplicate on\n"
    "  seq). A new sink starts with the items stored from then on. It runs beside\n"
    "  the crawl and never holds it up; a dead sink's backlog waits in the store.\n"
    "\n"
    "Examples:\n"
    "  freshet run --budget 600/10m                 crawl until stopped\n"
    "  freshet run --once --quiet                   every source once, for cron\n"
    "  freshet run --listen 127.0.0.1:9464          with /metrics and /health\n"
    "\n"
    "Options may also come from the config file (see docs/crawl.md, The config file).\n"
    "\n"
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

static int
parse_num(const char *s, double lo, double *out)
{
	char *end;
	double v;

	if (!s || !*s)
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (*end || errno || !isfinite(v) || v < lo)
		return -1;
	*out = v;
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

int
cmd_run(int argc, char **argv)
{
	struct fr_crawl_opts o;
	struct fr_crawl_group groups[MAX_GROUPS];
	char group_names[MAX_GROUPS][128];
	const char *connect_to[MAX_CONNECT_TO];
	const char *db_arg = NULL, *request_log = NULL, *listen = NULL, *token_file = NULL;
	struct ui u = {isatty(STDERR_FILENO), 0, 0, NULL, 0};
	char err[FR_ERRLEN];
	struct fr_store *st = NULL;
	struct fr_crawl_stats stats;
	struct fr_sink_config sinks[MAX_SINKS];
	struct fr_sink *sink_h[MAX_SINKS] = {NULL};
	size_t n_sinks = 0, sink_batch = 0;
	const char *webhook_secret = getenv("FRESHET_WEBHOOK_SECRET");
	double sink_base_s = 0, sink_cap_s = 0;

	fr_crawl_opts_init(&o);
	o.fetch.connect_to = connect_to;
	/* FRESHET_CLOCK_FILE: run on a world's clock that this run moves
	 * (crawl.h, clock_file; `freshet serve` reads the same file). */
	if (getenv("FRESHET_CLOCK_FILE") && *getenv("FRESHET_CLOCK_FILE"))
		o.clock_file = getenv("FRESHET_CLOCK_FILE");
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v;

		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			fputs(USAGE, stdout);
			return EXIT_OK;
		}
		if (!strcmp(a, "--once")) {
			o.once = 1;
			continue;
		}
		if (!strcmp(a, "--allow-private")) {
			o.fetch.allow_private = 1;
			continue;
		}
		if (!strcmp(a, "--no-robots")) {
			o.robots = 0;
			continue;
		}
		if (!strcmp(a, "--quiet")) {
			u.quiet = 1;
			continue;
		}
		if (a[0] != '-' || a[1] != '-') {
			cli_err("run", "unexpected argument '%s' (see --help)", a);
			return EXIT_USAGE;
		}
		if (!(v = runopts_value("run", argc, argv, &i)))
			return EXIT_USAGE;
		if (!strcmp(a, "--db")) {
			db_arg = v;
		} else if (!strcmp(a, "--worker")) {
			if (!*v || strlen(v) > 200) {
				cli_err("run", "--worker wants a name of 1 to 200 bytes");
				return EXIT_USAGE;
			}
			o.worker = v;
		} else if (!strcmp(a, "--duration")) {
			if (fr_duration_parse(v, &o.duration_s) < 0 || !(o.duration_s > 0)) {
				cli_err("run", "--duration wants a duration like 90s or 2h, not '%s'",
					v);
				return EXIT_USAGE;
			}
		} else if (!strcmp(a, "--policy")) {
			o.policy = v;
		} else if (!strcmp(a, "--budget")) {
			if (fr_budget_parse(v, &o.calls, &o.window_s, err, sizeof(err)) < 0) {
				cli_err("run", "--budget: %s", err);
				return EXIT_USAGE;
			}
		} else if (!strcmp(a, "--group")) {
			const char *eq = strchr(v, '=');
			struct fr_crawl_group *g = &groups[o.n_groups];

			if (!eq || eq == v || (size_t)(eq - v) >= sizeof(group_names[0]) ||
			    o.n_groups >= MAX_GROUPS) {
				cli_err("run", "--group wants NAME=N/W, e.g. api=600/10m, not '%s'", v);
				return EXIT_USAGE;
			}
			memcpy(group_names[o.n_groups], v, (size_t)(eq - v));
			group_names[o.n_groups][eq - v] = 0;
			if (fr_budget_parse(eq + 1, &g->calls, &g->window_s, err, sizeof(err)) < 0) {
				cli_err("run", "--group %s: %s", v, err);
				return EXIT_USAGE;
			}
			g->name = group_names[o.n_groups];
			o.n_groups++;
			o.groups = groups;
		} else if (!strcmp(a, "--mode")) {
			if (!strcmp(v, "paced"))
				o.mode = FR_RL_PACED;
			else if (!strcmp(v, "burst"))
				o.mode = FR_RL_BURST;
			else {
				cli_err("run", "--mode wants paced or burst, not '%s'", v);
				return EXIT_USAGE;
			}
		} else if (!strcmp(a, "--gap")) {
			if (parse_num(v, 0, &o.host_gap_s) < 0) {
				cli_err("run", "--gap wants seconds >= 0, not '%s'", v);
				return EXIT_USAGE;
			}
		} else if (!strcmp(a, "--max-crawl-delay")) {
			if (parse_num(v, 0, &o.max_crawl_delay_s) < 0) {
				cli_err("run", "--max-crawl-delay wants seconds >= 0, not '%s'", v);
				return EXIT_USAGE;
			}
		} else if (!strcmp(a, "--retry-after")) {
			if (!strcmp(v, "honour") || !strcmp(v, "honor"))
				o.retry_after = 1;
			else if (!strcmp(v, "ignore"))
				o.retry_after = 0;
			else {
				cli_err("run", "--retry-after wants honour or ignore, not '%s'", v);
				return EXIT_USAGE;
			}
		} else if (!strcmp(a, "--hints")) {
			if (!strcmp(v, "bound"))
				o.hints = 1;
			else if (!strcmp(v, "record"))
				o.hints = 0;
			else {
				cli_err("run", "--hints wants bound or record, not '%s'", v);
				return EXIT_USAGE;
			}
		} else if (!strcmp(a, "--backoff")) {
			char base[64];
			const char *slash = strchr(v, '/');

			if (!slash || (size_t)(slash - v) >= sizeof(base)) {
				cli_err("run", "--backoff wants BASE/CAP, e.g. 60s/1d, not '%s'", v);
				return EXIT_USAGE;
			}
			memcpy(base, v, (size_t)(slash - v));
			base[slash - v] = 0;
			if (fr_duration_parse(base, &o.backoff_base_s) < 0 ||
			    fr_duration_parse(slash + 1, &o.backoff_cap_s) < 0 ||
			    !(o.backoff_base_s > 0) || o.backoff_cap_s < o.backoff_base_s) {
				cli_err("run", "--backoff wants BASE/CAP with 0 < BASE <= CAP, not '%s'",
					v);
				return EXIT_USAGE;
			}
		} else if (!strcmp(a, "--redirect-after")) {
			double d;
			if (parse_num(v, 1, &d) < 0 || d > 1000 || d != floor(d)) {
				cli_err("run", "--redirect-after wants a whole number >= 1, not '%s'", v);
				return EXIT_USAGE;
			}
			o.redirect_after = (int)d;
		} else if (!strcmp(a, "--connect-to")) {
			if (o.fetch.n_connect_to >= MAX_CONNECT_TO) {
				cli_err("run", "at most %d --connect-to", MAX_CONNECT_TO);
				return EXIT_USAGE;
			}
			if (fr_connect_to_check(v, err, sizeof(err)) < 0) {
				cli_err("run", "--connect-to: %s", err);
				return EXIT_USAGE;
			}
			connect_to[o.fetch.n_connect_to++] = v;
		} else if (!strcmp(a, "--user-agent")) {
			o.fetch.user_agent = v;
		} else if (!strcmp(a, "--contact")) {
			o.fetch.contact_url = v;
		} else if (!strcmp(a, "--timeout") || !strcmp(a, "--connect-timeout")) {
			double d;
			if (parse_num(v, 0.001, &d) < 0) {
				cli_err("run", "%s wants seconds > 0, not '%s'", a, v);
				return EXIT_USAGE;
			}
			if (a[2] == 't')
				o.fetch.timeout_s = d;
			else
				o.fetch.connect_timeout_s = d;
		} else if (!strcmp(a, "--max-body")) {
			double d;
			if (parse_num(v, 1024, &d) < 0 || d > 1e12) {
				cli_err("run", "--max-body wants bytes >= 1024, not '%s'", v);
				return EXIT_USAGE;
			}
			o.fetch.max_body = (size_t)d;
		} else if (!strcmp(a, "--transfers")) {
			double d;
			if (parse_num(v, 1, &d) < 0 || d > 10000 || d != floor(d)) {
				cli_err("run", "--transfers wants a whole number 1..10000, not '%s'", v);
				return EXIT_USAGE;
			}
			o.fetch.max_total = (int)d;
		} else if (!strcmp(a, "--commit-every")) {
			if (parse_num(v, 0, &o.commit_interval_s) < 0 || o.commit_interval_s > 60) {
				cli_err("run", "--commit-every wants seconds from 0 to 60, not '%s'", v);
				return EXIT_USAGE;
			}
		} else if (!strcmp(a, "--exec") || !strcmp(a, "--webhook")) {
			if (n_sinks >= MAX_SINKS) {
				cli_err("run", "at most %d sinks (--exec, --webhook)", MAX_SINKS);
				return EXIT_USAGE;
			}
			if (!*v) {
				cli_err("run", "%s wants a %s", a, a[2] == 'e' ? "command" : "URL");
				return EXIT_USAGE;
			}
			memset(&sinks[n_sinks], 0, sizeof(sinks[0]));
			sinks[n_sinks].kind = a[2] == 'e' ? FR_SINK_EXEC : FR_SINK_WEBHOOK;
			sinks[n_sinks].target = v;
			n_sinks++;
		} else if (!strcmp(a, "--webhook-secret")) {
			webhook_secret = v;
		} else if (!strcmp(a, "--sink-batch")) {
			double d;
			if (parse_num(v, 1, &d) < 0 || d > 100000 || d != floor(d)) {
				cli_err("run", "--sink-batch wants a whole number 1..100000, not '%s'", v);
				return EXIT_USAGE;
			}
			sink_batch = (size_t)d;
		} else if (!strcmp(a, "--sink-backoff")) {
			char base[64];
			const char *slash = strchr(v, '/');

			if (!slash || (size_t)(slash - v) >= sizeof(base)) {
				cli_err("run", "--sink-backoff wants BASE/CAP, e.g. 1s/5m, not '%s'", v);
				return EXIT_USAGE;
			}
			memcpy(base, v, (size_t)(slash - v));
			base[slash - v] = 0;
			if (fr_duration_parse(base, &sink_base_s) < 0 ||
			    fr_duration_parse(slash + 1, &sink_cap_s) < 0 || !(sink_base_s > 0) ||
			    sink_cap_s < sink_base_s) {
				cli_err("run", "--sink-backoff wants BASE/CAP with 0 < BASE <= CAP, not '%s'",
					v);
				return EXIT_USAGE;
			}
		} else if (!strcmp(a, "--request-log")) {
			request_log = v;
		} else if (!strcmp(a, "--listen")) {
			listen = v;
		} else if (!strcmp(a, "--listen-token-file")) {
			token_file = v;
		} else if (!strcmp(a, "--seed")) {
			double d;
			if (parse_num(v, 0, &d) < 0 || d != floor(d)) {
				cli_err("run", "--seed wants a whole number, not '%s'", v);
				return EXIT_USAGE;
			}
			o.seed = (uint64_t)d;
		} else {
			return cli_unknown_option("run", a, USAGE);
		}
	}

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
