#!/bin/bash
# Per-thread argument array (4 threads): neighbours share lines, so HITMs
# land on the array; padded to 128 bytes, none. Each thread initialises its
# own element and returns its count, so nothing on the array is handed from
# one thread to another on purpose: every HITM there is false sharing. The
# true-sharing counter keeps its HITMs whether padded or not.
source "$TOP_SRCDIR/tests/lib.sh"
source "$TOP_SRCDIR/tests/sim/common.sh"
sim_require
perf_require
N=3000

# array_hitms DATA STDOUT [SYMBOL]: HITMs on the array's lines (from
# SYMBOL's code when given)
array_hitms() {
	local base size i total=0 seen=""
	base=$(printed array "$2")
	size=$(sed -n 's/.*size=\([0-9]*\).*/\1/p' "$2")
	for i in 0 1 2 3; do
		l=$(line_of "$base" $((i * size)))
		case " $seen " in *" $l "*) continue ;; esac
		seen="$seen $l"
		total=$((total + $(hitms_on "$1" "$l" ${3:-})))
	done
	echo $total
}

sim_record "$TMP/a.data" "$TMP/a.err" -- "$SAMPLES/args" $N
expect_contains "args output" "total=$((4 * N)) size=24" "$TMP/stdout"
n=$(array_hitms "$TMP/a.data" "$TMP/stdout" work)
[ "$n" -ge $N ] && ok || fail "args: the threads' HITMs on the array: $n < $N"

sim_record "$TMP/p.data" "$TMP/p.err" -- "$SAMPLES/args_padded" $N
expect_contains "args_padded output" "total=$((4 * N)) size=128" "$TMP/stdout"
expect_eq "padded args: the threads' HITMs on the array" 0 \
	"$(array_hitms "$TMP/p.data" "$TMP/stdout" work)"
# Nothing else either: free() is c2csim's (it replaces the allocator), so
# glibc's tcache check no longer reads the first element after worker 0.
expect_eq "padded args: HITMs on the array" 0 "$(array_hitms "$TMP/p.data" "$TMP/stdout")"

for v in truecount truecount_padded; do
	sim_record "$TMP/$v.data" "$TMP/$v.err" -- "$SAMPLES/$v" $N
	n=$(hitms_on "$TMP/$v.data" "$(line_of "$(printed '&hits' "$TMP/stdout")")")
	[ "$n" -ge $N ] && ok || fail "$v: HITMs on the counter: $n < $N"
done
finish
