#!/usr/bin/env bash
# watch on a program it starts: exact write counts of two fields written by
# two threads (200,000 each), reads told from writes, the code line of
# each site, the exit status passed through, and the MESI replay: many
# transfers when the fields share a line, about none with padding; exact
# counts when a small ring (-m 8) loses samples, and the loss accounted.
source "$TOP_SRCDIR/tests/lib.sh"
source "$TOP_SRCDIR/tests/watch/watch_lib.sh"

n=200000
run_c2c 0 "$TMP/shared.json" "$TMP/err" watch -e counters.a -e counters.b --format json \
	-- "$shared" $n
cat "$TMP/err" >&2
expect_eq "a: writes" $n "$(field "$TMP/shared.json" counters.a writes)"
expect_eq "b: writes" $n "$(field "$TMP/shared.json" counters.b writes)"
expect_eq "a: reads (none in this mode)" 0 "$(field "$TMP/shared.json" counters.a reads)"
expect_eq "a: counter hits = samples" $n "$(field "$TMP/shared.json" counters.a hits)"
expect_eq "a: one thread" 1 "$(field "$TMP/shared.json" counters.a threads)"
a_addr=$(field "$TMP/shared.json" counters.a address)
b_addr=$(field "$TMP/shared.json" counters.b address)
expect_eq "b is 8 bytes after a (offsetof)" 8 $((b_addr - a_addr))

# The sites: function and line as the source says.
wa=$(line_of "the writer of a")
wb=$(line_of "the writer of b")
expect_eq "a's site" "write_a pair.c:$wa 0 $n" \
	"$(json "$TMP/shared.json" "' '.join(str(s[k]) for s in [f for f in d['fields'] if f['name']=='counters.a'][0]['sites'] for k in ('symbol','srcline','reads','writes'))")"
expect_eq "b's site" "write_b pair.c:$wb 0 $n" \
	"$(json "$TMP/shared.json" "' '.join(str(s[k]) for s in [f for f in d['fields'] if f['name']=='counters.b'][0]['sites'] for k in ('symbol','srcline','reads','writes'))")"

# Reads apart from writes: thread 2 reads a once per ten of its writes.
run_c2c 0 "$TMP/read.json" "$TMP/err" watch -e counters.a --format json -- "$shared" $n read
expect_eq "a: writes with a reader" $n "$(field "$TMP/read.json" counters.a writes)"
expect_eq "a: reads" $((n / 10)) "$(field "$TMP/read.json" counters.a reads)"
expect_eq "a: threads" 2 "$(field "$TMP/read.json" counters.a threads)"
ra=$(line_of "the reader of a")
expect_eq "the read site" "write_b pair.c:$ra $((n / 10)) 0" \
	"$(json "$TMP/read.json" "' '.join(str(s[k]) for s in d['fields'][0]['sites'] if s['reads'] for k in ('symbol','srcline','reads','writes'))")"

# replayed_hitm: large on one line, about 0 with the fields 64 bytes apart.
run_c2c 0 "$TMP/padded.json" "$TMP/err" watch -e counters.a -e counters.b --format json \
	-- "$padded" $n
hs=$(json "$TMP/shared.json" "d['replayed_hitm']")
hp=$(json "$TMP/padded.json" "d['replayed_hitm']")
echo "replayed_hitm: shared line $hs, padded $hp (of $((2 * n)) accesses)"
cpus=$(json "$TMP/shared.json" "min(f['cpus'] for f in d['fields'])")
if [ "$(nproc)" -lt 2 ] || [ "$cpus" -lt 2 ]; then
	echo "NOTE: the threads never ran on two cpus here: no transfers to replay" >&2
else
	[ "$hs" -ge $((2 * n / 100)) ] && ok || fail "shared line: replayed_hitm $hs < 1% of accesses"
	expect_eq "shared: the pairs are a and b" "True" \
		"$(json "$TMP/shared.json" "set((p['field'], p['writer']) for p in d['lines'][0]['pairs'][:2]) == {('counters.a','counters.b'), ('counters.b','counters.a')}")"
fi
[ "$hp" -le $((2 * n / 1000)) ] && ok || fail "padded: replayed_hitm $hp > 0.1% of accesses"
expect_eq "padded: two lines" 2 "$(json "$TMP/padded.json" "len(d['lines'])")"

# A small ring may lose samples; the counts stay exact and the loss adds up.
run_c2c 0 "$TMP/small.json" "$TMP/err" watch -m 8 -e counters.a -e counters.b --format json \
	-- "$shared" $n
expect_eq "small ring: a's hits" $n "$(field "$TMP/small.json" counters.a hits)"
expect_eq "small ring: b's hits" $n "$(field "$TMP/small.json" counters.b hits)"
# Lost comes from each breakpoint's own count (PERF_FORMAT_LOST): the
# LOST records miss what is lost after the last record the ring took.
# Hits neither sampled nor lost are the kernel's throttling, which the
# THROTTLE records must show.
thr=$(json "$TMP/small.json" "d['throttles']")
uns=$(json "$TMP/small.json" "d['unsampled']")
echo "small ring: lost $(json "$TMP/small.json" "d['lost']"), throttles $thr, unsampled $uns"
if [ "$thr" -eq 0 ]; then
	expect_eq "small ring: samples + lost = hits" $((2 * n)) \
		"$(json "$TMP/small.json" "d['samples'] + d['lost']")"
	expect_eq "small ring: nothing unsampled" 0 "$uns"
	if [ "$(json "$TMP/small.json" "d['lost_exact']")" = True ]; then
		for f in a b; do
			expect_eq "small ring: $f's samples + lost = hits" $n \
				"$(($(field "$TMP/small.json" counters.$f samples) + $(field "$TMP/small.json" counters.$f lost)))"
		done
	fi
else
	[ "$(json "$TMP/small.json" "d['samples'] + d['lost']")" -le $((2 * n)) ] && ok ||
		fail "small ring: more samples + lost than hits"
	expect_contains "small ring: the throttle warning" "the kernel throttled" "$TMP/err"
fi
if [ "$(json "$TMP/small.json" "d['lost']")" -gt 0 ]; then
	expect_contains "small ring: the warning" "samples lost (the counts are exact" "$TMP/err"
fi

# The text report says the same; the command's exit status passes through.
run_c2c 7 "$TMP/text" "$TMP/err" watch -e counters.b -- "$shared" 1000 x 7
expect_contains "text: b's writes" "writes 1000 (rmw 0)" "$TMP/text"
expect_contains "text: the method" "capstone" "$TMP/text"
finish
