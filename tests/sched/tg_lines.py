#!/usr/bin/env python3
# What a `c2cscope report --json` says about struct task_group's cache lines,
# computed independently of c2cscope demo (which the tests compare it with).
#   tg_lines.py REPORT.json TG_ADDR TG_SIZE
# prints, one fact a line:
#   line HITMS                  HITMs on every line task_group spans
#   load_avg HITMS              rows whose field is task_group.load_avg
#   fn SYMBOL HITMS CYCLES      per function, on those lines; CYCLES is the
#                               sum of the load samples' weights (simulated
#                               stall cycles): count x mean weight per bucket
#   rank N                      the hottest task_group line's place
import json
import sys

d = json.load(open(sys.argv[1]))
lo = int(sys.argv[2], 16)
hi = lo + int(sys.argv[3])
BUCKETS = ("rmt_hitm", "lcl_hitm", "rmt_peer", "lcl_peer")
line = load_avg = 0
fns = {}
rank = None
for ln in d["lines"]:
    addr = int(ln["address"], 16)
    if addr + d["line_size"] <= lo or addr >= hi:
        continue
    if rank is None:
        rank = ln["index"]
    line += ln["stats"]["tot_hitm"]
    for r in ln["rows"]:
        s, m = r["stats"], r["mean_cycles"]
        cyc = sum(s[b] * m[b] for b in BUCKETS)
        cyc += (s["load"] - sum(s[b] for b in BUCKETS)) * m["load"]
        a = r.get("attribution") or {}
        if a.get("outer_type") == "task_group" and \
                (a.get("outer_field") or "").split(".")[0] == "load_avg":
            load_avg += s["tot_hitm"]
        f = fns.setdefault(r.get("symbol") or "?", [0, 0])
        f[0] += s["tot_hitm"]
        f[1] += cyc
print("line", line)
print("load_avg", load_avg)
for name, (h, c) in sorted(fns.items()):
    print("fn", name, h, round(c))
print("rank", rank if rank is not None else -1)
