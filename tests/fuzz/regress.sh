#!/usr/bin/env bash
# Every crash the fuzz targets found (tests/fuzz/regress/TARGET/*), replayed
# through the real c2cscope: each must end with exit 0, 1 or 2 and a
# message, within 20 s, without a sanitizer report (the ASan build in CI
# catches the out-of-bounds reads the plain build may survive). Then the
# same inputs and the committed seeds go through the harnesses themselves
# (tests/fuzz/replay_TARGET, built by make check).
source "$TOP_SRCDIR/tests/lib.sh"
dir="$TOP_SRCDIR/tests/fuzz/regress"
compile "$TMP/demo.o" "$TOP_SRCDIR/tests/check/gate_demo.c" -g -c || finish

# replay TARGET FILE: the command that reads FILE as TARGET's parser does
replay() {
	local f=$2
	case $1 in
	perf_file) timeout 20 "$C2CSCOPE" report --stdio -i "$f" ;;
	perf_pipe) timeout 20 "$C2CSCOPE" report --stdio -i - <"$f" ;;
	btf | dwarf) timeout 20 "$C2CSCOPE" layout "$f" ;;
	rules) timeout 20 "$C2CSCOPE" check --rules "$f" "$TMP/demo.o" ;;
	baseline) timeout 20 "$C2CSCOPE" diff "$f" "$TMP/demo.o" ;;
	*) echo "regress.sh: no command for target $1" >&2; return 99 ;;
	esac
}

n=0
for f in "$dir"/*/*; do
	[ -f "$f" ] || continue
	t=$(basename "$(dirname "$f")")
	replay "$t" "$f" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	n=$((n + 1))
	case $rc in
	0 | 1 | 2) ok ;;
	*) fail "$t/$(basename "$f"): exit $rc"; tail -5 "$TMP/err" >&2 ;;
	esac
	if grep -qE 'Sanitizer|runtime error:' "$TMP/err"; then
		fail "$t/$(basename "$f"): sanitizer report"
		head -20 "$TMP/err" >&2
	fi
	# a damaged input is said to be damaged (exit 2 or a warning), never silently read
	[ $rc -eq 2 ] || grep -q "warning" "$TMP/err" && ok ||
		fail "$t/$(basename "$f"): read without a word about the damage"
done
[ $n -gt 0 ] && ok || fail "no regression inputs under $dir"

# the same inputs, and the committed seeds, through the harness that took them
for d in "$dir"/* "$TOP_SRCDIR"/tests/fuzz/corpus/*; do
	t=$(basename "$d")
	bin="$TOP_BUILDDIR/tests/fuzz/replay_$t"
	[ -x "$bin" ] || { fail "$bin not built"; continue; }
	TMPDIR="$TMP" timeout 60 "$bin" "$d"/* >"$TMP/out" 2>"$TMP/err"
	rc=$?
	expect_eq "replay_$t $(basename "$(dirname "$d")")/$t: exit status" 0 "$rc"
	grep -qE 'Sanitizer|runtime error:' "$TMP/err" && fail "replay_$t: sanitizer report" &&
		head -20 "$TMP/err" >&2
done
# the BTF one and the DWARF one (gcc's DWARF for "struct outer { inner_t
# in; }" with the typedef inner_t pointed at outer): the cycle is named
"$C2CSCOPE" layout "$dir/btf/struct-holds-itself" >/dev/null 2>"$TMP/err"
expect_contains "struct holding itself" "contains itself by value" "$TMP/err"
"$C2CSCOPE" layout "$dir/dwarf/struct-holds-itself-via-typedef" >/dev/null 2>"$TMP/err"
expect_contains "DWARF struct holding itself" "corrupt DWARF: struct outer contains itself by value" "$TMP/err"
finish
