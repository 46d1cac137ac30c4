#!/usr/bin/env bash
# Benchmark (not a test): `c2cscope record` against `perf record` with the
# same events in the same run: `-e cpu-clock -F FREQ -a` while a busy
# workload (one spinning shell per cpu) runs for SECONDS. For each: samples
# written (perf script's count), samples lost (the file's LOST records),
# and the recorder's own CPU seconds (user + system of the recorder, from
# /proc/PID/stat at its end, the workload excluded), then the ratios
# c2cscope / perf. Run as root (system-wide sampling). On a loaded machine
# the numbers move run to run: the load average is printed with them.
# usage: bench/record.sh [BUILD_DIR] [SECONDS] [FREQ]   (default ./build, 5, 20000)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
secs=${2:-5}
freq=${3:-20000}
c2c=$build/c2cscope/c2cscope
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tick=$(getconf CLK_TCK)

spin() { # one busy loop per cpu for $secs seconds
	local i
	for ((i = 0; i < $(nproc); i++)); do
		timeout "$secs" sh -c 'while :; do :; done' &
	done
}

# run NAME CMD...: records while the workload spins; prints "samples lost cpu"
run() {
	local name=$1 pid stat utime stime
	shift
	spin
	"$@" >"$tmp/$name.out" 2>"$tmp/$name.err" &
	pid=$!
	sleep "$secs"
	# the recorder's own CPU time, read just before it is stopped
	stat=$(cut -d' ' -f14,15 "/proc/$pid/stat")
	kill -INT "$pid"
	wait "$pid" || true
	wait
	read -r utime stime <<<"$stat"
	perf script -i "$tmp/$name.data" --show-lost-events 2>/dev/null >"$tmp/$name.script" || true
	printf '%s %s %s\n' \
		"$(grep -vc PERF_RECORD_LOST "$tmp/$name.script" || true)" \
		"$(awk '/PERF_RECORD_LOST lost/ { s += $NF } END { print s + 0 }' "$tmp/$name.script")" \
		"$(echo "scale=3; ($utime + $stime) / $tick" | bc -l)"
}

ratio() { # A / B, or - when B is 0
	if [ "$(echo "$2 > 0" | bc -l)" = 1 ]; then printf '%.2f' "$(echo "$1 / $2" | bc -l)"; else echo -; fi
}

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cpus;" \
	"-e cpu-clock -F $freq -a for ${secs} s with $(nproc) busy loops"
read -r ps pl pc <<<"$(run perf perf record -q -e cpu-clock -F "$freq" -a -o "$tmp/perf.data")"
read -r cs cl cc <<<"$(run c2c "$c2c" record -e cpu-clock -F "$freq" -a -o "$tmp/c2c.data")"
printf '%-10s %12s %12s %12s\n' recorder samples lost "cpu s"
printf '%-10s %12s %12s %12s\n' perf "$ps" "$pl" "$pc"
printf '%-10s %12s %12s %12s\n' c2cscope "$cs" "$cl" "$cc"
printf '%-10s %12s %12s %12s\n' "c2c/perf" "$(ratio "$cs" "$ps")" "$(ratio "$cl" "$pl")" \
	"$(ratio "$cc" "$pc")"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
