#!/usr/bin/env bash
# A malicious perf.data cannot make report allocate unboundedly: every count
# in a header (cpus, nodes, strings, events, memory blocks, ids, sections,
# the data size, a callchain) is checked against the bytes the file has
# before anything is allocated, and a COMPRESSED record cannot unpack to
# more than the recording's buffer. Each file gives an exit of 0 (with a
# warning naming the damaged field) or 2 (a message), and report's peak
# RSS stays under 64 MB (a clean file needs ~13 MB; the counts claim
# terabytes).
source "$TOP_SRCDIR/tests/lib.sh"
command -v python3 >/dev/null || skip "python3 not installed"
[ -x /usr/bin/time ] || skip "/usr/bin/time not installed (GNU time, for the peak RSS)"
GEN="$TOP_BUILDDIR/tests/perf/perf_gen"
limit_kb=$((64 * 1024))
# AddressSanitizer reserves shadow memory and keeps freed blocks: no RSS bound then
asan=false
ldd "$C2CSCOPE" 2>/dev/null | grep -q libasan && asan=true
# (ldd says nothing while the binary is being relinked: the build's flags say it too)
grep -q '^SAN_CFLAGS = .*-fsanitize=address' "$TOP_BUILDDIR/Makefile" 2>/dev/null && asan=true

"$GEN" -n 50 -g "$TMP/in.data" || fail "perf_gen"
pipe=
if command -v perf >/dev/null && perf inject -i "$TMP/in.data" -o - >"$TMP/in.pipe" 2>/dev/null; then
	pipe="$TMP/in.pipe"
else
	echo "huge_counts: no perf inject: the zstd bomb case is skipped"
fi
mkdir -p "$TMP/cases"
python3 "$TOP_SRCDIR/tests/perf/huge_counts.py" "$TMP/in.data" "$TMP/cases" $pipe ||
	fail "huge_counts.py"

# case|exit|what stderr must say
while IFS='|' read -r name want msg; do
	f="$TMP/cases/$name.data"
	[ -e "$f" ] || continue
	/usr/bin/time -f %M -o "$TMP/rss" "$C2CSCOPE" report --stdio -i "$f" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	expect_eq "$name: exit status" "$want" "$rc"
	expect_contains "$name: message" "$msg" "$TMP/err"
	grep -qE 'Sanitizer|runtime error:' "$TMP/err" && fail "$name: sanitizer report"
	rss=$(tail -1 "$TMP/rss")
	if $asan; then
		ok
	elif [ "$rss" -lt "$limit_kb" ]; then
		ok
	else
		fail "$name: peak RSS $rss kB, over $limit_kb kB"
	fi
done <<'X'
nrcpus|0|feature NRCPUS is damaged
cmdline|0|feature CMDLINE is damaged
event_desc|0|feature EVENT_DESC is damaged
numa|0|feature NUMA_TOPOLOGY is damaged
mem_nodes|0|feature MEM_TOPOLOGY is damaged
mem_bitmap|0|feature MEM_TOPOLOGY is damaged
attr_ids|2|lie outside the file
attr_section|2|runs past the end of the file
data_size|0|feature table cut short
callchain|2|sample field CALLCHAIN runs past the end of its record
zstd_bomb|0|unpacks to more than 16777216 bytes
X
$asan && echo "huge_counts: peak RSS not checked under AddressSanitizer"
finish
