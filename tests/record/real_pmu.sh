#!/usr/bin/env bash
# On a machine with a memory-sampling PMU: record's default events on a
# false-sharing sample give a file that perf c2c report reads, with the
# same summary figures c2cscope report prints. Skips, saying why, where
# there is no such PMU (these VMs).
. "$TOP_SRCDIR/tests/lib.sh"
. "$TOP_SRCDIR/tests/record/common.sh"
perf_require

"$C2CSCOPE" record --list >"$TMP/list" 2>&1
grep -q "^Default memory events (ldlat" "$TMP/list" ||
	skip "no memory-sampling PMU here: $(grep '^Default memory events' "$TMP/list" | cut -c1-200)"
grep -q "arm_spe" "$TMP/list" && skip "Arm SPE: recording its AUX samples is not done yet"
record_require
prog="$TOP_BUILDDIR/samples/false-sharing/adjacent"
[ -x "$prog" ] || skip "samples/false-sharing/adjacent is not built"
run_c2c 0 "$TMP/out" "$TMP/err" record -o "$TMP/pmu.data" -- "$prog" 2000000
perf c2c report -i "$TMP/pmu.data" --stdio >"$TMP/perf" 2>"$TMP/perf.err" ||
	fail "perf c2c report cannot read the file: $(head -3 "$TMP/perf.err")"
run_c2c 0 "$TMP/ours" "$TMP/ours.err" report -i "$TMP/pmu.data" --stdio
for label in "Total records" "Load Operations" "Store Operations" "Load Local HITM"; do
	expect_eq "$label" "$(grep -m1 "^  $label " "$TMP/perf" | tr -s ' ')" \
		"$(grep -m1 "^  $label " "$TMP/ours" | tr -s ' ')"
done
finish
