#!/bin/bash
# Same program, same seed: identical reports. A crashing program and one
# stopped with SIGINT leave valid files, and their status passes through.
source "$TOP_SRCDIR/tests/lib.sh"
source "$TOP_SRCDIR/tests/sim/common.sh"
sim_require
perf_require

for i in 1 2; do
	sim_record "$TMP/$i.data" "$TMP/$i.err" --seed 7 --sample-rate 50 -- \
		"$SAMPLES/adjacent" 3000 plain
	perf c2c report -i "$TMP/$i.data" --stdio >"$TMP/$i.txt" 2>&1
done
# The HITM story (totals, line table, per-offset Pareto) must be identical.
# Whole reports usually are too; thread exit paths in glibc may take a few
# more or fewer sampled non-HITM accesses when the real scheduler differs.
hitm_part() {
	grep -E 'HITM  *:' "$1"
	sed -n '/Shared Data Cache Line Table/,$p' "$1"
}
if cmp -s <(hitm_part "$TMP/1.txt") <(hitm_part "$TMP/2.txt"); then ok; else
	fail "HITM parts of two reports with seed 7 differ"
	diff <(hitm_part "$TMP/1.txt") <(hitm_part "$TMP/2.txt") | head -20 >&2
fi
cmp -s "$TMP/1.txt" "$TMP/2.txt" || echo "note: whole reports differ outside the HITM part"
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
