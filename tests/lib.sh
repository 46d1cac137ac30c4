# Shared helpers for integration tests (sourced). Each test is a bash script
# run by automake's harness: exit 0 pass, 1 fail, 77 skip, 99 hard error.
set -uo pipefail

: "${C2CSCOPE:?run through make check}"
: "${TOP_SRCDIR:?}"
: "${TOP_BUILDDIR:?}"
export C2CSCOPE_PROGRESS=0

TEST_NAME=$(basename "$0" .sh)
TMP=$(mktemp -d "${TMPDIR:-/tmp}/c2c-$TEST_NAME.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
failures=0
checks=0

fail() {
	echo "FAIL: $*" >&2
	failures=$((failures + 1))
}

ok() {
	checks=$((checks + 1))
}

skip() {
	echo "SKIP: $*" >&2
	exit 77
}

# expect_eq WHAT EXPECTED ACTUAL
expect_eq() {
	if [ "$2" == "$3" ]; then
		ok
	else
		fail "$1: expected '$2', got '$3'"
	fi
}

# expect_contains WHAT NEEDLE FILE
expect_contains() {
	if grep -qF -- "$2" "$3"; then
		ok
	else
		fail "$1: '$2' not found in $3:"
		sed 's/^/    | /' "$3" | head -40 >&2
	fi
}

expect_not_contains() {
	if grep -qF -- "$2" "$3"; then
		fail "$1: '$2' unexpectedly found in $3"
	else
		ok
	fi
}

# run_c2c EXPECTED_EXIT OUTFILE ERRFILE ARGS... : run c2cscope, check the exit code
run_c2c() {
	local want=$1 out=$2 errf=$3 rc
	shift 3
	"$C2CSCOPE" "$@" >"$out" 2>"$errf"
	rc=$?
	if [ "$rc" -ne "$want" ]; then
		fail "c2cscope $*: exit $rc, expected $want"
		sed 's/^/    stderr| /' "$errf" | head -20 >&2
	fi
	no_sanitizer_report "$errf" "c2cscope $*"
	return 0
}

# no_sanitizer_report ERRFILE WHAT: a sanitizer report in ERRFILE is always
# a failure, whatever the exit code: say so and stop the test (exit 99)
no_sanitizer_report() {
	if grep -qE 'Sanitizer|runtime error:' "$1"; then
		fail "$2: sanitizer report"
		cat "$1" >&2
		exit 99
	fi
}

# compile OUT SRC [FLAGS...]
compile() {
	local out=$1 src=$2
	shift 2
	${CC:-gcc} -o "$out" "$src" "$@" || { fail "cannot compile $src $*"; return 1; }
}

# finish: the test's verdict. A test that made no check proves nothing: it
# fails (one that cannot run here says so with skip).
finish() {
	if [ "$failures" -ne 0 ]; then
		echo "$TEST_NAME: $failures of $((checks + failures)) checks failed" >&2
		exit 1
	fi
	if [ "$checks" -eq 0 ]; then
		echo "$TEST_NAME: no check was made" >&2
		exit 1
	fi
	echo "$TEST_NAME: $checks checks passed"
	exit 0
}
