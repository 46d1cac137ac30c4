#!/usr/bin/env bash
# Across compilation units: an identical struct is listed once, two
# different definitions of one name are both kept (in CU order); -C lists
# only the named structs. Both loaders, threads or not.
source "$TOP_SRCDIR/tests/lib.sh"

DUMP="$TOP_BUILDDIR/tests/types/dump_types"
[ -x "$DUMP" ] || skip "dump_types not built"

cat >"$TMP/a.c" <<'C'
struct same { int a; long b; };
struct dup { int x; };
struct user_a { struct same s; struct dup d; };
struct user_a ua;
int main(void) { return 0; }
C
cat >"$TMP/b.c" <<'C'
struct same { int a; long b; };
struct dup { long x; char y; };
struct user_b { struct same s; struct dup *d; };
struct user_b ub;
C
gcc -g -O2 -o "$TMP/prog" "$TMP/a.c" "$TMP/b.c" || fail "cannot build"
for j in 1 2; do
	"$DUMP" -j $j "$TMP/prog" >"$TMP/out" 2>&1 || fail "dump -j $j: $(cat "$TMP/out")"
	expect_eq "-j $j: struct same listed once" 1 "$(grep -c '^struct same ' "$TMP/out")"
	expect_eq "-j $j: two struct dup" 2 "$(grep -c '^struct dup ' "$TMP/out")"
	expect_eq "-j $j: first dup from a.c" "struct dup size 4" \
		"$(grep '^struct dup ' "$TMP/out" | head -1 | cut -d' ' -f1-4)"
	expect_eq "-j $j: second dup from b.c" "struct dup size 16" \
		"$(grep '^struct dup ' "$TMP/out" | tail -1 | cut -d' ' -f1-4)"
done
"$DUMP" -C 'user_*,dup' "$TMP/prog" >"$TMP/only" 2>&1
expect_eq "-C lists only matches" "dup dup user_a user_b" \
	"$(grep -E '^(struct|union) ' "$TMP/only" | cut -d' ' -f2 | tr '\n' ' ' | sed 's/ $//')"
expect_contains "-C keeps embedded member types" "member s offset 0" "$TMP/only"
if command -v pahole >/dev/null; then
	cp "$TMP/prog" "$TMP/btfprog" && pahole -J "$TMP/btfprog" 2>/dev/null
	"$DUMP" --btf "$TMP/btfprog" >"$TMP/btf" 2>&1 || fail "btf dump: $(cat "$TMP/btf")"
	expect_eq "BTF: struct same once" 1 "$(grep -c '^struct same ' "$TMP/btf")"
	expect_eq "BTF: two struct dup" 2 "$(grep -c '^struct dup ' "$TMP/btf")"
fi
finish
