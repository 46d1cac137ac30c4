#!/bin/bash
# Same program, same seed: identical reports. A crashing program and one
# stopped with SIGINT leave valid files, and their status passes through.
source "$TOP_SRCDIR/tests/lib.sh"
source "$TOP_SRCDIR/tests/sim/common.sh"
sim_require
perf_require

for i in 1 2; do
	sim_record "$TMP/$i.data" "$TMP/$i.err" --seed 7 --sample-rate 50 -- \
		"$SAMPLES/adjacent" 3000
	perf c2c report -i "$TMP/$i.data" --stdio >"$TMP/$i.txt" 2>&1
done
# What the report says about contention must not change: the same hot
# offsets and instructions (Pareto rows with >= 1% of the HITMs), and HITM
# totals within 0.5%. Whole reports are usually byte-identical; on a
# loaded machine, glibc's thread start/exit paths (which follow Valgrind's
# real order) can shift the interleaving by a few accesses. With plain
# (non-atomic) increments such a shift can even move a thread's HITM from
# its counter to the loop bound on the same line, so the atomic build is
# the one pinned here.
hot_rows() {
	sed -n '/Shared Cache Line Distribution Pareto/,$p' "$1" |
		awk '$1 ~ /%$/ && ($1 + 0) + ($2 + 0) >= 1 { print $6, $9, $(NF - 1) }' | sort
}
hot_rows "$TMP/1.txt" >"$TMP/1.rows"
hot_rows "$TMP/2.txt" >"$TMP/2.rows"
[ -s "$TMP/1.rows" ] && ok || fail "no hot Pareto rows in the report"
if cmp -s "$TMP/1.rows" "$TMP/2.rows"; then ok; else
	fail "hot offsets/instructions of two runs with seed 7 differ"
	diff "$TMP/1.rows" "$TMP/2.rows" | head >&2
fi
h1=$(summary_hitms "$TMP/1.err")
h2=$(summary_hitms "$TMP/2.err")
d=$((h1 > h2 ? h1 - h2 : h2 - h1))
[ $((d * 200)) -le "$h1" ] && ok || fail "HITM totals of two runs differ by more than 0.5%: $h1 $h2"
cmp -s "$TMP/1.txt" "$TMP/2.txt" && echo "reports byte-identical" ||
	echo "note: reports differ in detail (HITMs $h1 vs $h2)"
expect_contains "report has the line table" "Shared Data Cache Line Table" "$TMP/1.txt"

# A program killed by SIGSEGV: exit 139, a valid file.
cat >"$TMP/crash.c" <<'C'
#include <stdio.h>
int main(void) { volatile int *p = 0; puts("before"); fflush(stdout); return *p; }
C
compile "$TMP/crash" "$TMP/crash.c" -g
run_c2c 139 "$TMP/out" "$TMP/err" record --sim -o "$TMP/crash.data" -- "$TMP/crash"
expect_contains "crash output" "before" "$TMP/out"
expect_contains "summary after a crash" "written to $TMP/crash.data" "$TMP/err"
perf script -i "$TMP/crash.data" >/dev/null 2>&1 && ok || fail "crash.data unreadable"

# Ctrl-C: SIGINT stops the program; the file is still valid.
"$C2CSCOPE" record --sim -o "$TMP/int.data" -- "$SAMPLES/adjacent" 100000000 \
	>"$TMP/int.out" 2>"$TMP/int.err" &
pid=$!
sleep 4
kill -INT $pid
wait $pid
expect_eq "exit status after SIGINT" 130 "$?"
expect_contains "summary after SIGINT" "written to $TMP/int.data" "$TMP/int.err"
perf c2c report -i "$TMP/int.data" --stdio >"$TMP/int.txt" 2>&1 && ok ||
	fail "int.data unreadable by perf c2c report"
finish
