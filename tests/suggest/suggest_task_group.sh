#!/usr/bin/env bash
# c2cscope suggest on the task_group stand-in (DWARF) and on the running
# kernel's BTF: "reorder only" takes rt_se and rt_rq off load_avg's line at
# no size cost, "isolate" gives load_avg its own line for +64 bytes; the
# proposals compile with offsetof asserts, and the emitted rules fail the
# old layout and pass the new one.
source "$TOP_SRCDIR/tests/lib.sh"
here=$TOP_SRCDIR/tests/suggest

compile "$TMP/tg.o" "$here/task_group.c" -g -c || finish
run_c2c 0 "$TMP/out" "$TMP/err" suggest -C task_group --hotness "$here/task_group.hot" "$TMP/tg.o"
expect_eq "stderr is empty" "" "$(cat "$TMP/err")"
expect_contains "sharing found" "  line 4: load_avg (write-hot) shares with rt_se, rt_rq" "$TMP/out"
expect_contains "reorder keeps the size" "  size 704 -> 704 (+0 bytes), cache lines 11 -> 11" "$TMP/out"
expect_contains "rt_se moves off line 4" "  move rt_se: offset 264 -> 224 (line 4 -> 3)" "$TMP/out"
expect_contains "rt_rq moves off line 4" "  move rt_rq: offset 272 -> 232 (line 4 -> 3)" "$TMP/out"
expect_contains "isolate costs a line" "  size 704 -> 768 (+64 bytes), cache lines 11 -> 12" "$TMP/out"
expect_contains "isolate wraps load_avg" "  isolate load_avg: offset 256 -> 256 (line 4 -> 4)" "$TMP/out"
expect_contains "both separate" "verdict: reorder only separates all sharing (+0 bytes); isolate separates all sharing (+64 bytes)" "$TMP/out"
expect_eq "reorder moves three members" 3 "$(grep -c '^  move ' "$TMP/out")"

# Each proposal compiles with its offsets asserted.
run_c2c 0 "$TMP/tg.json" "$TMP/err" suggest -C task_group --hotness "$here/task_group.hot" \
	--format json --emit-rules "$TMP/tg.rules" "$TMP/tg.o"
for opt in reorder isolate; do
	python3 "$here/relayout.py" "$here/task_group.c" task_group "$TMP/tg.json" $opt "$TMP/$opt.c" &&
		${CC:-gcc} -g -c -o "$TMP/$opt.o" "$TMP/$opt.c" && ok ||
		fail "the $opt proposal does not compile with its offsets"
done
expect_contains "rules name the fix" "apart load_avg: se, cfs_rq, shares, rt_se, rt_rq, parent" "$TMP/tg.rules"
expect_contains "rules keep the size" "size <= 704" "$TMP/tg.rules"

# The rules lock the fix in: the old layout fails them, the new one passes.
if "$C2CSCOPE" check --help >/dev/null 2>&1; then
	run_c2c 1 "$TMP/c1" "$TMP/e1" check --rules "$TMP/tg.rules" "$TMP/tg.o"
	run_c2c 0 "$TMP/c2" "$TMP/e2" check --rules "$TMP/tg.rules" "$TMP/reorder.o"
fi

# The running kernel's task_group from BTF gives the same two answers.
probe=$("$C2CSCOPE" suggest -C task_group --hotness "$here/task_group.hot" 2>&1)
if [ -r /sys/kernel/btf/vmlinux ] && [[ $probe != *"BTF loader is not built"* ]]; then
	run_c2c 0 "$TMP/k" "$TMP/ke" suggest -C task_group --hotness "$here/task_group.hot" --format json
	python3 - "$TMP/k" >"$TMP/kv" <<'PY' || fail "kernel answers: $(cat "$TMP/kv")"
import json, sys
d = json.load(open(sys.argv[1]))
r, i = d["options"]
assert r["new_size"] == r["old_size"] == 704, r["new_size"]
assert r["conflicts_after"] == 0 < r["conflicts_before"], r["conflicts_after"]
moved = [m["member"] for m in r["moves"]]
assert "rt_se" in moved and "rt_rq" in moved, moved
line = lambda o, n: next(m["offset"] for m in o["order"] if m["member"] == n) // 64
assert line(r, "rt_se") != line(r, "load_avg") and line(r, "rt_rq") != line(r, "load_avg")
assert i["new_size"] == 768 and i["conflicts_after"] == 0, i["new_size"]
print("ok")
PY
	ok
fi

# Bad input: clear messages, exit 2.
run_c2c 2 "$TMP/o" "$TMP/e" suggest -C task_grup --hotness "$here/task_group.hot" "$TMP/tg.o"
expect_contains "did you mean" "no struct or union task_grup; did you mean task_group?" "$TMP/e"
printf 'struct task_group\nload_avg sometimes\n' >"$TMP/bad.hot"
run_c2c 2 "$TMP/o" "$TMP/e" suggest -C task_group --hotness "$TMP/bad.hot" "$TMP/tg.o"
expect_contains "bad class" "bad.hot:2: expected read_mostly, read_write or cold (near 'sometimes')" "$TMP/e"
printf 'struct task_group\nload_avgx read_write\n' >"$TMP/bad2.hot"
run_c2c 2 "$TMP/o" "$TMP/e" suggest -C task_group --hotness "$TMP/bad2.hot" "$TMP/tg.o"
expect_contains "unknown field" "bad2.hot:2: no such field in the struct (near 'load_avgx')" "$TMP/e"
run_c2c 2 "$TMP/o" "$TMP/e" suggest -C task_group --hotness "$here/task_group.hot" --pin nope "$TMP/tg.o"
expect_contains "bad pin" "--pin nope: struct task_group has no such member" "$TMP/e"
finish
