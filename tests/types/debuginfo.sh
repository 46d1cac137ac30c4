#!/usr/bin/env bash
# Separate debuginfo: a stripped library whose build-id names a file under
# /usr/lib/debug/.build-id/ (Debian's -dbg/-dbgsym packages) loads from it.
source "$TOP_SRCDIR/tests/lib.sh"

DUMP="$TOP_BUILDDIR/tests/types/dump_types"
[ -x "$DUMP" ] || skip "dump_types not built"
lib=/usr/lib/x86_64-linux-gnu/libc.so.6
[ -r "$lib" ] || skip "no $lib"
id=$(readelf -n "$lib" 2>/dev/null | sed -n 's/.*Build ID: *//p' | head -1)
debug=/usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug
[ -n "$id" ] && [ -r "$debug" ] || skip "no debug file for $lib (install libc6-dbg)"

"$DUMP" -C _IO_FILE "$lib" >"$TMP/lib" 2>"$TMP/err" || fail "load $lib: $(cat "$TMP/err")"
"$DUMP" -C _IO_FILE "$debug" >"$TMP/debug" 2>&1 || fail "load $debug"
expect_contains "_IO_FILE found through the build-id" "struct _IO_FILE size 216 " "$TMP/lib"
expect_eq "same model as the debug file" "$(cat "$TMP/debug")" "$(cat "$TMP/lib")"
expect_eq "stderr" "" "$(cat "$TMP/err")"
finish
