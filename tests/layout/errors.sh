#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Bad input and bad usage: one clear message on stderr, exit 2, no crash.
source "$TOP_SRCDIR/tests/lib.sh"

# expect_error WHAT MESSAGE ARGS...: exit 2, stderr is exactly MESSAGE, no stdout
expect_error() {
	local what=$1 msg=$2
	shift 2
	run_c2c 2 "$TMP/out" "$TMP/err" layout "$@"
	expect_eq "$what: message" "$msg" "$(cat "$TMP/err")"
	expect_eq "$what: stdout" "" "$(cat "$TMP/out")"
}

printf 'struct s { char c; long l; } s;\n' >"$TMP/s.c"
compile "$TMP/nodebug.o" "$TMP/s.c" -c
compile "$TMP/s.o" "$TMP/s.c" -c -g
echo 'not an object file' >"$TMP/text.txt"
: >"$TMP/empty"
{ printf '\177ELF\002\001\001'; head -c 200 /dev/zero; } >"$TMP/garbage.o"

expect_error "missing file" \
	"c2cscope layout: $TMP/missing.o: No such file or directory" "$TMP/missing.o"
expect_error "not ELF" \
	"c2cscope layout: $TMP/text.txt: not an ELF file or raw BTF (bad magic)" "$TMP/text.txt"
expect_error "empty file" \
	"c2cscope layout: $TMP/empty: not an ELF file or raw BTF (bad magic)" "$TMP/empty"
expect_error "no debug info" \
	"c2cscope layout: $TMP/nodebug.o has no DWARF or BTF: install the -dbgsym package for it or set DEBUGINFOD_URLS" \
	"$TMP/nodebug.o"
run_c2c 2 "$TMP/out" "$TMP/err" layout "$TMP/garbage.o"
expect_contains "garbage ELF" "c2cscope layout: $TMP/garbage.o" "$TMP/err"
expect_eq "garbage: one line" 1 "$(wc -l <"$TMP/err")"
expect_error "directory" \
	"c2cscope layout: $TMP: is a directory, not an ELF or BTF file" "$TMP"
expect_error "BTF asked of a DWARF-only file" \
	"c2cscope layout: $TMP/s.o has no BTF (.BTF section)" --btf "$TMP/s.o"

# Unknown names: a suggestion when one is close, and globs that match nothing.
expect_error "unknown struct" \
	"c2cscope layout: $TMP/s.o: no struct or union ss; did you mean s?" -C ss "$TMP/s.o"
expect_error "unknown, nothing close" \
	"c2cscope layout: $TMP/s.o: no struct or union task_struct" -C task_struct "$TMP/s.o"
expect_error "unknown glob" \
	"c2cscope layout: $TMP/s.o: no struct or union matches 'zz*'" -C 'zz*' "$TMP/s.o"

# Usage errors.
expect_error "bad format" "c2cscope layout: --format expects text or json, not 'xml'" \
	--format xml "$TMP/s.o"
expect_error "bad cacheline" \
	"c2cscope layout: --cacheline-size expects a power of two from 8 to 4096, not 65" \
	--cacheline-size 65 "$TMP/s.o"
expect_error "bad holes" "c2cscope layout: --holes expects a number, not 'x'" \
	--holes x "$TMP/s.o"
expect_error "json with two files" \
	"c2cscope layout: --format json takes one FILE and no --sizes" \
	--format json "$TMP/s.o" "$TMP/s.o"

run_c2c 0 "$TMP/out" "$TMP/err" layout --help
expect_contains "help" "usage: c2cscope layout [options] [FILE...]" "$TMP/out"
finish
