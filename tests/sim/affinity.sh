#!/bin/bash
# Affinity: two threads restricted to one two-cpu mask land on different
# virtual cpus, whether each pins itself or inherits main's mask, so their
# adjacent counters ping-pong (HITMs); a one-cpu mask puts both on that
# cpu (no HITMs between them). A mask beyond --sim-cpus wraps modulo it.
source "$TOP_SRCDIR/tests/lib.sh"
source "$TOP_SRCDIR/tests/sim/common.sh"
sim_require
perf_require
N=3000
compile "$TMP/aff" "$TOP_SRCDIR/tests/sim/affinity.c" -O1 -g -pthread || finish

# work_hitms DATA: HITM samples of work() on the counters' line (printed by the program)
work_hitms() {
	hitms_on "$1" "$(line_of "$(printed counters "$TMP/stdout")")" work
}
# threads_per_cpu DATA: how many threads' work() accessed the counters' line on each
# cpu: "CPU:THREADS ..." (recorded with --sample-rate 1: every access is a sample)
threads_per_cpu() {
	local line
	line=$(line_of "$(printed counters "$TMP/stdout")")
	perf script -i "$1" -F tid,cpu,addr,ip,sym 2>/dev/null | python3 -c '
import sys, collections
line = int(sys.argv[1], 16)
seen = {(f[1], f[0]) for f in (l.split() for l in sys.stdin)
        if len(f) == 5 and f[4] == "work" and line <= int(f[2], 16) < line + 64}
n = collections.Counter(cpu for cpu, _ in seen)
print(" ".join("%s:%d" % (c, n[c]) for c in sorted(n)) + " ")' "$line"
}

for mode in self inherit; do
	sim_record "$TMP/$mode.data" "$TMP/$mode.err" --sim-cpus 8 --sample-rate 1 -- "$TMP/aff" 4,5 $N $mode
	expect_contains "$mode: output" "a=$N b=$N counters=" "$TMP/stdout"
	expect_eq "$mode: the two threads on cpus 4 and 5, one each" "[004]:1 [005]:1 " \
		"$(threads_per_cpu "$TMP/$mode.data")"
	h=$(work_hitms "$TMP/$mode.data")
	[ "$h" -ge $N ] && ok || fail "$mode: $h HITMs in work() < $N: the threads share a cpu"
done

# one cpu: both threads there, and no ping-pong between them
sim_record "$TMP/one.data" "$TMP/one.err" --sim-cpus 8 --sample-rate 1 -- "$TMP/aff" 6 $N self
expect_eq "one-cpu mask: both threads on cpu 6" "[006]:2 " "$(threads_per_cpu "$TMP/one.data")"
expect_eq "one-cpu mask: HITMs in work()" 0 "$(work_hitms "$TMP/one.data")"

# cpus 9,10 with --sim-cpus 8 are virtual cpus 1 and 2
sim_record "$TMP/wrap.data" "$TMP/wrap.err" --sim-cpus 8 --sample-rate 1 -- "$TMP/aff" 9,10 $N self
expect_eq "mask 9,10 wraps to cpus 1 and 2" "[001]:1 [002]:1 " "$(threads_per_cpu "$TMP/wrap.data")"
finish
