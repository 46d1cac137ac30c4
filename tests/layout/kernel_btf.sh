#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The flagship case on the running kernel's BTF: struct task_group is 704
# bytes and load_avg (256) shares its cache line with rt_se (264) and rt_rq
# (272); nothing is printed on stderr. Also matches pahole on the same BTF
# and the JSON carries the same numbers.
source "$TOP_SRCDIR/tests/lib.sh"

vmlinux=/sys/kernel/btf/vmlinux
[ -r "$vmlinux" ] || skip "no kernel BTF at $vmlinux"

grep -q 'task_group' "$vmlinux" || skip "this kernel has no struct task_group"
"$C2CSCOPE" layout -C task_group "$vmlinux" >/dev/null 2>"$TMP/probe"
grep -q 'loader is not built yet' "$TMP/probe" && skip "the BTF loader is not built yet"
run_c2c 0 "$TMP/out" "$TMP/err" layout -C task_group --cacheline-size 64
expect_eq "stderr" "" "$(cat "$TMP/err")"
expect_contains "size" "/* size: 704, cachelines: 11, members: " "$TMP/out"
expect_contains "load_avg" \
	"atomic_long_t              load_avg __attribute__((__aligned__(64))); /*   256     8 */" \
	"$TMP/out"
expect_contains "rt_se" "rt_se;                /*   264     8 */" "$TMP/out"
expect_contains "rt_rq" "rt_rq;                /*   272     8 */" "$TMP/out"
# No cache-line boundary between load_avg and rt_rq: they share line 4.
expect_eq "one line for load_avg, rt_se, rt_rq" "" \
	"$(sed -n '/load_avg/,/rt_rq;/p' "$TMP/out" | grep 'cacheline')"

# Same text as pahole reading the same BTF (pahole's stderr floods with
# "Unknown kind" warnings on this kernel; only its stdout matters).
if command -v pahole >/dev/null; then
	pahole -C task_group "$vmlinux" >"$TMP/want" 2>/dev/null
	expect_eq "same as pahole" "" "$(diff "$TMP/want" "$TMP/out")"
fi

# Same numbers in JSON, and explicit kernel BTF path works too.
run_c2c 0 "$TMP/j" "$TMP/err" layout -C task_group --format json --cacheline-size 64 "$vmlinux"
expect_eq "json stderr" "" "$(cat "$TMP/err")"
expect_eq "json numbers" "BTF 704 11 256:4 264:4 272:4" "$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
s = d["structs"][0]
m = {x["name"]: x for x in s["members"]}
print(d["source"], s["size"], s["cachelines"],
      " ".join("%d:%d" % (m[n]["offset"], m[n]["cacheline"]) for n in ("load_avg", "rt_se", "rt_rq")))
' "$TMP/j")"
finish
