#!/usr/bin/env bash
# The report page in a real browser: headless Chromium renders it offline
# (no network, a fresh profile) without a script error, the screenshot is
# not blank (ink, many colours, the heat scale's ends: viridis' dark
# purple and its yellow), the inline script sorts a Pareto table when
# its header is clicked, and the metric buttons switch the heatmap.
source "$TOP_SRCDIR/tests/lib.sh"
source "$TOP_SRCDIR/tests/sim/common.sh"
sim_require
command -v python3 >/dev/null || skip "python3 (reads the screenshot) is missing"
CHROMIUM=$(command -v chromium || command -v chromium-browser) ||
	skip "chromium is not installed (Debian's chromium package renders the page)"

chromium_run() { # ARGS...: headless, sandbox off (root), nothing fetched
	timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu \
		--disable-background-networking --disable-component-update --disable-sync \
		--no-first-run --user-data-dir="$TMP/profile" --enable-logging=stderr --v=0 "$@"
}

sim_record "$TMP/lw.data" "$TMP/lw.rec" --sim-cpus 4 --sim-nodes 2 -- "$SAMPLES/lockword" 2000
run_c2c 0 "$TMP/lw.out" "$TMP/lw.err" report -i "$TMP/lw.data" --html "$TMP/page.html"

chromium_run --window-size=1400,2000 --screenshot="$TMP/shot.png" "file://$TMP/page.html" \
	>"$TMP/shot.log" 2>&1
[ -s "$TMP/shot.png" ] && ok || fail "no screenshot: $(tail -5 "$TMP/shot.log")"
if grep -q "CONSOLE.*Uncaught" "$TMP/shot.log"; then
	fail "script error: $(grep 'CONSOLE' "$TMP/shot.log" | head -3)"
else
	ok
fi
python3 - "$TMP/shot.png" "$TOP_SRCDIR/tests/output" >"$TMP/pixels.out" <<'PY' || fail "screenshot: $(cat "$TMP/pixels.out")"
import sys
sys.path.insert(0, sys.argv[2])
import png
w, h, ch, rows = png.read(sys.argv[1])
colours, ink, purple, yellow = set(), 0, 0, 0
for r in rows:
    for x in range(0, w * ch, ch):
        c = (r[x], r[x + 1], r[x + 2])
        colours.add(c)
        if sum(c) < 720:
            ink += 1
        if abs(c[0] - 0x44) + abs(c[1] - 0x01) + abs(c[2] - 0x54) < 60:
            purple += 1
        if abs(c[0] - 0xfd) + abs(c[1] - 0xe7) + abs(c[2] - 0x25) < 60:
            yellow += 1
print("%dx%d, %d colours, %.1f%% ink, %d purple, %d yellow pixels" %
      (w, h, len(colours), 100.0 * ink / (w * h), purple, yellow))
ok = (w, h) == (1400, 2000) and len(colours) >= 50 and ink > 0.03 * w * h and purple > 50 \
    and yellow > 50
sys.exit(0 if ok else 1)
PY
echo "screenshot: $(cat "$TMP/pixels.out")"

# the sort script: click the Pareto table's "records" header, read the column back
sed 's|</body>|<script>var t=document.querySelector("details table.sortable"),h=[].filter.call(t.querySelectorAll("th[data-col]"),function(x){return x.textContent=="records"})[0];h.click();document.body.setAttribute("data-got",[].map.call(t.tBodies[0].rows,function(r){return r.cells[+h.dataset.col].textContent}).join(" "));</script></body>|' \
	"$TMP/page.html" >"$TMP/sort.html"
chromium_run --dump-dom "file://$TMP/sort.html" >"$TMP/dom.html" 2>"$TMP/dom.log"
got=$(sed -n 's/.*<body data-got="\([0-9 ]*\)".*/\1/p' "$TMP/dom.html")
want=$(echo "$got" | tr ' ' '\n' | sort -rn | paste -sd' ')
[ -n "$got" ] && ok || fail "the sort script left no result: $(grep CONSOLE "$TMP/dom.log" | head -3)"
expect_eq "records sorted, largest first" "$want" "$got"
[ "$(echo "$got" | wc -w)" -ge 3 ] && ok || fail "too few rows to tell a sort: '$got'"

# the metric switch (CSS only): a click on "Stores" colours the cells by
# their stores colour and shows the stores legend instead of the totals'
cat >"$TMP/switch.js" <<'JS'
<script>
var r = document.querySelector("rect.c");
function rgb(h) {
	h = h.trim();
	return "rgb(" + parseInt(h.substr(1, 2), 16) + ", " + parseInt(h.substr(3, 2), 16) + ", " +
		parseInt(h.substr(5, 2), 16) + ")";
}
function shown(c) { return getComputedStyle(document.querySelector(".hm-" + c)).display; }
var before = getComputedStyle(r).fill == rgb(r.style.getPropertyValue("--tot"));
document.getElementById("m-st").click();
var after = getComputedStyle(r).fill == rgb(r.style.getPropertyValue("--st"));
document.body.setAttribute("data-got", [before, after, shown("tot"), shown("st")].join(","));
</script>
JS
{ sed '/^<\/body>$/,$d' "$TMP/page.html"; cat "$TMP/switch.js"; echo '</body></html>'; } >"$TMP/switch.html"
chromium_run --dump-dom "file://$TMP/switch.html" >"$TMP/dom2.html" 2>"$TMP/dom2.log"
expect_eq "metric switch: cells and legend follow the button" "true,true,none,block" \
	"$(sed -n 's/.*<body data-got="\([a-z,]*\)".*/\1/p' "$TMP/dom2.html")"

finish
