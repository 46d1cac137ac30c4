#!/usr/bin/env bash
# On a machine without a memory-sampling PMU (this project's VMs), record
# without -e says so, points to --sim and --list, exits 2 and leaves no
# file; a hardware event the VM lacks is refused the same way.
. "$TOP_SRCDIR/tests/lib.sh"
. "$TOP_SRCDIR/tests/record/common.sh"

"$C2CSCOPE" record --list >"$TMP/list" 2>&1
if grep -q "^Default memory events (ldlat" "$TMP/list"; then
	skip "this machine has a memory-sampling PMU: $(sed -n 2p "$TMP/list")"
fi
cd "$TMP" || exit 99
run_c2c 2 "$TMP/out" "$TMP/err" record -- true
expect_contains "cause" "no memory-sampling PMU" "$TMP/err"
expect_contains "fix" "use --sim" "$TMP/err"
expect_contains "list" "--list" "$TMP/err"
expect_eq "no perf.data left" "no" "$([ -e perf.data ] && echo yes || echo no)"
expect_contains "--list says why" "Default memory events: none:" "$TMP/list"

if "$C2CSCOPE" record -e cycles -c 100000 -o "$TMP/cyc.data" -- true >"$TMP/c.out" 2>"$TMP/c.err"; then
	echo "cycles opens here: skipping the missing-counter check" >&2
else
	expect_contains "hardware event refused" "not supported on this CPU or VM" "$TMP/c.err"
	expect_eq "no file for the refused event" "no" "$([ -e "$TMP/cyc.data" ] && echo yes || echo no)"
fi
finish
