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
run_dump 2 "corrupt or unsupported BTF" "$TMP/bad.btf"

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
