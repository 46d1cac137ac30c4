#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# `c2cscope layout` prints exactly pahole 1.24's text for every struct and
# union of the C corpus, compiled by gcc (DWARF 4 and 5) and clang, at -O0
# and -O2. Known pahole bugs are listed, with the compiler's proof, in
# tests/layout/pahole-exceptions.txt and doc/pahole-differences.md.
source "$TOP_SRCDIR/tests/lib.sh"

command -v pahole >/dev/null || skip "pahole (dwarves) not installed"
corpus=$TOP_SRCDIR/tests/corpus
exceptions=$TOP_SRCDIR/tests/layout/pahole-exceptions.txt
configs=("gcc -gdwarf-4 -O0" "gcc -gdwarf-5 -O2" "gcc -gdwarf-5 -O0" "gcc -gdwarf-4 -O2")
command -v clang >/dev/null && configs+=("clang -gdwarf-4 -O0" "clang -gdwarf-5 -O2")

for cfg in "${configs[@]}"; do
	read -r cc dwarf opt <<<"$cfg"
	for src in "$corpus"/*.c; do
		name=$(basename "$src" .c)
		obj=$TMP/$name-$cc$dwarf$opt.o
		$cc $dwarf $opt -c -o "$obj" "$src" || { fail "$cfg: cannot compile $src"; continue; }
		# clang nests anonymous types' DIEs in the struct's: pahole then also
		# prints their definitions inside it, unless told -M (members only).
		pargs=
		[ "$cc" = clang ] && pargs=--show_only_data_members
		pahole $pargs "$obj" >"$TMP/want" 2>"$TMP/want.err"
		run_c2c 0 "$TMP/got" "$TMP/got.err" layout "$obj"
		expect_eq "$cfg $name: stderr" "" "$(cat "$TMP/got.err")"
		if python3 "$TOP_SRCDIR/tests/layout/pahole_split.py" "$TMP/want" "$TMP/got" \
			"$exceptions" "$cfg $name" >"$TMP/cmp"; then
			ok
		else
			fail "$(cat "$TMP/cmp")"
		fi
	done
done
finish
