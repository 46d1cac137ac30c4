#!/usr/bin/env bash
# Robustness: seeded mutations of perf.data files (every record kind the
# generator writes: callchains, raw, group READ, branch stacks, user and
# interrupt registers, user stacks, a c2c mix) read by `c2cscope report`
# in each output mode. Every run must exit 0 or 2, within 20 s, without a
# sanitizer report (CI runs this in the ASan+UBSan build). MUTATE_COUNT
# and MUTATE_SEED run more or other mutations.
source "$TOP_SRCDIR/tests/lib.sh"
command -v python3 >/dev/null || skip "python3 not installed"
GEN="$TOP_BUILDDIR/tests/perf/perf_gen"
count=${MUTATE_COUNT:-60}
seed=${MUTATE_SEED:-1}

"$GEN" -n 6 -e 2 -g -r "$TMP/chain.data" || fail "perf_gen -g -r"
"$GEN" -n 6 -e 2 -R -B -u -I "$TMP/regs.data" || fail "perf_gen -R -B -u -I"
"$GEN" -M -n 40 -l 8 -x "$TMP/c2c.data" || fail "perf_gen -M"
for f in chain regs c2c; do
	python3 "$TOP_SRCDIR/tests/mutate.py" --seed "$seed" --count "$count" --keep "$TMP" \
		--opts="--stdio" --opts="--stdio --no-attrib" --opts="--json -" \
		--opts="--stdio --by-type" --opts="--stdio --stats" \
		"$TMP/$f.data" -- "$C2CSCOPE" report -i "{file}" "{opts}" &&
		ok || fail "$f.data: a mutation crashed, hung or tripped a sanitizer (see above)"
done
finish
