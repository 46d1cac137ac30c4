#!/bin/bash
# Per-thread argument array (4 threads): neighbours share lines, so HITMs
# land on the array; padded to 128 bytes, none. The true-sharing counter
# keeps its HITMs whether padded or not.
source "$TOP_SRCDIR/tests/lib.sh"
source "$TOP_SRCDIR/tests/sim/common.sh"
sim_require
perf_require
N=3000

# array_hitms DATA STDOUT: HITMs from work() on the array's elements' lines
# (main's reads after the joins are real hand-offs and not counted)
array_hitms() {
	local base size i total=0 seen=""
	base=$(printed array "$2")
	size=$(sed -n 's/.*size=\([0-9]*\).*/\1/p' "$2")
	for i in 0 1 2 3; do
		l=$(line_of "$base" $((i * size)))
		case " $seen " in *" $l "*) continue ;; esac
		seen="$seen $l"
		total=$((total + $(hitms_on "$1" "$l" work)))
	done
	echo $total
}

sim_record "$TMP/a.data" "$TMP/a.err" -- "$SAMPLES/args" $N
n=$(array_hitms "$TMP/a.data" "$TMP/stdout")
[ "$n" -ge $N ] && ok || fail "args: HITMs on the array: $n < $N"

sim_record "$TMP/p.data" "$TMP/p.err" -- "$SAMPLES/args_padded" $N
# Padded, no HITM between neighbours: what is left is each worker's first
# read of the element main filled in (one hand-off per thread, 4 threads).
n=$(array_hitms "$TMP/p.data" "$TMP/stdout")
[ "$n" -le 4 ] && ok || fail "padded args: $n HITMs on the array, more than the 4 hand-offs"

for v in truecount truecount_padded; do
	sim_record "$TMP/$v.data" "$TMP/$v.err" -- "$SAMPLES/$v" $N
	n=$(hitms_on "$TMP/$v.data" "$(line_of "$(printed '&hits' "$TMP/stdout")")")
	[ "$n" -ge $N ] && ok || fail "$v: HITMs on the counter: $n < $N"
done
finish
