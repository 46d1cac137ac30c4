#!/usr/bin/env python3
"""Property test of the re-layout proposer on random structs.

For each seed: a random struct (random member types, sizes, alignments,
bitfield runs, nested structs, arrays, sometimes packed, sometimes a
flexible array tail) and a random hotness profile. Every proposal must keep
all members, compile with offsetof/sizeof asserts proving its offsets
(relayout.py), never score worse than the input on conflicting pairs, and
"reorder only" must never grow the struct.

property.py C2CSCOPE TMPDIR COUNT
"""
import json
import os
import random
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SCALARS = ["char", "short", "int", "long", "double", "void *", "float", "unsigned long long"]


def member(rng, i, packed):
    kind = rng.random()
    name = "m%d" % i
    if kind < 0.45:
        return "%s %s;" % (rng.choice(SCALARS), name)
    if kind < 0.6:
        return "%s %s[%d];" % (rng.choice(["char", "int", "short"]), name, rng.randint(1, 40))
    if kind < 0.7:
        return "struct inner %s;" % name
    if kind < 0.8 and not packed:
        return "%s %s __attribute__((aligned(%d)));" % (rng.choice(["int", "long"]), name,
                                                        rng.choice([16, 32, 64]))
    # a bitfield run of two fields, both named, on one line
    return "unsigned int %s_a : %d, %s_b : %d;" % (name, rng.randint(1, 12), name,
                                                   rng.randint(1, 12))


def make_struct(rng):
    packed = rng.random() < 0.15
    n = rng.randint(3, 14)
    lines = []
    if packed:
        lines.append("char m_lead;")
        lines.append("long m_mis;")  # sits at 1: the loader infers packed
    lines += [member(rng, i, packed) for i in range(n)]
    if rng.random() < 0.2:
        lines.append("char m_tail[];")
    src = "struct inner { long a; char b; };\n"
    src += "struct s {\n%s\n}%s;\nstruct s g;\n" % (
        "\n".join("\t" + l for l in lines), " __attribute__((packed))" if packed else "")
    return src, lines


def field_names(lines):
    names = []
    for l in lines:
        if ":" in l:
            names += [p.split(":")[0].strip() for p in l.replace("unsigned int", "").rstrip(";").split(",")]
        else:
            decl = l.split("__attribute__")[0].rstrip(" ;")
            names.append(decl.replace("*", " ").split()[-1].split("[")[0])
    return names


def make_hotness(rng, names):
    out = ["struct s"]
    for n in names:
        c = rng.choice(["cold", "cold", "read_mostly", "read_write"])
        ctx = ",".join(sorted(rng.sample(["a", "b", "c"], rng.randint(1, 2))))
        out.append("%s %s ctx=%s" % (n, c, ctx))
    return "\n".join(out) + "\n"


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def one(c2c, tmp, seed):
    rng = random.Random(seed)
    src, lines = make_struct(rng)
    # bitfield runs are one line holding two members: relayout needs one
    # member per line, so split them for the file we compile.
    split = []
    for l in lines:
        if ":" in l and "," in l:
            a, b = l.rstrip(";").split(",")
            split += [a.strip() + ";", "unsigned int " + b.strip() + ";"]
        else:
            split.append(l)
    src = src.replace("\n".join("\t" + l for l in lines), "\n".join("\t" + l for l in split))
    names = field_names(split)
    base = os.path.join(tmp, "s%d" % seed)
    open(base + ".c", "w").write(src)
    open(base + ".hot", "w").write(make_hotness(rng, names))
    r = run(["gcc", "-g", "-c", "-o", base + ".o", base + ".c"])
    if r.returncode:
        return "seed %d: the generated struct does not compile: %s" % (seed, r.stderr)
    r = run([c2c, "suggest", "-C", "s", "--hotness", base + ".hot", "--format", "json",
             base + ".o"])
    if r.returncode:
        return "seed %d: suggest exited %d: %s" % (seed, r.returncode, r.stderr)
    open(base + ".json", "w").write(r.stdout)
    doc = json.loads(r.stdout)
    for opt in doc["options"]:
        got = sorted(e["index"] for e in opt["order"])
        if got != list(range(len(split))):
            return "seed %d: %s lost or duplicated members: %s" % (seed, opt["option"], got)
        if opt["conflicts_after"] > opt["conflicts_before"]:
            return "seed %d: %s scores worse than the input" % (seed, opt["option"])
        if opt["option"] == "reorder" and opt["new_size"] > opt["old_size"]:
            return "seed %d: reorder grew the struct" % seed
        out = "%s.%s.c" % (base, opt["option"])
        r = run([sys.executable, os.path.join(HERE, "relayout.py"), base + ".c", "s",
                 base + ".json", opt["option"], out])
        if r.returncode:
            return "seed %d: relayout: %s" % (seed, r.stderr)
        r = run(["gcc", "-c", "-o", out + ".o", out])
        if r.returncode:
            return "seed %d: the %s proposal's offsets are wrong:\n%s" % (
                seed, opt["option"], r.stderr[:2000])
    return None


def main():
    c2c, tmp, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    bad = [e for e in (one(c2c, tmp, seed) for seed in range(count)) if e]
    for e in bad:
        print("FAIL:", e)
    print("%d of %d random structs proven" % (count - len(bad), count))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
