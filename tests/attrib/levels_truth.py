#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Score a report of tests/attrib/levels.c against the compiler's truth.

usage: levels_truth.py PROGRAM.out REPORT.json BINARY_NAME [-v]

PROGRAM.out holds the program's own "object NAME ADDR SIZE COUNT" and
"field TYPE PATH OFFSET SIZE [ELEMENT_SIZE]" lines (offsetof and sizeof). Every report row
whose data address falls inside one of the objects and whose code is in
BINARY_NAME is scored by its records (samples):
  right    the label is TYPE.PATH of the field holding the address (an
           array field also as PATH[] or PATH[INDEX] with the right index;
           a field inside an embedded struct also as that struct's own
           TYPE.FIELD, named in ALIASES below);
           a row named through its heap block (record --sim: "w[2].id",
           attribution.heap) is judged by the block's type, field and
           element index instead;
  wrong    the attribution names a field (reason ok, or a typed heap
           block) and it is not that;
  unnamed  anything else (no field named, with its reason).
Prints "samples TOTAL RIGHT WRONG UNNAMED" and "sites TOTAL RIGHT WRONG
UNNAMED" (distinct code addresses), then with -v one line per row.
"""
import json
import re
import sys

# A field of an embedded struct is also named by that struct's type.
ALIASES = {"worker.ctr.val": "counter.val", "worker.ctr.n": "counter.n"}


def truth(path):
    objects, fields = [], {}
    for line in open(path):
        f = line.split()
        if f and f[0] == "object":
            objects.append((f[1], int(f[2], 16), int(f[3]), int(f[4])))
        elif f and f[0] == "field":
            elem = int(f[5]) if len(f) > 5 else 0
            fields.setdefault(f[1], []).append((f[2], int(f[3]), int(f[4]), elem))
    if not objects or not fields:
        sys.exit("no object/field lines in %s" % path)
    return objects, fields


def expected(objects, fields, addr):
    """The names the field at addr may have, or None outside every object."""
    for name, start, size, count in objects:
        if not start <= addr < start + size * count:
            continue
        off = (addr - start) % size
        for path, foff, fsize, elem in fields[name]:
            if foff <= off < foff + fsize:
                full = "%s.%s" % (name, path)
                return {full, ALIASES.get(full)} - {None}, (off - foff, full, elem,
                                                            (addr - start) // size)
        return set(), (off, "%s+%d" % (name, off), 0, (addr - start) // size)
    return None, None


def is_right(label, names, within):
    if label in names:
        return True
    m = re.fullmatch(r"(.*)\[(\d*)\]", label)
    if not m or m.group(1) not in names:
        return False
    # an array member: any index from a register, else the element's own
    elem = within[2]
    return elem > 0 and (m.group(2) == "" or int(m.group(2)) == within[0] // elem)


def main():
    objects, fields = truth(sys.argv[1])
    report = json.load(open(sys.argv[2]))
    binary, verbose = sys.argv[3], "-v" in sys.argv[4:]
    samples = {"right": 0, "wrong": 0, "unnamed": 0}
    sites = {}
    rows = []
    for ln in report["lines"]:
        base = int(ln["address"], 16)
        for r in ln["rows"]:
            addr = base + int(r["offset"], 16)
            names, within = expected(objects, fields, addr)
            if names is None or r["object"] != binary:
                continue
            a, n = r["attribution"], r["stats"]["total_records"]
            h = a.get("heap") or {}
            if h.get("type") and h.get("field"):  # named through its heap block
                named = "%s.%s" % (h["type"], h["field"])
                right = is_right(named, names, within) and h["element"] == within[3]
                verdict = "right" if right else "wrong"
            elif is_right(a["label"], names, within):
                verdict = "right"
            elif a["reason"] == "ok":
                verdict = "wrong"
            else:
                verdict = "unnamed"
            samples[verdict] += n
            # a site is wrong if any of its rows is, unnamed if none is right
            old = sites.get(r["iaddr"])
            rank = {"wrong": 2, "unnamed": 1, "right": 0}
            if old is None or rank[verdict] > rank[old]:
                sites[r["iaddr"]] = verdict
            rows.append((verdict, r["iaddr"], r["symbol"], within[1], a["label"],
                         a["reason"], n))
    count = {v: sum(1 for s in sites.values() if s == v) for v in samples}
    print("samples %d %d %d %d" % (sum(samples.values()), samples["right"],
                                   samples["wrong"], samples["unnamed"]))
    print("sites %d %d %d %d" % (len(sites), count["right"], count["wrong"],
                                 count["unnamed"]))
    if verbose:
        for v, ip, sym, want, label, reason, n in sorted(rows):
            print("%-8s %s %-6s want %-16s got %-22s %-12s %d" %
                  (v, ip, sym, want, label, reason, n))


main()
