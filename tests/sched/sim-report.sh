#!/usr/bin/env bash
# The task_group story under the simulator: record --sim + report on the
# upstream and the reordered model. Upstream: load_avg's line is among the
# top HITM lines, with rows at 0x0 (load_avg: update_tg_load_avg's atomic
# add, update_cfs_group's reads) and at 0x8/0x10 (rt_se, rt_rq: read by
# set_task_cpu). Reordered: the set_task_cpu rows are gone, load_avg's stay
# (true sharing), and HITMs on the line's other fields drop by >= 95%
# (from thousands: 9897 -> 0 with 4 threads x 20000 cycles).
# Rows are told apart by the field the report names (task_group's top-level
# member: load_avg, rt_se, rt_rq) and by function.
source "$TOP_SRCDIR/tests/lib.sh"

"$C2CSCOPE" record --help >/dev/null 2>&1 || skip "c2cscope record is not built yet"
"$C2CSCOPE" report --help >/dev/null 2>&1 || skip "c2cscope report is not built yet"
command -v python3 >/dev/null || skip "python3 (reads the report's JSON) is missing"
dir=$TOP_BUILDDIR/samples/sched-core

for b in upstream reordered; do
	"$C2CSCOPE" record --sim -o "$TMP/$b.data" -- "$dir/sched-core-$b" --threads 4 \
		--iterations 20000 >"$TMP/$b.rec" 2>&1
	rc=$?
	if [ $rc -ne 0 ] && grep -q -i "not built\|valgrind" "$TMP/$b.rec"; then
		skip "record --sim is not available here: $(head -1 "$TMP/$b.rec")"
	fi
	expect_eq "record --sim $b exit" 0 $rc
	expect_contains "$b ran" ": consistent" "$TMP/$b.rec"
	line=$(sed -n 's/.*load_avg line at \(0x[0-9a-f]*\).*/\1/p' "$TMP/$b.rec")
	[ -n "$line" ] || { fail "$b: no 'load_avg line at' in the model's output"; continue; }
	run_c2c 0 "$TMP/$b.txt" "$TMP/$b.err" report -i "$TMP/$b.data" --json "$TMP/$b.json"
	# offset field symbol hitm, one row a line, for load_avg's line (field:
	# task_group's member the report names, "-" when not task_group's);
	# then "rank N total T"
	python3 - "$TMP/$b.json" "$line" >"$TMP/$b.rows" <<'PY' || fail "$b: cannot read the report's JSON"
import json, sys
d = json.load(open(sys.argv[1]))
want = int(sys.argv[2], 16)
for ln in d["lines"]:
    if int(ln["address"], 16) != want:
        continue
    for r in ln["rows"]:
        a = r.get("attribution") or {}
        f = "-"
        if a.get("outer_type") == "task_group" and a.get("outer_field"):
            f = a["outer_field"].replace("[", ".").split(".")[0]
        print(int(r["offset"], 16), f, r.get("symbol") or "?", r["stats"]["tot_hitm"])
    print("rank", ln["index"], ln["stats"]["tot_hitm"])
    break
PY
	rank=$(awk '$1 == "rank" { print $2 }' "$TMP/$b.rows")
	[ -n "$rank" ] && [ "$rank" -lt 3 ] && ok ||
		fail "$b: load_avg's line $line is not among the top 3 HITM lines (rank '$rank')"
done

hitm() { # FILE FIELD SYMBOL: HITMs of the rows on task_group.FIELD in SYMBOL
	awk -v f="$2" -v s="$3" '$2 == f && $3 == s { n += $4 } END { print n + 0 }' "$1"
}
offset_of() { # FILE FIELD: the line offsets the report names FIELD at
	awk -v f="$2" '$2 == f { print $1 }' "$1" | sort -un | paste -sd,
}
other() { # FILE: HITMs on fields other than load_avg (rows only)
	awk '$1 != "rank" && $2 != "load_avg" { n += $4 } END { print n + 0 }' "$1"
}
up=$TMP/upstream.rows re=$TMP/reordered.rows
for f in update_tg_load_avg update_cfs_group; do
	[ "$(hitm "$up" load_avg $f)" -gt 0 ] && ok || fail "upstream: no HITM on load_avg in $f"
	[ "$(hitm "$re" load_avg $f)" -gt 0 ] && ok || fail "reordered: load_avg's row in $f is gone"
done
# the names sit where the layout puts them: load_avg starts the line
# (offset 256 of task_group), rt_se and rt_rq follow at 0x8 and 0x10
expect_eq "upstream: load_avg at the line's 0x0" 0 "$(offset_of "$up" load_avg)"
expect_eq "reordered: load_avg at the line's 0x0" 0 "$(offset_of "$re" load_avg)"
# rt_se and rt_rq, both read by set_task_cpu on every migration: each must
# be a large row. The simulation is deterministic and the model's cycles
# vary in length, so these counts do not depend on the machine's load
# (4 threads x 20000 cycles: rt_se 7677, rt_rq 2220).
rt_se_hitm=$(hitm "$up" rt_se set_task_cpu) rt_rq_hitm=$(hitm "$up" rt_rq set_task_cpu)
[ "$rt_se_hitm" -ge 1000 ] && ok || fail "upstream: set_task_cpu's HITMs on rt_se: $rt_se_hitm < 1000"
[ "$rt_rq_hitm" -ge 1000 ] && ok || fail "upstream: set_task_cpu's HITMs on rt_rq: $rt_rq_hitm < 1000"
expect_eq "upstream: rt_se at 0x8" 8 "$(offset_of "$up" rt_se)"
expect_eq "upstream: rt_rq at 0x10" 16 "$(offset_of "$up" rt_rq)"
grep -q ' set_task_cpu ' "$re" && fail "reordered: set_task_cpu still has rows on load_avg's line" || ok
up_other=$(other "$up") re_other=$(other "$re")
if [ "$up_other" -ge 2000 ] && [ $((re_other * 20)) -le "$up_other" ]; then
	ok
else
	fail "HITMs on other fields: upstream $up_other, reordered $re_other (want >= 2000 upstream and a >= 95% drop)"
fi
# The text report shows the same rows, with the fields by name.
grep -E '^ .* 0x8 .*set_task_cpu .*\.rt_se *$' "$TMP/upstream.txt" >/dev/null && ok ||
	fail "the upstream text report has no 0x8 set_task_cpu row naming rt_se"
grep -E '^ .* 0x10 .*set_task_cpu .*\.rt_rq *$' "$TMP/upstream.txt" >/dev/null && ok ||
	fail "the upstream text report has no 0x10 set_task_cpu row naming rt_rq"
grep -E '^ .* 0x0 .*update_tg_load_avg .*\.load_avg(\.counter)? *$' "$TMP/upstream.txt" >/dev/null &&
	ok || fail "the upstream text report has no update_tg_load_avg row naming load_avg"
echo "upstream: set_task_cpu HITMs rt_se $rt_se_hitm, rt_rq $rt_rq_hitm; other-field HITMs $up_other; reordered: $re_other"
finish
