#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Which kernel debug file explains a kernel sample, and when none may:
# tests/attrib/kernel_fake.c stands in for kernel code, compiled as an
# object (a .ko or kernel/sched/core.o) and as an executable with a
# build-id (a vmlinux). Samples at set_task_cpu's loads of tg->rt_se and
# tg->rt_rq (offsets from pahole and objdump) are named through
# --kernel-debug, --vmlinux, or a vmlinux found where distributions and
# perf keep one; a file of another build (another function size, another
# build-id) is refused, and so are functions no file has, addresses
# kallsyms does not know and, with nothing found, the kernel's samples
# (--stats counts each reason; a warning says what to install). With KASLR,
# a vmlinux's global is named by the sample's data address.
source "$TOP_SRCDIR/tests/lib.sh"
source "$TOP_SRCDIR/tests/attrib/kernel_lib.sh"

need_tools pahole objdump readelf
gen=$TOP_BUILDDIR/tests/attrib/kernel_gen
src=$TOP_SRCDIR/tests/attrib/kernel_fake.c
REL=6.1.0-c2cscope-test # kernel_gen's OSRELEASE
BASE=0xffffffff81000000
TG=0xffff888100000000
compile "$TMP/core.o" "$src" -O2 -g -c || finish
compile "$TMP/other.o" "$src" -O2 -g -c -DOTHER_BUILD || finish
# linked like a kernel: at the kernel's addresses, no C library
compile "$TMP/vmlinux" "$src" -O2 -g -nostdlib -mcmodel=kernel -fno-pic -no-pie \
	-Wl,-Ttext-segment=$BASE -Wl,--defsym,_text=$BASE -Wl,--unique=.data..percpu \
	-Wl,-e,set_task_cpu -Wl,--build-id || finish
build_id=$(readelf -n "$TMP/vmlinux" | sed -n 's/.*Build ID: *\([0-9a-f]*\).*/\1/p')
[ -n "$build_id" ] || fail "no build-id in $TMP/vmlinux"

# write_data OUT OBJ BASE [BUILD_ID]: 5 loads per cpu at each load of
# tg->rt_se and tg->rt_rq in set_task_cpu, plus 3 below its first function (no symbol)
write_data() {
	local m o cpu start
	start=$(func_value "$2" set_task_cpu)
	: >"$TMP/samples"
	for m in rt_se rt_rq; do
		o=$(member_offset "$2" task_group $m)
		for o in $(insn_offsets "$2" set_task_cpu "mov +$(printf '%#x' "$o")\(%r[a-z0-9]+\),%r"); do
			for cpu in 0 1 2 3; do
				for _ in 1 2 3 4 5; do
					printf '%x %x load %d\n' $(($3 + 0x$start + o)) $((TG + o)) $cpu
				done
			done
		done
	done >>"$TMP/samples"
	printf '%x %x load 0\n' $(($3 - 0x1000)) $TG $(($3 - 0x1000)) $TG $(($3 - 0x1000)) $TG >>"$TMP/samples"
	"$gen" "$1" ${4:+"$4"} <"$TMP/samples" || fail "kernel_gen $1"
}

# place FILE DEST: a copy of FILE at DEST, its folders made
place() {
	mkdir -p "$(dirname "$2")" && cp "$1" "$2"
}

# stat_of FILE REASON: that reason's count in a --stats output, 0 if absent
stat_of() {
	local n
	n=$(sed -n "s/^  $2  *: *\([0-9]*\)$/\1/p" "$1")
	echo "${n:-0}"
}

kallsyms_of "$TMP/core.o" $BASE >"$TMP/kallsyms"
write_data "$TMP/k.data" "$TMP/core.o" $BASE
nr=$(($(wc -l <"$TMP/samples") - 3))
expect_eq "40 samples at set_task_cpu's two loads" 40 "$nr"
export HOME=$TMP/home C2CSCOPE_DEBUG_ROOT=$TMP/root
mkdir -p "$HOME" "$C2CSCOPE_DEBUG_ROOT"
ks=(--kallsyms "$TMP/kallsyms")

# --kernel-debug: the object's DWARF names the fields
run_c2c 0 "$TMP/out" "$TMP/err" report -i "$TMP/k.data" --stdio --stats "${ks[@]}" \
	--kernel-debug "$TMP/core.o"
expect_eq "--kernel-debug: attributed" 40 "$(stat_of "$TMP/out" ok)"
expect_eq "--kernel-debug: no symbol" 3 "$(stat_of "$TMP/out" kernel-no-symbol)"
run_c2c 0 "$TMP/out" "$TMP/err" report -i "$TMP/k.data" --stdio "${ks[@]}" \
	--kernel-debug "$TMP/core.o"
expect_contains "rt_se named" "task_group.rt_se" "$TMP/out"
expect_contains "rt_rq named" "task_group.rt_rq" "$TMP/out"

# another build: set_task_cpu has another size than kallsyms says
run_c2c 0 "$TMP/out" "$TMP/err" report -i "$TMP/k.data" --stdio --stats "${ks[@]}" \
	--kernel-debug "$TMP/other.o"
expect_eq "other build: refused" 40 "$(stat_of "$TMP/out" kernel-mismatch)"
expect_eq "other build: nothing named" 0 "$(stat_of "$TMP/out" ok)"
expect_contains "other build: warning" \
	"40 kernel samples refused: the debug file's build-id or function size" "$TMP/err"

# a function no debug file has
printf '%x t not_in_core\n' $((BASE + 0x100000)) >>"$TMP/kallsyms"
printf '%x %x load 0\n' $((BASE + 0x100004)) $TG | "$gen" "$TMP/missing.data"
run_c2c 0 "$TMP/out" "$TMP/err" report -i "$TMP/missing.data" --stdio --stats "${ks[@]}" \
	--kernel-debug "$TMP/core.o"
expect_eq "function not in the debug file" 1 "$(stat_of "$TMP/out" kernel-not-in-debuginfo)"

# two static functions named show (ld -r of two objects): the extent
# kallsyms gives each tells them apart, and each names its own struct
compile "$TMP/s1.o" "$TOP_SRCDIR/tests/attrib/kernel_static.c" -O2 -g -c &&
	compile "$TMP/s2.o" "$TOP_SRCDIR/tests/attrib/kernel_static.c" -O2 -g -c -DSECOND &&
	ld -r "$TMP/s1.o" "$TMP/s2.o" -o "$TMP/static.o" || fail "ld -r"
kallsyms_of "$TMP/static.o" $BASE >"$TMP/static.kallsyms"
mapfile -t shows < <(readelf -sW "$TMP/static.o" | awk '$4 == "FUNC" && $8 == "show" { print $2 }')
expect_eq "two functions named show" 2 "${#shows[@]}"
b=$(member_offset "$TMP/static.o" first_obj b)
z=$(member_offset "$TMP/static.o" second_obj z)
for i in 0 1; do
	objdump -d --no-show-raw-insn --start-address=$((0x${shows[i]})) \
		--stop-address=$((0x${shows[i]} + 16)) "$TMP/static.o" | grep -m1 -E '^ *[0-9a-f]+:'
done >"$TMP/static.insns"
expect_contains "show #1 loads first_obj.b" "mov    $(printf '%#x' "$b")(%rdi)," "$TMP/static.insns"
expect_contains "show #2 loads second_obj.z" "mov    $(printf '%#x' "$z")(%rdi)," "$TMP/static.insns"
printf '%x %x load 0\n%x %x load 1\n' $((BASE + 0x${shows[0]})) $TG $((BASE + 0x${shows[1]})) \
	$((TG + 64)) | "$gen" "$TMP/static.data"
run_c2c 0 "$TMP/out" "$TMP/err" report -i "$TMP/static.data" --stdio --show-all \
	--kallsyms "$TMP/static.kallsyms" --kernel-debug "$TMP/static.o"
expect_contains "the first show" "first_obj.b" "$TMP/out"
expect_contains "the second show" "second_obj.z" "$TMP/out"

# nothing given, nothing found: counted, and the warning says what to install
run_c2c 0 "$TMP/out" "$TMP/err" report -i "$TMP/k.data" --stdio --stats "${ks[@]}"
# (the 3 without a symbol too: nothing is looked up without a file)
expect_eq "no debug file: counted" 43 "$(stat_of "$TMP/out" kernel-no-debuginfo)"
expect_contains "no debug file: what to install" \
	"no debug file for kernel $REL (looked in $TMP/root/usr/lib/debug/boot/vmlinux-$REL" "$TMP/err"
expect_contains "no debug file: Debian's package" "(Debian: linux-image-$REL-dbg)" "$TMP/err"

# found where distributions keep it (each place alone)
for where in usr/lib/debug/boot/vmlinux-$REL usr/lib/debug/lib/modules/$REL/vmlinux \
	lib/modules/$REL/build/vmlinux; do
	rm -rf "${C2CSCOPE_DEBUG_ROOT:?}"/*
	place "$TMP/core.o" "$C2CSCOPE_DEBUG_ROOT/$where"
	run_c2c 0 "$TMP/out" "$TMP/err" report -i "$TMP/k.data" --stdio --stats "${ks[@]}"
	expect_eq "found in /$where" 40 "$(stat_of "$TMP/out" ok)"
done
rm -rf "${C2CSCOPE_DEBUG_ROOT:?}"/*

# a vmlinux: matched by build-id, in perf's build-id cache
kallsyms_of "$TMP/vmlinux" 0 >"$TMP/vm.kallsyms"
write_data "$TMP/vm.data" "$TMP/vmlinux" 0 "$build_id"
place "$TMP/vmlinux" "$HOME/.debug/.build-id/${build_id:0:2}/${build_id:2}/elf"
run_c2c 0 "$TMP/out" "$TMP/err" report -i "$TMP/vm.data" --stdio --stats \
	--kallsyms "$TMP/vm.kallsyms"
expect_eq "build-id cache: attributed" 40 "$(stat_of "$TMP/out" ok)"
rm -rf "$HOME/.debug"

# another kernel's vmlinux: the build-id differs
other_id=$(echo "$build_id" | tr 0-9a-f 1-9a-f0)
write_data "$TMP/vm-other.data" "$TMP/vmlinux" 0 "$other_id"
place "$TMP/vmlinux" "$C2CSCOPE_DEBUG_ROOT/usr/lib/debug/boot/vmlinux-$REL"
run_c2c 0 "$TMP/out" "$TMP/err" report -i "$TMP/vm-other.data" --stdio --stats \
	--kallsyms "$TMP/vm.kallsyms"
expect_eq "other build-id: refused" 40 "$(stat_of "$TMP/out" kernel-mismatch)"
rm -rf "${C2CSCOPE_DEBUG_ROOT:?}"/*

# KASLR moved the kernel by 2 MiB: kallsyms and perf's kernel map (_text's
# runtime address) say where; a global is then named by its data address
SHIFT=0x200000
readelf -sW "$TMP/vmlinux" | awk '$4 == "FUNC" { print $2, $8 }' | while read -r v name; do
	printf '%x t %s\n' $((0x$v + SHIFT)) "$name"
done >"$TMP/kaslr.kallsyms"
rtg=$(readelf -sW "$TMP/vmlinux" | awk '$8 == "root_task_group" { print $2 }')
rt_se=$(member_offset "$TMP/vmlinux" task_group rt_se)
start=$(func_value "$TMP/vmlinux" set_task_cpu)
o=$(insn_offsets "$TMP/vmlinux" set_task_cpu "mov +$(printf '%#x' "$rt_se")\(%r[a-z0-9]+\),%r" | head -1)
# and this_cpu_read(runqueues.clock): %gs: and the per-cpu variable's address
pcpu=$(func_value "$TMP/vmlinux" rq_clock_this_cpu)
objdump -d --no-show-raw-insn --disassemble=rq_clock_this_cpu "$TMP/vmlinux" |
	grep -m1 -E "^ *$pcpu:" | grep -qF 'mov    %gs:' && ok || fail "rq_clock_this_cpu: no %gs: load first"
printf '%x %x load 1\n%x ffff88813fa1c008 load 2\n' $((0x$start + o + SHIFT)) \
	$((0x$rtg + rt_se + SHIFT)) $((0x$pcpu + SHIFT)) |
	"$gen" "$TMP/kaslr.data" "$build_id" $((BASE + SHIFT))
place "$TMP/vmlinux" "$C2CSCOPE_DEBUG_ROOT/usr/lib/debug/boot/vmlinux-$REL"
run_c2c 0 "$TMP/out" "$TMP/err" report -i "$TMP/kaslr.data" --stdio --kallsyms "$TMP/kaslr.kallsyms"
expect_contains "KASLR: the global named by address" "root_task_group.rt_se" "$TMP/out"
expect_contains "a per-cpu variable named from %gs:" "runqueues.clock" "$TMP/out"
rm -rf "${C2CSCOPE_DEBUG_ROOT:?}"/*

# --vmlinux: symbols come from the file itself (report --vmlinux reads
# them there, not from kallsyms), so only the build-id can vouch for it
write_data "$TMP/own.data" "$TMP/vmlinux" 0 "$build_id"
run_c2c 0 "$TMP/out" "$TMP/err" report -i "$TMP/own.data" --stdio --stats --vmlinux "$TMP/vmlinux"
expect_eq "--vmlinux, same build-id: attributed" 40 "$(stat_of "$TMP/out" ok)"
write_data "$TMP/own-noid.data" "$TMP/vmlinux" 0
run_c2c 0 "$TMP/out" "$TMP/err" report -i "$TMP/own-noid.data" --stdio --stats \
	--vmlinux "$TMP/vmlinux"
expect_eq "--vmlinux, no build-id recorded: unverified" 40 \
	"$(stat_of "$TMP/out" kernel-unverified)"
finish
