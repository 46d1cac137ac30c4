#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Kernel samples named by field through a kernel object's DWARF: Linux 6.1's
# kernel/sched/core.o (and fair.o) as samples/linux/verify.sh builds them.
# A kallsyms puts their functions at kernel addresses; perf.data's kernel
# samples sit at the instructions of set_task_cpu that load tg->rt_se and
# tg->rt_rq, of update_cfs_group that loads tg->load_avg and of
# update_load_avg that adds to it (offsets from pahole and objdump, not
# written here). report --kernel-debug names the fields, layout --profile
# puts the heat on them, suggest --profile --patch proposes the patch the
# project ships (samples/linux/task_group-suggest.patch). A debug file that
# is not the kernel's is refused with its reason.
source "$TOP_SRCDIR/tests/lib.sh"
source "$TOP_SRCDIR/tests/attrib/kernel_lib.sh"

need_tools pahole objdump readelf
gen=$TOP_BUILDDIR/tests/attrib/kernel_gen
core=$(cached_object core)
fair=$(cached_object fair)
[ -n "$core" ] || skip "no cached kernel/sched/core.o: samples/linux/verify.sh builds one"

CORE_BASE=0xffffffff81000000
FAIR_BASE=0xffffffff82000000
TG=0xffff888100000000
kallsyms_of "$core" $CORE_BASE >"$TMP/kallsyms"
[ -n "$fair" ] && kallsyms_of "$fair" $FAIR_BASE >>"$TMP/kallsyms"

declare -A off
for m in load_avg rt_se rt_rq; do
	off[$m]=$(member_offset "$core" task_group $m)
	[ -n "${off[$m]}" ] || fail "pahole: no task_group.$m in $core"
done
expect_eq "pahole: rt_se follows load_avg" $((off[load_avg] + 8)) "${off[rt_se]}"

# samples OBJ BASE FUNC REGEX MEMBER KIND: 5 per cpu at each matching instruction
declare -A insns
samples() {
	local o cpu start list
	start=$(func_value "$1" "$3")
	list=$(insn_offsets "$1" "$3" "$4")
	insns[$5]=$(wc -w <<<"$list")
	for o in $list; do
		for cpu in 0 1 2 3; do
			for _ in 1 2 3 4 5; do
				printf '%x %x %s %d\n' $(($2 + 0x$start + o)) $((TG + off[$5])) "$6" $cpu
			done
		done
	done >>"$TMP/samples"
	grep -q . "$TMP/samples" || fail "$3: no instruction matches '$4'"
}
hex() { printf '%#x' "$1"; }
: >"$TMP/samples"
samples "$core" $CORE_BASE set_task_cpu "mov +$(hex "${off[rt_se]}")\(%r[a-z0-9]+\),%r" rt_se load
samples "$core" $CORE_BASE set_task_cpu "mov +$(hex "${off[rt_rq]}")\(%r[a-z0-9]+\),%r" rt_rq load
debug=(--kallsyms "$TMP/kallsyms" --kernel-debug "$core")
fair_members=0
if [ -n "$fair" ]; then
	fair_members=1
	samples "$fair" $FAIR_BASE update_cfs_group "mov +$(hex "${off[load_avg]}")\(%r[a-z0-9]+\),%r" \
		load_avg load
	samples "$fair" $FAIR_BASE update_load_avg "lock add +%r[a-z0-9]+,$(hex "${off[load_avg]}")\(" \
		load_avg store
	debug+=(--kernel-debug "$fair")
else
	echo "no cached kernel/sched/fair.o: load_avg's reader and writer are not sampled" >&2
fi
nr=$(wc -l <"$TMP/samples")
"$gen" "$TMP/k.data" <"$TMP/samples" || fail "kernel_gen"

# report: every sample named, by the fields pahole puts at those offsets
run_c2c 0 "$TMP/stats" "$TMP/err" report -i "$TMP/k.data" --stdio --stats "${debug[@]}"
expect_eq "all $nr samples attributed" "$nr" \
	"$(sed -n 's/^  ok  *: *\([0-9]*\)$/\1/p' "$TMP/stats")"
run_c2c 0 "$TMP/report" "$TMP/err" report -i "$TMP/k.data" --stdio --full-symbols "${debug[@]}"
expect_eq "report: no warning" "" "$(cat "$TMP/err")"
expect_contains "rt_se read in set_task_cpu" "set_task_cpu+" "$TMP/report"
for m in rt_se rt_rq; do
	# one row per sampled instruction (offset x code address)
	expect_eq "task_group.$m named" "${insns[$m]}" \
		"$(grep -cE "set_task_cpu\+[0-9]+ .*task_group\.$m\$" "$TMP/report")"
done
if [ -n "$fair" ]; then
	expect_contains "load_avg read in update_cfs_group" "task_group.load_avg.counter" "$TMP/report"
	grep -E "update_cfs_group\+.*task_group\.load_avg" "$TMP/report" >/dev/null && ok ||
		fail "update_cfs_group's load is not task_group.load_avg"
	grep -E "update_load_avg\+.*task_group\.load_avg" "$TMP/report" >/dev/null && ok ||
		fail "update_load_avg's lock add is not task_group.load_avg"
fi

# --by-type and the HTML page read the same attribution
run_c2c 0 "$TMP/bytype" "$TMP/err" report -i "$TMP/k.data" --stdio --by-type "${debug[@]}"
for m in rt_se rt_rq; do
	grep -E "^  task_group +$m +20 +0 +20 +0 +0 +4 +set_task_cpu +-" "$TMP/bytype" >/dev/null &&
		ok || fail "--by-type: task_group.$m: $(grep " $m " "$TMP/bytype")"
done
run_c2c 0 "$TMP/out" "$TMP/err" report -i "$TMP/k.data" --html "$TMP/k.html" "${debug[@]}"
expect_contains "HTML names rt_se" "task_group.rt_se" "$TMP/k.html"

# layout --profile: the heat on exactly those members of core.o's task_group
run_c2c 0 "$TMP/layout" "$TMP/err" layout -C task_group --profile "$TMP/k.data" "${debug[@]}" "$core"
for m in rt_se rt_rq; do
	grep -E " $m; .*hitm 20/0 ld 20 st 0 r:set_task_cpu" "$TMP/layout" >/dev/null && ok ||
		fail "layout --profile: no heat on $m: $(grep " $m;" "$TMP/layout")"
done
if [ -n "$fair" ]; then
	grep -E " load_avg .*hitm 20/0 ld 20 st 20 r:update_cfs_group w:update_load_avg" \
		"$TMP/layout" >/dev/null && ok ||
		fail "layout --profile: load_avg: $(grep " load_avg " "$TMP/layout")"
	expect_contains "load_avg: true sharing" "true sharing: load_avg (written by cpus 0,1,2,3)" \
		"$TMP/layout"
fi
expect_eq "no heat elsewhere" $((fair_members + 2)) "$(grep -c ' hitm [0-9]' "$TMP/layout")"

# suggest --profile --patch: the patch the project ships, from the profile
trees=("$(dirname "$core")"/tree-*/linux-source-6.1)
tree=${trees[0]}
if [ -n "$fair" ] && [ -r "$tree/kernel/sched/sched.h" ]; then
	run_c2c 0 "$TMP/patch" "$TMP/err" suggest --patch --source-dir "$tree" -C task_group \
		--profile "$TMP/k.data" "${debug[@]}" "$core"
	sed -n '/^c2cscope suggest --patch:/,$p' "$TOP_SRCDIR/samples/linux/task_group-suggest.patch" |
		sed 2d >"$TMP/want"
	sed 2d "$TMP/patch" >"$TMP/got"
	if diff -u "$TMP/want" "$TMP/got" >"$TMP/diff"; then ok; else fail "suggest: $(cat "$TMP/diff")"; fi
	expect_contains "suggest: rt_bandwidth moves" "move rt_bandwidth: offset 280 -> 264" "$TMP/got"
else
	echo "no fair.o or no cached source tree: suggest --patch not checked" >&2
fi
# the browser's annotate view: the sampled kernel instruction, marked, in
# its function disassembled from the debug file at its runtime addresses
if command -v tmux >/dev/null && command -v python3 >/dev/null &&
	grep -q '^#define HAVE_NCURSES 1' "$TOP_BUILDDIR/config.h"; then
	source "$TOP_SRCDIR/tests/tui/common.sh"
	DATA=$TMP/k.data
	ARGS="${debug[*]}"
	start
	keys "Writers:" d
	keys "Instruction" a
	cap >"$TMP/annotate"
	run_c2c 0 "$TMP/out" "$TMP/err" report -i "$TMP/k.data" --json "$TMP/k.json" "${debug[@]}"
	read -r iaddr sym <<<"$(python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["lines"][0]["rows"][0]
print(r["iaddr"], r["symbol"])' "$TMP/k.json")"
	expect_contains "annotate: the first row's function" "$sym" "$TMP/annotate"
	grep -qE "\| -> +$iaddr: .* hitm 20/0 ld 20" "$TMP/annotate" && ok ||
		fail "annotate: no marked, counted instruction at $iaddr: $(head -20 "$TMP/annotate")"
	T kill-server 2>/dev/null
else
	echo "no tmux, python3 or ncursesw: the annotate view is not checked" >&2
fi
finish
