#!/bin/bash
# Determinism on a real workload that does not read the clock: the
# pigz-like compressor (bench/pigz_like.c: two zlib workers taking blocks
# under a mutex, an in-order writer waiting on a condition variable) gives
# byte-identical reports in two same-seed runs, with no real-time fallback,
# and its output is the same as natively.
source "$TOP_SRCDIR/tests/lib.sh"
source "$TOP_SRCDIR/tests/sim/common.sh"
sim_require
[ -f /usr/include/zlib.h ] || skip "zlib1g-dev not installed"
compile "$TMP/pigz" "$TOP_SRCDIR/bench/pigz_like.c" -O2 -g -pthread -lz || finish
while [ "$(stat -c %s "$TMP/text" 2>/dev/null || echo 0)" -lt 524288 ]; do
	cat "$TOP_SRCDIR"/src/sim/*.c "$TOP_SRCDIR"/doc/*.1 >>"$TMP/text"
done
"$TMP/pigz" -p 2 -b 64 "$TMP/text" >"$TMP/native.z"

for i in 1 2; do
	run_c2c 0 "$TMP/out$i.z" "$TMP/rec$i.err" record --sim -o "$TMP/p$i.data" -- \
		"$TMP/pigz" -p 2 -b 64 "$TMP/text"
	run_c2c 0 "$TMP/rep$i.txt" "$TMP/rep$i.err" report -i "$TMP/p$i.data" --stdio
done
if cmp -s "$TMP/native.z" "$TMP/out1.z"; then ok; else fail "output under --sim differs from native"; fi
no_fallback "pigz-like" "$TMP/rec1.err" "$TMP/rec2.err"
h=$(summary_hitms "$TMP/rec1.err")
[ -n "$h" ] && [ "$h" -gt 0 ] && ok || fail "pigz-like: no HITMs (the job counter and the hand-offs)"
if cmp -s "$TMP/rep1.txt" "$TMP/rep2.txt"; then ok; else fail "two same-seed runs: reports differ: $(diff "$TMP/rep1.txt" "$TMP/rep2.txt" | head -5)"; fi
finish
