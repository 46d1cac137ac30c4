#!/usr/bin/env bash
# Damaged variable-size sample fields: a READ (group read_format), a
# BRANCH_STACK (with and without hw_idx), REGS_USER, STACK_USER or
# REGS_INTR that runs past the end of its record stops the reader with
# the file, the offset where the field's bytes are missing, the field,
# how many bytes it needed and how many were left. As for any damage: the
# samples before it are kept (with how many were read), exit 2 when there
# are none.
source "$TOP_SRCDIR/tests/lib.sh"
GEN="$TOP_BUILDDIR/tests/perf/perf_gen"
DUMP="$TOP_BUILDDIR/tests/perf/perf_dump"

source "$TOP_SRCDIR/tests/perf/damage_lib.sh"

# le16 N: N as two little-endian bytes in hex
le16() {
	printf '%02x%02x' $(($1 & 0xff)) $(($1 >> 8))
}

hex() {
	printf '0x%x' "$1"
}

# gen NAME FLAGS: a 2-sample, 1-event file; sets S1 and S2 (the samples' offsets)
gen() {
	"$GEN" -n 2 -e 1 $2 "$TMP/$1.data" || fail "perf_gen $2"
	"$DUMP" -r "$TMP/$1.data" >"$TMP/recs"
	S1=$(awk '$2 == 9 { print $1; exit }' "$TMP/recs")
	S2=$(awk '$2 == 9 { n++ } $2 == 9 && n == 2 { print $1; exit }' "$TMP/recs")
}

# cut NAME AT SIZE: a copy of NAME.data whose record at AT says it has SIZE bytes
cut() {
	cp "$TMP/$1.data" "$TMP/cut.data"
	patch_bytes "$TMP/cut.data" $(($2 + 6)) "$(le16 "$3")"
}

# past AT FIELD NEED LEFT END: the message for a field cut at AT
past() {
	echo "cut.data: at $(hex "$1"): sample field $2 runs past the end of its record:" \
		"$3 bytes needed, $4 left (record data ends at $(hex "$5"))"
}

# Samples start with IDENTIFIER, IP, TID, TIME, ADDR, CPU, PERIOD: 56
# bytes after the 8-byte header; the variable fields follow at +64.

# READ, GROUP|ID|TOTAL_TIME_ENABLED|TOTAL_TIME_RUNNING, one member: nr,
# enabled, running, value, id (40 bytes at +64)
gen read -R
expect_eq "read: layout" "$(hex $((S1 + 0x80)))" "$S2"
cut read "$S1" 80
dump_expect "read values cut" 2 "$(past $((S1 + 64)) READ 40 16 $((S1 + 80)))" "$TMP/cut.data"
cut read "$S1" 64
dump_expect "read without its nr" 2 "$(past $((S1 + 64)) READ 8 0 $((S1 + 64)))" "$TMP/cut.data"
cp "$TMP/read.data" "$TMP/cut.data"
patch_bytes "$TMP/cut.data" $((S1 + 64)) ffffffff00000000
dump_expect "read nr too large" 2 \
	"$(past $((S1 + 64)) READ $(((0xffffffff * 2 + 3) * 8)) 64 $((S1 + 0x80)))" "$TMP/cut.data"

# BRANCH_STACK with hw_idx: nr, hw_idx, 2 entries of 24 bytes (+64..+128);
# damage in the second sample keeps the first
gen branch -B
B1=$S1 B2=$S2
expect_eq "branch: layout" "$(hex $((S1 + 0x98)))" "$S2"
cut branch "$S2" 96
dump_expect "branch entries cut" 0 "$(past $((S2 + 80)) BRANCH_STACK 48 16 $((S2 + 96)))" \
	"$TMP/cut.data"
expect_contains "branch entries cut: count" "5 records (1 samples) were read before that" \
	"$TMP/err"
expect_eq "branch entries cut: first sample kept" 1 "$(wc -l <"$TMP/out")"
cut branch "$S2" 72
dump_expect "branch without its hw_idx" 0 "$(past $((S2 + 72)) BRANCH_STACK 8 0 $((S2 + 72)))" \
	"$TMP/cut.data"
# without hw_idx the entries start 8 bytes earlier
gen branch0 -b
expect_eq "branch without hw_idx: layout" "$(hex $((S1 + 0x90)))" "$S2"
cut branch0 "$S2" 96
dump_expect "branch (no hw_idx) entries cut" 0 \
	"$(past $((S2 + 72)) BRANCH_STACK 48 24 $((S2 + 96)))" "$TMP/cut.data"

# REGS_USER (abi, ax bx sp) and STACK_USER (size, 64 bytes, dyn_size);
# the first sample has no user registers (abi 0), the second has them
gen user -u
expect_eq "user: layout" "$(hex $((S1 + 0xb0)))" "$S2"
cut user "$S2" 72
dump_expect "user regs cut" 0 "$(past $((S2 + 72)) REGS_USER 24 0 $((S2 + 72)))" "$TMP/cut.data"
expect_contains "user regs cut: count" "5 records (1 samples) were read before that" "$TMP/err"
cut user "$S2" 120
dump_expect "user stack cut" 0 "$(past $((S2 + 104)) STACK_USER 64 16 $((S2 + 120)))" \
	"$TMP/cut.data"
cut user "$S2" 168
dump_expect "user stack without its dyn_size" 0 \
	"$(past $((S2 + 168)) STACK_USER 8 0 $((S2 + 168)))" "$TMP/cut.data"
cp "$TMP/user.data" "$TMP/cut.data"
patch_bytes "$TMP/cut.data" $((S2 + 96)) 0000000001000000
dump_expect "user stack size too large" 0 \
	"$(past $((S2 + 104)) STACK_USER $((0x100000000)) 96 $((S2 + 0xc8)))" "$TMP/cut.data"

# REGS_INTR (abi, ax bx ip) after WEIGHT and DATA_SRC: at +80
gen intr -I
expect_eq "intr: layout" "$(hex $((S1 + 0x78)))" "$S2"
cut intr "$S1" 96
dump_expect "intr regs cut" 2 "$(past $((S1 + 88)) REGS_INTR 24 8 $((S1 + 96)))" "$TMP/cut.data"

# the report keeps the samples before the damage too, and says so once
cut branch "$B2" 96
run_c2c 0 "$TMP/rep.out" "$TMP/rep.err" report -i "$TMP/cut.data" --stdio --no-attrib
expect_eq "report: the damage, once" 1 \
	"$(grep -cF "$(past $((B2 + 80)) BRANCH_STACK 48 16 $((B2 + 96)))" "$TMP/rep.err")"
expect_contains "report: samples kept" "reporting the 1 samples read before the damage" \
	"$TMP/rep.err"
expect_contains "report: one sample" "Total records                     :          1" \
	"$TMP/rep.out"
cut branch "$B1" 96
run_c2c 2 "$TMP/rep.out" "$TMP/rep.err" report -i "$TMP/cut.data" --stdio --no-attrib
expect_contains "report: nothing usable" "$(past $((B1 + 80)) BRANCH_STACK 48 16 $((B1 + 96)))" \
	"$TMP/rep.err"
finish
