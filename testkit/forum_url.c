/* forum_url.c - URL shapes of the synthetic forums' software (forum_url.h).
 * NOTE: keep the table in forums.h and docs/serve.md in sync. */
#include "testkit/forum_url.h"

#include "testkit/forum_gen.h"

#include <stdio.h>
#include <string.h>

#define U FR_TK_FORUMS_URL_MAX

char *
fr_tk_forum_url_entry(enum fr_tk_forum_sw sw, char *buf)
{
	snprintf(buf, U, "%s",
	         sw == FR_TK_FORUM_DISCUZ   ? "/forum.php"
	         : sw == FR_TK_FORUM_CUSTOM ? "/forum/"
	                                 : "/");
	return buf;
}

char *
fr_tk_forum_url_board(const struct fr_tk_forum *f, unsigned b, uint32_t page, char *buf)
{
	const struct fr_tk_fboard *bd = &f->boards[b];
	unsigned id = (unsigned)bd->id, pg = page ? (unsigned)page : 1;
	unsigned off = (pg - 1) * f->prof.threads_pp;

	switch (f->prof.sw) {
	case FR_TK_FORUM_PHPBB:
		if (pg > 1)
			snprintf(buf, U, "/viewforum.php?f=%u&start=%u", id, off);
		else
			snprintf(buf, U, "/viewforum.php?f=%u", id);
		break;
	case FR_TK_FORUM_VBULLETIN:
		if (pg > 1)
			snprintf(buf, U, "/forumdisplay.php?f=%u&page=%u", id, pg);
		else
			snprintf(buf, U, "/forumdisplay.php?f=%u", id);
		break;
	case FR_TK_FORUM_SMF:
		snprintf(buf, U, "/index.php?board=%u.%u", id, off);
		break;
	case FR_TK_FORUM_XENFORO:
		if (pg > 1)
			snprintf(buf, U, "/forums/%s.%u/page-%u", bd->slug, id, pg);
		else
			snprintf(buf, U, "/forums/%s.%u/", bd->slug, id);
		break;
	case FR_TK_FORUM_DISCUZ:
		snprintf(buf, U, "/forum-%u-%u.html", id, pg);
		break;
	case FR_TK_FORUM_CUSTOM:
		if (pg > 1)
			snprintf(buf, U, "/forum/%s/%u.html", bd->slug, pg);
		else
			snprintf(buf, U, "/forum/%s/", bd->slug);
		break;
	default:
		if (pg > 1)
			snprintf(buf, U, "/c/%s/?page=%u", bd->slug, pg);
		else
			snprintf(buf, U, "/c/%s/", bd->slug);
		break;
	}
	return buf;
}

char *
fr_tk_forum_url_thread(const struct fr_tk_forum *f, size_t i, uint32_t page, char *buf)
{
	const struct fr_tk_fthread *th = &f->th[i];
	const struct fr_tk_fboard *bd = &f->boards[th->board];
	unsigned id = (unsigned)th->id, pg = page ? (unsigned)page : 1;
	unsigned off = (pg - 1) * f->prof.posts_pp;
	char title[200], slug[72];

	if (f->prof.sw == FR_TK_FORUM_XENFORO || f->prof.sw == FR_TK_FORUM_CUSTOM ||
	    f->prof.sw == FR_TK_FORUM_THREADED)
		fr_tk_forum_gen_slug(fr_tk_forum_gen_title(f, i, title, sizeof(title)), "thread",
		                     slug, sizeof(slug));
	switch (f->prof.sw) {
	case FR_TK_FORUM_PHPBB:
		if (pg > 1)
			snprintf(buf, U, "/viewtopic.php?t=%u&start=%u", id, off);
		else
			snprintf(buf, U, "/viewtopic.php?t=%u", id);
		break;
	case FR_TK_FORUM_VBULLETIN:
		if (pg > 1)
			snprintf(buf, U, "/showthread.php?t=%u&page=%u", id, pg);
		else
			snprintf(buf, U, "/showthread.php?t=%u", id);
		break;
	case FR_TK_FORUM_SMF:
		snprintf(buf, U, "/index.php?topic=%u.%u", id, off);
		break;
	case FR_TK_FORUM_XENFORO:
		if (pg > 1)
			snprintf(buf, U, "/threads/%s.%u/page-%u", slug, id, pg);
		else
			snprintf(buf, U, "/threads/%s.%u/", slug, id);
		break;
	case FR_TK_FORUM_DISCUZ:
		snprintf(buf, U, "/thread-%u-%u-1.html", id, pg);
		break;
	case FR_TK_FORUM_CUSTOM:
		if (pg > 1)
			snprintf(buf, U, "/forum/%s/%u-%s/%u.html", bd->slug, id, slug, pg);
		else
			snprintf(buf, U, "/forum/%s/%u-%s/", bd->slug, id, slug);
		break;
	default:
		if (pg > 1)
			snprintf(buf, U, "/c/%s/comments/%u/%s/?page=%u", bd->slug, id, slug, pg);
		else
			snprintf(buf, U, "/c/%s/comments/%u/%s/", bd->slug, id, slug);
		break;
	}
	return buf;
}

char *
fr_tk_forum_url_profile(const struct fr_tk_forum *f, uint32_t m, char *buf)
{
	unsigned uid = (unsigned)(f->uid0 + m);
	char name[64];

	switch (f->prof.sw) {
	case FR_TK_FORUM_PHPBB:
		snprintf(buf, U, "/memberlist.php?mode=viewprofile&u=%u", uid);
		break;
	case FR_TK_FORUM_VBULLETIN:
		snprintf(buf, U, "/member.php?u=%u", uid);
		break;
	case FR_TK_FORUM_SMF:
		snprintf(buf, U, "/index.php?action=profile;u=%u", uid);
		break;
	case FR_TK_FORUM_XENFORO:
		fr_tk_forum_gen_member_name(f, m, name, sizeof(name));
		fr_tk_forum_gen_slug(name, "member", name, sizeof(name));
		snprintf(buf, U, "/members/%s.%u/", name, uid);
		break;
	case FR_TK_FORUM_DISCUZ:
		snprintf(buf, U, "/home.php?mod=space&uid=%u", uid);
		break;
	case FR_TK_FORUM_CUSTOM:
		snprintf(buf, U, "/forum/user/%u/", uid);
		break;
	default:
		snprintf(buf, U, "/u/%s/", fr_tk_forum_gen_member_name(f, m, name, sizeof(name)));
		break;
	}
	return buf;
}

char *
fr_tk_forum_url_other(enum fr_tk_forum_sw sw, enum fr_tk_furl_kind kind, char *buf)
{
	static const char *const FAQ[FR_TK_FORUM_N_SW] = {
	    "/faq.php",   "/faq.php",          "/index.php?action=help",
	    "/help/faq/", "/misc.php?mod=faq", "/forum/faq.html",
	    "/help/"};
	static const char *const LOGIN[FR_TK_FORUM_N_SW] = {"/login.php",
	                                                 "/login.php?do=login",
	                                                 "/login.php?action=login",
	                                                 "/login/",
	                                                 "/login.php?mod=logging&action=login",
	                                                 "/login",
	                                                 "/login"};
	static const char *const SEARCH[FR_TK_FORUM_N_SW] = {
	    "/search.php", "/search.php",           "/search.php?action=search",
	    "/search/",    "/search.php?mod=forum", "/search",
	    "/search"};
	unsigned s = (unsigned)sw < FR_TK_FORUM_N_SW ? (unsigned)sw : 0;

	switch (kind) {
	case FR_TK_FURL_FAQ:
		snprintf(buf, U, "%s", FAQ[s]);
		break;
	case FR_TK_FURL_LOGIN:
		snprintf(buf, U, "%s", LOGIN[s]);
		break;
	case FR_TK_FURL_SEARCH:
		snprintf(buf, U, "%s", SEARCH[s]);
		break;
	default:
		snprintf(buf, U, "/");
		break;
	}
	return buf;
}

/* ---- parsing ---- */

/* Digits at s (1..9 of them, no sign) into *v; returns the end or NULL. */
static const char *
num(const char *s, uint32_t *v)
{
	uint64_t x = 0;
	const char *p = s;

	while (*p >= '0' && *p <= '9' && p - s < 9)
		x = x * 10 + (uint64_t)(*p++ - '0');
	if (p == s || (*p >= '0' && *p <= '9'))
		return NULL;
	*v = (uint32_t)x;
	return p;
}

/* The whole string s is a number. */
static int
whole_num(const char *s, uint32_t *v)
{
	const char *e = num(s, v);

	return e && *e == '\0';
}

/* The value of key in a query ("a=1&b=2", '&' or ';' between pairs) into
 * buf; 0 when found. */
static int
qget(const char *q, const char *key, char *buf, size_t len)
{
	size_t kl = strlen(key);

	while (*q) {
		size_t n = strcspn(q, "&;");

		if (n > kl && !strncmp(q, key, kl) && q[kl] == '=') {
			size_t vl = n - kl - 1;

			if (vl >= len)
				return -1;
			memcpy(buf, q + kl + 1, vl);
			buf[vl] = '\0';
			return 0;
		}
		q += n;
		if (*q)
			q++;
	}
	return -1;
}

static int
qnum(const char *q, const char *key, uint32_t *v)
{
	char b[16];

	return qget(q, key, b, sizeof(b)) == 0 && whole_num(b, v) ? 0 : -1;
}

/* An offset into a 1-based page (0 when it is not a page's start). */
static uint32_t
off_page(uint32_t off, unsigned per)
{
	return off % per ? 0 : off / per + 1;
}

/* "SLUG.ID/" with an optional "page-P" after it, as XenForo writes them. */
static void
xf_item(const char *s, enum fr_tk_furl_kind kind, struct fr_tk_furl *out)
{
	const char *slash = strchr(s, '/'), *dot;
	size_t n;
	uint32_t id, pg = 1;

	if (!slash)
		return;
	n = (size_t)(slash - s);
	for (dot = slash; dot > s && dot[-1] != '.'; dot--)
		;
	if (dot == s || n >= sizeof(out->slug))
		return;
	{
		char idb[16];
		size_t il = (size_t)(slash - dot);

		if (il == 0 || il >= sizeof(idb))
			return;
		memcpy(idb, dot, il);
		idb[il] = '\0';
		if (!whole_num(idb, &id))
			return;
	}
	if (slash[1]) {
		if (strncmp(slash + 1, "page-", 5) != 0 || !whole_num(slash + 6, &pg) || pg == 0)
			return;
	}
	memcpy(out->slug, s, (size_t)(dot - 1 - s));
	out->slug[dot - 1 - s] = '\0';
	out->kind = kind;
	out->id = id;
	out->page = pg;
}

static uint32_t
member_of(const struct fr_tk_forum *f, uint32_t uid)
{
	return uid >= f->uid0 ? uid - f->uid0 : UINT32_MAX;
}

/* Copies the path segment at s (up to '/') into buf; returns the byte after
 * the '/' or NULL when there is no '/' or it is too long or empty. */
static const char *
segment(const char *s, char *buf, size_t len)
{
	const char *e = strchr(s, '/');
	size_t n;

	if (!e)
		return NULL;
	n = (size_t)(e - s);
	if (n == 0 || n >= len)
		return NULL;
	memcpy(buf, s, n);
	buf[n] = '\0';
	return e + 1;
}

/* q without session parameters ("sid", "s", "PHPSESSID") into buf;
 * returns buf, or q itself when it has none or does not fit. */
static const char *
no_session(const char *q, char *buf, size_t len)
{
	size_t n = 0;
	int cut = 0;

	for (const char *p = q; *p;) {
		size_t k = strcspn(p, "&");

		if ((k > 4 && !strncmp(p, "sid=", 4)) || (k > 2 && !strncmp(p, "s=", 2)) ||
		    (k > 10 && !strncmp(p, "PHPSESSID=", 10))) {
			cut = 1;
		} else {
			if (n + k + 2 > len)
				return q;
			if (n)
				buf[n++] = '&';
			memcpy(buf + n, p, k);
			n += k;
		}
		p += k;
		if (*p == '&')
			p++;
	}
	if (!cut)
		return q;
	buf[n] = '\0';
	return buf;
}

void
fr_tk_forum_url_parse(const struct fr_tk_forum *f, const char *path, const char *q,
                      struct fr_tk_furl *out)
{
	const struct fr_tk_forum_profile *p = &f->prof;
	uint32_t v, o;
	char b[32];

	char qb[2 * FR_TK_FORUMS_URL_MAX];

	memset(out, 0, sizeof(*out));
	q = no_session(q, qb, sizeof(qb));
	if (!strcmp(path, "/robots.txt") && !*q) {
		out->kind = FR_TK_FURL_ROBOTS;
		return;
	}
	if (!strncmp(path, "/login", 6)) {
		out->kind = FR_TK_FURL_LOGIN;
		return;
	}
	if (!strncmp(path, "/search", 7)) {
		out->kind = FR_TK_FURL_SEARCH;
		return;
	}
	switch (p->sw) {
	case FR_TK_FORUM_PHPBB:
	case FR_TK_FORUM_VBULLETIN: {
		int php = p->sw == FR_TK_FORUM_PHPBB;
		const char *pkey = php ? "start" : "page";

		if ((!strcmp(path, "/") || !strcmp(path, "/index.php")) && !*q) {
			out->kind = FR_TK_FURL_ENTRY;
		} else if (!strcmp(path, "/faq.php")) {
			out->kind = FR_TK_FURL_FAQ;
		} else if (!strcmp(path, php ? "/viewforum.php" : "/forumdisplay.php") ||
		           !strcmp(path, php ? "/viewtopic.php" : "/showthread.php")) {
			int board = !strcmp(path, php ? "/viewforum.php" : "/forumdisplay.php");

			if (qnum(q, board ? "f" : "t", &out->id) < 0)
				return;
			o = php ? 0 : 1;
			if (qget(q, pkey, b, sizeof(b)) == 0 && !whole_num(b, &o))
				return;
			out->page = php ? off_page(o, board ? p->threads_pp : p->posts_pp) : o;
			out->kind = board ? FR_TK_FURL_BOARD : FR_TK_FURL_THREAD;
		} else if (php && !strcmp(path, "/memberlist.php")) {
			if (qget(q, "mode", b, sizeof(b)) == 0 && !strcmp(b, "viewprofile") &&
			    qnum(q, "u", &v) == 0) {
				out->kind = FR_TK_FURL_PROFILE;
				out->id = member_of(f, v);
			}
		} else if (!php && !strcmp(path, "/member.php")) {
			if (qnum(q, "u", &v) == 0) {
				out->kind = FR_TK_FURL_PROFILE;
				out->id = member_of(f, v);
			}
		}
		return;
	}
	case FR_TK_FORUM_SMF:
		if (strcmp(path, "/") != 0 && strcmp(path, "/index.php") != 0)
			return;
		if (!*q) {
			out->kind = FR_TK_FURL_ENTRY;
			return;
		}
		if (qget(q, "board", b, sizeof(b)) == 0 || qget(q, "topic", b, sizeof(b)) == 0) {
			int board = qget(q, "board", b, sizeof(b)) == 0;
			const char *e = num(b, &out->id);

			if (!e || *e != '.' || !whole_num(e + 1, &o))
				return;
			out->page = off_page(o, board ? p->threads_pp : p->posts_pp);
			out->kind = board ? FR_TK_FURL_BOARD : FR_TK_FURL_THREAD;
		} else if (qget(q, "action", b, sizeof(b)) == 0) {
			if (!strcmp(b, "help")) {
				out->kind = FR_TK_FURL_FAQ;
			} else if (!strcmp(b, "profile") && qnum(q, "u", &v) == 0) {
				out->kind = FR_TK_FURL_PROFILE;
				out->id = member_of(f, v);
			}
		}
		return;
	case FR_TK_FORUM_XENFORO:
		if (*q)
			return;
		if (!strcmp(path, "/"))
			out->kind = FR_TK_FURL_ENTRY;
		else if (!strcmp(path, "/help/faq/"))
			out->kind = FR_TK_FURL_FAQ;
		else if (!strncmp(path, "/forums/", 8))
			xf_item(path + 8, FR_TK_FURL_BOARD, out);
		else if (!strncmp(path, "/threads/", 9))
			xf_item(path + 9, FR_TK_FURL_THREAD, out);
		else if (!strncmp(path, "/members/", 9)) {
			xf_item(path + 9, FR_TK_FURL_PROFILE, out);
			if (out->kind == FR_TK_FURL_PROFILE) {
				if (path[strlen(path) - 1] != '/' || strstr(path + 9, "page-"))
					out->kind = FR_TK_FURL_NONE;
				out->id = member_of(f, out->id);
			}
		}
		return;
	case FR_TK_FORUM_DISCUZ:
		if (!strcmp(path, "/") && !*q) {
			out->kind = FR_TK_FURL_HOME;
		} else if (!strcmp(path, "/forum.php") && !*q) {
			out->kind = FR_TK_FURL_ENTRY;
		} else if (!strcmp(path, "/misc.php")) {
			if (qget(q, "mod", b, sizeof(b)) == 0 && !strcmp(b, "faq"))
				out->kind = FR_TK_FURL_FAQ;
		} else if (!strcmp(path, "/home.php")) {
			if (qget(q, "mod", b, sizeof(b)) == 0 && !strcmp(b, "space") &&
			    qnum(q, "uid", &v) == 0) {
				out->kind = FR_TK_FURL_PROFILE;
				out->id = member_of(f, v);
			}
		} else if (!*q && !strncmp(path, "/forum-", 7)) {
			const char *e = num(path + 7, &out->id);

			if (e && *e == '-' && (e = num(e + 1, &v)) && !strcmp(e, ".html") && v) {
				out->page = v;
				out->kind = FR_TK_FURL_BOARD;
			}
		} else if (!*q && !strncmp(path, "/thread-", 8)) {
			const char *e = num(path + 8, &out->id);

			if (e && *e == '-' && (e = num(e + 1, &v)) && *e == '-' && v &&
			    (e = num(e + 1, &o)) && !strcmp(e, ".html") && o) {
				out->page = v;
				out->kind = FR_TK_FURL_THREAD;
			}
		}
		return;
	case FR_TK_FORUM_CUSTOM: {
		const char *s;

		if (*q)
			return;
		if (!strcmp(path, "/")) {
			out->kind = FR_TK_FURL_HOME;
			return;
		}
		if (strncmp(path, "/forum/", 7) != 0)
			return;
		s = path + 7;
		if (!*s) {
			out->kind = FR_TK_FURL_ENTRY;
		} else if (!strcmp(s, "faq.html")) {
			out->kind = FR_TK_FURL_FAQ;
		} else if (!strncmp(s, "user/", 5)) {
			const char *e = num(s + 5, &v);

			if (e && !strcmp(e, "/")) {
				out->kind = FR_TK_FURL_PROFILE;
				out->id = member_of(f, v);
			}
		} else if ((s = segment(s, out->slug, sizeof(out->slug)))) {
			/* /forum/SLUG/, /forum/SLUG/P.html, /forum/SLUG/ID-TSLUG/[P.html] */
			const char *e;

			if (!*s) {
				out->kind = FR_TK_FURL_BOARD;
				out->page = 1;
			} else if ((e = num(s, &v)) && !strcmp(e, ".html")) {
				out->kind = v ? FR_TK_FURL_BOARD : FR_TK_FURL_NONE;
				out->page = v;
			} else if ((e = num(s, &out->id)) && *e == '-' &&
			           (s = segment(e + 1, out->slug2, sizeof(out->slug2)))) {
				if (!*s) {
					out->kind = FR_TK_FURL_THREAD;
					out->page = 1;
				} else if ((e = num(s, &v)) && !strcmp(e, ".html") && v) {
					out->kind = FR_TK_FURL_THREAD;
					out->page = v;
				}
			}
		}
		return;
	}
	default: { /* threaded */
		const char *s;

		out->page = 1;
		if (*q) {
			if (qnum(q, "page", &out->page) < 0 || out->page == 0 || strchr(q, '&') ||
			    strchr(q, ';'))
				return;
		}
		if (!strcmp(path, "/") && !*q) {
			out->kind = FR_TK_FURL_ENTRY;
		} else if (!strcmp(path, "/help/") && !*q) {
			out->kind = FR_TK_FURL_FAQ;
		} else if (!strncmp(path, "/u/", 3) && !*q) {
			s = segment(path + 3, out->slug2, sizeof(out->slug2));
			if (s && !*s) {
				size_t n = strlen(out->slug2), d = n;

				while (d > 0 && out->slug2[d - 1] >= '0' &&
				       out->slug2[d - 1] <= '9')
					d--;
				if (d < n && whole_num(out->slug2 + d, &v)) {
					out->kind = FR_TK_FURL_PROFILE;
					out->id = v;
				}
			}
		} else if (!strncmp(path, "/c/", 3) &&
		           (s = segment(path + 3, out->slug, sizeof(out->slug)))) {
			const char *e;

			if (!*s)
				out->kind = FR_TK_FURL_BOARD;
			else if (!strncmp(s, "comments/", 9) && (e = num(s + 9, &out->id)) &&
			         *e == '/' &&
			         (s = segment(e + 1, out->slug2, sizeof(out->slug2))) && !*s)
				out->kind = FR_TK_FURL_THREAD;
		}
		return;
	}
	}
}
