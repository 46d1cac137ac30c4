#!/usr/bin/env python3
"""The TUI's Pareto rows of Line 0 against report --stdio's.

The TUI puts the Field column right after Offset; --stdio has it last.
From --stdio's header the Offset and Field cells of each row are cut out
by column and put back in the TUI's order, whitespace squeezed.

  pareto_rows.py STDIO PANE head   each pane row (cut at the pane's width)
                                   starts its expected row and shows the
                                   whole Field cell
  pareto_rows.py STDIO PANE tail   each pane row, scrolled right (its first,
                                   partial word dropped), ends its row
Prints what differs; exit 1 when anything does, 0 otherwise.
"""
import re
import sys

ROW = re.compile(r"^ +[0-9.]+%")


def norm(s):
    return " ".join(s.split())


def expected(stdio):
    lines = open(stdio).read().split("\n")
    start = next(i for i, l in enumerate(lines) if l.startswith("  Line 0 "))
    head = next(l for l in lines[start:] if "Offset" in l and "Field" in l)
    off_end = head.index("Offset") + len("Offset")
    field = head.rindex("Field")
    out = []
    for l in lines[start:]:
        if out and not l.strip():
            break
        if ROW.match(l):
            out.append((norm(l[:off_end] + "  " + l[field:] + "  " + l[off_end:field]),
                        norm(l[field:])))
    return out


def main():
    stdio, pane, mode = sys.argv[1:4]
    want = expected(stdio)
    got = [norm(l) for l in open(pane).read().split("\n") if ROW.match(l)]
    bad = 0
    if not got or len(got) > len(want):
        print(f"{len(got)} rows on the pane, {len(want)} in --stdio")
        return 1
    for i, g in enumerate(got):
        w, f = want[i]
        if mode == "head":
            good = w.startswith(g) and f in g and len(g) > len(w) // 2
        else:
            g = g.split(" ", 1)[1] if " " in g else ""
            good = bool(g) and w.endswith(g)
        if not good:
            print(f"row {i}: pane '{g}', --stdio in the TUI's order '{w}'")
            bad += 1
    return 1 if bad else 0


sys.exit(main())
