#!/usr/bin/env bash
# The BTF loader: the running kernel's BTF (task_group numbers, silence on
# stderr, every kind), and .BTF sections that pahole -J adds to corpus
# objects, whose offsets and sizes must equal the DWARF loader's.
source "$TOP_SRCDIR/tests/lib.sh"

DUMP="$TOP_BUILDDIR/tests/types/dump_types"
[ -x "$DUMP" ] || skip "dump_types not built"

# Keep what both loaders know: names, sizes, offsets, bit offsets. pahole
# 1.24's encoder does not know DW_TAG_atomic_type and writes void for
# misc.c's "_Atomic int atom", so that member's size is left out.
facts() {
	sed -E -e 's/ align [0-9]+ forced [0-9]+ packed [01]//' -e 's/ decl .*$//' \
		-e 's/ align [0-9]+ size/ size/' -e 's/ \| .*$//' -e '/member atom /s/ size [0-9]+$//' "$1"
}

if [ -r /sys/kernel/btf/vmlinux ]; then
	"$DUMP" --kernel -C task_group >"$TMP/tg" 2>"$TMP/tg.err"
	expect_eq "kernel BTF stderr" "" "$(cat "$TMP/tg.err")"
	expect_contains "task_group size" "struct task_group size 704 " "$TMP/tg"
	expect_contains "load_avg" "member load_avg offset 256 bit_offset 2048 bit_size 0 align 64 " "$TMP/tg"
	expect_contains "rt_se" "member rt_se offset 264 " "$TMP/tg"
	expect_contains "rt_rq" "member rt_rq offset 272 " "$TMP/tg"
	# The whole kernel: every kind (DECL_TAG, TYPE_TAG, ENUM64, FLOAT) loads quietly.
	"$DUMP" --kernel >"$TMP/all" 2>"$TMP/all.err"
	expect_eq "whole kernel BTF stderr" "" "$(cat "$TMP/all.err")"
	n=$(grep -c '^struct \|^union ' "$TMP/all")
	[ "$n" -gt 1000 ] && ok || fail "only $n structs in the kernel BTF"
	for mod in /sys/kernel/btf/*; do
		[ "$mod" = /sys/kernel/btf/vmlinux ] && continue
		"$DUMP" --count "$mod" >"$TMP/mod" 2>&1 && ok || fail "module BTF $mod: $(cat "$TMP/mod")"
		break
	done
fi

command -v pahole >/dev/null || { finish; exit; }
for src in "$TOP_SRCDIR"/tests/corpus/*.c; do
	gcc -gdwarf-5 -O2 -c -o "$TMP/obj.o" "$src" || { fail "cannot compile $src"; continue; }
	pahole -J "$TMP/obj.o" 2>/dev/null || { fail "pahole -J $src"; continue; }
	"$DUMP" --dwarf "$TMP/obj.o" >"$TMP/dwarf" 2>&1 || fail "dwarf dump of $src"
	"$DUMP" --btf "$TMP/obj.o" >"$TMP/btf" 2>"$TMP/btf.err" || fail "btf dump of $src"
	expect_eq "BTF stderr for $src" "" "$(cat "$TMP/btf.err")"
	if diff <(facts "$TMP/dwarf") <(facts "$TMP/btf") >"$TMP/diff"; then
		ok
	else
		fail "$src: BTF and DWARF disagree:"
		head -20 "$TMP/diff" >&2
	fi
done
# Forced alignment inferred from BTF offsets (no attribute in BTF).
gcc -gdwarf-5 -c -o "$TMP/al.o" "$TOP_SRCDIR/tests/corpus/kernel_like.c" && pahole -J "$TMP/al.o" 2>/dev/null
"$DUMP" --btf -C task_group_like "$TMP/al.o" >"$TMP/al" 2>&1
expect_contains "inferred ____cacheline_aligned" "member load_avg offset 64 bit_offset 512 bit_size 0 align 64 " "$TMP/al"
finish
