/* meta.c - an article page's metadata as Readability reads it: JSON-LD of a
 * schema.org article type first, then <meta> names and properties (Dublin
 * Core, Open Graph, Twitter, Parse.ly, Weibo), then <title> with the site's
 * name cut off, <html lang>. */
#include "extract/ex_internal.h"

#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The meta keys read, in Readability's spelling. NOTE: keep K_* in step. */
static const char *const keys[] = {
    "dc:title",          "dcterm:title",       "og:title",       "weibo:article:title",
    "weibo:webpage:title", "title",            "twitter:title",  "parsely-title",
    "dc:creator",        "dcterm:creator",     "author",         "parsely-author",
    "article:author",    "dc:description",     "dcterm:description", "og:description",
    "weibo:article:description", "weibo:webpage:description", "description",
    "twitter:description", "og:site_name",     "article:published_time", "parsely-pub-date",
};
enum {
	K_DC_TITLE, K_DCTERM_TITLE, K_OG_TITLE, K_WEIBO_A_TITLE, K_WEIBO_W_TITLE, K_TITLE,
	K_TWITTER_TITLE, K_PARSELY_TITLE, K_DC_CREATOR, K_DCTERM_CREATOR, K_AUTHOR,
	K_PARSELY_AUTHOR, K_ARTICLE_AUTHOR, K_DC_DESC, K_DCTERM_DESC, K_OG_DESC, K_WEIBO_A_DESC,
	K_WEIBO_W_DESC, K_DESC, K_TWITTER_DESC, K_OG_SITE, K_PUBLISHED, K_PARSELY_PUB, K_N
};

static int
key_index(const char *k)
{
	for (int i = 0; i < K_N; i++)
		if (!strcmp(keys[i], k))
			return i;
	return -1;
}

/* A property value's first token of the form (article|dc|dcterm|og|twitter):
 * (author|creator|description|published_time|title|site_name), as a key
 * index, or -1. */
static int
property_key(const char *prop)
{
	static const char *const prefixes[] = {"article", "dc", "dcterm", "og", "twitter"};
	static const char *const names[] = {"author", "creator", "description",
	                                    "published_time", "title", "site_name"};
	char tok[64];

	while (*prop) {
		size_t l;

		prop += strspn(prop, " \t\r\n\f");
		l = strcspn(prop, " \t\r\n\f");
		if (!l)
			break;
		if (l < sizeof(tok)) {
			const char *colon;

			for (size_t i = 0; i < l; i++)
				tok[i] = (char)(prop[i] >= 'A' && prop[i] <= 'Z' ? prop[i] + 32 : prop[i]);
			tok[l] = '\0';
			colon = strchr(tok, ':');
			if (colon) {
				size_t pl = (size_t)(colon - tok);
				int pok = 0, nok = 0;

				for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
					pok |= strlen(prefixes[i]) == pl && !strncmp(prefixes[i], tok, pl);
				for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
					nok |= !strcmp(names[i], colon + 1);
				if (pok && nok)
					return key_index(tok);
			}
		}
		prop += l;
	}
	return -1;
}

/* A name attribute as Readability keys it: lower case, blanks dropped, '.'
 * as ':'; a key index, or -1. */
static int
name_key(const char *name)
{
	char tok[64];
	size_t w = 0;

	for (; *name && w + 1 < sizeof(tok); name++) {
		char c = *name;

		if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f')
			continue;
		tok[w++] = (char)(c >= 'A' && c <= 'Z' ? c + 32 : c == '.' ? ':' : c);
	}
	if (*name)
		return -1;
	tok[w] = '\0';
	if (!strncmp(tok, "article:", 8))
		return -1; /* only as a property */
	return key_index(tok);
}

static char *
dup_trim(const char *s)
{
	char *d = strdup(s);

	return d ? fr_ex_squash(d) : NULL;
}

/* Whether a JSON-LD @type is one of Readability's article types (its
 * regular expression, whose alternation binds the anchors to the first and
 * last words only). */
static int
article_type(const char *t)
{
	static const char *const mid[] = {
	    "AdvertiserContentArticle", "NewsArticle", "AnalysisNewsArticle", "AskPublicNewsArticle",
	    "BackgroundNewsArticle", "OpinionNewsArticle", "ReportageNewsArticle", "ReviewNewsArticle",
	    "Report", "SatiricalArticle", "ScholarlyArticle", "MedicalScholarlyArticle",
	    "SocialMediaPosting", "BlogPosting", "LiveBlogPosting", "DiscussionForumPosting",
	    "TechArticle"};
	size_t l = strlen(t);

	if (!strncmp(t, "Article", 7))
		return 1;
	if (l >= 12 && !strcmp(t + l - 12, "APIReference"))
		return 1;
	for (size_t i = 0; i < sizeof(mid) / sizeof(mid[0]); i++)
		if (strstr(t, mid[i]))
			return 1;
	return 0;
}

static const char *
jstr(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!o || !json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

static int
schema_org(const char *s)
{
	size_t l;

	if (!s)
		return 0;
	if (!strncmp(s, "http://", 7))
		s += 7;
	else if (!strncmp(s, "https://", 8))
		s += 8;
	else
		return 0;
	l = strlen(s);
	return (l == 10 || (l == 11 && s[10] == '/')) && !strncmp(s, "schema.org", 10);
}

struct jld {
	char *title, *byline, *excerpt, *site_name, *published;
};

/* One JSON-LD script's text; fills j from it when it describes an article.
 * Returns 1 when it did, 0 when not, -1 on out of memory. */
static int
jsonld_one(xmlDoc *doc, const char *text, struct jld *j)
{
	struct json_object *root, *p, *v, *ctx;
	const char *s;
	size_t a = 0, b = strlen(text);
	char *buf;
	int ok = 0;

	/* CDATA markers around the JSON */
	while (a < b && strchr(" \t\r\n", text[a]))
		a++;
	if (!strncmp(text + a, "<![CDATA[", 9))
		a += 9;
	while (b > a && strchr(" \t\r\n", text[b - 1]))
		b--;
	if (b - a >= 3 && !strncmp(text + b - 3, "]]>", 3))
		b -= 3;
	buf = strndup(text + a, b - a);
	if (!buf)
		return -1;
	root = json_tokener_parse(buf);
	free(buf);
	if (!root)
		return 0;
	p = root;
	if (json_object_is_type(p, json_type_array)) {
		struct json_object *found = NULL;

		for (size_t i = 0; i < json_object_array_length(p) && !found; i++) {
			struct json_object *it = json_object_array_get_idx(p, i);
			const char *t = jstr(it, "@type");

			if (t && article_type(t))
				found = it;
		}
		p = found;
	}
	if (!p || !json_object_is_type(p, json_type_object))
		goto done;
	if (!schema_org(jstr(p, "@context"))) {
		if (!json_object_object_get_ex(p, "@context", &ctx) || !schema_org(jstr(ctx, "@vocab")))
			goto done;
	}
	if (!json_object_object_get_ex(p, "@type", &v) && json_object_object_get_ex(p, "@graph", &v) &&
	    json_object_is_type(v, json_type_array)) {
		struct json_object *found = NULL;

		for (size_t i = 0; i < json_object_array_length(v) && !found; i++) {
			struct json_object *it = json_object_array_get_idx(v, i);
			const char *t = jstr(it, "@type");

			if (t && article_type(t))
				found = it;
		}
		p = found;
	}
	s = jstr(p, "@type");
	if (!s || !article_type(s))
		goto done;
	ok = 1;
	{
		const char *name = jstr(p, "name"), *headline = jstr(p, "headline");

		if (name && headline && strcmp(name, headline)) {
			char *t = fr_ex_doc_title(doc);
			int nm, hm;

			if (!t)
				goto oom;
			nm = fr_ex_similarity(name, t) > 0.75;
			hm = fr_ex_similarity(headline, t) > 0.75;
			free(t);
			j->title = dup_trim(hm && !nm ? headline : name);
		} else if (name) {
			j->title = dup_trim(name);
		} else if (headline) {
			j->title = dup_trim(headline);
		}
	}
	if (json_object_object_get_ex(p, "author", &v)) {
		if ((s = jstr(v, "name"))) {
			j->byline = dup_trim(s);
		} else if (json_object_is_type(v, json_type_array) && json_object_array_length(v) &&
		           jstr(json_object_array_get_idx(v, 0), "name")) {
			size_t cap = 1, n = 0;
			char *out;

			for (size_t i = 0; i < json_object_array_length(v); i++)
				if ((s = jstr(json_object_array_get_idx(v, i), "name")))
					cap += strlen(s) + 2;
			out = malloc(cap);
			if (!out)
				goto oom;
			out[0] = '\0';
			for (size_t i = 0; i < json_object_array_length(v); i++) {
				char *t;

				if (!(s = jstr(json_object_array_get_idx(v, i), "name")))
					continue;
				if (!(t = dup_trim(s))) {
					free(out);
					goto oom;
				}
				n += (size_t)snprintf(out + n, cap - n, "%s%s", n ? ", " : "", t);
				free(t);
			}
			j->byline = out;
		}
	}
	if ((s = jstr(p, "description")))
		j->excerpt = dup_trim(s);
	if (json_object_object_get_ex(p, "publisher", &v) && (s = jstr(v, "name")))
		j->site_name = dup_trim(s);
	if ((s = jstr(p, "datePublished")))
		j->published = dup_trim(s);
done:
	json_object_put(root);
	return ok;
oom:
	json_object_put(root);
	return -1;
}

static void
jld_clear(struct jld *j)
{
	free(j->title);
	free(j->byline);
	free(j->excerpt);
	free(j->site_name);
	free(j->published);
	memset(j, 0, sizeof(*j));
}

/* The first of the candidates that is set and not empty. */
static const char *
first_of(const char *const *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (v[i] && v[i][0])
			return v[i];
	return NULL;
}

static int
set(char **dst, const char *v)
{
	if (!v)
		return 0;
	*dst = strdup(v);
	if (!*dst)
		return -1;
	fr_ex_unescape(*dst);
	fr_ex_squash(*dst);
	if (!**dst) {
		free(*dst);
		*dst = NULL;
	}
	return 0;
}

static int
is_url(const char *s)
{
	return !strncasecmp(s, "http://", 7) || !strncasecmp(s, "https://", 8);
}

int
fr_ex_meta_read(xmlDoc *doc, struct fr_ex_meta *m)
{
	const char *vals[K_N] = {0};
	struct jld j = {0};
	int have_jld = 0, rc = -1;
	xmlNode *root = xmlDocGetRootElement(doc);
	char *title = NULL;

	memset(m, 0, sizeof(*m));
	if (!root)
		return 0;
	for (xmlNode *n = root; n; n = fr_ex_next(n, root, 0)) {
		if (fr_ex_is(n, "meta")) {
			const char *content = fr_ex_attr(n, "content"), *p = fr_ex_attr(n, "property"),
			           *nm = fr_ex_attr(n, "name");
			int k = -1;

			if (!content || !content[0])
				continue;
			if (p)
				k = property_key(p);
			if (k < 0 && nm)
				k = name_key(nm);
			if (k >= 0)
				vals[k] = content; /* later ones win, as in Readability */
		} else if (!have_jld && fr_ex_is(n, "script")) {
			const char *type = fr_ex_attr(n, "type");
			char *text;
			int r;

			if (!type || strcasecmp(type, "application/ld+json"))
				continue;
			text = NULL;
			{
				/* raw text: the children's content, unsquashed */
				size_t len = 0;

				for (xmlNode *c = n->children; c; c = c->next)
					if (c->content)
						len += strlen((const char *)c->content);
				text = malloc(len + 1);
				if (!text)
					goto out;
				len = 0;
				for (xmlNode *c = n->children; c; c = c->next)
					if (c->content) {
						size_t l = strlen((const char *)c->content);

						memcpy(text + len, c->content, l);
						len += l;
					}
				text[len] = '\0';
			}
			r = jsonld_one(doc, text, &j);
			free(text);
			if (r < 0)
				goto out;
			if (r > 0)
				have_jld = 1;
			else
				jld_clear(&j);
		}
	}
	{
		const char *t[] = {j.title, vals[K_DC_TITLE], vals[K_DCTERM_TITLE], vals[K_OG_TITLE],
		                   vals[K_WEIBO_A_TITLE], vals[K_WEIBO_W_TITLE], vals[K_TITLE],
		                   vals[K_TWITTER_TITLE], vals[K_PARSELY_TITLE]};
		const char *art = vals[K_ARTICLE_AUTHOR] && !is_url(vals[K_ARTICLE_AUTHOR])
		                      ? vals[K_ARTICLE_AUTHOR] : NULL;
		const char *b[] = {j.byline, vals[K_DC_CREATOR], vals[K_DCTERM_CREATOR], vals[K_AUTHOR],
		                   vals[K_PARSELY_AUTHOR], art};
		const char *e[] = {j.excerpt, vals[K_DC_DESC], vals[K_DCTERM_DESC], vals[K_OG_DESC],
		                   vals[K_WEIBO_A_DESC], vals[K_WEIBO_W_DESC], vals[K_DESC],
		                   vals[K_TWITTER_DESC]};
		const char *s[] = {j.site_name, vals[K_OG_SITE]};
		const char *p[] = {j.published, vals[K_PUBLISHED], vals[K_PARSELY_PUB]};
		const char *tt = first_of(t, sizeof(t) / sizeof(t[0]));

		if (!tt) {
			if (!(title = fr_ex_doc_title(doc)))
				goto out;
			tt = title;
		}
		if (set(&m->title, tt) || (!m->title && !(m->title = strdup(""))) || set(&m->byline, first_of(b, sizeof(b) / sizeof(b[0]))) ||
		    set(&m->excerpt, first_of(e, sizeof(e) / sizeof(e[0]))) ||
		    set(&m->site_name, first_of(s, sizeof(s) / sizeof(s[0]))) ||
		    set(&m->published_time, first_of(p, sizeof(p) / sizeof(p[0]))))
			goto out;
		if (fr_ex_is(root, "html") && fr_ex_attr(root, "lang") &&
		    set(&m->lang, fr_ex_attr(root, "lang")))
			goto out;
	}
	rc = 0;
out:
	free(title);
	jld_clear(&j);
	if (rc)
		fr_ex_meta_clear(m);
	return rc;
}

void
fr_ex_meta_clear(struct fr_ex_meta *m)
{
	free(m->title);
	free(m->byline);
	free(m->excerpt);
	free(m->site_name);
	free(m->published_time);
	free(m->lang);
	memset(m, 0, sizeof(*m));
}

/* Title separators: | - \ / > and en dash, em dash, guillemet. Returns the
 * byte length of the separator at s, or 0. */
static size_t
sep_at(const char *s, int *hier)
{
	unsigned char c = (unsigned char)s[0];

	*hier = 0;
	if (c == '|' || c == '-')
		return 1;
	if (c == '\\' || c == '/' || c == '>') {
		*hier = 1;
		return 1;
	}
	if (c == 0xe2 && (unsigned char)s[1] == 0x80 &&
	    ((unsigned char)s[2] == 0x93 || (unsigned char)s[2] == 0x94))
		return 3; /* en dash, em dash */
	if (c == 0xc2 && (unsigned char)s[1] == 0xbb) {
		*hier = 1;
		return 2; /* » */
	}
	return 0;
}

/* The text of the first <title> element outside <svg>, or NULL. */
static xmlNode *
title_element(xmlDoc *doc)
{
	xmlNode *root = xmlDocGetRootElement(doc);

	for (xmlNode *n = root; n;) {
		if (fr_ex_is(n, "svg")) {
			n = fr_ex_next(n, root, 1);
			continue;
		}
		if (fr_ex_is(n, "title"))
			return n;
		n = fr_ex_next(n, root, 0);
	}
	return NULL;
}

/* Whether an h1 or h2 of the page has exactly the text t. */
static int
heading_is(xmlDoc *doc, const char *t)
{
	xmlNode *root = xmlDocGetRootElement(doc);

	for (xmlNode *n = root; n; n = fr_ex_next(n, root, 0)) {
		if (fr_ex_is(n, "h1") || fr_ex_is(n, "h2")) {
			char *h = fr_ex_text(n);
			int eq = h && !strcmp(h, t);

			free(h);
			if (eq)
				return 1;
		}
	}
	return 0;
}

char *
fr_ex_doc_title(xmlDoc *doc)
{
	xmlNode *te = title_element(doc), *root = xmlDocGetRootElement(doc);
	char *orig, *cur;
	int hier_seen = 0;
	size_t n_sep = 0, last_sep = 0, wc;

	orig = te ? fr_ex_text(te) : strdup("");
	if (!orig || !orig[0])
		return orig;
	/* " X " separators */
	for (size_t i = 0; orig[i]; i++) {
		int hier;
		size_t l;

		if (orig[i] != ' ' || !(l = sep_at(orig + i + 1, &hier)) || orig[i + 1 + l] != ' ')
			continue;
		n_sep++;
		last_sep = i;
		hier_seen |= hier;
	}
	if (n_sep) {
		cur = strndup(orig, last_sep);
		if (!cur)
			goto oom;
		if (fr_ex_word_count(cur) < 3) {
			/* drop everything up to the first separator character */
			size_t i = 0, l = 0;
			int hier;

			free(cur);
			while (orig[i] && !(l = sep_at(orig + i, &hier)))
				i++;
			cur = strdup(orig + i + l);
		}
	} else if (strstr(orig, ": ")) {
		if (heading_is(doc, orig)) {
			cur = strdup(orig);
		} else {
			const char *last = strrchr(orig, ':');

			cur = strdup(last + 1);
			if (cur && fr_ex_word_count(cur) < 3) {
				free(cur);
				cur = strdup(strchr(orig, ':') + 1);
			} else if (cur) {
				char *head = strndup(orig, (size_t)(strchr(orig, ':') - orig));

				if (!head) {
					free(cur);
					goto oom;
				}
				if (fr_ex_word_count(head) > 5) {
					free(cur);
					cur = strdup(orig);
				}
				free(head);
			}
		}
	} else {
		size_t len = fr_ex_utf8_len(orig), n_h1 = 0;
		xmlNode *h1 = NULL;

		cur = NULL;
		if (len > 150 || len < 15) {
			for (xmlNode *n = root; n; n = fr_ex_next(n, root, 0))
				if (fr_ex_is(n, "h1")) {
					n_h1++;
					h1 = n;
				}
			if (n_h1 == 1)
				cur = fr_ex_text(h1);
			else
				cur = strdup(orig);
		} else {
			cur = strdup(orig);
		}
	}
	if (!cur)
		goto oom;
	fr_ex_squash(cur);
	wc = fr_ex_word_count(cur);
	if (wc <= 4) {
		/* orig with separator runs dropped: its word count */
		char *bare = strdup(orig);
		size_t w = 0;

		if (!bare) {
			free(cur);
			goto oom;
		}
		for (size_t i = 0; orig[i];) {
			int hier;
			size_t l = sep_at(orig + i, &hier);

			if (l) {
				i += l;
				continue;
			}
			bare[w++] = orig[i++];
		}
		bare[w] = '\0';
		if (!hier_seen || wc != fr_ex_word_count(bare) - 1) {
			free(cur);
			cur = orig;
			orig = NULL;
		}
		free(bare);
	}
	free(orig);
	return cur;
oom:
	free(orig);
	return NULL;
}
