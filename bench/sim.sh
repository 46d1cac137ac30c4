#!/usr/bin/env bash
# Benchmark (not a test): wall time of `c2cscope record --sim` on real
# programs and on each false-sharing sample against `valgrind
# --tool=cachegrind --cache-sim=yes` on the same program in the same run,
# and against the native run: xz -T2 on 4 MB of text (Debian xz-utils), the
# sched-core model (samples/sched-core, default run), a pigz-like
# compressor (bench/pigz_like.c: zlib, 2 worker threads and an in-order
# writer) on the same text, and the false-sharing samples. It prints the
# size of the perf.data each c2csim run wrote (at most 256 MiB by default:
# the storms are thinned, see c2cscope-record(1)) and the load average
# before each program: quote wall ratios only from a quiet machine.
# Each is timed as wall and as CPU (user + system) seconds, in milliseconds
# (bash's time), best of REPEATS. The native runs last a few ms, so their
# ratio is mostly the simulators' start-up (~0.35 s for c2csim, ~0.55 s for
# cachegrind); the sizes make the simulated work the larger part of it. Each
# run starts after `sync`, so the write-back of the previous run's ~1 GB
# perf.data is not timed as part of the next one.
# usage: bench/sim.sh [BUILD_DIR] [REPEATS] [FILTER]   (default: ./build, 3
# runs, best of; FILTER: only the programs whose line contains it)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
repeats=${2:-3}
filter=${3:-}
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

# 4 MB of text: this tree's sources and docs, repeated (the same every run)
text=$tmp/text
while [ "$(stat -c %s "$text" 2>/dev/null || echo 0)" -lt 4194304 ]; do
	cat "$top"/src/*/*.c "$top"/doc/* >>"$text"
done
truncate -s 4194304 "$text"
pigz=$tmp/pigz_like
${CC:-gcc} -O2 -g -pthread -o "$pigz" "$top/bench/pigz_like.c" -lz
progs=(
	"xz -T2 -1 --block-size=1MiB -c $text"
	"$build/samples/sched-core/sched-core-upstream"
	"$pigz -p 2 $text"
	"$samples/adjacent 2000000"
	"$samples/adjacent 2000000 plain"
	"$samples/adjacent_padded 2000000"
	"$samples/args 1000000"
	"$samples/args_padded 1000000"
	"$samples/lockword 200000"
	"$samples/truecount 1000000"
)

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); best of $repeats; wall / cpu (user+sys) seconds"
printf '%-30s %13s %13s %13s %13s %15s %9s %6s\n' program native cachegrind c2csim \
	"sim/cg w,cpu" "sim/nat w,cpu" perf.data load
for run in "${progs[@]}"; do
	case "$run" in *"$filter"*) ;; *) continue ;; esac
	# shellcheck disable=SC2086
	set -- $run
	load=$(cut -d' ' -f1 /proc/loadavg)
	read -r nw nc <<<"$(best_of "$@")"
	read -r cw cc <<<"$(best_of valgrind --tool=cachegrind --cache-sim=yes \
		--cachegrind-out-file="$tmp/cg.out" "$@")"
	read -r sw sc <<<"$(best_of "$c2c" record --sim --sim-cpus 4 --sim-nodes 2 \
		-o "$tmp/sim.data" -- "$@")"
	size=$(stat -c %s "$tmp/sim.data")
	rm -f "$tmp/sim.data"
	name="$(basename "$1") ${*:2}"
	name=${name//$tmp\//}
	printf '%-30s %6s/%-6s %6s/%-6s %6s/%-6s %6s,%-6s %7s,%-7s %7sMB %6s\n' "${name:0:30}" \
		"$nw" "$nc" "$cw" "$cc" "$sw" "$sc" "$(ratio "$sw" "$cw")" "$(ratio "$sc" "$cc")" \
		"$(ratio "$sw" "$nw")" "$(ratio "$sc" "$nc")" \
		"$(echo "scale=1; $size / 1048576" | bc -l)" "$load"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
