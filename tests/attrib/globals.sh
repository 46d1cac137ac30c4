#!/usr/bin/env bash
# Globals and statics from the data address alone: the full field path
# through nested structs and arrays, padding and outside addresses reported
# as such; the mapping/section formatter for everything else.
source "$TOP_SRCDIR/tests/lib.sh"
tool=$TOP_BUILDDIR/tests/attrib/attrib_tool
[ -x "$tool" ] || skip "attrib_tool not built (no capstone)"

bin=$TMP/globals
compile "$bin" "$TOP_SRCDIR/tests/attrib/globals.c" -O2 -g || finish
sym() { printf '%d' "0x$(nm "$bin" | awk -v s="$1" '$3 == s { print $1 }')"; }
buf1=$(sym buf1)
args=$(sym args)
tg=$(sym tg)
counter=$(sym counter)

# pc 0: the code is elsewhere; only the data address speaks.
"$tool" resolve "$bin" 0:$((buf1)) 0:$((buf1 + 8 + 16 + 8)) 0:$((buf1 + 40 + 3)) \
	0:$((buf1 + 4)) 0:$((args + 3 * 16 + 8)) 0:$((tg + 16)) 0:$((counter)) \
	0:$((0x7f0000001000)) >"$TMP/out" 2>"$TMP/err"
rc=$?
[ $rc -eq 77 ] && skip "$(cat "$TMP/err")"
expect_eq "attrib_tool resolve exit" 0 "$rc"
cat "$TMP/out"
line() { sed -n "${1}p" "$TMP/out" | cut -d' ' -f2-; }
expect_eq "buf1.lock" "ok type=buf offset=0 field=lock path=buf1.lock var=buf1" "$(line 1)"
expect_eq "buf1.readers[1].reader2" \
	"ok type=buf offset=32 field=readers[1].reader2 path=buf1.readers[1].reader2 var=buf1" \
	"$(line 2)"
expect_eq "buf1.name[3]" "ok type=buf offset=43 field=name[3] path=buf1.name[3] var=buf1" \
	"$(line 3)"
expect_eq "padding" "outside-type type=buf offset=4 path=buf1 var=buf1" "$(line 4)"
expect_eq "args[3].SX" "ok type=arg offset=8 field=SX path=args[3].SX var=args" "$(line 5)"
expect_eq "tg.cfs_bandwidth.period" \
	"ok type=tg offset=16 field=cfs_bandwidth.period path=tg.cfs_bandwidth.period var=tg" \
	"$(line 6)"
expect_eq "static scalar" "ok path=counter var=counter" "$(line 7)"
expect_eq "heap address, no code" "no-symbol" "$(line 8)"

# the outermost object and the offset in it (one element of an array)
ATTRIB_TOOL_OUTER=1 "$tool" resolve "$bin" 0:$((buf1 + 8 + 16 + 8)) 0:$((args + 3 * 16 + 8)) \
	0:$((tg + 16)) 0:$((counter)) >"$TMP/outer" 2>&1
expect_eq "outer objects" "buf+32 arg+8 tg+16 -" "$(echo $(sed -n 's/.* outer=\([^ ]*\)$/\1/p; t; s/.*/-/p' "$TMP/outer"))"

"$tool" format "$bin" $((args + 0x18)) >"$TMP/fmt" 2>&1
expect_eq "anonymous mapping" "[heap]+0x40" "$(sed -n 1p "$TMP/fmt")"
expect_eq "section of the binary" "globals .bss+0x$(printf %x $((args + 0x18 - $(printf '%d' 0x$(objdump -h "$bin" | awk '$2 == ".bss" { print $4 }')))))" \
	"$(sed -n 2p "$TMP/fmt")"
expect_eq "load bias of a PIE mapped at 0x555555554000" "bias 0x555555554000" \
	"$(sed -n 3p "$TMP/fmt")"

# Bad input: a clear error naming the file, exit 2, never a crash.
"$tool" resolve /etc/hostname 0:0 >"$TMP/out" 2>"$TMP/err"
expect_eq "not ELF: exit" 2 "$?"
expect_contains "not ELF: message" "/etc/hostname: not an ELF file" "$TMP/err"
cp "$bin" "$TMP/nodebug" && strip --strip-debug "$TMP/nodebug"
"$tool" resolve "$TMP/nodebug" 0:0 >"$TMP/out" 2>"$TMP/err"
expect_eq "no DWARF: exit" 2 "$?"
expect_contains "no DWARF: message" "nodebug: no DWARF debug info" "$TMP/err"
head -c 4000 "$bin" >"$TMP/truncated"
"$tool" resolve "$TMP/truncated" 0:0 >"$TMP/out" 2>"$TMP/err"
expect_eq "truncated ELF: exit" 2 "$?"
finish
