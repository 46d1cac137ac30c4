#!/usr/bin/env bash
# c2cscope suggest --patch on a corpus of C files (tests/suggest/patch/):
# compile with gcc -g, emit the patch, apply it with patch -p1 in a copy of
# the source tree, compile the patched source and prove that every member
# sits where the proposal's header says (offsetof/sizeof asserts for byte
# members, c2cscope layout --format json for bitfields). Covers comments,
# attributes, multi-line and multi-declarator declarations, an #ifdef block
# whose members move inside it, a whole block that moves, an inactive
# block, a refused move into an #if/#else (exit 1, member and conditional
# named, moves printed) and the input errors (exit 2, file:line named).
source "$TOP_SRCDIR/tests/lib.sh"
here=$TOP_SRCDIR/tests/suggest/patch
command -v patch >/dev/null || skip "patch(1) is not installed"
command -v python3 >/dev/null || skip "python3 is not installed"

mkdir -p "$TMP/src" "$TMP/empty"
cp "$here"/*.c "$TMP/src/"

# check_case NAME FILE STRUCT HOTNESS [suggest options...]
check_case() {
	local name=$1 file=$2 st=$3 hot=$4
	shift 4
	local new=$TMP/new-$name
	rm -rf "$new" && cp -r "$TMP/src" "$new"
	(cd "$TMP/src" && ${CC:-gcc} -g -c "$file.c" -o "$TMP/$name.o") || { fail "$name: compile"; return; }
	run_c2c 0 "$TMP/$name.patch" "$TMP/$name.err" suggest --patch --source-dir "$TMP/src" \
		-C "$st" --hotness "$here/$hot" "$@" "$TMP/$name.o"
	expect_contains "$name: diff header" "--- a/$file.c" "$TMP/$name.patch"
	expect_contains "$name: summary" "patch for struct $st, option '${OPTION:-reorder only}'" "$TMP/$name.err"
	(cd "$new" && patch -p1 -s --fuzz=0 <"$TMP/$name.patch") || { fail "$name: patch -p1 does not apply"; return; }
	ok
	if cmp -s "$TMP/src/$file.c" "$new/$file.c"; then fail "$name: the patch changed nothing"; fi
	# The proposal's offsets, as asserts on the patched source.
	{
		echo "#include <stddef.h>"
		echo "#include \"$new/$file.c\""
		sed -n 's/^size [0-9]* -> \([0-9]*\) bytes.*/_Static_assert(sizeof(struct '"$st"') == \1, "size");/p' "$TMP/$name.patch"
		sed -n '/^member offsets after the patch:/,/^---$/s/^  \([A-Za-z_][A-Za-z0-9_]*\) \([0-9][0-9]*\)$/_Static_assert(offsetof(struct '"$st"', \1) == \2, "\1");/p' "$TMP/$name.patch"
	} >"$TMP/$name-assert.c"
	expect_eq "$name: one assert per byte member and the size" \
		"$(($(sed -n '/^member offsets/,/^---$/p' "$TMP/$name.patch" | grep -cE '^  [A-Za-z_0-9]+ [0-9]+$') + 1))" \
		"$(grep -c _Static_assert "$TMP/$name-assert.c")"
	${CC:-gcc} -g -c "$TMP/$name-assert.c" -o "$TMP/$name-new.o" 2>"$TMP/$name-assert.err" && ok ||
		{ fail "$name: the patched struct's offsets differ from the proposal's"; cat "$TMP/$name-assert.err" >&2; }
	# Bitfields: bit offsets from the patched object's layout.
	run_c2c 0 "$TMP/$name.json" "$TMP/$name.jerr" layout --format json -C "$st" "$TMP/$name-new.o"
	python3 - "$TMP/$name.patch" "$TMP/$name.json" <<'PY' && ok || fail "$name: bitfield offsets"
import json, re, sys
want = {m.group(1): int(m.group(2)) for m in re.finditer(r'^  (\w+) bit (\d+)$', open(sys.argv[1]).read(), re.M)}
got = {m['name']: m['bit_offset'] for s in json.load(open(sys.argv[2]))['structs'] for m in s['members'] if m['name']}
bad = {k: (v, got.get(k)) for k, v in want.items() if got.get(k) != v}
sys.exit(1 if bad else 0)
PY
}

# Comments, an attribute, "unsigned int mode,\n flags;", a bitfield run, an
# anonymous union; hits is pinned so the readers must move, some into the
# CONFIG_STATS block's neighbourhood, which the source cannot express: the
# proposal is redone under the source's constraints.
check_case basic basic counters basic.hot --pin hits
expect_contains "basic: the multi-line declaration moves whole" "+	unsigned int		mode," "$TMP/basic.patch"
expect_contains "basic: ... with its second line" "+				flags;		/* one declaration, two members */" "$TMP/basic.patch"
expect_contains "basic: the leading comment moves with it" "+	 * Configuration, read on every packet." "$TMP/basic.patch"
expect_contains "basic: the attribute moves with ops" "+	void			*ops __attribute__((__aligned__(16))); /* read-mostly */" "$TMP/basic.patch"
expect_contains "basic: drops moves inside CONFIG_STATS" "+	unsigned long		drops;		/* cold */" "$TMP/basic.patch"
expect_contains "basic: constrained by the source" "keeps the source's declarations and conditionals intact" "$TMP/basic.err"
expect_contains "basic: the crossing named" "would move into the conditional '#ifdef CONFIG_STATS'" "$TMP/basic.err"
expect_contains "basic: no conflict left" "conflicting field pairs 3 -> 0" "$TMP/basic.patch"
# The inactive block stays in the file.
expect_not_contains "basic: inactive block untouched" "-	long			never;" "$TMP/basic.patch"

check_case ifdef ifdef rq_like ifdef.hot
expect_contains "ifdef: load moves inside its block" "+	long			load;		/* written by every cpu */" "$TMP/ifdef.patch"
expect_eq "ifdef: the #ifdef lines stay" "0" "$(grep -c '^[-+]#' "$TMP/ifdef.patch")"

check_case blk ifdef blk blk.hot --pin hot

# Isolate: load is wrapped in an anonymous struct aligned to the line.
OPTION="isolate with alignment" check_case iso ifdef rq_like ifdef.hot --choose isolate
expect_contains "iso: wrapper opens" "+	struct {" "$TMP/iso.patch"
expect_contains "iso: the member inside" "+		long			load;		/* written by every cpu */" "$TMP/iso.patch"
expect_contains "iso: wrapper aligned" "+	} __attribute__((__aligned__(64)));" "$TMP/iso.patch"
expect_contains "iso: costs size" "size 128 -> 192 bytes" "$TMP/iso.patch"
expect_contains "blk: rd leaves line 0" "rd 64" "$TMP/blk.patch"

# A function pointer's commas, two declarations on one line (one unit), a
# nested definition, a bitfield run over two declarations, a continued #if,
# comments holding ';' and '{'.
check_case tricky tricky tricky tricky.hot --pin hot
expect_contains "tricky: x and y move as one line" "+	int			x; int y;	/* two declarations, one line: one unit */" "$TMP/tricky.patch"
expect_contains "tricky: the nested definition moves whole" "+	}			in;		/* a nested definition */" "$TMP/tricky.patch"
expect_contains "tricky: the function pointer moves" "+	int			(*handler)(int a, int b);	/* one member, two commas */" "$TMP/tricky.patch"
expect_contains "tricky: refusing to split x; y" "would land inside the declaration 'int			x; int y;" "$TMP/tricky.err"

# Refused: the only fix takes rd out of order inside an #if/#else.
(cd "$TMP/src" && ${CC:-gcc} -g -c refuse.c -o "$TMP/refuse.o")
run_c2c 1 "$TMP/r.out" "$TMP/r.err" suggest --patch --source-dir "$TMP/src" --pin hot \
	-C refuse --hotness "$here/refuse.hot" "$TMP/refuse.o"
expect_contains "refuse: member and conditional named" \
	"no patch for struct refuse: member rd would move inside the conditional (it has #else or #elif: its members keep their order) '#ifdef CONFIG_X' ($TMP/src/refuse.c:6-11)" "$TMP/r.err"
expect_contains "refuse: what the constraints cost" "leaves 1 conflicting pairs (instead of 0)" "$TMP/r.err"
expect_contains "refuse: the move list instead" "  move rd: offset 8 -> 64 (line 0 -> 1)" "$TMP/r.out"
expect_not_contains "refuse: no diff" "--- a/" "$TMP/r.out"

# Input errors name file:line and exit 2.
run_c2c 2 "$TMP/e.out" "$TMP/e1" suggest --patch --source-dir "$TMP/empty" --pin hits \
	-C counters --hotness "$here/basic.hot" "$TMP/basic.o"
expect_contains "missing source" "basic.c:5: source of struct counters not found under $TMP/empty" "$TMP/e1"
mkdir -p "$TMP/shifted" && { echo "/* one more line */"; cat "$TMP/src/basic.c"; } >"$TMP/shifted/basic.c"
run_c2c 2 "$TMP/e.out" "$TMP/e2" suggest --patch --source-dir "$TMP/shifted" -C counters \
	--hotness "$here/basic.hot" "$TMP/basic.o"
expect_contains "struct not at its line" "$TMP/shifted/basic.c:5: no 'struct counters {' here" "$TMP/e2"
mkdir -p "$TMP/renamed" && sed 's/\*ops __attr/*opz __attr/' "$TMP/src/basic.c" >"$TMP/renamed/basic.c"
run_c2c 2 "$TMP/e.out" "$TMP/e3" suggest --patch --source-dir "$TMP/renamed" -C counters \
	--hotness "$here/basic.hot" "$TMP/basic.o"
expect_contains "member not found" "$TMP/renamed/basic.c:5: member ops of struct counters (declared at line 14) not found" "$TMP/e3"
run_c2c 2 "$TMP/e.out" "$TMP/e4" suggest --source-dir "$TMP/src" -C counters \
	--hotness "$here/basic.hot" "$TMP/basic.o"
expect_contains "source-dir needs patch" "--source-dir is for --patch" "$TMP/e4"
finish
