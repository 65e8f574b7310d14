/* furl.c - pagination by specific numbers (see furl.h). */
#include "forum/furl.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_CHUNK 24
#define MAX_DIGITS 18

static int
isdig(char c)
{
	return c >= '0' && c <= '9';
}

static int
isalnum_(char c)
{
	return isalnum((unsigned char)c) != 0;
}

/* The value of the digit run at s (len bytes), or -1 when too long. */
static int64_t
run_value(const char *s, size_t len)
{
	int64_t v = 0;

	if (len == 0 || len > MAX_DIGITS)
		return -1;
	for (size_t i = 0; i < len; i++)
		v = v * 10 + (s[i] - '0');
	return v;
}

static size_t
digit_run(const char *s)
{
	size_t n = 0;

	while (isdig(s[n]))
		n++;
	return n;
}

/* Digit runs in s from byte off on. */
static int
runs_after(const char *s, size_t off)
{
	int n = 0;

	for (size_t i = off; s[i];) {
		if (isdig(s[i])) {
			n++;
			i += digit_run(s + i);
		} else {
			i++;
		}
	}
	return n;
}

int
fr_furl_diff1(const char *a, const char *b, struct fr_furl_num *n)
{
	size_t i = 0, j = 0;
	int differed = 0;
	struct fr_furl_num r = {0};

	while (a[i] || b[j]) {
		if (isdig(a[i]) && isdig(b[j])) {
			size_t la = digit_run(a + i), lb = digit_run(b + j);
			if (la != lb || memcmp(a + i, b + j, la) != 0) {
				int64_t va = run_value(a + i, la), vb = run_value(b + j, lb);
				if (differed || va < 0 || vb < 0)
					return 0;
				/* "007" and "7" are one number written twice: not a
				 * page of a list. */
				if (va == vb)
					return 0;
				differed = 1;
				r.a = va;
				r.b = vb;
				r.off = i;
				r.len = la;
			}
			i += la;
			j += lb;
			continue;
		}
		if (a[i] != b[j] || isdig(a[i]) || isdig(b[j]))
			return 0;
		i++;
		j++;
	}
	if (!differed)
		return 0;
	r.from_right = runs_after(a, r.off + r.len);
	if (n)
		*n = r;
	return 1;
}

int
fr_furl_first_form(const char *first, const char *paged, int64_t *num, size_t *off, size_t *len)
{
	size_t lf = strlen(first), lp = strlen(paged);

	if (lp <= lf || lp - lf > MAX_CHUNK)
		return 0;
	size_t d = lp - lf, cp = 0, cs = 0;
	while (cp < lf && first[cp] == paged[cp])
		cp++;
	while (cs < lf && first[lf - 1 - cs] == paged[lp - 1 - cs])
		cs++;
	if (cp + cs < lf)
		return 0;
	/* The chunk sits at k in paged, for k from lf - cs up to cp; the
	 * latest split is tried first ("...&page=2" appended). */
	size_t kmin = lf - cs;
	for (size_t k = cp + 1; k-- > kmin;) {
		const char *c = paged + k;
		size_t runs = 0, roff = 0, rlen = 0;
		for (size_t i = 0; i < d;) {
			if (isdig(c[i])) {
				size_t r = digit_run(c + i);
				if (i + r > d) { /* the run goes on past the chunk */
					runs = 0;
					break;
				}
				runs++;
				roff = i;
				rlen = r;
				i += r;
			} else {
				i++;
			}
		}
		if (runs != 1)
			continue;
		/* The run is whole: no digit just before the chunk when the run
		 * starts it. */
		if (roff == 0 && k > 0 && isdig(paged[k - 1]))
			continue;
		/* The chunk is a unit: it starts or is preceded by a separator,
		 * and ends with one or at one. */
		int start_ok = !isalnum_(c[0]) || k == 0 || !isalnum_(paged[k - 1]);
		int end_ok = !isalnum_(c[d - 1]) || !isalnum_(paged[k + d]);
		if (!start_ok || !end_ok)
			continue;
		int64_t v = run_value(c + roff, rlen);
		if (v < 0)
			continue;
		if (num)
			*num = v;
		if (off)
			*off = k + roff;
		if (len)
			*len = rlen;
		return 1;
	}
	return 0;
}

/* The first form with a chunk of whole query parameters holding more than
 * one number ("&topicdays=0&start=20" appended): each number that is a
 * whole parameter value, as a candidate (the list then shows which one
 * steps). Returns how many were written to num/off/len (at most max). */
#define MAX_CHUNK_PARAMS 64
static size_t
first_form_params(const char *first, const char *paged, int64_t *num, size_t *off, size_t *len,
                  size_t max)
{
	size_t lf = strlen(first), lp = strlen(paged), d, cp = 0, cs = 0, n = 0;

	if (lp <= lf || lp - lf > MAX_CHUNK_PARAMS)
		return 0;
	d = lp - lf;
	while (cp < lf && first[cp] == paged[cp])
		cp++;
	while (cs < lf && first[lf - 1 - cs] == paged[lp - 1 - cs])
		cs++;
	if (cp + cs < lf || !strchr(first, '?'))
		return 0;
	for (size_t k = cp + 1; k-- > lf - cs;) {
		const char *c = paged + k;
		int ok = (c[0] == '&' || c[0] == ';') && (k + d == lp || paged[k + d] == '&' ||
		                                          paged[k + d] == ';');

		if (!ok || !memchr(paged, '?', k))
			continue;
		n = 0;
		for (size_t i = 0; i < d && ok;) {
			if (isdig(c[i])) {
				size_t r = digit_run(c + i);
				int whole = i > 0 && c[i - 1] == '=' &&
				            (i + r == d || c[i + r] == '&' || c[i + r] == ';');
				int64_t v = run_value(c + i, r);

				if (!whole || v < 0) {
					ok = 0;
					break;
				}
				if (n < max) {
					num[n] = v;
					off[n] = k + i;
					len[n] = r;
					n++;
				}
				i += r;
			} else {
				i++;
			}
		}
		if (ok && n >= 2)
			return n;
	}
	return 0;
}

/* Names of query parameters that select (a member, an icon, a sort, an
 * age, a board or thread) rather than page: links that vary one of them are
 * filters beside the pager, never its pages. */
static int
filter_param(const char *tmpl)
{
	static const char *const names[] = {
	    "userid",    "user",     "u",        "uid",      "memberid", "posticon",  "iconid",
	    "icon",      "prefixid", "prefix",   "sort",     "sortfield", "sortorder", "order",
	    "orderby",   "daysprune", "days",    "topicdays", "postdays", "sk",        "sd",
	    "forumid",   "f",        "t",        "threadid", "topicid",  "topic",     "forum",
	    "postid",    "pid",      "highlight", "hilit",   "mode",     "view",      "print",
	    "printerfriendly", "goto", "e",      "id"};
	const char *m = strchr(tmpl, '\x01'), *e, *b;
	size_t n;

	if (!m || m == tmpl || m[-1] != '=')
		return 0;
	e = m - 1;
	b = e;
	while (b > tmpl && b[-1] != '?' && b[-1] != '&' && b[-1] != ';')
		b--;
	if (b == tmpl)
		return 0;
	n = (size_t)(e - b);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strlen(names[i]) == n && strncasecmp(b, names[i], n) == 0)
			return 1;
	return 0;
}

/* ---- pagers ------------------------------------------------------------- */

struct cand {
	char *tmpl;       /* the list's URL with the number as "\x01" */
	int from_right;
	int first_form;   /* related through a page without the number */
	char *first_url;  /* that page (borrowed from the input or url) */
	int64_t cur_num;  /* the current page's number, INT64_MIN: it is the first form */
	struct fr_furl_page *pages; /* explicit numbers, unsorted, with repeats */
	size_t n, cap;
};

static char *
cut(const char *url, size_t off, size_t len)
{
	size_t l = strlen(url);
	char *t = malloc(l - len + 2);

	if (!t)
		return NULL;
	memcpy(t, url, off);
	t[off] = '\x01';
	memcpy(t + off + 1, url + off + len, l - off - len + 1);
	return t;
}

static int
cand_add_page(struct cand *c, const char *url, int64_t num)
{
	for (size_t i = 0; i < c->n; i++)
		if (c->pages[i].num == num)
			return 0;
	if (c->n == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 8;
		struct fr_furl_page *p = realloc(c->pages, cap * sizeof(*p));
		if (!p)
			return -1;
		c->pages = p;
		c->cap = cap;
	}
	c->pages[c->n].url = (char *)url; /* borrowed until copied out */
	c->pages[c->n].num = num;
	c->n++;
	return 0;
}

static void
cands_free(struct cand *cs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(cs[i].tmpl);
		free(cs[i].pages);
	}
	free(cs);
}

/* Finds or adds the candidate with template t (taking ownership of t). */
static struct cand *
cand_get(struct cand **cs, size_t *n, size_t *cap, char *t, int from_right)
{
	for (size_t i = 0; i < *n; i++)
		if (strcmp((*cs)[i].tmpl, t) == 0) {
			free(t);
			return &(*cs)[i];
		}
	if (*n == *cap) {
		size_t nc = *cap ? *cap * 2 : 8;
		struct cand *p = realloc(*cs, nc * sizeof(*p));
		if (!p) {
			free(t);
			return NULL;
		}
		*cs = p;
		*cap = nc;
	}
	struct cand *c = &(*cs)[(*n)++];
	memset(c, 0, sizeof(*c));
	c->tmpl = t;
	c->from_right = from_right;
	c->cur_num = INT64_MIN;
	return c;
}

static int64_t
gcd64(int64_t a, int64_t b)
{
	while (b) {
		int64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

static int
page_cmp(const void *a, const void *b)
{
	int64_t x = ((const struct fr_furl_page *)a)->num, y = ((const struct fr_furl_page *)b)->num;
	return (x > y) - (x < y);
}

void
fr_furl_pager_free(struct fr_furl_pager *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->n; i++)
		free(p->pages[i].url);
	free(p->pages);
	free(p->tmpl);
	free(p->made);
	memset(p, 0, sizeof(*p));
}

/* Better candidate: more pages, then a first form, then the preferred
 * position, then the rightmost. */
static int
better(const struct cand *a, const struct cand *b, int pref)
{
	size_t na = a->n + (a->first_url != NULL), nb = b->n + (b->first_url != NULL);

	if (na != nb)
		return na > nb;
	if (a->first_form != b->first_form)
		return a->first_form > b->first_form;
	if (pref >= 0 && (a->from_right == pref) != (b->from_right == pref))
		return a->from_right == pref;
	return a->from_right < b->from_right;
}

int
fr_furl_pager_find(const char *url, const char *const *urls, size_t n, int pref_from_right,
                   struct fr_furl_pager *out)
{
	struct cand *cs = NULL;
	size_t ncs = 0, capcs = 0;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < n; i++) {
		const char *v = urls[i];
		struct fr_furl_num d;
		int64_t num;
		size_t off, len;
		struct cand *c;

		if (!v || strcmp(v, url) == 0)
			continue;
		if (fr_furl_diff1(url, v, &d)) {
			char *t = cut(url, d.off, d.len);
			if (!t || !(c = cand_get(&cs, &ncs, &capcs, t, d.from_right)))
				goto oom;
			c->cur_num = d.a;
			if (cand_add_page(c, v, d.b) < 0)
				goto oom;
		} else if (fr_furl_first_form(v, url, &num, &off, &len)) {
			char *t = cut(url, off, len);
			if (!t || !(c = cand_get(&cs, &ncs, &capcs, t, runs_after(url, off + len))))
				goto oom;
			c->first_form = 1;
			c->first_url = (char *)v;
			c->cur_num = num;
		} else if (fr_furl_first_form(url, v, &num, &off, &len)) {
			char *t = cut(v, off, len);
			if (!t || !(c = cand_get(&cs, &ncs, &capcs, t, runs_after(v, off + len))))
				goto oom;
			c->first_form = 1;
			c->first_url = (char *)url;
			if (cand_add_page(c, v, num) < 0)
				goto oom;
		} else {
			int64_t nums[4];
			size_t offs[4], lens[4], k;
			/* v paged with several numbers: one candidate per number */
			k = first_form_params(url, v, nums, offs, lens, 4);
			for (size_t j = 0; j < k; j++) {
				char *t = cut(v, offs[j], lens[j]);
				if (!t || !(c = cand_get(&cs, &ncs, &capcs, t, runs_after(v, offs[j] + lens[j]))))
					goto oom;
				c->first_form = 1;
				c->first_url = (char *)url;
				if (cand_add_page(c, v, nums[j]) < 0)
					goto oom;
			}
			/* url paged with several numbers, v its first page */
			k = k ? 0 : first_form_params(v, url, nums, offs, lens, 4);
			for (size_t j = 0; j < k; j++) {
				char *t = cut(url, offs[j], lens[j]);
				if (!t || !(c = cand_get(&cs, &ncs, &capcs, t, runs_after(url, offs[j] + lens[j]))))
					goto oom;
				c->first_form = 1;
				c->first_url = (char *)v;
				c->cur_num = nums[j];
			}
		}
	}
	/* filters beside the pager are no pagers */
	for (size_t i = 0; i < ncs;)
		if (filter_param(cs[i].tmpl)) {
			free(cs[i].tmpl);
			free(cs[i].pages);
			cs[i] = cs[--ncs];
		} else {
			i++;
		}
	if (ncs == 0) {
		free(cs);
		return 0;
	}
	struct cand *best = &cs[0];
	for (size_t i = 1; i < ncs; i++)
		if (better(&cs[i], best, pref_from_right))
			best = &cs[i];

	/* The current page is in the list too. */
	int cur_is_first = best->first_url == url;
	if (!cur_is_first && cand_add_page(best, url, best->cur_num) < 0)
		goto oom;
	size_t total = best->n + (best->first_url != NULL);
	out->pages = calloc(total, sizeof(*out->pages));
	if (!out->pages)
		goto oom;
	qsort(best->pages, best->n, sizeof(*best->pages), page_cmp);
	size_t k = 0;
	if (best->first_url) {
		out->pages[k].num = INT64_MIN;
		if (!(out->pages[k].url = strdup(best->first_url)))
			goto oom_out;
		k++;
	}
	int64_t g = 0, prev = 0;
	int have_prev = 0;
	for (size_t i = 0; i < best->n; i++, k++) {
		out->pages[k].num = best->pages[i].num;
		if (!(out->pages[k].url = strdup(best->pages[i].url)))
			goto oom_out;
		if (have_prev)
			g = gcd64(g, best->pages[i].num - prev);
		prev = best->pages[i].num;
		have_prev = 1;
	}
	out->n = k;
	out->cur = 0;
	for (size_t i = 0; i < out->n; i++)
		if (strcmp(out->pages[i].url, url) == 0)
			out->cur = i;
	out->step = g;
	out->from_right = best->from_right;
	out->tmpl = best->tmpl;
	best->tmpl = NULL;
	cands_free(cs, ncs);
	return 1;
oom_out:
	out->n = k + 1;
	fr_furl_pager_free(out);
oom:
	cands_free(cs, ncs);
	return -1;
}

const char *
fr_furl_pager_first(const struct fr_furl_pager *p)
{
	return p->n ? p->pages[0].url : NULL;
}

const char *
fr_furl_pager_last(const struct fr_furl_pager *p)
{
	return p->n ? p->pages[p->n - 1].url : NULL;
}

/* The step of the list: its gcd, or from a single number (2: pages; more:
 * an offset, the page size). */
static int64_t
step_of(const struct fr_furl_pager *p)
{
	if (p->step > 0)
		return p->step;
	for (size_t i = 0; i < p->n; i++)
		if (p->pages[i].num != INT64_MIN && p->pages[i].num > 0)
			return p->pages[i].num == 2 ? 1 : p->pages[i].num;
	return 1;
}

/* The number of the first page when it is written without one. */
static int64_t
first_num(const struct fr_furl_pager *p)
{
	return step_of(p) == 1 ? 1 : 0;
}

static int64_t
num_at(const struct fr_furl_pager *p, size_t i)
{
	return p->pages[i].num == INT64_MIN ? first_num(p) : p->pages[i].num;
}

static const char *
make(struct fr_furl_pager *p, int64_t num)
{
	char digits[24];
	int dl = 0;

	if (!p->tmpl || num < 0)
		return NULL;
	{
		int64_t v = num;
		char rev[24];
		do {
			rev[dl++] = (char)('0' + v % 10);
			v /= 10;
		} while (v && dl < 20);
		for (int i = 0; i < dl; i++)
			digits[i] = rev[dl - 1 - i];
	}
	const char *m = strchr(p->tmpl, '\x01');
	if (!m)
		return NULL;
	size_t pre = (size_t)(m - p->tmpl), post = strlen(m + 1);
	char *u = malloc(pre + (size_t)dl + post + 1);
	if (!u)
		return NULL;
	memcpy(u, p->tmpl, pre);
	memcpy(u + pre, digits, (size_t)dl);
	memcpy(u + pre + dl, m + 1, post + 1);
	free(p->made);
	p->made = u;
	return u;
}

char *
fr_furl_pager_url(const struct fr_furl_pager *p, int64_t k)
{
	if (k < 1 || !p->n)
		return NULL;
	if (k == 1 && p->pages[0].num == INT64_MIN)
		return strdup(p->pages[0].url);
	int64_t step = step_of(p), num = step == 1 ? k : (k - 1) * step;
	struct fr_furl_pager tmp = *p;
	tmp.made = NULL;
	const char *u = make(&tmp, num);
	return (char *)u; /* make() handed its malloc'd URL to tmp.made */
}

int64_t
fr_furl_pager_k(const struct fr_furl_pager *p, size_t i)
{
	if (i >= p->n)
		return 0;
	int64_t step = step_of(p), num = num_at(p, i);
	int64_t k = step == 1 ? num : num / step + 1;
	return k >= 1 ? k : 1;
}

const char *
fr_furl_pager_next(struct fr_furl_pager *p)
{
	if (!p->n || p->cur + 1 >= p->n)
		return NULL;
	int64_t want = num_at(p, p->cur) + step_of(p);
	if (num_at(p, p->cur + 1) <= want)
		return p->pages[p->cur + 1].url;
	return make(p, want);
}

const char *
fr_furl_pager_prev(struct fr_furl_pager *p)
{
	if (!p->n || p->cur == 0)
		return NULL;
	int64_t want = num_at(p, p->cur) - step_of(p);
	if (num_at(p, p->cur - 1) >= want)
		return p->pages[p->cur - 1].url;
	if (want <= first_num(p) && p->pages[0].num == INT64_MIN)
		return p->pages[0].url;
	return make(p, want);
}

const char *
fr_furl_last_activity(const char *thread_url, const char *const *urls, size_t n)
{
	const char *best = NULL;
	int64_t best_num = INT64_MIN;

	for (size_t i = 0; i < n; i++) {
		struct fr_furl_num d;
		int64_t num;

		if (!urls[i])
			continue;
		if (fr_furl_diff1(thread_url, urls[i], &d)) {
			/* Only a later page: a smaller number is another thread
			 * or the first page. */
			if (d.b > d.a && d.b > best_num) {
				best = urls[i];
				best_num = d.b;
			}
		} else if (fr_furl_first_form(thread_url, urls[i], &num, NULL, NULL)) {
			if (num > best_num) {
				best = urls[i];
				best_num = num;
			}
		}
	}
	return best;
}

char *
fr_furl_shape(const char *url)
{
	const char *s = strstr(url, "://");
	s = s ? strchr(s + 3, '/') : url;
	if (!s)
		s = "/";
	size_t l = strlen(s);
	char *out = malloc(l + 1);
	if (!out)
		return NULL;
	size_t o = 0;
	for (size_t i = 0; i < l;) {
		if (isdig(s[i])) {
			out[o++] = '#';
			i += digit_run(s + i);
			continue;
		}
		if (isalpha((unsigned char)s[i])) {
			/* A slug: letter words joined by '-' or '_', two or more. */
			size_t j = i, words = 0;
			for (;;) {
				size_t w = j;
				while (isalnum_(s[w]))
					w++;
				if (w == j)
					break;
				words++;
				j = w;
				if ((s[j] == '-' || s[j] == '_') && isalpha((unsigned char)s[j + 1]))
					j++;
				else
					break;
			}
			if (words >= 2) {
				out[o++] = '*';
				i = j;
				continue;
			}
			while (isalpha((unsigned char)s[i]))
				out[o++] = s[i++];
			continue;
		}
		out[o++] = s[i++];
	}
	out[o] = 0;
	return out;
}

/* ---- session ids ------------------------------------------------------- */

/* A value that looks drawn at random: 16 to 128 letters, digits, '-' or
 * '_', with both letters and digits. */
static int
random_value(const char *v, size_t n)
{
	int d = 0, a = 0;

	if (n < 16 || n > 128)
		return 0;
	for (size_t i = 0; i < n; i++) {
		if (isdig(v[i]))
			d = 1;
		else if (isalpha((unsigned char)v[i]))
			a = 1;
		else if (v[i] != '-' && v[i] != '_')
			return 0;
	}
	return d && a;
}

static int
name_is(const char *name, size_t n, const char *w)
{
	return strlen(w) == n && strncasecmp(name, w, n) == 0;
}

/* Whether name=value is a session id by its name alone. */
static int
known_session(const char *name, size_t nl, const char *val, size_t vl)
{
	static const char *const names[] = {"phpsessid", "jsessionid", "sid",   "sessionid",
	                                    "session_id", "aspsessionid", "cfid", "cftoken",
	                                    "zenid",     "oscsid",       "sess_id"};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (name_is(name, nl, names[i]))
			return 1;
	/* vBulletin's s=<32 hex> (often empty); a search's ?s=words is kept */
	if (name_is(name, nl, "s") && (vl == 0 || random_value(val, vl)))
		return 1;
	return 0;
}

/* Whether name is in the comma-separated list (case-insensitive). */
static int
in_list(const char *list, const char *name, size_t nl)
{
	while (list && *list) {
		size_t k = strcspn(list, ",");

		if (k == nl && strncasecmp(list, name, nl) == 0)
			return 1;
		list += k + (list[k] == ',');
	}
	return 0;
}

/* Calls fn for each query parameter of url: its span (from the separator
 * before it), name and value. */
struct qparam {
	size_t at, end;        /* span in url, separator included */
	size_t name, name_len; /* offsets in url */
	size_t val, val_len;
};

static size_t
query_params(const char *url, struct qparam *ps, size_t max)
{
	const char *q = strchr(url, '?');
	size_t n = 0, i;

	if (!q)
		return 0;
	i = (size_t)(q - url);
	while (url[i] && n < max) {
		size_t s = i + 1, e = s, eq;

		while (url[e] && url[e] != '&' && url[e] != ';')
			e++;
		eq = s;
		while (eq < e && url[eq] != '=')
			eq++;
		ps[n].at = i;
		ps[n].end = e;
		ps[n].name = s;
		ps[n].name_len = eq - s;
		ps[n].val = eq < e ? eq + 1 : e;
		ps[n].val_len = eq < e ? e - eq - 1 : 0;
		n++;
		i = e;
	}
	return n;
}

#define MAX_PARAMS 64

/* url without the parameters marked in drop (and without ";jsessionid=..."
 * in its path when strip_path). malloc'd or NULL. */
static char *
without(const char *url, const struct qparam *ps, size_t np, const unsigned char *drop)
{
	size_t l = strlen(url), o = 0, i = 0, qstart = np ? ps[0].at : l;
	char *u = malloc(l + 1);
	int first = 1;

	if (!u)
		return NULL;
	/* the path, without ";jsessionid=..." segments */
	while (i < qstart) {
		if (url[i] == ';' && strncasecmp(url + i + 1, "jsessionid=", 11) == 0) {
			i++;
			while (i < qstart && url[i] != '/' && url[i] != ';')
				i++;
			continue;
		}
		u[o++] = url[i++];
	}
	for (size_t k = 0; k < np; k++) {
		if (drop[k] || ps[k].end == ps[k].at + 1)
			continue; /* dropped, or an empty "&&" */
		u[o++] = first ? '?' : url[ps[k].at];
		memcpy(u + o, url + ps[k].at + 1, ps[k].end - ps[k].at - 1);
		o += ps[k].end - ps[k].at - 1;
		first = 0;
	}
	/* a '?' that had nothing after it stays as it was only if kept */
	if (np == 0 && qstart < l) {
		memcpy(u + o, url + qstart, l - qstart);
		o += l - qstart;
	}
	u[o] = '\0';
	return u;
}

static int
has_jsession(const char *u)
{
	for (; *u && *u != '?'; u++)
		if (*u == ';' && strncasecmp(u + 1, "jsessionid=", 11) == 0)
			return 1;
	return 0;
}

int
fr_furl_strip_sessions(char **urls, size_t n, const char *names)
{
	/* the long random values shared by several of the URLs */
	struct seen {
		const char *url;
		size_t name, name_len, val, val_len;
		size_t count;
	} *sv = NULL;
	size_t nsv = 0, capsv = 0;
	int changed = 0;

	for (size_t i = 0; i < n; i++) {
		struct qparam ps[MAX_PARAMS];
		size_t np;

		if (!urls[i])
			continue;
		np = query_params(urls[i], ps, MAX_PARAMS);
		for (size_t k = 0; k < np; k++) {
			const char *v = urls[i] + ps[k].val;
			size_t j;

			if (!random_value(v, ps[k].val_len))
				continue;
			for (j = 0; j < nsv; j++)
				if (sv[j].val_len == ps[k].val_len && sv[j].name_len == ps[k].name_len &&
				    !memcmp(sv[j].url + sv[j].val, v, ps[k].val_len) &&
				    !memcmp(sv[j].url + sv[j].name, urls[i] + ps[k].name, ps[k].name_len))
					break;
			if (j == nsv) {
				if (nsv == capsv) {
					size_t nc = capsv ? capsv * 2 : 16;
					struct seen *p = realloc(sv, nc * sizeof(*p));

					if (!p) {
						free(sv);
						return -1;
					}
					sv = p;
					capsv = nc;
				}
				sv[nsv].url = urls[i];
				sv[nsv].name = ps[k].name;
				sv[nsv].name_len = ps[k].name_len;
				sv[nsv].val = ps[k].val;
				sv[nsv].val_len = ps[k].val_len;
				sv[nsv].count = 0;
				nsv++;
			}
			if (sv[j].url != urls[i] || sv[j].count == 0)
				sv[j].count++;
		}
	}
	char **out = calloc(n ? n : 1, sizeof(*out));
	if (!out) {
		free(sv);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		struct qparam ps[MAX_PARAMS];
		unsigned char drop[MAX_PARAMS];
		size_t np;
		int any = 0;

		if (!urls[i])
			continue;
		np = query_params(urls[i], ps, MAX_PARAMS);
		for (size_t k = 0; k < np; k++) {
			const char *nm = urls[i] + ps[k].name, *v = urls[i] + ps[k].val;

			drop[k] = (unsigned char)(known_session(nm, ps[k].name_len, v, ps[k].val_len) ||
			                          in_list(names, nm, ps[k].name_len));
			if (!drop[k] && random_value(v, ps[k].val_len))
				for (size_t j = 0; j < nsv; j++)
					if (sv[j].count >= 3 && sv[j].val_len == ps[k].val_len &&
					    sv[j].name_len == ps[k].name_len &&
					    !memcmp(sv[j].url + sv[j].val, v, ps[k].val_len) &&
					    !memcmp(sv[j].url + sv[j].name, nm, ps[k].name_len))
						drop[k] = 1;
			any |= drop[k];
		}
		if (!any && !has_jsession(urls[i]))
			continue;
		if (!(out[i] = without(urls[i], ps, np, drop))) {
			for (size_t j = 0; j < n; j++)
				free(out[j]);
			free(out);
			free(sv);
			return -1;
		}
	}
	free(sv);
	for (size_t i = 0; i < n; i++)
		if (out[i]) {
			free(urls[i]);
			urls[i] = out[i];
			changed++;
		}
	free(out);
	return changed;
}

int
fr_furl_session_names(const char *a, const char *b, char *names, size_t cap)
{
	struct qparam pa[MAX_PARAMS], pb[MAX_PARAMS];
	size_t na = query_params(a, pa, MAX_PARAMS), nb = query_params(b, pb, MAX_PARAMS);
	size_t o = cap ? strnlen(names, cap - 1) : 0;
	int found = 0;

	if (!cap)
		return 0;
	names[o] = '\0';
	for (size_t i = 0; i < na; i++)
		for (size_t j = 0; j < nb; j++) {
			if (pa[i].name_len != pb[j].name_len ||
			    strncmp(a + pa[i].name, b + pb[j].name, pa[i].name_len) != 0)
				continue;
			if (random_value(a + pa[i].val, pa[i].val_len) &&
			    random_value(b + pb[j].val, pb[j].val_len) &&
			    (pa[i].val_len != pb[j].val_len ||
			     memcmp(a + pa[i].val, b + pb[j].val, pa[i].val_len) != 0) &&
			    !in_list(names, a + pa[i].name, pa[i].name_len) &&
			    o + pa[i].name_len + 2 <= cap) {
				if (o)
					names[o++] = ',';
				memcpy(names + o, a + pa[i].name, pa[i].name_len);
				o += pa[i].name_len;
				names[o] = '\0';
				found++;
			}
			break;
		}
	return found;
}
