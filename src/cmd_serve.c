/* cmd_serve.c - `freshet serve`: serves a synthetic world as feeds over HTTP
 * on 127.0.0.1, on many virtual hosts, in compressed time, for live crawls;
 * or a web of sites (a manifest, or generated) for feed discovery; or a
 * world of evolving forums for incremental forum crawling. */
#include "cmd.h"
#include "opt.h"

#include "core/err.h"
#include "core/outfile.h"
#include "core/timefmt.h"
#include "testkit/api.h"
#include "testkit/clock.h"
#include "testkit/feeds.h"
#include "testkit/forums.h"
#include "testkit/hub.h"
#include "testkit/server.h"
#include "testkit/sites.h"
#include "testkit/web.h"
#include "sim/trace.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char USAGE[] =
    "usage: freshet serve --world DIR [--speed X] [--port P] [--port-file F]\n"
    "                     [--hosts N] [--opml FILE] [--log FILE] [--truth FILE]\n"
    "                     [--start T] [--duration D] [--window N] [--misbehave on|off]\n"
    "                     [--host-limit N/WINDOW] [--api-limit N/WINDOW|off]\n"
    "                     [--formats rss,atom,json] [--huge-mib M]\n"
    "       freshet serve --world DIR --api graph|mastodon|reddit [--api-limit N/W|off]\n"
    "                     [--api-token T]... [--api-token-file F] [--api-error CODE]\n"
    "                     [--list FILE] [--truth FILE] [--speed X] [--start T]\n"
    "                     [--duration D] [--port P] [--port-file F] [--log FILE]\n"
    "       freshet serve --sites MANIFEST [--port P] [--port-file F] [--log FILE]\n"
    "       freshet serve --web N [--seed S] [--truth FILE] [--sites-list FILE]\n"
    "                     [--port P] [--port-file F] [--log FILE]\n"
    "       freshet serve --forums N [--seed S] [--speed X] [--start T] [--duration D]\n"
    "                     [--truth FILE] [--list FILE] [--describe FILE]\n"
    "                     [--port P] [--port-file F] [--log FILE]\n";

static const char ABOUT[] =
    "Serves the world in DIR (written by `freshet world --out DIR`: trace.csv and\n"
    "sources.csv) over HTTP on 127.0.0.1 until SIGINT or SIGTERM. Every source is a\n"
    "feed (RSS 2.0, Atom 1.0 or JSON Feed 1.1, mixed) on a virtual host\n"
    "h<k>.freshet.test, told apart by the Host header; reach them with\n"
    "  curl --connect-to ::127.0.0.1:PORT http://h3.freshet.test/feeds/s0003.rss\n"
    "  freshet run --connect-to ::127.0.0.1:PORT ...\n"
    "Items appear when the serve clock reaches their trace time: the clock starts at\n"
    "--start and runs --speed trace seconds per wall second, and stops at\n"
    "--start + --duration. Feeds date items on the wall clock. See docs/serve.md.\n"
    "\n"
    "With --api graph|mastodon|reddit it serves the world's sources as that JSON\n"
    "API instead (Graph page posts, Mastodon account statuses, Reddit listings), on\n"
    "the host graph.freshet.test (mastodon..., reddit...), with a per-token limit\n"
    "(600 calls per 10 minutes of world time by default), the API's usage headers\n"
    "and its error bodies past the limit; --list writes each source's URL.\n"
    "\n"
    "With --sites or --web it serves a web of sites for feed discovery instead, on\n"
    "any Host name (reach it with --connect-to ::127.0.0.1:PORT as above).\n"
    "\n"
    "With --forums N it serves N synthetic forums that evolve in compressed time,\n"
    "forum<k>.test for k = 0..N-1 (any Host name, as above), in the styles of\n"
    "phpBB, vBulletin, SMF, XenForo, Discuz!, a custom and a threaded forum (the\n"
    "structure of forum k is row k % 14 of a table: see docs/serve.md).\n";

static const char EXAMPLES[] =
    "  freshet serve --world w --speed 3600 --port-file port\n"
    "  freshet serve --world w --api graph --speed 1440 --list urls.txt --log log.tsv\n"
    "  freshet serve --web 100 --truth truth.tsv --sites-list sites.txt\n"
    "  freshet serve --forums 14 --speed 60 --list forums.txt\n";

static int
parse_u64(const char *s, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!*s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (*end || errno == ERANGE || v > max)
		return -1;
	*out = v;
	return 0;
}

/* A positive, finite number followed by an optional unit (s, m, h, d). */
static int
parse_span(const char *s, int units, double *out)
{
	char *end;
	double v, mult = 1;

	if (!*s || *s == ' ' || *s == '\t' || *s == '-' || *s == '+')
		return -1;
	v = strtod(s, &end);
	if (end == s)
		return -1;
	if (units && *end) {
		switch (*end) {
		case 's':
			mult = 1;
			break;
		case 'm':
			mult = 60;
			break;
		case 'h':
			mult = 3600;
			break;
		case 'd':
			mult = 86400;
			break;
		default:
			return -1;
		}
		end++;
	}
	if (*end || !isfinite(v) || !(v > 0))
		return -1;
	*out = v * mult;
	return 0;
}

/* "N/WINDOW" (e.g. "5/10s") or "off" (n = 0). */
static int
parse_limit(const char *s, unsigned *n, double *window_s)
{
	const char *slash = strchr(s, '/');
	char num[32];
	uint64_t u;

	if (!strcmp(s, "off")) {
		*n = 0;
		*window_s = 0;
		return 0;
	}
	if (!slash || (size_t)(slash - s) >= sizeof(num))
		return -1;
	memcpy(num, s, (size_t)(slash - s));
	num[slash - s] = '\0';
	if (parse_u64(num, 100000, &u) < 0 || u == 0 || parse_span(slash + 1, 1, window_s) < 0)
		return -1;
	*n = (unsigned)u;
	return 0;
}

static int
parse_formats(const char *s, struct fr_serve_feeds_config *c)
{
	const char *p = s;

	c->n_formats = 0;
	while (*p) {
		size_t n = strcspn(p, ",");
		int f;

		for (f = 0; f < FR_SERVE_N_FORMATS; f++) {
			const char *ext = fr_serve_format_ext((enum fr_serve_format)f);
			if (strlen(ext) == n && !strncmp(p, ext, n))
				break;
		}
		if (f == FR_SERVE_N_FORMATS || c->n_formats == FR_SERVE_N_FORMATS)
			return -1;
		c->formats[c->n_formats++] = (enum fr_serve_format)f;
		p += n;
		if (*p == ',') {
			p++;
			if (*p == '\0')
				return -1; /* a trailing comma */
		}
	}
	return c->n_formats ? 0 : -1;
}

/* Writes path whole or not at all (core/outfile): fill writes the content
 * and returns 0, or -1 with err set. Returns 0, or -1 after a message
 * "freshet serve: OPT PATH...: reason". */
static int
write_whole(const char *opt, const char *path,
            int (*fill)(void *arg, FILE *f, const char *path, char *err, size_t errlen),
            void *arg)
{
	struct fr_outfile o;
	char err[FR_ERRLEN];

	if (fr_outfile_open_path(&o, path, err, sizeof(err)) < 0) {
		cli_err("serve", "%s %s", opt, err);
		return -1;
	}
	if (fill(arg, o.f, path, err, sizeof(err)) < 0) {
		fr_outfile_abort(&o);
		cli_err("serve", "%s %s", opt, err);
		return -1;
	}
	if (fr_outfile_commit(&o, err, sizeof(err)) < 0) {
		cli_err("serve", "%s %s", opt, err);
		return -1;
	}
	return 0;
}

static int
fill_text(void *arg, FILE *f, const char *path, char *err, size_t errlen)
{
	(void)path;
	(void)err;
	(void)errlen;
	fputs(arg, f);
	return 0;
}

/* A port file: the port and a newline. */
static int
write_port_file(const char *opt, const char *path, uint16_t port)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "%u\n", (unsigned)port);
	return write_whole(opt, path, fill_text, buf);
}

/* A PEM file's text (at most 1 MiB), or NULL after a message naming it. */
static char *
read_pem(const char *path, const char *opt)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	size_t n;

	if (!f) {
		cli_err("serve", "%s %s: cannot open: %s", opt, path, strerror(errno));
		return NULL;
	}
	buf = malloc((1u << 20) + 1);
	n = buf ? fread(buf, 1, 1u << 20, f) : 0;
	fclose(f);
	if (!buf || n == 0 || n == (1u << 20) || !memchr(buf, '-', n)) {
		cli_err("serve", "%s %s: not a PEM file", opt, path);
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	return buf;
}

struct opts {
	const char *world, *speed, *port, *port_file, *hosts, *opml, *log, *truth, *start,
	    *duration, *window, *misbehave, *host_limit, *api_limit, *formats, *huge_mib;
	const char *sites, *web, *seed, *sites_list;
	const char *tls_cert, *tls_key, *tls_port, *tls_port_file;
	const char *forums, *list, *describe;
	const char *api, *api_token_file, *api_error;
	const char *hub_share, *hub_drop, *hub_log;
	const char **api_tokens;
	size_t n_api_tokens;
};

/* --api-token: one more accepted token. */
static int
take_token(void *ctx, const struct opt *opt, const char *val)
{
	struct opts *o = ctx;
	const char **t;

	(void)opt;
	if (!*val) {
		cli_err("serve", "--api-token wants a non-empty token");
		return -1;
	}
	t = realloc(o->api_tokens, (o->n_api_tokens + 1) * sizeof(*t));
	if (!t) {
		cli_err("serve", "out of memory");
		return -2;
	}
	t[o->n_api_tokens++] = val;
	o->api_tokens = t;
	return 0;
}

static int
parse_args(int argc, char **argv, struct opts *o)
{
	const struct opt opts[] = {
	    {.name = "port", .kind = OPT_STRING, .arg = "P", .dest = &o->port,
	     .help = "port on 127.0.0.1; 0 takes a free one (default 0)"},
	    {.name = "port-file", .kind = OPT_STRING, .arg = "F", .dest = &o->port_file,
	     .help = "write the port to F once listening"},
	    {.name = "log", .kind = OPT_STRING, .arg = "FILE", .dest = &o->log,
	     .help = "request log, TSV, one line per request"},
	    {.name = "truth", .kind = OPT_STRING, .arg = "FILE", .dest = &o->truth,
	     .help = "--world: on stop, CSV of every item a crawler could have seen; --web: TSV "
		     "site_url<TAB>feed_url, the feeds each site has (an empty feed_url for "
		     "none), written before listening; --forums: on stop, TSV of every post that "
		     "exists at the clock's time"},
	    {.name = "seed", .kind = OPT_STRING, .arg = "S", .dest = &o->seed,
	     .help = "--web: words, titles and dates; --forums: rates, times, members and words "
		     "(default 1)"},
	    {.name = "speed", .kind = OPT_STRING, .arg = "X", .dest = &o->speed,
	     .help = "trace (or forum) seconds per wall second (default 1)"},
	    {.name = "start", .kind = OPT_STRING, .arg = "T", .dest = &o->start,
	     .help = "trace (or forum) time of the clock's start, Unix seconds or RFC 3339 "
		     "(default: the first item's time + 1 day; forums: now, to the minute, "
		     "history coming before it)"},
	    {.name = "duration", .kind = OPT_STRING, .arg = "D", .dest = &o->duration,
	     .help = "trace (or forum) time until the clock stops: seconds, or with a unit s, m, "
		     "h or d (default: to the trace's last item; forums: never)"},
	    {.name = "world", .kind = OPT_STRING, .arg = "DIR", .dest = &o->world,
	     .section = "world", .help = "the world directory"},
	    {.name = "hosts", .kind = OPT_STRING, .arg = "N", .dest = &o->hosts,
	     .help = "virtual hosts (default: the trace's hosts when sources share them, else "
		     "max(1, sources/10)); source i on host i%N"},
	    {.name = "opml", .kind = OPT_STRING, .arg = "FILE", .dest = &o->opml,
	     .help = "feed list as OPML (default DIR/feeds.opml)"},
	    {.name = "window", .kind = OPT_STRING, .arg = "N", .dest = &o->window,
	     .help = "items per feed, newest first (default 25)"},
	    {.name = "misbehave", .kind = OPT_STRING, .arg = "on|off", .dest = &o->misbehave,
	     .help = "slow, failing, ill-formed, redirecting and huge hosts (default on)"},
	    {.name = "host-limit", .kind = OPT_STRING, .arg = "N/W", .dest = &o->host_limit,
	     .help = "at most N requests per W wall seconds on every host, e.g. 5/10s; more get "
		     "429 + Retry-After (default: off)"},
	    {.name = "api-limit", .kind = OPT_STRING, .arg = "N/W", .dest = &o->api_limit,
	     .help = "the limit of the API hosts (h7, h18, h47, ...; default 2/5s), or off; with "
		     "--api: each token's calls per W of world time (default 600/10m)"},
	    {.name = "formats", .kind = OPT_STRING, .arg = "LIST", .dest = &o->formats,
	     .help = "feed formats, mixed by source index (default rss,atom,json)"},
	    {.name = "huge-mib", .kind = OPT_STRING, .arg = "M", .dest = &o->huge_mib,
	     .help = "size of the huge feeds in MiB (default 64)"},
	    {.name = "hub-share", .kind = OPT_STRING, .arg = "F", .dest = &o->hub_share,
	     .section = "world with a WebSub hub (docs/websub.md)",
	     .help = "a share F of the feeds (0..1, spread evenly) name a WebSub hub at "
		     "http://h0.DOMAIN/websub/hub (Link header) that pushes their new items"},
	    {.name = "hub-drop", .kind = OPT_STRING, .arg = "F", .dest = &o->hub_drop,
	     .help = "the hub drops this share of deliveries on purpose (default 0)"},
	    {.name = "hub-log", .kind = OPT_STRING, .arg = "FILE", .dest = &o->hub_log,
	     .help = "TSV of the hub's events: wall_s, event (request, verified, refused, push, "
		     "drop, failed, gone), source, from, count, status"},
	    {.name = "api", .kind = OPT_STRING, .arg = "KIND", .dest = &o->api,
	     .section = "world as a JSON API",
	     .help = "serve the world's sources as a graph, mastodon or reddit JSON API"},
	    {.name = "api-token", .kind = OPT_CALL, .arg = "T", .take = take_token, .ctx = o,
	     .help = "with --api: a token the API accepts (repeatable; default: any non-empty "
		     "token, each counted on its own)"},
	    {.name = "api-token-file", .kind = OPT_STRING, .arg = "F", .dest = &o->api_token_file,
	     .help = "with --api: the accepted tokens, one a line"},
	    {.name = "api-error", .kind = OPT_STRING, .arg = "CODE", .dest = &o->api_error,
	     .help = "with --api graph: the error code past the limit: 4 (application, "
		     "default), 17 (user), 32 (page) or 613"},
	    {.name = "sites", .kind = OPT_STRING, .arg = "MANIFEST", .dest = &o->sites,
	     .section = "sites and web",
	     .help = "the URLs a TSV manifest lists, one a line: URL<TAB>TYPE<TAB>SOURCE, SOURCE "
		     "one of file:PATH (relative to the manifest), feed:rss|atom|json|rdf, "
		     "status:CODE, redirect:CODE:TARGET, text:LITERAL; anything else is 404"},
	    {.name = "web", .kind = OPT_STRING, .arg = "N", .dest = &o->web,
	     .help = "N generated sites www.site0.test .. www.site<N-1>.test, ten shapes of feed "
		     "discovery (site k has shape k % 10: head, two feeds, body link, <a> only, "
		     "well-known path only, feed on another domain, JSON Feed, feed one level "
		     "down, no feed, traps); see docs/serve.md"},
	    {.name = "sites-list", .kind = OPT_STRING, .arg = "FILE", .dest = &o->sites_list,
	     .help = "with --web: the site URLs, one a line (for discover --file)"},
	    {.name = "tls-cert", .kind = OPT_STRING, .arg = "FILE", .dest = &o->tls_cert,
	     .help = "with --sites or --web: also serve HTTPS with this PEM certificate (chain) "
		     "and the key of --tls-key, on a second port: reach both with --connect-to "
		     ":80:127.0.0.1:PORT and --connect-to :443:127.0.0.1:TLS-PORT (and --cacert "
		     "FILE)"},
	    {.name = "tls-key", .kind = OPT_STRING, .arg = "FILE", .dest = &o->tls_key,
	     .help = "the key of --tls-cert (PEM)"},
	    {.name = "tls-port", .kind = OPT_STRING, .arg = "P", .dest = &o->tls_port,
	     .help = "the HTTPS port (default 0: a free one)"},
	    {.name = "tls-port-file", .kind = OPT_STRING, .arg = "F", .dest = &o->tls_port_file,
	     .help = "write the HTTPS port to F once listening"},
	    {.name = "forums", .kind = OPT_STRING, .arg = "N", .dest = &o->forums,
	     .section = "forums", .help = "serve N synthetic forums"},
	    {.name = "list", .kind = OPT_STRING, .arg = "FILE", .dest = &o->list,
	     .help = "the forums' entry URLs, or with --api the sources' API URLs, one a line, "
		     "written before listening"},
	    {.name = "describe", .kind = OPT_STRING, .arg = "FILE", .dest = &o->describe,
	     .help = "TSV of each forum's structure, written before listening"},
	    OPT_TABLE_END};
	const struct opt_cmd cmd = {.name = "serve", .usage = USAGE, .about = ABOUT, .opts = opts,
				    .examples = EXAMPLES};
	int rc;

	memset(o, 0, sizeof(*o));
	if ((rc = opt_parse(&cmd, argc, argv)) != 0)
		return rc == OPT_HELP_SHOWN ? 1 : -1;
	if ((o->world != NULL) + (o->sites != NULL) + (o->web != NULL) + (o->forums != NULL) > 1) {
		cli_err("serve", "give one of --world, --sites and --web, or --forums");
		return -1;
	}
	if (o->forums) {
		const char *other[] = {o->hosts,     o->opml,      o->window,   o->misbehave,
		                       o->host_limit, o->api_limit, o->formats, o->huge_mib,
		                       o->sites_list, o->tls_cert,  o->tls_key, o->tls_port,
		                       o->tls_port_file, o->api};
		const char *other_names[] = {"--hosts",      "--opml",      "--window",   "--misbehave",
		                             "--host-limit", "--api-limit", "--formats",  "--huge-mib",
		                             "--sites-list", "--tls-cert",  "--tls-key",  "--tls-port",
		                             "--tls-port-file", "--api"};

		for (size_t k = 0; k < sizeof(other) / sizeof(other[0]); k++) {
			if (other[k]) {
				cli_err("serve", "%s does not go with --forums", other_names[k]);
				return -1;
			}
		}
		return 0;
	}
	if (!o->api && (o->api_tokens || o->api_token_file || o->api_error)) {
		cli_err("serve", "%s goes with --api",
		        o->api_tokens ? "--api-token" : o->api_token_file ? "--api-token-file"
		                                                          : "--api-error");
		return -1;
	}
	if (o->api) {
		const char *other[] = {o->hosts,     o->opml,    o->window,   o->misbehave,
		                       o->host_limit, o->formats, o->huge_mib, o->describe,
		                       o->sites,     o->web,     o->seed,     o->sites_list,
		                       o->tls_cert,  o->tls_key, o->tls_port, o->tls_port_file};
		const char *other_names[] = {
		    "--hosts",     "--opml",    "--window",   "--misbehave", "--host-limit", "--formats",
		    "--huge-mib",  "--describe", "--sites",   "--web",       "--seed",       "--sites-list",
		    "--tls-cert",  "--tls-key", "--tls-port", "--tls-port-file"};
		enum fr_tk_api_kind k;

		for (size_t i = 0; i < sizeof(other) / sizeof(other[0]); i++) {
			if (other[i]) {
				cli_err("serve", "%s does not go with --api", other_names[i]);
				return -1;
			}
		}
		if (fr_tk_api_kind_parse(o->api, &k) < 0) {
			cli_err("serve", "--api wants graph, mastodon or reddit, not '%s'", o->api);
			return -1;
		}
		if (o->api_error && k != FR_TK_API_GRAPH) {
			cli_err("serve", "--api-error goes with --api graph");
			return -1;
		}
		if (!o->world || !*o->world) {
			cli_err("serve", "--api needs --world DIR");
			return -1;
		}
		return 0;
	}
	if (o->list || o->describe) {
		cli_err("serve", "%s goes with --forums", o->list ? "--list" : "--describe");
		return -1;
	}
	if (o->sites || o->web) {
		const char *world_only[] = {o->speed,     o->hosts,     o->opml,      o->start,
		                            o->duration,  o->window,    o->misbehave, o->host_limit,
		                            o->api_limit, o->formats,   o->huge_mib};
		const char *world_names[] = {"--speed",     "--hosts",     "--opml",      "--start",
		                             "--duration",  "--window",    "--misbehave", "--host-limit",
		                             "--api-limit", "--formats",   "--huge-mib"};

		for (size_t k = 0; k < sizeof(world_only) / sizeof(world_only[0]); k++) {
			if (world_only[k]) {
				cli_err("serve", "%s goes with --world, not with %s", world_names[k],
				        o->web ? "--web" : "--sites");
				return -1;
			}
		}
		if (o->sites && (o->seed || o->truth || o->sites_list)) {
			cli_err("serve", "%s goes with --web, not with --sites",
			        o->seed ? "--seed" : o->truth ? "--truth" : "--sites-list");
			return -1;
		}
		if ((o->sites && !*o->sites) || (o->web && !*o->web)) {
			cli_err("serve", "%s wants a value", o->sites ? "--sites" : "--web");
			return -1;
		}
		return 0;
	}
	if (o->tls_cert || o->tls_key || o->tls_port || o->tls_port_file) {
		cli_err("serve", "--tls-* go with --sites or --web");
		return -1;
	}
	if (o->seed || o->sites_list) {
		cli_err("serve", "%s goes with --web", o->seed ? "--seed" : "--sites-list");
		return -1;
	}
	if (!o->world || !*o->world) {
		cli_err("serve", "--world DIR is required (try --help)");
		return -1;
	}
	if (!o->hub_share && (o->hub_drop || o->hub_log)) {
		cli_err("serve", "%s goes with --hub-share", o->hub_drop ? "--hub-drop" : "--hub-log");
		return -1;
	}
	return 0;
}

/* --hub-share, --hub-drop: a share in [0, 1] into *v. */
static int
parse_share(const char *name, const char *s, double *v)
{
	char *end;

	*v = 0;
	if (!s)
		return 0;
	*v = strtod(s, &end);
	if (end == s || *end || !(*v >= 0 && *v <= 1)) {
		cli_err("serve", "%s wants a share from 0 to 1, not '%s'", name, s);
		return -1;
	}
	return 0;
}

/* The options other than the world, checked before anything is loaded. */
struct settings {
	double speed, start_s, duration_s;
	int have_start, have_duration;
	uint16_t port;
	uint32_t hosts;
	unsigned window;
	int misbehave;
	unsigned limit_n, api_n;
	double limit_w, api_w;
	uint64_t huge_bytes;
	struct fr_serve_feeds_config fc;
};

static int
check_settings(const struct opts *o, struct settings *st)
{
	uint64_t u;
	const char *why;

	memset(st, 0, sizeof(*st));
	fr_serve_feeds_config_defaults(&st->fc);
	st->speed = 1;
	st->window = 25;
	st->misbehave = 1;
	st->api_n = 2;
	st->api_w = 5;
	st->huge_bytes = (uint64_t)64 << 20;
	if (o->speed && parse_span(o->speed, 0, &st->speed) < 0) {
		cli_err("serve", "--speed wants a positive number, not '%s'", o->speed);
		return -1;
	}
	if (o->port) {
		if (parse_u64(o->port, 65535, &u) < 0) {
			cli_err("serve", "--port wants 0..65535, not '%s'", o->port);
			return -1;
		}
		st->port = (uint16_t)u;
	}
	if (o->hosts) {
		if (parse_u64(o->hosts, 10000000, &u) < 0 || u == 0) {
			cli_err("serve", "--hosts wants a whole number 1..10000000, not '%s'",
			        o->hosts);
			return -1;
		}
		st->hosts = (uint32_t)u;
	}
	if (o->window) {
		if (parse_u64(o->window, 100000, &u) < 0 || u == 0) {
			cli_err("serve", "--window wants a whole number 1..100000, not '%s'",
			        o->window);
			return -1;
		}
		st->window = (unsigned)u;
	}
	if (o->misbehave) {
		if (strcmp(o->misbehave, "on") != 0 && strcmp(o->misbehave, "off") != 0) {
			cli_err("serve", "--misbehave wants on or off, not '%s'", o->misbehave);
			return -1;
		}
		st->misbehave = !strcmp(o->misbehave, "on");
	}
	if (o->host_limit && parse_limit(o->host_limit, &st->limit_n, &st->limit_w) < 0) {
		cli_err("serve", "--host-limit wants N/WINDOW (e.g. 5/10s) or off, not '%s'",
		        o->host_limit);
		return -1;
	}
	if (o->api_limit && parse_limit(o->api_limit, &st->api_n, &st->api_w) < 0) {
		cli_err("serve", "--api-limit wants N/WINDOW (e.g. 2/5s) or off, not '%s'",
		        o->api_limit);
		return -1;
	}
	if (o->formats && parse_formats(o->formats, &st->fc) < 0) {
		cli_err("serve",
		        "--formats wants a comma-separated list of rss, atom, json, not '%s'",
		        o->formats);
		return -1;
	}
	if (o->huge_mib) {
		if (parse_u64(o->huge_mib, 1 << 20, &u) < 0 || u == 0) {
			cli_err("serve", "--huge-mib wants a whole number >= 1, not '%s'",
			        o->huge_mib);
			return -1;
		}
		st->huge_bytes = u << 20;
	}
	if (o->start) {
		if (fr_time_parse(o->start, strlen(o->start), &st->start_s, &why) < 0) {
			cli_err("serve", "--start: time '%s' %s", o->start, why);
			return -1;
		}
		st->have_start = 1;
	}
	if (o->duration) {
		if (parse_span(o->duration, 1, &st->duration_s) < 0) {
			cli_err("serve",
			        "--duration wants a positive span (e.g. 86400, 36h, 2d), not '%s'",
			        o->duration);
			return -1;
		}
		st->have_duration = 1;
	}
	return 0;
}

/* Opens path for writing, naming it on failure. */
static FILE *
open_out(const char *what, const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f)
		cli_err("serve", "%s %s: cannot write: %s", what, path, strerror(errno));
	return f;
}

static int
fill_opml(void *arg, FILE *f, const char *path, char *err, size_t errlen)
{
	return fr_serve_feeds_write_opml(arg, f, path, err, errlen);
}

struct feeds_truth {
	const struct fr_serve_feeds *feeds;
	double t_end;
	size_t *rows;
};

static int
fill_feeds_truth(void *arg, FILE *f, const char *path, char *err, size_t errlen)
{
	struct feeds_truth *t = arg;
	return fr_serve_feeds_write_truth(t->feeds, f, path, t->t_end, t->rows, err, errlen);
}

static int
fill_web_truth(void *arg, FILE *f, const char *path, char *err, size_t errlen)
{
	return fr_web_write_truth(arg, f, path, err, errlen);
}

static int
fill_web_sites(void *arg, FILE *f, const char *path, char *err, size_t errlen)
{
	return fr_web_write_sites(arg, f, path, err, errlen);
}

/* `serve --sites` and `serve --web`: the any-host server over a web. */
static int
serve_web(const struct opts *o)
{
	struct fr_serve_config sc;
	struct fr_serve *srv = NULL, *tls_srv = NULL;
	struct fr_serve_stats stats;
	struct fr_sites *sites = NULL;
	struct fr_web *web = NULL;
	char err[FR_ERRLEN], what[256];
	char *cert = NULL, *key = NULL;
	uint16_t port = 0, tls_port = 0;
	uint64_t u, seed = 1;
	FILE *logf = NULL;
	sigset_t sigs;
	int sig = 0, code = EXIT_FAIL;

	if (o->port) {
		if (parse_u64(o->port, 65535, &u) < 0) {
			cli_err("serve", "--port wants 0..65535, not '%s'", o->port);
			return EXIT_USAGE;
		}
		port = (uint16_t)u;
	}
	if (!o->tls_cert != !o->tls_key) {
		cli_err("serve", "HTTPS needs both --tls-cert and --tls-key");
		return EXIT_USAGE;
	}
	if ((o->tls_port || o->tls_port_file) && !o->tls_cert) {
		cli_err("serve", "--tls-port and --tls-port-file need --tls-cert and --tls-key");
		return EXIT_USAGE;
	}
	if (o->tls_port) {
		if (parse_u64(o->tls_port, 65535, &u) < 0) {
			cli_err("serve", "--tls-port wants 0..65535, not '%s'", o->tls_port);
			return EXIT_USAGE;
		}
		tls_port = (uint16_t)u;
	}
	if (o->tls_cert) {
		cert = read_pem(o->tls_cert, "--tls-cert");
		key = cert ? read_pem(o->tls_key, "--tls-key") : NULL;
		if (!key) {
			free(cert);
			return EXIT_FAIL;
		}
	}
	if (o->seed) {
		if (parse_u64(o->seed, UINT64_MAX, &u) < 0) {
			cli_err("serve", "--seed wants a whole number >= 0, not '%s'", o->seed);
			return EXIT_USAGE;
		}
		seed = u;
	}
	if (o->web) {
		struct fr_web_config wc;

		if (parse_u64(o->web, FR_WEB_MAX_SITES, &u) < 0 || u == 0) {
			cli_err("serve", "--web wants a number of sites 1..%u, not '%s'",
			        FR_WEB_MAX_SITES, o->web);
			return EXIT_USAGE;
		}
		wc.n_sites = (uint32_t)u;
		wc.seed = seed;
		web = fr_web_new(&wc, err, sizeof(err));
		if (!web) {
			cli_err("serve", "%s", err);
			return EXIT_FAIL;
		}
		if ((o->truth && write_whole("--truth", o->truth, fill_web_truth, web) < 0) ||
		    (o->sites_list &&
		     write_whole("--sites-list", o->sites_list, fill_web_sites, web) < 0))
			goto out;
		snprintf(what, sizeof(what),
		         "a web of %u sites www.site0..www.site%u.test (seed %llu)%s%s",
		         (unsigned)wc.n_sites, (unsigned)wc.n_sites - 1, (unsigned long long)seed,
		         o->truth ? "; truth " : "", o->truth ? o->truth : "");
	} else {
		sites = fr_sites_load(o->sites, err, sizeof(err));
		if (!sites) {
			cli_err("serve", "--sites %s", err);
			return EXIT_FAIL;
		}
		snprintf(what, sizeof(what), "%zu URLs from %s", fr_sites_count(sites), o->sites);
	}
	if (o->log) {
		logf = open_out("--log", o->log);
		if (!logf)
			goto out;
		setvbuf(logf, NULL, _IOLBF, 0);
	}
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &sigs, NULL);
	signal(SIGPIPE, SIG_IGN);

	fr_serve_config_defaults(&sc);
	sc.any_host = 1;
	sc.port = port;
	sc.log = logf;
	sc.handler.handle = web ? fr_web_handle : fr_sites_handle;
	sc.handler.ctx = web ? (void *)web : (void *)sites;
	srv = fr_serve_start(&sc, err, sizeof(err));
	if (!srv) {
		cli_err("serve", "%s", err);
		goto out;
	}
	if (cert) {
		sc.port = tls_port;
		sc.tls_cert = cert;
		sc.tls_key = key;
		sc.no_log_header = 1;
		tls_srv = fr_serve_start(&sc, err, sizeof(err));
		if (!tls_srv) {
			cli_err("serve", "HTTPS: %s", err);
			goto out;
		}
		if (o->tls_port_file &&
		    write_port_file("--tls-port-file", o->tls_port_file, fr_serve_port(tls_srv)) < 0)
			goto out;
		fprintf(stderr, "freshet serve: HTTPS on 127.0.0.1:%u\n",
		        (unsigned)fr_serve_port(tls_srv));
	}
	/* Last: a written port file says every side is listening. */
	if (o->port_file && write_port_file("--port-file", o->port_file, fr_serve_port(srv)) < 0)
		goto out;
	fprintf(stderr, "freshet serve: listening on 127.0.0.1:%u: %s\n",
	        (unsigned)fr_serve_port(srv), what);
	while (sigwait(&sigs, &sig) != 0)
		;
	fr_serve_get_stats(srv, &stats);
	if (tls_srv) {
		struct fr_serve_stats ts;
		fr_serve_get_stats(tls_srv, &ts);
		stats.requests += ts.requests;
		stats.ok += ts.ok;
		stats.not_modified += ts.not_modified;
		stats.redirect += ts.redirect;
		stats.not_found += ts.not_found;
		stats.other += ts.other;
		stats.too_many += ts.too_many;
		stats.fail500 += ts.fail500;
		stats.fail503 += ts.fail503;
		fr_serve_stop(tls_srv);
		tls_srv = NULL;
	}
	fr_serve_stop(srv);
	srv = NULL;
	fprintf(stderr,
	        "freshet serve: %s: %llu requests (%llu 200, %llu 304, %llu 3xx, %llu 404, "
	        "%llu other)\n",
	        sig == SIGINT ? "interrupted" : "terminated", (unsigned long long)stats.requests,
	        (unsigned long long)stats.ok, (unsigned long long)stats.not_modified,
	        (unsigned long long)stats.redirect, (unsigned long long)stats.not_found,
	        (unsigned long long)(stats.other + stats.too_many + stats.fail500 +
	                             stats.fail503));
	code = EXIT_OK;
out:
	fr_serve_stop(tls_srv);
	fr_serve_stop(srv);
	free(cert);
	free(key);
	if (logf && fclose(logf) != 0) {
		cli_err("serve", "--log %s: write error", o->log);
		code = EXIT_FAIL;
	}
	fr_sites_free(sites);
	fr_web_free(web);
	return code;
}

/* A --forums file: kind 0 the truth at t_s, 1 the list, 2 the description. */
struct forums_file {
	struct fr_tk_forums *w;
	int kind;
	double t_s;
	size_t *rows;
};

static int
fill_forums(void *arg, FILE *f, const char *path, char *err, size_t errlen)
{
	struct forums_file *ff = arg;

	return ff->kind == 0
	           ? fr_tk_forums_write_truth(ff->w, f, ff->t_s, ff->rows, path, err, errlen)
	       : ff->kind == 1 ? fr_tk_forums_write_list(ff->w, f, path, err, errlen)
	                       : fr_tk_forums_write_describe(ff->w, f, path, err, errlen);
}

static int
write_forums_file(struct fr_tk_forums *w, const char *opt, const char *path, int kind, double t_s,
                  size_t *rows)
{
	struct forums_file ff = {w, kind, t_s, rows};

	return write_whole(opt, path, fill_forums, &ff);
}

/* `serve --forums N`: evolving forums on the any-host server. */
static int
serve_forums(const struct opts *o)
{
	struct fr_serve_clock clock;
	struct fr_serve_config sc;
	struct fr_tk_forums_config fc;
	struct fr_tk_forums *w = NULL;
	struct fr_serve *srv = NULL;
	struct fr_serve_stats stats;
	char err[FR_ERRLEN], t0[32], t1[32];
	const char *why;
	uint64_t u, seed = 1;
	uint16_t port = 0;
	double speed = 1, start_s, duration_s = 0;
	FILE *logf = NULL;
	sigset_t sigs;
	int sig = 0, code = EXIT_FAIL;
	size_t rows = 0;
	const char *clock_file = getenv("FRESHET_CLOCK_FILE");

	if (parse_u64(o->forums, FR_TK_FORUMS_MAX, &u) < 0 || u == 0) {
		cli_err("serve", "--forums wants a number of forums 1..%u, not '%s'",
		        FR_TK_FORUMS_MAX, o->forums);
		return EXIT_USAGE;
	}
	memset(&fc, 0, sizeof(fc));
	fc.n_forums = (uint32_t)u;
	if (o->seed) {
		if (parse_u64(o->seed, UINT64_MAX, &u) < 0) {
			cli_err("serve", "--seed wants a whole number >= 0, not '%s'", o->seed);
			return EXIT_USAGE;
		}
		seed = u;
	}
	if (o->speed && parse_span(o->speed, 0, &speed) < 0) {
		cli_err("serve", "--speed wants a positive number, not '%s'", o->speed);
		return EXIT_USAGE;
	}
	if (o->port) {
		if (parse_u64(o->port, 65535, &u) < 0) {
			cli_err("serve", "--port wants 0..65535, not '%s'", o->port);
			return EXIT_USAGE;
		}
		port = (uint16_t)u;
	}
	if (o->start) {
		if (fr_time_parse(o->start, strlen(o->start), &start_s, &why) < 0) {
			cli_err("serve", "--start: time '%s' %s", o->start, why);
			return EXIT_USAGE;
		}
	} else {
		start_s = floor(fr_serve_wall_now() / 60) * 60;
	}
	if (o->duration && parse_span(o->duration, 1, &duration_s) < 0) {
		cli_err("serve", "--duration wants a positive span (e.g. 86400, 36h, 2d), not '%s'",
		        o->duration);
		return EXIT_USAGE;
	}
	if (clock_file && !*clock_file)
		clock_file = NULL;
	memset(&clock, 0, sizeof(clock));
	clock.speed = speed;
	clock.start_s = start_s;
	clock.end_s = o->duration ? start_s + duration_s : start_s + 1e11;
	clock.wall0_s = fr_serve_wall_now();
	fc.seed = seed;
	fc.clock = &clock;
	w = fr_tk_forums_new(&fc, err, sizeof(err));
	if (!w) {
		cli_err("serve", "%s", err);
		return EXIT_FAIL;
	}
	if ((o->list && write_forums_file(w, "--list", o->list, 1, 0, NULL) < 0) ||
	    (o->describe && write_forums_file(w, "--describe", o->describe, 2, 0, NULL) < 0))
		goto out;
	if (o->log) {
		logf = open_out("--log", o->log);
		if (!logf)
			goto out;
		setvbuf(logf, NULL, _IOLBF, 0);
	}
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &sigs, NULL);
	signal(SIGPIPE, SIG_IGN);

	fr_serve_config_defaults(&sc);
	sc.any_host = 1;
	sc.port = port;
	sc.log = logf;
	sc.handler.handle = fr_tk_forums_handle;
	sc.handler.ctx = w;
	/* The clock starts when the server listens; or, with FRESHET_CLOCK_FILE,
	 * the forums' time is the time written there (a test steps it, so that
	 * what the forums show does not depend on how fast the crawler is). */
	clock.wall0_s = fr_serve_wall_now();
	if (clock_file) {
		sc.clock_file = clock_file;
		clock.speed = 1;
		clock.wall0_s = clock.start_s;
	}
	srv = fr_serve_start(&sc, err, sizeof(err));
	if (!srv) {
		cli_err("serve", "%s", err);
		goto out;
	}
	if (o->port_file && write_port_file("--port-file", o->port_file, fr_serve_port(srv)) < 0)
		goto out;
	fr_time_format(clock.start_s, t0, sizeof(t0));
	fprintf(stderr,
	        "freshet serve: listening on 127.0.0.1:%u: %u forums forum0..forum%u.test "
	        "(seed %llu); clock from %s at speed %g",
	        (unsigned)fr_serve_port(srv), (unsigned)fc.n_forums, (unsigned)fc.n_forums - 1,
	        (unsigned long long)seed, t0, speed);
	if (o->duration) {
		fr_time_format(clock.end_s, t1, sizeof(t1));
		fprintf(stderr, " until %s", t1);
	}
	fputc('\n', stderr);
	while (sigwait(&sigs, &sig) != 0)
		;
	{
		double t_end = fr_serve_clock_trace(
		    &clock, clock_file ? fr_serve_file_time(clock_file) : fr_serve_wall_now());

		fr_serve_get_stats(srv, &stats);
		fr_serve_stop(srv);
		srv = NULL;
		if (o->truth && write_forums_file(w, "--truth", o->truth, 0, t_end, &rows) < 0)
			goto out;
		fr_time_format(t_end, t1, sizeof(t1));
		fprintf(stderr,
		        "freshet serve: %s at clock %s: %llu requests (%llu 200, %llu 304, %llu 3xx, "
		        "%llu 404, %llu other)",
		        sig == SIGINT ? "interrupted" : "terminated", t1,
		        (unsigned long long)stats.requests, (unsigned long long)stats.ok,
		        (unsigned long long)stats.not_modified, (unsigned long long)stats.redirect,
		        (unsigned long long)stats.not_found,
		        (unsigned long long)(stats.other + stats.too_many + stats.fail500 +
		                             stats.fail503));
		if (o->truth)
			fprintf(stderr, "; truth: %zu posts -> %s", rows, o->truth);
		fputc('\n', stderr);
	}
	code = EXIT_OK;
out:
	fr_serve_stop(srv);
	if (logf && fclose(logf) != 0) {
		cli_err("serve", "--log %s: write error", o->log);
		code = EXIT_FAIL;
	}
	fr_tk_forums_free(w);
	return code;
}

/* --api-token-file: the tokens, one a line (blank lines skipped, CR
 * dropped), appended to o's. The file's text stays in *buf (caller frees).
 * Returns 0, or -1 after a message naming the file. */
static int
read_tokens(struct opts *o, const char *path, char **buf)
{
	FILE *f = fopen(path, "rb");
	size_t n;
	char *p;

	*buf = NULL;
	if (!f) {
		cli_err("serve", "--api-token-file %s: cannot open: %s", path, strerror(errno));
		return -1;
	}
	*buf = malloc((1u << 20) + 1);
	n = *buf ? fread(*buf, 1, 1u << 20, f) : 0;
	fclose(f);
	if (!*buf || n == (1u << 20)) {
		cli_err("serve", "--api-token-file %s: %s", path,
		        *buf ? "longer than 1 MiB" : "out of memory");
		return -1;
	}
	(*buf)[n] = '\0';
	for (p = *buf; *p;) {
		size_t len = strcspn(p, "\n");
		char *next = p + len + (p[len] == '\n');

		p[len] = '\0';
		if (len && p[len - 1] == '\r')
			p[--len] = '\0';
		if (len && take_token(o, NULL, p) != 0)
			return -1;
		p = next;
	}
	if (!o->n_api_tokens) {
		cli_err("serve", "--api-token-file %s: no token in it", path);
		return -1;
	}
	return 0;
}

static int
fill_api_list(void *arg, FILE *f, const char *path, char *err, size_t errlen)
{
	return fr_tk_api_write_list(arg, f, path, err, errlen);
}

struct api_truth {
	const struct fr_tk_api *api;
	double t_end;
	size_t *rows;
};

static int
fill_api_truth(void *arg, FILE *f, const char *path, char *err, size_t errlen)
{
	struct api_truth *t = arg;
	return fr_tk_api_write_truth(t->api, f, path, t->t_end, t->rows, err, errlen);
}

/* `serve --world DIR --api KIND`: the world's sources as a JSON API on the
 * any-host server. tr and clock are set up; clock_file NULL or the
 * FRESHET_CLOCK_FILE in use. Returns the exit code. */
static int
serve_api(struct opts *o, const struct settings *st, const struct fr_trace *tr,
          struct fr_serve_clock *clock, const char *clock_file)
{
	struct fr_tk_api_config ac;
	struct fr_tk_api *api = NULL;
	struct fr_tk_api_stats as;
	struct fr_serve_config sc;
	struct fr_serve *srv = NULL;
	struct fr_serve_stats stats;
	char err[FR_ERRLEN], t0[32], t1[32], *tokbuf = NULL;
	FILE *logf = NULL;
	sigset_t sigs;
	int sig = 0, code = EXIT_FAIL;
	size_t rows = 0;

	fr_tk_api_config_defaults(&ac);
	fr_tk_api_kind_parse(o->api, &ac.kind);
	if (o->api_limit) {
		ac.limit_n = st->api_n;
		ac.limit_window_s = st->api_w;
	}
	if (o->api_error) {
		if (strcmp(o->api_error, "4") != 0 && strcmp(o->api_error, "17") != 0 &&
		    strcmp(o->api_error, "32") != 0 && strcmp(o->api_error, "613") != 0) {
			cli_err("serve", "--api-error wants 4, 17, 32 or 613, not '%s'", o->api_error);
			return EXIT_USAGE;
		}
		ac.graph_code = o->api_error[0] == '4'   ? 4
		                : o->api_error[0] == '6' ? 613
		                : o->api_error[0] == '3' ? 32
		                                         : 17;
	}
	if (o->api_token_file && read_tokens(o, o->api_token_file, &tokbuf) < 0)
		goto out;
	ac.tr = tr;
	ac.clock = clock;
	ac.tokens = o->api_tokens;
	ac.n_tokens = o->n_api_tokens;
	api = fr_tk_api_new(&ac, err, sizeof(err));
	if (!api) {
		cli_err("serve", "%s", err);
		goto out;
	}
	if (o->list && write_whole("--list", o->list, fill_api_list, api) < 0)
		goto out;
	if (o->log) {
		logf = open_out("--log", o->log);
		if (!logf)
			goto out;
		setvbuf(logf, NULL, _IOLBF, 0);
	}
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &sigs, NULL);
	signal(SIGPIPE, SIG_IGN);

	fr_serve_config_defaults(&sc);
	sc.any_host = 1;
	sc.port = st->port;
	sc.log = logf;
	sc.log_extra = FR_TK_API_LOG_COLUMNS;
	sc.clock_file = clock_file;
	sc.handler.handle = fr_tk_api_handle;
	sc.handler.ctx = api;
	srv = fr_serve_start(&sc, err, sizeof(err));
	if (!srv) {
		cli_err("serve", "%s", err);
		goto out;
	}
	if (o->port_file && write_port_file("--port-file", o->port_file, fr_serve_port(srv)) < 0)
		goto out;
	fr_time_format(clock->start_s, t0, sizeof(t0));
	fr_time_format(clock->end_s, t1, sizeof(t1));
	{
		char url[1400];

		fprintf(stderr,
		        "freshet serve: listening on 127.0.0.1:%u: %u sources as a %s API (%s ...); "
		        "clock %s .. %s at speed %g; ",
		        (unsigned)fr_serve_port(srv), (unsigned)tr->n_sources, o->api,
		        tr->n_sources ? fr_tk_api_url(api, 0, url, sizeof(url)) : "none", t0, t1,
		        clock->speed);
	}
	if (ac.limit_n)
		fprintf(stderr, "%u calls per %g s of world time per token", ac.limit_n,
		        ac.limit_window_s);
	else
		fputs("no limit", stderr);
	if (ac.n_tokens)
		fprintf(stderr, ", %zu tokens", ac.n_tokens);
	if (o->list)
		fprintf(stderr, "; URLs %s", o->list);
	fputc('\n', stderr);
	while (sigwait(&sigs, &sig) != 0)
		;
	{
		double t_end = fr_serve_clock_trace(
		    clock, clock_file ? fr_serve_file_time(clock_file) : fr_serve_wall_now());
		struct api_truth at = {api, t_end, &rows};

		fr_serve_get_stats(srv, &stats);
		fr_serve_stop(srv);
		srv = NULL;
		fr_tk_api_get_stats(api, &as);
		if (o->truth && write_whole("--truth", o->truth, fill_api_truth, &at) < 0)
			goto out;
		fr_time_format(t_end, t1, sizeof(t1));
		fprintf(stderr,
		        "freshet serve: %s at clock %s: %llu requests; %llu calls answered, %llu "
		        "refused for the limit, %llu unauthorized, %llu tokens",
		        sig == SIGINT ? "interrupted" : "terminated", t1,
		        (unsigned long long)stats.requests, (unsigned long long)as.calls,
		        (unsigned long long)as.refused, (unsigned long long)as.unauthorized,
		        (unsigned long long)as.tokens);
		if (o->truth)
			fprintf(stderr, "; truth: %zu items -> %s", rows, o->truth);
		fputc('\n', stderr);
	}
	code = EXIT_OK;
out:
	fr_serve_stop(srv);
	if (logf && fclose(logf) != 0) {
		cli_err("serve", "--log %s: write error", o->log);
		code = EXIT_FAIL;
	}
	fr_tk_api_free(api);
	free(tokbuf);
	return code;
}

static int
serve_main(int argc, char **argv, struct opts *o)
{
	struct settings st;
	struct fr_trace tr;
	struct fr_serve_clock clock;
	struct fr_serve_config sc;
	struct fr_serve_feeds *feeds = NULL;
	struct fr_tk_hub *hub = NULL;
	FILE *hub_logf = NULL;
	struct fr_serve *srv = NULL;
	struct fr_serve_stats stats;
	char trace_path[4096], sources_path[4096], opml_default[4096], err[FR_ERRLEN];
	char t0[32], t1[32];
	const char *opml;
	FILE *logf = NULL;
	sigset_t sigs;
	int rc, sig = 0, code = EXIT_FAIL;
	uint32_t n_huge = 0;
	size_t truth_rows = 0;

	rc = parse_args(argc, argv, o);
	if (rc != 0)
		return rc > 0 ? EXIT_OK : EXIT_USAGE;
	if (o->sites || o->web)
		return serve_web(o);
	if (o->forums)
		return serve_forums(o);
	if (check_settings(o, &st) < 0)
		return EXIT_USAGE;
	if ((size_t)snprintf(trace_path, sizeof(trace_path), "%s/trace.csv", o->world) >=
	        sizeof(trace_path) ||
	    (size_t)snprintf(sources_path, sizeof(sources_path), "%s/sources.csv", o->world) >=
	        sizeof(sources_path) ||
	    (size_t)snprintf(opml_default, sizeof(opml_default), "%s/feeds.opml", o->world) >=
	        sizeof(opml_default)) {
		cli_err("serve", "--world %s: path too long", o->world);
		return EXIT_USAGE;
	}
	opml = o->opml ? o->opml : opml_default;
	if (fr_trace_load(&tr, trace_path, access(sources_path, F_OK) == 0 ? sources_path : NULL,
	                  err, sizeof(err)) < 0) {
		cli_err("serve", "%s", err);
		return EXIT_FAIL;
	}

	/* The clock: --start defaults to a day into the trace, so feeds have a
	 * history; it stops at the end of the trace unless --duration says. */
	memset(&clock, 0, sizeof(clock));
	clock.speed = st.speed;
	if (st.have_start)
		clock.start_s = st.start_s;
	else
		clock.start_s = tr.n_items ? tr.start_s + 86400 : floor(fr_serve_wall_now());
	if (st.have_duration)
		clock.end_s = clock.start_s + st.duration_s;
	else
		clock.end_s = tr.end_s > clock.start_s ? tr.end_s : clock.start_s;
	clock.wall0_s = fr_serve_wall_now();
	/* FRESHET_CLOCK_FILE: the clock is the time a client writes there
	 * (`freshet run` on the same file moves it; tests/e2e/parity.sh). */
	const char *clock_file = getenv("FRESHET_CLOCK_FILE");
	if (clock_file && *clock_file) {
		clock.speed = 1;
		clock.wall0_s = clock.start_s;
	}
	if (o->api) {
		code = serve_api(o, &st, &tr, &clock, clock_file && *clock_file ? clock_file : NULL);
		goto out;
	}

	st.fc.tr = &tr;
	st.fc.clock = &clock;
	st.fc.n_hosts = st.hosts;
	st.fc.window = st.window;
	st.fc.misbehave = st.misbehave;
	feeds = fr_serve_feeds_new(&st.fc, err, sizeof(err));
	if (!feeds) {
		cli_err("serve", "%s", err);
		goto out;
	}
	if (write_whole("--opml", opml, fill_opml, feeds) < 0)
		goto out;
	if (o->hub_share) {
		struct fr_tk_hub_config hc = {.feeds = feeds, .tr = &tr, .clock = &clock,
					      .clock_file = clock_file && *clock_file ? clock_file : NULL,
					      .domain = st.fc.domain, .seed = 1};

		if (parse_share("--hub-share", o->hub_share, &hc.share) < 0 ||
		    parse_share("--hub-drop", o->hub_drop, &hc.drop) < 0) {
			code = EXIT_USAGE;
			goto out;
		}
		if (o->hub_log && !(hub_logf = open_out("--hub-log", o->hub_log)))
			goto out;
		hc.log = hub_logf;
		if (!(hub = fr_tk_hub_new(&hc, err, sizeof(err)))) {
			cli_err("serve", "%s", err);
			goto out;
		}
	}
	if (o->log) {
		logf = open_out("--log", o->log);
		if (!logf)
			goto out;
		setvbuf(logf, NULL, _IOLBF, 0);
	}

	/* SIGINT and SIGTERM are taken by sigwait below: blocked here, before
	 * the server's threads start, so that they inherit the mask. */
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &sigs, NULL);
	signal(SIGPIPE, SIG_IGN);

	fr_serve_config_defaults(&sc);
	sc.port = st.port;
	sc.n_hosts = fr_serve_feeds_n_hosts(feeds);
	sc.domain = st.fc.domain;
	sc.misbehave = st.misbehave;
	sc.limit_n = st.limit_n;
	sc.limit_window_s = st.limit_w;
	sc.api_limit_n = st.api_n;
	sc.api_limit_window_s = st.api_w;
	sc.huge_bytes = st.huge_bytes;
	sc.log = logf;
	sc.clock = &clock;
	sc.clock_file = clock_file && *clock_file ? clock_file : NULL;
	sc.handler.handle = hub ? fr_tk_hub_handle : fr_serve_feeds_handle;
	sc.handler.ctx = hub ? (void *)hub : (void *)feeds;
	sc.max_post = hub ? 65536 : 0; /* the hub's subscription requests */
	srv = fr_serve_start(&sc, err, sizeof(err));
	if (!srv) {
		cli_err("serve", "%s", err);
		goto out;
	}
	if (o->port_file && write_port_file("--port-file", o->port_file, fr_serve_port(srv)) < 0)
		goto out;
	for (uint32_t h = 0; h < sc.n_hosts; h++)
		n_huge += (fr_serve_host_flags(h, st.misbehave) & FR_SERVE_HOST_HUGE) != 0;
	fr_time_format(clock.start_s, t0, sizeof(t0));
	fr_time_format(clock.end_s, t1, sizeof(t1));
	fprintf(stderr,
	        "freshet serve: listening on 127.0.0.1:%u: %u feeds (+%u huge) on %u hosts "
	        "h0..h%u.%s; clock %s .. %s at speed %g (%.0f s wall); OPML %s\n",
	        (unsigned)fr_serve_port(srv), (unsigned)tr.n_sources, (unsigned)n_huge,
	        (unsigned)sc.n_hosts, (unsigned)sc.n_hosts - 1, sc.domain, t0, t1, clock.speed,
	        (clock.end_s - clock.start_s) / clock.speed, opml);

	while (sigwait(&sigs, &sig) != 0)
		;
	{
		double t_end = fr_serve_clock_trace(&clock, fr_serve_wall_now());

		fr_serve_get_stats(srv, &stats);
		fr_serve_stop(srv); /* waits for answers being made, flushes the log */
		srv = NULL;
		struct feeds_truth ft = {feeds, t_end, &truth_rows};
		if (o->truth && write_whole("--truth", o->truth, fill_feeds_truth, &ft) < 0)
			goto out;
		fr_time_format(t_end, t1, sizeof(t1));
		fprintf(
		    stderr,
		    "freshet serve: %s at clock %s: %llu requests (%llu 200, %llu 304, %llu 3xx, "
		    "%llu 404, %llu 429, %llu 500, %llu 503, %llu other)",
		    sig == SIGINT ? "interrupted" : "terminated", t1,
		    (unsigned long long)stats.requests, (unsigned long long)stats.ok,
		    (unsigned long long)stats.not_modified, (unsigned long long)stats.redirect,
		    (unsigned long long)stats.not_found, (unsigned long long)stats.too_many,
		    (unsigned long long)stats.fail500, (unsigned long long)stats.fail503,
		    (unsigned long long)stats.other);
		if (o->truth)
			fprintf(stderr, "; truth: %zu items -> %s", truth_rows, o->truth);
		fputc('\n', stderr);
	}
	code = EXIT_OK;
out:
	fr_serve_stop(srv);
	fr_tk_hub_free(hub); /* after the server that calls it, before the feeds */
	if (hub_logf && fclose(hub_logf) != 0) {
		cli_err("serve", "--hub-log %s: write error", o->hub_log);
		code = EXIT_FAIL;
	}
	if (logf && fclose(logf) != 0) {
		cli_err("serve", "--log %s: write error", o->log);
		code = EXIT_FAIL;
	}
	fr_serve_feeds_free(feeds);
	fr_trace_free(&tr);
	return code;
}

int
cmd_serve(int argc, char **argv)
{
	struct opts o;
	int code = serve_main(argc, argv, &o);

	free(o.api_tokens);
	return code;
}
