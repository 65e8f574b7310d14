# store_lock.sh - one crawler per SQLite store, and read-only commands:
# a second `run` on a store another `run` crawls is refused at once, naming
# the holder's pid, and fetches nothing; a lock file left by a killed run
# blocks nothing; `items`, `sources` and `export` read a store they cannot
# write (a read-only file, in a read-only directory too) and call a
# mistyped --db an error instead of creating an empty store there.
. "$(dirname "$0")/lib.sh"

F=$FRESHET
unset FRESHET_DB
DB=$WORK/s.db

expect_exit 0 "$F" world --out "$WORK/w" --sources 6 --days 1 --seed 3
start_server srv --world "$WORK/w" --hosts 2 --speed 60 --duration 1d --misbehave off \
	--log "$WORK/req.log" --opml "$WORK/feeds.opml"
expect_exit 0 "$F" add --db "$DB" --opml "$WORK/feeds.opml"

# ---- item 10: a second run on one SQLite store ----
"$F" run --db "$DB" --connect-to "::127.0.0.1:$PORT" --budget 6/2s --quiet \
	2>"$WORK/run1.err" >/dev/null &
rpid=$!
PIDS="$PIDS $rpid"
# The first run holds the lock once its pid is in the lock file (a state,
# not a delay), and it has fetched once the server logged a request.
for ((i = 0; i < 600; i++)); do
	[ "$(cat "$DB.lock" 2>/dev/null)" = "$rpid" ] && [ -s "$WORK/req.log" ] && break
	kill -0 "$rpid" 2>/dev/null || break
	sleep 0.05
done
expect_eq "the first run wrote its pid in $DB.lock" "$(cat "$DB.lock" 2>/dev/null)" "$rpid"
t0=$(date +%s%N)
expect_exit 1 "$F" run --db "$DB" --connect-to "::127.0.0.1:$PORT" --once
t1=$(date +%s%N)
expect_stderr_contains "another freshet run (pid $rpid) is crawling this store"
expect_stderr_contains "$DB"
expect_stdout_empty
# "At once": no fetch, no wait for the first run's end (a whole pass of
# --once would fetch six feeds; the refusal opens nothing but the lock).
check "refused within 5 s ($(((t1 - t0) / 1000000)) ms)" test $(((t1 - t0) / 1000000)) -lt 5000
check "the first run still runs" kill -0 "$rpid"
# A killed run leaves its lock file, with its pid: it must not block.
kill -9 "$rpid"
wait "$rpid" 2>/dev/null
check "the lock file stays after kill -9" test -s "$DB.lock"
expect_exit 0 "$F" run --db "$DB" --connect-to "::127.0.0.1:$PORT" --once
check "no refusal after the holder died" not grep -q "another freshet run" "$ERR"
expect_eq "the lock file is emptied at the end of a run" "$(wc -c <"$DB.lock")" 0

# Other writers are not crawlers: `add` beside a run still works.
"$F" run --db "$DB" --connect-to "::127.0.0.1:$PORT" --budget 6/2s --quiet \
	2>"$WORK/run2.err" >/dev/null &
rpid=$!
PIDS="$PIDS $rpid"
for ((i = 0; i < 600; i++)); do
	[ "$(cat "$DB.lock" 2>/dev/null)" = "$rpid" ] && break
	sleep 0.05
done
expect_exit 0 "$F" add --db "$DB" "http://h9.freshet.test/late.rss"
expect_exit 0 "$F" items --db "$DB" --limit 1
kill -TERM "$rpid"
wait "$rpid"
expect_eq "the second crawl ends cleanly on SIGTERM" "$?" 0
stop_server srv

# ---- item 12: read-only commands ----
n_sources=$("$F" sources --db "$DB" --format csv | tail -n +2 | wc -l)
n_items=$("$F" items --db "$DB" --format csv | tail -n +2 | wc -l)
check "items were stored ($n_items)" test "$n_items" -gt 0

# A mistyped --db: an error naming the path, nothing created.
for sub in items sources export; do
	args=()
	[ "$sub" = export ] && args=(--opml)
	expect_exit 1 "$F" "$sub" "${args[@]}" --db "$WORK/typo.db"
	expect_stderr_contains "freshet $sub: $WORK/typo.db: no such store"
	expect_stdout_empty
	check "$sub created no file" not test -e "$WORK/typo.db"
	expect_exit 1 env FRESHET_DB="$WORK/typo2.db" "$F" "$sub" "${args[@]}"
	check "$sub created no file (FRESHET_DB)" not test -e "$WORK/typo2.db"
done
cd "$WORK" || fatal "cd $WORK"
expect_exit 1 "$F" items
check "no ./freshet.db made" not test -e "$WORK/freshet.db"
cd - >/dev/null || fatal "cd back"
expect_exit 1 "$F" items --db "$WORK"
expect_stderr_contains "no such store"
: >"$WORK/empty.db"
expect_exit 1 "$F" sources --db "$WORK/empty.db"
expect_stderr_contains "not a freshet store"
expect_eq "an empty file stays empty" "$(wc -c <"$WORK/empty.db")" 0

# A file the reader cannot write, in a directory it cannot write. root
# writes anything, so as root the reader is nobody (setpriv), when every
# directory above $WORK lets nobody through.
RO=$WORK/ro
mkdir "$RO"
cp "$DB" "$RO/s.db" # a closed store: no -wal or -shm beside it
check "the copy has no -wal" not test -e "$RO/s.db-wal"
chmod 444 "$RO/s.db"
reader=()
if [ "$(id -u)" = 0 ]; then
	if command -v setpriv >/dev/null; then
		reader=(setpriv --reuid=65534 --regid=65534 --clear-groups)
		chmod 755 "$WORK"
		"${reader[@]}" test -r "$RO/s.db" -a -x "$F" || reader=(skip)
	else
		reader=(skip)
	fi
fi
if [ "${reader[*]-}" = skip ]; then
	e2e_say "note: read-only checks skipped (root without a way to run as nobody here)"
else
	for dirmode in 555 755; do
		chmod "$dirmode" "$RO"
		expect_exit 0 "${reader[@]}" "$F" items --db "$RO/s.db" --format csv
		expect_eq "items of a read-only file (directory $dirmode)" \
			"$(tail -n +2 "$OUT" | wc -l)" "$n_items"
		expect_exit 0 "${reader[@]}" "$F" sources --db "$RO/s.db" --format csv
		expect_eq "sources of a read-only file (directory $dirmode)" \
			"$(tail -n +2 "$OUT" | wc -l)" "$n_sources"
		expect_exit 0 "${reader[@]}" "$F" export --db "$RO/s.db" --opml
		expect_eq "export of a read-only file (directory $dirmode)" \
			"$(grep -c '<outline.*xmlUrl' "$OUT")" "$n_sources"
		# Writers still say why they cannot write.
		expect_exit 1 "${reader[@]}" "$F" add --db "$RO/s.db" "http://h9.freshet.test/x.rss"
		expect_stderr_contains "$RO/s.db"
	done
	chmod 755 "$RO"
fi

finish
