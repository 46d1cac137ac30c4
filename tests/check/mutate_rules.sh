#!/usr/bin/env bash
# Robustness: seeded mutations of a rules file (`c2cscope check`, every
# output format) and of a JSON layout baseline (`check`, `diff`): tokens
# of both languages inserted, spans deleted and duplicated; and, for the
# baseline, valid JSON with wrong values (types, sizes, offsets, names),
# which the reader must reject or handle after parsing. Every run must
# exit 0, 1 or 2, within 20 s, without a sanitizer report.
source "$TOP_SRCDIR/tests/lib.sh"
command -v python3 >/dev/null || skip "python3 not installed"
count=${MUTATE_COUNT:-80}
seed=${MUTATE_SEED:-1}
tokens=()
for t in '{' '}' ';' '..' '.' ':' ',' '0x' '99999999999999999999' '-1' '"' \
	'include "demo.rules"' apart together group fits size '<=' '==' offset aligned \
	struct union '#' '//' '[' ']' null true 1e999 $'\\\n' $'\xff\xfe'; do
	tokens+=("--token=$t")
done

compile "$TMP/demo.o" "$TOP_SRCDIR/tests/check/gate_demo.c" -g -c || finish
cat >"$TMP/demo.rules" <<'R'
struct gate_demo {
	size <= 192
	isolated cold
	apart load_avg: a, b, cold
	together rt_se, rt_rq, inner.y
	offset load_avg == 64; offset inner.y == 92
	aligned cold 64
	holes <= 2
	group rtp: rt_se, rt_rq
	group rtp fits 1 line
}
R
run_c2c 0 "$TMP/base.json" "$TMP/err" layout --format json -C gate_demo "$TMP/demo.o"
# A v1 baseline holds top-level members only: rules on inner.y cannot be
# checked against it, so the baseline runs use these, which all hold.
cat >"$TMP/top.rules" <<'R'
struct gate_demo {
	size <= 192
	isolated cold
	apart load_avg: a, b, cold
	together rt_se, rt_rq
	offset load_avg == 64
	aligned cold 64
	holes <= 2
	group rtp: rt_se, rt_rq
	group rtp fits 1 line
}
R
run_c2c 0 "$TMP/out" "$TMP/err" check --rules "$TMP/top.rules" "$TMP/base.json"
cd "$TMP" || fail "cd"
python3 "$TOP_SRCDIR/tests/mutate.py" --text "${tokens[@]}" --seed "$seed" --count "$count" \
	--keep "$TMP" --ok 0,1,2 --opts="" --opts="-f json" --opts="-f sarif" --opts="-f junit" \
	"$TMP/demo.rules" -- "$C2CSCOPE" check --rules "{file}" "{opts}" "$TMP/demo.o" &&
	ok || fail "rules: see above"
python3 "$TOP_SRCDIR/tests/mutate.py" --text "${tokens[@]}" --seed "$seed" --count "$count" \
	--keep "$TMP" --ok 0,1,2 "$TMP/base.json" -- "$C2CSCOPE" diff "$TMP/base.json" "{file}" &&
	ok || fail "baseline (diff): see above"
python3 "$TOP_SRCDIR/tests/mutate.py" --text "${tokens[@]}" --seed "$((seed + 1))" \
	--count "$count" --keep "$TMP" --ok 0,1,2 "$TMP/base.json" -- \
	"$C2CSCOPE" check --rules "$TMP/top.rules" "{file}" &&
	ok || fail "baseline (check): see above"
for cmd in "diff $TMP/base.json {file}" "check --rules $TMP/top.rules {file}" \
	"diff {file} $TMP/base.json -f json"; do
	# shellcheck disable=SC2086 # the command's words
	python3 "$TOP_SRCDIR/tests/mutate.py" --json --seed "$seed" --count "$count" \
		--keep "$TMP" --ok 0,1,2 "$TMP/base.json" -- "$C2CSCOPE" $cmd &&
		ok || fail "baseline values ($cmd): see above"
done
finish
