#!/usr/bin/env bash
# Damaged perf.data: precise messages naming the file and the offset, what
# comes before the damage is kept, nothing crashes (ASan in CI), exit 2 when
# nothing usable remains.
source "$TOP_SRCDIR/tests/lib.sh"
GEN="$TOP_BUILDDIR/tests/perf/perf_gen"
DUMP="$TOP_BUILDDIR/tests/perf/perf_dump"

source "$TOP_SRCDIR/tests/perf/damage_lib.sh"

"$GEN" -n 4 -e 1 "$TMP/ok.data" || fail "perf_gen"
# Layout of a 1-event file: header 0x68, id, attr, data at 0x100: kernel
# MMAP 0x100, COMM 0x160 0x1a0, MMAP2 0x1e0 (its size depends on the path
# of perf_gen), then samples of 0x58 bytes: S1, S2.
"$DUMP" -r "$TMP/ok.data" >"$TMP/recs"
S1=$(awk '$2 == 9 { print $1; exit }' "$TMP/recs")
S2=$(printf '0x%x' $((S1 + 0x58)))
expect_eq "layout: second sample" "$S2 9 0" "$(grep -m2 ' 9 0$' "$TMP/recs" | tail -1)"

printf 'this is not a perf.data file at all\n' >"$TMP/garbage.data"
dump_expect "garbage" 2 "garbage.data: at 0x0: bad magic 0x2073692073696874, expected PERFILE2" \
	"$TMP/garbage.data"
: >"$TMP/empty.data"
dump_expect "empty" 2 "empty.data: empty file" "$TMP/empty.data"
head -c 50 "$TMP/ok.data" >"$TMP/short.data"
dump_expect "short header" 2 "short.data: at 0x0: a file of 50 bytes is too short for the 104-byte file header" \
	"$TMP/short.data"

cp "$TMP/ok.data" "$TMP/small.data"
patch_bytes "$TMP/small.data" $((0x100 + 6)) 0400
dump_expect "record smaller than its header" 2 \
	"small.data: at 0x100: record size 4 is smaller than its header (8)" "$TMP/small.data"

cp "$TMP/ok.data" "$TMP/long.data"
patch_bytes "$TMP/long.data" $(($S2 + 6)) f8ff
dump_expect "record past the end" 0 \
	"long.data: at $S2: record of 65528 bytes runs past the end of the data" "$TMP/long.data"
expect_contains "record past the end: count" "5 records (1 samples) were read before that" \
	"$TMP/err"
expect_eq "record past the end: samples kept" 1 "$(wc -l <"$TMP/out")"

# a sample 8 bytes shorter than its fields (the next record still frames)
cp "$TMP/ok.data" "$TMP/field.data"
patch_bytes "$TMP/field.data" $((S1 + 6)) 5000
dump_expect "sample field past the end" 2 \
	"field.data: at $(printf 0x%x $((S1 + 0x50))): sample field PHYS_ADDR/CGROUP/PAGE_SIZE runs past the end of its record: 8 bytes needed, 0 left (record data ends at $(printf 0x%x $((S1 + 0x50))))" \
	"$TMP/field.data"

cp "$TMP/ok.data" "$TMP/overlap.data"
patch_bytes "$TMP/overlap.data" 24 0001000000000000
dump_expect "overlapping sections" 2 \
	"overlap.data: at 0x18: attrs section [0x100, 0x190) overlaps the data section" \
	"$TMP/overlap.data"

cp "$TMP/ok.data" "$TMP/past.data"
patch_bytes "$TMP/past.data" 40 0000000001000000
dump_expect "data section past the file" 2 "past.data: at 0x28: data section at 0x100000000 starts past the end" \
	"$TMP/past.data"

# two events: a sample whose IDENTIFIER matches no event is skipped with a warning
"$GEN" -n 4 -e 2 "$TMP/two.data" || fail "perf_gen -e 2"
first=$("$DUMP" -r "$TMP/two.data" | awk '$2 == 9 { print $1; exit }')
cp "$TMP/two.data" "$TMP/id.data"
patch_bytes "$TMP/id.data" $((first + 8)) e703000000000000
dump_expect "unknown id" 0 "id.data: at $(printf 0x%x $((first + 8))): id 999 matches no event (skipped)" "$TMP/id.data"
expect_eq "unknown id: other samples kept" 3 "$(wc -l <"$TMP/out")"

# cut inside a record: everything before it, and where it stopped
size=$(stat -c %s "$TMP/ok.data")
head -c $(($S2 + 20)) "$TMP/ok.data" >"$TMP/cut.data"
dump_expect "cut inside a record" 0 "cut.data: at $S2: the file is cut short" "$TMP/cut.data"
expect_contains "cut: count" "5 records (1 samples) were read before that" "$TMP/err"
head -c $(($S2)) "$TMP/ok.data" >"$TMP/cut2.data"
dump_expect "cut between records" 0 "cut2.data: the file is cut short at $S2" "$TMP/cut2.data"

# absurd cpu and node counts (a flipped high bit): the feature is damaged,
# not a machine of 2^31 cpus to size bitmaps for (the report used to spend
# minutes filling a cpu->node table)
C2CGEN="$TOP_BUILDDIR/tests/c2c/gen_c2c_data"
# feature_offset FILE BIT: where feature BIT's section starts
feature_offset() {
	python3 - "$1" "$2" <<'PY'
import struct, sys
d = open(sys.argv[1], "rb").read()
data_off, data_size = struct.unpack_from("<QQ", d, 40)
bits = int.from_bytes(d[72:104], "little")
idx = sum(1 for b in range(int(sys.argv[2])) if bits >> b & 1)
print(struct.unpack_from("<Q", d, data_off + data_size + 16 * idx)[0])
PY
}
if [ -x "$C2CGEN" ] && command -v python3 >/dev/null; then
	"$C2CGEN" -n 2000 -l 40 "$TMP/c2c.data" || fail "gen_c2c_data"
	run_c2c 0 "$TMP/c2c.ok" "$TMP/c2c.okerr" report -i "$TMP/c2c.data" --stats --no-attrib
	cp "$TMP/c2c.data" "$TMP/cpus.data"
	off=$(feature_offset "$TMP/cpus.data" 7) # HEADER_NRCPUS
	patch_bytes "$TMP/cpus.data" "$off" 00000080 # nr_cpus_avail 0x80000000
	run_c2c 0 "$TMP/cpus" "$TMP/cpus.err" report -i "$TMP/cpus.data" --stats --no-attrib
	expect_contains "NRCPUS of 2^31 cpus" \
		"cpus.data: at $(printf '0x%x' "$off"): feature NRCPUS is damaged" "$TMP/cpus.err"
	expect_eq "NRCPUS damaged: the same counts" "$(cat "$TMP/c2c.ok")" "$(cat "$TMP/cpus")"
	cp "$TMP/c2c.data" "$TMP/nodes.data"
	off=$(feature_offset "$TMP/nodes.data" 14) # HEADER_NUMA_TOPOLOGY: nr, then node
	patch_bytes "$TMP/nodes.data" $((off + 4)) 00000040 # node 0x40000000
	run_c2c 0 "$TMP/nodes" "$TMP/nodes.err" report -i "$TMP/nodes.data" --stats --no-attrib
	expect_contains "NUMA node 2^30" \
		"nodes.data: at $(printf '0x%x' "$off"): feature NUMA_TOPOLOGY is damaged" \
		"$TMP/nodes.err"
fi

# random damage anywhere never crashes
for seed in 1 2 3 4 5 6 7 8; do
	cp "$TMP/two.data" "$TMP/fuzz.data"
	size=$(stat -c %s "$TMP/fuzz.data")
	for k in 1 2 3 4; do
		off=$(((seed * 7919 * k + k * 104729) % size))
		patch_bytes "$TMP/fuzz.data" "$off" "$(printf '%02x' $(((seed * 37 + k * 91) % 256)))"
	done
	"$DUMP" -F tid,time,ip,addr "$TMP/fuzz.data" >/dev/null 2>"$TMP/err"
	rc=$?
	if [ "$rc" -gt 2 ] || grep -qE 'Sanitizer|runtime error' "$TMP/err"; then
		fail "fuzz seed $seed: exit $rc"
		head -5 "$TMP/err" >&2
	else
		ok
	fi
	"$DUMP" -H "$TMP/fuzz.data" >/dev/null 2>&1
	[ $? -le 2 ] && ok || fail "fuzz seed $seed: -H crashed"
done
finish
