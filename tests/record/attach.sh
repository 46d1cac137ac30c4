#!/usr/bin/env bash
# -p PID attaches to a running process: its page faults after the attach
# are in the file with its pid, the program keeps running, and the
# recorder ends when it exits, with a file perf reads.
. "$TOP_SRCDIR/tests/lib.sh"
. "$TOP_SRCDIR/tests/record/common.sh"
perf_require
record_require

compile "$TMP/touch" "$TOP_SRCDIR/tests/record/touch_pages.c" -O1 -g || finish
"$TMP/touch" 4 >"$TMP/touch.out" &
pid=$!
"$C2CSCOPE" record -e page-faults -c 1 -p "$pid" -o "$TMP/p.data" >"$TMP/out" 2>"$TMP/err" &
rec=$!
wait "$pid"
# with its only target gone, the recorder ends by itself
for ((i = 0; i < 100; i++)); do
	kill -0 "$rec" 2>/dev/null || break
	sleep 0.1
done
if kill -0 "$rec" 2>/dev/null; then
	fail "record -p did not end within 10 s of its target's exit"
	kill -INT "$rec"
fi
wait "$rec"
expect_eq "exit status" 0 "$?"
perf script -i "$TMP/p.data" -F pid,addr,ip,sym 2>/dev/null >"$TMP/script"
# the last round's buffer was touched well after the attach
read -r base pages pagesz < <(tail -1 "$TMP/touch.out")
missing=$(pages_missing "$TMP/script" $pid "$base" "$pages" "$pagesz")
expect_eq "pages of the last buffer missing for pid $pid" 0 "$missing"
expect_eq "samples of other pids" 0 "$(awk -v p="$pid" '$1 != p' "$TMP/script" | wc -l)"
finish
