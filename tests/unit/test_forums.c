/* test_forums.c - the synthetic forums of `freshet serve --forums`: the
 * structure table covers every style; rendering is deterministic however
 * the timeline is generated; posts appear as the clock runs and old ones
 * stay as they were; every visible post is on exactly one page of its
 * thread and every thread on exactly one index page; sort orders hold but
 * for stickies; every date shown parses back (with a parser written here,
 * from tables typed here) to the truth's time; pages parse cleanly with
 * libxml2's HTML parser; other pages, robots.txt and 404s. */
#include "core/timefmt.h"
#include "testkit/clock.h"
#include "testkit/forums.h"
#include "testkit/server.h"
#include "testkit/text.h"

#include "test.h"

#include <libxml/HTMLparser.h>
#include <libxml/xmlerror.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define START 1709294400.0 /* 2024-03-01T12:00:00Z */
#define NF 14u             /* one forum per row of the table */

/* ---- the world and its answers ---- */

static struct fr_serve_clock CLOCK = {START, START + 1e9, 1, START};

static struct fr_tk_forums *
world(uint64_t seed, uint32_t n)
{
	struct fr_tk_forums_config c = {n, seed, &CLOCK};
	char err[256];
	struct fr_tk_forums *w = fr_tk_forums_new(&c, err, sizeof(err));

	if (!w)
		fprintf(stderr, "  %s\n", err);
	return w;
}

struct page {
	int status;
	char *body;
	size_t len;
};

/* GET http://forum<k>.test<url> at forum time t (the clock runs at speed 1
 * from START, so wall time = forum time). */
static void
fetch(struct fr_tk_forums *w, uint32_t k, const char *url, double t, struct page *pg)
{
	struct fr_serve_req req;
	struct fr_serve_resp resp;
	char host[32], path[512];
	const char *q = strchr(url, '?');
	size_t n = q ? (size_t)(q - url) : strlen(url);

	snprintf(host, sizeof(host), "forum%u.test", (unsigned)k);
	snprintf(path, sizeof(path), "%.*s", (int)n, url);
	memset(&req, 0, sizeof(req));
	req.path = path;
	req.query = q ? q + 1 : "";
	req.host_name = host;
	req.wall_s = t;
	memset(&resp, 0, sizeof(resp));
	resp.last_modified_s = -1;
	pg->status = -1;
	pg->body = NULL;
	pg->len = 0;
	if (fr_tk_forums_handle(w, &req, &resp) < 0)
		return;
	pg->status = resp.status;
	pg->body = malloc(resp.len + 1);
	if (pg->body) {
		memcpy(pg->body, resp.body, resp.len);
		pg->body[resp.len] = '\0';
		pg->len = resp.len;
	}
	if (resp.release)
		resp.release(resp.release_cls);
}

/* ---- the truth ---- */

struct tpost {
	uint32_t k, tid, no, pid;
	int64_t t;
	unsigned long long hash;
	int sticky, pinned;
	long parent;
	char author[64];
	char path[256]; /* the thread URL's path and query */
};

struct truth {
	struct tpost *p;
	size_t n;
};

static int
cmp_kpid(const void *a, const void *b)
{
	const struct tpost *x = a, *y = b;

	if (x->k != y->k)
		return x->k < y->k ? -1 : 1;
	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

/* The truth at t, as text (caller frees) and parsed (sorted by forum and
 * post id). */
static char *
truth_at(struct fr_tk_forums *w, double t, struct truth *tr)
{
	FILE *f = tmpfile();
	char err[256], line[1024], *all = NULL;
	size_t rows = 0, cap = 0, len = 0;
	long sz;

	tr->p = NULL;
	tr->n = 0;
	if (!f)
		return NULL;
	CHECK(fr_tk_forums_write_truth(w, f, t, &rows, "truth", err, sizeof(err)) == 0);
	sz = ftell(f);
	rewind(f);
	all = malloc((size_t)sz + 1);
	if (!all || fread(all, 1, (size_t)sz, f) != (size_t)sz) {
		fclose(f);
		free(all);
		return NULL;
	}
	all[sz] = '\0';
	rewind(f);
	CHECK(fgets(line, sizeof(line), f) != NULL);
	CHECK(!strcmp(line, "host\tthread_id\tthread_url\tpost_no\tpost_id\tauthor\tpublished_s\t"
	                    "text_hash\tsticky_thread\tpinned_post\tparent_no\n"));
	while (fgets(line, sizeof(line), f)) {
		struct tpost p;
		char url[300];
		long long ts;
		const char *slash;

		memset(&p, 0, sizeof(p));
		if (sscanf(line, "forum%u.test\t%u\t%299s\t%u\t%u\t%63s\t%lld\t%llx\t%d\t%d\t%ld",
		           &p.k, &p.tid, url, &p.no, &p.pid, p.author, &ts, &p.hash, &p.sticky,
		           &p.pinned, &p.parent) != 11) {
			CHECK(!"a truth line has 11 fields");
			fprintf(stderr, "  %s", line);
			continue;
		}
		p.t = ts;
		slash = strchr(url + 7, '/');
		snprintf(p.path, sizeof(p.path), "%s", slash ? slash : "/");
		if (len == cap) {
			cap = cap ? cap * 2 : 4096;
			tr->p = realloc(tr->p, cap * sizeof(*tr->p));
			if (!tr->p)
				break;
		}
		tr->p[len++] = p;
	}
	fclose(f);
	tr->n = len;
	CHECK(len == rows);
	if (tr->p)
		qsort(tr->p, tr->n, sizeof(*tr->p), cmp_kpid);
	return all;
}

static const struct tpost *
post_of(const struct truth *tr, uint32_t k, uint32_t pid)
{
	struct tpost key;

	key.k = k;
	key.pid = pid;
	return tr->p ? bsearch(&key, tr->p, tr->n, sizeof(*tr->p), cmp_kpid) : NULL;
}

/* A thread as the truth has it. */
struct tthread {
	uint32_t k, tid, n;
	int64_t created, last;
	int sticky;
	const char *path;
	const struct tpost **posts; /* by post number */
};

static int
cmp_kt(const void *a, const void *b)
{
	const struct tthread *x = a, *y = b;

	if (x->k != y->k)
		return x->k < y->k ? -1 : 1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

static struct tthread *
threads_of(const struct truth *tr, size_t *n_out)
{
	struct tthread *th = NULL;
	size_t n = 0, cap = 0;

	for (size_t i = 0; i < tr->n; i++) {
		const struct tpost *p = &tr->p[i];
		struct tthread key = {p->k, p->tid, 0, 0, 0, 0, NULL, NULL}, *t = NULL;

		if (n)
			t = bsearch(&key, th, n, sizeof(*th), cmp_kt);
		if (!t) {
			if (n == cap) {
				cap = cap ? cap * 2 : 1024;
				th = realloc(th, cap * sizeof(*th));
			}
			th[n] = key;
			th[n].path = p->path;
			th[n].sticky = p->sticky;
			n++;
			qsort(th, n, sizeof(*th), cmp_kt);
			t = bsearch(&key, th, n, sizeof(*th), cmp_kt);
		}
		t->n++;
	}
	for (size_t j = 0; j < n; j++) {
		th[j].posts = calloc(th[j].n, sizeof(*th[j].posts));
		th[j].n = 0;
	}
	for (size_t i = 0; i < tr->n; i++) {
		const struct tpost *p = &tr->p[i];
		struct tthread key = {p->k, p->tid, 0, 0, 0, 0, NULL, NULL};
		struct tthread *t = bsearch(&key, th, n, sizeof(*th), cmp_kt);

		t->posts[p->no] = p;
		t->n++;
	}
	for (size_t j = 0; j < n; j++) {
		th[j].created = th[j].posts[0]->t;
		th[j].last = th[j].posts[th[j].n - 1]->t;
	}
	*n_out = n;
	return th;
}

static void
threads_free(struct tthread *th, size_t n)
{
	for (size_t j = 0; j < n; j++)
		free(th[j].posts);
	free(th);
}

/* ---- HTML: libxml2's parser, errors counted ---- */

static int html_errors;
static char html_first_error[256];

static void
on_error(void *ctx, xmlErrorPtr e)
{
	(void)ctx;
	/* HTML5 elements (<time>, <nav>, <article>...) are unknown to
	 * libxml2's HTML 4 parser; that is no error of ours. */
	if (e->level < XML_ERR_ERROR || e->code == XML_HTML_UNKNOWN_TAG)
		return;
	if (!html_errors++)
		snprintf(html_first_error, sizeof(html_first_error), "line %d: %s", e->line,
		         e->message ? e->message : "?");
}

static htmlDocPtr
parse_html(const struct page *pg, const char *what)
{
	htmlDocPtr doc;

	html_errors = 0;
	xmlSetStructuredErrorFunc(NULL, on_error);
	doc = htmlReadMemory(pg->body, (int)pg->len, what, "utf-8", HTML_PARSE_NONET);
	xmlSetStructuredErrorFunc(NULL, NULL);
	CHECK(doc != NULL);
	if (html_errors) {
		CHECK(!"HTML parses without errors");
		fprintf(stderr, "  %s: %d errors, first %s\n", what, html_errors, html_first_error);
	}
	return doc;
}

static int
has_class(xmlNodePtr n, const char *cls)
{
	xmlChar *v = xmlGetProp(n, (const xmlChar *)"class");
	int found = 0;
	size_t l = strlen(cls);

	if (v) {
		const char *s = (const char *)v;

		while (*s) {
			size_t k = strcspn(s, " ");

			if (k == l && !strncmp(s, cls, l))
				found = 1;
			s += k;
			while (*s == ' ')
				s++;
		}
		xmlFree(v);
	}
	return found;
}

static int
is(xmlNodePtr n, const char *name)
{
	return n && n->type == XML_ELEMENT_NODE && !strcmp((const char *)n->name, name);
}

/* Depth-first visit of the elements under n. */
typedef void (*visit_fn)(xmlNodePtr n, void *cls);

static void
walk(xmlNodePtr n, visit_fn fn, void *cls)
{
	for (; n; n = n->next) {
		if (n->type == XML_ELEMENT_NODE) {
			fn(n, cls);
			walk(n->children, fn, cls);
		}
	}
}

/* The first element under n (n included) with class cls, or NULL. */
static xmlNodePtr
find_class(xmlNodePtr n, const char *cls)
{
	if (n->type == XML_ELEMENT_NODE && has_class(n, cls))
		return n;
	for (xmlNodePtr c = n->children; c; c = c->next) {
		xmlNodePtr r = c->type == XML_ELEMENT_NODE ? find_class(c, cls) : NULL;

		if (r)
			return r;
	}
	return NULL;
}

/* ---- dates, parsed back with tables typed here ---- */

static const char *const MON_EN[12] = {"jan", "feb", "mar", "apr", "may", "jun",
                                       "jul", "aug", "sep", "oct", "nov", "dec"};
/* Month names per language code: the full (or genitive) form's first
 * letters, lower case, enough to tell the months apart. */
struct months {
	const char *lang;
	const char *m[12];
};
static const struct months MONTHS[] = {
    {"de",
     {"januar", "februar", "märz", "april", "mai", "juni", "juli", "august", "september", "oktober",
      "november", "dezember"}},
    {"fr",
     {"janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre",
      "octobre", "novembre", "décembre"}},
    {"ru",
     {"января", "февраля", "марта", "апреля", "мая", "июня", "июля", "августа", "сентября",
      "октября", "ноября", "декабря"}},
    {"es",
     {"enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre",
      "octubre", "noviembre", "diciembre"}},
    {"tr",
     {"ocak", "şubat", "mart", "nisan", "mayıs", "haziran", "temmuz", "ağustos", "eylül", "ekim",
      "kasım", "aralık"}},
    {"it",
     {"gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno", "luglio", "agosto", "settembre",
      "ottobre", "novembre", "dicembre"}},
    {"pl",
     {"stycznia", "lutego", "marca", "kwietnia", "maja", "czerwca", "lipca", "sierpnia", "września",
      "października", "listopada", "grudnia"}},
    {"nl",
     {"januari", "februari", "maart", "april", "mei", "juni", "juli", "augustus", "september",
      "oktober", "november", "december"}},
};

/* Relative words per language: today, yesterday, just now; unit words
 * (substrings) for minutes, hours, days. */
struct relw {
	const char *lang, *today, *yesterday, *now;
	const char *min[3], *hour[3], *day[3];
};
static const struct relw REL[] = {
    {"en", "Today", "Yesterday", "just now", {"minute"}, {"hour"}, {"day"}},
    {"de", "Heute", "Gestern", "gerade eben", {"Minute"}, {"Stunde"}, {"Tag"}},
    {"es", "Hoy", "Ayer", "hace un momento", {"minuto"}, {"hora"}, {"día"}},
    {"nl", "Vandaag", "Gisteren", "zojuist", {"minu"}, {"uur"}, {"dag"}},
    {"zh", "今天", "昨天", "刚刚", {"分钟"}, {"小时"}, {"天前"}},
};

/* Lower-cases ASCII and copies the n bytes at s into buf. */
static void
lower(const char *s, size_t n, char *buf, size_t len)
{
	size_t i;

	for (i = 0; i < n && i + 1 < len; i++)
		buf[i] = (char)(s[i] >= 'A' && s[i] <= 'Z' ? s[i] - 'A' + 'a' : s[i]);
	buf[i] = '\0';
}

/* Numbers and the month (from a month word) of s; pm: 1 pm, 0 am, -1 none. */
struct toks {
	long num[8];
	int nd[8]; /* digits of each number */
	int n, month, pm;
};

static void
tokens(const char *s, const char *lang, struct toks *t)
{
	memset(t, 0, sizeof(*t));
	t->pm = -1;
	while (*s) {
		if (*s >= '0' && *s <= '9') {
			long v = 0;
			int d = 0;

			while (*s >= '0' && *s <= '9') {
				v = v * 10 + (*s++ - '0');
				d++;
			}
			if (t->n < 8) {
				t->nd[t->n] = d;
				t->num[t->n++] = v;
			}
		} else if ((unsigned char)*s >= 0x80 || (*s >= 'a' && *s <= 'z') ||
		           (*s >= 'A' && *s <= 'Z')) {
			const char *e = s;
			char w[64];

			while ((unsigned char)*e >= 0x80 || (*e >= 'a' && *e <= 'z') ||
			       (*e >= 'A' && *e <= 'Z'))
				e++;
			lower(s, (size_t)(e - s), w, sizeof(w));
			if (!strcmp(w, "pm"))
				t->pm = 1;
			else if (!strcmp(w, "am"))
				t->pm = 0;
			for (int m = 0; m < 12 && !t->month; m++) {
				if (!strcmp(lang, "en") && !strncmp(w, MON_EN[m], 3))
					t->month = m + 1;
				for (size_t l = 0; l < sizeof(MONTHS) / sizeof(MONTHS[0]); l++) {
					/* Lower-casing ASCII only: compare the
					 * tails when the first letter differs
					 * in case (Şubat, Kasım). */
					if (!strcmp(lang, MONTHS[l].lang) &&
					    (!strcmp(w, MONTHS[l].m[m]) ||
					     (strlen(w) > 2 &&
					      !strcmp(w + 1, MONTHS[l].m[m] + 1)) ||
					     (!strncmp(MONTHS[l].m[m], "ş", 2) &&
					      !strcmp(w + 2, MONTHS[l].m[m] + 2))))
						t->month = m + 1;
				}
			}
			s = e;
		} else {
			s++;
		}
	}
}

static int64_t
utc(long y, long m, long d, long h, long mi, long sec)
{
	return (int64_t)fr_days_from_civil(y, (unsigned)m, (unsigned)d) * 86400 + h * 3600 +
	       mi * 60 + sec;
}

static long
hour12(long h, int pm)
{
	if (pm < 0)
		return h;
	return (h % 12) + (pm ? 12 : 0);
}

/* An absolute date of style ds in lang: 0 and *t, or -1. */
static int
parse_abs(enum fr_tk_forum_dstyle ds, const char *lang, const char *s, int64_t *t)
{
	struct toks k;
	long y, m, d, h, mi, sec = 0;

	tokens(s, lang, &k);
	switch (ds) {
	case FR_TK_FORUM_DS_NUM_MDY:
		if (k.n != 5)
			return -1;
		m = k.num[0], d = k.num[1], y = k.num[2], h = hour12(k.num[3], k.pm), mi = k.num[4];
		break;
	case FR_TK_FORUM_DS_NUM_DMY:
	case FR_TK_FORUM_DS_NUM_DOT:
	case FR_TK_FORUM_DS_NUM_DOT2:
		if (k.n != 5)
			return -1;
		d = k.num[0], m = k.num[1], y = k.num[2], h = k.num[3], mi = k.num[4];
		if (k.nd[2] == 2)
			y += 2000;
		break;
	case FR_TK_FORUM_DS_NUM_YMD:
		if (k.n != 5)
			return -1;
		y = k.num[0], m = k.num[1], d = k.num[2], h = k.num[3], mi = k.num[4];
		break;
	default:
		if (!strcmp(lang, "zh")) {
			if (k.n != 5)
				return -1;
			y = k.num[0], m = k.num[1], d = k.num[2], h = k.num[3], mi = k.num[4];
			break;
		}
		if (!k.month || k.n < 4 || k.nd[1] != 4)
			return -1;
		d = k.num[0], m = k.month, y = k.num[1], h = hour12(k.num[2], k.pm), mi = k.num[3];
		if (k.n == 5)
			sec = k.num[4];
		break;
	}
	if (m < 1 || m > 12 || d < 1 || d > 31 || h > 23 || mi > 59)
		return -1;
	*t = utc(y, m, d, h, mi, sec);
	return 0;
}

/* A date as shown (absolute, or relative to now) for forum profile p: the
 * range [lo, hi] the time must be in. 0, or -1 when it does not parse. */
static int
parse_shown(const struct fr_tk_forum_profile *p, const char *s, int64_t now, int64_t *lo,
            int64_t *hi)
{
	const char *lang = fr_tk_forum_lang_ui(p->lang)->code;
	const struct relw *r = NULL;
	int64_t t;

	for (size_t i = 0; i < sizeof(REL) / sizeof(REL[0]); i++)
		if (!strcmp(REL[i].lang, lang))
			r = &REL[i];
	if (p->rel != FR_TK_FORUM_REL_NONE && r) {
		struct toks k;

		tokens(s, lang, &k);
		if (strstr(s, r->today) || strstr(s, r->yesterday)) {
			int64_t day = now / 86400 - (strstr(s, r->yesterday) ? 1 : 0);

			if (k.n < 2)
				return -1;
			*lo = *hi = day * 86400 + hour12(k.num[0], k.pm) * 3600 + k.num[1] * 60 +
			            (k.n > 2 ? k.num[2] : 0);
			return 0;
		}
		if (strstr(s, r->now)) {
			*lo = now - 59;
			*hi = now;
			return 0;
		}
		if (k.n == 1) {
			long unit = strstr(s, r->min[0])    ? 60
			            : strstr(s, r->hour[0]) ? 3600
			            : strstr(s, r->day[0])  ? 86400
			                                    : 0;

			if (!unit)
				return -1;
			*lo = now - (k.num[0] + 1) * unit + 1;
			*hi = now - k.num[0] * unit;
			return 0;
		}
	}
	if (parse_abs(p->dstyle, lang, s, &t) < 0)
		return -1;
	*lo = *hi = t;
	return 0;
}

/* Checks a date element against the time it must show (exactly, or within
 * the relative text's precision), its attributes too. Returns 0 if right. */
static int
check_date(const struct fr_tk_forum_profile *p, xmlNodePtr el, int64_t want, int64_t now)
{
	xmlChar *text = xmlNodeGetContent(el);
	xmlChar *dt = xmlGetProp(el, (const xmlChar *)"datetime");
	xmlChar *title = xmlGetProp(el, (const xmlChar *)"title");
	xmlChar *data = xmlGetProp(el, (const xmlChar *)"data-time");
	int64_t lo = 0, hi = -1, t;
	int bad = 0;

	if (!text || parse_shown(p, (const char *)text, now, &lo, &hi) < 0 || want < lo ||
	    want > hi)
		bad = 1;
	if (bad == 1 && text && p->noyear) {
		/* this year's dates without the year: "MM/DD hh:mm", "DD/MM, hh:mm" */
		unsigned a, b, h, mi;
		time_t nt = (time_t)now;
		struct tm tm;

		gmtime_r(&nt, &tm);
		if (sscanf((const char *)text, "%u/%u%*[, ]%u:%u", &a, &b, &h, &mi) == 4) {
			unsigned mo = p->dstyle == FR_TK_FORUM_DS_NUM_YMD ? a : b,
			         d = p->dstyle == FR_TK_FORUM_DS_NUM_YMD ? b : a;
			int64_t v = (int64_t)fr_days_from_civil(tm.tm_year + 1900, mo, d) * 86400 +
			            h * 3600 + mi * 60;

			if (v == want)
				bad = 0;
		}
	}
	if (dt) {
		double v;

		if (fr_time_parse((const char *)dt, strlen((const char *)dt), &v, NULL) < 0 ||
		    (int64_t)v != want)
			bad = 2;
	}
	if (data && strtoll((const char *)data, NULL, 10) != want)
		bad = 3;
	if (title &&
	    (parse_abs(p->attr == FR_TK_FORUM_ATTR_TITLE ? FR_TK_FORUM_DS_NUM_YMD : p->dstyle,
	               fr_tk_forum_lang_ui(p->lang)->code, (const char *)title, &t) < 0 ||
	     t != want))
		bad = 4;
	if (bad)
		fprintf(stderr,
		        "  date '%s' (datetime %s, title %s, data-time %s): want %lld, "
		        "read [%lld, %lld], failure %d\n",
		        text ? (const char *)text : "", dt ? (const char *)dt : "-",
		        title ? (const char *)title : "-", data ? (const char *)data : "-",
		        (long long)want, (long long)lo, (long long)hi, bad);
	xmlFree(text);
	xmlFree(dt);
	xmlFree(title);
	xmlFree(data);
	return bad ? -1 : 0;
}

static void
test_date_parser_sees_formats(void)
{
	/* The test's own parser against hand-written strings, so that a
	 * broken parser cannot pass the page checks. */
	struct fr_tk_forum_profile p;
	int64_t lo, hi, want = utc(2019, 11, 25, 21, 15, 0), now = utc(2019, 11, 26, 1, 0, 0);

	fr_tk_forums_profile(0, &p); /* en, en-phpbb */
	CHECK(parse_shown(&p, "Mon Nov 25, 2019 9:15 pm", now, &lo, &hi) == 0 && lo == want);
	fr_tk_forums_profile(8, &p); /* en, num-mdy */
	CHECK(parse_shown(&p, "11-25-2019, 09:15 PM", now, &lo, &hi) == 0 && lo == want);
	fr_tk_forums_profile(5, &p); /* ru text */
	CHECK(parse_shown(&p, "25 ноября 2019, 21:15", now, &lo, &hi) == 0 && lo == want);
	fr_tk_forums_profile(7, &p); /* fr text */
	CHECK(parse_shown(&p, "25 novembre 2019 à 21h15", now, &lo, &hi) == 0 && lo == want);
	fr_tk_forums_profile(11, &p); /* tr text */
	CHECK(parse_shown(&p, "25 Kasım 2019 21:15", now, &lo, &hi) == 0 && lo == want);
	fr_tk_forums_profile(13, &p); /* de num-dot2, ago */
	CHECK(parse_shown(&p, "25.11.19 21:15", now, &lo, &hi) == 0 && lo == want);
	CHECK(parse_shown(&p, "vor 3 Stunden", now, &lo, &hi) == 0 && lo <= now - 3 * 3600 &&
	      hi == now - 3 * 3600);
	fr_tk_forums_profile(2, &p); /* en-long, day words */
	CHECK(parse_shown(&p, "Yesterday at 09:15:00 PM", now, &lo, &hi) == 0 && lo == want);
	CHECK(parse_shown(&p, "November 25, 2019, 09:15:00 PM", now, &lo, &hi) == 0 && lo == want);
	CHECK(parse_shown(&p, "Nov 35, 2019, 09:15:00 PM", now, &lo, &hi) < 0);
	/* And the server's formatter, each style, reads back. */
	for (uint32_t k = 0; k < NF; k++) {
		struct fr_text t = {0};
		int64_t x = utc(2023, 2, 7, 4, 5, 0), v = 0;

		fr_tk_forums_profile(k, &p);
		fr_tk_forum_lang_date_abs(&t, p.lang, p.dstyle, x);
		CHECK(t.p && parse_abs(p.dstyle, fr_tk_forum_lang_ui(p.lang)->code, t.p, &v) == 0 &&
		      v == x);
		free(t.p);
	}
}

/* ---- the structure table ---- */

static void
test_table_covers_styles(void)
{
	unsigned sw = 0, isort = 0, tsort = 0, langs = 0, pag = 0, nested = 0, la = 0, stk = 0,
	         idates = 0, rel = 0, attr = 0, ds = 0;
	struct fr_tk_forum_profile p;
	struct fr_tk_forums *w = world(1, NF);
	FILE *f = tmpfile();
	char err[256], line[1024];
	int n = 0;

	for (uint32_t k = 0; k < NF; k++) {
		fr_tk_forums_profile(k, &p);
		sw |= 1u << p.sw;
		isort |= 1u << p.isort;
		tsort |= 1u << p.tsort;
		langs |= 1u << p.lang;
		pag |= 1u << fr_tk_forums_pagination(p.sw);
		nested |= 1u << p.nested;
		la |= 1u << p.la_links;
		stk |= 1u << (p.stickies > 0);
		idates |= 1u << p.idates;
		rel |= 1u << p.rel;
		attr |= 1u << p.attr;
		ds |= 1u << p.dstyle;
		CHECK(p.threads_pp >= 20 && p.threads_pp <= 25);
		CHECK(p.posts_pp >= 10 && p.posts_pp <= 15);
		CHECK(p.stickies <= 3);
	}
	CHECK(sw == (1u << FR_TK_FORUM_N_SW) - 1);
	CHECK(isort == 3 && tsort == 3 && nested == 3 && la == 3 && stk == 3);
	CHECK(__builtin_popcount(langs) >= 6);
	CHECK(pag == 15 && idates == 7 && rel == 7 && attr == 15);
	CHECK(ds == (1u << FR_TK_FORUM_N_DSTYLES) - 1);
	/* The table repeats every 14 forums. */
	{
		struct fr_tk_forum_profile q;

		fr_tk_forums_profile(3, &p);
		fr_tk_forums_profile(3 + FR_TK_FORUMS_N_PROFILES, &q);
		CHECK(!memcmp(&p, &q, sizeof(p)));
	}
	/* --describe says the same. */
	CHECK(w && f && fr_tk_forums_write_describe(w, f, "describe", err, sizeof(err)) == 0);
	rewind(f);
	while (f && fgets(line, sizeof(line), f)) {
		char host[32], url[128], swn[32], is[8], ts[8];

		if (n++ == 0) {
			CHECK(!strncmp(line, "host\tentry_url\tsoftware\tindex_sort\tthread_sort\t",
			               47));
			continue;
		}
		fr_tk_forums_profile((uint32_t)(n - 2), &p);
		CHECK(sscanf(line, "%31s\t%127s\t%31s\t%7s\t%7s", host, url, swn, is, ts) == 5);
		CHECK(!strcmp(swn, fr_tk_forums_sw_name(p.sw)));
		CHECK(!strcmp(is, fr_tk_forums_isort_name(p.isort)));
		CHECK(!strcmp(ts, fr_tk_forums_tsort_name(p.tsort)));
	}
	CHECK(n == (int)NF + 1);
	if (f)
		fclose(f);
	fr_tk_forums_free(w);
}

/* ---- determinism and time ---- */

static void
test_deterministic(void)
{
	struct fr_tk_forums *a = world(7, NF), *b = world(7, NF), *c = world(8, NF);
	double t1 = START + 3600, t2 = START + 3 * 86400 + 1234;
	struct truth ta, tb;
	char *sa, *sb, *sc;
	const char *urls[] = {"/", "/viewforum.php?f=3", "/robots.txt", "/faq.php"};

	if (!a || !b || !c)
		return;
	/* a is asked at t1 first (its timeline grows in two steps), b only
	 * at t2: they must agree at t2. */
	for (uint32_t k = 0; k < NF; k++) {
		struct page pg;

		fetch(a, k, "/", t1, &pg);
		CHECK(pg.status == 200);
		free(pg.body);
	}
	sa = truth_at(a, t2, &ta);
	sb = truth_at(b, t2, &tb);
	CHECK(sa && sb && !strcmp(sa, sb));
	free(tb.p);
	sc = truth_at(c, t2, &tb);
	CHECK(sc && strcmp(sa, sc) != 0); /* another seed, another world */
	for (size_t u = 0; u < sizeof(urls) / sizeof(urls[0]); u++) {
		struct page pa, pb;

		fetch(a, 0, urls[u], t2, &pa);
		fetch(b, 0, urls[u], t2, &pb);
		CHECK(pa.status == pb.status && pa.len == pb.len && pa.body && pb.body &&
		      !memcmp(pa.body, pb.body, pa.len));
		free(pa.body);
		free(pb.body);
	}
	/* Every thread page of forum 3 (busy) at t2: the same bytes. */
	for (size_t i = 0; i < ta.n; i += 37) {
		struct page pa, pb;

		if (ta.p[i].k != 3)
			continue;
		fetch(a, 3, ta.p[i].path, t2, &pa);
		fetch(b, 3, ta.p[i].path, t2, &pb);
		CHECK(pa.status == 200 && pa.len == pb.len && !memcmp(pa.body, pb.body, pa.len));
		free(pa.body);
		free(pb.body);
	}
	free(sa);
	free(sb);
	free(sc);
	free(ta.p);
	free(tb.p);
	fr_tk_forums_free(a);
	fr_tk_forums_free(b);
	fr_tk_forums_free(c);
}

static void
test_posts_appear(void)
{
	struct fr_tk_forums *w = world(5, NF);
	double t1 = START + 600, t2 = START + 2 * 86400;
	struct truth a, b;
	char *sa, *sb;
	size_t j = 0, kept = 0, busy_new = 0;

	if (!w)
		return;
	sa = truth_at(w, t1, &a);
	sb = truth_at(w, t2, &b);
	CHECK(a.n > 1000 && b.n > a.n);
	/* Every post of t1 is still there at t2, unchanged; the new ones are
	 * dated (t1, t2]. */
	for (size_t i = 0; i < b.n; i++) {
		const struct tpost *p = &b.p[i], *q = post_of(&a, p->k, p->pid);

		if (q) {
			kept += q->t == p->t && q->hash == p->hash && q->tid == p->tid &&
			        q->no == p->no && !strcmp(q->author, p->author);
		} else {
			CHECK(p->t > (int64_t)t1 && p->t <= (int64_t)t2);
			busy_new += p->k % 8 == 3;
		}
		CHECK(p->t <= (int64_t)t2);
	}
	CHECK(kept == a.n);
	CHECK(busy_new > 20); /* forum 3 and 11 are busy */
	/* A post that is new at t2 shows on its thread's pages at t2 and on
	 * none at t1. */
	for (j = 0; j < b.n; j++)
		if (b.p[j].k == 3 && !post_of(&a, 3, b.p[j].pid) && b.p[j].no > 0)
			break;
	CHECK(j < b.n);
	if (j < b.n) {
		const struct tpost *p = &b.p[j];
		char id[32];
		struct page pg;
		int seen1 = 0, seen2 = 0;

		snprintf(id, sizeof(id), "id=\"js-post-%u\"", (unsigned)p->pid);
		/* XenForo paths: the thread URL, then page-N. */
		for (int page = 1; page <= 50; page++) {
			char url[300];

			if (page == 1)
				snprintf(url, sizeof(url), "%s", p->path);
			else
				snprintf(url, sizeof(url), "%spage-%d", p->path, page);
			fetch(w, 3, url, t1, &pg);
			seen1 += pg.status == 200 && strstr(pg.body, id) != NULL;
			free(pg.body);
			fetch(w, 3, url, t2, &pg);
			seen2 += pg.status == 200 && strstr(pg.body, id) != NULL;
			free(pg.body);
		}
		CHECK(seen1 == 0 && seen2 == 1);
	}
	free(sa);
	free(sb);
	free(a.p);
	free(b.p);
	fr_tk_forums_free(w);
}

/* ---- pages: pagination, order, dates, HTML ---- */

/* Post elements of software sw: their id's prefix and tag. */
static int
post_pid(enum fr_tk_forum_sw sw, xmlNodePtr n, uint32_t *pid)
{
	static const char *const PREFIX[FR_TK_FORUM_N_SW] = {"p",     "post_", "msg", "js-post-",
	                                                  "post_", "post-", "c"};
	static const char *const TAG[FR_TK_FORUM_N_SW] = {"div", "li",  "div", "article",
	                                               "div", "div", ""};
	xmlChar *id = xmlGetProp(n, (const xmlChar *)"id");
	size_t l = strlen(PREFIX[sw]);
	int ok = 0;

	if (id && !strncmp((const char *)id, PREFIX[sw], l) && id[l] >= '0' && id[l] <= '9' &&
	    (TAG[sw][0] ? is(n, TAG[sw]) : is(n, "li") || is(n, "div"))) {
		char *e;

		*pid = (uint32_t)strtoul((const char *)id + l, &e, 10);
		ok = *e == '\0';
	}
	xmlFree(id);
	return ok;
}

struct collect {
	enum fr_tk_forum_sw sw;
	uint32_t ids[64];
	xmlNodePtr nodes[64];
	int n;
};

static void
collect_posts(xmlNodePtr n, void *cls)
{
	struct collect *c = cls;
	uint32_t pid;

	if (c->n < 64 && post_pid(c->sw, n, &pid)) {
		c->ids[c->n] = pid;
		c->nodes[c->n++] = n;
	}
}

/* The title links of thread rows on an index page. */
static int
title_link(enum fr_tk_forum_sw sw, xmlNodePtr n)
{
	xmlChar *id;
	int ok;

	if (!is(n, "a"))
		return 0;
	switch (sw) {
	case FR_TK_FORUM_PHPBB:
		return has_class(n, "topictitle");
	case FR_TK_FORUM_VBULLETIN:
		id = xmlGetProp(n, (const xmlChar *)"id");
		ok = id && !strncmp((const char *)id, "thread_title_", 13);
		xmlFree(id);
		return ok;
	case FR_TK_FORUM_SMF: /* td.subject > div > span#msg_N > [strong >] a */
		for (xmlNodePtr a = n->parent; a; a = a->parent)
			if (is(a, "td"))
				return has_class(a, "subject") && is(n->parent, "strong")
				           ? is(n->parent->parent, "span")
				           : is(n->parent, "span");
		return 0;
	case FR_TK_FORUM_XENFORO:
		return n->parent && has_class(n->parent, "structItem-title");
	case FR_TK_FORUM_DISCUZ:
		return has_class(n, "xst");
	case FR_TK_FORUM_CUSTOM:
		return has_class(n, "thread-title");
	default:
		return has_class(n, "title") && n->parent && is(n->parent, "p");
	}
}

struct rows {
	enum fr_tk_forum_sw sw;
	xmlNodePtr links[64];
	int n;
};

static void
collect_rows(xmlNodePtr n, void *cls)
{
	struct rows *r = cls;

	if (r->n < 64 && title_link(r->sw, n))
		r->links[r->n++] = n;
}

/* The row around a title link. */
static xmlNodePtr
row_of(xmlNodePtr a)
{
	for (xmlNodePtr n = a->parent; n; n = n->parent)
		if (is(n, "li") || is(n, "tr") || is(n, "tbody") || has_class(n, "structItem") ||
		    has_class(n, "thing"))
			return n;
	return a;
}

static const struct tthread *
thread_by_path(const struct tthread *th, size_t n, uint32_t k, const char *path)
{
	/* without the session id the links of rows 0, 1, 2 and 8 carry */
	size_t len = strlen(path);
	const char *sess = strstr(path, "&sid=");

	if (!sess)
		sess = strstr(path, "&s=");
	if (!sess)
		sess = strstr(path, "&PHPSESSID=");
	if (sess)
		len = (size_t)(sess - path);
	for (size_t i = 0; i < n; i++)
		if (th[i].k == k && strlen(th[i].path) == len && !strncmp(th[i].path, path, len))
			return &th[i];
	return NULL;
}

/* The URL of page p of a board or thread whose first page is url, for
 * software sw and page size per, built here from the documented shapes. */
static void
page_url(enum fr_tk_forum_sw sw, int thread, const char *url, unsigned p, unsigned per, char *buf,
         size_t len)
{
	size_t n = strlen(url);

	if (p == 1) {
		snprintf(buf, len, "%s", url);
		return;
	}
	switch (sw) {
	case FR_TK_FORUM_PHPBB:
		snprintf(buf, len, "%s&start=%u", url, (p - 1) * per);
		break;
	case FR_TK_FORUM_VBULLETIN:
		snprintf(buf, len, "%s&page=%u", url, p);
		break;
	case FR_TK_FORUM_SMF: /* ...=ID.0 */
		snprintf(buf, len, "%.*s%u", (int)(n - 1), url, (p - 1) * per);
		break;
	case FR_TK_FORUM_XENFORO:
		snprintf(buf, len, "%spage-%u", url, p);
		break;
	case FR_TK_FORUM_DISCUZ: { /* forum-ID-1.html, thread-ID-1-1.html */
		const char *one = thread ? strrchr(url, '-') - 1 : strrchr(url, '-') + 1;

		snprintf(buf, len, "%.*s%u%s", (int)(one - url), url, p, one + 1);
		break;
	}
	case FR_TK_FORUM_CUSTOM:
		snprintf(buf, len, "%s%u.html", url, p);
		break;
	default:
		snprintf(buf, len, "%s?page=%u", url, p);
		break;
	}
}

/* Walks every page of thread t of forum k at now: each visible post on
 * exactly one page, in the thread's order, pages full but the last, every
 * post date right. Returns the number of pages. */
static unsigned
check_thread(struct fr_tk_forums *w, const struct fr_tk_forum_profile *p, uint32_t k,
             const struct tthread *t, int64_t now)
{
	unsigned pages = (t->n + p->posts_pp - 1) / p->posts_pp, pg;
	uint32_t *seen = calloc(t->n, sizeof(*seen)), *order = malloc(t->n * sizeof(*order));
	size_t got = 0;
	int bad_dates = 0;

	for (pg = 1; pg <= pages + 1; pg++) {
		char url[320];
		struct page page;
		htmlDocPtr doc;
		struct collect c;

		page_url(p->sw, 1, t->path, pg, p->posts_pp, url, sizeof(url));
		fetch(w, k, url, (double)now, &page);
		if (pg > pages) {
			CHECK(page.status == 404); /* one past the last page */
			free(page.body);
			break;
		}
		CHECK(page.status == 200);
		if (page.status != 200) {
			fprintf(stderr, "  forum%u %s: %d\n", (unsigned)k, url, page.status);
			free(page.body);
			break;
		}
		doc = parse_html(&page, url);
		memset(&c, 0, sizeof(c));
		c.sw = p->sw;
		if (doc)
			walk(xmlDocGetRootElement(doc), collect_posts, &c);
		CHECK(c.n == (int)(pg < pages ? p->posts_pp : t->n - (pages - 1) * p->posts_pp));
		for (int i = 0; i < c.n; i++) {
			const struct tpost *tp = NULL;
			xmlNodePtr d;

			for (uint32_t j = 0; j < t->n; j++)
				if (t->posts[j]->pid == c.ids[i])
					tp = t->posts[j];
			CHECK(tp != NULL);
			if (!tp)
				continue;
			seen[tp->no]++;
			if (got < t->n)
				order[got++] = tp->no;
			d = find_class(c.nodes[i], "date-post");
			CHECK(d != NULL);
			if (!d)
				fprintf(stderr, "  forum%u post %u: no date-post\n", (unsigned)k,
				        (unsigned)c.ids[i]);
			if (d && check_date(p, d, tp->t, now) < 0)
				bad_dates++;
		}
		if (doc)
			xmlFreeDoc(doc);
		free(page.body);
	}
	CHECK(bad_dates == 0);
	for (uint32_t j = 0; j < t->n; j++)
		CHECK(seen[j] == 1);
	CHECK(got == t->n);
	if (got == t->n && t->n > 0) {
		/* The order: ASC by number; DSC the opening post, then newest
		 * first; nested: the opening post, each reply after its parent,
		 * top-level replies ASC or DSC. */
		CHECK(order[0] == 0);
		for (uint32_t i = 1; i < got; i++) {
			if (p->nested) {
				long par = t->posts[order[i]]->parent;
				uint32_t at = 0;

				for (uint32_t x = 0; x < i; x++)
					if ((long)order[x] == par)
						at = 1;
				CHECK(at);
			} else if (p->tsort == FR_TK_FORUM_ASC) {
				CHECK(order[i] == i);
			} else {
				CHECK(order[i] == got - i);
			}
		}
		if (p->nested) {
			long prev = -1;

			for (uint32_t i = 1; i < got; i++) {
				if (t->posts[order[i]]->parent != 0)
					continue;
				if (prev >= 0)
					CHECK(p->tsort == FR_TK_FORUM_ASC ? (long)order[i] > prev
					                               : (long)order[i] < prev);
				prev = (long)order[i];
			}
		}
	}
	free(seen);
	free(order);
	return pages;
}

/* The entry page's board links, in order (first-page URLs). */
struct boards {
	char url[16][256];
	int n;
	enum fr_tk_forum_sw sw;
};

static void
collect_boards(xmlNodePtr n, void *cls)
{
	struct boards *b = cls;
	static const char *const CLS[FR_TK_FORUM_N_SW] = {
	    "forumtitle", NULL, "subject", NULL, NULL, "board", "community-name"};
	xmlChar *href;
	int ok;

	if (!is(n, "a") || b->n >= 16)
		return;
	switch (b->sw) {
	case FR_TK_FORUM_VBULLETIN:
		ok = n->parent && has_class(n->parent, "forumtitle");
		break;
	case FR_TK_FORUM_XENFORO:
		ok = n->parent && has_class(n->parent, "node-title");
		break;
	case FR_TK_FORUM_DISCUZ:
		ok = n->parent && is(n->parent, "dt");
		break;
	default:
		ok = has_class(n, CLS[b->sw]);
		break;
	}
	href = ok ? xmlGetProp(n, (const xmlChar *)"href") : NULL;
	if (href)
		{
			/* without the session id (rows 0, 1, 2, 8): page URLs are
			 * built from it */
			char *u = b->url[b->n++], *sess;

			snprintf(u, sizeof(b->url[0]), "%s", (const char *)href);
			sess = strstr(u, "&sid=");
			if (!sess)
				sess = strstr(u, "&s=");
			if (!sess)
				sess = strstr(u, "&PHPSESSID=");
			if (!sess)
				sess = strstr(u, "?sid=");
			if (sess)
				*sess = '\0';
		}
	xmlFree(href);
}

static void
test_pages(void)
{
	struct fr_tk_forums *w = world(11, NF);
	int64_t now = (int64_t)START + 5 * 86400 + 7 * 3600 + 13 * 60 + 20;
	struct truth tr;
	char *s;
	struct tthread *th;
	size_t n_th;
	unsigned long thread_pages = 0, index_pages = 0, multi = 0;

	if (!w)
		return;
	s = truth_at(w, (double)now, &tr);
	th = threads_of(&tr, &n_th);
	for (uint32_t k = 0; k < NF; k++) {
		struct fr_tk_forum_profile p;
		struct page entry;
		struct boards bl;
		htmlDocPtr doc;
		size_t listed = 0, in_truth = 0, sampled = 0;
		char url[300];

		fr_tk_forums_profile(k, &p);
		fr_tk_forums_entry_url(k, url, sizeof(url));
		fetch(w, k, strchr(url + 7, '/'), (double)now, &entry);
		CHECK(entry.status == 200);
		memset(&bl, 0, sizeof(bl));
		bl.sw = p.sw;
		doc = entry.status == 200 ? parse_html(&entry, "entry") : NULL;
		if (doc) {
			walk(xmlDocGetRootElement(doc), collect_boards, &bl);
			xmlFreeDoc(doc);
		}
		free(entry.body);
		CHECK(bl.n >= 3);
		for (size_t i = 0; i < n_th; i++)
			in_truth += th[i].k == k;
		/* Every board, every index page: each thread once, sorted but for
		 * the stickies at the top of page 1, dates right. */
		for (int b = 0; b < bl.n; b++) {
			int64_t prev = INT64_MAX;
			int bad_dates = 0;

			for (unsigned pg = 1;; pg++) {
				struct page page;
				struct rows r;
				char purl[320];
				int nonsticky = 0;

				page_url(p.sw, 0, bl.url[b], pg, p.threads_pp, purl, sizeof(purl));
				fetch(w, k, purl, (double)now, &page);
				if (page.status != 200) {
					CHECK(pg > 1 && page.status == 404);
					free(page.body);
					break;
				}
				index_pages++;
				doc = parse_html(&page, purl);
				memset(&r, 0, sizeof(r));
				r.sw = p.sw;
				if (doc)
					walk(xmlDocGetRootElement(doc), collect_rows, &r);
				for (int i = 0; i < r.n; i++) {
					xmlChar *href =
					    xmlGetProp(r.links[i], (const xmlChar *)"href");
					const struct tthread *t =
					    href ? thread_by_path(th, n_th, k, (const char *)href)
					         : NULL;
					xmlNodePtr row = row_of(r.links[i]), dc, dl;
					int64_t key;

					xmlFree(href);
					CHECK(t != NULL);
					if (!t)
						continue;
					listed++;
					if (t->sticky) {
						/* Stickies: only on page 1, before the rest. */
						CHECK(pg == 1 && nonsticky == 0);
					} else {
						nonsticky++;
						key = p.isort == FR_TK_FORUM_CRD ? t->created
						                                 : t->last;
						CHECK(key <= prev);
						prev = key;
					}
					dc = find_class(row, "date-created");
					dl = find_class(row, "date-last");
					CHECK((dc != NULL) ==
					      (p.idates != FR_TK_FORUM_IDATES_LAST));
					CHECK((dl != NULL) ==
					      (p.idates != FR_TK_FORUM_IDATES_CREATED));
					if (dc && check_date(&p, dc, t->created, now) < 0)
						bad_dates++;
					if (dl && check_date(&p, dl, t->last, now) < 0)
						bad_dates++;
				}
				CHECK(nonsticky <= (int)p.threads_pp);
				if (doc) {
					xmlNodePtr dn =
					    find_class(xmlDocGetRootElement(doc), "date-now");

					/* To the minute, or the second in SMF's style. */
					if (dn)
						CHECK(check_date(&p, dn,
						                 p.dstyle == FR_TK_FORUM_DS_EN_LONG
						                     ? now
						                     : now / 60 * 60,
						                 now) == 0);
					xmlFreeDoc(doc);
				}
				free(page.body);
				if (nonsticky < (int)p.threads_pp) {
					/* The last page: the next one is 404. */
					page_url(p.sw, 0, bl.url[b], pg + 1, p.threads_pp, purl,
					         sizeof(purl));
					fetch(w, k, purl, (double)now, &page);
					CHECK(page.status == 404);
					free(page.body);
					break;
				}
			}
			CHECK(bad_dates == 0);
		}
		CHECK(listed == in_truth);
		if (listed != in_truth)
			fprintf(stderr, "  forum%u: %zu threads listed, %zu in the truth\n",
			        (unsigned)k, listed, in_truth);
		/* Threads: every one with several pages (up to 25), and some of
		 * one page. */
		for (size_t i = 0; i < n_th; i++) {
			int many;

			if (th[i].k != k)
				continue;
			many = th[i].n > p.posts_pp;
			if (!(many && multi < 25u * (k + 1)) && !(i % 11 == 0 && sampled < 15))
				continue;
			multi += many;
			sampled += !many;
			thread_pages += check_thread(w, &p, k, &th[i], now);
		}
	}
	fprintf(stderr, "  %lu index pages, %lu thread pages (%lu threads of several pages)\n",
	        index_pages, thread_pages, multi);
	CHECK(multi >= 50);
	threads_free(th, n_th);
	free(s);
	free(tr.p);
	fr_tk_forums_free(w);
}

/* ---- other pages, robots.txt, errors ---- */

static void
test_other_pages(void)
{
	struct fr_tk_forums *w = world(2, NF);
	double t = START + 86400;
	struct page pg;
	struct truth tr;
	char *s;

	if (!w)
		return;
	fetch(w, 0, "/robots.txt", t, &pg);
	CHECK(pg.status == 200 && pg.body &&
	      !strcmp(pg.body, "User-agent: *\nDisallow: /login\nDisallow: /search\n"));
	free(pg.body);
	fetch(w, 0, "/login.php", t, &pg);
	CHECK(pg.status == 200 && strstr(pg.body, "type=\"password\""));
	free(pg.body);
	fetch(w, 3, "/search/", t, &pg);
	CHECK(pg.status == 200);
	free(pg.body);
	fetch(w, 0, "/faq.php", t, &pg);
	CHECK(pg.status == 200 && strstr(pg.body, "How do I register?"));
	free(pg.body);
	/* Profiles: linked from pages, 200 for members, 404 for a user id no
	 * one has yet. */
	fetch(w, 0, "/viewforum.php?f=3", t, &pg);
	CHECK(pg.status == 200 &&
	      strstr(pg.body, "href=\"/memberlist.php?mode=viewprofile&amp;u="));
	{
		const char *u =
		    pg.body ? strstr(pg.body, "/memberlist.php?mode=viewprofile&amp;u=") : NULL;
		char url[128];
		struct page prof;
		unsigned uid = 0;

		if (u && sscanf(u, "/memberlist.php?mode=viewprofile&amp;u=%u", &uid) == 1) {
			snprintf(url, sizeof(url), "/memberlist.php?mode=viewprofile&u=%u", uid);
			fetch(w, 0, url, t, &prof);
			CHECK(prof.status == 200 && strstr(prof.body, "class=\"date-joined\""));
			free(prof.body);
		}
		CHECK(uid > 0);
	}
	free(pg.body);
	fetch(w, 0, "/memberlist.php?mode=viewprofile&u=999999", t, &pg);
	CHECK(pg.status == 404);
	free(pg.body);
	/* Bad pages and hosts. */
	fetch(w, 0, "/viewforum.php?f=3&start=7", t, &pg); /* no page starts there */
	CHECK(pg.status == 404);
	free(pg.body);
	fetch(w, 0, "/viewforum.php?f=999", t, &pg);
	CHECK(pg.status == 404);
	free(pg.body);
	fetch(w, 2, "/index.php?board=3.13", t, &pg);
	CHECK(pg.status == 404);
	free(pg.body);
	fetch(w, 0, "/nothing-here", t, &pg);
	CHECK(pg.status == 404);
	free(pg.body);
	{
		struct fr_serve_req req;
		struct fr_serve_resp resp;
		const char *hosts[] = {"forum14.test", "forum01.test", "forum1.test.evil", "",
		                       "x.test"};

		for (size_t i = 0; i < sizeof(hosts) / sizeof(hosts[0]); i++) {
			memset(&req, 0, sizeof(req));
			memset(&resp, 0, sizeof(resp));
			req.path = "/";
			req.query = "";
			req.host_name = hosts[i];
			req.wall_s = t;
			CHECK(fr_tk_forums_handle(w, &req, &resp) == 0 && resp.status == 404);
		}
	}
	/* A thread that does not exist yet is 404, and 200 once it does; a
	 * XenForo thread under a wrong slug is 404. */
	s = truth_at(w, t + 86400, &tr);
	for (size_t i = 0; i < tr.n; i++) {
		if (tr.p[i].k == 3 && tr.p[i].no == 0 && tr.p[i].t > (int64_t)t + 3600) {
			char url[300];

			fetch(w, 3, tr.p[i].path, t, &pg);
			CHECK(pg.status == 404);
			free(pg.body);
			fetch(w, 3, tr.p[i].path, t + 86400, &pg);
			CHECK(pg.status == 200);
			free(pg.body);
			snprintf(url, sizeof(url), "/threads/wrong-slug.%u/",
			         (unsigned)tr.p[i].tid);
			fetch(w, 3, url, t + 86400, &pg);
			CHECK(pg.status == 404);
			free(pg.body);
			break;
		}
	}
	free(s);
	free(tr.p);
	/* Entry list. */
	{
		FILE *f = tmpfile();
		char err[256], line[256];
		int n = 0;

		CHECK(f && fr_tk_forums_write_list(w, f, "list", err, sizeof(err)) == 0);
		rewind(f);
		while (f && fgets(line, sizeof(line), f)) {
			if (n == 4)
				CHECK_STR(line, "http://forum4.test/forum.php\n");
			if (n == 5)
				CHECK_STR(line, "http://forum5.test/forum/\n");
			if (n == 13)
				CHECK_STR(line, "http://forum13.test/\n");
			n++;
		}
		CHECK(n == (int)NF);
		if (f)
			fclose(f);
	}
	fr_tk_forums_free(w);
}

int
main(void)
{
	RUN(test_date_parser_sees_formats);
	RUN(test_table_covers_styles);
	RUN(test_deterministic);
	RUN(test_posts_appear);
	RUN(test_pages);
	RUN(test_other_pages);
	xmlCleanupParser();
	return TEST_DONE();
}
