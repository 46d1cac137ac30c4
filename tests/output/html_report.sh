#!/usr/bin/env bash
# report --html, layout --profile --html and suggest --html on the
# false-sharing samples under the simulator: the pages are well formed and
# self-contained, every number they show is the JSON's (the same report
# or suggestion, compared in html_check.py), the fields are drawn, and the
# struct boxes sit at the offsets and are as wide as the sizes the
# compiler gives (offsetof/sizeof of the sample's own struct).
source "$TOP_SRCDIR/tests/lib.sh"
source "$TOP_SRCDIR/tests/sim/common.sh"
sim_require
command -v python3 >/dev/null || skip "python3 (checks the pages) is missing"
CHECK="$TOP_SRCDIR/tests/output/html_check.py"
N=2000

rec() { # NAME: record SAMPLES/NAME with 4 cpus on 2 nodes
	sim_record "$TMP/$1.data" "$TMP/$1.rec" --sim-cpus 4 --sim-nodes 2 -- "$SAMPLES/$1" $N
}

# members SRC STRUCT NAME...: "name offset size" of each member, from the compiler
members() {
	local src=$1 st=$2 m
	shift 2
	{
		echo '#include <stddef.h>'
		echo '#include <stdio.h>'
		sed -n "/^struct $st {/,/^};/p" "$src"
		echo 'int main(void) {'
		for m in "$@"; do
			echo "printf(\"$m %zu %zu\\n\", offsetof(struct $st, $m), sizeof(((struct $st *)0)->$m));"
		done
		echo 'return 0; }'
	} >"$TMP/probe-$st.c"
	compile "$TMP/probe-$st" "$TMP/probe-$st.c" && "$TMP/probe-$st"
}

# check WHAT PAGE ARGS...: html_check.py finds nothing wrong
check() {
	local what=$1
	shift
	if python3 "$CHECK" "$@" >"$TMP/check.out" 2>&1; then
		ok
	else
		fail "$what: $(head -20 "$TMP/check.out")"
	fi
}

rec lockword
rec args
members "$TOP_SRCDIR/samples/false-sharing/lockword.c" config lock updates limit scale \
	>"$TMP/config.members" ||
	fail "cannot build the offsetof probe"
expect_eq "probe: config's members" "lock 0 4|updates 8 8|limit 16 8|scale 24 8" \
	"$(paste -sd'|' "$TMP/config.members")"

# the report page: numbers = the JSON's, fields drawn, boxes sized by bytes
run_c2c 0 "$TMP/lw.out" "$TMP/lw.err" report -i "$TMP/lockword.data" --json "$TMP/lw.json" \
	--html "$TMP/lw.html"
check "report page" "$TMP/lw.html" --json "$TMP/lw.json" --fields lock,updates,limit,scale \
	--members "$TMP/config.members"
expect_eq "report --html alone prints no text" "" "$(cat "$TMP/lw.out")"
expect_contains "report page: struct config drawn" "<h3>struct config</h3>" "$TMP/lw.html"
expect_contains "report page: false sharing hatched" 'fill="url(#hatch-false)"' "$TMP/lw.html"
expect_contains "report page: the lock's field in a tooltip" "field: cfg.lock" "$TMP/lw.html"
expect_contains "report page: writer cpus of lock" "writers: 0,2 (writer)" "$TMP/lw.html"

# with --stdio the text is report's own, unchanged by --html
run_c2c 0 "$TMP/lw-stdio.txt" "$TMP/lw-stdio.err" report -i "$TMP/lockword.data" --stdio \
	--html "$TMP/lw2.html"
run_c2c 0 "$TMP/lw-plain.txt" "$TMP/lw-plain.err" report -i "$TMP/lockword.data" --stdio
if cmp -s "$TMP/lw-stdio.txt" "$TMP/lw-plain.txt"; then ok; else fail "--stdio text differs with --html"; fi
if cmp -s "$TMP/lw.html" "$TMP/lw2.html"; then ok; else fail "the page differs between runs"; fi

# --json - keeps stdout for the JSON, --stdio or not
run_c2c 0 "$TMP/lw-j.json" "$TMP/lw-j.err" report -i "$TMP/lockword.data" --json - --stdio \
	--html "$TMP/lw3.html"
python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$TMP/lw-j.json" && ok ||
	fail "--json - --stdio --html: stdout is not the JSON"

# two lines, then --html-lines 1 draws only the hottest
run_c2c 0 "$TMP/args.out" "$TMP/args.err" report -i "$TMP/args.data" --json "$TMP/args.json" \
	--html "$TMP/args.html"
expect_eq "args: two lines in the JSON" 2 \
	"$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["lines"]))' "$TMP/args.json")"
check "args page" "$TMP/args.html" --json "$TMP/args.json" --fields sum,count
run_c2c 0 "$TMP/args1.out" "$TMP/args1.err" report -i "$TMP/args.data" --html "$TMP/args1.html" \
	--html-lines 1
check "args page, one line" "$TMP/args1.html" --json "$TMP/args.json" --lines 1
expect_contains "args page, one line: says so" "The 1 hottest of 2 lines" "$TMP/args1.html"

# 128-byte lines: 128 cells a row, struct boxes at 3 px a byte
run_c2c 0 "$TMP/dcl.out" "$TMP/dcl.err" report -i "$TMP/lockword.data" --double-cl \
	--json "$TMP/dcl.json" --html "$TMP/dcl.html"
check "report page, --double-cl" "$TMP/dcl.html" --json "$TMP/dcl.json" \
	--fields lock,updates,limit,scale --members "$TMP/config.members" --px-per-byte 3

# without field names: still a valid page with perf's numbers, and it says why no struct
run_c2c 0 "$TMP/na.out" "$TMP/na.err" report -i "$TMP/lockword.data" --no-attrib \
	--json "$TMP/na.json" --html "$TMP/na.html"
check "report page, --no-attrib" "$TMP/na.html" --json "$TMP/na.json"
expect_contains "--no-attrib: no struct, and why" "No row of the hot lines was attributed" \
	"$TMP/na.html"

# layout --profile --html: the same strip, the same numbers as --format json
run_c2c 0 "$TMP/lay.txt" "$TMP/lay.err" layout --profile "$TMP/lockword.data" -C config \
	--html "$TMP/lay.html"
run_c2c 0 "$TMP/lay.json" "$TMP/lay-json.err" layout --profile "$TMP/lockword.data" -C config \
	--format json
check "layout page" "$TMP/lay.html" --fields lock,updates,limit,scale --members "$TMP/config.members" \
	--profile-json "$TMP/lay.json"
check "report page: struct config's numbers are layout --profile's" "$TMP/lw.html" \
	--profile-json "$TMP/lay.json"
expect_contains "layout page: text still printed" "/* size: 32, cachelines: 1, members: 4 */" \
	"$TMP/lay.txt"
expect_contains "layout page: limit's numbers (layout --profile's)" \
	"<td>limit</td><td class=\"num\">16</td><td class=\"num\">8</td><td class=\"num\">0</td><td class=\"num\">0</td><td class=\"num\">$(sed -n 's/.* limit; .*hitm 0\/\([0-9]*\) ld .*/\1/p' "$TMP/lay.txt")</td>" \
	"$TMP/lay.html"

# suggest --html: the chosen option beside the layout, with suggest's numbers
run_c2c 0 "$TMP/sug.json" "$TMP/sug.err" suggest --profile "$TMP/lockword.data" -C config \
	--format json
for opt in reorder isolate; do
	run_c2c 0 "$TMP/sug-$opt.txt" "$TMP/sug-$opt.err" suggest --profile "$TMP/lockword.data" \
		-C config --choose "$opt" --html "$TMP/sug-$opt.html"
	check "suggest page ($opt)" "$TMP/sug-$opt.html" --suggest-json "$TMP/sug.json" \
		--option "$opt" --members "$TMP/config.members" --fields lock,updates,limit,scale
done
# (lock and updates: the same writers and readers, so one wrapper holds both)
expect_contains "suggest page: the option is named" "isolate with alignment: 128 bytes in 2 cache lines" \
	"$TMP/sug-isolate.html"

# a hotness file (no HITMs): boxes show the classes, numbers still suggest's
hot="$TOP_SRCDIR/samples/sched-core/task_group.hotness"
model="$TOP_BUILDDIR/samples/sched-core/sched-core-upstream"
run_c2c 0 "$TMP/tg.json" "$TMP/tg.err" suggest -C task_group --hotness "$hot" --format json "$model"
run_c2c 0 "$TMP/tg.txt" "$TMP/tg.err" suggest -C task_group --hotness "$hot" --html "$TMP/tg.html" \
	"$model"
check "suggest page, hotness file" "$TMP/tg.html" --suggest-json "$TMP/tg.json" --option reorder \
	--fields load_avg,rt_se,rt_rq
expect_contains "hotness: load_avg drawn write-hot" 'class="member whot" data-field="load_avg"' \
	"$TMP/tg.html"
expect_contains "hotness: rt_se drawn read-mostly" 'class="member rmostly" data-field="rt_se"' \
	"$TMP/tg.html"

# the writers as the text report names them (stores and locked RMWs): on the
# textbook false sharing (two threads lock-add adjacent counters) and on a line
# whose only writes are locked (truecount: every thread lock-adds one counter)
rec adjacent
rec truecount
for w in adjacent truecount; do
	run_c2c 0 "$TMP/$w.txt" "$TMP/$w.err" report -i "$TMP/$w.data" --stdio --json "$TMP/$w.json" \
		--html "$TMP/$w.html"
	check "$w page: writers and heatmap stores" "$TMP/$w.html" --json "$TMP/$w.json"
done
expect_eq "truecount: the text report's writers of line 0" "cpus 0-3 (bump)" \
	"$(sed -n 's/^  Writers: \(.*\)  Readers:.*/\1/p' "$TMP/truecount.txt" | head -1)"
expect_eq "truecount: the HTML's writers of line 0" "0 1 2 3" \
	"$(grep -o '<td class="rw" data-cpu="[0-9]*">RW</td>' "$TMP/truecount.html" |
		sed 's/.*data-cpu="\([0-9]*\)".*/\1/' | paste -sd' ')"

# bad paths and usage: exit 2 and a message naming what is wrong
run_c2c 2 "$TMP/bad.out" "$TMP/bad.err" report -i "$TMP/lockword.data" --html "$TMP/no/such/dir/x.html"
expect_contains "unwritable page: named" "$TMP/no/such/dir/x.html: cannot write" "$TMP/bad.err"
run_c2c 2 "$TMP/bad2.out" "$TMP/bad2.err" layout -C config --html "$TMP/x.html" "$SAMPLES/lockword"
expect_contains "layout --html without --profile" "give --profile DATA" "$TMP/bad2.err"
run_c2c 2 "$TMP/bad3.out" "$TMP/bad3.err" report -i "$TMP/lockword.data" --html "$TMP/x.html" \
	--html-lines 0
expect_contains "--html-lines 0" "--html-lines expects a number from 1 to" "$TMP/bad3.err"

finish
