/* outfile.h - files written whole or not at all: written under a temporary
 * name in the same directory, flushed to disk, then renamed over the final
 * name, so a reader never sees half a file. Also mkdir -p. */
#ifndef FR_CORE_OUTFILE_H
#define FR_CORE_OUTFILE_H

#include <limits.h>
#include <stddef.h>
#include <stdio.h>

struct fr_outfile {
	FILE *f; /* write here between open and commit */
	char path[PATH_MAX];
	char tmp[PATH_MAX];
};

/* Opens DIR/.NAME.tmp.PID for writing (a leftover of a crashed run with the
 * same pid is replaced), with a 1 MiB buffer. Returns 0, or -1 with err
 * naming the file. */
int fr_outfile_open(struct fr_outfile *o, const char *dir, const char *name, char *err,
		    size_t errlen);
/* Flushes, syncs and closes the file and renames it to DIR/NAME. Returns 0,
 * or -1 with err naming DIR/NAME (the temporary file is removed). */
int fr_outfile_commit(struct fr_outfile *o, char *err, size_t errlen);

/* The same for a path given whole: "dir/name", or "name" in the current
 * directory (messages name the path as given). */
int fr_outfile_open_path(struct fr_outfile *o, const char *path, char *err, size_t errlen);
/* Closes and removes the temporary file after a failed write: the final
 * file is left as it was. */
void fr_outfile_abort(struct fr_outfile *o);

/* Creates dir and its parents as needed; dir must end up a directory.
 * Returns 0, or -1 with err naming the path. */
int fr_mkdirs(const char *dir, char *err, size_t errlen);

#endif
