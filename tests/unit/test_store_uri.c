/* test_store_uri.c - the password span of a libpq URI's userinfo
 * (store/uri.h), which both fr_store_display_name and the PostgreSQL
 * backend's message scrubbing use, on addresses worked by hand. */
#include "test.h"

#include "store/store.h"
#include "store/uri.h"

#include <string.h>

/* The parser's answer as text: "-1", "0 END" or "1 PASSWORD END", where END
 * is what follows the authority. */
static const char *
span(const char *uri, char *buf, size_t len)
{
	const char *pw = NULL, *pw_end = NULL, *end = NULL;
	int rc = fr_store_uri_password(uri, &pw, &pw_end, &end);

	if (rc < 0)
		snprintf(buf, len, "-1");
	else if (rc == 0)
		snprintf(buf, len, "0 %s%s", end, pw || pw_end ? " (pw set)" : "");
	else
		snprintf(buf, len, "1 %.*s %s", (int)(pw_end - pw), pw, end);
	return buf;
}

static void
uri_password_span_by_hand(void)
{
	static const char *const cases[][2] = {
	    /* no "://": plain files and key=value conninfo */
	    {"freshet.db", "-1"},
	    {"/tmp/a:b@c.db", "-1"},
	    {"", "-1"},
	    {"host=h user=u password=secret dbname=d", "-1"},
	    /* no user, a user without a password */
	    {"postgresql://h:5432/d", "0 /d"},
	    {"postgresql://h", "0 "},
	    {"postgresql://u@h/d", "0 /d"},
	    {"postgresql://@h/d", "0 /d"},
	    /* user and password */
	    {"postgresql://u:hunter2@db.example:5432/crawl", "1 hunter2 /crawl"},
	    {"postgres://u:s@h?sslmode=require", "1 s ?sslmode=require"},
	    {"postgresql://u:s@h#frag", "1 s #frag"},
	    {"POSTGRESQL://u:s@h/d", "1 s /d"},
	    {"postgresql://u:@h/d", "1  /d"}, /* empty */
	    {"postgresql://:s@h/d", "1 s /d"},
	    /* '@' in the password, encoded or not: the userinfo ends at the
	     * authority's last '@'; a ':' in the password stays in it */
	    {"postgres://u:p%40ss@h/d", "1 p%40ss /d"},
	    {"postgres://u:p%40ss@w@h/d?sslmode=require", "1 p%40ss@w /d?sslmode=require"},
	    {"postgresql://u:a:b@h/d", "1 a:b /d"},
	    /* '@' and ':' after the authority are not userinfo */
	    {"postgresql://h/d?password=x", "0 /d?password=x"},
	    {"postgresql://h/u:s@d", "0 /u:s@d"},
	    {"postgresql://u@h:5432/d", "0 /d"},
	    /* the first "://" starts the authority, wherever it is */
	    {"x=1 y=a://u:s@h", "1 s "},
	};
	char buf[160];

	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++)
		CHECK_STR(span(cases[k][0], buf, sizeof(buf)), cases[k][1]);
}

/* fr_store_display_name drops exactly the span's ':' and bytes, an empty
 * password's ':' too, and shows what is no postgres URI as it is. */
static void
display_name_cuts_the_span(void)
{
	static const char *const cases[][2] = {
	    {"host=h user=u password=secret dbname=d", "host=h user=u password=secret dbname=d"},
	    {"/tmp/a:b@c.db", "/tmp/a:b@c.db"},
	    {"sqlite://u:s@h/d", "sqlite://u:s@h/d"},
	    {"postgresql://u:hunter2@h/d", "postgresql://u@h/d"},
	    {"postgresql://:s@h/d", "postgresql://@h/d"},
	    {"postgresql://u:@h/d", "postgresql://u@h/d"},
	    {"postgresql://u:a:b@h/d", "postgresql://u@h/d"},
	    {"postgres://u:p%40ss@w@h/d", "postgres://u@h/d"},
	    {"postgresql://u@h/d", "postgresql://u@h/d"},
	    {"postgresql://h/u:s@d", "postgresql://h/u:s@d"},
	};
	char buf[128];

	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++)
		CHECK_STR(fr_store_display_name(cases[k][0], buf, sizeof(buf)), cases[k][1]);
}

/* A query parameter is a password by its whole name, in any case: the
 * display name drops it and the PostgreSQL backend scrubs its value. */
static void
password_param_by_name(void)
{
	static const struct {
		const char *param;
		size_t want;
	} cases[] = {
	    {"password=s3cr", 9}, {"PassWord=x", 9},   {"password=", 9},
	    {"password", 0},      {"xpassword=1", 0}, {"passwords=1", 0},
	    {"sslpassword=k", 0}, {"user=password=", 0},
	};

	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++)
		CHECK(fr_store_uri_password_param(cases[k].param, strlen(cases[k].param)) ==
		      cases[k].want);
	/* Only the first n bytes are the parameter. */
	CHECK(fr_store_uri_password_param("password=x", 8) == 0);
	char buf[128];
	CHECK_STR(fr_store_display_name("postgresql://u@h/d?PASSWORD=a&sslmode=require&password=b",
					buf, sizeof(buf)),
		  "postgresql://u@h/d?sslmode=require");
}

int
main(void)
{
	RUN(uri_password_span_by_hand);
	RUN(display_name_cuts_the_span);
	RUN(password_param_by_name);
	return TEST_DONE();
}
