#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn `c2cscope layout --format json` into compile-time proofs.

usage: json_proof.py LAYOUT.json SOURCE.c > proof.c

For every struct: sizeof and _Alignof; for every named, non-bitfield member:
offsetof and sizeof; bitfields: the storage unit holding the first bit.
Compiling proof.c with the compiler that built the object proves each
number c2cscope printed. Also checks the JSON's own arithmetic (cacheline,
hole_after, cachelines, last_cacheline) and exits 1 on a mismatch.
"""
import json
import sys


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        doc = json.load(f)
    assert doc["c2cscope_layout"] == 1, "schema version"
    cl = doc["cacheline_size"]
    out = [f'#include "{sys.argv[2]}"', "#include <stddef.h>"]
    for s in doc["structs"]:
        tag = f'{s["kind"]} {s["name"]}'
        out.append(f'_Static_assert(sizeof({tag}) == {s["size"]}, "{tag} size");')
        out.append(f'_Static_assert(_Alignof({tag}) == {s["alignment"]}, "{tag} align");')
        if s["cachelines"] != (s["size"] + cl - 1) // cl:
            sys.exit(f"{tag}: cachelines {s['cachelines']}")
        if s["last_cacheline"] != s["size"] % cl:
            sys.exit(f"{tag}: last_cacheline {s['last_cacheline']}")
        if s["nr_members"] != len(s["members"]):
            sys.exit(f"{tag}: nr_members")
        for m in s["members"]:
            if m["cacheline"] != m["offset"] // cl:
                sys.exit(f"{tag}.{m['name']}: cacheline")
            if m["name"] is None:
                continue
            if m["bit_size"]:
                # The bit lies inside the unit pahole reports.
                if not m["offset"] * 8 <= m["bit_offset"] < (m["offset"] + m["size"]) * 8:
                    sys.exit(f"{tag}.{m['name']}: bit offset outside its unit")
                continue
            out.append(f'_Static_assert(offsetof({tag}, {m["name"]}) == {m["offset"]}, '
                       f'"{tag}.{m["name"]} offset");')
            if m["size"] and not m["type"].endswith("[]"):
                out.append(f'_Static_assert(sizeof((({tag} *)0)->{m["name"]}) == '
                           f'{m["size"]}, "{tag}.{m["name"]} size");')
    print("\n".join(out))


if __name__ == "__main__":
    main()
