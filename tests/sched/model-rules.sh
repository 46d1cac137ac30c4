#!/usr/bin/env bash
# samples/sched-core/layout.rules through c2cscope check on the model's
# three builds: upstream violates "apart" (rt_se and rt_rq on load_avg's
# line), reordered holds both rules, aligned-wrapper separates load_avg but
# pays 64 bytes and so violates "size == 704".
source "$TOP_SRCDIR/tests/lib.sh"

"$C2CSCOPE" check --help >/dev/null 2>&1 || skip "c2cscope check is not built yet"
rules=$TOP_SRCDIR/samples/sched-core/layout.rules
dir=$TOP_BUILDDIR/samples/sched-core

run_c2c 1 "$TMP/up.out" "$TMP/up.err" check --rules "$rules" "$dir/sched-core-upstream"
expect_contains "upstream apart" "struct task_group: apart load_avg: se, cfs_rq, shares, rt_se, rt_rq, parent: VIOLATED" "$TMP/up.out"
expect_contains "upstream names" "rt_se (offset 264, line 4), rt_rq (offset 272, line 4) share a cache line with load_avg (offset 256, line 4)" "$TMP/up.out"
expect_contains "upstream totals" "2 rules checked against $dir/sched-core-upstream: 1 hold, 1 violated" "$TMP/up.out"

run_c2c 0 "$TMP/re.out" "$TMP/re.err" check --rules "$rules" "$dir/sched-core-reordered"
expect_contains "reordered holds" "2 rules checked against $dir/sched-core-reordered: 2 hold, 0 violated" "$TMP/re.out"

run_c2c 1 "$TMP/al.out" "$TMP/al.err" check --rules "$rules" "$dir/sched-core-aligned"
expect_contains "aligned size" "struct task_group: size == 704: VIOLATED" "$TMP/al.out"
expect_contains "aligned cost" "size is 768 bytes, not 704" "$TMP/al.out"
expect_not_contains "aligned apart holds" "apart load_avg" "$TMP/al.out"
finish
