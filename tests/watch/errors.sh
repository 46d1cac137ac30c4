#!/usr/bin/env bash
# What watch refuses, and how it says so: more fields than debug
# registers (the limit named), a field or variable not in the DWARF (did
# you mean), bad ADDR/LEN, no target, bad options. Exit 2 each time.
source "$TOP_SRCDIR/tests/lib.sh"
source "$TOP_SRCDIR/tests/watch/watch_lib.sh"

run_c2c 2 "$TMP/out" "$TMP/err" watch -e counters.a -e counters.b -e counters.other \
	-e 0x1000/8 -e 0x2000/8 -- "$shared" 1
expect_contains "the limit" "5 fields need 5 breakpoints; this cpu has 4 debug registers" \
	"$TMP/err"
run_c2c 2 "$TMP/out" "$TMP/err" watch -e counters.c -- "$shared" 1
expect_contains "no such field" "struct pair has no field 'c'; did you mean 'a'?" "$TMP/err"
run_c2c 2 "$TMP/out" "$TMP/err" watch -e countrs.a -- "$shared" 1
expect_contains "no such variable" "no variable 'countrs'" "$TMP/err"
expect_contains "did you mean the variable" "did you mean 'counters'?" "$TMP/err"
run_c2c 2 "$TMP/out" "$TMP/err" watch -e 'pairs.a@0x1000' -- "$shared" 1
expect_contains "no such type" "no struct or union pairs; did you mean pair?" "$TMP/err"
run_c2c 2 "$TMP/out" "$TMP/err" watch -e 0x1000/16 -- "$shared" 1
expect_contains "ADDR/LEN" "LEN must be 1 to 8 bytes" "$TMP/err"
run_c2c 2 "$TMP/out" "$TMP/err" watch -e counters.a
expect_contains "no target" "nothing to watch: -p PID or -- CMD [ARGS]" "$TMP/err"
run_c2c 2 "$TMP/out" "$TMP/err" watch -e counters.a --duration soon -- "$shared" 1
expect_contains "duration" "--duration expects seconds" "$TMP/err"
run_c2c 2 "$TMP/out" "$TMP/err" watch -e counters.a -- "$TMP/no-such-program"
expect_contains "no program" "No such file or directory" "$TMP/err"
run_c2c 0 "$TMP/out" "$TMP/err" watch --help
expect_contains "help" "TYPE.field@ADDR" "$TMP/out"
finish
