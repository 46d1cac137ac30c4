#!/usr/bin/env bash
# The default-event path end to end, on a fake Intel tree whose cpu PMU is
# the software PMU: mem-loads-aux is dummy, mem-loads page-faults (with
# the ldlat term in config1), mem-stores minor-faults. record without -e
# picks them from the aliases, groups the loads under the aux event, walks
# precise_ip down as far as the kernel wants, and every page the program
# touches is a sample of both; perf c2c report reads the file and counts
# what c2cscope report counts.
. "$TOP_SRCDIR/tests/lib.sh"
. "$TOP_SRCDIR/tests/record/common.sh"
perf_require
record_require

compile "$TMP/touch" "$TOP_SRCDIR/tests/record/touch_pages.c" -O1 -g || finish
export C2CSCOPE_SYSFS_ROOT="$SYSFS/intel-sw"
run_c2c 0 "$TMP/dry" "$TMP/dry.err" record --dry-run
expect_contains "the aux group" "group: {cpu/mem-loads-aux/, cpu/mem-loads,ldlat=30/}" "$TMP/dry"
run_c2c 7 "$TMP/out" "$TMP/err" record -c 1 -o "$TMP/d.data" -- "$TMP/touch"
unset C2CSCOPE_SYSFS_ROOT
read -r base pages pagesz <"$TMP/out"
perf script -i "$TMP/d.data" -F event,addr,ip,sym 2>/dev/null >"$TMP/script"
for ev in "cpu/mem-loads,ldlat=30/" "cpu/mem-stores/P"; do
	awk -v e="$ev:" '$1 == e { $1 = "touch"; print }' "$TMP/script" >"$TMP/one"
	expect_eq "$ev: pages without a sample in touch_pages" 0 \
		"$(pages_missing "$TMP/one" touch "$base" "$pages" "$pagesz")"
done
# software events take any precise_ip: the file says 3, as they were opened
perf report -i "$TMP/d.data" --header-only 2>/dev/null | grep '^# event : name = cpu/mem-loads,' >"$TMP/attr"
expect_contains "precise_ip in the file" "precise_ip = 3" "$TMP/attr"
perf c2c report -i "$TMP/d.data" --stdio >"$TMP/perf" 2>"$TMP/perf.err" ||
	fail "perf c2c report cannot read the file: $(head -3 "$TMP/perf.err")"
run_c2c 0 "$TMP/ours" "$TMP/ours.err" report -i "$TMP/d.data" --stdio
for label in "Total records" "Load Operations" "Store Operations"; do
	expect_eq "$label" "$(grep -m1 "^  $label " "$TMP/perf" | tr -s ' ')" \
		"$(grep -m1 "^  $label " "$TMP/ours" | tr -s ' ')"
done
finish
