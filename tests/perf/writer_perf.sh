#!/usr/bin/env bash
# Files from our writer are read by perf 6.1 itself without a warning:
# perf script (same fields), perf report and perf c2c report.
source "$TOP_SRCDIR/tests/lib.sh"
command -v perf >/dev/null || skip "perf not installed"
GEN="$TOP_BUILDDIR/tests/perf/perf_gen"

# perf_run NAME ARGS...: run perf, stdout to $TMP/NAME.out, stderr must be empty
perf_run() {
	local name=$1
	shift
	if ! perf "$@" >"$TMP/$name.out" 2>"$TMP/$name.err"; then
		fail "perf $*: exit status $?"
		sed 's/^/    | /' "$TMP/$name.err" | head -20 >&2
	elif [ -s "$TMP/$name.err" ]; then
		fail "perf $*: wrote on stderr:"
		sed 's/^/    | /' "$TMP/$name.err" | head -20 >&2
	else
		ok
	fi
}

"$GEN" -n 40 "$TMP/two.data" || fail "perf_gen failed"
perf_run script script -i "$TMP/two.data" -F event,tid,cpu,time,ip,addr,period,weight,data_src
expect_eq "samples seen by perf script" 40 "$(wc -l <"$TMP/script.out")"
expect_eq "mem-loads samples" 20 "$(grep -c 'cpu/mem-loads,ldlat=30/P' "$TMP/script.out")"
expect_eq "mem-stores samples" 20 "$(grep -c 'cpu/mem-stores/P' "$TMP/script.out")"
# sample 5: tid 101, cpu 1, time 1.005000 (1005000 ns), addr 0x10028, period 1005, weight 35
tr -s ' ' <"$TMP/script.out" | sed 's/^ //' >"$TMP/script.norm"
expect_eq "sample 5 fields" "101 [001] 0.001005: 1005 cpu/mem-stores/P: 10028 28800842 |OP LOAD|LVL L3 hit|SNP HitM|TLB L1 hit|LCK No|BLK N/A 35" \
	"$(sed -n 6p "$TMP/script.norm" | sed 's/ [0-9a-f]*$//')"
perf_run report report -i "$TMP/two.data" --stdio --sort sym
expect_contains "symbol resolved through MMAP2" "gen_hot_function" "$TMP/report.out"
perf_run c2c c2c report -i "$TMP/two.data" --stdio
expect_contains "c2c events" "cpu/mem-loads,ldlat=30/P" "$TMP/c2c.out"
perf_run header report -i "$TMP/two.data" --header-only
expect_contains "nrcpus" "nrcpus avail" "$TMP/header.out"

"$GEN" -n 10 -e 1 -g -r "$TMP/cg.data" || fail "perf_gen -g -r failed"
perf_run script_cg script -i "$TMP/cg.data"
perf_run report_cg report -i "$TMP/cg.data" --stdio
finish
