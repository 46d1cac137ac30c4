#!/usr/bin/env bash
# The attribution corpus (tests/attrib/corpus.c) at -O2 -g: every memory
# access of every corpus function resolves to one of the fields written by
# hand next to the function, or stays unresolved with a reason; never a wrong
# field; at least 90% resolve; the --stats counters add up to the queries.
source "$TOP_SRCDIR/tests/lib.sh"
tool=$TOP_BUILDDIR/tests/attrib/attrib_tool
[ -x "$tool" ] || skip "attrib_tool not built (no capstone)"

compile "$TMP/corpus" "$TOP_SRCDIR/tests/attrib/corpus.c" -O2 -g || finish
"$tool" corpus "$TMP/corpus" -v >"$TMP/out" 2>&1
rc=$?
[ $rc -eq 77 ] && skip "$(cat "$TMP/out")"
cat "$TMP/out"
expect_eq "corpus check (gcc -O2)" 0 "$rc"
expect_contains "no wrong field" " 0 wrong" "$TMP/out"
finish
