#!/usr/bin/env bash
# What a HITM is, decided once: the report's sampling note (the periods of
# the HITMs and store misses) counts a HITM by the rules its tables count
# with. The mix's L2+HITM loads are an L2 hit to perf 6.1 (the default) and
# a local HITM to newer perf (--rules modern); gen_c2c_data -L gives them a
# period of their own, so the note shows which way they were counted.
source "$TOP_SRCDIR/tests/lib.sh"
GEN="$TOP_BUILDDIR/tests/c2c/gen_c2c_data"

"$GEN" -n 20000 -L 7 "$TMP/l2.data" >/dev/null 2>&1 || fail "gen_c2c_data -L 7"
run_c2c 0 "$TMP/61.txt" "$TMP/61.err" report -i "$TMP/l2.data" --stdio
expect_contains "perf 6.1: L2+HITM is no HITM, one period" \
	"HITMs and store misses sampled    : 1 in 4000 (period 4000)" "$TMP/61.txt"
run_c2c 0 "$TMP/mod.txt" "$TMP/mod.err" report -i "$TMP/l2.data" --stdio --rules modern
expect_contains "modern: L2+HITM is a HITM, its period counts" \
	"HITMs and store misses sampled    : periods 7 to 4000" "$TMP/mod.txt"
# the tables agree: perf 6.1 counts no more local HITMs than its L3+HITMs
lcl() { sed -n 's/^ *Load Local HITM *: *\([0-9]*\).*/\1/p' "$1" | head -1; }
[ "$(lcl "$TMP/61.txt")" -lt "$(lcl "$TMP/mod.txt")" ] && ok ||
	fail "Load Local HITM: perf 6.1 $(lcl "$TMP/61.txt"), modern $(lcl "$TMP/mod.txt")"
finish
