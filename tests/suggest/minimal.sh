#!/usr/bin/env bash
# The smallest complete fix, from hotness files (no simulator needed): the
# isolate option groups fields the same contexts write and read into one
# wrapper, and leaves unwrapped a written field that cold bytes already
# keep apart. Each proposal is proven by the compiler: relayout.py writes
# the option's struct with offsetof/sizeof asserts and gcc must accept it.
source "$TOP_SRCDIR/tests/lib.sh"
command -v python3 >/dev/null || skip "python3 (reads the JSON) is missing"
here=$TOP_SRCDIR/tests/suggest

# prove NAME STRUCT OPTION SIZE: NAME.c's STRUCT as OPTION lays it out, compiled
prove() {
	run_c2c 0 "$TMP/$1.json" "$TMP/$1.err" suggest -C "$2" --hotness "$TMP/$1.hot" \
		--format json "$TMP/$1.o"
	python3 "$here/relayout.py" "$TMP/$1.c" "$2" "$TMP/$1.json" "$3" "$TMP/$1.$3.c" ||
		{ fail "$1: relayout.py"; return; }
	${CC:-gcc} -c -o "$TMP/$1.$3.o" "$TMP/$1.$3.c" 2>"$TMP/$1.cc" && ok ||
		fail "$1: the $3 option's offsets do not compile: $(head -3 "$TMP/$1.cc")"
	expect_eq "$1: $3's size" "$4" "$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print([o["new_size"] for o in d["options"] if o["option"] == sys.argv[2]][0])' "$TMP/$1.json" "$3")"
	expect_eq "$1: the default" "$3" "$(python3 -c '
import json, sys
print(json.load(open(sys.argv[1]))["default"])' "$TMP/$1.json")"
}

# Two locks the same two threads take, and two fields two others read:
# one line for the locks, one for the readers (a wrapper per lock: 192).
cat >"$TMP/locks.c" <<'C'
struct pool {
	int lock_a;
	long limit;
	int lock_b;
	long scale;
};
struct pool pool;
C
cat >"$TMP/locks.hot" <<'H'
struct pool
lock_a  read_write   ctx=w1,w2
lock_b  read_write   ctx=w1,w2
limit   read_mostly  ctx=r1,r2
scale   read_mostly  ctx=r1,r2
H
compile "$TMP/locks.o" "$TMP/locks.c" -g -c && prove locks pool isolate 128
expect_eq "locks: one wrapper for both" 1 "$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
o = [o for o in d["options"] if o["option"] == "isolate"][0]
print(len({e["wrapper"] for e in o["order"] if e["isolated"]}))' "$TMP/locks.json")"

# Two counters two threads write, a field a third reads, cold bytes
# between: only b needs a wrapper (wrapping a too costs 256).
cat >"$TMP/mixed.c" <<'C'
struct mixed {
	long a;
	char cold[48];
	long b;
	long r;
};
struct mixed m;
C
cat >"$TMP/mixed.hot" <<'H'
struct mixed
a     read_write   ctx=t1
b     read_write   ctx=t2
r     read_mostly  ctx=t3
cold  cold
H
compile "$TMP/mixed.o" "$TMP/mixed.c" -g -c && prove mixed mixed isolate 192
expect_eq "mixed: only b wrapped" "b" "$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
o = [o for o in d["options"] if o["option"] == "isolate"][0]
print(" ".join(e["member"] for e in o["order"] if e["isolated"]))' "$TMP/mixed.json")"

# --choose takes the options' names: reorder and isolate exist for locks,
# align is a name but needs HITMs between objects, anything else is no name
if [ -f "$TMP/locks.o" ]; then
	for option in reorder isolate; do
		run_c2c 0 "$TMP/choose.out" "$TMP/choose.err" suggest -C pool --hotness "$TMP/locks.hot" \
			--choose $option "$TMP/locks.o"
	done
	run_c2c 2 "$TMP/choose.out" "$TMP/choose.err" suggest -C pool --hotness "$TMP/locks.hot" \
		--choose align "$TMP/locks.o"
	expect_contains "--choose align: a name, not an option here" \
		"--choose align: no such option for struct pool" "$TMP/choose.err"
	run_c2c 2 "$TMP/choose.out" "$TMP/choose.err" suggest -C pool --hotness "$TMP/locks.hot" \
		--choose bogus "$TMP/locks.o"
	expect_contains "--choose bogus: no such name" \
		"--choose expects reorder, isolate or align, not 'bogus'" "$TMP/choose.err"
fi
finish
