#!/usr/bin/env bash
# Operations (wakeups) per second of each sched-core build, and each build's
# ratio to upstream, measured in the same run. Rounds alternate between the
# builds; the median is kept and the spread (slowest..fastest round, and its
# width as a share of the median) printed, so nobody reads noise as a result.
#   bench.sh [--dir DIR] [--rounds N] [--seconds S] [--threads N]
# DIR holds sched-core-{upstream,reordered,aligned,ratelimited} (default: this script's
# folder in the build tree, i.e. the current directory's samples/sched-core).
# Meaningful on real multi-socket hardware; informational on a small VM.
set -euo pipefail

dir=samples/sched-core
rounds=5
seconds=1
threads=
while [ $# -gt 0 ]; do
	case "$1" in
	--dir) dir=$2; shift 2 ;;
	--rounds) rounds=$2; shift 2 ;;
	--seconds) seconds=$2; shift 2 ;;
	--threads) threads="--threads $2"; shift 2 ;;
	-h | --help) sed -n '2,9s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) echo "bench.sh: unknown option '$1'" >&2; exit 2 ;;
	esac
done

builds=(upstream reordered aligned ratelimited)
declare -A results
for b in "${builds[@]}"; do
	[ -x "$dir/sched-core-$b" ] || { echo "bench.sh: $dir/sched-core-$b not built" >&2; exit 2; }
	results[$b]=""
done
for ((r = 0; r < rounds; r++)); do
	for b in "${builds[@]}"; do
		# shellcheck disable=SC2086
		ops=$("$dir/sched-core-$b" --bench --seconds "$seconds" $threads |
			sed -n 's/^bench .*ops_per_sec=\([0-9]*\).*/\1/p')
		[ -n "$ops" ] || { echo "bench.sh: sched-core-$b printed no result" >&2; exit 1; }
		results[$b]+="$ops "
	done
done
# "median min max" of a list of numbers
stats() { tr ' ' '\n' <<<"$1" | sed '/^$/d' | sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)], v[1], v[NR]}'; }
read -r base _ _ <<<"$(stats "${results[upstream]}")"
for b in "${builds[@]}"; do
	read -r m lo hi <<<"$(stats "${results[$b]}")"
	awk -v b="$b" -v m="$m" -v lo="$lo" -v hi="$hi" -v base="$base" -v n="$rounds" \
		'BEGIN { printf "%-11s %11d ops/s  %.3fx upstream  (median of %d; spread %d..%d, %.1f%%)\n",
			 b, m, m / base, n, lo, hi, m ? 100 * (hi - lo) / m : 0 }'
done
