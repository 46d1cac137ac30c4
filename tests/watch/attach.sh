#!/usr/bin/env bash
# watch -p: attach to a running process for --duration 1, or until Ctrl-C,
# and detach (the process keeps running); a heap object by TYPE.field@ADDR, attached
# before the threads start, with exact counts.
source "$TOP_SRCDIR/tests/lib.sh"
source "$TOP_SRCDIR/tests/watch/watch_lib.sh"

"$shared" 0 spin &
pid=$!
sleep 0.3
t0=$(date +%s.%N)
run_c2c 0 "$TMP/attach.json" "$TMP/err" watch -p $pid -e counters.a -e counters.b \
	--duration 1 --format json
t1=$(date +%s.%N)
kill -0 $pid 2>/dev/null && ok || fail "the process did not survive the detach"
kill $pid
wait $pid 2>/dev/null
expect_eq "attach: the pid" $pid "$(json "$TMP/attach.json" "d['pid']")"
secs=$(json "$TMP/attach.json" "d['seconds']")
python3 -c "import sys; sys.exit(not (0.9 <= $secs <= 3.0))" && ok ||
	fail "attach: watched $secs s for --duration 1"
python3 -c "import sys; sys.exit(not ($t1 - $t0 < 10))" && ok || fail "attach took too long"
writes=$(field "$TMP/attach.json" counters.a writes)
[ "$writes" -gt 0 ] && ok || fail "attach: no writes of counters.a seen"
expect_eq "attach: every sample decoded" 0 "$(field "$TMP/attach.json" counters.a unknown)"

# Ctrl-C (SIGINT) ends an attach the same way: a report, exit 0, detached.
"$shared" 0 spin &
pid=$!
sleep 0.3
"$C2CSCOPE" watch -p $pid -e counters.b --format json >"$TMP/int.json" 2>"$TMP/err" &
watch=$!
sleep 1
kill -INT $watch
wait $watch
expect_eq "SIGINT: exit" 0 $?
kill -0 $pid 2>/dev/null && ok || fail "SIGINT: the process did not survive the detach"
kill $pid
wait $pid 2>/dev/null
writes=$(field "$TMP/int.json" counters.b writes)
[ "$writes" -gt 0 ] && ok || fail "SIGINT: no writes of counters.b reported"

# A heap object: the program prints its address and waits for a line.
mkfifo "$TMP/in"
"$shared" 20000 heap <"$TMP/in" >"$TMP/addr" &
pid=$!
exec 3>"$TMP/in"
for _ in $(seq 50); do [ -s "$TMP/addr" ] && break; sleep 0.1; done
addr=$(head -1 "$TMP/addr")
"$C2CSCOPE" watch -p $pid -e "struct pair.b@$addr" -e "pair.a@$addr" --format json \
	>"$TMP/heap.json" 2>"$TMP/err" &
watch=$!
sleep 2 # armed well before this
echo go >&3
exec 3>&-
wait $watch
expect_eq "heap watch exit" 0 $?
wait $pid
expect_eq "heap: b's address is the object's + offsetof(b)" "$(printf '%#x' $((addr + 8)))" \
	"$(field "$TMP/heap.json" "struct pair.b@$addr" address)"
expect_eq "heap: b's writes" 20000 "$(field "$TMP/heap.json" "struct pair.b@$addr" writes)"
expect_eq "heap: a's writes" 20000 "$(field "$TMP/heap.json" "pair.a@$addr" writes)"
expect_eq "heap: a's type" "volatile long int" \
	"$(field "$TMP/heap.json" "pair.a@$addr" type)"
finish
