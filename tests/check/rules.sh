#!/usr/bin/env bash
# Every rule kind on a struct compiled with gcc -g: all hold in one file,
# each fails with its exact message in another.
source "$TOP_SRCDIR/tests/lib.sh"

compile "$TMP/demo.o" "$TOP_SRCDIR/tests/check/gate_demo.c" -g -c || finish

cat >"$TMP/hold.rules" <<'R'
# every kind of rule, each holding
struct gate_demo {
	size <= 192
	size == 192
	cachelines <= 3
	isolated cold
	apart load_avg: a, b, cold
	together rt_se, rt_rq, inner.y
	offset load_avg == 64; offset inner.y == 92
	aligned cold 64
	holes <= 2
	padding <= 56
	group rtp: rt_se, rt_rq
	group rtp fits 1 line
	group rtp size <= 16
}
R
run_c2c 0 "$TMP/out" "$TMP/err" check --rules "$TMP/hold.rules" "$TMP/demo.o"
expect_eq "all hold" "14 rules checked against $TMP/demo.o: 14 hold, 0 violated" "$(cat "$TMP/out")"

cat >"$TMP/fail.rules" <<'R'
struct gate_demo {
	size <= 128
	size == 200
	cachelines <= 2
	isolated load_avg
	apart load_avg: rt_se, rt_rq
	together a, load_avg
	offset rt_se == 64
	aligned rt_rq 64
	holes <= 1
	padding <= 8
	group rt: rt_se, c
	group rt size <= 16
	group cold_g: c, cold
	group cold_g fits 1 line
}
R
run_c2c 1 "$TMP/out" "$TMP/err" check --rules "$TMP/fail.rules" "$TMP/demo.o"
F=$TMP/fail.rules
while IFS='|' read -r line rule msg; do
	expect_contains "line $line" "$F:$line: struct gate_demo: $rule: VIOLATED" "$TMP/out"
	expect_contains "line $line message" "    $msg" "$TMP/out"
done <<'X'
2|size <= 128|size is 192 bytes, more than 128
3|size == 200|size is 192 bytes, not 200
4|cachelines <= 2|spans 3 cache lines of 64 bytes, more than 2
5|isolated load_avg|load_avg (offset 64, line 1) shares a cache line with rt_se (offset 72, line 1), rt_rq (offset 80, line 1), inner (offset 88, line 1), c (offset 96, line 1)
6|apart load_avg: rt_se, rt_rq|rt_se (offset 72, line 1), rt_rq (offset 80, line 1) share a cache line with load_avg (offset 64, line 1)
7|together a, load_avg|a (offset 0, line 0), load_avg (offset 64, line 1) span lines 0-1, not one line
8|offset rt_se == 64|rt_se is at offset 72 (line 1), not 64
9|aligned rt_rq 64|rt_rq is at offset 80 (line 1), not a multiple of 64
10|holes <= 1|has 2 holes (83 bytes), more than 1; holes after b (offset 8, line 0), c (offset 96, line 1)
11|padding <= 8|has 56 bytes of tail padding, more than 8
12|group rt: rt_se, c|rt_rq (offset 80, line 1), inner (offset 88, line 1) sit inside group rt [72, 97) but not in it
13|group rt size <= 16|group rt [72, 97) is 25 bytes, more than 16
15|group cold_g fits 1 line|group cold_g [96, 136) spans 2 cache lines (1-2), more than 1
X
expect_contains "summary" "14 rules checked against $TMP/demo.o: 1 hold, 13 violated" "$TMP/out"
# the excerpt shows the lines involved, pahole style
expect_contains "excerpt" "/* --- cacheline 1 boundary (64 bytes) --- */" "$TMP/out"
expect_contains "excerpt member" "rt_se;" "$TMP/out"

# the cache-line size is a parameter: with 128-byte lines a and load_avg share one
printf 'struct gate_demo {\n\ttogether a, load_avg\n\tcachelines <= 2\n}\n' >"$TMP/wide.rules"
run_c2c 0 "$TMP/out" "$TMP/err" check --cacheline-size 128 --rules "$TMP/wide.rules" "$TMP/demo.o"
run_c2c 2 "$TMP/out" "$TMP/err" check --cacheline-size 96 --rules "$TMP/wide.rules" "$TMP/demo.o"
expect_contains "bad line size" "--cacheline-size expects a power of two from 8 to 4096, not 96" "$TMP/err"

# rules that cannot be checked are bad input (exit 2), with a hint
printf 'struct gate_dem {\n\tsize <= 1\n}\nstruct gate_demo {\n\tisolated nope\n}\n' >"$TMP/bad.rules"
run_c2c 2 "$TMP/out" "$TMP/err" check --rules "$TMP/bad.rules" "$TMP/demo.o"
expect_contains "missing struct" "$TMP/demo.o: no struct or union gate_dem; did you mean gate_demo?" "$TMP/out"
expect_contains "missing member" "no member 'nope' in struct gate_demo" "$TMP/out"
finish
