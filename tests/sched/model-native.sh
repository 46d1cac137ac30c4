#!/usr/bin/env bash
# Each sched-core build runs natively: its threads cycle through wakeups
# and sleeps, and at the end tg->load_avg equals the sum of the per-cpu
# contributions update_tg_load_avg published (the atomic adds lost nothing).
source "$TOP_SRCDIR/tests/lib.sh"

dir=$TOP_BUILDDIR/samples/sched-core
for build in upstream reordered aligned; do
	bin=$dir/sched-core-$build
	"$bin" --threads 3 --iterations 20000 >"$TMP/$build.out" 2>&1
	expect_eq "sched-core-$build exit" 0 $?
	expect_contains "$build threads" "3 threads x 20000 wakeup/sleep cycles" "$TMP/$build.out"
	expect_contains "$build consistent" ": consistent" "$TMP/$build.out"
	# Every cpu ends with its contribution near the model's fixed point
	# (~620 for a cpu whose task is queued about half the time): 3 x ~620.
	load=$(sed -n 's/.*: load_avg \([0-9]*\), sum.*/\1/p' "$TMP/$build.out")
	if [ -n "$load" ] && [ "$load" -ge 1700 ] && [ "$load" -le 2000 ]; then
		ok
	else
		fail "$build: load_avg '$load' not in 1700..2000"
	fi

	"$bin" --bench --seconds 1 --threads 2 >"$TMP/$build.bench" 2>&1
	expect_eq "sched-core-$build --bench exit" 0 $?
	if grep -qE "^bench $build: threads=2 seconds=1\.[0-9]+ cycles=[1-9][0-9]* ops_per_sec=[1-9][0-9]*$" \
		"$TMP/$build.bench"; then
		ok
	else
		fail "$build --bench output"
		cat "$TMP/$build.bench" >&2
	fi
done

# bench.sh measures the three builds in one run, ratios against upstream.
"$TOP_SRCDIR/samples/sched-core/bench.sh" --dir "$dir" --rounds 1 --seconds 1 --threads 2 \
	>"$TMP/bench.out" 2>&1
expect_eq "bench.sh exit" 0 $?
expect_contains "bench upstream ratio" "ops/s  1.000x upstream  (median of 1)" "$TMP/bench.out"
for build in reordered aligned; do
	grep -qE "^$build +[1-9][0-9]* ops/s  [0-9]+\.[0-9]{3}x upstream" "$TMP/bench.out" && ok ||
		fail "bench.sh has no line for $build"
done

# Bad options are usage errors.
"$dir/sched-core-upstream" --threads 0 >"$TMP/bad.out" 2>&1
expect_eq "--threads 0 exit" 2 $?
expect_contains "--threads 0 message" "--threads needs a number from 1 to 256, got '0'" "$TMP/bad.out"
"$dir/sched-core-upstream" --frobnicate >"$TMP/bad2.out" 2>&1
expect_eq "unknown option exit" 2 $?
finish
