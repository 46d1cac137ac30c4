#!/usr/bin/env bash
# The optimisation-level corpus: tests/attrib/levels.c built at -O0, -Og,
# -O1, -O2 and -O3 with gcc and clang, recorded under record --sim, reported. Every
# sample on the program's heap structs is scored against the compiler's
# own offsetof/sizeof, which the program prints (tests/attrib/levels_truth.py):
# at every level >= 95% of the samples are named to the right field, none
# to a wrong one. The counts are pinned (samples and distinct code
# addresses: total right wrong unnamed), so that any change shows; c2csim
# is deterministic, so they move only with the code the compilers emit (a
# new compiler: check the -v listing, then update the pins), with c2csim's
# fast path (its bounded approximation moved a few sampled loads at -O0
# when lines became fast again after changing hands) and with where
# c2csim's allocator places the blocks (it replaces the program's: rows of
# main's stores are named through their block, w[2].id, judged by it).
source "$TOP_SRCDIR/tests/lib.sh"
source "$TOP_SRCDIR/tests/sim/common.sh"
sim_require
command -v python3 >/dev/null || skip "python3 (reads the report's JSON) is missing"

declare -A pin=(
	[gcc-O0]="samples 52908 52908 0 0|sites 20 20 0 0"
	[gcc-Og]="samples 51796 51796 0 0|sites 21 21 0 0"
	[gcc-O1]="samples 49293 49293 0 0|sites 20 20 0 0"
	[gcc-O2]="samples 42955 42955 0 0|sites 17 17 0 0"
	[gcc-O3]="samples 42955 42955 0 0|sites 17 17 0 0"
	[clang-O0]="samples 46899 46899 0 0|sites 19 19 0 0"
	[clang-Og]="samples 53816 53816 0 0|sites 15 15 0 0"
	[clang-O1]="samples 53816 53816 0 0|sites 15 15 0 0"
	[clang-O2]="samples 50997 50997 0 0|sites 18 18 0 0"
	[clang-O3]="samples 52835 52835 0 0|sites 18 18 0 0"
)

# level CC OPT: build, record, report, score one build
level() {
	local name=$1$2 prog=$TMP/levels$1$2 total right wrong unnamed
	command -v "$1" >/dev/null || { echo "$name: no $1, not checked"; return; }
	"$1" -g "$2" -pthread -o "$prog" "$TOP_SRCDIR/tests/attrib/levels.c" ||
		{ fail "$name: cannot compile levels.c"; return; }
	run_c2c 0 "$TMP/$name.out" "$TMP/$name.rec" record --sim --sim-cpus 4 --sim-nodes 2 \
		-o "$TMP/$name.data" -- "$prog" 2000
	run_c2c 0 "$TMP/$name.txt" "$TMP/$name.err" report -i "$TMP/$name.data" --show-all \
		--json "$TMP/$name.json"
	python3 "$TOP_SRCDIR/tests/attrib/levels_truth.py" "$TMP/$name.out" "$TMP/$name.json" \
		"$(basename "$prog")" -v >"$TMP/$name.score" ||
		{ fail "$name: cannot score the report"; return; }
	read -r _ total right wrong unnamed < <(grep '^samples ' "$TMP/$name.score")
	echo "$name: $(head -2 "$TMP/$name.score" | paste -sd' ')"
	[ "$total" -gt 1000 ] && ok || fail "$name: only $total samples on the structs"
	expect_eq "$name: samples named to a wrong field" 0 "$wrong"
	[ $((right * 100)) -ge $((total * 95)) ] && ok ||
		fail "$name: $right of $total samples named right, want >= 95%"
	expect_eq "$name: the pinned counts" "${pin[$name]}" "$(head -2 "$TMP/$name.score" | paste -sd'|')"
	grep -v '^right' "$TMP/$name.score" | sed -n '3,$p' | head -20 | sed "s/^/$name: /"
}

for cc in gcc clang; do
	for opt in -O0 -Og -O1 -O2 -O3; do
		level "$cc" "$opt"
	done
done

# -O0 is what the stack-slot tracking is for: --stats says so too
run_c2c 0 "$TMP/stats" "$TMP/stats.err" report -i "$TMP/gcc-O0.data" --stats
ok_n=$(sed -n 's/^  ok *: *\([0-9]*\)$/\1/p' "$TMP/stats")
novar=$(sed -n 's/^  no-variable *: *\([0-9]*\)$/\1/p' "$TMP/stats")
[ "${ok_n:-0}" -gt $((${novar:-0} * 10)) ] && ok ||
	fail "gcc -O0 --stats: ok ${ok_n:-?}, no-variable ${novar:-?}: the tracker lost the slots"
finish
