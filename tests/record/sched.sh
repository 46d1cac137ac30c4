#!/usr/bin/env bash
# -e sched:sched_switch -a: the file carries perf's TRACING_DATA feature,
# so perf script decodes the raw samples into their fields; the program
# that slept is among the switched-out tasks; --sched adds
# sched_migrate_task and perf script names both.
. "$TOP_SRCDIR/tests/lib.sh"
. "$TOP_SRCDIR/tests/record/common.sh"
perf_require
record_require
system_wide_require
tracefs_require

cp /bin/sleep "$TMP/napper"
run_c2c 0 "$TMP/out" "$TMP/err" record -e sched:sched_switch -a -o "$TMP/s.data" -- \
	sh -c "for i in 1 2 3 4 5; do $TMP/napper 0.02; done"
perf script -i "$TMP/s.data" 2>"$TMP/script.err" >"$TMP/script"
expect_contains "decoded fields" "sched:sched_switch: prev_comm=" "$TMP/script"
expect_contains "the sleeper switched out" "prev_comm=napper " "$TMP/script"
expect_not_contains "no undecoded samples" "[unknown]" "$TMP/script.err"
ours=$(sed -n 's/.*record: \([0-9]*\) samples written.*/\1/p' "$TMP/err")
expect_eq "samples printed vs perf script" "$ours" "$(wc -l <"$TMP/script")"

run_c2c 0 "$TMP/d" "$TMP/d.err" record --sched -e page-faults --dry-run
expect_contains "--sched switch" "sched:sched_switch: type=2 " "$TMP/d"
expect_contains "--sched migrate" "sched:sched_migrate_task: type=2 " "$TMP/d"
run_c2c 0 "$TMP/out2" "$TMP/err2" record --sched -e page-faults -c 1000 -a -o "$TMP/m.data" -- \
	"$TMP/napper" 0.1
perf script -i "$TMP/m.data" -F event 2>/dev/null | sort -u >"$TMP/events"
expect_contains "--sched recorded sched_switch" "sched:sched_switch" "$TMP/events"
perf report -i "$TMP/m.data" --header-only 2>/dev/null >"$TMP/header"
expect_contains "event names in the header" "sched:sched_migrate_task" "$TMP/header"
finish
