#!/usr/bin/env python3
"""Apply a `c2cscope suggest --format json` option to a test struct.

relayout.py SRC STRUCT JSON OPTION OUT

SRC is one of the tests' C files, where struct STRUCT's body has one member
declaration per line ("type name;" possibly with attributes). Writes OUT:
SRC with the struct's members in the option's order (isolated members
wrapped in a cache-line-aligned anonymous struct), followed by
_Static_assert lines that pin every non-bitfield member's proposed offset,
and the proposed size, so that compiling OUT proves the proposal.
"""
import json
import re
import sys


def main():
    src, struct, js, option, out = sys.argv[1:6]
    text = open(src).read()
    doc = json.load(open(js))
    opt = next(o for o in doc["options"] if o["option"] == option)
    cl = doc["cacheline_size"]
    m = re.search(r"struct %s\s*\{\n(.*?)\n\}([^;]*);" % re.escape(struct), text, re.S)
    if not m:
        sys.exit("relayout.py: no struct %s in %s" % (struct, src))
    lines = [l for l in m.group(1).split("\n") if l.strip() and not l.strip().startswith("/*")]
    if len(lines) != len(opt["order"]):
        sys.exit("relayout.py: %d member lines, %d in the proposal" % (len(lines), len(opt["order"])))
    body = []
    wrap = []  # members of the wrapper being collected
    for n, ent in enumerate(opt["order"]):
        decl = lines[ent["index"]].strip()
        if not ent["isolated"]:
            body.append("\t" + decl)
            continue
        wrap.append(decl)
        nxt = opt["order"][n + 1] if n + 1 < len(opt["order"]) else None
        # members of one wrapper: by the wrapper id where the JSON has it
        if not nxt or nxt.get("wrapper", nxt["block"]) != ent.get("wrapper", ent["block"]):
            body.append("\tstruct { %s } __attribute__((aligned(%d)));" % (" ".join(wrap), cl))
            wrap = []
    new = "struct %s {\n%s\n}%s;" % (struct, "\n".join(body), m.group(2))
    text = text[: m.start()] + new + text[m.end():]
    # The tests' own asserts pin the old layout: drop them.
    text = "\n".join(l for l in text.split("\n") if not l.startswith("_Static_assert"))
    text += "\n#include <stddef.h>\n"
    for ent in opt["order"]:
        if ent["member"] and not ent.get("bit_size"):
            text += '_Static_assert(offsetof(struct %s, %s) == %d, "%s");\n' % (
                struct, ent["member"], ent["offset"], ent["member"])
    text += '_Static_assert(sizeof(struct %s) == %d, "size");\n' % (struct, opt["new_size"])
    open(out, "w").write(text)


if __name__ == "__main__":
    main()
