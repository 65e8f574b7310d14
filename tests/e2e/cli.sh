# cli.sh - the command-line contract of freshet: --help everywhere (exit 0,
# on stdout, naming the options), bad usage exits 2 with a message on stderr
# that names the problem and nothing on stdout, a missing input exits 1
# naming the path.
. "$(dirname "$0")/lib.sh"

F=$FRESHET

# A tiny valid trace, so that usage errors are told apart from load failures
# (most are found before loading: see "before the load" below).
T=$WORK/t.csv
printf 'source,time\nA,5\nB,1\nC,95\nA,61\nB,12\nC,25\nA,150\n' >"$T"

# usage_error WHAT_STDERR_NAMES ARGS...: exit 2, empty stdout, a stderr line
# "freshet ..." that contains WHAT_STDERR_NAMES.
usage_error() {
	local what=$1
	shift
	expect_exit 2 "$F" "$@"
	expect_stdout_empty
	expect_stderr_contains "freshet"
	expect_stderr_contains "$what"
}

# ---- top level ----
expect_exit 0 "$F" --help
expect_stdout_contains "usage: freshet"
for sub in simulate tune world; do
	expect_stdout_contains "$sub"
done
expect_stderr_empty

expect_exit 0 "$F" -h
expect_stdout_contains "usage: freshet"

expect_exit 0 "$F" --version
expect_stdout_matches '^freshet [0-9]+\.[0-9]+'

# No command at all is bad usage; the usage goes to stderr.
expect_exit 2 "$F"
expect_stdout_empty
expect_stderr_contains "usage: freshet"

usage_error "unknown command 'frobnicate'" frobnicate
usage_error "unknown command '--bogus'" --bogus

# ---- one line for a typo, with the nearest name; help CMD; -V ----
usage_error "unknown command 'simulat' (did you mean 'simulate'?" simulat
expect_eq "an unknown command is one line" "$(wc -l <"$ERR")" 1
usage_error "unknown command 'frobnicate' ('freshet --help' lists the commands)" frobnicate
usage_error "unknown option '--bugdet' (did you mean --budget?" run --bugdet 3
usage_error "unknown option '--formt' (did you mean --format?" items --formt csv
usage_error "unknown option '--seeed' (did you mean --seed?" world --seeed 3
expect_exit 0 "$F" help run
expect_stdout_contains "usage: freshet run"
expect_exit 0 "$F" help
expect_stdout_contains "usage: freshet <command>"
usage_error "unknown command 'rnu' (did you mean 'run'?" help rnu
expect_exit 0 "$F" -V
expect_stdout_matches '^freshet [0-9]+\.[0-9]+'
# A typo in the config file is named by the file and line, not blamed on
# the command line.
printf '# freshet\n[items]\nlimitt = 3\n' >"$WORK/typo.conf"
FRESHET_CONFIG=$WORK/typo.conf usage_error "typo.conf:3: unknown key 'limitt' in [items] (did you mean 'limit'?)" \
	items --db "$WORK/none.db"
check "the typo is not blamed on the command line" not grep -q "freshet items:" "$ERR"

# ---- the option parser (src/opt.c, docs/cli.md): one table per command,
# the same messages in every command ----
usage_error "unknown option '--gapp' (did you mean --gap? try --help)" run --db "$WORK/p.db" --gapp 3
usage_error "unknown option '--zzzzzzzz' (try --help)" sources --zzzzzzzz
check "no suggestion for a far miss" not grep -q "did you mean" "$ERR"
usage_error "unknown option '-x' (try --help)" items -x
usage_error "--limit needs a value (try --help)" items --db "$WORK/none.db" --limit
usage_error "--limit wants a whole number >= 1, not 'x'" items --db "$WORK/none.db" --limit x
usage_error "--transfers wants a whole number 1..10000, not '0'" run --transfers 0
usage_error "--gap wants a duration >= 0, like 15s or 2m, not 'soon'" run --gap=soon
usage_error "--max-crawl-delay wants a duration >= 0" discover --max-crawl-delay -1 x.test
usage_error "--gap wants a duration > 0" plan --pages x --budget 1 --gap 0
usage_error "--once takes no value, not 'yes'" run --once=yes
usage_error "unexpected argument 'extra' (try --help)" run extra
usage_error "--format wants table or json, not 'csv'" plan --pages x --budget 1 --format csv
# "--" ends the options: "-x" is then an input (a missing file here).
expect_exit 1 "$F" parse -- -x
expect_stderr_contains "-x: cannot open"

# Old names are hidden aliases of the one name: they set the same value,
# and --help shows only the new name.
GAPRUN=(simulate --trace "$T" --policy round-robin --budget 1/10s --format csv)
expect_exit 0 "$F" "${GAPRUN[@]}" --gap 40s
cut -d, -f1-9 "$OUT" >"$WORK/gap40.csv"
expect_exit 0 "$F" "${GAPRUN[@]}" --host-gap 40s
cut -d, -f1-9 "$OUT" >"$WORK/hostgap40.csv"
expect_same_file "--host-gap is --gap" "$WORK/gap40.csv" "$WORK/hostgap40.csv"
expect_exit 0 "$F" "${GAPRUN[@]}"
cut -d, -f1-9 "$OUT" >"$WORK/gap0.csv"
check "the gap changes the run (so the alias is no no-op)" not cmp -s "$WORK/gap0.csv" "$WORK/gap40.csv"
expect_exit 0 "$F" simulate --help
check "simulate --help hides --host-gap" not grep -q -e '--host-gap' "$OUT"
expect_exit 0 "$F" world --kind pages --out "$WORK/pw" --pages 40 --servers 4 --days 2
expect_exit 0 "$F" plan --pages "$WORK/pw/pages.csv" --budget 0.01 --politeness 1m --format json
expect_stdout_contains '"politeness_s": 60,'
expect_exit 0 "$F" plan --pages "$WORK/pw/pages.csv" --budget 0.01 --format json
expect_stdout_contains '"politeness_s": 15,'

# The config file goes through the same table: its old names, its values
# checked and named by FILE:LINE; the command line overrides it.
printf '[simulate]\nhost-gap = 40s\nformat = json\n' >"$WORK/sim.conf"
FRESHET_CONFIG=$WORK/sim.conf expect_exit 0 "$F" simulate --trace "$T" --policy round-robin \
	--budget 1/10s --format csv
cut -d, -f1-9 "$OUT" >"$WORK/conf40.csv"
expect_same_file "config host-gap = 40s is --gap 40s" "$WORK/gap40.csv" "$WORK/conf40.csv"
printf '[items]\nlimit = x\n' >"$WORK/badval.conf"
FRESHET_CONFIG=$WORK/badval.conf usage_error "badval.conf:2: limit wants a whole number >= 1, not 'x'" \
	items --db "$WORK/none.db"
printf '[run]\nonce = maybe\n' >"$WORK/flag.conf"
FRESHET_CONFIG=$WORK/flag.conf usage_error "flag.conf:2: once takes no value, not 'maybe'" \
	run --db "$WORK/none.db"

# Every command: help CMD is its --help, with usage, options and Examples.
cmds=$("$F" --help | awk '/^commands:$/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { exit }')
expect_eq "the commands listed" "$(printf '%s\n' "$cmds" | wc -l)" 14
for sub in $cmds; do
	expect_exit 0 "$F" help "$sub"
	expect_stdout_contains "usage: freshet $sub"
	expect_stdout_contains "options:"
	expect_stdout_contains "Examples:"
	expect_stderr_empty
	cp "$OUT" "$WORK/help-$sub.txt"
	expect_exit 0 "$F" "$sub" --help
	expect_same_file "help $sub = $sub --help" "$WORK/help-$sub.txt" "$OUT"
done
expect_exit 0 "$F" run --help
expect_stdout_contains "docs/crawl.md"
check "run --help does not send the config file to docs/freshet.md" not grep -q "freshet.md" "$OUT"
expect_exit 0 "$F" --help
expect_stdout_contains "Examples:"

# ---- each subcommand's --help: exit 0, stdout, every option named ----
expect_exit 0 "$F" simulate --help
expect_stderr_empty
for opt in --trace --sources --world --policy --budget --mode --format --weekly \
	--start --end --gap --seed round-robin air-balloon buzzwise; do
	expect_stdout_contains "$opt"
done

# The policy list is one aligned column, however long the names.
cols=$(sed -n '/^policies:/,/^  any index policy/p' "$OUT" | sed '1d;$d' |
	awk '{ match($0, /^  [^ ]+ +/); print RLENGTH }' | sort -u)
expect_eq "policy help in one column" "$(printf '%s\n' "$cols" | wc -l)" 1
check "policy help lists miniflux-entry-frequency" grep -q '^  miniflux-entry-frequency ' "$OUT"

expect_exit 0 "$F" tune --help
expect_stderr_empty
for opt in --trace --sources --world --policy --param --range --steps --log --budget --mode; do
	expect_stdout_contains "$opt"
done

expect_exit 0 "$F" world --help
expect_stderr_empty
for opt in --out --sources --days --seed --shape; do
	expect_stdout_contains "$opt"
done

# --help wins wherever it stands, even after other options.
expect_exit 0 "$F" simulate --trace "$T" --help
expect_stdout_contains "usage: freshet simulate"
expect_exit 0 "$F" simulate -h
expect_stdout_contains "usage: freshet simulate"

# ---- simulate: bad usage ----
usage_error "'--bogus'" simulate --trace "$T" --bogus
usage_error "--trace needs a value" simulate --trace
usage_error "--world needs a value" simulate --world
usage_error "--budget needs a value" simulate --trace "$T" --budget
usage_error "--format" simulate --trace "$T" --format
usage_error "--policy" simulate --trace "$T" --policy
usage_error "--format wants table, csv or json, not 'bogus'" simulate --trace "$T" --format bogus
usage_error "budget '600'" simulate --trace "$T" --budget 600
expect_stderr_contains "CALLS/WINDOW"
usage_error "budget '0/10m'" simulate --trace "$T" --budget 0/10m
usage_error "budget '1.5/10m'" simulate --trace "$T" --budget 1.5/10m
usage_error "budget '600/0s'" simulate --trace "$T" --budget 600/0s
usage_error "budget '600/10x'" simulate --trace "$T" --budget 600/10x
usage_error "--budget 600/10m@0" simulate --trace "$T" --budget 600/10m@0
usage_error "--mode wants burst or paced, not 'bogus'" simulate --trace "$T" --mode bogus
usage_error "exactly one of --trace and --world" simulate --trace "$T" --world "$WORK"
usage_error "exactly one of --trace and --world" simulate
usage_error "exactly one of --trace and --world" simulate --policy round-robin
usage_error "--start bogus" simulate --trace "$T" --start bogus
usage_error "--end 2012-13-01T00:00:00Z" simulate --trace "$T" --end 2012-13-01T00:00:00Z
usage_error "run window is empty" simulate --trace "$T" --start 100 --end 50
usage_error "--host-gap wants a duration >= 0, like 15s or 2m" simulate --trace "$T" --host-gap x
expect_stderr_contains "not 'x'"
usage_error "--gap wants a duration >= 0" simulate --trace "$T" --gap -3
usage_error "--seed wants a whole number >= 0, not 'abc'" simulate --trace "$T" --seed abc
usage_error "--seed wants a whole number >= 0, not '-1'" simulate --trace "$T" --seed -1
usage_error "--seed needs a value" simulate --trace "$T" --seed
usage_error "--budget ' 600/10m': blanks are not allowed" simulate --trace "$T" --budget ' 600/10m'
usage_error "blanks are not allowed" simulate --trace "$T" --budget '600/10m '
usage_error "blanks are not allowed" simulate --trace "$T" --budget '600/ 10m'
usage_error "blanks are not allowed" simulate --trace "$T" --budget '600/10m@ 4106'
usage_error "--host-gap wants a duration" simulate --trace "$T" --host-gap ' 15s'
expect_stderr_contains "not ' 15s'"

# Options of simulate and tune with a missing value all say so alike.
for opt in --format --policy --report --cost-target --jobs --sources --mode --start --end \
	--host-gap; do
	usage_error "$opt needs a value" simulate --trace "$T" "$opt"
done
for opt in --policy --param --range --steps --budget --seed; do
	usage_error "$opt needs a value" tune --trace "$T" "$opt"
done

# Bad usage is found before the (slow) load: exit 2 even when the trace
# does not exist, and the missing file is not mentioned.
missing=$WORK/no/such/trace.csv
for args in "--budget 600" "--budget 0/10m" "--budget 600/10m@x" "--mode bogus" \
	"--start bogus" "--end 2012-13-01T00:00:00Z" "--host-gap x" "--seed abc" \
	"--start 100 --end 50" "--format bogus" "--policy nope" "--policy round-robin,"; do
	# shellcheck disable=SC2086 # split on purpose
	usage_error "freshet simulate" simulate --trace "$missing" $args
	check "no load before the usage error ($args)" test -z "$(grep -F "$missing" "$ERR")"
done
usage_error "--seed wants a whole number >= 0, not 'abc'" \
	tune --trace "$missing" --policy air-balloon --param inertia --range 1:2 --seed abc
usage_error "--mode wants burst or paced, not 'bogus'" \
	tune --trace "$missing" --policy air-balloon --param inertia --range 1:2 --mode bogus

# A run window longer than 50 years (one absurd time in a trace) is refused
# with the window named, instead of running out of memory or time.
printf 'source,time\na,1325376011\nb,1325376100\na,2500-01-01T00:00:00Z\n' >"$WORK/y2500.csv"
usage_error "the run window" simulate --trace "$WORK/y2500.csv" --policy round-robin --budget 1/10s
expect_stderr_contains "2012-01-01T00:00:11Z .. 2500-01-01T00:00:10Z spans 487 years"
expect_stderr_contains "at most 50"
expect_stderr_contains "--start/--end"
printf 'source,time\na,1325376011\na,1000000000000\n' >"$WORK/e12.csv"
usage_error "at most 50" simulate --trace "$WORK/e12.csv" --policy round-robin
expect_stderr_contains "--start/--end"
# Narrowing the window lets the same trace run.
expect_exit 0 "$F" simulate --trace "$WORK/y2500.csv" --policy round-robin --budget 1/10s \
	--end 2012-01-02T00:00:00Z --format csv
expect_stdout_contains '"round-robin",2,2,'
usage_error "spans 60 years" simulate --trace "$T" --start 1970-01-01T00:00:00Z \
	--end 2030-01-01T00:00:00Z

# Policies: unknown names and bad parameters are usage errors, caught before
# any simulation.
usage_error "unknown policy 'nope'" simulate --trace "$T" --policy nope
usage_error "unknown policy 'nope'" simulate --trace "$T" --policy round-robin,nope
usage_error "inertai" simulate --trace "$T" --policy air-balloon:inertai=5
usage_error "inertia='x'" simulate --trace "$T" --policy air-balloon:inertia=x
usage_error "lacks '=value'" simulate --trace "$T" --policy air-balloon:inertia
usage_error "given twice" simulate --trace "$T" --policy air-balloon:inertia=5:inertia=6
usage_error "no parameter 'k'" simulate --trace "$T" --policy round-robin:k=3
# Empty entries in the list are errors that name the list.
usage_error "--policy: bad list 'round-robin,'" simulate --trace "$T" --policy 'round-robin,'
usage_error "--policy: bad list 'round-robin,,air-balloon'" simulate --trace "$T" \
	--policy 'round-robin,,air-balloon'
usage_error "--policy: bad list ',round-robin'" simulate --trace "$T" --policy ',round-robin'
usage_error "--policy: bad list 'all,'" simulate --trace "$T" --policy 'all,'

# ---- simulate: failures (exit 1) name the input ----
missing=$WORK/no/such/trace.csv
expect_exit 1 "$F" simulate --trace "$missing"
expect_stdout_empty
expect_stderr_contains "$missing"
expect_exit 1 "$F" simulate --trace "$T" --sources "$WORK/no-sources.csv"
expect_stdout_empty
expect_stderr_contains "$WORK/no-sources.csv"
expect_exit 1 "$F" simulate --world "$WORK/no-world"
expect_stdout_empty
expect_stderr_contains "$WORK/no-world"

# ---- tune: bad usage ----
usage_error "--policy, --param and --range are required" tune --trace "$T"
usage_error "--policy, --param and --range are required" tune --trace "$T" --policy air-balloon --param inertia
usage_error "'--bogus'" tune --bogus
usage_error "--range 2:1" tune --trace "$T" --policy air-balloon --param inertia --range 2:1
usage_error "--range x" tune --trace "$T" --policy air-balloon --param inertia --range x
usage_error "LO > 0" tune --trace "$T" --policy air-balloon --param inertia --range 0:10 --log
usage_error "--steps wants a whole number 1..100, not '0'" tune --trace "$T" --policy air-balloon --param inertia --range 1:2 --steps 0
usage_error "unknown policy" tune --trace "$T" --policy nope --param x --range 1:2
usage_error "no parameter 'bogus'" tune --trace "$T" --policy air-balloon --param bogus --range 1:2 --budget 1/10s
usage_error "budget '0/10m'" tune --trace "$T" --policy air-balloon --param inertia --range 1:2 --budget 0/10m
usage_error "--mode wants burst or paced, not 'bogus'" tune --trace "$T" --policy air-balloon --param inertia --range 1:2 --mode bogus
usage_error "exactly one of --trace and --world" tune --policy air-balloon --param inertia --range 1:2
expect_exit 1 "$F" tune --trace "$missing" --policy air-balloon --param inertia --range 1:2
expect_stdout_empty
expect_stderr_contains "$missing"

# ---- world: bad usage ----
usage_error "--out DIR is required" world
usage_error "--out needs a value" world --out
usage_error "unknown option '--bogus'" world --out "$WORK/w" --bogus
usage_error "--sources wants a whole number" world --out "$WORK/w" --sources 0
usage_error "--sources wants a whole number" world --out "$WORK/w" --sources -3
usage_error "--days wants a positive number" world --out "$WORK/w" --days -1
usage_error "--days wants a positive number" world --out "$WORK/w" --days x
usage_error "--seed wants a whole number" world --out "$WORK/w" --seed abc
usage_error "unknown shape 'bogus'" world --out "$WORK/w" --shape bogus
check "bad usage writes no world" test ! -e "$WORK/w"
# An unwritable output directory is a failure that names it.
printf 'not a dir\n' >"$WORK/file"
expect_exit 1 "$F" world --out "$WORK/file/sub" --sources 2 --days 1
expect_stdout_empty
expect_stderr_contains "$WORK/file"

finish
