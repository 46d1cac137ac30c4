#!/usr/bin/env bash
# Every corpus struct, compiled by gcc (DWARF 4 and 5) and clang at -O0 and
# -O2, as a relocatable object and as a linked program: the DWARF loader's
# sizes, offsets, bit offsets and alignments must equal what the compiler
# says through offsetof/sizeof/_Alignof (dump_types --assert writes the
# checking program).
source "$TOP_SRCDIR/tests/lib.sh"

DUMP="$TOP_BUILDDIR/tests/types/dump_types"
[ -x "$DUMP" ] || skip "dump_types not built"
compilers=("gcc -gdwarf-4" "gcc -gdwarf-5")
command -v clang >/dev/null && compilers+=("clang -gdwarf-4" "clang -gdwarf-5")

check_one() { # SRC OBJ COMPILER...
	local src=$1 obj=$2 out
	shift 2
	if ! "$DUMP" --assert "$src" "$obj" >"$TMP/check.c" 2>"$TMP/err"; then
		fail "dump_types --assert $obj ($*): $(cat "$TMP/err")"
		return
	fi
	if ! $* -w -o "$TMP/check" "$TMP/check.c" 2>"$TMP/err"; then
		fail "checker for $src ($*) does not compile: $(head -5 "$TMP/err")"
		return
	fi
	if out=$("$TMP/check"); then
		ok
	else
		fail "$src with $*: $out"
	fi
}

n=0
for src in "$TOP_SRCDIR"/tests/corpus/*.c; do
	for cc in "${compilers[@]}"; do
		for opt in -O0 -O2; do
			$cc $opt -c -o "$TMP/obj.o" "$src" || { fail "cannot compile $src"; continue; }
			check_one "$src" "$TMP/obj.o" $cc $opt
			n=$((n + 1))
		done
	done
	# A linked program (ET_EXEC/ET_DYN rather than ET_REL).
	echo 'int main(void) { return 0; }' >"$TMP/main.c"
	gcc -gdwarf-5 -O2 -o "$TMP/prog" "$src" "$TMP/main.c" && check_one "$src" "$TMP/prog" gcc -gdwarf-5
done
[ "$n" -ge 24 ] || fail "only $n corpus builds"
finish
