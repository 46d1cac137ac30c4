#!/bin/bash
# Same program, same seed: identical reports. A crashing program and one
# stopped with SIGINT leave valid files, and their status passes through.
source "$TOP_SRCDIR/tests/lib.sh"
source "$TOP_SRCDIR/tests/sim/common.sh"
sim_require
perf_require

# Each false-sharing sample, twice with seed 7: `c2cscope report --stdio`
# must be byte-identical. The tool runs only the thread with the least
# virtual clock and wakes blocked threads at their waker's clock, so the
# interleaving does not depend on Valgrind's real scheduling or the load.
same_report() { # NAME [record options] -- CMD...
	local name=$1 i
	shift
	for i in 1 2; do
		sim_record "$TMP/$name.$i.data" "$TMP/$name.$i.err" --seed 7 --sample-rate 50 "$@"
		run_c2c 0 "$TMP/$name.$i.txt" "$TMP/$name.$i.rerr" report -i "$TMP/$name.$i.data" --stdio
	done
	if cmp -s "$TMP/$name.1.txt" "$TMP/$name.2.txt"; then ok; else
		fail "$name: two runs with seed 7 give different reports"
		diff "$TMP/$name.1.txt" "$TMP/$name.2.txt" | head >&2
	fi
	expect_eq "$name: same summary" "$(summary_hitms "$TMP/$name.1.err")" \
		"$(summary_hitms "$TMP/$name.2.err")"
	# These programs only join and exit: the model covers every wait, so
	# real time must never decide (it once did under load, when threads
	# waiting for the token starved the holder of Valgrind's lock).
	no_fallback "$name" "$TMP/$name.1.err" "$TMP/$name.2.err"
}
N=1000
for p in adjacent adjacent_padded args args_padded truecount truecount_padded; do
	same_report $p -- "$SAMPLES/$p" $N
done
same_report adjacent_plain -- "$SAMPLES/adjacent" $N plain
for p in lockword lockword_padded; do
	same_report $p --sim-cpus 4 --sim-nodes 2 -- "$SAMPLES/$p" $N
done
# The seed matters: another seed samples other accesses.
sim_record "$TMP/seed8.data" "$TMP/seed8.err" --seed 8 --sample-rate 50 -- "$SAMPLES/args" $N
run_c2c 0 "$TMP/seed8.txt" "$TMP/seed8.rerr" report -i "$TMP/seed8.data" --stdio
cmp -s "$TMP/args.1.txt" "$TMP/seed8.txt" && fail "seeds 7 and 8 give the same report" || ok
expect_contains "report has the line table" "Shared Data Cache Line Table" "$TMP/args.1.txt"

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
