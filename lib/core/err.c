/* err.c - formatting of library error messages. */
#include "core/err.h"

#include <stdarg.h>
#include <stdio.h>

int
fr_errf(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (!err || len == 0)
		return -1;
	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -1;
}
