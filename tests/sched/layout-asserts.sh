#!/usr/bin/env bash
# The sched-core model's struct task_group is pinned by _Static_asserts:
# each build reports the offsets the asserts hold, and a drifted layout
# does not compile (with a message naming the member that moved).
source "$TOP_SRCDIR/tests/lib.sh"

dir=$TOP_BUILDDIR/samples/sched-core
src=$TOP_SRCDIR/samples/sched-core/sched_core.c

check_layout() {
	local build=$1 want=$2
	"$dir/sched-core-$build" --layout >"$TMP/$build.out" 2>&1 ||
		fail "sched-core-$build --layout failed"
	expect_contains "$build layout" "$want" "$TMP/$build.out"
}
check_layout upstream "layout upstream: struct task_group 704 bytes; load_avg @256 rt_se @264 rt_rq @272 parent @408"
check_layout reordered "layout reordered: struct task_group 704 bytes; load_avg @256 rt_se @336 rt_rq @344 parent @328"
check_layout aligned "layout aligned: struct task_group 768 bytes; load_avg @256 rt_se @320 rt_rq @328 parent @464"

# A member slipped in before load_avg moves it to the next line: the
# asserts must stop the build and say which member moved.
if ${CC:-gcc} -std=gnu11 -pthread -c -o "$TMP/drift.o" -DTG_LAYOUT=TG_UPSTREAM -DTG_TEST_DRIFT \
	"$src" 2>"$TMP/drift.err"; then
	fail "a drifted task_group compiled"
else
	expect_contains "drift names load_avg" "task_group.load_avg must sit at 256" "$TMP/drift.err"
fi
# An unknown layout is refused too.
if ${CC:-gcc} -std=gnu11 -pthread -c -o "$TMP/none.o" "$src" 2>"$TMP/none.err"; then
	fail "sched_core.c compiled without TG_LAYOUT"
else
	expect_contains "no layout" "build with -DTG_LAYOUT=" "$TMP/none.err"
fi

# With pahole, the model's DWARF layout of the upstream build is exactly
# Linux 6.1's (compared with the kernel object in linux-verify.sh); here,
# pahole must at least agree with the asserts.
if command -v pahole >/dev/null; then
	pahole -C task_group "$dir/sched-core-upstream" >"$TMP/pahole.txt" 2>&1
	expect_contains "pahole load_avg" "load_avg __attribute__((__aligned__(64))); /*   256     8 */" "$TMP/pahole.txt"
	expect_contains "pahole rt_se" "rt_se;                /*   264     8 */" "$TMP/pahole.txt"
	expect_contains "pahole size" "/* size: 704, cachelines: 11, members: 15 */" "$TMP/pahole.txt"
fi
finish
