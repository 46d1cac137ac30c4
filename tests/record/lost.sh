#!/usr/bin/env bash
# -e cpu-clock -F max -a with one-page rings and a busy workload (1 s; its
# status, timeout's 124, passed through): what the
# recorder prints as lost is what the file's LOST records add up to (perf
# script --show-lost-events), and the samples it prints are those in the file.
. "$TOP_SRCDIR/tests/lib.sh"
. "$TOP_SRCDIR/tests/record/common.sh"
perf_require
record_require
system_wide_require

run_c2c 124 "$TMP/out" "$TMP/err" record -e cpu-clock -F max -a -m 1 -o "$TMP/l.data" -- \
	timeout 1 sh -c 'while :; do :; done'
perf script -i "$TMP/l.data" --show-lost-events 2>/dev/null >"$TMP/script"
in_file=$(awk '/PERF_RECORD_LOST lost/ { s += $NF } END { print s + 0 }' "$TMP/script")
printed=$(sed -n 's/.*record: \([0-9]*\) samples lost.*/\1/p' "$TMP/err")
expect_eq "lost printed vs LOST records in the file" "$in_file" "${printed:-0}"
samples=$(grep -vc PERF_RECORD_LOST "$TMP/script")
ours=$(sed -n 's/.*record: \([0-9]*\) samples written.*/\1/p' "$TMP/err")
expect_eq "samples printed vs perf script" "$ours" "$samples"
# perf's default rate (4000 Hz) on every cpu: the default rings keep up
run_c2c 124 "$TMP/out2" "$TMP/err2" record -e cpu-clock -a -o "$TMP/d.data" -- \
	timeout 1 sh -c 'while :; do :; done'
expect_not_contains "nothing lost at the default rate (load $(cut -d' ' -f1-3 /proc/loadavg))" \
	"samples lost" "$TMP/err2"
echo "lost: ${printed:-0} lost, $ours written (load: $(cut -d' ' -f1-3 /proc/loadavg))"
finish
