#!/usr/bin/env bash
# The TUI's task-placement screen (S) on a record --sched file of the
# placed program's two threads: its summary, columns and every thread's
# row are the "Task placement" section report --stdio prints for the same
# file; the pinned threads are found with /; d on a thread whose lines
# are not in the line table says so; a file without sched tracepoints
# says how to get them.
source "$TOP_SRCDIR/tests/lib.sh"
source "$TOP_SRCDIR/tests/record/common.sh"
command -v tmux >/dev/null || skip "tmux is missing (Debian package tmux)"
grep -q '^#define HAVE_NCURSES 1' "$TOP_BUILDDIR/config.h" || skip "built without ncursesw"
placed_record
DATA=$TMP/s.data
source "$TOP_SRCDIR/tests/tui/common.sh"

# the section's parts in --stdio: summary, columns, thread rows
summary=$(grep -m1 ' sched_switch and ' "$TMP/rep")
columns=$(grep -m1 '^ *Tid  *Pid  Command' "$TMP/rep")
sed -n '/^ *Tid  *Pid  Command/,$p' "$TMP/rep" | sed 1d | cut -c1-200 | norm >"$TMP/rows"
nr=$(wc -l <"$TMP/rows")
expect_contains "--stdio: the section" "Task placement" "$TMP/rep"
[ "$nr" -ge 2 ] && ok || fail "--stdio: $nr thread rows"

start
keys "Task placement" S
cap >"$TMP/s1"
expect_eq "S: the summary" "$(echo "$summary" | norm)" "$(sed -n 3p "$TMP/s1" | norm)"
expect_eq "S: the columns" "$(echo "$columns" | cut -c1-200 | norm)" "$(sed -n 4p "$TMP/s1" | norm)"
# 44 body rows (50 - title bar, title, summary, columns, footer, message)
expect_eq "S: the first page of rows" "$(head -44 "$TMP/rows")" \
	"$(sed -n '5,48p' "$TMP/s1" | norm | sed '/^$/d')"
redrawn G
expect_eq "G: the last thread's row" "$(tail -1 "$TMP/rows")" \
	"$(cap | sed -n '5,48p' | norm | sed '/^$/d' | tail -1)"
for tid in $(cat "$TMP/tids"); do
	want=$(awk -v t="$tid" '$1 == t' "$TMP/rows")
	T send-keys -t tui / "$tid " Enter
	wait_for "/$tid : row"
	n=$(cap | sed -n 's/.*\/'"$tid"' : row \([0-9]*\) of .*/\1/p')
	expect_eq "/: thread $tid's row is --stdio's row $n" "$want" "$(sed -n "${n}p" "$TMP/rows")"
	expect_eq "/: thread $tid's row on the screen" "$want" "$(cap | norm | grep -m1 "^$tid ")"
	expect_contains "thread $tid: its command" " placed " <(echo "$want")
done
# page-fault samples carry no data source: no line table, so d says where to look
T send-keys -t tui d
wait_for "none of this thread's lines is in the line table"
T send-keys -t tui q q

# a recording without --sched
run_c2c 0 "$TMP/o" "$TMP/e" record -e page-faults -c 1000 -o "$TMP/n.data" -- true
DATA=$TMP/n.data start
T send-keys -t tui S
wait_for "$TMP/n.data: no sched_switch or sched_migrate_task samples (record with --sched)"
T send-keys -t tui q
finish
