#!/usr/bin/env bash
# c2cscope report against perf 6.1's perf c2c report on files from our
# generator (known mixes of HITM/L1/LFB/LLC/DRAM/store classes): the same
# Trace Event and Shared Cache Line figures, the same line table (every
# column), the same Pareto rows (every column, symbols and source lines
# included), for several displays and coalesce keys.
source "$TOP_SRCDIR/tests/lib.sh"
command -v perf >/dev/null || skip "perf not installed"
GEN="$TOP_BUILDDIR/tests/c2c/gen_c2c_data"

# The two summary sections: "label : value" lines before "c2c details".
summary() {
	sed -n '1,/c2c details/p' "$1" | grep -E '^  [A-Z][^:]*: ' | sed 's/ *$//'
}

# perf's line table rows (tokens), one per line.
perf_lines() {
	sed -n '/Shared Data Cache Line Table/,/Shared Cache Line Distribution Pareto/p' "$1" |
		grep -vE '^#|^=|Shared' | grep '0x' | tr -s ' ' | sed 's/^ //'
}

# Our tables end with field-attribution columns perf does not have
# ("Objects" in the line table, "Field" in the Pareto rows): each table's
# lines are cut where that last column starts, so every column perf prints
# is still compared; the column must be the last one.
strip_attrib() {
	awk '/^$|^  Line / { p = 0 }
	     / (Objects|Field) *$/ && / (Num|Rmt) / { p = match($0, / (Objects|Field) *$/) }
	     p { l = substr($0, 1, p - 1); sub(/ +$/, "", l); print l; next }
	     { print }'
}

ours_lines() {
	sed -n '/Shared Data Cache Line Table/,/Shared Cache Line Distribution Pareto/p' "$1" |
		strip_attrib | grep -vE '==|Shared' | grep '0x' | tr -s ' ' | sed 's/^ //'
}

# Pareto: per line "num rmt lcl l1hit l1miss na addr", then its rows.
perf_pareto() {
	sed -n '/Shared Cache Line Distribution Pareto/,$p' "$1" | grep -vE '^#|^ *-----|^$|Pareto|^=' |
		tr -s ' ' | sed 's/^ //; s/ $//'
}

# (up to c2cscope's own Store Contention section, which perf does not have)
ours_pareto() {
	sed -n '/Shared Cache Line Distribution Pareto/,$p' "$1" | sed '/Store Contention (c2cscope)/,$d' |
		strip_attrib | grep -vE '^$|Pareto|^=|==|Rmt|----|^  Writers: ' |
		sed -E 's/^  Line ([0-9]+)  (0x[0-9a-f]+)  (HITM|Peer): rmt ([0-9]+) lcl ([0-9]+)  Store refs: L1 hit ([0-9]+), L1 miss ([0-9]+), N\/A ([0-9]+)$/\1 \4 \5 \6 \7 \8 \2/' |
		tr -s ' ' | sed 's/^ //; s/ $//'
}

# compare NAME FILE ARGS...: run both tools with ARGS on FILE, compare all
compare() {
	local name=$1 file=$2
	shift 2
	if ! perf c2c report -i "$file" --stdio "$@" >"$TMP/$name.perf" 2>"$TMP/$name.perf.err"; then
		fail "$name: perf c2c report $* failed"
		return
	fi
	run_c2c 0 "$TMP/$name.ours" "$TMP/$name.err" report -i "$file" --stdio "$@"
	expect_eq "$name: summary sections" "$(summary "$TMP/$name.perf")" "$(summary "$TMP/$name.ours")"
	expect_eq "$name: line table" "$(perf_lines "$TMP/$name.perf")" "$(ours_lines "$TMP/$name.ours")"
	expect_eq "$name: pareto" "$(perf_pareto "$TMP/$name.perf")" "$(ours_pareto "$TMP/$name.ours")"
	# a test that compares nothing passes nothing
	[ -n "$(perf_lines "$TMP/$name.perf")" ] || fail "$name: perf showed no lines"
}

"$GEN" -n 20000 -l 200 -P "$TMP/mix.data" || fail "generator failed"
compare tot "$TMP/mix.data"
compare rmt "$TMP/mix.data" -d rmt
compare lcl "$TMP/mix.data" -d lcl
compare peer "$TMP/mix.data" -d peer
compare tid "$TMP/mix.data" -c tid,iaddr
compare pid "$TMP/mix.data" -c pid
compare dso "$TMP/mix.data" -c dso

# more lines, no physical addresses, FINISHED_ROUND records, another seed
"$GEN" -n 30000 -l 3000 -s 7 -q "$TMP/many.data" || fail "generator failed"
compare many "$TMP/many.data"
compare many_all "$TMP/many.data" --show-all
compare many_nosrc "$TMP/many.data" --no-source

# records out of time order (pairs swapped inside FINISHED_ROUND rounds):
# PA cnt and first-sample columns depend on perf's ordering
"$GEN" -n 20000 -l 100 -P -q -x "$TMP/swapped.data" || fail "generator failed"
compare swapped "$TMP/swapped.data"
expect_contains "second, ordered pass said so" "not in time order" "$TMP/swapped.err"

# the top line's HITM counts through JSON too
run_c2c 0 "$TMP/j.json" "$TMP/j.err" report -i "$TMP/mix.data" --json -
top_perf=$(perf_lines "$TMP/tot.perf" | head -1 | awk '{print $7, $8}')
top_json=$(python3 -c 'import json,sys; l=json.load(open(sys.argv[1]))["lines"][0]["stats"]; print(l["lcl_hitm"], l["rmt_hitm"])' "$TMP/j.json")
expect_eq "JSON top line lcl/rmt HITM" "$top_perf" "$top_json"
finish
