#!/usr/bin/env bash
# record --sched, then c2cscope report's "Task placement": for each of a
# program's two pinned threads, the cpus, migrations and switch-ins are
# what perf script decodes from the same file (the cpus sched_switch
# switched it in on, sched_migrate_task moved it to and its page faults
# came from; the number of each event), and its lines are its own pages.
. "$TOP_SRCDIR/tests/lib.sh"
. "$TOP_SRCDIR/tests/record/common.sh"
perf_require
placed_record
expect_contains "section" "Task placement" "$TMP/rep"
perf script -i "$TMP/s.data" -F event,cpu,tid,trace 2>/dev/null >"$TMP/script"

# cpus of TID per perf: switched in there, migrated there, faulted there
perf_cpus() {
	{
		awk -v t="$1" '/sched:sched_switch:/ && $0 ~ ("next_pid=" t " ") { print $2 }' "$TMP/script" |
			tr -d '[]'
		awk -v t="$1" '/sched:sched_migrate_task:/ && $0 ~ (" pid=" t " ") {
			for (i = 1; i <= NF; i++) if ($i ~ /^dest_cpu=/) { sub("dest_cpu=", "", $i); print $i } }' "$TMP/script"
		awk -v t="$1" '$1 == t && /page-faults:/ { print $2 }' "$TMP/script" | tr -d '[]'
	} | sed 's/^0*\([0-9]\)/\1/' | sort -nu | paste -sd, -
}
for tid in $(cat "$TMP/tids"); do
	row=$(awk -v t="$tid" '$1 == t && NF >= 8' "$TMP/rep" | sed -n '/Task placement/!p' | tail -1)
	[ -n "$row" ] || { fail "no Task placement row for thread $tid"; continue; }
	cpus=$(echo "$row" | awk '{ print $4 }' | awk -F, '{ for (i = 1; i <= NF; i++) {
		n = split($i, r, "-"); for (c = r[1]; c <= r[n]; c++) printf "%s%d", (o++ ? "," : ""), c } }')
	expect_eq "thread $tid cpus" "$(perf_cpus "$tid")" "$cpus"
	expect_eq "thread $tid migrations" \
		"$(grep 'sched:sched_migrate_task:' "$TMP/script" | grep -c " pid=$tid ")" \
		"$(echo "$row" | awk '{ print $6 }')"
	expect_eq "thread $tid switch-ins" \
		"$(grep 'sched:sched_switch:' "$TMP/script" | grep -c "next_pid=$tid ")" \
		"$(echo "$row" | awk '{ print $7 }')"
	expect_eq "thread $tid comm" placed "$(echo "$row" | awk '{ print $3 }')"
done
finish
