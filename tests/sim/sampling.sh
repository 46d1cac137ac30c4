#!/bin/bash
# Bounded files: a HITM storm recorded with a small --max-size stays under
# it, thinned 1 in N with period N (record, report and the samples' periods
# say the same N); its report names the same hot fields in the same order,
# with shares within 1 point, as an unsampled run of a smaller size and an
# unsampled run of the same size; the same hot lines too; perf c2c report
# reads the file and counts the same HITM samples as ours. --hitm-rate
# forces a rate; the same seed thins the same way.
source "$TOP_SRCDIR/tests/lib.sh"
source "$TOP_SRCDIR/tests/sim/common.sh"
sim_require
perf_require
N=80000 # ~960,000 samples unsampled: 77 MB of perf.data
MAX=16M

# fields FILE: "TYPE.FIELD SHARE" for each field over 1% of the HITMs of
# report --by-type, in the report's order
fields() {
	run_c2c 0 "$TMP/bt.txt" "$TMP/bt.err" report -i "$1" --by-type
	python3 - "$TMP/bt.txt" <<'EOF'
import sys
rows, seen = [], False
for l in open(sys.argv[1]):
    f = l.split()
    if l.startswith("  ===="):
        seen = True
        continue
    if not seen or len(f) < 4 or not f[2].isdigit():
        continue
    rows.append((f[0] + "." + f[1], int(f[2]) + int(f[3])))
tot = sum(h for _, h in rows) or 1
for name, h in rows:
    if 100.0 * h / tot > 1:
        print("%s %.2f" % (name, 100.0 * h / tot))
EOF
}

# lines FILE: "ADDRESS HITM%" of the shared data cache line table
lines() {
	run_c2c 0 "$TMP/l.txt" "$TMP/l.err" report -i "$1" --stdio --no-attrib
	sed -n '/Shared Data Cache Line Table/,/Pareto/p' "$TMP/l.txt" |
		awk '$1 ~ /^[0-9]+$/ && $2 ~ /^0x/ { print $2, $5 }'
}

# same_order_within WHAT A B: the same names in the same order, shares
# within 1 point
same_order_within() {
	local what=$1
	if python3 - "$2" "$3" <<'EOF'; then ok; else fail "$what: $(paste -d'|' "$2" "$3" | tr '\n' ' ')"; fi
import sys
a = [l.split() for l in open(sys.argv[1]) if l.strip()]
b = [l.split() for l in open(sys.argv[2]) if l.strip()]
if not a or [x[0] for x in a] != [x[0] for x in b]:
    sys.exit(1)
for x, y in zip(a, b):
    if abs(float(x[1].rstrip("%")) - float(y[1].rstrip("%"))) > 1.0:
        sys.exit(1)
EOF
}

sim_record "$TMP/s.data" "$TMP/s.err" --max-size $MAX -- "$SAMPLES/args" $N
size=$(stat -c %s "$TMP/s.data")
[ "$size" -le $((16 << 20)) ] && ok || fail "storm: $size bytes over --max-size $MAX"
rate=$(sed -n 's/.*sampled 1 in \([0-9]*\) (period.*/\1/p' "$TMP/s.err")
[ -n "$rate" ] && [ "$rate" -ge 2 ] && ok || fail "storm: record did not say it sampled: $(cat "$TMP/s.err")"
run_c2c 0 "$TMP/r.txt" "$TMP/r.err" report -i "$TMP/s.data" --stdio --no-attrib
# the same seed thins the same way: a byte-identical report
sim_record "$TMP/s2.data" "$TMP/s2.err" --max-size $MAX -- "$SAMPLES/args" $N
run_c2c 0 "$TMP/r2.txt" "$TMP/r2.err" report -i "$TMP/s2.data" --stdio --no-attrib
if cmp -s "$TMP/r.txt" "$TMP/r2.txt"; then ok; else fail "storm twice: reports differ"; fi
rm -f "$TMP/s2.data"
expect_contains "report prints the rate" "HITMs and store misses sampled    : 1 in $rate (period $rate)" "$TMP/r.txt"
# every HITM and store miss sample has period N (perf's own decoder)
periods=$(perf script -i "$TMP/s.data" -F period,data_src 2>/dev/null |
	awk '/HitM|L1 miss/ { print $1 }' | sort -u | tr '\n' ' ')
expect_eq "HITM and store-miss sample periods" "$rate " "$periods"
# and the file says it in its CPUDESC, which perf prints
perf report --header-only -i "$TMP/s.data" >"$TMP/hdr.txt" 2>/dev/null
expect_contains "the rate in the file's header" "sampled 1 in $rate, period $rate" "$TMP/hdr.txt"
# perf c2c report reads it and counts the HITM samples ours counts
read -r lcl rmt <<<"$(c2c_hitm "$TMP/s.data")"
ours=$(awk -F: '/Load Local HITM/ { gsub(/ /, "", $2); print $2 }' "$TMP/r.txt")
[ -n "$lcl" ] && [ "$lcl" -gt 1000 ] && ok || fail "perf c2c report HITMs: '$lcl'"
expect_eq "perf c2c report HITM samples = ours" "$ours" "$lcl"

# an unsampled smaller run: the same hot fields, same order, shares within 1 point
sim_record "$TMP/small.data" "$TMP/small.err" -- "$SAMPLES/args" $((N / 4))
expect_not_contains "small run not sampled" "sampled 1 in" "$TMP/small.err"
fields "$TMP/s.data" >"$TMP/f.s"
fields "$TMP/small.data" >"$TMP/f.small"
[ "$(wc -l <"$TMP/f.s")" -ge 2 ] && ok || fail "storm: fewer than 2 hot fields: $(cat "$TMP/f.s")"
same_order_within "fields: sampled vs unsampled smaller run" "$TMP/f.s" "$TMP/f.small"

# the same size unsampled (no limit): fields and lines agree
sim_record "$TMP/u.data" "$TMP/u.err" --max-size 0 -- "$SAMPLES/args" $N
expect_not_contains "--max-size 0: not sampled" "sampled 1 in" "$TMP/u.err"
usize=$(stat -c %s "$TMP/u.data")
[ "$usize" -gt $((8 << 20)) ] && ok || fail "unsampled run only $usize bytes: not a storm"
fields "$TMP/u.data" >"$TMP/f.u"
same_order_within "fields: sampled vs unsampled" "$TMP/f.s" "$TMP/f.u"
lines "$TMP/s.data" | sort >"$TMP/l.s"
lines "$TMP/u.data" | sort >"$TMP/l.u"
[ "$(wc -l <"$TMP/l.u")" -ge 2 ] && ok || fail "unsampled: fewer than 2 shared lines"
same_order_within "lines (by address): sampled vs unsampled" "$TMP/l.s" "$TMP/l.u"
expect_eq "the same simulation: HITMs" "$(summary_hitms "$TMP/u.err")" "$(summary_hitms "$TMP/s.err")"

# --hitm-rate forces a rate from the start; the same seed thins the same way
sim_record "$TMP/h.data" "$TMP/h.err" --hitm-rate 8 -- "$SAMPLES/args" $((N / 4))
expect_contains "--hitm-rate 8 said" "sampled 1 in 8 (--hitm-rate; period 8)" "$TMP/h.err"
run_c2c 0 "$TMP/h1.txt" "$TMP/h1.err" report -i "$TMP/h.data" --stdio
sim_record "$TMP/h2.data" "$TMP/h2.err" --hitm-rate 8 -- "$SAMPLES/args" $((N / 4))
run_c2c 0 "$TMP/h2.txt" "$TMP/h2.err" report -i "$TMP/h2.data" --stdio
if cmp -s "$TMP/h1.txt" "$TMP/h2.txt"; then ok; else fail "--hitm-rate 8 twice: reports differ"; fi
fields "$TMP/h.data" >"$TMP/f.h"
same_order_within "fields: --hitm-rate 8 vs unsampled" "$TMP/f.h" "$TMP/f.small"

run_c2c 2 "$TMP/o" "$TMP/bad.err" record --sim --max-size 12Q -- true
expect_contains "bad --max-size named" "--max-size expects a size such as 256M (B, K, M, G or T), not '12Q'" "$TMP/bad.err"
finish
