#!/usr/bin/env bash
# The TUI's Store Contention screen (W) on a recording of two threads that
# only store to one line (tests/c2c/store_only.c): its columns and the
# line's row are the ones report --stdio's Store Contention section prints
# for the same file; Enter opens that line's detail (its writers and a
# row per field, though the line is in no table of perf's), l the layout
# of its struct; a recording without such a line says so.
source "$TOP_SRCDIR/tests/lib.sh"
source "$TOP_SRCDIR/tests/sim/common.sh"
sim_require
command -v tmux >/dev/null || skip "tmux is missing (Debian package tmux)"
grep -q '^#define HAVE_NCURSES 1' "$TOP_BUILDDIR/config.h" || skip "built without ncursesw"

compile "$TMP/st" "$TOP_SRCDIR/tests/c2c/store_only.c" -g -O1 -pthread || finish
sim_record "$TMP/st.data" "$TMP/rec.err" --sim-cpus 2 -- "$TMP/st" 20000
line=$(sed -n 's/^line=//p' "$TMP/stdout")
[ -n "$line" ] && ok || fail "the program did not print its line"
DATA=$TMP/st.data
source "$TOP_SRCDIR/tests/tui/common.sh"

# the section in --stdio: its columns and the line's row
run_c2c 0 "$TMP/rep" "$TMP/rep.err" report -i "$DATA" --stdio
sed -n '/Store Contention (c2cscope)/,$p' "$TMP/rep" >"$TMP/section"
columns=$(grep -m1 -E '^ +Num +Address' "$TMP/section" | norm)
row=$(grep -m1 -E "^ +0 +$line " "$TMP/section" | norm)
[ -n "$columns" ] && [ -n "$row" ] && ok || fail "--stdio: no Store Contention row for $line"

start
keys "Store Contention (c2cscope): 1 line" W
cap >"$TMP/s1"
expect_eq "W: the columns" "$columns" "$(grep -m1 -E '^ *Num +Address' "$TMP/s1" | norm)"
expect_eq "W: the line's row" "$row" "$(grep -m1 -E "^ *0 +$line " "$TMP/s1" | norm)"
expect_contains "W: why the line is there" "RFO ping-pong" "$TMP/s1"
# Enter: the line's detail, with the two functions that write it
keys "Writers:" Enter
cap >"$TMP/s2"
expect_contains "Enter: the line's detail, numbered by no table" \
	"Line $line (not in the line table)" "$TMP/s2"
# its rows: each field with the function that stores to it, half the misses each
grep -qE '50\.00% .* 0x0 +pair\.a .*store_a' "$TMP/s2" && grep -qE '50\.00% .* 0x8 +pair\.b .*store_b' "$TMP/s2" &&
	ok || fail "Enter: the rows are not pair.a by store_a and pair.b by store_b"
grep -m1 '^Writers:' "$TMP/s2" | grep -q 'store_a' && grep -m1 '^Writers:' "$TMP/s2" |
	grep -q 'store_b' && ok || fail "Enter: the writers are not store_a and store_b: $(grep -m1 '^Writers:' "$TMP/s2")"
# q back to the screen, l: the layout of the line's struct
keys "Store Contention (c2cscope)" q
keys "struct pair" l
T send-keys -t tui q q q

# a recording where no line has store contention says so
sim_record "$TMP/t.data" "$TMP/rec2.err" -- true
DATA=$TMP/t.data start
T send-keys -t tui W
wait_for "no Store Contention: no line that several cpus write has stores missing L1"
T send-keys -t tui q
finish
