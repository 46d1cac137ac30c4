#!/usr/bin/env python3
# Checks a c2cscope HTML page: strictly well formed (every element closed
# in order, no stray text markup, unique ids), self-contained (nothing a
# browser would fetch), and, given the JSON of the same report, that every
# number it shows is the JSON's: the summary figures, the line table, each
# line's Pareto rows, the heatmap cells (the sums of the rows at each
# offset) and the cpu x line matrix's writers and readers. Prints one line
# per problem; exit 1 when there is any.
#
# usage: html_check.py PAGE [--json REPORT.json [--lines N]] [--fields a,b,..]
#                           [--members FILE] [--px-per-byte N]
#   --fields   member names that must be drawn (data-field of a box)
#   --members  "name offset size" lines (from the compiler): the boxes of
#              the first strip must sit and be as wide as these bytes
#   --suggest-json, --option: the strips' HITMs per line and the moved
#              members' offsets are those of suggest's JSON for the option
#   --profile-json: the member table's numbers and cpu sets are those of
#              layout --profile --format json
import argparse
import html.parser
import json
import re
import sys

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}
problems = []


def problem(msg):
    problems.append(msg)


class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=False)
        self.stack = []
        self.ids = set()
        self.doctype = False
        self.tables = []  # [{"title", "headers", "rows", "keys", "context"}]
        self.cells = []  # heatmap rects: (metric, line, offset, value)
        self.boxes = []  # strip boxes: (strip index, field, offset, bytes, width)
        self.strip = -1
        self.text_stack = []
        self.context = None  # id of the enclosing <details>, or the last h2's text
        self.external = []
        self.hitm_texts = []  # (strip index, line, HITMs) right of each strip line
        self.line_label = None

    # --- well-formedness ---
    def handle_decl(self, decl):
        if decl.lower() == "doctype html":
            self.doctype = True

    def in_svg(self):
        return "svg" in self.stack

    def check_attrs(self, tag, attrs):
        names = [a for a, _ in attrs]
        if len(names) != len(set(names)):
            problem("<%s>: an attribute given twice: %s" % (tag, names))
        for a, v in attrs:
            if a == "id":
                if v in self.ids:
                    problem("id %r used twice" % v)
                self.ids.add(v)
            if a in ("href", "src", "xlink:href", "action", "srcset", "poster", "data") and \
                    v is not None and not v.startswith("#"):
                self.external.append("%s=%r on <%s>" % (a, v, tag))
            if a == "style" and v and "url(" in v and "url(#" not in v:
                self.external.append("style url on <%s>" % tag)
            if a == "fill" and v and v.startswith("url(") and not v.startswith("url(#"):
                self.external.append("fill %r" % v)
            if a == "xmlns" and v != "http://www.w3.org/2000/svg":
                problem("unexpected xmlns %r" % v)
        if tag in ("link", "iframe", "object", "embed", "img", "audio", "video"):
            self.external.append("<%s>" % tag)
        if tag == "script" and dict(attrs).get("src"):
            self.external.append("<script src>")

    def handle_starttag(self, tag, attrs):
        self.check_attrs(tag, attrs)
        self.collect_start(tag, dict(attrs))
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.check_attrs(tag, attrs)
        if tag not in VOID and not self.in_svg():
            problem("<%s/> is not a void element outside SVG" % tag)
        self.collect_start(tag, dict(attrs))
        self.collect_end(tag)

    def handle_endtag(self, tag):
        if tag in VOID:
            problem("end tag of void <%s>" % tag)
            return
        if not self.stack or self.stack[-1] != tag:
            problem("</%s> closes %s" % (tag, self.stack[-1] if self.stack else "nothing"))
            if tag in self.stack:
                while self.stack and self.stack.pop() != tag:
                    pass
            return
        self.stack.pop()
        self.collect_end(tag)

    def handle_data(self, data):
        if ("<" in data or ">" in data) and not {"script", "style"} & set(self.stack):
            problem("unescaped markup character in text %r" % data[:60])
        if self.text_stack:
            self.text_stack[-1] += data

    def handle_entityref(self, name):
        if name not in ("amp", "lt", "gt", "quot", "apos"):
            problem("unknown entity &%s;" % name)
        if self.text_stack:
            self.text_stack[-1] += html.unescape("&%s;" % name)

    def handle_charref(self, name):
        if self.text_stack:
            self.text_stack[-1] += html.unescape("&#%s;" % name)

    # --- what the checks compare ---
    def collect_start(self, tag, a):
        if tag == "details":
            self.context = a.get("id")
        if tag == "table":
            self.tables.append({"headers": [], "rows": [], "keys": {}, "context": self.context,
                                "title": None, "row": None})
        if tag in ("td", "th", "h2", "h3", "summary", "text"):
            self.text_stack.append("")
            self.cur_attrs = a
        if tag == "tr" and self.tables:
            self.tables[-1]["row"] = []
        if tag == "rect" and "data-line" in a:
            for m in ("tot", "rmt", "lcl", "st"):
                self.cells.append((m, int(a["data-line"]), int(a["data-off"]),
                                   int(a["data-" + m])))
        if tag == "rect" and "data-field" in a:
            self.boxes.append((self.strip, a["data-field"], int(a["data-offset"]),
                               int(a["data-bytes"]), float(a["width"])))
        if tag == "svg" and "aria-label" in a and " cache lines" in a["aria-label"]:
            self.strip += 1

    def collect_end(self, tag):
        if tag in ("td", "th", "h2", "h3", "summary", "text") and self.text_stack:
            text = self.text_stack.pop()
            if tag in ("td", "th") and self.tables and self.tables[-1]["row"] is not None:
                self.tables[-1]["row"].append((tag, text, self.cur_attrs if tag == "td" else {}))
            if tag == "h2":
                self.context = text
            m = re.match(r"line (\d+) \+\d+$", text)
            if tag == "text" and m:
                self.line_label = int(m.group(1))
            m = re.match(r"HITM (\d+)", text)
            if tag == "text" and m and self.strip >= 0:
                self.hitm_texts.append((self.strip, self.line_label, int(m.group(1))))
        if tag == "tr" and self.tables and self.tables[-1]["row"] is not None:
            t = self.tables[-1]
            row = t["row"]
            t["row"] = None
            if all(k == "th" for k, _, _ in row):
                if len(row) == 1 and t["title"] is None:
                    t["title"] = row[0][1]
                t["headers"] = [x for _, x, _ in row]  # the last header row names columns
            else:
                t["rows"].append([x for _, x, _ in row])
                for _, x, attrs in row:
                    if "data-key" in attrs:
                        t["keys"][attrs["data-key"]] = x


def fmt_pct(v, digits):
    return "nan%" if v is None else "%.*f%%" % (digits, v)


def same(got, want):
    """The page's text against the JSON's: null (NaN) is printed as the
    text report prints it, "nan%" or "-nan%" (printf's sign of the NaN)."""
    return got == want or (want == "nan%" and got == "-nan%")


def check_summary(p, d):
    want = {"Trace Event Information": d["trace_event_information"],
            "Global Shared Cache Line Event Information": d["shared_cache_line_information"]}
    for t in p.tables:
        if t["title"] not in want:
            continue
        figs = want.pop(t["title"])
        for k, v in figs.items():
            w = fmt_pct(v, 1) if isinstance(v, float) or v is None else "%d" % v
            if not same(t["keys"].get(k), w):
                problem("summary %s: %s is %r, the JSON says %r" % (t["title"], k,
                                                                    t["keys"].get(k), w))
        if set(t["keys"]) != set(figs):
            problem("summary %s: keys %s differ from the JSON's" % (t["title"],
                                                                   set(t["keys"]) ^ set(figs)))
    for title in want:
        problem("summary table %r missing" % title)


def col(t, name, nth=0):
    idx = [i for i, h in enumerate(t["headers"]) if h == name]
    return idx[nth] if len(idx) > nth else None


def check_lines(p, d, drawn):
    t = [t for t in p.tables if t["context"] == "Shared Data Cache Line Table"]
    if not t:
        return problem("no line table")
    t = t[0]
    if len(t["rows"]) != len(drawn):
        problem("line table: %d rows for %d drawn lines" % (len(t["rows"]), len(drawn)))
    c = {h: col(t, h) for h in ("Num", "Address", "Total", "LclHitm", "RmtHitm", "records",
                                 "Loads", "Stores")}
    for row, l in zip(t["rows"], drawn):
        st = l["stats"]
        want = {"Num": str(l["index"]), "Address": l["address"], "Total": str(st["tot_hitm"]),
                "LclHitm": str(st["lcl_hitm"]), "RmtHitm": str(st["rmt_hitm"]),
                "records": str(st["total_records"]), "Loads": str(st["load"]),
                "Stores": str(st["store"])}
        for h, w in want.items():
            if c[h] is None or row[c[h]] != w:
                problem("line %d: %s is %r, the JSON says %r" %
                        (l["index"], h, row[c[h]] if c[h] is not None else None, w))


def check_pareto(p, d, drawn):
    by_ctx = {t["context"]: t for t in p.tables}
    for l in drawn:
        t = by_ctx.get("line-%d" % l["index"])
        if not t:
            problem("line %d: no Pareto table" % l["index"])
            continue
        if len(t["rows"]) != len(l["rows"]):
            problem("line %d: %d Pareto rows, the JSON has %d" % (l["index"], len(t["rows"]),
                                                                   len(l["rows"])))
        c = {h: col(t, h) for h in ("Offset", "Code address", "records", "cpu cnt", "Field",
                                     "Lcl", "Rmt")}
        for row, r in zip(t["rows"], l["rows"]):
            want = {"Offset": r["offset"], "Code address": r.get("iaddr"),
                    "records": str(r["stats"]["total_records"]),
                    "cpu cnt": str(r["cpu_count"]), "Lcl": fmt_pct(r["lcl_hitm_pct"], 2),
                    "Rmt": fmt_pct(r["rmt_hitm_pct"], 2)}
            if "attribution" in r:
                want["Field"] = r["attribution"]["label"] or ""
            for h, w in want.items():
                if w is None:
                    continue
                if c[h] is None or not same(row[c[h]], w):
                    problem("line %d row %s: %s is %r, the JSON says %r" %
                            (l["index"], r["offset"], h, row[c[h]] if c[h] is not None else None,
                             w))


def check_heatmap(p, d, drawn):
    # "st" counts writes as the text report's Writers do: stores and locked loads
    keys = {"tot": ("tot_hitm",), "rmt": ("rmt_hitm",), "lcl": ("lcl_hitm",),
            "st": ("store", "lock_loads")}
    got = {(m, li, off): v for m, li, off, v in p.cells}
    want = {}
    for l in drawn:
        for r in l["rows"]:
            off = int(r["offset"], 16) & (d["line_size"] - 1)
            for m, ks in keys.items():
                want[(m, l["index"], off)] = want.get((m, l["index"], off), 0) + \
                    sum(r["stats"][k] for k in ks)
    if got != want:
        diff = sorted(set(got.items()) ^ set(want.items()))[:8]
        problem("heatmap cells differ from the sums of the JSON's rows: %s" % diff)
    if len(got) != len(p.cells):
        problem("a heatmap cell drawn twice")


def check_cpu_matrix(p, d, drawn):
    """The Cpu x line matrix names the writers and readers of the JSON's lines
    (the text report's Writers/Readers): W, R or RW per cpu."""
    t = next((t for t in p.tables if t["context"] == "Cpu x line"), None)
    if t is None:
        if drawn:
            problem("no Cpu x line table")
        return
    cpus = [int(h) for h in t["headers"][2:]]
    rows = {int(r[0]): r[2:] for r in t["rows"]}
    for l in drawn:
        if l["index"] not in rows:
            problem("Cpu x line: line %d missing" % l["index"])
            continue
        w = set(l["writers"]["cpus"]) if l["writers"]["samples"] else set()
        rd = set(l["readers"]["cpus"]) if l["readers"]["samples"] else set()
        for cpu, cell in zip(cpus, rows[l["index"]]):
            want = ("W" if cpu in w else "") + ("R" if cpu in rd else "")
            want = "RW" if want == "WR" else want
            if cell != want:
                problem("Cpu x line: line %d cpu %d is %r, the JSON's writers %s and "
                        "readers %s say %r" % (l["index"], cpu, cell, sorted(w), sorted(rd),
                                               want))
        for cpu in (w | rd) - set(cpus):
            problem("Cpu x line: line %d: cpu %d has no column" % (l["index"], cpu))


def check_members(p, path, px):
    want = {}
    for line in open(path):
        name, off, size = line.split()
        want[name] = (int(off), int(size))
    boxes = [b for b in p.boxes if b[0] == 0]
    seen = set()
    for _, name, off, nbytes, width in boxes:
        if name not in want:
            continue
        seen.add(name)
        o, s = want[name]
        if not (o <= off and off + nbytes <= o + s):
            problem("box %s at %d+%d is outside the member's bytes %d+%d" % (name, off, nbytes,
                                                                             o, s))
        if abs(width - nbytes * px) > 0.01:
            problem("box %s: width %.2f for %d bytes (%.0f px a byte)" % (name, width, nbytes,
                                                                          px))
    for name, (o, s) in want.items():
        total = sum(b[3] for b in boxes if b[1] == name)
        if total != s:
            problem("member %s: boxes cover %d bytes, sizeof says %d" % (name, total, s))
    if not seen:
        problem("no box of the first strip is a member the compiler named")


def check_option(p, path, name):
    d = json.load(open(path))
    opt = [o for o in d["options"] if o["option"] == name]
    if not opt:
        return problem("%s has no option %s" % (path, name))
    o = opt[0]
    for strip, key in ((0, "lines_before"), (1, "lines_after")):
        got = [(li, h) for s, li, h in p.hitm_texts if s == strip]
        want = [(x["line"], x["hitm"]) for x in o[key]]
        if got != want:
            problem("strip %d: HITMs per line %s, suggest's JSON says %s" % (strip, got, want))
    for mv in o["moves"]:
        boxes = [b for b in p.boxes if b[0] == 1 and b[1] == mv["member"]]
        if not boxes or min(b[2] for b in boxes) != mv["new_offset"]:
            problem("option %s: %s drawn at %s, suggest moves it to %d" %
                    (name, mv["member"], [b[2] for b in boxes], mv["new_offset"]))


def cpus(v):
    """A cpu list as the page writes it: 0-3,5; - for none."""
    if not v:
        return "-"
    out, i = [], 0
    while i < len(v):
        j = i
        while j + 1 < len(v) and v[j + 1] == v[j] + 1:
            j += 1
        out.append("%d-%d" % (v[i], v[j]) if j > i else "%d" % v[i])
        i = j + 1
    return ",".join(out)


def check_profile(p, path):
    """The member table of the first struct equals layout --profile --format json."""
    d = json.load(open(path))
    t = [t for t in p.tables if t["headers"][:2] == ["Field", "Offset"]]
    if not t:
        return problem("no member table")
    t = t[0]
    rows = {r[0]: r for r in t["rows"]}
    members = {m["name"]: m for m in d["struct"]["members"]}
    for f in d["fields"]:
        if not f["loads"] and not f["stores"]:
            continue
        r = rows.get(f["name"])
        if not r:
            problem("member table: no row for %s" % f["name"])
            continue
        m = members[f["name"]]
        want = [f["name"], str(m["offset"]), str(m["size"]), str(m["cacheline"]),
                str(f["hitm_local"]), str(f["hitm_remote"]), str(f["loads"]), str(f["stores"]),
                cpus(f["writers"]), cpus(f["readers"]), ",".join(f["writer_funcs"]),
                ",".join(f["reader_funcs"])]
        if r[:len(want)] != want:
            problem("member %s: %s, layout --profile's JSON says %s" % (f["name"],
                                                                       r[:len(want)], want))
    if len(rows) != sum(1 for f in d["fields"] if f["loads"] or f["stores"]):
        problem("member table: %d rows for the sampled fields" % len(rows))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("page")
    ap.add_argument("--json")
    ap.add_argument("--lines", type=int, default=50, help="lines the page draws")
    ap.add_argument("--fields", default="")
    ap.add_argument("--members")
    ap.add_argument("--px-per-byte", type=float, default=6)
    ap.add_argument("--suggest-json", help="suggest --format json of the drawn struct")
    ap.add_argument("--profile-json", help="layout --profile --format json of the first struct")
    ap.add_argument("--option", default="reorder", help="the option drawn beside it")
    a = ap.parse_args()
    src = open(a.page, encoding="utf-8").read()
    p = Page()
    p.feed(src)
    p.close()
    if not p.doctype:
        problem("no <!DOCTYPE html>")
    if p.stack:
        problem("elements left open at the end: %s" % p.stack)
    for tag in ("<html lang=", "<meta charset=\"utf-8\">", "<title>"):
        if tag not in src:
            problem("missing %s" % tag)
    for e in p.external:
        problem("external reference: %s" % e)
    for m in re.finditer(r"https?://[^\s\"'<>)]+", src):
        if m.group(0) != "http://www.w3.org/2000/svg":
            problem("a URL in the page: %s" % m.group(0))
    if "@import" in src or "@font-face" in src:
        problem("CSS that loads something")
    if a.json:
        d = json.load(open(a.json))
        drawn = d["lines"][:a.lines]
        check_summary(p, d)
        check_lines(p, d, drawn)
        check_pareto(p, d, drawn)
        check_heatmap(p, d, drawn)
        check_cpu_matrix(p, d, drawn)
    fields = {b[1] for b in p.boxes}
    for f in filter(None, a.fields.split(",")):
        if f not in fields:
            problem("field %s is not drawn (drawn: %s)" % (f, sorted(fields)))
    if a.members:
        check_members(p, a.members, a.px_per_byte)
    if a.suggest_json:
        check_option(p, a.suggest_json, a.option)
    if a.profile_json:
        check_profile(p, a.profile_json)
    for msg in problems:
        print("%s: %s" % (a.page, msg))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
