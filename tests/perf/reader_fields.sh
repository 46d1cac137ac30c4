#!/usr/bin/env bash
# The sample fields c2c does not use, in files perf 6.1 writes itself with
# software events, read as perf sees them: REGS_USER and REGS_INTR
# (perf script -F uregs,iregs), STACK_USER and READ (perf report -D),
# IDENTIFIER, CODE_PAGE_SIZE, CGROUP, WEIGHT_STRUCT, and the RAW data of a
# tracepoint (decoded with the kernel's format file, against perf's).
source "$TOP_SRCDIR/tests/lib.sh"
source "$TOP_SRCDIR/tests/perf/record_lib.sh"

# same WHAT WANT GOT: perf printed something, and perf_dump the same lines
same() {
	if [ ! -s "$2" ]; then
		fail "$1: perf printed nothing"
	elif cmp -s "$2" "$3"; then
		ok
	else
		fail "$1: perf and perf_dump differ:"
		diff "$2" "$3" | head -6 | cut -c1-300 >&2
	fi
}

# Lines in time order (the "SECONDS.MICROS:" field), stable: perf script
# sorts samples by time, the file holds them as each cpu's buffer was
# flushed (they differ when the workload moves between cpus).
by_time() {
	awk '{ t = 0; for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { t = $i; break }
	       print t "\t" $0 }' | sort -s -n -k1,1 | cut -f2-
}

# perf script -F FIELDS next to perf_dump -F FIELDS, blanks squeezed
compare() {
	local what=$1 file=$2 fields=$3
	perf script -i "$file" -F "$fields" 2>/dev/null | tr -s ' \t' '  ' | sed 's/^ //; s/ $//' |
		sed '/^$/d' | by_time >"$TMP/want"
	"$DUMP" -F "$fields" "$file" 2>"$TMP/dump.err" >"$TMP/got.raw"
	expect_eq "$what: perf_dump exit status" 0 $?
	by_time <"$TMP/got.raw" >"$TMP/got"
	same "$what" "$TMP/want" "$TMP/got"
	expect_eq "$what: perf_dump stderr" "" "$(cat "$TMP/dump.err")"
}

# REGS_USER and REGS_INTR with every other field a software event can have
record "$TMP/regs.data" -e cpu-clock -c 50000 --sample-cpu --user-regs=ax,bx,sp \
	--intr-regs=ax,bx,cx,ip --sample-identifier -T -d --data-page-size --code-page-size -W \
	--all-cgroups
perf evlist -v -i "$TMP/regs.data" >"$TMP/evlist" 2>/dev/null
for f in REGS_USER REGS_INTR IDENTIFIER CGROUP CODE_PAGE_SIZE WEIGHT_STRUCT; do
	expect_contains "sample_type has $f" "$f" "$TMP/evlist"
done
compare "user and interrupt registers" "$TMP/regs.data" pid,tid,cpu,time,ip,iregs,uregs
compare "page sizes and weights after the registers" "$TMP/regs.data" \
	pid,tid,time,addr,weight,ins_lat,data_page_size,code_page_size

# CGROUP: perf script cannot print it; the id of the cgroup spin ran in
# (cgroup v2: the inode of its directory) is in every sample
cg=$(sed -n 's/^0:://p' /proc/self/cgroup)
if [ -n "$cg" ] && [ -d "/sys/fs/cgroup$cg" ]; then
	ino=$(stat -c %i "/sys/fs/cgroup$cg")
	"$DUMP" -F cgroup "$TMP/regs.data" | sort -u >"$TMP/cg"
	expect_eq "cgroup id of every sample" " cgroup=$ino" "$(cat "$TMP/cg")"
fi

# --call-graph dwarf: REGS_USER + STACK_USER; perf report -D prints the
# live size of each user stack, perf script the registers
record "$TMP/dw.data" -e cpu-clock -c 100000 --call-graph dwarf,1024 --user-regs=ax,bx
compare "dwarf callchain registers" "$TMP/dw.data" pid,tid,time,uregs
# (as sorted lists: perf report -D and perf_dump need not take the samples
# in the same order)
perf report -D -i "$TMP/dw.data" 2>/dev/null | sed -n 's/^\.\.\. ustack: size \([0-9]*\),.*/\1/p' |
	sort -n >"$TMP/want"
"$DUMP" -F ustack "$TMP/dw.data" | sed 's/.*ustack=[0-9]*\/\([0-9]*\)\/.*/\1/' | sort -n >"$TMP/got"
same "user stack live sizes" "$TMP/want" "$TMP/got"
"$DUMP" -F ustack "$TMP/dw.data" | grep -v "ustack=1024/" && fail "user stack size is not 1024" ||
	ok

# READ with a group read_format: times, then id and value of each member
record "$TMP/rd.data" -e '{cpu-clock,task-clock}:S' -c 100000 --sample-cpu
perf report -D -i "$TMP/rd.data" 2>/dev/null | awk '
	function hex(s) { sub(/^0+/, "", s); return "0x" (s == "" ? "0" : s) }
	/sample_read:/ { if (line != "") print line; line = ""; on = 1; next }
	on && /time enabled/ { line = line " enabled=" hex($NF); next }
	on && /time running/ { line = line " running=" hex($NF); next }
	on && /\.\.\.\.\. id / { gsub(",", "")
		line = line " " hex($3) ":" hex($5) ($6 == "lost" ? ":lost=" hex($7) : ""); next }
	on && !/group nr/ { on = 0 }
	END { if (line != "") print line }' | sort >"$TMP/want"
"$DUMP" -F read "$TMP/rd.data" | sed '/^ *$/d' | sort >"$TMP/got"
same "group read values" "$TMP/want" "$TMP/got"
expect_eq "group read: two members" 2 "$(head -1 "$TMP/got" | grep -o ' 0x[0-9a-f]*:' | wc -l)"

# RAW: a tracepoint's data, decoded with the kernel's format file.  The
# workload sleeps, so it is switched out at least once (a spinning one may
# keep its cpu for its whole run on a quiet machine, and record nothing).
fmt=/sys/kernel/tracing/events/sched/sched_switch/format
if [ -r "$fmt" ] && command -v python3 >/dev/null &&
	perf record -q -o "$TMP/raw.data" -e sched:sched_switch -c 1 -- sleep 0.01 \
		>/dev/null 2>&1; then
	perf script -i "$TMP/raw.data" -F tid,time,trace 2>/dev/null |
		awk '{ print $1, $2, $3, $4, $8, $9 }' | by_time >"$TMP/want"
	"$DUMP" -F tid,time,raw "$TMP/raw.data" | python3 -c '
import re, sys
fmt = {m[0]: (int(m[1]), int(m[2])) for m in
       re.findall(r"field:[^;]*?(\w+)(?:\[\d+\])?;\s*offset:(\d+);\s*size:(\d+);", open(sys.argv[1]).read())}
def get(raw, name, text=False):
    off, size = fmt[name]
    b = raw[off:off + size]
    return b.split(b"\0")[0].decode() if text else int.from_bytes(b, "little", signed=True)
for line in sys.stdin:
    tid, time, raw = line.split()
    raw = bytes.fromhex(raw.split(":")[1])
    print(tid, time, "prev_comm=%s prev_pid=%d next_comm=%s next_pid=%d" % (get(raw, "prev_comm", True),
          get(raw, "prev_pid"), get(raw, "next_comm", True), get(raw, "next_pid")))
' "$fmt" | by_time >"$TMP/got"
	same "tracepoint raw data" "$TMP/want" "$TMP/got"
fi
finish
