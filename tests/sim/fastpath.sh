#!/bin/bash
# The fast path (accesses to a line only one thread has touched since a
# lead window are counted at push time, not merged) changes no HITM: on the
# false-sharing samples and on the sched-core model (whose message buffers
# and task groups change hands thousands of times) the HITMs (local,
# remote) and the HITM samples per line are the same with --sim-fast=no
# (every access merged). (The event totals differ by a few dozen:
# VALGRIND_OPTS moves the program's environment and stack.)
source "$TOP_SRCDIR/tests/lib.sh"
source "$TOP_SRCDIR/tests/sim/common.sh"
sim_require
perf_require

# totals ERRFILE: "HITMS LOCAL REMOTE" of record's summary line
totals() {
	sed -n 's/.* simulated, \([0-9]*\) HITMs (\([0-9]*\) local, \([0-9]*\) remote).*/\1 \2 \3/p' "$1"
}

sched=$TOP_BUILDDIR/samples/sched-core
for run in "$SAMPLES/args 20000" "$SAMPLES/lockword 2000" "$SAMPLES/truecount 20000" \
	"$SAMPLES/adjacent 20000 plain" "$sched/sched-core-upstream" "$sched/sched-core-reordered"; do
	set -- $run
	name=${1##*/}
	sim_record "$TMP/f.data" "$TMP/f.err" --sim-cpus 4 --sim-nodes 2 -- "$@"
	VALGRIND_OPTS=--sim-fast=no sim_record "$TMP/n.data" "$TMP/n.err" --sim-cpus 4 \
		--sim-nodes 2 -- "$@"
	t=$(totals "$TMP/f.err")
	[ -n "$t" ] && ok || fail "$name: no summary line"
	expect_eq "$name: HITMs, fast path vs none" "$(totals "$TMP/n.err")" "$t"
	expect_eq "$name: HITM lines, fast path vs none" "$(hitm_lines "$TMP/n.data")" \
		"$(hitm_lines "$TMP/f.data")"
done
finish
