#!/usr/bin/env bash
# Benchmark (not a timed test): how long the TUI takes to open a large
# perf.data against report --stdio on the same file, and how long a key
# that only moves the cursor takes to redraw.
#   bench/tui.sh [BUILD_DIR] [SAMPLES] [LINES] [RUNS] [KEYS]
# The file comes from tests/c2c/gen_c2c_data (default 2,000,000 samples
# over 10,000 lines). Both are launched in a fresh 200x50 tmux server:
# report --stdio's time runs to its exit, the TUI's open time to the
# instant its first screen is drawn (it logs that to C2CSCOPE_TUI_TIMING). Redraw: the TUI's own time from reading a key to
# the end of the refresh, for KEYS (default 200) presses of j and of k.
# Goals (issue 14): open <= report --stdio + 0.1 s; a cursor key <= 20 ms.
# Prints the load average before and after: numbers taken on a loaded
# machine say so.
set -euo pipefail

source "$(dirname "$0")/lib.sh"
bench_args "$@"
nkeys=${5:-200}

command -v tmux >/dev/null || { echo "bench: tmux is not installed" >&2; exit 77; }
bench_input
sock=
trap '[ -z "$sock" ] || tmux -L "$sock" kill-server 2>/dev/null || true; rm -rf "$tmp"' EXIT
bench_load before

now_us() { echo $(($(date +%s%N) / 1000)); }

# in_tmux NAME CMD: launch CMD in a fresh 200x50 tmux server (both runs pay
# the same launch), so the times compare; prints the server's socket name
run_no=0
in_tmux() {
	run_no=$((run_no + 1))
	sock=c2c-bench-tui-$$-$run_no
	tmux -L "$sock" -f /dev/null new-session -d -s b -x 200 -y 50 "$1; sleep 60"
}
stop_tmux() { tmux -L "$sock" kill-server 2>/dev/null || true; }

stdio_best=
for r in $(seq "$runs"); do
	t0=$(now_us)
	in_tmux "C2CSCOPE_PROGRESS=0 $c2c report -i $tmp/bench.data --stdio >/dev/null; date +%s%N >$tmp/done.$r"
	for _ in $(seq 600); do
		[ -s "$tmp/done.$r" ] && break
		sleep 0.05
	done
	t=$(($(cat "$tmp/done.$r") / 1000 - t0))
	stop_tmux
	[ -z "$stdio_best" ] || [ "$t" -lt "$stdio_best" ] && stdio_best=$t
done

open_best=
for r in $(seq "$runs"); do
	log=$tmp/timing.$r
	t0=$(now_us)
	in_tmux "C2CSCOPE_PROGRESS=0 C2CSCOPE_TUI_TIMING=$log $c2c report -i $tmp/bench.data"
	for _ in $(seq 600); do
		grep -q '^drawn' "$log" 2>/dev/null && break
		sleep 0.05
	done
	t=$(($(awk '/^drawn/ { print $2 }' "$log") - t0))
	[ -z "$open_best" ] || [ "$t" -lt "$open_best" ] && open_best=$t
	if [ "$r" = "$runs" ]; then # the last run also times keys
		for k in j k; do
			for _ in $(seq "$nkeys"); do
				tmux -L "$sock" send-keys -t b "$k"
			done
		done
		tmux -L "$sock" send-keys -t b q
		for _ in $(seq 100); do
			[ "$(grep -c '^key' "$log")" -ge $((2 * nkeys)) ] && break
			sleep 0.05
		done
		cp "$log" "$tmp/keys"
	fi
	stop_tmux
done
bench_load after

printf "report --stdio: %.3f s (best of %s)\n" "$(echo "$stdio_best / 1000000" | bc -l)" "$runs"
printf "TUI open:       %.3f s (best of %s); goal <= stdio + 0.100 s: %s\n" \
	"$(echo "$open_best / 1000000" | bc -l)" "$runs" \
	"$([ "$open_best" -le $((stdio_best + 100000)) ] && echo met || echo missed)"
awk '$1 == "key" { print $3 }' "$tmp/keys" | sort -n | awk -v n="$nkeys" '
	{ v[NR] = $1 }
	END {
		if (!NR) { print "no key timed"; exit 1 }
		printf "cursor key redraw (%d keys): median %.2f ms, p99 %.2f ms, max %.2f ms; goal <= 20 ms: %s\n",
			NR, v[int((NR + 1) / 2)] / 1000, v[int(NR * 0.99) ? int(NR * 0.99) : 1] / 1000,
			v[NR] / 1000, v[NR] <= 20000 ? "met" : "missed"
	}'
