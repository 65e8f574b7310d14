/* forum_html.h - the pages of the synthetic forums: entry page, index
 * pages, thread pages and "other" pages (profiles, FAQ, login, search) in
 * the markup of each software look-alike, at a given forum time. Internal
 * to testkit/ (forums.c). */
#ifndef FR_TESTKIT_FORUM_HTML_H
#define FR_TESTKIT_FORUM_HTML_H

#include <stdint.h>

struct fr_tk_forum;
struct fr_tk_furl;
struct fr_serve_resp;

/* Renders the answer to request u for forum f, whose name on the web is
 * host, at forum time now_s (f's read lock held, its timeline covering
 * now_s): 200 with a page (malloc'd body released with free, a strong ETag
 * from its hash), or a static 404. Returns 0, or -1 on out of memory
 * (resp then holds nothing to release). */
int fr_tk_forum_html_answer(const struct fr_tk_forum *f, const char *host,
                            const struct fr_tk_furl *u, double now_s, struct fr_serve_resp *resp);

#endif
