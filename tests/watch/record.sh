#!/usr/bin/env bash
# watch --record: the hits as perf.data that perf script reads back (one
# line per hit, the breakpoint event, the function), and that c2cscope
# report and perf c2c report read as a c2c recording: the replay's verdict
# is each sample's data source (loads = reads, stores = writes, the same
# local HITMs in both reports, every data address mapped).
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

# With a reader: loads and stores as the decoder told them, HITMs as replayed.
run_c2c 0 "$TMP/r.json" "$TMP/err" watch -e counters.a -e counters.b --format json \
	--record "$TMP/r.data" -- "$shared" 20000 read
run_c2c 0 "$TMP/report" "$TMP/err" report --stdio -i "$TMP/r.data"
stat() { awk -v k="$1" -F: '$1 ~ "^  " k " *$" { gsub(/ /, "", $2); print $2; exit }' "$2"; }
expect_eq "loads are the reads" 2000 "$(stat "Load Operations" "$TMP/report")"
expect_eq "stores are the writes" 40000 "$(stat "Store Operations" "$TMP/report")"
expect_eq "every data address mapped" 0 "$(stat "No Page Map Rejects" "$TMP/report")"
hitm=$(stat "Load Local HITM" "$TMP/report")
[ "$hitm" -le "$(json "$TMP/r.json" "d['replayed_hitm']")" ] && ok ||
	fail "load HITMs $hitm above the replay's transfers"
if perf c2c report -i "$TMP/r.data" --stdio >"$TMP/perf_c2c" 2>"$TMP/perr"; then
	expect_eq "perf c2c: the same local HITMs" "$hitm" "$(stat "Load Local HITM" "$TMP/perf_c2c")"
	expect_eq "perf c2c: the same loads" 2000 "$(stat "Load Operations" "$TMP/perf_c2c")"
fi
finish
