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

# A thread that crashes, and one that calls exit(), while the other threads
# run: the threads waiting for their turn must leave at once (they waited
# 60 s for a token nobody would give, and a crash could end in a Valgrind
# assertion); the status passes through and the file is valid.
cat >"$TMP/mt.c" <<'C'
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
static volatile long counters[4];
static int how;
static void *work(void *arg)
{
	long i, id = (long)arg;

	for (i = 0; i < 20000000; i++) {
		counters[id]++;
		if (id == 2 && i == 200000) {
			if (how)
				exit(3);
			*(volatile int *)0 = 1;
		}
	}
	return NULL;
}
int main(int argc, char **argv)
{
	pthread_t t[4];
	long i;

	how = argc > 1;
	for (i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, work, (void *)i);
	for (i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	return 0;
}
C
compile "$TMP/mt" "$TMP/mt.c" -g -O1 -pthread
# Valgrind's own last step after a fatal signal (kill_self: the signal
# sent again with its default action) sometimes does not kill the process
# and Valgrind panics "main(): signal was supposed to be fatal" (exit 1):
# 4 of 48 runs under record --sim on a loaded 2-cpu VM, none of 84 of the
# tool run alone, whatever the load; the cause is not pinned down (see
# c2cscope-record(1), BUGS). The crash is run up to 3 times for one run
# without it; every other check holds for that run.
sim_crash_run() { # record the program (exit status in rc); 0 when Valgrind did not panic
	"$C2CSCOPE" record --sim -o "$TMP/mt.data" -- "$TMP/mt" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	no_sanitizer_report "$TMP/err" "record of a crashing thread"
	! grep -q "main(): signal was supposed to be fatal" "$TMP/err"
}
for how in crash exit; do
	[ $how = crash ] && want=139 args=() || want=3 args=(exit)
	start=$(date +%s)
	tries=1
	if [ $how = crash ]; then
		until sim_crash_run || [ $tries -ge 3 ]; do
			tries=$((tries + 1))
			start=$(date +%s)
		done
		expect_eq "a thread's crash: exit status (try $tries)" $want "$rc"
	else
		run_c2c $want "$TMP/out" "$TMP/err" record --sim -o "$TMP/mt.data" -- "$TMP/mt" "${args[@]}"
	fi
	took=$(($(date +%s) - start))
	[ $took -lt 30 ] && ok || fail "a thread's $how: record took $took s"
	expect_not_contains "no Valgrind panic ($how)" "valgrind: " "$TMP/err"
	expect_contains "summary after a thread's $how" "written to $TMP/mt.data" "$TMP/err"
	perf script -i "$TMP/mt.data" >/dev/null 2>&1 && ok || fail "mt.data unreadable ($how)"
done

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
