#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The type-reading options mean the same in layout, check, diff and suggest:
# --kernel reads the running kernel's BTF exactly as naming its file does,
# it refuses a FILE and --dwarf, and -C, --format and --cacheline-size take
# the same arguments and word their errors the same way in every command.
source "$TOP_SRCDIR/tests/lib.sh"

btf=/sys/kernel/btf/vmlinux
[ -r "$btf" ] || skip "no $btf: this kernel has no BTF"

# layout: --kernel, no FILE, and the BTF file itself agree.
run_c2c 0 "$TMP/file" "$TMP/err" layout -C list_head "$btf"
run_c2c 0 "$TMP/kernel" "$TMP/err" layout --kernel -C list_head
expect_eq "layout --kernel = layout $btf" "$(cat "$TMP/file")" "$(cat "$TMP/kernel")"
run_c2c 0 "$TMP/none" "$TMP/err" layout -C list_head
expect_eq "layout without FILE = layout --kernel" "$(cat "$TMP/file")" "$(cat "$TMP/none")"
expect_contains "list_head laid out" "struct list_head {" "$TMP/kernel"

# check: the same rules hold on --kernel and on the BTF file.
printf 'struct list_head {\n\tsize == 16\n\tcachelines <= 1\n}\n' >"$TMP/lh.rules"
run_c2c 0 "$TMP/out" "$TMP/err" check --kernel --rules "$TMP/lh.rules"
expect_contains "check --kernel" "2 rules checked against the running kernel's BTF: 2 hold" \
	"$TMP/out"
run_c2c 0 "$TMP/out" "$TMP/err" check --rules "$TMP/lh.rules" "$btf"
expect_contains "check FILE" "2 rules checked against $btf: 2 hold" "$TMP/out"

# diff --kernel OLD: NEW is the running kernel (a baseline of it: no change).
run_c2c 0 "$TMP/lh.json" "$TMP/err" layout --kernel -C list_head --format json
run_c2c 0 "$TMP/out" "$TMP/err" diff -C list_head --kernel "$TMP/lh.json"
expect_eq "diff --kernel baseline" "no layout changes" "$(cat "$TMP/out")"
run_c2c 0 "$TMP/out" "$TMP/err" diff -C list_head "$TMP/lh.json" "$btf"
expect_eq "diff baseline FILE" "no layout changes" "$(cat "$TMP/out")"

# suggest: --kernel and the BTF file propose the same.
printf 'struct list_head\nnext read_write ctx=a\nprev read_mostly ctx=b\n' >"$TMP/lh.hot"
run_c2c 0 "$TMP/file" "$TMP/err" suggest -C list_head --hotness "$TMP/lh.hot" "$btf"
run_c2c 0 "$TMP/kernel" "$TMP/err" suggest --kernel -C list_head --hotness "$TMP/lh.hot"
expect_eq "suggest --kernel = suggest $btf" "$(cat "$TMP/file")" "$(cat "$TMP/kernel")"

# The same refusals and the same error words in every command.
for cmd in layout check diff suggest; do
	run_c2c 2 "$TMP/out" "$TMP/err" $cmd --kernel --dwarf -C list_head x
	expect_contains "$cmd --kernel --dwarf" "c2cscope $cmd: --kernel reads" "$TMP/err"
	run_c2c 2 "$TMP/out" "$TMP/err" $cmd --format yaml -C list_head x
	expect_contains "$cmd --format yaml" "c2cscope $cmd: --format expects text" "$TMP/err"
	run_c2c 2 "$TMP/out" "$TMP/err" $cmd --cacheline-size 96 -C list_head x
	expect_contains "$cmd --cacheline-size 96" \
		"c2cscope $cmd: --cacheline-size expects a power of two from 8 to 4096, not 96" \
		"$TMP/err"
	run_c2c 0 "$TMP/out" "$TMP/err" $cmd --help
	expect_contains "$cmd --help names --kernel" "-k, --kernel" "$TMP/out"
done
run_c2c 2 "$TMP/out" "$TMP/err" layout --kernel -C list_head "$btf"
expect_contains "layout --kernel FILE" "--kernel reads the running kernel's types" "$TMP/err"
finish
