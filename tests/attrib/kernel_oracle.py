#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The expected field of every memory access of some functions of an object,
from tools independent of c2cscope's engine: objdump's disassembly,
llvm-dwarfdump's DWARF (variables and parameters living in a register over a
pc range, inlined scopes included) and pahole's layouts.

kernel_oracle.py OBJ FUNC...: one line per memory access with a base
register (no index, not the stack, rip or a segment) in FUNC's .text range:
    FUNC OFFSET EXPECT
OFFSET is decimal from FUNC's start; EXPECT is "STRUCT.MEMBER" (the top-level
member at the access's offset, "|"-separated when several variables or union
members explain it) or "-" when DWARF puts no struct pointer in the register.

kernel_oracle.py --compare EXPECT JSON [-v]: EXPECT is that output with the
sample's code address added in front of each line ("0xADDR FUNC OFFSET
EXPECT"), JSON c2cscope report's for those samples; prints
    checked N right R wrong W unresolved U; unchecked N named M
checked: DWARF has a struct pointer in the register, and the report named
one of the expected members (right), another (wrong) or none (unresolved);
unchecked: no variable, the report may still name it from the registers'
history. -v lists every wrong and unresolved access.
"""
import json
import re
import subprocess
import sys

REGS = ["rax", "rdx", "rcx", "rbx", "rsi", "rdi", "rbp", "rsp"] + [f"r{i}" for i in range(8, 16)]
DIE = re.compile(r"^0x([0-9a-f]+):(\s+)(DW_TAG_\w+|NULL)")
ATTR = re.compile(r"^\s+(DW_AT_\w+)\t\((.*)$", re.S)
RANGE = re.compile(r"\[0x([0-9a-f]+), 0x([0-9a-f]+)\)(?:: (.*))?")


def run(*cmd):
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def parse_dies(obj):
    """DIEs as dicts: off, tag, depth, parent, attrs (raw text), children."""
    dies, stack, cur, attr = {}, [], None, None
    for line in run("llvm-dwarfdump", "--debug-info", obj).splitlines():
        m = DIE.match(line)
        if m:
            depth = len(m.group(2))
            while stack and stack[-1]["depth"] >= depth:
                stack.pop()
            cur, attr = None, None
            if m.group(3) == "NULL":
                continue
            cur = {"off": int(m.group(1), 16), "tag": m.group(3), "depth": depth,
                   "parent": stack[-1] if stack else None, "attrs": {}, "children": []}
            if cur["parent"]:
                cur["parent"]["children"].append(cur)
            dies[cur["off"]] = cur
            stack.append(cur)
            continue
        m = ATTR.match(line)
        if cur and m:
            attr = m.group(1)
            cur["attrs"][attr] = m.group(2)
        elif cur and attr and line.strip():
            cur["attrs"][attr] += "\n" + line.strip()
    return dies


def origin(dies, die):
    m = re.match(r"0x([0-9a-f]+)", die["attrs"].get("DW_AT_abstract_origin", ""))
    return dies.get(int(m.group(1), 16)) if m else None


def attr_of(dies, die, name):
    while die:
        if name in die["attrs"]:
            return die["attrs"][name]
        die = origin(dies, die)
    return None


def ranges(die):
    a = die["attrs"]
    if "DW_AT_low_pc" in a and "DW_AT_high_pc" in a:
        lo = int(re.match(r"0x([0-9a-f]+)", a["DW_AT_low_pc"]).group(1), 16)
        hi = a["DW_AT_high_pc"]
        m = re.match(r"0x([0-9a-f]+)", hi)
        hi = int(m.group(1), 16)
        return [(lo, hi if hi > lo else lo + hi)]
    return [(int(x, 16), int(y, 16)) for x, y, _ in RANGE.findall(a.get("DW_AT_ranges", ""))]


def reg_value(expr):
    """(register, bias) when the expression is a register's value plus a constant."""
    m = re.fullmatch(r"DW_OP_reg(\d+) \w+\)?", expr.strip())
    if m:
        return int(m.group(1)), 0
    m = re.fullmatch(r"DW_OP_breg(\d+) \w+([+-]\d+), DW_OP_stack_value\)?", expr.strip())
    if m:
        return int(m.group(1)), int(m.group(2))
    return None


def locations(die, scope):
    """(lo, hi, reg, bias) of a variable."""
    loc = die["attrs"].get("DW_AT_location")
    if not loc:
        return []
    if loc.startswith("0x"):  # a location list
        out = []
        for lo, hi, expr in RANGE.findall(loc):
            rv = reg_value(expr or "")
            if rv:
                out.append((int(lo, 16), int(hi, 16)) + rv)
        return out
    rv = reg_value(loc)
    return [(lo, hi) + rv for lo, hi in ranges(scope)] if rv else []


def pointee(type_text):
    m = re.match(r'0x[0-9a-f]+ "(?:const |volatile )*(?:struct |union )?(\w+) \*"\)?$',
                 type_text or "")
    return m.group(1) if m else None


def variables(dies, scope, out):
    for c in scope["children"]:
        if c["tag"] in ("DW_TAG_variable", "DW_TAG_formal_parameter"):
            name = pointee(attr_of(dies, c, "DW_AT_type"))
            if name:
                out += [(lo, hi, reg, bias, name) for lo, hi, reg, bias in locations(c, scope)]
        elif c["tag"] in ("DW_TAG_lexical_block", "DW_TAG_inlined_subroutine"):
            variables(dies, c, out)


LAYOUTS = {}


def members(obj, struct):
    """Top-level members of STRUCT as (name, offset, size), from pahole."""
    if struct not in LAYOUTS:
        out = []
        try:
            text = run("pahole", "-C", struct, obj)
        except subprocess.CalledProcessError:
            text = ""
        depth = 0
        for line in text.splitlines()[1:]:
            if depth == 0:
                m = re.match(r"^\t[^\t].*?(\w+)(?:\[\d+\])*(?::\d+)?"
                             r"(?: __attribute__\(\(.*\)\))?;"
                             r"\s*/\*\s*(\d+)(?::\s*\d+)?\s+(\d+)\s*\*/", line)
                if m:
                    out.append((m.group(1), int(m.group(2)), int(m.group(3))))
            depth += line.count("{") - line.count("}")
            if depth < 0:
                break
        LAYOUTS[struct] = out
    return LAYOUTS[struct]


def expect(obj, cands, off):
    names = set()
    for struct, bias in cands:
        for name, moff, size in members(obj, struct):
            if moff <= off - bias < moff + max(size, 1):
                names.add(f"{struct}.{name}")
    return "|".join(sorted(names)) if names else "-"


def first(path):
    return re.split(r"[.\[+]", path or "")[0]


def named(att):
    """What the report named: the outermost and the innermost struct's member."""
    out = set()
    if att.get("reason") == "ok":
        if att.get("outer_type") and att.get("outer_field"):
            out.add(f"{att['outer_type']}.{first(att['outer_field'])}")
        if att.get("type") and att.get("field"):
            out.add(f"{att['type']}.{first(att['field'])}")
    return out


def compare(expect_path, json_path, verbose):
    with open(json_path) as f:
        rows = {int(r["iaddr"], 16): r.get("attribution", {})
                for line in json.load(f)["lines"] for r in line["rows"]}
    n = {"checked": 0, "right": 0, "wrong": 0, "unresolved": 0, "unchecked": 0, "named": 0}
    for line in open(expect_path):
        addr, func, off, want = line.split()
        att = rows.get(int(addr, 16), {})
        got = named(att)
        if want == "-":
            n["unchecked"] += 1
            n["named"] += bool(got)
            continue
        n["checked"] += 1
        kind = "right" if got & set(want.split("|")) else "wrong" if got else "unresolved"
        n[kind] += 1
        if verbose and kind != "right":
            print(f"{kind}: {func}+{off}: want {want}, got {att.get('label')} "
                  f"({att.get('reason')})")
    print("checked {checked} right {right} wrong {wrong} unresolved {unresolved}; "
          "unchecked {unchecked} named {named}".format(**n))
    return 0


def main():
    if sys.argv[1] == "--compare":
        return compare(sys.argv[2], sys.argv[3], "-v" in sys.argv[4:])
    obj, funcs = sys.argv[1], sys.argv[2:]
    dies = parse_dies(obj)
    subs = {}
    for d in dies.values():
        name = d["attrs"].get("DW_AT_name", "")
        if d["tag"] == "DW_TAG_subprogram" and ranges(d):
            name = name or attr_of(dies, d, "DW_AT_name") or ""
            subs.setdefault(name.strip('")'), d)
    insn = re.compile(r"^\s*([0-9a-f]+):\t(\S+)\s+(.*)$")
    mem = re.compile(r"(?<![:\w])(-?0x[0-9a-f]+)?\(%(\w+)\)")
    for func in funcs:
        sub = subs.get(func)
        if not sub:
            print(f"kernel_oracle: no DWARF subprogram {func}", file=sys.stderr)
            return 2
        text = run("objdump", "-d", "--no-show-raw-insn", f"--disassemble={func}", obj)
        m = re.search(r"^([0-9a-f]+) <", text, re.M)
        start = int(m.group(1), 16) if m else -1
        # the function's own range (its cold part lies in another section)
        spans = [(a, b) for a, b in ranges(sub) if a <= start < b]
        if not spans:
            print(f"kernel_oracle: {func}: DWARF ranges do not hold its start", file=sys.stderr)
            return 2
        lo = spans[0][0]
        locs = []
        variables(dies, sub, locs)
        for line in text.splitlines():
            m = insn.match(line)
            if not m or m.group(2).startswith(("lea", "nop", "prefetch", "j", "call")):
                continue
            pc = int(m.group(1), 16)
            ops = mem.findall(m.group(3))
            if not any(a <= pc < b for a, b in spans) or len(ops) != 1 or "%gs:" in m.group(3):
                continue
            disp, reg = int(ops[0][0] or "0", 16), ops[0][1]
            if reg in ("rsp", "rip") or reg not in REGS:
                continue
            r = REGS.index(reg)
            cands = {(s, b) for l, h, rr, b, s in locs if rr == r and l <= pc < h}
            print(func, pc - lo, expect(obj, cands, disp))
    return 0


if __name__ == "__main__":
    sys.exit(main())
