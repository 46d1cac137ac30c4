#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Every offset, size and alignment `c2cscope layout --format json` reports
# for the corpus is proven by offsetof/sizeof/_Alignof assertions compiled
# with the same compiler that produced the object; the JSON parses back.
# Each named struct's declaration site is the source's line that opens it
# (clang's DWARF 5 names the unit's own file as index 0, which libdw 0.188
# takes for "no file").
source "$TOP_SRCDIR/tests/lib.sh"

corpus=$TOP_SRCDIR/tests/corpus
configs=("gcc -gdwarf-4 -O0" "gcc -gdwarf-5 -O2")
command -v clang >/dev/null && configs+=("clang -gdwarf-5 -O0" "clang -gdwarf-4 -O2")

for cfg in "${configs[@]}"; do
	read -r cc dwarf opt <<<"$cfg"
	for src in "$corpus"/*.c; do
		name=$(basename "$src" .c)
		obj=$TMP/$name.o
		# from $TMP: clang then gives the unit's own file the index 0
		(cd "$TMP" && $cc $dwarf $opt -c -o "$obj" "$src") ||
			{ fail "$cfg: cannot compile $src"; continue; }
		run_c2c 0 "$TMP/j" "$TMP/err" layout --format json --cacheline-size 64 "$obj"
		if ! python3 -m json.tool "$TMP/j" >/dev/null; then
			fail "$cfg $name: JSON does not parse back"
			continue
		fi
		if ! python3 "$TOP_SRCDIR/tests/layout/json_proof.py" "$TMP/j" "$src" \
			>"$TMP/proof.c" 2>"$TMP/proof.err"; then
			fail "$cfg $name: $(cat "$TMP/proof.err")"
			continue
		fi
		expect_eq "$cfg $name: structs proven" yes \
			"$(grep -q 'sizeof(' "$TMP/proof.c" && echo yes)"
		if $cc -fsyntax-only -w "$TMP/proof.c" 2>"$TMP/cc.err"; then
			ok
		else
			fail "$cfg $name: the compiler disagrees: $(head -5 "$TMP/cc.err")"
		fi
		python3 - "$TMP/j" "$src" <<'PY' && ok || fail "$cfg $name: declaration sites"
import json, sys
src, lines = sys.argv[2], open(sys.argv[2]).read().split("\n")
bad = [s["name"] for s in json.load(open(sys.argv[1]))["structs"] if s["name"] and
       (s["decl_file"] != src or not 0 < s["decl_line"] <= len(lines) or
        "%s %s" % (s["kind"], s["name"]) not in lines[s["decl_line"] - 1])]
bad and print("wrong or missing declaration sites: %s" % ", ".join(bad[:5]), file=sys.stderr)
sys.exit(bool(bad))
PY
	done
done
finish
