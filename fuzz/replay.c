/* replay.c - the seed-replay driver linked into every harness when it is not
 * built for libFuzzer: runs LLVMFuzzerTestOneInput on every regular file
 * under the directories (recursively, in sorted order) or files given. Exits
 * 1 when an argument cannot be read or nothing was replayed; a broken promise
 * in a harness aborts. Files larger than REPLAY_MAX are skipped with a note. */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define REPLAY_MAX (16u << 20)

static const char *prog = "fuzz";

static int
replay_file(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	size_t len;

	if (!f) {
		fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(errno));
		return -1;
	}
	buf = malloc(REPLAY_MAX + 1);
	if (!buf) {
		fclose(f);
		fprintf(stderr, "%s: out of memory\n", prog);
		return -1;
	}
	len = fread(buf, 1, REPLAY_MAX + 1, f);
	if (ferror(f)) {
		fprintf(stderr, "%s: %s: read error\n", prog, path);
		free(buf);
		fclose(f);
		return -1;
	}
	fclose(f);
	if (len > REPLAY_MAX) {
		fprintf(stderr, "%s: %s: larger than %u bytes, skipped\n", prog, path, REPLAY_MAX);
		free(buf);
		return 0;
	}
	fprintf(stderr, "%s: %s (%zu bytes)\n", prog, path, len);
	LLVMFuzzerTestOneInput(buf, len);
	free(buf);
	(*n)++;
	return 0;
}

static int
cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int replay_path(const char *path, size_t *n);

static int
replay_dir(const char *dir, size_t *n)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	size_t k = 0, cap = 0;
	int rc = 0;

	if (!d) {
		fprintf(stderr, "%s: %s: %s\n", prog, dir, strerror(errno));
		return -1;
	}
	while ((e = readdir(d)) != NULL) {
		size_t sz;

		if (e->d_name[0] == '.')
			continue;
		if (k == cap) {
			char **p = realloc(names, (cap = cap ? cap * 2 : 32) * sizeof(*names));

			if (!p) {
				rc = -1;
				break;
			}
			names = p;
		}
		sz = strlen(dir) + strlen(e->d_name) + 2;
		names[k] = malloc(sz);
		if (!names[k]) {
			rc = -1;
			break;
		}
		snprintf(names[k], sz, "%s/%s", dir, e->d_name);
		k++;
	}
	closedir(d);
	/* Sorted, so a failing run names the same order every time. */
	if (k)
		qsort(names, k, sizeof(*names), cmp_names);
	for (size_t i = 0; i < k; i++) {
		if (rc == 0 && replay_path(names[i], n) != 0)
			rc = -1;
		free(names[i]);
	}
	free(names);
	return rc;
}

static int
replay_path(const char *path, size_t *n)
{
	struct stat st;

	if (stat(path, &st) != 0) {
		fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(errno));
		return -1;
	}
	if (S_ISDIR(st.st_mode))
		return replay_dir(path, n);
	if (S_ISREG(st.st_mode))
		return replay_file(path, n);
	return 0;
}

int
main(int argc, char **argv)
{
	size_t n = 0;
	int rc = 0;
	const char *slash = strrchr(argv[0], '/');

	prog = slash ? slash + 1 : argv[0];
	if (argc < 2) {
		fprintf(stderr, "usage: %s DIR|FILE...  (replays seed inputs)\n", prog);
		return 2;
	}
	for (int i = 1; i < argc; i++)
		if (replay_path(argv[i], &n) != 0)
			rc = 1;
	if (n == 0) {
		fprintf(stderr, "%s: no inputs replayed\n", prog);
		rc = 1;
	}
	printf("%s: %zu inputs replayed%s\n", prog, n, rc ? ", with errors" : "");
	return rc;
}
