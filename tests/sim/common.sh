# Helpers for the c2csim tests (sourced after tests/lib.sh).
SAMPLES="$TOP_BUILDDIR/samples/false-sharing"

sim_require() {
	[ -x "${C2CSIM_LIB:-}/c2csim-amd64-linux" ] || skip "c2csim not built (no valgrind)"
	command -v valgrind >/dev/null || skip "valgrind not installed"
}

perf_require() {
	command -v perf >/dev/null || skip "perf not installed"
	perf version >/dev/null 2>&1 || skip "perf does not run here"
}

# sim_record OUT.data ERRFILE [record options] -- CMD...: expects exit 0
sim_record() {
	local data=$1 errf=$2
	shift 2
	run_c2c 0 "$TMP/stdout" "$errf" record --sim -o "$data" "$@"
}

# no_fallback NAME ERRFILE...: record never let real time decide (the
# note names the cause and the load when it did)
no_fallback() {
	local name=$1 f
	shift
	for f in "$@"; do
		if grep -q "may differ" "$f"; then
			fail "$name: real time decided (load $(cut -d' ' -f1-3 /proc/loadavg)): $(grep 'may differ' "$f")"
			return
		fi
	done
	ok
}

# summary_hitms ERRFILE: the HITM total of record's summary line
summary_hitms() {
	sed -n 's/.* simulated, \([0-9]*\) HITMs.*/\1/p' "$1"
}

# perf script prints fields in its own order: addr, data_src, ip, sym.
# HITM samples per cache line, from perf's own decoder:
# hitm_lines FILE [SYMBOL] prints "LINE_ADDR COUNT" (hex line address),
# only samples whose code is in SYMBOL when given.
hitm_lines() {
	perf script -i "$1" -F ip,sym,addr,data_src 2>/dev/null |
		python3 -c '
import sys, collections
sym = sys.argv[1] if len(sys.argv) > 1 else None
n = collections.Counter()
for l in sys.stdin:
    f = l.split()  # addr data_src |decoded| ip sym
    if len(f) < 4 or "HitM" not in l or (sym and f[-1] != sym):
        continue
    n[int(f[0], 16) >> 6] += 1
for line, c in sorted(n.items()):
    print("%#x %d" % (line << 6, c))' ${2:+"$2"}
}

# lines_touched FILE SYMBOL: the cache lines SYMBOL's code accessed (all samples)
lines_touched() {
	perf script -i "$1" -F ip,sym,addr 2>/dev/null | awk -v s="$2" '$NF == s { print $1 }' |
		python3 -c '
import sys
print("\n".join(sorted({"%#x" % (int(a, 16) >> 6 << 6) for a in sys.stdin.read().split()})))'
}

# printed ADDR_NAME FILE: the address the sample printed as NAME=0x...
printed() {
	sed -n "s/.*$1=\(0x[0-9a-f]*\).*/\1/p" "$2" | head -1
}

# line_of ADDR [PLUS]: the 64-byte line address of ADDR+PLUS
line_of() {
	printf '%#x\n' $((($1 + ${2:-0}) >> 6 << 6))
}

# hitms_on FILE LINE [SYMBOL]: HITM samples on that line (from SYMBOL's code)
hitms_on() {
	hitm_lines "$1" ${3:+"$3"} | awk -v l="$2" '$1 == l { n = $2 } END { print n + 0 }'
}

# c2c_hitm FILE: "LOCAL REMOTE" HITM totals of perf c2c report
c2c_hitm() {
	perf c2c report -i "$1" --stdio 2>/dev/null |
		awk -F: '/Load Local HITM/ { l = $2 } /Load Remote HITM/ { r = $2 }
			END { gsub(/ /, "", l); gsub(/ /, "", r); print l, r }'
}

# build_in DIR NAME: build DIR/NAME from NAME.c there (${CC:-gcc} -g
# ${FIX_CFLAGS:--O2} -pthread), the way the fix tests build before and after
build_in() {
	(cd "$1" && ${CC:-gcc} -g ${FIX_CFLAGS:--O2} -pthread -o "$2" "$2.c")
}

# patch_and_build DIR PATCH NAME: apply PATCH in DIR (patch -p1, no fuzz)
# and build DIR/NAME (build_in); fails (returns 1) saying which step
patch_and_build() {
	(cd "$1" && patch -p1 -s --fuzz=0 <"$2") || {
		fail "$3: the patch does not apply"
		return 1
	}
	build_in "$1" "$3" || {
		fail "$3: the patched source does not build"
		return 1
	}
}
