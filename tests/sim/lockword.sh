#!/bin/bash
# Lock word beside read-mostly fields, writers pinned to node 0 and readers
# to node 1 with sched_setaffinity: the readers' HITMs are remote, and the
# padded build takes them away.
source "$TOP_SRCDIR/tests/lib.sh"
source "$TOP_SRCDIR/tests/sim/common.sh"
sim_require
perf_require
N=2000

sim_record "$TMP/l.data" "$TMP/l.err" --sim-cpus 4 --sim-nodes 2 -- "$SAMPLES/lockword" $N
expect_contains "output" "updates=$((2 * N))" "$TMP/stdout"
perf script -i "$TMP/l.data" -F cpu,ip,sym,data_src 2>/dev/null |
	awk '$NF == "reader" && /HitM/ { print $1 }' | sort -u >"$TMP/l.readers"
expect_eq "readers run on cpus 1 and 3 (pinned)" "[001] [003]" "$(echo $(cat "$TMP/l.readers"))"
read -r lcl rmt <<<"$(c2c_hitm "$TMP/l.data")"
[ "$rmt" -gt 0 ] && ok || fail "no remote HITMs with readers on the other node"

sim_record "$TMP/p.data" "$TMP/p.err" --sim-cpus 4 --sim-nodes 2 -- \
	"$SAMPLES/lockword_padded" $N
lock=$(line_of "$(printed '&lock' "$TMP/stdout")")
limit=$(line_of "$(printed '&limit' "$TMP/stdout")")
[ "$lock" != "$limit" ] && ok || fail "padded: lock and limit share a line"
expect_eq "padded: readers' HITMs on their line" 0 "$(hitms_on "$TMP/p.data" "$limit" reader)"
finish
