/* test_sink.c - the webhook signature (HMAC-SHA256 against RFC 4231's
 * vectors) and an exec sink's delivery, cursor and restart on an SQLite
 * store: every item once in seq order, the cursor kept in the store. */
#include "test.h"

#include "sink/sink.h"
#include "store/store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void
signature_rfc4231(void)
{
	char sig[72];

	/* RFC 4231, test case 2. */
	fr_sink_signature("Jefe", "what do ya want for nothing?", 28, sig);
	CHECK_STR(sig, "sha256=5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
	/* Test case 1: key 20 x 0x0b, "Hi There". */
	char key[21];
	memset(key, 0x0b, 20);
	key[20] = '\0';
	fr_sink_signature(key, "Hi There", 8, sig);
	CHECK_STR(sig, "sha256=b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
}

static int
count_lines(const char *path)
{
	FILE *f = fopen(path, "r");
	int n = 0, c;

	if (!f)
		return 0;
	while ((c = fgetc(f)) != EOF)
		n += c == '\n';
	fclose(f);
	return n;
}

static void
exec_sink_delivers_and_resumes(void)
{
	char dir[] = "/tmp/fr_sink_XXXXXX", db[128], out[128], cmd[300], err[512];
	struct fr_store *st;
	struct fr_sink *s;
	struct fr_sink_config c = {0};
	struct fr_sink_stats ss;
	struct fr_store_item its[3];
	char ids[3][8];
	int64_t src = 0;
	size_t nn, nu;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(db, sizeof(db), "%s/s.db", dir);
	snprintf(out, sizeof(out), "%s/out.jsonl", dir);
	snprintf(cmd, sizeof(cmd), "cat >>'%s'", out);
	CHECK(fr_store_open(&st, db, err, sizeof(err)) == 0);
	CHECK(fr_store_add_source(st, "http://sink.example/feed", NULL, NULL, NULL, NULL, &src,
	                          &(int){0}, err, sizeof(err)) == 0);
	/* One item before the sink starts: not delivered (from now on). */
	for (int k = 0; k < 3; k++) {
		snprintf(ids[k], sizeof(ids[k]), "i%d", k);
		memset(&its[k], 0, sizeof(its[k]));
		its[k].id = ids[k];
		its[k].title = ids[k];
		its[k].enclosure_length = -1;
		its[k].published_s = INT64_MIN;
		its[k].updated_s = INT64_MIN;
	}
	struct fr_store_fetch f = {src, 10, 0, 200, "ok", 0, NULL, its, 1, NULL, NULL, NULL};
	CHECK(fr_store_commit_fetch(st, &f, NULL, NULL, NULL, &nn, &nu, err, sizeof(err)) == 0);
	c.kind = FR_SINK_EXEC;
	c.target = cmd;
	c.name = "t";
	c.poll_s = 0.02;
	c.batch_max = 1;
	CHECK(fr_sink_start(&s, db, &c, err, sizeof(err)) == 0);
	f.items = its + 1;
	f.n_items = 2;
	f.time_s = 20;
	CHECK(fr_store_commit_fetch(st, &f, NULL, NULL, NULL, &nn, &nu, err, sizeof(err)) == 0);
	/* Waits for the state: both items taken and the cursor moved. */
	for (int i = 0; i < 1000; i++) {
		fr_sink_get_stats(s, &ss);
		if (ss.cursor == 3 && count_lines(out) >= 2)
			break;
		usleep(10000);
	}
	fr_sink_stop(s, 1);
	CHECK(count_lines(out) == 2);
	CHECK(ss.items == 2 && ss.batches == 2 && ss.cursor == 3);
	void *v = NULL;
	size_t len = 0;
	CHECK(fr_store_meta_get(st, "sink:t", &v, &len) == 0 && v && len == 1 &&
	      !memcmp(v, "3", 1));
	free(v);
	/* Restarted: resumes after 3, nothing again. */
	CHECK(fr_sink_start(&s, db, &c, err, sizeof(err)) == 0);
	usleep(100000);
	fr_sink_stop(s, 1);
	CHECK(count_lines(out) == 2);
	fr_store_close(st);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CHECK(system(cmd) == 0);
}

int
main(void)
{
	RUN(signature_rfc4231);
	RUN(exec_sink_delivers_and_resumes);
	return TEST_DONE();
}
