#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Every struct and union of the running kernel's BTF prints exactly as
# pahole 1.24 prints it from the same BTF, except the structs named in
# pahole-btf-exceptions.txt (pahole's bugs, proven in
# doc/pahole-differences.md). Takes a few seconds: both print ~10k structs.
source "$TOP_SRCDIR/tests/lib.sh"

command -v pahole >/dev/null || skip "pahole (dwarves) not installed"
btf=/sys/kernel/btf/vmlinux
[ -r "$btf" ] || skip "no kernel BTF at $btf"

pahole "$btf" >"$TMP/want" 2>/dev/null
run_c2c 0 "$TMP/got" "$TMP/err" layout --cacheline-size 64 "$btf"
expect_eq "stderr" "" "$(cat "$TMP/err")"
if python3 "$TOP_SRCDIR/tests/layout/pahole_split.py" "$TMP/want" "$TMP/got" \
	"$TOP_SRCDIR/tests/layout/pahole-btf-exceptions.txt" "kernel BTF" >"$TMP/cmp"; then
	ok
else
	fail "$(grep -v '^[-+ @]' "$TMP/cmp" | head -20; head -60 "$TMP/cmp")"
fi
n=$(sed -n 's/.*: \([0-9]*\) pahole blocks.*/\1/p' "$TMP/cmp")
[ "${n:-0}" -gt 1000 ] && ok || fail "only ${n:-0} pahole blocks compared"
# The exceptions differ only where documented: enumerator values.
python3 "$TOP_SRCDIR/tests/layout/pahole_split.py" "$TMP/want" "$TMP/got" /dev/null \
	"kernel BTF" >"$TMP/all"
grep -E '^[-+]\s' "$TMP/all" >"$TMP/lines" || true
expect_eq "differences other than enumerator values" "" "$(grep -vE '= -?[0-9]+,$' "$TMP/lines")"
finish
