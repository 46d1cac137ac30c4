#!/usr/bin/env bash
# The reader streams: reading an 88 MB file (1,000,000 samples) keeps the
# peak RSS far below the file's size (mapped pages are released behind).
source "$TOP_SRCDIR/tests/lib.sh"
GEN="$TOP_BUILDDIR/tests/perf/perf_gen"
DUMP="$TOP_BUILDDIR/tests/perf/perf_dump"

"$GEN" -n 1000000 -e 2 "$TMP/big.data" || fail "perf_gen"
"$DUMP" -m -H "$TMP/big.data" >"$TMP/hdr" 2>"$TMP/err"
expect_contains "all samples" "samples: 1000000" "$TMP/hdr"
rss=$(sed -n 's/^peak_rss_kb //p' "$TMP/err")
size_kb=$(($(stat -c %s "$TMP/big.data") / 1024))
if [ "$rss" = -1 ]; then
	echo "peak RSS not measured under AddressSanitizer"
elif [ "$rss" -lt $((size_kb / 4)) ]; then
	echo "peak RSS ${rss} kB for a ${size_kb} kB file"
	ok
else
	fail "peak RSS ${rss} kB for a ${size_kb} kB file: not streaming"
fi
finish
