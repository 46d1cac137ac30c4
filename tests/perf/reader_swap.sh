#!/usr/bin/env bash
# A file in the other byte order (as a big-endian machine writes it) reads
# exactly like the original: samples (with callchains and raw data), side
# records, attrs and features. perf itself agrees.
source "$TOP_SRCDIR/tests/lib.sh"
GEN="$TOP_BUILDDIR/tests/perf/perf_gen"
DUMP="$TOP_BUILDDIR/tests/perf/perf_dump"
SWAP="$TOP_BUILDDIR/tests/perf/perf_swap"

"$GEN" -n 40 -g -r "$TMP/le.data" || fail "perf_gen"
"$SWAP" "$TMP/le.data" "$TMP/be.data" || fail "perf_swap"
expect_eq "magic swapped" "2ELIFREP" "$(head -c 8 "$TMP/be.data")"
F=pid,tid,cpu,time,period,event,addr,data_src,weight,ip,phys_addr
"$DUMP" -F $F "$TMP/le.data" >"$TMP/le.out"
"$DUMP" -F $F "$TMP/be.data" >"$TMP/be.out" 2>"$TMP/be.err"
expect_eq "samples" "" "$(diff "$TMP/le.out" "$TMP/be.out" | head -5)"
expect_eq "sample count" 40 "$(wc -l <"$TMP/be.out")"
expect_eq "no warnings" "" "$(cat "$TMP/be.err")"
expect_contains "callchain entries" "401000 402000" "$TMP/be.out"
"$DUMP" -s "$TMP/le.data" >"$TMP/le.side"
"$DUMP" -s "$TMP/be.data" >"$TMP/be.side"
expect_eq "side records" "" "$(diff "$TMP/le.side" "$TMP/be.side" | head -5)"
# (perf_swap drops BUILD_ID and MEM_TOPOLOGY)
"$DUMP" -H "$TMP/le.data" | grep -v -e needs_swap -e '^build id' -e '^memory' >"$TMP/le.hdr"
"$DUMP" -H "$TMP/be.data" | grep -v -e needs_swap >"$TMP/be.hdr"
expect_eq "header and attrs" "" "$(diff "$TMP/le.hdr" "$TMP/be.hdr" | head -5)"
expect_contains "needs_swap" "needs_swap: 1" <("$DUMP" -H "$TMP/be.data")

if command -v perf >/dev/null; then
	perf script -i "$TMP/le.data" -F $F >"$TMP/le.perf" 2>/dev/null
	perf script -i "$TMP/be.data" -F $F >"$TMP/be.perf" 2>/dev/null
	expect_eq "perf script reads it the same" "" "$(diff "$TMP/le.perf" "$TMP/be.perf" | head -5)"
	expect_eq "perf script lines (sample, 2 frames, blank)" 160 "$(wc -l <"$TMP/be.perf")"
fi

# READ (group), BRANCH_STACK with hw_idx, REGS_USER, STACK_USER, REGS_INTR
"$GEN" -n 20 -R -B -u -I "$TMP/xle.data" || fail "perf_gen -R -B -u -I"
"$SWAP" "$TMP/xle.data" "$TMP/xbe.data" || fail "perf_swap (extra fields)"
X=pid,time,ip,iregs,uregs,brstack,read,ustack,phys_addr
"$DUMP" -F $X "$TMP/xle.data" >"$TMP/xle.out"
"$DUMP" -F $X "$TMP/xbe.data" >"$TMP/xbe.out" 2>"$TMP/xbe.err"
expect_eq "extra fields swapped" "" "$(diff "$TMP/xle.out" "$TMP/xbe.out" | head -5)"
expect_eq "extra fields: no warnings" "" "$(cat "$TMP/xbe.err")"
# sample 3: READ enabled 3007, running 2705, values 13 and 23
expect_contains "extra fields read" \
	"0x401031/0x402031/P/-/-/4/ enabled=0xbbf running=0xa91 0x3e8:0xd 0x3e9:0x17 ustack=64/48/03" \
	"$TMP/xbe.out"
finish
