#!/usr/bin/env bash
# dev.sh - set up, build and run freshet on Debian.
#   ./dev.sh demo    install missing packages, build, run the main job on the default world
#   ./dev.sh test    install missing packages, build, run every test, then again under ASan+UBSan
#   ./dev.sh build   install missing packages and build (build/freshet)
#   ./dev.sh bench   build and run the benchmarks
#   ./dev.sh deps    only install the missing Debian packages
set -euo pipefail
cd "$(dirname "$0")"

# Debian packages the build, the tests and the benchmarks need.
PKGS=(gcc libc6-dev make cmake pkg-config zlib1g-dev libxml2-dev libcurl4-openssl-dev
      libsqlite3-dev libjson-c-dev libmicrohttpd-dev libpsl-dev sqlite3 curl sfeed chromium)
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
}

run_tests() {
	echo "== tests (RelWithDebInfo build) =="
	ctest --test-dir build --output-on-failure -j"$JOBS"
	echo "== tests again under AddressSanitizer + UndefinedBehaviorSanitizer =="
	build_sanitized
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
		ctest --test-dir build-asan --output-on-failure -j"$JOBS"
}

bench() {
	local b
	for b in build/bench/bench_*; do
		[ -x "$b" ] || continue
		echo "== $(basename "$b") =="
		"$b"
	done
}

case "${1:-}" in
demo) deps; build; demo ;;
test) deps; build; run_tests ;;
build) deps; build ;;
bench) deps; build; bench ;;
deps) deps ;;
*) sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
