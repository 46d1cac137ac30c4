#!/bin/bash
# c2cscope record: options, errors, and the no-PMU message.
source "$TOP_SRCDIR/tests/lib.sh"

run_c2c 0 "$TMP/out" "$TMP/err" record --help
expect_contains "help" "--sim-cpus" "$TMP/out"

run_c2c 2 "$TMP/out" "$TMP/err" record --sim
expect_contains "no command" "no command to run" "$TMP/err"
run_c2c 2 "$TMP/out" "$TMP/err" record --sim --line-size 100 -- true
expect_contains "line size" "--line-size expects 64 or 128, not '100'" "$TMP/err"
run_c2c 2 "$TMP/out" "$TMP/err" record --sim --cacheline-size 96 -- true
expect_contains "line size, as other commands spell it" "--cacheline-size expects 64 or 128, not '96'" \
	"$TMP/err"
run_c2c 2 "$TMP/out" "$TMP/err" record --sim --sim-cpus 0 -- true
expect_contains "cpus" "--sim-cpus expects a number from 1 to 64, not '0'" "$TMP/err"
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

# An existing output is replaced by a new file (the old one's pages are
# freed on a thread of its own); a symbolic link is followed and a file
# with other links is rewritten in place, so every name sees the new data.
if [ -x "${C2CSIM_LIB:-}/c2csim-amd64-linux" ] && command -v valgrind >/dev/null; then
	prog="$TOP_BUILDDIR/samples/false-sharing/adjacent"
	run_c2c 0 "$TMP/out" "$TMP/err" record --sim -o "$TMP/r.data" -- "$prog" 1000
	exec 7<"$TMP/r.data" # a reader of the old file keeps what it opened
	old_head=$(head -c 4096 "$TMP/r.data" | md5sum)
	run_c2c 0 "$TMP/out" "$TMP/err" record --sim -o "$TMP/r.data" -- "$prog" 2000
	[ "$(head -c 4096 <&7 | md5sum)" = "$old_head" ] && ok ||
		fail "the old file was rewritten under an open reader"
	exec 7<&-
	run_c2c 0 "$TMP/out" "$TMP/err" report --stdio -i "$TMP/r.data"
	expect_contains "replaced file reads" "Shared Data Cache Line Table" "$TMP/out"
	ln -s r.data "$TMP/link.data"
	run_c2c 0 "$TMP/out" "$TMP/err" record --sim -o "$TMP/link.data" -- "$prog" 1000
	[ -L "$TMP/link.data" ] && ok || fail "the symbolic link was replaced"
	run_c2c 0 "$TMP/out" "$TMP/err" report --stdio -i "$TMP/r.data"
	expect_contains "through the link" "Shared Data Cache Line Table" "$TMP/out"
	ln "$TMP/r.data" "$TMP/hard.data"
	run_c2c 0 "$TMP/out" "$TMP/err" record --sim -o "$TMP/r.data" -- "$prog" 3000
	cmp -s "$TMP/r.data" "$TMP/hard.data" && ok || fail "a hard link kept the old data"
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
