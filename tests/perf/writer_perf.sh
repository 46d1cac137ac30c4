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

# our reader sees what perf script sees, field by field
DUMP="$TOP_BUILDDIR/tests/perf/perf_dump"
F=pid,tid,cpu,time,period,event,addr,weight,ip,phys_addr
perf script -i "$TMP/two.data" -F $F 2>/dev/null | tr -s ' ' | sed 's/^ //' >"$TMP/want"
"$DUMP" -F $F "$TMP/two.data" >"$TMP/got"
expect_eq "perf_dump = perf script" "" "$(diff "$TMP/want" "$TMP/got" | head -5)"
expect_eq "perf_dump lines" 40 "$(wc -l <"$TMP/got")"
"$DUMP" -F data_src "$TMP/two.data" | sort | uniq -c | awk '{ print $1, $2 }' >"$TMP/src"
expect_eq "data_src values" "10 28100142 10 28800842 10 4080144 10 48202042" "$(echo $(cat "$TMP/src"))"
"$DUMP" -H "$TMP/two.data" >"$TMP/hdr"
expect_contains "header: numa" "node0 cpu list: 0-" "$TMP/hdr"
expect_contains "header: event names" "event 1: name = cpu/mem-stores/P, type = 4, config = 0x82d0" "$TMP/hdr"
expect_contains "header: build id" "build id -1: " "$TMP/hdr"

"$GEN" -n 10 -e 1 -g -r "$TMP/cg.data" || fail "perf_gen -g -r failed"
perf_run script_cg script -i "$TMP/cg.data"
perf_run report_cg report -i "$TMP/cg.data" --stdio
finish
