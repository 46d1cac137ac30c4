#!/usr/bin/env bash
# Benchmark (not a test): wall time of `c2cscope record --sim` on each
# false-sharing sample against `valgrind --tool=cachegrind --cache-sim=yes`
# on the same program in the same run, and against the native run.
# usage: bench/sim.sh [BUILD_DIR] [REPEATS]   (default: ./build, 3; best of)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
repeats=${2:-3}
c2c=$build/c2cscope/c2cscope
samples=$build/samples/false-sharing
export C2CSIM_LIB=${C2CSIM_LIB:-$build/plugins/valgrind/lib}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# best_of CMD...: the smallest wall time (seconds) of $repeats runs
best_of() {
	local best="" t s e
	for _ in $(seq "$repeats"); do
		s=$(date +%s.%N)
		"$@" >/dev/null 2>&1 || true
		e=$(date +%s.%N)
		t=$(echo "$e - $s" | bc -l)
		if [ -z "$best" ] || [ "$(echo "$t < $best" | bc -l)" = 1 ]; then best=$t; fi
	done
	printf '%.3f' "$best"
}

ratio() { printf '%.2f' "$(echo "$1 / $2" | bc -l)"; }

printf '%-28s %9s %11s %9s %10s %10s\n' program native cachegrind c2csim sim/cg sim/native
for run in "adjacent 200000" "adjacent 200000 plain" "adjacent_padded 200000" \
	"args 100000" "args_padded 100000" "lockword 20000" "truecount 100000"; do
	set -- $run
	prog=$samples/$1
	shift
	native=$(best_of "$prog" "$@")
	cg=$(best_of valgrind --tool=cachegrind --cache-sim=yes \
		--cachegrind-out-file="$tmp/cg.out" "$prog" "$@")
	sim=$(best_of "$c2c" record --sim --sim-cpus 4 --sim-nodes 2 -o "$tmp/sim.data" -- \
		"$prog" "$@")
	printf '%-28s %9s %11s %9s %9sx %9sx\n' "$(basename "$prog") $*" "$native" "$cg" "$sim" \
		"$(ratio "$sim" "$cg")" "$(ratio "$sim" "$native")"
done
