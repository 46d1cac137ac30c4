#!/usr/bin/env bash
# SIGINT mid-run ends a system-wide recording with exit 0 and a file that
# perf script and c2cscope read; SIGTERM ends a -- CMD recording the same
# way (the command is stopped, its status passed through).
. "$TOP_SRCDIR/tests/lib.sh"
. "$TOP_SRCDIR/tests/record/common.sh"
perf_require
record_require
system_wide_require

# recording FILE: until FILE grows after its first write (the metadata):
# rings are being drained; a fixed sleep lost that race at load 17
recording() {
	local i s s0=
	for i in $(seq 300); do
		sleep 0.1
		s=$(stat -c %s "$1" 2>/dev/null) || continue
		[ -n "$s0" ] || { s0=$s; continue; }
		[ "$s" -gt "$s0" ] && { sleep 0.3; return 0; }
	done
}

"$C2CSCOPE" record -e cpu-clock -F 1000 -a -o "$TMP/a.data" >"$TMP/a.out" 2>"$TMP/a.err" &
rec=$!
recording "$TMP/a.data"
kill -INT "$rec"
wait "$rec"
expect_eq "exit after SIGINT" 0 "$?"
n=$(perf script -i "$TMP/a.data" 2>/dev/null | wc -l)
expect_eq "perf script reads the interrupted file" yes "$([ "$n" -gt 0 ] && echo yes || echo no)"
ours=$(sed -n 's/.*record: \([0-9]*\) samples written.*/\1/p' "$TMP/a.err")
expect_eq "samples printed vs perf script" "$ours" "$n"
run_c2c 0 "$TMP/rep" "$TMP/rep.err" report -i "$TMP/a.data" --stdio

"$C2CSCOPE" record -e cpu-clock -F 1000 -o "$TMP/c.data" -- sh -c 'while :; do :; done' \
	>"$TMP/c.out" 2>"$TMP/c.err" &
rec=$!
recording "$TMP/c.data"
kill -TERM "$rec"
wait "$rec"
expect_eq "exit after SIGTERM: the command's (killed by SIGTERM)" 143 "$?"
n=$(perf script -i "$TMP/c.data" 2>/dev/null | grep -c ' sh ')
expect_eq "the command's samples are there" yes "$([ "$n" -gt 0 ] && echo yes || echo no)"
finish
