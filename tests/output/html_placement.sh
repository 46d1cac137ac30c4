#!/usr/bin/env bash
# report --html on a recording with sched tracepoints (record --sched): the
# page's Task placement table holds the rows of the text report's Task
# placement section, cell for cell, and the page stays well formed.
source "$TOP_SRCDIR/tests/lib.sh"
source "$TOP_SRCDIR/tests/record/common.sh"
command -v python3 >/dev/null || skip "python3 (reads the page) is missing"
record_require
system_wide_require
tracefs_require

compile "$TMP/placed" "$TOP_SRCDIR/tests/record/placed.c" -O1 -g -pthread || exit 1
run_c2c 0 "$TMP/tids" "$TMP/rec.err" record --sched -e page-faults -c 1 -a -o "$TMP/s.data" -- \
	"$TMP/placed"
run_c2c 0 "$TMP/rep.txt" "$TMP/rep.err" report -i "$TMP/s.data" --stdio --html "$TMP/s.html"
python3 "$TOP_SRCDIR/tests/output/html_check.py" "$TMP/s.html" >"$TMP/check.out" 2>&1 && ok ||
	fail "page: $(head -5 "$TMP/check.out")"

# the text section's rows, spaces squeezed, against the page's rows
sed -n '/^ *Task placement$/,$p' "$TMP/rep.txt" | awk 'f && NF { print } /^ *Tid  *Pid/ { f = 1 }' |
	tr -s ' ' | sed 's/^ //' >"$TMP/text.rows"
python3 - "$TMP/s.html" "$TOP_SRCDIR/tests/output" >"$TMP/html.rows" <<'PY'
import sys
sys.path.insert(0, sys.argv[2])
import html_check
p = html_check.Page()
p.feed(open(sys.argv[1]).read())
t = [t for t in p.tables if t["context"] == "Task placement"]
for row in (t[0]["rows"] if t else []):
    # an empty cell (a thread with no comm) is no word in the text's row either
    print(" ".join(w for c in row for w in c.split()))
PY
expect_eq "placement rows: as many as the text's" "$(wc -l <"$TMP/text.rows")" "$(wc -l <"$TMP/html.rows")"
[ -s "$TMP/text.rows" ] && ok || fail "the text report has no Task placement rows"
if cmp -s <(sort "$TMP/text.rows") <(sort "$TMP/html.rows"); then
	ok
else
	fail "placement rows differ: $(diff <(sort "$TMP/text.rows") <(sort "$TMP/html.rows") | head -6)"
fi
for tid in $(cat "$TMP/tids"); do
	grep -q "^$tid [0-9]* placed " "$TMP/html.rows" && ok || fail "thread $tid not on the page"
done

finish
