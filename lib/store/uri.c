/* uri.c - the password span of a libpq URI's userinfo (uri.h). */
#include "store/uri.h"

#include <string.h>
#include <strings.h>

int
fr_store_uri_password(const char *uri, const char **pw, const char **pw_end, const char **auth_end)
{
	const char *a = strstr(uri, "://"), *end, *at = NULL, *colon;

	if (!a)
		return -1;
	a += 3;
	end = a + strcspn(a, "/?#");
	*auth_end = end;
	for (const char *c = a; c < end; c++)
		if (*c == '@')
			at = c;
	colon = at ? memchr(a, ':', (size_t)(at - a)) : NULL;
	if (!colon)
		return 0;
	*pw = colon + 1;
	*pw_end = at;
	return 1;
}

size_t
fr_store_uri_password_param(const char *param, size_t n)
{
	return n >= 9 && strncasecmp(param, "password=", 9) == 0 ? 9 : 0;
}
