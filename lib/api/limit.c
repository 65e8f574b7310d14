/* limit.c - the rate-limit fields of API responses read into one state. Each
 * header is read on its own, so they may come in any order; numbers are
 * read without strtod (no locale, no "inf" or hex). */
#include "api/limit.h"

#include "net/httpdate.h"
#include "parse/date.h"

#include <json-c/json.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* Largest number taken from a header; more is read as this. */
#define NUM_MAX 1e15
/* A reset value at least this large is a Unix time in seconds (2001-09-09),
 * and at least NUM_MS in milliseconds; below, seconds from now. */
#define EPOCH_S 1e9
#define EPOCH_MS 1e12

void
fr_api_limit_init(struct fr_api_limit *l)
{
	memset(l, 0, sizeof(*l));
	l->limit = l->remaining = l->reset_at_s = l->window_s = l->used = -1;
	l->usage_pct = l->hold_until_s = l->learned_s = l->expect_reset_s = -1;
	l->cap_s = FR_API_CAP_S_DEFAULT;
	l->default_wait_s = FR_API_DEFAULT_WAIT_S_DEFAULT;
}

static int
is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* A non-negative decimal number at *p ("600", "598.0", ".5"); advances *p.
 * Returns 0, or -1 when there is none (*p unchanged). */
static int
num(const char **p, double *out)
{
	const char *s = *p;
	double v = 0, scale = 1;
	int digits = 0;

	while (*s >= '0' && *s <= '9') {
		if (v < NUM_MAX)
			v = v * 10 + (*s - '0');
		s++;
		digits++;
	}
	if (*s == '.') {
		s++;
		while (*s >= '0' && *s <= '9') {
			scale /= 10;
			if (scale > 1e-12)
				v += (*s - '0') * scale;
			s++;
			digits++;
		}
	}
	if (!digits)
		return -1;
	*out = v > NUM_MAX ? NUM_MAX : v;
	*p = s;
	return 0;
}

/* A whole value that is one number (blanks around allowed). */
static int
whole_num(const char *s, double *out)
{
	double v;

	while (is_blank(*s))
		s++;
	if (num(&s, &v) != 0)
		return -1;
	while (is_blank(*s))
		s++;
	if (*s)
		return -1;
	*out = v;
	return 0;
}

static double
cap_time(const struct fr_api_limit *l, double t, double now_s)
{
	double cap = l->cap_s > 0 ? l->cap_s : FR_API_CAP_S_DEFAULT;

	return t > now_s + cap ? now_s + cap : t;
}

/* A reset value: seconds from now, a Unix time in seconds or milliseconds
 * (told apart by size), an ISO 8601 time (Mastodon) or an HTTP date. */
static int
reset_value(const struct fr_api_limit *l, const char *v, double now_s, double *out)
{
	double d;
	int64_t t;

	if (whole_num(v, &d) == 0) {
		if (d >= EPOCH_MS)
			d = d / 1000;
		else if (d < EPOCH_S)
			d = now_s + d;
	} else if (fr_date_parse_ex(v, strlen(v), FR_DATE_STRICT, &t) == 0) {
		d = (double)t;
	} else if (fr_http_date_parse(v, &d) != 0) {
		return -1;
	}
	*out = cap_time(l, d, now_s);
	return 0;
}

static int
name_is(const char *name, const char *want)
{
	return !strcasecmp(name, want);
}

/* ---- structured fields (RFC 8941), as far as RateLimit needs ---- */

/* One list member: its item (a string, token or number, as text) and its
 * numeric parameters; or, in the older dictionary form ("limit=10"), a key
 * and a number. */
struct member {
	char item[32];
	int is_num; /* the item is a number (older policy "100;w=60") */
	double num;
	int is_dict;       /* "key=value" */
	double q, w, r, t; /* parameters, -1 absent */
};

/* Reads one member from *p up to ',' (or the end); advances *p past it.
 * Returns 0, or -1 when the member is malformed (skipped). */
static int
member(const char **pp, struct member *m)
{
	const char *p = *pp;
	size_t n = 0;
	int ok = 1;

	memset(m, 0, sizeof(*m));
	m->q = m->w = m->r = m->t = -1;
	while (is_blank(*p))
		p++;
	if (*p == '"') {
		p++;
		while (*p && *p != '"') {
			if (*p == '\\' && p[1])
				p++;
			if (n + 1 < sizeof(m->item))
				m->item[n++] = *p;
			p++;
		}
		if (*p != '"')
			ok = 0;
		else
			p++;
	} else if ((*p >= '0' && *p <= '9') || *p == '.') {
		if (num(&p, &m->num) == 0)
			m->is_num = 1;
		else
			ok = 0;
	} else {
		while (*p && *p != ';' && *p != ',' && *p != '=' && !is_blank(*p)) {
			if (n + 1 < sizeof(m->item))
				m->item[n++] = *p;
			p++;
		}
		if (*p == '=') { /* dictionary member: key=number */
			p++;
			m->is_dict = 1;
			while (is_blank(*p))
				p++;
			if (num(&p, &m->num) != 0)
				ok = 0;
		}
	}
	m->item[n] = '\0';
	while (*p && *p != ',') {
		char key[8];
		size_t k = 0;
		double v;

		while (is_blank(*p))
			p++;
		if (*p != ';') {
			if (*p && *p != ',')
				ok = 0;
			while (*p && *p != ',' && *p != ';')
				p++;
			continue;
		}
		p++;
		while (is_blank(*p))
			p++;
		while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || *p == '_' ||
		       *p == '-') {
			if (k + 1 < sizeof(key))
				key[k++] = (char)(*p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p);
			p++;
		}
		key[k] = '\0';
		if (*p != '=')
			continue; /* a boolean parameter */
		p++;
		if (num(&p, &v) != 0) {
			/* a string or byte-sequence parameter (pk=:..:, qu="requests") */
			if (*p == '"' || *p == ':') {
				char end = *p++;

				while (*p && *p != end)
					p++;
				if (*p)
					p++;
			}
			continue;
		}
		if (!strcmp(key, "q"))
			m->q = v;
		else if (!strcmp(key, "w"))
			m->w = v;
		else if (!strcmp(key, "r"))
			m->r = v;
		else if (!strcmp(key, "t"))
			m->t = v;
	}
	if (*p == ',')
		p++;
	*pp = p;
	return ok ? 0 : -1;
}

/* The quota and window of the policy the last RateLimit field named (or
 * the only one) become the limit and the window. */
static void
apply_policy(struct fr_api_limit *l)
{
	for (unsigned i = 0; i < l->n_pol; i++) {
		if (!strcmp(l->pol[i].name, l->cur_pol) || (l->n_pol == 1 && !l->cur_pol[0])) {
			if (l->pol[i].quota >= 0)
				l->limit = l->pol[i].quota;
			if (l->pol[i].window_s > 0)
				l->window_s = l->pol[i].window_s;
			return;
		}
	}
}

/* RateLimit-Policy: `"default";q=100;w=60, "daily";q=1000;w=86400`, or the
 * older `100;w=60` / `100, 100;w=60, 1000;w=86400` (the first member is the
 * quota in force, the rest policies). */
static int
read_policy(struct fr_api_limit *l, const char *v)
{
	const char *p = v;
	unsigned n = 0;

	while (*p && n < FR_API_MAX_POLICIES) {
		struct member m;

		if (member(&p, &m) != 0)
			continue;
		if (m.is_num) {
			snprintf(l->pol[n].name, sizeof(l->pol[n].name), "%s", "");
			l->pol[n].quota = m.num;
		} else if (m.item[0] && !m.is_dict) {
			memcpy(l->pol[n].name, m.item, sizeof(m.item));
			l->pol[n].quota = m.q;
		} else {
			continue;
		}
		l->pol[n].window_s = m.w > 0 ? m.w : -1;
		n++;
	}
	if (!n)
		return 0;
	l->n_pol = n;
	/* the older form names no policy: its first member is the one in force */
	if (!l->pol[0].name[0]) {
		l->limit = l->pol[0].quota;
		for (unsigned i = 0; i < n; i++)
			if (l->pol[i].window_s > 0 && l->pol[i].quota == l->pol[0].quota) {
				l->window_s = l->pol[i].window_s;
				break;
			}
	} else {
		apply_policy(l);
	}
	return 1;
}

/* RateLimit: `"default";r=50;t=30` (several: the one with the fewest calls
 * left), or the dictionary `limit=100, remaining=50, reset=30`. */
static int
read_ratelimit(struct fr_api_limit *l, const char *v, double now_s)
{
	const char *p = v;
	double best_r = -1, best_t = -1, lim = -1;
	char best[32] = "";
	int used = 0;

	while (*p) {
		struct member m;

		if (member(&p, &m) != 0)
			continue;
		if (m.is_dict) {
			if (!strcasecmp(m.item, "limit"))
				lim = m.num;
			else if (!strcasecmp(m.item, "remaining"))
				best_r = m.num, used = 1;
			else if (!strcasecmp(m.item, "reset"))
				best_t = m.num, used = 1;
			continue;
		}
		if (m.r < 0)
			continue;
		if (best_r < 0 || m.r < best_r || (m.r == best_r && m.t > best_t)) {
			best_r = m.r;
			best_t = m.t;
			memcpy(best, m.item, sizeof(best));
		}
		used = 1;
	}
	if (!used)
		return 0;
	if (lim >= 0)
		l->limit = lim;
	if (best_r >= 0)
		l->remaining = best_r;
	if (best_t >= 0)
		l->reset_at_s = cap_time(l, now_s + best_t, now_s);
	memcpy(l->cur_pol, best, sizeof(best));
	apply_policy(l);
	return 1;
}

/* RateLimit-Limit (older drafts): "100" or "100, 100;w=60". */
static int
read_ietf_limit(struct fr_api_limit *l, const char *v)
{
	const char *p = v;
	struct member first;
	int have = 0;

	while (*p) {
		struct member m;

		if (member(&p, &m) != 0 || !m.is_num)
			continue;
		if (!have) {
			first = m;
			have = 1;
			l->limit = m.num;
			if (m.w > 0)
				l->window_s = m.w;
		} else if (m.num == first.num && m.w > 0) {
			l->window_s = m.w;
		}
	}
	return have;
}

/* ---- Graph API usage ---- */

static double
jnum(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v))
		return -1;
	if (json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double)) {
		double d = json_object_get_double(v);

		return isfinite(d) && d >= 0 ? (d > NUM_MAX ? NUM_MAX : d) : -1;
	}
	if (json_object_is_type(v, json_type_string)) {
		double d;

		return whole_num(json_object_get_string(v), &d) == 0 ? d : -1;
	}
	return -1;
}

static struct json_object *
small_json(const char *v)
{
	struct json_tokener *tok = json_tokener_new_ex(8);
	struct json_object *o;
	size_t n = strlen(v);

	if (!tok || n > 65536) {
		json_tokener_free(tok);
		return NULL;
	}
	o = json_tokener_parse_ex(tok, v, (int)n);
	json_tokener_free(tok);
	return o;
}

/* The highest of an object's percentages; *regain_s set from
 * estimated_time_to_regain_access (minutes) or reset_time_duration (s). */
static double
usage_of(struct json_object *o, double *regain_s)
{
	static const char *const keys[] = {"call_count", "total_time", "total_cputime",
	                                   "acc_id_util_pct", "app_id_util_pct"};
	double u = -1, r;

	if (!json_object_is_type(o, json_type_object))
		return -1;
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		double v = jnum(o, keys[i]);

		if (v > u)
			u = v;
	}
	if ((r = jnum(o, "estimated_time_to_regain_access")) > 0 && r * 60 > *regain_s)
		*regain_s = r * 60;
	if ((r = jnum(o, "reset_time_duration")) > 0 && r > *regain_s)
		*regain_s = r;
	return u;
}

/* X-App-Usage / X-Ad-Account-Usage: one object; X-Business-Use-Case-Usage:
 * {"<id>": [{...}, ...], ...}. */
static int
read_usage(struct fr_api_limit *l, const char *v, int buc, double now_s, double *usage)
{
	struct json_object *o = small_json(v);
	double u = -1, regain = 0;

	if (!o)
		return 0;
	if (!buc) {
		u = usage_of(o, &regain);
	} else if (json_object_is_type(o, json_type_object)) {
		json_object_object_foreach(o, key, arr)
		{
			(void)key;
			if (!json_object_is_type(arr, json_type_array))
				continue;
			for (size_t i = 0; i < json_object_array_length(arr); i++) {
				double x = usage_of(json_object_array_get_idx(arr, i), &regain);

				if (x > u)
					u = x;
			}
		}
	}
	json_object_put(o);
	if (u < 0)
		return 0;
	*usage = u;
	if (regain > 0)
		l->reset_at_s = cap_time(l, now_s + regain, now_s);
	return 1;
}

/* ---- headers ---- */

/* The slow-down is over: a call was let through, or a usage figure under
 * 100% says calls are left. A remaining count only a slow-down answer set
 * is unknown again; the back-off starts over. */
static void
release(struct fr_api_limit *l)
{
	if (l->zero_by_refusal) {
		l->remaining = -1;
		l->zero_by_refusal = 0;
	}
	l->refusals = 0;
}

/* Set when fr_api_limit_headers reads a block: usage headers of one
 * response combine (the highest wins) instead of replacing each other. */
static int
header(struct fr_api_limit *l, const char *name, const char *value, double now_s, int accum)
{
	const char *n = name;
	double d, usage = -1;
	unsigned seen = 0;
	int ok = 0;

	if (!name || !value)
		return 0;
	while (is_blank(*value))
		value++;
	if (!strncasecmp(n, "x-ratelimit-", 12) || !strncasecmp(n, "x-rate-limit-", 13)) {
		const char *f = n + (n[6] == '-' ? 13 : 12);

		seen = FR_API_SEEN_XRATELIMIT;
		if (name_is(f, "limit")) {
			if (whole_num(value, &d) == 0) {
				l->limit = d;
				ok = 1;
			} else {
				ok = read_ietf_limit(l, value);
			}
			l->limit_told |= ok;
		} else if (name_is(f, "remaining") && (ok = whole_num(value, &d) == 0)) {
			l->remaining = d;
			l->zero_by_refusal = 0;
		} else if (name_is(f, "reset") && (ok = reset_value(l, value, now_s, &d) == 0)) {
			l->reset_at_s = d;
		} else if (name_is(f, "used") && (ok = whole_num(value, &d) == 0)) {
			l->used = d;
		}
		/* Reddit sends used and remaining, and no limit */
		if (ok && !l->limit_told && l->used >= 0 && l->remaining >= 0)
			l->limit = l->used + l->remaining;
	} else if (!strncasecmp(n, "ratelimit", 9)) {
		seen = FR_API_SEEN_IETF;
		if (name_is(n, "ratelimit") && (ok = read_ratelimit(l, value, now_s)))
			l->zero_by_refusal = 0;
		else if (name_is(n, "ratelimit-policy"))
			ok = read_policy(l, value);
		else if (name_is(n, "ratelimit-limit"))
			l->limit_told |= ok = read_ietf_limit(l, value);
		else if (name_is(n, "ratelimit-remaining") && (ok = whole_num(value, &d) == 0)) {
			l->remaining = d;
			l->zero_by_refusal = 0;
		}
		else if (name_is(n, "ratelimit-reset") &&
		         (ok = reset_value(l, value, now_s, &d) == 0))
			l->reset_at_s = d;
	} else if (name_is(n, "x-app-usage") || name_is(n, "x-ad-account-usage")) {
		seen = FR_API_SEEN_USAGE;
		ok = read_usage(l, value, 0, now_s, &usage);
	} else if (name_is(n, "x-business-use-case-usage")) {
		seen = FR_API_SEEN_USAGE;
		ok = read_usage(l, value, 1, now_s, &usage);
	} else if (name_is(n, "retry-after")) {
		seen = FR_API_SEEN_RETRY;
		d = fr_http_retry_after(value, now_s);
		if ((ok = d >= 0))
			l->hold_until_s = cap_time(l, d, now_s);
	}
	if (!ok)
		return 0;
	if (usage >= 0) {
		l->usage_pct = accum && l->usage_pct > usage ? l->usage_pct : usage;
		if (!accum && l->usage_pct < 100)
			release(l);
	}
	l->seen |= seen;
	l->learned_s = now_s;
	return 1;
}

int
fr_api_limit_header(struct fr_api_limit *l, const char *name, const char *value, double now_s)
{
	return header(l, name, value, now_s, 0);
}

int
fr_api_limit_headers(struct fr_api_limit *l, const char *block, size_t len, double now_s)
{
	char name[64], value[8192];
	size_t i = 0;
	int used = 0, usage_seen = 0;
	double old_usage = l->usage_pct;

	/* one response: its used count goes with its remaining count */
	l->used = -1;

	while (i < len) {
		size_t s = i, e, c, vn;

		while (i < len && block[i] != '\n')
			i++;
		e = i;
		i++;
		if (e > s && block[e - 1] == '\r')
			e--;
		for (c = s; c < e && block[c] != ':' && block[c] != ' ' && block[c] != '\t'; c++)
			;
		if (c == s || c >= e || block[c] != ':' || c - s >= sizeof(name))
			continue;
		memcpy(name, block + s, c - s);
		name[c - s] = '\0';
		if (memchr(name, '\0', c - s))
			continue;
		c++;
		while (c < e && is_blank(block[c]))
			c++;
		while (e > c && is_blank(block[e - 1]))
			e--;
		vn = e - c < sizeof(value) - 1 ? e - c : sizeof(value) - 1;
		memcpy(value, block + c, vn);
		value[vn] = '\0';
		if (memchr(value, '\0', vn))
			continue;
		/* the first usage header of the block replaces the old figure,
		 * the others combine with it */
		if (!usage_seen &&
		    (name_is(name, "x-app-usage") || name_is(name, "x-ad-account-usage") ||
		     name_is(name, "x-business-use-case-usage"))) {
			l->usage_pct = -1;
			usage_seen = 1;
		}
		used += header(l, name, value, now_s, 1);
	}
	if (usage_seen && l->usage_pct < 0)
		l->usage_pct = old_usage;
	else if (usage_seen && l->usage_pct < 100)
		release(l); /* the combined figure of the response */
	return used;
}

/* ---- bodies, spending, waiting ---- */

/* How long to wait when none are left and no time was given: the window
 * when known, else default_wait_s, doubled for each slow-down answer in a
 * row after the first, at most FR_API_BACKOFF_MAX_S (or the window). */
static double
backoff_wait(const struct fr_api_limit *l)
{
	double w = l->default_wait_s > 0 ? l->default_wait_s : FR_API_DEFAULT_WAIT_S_DEFAULT;

	if (l->window_s > 0)
		return l->window_s;
	for (unsigned k = 1; k < l->refusals && w < FR_API_BACKOFF_MAX_S; k++)
		w *= 2;
	return w > FR_API_BACKOFF_MAX_S ? FR_API_BACKOFF_MAX_S : w;
}

static int
graph_throttle_code(long c)
{
	return c == 4 || c == 17 || c == 32 || c == 613 || (c >= 80000 && c <= 80014);
}

enum fr_api_slow
fr_api_limit_response(struct fr_api_limit *l, int status, const char *body, size_t len,
                      double now_s, long *code)
{
	enum fr_api_slow why = FR_API_SLOW_NONE;
	long c = 0;

	if (body && len > 0 && len <= (1u << 20)) {
		struct json_tokener *tok = json_tokener_new_ex(16);
		struct json_object *o = tok ? json_tokener_parse_ex(tok, body, (int)len) : NULL, *e,
		                   *v;

		json_tokener_free(tok);
		if (o && json_object_is_type(o, json_type_object) &&
		    json_object_object_get_ex(o, "error", &e)) {
			if (json_object_is_type(e, json_type_object) &&
			    json_object_object_get_ex(e, "code", &v) &&
			    (json_object_is_type(v, json_type_int) ||
			     json_object_is_type(v, json_type_string)))
				c = (long)json_object_get_int64(v);
			else if (json_object_is_type(e, json_type_int))
				c = (long)json_object_get_int64(e); /* Reddit's {"error": 429} */
			if (graph_throttle_code(c) && json_object_is_type(e, json_type_object))
				why = FR_API_SLOW_GRAPH;
		}
		json_object_put(o);
	}
	if (code)
		*code = c;
	if (why == FR_API_SLOW_NONE && status == 429)
		why = FR_API_SLOW_STATUS;
	if (why == FR_API_SLOW_NONE) {
		/* a call let through: whatever slowed it down is over */
		if ((status >= 200 && status < 300) || status == 304)
			release(l);
		if (l->usage_pct >= 100)
			return FR_API_SLOW_USAGE;
		return FR_API_SLOW_NONE;
	}
	l->remaining = 0;
	l->zero_by_refusal = 1;
	if (l->expect_reset_s >= 0)
		l->expect_wrong = 1;
	if (l->refusals < 64)
		l->refusals++;
	l->seen |= FR_API_SEEN_BODY;
	l->learned_s = now_s;
	if (!(l->hold_until_s > now_s)) {
		if (l->reset_at_s > now_s)
			l->hold_until_s = l->reset_at_s;
		else
			l->hold_until_s = cap_time(l, now_s + backoff_wait(l), now_s);
	}
	return why;
}

void
fr_api_limit_spend(struct fr_api_limit *l, double now_s)
{
	if (l->reset_at_s >= 0 && now_s >= l->reset_at_s) {
		/* the window the figures spoke of is over */
		l->remaining = l->limit >= 1 ? l->limit - 1 : -1;
		l->usage_pct = -1;
		if (l->window_s > 0) {
			double k = floor((now_s - l->reset_at_s) / l->window_s) + 1;

			l->reset_at_s += k * l->window_s;
		} else {
			l->reset_at_s = -1;
		}
		return;
	}
	if (l->remaining >= 1)
		l->remaining -= 1;
	else if (l->remaining > 0)
		l->remaining = 0;
}

static int
none_left(const struct fr_api_limit *l)
{
	return (l->remaining >= 0 && l->remaining < 1) || l->usage_pct >= 100;
}

double
fr_api_limit_next(const struct fr_api_limit *l, double now_s)
{
	double t = now_s;

	if (l->hold_until_s > t)
		t = l->hold_until_s;
	if (none_left(l)) {
		if (l->reset_at_s >= 0) {
			if (l->reset_at_s > t)
				t = l->reset_at_s;
		} else if (!(l->hold_until_s >= 0 && l->hold_until_s >= l->learned_s)) {
			/* (A hold set by the latest answer, a Retry-After or a
			 * slow-down body, says when: it rules. An older one, over
			 * before that answer came, does not.) */
			double from = l->learned_s >= 0 ? l->learned_s : now_s;
			double u = !l->expect_wrong && l->expect_reset_s >= 0
			               ? l->expect_reset_s
			               : from + backoff_wait(l);

			if (u > t)
				t = u;
		}
	}
	return t;
}

void
fr_api_limit_expect_reset(struct fr_api_limit *l, double t)
{
	l->expect_reset_s = t >= 0 ? t : -1;
}

int
fr_api_limit_may_call(const struct fr_api_limit *l, double now_s, double *until_s)
{
	double t = fr_api_limit_next(l, now_s);

	if (t <= now_s)
		return 1;
	if (until_s)
		*until_s = t;
	return 0;
}

int
fr_api_limit_budget(const struct fr_api_limit *l, double *calls, double *window_s)
{
	if (!(l->limit > 0) || !(l->window_s > 0))
		return -1;
	*calls = l->limit;
	*window_s = l->window_s;
	return 0;
}
