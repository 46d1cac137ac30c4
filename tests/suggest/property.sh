#!/usr/bin/env bash
# Random structs and profiles: every proposal keeps all members, compiles
# with offsetof/sizeof asserts that prove its offsets, never scores worse
# than the input, and "reorder only" never grows the struct.
source "$TOP_SRCDIR/tests/lib.sh"
if python3 "$TOP_SRCDIR/tests/suggest/property.py" "$C2CSCOPE" "$TMP" 60; then
	ok
else
	fail "property test"
fi
finish
