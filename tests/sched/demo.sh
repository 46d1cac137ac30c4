#!/usr/bin/env bash
# c2cscope demo runs the story with what this build has: every command it
# lacks is reported as "skipped: ... not built yet" (never imitated), the
# rules step and, once record/report exist, the contention numbers land in
# the summary. The kernel step has its own test (linux-verify.sh).
source "$TOP_SRCDIR/tests/lib.sh"

run_c2c 0 "$TMP/help.out" "$TMP/help.err" demo --help
expect_contains "help" "usage: c2cscope demo" "$TMP/help.out"
run_c2c 2 "$TMP/bad.out" "$TMP/bad.err" demo --threads 0
expect_contains "bad threads" "--threads expects a number from 1 to 64, not '0'" "$TMP/bad.err"
run_c2c 2 "$TMP/bad.out" "$TMP/bad.err" demo --samples "$TMP/nowhere"
expect_contains "no samples" "$TMP/nowhere/sched-core-upstream: No such file or directory" "$TMP/bad.err"

start=$SECONDS
run_c2c 0 "$TMP/demo.out" "$TMP/demo.err" demo --no-kernel --no-bench --keep "$TMP/keep"
elapsed=$((SECONDS - start))
out=$TMP/demo.out
[ $elapsed -lt 180 ] && ok || fail "the demo took $elapsed s (limit 180)"
for step in "[1/9]" "[2/9]" "[3/9]" "[4/9]" "[5/9]" "[6/9]" "[7/9]" "[8/9]" "[9/9]" "Summary"; do
	expect_contains "step $step" "$step" "$out"
done
expect_contains "no kernel" "skipped: --no-kernel" "$out"
expect_contains "no bench" "skipped: --no-bench" "$out"

have() { "$C2CSCOPE" "$1" --help >/dev/null 2>&1; }
for cmd in layout check record suggest; do
	if have $cmd; then
		expect_not_contains "$cmd is built" "skipped: c2cscope $cmd is not built yet" "$out"
	else
		expect_contains "$cmd missing" "skipped: c2cscope $cmd is not built yet" "$out"
	fi
done

if have check; then
	expect_contains "rules summary" \
		"layout.rules     upstream violated, reordered holds, aligned-wrapper violated (size)" "$out"
	expect_contains "rules upstream" "rt_se (offset 264, line 4), rt_rq (offset 272, line 4) share a cache line with load_avg" "$out"
	[ -s "$TMP/keep/check-upstream.txt" ] && ok || fail "--keep lacks check-upstream.txt"
fi
if have layout; then
	expect_contains "model sizes" "model sizes      upstream 704, reordered 704, aligned-wrapper 768 bytes" "$out"
	expect_contains "upstream layout" "upstream  704 bytes; load_avg @256 rt_se @264 rt_rq @272 parent @408" "$out"
fi
if have suggest; then
	expect_contains "suggest conflict" "line 4: load_avg (write-hot) shares with rt_se, rt_rq" "$out"
	expect_contains "suggest verdict" \
		"verdict: reorder only separates all sharing (+0 bytes); isolate separates all sharing (+64 bytes)" "$out"
fi
if have record && have report; then
	up=$(grep -E '^  upstream +line 0x' "$out")
	re=$(grep -E '^  reordered +line 0x' "$out")
	# set_task_cpu reads rt_se (0x8) and rt_rq (0x10) of load_avg's line
	# on every migration: both rows are there, named by the report.
	[[ $up == *"set_task_cpu on rt_se (0x8)"* && $up == *"set_task_cpu on rt_rq (0x10)"* ]] &&
		ok || fail "upstream summary lacks the rt_se/rt_rq rows: '$up'"
	[[ $up == *"update_cfs_group"* && $up == *"update_tg_load_avg"* ]] && ok ||
		fail "upstream summary lacks load_avg's functions: '$up'"
	[[ $re == *"other fields 0"* ]] && ok || fail "reordered summary: '$re'"
	expect_contains "drop" "HITMs on fields other than load_avg: 100.0% fewer" "$out"
fi
finish
