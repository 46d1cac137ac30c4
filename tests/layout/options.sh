#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Options of `c2cscope layout`, against pahole where pahole has the same
# option (--hex, --expand/-E, --sizes, --holes/-H, -C lists and globs), and
# --groups on the corpus' kernel-style cache-line groups.
source "$TOP_SRCDIR/tests/lib.sh"

command -v pahole >/dev/null || skip "pahole (dwarves) not installed"
corpus=$TOP_SRCDIR/tests/corpus
for f in aligned bitfields kernel_like misc; do
	compile "$TMP/$f.o" "$corpus/$f.c" -c -g -O0
done

# same_as_pahole WHAT OBJ "PAHOLE ARGS" C2CSCOPE-ARGS...
same_as_pahole() {
	local what=$1 obj=$2 pargs=$3
	shift 3
	# shellcheck disable=SC2086
	pahole $pargs "$obj" >"$TMP/want" 2>/dev/null
	run_c2c 0 "$TMP/got" "$TMP/err" layout "$@" "$obj"
	if python3 "$TOP_SRCDIR/tests/layout/pahole_split.py" "$TMP/want" "$TMP/got" \
		"$TOP_SRCDIR/tests/layout/pahole-exceptions.txt" "$what" >"$TMP/cmp"; then
		ok
	else
		fail "$(cat "$TMP/cmp")"
	fi
}

same_as_pahole "hex" "$TMP/aligned.o" "--hex" --hex
same_as_pahole "hex bitfields" "$TMP/bitfields.o" "--hex" --hex
same_as_pahole "expand" "$TMP/kernel_like.o" "-E -C task_group_like" -E -C task_group_like
same_as_pahole "expand misc" "$TMP/misc.o" "-E" --expand
same_as_pahole "-C list" "$TMP/aligned.o" "-C pk,al_type" -C pk,al_type

# --sizes: pahole prints the same three columns, in its own order.
pahole --sizes "$TMP/aligned.o" | sort >"$TMP/want"
run_c2c 0 "$TMP/got" "$TMP/err" layout --sizes "$TMP/aligned.o"
expect_eq "sizes" "$(cat "$TMP/want")" "$(sort "$TMP/got")"

# --holes N keeps the structs with at least N holes (pahole -H N).
for n in 1 2; do
	pahole -H $n --sizes "$TMP/aligned.o" | sort >"$TMP/want"
	run_c2c 0 "$TMP/got" "$TMP/err" layout --holes $n --sizes "$TMP/aligned.o"
	expect_eq "holes $n" "$(cat "$TMP/want")" "$(sort "$TMP/got")"
done

# Globs select by fnmatch; -C may repeat.
run_c2c 0 "$TMP/got" "$TMP/err" layout -s -C 'al_*' -C pk "$TMP/aligned.o"
expect_eq "glob" "al_16 al_member al_type al_typedef pk" "$(cut -f1 "$TMP/got" | sort | xargs)"

# --groups: named bands with bytes used and lines spanned.
run_c2c 0 "$TMP/got" "$TMP/err" layout --groups -C sock_like "$TMP/kernel_like.o"
expect_contains "group read_mostly" \
	"	/* === cacheline group read_mostly: 20 bytes used of 24, 1 cacheline (0) === */" \
	"$TMP/got"
expect_contains "group read_write" \
	"	/* === cacheline group read_write: 16 bytes used of 20, 1 cacheline (1) === */" \
	"$TMP/got"
expect_contains "group end" "	/* === end of cacheline group read_write === */" "$TMP/got"

# --cacheline-size changes boundaries and counts.
run_c2c 0 "$TMP/got" "$TMP/err" layout --cacheline-size 128 -C al_member "$TMP/aligned.o"
expect_contains "128-byte lines" "/* size: 128, cachelines: 1, members: 3 */" "$TMP/got"
expect_not_contains "no boundary at 64" "cacheline 1 boundary" "$TMP/got"

# JSON spells member types without the text's column padding, also for
# named structs (whose text padding follows pahole's "struct %-*s").
gcc -g -c -o "$TMP/unions.o" "$TOP_SRCDIR/tests/corpus/unions.c"
run_c2c 0 "$TMP/j" "$TMP/err" layout --format json -C nested_outer "$TMP/unions.o"
expect_contains "array of named struct" '"type": "struct nested_inner [2]"' "$TMP/j"
expect_contains "named union" '"type": "union u_simple"' "$TMP/j"
finish
