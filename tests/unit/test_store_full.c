/* test_store_full.c - a crawl on a full disk says truthfully what was lost.
 * The disk fills deterministically, without root or a small mount: every
 * SQLite connection this process opens gets PRAGMA max_page_count (an
 * auto-extension), so the store's inserts fail with SQLITE_FULL as on a
 * full disk. A loopback server (libmicrohttpd) serves the feeds; the fetches
 * the server answered, less the fetches the store holds afterwards, must be
 * the count the crawl's messages name as not stored. */
#include "crawl.h"
#include "store/store.h"

#include "test.h"

#include <arpa/inet.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <sqlite3.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define N_SOURCES 16
#define N_ITEMS 60

static struct MHD_Daemon *daemon_;
static unsigned port;
static atomic_int feeds_served;
static int max_pages; /* 0: no cap */

static enum MHD_Result
handler(void *cls, struct MHD_Connection *conn, const char *url, const char *method,
        const char *version, const char *upload, size_t *upload_len, void **state)
{
	struct MHD_Response *r;
	enum MHD_Result rc;
	unsigned feed;
	size_t cap = 64 * 1024, n = 0;
	char *body;

	(void)cls, (void)method, (void)version, (void)upload, (void)upload_len, (void)state;
	if (sscanf(url, "/f%u.xml", &feed) != 1) {
		r = MHD_create_response_from_buffer(2, (void *)"no", MHD_RESPMEM_PERSISTENT);
		rc = MHD_queue_response(conn, 404, r);
		MHD_destroy_response(r);
		return rc;
	}
	body = malloc(cap);
	if (!body)
		return MHD_NO;
	n += (size_t)snprintf(body + n, cap - n,
	                      "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel>"
	                      "<title>feed %u</title><link>http://f%u.test/</link>",
	                      feed, feed);
	for (unsigned i = 0; i < N_ITEMS && n < cap - 512; i++)
		n += (size_t)snprintf(body + n, cap - n,
		                      "<item><title>feed %u item %u, a title long enough to take "
		                      "room</title><link>http://f%u.test/%u</link><guid>f%u-%u</guid>"
		                      "<description>item %u of feed %u: some words to fill a "
		                      "page of the store</description></item>",
		                      feed, i, feed, i, feed, i, i, feed);
	n += (size_t)snprintf(body + n, cap - n, "</channel></rss>");
	atomic_fetch_add(&feeds_served, 1);
	r = MHD_create_response_from_buffer(n, body, MHD_RESPMEM_MUST_FREE);
	MHD_add_response_header(r, "Content-Type", "application/rss+xml");
	rc = MHD_queue_response(conn, 200, r);
	MHD_destroy_response(r);
	return rc;
}

static int
cap_pages(sqlite3 *db, const char **errmsg, const struct sqlite3_api_routines *api)
{
	char sql[64];

	(void)errmsg, (void)api;
	if (max_pages > 0) {
		snprintf(sql, sizeof(sql), "PRAGMA max_page_count = %d", max_pages);
		sqlite3_exec(db, sql, NULL, NULL, NULL);
	}
	return SQLITE_OK;
}

static long
raw_int(const char *path, const char *sql)
{
	sqlite3 *db;
	sqlite3_stmt *s;
	long v = -1;

	if (sqlite3_open(path, &db) != SQLITE_OK)
		return -1;
	if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) == SQLITE_OK) {
		if (sqlite3_step(s) == SQLITE_ROW)
			v = sqlite3_column_int64(s, 0);
		sqlite3_finalize(s);
	}
	sqlite3_close(db);
	return v;
}

static char log_text[1 << 16];
static size_t log_len;

static void
on_log(void *arg, const char *line)
{
	int w;

	(void)arg;
	w = snprintf(log_text + log_len, sizeof(log_text) - log_len, "%s\n", line);
	if (w > 0 && (size_t)w < sizeof(log_text) - log_len)
		log_len += (size_t)w;
}

/* The fetches the log names as not stored: the sum of each "N fetch(es)
 * not stored" line (one is expected: the total at the end). */
static long
named_lost(void)
{
	long sum = 0;

	for (const char *p = log_text; (p = strstr(p, " not stored")) != NULL; p++) {
		const char *q = p;
		long v;

		/* back over " fetch" / " fetches" to the number */
		while (q > log_text && q[-1] != ' ')
			q--; /* the word "fetch(es)" */
		if (q > log_text)
			q--;
		while (q > log_text && q[-1] >= '0' && q[-1] <= '9')
			q--;
		if (sscanf(q, "%ld", &v) == 1)
			sum += v;
	}
	return sum;
}

static void
crawl_on_full_disk(int commit_groups)
{
	char dir[] = "/tmp/test_store_full.XXXXXX", path[256], err[512], url[128], ct[64];
	const char *connect_to[1] = {ct};
	struct fr_store *st = NULL;
	struct fr_crawl_opts o;
	struct fr_crawl_stats stats;
	long pages, stored, served, lost;
	int rc;

	if (!mkdtemp(dir)) {
		CHECK(0);
		return;
	}
	snprintf(path, sizeof(path), "%s/store.db", dir);
	max_pages = 0;
	CHECK(fr_store_open(&st, path, err, sizeof(err)) == 0);
	for (int i = 0; st && i < N_SOURCES; i++) {
		int64_t id;
		int existed;

		snprintf(url, sizeof(url), "http://f%d.test/f%d.xml", i, i);
		CHECK(fr_store_add_source(st, url, "feed", "default", NULL, NULL, &id, &existed, err,
		                          sizeof(err)) == 0);
	}
	fr_store_close(st);
	st = NULL;
	/* Room for a few fetches (each stores 60 items: several pages), not 16. */
	pages = raw_int(path, "PRAGMA page_count");
	CHECK(pages > 0);
	max_pages = (int)pages + 12;
	atomic_store(&feeds_served, 0);
	log_len = 0;
	log_text[0] = '\0';
	CHECK(fr_store_open_flags(&st, path, FR_STORE_CRAWLER, err, sizeof(err)) == 0);
	if (!st)
		goto out;
	fr_crawl_opts_init(&o);
	o.once = 1;
	o.robots = 0;
	o.host_gap_s = 0.02;
	/* 16 hosts served by one loopback server: 4 fetches in flight at once */
	snprintf(ct, sizeof(ct), "::127.0.0.1:%u", port);
	o.fetch.connect_to = connect_to;
	o.fetch.n_connect_to = 1;
	o.fetch.max_total = 4;
	o.commit_interval_s = commit_groups ? 0.25 : 0;
	o.log = on_log;
	rc = fr_crawl_run(st, &o, &stats, err, sizeof(err));
	fr_store_close(st);
	st = NULL;
	max_pages = 0;
	CHECK(rc < 0); /* the store failed: the run fails */
	CHECK(strstr(err, "full") != NULL);
	served = atomic_load(&feeds_served);
	stored = raw_int(path, "SELECT count(*) FROM fetch_log");
	lost = served - stored;
	fprintf(stderr, "  groups %d: %ld fetches answered, %ld stored, %ld lost, %ld named as not "
	                "stored; run: %s\n",
	        commit_groups, served, stored, lost, named_lost(), err);
	CHECK(lost > 0);
	CHECK(named_lost() == lost);
	if (named_lost() != lost)
		fprintf(stderr, "%s", log_text);
out:
	snprintf(path, sizeof(path), "rm -rf %s", dir);
	CHECK(system(path) == 0);
}

static void
test_full_disk_group_commit(void)
{
	crawl_on_full_disk(1);
}

static void
test_full_disk_one_commit_per_fetch(void)
{
	crawl_on_full_disk(0);
}

int
main(void)
{
	struct sockaddr_in sa;
	const union MHD_DaemonInfo *info;

	memset(&sa, 0, sizeof(sa));
	sa.sin_family = AF_INET;
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	daemon_ = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION,
	                           0, NULL, NULL, handler, NULL, MHD_OPTION_SOCK_ADDR,
	                           (struct sockaddr *)&sa, MHD_OPTION_CONNECTION_TIMEOUT,
	                           (unsigned)10, MHD_OPTION_END);
	if (!daemon_) {
		fprintf(stderr, "cannot start the test server\n");
		return 1;
	}
	info = MHD_get_daemon_info(daemon_, MHD_DAEMON_INFO_BIND_PORT);
	port = info ? info->port : 0;
	if (!port) {
		fprintf(stderr, "test server has no port\n");
		return 1;
	}
	sqlite3_auto_extension((void (*)(void))cap_pages);
	RUN(test_full_disk_group_commit);
	RUN(test_full_disk_one_commit_per_fetch);
	sqlite3_reset_auto_extension();
	MHD_stop_daemon(daemon_);
	return TEST_DONE();
}
