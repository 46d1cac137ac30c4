#!/usr/bin/env bash
# Each sched-core build runs natively: its cpus' threads take the wakeups
# queued to them, run the pipe pairs' tasks and queue their partners'
# wakeups elsewhere; at the end tg->load_avg equals the sum of the per-cpu
# contributions update_tg_load_avg published (the atomic adds lost nothing).
source "$TOP_SRCDIR/tests/lib.sh"

dir=$TOP_BUILDDIR/samples/sched-core
for build in upstream reordered aligned ratelimited; do
	bin=$dir/sched-core-$build
	"$bin" --threads 3 --iterations 20000 >"$TMP/$build.out" 2>&1
	expect_eq "sched-core-$build exit" 0 $?
	# 3 cpus x 20000 wakeups, shared out among 24 pairs (8 per cpu)
	expect_contains "$build work" "3 cpus, 24 pipe pairs, 60000 wakeups (2500 per pair)" \
		"$TMP/$build.out"
	expect_contains "$build consistent" ": consistent" "$TMP/$build.out"
	# Each cpu's contribution is its queue's load: at most the tasks queued
	# there plus the group's entity, 1024 each (48 tasks + 3 entities).
	load=$(sed -n 's/.*: load_avg \([0-9]*\), sum.*/\1/p' "$TMP/$build.out")
	if [ -n "$load" ] && [ "$load" -gt 0 ] && [ "$load" -le $((51 * 1024)) ]; then
		ok
	else
		fail "$build: load_avg '$load' not in 1..$((51 * 1024))"
	fi

	"$bin" --bench --seconds 1 --threads 2 >"$TMP/$build.bench" 2>&1
	expect_eq "sched-core-$build --bench exit" 0 $?
	if grep -qE "^bench $build: threads=2 pairs=16 seconds=1\.[0-9]+ wakeups=[1-9][0-9]* ops_per_sec=[1-9][0-9]*$" \
		"$TMP/$build.bench"; then
		ok
	else
		fail "$build --bench output"
		cat "$TMP/$build.bench" >&2
	fi
done

# bench.sh measures the builds in one run, ratios against upstream, with
# the median and the spread of the rounds.
"$TOP_SRCDIR/samples/sched-core/bench.sh" --dir "$dir" --rounds 3 --seconds 1 --threads 2 \
	>"$TMP/bench.out" 2>&1
expect_eq "bench.sh exit" 0 $?
grep -qE "^upstream +[1-9][0-9]* ops/s  1\.000x upstream  \(median of 3; spread [0-9]+\.\.[0-9]+, [0-9.]+%\)$" \
	"$TMP/bench.out" && ok || fail "bench.sh: no upstream line: $(cat "$TMP/bench.out")"
for build in reordered aligned ratelimited; do
	grep -qE "^$build +[1-9][0-9]* ops/s  [0-9]+\.[0-9]{3}x upstream  \(median of 3; spread" \
		"$TMP/bench.out" && ok || fail "bench.sh has no line for $build"
done
# the spread is the slowest and fastest round: median inside it
awk '/ops\/s/ { split($0, a, "spread "); split(a[2], r, "[.,]+"); if (!(r[1] <= $2 && $2 <= r[2])) bad = 1 }
     END { exit bad }' "$TMP/bench.out" && ok || fail "bench.sh: a median outside its spread"

# Bad options are usage errors.
"$dir/sched-core-upstream" --threads 0 >"$TMP/bad.out" 2>&1
expect_eq "--threads 0 exit" 2 $?
expect_contains "--threads 0 message" "--threads needs a number from 1 to 256, got '0'" "$TMP/bad.out"
"$dir/sched-core-upstream" --frobnicate >"$TMP/bad2.out" 2>&1
expect_eq "unknown option exit" 2 $?
finish
