#!/usr/bin/env bash
# The task_group story under the simulator, on the four builds the demo
# runs (record --sim + report --json, 4 cpus, 32 pipe pairs, 80000
# wakeups). The model wakes the way Linux 6.1 does: the waker runs
# set_task_cpu() (reads rt_se, rt_rq), the target cpu enqueues (writes
# load_avg on attach and PELT decay, reads it in update_cfs_group). Pinned
# here, with margins, against the deterministic simulation:
#  - same work in every build: same wakeups, same load_avg checksum line
#    (ratelimited: same wakeups);
#  - reordered and aligned: >= 30% fewer HITMs on task_group's lines than
#    upstream (measured 58025 -> 38255, -34%), set_task_cpu's HITMs and
#    stall cycles drop >= 3x (28410 -> 1 HITMs);
#  - ratelimited: load_avg's own (true-sharing) HITMs drop >= 4x (29614 ->
#    2397), with the layout unchanged.
# Rows are told apart by the field the report names (task_group's member)
# and by function; tg_lines.py reads the JSON.
source "$TOP_SRCDIR/tests/lib.sh"

"$C2CSCOPE" record --help >/dev/null 2>&1 || skip "c2cscope record is not built yet"
"$C2CSCOPE" report --help >/dev/null 2>&1 || skip "c2cscope report is not built yet"
command -v python3 >/dev/null || skip "python3 (reads the report's JSON) is missing"
dir=$TOP_BUILDDIR/samples/sched-core
tg_lines=$TOP_SRCDIR/tests/sched/tg_lines.py

for b in upstream reordered aligned ratelimited; do
	"$C2CSCOPE" record --sim -o "$TMP/$b.data" -- "$dir/sched-core-$b" --threads 4 \
		--iterations 20000 >"$TMP/$b.rec" 2>&1
	rc=$?
	if [ $rc -ne 0 ] && grep -q -i "not built\|valgrind" "$TMP/$b.rec"; then
		skip "record --sim is not available here: $(head -1 "$TMP/$b.rec")"
	fi
	expect_eq "record --sim $b exit" 0 $rc
	expect_contains "$b ran" "4 cpus, 32 pipe pairs, 80000 wakeups (2500 per pair)" "$TMP/$b.rec"
	expect_contains "$b consistent" ": consistent" "$TMP/$b.rec"
	tg=$(sed -n 's/.*task group at \(0x[0-9a-f]*\);.*/\1/p' "$TMP/$b.rec")
	size=$(sed -n 's/.*struct task_group \([0-9]*\) bytes.*/\1/p' "$TMP/$b.rec")
	[ -n "$tg" ] && [ -n "$size" ] || { fail "$b: the model did not say where task_group is"; continue; }
	# --show-all: every line task_group spans counts, however cold
	run_c2c 0 "$TMP/$b.txt" "$TMP/$b.err" report -i "$TMP/$b.data" --show-all \
		--json "$TMP/$b.json"
	python3 "$tg_lines" "$TMP/$b.json" "$tg" "$size" >"$TMP/$b.facts" ||
		fail "$b: cannot read the report's JSON"
	# the ratelimit makes the line cold; the layouts leave it hot
	[ $b = ratelimited ] && continue
	rank=$(awk '$1 == "rank" { print $2 }' "$TMP/$b.facts")
	[ -n "$rank" ] && [ "$rank" -ge 0 ] && [ "$rank" -lt 3 ] && ok ||
		fail "$b: task_group's line is not among the top 3 HITM lines (rank '$rank')"
done

fact() { awk -v k="$2" '$1 == k { print $2 }' "$TMP/$1.facts"; } # BUILD line|load_avg
fn() { awk -v s="$2" -v c="$3" '$1 == "fn" && $2 == s { print $c }' "$TMP/$1.facts"; }
fn_hitm() { local v; v=$(fn "$1" "$2" 3); echo "${v:-0}"; }
fn_cycles() { local v; v=$(fn "$1" "$2" 4); echo "${v:-0}"; }

# Same work: the simulation is deterministic and the builds differ only in
# where the fields sit, so the same wakeups leave the same load_avg.
for b in reordered aligned; do
	expect_eq "$b: same load_avg checksum line as upstream" \
		"$(grep ': load_avg ' "$TMP/upstream.rec")" "$(grep ': load_avg ' "$TMP/$b.rec")"
done

up=$(fact upstream line)
[ "$up" -ge 10000 ] && ok || fail "upstream: only $up HITMs on task_group's lines"
up_stc=$(fn_hitm upstream set_task_cpu) up_stc_cyc=$(fn_cycles upstream set_task_cpu)
[ "$up_stc" -ge 5000 ] && ok || fail "upstream: set_task_cpu has only $up_stc HITMs"
for b in reordered aligned; do
	n=$(fact $b line) stc=$(fn_hitm $b set_task_cpu) cyc=$(fn_cycles $b set_task_cpu)
	[ $((n * 100)) -le $((up * 70)) ] && ok ||
		fail "$b: $n HITMs on task_group's lines, not >= 30% fewer than upstream's $up"
	[ $((stc * 3)) -le "$up_stc" ] && ok ||
		fail "$b: set_task_cpu HITMs $stc, not 3x fewer than upstream's $up_stc"
	[ $((cyc * 3)) -le "$up_stc_cyc" ] && ok ||
		fail "$b: set_task_cpu stall cycles $cyc, not 3x fewer than upstream's $up_stc_cyc"
	# what the reorder leaves is load_avg's own sharing, in its own functions
	[ "$(fn_hitm $b update_cfs_group)" -gt 0 ] && [ "$(fn_hitm $b update_tg_load_avg)" -gt 0 ] &&
		ok || fail "$b: load_avg's rows in update_cfs_group/update_tg_load_avg are gone"
	echo "$b: task_group lines $up -> $n HITMs; set_task_cpu $up_stc -> $stc HITMs, $up_stc_cyc -> $cyc cycles"
done

# The ratelimit cuts the true sharing: load_avg's own HITMs.
expect_eq "ratelimited: same wakeups" "$(grep -o '[0-9]* wakeups (' "$TMP/upstream.rec")" \
	"$(grep -o '[0-9]* wakeups (' "$TMP/ratelimited.rec")"
up_la=$(fact upstream load_avg) rl_la=$(fact ratelimited load_avg)
[ "$up_la" -ge 5000 ] && [ $((rl_la * 4)) -le "$up_la" ] && ok ||
	fail "ratelimited: load_avg HITMs $rl_la, not 4x fewer than upstream's $up_la"
echo "ratelimited: load_avg's own HITMs $up_la -> $rl_la"

# The text report names the upstream rows: rt_se at 0x8 and rt_rq at 0x10
# of load_avg's line in set_task_cpu, load_avg at 0x0 in update_tg_load_avg.
grep -E '^ .* 0x8 .*set_task_cpu .*\.rt_se *$' "$TMP/upstream.txt" >/dev/null && ok ||
	fail "the upstream text report has no 0x8 set_task_cpu row naming rt_se"
grep -E '^ .* 0x10 .*set_task_cpu .*\.rt_rq *$' "$TMP/upstream.txt" >/dev/null && ok ||
	fail "the upstream text report has no 0x10 set_task_cpu row naming rt_rq"
grep -E '^ .* 0x0 .*update_tg_load_avg .*\.load_avg(\.counter)? *$' "$TMP/upstream.txt" >/dev/null &&
	ok || fail "the upstream text report has no update_tg_load_avg row naming load_avg"
finish
