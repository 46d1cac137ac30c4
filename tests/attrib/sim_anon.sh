#!/usr/bin/env bash
# A field inside an anonymous wrapper struct (Aaron Lu's isolation of
# task_group.load_avg: struct { atomic_long_t load_avg; }
# ____cacheline_aligned) is found by layout --profile and suggest
# --profile: the wrapper is one member, named after the field it holds,
# with report --by-type's counts for that field, and its true sharing is
# named. Before, the profile skipped unnamed members and lost the field.
source "$TOP_SRCDIR/tests/lib.sh"
source "$TOP_SRCDIR/tests/sim/common.sh"
sim_require
command -v python3 >/dev/null || skip "python3 (reads the report's JSON) is missing"

compile "$TMP/anon" "$TOP_SRCDIR/tests/attrib/anon_wrapper.c" -g -O1 -pthread || finish
sim_record "$TMP/anon.data" "$TMP/anon.rec" --sim-cpus 4 -- "$TMP/anon" 4 2000

# by-type's counts for stats.hits: "hitm L/R ld N st S" as layout prints them
run_c2c 0 "$TMP/bt.txt" "$TMP/bt.err" report -i "$TMP/anon.data" --by-type --json "$TMP/bt.json"
want=$(python3 - "$TMP/bt.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for f in [t for t in d["by_type"] if t["type"] == "stats"][0]["fields"]:
    if f["field"] == "hits":
        print("hitm %d/%d ld %d st %d" % (f["lcl_hitm"], f["rmt_hitm"], f["loads"],
              f["writes"]))
PY
)
[ -n "$want" ] && ok || fail "report --by-type has no stats.hits"
# one rule for writes: a locked RMW (c2csim samples it as a locked load)
# is a write; here every write of hits is one, and no plain store
expect_eq "by-type: hits' writes are its locked loads" "ok" "$(python3 - "$TMP/bt.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
f = [f for t in d["by_type"] if t["type"] == "stats" for f in t["fields"] if f["field"] == "hits"][0]
print("ok" if f["writes"] == f["stores"] + f["locked"] and f["locked"] == f["loads"] > 0 else f)
PY
)"

run_c2c 0 "$TMP/lay.txt" "$TMP/lay.err" layout --profile "$TMP/anon.data" -C stats "$TMP/anon"
# the wrapper's closing line carries the counts: "} ... /* 64 64 */ hitm ..."
got=$(sed -n 's/^\t} .*\/\*  *64  *64 \*\/ \(hitm [0-9/]* ld [0-9]* st [0-9]*\).*/\1/p' "$TMP/lay.txt")
expect_eq "layout --profile: the wrapper has hits' counts" "$want" "$got"
tab=$'\t'
grep -qE "^$tab} .*\*/ hitm [1-9][0-9]*/0 .* w:worker <- true sharing\$" "$TMP/lay.txt" && ok ||
	fail "layout --profile: the wrapper is not marked true sharing"
expect_contains "layout --profile: verdict names hits" "true sharing: hits (written by cpus 0,1,2,3)" \
	"$TMP/lay.txt"
grep -q "^false sharing" "$TMP/lay.txt" && fail "layout --profile: false sharing claimed" || ok

run_c2c 0 "$TMP/sg.txt" "$TMP/sg.err" suggest --profile "$TMP/anon.data" -C stats "$TMP/anon"
grep -qE "^$tab} .*\*/ \[write-hot hitm [1-9][0-9]* " "$TMP/sg.txt" && ok ||
	fail "suggest --profile: the wrapper is not write-hot"
grep -qE 'predicted: .*HITMs ([0-9]+) -> \1 \(HITMs on a field several contexts write stay' \
	"$TMP/sg.txt" && ok || fail "suggest --profile: hits' HITMs are not kept as true sharing"
finish
