#!/usr/bin/env bash
# Speed: 100 rules against the running kernel's BTF, load included, in
# under 0.5 s (5 s in sanitizer builds). Prints the best of three runs.
source "$TOP_SRCDIR/tests/lib.sh"
BTF=/sys/kernel/btf/vmlinux
[ -r "$BTF" ] || skip "no kernel BTF at $BTF"

structs="task_struct mm_struct task_group sock tcp_sock net_device netns_ipv4 inode
file dentry super_block page folio rq cfs_rq sk_buff socket vm_area_struct cred
signal_struct files_struct address_space bio request_queue kmem_cache"
{
	for s in $structs; do
		printf 'struct %s {\n\tsize <= 1000000\n\tcachelines <= 100000\n' "$s"
		printf '\tholes <= 100000\n\tpadding <= 100000\n}\n'
	done
} >"$TMP/bench.rules"
n=$(grep -cE '^\s(size|cachelines|holes|padding)' "$TMP/bench.rules")
expect_eq "rule count" 100 "$n"

"$C2CSCOPE" check --rules "$TMP/bench.rules" --kernel >/dev/null 2>"$TMP/err"
grep -q "BTF loader is not built yet" "$TMP/err" && skip "the BTF loader is not built yet"
best=
for i in 1 2 3; do
	start=$(date +%s%N)
	run_c2c 0 "$TMP/out" "$TMP/err" check --rules "$TMP/bench.rules" --kernel
	t=$((($(date +%s%N) - start) / 1000000))
	[ -z "$best" ] || [ "$t" -lt "$best" ] && best=$t
done
expect_eq "all hold" "100 rules checked against the running kernel's BTF: 100 hold, 0 violated" "$(cat "$TMP/out")"
limit=500
grep -q -- '-fsanitize' "$TOP_BUILDDIR/Makefile" 2>/dev/null && limit=5000
echo "bench: 100 rules against the kernel BTF: ${best} ms (limit ${limit} ms)"
[ "$best" -lt "$limit" ] && ok || fail "100 rules took ${best} ms, more than ${limit} ms"
finish
