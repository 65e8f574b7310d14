# pg_lib.sh - a throwaway PostgreSQL server for tests: pg_start makes a
# cluster in a temporary directory (trust auth, listening on 127.0.0.1 only,
# its unix socket in that directory, fsync off) and starts it on a free port;
# pg_stop stops it and removes the directory. Sourced by store_pg.sh after
# lib.sh; not a test itself (CTest runs it too, which only checks it parses).
#
# As root (initdb refuses root) the server runs as the `postgres` user that
# Debian's postgresql package creates. The binaries are looked up under
# /usr/lib/postgresql/*/bin (newest first), else on PATH; when there are
# none, pg_start fails the test by name: ./dev.sh deps installs them.
#
#   pg_start          sets PG_URI (postgresql://postgres@127.0.0.1:PORT/postgres),
#                     PG_PORT, PG_BIN, PG_DIR
#   pg_createdb NAME  creates database NAME; prints its URI
#   pg_psql URI SQL   runs SQL (psql -X -A -t -q), prints the rows
#   pg_stop           stops the server (fast shutdown), removes PG_DIR

if [ "$(basename "$0")" = pg_lib.sh ]; then
	echo "e2e/pg_lib: helpers only, 0 checks"
	exit 0
fi

PG_DIR=
PG_BIN=
PG_PORT=
PG_URI=

# pg_as CMD...: runs CMD as the server's owner.
pg_as() {
	if [ "$(id -u)" = 0 ]; then
		runuser -u postgres -- "$@"
	else
		"$@"
	fi
}

pg_find_bin() {
	local d
	for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -t/ -k5,5nr); do
		[ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ] && [ -x "$d/postgres" ] && { echo "$d"; return 0; }
	done
	command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1 &&
		{ dirname "$(command -v initdb)"; return 0; }
	return 1
}

# A port nobody listens on (bash's /dev/tcp: a refused connection).
pg_free_port() {
	local p i
	for ((i = 0; i < 50; i++)); do
		p=$((20000 + (RANDOM * 32768 + RANDOM) % 40000))
		(exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null || { echo "$p"; return 0; }
	done
	return 1
}

pg_start() {
	local try
	PG_BIN=$(pg_find_bin) ||
		fatal "PostgreSQL server binaries not found (no /usr/lib/postgresql/*/bin/initdb, none on PATH): install them with ./dev.sh deps (Debian packages postgresql and libpq-dev)"
	if [ "$(id -u)" = 0 ] && ! id postgres >/dev/null 2>&1; then
		fatal "running as root but there is no 'postgres' user to run the server as (Debian's postgresql package creates it)"
	fi
	PG_DIR=$(mktemp -d "${TMPDIR:-/tmp}/freshet-pg.XXXXXX") || fatal "mktemp for the PostgreSQL cluster failed"
	chmod 755 "$PG_DIR"
	[ "$(id -u)" = 0 ] && chown postgres: "$PG_DIR"
	pg_as "$PG_BIN/initdb" -D "$PG_DIR/data" -U postgres -A trust -E UTF8 --locale=C --no-sync \
		>"$PG_DIR/initdb.log" 2>&1 || { cat "$PG_DIR/initdb.log" >&2; fatal "initdb failed"; }
	for try in 1 2 3 4 5; do
		PG_PORT=$(pg_free_port) || fatal "no free port for PostgreSQL"
		if pg_as "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w -t 30 \
			-o "-c listen_addresses=127.0.0.1 -p $PG_PORT -k $PG_DIR -c fsync=off -c full_page_writes=off -c max_connections=60" \
			start >"$PG_DIR/pg_ctl.log" 2>&1; then
			PG_URI="postgresql://postgres@127.0.0.1:$PG_PORT/postgres"
			return 0
		fi
	done
	cat "$PG_DIR/pg_ctl.log" "$PG_DIR/server.log" >&2 2>/dev/null
	fatal "the PostgreSQL server did not start (log above)"
}

pg_psql() {
	"$PG_BIN/psql" -X -A -t -q -v ON_ERROR_STOP=1 -d "$1" -c "$2"
}

pg_createdb() {
	pg_psql "$PG_URI" "CREATE DATABASE $1" >/dev/null || fatal "CREATE DATABASE $1 failed"
	echo "postgresql://postgres@127.0.0.1:$PG_PORT/$1"
}

# pg_workers N ARGS...: N `$F ARGS --worker wK --user-agent wK` side by side
# (K = 1..N; output in $WORK/wK.out and wK.err), each checked to exit 0.
pg_workers() {
	local n=$1 w rc pids=()
	shift
	for w in $(seq 1 "$n"); do
		"$F" "$@" --worker "w$w" --user-agent "w$w" >"$WORK/w$w.out" 2>"$WORK/w$w.err" &
		pids+=($!)
	done
	for w in $(seq 1 "$n"); do
		rc=0
		wait "${pids[$((w - 1))]}" || rc=$?
		expect_eq "worker w$w exits 0 ($(head -c 300 "$WORK/w$w.err"))" "$rc" 0
	done
}

pg_stop() {
	[ -n "$PG_DIR" ] || return 0
	if [ -f "$PG_DIR/data/postmaster.pid" ]; then
		pg_as "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m fast -w -t 30 stop >/dev/null 2>&1 ||
			pg_as "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m immediate -w stop >/dev/null 2>&1
	fi
	if [ "${E2E_KEEP:-0}" = 1 ]; then
		e2e_say "kept the PostgreSQL cluster in $PG_DIR"
	else
		rm -rf "$PG_DIR"
	fi
	PG_DIR=
}
