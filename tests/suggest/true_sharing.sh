#!/usr/bin/env bash
# True sharing gets advice, not a re-layout: a counter every thread
# increments with a locked add, and a generation word two threads write
# now and then while all read it (on its own line, so no field pair shares
# one). suggest says no re-layout helps, names the remedies for each field
# and, from the measured counts (checked against perf script's samples),
# which are worth doing; --patch changes nothing. What only looks like true
# sharing, per-thread counters side by side in one array member, is false
# sharing between elements: no true-sharing advice, and the elements are
# told to take a line each.
source "$TOP_SRCDIR/tests/lib.sh"
source "$TOP_SRCDIR/tests/sim/common.sh"
sim_require
perf_require
command -v python3 >/dev/null || skip "python3 (reads the JSON) is missing"
N=2000

mkdir -p "$TMP/src"
cat >"$TMP/src/shared.c" <<'C'
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct stats {
	long hits;
	long gen __attribute__((aligned(64)));
};

static struct stats stats;
static long iterations;

static void *work(void *arg)
{
	long id = (long)arg, i, seen = 0;

	for (i = 0; i < iterations; i++) {
		__atomic_fetch_add(&stats.hits, 1, __ATOMIC_RELAXED);
		seen += ((volatile struct stats *)&stats)->gen;
		if (id < 2 && i % 64 == 0)
			((volatile struct stats *)&stats)->gen = i;
	}
	return (void *)seen;
}

int main(int argc, char **argv)
{
	pthread_t t[4];
	long i;

	iterations = argc > 1 ? atol(argv[1]) : 1000;
	for (i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, work, (void *)i);
	for (i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	printf("hits=%ld &hits=%p &gen=%p\n", stats.hits, (void *)&stats.hits, (void *)&stats.gen);
	return 0;
}
C
(cd "$TMP/src" && ${CC:-gcc} -g -O2 -pthread -o shared shared.c) || { fail "build"; finish; }
sim_record "$TMP/s.data" "$TMP/s.err" --sim-cpus 4 -- "$TMP/src/shared" $N
expect_contains "counts" "hits=$((4 * N))" "$TMP/stdout"
hits=$(printed '&hits' "$TMP/stdout")

# samples at ADDR from work's code: "LOCKED STORES HITM"
samples_at() {
	perf script -i "$TMP/s.data" -F ip,sym,addr,data_src 2>/dev/null | python3 -c '
import sys
addr = int(sys.argv[1], 16)
locked = stores = hitm = 0
for l in sys.stdin:
    f = l.split()
    if len(f) < 4 or f[-1] != "work" or int(f[0], 16) != addr:
        continue
    locked += "LCK Yes" in l
    stores += "OP STORE" in l
    hitm += "HitM" in l
print(locked, stores, hitm)' "$1"
}
read -r locked stores hitm < <(samples_at "$hits")
[ "$locked" -ge "$N" ] && ok || fail "perf sees $locked locked samples on hits, fewer than $N"

run_c2c 0 "$TMP/out" "$TMP/err" suggest --profile "$TMP/s.data" -C stats "$TMP/src/shared"
expect_contains "hits: the measured counts" \
	"true sharing: hits is written by 4 cpus of one object: $((locked + stores)) stores ($locked locked)" \
	"$TMP/out"
removes=$(sed -n 's/.*true sharing: hits .*; \([0-9]*\) HITMs no layout removes.*/\1/p' "$TMP/out")
[ -n "$removes" ] && [ "$removes" -le "$hitm" ] && [ $((removes * 100)) -ge $((hitm * 99)) ] && ok ||
	fail "hits: '$removes' HITMs called true sharing, perf counts $hitm on hits"
sed -n '/true sharing: hits /,/reference-free/p' "$TMP/out" >"$TMP/hits.adv"
expect_contains "hits: shard it" "here 4 cpus, $((locked + stores)) writes to" "$TMP/hits.adv"
expect_eq "hits: every remedy worth it" 3 "$(grep -c ': worth it$' "$TMP/hits.adv")"
sed -n '/true sharing: gen /,/reference-free/p' "$TMP/out" >"$TMP/gen.adv"
expect_contains "gen: written by the two threads" "true sharing: gen is written by 2 cpus" "$TMP/gen.adv"
expect_contains "gen: reads dominate, no sharding" "plain reads: not indicated" "$TMP/gen.adv"
expect_contains "gen: plain stores, no reference count" "from 2 cpus: not indicated" "$TMP/gen.adv"
expect_contains "the verdict" "verdict: no re-layout helps struct stats: its HITMs are true sharing" \
	"$TMP/out"

run_c2c 0 "$TMP/json" "$TMP/err" suggest --profile "$TMP/s.data" -C stats --format json \
	"$TMP/src/shared"
expect_eq "JSON: fields and what is worth it" \
	"hits shard=True ratelimit=True reference-free=True|gen shard=False ratelimit=True reference-free=False" \
	"$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print("|".join("%s %s" % (t["field"], " ".join("%s=%s" % (r["remedy"], r["worth_it"])
      for r in t["remedies"])) for t in d["true_sharing"]))' "$TMP/json")"

run_c2c 0 "$TMP/patch" "$TMP/perr" suggest --patch --source-dir "$TMP/src" --profile "$TMP/s.data" \
	-C stats "$TMP/src/shared"
expect_contains "--patch changes nothing" "nothing to change" "$TMP/perr"
expect_eq "--patch prints no diff" "" "$(cat "$TMP/patch")"

cat >"$TMP/src/elems.c" <<'C'
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct counters {
	long per_thread[4];
};

static struct counters counters;
static long iterations;

static void *work(void *arg)
{
	volatile long *mine = &counters.per_thread[(long)arg];
	long i;

	for (i = 0; i < iterations; i++)
		(*mine)++;
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[4];
	long i, total = 0;

	iterations = argc > 1 ? atol(argv[1]) : 1000;
	for (i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, work, (void *)i);
	for (i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	for (i = 0; i < 4; i++)
		total += counters.per_thread[i];
	printf("total=%ld\n", total);
	return 0;
}
C
(cd "$TMP/src" && ${CC:-gcc} -g -O2 -pthread -o elems elems.c) || { fail "build elems"; finish; }
sim_record "$TMP/e.data" "$TMP/e.err" --sim-cpus 4 -- "$TMP/src/elems" $N
expect_contains "elems: counts" "total=$((4 * N))" "$TMP/stdout"
run_c2c 0 "$TMP/elay" "$TMP/err" layout --profile "$TMP/e.data" -C counters "$TMP/src/elems"
grep -qE '^false sharing between elements: per_thread \([1-9][0-9]* HITMs' "$TMP/elay" && ok ||
	fail "elems: layout does not see the elements' false sharing"
expect_not_contains "elems: not true sharing" "true sharing: per_thread" "$TMP/elay"
run_c2c 0 "$TMP/eout" "$TMP/err" suggest --profile "$TMP/e.data" -C counters "$TMP/src/elems"
expect_contains "elems: each element a line" \
	"per_thread[4] as an array of struct { ... } __attribute__((aligned(64))) (32 -> 256 bytes)" \
	"$TMP/eout"
expect_not_contains "elems: no true-sharing advice" "true sharing: per_thread" "$TMP/eout"
finish
