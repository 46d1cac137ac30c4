# Sourced by the tests that read files perf records here (after
# tests/lib.sh): skips without perf, builds the workload and defines
#   record OUT ARGS...   perf record -q -o OUT ARGS -- spin, or skip
command -v perf >/dev/null || skip "perf not installed"
DUMP="$TOP_BUILDDIR/tests/perf/perf_dump"
compile "$TMP/spin" "$TOP_SRCDIR/tests/perf/spin.c" -O1 -g || finish

record() {
	local out=$1
	shift
	perf record -q -o "$out" "$@" -- "$TMP/spin" >/dev/null 2>"$TMP/record.err" ||
		skip "perf record $* failed: $(head -1 "$TMP/record.err")"
}
