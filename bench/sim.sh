#!/usr/bin/env bash
# Benchmark (not a test): wall time of `c2cscope record --sim` on each
# false-sharing sample against `valgrind --tool=cachegrind --cache-sim=yes`
# on the same program in the same run, and against the native run.
# Each is timed as wall and as CPU (user + system) seconds, in milliseconds
# (bash's time), best of REPEATS. The native runs last a few ms, so their
# ratio is mostly the simulators' start-up (~0.35 s for c2csim, ~0.55 s for
# cachegrind); the sizes make the simulated work the larger part of it. Each
# run starts after `sync`, so the write-back of the previous run's ~1 GB
# perf.data is not timed as part of the next one.
# usage: bench/sim.sh [BUILD_DIR] [REPEATS]   (default: ./build, 3; best of)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
repeats=${2:-3}
c2c=$build/c2cscope/c2cscope
samples=$build/samples/false-sharing
export C2CSIM_LIB=${C2CSIM_LIB:-$build/plugins/valgrind/lib}
tmp=$(mktemp -d)
TIMEFORMAT='%3R %3U %3S'
trap 'rm -rf "$tmp"' EXIT

# best_of CMD...: "WALL CPU" (seconds), the best of $repeats runs each, where
# CPU is user + system time of the command and its children
best_of() {
	local bw="" bc="" w u sy c
	for _ in $(seq "$repeats"); do
		sync
		{ time "$@" >/dev/null 2>&1 || true; } 2>"$tmp/time"
		read -r w u sy <"$tmp/time"
		c=$(echo "$u + $sy" | bc -l)
		if [ -z "$bw" ] || [ "$(echo "$w < $bw" | bc -l)" = 1 ]; then bw=$w; fi
		if [ -z "$bc" ] || [ "$(echo "$c < $bc" | bc -l)" = 1 ]; then bc=$c; fi
	done
	printf '%.3f %.3f' "$bw" "$bc"
}

ratio() { # A / B, or - when B rounds to 0
	if [ "$(echo "$2 > 0" | bc -l)" = 1 ]; then printf '%.2f' "$(echo "$1 / $2" | bc -l)"; else echo -; fi
}

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); best of $repeats; wall / cpu (user+sys) seconds"
printf '%-24s %13s %13s %13s %13s %15s\n' program native cachegrind c2csim \
	"sim/cg w,cpu" "sim/nat w,cpu"
for run in "adjacent 2000000" "adjacent 2000000 plain" "adjacent_padded 2000000" \
	"args 1000000" "args_padded 1000000" "lockword 200000" "truecount 1000000"; do
	set -- $run
	prog=$samples/$1
	shift
	read -r nw nc <<<"$(best_of "$prog" "$@")"
	read -r cw cc <<<"$(best_of valgrind --tool=cachegrind --cache-sim=yes \
		--cachegrind-out-file="$tmp/cg.out" "$prog" "$@")"
	read -r sw sc <<<"$(best_of "$c2c" record --sim --sim-cpus 4 --sim-nodes 2 \
		-o "$tmp/sim.data" -- "$prog" "$@")"
	printf '%-24s %6s/%-6s %6s/%-6s %6s/%-6s %6s,%-6s %7s,%-7s\n' "$(basename "$prog") $*" \
		"$nw" "$nc" "$cw" "$cc" "$sw" "$sc" "$(ratio "$sw" "$cw")" "$(ratio "$sc" "$cc")" \
		"$(ratio "$sw" "$nw")" "$(ratio "$sc" "$nc")"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
