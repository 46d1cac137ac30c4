#!/usr/bin/env bash
# samples/linux/verify.sh on the real kernel: kernel/sched/core.o from
# Debian's linux-source-6.1, unpatched and with task_group-reorder.patch.
# The unpatched object fails layout.rules naming rt_se and rt_rq on
# load_avg's line, the patched one passes, the size stays 704, and the
# sched-core model's builds print exactly the kernel's layouts. The first
# run builds (about a minute on an idle machine); the objects are cached
# (see verify.sh --help), so CI's second pass and reruns take seconds.
source "$TOP_SRCDIR/tests/lib.sh"

[ -r "${LINUX_SOURCE_TARBALL:-/usr/src/linux-source-6.1.tar.xz}" ] ||
	skip "linux-source-6.1 is not installed"

"$TOP_SRCDIR/samples/linux/verify.sh" --c2cscope "$C2CSCOPE" --keep "$TMP/keep" \
	--model "$TOP_BUILDDIR/samples/sched-core" >"$TMP/out" 2>"$TMP/err"
rc=$?
[ $rc -eq 77 ] && skip "verify.sh: $(cat "$TMP/err")"
expect_eq "verify.sh exit" 0 $rc
[ $rc -eq 0 ] || cat "$TMP/out" "$TMP/err" >&2
out=$TMP/out

expect_contains "unpatched offsets" \
	"verify: unpatched: struct task_group 704 bytes; load_avg @256 rt_se @264 rt_rq @272 parent @408" "$out"
expect_contains "unpatched fails" \
	"verify: unpatched: the rules fail, naming rt_se and rt_rq on load_avg's line, as expected" "$out"
expect_contains "patched offsets" \
	"verify: patched: struct task_group 704 bytes; load_avg @256 rt_se @336 rt_rq @344 parent @328" "$out"
expect_contains "patched passes" "verify: patched: the rules pass" "$out"
expect_contains "size" "verify: size unchanged: 704 bytes" "$out"
expect_contains "model upstream" \
	"verify: model: sched-core-upstream's task_group is identical to the unpatched kernel's" "$out"
expect_contains "model reordered" \
	"verify: model: sched-core-reordered's task_group is identical to the patched kernel's" "$out"
expect_contains "verdict" "verify: OK: the patch moves rt_se, rt_rq and parent off load_avg's line" "$out"

# The unpatched check names the offending members on load_avg's line.
grep -E 'rt_se' "$TMP/keep/check-unpatched.txt" | grep -q 'rt_rq' ||
	fail "the unpatched check does not name rt_se and rt_rq on one line"
ok
expect_not_contains "patched check silent on rt_se" "rt_se" "$TMP/keep/check-patched.txt"

# --keep leaves both objects, and they really differ where the patch says.
for v in unpatched patched; do
	[ -s "$TMP/keep/core-$v.o" ] && ok || fail "--keep has no core-$v.o"
done

# The audit of the running kernel is reported, whatever it finds.
if [ -r /sys/kernel/btf/vmlinux ]; then
	expect_contains "audit" "verify: audit: running kernel $(uname -r)" "$out"
fi
finish
