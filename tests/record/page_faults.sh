#!/usr/bin/env bash
# record -e page-faults -c 1 -- prog: every page the program touches is in
# the file as a sample's data address (perf script says so), perf report
# puts the faults in touch_pages from our MMAP2 records, c2cscope reads the
# file too, the program's exit status (7) comes back, and the header's
# topology is the one perf record writes here.
. "$TOP_SRCDIR/tests/lib.sh"
. "$TOP_SRCDIR/tests/record/common.sh"
perf_require
record_require

compile "$TMP/touch" "$TOP_SRCDIR/tests/record/touch_pages.c" -O1 -g || finish
run_c2c 7 "$TMP/out" "$TMP/err" record -e page-faults -c 1 -o "$TMP/pf.data" -- "$TMP/touch"
read -r base pages pagesz <"$TMP/out"
expect_contains "summary" "samples written to $TMP/pf.data" "$TMP/err"

perf script -i "$TMP/pf.data" -F comm,addr,ip,sym 2>"$TMP/script.err" >"$TMP/script" ||
	fail "perf script cannot read our file: $(head -3 "$TMP/script.err")"
missing=$(pages_missing "$TMP/script" touch "$base" "$pages" "$pagesz")
expect_eq "pages of the buffer without a fault in touch_pages" 0 "$missing"

perf report -i "$TMP/pf.data" --stdio --sort sym -q 2>/dev/null >"$TMP/report"
expect_contains "perf report symbolises the toucher" "touch_pages" "$TMP/report"

# sample count: ours, perf's and c2cscope's reader agree
ours=$(sed -n 's/.*record: \([0-9]*\) samples written.*/\1/p' "$TMP/err")
theirs=$(perf script -i "$TMP/pf.data" 2>/dev/null | wc -l)
expect_eq "samples written vs perf script" "$ours" "$theirs"
run_c2c 0 "$TMP/rep.out" "$TMP/rep.err" report -i "$TMP/pf.data" --stdio

# the header's cpu and NUMA topology is what perf record writes on this machine
topology() {
	perf report -i "$1" --header-only -I 2>/dev/null |
		grep -E '^# (sibling|CPU [0-9]+: Core|node[0-9]+ cpu list)'
}
if perf record -q -e page-faults -o "$TMP/perf.data" true 2>/dev/null; then
	expect_eq "CPU_TOPOLOGY and NUMA_TOPOLOGY vs perf record's" "$(topology "$TMP/perf.data")" \
		"$(topology "$TMP/pf.data")"
fi
finish
