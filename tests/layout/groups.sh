#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Kernel cache-line groups, one rule for every command: the bytes a group
# uses are the bytes its members' bits touch (the compiler's answer, from
# setting every bit), and markers without their pair make no group in
# `layout --groups` while `check --kernel-groups` names what is missing.
source "$TOP_SRCDIR/tests/lib.sh"

src=$TOP_SRCDIR/tests/layout/groups.c
compile "$TMP/groups" "$src" -g -O0 || finish
read -r used width < <("$TMP/groups")

run_c2c 0 "$TMP/got" "$TMP/err" layout --groups -C bits_group "$TMP/groups"
expect_contains "bitfield group, bytes from the compiler" \
	"/* === cacheline group flags: $used bytes used of $width, 1 cacheline (0) === */" \
	"$TMP/got"
expect_not_contains "no band without an end marker" "cacheline group open" "$TMP/got"
expect_not_contains "no band without a begin marker" "cacheline group orphan" "$TMP/got"

run_c2c 1 "$TMP/got" "$TMP/err" check --kernel-groups --show-passed -C bits_group "$TMP/groups"
expect_contains "missing end" \
	"group open has __cacheline_group_begin__open but no __cacheline_group_end__open" \
	"$TMP/got"
expect_contains "missing begin" \
	"group orphan has __cacheline_group_end__orphan but no __cacheline_group_begin__orphan" \
	"$TMP/got"
expect_contains "the good group holds" \
	"struct bits_group: kernel group flags (__cacheline_group_begin__/end__ markers): holds" "$TMP/got"
finish
