#!/usr/bin/env bash
# No recorded data lost: a file size limit (ulimit -f), a full disk (a small
# tmpfs) and a SIGKILL mid-run each leave a perf.data that c2cscope report,
# perf script and perf c2c report read, with as many samples as the
# recorder said it kept.
source "$TOP_SRCDIR/tests/lib.sh"
command -v perf >/dev/null || skip "perf not installed"
GEN="$TOP_BUILDDIR/tests/perf/perf_gen"

# gen_expect WANT_RC ERRFILE ARGS...: run perf_gen, check its exit status
gen_expect() {
	local want=$1 errf=$2 rc
	shift 2
	"$GEN" "$@" 2>"$errf"
	rc=$?
	expect_eq "perf_gen $* exit status" "$want" "$rc"
}

# kept_of ERRFILE: the samples perf_gen said the cut file keeps
kept_of() {
	sed -n 's/^perf_gen: kept \([0-9]*\) samples$/\1/p' "$1"
}

# c2c_records FILE: "Total records" of c2cscope report
c2c_records() {
	run_c2c 0 "$TMP/report.out" "$TMP/report.err" report --stdio -i "$1"
	sed -n 's/^ *Total records *: *\([0-9]*\)$/\1/p' "$TMP/report.out"
}

# perf_samples FILE: samples perf script prints (its stderr must be empty)
perf_samples() {
	perf script -i "$1" -F event,tid,time 2>"$TMP/perf.err" | wc -l
	[ -s "$TMP/perf.err" ] && fail "perf script $1 wrote on stderr: $(head -3 "$TMP/perf.err")"
}

# perf_c2c_records FILE: "Total records" of perf c2c report
perf_c2c_records() {
	perf c2c report --stdio -i "$1" 2>/dev/null | sed -n 's/^ *Total records *: *\([0-9]*\)$/\1/p'
}

# check_cut NAME FILE ERRFILE: the cut file holds what the writer said
check_cut() {
	local name=$1 f=$2 errf=$3 kept
	kept=$(kept_of "$errf")
	if [ -z "$kept" ] || [ "$kept" -eq 0 ]; then
		fail "$name: no 'kept N samples' line:"
		sed 's/^/    | /' "$errf" >&2
		return
	fi
	ok
	expect_contains "$name: the warning names the cause" "data cut after the last whole record" "$errf"
	expect_eq "$name: samples perf script reads" "$kept" "$(perf_samples "$f")"
	expect_eq "$name: samples c2cscope report reads" "$kept" "$(c2c_records "$f")"
	expect_eq "$name: perf c2c report's records" "$kept" "$(perf_c2c_records "$f")"
	expect_not_contains "$name: a closed file" "did not close" "$TMP/report.err"
}

# 1. ulimit -f: EFBIG, not SIGXFSZ (exit 153); the file stays within the limit
(
	ulimit -f 200
	"$GEN" -n 100000 "$TMP/limit.data" 2>"$TMP/limit.err"
	echo $? >"$TMP/limit.rc"
)
expect_eq "ulimit -f: exit status" 1 "$(cat "$TMP/limit.rc")"
expect_contains "ulimit -f: EFBIG" "File too large" "$TMP/limit.err"
size=$(stat -c %s "$TMP/limit.data")
[ "$size" -le $((200 * 1024)) ] && ok || fail "ulimit -f: file of $size bytes over the limit"
check_cut "ulimit -f" "$TMP/limit.data" "$TMP/limit.err"

# 2. a full disk: a tmpfs of 1 MiB (needs root, as in CI)
if [ "$(id -u)" -ne 0 ]; then
	echo "no_data_lost: tmpfs part skipped: not root (cannot mount)"
elif ! mkdir -p "$TMP/mnt" || ! mount -t tmpfs -o size=1m c2c-test "$TMP/mnt" 2>"$TMP/mount.err"; then
	echo "no_data_lost: tmpfs part skipped: mount failed: $(cat "$TMP/mount.err")"
else
	trap 'umount "$TMP/mnt" 2>/dev/null; rm -rf "$TMP"' EXIT
	gen_expect 1 "$TMP/full.err" -n 100000 "$TMP/mnt/full.data"
	expect_contains "tmpfs: ENOSPC" "No space left on device" "$TMP/full.err"
	check_cut "tmpfs" "$TMP/mnt/full.data" "$TMP/full.err"
	# a disk too full for even the header: an error, exit 2, no lie
	rm -f "$TMP/mnt/full.data"
	for _ in 1 2 3 4 5; do # until no block is left (freed pages may come back late)
		dd if=/dev/zero of="$TMP/mnt/fill" bs=4k oflag=append conv=notrunc 2>/dev/null
		[ "$(stat -f -c %a "$TMP/mnt")" -eq 0 ] && break
		sleep 0.2
	done
	if [ "$(stat -f -c %a "$TMP/mnt")" -eq 0 ]; then
		gen_expect 2 "$TMP/nospace.err" -n 100000 "$TMP/mnt/full.data"
		expect_contains "tmpfs full: says so" "cannot write header" "$TMP/nospace.err"
	else
		echo "no_data_lost: full-tmpfs check skipped: the tmpfs would not fill"
	fi
	umount "$TMP/mnt"
fi

# 3. SIGKILL mid-run: readable up to the last checkpoint (every 100000 bytes;
# the writer flushes 256 KiB at a time, so at most ~350 KiB are lost)
"$GEN" -n 100000 -c 100000 -K 50000 "$TMP/killed.data" 2>/dev/null
expect_eq "SIGKILL: exit status" 137 "$?"
n=$(perf_samples "$TMP/killed.data")
expect_eq "SIGKILL: c2cscope report and perf script agree" "$n" "$(c2c_records "$TMP/killed.data")"
expect_contains "SIGKILL: report says the file was not closed" "did not close this file" "$TMP/report.err"
# a pattern sample is 88 bytes: 50000 were given, the last 350 KiB may be lost
[ "$n" -le 50000 ] && [ "$n" -ge $((50000 - 350 * 1024 / 88)) ] && ok ||
	fail "SIGKILL: $n samples read, expected 45927..50000"
# killed before the first checkpoint: readable, no samples, said so
"$GEN" -n 100000 -K 10 "$TMP/early.data" 2>/dev/null
# (perf warns that the data size is 0, which is true)
expect_eq "early SIGKILL: perf script samples" 0 "$(perf script -i "$TMP/early.data" 2>/dev/null | wc -l)"
run_c2c 0 "$TMP/early.out" "$TMP/early.err" report --stdio -i "$TMP/early.data"
expect_contains "early SIGKILL: not closed" "did not close this file" "$TMP/early.err"
# the checkpoint records inside a closed file change nothing for perf
gen_expect 0 "$TMP/ck.err" -n 20000 -c 50000 "$TMP/ck.data"
expect_eq "checkpointed file: perf script samples" 20000 "$(perf_samples "$TMP/ck.data")"
expect_eq "checkpointed file: c2cscope samples" 20000 "$(c2c_records "$TMP/ck.data")"
expect_eq "checkpointed file: perf c2c report's records" 20000 "$(perf_c2c_records "$TMP/ck.data")"
expect_not_contains "checkpointed file: closed" "did not close" "$TMP/report.err"

# limited_record NAME KB OUT -- RECORD ARGS: c2cscope record under ulimit -f
# KB exits 1, names the cause, and the file holds the samples it says
limited_record() {
	local name=$1 kb=$2 out=$3 kept
	shift 4
	(
		ulimit -f "$kb"
		"$C2CSCOPE" record -o "$out" "$@" >/dev/null 2>"$out.err"
		echo $? >"$out.rc"
	)
	expect_eq "$name, ulimit -f: exit status" 1 "$(cat "$out.rc")"
	expect_contains "$name: the warning names the cause" "File too large" "$out.err"
	kept=$(sed -n 's/.* holds the first \([0-9]*\) of the [0-9]* samples.*/\1/p' "$out.err")
	[ -n "$kept" ] && [ "$kept" -gt 0 ] && ok ||
		fail "$name: no 'holds the first N' line: $(cat "$out.err")"
	expect_eq "$name: perf script samples" "${kept:-?}" "$(perf_samples "$out")"
	expect_eq "$name: c2cscope samples" "${kept:-?}" "$(c2c_records "$out")"
}

# 4. record --sim under a file size limit
source "$TOP_SRCDIR/tests/sim/common.sh"
if [ -x "${C2CSIM_LIB:-}/c2csim-amd64-linux" ] && command -v valgrind >/dev/null; then
	limited_record "record --sim" 300 "$TMP/sim.data" -- --sim -- "$SAMPLES/truecount"
else
	echo "no_data_lost: record --sim part skipped: c2csim not built or no valgrind"
fi

# 5. the PMU recorder (a software event) under a file size limit: the same
if "$C2CSCOPE" record -e page-faults -c 100000 -o "$TMP/probe.data" -- true >/dev/null 2>&1; then
	limited_record "record -e page-faults" 100 "$TMP/pmu.data" -- -e page-faults -c 1 -- \
		python3 -c "bytearray(64 << 20)"
else
	echo "no_data_lost: PMU recorder part skipped: perf_event_open refused here"
fi

# 6. watch --record (the hits of two fields, written at the end): the same
compile "$TMP/pair" "$TOP_SRCDIR/tests/watch/pair.c" -O1 -g -pthread || finish
if "$C2CSCOPE" watch -e counters.a -- "$TMP/pair" 10 >/dev/null 2>&1; then
	(
		ulimit -f 200
		"$C2CSCOPE" watch -e counters.a -e counters.b --record "$TMP/watch.data" -- \
			"$TMP/pair" 5000 >/dev/null 2>"$TMP/watch.err"
		echo $? >"$TMP/watch.rc"
	)
	expect_eq "watch --record, ulimit -f: exit status" 1 "$(cat "$TMP/watch.rc")"
	kept=$(sed -n 's/.*: kept \([0-9]*\) samples .*/\1/p' "$TMP/watch.err")
	[ -n "$kept" ] && [ "$kept" -gt 0 ] && ok ||
		fail "watch --record: no 'kept N samples': $(cat "$TMP/watch.err")"
	expect_eq "watch --record: perf script samples" "${kept:-?}" \
		"$(perf_samples "$TMP/watch.data")"
	expect_eq "watch --record: c2cscope samples" "${kept:-?}" "$(c2c_records "$TMP/watch.data")"
else
	echo "no_data_lost: watch part skipped: watch cannot run here"
fi
finish
