#!/usr/bin/env bash
# diff between builds of one struct lists exactly the moves made; each
# --fail-on policy trips when it should and only then.
source "$TOP_SRCDIR/tests/lib.sh"

variant() { # NAME BODY
	printf 'struct sample {\n%b};\nstruct sample s;\n' "$2" >"$TMP/$1.c"
	compile "$TMP/$1.o" "$TMP/$1.c" -g -c
}
HOT='\tlong hot __attribute__((aligned(64)));\n'
variant v1 "\tlong a;\n\tint b;\n\tlong c;\n\tchar d;\n$HOT\tlong e;\n"
# b and c swap, d follows, e removed, f added
variant v2 "\tlong a;\n\tlong c;\n\tint b;\n\tchar d;\n$HOT\tlong f;\n"
# grows by a line
variant v3 "\tlong a;\n\tint b;\n\tlong c;\n\tchar d;\n$HOT\tlong e;\n\tchar big[64];\n"
# hot loses its own line: it now shares line 0 with a, b, c and d
variant v4 "\tlong a;\n\tint b;\n\tlong c;\n\tchar d;\n\tlong hot;\n\tlong e;\n"

run_c2c 0 "$TMP/out" "$TMP/err" diff "$TMP/v1.o" "$TMP/v2.o"
expect_eq "moves" "struct sample: size 128 -> 128 (+0), cachelines 2 -> 2 (+0)
    removed  e: offset 72 (line 1), size 8
    moved    c: offset 16 (line 0) -> 8 (line 0)
    moved    b: offset 8 (line 0) -> 16 (line 0)
    moved    d: offset 24 (line 0) -> 20 (line 0)
    added    f: offset 72 (line 1), size 8
    holes 2 -> 1 (43 -> 43 bytes), padding 48 -> 48" "$(cat "$TMP/out")"

run_c2c 0 "$TMP/out" "$TMP/err" diff "$TMP/v1.o" "$TMP/v1.o"
expect_eq "no change" "no layout changes" "$(cat "$TMP/out")"

run_c2c 0 "$TMP/out" "$TMP/err" diff "$TMP/v1.o" "$TMP/v4.o"
expect_contains "size" "struct sample: size 128 -> 48 (-80), cachelines 2 -> 1 (-1)" "$TMP/out"
expect_contains "hot moved" "    moved    hot: offset 64 (line 1) -> 32 (line 0)" "$TMP/out"
expect_contains "shared" "    shared   a and hot now share line 0 (were on lines 0 and 1)" "$TMP/out"
expect_eq "shared pairs" 4 "$(grep -c 'and hot now share line 0' "$TMP/out")"
expect_not_contains "not new" "a and b now share" "$TMP/out"

# each policy, both ways: OLD NEW POLICY EXIT
while read -r old new policy want; do
	run_c2c "$want" "$TMP/out" "$TMP/err" diff --fail-on "$policy" "$TMP/$old.o" "$TMP/$new.o"
	if [ "$want" = 1 ]; then
		expect_contains "$policy $old->$new" "fail-on $policy: sample" "$TMP/out"
	else
		expect_not_contains "$policy $old->$new" "fail-on" "$TMP/out"
	fi
done <<'X'
v1 v3 size-growth 1
v1 v2 size-growth 0
v1 v4 new-shared-line 1
v1 v2 new-shared-line 0
v2 v1 hole-growth 1
v1 v2 hole-growth 0
v1 v2 moved 1
v1 v3 moved 0
X
run_c2c 1 "$TMP/out" "$TMP/err" diff --fail-on size-growth,moved "$TMP/v1.o" "$TMP/v2.o"
run_c2c 2 "$TMP/out" "$TMP/err" diff --fail-on bigger "$TMP/v1.o" "$TMP/v2.o"
expect_contains "bad policy" "--fail-on: 'bigger' is not size-growth, new-shared-line, hole-growth, moved or all" "$TMP/err"

# rules on NEW turn into exit 1 as well
printf 'struct sample {\n\tapart hot: a\n}\n' >"$TMP/r.rules"
run_c2c 0 "$TMP/out" "$TMP/err" diff --rules "$TMP/r.rules" "$TMP/v1.o" "$TMP/v2.o"
run_c2c 1 "$TMP/out" "$TMP/err" diff --rules "$TMP/r.rules" "$TMP/v1.o" "$TMP/v4.o"
expect_contains "rule on new" "a (offset 0, line 0) shares a cache line with hot (offset 32, line 0)" "$TMP/out"

# -C limits the structs; JSON output parses back
printf 'struct other { int x; };\nstruct other o;\n' >>"$TMP/v2.c"
compile "$TMP/v2b.o" "$TMP/v2.c" -g -c
run_c2c 0 "$TMP/out" "$TMP/err" diff "$TMP/v1.o" "$TMP/v2b.o"
expect_contains "only in new" "struct other: only in NEW" "$TMP/out"
run_c2c 0 "$TMP/out" "$TMP/err" diff -C 'samp*' "$TMP/v1.o" "$TMP/v2b.o"
expect_not_contains "-C" "other" "$TMP/out"
if command -v python3 >/dev/null; then
	run_c2c 1 "$TMP/out" "$TMP/err" diff --format json --fail-on moved -C sample "$TMP/v1.o" "$TMP/v2.o"
	expect_eq "json" "sample changed 128 128 removed:e,moved:c,moved:b,moved:d,added:f moved" \
		"$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
s = d["structs"][0]
print(s["name"], s["status"], s["old"]["size"], s["new"]["size"],
      ",".join(m["change"] + ":" + m["name"] for m in s["members"]), ",".join(s["fail_on"]))' "$TMP/out")"
fi
finish
