/* dbopt.h - what the store commands share: where the store is (--db PATH,
 * else $FRESHET_DB, else ./freshet.db), opening it with a message, and
 * output helpers (UTF-8 for JSON, CSV fields, table cells). */
#ifndef FR_DBOPT_H
#define FR_DBOPT_H

#include <stddef.h>
#include <stdio.h>

struct fr_store;

/* The store's path: arg (the value of --db) when not NULL, else
 * $FRESHET_DB when set and not empty, else "freshet.db". Borrowed. */
const char *dbopt_path(const char *arg);

/* Opens the store at dbopt_path(arg), creating it when absent. Returns the
 * handle (close with fr_store_close), or NULL after printing
 * "freshet SUB: <reason naming the path>" on stderr. */
struct fr_store *dbopt_open(const char *sub, const char *arg);
/* The same with fr_store_open_flags's flags: FR_STORE_READ_ONLY for the
 * commands that only read (a missing store is then an error, not a new
 * one). */
struct fr_store *dbopt_open_flags(const char *sub, const char *arg, unsigned flags);

/* s as valid UTF-8 for JSON output: s itself when it is valid (or NULL),
 * else a malloc'd copy with each invalid byte replaced by U+FFFD, also
 * stored in *tmp for the caller to free (*tmp is NULL otherwise). */
const char *dbopt_utf8(const char *s, char **tmp);

/* Writes s as one RFC 4180 CSV field: quoted (with "" for a quote) when it
 * holds a comma, a quote, CR or LF; NULL as an empty field. No control
 * character but tab and LF is written: CR LF and a lone CR become LF; other
 * C0 controls, DEL and C1 controls (U+0080..U+009F) become U+FFFD, as does
 * invalid UTF-8. */
void dbopt_csv_field(FILE *f, const char *s);

/* Writes at most width characters of s ("..." marking a cut), control
 * characters (C0, DEL, C1) as spaces and invalid UTF-8 as U+FFFD, padded
 * with spaces to width when pad. */
void dbopt_cell(FILE *f, const char *s, size_t width, int pad);

struct json_object;
/* Writes o on one line to f, as json-c does (plain, '/' unescaped) but
 * with DEL and C1 controls escaped too (\u007f, \u0080..\u009f; json-c
 * escapes C0): no control character reaches a terminal from a string. */
void dbopt_json_print(FILE *f, struct json_object *o);
/* Adds key to the json-c object o: s as a string (invalid UTF-8 replaced as
 * by dbopt_utf8), or JSON null when s is NULL. */
void dbopt_json_str(struct json_object *o, const char *key, const char *s);

#endif
