/* lines.c - chunked line reading over zlib's gzread, which reads plain
 * files as they are. */
#include "core/lines.h"

#include "core/err.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define READ_CHUNK (1u << 20) /* bytes per gzread */

int
fr_lines_open(struct fr_lines *r, const char *path, char *err, size_t errlen)
{
	memset(r, 0, sizeof(*r));
	r->path = path;
	r->buf = malloc(READ_CHUNK + 1);
	if (!r->buf)
		return fr_errf(err, errlen, "%s: out of memory", path);
	errno = 0;
	/* gzopen reads plain files as they are: gzip is told by its magic bytes. */
	r->gz = gzopen(path, "rb");
	if (!r->gz) {
		free(r->buf);
		r->buf = NULL;
		return fr_errf(err, errlen, "%s: cannot open: %s", path,
		               errno ? strerror(errno) : "out of memory");
	}
	gzbuffer(r->gz, 256 * 1024);
	return 0;
}

void
fr_lines_close(struct fr_lines *r)
{
	if (r->gz)
		gzclose(r->gz);
	free(r->buf);
	r->gz = NULL;
	r->buf = NULL;
}

/* Moves the unread tail to the front and reads more after it. */
static int
fill(struct fr_lines *r, char *err, size_t errlen)
{
	size_t keep = r->end - r->beg;
	int got, errnum;
	const char *msg;

	if (keep > FR_LINES_CAP)
		return fr_errf(err, errlen, "%s:%lu: line is longer than %u bytes", r->path,
		               r->line + 1, FR_LINES_CAP);
	memmove(r->buf, r->buf + r->beg, keep);
	r->beg = 0;
	r->end = keep;
	got = gzread(r->gz, r->buf + keep, (unsigned)(READ_CHUNK - keep));
	if (got > 0) {
		r->end += (size_t)got;
		return 0;
	}
	msg = gzerror(r->gz, &errnum);
	if (got < 0 || errnum != Z_OK) {
		/* A truncated gzip stream shows as Z_BUF_ERROR at its end. */
		size_t plen = strlen(r->path);

		if (errnum == Z_ERRNO)
			msg = strerror(errno);
		else if (errnum == Z_BUF_ERROR)
			msg = "gzip data ends early (truncated file?)";
		else if (strncmp(msg, r->path, plen) == 0 && strncmp(msg + plen, ": ", 2) == 0)
			msg += plen + 2; /* zlib prefixes the path we already give */
		return fr_errf(err, errlen, "%s:%lu: read error: %s", r->path, r->line + 1, msg);
	}
	r->eof = 1;
	return 0;
}

/* Next line, NUL-terminated in place, without its CR LF and (on line 1) a
 * UTF-8 byte order mark. Returns 1 with *out and *len set, 0 at the end of
 * the file, -1 with err set. */
int
fr_lines_next(struct fr_lines *r, char **out, size_t *len, char *err, size_t errlen)
{
	for (;;) {
		char *b = r->buf + r->beg;
		size_t avail = r->end - r->beg, n;
		char *nl = memchr(b, '\n', avail);

		if (nl) {
			n = (size_t)(nl - b);
			r->beg += n + 1;
		} else if (r->eof) {
			if (avail == 0)
				return 0;
			n = avail; /* a last line without a newline */
			r->beg = r->end;
		} else {
			if (fill(r, err, errlen) != 0)
				return -1;
			continue;
		}
		r->line++;
		if (n > FR_LINES_CAP)
			return fr_errf(err, errlen, "%s:%lu: line is longer than %u bytes", r->path,
			               r->line, FR_LINES_CAP);
		b[n] = '\0';
		if (n > 0 && b[n - 1] == '\r')
			b[--n] = '\0';
		if (r->line == 1 && n >= 3 && memcmp(b, "\xEF\xBB\xBF", 3) == 0) {
			b += 3;
			n -= 3;
		}
		*out = b;
		*len = n;
		return 1;
	}
}

long
fr_csv_split(char *s, size_t n, struct fr_field *f, size_t max, const char **why)
{
	char *p = s, *end = s + n;
	long k = 0;

	for (;;) {
		char *start = p, *stop;

		if (p < end && *p == '"') {
			char *w = p, *r = p + 1;

			for (;;) {
				char *q = memchr(r, '"', (size_t)(end - r));

				if (!q) {
					*why = "a quoted field has no closing quote";
					return -1;
				}
				memmove(w, r, (size_t)(q - r));
				w += q - r;
				if (q + 1 < end && q[1] == '"') {
					*w++ = '"';
					r = q + 2;
					continue;
				}
				r = q + 1;
				break;
			}
			if (r < end && *r != ',') {
				*why = "text after the closing quote of a field";
				return -1;
			}
			stop = w;
			p = r;
		} else {
			/* Fields are short: a plain loop beats a memchr call. */
			while (p < end && *p != ',')
				p++;
			stop = p;
		}
		if ((size_t)k < max) {
			f[k].s = start;
			f[k].n = (size_t)(stop - start);
		}
		k++;
		*stop = '\0';
		if (p == end)
			return k;
		p++; /* past the comma */
	}
}
