/* test_furl.c - pagination by specific numbers: the digest's examples of
 * every software, first-page forms, pagers with gaps, sub-board links that
 * must not pass for pages, last-activity URLs. */
#include "forum/furl.h"

#include "test.h"

#include <stdint.h>
#include <stdlib.h>

static void
diff1_finds_the_one_number(void)
{
	struct fr_furl_num n;

	CHECK(fr_furl_diff1("http://h/forum-28-1.html", "http://h/forum-28-2.html", &n));
	CHECK(n.a == 1 && n.b == 2 && n.from_right == 0);
	CHECK(fr_furl_diff1("http://h/thread-147-1-1.html", "http://h/thread-147-2-1.html", &n));
	CHECK(n.a == 1 && n.b == 2 && n.from_right == 1);
	CHECK(fr_furl_diff1("http://h/index.php/topic,250.0.html", "http://h/index.php/topic,250.10.html",
			    &n));
	CHECK(n.a == 0 && n.b == 10);
	CHECK(!fr_furl_diff1("http://h/t=5", "http://h/t=5", &n));
	CHECK(!fr_furl_diff1("http://h/a-1-2", "http://h/a-2-3", &n)); /* two numbers differ */
	CHECK(!fr_furl_diff1("http://h/t=5", "http://h/t=5a", &n));
	CHECK(!fr_furl_diff1("http://h/t=07", "http://h/t=7", &n));
	CHECK(!fr_furl_diff1("http://h/x?t=5", "http://h/y?t=6", &n));
}

static void
first_form_is_the_page_without_its_chunk(void)
{
	int64_t num;
	size_t off, len;

	CHECK(fr_furl_first_form("http://h/showthread.php?t=5", "http://h/showthread.php?t=5&page=2",
				 &num, &off, &len));
	CHECK(num == 2 && len == 1);
	CHECK(fr_furl_first_form("http://h/forumdisplay.php?f=460",
				 "http://h/forumdisplay.php?f=460&page=2", &num, NULL, NULL));
	CHECK(fr_furl_first_form("http://h/threads/a-b.12/", "http://h/threads/a-b.12/page-3", &num,
				 NULL, NULL));
	CHECK(num == 3);
	CHECK(fr_furl_first_form("http://h/forum/kids/x/", "http://h/forum/kids/x/2.html", &num, NULL,
				 NULL));
	CHECK(num == 2);
	CHECK(fr_furl_first_form("http://h/viewtopic.php?t=381", "http://h/viewtopic.php?t=381&start=370",
				 &num, NULL, NULL));
	CHECK(num == 370);
	/* Another thread, not a page: the chunk would hold two numbers or
	 * split one. */
	CHECK(!fr_furl_first_form("http://h/viewtopic.php?t=38", "http://h/viewtopic.php?t=381&start=10",
				  &num, NULL, NULL));
	CHECK(!fr_furl_first_form("http://h/t=3", "http://h/t=31", &num, NULL, NULL));
	CHECK(!fr_furl_first_form("http://h/a", "http://h/a/b/c/d/e/f/g/h/i/j/k/l/m/n/1", &num, NULL,
				  NULL));
}

static void
pager_vbulletin_first_page(void)
{
	const char *links[] = {
		"http://h/forumdisplay.php?f=3&page=2", "http://h/forumdisplay.php?f=3&page=3",
		"http://h/forumdisplay.php?f=3&page=9", "http://h/forumdisplay.php?f=1", /* parent */
		"http://h/member.php?u=5",              "http://h/forumdisplay.php?f=3&page=2",
	};
	struct fr_furl_pager p;

	CHECK(fr_furl_pager_find("http://h/forumdisplay.php?f=3", links, 6, -1, &p) == 1);
	CHECK(p.n == 4);
	CHECK(p.cur == 0);
	CHECK(p.step == 1);
	CHECK_STR(fr_furl_pager_first(&p), "http://h/forumdisplay.php?f=3");
	CHECK_STR(fr_furl_pager_last(&p), "http://h/forumdisplay.php?f=3&page=9");
	CHECK_STR(fr_furl_pager_next(&p), "http://h/forumdisplay.php?f=3&page=2");
	CHECK(fr_furl_pager_prev(&p) == NULL);
	fr_furl_pager_free(&p);
}

static void
pager_phpbb_offsets_with_a_gap(void)
{
	/* Page 3 of 38 (offset 20), the pager shows 1 2 3 4 ... 38. */
	const char *links[] = {
		"http://h/viewtopic.php?t=381",          "http://h/viewtopic.php?t=381&start=10",
		"http://h/viewtopic.php?t=381&start=30", "http://h/viewtopic.php?t=381&start=370",
	};
	struct fr_furl_pager p;

	CHECK(fr_furl_pager_find("http://h/viewtopic.php?t=381&start=20", links, 4, -1, &p) == 1);
	CHECK(p.n == 5);
	CHECK(p.step == 10);
	CHECK_STR(p.pages[p.cur].url, "http://h/viewtopic.php?t=381&start=20");
	CHECK_STR(fr_furl_pager_next(&p), "http://h/viewtopic.php?t=381&start=30");
	CHECK_STR(fr_furl_pager_prev(&p), "http://h/viewtopic.php?t=381&start=10");
	fr_furl_pager_free(&p);

	/* Page 2 shows only 1 and 38: prev is the first page, next is made
	 * from the template. */
	const char *few[] = {"http://h/viewtopic.php?t=381", "http://h/viewtopic.php?t=381&start=370",
			     "http://h/viewtopic.php?t=381&start=360"};
	CHECK(fr_furl_pager_find("http://h/viewtopic.php?t=381&start=10", few, 3, -1, &p) == 1);
	CHECK_STR(fr_furl_pager_prev(&p), "http://h/viewtopic.php?t=381");
	CHECK_STR(fr_furl_pager_next(&p), "http://h/viewtopic.php?t=381&start=20");
	CHECK_STR(fr_furl_pager_last(&p), "http://h/viewtopic.php?t=381&start=370");
	/* Page numbers as fr_furl_pager_url counts them: offsets 0, 10 .. 370
	 * are pages 1, 2 .. 38. */
	CHECK(fr_furl_pager_k(&p, 0) == 1);
	CHECK(fr_furl_pager_k(&p, p.cur) == 2);
	CHECK(fr_furl_pager_k(&p, p.n - 1) == 38);
	{
		char *u = fr_furl_pager_url(&p, fr_furl_pager_k(&p, p.n - 1));
		CHECK_STR(u, "http://h/viewtopic.php?t=381&start=370");
		free(u);
	}
	fr_furl_pager_free(&p);
}

static void
pager_discuz_embedded_number(void)
{
	/* Board 28 page 1 links its pages and a sub-board (forum-2-1): the
	 * page position wins by count. */
	const char *links[] = {"http://h/forum-28-2.html", "http://h/forum-28-3.html",
			       "http://h/forum-2-1.html"};
	struct fr_furl_pager p;

	CHECK(fr_furl_pager_find("http://h/forum-28-1.html", links, 3, -1, &p) == 1);
	CHECK(p.n == 3);
	CHECK(fr_furl_pager_k(&p, 0) == 1 && fr_furl_pager_k(&p, 2) == 3);
	CHECK_STR(fr_furl_pager_next(&p), "http://h/forum-28-2.html");
	CHECK_STR(fr_furl_pager_last(&p), "http://h/forum-28-3.html");
	fr_furl_pager_free(&p);

	/* One page link and one sub-board: the learnt position decides. */
	const char *two[] = {"http://h/forum-2-1.html", "http://h/forum-28-2.html"};
	CHECK(fr_furl_pager_find("http://h/forum-28-1.html", two, 2, 0, &p) == 1);
	CHECK_STR(fr_furl_pager_last(&p), "http://h/forum-28-2.html");
	fr_furl_pager_free(&p);

	/* No pager at all. */
	const char *none[] = {"http://h/member.php?u=1", "http://h/faq.php"};
	CHECK(fr_furl_pager_find("http://h/forum-28-1.html", none, 2, -1, &p) == 0);
}

static void
pager_smf_and_xenforo(void)
{
	const char *smf[] = {"http://h/index.php?topic=250.0", "http://h/index.php?topic=250.15",
			     "http://h/index.php?topic=250.45"};
	struct fr_furl_pager p;

	CHECK(fr_furl_pager_find("http://h/index.php?topic=250.30", smf, 3, -1, &p) == 1);
	CHECK(p.step == 15);
	CHECK_STR(fr_furl_pager_prev(&p), "http://h/index.php?topic=250.15");
	CHECK_STR(fr_furl_pager_next(&p), "http://h/index.php?topic=250.45");
	CHECK_STR(fr_furl_pager_first(&p), "http://h/index.php?topic=250.0");
	fr_furl_pager_free(&p);

	const char *xf[] = {"http://h/threads/a-b.12/", "http://h/threads/a-b.12/page-2"};
	CHECK(fr_furl_pager_find("http://h/threads/a-b.12/page-3", xf, 2, -1, &p) == 1);
	CHECK_STR(fr_furl_pager_prev(&p), "http://h/threads/a-b.12/page-2");
	CHECK(fr_furl_pager_next(&p) == NULL);
	CHECK_STR(fr_furl_pager_first(&p), "http://h/threads/a-b.12/");
	fr_furl_pager_free(&p);
}

static void
pager_two_numbers_and_filters(void)
{
	/* phpBB2 board page 1: the pager appends "&topicdays=0&start=N" */
	const char *links[] = {
	    "http://h/viewforum.php?f=4&topicdays=0&start=20",
	    "http://h/viewforum.php?f=4&topicdays=0&start=40",
	    "http://h/viewforum.php?f=4&topicdays=0&start=100",
	    "http://h/viewforum.php?f=5",
	};
	struct fr_furl_pager p;

	CHECK(fr_furl_pager_find("http://h/viewforum.php?f=4", links, 4, -1, &p) == 1);
	CHECK(p.n == 4 && p.cur == 0 && p.step == 20);
	CHECK_STR(fr_furl_pager_next(&p), "http://h/viewforum.php?f=4&topicdays=0&start=20");
	CHECK_STR(fr_furl_pager_last(&p), "http://h/viewforum.php?f=4&topicdays=0&start=100");
	fr_furl_pager_free(&p);
	/* and from page 2 */
	const char *links2[] = {"http://h/viewforum.php?f=4",
	                        "http://h/viewforum.php?f=4&topicdays=0&start=40"};
	CHECK(fr_furl_pager_find("http://h/viewforum.php?f=4&topicdays=0&start=20", links2, 2, -1,
	                         &p) == 1);
	CHECK_STR(fr_furl_pager_prev(&p), "http://h/viewforum.php?f=4");
	CHECK_STR(fr_furl_pager_next(&p), "http://h/viewforum.php?f=4&topicdays=0&start=40");
	fr_furl_pager_free(&p);

	/* vBulletin-style board: post-icon filters beside a 2-page pager */
	const char *vb[] = {
	    "http://h/forumdisplay.php?forumid=46&posticon=1",
	    "http://h/forumdisplay.php?forumid=46&posticon=2",
	    "http://h/forumdisplay.php?forumid=46&posticon=3",
	    "http://h/forumdisplay.php?forumid=46&posticon=4",
	    "http://h/forumdisplay.php?forumid=46&pagenumber=2",
	    "http://h/forumdisplay.php?forumid=47",
	};
	CHECK(fr_furl_pager_find("http://h/forumdisplay.php?forumid=46", vb, 6, -1, &p) == 1);
	CHECK_STR(fr_furl_pager_next(&p), "http://h/forumdisplay.php?forumid=46&pagenumber=2");
	fr_furl_pager_free(&p);
	/* a one-page thread with "posts by this user" only: no pager */
	const char *byuser[] = {"http://h/showthread.php?threadid=9&userid=2",
	                        "http://h/showthread.php?threadid=10"};
	CHECK(fr_furl_pager_find("http://h/showthread.php?threadid=9", byuser, 2, -1, &p) == 0);
}

static void
session_ids_stripped(void)
{
	char *u[] = {
	    strdup("http://h/viewtopic.php?f=2&t=5&sid=0123456789abcdef0123456789abcdef"),
	    strdup("http://h/index.php?PHPSESSID=0123456789abcdef0123;topic=5.20"),
	    strdup("http://h/showthread.php?s=03ba67d9ff8d5d12b48b2f4b75944915&p=77"),
	    strdup("http://h/showthread.php?s=&t=7&page=2"),
	    strdup("http://h/search.php?s=forum+crawler"),
	    strdup("http://h/a;jsessionid=ABC123DEF456GHI789/b?x=1"),
	    strdup("http://h/t1?tok=Zq81xkL0pA9mW2vB7cD3&page=2"),
	    strdup("http://h/t2?tok=Zq81xkL0pA9mW2vB7cD3"),
	    strdup("http://h/t3?page=3&tok=Zq81xkL0pA9mW2vB7cD3"),
	    strdup("http://h/file?hash=aaaabbbbcccc1111dddd"),
	    strdup("http://h/x?mysess=aaaabbbbcccc1111dddd&a=1"),
	};
	size_t n = sizeof(u) / sizeof(u[0]);

	CHECK(fr_furl_strip_sessions(u, n, "mysess") == 9);
	CHECK_STR(u[0], "http://h/viewtopic.php?f=2&t=5");
	CHECK_STR(u[1], "http://h/index.php?topic=5.20");
	CHECK_STR(u[2], "http://h/showthread.php?p=77");
	CHECK_STR(u[3], "http://h/showthread.php?t=7&page=2");
	CHECK_STR(u[4], "http://h/search.php?s=forum+crawler");
	CHECK_STR(u[5], "http://h/a/b?x=1");
	CHECK_STR(u[6], "http://h/t1?page=2");
	CHECK_STR(u[7], "http://h/t2");
	CHECK_STR(u[8], "http://h/t3?page=3");
	CHECK_STR(u[9], "http://h/file?hash=aaaabbbbcccc1111dddd"); /* once: kept */
	CHECK_STR(u[10], "http://h/x?a=1");
	for (size_t i = 0; i < n; i++)
		free(u[i]);
	/* two fetches of one page: the parameter whose random value changed */
	{
		char names[64] = "mysess";

		CHECK(fr_furl_session_names("http://h/t?id=5&zz=Ab12Cd34Ef56Gh78Ij",
		                            "http://h/t?id=5&zz=Xy98Wv76Ut54Sr32Qp", names,
		                            sizeof(names)) == 1);
		CHECK_STR(names, "mysess,zz");
		CHECK(fr_furl_session_names("http://h/t?id=5&zz=Ab12Cd34Ef56Gh78Ij",
		                            "http://h/t?id=5&zz=Ab12Cd34Ef56Gh78Ij", names,
		                            sizeof(names)) == 0);
	}
}

static void
last_activity_is_the_largest_page(void)
{
	const char *row[] = {"http://h/viewtopic.php?t=381", "http://h/memberlist.php?u=35",
			     "http://h/viewtopic.php?t=381&start=10", "http://h/viewtopic.php?t=381&start=370",
			     "http://h/viewtopic.php?t=381&start=20"};

	CHECK_STR(fr_furl_last_activity("http://h/viewtopic.php?t=381", row, 5),
		  "http://h/viewtopic.php?t=381&start=370");
	const char *plain[] = {"http://h/viewtopic.php?t=381", "http://h/memberlist.php?u=35"};
	CHECK(fr_furl_last_activity("http://h/viewtopic.php?t=381", plain, 2) == NULL);
	const char *dz[] = {"http://h/thread-147-1-1.html", "http://h/thread-147-4-1.html"};
	CHECK_STR(fr_furl_last_activity("http://h/thread-147-1-1.html", dz, 2),
		  "http://h/thread-147-4-1.html");
}

static void
shapes(void)
{
	char *s = fr_furl_shape("http://h/threads/some-title-words.123/page-2");
	CHECK_STR(s, "/threads/*.#/page-#");
	free(s);
	s = fr_furl_shape("http://h/viewtopic.php?t=381&start=20");
	CHECK_STR(s, "/viewtopic.php?t=#&start=#");
	free(s);
}

int
main(void)
{
	RUN(diff1_finds_the_one_number);
	RUN(first_form_is_the_page_without_its_chunk);
	RUN(pager_vbulletin_first_page);
	RUN(pager_phpbb_offsets_with_a_gap);
	RUN(pager_discuz_embedded_number);
	RUN(pager_smf_and_xenforo);
	RUN(pager_two_numbers_and_filters);
	RUN(session_ids_stripped);
	RUN(last_activity_is_the_largest_page);
	RUN(shapes);
	return TEST_DONE();
}
