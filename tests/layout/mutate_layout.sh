#!/usr/bin/env bash
# Robustness: seeded mutations of the type information `c2cscope layout`
# reads (.debug_info, .debug_abbrev, .debug_str of a gcc -g object; .BTF
# written by pahole -J; the ELF header), in each output mode. Every run
# must exit 0, 1 or 2, within 20 s, without a sanitizer report.
source "$TOP_SRCDIR/tests/lib.sh"
command -v python3 >/dev/null || skip "python3 not installed"
count=${MUTATE_COUNT:-60}
seed=${MUTATE_SEED:-1}
mutate() {
	python3 "$TOP_SRCDIR/tests/mutate.py" --seed "$seed" --count "$count" --keep "$TMP" \
		--ok 0,1,2 --opts="" --opts="-C ops" --opts="--format json" --opts="--expand" \
		--opts="--sizes" "$@"
}

compile "$TMP/misc.o" "$TOP_SRCDIR/tests/corpus/misc.c" -g -c || finish
mutate --sections .debug_info,.debug_abbrev,.debug_str "$TMP/misc.o" -- \
	"$C2CSCOPE" layout --dwarf "{opts}" "{file}" && ok || fail "DWARF: see above"
mutate --range 0:64 "$TMP/misc.o" -- "$C2CSCOPE" layout "{opts}" "{file}" &&
	ok || fail "ELF header: see above"
if command -v pahole >/dev/null && cp "$TMP/misc.o" "$TMP/misc_btf.o" &&
	pahole -J "$TMP/misc_btf.o" 2>/dev/null; then
	mutate --sections .BTF "$TMP/misc_btf.o" -- "$C2CSCOPE" layout --btf "{opts}" "{file}" &&
		ok || fail "BTF: see above"
fi
finish
