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

# BRANCH_STACK (with and without hw_idx), REGS_USER + STACK_USER, REGS_INTR:
# perf reads them where we wrote them, and our reader agrees field by field
F=pid,tid,time,ip,iregs,uregs,brstack
for opt in -b -B; do
	"$GEN" -n 20 $opt -u -I "$TMP/x$opt.data" || fail "perf_gen $opt -u -I failed"
	perf_run "script_x$opt" script -i "$TMP/x$opt.data" -F $F
	tr -s ' ' <"$TMP/script_x$opt.out" | sed 's/^ //; s/ $//' >"$TMP/want"
	"$DUMP" -F $F "$TMP/x$opt.data" >"$TMP/got"
	expect_eq "perf_gen $opt -u -I: perf_dump = perf script" "" "$(diff "$TMP/want" "$TMP/got" | head -5)"
done
# sample 3: branches from 0x401030, cycles 3 and 4; no user regs in sample 5
expect_contains "branch entries" "0x401030/0x402030/M/-/-/3/ 0x401031/0x402031/P/-/-/4/" "$TMP/got"
expect_eq "no user regs every fifth sample" 4 "$(grep -c -v 'SP:' "$TMP/got")"
perf report -D -i "$TMP/x-B.data" 2>/dev/null | sed -n 's/^\.\.\. ustack: size \([0-9]*\),.*/\1/p' |
	sort | uniq -c | awk '{ print $1, $2 }' >"$TMP/ustack"
expect_eq "user stacks perf sees (live sizes)" "20 48" "$(cat "$TMP/ustack")"
expect_eq "user stacks we see" "20" "$("$DUMP" -F ustack "$TMP/x-B.data" | grep -c 'ustack=64/48/')"

# READ with a group read_format (ids of the writer's two events)
"$GEN" -n 6 -R "$TMP/rd.data" || fail "perf_gen -R failed"
perf_run script_rd script -i "$TMP/rd.data" -F pid,time,event
perf report -D -i "$TMP/rd.data" 2>/dev/null | awk '
	function hex(s) { sub(/^0+/, "", s); return "0x" (s == "" ? "0" : s) }
	/sample_read:/ { if (line != "") print line; line = ""; on = 1; next }
	on && /time enabled/ { line = line " enabled=" hex($NF); next }
	on && /time running/ { line = line " running=" hex($NF); next }
	on && /\.\.\.\.\. id / { gsub(",", ""); line = line " " hex($3) ":" hex($5); next }
	on && !/group nr/ { on = 0 }
	END { if (line != "") print line }' >"$TMP/want"
"$DUMP" -F read "$TMP/rd.data" | sed '/^ *$/d' >"$TMP/got"
expect_eq "group read: perf report -D = perf_dump" "" "$(diff "$TMP/want" "$TMP/got" | head -5)"
expect_eq "group read, sample 1" " enabled=0x3ef running=0x389 0x3e8:0xb 0x3e9:0x15" \
	"$(sed -n 2p "$TMP/got")"
finish
