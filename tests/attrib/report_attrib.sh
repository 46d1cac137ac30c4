#!/usr/bin/env bash
# Field attribution in the report without the simulator, on generated
# files: the --stats reasons add up to the sample count; --no-attrib gives
# perf's columns only, and the attributed report is the same plus the
# Objects/Field columns; when the mapped object is missing, one warning and
# the same numbers.
source "$TOP_SRCDIR/tests/lib.sh"
GEN="$TOP_BUILDDIR/tests/c2c/gen_c2c_data"
[ -x "$GEN" ] || skip "gen_c2c_data not built"

"$GEN" -n 20000 -l 200 -P "$TMP/mix.data" || fail "generator failed"
run_c2c 0 "$TMP/stats" "$TMP/stats.err" report -i "$TMP/mix.data" --stats
samples=$(sed -n 's/^  Samples *: *\([0-9]*\)$/\1/p' "$TMP/stats")
expect_eq "Samples" 20000 "$samples"
expect_eq "reasons add up to Samples" "$samples" "$(sed -n '/Field attribution/,$p' "$TMP/stats" |
	awk -F: '/^  [a-z-]+ +:/ { n += $2 } END { print n + 0 }')"
expect_eq "the generator's own binary has debug info" \
	"  Objects with debug info           :          1" "$(grep 'Objects with debug info' "$TMP/stats")"

run_c2c 0 "$TMP/plain" "$TMP/plain.err" report -i "$TMP/mix.data" --stdio --no-attrib
run_c2c 0 "$TMP/attr" "$TMP/attr.err" report -i "$TMP/mix.data" --stdio
grep -qE ' (Field|Objects) *$' "$TMP/plain" && fail "--no-attrib still has attribution columns" || ok
expect_eq "Field columns, one per Pareto table" \
	"$(grep -c '^  Line ' "$TMP/attr")" "$(grep -cE ' Rmt .* Field *$' "$TMP/attr")"
# cut the attribution columns (and c2cscope's own Store Contention
# section, which --no-attrib, perf's report, leaves out): what is left is
# the plain report
cut_attrib() {
	sed '/Store Contention (c2cscope)/,$d' "$1" |
		awk '/^$|^  Line / { p = 0 }
	     / (Objects|Field) *$/ && / (Num|Rmt) / { p = match($0, / (Objects|Field) *$/) }
	     p { l = substr($0, 1, p - 1); sub(/ +$/, "", l); print l; next }
	     { print }' | sed 's/ *$//; s/=*$//'
}
expect_eq "attributed report = plain report + columns" "$(cut_attrib "$TMP/plain")" \
	"$(cut_attrib "$TMP/attr")"
expect_not_contains "--no-attrib: no section of ours" "Store Contention" "$TMP/plain"
# the data lives in [heap]: rows name the mapping when nothing else resolves
grep -qE ' \[heap\]\+0x[0-9a-f]+ *$' "$TMP/attr" && ok || fail "no [heap]+0x.. field"

# the object file missing (same-length path): one warning, the same numbers
LC_ALL=C sed 's|tests/c2c/gen_c2c_data|tests/c2c/gen_c2c_dat0|g' "$TMP/mix.data" >"$TMP/gone.data"
run_c2c 0 "$TMP/gone" "$TMP/gone.err" report -i "$TMP/gone.data" --stdio
expect_eq "one warning" 1 "$(grep -c 'field attribution' "$TMP/gone.err")"
expect_contains "the warning names the file" "gen_c2c_dat0: object file not found" "$TMP/gone.err"
# (symbols go with the file: compare the summaries and the line table)
tables() { cut_attrib "$1" | sed -n '1,/Shared Cache Line Distribution Pareto/p'; }
expect_eq "missing object: same summaries and line table" "$(tables "$TMP/plain")" \
	"$(tables "$TMP/gone")"
run_c2c 0 "$TMP/gstats" "$TMP/gstats.err" report -i "$TMP/gone.data" --stats
expect_eq "missing object: samples counted as no-debuginfo" \
	"  no-debuginfo                      :      20000" "$(grep 'no-debuginfo' "$TMP/gstats")"
finish
