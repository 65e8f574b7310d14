/* schema.h - the store's SQLite schema as a list of migrations: migration
 * k takes a file from version k-1 to k (PRAGMA user_version). */
#ifndef FR_STORE_SCHEMA_H
#define FR_STORE_SCHEMA_H

#include <stddef.h>

/* NOTE: keep equal to the last migration's version (test_store checks). */
#define FR_STORE_SCHEMA_VERSION 5

struct fr_store_migration {
	int version;      /* the version the file has after this step */
	const char *what; /* one line, for errors and docs */
	const char *sql;  /* statements run in the migration's transaction */
};

/* Ordered by version, 1..FR_STORE_SCHEMA_VERSION without gaps. Never edit
 * a published step: add the next one. */
extern const struct fr_store_migration fr_store_sqlite_migrations[];
extern const size_t fr_store_sqlite_n_migrations;

#endif
