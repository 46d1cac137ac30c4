#!/usr/bin/env bash
# Random struct declarations (comments, multi-line and multi-declarator
# declarations, bitfield runs, anonymous unions, active, inactive and
# #if/#else blocks) and random hotness files: every suggest --patch either
# applies with patch -p1 --fuzz=0 and compiles with offsetof/sizeof asserts
# proving the header's offsets, or refuses with exit 1 naming why and
# listing the moves, or says there is nothing to change.
source "$TOP_SRCDIR/tests/lib.sh"
command -v patch >/dev/null || skip "patch(1) is not installed"
if python3 "$TOP_SRCDIR/tests/suggest/patch_property.py" "$C2CSCOPE" "$TMP" 40 >"$TMP/out" 2>&1; then
	ok
else
	fail "patch property test"
fi
cat "$TMP/out"
grep -qE '^40 structs, 0 failed; [1-9][0-9]* patched, [1-9][0-9]* refused' "$TMP/out" && ok ||
	fail "the corpus no longer exercises both patches and refusals"
finish
