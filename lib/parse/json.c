/* json.c - JSON Feed 1.0 and 1.1 (https://jsonfeed.org/version/1.1) with
 * json-c: the tokener runs with a depth limit, the tree is read into the
 * same builder as the XML formats. */
#include "core/err.h"
#include "parse/feed_internal.h"

#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

static const char *
jstr(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!o || !json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

static char *
jdup(struct json_object *o, const char *key)
{
	const char *s = jstr(o, key);

	return s && *s ? strdup(s) : NULL;
}

/* The first author's name: "authors" (1.1) before "author" (1.0). */
static char *
author_of(struct json_object *o)
{
	struct json_object *v;

	if (json_object_object_get_ex(o, "authors", &v) && json_object_is_type(v, json_type_array)) {
		for (size_t i = 0; i < json_object_array_length(v); i++) {
			char *name = jdup(json_object_array_get_idx(v, i), "name");

			if (name)
				return name;
		}
	}
	if (json_object_object_get_ex(o, "author", &v) && json_object_is_type(v, json_type_object))
		return jdup(v, "name");
	return NULL;
}

static void
item(struct feedb *b, struct json_object *it)
{
	struct json_object *v;
	const char *s;
	char *html;

	if (!json_object_is_type(it, json_type_object) || fr_feedb_item_begin(b) != 0)
		return;
	/* id is a string; 1.0 feeds sometimes give a number. */
	if (json_object_object_get_ex(it, "id", &v)) {
		if (json_object_is_type(v, json_type_string))
			fr_feedb_item_str(b, IF_ID, strdup(json_object_get_string(v)), 1);
		else if (json_object_is_type(v, json_type_int))
			fr_feedb_item_str(b, IF_ID, strdup(json_object_get_string(v)), 1);
	}
	if ((s = jstr(it, "url")) != NULL)
		fr_feedb_item_str(b, IF_LINK, fr_feed_resolve(b->base_url, s), 1);
	else if ((s = jstr(it, "external_url")) != NULL)
		fr_feedb_item_str(b, IF_LINK, fr_feed_resolve(b->base_url, s), 2);
	fr_feedb_item_str(b, IF_TITLE, jdup(it, "title"), 1);
	fr_feedb_item_str(b, IF_SUMMARY, jdup(it, "summary"), 1);
	html = jdup(it, "content_html");
	if (html) {
		char *r = fr_feed_resolve_html(html, b->base_url);

		if (r != html)
			free(html);
		fr_feedb_item_str(b, IF_CONTENT, r, 1);
	} else {
		fr_feedb_item_str(b, IF_CONTENT, jdup(it, "content_text"), 2);
	}
	if ((s = jstr(it, "date_published")) != NULL)
		fr_feedb_item_date(b, IF_PUB, s, strlen(s), 1);
	if ((s = jstr(it, "date_modified")) != NULL)
		fr_feedb_item_date(b, IF_UPD, s, strlen(s), 1);
	fr_feedb_item_str(b, IF_AUTHOR, author_of(it), 1);
	if (json_object_object_get_ex(it, "tags", &v) && json_object_is_type(v, json_type_array)) {
		for (size_t i = 0; i < json_object_array_length(v); i++) {
			struct json_object *t = json_object_array_get_idx(v, i);

			if (json_object_is_type(t, json_type_string))
				fr_feedb_item_tag(b, strdup(json_object_get_string(t)));
		}
	}
	if (json_object_object_get_ex(it, "attachments", &v) &&
	    json_object_is_type(v, json_type_array)) {
		for (size_t i = 0; i < json_object_array_length(v); i++) {
			struct json_object *a = json_object_array_get_idx(v, i), *sz;
			int64_t len = -1;

			if (!(s = jstr(a, "url")))
				continue;
			if (json_object_object_get_ex(a, "size_in_bytes", &sz) &&
			    (json_object_is_type(sz, json_type_int) ||
			     json_object_is_type(sz, json_type_double)) &&
			    json_object_get_int64(sz) >= 0)
				len = json_object_get_int64(sz);
			fr_feedb_item_enclosure(b, fr_feed_resolve(b->base_url, s), jdup(a, "mime_type"), len);
		}
	}
	fr_feedb_item_end(b);
}

int
fr_feed_parse_json(struct feedb *b, const char *buf, size_t len, unsigned max_depth, char *err,
                size_t errlen)
{
	struct json_tokener *tok = json_tokener_new_ex((int)(max_depth > 1024 ? 1024 : max_depth));
	struct json_object *root, *v;
	const char *ver, *s;
	size_t end;
	int rc = 0;

	if (!tok)
		return fr_errf(err, errlen, "out of memory");
	if (len > INT32_MAX) {
		json_tokener_free(tok);
		return fr_errf(err, errlen, "not a feed: JSON too large");
	}
	root = json_tokener_parse_ex(tok, buf, (int)len);
	if (!root) {
		enum json_tokener_error je = json_tokener_get_error(tok);

		rc = fr_errf(err, errlen, "not a feed: JSON at byte %zu: %s",
		             json_tokener_get_parse_end(tok),
		             je == json_tokener_continue ? "unexpected end of data"
		                                         : json_tokener_error_desc(je));
		json_tokener_free(tok);
		return rc;
	}
	end = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	ver = jstr(root, "version");
	/* The version is a jsonfeed.org URL; some feeds write "1.0" with an
	 * items array. */
	if (!json_object_is_type(root, json_type_object) || !ver ||
	    (!strstr(ver, "jsonfeed.org/version/") &&
	     !(json_object_object_get_ex(root, "items", &v) &&
	       json_object_is_type(v, json_type_array)))) {
		json_object_put(root);
		return fr_errf(err, errlen, "not a feed: JSON without a jsonfeed.org version");
	}
	b->f->version = strdup(strstr(ver, "1.1") ? "json11" : "json1");
	b->f->encoding = strdup("utf-8");
	if (!b->f->version || !b->f->encoding)
		b->oom = 1;
	while (end < len && (buf[end] == ' ' || buf[end] == '\n' || buf[end] == '\r' ||
	                     buf[end] == '\t'))
		end++;
	if (end < len)
		fr_feedb_bozo(b, "byte %zu: data after the JSON object", end);
	fr_feedb_feed_str(b, FF_TITLE, jdup(root, "title"), 1);
	if ((s = jstr(root, "home_page_url")) != NULL)
		fr_feedb_feed_str(b, FF_LINK, fr_feed_resolve(b->base_url, s), 1);
	/* WebSub: feed_url is the topic, hubs[] the hubs (the first with a URL). */
	if ((s = jstr(root, "feed_url")) != NULL && !(b->f->self = fr_feed_resolve(b->base_url, s)))
		b->oom = 1;
	if (json_object_object_get_ex(root, "hubs", &v) && json_object_is_type(v, json_type_array))
		for (size_t i = 0; i < json_object_array_length(v) && !b->f->hub; i++) {
			const char *hu = jstr(json_object_array_get_idx(v, i), "url");

			if (hu && *hu && !(b->f->hub = fr_feed_resolve(b->base_url, hu)))
				b->oom = 1;
		}
	fr_feedb_feed_str(b, FF_SUBTITLE, jdup(root, "description"), 1);
	fr_feedb_feed_str(b, FF_LANGUAGE, jdup(root, "language"), 1);
	fr_feedb_feed_str(b, FF_AUTHOR, author_of(root), 1);
	if (json_object_object_get_ex(root, "items", &v) && json_object_is_type(v, json_type_array))
		for (size_t i = 0; i < json_object_array_length(v); i++)
			item(b, json_object_array_get_idx(v, i));
	json_object_put(root);
	return 0;
}
