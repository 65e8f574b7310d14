# restart_gap.sh - a host's gap runs across restarts: `freshet run --once`
# twice in a row against `freshet serve`, where h9's robots.txt asks for a
# 2 s Crawl-delay. The first run ends a moment after its last request to
# h9; the second, started at once, knows neither that request nor the
# Crawl-delay until it has read robots.txt again, and must still leave h9
# alone for its 2 s. Checked on the crawler's own request log (send times):
# every pair of requests to h9, across the two runs, at least 2 s apart;
# every other host's at least 1 s.
. "$(dirname "$0")/lib.sh"

F=$FRESHET
DB=$WORK/gap.db

expect_exit 0 "$F" world --out "$WORK/w" --sources 30 --days 2 --seed 3
SRV=(--world "$WORK/w" --hosts 10 --misbehave off --api-limit off --speed 60 --duration 2d
	--log "$WORK/req.log" --opml "$WORK/feeds.opml")
start_server srv "${SRV[@]}"
expect_exit 0 "$F" add --db "$DB" --opml "$WORK/feeds.opml"
for run in 1 2; do
	expect_exit 0 "$F" run --db "$DB" --connect-to "::127.0.0.1:$PORT" --once --timeout 10 \
		--request-log "$WORK/sent.log"
	cp "$ERR" "$WORK/run$run.err"
done
stop_server srv

n9=$(grep -c '//h9\.freshet\.test/' "$WORK/sent.log")
r9=$(grep -c '//h9\.freshet\.test/robots\.txt' "$WORK/sent.log")
e2e_say "h9: $n9 requests over the two runs, $r9 of them robots.txt"
check "both runs asked h9 (robots.txt each time, and its feeds)" test "$r9" -eq 2 -a "$n9" -ge 6
awk -F'\t' '{ split($6, u, "/"); printf "%s\t%s\n", $1, u[3] }' "$WORK/sent.log" |
	sort -t"$(printf '\t')" -k2,2 -k1,1n |
	awk -F'\t' '$2 == h { d = $1 - t; if (!(h in m) || d < m[h]) m[h] = d }
		{ h = $2; t = $1 }
		END { for (k in m) printf "%s %.6f\n", k, m[k] }' | sort >"$WORK/gaps"
e2e_say "smallest gap per host, as sent: $(tr '\n' ' ' <"$WORK/gaps")"
check "h9 never asked sooner than its Crawl-delay, across the restart" \
	awk '$1 == "h9.freshet.test" { f = 1; if ($2 < 2) exit 1 } END { exit !f }' "$WORK/gaps"
check "no host asked sooner than 1 s, across the restart" \
	awk '$2 < 1 { exit 1 } END { exit NR < 10 }' "$WORK/gaps"
finish
