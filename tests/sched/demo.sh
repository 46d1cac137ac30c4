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
run_c2c 0 "$TMP/demo.out" "$TMP/demo.err" demo --no-kernel --no-bench --keep "$TMP/keep" \
	--html "$TMP/html"
elapsed=$((SECONDS - start))
out=$TMP/demo.out
[ $elapsed -lt 180 ] && ok || fail "the demo took $elapsed s (limit 180)"
for step in "[1/11]" "[2/11]" "[3/11]" "[4/11]" "[5/11]" "[6/11]" "[7/11]" "[8/11]" "[9/11]" \
	"[10/11]" "[11/11]" "Summary"; do
	expect_contains "step $step" "$step" "$out"
done
expect_contains "no kernel" "skipped: --no-kernel" "$out"
expect_contains "no bench" "skipped: --no-bench" "$out"
# --html DIR: the story's pages, well formed, the report's numbers its JSON's
expect_contains "html pages" "HTML pages       $TMP/html" "$out"
for page in report-upstream report-reordered suggest-task_group; do
	json=
	[ -f "$TMP/keep/$page.json" ] && json="--json $TMP/keep/$page.json"
	if [ ! -s "$TMP/html/$page.html" ]; then
		fail "--html: no $page.html"
	elif ! command -v python3 >/dev/null; then
		ok # the page is there; python3 would check it
	elif python3 "$TOP_SRCDIR/tests/output/html_check.py" "$TMP/html/$page.html" $json \
		>"$TMP/check.out" 2>&1; then
		ok
	else
		fail "--html: $page.html: $(head -3 "$TMP/check.out")"
	fi
done

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
	# load_avg sits in an anonymous wrapper there: found all the same
	expect_contains "aligned layout" "aligned   768 bytes; load_avg @256 rt_se @320 rt_rq @328 parent @464" "$out"
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

	# The contention table: every number is the one tests/sched/tg_lines.py
	# computes from the report the demo kept (same binaries, same JSON).
	command -v python3 >/dev/null || echo "python3 is missing: the table is not compared"
	for b in upstream reordered aligned ratelimited; do
		command -v python3 >/dev/null || break
		rec=$TMP/keep/record-$b.log
		tg=$(sed -n 's/.*task group at \(0x[0-9a-f]*\);.*/\1/p' "$rec")
		size=$(sed -n 's/.*struct task_group \([0-9]*\) bytes.*/\1/p' "$rec")
		python3 "$TOP_SRCDIR/tests/sched/tg_lines.py" "$TMP/keep/report-$b.json" "$tg" "$size" \
			>"$TMP/$b.facts" || { fail "$b: cannot read the kept report"; continue; }
		f() { awk -v k="$1" -v s="$2" -v c="$3" '$1 == k && (s == "" || $2 == s) { print $c }' \
			"$TMP/$b.facts"; }
		line=$(grep -E "^  $b +lines " "$out")
		[[ $line == "  $b"*" lines $(f line "" 2) HITMs"* ]] && ok ||
			fail "$b: line HITMs in '$line', tg_lines.py says $(f line "" 2)"
		for fn in set_task_cpu update_cfs_group; do
			[[ $line == *"; $fn $(f fn $fn 3) HITMs, $(f fn $fn 4) cycles ("* ]] && ok ||
				fail "$b: $fn in '$line', tg_lines.py says $(f fn $fn 3) HITMs, $(f fn $fn 4) cycles"
		done
		[[ $line == *"; load_avg $(f load_avg "" 2) HITMs" ]] && ok ||
			fail "$b: load_avg HITMs in '$line', tg_lines.py says $(f load_avg "" 2)"
	done
	expect_contains "same work" "reordered: the same, aligned: the same" "$out"
	expect_contains "seed's share" "(the seed patch, hackbench/pipe: 1.67% -> 0.51% of cycles)" "$out"
	grep -qE "^  reorder +removes the false sharing: set_task_cpu [0-9]+ -> [0-9]+ HITMs; task_group's lines [0-9]+ -> [0-9]+ HITMs \(-[0-9.]+%\); load_avg's own HITMs stay \(true sharing" \
		"$out" && ok || fail "no reorder verdict"
	grep -qE "^  ratelimit +cuts the true sharing: load_avg's HITMs [0-9]+ -> [0-9]+ \(-[0-9.]+%\); the false sharing stays" \
		"$out" && ok || fail "no ratelimit verdict"
fi
finish
