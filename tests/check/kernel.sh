#!/usr/bin/env bash
# The running kernel's BTF: task_group keeps rt_se and rt_rq on load_avg's
# line (a rule says they must not: exit 1), a rule that holds passes, and
# the kernel's own cache-line groups hold for the structs it asserts them on.
# pahole, reading the same BTF, is the oracle for the offsets.
source "$TOP_SRCDIR/tests/lib.sh"
BTF=/sys/kernel/btf/vmlinux
[ -r "$BTF" ] || skip "no kernel BTF at $BTF"

printf 'struct task_group {\n\tapart load_avg: rt_se, rt_rq\n}\n' >"$TMP/fail.rules"
"$C2CSCOPE" check --rules "$TMP/fail.rules" --kernel >"$TMP/out" 2>"$TMP/err"
grep -q "BTF loader is not built yet" "$TMP/err" && skip "the BTF loader is not built yet"
grep -q "no struct or union task_group" "$TMP/out" && skip "this kernel has no task_group in its BTF"
grep -q "no member 'rt_se'" "$TMP/out" && skip "this kernel is built without RT_GROUP_SCHED"
run_c2c 1 "$TMP/out" "$TMP/err" check --rules "$TMP/fail.rules" --kernel

off() { # MEMBER: its offset in task_group per pahole
	pahole -C task_group "$BTF" 2>/dev/null | sed -n "s/.*[ *]$1\( __attribute__.*\)\?;.*\/\* *\([0-9]*\) .*/\2/p" | head -1
}
if command -v pahole >/dev/null && [ -n "$(off load_avg)" ]; then
	la=$(off load_avg) se=$(off rt_se) rq=$(off rt_rq)
	expect_contains "violation" "rt_se (offset $se, line $((se / 64))), rt_rq (offset $rq, line $((rq / 64))) share a cache line with load_avg (offset $la, line $((la / 64)))" "$TMP/out"
else
	la=256
	expect_contains "violation" "share a cache line with load_avg (offset" "$TMP/out"
fi
expect_contains "rule named" "$TMP/fail.rules:2: struct task_group: apart load_avg: rt_se, rt_rq: VIOLATED" "$TMP/out"
expect_contains "excerpt" "load_avg __attribute__((__aligned__(64)));" "$TMP/out"

printf 'struct task_group {\n\toffset load_avg == %s\n\taligned load_avg 64\n\tapart load_avg: css\n\tsize <= 4096\n}\n' "$la" >"$TMP/hold.rules"
run_c2c 0 "$TMP/out" "$TMP/err" check --rules "$TMP/hold.rules" --kernel
expect_eq "holds" "4 rules checked against the running kernel's BTF: 4 hold, 0 violated" "$(cat "$TMP/out")"

# the groups the kernel asserts at build time hold in its BTF
run_c2c 0 "$TMP/out" "$TMP/err" check --kernel-groups --show-passed -C tcp_sock -C sock \
	-C net_device -C netns_ipv4 --kernel
for s in tcp_sock sock net_device netns_ipv4; do
	n=$(grep -c "^<kernel-groups>: struct $s: kernel group .*: holds$" "$TMP/out")
	[ "$n" -gt 0 ] && ok || fail "no cache-line groups checked in struct $s"
done
expect_contains "summary" " 0 violated" "$TMP/out"
finish
