#!/usr/bin/env bash
# An event that counts per cpu only (AMD IBS) following a command: a fake
# sysfs tree whose ibs_op is the software PMU (type 1, config 0: cpu-clock)
# runs the real path: counters on every cpu, a note saying so, and only the
# samples of the command and the processes it forks kept; the others are
# counted as left out.
. "$TOP_SRCDIR/tests/lib.sh"
. "$TOP_SRCDIR/tests/record/common.sh"
perf_require
record_require
system_wide_require

C2CSCOPE_SYSFS_ROOT="$SYSFS/ibs-sw" run_c2c 0 "$TMP/out" "$TMP/err" record -F 2000 \
	-o "$TMP/i.data" -- sh -c "timeout 0.5 sh -c 'while :; do :; done'; echo \$\$ >$TMP/pid"
expect_contains "the note" "IBS counts per cpu only: recording system-wide" "$TMP/err"
perf script -i "$TMP/i.data" --show-task-events -F pid 2>/dev/null >"$TMP/script"
# the command and, following the FORK records, its descendants
keep=" $(cat "$TMP/pid") "
while read -r child parent; do
	case "$keep" in *" $parent "*) keep="$keep$child " ;; esac
done < <(sed -n 's/.*PERF_RECORD_FORK(\([0-9]*\):[0-9]*):(\([0-9]*\):[0-9]*).*/\1 \2/p' "$TMP/script")
others=0
samples=0
while read -r pid rest; do
	[ -n "$rest" ] && continue # a task event, not a sample
	samples=$((samples + 1))
	case "$keep" in *" $pid "*) ;; *) others=$((others + 1)) ;; esac
done <"$TMP/script"
expect_eq "samples of other processes" 0 "$others"
expect_eq "the busy loop was sampled" yes "$([ "$samples" -gt 0 ] && echo yes || echo no)"
expect_eq "samples printed vs in the file" \
	"$(sed -n 's/.*record: \([0-9]*\) samples written.*/\1/p' "$TMP/err")" "$samples"
finish
