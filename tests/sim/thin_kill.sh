#!/bin/bash
# A bounded recording killed mid-run: record --sim --max-size thins the
# samples written so far in place, then writes a checkpoint at the new
# end; a SIGKILL after a thinning leaves a file that c2cscope report and
# perf script read alike, says it was not closed, and whose HITM samples
# all carry the rate its header (CPUDESC) names. A recording whose output
# fills (ulimit -f) before its first thinning keeps its first samples at
# period 1: the later RATE records thin nothing, and record does not blame
# --max-size for the samples the full output dropped.
source "$TOP_SRCDIR/tests/lib.sh"
source "$TOP_SRCDIR/tests/sim/common.sh"
sim_require
perf_require
N=3000000 # a storm of a few seconds: the file is thinned again and again
MAGIC=54504b4343324343 # PERF_WRITER_UNCLOSED_MAGIC ("CC2CCKPT") of a checkpoint header

# hdr FILE: "DATA_SIZE MARK" of the header now on disk (hex words)
hdr() {
	od -An -tx8 -j48 -N16 "$1" 2>/dev/null || echo "0 0"
}

# killed OUT: records a storm, SIGKILLs it once the file has shrunk (a
# thinning) and its header is a checkpoint's with data; 0 when it did
killed() {
	local out=$1 pid size max=0 shrunk= i
	rm -f "$out"
	"$C2CSCOPE" record --sim --max-size 2M -o "$out" -- "$SAMPLES/args" $N \
		>/dev/null 2>"$out.err" &
	pid=$!
	for i in $(seq 1 600); do
		kill -0 $pid 2>/dev/null || break
		size=$(stat -c %s "$out" 2>/dev/null || echo 0)
		[ "$size" -lt "$max" ] && shrunk=1
		[ "$size" -gt "$max" ] && max=$size
		if [ -n "$shrunk" ]; then
			read -r d m <<<"$(hdr "$out")"
			if [ "$m" = "$MAGIC" ] && [ $((16#${d:-0})) -gt 0 ]; then
				kill -KILL $pid
				wait $pid 2>/dev/null
				return 0
			fi
		fi
		sleep 0.02
	done
	wait $pid 2>/dev/null
	return 1
}

# A kill inside a thinning pass (about 1% of the run) leaves a readable
# file without samples: such a try is taken again, at most three times.
n=0
for try in 1 2 3; do
	if ! killed "$TMP/k.data"; then
		fail "the recording ended before a thinning and a checkpoint (load $(cut -d' ' -f1-3 /proc/loadavg)): $(tail -2 "$TMP/k.data.err")"
		finish
	fi
	n=$(perf script -i "$TMP/k.data" -F period 2>/dev/null | wc -l)
	[ "$n" -gt 0 ] && break
done
echo "thin_kill: killed after a thinning (try $try): $n samples read"
[ "$n" -gt 1000 ] && ok || fail "killed recording: $n samples read (tries: $try)"
run_c2c 0 "$TMP/r.txt" "$TMP/r.err" report -i "$TMP/k.data" --stdio --no-attrib
expect_contains "killed: report says it was not closed" "did not close this file" "$TMP/r.err"
expect_eq "killed: c2cscope report and perf script count alike" "$n" \
	"$(sed -n 's/^ *Total records *: *\([0-9]*\)$/\1/p' "$TMP/r.txt")"
perf report --header-only -i "$TMP/k.data" >"$TMP/hdr.txt" 2>/dev/null
rate=$(sed -n 's/.*sampled 1 in \([0-9]*\), period.*/\1/p' "$TMP/hdr.txt")
[ -n "$rate" ] && [ "$rate" -ge 2 ] && ok || fail "killed: no thinning rate in the header: $(grep cpudesc "$TMP/hdr.txt")"
periods=$(perf script -i "$TMP/k.data" -F period,data_src 2>/dev/null |
	awk '/HitM/ { print $1 }' | sort -u | tr '\n' ' ')
echo "thin_kill: the header says 1 in $rate"
expect_eq "killed: HITM sample periods are the header's rate" "$rate " "$periods"

(
	ulimit -f 1500 # KB: under the 3.5 MB at which --max-size 4M first thins
	"$C2CSCOPE" record --sim --max-size 4M -o "$TMP/f.data" -- "$SAMPLES/args" 80000 \
		>/dev/null 2>"$TMP/f.err"
	echo $? >"$TMP/f.rc"
)
expect_eq "full before a thinning: exit status" 1 "$(cat "$TMP/f.rc")"
kept=$(sed -n 's/.* holds the first \([0-9]*\) of the [0-9]* samples.*/\1/p' "$TMP/f.err")
[ -n "$kept" ] && [ "$kept" -gt 1000 ] && ok || fail "full: no 'holds the first N': $(cat "$TMP/f.err")"
expect_eq "full: perf script samples" "${kept:-?}" "$(perf script -i "$TMP/f.data" -F period 2>/dev/null | wc -l)"
run_c2c 0 "$TMP/fr.txt" "$TMP/fr.err" report -i "$TMP/f.data" --stdio --no-attrib
expect_eq "full: c2cscope report samples" "${kept:-?}" \
	"$(sed -n 's/^ *Total records *: *\([0-9]*\)$/\1/p' "$TMP/fr.txt")"
expect_not_contains "full: --max-size not blamed" "reached --max-size" "$TMP/f.err"
periods=$(perf script -i "$TMP/f.data" -F period,data_src 2>/dev/null |
	awk '/HitM/ { print $1 }' | sort -u | tr '\n' ' ')
expect_eq "full: HITM sample periods" "1 " "$periods"
finish
