#!/bin/bash
# c2cscope record: options, errors, and the no-PMU message.
source "$TOP_SRCDIR/tests/lib.sh"

run_c2c 0 "$TMP/out" "$TMP/err" record --help
expect_contains "help" "--sim-cpus" "$TMP/out"

run_c2c 2 "$TMP/out" "$TMP/err" record --sim
expect_contains "no command" "no command to run" "$TMP/err"
run_c2c 2 "$TMP/out" "$TMP/err" record --sim --line-size 100 -- true
expect_contains "line size" "--line-size 100: expected 64 or 128" "$TMP/err"
run_c2c 2 "$TMP/out" "$TMP/err" record --sim --sim-cpus 0 -- true
expect_contains "cpus" "--sim-cpus 0" "$TMP/err"
run_c2c 2 "$TMP/out" "$TMP/err" record --sim --sim-cpus 2 --sim-nodes 4 -- true
expect_contains "nodes" "more nodes than the 2 cpus" "$TMP/err"
run_c2c 2 "$TMP/out" "$TMP/err" record --sim --seed x -- true
expect_contains "seed" "--seed expects a number" "$TMP/err"

# An output that cannot be created: an error before the program runs.
if [ -x "${C2CSIM_LIB:-}/c2csim-amd64-linux" ] && command -v valgrind >/dev/null; then
	run_c2c 2 "$TMP/out" "$TMP/err" record --sim -o "$TMP/no/such/dir.data" -- \
		touch "$TMP/ran"
	expect_contains "output not creatable" "$TMP/no/such/dir.data: cannot create" "$TMP/err"
	[ ! -e "$TMP/ran" ] && ok || fail "the program ran although the output cannot be created"
fi

# Without --sim: this kind of machine has no memory-sampling PMU.
if [ -e /sys/bus/event_source/devices/cpu/events/mem-loads ] ||
	[ -e /sys/bus/event_source/devices/ibs_op ]; then
	echo "memory-sampling PMU present: no-PMU message not checked"
else
	run_c2c 2 "$TMP/out" "$TMP/err" record -- true
	expect_contains "no pmu" "this machine has no memory-sampling PMU" "$TMP/err"
	expect_contains "suggest" "use --sim" "$TMP/err"
	first=$(ls /sys/bus/event_source/devices | head -1)
	[ -n "$first" ] && expect_contains "pmu list" "$first" "$TMP/err"
fi
finish
