#!/usr/bin/env bash
# Runs every fuzz target (or those named) for SECONDS each, one at a time:
#   run.sh BUILDDIR SRCDIR SECONDS [TARGET...]
# Each target starts from BUILDDIR/tests/fuzz/corpus/TARGET (new inputs
# go there) and the seeds, with its dictionary; crashes are written to
# BUILDDIR/tests/fuzz/artifacts/ and make the run fail. The last lines of
# each run (-print_final_stats=1) go to BUILDDIR/tests/fuzz/TARGET.log.
# FUZZ_SEED fixes libFuzzer's seed (CI: 1). That makes runs alike, not
# identical: what a run explores still depends on how many inputs its time
# allowed and on the timing of its corpus updates (two seed-1 runs of
# fuzz_dwarf met different inputs in this project's history).
set -uo pipefail
build=$1 src=$2 secs=$3
shift 3
dir="$build/tests/fuzz"
targets=("$@")
[ ${#targets[@]} -gt 0 ] ||
	targets=(perf_file perf_pipe btf dwarf rules baseline hotness srcstruct sim_stream record_event)
declare -A dict=([perf_file]=perf [perf_pipe]=perf [btf]=btf [dwarf]=elf [rules]=rules
	[baseline]=json [hotness]=hotness [srcstruct]=srcstruct [sim_stream]=sim
	[record_event]=record)
rc=0
mkdir -p "$dir/artifacts"
export ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
for t in "${targets[@]}"; do
	bin="$dir/fuzz_$t"
	[ -x "$bin" ] || { echo "run.sh: $bin not built (make fuzz)" >&2; rc=1; continue; }
	mkdir -p "$dir/corpus/$t" "$dir/seeds/$t"
	"$bin" -max_total_time="$secs" ${FUZZ_SEED:+-seed="$FUZZ_SEED"} -print_final_stats=1 -max_len=65536 -rss_limit_mb=2048 \
		-timeout=20 -dict="$src/tests/fuzz/dict/${dict[$t]}.dict" \
		-artifact_prefix="$dir/artifacts/$t-" "$dir/corpus/$t" "$dir/seeds/$t" \
		>"$dir/$t.log" 2>&1
	status=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/$t.log")
	cov=$(grep -o 'cov: [0-9]*' "$dir/$t.log" | tail -1)
	echo "fuzz_$t: ${secs} s, ${execs:-?} runs, ${cov:-cov: ?}, exit $status"
	if [ $status -ne 0 ]; then
		rc=1
		grep -m1 -A12 -E 'ERROR: |runtime error|deadly signal' "$dir/$t.log" | sed 's/^/    | /'
	fi
done
exit $rc
