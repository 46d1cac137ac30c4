#!/usr/bin/env bash
# Field attribution end to end: the false-sharing samples recorded with
# record --sim, reported with field names. At least 95% of each file's HITM
# samples land on the right fields (named exactly: counters.a, cfg.limit,
# thread_arg.sum, stats.hits), globals (adjacent, lockword, truecount) and
# a heap array reached through a pointer (args) both; --stats reasons add
# up to the sample count; --by-type agrees with the report's rows.
source "$TOP_SRCDIR/tests/lib.sh"
source "$TOP_SRCDIR/tests/sim/common.sh"
sim_require
command -v python3 >/dev/null || skip "python3 (reads the report's JSON) is missing"
N=3000

# fields FILE.json KIND ALSO EXPECTED...: "HITMS RIGHT" over all rows, then
# one "label kind hitm" line per expected field; RIGHT counts HITMs on rows
# whose label is one of EXPECTED or ALSO (space-separated fields the code
# may touch on those lines, depending on the compiler's choices) and whose
# attribution kind is KIND.
fields() {
	python3 - "$@" <<'PY'
import json, sys, collections
d = json.load(open(sys.argv[1]))
kind, also, want = sys.argv[2], sys.argv[3].split(), sys.argv[4:]
total = right = 0
per = collections.Counter()
kinds = {}
for ln in d["lines"]:
    for r in ln["rows"]:
        a, h = r["attribution"], r["stats"]["tot_hitm"]
        total += h
        per[a["label"]] += h
        kinds.setdefault(a["label"], a["kind"])
        if (a["label"] in want or a["label"] in also) and a["kind"] == kind:
            right += h
print(total, right)
for w in want:
    print(w, kinds.get(w, "-"), per[w])
PY
}

# check NAME KIND FIELD...: record NAME, report, >= 95% of HITMs right, each
# FIELD hit; $also: other right answers, not required
check() {
	local name=$1 kind=$2 total right f k h
	shift 2
	sim_record "$TMP/$name.data" "$TMP/$name.rec" --sim-cpus 4 --sim-nodes 2 -- \
		"$SAMPLES/$name" $N
	run_c2c 0 "$TMP/$name.txt" "$TMP/$name.err" report -i "$TMP/$name.data" \
		--json "$TMP/$name.json"
	fields "$TMP/$name.json" "$kind" "${also:-}" "$@" >"$TMP/$name.fields" ||
		{ fail "$name: cannot read the JSON"; return; }
	read -r total right <"$TMP/$name.fields"
	[ "$total" -gt 0 ] && [ $((right * 100)) -ge $((total * 95)) ] && ok ||
		fail "$name: $right of $total HITM samples on $* ($kind), want >= 95%"
	while read -r f k h; do
		[ "$h" -gt 0 ] && ok || fail "$name: no HITM on $f"
		expect_eq "$name: $f is reached as a $kind" "$kind" "$k"
		# the text report names it in the Pareto rows
		grep -qE " $f *\$" "$TMP/$name.txt" && ok || fail "$name: text report has no $f row"
	done < <(tail -n +2 "$TMP/$name.fields")
	echo "$name: $right of $total HITMs on $*"
}

# bump's loop bound shares the counters' line: built without -O2 it is
# read each round, and its misses are HITMs on iterations, rightly named
also=iterations check adjacent global counters.a counters.b
check lockword global cfg.lock cfg.updates cfg.limit cfg.scale
check truecount global stats.hits
check args pointer thread_arg.sum thread_arg.count

# where the data lives: the globals in the binary, the args array on the heap
line_objects() { # FILE.json OBJECT: the mappings of the lines whose rows name OBJECT
	python3 - "$1" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print(" ".join(sorted({l["object"] or "-" for l in d["lines"] if sys.argv[2] in l["objects"]})))
PY
}
expect_eq "args: thread_arg lives on the heap" "[heap]" "$(line_objects "$TMP/args.json" thread_arg)"
expect_eq "lockword: cfg lives in the binary" "lockword" "$(line_objects "$TMP/lockword.json" cfg)"
expect_eq "adjacent: counters lives in the binary" "adjacent" \
	"$(line_objects "$TMP/adjacent.json" counters)"

# the line table names the objects on each line
grep -E '0x[0-9a-f]+ .* counters$|,counters$|,counters,' "$TMP/adjacent.txt" >/dev/null && ok ||
	fail "adjacent: the line table does not name 'counters'"
grep -E ' thread_arg$| thread_arg,|,thread_arg' "$TMP/args.txt" >/dev/null && ok ||
	fail "args: the line table does not name 'thread_arg'"

# --stats: the reasons add up to the sample count, in text and JSON
for name in lockword args; do
	run_c2c 0 "$TMP/$name.stats" "$TMP/$name.serr" report -i "$TMP/$name.data" --stats
	samples=$(sed -n 's/^  Samples *: *\([0-9]*\)$/\1/p' "$TMP/$name.stats")
	sum=$(sed -n '/Field attribution/,$p' "$TMP/$name.stats" |
		awk -F: '/^  [a-z-]+ +:/ { n += $2 } END { print n + 0 }')
	expect_eq "$name: --stats reasons add up to Samples" "$samples" "$sum"
	expect_eq "$name: Samples is the report's sample count" \
		"$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["samples"])' \
			"$TMP/$name.json")" "$samples"
	expect_eq "$name: JSON reasons add up" "$samples" "$(python3 -c '
import json, sys
print(sum(json.load(open(sys.argv[1]))["attribution_stats"].values()))' "$TMP/$name.json")"
	ok_n=$(sed -n 's/^  ok *: *\([0-9]*\)$/\1/p' "$TMP/$name.stats")
	[ "$ok_n" -gt 0 ] && ok || fail "$name: no sample attributed"
done

# --by-type: config's fields in offset order, HITMs as the rows say, the
# writers' HITMs local (cpus 0 and 2, node 0) and the readers' remote.
run_c2c 0 "$TMP/bt.txt" "$TMP/bt.err" report -i "$TMP/lockword.data" --by-type \
	--json "$TMP/bt.json"
python3 - "$TMP/bt.json" >"$TMP/bt.rows" <<'PY' || fail "by-type: cannot read the JSON"
import json, sys, collections
d = json.load(open(sys.argv[1]))
rows = collections.Counter()
for ln in d["lines"]:
    for r in ln["rows"]:
        a = r["attribution"]
        if a["outer_type"] == "config":
            for k in ("lcl_hitm", "rmt_hitm", "load", "store", "locks"):
                rows[a["outer_field"], k] += r["stats"][k]
t = [t for t in d["by_type"] if t["type"] == "config"][0]
for f in t["fields"]:
    print(f["field"], f["offset"], f["lcl_hitm"], f["rmt_hitm"], f["loads"] > 0,
          f["stores"] > 0, f["cpu_count"], ",".join(f["readers"]) or "-",
          ",".join(f["writers"]) or "-",
          [rows[f["field"], k] for k in ("lcl_hitm", "rmt_hitm", "load", "store", "locks")] ==
          [f[k] for k in ("lcl_hitm", "rmt_hitm", "loads", "stores", "locked")],
          f["loads"], f["stores"], f["locked"])
PY
expect_eq "by-type: config's fields" "lock 0 updates 8 limit 16 scale 24" \
	"$(echo $(awk '{ print $1, $2 }' "$TMP/bt.rows"))"
# (config's lines are all shown, and every row with a HITM or store is)
expect_eq "by-type: HITMs, loads, stores, locked = the report's rows" "True True True True" \
	"$(echo $(awk '{ print $10 }' "$TMP/bt.rows"))"
expect_eq "by-type: readers, writers, cpus" \
	"lock 2 writer writer|updates 2 writer writer|limit 2 reader -|scale 2 reader -" \
	"$(awk '{ print $1, $7, $8, $9 }' "$TMP/bt.rows" | paste -sd'|')"
expect_eq "by-type: limit and scale: remote HITMs only, never stored" \
	"0 True False 0 True False" \
	"$(echo $(awk '$1 == "limit" || $1 == "scale" { print $3, $5, $6 }' "$TMP/bt.rows"))"
[ "$(awk '$1 == "limit" { print $4 }' "$TMP/bt.rows")" -gt 0 ] && ok ||
	fail "by-type: limit has no remote HITM"
expect_eq "by-type: lock and updates: local HITMs only, stored" "0 True 0 True" \
	"$(echo $(awk '$1 == "lock" || $1 == "updates" { print $4, $6 }' "$TMP/bt.rows"))"
# the text table shows the same numbers
while read -r f _ lcl rmt _ _ cpus rd wr _ ld st lk; do
	grep -qE "^  config +$f +$lcl +$rmt +$ld +$st +$lk +$cpus +$rd +$wr *\$" "$TMP/bt.txt" && ok ||
		fail "by-type text: no 'config $f $lcl $rmt $ld $st $lk $cpus $rd $wr' row"
done <"$TMP/bt.rows"
# the lock is taken with xchg (locked), the readers never write
expect_eq "by-type: locked accesses: lock yes, limit and scale no" "True False False" \
	"$(echo $(awk '$1 == "lock" { print ($13 > 0) ? "True" : "False" }
		$1 == "limit" || $1 == "scale" { print ($13 > 0) ? "True" : "False" }' "$TMP/bt.rows"))"
# --type GLOB: the same rows for the matching types only
run_c2c 0 "$TMP/bt1.txt" "$TMP/bt1.err" report -i "$TMP/lockword.data" --type 'con*'
expect_eq "--type: only config's rows, the same numbers" \
	"$(grep '^  config ' "$TMP/bt.txt" | tr -s ' ')" "$(sed -n '/^  =/,$p' "$TMP/bt1.txt" | sed 1d | tr -s ' ')"
[ "$(grep -c '^  config ' "$TMP/bt1.txt")" -eq 4 ] && ok || fail "--type: config's 4 fields"
run_c2c 0 "$TMP/bt2.txt" "$TMP/bt2.err" report -i "$TMP/lockword.data" --type config --json - --stdio
expect_eq "--type with --json: one type" "config" "$(python3 -c '
import json, sys
print(",".join(t["type"] for t in json.load(open(sys.argv[1]))["by_type"]))' "$TMP/bt2.txt")"
run_c2c 2 "$TMP/o" "$TMP/e" report -i "$TMP/lockword.data" --type 'no_such*'
expect_contains "--type matching nothing" "no sample was attributed to a struct type matching 'no_such*'" "$TMP/e"
finish
