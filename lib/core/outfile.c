/* outfile.c - files written whole or not at all, and mkdir -p (outfile.h). */
#include "core/outfile.h"

#include "core/err.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int
fr_outfile_open(struct fr_outfile *o, const char *dir, const char *name, char *err, size_t errlen)
{
	int fd, n1, n2;

	o->f = NULL;
	n1 = snprintf(o->path, sizeof(o->path), "%s/%s", dir, name);
	n2 = snprintf(o->tmp, sizeof(o->tmp), "%s/.%s.tmp.%ld", dir, name, (long)getpid());
	if (n1 < 0 || n2 < 0 || (size_t)n1 >= sizeof(o->path) || (size_t)n2 >= sizeof(o->tmp))
		return fr_errf(err, errlen, "%s/%s: path too long", dir, name);
	fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL, 0666);
	if (fd < 0 && errno == EEXIST) { /* left by a crashed run with our pid */
		unlink(o->tmp);
		fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL, 0666);
	}
	if (fd < 0)
		return fr_errf(err, errlen, "%s: %s", o->tmp, strerror(errno));
	o->f = fdopen(fd, "w");
	if (!o->f) {
		int e = errno;
		close(fd);
		unlink(o->tmp);
		return fr_errf(err, errlen, "%s: %s", o->tmp, strerror(e));
	}
	setvbuf(o->f, NULL, _IOFBF, 1 << 20);
	return 0;
}

int
fr_outfile_open_path(struct fr_outfile *o, const char *path, char *err, size_t errlen)
{
	const char *slash = strrchr(path, '/');
	char dir[PATH_MAX], e[FR_ERRLEN];

	if (!slash) {
		snprintf(dir, sizeof(dir), ".");
	} else {
		size_t n = slash == path ? 1 : (size_t)(slash - path); /* "/x": the root */
		if (n >= sizeof(dir)) {
			o->f = NULL;
			return fr_errf(err, errlen, "%s: path too long", path);
		}
		memcpy(dir, path, n);
		dir[n] = '\0';
	}
	if (slash && !slash[1]) {
		o->f = NULL;
		return fr_errf(err, errlen, "%s: a file name is needed, not a directory", path);
	}
	if (fr_outfile_open(o, dir, slash ? slash + 1 : path, e, sizeof(e)) < 0) {
		/* "TMP: reason" named the temporary file: name the path instead */
		size_t tl = strlen(o->tmp);
		const char *why = !strncmp(e, o->tmp, tl) && e[tl] == ':' ? e + tl + 2 : e;
		return fr_errf(err, errlen, "%s: %s", path, why);
	}
	snprintf(o->path, sizeof(o->path), "%s", path);
	return 0;
}

void
fr_outfile_abort(struct fr_outfile *o)
{
	if (!o->f)
		return;
	fclose(o->f);
	o->f = NULL;
	unlink(o->tmp);
}

int
fr_outfile_commit(struct fr_outfile *o, char *err, size_t errlen)
{
	int bad = fflush(o->f) != 0 || ferror(o->f) || fsync(fileno(o->f)) != 0;
	int e = errno;

	if (fclose(o->f) != 0 && !bad) {
		bad = 1;
		e = errno;
	}
	o->f = NULL;
	if (!bad && rename(o->tmp, o->path) != 0) {
		bad = 1;
		e = errno;
	}
	if (bad) {
		unlink(o->tmp);
		return fr_errf(err, errlen, "%s: %s", o->path, strerror(e));
	}
	return 0;
}

int
fr_mkdirs(const char *dir, char *err, size_t errlen)
{
	char path[PATH_MAX];
	size_t n = strlen(dir);
	struct stat st;

	if (n == 0)
		return fr_errf(err, errlen, "empty directory name");
	if (n >= sizeof(path))
		return fr_errf(err, errlen, "%s: path too long", dir);
	memcpy(path, dir, n + 1);
	for (size_t i = 1; i <= n; i++) {
		if (path[i] != '/' && path[i] != '\0')
			continue;
		char c = path[i];
		path[i] = '\0';
		if (mkdir(path, 0777) != 0 && errno != EEXIST)
			return fr_errf(err, errlen, "%s: %s", path, strerror(errno));
		path[i] = c;
	}
	if (stat(dir, &st) != 0)
		return fr_errf(err, errlen, "%s: %s", dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return fr_errf(err, errlen, "%s: not a directory", dir);
	return 0;
}
