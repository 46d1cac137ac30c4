#!/usr/bin/env bash
# Benchmark (not a timed test): c2cscope report --stdio against
# perf c2c report --stdio on the same perf.data, in the same run.
#   bench/report.sh [BUILD_DIR] [SAMPLES] [LINES] [RUNS]
# The file comes from tests/c2c/gen_c2c_data (default 2,000,000 memory
# samples over 10,000 lines, with physical addresses and FINISHED_ROUND
# records). Runs both RUNS times (default 3), alternating, and prints the
# best wall time, the best CPU time (user+sys) and the peak RSS of each,
# the ratios perf/c2cscope and the load average before and after; on a
# shared machine CPU time is the steadier of the two clocks. Also checks
# that both printed the same summary figures.
set -euo pipefail

source "$(dirname "$0")/lib.sh"
bench_args "$@"

command -v perf >/dev/null || { echo "bench: perf is not installed" >&2; exit 77; }
bench_input

bench_load before
for _ in $(seq "$runs"); do
	measure perf perf c2c report -i "$tmp/bench.data" --stdio
	C2CSCOPE_PROGRESS=0 measure ours "$c2c" report -i "$tmp/bench.data" --stdio
done
bench_load after
read -r pw pc pr < <(best perf)
read -r cw cc cr < <(best ours)

printf "%-10s %10s %10s %12s   (best of %s)\n" "" "wall s" "cpu s" "peak RSS KB" "$runs"
printf "%-10s %10s %10s %12s\n" perf "$pw" "$pc" "$pr"
printf "%-10s %10s %10s %12s\n" c2cscope "$cw" "$cc" "$cr"
awk -v pw="$pw" -v cw="$cw" -v pc="$pc" -v cc="$cc" -v pr="$pr" -v cr="$cr" 'BEGIN {
	printf "speed-up (perf/c2cscope): wall %.1fx, cpu %.1fx (goal >= 10x)\n", pw / cw, pc / cc
	printf "peak RSS (c2cscope/perf): %.2f (goal <= 0.25)\n", cr / pr
}'

summary() { sed -n '1,/c2c details/p' "$1" | grep -E '^  [A-Z][^:]*: ' | sed 's/ *$//'; }
if [ "$(summary "$tmp/perf.out")" = "$(summary "$tmp/ours.out")" ]; then
	echo "summary figures: identical"
else
	echo "summary figures: DIFFERENT" >&2
	diff <(summary "$tmp/perf.out") <(summary "$tmp/ours.out") >&2 || true
	exit 1
fi
