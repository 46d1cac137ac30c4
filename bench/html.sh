#!/usr/bin/env bash
# Benchmark (not a timed test): the HTML report against the text report
# on the same perf.data, in the same run.
#   bench/html.sh [BUILD_DIR] [SAMPLES] [LINES] [RUNS]
# The file comes from tests/c2c/gen_c2c_data (default 2,000,000 memory
# samples over 10,000 lines, with physical addresses). Runs
# `report --stdio` (text to a file) and `report --html` (the page, top 50
# lines) RUNS times (default 3), alternating, and prints the best wall and
# CPU time of each, the difference, the page's size and the load average
# before and after. Goal: the page costs at most 0.2 s more than the text,
# and weighs under 2 MB.
set -euo pipefail

source "$(dirname "$0")/lib.sh"
bench_args "$@"

bench_input

export C2CSCOPE_PROGRESS=0
bench_load before
for _ in $(seq "$runs"); do
	measure text "$c2c" report -i "$tmp/bench.data" --stdio
	measure html "$c2c" report -i "$tmp/bench.data" --html "$tmp/page.html"
done
bench_load after
read -r tw tc tr < <(best text)
read -r hw hc hr < <(best html)
size=$(stat -c %s "$tmp/page.html")
drawn=$(grep -c '<details' "$tmp/page.html" || true)

printf "%-16s %10s %10s %12s   (best of %s)\n" "" "wall s" "cpu s" "peak RSS KB" "$runs"
printf "%-16s %10s %10s %12s\n" "report --stdio" "$tw" "$tc" "$tr"
printf "%-16s %10s %10s %12s\n" "report --html" "$hw" "$hc" "$hr"
awk -v tw="$tw" -v hw="$hw" -v tc="$tc" -v hc="$hc" -v size="$size" -v drawn="$drawn" 'BEGIN {
	printf "page: %d lines drawn, %.2f MB (goal < 2 MB)\n", drawn, size / 1e6
	printf "html - text: wall %+.2f s, cpu %+.2f s (goal <= +0.2 s)\n", hw - tw, hc - tc
}'
