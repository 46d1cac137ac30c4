#!/bin/bash
# Heap blocks (c2csim replaces the allocator): programs in tests/sim/heap/,
# built with gcc and clang at -O0, -Og and -O2, recorded under --sim.
# reuse.c frees a block and allocates one of another site where it was:
# the rows say "(last of 2 blocks here)".
# Each prints its block's address and size and its fields' offsets; every
# shown row whose data address lies in the block must be named through it
# (or by the instruction) exactly as those numbers say: the element index
# and field for a typed block (args[1].sum_x, targs[2].bins[3]), size,
# site and offset for an untyped one. The allocation site's source line is
# the line of the allocating call (grep'd from the source). perf 6.1 still
# reads the files; a file without heap blocks says so in --stats.
source "$TOP_SRCDIR/tests/lib.sh"
source "$TOP_SRCDIR/tests/sim/common.sh"
sim_require
SRC="$TOP_SRCDIR/tests/sim/heap"

# check_names KIND JSON STDOUT SRC: every shown row in the block is named right
check_names() {
	python3 - "$@" <<'PY'
import json, re, sys
kind, jpath, outp, src = sys.argv[1:5]
out = open(outp).read()
vals = {k: int(v, 0) for k, v in re.findall(r"(\w+)=(0x[0-9a-f]+|\d+)", out)}
block, size = vals["block"], vals["size"]
d = json.load(open(jpath))
site = [i + 1 for i, l in enumerate(open(src)) if re.search(r"\b(calloc|malloc)\(|new\[\]", l)
        and "printf" not in l][-1]
alloc = {"args": "calloc", "bins": "malloc", "untyped": "malloc", "reuse": "calloc",
         "cxx": "new[]"}[kind]
srcname = src.rsplit("/", 1)[1]
def want(off):
    if kind == "args":
        i, f = divmod(off, vals["elem"])
        name = {vals["id"]: "id", vals["sum_x"]: "sum_x", vals["sum_y"]: "sum_y"}[f]
        return ["args[%d].%s" % (i, name), "worker_arg.%s" % name]
    if kind == "bins":
        i, f = divmod(off, vals["elem"])
        if f >= vals["bins"]:
            k = (f - vals["bins"]) // 4
            return ["targs[%d].bins[%d]" % (i, k), "thread_arg_t.bins[%d]" % k]
        return ["targs[%d].id" % i, "thread_arg_t.id"]
    at = " (%s:%d)" % (srcname, site) if lines else ""
    if kind == "cxx":  # g++ -O2 keeps no location for cs: the site is untyped there
        i, f = divmod(off, vals["elem"])
        name = {vals["hits"]: "hits", vals["misses"]: "misses"}[f]
        at = " (%s:%d)" % (srcname, site) if lines else ""
        return ["cs[%d].%s" % (i, name), "counter.%s" % name,
                "heap block of %d bytes from main%s, +0x%x" % (size, at, off)]
    if kind == "reuse":  # the block sits where a freed one of another site was
        last = " (last of 2 blocks here)" if vals["first"] == block else ""
        # main's stores into the first block, when their instruction names them
        first = ["first.a[%d]" % (off // 8), "first.a[]"] if last else []
        name = {vals["hits"]: "hits", vals["misses"]: "misses"}.get(off)
        if not name:
            return first + ["shared->pad[%d]%s" % (off // 8 - 2, last)]
        return first + ["shared->%s%s" % (name, last), "second.%s" % name]
    return ["heap block of %d bytes from get_block%s, +0x%x" % (size, at, off)]
# where the report has no source lines (clang's DWARF 5 here), neither has the site
lines = any((r.get("srcline") or "").startswith(srcname + ":") for l in d["lines"]
            for r in l["rows"])
site_line = "%s:%d" % (srcname, site) if lines else None
named = bad = 0
for l in d["lines"]:
    for r in l["rows"]:
        a = int(l["address"], 16) + int(r["offset"], 16)
        if not (block <= a < block + size):
            continue
        lab = r["attribution"]["label"]
        h = r["attribution"]["heap"]
        # gcc's clones keep their ELF names (get_block.constprop.0), as in the Symbol column
        lab = re.sub(r"from (\w+)\.\w+(\.\d+)? ", r"from \1 ", lab)
        if lab not in want(a - block):
            bad += 1
            print("row at +0x%x: %r, expected one of %r" % (a - block, lab, want(a - block)))
        elif h:
            named += 1
            if h["block"] != hex(block) or h["size"] != size or \
               h["site_srcline"] != site_line or h["alloc"] != alloc:
                bad += 1
                print("row at +0x%x: heap %r (block %#x, line %d)" % (a - block, h, block, site))
print("named=%d bad=%d" % (named, bad))
PY
}

for cc in gcc clang; do
	command -v $cc >/dev/null || { echo "no $cc: skipping its builds"; continue; }
	for opt in -O0 -Og -O2; do
		for p in args bins untyped reuse; do
			b="$TMP/$p-$cc$opt"
			CC=$cc compile "$b" "$SRC/$p.c" -g $opt -pthread || continue
			sim_record "$b.data" "$b.err" -- "$b" 3000
			cp "$TMP/stdout" "$b.out"
			run_c2c 0 "$b.json" "$b.rerr" report -i "$b.data" --json -
			check_names $p "$b.json" "$b.out" "$SRC/$p.c" >"$b.check"
			if grep -q "bad=0" "$b.check"; then
				ok
			else
				fail "$p $cc $opt: rows named wrong:"
				sed 's/^/    | /' "$b.check" >&2
			fi
			# no instruction names these: an int through int *bins, an
			# untyped block through char arithmetic; only the block can
			if [ $p != args ] && [ $p != reuse ] && grep -q "named=0 " "$b.check"; then
				fail "$p $cc $opt: no row named through its block"
			fi
			echo "$p $cc $opt: $(tail -1 "$b.check")"
		done
	done
done

# C++: new[] and delete[] are replaced too
for cxx in g++ clang++; do
	command -v $cxx >/dev/null || { echo "no $cxx: skipping its builds"; continue; }
	for opt in -O0 -O2; do
		b="$TMP/cxx-$cxx$opt"
		CC=$cxx compile "$b" "$SRC/cxx.cc" -g $opt -pthread || continue
		sim_record "$b.data" "$b.err" -- "$b" 3000
		cp "$TMP/stdout" "$b.out"
		run_c2c 0 "$b.json" "$b.rerr" report -i "$b.data" --json -
		check_names cxx "$b.json" "$b.out" "$SRC/cxx.cc" >"$b.check"
		grep -q "bad=0" "$b.check" && ok || { fail "cxx $cxx $opt: rows named wrong:"; sed 's/^/    | /' "$b.check" >&2; }
		echo "cxx $cxx $opt: $(tail -1 "$b.check")"
	done
done

# -O0 with gcc: no instruction names these rows (no register variable),
# so the block does, down to the field.
b="$TMP/args-gcc-O0"
if [ -f "$b.check" ]; then
	grep -q "named=0 " "$b.check" && fail "args gcc -O0: nothing named through the block" || ok
	run_c2c 0 "$b.stats" "$b.serr" report -i "$b.data" --stats
	expect_contains "--stats: heap blocks" "Heap blocks recorded" "$b.stats"
	n=$(sed -n 's/.*of them to an element and field *: *\([0-9]*\).*/\1/p' "$b.stats")
	[ "${n:-0}" -gt 0 ] && ok || fail "--stats: no sample named to an element and field"
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["heap_blocks"] >= 1, d["heap_blocks"]' "$b.json" && ok || fail "JSON heap_blocks"
	if command -v perf >/dev/null && perf version >/dev/null 2>&1; then
		perf report -i "$b.data" --header-only >"$TMP/ph" 2>&1 && ok ||
			fail "perf report --header-only refuses a file with heap blocks"
		perf c2c report -i "$b.data" --stdio >"$TMP/pc" 2>&1 && ok ||
			fail "perf c2c report refuses a file with heap blocks: $(head -3 "$TMP/pc")"
		expect_contains "perf c2c reads the samples" "Load Local HITM" "$TMP/pc"
	fi
fi

# --by-type counts the rows the block typed: thread_arg_t's bins get the
# HITMs of the rows named targs[i].bins[k], whose instruction named only an int.
b="$TMP/bins-gcc-O2"
if [ -f "$b.json" ]; then
	run_c2c 0 "$b.bt" "$b.bterr" report -i "$b.data" --by-type --json -
	python3 - "$b.json" "$b.bt" <<'PY' && ok || fail "bins: --by-type disagrees with the rows"
import json, re, sys
rows = json.load(open(sys.argv[1]))
bt = json.load(open(sys.argv[2]))
want = sum(r["stats"]["lcl_hitm"] + r["stats"]["rmt_hitm"] for l in rows["lines"]
           for r in l["rows"] if re.fullmatch(r"targs\[\d\]\.bins\[\d\]", r["attribution"]["label"] or ""))
t = [t for t in bt["by_type"] if t["type"] == "thread_arg_t"]
got = sum(f["lcl_hitm"] + f["rmt_hitm"] for f in t[0]["fields"] if f["field"].startswith("bins")) if t else 0
print("bins HITMs: rows %d, by-type %d" % (want, got))
sys.exit(0 if want > 0 and got == want else 1)
PY
fi

# A file with no allocation events (perf's own recording): --stats says so.
if command -v perf >/dev/null && perf record -e page-faults -c 1 -d -o "$TMP/pf.data" \
	-- "$TMP/args-gcc-O2" 10 >/dev/null 2>&1; then
	run_c2c 0 "$TMP/pf.stats" "$TMP/pf.err" report -i "$TMP/pf.data" --stats
	expect_contains "--stats without heap blocks" "Heap blocks: none in the file" "$TMP/pf.stats"
else
	echo "perf record does not run here: the no-heap-blocks check is skipped"
fi
finish
