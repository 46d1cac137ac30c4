#!/usr/bin/env bash
# layout --profile and suggest --profile on the false-sharing samples under
# the simulator: each member's counts beside it (the same numbers as
# report --by-type), false sharing marked where a written field shares its
# line with fields other cpus touch, true sharing where several cpus write
# one field; the padded builds move the marks with the fields.
source "$TOP_SRCDIR/tests/lib.sh"
source "$TOP_SRCDIR/tests/sim/common.sh"
sim_require
command -v python3 >/dev/null || skip "python3 (reads the report's JSON) is missing"
N=2000

rec() { # NAME: record SAMPLES/NAME with 4 cpus on 2 nodes
	sim_record "$TMP/$1.data" "$TMP/$1.rec" --sim-cpus 4 --sim-nodes 2 -- "$SAMPLES/$1" $N
}

# marks FILE: "member marks..." for each annotated member line
marks() {
	sed -n 's/^\t[^;]* \([a-z_]*\);.*\*\/ hitm .*/\1 &/p' "$1" |
		awk '{ m = $1; s = ""; if (/false sharing/) s = s " false"; if (/true sharing/) s = s " true"; print m s }'
}

for b in lockword lockword_padded adjacent truecount args; do
	rec $b
done

run_c2c 0 "$TMP/lw.txt" "$TMP/lw.err" layout --profile "$TMP/lockword.data" -C config
expect_eq "lockword: marks" "lock false true|updates false true|limit false|scale false" \
	"$(marks "$TMP/lw.txt" | paste -sd'|')"
expect_contains "lockword: lock's verdict" \
	"false sharing: line 0: lock (written by cpus 0,2) with limit (cpus 1,3), scale (cpus 1,3)" \
	"$TMP/lw.txt"
expect_contains "lockword: true sharing on lock" "true sharing: lock (written by cpus 0,2)" \
	"$TMP/lw.txt"
expect_contains "lockword: the layout is pahole's" "/* size: 32, cachelines: 1, members: 4 */" \
	"$TMP/lw.txt"

# the counts beside each member are report --by-type's
run_c2c 0 "$TMP/bt.txt" "$TMP/bt.err" report -i "$TMP/lockword.data" --by-type --json "$TMP/bt.json"
python3 - "$TMP/bt.json" >"$TMP/bt.want" <<'PY' || fail "cannot read the by-type JSON"
import json, sys
d = json.load(open(sys.argv[1]))
for f in [t for t in d["by_type"] if t["type"] == "config"][0]["fields"]:
    w = ", ".join(f["writers"])
    print("%s hitm %d/%d ld %d st %d r:%s%s" % (f["field"], f["lcl_hitm"], f["rmt_hitm"],
          f["loads"], f["stores"] + f["locked"], ", ".join(f["readers"]),
          " w:" + w if w else ""))
PY
sed -n 's/^\t[^;]* \([a-z_]*\);.*\*\/ \(hitm [^<]*\)\( <-.*\)*$/\1 \2/p' "$TMP/lw.txt" |
	sed 's/ *$//' >"$TMP/bt.got"
expect_eq "lockword: counts beside members = by-type" "$(cat "$TMP/bt.want")" "$(cat "$TMP/bt.got")"
expect_eq "lockword: four members counted" 4 "$(wc -l <"$TMP/bt.got")"

# padded: limit and scale on their own line, only the lock's true sharing left
run_c2c 0 "$TMP/lp.txt" "$TMP/lp.err" layout --profile "$TMP/lockword_padded.data" -C config \
	"$SAMPLES/lockword_padded"
expect_eq "lockword_padded: marks" "lock true|updates true" \
	"$(marks "$TMP/lp.txt" | grep -v '^limit$\|^scale$' | paste -sd'|')"
grep -q "^false sharing" "$TMP/lp.txt" && fail "lockword_padded: false sharing left" || ok

run_c2c 0 "$TMP/adj.txt" "$TMP/adj.err" layout --profile "$TMP/adjacent.data" -C counters
expect_eq "adjacent: marks" "a false|b false" "$(marks "$TMP/adj.txt" | paste -sd'|')"
grep -q "^true sharing" "$TMP/adj.txt" && fail "adjacent: true sharing claimed" || ok

run_c2c 0 "$TMP/tc.txt" "$TMP/tc.err" layout --profile "$TMP/truecount.data" -C stats \
	"$SAMPLES/truecount"
expect_eq "truecount: marks" "hits true" "$(marks "$TMP/tc.txt")"
expect_contains "truecount: verdict" "true sharing: hits (written by cpus 0,1,2,3)" "$TMP/tc.txt"

# per-thread structs in one heap array: each object's sum is written by its
# own thread only, yet the neighbours' lines ping-pong
run_c2c 0 "$TMP/args.txt" "$TMP/args.err" layout --profile "$TMP/args.data" -C thread_arg
grep -qE '^false sharing between objects: sum(, count)? \(4 objects, [1-9][0-9]* HITMs from outside each object' \
	"$TMP/args.txt" && ok || fail "args: no false sharing between objects on sum"
grep -q "^true sharing: sum" "$TMP/args.txt" && fail "args: sum called true sharing" || ok

# --format json: the same numbers, marks and verdicts as the text
json_as_text() { # JSON: the text's member counts, marks and verdict lines
	python3 - "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
cpus = lambda l: ",".join(str(c) for c in l)
for f in d["fields"]:
    if not (f["loads"] or f["stores"]):
        continue
    s = "%s hitm %d/%d ld %d st %d" % (f["name"], f["hitm_local"], f["hitm_remote"], f["loads"], f["stores"])
    if f["reader_funcs"]: s += " r:" + ", ".join(f["reader_funcs"])
    if f["writer_funcs"]: s += " w:" + ", ".join(f["writer_funcs"])
    if f["false_sharing"]: s += " <- false sharing"
    if f["true_sharing"]: s += " <- true sharing"
    if f["between_objects"]: s += " <- between objects"
    print(s)
fd = d["findings"]
for v in fd["false_sharing"]:
    print("false sharing: line %d: %s (written by cpus %s) with %s" % (v["line"], v["field"],
          cpus(v["writers"]), ", ".join("%s (cpus %s)" % (w["field"], cpus(w["contexts"])) for w in v["with"])))
b = fd["between_objects"]
if b:
    print("false sharing between objects: %s (%d objects, %d HITMs from outside each object: "
          "neighbouring objects share cache lines)" % (", ".join(b["fields"]), b["objects"], b["hitm"]))
for e in fd["between_elements"]:
    print("false sharing between elements: %s (%d HITMs from cpus writing neighbouring elements)"
          % (e["field"], e["hitm"]))
for t in fd["true_sharing"]:
    print("true sharing: %s (written by cpus %s)" % (t["field"], cpus(t["writers"])))
PY
}
text_profile() { # TEXT: member counts and marks, then the verdict lines
	sed -n 's/^\t[^;]* \([a-z_]*\);.*\*\/ \(hitm .*\)$/\1 \2/p' "$1"
	sed -n '/^\/\* profile: /,$p' "$1" | grep -E '^(false|true) sharing'
}
for c in "lockword config" "args thread_arg"; do
	set -- $c
	[ "$1" = args ] && t="$TMP/args.txt" || t="$TMP/lw.txt"
	run_c2c 0 "$TMP/$1.json" "$TMP/$1.jerr" layout --profile "$TMP/$1.data" -C $2 --format json
	[ "$(text_profile "$t" | wc -l)" -ge 2 ] && ok || fail "$1: too little to compare in $t"
	expect_eq "$1: JSON = text (counts, marks, verdicts)" "$(text_profile "$t")" \
		"$(json_as_text "$TMP/$1.json" 2>&1)"
done
expect_eq "lockword: JSON carries the v1 layout" "config 32 4" \
	"$(python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["struct"]; print(s["name"], s["size"], len(s["members"]))' "$TMP/lockword.json")"

# usage errors
run_c2c 2 "$TMP/o" "$TMP/e" layout --profile "$TMP/lockword.data" -C config --sizes
expect_contains "--profile with --sizes" "--profile takes one -C STRUCT" "$TMP/e"
run_c2c 2 "$TMP/o" "$TMP/e" layout --profile "$TMP/lockword.data"
expect_contains "--profile without -C" "--profile takes one -C STRUCT" "$TMP/e"
run_c2c 2 "$TMP/o" "$TMP/e" layout --profile "$TMP/lockword.data" -C nosuch
expect_contains "--profile, unknown struct" "no sample was attributed to struct nosuch" "$TMP/e"

# suggest --profile reads the same profile
run_c2c 0 "$TMP/sg.txt" "$TMP/sg.err" suggest --profile "$TMP/lockword.data" -C config \
	"$SAMPLES/lockword"
expect_contains "suggest: profile named" "profile: $TMP/lockword.data" "$TMP/sg.txt"
# (updates: the same writers and readers as lock, so one line holds both)
expect_contains "suggest: lock is write-hot beside the readers' fields" \
	"line 0: lock (write-hot) shares with limit, scale" "$TMP/sg.txt"
grep -qE 'limit; .*\[read-mostly hitm [1-9]' "$TMP/sg.txt" && ok ||
	fail "suggest: limit is not read-mostly with HITMs"
# the predicted effect splits each field's HITMs: adjacent's a and b are
# each written by one cpu, so isolating them leaves only main's final read
# of b (what another cpu wrote: true sharing); lockword's lock and updates
# are written by two cpus each, so their HITMs stay
run_c2c 0 "$TMP/sga.txt" "$TMP/sga.err" suggest --profile "$TMP/adjacent.data" -C counters
after=$(sed -n '/^option 2/,$ s/.*predicted: .*HITMs [0-9]* -> \([0-9]*\).*/\1/p' "$TMP/sga.txt")
[ -n "$after" ] && [ "$after" -le 2 ] && ok ||
	fail "adjacent: isolate should leave at most main's read of b, predicted '$after'"
lw_after=$(sed -n '/^option 2/,$ s/.*predicted: .*HITMs [0-9]* -> \([0-9]*\).*/\1/p' "$TMP/sg.txt")
lw_true=$(awk '/^\tint +lock;|^\tlong int +updates;/ { split($0, a, "hitm "); split(a[2], b, "[ /]"); n += b[1] + b[2] } END { print n + 0 }' "$TMP/lw.txt")
expect_eq "lockword: isolate keeps the HITMs of lock and updates (two writers each)" "$lw_true" "$lw_after"
# without the binary, the struct comes from the profiled binaries
run_c2c 0 "$TMP/sg2.txt" "$TMP/sg2.err" suggest --profile "$TMP/lockword.data" -C config
expect_eq "suggest: same proposal without the binary" "$(cat "$TMP/sg.txt")" "$(cat "$TMP/sg2.txt")"
run_c2c 2 "$TMP/o" "$TMP/e" suggest --profile "$TMP/lockword.data" -C no_such_struct
expect_contains "suggest: unknown struct in the profile" "no sample was attributed to struct no_such_struct" "$TMP/e"
run_c2c 2 "$TMP/o" "$TMP/e" suggest -C config --profile "$TMP/lockword.data" \
	--hotness /dev/null "$SAMPLES/lockword"
expect_contains "suggest: one profile" "give one profile" "$TMP/e"
finish
