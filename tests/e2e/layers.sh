# layers.sh - the include check of docs/architecture.md (tests/check_layers.py)
# passes on the tree, and fails, naming the file and line, on a copy of the
# tree given one include across a forbidden arrow, one external library a part
# may not use, and a CMake part whose USES drift from the table.
. "$(dirname "$0")/lib.sh"

have_python || { e2e_say "skipped: no python3"; finish; exit 0; }
CHECK=$SRC/tests/check_layers.py
D=$WORK

expect_exit 0 python3 "$CHECK" "$SRC"
expect_stdout_contains "every include on an allowed arrow"

# A copy of what the check reads: the table, CMakeLists.txt, lib/, src/ and
# testkit/.
copy() {
	rm -rf "$D/t" && mkdir -p "$D/t/docs" &&
		cp "$SRC/docs/architecture.md" "$D/t/docs/" && cp "$SRC/CMakeLists.txt" "$D/t/" &&
		cp -r "$SRC/lib" "$SRC/src" "$SRC/testkit" "$D/t/"
}

copy
expect_exit 0 python3 "$CHECK" "$D/t"

# The scheduler may not reach the store.
copy
printf '#include "store/store.h"\n' >>"$D/t/lib/sched/sched.c"
expect_exit 1 python3 "$CHECK" "$D/t"
expect_stdout_matches 'lib/sched/sched\.c:[0-9]+: part sched includes "store/store.h" of part store'

# The parser may not reach the network's fetcher (only url/).
copy
printf '#include "net/fetch.h"\n' >>"$D/t/lib/parse/feed.c"
expect_exit 1 python3 "$CHECK" "$D/t"
expect_stdout_contains 'part parse includes "net/fetch.h" of part net'

# No part of the crawler may reach the test kit.
copy
printf '#include "testkit/forums.h"\n' >>"$D/t/lib/forum/page.c"
expect_exit 1 python3 "$CHECK" "$D/t"
expect_stdout_matches 'lib/forum/page\.c:[0-9]+: part forum includes "testkit/forums.h" of part testkit'

# The test kit may not reach the store.
copy
printf '#include "store/store.h"\n' >>"$D/t/testkit/forums.c"
expect_exit 1 python3 "$CHECK" "$D/t"
expect_stdout_contains 'testkit/forums.c'

# The model may not use libcurl.
copy
printf '#include <curl/curl.h>\n' >>"$D/t/lib/model/recent.c"
expect_exit 1 python3 "$CHECK" "$D/t"
expect_stdout_contains 'part model includes <curl/curl.h> of curl'

# CMake's USES must say what the table says.
copy
sed -i 's/^fr_part(sched \(.*\)USES core model plan/fr_part(sched \1USES core model plan store/' "$D/t/CMakeLists.txt"
expect_exit 1 python3 "$CHECK" "$D/t"
expect_stdout_contains 'fr_part(sched) USES'

# A cycle in the table.
copy
sed -i 's/^| core | lib\/core | |/| core | lib\/core | sim |/' "$D/t/docs/architecture.md"
expect_exit 1 python3 "$CHECK" "$D/t"
expect_stdout_contains 'the arrows form a cycle'

finish
