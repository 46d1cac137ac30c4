#!/usr/bin/env bash
# --kernel-groups on a saved JSON baseline: the saved layout passes, and a
# baseline edited to break a group (a member moved out of its markers, an
# end marker removed) is caught by check and reported by diff. Then the same
# on the running kernel's tcp_sock when its BTF can be read.
source "$TOP_SRCDIR/tests/lib.sh"
command -v python3 >/dev/null || skip "python3 is needed to edit the baseline"

cat >"$TMP/grp.c" <<'C'
struct grp {
	char __cacheline_group_begin__read[0];
	long r1;
	long r2;
	char __cacheline_group_end__read[0];
	char __cacheline_group_begin__write[0] __attribute__((aligned(64)));
	long w1;
	long w2;
	char __cacheline_group_end__write[0];
	long tail;
};
struct grp g;
C
compile "$TMP/grp.o" "$TMP/grp.c" -g -c || finish
run_c2c 0 "$TMP/out" "$TMP/err" check --kernel-groups "$TMP/grp.o"
expect_eq "groups hold" "2 rules checked against $TMP/grp.o: 2 hold, 0 violated" "$(cat "$TMP/out")"

"$C2CSCOPE" layout --format json -C grp "$TMP/grp.o" >"$TMP/base.json" 2>"$TMP/err"
grep -q "not available in this build yet" "$TMP/err" && skip "the layout command is not built yet"
run_c2c 0 "$TMP/base.json" "$TMP/err" layout --format json -C grp "$TMP/grp.o"
run_c2c 0 "$TMP/out" "$TMP/err" check --kernel-groups "$TMP/base.json"
expect_eq "baseline holds" "2 rules checked against $TMP/base.json: 2 hold, 0 violated" "$(cat "$TMP/out")"

# edit: r2 moves behind the read group's end marker; write loses its end marker
python3 - "$TMP/base.json" "$TMP/broken.json" <<'P'
import json, sys
d = json.load(open(sys.argv[1]))
s = d["structs"][0]
for m in s["members"]:
    if m["name"] == "r2":
        m["offset"], m["bit_offset"], m["cacheline"] = 96, 768, 1
s["members"] = [m for m in s["members"] if m["name"] != "__cacheline_group_end__write"]
json.dump(d, open(sys.argv[2], "w"), indent=1)
P
run_c2c 1 "$TMP/out" "$TMP/err" check --kernel-groups "$TMP/broken.json"
expect_contains "moved out" "<kernel-groups>: struct grp: kernel group read (__cacheline_group_begin__/end__ markers): VIOLATED
    r2 (offset 96, line 1) lies outside group read [0, 16)" "$TMP/out"
expect_contains "moved out, one line" "    r2 (offset 96, line 1) lies outside group read [0, 16)" "$TMP/out"
expect_contains "no end" "    group write has __cacheline_group_begin__write but no __cacheline_group_end__write" "$TMP/out"
expect_contains "summary" "2 rules checked against $TMP/broken.json: 0 hold, 2 violated" "$TMP/out"

run_c2c 0 "$TMP/out" "$TMP/err" diff "$TMP/base.json" "$TMP/broken.json"
expect_contains "diff moved" "    moved    r2: offset 8 (line 0) -> 96 (line 1)" "$TMP/out"
expect_contains "diff removed" "    removed  __cacheline_group_end__write: offset 80 (line 1), size 0" "$TMP/out"
expect_contains "diff group" "    group    read broken: r2 (offset 96, line 1) lies outside group read [0, 16)" "$TMP/out"
expect_contains "diff group end" "    group    write broken: group write has __cacheline_group_begin__write but no __cacheline_group_end__write" "$TMP/out"
# ELF against JSON, the other way round: groups that held in OLD only count
run_c2c 0 "$TMP/out" "$TMP/err" diff "$TMP/broken.json" "$TMP/grp.o"
expect_not_contains "repair is no break" "broken:" "$TMP/out"

# the kernel's tcp_sock, saved and broken the same way
BTF=/sys/kernel/btf/vmlinux
if [ -r "$BTF" ] && "$C2CSCOPE" layout --format json -C tcp_sock "$BTF" >"$TMP/k.json" 2>"$TMP/err"; then
	run_c2c 0 "$TMP/out" "$TMP/err" check --kernel-groups "$TMP/k.json"
	expect_contains "kernel baseline holds" " 0 violated" "$TMP/out"
	want=$(python3 - "$TMP/k.json" "$TMP/kb.json" <<'P'
import json, sys
d = json.load(open(sys.argv[1]))
s = d["structs"][0]
ms = s["members"]
begin = next(i for i, m in enumerate(ms) if (m["name"] or "").startswith("__cacheline_group_begin__"))
group = ms[begin]["name"][len("__cacheline_group_begin__"):]
end = next(i for i, m in enumerate(ms) if m["name"] == "__cacheline_group_end__" + group)
victim = next(m for m in ms[begin + 1:end] if m["size"] > 0)
start, stop = ms[begin]["offset"], ms[end]["offset"]
victim["offset"] = stop + 64
victim["bit_offset"] = victim["offset"] * 8
json.dump(d, open(sys.argv[2], "w"))
print("%s (offset %d, line %d) lies outside group %s [%d, %d)" % (
    victim["name"], victim["offset"], victim["offset"] // 64, group, start, stop))
P
)
	run_c2c 1 "$TMP/out" "$TMP/err" check --kernel-groups "$TMP/kb.json"
	expect_contains "kernel group broken" "    $want" "$TMP/out"
fi
finish
