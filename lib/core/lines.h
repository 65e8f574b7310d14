/* lines.h - reading a text file line by line, and splitting CSV lines, plain or gzip-compressed
 * (told by its magic bytes), in 1 MiB chunks, each line split in place: no
 * allocation per line. Lines are capped; errors name the file and line. */
#ifndef FR_CORE_LINES_H
#define FR_CORE_LINES_H

#include <stddef.h>
#include <zlib.h>

#define FR_LINES_CAP (64u * 1024) /* longest line accepted, newline excluded */

struct fr_lines {
	gzFile gz;
	const char *path;
	char *buf; /* READ_CHUNK + 1: room for a NUL after a final unterminated line */
	size_t beg, end;
	int eof;
	unsigned long line; /* number of the line last returned, 1-based */
};

/* Opens path. Returns 0, or -1 with err set ("PATH: cannot open: reason").
 * Close with fr_lines_close, also after a failed read. */
int fr_lines_open(struct fr_lines *r, const char *path, char *err, size_t errlen);
void fr_lines_close(struct fr_lines *r);

/* Next line, NUL-terminated in place (valid until the next call), without
 * its CR LF and (on line 1) a UTF-8 byte order mark. Returns 1 with *out and
 * *len set, 0 at the end of the file, -1 with err set ("PATH:LINE: reason"
 * for a line over FR_LINES_CAP or a read error). r->line is the number of
 * the line last returned. */
int fr_lines_next(struct fr_lines *r, char **out, size_t *len, char *err, size_t errlen);

/* A field of a CSV line, NUL-terminated in place. */
struct fr_field {
	char *s;
	size_t n;
};

/* Splits the line s[0..n) (with s[n] writable) at commas, unquoting quoted
 * fields in place ("" is a quote; unquoting only shrinks) and NUL-terminating
 * each field. Sets the first max fields; returns how many there are, or -1
 * with *why set (a static string) on bad quoting. */
long fr_csv_split(char *s, size_t n, struct fr_field *f, size_t max, const char **why);

#endif
