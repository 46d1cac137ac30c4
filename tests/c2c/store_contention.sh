#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# A line whose contention is all stores (two cpus storing to one line, no
# load ever a HITM) is in no table of perf's: c2cscope's own Store
# Contention section (text and JSON) shows it, with the writes report
# --by-type counts and the cpus and functions that wrote it; --no-attrib
# (perf's report) leaves the section out. An empty Shared Data Cache Line
# Table says why and points to --show-all.
source "$TOP_SRCDIR/tests/lib.sh"
source "$TOP_SRCDIR/tests/sim/common.sh"
sim_require
command -v python3 >/dev/null || skip "python3 (reads the report's JSON) is missing"

compile "$TMP/st" "$TOP_SRCDIR/tests/c2c/store_only.c" -g -O1 -pthread || finish
sim_record "$TMP/st.data" "$TMP/rec.err" --sim-cpus 2 -- "$TMP/st" 20000
line=$(sed -n 's/^line=//p' "$TMP/stdout")
[ -n "$line" ] && ok || fail "the program did not print its line"

run_c2c 0 "$TMP/r.json" "$TMP/r.err" report -i "$TMP/st.data" --json -
run_c2c 0 "$TMP/bt.txt" "$TMP/bt.err" report -i "$TMP/st.data" --by-type --json "$TMP/bt.json"
# "displayed? contention row" for the line, and by-type's writes of pair
got=$(python3 - "$TMP/r.json" "$TMP/bt.json" "$line" <<'PY'
import json, sys
r, bt, line = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), int(sys.argv[3], 16)
shown = any(int(l["address"], 16) == line for l in r["lines"])
rows = [c for c in r["store_contention"] if int(c["address"], 16) == line]
writes = sum(f["writes"] for t in bt["by_type"] if t["type"] == "pair" for f in t["fields"])
if not rows:
    print("shown=%s no store_contention row" % shown)
else:
    c = rows[0]
    print("shown=%s first=%s writes=%s cpus=%s loads=%d fields=%s funcs=%s" % (
        shown, r["store_contention"][0] is c, c["writes"] == writes > 0,
        c["writers"]["cpus"], c["loads"], c["fields"], ",".join(c["writers"]["functions"])))
PY
)
expect_eq "JSON: the line is under store_contention, not in perf's lines" \
	"shown=False first=True writes=True cpus=[0, 1] loads=0 fields=pair.a, pair.b funcs=store_a,store_b" \
	"$got"

# the text section: the same line, its writes, cpus, writers and fields
run_c2c 0 "$TMP/r.txt" "$TMP/r2.err" report -i "$TMP/st.data" --stdio
writes=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["store_contention"][0]["writes"])' "$TMP/r.json")
row=$(sed -n '/Store Contention (c2cscope)/,$p' "$TMP/r.txt" | grep -E "^ +0 +$line " | tr -s ' ')
expect_eq "text: the section's first row" " 0 $line $writes $writes 0 0-1 store_a, store_b pair.a, pair.b" \
	"$row"
# the HTML page has the section too, with the text's row
run_c2c 0 "$TMP/h.out" "$TMP/h.err" report -i "$TMP/st.data" --html "$TMP/r.html"
got=$(python3 - "$TMP/r.html" "$line" <<'PY'
import re, sys
page, line = open(sys.argv[1]).read(), sys.argv[2]
sec = page.split('id="stores"', 1)
if len(sec) < 2:
    print("no Store Contention section")
else:
    rows = re.findall(r"<tr>(.*?)</tr>", sec[1].split("</table>", 1)[0], re.S)
    cells = [re.sub(r"<[^>]*>", "", c).strip() for r in rows for c in re.findall(r"<td[^>]*>(.*?)</td>", r, re.S)
             if line in r]
    print(" ".join(cells))
PY
)
expect_eq "HTML: the section's row is the text's" "$(echo "$row" | sed 's/^ //')" "$got"
run_c2c 0 "$TMP/p.txt" "$TMP/p.err" report -i "$TMP/st.data" --stdio --no-attrib
expect_not_contains "--no-attrib: perf's report, no section of ours" "Store Contention" "$TMP/p.txt"
expect_not_contains "--no-attrib: no note of ours" "(empty:" "$TMP/p.txt"

# perf's own decoder: the stores on the line, by cpu, and perf c2c's
# tables do not list it
if command -v perf >/dev/null && perf version >/dev/null 2>&1; then
	want=$(perf script -i "$TMP/st.data" -F cpu,addr,data_src 2>/dev/null | python3 -c '
import sys, collections
line, n = int(sys.argv[1], 16), collections.Counter()
for l in sys.stdin:
    f = l.split()
    if len(f) > 2 and "OP STORE" in l and int(f[1], 16) >> 6 << 6 == line:
        n[int(f[0].strip("[]"))] += 1
print(sum(n.values()), sorted(n))' "$line")
	expect_eq "writes and cpus = perf script's stores on the line" "$writes [0, 1]" "$want"
	perf c2c report -i "$TMP/st.data" --stdio 2>/dev/null >"$TMP/perf.txt"
	expect_not_contains "perf c2c's tables do not list the line" "${line#0x}" "$TMP/perf.txt"
else
	echo "note: perf not installed, not compared with perf script" >&2
fi

# c2csim's HITMs are all local: by remote HITMs no line reaches 0.1%
shared=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["shared_lines"])' "$TMP/r.json")
run_c2c 0 "$TMP/d.txt" "$TMP/d.err" report -i "$TMP/st.data" --stdio -d rmt
expect_contains "empty table: says why, points to --show-all" \
	"(empty: no line reaches 0.1% of the Remote HITMs; $shared shared lines are hidden, --show-all lists them)" \
	"$TMP/d.txt"
run_c2c 0 "$TMP/d.json" "$TMP/d.err" report -i "$TMP/st.data" --json - -d rmt
expect_eq "empty table: JSON displays nothing" "0" \
	"$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["displayed_lines"])' "$TMP/d.json")"
run_c2c 0 "$TMP/a.txt" "$TMP/a.err" report -i "$TMP/st.data" --stdio -d rmt --show-all
expect_not_contains "--show-all: no note" "(empty:" "$TMP/a.txt"
finish
