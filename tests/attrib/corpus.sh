#!/usr/bin/env bash
# The attribution corpus (tests/attrib/corpus.c): every memory access of every
# corpus function resolves to one of the fields written by hand next to the
# function, or stays unresolved with a reason; never a wrong field. gcc -O2:
# at least 90% resolve. The per-reason counters add up to the queries.
# Also: the same binary stripped, its DWARF in a separate file found through
# .gnu_debuglink; DWARF 4; clang -O2 (DWARF 5), also at least 90%; -O0
# with gcc and clang (pointers reloaded from stack slots), none wrong.
source "$TOP_SRCDIR/tests/lib.sh"
tool=$TOP_BUILDDIR/tests/attrib/attrib_tool
[ -x "$tool" ] || skip "attrib_tool not built (no capstone)"

# clang_build OUT FLAGS...: the corpus built by clang (0: done)
clang_build() {
	local out=$1
	shift
	clang -o "$out" "$TOP_SRCDIR/tests/attrib/corpus.c" "$@" -g ||
		{ fail "clang cannot compile the corpus ($*)"; return 1; }
}

# check NAME BINARY MIN_PERCENT
check() {
	local rc
	"$tool" corpus "$2" -v --min "$3" >"$TMP/out" 2>&1
	rc=$?
	[ $rc -eq 77 ] && skip "$(cat "$TMP/out")"
	sed "s/^/$1: /" "$TMP/out"
	expect_eq "corpus check ($1)" 0 "$rc"
	expect_contains "no wrong field ($1)" " 0 wrong" "$TMP/out"
}

compile "$TMP/corpus" "$TOP_SRCDIR/tests/attrib/corpus.c" -O2 -g || finish
check gcc-O2 "$TMP/corpus" 90
grep '^corpus:' "$TMP/out" >"$TMP/gcc.summary"

cp "$TMP/corpus" "$TMP/stripped"
objcopy --only-keep-debug "$TMP/stripped" "$TMP/stripped.debug" &&
	objcopy --strip-debug --add-gnu-debuglink="$TMP/stripped.debug" "$TMP/stripped" ||
	fail "objcopy"
readelf -S "$TMP/stripped" | grep -q debug_info && fail "stripped binary still has DWARF"
check separate-debuginfo "$TMP/stripped" 90
expect_eq "same results from the separate debug file" "$(cat "$TMP/gcc.summary")" \
	"$(grep '^corpus:' "$TMP/out")"

# DWARF 4 (DW_AT_bit_offset counts from the unit's top bit): a type only a
# parameter uses is converted by the type model's own DWARF reader, so its
# bitfields sit where the compiler put them (bits_t.hi is bytes 2-3).
compile "$TMP/corpus-dw4" "$TOP_SRCDIR/tests/attrib/corpus.c" -O2 -g -gdwarf-4 || finish
check gcc-O2-dwarf4 "$TMP/corpus-dw4" 90
grep -qE '^right +c_typedef_bits .*field=hi ' "$TMP/out" && ok ||
	fail "DWARF 4: bits_t.hi not attributed: $(grep c_typedef_bits "$TMP/out")"

if command -v clang >/dev/null && clang_build "$TMP/corpus-clang" -O2; then
	check clang-O2 "$TMP/corpus-clang" 90
fi

# -O0: every pointer is reloaded from its stack slot before each use. Most
# accesses are to the slots themselves (unresolved: stack), so the share is
# low; what counts is that the struct accesses resolve and none is wrong.
compile "$TMP/corpus-O0" "$TOP_SRCDIR/tests/attrib/corpus.c" -O0 -g || finish
check gcc-O0 "$TMP/corpus-O0" 20
grep -qE '^right +c_double_ptr .*path=\*pp var=pp' "$TMP/out" && ok ||
	fail "gcc -O0: *pp, loaded from pp's slot, lost pp's name: $(grep c_double_ptr "$TMP/out")"
if command -v clang >/dev/null && clang_build "$TMP/corpus-clang-O0" -O0; then
	check clang-O0 "$TMP/corpus-clang-O0" 20
	# clang -O0 reads o->cnt as the 16 bits it shares with o->flag: which
	# one is meant is in the shift after it, not in the access
	grep -qE '^unresolved +c_bitfield .*word ptr.* bitfields ' "$TMP/out" && ok ||
		fail "clang -O0: a load of two bitfields is not 'bitfields': $(grep 'c_bitfield ' "$TMP/out")"
fi
finish
