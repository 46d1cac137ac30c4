#!/usr/bin/env bash
# tests/lib.sh itself: finish fails a test that made no check (it proves
# nothing), fails one with a failed check, and passes one whose checks held.
source "$TOP_SRCDIR/tests/lib.sh"

verdict() { # BODY: the exit code of a test made of BODY and finish
	TMPDIR=$TMP bash -c "source \"\$TOP_SRCDIR/tests/lib.sh\"; $1; finish" >/dev/null 2>&1
	echo $?
}
expect_eq "no check: fails" 1 "$(verdict ':')"
expect_eq "a failed check: fails" 1 "$(verdict 'ok; fail x')"
expect_eq "checks that held: passes" 0 "$(verdict 'ok; expect_eq same a a')"
expect_eq "a skip: skipped" 77 "$(verdict 'skip why')"
finish
