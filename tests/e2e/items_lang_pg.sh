# items_lang_pg.sh - items_lang.sh on PostgreSQL: a server started on
# loopback (pg_lib.sh) and stopped at the end. Fails (does not skip)
# without PostgreSQL binaries.
LANG_PG=1
. "$(dirname "$0")/items_lang.sh"
