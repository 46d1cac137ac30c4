#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Deterministic mutation runs for the robustness tests.

Writes COUNT mutated copies of INPUT (seeded: the same seed gives the same
files) and runs CMD on each, where CMD's words may contain {file} (the
mutated copy) and {opts} (one of the --opts variants, split into words).
Every run must end within TIMEOUT seconds with an exit status in OK and
print nothing a sanitizer prints. A run that does not is kept as
KEEP/bad-N.<ext> and named on stderr with its command, status and the
end of its stderr; the script exits 1 after all runs (0 when none failed).

Binary mutations (the default) change 1-8 bytes inside the given byte
ranges (an ELF's named sections with --sections, or --range START:LEN,
else the whole file): a random byte, a flipped bit, or a run of 0x00,
0xff, 0x7f or 0x80; one run in seven instead cuts the file short.
--text mutations insert tokens (--token), delete or duplicate spans.
--json mutations keep the document valid JSON and change 1-4 of its
values: numbers to 0, -1, huge, fractional or another number of the
document, strings to "", another string of the document or a long one,
any value to another type, a member or element dropped or duplicated,
so that what the reader checks after parsing is what gets exercised.
"""
import argparse
import json
import os
import random
import shlex
import struct
import subprocess
import sys

SANITIZER_WORDS = ("Sanitizer", "runtime error:")


def elf_sections(data, names):
    """(offset, size) of the named sections of a 64-bit little-endian ELF."""
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        sys.exit("mutate.py: --sections needs a 64-bit little-endian ELF")
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3a)
    sh = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]
    stroff = sh[shstrndx][4]
    found = []
    for s in sh:
        end = data.index(b"\0", stroff + s[0])
        name = data[stroff + s[0]:end].decode()
        if name in names and s[5]:
            found.append((s[4], s[5]))
    if not found:
        sys.exit("mutate.py: none of %s in the input" % ",".join(names))
    return found


def mutate_binary(rng, data, ranges):
    data = bytearray(data)
    if rng.random() < 1 / 7:
        return bytes(data[:rng.randrange(len(data))])
    for _ in range(rng.randint(1, 8)):
        off, size = rng.choice(ranges)
        pos = off + rng.randrange(size)
        r = rng.random()
        if r < 0.5:
            data[pos] = rng.randrange(256)
        elif r < 0.8:
            data[pos] ^= 1 << rng.randrange(8)
        else:
            v = rng.choice([0, 0xff, 0x7f, 0x80])
            for k in range(min(rng.choice([1, 2, 4, 8]), len(data) - pos)):
                data[pos + k] = v
    return bytes(data)


def mutate_text(rng, data, tokens):
    data = bytearray(data)
    for _ in range(rng.randint(1, 5)):
        pos = rng.randrange(len(data) + 1)
        r = rng.random()
        if r < 0.3 and data:
            data[pos % len(data)] = rng.randrange(256)
        elif r < 0.6 and tokens:
            data[pos:pos] = rng.choice(tokens)
        elif r < 0.8:
            del data[pos:pos + rng.randint(1, 20)]
        elif data:
            a = rng.randrange(len(data))
            data[pos:pos] = data[a:a + rng.randint(1, 40)]
    return bytes(data)


def json_paths(doc, path=()):
    """Every (path, value) of a parsed JSON document, containers included."""
    yield path, doc
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from json_paths(v, path + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from json_paths(v, path + (i,))


def mutate_json(rng, data):
    doc = json.loads(data)
    for _ in range(rng.randint(1, 4)):
        paths = list(json_paths(doc))
        numbers = [v for _, v in paths if isinstance(v, (int, float)) and not isinstance(v, bool)]
        strings = [v for _, v in paths if isinstance(v, str)]
        path, value = rng.choice(paths[1:] or paths)
        parent = doc
        for k in path[:-1]:
            parent = parent[k]
        key = path[-1] if path else None
        r = rng.random()
        if isinstance(value, bool) or value is None or r < 0.15:
            new = rng.choice([None, True, 0, -1, "", [], {}, "x" * 300])
        elif isinstance(value, (int, float)):
            new = rng.choice([0, -1, -2**63, 2**64, 2**31, 1e300, 0.5, value + 1, value - 1] +
                             numbers[:50])
        elif isinstance(value, str):
            new = rng.choice(["", "x" * 5000, value + "_", "../" + value, "\u0000"] + strings[:50])
        elif isinstance(value, list) and value and r < 0.6:
            i = rng.randrange(len(value))
            if rng.random() < 0.5:
                del value[i]
            else:
                value.insert(i, json.loads(json.dumps(value[i])))
            continue
        elif isinstance(value, dict) and value and r < 0.6:
            del value[rng.choice(list(value))]
            continue
        else:
            new = rng.choice([[], {}, 0, ""])
        if key is None:
            doc = new
        else:
            parent[key] = new
    return json.dumps(doc).encode()


def main():
    ap = argparse.ArgumentParser(usage="%(prog)s [options] INPUT -- CMD...")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--timeout", type=float, default=20)
    ap.add_argument("--ok", default="0,2", help="exit statuses that are fine")
    ap.add_argument("--keep", default=".", help="where failing inputs are kept")
    ap.add_argument("--sections", help="comma-separated ELF sections to mutate")
    ap.add_argument("--range", action="append", default=[], help="START:LEN to mutate")
    ap.add_argument("--text", action="store_true")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--token", action="append", default=[])
    ap.add_argument("--opts", action="append", default=[], help="a variant for {opts}")
    ap.add_argument("input")
    ap.add_argument("cmd", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = a.cmd[1:] if a.cmd[:1] == ["--"] else a.cmd
    if not cmd:
        ap.error("no command")
    ok = {int(x) for x in a.ok.split(",")}
    orig = open(a.input, "rb").read()
    if a.sections:
        ranges = elf_sections(orig, a.sections.split(","))
    elif a.range:
        ranges = [tuple(int(x, 0) for x in r.split(":")) for r in a.range]
    else:
        ranges = [(0, len(orig))]
    ext = os.path.splitext(a.input)[1]
    cur = os.path.join(a.keep, "mutant" + ext)
    rng = random.Random(a.seed)
    tokens = [os.fsencode(t) for t in a.token]
    env = dict(os.environ, UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1")
    bad = 0
    statuses = {}
    for i in range(a.count):
        if a.json:
            data = mutate_json(rng, orig)
        elif a.text:
            data = mutate_text(rng, orig, tokens)
        else:
            data = mutate_binary(rng, orig, ranges)
        opts = shlex.split(rng.choice(a.opts)) if a.opts else []
        argv = []
        for w in cmd:
            if w == "{opts}":
                argv += opts
            else:
                argv.append(w.replace("{file}", cur))
        with open(cur, "wb") as f:
            f.write(data)
        why = None
        try:
            p = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, env=env, timeout=a.timeout)
            err = p.stderr.decode(errors="replace")
            statuses[p.returncode] = statuses.get(p.returncode, 0) + 1
            if p.returncode not in ok:
                why = "exit status %d" % p.returncode
            elif any(w in err for w in SANITIZER_WORDS):
                why = "sanitizer report"
        except subprocess.TimeoutExpired:
            why, err = "no end within %g s" % a.timeout, ""
        if why:
            bad += 1
            keep = os.path.join(a.keep, "bad-%d%s" % (bad, ext))
            with open(keep, "wb") as f:
                f.write(data)
            sys.stderr.write("mutation %d (seed %d): %s: %s\n  kept as %s\n%s\n" %
                             (i, a.seed, " ".join(argv), why, keep, err[-1500:]))
    print("%s: %d mutations, %d bad (exit statuses: %s)" %
          (os.path.basename(a.input), a.count, bad,
           ", ".join("%d x%d" % (k, v) for k, v in sorted(statuses.items()))))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
