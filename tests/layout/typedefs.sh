#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# -C NAME where NAME is a typedef, as pahole -C prints it: the body of the
# anonymous struct it names ("typedef struct {...} foo_t;"), one line for a
# typedef of a named type. DWARF from a program the test compiles, and the
# running kernel's BTF (atomic_t, spinlock_t, cpumask_t, ...).
source "$TOP_SRCDIR/tests/lib.sh"

command -v pahole >/dev/null || skip "pahole (dwarves) not installed"
cat >"$TMP/td.c" <<'C'
typedef struct { int a; long b; char c; } anon_t;
typedef struct named { short x; long y; } named_t;
typedef named_t again_t;
typedef struct { anon_t inner; char tail[3]; } __attribute__((aligned(32))) wide_t;
typedef union { int i; long l; } anon_u;
typedef struct named *named_ptr;
struct user { anon_t a; wide_t w; anon_u u; };
anon_t g1; named_t g2; again_t g3; wide_t g4; anon_u g5; named_ptr g6; struct user g7;
C
compile "$TMP/td.o" "$TMP/td.c" -c -g -O0

for n in anon_t named_t again_t wide_t named_ptr user; do
	pahole -C $n "$TMP/td.o" >"$TMP/want.$n" 2>&1
	run_c2c 0 "$TMP/got.$n" "$TMP/err.$n" layout -C $n "$TMP/td.o"
	expect_eq "DWARF -C $n = pahole" "$(cat "$TMP/want.$n")" "$(cat "$TMP/got.$n")"
done
expect_contains "anonymous struct body" "} anon_t;" "$TMP/got.anon_t"
expect_eq "typedef of a named struct" "typedef struct named named_t;" "$(cat "$TMP/got.named_t")"
# pahole 1.24 prints "typedef union  anon_u;" without the members; we print
# the body (doc/pahole-differences.md)
run_c2c 0 "$TMP/got.u" "$TMP/err.u" layout -C anon_u "$TMP/td.o"
expect_eq "anonymous union body" "typedef union {
	int                        i;                  /*     0     4 */
	long int                   l;                  /*     0     8 */
} anon_u;" "$(cat "$TMP/got.u")"

# JSON and --sizes name the struct by its typedef
run_c2c 0 "$TMP/j" "$TMP/je" layout -C anon_t --format json "$TMP/td.o"
expect_eq "JSON names the struct anon_t" "anon_t 24 3" "$(python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))["structs"][0]
print(s["name"], s["size"], len(s["members"]))' "$TMP/j")"
run_c2c 0 "$TMP/s" "$TMP/se" layout -C anon_t --sizes "$TMP/td.o"
expect_eq "--sizes names the struct anon_t" "$(printf 'anon_t\t24\t1')" "$(cat "$TMP/s")"
# globs match struct names only, as before; an unknown name still fails
run_c2c 2 "$TMP/o" "$TMP/e" layout -C no_such_t "$TMP/td.o"
expect_contains "unknown typedef" "no struct or union no_such_t" "$TMP/e"

if [ -r /sys/kernel/btf/vmlinux ]; then
	for n in atomic_t atomic64_t spinlock_t raw_spinlock_t cpumask_t kuid_t refcount_t; do
		pahole -C $n /sys/kernel/btf/vmlinux 2>/dev/null >"$TMP/kw.$n"
		[ -s "$TMP/kw.$n" ] || continue
		run_c2c 0 "$TMP/kg.$n" "$TMP/ke.$n" layout -C $n
		expect_eq "BTF -C $n = pahole" "$(cat "$TMP/kw.$n")" "$(cat "$TMP/kg.$n")"
	done
fi
finish
