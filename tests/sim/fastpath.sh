#!/bin/bash
# The fast path (lines only one thread has touched are counted at push time,
# not merged) changes no HITM: on the false-sharing samples the HITMs
# (local, remote) and the HITM samples per line are the same with
# --sim-fast=no (every access merged). (The event totals differ by a few
# dozen: VALGRIND_OPTS moves the program's environment and stack.)
source "$TOP_SRCDIR/tests/lib.sh"
source "$TOP_SRCDIR/tests/sim/common.sh"
sim_require
perf_require

# totals ERRFILE: "HITMS LOCAL REMOTE" of record's summary line
totals() {
	sed -n 's/.* simulated, \([0-9]*\) HITMs (\([0-9]*\) local, \([0-9]*\) remote).*/\1 \2 \3/p' "$1"
}

for run in "args 20000" "lockword 2000" "truecount 20000" "adjacent 20000 plain"; do
	set -- $run
	name=$1
	sim_record "$TMP/f.data" "$TMP/f.err" --sim-cpus 4 --sim-nodes 2 -- "$SAMPLES/$@"
	VALGRIND_OPTS=--sim-fast=no sim_record "$TMP/n.data" "$TMP/n.err" --sim-cpus 4 \
		--sim-nodes 2 -- "$SAMPLES/$@"
	t=$(totals "$TMP/f.err")
	[ -n "$t" ] && ok || fail "$name: no summary line"
	expect_eq "$name: HITMs, fast path vs none" "$(totals "$TMP/n.err")" "$t"
	expect_eq "$name: HITM lines, fast path vs none" "$(hitm_lines "$TMP/n.data")" \
		"$(hitm_lines "$TMP/f.data")"
done
finish
