#!/usr/bin/env bash
# c2cscope's one entry point for set-up, as the README describes:
#   sudo ./build.sh demo   install Debian packages, build, run the main job
#   sudo ./build.sh test   install Debian packages, build, run the whole test suite
# Both are idempotent: packages already present are not reinstalled and the
# build is incremental. Options: BUILD_DIR (default build), CONFIGURE_FLAGS,
# CFLAGS.
set -euo pipefail

top=$(cd "$(dirname "$0")" && pwd)
build_dir=${BUILD_DIR:-$top/build}

packages=(
	build-essential autoconf automake libtool pkg-config
	libdw-dev libelf-dev libbpf-dev libcapstone-dev libpfm4-dev libtraceevent-dev
	libncurses-dev libjansson-dev libcmocka-dev libzstd-dev
	valgrind dwarves linux-perf clang clang-14 libclang-rt-14-dev llvm python3
	linux-source-6.1 bc flex bison libssl-dev
	libc6-dbg tmux
	xz-utils zlib1g-dev
	chromium
)

install_packages() {
	local missing=()
	local p
	for p in "${packages[@]}"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
			missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	local sudo=
	[ "$(id -u)" -eq 0 ] || sudo=sudo
	echo "build.sh: installing ${missing[*]}" >&2
	$sudo apt-get update -q
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q "${missing[@]}"
}

build() {
	cd "$top"
	if [ ! -x configure ] || [ configure.ac -nt configure ] ||
		[ -n "$(find . -name '*.am' -newer configure -not -path './build*' -print -quit)" ]; then
		autoreconf -fi
	fi
	mkdir -p "$build_dir"
	cd "$build_dir"
	if [ ! -f Makefile ] || [ "$top/configure" -nt Makefile ]; then
		"$top/configure" ${CONFIGURE_FLAGS:-}
	fi
	make -j"$(nproc)"
}

# Count results from automake's test logs and print the closing line.
summarize() {
	local log=$1 pass fail skip xfail xpass error
	pass=$(sed -n 's/^# PASS: *//p' "$log" | tail -1)
	fail=$(sed -n 's/^# FAIL: *//p' "$log" | tail -1)
	skip=$(sed -n 's/^# SKIP: *//p' "$log" | tail -1)
	xpass=$(sed -n 's/^# XPASS: *//p' "$log" | tail -1)
	error=$(sed -n 's/^# ERROR: *//p' "$log" | tail -1)
	echo "${pass:-0} passed, $((${fail:-0} + ${xpass:-0} + ${error:-0})) failed, ${skip:-0} skipped"
}

run_tests() {
	cd "$build_dir"
	local rc=0
	make -j"$(nproc)" check || rc=$?
	if [ -f test-suite.log ]; then
		grep -E '^(FAIL|ERROR|XPASS):' test-suite.log || true
		if [ $rc -ne 0 ]; then
			sed -n '/^FAIL\|^ERROR/,$p' test-suite.log | head -200 >&2 || true
		fi
		summarize test-suite.log
	else
		echo "0 passed, 1 failed"
		rc=1
	fi
	return $rc
}

case "${1:-}" in
deps) install_packages ;;
build) install_packages && build ;;
test)
	install_packages
	build
	run_tests
	;;
demo)
	install_packages
	build
	shift
	"$build_dir/c2cscope/c2cscope" demo "$@"
	;;
*)
	echo "usage: $0 demo|test|build|deps" >&2
	exit 2
	;;
esac
