#!/usr/bin/env bash
# c2cscope report's options and input errors: help, bad options, missing
# and damaged files, --double-cl (--cacheline-size), --json, --rules, --stats, --threads,
# progress only on a terminal.
source "$TOP_SRCDIR/tests/lib.sh"
GEN="$TOP_BUILDDIR/tests/c2c/gen_c2c_data"
command -v python3 >/dev/null || skip "python3 needed to read the JSON"
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }

run_c2c 0 "$TMP/help" "$TMP/err" report --help
expect_contains "help names options" "--double-cl" "$TMP/help"
run_c2c 2 "$TMP/out" "$TMP/err" report -d bogus -i x
expect_contains "bad -d" "-d expects tot, rmt, lcl or peer" "$TMP/err"
run_c2c 2 "$TMP/out" "$TMP/err" report -c offset,colour -i x
expect_contains "bad -c" "-c expects" "$TMP/err"
run_c2c 2 "$TMP/out" "$TMP/err" report -i "$TMP/missing.data"
expect_contains "missing file named" "missing.data" "$TMP/err"

"$GEN" -n 20000 -l 200 -P "$TMP/mix.data" || fail "generator failed"

# JSON to a file, text still on stdout; JSON carries the text's numbers
run_c2c 0 "$TMP/text" "$TMP/err" report -i "$TMP/mix.data" --json "$TMP/r.json"
expect_contains "text with --json FILE" "Trace Event Information" "$TMP/text"
expect_eq "schema" "c2cscope-report/1" "$(json "$TMP/r.json" 'd["schema"]')"
expect_eq "records in JSON" 20000 "$(json "$TMP/r.json" 'd["trace_event_information"]["total_records"]')"
expect_eq "lines in JSON = lines in text" \
	"$(sed -n '/Cache Line Table/,/Pareto/p' "$TMP/text" | grep -c '^ *[0-9][0-9]*  0x')" \
	"$(json "$TMP/r.json" 'len(d["lines"])')"
top_text=$(sed -n '/Cache Line Table/,/Pareto/p' "$TMP/text" | grep -m1 '^ *0  0x' | awk '{print $7, $8}')
expect_eq "top line HITMs text vs JSON" "$top_text" \
	"$(json "$TMP/r.json" 'str(d["lines"][0]["stats"]["lcl_hitm"])+" "+str(d["lines"][0]["stats"]["rmt_hitm"])')"

# --threads: the lines are split between threads; the output must not change
"$GEN" -n 30000 -l 500 -P -x "$TMP/swapped.data" || fail "generator failed"
for f in mix swapped; do
	run_c2c 0 "$TMP/t1" "$TMP/err" report -i "$TMP/$f.data" --threads 1 --show-all -c tid,iaddr
	for n in 2 3; do
		run_c2c 0 "$TMP/tn" "$TMP/err" report -i "$TMP/$f.data" --threads $n --show-all -c tid,iaddr
		if cmp -s "$TMP/t1" "$TMP/tn"; then
			ok "$f: --threads $n prints what --threads 1 prints"
		else
			fail "$f: --threads $n differs from --threads 1: $(diff "$TMP/t1" "$TMP/tn" | head -5)"
		fi
	done
done
expect_contains "threads output has lines" "Shared Data Cache Line Table" "$TMP/t1"
run_c2c 2 "$TMP/out" "$TMP/err" report -i "$TMP/mix.data" --threads 0
expect_contains "bad --threads" "--threads expects a number from 1 to 64" "$TMP/err"

# progress: drawn on a terminal while a large file is read, never when
# stderr is a file or a pipe
"$GEN" -n 1000000 -l 2000 -q "$TMP/big.data" || fail "generator failed"
# (lib.sh turns progress off for every test: turn it back to "automatic")
auto() { env -u C2CSCOPE_PROGRESS "$@"; }
auto "$C2CSCOPE" report -i "$TMP/big.data" --stdio >"$TMP/big.out" 2>"$TMP/big.err"
expect_eq "piped: stderr stays empty" "" "$(cat "$TMP/big.err")"
auto "$C2CSCOPE" report -i "$TMP/big.data" --stdio 2>&1 >/dev/null | cat >"$TMP/big.pipe"
expect_eq "piped through cat: nothing drawn" "" "$(cat "$TMP/big.pipe")"
if command -v script >/dev/null && command -v perf >/dev/null; then
	# Progress is drawn once the work has taken 0.1 s: a quiet machine reads
	# the whole file sooner. A stream that stalls for 0.3 s after its first
	# MiB is drawn whatever the machine's speed.
	perf inject -i "$TMP/big.data" -o - >"$TMP/big.stream" 2>/dev/null || fail "perf inject failed"
	auto script -qec "{ head -c 1048576 \"$TMP/big.stream\"; sleep 0.3;
		tail -c +1048577 \"$TMP/big.stream\"; } | \"$C2CSCOPE\" report -i - --stdio >/dev/null" \
		/dev/null >"$TMP/tty.out" </dev/null
	expect_contains "terminal: progress drawn" "Reading: " "$TMP/tty.out"
	expect_eq "terminal: line cleared at the end" "1" \
		"$(tail -c 3 "$TMP/tty.out" | od -An -c | grep -c '\\r')"
fi

# --stats: only the summaries
run_c2c 0 "$TMP/stats" "$TMP/err" report -i "$TMP/mix.data" --stats
expect_not_contains "--stats has no table" "Shared Data Cache Line Table" "$TMP/stats"
expect_contains "--stats has summaries" "Total Shared Cache Lines" "$TMP/stats"

# --double-cl: each 128-byte line holds its two 64-byte halves
run_c2c 0 "$TMP/s.json" "$TMP/err" report -i "$TMP/mix.data" --show-all --json -
run_c2c 0 "$TMP/d.json" "$TMP/err" report -i "$TMP/mix.data" --show-all --double-cl --json -
expect_eq "line size" 128 "$(json "$TMP/d.json" 'd["line_size"]')"
expect_eq "pairs add up" \
	"$(json "$TMP/s.json" 'sum(l["stats"]["tot_hitm"] for l in d["lines"] if int(l["address"],16) in (0x200000000000, 0x200000000040))')" \
	"$(json "$TMP/d.json" '[l["stats"]["tot_hitm"] for l in d["lines"] if l["address"]=="0x200000000000"][0]')"
expect_eq "one line per 128-byte pair" \
	"$(json "$TMP/s.json" 'len(set(int(l["address"],16)//128 for l in d["lines"]))')" \
	"$(json "$TMP/d.json" 'len(d["lines"])')"
expect_eq "offsets up to 0x78" "0x78" \
	"$(json "$TMP/d.json" 'max((r["offset"] for l in d["lines"] for r in l["rows"]), key=lambda o: int(o,16))')"
# one spelling of the line size for every command: --cacheline-size 128 is
# --double-cl, 64 the default; anything else is refused
run_c2c 0 "$TMP/c128.json" "$TMP/err" report -i "$TMP/mix.data" --show-all --cacheline-size 128 --json -
if cmp -s "$TMP/d.json" "$TMP/c128.json"; then ok; else fail "--cacheline-size 128 differs from --double-cl"; fi
run_c2c 0 "$TMP/c64.json" "$TMP/err" report -i "$TMP/mix.data" --show-all --double-cl \
	--cacheline-size 64 --json -
if cmp -s "$TMP/s.json" "$TMP/c64.json"; then ok; else fail "--cacheline-size 64 differs from the default"; fi
run_c2c 2 "$TMP/out" "$TMP/err" report -i "$TMP/mix.data" --cacheline-size 96
expect_contains "--cacheline-size 96" "--cacheline-size expects 64 or 128, not '96'" "$TMP/err"

# --rules modern: L2+HITM becomes a local HITM, mrem HITMs stop being DRAM
run_c2c 0 "$TMP/m.json" "$TMP/err" report -i "$TMP/mix.data" --rules modern --json -
run_c2c 0 "$TMP/p.json" "$TMP/err" report -i "$TMP/mix.data" --json -
moved=$(( $(json "$TMP/p.json" 'd["trace_event_information"]["ld_l2hit"]') - $(json "$TMP/m.json" 'd["trace_event_information"]["ld_l2hit"]') ))
[ "$moved" -gt 0 ] && ok || fail "modern rules moved no L2 HITM ($moved)"
expect_eq "L2 HITMs became local HITMs" "$moved" \
	"$(( $(json "$TMP/m.json" 'd["trace_event_information"]["lcl_hitm"]') - $(json "$TMP/p.json" 'd["trace_event_information"]["lcl_hitm"]') ))"
[ "$(json "$TMP/m.json" 'd["trace_event_information"]["rmt_dram"]')" -lt \
  "$(json "$TMP/p.json" 'd["trace_event_information"]["rmt_dram"]')" ] && ok ||
	fail "modern rules kept mrem HITMs as remote DRAM"

# a file cut short: warn, report what was read
size=$(stat -c %s "$TMP/mix.data")
head -c $((size * 6 / 10)) "$TMP/mix.data" >"$TMP/cut.data"
run_c2c 0 "$TMP/cut" "$TMP/cut.err" report -i "$TMP/cut.data"
expect_contains "truncation warned" "warning" "$TMP/cut.err"
records=$(grep 'Total records' "$TMP/cut" | awk '{print $NF}')
[ "${records:-0}" -gt 1000 ] && [ "${records:-0}" -lt 20000 ] && ok ||
	fail "cut file: expected part of the records, got '$records'"
# pipe mode (perf c2c report refuses it): perf inject turns the file into a
# stream; the summary figures do not depend on the host topology it writes
if command -v perf >/dev/null; then
	perf inject -i "$TMP/mix.data" -o - 2>/dev/null >"$TMP/pipe.stream"
	"$C2CSCOPE" report -i - --stats <"$TMP/pipe.stream" >"$TMP/pipe.out" 2>"$TMP/pipe.err" ||
		fail "pipe input: exit $?"
	expect_eq "pipe input: same figures" \
		"$(sed -n '1,/Global Shared/p' "$TMP/text" | grep ' : ')" \
		"$(sed -n '1,/Global Shared/p' "$TMP/pipe.out" | grep ' : ')"
	# a stream whose records go back in time cannot be read a second time
	# (a file is: in order, then sorted): stdin goes through perf's ordered
	# queue in its one pass (it used to fail on "bad magic" at the re-read)
	perf inject -i "$TMP/swapped.data" -o - 2>/dev/null >"$TMP/swapped.stream"
	run_c2c 0 "$TMP/sw.file" "$TMP/sw.ferr" report -i "$TMP/swapped.data" --stats --no-attrib
	cat "$TMP/swapped.stream" | "$C2CSCOPE" report -i - --stats --no-attrib >"$TMP/sw.pipe" \
		2>"$TMP/sw.perr" && ok || fail "out-of-order stream: exit $?: $(head -2 "$TMP/sw.perr")"
	expect_eq "out-of-order stream: same figures" \
		"$(sed -n '1,/Global Shared/p' "$TMP/sw.file" | grep ' : ')" \
		"$(sed -n '1,/Global Shared/p' "$TMP/sw.pipe" | grep ' : ')"
fi

# nothing usable: exit 2
head -c 300 "$TMP/mix.data" >"$TMP/stub.data"
run_c2c 2 "$TMP/stub" "$TMP/stub.err" report -i "$TMP/stub.data"
expect_contains "stub names the file" "stub.data" "$TMP/stub.err"

# one sample, two aggregation threads: a worker with no line at all (the
# ASan+UBSan build failed on it: memcpy from a NULL line array)
"$GEN" -n 1 -l 1 "$TMP/one.data" || fail "generator failed"
run_c2c 0 "$TMP/one" "$TMP/one.err" report -i "$TMP/one.data" --threads 2
expect_contains "one sample: counted" "Total records                     :          1" "$TMP/one"
# no sample at all: every section, all zero (UBSan: qsort of a NULL array)
"$GEN" -n 0 -l 1 "$TMP/zero.data" || fail "generator failed"
run_c2c 0 "$TMP/zero" "$TMP/zero.err" report -i "$TMP/zero.data"
expect_contains "no sample: counted" "Total records                     :          0" "$TMP/zero"
finish
