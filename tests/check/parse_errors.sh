#!/usr/bin/env bash
# Rule files with mistakes: exit 2 and FILE:LINE:COL: what was expected.
source "$TOP_SRCDIR/tests/lib.sh"

printf 'struct x { size <= 8 }\n' >"$TMP/x.c.rules"
echo 'struct x { long a; } x;' >"$TMP/x.c"
compile "$TMP/x.o" "$TMP/x.c" -g -c || finish

n=0
while IFS='|' read -r text msg; do
	n=$((n + 1))
	printf '%b' "$text" >"$TMP/e$n.rules"
	run_c2c 2 "$TMP/out" "$TMP/err" check --rules "$TMP/e$n.rules" "$TMP/x.o"
	expect_eq "case $n" "c2c $TMP/e$n.rules:$msg" "c2c $(sed 's/^c2cscope check: //' "$TMP/err")"
done <<'X'
# hello\nstruct x {\n  apart a b\n}\n|3:11: expected ':', found 'b'
struct x {\n  size < 4\n}\n|2:8: expected '<=' or '==', found '<'
struct x {\n  offset a = 4\n}\n|2:12: expected '==', found '='
struct x {\n  isolated 3a\n}\n|2:12: expected a number, found '3a'
struct x {\n  group g fits 0 lines\n}\n|2:16: expected a positive number, found '0'
struct x {\n  together a,\n}\n|2:14: expected a member name, found end of line
struct x {\n  holes <= 1\n|3:1: expected '}', found end of file
strukt x {}\n|1:1: expected 'struct', 'union' or 'include', found 'strukt'
X

# includes are relative to the including file; errors in them name them
mkdir -p "$TMP/sub"
printf 'include "sub/inc.rules"\n' >"$TMP/top.rules"
printf '\nstruct x {\n  size <= eight\n}\n' >"$TMP/sub/inc.rules"
run_c2c 2 "$TMP/out" "$TMP/err" check --rules "$TMP/top.rules" "$TMP/x.o"
expect_contains "include error" "$TMP/sub/inc.rules:3:11: expected a number, found 'eight'" "$TMP/err"
printf 'include "sub/inc2.rules"\n' >"$TMP/top.rules"
printf 'struct x { size <= 8 }\n' >"$TMP/sub/inc2.rules"
run_c2c 0 "$TMP/out" "$TMP/err" check --rules "$TMP/top.rules" "$TMP/x.o"
run_c2c 2 "$TMP/out" "$TMP/err" check --rules "$TMP/missing.rules" "$TMP/x.o"
expect_contains "missing file" "$TMP/missing.rules: No such file or directory" "$TMP/err"
run_c2c 2 "$TMP/out" "$TMP/err" check "$TMP/x.o"
expect_contains "no rules" "nothing to check: give --rules FILE or --kernel-groups" "$TMP/err"
run_c2c 2 "$TMP/out" "$TMP/err" check --rules "$TMP/x.c.rules" "$TMP/nothere.o"
expect_contains "missing target" "nothere.o" "$TMP/err"
finish
