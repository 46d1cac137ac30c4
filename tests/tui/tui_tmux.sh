#!/usr/bin/env bash
# The TUI of c2cscope report, driven in tmux (200x50) on a recording of the
# lockword sample under the simulator: every screen is compared with what
# report --stdio, --json, layout --profile, suggest --profile and
# report --by-type print for the same file. Also: search, resize, a too
# small terminal, sort keys, colours and NO_COLOR, q back to the shell
# with exit 0, and the terminal restored after SIGINT, SIGTERM, SIGSEGV.
source "$TOP_SRCDIR/tests/lib.sh"
source "$TOP_SRCDIR/tests/sim/common.sh"
sim_require
command -v tmux >/dev/null || skip "tmux is missing (Debian package tmux)"
command -v python3 >/dev/null || skip "python3 (reads the report's JSON) is missing"
grep -q '^#define HAVE_NCURSES 1' "$TOP_BUILDDIR/config.h" || skip "built without ncursesw"

sim_record "$TMP/lw.data" "$TMP/rec.err" --sim-cpus 4 --sim-nodes 2 -- "$SAMPLES/lockword" 2000
DATA=$TMP/lw.data
source "$TOP_SRCDIR/tests/tui/common.sh"

# the references
run_c2c 0 "$TMP/stdio" "$TMP/stdio.err" report -i "$DATA" --stdio
run_c2c 0 "$TMP/json.out" "$TMP/json.err" report -i "$DATA" --json "$TMP/r.json"
run_c2c 0 "$TMP/rmt" "$TMP/rmt.err" report -i "$DATA" --stdio -d rmt
run_c2c 0 "$TMP/layout" "$TMP/layout.err" layout --profile "$DATA" -C config
run_c2c 0 "$TMP/suggest" "$TMP/suggest.err" suggest --profile "$DATA" -C config
run_c2c 0 "$TMP/bytype" "$TMP/bytype.err" report -i "$DATA" --by-type

# a pipe and TERM=dumb keep the text; --tui without a terminal fails clearly
"$C2CSCOPE" report -i "$DATA" | cmp -s - "$TMP/stdio" && ok || fail "a pipe: not the --stdio text"
run_c2c 2 "$TMP/o" "$TMP/e" report -i "$DATA" --tui
expect_contains "--tui on a pipe" "--tui needs a terminal: standard output is not a terminal" "$TMP/e"
run_c2c 2 "$TMP/o" "$TMP/e" report -i "$DATA" --tui --html "$TMP/t.html"
expect_contains "--tui --html" "--tui browses the report: it does not take --html" "$TMP/e"

start
# 1. the table: its first line is --stdio's
first_table_line() { sed -n '/Shared Data Cache Line Table/,/Pareto/p' "$1" | grep -m1 '0x' | norm; }
cap >"$TMP/s1"
expect_eq "table: first line = --stdio's" "$(first_table_line "$TMP/stdio")" \
	"$(grep -m1 '0x' "$TMP/s1" | norm)"
expect_contains "title bar: file, samples, metric" "$DATA  $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["samples"])' "$TMP/r.json" 2>/dev/null || echo '?') samples" "$TMP/s1"
expect_contains "title bar: the metric" "sort: Total HITMs" "$TMP/s1"
expect_contains "footer: key help" "Enter/d detail" "$TMP/s1"

# ? shows the keys, q comes back; an unknown key says where the keys are
keys "Keys, on every screen" ?
keys "Shared Data Cache Line Table" q
keys "unknown key; ? shows the keys" Z

# 2. d: the line's Pareto rows are --stdio's, with the writers and readers
keys "Writers:" d
cap >"$TMP/s2"
pareto_rows() { sed -n '/^  Line 0 /,/^$/p' "$1" | grep -E '^ +[0-9.]+%' | norm; }
# same_rows NAME STDIO PANE head|tail: the pane's Pareto rows are --stdio's,
# Field moved beside Offset (tests/tui/pareto_rows.py)
same_rows() {
	python3 "$TOP_SRCDIR/tests/tui/pareto_rows.py" "$2" "$3" "$4" >"$TMP/rows.diff" && ok ||
		fail "$1: $(cat "$TMP/rows.diff")"
}
same_rows "detail: Pareto rows = --stdio's, Field beside Offset" "$TMP/stdio" "$TMP/s2" head
expect_contains "detail: Field right after Offset" "Offset  Field" "$TMP/s2"
# at 200 columns every row shows its whole Field cell (pareto_rows.py head)
# and Right Right shows the rows' ends
redrawn Right && redrawn Right
cap >"$TMP/s2r"
same_rows "detail: the rows' ends, scrolled right" "$TMP/stdio" "$TMP/s2r" tail
keys "Writers:" Left Left
expect_eq "detail: who writes and reads = --stdio's" \
	"$(grep -m1 '^  Writers:' "$TMP/stdio" | norm)" "$(grep -m1 '^Writers:' "$TMP/s2" | norm)"

# 3. a on the first row: its source line and its instruction marked, counted
keys "Instruction" a
cap >"$TMP/s3"
read -r iaddr srcline <<<"$(python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["lines"][0]["rows"][0]
print(r["iaddr"], r["srcline"])' "$TMP/r.json")"
grep -E "^ *\| -> +$iaddr:" "$TMP/s3" >/dev/null || grep -qE "\| -> +$iaddr:" "$TMP/s3" && ok ||
	fail "annotate: no marked instruction at $iaddr"
expect_contains "annotate: the sampled source line is marked" ">   ${srcline##*:}  " "$TMP/s3"
expect_contains "annotate: the source file" "source: " "$TMP/s3"
grep -E "\| -> +$iaddr: .* hitm [0-9]+/[0-9]+ ld [0-9]+ st [0-9]+" "$TMP/s3" >/dev/null && ok ||
	fail "annotate: no counts beside the sampled instruction"

# 4. l: the struct with heat, as layout --profile prints it
keys "layout with each member's heat" q l
cap >"$TMP/s4"
grep '\*/ hitm' "$TMP/layout" | expand | norm >"$TMP/l.want"
grep '\*/ hitm' "$TMP/s4" | norm >"$TMP/l.got"
[ "$(wc -l <"$TMP/l.want")" -ge 4 ] && ok || fail "layout --profile printed too few members"
expect_eq "layout: members with heat = layout --profile's" "$(cat "$TMP/l.want")" "$(cat "$TMP/l.got")"
expect_eq "layout: verdicts = layout --profile's" "$(grep -E '^(false|true) sharing' "$TMP/layout")" \
	"$(grep -E '^(false|true) sharing' "$TMP/s4")"

# 5. s: suggest's options, moves, size cost and predictions
keys "suggested layouts" s
cap >"$TMP/s5"
for pat in '^option 1' '^  size ' '^  predicted: '; do
	expect_eq "suggest: '$pat' = suggest --profile's" "$(grep -m1 "$pat" "$TMP/suggest" | norm)" \
		"$(grep -m1 "$pat" "$TMP/s5" | norm)"
done

# 5b. p, P: suggest --patch of each option, the source found under --source-dir
# (this run has none: the current directory is $TMP, where it is not)
keys "patch:" p
expect_contains "patch: a source not found says so" "patch: " <(cap | tail -1)
T send-keys -t tui q q q q
ARGS="--source-dir $TOP_SRCDIR" start
keys "suggested layouts" d l s
for c in reorder isolate; do
	(cd "$TMP" && "$C2CSCOPE" suggest --profile "$DATA" -C config --patch --choose $c \
		--source-dir "$TOP_SRCDIR" >"$TMP/patch.$c" 2>"$TMP/patch.$c.err")
	[ $c = reorder ] && key=p || key=P
	keys "(suggest --patch" $key
	cap >"$TMP/s5.$c"
	expect_eq "patch ($c): notes = suggest --patch's" "$(sed 's/^c2cscope suggest: //' "$TMP/patch.$c.err")" \
		"$(sed -n '3,/^\(c2cscope suggest --patch\|$\)/p' "$TMP/s5.$c" | grep -v '^c2cscope suggest --patch\|^$')"
	expect_eq "patch ($c): the text = suggest --patch's (as the pane shows it)" \
		"$(expand "$TMP/patch.$c" | sed 's/ *$//' | head -40)" \
		"$(sed -n '/^c2cscope suggest --patch/,$p' "$TMP/s5.$c" | sed 's/ *$//' | head -40 | sed '/^Enter\|^\/ search/d')"
	T send-keys -t tui q
done

# 6. / search in the detail: the first row naming the reader
keys "Writers:" q q
keys "/reader: row" / r e a d e r Enter
want=$(pareto_rows "$TMP/stdio" | grep -n reader | head -1 | cut -d: -f1)
expect_contains "search: the first row with 'reader'" "/reader: row $want of" <(cap)
keys "/reader: row $((want + 1)) of" n

# 7. T: the per-type view is report --by-type's
keys "Shared data by struct type" q T
cap >"$TMP/s7"
expect_eq "types: rows = report --by-type's" \
	"$(grep -E '^  config ' "$TMP/bytype" | norm)" "$(grep -E '^ *config ' "$TMP/s7" | norm)"

# 8. sort key r: the table -d rmt prints
keys "sort: Remote HITMs" q r
expect_eq "sort r: first line = -d rmt's" "$(first_table_line "$TMP/rmt")" \
	"$(cap | grep -m1 '0x' | norm)"

# 9. resize, too small, back; Ctrl-L
T resize-window -t tui -x 120 -y 30
wait_for "sort: Remo"
expect_eq "resize: footer on the next to last line" "Enter/d detail" \
	"$(cap | sed -n 29p | cut -c1-14)"
T resize-window -t tui -x 30 -y 8
wait_for "terminal too small"
T resize-window -t tui -x 200 -y 50
wait_for "Shared Data Cache Line Table"
keys "Shared Data Cache Line Table" C-l

# 10. colours, and none with NO_COLOR
T capture-pane -t tui -e -p | grep -q $'\e\\[3[1-6]m\|\e\\[38;5;' && ok ||
	fail "no colour in the TUI"

# 11. q: back to the shell, exit 0, the terminal restored
T send-keys -t tui q
exited
expect_eq "q: exit code" 0 "$(cat "$TMP/rc" 2>/dev/null)"
expect_eq "q: the alternate screen is left" 0 "$(T display -p -t tui '#{alternate_on}')"

start NO_COLOR=1
T capture-pane -t tui -e -p | grep -q $'\e\\[3[1-6]m\|\e\\[38;5;' &&
	fail "NO_COLOR: colours drawn" || ok
T send-keys -t tui q

# 12. --by-type --type GLOB opens on those types; no match fails as the text does
ARGS="--type conf*" SCREEN="Shared data by struct type" start
expect_eq "--type: rows = report --by-type's" \
	"$(grep -E '^  config ' "$TMP/bytype" | norm)" "$(cap | grep -E '^ *config ' | norm)"
T send-keys -t tui q q
ARGS="--type nosuch*" SCREEN="" start
exited
expect_eq "--type, no match: exit code" 2 "$(cat "$TMP/rc" 2>/dev/null)"
wait_for "no sample was attributed to a struct type matching 'nosuch*'"

# 12b. --html on a terminal writes the page and opens no browser
ARGS="--html $TMP/tty.html" SCREEN="" start
exited
expect_eq "--html on a terminal: exit code" 0 "$(cat "$TMP/rc" 2>/dev/null)"
grep -q '<html' "$TMP/tty.html" && ok || fail "--html on a terminal: no page written"

# 13. report's options mean the same in the browser: -d lcl --show-all -c tid,iaddr
run_c2c 0 "$TMP/all" "$TMP/all.err" report -i "$DATA" --stdio -d lcl --show-all -c tid,iaddr
ARGS="-d lcl --show-all -c tid,iaddr" start
expect_contains "-d lcl: the metric" "sort: Local HITMs" <(cap)
n_all=$(sed -n '/Shared Data Cache Line Table/,/Pareto/p' "$TMP/all" | grep -c '  0x')
expect_contains "--show-all: every line" "Shared Data Cache Line Table ($n_all of " <(cap)
keys "Writers:" d
cap >"$TMP/s13"
same_rows "-c tid,iaddr: the Pareto rows = --stdio's" "$TMP/all" "$TMP/s13" head
# l on the line table: the layout of the line's hottest struct
keys "struct config: layout" q l
T send-keys -t tui q q

# 14. annotate: a source file moved away is named with the reason;
# --source-dir finds it
mkdir -p "$TMP/src" "$TMP/moved"
cp "$TOP_SRCDIR/samples/false-sharing/lockword.c" "$TMP/src/"
(cd "$TMP/src" && ${CC:-gcc} -g -O2 -pthread -o "$TMP/lw2" lockword.c) || fail "cannot build lockword"
mv "$TMP/src/lockword.c" "$TMP/moved/"
sim_record "$TMP/lw2.data" "$TMP/rec2.err" --sim-cpus 4 --sim-nodes 2 -- "$TMP/lw2" 200
DATA=$TMP/lw2.data start
keys "Instruction" d a
expect_contains "annotate: unreadable source named" \
	"source $TMP/src/lockword.c: cannot read it: No such file or directory" <(cap)
T send-keys -t tui q q q
ARGS="--source-dir $TMP/moved" DATA=$TMP/lw2.data start
keys "Instruction" d a
expect_contains "annotate: --source-dir" "source: $TMP/moved/lockword.c" <(cap)
grep -qE '^>  +[0-9]+  .*cfg\.lock' <(cap) && ok || fail "annotate: the source line from --source-dir"
T send-keys -t tui q q q

# 14b. a source named relative to the directory the compiler ran in (a
# build with a relative srcdir) is found from anywhere
mkdir -p "$TMP/rel/a/b"
cp "$TOP_SRCDIR/samples/false-sharing/lockword.c" "$TMP/rel/"
(cd "$TMP/rel/a/b" && ${CC:-gcc} -g -O2 -pthread -o "$TMP/lw3" ../../lockword.c) ||
	fail "cannot build lockword"
sim_record "$TMP/lw3.data" "$TMP/rec3.err" --sim-cpus 4 --sim-nodes 2 -- "$TMP/lw3" 200
DATA=$TMP/lw3.data start
keys "Instruction" d a
expect_contains "annotate: a relative source under its CU's directory" \
	"source: $TMP/rel/a/b/../../lockword.c" <(cap)
T send-keys -t tui q q q

# 15. signals restore the terminal and kill as the signal does
for sig in INT TERM SEGV; do
	start
	if [ $sig = INT ]; then T send-keys -t tui C-c; else kill -$sig "$(cat "$TMP/pid")"; fi
	exited
	expect_eq "SIG$sig: exit code" $((128 + $(kill -l $sig))) "$(cat "$TMP/rc" 2>/dev/null)"
	expect_eq "SIG$sig: the alternate screen is left" 0 "$(T display -p -t tui '#{alternate_on}')"
done
finish
