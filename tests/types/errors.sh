#!/usr/bin/env bash
# Bad input to the loaders: one clear message, exit 2, never a crash. Also a
# little fuzzing: truncated and byte-flipped DWARF objects and BTF blobs.
source "$TOP_SRCDIR/tests/lib.sh"

DUMP="$TOP_BUILDDIR/tests/types/dump_types"
[ -x "$DUMP" ] || skip "dump_types not built"

# run_dump EXIT NEEDLE ARGS...: exit code and message
run_dump() {
	local want=$1 needle=$2 rc
	shift 2
	"$DUMP" "$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	expect_eq "dump_types $* exit" "$want" "$rc"
	[ -n "$needle" ] && expect_contains "dump_types $* message" "$needle" "$TMP/err"
	if grep -qE 'Sanitizer|runtime error:' "$TMP/err"; then
		fail "sanitizer report for $*"
		cat "$TMP/err" >&2
	fi
}

run_dump 2 "/nonexistent: No such file or directory" /nonexistent
printf 'hello, world\n' >"$TMP/text"
run_dump 2 "not an ELF file or raw BTF" "$TMP/text"
: >"$TMP/empty"
run_dump 2 "not an ELF file or raw BTF" "$TMP/empty"
run_dump 2 "is a directory" "$TMP"
gcc -O2 -c -o "$TMP/nodebug.o" "$TOP_SRCDIR/tests/corpus/misc.c"
run_dump 2 "has no DWARF or BTF: install the -dbgsym package for it or set DEBUGINFOD_URLS" "$TMP/nodebug.o"
gcc -g -c -o "$TMP/dwarf.o" "$TOP_SRCDIR/tests/corpus/misc.c"
run_dump 2 "has no BTF" --btf "$TMP/dwarf.o"
head -c 100 "$TMP/dwarf.o" >"$TMP/trunc.o"
run_dump 2 "" "$TMP/trunc.o"
printf '\x9f\xeb\x01\x00\x18\x00\x00\x00' >"$TMP/bad.btf"
run_dump 2 "bad.btf: corrupt BTF: 8 bytes, shorter than a header" "$TMP/bad.btf"
# Hand-made raw BTF: a 24-byte header (magic, version 1, hdr_len, type
# off/len, string off/len), then the type and string sections.
u32() { printf "\\x%02x\\x%02x\\x%02x\\x%02x" $(($1 & 255)) $(($1 >> 8 & 255)) $(($1 >> 16 & 255)) $(($1 >> 24 & 255)); }
btf() { # FILE TYPE_LEN STR_OFF STR_LEN WORDS...
	local f=$1 tl=$2 so=$3 sl=$4 w out
	shift 4
	out="\\x9f\\xeb\\x01\\x00$(u32 24)$(u32 0)$(u32 "$tl")$(u32 "$so")$(u32 "$sl")"
	for w in "$@"; do out+=$(u32 "$w"); done
	printf "$out" >"$f"
}
# one INT "int" (kind 1, 4 bytes, signed 32 bits): loads, no structs
btf "$TMP/int.btf" 16 16 4 0 0x01000000 4 0x01000020 0x00746e69
run_dump 0 "" "$TMP/int.btf"
btf "$TMP/kind.btf" 12 12 1 0 0x14000000 0 0
run_dump 2 "kind.btf: unsupported BTF kind 20 (type 1)" "$TMP/kind.btf"
btf "$TMP/trunc.btf" 16 16 1 0 0x04000002 8 0 0
run_dump 2 "trunc.btf: corrupt BTF: type 1 truncated" "$TMP/trunc.btf"
btf "$TMP/str.btf" 16 16 4 0 0x01000000 4 0x01000020 0x78746e69
run_dump 2 "str.btf: corrupt BTF: string section not terminated" "$TMP/str.btf"
btf "$TMP/range.btf" 16 16 40 0 0x01000000 4 0x01000020 0x00746e69
run_dump 2 "range.btf: corrupt BTF: type (0+16) or string (16+40) section outside the 44 bytes" "$TMP/range.btf"
printf '\xeb\x9f\x01\x00\x00\x00\x00\x18' >"$TMP/be.btf"
run_dump 2 "be.btf: not an ELF file or raw BTF" "$TMP/be.btf"

# Fuzz: every outcome is fine except a crash or a sanitizer report.
fuzz() { # FILE LABEL
	local f=$1 size i off rc
	size=$(stat -c %s "$f")
	for i in $(seq 1 40); do
		cp "$f" "$TMP/fuzz"
		if [ $((i % 4)) -eq 0 ]; then
			truncate -s $((RANDOM * 7 % size)) "$TMP/fuzz"
		else
			for off in $((RANDOM * 3 % size)) $((RANDOM * 5 % size)) $((RANDOM % size)); do
				printf "\\x$(printf %02x $((RANDOM % 256)))" |
					dd of="$TMP/fuzz" bs=1 seek="$off" conv=notrunc status=none
			done
		fi
		"$DUMP" "$TMP/fuzz" >/dev/null 2>"$TMP/ferr"
		rc=$?
		if [ $rc -ne 0 ] && [ $rc -ne 2 ] || grep -qE 'Sanitizer|runtime error:' "$TMP/ferr"; then
			cp "$TMP/fuzz" "$TMP/crash-$2-$i"
			fail "$2 fuzz case $i: exit $rc $(head -3 "$TMP/ferr")"
		else
			ok
		fi
	done
}
RANDOM=42
fuzz "$TMP/dwarf.o" dwarf
if command -v pahole >/dev/null; then
	cp "$TMP/dwarf.o" "$TMP/btf.o" && pahole -J "$TMP/btf.o" 2>/dev/null &&
		objcopy -O binary --only-section=.BTF "$TMP/btf.o" "$TMP/raw.btf" &&
		fuzz "$TMP/raw.btf" btf
fi
finish
