# Helpers for the PMU recorder's tests (sourced after tests/lib.sh).
SYSFS="$TOP_SRCDIR/tests/record/sysfs"

perf_require() {
	command -v perf >/dev/null || skip "perf not installed"
	perf version >/dev/null 2>&1 || skip "perf does not run here"
}

# Software events must open here (root, or perf_event_paranoid allowing it).
record_require() {
	"$C2CSCOPE" record -e page-faults -c 100000 -o "$TMP/probe.data" -- true \
		>"$TMP/probe.out" 2>&1 ||
		skip "perf_event_open refused here: $(head -1 "$TMP/probe.out")"
	rm -f "$TMP/probe.data"
}

# system-wide recording needs perf_event_paranoid <= 0 or root
system_wide_require() {
	[ "$(id -u)" -eq 0 ] || [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -le 0 ] ||
		skip "system-wide recording needs root or kernel.perf_event_paranoid <= 0"
}

tracefs_require() {
	# record mounts tracefs itself when it may (root)
	"$C2CSCOPE" record --dry-run -e sched:sched_switch >/dev/null 2>&1
	[ -r /sys/kernel/tracing/events/header_page ] ||
		[ -r /sys/kernel/debug/tracing/events/header_page ] ||
		skip "tracefs is not mounted (mount -t tracefs nodev /sys/kernel/tracing)"
}

# pages_missing SCRIPT PREFIX BASE PAGES PAGESZ: how many of the PAGES pages
# from 0xBASE have no line "PREFIX ADDR ... touch_pages" in SCRIPT
# (perf script -F <who>,addr,ip,sym)
pages_missing() {
	local script=$1 prefix=$2 base=$3 pages=$4 pagesz=$5 i addr missing=0
	for ((i = 0; i < pages; i++)); do
		addr=$(printf '%x' $((0x$base + i * pagesz)))
		grep -qE "^ *$prefix +$addr .*touch_pages" "$script" || missing=$((missing + 1))
	done
	echo "$missing"
}

# placed_record: record --sched of tests/record/placed.c's two pinned
# threads (their tids in $TMP/tids) to $TMP/s.data and its report --stdio
# in $TMP/rep; skips where the recording cannot be made
placed_record() {
	record_require
	system_wide_require
	tracefs_require
	compile "$TMP/placed" "$TOP_SRCDIR/tests/record/placed.c" -O1 -g -pthread || finish
	run_c2c 0 "$TMP/tids" "$TMP/err" record --sched -e page-faults -c 1 -a \
		-o "$TMP/s.data" -- "$TMP/placed"
	run_c2c 0 "$TMP/rep" "$TMP/rep.err" report -i "$TMP/s.data" --stdio
}
