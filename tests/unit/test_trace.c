/* test_trace.c - trace and sources files: parsed values, per-source order,
 * sources-file semantics, every error naming file:line and reason, gzip,
 * line-ending variants, fr_trace_from_rows, name interning, and the shared
 * reddit trace. */
#include "core/strmap.h"
#include "sim/trace.h"

#include "test.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#define DATA FR_TEST_DATA "/traces/"

static char tmpdir[256];

/* Path of a data file, in one of four static buffers used in turn, so two
 * calls can be arguments of one call. */
static const char *
data(const char *name)
{
	static char path[4][512];
	static unsigned next;
	char *p = path[next++ % 4];

	snprintf(p, sizeof(path[0]), "%s%s", DATA, name);
	return p;
}

/* Writes len bytes to tmpdir/name; returns the path (static buffer). */
static const char *
write_tmp(const char *name, const char *bytes, size_t len)
{
	static char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(bytes, 1, len, f) != len) {
		fprintf(stderr, "cannot write %s\n", path);
		exit(1);
	}
	fclose(f);
	return path;
}

static const char *
write_tmp_str(const char *name, const char *text)
{
	return write_tmp(name, text, strlen(text));
}

/* Gzips len bytes into tmpdir/name with zlib; returns the path. */
static const char *
write_tmp_gz(const char *name, const char *bytes, size_t len)
{
	static char path[512];
	gzFile gz;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	gz = gzopen(path, "wb9");
	if (!gz || gzwrite(gz, bytes, (unsigned)len) != (int)len || gzclose(gz) != Z_OK) {
		fprintf(stderr, "cannot write %s\n", path);
		exit(1);
	}
	return path;
}

static int
all_zero(const struct fr_trace *tr)
{
	static const struct fr_trace zero;

	return memcmp(tr, &zero, sizeof(zero)) == 0;
}

/* Loading must fail with an error containing each of want1 and want2, and
 * leave the trace empty. */
static void
check_load_fails(const char *trace, const char *sources, const char *want1, const char *want2)
{
	struct fr_trace tr;
	char err[512] = "";
	int rc = fr_trace_load(&tr, trace, sources, err, sizeof(err));

	CHECK(rc == -1);
	CHECK(all_zero(&tr));
	CHECK(strstr(err, want1) != NULL);
	CHECK(!want2 || strstr(err, want2) != NULL);
	if (rc != -1 || !strstr(err, want1) || (want2 && !strstr(err, want2)))
		fprintf(stderr, "  got rc %d, err '%s'; want '%s' and '%s'\n", rc, err, want1,
		        want2 ? want2 : "");
	if (rc == 0)
		fr_trace_free(&tr);
}

static int
load_ok(struct fr_trace *tr, const char *trace, const char *sources)
{
	char err[512] = "";
	int rc = fr_trace_load(tr, trace, sources, err, sizeof(err));

	if (rc != 0)
		fprintf(stderr, "  load of %s failed: %s\n", trace, err);
	return rc == 0;
}

static uint32_t
source_id(const struct fr_trace *tr, const char *name)
{
	uint32_t id = UINT32_MAX;

	fr_strmap_find(tr->sources, name, strlen(name), &id);
	return id;
}

/* Same sources, items, times and weights. */
static int
same_trace(const struct fr_trace *a, const struct fr_trace *b)
{
	if (a->n_sources != b->n_sources || a->n_items != b->n_items || a->start_s != b->start_s ||
	    a->end_s != b->end_s || (a->item_weight == NULL) != (b->item_weight == NULL))
		return 0;
	for (uint32_t s = 0; s < a->n_sources; s++) {
		if (strcmp(fr_trace_source_name(a, s), fr_trace_source_name(b, s)) != 0 ||
		    a->first[s + 1] != b->first[s + 1] || a->host[s] != b->host[s] ||
		    a->group[s] != b->group[s] || a->weight[s] != b->weight[s])
			return 0;
	}
	for (size_t i = 0; i < a->n_items; i++) {
		if (a->item_time_s[i] != b->item_time_s[i])
			return 0;
		if (a->item_weight && a->item_weight[i] != b->item_weight[i])
			return 0;
	}
	return 1;
}

/* The hand-worked expectation for small.csv (see tests/data/traces/). */
static void
check_small(const struct fr_trace *tr)
{
	uint32_t a = source_id(tr, "a"), b = source_id(tr, "b"), cd = source_id(tr, "c,d");

	CHECK(tr->n_items == 7);
	CHECK(tr->item_weight != NULL);
	CHECK(a != UINT32_MAX && b != UINT32_MAX && cd != UINT32_MAX);
	if (a == UINT32_MAX || b == UINT32_MAX || cd == UINT32_MAX || !tr->item_weight)
		return;

	/* b: unsorted in the file; 01:00+01:00 is 00:00Z; 23:01:40.25-01:00 is 00:01:40.25Z */
	CHECK(tr->first[b + 1] - tr->first[b] == 3);
	CHECK(tr->item_time_s[tr->first[b] + 0] == 1325376000.0);
	CHECK(tr->item_time_s[tr->first[b] + 1] == 1325376100.0);
	CHECK(tr->item_time_s[tr->first[b] + 2] == 1325376100.25);
	CHECK(tr->item_weight[tr->first[b] + 0] == 7.0f);
	CHECK(tr->item_weight[tr->first[b] + 1] == 2.0f);
	CHECK(tr->item_weight[tr->first[b] + 2] == 0.5f);

	/* a: sorted, and the two items at ...011 keep their file order (54 then 9) */
	CHECK(tr->first[a + 1] - tr->first[a] == 3);
	CHECK(tr->item_time_s[tr->first[a] + 0] == 1325376005.5);
	CHECK(tr->item_time_s[tr->first[a] + 1] == 1325376011.0);
	CHECK(tr->item_time_s[tr->first[a] + 2] == 1325376011.0);
	CHECK(tr->item_weight[tr->first[a] + 0] == 3.0f);
	CHECK(tr->item_weight[tr->first[a] + 1] == 54.0f);
	CHECK(tr->item_weight[tr->first[a] + 2] == 9.0f);

	/* "c,d" was a quoted field */
	CHECK(tr->first[cd + 1] - tr->first[cd] == 1);
	CHECK(tr->item_time_s[tr->first[cd]] == 1325376000.0);
	CHECK(tr->item_weight[tr->first[cd]] == 1.0f);

	CHECK(tr->start_s == 1325376000.0);
	CHECK(tr->end_s == 1325376100.25);
	CHECK(tr->first[0] == 0);
	CHECK(tr->first[tr->n_sources] == tr->n_items);
}

static void
small_trace_parsed_and_sorted_per_source(void)
{
	struct fr_trace tr;

	if (!load_ok(&tr, data("small.csv"), NULL))
		return;
	CHECK(tr.n_sources == 3);
	/* ids by name (byte order), not by first appearance ("b" comes first) */
	CHECK_STR(fr_trace_source_name(&tr, 0), "a");
	CHECK_STR(fr_trace_source_name(&tr, 1), "b");
	CHECK_STR(fr_trace_source_name(&tr, 2), "c,d");
	check_small(&tr);
	/* without a sources file: own host, group "default" (id 0), weight 1 */
	CHECK_STR(fr_strmap_name(tr.groups, 0), "default");
	CHECK(fr_strmap_len(tr.groups) == 1);
	for (uint32_t s = 0; s < tr.n_sources; s++) {
		CHECK_STR(fr_strmap_name(tr.hosts, tr.host[s]), fr_trace_source_name(&tr, s));
		CHECK(tr.group[s] == 0);
		CHECK(tr.weight[s] == 1.0);
	}
	fr_trace_free(&tr);
	CHECK(all_zero(&tr));
}

static void
columns_in_any_order_and_url_ignored(void)
{
	struct fr_trace tr;

	if (!load_ok(&tr, data("reordered.csv"), NULL))
		return;
	CHECK(tr.n_sources == 2);
	CHECK(tr.n_items == 3);
	CHECK(tr.item_weight == NULL);
	CHECK_STR(fr_trace_source_name(&tr, 0), "a");
	CHECK(tr.first[1] == 2);
	CHECK(tr.item_time_s[0] == 1325376000.0);
	CHECK(tr.item_time_s[1] == 1325376011.0);
	CHECK(tr.item_time_s[2] == 1325376000.125);
	fr_trace_free(&tr);
}

static void
sources_file_sets_host_group_weight(void)
{
	struct fr_trace tr;
	uint32_t e;

	if (!load_ok(&tr, data("small.csv"), data("small_sources.csv")))
		return;
	/* ids follow the sources file; "e" has no items but is kept */
	CHECK(tr.n_sources == 4);
	CHECK_STR(fr_trace_source_name(&tr, 0), "a");
	CHECK_STR(fr_trace_source_name(&tr, 1), "b");
	CHECK_STR(fr_trace_source_name(&tr, 2), "c,d");
	CHECK_STR(fr_trace_source_name(&tr, 3), "e");
	check_small(&tr);
	e = source_id(&tr, "e");
	CHECK(e == 3 && tr.first[4] - tr.first[3] == 0);

	CHECK(fr_strmap_len(tr.hosts) == 3);
	CHECK_STR(fr_strmap_name(tr.hosts, tr.host[0]), "example.com");
	CHECK(tr.host[0] == tr.host[1]);
	CHECK_STR(fr_strmap_name(tr.hosts, tr.host[2]), "other.org");
	CHECK_STR(fr_strmap_name(tr.hosts, tr.host[3]), "lonely.net");

	CHECK(fr_strmap_len(tr.groups) == 3);
	CHECK_STR(fr_strmap_name(tr.groups, 0), "default");
	CHECK_STR(fr_strmap_name(tr.groups, tr.group[0]), "api");
	CHECK(tr.group[1] == 0);
	CHECK(tr.group[2] == tr.group[0]);
	CHECK_STR(fr_strmap_name(tr.groups, tr.group[3]), "feeds");

	CHECK(tr.weight[0] == 2.5);
	CHECK(tr.weight[1] == 1.0);
	CHECK(tr.weight[2] == 0.0);
	CHECK(tr.weight[3] == 3.0);
	fr_trace_free(&tr);
}

static void
sources_file_with_only_source_column(void)
{
	struct fr_trace tr;
	const char *src = write_tmp_str("only_source.csv", "source\nz\nb\na\n\"c,d\"\n");

	if (!load_ok(&tr, data("small.csv"), src))
		return;
	CHECK(tr.n_sources == 4);
	/* the sources file's order, not the names' */
	CHECK_STR(fr_trace_source_name(&tr, 0), "z");
	CHECK_STR(fr_trace_source_name(&tr, 1), "b");
	CHECK_STR(fr_trace_source_name(&tr, 2), "a");
	CHECK_STR(fr_trace_source_name(&tr, 3), "c,d");
	check_small(&tr);
	for (uint32_t s = 0; s < tr.n_sources; s++) {
		CHECK_STR(fr_strmap_name(tr.hosts, tr.host[s]), fr_trace_source_name(&tr, s));
		CHECK(tr.group[s] == 0);
		CHECK(tr.weight[s] == 1.0);
	}
	fr_trace_free(&tr);
}

static void
trace_source_missing_from_sources_file_is_error(void)
{
	check_load_fails(data("small.csv"), data("sources_missing.csv"),
	                 "small.csv:4: source 'c,d' is not in ", "sources_missing.csv");
}

static void
duplicate_source_in_sources_file_is_error(void)
{
	check_load_fails(data("small.csv"), data("sources_dup.csv"),
	                 "sources_dup.csv:3: duplicate source 'a'", NULL);
}

/* Each committed bad file names its line and reason. */
static void
bad_files_name_line_and_reason(void)
{
	check_load_fails(data("bad_time.csv"), NULL,
	                 "bad_time.csv:3: time 'abc' is neither Unix seconds nor RFC 3339", NULL);
	check_load_fails(data("bad_month.csv"), NULL,
	                 "bad_month.csv:3: time '2012-13-01T00:00:00Z' has a month outside 1-12",
	                 NULL);
	check_load_fails(data("bad_fields.csv"), NULL,
	                 "bad_fields.csv:4: expected 2 fields, found 3", NULL);
	check_load_fails(data("bad_header.csv"), NULL,
	                 "bad_header.csv:1: header lacks a 'time' column", NULL);
	check_load_fails(data("bad_column.csv"), NULL, "bad_column.csv:1: unknown column 'score'",
	                 NULL);
	check_load_fails(data("bad_weight.csv"), NULL,
	                 "bad_weight.csv:4: weight 'x' is not a number", NULL);
	check_load_fails(data("bad_negweight.csv"), NULL,
	                 "bad_negweight.csv:2: weight '-1' is negative", NULL);
	check_load_fails(data("bad_nosource.csv"), NULL, "bad_nosource.csv:3: missing source",
	                 NULL);
	check_load_fails(data("no_such_file.csv"), NULL, "no_such_file.csv: cannot open", NULL);
	check_load_fails(data("small.csv"), data("no_such_sources.csv"),
	                 "no_such_sources.csv: cannot open", NULL);
}

/* Errors built at test time: header, quoting, blank lines, weights. */
static void
generated_bad_rows_name_line_and_reason(void)
{
	static const struct {
		const char *text, *want;
	} cases[] = {
	    {"", "e.csv:1: file is empty"},
	    {"source,time,time\na,1\n", "e.csv:1: duplicate column 'time'"},
	    {"time\n1\n", "e.csv:1: header lacks a 'source' column"},
	    {"source,time,weight,url,x\n", "e.csv:1: header has 5 columns"},
	    {"source,time\na,1\n\nb,2\n", "e.csv:3: blank line"},
	    {"source,time\na,1\n\n", "e.csv:3: blank line"},
	    {"source,time\na,1\r\n\r\nb,2\r\n", "e.csv:3: blank line"},
	    {"source,time\n\"a,1\n", "e.csv:2: a quoted field has no closing quote"},
	    {"source,time\n\"a\"b,1\n", "e.csv:2: text after the closing quote"},
	    {"source,time\na\n", "e.csv:2: expected 2 fields, found 1"},
	    {"source,time\na,1,\n", "e.csv:2: expected 2 fields, found 3"},
	    {"source,time\na,\n", "e.csv:2: time '' is empty"},
	    {"source,time\na, 1\n", "e.csv:2: time ' 1' is neither"},
	    {"source,time\na,2013-02-29T00:00:00Z\n",
	     "e.csv:2: time '2013-02-29T00:00:00Z' has a day"},
	    {"source,time\na,2012-01-01T00:00:00+24:00\n", "has a UTC offset beyond +-23:59"},
	    {"source,time,weight\na,1,\n", "e.csv:2: weight '' is missing"},
	    {"source,time,weight\na,1,nan\n", "e.csv:2: weight 'nan' is NaN"},
	    {"source,time,weight\na,1,inf\n", "e.csv:2: weight 'inf' is infinite"},
	    {"source,time,weight\na,1,1e40\n", "e.csv:2: weight '1e40' is too large"},
	    {"source,time,weight\na,1, 2\n", "e.csv:2: weight ' 2' is not a number"},
	    {"source,time,weight\na,1,0x10\n", "e.csv:2: weight '0x10' is not a number"},
	    {"source,time,weight\na,1,2kg\n", "e.csv:2: weight '2kg' is not a number"},
	    {"source,time\n\"\",1\n", "e.csv:2: missing source"},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		check_load_fails(write_tmp_str("e.csv", cases[i].text), NULL, cases[i].want, NULL);

	check_load_fails(data("small.csv"), write_tmp_str("s.csv", "source,host\na,\n"),
	                 "s.csv:2: missing host", NULL);
	check_load_fails(data("small.csv"), write_tmp_str("s.csv", "source,group\na,\n"),
	                 "s.csv:2: missing group", NULL);
	check_load_fails(data("small.csv"), write_tmp_str("s.csv", "source,weight\na,-2\n"),
	                 "s.csv:2: weight '-2' is negative", NULL);
	check_load_fails(data("small.csv"), write_tmp_str("s.csv", "source,time\na,1\n"),
	                 "s.csv:1: unknown column 'time'", NULL);
}

/* A 70 KB line is refused with its number; 60 KB is fine. */
static void
long_line_is_refused(void)
{
	size_t big = 70 * 1024;
	char *text = malloc(big + 64);
	struct fr_trace tr;
	int n;

	if (!text)
		return;
	n = snprintf(text, 64, "source,time\na,1\n");
	memset(text + n, 'x', big);
	memcpy(text + n + big, ",1\n", 3);
	check_load_fails(write_tmp("long.csv", text, (size_t)n + big + 3), NULL,
	                 "long.csv:3: line is longer than 65536 bytes", NULL);
	/* a name of 60 KB: accepted, quoted in errors only in part */
	memcpy(text + n + 60 * 1024, ",1\n", 3);
	if (load_ok(&tr, write_tmp("long.csv", text, (size_t)n + 60 * 1024 + 3), NULL)) {
		CHECK(tr.n_sources == 2);
		CHECK(strlen(fr_trace_source_name(&tr, 1)) == 60 * 1024);
		fr_trace_free(&tr);
	}
	free(text);
}

/* CRLF, a byte order mark and no final newline load like the plain file. */
static void
crlf_bom_and_no_final_newline(void)
{
	static const char plain[] = "source,time\nx,5\ny,2012-01-01T00:00:00Z\nx,3\n";
	static const char odd[] = "\xEF\xBB\xBFsource,time\r\nx,5\r\ny,2012-01-01T00:00:00Z\r\nx,3";
	struct fr_trace a, b;

	if (!load_ok(&a, write_tmp_str("plain.csv", plain), NULL))
		return;
	if (load_ok(&b, write_tmp_str("odd.csv", odd), NULL)) {
		CHECK(same_trace(&a, &b));
		CHECK(b.n_items == 3);
		CHECK_STR(fr_trace_source_name(&b, 0), "x");
		fr_trace_free(&b);
	}
	fr_trace_free(&a);
}

static void
empty_trace_loads_with_no_items(void)
{
	struct fr_trace tr;

	if (load_ok(&tr, write_tmp_str("empty.csv", "source,time,weight\n"), NULL)) {
		CHECK(tr.n_items == 0);
		CHECK(tr.n_sources == 0);
		CHECK(tr.first != NULL && tr.first[0] == 0);
		CHECK(tr.start_s == 0 && tr.end_s == 0);
		CHECK_STR(fr_strmap_name(tr.groups, 0), "default");
		fr_trace_free(&tr);
	}
	if (load_ok(&tr, write_tmp_str("empty.csv", "source,time"), NULL)) {
		CHECK(tr.n_items == 0);
		CHECK(tr.item_weight == NULL);
		fr_trace_free(&tr);
	}
	/* header only, with a sources file: its sources, no items */
	if (load_ok(&tr, write_tmp_str("empty.csv", "source,time\n"), data("small_sources.csv"))) {
		CHECK(tr.n_sources == 4);
		CHECK(tr.n_items == 0);
		CHECK(tr.first[4] == 0);
		fr_trace_free(&tr);
	}
}

static void
gzip_loads_identically_to_plain(void)
{
	size_t len;
	char *bytes = test_slurp(data("small.csv"), &len);
	struct fr_trace plain, gz;

	if (!bytes || !load_ok(&plain, data("small.csv"), NULL)) {
		free(bytes);
		return;
	}
	/* named .csv on purpose: gzip is told by the magic bytes */
	if (load_ok(&gz, write_tmp_gz("small_gz.csv", bytes, len), NULL)) {
		CHECK(same_trace(&plain, &gz));
		check_small(&gz);
		fr_trace_free(&gz);
	}
	if (load_ok(&gz, write_tmp_gz("small.csv.gz", bytes, len), data("small_sources.csv"))) {
		CHECK(gz.n_sources == 4);
		check_small(&gz);
		fr_trace_free(&gz);
	}
	/* errors in gzip input still name the line */
	check_load_fails(write_tmp_gz("bad.csv.gz", "source,time\na,1\nb,x\n",
	                              strlen("source,time\na,1\nb,x\n")),
	                 NULL, "bad.csv.gz:3: time 'x' is neither", NULL);
	fr_trace_free(&plain);
	free(bytes);
}

static void
truncated_gzip_is_an_error(void)
{
	char text[8192];
	size_t n = 0, len;
	char *gzbytes;
	const char *path;

	n += (size_t)snprintf(text, sizeof(text), "source,time\n");
	for (int i = 0; n + 32 < sizeof(text); i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, "s%d,%d\n", i % 17,
		                      1000 + i * 7919 % 4001);
	path = write_tmp_gz("trunc.csv.gz", text, n);
	gzbytes = test_slurp(path, &len);
	if (!gzbytes)
		return;
	check_load_fails(write_tmp("trunc.csv.gz", gzbytes, len / 2), NULL,
	                 "trunc.csv.gz:", "read error");
	free(gzbytes);
}

static void
from_rows_matches_file_semantics(void)
{
	const char *src[] = {"b", "a", "c,d", "a", "b", "a", "b"};
	const double t[] = {1325376100, 1325376011, 1325376000,   1325376005.5,
	                    1325376000, 1325376011, 1325376100.25};
	const float w[] = {2, 54, 1, 3, 7, 9, 0.5f};
	struct fr_trace tr, file;
	char err[512];

	if (fr_trace_from_rows(&tr, 7, src, t, w, err, sizeof(err)) != 0) {
		CHECK(!"from_rows failed");
		return;
	}
	check_small(&tr);
	if (load_ok(&file, data("small.csv"), NULL)) {
		CHECK(same_trace(&tr, &file));
		fr_trace_free(&file);
	}
	fr_trace_free(&tr);

	/* no weights, or all NAN: no item weights */
	const float nanw[] = {NAN, NAN, NAN, NAN, NAN, NAN, NAN};
	CHECK(fr_trace_from_rows(&tr, 7, src, t, NULL, err, sizeof(err)) == 0);
	CHECK(tr.item_weight == NULL);
	fr_trace_free(&tr);
	CHECK(fr_trace_from_rows(&tr, 7, src, t, nanw, err, sizeof(err)) == 0);
	CHECK(tr.item_weight == NULL);
	fr_trace_free(&tr);
	/* some NAN: those count as 1 */
	const float somew[] = {NAN, 5, NAN, NAN, NAN, NAN, NAN};
	CHECK(fr_trace_from_rows(&tr, 7, src, t, somew, err, sizeof(err)) == 0);
	uint32_t a = source_id(&tr, "a");
	CHECK(a == 0);
	CHECK(tr.item_weight && tr.item_weight[tr.first[a] + 1] == 5.0f);
	CHECK(tr.item_weight && tr.item_weight[tr.first[a]] == 1.0f);
	fr_trace_free(&tr);

	CHECK(fr_trace_from_rows(&tr, 0, NULL, NULL, NULL, err, sizeof(err)) == 0);
	CHECK(tr.n_items == 0 && tr.n_sources == 0);
	fr_trace_free(&tr);

	const double badt[] = {1, NAN};
	CHECK(fr_trace_from_rows(&tr, 2, src, badt, NULL, err, sizeof(err)) == -1);
	CHECK(strstr(err, "rows[1]: time is not finite") != NULL);
	CHECK(all_zero(&tr));
	const char *nosrc[] = {"a", ""};
	CHECK(fr_trace_from_rows(&tr, 2, nosrc, t, NULL, err, sizeof(err)) == -1);
	CHECK(strstr(err, "rows[1]: missing source") != NULL);
	const float negw[] = {1, -1};
	CHECK(fr_trace_from_rows(&tr, 2, src, t, negw, err, sizeof(err)) == -1);
	CHECK(strstr(err, "rows[1]: weight") != NULL);
}

/* Without a sources file ids follow the names in byte order, whatever the
 * order of the rows: a file, the same rows scrambled, and fr_trace_from_rows
 * with the rows in yet another order give identical traces. "s10" sorts
 * before "s2", "B" before "a", and a name before its extensions. */
static void
ids_follow_names_not_row_order(void)
{
	static const char fwd[] = "source,time,weight\n"
	                          "s2,50,1\ns10,40,2\na,30,3\nB,20,4\nab,10,5\ns2,5,6\n"
	                          "\xc3\xa9t\xc3\xa9,7,7\ns1,60,8\n";
	static const char scr[] = "source,time,weight\n"
	                          "s1,60,8\nab,10,5\ns2,5,6\n\xc3\xa9t\xc3\xa9,7,7\n"
	                          "B,20,4\ns10,40,2\ns2,50,1\na,30,3\n";
	static const char *const want[] = {"B", "a", "ab", "s1", "s10", "s2", "\xc3\xa9t\xc3\xa9"};
	const char *src[] = {"\xc3\xa9t\xc3\xa9", "s2", "a", "s10", "s1", "ab", "B", "s2"};
	const double t[] = {7, 5, 30, 40, 60, 10, 20, 50};
	const float w[] = {7, 6, 3, 2, 8, 5, 4, 1};
	struct fr_trace a, b, c;
	char err[512], spath[512];

	if (!load_ok(&a, write_tmp_str("e.csv", fwd), NULL))
		return;
	CHECK(a.n_sources == 7);
	for (uint32_t s = 0; s < a.n_sources && s < 7; s++) {
		CHECK_STR(fr_trace_source_name(&a, s), want[s]);
		/* each source its own host, hosts numbered in the same order */
		CHECK(a.host[s] == s);
	}
	if (load_ok(&b, write_tmp_str("s.csv", scr), NULL)) {
		CHECK(same_trace(&a, &b));
		fr_trace_free(&b);
	}
	CHECK(fr_trace_from_rows(&c, 8, src, t, w, err, sizeof(err)) == 0);
	CHECK(same_trace(&a, &c));
	fr_trace_free(&c);
	/* with a sources file, its order stands (write_tmp's buffer is shared) */
	snprintf(spath, sizeof(spath), "%s",
	         write_tmp_str("only_source.csv",
	                       "source\ns2\ns10\ns1\nB\nab\na\n\xc3\xa9t\xc3\xa9\n"));
	if (load_ok(&b, write_tmp_str("s.csv", scr), spath)) {
		CHECK_STR(fr_trace_source_name(&b, 0), "s2");
		CHECK_STR(fr_trace_source_name(&b, 1), "s10");
		CHECK_STR(fr_trace_source_name(&b, 6), "\xc3\xa9t\xc3\xa9");
		CHECK(b.first[1] - b.first[0] == 2 && b.item_time_s[b.first[0]] == 5);
		fr_trace_free(&b);
	}
	fr_trace_free(&a);
}

/* Many shuffled items per source with repeated times: sorted, and items with
 * equal times keep their row order (seen through the weights). */
static void
large_unsorted_sources_sort_stably(void)
{
	enum { N = 20000, NSRC = 7 };
	const char *names[NSRC] = {"s0", "s1", "s2", "s3", "s4", "s5", "s6"};
	const char **src = malloc(N * sizeof(*src));
	double *t = malloc(N * sizeof(*t));
	float *w = malloc(N * sizeof(*w));
	struct fr_trace tr;
	char err[512];
	uint64_t x = 88172645463325252u;
	size_t bad = 0;
	double lo = INFINITY;

	if (!src || !t || !w)
		return;
	for (int i = 0; i < N; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		src[i] = names[x % NSRC];
		t[i] = (double)(x >> 40 & 255); /* many equal times */
		w[i] = (float)i;                /* the row number */
	}
	/* one source already sorted but for a single straggler */
	for (int i = 0; i < 200; i++) {
		src[i] = "sorted";
		t[i] = 1000 + i;
	}
	t[150] = 999.5;
	for (int i = 0; i < N; i++)
		lo = t[i] < lo ? t[i] : lo;
	CHECK(fr_trace_from_rows(&tr, N, src, t, w, err, sizeof(err)) == 0);
	for (uint32_t s = 0; s < tr.n_sources; s++) {
		for (size_t i = tr.first[s] + 1; i < tr.first[s + 1]; i++) {
			double a = tr.item_time_s[i - 1], b = tr.item_time_s[i];

			bad += a > b || (a == b && tr.item_weight[i - 1] >= tr.item_weight[i]);
		}
	}
	CHECK(bad == 0);
	CHECK(tr.first[tr.n_sources] == N);
	uint32_t sorted = source_id(&tr, "sorted");
	CHECK(sorted == NSRC); /* "s0".."s6" sort before "sorted" */
	CHECK(sorted < tr.n_sources && tr.item_time_s[tr.first[sorted]] == 999.5 &&
	      tr.item_weight[tr.first[sorted]] == 150.0f);
	CHECK(tr.start_s == lo && tr.end_s == 1199);
	fr_trace_free(&tr);
	free(src);
	free(t);
	free(w);
}

static void
strmap_interns_in_first_seen_order(void)
{
	struct fr_strmap *m = fr_strmap_new();
	const char *first_name;
	uint32_t id = 99;
	int added = -1;
	char name[32];
	size_t bad = 0;

	if (!m)
		return;
	CHECK(fr_strmap_len(m) == 0);
	CHECK(fr_strmap_find(m, "x", 1, &id) == 0);
	CHECK(fr_strmap_intern(m, "alpha", 5, &id, &added) == 0 && id == 0 && added == 1);
	CHECK(fr_strmap_intern(m, "beta!", 4, &id, &added) == 0 && id == 1 && added == 1);
	CHECK(fr_strmap_intern(m, "alpha", 5, &id, &added) == 0 && id == 0 && added == 0);
	CHECK(fr_strmap_intern(m, "", 0, &id, NULL) == 0 && id == 2);
	CHECK(fr_strmap_intern(m, "alph", 4, &id, NULL) == 0 && id == 3);
	CHECK_STR(fr_strmap_name(m, 1), "beta");
	CHECK_STR(fr_strmap_name(m, 2), "");
	CHECK(fr_strmap_name(m, 4) == NULL);
	CHECK(fr_strmap_find(m, "beta", 4, &id) == 1 && id == 1);
	first_name = fr_strmap_name(m, 0);
	/* growth keeps ids and name pointers */
	for (int i = 0; i < 100000; i++) {
		int n = snprintf(name, sizeof(name), "name-%d", i);

		bad += fr_strmap_intern(m, name, (size_t)n, &id, &added) != 0 ||
		       id != (uint32_t)i + 4 || !added;
	}
	for (int i = 0; i < 100000; i += 7) {
		int n = snprintf(name, sizeof(name), "name-%d", i);

		bad += fr_strmap_find(m, name, (size_t)n, &id) != 1 || id != (uint32_t)i + 4 ||
		       strcmp(fr_strmap_name(m, id), name) != 0;
	}
	CHECK(bad == 0);
	CHECK(fr_strmap_len(m) == 100004);
	CHECK(fr_strmap_name(m, 0) == first_name);
	CHECK_STR(first_name, "alpha");
	fr_strmap_free(m);
	fr_strmap_free(NULL);
}

static void
reddit_trace_loads(void)
{
	const char *path = FR_SHARED "/data/traces/reddit-2012h1.csv.gz";
	struct fr_trace tr;
	size_t bad = 0;

	if (access(path, R_OK) != 0) {
		fprintf(stderr, "skip reddit_trace_loads: %s is absent\n", path);
		return;
	}
	if (!load_ok(&tr, path, NULL))
		return;
	CHECK(tr.n_items == 322299);
	CHECK(tr.n_sources == 2221);
	CHECK(tr.item_weight != NULL);
	CHECK(tr.first[tr.n_sources] == tr.n_items);
	/* 2012-01-01 <= times < 2012-07-01 */
	CHECK(tr.start_s >= 1325376000.0 && tr.end_s < 1341100800.0 && tr.start_s < tr.end_s);
	for (uint32_t s = 0; s < tr.n_sources; s++)
		for (size_t i = tr.first[s] + 1; i < tr.first[s + 1]; i++)
			bad += tr.item_time_s[i - 1] > tr.item_time_s[i];
	CHECK(bad == 0);
	/* ids by name in byte order: digits before upper case before lower case */
	CHECK_STR(fr_trace_source_name(&tr, 0), "0x10c");
	for (uint32_t s = 1; s < tr.n_sources; s++)
		bad += strcmp(fr_trace_source_name(&tr, s - 1), fr_trace_source_name(&tr, s)) >= 0;
	CHECK(bad == 0);
	fr_trace_free(&tr);
}

static void
make_tmpdir(void)
{
	const char *base = getenv("TMPDIR");

	snprintf(tmpdir, sizeof(tmpdir), "%s/fr_test_trace.XXXXXX", base && *base ? base : "/tmp");
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		exit(1);
	}
}

static void
remove_tmpdir(void)
{
	static const char *const names[] = {"e.csv",        "s.csv",          "long.csv",
	                                    "plain.csv",    "odd.csv",        "empty.csv",
	                                    "small_gz.csv", "small.csv.gz",   "bad.csv.gz",
	                                    "trunc.csv.gz", "only_source.csv"};
	char path[512];

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", tmpdir, names[i]);
		unlink(path);
	}
	if (rmdir(tmpdir) != 0)
		fprintf(stderr, "note: %s not removed\n", tmpdir);
}

int
main(void)
{
	make_tmpdir();
	RUN(small_trace_parsed_and_sorted_per_source);
	RUN(columns_in_any_order_and_url_ignored);
	RUN(sources_file_sets_host_group_weight);
	RUN(sources_file_with_only_source_column);
	RUN(trace_source_missing_from_sources_file_is_error);
	RUN(duplicate_source_in_sources_file_is_error);
	RUN(bad_files_name_line_and_reason);
	RUN(generated_bad_rows_name_line_and_reason);
	RUN(long_line_is_refused);
	RUN(crlf_bom_and_no_final_newline);
	RUN(empty_trace_loads_with_no_items);
	RUN(gzip_loads_identically_to_plain);
	RUN(truncated_gzip_is_an_error);
	RUN(from_rows_matches_file_semantics);
	RUN(ids_follow_names_not_row_order);
	RUN(large_unsorted_sources_sort_stably);
	RUN(strmap_interns_in_first_seen_order);
	RUN(reddit_trace_loads);
	remove_tmpdir();
	return TEST_DONE();
}
