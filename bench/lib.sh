# Shared by the bench scripts that time a generated perf.data (report.sh,
# html.sh, tui.sh): their arguments, the input file, the load average, and
# timing with GNU time into $tmp.

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# bench_args [BUILD_DIR] [SAMPLES] [LINES] [RUNS]: sets build, samples
# (default 2,000,000), lines (10,000), runs (3) and c2c, the binary
bench_args() {
	build=${1:-$top/build}
	samples=${2:-2000000}
	lines=${3:-10000}
	runs=${4:-3}
	c2c=$build/c2cscope/c2cscope
}

# bench_load WHEN: "load average WHEN: 1m 5m 15m (N cpus)"
bench_load() {
	echo "load average $1: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) cpus)"
}

# bench_input: build the generator and c2cscope, write $tmp/bench.data
# (samples memory samples over lines lines, with physical addresses)
bench_input() {
	[ -x /usr/bin/time ] || { echo "bench: needs GNU time (/usr/bin/time)" >&2; exit 77; }
	make -C "$build" -s tests/c2c/gen_c2c_data c2cscope/c2cscope >/dev/null
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/c2c-bench.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	"$build/tests/c2c/gen_c2c_data" -n "$samples" -l "$lines" -P -q "$tmp/bench.data"
	echo "input: $samples samples over $lines lines," \
		"$(($(stat -c %s "$tmp/bench.data") / 1048576)) MiB"
}

# measure NAME CMD...: appends "wall cpu rss_kb" to $tmp/NAME.times, stdout in NAME.out
measure() {
	local name=$1
	shift
	/usr/bin/time -f "%e %U %S %M" -o "$tmp/$name.time" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
	awk '{ printf "%s %.2f %s\n", $1, $2 + $3, $4 }' "$tmp/$name.time" >>"$tmp/$name.times"
}
# best NAME: "best_wall best_cpu max_rss" over the runs
best() {
	awk 'NR == 1 || $1 < w { w = $1 } NR == 1 || $2 < c { c = $2 } $3 > r { r = $3 }
	     END { print w, c, r }' "$tmp/$1.times"
}
