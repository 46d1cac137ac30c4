#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# A struct declared "typedef struct { ... } args_t;" is named args_t
# everywhere: report --by-type, layout --profile -C args_t (DWARF and BTF),
# suggest, the patch (which edits the typedef's body), check and diff.
# Numbers are compared with report --by-type's and with what the compiler
# says (sizeof/offsetof printed by the program itself).
source "$TOP_SRCDIR/tests/lib.sh"
source "$TOP_SRCDIR/tests/sim/common.sh"
sim_require
command -v python3 >/dev/null || skip "python3 (reads the report's JSON) is missing"
command -v patch >/dev/null || skip "patch(1) is missing"

mkdir -p "$TMP/src"
cp "$TOP_SRCDIR/tests/suggest/typedef_args.c" "$TMP/src/"
cd "$TMP/src" || exit 99
compile "$TMP/src/args" typedef_args.c -g -O1 -pthread || finish
sim_record "$TMP/args.data" "$TMP/rec.err" --sim-cpus 4 -- "$TMP/src/args" 2000

# --by-type names the type args_t, never an anonymous struct
run_c2c 0 "$TMP/bt.txt" "$TMP/bt.err" report -i "$TMP/args.data" --by-type --json "$TMP/bt.json"
counts() { # FIELD: "hitm L/R ld N st S" as layout --profile prints them
	python3 - "$TMP/bt.json" "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for t in d["by_type"]:
    for f in t["fields"]:
        if t["type"] == "args_t" and f["field"] == sys.argv[2]:
            print("hitm %d/%d ld %d st %d" % (f["lcl_hitm"], f["rmt_hitm"], f["loads"],
                  f["writes"]))
PY
}
want_sum=$(counts sum)
[ -n "$want_sum" ] && ok || fail "report --by-type has no args_t.sum"
python3 - "$TMP/bt.json" <<'PY' && ok || fail "report --by-type: a type without a name"
import json, sys
sys.exit(any(not t["type"] or "anonymous" in t["type"]
             for t in json.load(open(sys.argv[1]))["by_type"]))
PY

# the Field column names an object only a pointer reaches by its typedef
run_c2c 0 "$TMP/r.txt" "$TMP/r.err" report -i "$TMP/args.data" --stdio
grep -qE ' totals_t\.done$' "$TMP/r.txt" && ok || fail "report: no row's Field is totals_t.done"
expect_not_contains "report: no anonymous Field" "(anonymous)" "$TMP/r.txt"

# layout --profile -C args_t: the typedef's body, with by-type's counts
check_layout() { # WHAT FILE [--btf]
	local what=$1 file=$2
	shift 2
	run_c2c 0 "$TMP/lay.txt" "$TMP/lay.err" layout --profile "$TMP/args.data" -C args_t "$@" "$file"
	expect_eq "$what: opens as a typedef" "typedef struct {" "$(head -1 "$TMP/lay.txt")"
	expect_contains "$what: closes with the typedef's name" "} args_t;" "$TMP/lay.txt"
	got=$(sed -n 's/^\tlong int  *sum; .*\*\/ \(hitm [0-9/]* ld [0-9]* st [0-9]*\).*/\1/p' \
		"$TMP/lay.txt")
	expect_eq "$what: sum has by-type's counts" "$want_sum" "$got"
}
check_layout "layout --profile (DWARF)" "$TMP/src/args"
# and in JSON: the struct and the suggestion are args_t
run_c2c 0 "$TMP/lj.json" "$TMP/lj.err" layout --profile "$TMP/args.data" -C args_t --format json \
	"$TMP/src/args"
run_c2c 0 "$TMP/sj.json" "$TMP/sj.err" suggest --profile "$TMP/args.data" -C args_t --format json \
	"$TMP/src/args"
expect_eq "JSON names args_t" "args_t args_t" "$(python3 -c '
import json, sys
print(json.load(open(sys.argv[1]))["struct"]["name"], json.load(open(sys.argv[2]))["struct"])' \
	"$TMP/lj.json" "$TMP/sj.json")"
if command -v pahole >/dev/null && cp "$TMP/src/args" "$TMP/args.btf" &&
	pahole -J "$TMP/args.btf" 2>/dev/null; then
	check_layout "layout --profile --btf" "$TMP/args.btf" --btf
	run_c2c 0 "$TMP/sb.txt" "$TMP/sb.err" suggest --profile "$TMP/args.data" -C args_t \
		--btf "$TMP/args.btf"
	expect_eq "suggest --btf names args_t" "args_t: 24 bytes" "$(head -1 "$TMP/sb.txt" | cut -d, -f1)"
else
	echo "note: pahole -J unavailable, BTF not checked" >&2
fi

# suggest names it args_t and finds its write-hot fields
"$TMP/src/args" 1 >"$TMP/before.layout"
size=$(sed -n 's/^sizeof=\([0-9]*\) .*/\1/p' "$TMP/before.layout")
run_c2c 0 "$TMP/sg.txt" "$TMP/sg.err" suggest --profile "$TMP/args.data" -C args_t "$TMP/src/args"
expect_eq "suggest: header names args_t, sizeof" "args_t: $size bytes" \
	"$(head -1 "$TMP/sg.txt" | cut -d, -f1)"
grep -qE '^  line 0: .*write-hot.* shares with .*sum' "$TMP/sg.txt" && ok ||
	fail "suggest: no write-hot field of line 0 shares with sum"
expect_not_contains "suggest: nothing anonymous" "(anonymous)" "$TMP/sg.txt"

# --patch without --choose patches the option the verdict recommends:
# reorder cannot separate three fields of one 24-byte struct, so isolate
expect_contains "verdict: reorder leaves sharing" "verdict: reorder only leaves sharing" \
	"$TMP/sg.txt"
run_c2c 0 "$TMP/ro.diff" "$TMP/ro.err" suggest --profile "$TMP/args.data" -C args_t \
	--choose reorder --patch "$TMP/src/args"
expect_eq "--choose reorder: no diff" "" "$(cat "$TMP/ro.diff")"
expect_contains "--choose reorder: says so" "nothing to change: option 'reorder only' keeps args_t" \
	"$TMP/ro.err"
# the patch edits the typedef's body; the fixed build keeps the rules
run_c2c 0 "$TMP/fix.diff" "$TMP/fix.err" suggest --profile "$TMP/args.data" -C args_t \
	--patch --emit-rules "$TMP/rules" "$TMP/src/args"
expect_contains "the patch names the typedef and the verdict's option" \
	"suggest --patch: args_t, option 'isolate with alignment'" "$TMP/fix.diff"
patch -p1 -s <"$TMP/fix.diff" && ok || fail "the patch does not apply"
expect_contains "the typedef keeps its name" "} args_t;" "$TMP/src/typedef_args.c"
compile "$TMP/src/fixed" typedef_args.c -g -O1 -pthread || finish
# the size the patch announced is the compiler's, and id (which main
# writes) no longer shares a line with the fields the thread writes
fixed=$(sed -n 's/^size [0-9]* -> \([0-9]*\) bytes.*/\1/p' "$TMP/fix.diff")
"$TMP/src/fixed" 1 >"$TMP/after.layout"
expect_eq "patched: sizeof as the patch said (compiler's)" "sizeof=$fixed" \
	"$(cut -d' ' -f1 "$TMP/after.layout")"
python3 - "$TMP/after.layout" <<'PY' && ok || fail "patched: id shares a line with sum or count"
import sys
o = dict(kv.split("=") for kv in open(sys.argv[1]).read().split())
sys.exit(int(o["id"]) // 64 in (int(o["sum"]) // 64, int(o["count"]) // 64))
PY
expect_contains "rules name args_t" "struct args_t {" "$TMP/rules"
run_c2c 1 "$TMP/ck0.txt" "$TMP/ck0.err" check -r "$TMP/rules" "$TMP/src/args"
run_c2c 0 "$TMP/ck1.txt" "$TMP/ck1.err" check -r "$TMP/rules" "$TMP/src/fixed"
run_c2c 0 "$TMP/df.txt" "$TMP/df.err" diff -C args_t "$TMP/src/args" "$TMP/src/fixed"
expect_contains "diff -C args_t" "struct args_t: size $size -> $fixed" "$TMP/df.txt"
# a saved layout (JSON, where the struct is named args_t) against a build
run_c2c 0 "$TMP/base.json" "$TMP/base.err" layout -C args_t --format json "$TMP/src/args"
run_c2c 0 "$TMP/dfj.txt" "$TMP/dfj.err" diff -C args_t "$TMP/base.json" "$TMP/src/fixed"
expect_contains "diff baseline -> build" "struct args_t: size $size -> $fixed" "$TMP/dfj.txt"
run_c2c 0 "$TMP/dfk.txt" "$TMP/dfk.err" diff -C args_t "$TMP/src/fixed" "$TMP/base.json"
expect_contains "diff build -> baseline" "struct args_t: size $fixed -> $size" "$TMP/dfk.txt"
run_c2c 1 "$TMP/ck2.txt" "$TMP/ck2.err" check -r "$TMP/rules" "$TMP/base.json"

# re-recorded, the fixed build has no HITMs on args_t left
sim_record "$TMP/fixed.data" "$TMP/rec2.err" --sim-cpus 4 -- "$TMP/src/fixed" 2000
run_c2c 0 "$TMP/bt2.txt" "$TMP/bt2.err" report -i "$TMP/fixed.data" --by-type --json "$TMP/bt2.json"
hitms() {
	python3 -c '
import json, sys
print(sum(f["lcl_hitm"] + f["rmt_hitm"] for t in json.load(open(sys.argv[1]))["by_type"]
          if t["type"] == "args_t" for f in t["fields"]))' "$1"
}
before=$(hitms "$TMP/bt.json") after=$(hitms "$TMP/bt2.json")
# after c2cscope's own isolate patch id sits in an anonymous wrapper at
# offset 0: layout --profile still finds it, with by-type's counts
cp "$TMP/bt2.json" "$TMP/bt.json"
want_id=$(counts id)
run_c2c 0 "$TMP/lay2.txt" "$TMP/lay2.err" layout --profile "$TMP/fixed.data" -C args_t \
	"$TMP/src/fixed"
got=$(sed -n 's/^\t} .*\/\*  *0  *64 \*\/ \(hitm [0-9/]* ld [0-9]* st [0-9]*\).*/\1/p' "$TMP/lay2.txt")
expect_eq "layout --profile after the patch: id's wrapper has by-type's counts" "$want_id" "$got"
run_c2c 0 "$TMP/sg2.txt" "$TMP/sg2.err" suggest --profile "$TMP/fixed.data" -C args_t "$TMP/src/fixed"
expect_eq "suggest after the patch: still args_t, $fixed bytes" "args_t: $fixed bytes" \
	"$(head -1 "$TMP/sg2.txt" | cut -d, -f1)"
# what is left is sum and count on one line, written by the same thread
expect_not_contains "suggest after the patch: id shares no line" "line 0: id (write-hot) shares" \
	"$TMP/sg2.txt"
expect_contains "suggest's proposed layout is the typedef" "} args_t __attribute__" "$TMP/sg2.txt"

[ "$before" -gt 0 ] && [ $((after * 100)) -le "$before" ] && ok ||
	fail "HITMs on args_t: $before -> $after (want a 99% drop)"
finish
