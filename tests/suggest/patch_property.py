#!/usr/bin/env python3
"""Property test for suggest --patch: random struct declarations (comments,
multi-line and multi-declarator declarations, bitfield runs, anonymous
unions, active and inactive #ifdef blocks, an #if/#else) with random
hotness files. For each: compile with gcc -g, run suggest --patch (with
--choose isolate every third struct). Exit 0: the patch applies with
patch -p1 --fuzz=0, the patched source compiles, and offsetof/sizeof
asserts prove every member sits where the header says. Exit 1: stderr
names the member and a conditional or declaration, and stdout lists moves.
Any other exit is a failure.

usage: patch_property.py C2CSCOPE TMPDIR COUNT [SEED]
"""
import os
import itertools
import random
import re
import shutil
import subprocess
import sys

UNIONS = itertools.count()
KINDS = {"patched": 0, "refused": 0, "unchanged": 0}
TYPES = ["char", "short", "int", "long", "void *", "unsigned int", "double"]


def member(rng, names):
    name = "m%d" % len(names)
    names.append(name)
    t = rng.choice(TYPES)
    arr = "[%d]" % rng.randint(1, 24) if rng.random() < 0.2 else ""
    comment = "\t/* %s */" % rng.choice(["hot", "read; {", "x, y"]) if rng.random() < 0.3 else ""
    attr = " __attribute__((__aligned__(16)))" if rng.random() < 0.07 else ""
    lead = "\t/* about %s */\n" % name if rng.random() < 0.2 else ""
    return "%s\t%s %s%s%s;%s\n" % (lead, t, name, arr, attr, comment)


def unit(rng, names, depth):
    r = rng.random()
    if r < 0.1:
        a, b = "m%d" % len(names), "m%d" % (len(names) + 1)
        names += [a, b]
        return "\tint %s,\n\t    %s;\n" % (a, b)
    if r < 0.18:
        a, b = "m%d" % len(names), "m%d" % (len(names) + 1)
        names += [a, b]
        return "\tunsigned int %s : %d,\n\t\t%s : %d;\n" % (a, rng.randint(1, 9), b, rng.randint(1, 9))
    if r < 0.24:
        k = next(UNIONS)
        a, b = "u%d" % k, "v%d" % k
        return "\tunion {\n\t\tlong %s;\n\t\tvoid *%s;\n\t};\n" % (a, b)
    if r < 0.34 and depth < 2:
        body = "".join(unit(rng, names, depth + 1) for _ in range(rng.randint(1, 4)))
        return "#ifdef CONFIG_ON\n%s#endif\n" % body
    if r < 0.38 and depth < 2:
        dead = []
        body = "".join(unit(rng, dead, depth + 1) for _ in range(rng.randint(1, 2)))
        return "#ifdef CONFIG_OFF\n%s#endif\n" % body.replace("\tm", "\tdead_m").replace(" m", " dead_m")
    if r < 0.42 and depth < 2:
        n = "m%d" % len(names)
        names.append(n)
        return "#if CONFIG_ON\n\tlong %s;\n\tint %s_b;\n#else\n\tlong %s;\n#endif\n" % (n, n, n)
    return member(rng, names)


def make_struct(rng, i):
    names = []
    body = "".join(unit(rng, names, 0) for _ in range(rng.randint(4, 12)))
    # "#if ... long mX; int mX_b;" declares mX_b too
    names += re.findall(r"\bint (m\d+_b);", body)
    src = "#define CONFIG_ON 1\n\nstruct s%d {\n%s};\n\nstruct s%d inst;\n" % (i, body, i)
    hot = ["struct s%d" % i]
    for n in names:
        c = rng.random()
        if c < 0.15:
            hot.append("%s read_write ctx=w%d" % (n, rng.randint(0, 2)))
        elif c < 0.4:
            hot.append("%s read_mostly" % n)
    hot.append("* cold")
    return src, "\n".join(hot) + "\n"


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def check(c2c, tmp, rng, i):
    d = os.path.join(tmp, "p%d" % i)
    new = os.path.join(tmp, "n%d" % i)
    os.makedirs(d, exist_ok=True)
    src, hot = make_struct(rng, i)
    open(os.path.join(d, "s.c"), "w").write(src)
    open(os.path.join(tmp, "h%d" % i), "w").write(hot)
    if run(["gcc", "-g", "-c", "s.c", "-o", "s.o"], cwd=d).returncode:
        return "s%d: the generated source does not compile" % i
    args = [c2c, "suggest", "--patch", "--source-dir", d, "-C", "s%d" % i,
            "--hotness", os.path.join(tmp, "h%d" % i), os.path.join(d, "s.o")]
    if i % 3 == 2:
        args += ["--choose", "isolate"]
    r = run(args)
    if "Sanitizer" in r.stderr or "runtime error" in r.stderr:
        return "s%d: sanitizer report\n%s" % (i, r.stderr)
    if r.returncode == 1:
        if "no patch for struct" in r.stderr and "moves of option" in r.stdout:
            KINDS["refused"] += 1
            return None
        return "s%d: exit 1 without the reason and the moves\n%s" % (i, r.stderr)
    if r.returncode:
        return "s%d: exit %d\n%s" % (i, r.returncode, r.stderr)
    if "\n@@ " not in r.stdout:
        KINDS["unchanged"] += 1
        return None if "nothing to change" in r.stderr else "s%d: no diff, no reason\n%s" % (i, r.stderr)
    shutil.copytree(d, new)
    p = run(["patch", "-p1", "-s", "--fuzz=0"], cwd=new, input=r.stdout)
    if p.returncode:
        return "s%d: the patch does not apply: %s%s" % (i, p.stdout, p.stderr)
    head = r.stdout.split("\n---\n", 1)[0]
    size = re.search(r"^size \d+ -> (\d+) bytes", head, re.M).group(1)
    asserts = ["#include <stddef.h>", '#include "%s/s.c"' % new,
               "_Static_assert(sizeof(struct s%d) == %s, \"size\");" % (i, size)]
    for name, off in re.findall(r"^  (\w+) (\d+)$", head, re.M):
        asserts.append("_Static_assert(offsetof(struct s%d, %s) == %s, \"%s\");" % (i, name, off, name))
    open(os.path.join(new, "a.c"), "w").write("\n".join(asserts) + "\n")
    c = run(["gcc", "-c", "a.c", "-o", "a.o"], cwd=new)
    if c.returncode:
        return "s%d: offsets differ from the header\n%s\n%s" % (i, c.stderr[-1500:], r.stdout)
    KINDS["patched"] += 1
    return None


def main():
    c2c, tmp, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    rng = random.Random(int(sys.argv[4]) if len(sys.argv) > 4 else 20261130)
    bad = 0
    for i in range(count):
        err = check(c2c, tmp, rng, i)
        if err:
            bad += 1
            print(err, file=sys.stderr)
    print("%d structs, %d failed; %d patched, %d refused (exit 1), %d unchanged"
          % (count, bad, KINDS["patched"], KINDS["refused"], KINDS["unchanged"]))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
