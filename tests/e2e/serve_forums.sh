# serve_forums.sh - `freshet serve --forums` end to end on 127.0.0.1, driven
# with curl --connect-to: the entry list and structure description; the
# entry page, an index page, its page 2 (each software's pagination) and a
# thread page of every style; robots.txt, other pages and 404s; the clock
# moving (a new post shows up on a busy XenForo forum, on its board's page
# 1 and on the page of its thread); the truth written on SIGTERM with that
# post in it; bad options exit 2 with a clear message.
. "$(dirname "$0")/lib.sh"

F=$FRESHET
command -v curl >/dev/null || fatal "curl is needed"

B=$WORK/body
get() {
	rm -f "$B"
	S=$(curl -s --connect-to "::127.0.0.1:$PORT" -A "serve-forums-test/1" -o "$B" \
		-w '%{http_code}' "$@")
}
has() { grep -qF -e "$1" "$B"; }

# ---- usage ----
expect_exit 0 "$F" serve --help
expect_stdout_contains "--forums N"
expect_stdout_contains "--describe FILE"
expect_exit 2 "$F" serve --forums 0
expect_stderr_contains "--forums wants a number of forums 1..10000, not '0'"
expect_exit 2 "$F" serve --forums lots
expect_stderr_contains "not 'lots'"
expect_exit 2 "$F" serve --forums 3 --hosts 2
expect_stderr_contains "--hosts does not go with --forums"
expect_exit 2 "$F" serve --forums 3 --web 2
expect_stderr_contains "give one of --world, --sites and --web, or --forums"
expect_exit 2 "$F" serve --web 3 --list "$WORK/l.txt"
expect_stderr_contains "--list goes with --forums"
expect_exit 2 "$F" serve --forums 3 --speed -2
expect_stderr_contains "--speed wants a positive number, not '-2'"
expect_exit 2 "$F" serve --forums 3 --start yesterday
expect_stderr_contains "--start: time 'yesterday'"
expect_exit 2 "$F" serve --forums 3 --duration 5x
expect_stderr_contains "--duration wants a positive span"
expect_exit 1 "$F" serve --forums 3 --list "$WORK/no/such/dir/l.txt"
expect_stderr_contains "--list $WORK/no/such/dir/l.txt"

# ---- 14 forums, one of each row; one wall second is one forum hour ----
start_server forums --forums 14 --seed 4 --speed 3600 --start 2024-03-01T12:00:00Z \
	--list "$WORK/list.txt" --describe "$WORK/desc.tsv" --truth "$WORK/truth.tsv" \
	--log "$WORK/forums.log"
check "listening line" grep -q "listening on 127.0.0.1:$PORT: 14 forums forum0..forum13.test (seed 4); clock from 2024-03-01T12:00:00Z at speed 3600" "$WORK/forums.err"
expect_eq "list lines" "$(wc -l <"$WORK/list.txt")" 14
expect_eq "list: Discuz! entry" "$(sed -n 5p "$WORK/list.txt")" "http://forum4.test/forum.php"
expect_eq "list: custom entry" "$(sed -n 6p "$WORK/list.txt")" "http://forum5.test/forum/"
expect_eq "describe lines" "$(wc -l <"$WORK/desc.tsv")" 15
expect_eq "describe: software column" "$(tail -n +2 "$WORK/desc.tsv" | cut -f3 | sort -u | tr '\n' ' ')" \
	"custom discuz phpbb smf threaded vbulletin xenforo "
expect_eq "describe: forum 3" "$(sed -n 5p "$WORK/desc.tsv" | cut -f2-8 | tr '\t' ' ')" \
	"http://forum3.test/ xenforo LAD ASC path en en-short"
expect_eq "describe: busy forums" "$(awk -F'\t' '$17 == 1 { print $1 }' "$WORK/desc.tsv" | tr '\n' ' ')" \
	"forum3.test forum11.test "

# Every forum: its entry page, a board, the board's page 2 when it has one
# (reached by the link on page 1), a thread.
powered=(phpBB vBulletin "Simple Machines" XenForo Discuz! volunteers "community of communities")
board_re=('/viewforum\.php?f=[0-9]*' '/forumdisplay\.php?f=[0-9]*' '/index\.php?board=[0-9]*\.0'
	'/forums/[a-z0-9-]*\.[0-9]*/' '/forum-[0-9]*-1\.html' '/forum/[a-z0-9-]*/' '/c/[a-z0-9-]*/')
page2_re=('/viewforum\.php?f=[0-9]*&amp;start=[0-9]*' '/forumdisplay\.php?f=[0-9]*&amp;page=2'
	'/index\.php?board=[0-9]*\.[1-9][0-9]*' '/forums/[a-z0-9-]*\.[0-9]*/page-2' '/forum-[0-9]*-2\.html'
	'/forum/[a-z0-9-]*/2\.html' '/c/[a-z0-9-]*/?page=2')
thread_re=('/viewtopic\.php?t=[0-9]*' '/showthread\.php?t=[0-9]*' '/index\.php?topic=[0-9]*\.0'
	'/threads/[a-z0-9-]*\.[0-9]*/' '/thread-[0-9]*-1-1\.html' '/forum/[a-z0-9-]*/[0-9]*-[a-z0-9-]*/'
	'/c/[a-z0-9-]*/comments/[0-9]*/[a-z0-9-]*/')
SESS='\(&amp;\(sid\|s\|PHPSESSID\)=[0-9a-z]*\)\?'
pages2=0
for k in $(seq 0 13); do
	sw=$((k % 7))
	entry=$(sed -n "$((k + 1))p" "$WORK/list.txt")
	get "$entry"
	expect_eq "forum$k entry 200" "$S" 200
	check "forum$k entry is ${powered[$sw]}" has "${powered[$sw]}"
	check "forum$k entry shows no relative date as 'invalid'" not has "invalid-time"
	# (the links may carry a session id: rows 0, 1, 2, 8)
	board=$(grep -o "href=\"${board_re[$sw]}$SESS\"" "$B" | head -n 1 | cut -d'"' -f2 | sed 's/&amp;/\&/g')
	check "forum$k entry links a board" test -n "$board"
	get "http://forum$k.test$board"
	expect_eq "forum$k board 200" "$S" 200
	thread=$(grep -o "href=\"${thread_re[$sw]}$SESS\"" "$B" | head -n 1 | cut -d'"' -f2 | sed 's/&amp;/\&/g')
	check "forum$k board lists a thread" test -n "$thread"
	p2=$(grep -o "href=\"${page2_re[$sw]}$SESS\"" "$B" | head -n 1 | cut -d'"' -f2 | sed 's/&amp;/\&/g')
	if [ -n "$p2" ]; then
		get "http://forum$k.test$p2"
		expect_eq "forum$k board page 2 ($p2) 200" "$S" 200
		pages2=$((pages2 + 1))
	fi
	get "http://forum$k.test$thread"
	expect_eq "forum$k thread 200" "$S" 200
	check "forum$k thread has a post date" has 'date-post'
done
check "page 2 of a board in most forums ($pages2)" test "$pages2" -ge 10

# robots.txt, other pages, 404s.
get http://forum0.test/robots.txt
expect_eq "robots 200" "$S" 200
expect_eq "robots text" "$(cat "$B")" "$(printf 'User-agent: *\nDisallow: /login\nDisallow: /search')"
get http://forum0.test/faq.php
expect_eq "FAQ 200" "$S" 200
get http://forum3.test/login/
expect_eq "login 200" "$S" 200
check "login form" has 'type="password"'
get http://forum14.test/
expect_eq "forum14 is no host of 14 forums" "$S" 404
get http://forum0.test/viewtopic.php?t=999999
expect_eq "unknown thread 404" "$S" 404
get "http://forum0.test/viewforum.php?f=3&start=3"
expect_eq "offset between pages 404" "$S" 404

# ---- the clock moves: a new post on busy forum 3 (XenForo, LAD, ASC) ----
# The newest post of the forum is the highest #post-N of the last-activity
# links on its boards' first pages.
newest() {
	local b n max=0
	get http://forum3.test/
	for b in $(grep -o 'href="/forums/[a-z0-9-]*\.[0-9]*/"' "$B" | cut -d'"' -f2); do
		get "http://forum3.test$b"
		n=$(grep -o '#post-[0-9]*"' "$B" | tr -dc '0-9\n' | sort -n | tail -n 1)
		[ -n "$n" ] && [ "$n" -gt "$max" ] && max=$n
	done
	echo "$max"
}
first=$(newest)
check "forum3 has posts" test "$first" -gt 0
later=$first
for i in $(seq 1 20); do
	sleep 0.5
	later=$(newest)
	[ "$later" -gt "$first" ] && break
done
check "a new post shows up ($first -> $later)" test "$later" -gt "$first"
# ...on the last page of its thread, found from its board's last-activity link.
# The clock runs on: by now a newer post may have taken its thread's link,
# so the newest post linked now is the one checked (still newer than first).
newest_link=$(for b in $(curl -s --connect-to "::127.0.0.1:$PORT" http://forum3.test/ |
	grep -o 'href="/forums/[a-z0-9-]*\.[0-9]*/"' | cut -d'"' -f2); do
	curl -s --connect-to "::127.0.0.1:$PORT" "http://forum3.test$b" | grep -o 'href="[^"]*#post-[0-9]*"'
done | awk -F'#post-' '{ n = $2 + 0; if (n > max) { max = n; best = $0 } } END { print max, best }')
linked=${newest_link%% *}
link=$(echo "${newest_link#* }" | cut -d'"' -f2)
check "the new post has a last-activity link ($later, newest linked ${linked:-none})" \
	test -n "$link" -a "${linked:-0}" -ge "$later"
later=${linked:-$later}
get "http://forum3.test${link%%#*}"
expect_eq "its page 200" "$S" 200
check "the new post is on its page" has "id=\"js-post-$later\""

# ---- SIGTERM: the truth ----
stop_server forums
check "stop line" grep -q "terminated at clock 2024-03-0.*; truth: [0-9]* posts -> $WORK/truth.tsv" "$WORK/forums.err"
expect_eq "truth header" "$(head -n 1 "$WORK/truth.tsv")" \
	"$(printf 'host\tthread_id\tthread_url\tpost_no\tpost_id\tauthor\tpublished_s\ttext_hash\tsticky_thread\tpinned_post\tparent_no')"
expect_eq "truth: every forum" "$(tail -n +2 "$WORK/truth.tsv" | cut -f1 | sort -u | wc -l)" 14
expect_eq "truth: the new post" "$(awk -F'\t' -v p="$later" '$1 == "forum3.test" && $5 == p' "$WORK/truth.tsv" | wc -l)" 1
stop_t=$(sed -n 's/.*terminated at clock \([^:]*:[0-9]*:[0-9]*Z\).*/\1/p' "$WORK/forums.err")
stop_s=$(date -u -d "$stop_t" +%s)
expect_eq "truth: nothing after the stop" "$(awk -F'\t' -v s="$stop_s" 'NR > 1 && $7 > s + 1' "$WORK/truth.tsv" | wc -l)" 0
expect_eq "truth: stickies" "$(awk -F'\t' 'NR > 1 && $9 == 1 { print $1 }' "$WORK/truth.tsv" | sort -u | wc -l)" 12
check "request log" test "$(wc -l <"$WORK/forums.log")" -gt 60
check "log: a forum host" grep -q "	forum3.test	GET	/forums/" "$WORK/forums.log"

finish
