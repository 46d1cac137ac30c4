#!/usr/bin/env bash
# Seed corpora for the fuzz targets, from the test fixtures (run by
# `make fuzz` from the build folder):  seeds.sh SRCDIR BUILDDIR
# BUILDDIR/tests/fuzz/seeds/TARGET/ gets the committed seeds
# (tests/fuzz/corpus/TARGET) plus binary seeds made here: perf.data from
# perf_gen (every sample layout), perf inject (pipe mode) and perf record
# (-z: zstd records), objects compiled from tests/corpus (DWARF), their
# BTF (pahole -J), and c2csim streams (when Valgrind and c2csim are
# built). A generator that is missing only leaves its seeds out.
set -uo pipefail
src=$1 build=$2
out="$build/tests/fuzz/seeds"
gen="$build/tests/perf/perf_gen"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for t in perf_file perf_pipe btf dwarf rules baseline hotness srcstruct sim_stream record_event; do
	mkdir -p "$out/$t"
	[ -d "$src/tests/fuzz/corpus/$t" ] && cp "$src/tests/fuzz/corpus/$t"/* "$out/$t/" 2>/dev/null
done

# perf.data: small files of every sample layout the writer knows
i=0
for flags in "" "-e 1" "-g" "-r" "-R" "-b" "-B" "-u" "-I" "-g -r -R -B -u -I"; do
	# shellcheck disable=SC2086
	"$gen" -n 6 $flags "$out/perf_file/gen$i.data" 2>/dev/null
	i=$((i + 1))
done
"$gen" -M -n 40 -l 4 -P "$out/perf_file/mix.data" 2>/dev/null
"$gen" -n 6 -c 200 "$out/perf_file/checkpoints.data" 2>/dev/null
"$build/tests/perf/perf_swap" "$out/perf_file/gen0.data" "$out/perf_file/swapped.data" 2>/dev/null
if command -v perf >/dev/null; then
	for f in gen0 gen2 mix; do
		perf inject -i "$out/perf_file/$f.data" -o - >"$out/perf_pipe/$f.pipe" 2>/dev/null ||
			rm -f "$out/perf_pipe/$f.pipe"
	done
	# perf record -z: COMPRESSED (zstd) records, in a file and in a pipe
	if perf record -q -z -o "$tmp/z.data" -e cpu-clock -c 200000 -- true >/dev/null 2>&1; then
		head -c 65536 "$tmp/z.data" >"$out/perf_file/zstd.data"
		perf record -q -z -o - -e cpu-clock -c 200000 -- true 2>/dev/null |
			head -c 65536 >"$out/perf_pipe/zstd.pipe"
	fi
	cp "$out/perf_pipe"/*.pipe "$out/perf_file/" 2>/dev/null
fi

# DWARF objects and their BTF
for c in "$src"/tests/corpus/*.c "$src/tests/check/gate_demo.c" "$src/tests/suggest/task_group.c"; do
	b=$(basename "$c" .c)
	${CC:-gcc} -g -c -o "$out/dwarf/$b.o" "$c" 2>/dev/null || continue
	[ "$(stat -c %s "$out/dwarf/$b.o")" -le 65536 ] || rm -f "$out/dwarf/$b.o"
	cp "$out/dwarf/$b.o" "$tmp/$b.o" 2>/dev/null || continue
	if command -v pahole >/dev/null && pahole -J "$tmp/$b.o" 2>/dev/null; then
		objcopy --dump-section .BTF="$out/btf/$b.btf" "$tmp/$b.o" 2>/dev/null
	fi
done

# text seeds: the suite's fixtures
cp "$src"/tests/suggest/patch/*.hot "$src/tests/suggest/task_group.hot" "$out/hotness/"
cp "$src"/tests/suggest/patch/*.c "$src/tests/suggest/task_group.c" "$src"/tests/corpus/*.c "$out/srcstruct/"
for o in "$out"/dwarf/gate_demo.o "$out"/dwarf/misc.o; do
	[ -e "$o" ] && "$build/c2cscope/c2cscope" layout --format json "$o" \
		>"$out/baseline/$(basename "$o" .o).json" 2>/dev/null
done

# c2csim streams: the first 16 KiB of a recorded one (a cut stream is valid)
lib="$build/plugins/valgrind/lib"
if [ -x "$lib/c2csim-amd64-linux" ] && command -v valgrind >/dev/null; then
	for p in truecount lockword; do
		: >"$tmp/$p.sim" # the tool opens what exists (record gives it a fifo)
		VALGRIND_LIB=$lib valgrind -q --tool=c2csim --sim-out="$tmp/$p.sim" \
			"$build/samples/false-sharing/$p" >/dev/null 2>&1 || continue
		# the first byte says where the target splits the stream
		{ printf '\x80'; head -c 16384 "$tmp/$p.sim"; } >"$out/sim_stream/$p.sim"
	done
fi
for t in "$out"/*; do
	echo "  SEEDS    $(basename "$t"): $(find "$t" -type f | wc -l)"
done
