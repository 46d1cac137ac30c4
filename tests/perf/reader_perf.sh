#!/usr/bin/env bash
# Files written by perf 6.1 itself read exactly as `perf script` sees them,
# field by field: file mode, pipe mode (file and stdin), two events with
# callchains, side records, a file cut short.
source "$TOP_SRCDIR/tests/lib.sh"
source "$TOP_SRCDIR/tests/perf/record_lib.sh"

# Drop perf's decoded data_src ("|OP ...|BLK  N/A") and squeeze blanks.
normalize() {
	awk '{ out = ""; skip = 0
	       for (i = 1; i <= NF; i++) {
		       if ($i ~ /^\|OP/) { skip = 1; continue }
		       if (skip == 1) { if ($i ~ /\|BLK$/) skip = 2; continue }
		       if (skip == 2 && ($i == "N/A" || $i == "Data" || $i == "Addr")) continue
		       skip = 0; out = out (out == "" ? "" : " ") $i }
	       print out }'
}

# Callchain entries (tab-indented lines) joined onto their sample's line.
join_chains() {
	awk '/^\t/ { line = line " " $1; next } { if (NR > 1) print line; line = $0 } END { print line }' |
		normalize
}

# perf script prints user-space callchain entries relative to their object:
# compare those by position only ("U"), kernel entries exactly.
user_frames() {
	awk '{ for (i = 6; i <= NF; i++) if ($i !~ /^ffffffff/) $i = "U"; print }'
}

# compare WHAT FILE FIELDS [FILTER]: perf script and perf_dump agree
compare() {
	local what=$1 file=$2 fields=$3 filter=${4:-cat}
	perf script -i "$file" -F "$fields" 2>"$TMP/script.err" | join_chains | sed '/^$/d' |
		sort -s -n -k3,3 | $filter >"$TMP/want"
	"$DUMP" -F "$fields" "$file" 2>"$TMP/dump.err" | sed '/^$/d' | sort -s -n -k3,3 |
		$filter >"$TMP/got"
	if [ ! -s "$TMP/want" ]; then
		fail "$what: perf script printed nothing"
	elif cmp -s "$TMP/want" "$TMP/got"; then
		ok
	else
		fail "$what: perf script and perf_dump differ:"
		diff "$TMP/want" "$TMP/got" | head -6 | cut -c1-300 >&2
	fi
	expect_eq "$what: perf_dump stderr" "" "$(cat "$TMP/dump.err")"
}

F=pid,tid,cpu,time,period,event,addr,data_src,weight,ip,phys_addr,data_page_size
record "$TMP/mem.data" -e cpu-clock -c 50000 -d --data-page-size -W --sample-cpu --phys-data
compare "file mode, -d -W --phys-data" "$TMP/mem.data" "$F"
compare "ins_lat" "$TMP/mem.data" pid,tid,cpu,time,ins_lat

# side records, as perf script --show-mmap-events --show-task-events
perf script -i "$TMP/mem.data" --show-mmap-events --show-task-events 2>/dev/null |
	grep -o 'PERF_RECORD_.*' | sed 's/^PERF_RECORD_//' | sort >"$TMP/want"
"$DUMP" -s "$TMP/mem.data" | sort >"$TMP/got"
expect_eq "side records" "" "$(diff "$TMP/want" "$TMP/got" | head -5)"
expect_contains "side records seen" "COMM exec: spin:" "$TMP/got"

record "$TMP/cg.data" -e cpu-clock,task-clock -c 50000 -g --sample-cpu
compare "two events with callchains" "$TMP/cg.data" pid,tid,cpu,time,period,event,ip user_frames
"$DUMP" -H "$TMP/cg.data" >"$TMP/cg.hdr"
expect_contains "two events" "event 1: name = task-clock" "$TMP/cg.hdr"

perf record -q -o - -e cpu-clock -c 50000 -d --sample-cpu -- "$TMP/spin" >"$TMP/pipe.data" 2>/dev/null
compare "pipe mode in a file" "$TMP/pipe.data" pid,tid,cpu,time,period,event,addr,ip
"$DUMP" -F pid,tid,cpu,time,period,event,addr,ip - <"$TMP/pipe.data" | sort -s -n -k3,3 >"$TMP/stdin"
expect_eq "pipe mode from stdin" "" "$(diff "$TMP/got" "$TMP/stdin" | head -5)"

# REGS_USER + STACK_USER (dwarf callchains): the fields after them still line up
record "$TMP/dw.data" -e cpu-clock -c 100000 --call-graph dwarf,1024 --user-regs=ax,bx -d -W --sample-cpu
compare "regs and user stack" "$TMP/dw.data" pid,tid,cpu,time,period,event,addr,data_src,weight

# READ with a group read_format (leader sampling); perf script also prints
# one synthesized sample per member: keep the leader's
leader_only() { grep -v task-clock; }
record "$TMP/rd.data" -e '{cpu-clock,task-clock}:S' -c 100000 -d --sample-cpu
compare "group read" "$TMP/rd.data" pid,tid,cpu,time,event,addr,data_src leader_only

# perf record -z: COMPRESSED records (zstd)
if perf record -q -z -o "$TMP/z.data" -e cpu-clock -c 50000 --sample-cpu -- "$TMP/spin" \
	>/dev/null 2>&1; then
	compare "compressed (-z)" "$TMP/z.data" pid,tid,cpu,time,period,event,ip
	"$DUMP" -H "$TMP/z.data" >"$TMP/z.hdr"
	if grep -q '^compressed: 0$' "$TMP/z.hdr"; then
		fail "compressed: no COMPRESSED record was unpacked"
	else
		ok
	fi
fi

# cut short: the samples before the cut, in file order, and a warning
size=$(stat -c %s "$TMP/mem.data")
head -c $((size * 2 / 3)) "$TMP/mem.data" >"$TMP/cut.data"
# (no event names: EVENT_DESC was in the part cut off)
"$DUMP" -F "${F/event,/}" "$TMP/mem.data" >"$TMP/full" 2>/dev/null
"$DUMP" -F "${F/event,/}" "$TMP/cut.data" >"$TMP/cut" 2>"$TMP/cut.err"
expect_eq "cut file exit" 0 $?
n=$(wc -l <"$TMP/cut")
expect_eq "cut file: a prefix of the samples" "" "$(head -n "$n" "$TMP/full" | diff - "$TMP/cut" | head -5)"
[ "$n" -gt 10 ] && [ "$n" -lt "$(wc -l <"$TMP/full")" ] && ok || fail "cut file: $n samples"
expect_contains "cut warning" "cut short" "$TMP/cut.err"
expect_contains "cut count" "($n samples) were read" "$TMP/cut.err"
finish
