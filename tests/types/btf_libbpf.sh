#!/usr/bin/env bash
# c2cscope reads BTF with its own in-place reader (src/types/btf_data.c,
# no copy of the 5 MB vmlinux BTF). libbpf is the reference: every type of
# the running kernel's BTF, and of a few modules' split BTF, must come out
# of both readers with the same record and name, with the dense and the
# sparse (-C) index alike.
source "$TOP_SRCDIR/tests/lib.sh"

prog=$TOP_BUILDDIR/tests/types/btf_vs_libbpf
[ -x "$prog" ] || skip "libbpf-dev is not installed (configure found no libbpf)"
vmlinux=/sys/kernel/btf/vmlinux
[ -r "$vmlinux" ] || skip "no kernel BTF at $vmlinux"

"$prog" "$vmlinux" >"$TMP/out" 2>&1
rc=$?
expect_eq "vmlinux: both readers agree (exit)" 0 $rc
[ $rc -eq 0 ] || cat "$TMP/out" >&2
grep -q "^dense index: [0-9]* types agree" "$TMP/out" && ok || fail "vmlinux: no agreement line"

n=0
for m in /sys/kernel/btf/*; do
	[ "$m" = "$vmlinux" ] && continue
	[ -r "$m" ] || continue
	"$prog" --base "$vmlinux" "$m" >"$TMP/mod" 2>&1
	rc=$?
	expect_eq "$(basename "$m") (split on vmlinux): both readers agree" 0 $rc
	[ $rc -eq 0 ] || cat "$TMP/mod" >&2
	n=$((n + 1))
	[ $n -ge 3 ] && break
done
echo "$(head -1 "$TMP/out"); $n module BTFs compared"
finish
