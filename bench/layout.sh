#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Benchmark (not a test): `c2cscope layout` against pahole 1.24 on real
# inputs, side by side in the same run. For each input, prints wall time
# and peak RSS of both (best of N runs, /usr/bin/time) and the ratios
# c2cscope / pahole; also checks that both printed the same number of
# structs. Goals: every all-structs case <= 0.5x pahole's wall time and
# peak RSS; `-C task_group` on the kernel BTF <= 20 ms.
#
# usage: bench/layout.sh [--runs N] [--c2cscope BIN] [EXTRA_FILE...]
# Inputs (each skipped when absent):
#   libc    libc6-dbg's debug file for libc.so.6 (/usr/lib/debug/.build-id)
#   core.o  Linux 6.1 kernel/sched/core.o with DWARF 5 (samples/linux/verify.sh
#           caches it under /var/cache/c2cscope/linux-6.1/)
#   c2c     c2cscope itself built with -g (the largest C program built here)
#   vmlinux the running kernel's BTF, whole and -C task_group
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
runs=3
c2c=${C2CSCOPE:-$top/build/c2cscope/c2cscope}
extra=()
while [ $# -gt 0 ]; do
	case "$1" in
	--runs) runs=$2; shift 2 ;;
	--c2cscope) c2c=$2; shift 2 ;;
	-h | --help) sed -n '2,/^set -uo/{/^set -uo/d;s/^# \{0,1\}//p}' "$0"; exit 0 ;;
	*) extra+=("$1"); shift ;;
	esac
done
[ -x "$c2c" ] || { echo "bench: no c2cscope at $c2c (build first)" >&2; exit 2; }
command -v pahole >/dev/null || { echo "bench: pahole not installed" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "bench: /usr/bin/time not installed" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# best WALL_S RSS_KB of $runs runs of "$@" (stdout to $tmp/out)
measure() {
	local i best_t= best_m= t m
	for ((i = 0; i < runs; i++)); do
		/usr/bin/time -f '%e %M' -o "$tmp/time" "$@" >"$tmp/out" 2>/dev/null
		read -r t m <"$tmp/time"
		if [ -z "$best_t" ] || awk "BEGIN{exit !($t < $best_t)}"; then best_t=$t; fi
		if [ -z "$best_m" ] || [ "$m" -lt "$best_m" ]; then best_m=$m; fi
	done
	echo "$best_t $best_m"
}

# /usr/bin/time has 10 ms resolution: time short runs in a loop instead.
measure_ms() {
	local n=20 start end
	start=$(date +%s%N)
	for ((i = 0; i < n; i++)); do "$@" >/dev/null 2>&1; done
	end=$(date +%s%N)
	echo $(((end - start) / n / 1000)) # microseconds per run
}

blocks() { grep -cE '^(struct|union) .*\{$' "$1"; }

printf '%-28s %9s %9s %7s %10s %10s %7s %8s\n' input pahole_s c2c_s wall pahole_MB c2c_MB rss structs
row() {
	local label=$1 file=$2
	shift 2
	local p c pb cb
	p=$(measure pahole "$@" "$file"); pb=$(blocks "$tmp/out")
	c=$(measure "$c2c" layout --cacheline-size 64 "$@" "$file"); cb=$(blocks "$tmp/out")
	read -r pt pm <<<"$p"
	read -r ct cm <<<"$c"
	awk -v l="$label" -v pt="$pt" -v ct="$ct" -v pm="$pm" -v cm="$cm" -v pb="$pb" -v cb="$cb" \
		'BEGIN { printf "%-28s %9.2f %9.2f %6.2fx %10.1f %10.1f %6.2fx %4d/%-4d\n",
			 l, pt, ct, (pt > 0 ? ct / pt : 0), pm / 1024, cm / 1024,
			 (pm > 0 ? cm / pm : 0), cb, pb }'
}

libc=$(readlink -f /lib/x86_64-linux-gnu/libc.so.6 2>/dev/null)
if [ -n "$libc" ]; then
	id=$(readelf -n "$libc" 2>/dev/null | sed -n 's/.*Build ID: //p')
	f=/usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug
	[ -r "$f" ] && row "libc6-dbg libc.so.6" "$f"
fi
for f in /var/cache/c2cscope/linux-6.1/core-unpatched-*.o; do
	[ -r "$f" ] && row "linux-6.1 sched/core.o" "$f" && row "  -C task_group" "$f" -C task_group
done
row "c2cscope -g (itself)" "$c2c"
for f in "${extra[@]}"; do row "$(basename "$f")" "$f"; done
if [ -r /sys/kernel/btf/vmlinux ]; then
	row "kernel BTF (all)" /sys/kernel/btf/vmlinux
	p=$(measure_ms pahole -C task_group /sys/kernel/btf/vmlinux)
	c=$(measure_ms "$c2c" layout -C task_group /sys/kernel/btf/vmlinux)
	awk -v p="$p" -v c="$c" 'BEGIN { printf "%-28s %8.1fms %8.1fms %6.2fx   (goal: c2cscope <= 20 ms)\n",
		"kernel BTF -C task_group", p / 1000, c / 1000, c / p }'
fi
