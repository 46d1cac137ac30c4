#!/usr/bin/env bash
# watch --record: the hits as perf.data that perf script reads back (one
# line per hit, the breakpoint event, the function) and c2cscope report
# opens.
source "$TOP_SRCDIR/tests/lib.sh"
source "$TOP_SRCDIR/tests/watch/watch_lib.sh"
command -v perf >/dev/null || skip "perf not installed"

run_c2c 0 "$TMP/w.json" "$TMP/err" watch -e counters.a -e counters.b --format json \
	--record "$TMP/w.data" -- "$shared" 5000
perf script -i "$TMP/w.data" -F comm,tid,event,ip,sym >"$TMP/script" 2>"$TMP/perr"
expect_eq "perf script exit" 0 $?
expect_eq "one line per hit" 10000 "$(wc -l <"$TMP/script")"
expect_eq "a's breakpoint event" 5000 \
	"$(grep -c "mem:$(field "$TMP/w.json" counters.a bp_address)/8:rw" \
		"$TMP/script")"
expect_eq "writes of a in write_a" 5000 "$(grep -c ' write_a' "$TMP/script")"
expect_contains "the command's name" "pair" "$TMP/script"
run_c2c 0 "$TMP/report" "$TMP/err" report --stdio -i "$TMP/w.data"
expect_contains "c2cscope report reads it" "Total records                     :      10000" \
	"$TMP/report"
finish
