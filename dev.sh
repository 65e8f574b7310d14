#!/usr/bin/env bash
# dev.sh - set up, build and run freshet on Debian.
#   ./dev.sh demo    install missing packages, build, run the main job on the default world
#   ./dev.sh test    install missing packages, build, run every test, then again under ASan+UBSan
#   ./dev.sh build   install missing packages and build (build/freshet)
#   ./dev.sh build-asan  only the ASan+UBSan build (build-asan/)
#   ./dev.sh bench   build and run the benchmarks
#   ./dev.sh deps    only install the missing Debian packages
#   ./dev.sh fuzz SECONDS [NAME...]  build the libFuzzer harnesses (clang) and run each
#                    (or those named) for SECONDS into a copy of its seeds; prints runs and findings
set -euo pipefail
cd "$(dirname "$0")"

# Debian packages the build, the tests and the benchmarks need.
PKGS=(gcc libc6-dev make cmake pkg-config zlib1g-dev libxml2-dev libcurl4-openssl-dev
      libsqlite3-dev libjson-c-dev libmicrohttpd-dev libpsl-dev libicu-dev libcld2-dev g++
      nettle-dev sqlite3 curl openssl sfeed chromium libpq-dev postgresql python3-prometheus-client)
JOBS=$(nproc 2>/dev/null || echo 2)

deps() {
	local missing=() p
	for p in "${PKGS[@]}"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
			missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	echo "dev.sh: installing missing Debian packages: ${missing[*]}" >&2
	if [ "$(id -u)" -ne 0 ]; then
		echo "dev.sh: run as root, or install them: apt-get install ${missing[*]}" >&2
		exit 1
	fi
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
}

build() {
	cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
	cmake --build build -j"$JOBS" -- --no-print-directory >&2
}

build_sanitized() {
	cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DFRESHET_SANITIZE=ON >/dev/null
	cmake --build build-asan -j"$JOBS" -- --no-print-directory >&2
}

demo() {
	local world=build/demo-world
	if [ ! -f "$world/world.csv" ]; then
		build/freshet world --out "$world"
	fi
	build/freshet simulate --world "$world" \
		--policy round-robin,buzzwise:k=3000,air-balloon:inertia=960 --budget 600/10m
	live_demo
}

# A short live crawl: a synthetic world of 1,000 feeds on 100 hosts served on
# loopback at 1440x (a day in a minute), crawled for 60 s by freshet run.
live_demo() {
	local d=build/demo-live port spid i
	rm -rf "$d"
	mkdir -p "$d"
	echo
	echo "== live crawl: 1,000 feeds on 100 loopback hosts, one compressed day (60 s) =="
	build/freshet world --out "$d/world" --sources 1000 --days 2 --seed 3 2>/dev/null
	build/freshet serve --world "$d/world" --hosts 100 --speed 1440 --duration 1d \
		--port-file "$d/port" --log "$d/requests.log" --opml "$d/feeds.opml" \
		--truth "$d/truth.csv" 2>"$d/serve.log" &
	spid=$!
	for i in $(seq 100); do [ -s "$d/port" ] && break; sleep 0.1; done
	port=$(cat "$d/port")
	build/freshet add --db "$d/freshet.db" --opml "$d/feeds.opml"
	build/freshet run --db "$d/freshet.db" --connect-to "::127.0.0.1:$port" --duration 60s \
		--budget 50/1s --backoff 5s/1m 2>"$d/run.log" || { tail "$d/run.log" >&2; kill "$spid"; return 1; }
	# The world's clock has stopped: one polite pass picks up the last items.
	build/freshet run --db "$d/freshet.db" --connect-to "::127.0.0.1:$port" --once \
		--backoff 5s/1m 2>>"$d/run.log" || { tail "$d/run.log" >&2; kill "$spid"; return 1; }
	kill -TERM "$spid"
	wait "$spid" || true
	echo "(events: $d/run.log; the server's request log: $d/requests.log)"
	echo "items found: $(build/freshet items --db "$d/freshet.db" --format csv | tail -n +2 | wc -l)" \
		"of $(tail -n +2 "$d/truth.csv" | wc -l) the server showed"
	build/freshet sources --db "$d/freshet.db" >"$d/sources.txt"
	head -n 6 "$d/sources.txt"
	build/freshet items --db "$d/freshet.db" --format table --limit 5
}

# Tests run at once: most wait on servers and on compressed clocks, not on
# the CPU, so more than the cores (FRESHET_TEST_JOBS overrides).
TEST_JOBS=${FRESHET_TEST_JOBS:-$((JOBS * 3))}

# burn N: N processes that keep a core busy each, until killed; sets BURN.
burn() {
	local i
	BURN=
	for ((i = 0; i < $1; i++)); do
		(while :; do :; done) &
		BURN="$BURN $!"
	done
}

run_tests() {
	echo "== tests (RelWithDebInfo build) =="
	# The sanitized build compiles meanwhile, at a lower priority: most tests
	# wait on servers and on states they control, and hold on a busy machine.
	# FRESHET_TEST_LOAD=1 (CI) also keeps every core busy with a loop of
	# the same priority through this pass, as on a machine doing other work.
	local blog=build/asan-build.log bpid rc=0
	nice -n 5 ./dev.sh build-asan >"$blog" 2>&1 &
	bpid=$!
	BURN=
	if [ "${FRESHET_TEST_LOAD:-0}" = 1 ]; then
		echo "(every core kept busy by another process meanwhile)"
		burn "$JOBS"
		trap 'kill $BURN 2>/dev/null || true' EXIT
	fi
	ctest --test-dir build --output-on-failure -j"$TEST_JOBS" || rc=$?
	[ -n "$BURN" ] && { kill $BURN 2>/dev/null || true; trap - EXIT; }
	if ! wait "$bpid"; then
		cat "$blog" >&2
		echo "dev.sh: the sanitized build failed" >&2
		exit 1
	fi
	[ "$rc" = 0 ] || exit "$rc"
	echo "== tests again under AddressSanitizer + UndefinedBehaviorSanitizer =="
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
		ctest --test-dir build-asan --output-on-failure -j"$TEST_JOBS"
}

bench() {
	local b
	for b in build/bench/bench_*; do
		[ -x "$b" ] || continue
		echo "== $(basename "$b") =="
		"$b"
	done
}

# fuzz SECONDS [NAME...]: every libFuzzer harness (or those named) for SECONDS
# each, one after the other, into a scratch copy of its seeds (corpus/NAME/
# and the folders corpus/NAME.shared lists); a crash leaves its input in
# build-fuzz/findings/ and the verb exits 1 after the rest have run.
# FUZZ_TIMEOUT=S sets libFuzzer's per-input limit (default 10 s of wall time:
# raise it on a loaded machine, where a slow input is the machine's, not the
# input's; replay a timeout with build/fuzz/fuzz_NAME FILE to tell).
fuzz() {
	local secs=${1:-}
	shift || true
	case "$secs" in '' | *[!0-9]*) echo "dev.sh fuzz wants SECONDS [NAME...]" >&2; exit 2 ;; esac
	command -v clang >/dev/null || { echo "dev.sh fuzz: clang is needed" >&2; exit 1; }
	cmake -S . -B build-fuzz -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
		-DCMAKE_BUILD_TYPE=RelWithDebInfo \
		-DFRESHET_FUZZ=ON >/dev/null
	local names=("$@") n f out bad=0 work
	if [ ${#names[@]} -eq 0 ]; then
		for f in fuzz/fuzz_*.c; do n=${f#fuzz/fuzz_}; names+=("${n%.c}"); done
	fi
	cmake --build build-fuzz -j"$JOBS" --target "${names[@]/#/fuzz_}" \
		$(printf 'fuzz_%s_libfuzzer ' "${names[@]}") >/dev/null
	mkdir -p build-fuzz/findings
	work=$(mktemp -d)
	for n in "${names[@]}"; do
		mkdir -p "$work/$n"
		cp -r fuzz/corpus/"$n"/. "$work/$n"/ 2>/dev/null || true
		local seeds=("$work/$n")
		if [ -f "fuzz/corpus/$n.shared" ]; then
			while read -r rel; do [ -d "../shared/$rel" ] && seeds+=("../shared/$rel"); done \
				<"fuzz/corpus/$n.shared"
		fi
		out=$(TMPDIR=$work build-fuzz/fuzz/fuzz_"$n"_libfuzzer -max_total_time="$secs" \
			-timeout="${FUZZ_TIMEOUT:-10}" \
			-rss_limit_mb=2048 -artifact_prefix=build-fuzz/findings/"$n"- "${seeds[@]}" 2>&1) || bad=1
		printf 'fuzz_%-8s %s\n' "$n" "$(printf '%s\n' "$out" | grep -E '^(#[0-9]+.*(DONE|pulse)|Done [0-9]+ runs)' | tail -1)"
		printf '%s\n' "$out" | grep -E 'ERROR|broken promise|SUMMARY' | head -3 || true
	done
	rm -rf "$work"
	[ "$bad" = 0 ] || { echo "dev.sh fuzz: findings in build-fuzz/findings/" >&2; exit 1; }
}

case "${1:-}" in
demo) deps; build; demo ;;
fuzz) shift; fuzz "$@" ;;
test) deps; build; run_tests ;;
build) deps; build ;;
build-asan) build_sanitized ;;
bench) deps; build; bench ;;
deps) deps ;;
*) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
