#!/usr/bin/env bash
# Builds the libFuzzer targets (run by `make fuzz` from the build folder):
#   build.sh SRCDIR OUTDIR 'CPPFLAGS' 'LIBS' LIBRARY_SOURCES...
# The engine is compiled again with clang and coverage instrumentation
# (-fsanitize=fuzzer-no-link,address,undefined) into OUTDIR/obj; each
# tests/fuzz/fuzz_*.c links with it into OUTDIR/fuzz_*.
set -euo pipefail
srcdir=$1 out=$2 cppflags=$3 libs=$4
shift 4
cc=${FUZZ_CC:-clang-14}
command -v "$cc" >/dev/null || { echo "build.sh: $cc not found (apt-get install clang-14 libclang-rt-14-dev)" >&2; exit 1; }
san="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
cflags="-std=gnu11 -g -O1 -w $san"
mkdir -p "$out/obj"

# one object per library source, rebuilt when the source is newer
objs=()
todo=()
for src in "$@"; do
	obj="$out/obj/$(echo "$src" | tr / _).o"
	objs+=("$obj")
	if [ ! -e "$obj" ] || [ "$srcdir/$src" -nt "$obj" ] ||
		[ -n "$(find "$srcdir/src" -name '*.h' -newer "$obj" -print -quit)" ]; then
		todo+=("$src")
	fi
done
if [ ${#todo[@]} -gt 0 ]; then
	echo "  FUZZCC   ${#todo[@]} engine sources"
	printf '%s\n' "${todo[@]}" | xargs -P "${FUZZ_JOBS:-2}" -I{} sh -c \
		"$cc $cflags -fsanitize=fuzzer-no-link $cppflags -c '$srcdir/{}' -o '$out/obj/'\$(echo '{}' | tr / _).o"
fi
rm -f "$out/libfuzz.a"
ar cr "$out/libfuzz.a" "${objs[@]}"

for harness in "$srcdir"/tests/fuzz/fuzz_*.c; do
	name=$(basename "$harness" .c)
	echo "  FUZZLD   $name"
	# shellcheck disable=SC2086
	$cc $cflags -fsanitize=fuzzer $cppflags -I"$srcdir/tests/fuzz" "$harness" \
		"$out/libfuzz.a" $libs -o "$out/$name"
done
