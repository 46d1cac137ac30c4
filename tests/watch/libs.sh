#!/usr/bin/env bash
# A variable of a shared library: found by name in the library's DWARF once
# the loader has mapped it, at the library's load address (its symbol's
# value + the bias), with exact counts and the library's code line.
source "$TOP_SRCDIR/tests/lib.sh"
source "$TOP_SRCDIR/tests/watch/watch_lib.sh"

lib=$TMP/libpairlib.so
prog=$TMP/pairlib_main
compile "$lib" "$TOP_SRCDIR/tests/watch/pairlib.c" -shared -fPIC -g -O1 || finish
compile "$prog" "$TOP_SRCDIR/tests/watch/pairlib_main.c" -g -O1 -L"$TMP" -lpairlib \
	-Wl,-rpath,"$TMP" || finish

run_c2c 0 "$TMP/w.json" "$TMP/err" watch -e libcounters.a -e libcounters.b --format json \
	-- "$prog" 5000
expect_eq "a's writes" 5000 "$(field "$TMP/w.json" libcounters.a writes)"
expect_eq "b untouched" 0 "$(field "$TMP/w.json" libcounters.b hits)"
expect_eq "b is 8 bytes after a (offsetof)" 8 \
	$(($(field "$TMP/w.json" libcounters.b address) - $(field "$TMP/w.json" libcounters.a address)))
line=$(grep -n "the library's writer" "$TOP_SRCDIR/tests/watch/pairlib.c" | cut -d: -f1)
expect_eq "the library's site" "bump pairlib.c:$line" \
	"$(json "$TMP/w.json" "' '.join(d['fields'][0]['sites'][0][k] for k in ('symbol', 'srcline'))")"
run_c2c 2 "$TMP/out" "$TMP/err" watch -e libcountrs.a -- "$prog" 1
expect_contains "did you mean, in a library" "did you mean 'libcounters'?" "$TMP/err"
finish
