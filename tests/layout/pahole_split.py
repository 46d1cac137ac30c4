#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Compare pahole's and c2cscope's text struct by struct.

usage: pahole_split.py PAHOLE_OUT C2CSCOPE_OUT EXCEPTIONS LABEL

Both outputs are split into top-level blocks (a line at column 0 that opens
"struct"/"union"/"typedef", up to the line "};" or "} ...;" that closes it).
Every block pahole printed must appear identically in c2cscope's output,
unless EXCEPTIONS (lines "NAME<TAB>reason", '#' comments) names it; blocks
only c2cscope printed are reported too. Prints one line per problem and
exits 1 if there was any.
"""
import difflib
import sys


def blocks(path):
    out, cur, name = {}, None, None
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            if cur is None:
                if line.startswith(("struct ", "union ", "typedef ")):
                    cur, name = [line], line.split(" {")[0]
                continue
            cur.append(line)
            if line.startswith("}"):
                if line.startswith("} ") and line.rstrip().endswith(";") and \
                        name.startswith("typedef"):
                    name = "typedef " + line.rstrip()[2:-1].split()[-1]
                out.setdefault(name, "".join(cur))
                cur = None
    return out


def main():
    want, got = blocks(sys.argv[1]), blocks(sys.argv[2])
    label = sys.argv[4]
    exceptions = {}
    with open(sys.argv[3], encoding="utf-8") as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                key, _, why = line.rstrip("\n").partition("\t")
                exceptions[key] = why
    bad = 0
    for name, text in want.items():
        if name in exceptions:
            continue
        if name not in got:
            print(f"{label}: '{name}' printed by pahole, missing from c2cscope")
            bad += 1
        elif got[name] != text:
            print(f"{label}: '{name}' differs from pahole:")
            sys.stdout.writelines(difflib.unified_diff(
                text.splitlines(True), got[name].splitlines(True), "pahole", "c2cscope"))
            bad += 1
    for name in got:
        if name not in want and name not in exceptions:
            print(f"{label}: '{name}' printed by c2cscope only")
            bad += 1
    print(f"{label}: {len(want)} pahole blocks, {len(got)} c2cscope blocks, {bad} problems")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
