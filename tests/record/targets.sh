#!/usr/bin/env bash
# The other targets and refusals: -C 0 samples cpu 0 only; -t samples that
# thread only; a command killed by a signal gives 128 + its number; -p of
# no process, IBS asked to follow one thread (a fake AMD tree) and Arm SPE
# (a fake tree) are refused with exit 2 and no file.
. "$TOP_SRCDIR/tests/lib.sh"
. "$TOP_SRCDIR/tests/record/common.sh"
perf_require
record_require

if [ "$(id -u)" -eq 0 ] || [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -le 0 ]; then
	run_c2c 0 "$TMP/c.out" "$TMP/c.err" record -e cpu-clock -F 1000 -C 0 -o "$TMP/c.data" -- \
		sleep 0.3
	perf script -i "$TMP/c.data" -F cpu 2>/dev/null | tr -d ' []' | sed 's/^0*\(.\)/\1/' | sort -u >"$TMP/cpus"
	expect_eq "-C 0: the cpus of the samples" 0 "$(paste -sd, "$TMP/cpus")"
fi

sh -c 'while :; do :; done' &
spinner=$!
"$C2CSCOPE" record -e cpu-clock -F 1000 -t "$spinner" -o "$TMP/t.data" >"$TMP/t.out" 2>"$TMP/t.err" &
rec=$!
sleep 1
kill "$spinner"
wait "$rec"
expect_eq "-t ends when its thread does" 0 "$?"
perf script -i "$TMP/t.data" -F tid 2>/dev/null | tr -d ' ' | sort -u >"$TMP/tids"
expect_eq "-t: the tids of the samples" "$spinner" "$(paste -sd, "$TMP/tids")"

run_c2c 139 "$TMP/s.out" "$TMP/s.err" record -e page-faults -o "$TMP/s.data" -- \
	sh -c 'kill -SEGV $$'
run_c2c 2 "$TMP/p.out" "$TMP/p.err" record -e page-faults -p 999999999 -o "$TMP/p.data"
expect_contains "-p of no process" "no such process" "$TMP/p.err"

C2CSCOPE_SYSFS_ROOT="$SYSFS/amd" run_c2c 2 "$TMP/i.out" "$TMP/i.err" record -t $$ \
	-o "$TMP/i.data"
expect_contains "IBS cannot follow one thread" "-t: ibs_op// counts per cpu only and cannot follow one thread" "$TMP/i.err"
C2CSCOPE_SYSFS_ROOT="$SYSFS/arm" run_c2c 2 "$TMP/a.out" "$TMP/a.err" record -o "$TMP/a.data" -- true
expect_contains "SPE refused" "AUX area" "$TMP/a.err"
for f in p i a; do
	expect_eq "no $f.data left" no "$([ -e "$TMP/$f.data" ] && echo yes || echo no)"
done
finish
