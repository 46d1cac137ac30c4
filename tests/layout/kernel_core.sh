#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Linux 6.1's kernel/sched/core.o built with DWARF 5 (the object that
# samples/linux/verify.sh builds and caches): every one of its ~545 structs
# prints exactly as pahole 1.24 prints it, task_group included.
source "$TOP_SRCDIR/tests/lib.sh"

command -v pahole >/dev/null || skip "pahole (dwarves) not installed"
obj=
for dir in ${C2CSCOPE_CACHE_DIR:-} /var/cache/c2cscope "${XDG_CACHE_HOME:-$HOME/.cache}/c2cscope"; do
	[ -n "$dir" ] || continue
	for f in "$dir"/linux-6.1/core-unpatched-*.o; do
		[ -r "$f" ] && obj=$f
	done
done
[ -n "$obj" ] || skip "no cached kernel/sched/core.o: samples/linux/verify.sh builds one"

# Plain, and with every named type expanded inline (-E).
for opt in "" -E; do
	# shellcheck disable=SC2086
	pahole $opt "$obj" >"$TMP/want" 2>/dev/null
	# shellcheck disable=SC2086
	run_c2c 0 "$TMP/got" "$TMP/err" layout $opt --cacheline-size 64 "$obj"
	expect_eq "stderr $opt" "" "$(cat "$TMP/err")"
	if python3 "$TOP_SRCDIR/tests/layout/pahole_split.py" "$TMP/want" "$TMP/got" \
		"$TOP_SRCDIR/tests/layout/pahole-exceptions.txt" "core.o $opt" >"$TMP/cmp"; then
		ok
	else
		fail "$(head -60 "$TMP/cmp")"
	fi
	expect_eq "blocks compared $opt" 1 "$(grep -c ' 0 problems' "$TMP/cmp")"
done

run_c2c 0 "$TMP/tg" "$TMP/err" layout -C task_group --cacheline-size 64 "$obj"
expect_contains "task_group size" "/* size: 704, cachelines: 11, members: " "$TMP/tg"
expect_contains "load_avg at 256" "load_avg __attribute__((__aligned__(64))); /*   256     8 */" \
	"$TMP/tg"
expect_contains "rt_se at 264" "rt_se;                /*   264     8 */" "$TMP/tg"
expect_contains "rt_rq at 272" "rt_rq;                /*   272     8 */" "$TMP/tg"
finish
