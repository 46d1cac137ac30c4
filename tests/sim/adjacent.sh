#!/bin/bash
# Adjacent counters: N atomic increments per thread give at least N HITMs
# on the struct's line; the padded build none on the counters' lines; and
# perf c2c report counts the same HITMs as our summary.
source "$TOP_SRCDIR/tests/lib.sh"
source "$TOP_SRCDIR/tests/sim/common.sh"
sim_require
perf_require
N=5000

sim_record "$TMP/a.data" "$TMP/a.err" -- "$SAMPLES/adjacent" $N
expect_contains "program output passes through" "a=$N b=$N" "$TMP/stdout"
a=$(printed '&a' "$TMP/stdout")
b=$(printed '&b' "$TMP/stdout")
expect_eq "counters share a line" "$(line_of "$a")" "$(line_of "$b")"
n=$(hitms_on "$TMP/a.data" "$(line_of "$a")")
[ "$n" -ge $N ] && ok || fail "HITMs on the counters' line: $n < $N"

ours=$(summary_hitms "$TMP/a.err")
read -r lcl rmt <<<"$(c2c_hitm "$TMP/a.data")"
expect_eq "perf c2c report HITMs = ours" "$ours" "$((lcl + rmt))"
# the recorder writes records in time order: one reading pass, no warning
run_c2c 0 "$TMP/r.txt" "$TMP/r.err" report -i "$TMP/a.data" --stdio --no-attrib
expect_eq "report of a simulated file: nothing on stderr" "" "$(cat "$TMP/r.err")"

sim_record "$TMP/p.data" "$TMP/p.err" -- "$SAMPLES/adjacent_padded" $N
a=$(printed '&a' "$TMP/stdout")
b=$(printed '&b' "$TMP/stdout")
[ "$(line_of "$a")" != "$(line_of "$b")" ] && ok || fail "padded counters share a line"
# main's final read of the counters is a real hand-off: count the threads'.
expect_eq "bump's HITMs on padded a's line" 0 "$(hitms_on "$TMP/p.data" "$(line_of "$a")" bump)"
expect_eq "bump's HITMs on padded b's line" 0 "$(hitms_on "$TMP/p.data" "$(line_of "$b")" bump)"
ours=$(summary_hitms "$TMP/p.err")
read -r lcl rmt <<<"$(c2c_hitm "$TMP/p.data")"
expect_eq "padded: perf c2c report HITMs = ours" "$ours" "$((lcl + rmt))"
finish
